"""The rite script read: a rite folder (or one file) → schema and meaning checks → Script.

nodes.py     the data classes (Settings … Action, Step, Stage, Script, Shot, Result), DIRS,
             direction, formation, reading_matches; imports viz.base.errors only, so the verbs
             can name them without importing the reader
source.py    files → one checked document: check_structure, the manifest, read_document,
             script_readings
like.py      stages like others (like:): resolve_likes copies and re-binds their steps
scope.py     Scope: the scenario resolved, who and what it casts (the reader's first pass)
refs.py      Refs: values and references (places, ways, things, sections, an action's keys)
cast.py      Cast: the actors and props, the groups, bodies and sides
patterns.py  Patterns: the definitions checked, a use expanded, the steps made counted
fates.py     Fates: the stage's scoring, each arrow's fate, each count's outcome
steps.py     Steps: a step's variant, pattern and each: expanded, its actions read by verb
reader.py    read_script, the passes in order (structure, like, scope, patterns, the stages:
             read_stages and read_stage), over a Reader holding those parts, none inheriting
             from another, each owning its own state; load_script, parse_script
These modules import viz.base, viz.model.scenario, viz.model.schema and viz.model.verbs (the
layout and the corpus are handed in); never compile, the queries or anything above the model.
This file imports nothing: import the module that defines a name.
"""
