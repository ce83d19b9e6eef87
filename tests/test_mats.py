"""Things set out as things in the world (issue 25): a 筵 carried, spread with its own facing
(put: {…, face: …}; 筵于戸西南面 is the mat's facing, not the spreader's), shifted where it lies
without being held in between (shift: 徙), declared lying with a facing (props: face:), drawn
at its size along its facing in the window, and said by `state --json` ("laid")."""
from __future__ import annotations

import json
import math

import pytest

from test_package import make_toy, run
from viz.draw.display import Polygon
from viz.draw.props import MAT, prop_glyph
from viz.model import package
from viz.model.rite import load

CAST = """\
cast:
  - {id: zhuren, name: 主人, party: 主, label: 主}
  - {id: bin, name: 賔, party: 賓, label: 賔}
props:
  - {id: yan, name: 筵, kind: 筵, held_by: zhuren}
  - {id: xi, name: 席, kind: 席, at: 中庭, face: 西}
"""

STAGE = """\
name: 謀賔
setup:
  - {who: zhuren, at: 阼階下, face: 西}
  - {who: bin, at: 西階下, face: 東}
steps:
  - cite: 主人就先生而謀賔
    do:
      - move: {who: zhuren, to: {place: 中庭, dx: 2}, face: 西}
      - put: {who: zhuren, prop: yan, at: {place: 中庭, dx: 2, dy: 2.5}, face: 南}
  - cite: 主人戒賔
    do:
      - shift: {who: zhuren, prop: xi, to: {place: 中庭, dx: 2, dy: -2.5}, face: 北}
  - cite: 賔拜辱
    do:
      - posture: {who: bin, is: 拜, count: 2}
"""


def mat_toy(folder, stage: str = STAGE, cast: str = CAST):
    toy = make_toy(folder)
    (toy / "cast.yaml").write_text(cast, encoding="utf-8")
    (toy / "sections" / "01.yaml").write_text(stage, encoding="utf-8")
    return toy


@pytest.fixture(scope="module")
def mats(tmp_path_factory):
    toy = mat_toy(tmp_path_factory.mktemp("mats") / "試禮")
    pkg = package.find(str(toy))
    return toy, load(pkg.script, pkg.layout)


def _state(capsys, toy, *moment: str) -> dict:
    code, out, err = run(capsys, "state", "--rite", str(toy), *moment, "--json")
    assert code == 0, err
    return json.loads(out)


def _laid(s: dict) -> dict:
    return {x["id"]: x for x in s.get("laid", ())}


def test_a_mat_is_carried_then_spread_with_its_own_facing(capsys, mats):
    toy, d = mats
    step = d.timeline.steps[0]
    mid = _state(capsys, toy, "--at", f"{(step.t0 + step.t1) / 2:.3f}")
    held = {a["id"]: [h["id"] for h in a["holding"]] for a in mid["actors"]}
    assert held["zhuren"] == ["yan"]  # 執筵: carried, in his hands
    assert "yan" not in _laid(mid)
    s = _state(capsys, toy, "--after", "主人就先生而謀賔")
    laid = _laid(s)["yan"]
    assert laid["facing"] == {"dir": "南", "deg": 180.0}
    assert (laid["x"], laid["y"]) == (2.0, pytest.approx(-42.5))
    zhuren = next(a for a in s["actors"] if a["id"] == "zhuren")
    assert zhuren["holding"] == [] and zhuren["facing"]["dir"] == "西"  # his own facing is his


def test_shift_moves_a_thing_where_it_lies_without_holding_it(capsys, mats):
    toy, d = mats
    before = _laid(_state(capsys, toy, "--after", "主人就先生而謀賔"))["xi"]
    assert before["facing"]["dir"] == "西" and (before["x"], before["y"]) == (0.0, -45.0)
    step = d.timeline.steps[1]
    for t in (step.t0 + 0.01, (step.t0 + step.t1) / 2):
        s = _state(capsys, toy, "--at", f"{t:.3f}")
        assert all(not a["holding"] for a in s["actors"]), t  # never held in between
    after = _laid(_state(capsys, toy, "--after", "主人戒賔"))["xi"]
    assert after["facing"] == {"dir": "北", "deg": 0.0}
    assert (after["x"], after["y"]) == (2.0, pytest.approx(-47.5))


def test_a_rite_that_lays_nothing_says_nothing_of_it(capsys, tmp_path):
    toy = make_toy(tmp_path / "plain")
    assert "laid" not in _state(capsys, toy, "--at", "1")


