"""YAML loading that remembers where every mapping key, value and list item came from.

Parsing uses libyaml's C loader when PyYAML has it (four to six times faster) and PyYAML's own
otherwise; both keep the line and column of every node. A file is refused, with a located
InputError naming the limit, when it could otherwise exhaust memory or time: more than MAX_BYTES
bytes or MAX_LINES lines, nesting deeper than MAX_DEPTH, more than MAX_NODES values, or aliases
that expand to more than MAX_ALIAS_NODES values (the "billion laughs").
"""
from __future__ import annotations

import codecs
import contextvars
import gc
import os
import stat
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import SafeConstructor

from viz.base.errors import InputError, Loc, Problem, clip, shorten

MAX_BYTES = 16 * 1024 * 1024
# The bundled script is 640 lines and the biggest real one is expected near 20,000; generated
# benchmarks reach ~200,000. Counting lines is cheap, so a 2-million-line file stops here at once.
MAX_LINES = 500_000
# Real layouts and scripts nest about 10 deep. The limit keeps PyYAML's recursive constructor
# (and libyaml's composer, which recurses in C and crashes the process near 100,000 levels) and
# everything downstream far from any recursion limit.
MAX_DEPTH = 100
# Each value costs ~0.5 KB once loaded with its locations; ~1.7 µs each to count, so a file of a
# million tiny values is refused in under two seconds. The 640-line script has ~2,000 values.
MAX_NODES = 1_000_000
# No shipped file uses aliases; this allows generous sharing while a few lines of anchors that
# reference anchors ("billion laughs") are stopped at the alias that crosses it.
MAX_ALIAS_NODES = 100_000
# An int or float longer than this is no measurement; int() of a long one is slow or refused.
MAX_NUMBER_CHARS = 100

_BOM = "\ufeff"


class YMap(dict):
    """A dict that knows the source location of itself, of each key and of each value."""

    loc: Loc
    key_locs: dict
    value_locs: dict

    def loc_of(self, key: Any) -> Loc:
        return self.value_locs.get(key, self.loc)

    def key_loc(self, key: Any) -> Loc:
        return self.key_locs.get(key, self.loc)


class YList(list):
    """A list that knows the source location of itself and of each item."""

    loc: Loc
    item_locs: list

    def loc_of(self, i: int) -> Loc:
        return self.item_locs[i] if 0 <= i < len(self.item_locs) else self.loc


def _loc(name: str, mark: yaml.Mark) -> Loc:
    return Loc(name, mark.line + 1, mark.column + 1)


def _error(loader: Any, mark: yaml.Mark, message: str) -> InputError:
    return InputError(Problem(_loc(loader.src_name, mark), message))


def _construct_map(loader: Any, node: yaml.MappingNode) -> YMap:
    loader.flatten_mapping(node)
    m = YMap()
    m.loc = _loc(loader.src_name, node.start_mark)
    m.key_locs, m.value_locs = {}, {}
    for knode, vnode in node.value:
        key = loader.construct_object(knode, deep=True)
        try:
            hash(key)
        except TypeError:
            raise _error(loader, knode.start_mark, "a mapping key must be a plain value") from None
        if key in m:
            raise _error(loader, knode.start_mark, f"duplicate key {clip(key)}")
        m[key] = loader.construct_object(vnode, deep=True)
        m.key_locs[key] = _loc(loader.src_name, knode.start_mark)
        m.value_locs[key] = _loc(loader.src_name, vnode.start_mark)
    return m


def _construct_seq(loader: Any, node: yaml.SequenceNode) -> YList:
    lst = YList(loader.construct_object(n, deep=True) for n in node.value)
    lst.loc = _loc(loader.src_name, node.start_mark)
    lst.item_locs = [_loc(loader.src_name, n.start_mark) for n in node.value]
    return lst


def _number(construct: Any) -> Any:
    def construct_number(loader: Any, node: yaml.ScalarNode) -> Any:
        if len(node.value) > MAX_NUMBER_CHARS:
            raise _error(loader, node.start_mark, f"a number of {len(node.value):,} characters "
                         f"is too long (at most {MAX_NUMBER_CHARS}); quote it if it is text")
        return construct(loader, node)

    return construct_number


