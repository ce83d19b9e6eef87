"""Footprints (issue 26, class 3): the ground a person and a thing set out take, in 尺, so that
"nobody stands on or in the row of things set out" is a test of two shapes, not a radius about
one point that a fix can step just past. One home for the sizes, read by the compile's checks.

- A person: a disc of PERSON_R about where he stands — the knees of one kneeling, the feet of one
  standing, about 1 尺 across (the robe's sweep, the token's 1.5 尺, may brush a dish he serves).
- A thing: a disc of what it covers whichever way it lies — half its narrow side: a 豆 or 籩
  about 1 尺 across (豆 … 口圓徑尺: 三禮圖), a 薦 (a 籩 and a 豆 side by side, one prop here) at
  least a dish's breadth about its point, a 俎 1.2 尺 broad (俎長二尺四寸廣尺二寸: 三禮圖). The way
  a thing lies (東西 or 南北) is not in the model, so its long side is not counted: the test is
  what is certainly covered.

Two footprints that overlap are one standing on the other; two dishes of a row a body's breadth
apart leave no room between them, so a man between them is on both.
"""
from __future__ import annotations

import numpy as np

PERSON_R = 0.5  # 尺
RADII: dict[str, float] = {"籩": 0.5, "豆": 0.5, "薦": 0.5, "俎": 0.6}


def gap(px: float, py: float, tx, ty, kinds: list[str]) -> np.ndarray:
    """The distance (尺) from a person's footprint at (px, py) to each thing's (negative: they
    overlap, by that much)."""
    r = np.array([RADII.get(k, 0.5) for k in kinds])
    return np.hypot(px - np.asarray(tx), py - np.asarray(ty)) - r - PERSON_R
