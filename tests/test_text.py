"""Tests for the segmented seed text (viz.text) and the text/find commands."""
from __future__ import annotations

import argparse
import hashlib
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from viz.text import load_corpus, normalize

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "assets" / "text" / "seed.txt"
NAMES = ("戒賔", "設席陳器", "張侯", "速賔", "迎賔", "獻賔", "賔酢主人", "酬賔", "獻衆賔", "一人舉觶",
         "獻大夫", "大夫酢", "樂賔", "立司正", "司正舉觶", "請射", "誘射", "初射獲而未釋獲", "取矢",
         "再請射", "再射釋獲", "賔主大夫衆賔射", "取矢視算", "飲不勝者", "獻獲者及釋獲者", "三請射",
         "三射用樂", "取矢視算", "飲不勝者", "三射畢", "旅酬", "二人舉觶", "徹俎", "燕", "賓出", "拜賜",
         "息司正")


def seed_chars() -> str:
    """The seed with only page markers, line breaks and '/' taken out."""
    text = SEED.read_text(encoding="utf-8")
    text = re.sub(r"^\[\d{3}-\d+[ab]\]\s*$", "", text, flags=re.MULTILINE)
    return text.replace("\n", "").replace("/", "")


def test_seed_is_the_shared_seed():
    # the bundled copy must be byte-identical to shared/seeds/000_e8878201790117e0.txt
    assert hashlib.sha256(SEED.read_bytes()).hexdigest() == (
        "e4f498c45e5da0a017b097b34b6e76af" "25b279093362b461232f21f596209189")


def test_lossless_join():
    c = load_corpus()
    assert c.plain == seed_chars()
    assert "".join(c.plain[r.start:r.end] for r in c.runs) == c.plain
    assert all(a.end == b.start for a, b in zip(c.runs, c.runs[1:]))
    assert c.runs[0].start == 0 and c.runs[-1].end == len(c.plain)


def test_37_sections_named_in_order():
    c = load_corpus()
    assert [s.index for s in c.sections] == list(range(1, 38))
    assert tuple(s.name for s in c.sections) == NAMES
    assert all(a.end == b.start for a, b in zip(c.sections, c.sections[1:]))
    assert c.sections[-1].end == len(c.plain)


def test_section_named_folds_variants():
    c = load_corpus()
    assert c.section_named("迎賓").index == 5
    assert c.section_named("取矢視算").index == 23
    assert c.section_named("28").name == "取矢視算"
    assert [s.index for s in c.sections_named("飲不勝者")] == [24, 29]
    assert c.section_named("不存在") is None


def test_find_with_variants():
    c = load_corpus()
    hits = c.find("主人戒賓")
    assert hits and c.plain[hits[0]:hits[0] + 4] == "主人戒賔"
    assert c.find("西靣") == c.find("西面") and c.find("西面")
    assert c.find("𤣥酒") == c.find("玄酒")


def test_page_at():
    c = load_corpus()
    assert c.page_at(0) == "011-1a"
    assert c.page_at(c.find("主人戒賓")[0]) == "011-2a"
    assert c.page_at(len(c.plain) - 1) == c.pages[-1][1]


@given(st.text(alphabet="賔賓靣面荅答于於𤣥玄㑹會爲為主人戒ab 、", max_size=40))
def test_normalize_is_length_preserving(s):
    folded = normalize(s)
    assert len(folded) == len(s)
    assert all((a == b) or normalize(a) == b for a, b in zip(s, folded))


def test_heading_inside_jing_is_not_a_heading():
    c = load_corpus()
    off = c.find("右勝則曰右賢於左")[0]
    assert c.run_at(off).kind == "經"
    assert c.section_at(off).index == 23
    assert "右勝則曰右賢於左" in c.text("經", c.sections[22])


def test_known_notes_are_not_jing_and_known_jing_is():
    c = load_corpus()
    jing = c.text("經")
    for note in ("州長也", "戒猶警也", "此縣謂磬也", "榮屋翼也", "尊東明與賔夾尊也", "又異之也"):
        assert note not in jing, note
        assert all(c.run_at(o).kind in ("注", "記注", "引") for o in c.find(note)), note
    for text in ("主人戒賔", "賔禮辭許", "尊於賔席之東兩壺斯禁", "羮定", "有餘純則横於下",
                 "司射猶挾乘矢以命三耦", "將乘矢", "無介"):
        assert text in jing, text


def test_small_print_is_never_jing():
    # a '/' sits inside small print; the chars either side of it are never 經 or 記
    from tools.segment_text import parse_seed

    c = load_corpus()
    seed = parse_seed()
    for p in seed.slashes:
        # the right half-column before a '/' is never empty; the left one may be
        if c.plain[p - 1] != " " and c.run_at(p - 1).section:
            assert c.run_at(p - 1).kind not in ("經", "記"), c.plain[p - 6:p + 5]


