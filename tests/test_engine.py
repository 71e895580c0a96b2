"""The evaluation and search layer from Python: Engine, pubeval against
gnubg_nn's implementation, the duel harness and the bench. Only the tests that
compare with GNU Backgammon take the gnubg_nn fixture (tests/conftest.py) and
skip without gnubg-nn."""

from __future__ import annotations

import math
import random

import pytest

import tavla
from tavla._core import _game_result, _pubeval_score
from tavla.cli import main


def random_positions(variant: str, n: int, seed: int = 1):
    """Positions along seeded random games, with a roll each."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        pos = tavla.Position.start(variant)
        for _ in range(80):
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            out.append((pos, d1, d2))
            m = rng.choice(pos.legal_moves(d1, d2))
            if _game_result(m.position) is not None:
                break
            pos = m.position.flip()
    return out[:n]


def apply_gnubg_move(pos: tavla.Position, steps: list[int]):
    """The arrays after gnubg's 0-based (from, to) steps; 24 = bar, negative = off."""
    mine, theirs = (list(a) for a in pos.to_arrays())
    for f, t in zip(steps[::2], steps[1::2]):
        mine[f] -= 1
        if t >= 0:
            mine[t] += 1
            if theirs[23 - t] == 1:
                theirs[23 - t] = 0
                theirs[24] += 1
    return mine, theirs


def test_pubeval_score_matches_gnubg(gnubg_nn):
    for pos, d1, d2 in random_positions("backgammon", 150):
        for m in pos.legal_moves(d1, d2)[:3]:
            q = m.position
            mine, theirs = q.to_arrays()
            # gnubg scores the owner of board[0]; ours scores the mover.
            assert _pubeval_score(q.flip()) == pytest.approx(gnubg_nn.pub_eval_score([theirs, mine]), abs=1e-3)


def test_pubeval_zero_ply_plays_gnubgs_pubeval_move(gnubg_nn):
    engine = tavla.Engine("backgammon", 0, evaluator="pubeval")
    checked = 0
    for pos, d1, d2 in random_positions("backgammon", 200, seed=2):
        moves = pos.legal_moves(d1, d2)
        if len(moves) < 2 or any(m.position.is_race() != pos.is_race() for m in moves):
            continue  # pubeval picks weights by the position before the move
        mine, theirs = pos.to_arrays()
        theirs_move = apply_gnubg_move(pos, list(gnubg_nn.pub_best_move([theirs, mine], d1, d2)))
        ours = engine.best_move(pos, d1, d2)
        ours_score = _pubeval_score(ours.position, pos.is_race())
        match = next(m for m in moves if m.position.to_arrays() == theirs_move)
        # Equal scores may break ties differently; the scores must agree.
        assert ours_score == pytest.approx(_pubeval_score(match.position, pos.is_race()), abs=1e-4)
        checked += 1
    assert checked > 100


def test_engine_api_shapes_and_consistency():
    pos = tavla.Position.start("backgammon")
    for variant in tavla.VARIANTS:
        start = tavla.Position.start(variant)
        for ply in (0, 1):
            e = tavla.Engine(variant, ply=ply).evaluate(start)
            assert 0.3 < e.win < 0.7
            assert 0 <= e.win_backgammon <= e.win_gammon <= e.win
            assert 0 <= e.lose_backgammon <= e.lose_gammon <= 1 - e.win
            eq = 2 * e.win - 1 + e.win_gammon - e.lose_gammon + e.win_backgammon - e.lose_backgammon
            assert e.equity == pytest.approx(eq, abs=1e-5)
    engine = tavla.Engine("backgammon", ply=1)
    hints = engine.hint(pos, 3, 1, top=4)
    assert len(hints) == 4
    assert hints[0].diff == 0 and all(h.diff <= 0 for h in hints)
    assert hints[0].equity == pytest.approx(hints[0].evaluation.equity, abs=1e-5)
    assert str(hints[0].move) in {str(m) for m in pos.legal_moves(3, 1)}
    best = engine.best_move(pos, 3, 1)
    assert best.position == hints[0].move.position
    assert str(tavla.Engine("backgammon", 0).best_move(pos, 3, 1)) == "8/5 6/5"


