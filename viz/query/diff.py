"""Where two compiled rites differ, step by step: two readings, or two versions of a script.

`python main.py diff --reading 敖` compares 鄭 (the default) with 敖繼公's reading;
`diff --reading A --reading B` two readings; `diff --script OLD --script NEW` an author's
revision (both under the same layout and any --reading given). Steps are matched by the words
they cite (the same clause), in order, never by time or index: a reading may change durations
and a revision may insert steps. For every matched step where someone ends in another place,
faces another way, or walks another route, it lists the step, the clause, who and how far,
with the notes that justify each side. Exit status: 0 no differences, 1 differences, 2 an
error (an unknown reading, a bad script), as diff(1) does.

A person is compared where the step leaves him (the closing state of its last instant) and
along the route he walks during it. Differences under these thresholds are not reported:
PLACE_EPS 0.05 尺 between the end places, FACE_EPS 1° between the facings, ROUTE_EPS 0.05 尺
for the largest distance between the two routes (each route sampled every ROUTE_STEP 尺).

`diff --json` prints one object:

```jsonc
{
  "a": {"label": "鄭", "script": "assets/rites/xiangshe", "readings": []},
  "b": {"label": "敖", "script": "assets/rites/xiangshe", "readings": ["敖"]},
  "thresholds": {"place": 0.05, "facing": 1.0, "route": 0.05},   // 尺, degrees, 尺
  "matched": 93,                  // steps matched by their cite in both
  "differing": 12,                // of those, steps listed under "steps"
  "places": [                     // places of the layout that stand elsewhere in b than in a
    {"name": "乏", "a": [-30.0, -180.0], "b": [-50.0, -180.0], "distance": 20.0,
     "a_note": "鄭: 經: 乏參侯道… — centre 100 north …",   // why each side puts it there
     "b_note": "敖繼公: 西五歩 measured from the 侯's west edge …"}
  ],
  "topics": [{"topic": "縣", "reading": "敖繼公, 欽定義疏", "note": "…", "source": "…"}],
                                  // the layout's reading notes on matters not drawn, for a or b
  "steps": [
    {
      "cite": "當左物北面揖", "span": [10234, 10240],   // offsets into the corpus' plain text
      "clause": {"id": "17.12", "text": "當左物北面揖"},  // null when the cite is in no clause
      "a": {"index": 57, "stage": "誘射", "t0": 401.2, "t1": 402.2, "reading": "鄭",
            "note": "注: 左物下物也 …", "script": "…/17-誘射.yaml:197:5"},
      "b": { … the same keys, for the matched step of b … },
      "actors": [
        {
          "id": "sishe", "name": "司射",
          "present": [true, true],     // in the scene when the step ends, in a and in b
          "place": 0.5,                // 尺 between the end positions (null if absent in one)
          "facing": null,              // degrees between the facings, when at least FACE_EPS
          "route": 0.5,                // 尺, largest distance between the two routes
          "walks": true,               // he walks during this step in a or b (else: stands)
          "a": {"x": 3.0, "y": 17.0, "facing": 0.0, "place": "左物"},   // at the step's end
          "b": {"x": 2.5, "y": 17.0, "facing": 0.0, "place": "左物"},
          "notes": {"a": ["左物 — 鄭: …"], "b": ["左物 — 敖繼公: the two 物 under 5 尺 apart"]}
        }
      ]
    }
  ],
  "groups": [                     // the same difference of one person in many steps, most first
    {"id": "huozhe", "name": "獲者", "present": [true, true], "a_place": "乏南",
     "b_place": "乏南", "distance": 20.0,  // 尺 between his end places (null: not compared)
     "direction": "west",            // where b has him from a (null under PLACE_EPS)
     "steps": [21, 22],              // a's step indices, as under "steps"
     "stages": ["張侯", "…"]}        // their stages, in order, once each
  ],
  "only_a": [{"index": 3, "stage": "…", "cite": "…", "script": "…"}],  // cited in a alone
  "only_b": [],
  "cast": {"only_a": [], "only_b": []}     // actor ids in one cast only (not compared)
}
```
`place`, `facing` and `route` are null when under their threshold (or not comparable); an actor
is listed when at least one is not null or his presence differs. "groups" (added later; the
other keys are as they were) gathers the steps where one person ends the same distance, the
same way, between the same places in a and in b: the table prints them first, so a reading
that moves three places reads as three or four lines before the step-by-step list.
"""
from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

