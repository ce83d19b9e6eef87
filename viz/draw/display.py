"""Display-list primitives: what a frame looks like, in 尺, independent of any drawing library.

Conventions (every back end follows them):
- Positions are in 尺 in the layout frame (x east, y north), unless `screen=True`, in which case
  they are pixels from the top-left of the target surface (HUD, panels).
- Widths of strokes are in screen pixels: a hair-line stays a hair-line at every zoom.
- Radii are in 尺, with `min_px`: a token never shrinks below a size one can see and read.
- Text size is in screen pixels (legible at every zoom) unless `unit="chi"`, when it scales with
  the plan like the thing it names (a label inside a token); `min_px` then keeps it readable and
  `max_px` keeps it from swamping the plan.
- Colours are (r, g, b) or (r, g, b, a) tuples of ints 0..255.

A frame is a list of `Layer`s, drawn in order, each a list of primitives with its own camera and
clip box (see viz.draw.compose).
"""
from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from viz.draw.camera import Camera

Color = tuple[int, ...]
Pt = tuple[float, float]
Box = tuple[int, int, int, int]  # x, y, w, h in pixels


@dataclass(frozen=True)
class Circle:
    center: Pt
    r: float
    fill: Color | None = None
    stroke: Color | None = None
    width: float = 1.0
    min_px: float = 0.0
    screen: bool = False


@dataclass(frozen=True)
class Polygon:
    points: tuple[Pt, ...]
    fill: Color | None = None
    stroke: Color | None = None
    width: float = 1.0
    screen: bool = False


@dataclass(frozen=True)
class Line:
    """An open polyline (closed=True joins the last point to the first); dash = (on, off) in px."""

    points: tuple[Pt, ...]
    color: Color
    width: float = 1.0
    dash: tuple[float, float] | None = None
    closed: bool = False
    screen: bool = False


@dataclass(frozen=True)
class Text:
    """anchor: which point of the text box sits at pos: c, n, s, e, w, ne, nw, se, sw."""

    pos: Pt
    text: str
    size: float = 12.0
    color: Color = (40, 40, 40)
    anchor: str = "c"
    unit: str = "px"  # "px" | "chi"
    min_px: float = 0.0
    max_px: float = 1e9
    bg: Color | None = None  # a box behind the text (speech bubbles, prop tags)
    border: Color | None = None
    screen: bool = False
    halo: Color | None = None  # a 1 px rim round each glyph (a map's halo): lines under the
    # words stop short of them, as on a printed plate, where a box would hide the plan


@dataclass(frozen=True)
class Rect:
    """A screen-space box (x, y, w, h) in pixels: panels, buttons, the timeline bar."""

    box: tuple[float, float, float, float]
    fill: Color | None = None
    stroke: Color | None = None
    width: float = 1.0
    radius: int = 0


@dataclass(frozen=True)
class Sprite:
    """Primitives that look the same wherever `at` stands (a person's token: nose, disc, label),
    drawn back to front: a back end may draw them once and copy the pixels to each place where
    they look the same (pgdraw), or draw `parts` one by one (SVG, tests). `at` and the parts are
    in 尺."""

    at: Pt
    parts: tuple[Circle | Polygon | Line | Text | Rect, ...]


Primitive = Circle | Polygon | Line | Text | Rect | Sprite


@dataclass(frozen=True)
class Layer:
    """Primitives drawn back to front through one camera, inside one clip box (None: everywhere).

    `key` is set only on a layer that paints every pixel of its clip box (its first primitive is
    an opaque Rect over the box) and is the same whenever its pixels are: a back end may keep
    the pixels and reuse them while the key is unchanged. The camera is never changed after the
    layer is made.
    """

    name: str
    clip: Box | None
    camera: Camera
    prims: tuple[Primitive, ...]
    key: Hashable | None = None
