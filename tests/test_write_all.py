"""write_all's move phase into a folder that exists is many renames: a failure part-way undoes the
ones made, so the targets are as they were (new files gone, replaced files back) and nothing of
the temporary folder is left (issue 28, folders are atomic)."""
from __future__ import annotations

import os

import pytest

from viz.base.fileio import OutputError
from viz.export import common


def _tree(root):
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_failure_while_moving_in_leaves_the_folder_as_it_was(tmp_path, monkeypatch):
    out = tmp_path / "atlas"
    (out / "stages").mkdir(parents=True)
    (out / "index.html").write_bytes(b"old index")
    (out / "stages" / "01.html").write_bytes(b"old 01")
    (out / "mine.txt").write_bytes(b"the user's own")
    before = _tree(out)
    files = [(out / "index.html", b"new index"), (out / "stages" / "01.html", b"new 01"),
             (out / "stages" / "02.html", b"new 02"), (out / "z-last.html", b"new last")]
    real = common._put_in_place
    calls = []

    def failing(src, dst, overwrite):
        calls.append(dst)
        if len(calls) == 2:  # the second replacement: after a new file and a replaced one are in
            raise OSError(28, "No space left on device")
        return real(src, dst, overwrite)

    monkeypatch.setattr(common, "_put_in_place", failing)
    with pytest.raises(OutputError, match="No space left"):
        common.write_all(files, overwrite=True, folders=[out])
    assert len(calls) == 2
    assert _tree(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ["atlas"]  # no temporary folder left

    monkeypatch.setattr(common, "_put_in_place", real)  # a retry writes all of them
    common.write_all(files, overwrite=True, folders=[out])
    assert _tree(out) == {"index.html": b"new index", "mine.txt": b"the user's own",
                          "stages/01.html": b"new 01", "stages/02.html": b"new 02",
                          "z-last.html": b"new last"}
    assert [p.name for p in tmp_path.iterdir()] == ["atlas"]
    assert not any(p.name.startswith(".xiangshe-export-") for p in out.rglob("*"))


def test_without_overwrite_an_existing_file_is_refused_before_anything_moves(tmp_path):
    out = tmp_path / "d"
    out.mkdir()
    (out / "b.html").write_bytes(b"old")
    with pytest.raises(common.RefuseOverwrite):
        common.write_all([(out / "a.html", b"a"), (out / "b.html", b"b")], overwrite=False)
    assert sorted(os.listdir(out)) == ["b.html"] and (out / "b.html").read_bytes() == b"old"
