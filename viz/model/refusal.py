"""Readings a layout refuses to run (issue 26, the grid): a variant of the court or the range
may say `refused: WHY` — the reading it belongs to cannot be played with
this layout's rite, for the cited reason. `--reading` with it is then a located error quoting
the reason (not a rite that fails `check --strict`), and the grid lists it with the reason
instead of running it (viz/cli/grid.py).

layouts/xu.yaml's court of a 寢 (庭三堂深) is the case in point: the 侯 of the 鄉射 stands in the
court (李如圭: 鄉射之侯去堂三十丈…則庭之深可見), which a court of 3 × 堂深 cannot hold.
"""
from __future__ import annotations

from pathlib import Path

from viz.base.errors import InputError, Problem
from viz.base.yamlsrc import YMap, load_text


def _document(path: Path):
    return load_text(path.read_text(encoding="utf-8"), str(path))


def refusals(layout_path: str | Path) -> dict[str, Problem]:
    """{reading: the located reason it is refused}, from the layout's `refused:` variants (the
    layout is read as load_layout reads it, an `extends:` merged onto its base; a layout that
    does not load refuses nothing here: load_layout reports it)."""
    from viz.model.layout_extends import extend

    path = Path(layout_path)
    try:
        root = _document(path)
        if isinstance(root, YMap) and "extends" in root:
            root, problems = extend(root, str(path), lambda p: (_document(Path(p)), []))
            if problems:
                return {}
    except (OSError, InputError):  # load_layout reports a bad file
        return {}
    if not isinstance(root, YMap):
        return {}
    specs = [root.get(k) for k in ("court", "range")]  # the schema allows it on these alone
    out: dict[str, Problem] = {}
    for spec in specs:
        if not isinstance(spec, dict):
            continue
        for v in spec.get("variants", ()):
            if isinstance(v, YMap) and "refused" in v:
                for r in str(v["reading"]).replace("，", ",").split(","):
                    if r.strip() and r.strip() not in out:
                        out[r.strip()] = Problem(
                            v.loc_of("refused"),
                            f"the reading {r.strip()!r} cannot be run with this rite: "
                            f"{v['refused']}")
    return out
