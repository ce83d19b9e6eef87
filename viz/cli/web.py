"""The `web` subcommand: the rite as one self-contained HTML page (viz/export/web.py)."""
from __future__ import annotations

import argparse
from pathlib import Path

from viz.cli.options import _common, load_all, on_rite


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    w = subparsers.add_parser(
        "web", help="the rite as one self-contained HTML page that plays in any browser",
        description="One file holding the compiled timeline, the plan, the text, the script and "
                    "a subset of the bundled font: it opens from file:// or any web server with "
                    "no other request. Links name a moment: FILE.html#stage=初射 (the stage's "
                    "start), #after=揖弓命取矢 (as --after), #t=8376.1. Never replaces FILE "
                    "unless --force.")
    _common(w)
    w.add_argument("-o", "--output", required=True, metavar="FILE.html")
    w.add_argument("--force", action="store_true", help="replace FILE.html if it exists")
    w.set_defaults(func=on_rite(cmd_web))


def cmd_web(args: argparse.Namespace, spec) -> int:
    from viz.export.common import refuse_existing
    from viz.export.web import write_page
    from viz.query.state import QueryError

    if Path(args.output).suffix.lower() not in (".html", ".htm"):
        raise QueryError(f"-o {args.output}: expected a file name ending in .html")
    if not args.force:  # refused before the rite is compiled
        refuse_existing([Path(args.output)])
    d = load_all(spec)
    path, size = write_page(d, args.output, spec.package.title, overwrite=args.force)
    print(f"wrote {path} ({size / 1e6:.1f} MB; open it in a browser, no server needed)")
    return 0
