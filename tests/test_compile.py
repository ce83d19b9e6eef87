"""The compiled timeline: positions and times worked by hand, and sample(t) at and between steps."""
from __future__ import annotations

import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from viz.base.errors import Collector
from viz.model.compile.compiler import compile_script
from viz.model.script.reader import parse_script

SCRIPT = textwrap.dedent("""\
    settings: {walk_speed: 5, turn: 0.5, spacing: 3, gestures: {拜: 2.0, take: 1.0, give: 1.0}}
    cast:
      - {id: zhuren, name: 主人, party: 主, label: 主}
      - {id: xiang, name: 相, party: 主, label: 相}
      - {id: bin, name: 賔, party: 賓, label: 賔}
      - {id: zhong1, name: 衆賔, party: 賓, label: 衆1}
      - {id: zhong2, name: 衆賔, party: 賓, label: 衆2}
    props:
      - {id: jue, name: 爵, kind: 爵, at: 上篚}
      - {id: shi, name: 矢, kind: 矢, held_by: bin}
    patterns:
      再拜:
        params: {who: actors}
        steps:
          - do: [{posture: {who: $who, is: 拜, count: 2}}]
    stages:
      - name: 迎賔
        setup:
          - {who: zhuren, at: 門內, face: 南}
          - {who: bin, at: 門外, face: 北}
          - {who: [zhong1, zhong2], at: 門外, formation: 東面北上, absent: true}
        steps:
          - cite: 主人一相出迎於門外
            do:
              - move: {who: zhuren, to: {place: 門外, side: 北, dist: 4}, face: 西}
          - cite: 再拜
            use: 再拜
            with: {who: zhuren}
          - cite: 衆賔皆入門左東靣北上
            do:
              - enter: {who: [zhong1, zhong2], at: 門內, formation: 東面北上}
          - cite: 主人以賔三揖
            dur: 1
            do:
              - move: {who: bin, to: {place: 門外, dx: 10}}
      - name: 酬賔
        gap: {skips: 6-7}
        setup:
          - {who: zhuren, at: 阼階上, face: 西}
        steps:
          - cite: 主人取爵於上篚以降
            do:
              - take: {who: zhuren, prop: jue}
              - give: {who: zhuren, prop: jue, to: bin}
          - cite: 賔降
            do:
              - shoot: {who: bin, prop: shi, at: 洗}
    """)


@pytest.fixture
def tl(field, corpus):
    out = Collector()
    s = parse_script(SCRIPT, field, corpus, "t.yaml")
    t = compile_script(s, field, out)
    t.warnings = out.warnings
    return t


def actor(tl, f, aid):
    i = tl.actor_index[aid]
    return f.xy[i], f.facing[i], f.posture[i], f.present[i]


def test_walk_then_turn_times_by_hand(tl):
    # 門內 (0,-90) → 4 尺 north of 門外 (0,-96): 6 尺 at 5 尺/s = 1.2 s, no turn (already
    # facing south); then 0.5 s to turn to the west
    s0 = tl.steps[0]
    assert (s0.t0, s0.t1) == (0.0, pytest.approx(1.7))
    xy, face, _, present = actor(tl, tl.sample(0.6), "zhuren")
    assert xy == pytest.approx([0, -93]) and face == pytest.approx(180) and present
    xy, face, *_ = actor(tl, tl.sample(1.45), "zhuren")
    assert xy == pytest.approx([0, -96]) and face == pytest.approx(225)
    assert actor(tl, tl.sample(1.7), "zhuren")[1] == pytest.approx(270)


def test_gesture_phase_and_step_boundaries(tl):
    s1 = tl.steps[1]
    assert s1.pattern == "再拜" and s1.t1 - s1.t0 == pytest.approx(4.0)
    f = tl.sample(s1.t0 + 1.0)
    i = tl.actor_index["zhuren"]
    assert f.posture[i] == 2 and f.phase[i] == pytest.approx(0.25)
    # at a boundary the new step is current; just before it the old one
    assert tl.step_at(s1.t0) == 1 and tl.step_at(s1.t0 - 1e-6) == 0
    assert tl.sample(s1.t1).posture[i] == 0