def test_engine_errors_are_value_errors():
    pos = tavla.Position.start("backgammon")
    with pytest.raises(ValueError, match="die 7"):
        tavla.Engine("backgammon").best_move(pos, 7, 1)
    with pytest.raises(ValueError, match="nardy"):
        tavla.Engine("nardy").evaluate(pos)
    with pytest.raises(ValueError, match="pubeval"):
        tavla.Engine("nardy", evaluator="pubeval")
    with pytest.raises(ValueError, match="ply"):
        tavla.Engine("backgammon", ply=9)
    with pytest.raises(ValueError, match="no_such_option"):
        tavla.Engine("backgammon", no_such_option=1)
    with pytest.raises(ValueError, match="unknown evaluator"):
        tavla.Engine("backgammon", evaluator="deep-thought")


def test_game_over_and_bearoff_are_exact():
    mine = [0] * 25
    theirs = [0] * 25
    mine[0] = 1
    theirs[5] = 15
    pos = tavla.Position.from_arrays("backgammon", mine, theirs)
    e = tavla.Engine("backgammon", ply=2).evaluate(pos)
    # One checker on my 1 point, on roll: a certain gammon for me.
    assert (e.win, e.win_gammon, e.equity) == (pytest.approx(1), pytest.approx(1), pytest.approx(2))
    # One checker on my 6 point against one on their 1: 27/36 (no roll fails twice).
    mine = [0] * 25
    theirs = [0] * 25
    mine[5] = 1
    theirs[0] = 1
    pos = tavla.Position.from_arrays("backgammon", mine, theirs)
    assert tavla.Engine("backgammon").evaluate(pos).win == pytest.approx(27 / 36, abs=1e-6)
    assert tavla.Engine("nardy").evaluate(tavla.Position.from_arrays("nardy", mine, theirs)).win == pytest.approx(27 / 36, abs=1e-6)


def _backgammon(mine: dict[int, int], theirs: dict[int, int]) -> tavla.Position:
    """A position from {point: checkers} for each side, in its owner's numbering."""
    arrays = ([0] * 25, [0] * 25)
    for side, points in zip(arrays, (mine, theirs)):
        for point, n in points.items():
            side[point - 1] = n
    return tavla.Position.from_arrays("backgammon", *arrays)


@pytest.mark.parametrize("ply", [0, 1])
def test_results_the_rules_rule_out_are_never_estimated(ply):
    engine = tavla.Engine("backgammon", ply=ply)
    # I have borne off two checkers, and two of theirs still hold my 1 point
    # behind mine: I can lose only a single game, they can still be caught.
    e = engine.evaluate(_backgammon({2: 5, 3: 8}, {24: 2, 1: 13}))
    assert e.lose_gammon == 0 and e.lose_backgammon == 0
    assert e.win_gammon > 0
    # A race with no checker in the other's home: nobody is caught.
    e = engine.evaluate(_backgammon({7: 5, 10: 10}, {8: 5, 11: 10}))
    assert e.win_backgammon == 0 and e.lose_backgammon == 0
    assert e.win_gammon > 0 or e.lose_gammon > 0


def test_bearoff_command_and_one_sided_table(capsys):
    from tavla._core import _bearoff_info

    # Two checkers on the 6 point: 4/36 in one roll (3-3 to 6-6), else two.
    _, dist, mean = _bearoff_info("backgammon", [0, 0, 0, 0, 0, 2])
    assert dist[1] == pytest.approx(4 / 36) and sum(dist) == pytest.approx(1)
    assert main(["bearoff", "--home", "1,0,0,0,0,0"]) == 0
    assert "1 rolls: 1.000000" in capsys.readouterr().out
    with pytest.raises(ValueError, match="6 counts"):
        _bearoff_info("backgammon", [1, 2, 3])
    with pytest.raises(ValueError, match="exact_bearoff"):
        _bearoff_info("gulbara", [0, 0, 0, 0, 0, 1], exact_bearoff=True)


