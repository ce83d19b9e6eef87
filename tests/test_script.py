"""Loading rite scripts: the model they become, and every kind of error, located."""
from __future__ import annotations

import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from viz.base.errors import InputError
from viz.model.script.reader import parse_script

GOOD = textwrap.dedent("""\
    rite: test
    cast:
      - {id: zhuren, name: 主人, party: 主, label: 主}
      - {id: bin, name: 賔, party: 賓, label: 賔}
    props:
      - {id: jue, name: 爵, kind: 爵, at: 上篚}
    patterns:
      再拜:
        params: {who: actors, count: {type: int, default: 2}}
        steps:
          - do: [{posture: {who: $who, is: 拜, count: $count}}]
    stages:
      - name: 迎賔
        setup:
          - {who: zhuren, at: 門內, face: 南}
        steps:
          - cite: 主人一相出迎於門外
            do:
              - move: {who: zhuren, to: 門外, face: 西}
          - cite: 再拜
            use: 再拜
            with: {who: zhuren}
          - cite: 賓荅再拜
            use: 再拜
            with: {who: bin, count: 2}
    """)


def loc_of(text: str, anchor: str) -> str:
    """line:column (1-based) of the first occurrence of anchor: where an error must point."""
    i = text.index(anchor)
    line = text.count("\n", 0, i) + 1
    return f"{line}:{i - (text.rfind(chr(10), 0, i) + 1) + 1}"


def errors(text: str, field, corpus) -> list[str]:
    with pytest.raises(InputError) as e:
        parse_script(text, field, corpus, "s.yaml")
    return [str(p) for p in e.value.problems]


def test_good_script_model(field, corpus):
    s = parse_script(GOOD, field, corpus, "s.yaml")
    assert [a.id for a in s.cast] == ["zhuren", "bin"]
    steps = s.stages[0].steps
    assert [st.pattern for st in steps] == ["", "再拜", "再拜"]
    # the pattern's action takes the caller's arguments
    assert steps[2].actions[0].args["who"] == ("bin",)
    assert steps[2].actions[0].args["count"] == 2.0
    # cites resolve in reading order inside the stage's section; 荅/答 and 賓/賔 count equal
    a, b, c = (st.span for st in steps)
    assert a[0] < b[0] < c[0]
    assert corpus.plain[c[0]:c[1]] == "賔答再拜"


def test_yaml_syntax_error_is_located(field, corpus):
    assert errors("cast: [1, 2\nstages: []\n", field, corpus)[0].startswith("s.yaml:2:")


@pytest.mark.parametrize("old,new,where,message", [  # meaning, checked by our own code
    ("to: 門外", "to: 門口", "門口", "unknown place '門口'"),
    ("who: zhuren, to", "who: zhuen, to", "zhuen", "unknown actor 'zhuen'; did you mean zhuren"),
    ("use: 再拜\n        with: {who: zhuren}", "use: 三拜\n        with: {who: zhuren}",
     "三拜", "unknown pattern '三拜'"),
    ("cite: 再拜\n", "cite: 再拜再拜再拜\n", "再拜再拜再拜", "cite not found in the text: '再拜再拜再拜'"),
    ("with: {who: bin, count: 2}", "with: {who: bin, count: two}", "two",
     "parameter 'count' of pattern '再拜': expected a whole number, found 'two'"),
    ("with: {who: bin, count: 2}", "with: {who: bin, times: 2}", "times",
     "pattern '再拜' has no parameter 'times'"),
    ("with: {who: bin, count: 2}", "with: {count: 2}", "{count: 2}", "needs parameter 'who'"),
    ("- {id: bin, name", "- {id: zhuren, name", "zhuren, name: 賔", "actor id 'zhuren' used twice"),
    ("at: 上篚}", "at: 上匪}", "上匪", "unknown place '上匪'"),
    ("face: 西}", "face: 西}\n          - take: {who: zhuren, prop: jiao}", "jiao",
     "unknown prop 'jiao'"),
    ("- name: 迎賔", "- name: 迎客", "迎客", "no section of the text is named '迎客'"),
    ("face: 西}", "face: 西, formation: 西面西上}", "西面西上", "senior end must lie across"),
    ("is: 拜, count: $count", "is: 拜, count: $cnt", "$cnt}", "uses $cnt, which is not among"),
    # structure, checked by the JSON Schema
    ("rite: test", "rite: test\nsettings: {walk_speed: fast}", "fast", "'fast' is not of type"),
    ("face: 西}", "face: 西, fly: yes}", "fly", "unexpected key 'fly'"),
    ("- move:", "- jump:", "jump", "unexpected key"),
    ("party: 主, label", "party: 王, label", "王", "'王' is not one of"),
    ("stages:", "stagez:", "rite", "'stages' is a required property"),
    ("face: 南}", "face: 前}", "前", "does not match"),
])
def test_errors_are_located(field, corpus, old, new, where, message):
    """Each damage gives an error at the exact line and column of the damaged words."""
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    got = errors(text, field, corpus)
    assert any(e.startswith(f"s.yaml:{loc_of(text, where)}: ") and message in e for e in got), got


