"""The hall, court and range as data: places, regions, obstacles and features to draw, in 尺."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache, cached_property
from itertools import combinations
from pathlib import Path
from typing import Any

import jsonschema
import numpy as np

from viz import DEFAULT_LAYOUT, LAYOUTS, ROOT  # noqa: F401 (ROOT and DEFAULT_LAYOUT are read from here too)
from viz.base.cache import cached
from viz.base.errors import Collector, InputError, Loc, Problem
from viz.base.yamlsrc import YList, YMap, load_text, locate, numbers
from viz.model.layout_extends import extend
from viz.model.paths import Planner, count_crossings, hit_matrix

SCHEMA_PATH = LAYOUTS / "layout.schema.json"

REGIONS = ("堂", "階", "庭", "侯道", "門外", "elsewhere")

# domain.md, "Places": names every layout must define, so queries and diagrams agree.
REQUIRED_PLACES = (
    "堂", "堂廉", "東序", "西序", "東序端", "西序端", "東楹", "西楹", "楹間", "阼階上", "西階上",
    "賔席", "主人席", "衆賔席", "大夫席", "尊", "上篚", "工席", "樂正位",
    "東榮", "西榮", "棟", "楣",
    "阼階", "西階", "阼階下", "西階下", "阼階前", "西階前",
    "庭", "中庭", "洗", "下篚", "水", "縣", "笙位",
    "堂西", "堂東", "西階西", "東序東", "門", "門內", "門外", "東壁",
    "賔門外",
)
# ...and the archery's, required only of a layout with a `range:` (鄉飲酒禮's 庠 has none).
ARCHERY_PLACES = ("右物", "左物", "豐", "楅", "中", "司射位", "司馬位", "射位",
                  "侯", "侯中", "左个", "右个", "乏")

# Kinds of Feature a renderer should know. Open ones (closed=False) are strokes; beam (棟, 楣)
# and eave (the 榮 outline) are meant dashed. The 侯's face (target, target_center) is laid flat
# north of its target_line, as the 禮圖 draw it.
FEATURE_KINDS = (
    "court", "range", "hall", "wall", "pillar", "stair", "step", "gate", "eave", "beam", "mat",
    "basin", "water", "vessel", "basket", "chime", "rack", "counter", "implement", "mark",
    "target_line", "target", "target_center", "post", "blind",
)

Rect = tuple[float, float, float, float]  # [x_west, y_south, x_east, y_north] in 尺

# Thickness of the barrier drawn along the 堂's edge and a stair's sides: thin, but solid.
_EDGE = 0.1


@dataclass(frozen=True)
class Variant:
    """Another commentator's reading of a place: where he puts it and why."""

    reading: str
    x: float | None = None
    y: float | None = None
    source: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class Place:
    name: str
    x: float
    y: float
    source: str
    note: str | None
    region: str
    variants: tuple[Variant, ...] = ()


@dataclass(frozen=True, eq=False)
class Feature:
    kind: str
    name: str
    points: np.ndarray  # (k,2) in 尺
    closed: bool
    label: str | None


@dataclass(frozen=True)
class Obstacle:
    """Something nobody walks through: an axis-aligned rectangle [x0, y0, x1, y1] in 尺.

    `loc` is the line of the layout that makes it (for a wall the loader draws itself, the
    rectangle it is drawn from), so a problem it causes can be pointed at.
    """

    name: str
    kind: str
    rect: Rect
    loc: Loc | None = field(default=None, compare=False)
    low: bool = False  # lines of sight and flight pass over it (the layout says why)

    @property
    def polygon(self) -> np.ndarray:
        return _rect_points(self.rect)


@dataclass(frozen=True)
class Stair:
    name: str
    rect: Rect
    steps: int
    loc: Loc | None = field(default=None, compare=False)  # the line of its rect

    @property
    def risers(self) -> tuple[float, ...]:
        """y of each step's front edge, south to north: the first at the stair's foot, the
        last at the 堂廉 (y1), so three 等 have two treads and the third step is the 堂."""
        _, y0, _, y1 = self.rect
        if self.steps == 1:
            return (y1,)
        run = (y1 - y0) / (self.steps - 1)
        return tuple(y0 + k * run for k in range(self.steps))


