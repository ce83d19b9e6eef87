"""The project as a newcomer meets it: the README's commands, CI, and `--help`."""
from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Two commands", 1)[1].split("\n## ", 1)[0]
    return [ln.strip() for ln in section.splitlines() if ln.startswith("    ")]


def test_readme_has_two_commands_and_ci_runs_the_test_one_in_a_fresh_venv():
    play, test = readme_commands()
    # python3, not python: Debian and Ubuntu have no `python` command
    assert play == "python3 tools/dev.py play" and test == "python3 tools/dev.py test"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test in ci
    fresh = next(i for i, ln in enumerate(ci) if ln.startswith("rm -rf .venv"))
    assert fresh < ci.index(test)


def test_the_set_up_script_says_one_line_on_an_old_python_and_its_usage_on_no_command():
    dev = ROOT / "tools" / "dev.py"
    # an old Python must read it far enough to refuse it: no syntax newer than 3.4's (f-strings,
    # the walrus), and ASCII (Python 2 wants an encoding line for anything else)
    source = dev.read_text(encoding="utf-8")
    assert source.isascii()
    ast.parse(source, feature_version=(3, 4))
    code = ("import sys; sys.version_info = (3, 9, 0, 'final', 0); sys.argv = ['dev.py', 'play'];"
            f"exec(compile(open({str(dev)!r}).read(), 'dev.py', 'exec'), "
            f"{{'__name__': '__main__', '__file__': {str(dev)!r}}})")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "needs Python 3.10 or newer" in out.stderr
    assert "Python 3.9" in out.stderr
    out = subprocess.run([sys.executable, str(dev)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "usage: python3 tools/dev.py" in out.stderr


def test_help_lists_every_command():
    out = subprocess.run([sys.executable, "main.py", "--help"], cwd=ROOT, capture_output=True,
                         text=True, encoding="utf-8", timeout=60)
    assert out.returncode == 0
    for cmd in ("play", "shot", "state", "check", "text", "find", "diff", "plate", "video", "sheet",
                "atlas"):
        assert re.search(rf"^\s+{cmd}\s", out.stdout, re.MULTILINE), (cmd, out.stdout)


def test_pyproject_declares_the_runtime_dependencies():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for dep in ("pygame-ce", "numpy", "pyyaml", "jsonschema"):
        assert f'"{dep}' in text


def test_the_set_up_script_installs_again_only_when_pyproject_or_the_extras_ask_it():
    spec = importlib.util.spec_from_file_location("dev", ROOT / "tools" / "dev.py")
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    stamp = {dev.HASH_KEY: "h1", "extras": ["test"]}
    assert dev.to_install({}, "h1", []) == set()  # nothing installed yet
    assert dev.to_install(stamp, "h1", []) is None
    assert dev.to_install(stamp, "h1", ["test"]) is None
    assert dev.to_install(stamp, "h1", ["video"]) is None  # [test] holds what [video] needs
    assert dev.to_install(stamp, "h2", []) == {"test"}  # pyproject.toml changed: keep the extras
    assert dev.to_install({dev.HASH_KEY: "h1", "extras": []}, "h1", ["test"]) == {"test"}
