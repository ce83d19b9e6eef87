"""The mouse on the window: a press on the bar scrubs, on a clause jumps there, on the map
selects or (dragged) pans; the wheel zooms about the cursor (a part of viz.app.window.App).

`Pointer(app)` owns the drag in progress; a press or a wheel click reaches it only when no mode
(viz.app.modes) is open that takes it, a motion and a release always.
"""
from __future__ import annotations

import numpy as np

from viz.draw import hud
from viz.draw.compose import Pick, View, pick
from viz.draw.hud import areas

CLICK_PX = 4.0  # a press that moves less than this before release is a click, not a pan


def inside(box, pos) -> bool:
    """Whether pos is within the box (x, y, w, h)."""
    x, y, w, h = box
    return x <= pos[0] < x + w and y <= pos[1] < y + h


class Pointer:
    """Presses, drags and the wheel over the map, the bar and the text panel."""

    def __init__(self, app):
        self.app = app
        self.drag: str | None = None  # "map" | "bar"
        self._press_at: tuple[float, float] | None = None
        self._panning = False
        self._hover: tuple = (None, None)  # (what it depends on, the archer under the mouse)

    def archer(self) -> int | None:
        """The archer under the mouse on the map (none while dragging), looked up once per
        moment and mouse position."""
        app = self.app
        sides = (getattr(app.timeline, "scoring", None) or {}).get("sides")
        if not sides or app.mouse is None or self.drag is not None:
            return None
        if not inside(areas(app.size, app.ui)["map"], app.mouse):
            return None
        key = (app.model.serial, app.t, app.closing, app.mouse, app.size, app.ui, app.manual,
               app.inset_on)
        if self._hover[0] != key:
            i = self.actor_at(app.mouse)
            ok = i is not None and app.timeline.actors[i].id in sides
            self._hover = (key, i if ok else None)
        return self._hover[1]

    def pick(self, pos: tuple[float, float]) -> Pick | None:
        """What is drawn under pos: a person or a thing set out, in the main view or in the
        range inset, as the frame draws them (the inset folded away or not)."""
        app = self.app
        framed = View(inset=app.inset_on, camera=app.manual, compare=app.readings.compare(),
                      ui=app.ui)  # what the framing depends on (app.view() asks who is here)
        return pick(app.model, framed, app.size, app.t, app.closing, pos)

    def actor_at(self, pos: tuple[float, float]) -> int | None:
        """The person whose token (in the main view or the inset, as drawn) is under pos."""
        hit = self.pick(pos)
        return hit.index if hit is not None and hit.kind == "actor" else None

    def click(self, pos: tuple[float, float]) -> None:
        """A click on the map: select who or what is drawn there, or nobody."""
        hit = self.pick(pos)
        if hit is not None and hit.kind == "thing":
            self.app.select_thing(hit.index)
        else:
            self.app.select(hit.index if hit is not None else None)

    def scrub(self, pos) -> None:
        """Go to the moment under pos on the bar."""
        x, _, w, _ = hud.bar_track(self.app.size, self.app.ui)
        if w > 0:
            self.app.seek((pos[0] - x) / w * hud.bar_span(self.app.timeline,
                                                         self.app.state.compiling))

    def press(self, pos) -> None:
        """On the bar: scrub (and drag along it); on a clause: jump to it; on the map: the
        start of a click or a pan. With the help open, any press closes it."""
        app = self.app
        if app.state.help:
            app._set(help=False)
            return
        a = areas(app.size, app.ui)
        if inside(a["bar"], pos):
            self.drag = "bar"
            self.scrub(pos)
        elif inside(a["panel"], pos):
            for box, ci, _ in app.hits.clauses:
                if inside(box, pos):
                    cl = app.corpus.clauses[ci]
                    app.jump_to_text(cl.start, cl.end)
                    return
        elif inside(a["map"], pos):
            self.drag = "map"
            self._press_at, self._panning = pos, False

    def release(self, pos) -> None:
        """A press on the map that did not become a pan is a click: select who or what is
        drawn there, or nobody."""
        if self.drag == "map" and not self._panning:
            self.click(pos)
        self.drag, self._press_at, self._panning = None, None, False

    def motion(self, pos, rel) -> None:
        app = self.app
        app.mouse = pos
        if self.drag == "map":
            if not self._panning:
                at = self._press_at or pos
                if np.hypot(pos[0] - at[0], pos[1] - at[1]) < CLICK_PX:
                    return  # a hand's tremor in a click moves nothing
                self._panning = True
                rel = (pos[0] - at[0], pos[1] - at[1])  # the whole way from the press
            fr = app.framing()
            fr.camera.pan(*rel)
            app.set_manual(fr)
        elif self.drag == "bar":
            self.scrub(pos)

    def wheel(self, clicks: float) -> None:
        """Zoom about the cursor (the map's centre before the mouse has moved in)."""
        app = self.app
        box = areas(app.size, app.ui)["map"]
        at = app.mouse or (box[0] + box[2] / 2, box[1] + box[3] / 2)
        if inside(box, at):
            fr = app.framing()
            fr.camera.zoom_at(1.15 ** clicks, at)
            app.set_manual(fr)