@dataclass(frozen=True)
class TopicVariant:
    topic: str
    reading: str
    note: str
    source: str | None


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
        return _region(self.hall, self.stairs, self.court, self.range_rect, x, y)

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
    elsewhere = root.get("elsewhere")
    walkable = _check_geometry(root, col, hall, court_in, (gx0, gx1), stairs)
    _check_names(root, col)
    declared, applied = _declared_obstacles(root, readings)
    obstacles = (_hall_edges(hall, stairs, root["hall"].loc_of("rect")) + _stair_sides(stairs)
                 + _court_walls(court_in, wall, (gx0, gx1), root["court"].loc_of("rect"))
                 + declared + _elsewhere_walls(elsewhere))
    court_out = (court_in[0] - wall, court_in[1] - wall, court_in[2] + wall, court_in[3] + wall)
    range_rect = _rect_of((range_v or root["range"])["rect"]) if "range" in root else None
    applied += [n for n, v in (("庭", court_v), ("侯道", range_v)) if v is not None]

    def region(x: float, y: float) -> str:
        return _region(hall, stairs, court_out, range_rect, x, y)

    places, moved = _places(root, readings, region)
    applied += list(moved)
    _check_places(root, col, places, obstacles)
    # a place that another reading's court or range puts on the site is no slip either
    others = {f"{k} ({v.get('reading', 'default')})":
              _grow(_rect_of(v["rect"]), wall if k == "court" else 0.0)
              for k in ("court", "range") if k in root and root[k].get("variants")
              for v in (root[k], *root[k]["variants"])
              if v is not ((range_v if k == "range" else court_v) or root[k])}
    _check_far(root, col, {"hall": hall, "court": court_out, "range": range_rect, **others},
               stairs, elsewhere)
    unused = [r for r in readings if not any(r in v["reading"] for _, v in _all_variants(root))]
    if unused:
        col.error(top, f"no variant in this layout follows the reading {unused[0]!r} "
                       f"(readings with variants: {', '.join(_readings(root)) or 'none'})")
    features = _structure_features(hall, stairs, obstacles, court_in, wall, (gx0, gx1),
                                   root["court"]["gate"].get("name", "門"), elsewhere, range_rect)
    features += _declared_features(root, moved)
    layout = Layout(
        name=str(root["name"]), file=file, chi_m=float(root.get("chi_m", 0.231)),
        reading="+".join([str(root["reading"]), *readings]), places=places,
        features=tuple(features), obstacles=tuple(obstacles), stairs=stairs, hall=hall,
        hall_height=float(root["hall"]["height"]), court=court_out, range_rect=range_rect,
        clearance=float(root.get("clearance", 1.0)),
        ways={k: tuple(v["via"]) for k, v in root.get("ways", {}).items()},
        variants=tuple(TopicVariant(v["topic"], v["reading"], v["note"], v.get("source"))
                       for v in root.get("variants", ())),
        warnings=tuple(col.warnings), applied=tuple(applied),
        variant_readings=tuple(dict.fromkeys(v["reading"] for _, v in _all_variants(root))))
    if walkable:
        _check_reach(root, col, layout, (gx0, court_in[1] - wall, gx1, court_in[1]))
    _check_sight(root, col, layout)
    object.__setattr__(layout, "warnings", tuple(col.warnings))  # the sight lines' too
    col.raise_if_errors()
    return layout


MENWAI_DEPTH = 16.0  # 尺 south of the court's south side that count as 門外 (a choice)
MENWAI_HALF = 16.0  # 尺 either side of the gate's axis
# … and, where it is not the range's ground, out to 40 尺 across the court's width (a choice):
# the 賓 and the 衆賓 wait there to be met (速賔, 迎賔), in a line some 20 尺 out that grows west
# with their number; beyond it, and at the 賔's own gate, is elsewhere
MENWAI_WAIT = 40.0


