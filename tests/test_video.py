"""`video`: the frame grid, the MP4 decoded against the composer, no partial files, the drum track."""
from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

pygame = pytest.importorskip("pygame")
imageio_ffmpeg = pytest.importorskip("imageio_ffmpeg")

from rites import trimmed  # noqa: E402 (the tests' folder is on the path)

from viz.backends import pgdraw  # noqa: E402
from viz.base.fileio import OutputError, RefuseOverwrite  # noqa: E402
from viz.draw.compose import Model, compose  # noqa: E402
from viz.export import video  # noqa: E402
from viz.model.timeline import Event, Timeline  # noqa: E402
from viz.query.state import QueryError  # noqa: E402

SIZE = (320, 200)  # tiny frames: a test video takes well under a second


@pytest.fixture(scope="module")
def rite(bundled):
    return bundled


def trimmed_rite(folder: Path, last: int = 5) -> Path:
    """A copy of the bundled rite with only its sections 01 … `last` (01–05: 戒賔 … 迎賔), a
    whole small rite, quick to compile and draw (tests/rites.py)."""
    return trimmed(Path(folder) / "xiangshe", 1, last)


def render(rite, path, **kw):
    # one process whatever the machine: the pool has its own test, and a patched compose must
    # count its calls in this process
    opts = {"t_from": 90.0, "t_to": 91.0, "fps": 10.0, "size": SIZE, "progress": False,
            "workers": 1} | kw
    return video.render_video(rite.layout, rite.timeline, rite.corpus, path, **opts)


def decode(path) -> tuple[dict, list[np.ndarray]]:
    gen = imageio_ffmpeg.read_frames(str(path))
    meta = next(gen)
    w, h = meta["size"]
    frames = [np.frombuffer(f, np.uint8).reshape(h, w, 3) for f in gen]
    return meta, frames


def composed(rite, t: float, speed: float = 1.0) -> np.ndarray:
    """The composer's picture of t, drawn as a PNG would be (RGB, height × width)."""
    model = pgdraw.with_font(Model(rite.layout, rite.timeline, rite.corpus))
    surf = pygame.Surface(SIZE)
    pgdraw.draw_layers(surf, compose(model, video.video_view(speed), SIZE, t).layers)
    return pygame.surfarray.array3d(surf).transpose(1, 0, 2)


def leftovers(folder) -> list[str]:
    return sorted(os.listdir(folder))


def test_the_progress_bar_redraws_one_line_on_a_terminal_and_says_nothing_on_a_pipe():
    import io

    from viz.export.common import Progress

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty, pipe = Tty(), io.StringIO()
    for stream in (tty, pipe):
        bar = Progress(4, "video", stream=stream)
        for _ in range(4):
            bar.update()
        bar.close("done")
    assert tty.getvalue().startswith("\rvideo ") and "4/4" in tty.getvalue()
    assert tty.getvalue().endswith("\ndone\n")
    assert pipe.getvalue() == "done\n"


def test_frame_n_is_t_from_plus_n_over_fps_times_speed():
    assert np.allclose(video.frame_times(10.0, 11.0, 4, 1.0), [10, 10.25, 10.5, 10.75, 11])
    assert np.allclose(video.frame_times(10.0, 12.0, 2, 2.0), [10, 11, 12])
    assert np.allclose(video.frame_times(5.0, 5.0, 30, 1.0), [5.0])  # a still, not nothing
    # the grid never passes the end, even when it does not land on it
    assert video.frame_times(0.0, 1.0, 3, 0.7)[-1] <= 1.0


