"""/v1/turn over a real loopback server: a game one action at a time, carried by its record and played
by ``tavla.Game`` (the engine's turn driver). A backgammon turn, gul bara cascades with their hand-overs
(by index, by notation and as the engine's whole part and share), the cascade threshold counted by the
game, long nardy and Dutch backgammon played to their end, pasted positions, and every kind of bad
input; every answer is checked against the service's published schema."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("fastapi", reason="the service needs the serve extra (fastapi, uvicorn)")

import tavla  # noqa: E402
from serving import client_fixture, check_against_schema, post_checked  # noqa: E402
from tavla.service import Settings  # noqa: E402

GB = "gulbara"
# My 18-point (their 6-point) is blocked: I cannot play a single 6.
BLOCKED_MINE = [0] * 23 + [15, 0]
BLOCKED_THEIRS = [0] * 5 + [1] + [0] * 17 + [14, 0]
# The best 0-ply 4-4 cascade plays 4 of 4 and 2 of 5, and passes 5x2 6x4 on (tests/test_service_cascade.py).
STUCK_MINE = [0, 0, 3, 0, 3, 0, 2, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 4, 0]
STUCK_THEIRS = [0, 1, 1, 0, 2, 0, 3, 0, 3, 0, 0, 0, 0, 1, 0, 1, 0, 2, 0, 1, 0, 0, 0, 0, 0]
MAX_BODY = 4096


client = client_fixture(Settings(workers=1, default_ply=0, max_ply=1, time_limit=30, max_body=MAX_BODY, max_game_body=64 * 1024))


post = post_checked


def turn(client, openapi, body, status=200):
    return post(client, openapi, "/v1/turn", body, status)


def act(client, openapi, answer, action, status=200):
    return turn(client, openapi, {"game": answer["game"], "action": action}, status)


def plain(variant, mine, theirs):
    return {"variant": variant, "mine": mine, "theirs": theirs}


def notations(answer):
    return [m["notation"] for m in answer["moves"]]


def same_game(answer, game):
    """The answer describes ``game`` (a tavla.Game played the same way)."""
    mine, theirs = game.position.to_arrays()
    assert (answer["phase"], answer["turn"]) == (game.phase, game.turn)
    assert (answer["position"]["mine"], answer["position"]["theirs"]) == (mine, theirs)
    assert answer["position"]["reserve"] == list(game.position.reserve)
    assert answer["dice"] == (list(game.dice) if game.dice else None)
    assert answer["rolls"] == game.rolls and answer["rolls_before"] == game.rolls_before
    assert answer["cascade_step"] == (list(game.cascade_step) if game.cascade_step else None)
    assert answer["cascade_left"] == [list(s) for s in game.cascade_left]
    assert answer["is_cascade_handover"] == game.is_cascade_handover
    assert notations(answer) == ([m.notation for m in game.legal_moves()] if game.phase == "move" else [])
    # The record replays to the same game.
    assert tavla.Game.from_json(json.dumps(answer["game"])).to_json() == game.to_json()


# -- a normal backgammon turn ----------------------------------------------------------------------

def test_a_backgammon_turn(client, openapi):
    start = turn(client, openapi, {"new": {"position": {"variant": "backgammon"}}})
    assert (start["phase"], start["turn"], start["dice"], start["moves"], start["rolls"]) == ("roll", 0, None, [], 0)
    assert start["pips"] == [167, 167] and not start["over"] and start["result"] is None
    rolled = act(client, openapi, start, {"roll": [3, 1]})
    assert rolled["phase"] == "move" and rolled["dice"] == [3, 1] and rolled["rolls_before"] == 0
    # The legal plays have the shape and order /v1/moves answers them in.
    moves = post(client, openapi, "/v1/moves", {"position": {"variant": "backgammon"}, "dice": [3, 1]})["moves"]
    assert rolled["moves"] == moves
    played = act(client, openapi, rolled, {"play": notations(rolled).index("8/5 6/5")})
    game = tavla.Game("backgammon")
    game.begin(0)
    game.roll((3, 1))
    game.play("8/5 6/5")
    same_game(played, game)
    assert played["turn"] == 1 and played["phase"] == "roll" and played["rolls"] == 1
    # The position is seen from the player whose turn it is: the opponent's side now.
    assert played["position"]["theirs"] == rolled["moves"][notations(rolled).index("8/5 6/5")]["position"]["mine"]
    assert played["pips"] == [167, 163]
    # The other player rolls and plays by notation; the answer's record carries on from there.
    answer = act(client, openapi, played, {"roll": [6, 4]})
    answer = act(client, openapi, answer, {"play": "24/14"})
    game.roll((6, 4))
    game.play("24/14")
    same_game(answer, game)


def test_the_game_record_is_the_state(client, openapi):
    """Nothing is kept between requests: the same record and action give the same answer, and an old
    record still plays (a client may go back)."""
    start = turn(client, openapi, {"new": {"position": {"variant": "backgammon"}}})
    first = act(client, openapi, start, {"roll": [6, 5]})
    assert act(client, openapi, start, {"roll": [6, 5]}) == first
    other = act(client, openapi, start, {"roll": [2, 1]})
    assert other["dice"] == [2, 1]
    assert turn(client, openapi, {"game": first["game"]}) == first  # no action: the game as it is


# -- gul bara cascades -----------------------------------------------------------------------------

def test_a_cascade_passed_whole_to_the_opponent(client, openapi):
    """6-6 with my 18-point blocked: all four sixes pass to the opponent, who plays them and then rolls
    its own turn (RULES.md 4)."""
    start = turn(client, openapi, {"new": {"position": plain(GB, BLOCKED_MINE, BLOCKED_THEIRS)}})
    assert start["rolls"] == 1000  # a pasted position is taken to be past the first rolls
    rolled = act(client, openapi, start, {"roll": [6, 6]})
    assert rolled["cascade_step"] == [6, 4] and rolled["cascade_left"] == [[6, 4]]
    assert not rolled["is_cascade_handover"] and notations(rolled) == ["no move"]
    passed = act(client, openapi, rolled, {"play": 0})
    assert passed["turn"] == 1 and passed["phase"] == "move" and passed["is_cascade_handover"]
    assert passed["cascade_step"] == [6, 4] and passed["cascade_left"] == [[6, 4]]
    theirs = tavla.Position.from_arrays(GB, BLOCKED_THEIRS, BLOCKED_MINE)
    expected = theirs.legal_cascade_step(6, 4, 0)
    assert notations(passed) == [m.notation for m in expected]
    done = act(client, openapi, passed, {"play": expected[0].notation})
    assert (done["turn"], done["phase"], done["dice"], done["cascade_step"]) == (1, "roll", None, None)
    assert done["position"]["mine"] == expected[0].position.to_arrays()[0]
    assert done["rolls"] == 1001 and done["rolls_before"] == 1001


def test_the_first_rolls_are_counted_by_the_game(client, openapi):
    """A double among the game's first cascade_after_rolls rolls is an ordinary double; the service's
    rolls say which, and a rule option moves the threshold."""
    for rules, cascades_from in (({}, 3), ({"cascade_after_rolls": 5}, 5)):
        answer = turn(client, openapi, {"new": {"position": {"variant": GB, "rules": rules}}})
        assert answer["rolls"] == 0
        for k in range(cascades_from + 1):
            trial = act(client, openapi, answer, {"roll": [2, 2]})
            assert trial["rolls_before"] == k
            assert (trial["cascade_step"] is not None) == (k >= cascades_from), (rules, k)
            answer = act(client, openapi, act(client, openapi, answer, {"roll": [2, 1]}), {"play": 0})


def test_a_cascade_with_a_handover_played_step_by_step(client, openapi):
    """The stuck 4-4 played as the engine would, one step at a time: 4 × 4, then 2 of the 5s; the rest
    (5x2 6x4) passes to the opponent, whose steps the game lists."""
    game = tavla.Game.from_position(tavla.formats.to_json(tavla.Position.from_arrays(GB, STUCK_MINE, STUCK_THEIRS)),
                                    rolls=1000)
    answer = turn(client, openapi, {"new": {"position": plain(GB, STUCK_MINE, STUCK_THEIRS)}, "action": {"roll": [4, 4]}})
    game.roll((4, 4))
    same_game(answer, game)
    assert answer["cascade_left"] == [[4, 4], [5, 4], [6, 4]]
    for play in ("24/16 24/20 5/1", "16/11 10/5"):
        answer = act(client, openapi, answer, {"play": notations(answer).index(play)})
        game.play(play)
        same_game(answer, game)
    assert answer["turn"] == 1 and answer["is_cascade_handover"]
    assert answer["cascade_step"] == [5, 2] and answer["cascade_left"] == [[5, 2], [6, 4]]
    while answer["phase"] == "move":
        answer = act(client, openapi, answer, {"play": 0})
        game.play(0)
        same_game(answer, game)
    assert answer["turn"] == 1 and answer["phase"] == "roll"  # the share's player rolls its own turn


def test_the_engines_part_and_share_played_as_lists(client, openapi):
    """/v1/engine-move with the answer's rolls_before chooses the whole part; /v1/turn plays its steps as
    one list; /v1/handover chooses the opponent's share, played the same way."""
    answer = turn(client, openapi, {"new": {"position": plain(GB, STUCK_MINE, STUCK_THEIRS)}, "action": {"roll": [4, 4]}})
    move = post(client, openapi, "/v1/engine-move", {"position": answer["position"], "dice": answer["dice"],
                                                      "rolls": answer["rolls_before"]})["move"]
    assert move["handover"] == [[5, 2], [6, 4]]
    answer = act(client, openapi, answer, {"plays": [s["notation"] for s in move["cascade_steps"]]})
    assert answer["turn"] == 1 and answer["is_cascade_handover"] and answer["cascade_left"] == move["handover"]
    assert (answer["position"]["theirs"], answer["position"]["mine"]) == (move["position"]["mine"],
                                                                          move["position"]["theirs"])
    share = post(client, openapi, "/v1/handover", {"position": answer["position"],
                                                    "handover": answer["cascade_left"]})["move"]
    answer = act(client, openapi, answer, {"plays": [s["notation"] for s in share["cascade_steps"]]})
    assert answer["turn"] == 1 and answer["phase"] == "roll" and answer["cascade_step"] is None
    assert answer["position"]["mine"] == share["position"]["mine"]


