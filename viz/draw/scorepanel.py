"""The score panel in the text panel: the round under way, the 算 laid each side (as words and
as sticks), the drum's beat, the count announced, and the hits of the archer pointed at."""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from viz.draw.display import Line, Primitive, Rect, Text
from viz.draw.hudbase import GREY, INK, PANEL_BG, RED
from viz.model.scenario import numeral
from viz.model.scoring import results_until, score_values

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