PLACE_EPS = 0.05  # 尺: well under a drawn token; float noise from different routes is far less
FACE_EPS = 1.0  # degrees
ROUTE_EPS = 0.05  # 尺
ROUTE_STEP = 0.5  # 尺: a route's sampling for the distance between routes


@dataclass(frozen=True)
class Side:
    """One rite's step: where it is in its own timeline and what it says for itself."""

    index: int
    stage: str
    t0: float
    t1: float
    reading: str
    note: str
    script: str
    cite: str


@dataclass(frozen=True)
class Spot:
    x: float
    y: float
    facing: float
    place: str


@dataclass(frozen=True)
class ActorDiff:
    id: str
    name: str
    present: tuple[bool, bool]
    place: float | None
    facing: float | None
    route: float | None
    walks: bool
    a: Spot | None
    b: Spot | None
    notes: tuple[tuple[str, ...], tuple[str, ...]]


@dataclass(frozen=True)
class StepDiff:
    cite: str
    span: tuple[int, int]
    clause: tuple[str, str] | None  # (id, text)
    a: Side
    b: Side
    actors: tuple[ActorDiff, ...]


@dataclass(frozen=True)
class PlaceDiff:
    name: str
    a: tuple[float, float]
    b: tuple[float, float]
    distance: float
    a_note: str
    b_note: str


@dataclass(frozen=True)
class Diff:
    a_label: str
    b_label: str
    a_script: str
    b_script: str
    a_readings: tuple[str, ...]
    b_readings: tuple[str, ...]
    matched: int
    steps: tuple[StepDiff, ...]
    places: tuple[PlaceDiff, ...]
    topics: tuple[dict, ...]
    only_a: tuple[Side, ...]
    only_b: tuple[Side, ...]
    cast_only_a: tuple[str, ...]
    cast_only_b: tuple[str, ...]


# ---------------------------------------------------------------------------- geometry


def _densify(poly: np.ndarray, step: float = ROUTE_STEP) -> np.ndarray:
    """The polyline's vertices plus points every `step` along each segment."""
    if len(poly) < 2:
        return poly
    out = [poly[:1]]
    for p, q in zip(poly[:-1], poly[1:]):
        n = max(int(np.ceil(np.hypot(*(q - p)) / step)), 1)
        out.append(p + (q - p) * (np.arange(1, n + 1) / n)[:, None])
    return np.concatenate(out)


def _to_polyline(pts: np.ndarray, poly: np.ndarray) -> np.ndarray:
    """Each point's distance to the nearest point of the polyline."""
    if len(poly) == 1:
        return np.hypot(*(pts - poly[0]).T)
    p, q = poly[:-1], poly[1:]
    d = q - p
    len2 = np.maximum((d * d).sum(1), 1e-12)
    s = np.clip(((pts[:, None, :] - p[None]) * d[None]).sum(2) / len2, 0.0, 1.0)
    near = p[None] + s[..., None] * d[None]
    return np.hypot(*(pts[:, None, :] - near).transpose(2, 0, 1)).min(1)


