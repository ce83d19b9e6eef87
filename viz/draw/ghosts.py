"""What the window draws for a choice the user made: a person's trail, where everyone was a step ago,
and a second reading over the first; and the facts the panel says about them.

Pure functions of timelines and frames that return display primitives in 尺 (no pygame), so the
composer, a PNG and the tests see the same marks.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from viz.draw import trails
from viz.draw.display import Circle, Line, Primitive, Text
from viz.draw.scene import party_color

MOVED = 0.5  # 尺: less than this is standing still (a turn, a bow), not a move
DIFFERS = 0.05  # 尺: two readings closer than this put a person on the same spot
TRAIL = (150, 36, 30)  # the selected person's path: the panel's red
RING = (150, 36, 30)
COMPARE = (30, 60, 130)  # the second reading: ink blue, apart from both parties' fills
GHOST_ALPHA = 70


def _faint(color: tuple[int, ...], alpha: int) -> tuple[int, ...]:
    return (*color[:3], alpha)


# ---------------------------------------------------------------- selection and trail

def stage_trail(timeline, actor: int, stage: int) -> np.ndarray:
    """(k,2) where the person walks over the whole stage."""
    if not timeline.stages:
        return np.zeros((0, 2))
    s = timeline.stages[stage]
    return trails.path(timeline, actor, s.t0, s.t1)


def clip_path(path: np.ndarray, box: tuple[float, float, float, float]) -> list[np.ndarray]:
    """The pieces of a polyline inside box (xmin, ymin, xmax, ymax), each segment cut where it
    crosses the box's edge (trails.clip_polyline, which the plates' trails use too)."""
    return [np.asarray(piece) for piece, _, _ in trails.clip_polyline(path, box)]


def trail_prims(path: np.ndarray, now: tuple[float, float] | None, r: float,
                present: bool, view: tuple[float, float, float, float] | None = None
                ) -> list[Primitive]:
    """His stage's path dotted, a hollow mark where it starts, a dot where it ends, and a ring
    round him now (drawn even when the path is one point: the ring says who is selected).

    Long dashes, cut to `view` (the world box on screen): the back end draws each dash as a
    line of its own, and a walk from the 賔's gate is thousands of pixels long."""
    out: list[Primitive] = []
    pts = tuple((float(x), float(y)) for x, y in path)
    if len(pts) > 1:
        pieces = clip_path(np.asarray(pts), view) if view is not None else [np.asarray(pts)]
        out += [Line(tuple((float(x), float(y)) for x, y in piece), TRAIL, 2.0, dash=(5.0, 7.0))
                for piece in pieces]
        out.append(Circle(pts[0], r * 0.45, (255, 250, 236), TRAIL, 1.0, min_px=3.5))
        out.append(Circle(pts[-1], r * 0.35, TRAIL, None, 1.0, min_px=3.0))
    if now is not None and present:
        out.append(Circle(now, r * 1.75, None, RING, 2.0, min_px=13.0))
    return out


@dataclass(frozen=True)
class Move:
    """The next step in which someone walks: its index, cite, and from where to where."""

    step: int
    cite: str
    now: bool  # he is walking it already
    src: str
    dst: str
    length: float  # 尺 walked in the step
    t0: float


def next_move(timeline, layout, actor: int, t: float, closing: bool = False) -> Move | None:
    """The step he walks in next (the current one if he is still to walk in it), read from his
    motion keyframes, so it costs one pass over them, not a sample per step."""
    ch = timeline.channels.get("motion")
    if ch is None or not timeline.steps:
        return None
    mine = ch.owner == actor
    ts, xs, ys = ch.t[mine], ch.values["x"][mine], ch.values["y"][mine]
    if len(ts) < 2:
        return None
    walks = (np.hypot(np.diff(xs), np.diff(ys)) > 1e-6) & (np.diff(ts) > 0)
    later = ts[1:] > t + 1e-9
    current = timeline.step_at(t, closing)
    for k in np.nonzero(walks & later)[0]:
        a, b = max(float(ts[k]), t), float(ts[k + 1])
        # every step this stretch of walking overlaps, from the first: a step may hold only
        # its last half-尺 and the next one the rest
        i = max(timeline.step_at(a + min(1e-6, (b - a) / 2)), current)
        while i < len(timeline.steps) and timeline.steps[i].t0 < b:
            s = timeline.steps[i]
            if not (closing and i == current):
                p = trails.path(timeline, actor, s.t0, s.t1)
                length = float(np.hypot(*np.diff(p, axis=0).T).sum()) if len(p) > 1 else 0.0
                if length >= MOVED:
                    return Move(i, s.cite, i == current and not closing and s.t0 < t,
                                layout.nearest_place(*p[0]), layout.nearest_place(*p[-1]),
                                length, s.t0)
            i += 1
    return None


