"""A plate's scale bar (尺 and m) with its north arrow, and the legend of its marks, at the foot
of the column beside the plan."""
from __future__ import annotations

from viz.base.lang import tr
from viz.draw import dress, labels, scene
from viz.draw.camera import Camera
from viz.draw.display import Circle, Line, Polygon, Primitive, Text
from viz.draw.plate_page import GREY, INK, PAPER, ZHU, ZHU_FAINT

LEGEND = ("立", "坐", "面向", "始", "行至", "次第（依經文）", "袒")


def _scale(cam: Camera, chi_m: float, x: float, bottom: float, width: float,
           px: float) -> tuple[list[Primitive], float]:
    """The plan's scale bar (尺, and m) and its north arrow, in the column above the legend,
    where no wall or name runs through them; and the height they take."""
    k = px * 0.85
    chi = scene.nice_length(min(width * 0.55, 220.0) / cam.scale)
    w = chi * cam.scale
    y1 = bottom - k * 0.9  # the bar's foot
    x0 = x + k * 2.2  # the arrow stands left of it
    out: list[Primitive] = []
    for j in range(2):
        out.append(Polygon(((x0 + j * w / 2, y1 - 6), (x0 + (j + 1) * w / 2, y1 - 6),
                            (x0 + (j + 1) * w / 2, y1), (x0 + j * w / 2, y1)),
                           INK if j == 0 else PAPER, INK, 1.0, screen=True))
    out += [Text((x0, y1 - 8), "0", k * 0.9, INK, "s", screen=True),
            Text((x0 + w, y1 - 8), scene.SCALE_NOTE.format(chi=chi, m=chi * chi_m), k * 0.9,
                 INK, "s", screen=True)]
    nx = x + k * 0.6
    out += [Polygon(((nx, y1 - k * 2.4), (nx + k * 0.5, y1), (nx, y1 - k * 0.4),
                     (nx - k * 0.5, y1)), INK, INK, 1.0, screen=True),
            Text((nx, y1 - k * 2.5), scene.NORTH, k, INK, "s", screen=True)]
    return out, k * 4.6


def _legend(x: float, bottom: float, px: float) -> tuple[list[Primitive], float]:
    """What the marks mean, in two rows at the foot of the column; and its height."""
    k = px * 0.85
    row = k * 1.9
    top = bottom - 2 * row
    out: list[Primitive] = [Line(((x, top - k * 0.6), (x + k * 16, top - k * 0.6)), GREY, 1.0,
                                 screen=True)]
    y0, y1 = top + row * 0.5, top + row * 1.5
    # a column wide enough for the longest word that has another after it (English is longer)
    step = max(k * 5.2, max(labels.text_size(tr(LEGEND[i]), k)[0] for i in (0, 1, 2, 3, 4))
               + k * 2.8)
    # row one: standing, seated, facing
    out += [Circle((x + k * 0.5, y0), 2.6, INK, None, screen=True),
            Text((x + k * 1.3, y0), tr(LEGEND[0]), k, INK, "w", screen=True),
            Polygon(((x + step + k * 0.5 - 3, y0 - 3), (x + step + k * 0.5 + 3, y0 - 3),
                     (x + step + k * 0.5 + 3, y0 + 3), (x + step + k * 0.5 - 3, y0 + 3)),
                    PAPER, INK, 1.5, screen=True),
            Text((x + step + k * 1.3, y0), tr(LEGEND[1]), k, INK, "w", screen=True),
            Circle((x + 2 * step + k * 0.2, y0), 2.6, INK, None, screen=True),
            Line(((x + 2 * step + k * 0.2, y0), (x + 2 * step + k * 1.2, y0)), INK, 2.0,
                 screen=True),
            Text((x + 2 * step + k * 1.6, y0), tr(LEGEND[2]), k, INK, "w", screen=True),
            Circle((x + 3 * step + k * 0.5, y0), 3.3, dress.SKIN, INK, 1.3, screen=True),
            Text((x + 3 * step + k * 1.3, y0), tr(LEGEND[6]), k, INK, "w", screen=True)]
    # row two: where a move starts, the move, its number
    out += [Circle((x + k * 0.5, y1), 3.5, None, ZHU_FAINT, 1.5, screen=True),
            Text((x + k * 1.3, y1), tr(LEGEND[3]), k, INK, "w", screen=True),
            Line(((x + step, y1), (x + step + k * 1.6, y1)), ZHU, 1.5, dash=(2.0, 4.0),
                 screen=True),
            Polygon(((x + step + k * 2.2, y1), (x + step + k * 1.6, y1 - 3),
                     (x + step + k * 1.6, y1 + 3)), ZHU, ZHU, 1.0, screen=True),
            Text((x + step + k * 2.6, y1), tr(LEGEND[4]), k, INK, "w", screen=True),
            Text((x + 2 * step + k * 0.5, y1), "1", k * 0.9, PAPER, "c", bg=ZHU, screen=True),
            Text((x + 2 * step + k * 1.3, y1), tr(LEGEND[5]), k, INK, "w", screen=True)]
    return out, 2 * row + k
