"""The hall, court and range as data: places, regions, obstacles and features to draw, in 尺.

Layout is the loaded plan (its places, obstacles, stairs and features, the walk graph, the
region of a point); load_layout and load_layout_text read a file into one, with the chosen
readings' variants applied (_chosen, _places, _declared_obstacles). The parts live beside this
module and are re-exported here: the shapes and the arithmetic on rectangles in
layout_geometry.py, the checks in layout_checks.py, `extends:` in layout_extends.py.
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import numpy as np

from viz import DEFAULT_LAYOUT, ROOT  # noqa: F401 (ROOT and DEFAULT_LAYOUT are read from here too)
from viz.base.cache import cached
from viz.base.errors import Collector, InputError, Loc, Problem
from viz.base.yamlsrc import YMap, load_text
from viz.model.layout_checks import (  # noqa: F401 (re-exported: SCHEMA_PATH, the required places)
    ARCHERY_PLACES,
    REQUIRED_PLACES,
    SCHEMA_PATH,
    _check_far,
    _check_geometry,
    _check_grounds,
    _check_names,
    _check_numbers,
    _check_places,
    _check_reach,
    _check_rects,
    _check_schema,
    _check_sight,
)
from viz.model.layout_extends import extend
from viz.model.layout_geometry import (  # noqa: F401 (the plan's value classes are read from here)
    MENWAI_DEPTH,
    MENWAI_HALF,
    MENWAI_WAIT,
    Feature,
    Gate,
    Ground,
    Obstacle,
    Place,
    Rect,
    Region,
    Scene,
    Stair,
    TopicVariant,
    Variant,
    _court_walls,
    _cut_gates,
    _declared_features,
    _ground_walls,
    _grow,
    _hall_edges,
    _in_rect,
    _rect_of,
    _region,
    _stair_sides,
    _structure_features,
)
from viz.model.layout_treads import PlaceTable, tread_names  # noqa: F401 (re-exported)
from viz.model.paths import Planner, count_crossings

# Kinds of Feature a renderer should know. Open ones (closed=False) are strokes; beam (棟, 楣)
# and eave (the 榮 outline) are meant dashed. The 侯's face (target, target_center) is laid flat
# north of its target_line, as the 禮圖 draw it.
FEATURE_KINDS = (
    "court", "range", "hall", "wall", "pillar", "stair", "step", "gate", "eave", "beam", "mat",
    "basin", "water", "vessel", "basket", "chime", "rack", "counter", "implement", "mark",
    "target_line", "target", "target_center", "post", "blind", "yard", "region", "building",
)


@dataclass(frozen=True, eq=False)
class Layout:
    name: str
    file: str
    chi_m: float
    reading: str
    places: dict[str, Place]
    features: tuple[Feature, ...]
    obstacles: tuple[Obstacle, ...]
    stairs: tuple[Stair, ...]
    hall: Rect
    hall_height: float
    court: Rect  # outer rectangle, walls included
    range_rect: Rect | None
    clearance: float
    ways: dict[str, tuple[str, ...]]
    variants: tuple[TopicVariant, ...] = ()
    warnings: tuple[Problem, ...] = field(default=())
    applied: tuple[str, ...] = ()  # places and obstacles moved by the chosen readings
    variant_readings: tuple[str, ...] = ()  # the readings this file's place variants follow
    grounds: tuple[Ground, ...] = ()  # named grounds besides the court (廟門外 …)
    gates: tuple[Gate, ...] = ()  # the gates between grounds, besides the court's
    regions: tuple[Region, ...] = ()  # named areas (房, 室, 北堂)
    scenes: tuple[Scene, ...] = ()  # the 'elsewhere' scenes, each drawn in an inset

    # -- places ------------------------------------------------------------------------
    def place_xy(self, name: str) -> np.ndarray:
        """(2,) coordinates of a named place; KeyError names the unknown place."""
        try:
            p = self.places[name]
        except KeyError:
            raise KeyError(f"unknown place {name!r}") from None
        return np.array([p.x, p.y])

    def nearest_place(self, x: float, y: float) -> str:
        names = list(self.places)
        d = np.hypot(self._place_array[:, 0] - x, self._place_array[:, 1] - y)
        return names[int(np.argmin(d))]

    @cached_property
    def _place_array(self) -> np.ndarray:
        return np.array([[p.x, p.y] for p in self.places.values()])

    # -- regions -----------------------------------------------------------------------
    def region_at(self, x: float, y: float) -> str:
        """堂 | 階 | 庭 | 侯道 | elsewhere. Inside the court walls the arrows' lane counts as 庭;
        侯道 is the range ground beyond them (see in_lane for the lane itself)."""
        return _region(self.hall, self.stairs, self.court, self.range_rect, x, y,
                       self.regions, self.grounds)

    def scene_at(self, x: float, y: float) -> Scene | None:
        """The 'elsewhere' scene (the 賔門, a 闈門 …) whose ground holds (x, y), or None."""
        for sc in self.scenes:
            if _in_rect(sc.box, x, y):
                return sc
        return None

    def in_lane(self, x: float, y: float) -> bool:
        """Is (x, y) south of the 堂 in the lane the arrows fly, from the 物 to the 侯's width?"""
        lane = self._lane
        if lane is None:
            return False
        y_mark, half_mark, y_target, half_target, cx = lane
        if not (y_target <= y < min(0.0, y_mark)):
            return False
        f = (y_mark - y) / (y_mark - y_target)
        return abs(x - cx) <= half_mark + f * (half_target - half_mark)

    @cached_property
    def _lane(self) -> tuple[float, float, float, float, float] | None:
        target = next((o for o in self.obstacles if o.kind == "target"), None)
        if target is None or "右物" not in self.places or "左物" not in self.places:
            return None
        r, left = self.places["右物"], self.places["左物"]
        half_mark = abs(left.x - r.x) / 2 + self.clearance
        x0, y0, x1, y1 = target.rect
        return ((r.y + left.y) / 2, half_mark, (y0 + y1) / 2, (x1 - x0) / 2, (r.x + left.x) / 2)

    def height_at(self, x: float, y: float) -> float:
        """Floor height in 尺: the 堂's height on it, the step's on a stair, 0 elsewhere."""
        if _in_rect(self.hall, x, y):
            return self.hall_height
        for s in self.stairs:
            if _in_rect(s.rect, x, y):
                climbed = sum(1 for r in s.risers if y >= r)
                return self.hall_height * climbed / s.steps
        return 0.0

    # -- walking -----------------------------------------------------------------------
    @cached_property
    def planner(self) -> Planner:
        """The walk graph; load_layout builds it once to check that every place is reachable."""
        return Planner([o.rect for o in self.obstacles], self.clearance,
                       [s.rect for s in self.stairs], self._risers)

    def route(self, a: Sequence[float], b: Sequence[float], via: Sequence[str] = ()) -> np.ndarray:
        """(k,2) walkable polyline a → via… → b; never through a wall, a 楹, the 乏 or the 堂's
        edge (only the stairs join 堂 and 庭). `via` holds place names or the names of ways
        (鉤楹內 …). An end inside an obstacle (a 楹, the 乏) stops at its side facing the walk.

        Raises viz.model.paths.Unreachable (a ValueError carrying both ends) if no walk exists;
        load_layout has checked that every named place can be walked to from the 堂."""
        pts = [np.asarray(a, float)]
        for v in via:
            if v in self.ways:
                pts.extend(self.place_xy(n) for n in self.ways[v])
            else:
                pts.append(self.place_xy(v))
        pts.append(np.asarray(b, float))
        return self.planner.route(pts)

    def route_places(self, a: str, b: str, via: Sequence[str] = ()) -> np.ndarray:
        """route() between two named places."""
        return self.route(self.place_xy(a), self.place_xy(b), via)

    def segment_blocked(self, a: Sequence[float], b: Sequence[float]) -> bool:
        """Does the straight segment a→b pass through an obstacle?"""
        return self.planner.blocked(a, b)

    def stair_steps(self, polyline: np.ndarray) -> int:
        """How many 等 the polyline climbs or descends: each stair riser crossed is one."""
        return count_crossings(np.asarray(polyline, float), self._risers)

    @cached_property
    def _risers(self) -> np.ndarray:
        rows = [(y, s.rect[0], s.rect[2]) for s in self.stairs for y in s.risers]
        return np.array(rows, float).reshape(-1, 3)