def test_jing_has_no_spaces_and_37_sections_have_jing():
    c = load_corpus()
    for sec in c.sections:
        text = c.text("經", sec)
        assert text and " " not in text, sec


def test_clauses_cover_the_jing_and_carry_their_notes():
    c = load_corpus()
    for sec in c.sections:
        clauses = [k for k in c.clauses if k.section == sec.index and k.kind == "經"]
        assert "".join(k.text for k in clauses) == c.text("經", sec)
        assert all(k.id.startswith(f"{sec.index:02d}.") for k in clauses)
    first = c.clause_at(c.find("主人戒賓")[0])
    assert first.id == "01.01" and first.page == "011-2a" and first.punct.startswith("主人戒賔，")
    noted = c.clause_at(c.find("乃請")[0])
    assert any(n.startswith("主人州長也") for n in noted.notes)
    assert all(c.plain[a:b] == n for k in c.clauses for (a, b), n in zip(k.note_spans, k.notes))
    ji = c.clause("01.記1")
    assert ji.kind == "記" and ji.text == "大夫與則公士為賔" and ji.notes[0].startswith("不敢使")
    assert len({k.id for k in c.clauses}) == len(c.clauses)


def test_punctuation_only_adds_marks():
    c = load_corpus()
    for k in c.clauses:
        assert "".join(ch for ch in k.punct if ch not in "，。、：；「」？！") == k.text


def _run_cli(argv: list[str], capsys) -> tuple[int, str]:
    from viz.cli.text import add_commands

    p = argparse.ArgumentParser()
    add_commands(p.add_subparsers(dest="command"))
    args = p.parse_args(argv)
    code = args.func(args)
    return code, capsys.readouterr().out


def test_text_command_prints_37_lines_of_jing(capsys):
    code, out = _run_cli(["text", "--part", "經"], capsys)
    lines = out.splitlines()
    c = load_corpus()
    assert code == 0 and len(lines) == 37
    assert lines == [c.text("經", s) for s in c.sections]
    assert not any(note in out for note in ("州長也", "記大夫與", "射義", "一條入三射記篇"))


def test_text_command_stage_and_punct(capsys):
    code, out = _run_cli(["text", "--part", "經", "--stage", "迎賓", "--punct"], capsys)
    assert code == 0 and len(out.splitlines()) == 1 and "及門" in out and "。" in out
    code, _ = _run_cli(["text", "--stage", "無此"], capsys)
    assert code == 2


def test_find_command_lists_places(capsys):
    code, out = _run_cli(["find", "主人戒賓"], capsys)
    assert code == 0
    assert out.split("\t")[:4] == ["1 戒賔", "01.01", "011-2a", "經"]
    code, _ = _run_cli(["find", "不存在之文"], capsys)
    assert code == 1


def _judgements() -> list[dict]:
    import yaml

    from tools.segment_text import JUDGEMENTS

    return yaml.safe_load(JUDGEMENTS.read_text(encoding="utf-8"))["sections"]


def test_corpus_json_is_built_from_the_judgements():
    import json

    from tools.segment_text import CORPUS, build, parse_seed

    assert build(parse_seed(), _judgements()) == json.loads(CORPUS.read_text(encoding="utf-8"))


def test_a_wrong_judgement_is_refused_with_its_place():
    import pytest

    from tools.segment_text import check_judgements, parse_seed

    sections = _judgements()
    sections[1]["runs"][0][1] = sections[1]["runs"][0][1].replace("戒賔", "戒賓")
    with pytest.raises(ValueError, match=r"section 1 run 1 \(經\): seed has"):
        check_judgements(parse_seed(), sections)
    sections = _judgements()
    sections[1]["runs"][1][1] += "。"
    with pytest.raises(ValueError, match="punctuation is only for 經 and 記"):
        check_judgements(parse_seed(), sections)


def test_no_clause_is_shown_beginning_with_a_lone_closing_mark():
    """24 clauses are cut inside a quotation (「…正歌備。」樂正告於賔): the 」 is shown at the end
    of the clause before, so the window, video, plates and atlas never start a line with it."""
    from viz.text import load_corpus
    c = load_corpus()
    assert not [cl.id for cl in c.clauses if cl.punct[:1] in ("」", "』", "）", "〕")]
    assert c.clause("13.10").punct.endswith("正歌備。」")
    assert c.clause("13.11").punct == "樂正告於賔，乃降。"
    # nothing is lost: the marks of the section are all still there, in order
    joined = "".join(cl.punct for cl in c.clauses if cl.section == 13 and cl.kind == "經")
    assert joined.count("「") == joined.count("」")
