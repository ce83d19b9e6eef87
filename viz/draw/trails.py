"""Where people walked: each person's path over a span of time, from the compiled motion channel,
and those paths as a drill chart draws them (numbered moves, dotted, with arrowheads)."""
from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from viz.draw.display import Circle, Color, Line, Polygon, Primitive


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


@dataclass(frozen=True)
class Leg:
    """One person's walk during one step: a drill chart's move, with its number."""

    actor: int
    step: int
    number: int  # in the order the text gives (see legs())
    points: np.ndarray  # (k,2) 尺, start to end
    starts: bool = True  # the points begin where he set off (not where a view cut the walk)
    ends: bool = True  # … and end where he stopped


def _xy_at(timeline, t: float, closing: bool = False) -> np.ndarray:
    """(n,2) everyone's place at t, as timeline.sample(t, closing).xy gives it, from the motion
    channel alone (a whole sample also works out postures, props, labels and events: a stage's
    trails ask for two places per step, and a stage has up to a hundred steps)."""
    t = min(max(float(t), 0.0), timeline.duration)
    cut = timeline.step_at(t, True) if closing else None
    v = timeline.channels["motion"].sample(len(timeline.actors), t, cut)
    return np.column_stack([v["x"], v["y"]])


_WALKED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # timeline → {(t0, t1): walks}


def _walks(timeline, t0: float, t1: float) -> dict[int, tuple[np.ndarray, float]]:
    """The actors who may have moved over [t0, t1]: {actor: (his path as path() gives it, when
    his keyframes first leave where he stood at t0)}; from two places and one pass over the
    motion channel. Anyone else stood still (no keyframe inside, the same place at both ends).
    Kept per timeline (a timeline never changes): the atlas finds every stage's moves to cut
    its plates, and its forked workers draw them from what was found."""
    try:
        memo = _WALKED.setdefault(timeline, {})
    except TypeError:  # a timeline that takes no weak reference
        memo = {}
    got = memo.get((t0, t1))
    if got is None:
        got = memo[(t0, t1)] = _walks_of(timeline, t0, t1)
    return got


def _walks_of(timeline, t0: float, t1: float) -> dict[int, tuple[np.ndarray, float]]:
    ch = timeline.channels["motion"]
    a, b = _xy_at(timeline, t0), _xy_at(timeline, t1, closing=True)
    near = (ch.t >= t0) & (ch.t <= t1)
    own, ts = ch.owner[near], ch.t[near]
    xs, ys = ch.values["x"][near], ch.values["y"][near]
    order = np.argsort(own, kind="stable")  # keyframes of one owner stay in time order
    own, ts, xs, ys = own[order], ts[order], xs[order], ys[order]
    n = len(timeline.actors)
    cut = np.searchsorted(own, np.arange(n + 1))
    ends_apart = np.hypot(*(b - a).T) > 1e-6
    out = {}
    for i in np.flatnonzero(ends_apart | (cut[1:] > cut[:-1])).tolist():
        lo, hi = cut[i], cut[i + 1]
        kt, kx, ky = ts[lo:hi], xs[lo:hi], ys[lo:hi]
        off = np.flatnonzero(np.hypot(kx - a[i, 0], ky - a[i, 1]) > 1e-6)
        first = float(kt[off[0]]) if len(off) else t1
        inside = (kt > t0) & (kt < t1)
        p = np.vstack([a[i:i + 1], np.stack([kx[inside], ky[inside]], axis=1), b[i:i + 1]])
        keep = np.r_[True, np.hypot(*np.diff(p, axis=0).T) > 1e-6]
        out[i] = (p[keep], first)
    return out


def legs(timeline, steps: Sequence[int], follow: int | None = None,
         min_len: float = 0.5) -> list[Leg]:
    """Every walk longer than min_len 尺 in these steps (of one person with follow), numbered
    as the text gives them: by the step that cites the move, and within one step, in the order
    the people set off (the order the step's actions are written), then the cast's order.
    With several steps a step's movers share its number, which `cites` lists."""
    out: list[Leg] = []
    for k in steps:
        s = timeline.steps[k]
        walks = _walks(timeline, s.t0, s.t1)
        who = [i for i, (p, _) in walks.items() if (follow is None or i == follow)
               and len(p) > 1 and float(np.hypot(*np.diff(p, axis=0).T).sum()) > min_len]
        who.sort(key=lambda i: (walks[i][1], i))
        out += [Leg(i, k, 0, walks[i][0]) for i in who]
    if len(steps) == 1:
        return [dataclasses.replace(g, number=n) for n, g in enumerate(out, 1)]
    order = {k: n for n, k in enumerate(dict.fromkeys(g.step for g in out), 1)}
    return [dataclasses.replace(g, number=order[g.step]) for g in out]


def cites(timeline, found: Sequence[Leg]) -> list[tuple[int, str]]:
    """(number, the words its step cites), once per number, in order."""
    seen: dict[int, str] = {}
    for g in found:
        seen.setdefault(g.number, timeline.steps[g.step].cite)
    return sorted(seen.items())


