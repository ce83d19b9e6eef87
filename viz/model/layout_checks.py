"""A layout checked: its structure against the schema (layout.schema.json, its $defs written
out in place), its numbers finite and in range, its rectangles the right way round, its gate,
stairs, names and places sound; every place walkable from the 堂 (the cause named when one is
cut off) and the lines of sight kept open. Each check reports to a Collector with the place in
the file. Called by viz.model.layout's loader, which hands the checks of walks and sight the
Layout it built (typed Any here: this module is imported by that one); imports viz.base,
viz.model.paths and the plan's shapes (layout_geometry).
"""
from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from decimal import Decimal
from functools import cache
from itertools import combinations
from typing import Any

import jsonschema
import numpy as np

from viz import LAYOUTS
from viz.base.errors import Collector, Loc
from viz.base.yamlsrc import YList, YMap, locate, numbers
from viz.model.layout_geometry import (
    _EDGE,
    Obstacle,
    Place,
    Rect,
    Stair,
    _at,
    _centre,
    _distances,
    _fmt,
    _grow,
    _overlap,
    _rect_distance,
    _rect_of,
    _touch,
)
from viz.model.paths import Planner, hit_matrix

SCHEMA_PATH = LAYOUTS / "layout.schema.json"

# The places the drinking rite's patterns name are no longer required of every layout: each
# pattern library file of assets/patterns lists those it needs (its `places:`), and a rite
# that uses one of its patterns is checked against them (viz.model.script.patterns). Kept as
# the list the bundled 州序 and 庠 share, for the tests and docs that compare against it.
REQUIRED_PLACES = (
    "堂", "堂廉", "東序", "西序", "東序端", "西序端", "東楹", "西楹", "楹間", "阼階上", "西階上",
    "賔席", "主人席", "衆賔席", "大夫席", "尊", "上篚", "工席", "樂正位",
    "東榮", "西榮", "棟", "楣",
    "阼階", "西階", "阼階下", "西階下", "阼階前", "西階前",
    "庭", "中庭", "洗", "下篚", "水", "縣", "笙位",
    "堂西", "堂東", "西階西", "東序東", "門", "門內", "門外", "東壁",
    "賔門外",
)
# The archery's places, required of a layout with a `range:` (鄉飲酒禮's 庠 has none): the
# range's drawing and the shooting's scoring look them up by name.
ARCHERY_PLACES = ("右物", "左物", "豐", "楅", "中", "司射位", "司馬位", "射位",
                  "侯", "侯中", "左个", "右个", "乏")

# Kinds of Feature a renderer should know. Open ones (closed=False) are strokes; beam (棟, 楣)
# and eave (the 榮 outline) are meant dashed. The 侯's face (target, target_center) is laid flat

@cache
def _schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@cache
def _validator() -> jsonschema.Draft202012Validator:
    # The $defs written out in place: the same checks and messages, a third faster, for the
    # validator no longer resolves a reference at every place and rect.
    schema = _schema()
    return jsonschema.Draft202012Validator(_inline(schema, schema["$defs"]))


