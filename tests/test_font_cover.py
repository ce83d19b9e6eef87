"""The bundled font covers every bundled rite's text: no character of either corpus is a box."""
from __future__ import annotations

from pathlib import Path

from fontTools.ttLib import TTFont

from viz.backends.fonts import FONT_PATH, SUBSTITUTES
from viz.text.corpus import load_corpus

ROOT = Path(__file__).resolve().parents[1]
CORPORA = [ROOT / "assets" / "text" / "corpus.json",
           ROOT / "assets" / "rites" / "xiangyin" / "text" / "corpus.json"]


def _uncovered(text: str, cmap: dict[int, str]) -> set[str]:
    return {c for c in text if ord(c) not in cmap
            and not (c in SUBSTITUTES and all(ord(s) in cmap for s in SUBSTITUTES[c]))}


def test_every_character_of_both_corpora_is_in_the_font():
    cmap = TTFont(FONT_PATH).getBestCmap()
    for path in CORPORA:
        corpus = load_corpus(path)
        assert not _uncovered(corpus.plain + "".join(m for _, m in corpus.marks), cmap), path
        assert not _uncovered("".join(s.name for s in corpus.sections), cmap), path


def test_the_check_can_fail():
    # 婣 (鄉飲酒禮's 目録 注: 孝友睦婣任恤) was drawn as a box before the font was regenerated
    assert _uncovered("睦婣\ue000", {ord("睦"): "x"}) == {"婣", "\ue000"}
    assert _uncovered("\U000248e5", {ord("玄"): "x"}) == set()
