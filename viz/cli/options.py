"""What the subcommands share: the options every command takes (--script, --layout, --reading,
--set, --seed), the moment (--at, --after, --stage), sizes, loading a rite, printing warnings.
Imports no subcommand module (viz.cli.main alone does)."""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

from viz import DEFAULT_LAYOUT, DEFAULT_SCRIPT
from viz.base.errors import InputError, Loc, Problem

VALUE_OPTIONS = {"--script", "--layout", "--reading", "--set", "--seed", "--at", "--after",
                 "--stage", "-o",
                 "--output", "--size", "--part", "--from", "--to", "--fps", "--speed", "--audio",
                 "--jobs", "--format", "--style", "--trails", "--follow", "--dpi"}


def load_all(script_path: str | Path, layout_path: str | Path, readings: tuple = (),
             args=None):
    """Layout, text, script → checked model → compiled timeline (a model.Compiled);
    InputError on any problem, including a reading no file knows. args: the command line's
    --set and --seed (the scenario)."""
    from viz.model.rite import load

    return load(script_path, layout_path, readings, *scenario_of(args))


def scenario_of(args) -> tuple[list[tuple[str, str]], int | None]:
    """--set KEY=VALUE … and --seed N from parsed arguments (none given: the defaults)."""
    from viz.model.scenario import parse_sets

    try:
        sets = parse_sets(getattr(args, "set", None) or [])
    except ValueError as e:
        raise InputError(Problem(Loc("--set", 1, 1), str(e))) from None
    return sets, getattr(args, "seed", None)


def _shown(path: Path) -> str:
    """A bundled file's path as a user would type it: relative when under the current folder."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)
    return str(path) if rel.startswith("..") else rel


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--script", default=_shown(DEFAULT_SCRIPT), metavar="PATH",
                   help="a rite folder, its manifest.yaml, or a one-file script (default: the "
                        "bundled 鄉射禮, assets/rites/xiangshe)")
    p.add_argument("--layout", default=_shown(DEFAULT_LAYOUT), metavar="FILE",
                   help="hall layout (default: layouts/xu.yaml, the 州序 as 鄭 reads it)")
    p.add_argument("--reading", action="append", default=[], metavar="NAME",
                   help="follow another commentator wherever the layout or the script keeps "
                        "his variant (e.g. 敖: 物 under 5 尺 apart, 乏 from the 侯's west edge); "
                        "repeatable; a name no file knows is an error listing the known ones")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a scenario setting the text leaves open (repeatable): 大夫=0|1|2, "
                        "衆賔=2..9, skill.ACTOR=0..1 (an archer's chance of a hit); an unknown "
                        "key is an error listing the known ones")
    p.add_argument("--seed", type=int, default=None, metavar="N",
                   help="seed of the shooting's hit model (default 1: the bundled rite always "
                        "plays the same; the same seed gives the same rite)")


def _when(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument("--at", type=float, metavar="SECONDS", help="a time from the start")
    g.add_argument("--after", metavar="TEXT",
                   help="when the step citing the last character of TEXT has finished")
    g.add_argument("--stage", metavar="NAME", help="the end of that stage (its name, a beginning of one name, or its number)")


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
        if w < 64 or h < 64 or w > 8000 or h > 8000:
            raise ValueError
        return w, h
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WxH between 64 and 8000, e.g. 1280x800; "
                                         f"found {text!r}") from None


def _print_warnings(warnings) -> None:
    for w in warnings:
        print(w, file=sys.stderr)




def _piped(cmd: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Let `text … | head` stop quietly when the reader closes the pipe."""
    def run(args: argparse.Namespace) -> int:
        try:
            return cmd(args)
        except BrokenPipeError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
    return run