@pytest.mark.slow  # encodes and decodes a video
def test_the_video_decodes_to_the_composed_frames(rite, tmp_path):
    out = tmp_path / "v.mp4"
    info = render(rite, out)
    assert info.path == out and info.frames == 11
    meta, frames = decode(out)
    assert tuple(meta["size"]) == SIZE
    assert len(frames) == 11
    for k in (0, 7):
        want = composed(rite, 90.0 + k / 10.0).astype(int)
        diff = np.abs(frames[k].astype(int) - want)
        assert diff.mean() < 4.0, (k, diff.mean())  # codec loss only
    # and the comparison can tell moments apart: another stage is far from frame 7 (at this
    # tiny size the panel's thin strokes make codec loss about a third of such a difference)
    other = np.abs(frames[7].astype(int) - composed(rite, 400.0).astype(int)).mean()
    assert other > 2.5 * np.abs(frames[7].astype(int) - composed(rite, 90.7).astype(int)).mean()
    assert leftovers(tmp_path) == ["v.mp4"]  # no temporary file beside it
    # and `shot`'s PNG of the moment (paused, where the video plays: only the panel's ▶ differs)
    from viz.export.shot import render_png

    png = render_png(rite.layout, rite.timeline, rite.corpus, 90.7, SIZE, tmp_path / "s.png")
    shot = pygame.surfarray.array3d(pygame.image.load(png)).transpose(1, 0, 2).astype(int)
    assert np.abs(frames[7].astype(int) - shot).mean() < 4.0


def test_frames_drawn_in_processes_are_the_same_frames_in_the_same_order(rite):
    painter = video.Painter(pgdraw.with_font(Model(rite.layout, rite.timeline, rite.corpus)),
                            video.video_view(1.0), SIZE)
    times = video.frame_times(100.0, 104.0, 4, 1.0)  # 17 frames: three chunks, one short
    with video.Frames(painter, times, 1) as one:
        serial = [data for data, _ in one]
    with video.Frames(painter, times, 2) as two:
        assert two.workers == 2
        parallel = [data for data, _ in two]
    assert len(serial) == 17 and parallel == serial
    assert serial[0] != serial[-1]  # the moments differ, so the order is tested


def test_speed_walks_the_grid_faster(rite, tmp_path):
    info = render(rite, tmp_path / "fast.mp4", t_to=94.0, speed=4.0)
    assert info.frames == 11
    _, frames = decode(tmp_path / "fast.mp4")
    want = composed(rite, 90.0 + 10 * 0.4, speed=4.0).astype(int)
    assert np.abs(frames[10].astype(int) - want).mean() < 4.0


def test_never_overwrites_unless_forced_and_keeps_the_mode(rite, tmp_path):
    out = tmp_path / "v.mp4"
    out.write_bytes(b"mine")
    os.chmod(out, 0o640)
    with pytest.raises(RefuseOverwrite):
        render(rite, out)
    assert out.read_bytes() == b"mine"
    render(rite, out, overwrite=True)
    assert out.read_bytes()[4:8] == b"ftyp"  # an MP4 now
    assert os.stat(out).st_mode & 0o777 == 0o640
    assert leftovers(tmp_path) == ["v.mp4"]


def test_an_interrupted_render_leaves_no_file(rite, tmp_path, monkeypatch):
    calls = []
    real = video.compose

    def interrupted(*a, **kw):
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(*a, **kw)

    monkeypatch.setattr(video, "compose", interrupted)
    with pytest.raises(KeyboardInterrupt):
        render(rite, tmp_path / "v.mp4")
    assert len(calls) == 4
    assert leftovers(tmp_path) == []


def test_a_terminated_render_leaves_no_file_either(rite, tmp_path, monkeypatch):
    import signal

    calls = []
    real = video.compose

    def terminated(*a, **kw):
        calls.append(1)
        if len(calls) == 3:
            os.kill(os.getpid(), signal.SIGTERM)  # as `kill PID` would; handled in this thread
        return real(*a, **kw)

    monkeypatch.setattr(video, "compose", terminated)
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(SystemExit) as e:
        render(rite, tmp_path / "v.mp4")
    assert e.value.code == 128 + signal.SIGTERM
    assert leftovers(tmp_path) == []
    assert signal.getsignal(signal.SIGTERM) == before  # put back as it was


