"""The default layout (州序 as 鄭 reads it): places, hand-worked positions, regions, located errors."""
from __future__ import annotations

import itertools
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from viz.base.errors import InputError
from viz.model.layout import DEFAULT_LAYOUT, FEATURE_KINDS, load_layout, load_layout_text
from viz.text.variants import normalize

ROOT = Path(__file__).resolve().parent.parent
XU_TEXT = DEFAULT_LAYOUT.read_text(encoding="utf-8")

# domain.md, "Places", copied here on purpose: the test fails if the loader's own list shrinks.
DOMAIN_PLACES = [
    "堂", "堂廉", "東序", "西序", "東序端", "西序端", "東楹", "西楹", "楹間", "阼階上", "西階上",
    "賔席", "主人席", "衆賔席", "大夫席", "尊", "上篚", "工席", "樂正位", "右物", "左物", "豐",
    "東榮", "西榮", "棟", "楣",
    "阼階", "西階", "阼階下", "西階下", "阼階前", "西階前",
    "庭", "中庭", "洗", "下篚", "水", "縣", "笙位", "楅", "中", "司射位", "司馬位", "射位",
    "堂西", "堂東", "西階西", "東序東", "門", "門內", "門外", "東壁",
    "侯", "侯中", "左个", "右个", "乏",
    "賔門外",
]


@pytest.fixture(scope="module")
def xu():
    return load_layout(DEFAULT_LAYOUT)


def xy(layout, name):
    return tuple(layout.place_xy(name))


def test_loads_clean_with_the_documented_settings(xu):
    assert xu.reading == "鄭"
    assert xu.chi_m == pytest.approx(0.231)
    assert xu.warnings == ()
    assert xu.file == str(DEFAULT_LAYOUT)


@pytest.mark.parametrize("name", DOMAIN_PLACES)
def test_every_domain_place_is_there_with_a_source(xu, name):
    p = xu.places[name]
    assert p.name == name
    assert p.source.strip()
    assert p.region in ("堂", "階", "庭", "門外", "侯道", "elsewhere")


def test_the_ground_outside_the_gate_is_menwai_not_the_range(xu):
    gate = xu.places["門"].y
    assert xu.places["門外"].region == "門外"
    assert xu.region_at(0, gate - 6) == "門外"
    # the 賓 and the 衆賓 waiting in a line west of the gate, some 20 尺 out, are 門外 too
    # (review 2026-12-01, sections 1–15: 衆5 and 衆6 were 'elsewhere', the 賓's gate's name)
    assert xu.region_at(-22.5, gate - 18) == "門外" and xu.region_at(-60, gate - 30) == "門外"
    assert xu.region_at(90, gate - 6) == "elsewhere"  # beyond the court's width
    assert xu.region_at(0, gate - 60) == "elsewhere"  # far out on the road
    assert xu.region_at(0, -150) == "侯道"  # the range ground inside the deep court
    assert xu.places["乏"].region == "侯道"
    assert xu.places["門內"].region == "庭"  # inside the gate, behind the range
    assert xu.region_at(0, -60) == "庭"
    shallow = load_layout(DEFAULT_LAYOUT, ["庭三堂深"])
    assert shallow.region_at(0, -96) == "門外"
    assert shallow.region_at(0, -150) == "侯道"  # beyond the gate, on open ground
    assert shallow.region_at(40, -110) == "侯道"  # the range's ground is not 門外 beside the gate
    assert shallow.places["門外"].region == "門外"


def test_the_court_is_deep_enough_to_hold_the_range(xu):
    """李如圭 (鄉射之侯去堂三十丈…則庭之深可見) and 欽定義疏 (以三十六丈約計之): the 侯 and 乏 stand
    inside the court, the gate 36 丈 from the 堂 and several 丈 behind the 侯."""
    court_south = xu.court[1]
    assert court_south < xu.places["侯"].y - 60
    assert xu.places["門"].y == pytest.approx(-361)
    for name in ("侯", "乏", "侯中", "左个", "右个"):
        p = xu.places[name]
        assert xu.court[0] < p.x < xu.court[2] and court_south < p.y < xu.court[3], name
    shallow = load_layout(DEFAULT_LAYOUT, ["庭三堂深"])
    assert shallow.court[1] == pytest.approx(-92)
    assert shallow.places["門"].y == pytest.approx(-91)
    assert {"庭", "門"} <= set(shallow.applied)


def test_no_wall_cuts_the_lines_of_sight_and_flight(xu):
    assert not [w for w in xu.warnings if "sight line" in w.message]


def test_the_shallow_court_cuts_them_and_check_says_where():
    shallow = load_layout(DEFAULT_LAYOUT, ["庭三堂深"])
    cut = [w for w in shallow.warnings if "sight line" in w.message]
    text = "\n".join(w.message for w in cut)
    # the far 物 to the 侯's far end, the 物 to the 乏, the 揚弓 to the 个: all through the wall
    assert "from 右物 (-3, 20) to the 侯's face from x -20 to -12" in text
    assert "from 左物 (3, 20) to the 侯's face from x 12 to 20" in text
    assert "to 乏 at (-30, -180) is cut by the wall 南壁" in text
    assert "from 物間 (0, 20) to 左个" in text
    lines = XU_TEXT.splitlines()
    for w in cut:  # each located at its sight: entry
        assert lines[w.loc.line - 1].lstrip().startswith("- what:"), w.loc


