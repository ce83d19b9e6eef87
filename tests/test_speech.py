"""Speech (issue 25): a 辭 said by reference to the text, say: {who, cite: …}: the words found
in the 經 or 記 (the 注 between left out, the text's punctuation kept), shown as a caption over
the speaker, counted by `coverage` as citing the clauses they span; a located error when they
are not found, or are found only in the commentary."""
from __future__ import annotations

import json

import pytest

from test_package import JING, STAGE, ZHU, make_toy, run
from viz.model import package
from viz.model.rite import load


def say_toy(folder, said: str):
    """The toy with one more step, citing 賔拜辱, whose action is `said`."""
    toy = make_toy(folder)
    (toy / "sections" / "01.yaml").write_text(
        STAGE + "  - cite: 賔拜辱\n    do:\n      - " + said + "\n", encoding="utf-8")
    return toy


def _said(toy) -> list[str]:
    pkg = package.find(str(toy))
    d = load(pkg.script, pkg.layout)
    return [e.text for e in d.timeline.events if e.kind == "say"]


def test_the_words_are_the_texts_with_the_commentary_left_out(tmp_path):
    toy = say_toy(tmp_path / "a", "say: {who: zhuren, cite: 主人就…賔拜辱}")
    a, b = JING
    # from 主人就 to 賔拜辱: both clauses of the 經, not the 注 (先生鄉中致仕者) between
    assert _said(toy) == ["主人就先生而謀賔。主人戒賔，賔拜辱。"]
    assert ZHU not in _said(toy)[0]


def test_text_as_written_still_works(tmp_path):
    assert _said(say_toy(tmp_path / "b", "say: {who: bin, text: 諾}")) == ["諾"]


def test_coverage_counts_the_clauses_said(capsys, tmp_path):
    toy = make_toy(tmp_path / "c")
    # only the second clause is cited by a step; the first is said
    (toy / "sections" / "01.yaml").write_text(
        "name: 謀賔\nsetup:\n  - {who: zhuren, at: 阼階下, face: 西}\n"
        "  - {who: bin, at: 西階下, face: 東}\nsteps:\n  - cite: 賔拜辱\n    do:\n"
        "      - say: {who: zhuren, cite: 主人就先生而謀賔}\n", encoding="utf-8")
    code, out, err = run(capsys, "coverage", "--rite", str(toy), "--json")
    assert code == 0, err
    clauses = {c["id"]: c for s in json.loads(out)["sections"] for c in s["clauses"]}
    assert clauses["01.01"]["status"] == "cited"
    assert [(x["line"], x["col"]) for x in clauses["01.01"]["steps"]] == [(8, 9)]


@pytest.mark.parametrize("said, where, message", [
    ("say: {who: zhuren, cite: 主人揖賔}", "01.yaml:14:34",
     "say cite: not found in the 經 or 記: '主人揖賔'"),
    ("say: {who: zhuren, cite: 鄉中致仕}", "01.yaml:14:34",
     "found only in the commentary (注) at 001-1a"),
    ("say: {who: zhuren, text: 諾, cite: 賔拜辱}", "01.yaml:14:9",
     "say needs exactly one of text: or cite:"),
    ("say: {who: zhuren}", "01.yaml:14:9", "say needs exactly one of text: or cite:"),
])
def test_words_not_found_are_a_located_error(capsys, tmp_path, said, where, message):
    toy = say_toy(tmp_path / "d", said)
    code, out, err = run(capsys, "check", "--rite", str(toy))
    assert code == 2
    line = next((ln for ln in err.splitlines() if message in ln), "")
    assert where in line, err
