"""Plates: one moment of the rite as a printed 禮圖 plate (or as the window draws it), as layers.

    plate_layers(model, moment_t, closing, *, style, trails, follow, size, part) -> Plate
    stage_parts(timeline, stage, corpus) -> [Part]      # a stage's plates, at most MAX_MOVES each

The files (PNG, SVG) are written by viz.export.plate, which hands this module a Model measured
with the back end's font. `model` is a composer Model of what viz.model.rite.Rite(...).get()
returns (layout, corpus, timeline are read); `moment_t`/`closing` as
viz.query.state.resolve_moment gives them; `trails` is "step" (the moves of the step at the
moment), "stage" (every move of its stage up to the moment) or "none"; `follow` an actor's id
or name: only his moves. Both files are drawn from one list of layers (pgdraw for the PNG,
svgdraw for the SVG), so they show the same plate.

A stage plate (`part`, one of stage_parts) is a handout: the moves of its steps, numbered, at
the end of its last step, and beside the plan the stage's whole text (its sections' 經 and 記,
punctuated), the clauses it draws in 朱, over the whole list of its moves. A stage of more than
MAX_MOVES numbered moves is split into several such plates, cut between phases of the text.

The `plate` style is how 張惠言's 儀禮圖 and the 欽定儀禮義疏 draw a moment: paper and ink,
the hall in line, each person written as his name where he stands (a dot for the spot, a tick
for the way he faces), north up, the stage and the clause as the title, the cited words beside
the plan, a scale in 尺 and m. The plan is framed to the whole 堂 and the people and moves
about it, at the largest scale the page allows (not the whole court). Names are placed by
viz.draw.labels_paper.place_clear: none overlaps another name, anyone's mark or a wall; a name pushed
off its spot has a leader line, run clear of the names already down where it can be. Arrows
lying about are drawn as arrows where they lie, with one count a cluster. Who stands down the range, and
who is at the 賔's own gate (the layout's elsewhere scene) while the plan shows the school, is
drawn in an inset beside the plan, with the moves made there. `screen` is the window's look
(viz.draw.compose) with the trails drawn over it.

Here: plate_layers, the title row and the insets. The rest, a thing drawn a module: the page and
its ink (plate_page), a stage's plates (plate_parts), the people and the moves (plate_people),
the column beside the plan (plate_side), the scale bar and legend (plate_legend).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from viz.draw import hud, labels, scene, things
from viz.draw import trails as trails_mod  # `trails` is also the parameter naming the mode
from viz.draw.camera import Camera
from viz.draw.compose import Model, View, compose, scene_now, view_kind
from viz.draw.display import (
    Box,
    Circle,
    Layer,
    Line,
    Primitive,
    Rect,
    Sprite,
    Text,
)
from viz.base.lang import tr
from viz.draw.plate_legend import LEGEND
from viz.draw.plate_page import (  # noqa: F401 (GREY, PAPER: callers read them here)
    GREY,
    INK,
    PAPER,
    ZHU,
    ZHU_FAINT,
    _arrange,
    _arrows,
    _bounds,
    _furniture,
    _in_elsewhere,
    _in_range,
    _inked,
    _inner,
    _inset_height,
    _inset_width,
    _north_up,
    _page,
    _range_top,
    _range_view,
    _walls,
    room_things,
)
from viz.draw.plate_parts import MAX_MOVES, Part, stage_parts  # noqa: F401
from viz.draw.plate_people import _ANCHOR, ARROW, COUNT, _Marks, _numbers, _people, text_box
from viz.draw.plate_side import (  # noqa: F401 (stage_clauses, CLOSERS: callers read them here)
    CLOSERS,
    ELLIPSIS,
    FOLLOW,
    LIST_SEP,
    MORE,
    MOVES,
    OMITTED,
    SPAN,
    STEP_NOTE,
    WHO,
    _fit,
    _side,
    list_min_px,
    stage_clauses,
)
from viz.draw.scene import literal
from viz.query.words import clause_said

STYLES = ("plate", "screen")
TRAILS = ("step", "stage", "none")
DEFAULT_SIZE = (1600, 1130)  # A4 landscape at about 137 dpi
A4_MM = (297.0, 210.0)

# The words a plate writes besides the model's (the font check reads them)
TITLE = "{stage}圖"
PART = "{title}（{n}／{of}）"
ELSEWHERE_TITLE = "{name}（在他處）"
INSET_TITLE = "侯道 · 乏 · 侯（中斷處見鋸齒）"
TEXTS: tuple[str, ...] = tuple(literal(t) for t in (TITLE, PART, ELSEWHERE_TITLE, STEP_NOTE,
                                                    INSET_TITLE, MOVES, FOLLOW, WHO, LIST_SEP,
                                                    MORE, ARROW, COUNT, SPAN, OMITTED, ELLIPSIS, *LEGEND))


@dataclass(frozen=True)
class Plate:
    """The layers of a plate, and the boxes (px) of what its placement pass put down: names
    and tags (`labels`) and the marks they must not cover (`marks`), for tests to count."""

    layers: tuple[Layer, ...]
    size: tuple[int, int]
    title: str
    labels: tuple[labels.BoxT, ...]
    marks: tuple[labels.BoxT, ...]


def size_for_dpi(dpi: float) -> tuple[int, int]:
    """An A4 landscape page at `dpi`."""
    return (round(A4_MM[0] / 25.4 * dpi), round(A4_MM[1] / 25.4 * dpi))


def actor_index(timeline, who: str | None) -> int | None:
    """An actor by id, name or label; ValueError naming the cast when none matches."""
    if who is None:
        return None
    for i, a in enumerate(timeline.actors):
        if who in (a.id, a.label):
            return i
    named = [i for i, a in enumerate(timeline.actors) if a.name == who]
    if len(named) == 1:
        return named[0]
    cast = "、".join(a.id for a in timeline.actors)
    why = "names several people" if named else "is nobody in the cast"
    raise ValueError(f"--follow {who!r} {why}; give an id: {cast}")


def _trail_steps(timeline, t: float, closing: bool, trails_mode: str) -> list[int]:
    if trails_mode == "none" or not timeline.steps:
        return []
    k = timeline.step_at(t, closing)
    if trails_mode == "step":
        return [k]
    s = timeline.stages[timeline.steps[k].stage]
    return list(range(s.first_step, k + 1))


def plate_layers(model: Model, moment_t: float, closing: bool = False, *, style: str = "plate",
                 trails: str = "step", follow: str | None = None,
                 size: tuple[int, int] = DEFAULT_SIZE, part: Part | None = None,
                 about: str | None = None) -> Plate:
    """The layers of one plate (see the module docstring). model: a composer Model whose text
    is measured with the font the back end will draw with (viz.export.plate.model_for).
    part: a stage plate (stage_parts): the moves of its steps, whatever `trails` says, and the
    stage's whole text beside the plan, the clauses its steps enact marked in 朱. about: the
    words of `--after`: the plate heads with their clause (the step ending at the moment may
    say others with it)."""
    if style not in STYLES:
        raise ValueError(f"style {style!r}: expected one of {', '.join(STYLES)}")
    if trails not in TRAILS:
        raise ValueError(f"trails {trails!r}: expected one of {', '.join(TRAILS)}")
    tl = model.timeline
    size = (int(size[0]), int(size[1]))
    fi = actor_index(tl, follow)
    steps = (list(range(part.first, part.last + 1)) if part is not None and tl.steps
             else _trail_steps(tl, moment_t, closing, trails))
    found = trails_mod.legs(tl, steps, fi) if steps else []
    if style == "screen":
        return _screen(model, moment_t, closing, size, found, about)
    return _plate(model, moment_t, closing, size, found, fi, part, about)


def _title(model: Model, t: float, closing: bool, about: str | None = None
           ) -> tuple[str, str, str]:
    """(title, the clause's words, its page): the clause the step ending at t says (the one
    holding `about`, the words of --after, when it says several)."""
    tl = model.timeline
    if not tl.steps:
        return "", "", ""
    s = tl.steps[tl.step_at(t, closing)]
    stage = tl.stages[s.stage]
    clause = clause_said(model.corpus, s, about)
    # a clause cut inside a quotation starts with the quotation's closing mark: alone at the
    # head of the words it closes nothing
    words = clause.punct.lstrip("」』）〕") if clause is not None else s.cite
    page = clause.page if clause is not None else ""
    return TITLE.format(stage=stage.name), words, page


def _screen(model: Model, t: float, closing: bool, size, found, about: str | None = None
            ) -> Plate:
    comp = compose(model, View(), size, t, closing)
    layers = list(comp.layers)
    cam = comp.framing.camera
    if found:
        mbox = hud.areas(size)["map"]
        prims = trails_mod.drill(trails_mod.clipped(found, cam, mbox), cam.scale, ZHU,
                                 ZHU_FAINT)
        # the numbers go where the screen has room: each at its move's start, clear of the
        # tokens and their tags
        at = next((i for i, ly in enumerate(layers) if ly.name == "people"), len(layers))
        taken = _boxes(layers[at]) if at < len(layers) else []
        nums, _ = _numbers(found, cam, taken, mbox)
        layers.insert(at, Layer("trails", mbox, cam.copy(), tuple(prims + nums)))
    title, words, _ = _title(model, t, closing, about)
    return Plate(tuple(layers), size, f"{title} {words}".strip(), (), ())


def _boxes(layer: Layer) -> list[labels.BoxT]:
    """The boxes (px) of a layer's circles and words."""
    cam = layer.camera
    out = []
    for p in (q for s in layer.prims for q in (s.parts if isinstance(s, Sprite) else (s,))):
        if isinstance(p, Circle):
            (x, y), = [p.center] if p.screen else cam.to_screen_pts([p.center])
            out.append(labels.circle_box(x, y, p.r if p.screen else max(p.r * cam.scale,
                                                                          p.min_px)))
        elif isinstance(p, Text):
            out.append(text_box(p, cam))
    return out