def test_formation_and_enter(tl):
    s2 = tl.steps[2]
    before = tl.sample(s2.t0 - 1e-3)
    assert not before.present[tl.actor_index["zhong1"]]
    f = tl.sample(s2.t1)
    a, b = (actor(tl, f, k) for k in ("zhong1", "zhong2"))
    # 東面北上 at 門內 (0,-90): the senior at the place, the next 3 尺 south, both facing east
    assert a[0] == pytest.approx([0, -90]) and b[0] == pytest.approx([0, -93])
    assert a[1] == pytest.approx(90) and b[1] == pytest.approx(90) and a[3] and b[3]


def test_dur_override_rescales_and_warns_of_running(tl):
    s3 = tl.steps[3]
    assert s3.t1 - s3.t0 == pytest.approx(1.0)
    assert actor(tl, tl.sample(s3.t1), "bin")[0] == pytest.approx([10, -100])
    assert any("faster than a brisk walk" in w.message for w in tl.warnings)


def test_stage_end_is_its_own_final_state(tl):
    st0, st1 = tl.stages
    assert st1.t0 > st0.t1
    # zhuren is teleported to 阼階上 by the next stage's setup, but not before it starts
    assert actor(tl, tl.sample(st0.t1), "zhuren")[0] == pytest.approx([0, -96])
    assert actor(tl, tl.sample((st0.t1 + st1.t0) / 2), "zhuren")[0] == pytest.approx([0, -96])
    assert actor(tl, tl.sample(st1.t0), "zhuren")[0] == pytest.approx([20, 3])


def test_props_follow_hands_and_fly(tl, field):
    take, shoot = tl.steps[4], tl.steps[5]
    j, k = tl.prop_index["jue"], tl.prop_index["shi"]
    f = tl.sample(take.t0 + 0.5)
    assert f.prop_holder[j] == -1 and f.prop_xy[j] == pytest.approx([10, 20])
    f = tl.sample(take.t0 + 1.5)
    assert f.holding[tl.actor_index["zhuren"]] == ("jue",)
    f = tl.sample(take.t1)
    assert f.holding[tl.actor_index["bin"]] == ("jue", "shi")
    # the arrow leaves the bow after 1.2 s (default shoot gesture) and flies at 200 尺/s
    start = tl.sample(shoot.t0).xy[tl.actor_index["bin"]]
    dist = float(np.hypot(*(np.array([30, -30]) - start)))
    assert shoot.t1 - shoot.t0 == pytest.approx(1.2 + dist / 200)
    mid = tl.sample(shoot.t0 + 1.2 + dist / 400)
    assert mid.prop_holder[k] == -2
    assert mid.prop_xy[k] == pytest.approx((start + np.array([30, -30])) / 2)
    assert tl.sample(shoot.t1).prop_xy[k] == pytest.approx([30, -30])


def test_overlap_warning(field, corpus):
    text = SCRIPT.replace("to: {place: 門外, dx: 10}", "to: {place: 門外, side: 北, dist: 4}")
    out = Collector()
    compile_script(parse_script(text, field, corpus, "t.yaml"), field, out)
    assert any("賔 (bin)" in w.message and "apart" in w.message for w in out.warnings)


def test_path_through_obstacle_warning(field, corpus):
    field.segment_blocked = lambda a, b: True
    out = Collector()
    compile_script(parse_script(SCRIPT, field, corpus, "t.yaml"), field, out)
    assert any("passes through an obstacle" in w.message for w in out.warnings)


def reference_xy(tl, aid: str, t: float) -> np.ndarray:
    """A slow, separate reading of the keyframes: the last at or before t, then linear."""
    ch, a = tl.channels["motion"], tl.actor_index[aid]
    rows = [(ch.t[k], ch.values["x"][k], ch.values["y"][k]) for k in range(len(ch.t))
            if ch.owner[k] == a]
    before = [r for r in rows if r[0] <= t]
    cur = before[-1]
    after = rows[len(before)] if len(before) < len(rows) else None
    if after is None or after[0] == cur[0]:
        return np.array(cur[1:])
    w = (t - cur[0]) / (after[0] - cur[0])
    return np.array(cur[1:]) + w * (np.array(after[1:]) - np.array(cur[1:]))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(u=st.floats(0, 1))
def test_sample_agrees_with_a_plain_reading(tl, u):
    t = u * tl.duration
    f = tl.sample(t)
    for aid in ("zhuren", "bin", "zhong2"):
        assert f.xy[tl.actor_index[aid]] == pytest.approx(reference_xy(tl, aid, t), abs=1e-9)