def test_a_tall_thing_in_the_lane_is_found():
    """The 碑 is marked low (lines pass over it); taken for tall it cuts the far 物's line to
    part of the 侯; a screen moved into the lane cuts the arrows too."""
    text = XU_TEXT.replace("    low: true\n", "", 1)
    assert text != XU_TEXT
    msgs = [w.message for w in load_layout_text(text, "tall.yaml").warnings]
    assert any("cut by the pillar 碑" in m and "from 右物" in m for m in msgs), msgs
    moved = XU_TEXT.replace("rect: [-33, -180.5, -27, -179.5]", "rect: [-3, -180.5, 3, -179.5]")
    assert moved != XU_TEXT
    msgs = [w.message for w in load_layout_text(moved, "fa.yaml").warnings]
    assert any("the arrows reach the whole 侯" in m and "cut by the blind 乏" in m for m in msgs)


def test_a_sight_line_naming_no_place_is_a_located_error():
    text = XU_TEXT.replace("from: [物間]\n    to: [侯中, 左个, 右个]",
                           "from: [物閒]\n    to: [侯中, 左个, 右个]")
    assert text != XU_TEXT
    with pytest.raises(InputError) as e:
        load_layout_text(text, "typo.yaml")
    assert "sight line" in str(e.value) and "'物閒'" in str(e.value)
    assert "typo.yaml:" in str(e.value)


def _segments_cross(a, bs, r):
    """The sight check's test: viz.model.paths.hit_matrix for segments a → bs[k] and one rectangle."""
    from viz.model.paths import hit_matrix
    return hit_matrix(np.broadcast_to(a, bs.shape), bs, np.asarray([r], float))[:, 0]


def test_segments_cross_only_through_the_inside():
    a = np.array([0.0, 0.0])
    ends = np.array([[10.0, 0.0], [0.0, 10.0], [10.0, 10.0], [-5.0, 5.0], [10.0, 2.0]])
    r = (4.0, -1.0, 6.0, 1.0)  # straddles the x axis
    assert _segments_cross(a, ends, r).tolist() == [True, False, False, False, True]
    # touching an edge is not crossing; stopping short is not either
    assert not _segments_cross(a, np.array([[4.0, 10.0]]), (4.0, 0.0, 6.0, 1.0)).any()
    assert not _segments_cross(a, np.array([[3.0, 0.0]]), r).any()


def _clean(s: str) -> str:
    return re.sub(r"[^\u3400-\u9fff\U00020000-\U0002ffff]", "", normalize(s))


def test_quoted_words_of_the_text_are_in_the_seed(xu):
    """A source `經: …`, `注: …` or `記: …` quotes the seed word for word (variants folded)."""
    seed = _clean((ROOT / "assets" / "text" / "seed.txt").read_text(encoding="utf-8"))
    missing = []
    for p in xu.places.values():
        for part in p.source.split(";"):
            m = re.match(r"\s*(經|注|記)\s*:\s*(.*)$", part)
            if not m:
                continue
            for run in re.split(r"[…,，]", re.sub(r"\(.*?\)", "", m.group(2))):
                if _clean(run) and _clean(run) not in seed:
                    missing.append((p.name, run))
    assert missing == []


def test_places_regions(xu):
    on = {n: p.region for n, p in xu.places.items()}
    for n in ("堂廉", "東楹", "右物", "左物", "賔席", "阼階上", "西階上", "豐", "東榮", "西榮"):
        assert on[n] == "堂", n
    assert on["阼階"] == on["西階"] == "階"
    for n in ("洗", "楅", "中", "司射位", "射位", "堂西", "中庭", "門內", "阼階下"):
        assert on[n] == "庭", n
    for n in ("侯", "侯中", "左个", "右个", "乏"):
        assert on[n] == "侯道", n
    # the ground just outside the gate, where the 賔 is met, is 門外 (not the range)
    assert on["門外"] == on["門外東"] == "門外"
    assert on["賔門外"] == "elsewhere"  # only the 賓's own gate is elsewhere
    assert [n for n, r in on.items() if r == "elsewhere"] == ["賔門外"]


# -- hand-worked positions ---------------------------------------------------------------
# 堂深 D = 30 (賈's example); 楣 at D/3, 棟 at 2D/3; the 洗 as far south as the 堂 is deep.


def test_hall_depth_beam_and_ridge(xu):
    d = xu.hall[3] - xu.hall[1]
    assert d == 30
    assert xy(xu, "楣")[1] == pytest.approx(d / 3)
    assert xy(xu, "棟")[1] == pytest.approx(2 * d / 3)
    assert xy(xu, "東楹")[1] == xy(xu, "西楹")[1] == xy(xu, "楣")[1]
    assert xy(xu, "東楹")[0] == -xy(xu, "西楹")[0] > 0


def test_xi_basin_at_the_east_eave_and_one_hall_depth_south(xu):
    x, y = xy(xu, "洗")
    assert x == xy(xu, "東榮")[0]
    assert y == -(xu.hall[3] - xu.hall[1])
    assert x > xy(xu, "阼階")[0]  # 阼階東南
    assert xy(xu, "水") == (x + 4, y)  # 水在洗東
    assert xy(xu, "下篚") == (x - 4, y)  # 篚在洗西
    sx, sy = xy(xu, "縣")
    assert sx > x and sy > y  # 縣於洗東北


