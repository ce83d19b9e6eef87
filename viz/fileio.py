"""Writing output files atomically and never over a user's file unless asked."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path


class RefuseOverwrite(Exception):
    pass


def atomic_write_bytes(path: str | Path, data: bytes, overwrite: bool = False) -> Path:
    """Write via a temp file in the same folder and rename; refuse to replace unless overwrite."""
    p = Path(path)
    if p.exists() and not overwrite:
        raise RefuseOverwrite(f"{p} exists; pass --force to replace it")
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        if overwrite:
            os.replace(tmp, p)
        else:
            # link fails if the name appeared meanwhile: no race can clobber a file
            os.link(tmp, p)
            os.unlink(tmp)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return p


def atomic_write_text(path: str | Path, text: str, overwrite: bool = False) -> Path:
    return atomic_write_bytes(path, text.encode("utf-8"), overwrite)


def next_free_name(folder: str | Path, stem: str, suffix: str) -> Path:
    """folder/stem-0001.suffix, the first number not yet taken."""
    d = Path(folder)
    n = 1
    while (d / f"{stem}-{n:04d}{suffix}").exists():
        n += 1
    return d / f"{stem}-{n:04d}{suffix}"
