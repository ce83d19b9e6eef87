"""The frame composer: one moment of the rite as layers of display primitives, for every back end.

`compose(model, view, size, t, closing)` is pure: the window, `shot` and any later back end (SVG,
video) draw the layers it returns and nothing else, so what is saved is what is on screen. The
framing (which part of the site the main view shows, where the range inset goes) depends only on
(layout, timeline, size, t, closing, inset on/off), unless the user zoomed or panned, which the
view carries; so a video made of frames is deterministic.
"""
from __future__ import annotations

import itertools
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import numpy as np

from viz.draw import ghosts, hud, overlays, scene, things
from viz.draw import inset as range_inset
from viz.draw.camera import Break, Camera, YMap
from viz.draw.display import Box, Circle, Layer, Line, Polygon, Primitive, Rect, Sprite, Text
from viz.draw.hud import UI_BASE, Hits, HudState, areas, areas_at, ui_scale  # noqa: F401
from viz.draw.scene import Bounds, SceneOptions, literal
from viz.model.timeline import POSTURES

INSET_W = (236, 340)  # px: the column on the map's right with the legend and the range inset
INSET_HEAD = 24  # px: the inset's title row
INSET_MIN_H = 80  # px: below this the inset is left out, not squashed
NEAR = 30.0  # 尺 round the drawn site within which the rite is still "at the school"
STATIC_MEMO = 8  # static layers kept per model: each wheel step of a zoom makes new ones
INSET_REACH = 12.0  # px: a token's half-width, so one standing at the inset's edge is drawn
REACH = 240.0  # px round a view within which people are drawn: past a tag's furthest place
HUD_MEMO = 64  # panels and bars kept per model: a step back or forth finds its panel built
UI_STEPS = (0.8, 2.0)  # the least and greatest user scale (Ctrl − / Ctrl +)
FRAMINGS = 256  # framings kept per model (by size, stage, kind …); a zoom makes one a step
# The default view follows the action (Model.step_bounds): who acts in a step, and those near
STEP_NEAR = 20.0  # 尺 round them within which others are framed with them
STEP_PAD = 6.0  # 尺 of margin
STEP_MIN = (120.0, 84.0)  # 尺: the least the view shows across and deep (a hall's bay or two)
STEP_SHARE = 0.45  # of the stage's extent (by area): beyond it, the stage is framed whole

# The words the composer itself writes (templates; the model's names aside)
INSET_TITLE = "侯道 · 乏 · 侯（分圖，中斷處見鋸齒）"
ACTOR_NOTE = "（{}）"
ACTOR_TIP = "{name} · {posture}"
HOLDING = " · 執{}"
BAR_TIP = "{number} {name} · {t:.0f} s"
PROP_COUNT = "{name}×{n}"
PROP_REACH = 8.0  # px (× the UI scale): how near the mouse names a thing set out
SELECTED = "選 {name}　（C 隨之 follow · Esc 取消）"
SELECTED_THING = "選 {name}　（設於此 set out here · Esc 取消）"
FOLLOWING = "選 {name}　（隨之 following · F 止）"
NEXT_MOVE = "{when}：「{cite}」"
NEXT_WHEN, NOW_WHEN = "下一行", "正行"
MOVE_PATH = "　{src} → {dst} · {length:.1f} 尺 · t = {t0:.0f} s"
NO_MOVE = "此後不復行 (no more moves)"
COMPARED = "比較 {a} vs {b}（空圈 = {b}）"
DIFF_HEAD = "此步之末相差 (where the step leaves them)"
DIFF = "　{name}　差 {dist:.1f} 尺"
DIFF_MORE = "　… 另 {n} 人"
SAME = "　此步位置皆同 (no one differs)"
MAX_DIFFS = 6  # rows of the panel's list of who differs; the rest are counted
TEXTS: tuple[str, ...] = tuple(literal(t) for t in (
    INSET_TITLE, ACTOR_NOTE, ACTOR_TIP, HOLDING, BAR_TIP, PROP_COUNT, *POSTURES, SELECTED,
    SELECTED_THING, FOLLOWING,
    NEXT_MOVE, NEXT_WHEN, NOW_WHEN, MOVE_PATH, NO_MOVE, COMPARED, DIFF_HEAD, DIFF, DIFF_MORE, SAME))

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


@dataclass(frozen=True)
class ManualCamera:
    """Where the user zoomed or panned the main view to: px per drawn 尺, and the drawn point
    at the map's centre."""

    scale: float
    center: tuple[float, float]


@dataclass(frozen=True)
class Compare:
    """A second reading drawn over the first, at the moment showing the same clause.

    Compared by `key` (which compiled rite), not by the timeline's arrays."""

    reading: str  # its name, as the panel says it
    base: str  # the first reading's name
    t: float
    closing: bool
    key: int
    timeline: Any = field(compare=False, hash=False, repr=False)
    layout: Any = field(default=None, compare=False, hash=False, repr=False)  # its 物, 乏 …


