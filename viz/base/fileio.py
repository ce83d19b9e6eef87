"""Writing output files atomically and never over a user's file unless asked.

The rules, for `shot -o`, the window's screenshots and the benchmarks alike:

- A file is written to a temporary name in the same folder and renamed into place, so a reader
  never sees half a file; the temporary file never outlives a failure.
- An existing name is refused unless `overwrite` (the CLI's --force). With it, a regular file is
  replaced and the new file keeps the old one's permission bits (rwx); a folder, a device, a FIFO or a
  socket is never replaced.
- A symbolic link at the name, live or dangling, is refused like any existing file. With
  overwrite the link itself is replaced by the new file and its target is left alone: following
  it could write anywhere the link points (a link planted in a shared folder could aim at
  ~/.bashrc), while the user named the link's path, not its target's.
- New files get the ordinary mode, 0o666 less the umask: the kernel applies the umask to the
  mode given to open(), so the process-wide umask is never read or changed (os.umask cannot be
  read without setting it, a race with other threads).
- atomic_write_* does not create missing folders: `-o pictures/x.png` with no `pictures` is an
  error, as with cp or a shell redirection, so a mistyped folder is reported rather than created.
  next_free_name, which picks names in a folder of the program's own (./screenshots, bench
  results), creates that folder.
- Every OSError becomes an OutputError whose message names the path and what is wrong.
"""
from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from pathlib import Path

# next_free_name numbers files stem-0001 … stem-9999: four digits keep them in order when listed
MAX_SERIAL = 9999


class OutputError(Exception):
    """An output file cannot be written; the message names the path and what is wrong."""


class RefuseOverwrite(OutputError, FileExistsError):
    """The name is taken and overwriting was not asked for.

    Also a FileExistsError, so a caller that races others for a fresh name (the window's
    screenshot key) can catch that and try the next name.
    """


def _describe(e: OSError, path: Path) -> str:
    """What went wrong writing `path`, in the user's terms."""
    folder = path.parent
    if e.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"cannot write {path}: the disk is full (or the quota is used up)"
    if e.errno in (errno.EACCES, errno.EPERM):
        return f"cannot write {path}: no permission to write in {folder}"
    if e.errno == errno.EROFS:
        return f"cannot write {path}: {folder} is on a read-only file system"
    if e.errno == errno.ENOTDIR:
        return f"cannot write {path}: {folder} is not a folder"
    if e.errno == errno.ENOENT:
        return f"cannot write {path}: folder {folder} does not exist (create it first)"
    if e.errno == errno.EISDIR:
        return f"cannot write {path}: it is a folder"
    if e.errno == errno.ENAMETOOLONG:
        return f"cannot write {path}: the name is too long"
    return f"cannot write {path}: {e.strerror or e}"


def _check_target(p: Path, overwrite: bool) -> int | None:
    """Refuse a target that may not be written; the mode to keep when replacing a file."""
    try:
        st = os.lstat(p)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise OutputError(_describe(e, p)) from None
    if st is None:
        try:
            parent = os.stat(p.parent)
        except OSError as e:
            raise OutputError(_describe(e, p)) from None
        if not stat.S_ISDIR(parent.st_mode):
            raise OutputError(f"cannot write {p}: {p.parent} is not a folder")
        return None
    if stat.S_ISDIR(st.st_mode):
        raise OutputError(f"{p} is a folder; give a file name")
    if stat.S_ISLNK(st.st_mode):
        if not overwrite:
            raise RefuseOverwrite(f"{p} is a symbolic link; not replaced unless --force (which "
                                  "replaces the link itself, not the file it points to)")
        return None
    if not stat.S_ISREG(st.st_mode):
        raise OutputError(f"{p} is not a regular file (a device, FIFO or socket); not replaced")
    if not overwrite:
        raise RefuseOverwrite(f"{p} exists; pass --force to replace it")
    return stat.S_IMODE(st.st_mode) & 0o777  # not set-id bits: this is a new file's content


