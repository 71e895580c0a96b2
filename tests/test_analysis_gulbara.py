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


def test_cube_decisions_take_the_roll_count():
    """Above 0-ply a cube decision searches the coming roll: in gul bara's first three rolls its
    doubles are ordinary doubles, after them cascades (RULES.md 4), and the equities change with it."""
    engine = tavla.Engine("gulbara", ply=1)
    pos = tavla.Position.start("gulbara")
    cube = tavla.CubeState()
    first, third, fourth, late = (engine.cube_decision(pos, cube, rolls=r) for r in (0, 2, 3, None))
    assert (first.no_double, first.double_take) == (third.no_double, third.double_take)
    assert (fourth.no_double, fourth.double_take) == (late.no_double, late.double_take)
    assert abs(first.no_double - late.no_double) > 1e-4 and abs(first.double_take - late.double_take) > 1e-4
    for bad in (-1, True, "3", 1.5):
        with pytest.raises(ValueError, match="rolls"):
            engine.cube_decision(pos, cube, rolls=bad)


class _Recording:
    """An engine that records the roll count of each cube decision and the cube of each share asked
    of it."""

    def __init__(self, engine: tavla.Engine):
        self.engine, self.rolls, self.shares = engine, [], []

    def cube_decision(self, position, cube, rolls=None):
        self.rolls.append(rolls)
        return self.engine.cube_decision(position, cube, rolls=rolls)

    def handover(self, position, handover, cube=None):
        self.shares.append((position, handover, cube))
        return self.engine.handover(position, handover, cube=cube)

    def __getattr__(self, name):
        return getattr(self.engine, name)


def test_the_analysis_asks_cube_decisions_in_the_turn_drivers_state(engine):
    g = tavla.Game("gulbara", seed=5)
    g.decide_starter()
    while g.rolls < 5:
        g.roll(DICE[g.rolls])
        while g.phase == "move":
            g.play(g.legal_moves()[0])
    recording = _Recording(engine)
    decisions = analysis.analyze_game(recording, g)
    asked = recording.rolls
    assert len(asked) == sum(d.kind in ("double", "no double") for d in decisions) >= 3
    assert asked == sorted(asked) and asked[0] < 3 and None not in asked


# A sharer's position and handover (found in sampled gul bara positions) where the share of the
# Crawford game's leader differs from the cubeless choice: its winning gammons are worth nothing to it.
# (Found again for each shipped network, by a search of self-play positions from seed 11, random
# plays, games seeded 11 on: whether the shares differ depends on the network.)
SHARER = ([0, 0, 0, 2, 4, 1, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0],
          [2, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
HANDOVER = [(2, 1), (3, 4), (4, 4), (5, 4), (6, 4)]


def test_a_share_with_the_cube_is_chosen_by_the_sharers_cube_decision(engine):
    """With the sharer's cube the share is its best by its cube decision afterwards (where it rolls
    next); a dead cube in money play is cubeless and leaves the choice as it was."""
    sharer = tavla.Position.from_arrays("gulbara", *SHARER)
    crawford = tavla.CubeState(match_length=7, score=(6, 2), crawford=True)
    plain = engine.handover(sharer, HANDOVER)
    share = engine.handover(sharer, HANDOVER, cube=crawford)
    assert share.position != plain.position

    def value(m: tavla.Move) -> float:
        return engine.cube_decision(m.position, crawford).equity

    assert value(share) > value(plain) + 0.01
    assert engine.handover(sharer, HANDOVER, cube=tavla.CubeState(max_cube=1)).position == plain.position


# Seen from the player on roll: its best 4-4 cascade passes 5x2 6x4 to the opponent.
STUCK = tavla.Position.from_arrays("gulbara", [0, 0, 3, 0, 3, 0, 2, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 4, 0],
                                   [0, 1, 1, 0, 2, 0, 3, 0, 3, 0, 0, 0, 0, 1, 0, 1, 0, 2, 0, 1, 0, 0, 0, 0, 0])


def test_the_analysis_judges_shares_with_the_sharers_cube(engine):
    """A game whose 4-4 cascade hands 5x2 6x4 over, the sharer playing its first listed steps: the
    share is judged with the sharer's cube state, its error the difference of the cube decisions'
    equities after the engine's share and after the played one (where the sharer rolls next)."""
    from tavla import formats

    g = tavla.Game.from_position(formats.to_json(STUCK, turn=0, dice=(4, 4)), rolls=10, seed=1)
    for _, step in engine.best_move(STUCK, 4, 4, rolls=10).cascade_steps:
        g.play(next(m for m in g.legal_moves() if m.position == step.position))
    assert g.is_cascade_handover and g.turn == 1
    while g.phase == "move":
        g.play(g.legal_moves()[0])
    recording = _Recording(engine)
    shares = [d for d in analysis.analyze_game(recording, g) if "(share of" in d.played]
    assert len(shares) == 1 and len(recording.shares) == 1
    position, handover, cube = recording.shares[0]
    assert handover == [(5, 2), (6, 4)] and isinstance(cube, tavla.CubeState)
    best = engine.handover(position, handover, cube=cube)
    lost = engine.cube_decision(best.position, cube).equity - engine.cube_decision(g.position, cube).equity
    assert lost > 0.01 and shares[0].error == pytest.approx(lost, abs=1e-6)
