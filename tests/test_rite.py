"""The rite as a folder, the classes of bad input found by trying, readings that run, and the
docs that must name every verb and key a script may use."""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_script import GOOD, errors, loc_of

from viz import DEFAULT_LAYOUT, DEFAULT_SCRIPT
from viz.base.errors import InputError
from viz.model.compile.compiler import compile_script
from viz.model.rite import Rite
from viz.model.schema import DOCS_PATH, SCHEMA_PATH, docs_with_table, schema_text, script_schema
from viz.model.script.reader import load_script, parse_script
from viz.model.verbs import REGISTRY

# A guard against a runaway (a refusal that reads on, recursion without end), not a speed
# measure: speed is measured in bench/. Generous, so a loaded machine does not fail it.
RUNAWAY = 20.0


@pytest.fixture
def rite(small_rite) -> Path:
    """A copy of the bundled rite folder to damage, its manifest trimmed to sections 01–05."""
    return small_rite()


@pytest.fixture(scope="module")
def layout():
    from viz.model.layout import load_layout

    return load_layout(DEFAULT_LAYOUT)


@pytest.mark.slow
def test_the_bundled_rite_is_a_folder_of_sections(layout, corpus, bundled):
    s = bundled.script  # the folder DEFAULT_SCRIPT's
    names = [Path(f).name for f in s.files]
    assert names[:2] == ["manifest.yaml", "cast.yaml"]
    stages = [st.name for st in s.stages]
    assert len(stages) == 37 and stages[0] == "戒賔" and stages[-1] == "息司正"
    assert stages[4] == "迎賔" and "誘射" in stages
    # the manifest and the folder name the same rite
    m = load_script(DEFAULT_SCRIPT / "manifest.yaml", layout, corpus)
    assert [st.name for st in m.stages] == [st.name for st in s.stages]


def test_an_error_names_the_section_file_and_line(rite, layout, corpus):
    f = rite / "sections" / "05-迎賔.yaml"
    text = f.read_text(encoding="utf-8")
    assert "to: 門外西, face: 東}" in text
    text = text.replace("to: 門外西, face: 東}", "to: 門外臺, face: 東}", 1)
    f.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_script(rite, layout, corpus)
    [p] = e.value.problems
    assert str(p).startswith(f"{f}:{loc_of(text, '門外臺')}: unknown place '門外臺'")


def test_manifest_mistakes_are_located(rite, layout, corpus):
    man = rite / "manifest.yaml"
    text = man.read_text(encoding="utf-8")
    assert "sections/05-迎賔.yaml" in text
    text = text.replace("sections/05-迎賔.yaml", "sections/05-迎.yaml")
    man.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_script(rite, layout, corpus)
    assert str(e.value.problems[0]).startswith(f"{man}:{loc_of(text, 'sections/05-迎.yaml')}: "
                                               "no file sections/05-迎.yaml")


