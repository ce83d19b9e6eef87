"""The reader's cast and shooting: the actors and props, the groups, and each arrow's fate.

_Cast(_Refs) owns groups (the cast file's, trimmed to those cast, and the pairs that shoot: 衆耦,
耦), sides (archer → 右 | 左), skills, scoring (the stage's, set by the reader as each stage
opens), shots and results. cast and props build the model's Actor and Prop; members_of binds a
step's each: (its per-member values: member_value, arithmetic); step_when reads a step's
when: (a scenario setting, or the last count's outcome); loose gives an arrow its seeded
fate, count the announcement (視算).
Imports viz.base, viz.model.scenario and the script's nodes and refs.
"""
from __future__ import annotations

import ast
import operator
import re
from collections.abc import Mapping
from typing import Any

from viz.base.errors import Loc, clip
from viz.base.yamlsrc import YMap
from viz.model import scenario
from viz.model.script.nodes import Actor, Music, PlaceRef, Prop, Result, Scoring, Shot
from viz.model.script.refs import _Refs


class _Cast(_Refs):
    """The reader's cast part: who is who, who goes with whom, and the rounds of shooting."""

    OUTCOMES = ("有勝", "左右鈞")  # a step's `when:` on the last count (視算)

    def __init__(self, *args, **kw) -> None:
        super().__init__(*args, **kw)
        self.groups = self.read_groups()
        self.bodies = self.read_bodies()
        self.sides = {a: side for up, low in self.groups.get("耦", ())
                      for a, side in ((up, "右"), (low, "左"))}
        self.skills = {a["id"]: self.values.get(f"skill.{a['id']}", scenario.DEFAULT_SKILL)
                       for a in self.all_cast if a["id"] in self.sides}
        self.scoring: Scoring | None = None
        self.shots: list[Shot] = []
        self.results: list[Result] = []

    def step_when(self, item: Mapping) -> bool:
        """A step's `when:`: a scenario setting as cast_when, or the last count's outcome:
        有勝 (one side won) or 左右鈞 (even)."""
        w = item.get("when")
        if isinstance(w, str) and w.strip() in self.OUTCOMES:
            last = self.results[-1] if self.results else None
            if last is None:
                self.out.error(item.loc_of("when"), f"when: {w.strip()} needs a count (視算: "
                                                    "count:) before this step")
                return False
            return (last.winner is not None) == (w.strip() == "有勝")
        return self.cast_when(item)

    def read_groups(self) -> dict[str, list]:
        """The groups a step repeats over: the cast file's, trimmed to those cast, and the
        pairs that shoot (衆耦, 耦)."""
        out: dict[str, list] = {}
        spec = self.doc.get("groups") or YMap()
        for name, members in spec.items():
            loc = spec.loc_of(name) if isinstance(spec, YMap) else self.doc.loc
            got: list = []
            for m in members:
                if isinstance(m, list):
                    for a in m:
                        self.actor(a, loc)
                    if all(a in self.actor_ids for a in m):
                        got.append(tuple(m))
                elif self.actor(m, loc):
                    got.append(m)
            out[name] = got
        zb = [a for a in out.get("衆賔", []) if isinstance(a, str)]
        df = [a for a in out.get("大夫", []) if isinstance(a, str)]
        out["衆耦"] = scenario.pair_up(zb, df)
        out["耦"] = [*out.get("三耦", []), *([("bin", "zhuren")] if {"bin", "zhuren"}
                                               <= self.actor_ids else []), *out["衆耦"]]
        return out

    def read_bodies(self) -> dict[str, str]:
        """actor → the body the cast's bodies: puts him in (the 三耦, the 衆賔, the 工, the
        主人之吏 …): who may be drawn and named together (viz.draw.scene's formations). One body
        an actor at most."""
        out: dict[str, str] = {}
        spec = self.doc.get("bodies") or YMap()
        for name, members in spec.items():
            loc = spec.loc_of(name) if isinstance(spec, YMap) else self.doc.loc
            for m in members:
                if not self.actor(m, loc):
                    continue
                if m in out and out[m] != name:
                    self.out.error(loc, f"actor {clip(m)} is in two bodies: {out[m]} and {name}")
                    continue
                out[m] = name
        return out

    def members_of(self, spec: Any, loc: Loc) -> list[dict] | None:
        """each: GROUP or {group, only, except, prev} → one parameter binding per member."""
        if isinstance(spec, str):
            spec = {"group": spec}
        name = spec.get("group")
        dynamic = {"不勝耦", "不勝者", "勝者"}
        if name not in self.groups and name not in dynamic:
            self.out.error(loc, f"each: no group {clip(name)}; known: "
                                f"{'、'.join([*self.groups, *sorted(dynamic)])}")
            return None
        only = set(spec.get("only") or ()) or None
        skip = set(spec.get("except") or ())
        for a in (only or set()) | skip:
            if a not in self.uncast:
                self.actor(a, loc)
        last = self.results[-1] if self.results else None
        if name in dynamic and last is None:
            self.out.error(loc, f"each: {name} needs a count (視算: count:) before this step")
            return None
        out = []
        if name in dynamic:
            win = last.winner
            for up, low in self.groups["耦"] if win else ():
                w, lo = (up, low) if win == "右" else (low, up)
                if name == "不勝耦":
                    out.append({"上": up, "下": low, "勝": w, "負": lo, "each": lo,
                                "members": (up, low)})
                else:
                    one = lo if name == "不勝者" else w
                    out.append({"each": one, "耦": w if one == lo else lo, "members": (one,)})
        else:
            for m in self.groups[name]:
                if isinstance(m, tuple):
                    out.append({"上": m[0], "下": m[1], "each": m[0], "members": m})
                else:
                    out.append({"each": m, "members": (m,)})
        out = [b for b in out if (only is None or set(b["members"]) & only)
               and not set(b["members"]) & skip]
        prev = spec.get("prev")
        for i, b in enumerate(out):
            b["i"], b["n"] = i + 1, len(out)
            b["prev"] = out[i - 1]["each"] if i else prev
            b["id"] = b["members"][0] if len(b["members"]) == 1 else b.get("上")
            del b["members"]
            if b["prev"] is None:
                del b["prev"]
        values = spec.get("values") or {}
        for k, v in values.items():
            vloc = values.loc_of(k) if isinstance(values, YMap) else loc
            if k in RESERVED:
                self.out.error(values.key_loc(k) if isinstance(values, YMap) else loc,
                               f"each: values: ${k} is set by each: itself; name it otherwise")
                return None
            for b in out:
                got = self.member_value(k, v, b, vloc)
                if got is _BAD:
                    return None
                b[k] = got
        for b in out:
            del b["id"]
        return out

    def member_value(self, k: str, v: Any, b: dict, loc: Loc) -> Any:
        """One member's value of each: values: (a list by $i, a table by id, or $i arithmetic)."""
        if isinstance(v, list):
            if b["i"] > len(v):
                self.out.error(loc, f"each: values: ${k} has {len(v)} values, but the group has "
                                    f"{b['n']} members here")
                return _BAD
            return v[b["i"] - 1]
        if isinstance(v, Mapping):
            if b["id"] not in v:
                self.out.error(loc, f"each: values: ${k} has no value for {clip(b['id'])}; it "
                                    f"has {', '.join(map(str, v)) or 'none'}")
                return _BAD
            return v[b["id"]]
        if isinstance(v, str) and "$" in v:
            got = arithmetic(v, {"i": b["i"], "n": b["n"]})
            if isinstance(got, str):
                self.out.error(loc, f"each: values: ${k}: {got}")
                return _BAD
            return got
        return v

    def cast(self) -> tuple[Actor, ...]:
        out, seen = [], set()
        for a in self.all_cast:
            if a["id"] in seen:
                self.out.error(a.loc_of("id"), f"actor id {clip(a['id'])} used twice")
            seen.add(a["id"])
            if a["id"] in self.uncast:
                continue
            out.append(Actor(a["id"], a["name"], a["party"], a["label"], a.get("note", ""),
                             a.loc, not any(a is c for c in self.doc.get("cast") or ()),
                             self.bodies.get(a["id"], "")))
        return tuple(out)

    def props(self) -> tuple[Prop, ...]:
        out, seen = [], set()
        top = list(self.doc.get("props") or ())
        for p in self.all_props:
            loc = p.loc
            if p["id"] in seen or p["id"] in self.actor_ids:
                self.out.error(p.loc_of("id"), f"id {clip(p['id'])} used twice")
            seen.add(p["id"])
            if p["id"] in self.unprops:
                continue
            if ("at" in p) == ("held_by" in p):
                self.out.error(loc, f"prop {clip(p['id'])} needs exactly one of at: or held_by:")
            at = self.place(p["at"], p.loc_of("at")) if "at" in p else None
            held = self.actor(p["held_by"], p.loc_of("held_by")) if "held_by" in p else None
            # a prop a section declares is not there until that section brings it
            absent = bool(p.get("absent", False)) or not any(p is q for q in top)
            if "count" in p:
                out += [Prop(m, p["name"], p["kind"], at, held, loc, absent, p["id"],
                             p.get("brought", "")) for m in self.bundles[p["id"]]]
            else:
                out.append(Prop(p["id"], p["name"], p["kind"], at, held, loc, absent,
                                brought=p.get("brought", "")))
        return tuple(out)

    def loose(self, args: dict, loc: Loc) -> None:
        """An arrow aimed at the 侯: the seeded model says whether it hits and where it lands."""
        sc = self.scoring
        if sc is None:
            self.out.error(loc, "shoot without at: aims at the 侯 and needs the stage's scoring: "
                                "{round: N} (or give at: a place)")
            args["at"] = PlaceRef(loc, place="侯")
            return
        who = args["who"][0]
        n = 1 + sum(1 for x in self.shots if x.round == sc.round and x.actor == who)
        skill = self.skills.get(who, scenario.DEFAULT_SKILL)
        hit, on_beat, dx, dy = scenario.loose(self.seed, who, sc.round, n, skill,
                                              sc.music is not None)
        tallied = hit and on_beat and sc.tally is not None
        shot = Shot(sc.round, who, n, self.sides.get(who), hit, on_beat, tallied)
        self.shots.append(shot)
        args["at"] = PlaceRef(loc, place="侯", dx=dx, dy=dy)
        args["shot"] = shot
        args["tally"] = sc.tally
        args["music"] = sc.music

    def count(self, args: dict, loc: Loc) -> None:
        """視算: the round's 算 laid right (上射) and left (下射) → the announcement."""
        sc = self.scoring
        rnd = sc.round if sc is not None else max((x.round for x in self.shots), default=0)
        laid = [x for x in self.shots if x.round == rnd and x.tallied]
        right = sum(1 for x in laid if x.side == "右")
        left = sum(1 for x in laid if x.side == "左")
        words, winner = scenario.announce(right, left)
        res = Result(rnd, right, left, words, winner)
        self.results = [r for r in self.results if r.round != rnd] + [res]
        args["result"] = res

    def scoring_of(self, v: Any, loc: Loc) -> Scoring | None:
        if v is None:
            return None
        tally = v.get("tally")
        if tally is not None and not self.actor(tally, v.loc_of("tally") if "tally" in v
                                                else loc):
            tally = None
        music = None
        if v.get("music"):
            m = v["music"]
            music = Music(m.get("piece", ""), float(m.get("beat", 2.0)),
                          int(m["ends"]) if m.get("ends") is not None else None,
                          int(m.get("beats_per_end", 8)), m.get("start"))
        caller = v.get("caller", "huozhe")
        return Scoring(int(v["round"]), tally, music,
                       caller if caller in self.actor_ids else None)


_BAD = object()
RESERVED = {"each", "i", "n", "prev", "上", "下", "勝", "負", "耦"}
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}


def arithmetic(text: str, names: dict[str, int]) -> int | float | str:
    """'6 * ($i - 1)' with $i, $n bound → a number; or the reason it is not one (a str)."""
    expr = re.sub(r"\$(\w+)", r"\1", text)
    try:
        tree = ast.parse(expr, mode="eval").body
    except SyntaxError:
        return f"expected arithmetic on $i and $n (+ - * / // % and brackets), found {clip(text)}"

    def ev(node: ast.AST) -> float:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and \
                not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.Name) and node.id in names:
            return names[node.id]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -ev(node.operand)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](ev(node.left), ev(node.right))
        raise ValueError(ast.unparse(node))

    try:
        got = ev(tree)
    except ZeroDivisionError:
        return f"division by zero in {clip(text)}"
    except ValueError as e:
        return (f"expected arithmetic on $i and $n (+ - * / // % and brackets), found "
                f"{clip(str(e))} in {clip(text)}")
    return int(got) if isinstance(got, float) and got.is_integer() else got
