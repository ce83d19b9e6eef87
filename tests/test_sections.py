"""The bundled rite's sections 14 立司正 and 15 司正舉觶, read against the text.

What a reader of the 儀禮 checks in the scenes: every clause of the 經 is enacted; the 相 becomes
the 司正 at 作相為司正 and not before; 坐奠觶，拜，執觶興 is a bow made kneeling; the 觶 goes back
to the very spot in the 中庭 where it was first set (奠於其所) and the 司正 ends just south of it,
facing north (立於觶南); 由楹内 is walked at a walking pace.
"""
from __future__ import annotations

import numpy as np
import pytest

from viz.text import load_corpus

SECTIONS = {14: "立司正", 15: "司正舉觶"}
POSTURES = ("立", "坐", "拜", "揖")


@pytest.fixture(scope="module")
def model(bundled):
    return bundled


@pytest.fixture(scope="module")
def corpus():
    return load_corpus()


def stage_index(model, name: str) -> int:
    found = [st.index for st in model.timeline.stages if st.name == name]
    assert found, f"no stage {name}"
    return found[0]


def steps_of(model, name: str) -> list:
    si = stage_index(model, name)
    return [s for s in model.timeline.steps if s.stage == si]


def step(model, stage: str, cite: str, nth: int = 0):
    found = [s for s in steps_of(model, stage) if s.cite == cite]
    assert len(found) > nth, f"no step {cite!r} (#{nth}) in {stage}"
    return found[nth]


def posture(frame, ai: int) -> str:
    return POSTURES[int(frame.posture[ai])]


def test_the_two_sections_are_stages_in_order(model):
    names = [st.name for st in model.timeline.stages]
    assert names.index("迎賔") < names.index("立司正") < names.index("司正舉觶") < names.index("誘射")
    assert names.index("司正舉觶") == names.index("立司正") + 1      # 15 follows 14 on: no gap


@pytest.mark.parametrize("section", sorted(SECTIONS))
def test_every_jing_clause_is_cited(model, corpus, section):
    """Every 經 clause of the section is enacted: some step's cite lies in it, and its first and
    last characters are inside cited words (the segmentation folds a few 注 words into clauses,
    so not every character is asked for)."""
    spans = [s.span for s in steps_of(model, SECTIONS[section])]
    clauses = [c for c in corpus.clauses if c.section == section and c.kind == "經"]
    assert clauses, f"no 經 clauses in section {section}"

    def covered(i: int) -> bool:
        return any(a <= i < b for a, b in spans)

    for c in clauses:
        text = corpus.plain[c.start:c.end]
        assert any(a < c.end and c.start < b for a, b in spans), f"{text} is not cited"
        assert covered(c.start), f"the start of {text} is not cited"
        assert covered(c.end - 1), f"the end of {text} is not cited"


def test_every_cite_is_in_its_own_section(model, corpus):
    for section, name in SECTIONS.items():
        clauses = [c for c in corpus.clauses if c.section == section]
        lo, hi = min(c.start for c in clauses), max(c.end for c in clauses)
        for s in steps_of(model, name):
            assert lo <= s.span[0] and s.span[1] <= hi, f"{s.cite} cited outside section {section}"


def test_the_xiang_becomes_sizheng_at_zuo_xiang(model):
    tl = model.timeline
    ai = tl.actor_index["sizheng"]
    zuo = step(model, "立司正", "作相為司正")
    # before the step, and at every step's end before it in the stage: still the 相
    for s in steps_of(model, "立司正"):
        if s.t1 <= zuo.t0 + 1e-9:
            assert tl.sample(s.t1, closing=True).labels[ai] == "相", s.cite
    assert tl.sample(zuo.t0).labels[ai] == "相"
    assert tl.sample(stage_start(model, "立司正")).labels[ai] == "相"
    # at its end he is the 司正, and stays so to the end of 司正舉觶
    assert tl.sample(zuo.t1, closing=True).labels[ai] == "司正"
    for s in steps_of(model, "司正舉觶"):
        assert tl.sample(s.t1, closing=True).labels[ai] == "司正", s.cite


def stage_start(model, name: str) -> float:
    return model.timeline.stages[stage_index(model, name)].t0


def test_the_seated_bow(model):
    """坐奠觶，拜，執觶興: kneeling through the bow, still kneeling after it, standing after 興."""
    tl = model.timeline
    ai = tl.actor_index["sizheng"]
    zi = tl.prop_index["zhi"]
    dian = step(model, "司正舉觶", "坐奠觶")
    bai = step(model, "司正舉觶", "拜")
    xing = step(model, "司正舉觶", "執觶興")
    assert dian.t1 == pytest.approx(bai.t0) and bai.t1 == pytest.approx(xing.t0)

    after_dian = tl.sample(dian.t1, closing=True)
    assert posture(after_dian, ai) == "坐"
    assert after_dian.prop_holder[zi] == -1                     # the 觶 is on the ground
    for t in np.linspace(bai.t0, bai.t1, 12)[1:-1]:
        assert posture(tl.sample(float(t)), ai) == "拜", t       # bowing …
    after_bai = tl.sample(bai.t1, closing=True)
    assert posture(after_bai, ai) == "坐"                        # … and kneeling when it ends
    assert tl.sample(bai.t1, closing=True).prop_holder[zi] == -1
    after_xing = tl.sample(xing.t1, closing=True)
    assert posture(after_xing, ai) == "立"
    assert after_xing.prop_holder[zi] == ai                     # 執觶興: cup in hand
    # never standing between sitting to set it down and 興
    for t in np.linspace(dian.t1, xing.t0, 20):
        assert posture(tl.sample(float(t)), ai) != "立", t


