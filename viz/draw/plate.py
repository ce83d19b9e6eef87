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
viz.draw.labels.place_clear: none overlaps another name, anyone's mark or a wall; a name pushed
off its spot has a leader line, run clear of the names already down where it can be. Arrows
lying about are drawn as arrows where they lie, with one count a cluster. Who stands down the range, and
who is at the 賔's own gate (the layout's elsewhere scene) while the plan shows the school, is
drawn in an inset beside the plan, with the moves made there. `screen` is the window's look
(viz.draw.compose) with the trails drawn over it.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from viz.draw import dress, hud, labels, scene, things
from viz.draw import trails as trails_mod  # `trails` is also the parameter naming the mode
from viz.draw.camera import Camera
from viz.draw.compose import Model, View, compose, view_kind
from viz.draw.display import (
    Box,
    Circle,
    Color,
    Layer,
    Line,
    Polygon,
    Primitive,
    Rect,
    Sprite,
    Text,
)
from viz.base.lang import tr
from viz.draw.scene import literal
from viz.query.words import clause_said

PAPER: Color = (250, 246, 236)
INK: Color = (28, 24, 20)
GREY: Color = (120, 110, 98)
ZHU: Color = (176, 48, 32)  # 朱: the moves, as a teacher marks a printed plate in red
ZHU_FAINT: Color = (222, 160, 148)
STYLES = ("plate", "screen")
TRAILS = ("step", "stage", "none")
DEFAULT_SIZE = (1600, 1130)  # A4 landscape at about 137 dpi
A4_MM = (297.0, 210.0)

# The words a plate writes besides the model's (the font check reads them)
TITLE = "{stage}圖"
PART = "{title}（{n}／{of}）"
ELSEWHERE_TITLE = "{name}（在他處）"
STEP_NOTE = "{kind} {id} · 頁 {page}"
INSET_TITLE = "侯道 · 乏 · 侯（中斷處見鋸齒）"
MOVES = "行位"
FOLLOW = "{name}之行"
WHO = "{cite}（{names}）"
LIST_SEP = "、"
MORE = "等"
SPAN = "{a}–{b}"
OMITTED = "{span} 略"
ELLIPSIS = "…"
ARROW = "矢"
COUNT = "{name}×{n}"
LEGEND = ("立", "坐", "面向", "始", "行至", "次第（依經文）", "袒")
TEXTS: tuple[str, ...] = tuple(literal(t) for t in (TITLE, PART, ELSEWHERE_TITLE, STEP_NOTE,
                                                    INSET_TITLE, MOVES, FOLLOW, WHO, LIST_SEP,
                                                    MORE, ARROW, COUNT, SPAN, OMITTED, ELLIPSIS, *LEGEND))
HALL_NEAR = 8.0  # 尺: who stands this near the 堂 is at the 堂 (the plan shows it whole)
MIN_SPAN = 40.0  # 尺: the least width and depth of the ground a plan shows
PLAN_PAD = 4.0  # 尺 of ground the plan shows beyond the 堂 and the outermost people and moves
MAX_MOVES = 25  # numbered moves a stage plate holds; a busier stage is split into parts
PRINT_H_MM = 183.0  # the height a plate is printed at in the atlas (A4 landscape, less margins)
LIST_MM = 3.0  # the move list's smallest type, printed (mm): a class reads it at arm's length


def list_min_px(height: float) -> float:
    """The move list's smallest type (px) on a plate `height` px high: LIST_MM printed."""
    return LIST_MM * height / PRINT_H_MM


@dataclass(frozen=True)
class Part:
    """A stage plate: the stage, the steps whose moves it draws and numbers (first..last), and
    which of the stage's plates it is (number of `of`). Its moment is the end of step `last`."""

    stage: int
    first: int
    last: int
    number: int = 1
    of: int = 1

    def moment(self, timeline) -> float:
        """When the plate is drawn (closing): the end of its last step."""
        return timeline.steps[self.last].t1 if timeline.steps else 0.0


def stage_parts(timeline, stage: int, corpus=None, limit: int = MAX_MOVES) -> list[Part]:
    """A stage's plates: one when it has at most `limit` numbered moves (a number for each step
    in which someone walks), else as few parts as hold them, cut between steps near equal
    shares, where the text's clause changes if one does close by (a phase of the rite), each
    part running up to the next one's first move. Every step belongs to one part."""
    s = timeline.stages[stage]
    steps = list(range(s.first_step, s.last_step + 1))
    whole = [Part(stage, s.first_step, s.last_step)]
    if not steps:
        return whole
    moving = sorted({g.step for g in trails_mod.legs(timeline, steps)})
    n = math.ceil(len(moving) / limit) if moving else 1
    if n <= 1:
        return whole

    def clause(k: int):
        st = timeline.steps[k]
        cl = corpus.clause_at(st.span[0]) if corpus is not None else None
        return cl.id if cl is not None else st.cite

    cuts, prev = [], 0
    for j in range(1, n):
        ideal = round(j * len(moving) / n)
        fits = [c for c in range(prev + 1, len(moving))
                if c - prev <= limit and len(moving) - c <= limit * (n - j)]
        c = min(fits, key=lambda c: (abs(c - ideal) > 3 or clause(moving[c - 1])
                                     == clause(moving[c]), abs(c - ideal), c))
        cuts.append(c)
        prev = c
    firsts = [s.first_step] + [moving[c] for c in cuts]
    lasts = [k - 1 for k in firsts[1:]] + [s.last_step]
    return [Part(stage, a, b, i + 1, n) for i, (a, b) in enumerate(zip(firsts, lasts))]


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


def _numbers(found, cam: Camera, taken: list, bounds, px: float = 12.0,
             words: Sequence[labels.BoxT] = ()) -> tuple[list[Primitive], list]:
    """The move numbers beside each start, placed clear of what is already down. People who
    set off together (one number, starts close by) share one number, as a drill chart writes
    a set once for a block of marchers."""
    reqs, texts = [], []
    starts: dict[int, list[tuple[float, float]]] = {}
    for g in found:
        (x, y), = cam.to_screen_pts([tuple(g.points[0])])
        text = str(g.number)
        w, h = labels.text_size(text, px, pad=2)
        mine = starts.setdefault(g.number, [])
        if any(abs(x - a) < 2.5 * h and abs(y - b) < 2.5 * h for a, b in mine):
            continue
        mine.append((x, y))
        reqs.append(labels.Label((x, y), w, h, r=4.5))
        texts.append(text)
    placed = labels.place_clear(reqs, taken, _inner(bounds), words=words)
    out: list[Primitive] = []
    for text, req, p in zip(texts, reqs, placed):
        cx, cy = p.center
        if p.displaced:
            a, b = labels.leader(req.anchor, p.box, req.r)
            out.append(Line((a, b), ZHU_FAINT, 1.0, screen=True))
        out.append(Text((cx, cy), text, px, PAPER, "c", bg=ZHU, screen=True))
    return out, [p.box for p in placed]


