"""Cue sheets: for one role, every step in which he acts, as a drill writer prints it per marcher.

A step counts as his when, between its start and its end, he walks (more than MIN_WALK 尺), turns
(more than MIN_TURN°), makes a gesture or changes posture (拜, 揖, 坐 …), takes, gives or puts
something down, speaks, or comes or goes. It is judged from the compiled timeline (samples at the
step's start and end, the keyframes the step wrote, its speech events), not from the script's
verbs, so a pattern or a formation counts exactly as it plays.

Each cue gives the time, the stage, the cited words and the clause they sit in, where he goes
from and to (the nearest named place and x, y in 尺), his facing, posture, what he holds and what
changed hands, what he says, and for a move a small plan of his path (PNG: a data URI in HTML,
a file beside a Markdown sheet).
"""
from __future__ import annotations

import base64
import csv
import html
import io
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from viz.draw import trails
from viz.export.common import FONT_FACE, FONT_FAMILY, SHEET_FORMATS, page_size
from viz.base import lang
from viz.base.lang import html_lang, tr
from viz.model.timeline import POSTURES
from viz.query.state import QueryError, dir_name
from viz.query.words import clause_said, enacted_words

MIN_WALK = 0.3  # 尺: less is a shuffle in place (a formation settling), not a move
MIN_TURN = 5.0  # degrees
FORMATS = SHEET_FORMATS
PLAN_SIZE = (260, 190)  # px: a plan small enough to sit in a table row and still show the hall
PLAN_PAD = 10.0  # 尺 shown round the path
LIST_SEP = "、"
BOWS = {1: "拜", 2: "再拜", 3: "三拜"}


@dataclass(frozen=True)
class Cue:
    step: int
    t0: float
    t1: float
    stage: str  # "4 誘射"
    cite: str
    clause_id: str
    clause: str  # the clause the cited words sit in, punctuated ("" if outside the 經 and 記)
    start: tuple[float, float]
    end: tuple[float, float]
    start_place: str
    end_place: str
    walked: float  # 尺 along his path
    facing: tuple[str, str]  # at start, at end (8 directions)
    gestures: tuple[str, ...]  # 再拜, 揖, 坐 … in order
    posture: str  # at the end
    holding: tuple[str, ...]  # at the end
    takes: tuple[str, ...]
    gives: tuple[str, ...]  # given or put down
    says: tuple[str, ...]
    comes: str  # "enters" | "leaves" | ""
    path: np.ndarray  # (k,2) 尺, the plan's line
    dress: str = ""  # what he wears at the end (袒決遂, 搢扑) and a bow unstrung (弛弓): worn()
    dress_from: str = ""  # … at the start
    wears: tuple[str, ...] = ()  # the worn things (don, doff) he wears at the end, by name
    wears_from: tuple[str, ...] = ()  # … at the start
    costume: str = ""  # those at the end in the text's words (戴纚·緇布冠 服玄端): costume_words()
    # what he puts on or takes off another (加冠, 設纚: don/doff with by: him): (on: True for
    # don, whom, the thing's name)
    dresses: tuple[tuple[bool, str, str], ...] = ()

    @property
    def moves(self) -> bool:
        return self.walked > MIN_WALK


def find_actor(timeline, who: str) -> int:
    """An actor by id, or by name or label when only one has it (上耦上射, 上射1)."""
    if who in timeline.actor_index:
        return timeline.actor_index[who]
    same = [i for i, a in enumerate(timeline.actors) if who in (a.name, a.label)]
    if len(same) == 1:
        return same[0]
    ids = ", ".join(f"{a.id} ({a.name})" for a in timeline.actors)
    if same:
        raise QueryError(f"{who!r} names {len(same)} people; give the id: "
                         + ", ".join(timeline.actors[i].id for i in same))
    raise QueryError(f"no actor {who!r}; the ids are: {ids}")


def _names(timeline, props) -> tuple[str, ...]:
    """Prop names, each once with its count (四矢 of a 乘矢 read 矢×4, not 矢、矢、矢、矢)."""
    names = [timeline.props[timeline.prop_index[p]].name for p in props
             if p in timeline.prop_index]
    counts = dict.fromkeys(names, 0)
    for n in names:
        counts[n] += 1
    return tuple(n if k == 1 else f"{n}×{k}" for n, k in counts.items())


