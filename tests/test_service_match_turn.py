"""/v1/match-turn over a real loopback server: a match or a money session with the cube, carried by its
``tavla.Match`` record. Doubles taken, beavered and dropped, the score, the Crawford game and post-Crawford,
the cube's limit, Jacoby, a match played to its end, positions with their stakes, and every refusal (each
answered 422 naming the field); every answer is checked against the service's published schema."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi", reason="the service needs the serve extra (fastapi, uvicorn)")

import tavla  # noqa: E402
from serving import client_fixture, post_checked  # noqa: E402
from tavla.service import Settings  # noqa: E402

ROUTE = "/v1/match-turn"


client = client_fixture(Settings(workers=1, default_ply=0, max_ply=1, time_limit=30, max_game_body=256 * 1024))


def new(client, openapi, status=200, variant="backgammon", **settings):
    return post_checked(client, openapi, ROUTE, {"new": {"position": {"variant": variant}, **settings}}, status)


def act(client, openapi, answer, action, status=200):
    return post_checked(client, openapi, ROUTE, {"match": answer["match"], "action": action}, status)


def refused(client, openapi, answer, action):
    return act(client, openapi, answer, action, 422)["error"]


def points(n):
    """24 counts from {point: checkers}."""
    a = [0] * 24
    for p, k in n.items():
        a[p - 1] = k
    return a


# A bear-off: player 0 (on roll) far ahead.
AHEAD = points({6: 4, 5: 4})
BEHIND = points({6: 6, 5: 4, 4: 2})


def at(client, openapi, status=200, **new_fields):
    """A match from the bear-off position, player 0 on roll; the JSON position's own keys in `position`."""
    position = {"variant": "backgammon", "checkers": [AHEAD, BEHIND], "turn": 0, **new_fields.pop("position", {})}
    return post_checked(client, openapi, ROUTE, {"new": {"position": position, **new_fields}}, status)


def test_a_new_match_says_the_stakes_and_the_cube(client, openapi):
    a = new(client, openapi, match_length=5)
    assert (a["match_length"], a["money"], a["score"], a["game_number"], a["games"]) == (5, False, [0, 0], 1, [])
    assert (a["phase"], a["turn"], a["actions"]) == ("roll", 0, ["roll", "double"])
    assert a["cube"] == {"value": 1, "owner": None, "enabled": True, "max_cube": 64, "jacoby": False, "beaver": False}
    assert (a["may_double"], a["why_no_double"], a["crawford"], a["post_crawford"]) == (True, None, False, False)
    assert a["cube_state"] == {"value": 1, "owner": None, "match_length": 5, "score": [0, 0], "crawford": False,
                               "jacoby": False, "beaver": False, "max_cube": 64}
    assert tavla.Match.from_json(json.dumps(a["match"])).length == 5
    # The answer's cube_state is what /v1/cube takes.
    cube = post_checked(client, openapi, "/v1/cube", {"position": a["position"], "cube": a["cube_state"]})
    assert cube["cube"]["match_length"] == 5 and cube["action"].startswith("no double")


def test_a_double_taken_turns_the_cube_and_the_doubler_rolls(client, openapi):
    a = new(client, openapi, match_length=7)
    a = act(client, openapi, a, {"double": True})
    assert (a["phase"], a["double_offered"], a["turn"], a["decider"]) == ("double_offered", True, 0, 1)
    assert a["actions"] == ["take", "drop"]  # no beaver in a match
    assert a["why_no_beaver"].startswith("beavers are not allowed")
    a = act(client, openapi, a, {"take": True})
    assert (a["phase"], a["turn"], a["cube"]["value"], a["cube"]["owner"]) == ("roll", 0, 2, 1)
    assert a["actions"] == ["roll"] and not a["may_double"]
    assert "not yours" in a["why_no_double"]
    assert a["cube_state"]["owner"] == "opponent" and a["cube_state"]["value"] == 2
    a = act(client, openapi, a, {"roll": [3, 1]})
    a = act(client, openapi, a, {"play": "8/5 6/5"})
    # The taker owns the cube: it may redouble before its roll, and the cube state is seen from it.
    assert (a["turn"], a["actions"], a["cube_state"]["owner"]) == (1, ["roll", "double"], "me")
    a = act(client, openapi, a, {"double": True})
    a = act(client, openapi, a, {"drop": True})
    assert a["over"] and a["result"]["points"] == 2 and a["result"]["ending"] == "cube_passed"
    assert (a["score"], a["actions"], a["match_over"]) == ([0, 2], ["next_game"], False)