# -- loading ---------------------------------------------------------------------------


def load_layout(path: str | Path = DEFAULT_LAYOUT, readings: Sequence[str] = ()) -> Layout:
    """Load and check a layout file; every problem is raised as one located InputError.

    `readings` switches variants on: a place or obstacle with a variant whose reading contains
    one of these words (e.g. "敖") stands where that variant puts it. A layout with `extends:`
    is merged onto its base (see `_extended`) and then checked whole.
    """
    root, problems = cached(path, "layout", _salt(), _parsed_and_checked)
    if not problems and isinstance(root, YMap) and "extends" in root:
        root, problems = _extended(root, str(path))
        problems = problems or _checked(root, Loc(str(path), 1, 1))
    if problems:
        raise InputError(problems)
    return _build(root, str(path), tuple(readings), checked=True)


def _parsed_and_checked(text: str, name: str) -> tuple[Any, list[Problem]]:
    """A layout file's document and the problems of its structure and numbers (kept by the
    parse cache with the file's bytes, viz/base/cache.py). A layout that extends another is
    checked only once merged with its base, whose bytes this cache does not see."""
    try:
        root = load_text(text, name)
    except InputError as e:
        return None, e.problems
    top = Loc(name, 1, 1)
    if not isinstance(root, YMap):
        return root, [Problem(getattr(root, "loc", top), "a layout must be a mapping of keys")]
    if "extends" in root:
        return root, []
    return root, _checked(root, top)


