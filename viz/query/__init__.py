"""Questions asked of a compiled rite. Imports the model and below; never pygame.

The modules, one a line:
    state     the state at a moment, and when `--after TEXT` is (the `state` JSON)
    coverage  which clauses of the text the script enacts
    diff      where two compiled rites differ, step by step
    lint      checks while people move, not only where steps end: nobody walks through anybody
    faithful  checks against the 經's own words: what a clause says is held, walks made simultaneous
    dressed   what the 經 says they wear, checked against the motion
    drum      the drum per pair in a round shot to music
    inherit   如初 / 如之: a clause doing as before is checked against what it inherits
    waits     stretches in which nobody moves (the window's "skip the waits", W)
    words     the words of the text a step enacts
"""
