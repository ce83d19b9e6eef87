"""Issue 27's small items: a stage named as the window finds it, a misspelt one's nearest
match, a reading typed in simplified characters, who drank told apart, an unknown option named
by its command, one tools/dev.py at a time in .venv."""
from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from viz.cli.main import main
from viz.text.names import UnknownName, pick

ROOT = Path(__file__).resolve().parents[1]
NAMES = ["戒賔", "請射", "誘射", "初射獲而未釋獲", "賓出"]


def test_a_word_inside_one_name_finds_it_and_inside_several_lists_them():
    assert pick("未釋", NAMES) == [3]
    with pytest.raises(UnknownName, match=r"'射' is in 3 stage names: 2 請射、3 誘射、4 初射獲而未釋獲"):
        pick("射", NAMES)


def test_a_misspelt_stage_gets_the_nearest_match():
    with pytest.raises(UnknownName, match=r"did you mean 4 初射獲而未釋獲\?"):
        pick("初設", NAMES)
    with pytest.raises(UnknownName, match=r"did you mean 3 誘射\?"):
        pick("誘設", NAMES)


def test_variants_are_one_name():
    assert pick("賔出", NAMES) == pick("賓出", NAMES) == [4]


@pytest.mark.slow
def test_a_reading_in_simplified_characters_is_the_files_reading(capsys):
    assert main(["state", "--reading", "敖继公", "--stage", "1"]) == 0
    capsys.readouterr()
    assert main(["state", "--reading", "王肅", "--stage", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("--reading: no file knows the reading '王肅'; known: 鄭、敖繼公")
    known = err.split("known: ")[1].splitlines()[0].split("、")
    assert "敖繼公" in known and not any("," in k for k in known)  # one commentator a name


@pytest.mark.slow  # scores the whole rite (6 s)
def test_score_says_which_of_those_sharing_a_name_drank(capsys):
    assert main(["score"]) == 0
    drank = [ln for ln in capsys.readouterr().out.splitlines() if "drank:" in ln]
    assert drank and all("衆賔之長、" not in ln and not ln.endswith("衆賔之長") for ln in drank)
    assert any("衆賔之長 (衆" in ln for ln in drank)


@pytest.mark.parametrize("argv", [["play", "--sped", "4", "--lang", "en"],
                                  ["--lang", "en", "--sped", "4"]])
def test_an_unknown_option_is_named_with_its_command(capsys, argv):
    with pytest.raises(SystemExit) as e:
        main(argv)
    err = capsys.readouterr().err
    assert e.value.code == 2
    assert "python main.py play: error: unrecognized arguments: --sped 4 (did you mean --speed?)" \
        in err


def test_one_dev_py_at_a_time_makes_the_venv(tmp_path):
    src = (ROOT / "tools" / "dev.py").read_text(encoding="utf-8")
    ns = {"__name__": "dev", "__file__": str(ROOT / "tools" / "dev.py")}
    exec(compile(src, "dev.py", "exec"), ns)  # noqa: S102 (the script, not run as main)
    lock = ns["Locked"]
    order: list[str] = []

    def first():
        with lock(str(tmp_path / ".venv.lock")):
            order.append("first in")
            time.sleep(0.3)
            order.append("first out")

    def second():
        while not order:
            time.sleep(0.01)
        with lock(str(tmp_path / ".venv.lock")):
            order.append("second in")

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert order == ["first in", "first out", "second in"]


def test_a_stage_played_out_of_the_texts_order_says_both_numbers_and_why():
    """鄉飲酒禮 plays 經第24節 (the 遵者) after 一人舉觶, as its first clause bids."""
    from types import SimpleNamespace as NS

    from viz.draw.hud import out_of_order
    secs = {"一人舉觶": NS(index=10, name="一人舉觶"), "24": NS(index=24, name="遵者入之禮"),
            "升歌": NS(index=11, name="升歌")}
    corpus = NS(section_named=secs.get, clauses=[
        NS(section=24, text="賔若有遵者諸公大夫則既一人舉觶乃入"), NS(section=11, text="設席")])
    stages = [NS(index=9, name="一人舉觶", section="一人舉觶"),
              NS(index=10, name="遵者入之禮", section="24"),
              NS(index=11, name="遵者酢主人", section="24"),
              NS(index=12, name="升歌", section="升歌")]
    stages = [NS(index=i, name=f"s{i}", section="") for i in range(9)] + stages
    tl = NS(stages=stages)
    corpus.section_named = lambda name: secs.get(name)
    assert out_of_order(tl, stages[9], corpus) == ""
    assert out_of_order(tl, stages[12], corpus) == (
        "第13節目 · 經第11節：經第24節遵者入之禮演於第11–12節目，經云「賔若有遵者諸公大夫則既一人舉觶乃入」")
    assert out_of_order(tl, stages[10], corpus).startswith("第11節目 · 經第24節：經云「賔若有遵者")


@pytest.mark.parametrize("mouse", [(5, 5), (300, 200), (590, 390), (20, 395)])
def test_the_tooltip_stays_on_screen(mouse):
    """Turned back near the right edge, a long tip is not pushed past the left one."""
    from viz.draw import hud
    from viz.draw.compose import _tooltip

    size = (600, 400)
    tip = "衆賔之長 · 立 · 執弓矢 · 上耦上射之南 · 東面"
    t = _tooltip(tip, mouse, size)
    w = hud.text_width(tip, 13) + 8
    assert t.anchor.endswith("w") and 0 <= t.pos[0] and t.pos[0] + w <= size[0]