@dataclass(frozen=True)
class _Where:
    """Who and which moves a plate draws where: on the plan (main), in the range's inset (far)
    or at the 賔's gate (gate), and whether each inset is drawn."""

    main_idx: list[int]
    near_legs: list
    far_idx: list[int]
    far_legs: list
    gate_idx: list[int]
    gate_legs: list
    want_range: bool
    want_gate: bool
    gate: tuple = ("", None)  # the elsewhere scene of the inset: (name, bounds)


def _where(model: Model, frame, found) -> _Where:
    """The plan shows the school; who stands down the range, or at the 賔's gate while the plan
    shows the school, is drawn in an inset beside it, with the moves made there."""
    idx = [int(i) for i in np.nonzero(frame.present)[0]]
    top = _range_top(model)
    none = np.zeros(len(idx), bool)
    away = view_kind(model, frame) == "elsewhere"
    # of several scenes, the inset shows the one most of those there stand in; those at
    # another are off this plate (and off its plan: they are not at the school)
    shown = scene_now(model, frame)
    scenes = [b for _, b in model.scenes] if len(model.scenes) > 1 else [model.elsewhere]

    def anywhere(pts):
        return np.logical_or.reduce([_in_elsewhere(model, pts, b) for b in scenes])
    far = _in_range(model, frame.xy[idx], top) if idx else none
    here = _in_elsewhere(model, frame.xy[idx], shown[1]) if idx and not away else none
    gone = anywhere(frame.xy[idx]) if idx and not away else none
    in_range = [bool(_in_range(model, g.points, top).all()) for g in found]
    at_gate = [not away and bool(_in_elsewhere(model, g.points, shown[1]).any()) for g in found]
    far_legs = [g for g, r in zip(found, in_range) if r]
    gate_legs = [g for g, e in zip(found, at_gate) if e]
    near_legs = [g for g, r in zip(found, in_range)
                 if not r and (away or not anywhere(g.points).all())]
    far_idx = [i for i, f in zip(idx, far) if f]
    gate_idx = [i for i, h, f in zip(idx, here, far) if h and not f]
    main_idx = [i for i, g, f in zip(idx, gone, far) if not g and not f]
    return _Where(main_idx, near_legs, far_idx, far_legs, gate_idx, gate_legs,
                  model.range is not None and bool(far_idx or far_legs),
                  shown[1] is not None and bool(gate_idx or gate_legs), shown)


