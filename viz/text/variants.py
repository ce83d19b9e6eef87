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


def normalize(s: str) -> str:
    """Fold variant characters to a standard form; len(normalize(s)) == len(s)."""
    return s.translate(_table())
