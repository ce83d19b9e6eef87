"""sample(t) gives the frames the channels give: compared, field by field, with a frozen copy
of the way sample(t) worked everything out before it read the direct tables (`_ref_frame`,
below: Channel.lookup's one searchsorted per channel, then each channel's values at t), on the
compiled bundled rite — at thousands of random moments, at every instant where anything
changes and just either side of it, while playing on, and closing at every step's end — and
on small made-up timelines with what the rite has few of (owners with no keyframe yet,
arrows in flight, several keyframes at one instant, channels of other kinds)."""
from __future__ import annotations

import numpy as np
import pytest

from viz.model.timeline import (
    _NONE,
    FLYING,
    SET_DOWN,
    STANDARD,
    ActorInfo,
    Event,
    PropInfo,
    StageSpan,
    StepSpan,
    Timeline,
    build_channel,
)

# ----------------------------------------------------------------- the reference, frozen


def _ref_lookup(ch, n, t, closing=None):
    if not len(ch.t):
        return np.zeros(n, int), np.zeros(n, bool)
    base = np.arange(n)
    i = ch.keys.searchsorted(np.arange(n) * ch.span + t, side="right")
    i -= 1
    if closing is not None and len(ch.writer):
        for _ in range(len(ch.t)):
            j = np.maximum(i, 0)
            later = (i >= 0) & (ch.owner[j] == base) & (ch.t[j] == t) & (ch.writer[j] > closing)
            if not later.any():
                break
            i = np.where(later, i - 1, i)
    before_all = i < 0
    np.maximum(i, 0, out=i)
    return i, (ch.owner[i] == base) & ~before_all


def _ref_get(ch, name, i, ok, default):
    v = ch.values.get(name, ())
    if not len(v):
        return np.full(len(i), default, dtype=float)
    return np.where(ok, v[i], default)


def _ref_step_channel(ch, n, t, closing):
    i, ok = _ref_lookup(ch, n, t, closing)
    return {k: _ref_get(ch, k, i, ok, 0) for k in ch.values}


_PACKED: dict = {}


def _ref_arrays(tl):
    got = _PACKED.get(id(tl))
    if got is None or got[0] is not tl:
        got = _PACKED[id(tl)] = (tl, (
            np.array([s.t0 for s in tl.steps]) if tl.steps else np.zeros(0),
            np.array([s.t0 for s in tl.stages]) if tl.stages else np.zeros(0),
            np.array([e.t0 for e in tl.events], float), np.array([e.t1 for e in tl.events], float),
            np.array([*tl.label_names, *(a.label for a in tl.actors)], object)))
    return got[1]


def _ref_pack(ch, cols):
    got = _PACKED.get((id(ch), cols))
    if got is None or got[0] is not ch:  # packed once per channel (the test's own memo)
        k = len(ch.t)
        got = _PACKED[(id(ch), cols)] = (ch, np.stack(
            [np.asarray(ch.values[c], float) if len(ch.values.get(c, ())) else np.zeros(k)
             for c in cols], axis=1) if k else np.zeros((0, len(cols))))
    return got[1]


