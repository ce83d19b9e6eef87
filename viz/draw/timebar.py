"""The timeline bar under the map: the stages as alternating bands with their names in two
rows, the step ticks, the playhead, and while the rest compiles a hatched band saying so."""
from __future__ import annotations

from viz.base.lang import tr
from viz.draw.display import Line, Polygon, Primitive, Rect, Text
from viz.draw.hudbase import INK, RED, text_width

COMPILING = "編譯中 compiling … {}/{} 節"
BAR_ROWS = 2  # the bar's names alternate between this many rows


def bar(timeline, frame, box) -> list[Primitive]:
    """Stages as alternating bands with names, step ticks, and the playhead."""
    return bar_fixed(timeline, frame, box) + playhead(timeline, frame, box)


def bar_span(timeline, compiling: tuple[int, int] | None = None) -> float:
    """The seconds the bar spans: the rite's, or while the rest compiles (ready, total stages),
    what is ready drawn at the share of the stages it holds (a guess, made good at the end)."""
    dur = max(timeline.duration, 1e-9)
    if compiling is None:
        return dur
    ready, total = compiling
    return dur * max(total, 1) / max(min(ready, total), 1)


def playhead(timeline, frame, box, compiling: tuple[int, int] | None = None) -> list[Primitive]:
    """The bar's marker of t."""
    x, y, w, _ = box
    hx, ty = x + 14 + (w - 28) * frame.t / bar_span(timeline, compiling), y + 40
    return [Line(((hx, ty - 14), (hx, ty + 14)), RED, 2.0, screen=True),
            Polygon(((hx - 5, ty - 19), (hx + 5, ty - 19), (hx, ty - 13)), RED, RED, 1.0,
                    screen=True)]


def bar_fixed(timeline, frame, box, compiling: tuple[int, int] | None = None
              ) -> list[Primitive]:
    """The bar without its playhead: what changes only with the stage. While the rest of the
    rite compiles, the part not yet ready is a hatched band saying so."""
    x, y, w, h = box
    out: list[Primitive] = [Rect(box, (236, 229, 214)),
                            Line(((x, y), (x + w, y)), (200, 190, 170), 1.0, screen=True)]
    tx, tw, ty = x + 14, w - 28, y + 40  # the track of bar_track(size)
    dur = bar_span(timeline, compiling)

    def px(t: float) -> float:
        return tx + tw * t / dur

    for s in timeline.stages:
        x0, x1 = px(s.t0), px(s.t1)
        band = (214, 200, 172) if s.index % 2 == 0 else (226, 214, 190)
        if s.index == frame.stage:
            band = (238, 196, 120)
        out.append(Rect((x0, ty - 6, max(x1 - x0, 1), 12), band))
        out.append(Line(((x0, ty - 10), (x0, ty + 6)), (110, 90, 60), 1.0, screen=True))
    starts = [px(s.t0) for s in timeline.stages]
    names = [s.name for s in timeline.stages]
    for i, lx, row, text in bar_labels(starts, names, frame.stage, 11, x + 2, x + w - 4):
        out.append(Text((lx, y + 6 + row * 13), text, 11, RED if i == frame.stage else INK, "nw",
                        screen=True))
    for st in timeline.steps:
        xs = px(st.t0)
        out.append(Line(((xs, ty + 7), (xs, ty + 11)), (140, 120, 96), 1.0, screen=True))
    if compiling is not None:
        out += _compiling(px(timeline.duration), tx + tw, ty, compiling)
    return out


def _compiling(x0: float, x1: float, ty: float, compiling: tuple[int, int]) -> list[Primitive]:
    """The bar's part still compiling: a hatched band and how far the compile has come."""
    if x1 - x0 < 2:
        return []
    out: list[Primitive] = [Rect((x0, ty - 6, x1 - x0, 12), (222, 218, 210))]
    hx = x0 - 12
    while hx < x1:
        a, b = max(hx, x0), min(hx + 12, x1)
        if b > a:
            out.append(Line(((a, ty + 6 - (a - hx)), (b, ty + 6 - (b - hx))), (170, 160, 146),
                            1.0, screen=True))
        hx += 8.0
    text = tr(COMPILING).format(*compiling)
    if x1 - x0 > text_width(text, 11) + 12:
        out.append(Text(((x0 + x1) / 2, ty), text, 11, INK, "c", bg=(236, 229, 214),
                        screen=True))
    return out


def bar_label(number: int, name: str, room: float, px: float) -> str:
    """The longest of "N name", N with the name's first characters, or N alone, that is at most
    room px wide; "" when not even the number fits."""
    for k in range(len(name), -1, -1):
        text = f"{number}{name[:k]}"
        if text_width(text, px) <= room:
            return text
    return ""


def bar_labels(starts: list[float], names: list[str], current: int, px: float, left: float,
               right: float, rows: int = BAR_ROWS, gap: float = 4.0
               ) -> list[tuple[int, float, int, str]]:
    """Where the bar names its stages: (stage, x, row, text), stage i in row i % rows from its
    start to the next start of its row, shortened to fit (bar_label). The current stage is
    named whole and kept inside [left, right]; names it covers are left out. None overlap."""
    n = len(starts)
    cur = None
    if 0 <= current < n:
        text = f"{current + 1}{names[current]}"
        cw = text_width(text, px)
        cx = max(min(starts[current] + 2, right - cw), left)
        cur = (cx, cx + cw, current % rows, text)
    out = []
    for i in range(n):
        if cur is not None and i == current:
            out.append((i, cur[0], cur[2], cur[3]))
            continue
        x, row = starts[i] + 2, i % rows
        limit = min(starts[i + rows] + 2 - gap if i + rows < n else right, right)
        if cur is not None and row == cur[2]:
            if cur[0] - gap <= x < cur[1] + gap:
                continue
            if x < cur[0]:
                limit = min(limit, cur[0] - gap)
        text = bar_label(i + 1, names[i], limit - x, px)
        if text:
            out.append((i, x, row, text))
    return out
