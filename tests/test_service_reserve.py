"""/v1/turn (and the engine routes) for Dutch backgammon and acey-deucey, over a real loopback server:
the reserve carried in positions and game records, acey-deucey's 1-2 with its named number and the same
player's extra roll, and a position with a reserve given as a new game (a Dutch game played to its end
is in test_service_turn.py).
Every answer is checked against the service's published schema."""

from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("fastapi", reason="the service needs the serve extra (fastapi, uvicorn)")

import tavla  # noqa: E402
from serving import client_fixture, post_checked  # noqa: E402
from tavla.service import Settings  # noqa: E402

client = client_fixture(Settings(workers=1, default_ply=0, max_ply=1, time_limit=30, max_body=4096, max_game_body=256 * 1024))


def turn(client, openapi, body, status=200):
    return post_checked(client, openapi, "/v1/turn", body, status)


def act(client, openapi, answer, action, status=200):
    return turn(client, openapi, {"game": answer["game"], "action": action}, status)


def test_an_acey_deucey_one_two_rolls_again(client, openapi):
    start = turn(client, openapi, {"new": {"position": {"variant": "acey_deucey"}}})
    assert start["position"]["reserve"] == [15, 15] and start["position"]["off"] == [0, 0]
    assert (start["phase"], start["turn"], start["is_extra_roll"]) == ("roll", 0, False)
    rolled = act(client, openapi, start, {"roll": [1, 2]})
    moves = rolled["moves"]
    assert {m["named"] for m in moves} == {1, 2, 3, 4, 5, 6} and all(m["rolls_again"] for m in moves)
    assert all(" named " in m["notation"] for m in moves)
    k = next(k for k, m in enumerate(moves) if m["named"] == 6)
    again = act(client, openapi, rolled, {"play": k})
    assert (again["phase"], again["turn"], again["is_extra_roll"]) == ("roll", 0, True)
    assert again["position"] == moves[k]["position"]
    assert again["game"]["events"][-1]["rolls_again"] is True
    # By notation, as the moves list writes it, the same play.
    by_text = act(client, openapi, rolled, {"play": moves[k]["notation"]})
    assert by_text["game"] == again["game"]
    bad = act(client, openapi, rolled, {"play": moves[k]["notation"].replace("named 6", "named 7")}, 422)
    assert "1 to 6" in bad["error"]
    extra = act(client, openapi, again, {"roll": [6, 5]})
    assert extra["turn"] == 0 and extra["game"]["events"][-1] == {"type": "roll", "player": 0, "dice": [6, 5], "extra": True}
    after = act(client, openapi, extra, {"play": 0})
    assert (after["turn"], after["phase"], after["is_extra_roll"]) == (1, "roll", False)
    # A position at the extra roll (as Game.to_position_json writes it) starts a game there.
    position = json.loads(tavla.Game.from_json(json.dumps(again["game"])).to_position_json())
    resumed = turn(client, openapi, {"new": {"position": position}})
    assert resumed["is_extra_roll"] and resumed["turn"] == 0 and resumed["game"]["start"]["position"]["extra_roll"]
    game = tavla.Game.from_json(json.dumps(after["game"]))
    assert game.history[3]["extra"] is True and game.turn == 1  # begin, roll, the 1-2, the extra roll


def test_a_position_with_a_reserve_starts_a_game_and_is_analysed(client, openapi):
    position = {"variant": "dutch", "rules": {"enter_all_first": False},
                "checkers": [[0] * 12 + [2] + [0] * 11, [0] * 19 + [1] + [0] * 4],
                "reserve": [13, 14], "turn": 0}
    answer = turn(client, openapi, {"new": {"position": position}, "action": {"roll": [4, 4]}})
    assert answer["position"]["reserve"] == [13, 14] and answer["position"]["off"] == [0, 0]
    assert answer["game"]["start"]["position"]["reserve"] == [13, 14]
    # No early hitting: nothing of player 0 is home, so its 4s may not hit player 1's blot.
    assert all(not any(m["hits"]) for m in answer["moves"])
    # The engine routes play the reserve games with the heuristic evaluator, rollouts too.
    hint = post_checked(client, openapi, "/v1/hint", {"position": position, "dice": [6, 5]})
    assert hint["variant"] == "dutch" and hint["candidates"]
    job = post_checked(client, openapi, "/v1/rollouts", {"position": position, "trials": 4, "seed": 1, "truncate": 6}, 202)
    for _ in range(600):
        done = client.get(f"/v1/rollouts/{job['id']}").json()
        if done["state"] != "queued" and done["state"] != "running":
            break
        time.sleep(0.1)
    assert done["state"] == "done" and done["done"] == 4
    # A reserve where the variant has none is refused.
    bad = turn(client, openapi, {"new": {"position": {**position, "variant": "backgammon", "rules": {}}}}, 422)
    assert "reserve" in bad["error"]
