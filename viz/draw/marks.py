"""What the view's choices add to a frame: the selected person's trail and ring, the ghosts of
the previous step, a second reading drawn over the first, and what the panel says of them (his
next move, who differs and by how much)."""
from __future__ import annotations

import numpy as np

from viz.draw import ghosts, hud, scene
from viz.draw.camera import Camera
from viz.draw.display import Box, Layer
from viz.draw.extent import Model, _world_box
from viz.draw.scene import SceneOptions

SELECTED = "選 {name}　（C 隨之 follow · Esc 取消）"
SELECTED_THING = "選 {name}　（設於此 set out here · Esc 取消）"
FOLLOWING = "選 {name}　（隨之 following · F 止）"
NEXT_MOVE = "{when}：「{cite}」"
NEXT_WHEN, NOW_WHEN = "下一行", "正行"
MOVE_PATH = "　{src} → {dst} · {length:.1f} 尺 · t = {t0:.0f} s"
NO_MOVE = "此後不復行 (no more moves)"
COMPARED = "比較 {a} vs {b}（空圈 = {b}）"
DIFF_HEAD = "此步之末相差 (where the step leaves them)"
DIFF = "　{name}　差 {dist:.1f} 尺"
DIFF_MORE = "　… 另 {n} 人"
SAME = "　此步位置皆同 (no one differs)"
MAX_DIFFS = 6  # rows of the panel's list of who differs; the rest are counted


class _Marks:
    """What the view's choices add to a frame (trail, ghosts, second reading), sampled once and
    drawn through each camera that shows the plan; nothing when nothing is chosen."""

    def __init__(self, model: Model, view, frame, stage: int, closing: bool,
                 ui: float = 1.0):
        tl = model.timeline
        self.ui = ui
        self.model, self.view, self.frame, self.closing = model, view, frame, closing
        n = len(tl.actors)
        sel, thing = view.selected, view.thing
        self.selected = sel if sel is not None and 0 <= sel < n else None
        down = (thing is not None and 0 <= thing < len(tl.props)
                and bool(frame.prop_visible[thing]) and int(frame.prop_holder[thing]) < 0)
        self.thing = thing if down else None  # (taken up or gone: no longer named)
        self.path = (ghosts.stage_trail(tl, self.selected, stage)
                     if self.selected is not None else None)
        self.before = (ghosts.previous_frame(tl, frame.t, closing)
                       if view.ghosts else None)
        cmp = view.compare
        self.other = cmp.timeline.sample(cmp.t, cmp.closing) if cmp is not None else None
        self.moved = (ghosts.moved_features(model.layout, cmp.layout)
                      if cmp is not None and cmp.layout is not None else [])

    def _r(self, cam: Camera) -> float:
        return scene.token_radius(SceneOptions(px_per_chi=cam.scale, lod=True, ui=self.ui))

    def layers(self, prefix: str, clip: Box, cam: Camera) -> list[Layer]:
        """Under the people: ghosts of the previous step, the second reading, the trail."""
        tl, r, out = self.model.timeline, self._r(cam), []
        if self.before is not None:
            out += ghosts.ghost_prims(tl, self.before, self.frame, r)
        if self.other is not None:
            out += self.moved
            out += ghosts.compare_prims(tl, self.frame, self.view.compare.timeline, self.other, r)
        if self.path is not None and (not prefix or self._in_range(self.path)):
            out += ghosts.trail_prims(self.path, None, r, False, _world_box(cam, clip))
        return [Layer(prefix + "marks", clip, cam, tuple(out))] if out else []

    def _in_range(self, pts: np.ndarray) -> bool:
        """Whether a path comes down the range (else the inset need not draw it)."""
        b = self.model.range
        return b is not None and bool(len(pts)) and bool((pts[:, 1] <= b[3]).any())

    def rings(self, prefix: str, clip: Box, cam: Camera) -> list[Layer]:
        """Over the people: the ring round the one selected, or round the thing selected."""
        i, j, f = self.selected, self.thing, self.frame
        if i is not None and bool(f.present[i]):
            now, r = (float(f.xy[i, 0]), float(f.xy[i, 1])), self._r(cam)
        elif j is not None:  # a ring the size of the thing's glyph, a few px round it
            now, r = (float(f.prop_xy[j, 0]), float(f.prop_xy[j, 1])), 7.0 * self.ui / cam.scale
        else:
            return []
        prims = ghosts.trail_prims(np.zeros((0, 2)), now, r, True)
        return [Layer(prefix + "selection", clip, cam, tuple(prims))]

    def panel_rows(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """What the panel says of the choices: his next move; who differs, by how much."""
        tl, rows = self.model.timeline, []
        if self.thing is not None:
            tag = scene.thing_tag(tl, self.frame, self.thing)
            rows.append((SELECTED_THING.format(name=tag.text if tag is not None
                                               else tl.props[self.thing].name), hud.RED))
        if self.selected is not None:
            who = tl.actors[self.selected].name
            rows.append(((FOLLOWING if self.view.following else SELECTED).format(name=who),
                         hud.RED))
            mv = ghosts.next_move(tl, self.model.layout, self.selected, self.frame.t,
                                  self.closing)
            if mv is None:
                rows.append((NO_MOVE, hud.GREY))
            else:
                rows.append((NEXT_MOVE.format(when=NOW_WHEN if mv.now else NEXT_WHEN,
                                              cite=mv.cite), hud.INK))
                rows.append((MOVE_PATH.format(src=mv.src, dst=mv.dst, length=mv.length,
                                              t0=mv.t0), hud.INK))
        cmp = self.view.compare
        if cmp is not None and self.other is not None:
            rows.append((COMPARED.format(a=cmp.base, b=cmp.reading), ghosts.COMPARE))
            # the step's end is what is compared: worked out once a step, not every frame
            key = ("differences", cmp.key, tl.step_at(self.frame.t, self.closing))
            if key not in self.model.hud_memo:
                self.model.hud_memo[key] = ghosts.step_differences(tl, cmp.timeline,
                                                                   self.frame.t, self.closing)
            diffs = self.model.hud_memo[key]
            rows.append((DIFF_HEAD, hud.GREY))
            rows += [(DIFF.format(name=d.name, dist=d.dist), hud.INK)
                     for d in diffs[:MAX_DIFFS]]
            if len(diffs) > MAX_DIFFS:
                rows.append((DIFF_MORE.format(n=len(diffs) - MAX_DIFFS), hud.GREY))
            if not diffs:
                rows.append((SAME, hud.GREY))
        return tuple(rows)
