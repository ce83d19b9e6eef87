"""Issue 19, "faithful in detail": each class of defect the reviews of 2026-12-01 found is caught
by `check` from now on, on a planted example, and the bundled rite is clean of it."""
from __future__ import annotations

import pytest

from tests.test_compile import SCRIPT
from viz.base.errors import Collector
from viz.model.compile.compiler import compile_script
from viz.model.script.reader import parse_script


def compiled(text, field, corpus):
    out = Collector()
    tl = compile_script(parse_script(text, field, corpus, "t.yaml"), field, out)
    return tl, out


# ---- class 2: who is there ----

def test_acting_while_absent_is_an_error(field, corpus):
    """衆賔 set up absent (not yet come in) are made to bow before they enter: an error naming
    him, the verb and the clause (the 執爵者 who fills the cup unseen, §24)."""
    text = SCRIPT.replace(
        "      - cite: 衆賔皆入門左東靣北上\n",
        "      - cite: 再拜\n        do:\n"
        "          - posture: {who: zhong1, is: 拜}\n"
        "      - cite: 衆賔皆入門左東靣北上\n")
    assert text != SCRIPT
    _, out = compiled(text, field, corpus)
    errs = [e.message for e in out.errors]
    assert any("衆賔 (zhong1) is not in the scene" in m and "posture" in m and "再拜" in m
               for m in errs), errs
    _, clean = compiled(SCRIPT, field, corpus)
    assert not any("not in the scene" in e.message for e in clean.errors)


def test_handing_to_someone_absent_is_an_error(field, corpus):
    text = SCRIPT.replace("- give: {who: zhuren, prop: jue, to: bin}",
                          "- give: {who: zhuren, prop: jue, to: zhong2}")
    text = text.replace("      - {who: zhuren, at: 阼階上, face: 西}",
                        "      - {who: zhuren, at: 阼階上, face: 西}\n"
                        "      - {who: zhong2, at: 阼階上, face: 西, absent: true}")
    assert "zhong2, at: 阼階上" in text
    _, out = compiled(text, field, corpus)
    assert any("衆賔 (zhong2) is not in the scene" in e.message and "give" in e.message
               for e in out.errors)


def test_when_joins_conditions_with_and():
    from viz.model import scenario
    assert scenario.holds("大夫==0 & 衆賔<=3", {"大夫": 0, "衆賔": 3})
    assert not scenario.holds("大夫==0 & 衆賔<=3", {"大夫": 1, "衆賔": 3})
    assert not scenario.holds("大夫==0 & 衆賔<=3", {"大夫": 0, "衆賔": 4})
    assert scenario.check_when("大夫==0 & 衆賔<=3", ["大夫", "衆賔"]) is None
    assert "no setting" in scenario.check_when("大夫==0 & 工<=3", ["大夫", "衆賔"])


def holders(tl, prop: str, t0: float, t1: float) -> list[str]:
    """Who held a prop in turn between t0 and t1 (set-downs left out; repeats merged)."""
    ch, j = tl.channels["props"], tl.prop_index[prop]
    rows = [(t, int(h)) for o, t, h in zip(ch.owner, ch.t, ch.values["holder"])
            if o == j and t0 <= t <= t1]
    out: list[str] = []
    for _, h in sorted(rows):
        if h >= 0 and (not out or out[-1] != tl.actors[h].id):
            out.append(tl.actors[h].id)
    return out


@pytest.mark.parametrize("n", ["3", "6"])
def test_yan_without_dafu_passes_the_cup_in_order(corpus, n):
    """DEFECT D2/D3 (§34 燕, 大夫=0): the 主人's 觶 goes 長1 → 長2 → 長3 in order, filled by the
    執觶者 each time (執觶者受觶遂實之; 敖: 若無大夫乃行主人之觶), and no second 舉觶者 (not cast:
    若無大夫則唯賓) ever holds it."""
    from viz import DEFAULT_LAYOUT, DEFAULT_SCRIPT
    from viz.model.rite import Rite
    got = Rite(DEFAULT_SCRIPT, DEFAULT_LAYOUT, corpus,
               sets=(("大夫", "0"), ("衆賔", n))).get(())
    assert not got.warnings, got.warnings[:5]
    tl = got.timeline
    assert "juzhi2" not in tl.actor_index
    yan = next(s for s in tl.stages if s.name == "燕")
    seq = holders(tl, "zhi_er1", yan.t0, yan.t1)
    elders = [a for a in seq if a.startswith("zhongbin")][:3]
    assert elders == ["zhongbin1", "zhongbin2", "zhongbin3"], seq
    # between two 長 the 執觶者 holds it (he takes it back and fills it)
    i1, i2 = seq.index("zhongbin1"), seq.index("zhongbin2")
    assert "juzhi1" in seq[i1 + 1:i2], seq