def test_a_pattern_defined_in_two_files_is_an_error(rite, layout, corpus):
    (rite / "patterns" / "設2.yaml").write_text("patterns:\n  就而設:\n    steps:\n      - do: "
                                               "[{wait: {dur: 1}}]\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_script(rite, layout, corpus)
    assert any(str(p).startswith(f"{rite / 'patterns' / '設2.yaml'}:2:3: pattern '就而設' is "
                                 "defined twice") for p in e.value.problems)


def test_a_one_file_script_still_loads(field, corpus):
    assert [st.name for st in parse_script(GOOD, field, corpus, "s.yaml").stages] == ["迎賔"]


@pytest.mark.parametrize("old,new,where,message", [
    # values the schema allows but the compiler cannot take
    ("face: 西}", "face: 西, speed: 0}", "0}", "speed: expected a number > 0"),
    ("- cite: 主人一相出迎於門外\n", "- cite: 主人一相出迎於門外\n        dur: $dur\n", "$dur",
     "$dur is a pattern parameter"),
    ("face: 西}", "formation: $form}", "$form", "$form is a pattern parameter"),
    ("face: 西}", "face: 西, spacing: $s}", "$s}", "$s is a pattern parameter"),
    ("to: 門外", "to: {place: 門外, dist: $d, side: 南}", "$d", "$d is a pattern parameter"),
    ("- cite: 主人一相出迎於門外\n", "- cite: 主人一相出迎於門外\n        dur: -6\n", "-6",
     "dur: expected a number ≥ 0, found -6"),
    ("- cite: 主人一相出迎於門外\n", "- cite: 主人一相出迎於門外\n        dur: .nan\n", ".nan",
     "expected a finite number"),
    ("with: {who: bin, count: 2}", "with: {who: bin, count: 0}", "$count}",
     "count: expected a whole number from 1 to 9, found 0 (in pattern '再拜', used at s.yaml:23:9)"),
    ("to: 門外", "to: {place: 門外, dx: 1.0e+9}", "1.0e+9", "dx: expected at most 2000"),
    # wrong place: the key, not the step
    ("to: 門外", "to: {place: 門外, sid: 南}", "sid", "unexpected key 'sid'"),
    ("use: 再拜\n        with: {who: zhuren}", "use: 再拜\n        do: [{wait: {dur: 1}}]\n"
     "        with: {who: zhuren}", "do: [{wait", "a step takes do: or use:, not both"),
])
def test_bad_values_are_located_errors(field, corpus, old, new, where, message):
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    got = errors(text, field, corpus)
    assert any(e.startswith(f"s.yaml:{loc_of(text, where)}: ") and message in e for e in got), got


def test_a_long_cite_is_not_echoed_in_full(field, corpus):
    text = GOOD.replace("cite: 再拜\n", f"cite: {'再' * 200_000}\n", 1)
    got = errors(text, field, corpus)
    assert got and max(len(e) for e in got) < 400


def test_patterns_using_each_other_give_one_error_each_quickly(field, corpus):
    pats = "".join(f"  p{i}:\n    steps:\n      - use: p{i}\n      - use: p{i}\n      - use: p{i}\n"
                   for i in range(3))
    text = GOOD.replace("patterns:\n", "patterns:\n" + pats, 1).replace(
        "use: 再拜\n        with: {who: zhuren}", "use: p0", 1)
    t = time.perf_counter()
    got = errors(text, field, corpus)
    assert time.perf_counter() - t < RUNAWAY
    assert len(got) == 3 and all("uses itself: p" in e for e in got)


def test_stages_follow_on_setup_needs_a_gap(field, corpus):
    second = ("  - name: 獻賔\n"
              "    setup:\n"
              "      - {who: zhuren, at: 阼階上, face: 西}\n"
              "    steps:\n"
              "      - cite: 主人坐取爵于篚\n"
              "        do: [{wait: {dur: 1}}]\n")
    text = GOOD + second
    got = errors(text, field, corpus)
    where = loc_of(text, "setup:\n      - {who: zhuren, at: 阼")
    assert any(e.startswith(f"s.yaml:{where}") and "setup: is allowed only where" in e
               for e in got), got
    wrong = text.replace("    setup:\n      - {who: zhuren, at: 阼",
                         "    gap: {skips: 6-8}\n    setup:\n      - {who: zhuren, at: 阼")
    got = errors(wrong, field, corpus)
    assert any("gap skips 6–8, but the sections between this stage and the one before are none"
               in e for e in got), got


def test_an_unsaid_gap_and_a_second_stage_of_one_name_are_warned_of(field, corpus):
    more = "  - name: 誘射\n    steps:\n      - cite: 誘射\n        do: [{wait: {dur: 1}}]\n"
    s = parse_script(GOOD + more + more, field, corpus, "s.yaml")
    msgs = [w.message for w in s.warnings]
    assert any("sections 6–16 come between" in m for m in msgs)
    assert any("a second stage named '誘射'" in m for m in msgs)


def test_a_cite_behind_the_previous_one_is_warned_of(field, corpus):
    text = GOOD.replace("cite: 賓荅再拜", "cite: 主人一相出迎於門外")
    s = parse_script(text, field, corpus, "s.yaml")
    assert any("found only before the previous step's words" in w.message for w in s.warnings)


READING = GOOD.replace("""      - cite: 主人一相出迎於門外
        do:
          - move: {who: zhuren, to: 門外, face: 西}""", """      - cite: 主人一相出迎於門外
        variants:
          - reading: 敖繼公
            note: he goes further out
            do:
              - move: {who: zhuren, to: {place: 門外, dy: -5}, face: 西}
        do:
          - move: {who: zhuren, to: 門外, face: 西}""")


def test_a_variant_with_actions_runs_under_its_reading(field, corpus):
    assert READING != GOOD
    plain = compile_script(parse_script(READING, field, corpus, "s.yaml"), field)
    ao_script = parse_script(READING, field, corpus, "s.yaml", readings=("敖",))
    ao = compile_script(ao_script, field)
    a = plain.actor_index["zhuren"]
    assert plain.sample(plain.steps[0].t1, True).xy[a] == pytest.approx([0, -100])
    assert ao.sample(ao.steps[0].t1, True).xy[a] == pytest.approx([0, -105])
    assert ao.steps[0].reading == "敖繼公" and plain.steps[0].reading == "鄭"
    assert ao_script.readings == ("敖繼公",)


@pytest.mark.slow
def test_a_model_per_reading_is_built_once(tmp_path):
    m = Rite(DEFAULT_SCRIPT, DEFAULT_LAYOUT)
    a, b = m.get(), m.get(("敖",))
    assert m.get() is a and m.get(("敖",)) is b and a is not b
    i = a.timeline.actor_index["sishe"]
    end = a.timeline.duration
    # 敖: the 物 under 5 尺 apart, so the 司射 at the 左物 stands elsewhere
    t = a.timeline.steps[next(s.index for s in a.timeline.steps if s.cite == "及物揖")].t1
    assert a.timeline.sample(t, True).xy[i][0] != pytest.approx(b.timeline.sample(t, True).xy[i][0])
    assert end > 0
    with pytest.raises(InputError, match="no file knows the reading '朱'; known: 鄭、敖繼公"):
        m.get(("朱",))


@pytest.mark.slow
def test_the_bundled_rite_is_clean_under_strict(capsys):
    from viz.cli.main import main

    assert main(["check", "--strict"]) == 0
    assert "0 warnings" in capsys.readouterr().out


# ---------------------------------------------------------------- damage, then load and compile

DAMAGE = st.one_of(st.integers(-1000, 1000), st.floats(allow_nan=True, allow_infinity=True),
                   st.text(max_size=4), st.none(), st.booleans(), st.just("[1, {"),
                   st.just("{x: 1}"), st.just("$x"), st.just("{place: 洗, dx: .inf}"),
                   st.just("[zhuren, zhuren]"), st.just("{actor: nobody}"), st.just("由楹内"))
FILES = ["cast.yaml", "patterns/設.yaml", "patterns/射.yaml",
         "sections/01-戒賔.yaml", "sections/02-設席陳器.yaml", "sections/05-迎賔.yaml",
         "manifest.yaml"]


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(which=st.sampled_from(FILES), line=st.integers(0, 400), junk=DAMAGE)
def test_any_damaged_rite_loads_compiles_or_gives_located_errors(small_rite, tmp_path_factory,
                                                                  which, line, junk):
    """Replace the value after a colon on one line of one file: the rite loads and compiles, or
    every problem is located in one of its files; never a traceback. The rite is the bundled one
    cut down to sections 01–05 (so that each example compiles in a moment), copied afresh to the
    same place each time (the files not damaged are parsed once)."""
    rite = small_rite(dst=tmp_path_factory.getbasetemp() / "damaged" / "xiangshe")
    f = rite / which
    lines = f.read_text(encoding="utf-8").split("\n")
    line %= len(lines)
    if ": " not in lines[line]:
        return
    head = lines[line].rsplit(": ", 1)[0]
    lines[line] = f"{head}: {junk}"
    f.write_text("\n".join(lines), encoding="utf-8")
    try:
        d = Rite(rite, DEFAULT_LAYOUT).get()
        assert d.timeline.duration > 0
    except InputError as e:
        files = {str(p) for p in rite.rglob("*.yaml")}
        for p in e.problems:
            assert p.loc.file in files and 1 <= p.loc.line <= len(lines) + 1, str(p)


# ---------------------------------------------------------------- the docs and the schema

def _keys(node, out: set[str]) -> set[str]:
    if isinstance(node, dict):
        for k, v in node.get("properties", {}).items():
            out.add(k)
            _keys(v, out)
        for v in node.values():
            if isinstance(v, (dict, list)):
                _keys(v, out)
    elif isinstance(node, list):
        for v in node:
            _keys(v, out)
    return out


def test_the_docs_name_every_verb_and_key_a_script_may_use():
    docs = DOCS_PATH.read_text(encoding="utf-8")
    named = set(re.findall(r"`([^`\s:]+)[:`]", docs)) | set(re.findall(r"\b(\w+):", docs))
    missing = sorted(k for k in _keys(script_schema(), set()) if k not in named)
    assert not missing, f"docs/SCRIPT.md never names: {missing}"
    for verb in REGISTRY:
        assert f"| `{verb}` |" in docs, verb


def test_the_generated_schema_and_verb_table_are_fresh():
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text(), "run python -m viz.model.schema --write"
    docs = DOCS_PATH.read_text(encoding="utf-8")
    assert docs_with_table(docs) == docs, "run python -m viz.model.schema --write"
