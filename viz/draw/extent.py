"""Where the action is: the model's geometry (breaks, the site's, the range's, each stage's and
each step's extent, worked out once per model), whether the rite is at the school or away, and
the world box a camera shows. The default framing (compose.framing) is made of these.
"""
from __future__ import annotations

import itertools
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from viz.draw import scene, things
from viz.draw.camera import Break, Camera
from viz.draw.display import Box
from viz.draw.scene import Bounds

NEAR = 30.0  # 尺 round the drawn site within which the rite is still "at the school"
STATIC_MEMO = 8  # static layers kept per model: each wheel step of a zoom makes new ones
# The default view follows the action (Model.step_bounds): who acts in a step, and those near
STEP_NEAR = 20.0  # 尺 round them within which others are framed with them
STEP_PAD = 6.0  # 尺 of margin
STEP_MIN = (120.0, 84.0)  # 尺: the least the view shows across and deep (a hall's bay or two)
STEP_SHARE = 0.45  # of the stage's extent (by area): beyond it, the stage is framed whole
_serial = itertools.count()


@dataclass(frozen=True, eq=False)
class Model:
    """What a frame shows: the layout, the compiled timeline, the text (or None), and the glyph
    substitutions the back end's font needs (the legend owns up to them).

    Geometry derived from the layout and the timeline (breaks, bounds, each stage's extent) is
    computed once per model, so every back end frames a moment the same way.
    """

    layout: Any
    timeline: Any
    corpus: Any = None
    substitutions: tuple[tuple[str, str], ...] = ()
    serial: int = field(default_factory=lambda: next(_serial), init=False, repr=False)

    @cached_property
    def breaks(self) -> tuple[Break, ...]:
        """Where the long empty 侯道 is drawn short; both views share them."""
        return scene.range_breaks(self.layout)

    @cached_property
    def range(self) -> Bounds | None:
        return scene.range_bounds(self.layout)

    @cached_property
    def elsewhere(self) -> Bounds | None:
        return scene.elsewhere_bounds(self.layout)

    @cached_property
    def scenes(self) -> list[tuple[str, Bounds]]:
        """Each elsewhere scene, named and framed on its own (one: `elsewhere` itself)."""
        return scene.elsewhere_scenes(self.layout)

    @cached_property
    def whole(self) -> Bounds:
        return scene.all_bounds(self.layout)

    @cached_property
    def near(self) -> Bounds:
        """The school and its range with a margin: "at the school"."""
        b = self.whole
        return (b[0] - NEAR, b[1] - NEAR, b[2] + NEAR, b[3] + NEAR)

    @cached_property
    def _stage_bounds(self) -> dict[int, Bounds]:
        return {}

    @cached_property
    def hud_memo(self) -> dict:
        """The HUD's panels and bars as built, by step or stage, and who differs at the end of
        a step from a compared reading (oldest first)."""
        return {}

    @cached_property
    def framings(self) -> dict:
        """Framings as worked out, by what they depend on (size, kind, stage, inset, manual
        camera); their cameras are copied out, never handed on."""
        return {}

    @cached_property
    def static_layers(self) -> OrderedDict:
        """Layers that change only with their camera, by key (most recently used last)."""
        return OrderedDict()

    def stage_bounds(self, stage: int) -> Bounds:
        """The part of the school where this stage happens: the hall, and everywhere anyone
        present in the stage stands in it (sampled), except the range, which has its inset."""
        if stage not in self._stage_bounds:
            self._stage_bounds[stage] = self._measure_stage(stage)
        return self._stage_bounds[stage]

    @cached_property
    def _deep_lim(self) -> tuple[bool, Bounds]:
        """(deep, lim): the school and just outside its gate; the range has its inset (in a
        court deep enough to hold the 侯, the gate lies beyond the range: the view reaches it
        with breaks)."""
        site, rng = scene.site_bounds(self.layout), self.range
        deep = rng is not None and self.whole[1] < rng[1] - 20.0
        return deep, (self.near[0], (self.near[1] if deep else site[1] - 20.0), self.near[2],
                      self.near[3])

    def _in_main(self, xy: np.ndarray) -> np.ndarray:
        """Which of these points the main view shows (not those in the range, with an inset)."""
        deep, lim = self._deep_lim
        rng = self.range
        keep = ((xy[:, 0] >= lim[0]) & (xy[:, 0] <= lim[2]) & (xy[:, 1] >= lim[1])
                & (xy[:, 1] <= lim[3]))
        if deep:  # not those in the range, which the inset shows
            keep &= ~((xy[:, 1] >= rng[1]) & (xy[:, 1] <= rng[3]))
        return keep

    def _box(self, a: np.ndarray, pad: float) -> Bounds:
        deep, lim = self._deep_lim
        b = (max(float(a[:, 0].min()) - pad, lim[0]), max(float(a[:, 1].min()) - pad, lim[1]),
             min(float(a[:, 0].max()) + pad, lim[2]), min(float(a[:, 1].max()) + pad, lim[3]))
        for brk in self.breaks if deep else ():
            if brk.south < b[1] < brk.north:  # a view ending inside a break shows it whole
                b = (b[0], brk.south + 1.0, b[2], b[3])
        return b

    def _measure_stage(self, stage: int) -> Bounds:
        site = scene.site_bounds(self.layout)
        pts = [np.asarray(f.points, float).reshape(-1, 2) for f in self.layout.features
               if f.kind == "hall"]
        tl = self.timeline
        if tl.stages:
            s = tl.stages[stage]
            for t in np.linspace(s.t0, s.t1, 48):
                fr = tl.sample(float(t))
                xy = fr.xy[np.nonzero(fr.present)[0]]
                pts.append(xy[self._in_main(xy)])
        a = np.vstack(pts) if pts else np.zeros((0, 2))
        if not len(a):
            return site
        return self._box(a, 8.0)

    @cached_property
    def _step_bounds(self) -> dict[int, Bounds | None]:
        return {}

    def step_bounds(self, step: int) -> Bounds | None:
        """What the default view frames during a step: the people who act in it (move, change
        posture or speak) where they start and where they go, and whoever stands within
        STEP_NEAR 尺 of them (the 賔 the 主人 greets, the 衆賔 behind him), at least STEP_MIN
        尺 across. None when there is nobody to follow, or they spread over most of the stage
        (the stage's own extent is framed then)."""
        if step not in self._step_bounds:
            self._step_bounds[step] = self._measure_step(step)
        return self._step_bounds[step]

    def _measure_step(self, step: int) -> Bounds | None:
        tl = self.timeline
        if not tl.steps or not 0 <= step < len(tl.steps):
            return None
        st = tl.steps[step]
        frames = [tl.sample(float(t)) for t in np.linspace(st.t0, st.t1, 9)[:-1]]
        frames.append(tl.sample(st.t1, True))
        present = np.logical_or.reduce([f.present for f in frames])
        xy = np.stack([f.xy for f in frames])  # (k, n, 2)
        moved = (np.abs(xy - xy[0]).max(axis=(0, 2)) > 0.3)
        posture = np.stack([f.posture for f in frames]) if hasattr(frames[0], "posture") \
            else None
        if posture is not None:
            moved |= (posture != posture[0]).any(axis=0)
        for f in frames:
            for i, _ in f.captions:
                if 0 <= i < len(moved):
                    moved[i] = True
        act = moved & present
        if not act.any():
            return None
        pts = xy[:, act].reshape(-1, 2)
        pts = pts[self._in_main(pts)]
        if not len(pts):
            return None
        lo, hi = pts.min(axis=0) - STEP_NEAR, pts.max(axis=0) + STEP_NEAR
        end = frames[-1]
        around = end.xy[(end.present | frames[0].present)]
        near = around[((around >= lo) & (around <= hi)).all(axis=1)]
        a = np.vstack([pts, near[self._in_main(near)]])
        b = self._box(a, STEP_PAD)
        w, h = b[2] - b[0], b[3] - b[1]
        if w < STEP_MIN[0]:
            c = (b[0] + b[2]) / 2
            b = (c - STEP_MIN[0] / 2, b[1], c + STEP_MIN[0] / 2, b[3])
        if h < STEP_MIN[1]:
            c = (b[1] + b[3]) / 2
            b = (b[0], c - STEP_MIN[1] / 2, b[2], c + STEP_MIN[1] / 2)
        whole = self.stage_bounds(st.stage)
        b = _slid_within(b, whole)  # widened past the school's wall: slid back over it
        first = frames[0].xy[frames[0].present]
        first = first[self._in_main(first)]
        if len(first) and not ((first >= b[:2]) & (first <= b[2:])).all(axis=1).any():
            # nobody there when the step begins, while others stand elsewhere in the school:
            # all who act come in during it (獻大夫: 大夫若有遵者則入門左), and its first
            # instant would show empty ground; the stage is framed, the people already there
            # with the ground the newcomers enter on (a scene that begins away from the
            # school, 速賔's return to the gate, keeps its own framing)
            return None
        area = (b[2] - b[0]) * (b[3] - b[1])
        if area >= STEP_SHARE * (whole[2] - whole[0]) * (whole[3] - whole[1]):
            return None  # they spread over the stage: frame all of it
        return b


