"""The `plate` subcommand: one moment of the rite as a 禮圖 plate (or as the window draws it),
written as SVG or PNG."""
from __future__ import annotations

import argparse
import os
from pathlib import Path

from viz.draw.plate import DEFAULT_SIZE, STYLES, TRAILS, size_for_dpi


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Register `plate` on an argparse subparsers object."""
    from viz.cli.options import _common, _size, _when, on_rite

    p = subparsers.add_parser(
        "plate", help="one moment as a printed 禮圖 plate (SVG or PNG): the hall in line, people "
                      "as their names where they stand, the moves as a drill chart",
        description="Draw one moment (the end of the rite unless --stage, --after or --at) as a "
                    "plate: paper and ink, the hall in line, each person written as his name "
                    "where he stands with a tick for the way he faces, the stage and the clause as "
                    "the title, the cited words beside the plan, a scale in 尺 and m. The moves "
                    "of the step (or of the stage so far) are drawn as a drill chart: dotted "
                    "paths with arrowheads, a faint ring where each starts, a solid dot where it "
                    "ends, numbered in the order the text gives them. --stage NAME draws the "
                    "stage plate: every move of the stage, its whole text beside the plan (the "
                    "clauses drawn in 朱); a stage of more than 25 numbered moves is split into "
                    "plates of at most 25, written FILE-1.svg, FILE-2.svg … (--part N: one of "
                    "them, as FILE).")
    _common(p)
    _when(p)
    p.add_argument("-o", "--output", required=True, metavar="FILE.svg|FILE.png",
                   help="the file to write; its suffix picks the format")
    p.add_argument("--style", choices=STYLES, default="plate",
                   help="plate: ink on paper, people as names (default); screen: the window's look")
    p.add_argument("--trails", choices=TRAILS, default=None,
                   help="the moves of the step at the moment (default), of its stage up to the "
                        "moment, or none; with --stage the default is the stage plate(s)")
    p.add_argument("--part", type=int, metavar="N",
                   help="with --stage: only the stage's Nth plate, written to FILE itself")
    p.add_argument("--follow", metavar="ACTOR",
                   help="draw only this person's moves (an id such as shangshe1, or a label)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--size", type=_size, metavar="WxH",
                   help=f"in pixels (default {DEFAULT_SIZE[0]}x{DEFAULT_SIZE[1]})")
    g.add_argument("--dpi", type=_dpi, metavar="N", help="an A4 landscape page at N dots per inch")
    p.add_argument("--force", action="store_true", help="replace the file if it exists")
    p.set_defaults(func=on_rite(cmd_plate))


def _dpi(text: str) -> float:
    try:
        v = float(text)
        if not 30 <= v <= 700:
            raise ValueError
        return v
    except ValueError:
        from viz.base import lang

        raise argparse.ArgumentTypeError(lang.tr_done(
            "expected a number of dots per inch from 30 to 700; found {found}",
            lang.CLI).format(found=repr(text))) from None


def cmd_plate(args: argparse.Namespace, spec) -> int:
    from viz.base.fileio import atomic_write_bytes
    from viz.cli.options import load_moment
    from viz.export import plate
    from viz.query.state import QueryError

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    suffix = Path(args.output).suffix.lower()
    if suffix not in plate.WRITERS:
        raise QueryError(f"-o {args.output}: expected a file name ending in .svg or .png")
    staged = (args.stage is not None and args.at is None and args.after is None
              and args.trails in (None, "stage") and args.style == "plate")
    if args.part is not None and not staged:
        raise QueryError("--part N goes with --stage NAME (and no --trails step|none, no "
                         "--style screen)")
    # a paper plate shows its stage, not the whole rite: an early one needs its stages only
    d, m = load_moment(args, spec, whole=args.style != "plate")
    size = args.size or (size_for_dpi(args.dpi) if args.dpi else DEFAULT_SIZE)
    for whole in (False, True):
        try:
            plates = _plates(plate, d, m, args, size, staged)
            break
        except ValueError as e:  # an unknown --follow (or one a later stage casts)
            if whole or len(d.timeline.stages) >= (d.script.stages_total or 0):
                raise QueryError(str(e)) from None
            d, m = load_moment(args, spec, whole=True)
    out = Path(args.output)
    if len(plates) > 1:  # FILE-1.svg, FILE-2.svg …, all refused before any is written
        paths = [out.with_name(f"{out.stem}-{n}{out.suffix}") for n in range(1, len(plates) + 1)]
    else:
        paths = [out]
    if not args.force:
        taken = [str(q) for q in paths if os.path.lexists(q)]
        if taken:
            from viz.base.fileio import RefuseOverwrite

            raise RefuseOverwrite(f"{taken[0]} exists; pass --force to replace it"
                                  + (f" ({len(taken) - 1} more of the stage's plates too)"
                                     if len(taken) > 1 else ""))
    for q, (p, t) in zip(paths, plates):
        try:
            data = plate.WRITERS[suffix](p)
        except RuntimeError as e:  # SVG without fontTools to read the glyphs
            raise QueryError(str(e)) from None
        path = atomic_write_bytes(q, data, overwrite=args.force)
        print(f"wrote {path} ({size[0]}x{size[1]}, t = {t:.1f} s)")
    return 0


def _plates(plate, d, m, args, size, staged: bool) -> list[tuple[object, float]]:
    """[(Plate, its moment)]: the stage's plates for a stage plate (one, with --part or
    --follow), else the one plate of the moment."""
    from viz.draw.plate import Part, stage_parts
    from viz.query.state import QueryError, stage_index

    if not staged:
        return [(plate.plate_layers(d, m.t, m.closing, style=args.style,
                                    trails=args.trails or "step", follow=args.follow,
                                    size=size, about=args.after), m.t)]
    tl = d.timeline
    k = stage_index(tl, args.stage)
    s = tl.stages[k]
    parts = ([Part(k, s.first_step, s.last_step)] if args.follow is not None
             else stage_parts(tl, k, d.corpus))
    if args.part is not None:
        if not 1 <= args.part <= len(parts):
            raise QueryError(f"--part {args.part}: stage {k + 1} {s.name} has "
                             f"{len(parts)} plate{'s' if len(parts) > 1 else ''}")
        parts = [parts[args.part - 1]]
    return [(plate.plate_layers(d, q.moment(tl), True, follow=args.follow, size=size, part=q),
             q.moment(tl)) for q in parts]