def drill(found: Sequence[Leg], px_per_chi: float, color: Color, faint: Color,
          arrow_every: float = 70.0) -> list[Primitive]:
    """The legs as a drill chart draws them: a dotted path with arrowheads along it (one every
    `arrow_every` px and one at the end), a faint ring where it starts, a solid dot where it
    ends. Sizes are in px at px_per_chi, so the marks read the same at any scale."""
    k = 1.0 / max(px_per_chi, 1e-6)
    out: list[Primitive] = []
    for g in found:
        pts = [(float(x), float(y)) for x, y in g.points]
        out.append(Line(tuple(pts), color, 1.5, dash=(2.0, 4.0)))
        if g.starts:
            out.append(Circle(pts[0], 3.5 * k, None, faint, 1.5))
        out += _arrowheads(g.points, arrow_every * k, 7.0 * k, color, g.ends)
        if g.ends:
            out.append(Circle(pts[-1], 2.5 * k, color, None))
    return out


LANE_PX = 5.0  # px between moves drawn side by side
LANE_NEAR = 3.5  # px: moves closer than this, running the same way or against it, share a corridor
LANE_STEP = 5.0  # px between the samples a move is looked at


def lanes(found: Sequence[Leg], camera, gap: float = LANE_PX) -> list[Leg]:
    """The legs with the stretches that run along another's (within LANE_NEAR px on the page,
    parallel or against each other) moved apart into lanes `gap` px wide, in the order of the
    legs, as a drill chart draws marchers who share a corridor side by side; each leg eases
    into its lane and out of it, so it still starts and ends where its walker stood."""
    if len(found) < 2:
        return list(found)
    pts, tan, own = [], [], []
    for i, g in enumerate(found):
        p = np.asarray(camera.to_screen(g.points), float).reshape(-1, 2)
        d = _dense(p, LANE_STEP)
        t = np.gradient(d, axis=0) if len(d) > 1 else np.zeros_like(d)
        n = np.hypot(t[:, 0], t[:, 1])
        t = t / np.where(n > 0, n, 1)[:, None]
        # one sense for a line whichever way it is walked, so lanes agree going and coming
        flip = (t[:, 0] < 0) | ((t[:, 0] == 0) & (t[:, 1] < 0))
        t[flip] *= -1
        pts.append(d)
        tan.append(t)
        own.append(np.full(len(d), i))
    P, T, O = np.vstack(pts), np.vstack(tan), np.concatenate(own)
    alongside = _alongside(P, T, O, len(found))
    starts = np.cumsum([0] + [len(d) for d in pts])
    out: list[Leg] = []
    for i, g in enumerate(found):
        d, t = pts[i], tan[i]
        k = len(d)
        legs_near = alongside[starts[i]:starts[i + 1]]  # (sample, leg): who runs alongside
        if not legs_near.any():
            out.append(g)
            continue
        size = legs_near.sum(axis=1) + 1
        rank = legs_near[:, :i].sum(axis=1)
        off = np.where(size > 1, (rank - (size - 1) / 2) * gap, 0.0)
        if not off.any():
            out.append(g)
            continue
        # ease in and out (a moving average), and none at either end
        w = 5
        sm = np.convolve(np.pad(off, w, mode="edge"), np.ones(2 * w + 1) / (2 * w + 1), "same")
        off = sm[w:-w]
        ramp = np.minimum(np.arange(k), np.arange(k)[::-1]) / 3.0
        off *= np.clip(ramp, 0, 1)
        normal = np.stack([-t[:, 1], t[:, 0]], axis=1)
        moved = d + normal * off[:, None]
        out.append(dataclasses.replace(g, points=np.asarray(camera.to_world(moved), float)))
    return out


def _alongside(P: np.ndarray, T: np.ndarray, O: np.ndarray, n: int) -> np.ndarray:
    """(sample, leg) → True where another leg's sample lies within LANE_NEAR px of this one,
    running the same way or against it. The samples are binned in cells LANE_NEAR wide, so
    each is compared only with those in its own and the eight cells around it."""
    out = np.zeros((len(P), n), bool)
    cell = np.floor(P / LANE_NEAR).astype(np.int64)
    cell -= cell.min(axis=0) - 1  # every neighbour cell's index is ≥ 0
    wide = int(cell[:, 1].max()) + 2
    key = cell[:, 0] * wide + cell[:, 1]
    order = np.argsort(key, kind="stable")
    skey = key[order]
    for ox in (-1, 0, 1):
        for oy in (-1, 0, 1):
            q = key + ox * wide + oy
            lo, hi = np.searchsorted(skey, q, "left"), np.searchsorted(skey, q, "right")
            count = hi - lo
            if not count.any():
                continue
            a = np.repeat(np.arange(len(P)), count)
            b = order[np.repeat(lo - np.cumsum(count) + count, count) + np.arange(count.sum())]
            keep = O[a] != O[b]
            a, b = a[keep], b[keep]
            dx, dy = P[a, 0] - P[b, 0], P[a, 1] - P[b, 1]
            near = ((dx * dx + dy * dy) < LANE_NEAR ** 2) & \
                (np.abs(np.einsum("ij,ij->i", T[a], T[b])) > 0.9)
            out[a[near], O[b[near]]] = True
    return out