def test_a_list_of_plays_is_all_or_nothing(client, openapi):
    answer = turn(client, openapi, {"new": {"position": plain(GB, STUCK_MINE, STUCK_THEIRS)}, "action": {"roll": [4, 4]}})
    error = act(client, openapi, answer, {"plays": ["24/16 24/20 5/1", "24/19(4)"]}, 422)["error"]
    assert error.startswith("action.plays.1: ") and "24" in error, error
    # The record sent is unchanged: the first play of the list still fits it.
    assert act(client, openapi, answer, {"plays": ["24/16 24/20 5/1"]})["cascade_step"] == [5, 4]


# -- long nardy, to the end ------------------------------------------------------------------------

@pytest.mark.parametrize("variant,kinds", [("nardy", ("oin", "mars", "koks")), ("dutch", ("single", "gammon", "backgammon"))])
def test_a_game_played_to_its_end(client, openapi, variant, kinds):
    rng = random.Random(7)
    answer = turn(client, openapi, {"new": {"position": {"variant": variant}}})
    game = tavla.Game(variant)
    game.begin(0)
    while not answer["over"]:
        if answer["phase"] == "roll":
            dice = [rng.randint(1, 6), rng.randint(1, 6)]
            answer = act(client, openapi, answer, {"roll": dice})
            game.roll(tuple(dice))
        else:
            k = rng.randrange(len(answer["moves"]))
            answer = act(client, openapi, answer, {"play": k})
            game.play(k)
        if game.rolls % 20 == 0:
            same_game(answer, game)
    same_game(answer, game)
    assert answer["phase"] == "over" and answer["moves"] == [] and answer["cascade_left"] == []
    assert answer["result"] == game.result and answer["turn"] == game.result["winner"]
    assert answer["result"]["kind"] in kinds
    # A long game's record is larger than the other routes' body limit, and /v1/turn still takes it.
    assert len(json.dumps(answer["game"])) > MAX_BODY
    error = act(client, openapi, answer, {"roll": [1, 2]}, 422)["error"]
    assert error == "action.roll: cannot roll now: the game is in its over phase, not roll"