def test_marks_under_the_ridge_six_apart_between_the_pillars(xu):
    rx, ry = xy(xu, "右物")
    lx, ly = xy(xu, "左物")
    assert ry == ly == xy(xu, "棟")[1]  # 序則物當棟
    assert lx - rx == 6  # 間容弓: 上下射相去六尺
    assert rx < 0 < lx  # 右物 west (上射), 左物 east (下射): 以南面爲正
    assert xy(xu, "西楹")[0] < rx and lx < xy(xu, "東楹")[0]  # 射自楹間
    strokes = {f.name: f.points for f in xu.features if f.kind == "mark"}
    assert np.ptp(strokes["右物"][:, 1]) == 3 and np.ptp(strokes["右物"][:, 0]) == 0  # 長如笴
    assert xu.places["右物"].variants[0].reading == "敖繼公"


def test_target_three_hundred_south_of_the_marks_and_the_blind(xu):
    hx, hy = xy(xu, "侯")
    assert xy(xu, "右物")[1] - hy == 300  # 侯道五十弓
    fx, fy = xy(xu, "乏")
    assert (fy - hy, hx - fx) == (100, 30)  # 此乏去侯北十丈西三丈
    assert xy(xu, "右个")[0] > hx > xy(xu, "左个")[0]  # 東方謂之右个
    blind = next(o for o in xu.obstacles if o.name == "乏")
    assert blind.kind == "blind"
    assert (blind.rect[0] + blind.rect[2]) / 2 == fx


def test_rack_and_counter(xu):
    """楅 南當洗 and 中 南當楅 are both 南北節 (賈: 南當楅南北節, 西當西序東西節); the 楅 stands
    just south of the 洗's line, where the 碑 is (設碑近如堂深), not on the 碑."""
    assert xy(xu, "楅")[0] == 0 and -3 <= xy(xu, "楅")[1] - xy(xu, "洗")[1] < 0
    bx0, by0, bx1, by1 = next(o.rect for o in xu.obstacles if o.name == "碑")
    assert by1 - by0 < 1 and (by0 + by1) / 2 == -30 and xy(xu, "楅")[1] < by0 - 1
    assert xy(xu, "中")[1] == xy(xu, "楅")[1]
    assert xy(xu, "中")[0] == xy(xu, "西序")[0]


def test_officers_and_archers_stand_as_the_text_says(xu):
    zx, zy = xy(xu, "中")
    sx, sy = xy(xu, "司射位")
    assert sx < zx and sy < zy  # 中之西南
    px, py = xy(xu, "射位")
    assert px < sx and py < sy  # 司射之西南
    mx, my = xy(xu, "司馬位")
    assert mx == sx and my < sy  # 立於司射之南
    gx, gy = xy(xu, "堂前三笴")
    assert gy == -9 and gx > xy(xu, "阼階")[0]  # 阼階東南, 堂前三笴
    assert xy(xu, "豐")[0] < xy(xu, "西楹")[0]  # 西楹之西
    assert xy(xu, "堂西")[0] < xu.hall[0] < 0  # west of the 堂, on the ground


def test_court_and_range_recorded_as_choices(xu):
    assert xu.court[1] < xy(xu, "門")[1] + 1 < xy(xu, "侯")[1]  # the 侯 stands inside the court
    shallow = load_layout(DEFAULT_LAYOUT, ["庭三堂深"])
    assert xy(shallow, "侯")[1] < shallow.court[1]  # the variant: beyond the gate line
    topics = {v.topic for v in xu.variants}
    assert {"庭深", "序有無室", "縣"} <= topics
    assert "李如圭" in XU_TEXT and "欽定" in XU_TEXT


def test_region_at_sample_points(xu):
    cases = {(0, 15): "堂", (39.9, 29.9): "堂", (20, -2): "階", (-20, -4): "階", (20, -5): "庭",
             (0, -45): "庭", (66, 0): "庭", (0, -91): "庭", (0, -350): "庭", (0, -361): "庭",
             (0, -367): "門外", (0, -200): "侯道", (-30, -182): "侯道", (60, -200): "侯道",
             (70, -200): "elsewhere", (-300, -4): "elsewhere"}
    for (x, y), region in cases.items():
        assert xu.region_at(x, y) == region, (x, y)


def test_lane_is_the_strip_from_the_marks_to_the_target(xu):
    assert xu.in_lane(0, -45) and xu.in_lane(0, -279)
    assert xu.in_lane(18, -270) and not xu.in_lane(18, -20)
    assert not xu.in_lane(0, 5)  # on the 堂, not the lane
    assert not xu.in_lane(0, -290)  # behind the 侯


def test_nearest_place_and_height(xu):
    assert xu.nearest_place(39, -31) == "洗"
    assert xu.height_at(0, 15) == 3
    # 3 等: risers at the foot (-4.5), half-way (-2.25) and the 堂廉 (0)
    assert [xu.height_at(20, y) for y in (-4, -2.5, -1, -6)] == [1, 1, 2, 0]


