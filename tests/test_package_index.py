"""Each package's __init__ docstring is its index: every module of the package is named there on
a line of its own, with what it holds (issue 29: draw modules named for what they draw)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

VIZ = Path(__file__).resolve().parent.parent / "viz"
INDEXED = ["draw", "backends", "query", "cli", "text", "export", "base", "model", "model/script", "model/compile", "app"]


@pytest.mark.parametrize("package", INDEXED)
def test_every_module_is_listed_in_its_package_docstring(package):
    folder = VIZ / package
    doc = ast.get_docstring(ast.parse((folder / "__init__.py").read_text(encoding="utf-8")))
    # "    name  what it holds", or (model/script's and compile's form) "name.py  what it holds"
    listed = re.findall(r"^ {0,4}([a-z_]+)(?:\.py)?  +\S", doc, re.M)
    modules = sorted(f.stem for f in folder.glob("*.py") if f.stem != "__init__")
    assert sorted(listed) == modules, (set(modules) - set(listed), set(listed) - set(modules))
