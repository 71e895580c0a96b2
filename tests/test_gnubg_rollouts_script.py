"""scripts/gnubg_rollouts.py's own logic (no gnubg run): reading gnubg's rollout output, the
comparison and the position sample."""

from __future__ import annotations

import json

import pytest

import gnubg_rollouts as gr

# What gnubg 1.07 prints on a terminal for one marked rollout (progress, then the final block).
OUTPUT = """\
TAVLA-ROLLOUT h67g4ACYKTzADQ\r
\r
Current Position:\r
  0.62100 0.19600 0.01200 - 0.37900 0.09600 0.00200 CL +0.35200\r
 [0.01400 0.01400 0.00300 - 0.01400 0.01400 0.00100 CL  0.04100] 1r\r
Full cubeless rollout with variance reduction\r
\r
Rollout done. Printing final results.\r
\r
Current Position:\r
  0.63412 0.21100 0.01500 - 0.36588 0.09400 0.00300 CL +0.39812\r
 [0.01100 0.01400 0.00300 - 0.01100 0.01000 0.00100 CL  0.03205] 1r\r
36 games, Mersenne Twister dice gen. with seed 7 and quasi-random dice\r
TAVLA-ROLLOUT HgAAoAUAAAAAAA\r
Rollout done. Printing final results.\r
Current Position:\r
  0.83964 0.00000 0.00000 - 0.16036 0.00000 0.00000 CL +0.67928\r
 [0.00000 0.00000 0.00000 - 0.00000 0.00000 0.00000 CL  0.00000] 1r\r
"""


def test_the_final_block_of_each_marked_rollout_is_read():
    got = gr.parse_gnubg(OUTPUT)
    assert list(got) == ["h67g4ACYKTzADQ", "HgAAoAUAAAAAAA"]
    first = got["h67g4ACYKTzADQ"]  # the final numbers, not the progress line before them
    assert first.equity == pytest.approx(0.39812) and first.error == pytest.approx(0.03205)
    assert first.probabilities == pytest.approx((0.63412, 0.211, 0.015, 0.094, 0.003))
    assert got["HgAAoAUAAAAAAA"].error == 0.0


def test_a_rollout_without_its_final_block_is_an_error_naming_it():
    cut = OUTPUT.split("TAVLA-ROLLOUT HgAA")[0] + "TAVLA-ROLLOUT HgAAoAUAAAAAAA\r\nCurrent Position:\r\n"
    with pytest.raises(ValueError, match="HgAAoAUAAAAAAA"):
        gr.parse_gnubg(cut)
    garbled = OUTPUT.replace("CL +0.67928", "CL")
    with pytest.raises(ValueError, match="HgAAoAUAAAAAAA"):
        gr.parse_gnubg(garbled)


def test_the_difference_is_counted_in_combined_standard_errors():
    ours, theirs = gr.Rollout(0.53, 0.003, ()), gr.Rollout(0.52, 0.004, ())
    diff, combined, z = gr.difference(ours, theirs)
    assert diff == pytest.approx(0.01) and combined == pytest.approx(0.005, abs=1e-8) and z == pytest.approx(2.0, abs=1e-5)
    # Two exact rollouts (variance-reduced bear-offs): only gnubg's rounding is left.
    _, combined, z = gr.difference(gr.Rollout(0.679279, 0.0, ()), gr.Rollout(0.67928, 0.0, ()))
    assert combined == gr.RESOLUTION and abs(z) < 1
    rows = [{"kind": "race", "z": 1.0}, {"kind": "race", "z": -2.5}, {"kind": "contact", "z": 0.2}]
    assert gr.summary(rows) == {"race": (1, 2), "contact": (1, 1), "all": (2, 3)}


def test_the_sample_is_seeded_distinct_and_by_kind():
    cases = json.loads(gr.POSITIONS.read_text())["positions"]
    a = gr.pick_positions(cases, 3, seed=1)
    assert a == gr.pick_positions(cases, 3, seed=1)
    assert [p["kind"] for p in a] == ["bearoff"] * 3 + ["race"] * 3 + ["contact"] * 3
    assert len({p["position_id"] for p in a}) == 9
    assert a != gr.pick_positions(cases, 3, seed=2)
    with pytest.raises(ValueError, match="bearoff"):
        gr.pick_positions(cases, 10**6, seed=1)
