"""What each view (its zoom, breaks and captions) remembers of its last frame, so the next
frame looks up what did not change: the people's token boxes and tag requests, the tags'
placement, the props set down, the formations, the tokens. Nothing here draws.
"""
from __future__ import annotations

from collections import OrderedDict

from viz.draw import labels
from viz.draw.options import VIEWS, SceneOptions

class _ViewMemo:
    """What a view (zoom, breaks, captions) worked out for its last frame, to be looked up in
    the next when the inputs are the same: each person's token boxes and tag requests, the
    tags' placement (a Placer: only those near someone who moved are placed again), the
    primitives a placed tag becomes, the props set down. Answers are the same as working them
    out again; a frame's prims stay the same objects while their person stands still."""

    def __init__(self, timeline) -> None:
        self.timeline = timeline
        self.placer = labels.Placer()
        self.people: dict[int, tuple] = {}  # actor → (inputs, token boxes, requests)
        self.said: dict[int, tuple] = {}  # actor → (inputs, request)
        self.tags: dict[tuple, tuple] = {}  # (kind, who, text) → (Text, Label, Placed, prims)
        self.set_down: tuple | None = None  # (inputs, requests)
        self.objects: tuple | None = None  # lod: (inputs, (objects set down, count requests))
        self.formations: tuple | None = None  # lod: (inputs, formations)
        self.tokens: dict[int, tuple] = {}  # actor → (inputs, token primitives)


_views: OrderedDict[SceneOptions, _ViewMemo] = OrderedDict()


def _memo(timeline, o: SceneOptions) -> _ViewMemo:
    m = _views.get(o)
    if m is None or m.timeline is not timeline:
        m = _views[o] = _ViewMemo(timeline)
        while len(_views) > VIEWS:
            _views.popitem(last=False)
    _views.move_to_end(o)
    return m
