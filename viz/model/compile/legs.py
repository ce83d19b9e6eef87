"""The legs the walks have planned, kept per layout in this process and in the cache's folder
(viz/base/cache.py), so that a compile plans each leg once. Owns _LEGS; a compile's `Legs` holds
its layout's dict of them, fills it (`leg`) and keeps it on disk at the end (`keep`)."""
from __future__ import annotations

import math

import numpy as np

from viz.base.cache import load_blob, store_blob
from viz.base.errors import Collector, Loc

# per layout: (from, to) → (polyline, blocked?, 等 climbed per segment). The rite walks the same
# legs again and again (如初), and the planner is the costliest part of a compile.
_LEGS: dict = {}


class Legs:
    """The planned legs of one compile's layout: the dict (shared by every compile on it), its
    cache salt, and whether this compile planned any (to keep them)."""

    def __init__(self, layout) -> None:
        self.layout = layout
        self.planned, self.salt = _legs_for(layout)
        self.new = False

    def leg(self, a, b, loc: Loc, who: str, out: Collector) -> tuple[list, bool, list, list, list]:
        """The planner's way from a to b as points, whether it crosses an obstacle, and for each
        segment the 等 it climbs, its length and its heading; remembered per layout, since the
        rite walks the same legs again and again (如初)."""
        cache = self.planned
        key = (round(float(a[0]), 4), round(float(a[1]), 4), round(float(b[0]), 4),
               round(float(b[1]), 4))
        hit = cache.get(key)
        if hit is None:
            layout = self.layout
            try:
                arr = np.asarray(layout.route(np.asarray(a, float), np.asarray(b, float)), float)
            except ValueError as e:
                out.error(loc, f"{who} cannot walk from {layout.nearest_place(*a)} to "
                          f"{layout.nearest_place(*b)}: {e}")
                arr = np.array([a, b], float)
            keep = np.r_[True, np.hypot(*np.diff(arr, axis=0).T) > 1e-6]
            pts = [(float(x), float(y)) for x, y in arr[keep]]
            segs = list(zip(pts, pts[1:]))
            blocked = any(layout.segment_blocked(p, q) for p, q in segs)
            steps = [layout.stair_steps(np.array([p, q])) for p, q in segs]
            lengths = [math.hypot(q[0] - p[0], q[1] - p[1]) for p, q in segs]
            heads = [math.degrees(math.atan2(q[0] - p[0], q[1] - p[1])) % 360.0 for p, q in segs]
            hit = cache[key] = (pts, blocked, steps, lengths, heads)
            self.new = True
        return hit

    def keep(self) -> None:
        """Store the legs on disk if this compile planned any (and the layout says what they
        depend on)."""
        if self.new and self.salt is not None:
            store_blob("legs", self.salt, self.planned)


def _legs_for(layout) -> tuple[dict, bytes | None]:
    """The legs already planned on this layout: in this process, or kept in the parse cache's
    folder from an earlier run (viz/base/cache.py), keyed by what the walks depend on."""
    key = _layout_key(layout)
    if key is None:
        return {}, None
    salt = repr(key).encode()
    if key not in _LEGS:
        _LEGS[key] = (load_blob("legs", salt) if salt is not None else None) or {}
    return _LEGS[key], salt


def _layout_key(layout) -> object:
    """What a layout's walks depend on: its obstacles, stairs and clearance (so each reading's
    layout, and a reload of the same file, share the planned legs); None for a layout that
    does not say (a test's open field): its legs are not kept."""
    obstacles = getattr(layout, "obstacles", None)
    if obstacles is None:
        return None
    return (tuple(o.rect for o in obstacles), tuple(s.rect for s in layout.stairs),
            layout.clearance)
