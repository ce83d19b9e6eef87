"""The rite as an MP4: composed frames on a fixed grid of times, piped raw to ffmpeg.

Frame n shows t = t_from + n / fps × speed, whatever the wall clock does, so the same command
gives the same pictures on any machine. Each frame is what the window would draw at that moment
(compose + pgdraw, the plans kept in a LayerCache as when playing); the panel captions the clause
being enacted. The frames go as raw pixels down a pipe to the ffmpeg that the imageio-ffmpeg wheel
ships (H.264, yuv420p, +faststart so a browser starts playing before the end arrives), written by
a thread so that drawing the next frame overlaps the pipe write.

The file is written under a temporary name in the target's folder and renamed into place only
when ffmpeg has finished: an interrupted render (Ctrl-C, a failing ffmpeg, a full disk) leaves no
partial file under the target name, and an existing file is replaced only when asked (the rules
of viz.base.fileio).

Audio: `audio="drum"` synthesises a drum hit (numpy, at run time) at every beat of the
timeline's "beat" events (三射用樂: 不鼓不釋) and muxes it as AAC.
"""
from __future__ import annotations

import collections
import contextlib
import itertools
import math
import multiprocessing
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
import wave
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pygame

from viz.backends import fonts, pgdraw

# The private helpers of viz.base.fileio are the only implementation of its rules (refuse, keep the
# mode, never replace a name that appeared meanwhile); ffmpeg writes the temporary file itself,
# so atomic_write_bytes, which wants the bytes in memory, does not fit a video of many MB.
from viz.base.fileio import OutputError, _check_target, _describe, _put_in_place, _temp_file
from viz.draw.compose import Model, View, compose
from viz.draw.hud import HudState
from viz.export.common import Progress, ffmpeg_exe
from viz.query.state import QueryError, rite_end, stage_index, step_after

BEAT = "beat"  # the timeline's events at the drum's beats (viz/model/compile/shooting.py close_scoring)
AUDIO_KINDS = ("drum",)
RATE = 44100  # Hz, the synthesised audio
MAX_FPS = 120.0
# Frames are drawn on a 32-bit XRGB surface and its pixel buffer piped as it lies in memory:
# converting to RGB in Python (pygame.image.tobytes) took a quarter of the frame time, while
# ffmpeg converts in its own process, on the other core.
MASKS = (0xFF0000, 0x00FF00, 0x0000FF, 0)
PIX_FMT = "bgr0" if sys.byteorder == "little" else "0rgb"


@dataclass(frozen=True)
class VideoInfo:
    path: Path
    frames: int
    size: tuple[int, int]
    fps: float
    seconds: float  # wall time of render + encode
    draw_seconds: float  # of which drawing the frames (compose + pgdraw + to bytes)
    beats: int  # drum hits muxed (0 without audio)

    @property
    def rate(self) -> float:
        """Frames rendered and encoded per second of wall time."""
        return self.frames / max(self.seconds, 1e-9)


def frame_times(t_from: float, t_to: float, fps: float, speed: float) -> np.ndarray:
    """The fixed frame grid: t_from + n / fps × speed for every n that stays at or before t_to
    (the first frame always, so a zero-length span is one still)."""
    n = int(math.floor((t_to - t_from) * fps / speed + 1e-9)) + 1
    return t_from + np.arange(max(n, 1)) * (speed / fps)


def moment_of(timeline, corpus, text: str, end: bool, option: str) -> float:
    """--from/--to: seconds, a stage (its start for --from, its end for --to) by name, or words
    of the text (the start of the step enacting them for --from, its end for --to)."""
    try:
        t = float(text)
    except ValueError:
        pass
    else:
        if not (0 <= t <= timeline.duration):  # also refuses nan
            raise QueryError(f"{option} {text}: outside the rite (0 to {rite_end(timeline.duration)} s)")
        return t
    try:
        s = timeline.stages[stage_index(timeline, text)]
        return s.t1 if end else s.t0
    except QueryError:
        pass
    try:
        st = timeline.steps[step_after(timeline, corpus, text)]
    except QueryError as e:
        raise QueryError(f"{option} {text!r}: not seconds, not a stage name, and {e}") from None
    return st.t1 if end else st.t0


def span_of(timeline, corpus, start: str | None, stop: str | None) -> tuple[float, float]:
    """The interval --from … --to names; the whole rite by default."""
    t0 = 0.0 if start is None else moment_of(timeline, corpus, start, False, "--from")
    t1 = timeline.duration if stop is None else moment_of(timeline, corpus, stop, True, "--to")
    if t1 < t0:
        raise QueryError(f"--to ({t1:.1f} s) comes before --from ({t0:.1f} s)")
    return t0, t1


