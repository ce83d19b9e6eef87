"""`main.py new NAME --text FILE` (issue 25): a rite package from a chapter of 張爾岐's 句讀."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from viz.cli import new
from viz.cli.main import main

CHAPTERS = Path(__file__).resolve().parents[2] / "shared" / "ref" / "儀禮鄭註句讀_張爾岐"
YAN = CHAPTERS / "卷六_燕禮.txt"
SANGFU = CHAPTERS / "卷十一_喪服.txt"


def _jing(data: dict) -> str:
    return "".join(data["plain"][a:b] for k, a, b, *_ in data["runs"] if k == "經")


@pytest.mark.slow  # makes and checks a 30-section rite
def test_new_yanli_makes_a_package_check_accepts_and_text_prints(tmp_path, capfd):
    dest = tmp_path / "yan"
    assert main(["new", str(dest), "--text", str(YAN)]) == 0
    out = capfd.readouterr().out
    assert "30 sections, 163 經 and 30 記 clauses" in out
    assert "ok: layouts/xu.yaml" in out             # check ran at once and said so
    manifest = yaml.safe_load((dest / "manifest.yaml").read_text(encoding="utf-8"))
    assert manifest["layout"] == "xu" and manifest["patterns"] == ["library"]
    assert manifest["title"] == "燕禮" and len(manifest["sections"]) == 30
    first = (dest / manifest["sections"][0]).read_text(encoding="utf-8")
    assert "#   01.01  燕禮小臣戒與者。" in first      # the clauses to enact, listed
    assert yaml.safe_load(first)["name"] == "告戒設具"   # from 右告戒設具
    assert main(["text", "--rite", str(dest), "--part", "經"]) == 0
    printed = capfd.readouterr().out
    assert "燕禮小臣戒與者" in printed and "小臣相君燕飲之法" not in printed   # 經 without 注
    assert main(["check", "--rite", str(dest)]) == 0


def test_sangfu_is_refused_in_one_line_and_nothing_is_written(tmp_path, capsys):
    dest = tmp_path / "sang"
    assert main(["new", str(dest), "--text", str(SANGFU)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "cannot cut" in err and "右" in err
    assert not dest.exists() and list(tmp_path.iterdir()) == []


def test_an_existing_folder_is_never_overwritten(tmp_path, capsys):
    dest = tmp_path / "yan"
    dest.mkdir()
    (dest / "mine.txt").write_text("keep", encoding="utf-8")
    assert main(["new", str(dest), "--text", str(YAN)]) == 2
    assert "exists" in capsys.readouterr().err
    assert [p.name for p in dest.iterdir()] == ["mine.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["yan"]   # no temp folder left


def test_a_planted_shu_stays_out_of_the_jing():
    text = YAN.read_text(encoding="utf-8")
    planted = text.replace("燕禮小臣戒與者(", "燕禮小臣戒與者(○疏云告事畢植疏漏經/之文)(", 1)
    assert planted != text
    data = new.build_corpus(planted)
    jing = _jing(data)
    assert "告事畢植" not in jing and "燕禮小臣戒與者" in jing
    notes = "".join(data["plain"][a:b] for k, a, b, *_ in data["runs"] if k == "按")
    assert "告事畢植疏漏經之文" in notes                # kept, as his note (按)
    # and nothing of the real 疏 he quotes is 經 either
    assert "疏云" not in jing and "疏曰" not in jing
    assert json.dumps(data, ensure_ascii=False).count("&KR") == 0


def test_the_check_can_fail_a_shu_outside_the_parentheses_is_jing():
    # what the test above guards against: 疏 printed as large print would be 經
    data = new.build_corpus(YAN.read_text(encoding="utf-8").replace(
        "燕禮小臣戒與者(", "燕禮小臣戒與者疏云告事畢植(", 1))
    assert "告事畢植" in _jing(data)


def test_guan_li_s_ji_opened_by_ji_guan_yi_is_ji_not_jing():
    # 士冠禮's 記 opens with 「記冠義(○周公作經…)」, not a lone 記 line
    data = new.build_corpus((CHAPTERS / "卷一_士冠禮.txt").read_text(encoding="utf-8"))
    kinds = [c[2] for c in data["clauses"]]
    assert kinds.count("記") == 11 and kinds.count("經") == 125
    assert "始冠緇布之冠也" not in _jing(data)
    assert "記冠義" not in _jing(data)