def test_features_complete_enough_to_draw(xu):
    kinds = {f.kind for f in xu.features}
    assert {"court", "hall", "wall", "pillar", "stair", "step", "gate", "basin", "mat", "vessel",
            "mark", "target", "target_center", "blind", "rack", "counter", "beam"} <= kinds
    for f in xu.features:
        assert f.points.ndim == 2 and f.points.shape[1] == 2 and len(f.points) >= 2, f.name
    assert sum(f.kind == "step" for f in xu.features) == 6  # 3 等 on each stair
    assert {f.name for f in xu.features if f.kind == "pillar"} == {"東楹", "西楹", "碑"}
    assert {f.name for f in xu.features if f.kind == "wall"} >= {"東序", "西序"}
    assert {f.kind for f in xu.features} <= set(FEATURE_KINDS)  # the renderer's list is complete
    face = {f.name: f.points for f in xu.features if f.kind in ("target", "target_center")}
    widths = {n: float(np.ptp(p[:, 0])) for n, p in face.items()}
    assert widths == {"上个": 40, "躬": 20, "侯中": 10, "下个": 30}  # 記 and 注
    assert float(np.ptp(face["侯中"][:, 1])) == 10  # 中十尺 (square)


def test_named_ways_resolve_to_places(xu):
    assert xu.ways["鉤楹內"] == ("西楹北",)
    assert xu.ways["由楹外"] == ("西楹南",)
    for via in xu.ways.values():
        assert all(v in xu.places for v in via)


# -- located errors ----------------------------------------------------------------------


def _pos(text: str, needle: str, offset: int = 0) -> tuple[int, int]:
    """1-based line and column of needle (plus offset characters) in text."""
    i = text.index(needle) + offset
    line = text.count("\n", 0, i) + 1
    col = i - (text.rfind("\n", 0, i) + 1) + 1
    return line, col


def _problems(text: str, tmp_path: Path) -> list[str]:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_layout(path)
    return [str(p) for p in e.value.problems]


def test_wrong_type_is_located_at_the_value(tmp_path):
    needle = "洗: {x: 40,"
    text = XU_TEXT.replace(needle, "洗: {x: east,")
    line, col = _pos(text, "洗: {x: east", 7)
    f = tmp_path / "bad.yaml"
    assert _problems(text, tmp_path) == [
        f"{f}:{line}:{col}: places.洗.x: 'east' is not of type 'number'"]


def test_unknown_key_is_located_at_the_key(tmp_path):
    text = XU_TEXT.replace("\nchi_m: 0.231\n", "\nchi_m: 0.231\ncolour: red\n")
    line, col = _pos(text, "colour: red")
    msgs = _problems(text, tmp_path)
    assert len(msgs) == 1
    assert msgs[0].startswith(f"{tmp_path / 'bad.yaml'}:{line}:{col}: top level: unknown key "
                              "'colour'; expected one of ")


def test_missing_domain_place_is_an_error_at_places(tmp_path):
    text = re.sub(r"\n  楅: \{.*?\n  中:", "\n  中:", XU_TEXT, flags=re.DOTALL)
    assert "\n  楅:" not in text
    line, col = _pos(text, "\nplaces:", 1)
    assert _problems(text, tmp_path) == [
        (f"{tmp_path / 'bad.yaml'}:{line}:{col}: missing place 楅 (a layout with a range: needs "
         "the archery's places: 右物、左物、豐、楅、中、司射位、司馬位、射位、侯、侯中、左个、右个、乏; "
         "docs/LAYOUT.md, 'Places')")]


def test_unknown_place_in_a_way_is_located_at_the_item(tmp_path):
    text = XU_TEXT.replace("鉤楹內: {via: [西楹北]", "鉤楹內: {via: [西楹背]")
    line, col = _pos(text, "西楹背")
    assert _problems(text, tmp_path) == [
        f"{tmp_path / 'bad.yaml'}:{line}:{col}: way 鉤楹內: unknown place '西楹背' in via"]


def test_duplicate_place_is_located(tmp_path):
    text = XU_TEXT.replace("\n  水: {", "\n  洗: {x: 1, y: 1, source: x}\n  水: {")
    line, col = _pos(text, "洗: {x: 1, y: 1")
    assert _problems(text, tmp_path) == [f"{tmp_path / 'bad.yaml'}:{line}:{col}: duplicate key '洗'"]


def test_duplicate_obstacle_name_and_infinite_number(tmp_path):
    text = XU_TEXT.replace("  - name: 西楹\n", "  - name: 東楹\n")
    text = text.replace("水: {x: 44,", "水: {x: .inf,")
    f = tmp_path / "bad.yaml"
    l1, c1 = _pos(text, ".inf")
    first, second = (_pos(text[:m.start()] + "@" + text[m.start() + 1:], "@", 10)
                     for m in re.finditer("  - name: 東楹", text))
    assert _problems(text, tmp_path) == [f"{f}:{l1}:{c1}: inf is not a finite number"]
    text = text.replace("水: {x: .inf,", "水: {x: 44,")
    assert _problems(text, tmp_path) == [
        (f"{f}:{second[0]}:{second[1]}: duplicate name '東楹' (first defined at "
        f"{f}:{first[0]}:{first[1]})")]


