"""The verbs the rest of the rite needs, each checked on the compiled state: seated bows, setting
down and taking up, places relative to a thing, one person after another, bundles of arrows,
labels that change at a step, expectations, ways walked both ways, and the checks while moving."""
from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import numpy as np
import pytest

from viz.base.errors import Collector
from viz.model.compile.compiler import Compiler, compile_script
from viz.model.script.reader import parse_script
from viz.model.timeline import POSTURES, Timeline
from viz.model.verbs import CompileContext
from viz.query.lint import motion_warnings

HEAD = textwrap.dedent("""\
    settings: {walk_speed: 5, turn: 0.5, gestures: {拜: 2.0, 坐: 1.0, 興: 1.0, take: 1.0, put: 1.0}}
    cast:
      - {id: zhuren, name: 主人, party: 主, label: 主}
      - {id: sz, name: 司正, party: 主, label: 相}
      - {id: bin, name: 賔, party: 賓, label: 賔}
    props:
      - {id: zhi, name: 觶, kind: 觶, at: 洗}
      - {id: cheng, name: 矢, kind: 矢, count: 4, held_by: bin}
    stages:
      - name: 司正舉觶
        setup:
          - {who: sz, at: 洗, face: 北}
          - {who: zhuren, at: 阼階上, face: 西}
          - {who: bin, at: 西階上, face: 東}
        steps:
    """)


def build(steps: str, field, corpus, **places):
    for k, v in places.items():
        field.places[k] = type(next(iter(field.places.values())))(k, float(v[0]), float(v[1]))
    text = HEAD + textwrap.indent(textwrap.dedent(steps), "      ")
    out = Collector()
    script = parse_script(text, field, corpus, "v.yaml")
    tl = compile_script(script, field, out)
    return tl, list(script.warnings) + out.warnings, text


def posture(tl, t, aid, closing=False):
    return POSTURES[int(tl.sample(t, closing).posture[tl.actor_index[aid]])]


def test_a_bow_made_seated_ends_seated(field, corpus):
    tl, warns, _ = build("""\
        - cite: 坐奠觶拜執觶興
          do:
            - posture: {who: sz, is: 坐}
            - posture: {who: sz, is: 拜}
            - posture: {who: sz, is: 興}
        """, field, corpus)
    t0 = tl.steps[0].t0
    assert posture(tl, t0 + 0.9, "sz") == "坐"  # 坐 takes 1 s; seated half-way through
    assert posture(tl, t0 + 2.0, "sz") == "拜"  # the bow: 1 … 3 s
    assert tl.sample(t0 + 2.0).seated[tl.actor_index["sz"]]  # … made kneeling
    assert posture(tl, t0 + 3.2, "sz") == "坐"  # after the bow, still seated
    assert posture(tl, tl.steps[0].t1, "sz", closing=True) == "立"  # 興
    assert not warns


def test_walking_while_seated_is_warned_of(field, corpus):
    _, warns, text = build("""\
        - cite: 坐奠觶
          do:
            - posture: {who: sz, is: 坐}
            - move: {who: sz, to: 阼階下}
        """, field, corpus)
    assert any("walks while seated" in w.message for w in warns)


def test_put_take_and_a_place_relative_to_a_thing(field, corpus):
    tl, warns, _ = build("""\
        - cite: 司正洗觶
          do:
            - take: {who: sz, prop: zhi}
            - move: {who: sz, to: 阼階下}
            - put: {who: sz, prop: zhi, at: {place: 阼階下, side: 北, dist: 1}}
        - cite: 興退少立
          do:
            - move: {who: sz, to: {prop: zhi, side: 南, dist: 2}, face: 北}
        - cite: 進坐取觶
          do:
            - move: {who: sz, to: {prop: zhi, side: 南, dist: 1}}
            - take: {who: sz, prop: zhi}
            - move: {who: sz, to: 洗}
        - cite: 北面坐奠於其所
          do:
            - move: {who: sz, to: {prop: zhi, side: 南, dist: 1}}
            - put: {who: sz, prop: zhi, at: {prop: zhi}}
        """, field, corpus)
    j, a = tl.prop_index["zhi"], tl.actor_index["sz"]
    spot = np.array([20.0, -4.0])  # 1 尺 north of 阼階下 (20, -5)
    f = tl.sample(tl.steps[0].t1, closing=True)
    assert f.prop_holder[j] == -1 and f.prop_xy[j] == pytest.approx(spot)
    f = tl.sample(tl.steps[1].t1, closing=True)
    assert f.xy[a] == pytest.approx(spot + [0, -2]) and f.facing[a] == pytest.approx(0)
    f = tl.sample(tl.steps[2].t1, closing=True)
    assert f.holding[a] == ("zhi",)
    # 奠於其所: while he holds it, {prop: zhi} is where it was last set down
    f = tl.sample(tl.steps[3].t1, closing=True)
    assert f.prop_holder[j] == -1 and f.prop_xy[j] == pytest.approx(spot)
    assert not warns


