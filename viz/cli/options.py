"""What the subcommands share: the options every command takes (--rite, --script, --layout,
--reading, --set, --seed), resolved once into the RiteSpec they name (spec_of, which on_rite
hands to the command), the moment (--at, --after, --stage), sizes, loading a rite, printing
warnings.
Imports no subcommand module (viz.cli.main alone does)."""
from __future__ import annotations

import argparse
import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path

from viz.base.errors import InputError, Loc, Problem

VALUE_OPTIONS = {"--rite", "--script", "--layout", "--reading", "--set", "--seed", "--at", "--after",
                 "--stage", "-o",
                 "--output", "--size", "--part", "--from", "--to", "--fps", "--speed", "--audio",
                 "--jobs", "--format", "--style", "--trails", "--follow", "--dpi", "--lang",
                 "--scale"}


def load_all(spec, layout_path: str | Path | None = None, readings: tuple = ()):
    """The rite a viz.model.spec.RiteSpec names: layout, text, script → checked model →
    compiled timeline (a model.Compiled); InputError on any problem, including a reading no
    file knows. Paths (script, layout, readings) stand for RiteSpec.at(…) of them."""
    from viz.model.rite import load

    return load(spec, layout_path, readings)


PREFIXES = (2, 8)  # stages compiled, in turn, to find an early moment before compiling all


def load_moment(args, spec, whole: bool = True):
    """(compiled, moment) for a command's --at / --after / --stage. whole: the output shows the
    whole rite (its length, its step count, the timeline bar), so all of it is compiled unless
    the cache has it. Otherwise a moment early in the rite is found in the first stages
    compiled alone (Rite.prefix), each stage before the prefix's last as the whole rite has it."""
    from viz.model.rite import Rite
    from viz.query.state import QueryError, resolve_moment

    rite = Rite(spec)
    readings = spec.readings
    got = rite.cached(readings)
    if got is None and not whole:
        for n in _prefix_sizes(args):
            pre = rite.prefix(readings, n)
            tl = pre.timeline
            if len(tl.stages) >= (pre.script.stages_total or 0):
                got = pre  # the prefix is the whole rite
                break
            try:
                m = resolve_moment(tl, pre.corpus, *_asked(args))
            except QueryError:
                continue  # not among these stages (or a name's beginning: ask all of them)
            if _surely_within(tl, args, m):
                return pre, m
    if got is None:
        got = rite.get(readings)
    return got, resolve_moment(got.timeline, got.corpus, *_asked(args))


def _prefix_sizes(args) -> list[int]:
    """How many stages to compile, in turn: one past the stage a number names, else PREFIXES;
    none for --after TEXT, whose step is the last to end of those citing it, and a later stage
    may cite the same words (如初)."""
    from viz.text.names import number_of

    at, after, stage = _asked(args)
    if after is not None:
        return []
    n = number_of(stage) if stage is not None else None
    return [n + 1] if n is not None else list(PREFIXES)


def _asked(args) -> tuple:
    """(--at, --after, --stage) as given (a command may take only some of them)."""
    return (getattr(args, "at", None), getattr(args, "after", None), getattr(args, "stage", None))


def _surely_within(tl, args, m) -> bool:
    """The moment lies before the prefix's last stage (which the next stage may still change),
    and a --stage name could not begin another stage's name further on."""
    from viz.text.names import number_of
    from viz.text.variants import normalize

    at, after, stage = _asked(args)
    if at is None and after is None and stage is None:
        return False  # the whole rite's end
    last = tl.stages[-1]
    if m.t >= last.t0:
        return False
    if stage is not None and number_of(stage) is None:
        want = normalize(stage.strip())
        return any(normalize(s.name) == want or normalize(s.section or "") == want
                   for s in tl.stages)
    return True


def spec_of(args: argparse.Namespace):
    """The RiteSpec the options name (viz.model.spec), once, at the command line's edge: the
    package --rite, --script (its first, for diff) or the bundled 鄉射禮 names, --layout over
    its manifest's, the readings, and --set and --seed, the --set keys and values checked
    against the rite's declarations. --rite and --script both name the script: giving both is
    an error. The Namespace is read, never written."""
    from dataclasses import replace

    from viz.model.package import default, find, of_script
    from viz.model.spec import RiteSpec, Scenario

    rite, script = getattr(args, "rite", None), getattr(args, "script", None)
    if rite is not None and script:
        raise InputError(Problem(Loc("--rite", 1, 1), "--rite and --script both name the rite's "
                                                      "script; give one of them"))
    first = script[0] if isinstance(script, list) and script else script
    pkg = find(rite) if rite is not None else of_script(first) if first else default()
    layout = getattr(args, "layout", None)
    pkg = replace(pkg, script=Path(first) if first else Path(_shown(pkg.script)),
                  layout=Path(layout) if layout else Path(_shown(pkg.layout)))
    scenario = Scenario(_sets(args, pkg), getattr(args, "seed", None))
    from viz.text.variants import traditional  # 敖继公 as the files write it: 敖繼公

    readings = tuple(traditional(r) for r in (getattr(args, "reading", None) or ()))
    from viz.base import fontchoice  # the rite's own font (manifest font:, fallback:)

    fontchoice.choose(pkg.font, pkg.fallback)
    return RiteSpec(pkg, readings, scenario)


