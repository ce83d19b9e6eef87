"""YAML loading that remembers where every mapping key, value and list item came from."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from viz.errors import InputError, Loc, Problem


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


class _Loader(yaml.SafeLoader):
    pass


def _construct_map(loader: _Loader, node: yaml.MappingNode) -> YMap:
    loader.flatten_mapping(node)
    m = YMap()
    m.loc = _loc(loader.src_name, node.start_mark)
    m.key_locs, m.value_locs = {}, {}
    for knode, vnode in node.value:
        key = loader.construct_object(knode, deep=True)
        try:
            hash(key)
        except TypeError:
            raise InputError(Problem(_loc(loader.src_name, knode.start_mark),
                                     "a mapping key must be a plain value")) from None
        if key in m:
            raise InputError(Problem(_loc(loader.src_name, knode.start_mark),
                                     f"duplicate key {key!r}"))
        m[key] = loader.construct_object(vnode, deep=True)
        m.key_locs[key] = _loc(loader.src_name, knode.start_mark)
        m.value_locs[key] = _loc(loader.src_name, vnode.start_mark)
    return m


def _construct_seq(loader: _Loader, node: yaml.SequenceNode) -> YList:
    lst = YList(loader.construct_object(n, deep=True) for n in node.value)
    lst.loc = _loc(loader.src_name, node.start_mark)
    lst.item_locs = [_loc(loader.src_name, n.start_mark) for n in node.value]
    return lst


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_map)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_seq)


def load_text(text: str, name: str = "<string>") -> Any:
    """Parse YAML text; syntax errors become an InputError at the offending line and column."""
    loader = None
    try:
        loader = _Loader(text)
        loader.src_name = name
        return loader.get_single_data()
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        loc = _loc(name, mark) if mark else Loc(name, 1, 1)
        msg = " ".join(str(x) for x in (e.context, e.problem) if x) or "invalid YAML"
        raise InputError(Problem(loc, f"YAML syntax: {msg}")) from None
    except yaml.YAMLError as e:
        raise InputError(Problem(Loc(name, 1, 1), f"YAML: {e}")) from None
    finally:
        if loader is not None:
            loader.dispose()


def load_file(path: str | Path) -> Any:
    """Read and parse a YAML file; a missing or unreadable file is a located error too."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(Problem(Loc(str(path), 1, 1), "file not found")) from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(Problem(Loc(str(path), 1, 1), f"cannot read: {e}")) from None
    return load_text(text, str(path))


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
