"""Walks the text makes simultaneous (issue 19, class 4): `each: {group: G, together: true}`
runs the members' expansions at the same time, and a step's `together: true` runs it at the
same time as the step before; without them the members are chained. Small toy rites."""
from __future__ import annotations

import textwrap

import numpy as np
import pytest

from viz.base.errors import InputError
from viz.model.compile.compiler import compile_script
from viz.model.script.reader import load_script

CAST = """\
    cast:
      - {id: zhuren, name: 主人, party: 主, label: 主}
      - {id: z1, name: 衆賔, party: 賓, label: 衆1}
      - {id: z2, name: 衆賔, party: 賓, label: 衆2}
      - {id: z3, name: 衆賔, party: 賓, label: 衆3}
    groups:
      衆賔: [z1, z2, z3]
    """
PATTERNS = """\
    patterns:
      往返:
        params: {who: actor, dx: number}
        steps:
          - do:
              - move: {who: $who, to: {place: 洗, dx: $dx}, face: 北}
          - do:
              - wait: {who: $who, dur: 2}
              - move: {who: $who, to: {place: 西階下, dx: $dx}, face: 北}
    """


def stage(each: str, extra: str = "", do: str = "use: 往返\nwith: {who: $each, dx: $dx}") \
        -> str:
    return textwrap.dedent("""\
        name: 迎賔
        setup:
          - {who: [zhuren, z1, z2, z3], at: 門內, face: 南, formation: 南面東上, spacing: 4}
        steps:
          - cite: 再拜
            each: EACH
            DO
        """).replace("EACH", each).replace("DO", do.replace("\n", "\n    ")) + extra


def rite(tmp_path, text: str):
    folder = tmp_path / "rite"
    (folder / "sections").mkdir(parents=True)
    (folder / "patterns").mkdir()
    (folder / "patterns/p.yaml").write_text(textwrap.dedent(PATTERNS), encoding="utf-8")
    (folder / "manifest.yaml").write_text("rite: toy\ncast: cast.yaml\n"
                                          "patterns: [patterns]\n"
                                          "sections: [sections/01.yaml]\n", encoding="utf-8")
    (folder / "cast.yaml").write_text(textwrap.dedent(CAST), encoding="utf-8")
    (folder / "sections/01.yaml").write_text(text, encoding="utf-8")
    return folder


def starts(tl) -> dict[str, list[float]]:
    """When each 衆賔 sets off on each of his walks (the first keyframe of each stretch)."""
    mo = tl.channels["motion"]
    out = {}
    for a, actor in enumerate(tl.actors):
        sel = np.nonzero(mo.owner == a)[0]
        t, x, y = mo.t[sel], np.asarray(mo.values["x"])[sel], np.asarray(mo.values["y"])[sel]
        moving = [k for k in range(len(sel) - 1)
                  if abs(x[k + 1] - x[k]) + abs(y[k + 1] - y[k]) > 0.1 and t[k + 1] > t[k]]
        out[actor.id] = [float(t[k]) for k in moving if k - 1 not in moving]
    return out


EACH = "{group: 衆賔, values: {dx: '6 * ($i - 1)'}TOGETHER}"


def compiled(tmp_path, field, corpus, together: bool):
    text = stage(EACH.replace("TOGETHER", ", together: true" if together else ""))
    s = load_script(rite(tmp_path, text), field, corpus)
    return s, compile_script(s, field)


def test_together_members_set_off_at_once(tmp_path, field, corpus):
    s, tl = compiled(tmp_path, field, corpus, True)
    assert len(s.stages[0].steps) == 2  # the pattern's two steps, each merged over the members
    got = starts(tl)
    first = [got[z][0] for z in ("z1", "z2", "z3")]
    second = [got[z][1] for z in ("z1", "z2", "z3")]
    assert max(first) - min(first) < 1.0
    assert max(second) - min(second) < 1.0
    # each member's own order holds: his wait (2 s) and his second walk after his first
    ends = [tl.steps[0].t1] * 3
    assert all(b >= e + 2 - 1e-6 for b, e in zip(second, ends))


def test_without_together_members_are_chained(tmp_path, field, corpus):
    s, tl = compiled(tmp_path, field, corpus, False)
    assert len(s.stages[0].steps) == 6
    got = starts(tl)
    assert got["z2"][0] > got["z1"][1] > got["z1"][0]  # z2 sets off when z1 has walked back
    assert got["z3"][0] > got["z2"][1]


def test_a_step_together_with_the_one_before(tmp_path, field, corpus):
    extra = ("  - cite: 再拜\n    together: true\n"
             "    do:\n      - move: {who: zhuren, to: 阼階下, face: 西}\n")
    text = stage("{group: 衆賔, values: {dx: '6 * ($i - 1)'}, together: true}", extra)
    s = load_script(rite(tmp_path, text), field, corpus)
    assert len(s.stages[0].steps) == 2
    got = starts(compile_script(s, field))
    assert abs(got["zhuren"][0] - got["z1"][0]) < 1.0


def located(tmp_path, field, corpus, text: str, key: str) -> list[str]:
    folder = rite(tmp_path, text)
    with pytest.raises(InputError) as e:
        load_script(folder, field, corpus)
    path = folder / "sections/01.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    line = next(i for i, x in enumerate(lines) if key in x)
    return [str(p) for p in e.value.problems], f"{path}:{line + 1}:{lines[line].index(key) + 1}"


def test_one_person_in_two_members_steps_is_located(tmp_path, field, corpus):
    do = ("do:\n  - move: {who: $each, to: 洗, face: 北}\n"
          "  - posture: {who: zhuren, is: 揖}")
    text = stage("{group: 衆賔, together: true}", do=do)
    got, at = located(tmp_path, field, corpus, text, "together")
    assert got == [f"{at}: together: 'zhuren' is in two members' steps; one person does one "
                   "thing at a time, so they cannot run at the same time"]


def test_together_with_a_step_citing_other_words_is_located(tmp_path, field, corpus):
    extra = ("  - cite: 主人揖\n    together: true\n"
             "    do:\n      - move: {who: zhuren, to: 阼階下, face: 西}\n")
    text = stage("{group: 衆賔, values: {dx: '6 * ($i - 1)'}}", extra)
    got, at = located(tmp_path, field, corpus, text, "together")
    assert got == [f"{at}: together: runs a step at the same time as the step before it, which "
                   "must cite the same words; it cites '再拜'"]


@pytest.mark.parametrize("clause", ["衆賔將與射者皆降", "三耦及衆射者皆與其耦進"])
def test_the_bundled_rites_pairs_come_on_at_once(corpus, bundled, clause):
    """§20 and §24: those the clause sets moving with 皆 stand no longer than check allows while
    the others walk — none waits, explained or not (they were walked pair by pair)."""
    from viz.query.faithful import together_waits

    tl = bundled.timeline
    movers = [s for s in tl.steps if clause in s.cite]
    assert movers and max(s.t1 for s in movers) - min(s.t0 for s in movers) < 90
    got = [(m.clause.text, tl.actors[a].id, round(g)) for m, a, g, *_ in together_waits(tl, corpus)
           if clause in m.clause.text]
    assert got == []