def _inline(node: Any, defs: dict) -> Any:
    if isinstance(node, dict):
        if node.get("$ref", "").startswith("#/$defs/"):
            return _inline(defs[node["$ref"].rsplit("/", 1)[1]], defs)
        return {k: _inline(v, defs) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


# -- checks ----------------------------------------------------------------------------

_BOUNDS = {"minimum": "at least", "exclusiveMinimum": "greater than", "maximum": "at most",
           "exclusiveMaximum": "less than"}


def _check_schema(root: YMap, col: Collector, top: Loc) -> None:
    errors = sorted(_validator().iter_errors(_plain(root)), key=lambda e: list(map(str, e.path)))
    errors = [c for e in errors for c in _branch(e, root)]
    for e in errors:
        path = list(e.absolute_path)
        where = ".".join(str(p) for p in path) or "top level"
        node = _node_at(root, path)
        loc = locate(root, path, top)
        msg = e.message
        if e.validator == "additionalProperties" and isinstance(node, YMap):
            allowed = set(e.schema.get("properties", {}))
            extra = [k for k in node if k not in allowed]
            if extra:
                loc = node.key_loc(extra[0])
                msg = (f"unknown key {extra[0]!r}; expected one of "
                       f"{', '.join(sorted(allowed))}")
        elif e.validator == "required" and isinstance(node, YMap):
            loc = node.loc
        elif e.validator in _BOUNDS:
            msg = f"found {e.instance!r}, expected a number {_BOUNDS[e.validator]} {e.validator_value}"
        col.error(loc, f"{where}: {msg}")


def _branch(e: jsonschema.ValidationError, root: YMap) -> list[jsonschema.ValidationError]:
    """A oneOf error (elsewhere: one scene or a list) as the errors of the branch the value's
    type chose, so the message says what is wrong inside it; any other error as it is."""
    if e.validator != "oneOf" or not e.context:
        return [e]
    node = _node_at(root, list(e.absolute_path))
    want = "array" if isinstance(node, list) else "object"
    index = next((i for i, b in enumerate(e.validator_value) if b.get("type", "object") == want),
                 None)
    subs = [c for c in e.context if c.schema_path and c.schema_path[0] == index]
    return [c for sub in subs for c in _branch(sub, root)] or [e]


# 尺: far beyond any site, and small enough that squared distances stay finite.
_LIMIT = 1e6


def _check_numbers(root: Any, col: Collector) -> None:
    """.nan and .inf are YAML numbers, but no place can stand at them; nor at 1e300."""
    for v, loc in numbers(root):
        if isinstance(v, float) and not np.isfinite(v):
            col.error(loc, f"{v} is not a finite number")
        elif abs(v) > _LIMIT:
            # a 400-digit int is valid YAML but no float; Decimal shows it without converting
            col.error(loc, f"{Decimal(v):.3e} is out of range: expected a number within "
                           f"±{_LIMIT:g} 尺")


def _check_rects(root: YMap, col: Collector) -> None:
    """Every [x_west, y_south, x_east, y_north] the schema declares, wherever it stands."""
    for value, loc in _rects_in(root, _schema(), root.loc):
        fault = _rect_fault(_rect_of(value))
        if fault:
            col.error(loc, fault)


def _rects_in(node: Any, sch: dict, loc: Loc) -> Iterator[tuple[YList, Loc]]:
    """The values at which the schema refers to $defs/rect, walking the data and the schema
    together (so a rect added to the schema is checked without naming it here)."""
    while "$ref" in sch:
        if sch["$ref"] == "#/$defs/rect":
            yield node, loc
            return
        sch = _schema()["$defs"][sch["$ref"].rsplit("/", 1)[1]]
    if "oneOf" in sch:  # elsewhere: one scene, or a list of them: the branch the node is
        want = "array" if isinstance(node, YList) else "object"
        sch = next((b for b in sch["oneOf"] if b.get("type", "object") == want), {})
        yield from _rects_in(node, sch, loc)
        return
    if isinstance(node, YMap):
        props, extra = sch.get("properties", {}), sch.get("additionalProperties")
        for k, v in node.items():
            sub = props.get(k, extra if isinstance(extra, dict) else None)
            if sub is not None and isinstance(v, list | dict):
                yield from _rects_in(v, sub, node.loc_of(k))
    elif isinstance(node, YList) and isinstance(sch.get("items"), dict):
        for i, v in enumerate(node):
            if isinstance(v, list | dict):
                yield from _rects_in(v, sch["items"], node.loc_of(i))


def _rect_fault(r: Rect) -> str | None:
    """What is wrong with a rectangle, or None. A plan has no use for one of no area: a line
    is drawn with points."""
    w, s, e, n = r
    faults = []
    if w > e:
        faults.append(f"west {w:g} is east of east {e:g}")
    elif w == e:
        faults.append(f"west and east are both {w:g} (no width)")
    if s > n:
        faults.append(f"south {s:g} is north of north {n:g}")
    elif s == n:
        faults.append(f"south and north are both {s:g} (no depth)")
    if not faults:
        return None
    return f"rect {_fmt(r)}: {' and '.join(faults)} (expected [x_west, y_south, x_east, y_north])"


def _check_geometry(root: YMap, col: Collector, hall: Rect, court_in: Rect,
                    gate: tuple[float, float], stairs: Sequence[Stair]) -> bool:
    """What the walk graph relies on: a gate in the south wall, stairs meeting the 堂廉 and
    apart. False if the plan is too broken to check walks on (overlapping stairs are not: the
    walk check names the places they cut off)."""
    before = len(col.errors)
    _check_gate(root["court"]["gate"], col, court_in, gate)
    for s in stairs:
        if s.rect[3] != hall[1]:
            col.error(s.loc, f"stair {s.name} rect {_fmt(s.rect)}: its north side is at "
                             f"y = {s.rect[3]:g}, expected y = {hall[1]:g} (the 堂's south edge)")
        if not (hall[0] <= s.rect[0] and s.rect[2] <= hall[2]):
            col.error(s.loc, f"stair {s.name} rect {_fmt(s.rect)}: it spans x {s.rect[0]:g}…"
                             f"{s.rect[2]:g}, expected it within the 堂's x {hall[0]:g}…{hall[2]:g}")
    walkable = len(col.errors) == before
    for a, b in combinations(stairs, 2):
        if _overlap(a.rect, b.rect):
            col.error(b.loc, f"stair {b.name} rect {_fmt(b.rect)} overlaps stair {a.name} rect "
                             f"{_fmt(a.rect)} (at {a.loc}); expected stairs that share no ground")
    for e in _scenes(root):
        _check_elsewhere_gate(e, col)
    return walkable


def _scenes(root: YMap) -> list[YMap]:
    e = root.get("elsewhere")
    return [] if e is None else [e] if isinstance(e, dict) else list(e)


def _check_grounds(root: YMap, col: Collector, grounds: Sequence[Any], gates: Sequence[Any],
                   regions: Sequence[Any], court_out: Rect, walls: Sequence[Rect]) -> None:
    """Grounds apart from the court and from each other; each gate between two grounds that
    exist, lying across a wall, touching both, wide enough to walk through; each region a
    named area with a name of its own."""
    court_name = str(root["court"].get("name", "庭"))
    outer = {court_name: court_out, **{g.name: g.outer for g in grounds}}
    for g in grounds:
        if g.name == court_name:
            col.error(g.loc, f"ground {g.name}: the court is named {court_name} already "
                             "(expected a name of its own)")
        if _overlap(g.rect, court_out):
            col.error(g.loc, f"ground {g.name} rect {_fmt(g.rect)} overlaps the court "
                             f"{_fmt(court_out)} (walls included); expected a ground beside it, "
                             "joined by a gate")
    _apart(col, grounds, "ground", "grounds apart, joined by gates")
    c = float(root.get("clearance", 1.0))
    for spec, g in zip(root.get("gates", ()), gates):
        bloc = spec.loc_of("between")
        for n in g.between:
            if n not in outer:
                col.error(bloc, f"gate {g.name}: between names {n!r}, which is no ground of this "
                                f"layout (grounds: {'、'.join(outer)})")
        if g.between[0] == g.between[1]:
            col.error(bloc, f"gate {g.name}: between names {g.between[0]} twice (expected the "
                            "two grounds the gate joins)")
        for n in g.between:
            if n in outer and not _touch(g.rect, outer[n]):
                col.error(g.loc, f"gate {g.name} rect {_fmt(g.rect)} does not touch the ground "
                                 f"{n} {_fmt(outer[n])}; expected it in the wall between "
                                 f"{'、'.join(g.between)}")
        if not any(_overlap(g.rect, r) for r in walls):
            col.error(g.loc, f"gate {g.name} rect {_fmt(g.rect)} lies across no wall; expected "
                             "it across the wall it opens (a walled ground's, the court's, or a "
                             "wall among the obstacles)")
        w, h = g.rect[2] - g.rect[0], g.rect[3] - g.rect[1]
        if max(w, h) <= 2 * c:
            col.error(g.loc, f"gate {g.name} rect {_fmt(g.rect)} is {max(w, h):g} wide, "
                             f"narrower than 2 × clearance = {2 * c:g}; nobody could walk "
                             "through it")
    _apart(col, regions, "region", "regions apart (a point lies in one)")


def _apart(col: Collector, things: Sequence[Any], kind: str, expected: str) -> None:
    """No two of these grounds (or regions) overlap: the second of a pair is the one faulted."""
    for a, b in combinations(things, 2):
        if _overlap(a.rect, b.rect):
            col.error(b.loc, f"{kind} {b.name} rect {_fmt(b.rect)} overlaps {kind} {a.name} "
                             f"rect {_fmt(a.rect)}{_at(a.loc)}; expected {expected}")


def _check_gate(spec: YMap, col: Collector, court_in: Rect, gate: tuple[float, float]) -> None:
    (gx0, gx1), (cx0, cx1) = gate, (court_in[0], court_in[2])
    shown, loc = f"gate x [{gx0:g}, {gx1:g}]", spec.loc_of("x")
    if gx0 >= gx1:
        fault = (f"west {gx0:g} is east of east {gx1:g}" if gx0 > gx1
                 else f"west and east are both {gx0:g} (no width)")
        col.error(loc, f"{shown}: {fault} (expected [x_west, x_east])")
    elif gx1 - gx0 >= cx1 - cx0:
        col.error(loc, f"{shown} is {gx1 - gx0:g} wide, as wide as the court's south wall or wider "
                       f"(x {cx0:g}…{cx1:g}); expected an opening within that wall")
    elif not (cx0 < gx0 and gx1 < cx1):
        col.error(loc, f"{shown} runs outside the court's south wall (x {cx0:g}…{cx1:g}); expected "
                       "it within that wall")


def _check_elsewhere_gate(elsewhere: YMap | None, col: Collector) -> None:
    """The 賔門's gate is drawn in the gap its walls leave: on them it would be walled up."""
    if elsewhere is None or "gate" not in elsewhere or not elsewhere["walls"]:
        return
    gate, loc = _rect_of(elsewhere["gate"]), elsewhere.loc_of("gate")
    walls = [_rect_of(w) for w in elsewhere["walls"]]
    name = elsewhere["name"]
    hit = next((i for i, w in enumerate(walls) if _overlap(gate, w)), None)
    if hit is not None:
        col.error(loc, f"{name} gate {_fmt(gate)} overlaps its wall {_fmt(walls[hit])} (at "
                       f"{elsewhere['walls'].loc_of(hit)}); expected it in the gap between its walls")
    elif not any(_touch(gate, w) for w in walls):
        col.error(loc, f"{name} gate {_fmt(gate)} touches none of its walls; expected it in the "
                       "gap between them")


def _check_places(root: YMap, col: Collector, places: dict[str, Place],
                  obstacles: Sequence[Obstacle]) -> None:
    obstacle_names = {o.name for o in obstacles}
    for name, spec in root["places"].items():
        if "marks" in spec and spec["marks"] not in obstacle_names:
            col.error(spec.loc_of("marks"),
                      f"place {name}: marks {spec['marks']!r}, which names no obstacle")
    xy = np.array([[p.x, p.y] for p in places.values()]).reshape(-1, 2)
    rects = np.array([o.rect for o in obstacles]).reshape(-1, 4)
    inside = ((xy[:, 0:1] > rects[:, 0]) & (xy[:, 0:1] < rects[:, 2])
              & (xy[:, 1:2] > rects[:, 1]) & (xy[:, 1:2] < rects[:, 3]))
    listed, warned = list(places.values()), set()
    for i, j in zip(*np.nonzero(inside)):
        p, o = listed[i], obstacles[j]
        spec = root["places"][p.name]
        # A place may stand for the obstacle itself (東楹, 乏) or mark a line on it (東榮).
        if (p.name in warned or o.name in (p.name, spec.get("marks"))
                or f"obstacle {o.name}" in (spec.get("note") or "")):
            continue
        warned.add(p.name)
        col.warn(root["places"].key_loc(p.name),
                 f"place {p.name} at ({p.x:g}, {p.y:g}) is inside the obstacle {o.name}"
                 f"{_at(o.loc)}; routes to it stop at the obstacle's side (expected a place "
                 f"clear of it, or one that is the {o.name}: give it marks: {o.name}, or say "
                 f"'obstacle {o.name}' in its note)")


# 尺. A place this near the 賔門 reads as standing at it; one this near the drawn ground (敖's 乏
# stands 5 尺 west of the range) is no typing slip.
_ELSEWHERE_MARGIN = 40.0
_SITE_MARGIN = 10.0


def _check_far(root: YMap, col: Collector, site: dict[str, Rect | None],
               stairs: Sequence[Stair], elsewhere: Sequence[YMap] | YMap | None) -> None:
    """A place off the site is most likely a typing slip, and it silently lengthens every walk
    to it. Every variant's position is checked too, at its own line, whichever reading is on.
    `elsewhere`: the scenes off the plan (one, or a list); a place by one is no slip."""
    scenes = ([] if elsewhere is None else [elsewhere] if isinstance(elsewhere, dict)
              else list(elsewhere))
    grounds = [r for r in site.values() if r is not None] + [s.rect for s in stairs]
    nears: list[list[Rect]] = []
    for e in scenes:
        nears.append([_rect_of(w) for w in e["walls"]]
                     + ([_rect_of(e["gate"])] if "gate" in e else []))
    named = "、".join(str(e["name"]) for e, n in zip(scenes, nears) if n)
    spans = "; ".join(f"{k} x {r[0]:g}…{r[2]:g}, y {r[1]:g}…{r[3]:g}"
                      for k, r in site.items() if r is not None)
    expected = (f"expected a place on the site, or within {_ELSEWHERE_MARGIN:g} 尺 of the "
                f"{named}" if named else "expected a place on the site")
    places, spots = root["places"], []
    for name, spec in places.items():
        x, y = float(spec["x"]), float(spec["y"])
        spots.append((name, x, y, places.key_loc(name)))
        spots += [(f"{name} ({v['reading']})", float(v.get("x", x)), float(v.get("y", y)),
                   spec["variants"].loc_of(i)) for i, v in enumerate(spec.get("variants", ()))]
    xy = np.array([(x, y) for _, x, y, _ in spots])
    off = _distances(xy, grounds).min(axis=1)
    by = [(_distances(xy, n) <= _ELSEWHERE_MARGIN).any(axis=1) if n else np.zeros(len(xy), bool)
          for n in nears]
    by_scene = np.logical_or.reduce(by) if by else np.zeros(len(xy), bool)
    slips = (off > _SITE_MARGIN) & ~by_scene
    far = f" and more than {_ELSEWHERE_MARGIN:g} 尺 from the {named}" if named else ""
    for i in np.flatnonzero(slips):
        label, px, py, loc = spots[i]
        col.warn(loc, f"place {label} at ({px:g}, {py:g}) lies {off[i]:.3g} 尺 outside the hall, "
                      f"court and range ({spans}){far}; {expected}")
    listed = {n for e in scenes for n in (e.get("places") or ())}
    for e, near_e in zip(scenes, by):
        own = e.get("places")
        if own is None:
            continue  # the scene lists no places of its own: any place by it is taken as its
        for j, name in enumerate(own):
            if name not in places:
                col.error(own.loc_of(j), f"elsewhere: places: no place {name!r} in places:")
        for i in np.flatnonzero((off > _SITE_MARGIN) & near_e):
            label, px, py, loc = spots[i]
            if label.split(" (")[0] not in listed:
                col.warn(loc, f"place {label} at ({px:g}, {py:g}) lies {off[i]:.3g} 尺 off the "
                              f"site ({spans}), by the {e['name']} scene, whose places are "
                              f"{'、'.join(own)}; expected a place on the site, or list it in "
                              f"elsewhere: places: (a typing slip makes every walk to it long)")


def _check_reach(root: YMap, col: Collector, layout: Any, gate: Rect) -> None:
    """Every named place can be walked to from the 堂 (the 賔門外 too: out through the gate);
    a place standing in an obstacle is reached at its side, as route() reaches it. One matrix
    query on the walk graph; only when some place is cut off is the cause looked for."""
    names = list(layout.places)
    points = layout._place_array
    start = layout.place_xy("堂") if "堂" in layout.places else _centre(layout.hall)
    lost = np.flatnonzero(~layout.planner.reachable(start, points))
    if not len(lost):
        return
    causes = _causes(root, layout, start, points[lost], gate)
    for i, cause in zip(lost, causes):
        p = layout.places[names[i]]
        col.error(root["places"].key_loc(p.name),
                  f"place {p.name} at ({p.x:g}, {p.y:g}) cannot be walked to from the 堂: {cause}")


_SIGHT_KINDS = ("wall", "pillar", "blind", "target")


def _check_sight(root: YMap, col: Collector, layout: Any) -> None:
    """The layout's `sight:` lines (arrows reaching the 侯, the 旌 and calls passing between 堂,
    乏 and 侯): a warning for each wall, pillar, screen or target that cuts one, naming the
    line, the points cut off and the obstacle. What a line starts or ends on is not in its way;
    an obstacle marked `low` (lines pass over it) is not either."""
    lines = root.get("sight")
    locs: list[Loc] = [lines.loc_of(i) for i in range(len(lines))] if lines else []
    if lines is None:  # a layout that lists none is still held to the arrows' and the 旌's
        lines, top = _implicit_sight(layout), Loc(layout.file, 1, 1)
        locs = [top] * len(lines)
    blockers = [o for o in layout.obstacles if o.kind in _SIGHT_KINDS and not o.low]
    specs = root["places"]
    for line, loc in zip(lines, locs):
        names = list(line["from"]) + (list(line["to"]) if isinstance(line["to"], list) else [])
        unknown = [n for n in names if n not in layout.places]
        if unknown:
            col.error(loc, f"sight line {line['what']!r} names the place {unknown[0]!r}, which "
                           "this layout does not define (expected a name under places:)")
            continue
        if isinstance(line["to"], list):
            ends = [(n, layout.place_xy(n)[None, :], _stands_on(n, specs)) for n in line["to"]]
        else:
            face = next((o for o in layout.obstacles if o.name == line["to"]["face"]), None)
            if face is None:
                col.error(loc, f"sight line {line['what']!r}: face {line['to']['face']!r} names "
                               "no obstacle of this layout (expected e.g. 侯)")
                continue
            x0, y0, x1, y1 = face.rect
            xs = np.linspace(x0, x1, max(2, int(np.ceil(x1 - x0)) + 1))
            ends = [(f"the {face.name}'s face", np.stack([xs, np.full_like(xs, (y0 + y1) / 2)], 1),
                     {face.name})]
        for a in line["from"]:
            pa, own = layout.place_xy(a), _stands_on(a, specs)
            for label, pts, their in ends:
                for o in blockers:
                    if o.name in own or o.name in their:
                        continue
                    cut = hit_matrix(np.broadcast_to(pa, pts.shape), pts,
                                     np.asarray([o.rect], float))[:, 0]
                    if not cut.any():
                        continue
                    where = (f" at ({pts[0, 0]:g}, {pts[0, 1]:g})" if len(pts) == 1 else
                             f" from x {pts[cut, 0].min():g} to {pts[cut, 0].max():g}"
                             f" ({int(cut.sum())} of {len(pts)} points)")
                    col.warn(loc, f"sight line {line['what']!r}: the line from {a} "
                                  f"({pa[0]:g}, {pa[1]:g}) to {label}{where} is cut by the "
                                  f"{o.kind} {o.name} rect {_fmt(o.rect)}{_at(o.loc)}; expected "
                                  f"nothing tall between them ({line['source']})")


def _implicit_sight(layout: Any) -> list[dict]:
    """The lines every layout with 物 and a 侯 must keep open (domain.md: no wall may cut them),
    for a layout that lists no `sight:` of its own."""
    marks = [n for n in ("右物", "左物") if n in layout.places]
    target = next((o for o in layout.obstacles if o.kind == "target"), None)
    out: list[dict] = []
    if marks and target is not None:
        out.append({"what": "the arrows reach the whole 侯 (implied: the layout lists no sight:)",
                    "from": marks, "to": {"face": target.name}, "source": "記: 鄉侯五十弓"})
    if marks and "乏" in layout.places:
        out.append({"what": "the 旌 seen from the 堂 (implied: the layout lists no sight:)",
                    "from": marks, "to": ["乏"], "source": "經: 獲者坐而獲舉旌以宮偃旌以商"})
    return out


def _stands_on(name: str, specs: YMap) -> set[str]:
    """The obstacles a place stands for or on: its own name and what it `marks`."""
    spec = specs.get(name) or {}
    return {name} | ({spec["marks"]} if "marks" in spec else set())


def _causes(root: YMap, layout: Any, start: np.ndarray, points: np.ndarray,
            gate: Rect) -> list[str]:
    """For each cut-off point, the first suspect whose removal lets a walk reach it."""
    out: list[str | None] = [None] * len(points)
    for text, gone in _suspects(root, layout, gate):
        todo = [i for i, c in enumerate(out) if c is None]
        if not todo:
            break
        planner = Planner([o.rect for o in layout.obstacles if id(o) not in gone],
                          layout.clearance, [s.rect for s in layout.stairs if id(s) not in gone])
        for i, freed in zip(todo, planner.reachable(start, points[todo])):
            if freed:
                out[i] = text
    located = [o for o in layout.obstacles if o.loc is not None]
    for i, c in enumerate(out):
        if c is None:
            o = min(located, key=lambda o: _rect_distance(o.rect, *points[i]))
            out[i] = ("no single obstacle, stair or gate explains it (several may close it in "
                      f"together); the nearest obstacle is {o.name}{_at(o.loc)}")
    return out


def _suspects(root: YMap, layout: Any, gate: Rect) -> Iterator[tuple[str, set[int]]]:
    """What may cut places off, most telling first: each as (what to say, the ids of the
    obstacles and stairs to take away to test it)."""
    c, stairs = layout.clearance, layout.stairs
    sides = {s.name: {id(o) for o in layout.obstacles
                      if o.kind == "stair side" and o.name == s.name} for s in stairs}
    overlapping = [(a, b) for a, b in combinations(stairs, 2) if _overlap(a.rect, b.rect)]
    for a, b in overlapping:
        yield (f"stair {b.name}{_at(b.loc)} overlaps stair {a.name}{_at(a.loc)}, so the side of "
               "one stands in the other's way up", {id(b)} | sides[b.name])
    least = 2 * (c + _EDGE)
    narrow = [s for s in stairs if s.rect[2] - s.rect[0] <= least]
    if narrow:
        # Tested with the 堂's whole south edge open too: its opening is no wider than the stair.
        edge = {id(o) for o in layout.obstacles if o.kind == "edge" and o.name == "堂廉"}
        yield ("; ".join(f"stair {s.name}{_at(s.loc)} is {s.rect[2] - s.rect[0]:g} wide"
                         for s in narrow)
               + f": kept {c:g} from its sides no one can climb "
               + ("it" if len(narrow) == 1 else "them") + f" (expected wider than {least:g})",
               edge.union(*({id(s)} | sides[s.name] for s in narrow)))
    # The walls the loader draws round the court are not suspects; the gate in them is.
    court_loc = root["court"].loc_of("rect")
    drawn = [o for o in layout.obstacles if o.kind not in ("edge", "stair side")
             and o.loc != court_loc]
    south = {id(o) for o in layout.obstacles if o.name == "南壁" and o.loc == court_loc}
    shown = f"the gate x [{gate[0]:g}, {gate[2]:g}]{_at(root['court']['gate'].loc_of('x'))}"
    width, zone = gate[2] - gate[0], _grow(gate, c)
    at_gate = [o for o in drawn if _touch(_grow(o.rect, c), zone)]
    if width <= 2 * c:  # certain, so tested first
        yield f"{shown} is {width:g} wide, narrower than 2 × clearance = {2 * c:g}", south
    for o in drawn:
        what = f"the gate x [{gate[0]:g}, {gate[2]:g}]" if o in at_gate else "the way"
        yield (f"the {o.kind} {o.name} rect {_fmt(o.rect)}{_at(o.loc)}, widened by the "
               f"clearance {c:g}, closes {what}", {id(o)})
    if width > 2 * c:
        why = ("is closed by " + ", ".join(f"{o.name}{_at(o.loc)}" for o in at_gate) if at_gate
               else "leaves no way through")
        yield f"{shown} {why}", south
    for s in stairs:
        yield (f"no one can climb stair {s.name}{_at(s.loc)}: something stands on its middle line, "
               "at its foot or at its head", {id(s)} | sides[s.name])



def _plain(node: Any) -> Any:
    """YMap/YList → dict/list, so jsonschema sees plain JSON types."""
    if isinstance(node, dict):
        return {k: _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node


def _node_at(root: Any, path: list) -> Any:
    node = root
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def _check_names(root: YMap, col: Collector) -> None:
    places = root["places"]
    for name in ARCHERY_PLACES if "range" in root else ():
        if name not in places:
            col.error(root.key_loc("places"),
                      f"missing place {name} (a layout with a range: needs the archery's places: "
                      f"{'、'.join(ARCHERY_PLACES)}; docs/LAYOUT.md, 'Places')")
    seen: dict[str, Loc] = {}
    for key in ("stairs", "obstacles", "grounds", "gates", "regions"):
        items = root.get(key, YList())
        for item in items:
            name = item["name"]
            if name in seen:
                col.error(item.loc_of("name"),
                          f"duplicate name {name!r} (first defined at {seen[name]})")
            else:
                seen[name] = item.loc_of("name")
    for way, spec in root.get("ways", {}).items():
        for i, v in enumerate(spec["via"]):
            if v not in places:
                col.error(spec["via"].loc_of(i), f"way {way}: unknown place {v!r} in via")
    for name, p in places.items():
        if "with" in p and (p["with"] not in places or "with" in places[p["with"]]):
            col.error(p.loc_of("with"), f"place {name}: with: {p['with']!r} is no place of this "
                                        "layout that stands on its own (expected a place it moves with)")
    for f in root.get("features", ()):
        shapes = [k for k in ("rect", "circle", "points") if k in f]
        if len(shapes) != 1:
            col.error(f.loc, f"feature {f['name']}: give exactly one of rect, circle, points "
                             f"(found {', '.join(shapes) or 'none'})")
        if "with" in f and f["with"] not in places:
            col.error(f.loc_of("with"), f"feature {f['name']}: with: {f['with']!r} is no place "
                                        "of this layout (expected a place it moves with)")
