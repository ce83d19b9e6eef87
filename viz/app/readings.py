"""The window's readings and edits: R, V and Shift+R switch and compare readings, and a saved
edit reloads (a part of viz.app.window.App, handed the App as a Textual screen reaches its app).

`Readings(app, reloader)` owns the viz.model.reload.Reloader and what it compiled: the models of
the readings shown lately (a switch back reuses their plans), the readings the files name, the
compiles drawn over the one shown (V), and the readings that did not compile. It asks the App only
for its moment (t, closing), its selection and its toast, and gives it a model (`show`).
"""
from __future__ import annotations

import os
from dataclasses import replace

from viz.backends import pgdraw
from viz.draw import ghosts
from viz.draw.compose import Compare, Model

POLL_SECONDS = 0.5  # how often the files are stat'ed for an edit (a few os.stat calls)
MODELS_KEPT = 6  # readings whose models (and their cached plans) are kept for a quick switch

# The words written in toasts about readings and reloads
ONE_READING = "只有一讀 (this window has one reading)"
NO_READING = "讀法 {name} 未成：{problem}"
READING_NOW = "讀法 {name}"
COMPARE_NOW = "比較 {a} vs {b}"
RELOADED = "已重載 reloaded ({seconds:.2f} s)"
COMPILED = "全禮編譯畢 all compiled ({seconds:.1f} s)"


def _located(problem) -> str:
    """file:line:column: message, the file as the user would type it (relative to the current
    folder when under it): the overlay has a map's width, not a terminal's."""
    loc = getattr(problem, "loc", None)
    if loc is None:
        return str(problem)
    try:
        rel = os.path.relpath(loc.file)
    except ValueError:  # another drive on Windows
        rel = loc.file
    if rel.startswith(".."):
        return str(problem)
    return str(replace(problem, loc=replace(loc, file=rel)))


