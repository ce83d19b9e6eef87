"""The window's score panel (the round, the 算 laid each side, the beat, the count announced,
an archer's hits) and the drum D sounds on the beats: the panel's words from synthetic facts,
its facts from a compiled round, its caching, which beats forward play passes, the synthesised
hit, and a drum that stays silent (and says so) without an audio device."""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import numpy as np
import pygame
import pytest
from test_scoring import compiled, range_field, script  # noqa: F401  (range_field: a fixture)

from viz.app import drum
from viz.app.window import DRUM_NONE, DRUM_OFF, DRUM_ON, DRUM_SILENT, App
from viz.base.lang import tr_done  # toasts in the reader's language (中文 by default)
from viz.draw import hud
from viz.draw.hud import ScoreInfo, beat_text, score_info, score_lines, score_rows
from viz.model.scoring import score_values

MUSIC = ", music: {piece: 騶虞, beat: 1.5, beats_per_end: 4}"
SIZE = (1100, 700)


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.display.init()
    yield


# ---------------------------------------------------------------- the words, from synthetic facts


def test_a_round_under_way_gives_its_number_and_the_suan_each_side():
    info = ScoreInfo(round=2, right=3, left=1)
    assert score_lines(info) == ["第二番射", "右 3 算 / 左 1 算"]
    assert ("sticks", 3, 1) in score_rows(info)


def test_the_beat_within_its_zhong_and_the_piece():
    assert beat_text(3, 1, 8) == "鼓 3/8 · 一終"
    assert beat_text(11, 2, 8) == "鼓 3/8 · 二終"
    assert beat_text(8, 1, 8) == "鼓 8/8 · 一終"
    assert beat_text(7, 1, 0, "騶虞") == "鼓 7 · 一終　騶虞"  # stopped within its first 終
    info = ScoreInfo(round=3, right=0, left=2, beat=11, end=2, per_end=8, piece="騶虞")
    assert score_lines(info)[2] == "鼓 3/8 · 二終　騶虞"
    rows = score_rows(info)
    assert rows[3][3] == hud.INK and score_rows(ScoreInfo(3, beat=1, end=1, per_end=8,
                                                          struck=True))[3][3] == hud.RED


def test_the_announcement_once_made_and_after_the_round():
    under_way = ScoreInfo(round=2, right=3, left=1, result_round=2, result=(3, 1),
                          announce="右賢於左一純")
    assert score_lines(under_way)[-1] == "「右賢於左一純」"
    # a count of an earlier round is not this round's
    assert "「右賢於左一純」" not in score_lines(ScoreInfo(round=3, result_round=2,
                                                       announce="右賢於左一純"))
    after = ScoreInfo(result_round=2, result=(3, 1), announce="右賢於左一純")
    assert score_lines(after) == ["第二番射 · 已數", "右 3 算 / 左 1 算", "「右賢於左一純」"]


def test_a_round_not_laid_gives_the_hits_called():
    info = ScoreInfo(round=1, counted=False, called=(2, 1))
    assert score_lines(info) == ["第一番射", "獲 右 2 / 左 1（不釋獲）"]
    assert not any(r[0] == "sticks" for r in score_rows(info))


def test_nothing_to_say_no_panel_and_an_archer_only_with_hits():
    assert score_rows(ScoreInfo()) == ()
    assert hud.score_height(()) == 0
    assert score_rows(ScoreInfo(archer=("上射", "右", ((1, 0),)))) == ()
    assert score_lines(ScoreInfo(archer=("上射", "右", ((1, 2), (2, 3))))) == [
        "上射（右）獲　一番 2 · 二番 3"]
    rows = score_lines(ScoreInfo(round=2, right=1, archer=("下射", "左", ((2, 0),))))
    assert rows[-1] == "下射（左）獲　二番 0"


# ---------------------------------------------------------------- the facts, from a compiled round


def _round(range_field, corpus, music=""):  # noqa: F811
    return compiled(script(music=music), range_field, corpus, seed=3)[1]


def test_facts_follow_the_suan_as_laid_and_the_count(range_field, corpus):  # noqa: F811
    tl = _round(range_field, corpus)
    res, = tl.scoring["results"]
    shots = tl.scoring["shots"]
    laid = sorted(s["t_land"] for s in shots if s["tallied"])
    assert laid
    mid = tl.sample((laid[0] + laid[-1]) / 2 + 1.0)
    info = score_info(tl, mid)
    v = score_values(mid)
    assert (info.round, info.right, info.left) == (2, v["右"], v["左"])
    assert 0 < info.right + info.left < res["右"] + res["左"] or len(laid) == 1
    assert info.announce == "" or info.result_round == 2
    end = score_info(tl, tl.sample(tl.duration))
    assert (end.round, end.result_round, end.result) == (0, 2, (res["右"], res["左"]))
    assert score_lines(end)[-1] == f"「{res['announce']}」"


