"""The commands as a user runs them: exit codes, located errors, the state JSON, shots."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from rites import trimmed  # noqa: E402 (the tests' folder is on the path)

from viz.cli.main import main

ROOT = Path(__file__).resolve().parent.parent




def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
def test_check_passes_on_the_bundled_files(capsys):
    code, out, err = run(capsys, "check")
    assert code == 0 and out.startswith("ok: ")
    assert "warning" not in err


@pytest.mark.slow
def test_state_json_after_the_bows_on_the_hall(capsys):
    # 主人阼階上當楣北面再拜，賔西階上當楣北面答再拜
    code, out, _ = run(capsys, "state", "--after", "賔西階上當楣北面答再拜", "--json")
    assert code == 0
    s = json.loads(out)
    assert s["stage"]["name"] == "迎賔" and s["step"]["page"] == "011-4b"
    who = {a["id"]: a for a in s["actors"]}
    zhu, bin_ = who["zhuren"], who["bin"]
    assert zhu["region"] == "堂" and bin_["region"] == "堂"
    assert zhu["facing"] == {"dir": "北", "deg": 0.0} and bin_["facing"]["dir"] == "北"
    assert zhu["x"] > 0 > bin_["x"]  # 阼階 east, 西階 west
    assert set(zhu) >= {"id", "name", "label", "party", "x", "y", "place", "region", "facing",
                        "posture", "moving", "holding"}


def test_state_after_text_is_the_end_of_the_citing_step(capsys):
    code, out, _ = run(capsys, "state", "--after", "主人以賔揖先入", "--json")
    s = json.loads(out)
    assert code == 0 and s["t"] > 0
    # the step reported is the one that cites the words and has just finished, not the next
    assert s["step"]["t1"] == s["t"] and "入" in s["step"]["cite"]
    code2, out2, _ = run(capsys, "state", "--after", "主人以賓揖先入", "--json")  # 賓 = 賔
    assert json.loads(out2)["t"] == s["t"]


def test_after_text_reads_on_past_a_note_inside_the_clause(capsys):
    # 26.11 卒北面搢三挾一个 (注 亦於三耦為之位) 揖退: the words run over the 注, as a reader reads them
    code, out, _ = run(capsys, "state", "--after", "挾一个揖退", "--json")
    assert code == 0, out
    s = json.loads(out)
    assert s["step"]["clause"]["id"] == "26.11" and s["step"]["t1"] == s["t"]
    code, whole, _ = run(capsys, "state", "--after", "卒北面搢三挾一个揖退", "--json")
    assert json.loads(whole)["t"] == s["t"]


def test_a_stage_may_be_named_by_its_beginning(capsys):
    code, out, _ = run(capsys, "state", "--stage", "初射", "--json")
    assert code == 0 and json.loads(out)["stage"]["name"] == "初射獲而未釋獲"


def test_state_table(capsys):
    code, out, _ = run(capsys, "state", "--at", "0")
    assert code == 0 and "主人" in out and "t = 0.0 s" in out


@pytest.mark.parametrize("args,message", [
    (("state", "--after", "天子熊侯白質"), "no step of the script cites"),
    (("state", "--after", "這不在文中"), "does not occur in the text"),
    (("state", "--stage", "大射"), "no stage named '大射'"),
    (("state", "--stage", "三射"), "'三射' begins 4 stages: 27 三射用樂、28 三射取矢視算、29 三射飲不勝者、30 三射畢"),
    (("state", "--at", "-5"), "outside the rite"),
])
def test_unanswerable_questions_exit_2(capsys, args, message):
    code, _, err = run(capsys, *args)
    assert code == 2 and message in err


BAD = """\
cast:
  - {id: zhuren, name: 主人, party: 主, label: 主}
stages:
  - name: 迎賔
    setup:
      - {who: zhuren, at: 門內, face: 南}
    steps:
      - cite: 主人一相出迎於門外
        do:
          - move: {who: zhuren, to: 阼階頂}
