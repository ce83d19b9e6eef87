"""The font a rite names: its manifest's `font:` (drawn with instead of the bundled font) and
`fallback:` (consulted for the characters that font lacks), chosen once at the command line's
edge (viz.cli.options.spec_of: the package's) and read by the drawing (viz.backends.fonts), the
page and the plates. Paths only: no pygame here, so the model and the CLI may set it."""
from __future__ import annotations

from pathlib import Path

_chosen: tuple[Path | None, Path | None] = (None, None)


def choose(font: Path | None, fallback: Path | None) -> None:
    """The rite's font and fallback from now on (None: the bundled font, no fallback)."""
    global _chosen
    _chosen = (Path(font) if font else None, Path(fallback) if fallback else None)


def chosen() -> tuple[Path | None, Path | None]:
    """(font, fallback) as chosen; (None, None) for the bundled font alone."""
    return _chosen