def _ref_frame(tl, t, closing=False):
    """sample(t) as _full worked it out (viz/timeline.py before the direct tables)."""
    t = min(max(float(t), 0.0), tl.duration)
    n, m, ch = len(tl.actors), len(tl.props), tl.channels
    step_t0, stage_t0, ev_t0, ev_t1, names = _ref_arrays(tl)
    side = "left" if closing else "right"
    step = max(int(np.searchsorted(step_t0, t, side=side)) - 1, 0)
    stage = max(int(np.searchsorted(stage_t0, t, side=side)) - 1, 0)
    cut = step if closing else None
    mo = ch["motion"]
    if not len(mo.t) or not n:
        xy, facing, moving = np.zeros((n, 2)), np.zeros(n), np.zeros(n, bool)
    else:
        i, ok = _ref_lookup(mo, n, t, cut)
        j = np.minimum(i + 1, len(mo.t) - 1)
        nxt = ok & (mo.owner[j] == mo.owner[i]) & (j > i)
        t0, t1 = mo.t[i], mo.t[j]
        span = np.where(nxt & (t1 > t0), t1 - t0, np.inf)
        a = np.minimum(np.maximum((t - t0) / span, 0.0), 1.0)
        v = _ref_pack(mo, ("x", "y", "face"))
        d = v[j] - v[i]
        cur = v[i] + a[:, None] * d
        moving = (a > 0) & (a < 1) & ((d[:, 0] != 0) | (d[:, 1] != 0))
        xy, facing = cur[:, :2], cur[:, 2]
    po = ch["posture"]
    if not len(po.t) or not n:
        posture, phase, count, seated = (np.zeros(n, int), np.zeros(n), np.zeros(n, int),
                                         np.zeros(n, bool))
    else:
        i, ok = _ref_lookup(po, n, t, cut)
        v = _ref_pack(po, ("code", "end", "count", "seated"))[i]
        posture = np.where(ok, v[:, 0], 0).astype(int)
        start, end = po.t[i], v[:, 1]
        gesture = ok & (posture >= 2) & (end > start)
        phase = np.minimum(np.maximum((t - start) / np.where(gesture, end - start, np.inf),
                                      0.0), 1.0)
        count = np.where(gesture, v[:, 2], 0).astype(int)
        seated = (ok & (v[:, 3] != 0)) | (posture == 1)
    pi, pok = _ref_lookup(ch["presence"], n, t, cut)
    present = _ref_get(ch["presence"], "present", pi, pok, 0).astype(bool)
    pr = ch["props"]
    if not m:
        holder, prop_xy, visible = np.zeros(0, int), np.zeros((0, 2)), np.zeros(0, bool)
    elif not len(pr.t):
        holder, prop_xy, visible = np.full(m, SET_DOWN), np.zeros((m, 2)), np.zeros(m, bool)
    else:
        i, ok = _ref_lookup(pr, m, t, cut)
        pk = _ref_pack(pr, ("holder", "x", "y", "visible"))
        v = pk[i]
        holder = np.where(ok, v[:, 0], SET_DOWN).astype(int)
        visible = ok & (v[:, 3] != 0)
        prop_xy = v[:, 1:3].copy()
        held = holder >= 0
        prop_xy[held] = xy[holder[held]]
        fly = ok & (holder == FLYING)
        if fly.any():
            j = np.minimum(i + 1, len(pr.t) - 1)
            fly &= (j > i) & (pr.owner[j] == pr.owner[i])
            span = np.where(fly, pr.t[j] - pr.t[i], 1.0)
            a = np.clip((t - pr.t[i]) / np.where(span > 0, span, 1.0), 0, 1)[:, None]
            prop_xy[fly] = (prop_xy + a * (pk[j][:, 1:3] - prop_xy))[fly]
    hands: list = [()] * n
    for k in np.flatnonzero(holder >= 0).tolist():
        hands[holder[k]] = (*hands[holder[k]], tl.props[k].id)
    on = (ev_t0 < t) & (t <= ev_t1) if closing else (ev_t0 <= t) & (t < ev_t1)
    live = [tl.events[k] for k in np.flatnonzero(on).tolist()]
    li, lok = _ref_lookup(ch["label"], n, t, cut)
    codes = _ref_get(ch["label"], "label", li, lok, -1).astype(int)
    labels = tuple(names[np.where(codes >= 0, codes, len(tl.label_names) + np.arange(n))]
                   .tolist())
    values = {name: _ref_step_channel(c, c.owners, t, cut) for name, c in ch.items()
              if name not in STANDARD}  # step channels only (a linear one: sample() is _full)
    shown = np.where(holder >= 0, present[np.clip(holder, 0, None)] if len(present) else False,
                     True) if len(holder) else np.zeros(0, bool)
    return dict(t=t, stage=stage, step=step, present=present, xy=xy,
                facing=np.mod(facing, 360.0), posture=posture, phase=phase, count=count,
                moving=moving, holding=tuple(hands), prop_xy=prop_xy, prop_holder=holder,
                prop_visible=visible & shown,
                captions=tuple((e.actor, e.text) for e in live if e.kind == "say"),
                labels=labels, values=values, events=tuple(live), seated=seated)


MOVING = ("xy", "phase", "prop_xy")  # worked out by interpolation: equal to 1e-9


