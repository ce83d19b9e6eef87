"""The window: keys and mouse change a View of the rite; a frame is compose + the pygame back end.

`App` holds the window's state (the clock t, the panel toggles, a camera the user zoomed or
panned to) and has `handle(event)`, `update(dt)` and `draw(surface)`, so a real window and tests
posting events headless drive it the same way. What a frame shows is
`compose(model, view, size, t)`, as for `shot`; only t accumulates. `needs_redraw()` says
whether anything the picture depends on changed since the last draw, so a paused window idles.

Given a viz.model.reload.Reloader, the window also switches readings (R), draws a second one over the
first (V, Shift+R), and polls its files (`poll`), so a saved edit plays from the same clause or
lists its located errors over the last good picture (`apply_reload`; `reload(texts)` in tests).
A click selects a person (his stage's trail, his next move; C follows him) or a thing set out
(named on the map and in the panel), where it is drawn (the range inset too), G shows where
everyone was at the end of the previous step. While a round is shot the panel keeps its score
(the 算 laid, the drum's beat, the count; the hits of the archer selected or under the mouse),
and D sounds the drum on the beats as playback passes them (viz.app.drum).

The App's parts are objects handed the App, as a Textual screen reaches its app:
`Readings` (viz.app.readings: R, V, Shift+R, the reloads), `Pointer` (viz.app.pointer: presses,
drags, the wheel), the modes `StageList` and `SearchBox` (viz.app.modes) and `Bindings`
(viz.app.bindings: the keys as a table). `handle` gives keys, text, presses and the wheel to the
mode open (`mode()`); the App keeps the names run() and the tests use as one-line delegates.
"""
from __future__ import annotations

import io
import string
from dataclasses import replace
from operator import attrgetter
from pathlib import Path

import numpy as np
import pygame

from viz.app import drum
from viz.app.bindings import NO_NOTES, NO_PREVIOUS, NOBODY_MOVED, Bindings
from viz.app.classroom import TEXTS as CLASSROOM_TEXTS
from viz.app.classroom import Classroom
from viz.app.modes import FOUND, FOUND_NONE_ENACTED, NOT_ENACTED, NOT_FOUND, SearchBox, StageList
from viz.app.pointer import Pointer
from viz.app.readings import (
    COMPARE_NOW,
    COMPILED,
    NO_READING,
    ONE_READING,
    READING_NOW,
    RELOADED,
    Readings,
)
from viz.app.speeds import SPEEDS
from viz.backends import fonts, pgdraw
from viz.base.fileio import OutputError, RefuseOverwrite, atomic_write_bytes, next_free_name
from viz.draw.camera import Camera
from viz.draw.compose import (
    Framing,
    ManualCamera,
    Model,
    View,
    chars_drawn,
    column_w,
    compose,
    framing,
    tooltip,
    view_kind,
)
from viz.draw.hud import Hits, HudState, areas, ui_scale
from viz.draw.scene import literal

TOAST_SECONDS = 2.5
SAVE_TRIES = 3  # a name taken between the look and the write: try the next one, not forever
DEFAULT_SIZE = (1280, 800)  # the first window on a display with room for it
SCREEN_SHARE = (0.90, 0.88)  # at most this much of the display: its title bar, taskbar, dock

# The words the window writes in toasts
SPEED = "速度 ×{:g}"
SAVED = "saved {}"
NOT_SAVED = "未存 not saved: {}"
PICK_FIRST = "先點選一人 (click a person first)"
DRUM_ON, DRUM_OFF = "鼓 on", "鼓 off"
DRUM_SILENT = "鼓 on — {why}"
DRUM_NONE = "鼓 off — {why}"
TEXTS: tuple[str, ...] = tuple(literal(t) for t in (
    SPEED, NOT_ENACTED, SAVED, NOT_SAVED, FOUND, NOT_FOUND, FOUND_NONE_ENACTED, PICK_FIRST,
    ONE_READING, NO_READING, READING_NOW, COMPARE_NOW, RELOADED, COMPILED, DRUM_ON, DRUM_OFF,
    DRUM_SILENT, DRUM_NONE, NO_NOTES, NO_PREVIOUS, NOBODY_MOVED, *CLASSROOM_TEXTS)) + (
    string.printable,)  # the paths and error messages toasts quote


