"""The cube over HTTP: POST /v1/cube, and the optional ``cube`` of /v1/hint and /v1/engine-move, on a
real loopback server with the real engine. Answers are checked against the service's OpenAPI schema
and against ``tavla.Engine`` called directly."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the service needs the serve extra (fastapi, uvicorn)")

import tavla  # noqa: E402
from serving import arrays, client_fixture, post_checked as post  # noqa: E402
from tavla import formats  # noqa: E402
from tavla.service import Settings  # noqa: E402


BG = "backgammon"


# A race 62 pips to 73 with nothing to hit: a double the opponent must pass.
PASS_MINE, PASS_THEIRS = arrays({6: 4, 5: 3, 4: 3, 3: 2, 2: 2, 1: 1}), arrays({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 9: 2})


client = client_fixture(Settings(workers=2, default_ply=1, max_ply=2, time_limit=20), timeout=30)


@pytest.fixture(scope="module")
def engine():
    return tavla.Engine(BG, ply=1)


def test_cube_route_is_in_the_schema(openapi):
    assert "/v1/cube" in openapi["paths"]
    hint = openapi["components"]["schemas"]["HintRequest"]["properties"]
    assert "cube" in hint and "cube" in openapi["components"]["schemas"]["EngineMoveRequest"]["properties"]


def test_cube_money_double_pass_matches_the_engine(client, openapi, engine):
    body = post(client, openapi, "/v1/cube",
                {"position": {"variant": BG, "mine": PASS_MINE, "theirs": PASS_THEIRS}, "ply": 1})
    direct = engine.cube_decision(tavla.Position.from_arrays(BG, PASS_MINE, PASS_THEIRS), tavla.CubeState())
    assert body["should_double"] and not body["should_take"] and body["action"] == direct.action == "double, pass"
    for name in ("no_double", "double_take", "double_pass", "equity"):
        assert body[name] == pytest.approx(getattr(direct, name), abs=1e-9), name
    assert body["mwc"] is None and body["cube"]["is_money"] and body["cube"]["owner"] is None
    assert body["equity"] == pytest.approx(1.0) and body["ply"] == 1 and body["time_ms"] >= 0
    assert 0.75 < body["evaluation"]["probabilities"]["win"] < 1.0


def test_cube_match_play_answers_match_winning_chances(client, openapi, engine):
    cube = {"value": 2, "owner": "me", "match_length": 7, "score": [2, 4]}
    body = post(client, openapi, "/v1/cube", {"position": {"variant": BG}, "cube": cube, "ply": 1})
    direct = engine.cube_decision(tavla.Position.start(BG), tavla.CubeState(value=2, owner="me", match_length=7, score=(2, 4)))
    assert body["action"] == direct.action
    assert [body["mwc"][k] for k in ("no_double", "double_take", "double_pass")] == pytest.approx(list(direct.mwc))
    assert body["cube"]["match_length"] == 7 and body["cube"]["score"] == [2, 4] and body["cube"]["owner"] == "me"


def test_cube_state_comes_from_an_xgid_seen_from_the_player_on_roll(client, openapi, engine):
    # Player 1 (top) on roll at 2-4 (player 0 has 2), cube 2 owned by player 1: "me" at 4-2.
    position = tavla.Position.start(BG)
    xgid = formats.to_xgid(position, turn=1, match_length=7, score=(2, 4), cube_value=2, cube_owner=1)
    body = post(client, openapi, "/v1/cube", {"xgid": xgid})
    assert body["cube"]["score"] == [4, 2] and body["cube"]["owner"] == "me" and body["cube"]["value"] == 2
    direct = engine.cube_decision(position, tavla.CubeState(value=2, owner="me", match_length=7, score=(4, 2)))
    assert body["equity"] == pytest.approx(direct.equity)
    # An explicit cube wins over the text's.
    body = post(client, openapi, "/v1/cube", {"xgid": xgid, "cube": {"value": 2, "owner": "opponent"}})
    assert body["cube"]["is_money"] and not body["cube"]["may_double"] and body["action"] == "no double available"
    # A Crawford game recorded in a gnubg Match ID: no double.
    gid = formats.to_gnubg_id(position, turn=0, match_length=5, score=(4, 2), crawford=True)
    body = post(client, openapi, "/v1/cube", {"gnubg_id": gid})
    assert body["cube"]["crawford"] and body["action"] == "no double available" and not body["should_double"]


def test_double_offered_in_the_text_is_reported(client, openapi):
    xgid = formats.to_xgid(tavla.Position.from_arrays(BG, PASS_MINE, PASS_THEIRS), turn=0, double_offered=True)
    body = post(client, openapi, "/v1/cube", {"xgid": xgid})
    assert body["double_offered"] and body["should_double"] and not body["should_take"]


@pytest.mark.parametrize(
    "cube, words",
    [
        ({"value": 3, "owner": "me"}, "cube: "),
        ({"value": 2}, "owner"),
        ({"crawford": True}, "Crawford"),
        ({"match_length": 7, "score": [7, 1]}, "match is over"),
        ({"match_length": 5, "jacoby": True}, "Jacoby"),
        ({"score": [1, 0]}, "money"),
        ({"max_cube": 3}, "maximum"),
        ({"owner": "nobody"}, "cube.owner"),
        ({"value": 0}, "cube.value"),
        ({"score": [1, 2, 3]}, "cube.score"),
        ({"match_length": 65}, "cube.match_length"),
        ({"colour": "white"}, "cube.colour"),
    ],
)
@pytest.mark.parametrize("path", ["/v1/cube", "/v1/hint", "/v1/engine-move"])
def test_bad_cube_states_answer_422_naming_the_field(client, openapi, cube, words, path):
    body = post(client, openapi, path, {"position": {"variant": BG}, "dice": [3, 1], "cube": cube}
                if path != "/v1/cube" else {"position": {"variant": BG}, "cube": cube}, 422)
    assert words in body["error"] and "cube" in body["error"], body


def test_cube_route_refuses_bad_positions_and_plies(client, openapi):
    post(client, openapi, "/v1/cube", {"xgid": "XGID=nonsense:1:2:3:4:5:6:7:8:9"}, 422)
    body = post(client, openapi, "/v1/cube", {"position": {"variant": BG}, "ply": 3}, 422)
    assert "ply" in body["error"]
    body = post(client, openapi, "/v1/cube", {"position": {"variant": BG}, "xgid": "XGID=x"}, 422)
    assert "exactly one" in body["error"]


@pytest.mark.parametrize("variant", ["nardy", "gulbara"])
def test_cube_in_the_other_variants(client, openapi, variant):
    body = post(client, openapi, "/v1/cube", {"position": {"variant": variant}, "cube": {"match_length": 5, "score": [1, 3]}})
    assert body["variant"] == variant and body["mwc"] is not None
    assert body["equity"] == pytest.approx(max(body["no_double"], min(body["double_take"], body["double_pass"])), abs=1e-9)


def test_hint_ranks_cubefully_when_given_a_cube(client, openapi, engine):
    position = tavla.Position.start(BG)
    cube = tavla.CubeState(value=2, owner="me", match_length=7, score=(2, 4))
    body = post(client, openapi, "/v1/hint", {"position": {"variant": BG}, "dice": [6, 5], "ply": 1, "top": 3,
                                              "cube": {"value": 2, "owner": "me", "match_length": 7, "score": [2, 4]}})
    direct = engine.hint(position, 6, 5, top=3, cube=cube)
    assert body["cubeful"] and body["cube"]["description"] == str(cube)
    assert [c["move"]["notation"] for c in body["candidates"]] == [str(c.move) for c in direct]
    assert [c["equity"] for c in body["candidates"]] == pytest.approx([c.equity for c in direct])
    assert all(c["mwc"] is not None and 0 <= c["mwc"] <= 1 for c in body["candidates"])
    # Without a cube: cubeless, as before, and the equities differ from the cubeful ones.
    plain = post(client, openapi, "/v1/hint", {"position": {"variant": BG}, "dice": [6, 5], "ply": 1, "top": 3})
    assert not plain["cubeful"] and plain["cube"] is None and all(c["mwc"] is None for c in plain["candidates"])
    assert plain["candidates"][0]["equity"] != pytest.approx(body["candidates"][0]["equity"], abs=1e-3)


def test_engine_move_with_a_cube_is_the_cubeful_choice(client, openapi, engine):
    mine, theirs = PASS_MINE, PASS_THEIRS
    position = tavla.Position.from_arrays(BG, mine, theirs)
    cube = {"match_length": 3, "score": [1, 1], "value": 2, "owner": "opponent"}
    body = post(client, openapi, "/v1/engine-move",
                {"position": {"variant": BG, "mine": mine, "theirs": theirs}, "dice": [6, 2], "ply": 1, "cube": cube})
    best = engine.best_move(position, 6, 2, cube=tavla.CubeState(value=2, owner="opponent", match_length=3, score=(1, 1)))
    assert body["cubeful"] and body["cube"]["value"] == 2 and body["move"]["notation"] == str(best)
