"""Checks of the compiled rite while people move, not only where steps end: nobody walks through
anybody. Run by `check`; each finding is a warning located at the step it happens in."""
from __future__ import annotations

import numpy as np

from viz.base.errors import Loc, Problem

PASS = 1.0  # 尺: two people closer than this, one of them walking, pass through each other
DT = 0.2  # seconds between samples: a walker covers under 1 尺 in that time
CHUNK = 4096  # sample times compared at once (memory: CHUNK × pairs)


def _loc(text: str) -> Loc:
    file, line, col = text.rsplit(":", 2)
    return Loc(file, int(line), int(col))


def _tracks(timeline, T: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Everyone's position, whether walking, and whether present at each time of T, read from
    the channels at once (as sample(t) reads them one t at a time): (len(T), n, 2), (len(T), n),
    (len(T), n)."""
    n = len(timeline.actors)
    xy = np.zeros((len(T), n, 2))
    moving = np.zeros((len(T), n), bool)
    present = np.zeros((len(T), n), bool)
    mo = timeline.channels["motion"]
    pr = timeline.channels["presence"]
    for a in range(n):
        sel = mo.owner == a
        if sel.any():
            t, x, y = mo.t[sel], np.asarray(mo.values["x"])[sel], np.asarray(mo.values["y"])[sel]
            k = np.searchsorted(t, T, side="right") - 1
            k0 = np.clip(k, 0, len(t) - 1)
            k1 = np.clip(k + 1, 0, len(t) - 1)
            span = t[k1] - t[k0]
            f = np.where((k >= 0) & (k1 > k0) & (span > 0),
                         (T - t[k0]) / np.where(span > 0, span, 1.0), 0.0).clip(0.0, 1.0)
            xy[:, a, 0] = x[k0] + f * (x[k1] - x[k0])
            xy[:, a, 1] = y[k0] + f * (y[k1] - y[k0])
            moving[:, a] = (f > 0) & (f < 1) & ((x[k1] != x[k0]) | (y[k1] != y[k0]))
        sel = pr.owner == a
        if sel.any():
            t, v = pr.t[sel], np.asarray(pr.values["present"])[sel]
            k = np.searchsorted(t, T, side="right") - 1
            present[:, a] = (k >= 0) & (v[np.clip(k, 0, len(t) - 1)] != 0)
    return xy, moving, present


def motion_warnings(timeline, dt: float = DT) -> list[Problem]:
    """People passing through each other, sampled every dt seconds along every path."""
    out: list[Problem] = []
    if not timeline.steps or len(timeline.actors) < 2:
        return out
    seen: set[tuple[int, int, int]] = set()
    names = [a.name for a in timeline.actors]
    step_t0 = np.array([s.t0 for s in timeline.steps])
    iu, ju = np.triu_indices(len(timeline.actors), 1)
    times = np.arange(0.0, timeline.duration, dt)
    for c0 in range(0, len(times), CHUNK):
        T = times[c0:c0 + CHUNK]
        xy, moving, present = _tracks(timeline, T)
        walk = moving & present
        busy = walk.any(axis=1)
        if not busy.any():
            continue
        T, xy, walk, present = T[busy], xy[busy], walk[busy], present[busy]
        d = np.hypot(xy[:, iu, 0] - xy[:, ju, 0], xy[:, iu, 1] - xy[:, ju, 1])
        close = ((d < PASS) & present[:, iu] & present[:, ju] & (walk[:, iu] | walk[:, ju]))
        for s, k in zip(*np.nonzero(close)):
            i, j, t = int(iu[k]), int(ju[k]), float(T[s])
            step = max(int(np.searchsorted(step_t0, t, side="right")) - 1, 0)
            key = (i, j, step)
            if key in seen:
                continue
            seen.add(key)
            out.append(Problem(_loc(timeline.steps[step].loc),
                               f"{names[i]} ({timeline.actors[i].id}) and {names[j]} "
                               f"({timeline.actors[j].id}) pass {d[s, k]:.1f} 尺 apart at "
                               f"t = {t:.1f} s, one walking through the other", warning=True))
    return out