def test_a_nardy_turn_passes_to_the_other_player(client, openapi):
    answer = turn(client, openapi, {"new": {"position": {"variant": "nardy"}}, "action": {"roll": [6, 5]}})
    assert answer["phase"] == "move" and answer["cascade_step"] is None
    head = notations(answer)
    assert head == [m.notation for m in tavla.Position.start("nardy").legal_moves(6, 5)]
    answer = act(client, openapi, answer, {"play": 0})
    assert answer["turn"] == 1 and answer["phase"] == "roll"


# -- new games from positions ----------------------------------------------------------------------

def test_a_position_with_the_other_player_on_turn(client, openapi):
    answer = turn(client, openapi, {"new": {"position": plain(GB, BLOCKED_THEIRS, BLOCKED_MINE), "turn": 1,
                                            "rolls": 2, "starter": 0}, "action": {"roll": [6, 6]}})
    assert answer["turn"] == 1 and answer["position"]["mine"] == BLOCKED_THEIRS
    assert answer["rolls_before"] == 2 and answer["cascade_step"] is None  # the third roll: no cascade yet
    assert answer["game"]["start"]["starter"] == 0


def test_an_xgid_with_its_dice(client, openapi):
    formats = pytest.importorskip("tavla.formats")
    position = tavla.Position.from_arrays("backgammon", [0] * 5 + [5, 0, 3] + [0] * 4 + [5] + [0] * 10 + [2, 0],
                                          [0] * 5 + [5, 0, 3] + [0] * 4 + [5] + [0] * 10 + [2, 0])
    answer = turn(client, openapi, {"new": {"xgid": formats.to_xgid(position, dice=(5, 2))}})
    assert answer["phase"] == "move" and answer["dice"] == [5, 2]
    assert notations(answer) == [m.notation for m in position.legal_moves(5, 2)]


