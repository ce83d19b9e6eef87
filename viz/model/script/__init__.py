"""The rite script read: a rite folder (or one file) → schema and meaning checks → Script.

nodes.py     the data classes (Settings … Action, Step, Stage, Script, Shot, Result), DIRS,
             direction, formation, reading_matches; imports viz.base.errors only, so the verbs
             can name them without importing the reader
source.py    files → one checked document: check_structure, the manifest, read_document,
             script_readings
like.py      stages like others (like:): resolve_likes copies and re-binds their steps
scope.py …   the reader in parts, one class each, each calling only the parts it inherits from:
reader.py    _Scope (scope.py) < _Refs (refs.py) < _Cast (cast.py), _Patterns (patterns.py) <
             _Steps (steps.py) < Reader (reader.py); each module's docstring names the state its
             part owns. reader.py also holds read_script, load_script and parse_script.
These modules import viz.base, viz.model.scenario, viz.model.schema and viz.model.verbs (the
layout and the corpus are handed in); never compile, the queries or anything above the model.
This file imports nothing: import the module that defines a name.
"""
