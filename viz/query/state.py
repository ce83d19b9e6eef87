"""Questions about the rite at a moment: when is `--after TEXT`, and who is where (the `state` JSON)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from viz.model.dress import BOW_NAMES, SPOTS, WORN, wears
from viz.model.script.nodes import DIRS
from viz.model.timeline import POSTURES, Timeline

DIR_NAMES = sorted(DIRS, key=DIRS.get)  # 北 東北 東 … in clockwise order


class QueryError(Exception):
    """A question the rite cannot answer (no such stage, text never cited); exit status 2."""


def dir_name(deg: float) -> str:
    return DIR_NAMES[int(((deg % 360) + 22.5) // 45) % 8]


def step_after(timeline: Timeline, corpus, text: str) -> int:
    """The step whose end is the moment of TEXT's first occurrence that the script enacts: of
    the steps saying (not an unsaid move) the part of the text holding TEXT's last character,
    the last to end; if none holds that character, of those saying its clause; so 答再拜 is
    found where a scripted section has it, not where an unscripted one has it first, and a
    clause's moment comes before the moves its step goes on to (反位 …)."""
    hits = [(h, h + len(text) - 1) for h in corpus.find(text)] or corpus.find_read_on(text)
    if not hits:
        raise QueryError(f"{text!r} does not occur in the text (variants count as equal)")
    steps = timeline.steps
    spans = np.array([s.span for s in steps], float).reshape(-1, 2)
    said = np.array([s.said for s in steps], bool)
    t1 = np.array([s.t1 for s in steps], float)
    for _, last in hits:
        holds = (spans[:, 0] <= last) & (last < spans[:, 1])
        c = corpus.clause_at(last)
        within = ((spans[:, 0] < c.end) & (spans[:, 1] > c.start)) if c is not None else holds
        for sel in (said & holds, said & within, holds):
            if sel.any():
                i = np.nonzero(sel)[0]
                return int(i[np.argmax(t1[i])])
    last = hits[0][1]
    sec = next((s.name for s in corpus.sections if s.start <= last < s.end), "front matter")
    where = f"section {sec}, page {corpus.page_at(last)}"
    if len(hits) > 1:
        where = f"first in {where}; {len(hits)} places in all"
    raise QueryError(f"no step of the script cites {text!r} ({where})")


def stage_index(timeline: Timeline, name: str) -> int:
    """A stage by number (1, ①), name or section (variants equal), or a name's beginning
    (viz.text.names: the one way every command names a stage)."""
    from viz.text.names import UnknownName, pick

    try:
        return pick(name, [s.name for s in timeline.stages], "stage",
                    also=[s.section or s.name for s in timeline.stages])[0]
    except UnknownName as e:
        raise QueryError(str(e)) from None


@dataclass(frozen=True)
class Moment:
    """A moment a command asks about. closing: the state as the step ending at t left it
    (--after, --stage), sampled with Timeline.sample(t, closing=True); step: the step the
    answer is about (the one just finished), or None for the one running at t."""

    t: float
    closing: bool = False
    step: int | None = None


def resolve_moment(timeline: Timeline, corpus, at: float | None = None,
                   after: str | None = None, stage: str | None = None) -> Moment:
    """--at seconds, --after TEXT (the closing state of the step enacting it), or the start of
    --stage (its first instant, as `play --stage` opens there: one meaning in every command);
    the whole rite's end by default."""
    if after is not None:
        i = step_after(timeline, corpus, after)
        return Moment(timeline.steps[i].t1, True, i)
    if stage is not None:
        s = timeline.stages[stage_index(timeline, stage)]
        return Moment(s.t0, False, s.first_step if s.last_step >= s.first_step else None)
    if at is not None:
        if not (0 <= at <= timeline.duration):  # also refuses nan
            raise QueryError(f"--at {at:g} is outside the rite (0 to {timeline.duration:.1f} s)")
        return Moment(at)
    last = len(timeline.steps) - 1
    return Moment(timeline.duration, True, last if last >= 0 else None)


def dress(f, i: int) -> dict[str, bool]:
    """What actor i wears at the frame: {"袒": bared left arm, "決": thumb-ring, "遂": arm-guard,
    "扑": the 扑 in his belt} (viz/model/compile/dress.py)."""
    worn = f.values.get("dress", {})
    return {k: bool(len(worn.get(k, ())) > i and worn[k][i]) for k in WORN}


def worn_fields(timeline: Timeline, f, i: int) -> dict[str, Any]:
    """What actor i wears (don, doff): "wears" its names, "wears_ids" its ids and "wears_at"
    where each is worn (首 身 足), head first and under-things before the cap (纚, 緇布冠); only
    for a rite with worn things."""
    if "wear" not in timeline.channels:
        return {}
    on = wears(timeline, f, i)
    return {"wears": [timeline.props[p].name for p in on],
            "wears_ids": [timeline.props[p].id for p in on],
            "wears_at": [timeline.props[p].worn for p in on]}