def test_no_round_no_result_no_panel(range_field, corpus):  # noqa: F811
    tl = _round(range_field, corpus)
    before = tl.sample(0.0)
    before_vals = score_values(before)
    assert before_vals["round"] == 2  # the round opens with the rite here: the panel shows
    assert score_info(tl, before) is not None
    tl.scoring = None  # a rite with no shooting
    assert score_info(tl, tl.sample(tl.duration)) is None


def test_the_beat_and_its_zhong_from_the_music(range_field, corpus):  # noqa: F811
    tl = _round(range_field, corpus, MUSIC)
    beats = [e for e in tl.events if e.kind == "beat"]
    assert len(beats) > 5
    e = next(b for b in beats if b.data["beat"] == 6)
    info = score_info(tl, tl.sample(e.t0 + 0.05))
    assert (info.beat, info.end, info.per_end, info.struck) == (6, 2, 4, True)
    assert "鼓 2/4 · 二終　騶虞" in score_lines(info)
    assert not score_info(tl, tl.sample(e.t0 + 0.6)).struck


def test_an_archer_s_hits_by_round(range_field, corpus):  # noqa: F811
    tl = _round(range_field, corpus)
    s1 = tl.actor_index["s1"]
    got = sum(s["hit"] for s in tl.scoring["shots"] if s["actor"] == "s1")
    info = score_info(tl, tl.sample(tl.duration), who=s1)
    assert info.archer == ("上射", "右", ((2, got),))
    assert score_info(tl, tl.sample(tl.duration), who=tl.actor_index["shihuozhe"]).archer is None


def test_the_panel_is_its_own_part_kept_by_what_it_says(range_field, corpus):  # noqa: F811
    tl = _round(range_field, corpus)
    laid = sorted(s["t_land"] for s in tl.scoring["shots"] if s["tallied"])
    memo: dict = {}
    st = hud.HudState()

    def parts(t):
        return {p.name: p for p in hud.hud_parts(tl, tl.sample(t), corpus, SIZE, st,
                                                 memo=memo)[0]}

    step = tl.steps[tl.step_at(laid[0])]  # the shooting: 算 are laid within the one step
    ta, tb = step.t0 + 0.05, step.t1 - 0.05
    assert score_values(tl.sample(ta)) != score_values(tl.sample(tb))
    a, b = parts(ta), parts(tb)
    assert "hud.score" in a and a["hud.score"].key != b["hud.score"].key
    assert a["hud.panel"].key == b["hud.panel"].key  # a 算 laid does not rebuild the panel
    assert a["hud.panel"].prims is b["hud.panel"].prims
    again = parts(tb)
    assert again["hud.score"].key == b["hud.score"].key
    box = b["hud.score"].clip
    texts = [p.text for p in b["hud.score"].prims if isinstance(p, hud.Text)]
    assert "第二番射" in texts
    pbox = hud.areas(SIZE)["panel"]
    assert pbox[0] <= box[0] and box[0] + box[2] <= pbox[0] + pbox[2]
    # the section's text is kept out of the panel's slot
    for p in b["hud.panel"].prims:
        if isinstance(p, hud.Text) and p.pos[1] > box[1]:
            assert p.pos[1] >= box[1] + box[3]
    tl.scoring = None
    assert "hud.score" not in {p.name for p in hud.hud_parts(
        tl, tl.sample(1.0), corpus, SIZE, st)[0]}


# ---------------------------------------------------------------- the drum


def test_beats_crossed_in_forward_play_only():
    times = [1.0, 2.0, 3.0]
    assert drum.beats_crossed(times, 0.5, 2.5) == [0, 1]
    assert drum.beats_crossed(times, 1.0, 1.1) == [0]  # play started on a beat hears it
    assert drum.beats_crossed(times, 2.5, 0.5) == []  # back
    assert drum.beats_crossed(times, 2.0, 2.0) == []  # paused
    assert drum.beats_crossed(times, 3.5, 9.0) == []
    # frames one after another hear each beat once
    edges = np.linspace(0.0, 3.5, 36)
    heard = [i for a, b in zip(edges, edges[1:]) for i in drum.beats_crossed(times, a, b)]
    assert heard == [0, 1, 2]