def _gestures(timeline, actor: int, step: int) -> tuple[str, ...]:
    """The postures the step wrote for him, in time order (a bow with its count)."""
    ch = timeline.channels["posture"]
    mine = np.nonzero((ch.owner == actor) & (ch.writer == step))[0] if len(ch.writer) else []
    out: list[str] = []
    for k in sorted(mine, key=lambda k: ch.t[k]):
        code = int(ch.values["code"][k])
        if code == 2:
            out.append(BOWS.get(int(ch.values["count"][k]), "拜"))
        elif code:
            out.append(POSTURES[code])
    # a gesture held over two keyframes (its start, then its end) is one gesture
    return tuple(g for k, g in enumerate(out) if k == 0 or out[k - 1] != g)


def step_frames(timeline) -> list[tuple]:
    """Everyone at each step's start and as it left them: computed once for every sheet."""
    return [(timeline.sample(s.t0), timeline.sample(s.t1, closing=True)) for s in timeline.steps]


def _keys_inside(ts: np.ndarray, t0: float, t1: float) -> bool:
    """Whether the sorted times have one strictly between t0 and t1."""
    return int(np.searchsorted(ts, t1, "left")) > int(np.searchsorted(ts, t0, "right"))


def cues(timeline, layout, corpus, actor: int, frames: list[tuple] | None = None) -> list[Cue]:
    """Every step in which the actor acts, in order (frames: step_frames, if already made)."""
    out = []
    stages = {s.index: s for s in timeline.stages}
    frames = step_frames(timeline) if frames is None else frames
    motion = timeline.channels["motion"]
    mt = np.sort(motion.t[motion.owner == actor])
    for s, (a, b) in zip(timeline.steps, frames):
        here_a, here_b = bool(a.present[actor]), bool(b.present[actor])
        if not (here_a or here_b):
            continue
        still = np.asarray([(b if here_b else a).xy[actor]], float)
        # trails.path samples the timeline twice: ask it only when he may have moved
        path = trails.path(timeline, actor, s.t0, s.t1) if here_a and here_b and (
            not np.allclose(a.xy[actor], b.xy[actor]) or _keys_inside(mt, s.t0, s.t1)) else still
        walked = float(np.hypot(*np.diff(path, axis=0).T).sum()) if len(path) > 1 else 0.0
        fa, fb = float(a.facing[actor]), float(b.facing[actor])
        turned = abs((fb - fa + 180) % 360 - 180) > MIN_TURN
        gest = _gestures(timeline, actor, s.index)
        held_a, held_b = set(a.holding[actor]), set(b.holding[actor])
        says = tuple(e.text for e in timeline.events
                     if e.kind == "say" and e.actor == actor and s.t0 <= e.t0 < s.t1)
        dresses = _dresses_other(timeline, actor, s.t0, s.t1)
        comes = "" if here_a == here_b else ("enters" if here_b else "leaves")
        posture_changed = int(a.posture[actor]) != int(b.posture[actor])
        # before the step: as the last one left him (a dress at the step's first instant is
        # already in its start's sample)
        before = frames[s.index - 1][1] if s.index else a
        dress, dress_from = worn(timeline, b, actor), worn(timeline, before, actor)
        wears, wears_from = _worn_names(timeline, b, actor), _worn_names(timeline, before, actor)
        if not (walked > MIN_WALK or turned or gest or posture_changed or held_a != held_b
                or says or comes or dress != dress_from or wears != wears_from or dresses):
            continue
        clause = clause_said(corpus, s)
        st = stages.get(s.stage)
        sa, sb = (tuple(float(v) for v in f.xy[actor]) for f in (a, b))
        out.append(Cue(
            s.index, s.t0, s.t1, f"{st.index + 1} {st.name}" if st else "",
            enacted_words(corpus, s),
            clause.id if clause else "", (clause.punct or clause.text) if clause else "",
            sa, sb, layout.nearest_place(*sa), layout.nearest_place(*sb), walked,
            (dir_name(fa), dir_name(fb)), gest, POSTURES[int(b.posture[actor])],
            _names(timeline, sorted(held_b)), _names(timeline, sorted(held_b - held_a)),
            tuple(n for n in _names(timeline, sorted(held_a - held_b))
                  if n not in {d[2] for d in dresses}), says, comes, path, dress,
            dress_from, wears, wears_from, costume_words(timeline, b, actor), dresses))
    return out


