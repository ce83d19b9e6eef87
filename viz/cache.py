"""Parsed and checked YAML files kept on disk, keyed by their bytes: an unchanged file loads fast.

Parsing is most of a load: a 37-section rite is ten thousand lines of YAML, and libyaml with
our located nodes reads them at a few MB/s. Like Python's own .pyc files, the result of
parsing one file and checking its structure is kept under the user's cache folder
($XIANGSHE_CACHE, else $XDG_CACHE_HOME/xiangshe, else ~/.cache/xiangshe), named by a hash of
the file's path, its bytes, what it was checked as and this program's schema. Editing one
section re-reads that file only. XIANGSHE_CACHE=off turns the cache off; a cache that cannot
be read or written is passed over (it only ever saves time, never changes a result).
"""
from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

from viz.yamlsrc import read_text

VERSION = b"xiangshe-cache-1"
MAX_ENTRIES = 400  # beyond this the oldest entries are removed


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
    if folder is None:
        return work(text, name)
    h = hashlib.sha256(VERSION)
    for part in (kind.encode(), salt, name.encode("utf-8", "surrogatepass"),
                 text.encode("utf-8", "surrogatepass")):
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    key = h.hexdigest()[:40]
    if key in _MEMO:  # the same bytes again in this process (a file listed twice, a reload)
        return _MEMO[key]
    entry = folder / f"{key}.pickle"
    try:
        with open(entry, "rb") as f:
            got = pickle.load(f)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError,
            ValueError):
        got = work(text, name)
        _store(folder, entry, got)
    _remember(key, got)
    return got


_MEMO: dict[str, Any] = {}
MEMO_ENTRIES = 256


def _remember(key: str, value: Any) -> None:
    """Results are read, never changed, by their users: one object serves every asker."""
    if len(_MEMO) >= MEMO_ENTRIES:
        _MEMO.pop(next(iter(_MEMO)))
    _MEMO[key] = value


def load_blob(name: str, salt: bytes) -> Any | None:
    """A value kept under a name (e.g. the walks planned on one layout), or None."""
    folder = cache_dir()
    if folder is None:
        return None
    entry = folder / f"{name}-{hashlib.sha256(VERSION + salt).hexdigest()[:32]}.pickle"
    try:
        with open(entry, "rb") as f:
            return pickle.load(f)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError,
            ValueError):
        return None


def store_blob(name: str, salt: bytes, value: Any) -> None:
    folder = cache_dir()
    if folder is not None:
        _store(folder, folder / f"{name}-{hashlib.sha256(VERSION + salt).hexdigest()[:32]}"
                                ".pickle", value)


def _store(folder: Path, entry: Path, value: Any) -> None:
    from viz.fileio import OutputError, atomic_write_bytes

    try:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(entry, data, overwrite=True)
        entries = sorted(folder.glob("*.pickle"), key=lambda p: p.stat().st_mtime)
        for old in entries[:-MAX_ENTRIES]:
            old.unlink(missing_ok=True)
    except (OSError, OutputError, pickle.PicklingError, RecursionError):
        pass  # a cache that cannot be written only costs time