def beat_times(timeline) -> np.ndarray:
    """Every beat of the rite's drum (the "beat" events of a round shot to music), in rite
    seconds, sorted; an error when it has none."""
    beats = [e.t0 for e in timeline.events if e.kind == BEAT]
    if not beats:
        raise QueryError("--audio drum: this rite has no drum beats (no stage whose scoring: "
                         "has music:)")
    return np.unique(np.asarray(beats, float))


def drum_hit(rate: int = RATE) -> np.ndarray:
    """One 鼓 stroke, float in -1..1: a membrane whose pitch falls fast from 150 to 55 Hz under
    an exponential decay, with a short noise burst for the stick (seeded: the same every run)."""
    t = np.arange(int(0.45 * rate)) / rate
    tau = 0.035
    phase = 2 * np.pi * (55 * t + (150 - 55) * tau * (1 - np.exp(-t / tau)))
    body = np.sin(phase) * np.exp(-t / 0.13)
    stick = np.random.default_rng(9).uniform(-1, 1, len(t)) * np.exp(-t / 0.008) * 0.35
    return (body + stick) / 1.35


def drum_track(beats: np.ndarray, duration: float, rate: int = RATE) -> np.ndarray:
    """int16 mono samples `duration` s long with a hit at each beat (video seconds)."""
    out = np.zeros(max(int(round(duration * rate)), 1), float)
    hit = drum_hit(rate)
    for b in beats:
        i = int(round(b * rate))
        if 0 <= i < len(out):
            k = min(len(hit), len(out) - i)
            out[i:i + k] += hit[:k]
    peak = float(np.abs(out).max())
    if peak > 0.9:  # overlapping hits add up: scale the whole track, never clip
        out *= 0.9 / peak
    return (out * 32767).astype(np.int16)


def _write_wav(path: Path, samples: np.ndarray, rate: int = RATE) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(samples.tobytes())


def video_view(speed: float) -> View:
    """What the window shows while playing at this speed (▶ and ×speed in the panel)."""
    return View(hud=HudState(playing=True, speed=speed))


def ffmpeg_command(exe: str, size: tuple[int, int], fps: float, out: Path,
                   audio: Path | None, title: str = "") -> list[str]:
    """The ffmpeg that encodes the raw frames from its stdin into out; title: the file's title
    tag (the rite's title: players show it)."""
    w, h = size
    cmd = [exe, "-hide_banner", "-loglevel", "error", "-y",
           "-f", "rawvideo", "-pix_fmt", PIX_FMT, "-s", f"{w}x{h}", "-r", f"{fps:g}",
           "-i", "pipe:0"]
    if audio is not None:
        cmd += ["-i", str(audio), "-map", "0:v:0", "-map", "1:a:0", "-c:a", "aac", "-b:a", "128k"]
    # veryfast: at 720p ffmpeg keeps up with the drawing on the other core; crf 20 keeps the
    # thin lines and the small characters of the panel legible
    cmd += ["-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p",
            "-movflags", "+faststart"]
    if title:
        cmd += ["-metadata", f"title={title}"]
    cmd += ["-f", "mp4", str(out)]
    return cmd


class _PipeBroken(Exception):
    """ffmpeg stopped reading its input (it failed, or was killed)."""


class _Pipe:
    """Feeds frames to ffmpeg's stdin from a thread: the pipe write releases the GIL, so the
    next frame is drawn meanwhile. The first write error is kept for the main thread."""

    def __init__(self, proc: subprocess.Popen):
        self.proc = proc
        self.q: queue.Queue[bytes | None] = queue.Queue(maxsize=3)
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while (data := self.q.get()) is not None:
            if self.error is not None:
                continue  # keep draining so the main thread never blocks on a full queue
            try:
                self.proc.stdin.write(data)
            except (BrokenPipeError, OSError, ValueError) as e:
                self.error = e

    def put(self, data: bytes) -> None:
        if self.error is not None:
            raise _PipeBroken(str(self.error))
        self.q.put(data)

    def abort(self) -> None:
        """Stop the thread without waiting for ffmpeg (called after it was killed)."""
        with contextlib.suppress(queue.Empty):
            while True:  # room for the stop mark even if the main thread stopped mid-queue
                self.q.get_nowait()
        with contextlib.suppress(queue.Full):
            self.q.put_nowait(None)
        self.thread.join(timeout=5)
        with contextlib.suppress(BrokenPipeError, OSError):
            self.proc.stdin.close()

    def finish(self) -> None:
        self.q.put(None)
        self.thread.join()
        with contextlib.suppress(BrokenPipeError, OSError):
            self.proc.stdin.close()
        if self.error is not None:
            raise _PipeBroken(str(self.error))


