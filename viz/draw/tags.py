"""Tags: the words placed beside the people and things of the plan (a bow's 拜, what a person
holds, what he says in a bubble, the props set down by name, a formation's name), each where it
usually goes unless a token or a tag placed before it is there, then the nearest free place
with a leader line (viz.draw.labels places them). One pass a frame (`_tags`) serves
set_down_props, the people's tags (viz.draw.scene.actor_parts) and captions.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from viz.draw import dress, labels
from viz.draw.camera import ymap_for
from viz.draw.display import Line, Primitive, Text
from viz.draw.formations import _formations
from viz.draw.options import INK, LABEL, SceneOptions, detailed, facing_vector, token_radius
from viz.draw.person import BOW, BOW_HANDS, BOW_WORDS, HELD_SEP, _cols, _drawn_r, held_glyphs
from viz.draw.props import _set_down_objects, prop_tag, set_down_tags, thing_tag
from viz.draw.viewmemo import _memo, _ViewMemo
from viz.model.dress import moving
from viz.model.timeline import POSTURES

SPEECH = "「{}」"


@dataclass(frozen=True)
class _Tags:
    """The frame's tags, placed in one pass: props set down, props held and bows, speech."""

    set_down: list[Primitive]
    held: dict[int, list[Primitive]]  # by actor: bows and what he holds
    said: list[Primitive]
    groups: dict[int, int] = field(default_factory=dict)  # actor → his formation (lod)
    group_names: list[Primitive] = field(default_factory=list)  # a name a formation


_placed: list = []  # [(frame, options, timeline, _Tags)]: the last frame's pass, for its 3 users


def _tags(timeline, frame, o: SceneOptions) -> _Tags:
    """set_down_props, actors and captions each draw a part of one placement pass; compose
    calls the three with one frame, so the pass runs once per frame."""
    for fr, opt, tl, tags in _placed:
        if fr is frame and (opt is o or opt == o) and tl is timeline:
            return tags
    tags = _place_tags(timeline, frame, o)
    _placed[:] = [(frame, o, timeline, tags)]
    return tags


def _set_down_reqs(memo: _ViewMemo, timeline, frame, to_px, k: float) -> list[tuple]:
    """The requests of set_down_tags, looked up while no prop set down moved, came or went."""
    down = (frame.prop_holder < 0) & frame.prop_visible  # what set_down_tags reads
    key = (down.tobytes(), frame.prop_xy[down].tobytes())
    if memo.set_down is None or memo.set_down[0] != key:
        memo.set_down = (key, [("set_down", -1, t, _request(t, to_px, k, centred=True))
                               for t in set_down_tags(timeline, frame)])
    return memo.set_down[1]


# names of formations first, what is said (the biggest box, read first), then bows, then what is
# held
ORDER = {"thing": -2, "group": -1, "set_down": 0, "said": 1, "bow": 2, "held": 3}