def test_out_of_reach_and_not_held_are_warned_of(field, corpus):
    _, warns, _ = build("""\
        - cite: 司正洗觶
          do:
            - move: {who: sz, to: 阼階下}
            - take: {who: sz, prop: zhi}
            - give: {who: sz, prop: zhi, to: bin}
        """, field, corpus)
    text = "\n".join(w.message for w in warns)
    assert "cannot take" in text and "away (reach 3 尺)" in text
    assert "cannot hand it to 賔" in text


def test_after_starts_one_person_when_another_has_finished(field, corpus):
    tl, warns, _ = build("""\
        - cite: 主人阼階上再拜賔西階上答再拜
          do:
            - posture: {who: zhuren, is: 拜, count: 2}
            - posture: {who: bin, is: 拜, count: 2, after: zhuren}
        """, field, corpus)
    t0 = tl.steps[0].t0
    assert posture(tl, t0 + 1, "zhuren") == "拜" and posture(tl, t0 + 1, "bin") == "立"
    assert posture(tl, t0 + 5, "zhuren") == "立" and posture(tl, t0 + 5, "bin") == "拜"
    assert tl.steps[0].t1 - t0 == pytest.approx(8.0)


def test_a_bundle_is_four_arrows_each_tracked(field, corpus):
    tl, warns, _ = build("""\
        - cite: 司正洗觶
          do:
            - shoot: {who: bin, prop: cheng, at: 洗}
            - shoot: {who: bin, prop: cheng, at: 阼階下}
        - cite: 升自西階
          do:
            - give: {who: bin, prop: cheng, to: sz}
        """, field, corpus)
    ids = [p.id for p in tl.props if p.bundle == "cheng"]
    assert ids == ["cheng.1", "cheng.2", "cheng.3", "cheng.4"]
    f = tl.sample(tl.steps[0].t1, closing=True)
    got = {p: tuple(f.prop_xy[tl.prop_index[p]]) for p in ids[:2]}
    assert got["cheng.1"] == pytest.approx((30, -30)) and got["cheng.2"] == pytest.approx((20, -5))
    assert f.holding[tl.actor_index["bin"]] == ("cheng.3", "cheng.4")
    # giving the bundle passes what of it is in hand; the loosed arrows stay where they lie
    warns_text = "\n".join(w.message for w in warns)
    assert "does not hold 矢 (cheng.1)" in warns_text


def test_a_label_changes_at_its_step_and_stays(field, corpus):
    tl, _, _ = build("""\
        - cite: 主人降席自南方
          do: [{wait: {dur: 1}}]
        - cite: 作相為司正
          do:
            - label: {who: sz, is: 司正}
        - cite: 禮辭許諾
          do: [{wait: {dur: 1}}]
        """, field, corpus)
    a = tl.actor_index["sz"]
    assert tl.sample(tl.steps[0].t1, closing=True).labels[a] == "相"
    assert tl.sample(tl.steps[1].t1, closing=True).labels[a] == "司正"
    assert tl.sample(tl.duration).labels[a] == "司正"


def test_expect_is_checked_where_it_is_written(field, corpus):
    _, warns, text = build("""\
        - cite: 司正洗觶
          do:
            - move: {who: sz, to: 阼階下, face: 北}
          expect:
            - {who: sz, at: 阼階下, face: 北}
            - {who: zhuren, at: 洗, posture: 坐}
        """, field, corpus)
    msgs = [w for w in warns if "expected" in w.message]
    assert len(msgs) == 2  # the 主人 is neither at the 洗 nor seated; the 司正 is as said
    line = next(i for i, x in enumerate(text.splitlines(), 1) if "{who: zhuren, at: 洗" in x)
    assert all(w.loc.line == line for w in msgs)


