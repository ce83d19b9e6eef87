"""Located errors: every problem in user input names file, line and column."""
from __future__ import annotations

from dataclasses import dataclass

# A message longer than this is cut when shown: a value echoed back in full (a 5 MB scalar, a
# whole document) would bury the location it is meant to point at.
MAX_MESSAGE = 1000


def shorten(text: str, limit: int = 200) -> str:
    """`text` itself if it is at most `limit` characters, else its start, '…' and its length."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({_count(len(text), 'character')})"


def clip(value: object, limit: int = 80) -> str:
    """A short repr-like form of any value for an error message: "'abcd…' (5,000,000 characters)".

    Strings and bytes keep their quotes and are cut inside them; lists, dicts, tuples and sets show
    their first items and their size; anything else is its repr cut to `limit`. The work done is
    bounded by `limit`, not by the size of the value, so a huge value costs nothing to describe.
    """
    if isinstance(value, (str, bytes, bytearray)):
        return _clip_text(value, limit)
    if isinstance(value, (list, tuple, dict, set, frozenset)):
        return _clip_items(value, limit)
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit:
        return f"<an integer of {value.bit_length():,} bits>"  # repr would be slow, or refused
    try:
        text = repr(value)
    except Exception:  # a repr that fails must not turn an error message into another error
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


def _clip_text(value: str | bytes | bytearray, limit: int) -> str:
    def shown(n: int) -> str:
        r = repr(value[:n])
        return r[len("bytearray("):-1] if isinstance(value, bytearray) else r

    if len(value) <= limit and len(shown(limit)) <= limit:
        return shown(limit)
    # escapes make a repr longer than its text: the longest head whose repr fits, by bisection
    lo, hi = 1, min(limit, len(value))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if len(shown(mid)) <= limit else (lo, mid - 1)
    head = shown(lo)
    return f"{head[:-1]}…{head[-1]} ({_count(len(value), 'character' if isinstance(value, str) else 'byte')})"


def _count(n: int, unit: str) -> str:
    return f"{n:,} {unit}{'' if n == 1 else 's'}"


def _clip_items(value: list | tuple | dict | set | frozenset, limit: int) -> str:
    if isinstance(value, (dict, set, frozenset)):
        left, right = "{", "}"
    else:
        left, right = ("(", ")") if isinstance(value, tuple) else ("[", "]")
    inner = limit // 3  # each item gets a share of the room, so nested values stay bounded
    parts: list[str] = []
    used = 2
    for item in (value.items() if isinstance(value, dict) else value) if inner >= 4 else ():
        part = (f"{clip(item[0], inner)}: {clip(item[1], inner)}" if isinstance(value, dict)
                else clip(item, inner))
        if used + len(part) + 2 > limit:
            break
        parts.append(part)
        used += len(part) + 2
    if len(parts) == len(value):
        return left + ", ".join(parts) + right
    return f"{left}{', '.join([*parts, '…'])}{right} ({_count(len(value), 'item')})"


@dataclass(frozen=True)
class Loc:
    file: str
    line: int  # 1-based
    col: int  # 1-based

    def __str__(self) -> str:
        if self.line <= 0:  # an option of the command line, not a line of a file
            return self.file
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True)
class Problem:
    loc: Loc
    message: str
    warning: bool = False

    def __str__(self) -> str:
        kind = "warning: " if self.warning else ""
        return f"{self.loc}: {kind}{shorten(self.message, MAX_MESSAGE)}"


class InputError(Exception):
    """One or more located problems in a user's file; the CLI prints them and exits 2."""

    def __init__(self, problems: list[Problem] | Problem):
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


# A run stops at this many errors: a rite whose sections repeat (or whose patterns repeat a
# mistake) would otherwise spend minutes and gigabytes listing tens of thousands of them.
MAX_ERRORS = 500


class Collector:
    """Gathers problems so one run reports all of them, not just the first."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def error(self, loc: Loc, message: str) -> None:
        self.problems.append(Problem(loc, message))
        self.errors_seen = getattr(self, "errors_seen", 0) + 1
        if self.errors_seen >= MAX_ERRORS:  # the rest would repeat these, slowly: stop here
            raise InputError([*self.errors, Problem(loc, f"{MAX_ERRORS:,} errors; stopped here "
                                                         "(the rest is not checked)")])

    def warn(self, loc: Loc, message: str) -> None:
        self.problems.append(Problem(loc, message, warning=True))

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if not p.warning]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.warning]

    def raise_if_errors(self) -> None:
        if self.errors:
            raise InputError(self.errors)
