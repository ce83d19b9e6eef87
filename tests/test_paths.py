"""Walking routes through the 州序: nothing crossed, stairs climbed, named ways honoured, fast."""
from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from viz.model.layout import DEFAULT_LAYOUT, load_layout
from viz.model.paths import Planner, Unreachable

XU = load_layout(DEFAULT_LAYOUT)
NAMES = sorted(XU.places)


# -- geometry written here, independent of viz.model.paths -------------------------------------


def _orient(a, b, c):
    """The orientation of the turn a → b → c (its sign); arrays of points broadcast."""
    return ((b[..., 0] - a[..., 0]) * (c[..., 1] - a[..., 1])
            - (b[..., 1] - a[..., 1]) * (c[..., 0] - a[..., 0]))


def _proper_cross(p, q, a, b):
    """Segments pq and ab cross at a point inside both (touching at an end does not count);
    arrays of segments broadcast (numpy: these checks ran thousands of examples in pure Python)."""
    d1, d2 = _orient(a, b, p), _orient(a, b, q)
    d3, d4 = _orient(p, q, a), _orient(p, q, b)
    return (d1 * d2 < 0) & (d3 * d4 < 0)


def _inside_polygon(pts, poly):
    """Ray casting, for a point or an (n, 2) array of them; points on the boundary may go either
    way, so callers sample off it."""
    pts = np.asarray(pts, dtype=float)
    x, y = pts[..., 0, None], pts[..., 1, None]
    a = np.asarray(poly, dtype=float)
    (x1, y1), (x2, y2) = a.T, np.roll(a, -1, axis=0).T
    with np.errstate(divide="ignore", invalid="ignore"):  # level edges straddle nothing
        hits = ((y1 > y) != (y2 > y)) & (x < x1 + (y - y1) * (x2 - x1) / (y2 - y1))
    return hits.sum(-1) % 2 == 1


def _dist_to_rect(pt, r) -> float:
    dx = max(r[0] - pt[0], 0, pt[0] - r[2])
    dy = max(r[1] - pt[1], 0, pt[1] - r[3])
    return float(np.hypot(dx, dy))


def _samples(route, n=24):
    """Points along each leg of the route, its ends left out: an (m, 2) array."""
    route = np.asarray(route, dtype=float)
    p, q = route[:-1, None, :], route[1:, None, :]
    t = np.linspace(0, 1, n)[1:-1, None]
    return (p + t * (q - p)).reshape(-1, 2)


def assert_walkable(layout, route):
    route = np.asarray(route, dtype=float)
    p, q = route[:-1, None, :], route[1:, None, :]
    for o in layout.obstacles:
        a = np.asarray(o.polygon, dtype=float)
        crossed = _proper_cross(p, q, a[None], np.roll(a, -1, axis=0)[None])
        assert not crossed.any(), (route[np.flatnonzero(crossed.any(1))], o.name)
    s = _samples(route)
    for o in layout.obstacles:
        inside = _inside_polygon(s, o.polygon)
        assert not inside.any(), (s[inside], o.name)
    # one goes up or down a stair facing it: any stretch over a stair runs due north or south
    for p, q in pairwise(route):
        for stair in layout.stairs:
            poly = np.array([[stair.rect[0], stair.rect[1]], [stair.rect[2], stair.rect[1]],
                             [stair.rect[2], stair.rect[3]], [stair.rect[0], stair.rect[3]]])
            if _inside_polygon(_samples(np.array([p, q]), 12), poly).any():
                assert abs(p[0] - q[0]) < 1e-9, (p, q, stair.name)


def _in_some_obstacle(layout, pt):
    return [o for o in layout.obstacles if _inside_polygon(pt, o.polygon)]


def assert_ends(layout, route, given_pt, end):
    """The route starts (or ends) at the given point, or beside the obstacle the point is in."""
    holders = _in_some_obstacle(layout, given_pt)
    if not holders:
        assert np.allclose(end, given_pt)
    else:
        assert not _in_some_obstacle(layout, end)
        # on the inflated edge: a side, or at worst a corner
        reach = (layout.clearance + 0.1) * np.sqrt(2)
        assert min(_dist_to_rect(end, o.rect) for o in holders) <= reach


def _passes_a_stair(layout, route) -> bool:
    return any(layout.region_at(*s) == "階" for s in _samples(route))


