"""Whole games, matches, the cube and game records through the Python API."""

import json

import pytest

import tavla


def finished(game_or_match):
    return game_or_match.is_over


def test_seeded_games_repeat():
    def run(seed):
        g = tavla.Game("nardy", seed=seed)
        g.play_out(("random", "greedy"), seed=1)
        return g.history, g.result

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_backgammon_starter_plays_opening_dice_and_nardy_rolls_again():
    g = tavla.Game("backgammon", seed=1)
    assert g.roll_off((2, 2)) is None
    assert g.roll_off((6, 1)) == 0
    assert g.phase == "move" and g.dice == (6, 1)
    g.play("13/7 8/7")
    assert g.turn == 1 and g.phase == "roll"
    n = tavla.Game("nardy", seed=1)
    assert n.roll_off((1, 6)) == 1
    assert n.phase == "roll" and n.dice is None


def test_moves_by_index_object_and_text():
    g = tavla.Game("backgammon", seed=1)
    g.roll_off((3, 1))
    moves = g.legal_moves()
    target = next(m for m in moves if str(m) == "8/5 6/5")
    g2 = g.copy()
    g.play(target)
    g2.play("6/5 8/5")
    assert g.position_for(0) == g2.position_for(0)
    g3 = g2.copy()
    with pytest.raises(ValueError, match="cannot move now"):
        g3.play(0)
    assert g3.history == g2.history


def test_illegal_input_keeps_the_game():
    g = tavla.Game("backgammon", seed=1)
    g.roll_off((3, 1))
    before = (g.phase, g.history, g.position)
    for bad, msg in [("24/10", "not a legal move"), ("2x/1", "not a point"), ("13-10", "FROM/TO"), (99, "does not exist"), (-1, "negative"), (1.5, "index")]:
        with pytest.raises(ValueError, match=msg):
            g.play(bad)
    with pytest.raises(ValueError):
        g.roll()
    with pytest.raises(ValueError, match="impossible"):
        tavla.Game().roll_off((0, 3))
    assert (g.phase, g.history, g.position) == before


def test_cube_take_pass_and_ownership():
    g = tavla.Game("nardy", seed=2)
    g.roll_off((5, 2))
    g.double()
    assert g.phase == "double_offered" and g.decider == 1
    g.take()
    assert (g.cube_value, g.cube_owner, g.turn) == (2, 1, 0)
    assert not g.may_double and "not yours" in g.why_no_double()
    with pytest.raises(ValueError, match="not yours"):
        g.double()
    g.roll((6, 5))
    g.play(0)
    g.double()
    r = g.drop()
    assert r == {"winner": 1, "multiplier": 1, "kind": "oin", "cube": 2, "points": 2, "ending": "cube_passed"}
    assert g.result == r


def test_beaver_and_jacoby_are_money_options():
    with pytest.raises(ValueError, match="money play"):
        tavla.Game(beaver=True, match_length=5)
    g = tavla.Game(seed=1, beaver=True)
    g.roll_off((5, 3))
    g.play(0)
    g.double()
    g.beaver()
    assert (g.cube_value, g.cube_owner) == (4, 0)


def test_score_past_match_length_is_refused():
    with pytest.raises(ValueError, match="match length"):
        tavla.Game(match_length=5, score=(5, 0))
    with pytest.raises(ValueError, match="over"):
        tavla.Match("backgammon", 5, score=(2, 7))


def test_match_crawford_and_result_points():
    m = tavla.Match("gulbara", 2, seed=5)
    m.decide_starter()
    m.double()
    m.drop()
    assert m.score in ((1, 0), (0, 1))
    m.next_game()
    g = m.game
    assert g.is_crawford and not g.may_double
    with pytest.raises(ValueError, match="Crawford"):
        m.double()
    m.play_out(("greedy", "random"), seed=1)
    if not m.is_over:
        m.next_game()
        assert not m.game.is_crawford
    with pytest.raises(ValueError):
        tavla.Match("backgammon", 0)


def test_gul_bara_cascade_hand_over():
    # Player 0 all on its head; player 1 on player 0's 18 and 13 (its 6 and 1).
    text = json.dumps({
        "variant": "gulbara",
        "checkers": [[0] * 23 + [15], [8, 0, 0, 0, 0, 7] + [0] * 18],
        "turn": 0,
    })
    g = tavla.Game.from_position(text, rolls=10)
    g.roll((5, 5))
    assert g.cascade_step == (5, 4)
    g.play("24/19(4)")
    assert g.cascade_step == (6, 4) and g.legal_moves()[0].is_pass()
    g.play("pass")
    assert g.turn == 1 and g.is_cascade_handover and g.cascade_step == (6, 4)
    g.play("6/off(4)")
    assert g.turn == 1 and g.phase == "roll"
    # The first three rolls of a game never cascade.
    g = tavla.Game("gulbara", seed=1)
    g.roll_off((6, 1))
    for k in range(1, 5):
        g.roll((3, 3))
        assert (g.cascade_step is not None) == (k > 3)
        g.play(0)


