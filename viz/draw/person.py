"""A person on the plan: his token (the disc in his party's colour, his nose, the base he
kneels on, the short name on it), what he holds drawn as small objects beside him
(`held_glyphs`), and a frame's per-person columns (`_Cols`) the other parts read.

His tags (bows, what he holds, what he says) are placed by viz.draw.tags; a plate writes a
person as his name instead (viz.draw.plate_people).
"""
from __future__ import annotations

import math

import numpy as np

from viz.draw import dress
from viz.draw.camera import ymap_for
from viz.draw.display import Circle, Color, Line, Polygon, Primitive, Text
from viz.draw.options import VIEWS, WHITE, SceneOptions, facing_vector, text_width_em
from viz.draw.props import PROP_INK, prop_glyph
from viz.model.timeline import POSTURES

SIT, BOW, BOW_HANDS = (POSTURES.index(p) for p in ("坐", "拜", "揖"))
BOW_WORDS = {1: "拜", 2: "再拜", 3: "三拜"}  # by the number of bows in the gesture
HELD_SEP = "·"


def short_label(label: str) -> str:
    """What fits inside a token: 上射1 → 上1, 衆賔3 → 衆3; one- and two-character labels as they are."""
    digits = label[len(label.rstrip("0123456789")):]
    stem = label[: len(label) - len(digits)]
    if digits and len(stem) > 1:
        return stem[0] + digits
    return label


class _Cols:
    """A frame's per-person arrays as Python lists (one conversion a frame, not a numpy
    scalar a person and field): the same numbers, but where they stand, with lod, put on the
    view's whole pixels (`snapped`)."""

    def __init__(self, frame, o: SceneOptions) -> None:
        n = len(frame.present)
        self.present: list[bool] = frame.present.tolist()
        self.at: np.ndarray = snapped(frame.xy, o) if o.lod else frame.xy
        self.xy: list[list[float]] = self.at.tolist()
        self.facing: list[float] = frame.facing.tolist()
        self.posture: list[int] = frame.posture.tolist()
        self.count: list[int] = frame.count.tolist()
        self.phase: list[float] = frame.phase.tolist()
        kneel = frame.seated.tolist()[:n]
        kneel += [False] * (n - len(kneel))
        self.seated = [p == SIT or bool(s) for p, s in zip(self.posture, kneel, strict=True)]

    def radius(self, i: int, r0: float) -> float:
        """_drawn_r."""
        r = r0 * 0.8 if self.seated[i] else r0
        if self.posture[i] == BOW:
            bows = max(self.count[i], 1)
            r *= 1.0 - 0.28 * abs(math.sin(math.pi * bows * self.phase[i]))
        return r


_columns: list = []  # [(frame, grid, _Cols)]: the last frames' (the main view's, the inset's)


def _cols(frame, o: SceneOptions) -> _Cols:
    grid = (o.lod, o.px_per_chi, o.breaks)
    for fr, g, c in _columns:
        if fr is frame and g == grid:
            return c
    c = _Cols(frame, o)
    _columns[:] = [(frame, grid, c), *_columns[:VIEWS - 1]]
    return c


def snapped(xy: np.ndarray, o: SceneOptions) -> np.ndarray:
    """(n, 2) places in 尺 moved (by under half a px) to the view's whole pixels: a walker's
    token and tags are drawn again only when he crosses a pixel, not every frame (the token
    is copied onto whole pixels anyway)."""
    k = max(o.px_per_chi, 1e-6)
    ymap = ymap_for(o.breaks)
    out = np.empty_like(xy, dtype=float)
    out[:, 0] = np.round(xy[:, 0] * k) / k
    out[:, 1] = ymap.inv(np.round(np.asarray(ymap.fwd(xy[:, 1]), float) * k) / k)
    return out


