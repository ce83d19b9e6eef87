"""Shared test fixtures: headless SDL, a small open-field layout, the bundled corpus."""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

# tests write nothing into the source tree: no example database, and hypothesis' own files
# (.hypothesis/: what it read of each local module's source, about 2 s of CPU a process to work
# out afresh) in a temporary folder, one for a run's pytest-xdist workers, or beside the quick
# tier's kept compile cache (XIANGSHE_TEST_CACHE)
_HOME = os.environ.get("XIANGSHE_TEST_CACHE")
_RUN = os.environ.get("PYTEST_XDIST_TESTRUNUID", "")
if _HOME:
    _HOME = os.path.join(_HOME, "hypothesis")
elif _RUN.isalnum():
    _HOME = os.path.join(tempfile.gettempdir(), f"xiangshe-hypothesis-{_RUN}")
else:
    _HOME = tempfile.mkdtemp(prefix="xiangshe-hypothesis-")
os.makedirs(_HOME, exist_ok=True)
set_hypothesis_home_dir(_HOME)
settings.register_profile("project", database=None)
settings.load_profile("project")

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


@dataclass(frozen=True)
class FakePlace:
    name: str
    x: float
    y: float
    source: str = "test"
    note: str = ""
    region: str = "庭"


class FieldLayout:
    """An open field with a few named places: straight paths, no stairs, so times are by hand."""

    chi_m = 0.231
    name = "field"
    file = "<field>"
    reading = "鄭"
    features = ()

    def __init__(self, **places: tuple[float, float]):
        self.places = {k: FakePlace(k, float(x), float(y)) for k, (x, y) in places.items()}

    def route(self, a, b, via=()):
        return np.array([a, b], dtype=float)

    def segment_blocked(self, a, b) -> bool:
        return False

    def stair_steps(self, polyline) -> int:
        return 0

    def nearest_place(self, x, y) -> str:
        return min(self.places.values(), key=lambda p: (p.x - x) ** 2 + (p.y - y) ** 2).name

    def region_at(self, x, y) -> str:
        return "堂" if y > 0 else "庭"

    def place_xy(self, name):
        p = self.places[name]
        return np.array([p.x, p.y])


@pytest.fixture(autouse=True, scope="session")
def _parse_cache(tmp_path_factory):
    """Parsed files are cached under a temporary folder, not the user's: the run's own, one for
    all its pytest-xdist workers (their temporary folders are inside the run's), so a rite one
    worker compiled (in the tests or in a command they run) is loaded by the other."""
    mp = pytest.MonkeyPatch()
    run = tmp_path_factory.getbasetemp()
    run = run.parent if os.environ.get("PYTEST_XDIST_WORKER") else run
    mp.setenv("XIANGSHE_CACHE", os.environ.get("XIANGSHE_TEST_CACHE") or str(run / "cache"))
    # a run compiles some forty rites (copies and toys among them) under more than a hundred
    # keys (each scenario and reading its own): room for them all, in the commands the tests run
    # too, so the bundled rites compiled early are still there later in the run and in the quick
    # tier's next (at 64, the bundled rite's key was pruned by the end of each quick run, and
    # the next compiled it again: 5 s of CPU in the fixture)
    mp.setenv("XIANGSHE_CACHE_COMPILES", "256")
    yield
    mp.undo()


@pytest.fixture
def field():
    return FieldLayout(門外=(0, -100), 門內=(0, -90), 阼階下=(20, -5), 西階下=(-20, -5),
                       阼階上=(20, 3), 西階上=(-20, 3), 洗=(30, -30), 上篚=(10, 20))


@pytest.fixture(scope="session")
def corpus():
    from viz.text import load_corpus

    return load_corpus()


