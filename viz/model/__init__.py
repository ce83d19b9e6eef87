"""The model: layout, paths, script, verbs, compile, timeline, the rite. Imports viz.base and
viz.text; never pygame.

The modules, one a line (and the packages script/, the reader, and compile/, the compiler):
    layout           the hall, court and range as data: places, regions, obstacles, features
    layout_geometry  the plan's shapes as values, and rectangle arithmetic
    layout_checks    a layout checked: schema, numbers, rects, gate, names, places, reach, sight
    layout_extends   a layout that extends another, merged
    layout_treads    a stair's treads (等) as places found by name (西階上一等)
    paths            walking paths: a visibility graph, shortest routes
    footprint        the ground a person and a thing set out take
    dress            the words of dress, and a bow strung or unstrung
    verbs            the script's verbs, one class each: keys, checks, how each compiles
    schema           the script's JSON Schema, built from the verbs
    scenario         what the text leaves open, settled per run (--set, the cast)
    scoring          the shooting as the compiled timeline has it
    timeline         the compiled rite: keyframe channels, events, sample(t)
    spec             a command's question resolved once (RiteSpec)
    package          a rite package: its manifest's title, text and layout
    bundled          bundled things by name; a package's paths kept in its folder
    rite             the rite loaded and compiled per reading, cached
    refusal          a reading the layout refuses for this rite, with its cited reason
    progressive      the first stages at once, the rest in a worker thread
    reload           live reload by content
"""
