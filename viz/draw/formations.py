"""Formations: people of one body standing so close at this zoom that their tokens would meet,
drawn as dots with one name (三耦, 衆賔 六人), placed first and never left out. Zooming in parts
them. `group_name` and `body_name` say what a formation is called.
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from viz.draw import labels
from viz.draw.camera import ymap_for
from viz.draw.clusters import clusters
from viz.draw.display import Color, Text
from viz.draw.options import INK, VIEWS, SceneOptions, name_px, party_color, token_radius
from viz.draw.person import HELD_SEP, _Cols, short_label
from viz.draw.viewmemo import _ViewMemo
from viz.model.scenario import NUMERALS, numeral

GROUP_NOTE = "{stem} {n}人"  # a formation drawn as one: 衆賔 六人
PAIRS_NOTE = "{n}耦"  # archers standing as their pairs: 三耦
MANY_NOTE = "{first}等 {n}人"  # a crowd of several kinds
DOT = 0.42  # a formation's member: this share of a token's radius
JOIN = 3.0  # members of one body whose centres stand within this many token radii: one formation
GROUP_BG = (255, 252, 240)


def group_name(names: list[str], short: list[str]) -> str:
    """One name for people standing together: what their names begin with (衆賔 六人, 工 四人),
    pairs of archers (三耦), a pair by their labels (司射·司馬), or the first and a count."""
    n = len(names)
    pre = names[0]
    for s in names[1:]:
        k = 0
        while k < min(len(pre), len(s)) and pre[k] == s[k]:
            k += 1
        pre = pre[:k]
    pre = pre.rstrip("之")
    if pre and (len(pre) >= 2 or pre in names):
        return GROUP_NOTE.format(stem=pre, n=numeral(n))
    if n % 2 == 0 and all("耦" in s for s in names):
        return PAIRS_NOTE.format(n=numeral(n // 2))
    if n <= 3:
        return HELD_SEP.join(short)
    kinds = list(dict.fromkeys(names))
    if len(kinds) <= 3:  # a few kinds: each named, then the count (司射·司馬·舉觶者 六人)
        return GROUP_NOTE.format(stem=HELD_SEP.join(kinds), n=numeral(n))
    most = max(kinds, key=names.count)  # the kind most of them are (ties: the first)
    return MANY_NOTE.format(first=most, n=numeral(n))



def _formations(timeline, frame, c: _Cols, o: SceneOptions, memo: _ViewMemo):
    """People whose tokens would meet at this zoom, as formations: {actor: formation},
    each formation's name request (placed first, never left out), and its dots' boxes.
    Zooming in parts them: at a larger scale fewer tokens meet. Worked out again only when
    someone came, went or moved."""
    idx = np.flatnonzero(frame.present)
    xy = c.at[idx]
    key = (idx.tobytes(), xy.tobytes())
    if memo.formations is not None and memo.formations[0] == key:
        return memo.formations[1]
    if o.selected is not None:  # the one selected stands apart, named, with his tags
        keep = idx != o.selected
        idx, xy = idx[keep], xy[keep]
    memo.formations = (key, found := _formations_of(timeline, idx, xy, o))
    return found


_group_names: dict[tuple, tuple[str, Color]] = {}  # (timeline id, members) → (name, colour)


def _formations_of(timeline, idx: np.ndarray, xy: np.ndarray, o: SceneOptions):
    if len(idx) < 2:
        return {}, [], []
    k = max(o.px_per_chi, 1e-6)
    r = token_radius(o) * k
    yk = -np.asarray(ymap_for(o.breaks).fwd(xy[:, 1]), float) * k
    # members of one body (the cast's bodies:) standing together, joined (union-find): tokens
    # that would meet, or stand within a token's width of each other (a row of the 三耦 is one
    # formation, not six tokens side by side). People of different bodies, or of none, are
    # never joined: a formation's name is one body's (never the officers with the archers).
    dx = xy[:, None, 0] * k - xy[None, :, 0] * k
    dy = yk[:, None] - yk[None, :]
    body = _bodies(timeline)[idx]
    same = (body[:, None] == body[None, :]) & (body[:, None] >= 0)
    a, b = np.nonzero(np.triu(same & (dx * dx + dy * dy < (JOIN * r + 1.0) ** 2), 1))
    if not len(a):
        return {}, [], []
    # dots and names on whole pixels, as to_px puts tokens and tags (_place_tags)
    px, py = np.round(xy[:, 0] * k).tolist(), np.round(yk).tolist()
    members = _members(len(idx), a, b)
    present = Counter(body.tolist())  # each body's members in the scene
    groups: dict[int, int] = {}
    reqs: list = []
    dots: list[labels.BoxT] = []
    ids = idx.tolist()
    g = 0
    for ns in members:
        if len(ns) < 2:
            continue
        who = tuple(ids[n] for n in ns)
        for i in who:
            groups[i] = g
        g += 1
        whole = present[int(body[ns[0]])] == len(ns)  # all of his body there is here
        key = (id(timeline), who, tuple(px[n] for n in ns), tuple(py[n] for n in ns), r,
               o.ui, whole)
        kept = _formation_memo.get(key)
        if kept is None:  # worked out again only when one of them moved
            if len(_formation_memo) > 4096:
                _formation_memo.clear()
            kept = _formation_memo[key] = _formation(timeline, who, ns, px, py, r, k, o, whole)
        dots += kept[0]
        reqs.append(kept[1])
    return groups, reqs, dots


_joined: list = []  # [((n, pairs), members)]: the last few pair sets and what they join


def _members(n_people: int, a: np.ndarray, b: np.ndarray) -> list[list[int]]:
    """The formations the pairs (a[j], b[j]) of tokens that meet join the people 0 … n-1 in
    (clusters: each ascending, in the order of its least member). Looked up while the same
    pairs meet (most frames: walkers move within their formations), else worked out again."""
    key = (n_people, a.tobytes(), b.tobytes())
    for k, found in _joined:
        if k == key:
            return found
    members = clusters(n_people, zip(a.tolist(), b.tolist(), strict=True))
    _joined[:] = [(key, members), *_joined[:VIEWS - 1]]
    return members


_formation_memo: dict[tuple, tuple] = {}  # (members and where they stand) → (dots, request)


def _formation(timeline, who: tuple, ns: list[int], px: list[float], py: list[float], r: float,
               k: float, o: SceneOptions, whole: bool = False) -> tuple[list, tuple]:
    """One formation's dots' boxes and its name's placement request. The name stands at its
    members: it is tried first above the member at the formation's top (the middle one of a
    row), then around him, then further out with a leader line to him. whole: every member of
    the body present is in it (named by the body: 三耦, 衆賔 六人)."""
    rd = r * DOT * 1.9
    size = name_px(o)
    dots = [(px[n] - rd, py[n] - rd, px[n] + rd, py[n] + rd) for n in ns]
    cx = sum(px[n] for n in ns) / len(ns)
    top = min(ns, key=lambda n: (py[n], abs(px[n] - cx)))
    named = _group_names.get((id(timeline), who, whole))
    if named is None:
        acts = [timeline.actors[i] for i in who]
        text = body_name(acts) if whole else ""
        text = text or group_name([a.name for a in acts],
                                  [short_label(a.label or a.name) for a in acts])
        parties = {a.party for a in acts}
        if len(_group_names) > 4096:
            _group_names.clear()
        named = _group_names[(id(timeline), who, whole)] = (
            text, party_color(acts[0].party) if len(parties) == 1 else INK)
    text, col = named
    t = Text((px[top] / k, 0.0), text, size / k, col, "c", unit="chi", min_px=size,
             max_px=size, bg=GROUP_BG, border=col)
    w, h = labels.text_size(text, round(size), 2)
    also = []  # then beside each of the others, nearest the top first; then a row further out
    near = sorted((n for n in ns if n != top),
                  key=lambda n: (py[n] - py[top]) ** 2 + (px[n] - px[top]) ** 2)[:GROUP_BESIDE]
    for n in near:
        for d in GROUP_ORDER:
            dx, dy = labels.DIRS[d]
            cx, cy = px[n] + dx * (rd + 1 + w / 2), py[n] + dy * (rd + 1 + h / 2)
            also.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
    for n in [top, *near]:
        also += [tuple(b) for b in labels._rings(labels.Label((px[n], py[n]), w, h, r=rd), 1, 1)
                 .tolist()]
    req = labels.Label((px[top], py[top]), w, h, r=rd, order=GROUP_ORDER, also=tuple(also),
                       rings=0)  # never further than beside a member (issue 27)
    return dots, ("group", who[0], t, req)


GROUP_ORDER = ("n", "ne", "nw", "e", "w", "s", "se", "sw")  # a formation's name: above it first
GROUP_BESIDE = 12  # members beside whom a formation's name is tried before further out


def body_name(acts) -> str:
    """A whole body's name, as the cast's bodies: give it: 三耦 (a count in its name), else with
    the count (衆賔 六人); "" when they are not all of one body."""
    bodies = {a.body for a in acts}
    if len(bodies) != 1 or not next(iter(bodies)):
        return ""
    name = next(iter(bodies))
    if any(c in NUMERALS for c in name):
        return name
    return GROUP_NOTE.format(stem=name, n=numeral(len(acts)))


_body_ids: dict[int, tuple] = {}  # id(timeline) → (timeline, each actor's body as a number)


def _bodies(timeline) -> np.ndarray:
    """Each actor's body as a number (-1: none), the same number for one body."""
    got = _body_ids.get(id(timeline))
    if got is None or got[0] is not timeline:
        names: dict[str, int] = {}
        arr = np.asarray([names.setdefault(a.body, len(names)) if getattr(a, "body", "")
                          else -1 for a in timeline.actors], int)
        if len(_body_ids) > 16:
            _body_ids.clear()
        got = _body_ids[id(timeline)] = (timeline, arr)
    return got[1]
