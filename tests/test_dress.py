"""Issue 19, class 3, "what they wear": 袒, 襲, 決, 遂, 説決拾, 搢扑 and a bow 張 or 弛 are timeline
channels (the dress verb), in the state JSON, checked against the 經's words, drawn on the token
and written in the cue sheets."""
from __future__ import annotations

import textwrap

import numpy as np
import pytest

from viz.base.errors import Collector
from viz.model.compile.compiler import compile_script
from viz.model.dress import dress_words
from viz.model.script.reader import parse_script

# a small rite: the 司射 of 三請射 (§26) on an open field, his bow and 扑 by the 西階
SCRIPT = textwrap.dedent("""\
    cast:
      - {id: sishe, name: 司射, party: 主, label: 射}
      - {id: shang, name: 上耦上射, party: 賓, label: 上}
    props:
      - {id: gong, name: 弓, kind: 弓, at: 西階下}
      - {id: pu, name: 扑, kind: 扑, at: 西階下}
      - {id: shi, name: 矢, kind: 矢, at: 西階下}
      - {id: gong2, name: 弓, kind: 弓, held_by: shang}
    stages:
      - name: 三請射
        setup:
          - {who: sishe, at: 西階上, face: 南}
          - {who: shang, at: 阼階下, face: 西}
        steps:
          - cite: 司射適堂西袒決遂取弓於階西挾一个搢扑以反位
            do:
              - move: {who: sishe, to: 西階下}
              - dress: {who: sishe, is: 袒決遂}
              - take: {who: sishe, prop: gong}
              - take: {who: sishe, prop: shi}
              - take: {who: sishe, prop: pu}
              - dress: {who: sishe, is: 搢扑}
              - move: {who: sishe, to: 洗}
          - cite: 司射去扑倚於階西升請射於賔如初
            do:
              - put: {who: sishe, prop: pu}
          - cite: 三耦及衆賔皆袒決遂執弓各以其耦進反於射位
            do:
              - dress: {who: shang, is: 袒決遂, bow: 弛}
    """)


def compiled(text, field, corpus):
    out = Collector()
    tl = compile_script(parse_script(text, field, corpus, "t.yaml"), field, out)
    return tl, out


def worn(tl, t, aid, closing=True):
    f = tl.sample(t, closing)
    a = tl.actor_index[aid]
    return {k: int(v[a]) for k, v in f.values["dress"].items()}


def test_dress_words_are_the_texts():
    assert dress_words("袒決遂") == [("袒", 1), ("決", 1), ("遂", 1)]
    assert dress_words("襲説決拾") == [("袒", 0), ("決", 0), ("遂", 0)]
    assert dress_words("說決拾") == [("決", 0), ("遂", 0)]  # 說 read as 説
    assert dress_words("搢扑") == [("扑", 1)]
    assert dress_words("執弓") is None and dress_words("") is None


def test_a_bad_dress_word_is_a_located_error(field, corpus):
    from viz.base.errors import InputError
    text = SCRIPT.replace("{who: sishe, is: 袒決遂}", "{who: sishe, is: 袒執弓}")
    assert text != SCRIPT
    with pytest.raises(InputError) as e:
        parse_script(text, field, corpus, "t.yaml")
    assert "t.yaml:" in str(e.value) and "袒執弓" in str(e.value)


def test_dress_is_sampled_at_each_moment(field, corpus):
    tl, out = compiled(SCRIPT, field, corpus)
    assert not out.warnings, out.warnings
    s0, s1, s2 = tl.steps
    assert worn(tl, 0.0, "sishe", closing=False) == {"袒": 0, "決": 0, "遂": 0, "扑": 0}
    assert worn(tl, s0.t1, "sishe") == {"袒": 1, "決": 1, "遂": 1, "扑": 1}
    # 去扑: the 扑 set down leaves his belt; the rest stays on
    assert worn(tl, s1.t1, "sishe") == {"袒": 1, "決": 1, "遂": 1, "扑": 0}
    # the same answer sampled the fast way (playing) and the closing way
    mid = (s1.t0 + s1.t1) / 2
    assert worn(tl, s1.t1 + 1e-3, "sishe", closing=False)["扑"] == 0
    assert worn(tl, mid, "sishe", closing=False)["袒"] == 1


