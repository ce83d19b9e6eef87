"""The command line in the reader's language: `--help` of main and of every subcommand, and
argparse's own words ("usage:", "options", "invalid choice", "the following arguments are
required" …), in 中文 by default and English with `--lang en`.

The help strings stay written in English in the subcommand modules (they are the msgids); once
the parser is built, translate() walks it and puts each description and help in the reader's
language from the catalog assets/locale/LANG/LC_MESSAGES/cli.po (viz.base.lang, domain CLI).
A help filled in at build time ("play N times as fast (0.25, 0.5 …)") is found by its msgid's
fields (lang.tr_done). argparse's own words are looked up in the same catalog while the parser is
built and used (argparse_words()), through argparse's module-level gettext functions.

The language is chosen before the parser is built: asked(argv) pre-scans the command line for
`--lang X` (or `--lang=X`) wherever it stands, before or after the command; an unknown value
leaves the default, and argparse refuses it in the default's words."""
from __future__ import annotations

import argparse
import contextlib
import re
import unicodedata

from viz.base import lang


def asked(argv: list[str]) -> str | None:
    """The language --lang names on the command line (the last one given), or None."""
    got = None
    for i, tok in enumerate(argv):
        if tok == "--":
            break
        if tok == "--lang" and i + 1 < len(argv):
            got = argv[i + 1]
        elif tok.startswith("--lang="):
            got = tok.split("=", 1)[1]
    return got if got in lang.LANGS else None


def tr(msg):
    """A command-line word in the reader's language (a msgid the catalog lacks as it is)."""
    if not isinstance(msg, str) or not msg:
        return msg
    return lang.tr_done(msg, lang.CLI)


def _ntr(singular: str, plural: str, n: int) -> str:
    return tr(singular if n == 1 else plural)


@contextlib.contextmanager
def argparse_words():
    """argparse's own words from the CLI catalog while the block runs (it builds and uses the
    parser); argparse's gettext functions are put back after."""
    saved = argparse._, argparse.ngettext  # noqa: SLF001
    argparse._, argparse.ngettext = tr, _ntr  # noqa: SLF001
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # noqa: SLF001


def _width(ch: str) -> int:
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1


CLOSING = set("，。；：、）」』》〉！？…,.;:)")  # never at the start of a line


def wrap(text: str, width: int) -> list[str]:
    """Lines of at most `width` columns, a CJK character counting two and a break allowed
    between any two of them (not before closing punctuation); Latin words kept whole."""
    words: list[str] = []  # a CJK character, a run of other characters, or one space
    run = ""
    for ch in " ".join(text.split()):
        if ch == " " or _width(ch) == 2:
            if run:
                words.append(run)
                run = ""
            words.append(ch)
        else:
            run += ch
    if run:
        words.append(run)
    lines: list[str] = []
    line, used = "", 0
    for w in words:
        n = sum(_width(c) for c in w)
        if w == " ":
            if line:
                line, used = line + " ", used + 1
            continue
        if line and used + n > width and not (w in CLOSING and used + n <= width + 2):
            lines.append(line.rstrip())
            line, used = "", 0
        line, used = line + w, used + n
    if line.strip():
        lines.append(line.rstrip())
    return lines


class Formatter(argparse.HelpFormatter):
    """argparse's help with lines wrapped by display width (中文 takes two columns a character,
    and has no spaces to break at)."""

    def _split_lines(self, text, width):
        return wrap(text, width)

    def _fill_text(self, text, width, indent):
        return "\n".join(indent + line for line in wrap(text, width - len(indent)))

    def format_help(self):
        """A heading in 中文 ends with a full-width colon ("選項：")."""
        return HEADING.sub(r"\1：", super().format_help())


HEADING = re.compile(r"^(\S[^\n]*[\u3400-\u9fff]):$", re.M)


def translate(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Every description and help of p and its subcommands in the reader's language, wrapped
    by display width; --lang offered by every command (it is read before the parser is built,
    so a command that writes nothing in words of its own still takes it)."""
    p.formatter_class = Formatter
    if p.description:
        p.description = tr(p.description)
    for a in p._actions:  # noqa: SLF001
        if isinstance(a, argparse._SubParsersAction):  # noqa: SLF001
            for pseudo in a._choices_actions:  # noqa: SLF001
                pseudo.help = tr(pseudo.help)
            for sub in a.choices.values():
                if not any("--lang" in b.option_strings for b in sub._actions):  # noqa: SLF001
                    add_lang(sub)
                translate(sub)
        elif a.help and a.help is not argparse.SUPPRESS:
            a.help = tr(a.help)
    return p


LANG_HELP = ("the language of the program's own words in the window, sheets, plates and atlas: "
             "zh 中文 (default) or en English; the text stays as it is")


def add_lang(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lang", choices=lang.LANGS, default=None, help=LANG_HELP)

