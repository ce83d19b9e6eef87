"""Parsed and checked YAML files kept on disk, keyed by their bytes: an unchanged file loads fast.

Parsing is most of a load: a 37-section rite is ten thousand lines of YAML, and libyaml with
our located nodes reads them at a few MB/s. Like Python's own .pyc files, the result of
parsing one file and checking its structure is kept under the user's cache folder
($XIANGSHE_CACHE, else $XDG_CACHE_HOME/xiangshe, else ~/.cache/xiangshe), named by a hash of
the file's path, its bytes, what it was checked as, the schema and this program's code
(`program_salt`: a program that changed a check reads the file again). Editing one section
re-reads that file only. XIANGSHE_CACHE=off turns the cache off; a cache that cannot be read or
written is passed over (it only ever saves time, never changes a result).

Every entry carries its own key and a SHA-256 of its payload (`_frame`), checked before anything
is unpickled: an entry cut short, with a byte flipped, copied under another key's name or left
by another format is a miss, deleted and rebuilt with at most one line of notice per process.

A whole compile is kept too (Rite.get, viz/model/rite.py): `Reads` records the bytes of every file a
load reads (through yamlsrc.READ_HOOK, so a reload's served texts count as what they are), and
an index entry named by what else the compile depends on (paths, readings, scenario, corpus and
this program's model sources, `program_salt`) lists those files and their hashes. When each
file still hashes the same, the compiled result is loaded without parsing anything.
"""
from __future__ import annotations

import contextlib
import gc
import hashlib
import io
import os
import pickle
import sys
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from viz.base import yamlsrc
from viz.base.errors import InputError
from viz.base.yamlsrc import read_text

VERSION = b"xiangshe-cache-1"
MAX_ENTRIES = 400  # beyond this the oldest entries are removed
MAX_COMPILED = 16  # whole compiles (a few MB each): readings and scenarios of a rite or two
MAX_INDEXES = 64  # their indexes (rite-*, a few kB each); both least recently used out
WHOLE = ("compiled-", "rite-")  # apart from the parsed files' limit: parsing never pushes them out


def cache_dir() -> Path | None:
    env = os.environ.get("XIANGSHE_CACHE")
    if env is not None:
        return None if env.lower() in ("", "off", "0", "no") else Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "xiangshe"


def cached(path: str | Path, kind: str, salt: bytes,
           work: Callable[[str, str], Any]) -> Any:
    """work(text, name) for the file at path, or what it returned for the same bytes before.
    Located InputErrors from reading are raised as usual; work's result must pickle."""
    name = str(path)
    text = read_text(path)
    folder = cache_dir()
    h = hashlib.sha256(VERSION)
    for part in (kind.encode(), salt, program_salt(), name.encode("utf-8", "surrogatepass"),
                 text.encode("utf-8", "surrogatepass")):
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    key = h.hexdigest()[:40]
    if key in _MEMO:  # the same bytes again in this process (a file listed twice, a reload)
        return _MEMO[key]  # (with the disk cache off too: a section listed 2,000 times)
    if folder is None:
        got = work(text, name)
        _remember(key, got)
        return got
    entry = folder / f"{key}.pickle"
    found, got = _load_entry(entry, key)
    if not found:
        got = work(text, name)
        _store(folder, entry, got, key=key)
    _remember(key, got)
    return got


_MEMO: dict[str, Any] = {}
MEMO_ENTRIES = 256


def _remember(key: str, value: Any) -> None:
    """Results are read, never changed, by their users: one object serves every asker."""
    if len(_MEMO) >= MEMO_ENTRIES:
        _MEMO.pop(next(iter(_MEMO)))
    _MEMO[key] = value


def _blob_key(name: str, salt: bytes) -> str:
    return f"{name}-{hashlib.sha256(VERSION + program_salt() + salt).hexdigest()[:32]}"


def load_blob(name: str, salt: bytes) -> Any | None:
    """A value kept under a name (e.g. the walks planned on one layout), or None."""
    folder = cache_dir()
    if folder is None:
        return None
    key = _blob_key(name, salt)
    return _load_entry(folder / f"{key}.pickle", key)[1]


def store_blob(name: str, salt: bytes, value: Any) -> None:
    folder = cache_dir()
    if folder is not None:
        key = _blob_key(name, salt)
        _store(folder, folder / f"{key}.pickle", value, key=key)


# ---- entries: each carries its key and a hash of its payload, checked before unpickling -----

MAGIC = b"xiangshe-entry-2\n"
_NOTICED: list[str] = []  # the one line of notice a process gives about a damaged cache


def _frame(key: str, data: bytes) -> bytes:
    """An entry's bytes: MAGIC, its key (length-prefixed), the payload's SHA-256, the payload."""
    k = key.encode("ascii")
    return MAGIC + len(k).to_bytes(2, "little") + k + hashlib.sha256(data).digest() + data


