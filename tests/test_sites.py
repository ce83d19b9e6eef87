"""Sites beyond a hall, a court, a range and one elsewhere (issue 25, docs/LAYOUT.md): grounds
joined by gates that walks go through, regions (房, 室) that state names, stair treads (等) as
places, several elsewhere scenes, and the drinking patterns' places required only of a rite
that uses them. Built on a toy 廟 and a toy rite in a tmp dir."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import pytest

from tests.test_package import make_toy, run
from viz.base.errors import InputError
from viz.model.layout import load_layout, load_layout_text

# A toy 廟: the court (庭) with its 廟門 in the south wall; outside it 廟門外, a walled ground;
# south of that, beyond the 外門 in its south wall, the open 大門外. 房 and 室 regions on the
# 堂; a 東塾 by the gate; two elsewhere scenes (the mother's 闈門, the 寢).
TOY = """\
name: toy 廟
reading: 鄭
hall: {rect: [-20, 0, 20, 20], height: 3}
court:
  name: 庭
  rect: [-30, -40, 30, 30]
  wall: 1
  gate: {name: 廟門, x: [-4, 4]}
grounds:
  - {name: 廟門外, rect: [-30, -80, 30, -41], wall: 1, source: "經: 筮于廟門"}
  - {name: 大門外, rect: [-30, -120, 30, -82], source: "經: 主人迎出門左"}
gates:
  - {name: 外門, rect: [10, -82, 18, -80], between: [廟門外, 大門外], source: "經: 每曲揖"}
regions:
  - {name: 房, rect: [5, 14, 20, 20], source: "經: 陳服于房中"}
  - {name: 室, rect: [-20, 14, 5, 20]}
stairs:
  - {name: 阼階, rect: [8, -3, 14, 0], steps: 3}
  - {name: 西階, rect: [-14, -3, -8, 0], steps: 3}
obstacles:
  - {name: 東塾, kind: building, rect: [10, -39.5, 28, -32], source: "注: 門側之堂謂之塾"}
elsewhere:
  - name: 闈門
    walls: [[-330, 0, -306, 2], [-294, 0, -270, 2]]
    gate: [-306, 0, -294, 2]
    places: [闈門外]
  - name: 寢門
    walls: [[300, 0, 324, 2], [336, 0, 360, 2]]
    gate: [324, 0, 336, 2]
    places: [寢門外]
places:
  堂: {x: 0, y: 8, source: t}
  房中: {x: 12, y: 17, source: "經: 陳服于房中"}
  阼階下: {x: 11, y: -6, source: t}
  西階下: {x: -11, y: -6, source: t}
  中庭: {x: 0, y: -20, source: t}
  廟門外西: {x: -8, y: -50, source: t}
  大門外東: {x: 14, y: -100, source: t}
  闈門外: {x: -300, y: -4, source: t}
  寢門外: {x: 330, y: -4, source: t}