@pytest.mark.parametrize("line, warning", [
    ("      - shift: {who: bin, prop: xi, to: 中庭}",
     "賔 cannot shift it from"),
    ("      - shift: {who: zhuren, prop: yan, to: 中庭}",
     "筵 (yan) is in 主人's hands, not set down, to shift it"),
])
def test_shift_warns_where_it_cannot_be_done(capsys, tmp_path, line, warning):
    stage = STAGE.replace("  - cite: 主人就先生而謀賔\n    do:\n",
                          "  - cite: 主人就先生而謀賔\n    do:\n" + line + "\n", 1)
    toy = mat_toy(tmp_path / "w", stage)
    code, out, err = run(capsys, "check", "--rite", str(toy))
    assert warning in err
    assert "01.yaml:8:9: warning:" in err  # at the action


def test_a_prop_facing_that_is_no_direction_is_an_error_at_it(capsys, tmp_path):
    toy = mat_toy(tmp_path / "e", cast=CAST.replace("face: 西", "face: 上"))
    code, out, err = run(capsys, "check", "--rite", str(toy))
    assert code == 2
    assert "cast.yaml:6:46:" in err and "at props/1/face" in err, err  # the schema's, located


def _box(prims):
    poly = next(p for p in prims if isinstance(p, Polygon))
    xs, ys = [q[0] for q in poly.points], [q[1] for q in poly.points]
    return max(xs) - min(xs), max(ys) - min(ys)


@pytest.mark.parametrize("face, along", [(180.0, "x"), (0.0, "x"), (270.0, "y"), (90.0, "y"),
                                         (None, "x")])
def test_a_spread_mat_is_drawn_at_its_size_along_its_facing(face, along):
    w, h = _box(prop_glyph(10.0, 20.0, "筵", k=8.0, face=face))
    long_, short = (w, h) if along == "x" else (h, w)
    assert long_ == pytest.approx(MAT[0]) and short == pytest.approx(MAT[1])


def test_the_line_of_a_mat_lies_along_the_edge_it_faces():
    from viz.draw.display import Line
    for face, (dx, dy) in ((180.0, (0, -1)), (0.0, (0, 1)), (270.0, (-1, 0))):
        line = next(p for p in prop_glyph(0.0, 0.0, "席", k=8.0, face=face) if isinstance(p, Line))
        mx = sum(q[0] for q in line.points) / 2
        my = sum(q[1] for q in line.points) / 2
        assert math.copysign(1, mx) * abs(dx) == dx or dx == 0
        assert (mx * dx + my * dy) > 0.5, face  # toward the facing side


def test_a_mat_held_is_drawn_rolled_not_spread():
    w, h = _box(prop_glyph(0.0, 0.0, "筵", k=8.0, held=True))
    assert w < MAT[0] / 2 and h < w  # a few px across at any zoom, not 5 尺


def test_the_window_draws_the_spread_mat(mats, tmp_path):
    """A shot after the 筵 is spread has the mat's fill where the 筵 lies, and none before."""
    import pygame

    toy, d = mats
    from viz.draw.props import MAT_FILL

    def fill_count(t):
        out = tmp_path / f"s{t}.png"
        code = __import__("viz.cli.main", fromlist=["main"]).main(
            ["shot", "--rite", str(toy), "--at", str(t), "-o", str(out), "--force"])
        assert code == 0
        s = pygame.image.load(str(out))
        arr = pygame.surfarray.array3d(s)
        import numpy as np
        return int(np.all(arr == np.array(MAT_FILL), axis=2).sum())

    t1 = d.timeline.steps[0].t1
    # the layout's own mats (賔席 …) share the fill: the 筵 adds to them
    assert fill_count(round(t1 + 0.1, 2)) > fill_count(0.5) + 50


def test_the_plate_draws_the_spread_mat_in_ink(mats, tmp_path):
    """A plate after the 筵 is spread has more of the mats' wash than one before (the 席 lies
    there from the start): the 筵 is drawn spread, at its size, as the layout's mats are."""
    import numpy as np
    import pygame

    from viz.cli.main import main
    toy, d = mats

    def wash(t):
        out = tmp_path / f"p{t}.png"
        assert main(["plate", "--rite", str(toy), "--at", str(t), "-o", str(out),
                     "--force"]) == 0
        arr = pygame.surfarray.array3d(pygame.image.load(str(out)))
        return int(np.all(arr == np.array((238, 232, 216)), axis=2).sum())

    t1 = d.timeline.steps[0].t1
    assert wash(round(t1 + 0.1, 2)) > wash(0.5) + 200
