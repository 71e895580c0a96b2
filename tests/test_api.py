"""The public Python API of positions and moves, as outside users rely on it."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import tavla
from tavla.sampling import ALL_ROLLS, random_positions


def test_start_positions():
    bg = tavla.Position.start("backgammon")
    mine, theirs = bg.to_arrays()
    assert mine == theirs and mine[23] == 2 and mine[12] == 5 and mine[7] == 3 and mine[5] == 5
    assert bg.variant == "backgammon" and bg.pip_count() == (167, 167) and bg.off == (0, 0)
    nardy = tavla.Position.start("nardy")
    assert nardy.to_arrays()[0][23] == 15 and nardy.rules["fence_rule"] == "ahead"
    gul = tavla.Position.start("gulbara", head_rule=True)
    assert gul.rules["head_rule"] is True and gul.rules["cascade_after_rolls"] == 3


def test_moves_carry_position_steps_and_notation():
    pos = tavla.Position.start("backgammon")
    moves = pos.legal_moves(3, 1)
    by_text = {str(m): m for m in moves}
    assert "8/5 6/5" in by_text
    m = by_text["8/5 6/5"]
    assert sorted(m.steps) == [(6, 5), (8, 5)] and m.moves_played == 2 and m.hits == [False, False]
    mine = m.position.to_arrays()[0]
    assert mine[4] == 2 and mine[7] == 2 and mine[5] == 4
    assert repr(m) == "<Move 8/5 6/5>"


def test_hit_and_bar_notation():
    mine = [0] * 25
    mine[24] = 1
    mine[5] = 14
    theirs = [0] * 25
    theirs[2] = 1  # their 3-point is my 22-point
    theirs[10] = 14
    pos = tavla.Position.from_arrays("backgammon", mine, theirs)
    texts = {str(m) for m in pos.legal_moves(3, 1)}
    assert "bar/22*/21" in texts or "bar/21 6/3" in texts
    hit = next(m for m in pos.legal_moves(3, 1) if (25, 22) in m.steps)
    assert hit.hits[0] and hit.position.bar == (0, 1)


def test_nardy_first_turn_notation():
    texts = sorted(str(m) for m in tavla.Position.start("nardy").legal_moves(3, 3))
    assert texts == ["24/15 24/21", "24/18(2)"]


def test_pass_is_one_empty_move():
    mine = [0] * 25
    mine[24] = 1
    mine[0] = 14
    theirs = [2] * 6 + [0] * 18 + [0]
    theirs[10] = 3
    pos = tavla.Position.from_arrays("backgammon", mine, theirs)
    (m,) = pos.legal_moves(6, 5)
    assert m.is_pass() and m.steps == [] and str(m) == "no move" and m.position == pos


def test_positions_hash_compare_and_pickle():
    a = tavla.Position.start("nardy", fence_rule="none")
    b = tavla.Position.start("nardy", fence_rule="none")
    c = tavla.Position.start("nardy")
    assert a == b and hash(a) == hash(b) and a != c
    assert len({a, b, c}) == 2
    assert pickle.loads(pickle.dumps(a)) == a
    assert "fence_rule=\"none\"" in repr(a)


def test_batch_matches_single_calls():
    positions = random_positions("backgammon", 40, seed=3)
    boards = np.array([p.to_arrays() for p in positions], dtype=np.int8)
    rng = np.random.default_rng(5)
    dice = rng.integers(1, 7, size=(len(positions), 2))
    results, offsets = tavla.legal_positions_many("backgammon", boards, dice)
    assert results.shape == (offsets[-1], 2, 25) and len(offsets) == len(positions) + 1
    for k, (pos, (d1, d2)) in enumerate(zip(positions, dice)):
        single = pos.legal_positions(int(d1), int(d2))
        assert np.array_equal(results[offsets[k] : offsets[k + 1]], single)
    # One thread gives the same answer as many.
    again, offsets1 = tavla.legal_positions_many("backgammon", boards, dice, threads=1)
    assert np.array_equal(again, results) and np.array_equal(offsets1, offsets)


def test_batch_for_every_variant_and_options():
    for variant, rules in [("nardy", {"fence_rule": "none"}), ("gulbara", {"head_rule": True})]:
        positions = random_positions(variant, 10, seed=1, **rules)
        boards = np.array([p.to_arrays() for p in positions])
        dice = np.array([[6, 6]] * len(positions))
        results, offsets = tavla.legal_positions_many(variant, boards, dice, **rules)
        for k, pos in enumerate(positions):
            assert offsets[k + 1] - offsets[k] == len(pos.legal_moves(6, 6))


def test_cascade_step_reports_moves_and_head():
    pos = tavla.Position.start("gulbara", head_rule=True)
    steps = pos.legal_cascade_step(5, count=4, head_used=0)
    assert {m.moves_played for m in steps} == {4}
    assert all(m.head_used == 1 for m in steps)  # one checker from the head: 24/4
    assert [str(m) for m in steps] == ["24/4"]
    # With the head already used earlier in the cascade nothing can move.
    (blocked,) = pos.legal_cascade_step(5, count=4, head_used=1)
    assert blocked.is_pass() and blocked.head_used == 1


def test_all_rolls_from_all_starts():
    for variant in tavla.VARIANTS:
        pos = tavla.Position.start(variant)
        for d1, d2 in ALL_ROLLS:
            moves = pos.legal_moves(d1, d2)
            assert moves and len(moves) == len(pos.legal_moves(d2, d1))


def test_an_evaluation_from_five_probabilities_has_the_one_equity():
    e = tavla.Evaluation([0.6, 0.2, 0.05, 0.1, 0.01])
    assert e.equity == pytest.approx(2 * 0.6 - 1 + 0.2 - 0.1 + 0.05 - 0.01, abs=1e-6)
    assert e.invert().equity == pytest.approx(-e.equity, abs=1e-6)
    assert e.invert().win == pytest.approx(0.4)
    for bad, says in (([0.5] * 4, "five probabilities, not 4"), ([0.5, 0.1, 0.0, 0.1, 1.5], "probability 4 is 1.5"),
                      ("nope", "five probabilities")):
        with pytest.raises(ValueError, match=says):
            tavla.Evaluation(bad)
