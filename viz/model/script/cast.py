"""The reader's cast: the actors and props, the groups, the bodies and the pairs that shoot.

Cast is built once, after the scope, from the scope's document; it holds the scope and refs and
owns groups (the cast file's, trimmed to those cast, and the pairs that shoot: 衆耦, 耦), bodies
(actor → the body he is drawn in), sides (archer → 右 | 左) and skills, none changed after.
cast and props build the model's Actor and Prop; members_of binds a step's each: (its
per-member values: member_value, arithmetic), the dynamic groups (不勝耦 …) from the last count
it is handed; scoring_of reads a stage's scoring:. Each arrow's fate is fates.py's.
Imports viz.base, viz.model.scenario and the script's nodes, scope and refs.
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
from viz.model.script.nodes import Actor, Music, Prop, Result, Scoring
from viz.model.script.refs import Refs
from viz.model.script.scope import Scope


class Cast:
    """Who is who and who goes with whom."""

    def __init__(self, scope: Scope, refs: Refs) -> None:
        self.scope, self.refs, self.out = scope, refs, scope.out
        self.groups = self.read_groups()
        self.bodies = self.read_bodies()
        self.sides = {a: side for up, low in self.groups.get("耦", ())
                      for a, side in ((up, "右"), (low, "左"))}
        self.skills = {a["id"]: scope.values.get(f"skill.{a['id']}", scenario.DEFAULT_SKILL)
                       for a in scope.all_cast if a["id"] in self.sides}

    def read_groups(self) -> dict[str, list]:
        """The groups a step repeats over: the cast file's, trimmed to those cast, and the
        pairs that shoot (衆耦, 耦)."""
        out: dict[str, list] = {}
        spec = self.scope.doc.get("groups") or YMap()
        for name, members in spec.items():
            loc = spec.loc_of(name) if isinstance(spec, YMap) else self.scope.doc.loc
            got: list = []
            for m in members:
                if isinstance(m, list):
                    for a in m:
                        self.scope.actor(a, loc)
                    if all(a in self.scope.actor_ids for a in m):
                        got.append(tuple(m))
                elif self.scope.actor(m, loc):
                    got.append(m)
            out[name] = got
        zb = [a for a in out.get("衆賔", []) if isinstance(a, str)]
        df = [a for a in out.get("大夫", []) if isinstance(a, str)]
        out["衆耦"] = scenario.pair_up(zb, df)
        out["耦"] = [*out.get("三耦", []), *([("bin", "zhuren")] if {"bin", "zhuren"}
                                               <= self.scope.actor_ids else []), *out["衆耦"]]
        return out

    def read_bodies(self) -> dict[str, str]:
        """actor → the body the cast's bodies: puts him in (the 三耦, the 衆賔, the 工, the
        主人之吏 …): who may be drawn and named together (viz.draw.scene's formations). One body
        an actor at most."""
        out: dict[str, str] = {}
        spec = self.scope.doc.get("bodies") or YMap()
        for name, members in spec.items():
            loc = spec.loc_of(name) if isinstance(spec, YMap) else self.scope.doc.loc
            for m in members:
                if not self.scope.actor(m, loc):
                    continue
                if m in out and out[m] != name:
                    self.out.error(loc, f"actor {clip(m)} is in two bodies: {out[m]} and {name}")
                    continue
                out[m] = name
        return out

    def members_of(self, spec: Any, loc: Loc, last: Result | None) -> list[dict] | None:
        """each: GROUP or {group, only, except, prev} → one parameter binding per member; the
        groups of a count's outcome (不勝耦, 不勝者, 勝者) from the last count (視算), last."""
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
            if a not in self.scope.uncast:
                self.scope.actor(a, loc)
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
        for a in self.scope.all_cast:
            if a["id"] in seen:
                self.out.error(a.loc_of("id"), f"actor id {clip(a['id'])} used twice")
            seen.add(a["id"])
            if a["id"] in self.scope.uncast:
                continue
            out.append(Actor(a["id"], a["name"], a["party"], a["label"], a.get("note", ""),
                             a.loc, not any(a is c for c in self.scope.doc.get("cast") or ()),
                             self.bodies.get(a["id"], "")))
        return tuple(out)

    def props(self) -> tuple[Prop, ...]:
        out, seen = [], set()
        top = list(self.scope.doc.get("props") or ())
        for p in self.scope.all_props:
            loc = p.loc
            if p["id"] in seen or p["id"] in self.scope.actor_ids:
                self.out.error(p.loc_of("id"), f"id {clip(p['id'])} used twice")
            seen.add(p["id"])
            if p["id"] in self.scope.unprops:
                continue
            if sum(k in p for k in ("at", "held_by", "worn_by")) != 1:
                self.out.error(loc, f"prop {clip(p['id'])} needs exactly one of at: or held_by:"
                               + (" or worn_by:" if "worn" in p else ""))
            at = self.refs.place(p["at"], p.loc_of("at")) if "at" in p else None
            held = self.scope.actor(p["held_by"], p.loc_of("held_by")) if "held_by" in p else None
            wears = self.worn_of(p)
            # a prop a section declares is not there until that section brings it
            absent = bool(p.get("absent", False)) or not any(p is q for q in top)
            if "count" in p:
                out += [Prop(m, p["name"], p["kind"], at, held, loc, absent, p["id"],
                             p.get("brought", ""), *wears) for m in self.scope.bundles[p["id"]]]
            else:
                out.append(Prop(p["id"], p["name"], p["kind"], at, held, loc, absent,
                                brought=p.get("brought", ""), worn=wears[0], worn_by=wears[1]))
        return tuple(out)

    def worn_of(self, p) -> tuple[str, str | None]:
        """A prop's worn: (where it is worn: 首 身 足) and worn_by: (who wears it from the start;
        only with worn:), checked."""
        from viz.model.dress import SPOTS

        spot = p.get("worn", "")
        if spot and spot not in SPOTS:
            self.out.error(p.loc_of("worn"), f"worn: expected where it is worn, one of "
                           f"{' '.join(SPOTS)}, found {clip(spot)}")
            spot = ""
        by = None
        if "worn_by" in p:
            by = self.scope.actor(p["worn_by"], p.loc_of("worn_by"))
            if not spot:
                self.out.error(p.loc_of("worn_by"), f"worn_by: prop {clip(p['id'])} is not a "
                               f"worn thing: say where it is worn (worn: {' '.join(SPOTS)})")
        return spot, by

    def scoring_of(self, v: Any, loc: Loc) -> Scoring | None:
        if v is None:
            return None
        tally = v.get("tally")
        if tally is not None and not self.scope.actor(tally, v.loc_of("tally") if "tally" in v
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
                       caller if caller in self.scope.actor_ids else None)


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