# ---------------------------------------------------------------- where they were

def previous_frame(timeline, t: float, closing: bool = False):
    """Everyone as the previous step left them (the drill writer's previous set), or None
    before the second step."""
    i = timeline.step_at(t, closing)
    if i <= 0 or not timeline.steps:
        return None
    return timeline.sample(timeline.steps[i - 1].t1, closing=True)


def anyone_moved(before, now) -> bool:
    """Whether anyone present in both frames stands more than MOVED from where he was, or came
    or went: whether the ghosts (G) show anything."""
    both = before.present & now.present
    far = np.hypot(*(now.xy[both] - before.xy[both]).T) > MOVED if both.any() else np.zeros(0)
    return bool(np.any(far)) or bool((before.present != now.present).any())


def ghost_prims(timeline, before, now, r: float) -> list[Primitive]:
    """Each person where the previous step left him, as a faint token, with a faint line to
    where he is now when he has moved since (solid: dashing forty lines a frame costs more
    than the whole plan)."""
    out: list[Primitive] = []
    for i, a in enumerate(timeline.actors):
        if not bool(before.present[i]):
            continue
        x, y = float(before.xy[i, 0]), float(before.xy[i, 1])
        if bool(now.present[i]):
            nx, ny = float(now.xy[i, 0]), float(now.xy[i, 1])
            if np.hypot(nx - x, ny - y) > MOVED:
                out.append(Line(((x, y), (nx, ny)), (190, 180, 164), 1.0))
        col = party_color(a.party)
        out.append(Circle((x, y), r, _faint(col, GHOST_ALPHA), _faint(col, 110), 1.0,
                          min_px=8.0))
    return out


# ---------------------------------------------------------------- two readings

def clause_time(old, new, t: float, closing: bool = False) -> tuple[float, bool]:
    """The moment of `new` that shows what `old` shows at t: the step citing the same words
    (the same occurrence among steps citing them), at the same fraction of it; a step the other
    reading lacks falls back to one citing overlapping words, then to the same share of the rite."""
    if not old.steps or not new.steps:
        return (min(t, new.duration), closing)
    i = old.step_at(t, closing)
    s = old.steps[i]
    nth = sum(1 for o in old.steps[:i] if o.span == s.span)
    same = [n for n in new.steps if n.span == s.span]
    if not same:
        same = [n for n in new.steps if n.span[0] < s.span[1] and s.span[0] < n.span[1]]
        nth = 0
    if not same:
        share = t / old.duration if old.duration > 0 else 0.0
        return (share * new.duration, closing)
    n = same[min(nth, len(same) - 1)]
    frac = (t - s.t0) / (s.t1 - s.t0) if s.t1 > s.t0 else 1.0
    return (n.t0 + float(np.clip(frac, 0.0, 1.0)) * (n.t1 - n.t0), closing)


@dataclass(frozen=True)
class Difference:
    actor: int  # in the first reading's timeline
    name: str
    dist: float  # 尺 between where the two readings put him