# -- properties over the places ----------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(a=st.sampled_from(NAMES), b=st.sampled_from(NAMES))
def test_route_between_places_crosses_nothing(a, b):
    pa, pb = XU.place_xy(a), XU.place_xy(b)
    r = XU.route(pa, pb)
    assert r.ndim == 2 and r.shape[1] == 2 and len(r) >= 2
    assert_walkable(XU, r)
    assert_ends(XU, r, pa, r[0])
    assert_ends(XU, r, pb, r[-1])
    # regions where the walk really begins and ends (a place inside an obstacle, such as the
    # 西榮 on the 堂's edge, is reached from whichever side the walk comes)
    ra, rb = XU.region_at(*r[0]), XU.region_at(*r[-1])
    if {ra, rb} == {"堂"} or ("堂" not in (ra, rb) and "階" not in (ra, rb)):
        assert XU.stair_steps(r) == 0
    elif "階" not in (ra, rb):
        assert _passes_a_stair(XU, r)
        assert XU.stair_steps(r) == 3


free_points = st.tuples(st.floats(-80, 80), st.floats(-120, 45)).filter(
    lambda p: not _in_some_obstacle(XU, p) and XU.region_at(*p) != "階")


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(a=free_points, b=free_points)
def test_route_between_any_free_points_crosses_nothing(a, b):
    r = XU.route(a, b)
    assert_walkable(XU, r)
    assert np.allclose(r[0], a) and np.allclose(r[-1], b)
    if (XU.region_at(*a) == "堂") != (XU.region_at(*b) == "堂"):
        assert XU.stair_steps(r) == 3


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(a=st.sampled_from(NAMES), v=st.sampled_from(NAMES), b=st.sampled_from(NAMES))
def test_a_via_place_is_passed(a, v, b):
    r = XU.route(XU.place_xy(a), XU.place_xy(b), via=(v,))
    assert_walkable(XU, r)
    pv = XU.place_xy(v)
    if not _in_some_obstacle(XU, pv) and XU.region_at(*pv) != "階":
        # on the route, as a corner or inside a straight leg (collinear corners are merged)
        p, q = r[:-1], r[1:]
        d = q - p
        u = np.clip(((pv - p) * d).sum(1) / np.maximum((d * d).sum(1), 1e-12), 0, 1)
        assert np.min(np.linalg.norm(p + u[:, None] * d - pv, axis=1)) < 1e-9


# -- hand-worked routes ------------------------------------------------------------------


def _y_where_crossing_x(route, x):
    ys = []
    for p, q in pairwise(route):
        if (p[0] - x) * (q[0] - x) < 0 or (p[0] == x and q[0] != x):
            t = (x - p[0]) / (q[0] - p[0])
            ys.append(p[1] + t * (q[1] - p[1]))
    return ys


def test_gou_ying_nei_passes_north_of_the_west_pillar():
    """鉤楹內 (序: 物當棟): from the 西階 to the 右物, round the north of the 西楹."""
    pillar = next(o for o in XU.obstacles if o.name == "西楹")
    r = XU.route_places("西階上", "右物", via=("鉤楹內",))
    ys = _y_where_crossing_x(r, -12.0)
    assert ys and all(y > pillar.rect[3] for y in ys)
    r_out = XU.route_places("西階上", "右物", via=("由楹外",))
    ys = _y_where_crossing_x(r_out, -12.0)
    assert ys and all(y < pillar.rect[1] for y in ys)
    # the named way and its via place give the same walk
    assert np.allclose(r, XU.route_places("西階上", "右物", via=("西楹北",)))


def test_you_si_ma_zhi_nan_passes_south_of_the_si_ma():
    r = XU.route_places("射位", "西階上", via=("由司馬之南",))
    sx, sy = XU.place_xy("司馬位")
    assert _y_where_crossing_x(r, sx)[0] < sy


def test_walk_from_hall_to_basin_goes_down_the_east_stair_straight():
    r = XU.route_places("阼階上", "洗")
    assert XU.stair_steps(r) == 3
    down = [(p, q) for p, q in pairwise(r) if p[1] >= 0 > q[1]]
    assert len(down) == 1 and down[0][0][0] == down[0][1][0] == 20  # the 阼階's middle line


def test_court_walk_does_not_cut_across_the_hall():
    r = XU.route_places("堂西", "堂東")
    assert XU.stair_steps(r) == 0
    assert all(XU.region_at(*s) not in ("堂", "階") for s in _samples(r))