def _inner(box) -> labels.BoxT:
    x, y, w, h = box
    return (x + 2, y + 2, x + w - 2, y + h - 2)


# ------------------------------------------------------------------ the plate style

def _ink(c: Color | None) -> Color | None:
    """A colour of the window's plan as ink on paper: reds stay 朱, light tones become a wash
    of the paper, the rest shades of ink by their lightness."""
    if c is None:
        return None
    r, g, b = c[:3]
    if r > g + 70 and r > b + 70:
        return ZHU
    lum = 0.3 * r + 0.59 * g + 0.11 * b
    if lum > 225:
        return PAPER
    if lum > 185:  # the hall's floor, mats, stairs: a pale wash, so the lines carry the plan
        return (238, 232, 216)
    k = min(max((lum - 40) / 150, 0.0), 1.0) * 0.55
    return tuple(round(i + (p - i) * k) for i, p in zip(INK, PAPER))


def _inked(p: Primitive) -> Primitive:
    if isinstance(p, Circle):
        return replace(p, fill=_ink(p.fill), stroke=_ink(p.stroke))
    if isinstance(p, Polygon):
        return replace(p, fill=_ink(p.fill), stroke=_ink(p.stroke))
    if isinstance(p, Line):
        return replace(p, color=_ink(p.color))
    if isinstance(p, Text):
        return replace(p, color=_ink(p.color) if p.color != scene.WHITE else PAPER,
                       bg=_ink(p.bg), border=_ink(p.border))
    return p


@dataclass(frozen=True)
class _Frame:
    """Where things go on the page."""

    page: Box
    map: Box
    side: Box
    title_y: float
    px: float  # the body text size
    insets: Box | None = None  # the column of insets (the range, the 賔's gate) beside the plan


def _page(size, wide: bool = False, insets: bool = False) -> _Frame:
    """The page: the plan, a column of insets when there are any, the text column (wider on a
    stage plate, which carries the stage's whole text)."""
    w, h = size
    m = round(min(w, h) * 0.035)
    px = max(12.0, round(min(w, h) / 70))
    title_h = round(px * 3.2)
    side_w = round(w * (0.34 if wide else 0.24))
    inset_w = round(w * 0.2) if insets else 0
    page = (m, m, w - 2 * m, h - 2 * m)
    body_h = h - 2 * m - title_h - 8
    mp = (m + 8, m + title_h, w - 2 * m - side_w - 24 - inset_w, body_h)
    ins = (mp[0] + mp[2] + 8, m + title_h, inset_w - 16, body_h) if insets else None
    side = (w - m - side_w - 8, m + title_h, side_w - 8, body_h)
    return _Frame(page, mp, side, m + title_h / 2, px, ins)


def _in_elsewhere(model: Model, pts: np.ndarray) -> np.ndarray:
    """Which points stand in the elsewhere scene (the 賔's gate)."""
    b = model.elsewhere
    if b is None or not len(pts):
        return np.zeros(len(pts), bool)
    pad = 12.0
    return ((pts[:, 0] >= b[0] - pad) & (pts[:, 0] <= b[2] + pad) & (pts[:, 1] >= b[1] - pad)
            & (pts[:, 1] <= b[3] + pad))


def _bounds(model: Model, frame, found) -> scene.Bounds:
    """What the plan shows: the whole 堂 (its width and depth, whoever stands there) and
    everyone present at the school north of the range with the ends of the moves drawn there,
    with a margin; not the empty court around them (the range has its own inset); the 賔's
    gate instead while the rite is there."""
    if view_kind(model, frame) == "elsewhere":
        return model.elsewhere
    site = scene.site_bounds(model.layout)
    x0, _, x1, y1 = model.near
    y0 = _range_top(model)
    halls = [np.asarray(f.points, float).reshape(-1, 2) for f in model.layout.features
             if f.kind == "hall"]
    hall = (np.vstack(halls) if halls
            else np.array([[site[0], site[1]], [site[2], site[3]]]))
    # who stands in the school, and where the moves start and end (a walk out to the range is
    # drawn as far as the plan goes, and on in the range's inset)
    pts = [frame.xy[frame.present]] + [g.points[[0, -1]] for g in found]
    a = np.vstack(pts)
    a = a[(a[:, 0] >= x0) & (a[:, 0] <= x1) & (a[:, 1] >= y0) & (a[:, 1] <= y1)]
    hall = hall[:, :2]
    hx0, hy0 = hall.min(axis=0)
    hx1, hy1 = hall.max(axis=0)
    on_hall = ((a[:, 0] >= hx0 - HALL_NEAR) & (a[:, 0] <= hx1 + HALL_NEAR)
               & (a[:, 1] >= hy0 - HALL_NEAR)) if len(a) else np.zeros(0, bool)
    if not len(a) or on_hall.any():
        a = np.vstack([hall, a])  # someone on or by the 堂: the whole 堂, where the rite is
    else:
        # nobody on the 堂 (the 主人 alone in the court, back from the 賔's gate): the plan is
        # framed to them, with the 堂's edge above them when it is close, and no narrower
        # than MIN_SPAN (a plan four-fifths empty 堂 told nothing)
        if a[:, 1].max() >= hy0 - HALL_NEAR * 3:
            xs = np.clip([a[:, 0].min() - MIN_SPAN / 2, a[:, 0].max() + MIN_SPAN / 2], hx0, hx1)
            a = np.vstack([a, [[xs[0], hy0], [xs[1], hy0]]])
        cx, cy = (a.min(axis=0) + a.max(axis=0)) / 2
        half = np.maximum((a.max(axis=0) - a.min(axis=0)) / 2, MIN_SPAN / 2)
        a = np.vstack([a, [cx - half[0], cy - half[1]], [cx + half[0], cy + half[1]]])
    pad = PLAN_PAD
    return (float(a[:, 0].min()) - pad, float(a[:, 1].min()) - pad,
            float(a[:, 0].max()) + pad, float(a[:, 1].max()) + pad)


