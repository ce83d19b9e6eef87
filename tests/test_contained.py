"""Issue 28, "a package stays in its folder": what a manifest names (text:, layout:, cast:,
patterns:, sections:, like: {rite: …}) and a layout's extends: resolve inside the package, or to
bundled things by name; an absolute path, a path through `..` out of it, or a symlink pointing
out is refused at its key, with no byte of the outside file in the message."""
from __future__ import annotations

import os
import re

import pytest

from test_package import make_toy, run  # noqa: E402 (the tests' folder is on the path)

SECRET = "PASSWORD-hunter2"  # the first line of a file the package must not read


@pytest.fixture
def setting(tmp_path):
    """A toy package at tmp_path/pkg/試禮 and a secret file beside pkg, outside it."""
    secret = tmp_path / "secret.yaml"
    secret.write_text(f"{SECRET}: 1\nplaces: {{{SECRET}: 2}}\n", encoding="utf-8")
    return make_toy(tmp_path / "pkg" / "試禮"), secret


def set_key(folder, key: str, value: str) -> tuple[str, int, int]:
    """The manifest's key set to value; (manifest, line, column) of the value."""
    man = folder / "manifest.yaml"
    text = man.read_text(encoding="utf-8")
    text, n = re.subn(rf"^{key}: .*$", f"{key}: {value}", text, count=1, flags=re.M)
    if n == 0:
        text = text.replace("cast: cast.yaml\n", f"cast: cast.yaml\n{key}: {value}\n")
    man.write_text(text, encoding="utf-8")
    line = text[:text.index(f"\n{key}: ")].count("\n") + 2
    return str(man), line, len(key) + 3


def refused(capsys, folder, where: tuple[str, int, int], words: str) -> str:
    code, out, err = run(capsys, "check", "--rite", str(folder))
    man, line, col = where
    assert code == 2, out + err
    assert SECRET not in out + err and "Traceback" not in err
    assert f"{man}:{line}:{col}: " in err and words in err, err
    return err


@pytest.mark.parametrize("key", ["text", "layout", "cast"])
def test_an_absolute_path_out_of_the_package_is_refused(capsys, setting, key):
    folder, secret = setting
    err = refused(capsys, folder, set_key(folder, key, str(secret)), "is outside the rite's folder")
    assert f"{key}: {secret} is outside" in err


@pytest.mark.parametrize("key", ["text", "layout", "cast", "patterns"])
def test_a_path_through_dotdot_out_of_the_package_is_refused(capsys, setting, key):
    folder, _ = setting
    value = "[../../secret.yaml]" if key == "patterns" else "../../secret.yaml"
    man, line, col = set_key(folder, key, value)
    col += value.startswith("[")  # the list's item
    refused(capsys, folder, (man, line, col), "leads out of the rite's folder")


def test_a_section_that_is_a_symlink_out_of_the_package_is_refused(capsys, setting):
    folder, secret = setting
    (folder / "sections" / "01.yaml").unlink()
    os.symlink(secret, folder / "sections" / "01.yaml")
    man = folder / "manifest.yaml"
    text = man.read_text(encoding="utf-8")
    line = text[:text.index("  - sections/01.yaml")].count("\n") + 1
    refused(capsys, folder, (str(man), line, 5), "sections/01.yaml leads out of the rite's folder")


def test_a_text_folder_that_is_a_symlink_out_is_refused(capsys, setting, tmp_path):
    folder, _ = setting
    outside = tmp_path / "elsewhere"
    (folder / "text").rename(outside)
    os.symlink(outside, folder / "text")
    refused(capsys, folder, set_key(folder, "text", "text/corpus.json"),
            "text/corpus.json leads out of the rite's folder")


@pytest.mark.parametrize("extends", ["../../secret.yaml", "ABSOLUTE"])
def test_a_layout_extending_a_file_out_of_its_folder_is_refused(capsys, setting, extends):
    folder, secret = setting
    extends = str(secret) if extends == "ABSOLUTE" else extends
    (folder / "hall.yaml").write_text(f"extends: {extends}\nname: 試\n", encoding="utf-8")
    code, out, err = run(capsys, "check", "--rite", str(folder))
    assert code == 2 and SECRET not in out + err and "Traceback" not in err
    assert err.startswith(f"{folder / 'hall.yaml'}:1:10: extends: {extends} ")
    assert "hall.yaml's folder" in err


def test_a_layout_extending_a_bundled_one_by_name_is_read(capsys, setting):
    folder, _ = setting
    (folder / "hall.yaml").write_text("extends: xu\nname: 試\n", encoding="utf-8")
    code, out, err = run(capsys, "check", "--rite", str(folder))
    assert code == 0, err
    assert out.startswith(f"ok: {folder / 'hall.yaml'}: 72 places")  # the 州序's


def test_like_a_rite_out_of_the_package_is_refused(capsys, setting, tmp_path):
    folder, _ = setting
    other = make_toy(tmp_path / "other")
    section = folder / "sections" / "01.yaml"
    section.write_text(section.read_text(encoding="utf-8").replace(
        "name:", f"like: {{stage: x, rite: ../../other}}\nname:", 1), encoding="utf-8")
    code, out, err = run(capsys, "check", "--rite", str(folder))
    assert code == 2 and "Traceback" not in err
    assert "like: rite: ../../other leads out of the rite's folder" in err, err
    assert other.exists()
