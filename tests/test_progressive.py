"""The rite shown before it is all compiled: a prefix of its stages (Rite.prefix) and the
compile's snapshots (Compiler.snapshot) agree with the whole rite on every stage before their
last; commands that show one early moment compile only as far as they need."""
from __future__ import annotations

import json

import numpy as np
import pytest
from rites import copy_bundled  # noqa: E402 (the tests' folder is on the path)

from viz import DEFAULT_LAYOUT, DEFAULT_SCRIPT
from viz.cli.main import main
from viz.model.rite import Rite
from viz.query.state import state


@pytest.fixture(scope="module")
def whole(bundled):
    return bundled


def _same_state(a, b, t: float) -> None:
    sa = state(a.timeline, a.layout, a.corpus, t)
    sb = state(b.timeline, b.layout, b.corpus, t)
    sa.pop("duration")
    sb.pop("duration")
    assert json.dumps(sa, ensure_ascii=False) == json.dumps(sb, ensure_ascii=False), t


def test_a_prefix_is_the_whole_rite_before_its_last_stage(whole):
    pre = Rite(DEFAULT_SCRIPT, DEFAULT_LAYOUT).prefix((), 8)
    tl = pre.timeline
    assert len(tl.stages) == 8 and pre.script.stages_total == len(whole.timeline.stages) == 37
    assert [s.name for s in tl.stages] == [s.name for s in whole.timeline.stages[:8]]
    assert [(s.t0, s.t1) for s in tl.stages[:7]] == [(s.t0, s.t1)
                                                     for s in whole.timeline.stages[:7]]
    rng = np.random.default_rng(3)
    for t in [0.0, *rng.uniform(0, tl.stages[-1].t0, 60), tl.stages[-2].t1]:
        _same_state(pre, whole, float(t))


@pytest.mark.slow  # 2.4 s
def test_a_first_stage_that_names_a_later_files_cast_reads_on():
    """01-戒賔 names the 吏 whom 02-設席陳器 casts: a prefix of one stage reads two; 16-請射
    names a prop 22 declares: a prefix of 19 reads on to 22."""
    rite = Rite(DEFAULT_SCRIPT, DEFAULT_LAYOUT)
    assert [s.name for s in rite.prefix((), 1).timeline.stages] == ["戒賔", "設席陳器"]
    assert len(rite.prefix((), 19).timeline.stages) == 22


