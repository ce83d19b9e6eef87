"""The `video`, `sheet` and `atlas` subcommands: the rite exported for watching, learning a part
and printing."""
from __future__ import annotations

import argparse
import os
from pathlib import Path

# Everything but the shared options is imported by the command that needs it: the parser is
# built at every start.
from viz.cli.options import _common, _size, load_all, on_rite


def _positive(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        v = float("nan")
    if not (v > 0) or v == float("inf"):
        from viz.base import lang

        raise argparse.ArgumentTypeError(lang.tr_done(
            "expected a number above 0; found {found}", lang.CLI).format(found=repr(text)))
    return v


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Register `video`, `sheet` and `atlas` on an argparse subparsers object."""
    v = subparsers.add_parser(
        "video", help="render the rite (or a part) to an MP4, headless",
        description="Frames from the composer on a fixed grid (frame n shows t = FROM + n / FPS "
                    "× SPEED), the clause captioned in the panel, encoded with the ffmpeg of "
                    "imageio-ffmpeg. Never replaces FILE unless --force; an interrupted render "
                    "leaves nothing under FILE.")
    _common(v)
    v.add_argument("-o", "--output", required=True, metavar="FILE.mp4")
    v.add_argument("--from", dest="start", metavar="S|STAGE|TEXT",
                   help="start: seconds, a stage (its start; name or name of its section), or "
                        "words of the text (the start of the step enacting them); default 0")
    v.add_argument("--to", dest="stop", metavar="S|STAGE|TEXT",
                   help="end: seconds, a stage (its end), or words (the end of the step "
                        "enacting them); default the end of the rite")
    v.add_argument("--fps", type=_positive, default=30.0, help="frames per second (default 30)")
    v.add_argument("--size", type=_size, default=(1280, 720), metavar="WxH",
                   help="even width and height (default 1280x720)")
    v.add_argument("--speed", type=_positive, default=1.0,
                   help="rite seconds per video second (default 1)")
    v.add_argument("--audio", choices=("drum",),
                   help="mux a drum hit at each beat of the rite's 'beats' channel")
    v.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="processes drawing frames (default: one less than the cores; ffmpeg "
                        "encodes on the last)")
    v.add_argument("--force", action="store_true", help="replace FILE.mp4 if it exists")
    v.set_defaults(func=on_rite(cmd_video))
    add_sheet(subparsers)
    add_atlas(subparsers)


def cmd_video(args: argparse.Namespace, spec) -> int:
    from viz.export.video import render_video, span_of
    from viz.query.state import QueryError

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    if Path(args.output).suffix.lower() != ".mp4":
        raise QueryError(f"-o {args.output}: expected a file name ending in .mp4")
    d = load_all(spec)
    t0, t1 = span_of(d.timeline, d.corpus, args.start, args.stop)
    info = render_video(d.layout, d.timeline, d.corpus, args.output, t_from=t0, t_to=t1,
                        fps=args.fps, size=args.size, speed=args.speed, audio=args.audio,
                        overwrite=args.force, workers=args.jobs, title=spec.package.title)
    drum = f", {info.beats} drum beats" if args.audio else ""
    print(f"wrote {info.path} ({info.frames} frames, {info.frames / info.fps:.1f} s of video "
          f"for t = {t0:.1f}–{t1:.1f} s{drum}; {info.rate:.0f} frames/s)")
    return 0


def add_sheet(subparsers: argparse._SubParsersAction) -> None:
    from viz.export.common import PAPERS, SHEET_FORMATS

    s = subparsers.add_parser(
        "sheet", help="a role's cue sheet: every step in which he acts",
        description="For one role: time, stage, the clause, from where to where (place and 尺), "
                    "facing, posture, what he holds, and a small plan of each move (html: "
                    "inline; md: PNGs in FILE.plans/ beside FILE.md; csv: none).")
    _common(s)
    s.add_argument("actor", nargs="?", metavar="ACTOR",
                   help="an actor id (shangshe1), or a name or label only one person has")
    s.add_argument("--all", action="store_true", help="every role, one sheet each, into -o DIR")
    s.add_argument("--stage", metavar="NAME",
                   help="that stage's cues only: its number (1, ①), name, or a name's beginning")
    s.add_argument("--format", choices=SHEET_FORMATS, default=None,
                   help="default: from -o's suffix, else md")
    s.add_argument("-o", "--output", metavar="FILE|DIR",
                   help="the sheet (default: print it); with --all, the folder for the sheets")
    s.add_argument("--paper", choices=PAPERS, default="a4",
                   help="html: the paper it prints on, portrait (default a4)")
    s.add_argument("--force", action="store_true", help="replace files that exist")
    s.set_defaults(func=on_rite(cmd_sheet))


def _format(args: argparse.Namespace) -> str:
    if args.format:
        return args.format
    suffix = Path(args.output).suffix.lower().lstrip(".") if args.output and not args.all else ""
    return {"htm": "html", "markdown": "md"}.get(suffix, suffix) if suffix in (
        "md", "csv", "html", "htm", "markdown") else "md"


def cmd_sheet(args: argparse.Namespace, spec) -> int:
    import sys

    from viz.export import sheets
    from viz.export.common import FONTS, font_files, write_all
    from viz.query.state import QueryError, stage_index

    if args.all == (args.actor is not None):
        raise QueryError("give one ACTOR, or --all -o DIR")
    if args.all and not args.output:
        raise QueryError("sheet --all needs -o DIR, the folder for the sheets")
    fmt = _format(args)
    if args.stage is None:
        d = load_all(spec)
    else:  # one stage's cues: an early stage needs only the stages reaching it
        from viz.cli.options import load_moment

        d, _ = load_moment(args, spec, whole=False)
        if not args.all and d.partial is not None and args.actor not in {
                a.id for a in d.timeline.actors}:
            d = load_all(spec)  # a name: a later stage may cast another of that name
    tl = d.timeline
    stage = None if args.stage is None else stage_index(tl, args.stage)
    if not args.all:
        actor = sheets.find_actor(tl, args.actor)
        out = Path(args.output) if args.output else None
        files = sheets.sheet_files(tl, d.layout, d.corpus, actor, fmt, out, stage=stage,
                                   paper=args.paper, rite=spec.package.title)
        if files is None:
            s = tl.stages[stage]
            raise QueryError(f"{tl.actors[actor].name} ({tl.actors[actor].id}) does nothing in "
                             f"stage {s.index + 1} {s.name}")
        if out is None:
            sys.stdout.write(files[0][1].decode("utf-8"))
            return 0
        write_all(files, args.force, folders=[sheets.plan_folder(out)] if len(files) > 1 else [])
        n = len(files) - 1
        print(f"wrote {out}" + (f" and {n} plan{'s' if n > 1 else ''} in "
                                f"{sheets.plan_folder(out)}" if n else ""))
        return 0
    folder = Path(args.output)
    files, names, folders = [], [], [folder]
    frames = sheets.step_frames(tl)
    for i, a in enumerate(tl.actors):
        path = folder / f"{a.id}.{fmt}"
        got = sheets.sheet_files(tl, d.layout, d.corpus, i, fmt, path, frames, stage,
                                 args.paper, spec.package.title)
        if got is None:
            continue  # nothing to do in that stage
        files += got
        names.append((i, path.name))
        if fmt == "md" and any(p.parent == sheets.plan_folder(path) for p, _ in files):
            folders.append(sheets.plan_folder(path))
    if fmt != "csv":
        files.append((folder / f"index.{fmt}",
                      sheets.index_page(tl, fmt, names, args.paper,
                                        spec.package.title).encode("utf-8")))
    if fmt == "html":  # the pages name it: a machine with no CJK font still shows them
        files += font_files(folder)
        folders.append(folder / FONTS)
    write_all(files, args.force, folders=folders)
    print(f"wrote {len(names)} sheets ({len(files)} files) in {folder}")
    return 0


def add_atlas(subparsers: argparse._SubParsersAction) -> None:
    from viz.export.common import PAPERS

    a = subparsers.add_parser(
        "atlas", help="a plate per stage (or step) beside its text: an offline HTML folder",
        description="DIR/index.html shows each plate (DIR/plates/*.png and *.svg) beside the "
                    "經 punctuated, the 注 under each clause and the script's notes; offline, "
                    "printable one plate a page, byte-identical for the same rite.")
    _common(a)
    a.add_argument("-o", "--output", required=True, metavar="DIR",
                   help="the folder (created if missing; its parent must exist)")
    a.add_argument("--steps", action="store_true", help="a plate per step, not per stage")
    a.add_argument("--svg", action="store_true",
                   help="each plate's SVG beside its PNG too (a third more time)")
    a.add_argument("--paper", choices=PAPERS, default="a4",
                   help="the paper index.html prints on, landscape (default a4)")
    a.add_argument("--force", action="store_true", help="replace files that exist in DIR")
    a.set_defaults(func=on_rite(cmd_atlas))


def cmd_atlas(args: argparse.Namespace, spec) -> int:
    from viz.export.atlas import build_atlas, compile_drawing, refuse_early

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    refuse_early(args.output, args.force)  # before plates are drawn while the rite compiles
    d, ahead = compile_drawing(spec, steps=args.steps, svg=args.svg)
    info = build_atlas(d, args.output, steps=args.steps, overwrite=args.force,
                       title=f"{spec.package.title}圖", paper=args.paper, svg=args.svg,
                       ahead=ahead)
    print(f"wrote {info.folder}/index.html and {info.plates} plates ({info.files} files; "
          f"plates drawn in {info.seconds:.1f} s, {info.total_seconds:.1f} s in all)")
    return 0