def test_one_sided_bearoff_agrees_with_gnubg(gnubg_nn):
    from tavla._core import _bearoff_info

    # The one-sided table agrees with gnubg's bear-off database.
    rng = random.Random(5)
    for _ in range(60):
        n = rng.randint(1, 15)
        home = [0] * 6
        for _ in range(n):
            home[rng.randrange(6)] += 1
        _, dist, _ = _bearoff_info("backgammon", home)
        theirs = gnubg_nn.bearoff_probabilities(tuple(home))
        assert dist[1:] == pytest.approx(list(theirs) + [0.0] * (len(dist) - 1 - len(theirs)), abs=2e-4), home


def test_gnubg_player_reads_its_move_back(gnubg_nn):
    from tavla.duel import GnubgPlayer

    player = GnubgPlayer(0)
    for pos, d1, d2 in random_positions("backgammon", 40, seed=3):
        assert player(pos, d1, d2) in pos.legal_moves(d1, d2)


def test_duel_heuristic_beats_random_and_is_reproducible():
    r = tavla.duel("backgammon", "heuristic:0", "random", games=20, seed=1)
    assert r.games == 20 and r.mean > 0.5 and r.ci95 > 0
    again = tavla.duel("backgammon", "heuristic:0", "random", games=20, seed=1)
    assert again.points == r.points


def test_duel_summary_without_an_interval_says_so_rather_than_nan(capsys):
    from tavla.duel import DuelResult

    one_pair = DuelResult("backgammon", ("random", "random"), [1, -2], (0.0, 0.0))
    assert math.isnan(one_pair.ci95)
    text = one_pair.summary()
    assert "nan" not in text and "-0.500 points/game for random (no interval: too few pairs)" in text
    two_pairs = DuelResult("backgammon", ("random", "random"), [1, -2, 2, 1], (0.0, 0.0))
    assert f"+0.500 ± {two_pairs.ci95:.3f} points/game" in two_pairs.summary()
    assert main(["duel", "random", "random", "--games", "2", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "nan" not in out and "too few pairs" in out


def test_duel_cascade_width_reaches_both_players():
    narrow = tavla.duel("gulbara", "network:0", "heuristic:0", games=6, seed=2, cascade_width=4)
    engines = [tavla.Engine("gulbara", 0, evaluator=e, cascade_width=4) for e in ("network", "heuristic")]
    assert tavla.duel("gulbara", *engines, games=6, seed=2).points == narrow.points
    with pytest.raises(ValueError, match="cascade width"):
        tavla.duel("gulbara", "network:0", "heuristic:0", games=2, cascade_width=0)
    assert main(["duel", "network:0", "random", "--variant", "gulbara", "--games", "2", "--cascade-width", "4",
                 "--no-progress"]) == 0


def test_duel_with_gnubg(gnubg_nn):
    g = tavla.duel("backgammon", "gnubg:0", "random", games=2, seed=1)
    assert g.games == 2 and all(abs(p) in (1, 2, 3) for p in g.points)
    assert main(["duel", "gnubg", "random", "--games", "2", "--rule", "x=1"]) == 2


def test_cli_duel_and_bench(capsys):
    assert main(["duel", "heuristic:0", "random", "--variant", "gulbara", "--games", "4"]) == 0
    assert "points/game" in capsys.readouterr().out
    assert main(["bench", "--variant", "nardy", "--plies", "0", "1"]) == 0
    out = capsys.readouterr().out
    assert "nodes/s" in out
    assert main(["duel", "gnubg", "random", "--variant", "nardy", "--games", "2"]) == 2
    rule = ["--rule", "cascade_after_rolls=200", "--no-progress"]
    assert main(["duel", "pips:0", "random", "--variant", "gulbara", "--games", "2", *rule]) == 0