def _temp_file(p: Path) -> tuple[int, Path]:
    """A new, empty file beside `p`, open for writing, with the ordinary mode."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        # the name is cut so a long but legal target name still leaves room for the suffix
        tmp = p.parent / f".{p.name[:100]}.{secrets.token_hex(4)}.tmp"
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue
    raise OutputError(f"cannot write {p}: no free temporary name in {p.parent}")


def _put_in_place(tmp: Path, p: Path, overwrite: bool) -> None:
    if overwrite:
        os.replace(tmp, p)  # rename replaces a link itself, never its target
        return
    try:
        os.link(tmp, p)  # fails if the name appeared meanwhile: no race can clobber a file
    except FileExistsError:
        raise RefuseOverwrite(f"{p} exists; pass --force to replace it") from None
    except OSError as e:
        if e.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
            raise
        # no hard links here (FAT, some network file systems): claim the name, then rename over
        # our own empty claim, which still never replaces anyone else's file
        try:
            os.close(os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            raise RefuseOverwrite(f"{p} exists; pass --force to replace it") from None
        os.replace(tmp, p)
        return
    os.unlink(tmp)


def atomic_write_bytes(path: str | Path, data: bytes, overwrite: bool = False) -> Path:
    """Write `data` to `path` via a temporary file and a rename; see the module for the rules.

    Raises RefuseOverwrite if the name is taken and not `overwrite`, OutputError for anything
    else that stops the write (a folder at the name, a missing folder, no permission, disk full).
    """
    if str(path).endswith(("/", os.sep)):  # Path() would drop the slash and write a file
        raise OutputError(f"{path} names a folder; give a file name")
    p = Path(path)
    keep_mode = _check_target(p, overwrite)
    try:
        fd, tmp = _temp_file(p)
    except OSError as e:
        raise OutputError(_describe(e, p)) from None
    try:
        with os.fdopen(fd, "wb") as f:
            if keep_mode is not None:
                os.fchmod(f.fileno(), keep_mode)
            f.write(data)
            f.flush()
            os.fsync(f.fileno())  # the data is on disk before the name points at it
        _put_in_place(tmp, p, overwrite)
    except BaseException as e:
        with contextlib.suppress(OSError):  # gone already, or the folder turned read-only
            os.unlink(tmp)
        if isinstance(e, OSError) and not isinstance(e, OutputError):
            raise OutputError(_describe(e, p)) from None
        raise
    return p


def atomic_write_text(path: str | Path, text: str, overwrite: bool = False) -> Path:
    """atomic_write_bytes of `text` in UTF-8."""
    return atomic_write_bytes(path, text.encode("utf-8"), overwrite)


def next_free_name(folder: str | Path, stem: str, suffix: str) -> Path:
    """folder/stem-0001.suffix, the first number not yet taken; creates the folder if missing.

    Raises OutputError when the folder cannot hold a new file (it is a plain file, cannot be
    created, searched or written to) or every number up to MAX_SERIAL is taken.
    """
    d = Path(folder)
    try:
        d.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise OutputError(f"cannot save in {d}: it is not a folder") from None
    except OSError as e:
        raise OutputError(f"cannot create folder {d}: {e.strerror or e}") from None
    if not os.access(d, os.W_OK | os.X_OK):
        raise OutputError(f"cannot save in {d}: no permission to write there (or read-only)")
    for n in range(1, MAX_SERIAL + 1):
        candidate = d / f"{stem}-{n:04d}{suffix}"
        try:
            os.lstat(candidate)  # lstat: a dangling link takes its name too
        except FileNotFoundError:
            return candidate
        except OSError as e:
            raise OutputError(_describe(e, candidate)) from None
    raise OutputError(f"{d} already holds {stem}-0001{suffix} … {stem}-{MAX_SERIAL:04d}{suffix}; "
                      "move some away")