def test_a_bow_is_strung_until_it_is_unstrung(field, corpus):
    tl, _ = compiled(SCRIPT, field, corpus)
    from viz.query.state import held
    s2 = tl.steps[2]
    before = tl.sample(s2.t0 - 0.01)
    after = tl.sample(s2.t1, True)
    assert held(tl, before, "gong2") == {"id": "gong2", "name": "弓", "held": "張"}
    assert held(tl, after, "gong2") == {"id": "gong2", "name": "弓", "held": "弛"}
    assert "held" not in held(tl, after, "pu")


def test_bow_without_a_bow_and_belt_without_a_pu_are_warned(field, corpus):
    text = SCRIPT.replace("dress: {who: shang, is: 袒決遂, bow: 弛}",
                          "dress: {who: sishe, is: 搢扑, bow: 張}")
    text = text.replace("- put: {who: sishe, prop: pu}", "- put: {who: sishe, prop: pu}\n"
                        "          - put: {who: sishe, prop: gong}")
    _, out = compiled(text, field, corpus)
    msgs = [w.message for w in out.warnings]
    assert any("holds no 扑" in m for m in msgs), msgs
    assert any("holds no bow" in m for m in msgs), msgs


def test_check_catches_a_clause_whose_dress_is_not_done(field, corpus):
    """A planted error: 三耦及衆賔皆袒決遂 enacted without the dress (and the 司射's 袒決遂 left out):
    `check` warns at the clause; with the dress it agrees."""
    from viz.query.dressed import dress_results, dress_warnings
    tl, _ = compiled(SCRIPT, field, corpus)
    res = {(r["id"], r["claim"]): r["result"] for r in dress_results(tl, corpus)}
    assert res[("26.01", "袒決遂")] == "agreed" and res[("26.01", "搢扑")] == "agreed"
    assert res[("26.02", "去扑")] == "agreed" and res[("26.01", "挾一个")] == "agreed"
    assert res[("26.06", "袒決遂")] == "agreed"
    assert not dress_warnings(tl, corpus)
    planted = SCRIPT.replace("          - dress: {who: sishe, is: 袒決遂}\n", "")
    assert planted != SCRIPT
    planted = planted.replace("dress: {who: shang, is: 袒決遂, bow: 弛}",
                              "dress: {who: shang, is: 襲, bow: 弛}")
    tl2, _ = compiled(planted, field, corpus)
    warns = [w.message for w in dress_warnings(tl2, corpus)]
    assert any("司射適堂西袒決遂" in m and "says 袒決遂" in m for m in warns), warns
    assert any("皆袒決遂執弓各以其耦進" in m and "says 袒決遂" in m for m in warns), warns
    assert len(warns) == 2
    # 挾一个 with no arrow in hand
    no_arrow = SCRIPT.replace("          - take: {who: sishe, prop: shi}\n", "")
    assert no_arrow != SCRIPT
    tl3, _ = compiled(no_arrow, field, corpus)
    assert [w.message for w in dress_warnings(tl3, corpus)] == [
        "「司射適堂西袒決遂取弓於階西挾一个搢扑以反位」 says 挾一个, but 上耦上射、司射 holds no arrow "
        "(矢) at its moment"]


@pytest.fixture(scope="module")
def rite(bundled):
    return bundled


def _actor(st, aid):
    return next(a for a in st["actors"] if a["id"] == aid)


def _state_after(rite, text):
    from viz.query.state import resolve_moment, state
    m = resolve_moment(rite.timeline, rite.corpus, after=text)
    return state(rite.timeline, rite.layout, rite.corpus, m.t, m.step, m.closing)


def test_round_three_archers_are_dressed_and_their_bows_strung(rite):
    st = _state_after(rite, "三耦及衆賔皆袒決遂執弓各以其耦進反於射位")
    for aid in ("shangshe1", "xiashe1", "xiashe3", "zhongbin1"):
        a = _actor(st, aid)
        assert a["dress"] == {"袒": True, "決": True, "遂": True, "扑": False}, aid
        assert [(h["name"], h.get("held")) for h in a["holding"]] == [("弓", "張")], aid
    sishe = _actor(st, "sishe")
    assert sishe["dress"]["扑"] and sishe["dress"]["袒"]