def test_sample_is_pure(tl):
    """Scrubbing backwards gives the same answer as playing forwards: nothing accumulates."""
    ts = np.linspace(0, tl.duration, 37)
    forward = [tl.sample(t).xy.copy() for t in ts]
    backward = [tl.sample(t).xy.copy() for t in ts[::-1]][::-1]
    for a, b in zip(forward, backward):
        assert np.array_equal(a, b)


SETUP = textwrap.dedent("""\
    settings: {walk_speed: 5, turn: 0.5}
    cast:
      - {id: zhuren, name: 主人, party: 主, label: 主}
      - {id: sizheng, name: 司正, party: 主, label: 司正}
    props:
      - {id: gong, name: 弓, kind: 弓, at: 洗, absent: true}
    stages:
      - name: 迎賔
        setup:
          - {who: zhuren, at: 門內, face: 南}
          - {who: sizheng, at: {place: 門內, dx: 5}, face: 南}
        steps:
          - cite: 主人一相出迎於門外
            do:
              - wait: {who: sizheng, dur: 2}
              - move: {who: sizheng, to: {place: 門外, dx: 5}}
              - move: {who: zhuren, to: 門外}
      - name: 誘射
        labels: {sizheng: 司馬}
        gap: {skips: 6-16}
        setup:
          - {prop: gong, held_by: zhuren}
        steps:
          - cite: 司射猶挾乘矢
            do: [{wait: {dur: 1}}]
    """)


def test_absent_props_setup_props_stage_labels_and_waits(field, corpus):
    tl = compile_script(parse_script(SETUP, field, corpus, "s.yaml"), field)
    g, s = tl.prop_index["gong"], tl.actor_index["sizheng"]
    assert not tl.sample(0).prop_visible[g]
    st1 = tl.stages[1]
    f = tl.sample(st1.t0)
    assert f.prop_visible[g] and f.holding[tl.actor_index["zhuren"]] == ("gong",)
    assert tl.stages[0].labels[s] == "司正" and st1.labels[s] == "司馬"
    # the 司正 waits 2 s, then walks the same 10 尺 as the 主人 (at 5 尺/s, 2 s)
    assert tl.sample(1.0).xy[s] == pytest.approx([5, -90])
    assert tl.sample(3.0).xy[s] == pytest.approx([5, -95])
    assert tl.steps[0].t1 == pytest.approx(4.0)


def test_sample_with_empty_channels():
    from viz.model.timeline import ActorInfo, Timeline, build_channel

    empty = build_channel([], [])
    tl = Timeline([ActorInfo("a", "主人", "主", "主")], [], [], [], {"motion": empty}, [], 5.0)
    f = tl.sample(2.0)
    assert f.xy.shape == (1, 2) and f.posture.tolist() == [0] and not f.present[0]


def test_bow_count_reaches_the_frame(tl):
    f = tl.sample(tl.steps[1].t0 + 0.1)
    assert f.count[tl.actor_index["zhuren"]] == 2 and f.labels[tl.actor_index["zhuren"]] == "主"


def test_setup_brings_props_in_where_declared(field, corpus):
    text = SETUP.replace("- {prop: gong, held_by: zhuren}", "- {prop: [gong]}")
    tl = compile_script(parse_script(text, field, corpus, "s.yaml"), field)
    g = tl.prop_index["gong"]
    f = tl.sample(tl.stages[1].t0)
    assert f.prop_visible[g] and f.prop_holder[g] == -1 and f.prop_xy[g] == pytest.approx([30, -30])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(u=st.floats(0, 1))
def test_a_sample_inside_a_segment_agrees_with_the_full_reading(bundled, u):
    """The fast path (a segment's constants and slopes) gives what the channels give."""
    tl = bundled.timeline
    t = u * tl.duration
    a, b = tl.sample(t), tl._full(t, False)  # noqa: SLF001 (the path the segments stand in for)
    assert a.xy == pytest.approx(b.xy, abs=1e-9) and a.prop_xy == pytest.approx(b.prop_xy, abs=1e-9)
    assert np.abs((a.facing - b.facing + 180) % 360 - 180).max() < 1e-7  # 0° is 360°
    assert a.phase == pytest.approx(b.phase, abs=1e-9)
    assert (a.moving == b.moving).all() and (a.posture == b.posture).all()
    assert a.holding == b.holding and a.labels == b.labels and a.captions == b.captions
    assert (a.step, a.stage) == (b.step, b.stage)