@dataclass(frozen=True)
class View:
    """The window's state that changes the picture; the defaults are what `shot` draws."""

    hud: HudState = field(default_factory=HudState)
    inset: bool = True  # the range inset (I)
    camera: ManualCamera | None = None  # None: framed from the moment
    mouse: tuple[float, float] | None = None  # where a tooltip is asked for; None: nowhere
    selected: int | None = None  # the person clicked: his trail, his next move
    thing: int | None = None  # the prop set down that was clicked: named on the map, ringed
    following: bool = False  # the camera keeps him centred (the window moves it; said here)
    ghosts: bool = False  # where everyone was at the end of the previous step (G)
    compare: Compare | None = None  # a second reading over this one (V)
    ui: float = 1.0  # the user's UI scale (Ctrl + / Ctrl −), times the window's (ui_scale)


@dataclass(frozen=True)
class Framing:
    """Where things go in a window of some size at one moment."""

    kind: str  # "site", or "elsewhere" while the rite is away at the 賔's gate
    stage: int
    camera: Camera  # the main view
    inset: Camera | None  # the range at its own scale, None when not shown
    inset_box: Box | None  # the inset's frame, title row included
    legend_at: tuple[float, float, float]  # x, y, width
    overlay_at: tuple[float, float]  # bottom left of the scale bar
    overlay_k: float = 1.0  # the scale bar's scale (the UI scale, or less in a narrow column)
    folded: tuple[str, ...] = ()  # overlays folded away, off the people: "legend", "overlay"


@dataclass(frozen=True)
class Pick:
    """What a point of the window shows: a person ("actor") or a thing set out ("thing"), by
    its index into the timeline's actors or props, and the view it is drawn in."""

    kind: str
    index: int
    view: str  # "main" or "inset"


@dataclass(frozen=True)
class Composition:
    """A composed frame: the layers to draw, and what the window needs to answer the mouse."""

    layers: tuple[Layer, ...]
    hits: Hits
    framing: Framing
    tooltip: str


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


def column_w(size: tuple[int, int], ui: float | None = None) -> float:
    """Width of the map's right column (legend above, inset below): a quarter of the map, at
    least what the legend needs at the UI scale ui (ui_scale(size) when not given)."""
    ui = ui_scale(size) if ui is None else ui
    mw = areas_at(size, ui)["map"][2]
    return float(min(np.clip(mw * 0.26, INSET_W[0] * ui, INSET_W[1] * ui),
                     max(mw * 0.4, INSET_W[0])))


def _inset_box(model: Model, size: tuple[int, int], kind: str, ui: float = 1.0) -> Box | None:
    mx, my, mw, mh = areas_at(size, ui)["map"]
    if model.range is None or mw < 640 or kind == "elsewhere":
        return None
    cw = column_w(size, ui)
    iw = cw - 14 * ui
    x0, y0, x1, y1 = model.range
    ymap = YMap(model.breaks)
    dh = float(ymap.fwd(y1) - ymap.fwd(y0))
    h = min(mh - 170 * ui, (iw - 16) / max(x1 - x0, 1e-6) * dh + 16 + INSET_HEAD * ui)
    if h < INSET_MIN_H * ui:
        return None
    return (int(mx + mw - cw + 4 * ui), int(my + mh - h - 10 * ui), int(iw), int(h))


def inset_body(box: Box, ui: float = 1.0) -> Box:
    """The inset's drawing area: below the title row, inside the 2 px frame."""
    x, y, w, h = box
    head = round(INSET_HEAD * ui)
    return (x + 2, y + head + 1, w - 4, h - head - 3)


def framing(model: Model, size: tuple[int, int], t: float, closing: bool = False,
            inset: bool = True, manual: ManualCamera | None = None, frame=None,
            whole: bool = False, ui: float | None = None) -> Framing:
    """Frame the moment: the 賔's gate when the rite is there; else the people of the step
    and where they go (Model.step_bounds), or the stage's extent when they spread over it
    (whole: always the stage's extent, as F asks), with the range in its inset, or (inset
    off, or no room) the whole site and range in one view. `frame` may pass
    timeline.sample(t, closing) when the caller has it already; ui: the UI scale (ui_scale;
    ui_scale(size) when not given), by which the panel, the bar and the column grow."""
    tl = model.timeline
    ui = ui_scale(size) if ui is None else float(ui)
    frame = tl.sample(t, closing) if frame is None else frame
    kind = view_kind(model, frame)
    stage = tl.stage_at(t, closing)
    step = -1 if whole or manual is not None or not tl.steps else tl.step_at(t, closing)
    follow = model.step_bounds(step) if step >= 0 and kind == "site" else None
    key = ((int(size[0]), int(size[1])), kind, stage, bool(inset), manual, follow, ui)
    fr = model.framings.get(key)
    if fr is None:
        if len(model.framings) >= FRAMINGS:
            model.framings.clear()
        fr = model.framings[key] = _framing(model, key[0], kind, stage, inset, manual, follow,
                                                 ui)
    return replace(fr, camera=fr.camera.copy(),
                   inset=None if fr.inset is None else fr.inset.copy())