def _region(hall: Rect, stairs: Sequence[Stair], court: Rect, range_rect: Rect | None,
            x: float, y: float) -> str:
    if _in_rect(hall, x, y):
        return "堂"
    if any(_in_rect(s.rect, x, y) for s in stairs):
        return "階"
    in_range = range_rect is not None and _in_rect(range_rect, x, y)
    if _in_rect(court, x, y):
        # the range ground inside a court made deep for it (李如圭, 欽定義疏) is 侯道 too
        return "侯道" if in_range else "庭"
    # just outside the gate, where the 賔 is met (主人一相出迎於門外), is 門外, not the range
    mid = (court[0] + court[2]) / 2
    if court[1] - MENWAI_DEPTH <= y < court[1] and abs(x - mid) <= MENWAI_HALF:
        return "門外"
    if court[1] - MENWAI_WAIT <= y < court[1] and court[0] <= x <= court[2] and not in_range:
        return "門外"
    return "侯道" if in_range else "elsewhere"


# -- checks ----------------------------------------------------------------------------

_BOUNDS = {"minimum": "at least", "exclusiveMinimum": "greater than", "maximum": "at most",
           "exclusiveMaximum": "less than"}


def _check_schema(root: YMap, col: Collector, top: Loc) -> None:
    errors = sorted(_validator().iter_errors(_plain(root)), key=lambda e: list(map(str, e.path)))
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
    _check_elsewhere_gate(root.get("elsewhere"), col)
    return walkable


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
               stairs: Sequence[Stair], elsewhere: YMap | None) -> None:
    """A place off the site is most likely a typing slip, and it silently lengthens every walk
    to it. Every variant's position is checked too, at its own line, whichever reading is on."""
    grounds = [r for r in site.values() if r is not None] + [s.rect for s in stairs]
    near: list[Rect] = []
    if elsewhere is not None:
        near = [_rect_of(w) for w in elsewhere["walls"]]
        near += [_rect_of(elsewhere["gate"])] if "gate" in elsewhere else []
    spans = "; ".join(f"{k} x {r[0]:g}…{r[2]:g}, y {r[1]:g}…{r[3]:g}"
                      for k, r in site.items() if r is not None)
    expected = (f"expected a place on the site, or within {_ELSEWHERE_MARGIN:g} 尺 of the "
                f"{elsewhere['name']}" if near else "expected a place on the site")
    places, spots = root["places"], []
    for name, spec in places.items():
        x, y = float(spec["x"]), float(spec["y"])
        spots.append((name, x, y, places.key_loc(name)))
        spots += [(f"{name} ({v['reading']})", float(v.get("x", x)), float(v.get("y", y)),
                   spec["variants"].loc_of(i)) for i, v in enumerate(spec.get("variants", ()))]
    xy = np.array([(x, y) for _, x, y, _ in spots])
    off = _distances(xy, grounds).min(axis=1)
    by_scene = (_distances(xy, near) <= _ELSEWHERE_MARGIN).any(axis=1)
    slips = (off > _SITE_MARGIN) & ~by_scene
    far = f" and more than {_ELSEWHERE_MARGIN:g} 尺 from the {elsewhere['name']}" if near else ""
    for i in np.flatnonzero(slips):
        label, px, py, loc = spots[i]
        col.warn(loc, f"place {label} at ({px:g}, {py:g}) lies {off[i]:.3g} 尺 outside the hall, "
                      f"court and range ({spans}){far}; {expected}")
    own = elsewhere.get("places") if elsewhere is not None else None
    if own is None:
        return  # the scene lists no places of its own: any place by it is taken as its
    for j, name in enumerate(own):
        if name not in places:
            col.error(own.loc_of(j), f"elsewhere: places: no place {name!r} in places:")
    for i in np.flatnonzero((off > _SITE_MARGIN) & by_scene):
        label, px, py, loc = spots[i]
        if label.split(" (")[0] not in own:
            col.warn(loc, f"place {label} at ({px:g}, {py:g}) lies {off[i]:.3g} 尺 off the site "
                          f"({spans}), by the {elsewhere['name']} scene, whose places are "
                          f"{'、'.join(own)}; expected a place on the site, or list it in "
                          f"elsewhere: places: (a typing slip makes every walk to it long)")


