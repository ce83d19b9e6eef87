"""Whether a leader line runs through boxes: the small boxes along a segment, and how many of
a set of boxes it runs through (more than a px inside), by a binary search over its points."""
from __future__ import annotations

import math

import numpy as np


def along(seg, step: float = 3.0) -> np.ndarray:
    """(k, 4) small boxes along a segment, `step` px apart (its ends left out)."""
    (ax, ay), (bx, by) = seg
    n = max(int(math.hypot(bx - ax, by - ay) / step), 1)
    t = (np.arange(1, n) / n)[:, None]
    pts = np.hstack([ax + (bx - ax) * t, ay + (by - ay) * t])
    return np.hstack([pts - 1.0, pts + 1.0]).reshape(-1, 4)


def _crosses(seg, boxes: np.ndarray, step: float) -> bool:
    """Whether a segment runs through any of (m, 4) boxes (more than a px inside)."""
    return _crossed(seg, boxes, step) > 0


def _crossed(seg, boxes: np.ndarray, step: float) -> int:
    """How many of (m, 4) boxes a segment runs through (more than a px inside)."""
    if not len(boxes):
        return 0
    return _crossed_in(seg, _inner(boxes), step)


def _inner(boxes: np.ndarray) -> np.ndarray:
    """Boxes shrunk by a px each way (x0 + 1, y0 + 1, x1 - 1, y1 - 1): what _crossed_in takes."""
    return boxes + (1.0, 1.0, -1.0, -1.0)


def _crossed_in(seg, inner: np.ndarray, step: float) -> int:
    """_crossed of boxes given shrunk (_inner: a label's many leaders are tried against the
    same boxes). The points of `along`, the same numbers, run one way along each axis (each
    step of their sums rounds monotonically): the points inside a box's x span are a run of
    them, found by a binary search, and so are those inside its y span; the segment runs
    through the box when the two runs meet. A few numpy calls for all boxes, not a pass of
    points × boxes."""
    if not len(inner):
        return 0
    (ax, ay), (bx, by) = seg
    if not math.isfinite(ax + ay + bx + by):
        return _crossed_np(seg, inner + (-1.0, -1.0, 1.0, 1.0), step)
    n = max(int(math.hypot(bx - ax, by - ay) / step), 1)
    if n < 2:
        return 0
    t = np.arange(1, n) / n  # as along: its box (p - 1, p + 1), whose corner + 1 is p - 1 + 1
    xs = ax + (bx - ax) * t - 1.0 + 1.0
    ys = ay + (by - ay) * t - 1.0 + 1.0
    sx, ex = _run(xs, inner[:, 0], inner[:, 2], bx < ax)
    sy, ey = _run(ys, inner[:, 1], inner[:, 3], by < ay)
    return int((np.maximum(sx, sy) < np.minimum(ex, ey)).sum())


def _run(v: np.ndarray, lo: np.ndarray, hi: np.ndarray, falling: bool):
    """(start, end) of the run of v strictly between lo and hi, for each (lo, hi): v is
    monotonic, rising unless `falling`."""
    if not falling:
        return v.searchsorted(lo, "right"), v.searchsorted(hi, "left")
    r = v[::-1]
    return len(v) - r.searchsorted(hi, "left"), len(v) - r.searchsorted(lo, "right")


def _crossed_np(seg, boxes: np.ndarray, step: float) -> int:
    """_crossed in numpy (a segment whose ends are not finite numbers)."""
    pts = along(seg, step)[:, :2] + 1.0
    if not len(pts):
        return 0
    # only the boxes the segment's own box reaches can hold one of its points (the same count,
    # sooner: a page holds hundreds of boxes and a leader passes few)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    boxes = boxes[(boxes[:, 0] + 1 < hi[0]) & (boxes[:, 2] - 1 > lo[0])
                  & (boxes[:, 1] + 1 < hi[1]) & (boxes[:, 3] - 1 > lo[1])]
    if not len(boxes):
        return 0
    inside = ((pts[:, None, 0] > boxes[None, :, 0] + 1) & (pts[:, None, 0] < boxes[None, :, 2] - 1)
              & (pts[:, None, 1] > boxes[None, :, 1] + 1)
              & (pts[:, None, 1] < boxes[None, :, 3] - 1))
    return int(inside.any(axis=0).sum())
