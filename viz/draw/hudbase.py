"""The HUD's ink, type and room: its colours, the UI scale and where the map, the text panel
and the bar go at it, text measured and wrapped by a width estimate, and screen primitives drawn
larger (the HUD is built at 1/k of the window and drawn k times larger: one scale for everything).

Text is wrapped with a width estimate, not a font: in the bundled Noto face every hanzi and
CJK punctuation mark is one em wide, which is what the estimate assumes.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache

from viz.draw.display import Color, Line, Polygon, Primitive, Rect, Text
from viz.draw.scene import text_width_em

PAPER: Color = (250, 247, 240)
PANEL_BG: Color = (244, 239, 228)
INK: Color = (40, 34, 28)
GREY: Color = (120, 110, 98)
FAINT: Color = (176, 166, 152)
RED: Color = (150, 36, 30)
HILITE: Color = (252, 226, 150)
BAR_H = 66
WRAP_MEMO = 4096  # wrapped texts kept (a section's clauses at a few sizes: a few hundred)
NO_BREAK_START = set("，。、：；！？」』）》〉…")
ELLIPSIS = "…"
UI_BASE = (1366, 768)  # px: the window at which the UI scale is 1
UI_ROOM = (900, 500)  # px: the least the HUD is laid out in: the scale grows no further than


def ui_scale(size: tuple[int, int], user: float = 1.0) -> float:
    """How much larger the whole picture's parts are drawn (names, tokens, glyphs, the text
    panel, the bar): 1 up to 1366×768, growing with the window beyond it (1.4 at 1920×1080),
    times the user's own scale (Ctrl + / −, --scale)."""
    grown = max(1.0, min(size[0] / UI_BASE[0], size[1] / UI_BASE[1])) * float(user)
    return min(grown, max(1.0, min(size[0] / UI_ROOM[0], size[1] / UI_ROOM[1])))


def areas(size: tuple[int, int], user: float = 1.0) -> dict[str, tuple[int, int, int, int]]:
    """Where the map, the panel and the bar go in a window of this size, at the user's UI scale
    (the panel and the bar grow with ui_scale)."""
    return areas_at(size, ui_scale(size, user))