def _place_tags(timeline, frame, o: SceneOptions) -> _Tags:
    """Every tag where it usually goes (a set-down prop on its spot, a held one right of the
    hand, a bow below-left, speech above) unless that box meets a token or a tag placed
    before it; then the nearest free place, with a leader line. Placed in a plane of pixels
    at the current zoom (drawn y, so breaks are respected), by viz.draw.labels.

    With lod: people whose tokens would overlap are one formation (dots, one name placed
    first); what is held is a glyph and what is set out an object, named only when zoomed in
    (`detailed`) or selected (`thing`: placed first, never left out); a tag that finds no free
    place is left out rather than drawn over a token."""
    k = max(o.px_per_chi, 1e-6)
    ymap = ymap_for(o.breaks)
    memo = _memo(timeline, o)

    def to_px(x: float, y: float) -> tuple[float, float]:
        # on whole pixels: a walker's boxes and tags change only when he crosses one, so
        # most frames the placement finds nothing moved (a tag shifts by under half a px)
        return float(round(x * k)), float(round(-ymap.fwd1(y) * k))

    def to_chi(px: float, py: float) -> tuple[float, float]:
        return px / k, float(ymap.inv(-py / k))

    r0 = token_radius(o)
    c = _cols(frame, o)
    groups, group_reqs, dots = (_formations(timeline, frame, c, o, memo) if o.lod
                                else ({}, [], []))
    tokens, people, glyphs = _people_reqs(memo, timeline, frame, c, o, to_px, groups)
    tokens += dots
    # (kind, actor, usual Text, request)
    reqs: list[tuple[str, int, Text, labels.Label]] = list(group_reqs)
    things, spots = _thing_reqs(memo, timeline, frame, o, to_px, k)
    reqs += things
    tokens += spots  # no name or count over a thing set out either
    for _, mine in people:
        reqs += mine
    if o.captions:
        reqs += _said_reqs(memo, timeline, frame, c, r0, to_px, k)
    reqs.sort(key=lambda q: ORDER[q[0]])  # stable: each kind keeps the cast's order
    keys = [(q[0], q[1], q[2].text) for q in reqs]
    bounds = None
    if o.lod and o.view is not None:  # names of formations stay inside the view
        x0, y0, x1, y1 = o.view
        (ax, ay), (bx, by) = to_px(x0, y1), to_px(x1, y0)
        bounds = (ax + 2, ay + 2, bx - 2, by - 2)
    placed = memo.placer.place([q[3] for q in reqs], tokens, bounds, keys=keys)
    out = _placed_prims(memo, keys, reqs, placed, o, r0, to_chi)
    _last_pass[bool(o.captions)] = _record(keys, reqs, placed, groups, tokens, o)
    held: dict[int, list[Primitive]] = {}
    for (kind, who), prims in out.items():
        if kind in ("bow", "held"):
            held.setdefault(who, []).extend(prims)
    return _Tags(glyphs + out.get(("set_down", -1), []) + out.get(("thing", -1), []), held,
                 [p for (kind, _), prims in out.items() if kind == "said" for p in prims],
                 groups, [p for (kind, _), prims in out.items() if kind == "group"
                          for p in prims])


def _people_reqs(memo: _ViewMemo, timeline, frame, c, o: SceneOptions, to_px,
                 groups: dict[int, int]) -> tuple[list[labels.BoxT], list, list[Primitive]]:
    """The present people's token boxes (not of a formation's members, drawn as dots), each
    one's tag requests (actor, [requests]) and what they hold as glyphs; a person's looked up
    while he stands, faces and holds as he did."""
    tokens: list[labels.BoxT] = []
    people: list[tuple[int, list]] = []
    glyphs: list[Primitive] = []
    kept = memo.people
    going = _going(timeline, frame)
    for i in range(len(timeline.actors)):
        if not c.present[i]:
            continue
        code = c.posture[i]
        key = (*c.xy[i], c.facing[i], code, c.count[i], c.phase[i] if code == BOW else 0.0,
               c.seated[i], frame.holding[i],
               going and tuple(p for p in frame.holding[i] if p in going))
        old = kept.get(i)
        if old is None or old[0] != key:
            old = kept[i] = (key, *_person(timeline, frame, i, o, to_px, c.xy[i]))
        if i not in groups:
            tokens += old[1]
        people.append((i, old[2]))
        glyphs += old[3]
    return tokens, people, glyphs


def _thing_reqs(memo: _ViewMemo, timeline, frame, o: SceneOptions, to_px,
                k: float) -> tuple[list[tuple], list[labels.BoxT]]:
    """The requests for props set down (with lod: the counts of clusters, and their names only
    zoomed in, or the thing selected), and with lod the boxes of the objects set out."""
    if not o.lod:
        return _set_down_reqs(memo, timeline, frame, to_px, k), []
    _, reqs, spots = _set_down_objects(memo, timeline, frame, o, to_px)
    reqs = list(reqs)  # (the objects are drawn with the plan: set_down_objects)
    if detailed(o):
        reqs += _set_down_reqs(memo, timeline, frame, to_px, k)
    elif o.thing is not None:  # the thing selected is named however far out
        tag = thing_tag(timeline, frame, o.thing)
        if tag is not None:
            reqs.append(("thing", -1, tag, _request(tag, to_px, k, centred=True)))
    return reqs, spots


def _said_reqs(memo: _ViewMemo, timeline, frame, c, r0: float, to_px, k: float) -> list[tuple]:
    """A speech bubble's request for each present speaker, above him."""
    reqs = []
    for i, text in frame.captions:
        if not (0 <= i < len(timeline.actors)) or not bool(frame.present[i]):
            continue
        x, y = c.xy[i]
        old = memo.said.get(i)
        if old is None or old[0] != (x, y, text):
            t = Text((x + 0.6 * r0, y + 2.2 * r0), SPEECH.format(text), 13, INK, "s",
                     bg=(255, 255, 250), border=INK)
            old = memo.said[i] = ((x, y, text),
                                  ("said", i, t, _request(t, to_px, k, r=r0 * k, at=(x, y))))
        reqs.append(old[1])
    return reqs


