"""The legs the walks have planned, kept per layout in this process and in the cache's folder
(viz/base/cache.py), so that a compile plans each leg once. Owns _LEGS; a _Motion (motion.py)
holds its layout's dict of them and fills it."""
from __future__ import annotations

from viz.base.cache import load_blob

# per layout: (from, to) → (polyline, blocked?, 等 climbed per segment). The rite walks the same
# legs again and again (如初), and the planner is the costliest part of a compile.
_LEGS: dict = {}


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
