"""Variant-character folding: one char to one char, so folded offsets equal original offsets."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

VARIANTS_FILE = Path(__file__).resolve().parents[2] / "assets" / "text" / "variants.json"


@lru_cache(maxsize=1)
def _table() -> dict[int, str]:
    # The pairs are data (assets/text/variants.json) so a reader can add one without code.
    pairs = json.loads(VARIANTS_FILE.read_text(encoding="utf-8"))["pairs"]
    table: dict[int, str] = {}
    for variant, standard in pairs:
        if len(variant) != 1 or len(standard) != 1:
            raise ValueError(f"{VARIANTS_FILE}: pair {variant!r}->{standard!r} is not char to char")
        table[ord(variant)] = standard
    return table


# Simplified characters a reader may type for a commentator or a book (--reading 敖继公): folded
# to the forms the files use, so a reading is found however it is typed
SIMPLIFIED = str.maketrans({"郑": "鄭", "继": "繼", "贾": "賈", "乡": "鄉", "饮": "飲", "礼": "禮",
                            "张": "張", "尔": "爾", "万": "萬", "韦": "韋", "翚": "翬", "吴": "吳",
                            "黄": "黃", "从": "從", "经": "經", "记": "記", "仪": "儀"})


def traditional(s: str) -> str:
    """A name typed with simplified characters, in the forms the files use (敖继公 → 敖繼公)."""
    return s.translate(SIMPLIFIED)


def normalize(s: str) -> str:
    """Fold variant characters to a standard form; len(normalize(s)) == len(s)."""
    return s.translate(_table())
