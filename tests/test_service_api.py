"""The hint service over a real loopback HTTP server: routes, answers, every error path,
and every answer checked against the service's published OpenAPI schema."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

pytest.importorskip("fastapi", reason="the service needs the serve extra (fastapi, uvicorn)")

import tavla  # noqa: E402
from serving import post_checked as post, check_against_schema, running  # noqa: E402
from tavla.sampling import random_positions  # noqa: E402
from tavla.service import Settings, create_app, positions  # noqa: E402
from tavla.service.config import settings_from_env, with_overrides  # noqa: E402
from tavla.service.engine_pool import Busy, EnginePool, TimedOut  # noqa: E402


def boom_app():
    """The service plus one route that fails unexpectedly, to see what a client gets."""
    app = create_app(Settings(max_body=1024))

    @app.get("/v1/boom", include_in_schema=False)
    async def boom():
        raise RuntimeError("secret internal detail in /some/file.py line 42")

    return app


@pytest.fixture(scope="module")
def base():
    with running(boom_app()) as url:
        yield url


@pytest.fixture(scope="module")
def client(base):
    with httpx.Client(base_url=base, timeout=10) as c:
        yield c


START_BG = {"variant": "backgammon"}


# -- service routes --------------------------------------------------------------------------

def test_health(client, openapi):
    r = client.get("/v1/health")
    assert r.status_code == 200
    check_against_schema(openapi, "get", "/v1/health", r)
    body = r.json()
    assert body["status"] == "ok"
    assert body["engine"] is True
    assert body["busy"] == 0


def test_version(client, openapi):
    r = client.get("/v1/version")
    check_against_schema(openapi, "get", "/v1/version", r)
    body = r.json()
    assert body["tavla"] == tavla.__version__
    assert body["variants"] == ["backgammon", "nardy", "gulbara", "dutch", "acey_deucey"]
    described = openapi["components"]["schemas"]["VersionOut"]["properties"]["variants"]["description"]
    assert "variants this service plays" in described
    assert body["formats"]["plain"] is True
    assert (body["default_ply"], body["max_ply"]) == (1, 2)


def test_openapi_lists_every_route_under_v1(openapi):
    assert openapi["openapi"].startswith("3.")
    paths = set(openapi["paths"])
    assert paths == {"/v1/health", "/v1/version", "/v1/moves", "/v1/position", "/v1/cascade-step", "/v1/hint",
                     "/v1/evaluate", "/v1/engine-move", "/v1/handover", "/v1/cube", "/v1/turn", "/v1/match-turn",
                     "/v1/analyses", "/v1/analyses/{job_id}", "/v1/rollouts", "/v1/rollouts/{job_id}"}
    for path in ["/v1/moves", "/v1/hint", "/v1/evaluate", "/v1/engine-move", "/v1/handover", "/v1/cube", "/v1/turn",
                 "/v1/match-turn"]:
        declared = set(openapi["paths"][path]["post"]["responses"])
        assert {"200", "400", "413", "422"} <= declared, path
        # 422 answers are the service's own {"error": ...}, not FastAPI's default shape.
        assert openapi["paths"][path]["post"]["responses"]["422"]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/ErrorOut"}


def test_board_is_served_at_root(client):
    r = client.get("/")
    assert r.status_code == 200
    assert "text/html" in r.headers["content-type"]
    assert "<svg" in r.text or "board.js" in r.text
    assert client.get("/static/board.js").status_code == 200


# -- legal moves -----------------------------------------------------------------------------

def test_moves_from_the_start_match_the_library(client, openapi):
    body = post(client, openapi, "/v1/moves", {"position": START_BG, "dice": [3, 1]}, 200)
    expected = tavla.Position.start("backgammon").legal_moves(3, 1)
    assert body["count"] == len(expected) == len(body["moves"])
    assert [m["notation"] for m in body["moves"]] == [m.notation for m in expected]
    first = body["moves"][0]
    assert first["position"]["mine"] == expected[0].position.to_arrays()[0]
    assert first["steps"] == [list(s) for s in expected[0].steps]
    assert "8/5 6/5" in [m["notation"] for m in body["moves"]]


@pytest.mark.parametrize("variant", ["backgammon", "nardy", "gulbara"])
def test_moves_for_every_variant(client, openapi, variant):
    body = post(client, openapi, "/v1/moves", {"position": {"variant": variant}, "dice": [6, 5]}, 200)
    assert body["variant"] == variant
    assert body["count"] >= 1
    for m in body["moves"]:
        assert sum(m["position"]["mine"]) + 0 <= 15
        assert m["position"]["variant"] == variant


def test_moves_from_arrays_with_rules(client, openapi):
    mine = [0] * 25
    mine[23] = 15
    theirs = list(mine)
    body = post(client, openapi, "/v1/moves",
                {"position": {"variant": "nardy", "mine": mine, "theirs": theirs, "rules": {"fence_rule": "home"}},
                 "dice": [3, 3]}, 200)
    assert sorted(m["notation"] for m in body["moves"]) == ["24/15 24/21", "24/18(2)"]
    assert body["moves"][0]["position"]["rules"]["fence_rule"] == "home"


def test_moves_pass_and_hit(client, openapi):
    mine = [0] * 25
    mine[24] = 1  # on the bar
    mine[5] = 14
    theirs = [0] * 25
    theirs[2] = 1  # their 3-point is my 22-point: a blot
    theirs[10] = 14
    body = post(client, openapi, "/v1/moves",
                {"position": {"variant": "backgammon", "mine": mine, "theirs": theirs}, "dice": [3, 1]}, 200)
    assert any(any(m["hits"]) for m in body["moves"])
    closed = [0] * 25
    for p in range(18, 24):  # their 1..6 points: my 19..24, a closed board
        closed[25 - (p + 1) - 1] = 2
    closed[0] = 3
    body = post(client, openapi, "/v1/moves",
                {"position": {"variant": "backgammon", "mine": mine, "theirs": closed}, "dice": [6, 6]}, 200)
    assert body["count"] == 1 and body["moves"][0]["is_pass"] and body["moves"][0]["notation"] == "no move"


def test_game_over_is_reported(client, openapi):
    mine = [0] * 25
    mine[0] = 1  # the last checker on my 1-point
    theirs = [0] * 25
    theirs[5] = 15
    body = post(client, openapi, "/v1/moves",
                {"position": {"variant": "backgammon", "mine": mine, "theirs": theirs}, "dice": [2, 1]}, 200)
    assert body["moves"][0]["game_over"] is True
    assert sum(body["moves"][0]["position"]["mine"]) == 0


def test_position_reads_and_answers_the_plain_form(client, openapi):
    mine = [0] * 25
    mine[24] = 1
    mine[5] = 10  # 4 borne off
    theirs = [0] * 25
    theirs[2] = 1
    theirs[10] = 14
    body = post(client, openapi, "/v1/position",
                {"position": {"variant": "backgammon", "mine": mine, "theirs": theirs}}, 200)
    assert body["position"]["mine"] == mine and body["position"]["theirs"] == theirs
    assert body["off"] == [4, 0]
    assert body["pips"] == [25 + 60, 3 + 14 * 11]
    assert body["dice"] is None and body["game_over"] is False
    start = post(client, openapi, "/v1/position", {"position": {"variant": "nardy"}}, 200)
    assert start["position"]["mine"][23] == 15 and start["position"]["rules"]["fence_rule"] == "ahead"
    bad = post(client, openapi, "/v1/position", {"position": {"variant": "nardy"}, "dice": [1, 2]}, 422)
    assert "dice" in bad["error"]


def test_cascade_step_matches_the_library(client, openapi):
    body = post(client, openapi, "/v1/cascade-step", {"position": {"variant": "gulbara"}, "die": 3}, 200)
    expected = tavla.Position.start("gulbara").legal_cascade_step(3, 4, 0)
    assert [m["notation"] for m in body["moves"]] == [m.notation for m in expected]
    assert [m["moves_played"] for m in body["moves"]] == [4] * len(expected)
    assert [m["head_used"] for m in body["moves"]] == [m.head_used for m in expected]
    # A share passed on mid-cascade: two moves of 6 left, one head checker already used.
    mine = [0] * 25
    mine[17] = 1
    mine[23] = 14
    theirs = [0] * 25
    theirs[23] = 15
    body = post(client, openapi, "/v1/cascade-step",
                {"position": {"variant": "gulbara", "mine": mine, "theirs": theirs}, "die": 6, "count": 2,
                 "head_used": 1}, 200)
    expected = tavla.Position.from_arrays("gulbara", mine, theirs).legal_cascade_step(6, 2, 1)
    assert [(m["notation"], m["moves_played"]) for m in body["moves"]] == [
        (m.notation, m.moves_played) for m in expected]


@pytest.mark.parametrize("body,words", [
    ({"position": {"variant": "nardy"}, "die": 3}, "cascade steps belong to gul bara, not nardy"),
    ({"position": {"variant": "gulbara"}, "die": 7}, "die"),
    ({"position": {"variant": "gulbara"}, "die": 3, "count": 5}, "count"),
    ({"position": {"variant": "gulbara"}, "die": 3, "head_used": -1}, "head_used"),
    ({"position": {"variant": "gulbara"}}, "die: Field required"),
])
def test_cascade_step_refuses_bad_input(client, openapi, body, words):
    assert words in post(client, openapi, "/v1/cascade-step", body, 422)["error"]


# -- bad input: 4xx naming the problem ------------------------------------------------------

BAD = [
    ({"position": {"variant": "chess"}, "dice": [3, 1]}, 422,
     "position.variant: Input should be 'backgammon', 'nardy', 'gulbara', 'dutch' or 'acey_deucey'"),
    ({"position": START_BG, "dice": [7, 1]}, 422, "dice.0"),
    ({"position": START_BG, "dice": [0, 1]}, 422, "dice.0"),
    ({"position": START_BG, "dice": [3]}, 422, "dice"),
    ({"position": START_BG, "dice": [3, 1, 2]}, 422, "dice"),
    ({"position": START_BG, "dice": ["a", 1]}, 422, "dice.0"),
    ({"position": START_BG}, 422, "dice are missing"),
    ({"dice": [3, 1]}, 422, "exactly one of position, xgid, gnubg_id or fibs"),
    ({"position": START_BG, "gnubg_id": "4HPwATDgc/ABMA", "dice": [3, 1]}, 422, "exactly one"),
    ({"postion": START_BG, "dice": [3, 1]}, 422, "postion"),
    ({"position": {"variant": "backgammon", "mine": [0] * 25}, "dice": [3, 1]}, 422, "both mine and theirs"),
    ({"position": {"variant": "backgammon", "mine": [0] * 24, "theirs": [0] * 25}, "dice": [3, 1]}, 422,
     "position.mine"),
    ({"position": {"variant": "backgammon", "mine": [1] * 25, "theirs": [0] * 25}, "dice": [3, 1]}, 422,
     "a player has only 15"),
    ({"position": {"variant": "backgammon", "mine": [-1] + [0] * 24, "theirs": [0] * 25}, "dice": [3, 1]}, 422,
     "position.mine.0"),
    ({"position": {"variant": "nardy", "rules": {"foo": 1}}, "dice": [3, 1]}, 422, 'unknown rule option "foo"'),
    ({"position": {"variant": "nardy", "rules": {"fence_rule": "sometimes"}}, "dice": [3, 1]}, 422, "fence_rule"),
    ({"position": [1, 2, 3], "dice": [3, 1]}, 422, "position"),
    ([1, 2], 422, "body"),
]


@pytest.mark.parametrize("body,status,words", BAD, ids=[w for _, _, w in BAD])
def test_bad_moves_requests_name_the_problem(client, openapi, body, status, words):
    answer = post(client, openapi, "/v1/moves", body, status)
    assert words in answer["error"]
    assert "Traceback" not in answer["error"]


from tavla import formats


def test_version_lists_the_text_formats(client):
    assert client.get("/v1/version").json()["formats"] == {"plain": True, "xgid": True, "gnubg_id": True, "fibs": True}


@pytest.mark.parametrize("variant_seed", [1, 2, 3])
def test_xgid_and_gnubg_ids_round_trip_through_the_service(client, openapi, variant_seed):
    for pos in random_positions("backgammon", 8, seed=variant_seed):
        for field, text in [("xgid", formats.to_xgid(pos)), ("gnubg_id", formats.to_gnubg_id(pos))]:
            body = post(client, openapi, "/v1/position", {field: text}, 200)
            assert (body["position"]["mine"], body["position"]["theirs"]) == pos.to_arrays(), (field, text)
            assert body["dice"] is None


def test_moves_take_the_dice_from_the_xgid(client, openapi):
    start = tavla.Position.start("backgammon")
    xgid = formats.to_xgid(start, dice=(3, 1))
    body = post(client, openapi, "/v1/moves", {"xgid": xgid}, 200)
    assert body["dice"] == [3, 1]
    assert [m["notation"] for m in body["moves"]] == [m.notation for m in start.legal_moves(3, 1)]
    # Dice in the request win over the text's.
    assert post(client, openapi, "/v1/moves", {"xgid": xgid, "dice": [6, 5]}, 200)["dice"] == [6, 5]
    gnubg = formats.to_gnubg_id(start, dice=(6, 4))
    assert post(client, openapi, "/v1/moves", {"gnubg_id": gnubg}, 200)["dice"] == [6, 4]
    bare = formats.position_id(start)
    assert post(client, openapi, "/v1/moves", {"gnubg_id": bare}, 422)["error"].startswith("dice are missing")
    assert post(client, openapi, "/v1/moves", {"gnubg_id": bare, "dice": [2, 1]}, 200)["count"] == len(
        start.legal_moves(2, 1))


@pytest.mark.parametrize("body,words", [
    ({"gnubg_id": "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"}, "gnubg_id 'XGID=-b----E-C---eE---c-e-"),
    ({"xgid": "4HPwATDgc/ABMA:cAkAAAAAAAAA"}, "does not look like XGID="),
    ({"xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:77:0:0:0:0:10"}, "xgid: the XGID's dice \"77\""),
    ({"xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:31"}, "does not look like XGID="),
    ({"gnubg_id": "4HPwATDgc/AB"}, "does not look like a 14-character Position ID"),
    ({"gnubg_id": "!!!!!!!!!!!!!!"}, "does not look like"),
    ({"xgid": ""}, "does not look like"),
])
def test_bad_position_texts_name_the_problem(client, openapi, body, words):
    answer = post(client, openapi, "/v1/position", body, 422)
    assert words in answer["error"]


def test_malformed_json_is_400(client, openapi):
    r = client.post("/v1/moves", content=b'{"position": {', headers={"content-type": "application/json"})
    assert r.status_code == 400
    assert r.json() == {"error": "the body is not valid JSON"}
    check_against_schema(openapi, "post", "/v1/moves", r)


def test_body_size_is_bounded(client, openapi):
    big = {"position": {"variant": "nardy", "rules": {f"k{i}": 1 for i in range(200)}}, "dice": [3, 1]}
    r = client.post("/v1/moves", json=big)
    assert r.status_code == 413
    assert "larger than 1024 bytes" in r.json()["error"]
    check_against_schema(openapi, "post", "/v1/moves", r)


def test_body_size_is_bounded_without_content_length(client):
    def chunks():
        yield b'{"position": {"variant": "nardy", "rules": {'
        for i in range(200):
            yield f'"k{i}": 1, '.encode()
        yield b'"z": 1}}, "dice": [3, 1]}'

    r = client.post("/v1/moves", content=chunks(), headers={"content-type": "application/json"})
    assert "content-length" not in r.request.headers
    assert r.status_code == 413


def test_unknown_route_and_method(client):
    assert client.get("/v1/nothing").json() == {"error": "Not Found"}
    r = client.get("/v1/moves")
    assert r.status_code == 405 and "error" in r.json()


def test_unexpected_errors_hide_the_trace(client):
    r = client.get("/v1/boom")
    assert r.status_code == 500
    assert r.json() == {"error": "internal error; the service log has the details"}
    assert "secret" not in r.text
    assert client.get("/v1/health").status_code == 200  # the same keep-alive connection still serves


def test_one_bad_request_does_not_affect_the_next(client, openapi):
    for _ in range(3):
        assert client.post("/v1/moves", json={"position": {"variant": "chess"}, "dice": [3, 1]}).status_code == 422
        assert client.post("/v1/moves", content=b"{", headers={"content-type": "application/json"}).status_code == 400
        post(client, openapi, "/v1/moves", {"position": START_BG, "dice": [6, 6]}, 200)


# -- engine routes: bad input is refused before any engine is needed -------------------------

ENGINE_ROUTES = ["/v1/hint", "/v1/evaluate", "/v1/engine-move", "/v1/cube"]
NO_DICE = ("/v1/evaluate", "/v1/cube")


def engine_request(path, **fields):
    """A valid request for ``path`` (evaluate and cube take no dice), with ``fields`` changed."""
    body = {"position": START_BG}
    if path not in NO_DICE:
        body["dice"] = [3, 1]
    body.update(fields)
    return body


@pytest.mark.parametrize("path", ENGINE_ROUTES)
def test_engine_routes_refuse_bad_input(client, openapi, path):
    too_deep = post(client, openapi, path, engine_request(path, ply=3), 422)
    assert "ply 3 is above this service's maximum ply 2" in too_deep["error"]
    negative = post(client, openapi, path, engine_request(path, ply=-1), 422)
    assert "ply" in negative["error"]
    bad_variant = post(client, openapi, path, engine_request(path, position={"variant": "go"}), 422)
    assert "position.variant" in bad_variant["error"]
    if path not in NO_DICE:
        no_dice = post(client, openapi, path, {"position": START_BG}, 422)
        assert "dice are missing" in no_dice["error"]
    else:
        dice = post(client, openapi, path, {"position": START_BG, "dice": [3, 1]}, 422)
        assert "dice: Extra inputs are not permitted" in dice["error"]


def test_hint_refuses_too_many_candidates(client, openapi):
    answer = post(client, openapi, "/v1/hint", {"position": START_BG, "dice": [3, 1], "top": 51}, 422)
    assert "top 51 is above this service's maximum 50" in answer["error"]
    answer = post(client, openapi, "/v1/hint", {"position": START_BG, "dice": [3, 1], "top": 0}, 422)
    assert "top" in answer["error"]


# -- configuration ---------------------------------------------------------------------------

def test_settings_from_environment_and_flags():
    env = {"TAVLA_PORT": "9001", "TAVLA_MAX_PLY": "3", "TAVLA_TIME_LIMIT": "2.5", "TAVLA_WORKERS": "4"}
    s = settings_from_env(env)
    assert (s.port, s.max_ply, s.time_limit, s.workers, s.host) == (9001, 3, 2.5, 4, "127.0.0.1")
    s = with_overrides(s, port=9002, max_ply=None, default_ply=2)
    assert (s.port, s.max_ply, s.default_ply) == (9002, 3, 2)


@pytest.mark.parametrize("env,words", [
    ({"TAVLA_PORT": "http"}, "TAVLA_PORT='http' is not a valid int"),
    ({"TAVLA_DEFAULT_PLY": "3"}, "default ply 3 must lie in 0..max ply 2"),
    ({"TAVLA_WORKERS": "0"}, "workers must be at least 1"),
    ({"TAVLA_TIME_LIMIT": "0"}, "time limit must be positive"),
    # NaN passes a "<= 0" test, and an infinite limit crashed the server at start (math.ceil(inf)).
    ({"TAVLA_TIME_LIMIT": "nan"}, "time limit must be positive and finite, not nan"),
    ({"TAVLA_TIME_LIMIT": "inf"}, "time limit must be positive and finite, not inf"),
    ({"TAVLA_JOB_TIME_LIMIT": "nan"}, "job time limit must be positive and finite, not nan"),
    ({"TAVLA_JOB_TIME_LIMIT": "inf"}, "job time limit must be positive and finite, not inf"),
])
def test_bad_settings_are_refused(env, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        settings_from_env(env)


# -- the worker pool: time limit and admission --------------------------------------------

def test_pool_times_out_instead_of_hanging():
    pool = EnginePool(Settings(workers=1, queue=0, time_limit=0.2))

    async def scenario():
        start = time.monotonic()
        with pytest.raises(TimedOut, match="within the time limit of 0.2 s"):
            await pool.run(lambda: time.sleep(1.0))
        waited = time.monotonic() - start
        assert waited < 0.6
        # The timed-out call still holds the only worker: a new call is refused at once, not queued.
        with pytest.raises(Busy):
            await pool.run(lambda: 1)
        await asyncio.sleep(1.0)
        result, seconds = await pool.run(lambda: 42)
        assert result == 42 and seconds >= 0
        assert pool.busy == 0

    asyncio.run(scenario())
    pool.close()


def test_pool_runs_calls_side_by_side():
    pool = EnginePool(Settings(workers=2, queue=0, time_limit=5))

    async def scenario():
        start = time.monotonic()
        results = await asyncio.gather(pool.run(lambda: time.sleep(0.3) or 1), pool.run(lambda: time.sleep(0.3) or 2))
        assert [r for r, _ in results] == [1, 2]
        assert time.monotonic() - start < 0.55

    asyncio.run(scenario())
    pool.close()