def test_bad_marks_reference(tmp_path):
    text = XU_TEXT.replace("marks: 堂, source: \"經: 東西當東榮", "marks: 殿, source: \"經: 東西當東榮")
    line, col = _pos(text, "殿")
    assert _problems(text, tmp_path) == [
        f"{tmp_path / 'bad.yaml'}:{line}:{col}: place 東榮: marks '殿', which names no obstacle"]


def _damage(*edits: tuple[str, str]) -> str:
    """The bundled layout with each (old, new) made once; old must be there."""
    text = XU_TEXT
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


def _at(text: str, needle: str, offset: int = 0) -> str:
    line, col = _pos(text, needle, offset)
    return f"bad.yaml:{line}:{col}"


def _errors(text: str) -> list[str]:
    with pytest.raises(InputError) as e:
        load_layout_text(text, "bad.yaml")
    return [str(p) for p in e.value.problems]


# -- rectangles written backwards (any rect, wherever it stands) --------------------------

EXPECTED_RECT = "(expected [x_west, y_south, x_east, y_north])"


@pytest.mark.parametrize(("old", "new", "fault"), [
    ("rect: [-40, 0, 40, 30]", "rect: [40, 0, -40, 30]", "west 40 is east of east -40"),
    ("rect: [-65, -90, 65, 40]", "rect: [-65, 40, 65, -90]", "south 40 is north of north -90"),
    ("rect: [-23, -4.5, -17, 0]", "rect: [-17, -4.5, -23, 0]", "west -17 is east of east -23"),
    ("rect: [11.25, 9.25, 12.75, 10.75]", "rect: [12.75, 9.25, 11.25, 10.75]",
     "west 12.75 is east of east 11.25"),
    ("rect: [-33, -180.5, -27, -179.5]", "rect: [-33, -179.5, -27, -180.5]",
     "south -179.5 is north of north -180.5"),
    ("rect: [-55, -295, 55, -92]", "rect: [55, -92, -55, -295]",
     "west 55 is east of east -55 and south -92 is north of north -295"),
    ("- [-330, 0, -306, 2]", "- [-306, 0, -330, 2]", "west -306 is east of east -330"),
    ("gate: [-306, 0, -294, 2]", "gate: [-306, 2, -294, 0]", "south 2 is north of north 0"),
    ("rect: [-7.5, 25, -2.5, 27]", "rect: [-2.5, 25, -7.5, 27]", "west -2.5 is east of east -7.5"),
    ("rect: [2.3, 25.2, 5.7, 26.8]", "rect: [2.3, 25.2, 2.3, 26.8]",
     "west and east are both 2.3 (no width)"),
    ("rect: [24.5, 10, 25.5, 30]", "rect: [24.5, 10, 25.5, 10]",
     "south and north are both 10 (no depth)"),
])
def test_a_backwards_rect_is_an_error_at_its_line(old, new, fault):
    text = _damage((old, new))
    value = new.split(": ", 1)[-1].removeprefix("- ")
    assert _errors(text) == [f"{_at(text, new, len(new) - len(value))}: rect {value}: {fault} "
                             f"{EXPECTED_RECT}"]


# -- the plan's own geometry: stairs and gates --------------------------------------------


@pytest.mark.parametrize(("old", "new", "message"), [
    ("rect: [17, -4.5, 23, 0]", "rect: [17, -5.5, 23, -1]",
     "stair 阼階 rect [17, -5.5, 23, -1]: its north side is at y = -1, expected y = 0 (the 堂's "
     "south edge)"),
    ("rect: [17, -4.5, 23, 0]", "rect: [37, -4.5, 43, 0]",
     "stair 阼階 rect [37, -4.5, 43, 0]: it spans x 37…43, expected it within the 堂's x -40…40"),
    ("x: [-6, 6]", "x: [6, -6]", "gate x [6, -6]: west 6 is east of east -6 (expected [x_west, x_east])"),
    ("x: [-6, 6]", "x: [-70, 70]",
     "gate x [-70, 70] is 140 wide, as wide as the court's south wall or wider (x -65…65); "
     "expected an opening within that wall"),
    ("x: [-6, 6]", "x: [60, 70]",
     "gate x [60, 70] runs outside the court's south wall (x -65…65); expected it within that wall"),
    ("gate: [-306, 0, -294, 2]", "gate: [-306, 10, -294, 12]",
     "賔門 gate [-306, 10, -294, 12] touches none of its walls; expected it in the gap between them"),
])
def test_a_stair_or_gate_out_of_place_is_an_error_at_its_line(old, new, message):
    text = _damage((old, new))
    assert _errors(text) == [f"{_at(text, new, new.index('['))}: {message}"]


def test_a_gate_over_its_wall_names_the_wall():
    text = _damage(("gate: [-306, 0, -294, 2]", "gate: [-310, 0, -298, 2]"))
    assert _errors(text) == [
        f"{_at(text, '[-310, 0')}: 賔門 gate [-310, 0, -298, 2] overlaps its wall [-330, 0, -306, 2] "
        f"(at {_at(text, '[-330, 0')}); expected it in the gap between its walls"]


