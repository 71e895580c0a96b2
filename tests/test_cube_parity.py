"""tavla's 0-ply cube formulas against GNU Backgammon 1.07 on equal probabilities.

tests/data/gnubg_cube_parity.json holds gnubg's own 0-ply cubeless probabilities and its
cubeful no double / double-take / double-pass equities for positions of every class and
for money (centered and owned cubes, Jacoby, beavers) and match play (lengths 3 to 25,
Crawford, post-Crawford, dead cubes). It was made by `python3 scripts/gnubg_cube_fixture.py`
(gnubg as an oracle only: the numbers are facts about its output). Feeding the same
probabilities to tavla's formulas must give the same equities to 1e-4 and the same cube
efficiency and action.

Small two-sided bear-offs (gnubg's class 4, at most six checkers a side) are answered by
both engines from exact cubeful money tables instead of the formulas (tavla's
src/cube/bearoff.rs, solved independently), and in match play by the cube efficiency those
exact money values imply. Left out: gnubg's cubes owned at value 1, which tavla refuses as
impossible.
"""

import json
from pathlib import Path

import pytest

import tavla
from tavla import _core, formats

FIXTURE = Path(__file__).parent / "data" / "gnubg_cube_parity.json"
CASES = [
    c
    for c in json.loads(FIXTURE.read_text())["cases"]
    if not (c["cube"]["value"] == 1 and c["cube"]["owner"])
]

# gnubg's words -> tavla's (tavla names no separate "redouble" form of "too good", and
# says "no double available" in the Crawford game, where gnubg calls the cube dead).
WORDS = {
    "too good to double, pass": "too good, pass",
    "too good to redouble, pass": "too good, pass",
    "too good to double, take": "too good, take",
    "too good to redouble, take": "too good, take",
    "never double, take (dead cube)": "no double, take (dead cube)",
    "never redouble, take (dead cube)": "no redouble, take (dead cube)",
    "unknown cube decision": "no double available",
}


def tavla_words(case: dict) -> str:
    words = case["decision_text"].lower()
    if case["cube"]["crawford"]:
        return "no double available"
    return WORDS.get(words, words)


def test_the_fixture_covers_the_cases():
    groups = {(c["cube"]["match_length"] > 0, c["cube"]["owner"], c["cube"]["crawford"]) for c in CASES}
    assert len(CASES) >= 250
    assert (False, None, False) in groups and (False, "me", False) in groups and (False, "opponent", False) in groups
    assert (True, None, True) in groups and (True, "me", False) in groups
    assert any(c["cube"]["jacoby"] for c in CASES) and any(c["cube"]["beaver"] for c in CASES)
    assert {c["gnubg_class_name"] for c in CASES} >= {"contact", "crashed", "race", "bearoff1", "bearoff2"}


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['position_id']}-{c['cube']['match_length']}-{c['cube']['value']}")
def test_zero_ply_cube_formulas_agree_with_gnubg(case):
    pos = formats.parse(case["position_id"])["position"]
    assert pos.pip_count() == tuple(case["pips"])
    cube = tavla.CubeState(**case["cube"])
    p = case["probs"]
    d = _core._cube_decision_from(
        pos, (p["win"], p["win_gammon"], p["win_backgammon"], p["lose_gammon"], p["lose_backgammon"]), cube
    )
    if case["gnubg_class"] != 4:
        assert _core._cube_efficiency(pos) == pytest.approx(case["cube_efficiency"], abs=1e-9)
    assert d.no_double == pytest.approx(case["no_double"], abs=1e-4)
    assert d.double_take == pytest.approx(case["double_take"], abs=1e-4)
    assert d.double_pass == pytest.approx(case["double_pass"], abs=1e-4)
    if case["cube"]["match_length"]:
        mwc = case["mwc"]
        assert d.mwc == pytest.approx((mwc["no_double"], mwc["double_take"], mwc["double_pass"]), abs=1e-4)
    assert d.action == tavla_words(case)
