"""Live reload: poll a rite's files, recompile when one changes, keep the last good version.

For the window (edit while it plays) and `check --watch`. No watcher library and no thread:
the caller polls, and a poll reads and hashes the files read last time and the YAML files of the
rite folder (a rite is well under a megabyte: a few milliseconds), so it is cheap enough to run
every half second. Files are compared by their content's hash, not by mtime, size and inode: an
edit that keeps the size within the file system's clock tick (or a tool that restores the mtime)
is still seen.

    r = Reloader(spec, corpus=None)   (a viz.model.spec.RiteSpec; or script_path, layout_path,
                                       readings=(), corpus=None, sets=(), seed=None)
        # loads at once; r.result says whether that worked
    r.current            Compiled | None   the last good compile (None until one has succeeded)
    r.result             Result            the last attempt, good or bad
    r.readings           tuple[str, ...]   the readings `current` is compiled under
    r.check()            Result | None     hash the files; reload only if one changed, else None
    r.reload(texts=None) Result            reload now; texts {path: text} stand in for those
                                           files (an editor's unsaved buffer; tests); a value
                                           of None stands for a deleted file
    r.set_readings(rs)   Result            the current sources compiled under other readings
                                           (cached until the next reload); on success they
                                           become r.readings and r.current
    r.for_readings(rs)   Result            the same without switching (a compared reading)
    r.known_readings()   list[str]         鄭 and every reading that moves something (as --reading)

    Result(ok, compiled, problems, changed, seconds)
        ok        the load, checks and compile succeeded; compiled is the new Compiled
        compiled  None when not ok (r.current is still the last good one)
        problems  the located errors (viz.base.errors.Problem, `file:line:col: message`) when not
                  ok; warnings are in compiled.warnings
        changed   the files whose change set off a check() reload (empty for reload())
        seconds   how long the reload took

Nothing raises: a half-written file (a YAML error at its line), an empty file, a deleted file
("file not found"), a manifest naming other sections, a reading the files no longer know, even
an unexpected exception inside the compiler, all become a Result with ok False.

Every reload reads each file once into a snapshot, and everything compiled from it (other
readings too) uses that snapshot, so a reading switch never mixes old and new files nor fails
because the disk is half-saved. The snapshot is taken by routing the one place every file of a
script or layout is read through viz.base.yamlsrc.READ_HOOK, a context variable: files named in it
are served from memory, others are read from disk and recorded. The parse cache (viz/base/cache.py)
keys by the text it is given, so given texts are parsed, never a stale cached file. Texts
given to reload() stay current until a file changes on disk again (check() compares the disk
with what it was then). The variable is per thread, so a reload may run in a worker thread.
"""
from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from viz.base import yamlsrc
from viz.base.errors import InputError, Loc, Problem
from viz.model.rite import DEFAULT_READING, Compiled, Rite, _spec, rite_corpus
from viz.model.spec import RiteSpec

Stat = bytes | None  # a SHA-256 of the file's bytes; None: no such (regular, readable) file


@dataclass(frozen=True)
class Result:
    ok: bool
    compiled: Compiled | None
    problems: list[Problem] = field(default_factory=list)
    changed: tuple[str, ...] = ()
    seconds: float = 0.0


def _key(path: str | Path) -> str:
    return os.path.normpath(os.path.abspath(str(path)))


def _stat(path: str) -> Stat:
    """What a file holds now, as a hash of its bytes (read as a load reads them: regular files
    only, within the size limit); None when it cannot be read."""
    try:
        return hashlib.sha256(yamlsrc._disk_bytes(path)).digest()
    except InputError:
        return None


class _Sources:
    """Files served from memory where given, else read from disk; every read is recorded."""

    def __init__(self, given: Mapping[str, bytes | None]):
        self.given = dict(given)
        self.read: dict[str, bytes | None] = {}  # what the load saw, for later compiles
        self.stats: dict[str, Stat] = {}  # stat before reading: a change while reading shows

    def read_bytes(self, path: str | Path, disk: Callable[[str | Path], bytes]) -> bytes:
        k = _key(path)
        if k in self.given:
            data = self.given[k]
            self.stats.setdefault(k, _stat(k))
        else:
            self.stats.setdefault(k, _stat(k))
            try:
                data = disk(path)
            except InputError:
                self.read[k] = None
                raise
        self.read[k] = data
        if data is None:
            raise InputError(Problem(Loc(str(path), 1, 1), "file not found"))
        if len(data) > yamlsrc.MAX_BYTES:
            raise InputError(Problem(Loc(str(path), 1, 1), f"larger than {yamlsrc.MAX_BYTES:,} "
                                                          "bytes; refused"))
        return data


@contextmanager
def _serving(src: _Sources) -> Iterator[_Sources]:
    """Every file read while inside goes through src (yamlsrc.READ_HOOK)."""
    token = yamlsrc.READ_HOOK.set(src.read_bytes)
    try:
        yield src
    finally:
        yamlsrc.READ_HOOK.reset(token)


def _failure(e: BaseException, where: str) -> list[Problem]:
    if isinstance(e, InputError):
        return list(e.problems)
    # a bug in the compiler must not close a window that is playing the last good rite
    return [Problem(Loc(where, 1, 1), f"internal error while loading: {type(e).__name__}: {e}")]