# -- bad input -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def rolled(client, openapi):
    return turn(client, openapi, {"new": {"position": {"variant": "backgammon"}}, "action": {"roll": [3, 1]}})


def broken(record, change):
    record = json.loads(json.dumps(record))
    change(record)
    return record


@pytest.mark.parametrize("body, error", [
    ({}, "give exactly one of game (the record a previous answer returned) or new (a new game); given: neither"),
    ({"game": {}, "new": {"position": {}}}, "given: both"),
    ({"game": []}, "game: Input should be a valid dictionary"),
    ({"game": {"format": "tavla.game"}}, 'game: the record needs "variant"'),
    ({"game": {"format": "tavla.match", "variant": "nardy", "events": []}}, "game: this is a \"tavla.match\" record"),
    ({"new": {}}, "new: give exactly one of position, xgid, gnubg_id or fibs"),
    ({"new": {"position": {"variant": "chess"}}}, "new.position.variant"),
    ({"new": {"position": {"variant": "nardy", "rules": {"cube": 2}}}}, 'new: position: unknown rule option "cube"'),
    ({"new": {"position": {"variant": "nardy"}, "turn": 2}}, "new.turn"),
    ({"new": {"position": {"variant": "nardy"}, "rolls": -1}}, "new.rolls"),
    ({"new": {"position": {"variant": "nardy"}}, "action": {}}, "action: give exactly one of roll, play or plays"),
    ({"new": {"position": {"variant": "nardy"}}, "action": {"roll": [1, 2], "play": 0}}, "(given: roll, play)"),
    ({"new": {"position": {"variant": "nardy"}}, "action": {"roll": [0, 2]}}, "action.roll.0"),
    ({"new": {"position": {"variant": "nardy"}}, "action": {"roll": [1, 7]}}, "action.roll.1"),
    ({"new": {"position": {"variant": "nardy"}}, "action": {"roll": [1, 2, 3]}}, "action.roll"),
    ({"new": {"position": {"variant": "nardy"}}, "action": {"roll": ["1", 2]}}, "action.roll.0"),
    ({"new": {"position": {"variant": "nardy"}}, "action": {"play": 0}},
     "action.play: cannot move now: the game is in its roll phase, not move"),
    ({"new": {"position": {"variant": "nardy"}}, "action": {"dice": [1, 2]}}, "action.dice"),
    ({"new": {"position": {"variant": "nardy"}}, "action": {"play": True}}, "action.play: give a move's index"),
    ({"new": {"position": {"variant": "nardy"}}, "action": {"plays": []}}, "action.plays"),
])
def test_bad_requests_are_refused(client, openapi, body, error):
    answer = turn(client, openapi, body, 422)
    assert error in answer["error"], answer