def test_the_zhi_from_the_lower_basket_back_to_its_mark(model):
    tl = model.timeline
    lay = model.layout
    ai = tl.actor_index["sizheng"]
    zi = tl.prop_index["zhi"]

    start = tl.sample(stage_start(model, "司正舉觶"))
    assert start.prop_holder[zi] == -1
    assert np.allclose(start.prop_xy[zi], lay.place_xy("下篚"), atol=0.01)   # in the 下篚

    # washed at the 洗: he holds it, standing by the 洗, at the end of the first 司正洗觶 steps
    wash = [s for s in steps_of(model, "司正舉觶") if s.cite == "司正洗觶"][-1]
    f = tl.sample(wash.t1, closing=True)
    assert f.prop_holder[zi] == ai
    assert np.linalg.norm(f.xy[ai] - lay.place_xy("洗")) <= 3

    first = tl.sample(step(model, "司正舉觶", "中庭北面坐奠觶").t1, closing=True)
    assert first.prop_holder[zi] == -1
    mark = first.prop_xy[zi].copy()
    assert np.allclose(mark, lay.place_xy("中庭"), atol=0.01)

    qu = step(model, "司正舉觶", "進坐取觶興", 1)            # 坐取觶: picked up again
    assert tl.sample(qu.t1, closing=True).prop_holder[zi] == ai
    xi = step(model, "司正舉觶", "洗")                        # washed again, in hand
    assert tl.sample(xi.t0 + 0.5 * (xi.t1 - xi.t0)).prop_holder[zi] == ai

    back = tl.sample(step(model, "司正舉觶", "北面坐奠於其所").t1, closing=True)
    assert back.prop_holder[zi] == -1
    assert np.allclose(back.prop_xy[zi], mark, atol=0.01)     # 奠於其所: the same spot

    end = tl.sample(tl.stages[stage_index(model, "司正舉觶")].t1, closing=True)
    assert np.allclose(end.prop_xy[zi], mark, atol=0.01)
    dx, dy = end.xy[ai] - mark
    assert abs(dx) < 0.5 and -3.0 <= dy < 0                    # 立於觶南: just south of it
    assert abs(((float(end.facing[ai]) + 180) % 360) - 180) < 1  # 北面
    assert posture(end, ai) == "立"
    assert "zhi" not in end.holding[ai]


def test_the_zhi_stays_on_its_mark_into_the_archery(model):
    tl = model.timeline
    zi = tl.prop_index["zhi"]
    mark = tl.sample(tl.stages[stage_index(model, "司正舉觶")].t1, closing=True).prop_xy[zi]
    end = tl.sample(tl.stages[stage_index(model, "誘射")].t1, closing=True)
    assert end.prop_holder[zi] == -1
    assert np.allclose(end.prop_xy[zi], mark, atol=0.01)


def test_you_ying_nei_at_a_walking_pace(model):
    """由楹内: from the 西階上 north of both 楹 to the 阼階上, in about the time the way takes."""
    tl = model.timeline
    lay = model.layout
    ai = tl.actor_index["sizheng"]
    s = step(model, "司正舉觶", "由楹内適阼階上北面")
    pts = [lay.place_xy("西階上"), *(lay.place_xy(p) for p in lay.ways["由楹内"]), lay.place_xy("阼階上")]
    length = sum(float(np.linalg.norm(b - a)) for a, b in zip(pts, pts[1:]))
    expected = length / model.script.settings.walk_speed
    assert abs((s.t1 - s.t0) - expected) <= 0.2 * expected, (s.t1 - s.t0, expected)

    start, end = tl.sample(s.t0), tl.sample(s.t1, closing=True)
    assert np.linalg.norm(start.xy[ai] - lay.place_xy("西階上")) < 0.5
    assert np.linalg.norm(end.xy[ai] - lay.place_xy("阼階上")) < 0.5
    assert abs(((float(end.facing[ai]) + 180) % 360) - 180) < 1    # 北面受命
    # north of each 楹 (楹内 = 楹北) as he passes it
    for t in np.linspace(s.t0, s.t1, 400):
        x, y = tl.sample(float(t)).xy[ai]
        for px in (-12.0, 12.0):
            if abs(x - px) < 0.75:
                assert y > 10.75, (t, x, y)


def test_the_host_goes_down_alone_and_back(model):
    """主人降席自南方，側降 … 主人升就席: the 賔 does not follow him down (注: 賔不從降)."""
    tl = model.timeline
    lay = model.layout
    zr, bi = tl.actor_index["zhuren"], tl.actor_index["bin"]
    down = tl.sample(step(model, "立司正", "側降").t1, closing=True)
    assert lay.region_at(*down.xy[zr]) == "庭"
    assert np.linalg.norm(down.xy[bi] - lay.place_xy("賔席")) < 0.5
    up = tl.sample(step(model, "立司正", "主人升就席").t1, closing=True)
    assert np.linalg.norm(up.xy[zr] - lay.place_xy("主人席")) < 0.5


def test_no_warnings_from_these_files(model):
    mine = ("14-立司正.yaml", "15-司正舉觶.yaml")
    for w in model.warnings:
        assert not any(n in str(w) for n in mine), w
