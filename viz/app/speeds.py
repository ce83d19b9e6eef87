"""The speeds the window plays at (+ and − step through them; `play --speed` picks one).
Imports nothing, so the command line can offer them without loading pygame. ×64 plays the
6-hour rite in under 6 minutes; "skip the waits" (W) shortens it further."""
SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0)