def worn(timeline, frame, actor: int) -> str:
    """What he wears in the frame, in the text's words run together (袒決遂, 決遂 once 襲 …, 搢扑),
    and 弛弓 while the bow he holds is unstrung; "" when none of them."""
    from viz.draw import dress

    on = dict(zip(("袒", "決", "遂", "搢扑"), dress.worn(frame, actor)))
    words = "".join(k for k, v in on.items() if v)
    if any(dress.bow_state(timeline, frame, p) == "弛" for p in frame.holding[actor]):
        words += ("·" if words else "") + "弛弓"
    return words


def costume_words(timeline, frame, actor: int) -> str:
    """The worn things he wears (don, doff) in the text's words: 戴纚·緇布冠 服玄端 (戴 on the
    head, 服 on the body, 履 on the feet); "" for none (and for a rite with none)."""
    from viz.model.dress import worn_words

    return worn_words(timeline, frame, actor)


def _dresses_other(timeline, actor: int, t0: float, t1: float) -> tuple:
    """What actor puts on or takes off someone else in [t0, t1) (don/doff with by: him):
    (on, whom, the thing's name) each."""
    out = []
    for e in timeline.events:
        if e.kind != "dress" or not (t0 <= e.t0 < t1) or e.data.get("by", e.actor) != actor \
                or e.actor == actor:
            continue
        pid = e.data.get("don") or e.data.get("doff")
        j = timeline.prop_index.get(pid)
        if j is not None:
            out.append(("don" in e.data, timeline.actors[e.actor].name, timeline.props[j].name))
    return tuple(out)


def _worn_names(timeline, frame, actor: int) -> tuple[str, ...]:
    from viz.model.dress import wears

    return tuple(timeline.props[p].name for p in wears(timeline, frame, actor))


# --- the small plan of a move ---------------------------------------------------------------

PATH_COLOR = (176, 36, 28)
START_COLOR = (120, 112, 100)


def plan_png(layout, cue: Cue, size: tuple[int, int] = PLAN_SIZE, breaks=None) -> bytes:
    """The hall in line and his path over the step: hollow where he starts, an arrowhead and a
    dot where he ends. The frame holds the 堂 and the path; the 侯道 is drawn short as in the
    window."""
    import pygame

    from viz.backends import pgdraw
    from viz.draw import scene
    from viz.draw.camera import Camera
    from viz.draw.display import Circle, Line, Text

    breaks = scene.range_breaks(layout) if breaks is None else breaks
    cam = Camera((0, 0, *size), breaks=breaks)
    # the hall and the path with some room: the whole school would leave a move in the hall
    # a few pixels long
    hall = [np.asarray(f.points, float).reshape(-1, 2) for f in layout.features
            if f.kind == "hall"]
    p = cue.path
    a = np.vstack([*hall, p - PLAN_PAD, p + PLAN_PAD])
    cam.fit((a[:, 0].min(), a[:, 1].min(), a[:, 0].max(), a[:, 1].max()), margin=6)
    # the plan without its names: at this scale they would cover the path
    prims = [q for q in scene.features(layout) if not isinstance(q, Text)]
    pts = tuple((float(x), float(y)) for x, y in p)
    prims.append(Circle(pts[0], 0.8, None, START_COLOR, 1.5, min_px=4))
    if len(pts) > 1:
        prims.append(Line(pts, PATH_COLOR, 2.0))
        prims.append(_arrowhead(cam, pts))
    prims.append(Circle(pts[-1], 0.6, PATH_COLOR, PATH_COLOR, 1.0, min_px=3.5))
    prims += _plan_names(cam, cue, size)
    surf = pygame.Surface(size)
    surf.fill((250, 246, 238))
    pgdraw.draw(surf, prims, cam)
    buf = io.BytesIO()
    pygame.image.save(surf, buf, "plan.png")
    return buf.getvalue()


