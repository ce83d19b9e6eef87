"""Screen-space parts of a frame: the text panel, the timeline bar, legend, help, toast, search box.

Built as display-list primitives (Rect, Text, Line with screen=True) so every back end draws the
same thing; returns also the clickable areas (the clauses) for the window. The parts are drawn
in modules of their own (hudbase: colours, type, the UI scale and the areas; timebar: the bar;
scorepanel: the score panel; overmap: the stage list, search, help and errors over the map);
their names are here as well.
"""
from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from functools import lru_cache

from viz.draw.display import Color, Line, Polygon, Primitive, Rect, Text
from viz.draw.hudbase import (  # noqa: F401  (the HUD's names, as they were)
    BAR_H,
    ELLIPSIS,
    FAINT,
    GREY,
    HILITE,
    INK,
    Hits,
    HudState,
    NO_BREAK_START,
    PANEL_BG,
    PAPER,
    RED,
    UI_BASE,
    UI_ROOM,
    WRAP_MEMO,
    _box,
    _tokens,
    _wrap,
    areas,
    areas_at,
    bar_track,
    logical,
    scaled,
    shorten_left,
    text_width,
    track_at,
    ui_scale,
    wrap,
)
from viz.draw.overmap import (  # noqa: F401
    HELP_TITLE,
    KEYS,
    LIST_HEAD_H,
    LIST_ROW_H,
    LIST_W,
    MAX_PROBLEMS,
    PROBLEMS,
    PROBLEMS_MORE,
    SEARCH,
    STAGE_LIST,
    STAGE_LIST_ASK,
    STAGE_LIST_HINT,
    STAGE_LIST_NONE,
    STAGE_LIST_TYPED,
    STAGE_ROW_T,
    help_overlay,
    list_top,
    problems_overlay,
    search_box,
    stage_list,
    stage_list_box,
    stage_list_row_at,
    stage_list_rows,
    stage_matches,
)
from viz.draw.scene import OTHER_PARTY, PARTY_COLORS, literal
from viz.draw.scorepanel import (  # noqa: F401
    ANNOUNCE,
    ARCHER,
    ARCHER_ROUND,
    ARCHER_SEP,
    BEAT,
    BEAT_OPEN,
    CALLED,
    PIECE,
    ROUND_DONE,
    ROUND_TITLE,
    SCORE_ROW_H,
    STICK_MAX,
    STICKS_H,
    TALLY,
    ScoreInfo,
    ScoreRow,
    archer_text,
    beat_text,
    round_title,
    score_height,
    score_info,
    score_lines,
    score_panel,
    score_rows,
    tally_text,
)
from viz.draw.timebar import (  # noqa: F401
    BAR_ROWS,
    COMPILING,
    bar,
    bar_fixed,
    bar_label,
    bar_labels,
    bar_span,
    playhead,
)
from viz.query.words import enacted_spans, enacted_words

# The words the HUD itself writes, as templates (the model's names, cites and text aside)
STAGE_TITLE = "{number}　{name}"
STAGE_SECTION = "{name}（{section}）"
OUT_OF_ORDER = "第{number}節目 · 經第{section}節"  # a rite that plays its sections out of order
MOVED = "：經第{section}節{name}演於第{stages}節目，經云「{clause}」"
HERE = "：經云「{clause}」，故演於此"  # a section the text bids be played earlier
PLAYING, PAUSED = "▶", "‖"
CLOCK = "{state}  ×{speed:g}   t = {t:6.1f} s / {duration:.0f} s   步 {step}/{steps}"
CITE = "「{}」"
PAGE = "頁 {}   "
PATTERN = "  · {}"
SECTION_HEAD = "經文 · 第{index}節 {name}   頁 {page}"
NO_CORPUS = "（無經文：未載入文本）"
NO_SECTION = "（此節不在文本中）"
JI = "記"
NOTE = "注　{}"
MORE_ABOVE, MORE_BELOW = "▲", "▼"
MARK_W = 12  # px at the section text's right kept for ▲ ▼, so they cover no character
SKIPPING = "略候"  # W: the waits are skipped
PRESENTING = "講 → {t:.0f} s"  # P: playing to the end of a step, then pausing
CLOCK_MARKS = "  ·  "
ELSEWHERE = "此節在他處（不在此堂、庭之中）"
PARTIES = ("主黨", "賓黨", "他")
MARKS = "▶ 面向　□ 坐　拜／揖 行禮"
SUBSTITUTE = "U+{code:04X} 以「{shown}」示"
SUBSTITUTIONS = "字：{}（缺末筆字，字體無此字）"
LIST_SEP = "、"
READING = "讀法 {}"


