"""Things set out in the course of the rite (設席陳器, 張侯, 設楅, 設中, 設豐, the 物 drawn): the
layout's features a frame shows. The timeline's "things" channel says which feature names are
set out at a moment (viz/model/compile/props.py); a drawing leaves the others out."""
from __future__ import annotations

from typing import Any

import numpy as np


def hidden(timeline, frame) -> frozenset[str]:
    """The feature names not (yet, or no longer) set out at the frame."""
    names = getattr(timeline, "thing_names", ())
    v = frame.values.get("things", {}).get("shown") if frame is not None else None
    if not names or v is None or not len(v):
        return frozenset()
    return frozenset(n for n, s in zip(names, np.asarray(v)) if not s)


class Shown:
    """A layout seen with only the features set out: every attribute is the layout's, except
    `features` and `places` (for the names drawn)."""

    def __init__(self, layout: Any, hide: frozenset[str]):
        self._layout, self._hide = layout, hide
        self.features = tuple(f for f in layout.features if f.name not in hide)
        # a place named for a thing not set out is not named either (the 楅 before 設楅)
        self.places = {k: v for k, v in layout.places.items() if k not in hide}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._layout, name)


def shown(layout: Any, hide: frozenset[str]) -> Any:
    return Shown(layout, hide) if hide else layout