def test_the_hit_is_a_quarter_second_of_int16_decaying():
    mono = drum.hit_samples(44100, 1)
    assert mono.dtype == np.int16 and mono.shape == (11025,)
    stereo = drum.hit_samples(22050, 2)
    assert stereo.shape == (5512, 2) and (stereo[:, 0] == stereo[:, 1]).all()
    peak = int(np.abs(mono.astype(np.int32)).max())
    assert 0.7 * 32767 < peak <= 0.81 * 32767
    n = len(mono) // 10
    assert np.abs(mono[-n:]).mean() < 0.1 * np.abs(mono[:n]).mean()
    assert mono[-1] == 0


class FakeSound:
    def __init__(self, buffer):
        self.buffer, self.plays = buffer, 0

    def play(self):
        self.plays += 1


class FakeMixer:
    def __init__(self, works=True, fmt=-16, channels=2):
        self.works, self.fmt, self.channels, self.inits = works, fmt, channels, 0
        self.ready = False

    def get_init(self):
        return (44100, self.fmt, self.channels) if self.ready else None

    def init(self, *a):
        self.inits += 1
        if not self.works:
            raise pygame.error("No available audio device")
        self.ready = True

    def Sound(self, buffer):  # noqa: N802  (pygame's name)
        return FakeSound(buffer)


def test_the_drum_opens_the_mixer_only_when_asked_and_plays():
    mixer = FakeMixer()
    d = drum.Drum(mixer)
    assert mixer.inits == 0 and not d.strike()
    assert d.toggle() == "on" and mixer.inits == 1
    assert len(d.sound.buffer) == 11025 * 2 * 2  # stereo int16
    assert d.strike() and d.sound.plays == 1
    assert d.toggle() == "off" and not d.strike() and d.sound.plays == 1
    assert d.toggle() == "on" and mixer.inits == 1


def test_no_audio_device_is_said_and_silent():
    d = drum.Drum(FakeMixer(works=False))
    assert d.toggle() == "none" and not d.on and not d.strike()
    assert d.toggle() == "none"  # not retried
    assert drum.Drum(FakeMixer(fmt=8)).toggle() == "none"  # a format it does not write


def test_a_real_mixer_on_the_dummy_driver_plays_and_says_nothing_is_heard():
    was = pygame.mixer.get_init()
    d = drum.Drum()
    assert d.toggle() == "on" and d.on  # SDL's dummy driver takes the sound …
    assert "dummy" in d.why and "nothing is heard" in d.why  # … and the toast says so
    assert d.strike() and d.played == 1
    assert d.toggle() == "off"
    if not was:
        pygame.mixer.quit()


def test_no_device_says_the_mixers_own_words():
    d = drum.Drum(FakeMixer(works=False))
    assert d.toggle() == "none" and d.why == "no sound: No available audio device"


def test_the_window_takes_back_audio_only_when_cli_defaulted_it():
    env = {"SDL_AUDIODRIVER": "dummy", drum.DEFAULTED: "1"}
    assert drum.take_back_audio(env) and "SDL_AUDIODRIVER" not in env
    mine = {"SDL_AUDIODRIVER": "dummy"}  # the user's own choice
    assert not drum.take_back_audio(mine) and mine["SDL_AUDIODRIVER"] == "dummy"
    headless = {"SDL_AUDIODRIVER": "dummy", drum.DEFAULTED: "1", "SDL_VIDEODRIVER": "dummy"}
    assert not drum.take_back_audio(headless) and headless["SDL_AUDIODRIVER"] == "dummy"


# ---------------------------------------------------------------- in the window


@pytest.fixture
def score_app(range_field, corpus, tmp_path):  # noqa: F811
    tl = _round(range_field, corpus, MUSIC)
    a = App(range_field, tl, corpus, size=SIZE, shots_dir=tmp_path)
    a.drum = drum.Drum(FakeMixer())
    return a


def key(k):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)


def press(app, k, mod=0):
    """A key pressed and let go (a KEYDOWN alone, then another, is the key held: a repeat)."""
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
    app.handle(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0))


