"""The rite's own subcommands: play (the window), shot, state, check, score."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from viz.app.speeds import SPEEDS
from viz.base.errors import InputError, Loc, Problem
from viz.cli.options import (
    _common,
    _print_warnings,
    _size,
    _when,
    load_all,
    load_moment,
    on_rite,
)


def _speed(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        v = float("nan")
    if v not in SPEEDS:
        from viz.base import lang

        raise argparse.ArgumentTypeError(lang.tr_done(
            "expected one of {choices}; found {found}", lang.CLI).format(
            choices=", ".join(f"{s:g}" for s in SPEEDS), found=repr(text)))
    return v


def _scale(text: str) -> float:
    from viz.draw.compose import UI_STEPS

    try:
        v = float(text)
    except ValueError:
        v = float("nan")
    if not UI_STEPS[0] <= v <= UI_STEPS[1]:
        from viz.base import lang

        raise argparse.ArgumentTypeError(lang.tr_done(
            "expected a number from {low} to {high}; found {found}", lang.CLI).format(
            low=f"{UI_STEPS[0]:g}", high=f"{UI_STEPS[1]:g}", found=repr(text)))
    return v


def cmd_play(args, spec) -> int:
    from viz.app.nodisplay import refuse_without_display

    refused = refuse_without_display()  # before the rite loads or a font is read: one line
    if refused is not None:
        return refused
    from viz.app.window import run
    from viz.model.progressive import Progressive
    from viz.model.reload import Reloader

    # the window reloads the files it loaded when one is saved, and switches readings (R, V);
    # the first load's problems (a reading no file knows among them) stop it as any command.
    # Not compiled before (an empty cache): it opens on the first stages, the rest compile.
    first = None
    if args.stage is not None:  # compiled as far as that stage (all of it if it must be)
        first, _ = load_moment(args, spec, whole=False)
    p = Progressive(spec, first=first)
    start = dict(speed=args.speed, playing=not args.paused, fullscreen=args.fullscreen)
    if args.scale != 1.0:
        start["ui"] = args.scale
    if not p.complete:
        d = p.first
        start["t"] = _stage_start(d.timeline, args.stage)
        return run(d.layout, d.timeline, d.corpus, script_path=str(spec.script),
                   layout_path=str(spec.layout), progressive=p, title=spec.package.title,
                   **start)
    r = Reloader(spec)
    if not r.result.ok:
        raise InputError(r.result.problems)
    d = r.current
    _print_warnings(d.warnings)
    start["t"] = _stage_start(d.timeline, args.stage)
    return run(d.layout, d.timeline, d.corpus, script_path=str(spec.script),
               layout_path=str(spec.layout), reloader=r, title=spec.package.title, **start)


def _stage_start(timeline, name: str | None) -> float:
    from viz.query.state import stage_index

    return 0.0 if name is None else timeline.stages[stage_index(timeline, name)].t0


def cmd_shot(args, spec) -> int:
    from viz.export.shot import render_png
    from viz.query.state import QueryError, resolve_moment

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    if Path(args.output).suffix.lower() != ".png":
        raise QueryError(f"-o {args.output}: expected a file name ending in .png")
    # an early moment needs only the stages reaching it: the picture is the window's on a cold
    # start, the bar hatched where the rest of the rite is not compiled
    d, m = load_moment(args, spec, whole=False)
    path = render_png(d.layout, d.timeline, d.corpus, m.t, size=args.size, path=args.output,
                      overwrite=args.force, closing=m.closing, compiling=d.partial,
                      ui=args.scale)
    print(f"wrote {path} (t = {m.t:.1f} s)")
    return 0


def cmd_state(args, spec) -> int:
    from viz.query.state import format_state, resolve_moment, state

    d = load_all(spec)
    m = resolve_moment(d.timeline, d.corpus, args.at, args.after, args.stage)
    s = state(d.timeline, d.layout, d.corpus, m.t, m.step, m.closing)
    print(json.dumps(s, ensure_ascii=False, indent=2) if args.json else format_state(s))
    return 0


def cmd_check(args, spec) -> int:
    if args.text:
        return report_text(args, load_all(spec), spec)
    if args.watch:
        from viz.cli.live import watch

        return watch(args, lambda a, d: report_check(a, d, spec), spec=spec)
    return report_check(args, load_all(spec), spec)


def cmd_score(args, spec) -> int:
    from viz.model.scoring import format_report, report

    d = load_all(spec)
    rep = report(d.timeline)
    print(json.dumps(rep, ensure_ascii=False, indent=2) if args.json
          else format_report(rep, d.timeline))
    return 0


def check_warnings(spec, d) -> tuple:
    """Every warning `check` reports for a compiled rite (those --strict fails on but the
    皆/遂 waits); spec needs only .script (also used by the strict grid, viz/cli/grid.py)."""
    from viz.query.dressed import dress_warnings
    from viz.query.drum import drum_warnings
    from viz.query.faithful import held_warnings, order_warnings
    from viz.query.lint import motion_warnings

    return (d.warnings + tuple(motion_warnings(d.timeline))
            + tuple(held_warnings(d.timeline, d.corpus))
            + tuple(order_warnings(d.timeline, d.corpus)) + tuple(font_warnings(spec, d))
            + tuple(dress_warnings(d.timeline, d.corpus))
            + tuple(drum_warnings(d.timeline, str(spec.script))))  # issue 26, class 4


def report_check(args, d, spec) -> int:
    """Print a compiled rite's warnings and the ok line (or, --strict, fail on warnings)."""
    from viz.query.faithful import wait_warnings

    warnings = check_warnings(spec, d)
    tl = d.timeline
    waits = tuple(wait_warnings(tl, d.corpus)) if args.strict else ()
    if args.strict and (warnings or waits):  # a 皆 / 遂 wait no note explains fails --strict
        warnings += waits
        for w in warnings:
            print(f"{w.loc}: {w.message}", file=sys.stderr)
        n = len(warnings)
        print(f"{n} error{'s' if n > 1 else ''} (--strict: warnings are errors)", file=sys.stderr)
        return 2
    _print_warnings(warnings)
    readings = "、".join(d.readings) or "鄭"
    print(f"ok: {spec.layout}: {len(d.layout.places)} places; reading {readings}; "
          f"{spec.script}: {len(d.script.files)} files, "
          f"{len(tl.actors)} actors, {len(tl.props)} props, {len(tl.stages)} stages, "
          f"{len(tl.steps)} steps, {tl.duration:.0f} s; {len(warnings)} warnings")
    _print_timing(d)
    return 0