def test_overlapping_stairs_are_an_error_and_the_places_they_cut_off_name_them():
    text = _damage(("rect: [17, -4.5, 23, 0]", "rect: [-20, -4.5, -14, 0]"))
    zuo, xi = _at(text, "[-20, -4.5"), _at(text, "[-23, -4.5")
    errors = _errors(text)
    assert errors[0] == (f"{xi}: stair 西階 rect [-23, -4.5, -17, 0] overlaps stair 阼階 rect "
                         f"[-20, -4.5, -14, 0] (at {zuo}); expected stairs that share no ground")
    # each stair's side stands on the other's middle line: the 堂 is cut off from the 庭
    assert (f"{_at(text, '洗: {')}: place 洗 at (40, -30) cannot be walked to from the 堂: stair 西階 "
            f"(at {xi}) overlaps stair 阼階 (at {zuo}), so the side of one stands in the other's "
            "way up") in errors
    cut = {m.group(1) for e in errors if (m := re.search(r"place (\S+) at .* cannot be walked", e))}
    assert "賔門外" in cut and "堂西" in cut and not cut & {"賔席", "阼階上", "東序端"}


# -- places cut off -----------------------------------------------------------------------

OUTSIDE_THE_GATE = {"門外", "門外東", "門外西", "賔門外"}


def _cut_off(errors: list[str]) -> dict[str, str]:
    """place → the cause its error names, for every "cannot be walked to" error."""
    out = {}
    for e in errors:
        m = re.match(r"bad\.yaml:\d+:\d+: place (\S+) at \(.*?\) cannot be walked to from the 堂: "
                     r"(.*)$", e)
        if m:
            out[m.group(1)] = m.group(2)
    return out


@pytest.mark.parametrize(("edits", "lost", "cause"), [
    ([("x: [-6, 6]", "x: [-0.5, 0.5]")], OUTSIDE_THE_GATE,
     "the gate x [-0.5, 0.5] (at {[-0.5}) is 1 wide, narrower than 2 × clearance = 2"),
    ([("obstacles:\n", "obstacles:\n  - {name: 屏, kind: wall, rect: [-10, -359, 10, -358]}\n")],
     OUTSIDE_THE_GATE | {"門"},
     "the wall 屏 rect [-10, -359, 10, -358] (at {[-10, -359}), widened by the clearance 1, closes "
     "the gate x [-6, 6]"),
    ([("obstacles:\n", "obstacles:\n  - {name: 屏, kind: wall, rect: [-10, -359, 10, -358]}\n"
                      "  - {name: 蕭牆, kind: wall, rect: [-10, -358, 10, -357]}\n")],
     OUTSIDE_THE_GATE | {"門"},
     "the gate x [-6, 6] (at {[-6, 6]}) is closed by 屏 (at {[-10, -359}), 蕭牆 (at {[-10, -358})"),
    ([("  - name: 乏\n", "  - {name: 屏, kind: wall, rect: [58, -365, 60, 45]}\n  - name: 乏\n")],
     {"東壁"},
     "the wall 屏 rect [58, -365, 60, 45] (at {[58, -365}), widened by the clearance 1, closes the way"),
    ([("clearance: 1.0", "clearance: 3.5")], None,
     "stair 阼階 (at {[17, -4.5}) is 6 wide; stair 西階 (at {[-23, -4.5}) is 6 wide: kept 3.5 "
     "from its sides no one can climb them (expected wider than 7.2)"),
])
def test_a_place_cut_off_is_an_error_at_its_line_naming_the_cause(edits, lost, cause):
    text = _damage(*edits)
    errors = _errors(text)
    cut = _cut_off(errors)
    assert len(cut) == len(errors)  # nothing else is wrong
    if lost is None:  # the 堂 itself is cut off: everything off it is lost
        lost = {n for n, p in load_layout(DEFAULT_LAYOUT).places.items() if p.region != "堂"}
    assert set(cut) == lost
    expected = re.sub(r"\{(.*?)\}", lambda m: _at(text, m.group(1)), cause)
    assert set(cut.values()) == {expected}
    for e in errors:  # each at its own place's line
        name = re.search(r"place (\S+) at", e).group(1)
        assert e.startswith(f"{_at(text, f'  {name}: {{', 2)}: ")


# -- places typed far off, or standing in an obstacle (warnings) --------------------------


def _warnings(text: str, readings: tuple[str, ...] = ()) -> list[str]:
    return [str(w) for w in load_layout_text(text, "bad.yaml", readings).warnings]


SPANS = ("hall x -40…40, y 0…30; court x -67…67, y -362…42; range x -65…65, y -330…-120; "
         "court (庭三堂深) x -67…67, y -92…42; range (庭三堂深) x -55…55, y -295…-92")


