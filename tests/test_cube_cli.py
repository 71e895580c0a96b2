"""``tavla cube``, ``tavla hint`` and ``tavla eval``: the numbers are the engine's, the cube state
comes from the position text (seen from the player on roll) unless an option overrides it, and bad
input is one line on stderr with exit code 2."""

import json
import subprocess
import sys

import pytest

import tavla
from tavla import formats
from tavla.cli import main


BG = "backgammon"


def position(mine: dict, theirs: dict) -> tavla.Position:
    m, t = [0] * 25, [0] * 25
    for point, n in mine.items():
        m[point - 1] = n
    for point, n in theirs.items():
        t[point - 1] = n
    return tavla.Position.from_arrays(BG, m, t)


LEAD = position({6: 4, 5: 3, 4: 3, 3: 2, 2: 2, 1: 1}, {6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 9: 2})  # double, pass
START = tavla.Position.start(BG)


@pytest.fixture(scope="module")
def engine():
    return tavla.Engine(BG, ply=1)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys, *argv):
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


# ----- tavla cube -----

def test_cube_text_reads_like_a_cube_analysis(capsys, engine):
    code, out, _ = run(capsys, "cube", formats.to_xgid(LEAD, turn=0))
    d = engine.cube_decision(LEAD, tavla.CubeState())
    assert code == 0
    assert "Cube analysis, 1-ply, money, cube 1 centered" in out
    assert f"No double     {d.no_double:+.3f}" in out and f"Double, take  {d.double_take:+.3f}" in out
    assert "Double, pass  +1.000" in out
    assert "Proper cube action: double, pass" in out and "the opponent should pass" in out
    assert "win  " in out and "%" in out


def test_cube_json_matches_the_engine(capsys, engine):
    body = run_json(capsys, "cube", formats.to_xgid(LEAD, turn=0), "--ply", "0")
    d = tavla.Engine(BG, ply=0).cube_decision(LEAD, tavla.CubeState())
    assert body["ply"] == 0 and body["action"] == d.action and body["should_double"] and not body["should_take"]
    for name in ("no_double", "double_take", "double_pass", "equity"):
        assert body[name] == pytest.approx(getattr(d, name)), name
    assert body["mwc"] is None and body["cube"]["is_money"]


def test_cube_state_comes_from_the_text_seen_from_the_player_on_roll(capsys, engine):
    # Player 1 on roll; player 0 has 2, player 1 has 4; player 1 owns the cube at 2.
    xgid = formats.to_xgid(START, turn=1, match_length=7, score=(2, 4), cube_value=2, cube_owner=1)
    body = run_json(capsys, "cube", xgid)
    assert body["cube"]["score"] == [4, 2] and body["cube"]["owner"] == "me" and body["cube"]["value"] == 2
    d = engine.cube_decision(START, tavla.CubeState(value=2, owner="me", match_length=7, score=(4, 2)))
    assert body["equity"] == pytest.approx(d.equity)
    assert [body["mwc"][k] for k in ("no_double", "double_take", "double_pass")] == pytest.approx(list(d.mwc))
    # The same from a gnubg Position ID + Match ID.
    gid = formats.to_gnubg_id(START, turn=1, match_length=7, score=(2, 4), cube_value=2, cube_owner=1)
    assert run_json(capsys, "cube", gid)["cube"] == body["cube"]
    # Options override the text: another score, the cube centered again.
    body = run_json(capsys, "cube", xgid, "--score", "1", "3", "--cube-value", "1")
    assert body["cube"]["score"] == [1, 3] and body["cube"]["owner"] is None and body["cube"]["value"] == 1
    body = run_json(capsys, "cube", xgid, "--match", "0")
    assert body["cube"]["is_money"] and body["cube"]["score"] == [0, 0] and body["cube"]["owner"] == "me"


def test_cube_in_match_play_prints_match_winning_chances(capsys):
    code, out, _ = run(capsys, "cube", "--match", "7", "--score", "2", "4")
    assert code == 0 and "7-point match at 2-4" in out and "match winning chances" in out
    assert out.count("%") >= 5


def test_no_double_available_says_why(capsys):
    code, out, _ = run(capsys, "cube", "--cube-value", "2", "--cube-owner", "opponent")
    assert code == 0 and "no double available (the opponent owns the cube)" in out and "Double, take" not in out
    gid = formats.to_gnubg_id(LEAD, turn=0, match_length=5, score=(4, 2), crawford=True)
    code, out, _ = run(capsys, "cube", gid)
    assert "no double available (the Crawford game)" in out
    body = run_json(capsys, "cube", gid, "--no-crawford")
    assert not body["cube"]["crawford"] and body["cube"]["is_post_crawford"]


def test_cube_money_rules_from_options(capsys, engine):
    behind = LEAD.flip()
    body = run_json(capsys, "cube", formats.to_xgid(behind, turn=0), "--beaver")
    assert body["cube"]["beaver"] and body["should_take"]
    jacoby = run_json(capsys, "cube", "--jacoby")
    assert jacoby["cube"]["jacoby"]


def test_cube_for_other_variants(capsys):
    body = run_json(capsys, "cube", "--variant", "nardy", "--match", "5", "--score", "1", "3")
    assert body["variant"] == "nardy" and body["mwc"] is not None
    nardy = formats.to_json(tavla.Position.start("nardy"), turn=0)
    assert run_json(capsys, "cube", nardy)["variant"] == "nardy"


