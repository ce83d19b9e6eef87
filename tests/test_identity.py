"""Issue 29's refactor changes no behaviour: what valid commands print and write (state --json at 50
moments in each bundled rite, stdout of check/score/coverage/text/find/diff, shot and plate images,
cue sheets, the web page) hashes as recorded in tests/data/identity.json (tools/identity.py).

A difference is re-based only after it was looked at: `python tools/identity.py compare FILE` lists
the outputs that differ; say what differed, and why, in the commit that re-records."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import identity  # noqa: E402

pytestmark = pytest.mark.slow


def test_valid_commands_print_and_write_what_they_did_before_the_refactor():
    recorded = json.loads((ROOT / "tests" / "data" / "identity.json").read_text(encoding="utf-8"))
    assert len(recorded) > 120
    assert identity.compare(recorded, identity.record()) == []


def test_compare_sees_a_changed_output():
    assert identity.compare({"a": "1", "b": "2"}, {"a": "1", "b": "3", "c": "4"}) == ["b", "c"]