PLAN_NAME_PX = 13.0


def _plan_names(cam, cue: Cue, size: tuple[int, int]) -> list:
    """The names of the places where the move starts and ends, beside its two ends and clear
    of the path (one name when both are the same place), so the plan reads without the sheet's
    columns: the start's in grey, the end's in the path's red."""
    from viz.draw import labels, labels_paper
    from viz.draw.display import Text

    xy = cam.to_screen(np.asarray(cue.path, float).reshape(-1, 2))
    # the path as small boxes a name must not cover (the path sampled every few px)
    dense = [xy[0]]
    for a, b in zip(xy[:-1], xy[1:]):
        n = max(int(np.hypot(*(b - a)) // 4), 1)
        dense += [a + (b - a) * (k / n) for k in range(1, n + 1)]
    taken = [labels.circle_box(float(x), float(y), 4.0) for x, y in dense]
    names = [(cue.end_place, xy[-1], PATH_COLOR)]
    if cue.start_place != cue.end_place:
        names.insert(0, (cue.start_place, xy[0], START_COLOR))
    reqs = [labels.Label((float(p[0]), float(p[1])),
                         *labels.text_size(n, PLAN_NAME_PX, pad=2), r=5.0)
            for n, p, _ in names]
    placed = labels_paper.place_clear(reqs, taken, (1, 1, size[0] - 1, size[1] - 1))
    return [Text(q.center, n, PLAN_NAME_PX, color, "c", bg=(250, 246, 238), screen=True)
            for (n, _, color), q in zip(names, placed)]


def _arrowhead(cam, pts):
    """A screen-sized arrowhead (a Polygon) on the last leg of the path, pointing where he
    went."""
    from viz.draw.display import Polygon

    a, b = cam.to_screen(np.asarray(pts[-2:], float))
    d = b - a
    n = float(np.hypot(*d)) or 1.0
    u = d / n
    v = np.array([-u[1], u[0]])
    tip = b
    back = b - u * 9
    return Polygon(tuple(tuple(float(c) for c in q) for q in (tip, back + v * 4.5, back - v * 4.5)),
                   PATH_COLOR, PATH_COLOR, 1.0, screen=True)


# --- formats ----------------------------------------------------------------------------------

def _where(c: Cue) -> str:
    """Where he is, by the places' names (a handout names places; the coordinates are in the
    csv and in `state --json`)."""
    if c.moves:
        return tr("{start} → {end}, {walked:.1f} 尺").format(
            start=c.start_place, end=c.end_place, walked=c.walked)
    return c.end_place


def _facing(c: Cue) -> str:
    return f"{c.facing[0]}面 → {c.facing[1]}面" if c.facing[0] != c.facing[1] else f"{c.facing[1]}面"


def _does(c: Cue) -> str:
    parts = ([tr("walks")] if c.moves else [tr("turns")] if c.facing[0] != c.facing[1]
             else []) + list(c.gestures)
    if c.takes:
        parts.append(tr("takes {}").format(LIST_SEP.join(c.takes)))
    if c.gives:
        parts.append(tr("gives or puts down {}").format(LIST_SEP.join(c.gives)))
    if c.says:
        parts.append(tr("says {}").format(" ".join(f"「{s}」" for s in c.says)))
    if c.comes:
        parts.append(tr({"enters": "enters", "leaves": "leaves"}[c.comes]))
    if c.wears != c.wears_from:  # caps and clothes put on (加冠) and taken off
        on = [n for n in c.wears if n not in c.wears_from]
        off = [n for n in c.wears_from if n not in c.wears]
        if on:
            parts.append(tr("puts on {}").format(LIST_SEP.join(on)))
        if off:
            parts.append(tr("takes off {}").format(LIST_SEP.join(off)))
    for on, whom, thing in c.dresses:  # 加冠: the 賔 puts the 冠 on the 冠者
        parts.append(tr("puts {} on {}" if on else "takes {} off {}").format(thing, whom))
    if c.dress != c.dress_from:  # 袒決遂, or 襲 when all is taken off
        parts.append(tr("wears {}").format(c.dress or "襲"))
    return tr("; ").join(parts or [c.posture])


def _held(c: Cue) -> str:
    held = LIST_SEP.join(c.holding) or "—"
    worn = " ".join(x for x in (c.dress, c.costume) if x)
    return f"{held} ／ {worn}" if worn else held


def _head(timeline, actor: int) -> tuple[str, str]:
    """The sheet's title (the role's name) and the line under it (id, label, party, note)."""
    a = timeline.actors[actor]
    note = f" · {a.note}" if a.note and (lang.current() == "en" or not _latin(a.note)) else ""
    return a.name, tr("{id} · label {label} · party {party}").format(
        id=a.id, label=a.label, party=a.party) + note


def _latin(text: str) -> bool:
    """Whether the words are (in part) English prose: a note written in English is not shown
    on a 中文 handout (the script's notes are its own reasoning, written in English; the
    cast's and the text's words are 中文)."""
    import re

    return re.search(r"[A-Za-z]{2,}", text) is not None


def to_csv(timeline, cues_: list[Cue]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["step", "t0", "t1", "stage", "cite", "clause_id", "clause", "from_place",
                "from_x", "from_y", "to_place", "to_x", "to_y", "walked_chi", "facing_from",
                "facing_to", "gestures", "posture", "holding", "takes", "gives", "says",
                "comes", "dress"])
    for c in cues_:  # the step's number as the sheets and the window print it (from 1)
        w.writerow([c.step + 1, f"{c.t0:.2f}", f"{c.t1:.2f}", c.stage, c.cite, c.clause_id, c.clause,
                    c.start_place, f"{c.start[0]:.1f}", f"{c.start[1]:.1f}", c.end_place,
                    f"{c.end[0]:.1f}", f"{c.end[1]:.1f}", f"{c.walked:.1f}", *c.facing,
                    LIST_SEP.join(c.gestures), c.posture, LIST_SEP.join(c.holding),
                    LIST_SEP.join(c.takes), LIST_SEP.join(c.gives), " / ".join(c.says), c.comes,
                    " ".join(x for x in (c.dress, c.costume) if x)])
    return buf.getvalue()


def clock(t: float) -> str:
    """Seconds from the start as h:mm:ss, as a performer reads a running clock."""
    n = int(t)
    return f"{n // 3600}:{n // 60 % 60:02d}:{n % 60:02d}"


def _sheet(rite: str, plural: str = "") -> str:
    """"cue sheet", after the rite's title when there is one (鄉射禮 cue sheet, 鄉射禮行事表)."""
    return tr("{rite} cue sheets" if plural else "{rite} cue sheet").format(rite=rite).strip()


def _about(n: int) -> str:
    """The line under a sheet's title after the role: how many cues, what the columns mean."""
    return tr("{n} cues; times in seconds from the start; places by the name of the nearest "
              "(their coordinates in 尺 are in the csv)").format(n=n)


_MD_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", **{c: "\\" + c for c in "\\`*_[]#|!"}}


def md(text: object) -> str:
    """What a rite says (a name, a cite, a note, a place), as Markdown that shows it as written:
    HTML's <, > and & as entities (a note holding <script> is text, not a tag), and Markdown's
    own marks (emphasis, links, code, headings, tables) escaped with a backslash."""
    return "".join(_MD_ESCAPES.get(ch, ch) for ch in str(text))


def to_markdown(timeline, actor: int, cues_: list[Cue],
                plan_link: Callable[[Cue], str | None] | None = None, rite: str = "") -> str:
    """Markdown; plan_link(cue) gives the relative path of its plan PNG (None: no plan); rite:
    the rite's title, in the heading."""
    name, ident = (md(x) for x in _head(timeline, actor))
    lines = [f"# {name} — {md(_sheet(rite))}", "", f"{ident}{tr('; ')}{_about(len(cues_))}", ""]
    if plan_link is None:
        lines += [tr("(Plans of each move are left out when the sheet goes to the terminal; "
                     "write it with -o FILE.md to get them beside it.)"), ""]
    for c in cues_:
        span = tr("{t0:.1f}–{t1:.1f} s").format(t0=c.t0, t1=c.t1)
        lines += [f"## {c.step + 1}. {span} ({clock(c.t0)}) · {md(c.stage)} · "
                  f"「{md(c.cite)}」", ""]
        if c.clause:
            lines += [f"> {md(c.clause)} ({md(c.clause_id)})", ""]
        lines += [f"- {tr('where')}{tr(': ')}{md(_where(c))}",
                  f"- {tr('facing')}{tr(': ')}{md(_facing(c))}",
                  f"- {tr('does')}{tr(': ')}{md(_does(c))}",
                  f"- {tr('holds ／ wears')}{tr(': ')}{md(_held(c))}"]
        link = plan_link(c) if plan_link is not None and c.moves else None
        if link:
            lines += ["", f"![{tr('his path in step {n}').format(n=c.step + 1)}]({link})"]
        lines.append("")
    return "\n".join(lines)


HTML_STYLE = FONT_FACE + """
body { font-family: """ + FONT_FAMILY + """; margin: 2em; color: #28221c; background: #faf6ee; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
th, td { border-bottom: 1px solid #d8cfbf; padding: .4em .5em; vertical-align: top;
         text-align: left; overflow-wrap: anywhere; }
th { background: #eee6d6; }
tr.stage th { background: none; border-bottom: 2px solid #a8241c; padding-top: 1em;
              color: #a8241c; font-size: 110%; }
col.n { width: 3em; } col.t { width: 6.5em; } col.where { width: 16%; } col.facing { width: 6em; }
col.does { width: 12%; } col.holds { width: 7em; } col.plan { width: """ + str(PLAN_SIZE[0] + 12) + """px; }
.cite { color: #a8241c; }
.small { color: #786f64; font-size: 85%; }
img { display: block; max-width: 100%; height: auto; }
@media print {
  /* A4 or Letter, portrait: the table fills the page's width, the text column takes what the
     others leave (never a column two characters wide), a plan is 25 mm wide, and a cue is
     never cut by a page break; the column heads repeat on every page */
  body { margin: 0; background: white; font-size: 7.5pt; line-height: 1.3; }
  h1 { font-size: 13pt; margin: 0 0 1mm; }
  p.small { margin: 0 0 2mm; }
  th, td { padding: .6mm 1mm; }
  col.n { width: 7.5mm; } col.t { width: 13mm; } col.where { width: 30mm; }
  col.facing { width: 11mm; } col.does { width: 21mm; } col.holds { width: 13mm; }
  col.plan { width: 26mm; }
  td.plan img { width: 25mm; }
  thead { display: table-header-group; }
  tr { break-inside: avoid; page-break-inside: avoid; }
  tr.stage { break-after: avoid; page-break-after: avoid; }
  tr.stage th { padding-top: 1.5mm; font-size: 8.5pt; }
}
"""

COLUMNS = ("n", "t", "text", "where", "facing", "does", "holds", "plan")
HEADS = ("#", "s", "text", "where", "facing", "does", "holds ／ wears", "plan")  # msgids


def _style(paper: str) -> str:
    """The page's stylesheet, printing on `paper` (a4, letter) portrait."""
    return HTML_STYLE + f"@page {{ size: {page_size(paper, 'portrait')}; margin: 10mm 9mm; }}\n"


def to_html(timeline, layout, actor: int, cues_: list[Cue], paper: str = "a4",
            rite: str = "") -> str:
    """One self-contained page: the table (a heading row where each stage begins), each move's
    plan inline as a PNG data URI; printed, it fills the width of an A4 or Letter page
    (`paper`), a cue never cut by a page break."""
    name, ident = _head(timeline, actor)
    esc = html.escape
    breaks = None
    rows = []
    stage = None
    for c in cues_:
        if c.stage != stage:
            stage = c.stage
            rows.append(f'<tr class="stage"><th colspan="{len(COLUMNS)}">{esc(c.stage)}</th></tr>')
        if c.moves:
            if breaks is None:
                from viz.draw import scene

                breaks = scene.range_breaks(layout)
            data = base64.b64encode(plan_png(layout, c, breaks=breaks)).decode("ascii")
            img = (f'<img width="{PLAN_SIZE[0]}" height="{PLAN_SIZE[1]}" alt="{esc(tr("path"))}" '
                   f'src="data:image/png;base64,{data}">')
        else:
            img = ""
        clause = (f'<div>{esc(c.clause)} <span class="small">{esc(c.clause_id)}</span></div>'
                  if c.clause else "")
        rows.append(
            f"<tr><td>{c.step + 1}</td><td>{c.t0:.1f}–{c.t1:.1f}"
            f'<div class="small">{clock(c.t0)}</div></td>'
            f'<td class="clause"><div class="cite">「{esc(c.cite)}」</div>{clause}</td>'
            f"<td>{esc(_where(c))}</td><td>{esc(_facing(c))}</td><td>{esc(_does(c))}</td>"
            f'<td>{esc(_held(c))}</td><td class="plan">{img}</td></tr>')
    cols = "".join(f'<col class="{k}">' for k in COLUMNS)
    heads = "".join(f"<th>{esc(tr(h))}</th>" for h in HEADS)
    return (f'<!DOCTYPE html>\n<html lang="{html_lang()}"><head><meta charset="utf-8">'
            f"<title>{esc(name)} — {esc(_sheet(rite))}</title><style>{_style(paper)}</style>"
            f"</head><body>\n<h1>{esc(name)} — {esc(_sheet(rite))}</h1>\n"
            f'<p class="small">{esc(ident)}{esc(tr("; "))}{esc(_about(len(cues_)))}</p>\n'
            f"<table><colgroup>{cols}</colgroup><thead><tr>{heads}</tr>"
            "</thead><tbody>\n" + "\n".join(rows) + "\n</tbody></table></body></html>\n")


def plan_folder(sheet: Path) -> Path:
    """Where a Markdown sheet's plans go: a folder beside it named after it."""
    return sheet.with_name(sheet.stem + ".plans")


def plan_name(c: Cue) -> str:
    return f"step-{c.step + 1:03d}.png"


def sheet_files(timeline, layout, corpus, actor: int, fmt: str, path: Path | None,
                frames: list[tuple] | None = None, stage: int | None = None,
                paper: str = "a4", rite: str = "") -> list[tuple[Path | None, bytes]] | None:
    """What a sheet writes: (path, bytes) pairs, the sheet itself first (path None: stdout).
    stage: that stage's cues only (None when he has none there); paper: what HTML prints on;
    rite: the rite's title, in the heading."""
    cs = cues(timeline, layout, corpus, actor, frames)
    if stage is not None:
        cs = [c for c in cs if timeline.steps[c.step].stage == stage]
        if not cs:
            return None
    if fmt == "csv":
        return [(path, to_csv(timeline, cs).encode("utf-8"))]
    if fmt == "html":
        return [(path, to_html(timeline, layout, actor, cs, paper, rite).encode("utf-8"))]
    if path is None:
        return [(None, to_markdown(timeline, actor, cs, rite=rite).encode("utf-8"))]
    folder = plan_folder(path)
    text = to_markdown(timeline, actor, cs, lambda c: f"{folder.name}/{plan_name(c)}", rite)
    from viz.draw import scene

    breaks = scene.range_breaks(layout)
    plans = [(folder / plan_name(c), plan_png(layout, c, breaks=breaks)) for c in cs if c.moves]
    return [(path, text.encode("utf-8")), *plans]


def index_page(timeline, fmt: str, names: list[tuple[int, str]], paper: str = "a4",
               rite: str = "") -> str:
    """The list of every role's sheet, for `sheet --all`; rite: the rite's title, in the
    heading."""
    head = _sheet(rite, "s")
    if fmt == "html":
        items = "\n".join(f'<li><a href="{html.escape(f)}">{html.escape(timeline.actors[i].name)}'
                          f"</a> <span class=\"small\">{html.escape(timeline.actors[i].id)}</span>"
                          "</li>" for i, f in names)
        return (f'<!DOCTYPE html>\n<html lang="{html_lang()}"><head><meta charset="utf-8">'
                f"<title>{html.escape(head)}</title><style>{_style(paper)}</style></head>"
                f"<body>\n<h1>{html.escape(head)}</h1>\n<ul>\n{items}\n</ul></body></html>\n")
    return f"# {md(head)}\n\n" + "\n".join(
        f"- [{md(timeline.actors[i].name)} ({md(timeline.actors[i].id)})]({f})"
        for i, f in names) + "\n"
