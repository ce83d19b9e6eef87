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
def whole(bundled):
    return bundled


def test_every_jing_clause_ends_before_its_step_goes_on(whole, corpus):
    """One compile, every 經 clause the rite enacts: at its moment each step saying it has ended,
    and no step of the same citing step saying only later clauses, nor an unsaid move, has begun."""
    tl = whole.timeline
    said = clause_moments(tl, corpus)
    assert len(said) >= 514  # of the 533 經 clauses (the rest are rules, not actions: 13.13–15 the
    # 大師's washing, 19.08–10 …)
    assert clause_order_faults(tl, corpus) == []
    assert sum(not s.said for s in tl.steps) >= 2
    # clauses whose moment a step shares with other clauses: 95 before the patterns' steps said
    # their parts, 57 before the sequential ones got theirs (07.08, 13.12–18, 18.08–10,
    # 21.16–17, and the "…" cites reaching a 記: 06.17, 06.19, 08.18, 13.24); each left is
    # said at once, for the reason SHARED gives, and no other may join them
    shared = {c.id for c, _ in shared_moments(tl, corpus)}
    assert shared <= set(SHARED), sorted(shared - set(SHARED))
    assert len(shared) <= 36  # 41 before 16.12–13, 22.14–15 and 26.17–18 got their own moments


# Why each clause left sharing its moment with another is right to (issue 19, class 6): the text
# says them of one stretch of time. "at once": two people, or one act and its manner; "a rule":
# how a thing is done throughout (not a move of its own); "alternatives": one of them happens;
# "overlapping": one clause's walk crosses the other's while both go on.
SHARED = {
    "09.04": "at once: each 長 goes back down as his 薦 is brought (毎一人獻則薦諸其席)",
    "09.06": "a rule: 毎一人獻則薦諸其席, kept by each 衆賔's 受獻",
    "09.07": "at once: 衆賔辯有脯醢 is the 薦 brought to each as he drinks",
    "13.03": "at once: 工四人二瑟瑟先 and how the 相者 carry the 瑟 are one procession",
    "13.04": "at once: the 相者's manner (左何瑟面鼓執越内弦右手相) as they come in",
    "16.03": "at once: one answer, declining and consenting (某不能為二三子 … 許諾)",
    "16.04": "at once: 許諾 ends the 賔's one answer",
    "18.16": "overlapping: the 司射 crosses the 司馬 at the 階前 while he goes back (交於階前)",
    "18.20": "at once: 乃射 is the shooting the next clauses describe",
    "18.21": "at once: the pair's alternating loosing is the shooting itself",
    "18.22": "at once: the 獲者 sits and calls each hit while they shoot",
    "18.23": "a rule: in the first round no 算 is laid (獲而未釋獲)",
    "18.25": "at once: coming down and their order on the stair (上射於左) are one walk",
    "18.26": "a rule: 上射於左, where the 上射 walks while they come down",
    "20.07": "a rule: the order they stand in (東上)",
    "20.08": "a rule: 大夫之耦為上",
    "20.09": "alternatives: 若有東面者則北上",
    "21.04": "overlapping: the 司射 comes to the 階前 as the 司馬 comes down (夾於階前)",
    "21.14": "at once: 乃射, the shooting during which each hit is laid",
    "21.15": "at once: 釋獲 each 算 as an arrow hits, while they shoot (毎一个釋一算)",
    "22.02": "at once: 主人 at the 堂東 and 賔 at the 堂西 (亦如之)",
    "22.03": "at once: 賔於堂西亦如之",
    "22.11": "a rule: the 耦 keeps a little behind the 大夫 at each stop (耦少退)",
    "22.12": "a rule: 揖如三耦, the 揖 of the walk (§22, not parted here)",
    "23.08": "a rule: how the 算 are counted, one count (二算為純 …)",
    "23.09": "a rule: 十純則縮而委之毎委異之",
    "23.10": "a rule: 有餘純則横於下",
    "23.11": "a rule: 一算為竒竒則又縮諸純下",
    "23.15": "alternatives: 若右勝則曰右賢於左",
    "23.16": "alternatives: 若左勝則曰左賢於右",
    "23.17": "a rule: 以純數告, the words of the one announcement",
    "23.18": "alternatives: 若有竒者亦曰竒",
    "27.04": "overlapping: the 司射 crosses the 司馬 at the 階前 (交於階前)",
    "34.04": "at once: 無算爵 names the drinking 使二人舉觶 begins",
    "34.05": "at once: 使二人舉觶 begins 無算爵",
    "34.13": "a rule: 執觶者皆與旅, kept by the whole 旅 (辯旅皆不拜)",
}


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