def assert_same_frame(f, ref: dict, where) -> None:
    for name, want in ref.items():
        got = getattr(f, name)
        if name == "values":
            assert list(got) == list(want), where
            for ch, cols in want.items():
                assert list(got[ch]) == list(cols), (where, ch)
                for col, w in cols.items():
                    g = got[ch][col]
                    assert g.dtype == w.dtype and np.array_equal(g, w), (where, ch, col)
        elif isinstance(want, np.ndarray):
            assert got.dtype == want.dtype and got.shape == want.shape, (where, name)
            if name in MOVING:
                assert np.allclose(got, want, rtol=0, atol=1e-9), (where, name,
                                                                   np.abs(got - want).max())
            elif name == "facing":  # 359.9999999999 and 0.0 are one facing
                assert np.abs((got - want + 180.0) % 360.0 - 180.0).max(initial=0) < 1e-9, (
                    where, name)
            else:
                assert np.array_equal(got, want), (where, name, np.flatnonzero(got != want))
        else:
            assert got == want, (where, name)


def instants(tl) -> np.ndarray:
    """Every instant at which anything changes: keyframes, events' ends, steps, stages."""
    times = [c.t for c in tl.channels.values()] + [[e.t0 for e in tl.events],
                                                    [e.t1 for e in tl.events]]
    times += [[s.t0 for s in tl.steps], [s.t0 for s in tl.stages], [0.0, tl.duration]]
    u = np.unique(np.concatenate([np.asarray(x, float) for x in times]))
    return u[(u >= 0) & (u <= tl.duration)]


# ----------------------------------------------------------------- the bundled rite


@pytest.fixture(scope="module")
def rite_tl(bundled):
    return bundled.timeline


def test_the_rite_is_sampled_from_the_direct_tables(rite_tl):
    assert rite_tl._direct is not None  # not the long way (_full) for every sample
    assert len(rite_tl._direct["checkpoints"]) > 10  # many checkpoints: moved on from each


@pytest.mark.slow
def test_random_moments(rite_tl):
    tl = rite_tl
    walking = 0
    for t in np.random.default_rng(3).uniform(0, tl.duration, 5000).tolist():
        tl._current = _NONE  # each a first sample there, not one played into
        f = tl.sample(t)
        assert_same_frame(f, _ref_frame(tl, t), t)
        walking += bool(f.moving.any())
    assert walking > 500  # someone walks at many of them: x, y and facing are looked at


def _check_instants(tl, us) -> None:
    for u in us.tolist():
        for t in (u - 1e-6, u, u + 1e-6):  # the state before and after a change, and at it
            if 0 <= t <= tl.duration:
                assert_same_frame(tl.sample(t), _ref_frame(tl, t), t)


PARTS = 4  # the sweep below in four tests (every fourth instant each), for pytest-xdist to spread


@pytest.mark.slow  # 16,000 instants: the quick tier checks the sample below
@pytest.mark.parametrize("part", range(PARTS))
def test_every_instant_of_change_and_either_side(rite_tl, part):
    _check_instants(rite_tl, instants(rite_tl)[part::PARTS])


# every instant of this stage in the default run: walks and bows on the hall, arrows in flight
# (the 司射's own shooting); the sweep above has every stage, in the full tier
SAMPLED_STAGES = ("誘射",)


def test_the_instants_of_a_stage_and_of_a_sample_of_the_rest(rite_tl):
    """The sweep above at every instant of change of a stage and 100 more of the rest, drawn at
    random (seeded), each with either side (three stages and 300 were 4.8 s of CPU; this 1.2)."""
    tl = rite_tl
    u = instants(tl)
    span = {s.name: s for s in tl.stages}
    inside = np.zeros(len(u), bool)
    for name in SAMPLED_STAGES:
        inside |= (u >= span[name].t0) & (u <= span[name].t1)
    rest = np.flatnonzero(~inside)
    drawn = np.random.default_rng(5).choice(rest, size=min(100, len(rest)), replace=False)
    assert inside.sum() > 100 and len(drawn) == 100
    _check_instants(tl, u[np.sort(np.concatenate([np.flatnonzero(inside), drawn]))])


@pytest.mark.slow
def test_playing_on_from_frame_to_frame(rite_tl):
    """Playing reuses what it found between two changes (the slopes of what moves)."""
    tl = rite_tl
    for start in np.random.default_rng(4).uniform(0, tl.duration - 60, 6).tolist():
        for t in (start + np.arange(1800) / 60.0).tolist():
            assert_same_frame(tl.sample(t), _ref_frame(tl, t), t)


@pytest.mark.slow
def test_closing_at_the_end_of_every_step(rite_tl):
    tl = rite_tl
    for s in tl.steps:
        assert_same_frame(tl.sample(s.t1, closing=True), _ref_frame(tl, s.t1, closing=True),
                          s.index)


