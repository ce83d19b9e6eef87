"""Output files: written atomically, with the ordinary mode, never over a user's file unasked."""
from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import subprocess
import time

import pytest

from viz.base import fileio
from viz.base.fileio import (
    OutputError,
    RefuseOverwrite,
    atomic_write_bytes,
    atomic_write_text,
    next_free_name,
)

# A guard against a runaway (a refusal that reads on, recursion without end), not a speed
# measure: speed is measured in bench/. Generous, so a loaded machine does not fail it.
RUNAWAY = 20.0


def mode(path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def leftovers(folder) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


@pytest.fixture
def umask():
    """Set the umask for one test and put the old one back."""
    old = os.umask(0o022)
    os.umask(old)
    yield os.umask
    os.umask(old)


@contextlib.contextmanager
def mounted(target, *args):
    """Mount something on `target` for the block, or skip: needs root and a working mount."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting needs root (and mount(8))")
    done = subprocess.run(["mount", *args, str(target)], capture_output=True, timeout=10)
    if done.returncode != 0:
        pytest.skip(f"mount refused here: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield target
    finally:
        subprocess.run(["umount", str(target)], capture_output=True, timeout=10)


# ------------------------------------------------------------------ writing


@pytest.mark.parametrize("mask, expected", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_file_gets_the_ordinary_mode(tmp_path, umask, mask, expected):
    umask(mask)
    out = atomic_write_bytes(tmp_path / "a.png", b"png")
    assert out.read_bytes() == b"png" and mode(out) == expected
    assert leftovers(tmp_path) == []


def test_an_existing_file_is_refused_unless_overwrite_and_then_keeps_its_mode(tmp_path, umask):
    p = tmp_path / "a.png"
    p.write_bytes(b"mine")
    p.chmod(0o644)
    umask(0o077)
    with pytest.raises(RefuseOverwrite, match="exists; pass --force"):
        atomic_write_bytes(p, b"new")
    assert p.read_bytes() == b"mine"
    atomic_write_bytes(p, b"new", overwrite=True)
    assert p.read_bytes() == b"new" and mode(p) == 0o644
    p.chmod(0o640)
    atomic_write_text(p, "第三", overwrite=True)
    assert p.read_text(encoding="utf-8") == "第三" and mode(p) == 0o640
    assert leftovers(tmp_path) == []


def test_refuse_overwrite_is_an_output_error_and_a_file_exists_error():
    assert issubclass(RefuseOverwrite, OutputError) and issubclass(RefuseOverwrite, FileExistsError)


def test_a_folder_at_the_name_is_refused_even_with_overwrite(tmp_path):
    (tmp_path / "d.png").mkdir()
    for overwrite in (False, True):
        with pytest.raises(OutputError, match="d.png is a folder") as e:
            atomic_write_bytes(tmp_path / "d.png", b"x", overwrite=overwrite)
        assert not isinstance(e.value, RefuseOverwrite)
    assert (tmp_path / "d.png").is_dir() and leftovers(tmp_path) == []
    with pytest.raises(OutputError, match="names a folder"):
        atomic_write_bytes(f"{tmp_path}/new/", b"x")
    assert not (tmp_path / "new").exists()


def test_a_path_through_a_plain_file_is_an_output_error(tmp_path):
    (tmp_path / "a").write_bytes(b"plain")
    with pytest.raises(OutputError, match=r"a is not a folder"):
        atomic_write_bytes(tmp_path / "a" / "b.png", b"x")
    assert (tmp_path / "a").read_bytes() == b"plain"


def test_a_missing_folder_is_not_created(tmp_path):
    with pytest.raises(OutputError, match="does not exist"):
        atomic_write_bytes(tmp_path / "typo" / "b.png", b"x")
    assert not (tmp_path / "typo").exists()


def test_a_symbolic_link_is_refused_and_with_overwrite_the_link_itself_is_replaced(tmp_path):
    target = tmp_path / "target.txt"
    target.write_bytes(b"precious")
    (tmp_path / "live.png").symlink_to(target)
    (tmp_path / "dangling.png").symlink_to(tmp_path / "nowhere")
    for name in ("live.png", "dangling.png"):
        with pytest.raises(RefuseOverwrite, match="is a symbolic link; not replaced unless --force"):
            atomic_write_bytes(tmp_path / name, b"x")
    assert not (tmp_path / "nowhere").exists() and target.read_bytes() == b"precious"
    for name in ("live.png", "dangling.png"):
        atomic_write_bytes(tmp_path / name, b"new", overwrite=True)
        assert not (tmp_path / name).is_symlink() and (tmp_path / name).read_bytes() == b"new"
    assert target.read_bytes() == b"precious" and not (tmp_path / "nowhere").exists()
    assert leftovers(tmp_path) == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_special_file_is_never_replaced(tmp_path):
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    with pytest.raises(OutputError, match="not a regular file"):
        atomic_write_bytes(fifo, b"x", overwrite=True)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and leftovers(tmp_path) == []


def test_a_name_taken_while_writing_is_not_clobbered(tmp_path, monkeypatch):
    p = tmp_path / "a.png"
    real = fileio._temp_file

    def someone_else_writes_first(target):
        p.write_bytes(b"theirs")
        return real(target)

    monkeypatch.setattr(fileio, "_temp_file", someone_else_writes_first)
    with pytest.raises(RefuseOverwrite):
        atomic_write_bytes(p, b"mine")
    assert p.read_bytes() == b"theirs" and leftovers(tmp_path) == []


def test_without_hard_links_the_name_is_still_never_clobbered(tmp_path, monkeypatch):
    def no_links(src, dst):
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(fileio.os, "link", no_links)
    p = atomic_write_bytes(tmp_path / "a.png", b"one")
    assert p.read_bytes() == b"one" and leftovers(tmp_path) == []
    with pytest.raises(RefuseOverwrite):
        atomic_write_bytes(p, b"two")
    assert p.read_bytes() == b"one"


def test_a_failed_write_is_an_output_error_and_leaves_no_temporary_file(tmp_path, monkeypatch):
    def disk_full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(fileio.os, "fsync", disk_full)
    with pytest.raises(OutputError, match="the disk is full"):
        atomic_write_bytes(tmp_path / "a.png", b"x")
    assert list(tmp_path.iterdir()) == []


def test_a_really_full_disk(tmp_path):
    small = tmp_path / "small"
    small.mkdir()
    with mounted(small, "-t", "tmpfs", "-o", "size=64k", "tmpfs"):
        with pytest.raises(OutputError, match="the disk is full"):
            atomic_write_bytes(small / "big.png", b"\0" * 1_000_000)
        assert list(small.iterdir()) == []


def test_a_folder_without_write_permission(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    if os.geteuid() == 0:
        # root writes through permission bits: a read-only bind mount stops it
        with mounted(folder, "--bind", "-o", "ro", str(folder)):
            with pytest.raises(OutputError, match="read-only file system"):
                atomic_write_bytes(folder / "a.png", b"x")
            with pytest.raises(OutputError, match="no permission to write there"):
                next_free_name(folder, "s", ".png")
        return
    folder.chmod(0o555)
    try:
        with pytest.raises(OutputError, match=f"no permission to write in {folder}"):
            atomic_write_bytes(folder / "a.png", b"x")
        with pytest.raises(OutputError, match="no permission to write there"):
            next_free_name(folder, "s", ".png")
    finally:
        folder.chmod(0o755)


# ------------------------------------------------------------------ fresh names


def test_next_free_name_counts_past_taken_names_links_included(tmp_path):
    shots = tmp_path / "shots"
    assert next_free_name(shots, "s", ".png") == shots / "s-0001.png" and shots.is_dir()
    (shots / "s-0001.png").write_bytes(b"x")
    (shots / "s-0002.png").symlink_to(tmp_path / "nowhere")
    assert next_free_name(shots, "s", ".png") == shots / "s-0003.png"


def test_next_free_name_stops_when_the_folder_is_a_file(tmp_path):
    (tmp_path / "screenshots").write_bytes(b"not a folder")
    t = time.perf_counter()
    with pytest.raises(OutputError, match="screenshots: it is not a folder"):
        next_free_name(tmp_path / "screenshots", "s", ".png")
    with pytest.raises(OutputError, match="cannot create folder"):
        next_free_name(tmp_path / "screenshots" / "sub", "s", ".png")
    assert time.perf_counter() - t < RUNAWAY


def test_next_free_name_stops_at_its_last_number(tmp_path, monkeypatch):
    monkeypatch.setattr(fileio, "MAX_SERIAL", 3)
    for n in (1, 2, 3):
        (tmp_path / f"s-000{n}.png").write_bytes(b"x")
    with pytest.raises(OutputError, match="already holds s-0001.png … s-0003.png"):
        next_free_name(tmp_path, "s", ".png")
