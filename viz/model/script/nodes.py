"""The script's model: the frozen data classes a rite script is read into, and the directions.

Settings … Action, Step, Stage, Script, Shot, Result: what the reader builds (viz/model/script/
reader.py) and the compiler, the verbs and the queries read. DIRS, direction and formation read
the text's directions (東面北上 …); reading_matches says whether a variant answers a chosen reading.
No state: values only. Imports viz.base.errors and the standard library only, so that the verbs
(viz/model/verbs.py) can name Action without importing the reader, the schema or the compiler.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from viz.base.errors import Loc, Problem

DIRS = {"北": 0.0, "東北": 45.0, "東": 90.0, "東南": 135.0, "南": 180.0, "西南": 225.0,
        "西": 270.0, "西北": 315.0}


@dataclass(frozen=True)
class Settings:
    walk_speed: float = 4.0
    stair_step: float = 0.7
    turn: float = 0.4
    spacing: float = 3.0
    brisk_speed: float = 6.5  # 尺/s, about 1.5 m/s: faster than this looks like running
    gestures: Mapping[str, float] = field(default_factory=lambda: {
        "拜": 2.5, "揖": 1.0, "坐": 1.0, "興": 0.8, "立": 0.3, "say": 2.5, "take": 1.0,
        "put": 1.0, "give": 1.2, "enter": 0.5, "exit": 0.5, "shoot": 1.2, "set": 1.0,
        "clear": 1.0, "count": 1.0, "dress": 1.2})


@dataclass(frozen=True)
class Actor:
    id: str
    name: str
    party: str
    label: str
    note: str
    loc: Loc
    late: bool = False  # declared by a section: not in the scene until he enters
    body: str = ""  # the body he belongs to (the cast's bodies:, e.g. 三耦), "" none


@dataclass(frozen=True)
class PlaceRef:
    """A spot: a named place, an actor's position or a prop's, optionally offset (side+dist,
    or dx/dy). A prop's spot is where it lies, or where it was last set down if someone holds
    it now (奠於其所)."""

    loc: Loc
    place: str | None = None
    actor: str | None = None
    prop: str | None = None
    mark: str | None = None  # a spot named by an earlier put (put: {…, mark: NAME})
    side: float | None = None  # degrees, 0 = north
    dist: float = 3.0
    dx: float = 0.0
    dy: float = 0.0


@dataclass(frozen=True)
class Said:
    """Words of the text someone says (say: {cite: …}): the cite as written, the span of the
    text it names (from its first fragment to its last) and those words as the text has them
    (the 經 and 記, punctuated, the 注 between left out)."""

    cite: str
    span: tuple[int, int]
    text: str


@dataclass(frozen=True)
class Way:
    """A named way of the text (由楹内 …): its places, walked in whichever direction fits."""

    name: str
    places: tuple[PlaceRef, ...]


@dataclass(frozen=True)
class Prop:
    id: str
    name: str
    kind: str
    at: PlaceRef | None
    held_by: str | None
    loc: Loc
    absent: bool = False
    bundle: str = ""  # the bundle's id when this prop is one of a counted bundle
    brought: str = ""  # the words that bring it in, when it first appears in a hand (issue 26)
    worn: str = ""  # where it is worn (首 身 足: viz.model.dress.SPOTS), "" for a thing not worn
    worn_by: str | None = None  # who wears it from the start (instead of at: or held_by:)
    face: float | None = None  # its own facing as it lies (a 筵 spread 南面), degrees


@dataclass(frozen=True)
class PropPlacement:
    """Where a prop is when a stage opens: set down, in someone's hands, or not yet brought."""

    prop: str
    at: PlaceRef | None  # neither at nor held_by nor absent: brought in where it was declared
    held_by: str | None
    absent: bool
    loc: Loc
    worn_by: str | None = None  # worn by him as the stage opens (a worn thing: don, doff)


@dataclass(frozen=True)
class ThingPlacement:
    """Layout features (席, 洗, 侯 …) shown or hidden as a stage opens."""

    things: tuple[str, ...]
    absent: bool
    loc: Loc


@dataclass(frozen=True)
class Formation:
    facing: float  # degrees the row faces
    senior: float  # degrees of the direction the senior end lies toward
    text: str


@dataclass(frozen=True)
class Action:
    verb: str
    args: Mapping[str, Any]
    loc: Loc


@dataclass(frozen=True)
class Expect:
    """What an author asserts about someone when the step has ended (checked when compiled)."""

    who: tuple[str, ...]
    loc: Loc
    at: PlaceRef | None = None
    within: float = 1.0
    face: float | None = None
    posture: str | None = None
    holding: tuple[str, ...] | None = None
    present: bool | None = None