def _slid_within(b: Bounds, whole: Bounds) -> Bounds:
    """b moved (not resized) to lie within whole along each axis where it is the smaller."""
    out = list(b)
    for lo, hi in ((0, 2), (1, 3)):
        size = b[hi] - b[lo]
        if size >= whole[hi] - whole[lo]:
            continue
        shift = max(whole[lo] - b[lo], 0.0) + min(whole[hi] - b[hi], 0.0)
        out[lo], out[hi] = b[lo] + shift, b[hi] + shift
    return (out[0], out[1], out[2], out[3])


def view_kind(model: Model, frame) -> str:
    """"elsewhere" while nobody present is at the school or its range (sections 1, 4, 36).

    Judged by distance, not by region_at: whoever stands near the school (the 主人 greeting the
    賓 outside the gate, region 門外) keeps the scene at the school.
    """
    idx = np.nonzero(frame.present)[0]
    if not len(idx) or model.elsewhere is None:
        return "site"
    x0, y0, x1, y1 = model.near
    xy = frame.xy[idx]
    near = (xy[:, 0] >= x0) & (xy[:, 0] <= x1) & (xy[:, 1] >= y0) & (xy[:, 1] <= y1)
    return "site" if near.any() else "elsewhere"


SCENE_PAD = 12.0  # 尺 round an elsewhere scene's frame within which one counts as there


