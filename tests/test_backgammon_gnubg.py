"""Backgammon move generation against GNU Backgammon (gnubg-nn) as the oracle.

`scripts/diff_gnubg.py` runs the same comparison on thousands of positions.
"""

from __future__ import annotations

import pytest

import tavla
from tavla.sampling import ALL_ROLLS, random_positions

# Every test here compares with GNU Backgammon: without gnubg-nn the module skips.
gnubg_nn = pytest.importorskip("gnubg_nn")

from diff_gnubg import compare, gnubg_results  # scripts/ is on the path, see conftest.py


def test_random_positions_match_gnubg():
    positions = random_positions("backgammon", 400, seed=12345)
    # The sample really has the hard cases in it.
    assert sum(p.bar[0] > 0 for p in positions) > 50
    assert sum(p.is_race() for p in positions) > 20
    failures = compare(positions)
    assert not failures, failures[:3]


def test_start_position_id_and_opening_counts():
    start = tavla.Position.start("backgammon")
    assert gnubg_nn.position_id([start.to_arrays()[1], start.to_arrays()[0]]) == "4HPwATDgc/ABMA"
    for d1, d2 in ALL_ROLLS:
        assert len(start.legal_moves(d1, d2)) == len(gnubg_results(start, d1, d2))


def test_perft_first_level_matches_gnubg():
    start = tavla.Position.start("backgammon")
    level = set()
    for d1, d2 in ALL_ROLLS:
        for mover, opp in gnubg_results(start, d1, d2):
            level.add((opp, mover))  # the next player's view
    assert len(level) == tavla.perft("backgammon", 1)[0] == 406


@pytest.mark.parametrize("dice", [(6, 6), (5, 5), (1, 1)])
def test_dancing_on_a_closed_board(dice):
    # Opponent holds all six of my entry points: nothing can be played.
    mine = [0] * 25
    mine[24] = 2
    mine[5] = 13
    theirs = [0] * 25
    for p in range(6):
        theirs[p] = 2
    theirs[10] = 3
    pos = tavla.Position.from_arrays("backgammon", mine, theirs)
    moves = pos.legal_moves(*dice)
    assert len(moves) == 1 and moves[0].is_pass() and moves[0].position == pos
    assert gnubg_nn.moves([theirs, mine], *dice) in ((), [])
