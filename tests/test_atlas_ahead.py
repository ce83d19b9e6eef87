"""The atlas with an empty compile cache draws plates while the rite compiles (a forked child
from the compile's snapshots) and reads the files from both ends at once: the same files, byte
for byte, as the atlas of the rite compiled first and drawn in one process."""
from __future__ import annotations

import argparse

import pytest
from test_video import trimmed_rite

from viz.export import atlas


def files(d):
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


@pytest.mark.slow
def test_plates_drawn_while_compiling_are_the_same_bytes(tmp_path, monkeypatch):
    from viz.cli.options import spec_of

    script = trimmed_rite(tmp_path / "rite", last=7)
    monkeypatch.setenv("XIANGSHE_CACHE", str(tmp_path / "cache"))  # empty: nothing compiled
    spec = spec_of(argparse.Namespace(script=str(script)))
    compiled, ahead = atlas.compile_drawing(spec, svg=True, workers=2)
    assert ahead is not None and ahead.children >= 1  # the mechanism ran
    atlas.build_atlas(compiled, tmp_path / "ahead", progress=False, svg=True, ahead=ahead,
                      workers=2)
    assert ahead.pages and ahead.drawn  # some plates came from the compile's children
    again, none = atlas.compile_drawing(spec, svg=True, workers=2)
    assert none is None  # cached now: nothing drawn ahead
    atlas.build_atlas(again, tmp_path / "plain", progress=False, svg=True, workers=1)
    got, want = files(tmp_path / "ahead"), files(tmp_path / "plain")
    assert sorted(got) == sorted(want) and len(got) > 10
    assert [k for k in got if got[k] != want[k]] == []
