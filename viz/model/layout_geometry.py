"""The plan's shapes: the layout's parts as values (Place, Variant, Obstacle, Stair, Feature,
TopicVariant; Rect, [x_west, y_south, x_east, y_north] in 尺), the arithmetic on rectangles,
the region a point lies in (_region), and what the geometry itself puts in the plan: the 堂's
edge, the stairs' sides, the court's walls (obstacles) and the features drawn from them and
from the file. viz.model.layout re-exports the value classes. Imports numpy and viz.base.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from viz.base.errors import Loc
from viz.base.yamlsrc import YMap

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
class Ground:
    """A named ground besides the court (廟門外, 大門外, a 寢's court): its inside, and the
    thickness of the wall drawn round it (0: open ground, no wall). A gate joins two grounds."""

    name: str
    rect: Rect
    wall: float = 0.0
    loc: Loc | None = field(default=None, compare=False)

    @property
    def outer(self) -> Rect:
        return _grow(self.rect, self.wall)


@dataclass(frozen=True)
class Gate:
    """An opening in the walls between two grounds (外門 between 大門外 and 廟門外): the walls it
    lies across are cut where it stands, so walks between the grounds pass through it."""

    name: str
    rect: Rect
    between: tuple[str, str]
    loc: Loc | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Region:
    """A named area (房, 室, 北堂): region_at says a point in it is in it; drawn with its name."""

    name: str
    rect: Rect
    label: str | None
    loc: Loc | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Scene:
    """An 'elsewhere' scene: a place off the plan (the 賔's gate, the mother's 闈門, the 寢),
    drawn in an inset only while someone is there. `box` holds its walls, gate and places."""

    name: str
    box: Rect
    places: tuple[str, ...] = ()


@dataclass(frozen=True)
class TopicVariant:
    topic: str
    reading: str
    note: str
    source: str | None


MENWAI_DEPTH = 16.0  # 尺 south of the court's south side that count as 門外 (a choice)
MENWAI_HALF = 16.0  # 尺 either side of the gate's axis
# … and, where it is not the range's ground, out to 40 尺 across the court's width (a choice):
# the 賓 and the 衆賓 wait there to be met (速賔, 迎賔), in a line some 20 尺 out that grows west
# with their number; beyond it, and at the 賔's own gate, is elsewhere
MENWAI_WAIT = 40.0


def _region(hall: Rect, stairs: Sequence[Stair], court: Rect, range_rect: Rect | None,
            x: float, y: float, regions: Sequence[Region] = (),
            grounds: Sequence[Ground] = ()) -> str:
    """The region a point lies in: a declared region (房, 室) first, then 堂, 階, 庭 (侯道 on
    the range), a declared ground (廟門外) by its name, 門外 just outside the court's gate,
    else elsewhere."""
    for r in regions:
        if _in_rect(r.rect, x, y):
            return r.name
    if _in_rect(hall, x, y):
        return "堂"
    if any(_in_rect(s.rect, x, y) for s in stairs):
        return "階"
    in_range = range_rect is not None and _in_rect(range_rect, x, y)
    if _in_rect(court, x, y):
        # the range ground inside a court made deep for it (李如圭, 欽定義疏) is 侯道 too
        return "侯道" if in_range else "庭"
    for g in grounds:
        if _in_rect(g.outer, x, y):
            return g.name
    # just outside the gate, where the 賔 is met (主人一相出迎於門外), is 門外, not the range
    mid = (court[0] + court[2]) / 2
    if court[1] - MENWAI_DEPTH <= y < court[1] and abs(x - mid) <= MENWAI_HALF:
        return "門外"
    if court[1] - MENWAI_WAIT <= y < court[1] and court[0] <= x <= court[2] and not in_range:
        return "門外"
    return "侯道" if in_range else "elsewhere"


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


def _ground_walls(grounds: Sequence[Ground], court_out: Rect | None = None) -> list[Obstacle]:
    """The walls round each walled ground, outside its rect (as the court's). Where a ground
    lies against the court or an earlier ground, their wall serves: the ground's own is left
    out along it (so a gate in that wall, the court's own among them, joins the two)."""
    out: list[Obstacle] = []
    taken = [court_out] if court_out is not None else []
    for g in grounds:
        if g.wall > 0:
            (x0, y0, x1, y1), w = g.rect, g.wall
            for piece in ((x0 - w, y0 - w, x0, y1 + w), (x1, y0 - w, x1 + w, y1 + w),
                          (x0 - w, y1, x1 + w, y1 + w), (x0 - w, y0 - w, x1 + w, y0)):
                parts = [piece]
                for t in taken:
                    parts = [q for p in parts for q in _minus(p, t)]
                out += [Obstacle(g.name, "wall", p, g.loc) for p in parts]
        taken.append(g.outer)
    return out


def _minus(wall: Rect, r: Rect) -> list[Rect]:
    """A long thin wall less the stretch of it r covers (cut along its length)."""
    if not _overlap(wall, r):
        return [wall]
    x0, y0, x1, y1 = wall
    if x1 - x0 >= y1 - y0:
        parts = [(x0, y0, min(x1, r[0]), y1), (max(x0, r[2]), y0, x1, y1)]
    else:
        parts = [(x0, y0, x1, min(y1, r[1])), (x0, max(y0, r[3]), x1, y1)]
    return [p for p in parts if p[2] - p[0] > 1e-9 and p[3] - p[1] > 1e-9]


def _cut_gates(walls: list[Obstacle], gates: Sequence[Gate]) -> list[Obstacle]:
    """The walls with each gate's opening cut out of them: a wall a gate lies across is split
    along its length, either side of the gate (a wall no gate touches is kept as it is)."""
    out = list(walls)
    for g in gates:
        nxt = []
        for o in out:
            if o.kind != "wall" or not _overlap(o.rect, g.rect):
                nxt.append(o)
                continue
            x0, y0, x1, y1 = o.rect
            if x1 - x0 >= y1 - y0:  # an east–west wall: cut across x
                parts = [(x0, y0, g.rect[0], y1), (g.rect[2], y0, x1, y1)]
            else:
                parts = [(x0, y0, x1, g.rect[1]), (x0, g.rect[3], x1, y1)]
            nxt += [Obstacle(o.name, o.kind, p, o.loc, o.low) for p in parts
                    if p[2] - p[0] > 1e-9 and p[3] - p[1] > 1e-9]
        out = nxt
    return out


# Obstacle kinds the plan draws from the obstacle itself; a target is drawn by the features
# that lay its face flat, and the loader's own edges and stair sides are not drawn.
_DRAWN_KINDS = ("wall", "pillar", "blind")
_UNDRAWN_KINDS = ("target", "edge", "stair side")


def _structure_features(hall: Rect, stairs: Sequence[Stair], obstacles: Sequence[Obstacle],
                        court_in: Rect, wall: float, gate: tuple[float, float], gate_name: str,
                        elsewhere: Sequence[YMap] | YMap | None, range_rect: Rect | None,
                        grounds: Sequence[Ground] = (), gates: Sequence[Gate] = (),
                        regions: Sequence[Region] = ()) -> list[Feature]:
    """What the geometry itself draws: court, grounds, hall, regions, walls, 楹, 乏, buildings
    (a 塾: any other kind of obstacle, named), gates, stairs and their 等."""
    gx0, gx1 = gate
    scenes = ([] if elsewhere is None else [elsewhere] if isinstance(elsewhere, dict)
              else list(elsewhere))
    out = [Feature("court", "庭", _rect_points(court_in), True, None)]
    out += [Feature("yard", g.name, _rect_points(g.rect), True, g.name) for g in grounds]
    out.append(Feature("hall", "堂", _rect_points(hall), True, "堂"))
    out += [Feature("region", r.name, _rect_points(r.rect), True, r.label) for r in regions]
    # The court's, the grounds' and the scenes' walls are unnamed lines in a plan; the 序, 楹,
    # 乏 are named.
    generated = {*_COURT_WALLS, *(g.name for g in grounds), *(e["name"] for e in scenes)}
    for o in obstacles:
        if o.kind in _DRAWN_KINDS:
            out.append(Feature(o.kind, o.name, o.polygon, True,
                               None if o.name in generated else o.name))
        elif o.kind not in _UNDRAWN_KINDS:
            out.append(Feature(o.kind, o.name, o.polygon, True, o.name))
    out.append(Feature("gate", gate_name, _rect_points((gx0, court_in[1] - wall, gx1,
                                                        court_in[1])), True, gate_name))
    out += [Feature("gate", g.name, _rect_points(g.rect), True, g.name) for g in gates]
    for s in stairs:
        out.append(Feature("stair", s.name, _rect_points(s.rect), True, s.name))
        for y in s.risers:
            out.append(Feature("step", s.name, np.array([[s.rect[0], y], [s.rect[2], y]]), False,
                               None))
    for e in scenes:
        if "gate" in e:
            out.append(Feature("gate", e["name"], _rect_points(_rect_of(e["gate"])), True,
                               e["name"]))
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