def panel_at(whole, corpus, text: str) -> tuple[str, list[str]]:
    """The window's panel at the moment of TEXT: its cite line, and the lines it highlights."""
    from viz.draw import hud

    tl = whole.timeline
    m = resolve_moment(tl, corpus, after=text)
    frame = tl.sample(m.t, m.closing)
    assert frame.step == m.step
    prims, _ = hud.build_hud(tl, frame, corpus, (1366, 768), hud.HudState())
    texts = [p for p in prims if isinstance(p, hud.Text)]
    cite = next(p.text for p in texts if p.text.startswith("「"))
    lit = [p for p in prims if isinstance(p, hud.Rect) and p.fill == hud.HILITE]
    # a highlighted row is the text drawn at the top of its marker (the row's box)
    lines = [t.text for r in lit for t in texts
             if abs(t.pos[1] - r.box[1] - 1) < 0.5 and r.box[0] <= t.pos[0] <= r.box[0] + 3]
    return cite, lines


def test_the_panel_shows_the_part_the_step_enacts_and_lights_its_clause(whole, corpus):
    """The step of 耦升堂就物 saying 上射升堂少左: the panel's cite is that clause, not the citing
    step's whole 上耦揖進 … 合足而俟, and only that clause is lit in the section's text."""
    cite, lines = panel_at(whole, corpus, "上射升堂少左")
    assert cite == "「上射升堂少左」"
    lit = "".join(lines)
    assert "上射升堂" in lit and "少左" in lit
    assert "先升三等" not in lit and "下射升上射揖" not in lit
    # a cite with … says its fragments: a pattern's part of one is cut to the part
    cite, lines = panel_at(whole, corpus, "坐祭立飲不拜既爵授主人爵降復位")
    assert cite.startswith("「坐祭立飲不拜既爵授主人爵降復位") and "主人拜送" not in cite
    assert not any("主人拜送" in x for x in lines)
    # the whole step when it is one part: the citing words, as the text has them
    cite, lines = panel_at(whole, corpus, "賓升席自西方")
    assert cite == "「賓升席自西方」" and "".join(lines).startswith("賓升席")


def plate_clause(whole, corpus, text: str, about: str | None) -> set[str]:
    """The words on the plate `plate --after TEXT` draws (its clause heads the column)."""
    from viz.draw.display import Text
    from viz.export import plate

    m = resolve_moment(whole.timeline, corpus, after=text)
    p = plate.plate_layers(whole, m.t, m.closing, about=about)
    return {t.text for ly in p.layers for t in ly.prims if isinstance(t, Text)}


def test_a_plate_after_a_clause_is_at_its_moment_and_heads_with_it(whole, corpus):
    """--after 毎一个釋一算 ends the step of 耦射 that says 乃射 with it (the 算 laid as they
    shoot): the plate heads with the clause asked, 21.15, not the step's first, 21.14; and a
    clause with a step of its own (上射升堂少左) heads its plate whatever is asked."""
    said = corpus.clause("21.15")
    words = plate_clause(whole, corpus, "毎一个釋一算", "毎一个釋一算")
    assert any(said.id in w for w in words) and not any("21.14" in w for w in words)
    assert any(w.startswith(said.punct[:6]) for w in words)
    words = plate_clause(whole, corpus, "毎一个釋一算", None)
    assert any("21.14" in w for w in words)  # the step's first clause, when none is asked
    assert any("18.09" in w for w in plate_clause(whole, corpus, "上射升堂少左", None))


def test_the_atlas_step_pages_name_and_mark_the_part_each_shows(whole, corpus):
    """An atlas of steps: the page of the step saying 上射升堂少左 is at its end (the clause's
    moment), titled with that clause, and marks it alone in the text beside the plate."""
    from viz.export import atlas

    tl = whole.timeline
    m = resolve_moment(tl, corpus, after="上射升堂少左")
    page = next(p for p in atlas.pages(tl, steps=True, corpus=corpus) if p.steps == (m.step,))
    assert page.t == pytest.approx(m.t) and page.closing
    assert page.title.endswith("「上射升堂少左」")
    block = atlas._text_block(tl, corpus, page)
    assert block.count('class="jing cited"') == 1 and f'{page.anchor}-18.09"' in block