@dataclass(frozen=True)
class Step:
    cite: str
    span: tuple[int, int]
    actions: tuple[Action, ...]
    dur: float | None
    note: str
    reading: str
    loc: Loc
    pattern: str = ""
    expect: tuple[Expect, ...] = ()
    drinks: tuple[str, int] | None = None  # (loser, round): this step begins his drinking
    said: bool = True  # False: a move the text does not say (a return to place, a turn): it
    # enacts no clause, so a clause's moment is over before it begins
    rep: int = 0  # the member's number ($i) when the citing step repeats (each:), else 0


@dataclass(frozen=True)
class Placement:
    who: tuple[str, ...]
    at: PlaceRef
    face: float | None
    formation: Formation | None
    spacing: float | None
    posture: str
    holding: tuple[str, ...]
    absent: bool
    cite: str
    loc: Loc


@dataclass(frozen=True)
class Rule:
    """A clause a stage does not enact (a rule, not an action), and why."""

    cite: str
    span: tuple[int, int]
    note: str
    loc: Loc


@dataclass(frozen=True)
class Music:
    piece: str
    beat: float  # seconds between drum beats
    ends: int | None  # 終: how many times the piece is played through; None: while they shoot
    beats_per_end: int
    start: str | None = None  # the clause that orders it (乃奏騶虞以射): it begins with that step


@dataclass(frozen=True)
class Scoring:
    round: int
    tally: str | None  # the actor who lays the 算 (釋獲), or None (獲而未釋獲)
    music: Music | None = None
    caller: str | None = None  # who calls each hit (唱獲)


@dataclass(frozen=True)
class Shot:
    """One arrow loosed in a round, and what the seeded model made of it."""

    round: int
    actor: str
    n: int  # 1-based: his n-th arrow in the round
    side: str | None  # 右 (上射), 左 (下射)
    hit: bool
    on_beat: bool  # released on the drum's beat (always true without music)
    tallied: bool  # laid as a 算: a hit, on the beat, in a round that counts


@dataclass(frozen=True)
class Result:
    round: int
    right: int
    left: int
    announce: str
    winner: str | None  # 右, 左 or None (左右鈞)


@dataclass(frozen=True)
class Stage:
    name: str
    section: str
    setup: tuple[Placement | PropPlacement | ThingPlacement, ...]
    steps: tuple[Step, ...]
    loc: Loc
    labels: Mapping[str, str] = field(default_factory=dict)
    gap: str = ""  # "6–13": the sections before this stage that are not enacted
    rules: tuple[Rule, ...] = ()  # clauses the stage does not enact, with the reason
    scoring: Scoring | None = None  # a round of shooting (or part of one)
    number: int = 0  # the section's number in the text (0: unknown)
    setup_cites: tuple[Rule, ...] = ()  # setup items' cites (cast here): the clauses they enact


@dataclass(frozen=True)
class Script:
    file: str
    rite: str
    settings: Settings
    cast: tuple[Actor, ...]
    props: tuple[Prop, ...]
    stages: tuple[Stage, ...]
    warnings: tuple[Problem, ...] = ()
    readings: tuple[str, ...] = ()  # the readings the script's variants name
    files: tuple[str, ...] = ()  # every file read (a folder's manifest, cast, patterns, sections)
    scenario: Mapping[str, float] = field(default_factory=dict)  # --set values, resolved
    seed: int = 0
    sides: Mapping[str, str] = field(default_factory=dict)  # archer → 右 | 左
    skills: Mapping[str, float] = field(default_factory=dict)
    shots: tuple[Shot, ...] = ()
    results: tuple[Result, ...] = ()
    set_out: tuple[str, ...] = ()  # layout features hidden until a step sets them
    stages_total: int | None = None  # how many the whole script has (more: a prefix, upto=)


def direction(v: Any) -> float | None:
    return DIRS.get(str(v).removesuffix("面")) if isinstance(v, str) else None


def formation(v: Any) -> Formation | None:
    m = re.fullmatch(r"(北|東|南|西)面(北|東|南|西)上", v) if isinstance(v, str) else None
    return Formation(DIRS[m.group(1)], DIRS[m.group(2)], v) if m else None


def reading_matches(chosen: Sequence[str], name: str) -> bool:
    """Does a variant's reading name (e.g. 敖繼公) answer one of the chosen readings (敖)?"""
    return any(r and r in name for r in chosen)