TEXTS: tuple[str, ...] = tuple(literal(t) for t in (
    STAGE_TITLE, STAGE_SECTION, OUT_OF_ORDER, MOVED, HERE, PLAYING, PAUSED, CLOCK, CITE, PAGE, PATTERN, SECTION_HEAD, NO_CORPUS,
    NO_SECTION, JI, NOTE, MORE_ABOVE, MORE_BELOW, ELSEWHERE, COMPILING, *PARTIES, MARKS, SUBSTITUTE,
    SUBSTITUTIONS, LIST_SEP, SEARCH, HELP_TITLE, READING, ELLIPSIS, SKIPPING, PRESENTING,
    CLOCK_MARKS, PROBLEMS, PROBLEMS_MORE, STAGE_LIST,
    STAGE_LIST_HINT, STAGE_LIST_ASK, STAGE_LIST_TYPED, STAGE_LIST_NONE, STAGE_ROW_T,
    ROUND_TITLE, ROUND_DONE, TALLY, CALLED, BEAT, BEAT_OPEN, PIECE, ANNOUNCE, ARCHER,
    ARCHER_ROUND, ARCHER_SEP,
    *(k + w for k, w in KEYS))) + ("0123456789ABCDEF.", "〇一二三四五六七八九十右左純奇賢於鈞")


# the window holds that many pixels of it (Ctrl + at 1366×768 stops at 1.5, at 1920×1080 at 2.1)
LEGEND_W = 172  # px: the legend's least width (its row of three parties, its row of marks)


def legend_k(width: float, k: float) -> float:
    """The legend's scale in a slot `width` px wide at the UI scale k: k, or smaller where the
    slot is narrower than the legend needs (it shrinks rather than spill)."""
    return min(k, max(width, 1.0) / LEGEND_W)


@lru_cache(maxsize=64)
def legend_height(width: float, k: float, substitutions: tuple[tuple[str, str], ...] = ()
                  ) -> float:
    """The legend's height in px in a slot `width` px wide at the UI scale k."""
    kl = legend_k(width, k)
    return float(legend((0.0, 0.0, width / kl), substitutions)[0].box[3]) * kl


@dataclass(frozen=True)
class Part:
    """A piece of the HUD drawn as one layer. `key` is set on a piece whose first primitive is
    an opaque box over its clip and whose pixels change only with the key (the panel by step,
    the bar by stage), so a back end may keep them; the rest is drawn every frame."""

    name: str
    clip: tuple[int, int, int, int] | None
    prims: tuple[Primitive, ...]
    key: Hashable | None = None


def build_hud(timeline, frame, corpus, size: tuple[int, int], st: HudState,
              legend_at: tuple[float, float, float] | None = None, where: str = "site",
              substitutions: tuple[tuple[str, str], ...] = (),
              extra: tuple[tuple[str, Color], ...] = (), ui: float = 1.0
              ) -> tuple[list[Primitive], Hits]:
    """Panel, bar, legend, and what is open over the map (banner, search, toast, errors, help).
    `extra`: rows (text, colour) the panel shows under the step (selection, comparison)."""
    parts, hits = hud_parts(timeline, frame, corpus, size, st, legend_at, where, substitutions,
                            extra, ui=ui)
    return [p for part in parts for p in part.prims], hits


