"""The quick tier (`python3 tools/dev.py test --quick`, tests/tiers.py) leaves out only what is
marked slow, and the tests that remain still import every module of viz/."""
from __future__ import annotations

import importlib.util
import sys

from tiers import ROOT, message, missing, viz_modules


def test_the_tests_import_every_module_of_viz():
    """Run last, after every other test of the run (quick or whole): each module of viz/ was
    imported by some test, so none goes untested by the quick tier. A module missing here wants
    a quick test that uses it (or, if nothing uses it, to be deleted)."""
    modules = viz_modules()
    assert len(modules) > 80 and "viz.model.rite" in modules and "viz.cli.main" in modules
    absent = missing(sys.modules)
    assert absent == [], message(absent)


def test_the_joined_check_names_a_module_no_worker_imported():
    """The parallel form of the check (tests/tiers.py) fails on a module no worker imported."""
    everything = viz_modules()
    assert missing(everything) == []
    assert missing([m for m in everything if m != "viz.model.rite"]) == ["viz.model.rite"]
    assert "viz.model.rite" in message(["viz.model.rite"])


def _dev():
    spec = importlib.util.spec_from_file_location("dev", ROOT / "tools" / "dev.py")
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    return dev


def test_quick_runs_pytest_without_the_slow_tests_and_nothing_else_changes():
    dev = _dev()
    assert dev.pytest_args([]) == ["-n", "auto"]  # the whole folder, on every core
    assert dev.pytest_args(["-k", "yamlsrc", "-x"]) == ["-k", "yamlsrc", "-x"]
    assert dev.pytest_args(["--quick"]) == ["-m", "not slow", "-n", "auto"]
    assert dev.pytest_args(["-x", "--quick", "tests/test_app.py"]) == [
        "-m", "not slow", "-x", "tests/test_app.py"]
    assert "--quick" in dev.USAGE and "--quick" in dev.__doc__


def test_the_tests_keep_their_bytecode_between_runs_outside_the_clone():
    """tools/dev.py's test runs write bytecode (pytest's rewritten tests too) under the user's
    cache folder, even where PYTHONDONTWRITEBYTECODE is set, and keep a prefix of one's own."""
    dev = _dev()
    env = dev.test_env({"XDG_CACHE_HOME": "/c", "PYTHONDONTWRITEBYTECODE": "1", "X": "y"})
    assert env["PYTHONPYCACHEPREFIX"] == "/c/xiangshe/pycache"
    assert "PYTHONDONTWRITEBYTECODE" not in env and env["X"] == "y"
    assert env["SDL_VIDEODRIVER"] == env["SDL_AUDIODRIVER"] == "dummy"
    assert dev.test_env({"PYTHONPYCACHEPREFIX": "/mine"})["PYTHONPYCACHEPREFIX"] == "/mine"
    home = dev.test_env({})["PYTHONPYCACHEPREFIX"]
    assert not home.startswith(str(ROOT)) and home.endswith("xiangshe/pycache")


def test_slow_is_a_registered_marker(request):
    """`slow` is declared in pyproject.toml (pytest warns of an unknown one, and -m "not slow"
    would then leave out nothing without a word)."""
    assert any(m.startswith("slow:") for m in request.config.getini("markers"))
    # and a plain run (the README's command, CI's) leaves out nothing
    assert not any(o.startswith("-m") for o in request.config.getini("addopts"))


def test_only_the_quick_tier_keeps_its_compile_cache_between_runs():
    """test --quick keeps the tests' compile cache under the user's cache folder (conftest's
    _parse_cache reads XIANGSHE_TEST_CACHE); the full tier, as CI runs it, starts empty."""
    dev = _dev()
    assert "XIANGSHE_TEST_CACHE" not in dev.test_env({"XDG_CACHE_HOME": "/c"})
    quick = dev.test_env({"XDG_CACHE_HOME": "/c"}, quick=True)
    assert quick["XIANGSHE_TEST_CACHE"] == "/c/xiangshe/test-cache"
    assert dev.test_env({"XIANGSHE_TEST_CACHE": "/t"}, quick=True)["XIANGSHE_TEST_CACHE"] == "/t"


def test_tests_that_drive_a_browser_are_slow():
    """tiers.mark_browser_slow puts every test asking for the `browser` fixture in the slow tier."""
    from types import SimpleNamespace

    import tiers

    marked = []
    a = SimpleNamespace(fixturenames=("browser", "tmp_path"), add_marker=marked.append)
    b = SimpleNamespace(fixturenames=("tmp_path",), add_marker=lambda m: marked.append(("b", m)))
    tiers.mark_browser_slow([a, b])
    assert [m.name for m in marked] == ["slow"]


def test_tests_that_start_playwright_themselves_or_in_a_fixture_are_slow():
    """A test whose code or fixture (test_web_mats' page_of_mats) starts Playwright is slow too."""
    from types import SimpleNamespace

    import tiers
    from test_web_mats import page_of_mats

    def drives():
        from playwright import sync_api
        return sync_api.sync_playwright()

    def plain(tmp_path):
        return tmp_path

    fixture = SimpleNamespace(func=getattr(page_of_mats, "__wrapped__", page_of_mats))
    marked = []
    items = [SimpleNamespace(function=drives, fixturenames=(), add_marker=marked.append),
             SimpleNamespace(function=plain, fixturenames=("page_of_mats",), add_marker=marked.append,
                             _fixtureinfo=SimpleNamespace(name2fixturedefs={"page_of_mats": [fixture]})),
             SimpleNamespace(function=plain, fixturenames=("tmp_path",), add_marker=marked.append)]
    tiers.mark_browser_slow(items)
    assert [m.name for m in marked] == ["slow", "slow"]
