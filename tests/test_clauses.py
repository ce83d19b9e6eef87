"""Issue 19, class 6: each clause at its own moment. A pattern's steps say which part of the
using step's words they enact (cite:), a move the text does not say is a step of its own (said:
false), and `--after CLAUSE` is the end of the last step saying that clause, before its step goes
on to later clauses or to unsaid moves."""
from __future__ import annotations

import pytest

from tests.test_compile import SCRIPT
from viz.base.errors import Collector
from viz.model.compile.compiler import compile_script
from viz.model.script.reader import parse_script
from viz.query.faithful import (
    clause_moments,
    clause_order_faults,
    order_warnings,
    shared_moments,
)
from viz.query.state import resolve_moment


@pytest.fixture(scope="module")
def whole(corpus):
    from viz import DEFAULT_LAYOUT, DEFAULT_SCRIPT
    from viz.model.rite import Rite
    return Rite(DEFAULT_SCRIPT, DEFAULT_LAYOUT, corpus).get(())


def test_every_jing_clause_ends_before_its_step_goes_on(whole, corpus):
    """One compile, every 經 clause the rite enacts: at its moment each step saying it has ended,
    and no step of the same citing step saying only later clauses, nor an unsaid move, has begun."""
    tl = whole.timeline
    said = clause_moments(tl, corpus)
    assert len(said) >= 516  # of the 533 經 clauses (the rest are rules, not actions)
    assert clause_order_faults(tl, corpus) == []
    assert sum(not s.said for s in tl.steps) >= 2
    # clauses whose moment a step shares with other clauses (said at once, a rule beside an
    # act, or a "…" cite reaching a 記 over clauses their own steps say); it was 95 before the
    # patterns' steps said their parts, and must not grow again
    assert len(shared_moments(tl, corpus)) <= 57


def face_of(whole, corpus, text: str, aid: str) -> tuple[float, tuple[float, float]]:
    tl = whole.timeline
    m = resolve_moment(tl, corpus, after=text)
    f = tl.sample(m.t, m.closing)
    a = tl.actor_index[aid]
    return float(f.facing[a]) % 360, tuple(float(v) for v in f.xy[a])


def test_the_three_clauses_the_issue_names_are_shown_at_their_moment(whole, corpus):
    # 賔進東北面辭洗: the 賔 faces north-east by the 洗, not east at his place after 反位
    deg, (x, y) = face_of(whole, corpus, "賔進東北靣辭洗", "bin")
    assert deg == pytest.approx(45, abs=1) and x > 20
    # 上射東面下射西面: they face each other across the 楅, not north
    assert face_of(whole, corpus, "上射東面下射西面", "shangshe1")[0] == pytest.approx(90, abs=1)
    assert face_of(whole, corpus, "上射東面下射西面", "xiashe1")[0] == pytest.approx(270, abs=1)
    # 左右撫矢而乘之: the 司馬 is still at the 楅, facing north, not back at his place
    deg, xy = face_of(whole, corpus, "左右撫矢而乘之", "sizheng")
    p = whole.layout.places["楅"]
    assert deg == pytest.approx(0, abs=1) and abs(xy[0] - p.x) < 1 and abs(xy[1] - p.y) < 3


PARTS = SCRIPT.replace("""\
      - cite: 再拜
        use: 再拜
""", """\
      - cite: 再拜
        use: 迎
""").replace("""\
stages:
""", """\
  迎:
    params: {who: actor}
    steps:
      - cite: 再拜
        do: [{posture: {who: $who, is: 拜, count: 2}}]
      - said: false
        do: [{face: {who: $who, dir: 北}}]
stages:
""")


def compiled(text, field, corpus):
    out = Collector()
    return compile_script(parse_script(text, field, corpus, "t.yaml"), field, out), out


def test_an_unsaid_move_comes_after_the_clause_s_moment(field, corpus):
    assert PARTS != SCRIPT
    tl, out = compiled(PARTS, field, corpus)
    assert not out.errors
    said = [s for s in tl.steps if s.cite == "再拜"]
    assert [s.said for s in said] == [True, False]
    m = resolve_moment(tl, corpus, after="再拜")
    assert m.t == pytest.approx(said[0].t1) and m.t < said[1].t1
    assert clause_order_faults(tl, corpus) == []


def test_a_clause_whose_moment_comes_after_an_unsaid_move_is_a_fault(field, corpus):
    """The bow said again after the unsaid turn: the clause's moment is past the turn."""
    text = PARTS.replace("""\
        do: [{face: {who: $who, dir: 北}}]
""", """\
        do: [{face: {who: $who, dir: 北}}]
      - do: [{posture: {who: $who, is: 拜}}]
""")
    assert text != PARTS
    tl, _ = compiled(text, field, corpus)
    faults = clause_order_faults(tl, corpus)
    assert [f.why for f in faults] == ["a move the text does not say"]
    assert "再拜" in faults[0].clause.text
    # check warns of it, at the step citing the clause
    (w,) = order_warnings(tl, corpus)
    assert w.loc.file == "t.yaml" and "a move the text does not say" in w.message
    assert order_warnings(compiled(PARTS, field, corpus)[0], corpus) == []


WALK = SCRIPT.replace("""\
      - cite: 主人以賔三揖
        dur: 1
        do:
          - move: {who: bin, to: {place: 門外, dx: 10}}
""", """\
      - cite: 主人以賔三揖 … 及階三譲
        use: 揖行
        with: {who: bin}
""").replace("""\
stages:
""", """\
  揖行:
    params: {who: actor}
    steps:
      - cite: 三揖
        do: [{posture: {who: $who, is: 揖}}]
      - cite: 三譲
        do: [{move: {who: $who, to: {place: 門外, dx: 10}}}]
stages:
""")


def test_a_pattern_step_s_cite_is_the_part_it_enacts(field, corpus):
    """A step citing two clauses, its pattern's steps each saying one: --after the first ends
    with the first part, and parts out of the text's order are a fault."""
    assert WALK != SCRIPT
    tl, out = compiled(WALK, field, corpus)
    assert not out.errors, out.errors
    parts = [s for s in tl.steps if s.pattern == "揖行"]
    assert len(parts) == 2 and parts[0].span[1] <= parts[1].span[0]
    m = resolve_moment(tl, corpus, after="主人以賔三揖")
    assert m.t == pytest.approx(parts[0].t1)
    assert clause_order_faults(tl, corpus) == []
    swapped = WALK.replace("      - cite: 三揖\n", "      - cite: 三譲\n", 1).replace(
        "      - cite: 三譲\n        do: [{move", "      - cite: 三揖\n        do: [{move")
    assert swapped != WALK
    tl, _ = compiled(swapped, field, corpus)
    assert any("later clause" in f.why for f in clause_order_faults(tl, corpus))
