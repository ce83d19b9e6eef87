"""The column beside a plate's plan: the clause cited (經), its 注 and page, or on a stage
plate the stage's whole text with the clauses it enacts in 朱 (`_stage_text`), then the list
of the numbered moves with the words each enacts (`_move_rows`), over the scale and legend.
"""
from __future__ import annotations

import numpy as np

from viz.base.lang import tr
from viz.draw import hud, labels
from viz.draw import trails as trails_mod
from viz.draw.camera import Camera
from viz.draw.compose import Model
from viz.draw.display import Line, Primitive, Text
from viz.draw.plate_legend import _legend, _scale
from viz.draw.plate_page import GREY, INK, PAPER, ZHU, _Frame
from viz.draw.plate_parts import Part
from viz.draw.plate_people import _name_of
from viz.query.words import clause_said

STEP_NOTE = "{kind} {id} · 頁 {page}"
MOVES = "行位"
FOLLOW = "{name}之行"
WHO = "{cite}（{names}）"
LIST_SEP = "、"
MORE = "等"
SPAN = "{a}–{b}"
OMITTED = "{span} 略"
ELLIPSIS = "…"
PRINT_H_MM = 183.0  # the height a plate is printed at in the atlas (A4 landscape, less margins)
LIST_MM = 3.0  # the move list's smallest type, printed (mm): a class reads it at arm's length


def list_min_px(height: float) -> float:
    """The move list's smallest type (px) on a plate `height` px high: LIST_MM printed."""
    return LIST_MM * height / PRINT_H_MM


def _side(model: Model, t: float, closing: bool, pg: _Frame, words: str, page: str, found,
          follow: int | None, height: float, cam: Camera,
          part: Part | None = None, about: str | None = None) -> list[Primitive]:
    """The column beside the plan: the clause cited (經), its 注, the page, and the numbered
    moves with the words each enacts; on a stage plate, the stage's whole text (its sections'
    經 and 記, punctuated) instead of the one clause, the clauses it enacts in 朱."""
    x, y, w, full = pg.side
    h = height
    out: list[Primitive] = [Line(((x - 10, y), (x - 10, y + full)), INK, 1.0, screen=True)]
    px = pg.px
    cy = y + 6
    tl = model.timeline
    step = tl.steps[tl.step_at(t, closing)] if tl.steps else None
    clause = clause_said(model.corpus, step, about)
    if part is not None and model.corpus is not None:
        # the text takes what the move list (a line a row at the smallest type it may take),
        # the scale and the legend leave, and at most half the column
        rows = len(_gathered(tl, found))
        k = px * 0.85
        least = list_min_px(pg.page[3] + 2 * pg.page[1])
        below = (2 * k * 1.9 + k) + k * 4.6 + px * 0.6 + (px * 1.7 + (rows + 0.5) * least * 1.55
                                                         if rows else 0)
        text, cy = _stage_text(model, part, x, cy, w, px, min(y + h * 0.5, y + h - below))
        out += text
        words, clause = "", None
    # a line may overhang by a closing mark it keeps (kinsoku): wrap one em short
    for line in hud.wrap(words, px * 1.2, w - px * 1.2) if words else ():
        out.append(Text((x, cy), line, px * 1.2, INK, "nw", screen=True))
        cy += px * 1.2 * 1.6
    if clause is not None:
        for note in clause.notes:
            for line in hud.wrap(note, px * 0.9, w - px * 0.9):
                out.append(Text((x, cy), line, px * 0.9, GREY, "nw", screen=True))
                cy += px * 0.9 * 1.55
    if clause is not None:
        out.append(Text((x, cy + 4), tr(STEP_NOTE).format(kind=clause.kind, id=clause.id,
                                                      page=page or "—"), px * 0.8,
                        GREY, "nw", screen=True))
        cy += px * 2.4
    legend, legend_h = _legend(x, y + h, px)
    out += legend
    h -= legend_h
    bar, bar_h = _scale(cam, model.layout.chi_m, x, y + h, w, px)
    out += bar
    h -= bar_h
    if found:
        head = tr(MOVES) if follow is None else tr(FOLLOW).format(name=tl.actors[follow].name)
        out.append(Text((x, cy), head, px, ZHU, "nw", screen=True))
        cy += px * 1.7
        out += _move_rows(_move_runs(tl, found, follow), x, cy, w, y + h, px,
                          least=list_min_px(pg.page[3] + 2 * pg.page[1]))
    return out