def _framing(model: Model, size: tuple[int, int], kind: str, stage: int, inset: bool,
             manual: ManualCamera | None, follow: Bounds | None = None,
             ui: float = 1.0) -> Framing:
    mbox = areas_at(size, ui)["map"]
    mx, my, mw, mh = mbox
    ibox = _inset_box(model, size, kind, ui) if inset else None
    cam = Camera(mbox, breaks=model.breaks)
    if manual is not None:
        cam.scale, cam.center = float(manual.scale), (float(manual.center[0]),
                                                      float(manual.center[1]))
    elif kind == "elsewhere":
        cam.fit(model.elsewhere, margin=30)
    elif ibox is not None:
        cam.fit(follow or model.stage_bounds(stage), margin=18,
                box=(mx, my, mw - column_w(size, ui), mh))
    else:
        b = model.whole
        dh = float(cam.ymap.fwd(b[3]) - cam.ymap.fwd(b[1]))
        width = (b[2] - b[0]) * (mh - 40) / max(dh, 1e-6)
        # a tall drawing leaves a margin at the right: keep it in one piece for the legend
        side = (mx, my, mw - 180 * ui, mh) if mw - width >= 200 * ui else None
        cam.fit(b, margin=20, box=side)
    icam = None
    if ibox is not None:
        x, y, w, h = ibox
        head = round(INSET_HEAD * ui)
        icam = Camera((x, y + head, w, h - head), breaks=model.breaks)
        icam.fit(model.range, margin=8)
    legend_at = _legend_at(model, size, ibox, cam, ui)
    return Framing(kind, stage, cam, icam, ibox, legend_at,
                   _overlay_at(size, ibox, legend_at, ui),
                   overlays.overlay_k(column_w(size, ui) if ibox is not None else None, ui))


def _legend_at(model: Model, size, ibox: Box | None, cam: Camera,
               ui: float = 1.0) -> tuple[float, float, float]:
    mx, my, mw, _ = areas_at(size, ui)["map"]
    if ibox is not None:
        cw = column_w(size, ui)
        return (mx + mw - cw + 4 * ui, my + 10 * ui, cw - 14 * ui)
    # no right column: in the margin beside the drawing if it has room, else top left
    right = float(cam.to_screen((model.whole[2], 0.0))[0])
    free = mx + mw - right - 16 * ui
    if free >= 170 * ui:
        return (mx + mw - min(300.0 * ui, free) - 8 * ui, my + 10 * ui, min(300.0 * ui, free))
    return (mx + 10 * ui, my + 10 * ui, min(300.0 * ui, mw - 20 * ui))


def _overlay_at(size, ibox: Box | None, legend_at, ui: float = 1.0) -> tuple[float, float]:
    """Scale bar and north arrow: in the right column above the inset, in the margin with the
    legend, or bottom left."""
    mx, my, _, mh = areas_at(size, ui)["map"]
    if ibox is not None:
        return (ibox[0] + 8 * ui, ibox[1] - 16 * ui)
    lx = legend_at[0]
    return ((lx + 8 * ui, my + mh - 14 * ui) if lx > mx + 20 * ui
            else (mx + 16 * ui, my + mh - 14 * ui))