def route_distance(a: np.ndarray, b: np.ndarray) -> float:
    """The largest distance from a point of either route to the other route (Hausdorff):
    two routes of the same shape shifted by 2 尺 are 2 尺 apart; a detour shows its depth."""
    a, b = np.asarray(a, float).reshape(-1, 2), np.asarray(b, float).reshape(-1, 2)
    if not len(a) or not len(b) or (a.shape == b.shape and np.array_equal(a, b)):
        return 0.0  # most people at most steps: the same spot or walk in both
    return float(max(_to_polyline(_densify(a), b).max(), _to_polyline(_densify(b), a).max()))


def _angle(a: float, b: float) -> float:
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


# ---------------------------------------------------------------------------- one timeline


class _Walks:
    """Each step's start and end frames and each person's route, sampled once per timeline."""

    def __init__(self, timeline):
        self.tl = timeline
        ch = timeline.channels["motion"]
        self.keys = [(ch.t[ch.owner == i], ch.values["x"][ch.owner == i],
                      ch.values["y"][ch.owner == i]) for i in range(len(timeline.actors))]
        self._frames: dict[int, tuple] = {}

    def frames(self, step) -> tuple:
        got = self._frames.get(step.index)
        if got is None:
            got = self._frames[step.index] = (self.tl.sample(step.t0),
                                              self.tl.sample(step.t1, closing=True))
        return got

    def route(self, step, actor: int) -> np.ndarray:
        """As viz.draw.trails.path: start, the keyframes strictly inside, end; from the frames
        already sampled, since a diff asks for every person at every step."""
        start, end = self.frames(step)
        ts, xs, ys = self.keys[actor]
        inside = (ts > step.t0) & (ts < step.t1)
        pts = np.concatenate([start.xy[actor][None], np.stack([xs[inside], ys[inside]], 1),
                              end.xy[actor][None]])
        keep = np.r_[True, np.hypot(*np.diff(pts, axis=0).T) > 1e-6]
        return pts[keep]


def _side(c, step) -> Side:
    tl = c.timeline
    stage = tl.stages[step.stage].name if 0 <= step.stage < len(tl.stages) else ""
    return Side(step.index, stage, float(step.t0), float(step.t1), step.reading, step.note,
                step.loc, step.cite)


def _match(a_steps: Sequence, b_steps: Sequence) -> tuple[list[tuple], list, list]:
    """Pairs of steps citing the same words, in order; and the steps of each left over."""
    sa, sb = [tuple(s.span) for s in a_steps], [tuple(s.span) for s in b_steps]
    sm = difflib.SequenceMatcher(None, sa, sb, autojunk=False)
    pairs, only_a, only_b = [], [], []
    ia = ib = 0
    for blk in sm.get_matching_blocks():
        only_a += a_steps[ia:blk.a]
        only_b += b_steps[ib:blk.b]
        pairs += [(a_steps[blk.a + k], b_steps[blk.b + k]) for k in range(blk.size)]
        ia, ib = blk.a + blk.size, blk.b + blk.size
    return pairs, only_a, only_b


# ---------------------------------------------------------------------------- layouts


def _place_note(layout, name: str, readings: Sequence[str]) -> str:
    """Why this layout, under these readings, puts the place where it does: "who: why"."""
    p = layout.places[name]
    for v in getattr(p, "variants", ()):
        if any(r and r in v.reading for r in readings):
            return f"{v.reading}: " + "; ".join(x for x in (v.note, v.source) if x)
    base = str(getattr(layout, "reading", "鄭")).split("+")[0] or "鄭"
    return f"{base}: " + "; ".join(x for x in (p.source, p.note) if x)


def _moved_places(a, b) -> tuple[PlaceDiff, ...]:
    la, lb = a.layout, b.layout
    out = []
    for name, p in la.places.items():
        q = lb.places.get(name)
        if q is None:
            continue
        d = float(np.hypot(p.x - q.x, p.y - q.y))
        if d >= PLACE_EPS:
            out.append(PlaceDiff(name, (p.x, p.y), (q.x, q.y), d,
                                 _place_note(la, name, a.readings),
                                 _place_note(lb, name, b.readings)))
    return tuple(out)


