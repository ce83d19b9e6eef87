"""The window's keys as data: a table from (key, modifier) to an action and its arguments, run
by `Bindings`, the mode of viz.app.window.App while no other (viz.app.modes) is open.

As in Textual (`BINDINGS`, `run_action`): an action is `action_<name>` of `Bindings` when there is
one (the few that look at the state before they act), else the App's method at that dotted path
("step_to", "readings.cycle_reading"). The help (H) lists the keys in viz.draw.hud.KEYS, by the
names `key_name` gives; tests/test_bindings.py keeps the two in step.
"""
from __future__ import annotations

import pygame

from viz.draw import ghosts

SHIFT = pygame.KMOD_SHIFT
CTRL = pygame.KMOD_CTRL
# what N and G say when they have nothing to show at this moment
NO_NOTES = "此句無注 no 注 under this clause"
NO_PREVIOUS = "無前一步 no previous step: nothing to show"
NOBODY_MOVED = "前一步以來無人移動 nobody has moved since the previous step"

# (key, modifier) → (action, arguments). A key is looked up with a modifier held first, then
# without: modifiers a key is not bound with are ignored (Shift+Space plays as Space does).
MAIN: dict[tuple[int, int], tuple[str, tuple]] = {
    (pygame.K_ESCAPE, 0): ("escape", ()),
    (pygame.K_q, 0): ("quit", ()),
    (pygame.K_SPACE, 0): ("toggle_play", ()),
    (pygame.K_RIGHT, 0): ("step_to", (+1,)),
    (pygame.K_LEFT, 0): ("step_to", (-1,)),
    (pygame.K_PAGEDOWN, 0): ("stage_to", (+1,)),
    (pygame.K_RIGHTBRACKET, 0): ("stage_to", (+1,)),
    (pygame.K_PAGEUP, 0): ("stage_to", (-1,)),
    (pygame.K_LEFTBRACKET, 0): ("stage_to", (-1,)),
    (pygame.K_HOME, 0): ("seek", (0.0,)),
    (pygame.K_END, 0): ("to_end", ()),
    (pygame.K_PLUS, 0): ("change_speed", (+1,)),
    (pygame.K_EQUALS, 0): ("change_speed", (+1,)),
    (pygame.K_KP_PLUS, 0): ("change_speed", (+1,)),
    (pygame.K_MINUS, 0): ("change_speed", (-1,)),
    (pygame.K_KP_MINUS, 0): ("change_speed", (-1,)),
    (pygame.K_UNDERSCORE, 0): ("change_speed", (-1,)),
    (pygame.K_EQUALS, CTRL): ("scale_ui", (+1,)),
    (pygame.K_PLUS, CTRL): ("scale_ui", (+1,)),
    (pygame.K_KP_PLUS, CTRL): ("scale_ui", (+1,)),
    (pygame.K_MINUS, CTRL): ("scale_ui", (-1,)),
    (pygame.K_KP_MINUS, CTRL): ("scale_ui", (-1,)),
    (pygame.K_UNDERSCORE, CTRL): ("scale_ui", (-1,)),
    (pygame.K_f, 0): ("fit", ()),
    (pygame.K_i, 0): ("toggle_inset", ()),
    (pygame.K_n, 0): ("toggle_notes", ()),
    (pygame.K_h, 0): ("toggle", ("help",)),
    (pygame.K_s, 0): ("screenshot", ()),
    (pygame.K_c, 0): ("toggle_follow", ()),
    (pygame.K_g, 0): ("toggle_ghosts", ()),
    (pygame.K_d, 0): ("toggle_drum", ()),
    (pygame.K_r, SHIFT): ("readings.cycle_compare", ()),
    (pygame.K_r, 0): ("readings.cycle_reading", ()),
    (pygame.K_v, 0): ("readings.toggle_compare", ()),
    (pygame.K_SLASH, 0): ("search_box.open", ()),
    (pygame.K_l, 0): ("stage_list.open", ()),
    (pygame.K_TAB, 0): ("stage_list.open", ()),
    (pygame.K_F11, 0): ("classroom.toggle_fullscreen", ()),
    (pygame.K_w, 0): ("classroom.toggle_skip", ()),
    (pygame.K_p, 0): ("classroom.present_step", ()),
    (pygame.K_RETURN, 0): ("classroom.present_step", ()),
    (pygame.K_KP_ENTER, 0): ("classroom.present_step", ()),
}
# the actions a held key repeats (pygame's key repeat: holding → walks through the steps);
# every other acts once a press, however long it is held (R: one reading, not several)
REPEATING = {"step_to", "stage_to", "change_speed", "scale_ui"}
MODIFIERS = (SHIFT, CTRL)  # those a binding may ask for

# How the help names a key that is not a letter (a letter: itself, in capitals); the keys that
# type the same sign (= and keypad + for +) are one name there
NAMES = {
    pygame.K_ESCAPE: "Esc", pygame.K_SPACE: "Space", pygame.K_TAB: "Tab", pygame.K_SLASH: "/",
    pygame.K_RIGHT: "→", pygame.K_LEFT: "←", pygame.K_PAGEDOWN: "PgDn", pygame.K_PAGEUP: "PgUp",
    pygame.K_RIGHTBRACKET: "]", pygame.K_LEFTBRACKET: "[", pygame.K_HOME: "Home",
    pygame.K_END: "End", pygame.K_PLUS: "+", pygame.K_EQUALS: "+", pygame.K_KP_PLUS: "+",
    pygame.K_MINUS: "−", pygame.K_KP_MINUS: "−", pygame.K_UNDERSCORE: "−",
    pygame.K_F11: "F11", pygame.K_RETURN: "Enter", pygame.K_KP_ENTER: "Enter",
}


