"""The shortcuts that make plates sooner give the answers of the plain ways they replace (issue
27: the atlas made faster, its bytes unchanged). Small inputs, no rite compiled."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from viz.backends import pgprims
from viz.draw import labels
from viz.export.atlas import _Clauses

# whole numbers too: points that fall on a box's edge (strictly inside is not on it)
coord = st.one_of(st.floats(-50.0, 350.0, allow_nan=False, width=32),
                  st.integers(-50, 350).map(float))
size = st.one_of(st.floats(0.0, 60.0, width=32), st.integers(0, 60).map(float))
box = st.tuples(coord, coord, size, size)


@settings(max_examples=150, deadline=None)
@given(st.tuples(coord, coord), st.tuples(coord, coord), st.lists(box, max_size=25),
       st.sampled_from(["any", "level", "upright", "point"]), st.sampled_from([1.0, 3.0, 7.5]))
def test_leaders_cross_the_boxes_numpy_finds(a, b, boxes, kind, step):
    """_crossed (a binary search for the run of a leader's points inside each box) counts the
    boxes the points × boxes test counts: any slope, level and upright leaders (a run of equal
    coordinates), a point, and boxes thinner than the 2 px they are shrunk by."""
    if kind == "level":
        b = (b[0], a[1])
    elif kind == "upright":
        b = (a[0], b[1])
    elif kind == "point":
        b = a
    arr = np.array([(x, y, x + w, y + h) for x, y, w, h in boxes], float).reshape(-1, 4)
    assert labels._crossed((a, b), arr, step) == labels._crossed_np((a, b), arr, step)


def test_a_leader_counts_only_the_boxes_it_runs_through():
    """The count itself (both ways): a level leader through one box, past one beside it and over one
    thinner than the 2 px it is shrunk by."""
    arr = np.array([(10.0, -5.0, 20.0, 5.0), (10.0, 6.0, 20.0, 16.0), (40.0, -0.9, 45.0, 0.9)])
    seg = ((0.0, 0.0), (60.0, 0.0))
    assert labels._crossed(seg, arr, 3.0) == labels._crossed_np(seg, arr, 3.0) == 1
    # along a shrunk box's edge is not inside it (strictly inside, as numpy's test)
    edge = np.array([(10.0, -1.0, 20.0, 9.0), (30.0, -9.0, 40.0, 1.0)])
    assert labels._crossed(seg, edge, 3.0) == labels._crossed_np(seg, edge, 3.0) == 0
    up = ((11.0, -30.0), (11.0, 30.0))
    edge = np.array([(10.0, -5.0, 20.0, 5.0), (0.0, -5.0, 12.0, 5.0), (9.0, -5.0, 13.0, 5.0)])
    assert labels._crossed(up, edge, 3.0) == labels._crossed_np(up, edge, 3.0) == 1


def test_dashes_in_whole_pixels_as_ipts_rounds_them():
    """_dashes rounds each dash's ends in its loop as _ipts does (clamped past ±30000 px): the
    dash patterns the drawing uses, on fixed random polylines near the middle and the clamp."""
    rng = np.random.default_rng(27)
    for k in range(60):
        at = (0.0, 29990.0, -29990.0)[k % 3]
        pts = (at + rng.uniform(-60, 60, (int(rng.integers(2, 6)), 2))).tolist()
        dash = ((2.0, 4.0), (2.0, 5.0), (4.0, 3.0), (5.0, 7.0))[k % 4]
        assert pgprims._dashes(np.array(pts, float), *dash) == _dashes_then_ipts(pts, *dash)


@settings(max_examples=60, deadline=None)
@given(st.floats(0.1, 12.0), st.floats(0.0, 12.0), st.lists(st.tuples(coord, coord), min_size=2,
                                                             max_size=5),
       st.sampled_from([0.0, 29990.0, -29990.0]))
def test_dashes_end_for_any_pattern(on, off, pts, at):
    """_dashes ends, whatever the pattern: a phase a rounding hair short of a dash's end (or of
    the next dash) once left s where it was for ever, at (0.7, 2.9) from (29990, 29990) to
    (30040, 29950). Each dash is at most `on` long (plus rounding to whole pixels)."""
    import signal

    def late(*_):
        raise TimeoutError("_dashes did not end")
    old = signal.signal(signal.SIGALRM, late)
    signal.alarm(5)
    try:
        a = np.array([(at + x, at + y) for x, y in pts], float)
        got = pgprims._dashes(a, on, off)
        hung = pgprims._dashes(np.array([(29990.0, 29990.0), (30040.0, 29950.0)]), 0.7, 2.9)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert all(np.hypot(q[0] - p[0], q[1] - p[1]) <= on + 2 for p, q in got)
    assert len(hung) == 18


def _dashes_then_ipts(pts, on, off):
    """The dash ends in floats, as _dashes found them before, each then rounded by _ipts."""
    period, pos, want = on + off, 0.0, []
    for (px, py), (qx, qy) in zip(pts, pts[1:]):
        seg = float(np.hypot(qx - px, qy - py))
        if seg == 0:
            continue
        ux, uy, s = (qx - px) / seg, (qy - py) / seg, 0.0
        while s < seg:
            phase = (pos + s) % period
            if phase < on:
                e = min(seg, s + on - phase)
                want.append(pgprims._ipts(((px + ux * s, py + uy * s), (px + ux * e, py + uy * e))))
                s = e
            else:
                s = min(seg, s + period - phase)
        pos += seg
    return want


@given(st.lists(st.tuples(st.integers(0, 300), st.integers(1, 40)), max_size=30),
       st.integers(-10, 320), st.integers(0, 50))
def test_clauses_a_span_meets_as_a_pass_over_all_finds_them(spans, a, length):
    """_Clauses.meeting finds the clauses with start < b and a < end, as the pass did."""
    clauses = tuple(SimpleNamespace(id=f"c{i}", start=s, end=s + n)
                    for i, (s, n) in enumerate(spans))
    corpus = SimpleNamespace(clauses=clauses)
    b = a + length
    want = {cl.id for cl in clauses if cl.start < b and a < cl.end}
    assert set(_Clauses.of(corpus).meeting(a, b)) == want
