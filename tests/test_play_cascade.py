"""Gul bara cascades in ``tavla play`` (RULES.md 4): the engine chooses its whole part of a cascade
once (``Engine.best_move`` with the game's rolls) and plays it step by step, plays its share of the
person's handover with ``Engine.handover``, treats doubles in the game's first rolls as ordinary plays,
and the person's ``hint`` during a cascade shows the engine's advice for the whole rest of it.

The engine is player 1 and the person player 0.
"""

import io
import sys

import pexpect
import pytest

import tavla
from tavla import formats
from tavla.play import EnginePlayer, Session, Table


GB = "gulbara"
# Seen from the player on roll: a 4-4 cascade is played in full (4, 5 and 6).
OPEN = tavla.Position.from_arrays(GB, [0] * 5 + [3, 2, 2] + [0] * 4 + [2, 2, 2, 2] + [0] * 9,
                                  [0] * 11 + [3, 3, 3, 3, 3] + [0] * 9)
# Seen from the player on roll: its best 4-4 cascade passes 5x2 6x4 to the opponent.
STUCK = tavla.Position.from_arrays(GB, [0, 0, 3, 0, 3, 0, 2, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 4, 0],
                                   [0, 1, 1, 0, 2, 0, 3, 0, 3, 0, 0, 0, 0, 1, 0, 1, 0, 2, 0, 1, 0, 0, 0, 0, 0])


class Spy:
    """The engine, with each call recorded as (name, the game's cascade step then, whether it is a
    handover, the call's rolls, the game's dice), and each call's cube in ``cubes``."""

    def __init__(self, engine, table):
        self.engine, self.table, self.calls, self.cubes = engine, table, [], []

    def __getattr__(self, name):
        method = getattr(self.engine, name)

        def call(*args, **kwargs):
            g = self.table.game
            self.calls.append((name, g.cascade_step, g.is_cascade_handover, kwargs.get("rolls"), g.dice))
            self.cubes.append(kwargs.get("cube"))
            return method(*args, **kwargs)

        return call


def table(pos, turn, dice=(4, 4), rolls=None):
    t = Table(GB, 0, 1, False, False, {}, start=formats.to_json(pos, turn=turn, dice=dice))
    if rolls is not None:
        t.single = tavla.Game.from_position(formats.to_json(pos, turn=turn, dice=dice), rolls=rolls, seed=1)
    return t


def spied(t, ply=None):
    """The play's engine player, its engine spied on (and at ``ply`` instead of 1, to be quicker)."""
    player = EnginePlayer(GB, dict(t.game.rules))
    player.engine = Spy(player.engine if ply is None else tavla.Engine(GB, ply, **t.game.rules), t)
    return player


def engine():
    return tavla.Engine(GB, 1)


def play_engine_steps(t, player, turn):
    """Plays the engine's steps while it is on turn in the cascade; answers the positions reached."""
    reached = []
    while not t.game.is_over and t.game.turn == turn and t.game.cascade_step is not None:
        moves = t.game.legal_moves()
        k = player.pick(t)
        reached.append(moves[k].position)
        t.play(k)
    return reached


def test_the_engine_plays_its_whole_cascade_as_chosen_once():
    t = table(OPEN, turn=1)
    assert t.game.cascade_step == (4, 4) and t.game.rolls == 11
    player = spied(t)
    best = engine().best_move(OPEN, 4, 4, rolls=10, cube=t.cube_for(1))
    assert len(best.cascade_steps) == 3 and best.handover == []
    reached = play_engine_steps(t, player, 1)
    assert reached == [step.position for _, step in best.cascade_steps]
    # One search for the whole part, with the game's rolls before this roll.
    assert [(c[0], c[3]) for c in player.engine.calls] == [("best_move", 10)]
    # The part is over and the person rolls.
    assert t.game.phase == "roll" and t.game.turn == 0 and t.game.position_for(1) == best.position


def test_the_engine_passes_on_what_it_cannot_play():
    t = table(STUCK, turn=1)
    player = spied(t)
    best = engine().best_move(STUCK, 4, 4, rolls=10, cube=t.cube_for(1))
    assert best.handover == [(5, 2), (6, 4)]
    play_engine_steps(t, player, 1)
    g = t.game
    assert g.turn == 0 and g.is_cascade_handover and g.cascade_step == (5, 2)
    assert g.position == best.position.flip()
    assert [c[0] for c in player.engine.calls] == ["best_move"]