def _token(x: float, y: float, r: float, r0: float, seated: bool, facing: float,
           label: str | None, col: Color, least: float = 8.0) -> list[Primitive]:
    """A person's token: the base he kneels on, his nose, his disc, the label on it."""
    out: list[Primitive] = []
    if seated:  # lower and smaller, on a square base (the mat-kneel)
        s = r0 * 1.05
        out.append(Polygon(((x - s, y - s), (x + s, y - s), (x + s, y + s), (x - s, y + s)),
                           (236, 228, 210), col, 1.5))
    fx, fy = facing_vector(facing)
    out.append(facing_mark(x, y, fx, fy, r, col))
    out.append(Circle((x, y), r, col, (20, 16, 12), 1.0))
    if label is None:  # one of a formation, named with it
        return out
    text = short_label(label)
    em = max(text_width_em(text), 1.0)
    out.append(Text((x, y), text, min(2 * r * 0.92 / em, r * 1.15), WHITE, "c", unit="chi",
                    min_px=least, max_px=max(18.0, least * 1.5)))
    return out


def _seated(frame, i: int) -> bool:
    return int(frame.posture[i]) == SIT or (len(frame.seated) > i and bool(frame.seated[i]))


def _drawn_r(frame, i: int, r0: float) -> float:
    """The token's radius as drawn: smaller seated, dipping once per bow of the gesture."""
    r = r0 * 0.8 if _seated(frame, i) else r0
    if int(frame.posture[i]) == BOW:
        bows = max(int(frame.count[i]), 1)
        r *= 1.0 - 0.28 * abs(math.sin(math.pi * bows * float(frame.phase[i])))
    return r



def facing_mark(x: float, y: float, fx: float, fy: float, r: float, col: Color) -> Polygon:
    """A nose: a triangle whose tip stands 0.6 r beyond the token edge in the facing direction."""
    px, py = -fy, fx  # perpendicular
    tip = (x + fx * r * 1.6, y + fy * r * 1.6)
    b = 0.55 * r
    base = (x + fx * r * 0.6, y + fy * r * 0.6)
    return Polygon((tip, (base[0] + px * b, base[1] + py * b), (base[0] - px * b, base[1] - py * b)),
                   col, (20, 16, 12), 1.0)


def held_glyphs(x: float, y: float, facing: float, r: float, held: dict[str, int], k: float,
                ui: float) -> list[Primitive]:
    """What a person holds as small objects: a bow in his left hand, at his left side, the
    arrows he holds across its string (dress.held_bow: 執弓, 挾矢; unstrung, along it); anything
    else behind him (away from his nose), side by side: one arrow a 矢 held without a bow (up
    to four), a cup …"""
    u = ui / max(k, 1e-6)
    fx, fy = facing_vector(facing)
    bx, by = x - fx * (r + 5 * u), y - fy * (r + 5 * u)
    out: list[Primitive] = []
    bows = [name for name in ("弓", "弛弓") if name in held]
    bow = bows[0] if len(bows) == 1 and held[bows[0]] == 1 else None  # one bow: his own, in hand
    if bow is not None:  # (a 有司 carrying a 耦's two bows keeps them behind him)
        out += dress.held_bow(x, y, fx, fy, r, u, strung=bow == "弓", arrows=held.get("矢", 0))
        held = {name: n for name, n in held.items() if name not in (bow, "矢")}
    items = [name for name, n in held.items() for _ in range(min(n, 4) if name == "矢" else 1)]
    px, py = -fy, fx
    step = 5.0 * u
    for m, name in enumerate(items):
        off = (m - (len(items) - 1) / 2) * step
        gx, gy = bx + px * off, by + py * off
        if name == "矢":  # a short shaft pointing where he faces
            out.append(Line(((gx - fx * 4 * u, gy - fy * 4 * u), (gx + fx * 4 * u, gy + fy * 4 * u)),
                            PROP_INK, 1.5))
        else:
            out += prop_glyph(gx, gy, name, k, ui, held=True)
    return out