def _unframe(raw: bytes, key: str) -> bytes | None:
    """The payload of an entry stored under exactly `key`, whole; None for anything else (an
    entry of another key copied or renamed here, of an older format, cut short or damaged)."""
    k = key.encode("ascii")
    head = MAGIC + len(k).to_bytes(2, "little") + k
    if not raw.startswith(head) or len(raw) < len(head) + 32:
        return None
    digest_, data = raw[len(head):len(head) + 32], raw[len(head) + 32:]
    return data if hashlib.sha256(data).digest() == digest_ else None


def _read_entry(entry: Path, key: str) -> bytes | None:
    """The checked payload of the entry at `entry`, None when there is none. A file there that
    is not a whole entry of this key is a miss: it is deleted (so it is rebuilt) with one line of
    notice."""
    try:
        with open(entry, "rb") as f:
            raw = f.read()
    except OSError:
        return None  # absent (the usual miss) or unreadable: only costs time
    data = _unframe(raw, key)
    if data is None:
        _discard(entry)
    return data


def _discard(entry: Path) -> None:
    with contextlib.suppress(OSError):
        entry.unlink()
    if not _NOTICED:
        _NOTICED.append(str(entry))
        print(f"note: cache entry {entry} was damaged or stale; deleted and rebuilt",
              file=sys.stderr)


def _load_entry(entry: Path, key: str, kept: dict[str, Any] | None = None) -> tuple[bool, Any]:
    """(True, value) for an entry stored under key; (False, None) for a miss. A payload that is
    whole but does not unpickle (this program cannot build what it names) is a miss too."""
    data = _read_entry(entry, key)
    if data is None:
        return False, None
    try:
        return True, (pickle.loads(data) if kept is None else loads(data, kept))
    except Exception:  # noqa: BLE001 — checked bytes of this key that still do not load
        _discard(entry)
        return False, None


def _store(folder: Path, entry: Path, value: Any, data: bytes | None = None, *,
           key: str) -> None:
    from viz.base.fileio import OutputError, atomic_write_bytes

    try:
        if data is None:
            data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(entry, _frame(key, data), overwrite=True)
        entries = sorted((p for p in folder.glob("*.pickle") if not p.name.startswith(WHOLE)),
                         key=lambda p: p.stat().st_mtime)
        for old in entries[:-MAX_ENTRIES]:
            old.unlink(missing_ok=True)
    except (OSError, OutputError, pickle.PicklingError, RecursionError):
        pass  # a cache that cannot be written only costs time


# ---- whole compiles ----------------------------------------------------------------------

# What a compile depends on among this program's sources: every module of the packages below the
# queries (viz.base, viz.text, viz.model), searched recursively, plus viz/__init__.py. A module
# added to them counts, so a new one is safe; the front ends (query, draw, back ends, export, the
# window, the command line) do not change a Timeline. Files that hold no part of a compile:
FRONT_ENDS = frozenset({"base/fileio.py", "model/reload.py"})
COMPILE_PACKAGES = ("base", "text", "model")

@lru_cache(maxsize=1)
def program_salt() -> bytes:
    """A hash of the model's sources and schemas, Python's and numpy's versions: an edit of the
    compiler (or a new numpy's random numbers) is a new program, whose compiles are its own."""
    import numpy

    viz = Path(__file__).resolve().parents[1]
    here = viz  # paths are hashed relative to the project's root, viz/'s parent
    h = hashlib.sha256(VERSION + b"compiled-2")
    h.update(f"{sys.version_info[:2]} {numpy.__version__}".encode())
    files = [viz / "__init__.py"] + sorted(
        f for pkg in COMPILE_PACKAGES for f in (viz / pkg).rglob("*.py")
        if f.relative_to(viz).as_posix() not in FRONT_ENDS)
    files += [viz.parent / "layouts" / "layout.schema.json",
              viz.parent / "assets" / "rites" / "script.schema.json"]
    for f in files:
        try:
            data = f.read_bytes()
        except OSError:
            data = b"?"
        h.update(str(f.relative_to(here.parent)).encode())
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.digest()


def digest(*parts: object) -> str:
    """A hash of values by their repr, each length-prefixed (no two lists of parts collide)."""
    h = hashlib.sha256(VERSION)
    for p in parts:
        b = p if isinstance(p, bytes) else repr(p).encode("utf-8", "surrogatepass")
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()[:40]


class Reads:
    """The files read while `recording()` is active, in order, with a hash of their bytes.
    A file read twice with different bytes (saved during the load) makes `consistent` False."""

    def __init__(self) -> None:
        self.files: dict[str, str] = {}
        self.consistent = True

    def _hook(self, inner: Callable | None) -> Callable:
        def read(path: str | Path, disk: Callable[[str | Path], bytes]) -> bytes:
            data = disk(path) if inner is None else inner(path, disk)
            h = hashlib.sha256(data).hexdigest()
            if self.files.setdefault(str(path), h) != h:
                self.consistent = False
            return data
        return read

    def merge(self, other: Reads | None) -> None:
        """Count other's files as read too (a file read earlier that this load relied on)."""
        for path, h in (other.files if other is not None else {}).items():
            if self.files.setdefault(path, h) != h:
                self.consistent = False
        if other is not None and not other.consistent:
            self.consistent = False

    @contextlib.contextmanager
    def recording(self) -> Iterator[Reads]:
        token = yamlsrc.READ_HOOK.set(self._hook(yamlsrc.READ_HOOK.get()))
        try:
            yield self
        finally:
            yamlsrc.READ_HOOK.reset(token)


