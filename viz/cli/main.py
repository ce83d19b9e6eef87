"""The command line's entry: the parser, built from the subcommand modules (the only module that
imports them), and main(). main.py calls viz.cli.main.main()."""
from __future__ import annotations

import argparse
import os
import sys

from viz.base.errors import InputError
from viz.cli import coverage, export, live, new, plate, rite, text, web, words
from viz.cli.options import VALUE_OPTIONS

COMMANDS = (rite, coverage, text, live, plate, export, web, new)  # the --help order


def parser() -> argparse.ArgumentParser:
    """The parser in the reader's language (lang.use first: viz.cli.words)."""
    with words.argparse_words():
        p = argparse.ArgumentParser(
            prog="python main.py",
            description="鄉射禮: the Zhou village archery rite, played from its text. With no "
                        "command, plays the bundled rite in a window.")
        words.add_lang(p)
        sub = p.add_subparsers(dest="command", metavar="COMMAND")
        for m in COMMANDS:
            m.add_commands(sub)
    return words.translate(p)


def _command_first(argv: list[str], commands: list[str]) -> list[str]:
    """Options may come before the command (`main.py --reading 敖 check`): move the command to
    the front; with none, the command is play. A bare word that is no command, standing where
    a command would, is refused (UnknownCommand), not read as play's stray argument."""
    if argv and argv[0] in (*commands, "-h", "--help"):
        return argv
    for i, tok in enumerate(argv):
        if tok in commands and (i == 0 or argv[i - 1] not in VALUE_OPTIONS):
            return [tok, *argv[:i], *argv[i + 1:]]
    if any(a in ("-h", "--help") for a in argv):
        return argv
    for i, tok in enumerate(argv):
        prev = argv[i - 1] if i else ""
        if prev.startswith("--") and "=" not in prev and prev not in KNOWN_FLAGS:
            continue  # the value of an option no command has (--sped 4): argparse says so
        if not tok.startswith("-") and (i == 0 or prev not in VALUE_OPTIONS or "=" in prev):
            raise UnknownCommand(tok, commands)
    return ["play", *argv]


KNOWN_FLAGS = {"--help", "--paused", "--fullscreen", "--json", "--force", "--strict", "--watch",
               "--text", "--all", "--punct"}  # options without a value (others: VALUE_OPTIONS)


def _unknown_options(p: argparse.ArgumentParser, command: str | None, extra: list[str]):
    """argparse's 'unrecognized arguments', from the command's own parser (its usage, its
    name: `python main.py play: error: …`), with the nearest option it takes."""
    import difflib

    sub = p._subparsers._group_actions[0].choices.get(command) if command else None  # noqa: SLF001
    target = sub or p
    opts = sorted(o for a in target._actions for o in a.option_strings  # noqa: SLF001
                  if o.startswith("--"))
    hint = ""
    for word in extra:
        if word.startswith("--"):
            close = difflib.get_close_matches(word.split("=")[0], opts, n=1, cutoff=0.6)
            if close:
                hint = words.tr(" (did you mean {option}?)").format(option=close[0])
                break
    with words.argparse_words():
        target.error(words.tr("unrecognized arguments: %s") % " ".join(extra) + hint)


class UnknownCommand(Exception):
    def __init__(self, word: str, commands: list[str]):
        import difflib

        close = difflib.get_close_matches(word, sorted(commands), n=3, cutoff=0.5)
        guess = words.tr("; did you mean {commands}?").format(
            commands=words.tr(" or ").join(close)) if close else ""
        super().__init__(words.tr("unknown command {word}{guess}\ncommands: {commands} "
                                  "(python main.py --help explains each)").format(
            word=repr(word), guess=guess, commands=", ".join(commands)))


def main(argv: list[str] | None = None) -> int:
    """Run the command line; the reader's language it chose is put back after (for callers
    that run several, as the tests do)."""
    from viz.base import lang

    saved = lang.current()
    try:
        return _main(argv)
    finally:
        lang.use(saved)


def _main(argv: list[str] | None) -> int:
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
    from viz.base import lang

    lang.use(words.asked(argv))  # before the parser: its help and errors are in that language
    p = parser()
    commands = list(p._subparsers._group_actions[0].choices)  # noqa: SLF001 (--help's order)
    try:
        argv = _command_first(argv, commands)
    except UnknownCommand as e:
        print(words.tr("error: {}").format(e), file=sys.stderr)
        return 2
    with words.argparse_words():
        args, extra = p.parse_known_args(argv)
    if extra:  # named by the command it was given to, with the nearest option it has
        _unknown_options(p, args.command, extra)
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
    except BrokenPipeError:  # `state --json | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