def key_name(key: int, mod: int = 0) -> str:
    """The key as the help writes it: "Esc", "→", "R", "Shift+R"."""
    name = NAMES.get(key) or (chr(key).upper() if 32 < key < 127 else pygame.key.name(key).title())
    return ("Ctrl+" if mod & CTRL else "") + ("Shift+" if mod & SHIFT else "") + name


def binding(key: int, mod: int, table=MAIN) -> tuple[str, tuple] | None:
    """The action bound to key with the modifiers held: one bound with a held modifier first,
    else the key's own; None when the key is not bound."""
    for m in MODIFIERS:
        if mod & m and (key, m) in table:
            return table[(key, m)]
    return table.get((key, 0))


class Bindings:
    """The window's mode while no other is open: a key runs its action; a press and the wheel
    go to the pointer; typed text is nothing (its keys are bound)."""

    def __init__(self, app, table=MAIN):
        self.app = app
        self.table = table

    def key(self, e) -> None:
        found = binding(e.key, getattr(e, "mod", 0), self.table)
        if found is None:
            return
        if getattr(self.app, "key_repeat", False) and found[0] not in REPEATING:
            return  # held: pygame repeats the KEYDOWN; a toggle or a reading acts once a press
        self.run_action(*found)

    def text(self, text: str) -> None:
        pass

    def press(self, pos) -> None:
        self.app.pointer.press(pos)

    def wheel(self, clicks: float) -> None:
        self.app.pointer.wheel(clicks)

    def action(self, name: str):
        """The callable an action names: action_<name> here, else the App's method at the
        dotted path (AttributeError when there is neither)."""
        found = getattr(self, f"action_{name}", None)
        if found is None:
            found = self.app
            for part in name.split("."):
                found = getattr(found, part)
        return found

    def run_action(self, name: str, args: tuple = ()) -> None:
        self.action(name)(*args)

    # ---------------------------------------------------------------- actions that ask first

    def action_escape(self) -> None:
        """Esc: close the help, else let go of the person or thing selected, else quit."""
        app = self.app
        if app.state.help:
            app._set(help=False)
        elif app.selected is not None or app.thing is not None:
            app.select(None)
        else:
            app.running = False

    def action_quit(self) -> None:
        self.app.running = False

    def action_toggle_play(self) -> None:
        """Space: play or pause; at the end, play from the start."""
        app = self.app
        if not app.state.playing and app.t >= app.timeline.duration:
            app.seek(0.0)
        app._set(playing=not app.state.playing)
        app.classroom.forget()  # Space ends a presenter's step: play on, or stay paused

    def action_to_end(self) -> None:
        self.app.seek(self.app.timeline.duration)

    def action_toggle_inset(self) -> None:
        """I: the range inset on or off; the view is fitted again, or centred again on the
        person followed (the free part of the map changed)."""
        app = self.app
        app.inset_on = not app.inset_on
        if app.following:
            app.manual = None
            app.recentre()
        else:  # the framing of the moment, in the new free part
            app.manual = None

    def action_scale_ui(self, delta: int) -> None:
        """Ctrl + / Ctrl −: names, tokens and glyphs a step larger or smaller (the window's
        size already sets a larger scale on a large screen)."""
        from viz.draw.compose import UI_STEPS

        app = self.app
        app.ui = float(min(max(app.ui * 1.25 ** delta, UI_STEPS[0]), UI_STEPS[1]))

    def action_toggle(self, field: str) -> None:
        """A switch of the HUD state (the notes, the help) on or off."""
        self.app._set(**{field: not getattr(self.app.state, field)})

    def action_toggle_follow(self) -> None:
        self.app.follow(not self.app.following)

    def action_toggle_notes(self) -> bool:
        """N: the 注 under the text on or off; turned on where the clause has none, it says so."""
        app = self.app
        on = not app.state.show_notes
        app._set(show_notes=on)
        if on and not self.notes_here():
            app.toast(NO_NOTES)
        return on

    def notes_here(self) -> bool:
        """Whether a clause the step on screen cites has a 注."""
        app = self.app
        c, tl = app.corpus, app.timeline
        if c is None or not tl.steps:
            return False
        s = tl.steps[tl.step_at(app.t, app.closing)]
        return any(cl.notes for cl in c.clauses if cl.start < s.span[1] and s.span[0] < cl.end)

    def action_toggle_ghosts(self) -> bool:
        """G: where everyone was at the end of the previous step on or off; turned on where
        there is no previous step, or nobody has moved since it, it says so."""
        app = self.app
        app.ghosts = not app.ghosts
        if app.ghosts:
            before = ghosts.previous_frame(app.timeline, app.t, app.closing)
            if before is None:
                app.toast(NO_PREVIOUS)
            elif not ghosts.anyone_moved(before, app.timeline.sample(app.t, app.closing)):
                app.toast(NOBODY_MOVED)
        return app.ghosts