def _spans_overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _save_new(folder: Path, data: bytes) -> Path:
    """Write data as a new PNG in folder, under a name no file has."""
    for _ in range(SAVE_TRIES - 1):
        try:
            return atomic_write_bytes(next_free_name(folder, "xiangshe", ".png"), data)
        except RefuseOverwrite:  # someone took the name between the look and the write
            continue
    return atomic_write_bytes(next_free_name(folder, "xiangshe", ".png"), data)


def choose_size(desktop: tuple[int, int] | None,
                default: tuple[int, int] = DEFAULT_SIZE) -> tuple[int, int]:
    """The window's first size: SCREEN_SHARE of the display, what its title bar, taskbar and
    dock leave (1366×768 → 1229×675, 1920×1080 → 1728×950); the default when the display's
    size is unknown."""
    if not desktop or min(desktop) <= 0:
        return default
    return (max(int(desktop[0] * SCREEN_SHARE[0]), 64), max(int(desktop[1] * SCREEN_SHARE[1]), 64))


def desktop_size() -> tuple[int, int] | None:
    """The size of the display a new window opens on (the first), None if SDL does not say."""
    try:
        sizes = pygame.display.get_desktop_sizes()
    except (AttributeError, pygame.error):  # an old pygame, or no video
        sizes = []
    if sizes:
        return (int(sizes[0][0]), int(sizes[0][1]))
    info = pygame.display.Info()
    return (info.current_w, info.current_h) if info.current_w > 0 else None


def framed(app, **kw) -> Framing:
    """The framing of the window's moment (compose.framing) at its UI scale (the panel and the
    bar grow with Ctrl +); kw: manual (else the window's), frame, whole."""
    manual = kw.pop("manual", app.manual)
    return framing(app.model, app.size, app.t, app.closing, app.inset_on, manual,
                   ui=ui_scale(app.size, app.ui), **kw)


