"""Questions asked of a compiled rite: the state at a moment, coverage, diff, lint. Imports the model and below; never pygame."""
