"""Exports of the rite for people away from the window: video, cue sheets, the atlas.

Each is a back end of the same composed frames (viz.draw.compose) or of the same timeline, so
what is exported is what the window shows. This module holds what they share: the terminal
progress bar, the ffmpeg that imageio-ffmpeg ships, writing a set of files (all refused before
any is written), and the bundled font that HTML pages name.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TextIO

from viz.base.fileio import OutputError, RefuseOverwrite, _put_in_place, atomic_write_bytes


class Progress:
    """A one-line progress bar on a terminal; on a pipe or a file only the final line, so logs
    stay readable. Redrawn at most ten times a second: printing is not free at 100 frames/s."""

    def __init__(self, total: int, label: str, stream: TextIO | None = None,
                 enabled: bool = True):
        self.total, self.label = max(int(total), 1), label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.tty = enabled and hasattr(self.stream, "isatty") and self.stream.isatty()
        self.done = 0
        self.start = time.perf_counter()
        self._shown = 0.0

    def update(self, n: int = 1) -> None:
        self.done += n
        now = time.perf_counter()
        if self.tty and (now - self._shown >= 0.1 or self.done >= self.total):
            self._shown = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        frac = min(self.done / self.total, 1.0)
        width = 30
        bar = "█" * int(frac * width) + "·" * (width - int(frac * width))
        rate = self.done / max(now - self.start, 1e-9)
        shown = f"{rate:.1f}" if rate < 10 else f"{rate:.0f}"  # plates: 4.2/s, frames: 70/s
        self.stream.write(f"\r{self.label} {bar} {self.done}/{self.total} ({shown}/s) ")
        self.stream.flush()

    def close(self, message: str = "") -> None:
        if not self.enabled:
            return
        if self.tty:
            self.stream.write("\n")
        if message:
            self.stream.write(message + "\n")
        self.stream.flush()


def ffmpeg_exe() -> str:
    """The ffmpeg binary inside the imageio-ffmpeg wheel: no system ffmpeg, no network."""
    try:
        import imageio_ffmpeg
    except ImportError:
        raise OutputError("video needs the imageio-ffmpeg package (python -m pip install -e "
                          "'.[video]'; it ships its own ffmpeg)") from None
    try:
        return imageio_ffmpeg.get_ffmpeg_exe()
    except RuntimeError as e:  # the wheel for another platform, or the binary removed
        raise OutputError(f"imageio-ffmpeg has no ffmpeg for this machine: {e}") from None


PAPERS = {"a4": "A4", "letter": "letter"}  # --paper: the @page size an HTML handout prints on
SHEET_FORMATS = ("md", "csv", "html")  # here, not in sheets: the parser needs them at every start
FONTS = "fonts"  # the folder beside an HTML page that holds the bundled font
# The page names the bundled font first: where the file sits beside it (the atlas, sheet --all)
# a machine with no CJK font still shows the text; where it does not, the browser falls back
# to the families after it, silently.
FONT_FACE = ('@font-face { font-family: "Xiangshe Serif"; '
             'src: url("fonts/NotoSerifTC-Xiangshe.otf") format("opentype"); }')
FONT_FAMILY = '"Xiangshe Serif", "Noto Serif CJK TC", "Noto Serif TC", "Source Han Serif TC", serif'


def font_files(folder: Path) -> list[tuple[Path, bytes]]:
    """The bundled font and its licence (the OFL requires it to travel with the font), for
    folder/fonts/."""
    from viz.backends.fonts import FONT_PATH

    return [(folder / FONTS / FONT_PATH.name, FONT_PATH.read_bytes()),
            (folder / FONTS / "OFL.txt", (FONT_PATH.parent / "OFL.txt").read_bytes())]
    # (a rite's own font, manifest font:, is drawn into its plates' outlines by
    # viz.backends.svgdraw; these files are the bundled font a page's text falls back on)


def refuse_existing(paths: Iterable[Path]) -> None:
    """RefuseOverwrite naming the first of these that exists (and how many more do)."""
    taken = [str(p) for p in paths if os.path.lexists(p)]
    if taken:
        more = f" and {len(taken) - 1} more" if len(taken) > 1 else ""
        raise RefuseOverwrite(f"{taken[0]}{more} exist{'s' if not more else ''}; pass --force "
                              "to replace them")


def write_all(files: Sequence[tuple[Path, bytes]], overwrite: bool,
              folders: Iterable[Path] = ()) -> None:
    """Write many files by viz.base.fileio's rules, as one: refused before anything is written
    when one exists and not `overwrite`; every file is written first into a temporary folder
    beside the targets (in the nearest folder that exists), and only when all are whole are they
    renamed into place — a new folder (`folders`: the export's folders, one level below an
    existing one, as for any output) in one rename. A failure (a full disk, no permission)
    removes the temporary folder and leaves the targets as they were, so a retry needs no
    --force."""
    files = [(Path(p), data) for p, data in files]
    if not overwrite:
        refuse_existing(p for p, _ in files)
    folders = [Path(d) for d in folders]
    for d in folders:
        if os.path.lexists(d) and not d.is_dir():
            raise OutputError(f"cannot write in {d}: it is not a folder")
        if not d.parent.is_dir() and d.parent not in folders:
            raise OutputError(f"cannot create {d}: folder {d.parent} does not exist "
                              "(create it first)")
    if not files:
        return
    base = _existing_base([p for p, _ in files] + [d / "." for d in folders])
    try:
        stage = Path(tempfile.mkdtemp(prefix=".xiangshe-export-", dir=base))
    except OSError as e:
        raise OutputError(f"cannot write in {base}: {e.strerror or e}") from None
    try:
        for p, data in files:
            q = stage / p.relative_to(base)
            try:
                q.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise OutputError(f"cannot create folder {p.parent}: {e.strerror or e}") from None
            atomic_write_bytes(q, data)
        _move_in(stage, base, overwrite)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def _existing_base(paths: Sequence[Path]) -> Path:
    """The deepest existing folder holding every path (the temporary folder goes there: the same
    file system as the targets, so moving in is a rename)."""
    base = Path(os.path.commonpath([os.path.abspath(p.parent) for p in paths]))
    while not base.is_dir():
        if base.exists() or base.parent == base:
            raise OutputError(f"cannot write in {base}: it is not a folder")
        base = base.parent
    return base


def _move_in(stage: Path, dest: Path, overwrite: bool) -> None:
    """Rename what `stage` holds into `dest`: a folder dest lacks in one rename, one it has
    entry by entry; a file by fileio's rules (never over a file unless overwrite). Moving into a
    folder that exists is many renames: if one fails, those already made are undone (each file
    replaced is kept in the stage until all are in), so a failure leaves the targets as they were."""
    undo: list[tuple[Path, Path | None]] = []  # (target placed, the old file kept, or None)
    try:
        _move_entries(stage, dest, overwrite, undo, stage / ".replaced")
    except BaseException:
        for target, old in reversed(undo):
            with contextlib.suppress(OSError):
                if old is None:
                    (shutil.rmtree if target.is_dir() and not target.is_symlink() else os.unlink)(target)
                else:
                    os.replace(old, target)
        raise


def _move_entries(stage: Path, dest: Path, overwrite: bool,
                  undo: list[tuple[Path, Path | None]], keep: Path) -> None:
    for entry in sorted(stage.iterdir()):
        if entry == keep:
            continue
        target = dest / entry.name
        try:
            if not os.path.lexists(target):
                os.rename(entry, target)
                undo.append((target, None))
            elif entry.is_dir() and target.is_dir() and not target.is_symlink():
                _move_entries(entry, target, overwrite, undo, keep)
            elif entry.is_dir():
                raise OutputError(f"cannot write in {target}: it is not a folder")
            else:
                if not overwrite:
                    raise FileExistsError(target)
                keep.mkdir(exist_ok=True)
                old = Path(tempfile.mkdtemp(dir=keep)) / entry.name
                try:  # the old file, kept until every file is in
                    os.link(target, old)
                except OSError:  # a file system without hard links
                    shutil.copy2(target, old)
                undo.append((target, old))
                _put_in_place(entry, target, overwrite)
        except FileExistsError:
            raise RefuseOverwrite(f"{target} exists; pass --force to replace it") from None
        except OSError as e:
            if isinstance(e, OutputError):
                raise
            raise OutputError(f"cannot write {target}: {e.strerror or e}") from None


def page_size(paper: str, orientation: str) -> str:
    """The CSS @page size for --paper (a4, letter) turned `portrait` or `landscape`."""
    if paper not in PAPERS:
        raise ValueError(f"paper {paper!r}: expected one of {', '.join(PAPERS)}")
    return f"{PAPERS[paper]} {orientation}"