def test_last_roll_draw_and_koks_options():
    pos = json.dumps({"variant": "nardy", "rules": {"last_roll_draw": True},
                      "checkers": [[1] + [0] * 23, [1] + [0] * 23]})
    g = tavla.Game.from_position(pos, starter=0)
    g.roll((2, 1))
    g.play(0)
    assert g.is_last_turn and g.turn == 1
    g.roll((1, 1))
    g.play(0)
    assert g.result["winner"] is None and g.result["kind"] == "draw"
    pos = json.dumps({"variant": "nardy", "rules": {"koks": True},
                      "checkers": [[1] + [0] * 23, [0] * 13 + [15] + [0] * 10]})
    g = tavla.Game.from_position(pos)
    g.roll((2, 1))
    g.play(0)
    assert g.result["kind"] == "koks" and g.result["points"] == 3


def test_game_record_round_trip_and_replay():
    for variant in tavla.VARIANTS:
        g = tavla.Game(variant, seed=9)
        g.play_out(("greedy", "random"), seed=2)
        text = g.to_json()
        record = json.loads(text)
        assert record["format"] == "tavla.game" and record["variant"] == variant
        back = tavla.Game.from_json(text)
        assert back.history == g.history and back.result == g.result
        states = tavla.Game.replay(text)
        assert len(states) == len(g.history) + 1
        assert states[0].phase == "opening_roll" and states[-1].is_over
        # A record with an illegal move is refused with its place named.
        moves = [k for k, e in enumerate(record["events"]) if e["type"] == "move" and e["play"] != "no move"]
        record["events"][moves[0]]["play"] = "1/off(4)"
        with pytest.raises(ValueError, match=f"event {moves[0]}"):
            tavla.Game.from_json(json.dumps(record))
    with pytest.raises(ValueError, match="not valid JSON"):
        tavla.Game.from_json("{")


def test_match_record_round_trip():
    m = tavla.Match("backgammon", 3, seed=4)
    while True:
        m.play_out(("greedy", "random"), seed=m.game_number)
        if m.is_over:
            break
        m.next_game()
    back = tavla.Match.from_json(m.to_json())
    assert back.score == m.score and back.winner == m.winner
    assert len(back.finished_games) == len(m.finished_games)


def test_simulation_tallies():
    t = tavla.simulate_games("backgammon", 400, seed=1, threads=2)
    assert t["games"] == 400
    assert sum(map(sum, t["wins"])) + t["draws"] == 400
    gammons = t["wins"][0][1] + t["wins"][1][1]
    assert gammons > 40, t  # random play gammons often
    t = tavla.simulate_games("nardy", 200, seed=1, players=("greedy", "random"))
    assert sum(t["wins"][0]) > 140, t
    with pytest.raises(ValueError, match="unknown player"):
        tavla.simulate_games("nardy", 1, players=("smart", "random"))


def test_game_from_a_position_saves_and_replays_from_there():
    g = tavla.Game.from_position("XGID=-b----E-C---eE---c-e----B-:1:-1:-1:64:2:4:0:7:10", seed=3)
    assert (g.turn, g.dice, g.cube_value, g.cube_owner, g.score) == (1, (6, 4), 2, 1, (2, 4))
    g.play_out(("greedy", "random"), seed=1)
    back = tavla.Game.from_json(g.to_json())
    assert back.history == g.history and back.result == g.result


def test_nardy_single_dice_opening_plays_the_roll_off_dice():
    g = tavla.Game("nardy", seed=1, opening_roll="single_dice")
    assert g.roll_off((5, 2)) == 0
    assert g.phase == "move" and g.dice == (5, 2)
    g.play("24/17")
    assert g.turn == 1 and g.phase == "roll"
    assert tavla.Game("nardy", seed=1).rules["opening_roll"] == "reroll"
    with pytest.raises(ValueError, match="opening_roll"):
        tavla.Game("nardy", opening_roll="twice")
    with pytest.raises(ValueError, match="opening_roll"):
        tavla.Game("gulbara", opening_roll="single_dice")


def test_a_crawford_game_at_a_score_without_one_match_point_is_refused():
    # tavla.Game and Game.from_position took a Crawford game at 3-3 of 5 that the cube state refused, so the
    # engine could judge none of its plays or cubes.
    words = "the Crawford game needs exactly one player one point from winning the 5-point match, not the score 3-3"
    with pytest.raises(ValueError, match=words):
        tavla.Game(match_length=5, score=(3, 3), crawford=True)
    with pytest.raises(ValueError, match=words):
        tavla.Game.from_position("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:3:3:1:5:10")
    assert tavla.Game(match_length=5, score=(4, 3), crawford=True).is_crawford