def _topics(a, b) -> tuple[dict, ...]:
    """The layout's notes on matters it does not draw, for the readings on either side."""
    chosen = tuple(a.readings) + tuple(b.readings)
    seen, out = set(), []
    for layout in (a.layout, b.layout):
        for v in getattr(layout, "variants", ()):
            key = (v.topic, v.reading)
            if key not in seen and any(r and r in v.reading for r in chosen):
                seen.add(key)
                out.append({"topic": v.topic, "reading": v.reading, "note": v.note,
                            "source": v.source})
    return tuple(out)


# ---------------------------------------------------------------------------- the diff


def diff(a, b, a_label: str, b_label: str) -> Diff:
    """Where compiled rite b differs from a (viz.model.rite.Compiled each), step by matched step."""
    wa, wb = _Walks(a.timeline), _Walks(b.timeline)
    ids_a = [x.id for x in a.timeline.actors]
    ids_b = [x.id for x in b.timeline.actors]
    common = [(i, ids_b.index(x), a.timeline.actors[i]) for i, x in enumerate(ids_a)
              if x in ids_b]
    places = _moved_places(a, b)
    moved = {p.name for p in places}
    pairs, only_a, only_b = _match(a.timeline.steps, b.timeline.steps)
    steps = []
    for sa, sb in pairs:
        actors = []
        for ia, ib, info in common:
            got = _actor(a, b, wa, wb, sa, sb, ia, ib, info, moved)
            if got is not None:
                actors.append(got)
        if actors:
            clause = a.corpus.clause_at(sa.span[0]) if a.corpus is not None else None
            steps.append(StepDiff(sa.cite, tuple(sa.span),
                                  (clause.id, clause.text) if clause else None,
                                  _side(a, sa), _side(b, sb), tuple(actors)))
    return Diff(a_label, b_label, a.script.file, b.script.file, tuple(a.readings),
                tuple(b.readings), len(pairs), tuple(steps), places, _topics(a, b),
                tuple(_side(a, s) for s in only_a), tuple(_side(b, s) for s in only_b),
                tuple(x for x in ids_a if x not in ids_b), tuple(x for x in ids_b if x not in ids_a))


def _actor(a, b, wa: _Walks, wb: _Walks, sa, sb, ia: int, ib: int, info,
           moved: set[str]) -> ActorDiff | None:
    (a0, a1), (b0, b1) = wa.frames(sa), wb.frames(sb)
    in_a, in_b = bool(a0.present[ia] or a1.present[ia]), bool(b0.present[ib] or b1.present[ib])
    if not in_a and not in_b:
        return None
    pa, pb = bool(a1.present[ia]), bool(b1.present[ib])
    ra, rb = wa.route(sa, ia), wb.route(sb, ib)
    walks = len(ra) > 1 or len(rb) > 1
    place = facing = route = None
    if pa and pb:
        d = float(np.hypot(*(a1.xy[ia] - b1.xy[ib])))
        place = d if d >= PLACE_EPS else None
        f = _angle(float(a1.facing[ia]), float(b1.facing[ib]))
        facing = f if f >= FACE_EPS else None
    if in_a and in_b:
        r = route_distance(ra, rb)
        route = r if r >= ROUTE_EPS else None
    if pa == pb and place is None and facing is None and route is None:
        return None
    spot_a = _spot(a, a1, ia) if pa else None
    spot_b = _spot(b, b1, ib) if pb else None
    notes = tuple(tuple(f"{s.place} — {_place_note(c.layout, s.place, c.readings)}"
                        for s in [spot] if s is not None and s.place in moved)
                  for c, spot in ((a, spot_a), (b, spot_b)))
    return ActorDiff(info.id, info.name, (pa, pb), place, facing, route, walks, spot_a, spot_b,
                     notes)


def _spot(c, frame, i: int) -> Spot:
    x, y = (float(v) for v in frame.xy[i])
    return Spot(x, y, float(frame.facing[i]), c.layout.nearest_place(x, y))


