"""What a command asks to see, resolved once at the command line's edge (viz.cli.options.spec_of):
the rite's package (its script, text, hall and title), the readings followed, and the scenario
(--set, --seed). A frozen value handed whole to Rite, the Reloader, the progressive compile and
the script reader's entry (load_script), which alone open it; nothing between the command line
and the reader takes it apart into strings (manim's ManimConfig.digest_args).

RiteSpec.at(script, layout, …) builds one from paths, for library callers and tests.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from viz.model.package import Package

DEFAULT_READING = "鄭"  # followed where nothing else is asked (viz.model.rite re-exports it)


@dataclass(frozen=True)
class Scenario:
    """What the text leaves open, as the command line settles it: --set KEY=VALUE (checked
    against the rite's declarations when the spec is made; the reader resolves them, with the
    defaults, against the files it reads) and --seed (None: scenario.DEFAULT_SEED)."""

    sets: tuple[tuple[str, str], ...] = ()
    seed: int | None = None


@dataclass(frozen=True)
class RiteSpec:
    """A rite to load: package.script and package.layout as a user would type them (the layout
    --layout gives, else the manifest's), package.text the corpus file (None: the bundled
    鄉射 text); readings besides 鄭 (鄭, the default, is dropped), in the order given."""

    package: Package
    readings: tuple[str, ...] = ()
    scenario: Scenario = field(default_factory=Scenario)

    def __post_init__(self) -> None:
        object.__setattr__(self, "readings",
                           tuple(r for r in self.readings if r != DEFAULT_READING))

    @property
    def script(self) -> Path:
        return self.package.script

    @property
    def layout(self) -> Path:
        return self.package.layout

    def under(self, readings) -> RiteSpec:
        """The same rite under other readings (this spec itself when they are its own)."""
        key = tuple(r for r in readings if r != DEFAULT_READING)
        return self if key == self.readings else replace(self, readings=key)

    @classmethod
    def at(cls, script: str | Path, layout: str | Path | None = None, readings=(), sets=(),
           seed: int | None = None) -> RiteSpec:
        """The rite at a script path (a rite folder, its manifest, or a one-file script) as its
        manifest names it, the layout given over the manifest's."""
        from viz.model.package import of_script

        pkg = replace(of_script(script), script=Path(script))
        if layout is not None:
            pkg = replace(pkg, layout=Path(layout))
        return cls(pkg, tuple(readings), Scenario(tuple(tuple(s) for s in sets), seed))
