"""The world as the rite goes: where each person stands and faces, seated or standing, present or
not, his label; where each prop lies, who holds it, whether it is in the scene, the arrows lying
where they fell; the spots named by put; the things set out.

`World` owns this state and is the only writer of it: everything else reads its arrays and changes
them through its methods. It writes no keyframes: the compile's primitives (context.py) write the
track's row and then tell the world.
"""
from __future__ import annotations

import numpy as np

from viz.model.script.nodes import Script
from viz.model.timeline import SET_DOWN


class World:
    def __init__(self, script: Script, thing_names: list[str]):
        n, m = len(script.cast), len(script.props)
        self.pos = np.zeros((n, 2))
        self.face = np.zeros(n)
        self.base = ["立"] * n  # standing or seated between gestures
        self.present = np.zeros(n, bool)
        self.placed = np.zeros(n, bool)
        self.labels = [a.label for a in script.cast]
        self.holder = np.full(m, SET_DOWN)
        self.prop_xy = np.zeros((m, 2))  # where each lies, or was last set down when held
        self.visible = np.zeros(m, bool)  # in the scene (a prop not yet brought is not)
        self.loosed: set[int] = set()  # arrows shot and lying where they fell, not yet gathered
        self.marks: dict[str, np.ndarray] = {}  # spots named by put: {…, mark: NAME}
        # things set out: every feature name of the layout, shown unless the script sets it out
        self.shown = {name: name not in script.set_out for name in thing_names}

    # ---- people ----
    def stand(self, a: int, xy, face: float) -> None:
        """a is at xy, facing face (degrees, unwrapped)."""
        self.pos[a], self.face[a] = xy, face

    def turn_to(self, a: int, face: float) -> None:
        self.face[a] = face

    def place(self, a: int) -> None:
        """a has been placed in the scene once (a later placement holds the old state first)."""
        self.placed[a] = True

    def set_base(self, a: int, posture: str) -> None:
        """Seated (坐) or standing (立) between gestures."""
        self.base[a] = posture

    def set_present(self, a: int, present: bool) -> None:
        self.present[a] = present

    def relabel(self, a: int, text: str) -> None:
        self.labels[a] = text

    # ---- props and things ----
    def put_prop(self, p: int, holder: int, xy, visible: bool) -> None:
        """p is held by holder (an actor, or SET_DOWN at xy, or FLYING); taken up, it is no
        longer an arrow lying where it fell."""
        self.holder[p] = holder
        self.visible[p] = visible
        if holder == SET_DOWN:
            self.prop_xy[p] = xy
        elif holder >= 0:
            self.loosed.discard(p)

    def loose(self, p: int) -> None:
        """Arrow p has been shot and lies where it fell until it is gathered."""
        self.loosed.add(p)

    def mark(self, name: str, xy) -> None:
        """Name a spot (put: {…, mark: NAME}) for later places {mark: NAME}."""
        self.marks[name] = np.asarray(xy, float).copy()

    def show(self, name: str, shown: bool) -> None:
        """A thing of the layout is set out (設) or taken away (徹)."""
        self.shown[name] = shown
