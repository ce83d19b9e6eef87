"""What the 經 says they wear, checked against the motion (issue 19, class 3): where a clause says
that someone 袒 / 襲 / 決遂 / 説決拾 / 搢扑 / 執張弓 / 執弛弓 / 挾 (an arrow), those it names (or who
act, or loose an arrow, at its moment) are so dressed, their bow so strung, an arrow in hand, as
one of the steps citing it ends. Read by `check` (warnings) and `check --text` (claims)."""
from __future__ import annotations

import re

from viz.base.errors import Problem
from viz.model.dress import BOW_STATES, WORN

# a claim, and the columns it says are on (1) or off (0); 不決遂 and words in an order (命…) are
# not claims
DRESS_RE = re.compile(r"(不)?(袒決遂|袒決|袒|襲|説決拾|說決拾|説次拾|搢扑|去扑|執張弓|執弛弓|加弛弓|"
                      r"挾乘矢|挾一个|挾弓矢|挾之)")
WANT = {"袒決遂": {"袒": 1, "決": 1, "遂": 1}, "袒決": {"袒": 1, "決": 1}, "袒": {"袒": 1},
        "襲": {"袒": 0}, "説決拾": {"決": 0, "遂": 0}, "說決拾": {"決": 0, "遂": 0},
        "説次拾": {"決": 0, "遂": 0}, "搢扑": {"扑": 1}, "去扑": {"扑": 0},
        "執張弓": {"張": 1}, "執弛弓": {"弛": 1}, "加弛弓": {"弛": 1},
        # 挾: an arrow held against the bowstring (注: 方持弦矢曰挾) — one holds a 矢
        "挾乘矢": {"矢": 1}, "挾一个": {"矢": 1}, "挾弓矢": {"矢": 1}, "挾之": {"矢": 1}}
NOTED = "noted:"  # in a citing step's note: "noted: 袒 (why)"


def dress_claims_of(text: str):
    """The dress claims of a clause's text, in order: (claim, {column: 0|1})."""
    for g in DRESS_RE.finditer(text):
        if g.group(1) or "命" in text[:g.start()]:
            continue
        yield g.group(2), WANT[g.group(2)]


def _dressed(timeline, f, who: set[int], want: dict[str, int]) -> bool:
    """Whether one of `who` is dressed (or holds a bow) as `want` says in frame f."""
    worn = f.values.get("dress", {})
    bows = f.values.get("bow", {}).get("state", ())
    for a in who:
        if "矢" in want:
            if any(timeline.props[timeline.prop_index[p]].kind == "矢" for p in f.holding[a]):
                return True
            continue
        if "張" in want or "弛" in want:
            state = BOW_STATES["張" if "張" in want else "弛"]
            for pid in f.holding[a]:
                j = timeline.prop_index[pid]
                if len(bows) > j and int(bows[j]) == state:
                    return True
            continue
        if all(len(worn.get(k, ())) > a and min(int(worn[k][a]), 1) == v
               for k, v in want.items() if k in WORN):  # 袒纁襦 (2) is a 袒
            return True
    return False


def _dress_written(timeline, steps: set[int]) -> set[int]:
    """Actors whose dress the steps wrote (a step that only dresses moves nobody)."""
    import numpy as np

    ch = timeline.channels.get("dress")
    if ch is None or not len(ch.t):
        return set()
    return {int(a) for a in ch.owner[np.isin(ch.writer, list(steps))]}


def _shooting(timeline, t0: float, t1: float) -> set[int]:
    """Those who loose an arrow between t0 and t1 (上射既發挾弓矢: the archer, not named whole)."""
    return {e.actor for e in timeline.events if e.kind == "shot" and t0 <= e.t0 <= t1
            and e.actor >= 0}


def dress_results(timeline, corpus) -> list[dict]:
    """Every dress claim of the 經 at its clause's moment: {clause, id, claim, who, result, loc}."""
    from viz.query.faithful import _actors_written, clause_moments, named_in
    from viz.text import normalize

    out = []
    for m in clause_moments(timeline, corpus):
        text = normalize(m.clause.text)
        claims = list(dress_claims_of(text))
        if not claims:
            continue
        who = _actors_written(timeline, set(m.steps)) | _dress_written(timeline, set(m.steps)) \
            | named_in(timeline, text) | _shooting(timeline, m.t0, m.t1)
        names = "、".join(sorted({timeline.actors[a].name for a in who})) or "—"
        notes = " ".join(timeline.steps[i].note or "" for i in m.steps)
        frames = [timeline.sample(timeline.steps[i].t1, closing=True) for i in m.steps]
        for claim, want in claims:
            ok = any(_dressed(timeline, f, who, want) for f in frames)
            result = "agreed" if ok else ("noted" if f"{NOTED} {claim}" in notes
                                          else "disagrees")
            out.append({"clause": text, "id": m.clause.id, "claim": claim, "who": names,
                        "result": result, "loc": timeline.steps[m.steps[0]].loc})
    return out


def dress_warnings(timeline, corpus) -> list[Problem]:
    """Class 3 as warnings, located at the first step citing the clause."""
    from viz.query.faithful import _loc

    def what(claim: str) -> str:
        if claim.startswith("挾"):
            return "holds no arrow (矢)"
        if "張" in claim or "弛" in claim:
            return f"holds no bow {'張' if '張' in claim else '弛'}"
        return "is not so dressed"
    return [Problem(_loc(r["loc"]), f"「{r['clause']}」 says {r['claim']}, but {r['who']} "
                                    f"{what(r['claim'])} at its moment")
            for r in dress_results(timeline, corpus) if r["result"] == "disagrees"]


def with_dress(rep: dict, timeline, corpus) -> dict:
    """check --text's report (faithful.text_claims) with the dress claims added and counted."""
    items = rep["items"] + [{k: r[k] for k in ("clause", "id", "claim", "who", "result")}
                            for r in dress_results(timeline, corpus)]
    return {"claims": len(items),
            "agreed": sum(i["result"] == "agreed" for i in items),
            "noted": sum(i["result"] == "noted" for i in items),
            "items": items}
