"""The `text` and `find` subcommands: print the segmented seed, and find a phrase in it."""
from __future__ import annotations

import argparse
import sys

from viz.cli.options import _piped, add_rite, on_rite
from viz.text import Corpus, Section, load_corpus

PARTS = {"經": ("經",), "注": ("注",), "記": ("記",), "all": None}


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Register `text` and `find` on an argparse subparsers object."""
    p = subparsers.add_parser("text", help="print the text: 經, 注, 記 or all, by section")
    add_rite(p)
    p.add_argument("--part", choices=tuple(PARTS), default="all",
                   help="經 alone (one section per line), 注, 記, or all runs labelled")
    p.add_argument("--stage", metavar="NAME", help="one section: its number (1, ①), its name (variants equal) or a name's "
                        "beginning")
    p.add_argument("--punct", action="store_true", help="add modern punctuation to 經 and 記")
    p.set_defaults(func=_piped(on_rite(cmd_text)))
    f = subparsers.add_parser("find", help="where a phrase occurs (variant characters equal)")
    f.add_argument("query", metavar="TEXT")
    add_rite(f)
    f.set_defaults(func=_piped(on_rite(cmd_find)))


def _utf8() -> None:
    # Chinese must print whatever the locale says; a UTF-8 terminal is the target.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure") and (stream.encoding or "").lower() != "utf-8":
            stream.reconfigure(encoding="utf-8")


def pick_sections(corpus: Corpus, stage: str | None) -> list[Section] | None:
    """All sections, or the one --stage names (viz.text.names: a number, ①, a name or its
    beginning), telling which one when the name repeats."""
    from viz.text.names import UnknownName, number_of, pick

    if stage is None:
        return list(corpus.sections)
    try:
        found = pick(stage, [s.name for s in corpus.sections], "section")
    except UnknownName as e:
        print(f"text: {e}", file=sys.stderr)
        return None
    sec = corpus.sections[found[0]]
    if len(found) > 1 and number_of(stage) is None:
        others = ", ".join(str(corpus.sections[i].index) for i in found[1:])
        print(f"text: {stage!r} names sections {sec.index} and {others}; showing {sec.index} "
              f"(give the number to pick another)", file=sys.stderr)
    return [sec]


def section_text(corpus: Corpus, sec: Section, kind: str, punct: bool) -> str:
    """The section's runs of one kind joined; 經/記 punctuated when asked."""
    runs = [r for r in corpus.runs if r.section == sec.index and r.kind == kind]
    if punct and kind in ("經", "記"):
        return "".join(corpus.punctuated(r.start, r.end) for r in runs)
    sep = "" if kind in ("經", "記") else " "
    return sep.join(corpus.plain[r.start:r.end] for r in runs)


def cmd_text(args: argparse.Namespace, spec) -> int:
    """Print the text: `--part 經` gives one line of pure 經 per section."""
    _utf8()
    corpus = load_corpus(spec.package.text)
    sections = pick_sections(corpus, args.stage)
    if sections is None:
        return 2
    if args.part != "all":
        for sec in sections:
            line = section_text(corpus, sec, args.part, args.punct)
            if line or args.part == "經":
                print(line)
        return 0
    if args.stage is None:
        _print_runs(corpus, 0, args.punct)
    for sec in sections:
        _print_runs(corpus, sec.index, args.punct)
    return 0


def _print_runs(corpus: Corpus, index: int, punct: bool) -> None:
    runs = [r for r in corpus.runs if r.section == index]
    title = "front matter" if index == 0 else f"{index} {corpus.sections[index - 1].name}"
    print(f"== {title} [{runs[0].page}]")
    for r in runs:
        body = (corpus.punctuated(r.start, r.end) if punct and r.kind in ("經", "記")
                else corpus.plain[r.start:r.end])
        print(f"{r.kind}\t[{r.page}]\t{body}")


def cmd_find(args: argparse.Namespace, spec) -> int:
    """List each place the phrase occurs: section, clause id, page, kind, context."""
    _utf8()
    if not args.query.strip():
        print("find: give the words to look for, e.g. python main.py find 主人以賓三揖",
              file=sys.stderr)
        return 2
    corpus = load_corpus(spec.package.text)
    hits = corpus.find(args.query)
    for off in hits:
        sec = corpus.section_at(off)
        clause = corpus.clause_at(off)
        run = corpus.run_at(off)
        where = f"{sec.index} {sec.name}" if sec else "front matter"
        cid = clause.id if clause else "-"
        kind = run.kind if run else "-"
        ctx = corpus.plain[max(0, off - 6):off + len(args.query) + 6]
        print(f"{where}\t{cid}\t{corpus.page_at(off)}\t{kind}\t{ctx}")
    print(f"{len(hits)} found for {args.query!r} (variant characters counted as equal)",
          file=sys.stderr)
    return 0 if hits else 1
