"""Where people walked: each person's path over a span of time, from the compiled motion channel."""
from __future__ import annotations

import numpy as np


def path(timeline, actor: int, t0: float, t1: float) -> np.ndarray:
    """(k,2) the points actor passes between t0 and t1, in order: where he is at t0, every
    keyframe strictly between, and where he is at t1 (repeats dropped)."""
    ch = timeline.channels["motion"]
    mine = ch.owner == actor
    ts = ch.t[mine]
    inside = (ts > t0) & (ts < t1)
    pts = [timeline.sample(t0).xy[actor]]
    pts += list(np.stack([ch.values["x"][mine][inside], ch.values["y"][mine][inside]], axis=1))
    pts.append(timeline.sample(t1, closing=True).xy[actor])
    a = np.asarray(pts, float).reshape(-1, 2)
    keep = np.r_[True, np.hypot(*np.diff(a, axis=0).T) > 1e-6]
    return a[keep]


def moved(timeline, t0: float, t1: float, min_len: float = 0.5) -> list[int]:
    """The actors present at some point in [t0, t1] whose path there is longer than min_len 尺."""
    out = []
    for i in range(len(timeline.actors)):
        p = path(timeline, i, t0, t1)
        if len(p) > 1 and float(np.hypot(*np.diff(p, axis=0).T).sum()) > min_len:
            out.append(i)
    return out