def test_a_pass_ends_the_game_with_its_points_and_the_next_game_starts(client, openapi):
    a = new(client, openapi, match_length=3)
    a = act(client, openapi, act(client, openapi, a, {"double": True}), {"drop": True})
    assert a["result"]["winner"] == 0 and a["result"]["points"] == 1 and a["score"] == [1, 0]
    a = act(client, openapi, a, {"next_game": True})
    assert (a["game_number"], a["score"], a["phase"], a["turn"], a["over"]) == (2, [1, 0], "roll", 0, False)
    assert a["games"][0]["points"] == 1
    assert a["cube"]["value"] == 1 and a["cube"]["owner"] is None


def test_crawford_game_then_post_crawford_then_the_match_ends(client, openapi):
    a = new(client, openapi, match_length=3, score=[1, 0])
    a = act(client, openapi, act(client, openapi, a, {"double": True}), {"drop": True})
    assert a["score"] == [2, 0] and a["next_is_crawford"]
    a = act(client, openapi, a, {"next_game": True})
    assert a["crawford"] and not a["post_crawford"] and a["actions"] == ["roll"]
    assert a["why_no_double"] == "nobody may double in the Crawford game"
    assert a["cube_state"]["crawford"]
    assert refused(client, openapi, a, {"double": True}) == "action.double: nobody may double in the Crawford game"
    # The Crawford game is played out (a record replays with the same dice, so its end is known).
    m = tavla.Match.from_json(json.dumps(a["match"]))
    m.play_out(("greedy", "greedy"), seed=3)
    a = post_checked(client, openapi, ROUTE, {"match": json.loads(m.to_json())})
    assert a["score"] == [2, 1] and a["actions"] == ["next_game"] and not a["next_is_crawford"]
    a = act(client, openapi, a, {"next_game": True})
    assert a["post_crawford"] and not a["crawford"] and a["turn"] == 1 and a["actions"] == ["roll", "double"]
    assert a["cube_state"]["score"] == [1, 2] and not a["cube_state"]["crawford"]
    a = act(client, openapi, act(client, openapi, a, {"double": True}), {"drop": True})
    assert (a["score"], a["match_over"]) == ([2, 2], False)
    a = act(client, openapi, act(client, openapi, act(client, openapi, a, {"next_game": True}), {"double": True}),
            {"drop": True})
    assert (a["score"], a["match_over"], a["winner"], a["actions"]) == ([2, 3], True, 1, [])
    assert len(a["games"]) == 3 and a["game_number"] == 4
    assert refused(client, openapi, a, {"next_game": True}) == "action.next_game: the match is over"
    assert refused(client, openapi, a, {"roll": [3, 1]}).startswith("action.roll: cannot roll now")


def test_match_point_without_crawford_rule(client, openapi):
    a = new(client, openapi, match_length=3, score=[2, 0], crawford=False)
    assert not a["crawford"] and not a["post_crawford"] and a["may_double"] and not a["crawford_rule"]


def test_money_with_beaver_jacoby_and_the_cube_limit(client, openapi):
    a = new(client, openapi, match_length=0, beaver=True, jacoby=True, max_cube=8)
    assert a["money"] and a["cube"] == {"value": 1, "owner": None, "enabled": True, "max_cube": 8, "jacoby": True,
                                       "beaver": True}
    assert a["cube_state"]["jacoby"] and a["cube_state"]["beaver"] and a["cube_state"]["match_length"] == 0
    a = act(client, openapi, a, {"double": True})
    assert a["actions"] == ["take", "beaver", "drop"] and a["may_beaver"]
    a = act(client, openapi, a, {"beaver": True})
    assert (a["cube"]["value"], a["cube"]["owner"], a["turn"], a["phase"]) == (4, 1, 0, "roll")
    a = act(client, openapi, act(client, openapi, a, {"roll": [3, 1]}), {"play": 0})
    a = act(client, openapi, a, {"double": True})  # player 1 redoubles to 8
    assert a["actions"] == ["take", "drop"] and "limit" in a["why_no_beaver"]
    assert refused(client, openapi, a, {"beaver": True}).startswith("action.beaver: a beaver would pass the cube limit")
    a = act(client, openapi, a, {"take": True})
    assert a["cube"]["value"] == 8 and a["why_no_double"] == "the cube is not yours to turn: player 0 owns it at 8"
    a = act(client, openapi, act(client, openapi, a, {"roll": [6, 5]}), {"play": 0})
    assert a["turn"] == 0 and a["actions"] == ["roll"]  # player 0 owns the cube at its limit
    assert refused(client, openapi, a, {"double": True}) == "action.double: the cube is already at its limit of 8"


def test_a_money_session_adds_up_and_goes_on(client, openapi):
    a = new(client, openapi, match_length=0)
    for game in range(3):
        a = act(client, openapi, act(client, openapi, a, {"double": True}), {"drop": True})
        assert a["actions"] == ["next_game"] and not a["match_over"] and a["winner"] is None
        a = act(client, openapi, a, {"next_game": True})
    assert a["score"][0] + a["score"][1] == 3 and a["game_number"] == 4