"""


def test_bad_script_gives_located_error_and_status_2(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD, encoding="utf-8")
    out = subprocess.run([sys.executable, "main.py", "check", "--script", str(bad)], cwd=ROOT,
                         capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert out.returncode == 2
    assert f"{bad}:10:37: unknown place '阼階頂'; did you mean" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr


def test_missing_file_is_an_error_not_a_traceback(capsys, tmp_path):
    code, _, err = run(capsys, "check", "--layout", str(tmp_path / "none.yaml"))
    assert code == 2 and f"{tmp_path / 'none.yaml'}:1:1: file not found" in err


def test_shot_writes_a_png_and_never_overwrites(capsys, tmp_path):
    import pygame

    png = tmp_path / "a.png"
    code, out, _ = run(capsys, "shot", "--stage", "1", "-o", str(png), "--size", "480x300")
    assert code == 0 and png.exists()
    assert pygame.image.load(str(png)).get_size() == (480, 300)
    before = png.read_bytes()
    code, _, err = run(capsys, "shot", "--at", "3", "-o", str(png), "--size", "480x300")
    assert code == 2 and "exists" in err and png.read_bytes() == before
    code, _, _ = run(capsys, "shot", "--at", "3", "-o", str(png), "--size", "480x300", "--force")
    assert code == 0 and png.read_bytes() != before
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_shot_rejects_a_bad_size(capsys, tmp_path):
    with pytest.raises(SystemExit) as e:
        main(["shot", "-o", str(tmp_path / "x.png"), "--size", "big", "--lang", "en"])
    assert e.value.code == 2
    assert "expected WxH" in capsys.readouterr().err


def test_via_a_named_way_of_the_text():
    """鉤楹內: to reach the 左物 under the 棟 the archer passes north of the 西楹."""
    from viz.model.compile.compiler import compile_script
    from viz.model.layout import load_layout
    from viz.model.script.reader import parse_script
    from viz.text import load_corpus

    layout = load_layout(ROOT / "layouts" / "xu.yaml")
    text = BAD.replace("to: 阼階頂}", "via: 鉤楹內, to: 左物}").replace("at: 門內", "at: 西階上")
    tl = compile_script(parse_script(text, layout, load_corpus(), "s.yaml"), layout)
    pillar = layout.places["西楹"]
    ts = np.linspace(tl.steps[0].t0, tl.steps[0].t1, 400)
    xs = np.array([tl.sample(t).xy[0] for t in ts])
    near = np.abs(xs[:, 0] - pillar.x) < 1.0
    assert near.any() and (xs[near, 1] > pillar.y).all()


@pytest.mark.slow
def test_another_commentators_reading(capsys):
    code, out, _ = run(capsys, "check", "--reading", "敖")
    assert code == 0 and "reading 敖" in out
    code, _, err = run(capsys, "state", "--at", "0", "--reading", "朱")
    assert code == 2 and "no file knows the reading '朱'; known: 鄭、敖繼公" in err
    assert "Traceback" not in err


def test_shot_wants_a_png_name(capsys, tmp_path):
    code, _, err = run(capsys, "shot", "--at", "1", "-o", str(tmp_path / "x.txt"))
    assert code == 2 and "ending in .png" in err and not (tmp_path / "x.txt").exists()


@pytest.mark.slow
def test_options_may_come_before_the_command(capsys, tmp_path):
    rite = str(trimmed(tmp_path / "rite", 1, 5))  # 戒賔 … 迎賔
    code, out, _ = run(capsys, "--script", rite, "--reading", "敖", "check")
    assert code == 0 and "reading 敖" in out
    code, out, _ = run(capsys, "--script", rite, "--stage", "1", "state", "--json")
    assert code == 0 and json.loads(out)["stage"]["name"] == "戒賔"
    code, out, _ = run(capsys, "--script", rite, "--stage", "5", "state", "--json")
    assert code == 0 and json.loads(out)["stage"]["name"] == "迎賔"


@pytest.mark.slow
def test_strict_check_fails_on_a_warning(capsys, tmp_path):
    rite = trimmed(tmp_path / "rite", 1, 5)  # 戒賔 … 迎賔
    f = rite / "sections" / "05-迎賔.yaml"
    # at 及階 the 賔 walks into the court's west wall instead of to the foot of the 西階
    old = "- move: {who: bin, to: 西階下, face: 北}"
    text = f.read_text(encoding="utf-8")
    assert text.count(old) == 1
    f.write_text(text.replace(old, "- move: {who: bin, to: {place: 西階下, dx: -46}, face: 北}"),
                 encoding="utf-8")
    code, out, err = run(capsys, "check", "--script", str(rite))
    assert code == 0 and "the move ends inside 西壁 (a wall)" in err
    code, out, err = run(capsys, "check", "--strict", "--script", str(rite))
    assert code == 2 and "the move ends inside 西壁" in err and "--strict" in err
    assert str(f) in err


def test_after_draws_and_reports_the_closing_state(capsys, tmp_path):
    """--after 再拜 (the 主人's, at the gate): he has bowed; the 賔 has not begun to answer."""
    code, out, _ = run(capsys, "state", "--after", "主人一相出迎於門外再拜", "--json")
    s = json.loads(out)
    who = {a["id"]: a for a in s["actors"]}
    assert code == 0 and s["step"]["cite"] == "再拜"
    assert who["bin"]["posture"] == "立"


# -- one way to name a stage; unknown commands ------------------------------------------------


@pytest.mark.parametrize("name", ["18", "⑱", "１８", "初射", "初射獲而未釋獲"])
def test_text_and_state_name_a_stage_the_same_way(capsys, name):
    code, out, err = run(capsys, "text", "--stage", name, "--part", "經")
    assert code == 0 and err == "" and out.startswith("司馬命獲者執旌以負侯")
    code, out, _ = run(capsys, "state", "--stage", name)
    assert code == 0 and "stage 18 初射獲而未釋獲" in out


def test_text_names_a_circled_number_beyond_the_sections_without_a_traceback(capsys):
    code, out, err = run(capsys, "text", "--stage", "㊿")
    assert code == 2 and out == ""
    assert err.startswith("text: no section '㊿': expected a number from 1 to 37, or a name: 1 戒賔、")


def test_a_beginning_of_several_stages_lists_them(capsys):
    code, _, err = run(capsys, "text", "--stage", "三射")
    assert code == 2
    assert err == "text: '三射' begins 2 sections: 27 三射用樂、30 三射畢; say which (or its number)\n"
    code, _, err = run(capsys, "state", "--stage", "三射")
    assert code == 2 and err == ("error: '三射' begins 4 stages: 27 三射用樂、28 三射取矢視算、"
                                 "29 三射飲不勝者、30 三射畢; say which (or its number)\n")


@pytest.mark.parametrize(("argv", "guess"), [
    (["--lang", "en", "shoot"], "; did you mean shot or sheet?"),
    (["--lang", "en", "--seed", "3", "chek"], "; did you mean check?"),
    (["--lang", "en", "zzzz"], ""),
])
def test_an_unknown_command_is_named_with_the_commands(capsys, argv, guess):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    word = argv[-1]
    assert err.splitlines() == [
        f"error: unknown command {word!r}{guess}",
        "commands: play, shot, state, check, score, coverage, text, find, diff, plate, video, "
        "sheet, atlas, web, new (python main.py --help explains each)"]


@pytest.mark.slow  # a subprocess
def test_a_reader_that_closes_the_pipe_ends_the_command_quietly():
    """`coverage --json | head -2` (400 kB): no BrokenPipeError traceback, status 0."""
    code = ("import subprocess, sys\n"
            "p = subprocess.Popen([sys.executable, 'main.py', 'coverage', '--json'], "
            "stdout=subprocess.PIPE, stderr=subprocess.PIPE)\n"
            "p.stdout.readline(); p.stdout.close()\n"
            "err = p.stderr.read().decode(); print(p.wait()); print(repr(err))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    rc, err = out.stdout.splitlines()
    assert "Traceback" not in err and rc == "0", err


def test_rite_help_names_every_bundled_rite(capsys):
    with pytest.raises(SystemExit):
        main(["check", "--help", "--lang", "en"])
    out = " ".join(capsys.readouterr().out.split())
    for name, folder in (("鄉射禮", "xiangshe"), ("鄉飲酒禮", "xiangyin")):
        assert f"{name} or {folder}" in out