def _range_view(model: Model, frame, idx: list[int], found) -> scene.Bounds:
    """What the range inset shows: the range's length (from the first break to behind the
    侯), as wide as the 侯, the 乏, who stands there, the moves made there and the arrows
    lying there reach, with a margin."""
    b = model.range
    xs = [np.asarray(f.points, float).reshape(-1, 2)[:, 0] for f in model.layout.features
          if f.kind not in ("court", "wall", "range", "gate")
          and b[0] <= float(np.mean(np.asarray(f.points, float).reshape(-1, 2)[:, 0])) <= b[2]
          and b[1] <= float(np.mean(np.asarray(f.points, float).reshape(-1, 2)[:, 1])) <= b[3]]
    xs += [frame.xy[idx, 0]] if idx else []
    xs += [g.points[:, 0] for g in found]
    arrows = _arrows(model, frame)
    if len(arrows):
        arrows = arrows[_in_range(model, arrows)]
        xs.append(arrows[:, 0])
    a = np.concatenate(xs) if xs else np.array([b[0], b[2]])
    pad = 8.0
    return (max(b[0], float(a.min()) - pad), b[1], min(b[2], float(a.max()) + pad), b[3])


def _arrows(model: Model, frame) -> np.ndarray:
    """(k, 2) where the arrows set down lie (shot, fallen, leaning), one row an arrow."""
    props = model.timeline.props
    js = [j for j, p in enumerate(props) if p.name.endswith("矢")
          and int(frame.prop_holder[j]) < 0 and bool(frame.prop_visible[j])]
    return frame.prop_xy[js, :2].astype(float) if js else np.zeros((0, 2))


def _range_top(model: Model) -> float:
    """Where the range inset takes over from the plan: past the first break of the 侯道 (the
    ground by the gate, where people wait to come in, and the break itself stay in the plan)."""
    site = scene.site_bounds(model.layout)
    return model.breaks[0].south if model.breaks else site[1] - 20.0


def _in_range(model: Model, pts: np.ndarray, top: float | None = None) -> np.ndarray:
    """Which points stand in the range (south of what the main plan shows); `top` is
    _range_top(model), when the caller has it (it measures the whole site)."""
    b = model.range
    if b is None or not len(pts):
        return np.zeros(len(pts), bool)
    top = _range_top(model) if top is None else top
    return ((pts[:, 1] < top) & (pts[:, 0] >= b[0] - 10)
            & (pts[:, 0] <= b[2] + 10) & (pts[:, 1] >= b[1] - 10))


def _name_of(tl, frame, i: int) -> str:
    """The name a plate writes: the person's name, or the office he holds now (相 → 司正)."""
    a = tl.actors[i]
    now = frame.labels[i] if frame.labels else a.label
    return now if now and now != a.label else a.name


@dataclass
class _Marks:
    """What one view of a plate draws for the people, and the boxes its placement pass used."""

    prims: list[Primitive]
    labels: list[labels.BoxT]
    marks: list[labels.BoxT]


_ANCHOR = {"c": (0.5, 0.5), "n": (0.5, 0.0), "s": (0.5, 1.0), "e": (1.0, 0.5), "w": (0.0, 0.5),
           "ne": (1.0, 0.0), "nw": (0.0, 0.0), "se": (1.0, 1.0), "sw": (0.0, 1.0)}


def text_box(t: Text, cam: Camera) -> labels.BoxT:
    """The box (px) a Text takes under this camera, as labels.text_size estimates it."""
    (x, y), = [t.pos] if t.screen else cam.to_screen_pts([t.pos])
    px = t.size if t.unit != "chi" or t.screen else min(max(t.size * cam.scale, t.min_px),
                                                          t.max_px)
    pad = 2 if t.bg is not None or t.border is not None else 0
    w, h = labels.text_size(t.text, round(px), pad)
    fx, fy = _ANCHOR.get(t.anchor, (0.5, 0.5))
    return (x - fx * w, y - fy * h, x - fx * w + w, y - fy * h + h)