@pytest.fixture(scope="session")
def bundled():
    """The bundled rite (鄉射禮: its folder and layout, the default scenario, 鄭) compiled once per
    test run, a model.Compiled shared by every test that only reads it: never change it (a test
    that must, or wants another scenario, reading or copy, compiles its own)."""
    from viz import DEFAULT_LAYOUT, DEFAULT_SCRIPT
    from viz.model.rite import Rite
    from viz.text import load_corpus

    # load_corpus gives the `corpus` fixture's object (it keeps one per file), not asked for as
    # a fixture: a module may override that one
    return Rite(DEFAULT_SCRIPT, DEFAULT_LAYOUT, load_corpus()).get(())


@pytest.fixture(scope="session")
def bundled_frames(bundled):
    """viz.export.sheets.step_frames of `bundled` (everyone at each step's start and end), once a
    run for every cue-sheet test (test_sheets, test_handouts_lang): read it, never change it."""
    from viz.export import sheets

    return sheets.step_frames(bundled.timeline)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """The check that the tests imported every module of viz/ runs last (tests/tiers.py), and
    the tests driving a real browser (test_web's `browser` fixture) are of the slow tier."""
    from tiers import check_last, mark_browser_slow

    mark_browser_slow(items)
    check_last(config, items)


def pytest_sessionfinish(session, exitstatus):
    """Under pytest-xdist, the every-module check is joined over the workers (tests/tiers.py)."""
    import tiers

    if hasattr(session.config, "workeroutput"):
        tiers.worker_done(session.config)
    else:
        tiers.controller_check(session)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    import tiers

    tiers.node_down(node)


# The first sections of the bundled rite follow on from each other with no gap (戒賔 has the
# setup), and these pattern files name only the cast and props those sections bring in.
FIRST_SECTIONS = ("01", "02", "03", "04", "05")
FIRST_PATTERNS = ("設", "射")


def trim_rite(folder: Path, sections: Sequence[str] = FIRST_SECTIONS,
              patterns: Sequence[str] = FIRST_PATTERNS) -> Path:
    """Cut a copy of the rite down: its manifest.yaml names only the sections whose file names
    start with one of `sections` (in the manifest's order), and of its patterns folder only the
    files patterns/NAME.yaml stay (the manifest still reads the whole folder, and the bundled
    library, assets/patterns/)."""
    man = folder / "manifest.yaml"
    lines = man.read_text(encoding="utf-8").split("\n")
    assert any(ln.startswith("patterns: [library, patterns]") for ln in lines), \
        "the manifest no longer reads the bundled library and its patterns folder"
    named = [ln for ln in lines if ln.startswith("  - sections/")]
    kept = [ln for ln in named if ln[len("  - sections/"):].startswith(tuple(sections))]
    assert len(kept) == len(sections), f"the manifest does not name sections {sections}"
    man.write_text("\n".join(ln for ln in lines if ln not in named or ln in kept),
                   encoding="utf-8")
    for f in (folder / "patterns").glob("*.yaml"):
        if f.stem not in patterns:
            f.unlink()
    return folder


@pytest.fixture(scope="session")
def small_rite(tmp_path_factory):
    """make(sections=FIRST_SECTIONS, patterns=FIRST_PATTERNS, dst=None) -> a fresh copy of the
    bundled rite folder cut down by trim_rite to those sections and pattern files, to edit or
    damage: it compiles in a fraction of a second where the whole rite takes many. The copy is
    made in a new temporary folder, or at dst (replacing what is there: the parse cache is keyed
    by path, so files copied again to the same place are not parsed again)."""
    from rites import copy_bundled

    from viz import DEFAULT_SCRIPT

    def make(sections: Sequence[str] = FIRST_SECTIONS, patterns: Sequence[str] = FIRST_PATTERNS,
             dst: Path | None = None) -> Path:
        if dst is None:
            dst = tmp_path_factory.mktemp("rite") / DEFAULT_SCRIPT.name
        elif dst.exists():
            shutil.rmtree(dst)
        copy_bundled(dst)
        return trim_rite(dst, sections, patterns)
    return make
