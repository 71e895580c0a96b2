"""``tavla moves``: a position text (XGID, gnubg ID, FIBS, JSON, start) or --mine/--theirs."""

from __future__ import annotations

import json

import pytest

import tavla
from tavla import formats
from tavla.cli import main

START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
MINE = "0,0,0,0,0,14,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1"
THEIRS = "0,0,1,0,0,0,0,0,0,0,14,0,0,0,0,0,0,0,0,0,0,0,0,0,0"


def plays(capsys, *argv) -> list[str]:
    assert main(["moves", *argv]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out.splitlines()
    return [line.split(". ", 1)[1] for line in out[2:]]


def expected(pos, d1, d2):
    return [str(m) for m in pos.legal_moves(d1, d2)]


def test_every_text_form_gives_the_plays_of_its_position(capsys):
    rng_positions = tavla.sampling.random_positions("backgammon", 12, seed=3)
    for pos in rng_positions:
        want = expected(pos, 3, 1)
        texts = [
            formats.to_xgid(pos),
            formats.to_gnubg_id(pos),
            formats.position_id(pos),
            formats.to_fibs(pos),
            formats.to_json(pos),
        ]
        for text in texts:
            assert plays(capsys, text, "--dice", "3", "1") == want, text


@pytest.mark.parametrize("variant", ["nardy", "gulbara"])
def test_json_for_the_long_variants(capsys, variant):
    for pos in tavla.sampling.random_positions(variant, 8, seed=9):
        assert plays(capsys, formats.to_json(pos), "--dice", "5", "2") == expected(pos, 5, 2)
        assert plays(capsys, "--variant", variant, formats.to_json(pos), "--dice", "4", "4") == expected(pos, 4, 4)


@pytest.mark.parametrize("variant", tavla.RESERVE_VARIANTS)
def test_the_reserve_variants_are_accepted_as_the_engine_commands_accept_them(capsys, variant):
    start = tavla.Position.start(variant)
    assert plays(capsys, "start", "--variant", variant, "--dice", "3", "1") == expected(start, 3, 1)
    assert plays(capsys, "--variant", variant, "--dice", "6", "5") == expected(start, 6, 5)
    for pos in tavla.sampling.random_positions(variant, 4, seed=5):
        assert plays(capsys, "--variant", variant, formats.to_json(pos), "--dice", "2", "1") == expected(pos, 2, 1)


def test_the_dice_may_come_from_the_text(capsys):
    xgid = START_XGID.replace(":1:00:", ":1:52:")
    assert plays(capsys, xgid) == expected(tavla.Position.start(), 5, 2)
    assert plays(capsys, xgid, "--dice", "6", "6") == expected(tavla.Position.start(), 6, 6)  # --dice wins
    assert main(["moves", START_XGID]) == 2
    assert "--dice" in capsys.readouterr().err


def test_the_old_flags_and_the_start_still_work(capsys):
    pos = tavla.Position.from_arrays("backgammon", [int(c) for c in MINE.split(",")], [int(c) for c in THEIRS.split(",")])
    assert plays(capsys, "--mine", MINE, "--theirs", THEIRS, "--dice", "3", "1") == expected(pos, 3, 1)
    assert plays(capsys, "--variant", "nardy", "--dice", "3", "3") == ["24/18(2)", "24/15 24/21"]
    assert plays(capsys, "start", "--variant", "nardy", "--rule", "fence_rule=home", "--dice", "3", "3") == ["24/18(2)", "24/15 24/21"]
    assert plays(capsys, "--dice", "3", "1") == expected(tavla.Position.start(), 3, 1)


def test_the_older_json_form_warns_on_one_line(capsys):
    start = [0] * 23 + [15, 0]
    text = json.dumps({"variant": "nardy", "mine": start, "theirs": start})
    assert main(["moves", text, "--dice", "6", "6"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[-1].endswith("24/18(2)")
    assert err.startswith("tavla: warning:") and "deprecated" in err and err.count("\n") == 1


@pytest.mark.parametrize("argv,message", [
    ([START_XGID, "--mine", MINE, "--theirs", THEIRS, "--dice", "3", "1"], "not both"),
    ([START_XGID, "--rule", "koks=true", "--dice", "3", "1"], "--rule"),
    ([START_XGID, "--variant", "nardy", "--dice", "3", "1"], "not nardy"),
    (["XGID=nonsense", "--dice", "3", "1"], ""),
    ([START_XGID, "--dice", "3", "7"], "7"),
])
def test_bad_input_is_one_line(capsys, argv, message):
    assert main(["moves", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tavla: error:") and message in err and "Traceback" not in err
