"""The whole bundled rite, 戒賔 to 息司正: 37 stages that follow on, clean under --strict in
every scenario the rite declares (--set 大夫, 衆賔), and the shooting as the text does it —
the score read from the compiled rite agrees with the state at every count, and a new seed
changes hits and everything counted from them."""
from __future__ import annotations

import pytest

from viz import DEFAULT_LAYOUT, DEFAULT_SCRIPT
from viz.model.rite import Rite
from viz.model.scoring import report, score_values
from viz.query.lint import motion_warnings
from viz.query.state import state

SHOOTING = ["請射", "誘射", "初射獲而未釋獲", "取矢", "再請射", "再射釋獲", "賔主大夫衆賔射",
            "取矢視算", "飲不勝者", "獻獲者及釋獲者", "三請射", "三射用樂", "三射取矢視算",
            "三射飲不勝者", "三射畢"]


@pytest.fixture(scope="module")
def whole(bundled):
    return bundled


def test_thirty_seven_stages_in_the_text_s_order_with_no_gap(whole):
    tl = whole.timeline
    assert [s.number for s in whole.script.stages] == list(range(1, 38))
    assert not any(s.gap for s in whole.script.stages)
    assert tl.stages[0].name == "戒賔" and tl.stages[-1].name == "息司正"
    names = [s.name for s in tl.stages]
    assert all(n in names for n in SHOOTING)


@pytest.mark.slow
@pytest.mark.parametrize("sets", [(("大夫", "0"),), (("大夫", "2"),), (("衆賔", "2"),),
                                  (("衆賔", "9"),), (("大夫", "0"), ("衆賔", "3"))])
def test_every_scenario_plays_cleanly(corpus, sets):
    got = Rite(DEFAULT_SCRIPT, DEFAULT_LAYOUT, corpus, sets=sets).get(())
    problems = [*got.warnings, *motion_warnings(got.timeline)]
    assert not problems, "\n".join(map(str, problems[:10]))
    ids = {a.id for a in got.timeline.actors}
    if sets == (("大夫", "0"),):
        assert "dafu" not in ids
        # 獻大夫 and 大夫酢 happen only if a 大夫 comes: nothing is enacted in them
        for st in got.timeline.stages:
            if st.name in ("獻大夫", "大夫酢"):
                assert st.last_step < st.first_step or st.t1 - st.t0 < 1.0, st
    if sets == (("大夫", "2"),):
        assert {"dafu", "dafu2"} <= ids
    if sets == (("衆賔", "9"),):
        assert "zhongbin9" in ids
    if sets == (("衆賔", "2"),):
        assert "zhongbin3" not in ids


def test_the_counts_on_screen_match_the_score(whole):
    tl, lay = whole.timeline, whole.layout
    rep = report(tl)
    counted = [r for r in rep["rounds"] if r["announce"]]
    assert [r["round"] for r in counted] == [2, 3]
    for ev, r in zip([e for e in tl.events if e.kind == "count"], counted):
        before = state(tl, lay, whole.corpus, ev.t0 - 0.01)  # the 算 laid, on screen
        assert before["round"] == r["round"]
        assert before["tally"] == r["tally"]
        after = state(tl, lay, whole.corpus, ev.t1 + 0.01)
        assert after["results"][-1]["announce"] == r["announce"]
        tallied = [s for a in r["archers"] for s in a["shots"] if s["tallied"]]
        assert len(tallied) == r["tally"]["右"] + r["tally"]["左"]
    # round 1 is called, never counted; each archer shoots four arrows a round
    r1 = rep["rounds"][0]
    assert r1["round"] == 1 and r1["tally"] is None
    assert all(len(a["shots"]) == 4 and not any(s["tallied"] for s in a["shots"])
               for r in rep["rounds"] for a in r["archers"] if r["round"] == 1)
    assert all(len(a["shots"]) == 4 for r in rep["rounds"] for a in r["archers"])
    # the round's tally is 0 outside a round
    assert score_values(tl.sample(tl.stages[5].t1))["round"] == 0


@pytest.mark.slow
def test_a_new_seed_changes_hits_and_what_follows(whole, corpus):
    other = Rite(DEFAULT_SCRIPT, DEFAULT_LAYOUT, corpus, seed=7).get(())
    a, b = report(whole.timeline), report(other.timeline)
    hits = [[s["hit"] for x in r["archers"] for s in x["shots"]] for r in a["rounds"]]
    hits7 = [[s["hit"] for x in r["archers"] for s in x["shots"]] for r in b["rounds"]]
    assert hits != hits7
    assert [r["tally"] for r in a["rounds"]] != [r["tally"] for r in b["rounds"]]
    for rep in (a, b):  # whoever lost drinks, by the count of that seed
        for r in rep["rounds"]:
            if r["winner"] is None:
                assert r["drank"] == []
            else:
                losers = {x["actor"] for x in r["archers"] if x["side"] != r["winner"]}
                assert set(r["drank"]) <= losers and r["drank"]


@pytest.mark.slow
def test_on_zuoyoujun_nobody_goes_up_to_drink_and_nobody_moves(corpus):
    """Seed 6 gives 左右鈞 in round 2: 飲不勝者 (§24) then does nothing at all (敖繼公:
    若左右鈞則無此而即獻獲者與) — no 豐, no 射位, nobody left standing there after."""
    got = Rite(DEFAULT_SCRIPT, DEFAULT_LAYOUT, corpus, seed=6).get(())
    assert not got.warnings, got.warnings[:3]
    tl = got.timeline
    second = next(r for r in report(tl)["rounds"] if r["round"] == 2)
    assert second["winner"] is None and second["announce"] == "左右鈞" and second["drank"] == []
    span = {s.name: s for s in tl.stages}
    before, after = tl.sample(span["取矢視算"].t1, True), tl.sample(span["飲不勝者"].t1, True)
    assert span["飲不勝者"].t1 - span["飲不勝者"].t0 < 1.0
    assert (before.xy == after.xy).all()
    from viz.draw.things import hidden
    assert "豐" in hidden(tl, after)


@pytest.mark.slow
@pytest.mark.parametrize(("thing", "before", "after"), [
    ("乏", "設席陳器", "乏參侯道居侯黨之一西五歩"),
    ("侯", "設席陳器", "乃張侯"),
    ("楅", "初射獲而未釋獲", "乃設楅於中庭"),
    ("中", "再請射", "釋獲者執鹿中一人執算以從之"),
    ("豐", "取矢視算", "弟子奉豐升設於西楹之西"),
    ("右物", "司正舉觶", "乃納射器"),  # drawn after the 射器 come in (賈)
])
def test_things_appear_when_the_text_sets_them(whole, corpus, thing, before, after):
    """Not drawn before the text brings them in (the review of 2026-11-30): hidden at the
    start and at the end of the stage before, set out by the end of the step that sets them."""
    from viz.draw.things import hidden
    from viz.query.state import step_after
    tl = whole.timeline
    span = {s.name: s for s in tl.stages}
    assert thing in hidden(tl, tl.sample(0.0))
    assert thing in hidden(tl, tl.sample(span[before].t1, True))
    k = step_after(tl, corpus, after)
    later = [s for s in tl.steps if s.index >= k and thing not in hidden(tl, tl.sample(s.t1, True))]
    assert later and later[0].stage == tl.steps[k].stage, (thing, after)