def test_a_frame_s_arrays_are_its_own(rite_tl):
    """Two samples at moments far apart share no array, nor any with the tables."""
    tl = rite_tl
    a, b = tl.sample(100.0), tl.sample(7000.0)
    tables = [v for v in tl._direct.values() if isinstance(v, np.ndarray)]
    for name in ("present", "xy", "facing", "posture", "phase", "count", "moving", "prop_xy",
                 "prop_holder", "prop_visible", "seated"):
        assert not np.shares_memory(getattr(a, name), getattr(b, name)), name
        assert not any(np.shares_memory(getattr(a, name), v) for v in tables), name


# ----------------------------------------------------------------- made-up timelines


def made_up(seed: int, n: int = 5, m: int = 6, k: int = 40) -> Timeline:
    """A timeline with random keyframes on a coarse grid of times (so several fall on one
    instant), owners that have none for a while (or at all), arrows in flight, labels,
    an empty channel, and other channels of int, bool and float values."""
    rng = np.random.default_rng(seed)
    dur = 20.0

    def times(size):
        return rng.integers(0, 41, size) * 0.5

    def owners(size, top):
        return rng.integers(0, max(top - 1, 1), size)  # the last owner has no keyframe

    motion = build_channel(owners(k, n), times(k), "linear", x=rng.normal(0, 50, k),
                           y=rng.normal(0, 50, k), face=rng.uniform(-720, 720, k))
    code = rng.integers(0, 4, k)
    posture = build_channel(owners(k, n), times(k), code=code,
                            end=times(k) + rng.uniform(0, 3, k), count=rng.integers(1, 3, k),
                            seated=rng.random(k) < 0.3)
    presence = build_channel(owners(k // 2, n), times(k // 2), present=rng.random(k // 2) < 0.7)
    holder = rng.choice([SET_DOWN, FLYING, *range(n)], k)
    props = build_channel(owners(k, m), times(k), holder=holder, x=rng.normal(0, 50, k),
                          y=rng.normal(0, 50, k), visible=rng.random(k) < 0.8)
    label = build_channel(owners(6, n), times(6), label=rng.integers(-1, 3, 6))
    channels = {"motion": motion, "posture": posture, "presence": presence, "props": props,
                "label": label,
                "score": build_channel(owners(12, 3), times(12), owners=3,
                                       value=rng.integers(0, 9, 12)),
                "things": build_channel(owners(8, 4), times(8), owners=4,
                                        shown=rng.random(8) < 0.5),
                "weight": build_channel(owners(8, 2), times(8), owners=2, w=rng.random(8)),
                "nothing": build_channel([], [], owners=3, value=[])}
    actors = [ActorInfo(f"a{j}", f"甲{j}", "主", f"l{j}") for j in range(n)]
    prop_info = [PropInfo(f"p{j}", f"乙{j}", "矢") for j in range(m)]
    stages = [StageSpan(0, "一", "一", 0.0, 8.0, 0, 1), StageSpan(1, "二", "二", 8.0, dur, 2, 3)]
    steps = [StepSpan(j, j // 2, 5.0 * j, 5.0 * j + 5.0, "云", (0, 1), (), "x:1:1")
             for j in range(4)]
    events = [Event(float(a), float(a + d), str(rng.choice(["say", "call"])),
                    int(rng.integers(-1, n)), f"e{j}")
              for j, (a, d) in enumerate(zip(times(10), rng.integers(0, 6, 10)))]
    return Timeline(actors, prop_info, stages, steps, channels, events, dur,
                    label_names=("x", "y", "z"))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12))
def test_made_up_timelines(seed):
    tl = made_up(seed)
    assert tl._direct is not None
    rng = np.random.default_rng(seed)
    moments = [*instants(tl).tolist(), *(instants(tl) + 1e-6).tolist(),
               *(instants(tl) - 1e-6).tolist(), *rng.uniform(0, tl.duration, 300).tolist(),
               *np.arange(0, tl.duration, 1 / 60).tolist()]
    for t in moments:
        assert_same_frame(tl.sample(t), _ref_frame(tl, t), t)
    for s in tl.steps:
        assert_same_frame(tl.sample(s.t1, closing=True), _ref_frame(tl, s.t1, closing=True),
                          s.index)
