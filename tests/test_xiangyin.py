"""鄉飲酒禮 (the second bundled rite): facts of its sections from the text, read off the state JSON
(`state --after CLAUSE --rite 鄉飲酒禮 --json`). Each author's tests are prefixed with his sections."""
from __future__ import annotations

import json

from viz.cli.main import main


def _s17_state(capsys, clause: str, *more: str) -> dict[str, dict]:
    """Everyone present, by id, at the end of the step citing the clause."""
    code = main(["state", "--rite", "鄉飲酒禮", "--after", clause, "--json", *more])
    out, _ = capsys.readouterr()
    assert code == 0
    return {a["id"]: a for a in json.loads(out)["actors"]}


def _s17_holds(actor: dict) -> set[str]:
    return {h["id"] if isinstance(h, dict) else h for h in actor["holding"]}


def test_s17_bin_toasts_the_host_at_the_top_of_his_stair(capsys):
    # 賔 … 阼階上北面酬主人主人降席立于賔東 … 主人受觶賔拜送于主人之西 (注: 旅酬同階禮殺): both on
    # the 堂 at the 阼階, facing north, the 賔 on the west; the 主人 holds the 觶 of 一人舉觶
    who = _s17_state(capsys, "賔拜送于主人之西")
    zhu, bin_ = who["zhuren"], who["bin"]
    assert zhu["region"] == bin_["region"] == "堂"
    assert zhu["facing"]["dir"] == bin_["facing"]["dir"] == "北"
    assert bin_["x"] < zhu["x"] and zhu["x"] > 15 and zhu["y"] < 5
    assert "zhi_lv" in _s17_holds(zhu) and not _s17_holds(bin_)


def test_s18_the_jie_keeps_the_cup_at_the_top_of_the_west_stair(capsys):
    # 主人西階上酬介介降席自南方立于主人之西 … 主人揖復席: the 介 at the 西階上 facing north with the
    # 觶, the 主人 back on his 席 (阼階上西面)
    who = _s17_state(capsys, "主人揖復席")
    jie, zhu = who["jie"], who["zhuren"]
    assert jie["region"] == "堂" and jie["facing"]["dir"] == "北" and "zhi_lv" in _s17_holds(jie)
    assert -25 < jie["x"] < -20 and jie["y"] < 4
    assert zhu["facing"]["dir"] == "西" and zhu["x"] > 20 and not _s17_holds(zhu)


def test_s19_the_first_to_receive_stands_on_the_jie_right(capsys):
    # 司正退立于序端東面; 受酬者自介右 (注: 由介東也尊介使不失故位): with no 遵者 the eldest 衆賔,
    # called, stands east of the 介, both facing north; the 司正 at the 西序端 facing east
    who = _s17_state(capsys, "司正退立于序端東面", "--set", "遵者=0")
    jie, z1, sz = who["jie"], who["zhongbin1"], who["sizheng"]
    assert jie["facing"]["dir"] == z1["facing"]["dir"] == "北"
    assert z1["x"] > jie["x"] and abs(z1["y"] - jie["y"]) < 1
    assert sz["facing"]["dir"] == "東" and sz["region"] == "堂" and sz["x"] < jie["x"]


def test_s19_with_a_dafu_he_drinks_before_the_zhongbin(capsys):
    # 敖繼公: 若有遵者則先衆賔酬之 … 若尊者受介酬亦然自介右: the 大夫 (遵者=1) is called first
    who = _s17_state(capsys, "司正退立于序端東面", "--set", "遵者=1")
    assert who["dafu"]["x"] > who["jie"]["x"] and who["dafu"]["facing"]["dir"] == "北"
    assert who["zhongbin1"]["y"] > 26   # still on his 席


def test_s20_the_cups_are_left_for_the_wusuanjue(capsys):
    # 皆進薦西奠之 … 介則薦南奠之 … 賔介奠于其所 (no 遵者): both back on their 席 empty-handed, the
    # 賔 facing south, the 介 east; the two men gone down
    who = _s17_state(capsys, "賔介奠于其所", "--set", "遵者=0")
    bin_, jie = who["bin"], who["jie"]
    assert bin_["facing"]["dir"] == "南" and not _s17_holds(bin_) and bin_["y"] > 26
    assert jie["facing"]["dir"] == "東" and not _s17_holds(jie)
    assert who["juzhi1"]["region"] == who["juzhi2"]["region"] == "庭"


def test_s21_all_come_down_in_order_after_the_zu(capsys):
    # 衆賔皆降 (敖繼公: 主人降立于阼階東介在賔南大夫在介南衆賔又在大夫南少退): in the 庭, the 賔
    # west of the 西階 facing east, the 介, the 大夫 and the eldest 衆賔 each further south; the 主人
    # east of the 阼階 facing west; the 俎 in their men's hands outside the gate (記: 賔介遵者之俎受者以降
    # 遂出授從者), none in theirs
    who = _s17_state(capsys, "衆賔皆降", "--set", "遵者=1")
    order = [who[i] for i in ("bin", "jie", "dafu", "zhongbin1")]
    assert all(a["region"] == "庭" and a["facing"]["dir"] == "東" for a in order)
    assert order[0]["y"] > order[1]["y"] > order[2]["y"] > order[3]["y"]
    assert who["zhuren"]["facing"]["dir"] == "西" and who["zhuren"]["x"] > 20
    assert not any(_s17_holds(a) for a in order)
    assert [_s17_holds(who[c]) for c in ("congzhe1", "congzhe2", "congzhe3")] == \
        [{"bin_zu"}, {"jie_zu"}, {"dafu_zu"}]


def test_s23_the_host_bows_outside_the_gate_facing_west(capsys):
    # 主人送于門外再拜 (注: 門東西面拜也)
    who = _s17_state(capsys, "主人送于門外再拜", "--set", "遵者=0")
    zhu = who["zhuren"]
    assert zhu["facing"]["dir"] == "西" and zhu["x"] > 0 and zhu["y"] < -91
