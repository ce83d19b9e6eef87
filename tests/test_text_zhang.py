"""The 鄉飲酒禮 corpus built from 張爾岐's 句讀, and the builder's two formats."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tools.segment_text import CORPUS, apply_punct, build, main, parse_zhang, read_punct
from viz.text.corpus import load_corpus

ROOT = Path(__file__).resolve().parents[1]
TEXT = ROOT / "assets" / "rites" / "xiangyin" / "text"


def test_the_bundled_source_is_the_shared_reference():
    # byte-identical to shared/ref/儀禮鄭註句讀_卷四_鄉飲酒禮_張爾岐.txt (KR1d0038_004.txt)
    assert hashlib.sha256((TEXT / "source.txt").read_bytes()).hexdigest() == (
        "d082bc70e152aa01cdbb4e0b9e1abec8" "e1b6017f2879193a16e8a8f9fbce10fb")


def test_corpus_json_is_built_from_the_source():
    seed, sections = parse_zhang(TEXT / "source.txt", "拜賜息司正")
    apply_punct(sections, read_punct(TEXT / "punct.txt"), TEXT / "punct.txt")
    assert build(seed, sections) == json.loads((TEXT / "corpus.json").read_text(encoding="utf-8"))


def test_rebuilding_xiangshe_gives_the_same_bytes(tmp_path):
    out = tmp_path / "corpus.json"
    assert main(["--out", str(out)]) == 0
    assert out.read_bytes() == CORPUS.read_bytes()


def test_xiangyin_has_zhangs_25_sections_and_183_clauses():
    c = load_corpus(TEXT / "corpus.json")
    names = [s.name for s in c.sections]
    assert len(names) == 25
    assert names[:3] == ["謀賔戒賔", "陳設", "速賔迎賔拜至"]
    # his remarks after a heading's name are not part of the name
    assert names[8] == "主人獻衆賔" and names[13] == "合樂及告樂備" and names[21] == "坐燕"
    assert names[23:] == ["遵者入之禮", "拜賜息司正"]
    kinds = [cl.kind for cl in c.clauses]
    # one clause per break of the 經 by his small print: 儀禮注疏 has 183 注 at the same places
    assert (kinds.count("經"), kinds.count("記")) == (151, 32)


def test_notes_are_zheng_and_zhangs_own_words_are_an():
    c = load_corpus(TEXT / "corpus.json")
    first = c.clause("01.02")
    assert first.text == "主人戒賔賔拜辱主人答拜乃請賔賔禮辭許主人再拜賔答拜"
    assert first.punct == "主人戒賔，賔拜辱，主人答拜，乃請賔，賔禮辭，許，主人再拜，賔答拜。"   # punct.txt
    assert first.notes[0].startswith("戒警也告也") and first.notes[0].endswith("不固辭者素所有志")
    assert c.run_at(first.note_spans[0][1]).kind == "按"          # ○主人戒賔言…
    assert c.plain[first.note_spans[0][1]] == "○"
    ji = c.clause("25.記1")
    assert ji.text == "鄉朝服而謀賔介皆使能不宿戒" and ji.notes[0].startswith("鄉鄉人謂鄉大夫也")
    assert c.clause("25.記32").text == "無算爵然後與"
    # a note with no 鄭注 (only 張's ○…) still ends the clause
    assert c.clause("05.09").text.endswith("賔西階上拜送爵薦脯醢") and not c.clause("05.09").notes
    assert c.page_at(c.clause("13.01").start) == "004-13a"


def test_a_zhang_text_in_brief(tmp_path):
    src = tmp_path / "t.txt"
    src.write_text("#+TITLE: x\n<pb:KR_WYG_001-1a>¶\n　甲禮(目/録○疏)¶\n主人揖(注一/也)(續○按)"
                   "賔拜¶\n　右揖拜此第一段¶\n主人出(注/二)¶\n記¶\n賔拜(記注/也)¶\n　記拜¶\n",
                   encoding="utf-8")
    seed, sections = parse_zhang(src, "出")
    data = build(seed, sections)
    assert [s[1] for s in data["sections"]] == ["揖拜", "出"]
    assert [c[0] for c in data["clauses"]] == ["01.01", "01.02", "02.01", "02.記1"]
    assert [c[6] for c in data["clauses"]] == ["主人揖。", "賔拜。", "主人出。", "賔拜。"]
    runs = [(k, data["plain"][a:b]) for k, a, b, _, _ in data["runs"]]
    assert runs[:4] == [("題", "甲禮"), ("注", "目録"), ("按", "○疏"), ("經", "主人揖")]
    assert ("注", "注一也續") in runs and ("按", "○按") in runs and ("記注", "記注也") in runs
    with pytest.raises(ValueError, match="--tail-name"):
        parse_zhang(src, "")
    # a text that ends with its last heading needs no tail name
    src.write_text("主人揖(注)¶\n　右揖¶\n", encoding="utf-8")
    seed, sections = parse_zhang(src)
    assert [s[1] for s in build(seed, sections)["sections"]] == ["揖"]


def test_zhang_needs_source_and_out_and_never_overwrites(tmp_path, capsys):
    assert main(["--format", "zhang"]) == 2
    out = tmp_path / "c.json"
    out.write_text("mine", encoding="utf-8")
    assert main(["--format", "zhang", "--source", str(TEXT / "source.txt"), "--out", str(out),
                 "--tail-name", "x"]) == 2
    assert out.read_text(encoding="utf-8") == "mine"
    assert "--force" in capsys.readouterr().err
    missing = tmp_path / "none.txt"
    assert main(["--format", "zhang", "--source", str(missing), "--out", str(tmp_path / "d.json"),
                 "--tail-name", "x"]) == 1
    assert str(missing) in capsys.readouterr().err