def test_a_failing_ffmpeg_is_an_error_and_leaves_no_file(rite, tmp_path, monkeypatch):
    fake = tmp_path / "bin"
    fake.mkdir()
    exe = fake / "ffmpeg"
    exe.write_text("#!/bin/sh\necho 'no such codec' >&2\nexit 3\n")
    exe.chmod(0o755)
    monkeypatch.setattr(video, "ffmpeg_exe", lambda: str(exe))
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(OutputError, match=r"exit status 3.*no such codec"):
        render(rite, out / "v.mp4")
    assert leftovers(out) == []


def test_odd_sizes_and_bad_rates_are_refused_before_anything_is_written(rite, tmp_path):
    with pytest.raises(QueryError, match="even"):
        render(rite, tmp_path / "v.mp4", size=(321, 200))
    with pytest.raises(QueryError, match="--fps"):
        render(rite, tmp_path / "v.mp4", fps=0)
    assert leftovers(tmp_path) == []


def with_beats(tl: Timeline, beats) -> Timeline:
    """The same rite with a synthetic drum: a "beat" event at each beat, and no other."""
    events = [e for e in tl.events if e.kind != video.BEAT]
    events += [Event(b, b + 0.25, video.BEAT, -1, "騶虞", {}) for b in beats]
    return Timeline(tl.actors, tl.props, tl.stages, tl.steps, tl.channels, events, tl.duration,
                    tl.label_names)


def decode_audio(path) -> np.ndarray:
    out = subprocess.run([imageio_ffmpeg.get_ffmpeg_exe(), "-v", "error", "-i", str(path), "-vn",
                          "-f", "s16le", "-ac", "1", "-ar", str(video.RATE), "pipe:1"],
                         capture_output=True, check=True)
    return np.frombuffer(out.stdout, np.int16).astype(float) / 32768


