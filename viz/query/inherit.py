"""如初 inherits (issue 26, class 1): a clause saying 如初 / 如之 / 亦如之 / 如其 … is checked
against the claims of the clauses it points to — facing, posture, holding, dress — at its own
moment, in its own people. Read by `check --text`, whose report gains these claims.

What each such clause points to is data, the rite's ruchu.yaml beside its manifest (clause id →
{like: [ids, ranges, or "id@words" for a clause whose claims are those
words' people's], who: words naming its people or "acting", note}); a 如初 clause of the 經 enacted but
not listed there is reported as "unresolved" (a claim that disagrees), so every 如初 of every rite
is looked at. A clause pointed to that itself says 如初 is followed on (26.02 → 20.01 → 18.29).

People: those the table's who: names (三耦, 衆賔, 介 …), else those the clause names who act at its
moment, else those acting. A claim of a clause pointed to is about those it names, where this
clause's people include them (27.16's 主人 of 22.02 主人堂東袒決遂), else about this clause's people
(22.03 賔於堂西亦如之: the 賔). When the people are named (by the claim or by who:), each of them must
hold it at the moment; when they are only "those acting", one of them will do.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np

LIKE_RE = re.compile(r"(?<!不)(?:亦)?如(?:初|之|其)")
FILE = "ruchu.yaml"


def _cid(v) -> str:
    return f"{v:05.2f}" if isinstance(v, float) else str(v)


def load_table(script_path) -> dict | None:
    """The rite's ruchu.yaml ({clause id: {like: [...], who: str, note: str}}), or None."""
    import yaml

    p = Path(script_path)
    p = p if p.is_dir() else p.parent
    f = p / FILE
    if not f.is_file():
        return None
    doc = yaml.safe_load(f.read_text(encoding="utf-8")) or {}
    out = {}
    for k, v in doc.items():
        v = v or {}
        out[_cid(k)] = {"like": [_cid(x) for x in v.get("like") or ()],
                        "who": str(v.get("who") or ""), "note": str(v.get("note") or "")}
    return out


def _expand(ids: list[str], order: list[str]) -> list[str]:
    """Clause ids and ranges ("18.05-18.13") in the text's order; "24.04@司射" keeps its people."""
    out = []
    for r in ids:
        if "@" in r:
            if r.split("@")[0] in order:
                out.append(r)
        elif "-" in r:
            a, b = r.split("-", 1)
            if a in order and b in order:
                out += order[order.index(a):order.index(b) + 1]
        elif r in order:
            out.append(r)
    return out


def referents(cid: str, table: dict, order: list[str], seen=()) -> list[str]:
    """The clauses a 如初 clause points to, followed on through those that say 如初 themselves."""
    out = []
    for r in _expand(table.get(cid, {}).get("like", []), order):
        if r in seen or r == cid:
            continue
        if r in table and r not in out:
            out += referents(r, table, order, (*seen, cid))
            continue
        out.append(r)
    return out


def like_claims(timeline, corpus, table: dict | None) -> list[dict]:
    """check --text items ({clause, id, claim, who, result}) for every 如初 clause of the 經 the
    rite enacts: each claim of the clauses it points to, checked in its people at its moment.
    claim reads "如初 ← 22.02 袒決遂"; a clause not in the table gives one "如初 unresolved"."""
    from viz.query.faithful import NOTE_RE, NOTED, _acting, clause_moments
    from viz.text import normalize

    table = table or {}
    by_id = {c.id: c for c in corpus.clauses if c.kind == "經"}
    order = list(by_id)
    cols = _Columns(timeline)
    items = []
    for m in clause_moments(timeline, corpus):
        text = normalize(m.clause.text)
        if not LIKE_RE.search(text):
            continue
        notes = " ".join(timeline.steps[i].note or "" for i in m.steps)
        entry = table.get(m.clause.id)
        if entry is None:
            items.append({"clause": text, "id": m.clause.id, "claim": "如初 unresolved",
                          "who": "—", "result": "noted" if f"{NOTE_RE} 如初" in notes
                          else "disagrees"})
            continue
        acting = _acting(timeline, m)
        people, each = _people(timeline, entry, text, acting)
        if not people:
            continue
        frames = [timeline.sample(timeline.steps[i].t1, closing=True) for i in m.steps]
        for ref in referents(m.clause.id, table, order):
            rid, _, only = ref.partition("@")
            r = normalize(by_id[rid].text)
            whose = _whose(timeline, r, only, entry, acting, people, each)
            if whose is None:
                continue
            for claim, (ok, bad) in _claims(timeline, cols, m, frames, r, *whose):
                tag = f"如初 ← {rid} {claim}"
                result = "agreed" if ok else (
                    "noted" if any(f"{k} {tag}" in notes or f"{k} 如初 {claim}" in notes
                                   for k in (NOTE_RE, NOTED)) else "disagrees")
                names = "、".join(sorted({timeline.actors[a].name for a in (bad or whose[0])}))
                items.append({"clause": text, "id": m.clause.id, "claim": tag, "who": names,
                              "result": result})
    return items


