"""The `diff` subcommand (two readings or two scripts, step by step) and `check --watch`."""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from viz.model.rite import DEFAULT_READING

POLL_SECONDS = 0.5  # a save shows within a second; a poll is a few stat calls


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Register `diff` on an argparse subparsers object."""
    from viz.cli.options import _piped, add_rite, on_rite

    p = subparsers.add_parser(
        "diff", help="where two readings (or two scripts) differ: who stands, faces or walks "
                     "elsewhere, step by step, with the notes of each side",
        description="Compare two readings (--reading A --reading B; one --reading is compared "
                    "with 鄭) or two scripts (--script OLD --script NEW, under the same layout "
                    "and readings). Steps are matched by the words they cite. Exit status: 0 "
                    "no differences, 1 differences, 2 an error.")
    add_rite(p)
    p.add_argument("--script", action="append", default=[], metavar="PATH",
                   help="a rite folder, its manifest.yaml, or a one-file script; give two to "
                        "compare them (default: the --rite's, else the bundled 鄉射禮)")
    p.add_argument("--layout", default=None, metavar="FILE",
                   help="hall layout (default: the one the rite's manifest names)")
    p.add_argument("--reading", action="append", default=[], metavar="NAME",
                   help="a reading to compare (one: against 鄭; two: with each other); with "
                        "two --script, the readings both are compiled under")
    p.add_argument("--json", action="store_true",
                   help="one JSON object (documented in viz/query/diff.py)")
    p.set_defaults(func=_piped(on_rite(cmd_diff)))


def _sides(args: argparse.Namespace, spec) -> list[tuple[str, object]]:
    """(label, RiteSpec) of the two sides the options ask for: the spec under each reading, or
    each --script under the spec's layout and readings."""
    from dataclasses import replace

    from viz.model.package import of_script
    from viz.query.state import QueryError

    scripts, readings = list(args.script), list(args.reading)
    if len(scripts) > 2:
        raise QueryError(f"diff: at most two --script, found {len(scripts)}")
    if len(scripts) == 2:
        a, b = scripts
        sb = spec if b == a else replace(spec, package=replace(of_script(b), script=Path(b),
                                                               layout=spec.layout))
        return [(a, spec), (b if b != a else f"{b} (again)", sb)]
    if not readings or len(readings) > 2:
        raise QueryError("diff: give --reading NAME (compared with 鄭) or --reading A --reading "
                         f"B, or two --script; found {len(readings)} --reading")
    if len(readings) == 1:
        readings.insert(0, DEFAULT_READING)
    return [(r, spec.under((r,))) for r in readings]


def cmd_diff(args: argparse.Namespace, spec) -> int:
    from viz.model.rite import Rite
    from viz.query.diff import diff, format_table, to_json
    from viz.text import load_corpus

    corpus = load_corpus(spec.package.text)
    rites: dict[object, Rite] = {}
    got = []
    for label, side in _sides(args, spec):
        rite = rites.setdefault(side.package, Rite(side, corpus=corpus))
        got.append((label, rite.get(side.readings)))
    (la, a), (lb, b) = got
    d = diff(a, b, la, lb)
    print(json.dumps(to_json(d), ensure_ascii=False, indent=2) if args.json else format_table(d))
    return 1 if d.steps or d.only_a or d.only_b else 0


# ---------------------------------------------------------------------------- check --watch


def watch(args: argparse.Namespace, report: Callable[[argparse.Namespace, object], int], *,
          spec=None, sleep: Callable[[float], None] | None = None,
          clock: Callable[[], float] = time.time,
          polls: int | None = None) -> int:
    """Check, then re-check whenever a file of the rite changes, until Ctrl-C (status 0).
    report(args, compiled) prints a good result as `check` does; sleep, clock and polls (how
    many polls before returning; None: forever) are for tests, which must not wait."""
    from viz.model.reload import Reloader

    sleep = sleep or time.sleep  # looked up now, so a test can replace time.sleep
    from viz.cli.options import spec_of

    # spec: the options' RiteSpec (a caller that parsed the options itself has none)
    reloader = Reloader(spec if spec is not None else spec_of(args))

    def show(result, what: str) -> None:
        stamp = time.strftime("%H:%M:%S", time.localtime(clock()))
        # the reload's own time: the motion checks that report() runs come on top
        print(f"[{stamp}] {what} — loaded in {result.seconds:.2f} s", flush=True)
        if result.ok:
            report(args, result.compiled)
        else:  # as `check` prints them, but the last good version is still what plays
            for p in result.problems:
                print(p, file=sys.stderr)
            n = len(result.problems)
            print(f"{n} error{'s' if n != 1 else ''}; watching for changes (Ctrl-C ends)",
                  file=sys.stderr, flush=True)

    try:
        show(reloader.result, "checked")
        n = 0
        while polls is None or n < polls:
            sleep(POLL_SECONDS)
            n += 1
            got = reloader.check()
            if got is not None:
                show(got, "changed: " + ", ".join(_short(p) for p in got.changed))
    except KeyboardInterrupt:
        print("", flush=True)  # the terminal's ^C is left on a line of its own
    return 0


def _short(path: str) -> str:
    """A changed file as a user would type it: relative to the current folder when inside."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel
