"""like: re-binds props as well as actors and places, and a 如初 is one line (issue 25,
friction 8): `props: {jue: zhi}` re-binds a prop's id wherever it stands in the copied steps,
and `cite: WORDS` has every copied step cite the words of this stage's own clause (如初),
so that the model stage's cites need no line each."""
from __future__ import annotations

import textwrap

import pytest

from test_script_lang import write
from viz.base.errors import InputError
from viz.model.script.reader import load_script

CAST = """\
    cast:
      - {id: zhuren, name: 主人, party: 主, label: 主}
      - {id: bin, name: 賔, party: 賓, label: 賔}
      - {id: jie, name: 介, party: 賓, label: 介}
    props:
      - {id: jue, name: 爵, kind: 爵, at: 上篚}
      - {id: zhi, name: 觶, kind: 觶, at: 上篚}
    """
FIRST = """\
    name: 迎賔
    setup:
      - {who: [zhuren, bin, jie], at: 門內, face: 南, formation: 南面東上}
    steps:
      - cite: 主人一相出迎於門外
        do: [{move: {who: zhuren, to: 上篚, face: 西}}]
      - cite: 再拜
        do: [{take: {who: zhuren, prop: jue}}]
      - cite: 賔荅再拜
        do: [{put: {who: zhuren, prop: jue, at: 上篚}}]
    """


def rite(tmp_path, like: str):
    return write(tmp_path, {
        "rite/manifest.yaml": "rite: toy\ncast: cast.yaml\n"
                              "sections: [sections/01.yaml, sections/02.yaml]\n",
        "rite/cast.yaml": CAST,
        "rite/sections/01.yaml": FIRST,
        "rite/sections/02.yaml": "name: 迎賔\nsection: 迎賔\n" + like})


def props_of(stage) -> list[tuple]:
    return [(s.cite, a.verb, a.args.get("prop")) for s in stage.steps for a in s.actions
            if "prop" in a.args]


def test_like_rebinds_props(tmp_path, field, corpus):
    folder = rite(tmp_path, "like: {stage: 迎賔, props: {jue: zhi}}\n")
    s = load_script(folder, field, corpus)
    assert props_of(s.stages[1]) == [("再拜", "take", "zhi"), ("賔荅再拜", "put", "zhi")]
    assert props_of(s.stages[0]) == [("再拜", "take", "jue"), ("賔荅再拜", "put", "jue")]


def test_like_cite_has_every_copied_step_cite_one_clause(tmp_path, field, corpus):
    folder = rite(tmp_path, textwrap.dedent("""\
        like: {stage: 迎賔, props: {jue: zhi}, cite: 賔荅再拜, steps: {1: null}}
        steps:
          - cite: 主人揖
            do: [{posture: {who: zhuren, is: 揖}}]
        """))
    s = load_script(folder, field, corpus)
    # the copied steps all cite the one clause; the stage's own steps keep their cites
    assert [st.cite for st in s.stages[1].steps] == ["賔荅再拜", "賔荅再拜", "主人揖"]
    spans = {st.span for st in s.stages[1].steps[:2]}
    assert len(spans) == 1 and next(iter(spans))[1] > next(iter(spans))[0]


def test_like_props_naming_no_prop_is_an_error_at_it(tmp_path, field, corpus):
    folder = rite(tmp_path, "like: {stage: 迎賔, props: {jue: beizi}}\n")
    with pytest.raises(InputError) as e:
        load_script(folder, field, corpus)
    assert any("beizi" in p.message for p in e.value.problems)


def test_the_docs_say_what_each_library_pattern_does():
    """docs/SCRIPT.md has a row for every pattern of the shared library, saying what it does."""
    import re

    from viz import ASSETS, ROOT
    doc = (ROOT / "docs" / "SCRIPT.md").read_text(encoding="utf-8")
    for f in sorted((ASSETS / "patterns").glob("*.yaml")):
        for name in re.findall(r"^  (\S+):$", f.read_text(encoding="utf-8"), re.M):
            row = re.search(rf"^\| `{re.escape(name)}` \| (.+) \|$", doc, re.M)
            assert row and len(row.group(1)) > 10, f"{f.name}: {name}"