def test_d_toggles_the_drum_with_a_toast(score_app, range_field, corpus):  # noqa: F811
    press(score_app, pygame.K_d)
    assert score_app.drum.on and score_app.state.toast == tr_done(DRUM_ON)
    press(score_app, pygame.K_d)
    assert not score_app.drum.on and score_app.state.toast == tr_done(DRUM_OFF)
    silent = App(range_field, score_app.timeline, corpus, size=SIZE)
    silent.drum = drum.Drum(FakeMixer(works=False))
    press(silent, pygame.K_d)
    assert silent.state.toast == tr_done(DRUM_NONE.format(why="no sound: No available audio device"))
    assert not silent.drum.on
    dummy = App(range_field, score_app.timeline, corpus, size=SIZE)  # the real mixer, dummy
    press(dummy, pygame.K_d)
    assert dummy.drum.on and dummy.state.toast == tr_done(DRUM_SILENT.format(why=dummy.drum.why))
    assert "SDL_AUDIODRIVER=dummy" in dummy.state.toast
    press(dummy, pygame.K_d)
    assert any(k == "D" for k, _ in hud.KEYS)


def test_the_drum_sounds_in_forward_play_not_when_scrubbing_or_stepping_back(score_app):
    a = score_app
    beats = a.beat_times()
    assert len(beats) > 5
    press(a, pygame.K_d)
    sound = a.drum.sound
    a.seek(beats[2] - 0.01)
    press(a, pygame.K_SPACE)
    for _ in range(30):  # 0.5 s of frames: beats 1.5 s apart, so the one at beats[2]
        a.update(1 / 60)
    assert sound.plays == 1
    press(a, pygame.K_SPACE)  # paused
    for _ in range(200):
        a.update(1 / 60)
    assert sound.plays == 1
    a.seek(beats[0] - 0.01)  # back over beats, and a jump forward over more: no sound
    a.seek(beats[4] + 0.01)
    press(a, pygame.K_LEFT)
    press(a, pygame.K_RIGHT)
    assert sound.plays == 1
    press(a, pygame.K_d)  # off: play passes beats silently
    press(a, pygame.K_SPACE)
    for _ in range(200):
        a.update(1 / 60)
    assert sound.plays == 1


def test_the_panel_shows_in_the_window_and_a_paused_window_idles(score_app):
    a = score_app
    surf = pygame.Surface(SIZE)
    e = next(b for b in a.timeline.events if b.kind == "beat" and b.data["beat"] == 3)
    a.seek(e.t0 + 0.5)
    a.draw(surf)
    assert not a.needs_redraw()
    assert a.hits.score is not None
    a.update(1 / 60)  # paused: nothing moves
    assert not a.needs_redraw()
    a.seek(a.t + 1.5)  # the next beat
    assert a.needs_redraw()
    a.draw(surf)
    assert not a.needs_redraw()


def test_hovering_an_archer_gives_his_hits_and_redraws_once(score_app):
    a = score_app
    surf = pygame.Surface(SIZE)
    a.seek(a.timeline.duration)
    a.draw(surf)
    s1 = a.timeline.actor_index["s1"]
    fr = a.framing()
    pos = tuple(float(v) for v in fr.camera.to_screen(a.timeline.sample(a.t).xy[[s1]])[0])
    a.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    assert a.score_who() == s1 and a.view().hud.score_who == s1
    assert a.needs_redraw()
    a.draw(surf)
    assert not a.needs_redraw()
    from viz.draw.compose import compose
    comp = compose(a.model, a.view(), a.size, a.t, a.closing)
    score = next(la for la in comp.layers if la.name == "hud.score")
    assert any(isinstance(p, hud.Text) and p.text.startswith("上射（右）獲") for p in score.prims)
    a.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(0, 0), buttons=(0, 0, 0)))
    assert a.score_who() is None
    a.select(s1)  # a selection stands for the mouse
    assert a.score_who() == s1


def test_a_screenshot_shows_the_hovered_archer_as_the_window_does(score_app, monkeypatch):
    import viz.app.window as app_module

    a = score_app
    a.seek(a.timeline.duration)
    s1 = a.timeline.actor_index["s1"]
    a.select(s1)
    seen = []
    real = app_module.compose

    def spy(model, view, *rest):
        seen.append(view.hud)
        return real(model, view, *rest)

    monkeypatch.setattr(app_module, "compose", spy)
    a.toast("x")
    assert a.screenshot() is not None
    assert seen[-1].score_who == s1 and seen[-1].toast == ""


def test_the_last_count_is_shown_until_the_shooting_is_over(bundled):
    """三射畢 still shows round 3's count; from 旅酬 on the panel is gone (it kept the last
    announcement through 旅酬 and 燕)."""
    tl = bundled.timeline
    span = {s.name: s for s in tl.stages}
    end_of_shooting = score_info(tl, tl.sample(span["三射畢"].t1, True))
    assert end_of_shooting is not None and end_of_shooting.result_round == 3
    for name in ("旅酬", "燕"):
        assert score_info(tl, tl.sample(span[name].t1, True)) is None, name