def _move_runs(tl, found, follow: int | None) -> list[tuple[int, int, tuple[str, str]]]:
    """The move list's rows, (first number, last number, (the words, who moves)), in the
    text's order, each naming who moves as the plate writes him when his move ends."""
    one_step = len({g.step for g in found}) == 1
    # the frame as a step leaves it, for the names: sampled again only when the labels
    # have changed (a look-up in their channel), not for each of a stage's hundred steps
    ends: dict[int, object] = {}
    seen: dict[bytes, object] = {}
    ch = tl.channels.get("label")

    def at_end(k: int):
        if k not in ends:
            t1 = tl.steps[k].t1
            if ch is None:
                ends[k] = tl.sample(t1, True)
            else:
                li, lok = ch.lookup(len(tl.actors), t1, tl.step_at(t1, True))
                key = np.where(lok, li, -1).tobytes()
                if key not in seen:
                    seen[key] = tl.sample(t1, True)
                ends[k] = seen[key]
        return ends[k]

    # rows in the text's order; numbers in a row whose words are the same (the script
    # splits one clause into several steps, the 三耦 shoot pair after pair) share one
    # row, "4–7", naming everyone who moves in them
    runs: list[tuple[int, int, tuple[str, str]]] = []
    for a, b, cite in _gathered(tl, found):
        # each as the plate writes him when his move ends (the 相 is not yet 司正), in
        # the cast's order
        mine = sorted({g.actor: g.step for g in found if a <= g.number <= b}.items())
        who = list(dict.fromkeys(_name_of(tl, at_end(k), i) for i, k in mine))
        names = LIST_SEP.join(who[:4]) + (MORE if len(who) > 4 else "")
        # one step: its words head the column already, so each number names who moves
        # following one person, naming him on every row says nothing
        # (the words, and who: kept whole when a row is cut to one line)
        if one_step:
            text = (names, "")
        elif follow is not None:
            text = (cite, "")
        else:
            text = (cite, WHO.format(cite="", names=names))
        runs.append((a, b, text))
    return runs


CLOSERS = "」』）〕"


def _gathered(tl, found) -> list[tuple[int, int, str]]:
    """The move list's rows: (first number, last number, the words they enact), numbers in a
    row while their cited words are the same (one step's numbers each its own row)."""
    rows: list[tuple[int, int, str]] = []
    one_step = len({g.step for g in found}) == 1
    for n, cite in trails_mod.cites(tl, found):
        if rows and not one_step and rows[-1][2] == cite and rows[-1][1] == n - 1:
            rows[-1] = (rows[-1][0], n, cite)
        else:
            rows.append((n, n, cite))
    return rows


def stage_clauses(model: Model, part: Part) -> tuple[list, set[str]]:
    """The clauses of the sections a stage plate's stage enacts (經 and 記, in the text's
    order), and the ids of those its part's steps cite. The stage's own section is shown whole;
    of another section it cites (a 記 printed apart, as 張爾岐's 鄉飲酒禮 prints it at the end)
    only the clauses the stage cites."""
    tl, corpus = model.timeline, model.corpus
    s = tl.stages[part.stage]
    secs = {sec.index for k in range(s.first_step, s.last_step + 1)
            if (sec := corpus.section_at(tl.steps[k].span[0])) is not None}
    own = corpus.section_named(s.section)
    if not secs and own is not None:
        secs = {own.index}
    spans = [tl.steps[k].span for k in range(s.first_step, s.last_step + 1)]
    shown = [cl for cl in corpus.clauses if cl.section in secs
             and (own is None or own.index not in secs or cl.section == own.index
                  or any(cl.start < b and a < cl.end for a, b in spans))]
    cited: set[str] = set()
    for k in range(part.first, part.last + 1):
        a, b = tl.steps[k].span
        cited |= {cl.id for cl in shown if cl.start < b and a < cl.end}
    return shown, cited