def render_video(layout, timeline, corpus, path: str | Path, *, t_from: float = 0.0,
                 t_to: float | None = None, fps: float = 30.0, size: tuple[int, int] = (1280, 720),
                 speed: float = 1.0, audio: str | None = None, overwrite: bool = False,
                 progress: bool = True, workers: int | None = None,
                 title: str = "") -> VideoInfo:
    """Render [t_from, t_to] of the rite to an MP4 at `path`; see the module for the rules.
    title: the MP4's title tag (the rite's title).

    workers: processes drawing frames; by default one less than the cores, since ffmpeg
    encodes on one (so one, drawing in this process, on a 2-core machine).

    Raises QueryError for a bad request (odd size, no beats for --audio drum), RefuseOverwrite
    when the name is taken and not `overwrite`, OutputError when ffmpeg or the disk fails."""
    w, h = (int(size[0]), int(size[1]))
    if w % 2 or h % 2:
        raise QueryError(f"--size {w}x{h}: H.264 (yuv420p) needs an even width and height")
    if not (0 < fps <= MAX_FPS) or not (speed > 0) or not math.isfinite(speed):
        raise QueryError(f"--fps must be in (0, {MAX_FPS:g}] and --speed above 0; "
                         f"found {fps:g} and {speed:g}")
    if audio is not None and audio not in AUDIO_KINDS:
        raise QueryError(f"--audio {audio!r}: expected one of {', '.join(AUDIO_KINDS)}")
    t_to = timeline.duration if t_to is None else float(t_to)
    workers = max(1, (os.cpu_count() or 1) - 1) if workers is None else workers
    times = frame_times(float(t_from), t_to, fps, speed)
    beats = (beat_times(timeline) - t_from) / speed if audio == "drum" else None
    if beats is not None:
        beats = beats[(beats >= 0) & (beats < len(times) / fps)]
    exe = ffmpeg_exe()
    p = Path(path)
    if str(path).endswith(("/", os.sep)):
        raise OutputError(f"{path} names a folder; give a file name")
    keep_mode = _check_target(p, overwrite)  # refuse before minutes of rendering, not after
    try:
        fd, tmp = _temp_file(p)
    except OSError as e:
        raise OutputError(_describe(e, p)) from None
    try:
        try:
            if keep_mode is not None:
                os.fchmod(fd, keep_mode)
        finally:
            os.close(fd)  # ffmpeg opens the name itself
        with _terminate_raises(), tempfile.TemporaryDirectory(prefix="xiangshe-audio-") as scratch:
            wav = None
            if beats is not None:
                wav = Path(scratch) / "drum.wav"
                _write_wav(wav, drum_track(beats, len(times) / fps))
            info = _encode(layout, timeline, corpus, times, (w, h), fps, speed, exe, tmp, wav,
                           progress, workers, title)
        _put_in_place(tmp, p, overwrite)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError) and not isinstance(e, OutputError):
            raise OutputError(_describe(e, p)) from None
        raise
    return VideoInfo(p, len(times), (w, h), fps, info[0], info[1],
                     0 if beats is None else len(beats))