class App:
    """The window's state and behaviour, independent of a real display."""

    def __init__(self, layout, timeline, corpus=None, size: tuple[int, int] = (1280, 800),
                 shots_dir: str | Path = "screenshots", reloader=None, progressive=None):
        """`reloader` (a viz.model.reload.Reloader whose current compile is layout, timeline, corpus)
        gives the window its readings and its edits; without one it shows what it is given.
        `progressive` (a viz.model.progressive.Progressive whose first compile is layout,
        timeline, corpus): the rest of the rite is compiling; poll() shows each part as it is
        ready, and the whole rite, with its reloader, when it is done."""
        self.model = pgdraw.with_font(Model(layout, timeline, corpus))
        self.readings = Readings(self, reloader)  # R, V, Shift+R; the edits reloaded
        self.selected: int | None = None  # the person clicked (index into timeline.actors)
        self.thing: int | None = None  # or the thing set out clicked (into timeline.props)
        self.following = False  # the camera keeps him centred
        self.ghosts = False  # G: where everyone was at the end of the previous step
        self.size = (max(int(size[0]), 64), max(int(size[1]), 64))
        self.shots_dir = Path(shots_dir)
        self.t = 0.0
        self.closing = False  # t is the end of a step, shown as that step left it
        self.running = True
        self.now = 0.0  # wall seconds since start, for the toast only
        self.toast_until = 0.0
        self.state = HudState()
        self.inset_on = True
        self.ui = 1.0  # Ctrl + / Ctrl −: the user's UI scale, times the window's (compose)
        self.manual: ManualCamera | None = None  # the user zoomed or panned the main view
        self._manual_kind = ""  # … while the rite was there ("site" or "elsewhere")
        self.mouse: tuple[float, float] | None = None  # None until the mouse moves in
        self.hits = Hits()  # clickable clauses, as last drawn
        self.pointer = Pointer(self)  # presses, drags, the wheel
        self.stage_list = StageList(self)  # L, Tab: a mode while open
        self.search_box = SearchBox(self)  # /: a mode while open
        self.bindings = Bindings(self)  # the keys, while neither is open
        self.classroom = Classroom(self)  # F11, W (skip the waits), P (the presenter's step)
        self._keys_down: set[int] = set()  # a KEYDOWN of one of these is the key's repeat
        self.key_repeat = False  # the key being handled is a repeat
        self._layers = pgdraw.LayerCache()
        self._drawn: tuple | None = None  # (what the last draw depended on, its tooltip)
        self._tip: tuple = (None, "")  # (what it depends on, tooltip)
        self._exposed = True  # the window asks for a picture whatever changed
        self.drum = drum.Drum()  # D: silent until asked; the mixer opens only then
        self._beats: tuple = (None, [])  # (timeline, its beat times)
        self.progressive = None if progressive is None or progressive.complete else progressive
        if self.progressive is not None:
            self._set(compiling=(progressive.ready, progressive.total))

    layout = property(attrgetter("model.layout"))
    timeline = property(attrgetter("model.timeline"))
    corpus = property(attrgetter("model.corpus"))

    # ---------------------------------------------------------------- view

    def view(self) -> View:
        """The window's state as the composer reads it; no tooltip while dragging."""
        hud_state = replace(self.state, reading=self.reading_name()) if self.reloader else self.state
        who = self.score_who()
        if who is not None:
            hud_state = replace(hud_state, score_who=who)
        return View(hud_state, self.inset_on, self.manual,
                    None if self.pointer.drag is not None else self.mouse, self.selected,
                    self.thing, self.following and self.selected is not None, self.ghosts,
                    self.readings.compare(), ui=self.ui)

    def framing(self) -> Framing:
        """Where things go now: the kind of view, the cameras, the inset box."""
        return framed(self)

    @property
    def camera(self) -> Camera:
        """The main view's camera now (a copy: changing it changes nothing)."""
        return self.framing().camera

    def tooltip(self) -> str:
        """The tooltip under the mouse now (what the next draw shows)."""
        view = self.view()
        key = (view, self.size, self.t, self.closing)
        if self._tip[0] != key:
            self._tip = (key, tooltip(self.model, view, self.size, self.t, self.closing))
        return self._tip[1]

    def score_who(self) -> int | None:
        """Whose hits the score panel gives: the person selected, else the archer under the
        mouse on the map."""
        return self.selected if self.selected is not None else self.pointer.archer()

    def fit(self) -> None:
        """F: fit everything (the stage's whole extent: the view no longer follows the step's
        people); F again, back to following the action. No longer following anyone either."""
        whole = framed(self, manual=None, whole=True)
        cam = ManualCamera(whole.camera.scale, whole.camera.center)
        self.manual = None if self.manual == cam else cam
        self._manual_kind = whole.kind
        self.following = False

    def resize(self, size: tuple[int, int]) -> None:
        self.size = (max(int(size[0]), 64), max(int(size[1]), 64))
        self.manual = None
        self.recentre()

    def set_manual(self, fr: Framing) -> None:
        """The user zoomed or panned: his view wins over following."""
        self.manual = ManualCamera(fr.camera.scale, fr.camera.center)
        self._manual_kind = fr.kind
        self.following = False

    # ---------------------------------------------------------------- selection

    def select(self, actor: int | None) -> None:
        """Choose the person whose trail and next move are shown (None: nobody); a thing
        selected is let go."""
        n = len(self.timeline.actors)
        self.selected = actor if actor is not None and 0 <= actor < n else None
        self.thing = None
        if self.selected is None:
            self.following = False

    def select_thing(self, prop: int | None) -> None:
        """Choose a thing set out: named on the map whatever the zoom, ringed, and in the
        panel (None: nothing); a person selected is let go."""
        self.select(None)
        n = len(self.timeline.props)
        self.thing = prop if prop is not None and 0 <= prop < n else None

    def follow(self, on: bool = True) -> bool:
        """C: keep the selected person centred as t changes (until a pan, a zoom or F)."""
        if on and self.selected is None:
            self.toast(PICK_FIRST)
            return False
        self.following = on
        self.recentre()
        return True

    def recentre(self) -> None:
        """Centre the followed person in the free part of the map, at the current scale."""
        if not self.following or self.selected is None:
            return
        frame = self.timeline.sample(self.t, self.closing)
        if not bool(frame.present[self.selected]):
            return  # he has left: stay where he was last seen
        fr = framed(self, frame=frame)
        cam = fr.camera
        x, y = (float(v) for v in frame.xy[self.selected])
        mw = areas(self.size, self.ui)["map"][2]
        free = mw - column_w(self.size, ui_scale(self.size, self.ui)) if fr.inset_box is not None else mw
        # the camera's centre is the map's; shift so he sits in the middle of what is free.
        # Snapped to whole pixels: a walk moves him a fraction of a pixel a frame, and each
        # new centre redraws the plan, so the plan is redrawn only when he has moved a pixel
        k = cam.scale
        cx, cy = x + (mw - free) / 2 / k, float(cam.ymap.fwd(y))
        self.manual = ManualCamera(k, (round(cx * k) / k, round(cy * k) / k))
        self._manual_kind = fr.kind

    # ---------------------------------------------------------------- the parts' names here
    # (for run() and the tests: a delegate each, looked up on the part when asked)

    reloader = property(attrgetter("readings.reloader"))
    compare_reading = property(attrgetter("readings.compare_reading"))
    _bad = property(attrgetter("readings._bad"))  # readings that did not compile → why
    reading_name = property(attrgetter("readings.reading_name"))
    set_reading = property(attrgetter("readings.set_reading"))
    reload = property(attrgetter("readings.reload"))
    apply_reload = property(attrgetter("readings.apply_reload"))
    search = property(attrgetter("search_box.search"))
    _list_rows = property(attrgetter("stage_list.rows"))

    def poll(self, dt: float) -> None:
        """What the compile has made ready since the last frame (while the rite compiles), then
        the reloader's look at the files (viz.app.readings)."""
        if self.progressive is not None:
            self.take_progress()
        self.readings.poll(dt)

    def take_progress(self) -> None:
        """Show the stages compiled so far, from the same clause; once all are, the whole rite
        and its reloader (readings, edits), or the located errors of a file further on."""
        from viz.model.progressive import Ready

        for msg in self.progressive.poll():
            if isinstance(msg, Ready):
                self.readings.show(msg.compiled)
                self._set(compiling=(msg.stages, msg.total))
                continue
            self.progressive = None
            self._set(compiling=None)
            self.readings.attach(msg.reloader)
            return

    def start_playing(self) -> None:
        """Play from where the window stands (as the window opens: the rite plays at once)."""
        self._set(playing=True)

    def _set(self, **changes) -> None:
        self.state = replace(self.state, **changes)

    # ---------------------------------------------------------------- time

    def seek(self, t: float, closing: bool = False) -> None:
        """Go to t (closing: as the step ending at t left it). A zoom or pan is kept until the
        rite moves between the school and the 賔's gate."""
        self.t = float(np.clip(t, 0.0, self.timeline.duration))
        self.closing = closing
        if self.following and self.selected is not None:
            self.recentre()
        elif self.manual is not None:
            here = view_kind(self.model, self.timeline.sample(self.t, closing))
            if here != self._manual_kind:
                self.manual = None

    def update(self, dt: float) -> None:
        """Advance the clock; everything else is sampled from it."""
        self.now += dt
        if self.state.toast and self.now >= self.toast_until:
            self._set(toast="")
        if self.state.playing:
            before = self.t
            self.seek(self.t + dt * self.state.speed)
            if self.state.skip_waits:
                self.classroom.skip()
            self.classroom.stop(before)
            if self.drum.on and drum.beats_crossed(self.beat_times(), before, self.t):
                self.drum.strike()  # one hit a frame, however many beats a fast play passed
            if self.t >= self.timeline.duration and self.progressive is None:
                self._set(playing=False)  # (while the rest compiles, play on when it comes)

    def beat_times(self) -> list[float]:
        """When the drum beats in the rite shown (worked out once per timeline)."""
        if self._beats[0] is not self.timeline:
            self._beats = (self.timeline, drum.beat_times(self.timeline))
        return self._beats[1]

    def toggle_drum(self) -> str:
        """D: the drum's sound on the beats on or off; said in a toast, with why it is silent
        (the dummy audio driver) or why it stays off (the mixer's own words)."""
        state = self.drum.toggle()
        if state == "none":
            self.toast(DRUM_NONE.format(why=self.drum.why))
        elif state == "on" and self.drum.why:
            self.toast(DRUM_SILENT.format(why=self.drum.why))
        else:
            self.toast(DRUM_ON if state == "on" else DRUM_OFF)
        return state

    def expose(self) -> None:
        """The window's pixels are gone (a new surface): the next draw draws it all."""
        self._exposed = True

    def step_to(self, delta: int) -> None:
        self._jump(self.timeline.steps, self.timeline.step_at(self.t, self.closing), delta)

    def stage_to(self, delta: int) -> None:
        self._jump(self.timeline.stages, self.timeline.stage_at(self.t, self.closing), delta)

    def _jump(self, spans, i: int, delta: int) -> None:
        """To the start of the span delta away; going back first returns to the current one's start."""
        if not spans:
            return
        if delta < 0 and self.t > spans[i].t0 + 0.05:
            delta += 1
        self.seek(spans[int(np.clip(i + delta, 0, len(spans) - 1))].t0)

    def change_speed(self, delta: int) -> None:
        i = min(range(len(SPEEDS)), key=lambda k: abs(SPEEDS[k] - self.state.speed))
        self._set(speed=SPEEDS[int(np.clip(i + delta, 0, len(SPEEDS) - 1))])
        self.toast(SPEED.format(self.state.speed))

    def toast(self, text: str) -> None:
        from viz.base.lang import tr_done

        self._set(toast=tr_done(text))
        self.toast_until = self.now + TOAST_SECONDS

    def first_step_citing(self, span: tuple[int, int]) -> int | None:
        for s in self.timeline.steps:
            if _spans_overlap(s.span, span):
                return s.index
        return None

    def step_for_text(self, start: int, end: int) -> int | None:
        """The first step whose cite overlaps [start, end), else one citing its clause."""
        i = self.first_step_citing((start, end))
        c = self.corpus
        if i is None and c is not None:
            cl = c.clause_at(start)
            if cl is not None:
                i = self.first_step_citing((cl.start, cl.end))
        return i

    def jump_to_text(self, start: int, end: int) -> bool:
        """Play from the first step citing [start, end), or its clause, or its section."""
        i = self.step_for_text(start, end)
        if i is None and self.corpus is not None:
            sec = self.corpus.section_at(start)
            if sec is not None:
                i = self.first_step_citing((sec.start, sec.end))
        if i is None:
            self.toast(NOT_ENACTED)
            return False
        self.seek(self.timeline.steps[i].t0)
        return True

    # ---------------------------------------------------------------- events

    def mode(self):
        """What takes keys, typed text, presses and the wheel now: the stage list or the search
        box while open, else the key bindings (which hand the mouse to the pointer)."""
        for m in (self.stage_list, self.search_box):
            if m.is_open:
                return m
        return self.bindings

    def handle(self, event: pygame.event.Event) -> None:
        """One pygame event: keys, text, presses and the wheel go to the open mode; a motion
        and a release to the pointer, which owns a drag whatever is open."""
        et, mode = event.type, self.mode()
        if et == pygame.QUIT:
            self.running = False
        elif et == pygame.VIDEORESIZE:
            self.resize(event.size)
        elif et in (pygame.VIDEOEXPOSE, pygame.WINDOWEXPOSED):
            self._exposed = True
        elif et == pygame.KEYDOWN:
            # pygame's key repeat sends KEYDOWN again with no KEYUP between: a key already
            # down is a repeat (the bindings act on it only where holding means something)
            self.key_repeat = event.key in self._keys_down
            self._keys_down.add(event.key)
            mode.key(event)
        elif et == pygame.KEYUP:
            self._keys_down.discard(event.key)
        elif et == pygame.TEXTINPUT:
            mode.text(event.text)
        elif et == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = event.pos
            mode.press(event.pos)
        elif et == pygame.MOUSEMOTION:
            self.pointer.motion(event.pos, event.rel)
        elif et == pygame.MOUSEBUTTONUP and event.button == 1:
            self.pointer.release(event.pos)
        elif et == pygame.MOUSEWHEEL:
            mode.wheel(getattr(event, "precise_y", event.y))

    # ---------------------------------------------------------------- drawing

    def _depends_on(self) -> tuple:
        """What a frame depends on besides the model and the tooltip: equal, the same picture."""
        return (self.model.serial, self.t, self.closing, self.size,
                replace(self.view(), mouse=None))

    def needs_redraw(self) -> bool:
        """Whether the picture would differ from the last one drawn (or the window lost it);
        the tooltip, which costs a sample, is looked at only when nothing else changed."""
        if self._exposed or self._drawn is None or self._drawn[0] != self._depends_on():
            return True
        return self.tooltip() != self._drawn[1]

    def draw(self, surface: pygame.Surface) -> list[pygame.Rect]:
        """Compose the frame and draw it (the plans come from the layer cache); return the
        boxes of the surface it changed (all of it when the window lost its pixels)."""
        if surface.get_size() != self.size:
            self.resize(surface.get_size())
        view = self.view()
        comp = compose(self.model, view, self.size, self.t, self.closing)
        if self._exposed:  # the window's pixels may be gone: copy the kept layers whole
            self._layers.forget()
        changed = pgdraw.draw_layers(surface, comp.layers, self._layers)
        self.hits = comp.hits
        self._tip = ((view, self.size, self.t, self.closing), comp.tooltip)
        self._drawn = (self._depends_on(), comp.tooltip)
        self._exposed = False
        return changed

    def screenshot(self) -> Path | None:
        """S: save the view (without the toast) as a new PNG under shots_dir, never replacing a
        file; a save that fails says why in the toast and returns None."""
        surface = pygame.Surface(self.size)
        view = self.view()
        view = replace(view, hud=replace(view.hud, toast=""))
        pgdraw.draw_layers(surface, compose(self.model, view, self.size, self.t,
                                            self.closing).layers)
        buf = io.BytesIO()
        pygame.image.save(surface, buf, "shot.png")
        try:
            path = _save_new(self.shots_dir, buf.getvalue())
        except (OutputError, OSError) as e:  # OSError: a guard, fileio should say OutputError
            self.toast(NOT_SAVED.format(e))
            return None
        self.toast(SAVED.format(f"{path.parent.name}/{path.name}"))
        return path

    # ---------------------------------------------------------------- fonts

    def chars_drawn(self) -> str:
        """Every character the window may draw, for the start-up font check."""
        return chars_drawn(self.model) + "".join(TEXTS)

    def check_font(self, out=None) -> list[str]:
        """Print the characters the bundled font lacks; return them."""
        return fonts.report_missing(self.chars_drawn(), out)