def test_the_engine_plays_its_share_of_the_persons_handover():
    t = table(STUCK, turn=0)
    player = spied(t)
    part = engine().best_move(STUCK, 4, 4, rolls=10, cube=t.cube_for(0))
    for _, step in part.cascade_steps:  # the person plays the engine's own advice
        t.play(next(k for k, m in enumerate(t.game.legal_moves()) if m.position == step.position))
    g = t.game
    assert g.turn == 1 and g.is_cascade_handover and g.cascade_step == (5, 2)
    share = engine().handover(g.position, [(5, 2), (6, 4)], cube=t.cube_for(1))
    reached = play_engine_steps(t, player, 1)
    assert reached == [step.position for _, step in share.cascade_steps]
    assert [(c[0], c[1]) for c in player.engine.calls] == [("handover", (5, 2))]
    # The share is chosen by the sharer's cubeful value, as the analysis judges it.
    assert [type(c) for c in player.engine.cubes] == [tavla.CubeState]
    # After its share the engine rolls its own turn.
    assert t.game.phase == "roll" and t.game.turn == 1 and t.game.position == share.position


@pytest.mark.parametrize("rolls, cascades", [(0, False), (2, False), (3, True)])
def test_doubles_in_the_first_rolls_are_ordinary_plays(rolls, cascades):
    # from_position's rolls are the rolls before the dice the text carries.
    t = table(OPEN, turn=1, rolls=rolls)
    assert (t.game.cascade_step is not None) == cascades
    player = spied(t)
    moves = t.game.legal_moves()
    k = player.pick(t)
    best = engine().best_move(OPEN, 4, 4, rolls=rolls, cube=t.cube_for(1))
    expected = best.cascade_steps[0][1].position if cascades else best.position
    assert moves[k].position == expected
    assert player.engine.calls == [("best_move", t.game.cascade_step, False, rolls, (4, 4))]


def run_session(t, lines):
    out = io.StringIO()
    feed = iter(lines)

    def read(prompt):
        try:
            return next(feed)
        except StopIteration:
            return "quit"

    Session(t, out, read, EnginePlayer(GB, dict(t.game.rules))).run()
    return out.getvalue()


def test_hint_during_a_cascade_shows_the_rest_of_it_as_a_whole():
    t = table(OPEN, turn=0)
    ranked = engine().hint(OPEN, 4, 4, top=5, rolls=10, cube=t.cube_for(0))
    text = run_session(t, ["hint"])
    assert "the rest of the cascade as a whole" in text
    assert str(ranked[0].move) in text and str(ranked[0].move).startswith("4-4: ")
    assert f"This step: {ranked[0].move.cascade_steps[0][1]}" in text
    # At a later step the advice starts from that step's number.
    t = table(OPEN, turn=0)
    first = ranked[0].move.cascade_steps[0][1].position
    t.play(next(k for k, m in enumerate(t.game.legal_moves()) if m.position == first))
    text = run_session(t, ["hint"])
    assert "the rest of the cascade as a whole" in text and "\n    1. 5-5: " in text


def test_hint_for_the_share_of_the_engines_handover():
    t = table(STUCK, turn=1)
    player = EnginePlayer(GB, {})
    play_engine_steps(t, player, 1)
    share = engine().handover(t.game.position, [(5, 2), (6, 4)])
    text = run_session(t, ["hint"])
    assert f"your best share of the handover: {share}" in text


def test_seeded_games_with_cascades_complete_without_falling_back():
    """Whole games, the person always taking the first listed move: the engine's cascades come from
    one best_move per part (or one handover per share), never from the greedy fallback. At 0-ply,
    since whole cascades take seconds each at 1-ply."""
    cascades = 0
    for seed in (0, 1, 4):
        t = Table(GB, 0, seed, False, False, {})
        player = spied(t, ply=0)
        greedy = []
        suggest = t.suggest
        t.suggest = lambda who: (greedy.append(who), suggest(who))[1]
        out = io.StringIO()
        answer = {"Your turn": "r"}
        Session(t, out, lambda p: "1" if p.startswith("move") else answer.get(p[:9], "take"), player).run()
        assert t.game.is_over, out.getvalue()[-2000:]
        assert greedy == []
        calls = player.engine.calls
        searched = [c for c in calls if c[1] is not None]
        # A part is searched at its first step only (the number rolled); a share at the first handed-over step.
        assert all(name in ("best_move", "handover") for name, *_ in searched)
        parts = [c for c in searched if c[0] == "best_move"]
        assert all(step == (dice[0], 4) and not handover for _, step, handover, _, dice in parts)
        cascades += len(parts)
        engine_steps = out.getvalue().count("(cascade: play")
        assert engine_steps >= len(parts)
    assert cascades >= 3


def test_tavla_play_gulbara_completes_a_game_with_engine_cascades():
    child = pexpect.spawn(sys.executable, ["-m", "tavla", "play", "--variant", GB, "--seed", "1"], encoding="utf-8",
                          timeout=60)
    child.expect("against engine")
    seen = ""
    while True:
        k = child.expect([r"roll \(r\) or double \(d\)\? ", r"move(?: \[[^\]]*\])?> ", r"take or pass\? ",
                          r"(You win|Engine wins|draw)[^\n]*point"])
        seen += child.before
        if k == 0:
            child.sendline("r")
        elif k == 1:
            child.sendline("1")
        elif k == 2:
            child.sendline("take")
        else:
            break
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Engine plays" in seen and "(cascade: play 4 move(s) of" in seen