def test_a_match_from_a_position_with_its_stakes(client, openapi):
    a = at(client, openapi, position={"cube": {"value": 2, "owner": 1}, "match_length": 5, "score": [3, 1]})
    assert (a["match_length"], a["score"], a["cube"]["value"], a["cube"]["owner"]) == (5, [3, 1], 2, 1)
    assert a["actions"] == ["roll"] and a["cube_state"]["owner"] == "opponent"
    assert a["cube_state"]["score"] == [3, 1]
    # The same from new's fields; the cube centered.
    a = at(client, openapi, match_length=5, score=[4, 1], crawford_game=True)
    assert a["crawford"] and a["actions"] == ["roll"]
    # Player 1 on roll: the position is seen from it, the cube state too.
    position = {"checkers": [BEHIND, AHEAD], "turn": 1, "match_length": 5, "score": [1, 3], "cube": {"value": 2, "owner": 1}}
    a = at(client, openapi, position=position)
    assert a["turn"] == 1 and a["position"]["checkers"][0] == AHEAD
    assert a["cube_state"] == {"value": 2, "owner": "me", "match_length": 5, "score": [3, 1], "crawford": False,
                               "jacoby": False, "beaver": False, "max_cube": 64}
    assert a["actions"] == ["roll", "double"]
    # An XGID records its own stakes.
    xgid = tavla.formats.to_xgid(tavla.Position.start("backgammon"), cube_value=2, cube_owner=0, match_length=7,
                                 score=(2, 5))
    a = post_checked(client, openapi, ROUTE, {"new": {"xgid": xgid}})
    assert (a["match_length"], a["score"], a["cube"]["value"]) == (7, [2, 5], 2)
    error = post_checked(client, openapi, ROUTE, {"new": {"xgid": xgid, "match_length": 5}}, 422)["error"]
    assert error == "new.match_length 5 and the position's 7 disagree; give one"
    # A money position: a money session, with beaver from the position's cube rules.
    a = at(client, openapi, position={"cube_rules": {"beaver": True}})
    assert a["money"] and a["cube"]["beaver"]
    a = act(client, openapi, a, {"double": True})
    assert "beaver" in a["actions"]


@pytest.mark.parametrize("settings, error", [
    ({"match_length": 5, "jacoby": True}, "new.jacoby: the Jacoby rule belongs to money play"),
    ({"match_length": 5, "beaver": True}, "new.beaver: beavers belong to money play (match_length 0), not to a 5-point"),
    ({"match_length": 0, "crawford_game": True}, "new.crawford_game: the Crawford game belongs to match play"),
    ({"match_length": 0, "crawford": True}, "new.crawford: the Crawford rule belongs to match play"),
    ({"match_length": 5, "score": [5, 0]}, "new: player 0's score 5 already reaches the match length 5"),
    ({"match_length": 5, "score": [1, 1], "crawford_game": True}, "new: the Crawford game needs exactly one player one point from winning"),
    ({"match_length": 5, "max_cube": 12}, "new: max_cube must be a power of two"),
    ({"match_length": 65}, "new.match_length: Input should be less than or equal to 64"),
    ({"match_length": "5"}, "new.match_length: Input should be a valid integer"),
    ({"match_length": 5, "crawford": 1}, "new.crawford: Input should be a valid boolean"),
    ({"match_length": 5, "score": [1]}, "new.score: List should have at least 2 items"),
    ({"match_length": 3, "rules": {}}, "new.rules: Extra inputs are not permitted"),
])
def test_bad_settings_are_refused_naming_the_field(client, openapi, settings, error):
    assert new(client, openapi, 422, **settings)["error"].startswith(error)


def test_a_rule_option_the_variant_lacks_is_refused(client, openapi):
    body = {"new": {"position": {"variant": "backgammon", "rules": {"no_such_rule": True}}, "match_length": 3}}
    assert "no_such_rule" in post_checked(client, openapi, ROUTE, body, 422)["error"]