def _extended(root: YMap, file: str) -> tuple[YMap, list[Problem]]:
    """root merged onto its base layout (viz/model/layout_extends.py); the base parsed through
    the same cache."""
    return extend(root, file, lambda path: cached(path, "layout", _salt(), _parsed_and_checked))


def _checked(root: YMap, top: Loc) -> list[Problem]:
    col = Collector()
    _check_schema(root, col, top)
    _check_numbers(root, col)
    return col.errors


@cache
def _salt() -> bytes:
    """What a cached check depends on besides the file: the layout schema."""
    return hashlib.sha256(SCHEMA_PATH.read_bytes()).digest()


def load_layout_text(text: str, name: str = "<string>", readings: Sequence[str] = ()) -> Layout:
    """load_layout from YAML text (for tests and the editor); `extends:` is read relative to
    name's folder."""
    root = load_text(text, name)
    if isinstance(root, YMap) and "extends" in root:
        root, problems = _extended(root, name)
        if problems:
            raise InputError(problems)
    return _build(root, name, tuple(readings))


def _chosen(spec: YMap, readings: tuple[str, ...]) -> YMap | None:
    """The first variant of a place or obstacle that one of the chosen readings names."""
    for v in spec.get("variants", ()):
        if any(r and r in v["reading"] for r in readings):
            return v
    return None