def hud_parts(timeline, frame, corpus, size: tuple[int, int], st: HudState,
              legend_at: tuple[float, float, float] | None = None, where: str = "site",
              substitutions: tuple[tuple[str, str], ...] = (),
              extra: tuple[tuple[str, Color], ...] = (), memo: dict | None = None,
              ui: float = 1.0, show_legend: bool = True) -> tuple[list[Part], Hits]:
    """The HUD as three parts, back to front: the panel as the step leaves it (kept by step),
    the bar as the stage leaves it (kept by stage), and what moves (clock, playhead) with what
    is open over the map. `memo` (the caller's, one per timeline and corpus) keeps the built
    panel and bar by their keys; the caller bounds it. ui: the user's scale: the HUD is built
    at 1/k of the window and drawn k times larger (logical, scaled); legend_at is in the
    window's px."""
    k, a, lsize = logical(size, ui)
    real = areas(size, ui)
    memo = {} if memo is None else memo
    info = score_info(timeline, frame, st.score_who, memo)
    srows = score_rows(info) if info is not None else ()
    score_h = score_height(srows)
    pkey = ("hud.panel", real["panel"], k, frame.stage, frame.step, st.show_notes, extra,
            score_h, reading_row(st))
    if pkey not in memo:
        hits = Hits()
        memo[pkey] = (scaled(panel_fixed(timeline, frame, corpus, a["panel"], st, hits, extra,
                                         score_h), k),
                      tuple((_box(b, k), ci, c0) for b, ci, c0 in hits.clauses),
                      None if hits.score is None else tuple(round(v) for v in _box(hits.score, k)))
    fixed, clauses, sbox = memo[pkey]
    bkey = ("hud.bar", real["bar"], k, frame.stage, st.compiling)
    if bkey not in memo:
        memo[bkey] = scaled(bar_fixed(timeline, frame, a["bar"], st.compiling), k)
    out: list[Primitive] = clock(timeline, frame, a["panel"], st)
    out += playhead(timeline, frame, a["bar"], st.compiling)
    kl = k if legend_at is None else legend_k(legend_at[2], k)
    at = (a["map"][0] + 10, a["map"][1] + 10, 300) if legend_at is None else tuple(
        v / kl for v in legend_at)
    lkey = ("hud.legend", at, kl, substitutions)
    if lkey not in memo:  # the same objects while it stays: a back end finds them drawn
        memo[lkey] = scaled(legend(at, substitutions), kl)
    over = _over_map(timeline, frame, a, lsize, st,
                     legend_at and tuple(v / k for v in legend_at), where)
    parts = [Part("hud.panel", real["panel"], fixed, pkey)]
    if sbox is not None and srows:  # kept by what it says: redrawn as a 算 is laid, a beat struck
        skey = ("hud.score", sbox, k, srows)
        if skey not in memo:
            memo[skey] = scaled(score_panel(tuple(v / k for v in sbox), srows), k)
        parts.append(Part("hud.score", sbox, memo[skey], skey))
    parts += [Part("hud.bar", real["bar"], memo[bkey], bkey),
              Part("hud", None, scaled(out, k) + (memo[lkey] if show_legend else ())
                   + scaled(over, k))]
    return parts, Hits(list(clauses), sbox if srows else None)


def _over_map(timeline, frame, a, size, st: HudState, legend_at, where: str) -> list[Primitive]:
    """What is open over the map (at the HUD's logical scale): the banner of a scene away from
    the school, the search box, a toast, a reload's errors, the stage list, the help."""
    out: list[Primitive] = []
    mx, my, mw, mh = a["map"]
    if where == "elsewhere":
        out.append(Text((mx + mw / 2, my + 40), ELSEWHERE, 15, RED, "c",
                        bg=(255, 250, 236), border=RED, screen=True))
    if st.search is not None:
        right = legend_at[0] if legend_at and legend_at[0] > mx + 300 else mx + mw
        out += search_box((mx, my, right - mx, mh), st)
    if st.toast:
        tw = text_width(st.toast, 13) + 24
        out.append(Rect((mx + (mw - tw) / 2, my + mh - 44, tw, 28), (40, 34, 28, 220), None,
                        radius=6))
        out.append(Text((mx + mw / 2, my + mh - 30), st.toast, 13, (255, 250, 236), "c",
                        screen=True))
    if st.problems:
        out += problems_overlay(a["map"], st.problems)
    if st.stages is not None:
        out += stage_list(timeline, frame, size, st, a["map"])
    if st.help:
        out += help_overlay(size)
    return out


def _cur_step(timeline, frame):
    if not timeline.steps:
        return None
    return timeline.steps[min(max(frame.step, 0), len(timeline.steps) - 1)]