def _people(model: Model, frame, cam: Camera, idx: list[int], found, px: float,
            box: Box, avoid: Sequence[labels.BoxT] = ()) -> _Marks:
    """People as their names where they stand (a dot on the spot, a square when seated, a
    tick the way he faces), the props set down by name, the drill chart under them and its
    numbers; every name placed clear of every other and of every mark, with a paper halo so
    the plan's lines stop short of it."""
    tl = model.timeline
    marks: list[labels.BoxT] = []
    dots: list[Primitive] = []
    reqs: list[labels.Label] = []
    names: list[tuple[str, float, Color]] = []
    scr = cam.to_screen(frame.xy[idx]) if idx else np.zeros((0, 2))
    tick, npx = px * 0.9, px * 1.15
    obstacles = list(avoid)
    for i, (sx, sy) in zip(idx, scr):
        sx, sy = float(sx), float(sy)
        fx, fy = scene.facing_vector(float(frame.facing[i]))
        dx, dy = fx, -fy  # screen y runs down
        seated = int(frame.posture[i]) == scene.SIT or (len(frame.seated) > i
                                                       and bool(frame.seated[i]))
        if seated:
            s = 3.0
            dots.append(Polygon(((sx - s, sy - s), (sx + s, sy - s), (sx + s, sy + s),
                                 (sx - s, sy + s)), PAPER, INK, 1.5, screen=True))
        else:
            dots.append(dress.plate_dot(frame, i, sx, sy, INK)
                        or Circle((sx, sy), 2.6, INK, None, screen=True))
        tip = (sx + dx * tick, sy + dy * tick)
        dots.append(Line(((sx, sy), tip), INK, 2.0, screen=True))
        bow = dress.held_bow_state(tl, frame, i)
        if bow:  # his bow in his left hand, the arrows across its string (執弓, 挾矢)
            drawn = dress.held_bow(sx, sy, dx, dy, 2.6, 0.13 * px, strung=bow == "張",
                                   arrows=dress.arrows_held(tl, frame, i), ink=INK, screen=True)
            dots += drawn
            pts = [p for d in drawn for p in d.points]
            marks.append((min(p[0] for p in pts) - 1, min(p[1] for p in pts) - 1,
                          max(p[0] for p in pts) + 1, max(p[1] for p in pts) + 1))
        marks.append(labels.circle_box(sx, sy, 3.5))
        marks.append((min(sx, tip[0]) - 1.5, min(sy, tip[1]) - 1.5, max(sx, tip[0]) + 1.5,
                      max(sy, tip[1]) + 1.5))
        name = _name_of(tl, frame, i) + dress.plate_note(tl, frame, i)
        w, h = labels.text_size(name, npx)
        # behind him first: the tick in front stays clear
        reqs.append(labels.Label((sx, sy), w, h, r=4.0, order=labels.facing_order(dx, dy)))
        names.append((name, npx, INK))
    for g in found:
        (gx, gy), = cam.to_screen_pts([tuple(g.points[0])])
        marks.append(labels.circle_box(gx, gy, 4.5))
    inside = (box[0], box[1], box[0] + box[2], box[1] + box[3])
    glyphs, clusters = _arrow_clusters(_arrows(model, frame), cam, inside, px)
    dots += glyphs
    for (qx, qy), r, n in clusters:
        text = ARROW if n == 1 else COUNT.format(name=ARROW, n=n)
        w, h = labels.text_size(text, px * 0.85)
        obstacles.append(labels.circle_box(qx, qy, r))
        reqs.append(labels.Label((qx, qy), w, h, r=r + 1.0))
        names.append((text, px * 0.85, GREY))
    for p in scene.set_down_props(tl, frame, scene.SceneOptions()):
        if not isinstance(p, Text) or p.text.split("×")[0].endswith(ARROW):
            continue  # arrows: drawn where they lie, one count a cluster (above)
        (qx, qy), = cam.to_screen_pts([p.pos])
        if not (box[0] <= qx <= box[0] + box[2] and box[1] <= qy <= box[1] + box[3]):
            continue
        w, h = labels.text_size(p.text, px * 0.85)
        dots.append(Circle((qx, qy), 1.8, GREY, None, screen=True))
        marks.append(labels.circle_box(qx, qy, 2.0))
        reqs.append(labels.Label((qx, qy), w, h, r=2.5))
        names.append((p.text, px * 0.85, GREY))
    placed = labels.place_clear(reqs, [*marks, *obstacles], _inner(box))
    written: list[Primitive] = []
    for (name, size, col), req, p in zip(names, reqs, placed):
        if p.displaced:
            a, b = labels.leader(req.anchor, p.box, req.r)
            written.append(Line((a, b), GREY, 1.0, screen=True))
        written.append(Text(p.center, name, size, col, "c", screen=True, halo=PAPER))
    boxes = [p.box for p in placed]
    # moves along one corridor (the 三耦 up and down by the 西階) side by side, not on one line
    seen = trails_mod.lanes(trails_mod.clipped(found, cam, box), cam) if found else []
    # each move numbered where it is first seen: its start, or where it comes into the view
    # (a walk in from the far gate, or from the school to the 賔's gate)
    first: dict[tuple[int, int], trails_mod.Leg] = {}
    for g in seen:
        first.setdefault((g.number, g.actor), g)
    leads = [q for req, p in zip(reqs, placed) if p.displaced
             for q in labels.along(labels.leader(req.anchor, p.box, req.r))]
    nums, num_boxes = _numbers(list(first.values()), cam,
                               [*marks, *obstacles, *boxes, *leads], box, max(10.0, px * 0.8),
                               boxes)
    moves = trails_mod.drill(seen, cam.scale, ZHU, ZHU_FAINT) if seen else []
    return _Marks(moves + dots + written + nums, boxes + num_boxes, marks)


def _arrow_clusters(xy: np.ndarray, cam: Camera, inside: labels.BoxT, px: float
                    ) -> tuple[list[Primitive], list[tuple[tuple[float, float], float, int]]]:
    """The arrows lying within `inside` (px) drawn as arrows where they lie (a short shaft
    with a head, turned a little each, so a heap reads as several), and their clusters: arrows
    within about a name's height of one another on the page are one cluster, counted once —
    (centre px, radius px, how many)."""
    if not len(xy):
        return [], []
    scr = cam.to_screen(xy)
    ok = ((scr[:, 0] >= inside[0]) & (scr[:, 0] <= inside[2]) & (scr[:, 1] >= inside[1])
          & (scr[:, 1] <= inside[3]))
    scr = scr[ok]
    out: list[Primitive] = []
    size = max(5.0, px * 0.45)
    spots: dict[tuple[int, int], int] = {}
    for x, y in scr:
        key = (round(x), round(y))
        k = spots.get(key, 0)
        spots[key] = k + 1
        if k >= 3:  # a sheaf on one spot: three drawn say it
            continue
        ang = math.radians(60 + 35 * k + 23 * (int(x + y) % 5))
        dx, dy = math.cos(ang) * size, -math.sin(ang) * size
        tip = (x + dx, y + dy)
        hx, hy = dx * 0.45, dy * 0.45
        out += [Line(((x - dx, y - dy), tip), GREY, 1.3, screen=True),
                Line(((tip[0] - hx - hy * 0.6, tip[1] - hy + hx * 0.6), tip,
                      (tip[0] - hx + hy * 0.6, tip[1] - hy - hx * 0.6)), GREY, 1.3,
                     screen=True)]
    # one cluster: arrows chained by gaps under `reach` px (single linkage)
    reach = px * 1.3
    n = len(scr)
    group = list(range(n))

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i

    if n:
        d = np.hypot(scr[:, None, 0] - scr[None, :, 0], scr[:, None, 1] - scr[None, :, 1])
        for i, j in zip(*np.nonzero(np.triu(d < reach, 1))):
            group[root(int(i))] = root(int(j))
    members: dict[int, list[int]] = {}
    for i in range(n):
        members.setdefault(root(i), []).append(i)
    clusters = []
    for ids in members.values():
        pts = scr[ids]
        c = pts.mean(axis=0)
        r = float(np.hypot(*(pts - c).T).max()) + size
        clusters.append(((float(c[0]), float(c[1])), r, len(ids)))
    return out, clusters


