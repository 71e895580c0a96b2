"""Gul bara cascades over the service (RULES.md 4): /v1/hint and /v1/engine-move answer a double past
the game's first rolls as the mover's whole part of the cascade, and /v1/handover the opponent's best
share of what it passes on. Over a real loopback server with the real ``tavla.Engine``."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the service needs the serve extra (fastapi, uvicorn)")

import tavla  # noqa: E402
from serving import client_fixture, post_checked as post  # noqa: E402
from tavla.service import Settings  # noqa: E402


GB = "gulbara"
# Mover: 3 on its 6, 2 each on 7 and 8, 2 each on 13..16; opponent: 3 each on its 12..16.
MINE = [0] * 5 + [3, 2, 2] + [0] * 4 + [2, 2, 2, 2] + [0] * 9
THEIRS = [0] * 11 + [3, 3, 3, 3, 3] + [0] * 9
PLAIN = {"variant": GB, "mine": MINE, "theirs": THEIRS}
# A position whose best 4-4 cascade plays 4 of 4 and 2 of 5, and passes 5x2 6x4 to the opponent.
STUCK_MINE = [0, 0, 3, 0, 3, 0, 2, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 4, 0]
STUCK_THEIRS = [0, 1, 1, 0, 2, 0, 3, 0, 3, 0, 0, 0, 0, 1, 0, 1, 0, 2, 0, 1, 0, 0, 0, 0, 0]


client = client_fixture(Settings(workers=1, default_ply=0, max_ply=1, time_limit=30), timeout=60)


def position_of(out):
    return tavla.Position.from_arrays(out["variant"], out["mine"], out["theirs"], **out["rules"])


def test_a_late_double_is_answered_as_the_whole_cascade(client, openapi):
    engine = tavla.Engine(GB, ply=0)
    pos = tavla.Position.from_arrays(GB, MINE, THEIRS)
    expected = engine.hint(pos, 4, 4, top=3)
    body = post(client, openapi, "/v1/hint", {"position": PLAIN, "dice": [4, 4], "top": 3, "ply": 0})
    assert [c["move"]["notation"] for c in body["candidates"]] == [str(c.move) for c in expected]
    best = body["candidates"][0]["move"]
    steps = best["cascade_steps"]
    assert [s["number"] for s in steps] == list(range(4, 4 + len(steps)))
    assert best["notation"].startswith("4-4: ")
    # The steps replay, legal one by one, to the candidate's position; together they are its steps.
    here, head_used = pos, 0
    for s in steps:
        legal = here.legal_cascade_step(s["number"], 4, head_used)
        match = [m for m in legal if m.position == position_of(s["position"])]
        assert match and [[a, b] for a, b in match[0].steps] == s["steps"] and match[0].notation == s["notation"]
        here, head_used = match[0].position, match[0].head_used
    assert here == position_of(best["position"])
    assert sum((s["steps"] for s in steps), []) == best["steps"]
    assert best["handover"] == [list(h) for h in expected[0].move.handover]
    # The engine move is the first candidate.
    move = post(client, openapi, "/v1/engine-move", {"position": PLAIN, "dice": [4, 4], "ply": 0})["move"]
    assert move == best


def test_rolls_below_the_threshold_make_an_ordinary_double(client, openapi):
    for rolls, cascades in ((0, False), (2, False), (3, True), (50, True)):
        body = post(client, openapi, "/v1/hint", {"position": PLAIN, "dice": [4, 4], "top": 2, "rolls": rolls})
        move = body["candidates"][0]["move"]
        assert bool(move["cascade_steps"]) == cascades, rolls
        if not cascades:
            assert move["handover"] == [] and move["moves_played"] <= 4
        engine_move = post(client, openapi, "/v1/engine-move", {"position": PLAIN, "dice": [4, 4], "rolls": rolls})
        assert bool(engine_move["move"]["cascade_steps"]) == cascades
    # The rule option moves the threshold.
    plain = {**PLAIN, "rules": {"cascade_after_rolls": 6}}
    body = post(client, openapi, "/v1/hint", {"position": plain, "dice": [4, 4], "rolls": 5})
    assert body["candidates"][0]["move"]["cascade_steps"] == []
    # Other rolls, variants and routes carry the fields empty.
    body = post(client, openapi, "/v1/hint", {"position": PLAIN, "dice": [4, 3]})
    assert all(c["move"]["cascade_steps"] == [] and c["move"]["handover"] == [] for c in body["candidates"])
    body = post(client, openapi, "/v1/hint", {"position": {"variant": "nardy"}, "dice": [4, 4]})
    assert body["candidates"][0]["move"]["cascade_steps"] == []
    moves = post(client, openapi, "/v1/moves", {"position": PLAIN, "dice": [4, 4]})["moves"]
    assert all(m["cascade_steps"] == [] and m["handover"] == [] for m in moves)


@pytest.mark.parametrize("rolls", [-1, True, "3", 1.5, None])
def test_bad_rolls_are_refused(client, openapi, rolls):
    body = {"position": PLAIN, "dice": [4, 4], "rolls": rolls}
    if rolls is None:  # null means left out
        post(client, openapi, "/v1/hint", body)
        return
    for path in ("/v1/hint", "/v1/engine-move"):
        assert "rolls" in post(client, openapi, path, body, 422)["error"]


def a_handover_case():
    """The stuck position and its best 4-4 cascade, which passes moves on."""
    pos = tavla.Position.from_arrays(GB, STUCK_MINE, STUCK_THEIRS)
    move = tavla.Engine(GB, ply=0).best_move(pos, 4, 4)
    assert move.handover == [(5, 2), (6, 4)], "the test position must hand moves over"
    return pos, move


def test_a_handover_is_answered_and_shared(client, openapi):
    pos, move = a_handover_case()
    body = post(client, openapi, "/v1/hint", {"position": {"variant": GB, "mine": STUCK_MINE, "theirs": STUCK_THEIRS},
                                              "dice": [4, 4], "top": 1})
    best = body["candidates"][0]["move"]
    assert best["handover"] == [list(h) for h in move.handover]
    assert "passes" in best["notation"]
    after = position_of(best["position"])
    assert after == move.position
    # The opponent's share, from its side.
    flipped = after.flip()
    mine, theirs = flipped.to_arrays()
    request = {"position": {"variant": GB, "mine": list(mine), "theirs": list(theirs)}, "handover": best["handover"]}
    share = post(client, openapi, "/v1/handover", request)
    expected = tavla.Engine(GB, ply=0).handover(flipped, move.handover)
    assert share["handover"] == best["handover"] and share["ply"] == 0
    assert share["move"]["notation"] == str(expected)
    assert position_of(share["move"]["position"]) == expected.position
    numbers = [s["number"] for s in share["move"]["cascade_steps"]]
    assert numbers == [d for d, _ in move.handover][: len(numbers)]
    # The share's steps replay legally (the first count as handed over, then 4 of each number).
    here, head_used = flipped, 0
    for k, s in enumerate(share["move"]["cascade_steps"]):
        count = move.handover[k][1]
        legal = here.legal_cascade_step(s["number"], count, head_used)
        match = [m for m in legal if m.position == position_of(s["position"])]
        assert match, s
        here, head_used = match[0].position, match[0].head_used
    assert here == expected.position


@pytest.mark.parametrize("handover, words", [
    ([[7, 4]], "handover.0.0"),
    ([[5, 0]], "handover.0.1"),
    ([[5, 5]], "handover.0.1"),
    ([], "handover"),
    ([[5, 2], [5, 4], [6, 4]], "consecutive"),
    ([[5, 2], [6, 3]], "fewer than 4"),
    ([[4, 2], [5, 4]], "sixes"),
    ([[6]], "handover.0"),
    ([[6, True]], "handover.0.1"),
    ("6x2", "handover"),
])
def test_bad_handovers_are_refused(client, openapi, handover, words):
    answer = post(client, openapi, "/v1/handover", {"position": {"variant": GB}, "handover": handover}, 422)
    assert words in answer["error"] and answer["error"].startswith("handover"), answer


def test_a_handover_belongs_to_gul_bara(client, openapi):
    for variant in ("nardy", "backgammon"):
        answer = post(client, openapi, "/v1/handover", {"position": {"variant": variant}, "handover": [[6, 2]]}, 422)
        assert "gul bara" in answer["error"]
    answer = post(client, openapi, "/v1/handover", {"position": {"variant": GB}, "handover": [[6, 2]], "ply": 9}, 422)
    assert "maximum ply" in answer["error"]
    post(client, openapi, "/v1/handover", {"handover": [[6, 2]]}, 422)  # no position
