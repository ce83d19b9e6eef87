"""The script's verbs, one class each: its keys (schema and docs), its checks and how it compiles.

A verb is the one home of an action: `keys` gives the schema fragment (viz/model/schema.py builds
script.schema.json from it), the reader parses each key by its kind (viz/model/script/), `check`
adds what a schema cannot say, `compile` writes keyframes through the compiler's primitives
(viz/model/compile/), and `doc` with the keys' docs is the verb's row in docs/SCRIPT.md (generated;
a test keeps the file in step). A verb built on the compiler's primitives touches this file only;
one with state of its own (as dress, shoot and count) needs an owner for it in viz/model/compile/
and a name for it in CompileContext.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Protocol, runtime_checkable

import numpy as np

from viz.model.dress import dress_words
from viz.model.timeline import FLYING, SET_DOWN

if TYPE_CHECKING:
    from viz.model.script.nodes import Action

REACH = 3.0  # 尺: farther than this one cannot take or hand a thing without stepping
# 尺: between two people handing a thing (授, 受) each reaches out, so they may stand farther
# apart than one reaching for a thing that lies: across a 薦 set before a 席 (the 執觶者 south of
# the row of dishes, the drinker seated on his 席: issue 26, footprints not thresholds)
HAND_REACH = 4.0
ARROW_SPEED = 200.0  # 尺/s: 300 尺 in 1.5 s


@dataclass(frozen=True)
class Key:
    """One key of a verb. kind says how it is read:
    who (an actor id or a list), one (one actor id, read as a list of one), actor, place, via
    (places or named ways, in order), prop (a prop, a bundle or one of a bundle), worn (a prop
    declared worn: 首 身 足), dir, formation, text, posture, number (finite, within lo/hi), count
    (a whole number ≥ 1)."""

    kind: str
    doc: str
    required: bool = False
    lo: float | None = None  # numbers: smallest allowed (inclusive unless open_lo)
    open_lo: bool = False
    hi: float | None = None


if TYPE_CHECKING:  # the rest of the script's data classes CompileContext names
    from viz.base.errors import Loc
    from viz.model.script.nodes import Formation, Music, PlaceRef, Script, Settings, Shot

Busy = dict[int, float]  # when each actor is free again within the step being compiled


@runtime_checkable
class CompileContext(Protocol):
    """What a verb's compile step may use of the compiler, and all it may: the compile's
    context (viz.model.compile.compiler.Handed, a Ctx) is one, and is what `Verb.compile` is
    handed. This module never imports the compiler; a test checks that the context has every
    name here, and that the verbs use no other name of `c`. A verb reads the state through
    these names and changes it only through the methods (the state's owners write it)."""

    # the script and the compile's state, as the step so far has left it (read only)
    cfg: Settings
    script: Script
    ai: Mapping[str, int]  # actor id → index
    pos: np.ndarray  # (actors, 2): where each stands
    face: np.ndarray  # (actors,): facing in degrees
    holder: np.ndarray  # (props,): who holds each (an actor's index, SET_DOWN or FLYING)
    visible: np.ndarray  # (props,): in the scene
    tally: dict[str, int]  # the round's 算 laid so far, 右 and 左

    # places and people
    def xy(self, ref: PlaceRef, loc: Loc | None = None) -> np.ndarray: ...
    def prop_spot(self, p: int) -> np.ndarray: ...
    def members(self, pid: str) -> list[int]: ...
    def heading_to(self, a: int, p: np.ndarray) -> float: ...
    def unit(self, deg: float) -> np.ndarray: ...
    def spots(self, who, anchor: np.ndarray, form: Formation | None, face: float | None,
              spacing: float | None) -> list[np.ndarray]: ...
    def start(self, busy: Busy, who: list[int]) -> float: ...

    # keyframes (times relative to the step)
    def teleport(self, a: int, t: float, xy, face: float | None) -> None: ...
    def set_presence(self, a: int, t: float, present: bool) -> None: ...
    def set_prop(self, p: int, t: float, holder: int, xy, visible: bool = True) -> None: ...
    def set_label(self, a: int, t: float, text: str) -> None: ...
    def event(self, t0: float, t1: float, kind: str, a: int, text: str,
              data: dict | None = None) -> None: ...
    def mark(self, name: str, xy) -> None: ...  # a spot named by put: {…, mark: NAME}
    def loose(self, p: int) -> None: ...  # an arrow shot, lying where it fell until gathered

    # motion: each returns when it ends
    def turn(self, a: int, t: float, deg: float, way: str | None = None) -> float: ...
    def posture(self, a: int, t: float, kind: str, count: int) -> float: ...
    def move(self, act: Action, busy: Busy) -> float: ...

    # things and props
    def show_things(self, act: Action, busy: Busy, shown: bool) -> float: ...
    def gather(self, act: Action, a: int, members: list[int], busy: Busy) -> float: ...
    def some(self, members: list[int], a: int, giver: int | None, n: int) -> list[int]: ...
    def holder_check(self, act: Action, p: int, a: int | None, what: str) -> None: ...
    def reach_check(self, act: Action, a: int, spot: np.ndarray, what: str,
                    limit: float = REACH) -> None: ...

    # the shooting
    def on_beat(self, t: float, music: Music, on: bool, actor: str = "") -> float: ...
    def scored(self, act: Action, shot: Shot, p: int, t0: float, t1: float, goal) -> float: ...
    def count(self, act: Action, a: int, busy: Busy) -> float: ...

    # what they wear (viz.model.compile.dress)
    def dress(self, a: int, t: float, words: str, bow: str | None = None,
              loc: Loc | None = None) -> float: ...
    def don(self, act: Action, busy: Busy) -> float: ...
    def doff(self, act: Action, busy: Busy) -> float: ...


AFTER = Key("who", "start only when these people have finished what is written before this "
                   "action in the step (one person after another, no hand-timed wait)")


class Verb:
    name: ClassVar[str]
    doc: ClassVar[str]
    keys: ClassVar[dict[str, Key]]
    one_of: ClassVar[tuple[tuple[str, ...], ...]] = ()  # groups of keys: exactly one of each

    @classmethod
    def all_keys(cls) -> dict[str, Key]:
        return {**cls.keys, "after": AFTER}

    @classmethod
    def check(cls, args: dict, say: Callable[[str], None]) -> None:
        """Problems of meaning a schema cannot express; say(message) reports one."""
        for group in cls.one_of:
            if sum(k in args for k in group) != 1:
                say(f"{cls.name} needs exactly one of {' or '.join(k + ':' for k in group)}")

    @staticmethod
    def compile(c: CompileContext, act: Action, busy: Busy) -> float:
        """Write the action's keyframes; return when (relative to the step) it ends."""
        raise NotImplementedError


REGISTRY: dict[str, type[Verb]] = {}


def each(c: CompileContext, act: Action, busy: Busy,
         do: Callable[[int, float], float]) -> float:
    """do(actor, start) for each person of `who`, each from when he is free; the last end."""
    end = 0.0
    for w in act.args["who"]:
        a = c.ai[w]
        busy[a] = t = do(a, busy.get(a, 0.0))
        end = max(end, t)
    return end


def verb(cls: type[Verb]) -> type[Verb]:
    REGISTRY[cls.name] = cls
    return cls


WHO = Key("who", "an actor id or a list of them (the text's order, which a formation follows)",
          required=True)
ONE = Key("one", "one actor id", required=True)
SPACING = Key("number", "尺 between people in the row (default: settings.spacing)", lo=0,
              open_lo=True, hi=100)


@verb
class Move(Verb):
    name = "move"
    doc = ("walk along a path that crosses no wall, 楹 or 堂 edge, turning first; a group walks "
           "in file, each at spacing behind the one before, and stands as the formation says")
    keys = {
        "who": WHO,
        "to": Key("place", "where to (for a group: where the senior stands)", required=True),
        "via": Key("via", "places or named ways to pass, in order; a way (由楹内 …) is walked in "
                          "whichever direction the walk needs"),
        "face": Key("dir", "the facing at the end"),
        "formation": Key("formation", "X面Y上: stand in a row facing X, senior end toward Y"),
        "spacing": SPACING,
        "speed": Key("number", "尺 per second (default: settings.walk_speed)", lo=0, open_lo=True,
                     hi=50),
    }

    @staticmethod
    def compile(c, act, busy):
        return c.move(act, busy)


@verb
class Face(Verb):
    name = "face"
    doc = ("turn in place to a direction, or toward a place, a person or a prop; the short way "
           "round, or turn: 左 (左還, counter-clockwise seen from above) or 右 (右還, clockwise)")
    keys = {"who": WHO, "dir": Key("dir", "one of the eight directions"),
            "toward": Key("place", "a place, {actor: …} or {prop: …} to turn toward"),
            "turn": Key("text", "左 or 右: which way round (左還 / 右還)")}
    one_of = (("dir", "toward"),)

    @classmethod
    def check(cls, args, say):
        super().check(args, say)
        if "turn" in args and args["turn"] not in ("左", "右"):
            say(f"turn: expected 左 or 右, found {args['turn']!r}")

    @staticmethod
    def compile(c, act, busy):
        toward = act.args.get("toward")

        def turn(a: int, t: float) -> float:
            deg = act.args["dir"] if toward is None else c.heading_to(a, c.xy(toward, act.loc))
            return c.turn(a, t, deg, act.args.get("turn"))
        return each(c, act, busy, turn)


@verb
class Posture(Verb):
    name = "posture"
    doc = ("坐 sits (kneels) until 興; 立 stands; 拜 bows count times and 揖 salutes, then the "
           "person is as before: a 拜 made seated (坐奠觶，拜) ends seated")
    keys = {"who": WHO, "is": Key("posture", "立 坐 興 拜 揖", required=True),
            "count": Key("count", "how many bows (再拜 = 2); only with 拜", hi=9)}

    @classmethod
    def check(cls, args, say):
        super().check(args, say)
        if "count" in args and args.get("is") != "拜":
            say("count: goes only with is: 拜")

    @staticmethod
    def compile(c, act, busy):
        kind, n = act.args["is"], int(act.args.get("count", 1))
        return each(c, act, busy, lambda a, t: c.posture(a, t, kind, n))


@verb
class Take(Verb):
    name = "take"
    doc = ("pick a thing up where it lies, or from someone's hands (from: an actor); a bundle "
           "(乘矢) is taken whole")
    keys = {"who": ONE, "prop": Key("prop", "a prop, a bundle or one of a bundle", required=True),
            "from": Key("place", "an actor who hands it over, or where it lies (default: where "
                                 "it is)"),
            "count": Key("count", "only this many of a bundle: those lying nearest him, or "
                                  "handed over first (坐取中之八算)", hi=99),
            "gather": Key("flag", "true: walk to each piece of the bundle in turn, nearest first, "
                                  "picking each up where it lies (取矢: arrows round the 侯); of "
                                  "a bundle some of whose arrows were shot, only those"),
            "margin": Key("flag", "true: of a bundle of 算, as many as the round's tally's "
                                  "margin, those lying nearest (取賢獲: 齊之而取其餘), or two on a "
                                  "tie (左右皆執一算以告)")}

    @staticmethod
    def compile(c, act, busy):
        a = c.ai[act.args["who"][0]]
        src = act.args.get("from")
        giver = c.ai[src.actor] if src is not None and src.actor and src.place is None else None
        members = c.members(act.args["prop"])
        if "gather" in act.args:
            return c.gather(act, a, members, busy)
        if "count" in act.args:
            members = c.some(members, a, giver, int(act.args["count"]))
        if act.args.get("margin"):
            n = abs(c.tally["右"] - c.tally["左"]) or 2
            members = c.some(members, a, giver, n)
        for p in members:
            c.holder_check(act, p, giver, "take it")
        if giver is None:
            c.reach_check(act, a, c.prop_spot(members[0]), "take")
        else:
            c.reach_check(act, a, c.pos[giver], "take it from", HAND_REACH)
        t = busy.get(a, 0.0) + c.cfg.gestures["take"]
        if giver is not None:
            busy[giver] = max(busy.get(giver, 0.0), t)
        for p in members:
            c.set_prop(p, t, a, c.pos[a])
        busy[a] = t
        return t


@verb
class Put(Verb):
    name = "put"
    doc = ("set a thing down (奠): at a place, or by default just in front of the person "
           "(1 尺 the way he faces); at: {prop: X} is where X lies, or was last set down; "
           "mark: NAME names the spot for later (奠觶表其位: at: {mark: NAME} is 奠於其所)")
    keys = {"who": ONE, "prop": Key("prop", "a prop, a bundle or one of a bundle", required=True),
            "at": Key("place", "where it is set down"),
            "mark": Key("text", "a name for the spot, for {mark: NAME} later"),
            "count": Key("count", "only this many of those of a bundle he holds (實八算於中)",
                         hi=99)}

    @staticmethod
    def compile(c, act, busy):
        a = c.ai[act.args["who"][0]]
        members = c.members(act.args["prop"])
        if "count" in act.args:
            members = [p for p in members if c.holder[p] == a][:int(act.args["count"])]
        for p in members:
            c.holder_check(act, p, a, "set it down")
        spot = (c.xy(act.args["at"], act.loc) if "at" in act.args
                else c.pos[a] + c.unit(c.face[a]))
        c.reach_check(act, a, spot, "set it down at")
        t = busy.get(a, 0.0) + c.cfg.gestures["put"]
        for p in members:
            c.set_prop(p, t, SET_DOWN, spot)
        if "mark" in act.args:
            c.mark(act.args["mark"], spot)
        busy[a] = t
        return t


@verb
class Give(Verb):
    name = "give"
    doc = "hand a thing to someone within reach; both are busy until it has passed"
    keys = {"who": ONE, "prop": Key("prop", "a prop, a bundle or one of a bundle", required=True),
            "to": Key("actor", "who receives it", required=True)}

    @staticmethod
    def compile(c, act, busy):
        a, b = c.ai[act.args["who"][0]], c.ai[act.args["to"]]
        members = c.members(act.args["prop"])
        for p in members:
            c.holder_check(act, p, a, "hand it over")
        c.reach_check(act, a, c.pos[b], f"hand it to {c.script.cast[b].name}, who is", HAND_REACH)
        t = max(busy.get(a, 0.0), busy.get(b, 0.0)) + c.cfg.gestures["give"]
        for p in members:
            c.set_prop(p, t, b, c.pos[b])
        busy[a] = busy[b] = t
        return t


@verb
class Shoot(Verb):
    name = "shoot"
    doc = ("loose an arrow held (of a bundle: the first still in hand); it flies at 200 尺/s to "
           "at and lies there; without at, in a stage with scoring:, it is aimed at the 侯 and "
           "the seeded model (skill, --seed) says whether it hits and where it lands; a hit is "
           "called (唱獲) and, if the round counts, laid as a 算")
    keys = {"who": ONE, "prop": Key("prop", "an arrow, or a bundle of them", required=True),
            "at": Key("place", "where the arrow lands (default: at the 侯, by the model)")}

    @staticmethod
    def compile(c, act, busy):
        a = c.ai[act.args["who"][0]]
        members = c.members(act.args["prop"])
        held = [p for p in members if c.holder[p] == a]
        p = held[0] if held else members[0]
        c.holder_check(act, p, a, "shoot it")
        t = busy.get(a, 0.0) + c.cfg.gestures["shoot"]
        shot = act.args.get("shot")
        if shot is not None and act.args.get("music") is not None:
            t = c.on_beat(t, act.args["music"], shot.on_beat, shot.actor)
        goal = c.xy(act.args["at"], act.loc)
        c.set_prop(p, t, FLYING, c.pos[a])
        t_hit = t + float(np.hypot(*(goal - c.pos[a]))) / ARROW_SPEED
        c.set_prop(p, t_hit, SET_DOWN, goal)
        c.loose(p)
        if shot is not None:
            t_hit = c.scored(act, shot, p, t, t_hit, goal)
        busy[a] = t
        return t_hit


@verb
class Count(Verb):
    name = "count"
    doc = ("視算: the scorer counts the round's 算 (先數右獲; 二算為純，一算為奇) and announces the "
           "margin in the text's words (右賢於左若干純若干奇, or 左右鈞); the result decides "
           "who drinks (each: 不勝耦)")
    keys = {"who": ONE}

    @staticmethod
    def compile(c, act, busy):
        a = c.ai[act.args["who"][0]]
        return c.count(act, a, busy)


class _Things(Verb):
    """set and clear, one boolean apart: layout features of the name shown, or hidden."""
    shown = True

    @classmethod
    def compile(cls, c, act, busy):
        return c.show_things(act, busy, cls.shown)


def _thing_keys(who: str) -> dict:
    return {"thing": Key("thing", "a layout feature's name, or a list of them", required=True),
            "who": Key("who", who)}


@verb
class Set(_Things):
    name = "set"
    doc = ("things set out (設席, 設洗, 設楅, 張侯, the 物 drawn): layout features of that name "
           "appear; with who, he sets them and must be within reach")
    keys = _thing_keys("who sets it (optional)")


@verb
class Clear(_Things):
    name = "clear"
    doc = "things taken away (徹, 說侯, 退楅): layout features of that name disappear"
    keys = _thing_keys("who takes it away (optional)")
    shown = False


@verb
class Say(Verb):
    name = "say"
    doc = "words said, shown as a caption over the speaker (at least settings.gestures.say s)"
    keys = {"who": ONE, "text": Key("text", "the words", required=True)}

    @staticmethod
    def compile(c, act, busy):
        a = c.ai[act.args["who"][0]]
        t = busy.get(a, 0.0)
        text = act.args["text"]
        d = max(c.cfg.gestures["say"], 0.3 * len(text))
        c.event(t, t + d, "say", a, text)
        busy[a] = t + d
        return t + d


@verb
class Enter(Verb):
    name = "enter"
    doc = ("appear at a place (someone not yet in the scene comes in); what he holds comes in "
           "with him, even a thing not yet brought (absent)")
    keys = {"who": WHO, "at": Key("place", "where they appear", required=True),
            "face": Key("dir", "their facing"), "formation": Move.keys["formation"],
            "spacing": SPACING}

    @staticmethod
    def compile(c, act, busy):
        who = act.args["who"]
        form, face = act.args.get("formation"), act.args.get("face")
        t = c.start(busy, [c.ai[w] for w in who])
        spots = c.spots(who, c.xy(act.args["at"], act.loc), form, face, act.args.get("spacing"))
        for w, spot in zip(who, spots):
            a = c.ai[w]
            c.teleport(a, t, spot, form.facing if form else face)
            c.set_presence(a, t, True)
            # what he holds comes in with him (a thing declared absent in his hands: brought)
            for p in np.nonzero((c.holder == a) & ~c.visible)[0]:
                c.set_prop(int(p), t, a, spot)
            busy[a] = t + c.cfg.gestures["enter"]
        return t + c.cfg.gestures["enter"]


@verb
class Exit(Verb):
    name = "exit"
    doc = "leave the scene where one stands (walk to the gate first with move)"
    keys = {"who": WHO}

    @staticmethod
    def compile(c, act, busy):
        def leave(a: int, t: float) -> float:
            t += c.cfg.gestures["exit"]
            c.set_presence(a, t, False)
            return t
        return each(c, act, busy, leave)


@verb
class Wait(Verb):
    name = "wait"
    doc = ("nothing, for a time; with who, only they wait, so their next actions in this step "
           "start later")
    keys = {"dur": Key("number", "seconds", required=True, lo=0, hi=3600),
            "who": Key("who", "who waits (default: the step as a whole)")}

    @staticmethod
    def compile(c, act, busy):
        who = [c.ai[w] for w in act.args.get("who", ())]
        end = c.start(busy, who) + act.args["dur"]
        for a in who:
            busy[a] = end
        return end


@verb
class Label(Verb):
    name = "label"
    doc = ("from this moment the person is labelled so (作相為司正: the 相 becomes 司正); a "
           "stage's labels: set them as the stage opens")
    keys = {"who": WHO, "is": Key("text", "the new label (one to four characters)",
                                  required=True)}

    @classmethod
    def check(cls, args, say):
        super().check(args, say)
        if isinstance(args.get("is"), str) and not 1 <= len(args["is"]) <= 4:
            say("label is: one to four characters")

    @staticmethod
    def compile(c, act, busy):
        def relabel(a: int, t: float) -> float:
            c.set_label(a, t, act.args["is"])
            return t
        return each(c, act, busy, relabel)


@verb
class Dress(Verb):
    name = "dress"
    doc = ("what the text says they put on or off, in its words: 袒 bares the left arm, 襲 covers "
           "it; 決 (thumb-ring) and 遂 (arm-guard; 拾) put on, 説決拾 taken off; 搢扑 sticks the 扑 "
           "held in the belt, 去扑 takes it out (so does its leaving his hands); bow: 張 or 弛 "
           "strings or unstrings the bows he holds. Takes settings.gestures.dress s (1.2) for each "
           "thing put on or off, twice that to string or unstring a bow")
    keys = {"who": WHO,
            "is": Key("text", "the words, run together as the text has them: 袒決遂, 袒決, 袒, "
                              "襲, 説決拾 (or 說決拾), 襲説決拾, 搢扑, 去扑 …"),
            "bow": Key("text", "張 or 弛: the bows he holds are strung or unstrung (執張弓, "
                               "執弛弓)")}

    @classmethod
    def check(cls, args, say):
        super().check(args, say)
        if "is" not in args and "bow" not in args:
            say("dress needs is: (the words: 袒決遂, 襲 …) or bow: (張 or 弛)")
        if isinstance(args.get("is"), str) and dress_words(args["is"]) is None:
            say(f"is: expected the text's dress words run together (袒 襲 決 遂 拾 説決拾 搢扑 "
                f"去扑), found {args['is']!r}")
        if "bow" in args and args["bow"] not in ("張", "弛"):
            say(f"bow: expected 張 or 弛, found {args['bow']!r}")

    @staticmethod
    def compile(c, act, busy):
        words, bow = act.args.get("is", ""), act.args.get("bow")
        return each(c, act, busy, lambda a, t: c.dress(a, t, words, bow, act.loc))


_WORN_DOC = ("a worn thing: a prop declared with worn: 首 (head: 冠 弁 纚 笄), 身 (body: 服 韠 衣 "
             "裳) or 足 (feet: 屨)")


@verb
class Don(Verb):
    name = "don"
    doc = ("a worn thing put on who (加冠, 設纚, 服玄端): with by, another within reach puts it "
           "on him from his own hands (the actor, the one acted on and the thing); without, he "
           "puts it on himself, from his hands or from where it lies within reach. Over the "
           "action's time (settings.gestures.don, 2 s) it moves from the hands to where it is "
           "worn; after it he wears it and nobody holds it. One thing of each kind at a spot (冠 "
           "and 弁 count as one: a head has one cap); the 纚 and 笄 go under the cap, so on "
           "before it")
    keys = {"who": Key("one", "who it goes on", required=True),
            "prop": Key("worn", _WORN_DOC, required=True),
            "by": Key("actor", "who puts it on him (default: himself), from his hands, within "
                               "reach (加冠: the 賔; 設纚: the 贊者)")}

    @staticmethod
    def compile(c, act, busy):
        return c.don(act, busy)


@verb
class Doff(Verb):
    name = "doff"
    doc = ("a worn thing taken off who (脫, 徹): into by's hands (another within reach), or his "
           "own without by; to: sets it down there instead. Takes settings.gestures.doff s (1.5); "
           "a 纚 or 笄 comes off only after the cap over it")
    keys = {"who": Key("one", "who wears it", required=True),
            "prop": Key("worn", _WORN_DOC, required=True),
            "by": Key("actor", "who takes it off him (default: himself), into his hands"),
            "to": Key("place", "where it is then set down (default: it stays in the hands)")}

    @staticmethod
    def compile(c, act, busy):
        return c.doff(act, busy)
