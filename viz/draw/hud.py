"""Screen-space parts of a frame: the text panel, the timeline bar, legend, help, toast, search box.

Built as display-list primitives (Rect, Text, Line with screen=True) so every back end draws the
same thing; returns also the clickable areas (the clauses) for the window.
Text is wrapped with a width estimate, not a font: in the bundled Noto face every hanzi and
CJK punctuation mark is one em wide, which is what the estimate assumes.
"""
from __future__ import annotations

import unicodedata
from bisect import bisect_right
from collections.abc import Hashable
from dataclasses import dataclass, field, replace
from functools import lru_cache

from viz.base.lang import tr
from viz.draw.display import Color, Line, Polygon, Primitive, Rect, Text
from viz.draw.scene import OTHER_PARTY, PARTY_COLORS, literal, text_width_em
from viz.model.scenario import numeral
from viz.model.scoring import results_until, score_values
from viz.query.words import enacted_spans, enacted_words
from viz.text import normalize

PAPER: Color = (250, 247, 240)
PANEL_BG: Color = (244, 239, 228)
INK: Color = (40, 34, 28)
GREY: Color = (120, 110, 98)
FAINT: Color = (176, 166, 152)
RED: Color = (150, 36, 30)
HILITE: Color = (252, 226, 150)
BAR_H = 66
WRAP_MEMO = 4096  # wrapped texts kept (a section's clauses at a few sizes: a few hundred)
NO_BREAK_START = set("，。、：；！？」』）》〉…")

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
ELLIPSIS = "…"
SKIPPING = "略候"  # W: the waits are skipped
PRESENTING = "講 → {t:.0f} s"  # P: playing to the end of a step, then pausing
CLOCK_MARKS = "  ·  "
ELSEWHERE = "此節在他處（不在此堂、庭之中）"
COMPILING = "編譯中 compiling … {}/{} 節"
PARTIES = ("主黨", "賓黨", "他")
MARKS = "▶ 面向　□ 坐　拜／揖 行禮"
SUBSTITUTE = "U+{code:04X} 以「{shown}」示"
SUBSTITUTIONS = "字：{}（缺末筆字，字體無此字）"
LIST_SEP = "、"
SEARCH = "尋 / {}▏"
HELP_TITLE = "按鍵 Keys"
READING = "讀法 {}"
PROBLEMS = "重載有誤，仍演前一版 (reload failed; playing the last good version)"
PROBLEMS_MORE = "… 另 {n} 條"
MAX_PROBLEMS = 12  # rows of the error overlay; the rest are counted
STAGE_LIST = "節目 Stages · {n}"
STAGE_LIST_HINT = "↑↓ · Enter 跳 go · Esc 關 close"
STAGE_LIST_ASK = "打字：節名或號 type a name or number"
STAGE_LIST_TYPED = "尋 {}▏"
STAGE_LIST_NONE = "無 no stage"
STAGE_ROW_T = "{:.0f} s"
# the score panel (a round under way, or a count announced): see score_info, score_rows
ROUND_TITLE = "第{n}番射"
ROUND_DONE = "第{n}番射 · 已數"
TALLY = "右 {right} 算 / 左 {left} 算"
CALLED = "獲 右 {right} / 左 {left}（不釋獲）"
BEAT = "鼓 {beat}/{per} · {end}終"
BEAT_OPEN = "鼓 {beat} · {end}終"  # the music stopped within its first 終: its length unknown
PIECE = "　{}"
ANNOUNCE = "「{}」"
ARCHER = "{name}（{side}）獲　{hits}"
ARCHER_ROUND = "{n}番 {k}"
ARCHER_SEP = " · "
SCORE_ROW_H = 19  # px a row of the score panel
STICKS_H = 16  # px of its row of 算
STICK_MAX = 24  # 算 drawn a side; beyond, the number says it
LIST_ROW_H = 22  # px a row of the stage list
LIST_HEAD_H = 58  # px of its title, hint and typed text
LIST_W = 400
BAR_ROWS = 2  # the bar's names alternate between this many rows