def compose(model: Model, view: View, size: tuple[int, int], t: float,
            closing: bool = False) -> Composition:
    """The frame at t (closing: as the step ending at t left it) in a window of `size` px:
    plan, people, range inset, scale bar, HUD and tooltip, back to front."""
    size = (int(size[0]), int(size[1]))
    tl = model.timeline
    frame = tl.sample(t, closing)
    ui = ui_scale(size, view.ui)
    mbox = areas_at(size, ui)["map"]
    fr = drawn_framing(model, view, size, t, closing, frame)
    cam = fr.camera
    marks = _Marks(model, view, frame, fr.stage, closing, ui)
    hide = things.hidden(tl, frame)
    seen = _in_view(frame, cam, mbox)
    mx, my, mw, mh = mbox
    # names keep out of the inset's column (the legend, the scale bar, the inset over it)
    free = (mx, my, mw - column_w(size, ui), mh) if fr.inset_box is not None else mbox
    o = _options_for(cam, True, ui, _world_box(cam, free, 0.0), marks.selected, marks.thing)
    lying, objects = scene.set_down_objects(tl, seen, o)  # drawn with the plan, kept
    layers = [_static(model, "plan", mbox, cam,
                      lambda: _plan(model, cam, True, hide, ui) + objects, hide,
                      lying + f"ui{ui:g}".encode())]
    layers += marks.layers("", mbox, cam)
    layers.append(Layer("people", mbox, cam, tuple(_people(model, seen, o))))
    fr = overlays.clear_of_names(fr, cam, model.layout.chi_m, mbox, free, ui,
                                 model.substitutions)
    layers += marks.rings("", mbox, cam)
    if fr.inset is not None:
        ibox, icam, body = fr.inset_box, fr.inset, inset_body(fr.inset_box, ui)
        iseen = _in_view(frame, icam, body, INSET_REACH)
        io = _options_for(icam, False, ui, _world_box(icam, body, 0.0), marks.selected,
                          marks.thing)
        # the arrows lying where they were shot are drawn as hits and misses (inset.shots),
        # not as a heap of arrows and ×N counts over the 侯
        ishot = iseen
        iseen = range_inset.without(iseen, range_inset.lying(tl, iseen))
        ilying, iobjects = scene.set_down_objects(tl, iseen, io)
        layers += [_static(model, "inset.frame", ibox, icam, lambda: _inset_frame(ibox, ui)),
                   # only the drawn things are named here: at this scale place names would
                   # crowd the 侯
                   _static(model, "inset.plan", body, icam,
                           lambda: _plan(model, icam, False, hide, fa_note=False) + iobjects,
                           hide, ilying)]
        layers += marks.layers("inset.", body, icam)
        sprims, sinfo = range_inset.marks(tl, ishot, model.layout, icam, body, ui)
        avoid = [range_inset.counts_box(body, sinfo["counts"], ui)] if sinfo["counts"] else []
        tok = scene.token_radius(io) * icam.scale * range_inset.NOSE
        fprims, _ = range_inset.fa_name(model.layout, icam, iseen, body, tok, ui, avoid)
        if sprims or fprims:
            layers.append(Layer("inset.shots", body, icam, tuple(sprims + fprims)))
        layers.append(Layer("inset.people", body, icam, tuple(_people(model, iseen, io))))
        layers += marks.rings("inset.", body, icam)
    if "overlay" not in fr.folded:
        layers.append(Layer("overlay", mbox, cam, _overlay(cam, model.layout.chi_m,
                                                           fr.overlay_at, fr.overlay_k)))
    parts, hits = hud.hud_parts(tl, frame, model.corpus, size, view.hud, legend_at=fr.legend_at,
                                where=fr.kind, substitutions=model.substitutions,
                                extra=marks.panel_rows(), memo=model.hud_memo, ui=view.ui,
                                show_legend="legend" not in fr.folded)
    while len(model.hud_memo) > HUD_MEMO:
        model.hud_memo.pop(next(iter(model.hud_memo)))
    layers += [Layer(p.name, p.clip, cam, p.prims,
                     None if p.key is None else (model.serial, *p.key)) for p in parts]
    tip = _tooltip_text(model, fr, size, frame, view.mouse, ui)
    if tip:
        layers.append(Layer("tooltip", None, cam, (_tooltip(tip, view.mouse, size, ui),)))
    return Composition(tuple(layers), hits, fr, tip)


def drawn_framing(model: Model, view: View, size: tuple[int, int], t: float,
                  closing: bool = False, frame=None) -> Framing:
    """The framing as compose draws it: the inset widened for a compared reading, folded away
    while someone in the main view stands under it, and the legend moved off people. What the
    mouse points at is looked up in this, not in `framing`'s (which always has the inset)."""
    size = (int(size[0]), int(size[1]))
    frame = model.timeline.sample(t, closing) if frame is None else frame
    ui = ui_scale(size, view.ui)
    fr = _compare_inset(model, framing(model, size, t, closing, view.inset, view.camera, frame,
                                       ui=ui), view.compare)
    if fr.inset is not None and _range_empty(model, frame):
        fr = replace(fr, inset=None, inset_box=None)  # no empty frame (戒賔: no 侯 yet)
    return _clear_of_people(model, fr, frame, size, ui)


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


def pick(model: Model, view: View, size: tuple[int, int], t: float, closing: bool,
         pos: tuple[float, float]) -> Pick | None:
    """What is drawn at pos (px) in the frame compose draws: a person's token, else a thing
    set out, in the range inset when pos is inside it and it is drawn, else in the main view."""
    size = (int(size[0]), int(size[1]))
    frame = model.timeline.sample(t, closing)
    fr = drawn_framing(model, view, size, t, closing, frame)
    return _pick(fr, size, frame, pos, ui_scale(size, view.ui))


def _pick(fr: Framing, size: tuple[int, int], frame, pos, ui: float) -> Pick | None:
    """pick, in a framing already worked out."""
    mbox = areas_at(size, ui)["map"]
    if pos is None or not _inside(mbox, pos):
        return None
    cam, where, seen = fr.camera, "main", frame
    if fr.inset is not None and fr.inset_box is not None and _inside(fr.inset_box, pos):
        body = inset_body(fr.inset_box, ui)
        if not _inside(body, pos):
            return None  # the inset's title row and frame: nothing of the plan is drawn there
        cam, where, seen = fr.inset, "inset", _in_view(frame, fr.inset, body, INSET_REACH)
    idx = np.nonzero(seen.present)[0]
    if len(idx):
        scr = cam.to_screen(frame.xy[idx])
        d = np.hypot(scr[:, 0] - pos[0], scr[:, 1] - pos[1])
        k = int(np.argmin(d))
        o = SceneOptions(px_per_chi=cam.scale, lod=True, ui=ui)
        if d[k] <= scene.token_radius(o) * cam.scale + 2:
            return Pick("actor", int(idx[k]), where)
    down = np.nonzero((seen.prop_holder < 0) & seen.prop_visible)[0]
    if len(down):
        scr = cam.to_screen(frame.prop_xy[down])
        d = np.hypot(scr[:, 0] - pos[0], scr[:, 1] - pos[1])
        k = int(np.argmin(d))
        if d[k] <= PROP_REACH * ui:
            return Pick("thing", int(down[k]), where)
    return None


