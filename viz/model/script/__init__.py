"""The rite script read: a rite folder (or one file) → schema and meaning checks → Script.

reader.py holds it all for now (read_script, load_script, parse_script, the data classes, the
structure checks). This package's modules import viz.base, viz.text and the rest of viz.model
(scenario, schema, verbs); nothing here imports compile, the queries or anything above.
This file imports nothing: import the module that defines a name.
"""
