"""What the text leaves open, settled per run: scenario settings (--set), who is cast, the
groups a step repeats over (each:), and the seeded model of the shooting (hits, the count).

Everything here is a pure function of the rite's declarations, the --set values and the seed,
so the same seed always gives the same rite (tests/test_scoring.py).
"""
from __future__ import annotations

import re
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

WHEN_RE = re.compile(r"^\s*([^\s<>=!]+)\s*(>=|<=|==|!=|>|<)\s*(-?\d+(?:\.\d+)?)\s*$")
OPS = {">=": np.greater_equal, "<=": np.less_equal, "==": np.equal, "!=": np.not_equal,
       ">": np.greater, "<": np.less}
DEFAULT_SEED = 1
DEFAULT_SKILL = 0.5


@dataclass(frozen=True)
class Setting:
    name: str
    default: float
    lo: float
    hi: float
    doc: str
    whole: bool = True


def declared(doc: Mapping) -> dict[str, Setting]:
    """The rite's scenario settings (cast file `scenario:`) and one skill.ACTOR per archer who
    declares a skill, plus seed."""
    out: dict[str, Setting] = {}
    for name, spec in (doc.get("scenario") or {}).items():
        out[name] = Setting(name, float(spec["default"]), float(spec.get("min", 0)),
                            float(spec.get("max", 99)), spec.get("doc", ""),
                            isinstance(spec["default"], int))
    for a in doc.get("cast") or ():
        if "skill" in a:
            out[f"skill.{a['id']}"] = Setting(f"skill.{a['id']}", float(a["skill"]), 0.0, 1.0,
                                              f"{a['name']}'s chance of hitting the 侯", False)
    return out


def resolve(decl: Mapping[str, Setting], sets: Sequence[tuple[str, str]]) -> tuple[dict, list]:
    """Defaults overridden by --set KEY=VALUE; problems as messages (unknown key, bad value)."""
    values = {k: s.default for k, s in decl.items()}
    problems = []
    for key, raw in sets:
        s = decl.get(key)
        if s is None:
            problems.append(f"--set {key}: no such setting; known: {', '.join(decl) or 'none'}")
            continue
        try:
            v = float(raw)
        except ValueError:
            problems.append(f"--set {key}={raw}: expected a number from {s.lo:g} to {s.hi:g}")
            continue
        if not s.lo <= v <= s.hi or (s.whole and v != int(v)):
            kind = "a whole number" if s.whole else "a number"
            problems.append(f"--set {key}={raw}: expected {kind} from {s.lo:g} to {s.hi:g}")
            continue
        values[key] = v
    return values, problems


def parse_sets(items: Sequence[str]) -> list[tuple[str, str]]:
    """KEY=VALUE strings → pairs; ValueError naming the bad one."""
    out = []
    for it in items:
        if "=" not in it:
            raise ValueError(f"--set {it}: expected KEY=VALUE, e.g. --set 大夫=0")
        k, v = it.split("=", 1)
        out.append((k.strip(), v.strip()))
    return out


def check_when(expr: object, names) -> str | None:
    """A problem with a `when:` expression, or None. Conditions joined by `&` must all hold
    (大夫==0 & 衆賔<=3)."""
    for part in expr.split("&") if isinstance(expr, str) else [expr]:
        m = WHEN_RE.match(part) if isinstance(part, str) else None
        if m is None:
            return (f"when: expected SETTING OP NUMBER (e.g. 大夫>=1), or several joined by &, "
                    f"found {expr!r}")
        if m.group(1) not in names:
            return f"when: no setting {m.group(1)!r}; known: {', '.join(names) or 'none'}"
    return None


def holds(expr: str, values: Mapping[str, float]) -> bool:
    for part in expr.split("&"):
        name, op, num = WHEN_RE.match(part).groups()
        if not OPS[op](values[name], float(num)):
            return False
    return True


ELDERS = 3  # the 衆賔之長 who have 席 on the 堂 (注: 衆賔之長升拜受者三人)


def pair_up(zhongbin: Sequence[str], dafu: Sequence[str]) -> list[tuple[str, str]]:
    """The 衆賔's pairs (衆耦): each 大夫 the 下射 of a 士 (記: 大夫與士為耦; 經: 大夫為下射),
    the eldest of those below (賈疏: 堂上三賓不與大夫為耦; the 衆賔之長 only when nobody is
    below), then the rest paired in order of age (an odd one left over does not shoot).
    敖繼公 gives the 大夫 the eldest 衆賔 (a note in the script)."""
    rest = list(zhongbin)
    pairs = []
    for d in dafu:
        if not rest:
            break
        below = rest[ELDERS:] if len(zhongbin) > ELDERS else []
        pick = next((z for z in rest if z in below), rest[0])
        rest.remove(pick)
        pairs.append((pick, d))
    pairs += [(rest[i], rest[i + 1]) for i in range(0, len(rest) - 1, 2)]
    return pairs


def _rng(seed: int, actor: str, rnd: int, n: int) -> np.random.Generator:
    """One generator per arrow, keyed by what the arrow is (not by the order it is read), so a
    change elsewhere in the script does not reshuffle every other arrow."""
    return np.random.default_rng([seed & 0xFFFFFFFF, zlib.crc32(actor.encode()), rnd, n])


def loose(seed: int, actor: str, rnd: int, n: int, skill: float,
          music: bool) -> tuple[bool, bool, float, float]:
    """(hit, on the beat, dx, dy): where the arrow lands relative to the 侯's foot (place 侯,
    the cloth's line; its face is laid north of it, 躬 and 中 from 0.5 to 17 尺)."""
    g = _rng(seed, actor, rnd, n)
    hit = bool(g.random() < skill)
    on_beat = bool(g.random() < 0.5 + skill / 2) if music else True
    if hit:  # somewhere on the 躬 and 中 (20 wide, the face's middle)
        dx, dy = g.uniform(-9.0, 9.0), g.uniform(1.0, 16.5)
    elif g.random() < 0.5:  # short: on the ground before the 侯
        dx, dy = g.uniform(-14.0, 14.0), g.uniform(19.0, 40.0)
    else:  # wide: beside it
        dx, dy = g.choice([-1.0, 1.0]) * g.uniform(22.0, 32.0), g.uniform(2.0, 20.0)
    return hit, on_beat, float(dx), float(dy)


NUMERALS = "〇一二三四五六七八九十"


def numeral(n: int) -> str:
    """Chinese numerals as the text writes them (一, 十, 十二, 二十一)."""
    if n <= 10:
        return NUMERALS[n]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else NUMERALS[tens]) + "十" + (NUMERALS[ones] if ones else "")


def announce(right: int, left: int) -> tuple[str, str | None]:
    """視算: 二算為純，一算為奇; 若右勝則曰右賢於左，若左勝則曰左賢於右，以純數告，若有奇
    者亦曰奇; 若左右鈞則左右皆執一算以告曰左右鈞. The margin is what is told (注: 賢猶勝也;
    疏: 以勝數告)."""
    if right == left:
        return "左右鈞", None
    win, lose, side = (right, left, "右") if right > left else (left, right, "左")
    other = "左" if side == "右" else "右"
    chun, qi = divmod(win - lose, 2)
    words = f"{side}賢於{other}"
    if chun:
        words += f"{numeral(chun)}純"
    if qi:
        words += f"{numeral(qi)}奇"
    return words, side