def differences(tl_a, frame_a, tl_b, frame_b) -> list[Difference]:
    """Who stands elsewhere in the second reading (matched by id), furthest first."""
    where_b = {a.id: i for i, a in enumerate(tl_b.actors)}
    out = []
    for i, a in enumerate(tl_a.actors):
        j = where_b.get(a.id)
        if j is None or not (bool(frame_a.present[i]) and bool(frame_b.present[j])):
            continue
        d = float(np.hypot(*(frame_a.xy[i] - frame_b.xy[j])))
        if d > DIFFERS:
            out.append(Difference(i, a.name, d))
    return sorted(out, key=lambda d: (-d.dist, d.actor))


def step_differences(tl_a, tl_b, t: float, closing: bool = False) -> list[Difference]:
    """Who the two readings leave in different places at the end of the step under way at t
    (a walk half done differs by where each is on his way; the step's end is what the readings
    disagree about)."""
    if not tl_a.steps:
        return []
    s = tl_a.steps[tl_a.step_at(t, closing)]
    tb, cb = clause_time(tl_a, tl_b, s.t1, True)
    return differences(tl_a, tl_a.sample(s.t1, closing=True), tl_b, tl_b.sample(tb, cb))


def compare_prims(tl_a, frame_a, tl_b, frame_b, r: float) -> list[Primitive]:
    """Everyone where the second reading puts him, as a hollow token, a thin line from his
    place in the first reading to it, and his label where he differs."""
    where_a = {a.id: i for i, a in enumerate(tl_a.actors)}
    out: list[Primitive] = []
    for j, b in enumerate(tl_b.actors):
        if not bool(frame_b.present[j]):
            continue
        x, y = float(frame_b.xy[j, 0]), float(frame_b.xy[j, 1])
        i = where_a.get(b.id)
        far = np.inf  # present only in the second reading
        if i is not None and bool(frame_a.present[i]):
            ax, ay = float(frame_a.xy[i, 0]), float(frame_a.xy[i, 1])
            far = float(np.hypot(x - ax, y - ay))
            if far > DIFFERS:
                out.append(Line(((ax, ay), (x, y)), COMPARE, 1.0))
        if far > 2 * r:  # nearer, the label would sit on his own token
            label = frame_b.labels[j] if frame_b.labels else b.label
            out.append(Text((x, y - r * 1.2), label or b.name[:1], 0.9, COMPARE, "n",
                            unit="chi", min_px=10, max_px=13, bg=(244, 247, 255)))
        out.append(Circle((x, y), r, None, COMPARE, 1.5, min_px=8.0))
    return out


@lru_cache(maxsize=8)
def _moved(layout_a, layout_b) -> tuple:
    """The second layout's features that differ from the first's. Matched by position in the
    list, as both are read from one file: names repeat (two halves of a wall, a stair's steps).
    Kept per pair of layouts (compared by identity): comparing every point of every feature
    each frame cost more than the rest of the comparison."""
    fa, fb = tuple(layout_a.features), tuple(layout_b.features)
    if len(fa) != len(fb):
        return ()
    out = []
    for f, g in zip(fa, fb, strict=True):
        pa, pb = np.asarray(f.points, float), np.asarray(g.points, float)
        if (f.kind, f.name) != (g.kind, g.name) or pa.shape != pb.shape or not np.allclose(pa, pb):
            out.append(g)
    return tuple(out)


def moved_features(layout_a, layout_b) -> list[Primitive]:
    """The things the second reading puts elsewhere (its 物, its 乏 …) outlined, dashed, in its
    colour."""
    out: list[Primitive] = []
    for g in _moved(layout_a, layout_b):
        pts = tuple((float(x), float(y)) for x, y in np.asarray(g.points, float).reshape(-1, 2))
        if len(pts) == 1:
            out.append(Circle(pts[0], 0.6, None, COMPARE, 1.0, min_px=3.0))
        else:
            out.append(Line(pts, COMPARE, 1.5, dash=(4.0, 3.0), closed=bool(g.closed)))
    return out


def moved_points(layout_a, layout_b) -> np.ndarray:
    """(k,2) every point of what the second reading moves, for a view that must show it."""
    pts = [np.asarray(g.points, float).reshape(-1, 2) for g in _moved(layout_a, layout_b)]
    return np.vstack(pts) if pts else np.zeros((0, 2))
