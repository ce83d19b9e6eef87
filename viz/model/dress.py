"""The words of dress: what 袒, 襲, 決, 遂, 説決拾, 搢扑, 去扑 set, and a bow's 張 or 弛 (one home for
the verb, the compile and the checks)."""
from __future__ import annotations

import re

WORN = ("袒", "決", "遂", "扑")  # the "dress" channel's columns, in order
BOW_STATES = {"張": 1, "弛": 2}
TAN_XUNRU = 2  # the "dress" channel's 袒 when what is bared is the 纁襦 (1: the arm itself)  # the "bow" channel's values (0: not a bow)
BOW_NAMES = {v: k for k, v in BOW_STATES.items()}
# each word of the text a dress action may say, and what it sets (column, value)
WORDS: dict[str, tuple[tuple[str, int], ...]] = {
    "袒": (("袒", 1),), "襲": (("袒", 0),),
    # 記: 大夫與士射袒纁襦 (注: 不肉袒殊於耦): the 大夫 bares a red under-jacket, not the flesh
    "袒纁襦": (("袒", TAN_XUNRU),),
    "決": (("決", 1),), "遂": (("遂", 1),), "拾": (("遂", 1),),
    "説決拾": (("決", 0), ("遂", 0)), "説決": (("決", 0),), "説拾": (("遂", 0),),
    "搢扑": (("扑", 1),), "去扑": (("扑", 0),),
}
WORD_RE = re.compile("|".join(sorted(WORDS, key=len, reverse=True)))


def dress_words(text: str) -> list[tuple[str, int]] | None:
    """The changes a dress action's words make, in order (說 read as 説), or None when the words
    are not all dress words (袒決遂, 襲説決拾, 搢扑 …)."""
    text = text.replace("說", "説")
    out: list[tuple[str, int]] = []
    at = 0
    for g in WORD_RE.finditer(text):
        if g.start() != at:
            return None
        out += WORDS[g.group(0)]
        at = g.end()
    return out if at == len(text) and out else None
