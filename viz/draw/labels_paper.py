"""Labels placed for paper (plates, cue sheets): place_clear puts each name clear of tokens,
walls, names and the leaders already drawn (viz.draw.labels' `place` is the window's), looking
ring after ring round its mark, or, for a name of a thing in a room, inside the room and, when
the room cannot hold it, at the free box nearest the room."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from viz.draw.labels import (
    RINGS,
    BoxT,
    Label,
    Placed,
    _costs,
    _first,
    _rings,
    _touching,
    leader,
)
from viz.draw.leaders import _crossed_in, _crosses, _inner, along


def _clear_in(lab: Label, boxes: np.ndarray, bounds: BoxT | None, names: np.ndarray,
              step: float) -> tuple[np.ndarray, np.ndarray, int | None]:
    """(candidates, their costs, the first free one whose leader crosses no label, or None):
    the touching places, then ring after ring (further out than the window's: a leader may
    run longer on paper), each tried only when those before hold no such box."""
    near = _first(lab)
    cands, costs, k, ringed, inner = [], [], None, None, None
    for ring in range(0, 2 * RINGS + 1):
        if ring and ringed is None:  # all the rings at once: the same boxes, one pass
            ringed = _rings(lab, 1, 2 * RINGS)
        cand = _touching(lab) if ring == 0 else ringed[16 * (ring - 1):16 * ring]
        cost = _costs(cand, boxes, bounds)
        base = sum(len(c) for c in cands)
        cands.append(cand)
        costs.append(cost)
        for j in np.nonzero(cost <= 1e-9)[0]:
            j = int(j) + base
            if j < near:
                k = j
                break
            if inner is None:  # the labels down, shrunk once for every leader tried
                inner = _inner(names)
            if not _crossed_in(leader(lab.anchor, tuple(cands[-1][j - base]), lab.r), inner,
                               step):
                k = j
                break
        if k is not None:
            break
    return np.vstack(cands), np.concatenate(costs), k


def _nearest_to(lab: Label, boxes: np.ndarray, bounds: BoxT | None, names: np.ndarray,
                step: float) -> tuple[np.ndarray, np.ndarray, int | None]:
    """(candidates, their costs, the free one nearest lab.within whose leader crosses no label,
    or None): of every ring, the box closest to the room it names a thing of (a list of the
    房's things that the 房 cannot hold is written at its door, not across the 室)."""
    shapes = [lab] + [replace(lab, w=w, h=h, shapes=()) for w, h in lab.shapes]
    cand = np.vstack([np.vstack([_touching(x), _rings(x, 1, 2 * RINGS)]) for x in shapes])
    cost = _costs(cand, boxes, bounds)
    w = lab.within
    dx = np.maximum(np.maximum(w[0] - cand[:, 2], cand[:, 0] - w[2]), 0.0)
    dy = np.maximum(np.maximum(w[1] - cand[:, 3], cand[:, 1] - w[3]), 0.0)
    for j in np.argsort(np.hypot(dx, dy), kind="stable"):
        j = int(j)
        if cost[j] <= 1e-9 and not _crosses(leader(lab.anchor, tuple(cand[j]), lab.r), names,
                                           step):
            return cand, cost, j
    return cand, cost, None


def _meet(a: BoxT | None, b: BoxT) -> BoxT:
    """The box both a (None: no bounds) and b hold."""
    if a is None:
        return b
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def place_clear(labels: Sequence[Label], obstacles: Sequence[BoxT] = (),
                bounds: BoxT | None = None, step: float = 3.0,
                words: Sequence[BoxT] = ()) -> list[Placed]:
    """As `place` (greedy, in order, the same candidates), for a printed page: a label put
    away from its mark takes the first free box whose leader line crosses no label already
    down, and each leader drawn is then kept clear by the labels after it (as small boxes
    along it, `step` px apart). Where no candidate is free, the least overlapping one, as
    `place` keeps it; `words`: boxes among the obstacles already written, which no leader
    may cross either. The window keeps `place` (this costs a pass of numpy a label)."""
    live = [np.asarray(list(obstacles), float).reshape(-1, 4)]
    names = np.asarray(list(words), float).reshape(-1, 4)
    down: list[BoxT] = []  # labels put down since names was last joined
    out: list[Placed] = []
    for lab in labels:
        boxes = np.vstack(live) if len(live) > 1 else live[0]
        live = [boxes]
        names, down = _joined(names, down)
        near = _first(lab)
        k = None
        if lab.within is not None:  # inside its room where there is a free place
            cand, cost, k = _clear_in(lab, boxes, _meet(bounds, lab.within), names, step)
            free = np.nonzero(cost <= 1e-9)[0]
            if k is None and len(free):  # every leader there crosses a label: the fewest
                k = _fewest_crossed(lab, cand, free, _inner(names), step)
        if k is None and lab.within is not None:  # no room inside: just outside it
            off = np.vstack([boxes, np.asarray(lab.away, float).reshape(-1, 4)]) if lab.away \
                else boxes
            cand, cost, k = _nearest_to(lab, off, bounds, names, step)
        if k is None:
            cand, cost, k = _clear_in(lab, boxes, bounds, names, step)
            free = np.nonzero(cost <= 1e-9)[0]
            if k is None and len(free):  # every free box's leader crosses a label: the fewest
                k = _fewest_crossed(lab, cand, free, _inner(names), step)
        if k is None:
            k = int(np.argmin(cost))
        box = tuple(float(v) for v in cand[k])
        p = Placed(box, k >= near, float(cost[k]), k)
        out.append(p)
        live.append(np.asarray([box], float))
        down.append(box)  # joined to names when a leader is next checked
        if p.displaced:
            live.append(along(leader(lab.anchor, box, lab.r), step))
    return out


def _joined(names: np.ndarray, down: list) -> tuple[np.ndarray, list]:
    """names with the boxes put down since appended (in order), and nothing left to append."""
    return (np.vstack([names, np.asarray(down, float)]) if down else names), []


def _fewest_crossed(lab: Label, cand: np.ndarray, free: np.ndarray, inner: np.ndarray,
                    step: float) -> int:
    """The first of the free boxes whose leader crosses the fewest labels. Each crosses one at
    least (place_clear took none), so the first that crosses one alone is that box."""
    best, fewest = int(free[0]), None
    for j in free:
        n = _crossed_in(leader(lab.anchor, tuple(cand[j]), lab.r), inner, step)
        if fewest is None or n < fewest:
            best, fewest = int(j), n
            if n <= 1:
                break
    return best