class Readings:
    """The readings the window can show, the one compared, and the reloads of their files."""

    def __init__(self, app, reloader=None):
        """`reloader` (a viz.model.reload.Reloader whose current compile is the app's model)
        gives the window its readings and its edits; without one it shows what it is given."""
        self.app = app
        self.reloader = reloader
        self._models: dict[int, Model] = {}  # by id of a Compiled: a switch back reuses plans
        self._known: list[str] | None = None  # the readings the files name, until a reload
        self._others: dict[str, object] = {}  # compare reading → Compiled, until a reload
        self._bad: dict[str, str] = {}  # readings that did not compile → why, until a reload
        self.compare_reading: str | None = None  # V: the second reading drawn over this one
        self._since_poll = 0.0

    def reading_name(self) -> str:
        """The reading on screen: 鄭 unless another was chosen."""
        rs = self.reloader.readings if self.reloader is not None else ()
        return "、".join(r for r in rs if r != "鄭") or "鄭"

    def known_readings(self) -> list[str]:
        """鄭 and every reading the loaded files name (asked of the files once per load)."""
        if self.reloader is None:
            return [self.reading_name()]
        if self._known is None:
            self._known = self.reloader.known_readings()
        return self._known

    def _next_name(self, after: str, skip: str | None = None) -> str | None:
        """The reading after `after` in the files' order, leaving out `skip` and those that
        did not compile (a reading a file names may not stand alone)."""
        # a reading asked for by a short name (--reading 敖) is the variant it names (敖繼公)
        names = [n for n in self.known_readings() if skip is None or skip not in n]
        if not names:
            return None
        here = next((k for k, n in enumerate(names) if after == n or after in n), -1)
        for k in range(1, len(names) + 1):
            name = names[(here + k) % len(names)]
            if name not in self._bad:
                return name
        return None

    def cycle_reading(self) -> bool:
        """R: the next reading the files know, from the same clause; one that does not compile
        is said in the toast and passed over."""
        for _ in range(len(self.known_readings())):
            name = self._next_name(self.reading_name())
            if name is None or name == self.reading_name():
                break
            if self.set_reading(name):
                return True
        if not self.app.state.toast.startswith(NO_READING.split("{", 1)[0]):
            self.app.toast(ONE_READING)
        return False

    def set_reading(self, name: str) -> bool:
        """Compile (once; then cached) and show the rite under this reading, keeping the clause
        on screen; the compared reading, if it is now this one, becomes the one left."""
        if self.reloader is None:
            self.app.toast(ONE_READING)
            return False
        before = self.reading_name()
        res = self.reloader.set_readings(() if name == "鄭" else (name,))
        if not res.ok:
            self._refused(name, res)
            return False
        self.show(res.compiled)
        if self.compare_reading == self.reading_name():
            self.compare_reading = before
        self.app.toast(READING_NOW.format(name=self.reading_name()))
        return True

    def attach(self, reloader) -> None:
        """The whole rite is loaded: its reloader gives the readings and the edits from now on;
        its result is shown as a reload's (the rite, or a later file's located errors)."""
        self.reloader = reloader
        self._since_poll = 0.0
        self.apply_reload(reloader.result, COMPILED)

    def show(self, compiled) -> None:
        """Show another compile of the rite (another reading, a reload, a larger part of the
        rite as it compiles) from the moment that shows the same clause; the selected person
        (by id) and the camera are kept."""
        app = self.app
        old = app.timeline
        who = old.actors[app.selected].id if app.selected is not None else None
        thing = old.props[app.thing].id if app.thing is not None else None
        model = self._models.get(id(compiled))
        if model is None:
            model = pgdraw.with_font(Model(compiled.layout, compiled.timeline, compiled.corpus))
            if len(self._models) >= MODELS_KEPT:
                self._models.pop(next(iter(self._models)))
            self._models[id(compiled)] = model
        t, closing = ghosts.clause_time(old, model.timeline, app.t, app.closing)
        app.model = model
        ids = [a.id for a in model.timeline.actors]
        app.select(ids.index(who) if who in ids else None)
        if thing is not None and thing in model.timeline.prop_index:
            app.select_thing(model.timeline.prop_index[thing])
        app.seek(t, closing)

    def toggle_compare(self) -> bool:
        """V: draw a second reading (the next one the files know) over this one, or stop."""
        if self.compare_reading is not None:
            self.compare_reading = None
            return True
        return self.cycle_compare()

    def cycle_compare(self) -> bool:
        """Shift+R: compare with the next reading after the one compared now (passing over
        those that do not compile)."""
        here = self.reading_name()
        if self.reloader is not None:
            for _ in range(len(self.known_readings())):
                name = self._next_name(self.compare_reading or here, skip=here)
                if name is None:
                    break
                if self._other(name) is not None:
                    self.compare_reading = name
                    self.app.toast(COMPARE_NOW.format(a=here, b=name))
                    return True
        if not self.app.state.toast.startswith(NO_READING.split("{", 1)[0]):
            self.app.toast(ONE_READING)
        return False

    def _refused(self, name: str, res) -> None:
        """A reading that does not compile from these files: said once, then passed over
        until the files change."""
        self._bad[name] = str(res.problems[0]) if res.problems else "?"
        self.app.toast(NO_READING.format(name=name, problem=self._bad[name]))

    def _other(self, name: str):
        """The compile of another reading, without showing it."""
        if name not in self._others:
            res = self.reloader.for_readings(() if name == "鄭" else (name,))
            if not res.ok:
                self._refused(name, res)
                return None
            self._others[name] = res.compiled
        return self._others[name]

    def compare(self) -> Compare | None:
        """What V draws over the rite now, None when nothing is compared."""
        name = self.compare_reading
        if name is None or self.reloader is None:
            return None
        other = self._others.get(name) or self._other(name)
        if other is None:
            self.compare_reading = None
            return None
        app = self.app
        t, closing = ghosts.clause_time(app.timeline, other.timeline, app.t, app.closing)
        return Compare(name, self.reading_name(), t, closing, id(other.timeline), other.timeline,
                       other.layout)

    # ---------------------------------------------------------------- edits

    def poll(self, dt: float) -> None:
        """Every POLL_SECONDS of wall time, ask the reloader whether a file changed (a few
        os.stat calls); reload only then."""
        if self.reloader is None:
            return
        self._since_poll += dt
        if self._since_poll < POLL_SECONDS:
            return
        self._since_poll = 0.0
        res = self.reloader.check()
        if res is not None:
            self.apply_reload(res)

    def reload(self, texts=None):
        """Reload now (texts {path: text or None} stand in for files, as in viz.model.reload)."""
        if self.reloader is None:
            return None
        res = self.reloader.reload(texts)
        self.apply_reload(res)
        return res

    def apply_reload(self, res, said: str = RELOADED) -> None:
        """A reload's result: a good compile plays from the same clause and clears the error
        overlay; a failed one lists its located problems over the last good picture."""
        if res.ok:
            self._models.clear()
            self._others.clear()
            self._bad.clear()
            self._known = None
            self.show(res.compiled)
            self.app._set(problems=())
            self.app.toast(said.format(seconds=res.seconds))
        else:
            self.app._set(problems=tuple(_located(p) for p in res.problems) or ("?",))
