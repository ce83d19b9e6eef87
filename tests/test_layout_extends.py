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
NO_RANGE = """\
extends: xu
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
    assert f"{XU}:{line + 1}:1: missing place 侯 (a layout with a range: needs the archery's " \
           "places: 右物、左物、豐、楅、中、司射位、司馬位、射位、侯、侯中、左个、右个、乏; docs/LAYOUT.md, " \
           "'Places')" in msgs


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
           "range, sight, elsewhere, variants, ways, features, obstacles, grounds, gates, " \
           "regions)" in msgs
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


def test_several_items_of_one_name_replace_the_bases_one(tmp_path):
    text = NO_RANGE + textwrap.dedent("""\
        features:
          - {kind: mat, name: 衆賔席, rect: [-24.5, 27, -21, 29]}
          - {kind: mat, name: 衆賔席, rect: [-20, 27, -16.5, 29]}
          - {kind: mat, name: 介席, rect: [-22, 3.5, -20, 8.5]}
        """)
    lay = load_layout(_write(tmp_path, text))
    mats = [f.points[:, 0].min() for f in lay.features if f.name == "衆賔席"]
    assert mats == [-24.5, -20]
    names = [f.name for f in lay.features if f.kind == "mat"]
    # the replaced mats stand where the base had its one; a new name comes after the base's
    assert names.index("衆賔席") < names.index("主人席") < names.index("介席")


# ------------------------------------------------------------------ the 庠 (layouts/xiang.yaml)

XIANG = DEFAULT_LAYOUT.parent / "xiang.yaml"


@pytest.fixture(scope="module")
def xiang():
    return load_layout(XIANG)


def test_the_xiang_loads_clean_with_no_range(xiang):
    assert xiang.warnings == () and xiang.range_rect is None
    assert not set(ARCHERY_PLACES) & set(xiang.places)
    assert range_breaks(xiang) == () and range_bounds(xiang) is None
    assert all(p.source.strip() for p in xiang.places.values())


def test_the_xiang_has_a_shi_west_and_a_fang_east_behind_the_tang(xiang):
    p = xiang.places
    # 後楣以北為室與房, 房東而室西; 室南其戸戸東而牖西
    assert p["室"].y > 30 and p["東房"].y > 30 and p["室"].x < 0 < p["東房"].x
    assert p["牖"].x < p["户"].x < p["房户間"].x == 0 < p["房户"].x
    assert p["室"].region == "堂"
    # 房户間 … 于堂為東西之中: the 尊 on the axis; 賔席 at the 户牖間; 遵者 east of the 尊
    assert p["尊"].x == 0 and p["牖"].x < p["賔席"].x < p["户"].x
    assert p["衆賔席"].x < p["賔席"].x < p["尊"].x < p["遵者席"].x
    # 主人席阼階上西面, 介席西階上東面: across the axis from each other, at the stair heads
    assert (p["介席"].x, p["介席"].y) == (-p["主人席"].x, p["主人席"].y)
    # 洗 南北以堂深 (30, to the 室南墉) 東西當東榮
    assert p["洗"].y == -30 and p["洗"].x == p["東榮"].x


def test_the_fang_is_walked_into_by_its_door(xiang):
    path = xiang.route_places("阼階上", "東房")
    assert not xiang.segment_blocked(path[-2], path[-1])
    crossing = [(a, b) for a, b in zip(path, path[1:]) if (a[1] - 30) * (b[1] - 30) < 0]
    assert crossing and all(2.5 <= a[0] + (30 - a[1]) * (b[0] - a[0]) / (b[1] - a[1]) <= 5.5
                            for a, b in crossing)


def test_ao_puts_the_bin_on_the_axis(xiang):
    ao = load_layout(XIANG, readings=("敖繼公",))
    assert ao.places["賔席"].x == 0 and ao.places["尊"].x > 0
    # 主人之北 follows 敖's 主人席; the 上篚 (設篚于禁南) and the 遵者席 (張: 其實在酒尊東也) follow his 尊
    assert set(ao.applied) == {"賔席", "尊", "主人席", "介席", "主人之北", "上篚", "遵者席", "大夫席"}
    # the 斯禁 and 玄酒 go with the 尊 (their `with: 尊`): nothing of the 尊 lies under the 賔's mat
    feats = {f.name: f.points.mean(0) for f in ao.features}
    zun = ao.places["尊"]
    assert abs(feats["斯禁"][0] - zun.x) < 0.01 and feats["玄酒"][0] < zun.x
    mat = next(f for f in ao.features if f.name == "賔席").points
    for name in ("斯禁", "玄酒", "上篚"):
        x = feats[name][0]
        assert not mat[:, 0].min() <= x <= mat[:, 0].max(), name


def test_a_feature_with_no_such_place_is_an_error(tmp_path):
    text = XIANG.read_text(encoding="utf-8").replace("label: null, with: 尊}", "label: null, with: 酒尊}", 1)
    (tmp_path / "xu.yaml").write_text((XIANG.parent / "xu.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    bad = tmp_path / "xiang.yaml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match="with: '酒尊' is no place"):
        load_layout(bad)
