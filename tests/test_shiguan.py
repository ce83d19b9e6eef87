"""士冠禮, the third bundled rite (issue 25): it loads by name, passes check --strict, every 經
clause of the sections it stages is cited, and after the first cap the 冠者 wears the 纚 and the
緇布冠 and holds neither."""
from __future__ import annotations

import json

import pytest

from viz.cli.main import main


def _run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_check_strict_clean(capsys):
    code, out = _run(capsys, "check", "--strict", "--rite", "士冠禮")
    assert code == 0, out
    assert "0 warnings" in out


def test_first_cap_is_worn_not_held(capsys):
    code, out = _run(capsys, "state", "--rite", "士冠禮", "--after",
                     "賔右手執項左手執前進容乃祝坐如初乃冠興復位", "--json")
    assert code == 0
    guanzhe = next(a for a in json.loads(out)["actors"] if a["id"] == "guanzhe")
    assert {"纚", "緇布冠"} <= set(guanzhe["wears"])
    assert not {"纚", "緇布冠"} & set(guanzhe["holding"])
    assert guanzhe["place"] == "冠者筵" and guanzhe["facing"]["dir"] == "西"


@pytest.mark.parametrize("section", [1, 8, 9, 10, 11, 12, 13, 14, 15])
def test_staged_sections_cite_every_clause(capsys, section):
    code, out = _run(capsys, "coverage", "--rite", "士冠禮", "--json")
    assert code == 0
    sec = next(s for s in json.loads(out)["sections"] if s["number"] == section)
    missing = [c["id"] for c in sec["clauses"] if c["kind"] == "經" and c["status"] not in ("cited", "noted")]
    assert missing == []
