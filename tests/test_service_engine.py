"""The engine routes (hint, evaluate, engine-move) over a real loopback server, with the real
``tavla.Engine``. Skipped, with the reason, while this build has no ``tavla.Engine``."""

from __future__ import annotations

import concurrent.futures

import httpx
import pytest

pytest.importorskip("fastapi", reason="the service needs the serve extra (fastapi, uvicorn)")

import tavla  # noqa: E402
from serving import client_fixture, post_checked as post, running  # noqa: E402
from tavla.service import Settings, create_app  # noqa: E402

VARIANTS = ["backgammon", "nardy", "gulbara"]
PROBABILITIES = ["win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"]


client = client_fixture(Settings(workers=2, default_ply=0, max_ply=2, time_limit=20), timeout=30)


def assert_probabilities_consistent(p, eps=1e-6):  # the engine computes in 32-bit floats
    for name in PROBABILITIES:
        assert -eps <= p[name] <= 1.0 + eps, (name, p)
    assert p["win_backgammon"] <= p["win_gammon"] + eps and p["win_gammon"] <= p["win"] + eps, p
    assert p["lose_backgammon"] <= p["lose_gammon"] + eps and p["lose_gammon"] <= 1.0 - p["win"] + eps, p


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("ply", [0, 1])
def test_hint_ranks_legal_moves_as_the_engine_does(client, openapi, variant, ply):
    position = tavla.Position.start(variant)
    body = post(client, openapi, "/v1/hint", {"position": {"variant": variant}, "dice": [6, 5], "ply": ply, "top": 3})
    assert body["ply"] == ply and body["dice"] == [6, 5] and body["time_ms"] >= 0
    legal = {m.notation for m in position.legal_moves(6, 5)}
    candidates = body["candidates"]
    assert 1 <= len(candidates) <= min(3, len(legal))
    assert [c["rank"] for c in candidates] == list(range(1, len(candidates) + 1))
    assert all(c["move"]["notation"] in legal for c in candidates)
    equities = [c["equity"] for c in candidates]
    assert candidates[0]["diff"] == pytest.approx(0.0, abs=1e-9)
    for c in candidates:
        assert c["diff"] == pytest.approx(c["equity"] - equities[0], abs=1e-9)
        assert_probabilities_consistent(c["probabilities"])
    # Plays judged at the full ply come best first, in order of equity.
    full = [c["equity"] for c in candidates if c["ply"] in (None, ply)]
    assert full == sorted(full, reverse=True)
    expected = tavla.Engine(variant, ply=ply).hint(position, 6, 5, top=3)
    assert [c["move"]["notation"] for c in candidates] == [c.move.notation for c in expected]
    assert equities == pytest.approx([c.equity for c in expected], abs=1e-6)
    assert [c["diff"] for c in candidates] == pytest.approx([c.diff for c in expected], abs=1e-6)


def test_hint_uses_the_default_ply(client, openapi):
    body = post(client, openapi, "/v1/hint", {"position": {"variant": "backgammon"}, "dice": [3, 1]})
    assert body["ply"] == 0
    assert len(body["candidates"]) == 5


@pytest.mark.parametrize("variant", VARIANTS)
def test_evaluate(client, openapi, variant):
    body = post(client, openapi, "/v1/evaluate", {"position": {"variant": variant}, "ply": 0})
    assert_probabilities_consistent(body["probabilities"])
    expected = tavla.Engine(variant, ply=0).evaluate(tavla.Position.start(variant))
    assert body["equity"] == pytest.approx(expected.equity, abs=1e-6)
    assert body["probabilities"]["win"] == pytest.approx(expected.win, abs=1e-6)


@pytest.mark.parametrize("variant", VARIANTS)
def test_engine_move_is_legal_and_the_engines_choice(client, openapi, variant):
    position = tavla.Position.start(variant)
    body = post(client, openapi, "/v1/engine-move", {"position": {"variant": variant}, "dice": [4, 2], "ply": 1})
    legal = {m.notation: m for m in position.legal_moves(4, 2)}
    assert body["move"]["notation"] in legal
    assert body["move"]["position"]["mine"] == legal[body["move"]["notation"]].position.to_arrays()[0]
    assert body["move"]["notation"] == tavla.Engine(variant, ply=1).best_move(position, 4, 2).notation


def test_engine_move_passes_when_nothing_can_be_played(client, openapi):
    mine = [0] * 25
    mine[24] = 1
    mine[5] = 14
    closed = [0] * 25
    for k in range(6):
        closed[k] = 2
    closed[12] = 3
    body = post(client, openapi, "/v1/engine-move",
                {"position": {"variant": "backgammon", "mine": mine, "theirs": closed}, "dice": [6, 6]})
    assert body["move"]["is_pass"] is True


def test_engine_routes_refuse_impossible_positions(client, openapi):
    body = post(client, openapi, "/v1/hint",
                {"position": {"variant": "backgammon", "mine": [1] * 25, "theirs": [0] * 25}, "dice": [3, 1]}, 422)
    assert "a player has only 15" in body["error"]



@pytest.mark.parametrize("route", ["/v1/hint", "/v1/engine-move"])
def test_a_huge_rolls_count_is_refused_naming_the_field(client, openapi, route):
    # Past 64 bits the engine's conversion refused it, under the field name "engine" and with a 64-bit range;
    # the schema bounds it as /v1/rollouts and /v1/turn do.
    body = post(client, openapi, route, {"position": {"variant": "backgammon"}, "dice": [3, 1], "rolls": 2**70}, 422)
    assert body["error"] == "rolls: Input should be less than or equal to 100000"

def test_time_limit_answers_504_and_the_service_keeps_serving():
    # A 2-ply hint takes well over a millisecond; the limit must answer rather than wait.
    with running(create_app(Settings(workers=1, queue=4, max_ply=2, time_limit=0.001))) as url:
        with httpx.Client(base_url=url, timeout=30) as c:
            r = c.post("/v1/hint", json={"position": {"variant": "backgammon"}, "dice": [3, 1], "ply": 2})
            assert r.status_code == 504
            assert "time limit" in r.json()["error"]
            assert c.get("/v1/health").status_code == 200
            moves = c.post("/v1/moves", json={"position": {"variant": "backgammon"}, "dice": [3, 1]})
            assert moves.status_code == 200


def test_concurrent_hints_all_answer(client):
    def one(d):
        r = client.post("/v1/hint", json={"position": {"variant": "backgammon"}, "dice": [d, 1], "ply": 0})
        return r.status_code

    with concurrent.futures.ThreadPoolExecutor(8) as ex:
        codes = list(ex.map(one, [1, 2, 3, 4, 5, 6] * 4))
    assert codes == [200] * 24
