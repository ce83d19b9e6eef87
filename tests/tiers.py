"""The two tiers of tests. `python3 tools/dev.py test` (the README's command; CI runs it) runs
every test; `python3 tools/dev.py test --quick` leaves out those marked `slow` (pytest's
`-m "not slow"`: whole-rite sweeps, every scenario, hypothesis at its full count), and must still
import every module of viz/. tests/test_tiers.py checks that, last in a run of the whole folder;
conftest.py's pytest_collection_modifyitems calls check_last to put it there."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
VIZ = ROOT / "viz"
CHECK = "test_the_tests_import_every_module_of_viz"  # in tests/test_tiers.py


def viz_modules() -> list[str]:
    """Every module of viz/ by its dotted name (a package by its __init__'s)."""
    out = []
    for f in sorted(VIZ.rglob("*.py")):
        parts = f.relative_to(ROOT).with_suffix("").parts
        out.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return out


def check_last(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Move the check to the end of the run. A run of some files only (or of some tests by -k)
    imports what those need: there the check is deselected, as pytest's summary line says.
    Called before -m and -k deselect (conftest's hook runs first), so a quick run of the whole
    folder still counts as whole."""
    at = [i for i in items if i.name == CHECK]
    if not at:
        return
    items[:] = [i for i in items if i.name != CHECK]
    collected = {Path(str(i.path)).resolve() for i in items}
    whole = set(TESTS.glob("test_*.py")) - {Path(str(at[0].path)).resolve()} <= collected
    if whole and not config.getoption("keyword"):
        items.extend(at)
    else:
        config.hook.pytest_deselected(items=at)
