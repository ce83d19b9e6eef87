"""The command line: play (the window), shot, state, check, text, find — all but play headless."""
from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from viz import DEFAULT_LAYOUT, DEFAULT_SCRIPT
from viz.errors import Collector, InputError


@dataclass(frozen=True)
class Loaded:
    layout: object
    corpus: object
    script: object
    timeline: object
    warnings: tuple


def load_all(script_path: str | Path, layout_path: str | Path, readings: tuple = ()) -> Loaded:
    """Layout, text, script → checked model → compiled timeline; InputError on any problem."""
    from viz.compile import compile_script
    from viz.layout import load_layout
    from viz.script import load_script
    from viz.text import load_corpus

    layout = load_layout(layout_path, readings=tuple(readings))
    corpus = load_corpus()
    script = load_script(script_path, layout, corpus)
    out = Collector()
    timeline = compile_script(script, layout, out)
    warnings = tuple(getattr(layout, "warnings", ())) + script.warnings + tuple(out.warnings)
    return Loaded(layout, corpus, script, timeline, warnings)


def _shown(path: Path) -> str:
    """A bundled file's path as a user would type it: relative when under the current folder."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)
    return str(path) if rel.startswith("..") else rel


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--script", default=_shown(DEFAULT_SCRIPT), metavar="FILE",
                   help="rite script (default: the bundled 鄉射禮)")
    p.add_argument("--layout", default=_shown(DEFAULT_LAYOUT), metavar="FILE",
                   help="hall layout (default: layouts/xu.yaml, the 州序 as 鄭 reads it)")
    p.add_argument("--reading", action="append", default=[], metavar="NAME",
                   help="follow another commentator where the layout keeps his variant "
                        "(e.g. 敖: 物 under 5 尺 apart, 乏 from the 侯's west edge); repeatable")


def _when(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument("--at", type=float, metavar="SECONDS", help="a time from the start")
    g.add_argument("--after", metavar="TEXT",
                   help="when the step citing the last character of TEXT has finished")
    g.add_argument("--stage", metavar="NAME", help="the end of that stage (name or number)")


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
        if w < 64 or h < 64 or w > 8000 or h > 8000:
            raise ValueError
        return w, h
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WxH between 64 and 8000, e.g. 1280x800; "
                                         f"found {text!r}") from None


def cmd_play(args) -> int:
    from viz.app import run

    d = load_all(args.script, args.layout, args.reading)
    _print_warnings(d.warnings)
    return run(d.layout, d.timeline, d.corpus, script_path=args.script, layout_path=args.layout)


def cmd_shot(args) -> int:
    from viz.query import QueryError, resolve_time
    from viz.shot import render_png

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    if Path(args.output).suffix.lower() != ".png":
        raise QueryError(f"-o {args.output}: expected a file name ending in .png")
    d = load_all(args.script, args.layout, args.reading)
    t = resolve_time(d.timeline, d.corpus, args.at, args.after, args.stage)
    path = render_png(d.layout, d.timeline, d.corpus, t, size=args.size, path=args.output,
                      overwrite=args.force)
    print(f"wrote {path} (t = {t:.1f} s)")
    return 0


def cmd_state(args) -> int:
    from viz.query import format_state, resolve_moment, state

    d = load_all(args.script, args.layout, args.reading)
    m = resolve_moment(d.timeline, d.corpus, args.at, args.after, args.stage)
    s = state(d.timeline, d.layout, d.corpus, m.t, m.step, m.closing)
    print(json.dumps(s, ensure_ascii=False, indent=2) if args.json else format_state(s))
    return 0


def cmd_check(args) -> int:
    d = load_all(args.script, args.layout, args.reading)
    _print_warnings(d.warnings)
    tl = d.timeline
    print(f"ok: {args.layout}: {len(d.layout.places)} places, reading {d.layout.reading}; "
          f"{args.script}: "
          f"{len(tl.actors)} actors, {len(tl.props)} props, {len(tl.stages)} stages, "
          f"{len(tl.steps)} steps, {tl.duration:.0f} s; {len(d.warnings)} warnings")
    return 0


def _print_warnings(warnings) -> None:
    for w in warnings:
        print(w, file=sys.stderr)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python main.py",
        description="鄉射禮: the Zhou village archery rite, played from its text. With no "
                    "command, plays the bundled rite in a window.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    play = sub.add_parser("play", help="play the rite in a window (the default)")
    _common(play)
    play.set_defaults(func=cmd_play)
    shot = sub.add_parser("shot", help="render one frame to a PNG, headless")
    _common(shot)
    _when(shot)
    shot.add_argument("-o", "--output", required=True, metavar="FILE.png")
    shot.add_argument("--size", type=_size, default=(1280, 800), metavar="WxH")
    shot.add_argument("--force", action="store_true", help="replace FILE.png if it exists")
    shot.set_defaults(func=cmd_shot)
    st = sub.add_parser("state", help="who is where, facing which way, holding what, at a time")
    _common(st)
    _when(st)
    st.add_argument("--json", action="store_true", help="the documented JSON (see README)")
    st.set_defaults(func=cmd_state)
    chk = sub.add_parser("check", help="validate layout and script; warnings; exit 2 on errors")
    _common(chk)
    chk.set_defaults(func=cmd_check)
    from viz.cli_text import add_commands

    add_commands(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    from viz.fileio import RefuseOverwrite
    from viz.query import QueryError

    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")  # no sound yet; spares ALSA's complaints
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(encoding="utf-8")
    argv = list(sys.argv[1:] if argv is None else argv)
    p = parser()
    commands = {"play", "shot", "state", "check", "text", "find"}
    if not argv or (argv[0] not in commands and argv[0] not in ("-h", "--help")):
        argv = ["play", *argv]  # no command: play, with whatever options were given
    args = p.parse_args(argv)
    try:
        return args.func(args)
    except InputError as e:
        for prob in e.problems:
            print(prob, file=sys.stderr)
        n = len(e.problems)
        print(f"{n} error{'s' if n > 1 else ''}", file=sys.stderr)
        return 2
    except (QueryError, RefuseOverwrite) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