"""


@pytest.fixture(scope="module")
def lay():
    return load_layout_text(TOY, "toy.yaml")


def _crosses(a, b, r) -> bool:
    """Does segment a→b pass through the open rectangle r?"""
    from viz.model.paths import hit_matrix
    return bool(hit_matrix(np.array([a]), np.array([b]), np.array([r], float))[0, 0])


def test_grounds_are_regions_and_gates_cut_their_walls(lay):
    assert [g.name for g in lay.grounds] == ["廟門外", "大門外"]
    assert lay.places["廟門外西"].region == "廟門外"
    assert lay.places["大門外東"].region == "大門外"
    walls = [o.rect for o in lay.obstacles if o.kind == "wall"]
    gate = lay.gates[0].rect
    assert not any(_crosses((14, -83), (14, -79), w) for w in walls)  # through the 外門
    assert any(_crosses((0, -83), (0, -79), w) for w in walls)  # beside it: a wall


def test_a_walk_between_two_grounds_goes_through_the_gate(lay):
    path = lay.route_places("大門外東", "堂")
    walls = [o.rect for o in lay.obstacles if o.kind == "wall"]
    for a, b in zip(path[:-1], path[1:]):
        assert not any(_crosses(a, b, w) for w in walls), (a, b)
    gx0, gy0, gx1, gy1 = lay.gates[0].rect
    # the walk crosses the 外門's wall (y -81…-80) within the gate, and the 廟門 within x ±4
    ys = path[:, 1]
    i = int(np.argmax(ys > -80.5))
    a, b = path[i - 1], path[i]
    x_at = a[0] + (b[0] - a[0]) * (-80.5 - a[1]) / (b[1] - a[1])
    assert gx0 < x_at < gx1
    j = int(np.argmax(ys > -40.5))
    a, b = path[j - 1], path[j]
    assert -4 < a[0] + (b[0] - a[0]) * (-40.5 - a[1]) / (b[1] - a[1]) < 4


def test_a_gate_naming_an_unknown_ground_or_on_no_wall_is_located():
    bad = TOY.replace("between: [廟門外, 大門外]", "between: [廟門外, 大門內]")
    with pytest.raises(InputError) as e:
        load_layout_text(bad, "bad.yaml")
    line = TOY.splitlines().index(
        next(x for x in TOY.splitlines() if "name: 外門" in x)) + 1
    assert f"bad.yaml:{line}:" in str(e.value)
    assert "大門內" in str(e.value) and "no ground" in str(e.value)
    off = TOY.replace("rect: [10, -82, 18, -80]", "rect: [10, -70, 18, -68]")
    with pytest.raises(InputError) as e:
        load_layout_text(off, "off.yaml")
    assert f"off.yaml:{line}:" in str(e.value) and "lies across no wall" in str(e.value)


def test_regions_name_where_a_point_is(lay):
    assert lay.region_at(12, 17) == "房"
    assert lay.region_at(-10, 17) == "室"
    assert lay.region_at(0, 8) == "堂"
    assert lay.places["房中"].region == "房"
    names = {(f.kind, f.label) for f in lay.features}
    assert ("region", "房") in names and ("region", "室") in names


def test_a_building_obstacle_is_drawn_with_its_name(lay):
    f = next(f for f in lay.features if f.name == "東塾")
    assert f.kind == "building" and f.label == "東塾"
    # …and the bundled layouts draw no obstacle they did not draw before
    xu = load_layout("layouts/xu.yaml")
    assert not any(f.kind == "building" for f in xu.features)


def test_treads_resolve_as_places_without_being_listed(lay):
    s = next(s for s in lay.stairs if s.name == "西階")
    r = s.risers  # three 等: risers at -3, -1.5, 0; treads between
    one_down = lay.places["西階上一等"]  # 降一等 from the 堂: the upper tread
    assert (one_down.x, one_down.y) == (-11.0, (r[1] + r[2]) / 2)
    assert lay.places["西階下一等"].y == (r[0] + r[1]) / 2  # 升一等 from the ground
    assert lay.places["西階上二等"].y == lay.places["西階下一等"].y
    assert lay.places["西階上三等"].y < s.rect[1]  # 降三等，下至地 (鄭)
    assert lay.region_at(*lay.place_xy("西階上三等")) == "庭"
    assert lay.places["阼階下三等"].y > s.rect[3]  # 升三等: on the 堂
    assert "西階上一等" in lay.places and "西階上四等" not in lay.places
    assert "北階上一等" not in lay.places
    assert "西階上一等" not in list(lay.places)  # found by name, not listed
    assert lay.route_places("西階下", "西階上一等").shape[1] == 2


def test_several_elsewhere_scenes(lay):
    assert [s.name for s in lay.scenes] == ["闈門", "寢門"]
    assert lay.scene_at(-300, -4).name == "闈門"
    assert lay.scene_at(330, -4).name == "寢門"
    assert lay.scene_at(0, 8) is None
    from viz.draw.bounds import elsewhere_scenes
    got = elsewhere_scenes(lay)
    assert [n for n, _ in got] == ["闈門", "寢門"]
    (_, a), (_, b) = got
    assert a[2] < -200 and b[0] > 200  # each framed on its own, not one box over both


# ---------------------------------------------------------------- a toy rite on the toy 廟

STAGE = """\
name: 謀賔
setup:
  - {who: zhuren, at: 大門外東, face: 北}
  - {who: bin, at: 房中, face: 南}
steps:
  - cite: 主人就先生而謀賔
    do:
      - move: {who: zhuren, to: 西階上一等, face: 北}
  - cite: 賔拜辱
    do:
      - posture: {who: bin, is: 拜, count: 2}
"""


def _toy_rite(folder: Path, layout: str, stage: str = STAGE, patterns: bool = False) -> Path:
    make_toy(folder)
    (folder / "hall.yaml").write_text(layout, encoding="utf-8")
    (folder / "sections" / "01.yaml").write_text(stage, encoding="utf-8")
    if patterns:
        man = folder / "manifest.yaml"
        man.write_text(man.read_text(encoding="utf-8").replace(
            "sections:\n", "patterns: [library]\nsections:\n"), encoding="utf-8")
    return folder


def _timeline(folder: Path):
    from viz.cli.options import load_all, spec_of
    return load_all(spec_of(argparse.Namespace(rite=str(folder), script=None,
                                               layout=None))).timeline


@pytest.mark.slow
def test_a_rite_walks_through_the_gates_and_state_names_the_region(tmp_path, capsys):
    folder = _toy_rite(tmp_path / "廟禮", TOY)
    code, out, err = run(capsys, "check", "--rite", str(folder))
    assert code == 0, err
    tl = _timeline(folder)
    i = tl.actor_index["zhuren"]
    xy = np.array([tl.sample(t).xy[i] for t in np.linspace(0, tl.duration, 400)])
    lay = load_layout_text(TOY, "toy.yaml")
    walls = [o.rect for o in lay.obstacles if o.kind == "wall"]
    for a, b in zip(xy[:-1], xy[1:]):
        assert not any(_crosses(a, b, w) for w in walls), (a, b)
    gx0, _, gx1, _ = lay.gates[0].rect
    assert any(gx0 < x < gx1 and -82 < y < -80 for x, y in xy)  # in the 外門 on the way
    assert np.allclose(xy[-1], lay.place_xy("西階上一等"))
    code, out, _ = run(capsys, "state", "--rite", str(folder), "--after", "賔拜辱", "--json")
    s = json.loads(out)
    where = {a["id"]: a["region"] for a in s["actors"]}
    assert where == {"bin": "房", "zhuren": "階"}


# A step that uses the library's 對 (獻酬.yaml: its file lists the drinking places)
DRINK = STAGE + """\
  - cite: 賔拜辱
    use: 對
    with: {who: bin}
"""


def test_a_layout_without_drinking_places_passes_unless_the_rite_drinks(tmp_path, capsys):
    dry = _toy_rite(tmp_path / "冠", TOY)
    code, _, err = run(capsys, "check", "--rite", str(dry))
    assert code == 0, err
    wet = _toy_rite(tmp_path / "飲", TOY, DRINK, patterns=True)
    code, out, err = run(capsys, "check", "--rite", str(wet))
    assert code != 0
    sec = wet / "sections" / "01.yaml"
    line = DRINK.splitlines().index("    use: 對") + 1
    first = err.splitlines()[0]
    assert first.startswith(f"{sec}:{line}:10: pattern '對' needs the places 下篚、尊、東序端"), err
    assert "獻酬.yaml:" in first and "1 error" in err  # said once, at the use
    # the same rite on a layout with every place the file lists passes
    lib = Path("assets/patterns/獻酬.yaml").read_text(encoding="utf-8")
    needed = lib.rsplit("places: [", 1)[1].split("]")[0].split(", ")
    extra = "".join(f"  {n}: {{x: {0.5 * k - 5}, y: 10, source: t}}\n" for k, n in
                    enumerate(n for n in needed if n not in load_layout_text(TOY, "t").places))
    full = TOY.replace("\nplaces:\n", "\nplaces:\n" + extra)
    ok = _toy_rite(tmp_path / "飲2", full, DRINK, patterns=True)
    code, _, err = run(capsys, "check", "--rite", str(ok))
    assert code == 0, err


# The mother comes to her 闈門 only in the second step: the 闈門 inset is drawn then, framed on
# that scene alone (not on both scenes, which would take in the 堂 between them), and not before.
MOTHER = STAGE + """\
  - cite: 賔拜辱
    do:
      - enter: {who: mu, at: 闈門外, face: 北}
      - posture: {who: mu, is: 拜, count: 2}
"""


def test_an_elsewhere_inset_only_while_someone_is_there(tmp_path):
    from viz.draw.extent import scene_now
    from viz.export import plate as plate_files

    folder = _toy_rite(tmp_path / "母", TOY, MOTHER)
    cast = folder / "cast.yaml"
    cast.write_text(cast.read_text(encoding="utf-8")
                    + "  - {id: mu, name: 母, party: 主, label: 母}\n", encoding="utf-8")
    from viz.cli.options import load_all, spec_of
    rite = load_all(spec_of(argparse.Namespace(rite=str(folder), script=None, layout=None)))
    tl = rite.timeline
    first, last = tl.steps[0], tl.steps[-1]

    def insets(t):
        p = plate_files.plate_layers(rite, t, True)
        return [layer for layer in p.layers if layer.name.startswith("plate.gate")]

    assert insets(first.t1) == []  # nobody at either scene yet
    gate = insets(last.t1)
    assert {layer.name for layer in gate} >= {"plate.gate.plan", "plate.gate.people"}
    model = plate_files.model_for(rite)
    name, b = scene_now(model, tl.sample(last.t1, True))
    assert name == "闈門" and b[2] < -200  # the 闈門's ground, not the 寢門's nor both
    texts = [p.text for layer in gate for p in layer.prims if hasattr(p, "text")]
    assert any("母" in t for t in texts) and not any("主人" in t for t in texts)
    assert any("闈門" in t for t in texts)  # titled after its scene


def test_a_bad_scene_in_a_list_is_located_inside_it():
    bad = TOY.replace("    places: [闈門外]", "    placez: [闈門外]")
    with pytest.raises(InputError) as e:
        load_layout_text(bad, "b.yaml")
    line = bad.splitlines().index("    placez: [闈門外]") + 1
    assert str(e.value).startswith(f"b.yaml:{line}:5: elsewhere.0: unknown key 'placez'")
