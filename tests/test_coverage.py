"""`coverage`: which 經 and 記 clauses the script's steps cite, which a rule notes, which none."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from viz import DEFAULT_SCRIPT
from viz.base.yamlsrc import load_file
from viz.model.script.reader import parse_script
from viz.query.coverage import coverage, format_table, to_json

# a one-file script of 迎賔 (section 5): each step cites one clause, so removing one step leaves
# exactly its clause uncited
SCRIPT = textwrap.dedent("""\
    rite: test
    cast:
      - {id: zhuren, name: 主人, party: 主, label: 主}
      - {id: bin, name: 賔, party: 賓, label: 賔}
    stages:
      - name: 迎賔
        setup:
          - {who: zhuren, at: 門內, face: 南}
          - {who: bin, at: 門外, face: 東}
        steps:
          - cite: 主人一相出迎於門外
            do:
              - move: {who: zhuren, to: 門外, face: 西}
          - cite: 賔答再拜
            do:
              - posture: {who: bin, is: 拜, count: 2}
          - cite: 主人以賔揖先入
            do:
              - move: {who: zhuren, to: 門內}
    """)


def cov_of(text: str, field, corpus):
    return coverage(parse_script(text, field, corpus, "s.yaml"), corpus)


def clause(cov, cid: str):
    return next(c for s in cov.sections for c in s.clauses if c.id == cid)


def without(text: str, cite: str) -> str:
    """The script without the step citing `cite` (its lines up to the next step)."""
    lines = text.splitlines(keepends=True)
    i = next(n for n, ln in enumerate(lines) if ln.strip() == f"- cite: {cite}")
    j = next((n for n in range(i + 1, len(lines)) if lines[n].strip().startswith("- cite:")),
             len(lines))
    return "".join(lines[:i] + lines[j:])


def test_cited_clauses_name_their_steps(field, corpus):
    cov = cov_of(SCRIPT, field, corpus)
    assert [s.number for s in cov.sections] == list(range(1, 38))
    sec5 = cov.sections[4]
    assert sec5.scripted and sec5.stages[0][0] == "迎賔"
    assert not cov.sections[5].scripted
    for cid, line in (("05.01", 11), ("05.02", 14), ("05.04", 17)):
        c = clause(cov, cid)
        assert c.status == "cited", cid
        assert [(s.loc.file, s.loc.line) for s in c.steps] == [("s.yaml", line)]
    assert clause(cov, "05.03").status == "missing"   # 揖衆賔: no step
    # a section not scripted: every clause missing
    assert {c.status for c in cov.sections[5].clauses} == {"missing"}


def test_removing_the_citing_step_makes_the_clause_missing(field, corpus):
    assert clause(cov_of(SCRIPT, field, corpus), "05.02").status == "cited"
    cov = cov_of(without(SCRIPT, "賔答再拜"), field, corpus)
    assert clause(cov, "05.02").status == "missing"
    assert clause(cov, "05.02").steps == ()
    assert "05.02" in cov.missing("經")
    assert clause(cov, "05.01").status == clause(cov, "05.04").status == "cited"


def test_a_rule_notes_a_clause_with_its_reason(field, corpus):
    assert clause(cov_of(SCRIPT, field, corpus), "05.記1").status == "missing"
    text = SCRIPT + "    rules:\n      - {cite: 立者東靣北上, note: where the 衆賔 stand; not a move}\n"
    cov = cov_of(text, field, corpus)
    c = clause(cov, "05.記1")
    assert c.status == "noted"
    assert [r.note for r in c.rules] == ["where the 衆賔 stand; not a move"]
    assert "05.記1" not in cov.missing()
    assert "where the 衆賔 stand; not a move" in format_table(cov)
    # a step citing the clause wins over the rule: cited
    text = text.replace("      - cite: 主人以賔揖先入", "      - cite: 立者東靣北上\n"
                        "        do:\n          - move: {who: bin, to: 門內}\n"
                        "      - cite: 主人以賔揖先入")
    assert clause(cov_of(text, field, corpus), "05.記1").status == "cited"


def test_a_cite_over_several_clauses_cites_each(field, corpus):
    text = SCRIPT.replace("cite: 主人以賔揖先入", "cite: 主人以賔三揖皆行…主人升一等賔升")
    cov = cov_of(text, field, corpus)
    for cid in ("05.07", "05.08", "05.09"):
        assert clause(cov, cid).status == "cited", cid
    assert clause(cov, "05.10").status == "missing"


def test_a_cite_of_the_note_inside_a_clause_does_not_cite_it(field, corpus):
    # 06.01's span 主人取爵於上篚以降[將獻賔也]賔降 encloses a 注: citing the 注 is not the 經
    def stage(cite: str, where: str = "") -> str:
        return SCRIPT + textwrap.indent(textwrap.dedent(f"""\
            - name: 獻賔
              steps:
                - cite: {cite}{where}
                  do:
                    - move: {{who: zhuren, to: 阼階下}}
            """), "  ")

    c = corpus.clause("06.01")
    assert c.end - c.start > len(c.text)
    # (a cite of the 注 says so: issue 25, a cite is sought in the 經 and 記 unless in: 注)
    assert clause(cov_of(stage("將獻賔也", "\n" + " " * 18 + "in: 注"), field, corpus),
                  "06.01").status == "missing"
    assert clause(cov_of(stage("以降將獻賔也賔降"), field, corpus), "06.01").status == "cited"


def test_each_step_is_listed_once(field, corpus):
    text = SCRIPT.replace("cast:\n", "groups:\n  兩: [zhuren, bin]\npatterns:\n  拜:\n"
                          "    params: {who: actors}\n    steps:\n"
                          "      - do: [{posture: {who: $who, is: 拜, count: 2}}]\n"
                          "cast:\n").replace(
        "      - cite: 賔答再拜\n        do:\n"
        "          - posture: {who: bin, is: 拜, count: 2}\n",
        "      - cite: 賔答再拜\n        each: 兩\n        use: 拜\n"
        "        with: {who: $each}\n")
    s = parse_script(text, field, corpus, "s.yaml")
    assert sum(st.cite == "賔答再拜" for st in s.stages[0].steps) == 2
    c = clause(coverage(s, corpus), "05.02")
    assert len(c.steps) == 1


def test_json_and_table(field, corpus):
    cov = cov_of(SCRIPT, field, corpus)
    j = to_json(cov, "s.yaml", ())
    json.dumps(j, ensure_ascii=False)
    assert j["summary"]["sections"] == 37
    assert j["summary"]["scripted"] == [5]
    n5 = len(corpus.clauses_of(5, "經"))
    assert j["summary"]["scripted_經"]["total"] == n5
    assert j["summary"]["scripted_經"]["cited"] == 3
    assert j["summary"]["經"]["total"] == sum(1 for c in corpus.clauses if c.kind == "經")
    assert "05.03" in j["summary"]["經"]["missing"]
    sec = j["sections"][4]
    assert (sec["number"], sec["name"], sec["scripted"]) == (5, "迎賔", True)
    c = next(c for c in sec["clauses"] if c["id"] == "05.02")
    assert c["status"] == "cited" and c["kind"] == "經" and c["text"] == "賔答再拜"
    assert c["steps"] == [{"file": "s.yaml", "line": 14, "col": 9, "cite": "賔答再拜"}]
    table = format_table(cov)
    assert "§06 獻賔 — not scripted" in table
    assert any(ln.split()[:1] == ["05.03"] and "MISSING" in ln for ln in table.splitlines())
    assert f"經 cited 3/{j['summary']['經']['total']}" in table


def test_command(tmp_path, capsys):
    """The command over a one-file script on the bundled layout: JSON, table, --strict."""
    from viz.cli.main import main

    f = tmp_path / "s.yaml"
    f.write_text(SCRIPT, encoding="utf-8")
    assert main(["coverage", "--script", str(f), "--json"]) == 0
    j = json.loads(capsys.readouterr().out)
    assert j["summary"]["scripted_經"]["cited"] == 3
    assert main(["coverage", "--script", str(f)]) == 0
    assert "MISSING" in capsys.readouterr().out
    assert main(["coverage", "--script", str(f), "--strict"]) == 1


def manifest_sections() -> list[int]:
    """The sections the bundled manifest lists: each file's section: (or name:) in the text."""
    from viz.text import load_corpus

    corpus = load_corpus()
    man = load_file(Path(DEFAULT_SCRIPT) / "manifest.yaml")
    out = set()
    for rel in man["sections"]:
        doc = load_file(Path(DEFAULT_SCRIPT) / str(rel))
        sec = corpus.section_named(str(doc.get("section", doc["name"])))
        assert sec is not None, rel
        out.add(sec.index)
    return sorted(out)


