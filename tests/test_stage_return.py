"""At a stage boundary (issue 25, friction 9): someone who left at the end of a stage may come
back (enter) at the first instant of the next, with what he holds; a person present who is
moved at that instant still jumps, and check says so."""
from __future__ import annotations

from test_package import run

CAST = """\
cast:
  - {id: zhuren, name: 主人, party: 主, label: 主}
  - {id: bin, name: 賔, party: 賓, label: 賔}
props:
  - {id: jue, name: 爵, kind: 爵, held_by: bin, absent: true}
"""
FIRST = """\
name: 迎賔
setup:
  - {who: zhuren, at: 門內, face: 南}
  - {who: bin, at: 門外, face: 北}
steps:
  - cite: 揖衆賔
    do:
      - exit: {who: bin}
"""


def rite(folder, first_step: str):
    (folder / "sections").mkdir(parents=True)
    (folder / "manifest.yaml").write_text(
        "rite: 試\ntext: 鄉射禮\nlayout: xu\ncast: cast.yaml\n"
        "sections: [sections/05.yaml, sections/06.yaml]\n", encoding="utf-8")
    (folder / "cast.yaml").write_text(CAST, encoding="utf-8")
    (folder / "sections" / "05.yaml").write_text(FIRST, encoding="utf-8")
    (folder / "sections" / "06.yaml").write_text(
        "name: 獻賔\nsteps:\n  - cite: 主人取爵於上篚以降\n    do:\n" + first_step,
        encoding="utf-8")
    return folder


def test_one_who_left_comes_back_at_the_next_stages_first_instant(capsys, tmp_path):
    toy = rite(tmp_path / "a", "      - enter: {who: bin, at: 門外, face: 北}\n")
    code, out, err = run(capsys, "check", "--strict", "--rite", str(toy))
    assert "jumps" not in err, err
    assert code == 0, err


def test_one_present_moved_at_that_instant_still_jumps(capsys, tmp_path):
    toy = rite(tmp_path / "b", "      - enter: {who: zhuren, at: 阼階下, face: 西}\n")
    code, out, err = run(capsys, "check", "--rite", str(toy))
    assert "06.yaml:1:1: warning: 主人 (zhuren) jumps where 迎賔 hands over to 獻賔" in err, err