def areas_at(size: tuple[int, int], k: float) -> dict[str, tuple[int, int, int, int]]:
    """areas at a UI scale k already worked out (ui_scale(size, user))."""
    w, h = size
    pw = int(min(max(w * 0.28, 280 * k), 420 * k, w * 0.5))  # a narrow window keeps half
    bh = min(round(BAR_H * k), h // 3)
    return {"map": (0, 0, max(w - pw, 1), max(h - bh, 1)),
            "panel": (w - pw, 0, max(pw, 1), max(h - bh, 1)), "bar": (0, h - bh, w, max(bh, 1))}


def bar_track(size: tuple[int, int], user: float = 1.0) -> tuple[float, float, float, float]:
    """The clickable track of the timeline bar: x, y, w, h in pixels."""
    return track_at(size, ui_scale(size, user))


def track_at(size: tuple[int, int], k: float) -> tuple[float, float, float, float]:
    """bar_track at a UI scale k already worked out."""
    x, y, w, h = areas_at(size, k)["bar"]
    return (x + 14 * k, y + 4 * k, w - 28 * k, h - 8 * k)


def text_width(s: str, px: float) -> float:
    return text_width_em(s) * px


def _tokens(s: str) -> list[str]:
    """Hanzi and CJK marks one by one; Latin words whole with their trailing space."""
    out: list[str] = []
    word = ""
    for c in s:
        if ord(c) > 0x2E7F or c == "\n":
            if word:
                out.append(word)
                word = ""
            out.append(c)
        else:
            word += c
            if c == " ":
                out.append(word)
                word = ""
    if word:
        out.append(word)
    return out


def wrap(s: str, px: float, width: float) -> list[str]:
    """Break between hanzi or at spaces, keeping closing punctuation off the start of a line."""
    return list(_wrap(s, px, width))


@lru_cache(maxsize=WRAP_MEMO)
def _wrap(s: str, px: float, width: float) -> tuple[str, ...]:
    """wrap, kept by (text, px, width): the panel wraps the same clauses every frame."""
    lines, cur, w = [], "", 0.0
    for tok in _tokens(s):
        if tok == "\n":
            lines.append(cur)
            cur, w = "", 0.0
            continue
        tw = text_width(tok.rstrip(), px)
        if cur and w + tw > width and tok[0] not in NO_BREAK_START:
            lines.append(cur.rstrip())
            cur, w = "", 0.0
        while tw > width and len(tok) > 1:  # a word longer than the line: cut it
            k = 1
            while k < len(tok) and text_width(tok[:k + 1], px) <= width:
                k += 1
            lines.append(tok[:k])
            tok = tok[k:]
            tw = text_width(tok.rstrip(), px)
        cur += tok
        w += text_width(tok, px)
    if cur or not lines:
        lines.append(cur.rstrip())
    return tuple(lines)


def logical(size: tuple[int, int], user: float = 1.0
            ) -> tuple[float, dict[str, tuple[float, float, float, float]], tuple[float, float]]:
    """(k, areas, size) of the HUD as it is built: at 1/k of the window, then drawn k times
    larger (scaled), k = ui_scale(size, user). At k = 1 the window's own areas and size."""
    k = ui_scale(size, user)
    a = areas(size, user)
    if k == 1.0:
        return k, dict(a), (size[0], size[1])
    return k, {n: tuple(v / k for v in b) for n, b in a.items()}, (size[0] / k, size[1] / k)


def _pts(points, k: float) -> tuple[tuple[float, float], ...]:
    return tuple((x * k, y * k) for x, y in points)


def scaled(prims, k: float) -> tuple[Primitive, ...]:
    """Screen primitives drawn k times larger about the window's top left corner: positions,
    sizes, line widths, radii (the HUD built at 1/k of the window fills it)."""
    if k == 1.0:
        return tuple(prims)
    out: list[Primitive] = []
    for p in prims:
        if isinstance(p, Text):
            out.append(replace(p, pos=(p.pos[0] * k, p.pos[1] * k), size=p.size * k,
                               min_px=p.min_px * k, max_px=p.max_px * k))
        elif isinstance(p, Rect):
            out.append(replace(p, box=tuple(v * k for v in p.box), width=p.width * k,
                               radius=round(p.radius * k)))
        elif isinstance(p, Line):
            out.append(replace(p, points=_pts(p.points, k), width=p.width * k,
                               dash=None if p.dash is None else (p.dash[0] * k, p.dash[1] * k)))
        elif isinstance(p, Polygon):
            out.append(replace(p, points=_pts(p.points, k), width=p.width * k))
        else:
            out.append(p)
    return tuple(out)


def _box(box, k: float):
    return box if k == 1.0 else tuple(v * k for v in box)


def shorten_left(s: str, px: float, width: float) -> str:
    """s, or its end after "…" when it is wider than width (a path: its file name and line
    are what matters)."""
    if text_width(s, px) <= width:
        return s
    room = width - text_width(ELLIPSIS, px)
    k = len(s)
    while k > 0 and text_width(s[k - 1:], px) <= room:
        k -= 1
    return ELLIPSIS + s[k:]


@dataclass(frozen=True)
class HudState:
    """What the window's HUD shows besides the moment: play state, toggles, typing, a message."""

    playing: bool = False
    speed: float = 1.0
    show_notes: bool = False
    search: str | None = None  # text being typed after "/", None when closed
    search_note: str = ""
    toast: str = ""
    help: bool = False
    reading: str = ""  # the reading shown (the window always names it; "" for a plain shot)
    problems: tuple[str, ...] = ()  # located messages of a failed reload, over the picture
    stages: str | None = None  # the stage list's typed text (L), None when closed
    stage_pick: int = 0  # the stage list's row Enter goes to
    stage_top: int = 0  # the stage list's first row shown
    score_who: int | None = None  # whose hits the score panel gives (selected or under the mouse)
    compiling: tuple[int, int] | None = None  # (stages ready, in all) while the rest compiles
    skip_waits: bool = False  # W: playback jumps over the stretches where nobody moves
    stop_at: float | None = None  # P: playback pauses when it reaches this (a step's end)


@dataclass
class Hits:
    """Clickable areas of the HUD, in pixels: (box, clause index, clause start) per visible row."""

    clauses: list[tuple[tuple[float, float, float, float], int, int]] = field(default_factory=list)
    score: tuple[float, float, float, float] | None = None  # the score panel's box, if shown
