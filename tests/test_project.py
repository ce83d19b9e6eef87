"""The project as a newcomer meets it: the README's commands, CI, and `--help`."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Two commands", 1)[1].split("\n## ", 1)[0]
    return [ln.strip() for ln in section.splitlines() if ln.startswith("    ")]


def test_readme_has_two_commands_and_ci_runs_the_test_one():
    play, test = readme_commands()
    assert play.endswith("python main.py") and "pip install" in play
    assert "pytest" in test and "pip install" in test
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test in ci.splitlines()


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


def test_the_model_does_not_import_pygame():
    code = ("import sys\n"
            "import viz.text, viz.model.layout, viz.model.paths, viz.model.script.reader, viz.model.compile, viz.model.timeline, "
            "viz.query.state, viz.draw.display, viz.draw.scene, viz.draw.camera, viz.draw.hud, "
            "viz.draw.compose, viz.model.verbs, viz.model.schema, viz.model.rite, viz.query.lint, viz.base.cache\n"
            "print('pygame' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
