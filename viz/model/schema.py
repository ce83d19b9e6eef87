"""The rite script's JSON Schema and its docs table, built from the verbs so neither can drift.

    python -m viz.model.schema --write    # regenerate assets/rites/script.schema.json and the verb
                                    # table of docs/SCRIPT.md (tests fail when either is stale)
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from functools import cache, lru_cache

from viz import ASSETS, ROOT
from viz.model.verbs import REGISTRY, Key

IN_KINDS = ("經", "記", "注", "記注", "引", "按")  # a step's in: (viz/model/script/reader.py IN)

SCHEMA_PATH = ASSETS / "rites" / "script.schema.json"
DOCS_PATH = ROOT / "docs" / "SCRIPT.md"
PARAM = r"\$[A-Za-z_\u4e00-\u9fff][A-Za-z0-9_\u4e00-\u9fff]*"
DIR_RE = "(北|東北|東|東南|南|西南|西|西北)面?"
GESTURES = ["拜", "揖", "坐", "興", "立"]
POSTURE_WORDS = ["立", "坐", "興", "拜", "揖"]


def _ref(name: str) -> dict:
    return {"$ref": f"#/$defs/{name}"}


def _key_schema(k: Key) -> dict:
    kind = k.kind
    if kind in ("who", "dir", "formation"):
        return _ref(kind)
    if kind in ("actor", "one"):
        return {"type": "string", "minLength": 1}
    if kind == "place":
        return _ref("placeref")
    if kind == "via":
        return {"anyOf": [_ref("placeref"), {"type": "array", "items": _ref("placeref")}]}
    if kind in ("prop", "worn"):
        return {"type": "string", "minLength": 1}
    if kind == "thing":
        return _ref("who")
    if kind == "flag":
        return {"type": "boolean"}
    if kind in ("text", "words"):
        return {"type": "string", "minLength": 1}
    if kind == "posture":
        return {"anyOf": [{"enum": POSTURE_WORDS}, _ref("param")]}
    if kind in ("number", "count"):
        return _ref("num")
    raise ValueError(f"unknown key kind {kind!r}")


def _verb_schema(v) -> dict:
    keys = v.all_keys()
    return {"type": "object", "description": v.doc,
            "required": [k for k, spec in keys.items() if spec.required],
            "additionalProperties": False,
            "properties": {k: {**_key_schema(spec), "description": spec.doc}
                           for k, spec in keys.items()}}


def _step_body(extra: dict) -> dict:
    return {"dur": {**_ref("num"), "description": "seconds, overriding the computed duration"},
            "note": {"type": "string"},
            "do": _ref("actions"),
            "use": {"type": "string", "minLength": 1},
            "with": {"type": "object"},
            **extra}


@lru_cache(maxsize=1)
def script_schema() -> dict:
    """The schema of a one-file script (and, by its $defs, of every file of a rite folder)."""
    defs = {
        "id": {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"},
        "param": {"type": "string", "pattern": f"^{PARAM}$"},
        "ptype": {"enum": ["actor", "actors", "place", "prop", "int", "number", "text", "dir",
                           "flag"]},
        "num": {"anyOf": [{"type": "number"}, _ref("param")]},
        "who": {"anyOf": [{"type": "string", "minLength": 1},
                          {"type": "array", "minItems": 1,
                           "items": {"type": "string", "minLength": 1}}]},
        "dir": {"type": "string", "pattern": f"^({PARAM}|{DIR_RE})$"},
        "formation": {"type": "string", "pattern": f"^({PARAM}|(北|東|南|西)面(北|東|南|西)上)$"},
        "placeref": {"anyOf": [
            {"type": "string", "minLength": 1},
            {"type": "object", "additionalProperties": False,
             "properties": {"place": {"type": "string", "minLength": 1},
                            "actor": {"type": "string", "minLength": 1},
                            "prop": {"type": "string", "minLength": 1},
                            "mark": {"type": "string", "minLength": 1},
                            "side": _ref("dir"), "dist": _ref("num"),
                            "dx": _ref("num"), "dy": _ref("num")}}]},
        "action": {"type": "object", "minProperties": 1, "maxProperties": 1,
                   "additionalProperties": False,
                   "properties": {name: _verb_schema(v) for name, v in REGISTRY.items()}},
        "actions": {"type": "array", "minItems": 1, "items": _ref("action")},
        "variants": {"type": "array", "items": {
            "type": "object", "required": ["reading"], "additionalProperties": False,
            "properties": {"reading": {"type": "string", "minLength": 1},
                           "note": {"type": "string"}, "do": _ref("actions"),
                           "use": {"type": "string", "minLength": 1}, "with": {"type": "object"},
                           "dur": _ref("num")},
            "not": {"required": ["do", "use"]}}},
        "expect": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["who"], "additionalProperties": False,
            "properties": {"who": _ref("who"), "at": _ref("placeref"),
                           "within": {**_ref("num"), "description": "尺 (default 1)"},
                           "face": _ref("dir"), "posture": {"enum": ["立", "坐"]},
                           "holding": {"type": "array", "items": {"type": "string"}},
                           "present": {"type": "boolean"}}}},
        "when": {"type": "string", "minLength": 1,
                 "description": "only if a scenario setting holds: SETTING OP NUMBER (大夫>=1), or "
                                "several joined by & (大夫==0 & 衆賔<=3); "
                                "on a step also 有勝 or 左右鈞 (the last count's outcome)"},
        "each": {"description": "repeat the step once per member of a group ($each, $i, $n, "
                                "$prev; pairs: $上 $下; 不勝耦: $勝 $負; values: $NAME)",
                 "anyOf": [{"type": "string", "minLength": 1},
                           {"type": "object", "required": ["group"], "additionalProperties": False,
                            "properties": {"group": {"type": "string", "minLength": 1},
                                           "only": {"type": "array", "items": {"type": "string"}},
                                           "except": {"type": "array",
                                                      "items": {"type": "string"}},
                                           "prev": {"type": "string", "minLength": 1},
                                           "together": {
                                               "type": "boolean",
                                               "description": "true: the members' expansions run "
                                               "at the same time (the k-th step of each merged "
                                               "into one), not one after another"},
                                           "values": {
                                               "type": "object",
                                               "description": "per-member values, each $NAME: a "
                                               "list (the i-th member's is the i-th), a table "
                                               "{member id: value}, or arithmetic on $i and $n "
                                               "('6 * ($i - 1)')",
                                               "additionalProperties": {"anyOf": [
                                                   {"type": "array", "minItems": 1},
                                                   {"type": "object"},
                                                   {"type": "string", "minLength": 1}]}}}}]},
        "step": {"type": "object", "required": ["cite"], "additionalProperties": False,
                 "properties": _step_body({
                     "cite": {"type": "string", "minLength": 1},
                     "in": _ref("in"),
                     "section": {"anyOf": [{"type": "string", "minLength": 1},
                                           {"type": "integer", "minimum": 1}],
                                 "description": "the cite is sought in this section (a clause "
                                                "of another section enacted here)"},
                     "reading": {"type": "string", "minLength": 1},
                     "when": _ref("when"), "each": _ref("each"),
                     "variants": _ref("variants"), "expect": _ref("expect"),
                     "said": _ref("said"),
                     "together": {"type": "boolean",
                                  "description": "true: runs at the same time as the step "
                                                 "enacted before it, which cites the same words "
                                                 "(the k-th step of each merged into one)"}}),
                 "oneOf": [{"required": ["do"]}, {"required": ["use"]}]},
        "in": {"description": "the kinds of text the cite is sought in (default: the 經 and "
                              "記): 注 for words of the commentary (the 記's 注 too)",
               "anyOf": [{"enum": list(IN_KINDS)},
                         {"type": "array", "minItems": 1, "items": {"enum": list(IN_KINDS)}}]},
        "said": {"type": "boolean",
                 "description": "false: a move the text does not say (a return to place, a turn "
                                "it leaves out); it enacts no clause, so each clause's moment "
                                "(--after) is over before it begins"},
        "patternstep": {"type": "object", "additionalProperties": False,
                        "properties": _step_body({
                            "expect": _ref("expect"), "said": _ref("said"),
                            "when": {"type": "string", "minLength": 1,
                                     "description": "an optional part: $PARAM (the flag is true, "
                                                    "or the parameter was given) or not $PARAM; "
                                                    "or a scenario setting as on a stage's step"},
                            "cite": {"type": "string", "minLength": 1,
                                     "description": "the part of the using step's words this "
                                                    "step enacts (and the steps after it, until "
                                                    "another says); ignored where they do not "
                                                    "contain it"}}),
                        "oneOf": [{"required": ["do"]}, {"required": ["use"]}]},
        "placement": {"type": "object", "required": ["who", "at"], "additionalProperties": False,
                      "properties": {"who": _ref("who"), "at": _ref("placeref"),
                                     "face": _ref("dir"), "formation": _ref("formation"),
                                     "spacing": _ref("num"), "posture": {"enum": ["立", "坐"]},
                                     "holding": {"type": "array", "items": {"type": "string"}},
                                     "absent": {"type": "boolean"},
                                     "when": _ref("when"),
                                     "cite": {"type": "string", "minLength": 1}, "in": _ref("in"),
                                     "note": {"type": "string"}}},
        "propplacement": {"type": "object", "required": ["prop"], "additionalProperties": False,
                          "properties": {"prop": _ref("who"), "at": _ref("placeref"),
                                         "held_by": {"type": "string", "minLength": 1},
                                         "worn_by": {"type": "string", "minLength": 1,
                                                     "description": "worn by him as the stage "
                                                                    "opens (a worn thing)"},
                                         "absent": {"type": "boolean"},
                                         "when": _ref("when"),
                                         "cite": {"type": "string", "minLength": 1}, "in": _ref("in"),
                                         "note": {"type": "string"}}},
        "thingplacement": {"type": "object", "required": ["thing"], "additionalProperties": False,
                           "properties": {"thing": _ref("who"), "absent": {"type": "boolean"},
                                          "when": _ref("when"),
                                          "cite": {"type": "string", "minLength": 1}, "in": _ref("in"),
                                          "note": {"type": "string"}}},
        "rules": {"type": "array", "items": {
            "type": "object", "required": ["cite", "note"], "additionalProperties": False,
            "properties": {"cite": {"type": "string", "minLength": 1}, "in": _ref("in"),
                           "note": {"type": "string", "minLength": 1}}},
            "description": "clauses the stage does not enact (a rule, not an action), and why"},
        "scoring": {"type": "object", "required": ["round"], "additionalProperties": False,
                    "description": "this stage is (part of) a round of shooting",
                    "properties": {
                        "round": {"type": "integer", "minimum": 1, "maximum": 9},
                        "caller": {"type": "string", "minLength": 1,
                                   "description": "who calls each hit (唱獲; default huozhe)"},
                        "tally": {"anyOf": [{"type": "string", "minLength": 1}, {"type": "null"}],
                                  "description": "who lays the 算 for each hit (釋獲); null: "
                                                 "hits are called, not counted"},
                        "music": {"type": "object", "required": ["piece"],
                                  "additionalProperties": False,
                                  "properties": {"piece": {"type": "string"},
                                                 "beat": {"type": "number", "exclusiveMinimum": 0,
                                                          "maximum": 30},
                                                 "ends": {"type": "integer", "minimum": 1,
                                                          "maximum": 20,
                                                          "description": "終 played; without "
                                                          "it, as long as they shoot"},
                                                 "start": {"type": "string", "minLength": 1,
                                                           "description": "the clause that "
                                                           "orders the music: the drum begins "
                                                           "with the step citing it"},
                                                 "beats_per_end": {"type": "integer",
                                                                   "minimum": 1,
                                                                   "maximum": 64}}}}},
        "like": {"description": "this stage is like another: its steps, re-bound",
                 "anyOf": [{"type": "string", "minLength": 1},
                           {"type": "object", "required": ["stage"], "additionalProperties": False,
                            "properties": {
                                "stage": {"anyOf": [{"type": "string", "minLength": 1},
                                                    {"type": "integer", "minimum": 1}],
                                          "description": "an earlier stage of this rite (its "
                                                         "name or section), or of rite:"},
                                "rite": {"type": "string", "minLength": 1,
                                         "description": "another rite: a folder relative to "
                                                        "the manifest, or a bundled rite"},
                                "actors": {"type": "object", "description": "ids re-bound",
                                           "additionalProperties": {"type": "string",
                                                                    "minLength": 1}},
                                "places": {"type": "object", "description": "places re-bound",
                                           "additionalProperties": {"type": "string",
                                                                    "minLength": 1}},
                                "props": {"type": "object", "description": "prop ids re-bound",
                                          "additionalProperties": {"type": "string",
                                                                   "minLength": 1}},
                                "cite": {"type": "string", "minLength": 1,
                                         "description": "every copied step cites these words "
                                                        "(the 如初 clause of this stage), "
                                                        "not the model's"},
                                "cites": {"type": "object", "description": "words of the "
                                          "cites replaced",
                                          "additionalProperties": {"type": "string"}},
                                "steps": {"type": "object", "description": "{N: step} replaces "
                                          "the N-th step (from 1); {N: null} drops it; "
                                          "{'A-B': null} drops A to B",
                                          "additionalProperties": {"anyOf": [_ref("step"),
                                                                             {"type": "null"}]}}}}]},
        "stage": {"type": "object", "required": ["name"], "additionalProperties": False,
                  "anyOf": [{"required": ["steps"]}, {"required": ["like"]}, {"required": ["rules"]}],
                  "properties": {
                      "name": {"type": "string", "minLength": 1},
                      "like": _ref("like"),
                      "out_of_order": {"type": "string", "minLength": 1,
                                       "description": "why this stage is played here though the "
                                                      "text tells it elsewhere"},
                      "section": {"anyOf": [{"type": "string", "minLength": 1},
                                            {"type": "integer", "minimum": 1}]},
                      "when": _ref("when"),
                      "cast": _ref("cast"), "props": _ref("props"), "rules": _ref("rules"),
                      "scoring": _ref("scoring"),
                      "note": {"type": "string"},
                      "when": _ref("when"),
                      "gap": {"type": "object", "required": ["skips"], "additionalProperties": False,
                              "description": "the sections before this stage that are not "
                                             "enacted; only then may the stage have a setup",
                              "properties": {"skips": {"anyOf": [
                                                 {"type": "integer", "minimum": 1},
                                                 {"type": "string", "pattern": r"^\d+([–-]\d+)?$"}]},
                                             "note": {"type": "string"}}},
                      "setup": {"type": "array", "items": {
                          "if": {"type": "object", "required": ["thing"]},
                          "then": _ref("thingplacement"),
                          "else": {"if": {"type": "object", "required": ["prop"]},
                                   "then": _ref("propplacement"), "else": _ref("placement")}}},
                      "labels": {"type": "object", "additionalProperties": {
                          "type": "string", "minLength": 1, "maxLength": 4}},
                      "steps": {"type": "array", "minItems": 1, "items": _ref("step")}}},
        "pattern": {"type": "object", "required": ["steps"], "additionalProperties": False,
                    "properties": {
                        "doc": {"type": "string"},
                        "params": {"type": "object", "additionalProperties": {"anyOf": [
                            _ref("ptype"),
                            {"type": "object", "required": ["type"], "additionalProperties": False,
                             "properties": {"type": _ref("ptype"), "default": {},
                                            "doc": {"type": "string"}}}]}},
                        "steps": {"type": "array", "minItems": 1, "items": _ref("patternstep")}}},
        "settings": {"type": "object", "additionalProperties": False, "properties": {
            "walk_speed": {"type": "number", "exclusiveMinimum": 0, "maximum": 50},
            "stair_step": {"type": "number", "minimum": 0, "maximum": 60},
            "turn": {"type": "number", "minimum": 0, "maximum": 60},
            "spacing": {"type": "number", "exclusiveMinimum": 0, "maximum": 100},
            "brisk_speed": {"type": "number", "exclusiveMinimum": 0, "maximum": 50},
            "gestures": {"type": "object",
                         "propertyNames": {"enum": GESTURES + sorted(set(REGISTRY) - {"move",
                                                                          "face", "wait",
                                                                          "posture", "label"})},
                         "additionalProperties": {"type": "number", "minimum": 0,
                                                  "maximum": 600}}}},
        "cast": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["id", "name", "party", "label"],
            "additionalProperties": False,
            "properties": {"id": _ref("id"), "name": {"type": "string", "minLength": 1},
                           "party": {"enum": ["主", "賓"]},
                           "label": {"type": "string", "minLength": 1, "maxLength": 4},
                           "when": _ref("when"),
                           "skill": {"type": "number", "minimum": 0, "maximum": 1,
                                     "description": "an archer's chance of hitting the 侯 "
                                                    "(--set skill.ID=P)"},
                           "note": {"type": "string"}}}},
        "scenario": {"type": "object", "description": "settings the text leaves open (--set)",
                     "additionalProperties": {
                         "type": "object", "required": ["default"], "additionalProperties": False,
                         "properties": {"default": {"type": "number"}, "min": {"type": "number"},
                                        "max": {"type": "number"}, "doc": {"type": "string"}}}},
        "groups": {"type": "object", "description": "named lists of actors (or pairs) for each:",
                   "additionalProperties": {"type": "array", "items": {"anyOf": [
                       {"type": "string", "minLength": 1},
                       {"type": "array", "minItems": 2, "maxItems": 2,
                        "items": {"type": "string", "minLength": 1}}]}}},
        "set_out": {"type": "array", "items": {"type": "string", "minLength": 1},
                    "description": "layout features not in the hall until a step sets them"},
        "bodies": {"type": "object", "description": "the bodies the text names (三耦, 衆賔, "
                   "工, the officers …): body → its members; people drawn and named together "
                   "belong to one body (an actor to one at most)",
                   "additionalProperties": {"type": "array", "minItems": 1,
                                            "items": {"type": "string", "minLength": 1}}},
        "props": {"type": "array", "items": {
            "type": "object", "required": ["id", "name", "kind"], "additionalProperties": False,
            "properties": {"id": _ref("id"), "name": {"type": "string", "minLength": 1},
                           "kind": {"type": "string", "minLength": 1},
                           "count": {"type": "integer", "minimum": 1, "maximum": 100,
                                     "description": "a bundle: this many, each tracked "
                                                    "(id.1, id.2 …)"},
                           "at": _ref("placeref"), "held_by": _ref("id"),
                           "worn": {"enum": ["首", "身", "足"],
                                    "description": "a thing worn (don, doff), and where: 首 the "
                                                   "head (冠 弁 纚 笄), 身 the body (服 韠 衣 "
                                                   "裳), 足 the feet (屨)"},
                           "worn_by": {**_ref("id"), "description": "who wears it from the "
                                       "start (a worn thing; instead of at: or held_by:)"},
                           "face": _ref("dir"),
                           "note": {"type": "string"}, "when": _ref("when"),
                           "absent": {"type": "boolean", "description": "not in the scene "
                                      "until a stage's setup brings it"},
                           "brought": {"type": "string", "minLength": 1,
                                       "description": "the words of the text that bring it in "
                                                      "(乃納射器, 薦脯醢): it may first appear in "
                                                      "the hand that brings it (check: nothing "
                                                      "from nowhere)"}}}},
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.invalid/xiangshe/script.schema.json",
        "title": "鄉射禮 rite script",
        "description": "Generated from viz/model/verbs.py by `python -m viz.model.schema --write`; see "
                       "docs/SCRIPT.md. A one-file script; a rite folder's files are checked "
                       "against the same $defs (cast file: settings/cast/props; pattern files: "
                       "patterns; section files: one stage).",
        "type": "object", "required": ["cast", "stages"], "additionalProperties": False,
        "properties": {"rite": {"type": "string"}, "note": {"type": "string"},
                       "settings": _ref("settings"), "cast": _ref("cast"), "props": _ref("props"),
                       "scenario": _ref("scenario"), "groups": _ref("groups"),
                       "set_out": _ref("set_out"), "bodies": _ref("bodies"),
                       "patterns": {"type": "object", "additionalProperties": _ref("pattern")},
                       "stages": {"type": "array", "minItems": 1, "items": _ref("stage")}},
        "$defs": defs,
    }


@cache
def file_schema(kind: str) -> dict:
    """The schema of one file of a rite folder (or of a whole one-file script)."""
    whole = script_schema()
    if kind == "script":
        return whole
    props = whole["properties"]
    body = {"cast": {"type": "object", "additionalProperties": False,
                     "properties": {k: props[k] for k in ("settings", "cast", "props",
                                                          "scenario", "groups", "set_out", "bodies")}
                     | {"note": {"type": "string"}}},
            "patterns": {"type": "object", "required": ["patterns"], "additionalProperties": False,
                         "properties": {"patterns": props["patterns"], "note": {"type": "string"},
                                        "places": {"type": "array", "uniqueItems": True,
                                                   "items": {"type": "string", "minLength": 1},
                                                   "description": "the layout's places this "
                                                   "file's patterns name: a rite that uses one of "
                                                   "them needs each (docs/LAYOUT.md)"}}},
            "stage": _ref("stage")}[kind]
    return {"$schema": whole["$schema"], **body, "$defs": whole["$defs"]}


def schema_text() -> str:
    return json.dumps(script_schema(), ensure_ascii=False, indent=2) + "\n"


BEGIN, END = "<!-- verbs: generated by python -m viz.model.schema --write -->", "<!-- /verbs -->"


def verb_table() -> str:
    """The docs' table of verbs: one row a verb, its keys (required in bold) and what it does."""
    rows = ["| action | keys | what |", "|---|---|---|"]
    for name, v in REGISTRY.items():
        keys = ", ".join(f"**`{k}`**" if s.required else f"`{k}`" for k, s in v.keys.items())
        rows.append(f"| `{name}` | {keys} | {v.doc} |")
    rows.append("")
    rows.append("Every action may also take `after: WHO`: " + REGISTRY["move"].all_keys()["after"].doc
                + ".")
    rows.append("")
    rows.append("Keys, by verb:")
    rows.append("")
    for name, v in REGISTRY.items():
        for k, s in v.keys.items():
            bound = ""
            if s.kind == "number" and (s.lo is not None or s.hi is not None):
                lo = "" if s.lo is None else f"{'>' if s.open_lo else '≥'} {s.lo:g}"
                hi = "" if s.hi is None else f"≤ {s.hi:g}"
                bound = f" ({', '.join(x for x in (lo, hi) if x)})"
            rows.append(f"- `{name}.{k}` ({s.kind}{', required' if s.required else ''}){bound}: "
                        f"{s.doc}")
    return "\n".join(rows)


def docs_with_table(text: str) -> str:
    pat = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    if not pat.search(text):
        raise ValueError(f"{DOCS_PATH} has no {BEGIN} … {END} block")
    return pat.sub(lambda _: f"{BEGIN}\n{verb_table()}\n{END}", text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="rewrite the schema and the docs table")
    args = ap.parse_args(argv)
    docs = DOCS_PATH.read_text(encoding="utf-8")
    fresh = docs_with_table(docs)
    stale = [p for p, old, new in ((SCHEMA_PATH, SCHEMA_PATH.read_text(encoding="utf-8"),
                                    schema_text()), (DOCS_PATH, docs, fresh)) if old != new]
    if args.write:
        SCHEMA_PATH.write_text(schema_text(), encoding="utf-8")
        DOCS_PATH.write_text(fresh, encoding="utf-8")
        print("wrote " + ", ".join(str(p) for p in (SCHEMA_PATH, DOCS_PATH)))
        return 0
    for p in stale:
        print(f"{p} is stale: run python -m viz.model.schema --write", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
