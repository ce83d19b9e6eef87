"""The window: plays, steps and scrubs a Timeline over the plan, with the text being enacted beside it.

`App` holds the state (the clock t, the camera, the panel toggles) and has `handle(event)`,
`update(dt)` and `draw(surface)`, so it is driven the same by a real window, by `shot.render_png`
and by tests posting events headless. Each frame is `timeline.sample(t)`: only t accumulates.
"""
from __future__ import annotations

import io
import sys
from pathlib import Path

import numpy as np
import pygame

from viz import fonts
from viz.draw import hud, pgdraw
from viz.draw.camera import Camera
from viz.draw.display import Line, Rect, Text
from viz.draw.hud import Hits, HudState, areas, build_hud
from viz.draw.scene import (
    SceneOptions,
    actors,
    all_bounds,
    captions,
    elsewhere_bounds,
    features,
    overlay,
    place_labels,
    range_bounds,
    range_breaks,
    range_marks,
    set_down_props,
    site_bounds,
)
from viz.fileio import atomic_write_bytes, next_free_name
from viz.timeline import POSTURES

INSET_W = (236, 340)  # px: the column on the map's right with the legend and the range inset
SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
TOAST_SECONDS = 2.5


def _spans_overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


class App:
    """The window's state and behaviour, independent of a real display."""

    def __init__(self, layout, timeline, corpus=None, size: tuple[int, int] = (1280, 800),
                 shots_dir: str | Path = "screenshots"):
        self.layout, self.timeline, self.corpus = layout, timeline, corpus
        self.size = (int(size[0]), int(size[1]))
        self.shots_dir = Path(shots_dir)
        self.t = 0.0
        self.running = True
        self.now = 0.0  # wall seconds since start, for the toast only
        self.toast_until = 0.0
        self.state = HudState()
        self.hits = Hits()
        breaks = range_breaks(layout)  # both views share them: one honest map of the range
        self.camera = Camera(areas(self.size)["map"], breaks=breaks)
        self.mouse = (self.camera.viewport[0] + self.camera.viewport[2] / 2,
                      self.camera.viewport[1] + self.camera.viewport[3] / 2)
        self._drag: str | None = None  # "map" | "bar"
        self._matches: list[int] = []
        self._match_i = 0
        self._static: tuple | None = None  # (camera key, Surface): the plan layer
        self.inset_on = True
        self.inset = Camera((0, 0, 10, 10), breaks=breaks)  # the 侯道, 乏 and 侯 at their own scale
        self._range = range_bounds(layout)
        self._elsewhere = elsewhere_bounds(layout)
        ab = all_bounds(layout)
        self._near = (ab[0] - 30, ab[1] - 30, ab[2] + 30, ab[3] + 30)  # "at the school"
        self._kind = "site"
        self._framed: tuple[str, int] | None = None  # (view kind, stage) the camera was fitted to
        self._manual = False  # the user zoomed or panned: stop re-framing at stage changes
        self._stage_bounds: dict[int, tuple[float, float, float, float]] = {}
        self.fit()

    # ---------------------------------------------------------------- view

    def view_kind(self) -> str:
        """"elsewhere" while nobody present is at the school or its range (sections 1, 4, 36).

        Judged by distance, not by region_at: the layout calls the ground just outside the gate
        "elsewhere" too, and the 主人 greeting the 賓 there is still a scene at the school.
        """
        fr = self.timeline.sample(self.t)
        idx = np.nonzero(fr.present)[0]
        if not len(idx) or self._elsewhere is None:
            return "site"
        x0, y0, x1, y1 = self._near
        xy = fr.xy[idx]
        near = (xy[:, 0] >= x0) & (xy[:, 0] <= x1) & (xy[:, 1] >= y0) & (xy[:, 1] <= y1)
        return "site" if near.any() else "elsewhere"

    def stage_bounds(self, stage: int) -> tuple[float, float, float, float]:
        """The part of the school where this stage happens: the hall, and everywhere anyone
        present in the stage stands in it (sampled), except the range, which has its inset."""
        if stage in self._stage_bounds:
            return self._stage_bounds[stage]
        site = site_bounds(self.layout)
        # the school and just outside its gate; further south is the range, in its inset
        lim = (self._near[0], site[1] - 20.0, self._near[2], self._near[3])
        hall = [np.asarray(f.points, float).reshape(-1, 2) for f in self.layout.features
                if f.kind == "hall"]
        pts = list(hall)
        if self.timeline.stages:
            s = self.timeline.stages[stage]
            for t in np.linspace(s.t0, s.t1, 48):
                fr = self.timeline.sample(float(t))
                xy = fr.xy[np.nonzero(fr.present)[0]]
                keep = ((xy[:, 0] >= lim[0]) & (xy[:, 0] <= lim[2]) & (xy[:, 1] >= lim[1])
                        & (xy[:, 1] <= lim[3]))
                pts.append(xy[keep])
        a = np.vstack(pts) if pts else np.zeros((0, 2))
        if not len(a):
            b = site
        else:
            pad = 8.0
            b = (max(a[:, 0].min() - pad, lim[0]), max(a[:, 1].min() - pad, lim[1]),
                 min(a[:, 0].max() + pad, lim[2]), min(a[:, 1].max() + pad, lim[3]))
        self._stage_bounds[stage] = tuple(float(v) for v in b)
        return self._stage_bounds[stage]

    def column_w(self) -> float:
        """Width of the right column of the map: a quarter of it, within INSET_W."""
        return float(np.clip(areas(self.size)["map"][2] * 0.26, *INSET_W))

    def inset_box(self) -> tuple[float, float, float, float] | None:
        """Where the range inset goes (bottom of the map's right column), or None if not shown."""
        mx, my, mw, mh = areas(self.size)["map"]
        if not self.inset_on or self._range is None or mw < 640 or self._kind == "elsewhere":
            return None
        iw = self.column_w() - 14
        x0, y0, x1, y1 = self._range
        dh = float(self.inset.ymap.fwd(y1) - self.inset.ymap.fwd(y0))
        h = min(mh - 170, (iw - 16) / max(x1 - x0, 1e-6) * dh + 16 + 24)
        return (mx + mw - self.column_w() + 4, my + mh - h - 10, iw, h)

    def fit(self) -> None:
        """F: frame the school (and the range in its inset), or the 賓's gate when the rite is there."""
        box = areas(self.size)["map"]
        self.camera.viewport = tuple(float(v) for v in box)
        self._kind = self.view_kind()
        stage = self.timeline.stage_at(self.t)
        self._framed = (self._kind, stage)
        self._manual = False
        if self._kind == "elsewhere":
            self.camera.fit(self._elsewhere, margin=30)
        elif self.inset_box() is not None:
            mx, my, mw, mh = box
            self.camera.fit(self.stage_bounds(stage), margin=18, box=(mx, my, mw - self.column_w(), mh))
            ib = self.inset_box()
            self.inset.viewport = (ib[0], ib[1] + 24, ib[2], ib[3] - 24)
            self.inset.fit(self._range, margin=8)
        else:
            b = all_bounds(self.layout)
            mx, my, mw, mh = box
            dh = float(self.camera.ymap.fwd(b[3]) - self.camera.ymap.fwd(b[1]))
            width = (b[2] - b[0]) * (mh - 40) / max(dh, 1e-6)
            # a tall drawing leaves a margin at the right: keep it in one piece for the legend
            side = (mx, my, mw - 180, mh) if mw - width >= 200 else None
            self.camera.fit(b, margin=20, box=side)
        self._static = None

    def resize(self, size: tuple[int, int]) -> None:
        self.size = (max(int(size[0]), 64), max(int(size[1]), 64))
        self.fit()

    # ---------------------------------------------------------------- time

    def seek(self, t: float) -> None:
        self.t = float(np.clip(t, 0.0, self.timeline.duration))

    def update(self, dt: float) -> None:
        """Advance the clock; everything else is sampled from it."""
        self.now += dt
        if self.state.toast and self.now >= self.toast_until:
            self.state.toast = ""
        if self.state.playing:
            self.seek(self.t + dt * self.state.speed)
            if self.t >= self.timeline.duration:
                self.state.playing = False

    def step_to(self, delta: int) -> None:
        self._jump(self.timeline.steps, self.timeline.step_at(self.t), delta)

    def stage_to(self, delta: int) -> None:
        self._jump(self.timeline.stages, self.timeline.stage_at(self.t), delta)

    def _jump(self, spans, i: int, delta: int) -> None:
        """To the start of the span delta away; going back first returns to the current one's start."""
        if not spans:
            return
        if delta < 0 and self.t > spans[i].t0 + 0.05:
            delta += 1
        self.seek(spans[int(np.clip(i + delta, 0, len(spans) - 1))].t0)

    def change_speed(self, delta: int) -> None:
        i = min(range(len(SPEEDS)), key=lambda k: abs(SPEEDS[k] - self.state.speed))
        self.state.speed = SPEEDS[int(np.clip(i + delta, 0, len(SPEEDS) - 1))]
        self.toast(f"速度 ×{self.state.speed:g}")

    def toast(self, text: str) -> None:
        self.state.toast = text
        self.toast_until = self.now + TOAST_SECONDS

    def first_step_citing(self, span: tuple[int, int]) -> int | None:
        for s in self.timeline.steps:
            if _spans_overlap(s.span, span):
                return s.index
        return None

    def _step_for_text(self, start: int, end: int) -> int | None:
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
        i = self._step_for_text(start, end)
        if i is None and self.corpus is not None:
            sec = self.corpus.section_at(start)
            if sec is not None:
                i = self.first_step_citing((sec.start, sec.end))
        if i is None:
            self.toast("此處未演 (no step cites this)")
            return False
        self.seek(self.timeline.steps[i].t0)
        return True

    # ---------------------------------------------------------------- events

    def handle(self, event: pygame.event.Event) -> None:
        et = event.type
        if et == pygame.QUIT:
            self.running = False
        elif et in (pygame.VIDEORESIZE,):
            self.resize(event.size)
        elif et == pygame.KEYDOWN:
            if self.state.search is not None:
                self._search_key(event)
            else:
                self._key(event)
        elif et == pygame.TEXTINPUT and self.state.search is not None:
            if event.text != "/" or self.state.search:
                self.state.search += event.text
        elif et == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._press(event.pos)
        elif et == pygame.MOUSEMOTION:
            self._motion(event.pos, event.rel)
        elif et == pygame.MOUSEBUTTONUP and event.button == 1:
            self._drag = None
        elif et == pygame.MOUSEWHEEL:
            y = getattr(event, "precise_y", event.y)
            if self._in(areas(self.size)["map"], self.mouse):
                self.camera.zoom_at(1.15 ** y, self.mouse)
                self._manual = True

    def _key(self, e) -> None:
        k = e.key
        if k in (pygame.K_ESCAPE, pygame.K_q):
            if self.state.help and k == pygame.K_ESCAPE:
                self.state.help = False
            else:
                self.running = False
        elif k == pygame.K_SPACE:
            if not self.state.playing and self.t >= self.timeline.duration:
                self.seek(0.0)
            self.state.playing = not self.state.playing
        elif k == pygame.K_RIGHT:
            self.step_to(+1)
        elif k == pygame.K_LEFT:
            self.step_to(-1)
        elif k in (pygame.K_PAGEDOWN, pygame.K_RIGHTBRACKET):
            self.stage_to(+1)
        elif k in (pygame.K_PAGEUP, pygame.K_LEFTBRACKET):
            self.stage_to(-1)
        elif k == pygame.K_HOME:
            self.seek(0.0)
        elif k == pygame.K_END:
            self.seek(self.timeline.duration)
        elif k in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.change_speed(+1)
        elif k in (pygame.K_MINUS, pygame.K_KP_MINUS, pygame.K_UNDERSCORE):
            self.change_speed(-1)
        elif k == pygame.K_f:
            self.fit()
        elif k == pygame.K_i:
            self.inset_on = not self.inset_on
            self.fit()
        elif k == pygame.K_n:
            self.state.show_notes = not self.state.show_notes
        elif k == pygame.K_h:
            self.state.help = not self.state.help
        elif k == pygame.K_s:
            self.screenshot()
        elif k == pygame.K_SLASH:
            self.state.search = ""
            self.state.search_note = ""

    def _search_key(self, e) -> None:
        k = e.key
        if k == pygame.K_ESCAPE:
            self.state.search = None
        elif k == pygame.K_BACKSPACE:
            self.state.search = self.state.search[:-1]
            self._matches = []
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.search(self.state.search)

    def search(self, query: str) -> bool:
        """Like the `find` command: variant-folded; Enter again goes to the next place."""
        if not query or self.corpus is None:
            return False
        again = bool(self._matches) and self.state.search_note.startswith(query + " ")
        if not again:
            self._matches, self._match_i = self.corpus.find(query), -1
        if not self._matches:
            self.state.search_note = f"{query} · 無"
            return False
        # the next place the rite enacts (a step cites it, or its clause); places no step
        # reaches are counted but skipped
        n = len(self._matches)
        for k in range(1, n + 1):
            i = (self._match_i + k) % n
            off = self._matches[i]
            if self._step_for_text(off, off + len(query)) is not None:
                self._match_i = i
                self.jump_to_text(off, off + len(query))
                self.state.search_note = (f"{query} · {i + 1}/{n} 處 · "
                                          f"頁 {self.corpus.page_at(off)}")
                return True
        self.state.search_note = f"{query} · {n} 處，皆未演"
        self.toast("此處未演 (no step cites this)")
        return False

    @staticmethod
    def _in(box, pos) -> bool:
        x, y, w, h = box
        return x <= pos[0] < x + w and y <= pos[1] < y + h

    def _scrub(self, pos) -> None:
        x, _, w, _ = hud.bar_track(self.size)
        if w > 0:
            self.seek((pos[0] - x) / w * self.timeline.duration)

    def _press(self, pos) -> None:
        self.mouse = pos
        if self.state.help:
            self.state.help = False
            return
        a = areas(self.size)
        if self._in(a["bar"], pos):
            self._drag = "bar"
            self._scrub(pos)
        elif self._in(a["panel"], pos):
            for box, ci, _ in self.hits.clauses:
                if self._in(box, pos):
                    cl = self.corpus.clauses[ci]
                    self.jump_to_text(cl.start, cl.end)
                    return
        elif self._in(a["map"], pos):
            self._drag = "map"

    def _motion(self, pos, rel) -> None:
        self.mouse = pos
        if self._drag == "map":
            self.camera.pan(*rel)
            self._manual = True
        elif self._drag == "bar":
            self._scrub(pos)

    # ---------------------------------------------------------------- drawing

    def scene_options(self) -> SceneOptions:
        return SceneOptions(breaks=self.camera.breaks, px_per_chi=self.camera.scale)

    def draw(self, surface: pygame.Surface) -> None:
        if surface.get_size() != self.size:
            self.resize(surface.get_size())
        kind, stage = self.view_kind(), self.timeline.stage_at(self.t)
        if kind != self._kind or ((kind, stage) != self._framed and not self._manual):
            self.fit()  # a new stage, or the rite went to the 賓's gate: frame where it is
        frame = self.timeline.sample(self.t)
        # the plans (hall, court, range, labels; the inset's) change only with the cameras:
        # drawn once into layers, then each frame is a blit plus the people, back to front
        plan, inset_plan = self._plan_layers()
        surface.blit(plan, (0, 0))
        mx, my, mw, mh = areas(self.size)["map"]
        surface.set_clip(pygame.Rect(mx, my, mw, mh))
        self._people(surface, self.camera, frame, self.scene_options())
        ib = self.inset_box()
        if ib is not None and inset_plan is not None:
            surface.blit(inset_plan, (int(ib[0]), int(ib[1])))
            surface.set_clip(pygame.Rect(int(ib[0]), int(ib[1]) + 24, int(ib[2]), int(ib[3]) - 24))
            self._people(surface, self.inset, frame, SceneOptions(
                breaks=self.inset.breaks, px_per_chi=self.inset.scale, captions=False))
            surface.set_clip(pygame.Rect(mx, my, mw, mh))
        pgdraw.draw(surface, overlay(self.camera, getattr(self.layout, "chi_m", 0.231),
                                     self._overlay_corner()), self.camera)
        surface.set_clip(None)
        prims, self.hits = build_hud(self.timeline, frame, self.corpus, self.size, self.state,
                                     legend_at=self.legend_at(), where=self._kind)
        pgdraw.draw(surface, prims, self.camera)
        tip = self.hover_text(frame)
        if tip:
            mx_, my_ = self.mouse
            right = mx_ + 14 + hud.text_width(tip, 13) + 8 > self.size[0]
            below = my_ + 40 > self.size[1]
            pgdraw.draw(surface, [Text((mx_ + (-10 if right else 14), my_ + (-10 if below else 12)),
                                       tip, 13, hud.INK,
                                       ("s" if below else "n") + ("e" if right else "w"),
                                       bg=(255, 253, 244), border=hud.INK, screen=True)],
                        self.camera)

    def _overlay_corner(self) -> tuple[float, float]:
        """Scale bar and north arrow: in the right column above the inset, in the margin with
        the legend, or bottom left."""
        mx, my, _, mh = areas(self.size)["map"]
        ib = self.inset_box()
        if ib is not None:
            return (ib[0] + 8, ib[1] - 16)
        lx = self.legend_at()[0]
        return (lx + 8, my + mh - 14) if lx > mx + 20 else (mx + 16, my + mh - 14)

    def _plan_layers(self) -> tuple[pygame.Surface, pygame.Surface | None]:
        cam, ins, ib = self.camera, self.inset, self.inset_box()
        key = (self.size, cam.scale, cam.center, cam.viewport, ins.scale, ins.center,
               ins.viewport, ib)
        if self._static is not None and self._static[0] == key:
            return self._static[1]
        layer = pygame.Surface(self.size)
        layer.fill(hud.PAPER)
        mx, my, mw, mh = areas(self.size)["map"]
        layer.set_clip(pygame.Rect(mx, my, mw, mh))
        pgdraw.draw(layer, self._plan(cam, self.scene_options()), cam)
        layer.set_clip(None)
        inset = self._inset_layer(ib) if ib is not None else None
        self._static = (key, (layer, inset))
        return layer, inset

    def hover_text(self, frame) -> str:
        """Who is under the mouse in the main view: full name, note, posture, what he holds;
        over the timeline bar, the stage and time there."""
        if self._drag is None and self._in(areas(self.size)["bar"], self.mouse):
            x, _, w, _ = hud.bar_track(self.size)
            t = float(np.clip((self.mouse[0] - x) / max(w, 1e-9), 0, 1)) * self.timeline.duration
            if not self.timeline.stages:
                return ""
            s = self.timeline.stages[self.timeline.stage_at(t)]
            return f"{s.index + 1} {s.name} · {t:.0f} s"
        if self._drag is not None or not self._in(areas(self.size)["map"], self.mouse):
            return ""
        idx = np.nonzero(frame.present)[0]
        if not len(idx):
            return ""
        scr = self.camera.to_screen(frame.xy[idx])
        d = np.hypot(scr[:, 0] - self.mouse[0], scr[:, 1] - self.mouse[1])
        k = int(np.argmin(d))
        r = max(self.scene_options().token_r * self.camera.scale, self.scene_options().token_min_px)
        if d[k] > r + 2:
            return ""
        i = int(idx[k])
        a = self.timeline.actors[i]
        text = a.name + (f"（{a.note}）" if getattr(a, "note", "") else "")
        text += f" · {POSTURES[int(frame.posture[i])]}"
        held = [self.timeline.props[self.timeline.prop_index[p]].name for p in frame.holding[i]
                if p in self.timeline.prop_index]
        return text + (f" · 執{'、'.join(held)}" if held else "")

    def legend_at(self) -> tuple[float, float, float]:
        mx, my, mw, _ = areas(self.size)["map"]
        if self.inset_box() is not None:
            return (mx + mw - self.column_w() + 4, my + 10, self.column_w() - 14)
        # no right column: in the margin beside the drawing if it has room, else top left
        right = float(self.camera.to_screen((all_bounds(self.layout)[2], 0.0))[0])
        free = mx + mw - right - 16
        if free >= 170:
            return (mx + mw - min(300.0, free) - 8, my + 10, min(300.0, free))
        return (mx + 10, my + 10, min(300.0, mw - 20))

    def _plan(self, camera: Camera, o: SceneOptions, places: bool = True) -> list:
        return (features(self.layout) + range_marks(self.layout, o.breaks)
                + place_labels(self.layout, camera.scale, places))

    def _people(self, surface, camera: Camera, frame, o: SceneOptions) -> None:
        pgdraw.draw(surface, set_down_props(self.timeline, frame, o), camera)
        pgdraw.draw(surface, actors(self.timeline, frame, o), camera)
        pgdraw.draw(surface, captions(self.timeline, frame, o), camera)

    def _inset_layer(self, box) -> pygame.Surface:
        """The range at its own scale, same breaks: the 侯道, the 乏 and the 侯, framed."""
        x, y, w, h = box
        layer = pygame.Surface((max(int(w), 1), max(int(h), 1)))
        layer.fill(hud.PAPER)
        # the inset camera draws in window pixels: shift it onto this small surface
        cam = Camera((self.inset.viewport[0] - int(x), self.inset.viewport[1] - int(y),
                      *self.inset.viewport[2:]), self.inset.scale, self.inset.center,
                     self.inset.breaks)
        local = (0, 0, int(w), int(h))
        pgdraw.draw(layer, [Rect(local, hud.PAPER, (150, 130, 100), 1.5, radius=3)], cam)
        layer.set_clip(pygame.Rect(0, 24, int(w), int(h) - 24))
        o = SceneOptions(breaks=cam.breaks, px_per_chi=cam.scale)
        # only the drawn things are named here: at this scale point names would crowd the 侯
        pgdraw.draw(layer, self._plan(cam, o, places=False), cam)
        layer.set_clip(None)
        pgdraw.draw(layer, [
            Text((8, 12), "侯道 · 乏 · 侯（分圖，中斷處見鋸齒）", 12, hud.RED, "w", screen=True),
            Line(((0, 24), (w, 24)), (200, 190, 170), 1.0, screen=True),
            Rect(local, None, (150, 130, 100), 1.5, radius=3)], cam)
        return layer

    def screenshot(self, surface: pygame.Surface | None = None) -> Path:
        """Save the current view as a new PNG under shots_dir; never replaces a file."""
        if surface is None:
            surface = pygame.Surface(self.size)
            toast, self.state.toast = self.state.toast, ""
            self.draw(surface)
            self.state.toast = toast
        buf = io.BytesIO()
        pygame.image.save(surface, buf, "shot.png")
        while True:
            path = next_free_name(self.shots_dir, "xiangshe", ".png")
            try:
                atomic_write_bytes(path, buf.getvalue())
                break
            except FileExistsError:  # someone took the name between the look and the write
                continue
        self.toast(f"saved {path.parent.name}/{path.name}")
        return path

    # ---------------------------------------------------------------- fonts

    def chars_drawn(self) -> str:
        """Every character the window may draw, for the start-up font check."""
        tl, lay, parts = self.timeline, self.layout, []
        parts += list(lay.places)
        parts += [f"{f.name}{f.label if isinstance(f.label, str) else ''}" for f in lay.features]
        parts += [a.name + a.label for a in tl.actors] + [p.name for p in tl.props]
        parts += [s.name + s.section for s in tl.stages]
        parts += [s.cite + "".join(s.captions) + s.note for s in tl.steps]
        parts += list(tl.captions.get("text", [])) if isinstance(tl.captions, dict) else []
        if self.corpus is not None:
            parts += [self.corpus.plain]
        parts += [Path(hud.__file__).read_text(encoding="utf-8")]
        parts += [Path(sys.modules["viz.draw.scene"].__file__).read_text(encoding="utf-8")]
        return "".join(parts)

    def check_font(self, out=None) -> list[str]:
        missing = fonts.report_missing(self.chars_drawn(), out)
        self.state.substitutions = tuple(fonts.substitutions_used(self.chars_drawn()))
        return missing


def run(layout, timeline, corpus=None, script_path: str | Path | None = None,
        layout_path: str | Path | None = None, size: tuple[int, int] = (1280, 800)) -> int:
    """Open the window and play; returns the exit status."""
    pygame.display.init()  # not pygame.init(): the window has no use for audio
    pygame.key.set_repeat(350, 60)  # holding → walks through the steps
    title = "鄉射禮" + (f" — {Path(script_path).name}" if script_path else "")
    if layout_path:
        title += f" · {Path(layout_path).name}"
    window = pygame.display.set_mode(size, pygame.RESIZABLE)
    pygame.display.set_caption(title)
    app = App(layout, timeline, corpus, size=window.get_size())
    app.check_font()
    pygame.key.start_text_input()
    clock = pygame.time.Clock()
    while app.running:
        dt = clock.tick(60) / 1000.0
        for event in pygame.event.get():
            app.handle(event)
        app.update(dt)
        app.draw(window)
        pygame.display.flip()
    pygame.quit()
    return 0
