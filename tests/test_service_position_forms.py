"""The service reads positions in the package's one JSON form (the form ``tavla.formats.to_json`` writes
and ``tavla.formats.parse``, ``tavla show`` and ``tavla hint`` read), in every text form the package
reads (XGID, gnubg ID, FIBS board), and still the older mine/theirs form, whose answers are marked
deprecated."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi", reason="the service needs the serve extra (fastapi, uvicorn)")

import tavla  # noqa: E402
from serving import client_fixture, post_checked_response  # noqa: E402
from tavla import formats  # noqa: E402
from tavla.sampling import random_positions  # noqa: E402


client = client_fixture(None, timeout=20)


post = post_checked_response


def project_form(position, **context):
    return json.loads(formats.to_json(position, **context))


SAMPLES = [p for variant in ("backgammon", "nardy", "gulbara") for p in random_positions(variant, 4, seed=11)]


@pytest.mark.parametrize("position", SAMPLES, ids=lambda p: p.variant)
def test_the_packages_json_form_names_the_same_position_in_the_service(client, openapi, position):
    for turn in (0, 1):
        # Whoever is on roll, the service reads the position from that player's side, as parse does.
        form = project_form(position, turn=turn)
        assert formats.parse(json.dumps(form))["position"] == position
        r = post(client, openapi, "/v1/moves", {"position": form, "dice": [5, 2]})
        assert "deprecation" not in r.headers
        assert [m["notation"] for m in r.json()["moves"]] == [m.notation for m in position.legal_moves(5, 2)]


@pytest.mark.parametrize("position", SAMPLES[::3], ids=lambda p: p.variant)
def test_an_answers_position_sent_back_is_the_same_position_and_not_deprecated(client, openapi, position):
    answer = post(client, openapi, "/v1/position", {"position": project_form(position)}).json()["position"]
    mine, theirs = position.to_arrays()
    assert answer["checkers"] == [list(mine[:24]), list(theirs[:24])] and answer["bar"] == [mine[24], theirs[24]]
    assert answer["off"] == list(position.off)
    again = post(client, openapi, "/v1/position", {"position": answer})
    assert again.json()["position"] == answer
    assert "deprecation" not in again.headers
    # The checkers form alone, without the deprecated copy, reads the same.
    slim = {k: v for k, v in answer.items() if k not in ("mine", "theirs")}
    assert post(client, openapi, "/v1/position", {"position": slim}).json()["position"] == answer


def test_the_old_form_is_read_with_a_deprecation_header(client, openapi):
    position = SAMPLES[1]
    mine, theirs = position.to_arrays()
    r = post(client, openapi, "/v1/moves", {"position": {"variant": "backgammon", "mine": mine, "theirs": theirs},
                                            "dice": [6, 1]})
    assert r.headers["deprecation"] == "true"
    assert "checkers" in r.headers["warning"] and r.headers["warning"].startswith("299 ")
    assert [m["notation"] for m in r.json()["moves"]] == [m.notation for m in position.legal_moves(6, 1)]
    # In a new game of /v1/turn too.
    r = post(client, openapi, "/v1/turn", {"new": {"position": {"variant": "backgammon", "mine": mine, "theirs": theirs}}})
    assert r.headers["deprecation"] == "true"


def test_two_forms_that_disagree_are_refused(client, openapi):
    position = SAMPLES[1]
    form = project_form(position)
    mine, theirs = tavla.Position.start().to_arrays()
    r = post(client, openapi, "/v1/position", {"position": {**form, "mine": mine, "theirs": theirs}}, 422)
    assert "different positions" in r.json()["error"]
    r = post(client, openapi, "/v1/position", {"position": {"variant": "backgammon", "mine": mine, "theirs": theirs,
                                                            "dice": [3, 1]}}, 422)
    assert "write checkers and bar" in r.json()["error"]


@pytest.mark.parametrize("body,words", [
    ({"position": {"variant": "backgammon", "checkers": [[0] * 24]}}, "checkers"),
    ({"position": {"variant": "backgammon", "checkers": [["2"] + [0] * 23, [0] * 24]}}, "checkers"),
    ({"position": {"variant": "backgammon", "checkers": [[True] + [0] * 23, [0] * 24]}}, "checkers"),
    ({"position": {"variant": "backgammon", "checkers": [[15] + [0] * 23, [15] + [0] * 23], "turn": 2}}, "turn"),
    ({"position": {"variant": "backgammon", "checkers": [[16] + [0] * 23, [0] * 24]}}, "checkers"),
    ({"position": {"variant": "nardy", "checkers": [[0] * 23 + [15], [0] * 23 + [15]], "off": [1, 0]}}, "off"),
    ({"position": {"variant": "backgammon", "cube": {"value": 3}}}, "cube"),
    ({"fibs": "board:You:Them:1:0:0"}, "fibs"),
])
def test_a_broken_json_position_is_a_422_naming_the_field(client, openapi, body, words):
    r = post(client, openapi, "/v1/position", body, 422)
    assert words in r.json()["error"]


def test_dice_and_the_cube_of_a_json_position_are_used(client, openapi):
    start = project_form(tavla.Position.start(), dice=(6, 5))
    # The checkers and the dice alone: a cubeless hint.
    bare = {k: start[k] for k in ("variant", "checkers", "dice")}
    hint = post(client, openapi, "/v1/hint", {"position": bare, "top": 1}).json()
    assert hint["dice"] == [6, 5] and hint["cubeful"] is False
    # to_json writes the cube (centered, money): a cubeful money hint, as for an XGID.
    hint = post(client, openapi, "/v1/hint", {"position": start, "top": 1}).json()
    assert hint["cubeful"] is True and hint["cube"]["is_money"] is True
    # A match score in the JSON makes the hint a match hint, as an XGID's does.
    in_match = project_form(tavla.Position.start(), dice=(6, 5), match_length=5, score=(1, 3))
    hint = post(client, openapi, "/v1/hint", {"position": in_match, "top": 1}).json()
    assert hint["cubeful"] is True
    assert hint["cube"]["match_length"] == 5 and hint["cube"]["score"] == [1, 3]
    # The cube decision reads the owner from the JSON too (player 1 owns it; player 0 is on roll).
    owned = project_form(tavla.Position.start(), cube_value=2, cube_owner=1)
    cube = post(client, openapi, "/v1/cube", {"position": owned}).json()
    assert cube["cube"]["value"] == 2 and cube["cube"]["owner"] == "opponent" and cube["action"] == "no double available"


def test_a_fibs_board_is_read(client, openapi):
    position = SAMPLES[2]
    r = post(client, openapi, "/v1/position", {"fibs": formats.to_fibs(position)}).json()
    mine, theirs = position.to_arrays()
    assert r["position"]["mine"] == list(mine) and r["position"]["theirs"] == list(theirs)


def test_a_new_game_from_a_json_position_with_player_one_on_roll(client, openapi):
    position = SAMPLES[0]
    turn = post(client, openapi, "/v1/turn", {"new": {"position": project_form(position, turn=1)}}).json()
    assert turn["turn"] == 1 and turn["phase"] == "roll"
    mine, theirs = position.to_arrays()
    assert turn["position"]["mine"] == list(mine)
    # The answer's position (from the player on turn's side) starts the same game with new.turn.
    again = post(client, openapi, "/v1/turn", {"new": {"position": turn["position"], "turn": 1}}).json()
    assert again["position"] == turn["position"] and again["turn"] == 1
    r = post(client, openapi, "/v1/turn", {"new": {"position": project_form(position, turn=1), "turn": 0}}, 422)
    assert "disagree" in r.json()["error"]