def test_the_penalty_cup_losers_hold_unstrung_bows(rite):
    """§24: 勝者皆袒決遂執張弓; 不勝者皆襲説決拾 … 右加弛弓於其上."""
    st = _state_after(rite, "三耦及衆射者皆與其耦進立於射位北上")
    losers = {r["id"] for r in st["actors"]
              if any(h.get("held") == "弛" for h in r["holding"])}
    winners = {r["id"] for r in st["actors"]
               if any(h.get("held") == "張" for h in r["holding"]) and r["id"] != "sishe"}
    assert losers and winners and not losers & winners
    for aid in losers:
        assert not any(_actor(st, aid)["dress"].values()), aid
    for aid in winners:
        d = _actor(st, aid)["dress"]
        assert d["袒"] and d["決"] and d["遂"], aid


def test_after_the_shooting_nobody_is_bared(rite):
    st = _state_after(rite, "司射乃適堂西釋弓去扑説決拾襲反位")
    assert not [a["id"] for a in st["actors"] if any(a["dress"].values())]


def test_the_bundled_rite_agrees_with_every_dress_word(rite):
    from viz.query.dressed import dress_results
    res = dress_results(rite.timeline, rite.corpus)
    assert len(res) >= 45
    assert [r for r in res if r["result"] != "agreed"] == []


def test_the_mark_is_drawn_on_the_token():
    """A bared, 決遂 archer's token gets the skin patch on his left and the ring on his right: a
    pixel test on a small surface (facing north: left is west, the left of the picture)."""
    import pygame

    from viz.backends import pgdraw
    from viz.draw import dress
    from viz.draw.camera import Camera
    from viz.draw.display import Circle, Layer

    cam = Camera((0, 0, 80, 80))
    cam.fit((-5, -5, 5, 5), margin=0)
    token = [Circle((0.0, 0.0), 2.0, (150, 30, 30), (20, 16, 12), 1.0)]
    bare = dress.marks(0.0, 0.0, 2.0, 0.0, (1, 1, 1, 0))
    assert dress.marks(0.0, 0.0, 2.0, 0.0, (0, 0, 0, 0)) == []
    surf = pygame.Surface((80, 80))
    surf.fill((255, 255, 255))
    pgdraw.draw_layers(surf, [Layer("t", None, cam, tuple(token + bare))])
    (lx, ly), (rx, ry) = cam.to_screen_pts([(-1.56, 0.0), (2.0, 0.9)])
    assert tuple(surf.get_at((int(lx), int(ly))))[:3] == dress.SKIN
    ring = np.array([tuple(surf.get_at((int(rx) + dx, int(ry) + dy)))[:3]
                     for dx in range(-4, 5) for dy in range(-4, 5)])
    assert (np.abs(ring - np.array(dress.RING)).sum(axis=1) < 60).any()
    plain = pygame.Surface((80, 80))
    plain.fill((255, 255, 255))
    pgdraw.draw_layers(plain, [Layer("t", None, cam, tuple(token))])
    assert tuple(plain.get_at((int(lx), int(ly))))[:3] != dress.SKIN


def test_an_unstrung_bow_is_drawn_apart_from_a_strung_one():
    from viz.draw import dress, scene
    strung = scene.prop_glyph(0.0, 0.0, "弓", 10.0)
    unstrung = scene.prop_glyph(0.0, 0.0, "弛弓", 10.0)
    assert strung == dress.bow_glyph(0.0, 0.0, 0.1, True)
    assert unstrung == dress.bow_glyph(0.0, 0.0, 0.1, False) and unstrung != strung


@pytest.mark.slow
def test_a_cue_sheet_says_what_he_wears(rite):
    from viz.export import sheets
    tl = rite.timeline
    a = tl.actor_index["shangshe1"]
    cs = sheets.cues(tl, rite.layout, rite.corpus, a)
    first = next(c for c in cs if c.clause_id == "17.02")
    assert first.dress == "袒決遂" and first.dress_from == ""
    md = sheets.to_markdown(tl, a, cs)
    assert "- 所爲：服 袒決遂" in md and "／ 袒決遂" in md  # the 中文 sheet (the default)
    from viz.base import lang
    lang.use("en")
    try:
        assert "- does: wears 袒決遂" in sheets.to_markdown(tl, a, cs)
    finally:
        lang.use(None)
    assert ",dress\n" in sheets.to_csv(tl, cs[:1])
    loser = next(i for i, x in enumerate(tl.actors) if x.id == "xiashe1")
    lc = [c for c in sheets.cues(tl, rite.layout, rite.corpus, loser) if "弛弓" in c.dress]
    assert lc, "the 上耦下射 (who loses with seed 1) holds a 弛弓 at the penalty cup"
