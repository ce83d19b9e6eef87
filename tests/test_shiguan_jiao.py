"""士冠禮's 醴賔 (§17) and its 若不醴則醮用酒 (§19, --set 醮=1; 若殺 醮=2) with
the 醮辭 (§26): where the 醮 puts people, that a stage's when: replaces the 醴 (§12),
and that coverage counts what only a scenario enacts (and only what a step's own
spans cover)."""
from __future__ import annotations

import json
from types import SimpleNamespace

from viz.base.errors import Loc
from viz.cli.main import main
from viz.model.scenario import Setting
from viz.query.coverage import coverage, scenarios


def _run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_a_stage_when_replaces_the_li_with_the_jiao(capsys):
    """賔醴冠者 (§12, when: 醮==0) has no step with 醮=1; the 祝 at the 加 is said in both
    (疏: 凡醮者不祝 … 凡謂庶子也)."""
    for sets, words, ok in (((), "筵于户西南面", True), (("--set", "醮=1"), "筵于户西南面", False),
                            (("--set", "醮=1"), "令月吉日始加元服", True)):
        code, _ = _run(capsys, "state", "--rite", "士冠禮", *sets, "--after", words)
        assert (code == 0) == ok, (sets, words)


def test_at_the_first_jiao_the_capped_son_holds_the_jue_west_of_the_mat(capsys):
    """冠者拜受賔答拜如初 (注: 冠者南面拜受賔授爵東面答拜如醴禮也): the 冠者 west
    of the 户西 筵 facing south with the 爵; the 賔 back before the 西序 facing east;
    the 主人 at the 東序端."""
    code, out = _run(capsys, "state", "--rite", "士冠禮", "--set", "醮=1", "--after",
                     "冠者拜受賔答拜如初", "--json")
    assert code == 0
    who = {a["id"]: a for a in json.loads(out)["actors"]}
    g, b = who["guanzhe"], who["bin"]
    assert g["place"] == "户西筵西" and g["facing"]["dir"] == "南"
    assert [h["id"] for h in g["holding"]] == ["jue.1"]
    assert {"緇布冠", "𤣥端"} <= set(g["wears"])
    assert b["place"] == "西序前" and b["facing"]["dir"] == "東" and not b["holding"]
    assert who["zhuren"]["place"] == "東序端"


def test_coverage_counts_what_a_scenario_enacts(capsys):
    """§19 and the 醮辭 (§26) are cited, under 醮=1 or 醮=2 (named so); §17 in the default."""
    code, out = _run(capsys, "coverage", "--rite", "士冠禮", "--json")
    assert code == 0
    clauses = {c["id"]: c for s in json.loads(out)["sections"] for c in s["clauses"]}
    for cid in [f"19.{i:02d}" for i in range(1, 15)] + [f"26.{i:02d}" for i in range(1, 8)]:
        assert clauses[cid]["status"] == "cited", cid
    assert {s.get("scenario") for s in clauses["19.14"]["steps"]} == {"醮=2"}
    assert {s.get("scenario") for s in clauses["26.05"]["steps"]} == {"醮=1", "醮=2"}
    for cid in ("17.01", "17.02", "17.03"):
        assert clauses[cid]["status"] == "cited"
        assert not all(s.get("scenario") for s in clauses[cid]["steps"])


def test_scenarios_tried_are_each_setting_alone():
    decl = {"醮": Setting("醮", 0, 0, 2, ""), "衆賔": Setting("衆賔", 6, 2, 9, ""),
            "skill.bin": Setting("skill.bin", 0.5, 0, 1, "", False)}
    assert scenarios(decl) == [(("醮", "1"),), (("醮", "2"),), (("衆賔", "2"),), (("衆賔", "9"),)]


def test_a_written_step_cites_its_spans_not_what_lies_between(corpus):
    """One written step enacted twice (a like: copy, or another scenario) with spans over the
    first and the third of three clauses leaves the second missing; a setup item's cite counts."""
    a, b, c = [x for x in corpus.clauses if x.kind == "經"][3:6]
    loc = Loc("s.yaml", 3, 5)

    def step(cl):
        return SimpleNamespace(loc=loc, cite="x", span=(cl.start, cl.end), actions=())

    placed = SimpleNamespace(loc=Loc("s.yaml", 9, 5), cite="y", span=(b.start, b.end))
    stage = SimpleNamespace(number=1, name="s", loc=loc, steps=(step(a), step(c)), rules=(),
                            placed=())
    cov = coverage(SimpleNamespace(stages=(stage,)), corpus)
    assert {a.id, c.id} <= {x.id for x in cov.clauses() if x.status == "cited"}
    assert b.id in cov.missing()
    stage.placed = (placed,)
    assert b.id not in coverage(SimpleNamespace(stages=(stage,)), corpus).missing()
