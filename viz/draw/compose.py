"""The frame composer: one moment of the rite as layers of display primitives, for every back end.

`compose(model, view, size, t, closing)` is pure: the window, `shot` and any later back end (SVG,
video) draw the layers it returns and nothing else, so what is saved is what is on screen. The
framing (which part of the site the main view shows, where the range inset goes) depends only on
(layout, timeline, size, t, closing, inset on/off), unless the user zoomed or panned, which the
view carries; so a video made of frames is deterministic.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from viz.draw import ghosts, hud, overlays, scene, things
from viz.draw import inset as range_inset
from viz.draw.camera import Camera, YMap
from viz.draw.display import Box, Circle, Layer, Line, Polygon, Primitive, Rect, Sprite, Text
from viz.draw.extent import (  # noqa: F401  (the model and its extents, as they were here)
    NEAR,
    STATIC_MEMO,
    STEP_MIN,
    STEP_NEAR,
    STEP_PAD,
    STEP_SHARE,
    Model,
    _range_empty,
    _slid_within,
    _world_box,
    _world_box_of,
    _world_boxes,
    scene_box,
    scene_now,
    view_kind,
)
from viz.draw.hud import UI_BASE, Hits, HudState, areas, areas_at, ui_scale  # noqa: F401
from viz.draw.marks import (  # noqa: F401  (what the view's choices add, as they were here)
    COMPARED,
    DIFF,
    DIFF_HEAD,
    DIFF_MORE,
    FOLLOWING,
    MAX_DIFFS,
    MOVE_PATH,
    NEXT_MOVE,
    NEXT_WHEN,
    NO_MOVE,
    NOW_WHEN,
    SAME,
    SELECTED,
    SELECTED_THING,
    _Marks,
)
from viz.draw.scene import Bounds, SceneOptions, literal
from viz.model.dress import SPOTS, worn_words
from viz.model.timeline import POSTURES

INSET_W = (236, 340)  # px: the column on the map's right with the legend and the range inset
INSET_HEAD = 24  # px: the inset's title row
INSET_MIN_H = 80  # px: below this the inset is left out, not squashed
INSET_REACH = 12.0  # px: a token's half-width, so one standing at the inset's edge is drawn
REACH = 240.0  # px round a view within which people are drawn: past a tag's furthest place
HUD_MEMO = 64  # panels and bars kept per model: a step back or forth finds its panel built
UI_STEPS = (0.8, 2.0)  # the least and greatest user scale (Ctrl − / Ctrl +)
FRAMINGS = 256  # framings kept per model (by size, stage, kind …); a zoom makes one a step

# The words the composer itself writes (templates; the model's names aside)
INSET_TITLE = "侯道 · 乏 · 侯（分圖，中斷處見鋸齒）"
ACTOR_NOTE = "（{}）"
ACTOR_TIP = "{name} · {posture}"
HOLDING = " · 執{}"
WEARING = " · {}"  # what he wears (don): 戴緇布冠 服玄端 (SPOTS' words: 戴 服 履)
BAR_TIP = "{number} {name} · {t:.0f} s"
PROP_COUNT = "{name}×{n}"
PROP_REACH = 8.0  # px (× the UI scale): how near the mouse names a thing set out
TEXTS: tuple[str, ...] = tuple(literal(t) for t in (
    INSET_TITLE, ACTOR_NOTE, ACTOR_TIP, HOLDING, WEARING, BAR_TIP, PROP_COUNT, *POSTURES, SELECTED,
    SELECTED_THING, FOLLOWING,
    NEXT_MOVE, NEXT_WHEN, NOW_WHEN, MOVE_PATH, NO_MOVE, COMPARED, DIFF_HEAD, DIFF, DIFF_MORE, SAME))


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
    if kind == "elsewhere":  # the scene the rite is at (of several, framed on it alone)
        follow = scene_box(model, frame)
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
        cam.fit(follow or model.elsewhere, margin=30)
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
                                 model.substitutions, plan=layers[0])
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
    lh = hud.legend_height(lw, ui, model.substitutions)
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
    worn = worn_words(tl, frame, i)  # caps and clothes (don): 戴緇布冠 服玄端
    return (text + (HOLDING.format(hud.LIST_SEP.join(held)) if held else "")
            + (WEARING.format(worn) if worn else ""))


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
    parts += [SPOTS[p.worn] for p in tl.props if p.worn]  # 戴 服 履: what a person wears (don)
    from viz.base import lang  # the fixed words as the reader's language writes them

    parts += list(lang.catalog(lang.current()).values())
    return "".join(parts)
