"""Located errors: every problem in user input names file, line and column."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Loc:
    file: str
    line: int  # 1-based
    col: int  # 1-based

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True)
class Problem:
    loc: Loc
    message: str
    warning: bool = False

    def __str__(self) -> str:
        kind = "warning: " if self.warning else ""
        return f"{self.loc}: {kind}{self.message}"


class InputError(Exception):
    """One or more located problems in a user's file; the CLI prints them and exits 2."""

    def __init__(self, problems: list[Problem] | Problem):
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class Collector:
    """Gathers problems so one run reports all of them, not just the first."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def error(self, loc: Loc, message: str) -> None:
        self.problems.append(Problem(loc, message))

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
