"""Layouts that extend another (extends:, remove:), and layouts without archery."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from viz.base.errors import InputError
from viz.draw.scene import range_bounds, range_breaks
from viz.model.layout import ARCHERY_PLACES, DEFAULT_LAYOUT, load_layout, load_layout_text

XU = DEFAULT_LAYOUT.resolve()
NO_RANGE = f"""\
extends: {XU}
name: 無射
remove:
  keys: [range, sight]
  places: [右物, 左物, 物間, 豐, 楅, 中, 釋獲者位, 司射位, 司馬位, 司馬南, 射位, 侯, 侯中, 左个,
           右个, 乏, 乏南, 左个之西北]
  obstacles: [侯, 乏]
  features: [右物, 左物, 侯, 植, 下个, 躬, 侯中, 上个]
  ways: [由司馬之南]
"""


def _write(tmp_path: Path, text: str, name: str = "child.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def _messages(path: Path) -> list[str]:
    with pytest.raises(InputError) as e:
        load_layout(path)
    return [str(p) for p in e.value.problems]


def _pos(text: str, needle: str) -> tuple[int, int]:
    i = text.index(needle)
    return text.count("\n", 0, i) + 1, i - text.rfind("\n", 0, i)


def test_a_layout_without_a_range_needs_no_archery_and_draws_no_inset(tmp_path):
    lay = load_layout(_write(tmp_path, NO_RANGE))
    assert lay.name == "無射" and lay.range_rect is None
    assert not set(ARCHERY_PLACES) & set(lay.places)
    assert "range" not in {f.kind for f in lay.features}
    assert not {"侯", "乏"} & {o.name for o in lay.obstacles}
    assert range_breaks(lay) == () and range_bounds(lay) is None
    # the rest of the base is there, where the base put it
    xu = load_layout(XU)
    assert lay.places["賔席"] == xu.places["賔席"] and lay.hall == xu.hall


def test_a_range_still_needs_the_archery(tmp_path):
    text = NO_RANGE.replace("keys: [range, sight]", "keys: [sight]")
    path = _write(tmp_path, text)
    line, col = _pos(XU.read_text(encoding="utf-8"), "\nplaces:")
    msgs = _messages(path)
    assert f"{XU}:{line + 1}:1: missing place 侯 (domain.md's list of places requires it; a layout " \
           "with a range: needs the archery's)" in msgs


def test_places_obstacles_and_features_are_replaced_by_name_or_added(tmp_path):
    text = NO_RANGE + textwrap.dedent("""\
        places:
          賔席: {x: -5, y: 28, source: "經: 乃席賔主人介"}
          室中: {x: 0, y: 40, source: "注: 室中"}
        obstacles:
          - {name: 東楹, kind: pillar, rect: [11, 9, 13, 11], source: "疏"}
          - {name: 室北墉, kind: wall, rect: [-25, 49.5, 25, 50.5], source: "注"}
        hall: {name: 堂, rect: [-40, 0, 40, 50], height: 3, source: "x"}
        features:
          - {kind: mat, name: 賔席, rect: [-7.5, 27, -2.5, 29]}
        """)
    lay = load_layout(_write(tmp_path, text))
    assert (lay.places["賔席"].x, lay.places["賔席"].y) == (-5, 28)
    assert lay.places["賔席"].source == "經: 乃席賔主人介" and "室中" in lay.places
    assert [o.rect for o in lay.obstacles if o.name == "東楹"] == [(11, 9, 13, 11)]
    assert "室北墉" in {o.name for o in lay.obstacles} and lay.hall == (-40, 0, 40, 50)
    mats = [f for f in lay.features if f.name == "賔席"]
    assert len(mats) == 1 and mats[0].points[:, 1].max() == 29


def test_an_unknown_name_under_remove_is_located_with_a_hint(tmp_path):
    text = NO_RANGE.replace("obstacles: [侯, 乏]", "obstacles: [侯, 乏, 東楹x]")
    path = _write(tmp_path, text)
    line, col = _pos(text, "東楹x")
    assert _messages(path) == [f"{path}:{line}:{col}: remove.obstacles: the base xu.yaml has no "
                               "obstacle '東楹x'; did you mean 東楹?"]


def test_remove_keys_and_sections_are_checked(tmp_path):
    text = NO_RANGE.replace("keys: [range, sight]", "keys: [range, sight, hall]") + \
        "  stairz: [西階]\n"
    path = _write(tmp_path, text)
    msgs = _messages(path)
    line, col = _pos(text, "hall]")
    assert f"{path}:{line}:{col}: remove.keys: 'hall' cannot be removed (expected one of " \
           "range, sight, elsewhere, variants, ways, features, obstacles)" in msgs
    assert any(re.search(r":\d+:3: remove: unknown section 'stairz'", m) for m in msgs)


def test_a_missing_base_and_a_cycle_are_errors_at_extends(tmp_path):
    path = _write(tmp_path, "extends: nowhere.yaml\nname: x\n")
    [msg] = _messages(path)
    assert msg.startswith(f"{path}:1:10: extends: no layout file 'nowhere.yaml'")
    _write(tmp_path, "extends: b.yaml\nname: a\n", "a.yaml")
    _write(tmp_path, "extends: a.yaml\nname: b\n", "b.yaml")
    [msg] = _messages(tmp_path / "a.yaml")
    assert msg == f"{tmp_path / 'b.yaml'}:1:10: extends: 'a.yaml' leads back to this file " \
                  "(a.yaml → b.yaml → a.yaml)"


def test_a_problem_in_the_merged_layout_points_into_the_file_that_wrote_it(tmp_path):
    text = NO_RANGE + "places:\n  賔席: {x: -5, y: 28}\n"
    path = _write(tmp_path, text)
    msgs = _messages(path)
    line, _ = _pos(text, "  賔席:")
    assert any(m.startswith(f"{path}:{line}:") and "source" in m for m in msgs), msgs


def test_extends_chains_and_works_from_text(tmp_path):
    _write(tmp_path, NO_RANGE, "mid.yaml")
    lay = load_layout(_write(tmp_path, "extends: mid.yaml\nname: 孫\n"))
    assert lay.name == "孫" and lay.range_rect is None
    lay = load_layout_text("extends: mid.yaml\nname: 孫\n", str(tmp_path / "t.yaml"))
    assert lay.name == "孫"
