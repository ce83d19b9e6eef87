"""Where place_clear looks for a label's box (viz.draw.labels): ring after ring round its mark,
or, for a name of a thing in a room that the room cannot hold, the free box nearest the room."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from viz.draw.labels import (
    RINGS,
    BoxT,
    Label,
    _costs,
    _crosses,
    _first,
    _rings,
    _touching,
    leader,
)


def _clear_in(lab: Label, boxes: np.ndarray, bounds: BoxT | None, names: np.ndarray,
              step: float) -> tuple[np.ndarray, np.ndarray, int | None]:
    """(candidates, their costs, the first free one whose leader crosses no label, or None):
    the touching places, then ring after ring (further out than the window's: a leader may
    run longer on paper), each tried only when those before hold no such box."""
    near = _first(lab)
    cands, costs, k = [], [], None
    for ring in range(0, 2 * RINGS + 1):
        cand = _touching(lab) if ring == 0 else _rings(lab, ring, ring)
        cost = _costs(cand, boxes, bounds)
        base = sum(len(c) for c in cands)
        cands.append(cand)
        costs.append(cost)
        for j in np.nonzero(cost <= 1e-9)[0]:
            j = int(j) + base
            if j < near or not _crosses(leader(lab.anchor, tuple(cands[-1][j - base]),
                                               lab.r), names, step):
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
