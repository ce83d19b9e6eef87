"""The model: layout, paths, script, verbs, compile, timeline, the rite. Imports viz.base and viz.text; never pygame."""
