"""The `video`, `sheet` and `atlas` subcommands: the rite exported for watching, learning a part
and printing."""
from __future__ import annotations

import argparse
import os
from pathlib import Path

from viz.cli import _common, _size, load_all
from viz.query import QueryError


def _positive(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        v = float("nan")
    if not (v > 0) or v == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number above 0; found {text!r}")
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
    v.add_argument("--force", action="store_true", help="replace FILE.mp4 if it exists")
    v.set_defaults(func=cmd_video)


def cmd_video(args: argparse.Namespace) -> int:
    from viz.export.video import render_video, span_of

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    if Path(args.output).suffix.lower() != ".mp4":
        raise QueryError(f"-o {args.output}: expected a file name ending in .mp4")
    d = load_all(args.script, args.layout, args.reading)
    t0, t1 = span_of(d.timeline, d.corpus, args.start, args.stop)
    info = render_video(d.layout, d.timeline, d.corpus, args.output, t_from=t0, t_to=t1,
                        fps=args.fps, size=args.size, speed=args.speed, audio=args.audio,
                        overwrite=args.force)
    drum = f", {info.beats} drum beats" if args.audio else ""
    print(f"wrote {info.path} ({info.frames} frames, {info.frames / info.fps:.1f} s of video "
          f"for t = {t0:.1f}–{t1:.1f} s{drum}; {info.rate:.0f} frames/s)")
    return 0
