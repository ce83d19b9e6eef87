"""Bundled things by name, and a rite package's paths kept inside its folder.

What a manifest (text:, layout:, cast:, patterns:, sections:), a layout's extends: and a stage's
like: {rite: …} name is either a file or folder inside the package (a relative path that does
not leave it, symlinks followed) or a bundled thing by its name:

    layout:    xu, xiang              layouts/NAME.yaml (the 州序 as 鄭 reads it; the 庠)
    text:      鄉射禮, 鄉飲酒禮        the bundled corpus of that chapter (assets/text/,
                                      assets/rites/xiangyin/text/)
    patterns:  library                the shared pattern library, assets/patterns/ (every file;
                                      `assets/patterns` and `assets/patterns/FILE.yaml`, the
                                      older spelling, name it too)
    like rite: 鄉射禮 or xiangshe …   a bundled rite by its rite: name or its folder's name

so a rite folder copied anywhere finds what it names. Anything else (an absolute path, a path
through `..` out of the folder, a symlink pointing out) is refused by `locate`'s message,
which quotes the reference as written and never a byte of what it points at.
"""
from __future__ import annotations

import os
from pathlib import Path, PurePath

from viz import ASSETS, LAYOUTS

LIBRARY = ASSETS / "patterns"
TEXTS = {"鄉射禮": ASSETS / "text" / "corpus.json",
         "鄉飲酒禮": ASSETS / "rites" / "xiangyin" / "text" / "corpus.json"}


def layouts() -> dict[str, Path]:
    """The bundled layouts by name: layouts/NAME.yaml."""
    return {p.stem: p for p in sorted(LAYOUTS.glob("*.yaml"))}


def texts() -> dict[str, Path]:
    """The bundled texts (their corpus.json) by the chapter they hold."""
    return dict(TEXTS)


def libraries() -> dict[str, Path]:
    """The shared pattern library by its name (and its older spellings, file by file)."""
    out = {"library": LIBRARY, "assets/patterns": LIBRARY}
    out.update({f"assets/patterns/{p.name}": p for p in sorted(LIBRARY.glob("*.yaml"))})
    return out


def within(root: Path, path: Path) -> bool:
    """path lies inside root once both are resolved (every symlink followed)."""
    try:
        real, top = Path(os.path.realpath(path)), Path(os.path.realpath(root))
    except (OSError, ValueError):
        return False
    return real == top or top in real.parents


def outside(root: Path, ref: str, names: dict[str, Path] | None = None, kind: str = "file",
            where: str = "the rite's folder") -> str | None:
    """Why the relative path ref leaves root (absolute, through `..`, or by a symlink that
    points out), None when it stays inside (or names nothing yet). Quotes ref as written,
    never what it points at."""
    absolute = PurePath(ref).is_absolute()
    if not absolute and within(root, root / ref):
        return None
    how = "is outside" if absolute else "leads out of"
    named = f", or a bundled {kind} by its name ({_known(names)})" if names else ""
    return f"{ref} {how} {where} ({root.name}/): a package reads only its own files{named}"


def locate(root: Path, ref: object, names: dict[str, Path], kind: str,
           where: str = "the rite's folder") -> tuple[Path | None, str | None]:
    """(the file or folder ref names, None); (None, why) when ref is refused (not a path, or
    one out of root); (None, None) when it names nothing (missing: the caller says what it
    expected; `known` lists the names). ref: a path relative to root that stays inside it,
    else the name of a bundled `kind` (names). why quotes ref and the names it could have
    been, never the contents of anything."""
    if not isinstance(ref, str) or not ref.strip():
        return None, f"expected a file inside {where} or a bundled {kind}'s name, found {ref!r}"
    here = root / ref
    if not PurePath(ref).is_absolute() and os.path.lexists(here):
        why = outside(root, ref, names, kind, where)
        return (here, None) if why is None else (None, why)
    if ref in names:
        return names[ref], None
    return None, outside(root, ref, names, kind, where)


def known(names: dict[str, Path]) -> str:
    """The names a reference could have given, for a message."""
    return _known(names)


def _known(names: dict[str, Path]) -> str:
    shown = [n for n in names if "/" not in n]
    return ", ".join(shown) if shown else "none"
