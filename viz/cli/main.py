"""The command line: play (the window), shot, state, check, text, find — all but play headless."""
from __future__ import annotations

import argparse
import json
import os
import sys
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
    from viz.model.rite import Rite

    sets, seed = scenario_of(args)
    return Rite(script_path, layout_path, sets=sets, seed=seed).get(tuple(readings))


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


def cmd_play(args) -> int:
    from viz.app.window import run
    from viz.model.reload import Reloader

    # the window reloads the files it loaded when one is saved, and switches readings (R, V);
    # the first load's problems (a reading no file knows among them) stop it as any command
    sets, seed = scenario_of(args)
    r = Reloader(args.script, args.layout, tuple(args.reading), sets=sets, seed=seed)
    if not r.result.ok:
        raise InputError(r.result.problems)
    d = r.current
    _print_warnings(d.warnings)
    return run(d.layout, d.timeline, d.corpus, script_path=args.script, layout_path=args.layout,
               reloader=r)


def cmd_shot(args) -> int:
    from viz.query.state import QueryError, resolve_moment
    from viz.export.shot import render_png

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    if Path(args.output).suffix.lower() != ".png":
        raise QueryError(f"-o {args.output}: expected a file name ending in .png")
    d = load_all(args.script, args.layout, args.reading, args)
    m = resolve_moment(d.timeline, d.corpus, args.at, args.after, args.stage)
    path = render_png(d.layout, d.timeline, d.corpus, m.t, size=args.size, path=args.output,
                      overwrite=args.force, closing=m.closing)
    print(f"wrote {path} (t = {m.t:.1f} s)")
    return 0


def cmd_state(args) -> int:
    from viz.query.state import format_state, resolve_moment, state

    d = load_all(args.script, args.layout, args.reading, args)
    m = resolve_moment(d.timeline, d.corpus, args.at, args.after, args.stage)
    s = state(d.timeline, d.layout, d.corpus, m.t, m.step, m.closing)
    print(json.dumps(s, ensure_ascii=False, indent=2) if args.json else format_state(s))
    return 0


def cmd_check(args) -> int:
    if args.watch:
        from viz.cli.live import watch

        return watch(args, report_check)
    return report_check(args, load_all(args.script, args.layout, args.reading, args))


def cmd_score(args) -> int:
    from viz.model.scoring import format_report, report

    d = load_all(args.script, args.layout, args.reading, args)
    rep = report(d.timeline)
    print(json.dumps(rep, ensure_ascii=False, indent=2) if args.json
          else format_report(rep, d.timeline))
    return 0


def report_check(args, d) -> int:
    """Print a compiled rite's warnings and the ok line (or, --strict, fail on warnings)."""
    from viz.query.lint import motion_warnings

    warnings = d.warnings + tuple(motion_warnings(d.timeline))
    tl = d.timeline
    if args.strict and warnings:
        for w in warnings:
            print(f"{w.loc}: {w.message}", file=sys.stderr)
        n = len(warnings)
        print(f"{n} error{'s' if n > 1 else ''} (--strict: warnings are errors)", file=sys.stderr)
        return 2
    _print_warnings(warnings)
    readings = "、".join(d.readings) or "鄭"
    print(f"ok: {args.layout}: {len(d.layout.places)} places; reading {readings}; "
          f"{args.script}: {len(d.script.files)} files, "
          f"{len(tl.actors)} actors, {len(tl.props)} props, {len(tl.stages)} stages, "
          f"{len(tl.steps)} steps, {tl.duration:.0f} s; {len(warnings)} warnings")
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
    chk = sub.add_parser("check", help="validate layout and script, and the motion it compiles "
                                       "to; warnings; exit 2 on errors")
    _common(chk)
    chk.add_argument("--strict", action="store_true", help="warnings are errors (exit 2)")
    chk.add_argument("--watch", action="store_true",
                     help="after checking, check again whenever a file of the rite or the "
                          "layout changes (polled twice a second); Ctrl-C ends it")
    chk.set_defaults(func=cmd_check)
    sc = sub.add_parser("score", help="the shooting: each round's shots (hit or miss, on the "
                                      "beat or not), tallies, announcement and who drank, read "
                                      "from the compiled rite (--seed, --set change it)")
    _common(sc)
    sc.add_argument("--json", action="store_true", help="as JSON")
    sc.set_defaults(func=cmd_score)
    from viz.query.coverage import add_command as add_coverage_command

    add_coverage_command(sub, _common)
    from viz.cli.text import add_commands

    add_commands(sub)
    from viz.cli.live import add_commands as add_live_commands

    add_live_commands(sub)
    from viz.cli.plate import add_commands as add_plate_commands

    add_plate_commands(sub)
    from viz.cli.export import add_commands as add_export_commands

    add_export_commands(sub)
    return p


def _command_first(argv: list[str], commands: set[str]) -> list[str]:
    """Options may come before the command (`main.py --reading 敖 check`): move the command to
    the front; with none, the command is play."""
    if argv and argv[0] in (*commands, "-h", "--help"):
        return argv
    for i, tok in enumerate(argv):
        if tok in commands and (i == 0 or argv[i - 1] not in VALUE_OPTIONS):
            return [tok, *argv[:i], *argv[i + 1:]]
    if any(a in ("-h", "--help") for a in argv):
        return argv
    return ["play", *argv]


def main(argv: list[str] | None = None) -> int:
    from viz.base.fileio import OutputError
    from viz.query.state import QueryError

    # no sound but the window's drum (D); app.run lifts this default, never the user's choice
    os.environ.setdefault("XIANGSHE_AUDIO_DEFAULTED",
                          "0" if "SDL_AUDIODRIVER" in os.environ else "1")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")  # no sound yet; spares ALSA's complaints
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(encoding="utf-8")
    argv = list(sys.argv[1:] if argv is None else argv)
    p = parser()
    commands = set(p._subparsers._group_actions[0].choices)  # noqa: SLF001 (argparse's own)
    argv = _command_first(argv, commands)
    args = p.parse_args(argv)
    try:
        return args.func(args)
    except InputError as e:
        for prob in e.problems:
            print(prob, file=sys.stderr)
        n = len(e.problems)
        print(f"{n} error{'s' if n > 1 else ''}", file=sys.stderr)
        return 2
    except (QueryError, OutputError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