class Reloader:
    """The rite at script_path and layout_path, reloaded when its files change (module doc)."""

    def __init__(self, spec: RiteSpec | str | Path, layout_path: str | Path | None = None,
                 readings: Sequence[str] = (), corpus=None, sets=(), seed: int | None = None,
                 on_stage=None):
        """spec: the rite (its readings the first load's); a script path with layout_path,
        readings, sets and seed stands for RiteSpec.at(…) of them. on_stage: handed to the first
        load's compile (viz.model.progressive shows the stages compiled so far while the rest
        compile); later loads compile without it."""
        self.spec = _spec(spec, layout_path, readings, sets, seed)
        self.script_path, self.layout_path = str(self.spec.script), str(self.spec.layout)
        self.corpus = corpus if corpus is not None else rite_corpus(self.spec)
        readings = self.spec.readings
        self.readings: tuple[str, ...] = tuple(readings)
        self.current: Compiled | None = None
        self._snapshot: dict[str, bytes | None] = {}  # the files of `current`
        self._compiled: dict[tuple[str, ...], Compiled] = {}  # per reading, for the snapshot
        self._stats: dict[str, Stat] = {}
        self._on_stage = on_stage
        self.result = self.reload()
        self._on_stage = None

    # ---- polling ------------------------------------------------------------------------
    def _folder(self) -> Path | None:
        p = Path(self.script_path)
        if p.is_dir():
            return p
        return p.parent if p.name == "manifest.yaml" else None

    def _listing(self) -> list[str]:
        """The YAML files of the rite folder: a new section or pattern file is a change."""
        folder = self._folder()
        if folder is None:
            return []
        try:
            return [_key(f) for f in folder.rglob("*.yaml")]
        except OSError:
            return []

    def _roots(self) -> list[str]:
        """The layout and the script file, watched even before they are read. Not a folder:
        its time changes with every editor's swap file; its YAML files are the listing."""
        return [_key(p) for p in (self.layout_path, self.script_path) if not Path(p).is_dir()]

    def _watched(self) -> dict[str, Stat]:
        paths = set(self._stats) | set(self._listing()) | set(self._roots())
        return {p: _stat(p) for p in sorted(paths)}

    def check(self) -> Result | None:
        """Reload if any watched file changed, appeared or vanished since the last load."""
        now = self._watched()
        changed = tuple(p for p, s in now.items() if self._stats.get(p, "unseen") != s)
        if not changed:
            return None
        return self._load(None, changed)

    # ---- loading ------------------------------------------------------------------------
    def reload(self, texts: Mapping[str | Path, str | None] | None = None) -> Result:
        """Reload now; `texts` stand in for the files they name (None: as if deleted)."""
        return self._load(texts, ())

    def _load(self, texts: Mapping[str | Path, str | None] | None,
              changed: tuple[str, ...]) -> Result:
        t0 = time.perf_counter()
        listing = {p: _stat(p) for p in self._listing()}  # before reading: see docstring
        given = {_key(k): (None if v is None else v.encode("utf-8", "surrogatepass"))
                 for k, v in (texts or {}).items()}
        src = _Sources(given)
        compiled, problems = self._compile(src, self.readings)
        self._stats = {**listing, **src.stats}
        for p in self._roots():
            self._stats.setdefault(p, _stat(p))
        if compiled is not None:
            self.current, self._snapshot = compiled, dict(src.read)
            self._compiled = {self._reading_key(self.readings): compiled}
        self.result = Result(compiled is not None, compiled, problems, changed,
                             time.perf_counter() - t0)
        return self.result

    def _compile(self, src: _Sources,
                 readings: tuple[str, ...]) -> tuple[Compiled | None, list[Problem]]:
        try:
            with _serving(src):
                rite = Rite(self.spec, corpus=self.corpus)
                return rite.get(readings, on_stage=self._on_stage), []
        except Exception as e:  # noqa: BLE001 (see _failure)
            return None, _failure(e, self.script_path)

    @staticmethod
    def _reading_key(readings: Sequence[str]) -> tuple[str, ...]:
        return tuple(r for r in readings if r != DEFAULT_READING)

    # ---- readings -----------------------------------------------------------------------
    def for_readings(self, readings: Sequence[str]) -> Result:
        """The last good files compiled under other readings, without switching to them (a
        reading drawn for comparison); cached until the next reload."""
        t0 = time.perf_counter()
        key = self._reading_key(readings)
        compiled, problems = self._compiled.get(key), []
        if compiled is None and self.current is not None:
            compiled, problems = self._compile(_Sources(self._snapshot), tuple(readings))
            if compiled is not None:
                self._compiled[key] = compiled
        elif compiled is None:
            problems = list(self.result.problems)  # nothing good loaded: why, once more
        return Result(compiled is not None, compiled, problems, (), time.perf_counter() - t0)

    def set_readings(self, readings: Sequence[str]) -> Result:
        """Compile the last good files under other readings; on success they become current."""
        if self.current is None:  # nothing good to recompile: try the files again
            self.readings = tuple(readings)
            return self.reload()
        got = self.for_readings(readings)
        if got.ok:
            self.readings, self.current = tuple(readings), got.compiled
        return got

    def known_readings(self) -> list[str]:
        """鄭, then every reading that moves something, from the files of `current`: the
        list `--reading` is checked against (viz.model.rite.Rite.known_readings), so the
        window's R offers what the command line accepts."""
        if self.current is None:
            return [DEFAULT_READING]
        try:
            with _serving(_Sources(self._snapshot)):
                return Rite(self.spec, corpus=self.corpus).known_readings()
        except Exception:  # noqa: BLE001 (the snapshot compiled; a guard, as _compile's)
            return [DEFAULT_READING, *self._reading_key(self.readings)]