def spot_words(names: list[str], spots: list[str]) -> str:
    """What he wears in the text's words: 戴纚·緇布冠 服玄端 (戴 on the head, 服 on the body, 履
    on the feet); "" for nothing."""
    parts: dict[str, list[str]] = {}
    for n, s in zip(names, spots):
        parts.setdefault(s, []).append(n)
    return " ".join(SPOTS.get(s, "") + "·".join(n) for s, n in parts.items())


def held(timeline: Timeline, f, pid: str) -> dict[str, Any]:
    """A thing held: its id and name, and for a bow how it is (held: 張 strung, 弛 unstrung)."""
    j = timeline.prop_index[pid]
    out: dict[str, Any] = {"id": pid, "name": timeline.props[j].name}
    state = f.values.get("bow", {}).get("state", ())
    if len(state) > j and int(state[j]) in BOW_NAMES:
        out["held"] = BOW_NAMES[int(state[j])]
    return out


def state(timeline: Timeline, layout, corpus, t: float, step: int | None = None,
          closing: bool = False) -> dict[str, Any]:
    """Everyone present at t, in the documented JSON shape (docs/REFERENCE.md: "The state JSON").

    At a boundary between steps the step reported is the one beginning, unless `step` names the
    one just finished (as `--after TEXT` does: the answer is about the words asked for), and
    closing samples the state that step left."""
    from viz.model.scoring import actor_fields, state_fields

    f = timeline.sample(t, closing)
    step = timeline.steps[f.step if step is None else step] if timeline.steps else None
    stage = timeline.stages[f.stage] if timeline.stages else None
    actors = []
    for i, a in enumerate(timeline.actors):
        if not f.present[i]:
            continue
        x, y = (float(v) for v in f.xy[i])
        actors.append({
            "id": a.id, "name": a.name, "label": f.labels[i] if f.labels else a.label,
            "party": a.party,
            "x": round(x, 2), "y": round(y, 2),
            "place": layout.nearest_place(x, y),
            "region": layout.region_at(x, y),
            "facing": {"dir": dir_name(float(f.facing[i])), "deg": round(float(f.facing[i]), 1)},
            "posture": POSTURES[int(f.posture[i])],
            "moving": bool(f.moving[i]),
            "holding": [held(timeline, f, p) for p in f.holding[i]],
            "dress": dress(f, i),
            **worn_fields(timeline, f, i),
            **actor_fields(timeline, a.id, f.t),
        })
    clause = corpus.clause_at(step.span[0]) if step and corpus is not None else None
    return {
        "t": round(f.t, 3),
        "duration": round(timeline.duration, 3),
        "stage": {"index": stage.index + 1, "name": stage.name, "section": stage.section,
                  "t0": round(stage.t0, 3), "t1": round(stage.t1, 3)} if stage else None,
        "step": {"index": step.index, "cite": step.cite, "t0": round(step.t0, 3),
                 "t1": round(step.t1, 3), "script": step.loc, "said": step.said,
                 "clause": ({"id": clause.id, "text": clause.text} if clause else None),
                 "page": corpus.page_at(step.span[0]) if corpus is not None else None}
        if step else None,
        "actors": actors,
        **state_fields(timeline, f, layout),
    }


def format_state(s: dict[str, Any]) -> str:
    """The same answer as a table a person reads."""
    lines = [f"t = {s['t']:.1f} s of {s['duration']:.1f} s"]
    if s["stage"]:
        lines.append(f"stage {s['stage']['index']} {s['stage']['name']}")
    if s["step"]:
        c = s["step"]["clause"]
        said = "" if s["step"].get("said", True) else ", a move the text does not say"
        lines.append(f"clause {c['id']} 「{c['text']}」 (page {s['step']['page']}{said})" if c
                     else f"clause 「{s['step']['cite']}」 (page {s['step']['page']}{said})")
    lines.append("")
    w = max((len(a["name"]) for a in s["actors"]), default=2)
    for a in s["actors"]:
        held = "、".join(h.get("held", "") + h["name"] for h in a["holding"]) or "—"
        worn = "".join(k for k, v in a.get("dress", {}).items() if v and k != "扑")
        if a.get("wears"):
            worn = " ".join(x for x in (worn, spot_words(a["wears"], a["wears_at"])) if x)
        lines.append(f"{a['name']:\u3000<{w}} {a['label']:\u3000<3} {a['id']:<10} "
                     f"x={a['x']:7.1f} y={a['y']:7.1f}  "
                     f"{a['region']:\u3000<2} near {a['place']:\u3000<4} "
                     f"{a['facing']['dir']}面 {a['facing']['deg']:5.1f}°  {a['posture']}  "
                     f"holds {held}" + (f"  {worn}" if worn else ""))
    return "\n".join(lines)