def run(layout, timeline, corpus=None, script_path: str | Path | None = None,
        layout_path: str | Path | None = None, size: tuple[int, int] | None = None,
        reloader=None, progressive=None, t: float = 0.0, speed: float = 1.0,
        playing: bool = True, fullscreen: bool = False, title: str = "鄉射禮",
        ui: float = 1.0) -> int:
    """Open the window and play; returns the exit status. title: the rite's (its manifest's
    title:), first in the window's title. Without a size the window fits the
    display (choose_size). With a reloader (viz.model.reload), R and V switch and compare readings
    and a saved edit reloads while it plays. With a progressive (viz.model.progressive), the
    window opens on the stages compiled first and the rest compile once it has drawn them.
    t, speed, playing: where it opens, how fast, and whether it plays at once; fullscreen:
    at the display's size (F11 switches)."""
    drum.take_back_audio()  # the real audio driver, unless the user chose one (D: the drum)
    pygame.display.init()  # not pygame.init(): the mixer opens only when D asks for the drum
    size = size or choose_size(desktop_size())
    pygame.key.set_repeat(350, 60)  # holding → walks through the steps (not R: one a press)
    title += f" — {Path(script_path).name}" if script_path else ""
    if layout_path:
        title += f" · {Path(layout_path).name}"
    window = pygame.display.set_mode(size, pygame.RESIZABLE)
    pygame.display.set_caption(title)
    app = App(layout, timeline, corpus, size=window.get_size(), reloader=reloader,
              progressive=progressive)
    if fullscreen:
        app.classroom.toggle_fullscreen()
    app.ui = float(ui)  # --scale: as Ctrl + / − would make it
    app.seek(t)
    app._set(speed=speed)
    if playing:
        app.start_playing()  # `python main.py` plays the rite; Space pauses
    app.check_font()
    pygame.key.start_text_input()
    clock = pygame.time.Clock()
    while app.running:
        dt = clock.tick(60) / 1000.0  # also the sleep of an idle window
        for event in pygame.event.get():
            app.handle(event)
        app.update(dt)
        app.poll(dt)
        if app.needs_redraw():
            window = pygame.display.get_surface()  # F11 makes a new one
            # only what changed goes to the screen (a playing frame changes a few tiles)
            pygame.display.update(app.draw(window))
            if progressive is not None:
                progressive.start()  # the first frame is up: now the rest (once; then nothing)
    pygame.quit()
    return 0