def _sets(args, pkg) -> tuple[tuple[str, str], ...]:
    """--set KEY=VALUE … as pairs, each key and value checked against what the rite's cast
    file declares (its scenario: and the archers' skill:); an unknown key is an error listing
    the known ones. A cast file that does not load is left to the load to report."""
    from viz.model import scenario
    from viz.model.script.scope import _suggest
    from viz.model.script.source import read_document

    items = getattr(args, "set", None) or []
    try:
        sets = scenario.parse_sets(items)
    except ValueError as e:
        raise InputError(Problem(Loc("--set", 1, 1), str(e))) from None
    if not sets:
        return ()
    try:
        doc, _ = read_document(pkg.script, upto=0)
        decl = scenario.declared(doc)
    except (InputError, KeyError, TypeError, ValueError, AttributeError):
        return tuple(sets)  # the load reports the files' problems, and then the --set's
    at = f" at {doc.key_loc('scenario')}" if hasattr(doc, "key_loc") and "scenario" in doc else ""
    where = f" ({pkg.name} declares its settings in scenario:{at}, an archer's in his skill:)"
    problems = []
    for key, raw in sets:
        _, bad = scenario.resolve(decl, [(key, raw)])
        for m in bad:
            hint = _suggest(key, decl) if key not in decl else ""
            problems.append(Problem(Loc("--set", 1, 1),
                                    m + (hint + where if key not in decl else "")))
    if problems:
        raise InputError(problems)
    return tuple(sets)


def _shown(path: Path) -> str:
    """A bundled file's path as a user would type it: relative when under the current folder."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)
    return str(path) if rel.startswith("..") else rel


def rite_help() -> str:
    """--rite's help, naming every bundled rite by its name and its folder (the English msgid
    viz.cli.words translates, the names joined in the reader's language)."""
    from viz.base import lang

    return _rite_help(lang.current())


@functools.lru_cache(maxsize=None)
def _rite_help(code: str) -> str:
    from viz.base import lang
    from viz.model import package

    names = lang.tr_done("; ", lang.CLI).join(
        lang.tr_done("{name} or {folder}", lang.CLI).format(name=p.name, folder=p.folder_name)
        for p in package.bundled())
    return (f"a bundled rite by its name or folder ({names}), or a rite folder or its "
            "manifest.yaml: its sections, text, hall and title (default: the bundled 鄉射禮)")


def add_rite(p: argparse.ArgumentParser) -> None:
    """--rite NAME|PATH (spec_of reads it)."""
    p.add_argument("--rite", metavar="NAME|PATH", help=rite_help())


def _common(p: argparse.ArgumentParser) -> None:
    add_rite(p)
    p.add_argument("--script", default=None, metavar="PATH",
                   help="a rite folder, its manifest.yaml, or a one-file script (default: the "
                        "--rite's, else the bundled 鄉射禮, assets/rites/xiangshe)")
    p.add_argument("--layout", default=None, metavar="FILE",
                   help="hall layout (default: the one the rite's manifest names; the bundled "
                        "鄉射禮's is layouts/xu.yaml, the 州序 as 鄭 reads it)")
    p.add_argument("--reading", action="append", default=[], metavar="NAME",
                   help="follow another commentator wherever the layout or the script keeps "
                        "his variant (e.g. 敖: 物 under 5 尺 apart, 乏 from the 侯's west edge); "
                        "repeatable; a name no file knows is an error listing the known ones")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a scenario setting the text leaves open (repeatable): 大夫=0|1|2, "
                        "衆賔=2..9, skill.ACTOR=0..1 (an archer's chance of a hit); an unknown "
                        "key is an error listing the known ones")
    p.add_argument("--lang", choices=("zh", "en"), default=None,
                   help="the language of the program's own words in the window, sheets, plates "
                        "and atlas: zh 中文 (default) or en English; the text stays as it is")
    p.add_argument("--seed", type=int, default=None, metavar="N",
                   help="seed of the shooting's hit model (default 1: the bundled rite always "
                        "plays the same; the same seed gives the same rite)")


def _when(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument("--at", type=float, metavar="SECONDS", help="a time from the start")
    g.add_argument("--after", metavar="TEXT",
                   help="when the step citing the last character of TEXT has finished")
    g.add_argument("--stage", metavar="NAME", help="the start of that stage, its first instant "
                   "(its number, its name or a name's beginning; as play --stage opens)")


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
        if w < 64 or h < 64 or w > 8000 or h > 8000:
            raise ValueError
        return w, h
    except ValueError:
        from viz.base import lang

        raise argparse.ArgumentTypeError(lang.tr_done(
            "expected WxH between 64 and 8000, e.g. 1280x800; found {found}",
            lang.CLI).format(found=repr(text))) from None


def _print_warnings(warnings) -> None:
    for w in warnings:
        print(w, file=sys.stderr)




def on_rite(cmd: Callable[[argparse.Namespace, object], int]
            ) -> Callable[[argparse.Namespace], int]:
    """A command that reads the rite its options name: cmd(args, spec), the spec resolved
    first (spec_of, in the command, so a bad --rite or --set is reported as the command's
    other errors are)."""
    def run(args: argparse.Namespace) -> int:
        from viz.base import lang

        lang.use(getattr(args, "lang", None))
        return cmd(args, spec_of(args))
    return run


def _piped(cmd: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Let `text … | head` stop quietly when the reader closes the pipe."""
    def run(args: argparse.Namespace) -> int:
        try:
            return cmd(args)
        except BrokenPipeError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
    return run