def test_refused_actions_name_the_action_and_the_reason(client, openapi):
    a = new(client, openapi, match_length=5)
    assert refused(client, openapi, a, {"take": True}) == \
        "action.take: cannot take now: the game is in its roll phase, not double_offered"
    assert refused(client, openapi, a, {"drop": True}).startswith("action.drop: cannot pass now")
    assert refused(client, openapi, a, {"beaver": True}).startswith("action.beaver: cannot beaver now")
    assert refused(client, openapi, a, {"next_game": True}) == "action.next_game: the current game is not over yet"
    assert refused(client, openapi, a, {"play": 0}).startswith("action.play: ")
    rolled = act(client, openapi, a, {"roll": [3, 1]})
    assert rolled["actions"] == ["play"] and not rolled["may_double"]
    assert refused(client, openapi, rolled, {"double": True}).startswith(
        "action.double: a double is offered before rolling")
    offered = act(client, openapi, a, {"double": True})
    assert refused(client, openapi, offered, {"roll": [3, 1]}).startswith("action.roll: cannot roll now")
    assert refused(client, openapi, offered, {"double": True}).startswith("action.double: ")
    # Beaver only in money play with beavers on.
    assert refused(client, openapi, offered, {"beaver": True}).startswith("action.beaver: beavers are not allowed")
    money = act(client, openapi, new(client, openapi, match_length=0), {"double": True})
    assert money["actions"] == ["take", "drop"]
    assert refused(client, openapi, money, {"beaver": True}).startswith("action.beaver: beavers are not allowed")
    # The cube off.
    off = new(client, openapi, match_length=0, cube=False)
    assert off["actions"] == ["roll"] and off["why_no_double"] == "this game is played without the doubling cube"
    # The action's shape.
    for action, error in [({}, "action: give exactly one of roll, play, plays, double"),
                          ({"double": True, "roll": [3, 1]}, "action: give exactly one"),
                          ({"double": False}, "action.double: give true to ask for this action"),
                          ({"take": 1}, "action.take: Input should be a valid boolean")]:
        assert refused(client, openapi, a, action).startswith(error), action


def test_broken_records_and_request_shapes(client, openapi):
    a = new(client, openapi, match_length=5)
    body = {"match": a["match"], "new": {"position": {"variant": "backgammon"}}}
    assert post_checked(client, openapi, ROUTE, body, 422)["error"].startswith("give exactly one of match")
    assert post_checked(client, openapi, ROUTE, {}, 422)["error"].endswith("given: neither")
    events = [{"type": "begin", "starter": 0}, {"type": "roll", "player": 1, "dice": [3, 1]}]
    broken = dict(a["match"], games=[{"events": events, "result": None}])
    error = post_checked(client, openapi, ROUTE, {"match": broken}, 422)["error"]
    assert error == "match: game 1: event 1 (roll) is by player 1, but it is player 0's to make"
    tampered = dict(a["match"], length=2, initial_score=[2, 0])
    assert "match is over" in post_checked(client, openapi, ROUTE, {"match": tampered}, 422)["error"]
    game = post_checked(client, openapi, "/v1/turn", {"new": {"position": {"variant": "backgammon"}}})["game"]
    error = post_checked(client, openapi, ROUTE, {"match": game}, 422)["error"]
    assert error == 'match: a match record has "format": "tavla.match"'


def test_gul_bara_and_nardy_matches_play_through_the_route(client, openapi):
    for variant in ("nardy", "gulbara"):
        a = new(client, openapi, variant=variant, match_length=3)
        a = act(client, openapi, a, {"roll": [6, 5]})
        a = act(client, openapi, a, {"play": 0})
        assert a["turn"] == 1 and a["actions"] == ["roll", "double"] and a["variant"] == variant


def test_the_turn_route_is_unchanged(client, openapi):
    t = post_checked(client, openapi, "/v1/turn", {"new": {"position": {"variant": "backgammon"}}})
    assert "game" in t and "match" not in t and t["phase"] == "roll"
    assert post_checked(client, openapi, "/v1/turn", {"game": t["game"], "action": {"double": True}}, 422)[
        "error"].startswith("action.double: Extra inputs are not permitted")


def test_a_game_that_opens_with_a_roll_off(client, openapi):
    # A match record whose game has not begun: a roll is the roll-off, [player 0's die, player 1's].
    record = json.loads(tavla.Match("backgammon", 3, seed=1).to_json())
    a = post_checked(client, openapi, ROUTE, {"match": record})
    assert (a["phase"], a["actions"]) == ("opening_roll", ["roll"])
    a = act(client, openapi, a, {"roll": [2, 5]})
    # Backgammon's starter plays the roll-off dice.
    assert (a["phase"], a["turn"], sorted(a["dice"])) == ("move", 1, [2, 5])
    tie = act(client, openapi, post_checked(client, openapi, ROUTE, {"match": record}), {"roll": [4, 4]})
    assert tie["phase"] == "opening_roll"


def test_nardy_single_dice_opening_through_the_route(client, openapi):
    # opening_roll=single_dice: the nardy starter plays the roll-off dice, as in backgammon;
    # with the default the starter rolls again.
    for rules, phase in (({"opening_roll": "single_dice"}, "move"), ({}, "roll")):
        record = json.loads(tavla.Match("nardy", 3, seed=1, **rules).to_json())
        a = act(client, openapi, post_checked(client, openapi, ROUTE, {"match": record}), {"roll": [2, 5]})
        assert (a["phase"], a["turn"]) == (phase, 1), rules