# ---------------------------------------------------------------------------- output


def to_json(d: Diff) -> dict:
    """The documented JSON (module docstring)."""
    def side(s: Side) -> dict:
        return {"index": s.index, "stage": s.stage, "t0": round(s.t0, 3), "t1": round(s.t1, 3),
                "reading": s.reading, "note": s.note, "script": s.script}

    def spot(s: Spot | None) -> dict | None:
        return None if s is None else {"x": round(s.x, 3), "y": round(s.y, 3),
                                       "facing": round(s.facing, 1), "place": s.place}

    def num(v: float | None, nd: int = 3) -> float | None:
        return None if v is None else round(v, nd)

    return {
        "a": {"label": d.a_label, "script": d.a_script, "readings": list(d.a_readings)},
        "b": {"label": d.b_label, "script": d.b_script, "readings": list(d.b_readings)},
        "thresholds": {"place": PLACE_EPS, "facing": FACE_EPS, "route": ROUTE_EPS},
        "matched": d.matched,
        "differing": len(d.steps),
        "places": [{"name": p.name, "a": list(p.a), "b": list(p.b),
                    "distance": round(p.distance, 3), "a_note": p.a_note, "b_note": p.b_note}
                   for p in d.places],
        "topics": list(d.topics),
        "steps": [{
            "cite": s.cite, "span": list(s.span),
            "clause": {"id": s.clause[0], "text": s.clause[1]} if s.clause else None,
            "a": side(s.a), "b": side(s.b),
            "actors": [{"id": x.id, "name": x.name, "present": list(x.present),
                        "place": num(x.place), "facing": num(x.facing, 1),
                        "route": num(x.route), "walks": x.walks, "a": spot(x.a),
                        "b": spot(x.b), "notes": {"a": list(x.notes[0]), "b": list(x.notes[1])}}
                       for x in s.actors]}
            for s in d.steps],
        "only_a": [{"index": s.index, "stage": s.stage, "cite": s.cite, "script": s.script}
                   for s in d.only_a],
        "only_b": [{"index": s.index, "stage": s.stage, "cite": s.cite, "script": s.script}
                   for s in d.only_b],
        "cast": {"only_a": list(d.cast_only_a), "only_b": list(d.cast_only_b)},
        "groups": [{"id": g.id, "name": g.name, "present": list(g.present),
                    "a_place": g.a_place, "b_place": g.b_place, "distance": g.distance,
                    "direction": g.direction, "steps": list(g.steps), "stages": list(g.stages)}
                   for g in groups(d)],
    }


