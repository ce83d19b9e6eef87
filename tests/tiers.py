"""The two tiers of tests. `python3 tools/dev.py test` (the README's command; CI runs it) runs
every test; `python3 tools/dev.py test --quick` leaves out those marked `slow` (pytest's
`-m "not slow"`: whole-rite sweeps, every scenario, hypothesis at its full count), and must still
import every module of viz/. tests/test_tiers.py checks that, last in a run of the whole folder;
conftest.py's pytest_collection_modifyitems calls check_last to put it there.

Run in parallel (pytest-xdist's `-n`, as tools/dev.py runs the whole folder), no worker sees what
the others imported, so the check leaves the workers: each sends the viz modules it imported, and
the controller joins them and fails the run, with the same message, if one is missing."""
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


def mark_browser_slow(items: list[pytest.Item]) -> None:
    """A test that drives Chromium is slow: starting the browser and loading a page takes
    seconds. That is a test asking for test_web's `browser` fixture, or one whose own code or
    fixtures (any module's) start Playwright (name `sync_playwright`). The full tier runs them
    all; the quick tier still imports viz.export.web through the page's data tests."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()) or _starts_a_browser(item):
            item.add_marker(pytest.mark.slow)


def _starts_a_browser(item) -> bool:
    funcs = [getattr(item, "function", None)]
    info = getattr(item, "_fixtureinfo", None)
    for defs in (info.name2fixturedefs.values() if info is not None else ()):
        funcs += [d.func for d in defs]
    return any("sync_playwright" in _names(f) for f in funcs if f is not None)


def _names(func) -> tuple[str, ...]:
    """The global and attribute names a function's code uses (hypothesis' wrapper: the test's)."""
    func = getattr(getattr(func, "hypothesis", None), "inner_test", func)
    code = getattr(func, "__code__", None)
    return code.co_names if code is not None else ()


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
    whole = whole and not config.getoption("keyword")
    worker = getattr(config, "workeroutput", None)
    if worker is not None:  # in parallel: the controller checks (see the module's docstring)
        worker["tiers_whole"] = whole
        config.hook.pytest_deselected(items=at)
    elif whole:
        items.extend(at)
    else:
        config.hook.pytest_deselected(items=at)


def missing(imported) -> list[str]:
    """The modules of viz/ not among `imported` (module names)."""
    seen = set(imported)
    return [m for m in viz_modules() if m not in seen]


def message(absent: list[str]) -> str:
    return f"no test of this run imports {', '.join(absent)}"


def worker_done(config: pytest.Config) -> None:
    """In a worker, at its session's end: what its tests imported, for the controller."""
    import sys

    config.workeroutput["viz_modules"] = sorted(m for m in sys.modules if m.split(".")[0] == "viz")


def node_down(node) -> None:
    """In the controller, as each worker ends: join what it imported."""
    out = getattr(node, "workeroutput", {})
    state = node.config.stash.setdefault(JOINED, {"modules": set(), "whole": [], "nodes": 0})
    state["modules"].update(out.get("viz_modules", ()))
    state["whole"].append(out.get("tiers_whole", False))
    state["nodes"] += 1


def controller_check(session: pytest.Session) -> None:
    """In the controller, at the end: fail the run if a whole-folder run left a module unimported."""
    state = session.config.stash.get(JOINED, None)
    if not state or not state["whole"] or not all(state["whole"]):
        return
    absent = missing(state["modules"])
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if absent:
        if reporter is not None:
            reporter.write_sep("=", f"{CHECK} (joined over {state['nodes']} workers) FAILED", red=True)
            reporter.write_line(message(absent))
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    elif reporter is not None:
        reporter.write_line(f"{CHECK}: every module of viz/ imported ({state['nodes']} workers joined)")


JOINED = pytest.StashKey[dict]()