def _font_names(fonts) -> str:
    """The font drawn with, and the rite's fallback if it names one, by file name."""
    back = fonts.fallback_path()
    return fonts.font_path().name + (f" or {back.name}" if back is not None else "")


def font_warnings(spec, d) -> list[Problem]:
    """The characters of the rite's text (at its corpus file) and of its names, captions and
    hall (at its script) that the bundled font lacks: the window and the plates draw them as
    boxes."""
    from viz.backends import fonts
    from viz.draw.compose import Model, chars_drawn
    from viz.text.corpus import source_of

    missing = set(fonts.check_font(chars_drawn(Model(d.layout, d.timeline, d.corpus))))
    if not missing:
        return []
    c = d.corpus
    text = set(c.plain + "".join(s.name for s in c.sections)
               + "".join(cl.punct + "".join(cl.notes) for cl in c.clauses))
    out = []
    for chars, where, what in ((missing & text, source_of(c) or spec.script, "the rite's text"),
                               (missing - text, spec.script, "the rite's names and notes")):
        if chars:
            listed = " ".join(f"{ch} (U+{ord(ch):04X})" for ch in sorted(chars))
            out.append(Problem(Loc(str(where), 1, 1),
                               f"font: {len(chars)} character(s) of {what} not in "
                               f"{_font_names(fonts)}, drawn as boxes: {listed}; "
                               + ("regenerate the subset with python tools/make_font_subset.py"
                                  if fonts.font_path() == fonts.FONT_PATH else
                                  "name a font that has them (manifest font: or fallback:)"),
                               warning=True))
    return out


def report_text(args, d, spec) -> int:
    """check --text: each claim a clause of the 經 makes of facing, posture or holding, and
    whether those it names do so at its moment (JSON with --json)."""
    from viz.query.dressed import with_dress
    from viz.query.faithful import text_claims

    from viz.query.inherit import load_table, with_likes
    rep = with_dress(text_claims(d.timeline, d.corpus), d.timeline, d.corpus)
    rep = with_likes(rep, d.timeline, d.corpus, load_table(spec.package.script))  # 如初 (issue 26)
    if args.json:
        print(json.dumps(rep, ensure_ascii=False, indent=2))
        return 0
    for it in rep["items"]:
        if it["result"] != "agreed" or args.all:
            print(f"{it['id']}\t{it['clause'][:24]}\t{it['claim']}\t{it['who']}\t{it['result']}")
    n = rep["claims"] or 1
    print(f"{rep['claims']} claims: {rep['agreed']} agreed ({100 * rep['agreed'] / n:.1f}%), "
          f"{rep['noted']} noted, {rep['claims'] - rep['agreed'] - rep['noted']} disagree")
    return 0