def _construct_timestamp(loader: Any, node: yaml.ScalarNode) -> Any:
    # YAML reads 2024-13-45 as a date and Python's datetime then raises a bare ValueError
    try:
        return SafeConstructor.construct_yaml_timestamp(loader, node)
    except ValueError as e:
        raise _error(loader, node.start_mark, f"{clip(node.value)} reads as a date but is not one "
                     f"({e}); quote it if it is text") from None


def _loader_class(base: type) -> type:
    """`base` (a PyYAML loader) with our located mappings and lists and guarded scalars."""
    cls = type(f"_Located{base.__name__}", (base,), {})
    tags = yaml.resolver.BaseResolver
    cls.add_constructor(tags.DEFAULT_MAPPING_TAG, _construct_map)
    cls.add_constructor(tags.DEFAULT_SEQUENCE_TAG, _construct_seq)
    cls.add_constructor("tag:yaml.org,2002:int", _number(SafeConstructor.construct_yaml_int))
    cls.add_constructor("tag:yaml.org,2002:float", _number(SafeConstructor.construct_yaml_float))
    cls.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp)
    return cls


_PyLoader = _loader_class(yaml.SafeLoader)
_Loader = _loader_class(yaml.CSafeLoader) if yaml.__with_libyaml__ else _PyLoader

_OPEN = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
_CLOSE = (yaml.SequenceEndEvent, yaml.MappingEndEvent)


def _check_shape(loader: Any) -> None:
    """Walk the event stream once, building nothing, and refuse what would be too deep or big.

    The walk is iterative, so any depth is safe to measure; an alias counts as every value of
    what its anchor names, as constructing it (and anything that later walks the result) would.
    """
    nodes = via_aliases = 0
    size: dict[str, int] = {}  # anchor -> values it stands for
    opened: list[tuple[str | None, int]] = []  # open collections: (anchor, node count at start)
    while True:
        ev = loader.get_event()
        kind = type(ev)
        if kind is yaml.ScalarEvent:
            nodes += 1
            if ev.anchor is not None:
                size[ev.anchor] = 1
        elif kind in _OPEN:
            nodes += 1
            if len(opened) >= MAX_DEPTH:
                raise _error(loader, ev.start_mark, f"nested more than {MAX_DEPTH} levels deep; "
                             "refused")
            opened.append((ev.anchor, nodes))
        elif kind in _CLOSE:
            anchor, first = opened.pop()
            if anchor is not None:
                size[anchor] = nodes - first + 1
        elif kind is yaml.AliasEvent:
            if ev.anchor not in size:
                if any(anchor == ev.anchor for anchor, _ in opened):
                    raise _error(loader, ev.start_mark, f"alias *{shorten(ev.anchor, 40)} is "
                                 "inside the anchor it refers to")
                continue  # undefined: the composer says so in its own words
            nodes += size[ev.anchor]
            via_aliases += size[ev.anchor]
            if via_aliases > MAX_ALIAS_NODES:
                raise _error(loader, ev.start_mark, f"aliases expand to more than "
                             f"{MAX_ALIAS_NODES:,} values (anchors within anchors?); refused")
        elif kind is yaml.StreamEndEvent:
            return
        if nodes > MAX_NODES:
            raise _error(loader, ev.start_mark, f"more than {MAX_NODES:,} values; refused")


def _text_loc(text: str, i: int, name: str) -> Loc:
    """The line and column (in characters, as YAML counts them) of text[i]."""
    line_start = text.rfind("\n", 0, i) + 1
    col = i - line_start + 1
    if line_start == 0 and text.startswith(_BOM):
        col -= 1  # YAML does not count the byte-order mark as a column
    return Loc(name, text.count("\n", 0, i) + 1, col)