def test_a_way_is_walked_in_the_direction_the_walk_needs(field, corpus):
    field.ways = {"由楹内": ("西楹北", "東楹北")}
    tl, warns, _ = build("""\
        - cite: 由楹内適阼階上
          do:
            - move: {who: bin, via: 由楹内, to: 西階上}
            - move: {who: zhuren, via: 由楹内, to: 西階上, after: bin}
        """, field, corpus, 西楹北=(-12, 12.5), 東楹北=(12, 12.5))
    a, b = tl.actor_index["zhuren"], tl.actor_index["bin"]
    # the 主人 from the east: 東楹北 first, then 西楹北; straight legs at 5 尺/s plus turns
    legs = np.hypot(-8, 9.5) + 24 + np.hypot(-8, -9.5)
    t_bin_done = [t for t in np.arange(0, tl.duration, 0.05)
                  if np.allclose(tl.sample(t).xy[b], [-20, 3])][-1]
    assert tl.duration - t_bin_done < legs / 5 + 3 * 0.5 + 0.5
    mid = tl.sample(tl.duration - legs / 5 / 2).xy[a]
    assert abs(mid[1] - 12.5) < 1e-6  # half-way he is between the 楹, on the way's line


def test_passing_through_someone_is_warned_of(field, corpus):
    tl, _, _ = build("""\
        - cite: 司正洗觶
          do:
            - move: {who: bin, to: 洗}
        """, field, corpus)
    found = motion_warnings(tl)
    assert any("賔 (bin)" in w.message and "司正 (sz)" in w.message and w.loc.file == "v.yaml"
               for w in found)


def test_moving_beside_someone_absent_is_warned_of(field, corpus):
    _, warns, _ = build("""\
        - cite: 司正洗觶
          do:
            - exit: {who: bin}
            - move: {who: sz, to: {actor: bin, side: 南, dist: 2}}
        """, field, corpus)
    assert any("not present" in w.message for w in warns)


def test_exit_leaves_and_what_he_holds_goes_with_him(field, corpus):
    tl, _, _ = build("""\
        - cite: 司正洗觶
          do:
            - exit: {who: bin}
        """, field, corpus)
    f = tl.sample(tl.duration)
    assert not f.present[tl.actor_index["bin"]]
    assert not f.prop_visible[tl.prop_index["cheng.1"]]


def test_a_jump_at_a_stage_boundary_is_reported(field, corpus):
    """Stages follow on, so a compiled rite has no jumps; the check finds one put there."""
    text = HEAD + ("      - cite: 司正洗觶\n"
                   "        do: [{wait: {dur: 1}}]\n"
                   "  - name: 請射\n"
                   "    steps:\n"
                   "      - cite: 司射適堂西\n"
                   "        do: [{wait: {dur: 1}}]\n")
    script = parse_script(text, field, corpus, "v.yaml")
    c = Compiler(script, field)
    tl = c.run()
    assert not c.out.warnings
    second = tl.stages[1]
    a = tl.actor_index["sz"]
    ch = _with_keyframe(tl.channels["motion"], a, second.t0, 5.0)
    jumped = Timeline(tl.actors, tl.props, tl.stages, tl.steps, {**tl.channels, "motion": ch},
                      tl.events, tl.duration)
    c.check_boundaries(jumped)
    assert [w.message for w in c.out.warnings] == ["司正 (sz) jumps where 司正舉觶 hands over to 請射"]
    assert c.out.warnings[0].loc.line == text.splitlines().index("  - name: 請射") + 1


def _context_names() -> set[str]:
    """The protocol's members: its annotated attributes and its methods."""
    return set(CompileContext.__annotations__) | {
        n for n, v in vars(CompileContext).items() if not n.startswith("_") and callable(v)}


def test_the_compiler_is_a_compile_context(field, corpus):
    """verbs.py types the compiler it is handed by CompileContext, never importing it: the real
    context (the Compiler's c) has every name of it, and the verbs use no name of `c` that it
    does not list."""
    script = parse_script(HEAD + "      - cite: 司正洗觶\n        do: [{wait: {dur: 1}}]\n",
                          field, corpus, "v.yaml")
    assert isinstance(Compiler(script, field).c, CompileContext)
    import viz.model.verbs as verbs

    source = Path(verbs.__file__).read_text(encoding="utf-8")
    used = {n.attr for n in ast.walk(ast.parse(source))
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "c"}
    assert used == _context_names()


