"""Checks of the compiled rite against the 經's own words (issue 19): what a clause says is held
(class 1), and walks the text makes simultaneous (class 4). Run by `check`; each finding is a
warning located at the first step citing the clause.

A clause's moment is the time of the steps that say it (their spans overlap the clause in the
text; a move the text does not say, `said: false`, says none): from the first one's start to the
last one's end. clause_order_faults checks that each ends before its step goes on.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from viz.base.errors import Loc, Problem

# 執 / 取 / 受 / 奠 / 授 X: the thing, after a word that says how it is held or which of them
# a claim unless negated (不執弓), ordered (命取矢: said, not done), a title (執爵者) or a place
# (取俎西之觶: the 觶 west of the 俎), nor a cap (受爵弁: the 爵弁, not an 爵)
HOLD_RE = re.compile(r"(不|毋|無|命)?([執取受奠授])(?:張|弛|乘|一|賢|其餘|餘|其)?"
                     r"(弓|矢|个|觶|爵|算|獲|扑|俎|旌|瑟)(?![者東西南北弁])")
KIND = {"个": "矢", "獲": "算"}  # 取一个: an arrow; 取賢獲: the winners' 算


def _loc(text: str) -> Loc:
    file, line, col = text.rsplit(":", 2)
    return Loc(file, int(line), int(col))


@dataclass(frozen=True)
class Moment:
    """A clause of the 經 and the steps that enact it."""

    clause: object  # viz.text Clause
    steps: tuple[int, ...]
    t0: float
    t1: float


def clause_moments(timeline, corpus, kind: str = "經") -> list[Moment]:
    """Each clause of that kind cited by at least one step, with the steps citing it."""
    spans = np.array([s.span for s in timeline.steps], float).reshape(-1, 2)
    said = np.array([s.said for s in timeline.steps], bool)
    out = []
    for c in corpus.clauses:
        if c.kind != kind or not len(spans):
            continue
        hit = np.nonzero(said & (spans[:, 0] < c.end) & (spans[:, 1] > c.start))[0]
        if not len(hit):
            continue
        steps = tuple(int(i) for i in hit)
        out.append(Moment(c, steps, min(timeline.steps[i].t0 for i in steps),
                          max(timeline.steps[i].t1 for i in steps)))
    return out


@dataclass(frozen=True)
class OrderFault:
    """A clause whose moment (the end of the last step of its citing step that says it) comes
    after a step of the same citing step has begun an unsaid move or a later clause."""

    clause: object  # viz.text Clause
    moment: float
    step: int  # the step begun too early
    why: str


def clause_order_faults(timeline, corpus) -> list[OrderFault]:
    """Every 經 clause at its own moment: within each step of the script (each repetition of an
    each: apart), the steps saying a clause end before any step saying only later clauses, or
    any move the text does not say, begins. Steps saying several clauses share their moment.
    One pass over arrays of the compiled steps."""
    cl = [c for c in corpus.clauses if c.kind == "經"]
    if not cl or not timeline.steps:
        return []
    cs = np.array([c.start for c in cl])
    ce = np.array([c.end for c in cl])
    steps = timeline.steps
    sp = np.array([s.span for s in steps]).reshape(-1, 2)
    lo = np.searchsorted(ce, sp[:, 0], side="right")  # first clause ending after the span starts
    hi = np.searchsorted(cs, sp[:, 1], side="left") - 1  # last clause starting before it ends
    groups: dict[tuple, list[int]] = {}
    for j, s in enumerate(steps):
        groups.setdefault((s.loc, s.rep, s.stage), []).append(j)  # a like:'s copy apart
    out = []
    for js in groups.values():
        said = [j for j in js if steps[j].said and lo[j] <= hi[j]]
        for k in sorted({k for j in said for k in range(lo[j], hi[j] + 1)}):
            t = max(steps[j].t1 for j in said if lo[j] <= k <= hi[j])
            for j in js:
                if steps[j].t0 >= t - 1e-6:
                    break
                if not steps[j].said:
                    out.append(OrderFault(cl[k], t, j, "a move the text does not say"))
                elif hi[j] >= lo[j] > k:  # (a step saying only 記 is not in the 經's order)
                    out.append(OrderFault(cl[k], t, j, f"a later clause 「{cl[lo[j]].text}」"))
    return out


def order_warnings(timeline, corpus) -> list[Problem]:
    """Class 6 as warnings (check): a clause whose moment comes after its step has gone on to a
    later clause or an unsaid move, located at the step, once per clause and step."""
    out, seen = [], set()
    for f in clause_order_faults(timeline, corpus):
        s = timeline.steps[f.step]
        if (f.clause.id, s.loc) in seen:
            continue
        seen.add((f.clause.id, s.loc))
        out.append(Problem(_loc(s.loc), f"「{f.clause.text}」 ({f.clause.id}) ends at "
                                        f"{f.moment:.0f} s, after {f.why} has begun "
                                        f"(t {s.t0:.0f} s): --after shows a later state; give "
                                        f"the pattern's steps cite: parts, or the move said: "
                                        f"false after the clause"))
    return out


def shared_moments(timeline, corpus) -> list[tuple[object, int]]:
    """(clause, step) for each 經 clause whose moment is the end of a step that says other 經
    clauses too: said at once (皆 …, a rule beside an act) or not yet parted (a pattern's steps
    without cite:). The clause-order test keeps this list from growing."""
    cl = [c for c in corpus.clauses if c.kind == "經"]
    if not cl or not timeline.steps:
        return []
    cs = np.array([c.start for c in cl])
    ce = np.array([c.end for c in cl])
    sp = np.array([s.span for s in timeline.steps]).reshape(-1, 2)
    said = np.array([s.said for s in timeline.steps], bool)
    t1 = np.array([s.t1 for s in timeline.steps])
    lo = np.searchsorted(ce, sp[:, 0], side="right")
    hi = np.searchsorted(cs, sp[:, 1], side="left") - 1
    out = []
    for k, c in enumerate(cl):
        sel = np.nonzero(said & (lo <= k) & (hi >= k))[0]
        if len(sel):
            j = int(sel[np.argmax(t1[sel])])
            if hi[j] > lo[j]:
                out.append((c, j))
    return out


def _actors_written(timeline, steps: set[int]) -> set[int]:
    """Actors whose motion or posture the steps wrote (those acting in them)."""
    out: set[int] = set()
    for name in ("motion", "posture"):
        ch = timeline.channels[name]
        sel = np.isin(ch.writer, list(steps))
        out |= {int(a) for a in ch.owner[sel]}
    return out


def holders_between(timeline, props: list[int], t0: float, t1: float) -> set[int]:
    """Everyone who holds one of the props at some moment from t0 to t1."""
    ch = timeline.channels["props"]
    holder = np.asarray(ch.values["holder"])
    out: set[int] = set()
    for p in props:
        sel = np.nonzero(ch.owner == p)[0]
        if not len(sel):
            continue
        t = ch.t[sel]
        k = int(np.searchsorted(t, t0, side="right")) - 1
        first = max(k, 0)
        last = int(np.searchsorted(t, t1, side="right"))
        out |= {int(h) for h in holder[sel[first:last]] if h >= 0}
    return out


GROUPS = {"三耦": ("shangshe", "xiashe"), "衆賔": ("zhongbin",), "衆賓": ("zhongbin",),
          "司馬": ("sizheng",)}  # 司正為司馬: one man, two titles
NOTED = "not held:"  # in a citing step's note: "not held: 取矢 (why)" — the claim is explained


def named_in(timeline, text: str) -> set[int]:
    """The actors a clause names: by their name (獲者, 司馬 …) or their group (三耦, 衆賔)."""
    from viz.text import normalize
    text = normalize(text)
    out = {i for i, a in enumerate(timeline.actors) if a.name and normalize(a.name) in text}
    for word, prefixes in GROUPS.items():
        if word in text:
            out |= {i for i, a in enumerate(timeline.actors) if a.id.startswith(prefixes)}
    return out


def hold_claims(text: str):
    """The 執 / 取 / 受 / 奠 / 授 X of a clause that claim something is held then: not negated
    (不執弓), not a title (執爵者), not a place (取俎西之觶), not said in an order (命…執旌)."""
    for g in HOLD_RE.finditer(text):
        if g.group(1) or "命" in text[:g.start()]:
            continue
        yield g.group(0), KIND.get(g.group(3), g.group(3))


def held_warnings(timeline, corpus, tally: dict | None = None) -> list[Problem]:
    """Class 1: a clause of the 經 says someone 執 / 取 / 受 / 奠 / 授 X (a kind of thing the rite
    has props of), and nobody it names or who acts at its moment holds an X then (or puts one
    down). A step citing the clause may explain a claim in its note: "not held: 取矢 (why)".
    tally, if given, counts {"claims", "agreed", "noted"}."""
    kinds: dict[str, list[int]] = {}
    for j, p in enumerate(timeline.props):
        kinds.setdefault(p.kind, []).append(j)
    out: list[Problem] = []
    tally = tally if tally is not None else {}
    for k in ("claims", "agreed", "noted"):
        tally.setdefault(k, 0)
    for m in clause_moments(timeline, corpus):
        acting = None
        for claim, x in hold_claims(m.clause.text):
            if x not in kinds:
                continue
            tally["claims"] += 1
            if acting is None:
                acting = _actors_written(timeline, set(m.steps)) | named_in(timeline,
                                                                            m.clause.text)
            who = holders_between(timeline, kinds[x], m.t0, m.t1)
            if (who & acting) if acting else who:
                tally["agreed"] += 1
                continue
            if any(f"{NOTED} {claim}" in (timeline.steps[i].note or "") for i in m.steps):
                tally["noted"] += 1
                continue
            first = timeline.steps[m.steps[0]]
            out.append(Problem(_loc(first.loc), f"「{m.clause.text}」 says {claim}, but "
                                               f"nobody it names or who acts then holds a {x} "
                                               f"(t {m.t0:.0f}–{m.t1:.0f} s)"))
    return out


# ---- class 4: walks the text makes simultaneous ----

# 皆 / 遂 setting people moving (皆行, 皆進, 皆降, 遂適, 遂出 …)
TOGETHER_RE = re.compile(r"[皆遂](?:[^，。；]{0,3}?)(行|進|升|降|入|出|退|反|適|就|復|從)")
WAIT = 15.0  # seconds: one of those set moving together standing longer than this is warned of
MOVED = 0.05  # 尺: a keyframe step shorter than this is standing still


def _active(timeline, a: int, t0: float, t1: float) -> list[tuple[float, float]]:
    """When actor a walks, turns or bows between t0 and t1: merged intervals."""
    iv = []
    mo = timeline.channels["motion"]
    sel = np.nonzero(mo.owner == a)[0]
    t = mo.t[sel]
    x, y = np.asarray(mo.values["x"])[sel], np.asarray(mo.values["y"])[sel]
    f = np.asarray(mo.values["face"])[sel]
    for k in range(len(sel) - 1):
        if t[k + 1] <= t0 or t[k] >= t1:
            continue
        if (abs(x[k + 1] - x[k]) + abs(y[k + 1] - y[k]) > MOVED or abs(f[k + 1] - f[k]) > 1) \
                and t[k + 1] > t[k]:
            iv.append((max(t[k], t0), min(t[k + 1], t1)))
    po = timeline.channels["posture"]
    sel = np.nonzero(po.owner == a)[0]
    code, end = np.asarray(po.values["code"])[sel], np.asarray(po.values["end"])[sel]
    for tk, c, e in zip(po.t[sel], code, end):
        if c >= 2 and e > tk and e > t0 and tk < t1:  # 拜, 揖: a gesture under way
            iv.append((max(tk, t0), min(e, t1)))
    iv.sort()
    out: list[tuple[float, float]] = []
    for s, e in iv:
        if out and s <= out[-1][1] + 0.5:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def _present(timeline, a: int, t: float) -> bool:
    """Whether actor a is in the scene at time t (his last presence keyframe at or before t)."""
    ch = timeline.channels["presence"]
    sel = np.nonzero((ch.owner == a) & (ch.t <= t + 1e-6))[0]
    return bool(len(sel)) and bool(np.asarray(ch.values["present"])[sel[-1]])


TOGETHER_NOTE = "not together:"  # in a citing step's note: "not together: 衆賔 (why)"


def together_waits(timeline, corpus, wait: float = WAIT) -> list[tuple]:
    """(moment, actor, seconds, where, explained) for everyone a clause sets moving with 皆 or 遂
    who stands still longer than `wait` seconds while the others walk: before he sets off (after
    the first of them has), or between two of his moves. Only the steps citing the words from the
    皆 / 遂 to its verb are looked at (主人揖譲以賔升大夫及衆賔皆升就席: the steps of 皆升就席, not
    the 主人's walk to fetch the 賔), over their own moment. explained: a citing step's note says
    "not together: NAME (why)" with the person's name (or "not together: all (why)")."""
    out = []
    spans = [s.span for s in timeline.steps]
    by_loc: dict[str, str] = {}  # a pattern's steps share the citing step's place; one has its note
    for s in timeline.steps:
        if s.note:
            by_loc[s.loc] = by_loc.get(s.loc, "") + " " + s.note
    for m in clause_moments(timeline, corpus):
        found: dict[int, tuple] = {}
        for g in TOGETHER_RE.finditer(m.clause.text):
            lo, hi = m.clause.start + g.start(), m.clause.start + g.end()
            steps = [i for i in m.steps if spans[i][0] < hi and spans[i][1] > lo]
            if not steps:
                continue
            t0 = min(timeline.steps[i].t0 for i in steps)
            t1 = max(timeline.steps[i].t1 for i in steps)
            notes = " ".join(by_loc.get(loc, "") for loc in {timeline.steps[i].loc for i in steps})
            movers = sorted(_actors_written(timeline, set(steps)))
            acts = {a: _active(timeline, a, t0, t1) for a in movers}
            acts = {a: iv for a, iv in acts.items() if any(e - s > 1.0 for s, e in iv)}
            if len(acts) < 2:
                continue
            start = min(iv[0][0] for iv in acts.values())
            for a, iv in acts.items():
                gaps = [(iv[0][0] - start if _present(timeline, a, start) else 0.0,
                         "before setting off")]  # one not yet come in is not kept waiting
                gaps += [(b[0] - e[1], "between two moves") for e, b in zip(iv, iv[1:])]
                gap, where = max(gaps)
                if gap > wait and gap > found.get(a, (0,))[0]:
                    name = timeline.actors[a].name
                    said = [n.split(")")[0] for n in notes.split(TOGETHER_NOTE)[1:]]
                    explained = any(w.strip().startswith(("all", name, timeline.actors[a].id))
                                    or f" {name}" in w.split("(")[0] for w in said)
                    found[a] = (gap, where, explained, steps[0])
        for a, (gap, where, explained, first) in found.items():
            out.append((m, a, gap, where, explained, first))
    return out


def wait_warnings(timeline, corpus, wait: float = WAIT, explained: bool = False) -> list[Problem]:
    """Class 4: those a 皆 / 遂 clause sets moving who wait (together_waits), located at the first
    step citing the words; explained: those a note explains (else those it does not)."""
    out = []
    for m, a, g, where, why, first in together_waits(timeline, corpus, wait):
        if why != explained:
            continue
        out.append(Problem(_loc(timeline.steps[first].loc),
                           f"「{m.clause.text}」 sets them moving together, but "
                           f"{timeline.actors[a].name} ({timeline.actors[a].id}) "
                           f"stands {g:.0f} s {where}"))
    return out


def longest_steps(timeline, n: int = 5) -> list:
    """The rite's n longest steps, longest first."""
    return sorted(timeline.steps, key=lambda s: s.t0 - s.t1)[:n]


# ---- class 7: the 經's own words checked against the motion (check --text) ----

FACE_RE = re.compile(r"(東南|西南|東北|西北|東|西|南|北)面")
FACING = {"北": 0, "東北": 45, "東": 90, "東南": 135, "南": 180, "西南": 225, "西": 270, "西北": 315}
POSTURE_RE = re.compile(r"(再拜|拜|揖|坐|興)")
POSTURE_CODE = {"坐": 1, "拜": 2, "再拜": 2, "揖": 3}
NOTE_RE = "noted:"  # in a citing step's note: "noted: 北面 (why)" — the claim is explained


def _said_spans(timeline, text: str, m: Moment) -> list[tuple[int, int]]:
    """Where in the clause's text stand words someone says at its moment (a 辭 the steps speak:
    醴辭曰甘醴惟厚…拜受祭之): what they tell is not a claim of what the speaker does."""
    from viz.text import normalize
    out = []
    for e in timeline.events:
        if e.kind == "say" and m.t0 <= e.t0 < m.t1 and len(e.text) >= 4:
            i = text.find(normalize(e.text))
            if i >= 0:
                out.append((i, i + len(e.text)))
    return out


def _inside(spans: list[tuple[int, int]], i: int) -> bool:
    return any(s <= i < e for s, e in spans)


def _acting(timeline, m: Moment) -> set[int]:
    """Those the steps saying a clause move, pose or make speak (a 對 or a 辭 writes no motion)."""
    return _actors_written(timeline, set(m.steps)) | {
        e.actor for e in timeline.events
        if e.kind == "say" and e.actor >= 0 and m.t0 <= e.t0 < m.t1}


PLACE_CHARS = set("之堂階序楹中楅侯門洗篚物席筵豐位个乏戸户房室牖墉闑閾塾榮坫")  # 戸西，南面
SETTING = ("乃席", "席", "設", "縣", "陳")  # a clause setting things out: its 面 is the thing's
# a mat or thing set out inside a clause (筵于戸西南面; 布席于門中闑西閾外西面): a facing after it,
# with nothing but the words of its place between, is the thing's, not the one who sets it
SET_RE = re.compile(r"布席|敷席|設席|加席|筵[于於]|席[于於]|[設陳縣](?=[^面]{0,3}[于於])")
PLACE_WORDS = PLACE_CHARS | set("東西南北上下中間外内前後左右當少于於其旁側")


def facing_claims(text: str):
    """The facings a clause claims of people, (X面, degrees, the words since the last 面): X面,
    where a first direction written after a place is the place's side (阼階之東，南面; 堂西，南面;
    戸西，南面); none in a clause setting things out, nor a mat's or thing's facing after the
    words setting it out (筵于戸西，南面)."""
    for claim, deg, before, _ in _facings(text):
        yield claim, deg, before


def _facings(text: str):
    """facing_claims, each with the index of its direction in the text."""
    if text.startswith(SETTING):
        return
    sets = [g.end() for g in SET_RE.finditer(text)]
    for g in FACE_RE.finditer(text):
        d = g.group(1)
        at = g.start()
        if len(d) == 2 and at > 0 and text[at - 1] in PLACE_CHARS:
            d, at = d[1], at + 1
        if any(e <= at and set(text[e:at]) <= PLACE_WORDS for e in sets):
            continue  # 筵于戸西南面: the mat faces south
        yield d + "面", FACING[d], text[text.rfind("面", 0, g.start()) + 1:g.start()], at


def posture_claims(text: str):
    """(word, index) of each posture the clause claims: 坐, 興, 拜, 再拜, 揖, not negated (不拜),
    nor 揖弓 (the bow pushed), 拜賜 (the visit's name), 請坐 (words), 夙興 (rising early)."""
    for g in POSTURE_RE.finditer(text):
        w = g.group(1)
        before, after = text[max(0, g.start() - 1):g.start()], text[g.end():g.end() + 1]
        if before == "不" or (w, after) in (("揖", "弓"), ("拜", "賜")) \
                or (w, before) in (("坐", "請"), ("興", "夙")):
            continue
        yield w, g.start()


# ---- who does what: the clause's phrases and their subjects ----

BREAKS = set("，；：。！？「」『』")  # marks that end a phrase (、 joins names: 賔、主人、介)
JOINERS = "與及、暨"  # 主人與賔三揖
# an act answering another's (賔西階上答拜; 主人拜送爵): its subject is not carried on, the next
# phrase is the other's again (賔對，東面立 is carried: the 賔 stands)
RESPONSE_RE = re.compile(r"答拜|拜送|[揖拜]之$")  # …, and 賔揖之 (the one acted on goes on)
FINISHED = "拜洗盥揖"  # 卒拜, 卒洗: the end of an act begun before (卒爵 is drinking up)
SIDE = "右左"  # 介右坐奠爵: at the 介's right, a place (not 介右執爵 … with his right hand)
UNNAMED_RE = re.compile(r"(?:使)?(?:[一二三四五六七八九十]人|[^之，。面]{1,2}者)")  # 一人拜, 沃洗者
ALIASES = {"司正": ("sizheng",)}  # 作相為司正: the 相 of 鄉飲酒 is the 司正 (as 司馬, GROUPS)


def phrases(text: str, punct: str) -> list[tuple[int, int]]:
    """(start, end) in text of each phrase the clause's punctuation marks off (主人坐取爵，沃洗者
    西北面 → two); the whole text if punct is empty or does not spell the text."""
    from viz.text import normalize
    spans, i, s = [], 0, 0
    for ch in normalize(punct or ""):
        if i < len(text) and ch == text[i]:
            i += 1
        elif ch in BREAKS:
            if i > s:
                spans.append((s, i))
                s = i
    if i != len(text) or not text:
        return [(0, len(text))]
    if s < len(text):
        spans.append((s, len(text)))
    return spans


def _names(timeline) -> list[tuple[str, set[int]]]:
    """Each word that names actors (their names, GROUPS, ALIASES), longest first."""
    from viz.text import normalize
    out: dict[str, set[int]] = {}
    for i, a in enumerate(timeline.actors):
        if a.name:
            out.setdefault(normalize(a.name), set()).add(i)
    for word, prefixes in list(GROUPS.items()) + list(ALIASES.items()):
        out.setdefault(word, set()).update(
            i for i, a in enumerate(timeline.actors) if a.id.startswith(prefixes))
    return sorted(((w, ids) for w, ids in out.items() if ids), key=lambda x: -len(x[0]))


OBJECT_END_RE = re.compile(r"[揖拜]之")  # 賔揖之，適房: 之 is the one acted on, who goes on
# a name after these is the one acted on, compared or reached, not a new subject (受命於主人, 如賔服,
# 酬賔, 戒賔, 宿賔, 一相: the number of them), nor after a joiner (主人與賔) or 之 (賔之席)
OBJECT_WORDS = set("於于如酬獻戒宿請命告送迎見授醴字一") | set(JOINERS) | {"之"}


def _name_cuts(names, text: str, s: int, e: int) -> list[tuple[int, int]]:
    """A phrase cut where a name begins inside it (a new subject: 主人升立于序端西面｜賔西序東面;
    冠者筵西拜受觶｜賔東面答拜; 賔揖｜將冠者｜將冠者即筵坐, a 將 before the name going with it) and
    after 揖之 / 拜之 (the one acted on goes on: 冠者興｜賔揖之｜適房…出房南面): 張爾岐's 句 mark
    only where a clause ends, so the names and the objects are what part its acts. A name after
    OBJECT_WORDS or another name is not cut, but a name doubled is (宿賔｜賔如主人服: the second
    is the subject)."""
    cuts = {g.end() for g in OBJECT_END_RE.finditer(text, s, e) if g.end() < e}
    i = s + 1
    while i < e:
        w = next((w for w, _ in names if text.startswith(w, i) and i + len(w) <= e), None)
        if w is None:
            i += 1
            continue
        prev = text[i - 1]
        at = i - 1 if prev == "將" and i - 1 > s else i
        doubled = text.endswith(w, s, i)  # 宿賔賔如…: the first the object, the second the subject
        after_name = any(text.endswith(v, s, i) for v, _ in names)
        if doubled or not (prev in OBJECT_WORDS or after_name):
            cuts.add(at)
        i += len(w)
    bounds = [s, *sorted(c for c in cuts if s < c < e), e]
    return list(zip(bounds, bounds[1:]))


def leading_subject(names, phrase: str) -> set[int] | None:
    """The actors a phrase begins by naming (賔介席末答拜 → 賔 and 介; 主人與賔三揖), an empty set
    if it begins with someone the rite does not name (一人拜, 沃洗者西北面, 使二人舉觶), None if it
    names nobody first (坐奠爵, 乃請賔, 賔之席 …)."""
    out: set[int] = set()
    i = 0
    while True:
        for w, ids in names:
            nxt = phrase[i + len(w):i + len(w) + 2]
            if phrase.startswith(w, i) and not nxt.startswith("之") \
                    and not (nxt[:1] and nxt[0] in SIDE and nxt[1:] not in ("執", "手", "還")):
                out |= ids
                i += len(w)
                break
        else:
            if i == 0 and phrase.startswith("衆") and len(phrase) > 1:
                i = 1  # 衆笙則不拜受爵: the 笙 (those not named apart), after 衆賔 was tried
                continue
            break
        while i < len(phrase) and phrase[i] in JOINERS:
            i += 1
    if out:
        return out
    return set() if UNNAMED_RE.match(phrase) else None


def subjects(timeline, text: str, punct: str, acting: set[int], names=None) -> list[tuple]:
    """(start, end, candidates) for each phrase of a clause: those its claims are about. A phrase
    beginning with a name is that one's (if acting); one naming nobody goes on with the subject
    before it, but a response (賔西階上答拜, 主人拜送爵) does not carry its subject on: the next
    phrase is the other's again. Before any subject (at the clause's start, or after someone the
    rite does not name), those acting whom no phrase of the clause names as its subject; a phrase
    saying 皆 of nobody named (司正…以相拜，皆揖), those and the subject before, from then on; a phrase
    finishing an act said before (賔西階上拜，主人少退，卒拜), the one who began it."""
    names = names if names is not None else _names(timeline)
    spans = [p for s, e in phrases(text, punct) for p in _name_cuts(names, text, s, e)]
    lead = [leading_subject(names, text[s:e]) for s, e in spans]
    named = set().union(*(x for x in lead if x)) & acting
    others = (acting - named) or acting
    out, cur = [], None
    for (s, e), sub in zip(spans, lead):
        if sub:
            mine = (sub & acting) or acting
            if not RESPONSE_RE.search(text[s:e]):
                cur = mine
        else:
            if sub is not None:  # 一人拜: someone the rite has no name for
                cur = None
            mine = cur if cur is not None else others
            act = text[s + 1:s + 2] if text.startswith("卒", s) else ""
            began = [c for s0, e0, c in out
                     if act and act in FINISHED and act in text[s0:e0].replace("卒" + act, "")]
            if began:  # 卒拜: not carried on (主人少退，卒拜，進坐奠觶: the 主人 goes on)
                out.append((s, e, began[-1]))
                continue
            if text.startswith("皆", s):  # 皆 makes the subject several, and goes on so
                mine = cur = (cur or set()) | others
        out.append((s, e, mine))
    return out


def text_claims(timeline, corpus) -> dict:
    """Every claim a clause of the 經 makes of facing (北面 …), posture (坐, 興, 拜, 再拜, 揖) or
    holding (執, 取, 受, 奠, 授 X), checked at the clause's moment against those it names (or, if
    it names nobody who acts, those acting): {"claims", "agreed", "noted", "items": [{clause,
    id, claim, who, result}]}. Negated words (不拜, 不坐) are not claims; a citing step's note
    "noted: CLAIM (why)" or "not held: CLAIM (why)" explains a disagreement."""
    kinds: dict[str, list[int]] = {}
    for j, p in enumerate(timeline.props):
        kinds.setdefault(p.kind, []).append(j)
    po = timeline.channels["posture"]
    p_code = np.asarray(po.values["code"])
    p_seat = np.asarray(po.values["seated"])
    items = []
    from viz.text import normalize
    names = _names(timeline)
    for m in clause_moments(timeline, corpus):
        text = normalize(m.clause.text)  # 靣 → 面 …
        acting = _acting(timeline, m)
        parts = subjects(timeline, text, getattr(m.clause, "punct", ""), acting, names)

        def whose(i: int) -> set[int]:
            return next((c for s, e, c in parts if s <= i < e), acting)
        said = _said_spans(timeline, text, m)
        notes = " ".join(timeline.steps[i].note or "" for i in m.steps)
        frames = [timeline.sample(timeline.steps[i].t1, closing=True) for i in m.steps]
        claims = []
        for claim, want, before, at in _facings(text):
            if _inside(said, at):
                continue
            # the one named just before the direction (耦東面，大夫西面); if those words name
            # nobody (耦, or the subject of a phrase before), the phrase's subject
            who = whose(at)
            near = named_in(timeline, before) & who if before else who
            ok = any(abs((f.facing[a] - want + 180) % 360 - 180) <= 30
                     for f in frames for a in (near or who or acting))
            claims.append((claim, ok, who))
        for w, i in posture_claims(text):
            if _inside(said, i):
                continue  # 拜受祭之 in the 醴辭: words said, not a bow
            # 以相拜: the 司正 helps the others' bows (相 as a verb: to assist, or each other)
            who = acting if text[i - 1:i] == "相" else whose(i)
            sel = np.isin(po.owner, list(who)) & (po.t >= m.t0 - 1e-6) & (po.t <= m.t1 + 1e-6)
            if w == "興":
                ok = bool(np.any(sel & (p_code == 0) & (p_seat == 0)))
            elif w == "坐":
                ok = bool(np.any(sel & ((p_code == 1) | (p_seat != 0))))
            else:
                ok = bool(np.any(sel & (p_code == POSTURE_CODE[w])))
            claims.append((w, ok, who))
        for claim, x in hold_claims(text):
            if x not in kinds:
                continue
            holding = _actors_written(timeline, set(m.steps)) | named_in(timeline, text)
            held = holders_between(timeline, kinds[x], m.t0, m.t1)
            claims.append((claim, bool((held & holding) if holding else held), holding))
        for claim, ok, who in claims:
            result = "agreed" if ok else (
                "noted" if f"{NOTE_RE} {claim}" in notes or f"{NOTED} {claim}" in notes
                else "disagrees")
            items.append({"clause": text, "id": m.clause.id, "claim": claim,
                          "who": "、".join(sorted({timeline.actors[a].name for a in who})) or "—",
                          "result": result})
    return {"claims": len(items),
            "agreed": sum(i["result"] == "agreed" for i in items),
            "noted": sum(i["result"] == "noted" for i in items),
            "items": items}