def _check_reach(root: YMap, col: Collector, layout: Layout, gate: Rect) -> None:
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


def _check_sight(root: YMap, col: Collector, layout: Layout) -> None:
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


def _implicit_sight(layout: Layout) -> list[dict]:
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


def _causes(root: YMap, layout: Layout, start: np.ndarray, points: np.ndarray,
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


def _suspects(root: YMap, layout: Layout, gate: Rect) -> Iterator[tuple[str, set[int]]]:
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
    for name in REQUIRED_PLACES + (ARCHERY_PLACES if "range" in root else ()):
        if name not in places:
            why = "" if name in REQUIRED_PLACES else "; a layout with a range: needs the archery's"
            col.error(root.key_loc("places"),
                      f"missing place {name} (domain.md's list of places requires it{why})")
    seen: dict[str, Loc] = {}
    for key in ("stairs", "obstacles"):
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


# -- rectangles ------------------------------------------------------------------------


def _rect_of(v: Sequence[float]) -> Rect:
    return (float(v[0]), float(v[1]), float(v[2]), float(v[3]))


def _fmt(r: Sequence[float]) -> str:
    return "[" + ", ".join(f"{v:g}" for v in r) + "]"


def _at(loc: Loc | None) -> str:
    return f" (at {loc})" if loc is not None else ""


def _centre(r: Rect) -> np.ndarray:
    return np.array([(r[0] + r[2]) / 2, (r[1] + r[3]) / 2])


def _grow(r: Rect, d: float) -> Rect:
    return (r[0] - d, r[1] - d, r[2] + d, r[3] + d)


def _overlap(a: Rect, b: Rect) -> bool:
    """Do the two rectangles share some area (not just an edge)?"""
    return max(a[0], b[0]) < min(a[2], b[2]) and max(a[1], b[1]) < min(a[3], b[3])


def _touch(a: Rect, b: Rect) -> bool:
    """Do the two rectangles meet, at least along an edge or a corner?"""
    return max(a[0], b[0]) <= min(a[2], b[2]) and max(a[1], b[1]) <= min(a[3], b[3])


def _distances(xy: np.ndarray, rects: Sequence[Rect]) -> np.ndarray:
    """(m, k): how far each point lies from each rectangle (0 inside it)."""
    r = np.array(rects, float).reshape(-1, 4)
    dx = np.maximum(np.maximum(r[:, 0] - xy[:, 0:1], 0.0), xy[:, 0:1] - r[:, 2])
    dy = np.maximum(np.maximum(r[:, 1] - xy[:, 1:2], 0.0), xy[:, 1:2] - r[:, 3])
    return np.hypot(dx, dy)


def _rect_distance(r: Sequence[float], x: float, y: float) -> float:
    return float(np.hypot(max(r[0] - x, 0.0, x - r[2]), max(r[1] - y, 0.0, y - r[3])))


def _in_rect(r: Sequence[float], x: float, y: float) -> bool:
    return r[0] <= x <= r[2] and r[1] <= y <= r[3]


def _rect_points(r: Sequence[float]) -> np.ndarray:
    x0, y0, x1, y1 = r
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float)


def _hall_edges(hall: Rect, stairs: Sequence[Stair], loc: Loc) -> list[Obstacle]:
    """The 堂's edge all round, open only where a stair meets its south side."""
    x0, y0, x1, y1 = hall
    e = _EDGE
    gaps: list[tuple[float, float]] = []
    for g0, g1 in sorted((s.rect[0], s.rect[2]) for s in stairs):
        if gaps and g0 < gaps[-1][1]:
            # overlapping stairs (an error of their own) share one opening, so that no edge
            # piece here comes out backwards
            gaps[-1] = (gaps[-1][0], max(gaps[-1][1], g1))
        else:
            gaps.append((g0, g1))
    out, x = [], x0 - e
    for g0, g1 in gaps:
        out.append(Obstacle("堂廉", "edge", (x, y0 - e, g0 + e, y0 + e), loc))
        x = g1 - e
    out.append(Obstacle("堂廉", "edge", (x, y0 - e, x1 + e, y0 + e), loc))
    out += [Obstacle("堂", "edge", (x1 - e, y0 - e, x1 + e, y1 + e), loc),
            Obstacle("堂", "edge", (x0 - e, y1 - e, x1 + e, y1 + e), loc),
            Obstacle("堂", "edge", (x0 - e, y0 - e, x0 + e, y1 + e), loc)]
    return out


