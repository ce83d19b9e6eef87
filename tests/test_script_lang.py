"""The script language's reuse (issue 20): pattern libraries, optional parts, per-member values,
stages like others, and out-of-order enactment. Small toy rites in tmp folders."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from viz.base.errors import InputError
from viz.model.script.nodes import direction
from viz.model.script.reader import load_script

CAST = """\
    cast:
      - {id: zhuren, name: 主人, party: 主, label: 主}
      - {id: bin, name: 賔, party: 賓, label: 賔}
      - {id: jie, name: 介, party: 賓, label: 介}
    props:
      - {id: jue, name: 爵, kind: 爵, at: 上篚}
    """
LIB = """\
    patterns:
      再拜:
        doc: the library's
        params: {who: actors, count: {type: int, default: 2}}
        steps:
          - do: [{posture: {who: $who, is: 拜, count: $count}}]
      揖:
        params: {who: actors}
        steps:
          - do: [{posture: {who: $who, is: 揖}}]
    """
STAGE = """\
    name: 迎賔
    setup:
      - {who: [zhuren, bin, jie], at: 門內, face: 南, formation: 南面東上}
    steps:
      - cite: 再拜
        use: 再拜
        with: {who: zhuren}
      - cite: 主人揖
        use: 揖
        with: {who: bin}
    """


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text), encoding="utf-8")
    return root / "rite"


def manifest(patterns: str) -> str:
    return (f"rite: toy\ncast: cast.yaml\npatterns: {patterns}\n"
            "sections: [sections/01.yaml]\n")


def toy(tmp_path: Path, patterns: str = "[lib, patterns]", own: str | None = None,
        stage: str = STAGE, lib: str = LIB) -> Path:
    files = {"rite/lib/飲酒.yaml": lib, "rite/manifest.yaml": manifest(patterns),
             "rite/cast.yaml": CAST, "rite/sections/01.yaml": stage}
    if own is not None:
        files["rite/patterns/own.yaml"] = own
    return write(tmp_path, files)


def postures(script) -> list[tuple]:
    return [(a.verb, a.args.get("who"), a.args.get("count")) for st in script.stages
            for s in st.steps for a in s.actions]


def messages(e: pytest.ExceptionInfo) -> list[str]:
    return [str(p) for p in e.value.problems]


# ---------------------------------------------------------------- (1) patterns: a list


def test_a_library_folder_and_the_rites_own_folder(tmp_path, field, corpus):
    own = """\
        patterns:
          拜送:
            params: {who: actor}
            steps:
              - use: 再拜
                with: {who: $who, count: 1}
        """
    s = load_script(toy(tmp_path, own=own), field, corpus)
    assert postures(s) == [("posture", ("zhuren",), 2), ("posture", ("bin",), None)]
    assert not [w for w in s.warnings if "overrides" in w.message]


def test_a_rite_overriding_a_library_pattern_is_warned_where_it_does(tmp_path, field, corpus):
    own = """\
        patterns:
          再拜:
            params: {who: actors, count: {type: int, default: 3}}
            steps:
              - do: [{posture: {who: $who, is: 拜, count: $count}}]
        """
    s = load_script(toy(tmp_path, own=own), field, corpus)
    assert postures(s)[0] == ("posture", ("zhuren",), 3)  # the rite's own is used
    over = [str(w) for w in s.warnings if "overrides" in w.message]
    assert len(over) == 1
    assert over[0].startswith(f"{tmp_path / 'rite/patterns/own.yaml'}:2:3: warning: pattern "
                              "'再拜' overrides the one at ")
    assert f"{tmp_path / 'rite/lib/飲酒.yaml'}:2:3" in over[0]


def test_a_pattern_twice_in_one_entry_is_still_an_error(tmp_path, field, corpus):
    folder = toy(tmp_path, patterns="[lib]")
    (tmp_path / "rite/lib/more.yaml").write_text("patterns:\n  揖:\n    steps:\n      - do: "
                                            "[{wait: {dur: 1}}]\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_script(folder, field, corpus)
    # files of a folder are read in name order: more.yaml before 飲酒.yaml
    assert messages(e) == [f"{tmp_path / 'rite/lib/飲酒.yaml'}:7:3: pattern '揖' is defined twice "
                           f"(first at {tmp_path / 'rite/lib/more.yaml'}:2:3)"]


def test_a_missing_library_is_located_in_the_manifest(tmp_path, field, corpus):
    with pytest.raises(InputError) as e:
        load_script(toy(tmp_path, patterns="[nolib, patterns]", own=LIB), field, corpus)
    assert messages(e)[0].startswith(f"{tmp_path / 'rite/manifest.yaml'}:3:12: patterns: no "
                                     "file or folder 'nolib' in the rite's folder")


# ---------------------------------------------------------------- (2) when: on a parameter

TASTE = """\
    patterns:
      受獻:
        doc: receive the cup; the 介 does not taste (不嚌肺不啐酒)
        params:
          who: actor
          taste: {type: flag, default: true, doc: 嚌肺啐酒}
          helper: {type: actor, default: null, doc: "one who hands the cup, if any"}
        steps:
          - do: [{posture: {who: $who, is: 拜, count: 1}}]
          - when: $taste
            do: [{posture: {who: $who, is: 坐}}, {posture: {who: $who, is: 興}}]
          - when: $helper
            do: [{posture: {who: $helper, is: 揖}}]
          - when: not $taste
            do: [{wait: {dur: 2, who: $who}}]
    """


def taste_stage(withs: list[str]) -> str:
    steps = "".join(f"      - cite: 再拜\n        use: 受獻\n        with: {w}\n" for w in withs)
    return ("name: 迎賔\nsetup:\n  - {who: [zhuren, bin, jie], at: 門內, face: 南, "
            "formation: 南面東上}\nsteps:\n" + textwrap.indent(steps, "") .replace("      -", "  -")
            .replace("        ", "    "))


@pytest.mark.parametrize("withs, verbs", [
    (["{who: bin}"], ["拜", "坐", "興"]),
    (["{who: jie, taste: false}"], ["拜", "wait"]),
    (["{who: jie, taste: false, helper: zhuren}"], ["拜", "揖", "wait"]),
])
def test_optional_parts_follow_their_parameters(tmp_path, field, corpus, withs, verbs):
    s = load_script(toy(tmp_path, patterns="[lib]", lib=TASTE, stage=taste_stage(withs)),
                    field, corpus)
    got = [a.args.get("is", a.verb) for st in s.stages for step in st.steps for a in step.actions]
    assert got == verbs


def test_a_flag_takes_true_or_false(tmp_path, field, corpus):
    folder = toy(tmp_path, patterns="[lib]", lib=TASTE,
                 stage=taste_stage(["{who: jie, taste: 0}"]))
    with pytest.raises(InputError) as e:
        load_script(folder, field, corpus)
    text = (folder / "sections/01.yaml").read_text(encoding="utf-8")
    line = text[:text.index("taste: 0")].count("\n") + 1
    col = text.split("\n")[line - 1].index("0") + 1
    assert messages(e) == [f"{folder / 'sections/01.yaml'}:{line}:{col}: parameter 'taste' of "
                           "pattern '受獻': expected true or false, found 0"]


def test_when_on_an_undeclared_parameter_is_located(tmp_path, field, corpus):
    lib = TASTE.replace("when: not $taste", "when: not $tasted")
    with pytest.raises(InputError) as e:
        load_script(toy(tmp_path, patterns="[lib]", lib=lib,
                        stage=taste_stage(["{who: bin}"])), field, corpus)
    assert messages(e) == [f"{tmp_path / 'rite/lib/飲酒.yaml'}:14:15: pattern '受獻' uses $tasted, "
                           "which is not among its params (helper, taste, who)"]


# ---------------------------------------------------------------- (3) each: per-member values

EACH_CAST = """\
    cast:
      - {id: zhuren, name: 主人, party: 主, label: 主}
      - {id: z1, name: 衆賔, party: 賓, label: 衆1}
      - {id: z2, name: 衆賔, party: 賓, label: 衆2}
      - {id: z3, name: 衆賔, party: 賓, label: 衆3, when: 衆賔>=3}
    scenario:
      衆賔: {default: 3, min: 2, max: 3, doc: how many}
    groups:
      衆賔: [z1, z2, z3]
    """


def each_stage(values: str) -> str:
    return textwrap.dedent(f"""\
        name: 迎賔
        setup:
          - {{who: [zhuren, z1, z2, z3], at: 門內, face: 南, formation: 南面東上}}
        steps:
          - cite: 再拜
            each: {{group: 衆賔, values: {values}}}
            do:
              - move: {{who: $each, to: {{place: 洗, dx: $dx}}, face: $face}}
        """)


def each_moves(tmp_path, field, corpus, values: str, sets=()) -> list[tuple]:
    folder = write(tmp_path, {"rite/manifest.yaml": "rite: toy\ncast: cast.yaml\n"
                                                    "sections: [sections/01.yaml]\n",
                              "rite/cast.yaml": EACH_CAST,
                              "rite/sections/01.yaml": each_stage(values)})
    s = load_script(folder, field, corpus, sets=sets)
    names = {direction(d): d for d in "南西北"}
    return [(a.args["who"][0], a.args["to"].dx, names[a.args["face"]]) for st in s.stages
            for step in st.steps for a in step.actions]


@pytest.mark.parametrize("values", [
    "{dx: '6 * ($i - 1)', face: [南, 西, 北]}",
    "{dx: {z1: 0, z2: 6, z3: 12}, face: {z1: 南, z2: 西, z3: 北}}",
])
def test_each_member_takes_its_own_values(tmp_path, field, corpus, values):
    assert each_moves(tmp_path, field, corpus, values) == [("z1", 0, "南"), ("z2", 6, "西"),
                                                           ("z3", 12, "北")]


def test_values_follow_the_members_the_scenario_casts(tmp_path, field, corpus):
    got = each_moves(tmp_path, field, corpus, "{dx: '$n - $i', face: [南, 西, 北]}",
                     sets=[("衆賔", "2")])
    assert got == [("z1", 1, "南"), ("z2", 0, "西")]


@pytest.mark.parametrize("values, message", [
    ("{dx: '6 * $j', face: 南}", "each: values: $dx: expected arithmetic on $i and $n "
                                 "(+ - * / // % and brackets), found 'j' in '6 * $j'"),
    ("{dx: [0, 6], face: 南}", "each: values: $dx has 2 values, but the group has 3 members "
                               "here"),
    ("{dx: {z1: 0, z2: 6}, face: 南}", "each: values: $dx has no value for 'z3'; it has z1, z2"),
    ("{dx: '1 / ($i - 1)', face: 南}", "each: values: $dx: division by zero in '1 / ($i - 1)'"),
])
def test_bad_values_are_located(tmp_path, field, corpus, values, message):
    with pytest.raises(InputError) as e:
        each_moves(tmp_path, field, corpus, values)
    path = tmp_path / "rite/sections/01.yaml"
    text = path.read_text(encoding="utf-8")
    line = text[:text.index("values:")].count("\n") + 1
    col = text.split("\n")[line - 1].index("{", text.split("\n")[line - 1].index("values:")) + 1
    assert messages(e) == [f"{path}:{line}:{col + 5}: {message}"]


# ---------------------------------------------------------------- (4) like: stages

LIKE_FIRST = """\
    name: 迎賔
    setup:
      - {who: [zhuren, bin, jie], at: 門內, face: 南, formation: 南面東上}
    steps:
      - cite: 主人一相出迎於門外
        do: [{move: {who: zhuren, to: 門外, face: 西}}]
      - cite: 再拜
        use: 再拜
        with: {who: bin}
      - cite: 賔荅再拜
        do: [{move: {who: bin, to: 西階下, face: 東}}]
    """


def like_rite(tmp_path: Path, like: str, second_name: str = "迎賔") -> Path:
    return write(tmp_path, {
        "rite/lib/飲酒.yaml": LIB,
        "rite/manifest.yaml": "rite: toy\ncast: cast.yaml\npatterns: [lib]\n"
                              "sections: [sections/01.yaml, sections/02.yaml]\n",
        "rite/cast.yaml": CAST,
        "rite/sections/01.yaml": LIKE_FIRST,
        "rite/sections/02.yaml": f"name: {second_name}\nsection: 迎賔\n{like}"})


def acts(stage) -> list[tuple]:
    return [(s.cite, a.verb, a.args.get("who"), getattr(a.args.get("to"), "place", None))
            for s in stage.steps for a in s.actions]


def test_a_stage_like_another_with_actors_places_and_cites_rebound(tmp_path, field, corpus):
    folder = like_rite(tmp_path, textwrap.dedent("""\
        like:
          stage: 迎賔
          actors: {bin: jie}
          places: {西階下: 阼階下}
          cites: {賔: 主人}
          steps: {1: null}
        steps:
          - cite: 主人揖
            use: 揖
            with: {who: zhuren}
        """))
    s = load_script(folder, field, corpus)
    assert acts(s.stages[1]) == [("再拜", "posture", ("jie",), None),
                                 ("主人荅再拜", "move", ("jie",), "阼階下"),
                                 ("主人揖", "posture", ("zhuren",), None)]
    assert acts(s.stages[0])[1:] == [("再拜", "posture", ("bin",), None),
                                     ("賔荅再拜", "move", ("bin",), "西階下")]


def test_like_overrides_a_step(tmp_path, field, corpus):
    folder = like_rite(tmp_path, textwrap.dedent("""\
        like:
          stage: 迎賔
          steps:
            2:
              cite: 再拜
              do: [{wait: {dur: 1}}]
        """))
    s = load_script(folder, field, corpus)
    assert [a.verb for st in s.stages[1].steps for a in st.actions] == ["move", "wait", "move"]


def test_like_drops_a_range_of_steps(tmp_path, field, corpus):
    folder = like_rite(tmp_path, 'like: {stage: 迎賔, steps: {"2-3": null}}\n')
    s = load_script(folder, field, corpus)
    assert [st.cite for st in s.stages[1].steps] == ["主人一相出迎於門外"]


def test_like_a_stage_of_another_rite(tmp_path, field, corpus):
    like_rite(tmp_path / "b/rite/a", "like: 迎賔\n")  # inside the package: it reads nothing out
    other = write(tmp_path / "b", {
        "rite/manifest.yaml": "rite: other\ncast: cast.yaml\npatterns: [lib]\n"
                              "sections: [sections/01.yaml]\n",
        "rite/cast.yaml": CAST, "rite/lib/飲酒.yaml": LIB,
        "rite/sections/01.yaml": textwrap.dedent("""\
            name: 迎賔
            setup:
              - {who: [zhuren, bin, jie], at: 門內, face: 南, formation: 南面東上}
            like: {stage: 迎賔, rite: a/rite, actors: {bin: jie}}
            """)})
    s = load_script(other, field, corpus)
    assert [a[2] for a in acts(s.stages[0])] == [("zhuren",), ("jie",), ("jie",)]
    assert str(tmp_path / "b/rite/a/rite/sections/01.yaml") in s.files


@pytest.mark.parametrize("like, anchor, message", [
    ("like: 獻賔\n", "獻賔", "like: no stage '獻賔' earlier in this rite; known: 迎賔"),
    ("like: {stage: 迎賔, steps: {4: null}}\n", "4: null",
     "like: steps: 4 is not a step of '迎賔' nor a range of them like 2-5 (1 to 3)"),
    ("like: {stage: 迎賔, steps: {'2-4': null}}\n", "'2-4'",
     "like: steps: '2-4' is not a step of '迎賔' nor a range of them like 2-5 (1 to 3)"),
    ("like: {stage: 迎賔, steps: {'2-3': {cite: 再拜, use: 再拜, with: {who: bin}}}}\n", "'2-3'",
     "like: steps: a range ('2-3') only drops steps: its value must be null"),
    ("like: {stage: 迎賔, rite: nowhere}\n", "nowhere",
     "like: no rite 'nowhere' (a folder inside the rite's, a bundled rite's folder or its rite: "
     "name)"),
])
def test_bad_likes_are_located(tmp_path, field, corpus, like, anchor, message):
    folder = like_rite(tmp_path, like)
    with pytest.raises(InputError) as e:
        load_script(folder, field, corpus)
    text = (folder / "sections/02.yaml").read_text(encoding="utf-8")
    line = text[:text.index(anchor)].count("\n") + 1
    col = text.index(anchor) - text.rfind("\n", 0, text.index(anchor))
    assert messages(e) == [f"{folder / 'sections/02.yaml'}:{line}:{col}: {message}"]


# ---------------------------------------------------------------- (5) out of the text's order

def order_rite(tmp_path: Path, stages: list[str]) -> Path:
    names = [f"sections/{i + 1:02}.yaml" for i in range(len(stages))]
    return write(tmp_path, {"rite/manifest.yaml": "rite: toy\ncast: cast.yaml\npatterns: [lib]\n"
                                                  f"sections: [{', '.join(names)}]\n",
                            "rite/cast.yaml": CAST, "rite/lib/飲酒.yaml": LIB,
                            **{f"rite/{n}": t for n, t in zip(names, stages)}})


def greet(extra: str = "") -> str:
    return textwrap.dedent("""\
        name: 迎賔
        setup:
          - {who: [zhuren, bin, jie], at: 門內, face: 南, formation: 南面東上}
        steps:
          - cite: 主人一相出迎於門外
            do: [{move: {who: zhuren, to: 門外, face: 西}}]
        """) + textwrap.indent(textwrap.dedent(extra), "  ")


def sections_warned(script) -> list[str]:
    return [w.message for w in script.warnings if "section" in w.message or "text" in w.message]


def test_a_clause_of_another_section_enacted_where_the_rite_says(tmp_path, field, corpus):
    step = """\
        - cite: 賓出衆賓皆出
          do: [{move: {who: bin, to: 門外}}]
        """
    plain = load_script(order_rite(tmp_path / "a", [greet(step)]), field, corpus)
    assert [w for w in sections_warned(plain) if "not in this stage's section" in w]
    told = load_script(order_rite(tmp_path / "b", [greet(step.replace(
        "- cite: 賓出衆賓皆出", "- cite: 賓出衆賓皆出\n          section: 賓出"))]), field, corpus)
    assert sections_warned(told) == []
    span = told.stages[0].steps[1].span
    assert corpus.section_at(span[0]).name == "賓出"


def test_a_ji_is_cited_where_it_happens(tmp_path, field, corpus):
    step = """\
        - cite: 使能不宿戒
          do: [{posture: {who: zhuren, is: 揖}}]
        """
    s = load_script(order_rite(tmp_path, [greet(step)]), field, corpus)
    assert sections_warned(s) == []
    assert corpus.run_at(s.stages[0].steps[1].span[0]).kind == "記"


def test_a_steps_section_that_is_not_in_the_text_is_located(tmp_path, field, corpus):
    folder = order_rite(tmp_path, [greet("- cite: 賓出\n  section: 賔入\n  do: [{wait: {dur: 1}}]\n")])
    with pytest.raises(InputError) as e:
        load_script(folder, field, corpus)
    text = (folder / "sections/01.yaml").read_text(encoding="utf-8")
    line = text[:text.index("賔入")].count("\n") + 1
    assert messages(e) == [f"{folder / 'sections/01.yaml'}:{line}:14: no section of the text is "
                           "named '賔入'"]


OUT = """\
    name: 賓出
    out_of_order: played here to show it (a test)
    steps:
      - cite: 賓出衆賓皆出
        do: [{move: {who: bin, to: 門外}}]
    """
NEXT = """\
    name: 獻賔
    steps:
      - cite: 主人取爵於上篚以降
        do: [{move: {who: zhuren, to: 門內}}]
    """


def test_a_stage_out_of_order_breaks_no_sequence(tmp_path, field, corpus):
    s = load_script(order_rite(tmp_path / "a", [greet(), OUT, NEXT]), field, corpus)
    assert [st.name for st in s.stages] == ["迎賔", "賓出", "獻賔"]
    assert sections_warned(s) == []
    unsaid = load_script(order_rite(tmp_path / "b", [greet(), OUT.replace(
        "    out_of_order: played here to show it (a test)\n", ""), NEXT]), field, corpus)
    assert any("goes back in the text" in w for w in sections_warned(unsaid))


# ---------------------------------------------------------------- (6) the bundled library

def test_the_bundled_library_is_found_wherever_the_rite_is(tmp_path, corpus):
    from viz import DEFAULT_LAYOUT
    from viz.model.layout import load_layout

    folder = toy(tmp_path, patterns="[assets/patterns]", stage=STAGE.replace("use: 再拜", "use: 拜"))
    s = load_script(folder, load_layout(DEFAULT_LAYOUT), corpus)
    assert postures(s) == [("posture", ("zhuren",), 2), ("posture", ("bin",), None)]
    assert any(f.endswith("assets/patterns/禮.yaml") for f in s.files)


def test_the_library_names_no_rites_ids():
    """Everything by parameter: no cast id of the bundled rites appears in the library."""
    import re

    from viz import ASSETS
    ids = {m for f in (ASSETS / "rites").glob("*/**/*.yaml")
           for m in re.findall(r"\bid: ([A-Za-z_][A-Za-z0-9_]*)", f.read_text(encoding="utf-8"))}
    assert {"zhuren", "bin", "sizheng", "zhongbin1", "zan1"} <= ids
    for f in (ASSETS / "patterns").glob("*.yaml"):
        words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", f.read_text(encoding="utf-8")))
        assert not words & ids, f"{f.name} names {sorted(words & ids)}"


def test_the_docs_list_the_librarys_patterns():
    import re

    from viz import ASSETS, ROOT
    doc = (ROOT / "docs" / "SCRIPT.md").read_text(encoding="utf-8")
    for f in sorted((ASSETS / "patterns").glob("*.yaml")):
        names = re.findall(r"^  (\S+):$", f.read_text(encoding="utf-8"), re.M)
        assert f"| `{f.name}` | {' '.join(names)} |" in doc


def test_an_expect_takes_each_members_values(tmp_path, field, corpus):
    folder = write(tmp_path, {"rite/manifest.yaml": "rite: toy\ncast: cast.yaml\n"
                                                    "sections: [sections/01.yaml]\n",
                              "rite/cast.yaml": EACH_CAST,
                              "rite/sections/01.yaml": each_stage("{dx: '6 * $i', face: 南}") +
                              "    expect:\n      - {who: $each, at: {place: 洗, dx: $dx}}\n"})
    s = load_script(folder, field, corpus)
    got = [(e.who, e.at.dx) for st in s.stages for step in st.steps for e in step.expect]
    assert got == [(("z1",), 6), (("z2",), 12), (("z3",), 18)]
