"""Walking paths: a visibility graph over inflated obstacle corners, shortest routes through it."""
from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from itertools import pairwise

import numpy as np

# Graph nodes sit this far outside the inflated corners, so that edges running along an
# inflated side are not counted as touching it.
_EPS = 0.05
# Overlaps shorter than this (in the segment's parameter) are grazes, not crossings.
_TOL = 1e-9


def hit_matrix(p0: np.ndarray, p1: np.ndarray, rects: np.ndarray) -> np.ndarray:
    """(m,n) bool: does segment i pass through the open interior of rectangle j?

    p0, p1 are (m,2); rects is (n,4) [x0,y0,x1,y1], or (m,n,4) for a rectangle set per segment.
    Liang–Barsky clipping against each axis-aligned rectangle, vectorised.
    """
    p0 = np.asarray(p0, float).reshape(-1, 2)
    p1 = np.asarray(p1, float).reshape(-1, 2)
    r = rects if rects.ndim == 3 else rects[None, :, :]
    out = np.zeros((len(p0), r.shape[1]), bool)
    if r.shape[1] == 0 or len(p0) == 0:
        return out
    lo, hi = np.minimum(p0, p1), np.maximum(p0, p1)
    # A segment can cross only a rectangle its bounding box overlaps; most pairs are far apart,
    # so the clipping runs on a small share of them (loading checks every place this way).
    i, j = np.nonzero((lo[:, 0:1] < r[..., 2]) & (hi[:, 0:1] > r[..., 0])
                      & (lo[:, 1:2] < r[..., 3]) & (hi[:, 1:2] > r[..., 1]))
    # gathered a column at a time: one 1-D take per coordinate is far cheaper than a row gather
    cols = [r[0, :, c][j] if r.shape[0] == 1 else r[:, :, c][i, j] for c in range(4)]
    t_in, t_out = np.zeros(len(i)), np.ones(len(i))
    for axis in (0, 1):
        p = p0[:, axis][i]
        d = p1[:, axis][i] - p
        lo, hi = cols[axis], cols[axis + 2]
        moving = np.abs(d) > 1e-12
        safe = np.where(moving, d, 1.0)
        ta, tb = (lo - p) / safe, (hi - p) / safe
        t_lo = np.where(moving, np.minimum(ta, tb), -np.inf)
        t_hi = np.where(moving, np.maximum(ta, tb), np.inf)
        # A segment parallel to this axis crosses only if it lies strictly between the sides.
        inside = (p > lo + 1e-12) & (p < hi - 1e-12)
        t_lo = np.where(moving | inside, t_lo, np.inf)
        t_in = np.maximum(t_in, t_lo)
        t_out = np.minimum(t_out, t_hi)
    out[i, j] = t_out - t_in > _TOL
    return out


class Unreachable(ValueError):
    """No walk joins two points: the obstacles, widened by the clearance, close every way.

    `a` and `b` are the leg's ends as the planner moved them (see Planner.snap), so a caller
    can say which walk of its own failed and where.
    """

    def __init__(self, a: Sequence[float], b: Sequence[float]):
        self.a = (float(a[0]), float(a[1]))
        self.b = (float(b[0]), float(b[1]))
        super().__init__(f"no walkable path from {self.a} to {self.b}")


def _inside(pts: np.ndarray, rects: np.ndarray) -> np.ndarray:
    """(m,n) bool: point i strictly inside rectangle j."""
    x, y = pts[:, 0:1], pts[:, 1:2]
    return (x > rects[:, 0]) & (x < rects[:, 2]) & (y > rects[:, 1]) & (y < rects[:, 3])