@pytest.mark.parametrize(("old", "new", "needle", "message"), [
    ("洗: {x: 40, y: -30,", "洗: {x: 40, y: -430,", "洗: {",
     "place 洗 at (40, -430) lies 68 尺 outside"),
    ("侯: {x: 0, y: -280,", "侯: {x: 0, y: 280,", "侯: {",
     "place 侯 at (0, 280) lies 238 尺 outside"),
    ("賔門外: {x: -300, y: -4,", "賔門外: {x: -300, y: -400,", "賔門外: {",
     "place 賔門外 at (-300, -400) lies 236 尺 outside"),
    ("variants: [{reading: 敖繼公, x: -50, y: -180,", "variants: [{reading: 敖繼公, x: -500, y: -180,",
     "{reading: 敖繼公, x: -500", "place 乏 (敖繼公) at (-500, -180) lies 433 尺 outside"),
])
def test_a_place_far_off_is_a_warning_at_its_line(old, new, needle, message):
    text = _damage((old, new))
    assert _warnings(text) == [
        f"{_at(text, needle)}: warning: {message} the hall, court and range ({SPANS}) and more than "
        "40 尺 from the 賔門; expected a place on the site, or within 40 尺 of the 賔門"]


def test_a_place_near_the_site_or_the_elsewhere_gate_is_no_slip():
    text = _damage(("洗: {x: 40, y: -30,", "洗: {x: 75, y: -30,"),
                   ("賔門外: {x: -300, y: -4,", "賔門外: {x: -300, y: -40,"))
    assert _warnings(text) == []


def test_place_inside_an_obstacle_is_a_located_warning():
    text = _damage(("楹間: {x: 0, y: 10,", "楹間: {x: 12, y: 10,"))
    assert _warnings(text) == [
        f"{_at(text, '楹間: {x: 12')}: warning: place 楹間 at (12, 10) is inside the obstacle 東楹 "
        f"(at {_at(text, '[11.25, 9.25')}); routes to it stop at the obstacle's side (expected a "
        "place clear of it, or one that is the 東楹: give it marks: 東楹, or say 'obstacle 東楹' in "
        "its note)"]


def test_a_place_that_says_it_is_the_obstacle_is_not_warned_about():
    text = _damage(("楹間: {x: 0, y: 10,", "楹間: {x: 12, y: 10, note: the pillar (obstacle 東楹),"))
    assert _warnings(text) == []
    assert _warnings(_damage(("楹間: {x: 0, y: 10,", "楹間: {x: 12, y: 10, marks: 東楹,"))) == []


# -- numbers ------------------------------------------------------------------------------


@pytest.mark.parametrize(("old", "new", "needle", "message"), [
    ("clearance: 1.0", "clearance: 0", "0", "clearance: found 0, expected a number greater than 0"),
    ("clearance: 1.0", "clearance: -1", "-1", "clearance: found -1, expected a number greater than 0"),
    ("chi_m: 0.231", "chi_m: 0", "0", "chi_m: found 0, expected a number greater than 0"),
    ("steps: 3\n    source: \"注: 阼階東階", "steps: 0\n    source: \"注: 阼階東階", "0",
     "stairs.0.steps: found 0, expected a number at least 1"),
    ("height: 3", "height: -3", "-3", "hall.height: found -3, expected a number greater than 0"),
    ("水: {x: 44,", "水: {x: .nan,", ".nan", "nan is not a finite number"),
    ("水: {x: 44,", "水: {x: -.inf,", "-.inf", "-inf is not a finite number"),
    ("水: {x: 44,", "水: {x: 1" + "0" * 40 + ",", "1000",
     "1.000e+40 is out of range: expected a number within ±1e+06 尺"),
    ("wall: 2", "wall: 2.0e+300", "2.0e+300", "2.000e+300 is out of range: expected a number within "
     "±1e+06 尺"),
])
def test_a_bad_number_is_an_error_at_its_value(old, new, needle, message):
    text = _damage((old, new))
    assert _errors(text) == [f"{_at(text, new, new.index(needle, len(new.split(':')[0])))}: {message}"]


def test_syntax_error_and_non_mapping_are_located(tmp_path):
    msgs = _problems("name: [unclosed\n", tmp_path)
    assert msgs[0].startswith(f"{tmp_path / 'bad.yaml'}:2:1: YAML syntax:")
    assert _problems("- just\n- a list\n", tmp_path) == [
        f"{tmp_path / 'bad.yaml'}:1:1: a layout must be a mapping of keys"]
    with pytest.raises(InputError) as e:
        load_layout(tmp_path / "absent.yaml")
    assert str(e.value) == f"{tmp_path / 'absent.yaml'}:1:1: file not found"


_LINES = XU_TEXT.split("\n")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(i=st.integers(0, len(_LINES) - 1),
       junk=st.sampled_from(["", "x: [", "  - 3", "foo: bar", "  洗: 3", ": :", "{", "rect: [1]",
                             "  x: -1e9", "places: 0", "\t", "'", "stairs: []", "- {kind: 1}"]))
@pytest.mark.slow  # hypothesis: 60 damaged files
def test_a_damaged_layout_never_tracebacks(i, junk):
    """Any one line replaced by junk: the file loads or fails with located problems, nothing else."""
    text = "\n".join(_LINES[:i] + [junk] + _LINES[i + 1:])
    try:
        layout = load_layout_text(text, "d.yaml")
    except InputError as e:
        assert e.problems
        for p in e.problems:
            assert re.match(r"d\.yaml:\d+:\d+: ", str(p)), str(p)
    else:
        assert layout.places


