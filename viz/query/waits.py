"""The waits of a compiled rite: stretches in which nobody moves, which the window's "skip the
waits" (W) jumps over.

Someone moves while his motion keyframes differ from one to the next (a walk or a turn), while
a timed posture (拜, 揖) is under way, at an instant his posture or presence changes (he sits,
rises, enters or leaves), while an arrow flies (a "shot" event) and while someone dresses (a
"dress" event). Everything else is a wait.
Worked out once per timeline with numpy (a few array passes over the channels), never per frame.

    waits(timeline, min_wait=MIN_WAIT, lead=LEAD) -> np.ndarray (k, 2) of [t0, t1), sorted
    skip(spans, t) -> t, or the end of the wait t falls in
"""
from __future__ import annotations

import numpy as np

MIN_WAIT = 2.0  # s: a stillness shorter than this is played (a breath between two moves)
LEAD = 0.5  # s of stillness kept before the next move, so the eye sees it start
INSTANT = 0.25  # s counted as moving around an instant change (sitting down, coming in)
MOVING_EVENTS = ("shot", "dress")  # events during which something moves though nobody walks
# (an arrow flies; someone bares his arm, puts on 決遂, strings a bow)


def busy_spans(timeline, events: tuple[str, ...] = MOVING_EVENTS) -> np.ndarray:
    """Every [t0, t1) in which someone moves (module doc), unsorted and overlapping: (n, 2)."""
    parts: list[np.ndarray] = []
    ch = timeline.channels.get("motion")
    if ch is not None and len(ch.t) > 1:
        same = ch.owner[1:] == ch.owner[:-1]
        vals = np.stack([np.asarray(ch.values[k], float) for k in ("x", "y", "face")
                         if k in ch.values], axis=1) if ch.values else np.zeros((len(ch.t), 0))
        differs = (vals[1:] != vals[:-1]).any(axis=1) if vals.shape[1] else np.zeros(len(ch.t) - 1,
                                                                                     bool)
        go = same & differs & (ch.t[1:] > ch.t[:-1])
        parts.append(np.stack([ch.t[:-1][go], ch.t[1:][go]], axis=1))
    ch = timeline.channels.get("posture")
    if ch is not None and len(ch.t):
        code = np.asarray(ch.values.get("code", np.zeros(len(ch.t))), float)
        end = np.asarray(ch.values.get("end", np.zeros(len(ch.t))), float)
        timed = (code >= 2) & (end > ch.t)  # 拜, 揖: under way until end
        parts.append(np.stack([ch.t[timed], end[timed]], axis=1))
        parts.append(_instants(ch, ("code", "seated")))
    ch = timeline.channels.get("presence")
    if ch is not None and len(ch.t):
        parts.append(_instants(ch, ("present",)))
    flights = [(e.t0, e.t1) for e in timeline.events if e.kind in events and e.t1 >= e.t0]
    if flights:
        parts.append(np.asarray(flights, float))
    parts = [p for p in parts if len(p)]
    return np.concatenate(parts) if parts else np.zeros((0, 2))


def _instants(ch, names: tuple[str, ...]) -> np.ndarray:
    """[t - INSTANT, t + INSTANT) around each keyframe that changes one of names for its owner
    (an owner's first keyframe counts: he takes up that state then)."""
    n = len(ch.t)
    changed = np.ones(n, bool)
    if n > 1:
        same = ch.owner[1:] == ch.owner[:-1]
        diff = np.zeros(n - 1, bool)
        for k in names:
            v = np.asarray(ch.values.get(k, np.zeros(n)), float)
            diff |= v[1:] != v[:-1]
        changed[1:] = ~same | diff
    t = ch.t[changed]
    return np.stack([t - INSTANT, t + INSTANT], axis=1)


def waits(timeline, min_wait: float = MIN_WAIT, lead: float = LEAD,
          events: tuple[str, ...] = MOVING_EVENTS) -> np.ndarray:
    """The stretches [t0, t1) in which nobody moves, each at least min_wait long, ending lead
    seconds before the next move (or at the rite's end): (k, 2), sorted, disjoint."""
    duration = float(timeline.duration)
    busy = busy_spans(timeline, events)
    if len(busy):
        busy = busy[np.argsort(busy[:, 0], kind="stable")]
        # the furthest end reached so far: a gap opens where the next start passes it
        reach = np.maximum.accumulate(busy[:, 1])
        starts = np.concatenate([[0.0], reach])
        ends = np.concatenate([busy[:, 0], [duration]])
    else:
        starts, ends = np.array([0.0]), np.array([duration])
    starts = np.clip(starts, 0.0, duration)
    ends = np.clip(ends, 0.0, duration)
    ends = np.where(ends < duration, ends - lead, ends)  # see the next move begin
    keep = ends - starts >= min_wait
    return np.stack([starts[keep], ends[keep]], axis=1)


def skip(spans: np.ndarray, t: float) -> float:
    """t, or the end of the wait t falls in (spans as waits() gives them)."""
    if not len(spans):
        return t
    i = int(np.searchsorted(spans[:, 0], t, side="right")) - 1
    if i >= 0 and spans[i, 0] <= t < spans[i, 1]:
        return float(spans[i, 1])
    return t


def waiting(spans: np.ndarray) -> float:
    """How many seconds of the rite the spans hold."""
    return float((spans[:, 1] - spans[:, 0]).sum()) if len(spans) else 0.0