def _build(root: Any, file: str, readings: tuple[str, ...] = (), checked: bool = False) -> Layout:
    """checked: the structure and numbers were checked already (load_layout's cache)."""
    col = Collector()
    top = Loc(file, 1, 1)
    if not checked:
        if not isinstance(root, YMap):
            raise InputError(Problem(getattr(root, "loc", top),
                                     "a layout must be a mapping of keys"))
        _check_schema(root, col, top)
        _check_numbers(root, col)
        col.raise_if_errors()
    # Everything below does arithmetic on the rectangles: a backwards one would only give
    # misleading errors further on.
    _check_rects(root, col)
    col.raise_if_errors()

    court_v, range_v = _chosen(root["court"], readings), _chosen(root.get("range", {}), readings)
    hall = _rect_of(root["hall"]["rect"])
    court_in = _rect_of((court_v or root["court"])["rect"])
    wall = float(root["court"]["wall"])
    gx0, gx1 = (float(v) for v in root["court"]["gate"]["x"])
    stairs = tuple(Stair(s["name"], _rect_of(s["rect"]), int(s["steps"]), s.loc_of("rect"))
                   for s in root["stairs"])
    elsewhere = _scenes_of(root)
    grounds, gates, regions = _grounds(root), _gates(root), _regions(root)
    walkable = _check_geometry(root, col, hall, court_in, (gx0, gx1), stairs)
    _check_names(root, col)
    declared, applied = _declared_obstacles(root, readings)
    court_out = (court_in[0] - wall, court_in[1] - wall, court_in[2] + wall, court_in[3] + wall)
    walls = (_court_walls(court_in, wall, (gx0, gx1), root["court"].loc_of("rect"))
             + _ground_walls(grounds, court_out))
    _check_grounds(root, col, grounds, gates, regions, court_out,
                   [o.rect for o in walls + declared if o.kind == "wall"])
    obstacles = (_hall_edges(hall, stairs, root["hall"].loc_of("rect")) + _stair_sides(stairs)
                 + _cut_gates(walls + declared, gates)
                 + [o for e in elsewhere for o in _elsewhere_walls(e)])
    range_rect = _rect_of((range_v or root["range"])["rect"]) if "range" in root else None
    applied += [n for n, v in (("庭", court_v), ("侯道", range_v)) if v is not None]

    def region(x: float, y: float) -> str:
        return _region(hall, stairs, court_out, range_rect, x, y, regions, grounds)

    places, moved = _places(root, readings, region)
    applied += list(moved)
    _check_places(root, col, places, obstacles)
    # a place that another reading's court or range puts on the site is no slip either
    others = {f"{k} ({v.get('reading', 'default')})":
              _grow(_rect_of(v["rect"]), wall if k == "court" else 0.0)
              for k in ("court", "range") if k in root and root[k].get("variants")
              for v in (root[k], *root[k]["variants"])
              if v is not ((range_v if k == "range" else court_v) or root[k])}
    _check_far(root, col, {"hall": hall, "court": court_out, "range": range_rect, **others,
                           **{g.name: g.outer for g in grounds}}, stairs, elsewhere)
    unused = [r for r in readings if not any(r in v["reading"] for _, v in _all_variants(root))]
    if unused:
        col.error(top, f"no variant in this layout follows the reading {unused[0]!r} "
                       f"(readings with variants: {', '.join(_readings(root)) or 'none'})")
    features = _structure_features(hall, stairs, obstacles, court_in, wall, (gx0, gx1),
                                   root["court"]["gate"].get("name", "門"), elsewhere, range_rect,
                                   grounds, gates, regions)
    features += _declared_features(root, moved)
    layout = Layout(
        name=str(root["name"]), file=file, chi_m=float(root.get("chi_m", 0.231)),
        reading="+".join([str(root["reading"]), *readings]),
        places=PlaceTable(places, stairs, float(root.get("clearance", 1.0)), region),
        features=tuple(features), obstacles=tuple(obstacles), stairs=stairs, hall=hall,
        hall_height=float(root["hall"]["height"]), court=court_out, range_rect=range_rect,
        clearance=float(root.get("clearance", 1.0)),
        ways={k: tuple(v["via"]) for k, v in root.get("ways", {}).items()},
        variants=tuple(TopicVariant(v["topic"], v["reading"], v["note"], v.get("source"))
                       for v in root.get("variants", ())),
        warnings=tuple(col.warnings), applied=tuple(applied),
        variant_readings=tuple(dict.fromkeys(v["reading"] for _, v in _all_variants(root))),
        grounds=tuple(grounds), gates=tuple(gates), regions=tuple(regions),
        scenes=tuple(_scene(e, places) for e in elsewhere))
    if walkable:
        _check_reach(root, col, layout, (gx0, court_in[1] - wall, gx1, court_in[1]))
    _check_sight(root, col, layout)
    object.__setattr__(layout, "warnings", tuple(col.warnings))  # the sight lines' too
    col.raise_if_errors()
    return layout


def _declared_obstacles(root: YMap,
                        readings: tuple[str, ...]) -> tuple[list[Obstacle], list[str]]:
    out, applied = [], []
    for o in root.get("obstacles", ()):
        rect, v = _rect_of(o["rect"]), _chosen(o, readings)
        if v is not None:
            # the variant moves the obstacle's centre, keeping its size
            cx, cy = v.get("x", (rect[0] + rect[2]) / 2), v.get("y", (rect[1] + rect[3]) / 2)
            hw, hh = (rect[2] - rect[0]) / 2, (rect[3] - rect[1]) / 2
            rect = (cx - hw, cy - hh, cx + hw, cy + hh)
            applied.append(o["name"])
        out.append(Obstacle(o["name"], o["kind"], rect, o.loc_of("rect"), bool(o.get("low"))))
    return out, applied