def test_gate_is_the_only_way_out():
    r = XU.route_places("中庭", "侯中")
    crossing = _y_where_crossing_x(r[:, ::-1], -90.0)  # x where the route crosses y = -90
    assert len(crossing) == 1 and -6 < crossing[0] < 6


def test_route_to_a_pillar_stops_at_its_face():
    r = XU.route_places("楹間", "東楹")
    assert r[-1][0] < 11.25 and abs(r[-1][1] - 10) < 2  # the 東楹's west face
    assert_walkable(XU, r)


def test_stair_steps_by_hand():
    assert XU.stair_steps(np.array([[20, 2], [20, -6]])) == 3
    assert XU.stair_steps(np.array([[20, -6], [20, 2], [20, -6]])) == 6
    assert XU.stair_steps(np.array([[20, 2], [20, -2.25]])) == 1
    assert XU.stair_steps(np.array([[-46, 8], [-46, -20], [46, -20]])) == 0
    assert XU.stair_steps(np.array([[0, 0]])) == 0


def test_segment_blocked_by_hand():
    assert XU.segment_blocked((-12, 5), (-12, 15))  # through the 西楹
    assert XU.segment_blocked((0, 5), (0, -5))  # off the 堂's edge
    assert XU.segment_blocked((40, 5), (40, -60)) is True  # the 堂's corner, then nothing
    assert XU.segment_blocked((0, -350), (0, -370)) is False  # out through the gate
    assert XU.segment_blocked((20, -350), (20, -370))  # through the south wall
    assert XU.segment_blocked((0, -80), (0, -100)) is False  # the 庭 goes on south to the range
    assert XU.segment_blocked((-10, -270), (-10, -290))  # through the 侯 (下綱不及地武)
    assert XU.segment_blocked((-40, -170), (-20, -190))  # through the 乏
    assert not XU.segment_blocked((20, 2), (20, -6))  # down the 阼階


def test_unknown_via_names_the_place():
    with pytest.raises(KeyError, match="西楹背"):
        XU.route((0, 0), (1, 1), via=("西楹背",))


# -- cut-off places ----------------------------------------------------------------------

# A closed room round the origin (walls 1 thick, inside 8 × 8) and a post to walk round.
ROOM = [(-5, -5, 5, -4), (-5, 4, 5, 5), (-5, -5, -4, 5), (4, -5, 5, 5), (10, -2, 12, 2)]


def test_a_walk_out_of_a_closed_room_raises_unreachable_with_its_ends():
    planner = Planner(ROOM, clearance=1.0)
    with pytest.raises(Unreachable) as e:
        planner.route([(0, 0), (20, 0)])
    assert isinstance(e.value, ValueError)  # callers that caught ValueError still do
    assert (e.value.a, e.value.b) == ((0.0, 0.0), (20.0, 0.0))
    assert "(0.0, 0.0)" in str(e.value) and "(20.0, 0.0)" in str(e.value)


def test_reachable_answers_for_many_points_at_once():
    planner = Planner(ROOM, clearance=1.0)
    got = planner.reachable((20, 0), [(0, 0), (3, 3), (8, 0), (-20, -20), (11, 0)])
    # in the room; in the room; beside the post; far off; inside the post (reached at its side)
    assert got.tolist() == [False, False, True, True, True]
    assert planner.reachable((0, 0), [(2, 2), (20, 0)]).tolist() == [True, False]
    assert planner.reachable((0, 0), []).shape == (0,)


def test_every_place_of_the_bundled_layout_is_reachable():
    assert XU.planner.reachable(XU.place_xy("堂"), XU._place_array).all()


_rects = st.lists(st.tuples(st.integers(-20, 15), st.integers(-20, 15), st.integers(1, 12),
                            st.integers(1, 12)).map(lambda r: (r[0], r[1], r[0] + r[2], r[1] + r[3])),
                  min_size=1, max_size=6)
_pts = st.tuples(st.integers(-25, 25), st.integers(-25, 25))


@settings(max_examples=40, deadline=None)
@given(rects=_rects, a=_pts, b=_pts, clearance=st.sampled_from([0.5, 1.0, 2.0]))
def test_reachable_agrees_with_the_walk_itself(rects, a, b, clearance):
    """reachable() is the loader's shortcut for "would route() find a walk": they never differ."""
    planner = Planner(rects, clearance)
    try:
        planner.route([a, b])
        walked = True
    except Unreachable:
        walked = False
    assert bool(planner.reachable(a, [b])[0]) == walked