def _stair_sides(stairs: Sequence[Stair]) -> list[Obstacle]:
    e = _EDGE
    return [Obstacle(s.name, "stair side", (x - e, s.rect[1], x + e, s.rect[3] + e), s.loc)
            for s in stairs for x in (s.rect[0], s.rect[2])]


_COURT_WALLS = ("西壁", "東壁", "北壁", "南壁")


def _court_walls(r: Rect, w: float, gate: tuple[float, float], loc: Loc) -> list[Obstacle]:
    x0, y0, x1, y1 = r
    gx0, gx1 = gate
    return [Obstacle(_COURT_WALLS[0], "wall", (x0 - w, y0 - w, x0, y1 + w), loc),
            Obstacle("東壁", "wall", (x1, y0 - w, x1 + w, y1 + w), loc),
            Obstacle("北壁", "wall", (x0 - w, y1, x1 + w, y1 + w), loc),
            Obstacle("南壁", "wall", (x0 - w, y0 - w, gx0, y0), loc),
            Obstacle("南壁", "wall", (gx1, y0 - w, x1 + w, y0), loc)]


def _structure_features(hall: Rect, stairs: Sequence[Stair], obstacles: Sequence[Obstacle],
                        court_in: Rect, wall: float, gate: tuple[float, float], gate_name: str,
                        elsewhere: YMap | None, range_rect: Rect | None) -> list[Feature]:
    """What the geometry itself draws: court, hall, walls, 楹, 乏, gate, stairs and their 等."""
    gx0, gx1 = gate
    out = [Feature("court", "庭", _rect_points(court_in), True, None),
           Feature("hall", "堂", _rect_points(hall), True, "堂")]
    for o in obstacles:
        if o.kind in ("wall", "pillar", "blind"):
            # The court's and the 賔門's walls are unnamed lines in a plan; the 序, 楹, 乏 are named.
            generated = o.name in _COURT_WALLS or (elsewhere is not None
                                                   and o.name == elsewhere["name"])
            out.append(Feature(o.kind, o.name, o.polygon, True, None if generated else o.name))
    out.append(Feature("gate", gate_name, _rect_points((gx0, court_in[1] - wall, gx1,
                                                        court_in[1])), True, gate_name))
    for s in stairs:
        out.append(Feature("stair", s.name, _rect_points(s.rect), True, s.name))
        for y in s.risers:
            out.append(Feature("step", s.name, np.array([[s.rect[0], y], [s.rect[2], y]]), False,
                               None))
    if elsewhere is not None and "gate" in elsewhere:
        out.append(Feature("gate", elsewhere["name"], _rect_points(_rect_of(elsewhere["gate"])),
                           True, elsewhere["name"]))
    if range_rect is not None:
        out.append(Feature("range", "侯道", _rect_points(range_rect), True, None))
    return out


def _declared_features(root: YMap, moved: dict[str, tuple[float, float]]) -> list[Feature]:
    """The features the file lists; one named like a place a reading moved (or whose `with:`
    names it) moves with it."""
    out = []
    for f in root.get("features", ()):
        label = f.get("label", f["name"])
        if "rect" in f:
            pts, closed = _rect_points(_rect_of(f["rect"])), True
        elif "circle" in f:
            cx, cy, r = (float(v) for v in f["circle"])
            t = np.linspace(0, 2 * np.pi, 16, endpoint=False)
            pts, closed = np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], 1), True
        elif "points" in f:
            pts, closed = np.array(f["points"], float), bool(f.get("closed", False))
        else:
            continue
        shift = moved.get(f.get("with", f["name"]), (0.0, 0.0))   # with: PLACE moves as it
        out.append(Feature(f["kind"], f["name"], pts + shift, closed, label))
    return out