def _scenes_of(root: YMap) -> list[YMap]:
    """`elsewhere:` as a list of scenes: one mapping, or a list of them."""
    e = root.get("elsewhere")
    return [] if e is None else [e] if isinstance(e, dict) else list(e)


def _grounds(root: YMap) -> list[Ground]:
    return [Ground(g["name"], _rect_of(g["rect"]), float(g.get("wall", 0)), g.loc_of("rect"))
            for g in root.get("grounds", ())]


def _gates(root: YMap) -> list[Gate]:
    return [Gate(g["name"], _rect_of(g["rect"]), (str(g["between"][0]), str(g["between"][1])),
                 g.loc_of("rect")) for g in root.get("gates", ())]


def _regions(root: YMap) -> list[Region]:
    return [Region(r["name"], _rect_of(r["rect"]), r.get("label", r["name"]), r.loc_of("rect"))
            for r in root.get("regions", ())]


def _scene(e: YMap, places: dict[str, Place]) -> Scene:
    """An elsewhere scene's ground: its walls and gate, and its own places, with a margin."""
    rects = [_rect_of(w) for w in e["walls"]] + ([_rect_of(e["gate"])] if "gate" in e else [])
    own = tuple(e.get("places", ()))
    pts = [(places[n].x, places[n].y) for n in own if n in places]
    xs = [v for r in rects for v in (r[0], r[2])] + [x for x, _ in pts]
    ys = [v for r in rects for v in (r[1], r[3])] + [y for _, y in pts]
    if not xs:
        return Scene(str(e["name"]), (0.0, 0.0, 0.0, 0.0), own)
    m = _SCENE_MARGIN
    return Scene(str(e["name"]), (min(xs) - m, min(ys) - m, max(xs) + m, max(ys) + m), own)


# 尺 round an elsewhere scene's walls, gate and places that still count as the scene (the
# 賔門外 stands 4 尺 from its gate); checks warn of places by a scene farther than 40.
_SCENE_MARGIN = 20.0


def _elsewhere_walls(elsewhere: YMap | None) -> list[Obstacle]:
    if elsewhere is None:
        return []
    walls = elsewhere["walls"]
    return [Obstacle(elsewhere["name"], "wall", _rect_of(r), walls.loc_of(i))
            for i, r in enumerate(walls)]


def _places(root: YMap, readings: tuple[str, ...],
            region) -> tuple[dict[str, Place], dict[str, tuple[float, float]]]:
    """The places, each where the chosen readings put it; and how far each moved place went."""
    places, moved = {}, {}
    specs = root["places"]
    for name, p in specs.items():
        x, y = float(p["x"]), float(p["y"])
        v = _chosen(p, readings)
        if v is None and "with" in p and p["with"] in specs:
            # with: PLACE — where a reading moves that place (and it has no variant of its
            # own for that reading), this one moves the same way (司射位 with the 中)
            w = specs[p["with"]]
            wv = _chosen(w, readings)
            if wv is not None:
                v = {"x": x + float(wv.get("x", w["x"])) - float(w["x"]),
                     "y": y + float(wv.get("y", w["y"])) - float(w["y"])}
        if v is not None:
            x, y = float(v.get("x", x)), float(v.get("y", y))
            moved[name] = (x - float(p["x"]), y - float(p["y"]))
        places[name] = Place(
            name=name, x=x, y=y, source=p["source"], note=p.get("note"), region=region(x, y),
            variants=tuple(Variant(v["reading"], v.get("x"), v.get("y"), v.get("source"),
                                   v.get("note")) for v in p.get("variants", ())))
    return places, moved


def _all_variants(root: YMap):
    areas = [root[k] for k in ("court", "range") if k in root]
    for spec in [*root["places"].values(), *root.get("obstacles", ()), *areas]:
        for v in spec.get("variants", ()):
            yield spec, v


def _readings(root: YMap) -> list[str]:
    return sorted({v["reading"] for _, v in _all_variants(root)})