class _Marks:
    """What the view's choices add to a frame (trail, ghosts, second reading), sampled once and
    drawn through each camera that shows the plan; nothing when nothing is chosen."""

    def __init__(self, model: Model, view: View, frame, stage: int, closing: bool,
                 ui: float = 1.0):
        tl = model.timeline
        self.ui = ui
        self.model, self.view, self.frame, self.closing = model, view, frame, closing
        n = len(tl.actors)
        sel, thing = view.selected, view.thing
        self.selected = sel if sel is not None and 0 <= sel < n else None
        down = (thing is not None and 0 <= thing < len(tl.props)
                and bool(frame.prop_visible[thing]) and int(frame.prop_holder[thing]) < 0)
        self.thing = thing if down else None  # (taken up or gone: no longer named)
        self.path = (ghosts.stage_trail(tl, self.selected, stage)
                     if self.selected is not None else None)
        self.before = (ghosts.previous_frame(tl, frame.t, closing)
                       if view.ghosts else None)
        cmp = view.compare
        self.other = cmp.timeline.sample(cmp.t, cmp.closing) if cmp is not None else None
        self.moved = (ghosts.moved_features(model.layout, cmp.layout)
                      if cmp is not None and cmp.layout is not None else [])

    def _r(self, cam: Camera) -> float:
        return scene.token_radius(SceneOptions(px_per_chi=cam.scale, lod=True, ui=self.ui))

    def layers(self, prefix: str, clip: Box, cam: Camera) -> list[Layer]:
        """Under the people: ghosts of the previous step, the second reading, the trail."""
        tl, r, out = self.model.timeline, self._r(cam), []
        if self.before is not None:
            out += ghosts.ghost_prims(tl, self.before, self.frame, r)
        if self.other is not None:
            out += self.moved
            out += ghosts.compare_prims(tl, self.frame, self.view.compare.timeline, self.other, r)
        if self.path is not None and (not prefix or self._in_range(self.path)):
            out += ghosts.trail_prims(self.path, None, r, False, _world_box(cam, clip))
        return [Layer(prefix + "marks", clip, cam, tuple(out))] if out else []

    def _in_range(self, pts: np.ndarray) -> bool:
        """Whether a path comes down the range (else the inset need not draw it)."""
        b = self.model.range
        return b is not None and bool(len(pts)) and bool((pts[:, 1] <= b[3]).any())

    def rings(self, prefix: str, clip: Box, cam: Camera) -> list[Layer]:
        """Over the people: the ring round the one selected, or round the thing selected."""
        i, j, f = self.selected, self.thing, self.frame
        if i is not None and bool(f.present[i]):
            now, r = (float(f.xy[i, 0]), float(f.xy[i, 1])), self._r(cam)
        elif j is not None:  # a ring the size of the thing's glyph, a few px round it
            now, r = (float(f.prop_xy[j, 0]), float(f.prop_xy[j, 1])), 7.0 * self.ui / cam.scale
        else:
            return []
        prims = ghosts.trail_prims(np.zeros((0, 2)), now, r, True)
        return [Layer(prefix + "selection", clip, cam, tuple(prims))]

    def panel_rows(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """What the panel says of the choices: his next move; who differs, by how much."""
        tl, rows = self.model.timeline, []
        if self.thing is not None:
            tag = scene.thing_tag(tl, self.frame, self.thing)
            rows.append((SELECTED_THING.format(name=tag.text if tag is not None
                                               else tl.props[self.thing].name), hud.RED))
        if self.selected is not None:
            who = tl.actors[self.selected].name
            rows.append(((FOLLOWING if self.view.following else SELECTED).format(name=who),
                         hud.RED))
            mv = ghosts.next_move(tl, self.model.layout, self.selected, self.frame.t,
                                  self.closing)
            if mv is None:
                rows.append((NO_MOVE, hud.GREY))
            else:
                rows.append((NEXT_MOVE.format(when=NOW_WHEN if mv.now else NEXT_WHEN,
                                              cite=mv.cite), hud.INK))
                rows.append((MOVE_PATH.format(src=mv.src, dst=mv.dst, length=mv.length,
                                              t0=mv.t0), hud.INK))
        cmp = self.view.compare
        if cmp is not None and self.other is not None:
            rows.append((COMPARED.format(a=cmp.base, b=cmp.reading), ghosts.COMPARE))
            # the step's end is what is compared: worked out once a step, not every frame
            key = ("differences", cmp.key, tl.step_at(self.frame.t, self.closing))
            if key not in self.model.hud_memo:
                self.model.hud_memo[key] = ghosts.step_differences(tl, cmp.timeline,
                                                                   self.frame.t, self.closing)
            diffs = self.model.hud_memo[key]
            rows.append((DIFF_HEAD, hud.GREY))
            rows += [(DIFF.format(name=d.name, dist=d.dist), hud.INK)
                     for d in diffs[:MAX_DIFFS]]
            if len(diffs) > MAX_DIFFS:
                rows.append((DIFF_MORE.format(n=len(diffs) - MAX_DIFFS), hud.GREY))
            if not diffs:
                rows.append((SAME, hud.GREY))
        return tuple(rows)


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


_legend_h: dict[tuple, float] = {}


def _clear_of_people(model: Model, fr: Framing, frame, size: tuple[int, int],
                     ui: float) -> Framing:
    """The legend and the inset go where nobody stands: the inset folds away while someone in
    the main view stands under it (a zoom or a pan brought him there); the legend moves to the
    first of the map's corners where nobody stands (else stays)."""
    idx = np.nonzero(frame.present)[0]
    if not len(idx):
        return fr
    scr = fr.camera.to_screen(frame.xy[idx])
    r = scene.TOKEN_PX * ui + 4

    def under(box) -> bool:
        x, y, w, h = box
        return bool(((scr[:, 0] > x - r) & (scr[:, 0] < x + w + r) & (scr[:, 1] > y - r)
                     & (scr[:, 1] < y + h + r)).any())

    if fr.inset_box is not None and under(fr.inset_box):
        fr = replace(fr, inset=None, inset_box=None)
    lx, ly, lw = fr.legend_at
    key = (lw, model.substitutions, ui)
    if key not in _legend_h:
        _legend_h[key] = hud.legend_height(lw, ui, model.substitutions)
    lh = _legend_h[key]
    if not under((lx, ly, lw, lh)):
        return fr
    mx, my, mw, mh = areas_at(size, ui)["map"]
    e = 10 * ui
    low = (fr.inset_box[1] if fr.inset_box is not None else my + mh) - lh - 34 * ui
    for at in ((mx + e, my + e), (mx + mw - lw - e, my + e), (mx + e, low),
               (mx + mw - lw - e, low)):
        if not under((*at, lw, lh)) and (fr.inset_box is None or not _meets(
                (*at, lw, lh), fr.inset_box)):
            return replace(fr, legend_at=(at[0], at[1], lw))
    return fr


def _meets(a: Box, b: Box) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def _compare_inset(model: Model, fr: Framing, cmp: Compare | None) -> Framing:
    """Under comparison the inset also takes in what the second reading moves along the range
    (敖's 乏 stands 20 尺 west of 鄭's, outside the inset's usual frame)."""
    if fr.inset is None or cmp is None or cmp.layout is None or model.range is None:
        return fr
    x0, y0, x1, y1 = model.range
    pts = ghosts.moved_points(model.layout, cmp.layout)
    pts = pts[(pts[:, 1] >= y0) & (pts[:, 1] <= y1)] if len(pts) else pts
    if not len(pts):
        return fr
    pad = 8.0  # 尺: room for the token standing there
    wider = (min(x0, float(pts[:, 0].min()) - pad), y0, max(x1, float(pts[:, 0].max()) + pad), y1)
    if wider == model.range:
        return fr
    icam = fr.inset.copy()
    icam.fit(wider, margin=8)
    return replace(fr, inset=icam)


def tooltip(model: Model, view: View, size: tuple[int, int], t: float,
            closing: bool = False) -> str:
    """The tooltip compose would draw, without composing the rest."""
    if view.mouse is None:
        return ""
    frame = model.timeline.sample(t, closing)
    fr = drawn_framing(model, view, size, t, closing, frame)
    return _tooltip_text(model, fr, size, frame, view.mouse, ui_scale(size, view.ui))


def _static(model: Model, name: str, clip: Box, camera: Camera,
            build: Callable[[], list[Primitive]], hide: frozenset = frozenset(),
            extra: bytes = b"") -> Layer:
    """A layer on paper that changes only with its camera (and the things set out, and the
    props lying where they were set down: `extra`): built once, kept by key."""
    key = (model.serial, name, clip, camera.key(), tuple(sorted(hide)), extra)
    memo = model.static_layers
    layer = memo.get(key)
    if layer is None:
        # its own camera: the caller's may be handed on and changed (a zoom starts from it)
        layer = Layer(name, clip, camera.copy(), (Rect(clip, hud.PAPER), *build()), key)
        memo[key] = layer
        if len(memo) > STATIC_MEMO:
            memo.popitem(last=False)
    else:
        memo.move_to_end(key)
    return layer


def _plan(model: Model, camera: Camera, places: bool,
          hide: frozenset = frozenset(), ui: float | None = None,
          fa_note: bool = True) -> list[Primitive]:
    lay = things.shown(model.layout, hide)
    return (scene.features(lay) + scene.range_marks(lay, camera.breaks, fa_note)
            + scene.place_labels(lay, camera.scale, places, ui))


def _in_view(frame, camera: Camera, clip: Box, reach: float = REACH):
    """The frame with only the people and props set down within `reach` px of the clip box:
    a tag is placed within its owner's reach, so those further off change no pixel inside
    (the inset shows the four on the range, not the thirty in the hall). The inset, a view of
    its own, takes only those inside it (INSET_REACH): a tag of one standing in the court above
    it would otherwise be placed inside it, under its title."""
    x0, y0, x1, y1 = _world_box(camera, clip, reach)  # memoised there by (camera, clip, reach)
    xy, pxy = frame.xy, frame.prop_xy
    near = (xy[:, 0] >= x0) & (xy[:, 0] <= x1) & (xy[:, 1] >= y0) & (xy[:, 1] <= y1)
    pnear = (pxy[:, 0] >= x0) & (pxy[:, 0] <= x1) & (pxy[:, 1] >= y0) & (pxy[:, 1] <= y1)
    if near[frame.present].all() and pnear[frame.prop_visible].all():
        return frame
    out = object.__new__(type(frame))  # replace() would run every field's __init__ again
    out.__dict__.update(frame.__dict__)
    out.__dict__.update(present=frame.present & near, prop_visible=frame.prop_visible & pnear)
    return out


def _options_for(camera: Camera, captions: bool, ui: float = 1.0,
                 view: tuple[float, float, float, float] | None = None,
                 selected: int | None = None, thing: int | None = None) -> SceneOptions:
    """The scene's options for a view: the same object while the view stays."""
    key = (captions, id(camera.breaks), camera.scale, ui, view, selected, thing)
    o = _options.get(key)
    if o is None or o.breaks is not camera.breaks:
        if len(_options) >= SPRITES:
            _options.clear()
        o = _options[key] = SceneOptions(captions=captions, breaks=camera.breaks,
                                         px_per_chi=camera.scale, lod=True, ui=ui,
                                         view=view, selected=selected, thing=thing)
    return o


def _people(model: Model, frame, o: SceneOptions) -> list[Primitive]:
    """What is held (glyphs) and counts of what lies set down, then the people, then what
    they say (back to front)."""
    if not frame.present.any() and not frame.prop_visible.any():
        scene.forget_drawn(o.captions)
        return []  # nobody and nothing in this view (the inset, mostly)
    tl = model.timeline
    captions = o.captions
    out = scene.set_down_props(tl, frame, o)
    for token, tags in scene.actor_parts(tl, frame, o):
        if not token:  # the names of formations, after every token
            out += tags
            continue
        kept = _tokens.get(id(token))
        if kept is None or kept[0] is not token:
            if len(_tokens) >= SPRITES:
                _tokens.clear()
            kept = _tokens[id(token)] = (token, _as_sprites(token))
        out += kept[1]
        out += tags
    return out + scene.captions(tl, frame, o) if captions else out


SPRITES = 4096  # tokens remembered as Sprites (a frame has a few dozen)
_options: dict[tuple, SceneOptions] = {}  # (captions, id(breaks), zoom) → the view's options
_sprites: dict[int, tuple[tuple, Sprite]] = {}  # id(disc) → (its parts, the Sprite)
_tokens: dict[int, tuple[list, list]] = {}  # id(a token's list) → (the list, as Sprites)


def _as_sprites(prims: list[Primitive]) -> list[Primitive]:
    """Each token of scene.actors (the base he kneels on, his nose, his disc, the label on it:
    the polygons just before a circle and the text centred on it) as one Sprite, which looks
    the same wherever he stands; his tags stay primitives, placed each frame. The parts of
    one who stands still are the last frame's objects, and so is his Sprite."""
    out: list[Primitive] = []
    k = 0
    while k < len(prims):
        p = prims[k]
        nxt = prims[k + 1] if k + 1 < len(prims) else None
        if (isinstance(p, Circle) and isinstance(nxt, Text) and nxt.unit == "chi"
                and nxt.pos == p.center):
            j = len(out)
            while j > 0 and len(out) - j < 2 and isinstance(out[j - 1], Polygon):
                j -= 1
            parts = (*out[j:], p, nxt)
            kept = _sprites.get(id(p))
            if kept is None or len(kept[0]) != len(parts) or not all(
                    a is b for a, b in zip(kept[0], parts, strict=True)):
                if len(_sprites) >= SPRITES:
                    _sprites.clear()
                kept = _sprites[id(p)] = (parts, Sprite(p.center, parts))
            out[j:] = [kept[1]]
            k += 2
            continue
        out.append(p)
        k += 1
    return out


_overlays: dict[tuple, tuple[Primitive, ...]] = {}


def _overlay(cam: Camera, chi_m: float, corner: tuple[float, float],
             k: float = 1.0) -> tuple[Primitive, ...]:
    """The scale bar and north arrow at scale k (overlays.scale_bar), the same objects while
    the camera, the corner and k stay (so a back end finds them drawn in the last frame)."""
    key = (cam.key(), chi_m, corner, k)
    prims = _overlays.get(key)
    if prims is None:
        if len(_overlays) >= STATIC_MEMO:
            _overlays.clear()
        prims = _overlays[key] = tuple(overlays.scale_bar(cam, chi_m, corner, k))
    return prims


def _inset_frame(box: Box, ui: float = 1.0) -> list[Primitive]:
    x, y, w, h = box
    edge = (150, 130, 100)
    head = round(INSET_HEAD * ui)
    # the title grows with the scale as far as the column holds it, never under 12 px
    px = min(12 * ui, max(12.0, (w - 16 * ui) / scene.text_width_em(INSET_TITLE)))
    return [Rect(box, None, edge, 1.5, radius=3),
            Text((x + 8 * ui, y + head / 2), INSET_TITLE, px, hud.RED, "w", screen=True),
            Line(((x, y + head), (x + w, y + head)), (200, 190, 170), 1.0,
                 screen=True)]


def _inside(box, pos) -> bool:
    x, y, w, h = box
    return x <= pos[0] < x + w and y <= pos[1] < y + h


def _tooltip_text(model: Model, fr: Framing, size, frame, mouse, ui: float = 1.0) -> str:
    """Over the timeline bar: the stage and time there. Over a token (in the main view or the
    inset, as drawn): full name, note, posture, what he holds; over a thing set out, its name
    (and how many lie there)."""
    if mouse is None:
        return ""
    tl, a = model.timeline, areas_at(size, ui)
    if _inside(a["bar"], mouse):
        if not tl.stages:
            return ""
        x, _, w, _ = hud.track_at(size, ui)
        t = float(np.clip((mouse[0] - x) / max(w, 1e-9), 0, 1)) * tl.duration
        s = tl.stages[tl.stage_at(t)]
        return BAR_TIP.format(number=s.index + 1, name=s.name, t=t)
    hit = _pick(fr, size, frame, mouse, ui)
    if hit is None:
        return ""
    if hit.kind == "thing":
        return _prop_tip(model, fr, frame, mouse, ui, hit)
    i = hit.index
    who = tl.actors[i]
    name = who.name + (ACTOR_NOTE.format(who.note) if who.note else "")
    text = ACTOR_TIP.format(name=name, posture=POSTURES[int(frame.posture[i])])
    held = [tl.props[tl.prop_index[p]].name for p in frame.holding[i] if p in tl.prop_index]
    return text + (HOLDING.format(hud.LIST_SEP.join(held)) if held else "")


def _prop_tip(model: Model, fr: Framing, frame, mouse, ui: float, hit: Pick) -> str:
    """The name of the thing set out under the mouse, and how many of it lie within reach."""
    tl = model.timeline
    cam = fr.inset if hit.view == "inset" else fr.camera
    down = np.nonzero((frame.prop_holder < 0) & frame.prop_visible)[0]
    scr = cam.to_screen(frame.prop_xy[down])
    d = np.hypot(scr[:, 0] - mouse[0], scr[:, 1] - mouse[1])
    reach = PROP_REACH * ui
    name = tl.props[hit.index].name
    n = sum(1 for j, dj in zip(down.tolist(), d.tolist(), strict=True)
            if dj <= reach and tl.props[j].name == name)
    return name if n <= 1 else PROP_COUNT.format(name=name, n=n)


def _tooltip(tip: str, mouse, size, ui: float = 1.0) -> Text:
    """Beside the cursor, turned back inside the window near its right and bottom edges, and
    never past its left or top edge either (a long tip near the right of a narrow map is moved
    left only as far as the window's edge)."""
    x, y = mouse
    px = 13 * ui
    lines = tip.split("\n")
    w = max((hud.text_width(line, px) for line in lines), default=0.0) + 8 * ui
    left = x + 14 * ui if x + 14 * ui + w <= size[0] else max(x - 10 * ui - w, 2.0)
    left = min(left, max(size[0] - w - 2, 2.0))
    below = y + 40 * ui > size[1]
    return Text((left, y + (-10 * ui if below else 12 * ui)), tip, px, hud.INK,
                ("s" if below else "n") + "w", bg=(255, 253, 244), border=hud.INK, screen=True)


def chars_drawn(model: Model) -> str:
    """Every character a frame of this model may draw: the model's names, cites, captions and
    text, and the fixed words of the plan, the HUD and the composer (for the font check)."""
    tl, lay = model.timeline, model.layout
    parts: list[str] = list(lay.places)
    parts += [f.name + (f.label if isinstance(f.label, str) else "") for f in lay.features]
    parts += [a.name + a.label + a.note for a in tl.actors] + [p.name for p in tl.props]
    parts += [s.name + s.section + "".join(s.labels) for s in tl.stages]
    parts += [s.cite + "".join(s.captions) + s.note + s.loc + s.pattern for s in tl.steps]
    parts += list(tl.label_names) + [e.text for e in tl.events]
    if model.corpus is not None:
        c = model.corpus
        parts += [c.plain] + [s.name for s in c.sections]
        parts += [cl.punct + "".join(cl.notes) for cl in c.clauses]
        parts += [page for _, page in c.pages]
    parts += scene.TEXTS + hud.TEXTS + TEXTS
    from viz.base import lang  # the fixed words as the reader's language writes them

    parts += list(lang.catalog(lang.current()).values())
    return "".join(parts)