def _placed_prims(memo: _ViewMemo, keys, reqs, placed, o: SceneOptions, r0: float,
                  to_chi) -> dict[tuple[str, int], list[Primitive]]:
    """The primitives of the placed tags, by (kind, who); with lod a tag that found no free
    place is left out. A tag placed as before keeps its primitives (the same objects)."""
    out: dict[tuple[str, int], list[Primitive]] = {}
    tags: dict[tuple, tuple] = {}
    turns: dict[tuple, int] = {}
    for name, (kind, who, t, req), p in zip(keys, reqs, placed, strict=True):
        turns[name] = turn = turns.get(name, -1) + 1  # set-down tags of one name: by turn
        name = (name, turn)
        if o.lod and p.clash > 0 and kind not in ("group", "thing"):
            continue  # no free place: left out (the tooltip, a zoom or a selection tells it)
        old = memo.tags.get(name)
        if old is None or not ((old[0] is t or old[0] == t) and (old[1] is req or old[1] == req)
                               and (old[2] is p or old[2] == p)):
            old = (t, req, p, _tag_prims(kind, t, req, p, r0, to_chi))
        tags[name] = old
        out.setdefault((kind, who), []).extend(old[3])
    memo.tags = tags
    return out


@dataclass(frozen=True)
class Drawn:
    """A name the last frame drew, as placed (px of the view's plane: the screen's, moved)."""

    kind: str  # "group" (a formation's name), "held", "bow", "said", "set_down", "thing"
    who: tuple[int, ...]  # its people (a formation's members; one owner; none)
    text: str
    box: labels.BoxT
    anchor: tuple[float, float]


_last_pass: dict[bool, tuple[list[Drawn], list[labels.BoxT]]] = {}


def last_drawn(main: bool = True) -> tuple[list[Drawn], list[labels.BoxT]]:
    """The names the last frame drew in the main view (main) or the range inset, and its
    tokens' and dots' boxes: what tests/test_classroom_labels.py checks (a formation's name
    stands at its members, is one body's, meets no other name)."""
    return _last_pass.get(main, ([], []))


def forget_drawn(main: bool) -> None:
    """Nothing was drawn in that view this frame (nobody in it)."""
    _last_pass.pop(bool(main), None)


def _record(keys, reqs, placed, groups: dict[int, int], tokens, o: SceneOptions):
    members: dict[int, list[int]] = {}
    for i, g in groups.items():
        members.setdefault(g, []).append(i)
    by_first = {min(ms): tuple(sorted(ms)) for ms in members.values()}
    out = []
    for (kind, who, t, req), p in zip(reqs, placed, strict=True):
        if o.lod and p.clash > 0 and kind not in ("group", "thing"):
            continue  # left out, as _place_tags leaves it
        people = by_first.get(who, (who,)) if kind == "group" else ((who,) if who >= 0 else ())
        out.append(Drawn(kind, people, t.text, p.box, req.anchor))
    return out, list(tokens)


def _going(timeline, frame) -> frozenset[str]:
    """The ids of the worn things on their way between hands and wearer (don, doff): drawn
    there (dress.on_the_way), not in the hands."""
    if not (frame.values and "wear" in frame.values):
        return frozenset()
    return frozenset(timeline.props[p].id for p, *_ in moving(frame))


