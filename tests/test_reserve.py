"""Dutch backgammon and acey-deucey positions through the Python API
(RULES.md section 5): start, reserve, from_arrays, JSON, pickling, the 1-2
roll's ``named`` and ``rolls_again``, and the clear refusals (games: test_reserve_games.py)."""

from __future__ import annotations

import json
import pickle

import pytest

import tavla
from tavla import formats


def side(points=None):
    s = [0] * 25
    for p, n in (points or {}).items():
        s[p - 1] += n
    return s


@pytest.mark.parametrize("variant", ["dutch", "acey_deucey"])
def test_start_has_every_checker_in_reserve(variant):
    p = tavla.Position.start(variant)
    assert p.variant == variant
    assert p.reserve == (15, 15)
    assert p.to_arrays() == ([0] * 25, [0] * 25)
    assert p.off == (0, 0) and p.bar == (0, 0)
    assert p.pip_count() == (375, 375)  # the reserve counts 25 pips a checker, as the bar
    assert not p.is_race() and not p.is_game_over()
    assert eval(repr(p), {"Position": tavla.Position}) == p
    assert pickle.loads(pickle.dumps(p)) == p


def test_other_variants_have_no_reserve():
    assert tavla.Position.start("backgammon").reserve == (0, 0)
    with pytest.raises(ValueError, match="no reserve"):
        tavla.Position.from_arrays("backgammon", side({6: 15}), side({6: 15}), reserve=(1, 0))


def test_from_arrays_counts_the_reserve():
    p = tavla.Position.from_arrays("dutch", side({20: 2, 25: 1}), side({19: 1}), reserve=(10, 14), enter_all_first=False)
    assert p.reserve == (10, 14)
    assert p.off == (2, 0)
    assert p.flip().reserve == (14, 10)
    assert p.rules == {"next_game_starter": "winner", "enter_all_first": False}
    assert eval(repr(p), {"Position": tavla.Position}) == p
    assert pickle.loads(pickle.dumps(p)) == p
    # Same checkers, another reserve: another position.
    assert p != tavla.Position.from_arrays("dutch", side({20: 2, 25: 1}), side({19: 1}), reserve=(9, 14), enter_all_first=False)


@pytest.mark.parametrize(
    "reserve,message",
    [((16, 0), "0 to 15"), ((-1, 0), "0 to 15"), ((13, 0), "16 checkers"), ((1,), "pair"), ("ab", "pair"), ((1.5, 0), "whole number")],
)
def test_bad_reserves_are_named(reserve, message):
    with pytest.raises(ValueError, match=message):
        tavla.Position.from_arrays("dutch", side({6: 3}), side(), reserve=reserve)


def test_enter_all_first_belongs_to_dutch_only():
    with pytest.raises(ValueError, match="enter_all_first"):
        tavla.Position.start("acey_deucey", enter_all_first=True)
    with pytest.raises(ValueError, match="true or false"):
        tavla.Position.start("dutch", enter_all_first="sometimes")


def test_entering_moves_read_as_reserve_steps():
    moves = tavla.Position.start("dutch").legal_moves(6, 5)
    assert [m.steps for m in moves] == [[(26, 19), (26, 20)]] or [sorted(m.steps) for m in moves] == [[(26, 19), (26, 20)]]
    assert "reserve/" in moves[0].notation
    assert moves[0].position.reserve == (13, 15)


def test_one_two_roll_names_a_number():
    p = tavla.Position.start("acey_deucey")
    moves = p.legal_moves(1, 2)
    assert {m.named for m in moves} == {1, 2, 3, 4, 5, 6}
    assert all(m.rolls_again and m.moves_played == 6 for m in moves)
    # One checker left on 2: the 2 bears it off and wins, nothing is named.
    last = tavla.Position.from_arrays("acey_deucey", side({2: 1}), side({6: 15}))
    assert {(m.named, m.rolls_again, m.position.off[0]) for m in last.legal_moves(2, 1)} == {(None, False, 15)}
    # Other rolls and variants name nothing.
    assert all(m.named is None and not m.rolls_again for m in p.legal_moves(6, 6))
    assert all(m.named is None for m in tavla.Position.start("dutch").legal_moves(1, 2))


def test_json_carries_the_reserve():
    p = tavla.Position.from_arrays("acey_deucey", side({20: 2}), side({3: 1}), reserve=(11, 14))
    text = formats.to_json(p)
    data = json.loads(text)
    assert data["variant"] == "acey_deucey"
    assert data["reserve"] == [11, 14]
    assert data["off"] == [2, 0]
    assert formats.parse(text)["position"] == p
    data["reserve"] = [12, 14]
    with pytest.raises(ValueError, match="off\\[0\\]"):
        formats.parse(json.dumps(data))
    assert "reserve" not in json.loads(formats.to_json(tavla.Position.start("nardy")))


def a_middle_position(variant):
    """A few plays into a game: checkers on the board and in reserve on both sides."""
    p = tavla.Position.start(variant)
    for d1, d2 in ((6, 5), (4, 3), (6, 6), (5, 2)):
        plays = p.legal_moves(d1, d2)
        p = plays[len(plays) // 2].position.flip()
    return p


@pytest.mark.parametrize("variant", tavla.RESERVE_VARIANTS)
def test_the_shipped_networks_evaluate_them(variant):
    p = a_middle_position(variant)
    engine = tavla.Engine(variant, ply=0)
    e = engine.evaluate(p)
    assert 0.0 < e.win < 1.0
    # 0-ply is the network's own winning chance (its gammons are capped by its wins).
    assert tavla._core.network_probabilities(p)[0] == pytest.approx(e.win, abs=1e-6)
    with pytest.raises(ValueError, match="array layout has no reserve"):
        p.legal_positions(3, 1)


def test_a_one_two_that_rolls_again_is_hinted_from_the_movers_side():
    # After acey-deucey's 1-2 played in full the same player rolls again, so a hint values that
    # play by the mover's own chances in the position after it, not as the opponent's roll.
    p = a_middle_position("acey_deucey")
    zero = tavla.Engine("acey_deucey", ply=0)
    hints = zero.hint(p, 1, 2, top=500)
    assert any(c.move.rolls_again for c in hints)
    for c in hints:
        after = c.move.position
        value = zero.evaluate(after).equity if c.move.rolls_again else -zero.evaluate(after.flip()).equity
        assert c.equity == pytest.approx(value, abs=1e-5)
    best = tavla.Engine("acey_deucey", ply=1, threads=1).best_move(p, 1, 2)
    assert best.rolls_again and best.named is not None
    # Its notation names the number, so the hint reads as the play it is.
    assert f" named {best.named}: " in best.notation


def test_the_heuristic_evaluates_and_plays_them():
    engine = tavla.Engine("dutch", ply=0, evaluator="heuristic")
    p = tavla.Position.start("dutch")
    assert 0.0 < engine.evaluate(p).win < 1.0
    best = engine.best_move(p, 6, 5)
    assert best.position.reserve == (13, 15)