@pytest.fixture(scope="module")
def bundled(bundled):
    d = bundled
    return d, coverage(d.script, d.corpus)


# 經 clauses that move nobody (無介, 不殺, a condition the default scenario does not meet …):
# the stage's rules: say so with the reason, as the shooting issue asks; every other 經 clause
# is enacted by a step. A clause joining this list is a decision to be made in review.
# 13.13–15 (the 大師's washing) were "cited" only by a cite running on to a 記 over them (review
# 2026-12-01, 13:196); they are the stage's rules.
NOTED_JING = {"01.06", "04.01", "13.13", "13.14", "13.15", "19.08", "19.09", "19.10", "22.19",
              "24.21", "30.02", "31.14", "32.12", "37.02", "37.03", "37.10", "37.11", "37.12",
              "37.13", "37.14"}


def test_bundled_rite_cites_every_jing_clause_of_its_sections(bundled):
    d, cov = bundled
    listed = manifest_sections()
    assert listed
    by_number = {s.number: s for s in cov.sections}
    missing = [f"{c.id} ({c.status}{': a rule at ' + str(c.rules[0].loc) if c.rules else ''})"
               for n in listed for c in by_number[n].clauses
               if c.kind == "經" and c.status != "cited"
               and not (c.status == "noted" and c.id in NOTED_JING)]
    assert not missing, f"經 clauses of the bundled rite's sections no step cites: {missing}"