def onsets(samples: np.ndarray, rate: int) -> list[float]:
    """Times where the 10 ms energy jumps from quiet to loud: the drum hits."""
    win = rate // 100
    e = np.sqrt(np.mean(samples[: len(samples) // win * win].reshape(-1, win) ** 2, axis=1))
    loud = e > 0.05
    return [i * win / rate for i in range(1, len(loud)) if loud[i] and not loud[i - 1]]


def test_the_drum_is_muxed_at_the_beats(rite, tmp_path):
    tl = with_beats(rite.timeline, [50.0, 90.2, 91.0, 91.8, 200.0])
    out = tmp_path / "drum.mp4"
    # speed 2: rite seconds 90.2, 91.0 and 91.8 fall at 0.1, 0.5 and 0.9 s of video
    info = video.render_video(rite.layout, tl, rite.corpus, out, t_from=90.0, t_to=92.0,
                              fps=10.0, size=SIZE, speed=2.0, audio="drum", progress=False,
                              workers=1)
    assert info.beats == 3
    hits = onsets(decode_audio(out), video.RATE)
    assert len(hits) == 3, hits
    # AAC adds a short priming delay; the hits keep their spacing
    assert np.allclose(np.diff(hits), [0.4, 0.4], atol=0.02), hits
    assert abs(hits[0] - 0.1) < 0.06, hits
    assert len(decode(out)[1]) == info.frames == 11


def test_no_beats_is_an_error_saying_so(rite, tmp_path):
    quiet = with_beats(rite.timeline, [])
    with pytest.raises(QueryError, match="no drum beats"):
        video.render_video(rite.layout, quiet, rite.corpus, tmp_path / "v.mp4", fps=10.0,
                           size=SIZE, audio="drum", progress=False, workers=1)
    assert leftovers(tmp_path) == []


def test_the_drum_track_has_a_hit_at_each_beat_and_never_clips():
    track = video.drum_track(np.array([0.0, 0.5, 0.501]), 1.0)
    assert len(track) == video.RATE and track.dtype == np.int16
    assert np.abs(track).max() <= 0.9 * 32767 + 1
    assert np.abs(track[: video.RATE // 100]).max() > 5000
    assert np.abs(track[int(0.48 * video.RATE):int(0.49 * video.RATE)]).max() < 500


def test_from_and_to_take_seconds_stages_and_words(rite):
    tl, corpus = rite.timeline, rite.corpus
    assert video.span_of(tl, corpus, None, None) == (0.0, tl.duration)
    assert video.span_of(tl, corpus, "12.5", "20") == (12.5, 20.0)
    s = tl.stages[1]
    assert video.span_of(tl, corpus, s.name, s.name) == (s.t0, s.t1)
    out = next(k for k, st in enumerate(tl.steps) if st.cite == "主人一相出迎於門外")
    assert tl.stages[tl.steps[out].stage].name == "迎賔" and tl.steps[out + 1].cite == "再拜"
    t0, t1 = video.span_of(tl, corpus, "主人一相出迎於門外", "一相出迎於門外再拜")
    assert (t0, t1) == (tl.steps[out].t0, tl.steps[out + 1].t1)
    # words found where they first occur: 再拜 first ends a step of 戒賔, long before
    assert video.span_of(tl, corpus, "再拜", None)[0] < tl.stages[1].t0
    with pytest.raises(QueryError, match="before"):
        video.span_of(tl, corpus, "20", "10")
    with pytest.raises(QueryError, match="not a stage"):
        video.span_of(tl, corpus, "無此文字之句", None)
    with pytest.raises(QueryError, match="outside"):
        video.span_of(tl, corpus, f"{tl.duration + 1:.0f}", None)  # past the end
    with pytest.raises(QueryError, match="outside"):
        video.span_of(tl, corpus, None, "-1")


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str


def run_cli(*argv: str, capsys) -> Run:
    """viz.cli.main.main in this process with the export commands registered (whether or not viz.cli.main
    has wired them in yet): a subprocess would spend most of its time importing."""
    import viz.cli.main
    from viz.cli.export import add_commands

    real = viz.cli.main.parser

    def parser():
        p = real()
        sub = p._subparsers._group_actions[0]  # noqa: SLF001 (argparse's own)
        if "video" not in sub.choices:
            add_commands(sub)
        return p

    capsys.readouterr()
    viz.cli.main.parser = parser
    try:
        rc = viz.cli.main.main(list(argv))
    finally:
        viz.cli.main.parser = real
    out = capsys.readouterr()
    return Run(rc, out.out, out.err)


@pytest.mark.slow
def test_the_command_writes_refuses_and_explains(tmp_path, capsys):
    small = str(trimmed_rite(tmp_path / "rite"))  # sections 01–05: quick to compile
    out = tmp_path / "a.mp4"
    ok = run_cli("video", "--script", small, "-o", str(out), "--from", "90", "--to", "90.5",
                 "--fps", "8", "--size", "320x200", capsys=capsys)
    assert ok.returncode == 0, ok.stderr
    assert "5 frames" in ok.stdout and out.exists()
    again = run_cli("video", "--script", small, "-o", str(out), "--to", "1", "--size",
                    "320x200", capsys=capsys)
    assert again.returncode == 2 and "--force" in again.stderr
    wrong = run_cli("video", "-o", str(tmp_path / "a.gif"), capsys=capsys)
    assert wrong.returncode == 2 and ".mp4" in wrong.stderr
    quiet = tmp_path / "quiet.yaml"  # a rite with no round shot to music: no drum to mux
    quiet.write_text("cast: [{id: a, name: 主人, party: 主, label: 主}]\nstages:\n"
                     "  - name: 迎賔\n    setup: [{who: a, at: 門內, face: 南}]\n"
                     "    steps: [{cite: 主人一相出迎於門外, do: [{wait: {dur: 1}}]}]\n",
                     encoding="utf-8")
    drum = run_cli("video", "--script", str(quiet), "-o", str(tmp_path / "d.mp4"), "--audio",
                   "drum", capsys=capsys)
    assert drum.returncode == 2 and "no drum beats" in drum.stderr
    assert sorted(os.listdir(tmp_path)) == ["a.mp4", "quiet.yaml", "rite"]
