"""A layout that extends another: its base file merged under it, with names removed or replaced.

    extends: xu                 # the base: a bundled layout by name, or a file in this file's
                                # folder (it may extend another in turn); nothing outside it
    remove:                     # what of the base this layout does without
      keys: [range, sight]      # whole optional sections
      places: [侯, 乏]          # by name; obstacles, features, stairs by name too,
      sight: [the 旌 …]         # sight lines by `what`, variants by `topic`, ways by name
    places:                     # a place of the base's name is replaced whole; a new one is added
      賔席: {x: -5, y: 26, source: "…"}

Every other key (name, reading, hall, court, range, elsewhere, …) replaces the base's. The merged
document keeps each value's own file, line and column, so later checks point into the file that
wrote it; a name under remove: that the base lacks is an error at that name.
"""
from __future__ import annotations

import difflib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from viz.base.errors import InputError, Loc, Problem
from viz.base.yamlsrc import YList, YMap, is_file

# Sections merged item by item, and the key that names an item (None: a mapping by name).
KEYED: dict[str, str | None] = {"places": None, "ways": None, "obstacles": "name",
                                "stairs": "name", "features": "name", "sight": "what",
                                "variants": "topic", "grounds": "name", "gates": "name",
                                "regions": "name"}
REMOVABLE_KEYS = ("range", "sight", "elsewhere", "variants", "ways", "features", "obstacles",
                  "grounds", "gates", "regions")
OWN = ("extends", "remove")

Loader = Callable[[Path], tuple[Any, list[Problem]]]


def extend(root: YMap, file: str, load: Loader, chain: tuple[str, ...] = ()) -> tuple[YMap, list[Problem]]:
    """root merged onto the layout its `extends:` names; load(path) reads a layout document
    (and its own problems). Problems come back located, never raised."""
    loc = root.loc_of("extends")
    ref = root["extends"]
    if not isinstance(ref, str) or not ref.strip():
        return root, [Problem(loc, f"extends: expected the path of a layout file, found {ref!r}")]
    path, why = _base_of(Path(file), ref)
    if why is not None:
        return root, [Problem(loc, f"extends: {why}")]
    here = str(Path(file).resolve())
    if str(path) in chain + (here,):
        cycle = " → ".join(Path(p).name for p in (*chain, here, str(path)))
        return root, [Problem(loc, f"extends: {ref!r} leads back to this file ({cycle})")]
    if not is_file(path):
        return root, [Problem(loc, f"extends: no layout file {ref!r} (looked for {path}; "
                                   f"expected a path relative to {Path(file).name}'s folder)")]
    try:
        base, problems = load(path)
    except InputError as e:
        return root, e.problems
    if problems:
        return root, problems
    if not isinstance(base, YMap):
        return root, [Problem(loc, f"extends: {ref!r} is not a layout (not a mapping of keys)")]
    if "extends" in base:
        base, problems = extend(base, str(path), load, chain + (here,))
        if problems:
            return root, problems
    return _merge(base, root, path.name)


def _base_of(file: Path, ref: str) -> tuple[Path, str | None]:
    """The layout extends: names: a file in (or under) the extending file's folder, else a
    bundled layout by its name (xu, xiang); anything leading out of the folder is refused
    (viz.model.bundled), before a byte of it is read."""
    from viz.model import bundled

    folder, names = file.parent, bundled.layouts()
    local = folder / ref
    if ref in names and not (os.path.lexists(local) and bundled.within(folder, local)):
        return names[ref].resolve(), None
    why = bundled.outside(folder, ref, names, "layout", f"{file.name}'s folder")
    return local.resolve(), why