KEYS = [
    ("Space", "播放／暫停 play / pause"),
    ("← →", "上一步／下一步 step"),
    ("PgUp PgDn  [ ]", "上一節／下一節 stage"),
    ("Home End", "開頭／結尾 start / end"),
    ("+ −", "速度 speed (×0.25 … ×64)"),
    ("Ctrl++ Ctrl+−", "字與人放大／縮小 larger / smaller names"),
    ("W", "略候 skip the waits (nobody moves)"),
    ("P  Enter", "講 play one step, then pause"),
    ("F11", "全螢幕 fullscreen"),
    ("滾輪 wheel", "縮放 zoom at cursor"),
    ("拖曳 drag", "平移 pan (on the map)"),
    ("F", "全圖 fit"),
    ("I", "侯道分圖 range inset on / off"),
    ("N", "鄭注 show / hide notes"),
    ("/", "搜尋經文 find in the text"),
    ("L  Tab", "節目 stage list: type, click, Enter"),
    ("點句 click", "跳至此句 jump to a clause"),
    ("點時間軸 click bar", "跳轉 scrub"),
    ("點人／物 click", "選之 select: trail, next move; a thing"),
    ("C", "隨所選者 follow the selected"),
    ("G", "前一步之位 where they were"),
    ("R", "換讀法 next reading (鄭, 敖 …)"),
    ("V  Shift+R", "比較讀法 compare readings"),
    ("D", "鼓聲 drum sound on the beats"),
    ("S", "存圖 screenshot"),
    ("H", "說明 this help"),
    ("Esc Q", "離開 quit (Esc 先取消所選)"),
]


TEXTS: tuple[str, ...] = tuple(literal(t) for t in (
    STAGE_TITLE, STAGE_SECTION, OUT_OF_ORDER, MOVED, HERE, PLAYING, PAUSED, CLOCK, CITE, PAGE, PATTERN, SECTION_HEAD, NO_CORPUS,
    NO_SECTION, JI, NOTE, MORE_ABOVE, MORE_BELOW, ELSEWHERE, COMPILING, *PARTIES, MARKS, SUBSTITUTE,
    SUBSTITUTIONS, LIST_SEP, SEARCH, HELP_TITLE, READING, ELLIPSIS, SKIPPING, PRESENTING,
    CLOCK_MARKS, PROBLEMS, PROBLEMS_MORE, STAGE_LIST,
    STAGE_LIST_HINT, STAGE_LIST_ASK, STAGE_LIST_TYPED, STAGE_LIST_NONE, STAGE_ROW_T,
    ROUND_TITLE, ROUND_DONE, TALLY, CALLED, BEAT, BEAT_OPEN, PIECE, ANNOUNCE, ARCHER,
    ARCHER_ROUND, ARCHER_SEP,
    *(k + w for k, w in KEYS))) + ("0123456789ABCDEF.", "〇一二三四五六七八九十右左純奇賢於鈞")


@dataclass(frozen=True)
class HudState:
    """What the window's HUD shows besides the moment: play state, toggles, typing, a message."""

    playing: bool = False
    speed: float = 1.0
    show_notes: bool = False
    search: str | None = None  # text being typed after "/", None when closed
    search_note: str = ""
    toast: str = ""
    help: bool = False
    reading: str = ""  # the reading shown (the window always names it; "" for a plain shot)
    problems: tuple[str, ...] = ()  # located messages of a failed reload, over the picture
    stages: str | None = None  # the stage list's typed text (L), None when closed
    stage_pick: int = 0  # the stage list's row Enter goes to
    stage_top: int = 0  # the stage list's first row shown
    score_who: int | None = None  # whose hits the score panel gives (selected or under the mouse)
    compiling: tuple[int, int] | None = None  # (stages ready, in all) while the rest compiles
    skip_waits: bool = False  # W: playback jumps over the stretches where nobody moves
    stop_at: float | None = None  # P: playback pauses when it reaches this (a step's end)


@dataclass
class Hits:
    """Clickable areas of the HUD, in pixels: (box, clause index, clause start) per visible row."""

    clauses: list[tuple[tuple[float, float, float, float], int, int]] = field(default_factory=list)
    score: tuple[float, float, float, float] | None = None  # the score panel's box, if shown


UI_BASE = (1366, 768)  # px: the window at which the UI scale is 1
UI_ROOM = (900, 500)  # px: the least the HUD is laid out in: the scale grows no further than
# the window holds that many pixels of it (Ctrl + at 1366×768 stops at 1.5, at 1920×1080 at 2.1)
LEGEND_W = 172  # px: the legend's least width (its row of three parties, its row of marks)


def ui_scale(size: tuple[int, int], user: float = 1.0) -> float:
    """How much larger the whole picture's parts are drawn (names, tokens, glyphs, the text
    panel, the bar): 1 up to 1366×768, growing with the window beyond it (1.4 at 1920×1080),
    times the user's own scale (Ctrl + / −, --scale)."""
    grown = max(1.0, min(size[0] / UI_BASE[0], size[1] / UI_BASE[1])) * float(user)
    return min(grown, max(1.0, min(size[0] / UI_ROOM[0], size[1] / UI_ROOM[1])))


def legend_k(width: float, k: float) -> float:
    """The legend's scale in a slot `width` px wide at the UI scale k: k, or smaller where the
    slot is narrower than the legend needs (it shrinks rather than spill)."""
    return min(k, max(width, 1.0) / LEGEND_W)


