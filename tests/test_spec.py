"""Issue 29 item 2: the command line's rite options resolved once, at its edge, into one frozen
RiteSpec (viz.cli.options.spec_of) that reaches the script reader's entry unopened."""
from __future__ import annotations

import dataclasses

import pytest

import viz.cli.options
import viz.model.script.reader
from viz.cli.main import main, parser
from viz.cli.options import spec_of
from viz.model.spec import RiteSpec, Scenario


class Reached(Exception):
    pass


@pytest.fixture
def seen(monkeypatch):
    """The spec spec_of made and the first argument each load_script call received (the
    reader's entry, stopped there: what it would read is not the point)."""
    got: dict[str, list] = {"made": [], "read": []}
    made = viz.cli.options.spec_of

    def recording_spec_of(args):
        spec = made(args)
        got["made"].append(spec)
        return spec

    def reader_entry(spec, *rest, **kw):
        got["read"].append(spec)
        raise Reached

    monkeypatch.setenv("XIANGSHE_CACHE", "off")  # compile, so the reader is reached
    monkeypatch.setattr(viz.cli.options, "spec_of", recording_spec_of)
    monkeypatch.setattr(viz.model.script.reader, "load_script", reader_entry)
    return got


@pytest.mark.parametrize("argv", [
    ["state", "--at", "1", "--set", "衆賔=3", "--seed", "4"],
    ["check", "--rite", "鄉飲酒禮"],
    pytest.param(["coverage", "--reading", "敖"], marks=pytest.mark.slow),  # 2.9 s of CPU
    ["shot", "--stage", "2", "-o", "x.png", "--set", "大夫=0"],
    ["score", "--rite", "xiangshe"],
])
def test_the_spec_reaches_the_reader_unopened(seen, argv):
    with pytest.raises(Reached):
        main(argv)
    [made] = seen["made"]
    assert seen["read"] and all(got is made for got in seen["read"])


def test_the_spec_holds_what_the_options_say():
    args = parser().parse_args(["state", "--rite", "鄉射禮", "--layout", "layouts/xu.yaml",
                                "--reading", "敖", "--reading", "鄭", "--set", "衆賔=3",
                                "--set", "大夫=0", "--seed", "9"])
    before = dict(vars(args))
    spec = spec_of(args)
    assert vars(args) == before  # the Namespace is read, never written
    assert spec.package.name == "鄉射禮" and str(spec.script) == "assets/rites/xiangshe"
    assert str(spec.layout) == "layouts/xu.yaml"
    assert spec.readings == ("敖",)  # 鄭, the default, is not a reading to ask for
    assert spec.scenario == Scenario((("衆賔", "3"), ("大夫", "0")), 9)
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.readings = ()


def test_an_unknown_set_key_is_refused_at_the_edge_before_any_section_is_read(
        seen, capsys):
    code = main(["state", "--at", "1", "--set", "衆=3"])
    err = capsys.readouterr().err
    assert code == 2 and seen["read"] == []  # the reader was never reached
    first = err.splitlines()[0]
    assert first.startswith("--set:1:1: --set 衆: no such setting; known: 大夫, 衆賔, skill.")
    assert "did you mean 衆賔" in first
    assert "scenario: at assets/rites/xiangshe/cast.yaml:" in first


def test_a_set_value_out_of_range_is_refused_at_the_edge(seen, capsys):
    code = main(["score", "--rite", "鄉射禮", "--set", "衆賔=30"])
    assert code == 2 and seen["read"] == []
    assert "--set 衆賔=30: expected a whole number from 2 to 9" in capsys.readouterr().err


@pytest.mark.slow  # the whole rite's Reloader
def test_a_reloader_and_a_rite_hand_their_spec_to_the_reader(seen):
    from viz.model.reload import Reloader
    from viz.model.rite import Rite

    spec = RiteSpec.at("assets/rites/xiangshe", "layouts/xu.yaml", sets=[("大夫", "1")])
    r = Reloader(spec)
    assert not r.result.ok and seen["read"][-1] is spec
    with pytest.raises(Reached):
        Rite(spec).prefix(stages=2)
    assert seen["read"][-1] is spec
    with pytest.raises(Reached):  # another reading: the same spec under it
        Rite(spec).get(("敖",))
    assert seen["read"][-1] == dataclasses.replace(spec, readings=("敖",))