def test_double_offered_in_the_text(capsys):
    code, out, _ = run(capsys, "cube", formats.to_xgid(LEAD, turn=0, double_offered=True))
    assert "records a double offered by player 0: the opponent should pass" in out
    assert run_json(capsys, "cube", formats.to_xgid(LEAD, turn=0, double_offered=True))["double_offered"]


# ----- tavla hint -----

def test_hint_cubeless_without_a_cube_and_cubeful_with_one(capsys, engine):
    code, out, _ = run(capsys, "hint", "--dice", "6", "5", "--top", "3")
    assert code == 0 and "ranked cubeless" in out
    plain = run_json(capsys, "hint", "--dice", "6", "5", "--top", "3")
    direct = engine.hint(START, 6, 5, top=3)
    assert not plain["cubeful"] and plain["cube"] is None
    assert [c["move"] for c in plain["candidates"]] == [str(c.move) for c in direct]
    assert [c["equity"] for c in plain["candidates"]] == pytest.approx([c.equity for c in direct])

    code, out, _ = run(capsys, "hint", "--dice", "6", "5", "--top", "3", "--match", "7", "--score", "2", "4")
    assert "ranked cubeful (7-point match at 2-4, cube 1 centered)" in out and "MWC" in out
    body = run_json(capsys, "hint", "--dice", "6", "5", "--top", "3", "--match", "7", "--score", "2", "4")
    cube = tavla.CubeState(match_length=7, score=(2, 4))
    direct = engine.hint(START, 6, 5, top=3, cube=cube)
    assert body["cubeful"] and all(c["cubeful"] and 0 <= c["mwc"] <= 1 for c in body["candidates"])
    assert [c["equity"] for c in body["candidates"]] == pytest.approx([c.equity for c in direct])
    assert body["candidates"][0]["diff"] == 0 and all(c["diff"] <= 1e-9 for c in body["candidates"])


def test_hint_takes_dice_and_cube_from_an_xgid(capsys):
    xgid = formats.to_xgid(START, turn=0, dice=(3, 1))
    body = run_json(capsys, "hint", xgid)
    assert body["dice"] == [3, 1] and body["cubeful"] and body["candidates"][0]["move"] == "8/5 6/5"
    assert run_json(capsys, "hint", xgid, "--dice", "6", "6")["dice"] == [6, 6]
    # A bare Position ID records no cube: cubeless.
    assert not run_json(capsys, "hint", formats.position_id(START), "--dice", "3", "1")["cubeful"]


def test_hint_columns_fit_the_longest_move(capsys):
    # A gul bara double plays its whole cascade: the move texts are far wider than backgammon's.
    code, out, _ = run(capsys, "hint", "--variant", "gulbara", "--dice", "3", "3", "--ply", "0")
    assert code == 0
    head, *rows = out.splitlines()[1:]
    equity_end = head.index("equity") + len("equity")
    for row in rows:
        move, equity, _diff, _ply = row[5:].rsplit(None, 3)
        assert len(move) > 24 and len(row) == len(head), row  # long moves, every row as wide as the head
        assert row[:equity_end].endswith(equity), row  # the equity sits under its heading
    # Short moves keep the usual width.
    code, out, _ = run(capsys, "hint", "--dice", "3", "1", "--ply", "0")
    assert out.splitlines()[1] == f"{'':>4} {'move':<24} {'equity':>8} {'diff':>8} {'ply':>4}"


# ----- tavla eval -----

def test_eval_cubeless_and_cubeful(capsys, engine):
    body = run_json(capsys, "eval", formats.position_id(LEAD))
    e = engine.evaluate(LEAD)
    assert body["equity"] == pytest.approx(e.equity) and body["probabilities"]["win"] == pytest.approx(e.win)
    assert body["cube"] is None and body["cubeful_equity"] is None
    body = run_json(capsys, "eval", formats.position_id(LEAD), "--cube-value", "2", "--cube-owner", "me")
    d = engine.cube_decision(LEAD, tavla.CubeState(value=2, owner="me"))
    assert body["cubeful_equity"] == pytest.approx(d.equity)
    code, out, _ = run(capsys, "eval", "--match", "5", "--score", "3", "2")
    assert code == 0 and "cubeless equity" in out and "cubeful equity" in out and "match winning chance" in out


# ----- errors -----

@pytest.mark.parametrize(
    "argv, words",
    [
        (["cube", "XGID=nonsense"], "XGID"),
        (["cube", "not a position"], ""),
        (["cube", "--cube-value", "3", "--cube-owner", "me"], "power of two"),
        (["cube", "--cube-value", "2"], "owner"),
        (["cube", "--cube-owner", "nobody"], "owner"),
        (["cube", "--crawford"], "Crawford"),
        (["cube", "--match", "7", "--score", "7", "1"], "match is over"),
        (["cube", "--match", "5", "--jacoby"], "Jacoby"),
        (["cube", "--max-cube", "3"], "maximum"),
        (["cube", "--match", "-2"], "--match"),
        (["cube", "--ply", "9"], "ply"),
        (["cube", "--variant", "nardy", "4HPwATDgc/ABMA"], "backgammon position"),
        (["eval", "--score", "1", "2"], "money"),
        (["hint", "--dice", "7", "1"], "dice"),
        (["hint", "--dice", "0", "3"], "dice"),
        (["hint"], "--dice"),
        (["hint", "--dice", "3", "1", "--top", "0"], "--top"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("tavla: error: ") and words in err and err.count("\n") == 1, err


def test_no_traceback_from_the_real_command():
    r = subprocess.run([sys.executable, "-m", "tavla", "cube", "--cube-value", "3", "--cube-owner", "me"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "power of two" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "tavla", "hint", "XGID=bad", "--dice", "3", "1"], capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
