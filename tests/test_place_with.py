"""A place set by another (`with: PLACE` in a layout's places): where a reading moves that place,
this one moves the same way (issue 26's grid: under 中庭南北之中 the 釋獲者's seat, the 司射位, the
司馬位 and the 射位 follow the 中, as the text sets them by it)."""
from __future__ import annotations

from pathlib import Path

import pytest

from viz import DEFAULT_LAYOUT
from viz.base.errors import InputError
from viz.model.layout import load_layout, load_layout_text

FOLLOW = ("釋獲者位", "司射位", "司馬位", "司馬南", "射位")


def test_the_places_set_by_the_zhong_follow_it_under_a_reading_that_moves_it():
    base, moved = load_layout(DEFAULT_LAYOUT), load_layout(DEFAULT_LAYOUT, ["中庭南北之中"])
    d = moved.places["中"].y - base.places["中"].y
    assert d == -13
    for name in FOLLOW:
        assert (moved.places[name].x, moved.places[name].y) == \
               (base.places[name].x, base.places[name].y + d), name
    # what the 中 does not set stays (the 堂西, the 西階前)
    for name in ("堂西", "西階前", "中庭"):
        assert moved.places[name].y == base.places[name].y


def test_without_with_the_place_stays_where_it_was():
    text = Path(DEFAULT_LAYOUT).read_text(encoding="utf-8")
    old = "  司射位: {x: -29, y: -36, with: 中, source:"
    assert old in text
    plain = load_layout_text(text.replace(old, "  司射位: {x: -29, y: -36, source:"), "xu.yaml",
                             ["中庭南北之中"])
    assert plain.places["司射位"].y == -36
    assert load_layout_text(text, "xu.yaml", ["中庭南北之中"]).places["司射位"].y == -49


def test_with_naming_no_place_is_a_located_error():
    text = Path(DEFAULT_LAYOUT).read_text(encoding="utf-8")
    old = "  司射位: {x: -29, y: -36, with: 中, source:"
    line = text[:text.index(old)].count("\n") + 1
    with pytest.raises(InputError) as e:
        load_layout_text(text.replace(old, "  司射位: {x: -29, y: -36, with: 鹿中, source:"), "xu.yaml")
    got = [str(p) for p in e.value.problems]
    assert any(p.startswith(f"xu.yaml:{line}:") and "with: '鹿中' is no place" in p for p in got), got
