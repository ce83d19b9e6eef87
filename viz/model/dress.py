"""The words of dress: what 袒, 襲, 決, 遂, 説決拾, 搢扑, 去扑 set, and a bow's 張 or 弛 (one home for
the verb, the compile and the checks)."""
from __future__ import annotations

import re

WORN = ("袒", "決", "遂", "扑")  # the "dress" channel's columns, in order
BOW_STATES = {"張": 1, "弛": 2}
TAN_XUNRU = 2  # the "dress" channel's 袒 when what is bared is the 纁襦 (1: the arm itself)  # the "bow" channel's values (0: not a bow)
BOW_NAMES = {v: k for k, v in BOW_STATES.items()}
# each word of the text a dress action may say, and what it sets (column, value)
WORDS: dict[str, tuple[tuple[str, int], ...]] = {
    "袒": (("袒", 1),), "襲": (("袒", 0),),
    # 記: 大夫與士射袒纁襦 (注: 不肉袒殊於耦): the 大夫 bares a red under-jacket, not the flesh
    "袒纁襦": (("袒", TAN_XUNRU),),
    "決": (("決", 1),), "遂": (("遂", 1),), "拾": (("遂", 1),),
    "説決拾": (("決", 0), ("遂", 0)), "説決": (("決", 0),), "説拾": (("遂", 0),),
    "搢扑": (("扑", 1),), "去扑": (("扑", 0),),
}
WORD_RE = re.compile("|".join(sorted(WORDS, key=len, reverse=True)))


def dress_words(text: str) -> list[tuple[str, int]] | None:
    """The changes a dress action's words make, in order (說 read as 説), or None when the words
    are not all dress words (袒決遂, 襲説決拾, 搢扑 …)."""
    text = text.replace("說", "説")
    out: list[tuple[str, int]] = []
    at = 0
    for g in WORD_RE.finditer(text):
        if g.start() != at:
            return None
        out += WORDS[g.group(0)]
        at = g.end()
    return out if at == len(text) and out else None


# ---- worn things (don, doff): caps and clothes declared in the cast's props with worn: SPOT ----
# where a thing is worn, and the word the state's text says it with (戴 on the head, 服 on the
# body, 履 on the feet); in this order a person's worn things are listed
SPOTS = {"首": "戴", "身": "服", "足": "履"}
# worn under whatever else is on the same spot: the 纚 (注: 纚今之幘梁也, the hair bound) and the
# 笄 go on before the 冠 or 弁 and come off after it (設纚 … 加緇布冠; 設笄 … 加皮弁)
UNDER = ("纚", "笄")
# kinds that count as one for "one of each kind at a spot": a head has one cap, 冠 or 弁
SAME = {"弁": "冠"}


def layer(kind: str) -> int:
    """0 for a thing worn under the rest of its spot (纚, 笄), else 1."""
    return 0 if kind in UNDER else 1


def worn_order(items):
    """(prop index, kind, spot) items in the order a person's worn things are listed: by spot
    (首 身 足), under-things first, then in the order of the props' declaration."""
    spots = list(SPOTS)
    return sorted(items, key=lambda x: (spots.index(x[2]) if x[2] in spots else len(spots),
                                        layer(x[1]), x[0]))


def don_conflict(kind: str, name: str, spot: str, worn: list[tuple[str, str]]) -> str | None:
    """Why a thing of this kind cannot go on a spot where (kind, name) pairs are worn, or None.
    The rule: one thing of each kind at a spot (冠 and 弁 count as one: a head has one cap);
    the 纚 and 笄 go under the cap, so they go on before it."""
    same = SAME.get(kind, kind)
    for k, n in worn:
        if SAME.get(k, k) == same:
            return f"already wears {n} ({k}) on the {spot}: doff it first"
    over = _over(kind, worn)
    if over:
        return (f"the {name} ({kind}) goes under the {'、'.join(over)} on the {spot}, "
                f"which he wears already: doff it first ({'、'.join(UNDER)} go on before a cap)")
    return None


def doff_conflict(kind: str, name: str, spot: str, worn: list[tuple[str, str]]) -> str | None:
    """Why a thing worn cannot come off yet (a 纚 under the cap still on), or None."""
    over = _over(kind, worn)
    if over:
        return f"the {name} ({kind}) is under the {'、'.join(over)} on the {spot}: doff that first"
    return None


def _over(kind: str, worn: list[tuple[str, str]]) -> list[str]:
    """The names of the caps worn over a thing of this kind (only a 纚 or 笄 has any)."""
    return [n for k, n in worn if layer(k) == 1] if layer(kind) == 0 else []


def wears(timeline, frame, i: int) -> list[int]:
    """The props actor i wears at the frame (indices, in worn_order); [] without a "wear"
    channel (a rite with no worn things). A thing going on is worn once it is on; one coming
    off, until it is off."""
    ch = frame.values.get("wear") if frame.values else None
    if not ch or not len(ch.get("worn", ())):
        return []
    on = [(int(p), timeline.props[p].kind, timeline.props[p].worn)
          for p in range(len(timeline.props))
          if timeline.props[p].worn and int(ch["worn"][p]) and int(ch["wearer"][p]) == i]
    return [p for p, _, _ in worn_order(on)]


def moving(frame) -> list[tuple[int, int, int, float, bool]]:
    """The worn things on their way at the frame, between someone's hands and where they are
    worn: (prop, wearer, hands, how far along 0…1 from the hands to where it is worn, on: going
    on (don) or coming off (doff))."""
    ch = frame.values.get("wear") if frame.values else None
    if not ch or not len(ch.get("end", ())):
        return []
    out = []
    t = float(frame.t)
    start, end = ch["start"], ch["end"]
    for p in range(len(end)):
        t0, t1 = float(start[p]), float(end[p])
        if t1 > t0 and t0 <= t < t1 and int(ch["hands"][p]) >= 0:
            a = (t - t0) / (t1 - t0)
            on = not int(ch["worn"][p])
            out.append((p, int(ch["wearer"][p]), int(ch["hands"][p]), a if on else 1.0 - a, on))
    return out


def spot_words(names: list[str], spots: list[str]) -> str:
    """What he wears in the text's words: 戴纚·緇布冠 服玄端 (戴 on the head, 服 on the body, 履
    on the feet); "" for nothing."""
    parts: dict[str, list[str]] = {}
    for n, s in zip(names, spots):
        parts.setdefault(s, []).append(n)
    return " ".join(SPOTS.get(s, "") + "·".join(n) for s, n in parts.items())


def worn_words(timeline, frame, i: int) -> str:
    """What actor i wears at the frame in the text's words (spot_words); "" for nothing."""
    on = wears(timeline, frame, i)
    return spot_words([timeline.props[p].name for p in on], [timeline.props[p].worn for p in on])