# Every 4-number list among the obstacles and the 賔門's walls: where it stands in the text.
_WALL_RECTS = [
    (lo + m.start(1), lo + m.end(1), [float(v) for v in m.group(1).split(",")])
    for lo, hi in ((XU_TEXT.index("\nobstacles:\n"), XU_TEXT.index("\nrange:\n")),
                   (XU_TEXT.index("\nelsewhere:\n"), XU_TEXT.index("\n  gate: [-306")))
    for m in re.finditer(r"\[(-?[\d.]+(?:, -?[\d.]+){3})\]", XU_TEXT[lo:hi])]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits=st.lists(st.tuples(st.integers(0, len(_WALL_RECTS) - 1), st.integers(0, 3),
                                st.one_of(st.sampled_from([-30.0, -6.0, -1.0, 0.5, 2.0, 40.0]),
                                          st.floats(-60, 60))),
                      min_size=1, max_size=3))
@pytest.mark.slow  # hypothesis: walls moved
def test_edited_obstacle_rects_load_or_fail_located_and_loaded_means_walkable(edits):
    """Moving a wall, 楹 or screen about: a Layout or located problems, never a traceback; and
    a layout that loads has a walk from the 堂 to every place (no Unreachable later)."""
    rects = [list(r) for _, _, r in _WALL_RECTS]
    for i, k, delta in edits:
        rects[i][k] += delta
    text = XU_TEXT
    for (a, b, _), r in reversed(list(zip(_WALL_RECTS, rects))):
        text = text[:a] + ", ".join(f"{v:.3f}" for v in r) + text[b:]
    try:
        layout = load_layout_text(text, "o.yaml")
    except InputError as e:
        assert e.problems
        for p in e.problems:
            assert re.match(r"o\.yaml:\d+:\d+: ", str(p)), str(p)
    else:
        start = layout.place_xy("堂")
        for name in layout.places:
            layout.route(start, layout.place_xy(name))


# -- other readings ----------------------------------------------------------------------


def test_ao_reading_moves_the_marks_and_the_blind():
    ao = load_layout(DEFAULT_LAYOUT, readings=("敖",))
    assert ao.reading == "鄭+敖"
    assert xy(ao, "左物")[0] - xy(ao, "右物")[0] == 5  # 敖: under 5 尺 apart
    hx = xy(ao, "侯")[0]
    blind = next(o for o in ao.obstacles if o.name == "乏")
    assert hx - (blind.rect[0] + blind.rect[2]) / 2 == 50  # from the 侯's west edge
    assert xy(ao, "乏") == (-50, -180)
    marks = {f.name: f.points for f in ao.features if f.kind == "mark"}
    assert marks["右物"][0][0] == -2.5  # the drawing follows the place
    assert ao.warnings == ()
    r = ao.route_places("堂西", "乏南")
    assert not any(ao.segment_blocked(p, q) for p, q in itertools.pairwise(r))


def test_default_is_untouched_by_a_reading_loaded_elsewhere(xu):
    load_layout(DEFAULT_LAYOUT, readings=("敖",))
    assert xy(xu, "左物")[0] - xy(xu, "右物")[0] == 6
    assert xu.applied == ()


def test_unknown_reading_is_a_located_error():
    with pytest.raises(InputError) as e:
        load_layout(DEFAULT_LAYOUT, readings=("朱熹",))
    assert str(e.value) == (f"{DEFAULT_LAYOUT}:1:1: no variant in this layout follows the reading "
                            "'朱熹' (readings with variants: 中庭南北之中, 庭三堂深, 敖繼公)")


def test_a_layout_listing_no_sight_lines_is_still_held_to_the_arrows_and_the_flag():
    """`check` tests the lines for any layout: one without `sight:` gets the 物 → 侯 face and
    物 → 乏 lines implied, located at its first line."""
    start, end = XU_TEXT.index("\nsight:\n"), XU_TEXT.index("\nways:\n")
    text = XU_TEXT[:start] + XU_TEXT[end:]
    assert not [w for w in load_layout_text(text, "n.yaml").warnings if "sight" in w.message]
    cut = [str(w) for w in load_layout_text(text, "n.yaml", ["庭三堂深"]).warnings]
    assert len(cut) == 4 and all(c.startswith("n.yaml:1:1: warning: sight line") for c in cut)
    assert any("implied" in c and "to 乏 at (-30, -180) is cut by the wall 南壁" in c for c in cut)


def test_a_place_typed_ten_times_too_far_by_the_elsewhere_scene_is_a_warning_at_its_line():
    """司射位 at x -290 instead of -29 lands by the 賔門 scene: no longer taken as the scene's
    (its places: are listed), so check points at the line that is wrong."""
    text = _damage(("司射位: {x: -29, y: -36,", "司射位: {x: -290, y: -36,"))
    assert _warnings(text) == [
        f"{_at(text, '司射位: {')}: warning: place 司射位 at (-290, -36) lies 223 尺 off the site "
        f"({SPANS}), by the 賔門 scene, whose places are 賔門外; expected a place on the site, or "
        "list it in elsewhere: places: (a typing slip makes every walk to it long)"]


def test_the_elsewhere_scene_lists_only_places_there_are():
    text = _damage(("places: [賔門外]", "places: [賔門外, 賓門內]"))
    with pytest.raises(InputError) as e:
        load_layout_text(text, "bad.yaml")
    assert f"{_at(text, '賓門內]')}: elsewhere: places: no place '賓門內' in places:" in str(e.value)
