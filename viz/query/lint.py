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


def _rows(timeline) -> list[tuple[tuple | None, tuple | None]]:
    """Each person's keyframes of motion (t, x, y) and of presence (t, present), None for none:
    taken out of the channels once, for every chunk of times _tracks reads."""
    mo = timeline.channels["motion"]
    pr = timeline.channels["presence"]
    x, y, v = (np.asarray(mo.values["x"]), np.asarray(mo.values["y"]),
               np.asarray(pr.values["present"]))
    out = []
    for a in range(len(timeline.actors)):
        sel, psel = mo.owner == a, pr.owner == a
        out.append(((mo.t[sel], x[sel], y[sel]) if sel.any() else None,
                    (pr.t[psel], v[psel]) if psel.any() else None))
    return out


def _tracks(timeline, T: np.ndarray, rows=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Everyone's position, whether walking, and whether present at each time of T, read from
    the channels at once (as sample(t) reads them one t at a time): (len(T), n, 2), (len(T), n),
    (len(T), n). rows: _rows(timeline), when taken already."""
    n = len(timeline.actors)
    xy = np.zeros((len(T), n, 2))
    moving = np.zeros((len(T), n), bool)
    present = np.zeros((len(T), n), bool)
    for a, (motion, presence) in enumerate(rows if rows is not None else _rows(timeline)):
        if motion is not None:
            t, x, y = motion
            k = np.searchsorted(t, T, side="right") - 1
            k0 = np.clip(k, 0, len(t) - 1)
            k1 = np.clip(k + 1, 0, len(t) - 1)
            span = t[k1] - t[k0]
            f = np.where((k >= 0) & (k1 > k0) & (span > 0),
                         (T - t[k0]) / np.where(span > 0, span, 1.0), 0.0).clip(0.0, 1.0)
            xy[:, a, 0] = x[k0] + f * (x[k1] - x[k0])
            xy[:, a, 1] = y[k0] + f * (y[k1] - y[k0])
            moving[:, a] = (f > 0) & (f < 1) & ((x[k1] != x[k0]) | (y[k1] != y[k0]))
        if presence is not None:
            t, v = presence
            k = np.searchsorted(t, T, side="right") - 1
            present[:, a] = (k >= 0) & (v[np.clip(k, 0, len(t) - 1)] != 0)
    return xy, moving, present


def _close(xy: np.ndarray, walk: np.ndarray, present: np.ndarray, n: int):
    """(sample, pair, distance) of each two present people closer than PASS, one of them walking,
    in the order of sample, then pair (np.triu_indices(n, 1)'s): each walker at each sample
    against everyone, not every pair at every sample (a few walk at a time, of dozens)."""
    s, w = np.nonzero(walk)  # every walker at every sample
    if not len(s):
        return []
    d = np.hypot(xy[s, w, 0][:, None] - xy[s, :, 0], xy[s, w, 1][:, None] - xy[s, :, 1])
    near = (d < PASS) & present[s] & present[s, w][:, None]
    near[np.arange(len(s)), w] = False
    r, o = np.nonzero(near)
    if not len(r):
        return []
    ss, a = s[r], w[r]
    i, j = np.minimum(a, o), np.maximum(a, o)
    k = i * n - i * (i + 1) // 2 + (j - i - 1)  # the pair's index among np.triu_indices(n, 1)
    order = np.lexsort((k, ss))
    ss, i, j, k = ss[order], i[order], j[order], k[order]
    first = np.ones(len(ss), bool)  # two walkers close find each other: once
    first[1:] = (ss[1:] != ss[:-1]) | (k[1:] != k[:-1])
    ss, i, j, k = ss[first], i[first], j[first], k[first]
    # the distance as the pair's own (i's position less j's), as every pair at once gave it
    dist = np.hypot(xy[ss, i, 0] - xy[ss, j, 0], xy[ss, i, 1] - xy[ss, j, 1])
    return zip(ss.tolist(), k.tolist(), dist.tolist())


def motion_warnings(timeline, dt: float = DT) -> list[Problem]:
    """People passing through each other, sampled every dt seconds along every path."""
    out: list[Problem] = []
    if not timeline.steps or len(timeline.actors) < 2:
        return out
    seen: set[tuple[int, int, int]] = set()
    names = [a.name for a in timeline.actors]
    step_t0 = np.array([s.t0 for s in timeline.steps])
    n = len(timeline.actors)
    iu, ju = np.triu_indices(n, 1)
    times = np.arange(0.0, timeline.duration, dt)
    rows = _rows(timeline)
    for c0 in range(0, len(times), CHUNK):
        T = times[c0:c0 + CHUNK]
        xy, moving, present = _tracks(timeline, T, rows)
        walk = moving & present
        busy = walk.any(axis=1)
        if not busy.any():
            continue
        T, xy, walk, present = T[busy], xy[busy], walk[busy], present[busy]
        for s, k, dist in _close(xy, walk, present, n):
            i, j, t = int(iu[k]), int(ju[k]), float(T[s])
            step = max(int(np.searchsorted(step_t0, t, side="right")) - 1, 0)
            key = (i, j, step)
            if key in seen:
                continue
            seen.add(key)
            out.append(Problem(_loc(timeline.steps[step].loc),
                               f"{names[i]} ({timeline.actors[i].id}) and {names[j]} "
                               f"({timeline.actors[j].id}) pass {dist:.1f} 尺 apart at "
                               f"t = {t:.1f} s, one walking through the other", warning=True))
    return out
