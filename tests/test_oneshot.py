"""Issue 29 item 6: a one-shot command for an early moment compiles only the stages reaching it
(Rite.prefix), as the window's first frame does; the picture then says, on its bar, how much
of the rite was compiled."""
from __future__ import annotations

import pytest

import viz.model.rite
from viz.cli.main import main


@pytest.fixture
def no_whole(monkeypatch):
    """Compiling the whole rite fails the test; the disk cache is off (a cold start)."""
    monkeypatch.setenv("XIANGSHE_CACHE", "off")

    def whole(self, readings=None, on_stage=None):
        raise AssertionError("the whole rite was compiled")
    monkeypatch.setattr(viz.model.rite.Rite, "get", whole)


def test_shot_at_an_early_moment_compiles_only_the_first_stages(no_whole, tmp_path, capsys,
                                                                  monkeypatch):
    from viz.export import shot

    seen = []
    real = shot.render_surface

    def render(*a, **kw):
        seen.append(a[6] if len(a) > 6 else kw.get("compiling"))
        return real(*a, **kw)
    monkeypatch.setattr(shot, "render_surface", render)
    out = tmp_path / "s.png"
    assert main(["shot", "--at", "1", "-o", str(out)]) == 0
    assert out.stat().st_size > 1000 and "t = 1.0 s" in capsys.readouterr().out
    ready, total = seen[0]
    assert 1 < ready < total == 37  # 鄉射禮's 37 stages, a few of them compiled


def test_plate_of_an_early_stage_compiles_only_the_first_stages(no_whole, tmp_path):
    assert main(["plate", "--stage", "2", "-o", str(tmp_path / "p.svg")]) == 0


def test_a_cue_sheet_of_an_early_stage_compiles_only_the_first_stages(no_whole, capsys):
    assert main(["sheet", "zhuren", "--stage", "1", "--format", "csv"]) == 0
    out = capsys.readouterr().out
    assert "戒賔" in out and out.count("\n") > 1
