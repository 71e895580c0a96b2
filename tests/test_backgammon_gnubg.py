"""Backgammon move generation against GNU Backgammon (gnubg-nn) as the oracle.

`scripts/diff_gnubg.py` runs the same comparison on thousands of positions.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import tavla
from tavla import formats
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


@pytest.mark.parametrize("random_frac", [0.0, 1 / 6, 1.0])
def test_gnubg_selfplay_passes_the_turn_after_every_play(random_frac):
    """The self-play behind the cube set and gnubg_positions.py: after each play the other side is
    on roll, its checkers as they were except those hit (best_move's board and the keys of
    moves() name the two sides in opposite orders; reading both alike let one side move on)."""
    from gnubg_cube_fixture import selfplay_positions

    from tavla import formats

    positions = [formats.parse(pid)["position"] for pid in selfplay_positions(30, seed=7, random_frac=random_frac)]
    for before, after in zip(positions, positions[1:]):  # 30 positions: all in the first game
        waiting, now_on_roll = before.to_arrays()[1], after.to_arrays()[0]
        hit = [was - now for was, now in zip(waiting[:24], now_on_roll[:24])]
        assert all(h >= 0 for h in hit) and now_on_roll[24] == waiting[24] + sum(hit), (before, after)
        assert before.off[1] == after.off[0]


def test_gnubg_positions_file_keeps_unseen_contact_positions(tmp_path):
    import json

    import numpy as np
    from gnubg_positions import CUBE_SET, main

    out = tmp_path / "contact.npy"
    assert main(["--positions", "400", "--seed", "5", "--out", str(out)]) == 0
    boards = np.load(out)
    assert boards.dtype == np.int8 and boards.ndim == 3 and boards.shape[1:] == (2, 25) and len(boards) > 100
    positions = [tavla.Position.from_arrays("backgammon", mine, theirs) for mine, theirs in boards.tolist()]
    assert not any(p.is_race() for p in positions)
    assert len({tuple(b.ravel()) for b in boards}) == len(boards)
    from tavla import formats

    cube_set = {case["position_id"] for case in json.loads(CUBE_SET.read_text())["positions"]}
    assert not cube_set & {formats.position_id(p) for p in positions}
    with pytest.raises(SystemExit, match="--positions"):
        main(["--positions", "0", "--out", str(out)])
    # --kind race keeps the races of the same self-play instead, each once, none of them the cube set's.
    races = tmp_path / "races.npy"
    assert main(["--kind", "race", "--positions", "400", "--seed", "5", "--out", str(races)]) == 0
    race_boards = np.load(races)
    race_positions = [tavla.Position.from_arrays("backgammon", mine, theirs) for mine, theirs in race_boards.tolist()]
    assert len(race_positions) > 10 and all(p.is_race() and not p.is_game_over() for p in race_positions)
    assert len({tuple(b.ravel()) for b in race_boards}) == len(race_boards)
    assert not cube_set & {formats.position_id(p) for p in race_positions}


def test_crashed_positions_are_gnubgs_crashed_class():
    # The cube set's 1,600 positions carry gnubg's own class (109 crashed), and self-play
    # positions of tavla's network crash about one contact position in nine: the engine's
    # `is_crashed` (which picks the crashed network) must be gnubg's class on all of them.
    cases = json.loads((Path(__file__).resolve().parent.parent / "benches" / "positions" / "cube-backgammon.json").read_text())["positions"]
    positions = [formats.parse(case["position_id"])["position"] for case in cases]
    assert sum(case["gnubg_class_name"] == "crashed" for case in cases) > 100
    assert [p.is_crashed() for p in positions] == [case["gnubg_class_name"] == "crashed" for case in cases]
    # Self-play of the network at 0-ply, one play in five random (so games stray and crash).
    engine, rng, seen = tavla.Engine("backgammon", ply=0), random.Random(5), []
    while len(seen) < 3000:
        pos = tavla.Position.start("backgammon")
        while not pos.is_game_over():
            seen.append(pos)
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            play = rng.choice(pos.legal_moves(d1, d2)) if rng.random() < 0.2 else engine.best_move(pos, d1, d2)
            pos = play.position.flip()
    assert sum(p.is_crashed() for p in seen) > 100
    for p in seen:
        mine, theirs = p.to_arrays()
        assert p.is_crashed() == (gnubg_nn.classify([list(theirs), list(mine)]) == gnubg_nn.c_crashed), p