def test_a_compiler_without_one_of_the_names_is_not_a_compile_context(field, corpus, monkeypatch):
    script = parse_script(HEAD + "      - cite: 司正洗觶\n        do: [{wait: {dur: 1}}]\n",
                          field, corpus, "v.yaml")
    c = Compiler(script, field).c
    names = sorted(_context_names())
    assert len(names) >= 30
    for name in names:
        owner = c if name in vars(c) else next(k for k in type(c).__mro__ if name in vars(k))
        monkeypatch.delattr(owner, name)
        assert not isinstance(c, CompileContext), name
        monkeypatch.undo()
    assert isinstance(c, CompileContext)


def _with_keyframe(ch, owner: int, t: float, dx: float):
    """The channel with one more keyframe: the owner moved by dx at t."""
    from viz.model.timeline import build_channel

    last = np.nonzero(ch.owner == owner)[0][-1]
    rows = {k: list(v) + [v[last] + (dx if k == "x" else 0)] for k, v in ch.values.items()}
    return build_channel(list(ch.owner) + [owner], list(ch.t) + [t], ch.interp, ch.span,
                         ch.owners, list(ch.writer) + [1], **rows)


def test_a_marked_spot_outlives_later_set_downs(field, corpus):
    tl, warns, _ = build("""\
        - cite: 中庭北面坐奠觶
          do:
            - take: {who: sz, prop: zhi}
            - put: {who: sz, prop: zhi, at: {place: 洗, side: 南, dist: 2}, mark: 觶位}
        - cite: 進坐取觶
          do:
            - take: {who: sz, prop: zhi}
            - put: {who: sz, prop: zhi}
            - take: {who: sz, prop: zhi}
        - cite: 北面坐奠於其所
          do:
            - put: {who: sz, prop: zhi, at: {mark: 觶位}}
        """, field, corpus)
    j = tl.prop_index["zhi"]
    assert tl.sample(tl.duration).prop_xy[j] == pytest.approx([30, -32])
    assert not warns
    _, warns, _ = build("""\
        - cite: 北面坐奠於其所
          do:
            - put: {who: sz, prop: zhi, at: {mark: 無}}
        """, field, corpus)
    assert any("no spot is marked '無' yet" in w.message for w in warns)


def test_a_turn_goes_the_way_it_is_told(field, corpus):
    """左還 and 右還: from facing north to facing south, by the west or by the east."""
    def mid_facing(turn: str) -> float:
        extra = f", turn: {turn}" if turn else ""
        tl, warns, _ = build(f"""\
            - cite: 還視侯中
              do:
                - face: {{who: zhuren, dir: 北}}
            - cite: 還視侯中
              do:
                - face: {{who: zhuren, dir: 南{extra}}}
            """, field, corpus)
        s = tl.steps[1]
        return float(tl.sample((s.t0 + s.t1) / 2).facing[tl.actor_index["zhuren"]])
    assert mid_facing("右") == pytest.approx(90)  # by the east
    assert mid_facing("左") == pytest.approx(270)  # by the west


def test_gather_takes_up_the_arrows_shot_not_those_still_set_down(field, corpus):
    """取矢: of a bundle some of whose arrows were shot, only those lying where they fell are
    gathered; the two laid down unshot (as the 衆賔's at the 堂西) stay where they lie."""
    tl, warns, _ = build("""\
        - cite: 司正洗觶
          do:
            - shoot: {who: bin, prop: cheng, at: 洗}
            - shoot: {who: bin, prop: cheng, at: 阼階下}
            - put: {who: bin, prop: cheng.3}
            - put: {who: bin, prop: cheng.4}
        - cite: 升自西階
          do:
            - take: {who: sz, prop: cheng, gather: true}
        """, field, corpus)
    f = tl.sample(tl.steps[1].t1, closing=True)
    sz = tl.actor_index["sz"]
    assert f.holding[sz] == ("cheng.1", "cheng.2")
    for p in ("cheng.3", "cheng.4"):
        assert f.prop_holder[tl.prop_index[p]] == -1  # still lying where the 賔 put them
    assert not [w for w in warns if "cheng" in w.message], warns
    # with none shot, gather takes up every piece set down
    tl, _, _ = build("""\
        - cite: 司正洗觶
          do:
            - put: {who: bin, prop: cheng}
        - cite: 升自西階
          do:
            - take: {who: sz, prop: cheng, gather: true}
        """, field, corpus)
    f = tl.sample(tl.steps[1].t1, closing=True)
    assert f.holding[tl.actor_index["sz"]] == ("cheng.1", "cheng.2", "cheng.3", "cheng.4")