class Planner:
    """Shortest walks among axis-aligned rectangular obstacles, kept clear by `clearance`.

    Stairs are rectangles crossed only straight up or down their middle line: one climbs a
    stair facing it, step by step, never slantwise. Each stair has a foot and a head node on
    that line. The graph (inflated corners, stair nodes, their mutual visibility and
    all-pairs shortest paths) is built once; a query only tests its ends against the nodes.

    leg() and route() raise Unreachable (a ValueError carrying the two points) when the
    obstacles leave no way; reachable() answers the same question for many points at once,
    which is how a Layout checks on loading that every named place can be walked to.
    """

    def __init__(self, rects: Sequence[Sequence[float]], clearance: float = 1.0,
                 stairs: Sequence[Sequence[float]] = (), risers: np.ndarray | None = None,
                 riser_cost: float = 5.0):
        hard = np.asarray(rects, float).reshape(-1, 4)
        self.stairs = np.asarray(stairs, float).reshape(-1, 4)
        self.real = np.concatenate([hard, self.stairs])
        # Stairs are "soft": a segment straight up or down a stair's middle line passes.
        self.n_hard = len(hard)
        self.soft = np.arange(len(self.real)) >= len(hard)
        self.mid_x = (self.real[:, 0] + self.real[:, 2]) / 2
        # Each stair riser crossed costs extra, as if the walk were that much longer: climbing
        # is slow and ceremonial, so nobody crosses the 堂 as a short cut between two court places.
        self.risers = np.zeros((0, 3)) if risers is None else np.asarray(risers, float)
        self.riser_cost = float(riser_cost)
        c = float(clearance)
        self.clearance = c
        self.infl = self.real + np.array([-c, -c, c, c])
        e = _EPS
        x0, y0, x1, y1 = (self.infl[:, i] for i in range(4))
        cx = (self.stairs[:, 0] + self.stairs[:, 2]) / 2
        corners = np.concatenate([
            np.stack([x0 - e, y0 - e], 1), np.stack([x1 + e, y0 - e], 1),
            np.stack([x1 + e, y1 + e], 1), np.stack([x0 - e, y1 + e], 1),
            np.stack([cx, self.stairs[:, 1] - c - e], 1),
            np.stack([cx, self.stairs[:, 3] + c + e], 1)])
        keep = ~_inside(corners, self.infl).any(axis=1)
        self.nodes = corners[keep]
        n = len(self.nodes)
        iu, ju = np.triu_indices(n, 1)
        seen = ~self._hits(self.nodes[iu], self.nodes[ju], self.infl)
        w = np.full((n, n), np.inf)
        np.fill_diagonal(w, 0.0)
        lengths = self._cost(self.nodes[iu[seen]], self.nodes[ju[seen]])
        w[iu[seen], ju[seen]] = lengths
        w[ju[seen], iu[seen]] = lengths
        self.weights = w

    @cached_property
    def _shortest(self) -> tuple[np.ndarray, np.ndarray]:
        # Built on the first route, not with the graph: loading a layout only asks which
        # nodes are joined at all (reachable), and that needs no distances.
        return _floyd_warshall(self.weights)

    @property
    def dist(self) -> np.ndarray:
        """(n,n) length of the shortest walk between two nodes (risers included); inf if none."""
        return self._shortest[0]

    @property
    def next(self) -> np.ndarray:
        """(n,n) the node after i on the shortest walk from i to j."""
        return self._shortest[1]

    def _hits(self, p0: np.ndarray, p1: np.ndarray, rects: np.ndarray) -> np.ndarray:
        """(m,) bool: segment i is blocked by one of rects."""
        return self._blocking(p0, p1, hit_matrix(p0, p1, rects))

    def _blocking(self, p0: np.ndarray, p1: np.ndarray, hits: np.ndarray) -> np.ndarray:
        """(m,) bool from an (m, rects) hit matrix: a stair lets through only a segment straight
        along its middle line."""
        p0, p1 = np.asarray(p0).reshape(-1, 2), np.asarray(p1).reshape(-1, 2)
        k = self.n_hard  # the stairs are the last columns
        vertical = np.abs(p1[:, 0] - p0[:, 0]) < 1e-9
        on_line = np.abs(p0[:, 0:1] - self.mid_x[None, k:]) < 1e-6
        climbing = vertical[:, None] & on_line
        return hits[:, :k].any(axis=1) | (hits[:, k:] & ~climbing).any(axis=1)

    def _clear(self, p0: np.ndarray, p1: np.ndarray) -> np.ndarray:
        """(m,) bool: may one walk straight from p0_i to p1_i?

        Against the inflated rectangles, except the real one where an end stands within the
        clearance: a person may start or stop right against a wall or a 楹.
        """
        p0, p1 = np.asarray(p0, float).reshape(-1, 2), np.asarray(p1, float).reshape(-1, 2)
        near = _inside(p0, self.infl) | _inside(p1, self.infl)
        hits = hit_matrix(p0, p1, self.infl)
        rows = np.flatnonzero(near.any(axis=1))  # few ends stand that close to anything
        if len(rows):
            real = hit_matrix(p0[rows], p1[rows], self.real)
            hits[rows] = np.where(near[rows], real, hits[rows])
        return ~self._blocking(p0, p1, hits)

    def _sees(self, pts: np.ndarray) -> np.ndarray:
        """(m, n) bool: which graph nodes each point can walk to straight.

        A point squeezed into a narrow strip (behind the 堂, between two clearances) may see no
        node past the inflated obstacles; then it may brush them, though never cross them.
        """
        pts = np.asarray(pts, float).reshape(-1, 2)
        m, n = len(pts), len(self.nodes)
        p0, p1 = np.repeat(pts, n, 0), np.tile(self.nodes, (m, 1))
        seen = self._clear(p0, p1).reshape(m, n)
        for i in np.flatnonzero(~seen.any(axis=1)):
            seen[i] = ~self._hits(p0[i * n:(i + 1) * n], p1[i * n:(i + 1) * n], self.real)
        return seen

    def _cost(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Length of each segment plus the cost of the stair risers it crosses."""
        steps = crossings(a, b, self.risers)
        return np.linalg.norm(b - a, axis=1) + self.riser_cost * steps

    def blocked(self, a: Sequence[float], b: Sequence[float]) -> bool:
        """Does the straight segment a→b pass through a wall, 楹, screen or edge (not inflated)?"""
        hits = hit_matrix(np.asarray([a]), np.asarray([b]), self.real)[0]
        return bool((hits & ~self.soft).any())

    def free(self, p: Sequence[float]) -> bool:
        """Is p outside every hard obstacle (not inflated)?"""
        return not (_inside(np.asarray([p], float), self.real)[0] & ~self.soft).any()

    def snap(self, p: np.ndarray, toward: np.ndarray) -> np.ndarray:
        """Where a walk to or from p really ends.

        On a stair, that is its middle line (one stands on a stair facing up or down it). Inside
        an obstacle (a 楹, the 乏), it is the obstacle's inflated edge on the side facing
        `toward`, or failing that its nearest free side.
        """
        inside = _inside(p[None, :], self.real)[0]
        if (inside & self.soft).any():
            st = self.real[int(np.argmax(inside & self.soft))]
            p = np.array([(st[0] + st[2]) / 2, p[1]])
            inside = _inside(p[None, :], self.real)[0]
        hard = inside & ~self.soft
        if not hard.any():
            return p
        r = self.infl[int(np.argmax(hard))]
        # Where the ray from the obstacle's centre toward the other end leaves it: the face one
        # walks up to (a side, not a corner, unless the walk comes exactly diagonally).
        centre = (r[:2] + r[2:]) / 2
        d = np.asarray(toward, float) - centre
        half = (r[2:] - r[:2]) / 2
        with np.errstate(divide="ignore"):
            t = np.min(np.where(np.abs(d) > 1e-12, half / np.abs(d), np.inf))
        facing = centre + d * t if np.isfinite(t) else np.array([r[0], p[1]])
        sides = sorted((np.array(c) for c in ((r[0], p[1]), (r[2], p[1]), (p[0], r[1]),
                                               (p[0], r[3]))),
                       key=lambda c: float(np.hypot(*(c - p))))
        for c in [facing, *sides]:
            out = c + _EPS * np.sign(np.round(c - centre, 9))
            if self.free(out) and not _inside(out[None, :], self.stairs).any():
                return out
        return p

    def leg(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Shortest polyline a→b; raises Unreachable if the obstacles leave no way through."""
        direct = bool(self._clear(a[None], b[None])[0])
        direct_cost = self._cost(a[None], b[None])[0]
        if direct and not crossings(a[None], b[None], self.risers)[0]:
            return np.array([a, b])  # nothing shorter than a straight walk on the level
        n = len(self.nodes)
        va, vb = self._sees(np.array([a, b]))
        da = np.where(va, self._cost(np.repeat(a[None], n, 0), self.nodes), np.inf)
        db = np.where(vb, self._cost(self.nodes, np.repeat(b[None], n, 0)), np.inf)
        total = da[:, None] + self.dist + db[None, :]
        best = float(total.min()) if n else np.inf
        if direct and direct_cost <= best:
            return np.array([a, b])
        if not np.isfinite(best):
            raise Unreachable(a, b)
        i, j = divmod(int(np.argmin(total)), n)
        pts = [a, self.nodes[i]]
        while i != j:
            i = int(self.next[i, j])
            pts.append(self.nodes[i])
        pts.append(b)
        return np.array(pts)

    def reachable(self, src: Sequence[float], points: Sequence[Sequence[float]]) -> np.ndarray:
        """(m,) bool: can a walk from src reach each point? Answers as leg() would, each point
        moved as route() moves an end (snap, toward src), without building any route."""
        s = np.asarray(src, float)
        s = self.snap(s, s)
        ends = np.asarray(points, float).reshape(-1, 2).copy()
        for i in np.flatnonzero(_inside(ends, self.real).any(axis=1)):
            ends[i] = self.snap(ends[i], s)  # only an end inside something moves
        m = len(ends)
        ok = self._clear(np.repeat(s[None], m, 0), ends)
        joined = self._joined(self._sees(s)[0])
        if not joined.any():
            return ok
        # Most ends see one of the few joined nodes nearest them; only the rest are tested
        # against every node (and then, as leg() does, may brush the obstacles).
        near = self.nodes[joined]
        k = min(8, len(near))
        d2 = ((ends[:, None, :] - near[None, :, :]) ** 2).sum(axis=2)
        nearest = near[np.argpartition(d2, k - 1, axis=1)[:, :k]]
        ok |= self._clear(np.repeat(ends, k, 0), nearest.reshape(-1, 2)).reshape(m, k).any(axis=1)
        rest = np.flatnonzero(~ok)
        if len(rest):
            ok[rest] = (self._sees(ends[rest]) & joined[None, :]).any(axis=1)
        return ok

    def _joined(self, seen: np.ndarray) -> np.ndarray:
        """(n,) bool: the nodes a walk can reach from the nodes marked in seen."""
        linked = np.isfinite(self.weights)
        reach = seen.copy()
        while True:
            grown = reach | linked[reach].any(axis=0)
            if (grown == reach).all():
                return reach
            reach = grown

    def route(self, points: Sequence[Sequence[float]]) -> np.ndarray:
        """Polyline through all the points in order, each leg the shortest clear walk."""
        pts = [np.asarray(p, float) for p in points]
        snapped = [self.snap(p, pts[i + 1] if i + 1 < len(pts) else pts[i - 1])
                   for i, p in enumerate(pts)]
        out: list[np.ndarray] = [snapped[0]]
        for a, b in pairwise(snapped):
            out.extend(self.leg(a, b)[1:])
        return _dedupe(np.array(out))


def _dedupe(poly: np.ndarray) -> np.ndarray:
    """Drop repeated points and points in the middle of a straight run (the compiler times
    each leg, and a zero-length or collinear leg would only add a needless pause or turn)."""
    keep = np.ones(len(poly), bool)
    keep[1:] = np.linalg.norm(np.diff(poly, axis=0), axis=1) > 1e-9
    poly = poly[keep] if keep.sum() >= 2 else poly[[0, -1]]
    if len(poly) < 3:
        return poly
    u, v = poly[1:-1] - poly[:-2], poly[2:] - poly[1:-1]
    cross = u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]
    straight = (np.abs(cross) < 1e-9) & ((u * v).sum(axis=1) > 0)
    return poly[np.concatenate([[True], ~straight, [True]])]