def _folder_listing(base: str | None) -> tuple[str, ...]:
    """The YAML files under a rite folder: a folder of patterns is read by listing it, so a new
    file there changes the load without changing any file read before."""
    if base is None:
        return ()
    try:
        return tuple(sorted(str(p) for p in Path(base).rglob("*.yaml")))
    except OSError:
        return ("?",)


class _Keep(pickle.Pickler):
    """Pickles a value, leaving out the objects named in `kept` (each written as its name)."""

    def __init__(self, f: io.BytesIO, kept: dict[int, str]):
        super().__init__(f, protocol=pickle.HIGHEST_PROTOCOL)
        self.kept = kept

    def persistent_id(self, obj: Any) -> str | None:
        return self.kept.get(id(obj))


class _Attach(pickle.Unpickler):
    def __init__(self, f: io.BytesIO, kept: dict[str, Any]):
        super().__init__(f)
        self.kept = kept

    def persistent_load(self, pid: Any) -> Any:
        if pid not in self.kept:
            raise pickle.UnpicklingError(f"no {pid!r} to attach")
        return self.kept[pid]


def dumps(value: Any, kept: dict[str, Any]) -> bytes:
    """value pickled without the objects in `kept` (name → object); loads puts them back.
    Raises pickle.PicklingError (or TypeError …) for what does not pickle."""
    buf = io.BytesIO()
    _Keep(buf, {id(v): k for k, v in kept.items()}).dump(value)
    return buf.getvalue()


def loads(data: bytes, kept: dict[str, Any]) -> Any:
    # tens of thousands of small objects, none of them cyclic garbage: as in yamlsrc._build,
    # the collector paused while they are built (it would rescan them again and again)
    paused = gc.isenabled()
    gc.disable()
    try:
        return _Attach(io.BytesIO(data), kept).load()
    finally:
        if paused:
            gc.enable()


def load_compiled(key: str, kept: dict[str, Any]) -> Any | None:
    """The value stored under key by store_compiled, if every file it read still has the same
    bytes (read through yamlsrc.READ_HOOK, as a load reads them); else None. `kept` gives the
    objects left out of the pickle, by name."""
    folder = cache_dir()
    if folder is None:
        return None
    found, index = _load_entry(folder / f"rite-{key}.pickle", f"rite-{key}")
    if not found:
        return None
    try:
        files, exists, base, listing, data_key, data_hash = index
        reads = Reads()
        with reads.recording():
            for path in files:
                read_text(path)
    except (ValueError, TypeError, InputError):
        return None  # a file it read is gone or unreadable now: compile again
    if not reads.consistent or reads.files != files or _folder_listing(base) != listing:
        return None
    if tuple(os.path.isfile(p) for p in files) != exists:
        return None  # a file now served from memory (viz/model/reload.py) that the disk lacks
    entry = folder / f"compiled-{data_key}.pickle"
    found, value = _load_entry(entry, f"compiled-{data_key}", kept)
    if found:  # used now: the limits (store_compiled) drop the least recently used first
        with contextlib.suppress(OSError):
            for used in (entry, folder / f"rite-{key}.pickle"):
                os.utime(used)
    return value


def store_compiled(key: str, reads: Reads, base: str | None, value: Any,
                   kept: dict[str, Any]) -> None:
    """Keep value for load_compiled(key), valid while the files in `reads` keep their bytes."""
    folder = cache_dir()
    if folder is None or not reads.consistent or not reads.files:
        return
    listing = _folder_listing(base)
    data_key = digest(key, tuple(reads.files.items()), base, listing)
    try:
        data = dumps(value, kept)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return  # something that does not pickle: the compile is simply not kept
    exists = tuple(os.path.isfile(p) for p in reads.files)
    _store(folder, folder / f"compiled-{data_key}.pickle", None, data, key=f"compiled-{data_key}")
    _store(folder, folder / f"rite-{key}.pickle",
           (dict(reads.files), exists, base, listing, data_key, hashlib.sha256(data).digest()),
           key=f"rite-{key}")
    try:
        most = int(os.environ.get("XIANGSHE_CACHE_COMPILES") or MAX_COMPILED)  # tests: more
        for pattern, limit in (("compiled-*.pickle", most), ("rite-*.pickle", max(most, MAX_INDEXES))):
            entries = sorted(folder.glob(pattern), key=lambda p: p.stat().st_mtime)
            for old in entries[:-limit]:
                old.unlink(missing_ok=True)
    except OSError:
        pass
