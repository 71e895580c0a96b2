"""Gul bara analysis: a game the engine played itself (ordinary doubles in the first rolls, cascades
after them, the opponent's share of a handover) analysed decision by decision."""

from __future__ import annotations

import pytest

import tavla
from tavla import analysis
from tavla.play import checked_plan

# The dice of the first turns: 2-2 is the game's first roll (an ordinary double, RULES.md 4), then
# cascades: 5-5 late enough to run to the sixes, 1-1 from a spread position (likely a handover).
DICE = [(2, 2), (6, 5), (4, 3), (5, 5), (6, 1), (1, 1), (3, 2), (4, 4), (2, 1)]


def _engine_played_game(engine: tavla.Engine, rolls: int) -> tavla.Game:
    """A gul bara game the engine plays for both sides (cubeless), each cascade part and share chosen
    whole as the engine plays them, for ``rolls`` rolls (the first ones from DICE)."""
    g = tavla.Game("gulbara", seed=5, cube=False)
    g.decide_starter()
    plan: list = []
    while not g.is_over and g.rolls < rolls:
        if g.phase == "roll":
            g.roll(DICE[g.rolls] if g.rolls < len(DICE) else None)
            continue
        if g.cascade_step is None:
            best = engine.best_move(g.position, *g.dice, rolls=g.rolls_before)
            g.play(next(m for m in g.legal_moves() if m.position == best.position))
            continue
        if not plan:
            die = g.cascade_step[0]
            part = (engine.handover(g.position, g.cascade_left) if g.is_cascade_handover
                    else engine.best_move(g.position, die, die, rolls=g.rolls_before))
            plan = checked_plan(g, part) or []
            assert plan, "the engine's cascade plan is legal"
        _, target = plan.pop(0)
        g.play(next(m for m in g.legal_moves() if m.position == target))
    return g


@pytest.fixture(scope="module")
def engine():
    return tavla.Engine("gulbara", ply=0)


@pytest.fixture(scope="module")
def played(engine):
    return _engine_played_game(engine, 14)


def test_every_decision_of_an_engine_game_is_judged_and_the_engines_own_plays_lose_nothing(engine, played):
    steps = [e for e in played.history if e["type"] == "move" and "step" in e]
    assert steps, "the game has a cascade"
    decisions = analysis.analyze_game(engine, played)
    moves = [d for d in decisions if d.kind == "move"]
    assert len(moves) >= 8
    assert all(d.error == 0.0 for d in moves), [(d.played, d.best, d.error) for d in moves if d.error]
    # The 2-2 of the second roll is an ordinary double, judged as one (no cascade steps).
    early = next(d for d in moves if d.dice == (2, 2))
    assert "2-2:" not in early.best and "3-3:" not in early.played
    cascades = [d for d in moves if d.dice == (5, 5) or d.dice == (1, 1)]
    assert cascades and all(d.best.startswith(f"{d.dice[0]}-{d.dice[0]}:") for d in cascades)


def test_a_worse_cascade_part_loses_equity(engine):
    """The same game with the mover's part of the first cascade played otherwise: its error is
    positive, and no other decision changes sign."""
    g = tavla.Game("gulbara", seed=5, cube=False)
    g.decide_starter()
    for dice in DICE[:4]:
        g.roll(dice)
        while g.phase == "move":
            legal = g.legal_moves()
            g.play(legal[-1])  # the last listed play: not the engine's choice here
    decisions = [d for d in analysis.analyze_game(engine, g) if d.kind == "move"]
    assert all(d.error >= 0.0 for d in decisions)
    part = next(d for d in decisions if d.dice == (5, 5))
    assert part.error > 0.0 and part.played != part.best