def in_scene(b: Bounds | None, pts: np.ndarray) -> np.ndarray:
    """Which points stand in the scene framed by b (with SCENE_PAD round it)."""
    if b is None or not len(pts):
        return np.zeros(len(pts), bool)
    pad = SCENE_PAD
    return ((pts[:, 0] >= b[0] - pad) & (pts[:, 0] <= b[2] + pad) & (pts[:, 1] >= b[1] - pad)
            & (pts[:, 1] <= b[3] + pad))


def scene_now(model: Model, frame) -> tuple[str, Bounds | None]:
    """The elsewhere scene to show at this frame, (name, bounds): of a layout with several,
    the one most of those present stand in (the first on a tie), bounds None when nobody is
    in any; of a layout with one, that one (Model.elsewhere) whoever is there."""
    scenes = model.scenes
    if len(scenes) <= 1:
        return (scenes[0][0] if scenes else "", model.elsewhere)
    idx = np.nonzero(frame.present)[0]
    xy = frame.xy[idx]
    counts = [int(in_scene(b, xy).sum()) for _, b in scenes]
    best = int(np.argmax(counts))
    return (scenes[best][0], scenes[best][1] if counts[best] else None)


def scene_box(model: Model, frame) -> Bounds | None:
    """What an elsewhere view frames at this frame: the scene most of those present stand in,
    of several (scene_now), framed on it alone; of one, Model.elsewhere. The window, the plates
    and the page (its sceneNow, from Model.scenes and SCENE_PAD) frame it so."""
    return scene_now(model, frame)[1] or model.elsewhere


def _range_empty(model: Model, frame) -> bool:
    """Nothing to see on the range: the 侯 not yet set up (or taken down), nobody on it and
    nothing lying there."""
    rng = model.range
    if rng is None or "侯" not in things.hidden(model.timeline, frame):
        return False
    x0, y0, x1, y1 = rng

    def inside(xy, on):
        return bool((on & (xy[:, 0] >= x0) & (xy[:, 0] <= x1) & (xy[:, 1] >= y0)
                     & (xy[:, 1] <= y1)).any())
    return not (inside(frame.xy, frame.present) or inside(frame.prop_xy, frame.prop_visible))


_world_boxes: dict[tuple, tuple[float, float, float, float]] = {}


def _world_box(cam: Camera, clip: Box, pad_px: float = 20.0) -> tuple[float, float, float,
                                                                      float]:
    """The world box a camera shows inside clip, a little larger (breaks map y monotonically,
    so the corners bound it); the same tuple while the view stays."""
    key = (cam.key(), clip, pad_px)
    box = _world_boxes.get(key)
    if box is None:
        if len(_world_boxes) >= STATIC_MEMO:
            _world_boxes.clear()
        box = _world_boxes[key] = _world_box_of(cam, clip, pad_px)
    return box


def _world_box_of(cam: Camera, clip: Box, pad_px: float) -> tuple[float, float, float, float]:
    x, y, w, h = clip
    c = cam.to_world(np.array([[x - pad_px, y - pad_px], [x + w + pad_px, y + h + pad_px]]))
    return (float(min(c[:, 0])), float(min(c[:, 1])), float(max(c[:, 0])), float(max(c[:, 1])))
