"""士冠禮's scenarios together (issue 25): the 孤子 is the 主人 of §17 too (醴賔, 20-孤子醴賔: his 拜 with
the 賔 北面 at the 阼階上, 20.03), and with 醮=2 his 鼎 stands outside the 廟門 (20.04 若殺則舉鼎陳于門外
直東塾北面; 注: 父在有鼎不陳於門外). The 24 combinations' check --strict: tests/test_grid.py's corners."""
from __future__ import annotations

import json

from viz.cli.main import main


def _state(capsys, after: str, *sets: str) -> dict[str, dict]:
    argv = ["state", "--rite", "士冠禮", "--after", after, "--json"]
    for s in sets:
        argv += ["--set", s]
    assert main(argv) == 0
    return {a["id"]: a for a in json.loads(capsys.readouterr().out)["actors"]}


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