def _floyd_warshall(w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    n = len(w)
    dist = w.copy()
    nxt = np.tile(np.arange(n), (n, 1))
    for k in range(n):
        via = dist[:, k:k + 1] + dist[k:k + 1, :]
        better = via < dist
        dist = np.where(better, via, dist)
        nxt = np.where(better, nxt[:, k:k + 1], nxt)
    return dist, nxt


def crossings(a: np.ndarray, b: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """(m,) int: how many of the horizontal segments lines (k,3) [y, x0, x1] segment a_i→b_i
    crosses. Half-open in y, so a walk that stops exactly on a line and turns back counts once
    each way, consistently."""
    a, b = np.asarray(a, float).reshape(-1, 2), np.asarray(b, float).reshape(-1, 2)
    if len(lines) == 0 or len(a) == 0:
        return np.zeros(len(a), int)
    y = lines[:, 0][None, :]
    cross = (a[:, 1:2] < y) != (b[:, 1:2] < y)
    dy = (b[:, 1] - a[:, 1])[:, None]
    # divided only where the segment crosses (so |y - a_y| <= |dy|): elsewhere a near-level
    # segment would overflow and warn
    t = np.divide(y - a[:, 1:2], dy, out=np.zeros(cross.shape), where=cross)
    x = a[:, 0:1] + t * (b[:, 0] - a[:, 0])[:, None]
    within = (x >= lines[:, 1][None, :]) & (x <= lines[:, 2][None, :])
    return np.count_nonzero(cross & within, axis=1)


def count_crossings(poly: np.ndarray, lines: np.ndarray) -> int:
    """How many of the horizontal segments lines (k,3) [y, x0, x1] the polyline crosses."""
    poly = np.asarray(poly, float).reshape(-1, 2)
    if len(poly) < 2:
        return 0
    return int(crossings(poly[:-1], poly[1:], lines).sum())