def _print_timing(d) -> None:
    """Issue 19, class 4: those a clause sets moving together (皆, 遂) who stand waiting while the
    others walk, and the rite's longest steps — a report, not warnings."""
    from viz.query.faithful import TOGETHER_NOTE, WAIT, longest_steps, wait_warnings

    waits = wait_warnings(d.timeline, d.corpus)
    why = wait_warnings(d.timeline, d.corpus, explained=True)
    print(f"皆/遂: {len(waits)} of those a clause sets moving together stand over {WAIT:g} s "
          f"while the others walk, unexplained (--strict fails on them); {len(why)} more a "
          f"step's note explains ({TOGETHER_NOTE} …)" + (":" if waits else ""))
    for w in waits:
        print(f"  {w.loc}: {w.message}")
    print("longest steps:")
    for st in longest_steps(d.timeline):
        print(f"  {st.t1 - st.t0:6.0f} s  「{st.cite[:40]}」  {st.loc}")


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Register play, shot, state, check and score."""
    play = sub.add_parser("play", help="play the rite in a window (the default)")
    _common(play)
    play.add_argument("--stage", metavar="NAME",
                      help="open at the start of that stage: its number (1, ①), name, or a "
                           "name's beginning")
    play.add_argument("--speed", type=_speed, default=1.0, metavar="N",
                      help=f"play N times as fast ({', '.join(f'{s:g}' for s in SPEEDS)}; "
                           "+ and − change it in the window)")
    play.add_argument("--paused", action="store_true", help="open paused (Space plays)")
    play.add_argument("--fullscreen", action="store_true",
                      help="open fullscreen, at the display's size (F11 switches)")
    play.add_argument("--scale", type=_scale, default=1.0, metavar="K",
                      help="draw names, tokens and place names K times as large (0.8 to 2; "
                           "Ctrl + and Ctrl − change it in the window)")
    play.set_defaults(func=on_rite(cmd_play))
    shot = sub.add_parser("shot", help="render one frame to a PNG, headless")
    _common(shot)
    _when(shot)
    shot.add_argument("-o", "--output", required=True, metavar="FILE.png")
    shot.add_argument("--size", type=_size, default=(1280, 800), metavar="WxH")
    shot.add_argument("--force", action="store_true", help="replace FILE.png if it exists")
    shot.add_argument("--scale", type=_scale, default=1.0, metavar="K",
                      help="as the window's Ctrl + / −: names, tokens and place names K times "
                           "as large (0.8 to 2)")
    shot.set_defaults(func=on_rite(cmd_shot))
    st = sub.add_parser("state", help="who is where, facing which way, holding what, at a time")
    _common(st)
    _when(st)
    st.add_argument("--json", action="store_true", help="the documented JSON (docs/REFERENCE.md)")
    st.set_defaults(func=on_rite(cmd_state))
    chk = sub.add_parser("check", help="validate layout and script, and the motion it compiles "
                                       "to; warnings; exit 2 on errors")
    _common(chk)
    chk.add_argument("--strict", action="store_true", help="warnings are errors (exit 2)")
    chk.add_argument("--watch", action="store_true",
                     help="after checking, check again whenever a file of the rite or the "
                          "layout changes (polled twice a second); Ctrl-C ends it")
    chk.add_argument("--text", action="store_true",
                     help="the 經's own words checked against the motion: each clause's facing "
                          "(北面 …), posture (坐 興 拜 揖) and holding (執 取 受 奠 授 X), agreed, "
                          "noted or not (the table lists those not agreed; --all every claim)")
    chk.add_argument("--json", action="store_true",
                     help="with --text: {claims, agreed, noted, items: [{clause, id, claim, who, "
                          "result}]}")
    chk.add_argument("--all", action="store_true", help="with --text: list every claim")
    chk.set_defaults(func=on_rite(cmd_check))
    sc = sub.add_parser("score", help="the shooting: each round's shots (hit or miss, on the "
                                      "beat or not), tallies, announcement and who drank, read "
                                      "from the compiled rite (--seed, --set change it)")
    _common(sc)
    sc.add_argument("--json", action="store_true", help="as JSON")
    sc.set_defaults(func=on_rite(cmd_score))
