"""Label placement: boxes put around their anchors so none overlaps another or a token.

A cartographer's greedy pass (Imhof's order of candidate positions): each label, in priority
order, tries the eight places touching its anchor's mark, in its own order of preference (a
person's name goes behind him, so the facing tick stays clear), then rings further out in
sixteen directions; the first box that meets no placed label, no obstacle (tokens, facing
ticks) and stays inside the bounds wins. A label placed off its first ring is "displaced" and
gets a leader line back to its anchor. When every candidate collides, the one with the least
overlapping area is kept (a crowded frame still shows every name), and `overlaps` counts it.
`place_clear` is the same pass for a printed page: leaders kept off the labels already down and
the labels after them kept off the leaders (the window keeps `place`).

Everything is in one plane of pixels, y down (screen space, or 尺 × px per 尺 with y flipped);
boxes are (x0, y0, x1, y1). Candidates of one label are tested against every box at once.
"""
from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

# the leader tests (the tests and plate_people reach them here too)
from viz.draw.leaders import _crossed, _crossed_in, _crossed_np, _crosses, _inner, along  # noqa: F401

BoxT = tuple[float, float, float, float]

# The eight touching places, as unit offsets of the box's centre: (dx, dy), y down
DIRS: dict[str, tuple[float, float]] = {
    "e": (1, 0), "w": (-1, 0), "n": (0, -1), "s": (0, 1),
    "ne": (1, -1), "nw": (-1, -1), "se": (1, 1), "sw": (-1, 1),
}
DEFAULT_ORDER = ("e", "w", "ne", "se", "nw", "sw", "n", "s")
RINGS = 6  # rings beyond the touching one, each a label's height further out
NAME_WEIGHT = 1000.0  # crowded: a px² over another name costs this many over a token
FULL_WIDTH = "×÷"
LINE_EM = 1.45  # the bundled font's line height in ems (ascent + descent: 1151 + 286 of 1000)


@dataclass(frozen=True)
class Label:
    """A box of w × h px to put near `anchor` (px), outside a mark of radius `r` px around it."""

    anchor: tuple[float, float]
    w: float
    h: float
    r: float = 0.0
    order: tuple[str, ...] = DEFAULT_ORDER
    gap: float = 1.0
    centred: bool = False  # first try the box centred on the anchor (a name written in place)
    first: BoxT | None = None  # a box to try before all others (where the label usually goes)
    also: tuple[BoxT, ...] = ()  # boxes tried after the touching eight, before the rings
    # (a formation's name: beside any of its members, before one further out)
    rings: int | None = None  # at most this many rings further out (None: as many as asked);
    # 0: none (a formation's name stays at its members, on the least covered of its places
    # when crowded)
    within: BoxT | None = None  # kept inside this box where a free place there has a leader
    # that runs clear (a thing in the 房 named in the 房); else placed as any other (place_clear)
    away: tuple[BoxT, ...] = ()  # boxes it keeps off, placed outside `within` (the other
    # rooms: a thing in the 房 is not named in the 室)
    shapes: tuple[tuple[float, float], ...] = ()  # other sizes (w, h) it may take outside
    # `within` (a list in fewer, longer rows): the placed box's size says which


@dataclass(frozen=True)
class Placed:
    box: BoxT
    displaced: bool  # away from its anchor: draw a leader line
    clash: float = 0.0  # px² still overlapping (0 unless there was no free place)
    choice: int = 0  # which candidate: 0 is `first` when the label has one

    @property
    def center(self) -> tuple[float, float]:
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)


def text_size(text: str, px: float, pad: float = 0.0) -> tuple[float, float]:
    """A line of text's box in px as the back ends draw it: hanzi one em (and ×, which the
    bundled font draws full width), Latin and digits about half, one line of the bundled font
    tall, plus `pad` on every side."""
    em = sum(1.0 if ord(c) > 0x2E7F or c in FULL_WIDTH else 0.6 for c in text)
    return em * px + 2 * pad + 1, round(LINE_EM * px) + 2 * pad


def circle_box(x: float, y: float, r: float) -> BoxT:
    return (x - r, y - r, x + r, y + r)