def test_bad_actions_on_a_rolled_game(client, openapi, rolled):
    cases = [
        ({"roll": [1, 2]}, "action.roll: cannot roll now: the game is in its move phase, not roll"),
        ({"play": 16}, "action.play: move 16 does not exist: there are 16 legal moves (0 to 15)"),
        ({"play": -1}, "action.play: a move index is a whole number 0 to 10000, not -1"),
        ({"play": 1.0}, "action.play: give a move's index"),
        ({"play": "24/10"}, 'action.play: "24/10" is not a legal move'),
        ({"play": "hello"}, 'action.play: "hello" is not a move'),
        ({"plays": [0, 0]}, "action.plays.1: cannot move now: the game is in its roll phase, not move"),
    ]
    for action, error in cases:
        assert act(client, openapi, rolled, action, 422)["error"].startswith(error), action


def test_broken_records_are_refused(client, openapi, rolled):
    record = rolled["game"]
    cases = [
        (lambda r: r["events"][1].update(dice=[9, 1]), "game: event 1 (roll): die 9 is impossible"),
        (lambda r: r["events"][1].update(player=1), "game: event 1 (roll) is by player 1, but it is player 0's"),
        (lambda r: r["events"].append({"type": "move", "player": 0, "play": "24/10"}),
         'game: event 2 (move): "24/10" is not a legal move'),
        (lambda r: r["events"].append({"type": "dance"}), 'game: event 2 has an unknown type "dance"'),
        (lambda r: r.update(variant="chess"), 'game: unknown variant "chess"'),
        (lambda r: r.pop("events"), 'game: the record needs an "events" list'),
        (lambda r: r.update(result={"winner": 0}), "game: the record says the game ended"),
        (lambda r: r.update(score=[-1, 0]), 'game: "score" must be a whole number 0 or more'),
    ]
    for change, error in cases:
        assert act(client, openapi, {"game": broken(record, change)}, {"play": 0}, 422)["error"].startswith(error)


def test_the_body_limit_of_a_game(client, openapi):
    """/v1/turn takes bodies up to max_game_body (a game record grows with the game); the other routes
    keep max_body."""
    start = turn(client, openapi, {"new": {"position": {"variant": "nardy"}}})
    padded = {"game": {**start["game"], "note": "x" * (2 * MAX_BODY)}}
    assert turn(client, openapi, padded)["phase"] == "roll"
    huge = {"game": {**start["game"], "pad": "x" * (64 * 1024)}}
    r = client.post("/v1/turn", json=huge)
    assert r.status_code == 413 and "larger than 65536 bytes" in r.json()["error"]
    check_against_schema(openapi, "post", "/v1/turn", r)
    r = client.post("/v1/moves", json={"position": {"variant": "nardy", "rules": {"x": "y" * MAX_BODY}}, "dice": [1, 2]})
    assert r.status_code == 413 and f"larger than {MAX_BODY} bytes" in r.json()["error"]
