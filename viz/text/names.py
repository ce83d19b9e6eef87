"""One way to name a stage (or a section of the text) for every command: its number (1, ①, １),
its name (variants equal), or the beginning of one name (初射 → 初射獲而未釋獲)."""
from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from viz.text.variants import normalize


class UnknownName(LookupError):
    """The words name nothing, or begin several names: the message lists the candidates."""


def number_of(text: str) -> int | None:
    """The whole number a stage's name stands for: ASCII or full-width digits (12, １２) or one
    circled number (⑫); None for anything else."""
    s = text.strip()
    if not s:
        return None
    if s.isdecimal():  # every decimal digit Unicode knows; int() reads them all
        return int(s)
    if len(s) == 1:
        v = unicodedata.numeric(s, None)
        if v is not None and v == int(v) and v >= 0:
            return int(v)
    return None


def pick(text: str, names: Sequence[str], what: str = "stage",
         also: Sequence[str] | None = None) -> list[int]:
    """The 0-based indices `text` names among `names`: [i] for a number or a unique beginning;
    every index of an exact name (a name may repeat: 取矢視算). `also`: a second name for each
    (a stage's section), matched exactly. UnknownName when nothing, or several beginnings, match;
    its message lists the candidates."""
    n = number_of(text)
    if n is not None:
        if 1 <= n <= len(names):
            return [n - 1]
        raise UnknownName(f"no {what} {text.strip()!r}: expected a number from 1 to {len(names)}, "
                         f"or a name: {_listed(names)}")
    want = normalize(text.strip().removeprefix("右"))
    exact = [i for i, nm in enumerate(names)
             if want and (normalize(nm) == want or (also and normalize(also[i]) == want))]
    if exact:
        return exact
    # a name beginning with the words, then (as the window's type-ahead finds it) a name
    # holding them (射 → the shooting stages): one is taken, several are listed
    for matches, says in ((lambda nm: nm.startswith(want), "begins {n} {what}s"),
                          (lambda nm: want in nm, "is in {n} {what} names")):
        found = [i for i, nm in enumerate(names) if want and matches(normalize(nm))]
        if len(found) == 1:
            return found
        if found:
            raise UnknownName(f"{text!r} {says.format(n=len(found), what=what)}: "
                             f"{'、'.join(f'{i + 1} {names[i]}' for i in found)}; say which (or "
                             f"its number)")
    near = nearest(want, names)
    guess = f"; did you mean {near[0] + 1} {names[near[0]]}?" if near else ""
    raise UnknownName(f"no {what} named {text!r}{guess} Expected a number from 1 to "
                     f"{len(names)} or one of: {_listed(names)}")


def nearest(want: str, names: Sequence[str]) -> list[int]:
    """The names a misspelt one is nearest to (best first; none when nothing is near): each
    compared whole and by its beginning as long as the words (初設 → 初射獲而未釋獲)."""
    import difflib

    scored = []
    for i, nm in enumerate(names):
        n = normalize(nm)
        r = max(difflib.SequenceMatcher(None, want, n).ratio(),
                difflib.SequenceMatcher(None, want, n[:len(want)]).ratio())
        r += 0.01 * (n[:1] == want[:1])  # a tie goes to the name that begins as typed
        if r >= 0.5:
            scored.append((-r, i))
    return [i for _, i in sorted(scored)]


def _listed(names: Sequence[str]) -> str:
    return "、".join(f"{i + 1} {nm}" for i, nm in enumerate(names))
