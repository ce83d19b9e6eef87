"""Worn things (issue 25, Costume; one person acting on another): props declared worn: 首 身 足
are put on (don) and taken off (doff) by the wearer or by another within reach; the cap moves
from the hands to the head over the action's time, and after it he wears it and holds it not."""
from __future__ import annotations

import textwrap

import numpy as np
import pytest

from viz.base.errors import Collector, InputError
from viz.model.compile.compiler import compile_script
from viz.model.dress import don_conflict, doff_conflict, moving, wears
from viz.model.script.reader import parse_script

# 加冠 on an open field: the 贊者 sets the 纚 on the 冠者, the 賔 puts the 緇布冠 on over it, then
# takes it off again into his hands (the cites are 鄉射's words: the corpus the test has)
SCRIPT = textwrap.dedent("""\
    cast:
      - {id: bin, name: 賔, party: 賓, label: 賔}
      - {id: guanzhe, name: 冠者, party: 主, label: 冠}
      - {id: zanzhe, name: 贊者, party: 賓, label: 贊}
    props:
      - {id: li, name: 纚, kind: 纚, worn: 首, held_by: zanzhe}
      - {id: guan1, name: 緇布冠, kind: 冠, worn: 首, held_by: bin}
      - {id: duan, name: 玄端, kind: 服, worn: 身, at: 阼階上}
      - {id: jue, name: 爵, kind: 爵, at: 上篚}
    stages:
      - name: 三請射
        setup:
          - {who: bin, at: 西階下, face: 東}
          - {who: guanzhe, at: {place: 西階下, side: 東, dist: 2}, face: 西}
          - {who: zanzhe, at: {place: 西階下, side: 南, dist: 2}, face: 北}
        steps:
          - cite: 司射適堂西袒決遂取弓於階西挾一个搢扑以反位
            do:
              - don: {who: guanzhe, prop: li, by: zanzhe}
          - cite: 司射去扑倚於階西升請射於賔如初
            do:
              - don: {who: guanzhe, prop: guan1, by: bin}
          - cite: 三耦及衆賔皆袒決遂執弓各以其耦進反於射位
            do:
              - doff: {who: guanzhe, prop: guan1, by: bin}
    """)


def compiled(text, field, corpus):
    out = Collector()
    tl = compile_script(parse_script(text, field, corpus, "t.yaml"), field, out)
    return tl, out


@pytest.fixture
def capped(field, corpus):
    tl, out = compiled(SCRIPT, field, corpus)
    assert not out.errors, out.errors
    return tl


def names(tl, f, aid):
    return [tl.props[p].name for p in wears(tl, f, tl.actor_index[aid])]


def test_the_cap_is_on_the_head_after_don_and_not_held(capped):
    tl = capped
    f = tl.sample(tl.steps[1].t1, closing=True)
    assert names(tl, f, "guanzhe") == ["纚", "緇布冠"]  # the 纚 under the cap
    g = tl.actor_index["guanzhe"]
    assert "guan1" not in f.holding[g] and "li" not in f.holding[g]
    # the one who put it on has free hands; the 贊者 too
    assert f.holding[tl.actor_index["bin"]] == ()
    assert f.holding[tl.actor_index["zanzhe"]] == ()
    # a worn thing is not drawn as a thing lying or held
    assert not f.prop_visible[tl.prop_index["guan1"]]


def test_before_don_it_is_in_the_hands_and_not_worn(capped):
    tl = capped
    f = tl.sample(tl.steps[1].t0 + 0.01)
    assert "guan1" in f.holding[tl.actor_index["bin"]]
    assert names(tl, f, "guanzhe") == ["纚"]


def test_mid_don_the_cap_is_on_its_way_from_the_hands_to_the_head(capped):
    tl = capped
    s = tl.steps[1]
    for frac in (0.25, 0.75):
        f = tl.sample(s.t0 + frac * (s.t1 - s.t0))
        (p, wearer, hands, along, on), = moving(f)
        assert tl.props[p].id == "guan1" and on
        assert wearer == tl.actor_index["guanzhe"] and hands == tl.actor_index["bin"]
        assert along == pytest.approx(frac, abs=1e-6)
    assert moving(tl.sample(s.t1, closing=True)) == []


def test_doff_back_into_the_hands(capped):
    tl = capped
    s = tl.steps[2]
    mid = tl.sample((s.t0 + s.t1) / 2)
    (p, _, hands, along, on), = moving(mid)
    assert not on and hands == tl.actor_index["bin"] and along == pytest.approx(0.5, abs=1e-6)
    f = tl.sample(s.t1, closing=True)
    assert names(tl, f, "guanzhe") == ["纚"]
    assert "guan1" in f.holding[tl.actor_index["bin"]]
    assert f.prop_visible[tl.prop_index["guan1"]]