def test_all_problems_reported_at_once(field, corpus):
    bad = GOOD.replace("to: 門外", "to: 門口").replace("who: zhuren}", "who: nobody}")
    got = errors(bad, field, corpus)
    assert len(got) == 2


def test_pattern_that_uses_itself_is_an_error(field, corpus):
    bad = GOOD.replace("- do: [{posture: {who: $who, is: 拜, count: $count}}]",
                       "- use: 再拜\n        with: {who: $who}")
    assert bad != GOOD
    got = errors(bad, field, corpus)
    where = loc_of(bad, "再拜\n        with: {who: $who}")
    assert got == [f"s.yaml:{where}: pattern '再拜' uses itself: 再拜 → 再拜"]


def test_cite_outside_section_is_a_warning(field, corpus):
    s = parse_script(GOOD.replace("cite: 再拜\n", "cite: 主人戒賔\n"), field, corpus, "s.yaml")
    assert any("not in this stage's section" in str(w) for w in s.warnings)


scalars = st.one_of(st.integers(-5, 5), st.text(min_size=0, max_size=4), st.none(),
                    st.booleans(), st.just("[1, {"), st.just("{x: 1}"))


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=st.integers(0, GOOD.count("\n") - 1), junk=scalars)
def test_any_damaged_script_gives_located_errors_or_loads(field, corpus, line, junk):
    """Replace the value after a colon on one line by junk: never a traceback."""
    lines = GOOD.split("\n")
    if ": " not in lines[line]:
        return
    head = lines[line].rsplit(": ", 1)[0]
    lines[line] = f"{head}: {junk}"
    try:
        parse_script("\n".join(lines), field, corpus, "s.yaml")
    except InputError as e:
        for p in e.problems:
            assert p.loc.file == "s.yaml" and 1 <= p.loc.line <= len(lines) + 1


@pytest.mark.parametrize(("ptype", "default", "message"), [
    ("place", "阼階外", "unknown place '阼階外'"),
    ("actor", "nobody", "unknown actor 'nobody'"),
    ("int", "two", "parameter 'n' of pattern '未用': expected a whole number, found 'two'"),
])
def test_a_default_no_call_uses_is_checked_where_it_is_written(field, corpus, ptype, default,
                                                              message):
    """A declared type is a promise: a pattern's default is checked though nothing uses it."""
    text = GOOD.replace("\nstages:\n", f"\n  未用:\n    params: {{n: {{type: {ptype}, "
                                        f"default: {default}}}}}\n    steps: [{{do: [{{posture: "
                                        "{who: zhuren, is: 揖}}]}]\nstages:\n")
    assert "未用" in text
    got = errors(text, field, corpus)
    assert len(got) == 1 and got[0].startswith(f"s.yaml:{loc_of(text, default + '}}')}: ")
    assert message in got[0]