def panel(timeline, frame, corpus, box, st: HudState, hits: Hits,
          extra: tuple[tuple[str, Color], ...] = ()) -> list[Primitive]:
    """The text panel: the stage, the clock, the words the step enacts (its part of the citing
    step's words) and its note, the section's text with those words' clauses highlighted."""
    return panel_fixed(timeline, frame, corpus, box, st, hits, extra) + clock(timeline, frame,
                                                                              box, st)


def _clock_y(timeline, box) -> float:
    return box[1] + 12 + (32 if timeline.stages else 0)


CLOCK_PX, CLOCK_ROW = 12, 18  # the clock's size, and the height of its second row


def clock_text(timeline, t: float, step: int, st: HudState) -> str:
    """The play line: state, speed, t, the step."""
    return CLOCK.format(state=PLAYING if st.playing else PAUSED, speed=st.speed, t=t,
                        duration=timeline.duration, step=step + 1, steps=len(timeline.steps))


def clock_marks(st: HudState) -> str:
    """The modes the play line's second row names: 略候 (W), 講 → t (P)."""
    return CLOCK_MARKS.join(m for m, on in (
        (SKIPPING, st.skip_waits),
        (PRESENTING.format(t=st.stop_at or 0.0), st.stop_at is not None)) if on)


def reading_row(st: HudState) -> bool:
    """Whether the play line has a second row: the reading's name (beside the step counter it
    would overprint it: the line alone fills a 1366-pixel window's panel) and W's and P's marks."""
    return bool(st.reading or st.skip_waits or st.stop_at is not None)


def clock(timeline, frame, box, st: HudState) -> list[Primitive]:
    """The panel's play line: play state, speed, t, step; under it the modes on (W, P) at the
    left and the reading shown at the right."""
    x, _, w, _ = box
    pad, cy = 14, _clock_y(timeline, box)
    text = clock_text(timeline, frame.t, frame.step, st)
    out: list[Primitive] = [Text((x + pad, cy), text, CLOCK_PX, GREY, "nw", screen=True)]
    if not reading_row(st):
        return out
    cy += CLOCK_ROW
    marks = clock_marks(st)
    if marks:
        out.append(Text((x + pad, cy), marks, CLOCK_PX, RED, "nw", screen=True))
    if st.reading:
        room = w - 2 * pad - (text_width(marks, CLOCK_PX) + 12 if marks else 0)
        out.append(Text((x + w - pad, cy), shorten_left(READING.format(st.reading), CLOCK_PX,
                                                         room), CLOCK_PX, RED, "ne",
                        screen=True))
    return out


def stage_title(stage, corpus=None) -> str:
    """"27　三射用樂": the number and the name, and the section's name in brackets only when it
    is another name (a section given by its number is that number's name, not said twice)."""
    sec = stage.section
    if sec.isdigit():
        found = corpus.section_named(sec) if corpus is not None and hasattr(
            corpus, "section_named") else None
        sec = found.name if found is not None and found.name != sec else (
            "" if int(sec) == stage.index + 1 else f"第{sec}節")
    title = stage.name if sec in ("", stage.name) else STAGE_SECTION.format(name=stage.name,
                                                                            section=sec)
    return STAGE_TITLE.format(number=stage.index + 1, name=title)


def section_number(stage, corpus) -> int | None:
    """The number of the text's section a stage enacts (None: not known)."""
    if corpus is None or not hasattr(corpus, "section_named"):
        return None
    sec = corpus.section_named(stage.section or stage.name)
    return None if sec is None else int(sec.index)


def out_of_order(timeline, stage, corpus) -> str:
    """Where a rite plays its sections out of order (鄉飲酒禮 plays 經第24節, the 遵者, after
    一人舉觶, as the text bids: 既一人舉觶乃入), a line saying both numbers and why:
    "第15節目 · 經第11節：經第24節遵者入之禮演於第11–14節目，經云「…」"; "" when they agree."""
    k = section_number(stage, corpus)
    if k is None or k == stage.index + 1:
        return ""
    line = OUT_OF_ORDER.format(number=stage.index + 1, section=k)
    if k > stage.index + 1:  # this one is played before its place in the text
        first = next((c.text for c in getattr(corpus, "clauses", ()) if c.section == k), "")
        return line + (HERE.format(clause=first) if first else "")
    early = [s for s in timeline.stages[:stage.index] if (section_number(s, corpus) or 0) > k]
    if early:
        j = section_number(early[0], corpus)
        sec = corpus.section_named(early[0].section or early[0].name)
        first = next((c.text for c in getattr(corpus, "clauses", ()) if c.section == j), "")
        stages = f"{early[0].index + 1}" + (f"–{early[-1].index + 1}" if len(early) > 1 else "")
        line += MOVED.format(section=j, name=getattr(sec, "name", ""), stages=stages,
                             clause=first)
    return line