_RING = np.array([(math.cos(2 * math.pi * k / 16), math.sin(2 * math.pi * k / 16))
                  for k in range(16)])


def _touching(lab: Label) -> np.ndarray:
    """(k, 4) the boxes tried first: `first`, centred, then the eight touching the mark."""
    return np.asarray(_touching_list(lab), float).reshape(-1, 4)


def _rings(lab: Label, first: int = 1, last: int = RINGS) -> np.ndarray:
    """(16 × RINGS, 4) the boxes tried next: sixteen directions, each ring a label's height
    further out (rings first..last)."""
    ax, ay = lab.anchor
    w, h = lab.w, lab.h
    if lab.rings is not None:
        last = min(last, lab.rings)
    dist = lab.r + lab.gap + np.arange(first, last + 1)[:, None] * (h + 2)  # (rings, 1)
    c, s = _RING[:, 0], _RING[:, 1]
    cx = ax + c * (dist + np.abs(c) * w / 2)
    cy = ay + s * (dist + np.abs(s) * h / 2)
    return np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=-1).reshape(-1, 4)


def _areas(c: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """(k, m) the area each candidate box shares with each box."""
    ix = np.minimum(c[:, None, 2], boxes[None, :, 2]) - np.maximum(c[:, None, 0], boxes[None, :, 0])
    iy = np.minimum(c[:, None, 3], boxes[None, :, 3]) - np.maximum(c[:, None, 1], boxes[None, :, 1])
    return np.maximum(ix, 0) * np.maximum(iy, 0)  # np.clip(…, 0, None), without its wrapper


def _costs(cand: np.ndarray, live: np.ndarray, bounds: BoxT | None) -> np.ndarray:
    """(k,) px² each candidate overlaps the live boxes (+1e6 outside the bounds)."""
    if not len(cand):
        return np.zeros(0)
    # only the boxes that reach the candidates' span can cost anything
    lo, hi = cand[:, :2].min(axis=0), cand[:, 2:].max(axis=0)
    near = live[(live[:, 0] < hi[0]) & (live[:, 2] > lo[0]) & (live[:, 1] < hi[1])
                & (live[:, 3] > lo[1])]
    cost = _areas(cand, near).sum(axis=1) if len(near) else np.zeros(len(cand))
    if bounds is not None:
        x0, y0, x1, y1 = bounds
        outside = ((cand[:, 0] < x0) | (cand[:, 1] < y0) | (cand[:, 2] > x1)
                   | (cand[:, 3] > y1))
        cost = cost + outside * 1e6  # outside the picture: worse than any overlap
    return cost


def place(labels: Sequence[Label], obstacles: Sequence[BoxT] = (),
          bounds: BoxT | None = None) -> list[Placed]:
    """Greedy placement in the given (priority) order; see the module docstring."""
    return Placer().place(labels, obstacles, bounds)


@dataclass(frozen=True)
class _Kept:
    """A label's last placement: where it came in the order, what was asked and found, and the
    candidates tried up to the one chosen (None: not to be reused, as a clash or a hair's
    overlap depends on the order numpy summed the areas in)."""

    rank: int
    label: Label
    placed: Placed
    tried: tuple[BoxT, ...] | None
    span: BoxT | None = None  # round the tried ones
    arr: np.ndarray | None = field(default=None, compare=False)  # tried as (k, 4)


class Placer:
    """`place` that remembers its last call and keeps a label's placement when nothing it
    looked at changed: the same request, and no box that came, went or moved (an obstacle, or
    a label placed before it) meets a candidate it tried up to the one it chose. Only those near
    someone who moved are placed again; every answer is the one `place` would give (a window
    playing the rite keeps one Placer per view: most people stand still in any frame)."""

    def __init__(self) -> None:
        self._bounds: BoxT | None = None
        self._obstacles: set | Counter = set()
        self._kept: dict = {}
        self.reused = 0  # how many labels the last call kept (tests, bench)

    def place(self, labels: Sequence[Label], obstacles: Sequence[BoxT] = (),
              bounds: BoxT | None = None, keys: Sequence | None = None) -> list[Placed]:
        """As `place`; `keys` name the labels across calls (default: the request itself)."""
        obs = [(float(b[0]), float(b[1]), float(b[2]), float(b[3])) for b in obstacles]
        if keys is None:
            keys = labels
        seen: Counter = Counter()
        names = []
        for k in keys:  # a key met twice is told apart by its turn
            names.append((k, seen[k]))
            seen[k] += 1
        kept = self._kept
        ranks = [kept[n].rank for n in names if n in kept]
        if bounds != self._bounds or any(a > b for a, b in zip(ranks, ranks[1:])):
            kept = {}  # framed otherwise, or an order changed: nothing is kept
        # what changed before any label is placed: obstacles moved, labels gone
        uniq = set(obs)
        count: set | Counter = uniq if len(uniq) == len(obs) else Counter(obs)
        was = self._obstacles
        if isinstance(count, set) and isinstance(was, set):
            changed = count ^ was  # each box once: a set says what came and went
        else:  # a box twice (two people on one spot): counted
            now_c = Counter(count) if isinstance(count, set) else count
            was_c = Counter(was) if isinstance(was, set) else was
            changed = list((now_c - was_c) + (was_c - now_c))
        dirty = _Dirty(changed)
        names_now = set(names)
        for n, old in kept.items():
            if n not in names_now:
                dirty.add(old.placed.box)
        grid: _Grid | None = None  # obstacles and labels so far, made when first needed
        out: list[Placed] = []
        now: dict = {}
        reused = 0
        # whether each label's choice stands if every label before it stands too, worked out
        # for all at once; a label near one that did not stand is looked at on its own
        stands = _verdicts(labels, names, kept, obs, dirty, bounds)
        moved = _Dirty(())  # the boxes of labels that did not stand (placed anew or new)
        for rank, (lab, name) in enumerate(zip(labels, names, strict=True)):
            old = kept.get(name)
            same = (old is not None and old.tried is not None
                    and (old.label is lab or old.label == lab))
            if same and ((moved.boxes and moved.meets(old.span)) if stands is not None
                         else dirty.meets(old.span)):
                near = dirty.hits(old.tried, old.span)  # tried ones something changed in
                if near:
                    if grid is None:
                        grid = _Grid(obs + [p.box for p in out])
                    same = _still(old.tried, near, grid, bounds)
            elif same and stands is not None:
                same = stands.get(rank, True)  # absent: nothing changed near it
            if same:
                now[name] = old if old.rank == rank and old.label is lab else _Kept(
                    rank, lab, old.placed, old.tried, old.span, old.arr)
                out.append(old.placed)
                if grid is not None:
                    grid.add(old.placed.box)
                reused += 1
                continue
            if grid is None:
                grid = _Grid(obs + [p.box for p in out])
            found, tried, taken = _first_free(lab, grid, bounds)
            if found is None:  # crowded (or a hair from touching): numpy's sums decide
                found, tried = _place_one(lab, grid.array(), bounds, taken, len(obs))
            if old is None or old.placed.box != found.box:
                dirty.add(found.box)
                moved.add(found.box)
                if old is not None:
                    dirty.add(old.placed.box)
                    moved.add(old.placed.box)
            now[name] = _Kept(rank, lab, found, tried, None if tried is None else (
                getattr(tried, "span", None) or _span(tried)), None if tried is None else (
                _arr(tried)))
            out.append(found)
            grid.add(found.box)
        self._bounds, self._obstacles, self._kept, self.reused = bounds, count, now, reused
        return out


class _Dirty:
    """The boxes that came, went or moved in this call, bucketed by the CELL-sized squares
    they meet (when first asked: most calls only read the list): whether a span meets any (as
    _meets) looks only at those near it."""

    def __init__(self, boxes) -> None:
        self._cells: dict[tuple[int, int] | None, list[BoxT]] = {}
        self._indexed = 0  # boxes[:_indexed] are in the cells
        self.boxes: list[BoxT] = []
        self.odd = False  # a box not finite meets everything (as _meets says)
        for b in boxes:
            self.add(b)

    def add(self, b: BoxT) -> None:
        self.boxes.append(b)
        if (b[0] + b[1] + b[2] + b[3]) * 0.0 != 0.0:
            self.odd = True

    @property
    def cells(self) -> dict[tuple[int, int] | None, list[BoxT]]:
        cells = self._cells
        for b in self.boxes[self._indexed:]:
            if (b[0] + b[1] + b[2] + b[3]) * 0.0 != 0.0:
                continue  # odd: meets everything, never looked up
            if b[2] - b[0] > 64 * CELL or b[3] - b[1] > 64 * CELL:
                cells.setdefault(None, []).append(b)
                continue
            for gx in range(int(b[0] // CELL), int(b[2] // CELL) + 1):
                for gy in range(int(b[1] // CELL), int(b[3] // CELL) + 1):
                    cells.setdefault((gx, gy), []).append(b)
        self._indexed = len(self.boxes)
        return cells

    def meets(self, span: BoxT) -> bool:
        if self.odd:
            return True
        cells = self.cells
        if not cells:
            return False
        if None in cells and _meets(span, cells[None]):
            return True
        if (span[0] + span[1] + span[2] + span[3]) * 0.0 != 0.0:  # as _meets: look at all
            return any(_meets(span, bs) for bs in cells.values())
        for gx in range(int(span[0] // CELL), int(span[2] // CELL) + 1):
            for gy in range(int(span[1] // CELL), int(span[3] // CELL) + 1):
                near = cells.get((gx, gy))
                if near and _meets(span, near):
                    return True
        return False


    def hits(self, tried: tuple[BoxT, ...], span: BoxT) -> list[int]:
        """Which of the candidates (within span) meet a box that changed; many at once (a
        ring's hundred) tested as one array against the boxes near the span."""
        arr = getattr(tried, "arr", None)
        if self.odd or arr is None or len(tried) <= 12:
            return [j for j, c in enumerate(tried) if self.meets(c)]
        cells = self.cells
        near = list(cells.get(None, ()))
        for gx in range(int(span[0] // CELL), int(span[2] // CELL) + 1):
            for gy in range(int(span[1] // CELL), int(span[3] // CELL) + 1):
                near += cells.get((gx, gy), ())
        if not near:
            return []
        b = np.asarray(near, float)
        return np.flatnonzero(((b[None, :, 0] < arr[:, None, 2]) & (arr[:, None, 0] < b[None, :, 2])
                               & (b[None, :, 1] < arr[:, None, 3])
                               & (arr[:, None, 1] < b[None, :, 3])).any(axis=1)).tolist()


def _arr(tried: tuple[BoxT, ...]) -> np.ndarray:
    """The candidates tried as a (k, 4) array (made once, when the label is placed)."""
    arr = getattr(tried, "arr", None)
    return arr if arr is not None else np.asarray(tried, float).reshape(-1, 4)


def _arr4(boxes: list) -> np.ndarray:
    """(n, 4) floats from a list of 4-tuples (as np.asarray, in half its time)."""
    return np.fromiter(itertools.chain.from_iterable(boxes), float,
                       count=4 * len(boxes)).reshape(-1, 4)


def _verdicts(labels: Sequence[Label], names: list, kept: dict, obs: list[BoxT],
              dirty: _Dirty, bounds: BoxT | None) -> dict[int, bool] | None:
    """For each label kept from the last call whose span something changed in (rank →
    verdict): whether its choice stands (as _still says) among the obstacles and the labels
    before it as they were placed last time, all labels worked out as one array. None: not
    worked out (a box not finite), each label is looked at on its own."""
    if dirty.odd:
        return None
    if not dirty.boxes:
        return {}
    ranks, prior, same = [], [], []
    for rank, (lab, name) in enumerate(zip(labels, names, strict=True)):
        old = kept.get(name)
        if old is None:
            continue
        ranks.append(rank)
        prior.append(old.placed.box)
        if old.tried is not None and (old.label is lab or old.label == lab):
            same.append((rank, old))
    if not same:
        return {}
    d = _arr4(dirty.boxes)
    sp = _arr4([old.span for _, old in same])
    near = ((d[None, :, 0] < sp[:, None, 2]) & (sp[:, None, 0] < d[None, :, 2])
            & (d[None, :, 1] < sp[:, None, 3]) & (sp[:, None, 1] < d[None, :, 3])).any(axis=1)
    todo = [same[k] for k in np.flatnonzero(near).tolist()]  # dirty.meets(span), at once
    if not todo:
        return {}
    arrs = [old.arr if old.arr is not None else np.asarray(old.tried, float).reshape(-1, 4)
            for _, old in todo]
    cand = np.concatenate(arrs)
    owner = np.repeat(np.arange(len(todo)), [len(a) for a in arrs])
    last = np.cumsum([len(a) for a in arrs]) - 1  # each one's choice: the last tried
    hit = ((d[None, :, 0] < cand[:, None, 2]) & (cand[:, None, 0] < d[None, :, 2])
           & (d[None, :, 1] < cand[:, None, 3]) & (cand[:, None, 1] < d[None, :, 3])).any(axis=1)
    chosen = np.zeros(len(cand), bool)
    chosen[last] = True
    if bounds is not None:  # tried before the choice and out of bounds: taken whatever moved
        out = ((cand[:, 0] < bounds[0]) | (cand[:, 1] < bounds[1]) | (cand[:, 2] > bounds[2])
               | (cand[:, 3] > bounds[3]))
        hit &= chosen | ~out
    rows = np.flatnonzero(hit)
    if not len(rows):
        return {rank: True for rank, _ in todo}
    boxes = _arr4(obs + prior)
    if not np.isfinite(boxes).all():
        return None
    before = np.concatenate([np.full(len(obs), -1), ranks])  # when each box was placed
    c = cand[rows]
    lo, hi = c[:, :2].min(axis=0), c[:, 2:].max(axis=0)
    near = np.flatnonzero((boxes[:, 0] < hi[0]) & (boxes[:, 2] > lo[0]) & (boxes[:, 1] < hi[1])
                          & (boxes[:, 3] > lo[1]))
    area = _areas(c, boxes[near])
    mine = np.asarray([todo[k][0] for k in owner[rows]], int)
    cost = np.where(before[near][None, :] < mine[:, None], area, 0.0).sum(axis=1)
    bad = np.where(chosen[rows], cost != 0, (cost < 2e-6))  # a hair's sum: placed anew
    fails = set(owner[rows[bad]].tolist())
    return {rank: k not in fails for k, (rank, _) in enumerate(todo)}


def _still(tried: tuple[BoxT, ...], near: list[int], grid: _Grid, bounds: BoxT | None) -> bool:
    """Whether a label's last choice stands among the boxes now: each candidate tried before
    it that something changed in is still taken (by 1e-6 px² or more, or out of bounds), and
    the one chosen (the last tried) still meets nothing. The others met the same boxes as
    before, so they stand as they were: placing the label again would choose the same. A sum
    within a factor of two of 1e-6 is left to placing it again (the sums' order could tell)."""
    if grid.odd:
        return False
    last = len(tried) - 1
    if bounds is not None:
        near = [j for j in near if j == last or not (
            tried[j][0] < bounds[0] or tried[j][1] < bounds[1] or tried[j][2] > bounds[2]
            or tried[j][3] > bounds[3])]  # out of bounds: taken whatever moved
    if not near:
        return True
    c = np.asarray([tried[j] for j in near], float)
    live = grid.array()
    lo, hi = c[:, :2].min(axis=0), c[:, 2:].max(axis=0)
    live = live[(live[:, 0] < hi[0]) & (live[:, 2] > lo[0]) & (live[:, 1] < hi[1])
                & (live[:, 3] > lo[1])]
    cost = _areas(c, live).sum(axis=1) if len(live) else np.zeros(len(near))
    chosen = np.asarray(near) == last
    return bool(((cost == 0) == chosen).all() and not ((cost > 0) & (cost < 2e-6)).any())


def _meets(span: BoxT, boxes: list[BoxT]) -> bool:
    """Whether any box shares some area with the span (or is not finite)."""
    s0, s1, s2, s3 = span
    for b0, b1, b2, b3 in boxes:
        if (b0 < s2 and s0 < b2 and b1 < s3 and s1 < b3) or (b0 + b1 + b2 + b3) * 0.0 != 0.0:
            return True
    return False


def _span(cand) -> BoxT:
    x0 = y0 = math.inf
    x1 = y1 = -math.inf
    for c in cand:
        x0, y0, x1, y1 = min(x0, c[0]), min(y0, c[1]), max(x1, c[2]), max(y1, c[3])
    return (x0, y0, x1, y1)


def _first(lab: Label) -> int:
    """How many candidates lie on the first ring (`first`, centred, the touching eight)."""
    return len(lab.order) + (1 if lab.centred else 0) + (lab.first is not None) + len(lab.also)


def _place_one(lab: Label, boxes: np.ndarray, bounds: BoxT | None,
               taken: bool = False, names_from: int | None = None
               ) -> tuple[Placed, BoxT | None]:
    """One label against (m, 4) live boxes, every candidate's overlap summed by numpy: the
    touching places first; the rings only when all of those are taken (`taken`: known to be,
    each by 1e-6 px² or more). With the candidates tried up to the one chosen, or None when
    the choice rests on how the areas were summed. With no free place, the least covered is
    taken, a px² of a label placed before it (boxes[names_from:]) counting NAME_WEIGHT of a
    token's: crowded, a name covers a token's edge rather than another name."""
    cand = _touching(lab)
    if taken:
        rings = _rings(lab)
        cost = _costs(rings, boxes, bounds)
        free = np.nonzero(cost <= 1e-9)[0]
        if len(free):
            k = int(free[0])
            placed = Placed(tuple(float(v) for v in rings[k]), True, float(cost[k]),
                            len(cand) + k)
            return placed, _sure(np.vstack([cand, rings]), cost, k, len(cand))
    cost = _costs(cand, boxes, bounds)
    free = np.nonzero(cost <= 1e-9)[0]
    if not len(free):
        rings = _rings(lab)
        cand = np.vstack([cand, rings])
        cost = np.concatenate([cost, _costs(rings, boxes, bounds)])
        free = np.nonzero(cost <= 1e-9)[0]
    if len(free):
        k = int(free[0])
    elif names_from is not None and names_from < len(boxes):
        named = _areas(cand, boxes[names_from:]).sum(axis=1)
        k = int(np.argmin(cost + (NAME_WEIGHT - 1) * named))
    else:
        k = int(np.argmin(cost))
    placed = Placed(tuple(float(v) for v in cand[k]), k >= _first(lab), float(cost[k]), k)
    return placed, _sure(cand, cost, k)


def _sure(cand: np.ndarray, cost: np.ndarray, k: int, skip: int = 0) -> tuple[BoxT, ...] | None:
    """The candidates up to the chosen one, when the choice of the k-th of `cost` (which are
    the costs of cand[skip:]) depends only on which boxes met them: no overlap, and none tried
    within a hair of none."""
    if cost[k] != 0 or ((cost > 0) & (cost < 1e-6)).any() or not np.isfinite(cand).all():
        return None
    arr = cand[:skip + k + 1]
    out = _Tried((a, b, c, d) for a, b, c, d in arr.tolist())
    out.arr = arr
    out.span = (float(arr[:, 0].min()), float(arr[:, 1].min()), float(arr[:, 2].max()),
                float(arr[:, 3].max()))
    return out


class _Tried(tuple):
    """Candidates tried (a tuple), with their (k, 4) array and their span when numpy tried
    them (the rings: a hundred boxes, looked at as one array)."""

    arr: np.ndarray | None = None
    span: BoxT | None = None


CELL = 64.0  # px: the grid the fast path finds a candidate's neighbours in


SCANS = 8  # look-ups a _Grid answers by going through every box before it buckets them


class _Grid:
    """Boxes bucketed by the CELL-sized squares they meet, so a label looks only at those near
    it (the window places a few dozen tags among a hundred boxes every frame). Most frames
    place only a few labels again: the first SCANS look-ups go through the boxes one by one,
    and only a frame that asks more buckets them."""

    def __init__(self, boxes: list[BoxT]):
        self.boxes: list[BoxT] = list(boxes)
        self.cells: dict[tuple[int, int] | None, list[int]] | None = None
        self._arr: np.ndarray | None = None  # the boxes as rows, for numpy's path
        self._rows = 0  # rows of _arr filled
        self.scans = 0
        self.odd = any((b[0] + b[1] + b[2] + b[3]) * 0.0 != 0.0 for b in self.boxes)
        # odd: a box not finite: numpy's arithmetic decides (inf × 0 is nan)

    def add(self, b: BoxT) -> None:
        i = len(self.boxes)
        self.boxes.append(b)
        if (b[0] + b[1] + b[2] + b[3]) * 0.0 != 0.0:  # inf or nan
            self.odd = True
            return
        if self.cells is not None:
            self._bucket(i, b)

    def array(self) -> np.ndarray:
        """(n, 4) the boxes so far (rows added as boxes come, not the whole made again)."""
        n = len(self.boxes)
        if self._arr is None or len(self._arr) < n:
            arr = np.empty((max(2 * n, 64), 4))
            if self._rows:
                arr[:self._rows] = self._arr[:self._rows]
            self._arr = arr
        if self._rows < n:
            self._arr[self._rows:n] = np.asarray(self.boxes[self._rows:n], float).reshape(-1, 4)
            self._rows = n
        return self._arr[:n]

    def _bucket(self, i: int, b: BoxT) -> None:
        cells = self.cells
        if (b[0] + b[1] + b[2] + b[3]) * 0.0 != 0.0:
            return
        if b[2] - b[0] > 64 * CELL or b[3] - b[1] > 64 * CELL:
            cells.setdefault(None, []).append(i)  # huge: looked at by everyone
            return
        for gx in range(int(b[0] // CELL), int(b[2] // CELL) + 1):
            for gy in range(int(b[1] // CELL), int(b[3] // CELL) + 1):
                cells.setdefault((gx, gy), []).append(i)

    def near(self, x0: float, y0: float, x1: float, y1: float) -> list[BoxT]:
        """The boxes that overlap (x0, y0, x1, y1) by some area, as numpy's test finds them."""
        boxes = self.boxes
        if self.cells is None:
            if self.scans < SCANS:
                self.scans += 1
                return [b for b in boxes if b[0] < x1 and b[2] > x0 and b[1] < y1 and b[3] > y0
                        and (b[0] + b[1] + b[2] + b[3]) * 0.0 == 0.0]
            self.cells = {}
            for i, b in enumerate(boxes):
                self._bucket(i, b)
        cells = self.cells
        seen = set(cells.get(None, ()))
        for gx in range(int(x0 // CELL), int(x1 // CELL) + 1):
            for gy in range(int(y0 // CELL), int(y1 // CELL) + 1):
                seen.update(cells.get((gx, gy), ()))
        return [b for b in (boxes[i] for i in sorted(seen))
                if b[0] < x1 and b[2] > x0 and b[1] < y1 and b[3] > y0]


def _touching_list(lab: Label) -> list[BoxT]:
    """The boxes tried first, as Python floats: `first`, centred, then the eight touching the
    mark (`_touching` is these as an array)."""
    ax, ay = lab.anchor
    w, h = lab.w, lab.h
    out: list[BoxT] = []
    if lab.first is not None:
        out.append(tuple(float(v) for v in lab.first))
    if lab.centred:
        out.append((ax - w / 2, ay - h / 2, ax + w / 2, ay + h / 2))
    for d in lab.order:
        dx, dy = DIRS[d]
        # the box's near edge just clears the mark, along each axis it is pushed on
        cx = ax + dx * (lab.r + lab.gap + w / 2)
        cy = ay + dy * (lab.r + lab.gap + h / 2)
        if dx and dy:  # diagonals: tuck the corner in to the circle's 45° point
            k = lab.r * (1 - math.sqrt(0.5))
            cx -= dx * k
            cy -= dy * k
        out.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
    out.extend(lab.also)
    return [(float(a), float(b), float(c), float(d)) for a, b, c, d in out]


def _first_free(lab: Label, grid: _Grid, bounds: BoxT | None) -> tuple[Placed | None,
                                                                       BoxT | None, bool]:
    """The first touching candidate that meets nothing, found in plain Python (most labels of
    a frame take their first candidate), with those tried up to it, and whether each was
    taken (by 1e-6 px² or more, or out of bounds). No placement when none is free (the rings
    are many: numpy tries them faster), or when an overlap is so small (under 1e-6 px²) that
    only numpy's own sum can say on which side of 1e-9 it falls."""
    if grid.odd:
        return None, None, False
    cand = _touching_list(lab)
    k = _scan(cand, grid, bounds)
    if k is None or k < 0:
        return None, None, k is not None
    return Placed(cand[k], k >= _first(lab), 0.0, k), tuple(cand[:k + 1]), False


def _scan(cand: list[BoxT], grid: _Grid, bounds: BoxT | None) -> int | None:
    """The index of the first candidate in bounds overlapping no box; -1 when each overlaps
    some by 1e-6 px² or more (or leaves the bounds); None when in doubt or not finite."""
    if any((c[0] + c[1] + c[2] + c[3]) * 0.0 != 0.0 for c in cand):
        return None
    near = grid.near(*_span(cand))
    for k, (c0, c1, c2, c3) in enumerate(cand):
        if bounds is not None and (c0 < bounds[0] or c1 < bounds[1] or c2 > bounds[2]
                                   or c3 > bounds[3]):
            continue
        cost = 0.0
        for b0, b1, b2, b3 in near:
            if b0 < c2 and c0 < b2 and b1 < c3 and c1 < b3:  # else no area (numpy's 0)
                ix = min(c2, b2) - max(c0, b0)
                iy = min(c3, b3) - max(c1, b1)
                if ix > 0 and iy > 0:
                    cost += ix * iy
                    if cost >= 1e-6:  # taken, whatever the other boxes add
                        break
        if cost == 0.0:
            return k
        if cost < 1e-6:
            return None
    return -1


def hits(box: BoxT, boxes: np.ndarray, slack: float = 0.0) -> bool:
    """Whether a box overlaps any of (m, 4) boxes by more than `slack` px each way."""
    if not len(boxes):
        return False
    ix = np.minimum(box[2], boxes[:, 2]) - np.maximum(box[0], boxes[:, 0])
    iy = np.minimum(box[3], boxes[:, 3]) - np.maximum(box[1], boxes[:, 1])
    return bool(((ix > slack) & (iy > slack)).any())


def overlaps(boxes: Sequence[BoxT], others: Sequence[BoxT] = (), slack: float = 0.5) -> list[
        tuple[int, int]]:
    """Pairs (i, j) of boxes that overlap by more than `slack` px each way: among `boxes`
    (i < j), and between boxes[i] and others[j] (j offset by len(boxes))."""
    a = np.asarray(list(boxes), float).reshape(-1, 4)
    b = np.vstack([a, np.asarray(list(others), float).reshape(-1, 4)])
    ix = np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0])
    iy = np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1])
    hit = (ix > slack) & (iy > slack)
    n = len(a)
    return [(int(i), int(j)) for i, j in zip(*np.nonzero(hit)) if j > i or j >= n]


def leader(anchor: tuple[float, float], box: BoxT, r: float = 0.0) -> tuple[tuple[float, float],
                                                                             tuple[float, float]]:
    """A leader line from the edge of the anchor's mark to the nearest point of the box."""
    ax, ay = anchor
    bx = min(max(ax, box[0]), box[2])
    by = min(max(ay, box[1]), box[3])
    d = math.hypot(bx - ax, by - ay)
    if d <= r or d == 0:
        return (ax, ay), (bx, by)
    return (ax + (bx - ax) * r / d, ay + (by - ay) * r / d), (bx, by)


def facing_order(dx: float, dy: float) -> tuple[str, ...]:
    """The eight places, best first, for a person facing (dx, dy) (y down): behind him, then
    the sides, last in front, where his facing tick is."""
    scored = sorted(DIRS, key=lambda d: (DIRS[d][0] * dx + DIRS[d][1] * dy)
                    / math.hypot(*DIRS[d]))
    return tuple(scored)
