"""Issue 25, "copies that work": a bundled rite copied to a folder outside the project passes
`check --strict` unchanged, its manifest naming the bundled text, hall and pattern library by
name (viz.model.bundled), not by a path relative to where the bundled copy stands."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from viz import ASSETS, ROOT
from viz.cli.main import main
from viz.model.package import bundled


@pytest.mark.slow
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


def test_a_bundled_rite_named_by_like_is_shown_as_the_rites_own_files_are(monkeypatch, tmp_path):
    """like: {rite: xiangshe} gives paths relative to the current folder when under it (so
    state's "script" and coverage print the same wherever the project is cloned)."""
    from viz import ASSETS
    from viz.model.script.like import _other_rite

    monkeypatch.chdir(ASSETS.parent)
    assert _other_rite("xiangshe", tmp_path) == Path("assets/rites/xiangshe")
    assert _other_rite("鄉射禮", tmp_path) == Path("assets/rites/xiangshe")
    monkeypatch.chdir(tmp_path)  # outside the project: the whole path, as for its own files
    assert _other_rite("xiangshe", tmp_path) == ASSETS / "rites" / "xiangshe"
