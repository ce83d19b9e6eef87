"""A class reads the window from the back of the room (issue 27): group labels name one body as
the cast declares it (bodies:), stand at their members and meet no other name; at every archery
stage's default framing the 三耦 are one group named 三耦; a gate scene shows the 賔 and each
衆賔 apart; place names are at least 12 px. All by framing and labelling: the model is as it was.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from viz.draw import scene
from viz.draw.compose import Model, View, compose, drawn_framing

SIZE = (1366, 768)
NEAR_PX = 40.0  # a group label's box lies within this of one of its members
APART_PX = 12.0


@pytest.fixture(scope="module")
def whole(bundled):
    return bundled  # conftest's one compiled bundled rite a run


@pytest.fixture(scope="module")
def model(whole):
    return Model(whole.layout, whole.timeline, whole.corpus)


def _archery_stages(tl) -> list[int]:
    """The stages in which the 三耦 shoot (the compile's shots name who loosed, and when)."""
    sanou = {a.id for a in tl.actors if a.body == "三耦"}
    shots = tl.scoring["shots"] if tl.scoring and "shots" in tl.scoring else []
    out = set()
    for s in shots:
        if s["actor"] in sanou:
            out.add(tl.stage_at(float(s["t_release"])))
    return sorted(out)


def _box_gap(box, pt) -> float:
    x0, y0, x1, y1 = box
    dx = max(x0 - pt[0], 0.0, pt[0] - x1)
    dy = max(y0 - pt[1], 0.0, pt[1] - y1)
    return math.hypot(dx, dy)


def _overlap(a, b) -> float:
    return (max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
            * max(0.0, min(a[3], b[3]) - max(a[1], b[1])))


def _plane_px(model, fr, frame, i):
    """Where person i stands in the plane the labels were placed in (screen px, moved)."""
    k = fr.camera.scale
    from viz.draw.camera import ymap_for
    y = ymap_for(fr.camera.breaks).fwd1(float(frame.xy[i, 1]))
    return (round(float(frame.xy[i, 0]) * k), round(-y * k))


def _labels_at(model, t):
    comp = compose(model, View(), SIZE, t)
    drawn, _ = scene.last_drawn(main=True)
    return comp, drawn


def test_the_cast_declares_the_bodies(whole):
    bodies = {a.id: a.body for a in whole.timeline.actors}
    assert {bodies[f"{s}{n}"] for s in ("shangshe", "xiashe") for n in (1, 2, 3)} == {"三耦"}
    assert bodies["sishe"] == bodies["sizheng"] == "主人之吏" != bodies["shangshe1"]
    assert bodies["zhongbin1"] == bodies["zhongbin6"] == "衆賔"
    assert bodies["bin"] == "" and bodies["zhuren"] == ""


def test_archery_stages_are_found(whole):
    names = [whole.timeline.stages[i].name for i in _archery_stages(whole.timeline)]
    assert names[:2] == ["初射獲而未釋獲", "再射釋獲"] and "三射用樂" in names


def test_at_each_archery_stage_the_sanou_are_one_group_named_sanou(model, whole):
    tl = whole.timeline
    for si in _archery_stages(tl):
        s = tl.stages[si]
        _, drawn = _labels_at(model, s.t0)
        groups = [d for d in drawn if d.kind == "group"]
        named = [d for d in groups if d.text == "三耦"]
        assert len(named) == 1, (s.name, [d.text for d in groups])
        assert {tl.actors[i].body for i in named[0].who} == {"三耦"}
        assert len(named[0].who) == 6, s.name


def _check_labels(model, whole, t, where):
    tl = whole.timeline
    comp, drawn = _labels_at(model, t)
    fr = comp.framing
    frame = tl.sample(t)
    for d in drawn:
        if d.kind != "group":
            continue
        bodies = {tl.actors[i].body for i in d.who}
        assert len(bodies) == 1 and "" not in bodies, (where, d.text, bodies)
        gap = min(_box_gap(d.box, _plane_px(model, fr, frame, i)) for i in d.who)
        assert gap <= NEAR_PX, (where, d.text, gap)
    for a, b in itertools.combinations(drawn, 2):
        assert _overlap(a.box, b.box) < 1.0, (where, a.text, b.text)
    return drawn


@pytest.mark.slow  # every stage, 4 moments each
def test_group_labels_name_one_body_stand_at_it_and_meet_no_other_name(model, whole):
    """At every stage's default framing (its start, as --stage names it) and through every
    stage, a quarter, a half and three quarters in (mid-stage whole-site framings, 2–6 px a
    尺, where a crowd leaves a formation's name no free place beside its members: it takes the
    least covered of those places, never one further out)."""
    tl = whole.timeline
    moments = [(s.name, s.t0) for s in tl.stages]
    for s in tl.stages:
        moments += [(f"{s.name} ({k}/4)", s.t0 + (s.t1 - s.t0) * k / 4) for k in (1, 2, 3)]
    seen = 0
    for where, t in moments:
        seen += sum(d.kind == "group" for d in _check_labels(model, whole, t, where))
    assert seen > 40  # there were groups to check


@pytest.mark.slow  # 15 stages, 4 moments each
def test_officers_never_share_a_label_with_archers(model, whole):
    tl = whole.timeline
    officers = {i for i, a in enumerate(tl.actors) if a.body == "主人之吏"}
    archers = {i for i, a in enumerate(tl.actors) if a.body == "三耦"}
    for s in tl.stages[15:30]:
        for t in np.linspace(s.t0, s.t1, 4):
            _, drawn = _labels_at(model, float(t))
            for d in drawn:
                if d.kind == "group":
                    assert not (set(d.who) & officers and set(d.who) & archers), (s.name, d.text)


def test_at_the_gate_the_bin_and_each_zhongbin_stand_apart(model, whole):
    tl, lay = whole.timeline, whole.layout
    ids = [a.id for a in tl.actors]
    party = [ids.index("bin")] + [i for i, a in enumerate(tl.actors) if a.body == "衆賔"]
    si = next(i for i, s in enumerate(tl.stages) if s.name == "迎賔")
    checked = 0
    for st in tl.steps:
        if st.stage != si:
            continue
        frame = tl.sample(st.t1, True)
        if lay.region_at(*frame.xy[ids.index("bin")]) != "門外":
            continue
        cam = drawn_framing(model, View(), SIZE, st.t1, True).camera
        here = [i for i in party if frame.present[i]]
        pts = cam.to_screen(frame.xy[here])
        for a, b in itertools.combinations(range(len(here)), 2):
            d = float(np.hypot(*(pts[a] - pts[b])))
            assert d >= APART_PX, (st.cite, tl.actors[here[a]].label, tl.actors[here[b]].label, d)
        checked += 1
    assert checked >= 5


def test_place_names_are_at_least_12_px(model, whole):
    from viz.draw.display import Text

    comp = compose(model, View(), SIZE, whole.timeline.stages[17].t0)
    plan = next(la for la in comp.layers if la.name == "plan")
    names = [p for p in plan.prims if isinstance(p, Text) and p.text in whole.layout.places]
    assert len(names) >= 5
    assert min(p.size for p in names) >= 12
    bigger = compose(model, View(ui=1.5), SIZE, whole.timeline.stages[17].t0)
    plan2 = next(la for la in bigger.layers if la.name == "plan")
    assert min(p.size for p in plan2.prims if isinstance(p, Text)
               and p.text in whole.layout.places) >= 18  # they grow with the scale


@pytest.mark.slow
def test_the_model_is_unchanged_by_the_framing(whole, capsys):
    """state --json says nothing of bodies: the labels and the framing are the window's."""
    import json

    from viz.cli.main import main
    assert main(["state", "--stage", "初射", "--json"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert all("body" not in a for a in s["actors"])


def test_no_empty_range_inset_before_the_hou_is_set_up(model, whole):
    """戒賔 and 設席陳器: no 侯 yet and nobody on the range, so no empty inset frame; once the
    侯 is up (初射) the inset is drawn."""
    tl = whole.timeline
    for n in (0, 1):
        assert drawn_framing(model, View(), SIZE, tl.stages[n].t0 + 1.0).inset_box is None
    assert drawn_framing(model, View(), SIZE, tl.stages[17].t0).inset_box is not None