def _dense(p: np.ndarray, step: float) -> np.ndarray:
    """A polyline (px) with a point every `step` px or closer along each segment (its corners
    kept)."""
    out = [p[:1]]
    for a, b in zip(p[:-1], p[1:]):
        n = max(int(np.hypot(*(b - a)) // step), 1)
        out.append(a + (b - a) * (np.arange(1, n + 1)[:, None] / n))
    return np.vstack(out)


def clipped(found: Sequence[Leg], camera, box: tuple[float, float, float, float],
            margin: float = 12.0) -> list[Leg]:
    """The legs as far as they are seen in `box` (px, x y w h, grown by `margin`) under this
    camera: a walk that leaves the view is cut where it leaves (and picked up where it comes
    back), so nothing is drawn where the view's clip would hide it (a stage's walks out to the
    range ran a fifth of a plate's dots off the plan). A cut end has no start ring or end dot."""
    x0, y0 = box[0] - margin, box[1] - margin
    x1, y1 = box[0] + box[2] + margin, box[1] + box[3] + margin
    out: list[Leg] = []
    for g in found:
        p = camera.to_screen(g.points)
        inside = (p[:, 0] >= x0) & (p[:, 0] <= x1) & (p[:, 1] >= y0) & (p[:, 1] <= y1)
        if inside.all():
            out.append(g)
            continue
        for piece, first, last in clip_polyline(p, (x0, y0, x1, y1)):
            out.append(dataclasses.replace(g, points=camera.to_world(np.asarray(piece)),
                                           starts=g.starts and first, ends=g.ends and last))
    return out


def clip_polyline(p: np.ndarray, box) -> list[tuple[list, bool, bool]]:
    """The runs of a polyline (px) inside box (x0, y0, x1, y1): (points, begins at its first
    point, ends at its last point) for each."""
    x0, y0, x1, y1 = box
    runs: list[tuple[list, bool, bool]] = []
    cur: list | None = None
    cur_first = False
    for i in range(len(p) - 1):
        (ax, ay), (bx, by) = p[i], p[i + 1]
        # Liang–Barsky: the part of the segment a→b inside the box, as t0..t1 along it
        t0, t1, dx, dy = 0.0, 1.0, bx - ax, by - ay
        for q, r in ((-dx, ax - x0), (dx, x1 - ax), (-dy, ay - y0), (dy, y1 - ay)):
            if q == 0:
                if r < 0:
                    t0, t1 = 1.0, 0.0
                    break
            elif q < 0:
                t0 = max(t0, r / q)
            else:
                t1 = min(t1, r / q)
        if t0 > t1:  # wholly outside: a run in progress ended before it
            if cur is not None:
                runs.append((cur, cur_first, False))
                cur = None
            continue
        if cur is None:
            cur = [(ax + t0 * dx, ay + t0 * dy)]
            cur_first = bool(i == 0 and t0 == 0.0)
        cur.append((ax + t1 * dx, ay + t1 * dy))
        if t1 < 1.0:  # leaves the box here
            runs.append((cur, cur_first, False))
            cur = None
    if cur is not None:  # still inside at the walk's end
        runs.append((cur, cur_first, True))
    return [r for r in runs if len(r[0]) > 1]


def _arrowheads(a: np.ndarray, every: float, size: float, color: Color,
                final: bool = True) -> list[Primitive]:
    seg = np.hypot(*np.diff(a, axis=0).T)
    total = float(seg.sum())
    if total <= 0:
        return []
    n = max(int(total // every), 0)
    # evenly along the path, and the last one just short of the end so the tip meets it
    # (not where a view cut the walk: it did not stop there)
    at = [total * (j + 0.5) / (n + 1) for j in range(n)]
    if final:
        at.append(max(total - size * 0.6, 0.0))
    cum = np.r_[0.0, np.cumsum(seg)]
    out: list[Primitive] = []
    for s in at:
        i = int(min(np.searchsorted(cum, s, side="right") - 1, len(seg) - 1))
        while seg[i] == 0 and i > 0:
            i -= 1
        d = (a[i + 1] - a[i]) / max(seg[i], 1e-9)
        p = a[i] + d * (s - cum[i])
        tip = p + d * size * 0.6
        back = p - d * size * 0.4
        nx, ny = -d[1] * size * 0.4, d[0] * size * 0.4
        out.append(Polygon(((float(tip[0]), float(tip[1])),
                            (float(back[0] + nx), float(back[1] + ny)),
                            (float(back[0] - nx), float(back[1] - ny))), color, color, 1.0))
    return out