@pytest.mark.slow  # the whole rite's coverage
def test_bundled_manifest_sections_are_enacted_and_rules_give_reasons(bundled):
    d, cov = bundled
    by_number = {s.number: s for s in cov.sections}
    for n in manifest_sections():
        assert by_number[n].scripted, f"§{n} is in the manifest but no stage enacts it"
    for stage in d.script.stages:
        for r in stage.rules:
            assert r.note, f"{r.loc}: a rule without its reason"


@pytest.mark.slow  # the whole rite's coverage
def test_bundled_check_fails_when_a_jing_clause_loses_its_steps(bundled):
    """The check above can fail: drop the steps citing one 經 clause and it is missing."""
    import dataclasses

    d, cov = bundled
    listed = manifest_sections()
    c = next(c for s in cov.sections if s.number in listed for c in s.clauses if c.kind == "經")
    gone = {(x.loc.file, x.loc.line, x.loc.col) for x in c.steps}
    assert gone
    stages = tuple(dataclasses.replace(st, steps=tuple(
        s for s in st.steps if (s.loc.file, s.loc.line, s.loc.col) not in gone), placed=tuple(
        p for p in st.placed if (p.loc.file, p.loc.line, p.loc.col) not in gone))
        for st in d.script.stages)
    after = coverage(dataclasses.replace(d.script, stages=stages), d.corpus)
    assert c.id in after.missing("經", scripted_only=True)


def test_a_jing_clause_only_a_rule_names_is_noted_not_cited(field, corpus):
    text = SCRIPT + "    rules:\n      - {cite: 揖衆賔, note: no 衆賔 in this test}\n"
    cov = cov_of(text, field, corpus)
    assert clause(cov, "05.03").status == "noted"
    assert "05.03" not in cov.missing("經")          # --strict does not fail on it …
    assert "(1 only noted by a rule)" in format_table(cov)   # … but the summary says so
    j = to_json(cov)["summary"]
    assert j["經"]["noted"] == j["scripted_經"]["noted"] == 1