def legend_height(width: float, k: float, substitutions: tuple[tuple[str, str], ...] = ()
                  ) -> float:
    """The legend's height in px in a slot `width` px wide at the UI scale k."""
    kl = legend_k(width, k)
    return float(legend((0.0, 0.0, width / kl), substitutions)[0].box[3]) * kl


def areas(size: tuple[int, int], user: float = 1.0) -> dict[str, tuple[int, int, int, int]]:
    """Where the map, the panel and the bar go in a window of this size, at the user's UI scale
    (the panel and the bar grow with ui_scale)."""
    return areas_at(size, ui_scale(size, user))


def areas_at(size: tuple[int, int], k: float) -> dict[str, tuple[int, int, int, int]]:
    """areas at a UI scale k already worked out (ui_scale(size, user))."""
    w, h = size
    pw = int(min(max(w * 0.28, 280 * k), 420 * k, w * 0.5))  # a narrow window keeps half
    bh = min(round(BAR_H * k), h // 3)
    return {"map": (0, 0, max(w - pw, 1), max(h - bh, 1)),
            "panel": (w - pw, 0, max(pw, 1), max(h - bh, 1)), "bar": (0, h - bh, w, max(bh, 1))}


def bar_track(size: tuple[int, int], user: float = 1.0) -> tuple[float, float, float, float]:
    """The clickable track of the timeline bar: x, y, w, h in pixels."""
    return track_at(size, ui_scale(size, user))


def track_at(size: tuple[int, int], k: float) -> tuple[float, float, float, float]:
    """bar_track at a UI scale k already worked out."""
    x, y, w, h = areas_at(size, k)["bar"]
    return (x + 14 * k, y + 4 * k, w - 28 * k, h - 8 * k)


def text_width(s: str, px: float) -> float:
    return text_width_em(s) * px


def _tokens(s: str) -> list[str]:
    """Hanzi and CJK marks one by one; Latin words whole with their trailing space."""
    out: list[str] = []
    word = ""
    for c in s:
        if ord(c) > 0x2E7F or c == "\n":
            if word:
                out.append(word)
                word = ""
            out.append(c)
        else:
            word += c
            if c == " ":
                out.append(word)
                word = ""
    if word:
        out.append(word)
    return out


def wrap(s: str, px: float, width: float) -> list[str]:
    """Break between hanzi or at spaces, keeping closing punctuation off the start of a line."""
    return list(_wrap(s, px, width))


@lru_cache(maxsize=WRAP_MEMO)
def _wrap(s: str, px: float, width: float) -> tuple[str, ...]:
    """wrap, kept by (text, px, width): the panel wraps the same clauses every frame."""
    lines, cur, w = [], "", 0.0
    for tok in _tokens(s):
        if tok == "\n":
            lines.append(cur)
            cur, w = "", 0.0
            continue
        tw = text_width(tok.rstrip(), px)
        if cur and w + tw > width and tok[0] not in NO_BREAK_START:
            lines.append(cur.rstrip())
            cur, w = "", 0.0
        while tw > width and len(tok) > 1:  # a word longer than the line: cut it
            k = 1
            while k < len(tok) and text_width(tok[:k + 1], px) <= width:
                k += 1
            lines.append(tok[:k])
            tok = tok[k:]
            tw = text_width(tok.rstrip(), px)
        cur += tok
        w += text_width(tok, px)
    if cur or not lines:
        lines.append(cur.rstrip())
    return tuple(lines)


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


def logical(size: tuple[int, int], user: float = 1.0
            ) -> tuple[float, dict[str, tuple[float, float, float, float]], tuple[float, float]]:
    """(k, areas, size) of the HUD as it is built: at 1/k of the window, then drawn k times
    larger (scaled), k = ui_scale(size, user). At k = 1 the window's own areas and size."""
    k = ui_scale(size, user)
    a = areas(size, user)
    if k == 1.0:
        return k, dict(a), (size[0], size[1])
    return k, {n: tuple(v / k for v in b) for n, b in a.items()}, (size[0] / k, size[1] / k)


def _pts(points, k: float) -> tuple[tuple[float, float], ...]:
    return tuple((x * k, y * k) for x, y in points)


def scaled(prims, k: float) -> tuple[Primitive, ...]:
    """Screen primitives drawn k times larger about the window's top left corner: positions,
    sizes, line widths, radii (the HUD built at 1/k of the window fills it)."""
    if k == 1.0:
        return tuple(prims)
    out: list[Primitive] = []
    for p in prims:
        if isinstance(p, Text):
            out.append(replace(p, pos=(p.pos[0] * k, p.pos[1] * k), size=p.size * k,
                               min_px=p.min_px * k, max_px=p.max_px * k))
        elif isinstance(p, Rect):
            out.append(replace(p, box=tuple(v * k for v in p.box), width=p.width * k,
                               radius=round(p.radius * k)))
        elif isinstance(p, Line):
            out.append(replace(p, points=_pts(p.points, k), width=p.width * k,
                               dash=None if p.dash is None else (p.dash[0] * k, p.dash[1] * k)))
        elif isinstance(p, Polygon):
            out.append(replace(p, points=_pts(p.points, k), width=p.width * k))
        else:
            out.append(p)
    return tuple(out)


def _box(box, k: float):
    return box if k == 1.0 else tuple(v * k for v in box)


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


# ---------------------------------------------------------------- the score panel


@dataclass(frozen=True)
class ScoreInfo:
    """What the score panel says at a moment, from the compiled timeline (score_info)."""

    round: int = 0  # the round under way (0: none)
    right: int = 0  # 算 laid on each side in it
    left: int = 0
    counted: bool = True  # the round's hits are laid as 算 (第一番射: 獲而未釋獲)
    called: tuple[int, int] = (0, 0)  # hits called right and left so far, for a round not laid
    beat: int = 0  # the drum's beat of the round's music (0: none), counted from its start
    end: int = 0  # the 終 it is in
    per_end: int = 0  # beats a 終
    piece: str = ""
    struck: bool = False  # the drum sounds now (the beat's first quarter second)
    result_round: int = 0  # the last round whose count has been announced (0: none yet)
    result: tuple[int, int] = (0, 0)  # its 算, right and left
    announce: str = ""  # its announcement
    archer: tuple[str, str, tuple[tuple[int, int], ...]] | None = None  # name, side, (round, hits)


def round_title(n: int) -> str:
    return ROUND_TITLE.format(n=numeral(n))


def tally_text(right: int, left: int) -> str:
    return TALLY.format(right=right, left=left)


def beat_text(beat: int, end: int, per_end: int, piece: str = "") -> str:
    """鼓 3/8 · 二終: the beat within its 終 of per_end beats (beat counted from the music's
    start), and which 終."""
    end_n = numeral(max(end, 1))
    text = (BEAT.format(beat=(beat - 1) % per_end + 1, per=per_end, end=end_n) if per_end > 0
            else BEAT_OPEN.format(beat=beat, end=end_n))
    return text + (PIECE.format(piece) if piece else "")


def archer_text(name: str, side: str, hits: tuple[tuple[int, int], ...]) -> str:
    per = ARCHER_SEP.join(ARCHER_ROUND.format(n=numeral(r), k=k) for r, k in hits)
    return ARCHER.format(name=name, side=side, hits=per or "—")


# a row: ("text", text, px, colour) or ("sticks", right, left)
ScoreRow = tuple


def score_rows(info: ScoreInfo) -> tuple[ScoreRow, ...]:
    """The panel's rows: the round, the 算 each side (as words and as sticks), the beat, the
    announcement once made, and the hovered or selected archer's hits; () when none applies."""
    rows: list[ScoreRow] = []
    if info.round:
        rows.append(("text", round_title(info.round), 15, RED))
        if info.counted:
            rows.append(("text", tally_text(info.right, info.left), 14, INK))
            rows.append(("sticks", info.right, info.left))
        else:
            rows.append(("text", CALLED.format(right=info.called[0], left=info.called[1]), 13,
                         INK))
        if info.beat:
            rows.append(("text", beat_text(info.beat, info.end, info.per_end, info.piece), 13,
                         RED if info.struck else INK))
        if info.announce and info.result_round == info.round:
            rows.append(("text", ANNOUNCE.format(info.announce), 15, RED))
    elif info.result_round:
        rows.append(("text", ROUND_DONE.format(n=numeral(info.result_round)), 15, RED))
        rows.append(("text", tally_text(*info.result), 14, INK))
        rows.append(("sticks", *info.result))
        if info.announce:
            rows.append(("text", ANNOUNCE.format(info.announce), 15, RED))
    if info.archer is not None and (rows or any(k for _, k in info.archer[2])):
        rows.append(("text", archer_text(*info.archer), 12, GREY if rows else INK))
    return tuple(rows)


def score_lines(info: ScoreInfo) -> list[str]:
    """The panel's words (for tests and the font check)."""
    return [r[1] for r in score_rows(info) if r[0] == "text"]


def score_height(rows) -> int:
    """The panel's height in px for these rows; 0 for none."""
    if not rows:
        return 0
    return 12 + sum(STICKS_H if r[0] == "sticks" else SCORE_ROW_H for r in rows)


def _score_static(timeline, memo: dict) -> dict:
    """What the panel reads of the whole rite once: the rounds laid as 算, the rounds shot,
    and the drum's beats (t0, t1, beat, 終, beats a 終, piece)."""
    key = ("hud.score.static",)
    if key not in memo:
        sc = getattr(timeline, "scoring", None) or {}
        shots = sc.get("shots", ())
        laid = {s["round"] for s in shots if s.get("tallied")}
        laid |= {r["round"] for r in sc.get("results", ())}
        first: dict[int, float] = {}
        for s in shots:
            first[s["round"]] = min(first.get(s["round"], s["t_release"]), s["t_release"])
        beats = sorted((e for e in getattr(timeline, "events", ()) if e.kind == "beat"),
                       key=lambda e: e.t0)
        runs: list[list] = []
        for e in beats:
            if not runs or int(e.data.get("beat", 0)) <= 1:
                runs.append([])
            runs[-1].append(e)
        rows = []
        for run in runs:
            # beats a 終: those of the first, known once a second has begun
            per = (sum(1 for e in run if int(e.data.get("終", 1)) == 1)
                   if any(int(e.data.get("終", 1)) > 1 for e in run) else 0)
            rows += [(e.t0, e.t1, per, e.text) for e in run]
        memo[key] = {"laid": laid, "first": first, "beats": rows,
                     "times": [b[0] for b in rows], "sides": dict(sc.get("sides", {}))}
    return memo[key]


def _shown_until(timeline, memo: dict) -> float:
    """When the last count stops being shown: at the end of the second stage after the one it
    is announced in (the drinking and the 獻獲者 or 三射畢 that follow it)."""
    key = "score.shown_until"
    if key not in memo:
        ts = [r.get("t", 0.0) for r in (timeline.scoring or {}).get("results", ())]
        stages = getattr(timeline, "stages", ())
        if not ts or not stages:
            memo[key] = float("inf")
        else:
            k = timeline.stage_at(max(ts))
            memo[key] = float(stages[min(k + 2, len(stages) - 1)].t1)
    return memo[key]


def score_info(timeline, frame, who: int | None = None, memo: dict | None = None
               ) -> ScoreInfo | None:
    """The score panel's facts at the frame: None when no round is under way, no count has
    been announced and nobody with hits is pointed at (迎賔 and the like show no panel)."""
    memo = {} if memo is None else memo
    if not getattr(timeline, "scoring", None):
        return None
    static = _score_static(timeline, memo)
    t = frame.t
    v = score_values(frame)
    done = results_until(timeline, t)
    last = done[-1] if done else None
    archer = None
    if who is not None and 0 <= who < len(timeline.actors):
        aid = timeline.actors[who].id
        side = static["sides"].get(aid)
        if side:
            got: dict[int, int] = {}
            for s in timeline.scoring.get("shots", ()):
                if s["actor"] == aid and s["t_land"] <= t:
                    got[s["round"]] = got.get(s["round"], 0) + int(s["hit"])
            hits = tuple((r, got.get(r, 0)) for r, t0 in sorted(static["first"].items())
                         if t0 <= t)
            archer = (timeline.actors[who].name, side, hits)
    rnd = v["round"]
    if not rnd and last is not None and t > _shown_until(timeline, memo):
        last = None  # the shooting is over (旅酬, 燕 …): its last count is no longer news
    if not rnd and last is None and (archer is None or not any(k for _, k in archer[2])):
        return None
    counted = rnd in static["laid"]
    called = (0, 0)
    if rnd and not counted:
        got = {"右": 0, "左": 0}
        for s in timeline.scoring.get("shots", ()):
            if s["round"] == rnd and s["t_land"] <= t and s["hit"] and s.get("side") in got:
                got[s["side"]] += 1
        called = (got["右"], got["左"])
    per, piece, struck = 0, "", False
    if v["beat"]:
        k = bisect_right(static["times"], t) - 1
        if k >= 0:
            t0, t1, per, piece = static["beats"][k]
            struck = t < t1
    return ScoreInfo(rnd, v["右"], v["左"], counted, called, v["beat"], v["終"], per, piece,
                     struck, last["round"] if last else 0,
                     (last["右"], last["左"]) if last else (0, 0),
                     last["announce"] if last else "", archer)


def score_panel(box, rows) -> list[Primitive]:
    """The score panel in its slot of the text panel: a rule, then the rows."""
    x, y, w, h = box
    pad = 13
    out: list[Primitive] = [Rect(box, PANEL_BG),
                            Line(((x + pad, y + 4), (x + w - pad, y + 4)), (200, 190, 170), 1.0,
                                 screen=True)]
    cy = y + 9
    for r in rows:
        if r[0] == "sticks":
            half = (w - 2 * pad) // 2  # whole pixels: 2 px sticks stay crisp
            for k, (n, col) in enumerate(((r[1], RED), (r[2], INK))):
                sx = x + pad + k * half
                out.append(Text((sx, cy + 1), "右左"[k], 10, GREY, "nw", screen=True))
                sx += 14
                for j in range(min(n, STICK_MAX)):
                    lx = sx + j * 4 + (j // 2) * 3  # 二算為純: laid in pairs
                    if lx > x + pad + (k + 1) * half - 6:
                        break
                    out.append(Line(((lx, cy + 2), (lx, cy + 12)), col, 2.0, screen=True))
            cy += STICKS_H
            continue
        _, text, px, col = r
        out.append(Text((x + pad, cy), text, px, col, "nw", screen=True))
        cy += SCORE_ROW_H
    return out


def problems_overlay(map_box, problems: tuple[str, ...]) -> list[Primitive]:
    """The located messages of a failed reload, in a box across the top of the map: the picture
    under it keeps playing the last good version."""
    x, y, w, _ = map_box
    bw = max(w - 24, 40)
    rows: list[str] = []
    for p in problems[:MAX_PROBLEMS]:
        rows += wrap(p, 12, bw - 28)
    if len(problems) > MAX_PROBLEMS:
        rows.append(PROBLEMS_MORE.format(n=len(problems) - MAX_PROBLEMS))
    bh = 34 + 17 * len(rows)
    out: list[Primitive] = [Rect((x + 12, y + 12, bw, bh), (255, 246, 240, 235), RED, 1.5,
                                 radius=5),
                            Text((x + 22, y + 20), tr(PROBLEMS), 13, RED, "nw", screen=True)]
    for k, line in enumerate(rows):
        out.append(Text((x + 22, y + 40 + 17 * k), line, 12, INK, "nw", screen=True))
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


def shorten_left(s: str, px: float, width: float) -> str:
    """s, or its end after "…" when it is wider than width (a path: its file name and line
    are what matters)."""
    if text_width(s, px) <= width:
        return s
    room = width - text_width(ELLIPSIS, px)
    k = len(s)
    while k > 0 and text_width(s[k - 1:], px) <= room:
        k -= 1
    return ELLIPSIS + s[k:]


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


def bar(timeline, frame, box) -> list[Primitive]:
    """Stages as alternating bands with names, step ticks, and the playhead."""
    return bar_fixed(timeline, frame, box) + playhead(timeline, frame, box)


def bar_span(timeline, compiling: tuple[int, int] | None = None) -> float:
    """The seconds the bar spans: the rite's, or while the rest compiles (ready, total stages),
    what is ready drawn at the share of the stages it holds (a guess, made good at the end)."""
    dur = max(timeline.duration, 1e-9)
    if compiling is None:
        return dur
    ready, total = compiling
    return dur * max(total, 1) / max(min(ready, total), 1)


def playhead(timeline, frame, box, compiling: tuple[int, int] | None = None) -> list[Primitive]:
    """The bar's marker of t."""
    x, y, w, _ = box
    hx, ty = x + 14 + (w - 28) * frame.t / bar_span(timeline, compiling), y + 40
    return [Line(((hx, ty - 14), (hx, ty + 14)), RED, 2.0, screen=True),
            Polygon(((hx - 5, ty - 19), (hx + 5, ty - 19), (hx, ty - 13)), RED, RED, 1.0,
                    screen=True)]


def bar_fixed(timeline, frame, box, compiling: tuple[int, int] | None = None
              ) -> list[Primitive]:
    """The bar without its playhead: what changes only with the stage. While the rest of the
    rite compiles, the part not yet ready is a hatched band saying so."""
    x, y, w, h = box
    out: list[Primitive] = [Rect(box, (236, 229, 214)),
                            Line(((x, y), (x + w, y)), (200, 190, 170), 1.0, screen=True)]
    tx, tw, ty = x + 14, w - 28, y + 40  # the track of bar_track(size)
    dur = bar_span(timeline, compiling)

    def px(t: float) -> float:
        return tx + tw * t / dur

    for s in timeline.stages:
        x0, x1 = px(s.t0), px(s.t1)
        band = (214, 200, 172) if s.index % 2 == 0 else (226, 214, 190)
        if s.index == frame.stage:
            band = (238, 196, 120)
        out.append(Rect((x0, ty - 6, max(x1 - x0, 1), 12), band))
        out.append(Line(((x0, ty - 10), (x0, ty + 6)), (110, 90, 60), 1.0, screen=True))
    starts = [px(s.t0) for s in timeline.stages]
    names = [s.name for s in timeline.stages]
    for i, lx, row, text in bar_labels(starts, names, frame.stage, 11, x + 2, x + w - 4):
        out.append(Text((lx, y + 6 + row * 13), text, 11, RED if i == frame.stage else INK, "nw",
                        screen=True))
    for st in timeline.steps:
        xs = px(st.t0)
        out.append(Line(((xs, ty + 7), (xs, ty + 11)), (140, 120, 96), 1.0, screen=True))
    if compiling is not None:
        out += _compiling(px(timeline.duration), tx + tw, ty, compiling)
    return out


def _compiling(x0: float, x1: float, ty: float, compiling: tuple[int, int]) -> list[Primitive]:
    """The bar's part still compiling: a hatched band and how far the compile has come."""
    if x1 - x0 < 2:
        return []
    out: list[Primitive] = [Rect((x0, ty - 6, x1 - x0, 12), (222, 218, 210))]
    hx = x0 - 12
    while hx < x1:
        a, b = max(hx, x0), min(hx + 12, x1)
        if b > a:
            out.append(Line(((a, ty + 6 - (a - hx)), (b, ty + 6 - (b - hx))), (170, 160, 146),
                            1.0, screen=True))
        hx += 8.0
    text = tr(COMPILING).format(*compiling)
    if x1 - x0 > text_width(text, 11) + 12:
        out.append(Text(((x0 + x1) / 2, ty), text, 11, INK, "c", bg=(236, 229, 214),
                        screen=True))
    return out


def bar_label(number: int, name: str, room: float, px: float) -> str:
    """The longest of "N name", N with the name's first characters, or N alone, that is at most
    room px wide; "" when not even the number fits."""
    for k in range(len(name), -1, -1):
        text = f"{number}{name[:k]}"
        if text_width(text, px) <= room:
            return text
    return ""


def bar_labels(starts: list[float], names: list[str], current: int, px: float, left: float,
               right: float, rows: int = BAR_ROWS, gap: float = 4.0
               ) -> list[tuple[int, float, int, str]]:
    """Where the bar names its stages: (stage, x, row, text), stage i in row i % rows from its
    start to the next start of its row, shortened to fit (bar_label). The current stage is
    named whole and kept inside [left, right]; names it covers are left out. None overlap."""
    n = len(starts)
    cur = None
    if 0 <= current < n:
        text = f"{current + 1}{names[current]}"
        cw = text_width(text, px)
        cx = max(min(starts[current] + 2, right - cw), left)
        cur = (cx, cx + cw, current % rows, text)
    out = []
    for i in range(n):
        if cur is not None and i == current:
            out.append((i, cur[0], cur[2], cur[3]))
            continue
        x, row = starts[i] + 2, i % rows
        limit = min(starts[i + rows] + 2 - gap if i + rows < n else right, right)
        if cur is not None and row == cur[2]:
            if cur[0] - gap <= x < cur[1] + gap:
                continue
            if x < cur[0]:
                limit = min(limit, cur[0] - gap)
        text = bar_label(i + 1, names[i], limit - x, px)
        if text:
            out.append((i, x, row, text))
    return out


def stage_matches(names: list[str], query: str) -> list[int]:
    """The stages typed text finds, best first: the stage of that number (and those whose
    number starts with it), else names starting with it, then names containing it; variants
    and full-width digits equal (賓 finds 賔, ３ finds 3)."""
    q = normalize(unicodedata.normalize("NFKC", query)).strip()
    if not q:
        return []
    if q.isascii() and q.isdigit():
        exact = [int(q) - 1] if 1 <= int(q) <= len(names) else []
        return exact + [i for i in range(len(names)) if str(i + 1).startswith(q)
                        and i not in exact]
    folded = [normalize(n) for n in names]
    starts = [i for i, n in enumerate(folded) if n.startswith(q)]
    return starts + [i for i, n in enumerate(folded) if q in n and i not in starts]


def stage_list_box(size: tuple[int, int], n: int, user: float = 1.0
                   ) -> tuple[float, float, float, float]:
    """The box of a list of n stages: over the map, centred, as tall as its rows or the map
    (in the HUD's logical px: see logical)."""
    return _list_box(logical(size, user)[1]["map"], n)


def _list_box(map_box, n: int) -> tuple[float, float, float, float]:
    mx, my, mw, mh = map_box
    bw = min(LIST_W, max(mw - 24, 40))
    bh = min(mh - 24, LIST_HEAD_H + 10 + LIST_ROW_H * max(n, 1))
    return (mx + (mw - bw) / 2, my + 12, bw, max(bh, LIST_HEAD_H + LIST_ROW_H + 10))


def _list_rows(box) -> int:
    return max(int((box[3] - LIST_HEAD_H - 6) // LIST_ROW_H), 1)


def stage_list_rows(size: tuple[int, int], n: int, user: float = 1.0) -> int:
    """How many rows of a list of n stages show at once."""
    return _list_rows(stage_list_box(size, n, user))


def list_top(top: int, rows: int, n: int, pick: int | None = None) -> int:
    """The first row shown: moved so `pick` (if given) is in view, and kept within the list."""
    if pick is not None:
        top = min(max(top, pick - rows + 1), pick)
    return min(max(top, 0), max(n - rows, 0))


def stage_list_row_at(size: tuple[int, int], n: int, top: int,
                      pos: tuple[float, float], user: float = 1.0) -> int | None:
    """The stage whose row of the list (scrolled to `top`) is under pos (window px), else None."""
    k = ui_scale(size, user)
    bx, by, bw, _ = stage_list_box(size, n, user)
    rows = stage_list_rows(size, n, user)
    top = list_top(top, rows, n)
    px, py = pos[0] / k, pos[1] / k
    r = (py - by - LIST_HEAD_H) // LIST_ROW_H
    if not (bx <= px < bx + bw) or py < by + LIST_HEAD_H or not 0 <= r < rows:
        return None
    i = top + int(r)
    return i if i < n else None


def stage_list(timeline, frame, size: tuple[float, float], st: HudState,
               map_box=None) -> list[Primitive]:
    """The stage list (L): every stage by number and name, the current one in red, the picked
    row highlighted, what the typed text does not find greyed; scrolled to st.stage_top.
    size and map_box in the HUD's logical px (map_box: areas(size)'s map when not given)."""
    names = [s.name for s in timeline.stages]
    box = _list_box(areas(size)["map"] if map_box is None else map_box, len(names))
    n, rows = len(names), _list_rows(box)
    top = list_top(st.stage_top, rows, n)
    bx, by, bw, bh = box
    found = set(stage_matches(names, st.stages or ""))
    w, h = size
    out: list[Primitive] = [Rect((0, 0, w, h), (30, 26, 20, 70)),
                            Rect((bx, by, bw, bh), (250, 247, 240), INK, 1.5, radius=8),
                            Text((bx + 14, by + 14), tr(STAGE_LIST).format(n=n), 15, RED, "w",
                                 screen=True),
                            Text((bx + bw - 12, by + 14), tr(STAGE_LIST_HINT), 10, GREY, "e",
                                 screen=True),
                            Text((bx + 14, by + 40), STAGE_LIST_TYPED.format(st.stages or ""), 14,
                                 INK, "w", screen=True)]
    if not st.stages:
        out.append(Text((bx + 50, by + 40), tr(STAGE_LIST_ASK), 11, GREY, "w", screen=True))
    elif not found:
        out.append(Text((bx + bw - 12, by + 40), tr(STAGE_LIST_NONE), 11, GREY, "e", screen=True))
    out.append(Line(((bx + 8, by + LIST_HEAD_H - 4), (bx + bw - 8, by + LIST_HEAD_H - 4)),
                    (200, 190, 170), 1.0, screen=True))
    for k, s in enumerate(timeline.stages[top:top + rows]):
        i, ry = top + k, by + LIST_HEAD_H + k * LIST_ROW_H
        if i == st.stage_pick:
            out.append(Rect((bx + 6, ry, bw - 22, LIST_ROW_H), HILITE, radius=3))
        col = RED if i == frame.stage else (FAINT if st.stages and i not in found else INK)
        out.append(Text((bx + 44, ry + LIST_ROW_H / 2), str(i + 1), 13, col, "e", screen=True))
        out.append(Text((bx + 54, ry + LIST_ROW_H / 2), s.name, 14, col, "w", screen=True))
        out.append(Text((bx + bw - 20, ry + LIST_ROW_H / 2), STAGE_ROW_T.format(s.t0), 10, GREY,
                        "e", screen=True))
    if n > rows:  # a scroll bar: where the rows shown sit in the whole list
        th = bh - LIST_HEAD_H - 8
        out.append(Rect((bx + bw - 10, by + LIST_HEAD_H + th * top / n, 4, th * rows / n),
                        (180, 166, 140), radius=2))
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


def search_box(map_box, st: HudState) -> list[Primitive]:
    x, y, w, _ = map_box
    bw = min(w - 24, 480)
    bx = x + 12
    out: list[Primitive] = [Rect((bx, y + 12, bw, 34), (255, 253, 246), RED, 1.5, radius=5),
                            Text((bx + 10, y + 29), SEARCH.format(st.search), 15, INK, "w",
                                 screen=True)]
    if st.search_note:
        out.append(Text((bx + bw - 10, y + 29), st.search_note, 11, GREY, "e", screen=True))
    return out


def help_overlay(size: tuple[int, int]) -> list[Primitive]:
    w, h = size
    row = max(min(24.0, (h - 60) / len(KEYS)), 16.0)  # rows close up in a low window
    bw, bh = 460, 40 + row * len(KEYS)
    bx, by = (w - bw) / 2, max((h - bh) / 2, 0)
    out: list[Primitive] = [Rect((0, 0, w, h), (30, 26, 20, 110)),
                            Rect((bx, by, bw, bh), (250, 247, 240), INK, 1.5, radius=8),
                            Text((bx + bw / 2, by + 18), tr(HELP_TITLE), 16, RED, "c", screen=True)]
    for i, (k, what) in enumerate(KEYS):
        yy = by + 44 + row * i
        out.append(Text((bx + 150, yy), k, 13, INK, "e", screen=True))
        out.append(Text((bx + 168, yy), tr(what), 13, INK, "w", screen=True))
    return out