def _merge(base: YMap, child: YMap, base_name: str) -> tuple[YMap, list[Problem]]:
    problems: list[Problem] = []
    remove = child.get("remove", _ymap(child.loc))
    if not isinstance(remove, YMap):
        remove = _ymap(child.loc)
        problems.append(Problem(child.loc_of("remove"),
                                "remove: expected a mapping of sections to lists of names"))
    gone = _names(remove, "keys", problems)
    for key, at in gone:
        if key not in REMOVABLE_KEYS:
            problems.append(Problem(at, f"remove.keys: {key!r} cannot be removed (expected one "
                                        f"of {', '.join(REMOVABLE_KEYS)})"))
        elif key not in base:
            problems.append(Problem(at, f"remove.keys: the base {base_name} has no {key}"))
    for section in remove:
        if section != "keys" and section not in KEYED:
            problems.append(Problem(remove.key_loc(section), f"remove: unknown section "
                                    f"{section!r} (expected keys or one of {', '.join(KEYED)})"))
    dropped = {k for k, _ in gone}
    out = _ymap(child.loc)
    for key in base:
        if key in dropped or key in OWN:
            continue
        value = base[key]
        if key in KEYED:
            value = _without(value, key, _names(remove, key, problems), base_name, problems)
        _put(out, key, value, base.key_loc(key), base.loc_of(key))
    for key in child:
        if key in OWN:
            continue
        value = child[key]
        if key in KEYED and key in out:
            value = _overlaid(out[key], value, KEYED[key])
        _put(out, key, value, child.key_loc(key), child.loc_of(key))
    return out, problems


def _names(remove: YMap, section: str, problems: list[Problem]) -> list[tuple[str, Loc]]:
    if section not in remove:
        return []
    items = remove[section]
    if not isinstance(items, YList) or not all(isinstance(n, str) for n in items):
        problems.append(Problem(remove.loc_of(section), f"remove.{section}: expected a list of names"))
        return []
    return [(n, items.loc_of(i)) for i, n in enumerate(items)]


def _item_name(item: Any, id_key: str | None) -> Any:
    return item.get(id_key) if isinstance(item, YMap) else None


def _without(value: Any, section: str, names: list[tuple[str, Loc]], base_name: str,
             problems: list[Problem]) -> Any:
    """The base's section less the names listed under remove:; an unknown name is an error."""
    id_key = KEYED[section]
    have = (list(value) if isinstance(value, YMap)
            else [_item_name(v, id_key) for v in value] if isinstance(value, YList) else [])
    for name, at in names:
        if name not in have:
            near = difflib.get_close_matches(name, [h for h in have if isinstance(h, str)], 3)
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            problems.append(Problem(at, f"remove.{section}: the base {base_name} has no "
                                        f"{section.rstrip('s')} {name!r}{hint}"))
    drop = {n for n, _ in names}
    if isinstance(value, YMap):
        out = _ymap(value.loc)
        for k in value:
            if k not in drop:
                _put(out, k, value[k], value.key_loc(k), value.loc_of(k))
        return out
    if isinstance(value, YList):
        return _ylist(value.loc, [(v, value.loc_of(i)) for i, v in enumerate(value)
                                  if _item_name(v, id_key) not in drop])
    return value


def _overlaid(base: Any, child: Any, id_key: str | None) -> Any:
    """The child's items over the base's: same name replaces (where the base had it), else adds."""
    if id_key is None and isinstance(base, YMap) and isinstance(child, YMap):
        out = _ymap(child.loc)
        for src in (base, child):
            for k in src:
                _put(out, k, src[k], src.key_loc(k), src.loc_of(k))
        return out
    if id_key is not None and isinstance(base, YList) and isinstance(child, YList):
        # every base item of a name the child gives is replaced by all the child's of that name
        # (three 衆賔席 mats for one), where the base had the first of them
        mine = [(v, child.loc_of(i)) for i, v in enumerate(child)]
        names = {_item_name(v, id_key) for v, _ in mine} - {None}
        items: list[tuple[Any, Loc]] = []
        for i, v in enumerate(base):
            name = _item_name(v, id_key)
            if name not in names:
                items.append((v, base.loc_of(i)))
            elif not any(_item_name(c, id_key) == name for c, _ in items):
                items += [(c, at) for c, at in mine if _item_name(c, id_key) == name]
        placed = {_item_name(v, id_key) for v, _ in items}
        items += [(c, at) for c, at in mine if _item_name(c, id_key) not in placed
                  or _item_name(c, id_key) is None]
        return _ylist(child.loc, items)
    return child


def _ymap(loc: Loc) -> YMap:
    m = YMap()
    m.loc, m.key_locs, m.value_locs = loc, {}, {}
    return m


def _ylist(loc: Loc, items: list[tuple[Any, Loc]]) -> YList:
    out = YList(v for v, _ in items)
    out.loc, out.item_locs = loc, [at for _, at in items]
    return out


def _put(m: YMap, key: Any, value: Any, key_loc: Loc, value_loc: Loc) -> None:
    m[key] = value
    m.key_locs[key] = key_loc
    m.value_locs[key] = value_loc