def format_table(d: Diff) -> str:
    """The differences for a reader: a header, the places that moved, then step by step."""
    A, B = d.a_label, d.b_label
    lines = [f"{A} ↔ {B}: {d.matched} steps matched by their cite, {len(d.steps)} differ "
             f"(thresholds: place {PLACE_EPS:g} 尺, facing {FACE_EPS:g}°, route {ROUTE_EPS:g} 尺)"]
    if d.places:
        lines.append("")
        lines.append("places of the layout that stand elsewhere:")
        for p in d.places:
            lines.append(f"  {p.name}  ({p.a[0]:g}, {p.a[1]:g}) ↔ ({p.b[0]:g}, {p.b[1]:g})  "
                         f"{p.distance:.2f} 尺")
            lines += [f"    {_labelled(label, note)}" for label, note in ((A, p.a_note),
                                                                         (B, p.b_note))]
    for t in d.topics:
        lines.append(f"  not drawn — {t['topic']} ({t['reading']}): {t['note']}")
    gs = groups(d)
    if gs:
        lines += ["", "the same difference, gathered (where each person ends, b from a):"]
        lines += group_lines(gs, A, B)
        lines += ["", f"step by step ({len(d.steps)} steps):"]
    last: dict[str, tuple] = {}
    folded: list[int] = []
    for s in d.steps:
        if _carried(s, last):
            folded.append(s.a.index)
            continue
        _fold(lines, folded)
        where = (f"#{s.a.index}" if s.a.index == s.b.index else f"#{s.a.index} ↔ #{s.b.index}")
        clause = f" · {s.clause[0]} {s.clause[1]}" if s.clause else ""
        lines += ["", f"{where} {s.a.stage} 「{s.cite}」{clause}"]
        notes = [(A, s.a), (B, s.b)] if s.a.note != s.b.note or s.a.reading != s.b.reading \
            else [("", s.a)]
        for label, side in notes:
            if side.note or label:
                who = f"{label} ({side.reading})" if label and label != side.reading \
                    else label or side.reading
                lines.append(f"  {who}: {side.note or '(no note)'}")
        for x in s.actors:
            lines.append("  " + _row(x, A, B))
            for label, ns in ((A, x.notes[0]), (B, x.notes[1])):
                lines += [f"      {label}: {n}" for n in ns]
        last = {x.id: _standing(x) for x in s.actors}
    _fold(lines, folded)
    for label, only in ((A, d.only_a), (B, d.only_b)):
        if only:
            lines += ["", f"steps cited only in {label}:"]
            lines += [f"  #{s.index} {s.stage} 「{s.cite}」 {s.script}" for s in only]
    for label, ids in ((A, d.cast_only_a), (B, d.cast_only_b)):
        if ids:
            lines.append(f"cast only in {label} (not compared): {', '.join(ids)}")
    return "\n".join(lines)


@dataclass(frozen=True)
class Group:
    """One person's same difference in many steps (the same places, distance and direction)."""

    id: str
    name: str
    present: tuple[bool, bool]
    a_place: str
    b_place: str
    distance: float | None
    direction: str | None
    steps: tuple[int, ...]  # a's step indices
    stages: tuple[str, ...]  # their stages, once each, in order
    step_stages: tuple[str, ...] = ()  # the stage of each step


SMALL_GROUP = 3  # the table gathers a facing or a route that differs in fewer steps into one line
COMPASS = ("east", "north-east", "north", "north-west", "west", "south-west", "south",
           "south-east")  # x east, y north, as the layout has them


def _direction(a: Spot | None, b: Spot | None) -> str | None:
    if a is None or b is None or np.hypot(b.x - a.x, b.y - a.y) < PLACE_EPS:
        return None
    k = int(round(np.degrees(np.arctan2(b.y - a.y, b.x - a.x)) / 45.0)) % 8
    return COMPASS[k]


def groups(d: Diff) -> tuple[Group, ...]:
    """The actors' differences gathered by (who, in the scene, end places, distance to 0.1 尺,
    direction), largest group first (then by the first step)."""
    found: dict[tuple, list] = {}
    for s in d.steps:
        for x in s.actors:
            dist = None if x.place is None else round(x.place, 1)
            key = (x.id, x.name, x.present, x.a.place if x.a else "—",
                   x.b.place if x.b else "—", dist, _direction(x.a, x.b) if dist else None)
            found.setdefault(key, []).append(s)
    out = [Group(k[0], k[1], k[2], k[3], k[4], k[5], k[6], tuple(s.a.index for s in ss),
                 tuple(dict.fromkeys(s.a.stage for s in ss)), tuple(s.a.stage for s in ss))
           for k, ss in found.items()]
    return tuple(sorted(out, key=lambda g: (-len(g.steps), g.steps[0], g.id)))


