"""A cite is matched against the 經 and 記 only, unless it says otherwise (issue 25, friction
7: 告事畢 matched inside the 疏 silently). Words also found in a 注 are matched where the 經 has
them; words found only in the commentary are an error at the cite, unless the step (or rule)
says `in: 注`, which seeks them in the 注 (and 記注)."""
from __future__ import annotations

import pytest

from test_package import JING, STAGE, ZHU, make_toy, run, toy_corpus
from viz.model import package
from viz.model.rite import load


def toy_with(folder, steps: str, extra_note: str = ""):
    toy = make_toy(folder, extra_note)
    (toy / "sections" / "01.yaml").write_text(STAGE + steps, encoding="utf-8")
    return toy


def spans(toy) -> list[tuple[int, int]]:
    pkg = package.find(str(toy))
    return [s.span for s in load(pkg.script, pkg.layout).timeline.steps]


def test_words_in_a_note_and_the_jing_are_matched_in_the_jing(tmp_path):
    # the 注 after the first clause holds 主人戒賔 too: the 經's, after it, is the one cited
    toy = toy_with(tmp_path / "a", "  - cite: 主人戒賔\n    do: [{posture: {who: zhuren, is: 揖}}]\n",
                   extra_note="主人戒賔")
    plain = toy_corpus("主人戒賔")["plain"]
    jing = plain.rindex(JING[1])
    got = spans(toy)[-1]
    assert got == (jing, jing + 4)


def test_words_only_in_the_commentary_are_an_error_at_the_cite(capsys, tmp_path):
    toy = toy_with(tmp_path / "b", "  - cite: 鄉中致仕\n    do: [{posture: {who: zhuren, is: 揖}}]\n")
    code, out, err = run(capsys, "check", "--rite", str(toy))
    assert code == 2
    assert "01.yaml:12:11: cite '鄉中致仕' is found only in the commentary (注) at 001-1a" in err, err
    assert "in: 注" in err


def test_in_zhu_cites_the_commentary(capsys, tmp_path):
    toy = toy_with(tmp_path / "c", "  - cite: 鄉中致仕\n    in: 注\n"
                                   "    do: [{posture: {who: zhuren, is: 揖}}]\n")
    code, out, err = run(capsys, "check", "--rite", str(toy))
    assert code == 0, err  # (warned of as before the previous step's words: 賔拜辱)
    assert "commentary" not in err
    plain = toy_corpus()["plain"]
    assert spans(toy)[-1] == (plain.index("鄉中致仕"), plain.index("鄉中致仕") + 4)
    assert ZHU in plain


def test_in_zhu_for_words_of_the_jing_is_an_error(capsys, tmp_path):
    toy = toy_with(tmp_path / "d", "  - cite: 賔拜辱\n    in: 注\n"
                                   "    do: [{posture: {who: zhuren, is: 揖}}]\n")
    code, out, err = run(capsys, "check", "--rite", str(toy))
    assert code == 2
    assert "01.yaml:12:11: cite not found in the 注、記注: '賔拜辱' (it is at 001-1a, in the 經" in err, err


@pytest.mark.parametrize("value", ["疏", "[經, 疏]", "3"])
def test_in_names_kinds_of_text(capsys, tmp_path, value):
    toy = toy_with(tmp_path / "e", f"  - cite: 賔拜辱\n    in: {value}\n"
                                   "    do: [{posture: {who: zhuren, is: 揖}}]\n")
    code, out, err = run(capsys, "check", "--rite", str(toy))
    assert code == 2
    assert "01.yaml:13:9:" in err and "at steps/2/in" in err, err  # the schema's, located


def test_a_setup_items_cite_is_sought_in_the_jing_too(capsys, tmp_path):
    toy = make_toy(tmp_path / "f")
    sec = toy / "sections" / "01.yaml"
    text = sec.read_text(encoding="utf-8")
    sec.write_text(text.replace("  - {who: bin, at: 西階下, face: 東}",
                                "  - {who: bin, at: 西階下, face: 東, cite: 鄉中致仕}"),
                   encoding="utf-8")
    code, out, err = run(capsys, "check", "--rite", str(toy))
    assert code == 2
    assert "01.yaml:4:40: cite '鄉中致仕' is found only in the commentary (注)" in err, err
    sec.write_text(text.replace("  - {who: bin, at: 西階下, face: 東}",
                                "  - {who: bin, at: 西階下, face: 東, cite: 鄉中致仕, in: 注}"),
                   encoding="utf-8")
    code, out, err = run(capsys, "check", "--strict", "--rite", str(toy))
    assert code == 0, err