@pytest.mark.slow
def test_a_prefix_with_a_real_error_reports_every_files_problems(tmp_path):
    """A mistake in an early file is reported as a whole load reports it, with the others."""
    from viz.base.errors import InputError

    rite = tmp_path / "rite"
    copy_bundled(rite)
    for name, old, new in (("01-戒賔.yaml", "cite: 主人戒賔", "cite: 主人戒賔XYZ"),
                           ("30-三射畢.yaml", "cite: ", "cite: 不在經中的字")):
        f = rite / "sections" / name
        f.write_text(f.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    with pytest.raises(InputError) as e:
        Rite(rite, DEFAULT_LAYOUT).prefix((), 1)
    files = {str(p.loc).split(":")[0].rsplit("/", 1)[-1] for p in e.value.problems}
    assert {"01-戒賔.yaml", "30-三射畢.yaml"} <= files


@pytest.mark.slow
def test_snapshots_while_compiling_agree_with_the_whole(whole):
    got = []

    def on_stage(c, si):
        if si in (0, 9, 20):
            got.append(c.snapshot())
    full = Rite(DEFAULT_SCRIPT, DEFAULT_LAYOUT, sets=(), seed=None)
    full._compile((), on_stage=on_stage)  # noqa: SLF001 (no cache: compile it)
    assert [len(tl.stages) for tl in got] == [1, 10, 21]
    for tl in got:
        end = tl.stages[-2].t1 if len(tl.stages) > 1 else tl.stages[0].t1 - 1
        for t in np.linspace(0, end, 40):
            a, b = tl.sample(float(t)), whole.timeline.sample(float(t))
            # (someone not yet come rests where he will first appear: unknown before then)
            assert np.array_equal(a.present, b.present), t
            assert np.array_equal(a.xy[a.present], b.xy[b.present]), t
            assert np.array_equal(a.facing[a.present], b.facing[b.present]), t
            assert a.step == b.step and a.stage == b.stage


def _compiles(monkeypatch, tmp_path) -> list[int | None]:
    """With an empty cache, how far each compile goes (None: the whole rite), in order."""
    monkeypatch.setenv("XIANGSHE_CACHE", str(tmp_path / "cache"))
    compiled: list[int | None] = []
    real = Rite._compile

    def spy(self, key, upto=None, on_stage=None):
        compiled.append(upto)
        return real(self, key, upto, on_stage)
    monkeypatch.setattr(Rite, "_compile", spy)
    return compiled


@pytest.mark.slow
def test_an_early_paper_plate_compiles_its_stages_only(tmp_path, monkeypatch, capsys, whole):
    """Cold cache: `plate --stage 迎賔` compiles a prefix, and draws what the whole rite draws."""
    compiled = _compiles(monkeypatch, tmp_path)
    assert main(["plate", "--stage", "迎賔", "-o", str(tmp_path / "a.svg")]) == 0
    assert compiled == [2, 8]  # 迎賔 is stage 5: not before the last of two, before that of 8
    assert main(["plate", "--stage", "迎賔", "--style", "screen", "-o",
                 str(tmp_path / "b.svg")]) == 0
    assert compiled[2:] == [None]  # the window's look shows the whole rite's bar
    from viz.draw.plate import stage_parts
    from viz.export.plate import render_plate
    from viz.query.state import stage_index

    part, = stage_parts(whole.timeline, stage_index(whole.timeline, "迎賔"), whole.corpus)
    t = part.moment(whole.timeline)  # a stage plate is the stage whole: drawn at its end
    assert (tmp_path / "a.svg").read_text(encoding="utf-8") == render_plate(
        whole, t, True, part=part)[1]  # the stage plate, one: 迎賔 has 12 moves
    capsys.readouterr()


@pytest.mark.slow
@pytest.mark.parametrize("stage", ["三射", "初射"])
def test_a_name_that_could_begin_a_later_stage_is_asked_of_all(tmp_path, monkeypatch, stage):
    compiled = _compiles(monkeypatch, tmp_path)
    code = main(["plate", "--stage", stage, "-o", str(tmp_path / "a.svg")])
    assert compiled[-1] is None
    assert code == (2 if stage == "三射" else 0)  # 三射 begins four stages: say which


# -- the window plays the first stages while the rest compile ---------------------------------


@pytest.mark.slow
def test_the_window_plays_the_first_stage_while_the_rest_compile(tmp_path, monkeypatch):
    import threading
    import time

    import pygame

    from viz.app.window import App
    from viz.base.lang import tr
    from viz.draw.compose import compose
    from viz.draw.display import Text
    from viz.draw.hud import COMPILING
    from viz.model import progressive as prog

    monkeypatch.setenv("XIANGSHE_CACHE", str(tmp_path / "cache"))  # cold: nothing compiled
    hold = threading.Event()
    real = prog.Progressive._on_stage

    def on_stage(self, compiler, si):  # a snapshot after stage 6, then wait for the test
        self._last = 0.0 if si == 5 else time.monotonic()
        real(self, compiler, si)
        if si == 5:
            assert hold.wait(60)
    monkeypatch.setattr(prog.Progressive, "_on_stage", on_stage)
    p = prog.Progressive(DEFAULT_SCRIPT, DEFAULT_LAYOUT)
    assert not p.complete and (p.ready, p.total) == (2, 37)
    d = p.first
    app = App(d.layout, d.timeline, d.corpus, size=(960, 600), progressive=p)
    app.start_playing()
    assert app.state.compiling == (2, 37) and app.reloader is None

    def hud_texts():
        comp = compose(app.model, app.view(), app.size, app.t, app.closing)
        return [pr.text for ly in comp.layers for pr in ly.prims if isinstance(pr, Text)]
    assert tr(COMPILING).format(2, 37) in hud_texts()
    surface = pygame.Surface(app.size)
    app.draw(surface)
    p.start()
    app.update(3.0)
    assert 2.9 < app.t < 3.1 and app.state.playing
    deadline = time.monotonic() + 60
    while app.state.compiling == (2, 37) and time.monotonic() < deadline:
        app.poll(0.01)
        time.sleep(0.01)
    assert app.state.compiling == (6, 37) and len(app.timeline.stages) == 6
    assert tr(COMPILING).format(6, 37) in hud_texts()
    assert 2.9 < app.t < 3.1  # the same moment, shown from the larger part
    app.seek(10 ** 6)  # to the end of what is ready: playing waits for the rest
    app.update(1.0)
    assert app.state.playing and app.t == app.timeline.duration
    hold.set()
    while app.progressive is not None and time.monotonic() < deadline:
        app.poll(0.01)
        time.sleep(0.01)
    assert app.progressive is None and app.state.compiling is None
    assert len(app.timeline.stages) == 37 and app.reloader is not None
    assert not any(t.startswith("編譯中") for t in hud_texts())
    assert prog.Progressive(DEFAULT_SCRIPT, DEFAULT_LAYOUT).complete  # kept: warm next time


@pytest.mark.slow
@pytest.mark.parametrize(("stage", "cold"), [("18", True), ("初射", True), ("初射", False)])
def test_play_opens_at_a_stage_at_a_speed_paused(tmp_path, monkeypatch, whole, stage, cold):
    """`play --stage 初射 --speed 4 --paused` opens there. Cold, a number is reached by a prefix
    (the rest compile in the window); a name's beginning needs every stage's name."""
    import viz.app.window

    monkeypatch.setenv("XIANGSHE_CACHE", str(tmp_path / "cache") if cold else "off")
    got = {}

    def run(layout, timeline, corpus, **kw):
        got.update(kw, stages=len(timeline.stages))
        return 0
    monkeypatch.setattr(viz.app.window, "run", run)
    assert main(["play", "--stage", stage, "--speed", "4", "--paused"]) == 0
    s = next(s for s in whole.timeline.stages if s.name.startswith("初射"))
    assert (got["t"], got["speed"], got["playing"]) == (s.t0, 4.0, False)
    prefix = cold and stage == "18"
    assert (got.get("progressive") is not None) == prefix
    # compiled as far as it needs: one past 18, and on to 22, which casts the 大夫's second bow
    # 16-請射 names (a prop declared further on)
    assert got["stages"] == (22 if prefix else 37)


def test_play_refuses_a_speed_it_does_not_have(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--speed", "3", "--lang", "en"])
    assert "expected one of 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64; found '3'" in \
        capsys.readouterr().err


def test_play_opens_fullscreen_at_64(monkeypatch, whole):
    """`play --speed 64 --fullscreen`: the window is asked for both (F11 is tested in
    tests/test_classroom.py); without --fullscreen it opens windowed."""
    import viz.app.window

    got = {}
    monkeypatch.setattr(viz.app.window, "run", lambda *a, **kw: got.update(kw) or 0)
    assert main(["play", "--speed", "64", "--fullscreen"]) == 0
    assert (got["speed"], got["fullscreen"], got["playing"]) == (64.0, True, True)
    assert main(["play"]) == 0 and got["fullscreen"] is False


@pytest.mark.slow
def test_words_asked_for_with_after_are_looked_for_in_the_whole_rite(tmp_path, monkeypatch):
    """--after's step is the last to end of those citing the words: a later stage may cite them
    again, so no prefix answers it."""
    compiled = _compiles(monkeypatch, tmp_path)
    assert main(["plate", "--after", "主人以賔三揖", "-o", str(tmp_path / "a.svg")]) == 0
    assert compiled == [None]