def group_lines(gs: Sequence[Group], A: str, B: str) -> list[str]:
    """The groups for a reader, one line per difference of place (the same end places and
    direction) with everyone who shows it, most steps first: "乏南 ↔ 乏南, 20 尺 west: the 獲者
    in 442 steps of 10 stages (請射 … 三射取矢視算)"."""
    lines: dict[tuple, list[Group]] = {}
    for g in gs:
        if g.present[0] != g.present[1]:
            key = ("present", A if g.present[0] else B)
        else:
            key = (g.a_place, g.b_place, g.direction, g.distance is None)
        lines.setdefault(key, []).append(g)
    out = []
    small = 0
    for key, members in sorted(lines.items(), key=lambda kv: -sum(len(g.steps)
                                                                   for g in kv[1])):
        first = members[0]
        if first.distance is None and key[0] != "present" and \
                sum(len(g.steps) for g in members) < SMALL_GROUP:
            small += 1
            continue
        if key[0] == "present":
            what = f"in the scene only in {key[1]}"
        elif first.distance is None:
            what = f"{first.a_place} ↔ {first.b_place}, faces or walks otherwise"
        else:
            lo, hi = min(g.distance for g in members), max(g.distance for g in members)
            far = f"{lo:g} 尺" if lo == hi else f"{lo:g}–{hi:g} 尺"
            what = f"{first.a_place} ↔ {first.b_place}, {far} {first.direction or ''}".rstrip()
        stages = [st for _, st in sorted({(i, st) for g in members
                                          for i, st in zip(g.steps, g.step_stages)})]
        stages = list(dict.fromkeys(stages))
        steps = sum(len(g.steps) for g in members)
        span = stages[0] if len(stages) == 1 else f"{stages[0]} … {stages[-1]}"
        who = ", ".join(f"{g.name} ({g.id}) {len(g.steps)}" for g in members)
        people = f"the {first.name}" if len(members) == 1 else f"{len(members)} people"
        out.append(f"  {what}: {people} in {steps} step{'s' if steps > 1 else ''} of "
                   f"{len(stages)} stage{'s' if len(stages) > 1 else ''} ({span})")
        if len(members) > 1:
            out.append(f"      steps each: {who}")
    if small:
        out.append(f"  … and {small} more where someone faces or walks otherwise in fewer than "
                   f"{SMALL_GROUP} steps (in the list below)")
    return out


def _labelled(label: str, note: str) -> str:
    """"鄭: why" under the label 鄭; "old (鄭): why" when the label is not the reading."""
    who, _, why = note.partition(": ")
    return f"{label}: {why}" if who == label else f"{label} ({who}): {why}"


def _standing(x: ActorDiff) -> tuple:
    return (x.present, x.place, x.facing, x.route, x.a and x.a.place, x.b and x.b.place)


def _carried(s: StepDiff, last: dict[str, tuple]) -> bool:
    """Nothing new at this step: the same people stand as far apart as the step before left
    them, and the step says the same in both (the table folds it; the JSON keeps it)."""
    return (s.a.note == s.b.note and s.a.reading == s.b.reading and len(s.actors) == len(last)
            and all(not x.walks and last.get(x.id) == _standing(x) for x in s.actors))


def _fold(lines: list[str], folded: list[int]) -> None:
    if folded:
        n = len(folded)
        steps = f"#{folded[0]}" if n == 1 else f"#{folded[0]}–#{folded[-1]}"
        lines.append(f"  … then unchanged through {n} step{'s' if n > 1 else ''} ({steps}): "
                     "standing where this step left them")
        folded.clear()


def _row(x: ActorDiff, A: str, B: str) -> str:
    parts = []
    if x.present[0] != x.present[1]:
        parts.append(f"in the scene only in {A if x.present[0] else B}")
    if x.place is not None:
        parts.append(f"place {x.place:.2f} 尺")
    if x.facing is not None:
        parts.append(f"facing {x.facing:.0f}°")
    if x.route is not None:
        parts.append(f"route {x.route:.2f} 尺")
    ends = " ↔ ".join(s.place if s else "—" for s in (x.a, x.b))
    return f"{x.name} ({x.id}): {', '.join(parts)}; {ends}; {'walks' if x.walks else 'stands'}"