def test_don_from_where_it_lies_and_doff_to_a_place(field, corpus):
    text = SCRIPT.replace("""          - doff: {who: guanzhe, prop: guan1, by: bin}""",
                          """          - move: {who: guanzhe, to: 阼階上}
          - don: {who: guanzhe, prop: duan}
          - doff: {who: guanzhe, prop: guan1, to: 阼階上}""")
    assert text != SCRIPT
    tl, out = compiled(text, field, corpus)
    assert not out.errors, out.errors
    f = tl.sample(tl.duration, closing=True)
    assert names(tl, f, "guanzhe") == ["纚", "玄端"]
    j = tl.prop_index["guan1"]
    assert f.prop_holder[j] == -1 and f.prop_visible[j]
    assert np.hypot(*(f.prop_xy[j] - np.array([field.places["阼階上"].x, field.places["阼階上"].y]))) < 0.01


def error_of(text, field, corpus) -> str:
    tl, out = compiled(text, field, corpus)
    assert out.errors, "expected an error"
    return "\n".join(str(e) for e in out.errors)


def test_don_of_a_thing_not_worn_is_located_at_the_prop(field, corpus):
    text = SCRIPT.replace("{who: guanzhe, prop: li, by: zanzhe}", "{who: guanzhe, prop: jue, by: zanzhe}")
    with pytest.raises(InputError) as e:
        parse_script(text, field, corpus, "t.yaml")
    msg = str(e.value)
    line = text.splitlines().index("          - don: {who: guanzhe, prop: jue, by: zanzhe}") + 1
    assert f"t.yaml:{line}:" in msg and "not a worn thing" in msg and "worn: 首" in msg


def test_a_bad_spot_is_located(field, corpus):
    text = SCRIPT.replace("worn: 身", "worn: 手")
    with pytest.raises(InputError) as e:
        parse_script(text, field, corpus, "t.yaml")
    assert "t.yaml:8:" in str(e.value) and "'首', '身', '足'" in str(e.value)


def test_a_second_cap_is_an_error_and_a_li_goes_under_the_cap(field, corpus):
    two = SCRIPT.replace("  - {id: jue,", "  - {id: bian, name: 皮弁, kind: 弁, worn: 首, "
                                       "held_by: bin}\n  - {id: jue,").replace(
        "          - doff: {who: guanzhe, prop: guan1, by: bin}",
        "          - don: {who: guanzhe, prop: bian, by: bin}")
    msg = error_of(two, field, corpus)
    assert "t.yaml:" in msg and "already wears 緇布冠" in msg
    # the 纚 after the cap: it goes under it
    late = SCRIPT.replace("don: {who: guanzhe, prop: li, by: zanzhe}",
                          "posture: {who: bin, is: 揖}").replace("""          - doff: {who: guanzhe, prop: guan1, by: bin}""",
                 """          - don: {who: guanzhe, prop: li, by: zanzhe}""")
    msg = error_of(late, field, corpus)
    assert "goes under the 緇布冠" in msg
    assert don_conflict("冠", "緇布冠", "首", [("纚", "纚")]) is None  # a cap over a 纚: layers
    assert doff_conflict("纚", "纚", "首", [("冠", "緇布冠")])


def test_by_out_of_reach_is_an_error(field, corpus):
    text = SCRIPT.replace("{who: zanzhe, at: {place: 西階下, side: 南, dist: 2}, face: 北}",
                          "{who: zanzhe, at: 阼階下, face: 北}")
    msg = error_of(text, field, corpus)
    assert "t.yaml:" in msg and "by: 贊者" in msg and "within reach" in msg


def test_doff_of_a_thing_not_worn_is_an_error(field, corpus):
    text = SCRIPT.replace("don: {who: guanzhe, prop: guan1, by: bin}", "posture: {who: bin, is: 揖}")
    msg = error_of(text, field, corpus)
    assert "does not wear 緇布冠" in msg


def test_state_says_what_he_wears(capped, field):
    from viz.query.state import format_state, state

    s = state(capped, field, None, capped.steps[1].t1, 1, closing=True)
    g = next(a for a in s["actors"] if a["id"] == "guanzhe")
    assert g["wears"] == ["纚", "緇布冠"] and g["wears_ids"] == ["li", "guan1"]
    assert g["wears_at"] == ["首", "首"] and g["holding"] == []
    b = next(a for a in s["actors"] if a["id"] == "bin")
    assert b["wears"] == [] and b["holding"] == []
    assert "戴纚·緇布冠" in format_state(s)


def test_a_rite_with_no_worn_things_has_no_wears_key(field, corpus):
    from viz.query.state import state

    plain = SCRIPT.replace(", worn: 首", "").replace(", worn: 身", "")
    plain = plain[:plain.index("    steps:")] + (
        "    steps:\n      - cite: 司射去扑倚於階西升請射於賔如初\n        do:\n"
        "          - posture: {who: bin, is: 揖}\n")
    tl, out = compiled(plain, field, corpus)
    assert "wear" not in tl.channels
    s = state(tl, field, None, tl.duration, closing=True)
    assert s["actors"] and all("wears" not in a for a in s["actors"])