def _plate(model: Model, t: float, closing: bool, size, found, follow: int | None,
           part: Part | None = None, about: str | None = None) -> Plate:
    frame = model.timeline.sample(t, closing)
    wh = _where(model, frame, found)
    bounds = _bounds(model, frame, wh.near_legs)
    rng = _range_view(model, frame, wh.far_idx, wh.far_legs) if wh.want_range else None
    pg, row, margin = _arrange(model, size, part is not None, bounds,
                               wh.want_range or wh.want_gate)
    cam = Camera(pg.map, breaks=model.breaks)
    cam.fit(bounds, margin=margin, box=_north_up(model, pg.map, bounds, margin))
    W, H = size
    x, y, w, h = pg.page
    base: list[Primitive] = [Rect((0, 0, W, H), PAPER), Rect((x, y, w, h), None, INK, 2.0),
                             Rect((x + 5, y + 5, w - 10, h - 10), None, INK, 1.0)]
    set_out = things.shown(model.layout, things.hidden(model.timeline, frame))
    plan = [_inked(p) for p in scene.features(set_out)
            + scene.range_marks(model.layout, cam.breaks)]
    # the plan's words at its edge (the range's length under the last break) shown whole: the
    # plan grows on the side where one is cut by the frame, once
    grow = _cut_by(plan, cam, pg.map)
    if any(grow):
        k = 1.0 / cam.scale
        bounds = (bounds[0] - grow[0] * k, bounds[1] - grow[3] * k, bounds[2] + grow[2] * k,
                  bounds[3] + grow[1] * k)
        cam.fit(bounds, margin=margin, box=_north_up(model, pg.map, bounds, margin))
    # the plan's own words (the 侯's parts, the range's lengths) are not to be written over
    written = [text_box(p, cam) for p in plan if isinstance(p, Text)]
    # nor the walls (a name over a wall drawn in ink cannot be read)
    written += _walls(model.layout, cam)
    written += _furniture(set_out, cam)  # nor the 洗, a 尊, a 篚
    main = _people(model, frame, cam, wh.main_idx, wh.near_legs, pg.px, pg.map, written)
    # place and feature names last, only where they are clear of everything above
    plan += _plan_names(model, cam, pg.px, [*main.marks, *main.labels], set_out,
                        _inner(pg.map))
    title, words, page = _title(model, t, closing, about)
    if part is not None and part.of > 1:
        title = PART.format(title=title, n=part.number, of=part.of)
    side = _side(model, t, closing, pg, words, page, found, follow, pg.side[3], cam, part,
                 about)
    layers = [Layer("paper", None, cam, tuple(base)),
              Layer("plate.plan", pg.map, cam, tuple(plan)),
              Layer("plate.people", pg.map, cam, tuple(main.prims)),
              Layer("plate.text", None, cam, tuple(_head(pg, title, words) + side))]
    boxes, marks = list(main.labels), list(main.marks)
    for name, box, where, head_, who, legs_ in _insets(model, pg, row, rng, wh):
        more, view = _inset(model, frame, set_out, name, box, where, head_, who, legs_, pg.px)
        layers += more
        boxes += view.labels
        marks += view.marks
    return Plate(tuple(layers), size, f"{title} {words}".strip(), tuple(boxes), tuple(marks))


