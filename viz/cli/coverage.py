"""The `coverage` subcommand: each section's clauses and the steps that cite them."""
from __future__ import annotations

import json

from viz.cli.options import _common, load_all, on_rite
from viz.query.coverage import coverage, format_table, to_json


def cmd_coverage(args, spec) -> int:
    """`python main.py coverage [--json] [--strict]`: exit 1 under --strict if a 經 clause is
    missing, else 0."""
    d = load_all(spec)
    cov = coverage(d.script, d.corpus)
    if cov.missing():  # sought in the other scenarios too: a clause a --set enacts is cited
        cov = coverage(d.script, d.corpus, _others(spec, d))
    if args.json:
        print(json.dumps(to_json(cov, spec.script, d.readings), ensure_ascii=False, indent=2))
    else:
        print(format_table(cov, spec.script))
    return 1 if args.strict and cov.missing("經") else 0


def _others(spec, d) -> list:
    """(label, Script) for each other scenario (viz.query.coverage.scenarios) of the rite."""
    from dataclasses import replace

    from viz.model import scenario
    from viz.model.script.reader import load_script
    from viz.model.script.source import read_document
    from viz.query.coverage import scenarios

    doc, _ = read_document(spec.script)
    out = []
    for sets in scenarios(scenario.declared(doc)):
        other = replace(spec, scenario=replace(spec.scenario, sets=sets))
        label = " ".join(f"{k}={v}" for k, v in sets)
        out.append((label, load_script(other, d.layout, d.corpus)))
    return out


def add_commands(sub) -> None:
    """The `coverage` subparser (common: the options every command takes)."""
    cv = sub.add_parser("coverage", help="each section's 經 and 記 clauses, the steps citing "
                                         "each, and those no step cites (noted: a stage's rule "
                                         "gives the reason); --strict: exit 1 if a 經 clause is "
                                         "missing")
    _common(cv)
    cv.add_argument("--json", action="store_true", help="the documented JSON (docs/REFERENCE.md)")
    cv.add_argument("--strict", action="store_true", help="exit 1 if any 經 clause is missing")
    cv.set_defaults(func=on_rite(cmd_coverage))
