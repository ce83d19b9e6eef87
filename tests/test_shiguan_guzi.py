"""士冠禮's 若 paragraphs as scenarios (issue 25): the 孤子 (§20) is his own 主人, greets the 賔,
stands at the 序端 and is given the 醴 at the 阼 with every 拜 北面 at the stair heads; the
庶子 (§21) is capped on a 筵 outside the 房 facing south and given the 醮 there; the 北堂's 洗,
a fixed thing of the 房, is drawn from the start. With the other scenarios: the 孤子 is the 主人
of §17 too (20-孤子醴賔: his 拜 with the 賔 北面 at the 阼階上, 20.03), and with 醮=2 his 鼎 stands
outside the 廟門 (20.04; 注: 父在有鼎不陳於門外). Each scenario compiled once (the cache); the 24
combinations' check --strict: tests/test_grid.py's corners."""
from __future__ import annotations

import json

import pytest

from viz.cli.main import main


def _state(capsys, after: str, *sets: str) -> dict[str, dict]:
    argv = ["state", "--rite", "士冠禮", "--after", after, "--json"]
    for s in sets:
        argv += ["--set", s]
    assert main(argv) == 0
    return {a["id"]: a for a in json.loads(capsys.readouterr().out)["actors"]}


def _holds(a: dict) -> set[str]:
    return {h["name"] if isinstance(h, dict) else h for h in a["holding"]}


def _at(a: dict) -> tuple[str, str]:
    return a["place"], a["facing"]["dir"]


def test_guzi_greets_as_the_host_and_stands_at_the_xu(capsys):
    s = _state(capsys, "冠之日主人紒而迎賔拜揖讓立于序端皆如冠主", "孤子=1")
    assert _at(s["guanzhe"]) == ("東序端", "西") and _at(s["bin"]) == ("西序前", "東")
    assert "zhuren" not in s and "fuxiong" not in s   # no father; his 父兄 only 戒 and 宿
    assert "采衣" in s["guanzhe"]["wears"]             # 主人紒: still a boy's dress


def test_guzi_bows_north_at_the_east_stair(capsys):
    s = _state(capsys, "凡拜北面于阼階上賔亦北面于西階上答拜", "孤子=1")
    assert _at(s["guanzhe"]) == ("阼階上", "北") and _at(s["bin"]) == ("西階上", "北")
    assert "觶" in _holds(s["guanzhe"])


def test_the_father_and_the_fuxiong_by_scenario(capsys):
    s = _state(capsys, "布席于門中闑西閾外西面", "孤子=1")   # the 筮日: a choice, as the 戒宿
    assert _at(s["fuxiong"]) == ("門外東", "西") and "zhuren" not in s
    s = _state(capsys, "布席于門中闑西閾外西面")
    assert _at(s["zhuren"]) == ("門外東", "西") and "fuxiong" not in s


@pytest.mark.parametrize("after", ["乃祝坐如初乃冠興復位贊者卒", "加之如初復位贊者卒紘"])
def test_shuzi_is_capped_outside_the_fang_facing_south(capsys, after):
    s = _state(capsys, after, "庶子=1")
    assert _at(s["guanzhe"]) == ("房外筵", "南")
    assert _at(s["bin"]) == ("西序前", "東")


def test_shuzi_is_given_the_jiao_where_he_was_capped(capsys):
    s = _state(capsys, "冠者奠觶于薦東降筵北面坐取脯", "庶子=1")
    assert s["guanzhe"]["place"].startswith("房外筵") and "脯" in _holds(s["guanzhe"])
    s = _state(capsys, "冠者奠觶于薦東降筵北面坐取脯")
    assert s["guanzhe"]["place"].startswith("户西")


def test_the_north_hall_basin_is_drawn_from_the_start():
    from viz.draw.things import hidden
    from viz.model.rite import load
    from viz.model.spec import RiteSpec

    c = load(RiteSpec.at("assets/rites/shiguan/manifest.yaml"))
    assert "北堂洗" not in hidden(c.timeline, c.timeline.sample(0.0))
    assert "冠者筵" in hidden(c.timeline, c.timeline.sample(0.0))   # set out by a step
    (x0, y0, x1, y1) = next(r for r in c.layout.regions if r.name == "北堂").rect
    pts = next(f for f in c.layout.features if f.name == "北堂洗").points
    assert all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in pts)


def test_the_guzi_gives_the_bin_the_li_and_sees_him_off(capsys):
    s = _state(capsys, "乃醴賔以壹獻之禮", "孤子=1")
    assert "zhuren" not in s
    assert (s["guanzhe"]["place"], s["guanzhe"]["facing"]["dir"]) == ("阼階上", "北")
    assert (s["bin"]["place"], s["bin"]["facing"]["dir"]) == ("西階上", "北")
    s = _state(capsys, "賔出主人送于外門外再拜", "孤子=1")
    assert s["guanzhe"]["y"] < -110 and s["guanzhe"]["facing"]["dir"] == "西"   # beyond the 外門


def test_the_guzi_s_ding_stands_outside_the_gate():
    from viz.draw.things import hidden
    from viz.model.rite import load
    from viz.model.spec import RiteSpec

    for guzi, out, inside in ((1, "門外鼎", "鼎"), (0, "鼎", "門外鼎")):
        c = load(RiteSpec.at("assets/rites/shiguan/manifest.yaml", sets=[("醮", "2"), ("孤子", str(guzi))]))
        end = hidden(c.timeline, c.timeline.sample(c.timeline.duration))
        assert out not in end and inside in end, guzi