def _head(pg, title: str, words: str) -> list[Primitive]:
    """The plate's title row: the stage, the clause's words (cut to the row), a rule under."""
    wx = pg.page[0] + 24 + labels.text_size(title, pg.px * 2.0)[0] + pg.px
    return [Text((pg.page[0] + 24, pg.title_y), title, pg.px * 2.0, INK, "w", screen=True),
            Text((wx, pg.title_y), _fit(words, pg.px * 1.3, pg.page[0] + pg.page[2] - 24 - wx),
                 pg.px * 1.3, INK, "w", screen=True),
            Line(((pg.page[0] + 5, pg.map[1] - 6), (pg.page[0] + pg.page[2] - 5, pg.map[1] - 6)),
                 INK, 1.0, screen=True)]


def _insets(model: Model, pg, row, rng, wh: _Where) -> list[tuple]:
    """The insets to draw, (layer name, box px, ground, title, who, moves) each: side by side
    in the row under the plan, each as wide as its ground drawn, or in the column beside it,
    each as tall as its ground drawn the column's width."""
    todo = []
    if row is not None:  # side by side under the plan, each as wide as its ground drawn
        ix, iy, iw, ih = row
        gap = round(pg.px)
        share = (iw - gap) / 2 if wh.want_range and wh.want_gate else iw
        x0 = ix
        for want, where, name, head_, who, legs_ in (
                (wh.want_range, rng, "plate.inset", tr(INSET_TITLE), wh.far_idx, wh.far_legs),
                (wh.want_gate, wh.gate[1], "plate.gate",
                 tr(ELSEWHERE_TITLE).format(name=_gate_name(model.layout, wh.gate)), wh.gate_idx,
                 wh.gate_legs)):
            if want:
                bw = _inset_width(model, where, share, ih, pg.px)
                todo.append((name, (x0, iy, bw, ih), where, head_, who, legs_))
                x0 += bw + gap
    elif pg.insets is not None:
        ix, iy, iw, ih = pg.insets
        gap = round(pg.px)
        # each inset as tall as its ground drawn the column's width (the range at most 0.62 of
        # the column when the 賔's gate is drawn under it)
        rh = _inset_height(model, rng, iw, ih * (0.62 if wh.want_gate else 1.0),
                           pg.px) if wh.want_range else 0
        gh = _inset_height(model, wh.gate[1], iw, ih - rh - gap,
                           pg.px) if wh.want_gate else 0
        if wh.want_range:
            todo.append(("plate.inset", (ix, iy, iw, rh), rng, tr(INSET_TITLE), wh.far_idx,
                         wh.far_legs))
        if wh.want_gate:
            name = tr(ELSEWHERE_TITLE).format(name=_gate_name(model.layout, wh.gate))
            todo.append(("plate.gate", (ix, iy + (rh + gap if rh else 0), iw, gh),
                         wh.gate[1], name, wh.gate_idx, wh.gate_legs))
    return todo