def panel_fixed(timeline, frame, corpus, box, st: HudState, hits: Hits,
                extra: tuple[tuple[str, Color], ...] = (), score_h: int = 0) -> list[Primitive]:
    """The panel without its clock row: what changes only with the step (and notes on/off).
    score_h: px left free under the step for the score panel (its box goes in hits.score)."""
    x, y, w, h = box
    out: list[Primitive] = [Rect(box, PANEL_BG), Line(((x, y), (x, y + h)), (200, 190, 170), 1.0,
                                                     screen=True)]
    pad, inner = 14, w - 28
    cy = y + 12
    stage = timeline.stages[frame.stage] if timeline.stages else None
    step = _cur_step(timeline, frame)
    if stage is not None:
        out.append(Text((x + pad, cy), stage_title(stage, corpus), 22, RED, "nw", screen=True))
        cy += 32
    cy += 22  # the clock's row
    if reading_row(st):
        cy += CLOCK_ROW  # … and the reading's, under it
    why = out_of_order(timeline, stage, corpus) if stage is not None else ""
    for line in wrap(why, 12, inner) if why else ():
        out.append(Text((x + pad, cy), line, 12, RED, "nw", screen=True))
        cy += 16
    if why:
        cy += 4
    if step is not None:
        for line in wrap(CITE.format(enacted_words(corpus, step)), 16, inner):
            out.append(Text((x + pad, cy), line, 16, INK, "nw", screen=True))
            cy += 22
        meta = step.loc + (PATTERN.format(step.pattern) if step.pattern else "")
        if corpus is not None and step.span[1] > step.span[0]:
            page = PAGE.format(corpus.page_at(step.span[0]))
            meta = page + shorten_left(meta, 10, inner - text_width(page, 10))
        else:
            meta = shorten_left(meta, 10, inner)
        out.append(Text((x + pad, cy), meta, 10, GREY, "nw", screen=True))
        cy += 16
        if step.note:
            for line in wrap(step.note, 11, inner):
                out.append(Text((x + pad, cy), line, 11, GREY, "nw", screen=True))
                cy += 15
    if extra:
        cy += 4
        out.append(Line(((x + pad, cy), (x + w - pad, cy)), (200, 190, 170), 1.0, screen=True))
        cy += 6
        for text, col in extra:
            for line in wrap(text, 12, inner):
                out.append(Text((x + pad, cy), line, 12, col, "nw", screen=True))
                cy += 17
    if score_h:
        cy += 2
        hits.score = (x + 1, int(cy), w - 1, int(score_h))
        cy += score_h
    cy += 6
    out.append(Line(((x + pad, cy), (x + w - pad, cy)), (200, 190, 170), 1.0, screen=True))
    cy += 8
    out += section_text(timeline, frame, corpus, step, stage, (x + pad, cy, inner, y + h - cy - 8),
                        st, hits)
    return out


def _section_for(corpus, step, stage):
    if step is not None and step.span[1] > step.span[0]:
        s = corpus.section_at(step.span[0])
        if s is not None:
            return s
    return corpus.section_named(stage.section or stage.name) if stage is not None else None


