"""The scale bar (尺 and m) and the north arrow, anchored to the screen whatever the zoom."""
from __future__ import annotations

import math

from viz.draw.camera import Camera
from viz.draw.display import Polygon, Primitive, Text
from viz.draw.options import INK, WHITE

SCALE_NOTE = "{chi:g} 尺 ≈ {m:.1f} m"
NORTH = "北"


def nice_length(max_chi: float) -> float:
    """The largest 1-2-5 × 10^k not over max_chi."""
    if max_chi <= 0:
        return 1.0
    e = 10 ** math.floor(math.log10(max_chi))
    for m in (5, 2, 1):
        if m * e <= max_chi:
            return m * e
    return e


def overlay(camera: Camera, chi_m: float, corner: tuple[float, float]) -> list[Primitive]:
    """Screen-anchored scale bar (尺 and m, measured along x, which breaks never touch) and a
    north arrow, with their bottom-left at `corner` (px)."""
    x0, y0 = corner
    chi = nice_length(140 / camera.scale)
    w = chi * camera.scale
    out: list[Primitive] = []
    for k in range(2):
        seg = ((x0 + k * w / 2, y0 - 6), (x0 + (k + 1) * w / 2, y0 - 6),
               (x0 + (k + 1) * w / 2, y0), (x0 + k * w / 2, y0))
        out.append(Polygon(seg, INK if k == 0 else WHITE, INK, 1.0, screen=True))
    out.append(Text((x0, y0 - 8), "0", 10, INK, "s", screen=True))
    out.append(Text((x0 + w, y0 - 8), SCALE_NOTE.format(chi=chi, m=chi * chi_m), 10, INK, "sw",
                    screen=True))
    nx, ny = x0 + 12, y0 - 30
    out.append(Polygon(((nx, ny - 22), (nx + 7, ny), (nx, ny - 5), (nx - 7, ny)), INK, INK, 1.0,
                       screen=True))
    out.append(Text((nx, ny - 24), NORTH, 12, INK, "s", screen=True))
    return out