def _check_text(text: str, name: str) -> None:
    if len(text) > MAX_BYTES // 4 and len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise InputError(Problem(Loc(name, 1, 1), f"larger than {MAX_BYTES:,} bytes "
                                 f"({MAX_BYTES >> 20} MiB); refused"))
    if max(text.count("\n"), text.count("\r")) > MAX_LINES:
        raise InputError(Problem(Loc(name, MAX_LINES + 1, 1), f"more than {MAX_LINES:,} lines; "
                                 "refused"))
    # both parsers refuse these too, but libyaml names a byte offset and PyYAML a character one
    bad = yaml.reader.Reader.NON_PRINTABLE.search(text)
    if bad:
        ch = bad.group()
        raise InputError(Problem(_text_loc(text, bad.start(), name),
                                 f"character U+{ord(ch):04X} is not allowed in YAML"))


class _LibyamlNesting(InputError):
    """libyaml's own nesting limit, met while reading ahead (see load_text)."""


def _parse(text: str, name: str, work: Callable[[Any], Any], loader_class: type | None = None
           ) -> Any:
    """work(loader) on a fresh loader of `text`; YAML's own errors become located InputErrors."""
    loader = (loader_class or _Loader)(text)
    loader.src_name = name
    try:
        return work(loader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        loc = _loc(name, mark) if mark else Loc(name, 1, 1)
        msg = " ".join(shorten(str(x)) for x in (e.context, e.problem) if x) or "invalid YAML"
        error = (_LibyamlNesting if "nesting depth" in str(e.problem) else InputError)
        raise error(Problem(loc, f"YAML syntax: {msg}")) from None
    except yaml.YAMLError as e:
        raise InputError(Problem(Loc(name, 1, 1), f"YAML: {shorten(str(e))}")) from None
    finally:
        loader.dispose()


def load_text(text: str, name: str = "<string>") -> Any:
    """Parse YAML text; syntax errors and exceeded limits become a located InputError."""
    _check_text(text, name)
    # two passes: the first only counts, so nothing deep or huge is built before it is refused
    try:
        _parse(text, name, _check_shape)
    except _LibyamlNesting:
        # libyaml (from PyYAML 6.0.4's wheels) stops at 1,000 levels of its own, found while it
        # reads ahead of the events the walk has seen; the pure-Python loader reads no further
        # than it must, so its walk meets MAX_DEPTH first and refuses at the bracket that crosses
        _parse(text, name, _check_shape, _PyLoader)
        raise  # not reached: the walk refuses first at MAX_DEPTH < 1,000
    return _parse(text, name, _build)


def _build(loader: Any) -> Any:
    # Building allocates a container per node and nothing here is cyclic garbage, yet each few
    # hundred allocations start a collection that scans everything built so far: a 20× script
    # loads ~30% faster with the collector paused.
    paused = gc.isenabled()
    gc.disable()
    try:
        return loader.get_single_data()
    finally:
        if paused:
            gc.enable()


# Where file bytes come from: None reads the disk; a reload sets a function (path, disk read) →
# bytes that serves edited texts from memory and records what was read (viz/model/reload.py).
READ_HOOK: contextvars.ContextVar[Callable[[str | Path, Callable[[str | Path], bytes]], bytes]
                                  | None] = contextvars.ContextVar("read_hook", default=None)


def _read_bytes(path: str | Path) -> bytes:
    """A file's bytes, through READ_HOOK when one is set, else from the disk."""
    hook = READ_HOOK.get()
    return _disk_bytes(path) if hook is None else hook(path, _disk_bytes)


def _nonblocking(path: str, flags: int) -> int:
    # O_NONBLOCK: opening a FIFO no one writes to returns at once (it is then refused), and a
    # device is never waited on; a regular file reads as usual
    return os.open(path, flags | getattr(os, "O_NONBLOCK", 0))


def _disk_bytes(path: str | Path) -> bytes:
    """At most MAX_BYTES + 1 bytes of a regular file. Only regular files are read: a FIFO, a
    device, a socket or a folder is refused without waiting on it (the one place inputs are
    read: layouts, scripts, manifests, patterns, corpora)."""
    name = str(path)
    try:
        with open(path, "rb", opener=_nonblocking) as f:
            mode = os.fstat(f.fileno()).st_mode
            if stat.S_ISDIR(mode):
                raise IsADirectoryError
            if not stat.S_ISREG(mode):
                raise InputError(Problem(Loc(name, 1, 1), "not a regular file (a FIFO, device "
                                                          "or socket); refused"))
            data = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise InputError(Problem(Loc(name, 1, 1), "file not found")) from None
    except IsADirectoryError:
        raise InputError(Problem(Loc(name, 1, 1), "is a folder, not a file")) from None
    except (OSError, ValueError) as e:  # ValueError: a NUL in the name
        why = getattr(e, "strerror", None) or str(e)
        raise InputError(Problem(Loc(name, 1, 1), f"cannot read: {why}")) from None
    if len(data) > MAX_BYTES:
        line_start = data.rfind(b"\n", 0, MAX_BYTES) + 1
        col = len(data[line_start:MAX_BYTES].decode("utf-8", "replace")) + 1
        raise InputError(Problem(Loc(name, data.count(b"\n", 0, MAX_BYTES) + 1, col),
                                 f"larger than {MAX_BYTES:,} bytes ({MAX_BYTES >> 20} MiB); "
                                 "refused"))
    return data


def _decode(data: bytes, name: str) -> str:
    """UTF-8 text without its byte-order mark; a bad byte is reported where it stands."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        col = len(data[line_start:e.start].decode("utf-8", "replace")) + 1
        loc = Loc(name, data.count(b"\n", 0, e.start) + 1, col)
        raise InputError(Problem(loc, f"not UTF-8: byte 0x{data[e.start]:02X} ({e.reason}); "
                                 "save the file as UTF-8")) from None


def is_file(path: str | Path) -> bool:
    """Path.is_file for a path a user wrote: False, not an OSError, for a name too long for the
    file system or one it cannot look up (Path.is_file raises those)."""
    try:
        return Path(path).is_file()
    except (OSError, ValueError):
        return False


def is_dir(path: str | Path) -> bool:
    """Path.is_dir for a path a user wrote (see is_file)."""
    try:
        return Path(path).is_dir()
    except (OSError, ValueError):
        return False


def read_text(path: str | Path) -> str:
    """A file's text, read within the size limit; unreadable or non-UTF-8 is a located error."""
    return _decode(_read_bytes(path), str(path))


def load_file(path: str | Path) -> Any:
    """Read and parse a YAML file; an unreadable, oversized or non-UTF-8 file is located too."""
    return load_text(read_text(path), str(path))


def leaves(node: Any, loc: Loc | None = None, plain: bool = False) -> Iterator[tuple[Any, Loc | None]]:
    """Every scalar of a loaded document with where it stands (a map's value at its key, an
    item at its place). `plain`: dicts and lists made after loading (a pattern's expansion) are
    walked too, their scalars placed at the nearest located container's place."""
    if isinstance(node, YMap):
        for k, v in node.items():
            yield from leaves(v, node.loc_of(k), plain)
    elif isinstance(node, YList):
        for i, v in enumerate(node):
            yield from leaves(v, node.loc_of(i), plain)
    elif plain and isinstance(node, Mapping):
        for v in node.values():
            yield from leaves(v, loc, plain)
    elif plain and isinstance(node, list):
        for v in node:
            yield from leaves(v, loc, plain)
    elif not isinstance(node, Mapping | list):
        yield node, loc


def numbers(node: Any, loc: Loc | None = None) -> Iterator[tuple[int | float, Loc]]:
    """Every number in a loaded document, with where it stands (booleans are not numbers)."""
    for v, at in leaves(node, loc):
        if isinstance(v, int | float) and not isinstance(v, bool) and at is not None:
            yield v, at


def locate(root: Any, path: list | tuple, fallback: Loc | None = None) -> Loc:
    """The location of the value at a jsonschema-style path inside a loaded document."""
    node, loc = root, getattr(root, "loc", fallback)
    for part in path:
        in_map = isinstance(node, YMap) and part in node
        in_list = isinstance(node, YList) and isinstance(part, int) and part < len(node)
        if in_map or in_list:
            loc, node = node.loc_of(part), node[part]
        else:
            break
    return loc or fallback or Loc("<unknown>", 1, 1)
