"""Shared test fixtures: headless SDL, a small open-field layout, the bundled corpus."""
from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

# tests write nothing into the source tree: no example database, and hypothesis' own files
# (.hypothesis/) in a temporary folder
set_hypothesis_home_dir(tempfile.mkdtemp(prefix="xiangshe-hypothesis-"))
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
    """Parsed files are cached under a temporary folder, not the user's."""
    mp = pytest.MonkeyPatch()
    mp.setenv("XIANGSHE_CACHE", str(tmp_path_factory.mktemp("cache")))
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
