"""Plate files: one moment of the rite as a printed 禮圖 plate, PNG (pgdraw) and SVG (svgdraw).

    render_plate(compiled, moment_t, closing, *, style="plate", trails="step", follow=None,
                 size=(1600, 1130)) -> tuple[bytes, str]     # (PNG bytes, SVG text)
    plate_layers(compiled, moment_t, closing, *, style, trails, follow, size) -> Plate
    WRITERS: {".png": png_bytes, ".svg": svg_bytes}            # a file's suffix → its writer

`compiled` is what viz.model.rite.Rite(...).get() returns (layout, corpus, timeline are read).
The layers are viz.draw.plate's; both files are drawn from the same list, so they show the same
plate.
"""
from __future__ import annotations

import struct
import zlib
from collections import OrderedDict
from collections.abc import Callable, Sequence

import numpy as np

from viz.backends import pgdraw, svgdraw
from viz.draw import plate as layers_of
from viz.draw.compose import Model
from viz.draw.plate import DEFAULT_SIZE, Part, Plate

_models: OrderedDict[int, tuple[object, Model]] = OrderedDict()


def model_for(compiled) -> Model:
    """One composer Model per compiled rite (kept: it memoises stage bounds and static layers)."""
    key = id(compiled)
    kept = _models.get(key)
    if kept is not None and kept[0] is compiled:
        _models.move_to_end(key)
        return kept[1]
    m = pgdraw.with_font(Model(compiled.layout, compiled.timeline, compiled.corpus))
    _models[key] = (compiled, m)
    if len(_models) > 4:
        _models.popitem(last=False)
    return m



def plate_layers(compiled, moment_t: float, closing: bool = False, *, style: str = "plate",
                 trails: str = "step", follow: str | None = None,
                 size: tuple[int, int] = DEFAULT_SIZE, part: Part | None = None,
                 about: str | None = None) -> Plate:
    """The layers of one plate of a compiled rite (viz.draw.plate.plate_layers on its Model)."""
    return layers_of.plate_layers(model_for(compiled), moment_t, closing, style=style,
                                  trails=trails, follow=follow, size=size, part=part,
                                  about=about)


def png_bytes(plate: Plate) -> bytes:
    """The plate drawn by pgdraw, as PNG bytes."""
    import pygame

    surface = pygame.Surface(plate.size)
    pgdraw.draw_layers(surface, plate.layers)
    w, h = surface.get_size()
    return encode_png(np.frombuffer(pygame.image.tobytes(surface, "RGB"), np.uint8)
                      .reshape(h, w, 3))


def encode_png(rgb: np.ndarray, level: int = 3) -> bytes:
    """An (h, w, 3) uint8 image as PNG bytes: every row unfiltered, one zlib stream.

    pygame's PNG writer took three quarters of a plate's time (150 ms at 1600×1130); this one
    takes about 20 ms at zlib level 3, and its bytes depend on the pixels alone (an atlas built
    twice is byte-identical). A plate is flat paper with lines on it: unfiltered rows come out
    a fifth smaller than Sub-filtered ones, and sooner."""
    h, w, _ = rgb.shape
    rows = np.empty((h, w * 3 + 1), np.uint8)
    rows[:, 0] = 0  # filter type 0 (None) on each row
    rows[:, 1:] = rgb.reshape(h, w * 3)
    data = rows.tobytes()

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body)))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(data, level)) + chunk(b"IEND", b""))


def svg_text(plate: Plate) -> str:
    """The plate drawn by svgdraw, as an SVG document."""
    return svgdraw.svg_document(plate.layers, plate.size, plate.title)


def svg_bytes(plate: Plate) -> bytes:
    """The SVG document as UTF-8 bytes."""
    return svg_text(plate).encode("utf-8")


WRITERS: dict[str, Callable[[Plate], bytes]] = {".png": png_bytes, ".svg": svg_bytes}


def render_plate(compiled, moment_t: float, closing: bool = False, *, style: str = "plate",
                 trails: str = "step", follow: str | None = None,
                 size: tuple[int, int] = DEFAULT_SIZE, part: Part | None = None
                 ) -> tuple[bytes, str]:
    """(PNG bytes, SVG text) of one plate; see the module docstring."""
    p = plate_layers(compiled, moment_t, closing, style=style, trails=trails, follow=follow,
                     size=size, part=part)
    return png_bytes(p), svg_text(p)


def bench(compiled, moments: Sequence[tuple[float, bool]], size=DEFAULT_SIZE) -> dict[str, float]:
    """Plates per second for these moments: layers, PNG and SVG timed apart (bench/ calls it)."""
    import time

    out = {}
    t0 = time.perf_counter()
    plates = [plate_layers(compiled, t, c, size=size) for t, c in moments]
    out["layers_per_s"] = len(plates) / max(time.perf_counter() - t0, 1e-9)
    t0 = time.perf_counter()
    for p in plates:
        png_bytes(p)
    out["png_per_s"] = len(plates) / max(time.perf_counter() - t0, 1e-9)
    t0 = time.perf_counter()
    for p in plates:
        svg_text(p)
    out["svg_per_s"] = len(plates) / max(time.perf_counter() - t0, 1e-9)
    return out

