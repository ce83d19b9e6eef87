"""A stage's own `when:` (issue 25, the 若 paragraphs as scenarios): the stage is enacted only
if the scenario setting holds, else its steps are cited (checked) and none enacted; with `like:`
it plays a whole stage otherwise (士冠禮's 孤子). A like:'s `cite:` drops a copied step's
`section:`. A stage may be `rules:` only."""
from __future__ import annotations

import textwrap

import pytest

from test_like_props import CAST, FIRST
from test_script_lang import write
from viz.base.errors import InputError
from viz.model.script.reader import load_script

SCENARIO = "    scenario:\n      孤: {default: 0, min: 0, max: 1, doc: test}\n"


def rite(tmp_path, first_when: str, second: str):
    return write(tmp_path, {
        "rite/manifest.yaml": "rite: toy\ncast: cast.yaml\n"
                              "sections: [sections/01.yaml, sections/02.yaml]\n",
        "rite/cast.yaml": SCENARIO + CAST,
        "rite/sections/01.yaml": FIRST.replace("    name: 迎賔\n", "    name: 迎賔\n" + first_when),
        "rite/sections/02.yaml": textwrap.dedent(second)})


OTHER = """\
    name: 孤迎賔
    section: 迎賔
    out_of_order: test
    when: 孤==1
    like: {stage: 迎賔, actors: {zhuren: jie}, cite: 再拜}
    """


@pytest.mark.parametrize("value", ["0", "1"])
def test_stage_when_plays_one_stage_or_the_other(tmp_path, field, corpus, value):
    folder = rite(tmp_path, "    when: 孤==0\n", OTHER)
    s = load_script(folder, field, corpus, sets=[("孤", value)])
    played = [st.name for st in s.stages if st.steps]
    assert played == (["迎賔"] if value == "0" else ["孤迎賔"])
    if value == "1":   # the copy, re-bound, each step citing the one clause
        st = s.stages[1]
        assert {a.args["who"][0] for x in st.steps for a in x.actions} == {"jie"}
        assert {x.cite for x in st.steps} == {"再拜"}


def test_a_stage_of_rules_only(tmp_path, field, corpus):
    folder = rite(tmp_path, "", "name: 記\nsection: 迎賔\nout_of_order: test\n"
                                "rules:\n  - {cite: 賔荅再拜, note: nothing moves}\n")
    s = load_script(folder, field, corpus)
    assert s.stages[1].steps == () and [r.cite for r in s.stages[1].rules] == ["賔荅再拜"]


def test_stage_when_naming_no_setting_is_an_error_at_it(tmp_path, field, corpus):
    folder = rite(tmp_path, "    when: 無此==0\n", OTHER)
    with pytest.raises(InputError) as e:
        load_script(folder, field, corpus)
    assert any("無此" in p.message and "01.yaml" in str(p.loc) for p in e.value.problems)