def _stage_text(model: Model, part: Part, x: float, top: float, w: float, px: float,
                bottom: float) -> tuple[list[Primitive], float]:
    """The stage's whole text, the clauses the part enacts in 朱 and the rest in ink, each run
    of one colour a paragraph of its own (so no line mixes the two, which would need the font's
    own widths to set side by side), in the largest type that ends above `bottom` (and no
    smaller than 0.64 of the body's); and where it ends."""
    shown, cited = stage_clauses(model, part)
    runs: list[tuple[bool, str]] = []
    for cl in shown:
        words = cl.punct or cl.text
        if not runs:  # a clause cut inside a quotation: its closing mark closes nothing here
            words = words.lstrip(CLOSERS)
        mark = cl.id in cited
        if runs and runs[-1][0] == mark:
            runs[-1] = (mark, runs[-1][1] + words)
        else:
            runs.append((mark, words))
    if not runs:
        return [], top
    # whole pixels, as the back ends draw type
    for size in sorted({round(px * k) for k in (1.05, 0.95, 0.85, 0.78, 0.7, 0.64, 0.58)},
                       reverse=True):
        wrapped = [(mark, hud.wrap(words, size, w - size)) for mark, words in runs]
        if top + sum(len(ls) for _, ls in wrapped) * size * 1.55 <= bottom:
            break
    out: list[Primitive] = []
    cy = top
    # at the smallest type still too long (the move list keeps its room): the lines that fit,
    # the last ending in an ellipsis (the atlas prints the text whole after the plates)
    room = max(int((bottom - top) // (size * 1.55)), 1)
    for mark, lines in wrapped:
        for line in lines:
            room -= 1
            if room < 0:
                break
            if room == 0 and (line is not lines[-1] or (mark, lines) != wrapped[-1]):
                line = _fit(line + ELLIPSIS, size, w - size)
                if not line.endswith(ELLIPSIS):
                    line = line[:-1] + ELLIPSIS
            out.append(Text((x, cy), line, size, ZHU if mark else INK, "nw", screen=True))
            cy += size * 1.55
    return out, cy + px * 0.6


def _span(a: int, b: int) -> str:
    return str(a) if a == b else SPAN.format(a=a, b=b)


def _move_rows(runs: list[tuple[int, int, tuple[str, str]]], x: float, top: float, w: float,
               bottom: float, px: float, least: float = 0.0) -> list[Primitive]:
    """The numbered moves, each row its number(s) in 朱 and its words (the words cited, and
    who moves), in the room between top and bottom: smaller type down to `least` px (LIST_MM
    printed), then one line a row with the words cut short (who moves kept), before any row is
    left out; when even that does not hold them all, a last row says which numbers are left
    out."""
    def layout(size: float):
        tag = max(labels.text_size(_span(a, b), size * 0.85, pad=2)[0] for a, b, _ in runs)
        indent = tag + size * 0.6
        return indent, [(a, b, hud.wrap(words + who, size, w - indent - size))
                        for a, b, (words, who) in runs]

    def one_line(words: str, who: str, size: float, room: float) -> list[str]:
        line = hud.wrap(words + who, size, room)
        if len(line) == 1:
            return line
        left = room - labels.text_size(who + ELLIPSIS, size)[0]
        cut = hud.wrap(words, size, left)[0] if left > size * 2 else ""
        return [cut + ELLIPSIS + who]

    sizes = sorted({max(round(px * k, 1), least) for k in (1.2, 1.1, 1.0, 0.95, 0.85, 0.75,
                                                           0.7)}, reverse=True)
    for size in sizes:
        indent, wrapped = layout(size)
        if top + sum(len(ls) for *_, ls in wrapped) * size * 1.55 <= bottom:
            break
    else:  # one line a row, cut short, before any row is left out
        wrapped = [(a, b, one_line(words, who, size, w - indent - size))
                   for a, b, (words, who) in runs]
    out: list[Primitive] = []
    cy, step = top, size * 1.55
    for r, (a, b, lines) in enumerate(wrapped):
        rest = r + 1 < len(wrapped)
        # the row fits whole, with a line left for the note of what is left out if more follow
        if cy + (len(lines) + rest) * step > bottom:
            out.append(Text((x, cy), tr(OMITTED).format(span=_span(a, runs[-1][1])), size, GREY,
                            "nw", screen=True))
            break
        label = _span(a, b)
        tw = labels.text_size(label, size * 0.85, pad=2)[0]
        out.append(Text((x + tw / 2, cy + size * 0.75), label, size * 0.85, PAPER, "c", bg=ZHU,
                        screen=True))
        for line in lines:
            out.append(Text((x + indent, cy), line, size, INK, "nw", screen=True))
            cy += step
    return out


def _fit(words: str, px: float, width: float) -> str:
    """The words cut to `width` (px) with an ellipsis, for the title row: a clause of a text
    without 句讀 (張爾岐's 鄉飲酒禮) can run past the page; the column beside the plan has it
    whole."""
    if labels.text_size(words, px)[0] <= width:
        return words
    lo, hi = 0, len(words)
    while lo < hi:  # the longest head that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if labels.text_size(words[:mid] + ELLIPSIS, px)[0] <= width:
            lo = mid
        else:
            hi = mid - 1
    return words[:lo] + ELLIPSIS