def _plate(model: Model, t: float, closing: bool, size, found, follow: int | None,
           part: Part | None = None, about: str | None = None) -> Plate:
    tl = model.timeline
    frame = tl.sample(t, closing)
    idx = [int(i) for i in np.nonzero(frame.present)[0]]
    top = _range_top(model)
    none = np.zeros(len(idx), bool)
    # the plan shows the school; who stands down the range, or at the 賔's gate while the
    # plan shows the school, is drawn in an inset beside it, with the moves made there
    away = view_kind(model, frame) == "elsewhere"
    far = _in_range(model, frame.xy[idx], top) if idx else none
    gone = _in_elsewhere(model, frame.xy[idx]) if idx and not away else none
    in_range = [bool(_in_range(model, g.points, top).all()) for g in found]
    at_gate = [not away and bool(_in_elsewhere(model, g.points).any()) for g in found]
    far_legs = [g for g, r in zip(found, in_range) if r]
    gate_legs = [g for g, e in zip(found, at_gate) if e]
    near_legs = [g for g, r in zip(found, in_range)
                 if not r and (away or not _in_elsewhere(model, g.points).all())]
    far_idx = [i for i, f in zip(idx, far) if f]
    gate_idx = [i for i, g, f in zip(idx, gone, far) if g and not f]
    main_idx = [i for i, g, f in zip(idx, gone, far) if not g and not f]
    want_range = model.range is not None and bool(far_idx or far_legs)
    want_gate = model.elsewhere is not None and bool(gate_idx or gate_legs)
    bounds = _bounds(model, frame, near_legs)
    rng = _range_view(model, frame, far_idx, far_legs) if want_range else None
    pg, row, margin = _arrange(model, size, part is not None, bounds, want_range or want_gate)
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
    main = _people(model, frame, cam, main_idx, near_legs, pg.px, pg.map, written)
    # place and feature names last, only where they are clear of everything above
    plan += _plan_names(model, cam, pg.px, [*main.marks, *main.labels], set_out,
                        _inner(pg.map))
    title, words, page = _title(model, t, closing, about)
    if part is not None and part.of > 1:
        title = PART.format(title=title, n=part.number, of=part.of)
    side = _side(model, t, closing, pg, words, page, found, follow, pg.side[3], cam, part,
                 about)
    wx = pg.page[0] + 24 + labels.text_size(title, pg.px * 2.0)[0] + pg.px
    head = [Text((pg.page[0] + 24, pg.title_y), title, pg.px * 2.0, INK, "w", screen=True),
            Text((wx, pg.title_y), _fit(words, pg.px * 1.3, pg.page[0] + pg.page[2] - 24 - wx),
                 pg.px * 1.3, INK, "w", screen=True),
            Line(((pg.page[0] + 5, pg.map[1] - 6), (pg.page[0] + pg.page[2] - 5, pg.map[1] - 6)),
                 INK, 1.0, screen=True)]
    layers = [Layer("paper", None, cam, tuple(base)),
              Layer("plate.plan", pg.map, cam, tuple(plan)),
              Layer("plate.people", pg.map, cam, tuple(main.prims)),
              Layer("plate.text", None, cam, tuple(head + side))]
    boxes, marks = list(main.labels), list(main.marks)
    todo = []
    if row is not None:  # side by side under the plan, each as wide as its ground drawn
        ix, iy, iw, ih = row
        gap = round(pg.px)
        share = (iw - gap) / 2 if want_range and want_gate else iw
        x0 = ix
        for want, where, name, head_, who, legs_ in (
                (want_range, rng, "plate.inset", tr(INSET_TITLE), far_idx, far_legs),
                (want_gate, model.elsewhere, "plate.gate",
                 tr(ELSEWHERE_TITLE).format(name=_gate_name(model.layout)), gate_idx, gate_legs)):
            if want:
                bw = _inset_width(model, where, share, ih, pg.px)
                todo.append((name, (x0, iy, bw, ih), where, head_, who, legs_))
                x0 += bw + gap
    elif pg.insets is not None:
        ix, iy, iw, ih = pg.insets
        gap = round(pg.px)
        # each inset as tall as its ground drawn the column's width (the range at most 0.62 of
        # the column when the 賔's gate is drawn under it)
        rh = _inset_height(model, rng, iw, ih * (0.62 if want_gate else 1.0),
                           pg.px) if want_range else 0
        gh = _inset_height(model, model.elsewhere, iw, ih - rh - gap,
                           pg.px) if want_gate else 0
        if want_range:
            todo.append(("plate.inset", (ix, iy, iw, rh), rng, tr(INSET_TITLE), far_idx,
                         far_legs))
        if want_gate:
            name = tr(ELSEWHERE_TITLE).format(name=_gate_name(model.layout))
            todo.append(("plate.gate", (ix, iy + (rh + gap if rh else 0), iw, gh),
                         model.elsewhere, name, gate_idx, gate_legs))
    for name, box, where, head_, who, legs_ in todo:
        more, view = _inset(model, frame, set_out, name, box, where, head_, who, legs_, pg.px)
        layers += more
        boxes += view.labels
        marks += view.marks
    return Plate(tuple(layers), size, f"{title} {words}".strip(), tuple(boxes), tuple(marks))


def _drawn(model: Model, bounds) -> tuple[float, float]:
    """The plan's ground as drawn (尺, the range's breaks taken out): width, depth."""
    cam = Camera((0, 0, 100, 100), breaks=model.breaks)
    d0, d1 = (float(cam.ymap.fwd(bounds[1])), float(cam.ymap.fwd(bounds[3])))
    return max(bounds[2] - bounds[0], 1e-6), max(d1 - d0, 1e-6)


def _walls(layout, cam: Camera) -> list[labels.BoxT]:
    """The boxes (px) of the walls and the stairs drawn on the plan: no name is written over
    them (a name over a stair hid the treads a reader counts the 等 by)."""
    out = []
    for f in layout.features:
        if f.kind == "wall":
            pts = cam.to_screen(np.asarray(f.points, float).reshape(-1, 2))
            out.append((*pts.min(axis=0), *pts.max(axis=0)))
    for st in getattr(layout, "stairs", ()):
        x0, y0, x1, y1 = st.rect
        pts = cam.to_screen(np.asarray([(x0, y0), (x1, y1)], float))
        out.append((*pts.min(axis=0), *pts.max(axis=0)))
    return [tuple(float(v) for v in b) for b in out]