class _Columns:
    """The timeline's columns the claims read: the props of each kind, the motion channel and
    its facings, the posture channel and its codes and seated flags."""

    def __init__(self, timeline) -> None:
        self.kinds: dict[str, list[int]] = {}
        for j, p in enumerate(timeline.props):
            self.kinds.setdefault(p.kind, []).append(j)
        self.mo = timeline.channels["motion"]
        self.m_face = np.asarray(self.mo.values["face"])
        self.po = timeline.channels["posture"]
        self.p_code = np.asarray(self.po.values["code"])
        self.p_seat = np.asarray(self.po.values["seated"])


def _people(timeline, entry: dict, text: str, acting: set[int]) -> tuple[set[int], bool]:
    """A 如初 clause's people, and whether each of them must hold a claim (named) or one will
    do (only "those acting"): the table's who:, else those the clause names who act, else those
    acting."""
    from viz.query.faithful import named_in

    if entry["who"] == "acting":
        return acting, False
    if entry["who"]:
        return named_in(timeline, entry["who"]) & acting, True
    named = named_in(timeline, text) & acting
    return (named, True) if named else (acting, False)


def _whose(timeline, r: str, only: str, entry: dict, acting: set[int], people: set[int],
           each: bool) -> tuple[set[int], bool] | None:
    """Whose the claims of a clause pointed to (its words r; only: the words of "id@words")
    are, and whether all of them must hold each; None when "id@words" names none acting."""
    from viz.query.faithful import named_in

    if only:
        who = named_in(timeline, only) & acting
        return (who, True) if who else None
    if entry["who"] == "acting":  # the claims are whoever's acts them (勝者之弟子)
        return people, False
    rnamed = named_in(timeline, r) & people
    return (rnamed, True) if rnamed else (people, each)


def _claims(timeline, cols: _Columns, m, frames: list, r: str, who: set[int],
            all_: bool) -> list[tuple[str, tuple[bool, set[int]]]]:
    """The claims of the words r (facing, posture, holding, dress), each checked in who at the
    moment m: (claim, (holds, those who do not))."""
    from viz.model.dress import WORN  # noqa: F401  (the dress columns _dressed reads)
    from viz.query.dressed import _dressed, dress_claims_of
    from viz.query.faithful import (POSTURE_CODE, facing_claims, hold_claims, holders_between,
                                    posture_claims)

    mo, m_face, po, p_code, p_seat = cols.mo, cols.m_face, cols.po, cols.p_code, cols.p_seat

    def faced(a: int, want: float) -> bool:
        """Facing so at a step's end or at any turn of his within the moment."""
        sel = (mo.owner == a) & (mo.t >= m.t0 - 1e-6) & (mo.t <= m.t1 + 1e-6)
        if np.any(np.abs((m_face[sel] - want + 180) % 360 - 180) <= 30):
            return True
        return any(abs((f.facing[a] - want + 180) % 360 - 180) <= 30 for f in frames)

    def holds(test) -> tuple[bool, set[int]]:
        bad = {a for a in who if not test(a)}
        return (not bad) if all_ else (len(bad) < len(who)), bad

    claims = []
    for claim, want, _before in facing_claims(r):
        # a facing is the role's (上射東面，下射西面): one of them will do
        ok = any(faced(a, want) for a in who)
        claims.append((claim, (ok, set() if ok else set(who))))
    for w, _at in posture_claims(r):  # the same words as check --text reads (not 夙興, 不拜 …)

        def posed(a, w=w) -> bool:
            sel = (po.owner == a) & (po.t >= m.t0 - 1e-6) & (po.t <= m.t1 + 1e-6)
            if w == "興":
                return bool(np.any(sel & (p_code == 0) & (p_seat == 0)))
            if w == "坐":
                return bool(np.any(sel & ((p_code == 1) | (p_seat != 0))))
            return bool(np.any(sel & (p_code == POSTURE_CODE[w])))
        claims.append((w, holds(posed)))
    for claim, x in hold_claims(r):
        if x not in cols.kinds:
            continue
        held = holders_between(timeline, cols.kinds[x], m.t0, m.t1)
        claims.append((claim, holds(lambda a, h=held: a in h)))
    for claim, want in dress_claims_of(r):
        claims.append((claim, holds(lambda a, w=want: any(
            _dressed(timeline, f, {a}, w) for f in frames))))
    return claims


def with_likes(rep: dict, timeline, corpus, table: dict | None) -> dict:
    """check --text's report with the 如初 claims added and counted."""
    items = rep["items"] + like_claims(timeline, corpus, table)
    return {"claims": len(items),
            "agreed": sum(i["result"] == "agreed" for i in items),
            "noted": sum(i["result"] == "noted" for i in items),
            "items": items}
