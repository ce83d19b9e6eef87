"""鄉飲酒禮's clauses are punctuated (issue 26): a reader's marks (assets/rites/xiangyin/text/
punct.txt) inside 張爾岐's 句, put into corpus.json by tools/segment_text.py --punct, and shown
wherever 鄉射禮's are (the window's and the plates' clause.punct, `text --punct`)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tools.segment_text import INNER, apply_punct, parse_zhang, read_punct
from viz.text.corpus import load_corpus

TEXT = Path(__file__).resolve().parents[1] / "assets" / "rites" / "xiangyin" / "text"


def test_every_clause_of_more_than_one_phrase_is_punctuated():
    c = load_corpus(TEXT / "corpus.json")
    long = [cl for cl in c.clauses if len(cl.text) > 9]   # 樂正與立者皆薦以齒: one phrase
    bare = [cl.id for cl in long if not any(m in cl.punct for m in INNER)]
    assert len(long) == 100 and bare == []
    # 張's 句 stay whole: each clause is one, ending 。, its words unchanged
    for cl in c.clauses:
        assert cl.punct.endswith("。") and "。" not in cl.punct[:-1]
        assert "".join(ch for ch in cl.punct if ch not in INNER + "。") == cl.text
    assert c.clause("04.05").punct == "主人坐取爵，興，適洗，南面坐奠爵于篚下，盥洗。"
    assert c.clause("14.02").punct == "工告于樂正曰：「正歌備」，樂正告于賔，乃降。"


def test_text_punct_prints_the_marks():
    c = load_corpus(TEXT / "corpus.json")
    cl = c.clause("09.03")
    assert c.punctuated(cl.start, cl.end) == "主人揖升，坐取爵于西楹下，降洗，升實爵，于西階上獻衆賔，衆賔之長升拜受者三人。"


def _sections():
    return parse_zhang(TEXT / "source.txt", "拜賜息司正")[1]


def test_a_wrong_character_or_a_full_stop_inside_is_an_error_at_its_line(tmp_path):
    lines = (TEXT / "punct.txt").read_text(encoding="utf-8").splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith("04.05 "))
    bad = tmp_path / "p.txt"
    bad.write_text("\n".join(lines[:i] + ["04.05 主人坐取爵，興，適洗。南面坐奠爵于篚下，盥洗。"]
                             + lines[i + 1:]), encoding="utf-8")
    with pytest.raises(ValueError, match=rf"p.txt:{i + 1}:\d+: clause 04.05: '。'"):
        apply_punct(_sections(), read_punct(bad), bad)
    bad.write_text("\n".join(lines[:i] + ["04.05 主人坐取觶，興，適洗，南面坐奠爵于篚下，盥洗。"]
                             + lines[i + 1:]), encoding="utf-8")
    with pytest.raises(ValueError, match=rf"p.txt:{i + 1}:1: clause 04.05: the text has"):
        apply_punct(_sections(), read_punct(bad), bad)
    bad.write_text("\n".join(lines[:i] + lines[i + 1:]), encoding="utf-8")
    with pytest.raises(ValueError, match="clause 04.05 .* has no punctuation line"):
        apply_punct(_sections(), read_punct(bad), bad)