def _north_up(model: Model, box: Box, bounds, margin: float) -> Box:
    """The part of the plan's box its ground fills at the largest scale, at the box's top (a
    plan narrower than deep leaves the room under it, not above the 堂)."""
    x, y, w, h = box
    bw, bh = _drawn(model, bounds)
    k = min((w - 2 * margin) / bw, (h - 2 * margin) / bh)
    return (x, y, w, min(h, bh * k + 2 * margin))


def _arrange(model: Model, size, wide: bool, bounds, insets: bool):
    """The page's frame, the row under the plan for the insets (or None: a column beside it,
    or no insets), and the plan's margin (px): the plan at the largest scale its ground
    fits. With insets, under the plan when that draws it no smaller than beside it (the row
    at least a quarter of the page's body), else in a column beside it."""
    pg = _page(size, wide=wide)
    margin = round(pg.px * 2.5)  # room for a name beside the outermost people
    bw, bh = _drawn(model, bounds)

    def scale(w: float, h: float) -> float:
        return min((w - 2 * margin) / bw, (h - 2 * margin) / bh)

    if not insets:
        return pg, None, margin
    mx, my, mw, mh = pg.map
    least = max(mh * 0.25, pg.px * 14)
    under = scale(mw, mh - least - pg.px * 0.5)
    col = _page(size, wide=wide, insets=True)
    beside = scale(col.map[2], col.map[3])
    if under < beside:
        return col, None, margin
    need = math.ceil(bh * under + 2 * margin)
    row = (mx, my + need + pg.px * 0.5, mw, mh - need - pg.px * 0.5)
    return replace(pg, map=(mx, my, mw, need)), row, margin


def _inset_height(model: Model, bounds, width: float, most: float, px: float) -> int:
    """The height of an inset `width` wide that shows `bounds` whole at the largest scale,
    with its title; at most `most`."""
    head = round(px * 1.6)
    cam = Camera((0, 0, width, 10 * most), breaks=model.breaks)
    cam.fit(bounds, margin=10)
    (_, y0), (_, y1) = cam.to_screen_pts([(bounds[0], bounds[3]), (bounds[2], bounds[1])])
    return round(min(abs(y1 - y0) + 20 + head, most))


def _inset_width(model: Model, bounds, most: float, height: float, px: float) -> int:
    """The width of an inset `height` tall that shows `bounds` whole at the largest scale, and
    room for its title; at most `most`."""
    head = round(px * 1.6)
    cam = Camera((0, 0, 10 * most, height - head), breaks=model.breaks)
    cam.fit(bounds, margin=10)
    (xa, _), (xb, _) = cam.to_screen_pts([(bounds[0], bounds[3]), (bounds[2], bounds[1])])
    return round(min(max(abs(xb - xa) + 20, px * 16), most))