def _gate_name(layout, shown: tuple = ("", None)) -> str:
    """The elsewhere scene's name: its gate's (賔門); of several, the shown one's."""
    if shown[0]:
        return shown[0]
    b = scene.elsewhere_bounds(layout)
    for f in layout.features:
        c = np.asarray(f.points, float).reshape(-1, 2).mean(axis=0)
        if (f.kind == "gate" and b is not None and b[0] <= c[0] <= b[2]
                and b[1] <= c[1] <= b[3]):
            return f.name
    return "賔門"


def _inset(model: Model, frame, set_out, name: str, box: Box, bounds, title: str,
           idx: list[int], found, px: float) -> tuple[list[Layer], _Marks]:
    """An inset of the plate: the plan within `bounds` (the range, the 賔's gate) in `box`,
    titled, with the people there and the moves made there."""
    ix, iy, iw, ih = box
    body = (ix, iy + round(px * 1.6), iw, ih - round(px * 1.6))
    icam = Camera(body, breaks=model.breaks)
    icam.fit(bounds, margin=10)
    iplan = [_inked(p) for p in scene.features(set_out)
             + scene.range_marks(model.layout, icam.breaks)]
    view = _people(model, frame, icam, idx, found, px * 0.9, body,
                   [text_box(p, icam) for p in iplan if isinstance(p, Text)])
    frame_prims: list[Primitive] = [
        Rect(box, None, INK, 1.0),
        Text((ix + 8, iy + px * 0.8), title, px * 0.9, INK, "w", screen=True)]
    return [Layer(f"{name}.plan", body, icam, tuple(iplan)),
            Layer(f"{name}.people", body, icam, tuple(view.prims)),
            Layer(f"{name}.frame", None, icam, tuple(frame_prims))], view


def _cut_by(prims, cam: Camera, box) -> tuple[float, float, float, float]:
    """How far (px: left, top, right, bottom) the words among prims that the frame `box` cuts
    run past it; 0 where none does. Words wholly outside it are not shown, not cut."""
    bx0, by0, bx1, by1 = box[0], box[1], box[0] + box[2], box[1] + box[3]
    out = [0.0, 0.0, 0.0, 0.0]
    for p in prims:
        if not isinstance(p, Text):
            continue
        x0, y0, x1, y1 = text_box(p, cam)
        if x1 <= bx0 or x0 >= bx1 or y1 <= by0 or y0 >= by1:
            continue
        over = (bx0 - x0, by0 - y0, x1 - bx1, y1 - by1)
        out = [max(o, v + 4.0) if v > 0 else o for o, v in zip(out, over)]
    return tuple(out)


def _plan_names(model: Model, cam: Camera, body_px: float, taken: list,
                layout=None, inside: labels.BoxT | None = None) -> list[Primitive]:
    """The hall's parts and the places by name, small and grey, each only where it is clear
    of the people, their names and the names already written."""
    out: list[Primitive] = []
    layout = layout or model.layout
    named = frozenset(f.name for f, _ in room_things(layout))  # named with the people
    texts = [p for p in scene.place_labels(things.shown(layout, named), cam.scale, places=True)
             if isinstance(p, Text)]
    boxes = np.empty((len(taken) + len(texts), 4))
    boxes[:len(taken)] = np.asarray(list(taken), float).reshape(-1, 4)
    n = len(taken)
    px = body_px * 0.8
    for p in texts:
        (x, y), = cam.to_screen_pts([p.pos])
        w, h = labels.text_size(p.text, px)
        fx, fy = _ANCHOR.get(p.anchor, (0.5, 0.5))
        box = (x - fx * w, y - fy * h, x - fx * w + w, y - fy * h + h)
        if labels.hits(box, boxes[:n], 0.5) or (inside is not None and not (
                inside[0] <= box[0] and box[2] <= inside[2] and inside[1] <= box[1]
                and box[3] <= inside[3])):
            continue  # over what is written, or cut by the plan's frame
        boxes[n] = box
        n += 1
        out.append(Text((x, y), p.text, px, GREY, p.anchor, screen=True))
    return out
