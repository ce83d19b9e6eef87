"""Tests for the segmented seed text (viz.text) and the text/find commands."""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from viz.text import load_corpus, normalize

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "assets" / "text" / "seed.txt"
NAMES = ("戒賔 設席陳器 張侯 速賔 迎賔 獻賔 賔酢主人 酬賔 獻衆賔 一人舉觶 獻大夫 大夫酢 樂賔 立司正 "
         "司正舉觶 請射 誘射 初射獲而未釋獲 取矢 再請射 再射釋獲 賔主大夫衆賔射 取矢視算 飲不勝者 "
         "獻獲者及釋獲者 三請射 三射用樂 取矢視算 飲不勝者 三射畢 旅酬 二人舉觶 徹俎 燕 賓出 拜賜 息司正"
         ).split()


def seed_chars() -> str:
    """The seed with only page markers, line breaks and '/' taken out."""
    text = SEED.read_text(encoding="utf-8")
    text = re.sub(r"^\[\d{3}-\d+[ab]\]\s*$", "", text, flags=re.M)
    return text.replace("\n", "").replace("/", "")


def test_lossless_join():
    c = load_corpus()
    assert c.plain == seed_chars()
    assert "".join(c.plain[r.start:r.end] for r in c.runs) == c.plain
    assert all(a.end == b.start for a, b in zip(c.runs, c.runs[1:]))
    assert c.runs[0].start == 0 and c.runs[-1].end == len(c.plain)


def test_37_sections_named_in_order():
    c = load_corpus()
    assert [s.index for s in c.sections] == list(range(1, 38))
    assert [s.name for s in c.sections] == NAMES
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
