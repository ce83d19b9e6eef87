"""The window's modes: the stage list (L, Tab) and the search box (/) (parts of viz.app.window.App).

While one is open it takes every key, typed text, press and wheel click (as a Textual
`ModalScreen` takes the keys before the App's bindings); the mouse's motion and release still
go to the pointer. Each is open while its field of the HUD state is not None (`stages`,
`search`), so what is open is drawn and undone with the rest of the state.
"""
from __future__ import annotations

import numpy as np
import pygame

from viz.app.pointer import inside
from viz.draw import hud

LIST_WHEEL_ROWS = 3  # rows of the stage list a wheel click scrolls

# The words the search box writes (NOT_ENACTED also when a clicked clause has no step)
NOT_ENACTED = "此處未演 (no step cites this)"
FOUND = "{query} · {i}/{n} 處 · 頁 {page}"
NOT_FOUND = "{} · 無"
FOUND_NONE_ENACTED = "{query} · {n} 處，皆未演"

ENTER = (pygame.K_RETURN, pygame.K_KP_ENTER)


class StageList:
    """L, Tab: every stage of the rite, pointing at the current one; type a number or a name,
    ↑ ↓ PgUp PgDn Home End, Enter or a click plays from the stage pointed at."""

    def __init__(self, app):
        self.app = app

    @property
    def is_open(self) -> bool:
        return self.app.state.stages is not None

    def open(self) -> None:
        """L, Tab: the list of every stage, pointing at the current one."""
        app = self.app
        if not app.timeline.stages:
            return
        here = app.timeline.stage_at(app.t, app.closing)
        rows = self.rows()
        app._set(stages="", stage_pick=here, help=False, search=None,
                 stage_top=hud.list_top(here - rows // 3, rows, len(app.timeline.stages)))

    def rows(self) -> int:
        """How many rows of the list the window has room for."""
        return hud.stage_list_rows(self.app.size, len(self.app.timeline.stages),
                                   self.app.ui)

    def close(self) -> None:
        self.app._set(stages=None)

    def pick(self, i: int) -> None:
        """Point the list at stage i (kept within the list), scrolled into view."""
        n = len(self.app.timeline.stages)
        if n == 0:
            return
        i = int(np.clip(i, 0, n - 1))
        top = hud.list_top(self.app.state.stage_top, self.rows(), n, i)
        self.app._set(stage_pick=i, stage_top=top)

    def type(self, text: str) -> list[int]:
        """The list's typed text: point at the best stage it finds (its number or name)."""
        found = hud.stage_matches([s.name for s in self.app.timeline.stages], text)
        self.app._set(stages=text)
        if found:
            self.pick(found[0])
        return found

    def next_found(self, delta: int) -> None:
        """↑ ↓: the next row, or with typed text the next stage it finds (a repeated name)."""
        state = self.app.state
        here = state.stage_pick
        found = sorted(hud.stage_matches([s.name for s in self.app.timeline.stages],
                                         state.stages or ""))
        if not found:
            self.pick(here + delta)
            return
        after = [i for i in found if (i - here) * delta > 0]
        self.pick((after[0] if delta > 0 else after[-1]) if after else here)

    def go_to(self, i: int) -> None:
        """Play from the start of stage i; the list closes."""
        self.close()
        stages = self.app.timeline.stages
        if stages:  # a reload may have taken stages away while the list was open
            self.app.seek(stages[int(np.clip(i, 0, len(stages) - 1))].t0)

    def key(self, e) -> None:
        k, rows, state = e.key, self.rows(), self.app.state
        if k in (pygame.K_ESCAPE, pygame.K_TAB):
            self.close()
        elif k in ENTER:
            self.go_to(state.stage_pick)
        elif k == pygame.K_BACKSPACE:
            self.type(state.stages[:-1])
        elif k in (pygame.K_DOWN, pygame.K_UP):
            self.next_found(+1 if k == pygame.K_DOWN else -1)
        elif k in (pygame.K_PAGEDOWN, pygame.K_PAGEUP):
            self.pick(state.stage_pick + (rows if k == pygame.K_PAGEDOWN else -rows))
        elif k in (pygame.K_HOME, pygame.K_END):
            self.pick(0 if k == pygame.K_HOME else len(self.app.timeline.stages) - 1)

    def text(self, text: str) -> None:
        """Typed text narrows the list; the L or Tab that opened it is not typed into it."""
        if text not in ("l", "L", "\t") or self.app.state.stages:
            self.type(self.app.state.stages + text)

    def press(self, pos) -> None:
        """A click on a row of the list jumps there; outside the list's box closes it."""
        app = self.app
        n = len(app.timeline.stages)
        i = hud.stage_list_row_at(app.size, n, app.state.stage_top, pos, app.ui)
        k = hud.ui_scale(app.size, app.ui)
        if i is not None:
            self.go_to(i)
        elif not inside(hud.stage_list_box(app.size, n, app.ui), (pos[0] / k, pos[1] / k)):
            self.close()

    def wheel(self, clicks: float) -> None:
        """Scroll the list (the row pointed at stays)."""
        n, rows = len(self.app.timeline.stages), self.rows()
        top = self.app.state.stage_top - round(clicks * LIST_WHEEL_ROWS)
        self.app._set(stage_top=hud.list_top(top, rows, n))


class SearchBox:
    """/: type words of the text, Enter plays from the first place the rite enacts (again: the
    next); Esc closes. The mouse does there what it does without the box."""

    def __init__(self, app):
        self.app = app
        self._matches: list[int] = []
        self._match_i = 0

    @property
    def is_open(self) -> bool:
        return self.app.state.search is not None

    def open(self) -> None:
        self.app._set(search="", search_note="")

    def key(self, e) -> None:
        k, app = e.key, self.app
        if k == pygame.K_ESCAPE:
            app._set(search=None)
        elif k == pygame.K_BACKSPACE:
            app._set(search=app.state.search[:-1])
            self._matches = []
        elif k in ENTER:
            self.search(app.state.search)

    def text(self, text: str) -> None:
        """Typed text goes into the box; the / that opened it does not."""
        if text != "/" or self.app.state.search:
            self.app._set(search=self.app.state.search + text)

    def press(self, pos) -> None:
        self.app.pointer.press(pos)

    def wheel(self, clicks: float) -> None:
        self.app.pointer.wheel(clicks)

    def search(self, query: str) -> bool:
        """Like the `find` command: variant-folded; Enter again goes to the next place."""
        app = self.app
        if not query or app.corpus is None:
            return False
        again = bool(self._matches) and app.state.search_note.startswith(query + " ")
        if not again:
            self._matches, self._match_i = app.corpus.find(query), -1
        if not self._matches:
            app._set(search_note=NOT_FOUND.format(query))
            return False
        # the next place the rite enacts (a step cites it, or its clause); places no step
        # reaches are counted but skipped
        n = len(self._matches)
        for k in range(1, n + 1):
            i = (self._match_i + k) % n
            off = self._matches[i]
            if app.step_for_text(off, off + len(query)) is not None:
                self._match_i = i
                app.jump_to_text(off, off + len(query))
                app._set(search_note=FOUND.format(query=query, i=i + 1, n=n,
                                                  page=app.corpus.page_at(off)))
                return True
        app._set(search_note=FOUND_NONE_ENACTED.format(query=query, n=n))
        app.toast(NOT_ENACTED)
        return False