def _gate_name(layout) -> str:
    """The elsewhere scene's name: its gate's (賔門)."""
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
    texts = [p for p in scene.place_labels(layout or model.layout, cam.scale, places=True)
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


def _side(model: Model, t: float, closing: bool, pg: _Frame, words: str, page: str, found,
          follow: int | None, height: float, cam: Camera,
          part: Part | None = None, about: str | None = None) -> list[Primitive]:
    """The column beside the plan: the clause cited (經), its 注, the page, and the numbered
    moves with the words each enacts; on a stage plate, the stage's whole text (its sections'
    經 and 記, punctuated) instead of the one clause, the clauses it enacts in 朱."""
    x, y, w, full = pg.side
    h = height
    out: list[Primitive] = [Line(((x - 10, y), (x - 10, y + full)), INK, 1.0, screen=True)]
    px = pg.px
    cy = y + 6
    tl = model.timeline
    step = tl.steps[tl.step_at(t, closing)] if tl.steps else None
    clause = clause_said(model.corpus, step, about)
    if part is not None and model.corpus is not None:
        # the text takes what the move list (a line a row at the smallest type it may take),
        # the scale and the legend leave, and at most half the column
        rows = len(_gathered(tl, found))
        k = px * 0.85
        least = list_min_px(pg.page[3] + 2 * pg.page[1])
        below = (2 * k * 1.9 + k) + k * 4.6 + px * 0.6 + (px * 1.7 + (rows + 0.5) * least * 1.55
                                                         if rows else 0)
        text, cy = _stage_text(model, part, x, cy, w, px, min(y + h * 0.5, y + h - below))
        out += text
        words, clause = "", None
    # a line may overhang by a closing mark it keeps (kinsoku): wrap one em short
    for line in hud.wrap(words, px * 1.2, w - px * 1.2) if words else ():
        out.append(Text((x, cy), line, px * 1.2, INK, "nw", screen=True))
        cy += px * 1.2 * 1.6
    if clause is not None:
        for note in clause.notes:
            for line in hud.wrap(note, px * 0.9, w - px * 0.9):
                out.append(Text((x, cy), line, px * 0.9, GREY, "nw", screen=True))
                cy += px * 0.9 * 1.55
    if clause is not None:
        out.append(Text((x, cy + 4), tr(STEP_NOTE).format(kind=clause.kind, id=clause.id,
                                                      page=page or "—"), px * 0.8,
                        GREY, "nw", screen=True))
        cy += px * 2.4
    legend, legend_h = _legend(x, y + h, px)
    out += legend
    h -= legend_h
    bar, bar_h = _scale(cam, model.layout.chi_m, x, y + h, w, px)
    out += bar
    h -= bar_h
    if found:
        head = tr(MOVES) if follow is None else tr(FOLLOW).format(name=tl.actors[follow].name)
        out.append(Text((x, cy), head, px, ZHU, "nw", screen=True))
        cy += px * 1.7
        one_step = len({g.step for g in found}) == 1
        # the frame as a step leaves it, for the names: sampled again only when the labels
        # have changed (a look-up in their channel), not for each of a stage's hundred steps
        ends: dict[int, object] = {}
        seen: dict[bytes, object] = {}
        ch = tl.channels.get("label")

        def at_end(k: int):
            if k not in ends:
                t1 = tl.steps[k].t1
                if ch is None:
                    ends[k] = tl.sample(t1, True)
                else:
                    li, lok = ch.lookup(len(tl.actors), t1, tl.step_at(t1, True))
                    key = np.where(lok, li, -1).tobytes()
                    if key not in seen:
                        seen[key] = tl.sample(t1, True)
                    ends[k] = seen[key]
            return ends[k]

        # rows in the text's order; numbers in a row whose words are the same (the script
        # splits one clause into several steps, the 三耦 shoot pair after pair) share one
        # row, "4–7", naming everyone who moves in them
        runs: list[tuple[int, int, tuple[str, str]]] = []
        for a, b, cite in _gathered(tl, found):
            # each as the plate writes him when his move ends (the 相 is not yet 司正), in
            # the cast's order
            mine = sorted({g.actor: g.step for g in found if a <= g.number <= b}.items())
            who = list(dict.fromkeys(_name_of(tl, at_end(k), i) for i, k in mine))
            names = LIST_SEP.join(who[:4]) + (MORE if len(who) > 4 else "")
            # one step: its words head the column already, so each number names who moves
            # following one person, naming him on every row says nothing
            # (the words, and who: kept whole when a row is cut to one line)
            if one_step:
                text = (names, "")
            elif follow is not None:
                text = (cite, "")
            else:
                text = (cite, WHO.format(cite="", names=names))
            runs.append((a, b, text))
        out += _move_rows(runs, x, cy, w, y + h, px, least=list_min_px(
            pg.page[3] + 2 * pg.page[1]))
    return out


CLOSERS = "」』）〕"


def _gathered(tl, found) -> list[tuple[int, int, str]]:
    """The move list's rows: (first number, last number, the words they enact), numbers in a
    row while their cited words are the same (one step's numbers each its own row)."""
    rows: list[tuple[int, int, str]] = []
    one_step = len({g.step for g in found}) == 1
    for n, cite in trails_mod.cites(tl, found):
        if rows and not one_step and rows[-1][2] == cite and rows[-1][1] == n - 1:
            rows[-1] = (rows[-1][0], n, cite)
        else:
            rows.append((n, n, cite))
    return rows


def stage_clauses(model: Model, part: Part) -> tuple[list, set[str]]:
    """The clauses of the sections a stage plate's stage enacts (經 and 記, in the text's
    order), and the ids of those its part's steps cite. The stage's own section is shown whole;
    of another section it cites (a 記 printed apart, as 張爾岐's 鄉飲酒禮 prints it at the end)
    only the clauses the stage cites."""
    tl, corpus = model.timeline, model.corpus
    s = tl.stages[part.stage]
    secs = {sec.index for k in range(s.first_step, s.last_step + 1)
            if (sec := corpus.section_at(tl.steps[k].span[0])) is not None}
    own = corpus.section_named(s.section)
    if not secs and own is not None:
        secs = {own.index}
    spans = [tl.steps[k].span for k in range(s.first_step, s.last_step + 1)]
    shown = [cl for cl in corpus.clauses if cl.section in secs
             and (own is None or own.index not in secs or cl.section == own.index
                  or any(cl.start < b and a < cl.end for a, b in spans))]
    cited: set[str] = set()
    for k in range(part.first, part.last + 1):
        a, b = tl.steps[k].span
        cited |= {cl.id for cl in shown if cl.start < b and a < cl.end}
    return shown, cited


def _stage_text(model: Model, part: Part, x: float, top: float, w: float, px: float,
                bottom: float) -> tuple[list[Primitive], float]:
    """The stage's whole text, the clauses the part enacts in 朱 and the rest in ink, each run
    of one colour a paragraph of its own (so no line mixes the two, which would need the font's
    own widths to set side by side), in the largest type that ends above `bottom` (and no
    smaller than 0.64 of the body's); and where it ends."""
    shown, cited = stage_clauses(model, part)
    runs: list[tuple[bool, str]] = []
    for cl in shown:
        words = cl.punct or cl.text
        if not runs:  # a clause cut inside a quotation: its closing mark closes nothing here
            words = words.lstrip(CLOSERS)
        mark = cl.id in cited
        if runs and runs[-1][0] == mark:
            runs[-1] = (mark, runs[-1][1] + words)
        else:
            runs.append((mark, words))
    if not runs:
        return [], top
    # whole pixels, as the back ends draw type
    for size in sorted({round(px * k) for k in (1.05, 0.95, 0.85, 0.78, 0.7, 0.64, 0.58)},
                       reverse=True):
        wrapped = [(mark, hud.wrap(words, size, w - size)) for mark, words in runs]
        if top + sum(len(ls) for _, ls in wrapped) * size * 1.55 <= bottom:
            break
    out: list[Primitive] = []
    cy = top
    # at the smallest type still too long (the move list keeps its room): the lines that fit,
    # the last ending in an ellipsis (the atlas prints the text whole after the plates)
    room = max(int((bottom - top) // (size * 1.55)), 1)
    for mark, lines in wrapped:
        for line in lines:
            room -= 1
            if room < 0:
                break
            if room == 0 and (line is not lines[-1] or (mark, lines) != wrapped[-1]):
                line = _fit(line + ELLIPSIS, size, w - size)
                if not line.endswith(ELLIPSIS):
                    line = line[:-1] + ELLIPSIS
            out.append(Text((x, cy), line, size, ZHU if mark else INK, "nw", screen=True))
            cy += size * 1.55
    return out, cy + px * 0.6


def _span(a: int, b: int) -> str:
    return str(a) if a == b else SPAN.format(a=a, b=b)


def _move_rows(runs: list[tuple[int, int, tuple[str, str]]], x: float, top: float, w: float,
               bottom: float, px: float, least: float = 0.0) -> list[Primitive]:
    """The numbered moves, each row its number(s) in 朱 and its words (the words cited, and
    who moves), in the room between top and bottom: smaller type down to `least` px (LIST_MM
    printed), then one line a row with the words cut short (who moves kept), before any row is
    left out; when even that does not hold them all, a last row says which numbers are left
    out."""
    def layout(size: float):
        tag = max(labels.text_size(_span(a, b), size * 0.85, pad=2)[0] for a, b, _ in runs)
        indent = tag + size * 0.6
        return indent, [(a, b, hud.wrap(words + who, size, w - indent - size))
                        for a, b, (words, who) in runs]

    def one_line(words: str, who: str, size: float, room: float) -> list[str]:
        line = hud.wrap(words + who, size, room)
        if len(line) == 1:
            return line
        left = room - labels.text_size(who + ELLIPSIS, size)[0]
        cut = hud.wrap(words, size, left)[0] if left > size * 2 else ""
        return [cut + ELLIPSIS + who]

    sizes = sorted({max(round(px * k, 1), least) for k in (1.2, 1.1, 1.0, 0.95, 0.85, 0.75,
                                                           0.7)}, reverse=True)
    for size in sizes:
        indent, wrapped = layout(size)
        if top + sum(len(ls) for *_, ls in wrapped) * size * 1.55 <= bottom:
            break
    else:  # one line a row, cut short, before any row is left out
        wrapped = [(a, b, one_line(words, who, size, w - indent - size))
                   for a, b, (words, who) in runs]
    out: list[Primitive] = []
    cy, step = top, size * 1.55
    for r, (a, b, lines) in enumerate(wrapped):
        rest = r + 1 < len(wrapped)
        # the row fits whole, with a line left for the note of what is left out if more follow
        if cy + (len(lines) + rest) * step > bottom:
            out.append(Text((x, cy), tr(OMITTED).format(span=_span(a, runs[-1][1])), size, GREY,
                            "nw", screen=True))
            break
        label = _span(a, b)
        tw = labels.text_size(label, size * 0.85, pad=2)[0]
        out.append(Text((x + tw / 2, cy + size * 0.75), label, size * 0.85, PAPER, "c", bg=ZHU,
                        screen=True))
        for line in lines:
            out.append(Text((x + indent, cy), line, size, INK, "nw", screen=True))
            cy += step
    return out


def _fit(words: str, px: float, width: float) -> str:
    """The words cut to `width` (px) with an ellipsis, for the title row: a clause of a text
    without 句讀 (張爾岐's 鄉飲酒禮) can run past the page; the column beside the plan has it
    whole."""
    if labels.text_size(words, px)[0] <= width:
        return words
    lo, hi = 0, len(words)
    while lo < hi:  # the longest head that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if labels.text_size(words[:mid] + ELLIPSIS, px)[0] <= width:
            lo = mid
        else:
            hi = mid - 1
    return words[:lo] + ELLIPSIS


def _scale(cam: Camera, chi_m: float, x: float, bottom: float, width: float,
           px: float) -> tuple[list[Primitive], float]:
    """The plan's scale bar (尺, and m) and its north arrow, in the column above the legend,
    where no wall or name runs through them; and the height they take."""
    k = px * 0.85
    chi = scene.nice_length(min(width * 0.55, 220.0) / cam.scale)
    w = chi * cam.scale
    y1 = bottom - k * 0.9  # the bar's foot
    x0 = x + k * 2.2  # the arrow stands left of it
    out: list[Primitive] = []
    for j in range(2):
        out.append(Polygon(((x0 + j * w / 2, y1 - 6), (x0 + (j + 1) * w / 2, y1 - 6),
                            (x0 + (j + 1) * w / 2, y1), (x0 + j * w / 2, y1)),
                           INK if j == 0 else PAPER, INK, 1.0, screen=True))
    out += [Text((x0, y1 - 8), "0", k * 0.9, INK, "s", screen=True),
            Text((x0 + w, y1 - 8), scene.SCALE_NOTE.format(chi=chi, m=chi * chi_m), k * 0.9,
                 INK, "s", screen=True)]
    nx = x + k * 0.6
    out += [Polygon(((nx, y1 - k * 2.4), (nx + k * 0.5, y1), (nx, y1 - k * 0.4),
                     (nx - k * 0.5, y1)), INK, INK, 1.0, screen=True),
            Text((nx, y1 - k * 2.5), scene.NORTH, k, INK, "s", screen=True)]
    return out, k * 4.6


def _legend(x: float, bottom: float, px: float) -> tuple[list[Primitive], float]:
    """What the marks mean, in two rows at the foot of the column; and its height."""
    k = px * 0.85
    row = k * 1.9
    top = bottom - 2 * row
    out: list[Primitive] = [Line(((x, top - k * 0.6), (x + k * 16, top - k * 0.6)), GREY, 1.0,
                                 screen=True)]
    y0, y1 = top + row * 0.5, top + row * 1.5
    # a column wide enough for the longest word that has another after it (English is longer)
    step = max(k * 5.2, max(labels.text_size(tr(LEGEND[i]), k)[0] for i in (0, 1, 2, 3, 4))
               + k * 2.8)
    # row one: standing, seated, facing
    out += [Circle((x + k * 0.5, y0), 2.6, INK, None, screen=True),
            Text((x + k * 1.3, y0), tr(LEGEND[0]), k, INK, "w", screen=True),
            Polygon(((x + step + k * 0.5 - 3, y0 - 3), (x + step + k * 0.5 + 3, y0 - 3),
                     (x + step + k * 0.5 + 3, y0 + 3), (x + step + k * 0.5 - 3, y0 + 3)),
                    PAPER, INK, 1.5, screen=True),
            Text((x + step + k * 1.3, y0), tr(LEGEND[1]), k, INK, "w", screen=True),
            Circle((x + 2 * step + k * 0.2, y0), 2.6, INK, None, screen=True),
            Line(((x + 2 * step + k * 0.2, y0), (x + 2 * step + k * 1.2, y0)), INK, 2.0,
                 screen=True),
            Text((x + 2 * step + k * 1.6, y0), tr(LEGEND[2]), k, INK, "w", screen=True),
            Circle((x + 3 * step + k * 0.5, y0), 3.3, dress.SKIN, INK, 1.3, screen=True),
            Text((x + 3 * step + k * 1.3, y0), tr(LEGEND[6]), k, INK, "w", screen=True)]
    # row two: where a move starts, the move, its number
    out += [Circle((x + k * 0.5, y1), 3.5, None, ZHU_FAINT, 1.5, screen=True),
            Text((x + k * 1.3, y1), tr(LEGEND[3]), k, INK, "w", screen=True),
            Line(((x + step, y1), (x + step + k * 1.6, y1)), ZHU, 1.5, dash=(2.0, 4.0),
                 screen=True),
            Polygon(((x + step + k * 2.2, y1), (x + step + k * 1.6, y1 - 3),
                     (x + step + k * 1.6, y1 + 3)), ZHU, ZHU, 1.0, screen=True),
            Text((x + step + k * 2.6, y1), tr(LEGEND[4]), k, INK, "w", screen=True),
            Text((x + 2 * step + k * 0.5, y1), "1", k * 0.9, PAPER, "c", bg=ZHU, screen=True),
            Text((x + 2 * step + k * 1.3, y1), tr(LEGEND[5]), k, INK, "w", screen=True)]
    return out, 2 * row + k
