"""Issue 25, "copies that work": a bundled rite copied to a folder outside the project passes
`check --strict` unchanged, its manifest naming the bundled text, hall and pattern library by
name (viz.model.bundled), not by a path relative to where the bundled copy stands."""
from __future__ import annotations

import shutil

import pytest

from viz import ASSETS, ROOT
from viz.cli.main import main
from viz.model.package import bundled


@pytest.mark.parametrize("folder", [p.script.name for p in bundled()])
def test_a_bundled_rite_copied_outside_the_project_passes_check_strict(folder, tmp_path,
                                                                       capsys):
    copy = tmp_path / "elsewhere" / folder
    shutil.copytree(ASSETS / "rites" / folder, copy)
    assert ROOT not in copy.resolve().parents
    code = main(["check", "--strict", "--rite", str(copy)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.startswith("ok: ") and f"{copy}: " in out.splitlines()[0]


def test_the_bundled_manifests_name_bundled_things_by_name():
    for pkg in bundled():
        text = (pkg.script / "manifest.yaml").read_text(encoding="utf-8")
        assert "../" not in text and "/layouts/" not in text, pkg.script.name
        assert "patterns: [library, patterns]" in text