def section_text(timeline, frame, corpus, step, stage, box, st: HudState, hits: Hits
                 ) -> list[Primitive]:
    """The 經 of the current section, the clause being enacted highlighted, scrolled into view;
    ▲ ▼ (more above, below) in a margin at the right that no line enters."""
    x, y, w, h = box
    w_all, w = w, w - MARK_W
    if corpus is None:
        return [Text((x, y), NO_CORPUS, 12, GREY, "nw", screen=True)]
    sec = _section_for(corpus, step, stage)
    if sec is None:
        return [Text((x, y), NO_SECTION, 12, GREY, "nw", screen=True)]
    spans = enacted_spans(corpus, step) if step is not None else []

    def said(a: int, b: int) -> bool:  # the step on screen says some of [a, b)
        return any(p < b and a < q for p, q in spans)

    clauses = [(k, c) for k, c in enumerate(corpus.clauses) if c.section == sec.index]
    # rows: (text, px, colour, highlighted, clause index or -1, tag)
    rows: list[tuple[str, int, Color, bool, int, str]] = []
    rows.append((SECTION_HEAD.format(index=sec.index, name=sec.name, page=corpus.page_at(sec.start)),
                 11, GREY, False, -1, ""))
    if not clauses:  # degrade: the plain text of the section, lines with the cited words marked
        pos = sec.start
        for line in wrap(corpus.plain[sec.start:sec.end], 15, w):
            end = pos + len(line)
            rows.append((line, 15, INK, said(pos, end), -1, ""))
            pos = end
    for ci, c in clauses:
        cur = said(c.start, c.end)
        tag = JI if c.kind == JI else ""
        body = c.punct or c.text
        lines = wrap(body, 15, w - (22 if tag else 0))
        for k, line in enumerate(lines):
            rows.append((line, 15, INK, cur, ci, tag if k == 0 else ""))
        if cur and st.show_notes:
            for note in c.notes:
                for line in wrap(NOTE.format(note), 11, w - 10):
                    rows.append((line, 11, (96, 86, 74), False, -2, ""))
    heights = [int(px * 1.5) for _, px, *_ in rows]
    first_hl = next((i for i, r in enumerate(rows) if r[3]), None)
    offset = 0
    total = sum(heights)
    if total > h and first_hl is not None:
        # keep the enacted clause a third of the way down the box
        above = sum(heights[:first_hl])
        offset = min(max(above - h / 3, 0), total - h)
    out: list[Primitive] = []
    cy = y - offset
    for (line, px, col, hl, ci, tag), rh in zip(rows, heights, strict=True):
        if cy >= y - 1 and cy + rh <= y + h + 1:  # whole rows only: none under the header
            indent = 22 if (ci >= 0 and corpus.clauses[ci].kind == JI) else 0
            if ci == -2:
                indent = 10
            if hl:
                out.append(Rect((x + indent - 2, cy - 1, text_width(line, px) + 4, rh), HILITE))
            if tag:
                out.append(Text((x, cy + 1), tag, 11, (255, 255, 255), "nw", bg=(110, 90, 60),
                                screen=True))
            out.append(Text((x + indent, cy), line, px, col, "nw", screen=True))
            if ci >= 0:
                hits.clauses.append(((x, cy, w, rh), ci, corpus.clauses[ci].start))
        cy += rh
    if offset > 0:
        out.append(Text((x + w_all, y), MORE_ABOVE, 10, GREY, "ne", screen=True))
    if cy > y + h:
        out.append(Text((x + w_all, y + h), MORE_BELOW, 10, GREY, "se", screen=True))
    return out


def legend(at: tuple[float, float, float], substitutions: tuple[tuple[str, str], ...] = ()
           ) -> list[Primitive]:
    """Party colours, posture marks, and any glyph substitution (honestly said)."""
    x, y, w = at
    items = list(zip(PARTIES, (PARTY_COLORS["主"], PARTY_COLORS["賓"], OTHER_PARTY)))
    subs = LIST_SEP.join(SUBSTITUTE.format(code=ord(a), shown=b) for a, b in substitutions)
    sub_lines = wrap(SUBSTITUTIONS.format(subs), 11, w - 16) if subs else []
    out: list[Primitive] = [Rect((x, y, w, 52 + 15 * len(sub_lines)), (250, 247, 240, 230),
                                 (200, 190, 170), radius=4)]
    cx = x + 14
    for name, col in items:
        out.append(Polygon(((cx - 6, y + 9), (cx + 6, y + 9), (cx + 6, y + 21), (cx - 6, y + 21)),
                           col, None, 1.0, screen=True))
        out.append(Text((cx + 10, y + 15), name, 12, INK, "w", screen=True))
        cx += 58
    out.append(Text((x + 8, y + 37), MARKS, 12, INK, "w", screen=True))
    for k, line in enumerate(sub_lines):
        out.append(Text((x + 8, y + 58 + 15 * k), line, 11, GREY, "w", screen=True))
    return out


