"""The reader's language: what the program itself writes (the window's help and toasts, cue
sheets, plates, the atlas) in 中文 by default, or English (`--lang en`).

Standard gettext: the words are written in the code as msgids and looked up in a catalog per
language, assets/locale/LANG/LC_MESSAGES/xiangshe.po (zh, en); the command line's own words
(--help, argparse's "usage:" and errors: viz/cli/words.py) in cli.po beside it, apart because
the bundled font need not draw them (xiangshe.po's words are all drawn, so checked against it).
A compiled .mo beside a .po is used when there is one (`msgfmt` makes it); without one the .po is read directly by
POTranslations, a gettext.NullTranslations, so a clone runs with no build step and the catalog
a translator edits is the one the program reads (no binary in the repository to go stale).

A msgid is the literal as the code has it: the new handout code writes English msgids (zh.po
translates them); the window's older bilingual literals ("播放／暫停 play / pause") are
msgids that both catalogs split. A msgid a catalog lacks is shown as it is.

The language is chosen once per run (use(), from --lang), before anything is drawn; the
module-level constants that hold msgids are translated where they are drawn (tr(CONST))."""
from __future__ import annotations

import ast
import gettext
import re
from functools import lru_cache
from pathlib import Path

from viz import ASSETS

DOMAIN = "xiangshe"
CLI = "cli"  # the command line's words (--help, argparse's): a terminal's font shows them, so
# they are kept out of the catalog the bundled font must draw (and the page's font subset)
LOCALE = ASSETS / "locale"
LANGS = ("zh", "en")
DEFAULT = "zh"

_lang = DEFAULT


class CatalogError(ValueError):
    pass


class POTranslations(gettext.NullTranslations):
    """gettext's translations read from a .po file (msgid/msgstr, continued lines, comments)."""

    def _parse(self, fp) -> None:
        self._catalog: dict[str, str] = {}
        path = getattr(fp, "name", "<po>")
        key: str | None = None
        cur: list[str] | None = None
        msgid: list[str] = []
        msgstr: list[str] = []

        def done() -> None:
            if msgid is not None and "".join(msgid) and "".join(msgstr):
                self._catalog["".join(msgid)] = "".join(msgstr)

        for n, raw in enumerate(fp.read().decode("utf-8").splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            try:
                if line.startswith("msgid "):
                    if key == "msgstr":
                        done()
                    msgid, msgstr, key = [], [], "msgid"
                    cur = msgid
                    cur.append(_unquote(line[6:]))
                elif line.startswith("msgstr "):
                    key, cur = "msgstr", msgstr
                    cur.append(_unquote(line[7:]))
                elif line.startswith('"') and cur is not None:
                    cur.append(_unquote(line))
                else:
                    raise ValueError("expected msgid, msgstr, a quoted string or a # comment")
            except (ValueError, SyntaxError) as e:
                raise CatalogError(f"{path}:{n}:1: {e}") from None
        if key == "msgstr":
            done()

    def gettext(self, message: str) -> str:
        got = self._catalog.get(message)
        if got is None:
            return self._fallback.gettext(message) if self._fallback else message
        return got


def _unquote(s: str) -> str:
    s = s.strip()
    if len(s) < 2 or s[0] != '"' or s[-1] != '"':
        raise ValueError(f"expected a string in double quotes; found {s!r}")
    return ast.literal_eval(s)


@lru_cache(maxsize=None)
def translations(lang: str, domain: str = DOMAIN) -> gettext.NullTranslations:
    """The catalog of `lang` (zh, en): the .mo when compiled, else the .po. domain: DOMAIN
    (what is drawn and written) or CLI (the command line's words)."""
    if lang not in LANGS:
        raise ValueError(f"language {lang!r}: expected one of {', '.join(LANGS)}")
    mo = gettext.find(domain, str(LOCALE), [lang])
    if mo:
        with open(mo, "rb") as f:
            return gettext.GNUTranslations(f)
    po = Path(LOCALE) / lang / "LC_MESSAGES" / f"{domain}.po"
    with open(po, "rb") as f:
        return POTranslations(f)


def use(lang: str | None) -> None:
    """Write in `lang` from now on (None: the default, 中文)."""
    global _lang
    lang = lang or DEFAULT
    translations(lang)  # a bad catalog is reported before anything is drawn
    _lang = lang


def current() -> str:
    return _lang


def html_lang() -> str:
    """The page's lang attribute: the text is 中文 in both, the program's own words follow."""
    return "zh-Hant" if _lang == "zh" else "en"


def tr(msg: str) -> str:
    """`msg` in the reader's language."""
    return translations(_lang).gettext(msg)


_ = tr

_FIELD = re.compile(r"\{([^{}]*)\}")


@lru_cache(maxsize=None)
def _patterns(lang: str, domain: str = DOMAIN
              ) -> tuple[tuple[re.Pattern, str, tuple[str, ...]], ...]:
    """The catalog's msgids with fields ("鼓 on — {why}") as patterns matching them filled in."""
    out = []
    for msgid, msgstr in catalog(lang, domain).items():
        if "{" not in msgid:
            continue
        parts, names, at = [], [], 0
        for k, m in enumerate(_FIELD.finditer(msgid)):
            parts.append(re.escape(msgid[at:m.start()]))
            parts.append(f"(?P<f{k}>.*?)")
            names.append(m.group(1).split(":")[0].split("!")[0] or str(k))
            at = m.end()
        parts.append(re.escape(msgid[at:]))
        out.append((len(_FIELD.sub("", msgid)), re.compile("".join(parts), re.S), msgstr,
                    tuple(names)))
    # the msgid with the most words of its own first: "{name} or {folder}" would match any
    # text with " or " in it, a longer msgid holding those words too is the one meant
    out.sort(key=lambda p: -p[0])
    return tuple(o[1:] for o in out)


def tr_done(text: str, domain: str = DOMAIN) -> str:
    """A message already filled in (a toast: "鼓 on — no sound device") in the reader's
    language: its msgid is found by the fields' places, the translation filled with the same
    words. A message no msgid matches is shown as it is."""
    got = translations(_lang, domain).gettext(text)
    if got is not text and got != text:
        return got
    for pat, msgstr, names in _patterns(_lang, domain):
        m = pat.fullmatch(text)
        if m is None:
            continue
        values = {n: m.group(f"f{k}") for k, n in enumerate(names)}
        auto = iter(v for n, v in values.items() if n.isdigit())
        return _FIELD.sub(lambda f: values.get(f.group(1).split(":")[0].split("!")[0])
                          or next(auto, f.group(0)), msgstr)
    return text


def catalog(lang: str, domain: str = DOMAIN) -> dict[str, str]:
    """msgid → text of a language's catalog (for the font check and the tests)."""
    return dict(translations(lang, domain)._catalog)  # noqa: SLF001
