"""sample(t) inside a segment (between two instants at which anything changes) is the
segment's frame at its first third moved on by the slope to its second third: worked out here
the long way (two full samples) at random moments, however the segment was made."""
from __future__ import annotations

import numpy as np

from viz.rite import Rite


def _long_way(tl, t: float):
    k = int(tl._breaks.searchsorted(t, side="right")) - 1
    a, b = float(tl._breaks[k]), float(tl._breaks[k + 1])
    tb, tc = a + (b - a) / 3, a + 2 * (b - a) / 3
    fb, fc = tl._full(tb, False, raw_facing=True), tl._full(tc, False, raw_facing=True)
    h, dt = tc - tb, t - tb
    xyf = np.column_stack([fb.xy, fb.facing])
    xyf = xyf + dt * ((np.column_stack([fc.xy, fc.facing]) - xyf) / h)
    return (xyf[:, :2], np.mod(xyf[:, 2], 360.0),
            (fb.phase + dt * ((fc.phase - fb.phase) / h)).clip(0.0, 1.0),
            fb.prop_xy + dt * ((fc.prop_xy - fb.prop_xy) / h), fb)


def test_a_sample_in_a_segment_is_the_two_thirds_slope(small_rite, corpus):
    from viz import DEFAULT_LAYOUT

    tl = Rite(small_rite(), DEFAULT_LAYOUT, corpus).get(()).timeline
    assert tl._fast
    rng = np.random.default_rng(3)
    inner = [t for t in rng.uniform(0, tl.duration, 400)
             if not np.isin(t, tl._breaks)]
    moved = 0
    for t in inner:
        tl._segments.clear()  # each made for a random moment, not by playing into it
        f = tl.sample(float(t))
        xy, facing, phase, prop_xy, fb = _long_way(tl, float(t))
        assert np.array_equal(f.xy, xy) and np.array_equal(f.facing, facing)
        assert np.array_equal(f.phase, phase) and np.array_equal(f.prop_xy, prop_xy)
        for name in ("present", "posture", "count", "moving", "prop_holder", "prop_visible",
                     "seated"):
            assert np.array_equal(getattr(f, name), getattr(fb, name)), name
        assert (f.holding, f.labels, f.captions, f.events, f.step, f.stage) == (
            fb.holding, fb.labels, fb.captions, fb.events, fb.step, fb.stage)
        moved += bool(f.moving.any())
    assert moved > 10  # someone walks in many of them: the slopes are looked at