@contextlib.contextmanager
def _terminate_raises():
    """While rendering, SIGTERM (kill, a closing terminal's hang-up aside) raises SystemExit
    instead of ending the process at once, so ffmpeg is stopped and the temporary file removed
    as on Ctrl-C. Only the main thread may set handlers; elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        raise SystemExit(128 + signum)

    old = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


class Painter:
    """Draws frames of one model as the window would and hands out their pixels."""

    def __init__(self, model: Model, view: View, size: tuple[int, int]):
        self.model, self.view, self.size = model, view, size
        self.surface = pygame.Surface(size, 0, 32, MASKS)
        self.cache = pgdraw.LayerCache()

    def frame(self, t: float) -> bytes:
        pgdraw.draw_layers(self.surface, compose(self.model, self.view, self.size, t).layers,
                           self.cache)
        return self.surface.get_buffer().raw  # a copy: the next frame reuses the surface


CHUNK = 6  # frames a worker draws per task: fewer round trips, small enough to keep order cheap

_painter: Painter | None = None  # a forked worker's, made from the parent's before the fork


def _paint_chunk(ts: tuple[float, ...]) -> tuple[list[bytes], float]:
    t0 = time.perf_counter()
    out = [_painter.frame(t) for t in ts]
    return out, time.perf_counter() - t0


class Frames:
    """(pixels, seconds spent drawing them) for each time, in order; drawn in `workers` forked
    processes when more than one: frames are independent, so each process draws every other
    chunk and the pixels come back in order. At most a few chunks are in flight, so a slow
    encoder holds memory steady instead of queueing the whole video.

    A context manager: entering it forks the workers, which must happen before ffmpeg starts
    and before the writer thread runs (a fork would copy ffmpeg's stdin into every worker, and
    a thread's locks in whatever state they were in)."""

    def __init__(self, painter: Painter, times: np.ndarray, workers: int = 1):
        self.painter, self.times = painter, times
        fork = "fork" in multiprocessing.get_all_start_methods()
        self.workers = workers if workers > 1 and len(times) > CHUNK and fork else 1
        self.pool: ProcessPoolExecutor | None = None
        self.pending: collections.deque = collections.deque()
        self.chunks = iter([tuple(float(t) for t in times[i:i + CHUNK]) for i in
                            range(0, len(times), CHUNK)])

    def __enter__(self) -> Frames:
        global _painter
        if self.workers > 1:
            _painter = self.painter
            self.pool = ProcessPoolExecutor(self.workers,
                                            mp_context=multiprocessing.get_context("fork"),
                                            initializer=fonts.after_fork)
            for c in itertools.islice(self.chunks, 2 * self.workers):  # forks them all now
                self.pending.append(self.pool.submit(_paint_chunk, c))
        return self

    def __exit__(self, *exc) -> None:
        global _painter
        _painter = None
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)

    def __iter__(self):
        if self.pool is None:
            for t in self.times:
                t0 = time.perf_counter()
                data = self.painter.frame(float(t))
                yield data, time.perf_counter() - t0
            return
        while self.pending:
            got, secs = self.pending.popleft().result()
            nxt = next(self.chunks, None)
            if nxt is not None:
                self.pending.append(self.pool.submit(_paint_chunk, nxt))
            for data in got:
                yield data, secs / len(got)


def _encode(layout, timeline, corpus, times: np.ndarray, size: tuple[int, int], fps: float,
            speed: float, exe: str, out: Path, wav: Path | None, progress: bool,
            workers: int, title: str = "") -> tuple[float, float]:
    """Draw every frame into ffmpeg; (wall seconds, drawing seconds). ffmpeg is killed on any
    failure or interrupt, never left running."""
    painter = Painter(pgdraw.with_font(Model(layout, timeline, corpus)), video_view(speed), size)
    # ffmpeg's complaints go to a file, read if it fails: a pipe nobody drains could fill
    with tempfile.TemporaryFile() as err, Frames(painter, times, workers) as source:
        return _run_ffmpeg(source, len(times), size, fps, exe, out, wav, err, progress, title)


def _run_ffmpeg(source: Frames, n: int, size, fps, exe, out, wav, err,
                progress, title: str = "") -> tuple[float, float]:
    proc = subprocess.Popen(ffmpeg_command(exe, size, fps, out, wav, title), stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=err)
    bar = Progress(n, "video", enabled=progress)
    start = time.perf_counter()
    drawing = 0.0
    pipe = _Pipe(proc)
    try:
        try:
            for data, secs in source:
                drawing += secs
                pipe.put(data)
                bar.update()
            pipe.finish()
            code = proc.wait()
        except _PipeBroken as e:
            # the pipe broke: ffmpeg stopped reading; its exit status and words say why
            code = proc.wait()
            pipe_error: BaseException | None = e
        else:
            pipe_error = None
        if code != 0 or pipe_error is not None:
            err.seek(0)
            said = err.read().decode("utf-8", "replace").strip().splitlines()[-5:]
            raise OutputError(f"ffmpeg failed (exit status {code}): "
                              + (" / ".join(said) or str(pipe_error)))
    except BaseException:
        proc.kill()  # first: the writer thread may be blocked on a pipe ffmpeg no longer reads
        pipe.abort()
        proc.wait()
        raise
    seconds = time.perf_counter() - start
    bar.close(f"video: {n} frames in {seconds:.1f} s ({n / seconds:.0f} frames/s)")
    return seconds, drawing