def _person(timeline, frame, i: int, o: SceneOptions, to_px,
            at: tuple[float, float]) -> tuple[list, list, list]:
    """One person's token boxes (disc, nose) in px, his tag requests (bow, held) and, with
    lod and not zoomed in, what he holds as glyphs; he stands `at` (his place in the view)."""
    k = max(o.px_per_chi, 1e-6)
    r0 = token_radius(o)
    x, y = at
    cx, cy = to_px(x, y)
    r = _drawn_r(frame, i, r0)
    fx, fy = facing_vector(float(frame.facing[i]))
    nx, ny = cx + fx * r * 1.6 * k, cy - fy * r * 1.6 * k
    boxes = [labels.circle_box(cx, cy, r * k),
             (min(cx, nx) - 0.55 * r * k, min(cy, ny) - 0.55 * r * k,
              max(cx, nx) + 0.55 * r * k, max(cy, ny) + 0.55 * r * k)]
    reqs: list = []
    code = int(frame.posture[i])
    if code == BOW:
        word = BOW_WORDS.get(int(frame.count[i]), BOW_WORDS[1])
        t = Text((x - r, y + r), word, 10, (150, 36, 30), "se", bg=(255, 248, 230))
        reqs.append(("bow", i, t, _request(t, to_px, k, r=r * k, at=(x, y))))
    elif code == BOW_HANDS:
        t = Text((x - r, y + r), POSTURES[BOW_HANDS], 10, (32, 54, 112), "se",
                 bg=(240, 244, 255))
        reqs.append(("bow", i, t, _request(t, to_px, k, r=r * k, at=(x, y))))
    held: dict[str, int] = {}
    going = _going(timeline, frame)
    for pid in frame.holding[i]:
        if pid in going:  # drawn on its way to the head (dress.on_the_way)
            continue
        j = timeline.prop_index.get(pid)
        # in hand, the kind's last character is enough (乘矢 → 矢); set down, the full name
        name = (timeline.props[j].name if j is not None else pid)[-1:]
        if name == "弓" and dress.bow_state(timeline, frame, pid) == "弛":
            name = "弛弓"  # unstrung (執弛弓)
        held[name] = held.get(name, 0) + 1
    if held and not detailed(o) and i != o.selected:
        return boxes, reqs, held_glyphs(x, y, float(frame.facing[i]), r, held, k, o.ui)
    if held:
        # one tag a person (弓·矢×4): two tags a hand crowd a column of archers
        t = prop_tag(x + r0 + 0.2 * r0, y, HELD_SEP.join(
            name if c == 1 else f"{name}×{c}" for name, c in held.items()), anchor="w")
        reqs.append(("held", i, t, _request(t, to_px, k, r=r0 * k, at=(x, y))))
    return boxes, reqs, []



def _tag_prims(kind: str, t: Text, req: labels.Label, p: labels.Placed, r0: float,
               to_chi) -> list[Primitive]:
    """A placed tag: its Text where it usually goes (speech with a tail), or moved to its
    box, with a leader line when away from its owner."""
    mine: list[Primitive] = []
    if p.choice == 0 and req.first is not None:
        if kind == "said":  # the bubble's tail, from the speaker's head to its foot
            x, y = to_chi(*req.anchor)
            mine.append(Line(((x, y + r0), t.pos), INK, 1.0))
        mine.append(t)
        return mine
    cx, cy = p.center
    if p.displaced or kind == "said":
        a, b = labels.leader(req.anchor, p.box, req.r)
        mine.append(Line((to_chi(*a), to_chi(*b)), t.border or LABEL, 1.0))
    mine.append(replace(t, pos=to_chi(cx, cy), anchor="c"))
    return mine


def _text_px(t: Text, k: float) -> float:
    if t.unit == "chi":
        return round(min(max(t.size * k, t.min_px), t.max_px))
    return round(t.size)


_FRAC = {"c": (0.5, 0.5), "n": (0.5, 0.0), "s": (0.5, 1.0), "e": (1.0, 0.5), "w": (0.0, 0.5),
         "ne": (1.0, 0.0), "nw": (0.0, 0.0), "se": (1.0, 1.0), "sw": (0.0, 1.0)}


def _request(t: Text, to_px, k: float, r: float = 0.0, at: tuple[float, float] | None = None,
             centred: bool = False) -> labels.Label:
    """A placement request for a Text: its usual box first, then around `at` (its owner)."""
    pad = 2 if t.bg is not None or t.border is not None else 0
    w, h = labels.text_size(t.text, _text_px(t, k), pad)
    px, py = to_px(*t.pos)
    fx, fy = _FRAC.get(t.anchor, (0.5, 0.5))
    first = (px - fx * w, py - fy * h, px - fx * w + w, py - fy * h + h)
    anchor = to_px(*at) if at is not None else (px, py)
    return labels.Label(anchor, w, h, r=r, first=first, centred=centred)


def set_down_props(timeline, frame, o: SceneOptions) -> list[Primitive]:
    """The tags of props set down, on their spot unless a token or another tag is there."""
    return _tags(timeline, frame, o).set_down


def captions(timeline, frame, o: SceneOptions) -> list[Primitive]:
    """Speech bubbles: the words said, above the speaker (or the nearest free place), with a
    tail to him."""
    if not o.captions:
        o = replace(o, captions=True)
    return _tags(timeline, frame, o).said
