"""The shooting as the compiled timeline has it: at a moment (state --json, the window's score
panel) and over the whole rite (the score command). Nothing is computed a second time: the
shots, tallies and announcements are the compile's own (viz/model/compile/shooting.py)."""
from __future__ import annotations

from typing import Any

import numpy as np

from viz.model.timeline import FLYING, SCORE_OWNERS, Frame, Timeline

ARROW_KIND = "矢"


def score_values(f: Frame) -> dict[str, int]:
    """round, 右, 左, beat, 終 at the frame (0 where none)."""
    v = f.values.get("score", {}).get("value")
    if v is None or not len(v):
        return dict.fromkeys(SCORE_OWNERS, 0)
    return {k: int(v[i]) for i, k in enumerate(SCORE_OWNERS)}


def results_until(tl: Timeline, t: float) -> list[dict]:
    """The rounds whose count has been announced by t, in the state JSON's shape."""
    out = []
    for r in (tl.scoring or {}).get("results", ()):
        if r.get("t", 0.0) <= t:
            out.append({"round": r["round"], "右": r["右"], "左": r["左"],
                        "announce": r["announce"], "winner": r["winner"]})
    return out


def arrows(tl: Timeline, f: Frame, layout) -> list[dict]:
    """Every arrow: id, owner (whose 乘矢), state (hand, flight, landed, 楅 …), x, y, and
    hit (null until it has been shot in a round)."""
    shots = (tl.scoring or {}).get("shots", ())
    last: dict[str, dict] = {}
    for s in shots:
        if s["t_release"] <= f.t:
            last[s["prop"]] = s
    owners = _owners(tl)
    out = []
    for j, p in enumerate(tl.props):
        if p.kind != ARROW_KIND or not f.prop_visible[j]:
            continue
        x, y = (float(v) for v in f.prop_xy[j])
        h = int(f.prop_holder[j])
        shot = last.get(p.id)
        if h == FLYING:
            state = "flight"
        elif h >= 0:
            state = "hand"
        elif layout.nearest_place(x, y) == "楅":
            state = "楅"
        elif shot is not None and not _far(shot, x, y):
            state = "landed"
        else:
            state = "set"
        out.append({"id": p.id, "owner": owners.get(p.bundle or p.id), "state": state,
                    "x": round(x, 2), "y": round(y, 2),
                    "hit": None if shot is None else bool(shot["hit"])})
    return out


def _far(shot: dict, x: float, y: float) -> bool:
    return float(np.hypot(shot["x"] - x, shot["y"] - y)) > 0.5


def _owners(tl: Timeline) -> dict[str, str]:
    """A 乘矢 bundle's owner: whoever shot from it (else whoever first held it)."""
    out: dict[str, str] = {}
    for s in (tl.scoring or {}).get("shots", ()):
        pid = s["prop"]
        bundle = tl.props[tl.prop_index[pid]].bundle or pid
        out.setdefault(bundle, s["actor"])
    return out


def hits_by_round(tl: Timeline, t: float | None = None) -> dict[str, dict[str, int]]:
    """actor → {"1": n, "2": n, "3": n}: arrows that struck the 侯 (tallied or not) by t."""
    out: dict[str, dict[str, int]] = {}
    for s in (tl.scoring or {}).get("shots", ()):
        if t is not None and s["t_land"] > t:
            continue
        d = out.setdefault(s["actor"], {})
        d[str(s["round"])] = d.get(str(s["round"]), 0) + int(s["hit"])
    return out


def state_fields(tl: Timeline, f: Frame, layout) -> dict[str, Any]:
    """The state JSON's scoring keys: round, tally, results, arrows."""
    v = score_values(f)
    return {"round": v["round"] or None, "tally": {"右": v["右"], "左": v["左"]},
            "results": results_until(tl, f.t), "arrows": arrows(tl, f, layout),
            "music": ({"beat": v["beat"], "終": v["終"]} if v["beat"] else None)}


def actor_fields(tl: Timeline, actor_id: str, t: float) -> dict[str, Any]:
    sides = (tl.scoring or {}).get("sides", {})
    side = sides.get(actor_id)
    hits = hits_by_round(tl, t).get(actor_id, {}) if side else {}
    return {"side": side, "hits": {k: hits.get(k, 0) for k in ("1", "2", "3")} if side
            else None}


def report(tl: Timeline) -> dict[str, Any]:
    """The whole shooting: each round's shots per archer, tallies, announcement, drinkers."""
    sc = tl.scoring or {}
    rounds: dict[int, dict] = {}
    for s in sc.get("shots", ()):
        r = rounds.setdefault(s["round"], {"round": s["round"], "archers": {}})
        a = r["archers"].setdefault(s["actor"], {"actor": s["actor"],
                                                 "side": s["side"], "shots": []})
        a["shots"].append({"n": s["n"], "hit": s["hit"], "on_beat": s["on_beat"],
                           "tallied": s["tallied"], "t": round(s["t_release"], 2)})
    for res in sc.get("results", ()):
        r = rounds.setdefault(res["round"], {"round": res["round"], "archers": {}})
        r["tally"] = {"右": res["右"], "左": res["左"]}
        r["announce"] = res["announce"]
        r["winner"] = res["winner"]
        # each loser once, in the order they drink (a drinking takes several steps)
        r["drank"] = list(dict.fromkeys(tl.actors[e.actor].id for e in tl.events
                                        if e.kind == "drink"
                                        and e.data.get("round") == res["round"]))
    out = []
    for k in sorted(rounds):
        r = rounds[k]
        r["archers"] = list(r["archers"].values())
        r.setdefault("tally", None)
        r.setdefault("announce", None)
        r.setdefault("winner", None)
        r.setdefault("drank", [])
        out.append(r)
    return {"seed": sc.get("seed"), "scenario": sc.get("scenario", {}),
            "skills": sc.get("skills", {}), "rounds": out}


def format_report(rep: dict[str, Any], tl: Timeline) -> str:
    names = {a.id: a.name for a in tl.actors}
    # who drank, told apart where several share a name: 衆賔之長 (衆1)、衆賔之長 (衆2)
    many = {n for n in names.values() if list(names.values()).count(n) > 1}
    told = {a.id: f"{a.name} ({a.label})" if a.name in many else a.name for a in tl.actors}
    lines = [f"seed {rep['seed']}; " + ", ".join(f"{k}={v:g}" for k, v in
                                                  rep["scenario"].items())]
    for r in rep["rounds"]:
        lines.append("")
        head = f"round {r['round']}"
        if r["announce"]:
            head += f": 右 {r['tally']['右']} 算, 左 {r['tally']['左']} 算 — 「{r['announce']}」"
        else:
            head += ": 獲而未釋獲 (called, not counted)" if r["round"] == 1 else ""
        lines.append(head)
        for a in r["archers"]:
            marks = " ".join(("●" if s["hit"] else "○") + ("" if s["on_beat"] else "~")
                             + ("+" if s["tallied"] else "") for s in a["shots"])
            lines.append(f"  {a['side'] or ' '} {names.get(a['actor'], a['actor']):<6} "
                         f"{a['actor']:<10} {marks}")
        if r["drank"]:
            lines.append("  drank: " + "、".join(told.get(d, d) for d in r["drank"]))
    lines.append("")
    lines.append("● hit  ○ miss  ~ off the beat (不鼓不釋)  + laid as a 算")
    return "\n".join(lines)
