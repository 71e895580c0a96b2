"""``Engine.rollout`` and ``Engine.rollout_plays``: the same answer for a seed on any number of
threads, variance reduction and truncation keep the mean, the stopping rule stops in whole batches,
candidate plays share their dice, bad settings are a ValueError naming the setting, and the call
releases the GIL. Rollouts here are short (truncated, few trials) to keep each test to seconds."""

import json
import math
import threading
import time

import pytest

import tavla
from tavla.cli import main

BG = "backgammon"
# A middle-game position (the 12th of the shipped networks' self-play, seed 17; a contact position,
# so its cubeful rollouts do not all end in a double and a pass as a lost race's do).
MIDGAME = tavla._core.selfplay_positions(BG, 40, 17)[12]
QUICK = dict(truncate=4)


@pytest.fixture(scope="module")
def engine():
    return tavla.Engine(BG, ply=0)


def test_a_result_has_probabilities_equity_error_interval_and_trials(engine):
    r = engine.rollout(MIDGAME, trials=72, seed=2, **QUICK)
    assert r.trials == 72 and not r.cancelled
    assert r.probabilities() == (r.win, r.win_gammon, r.win_backgammon, r.lose_gammon, r.lose_backgammon)
    assert 0 < r.win < 1 and r.equity_error > 0
    low, high = r.interval
    assert math.isclose(low, r.equity - 1.96 * r.equity_error) and math.isclose(high, r.equity + 1.96 * r.equity_error)
    assert r.cubeful_equity is None and r.cubeful_interval is None
    d = json.loads(json.dumps(r.to_dict()))
    assert d["trials"] == 72 and d["equity"] == r.equity and d["cubeful_equity"] is None
    cubeful = engine.rollout(MIDGAME, trials=72, seed=2, cube=tavla.CubeState(), **QUICK)
    assert cubeful.equity == r.equity, "the same trials give the cubeless result"
    assert cubeful.cubeful_equity is not None and cubeful.cubeful_error > 0
    assert "RolloutResult" in repr(cubeful)


@pytest.mark.parametrize("variant", ["backgammon", "nardy", "gulbara"])
def test_the_same_answer_on_any_number_of_threads(variant):
    e = tavla.Engine(variant, ply=0)
    pos = tavla._core.selfplay_positions(variant, 20, 5)[12]
    # (Gul bara's luck is costly: each of the 21 rolls' doubles is a whole cascade searched.)
    settings = dict(trials=2 if variant == "gulbara" else 24, seed=7, variance_reduction=True,
                    stratify_second=True, truncate=2 if variant == "gulbara" else 3, cube=tavla.CubeState())
    one = e.rollout(pos, threads=1, **settings).to_dict()
    two = e.rollout(pos, threads=2, **settings).to_dict()
    assert one == two
    assert e.rollout(pos, threads=1, **{**settings, "seed": 8}).to_dict() != one


def test_variance_reduction_keeps_the_mean_and_shrinks_the_error(engine):
    for pos in (MIDGAME, tavla._core.selfplay_positions(BG, 40, 3)[30]):
        plain = engine.rollout(pos, trials=288, seed=1, truncate=4)
        reduced = engine.rollout(pos, trials=36, seed=1, truncate=4, variance_reduction=True)
        both = math.hypot(plain.equity_error, reduced.equity_error)
        assert abs(plain.equity - reduced.equity) < 3 * both, (plain, reduced)
        assert reduced.equity_error < plain.equity_error


def test_one_roll_truncated_is_the_one_ply_evaluation(engine):
    one_ply = tavla.Engine(BG, ply=1).evaluate(MIDGAME).equity
    assert engine.rollout(MIDGAME, trials=36, truncate=1).equity == pytest.approx(one_ply, abs=1e-4)
    exact = engine.rollout(MIDGAME, trials=3, truncate=1, variance_reduction=True)
    assert exact.equity == pytest.approx(one_ply, abs=1e-4) and exact.equity_error < 1e-5


def test_the_stopping_rule_stops_after_whole_batches(engine):
    loose = engine.rollout(MIDGAME, trials=432, truncate=2, min_trials=145, target_error=0.5)
    assert loose.trials == 288
    tight = engine.rollout(MIDGAME, trials=300, truncate=2, target_error=1e-9)
    assert tight.trials == 300
    assert engine.rollout(MIDGAME, trials=432, truncate=2, min_trials=145, target_error=0.5, threads=2).to_dict() == loose.to_dict()


def test_progress_is_reported_and_can_cancel(engine):
    seen = []
    engine.rollout(MIDGAME, trials=300, truncate=2, progress=lambda done, total, eq: seen.append((done, total)))
    assert seen == [(144, 300), (288, 300), (300, 300)]
    stopped = engine.rollout(MIDGAME, trials=300, truncate=2, progress=lambda *_: False)
    assert stopped.cancelled and stopped.trials == 144

    def fail(*_):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        engine.rollout(MIDGAME, trials=300, truncate=2, progress=fail)


def test_candidate_plays_are_rolled_out_on_common_dice(engine):
    plays = engine.rollout_plays(MIDGAME, (6, 4), top=3, trials=72, seed=3, truncate=6)
    assert 1 <= len(plays) <= 3
    assert [p.equity for p in plays] == sorted((p.equity for p in plays), reverse=True)
    assert plays[0].diff == 0 and all(p.diff <= 0 for p in plays)
    hint = [str(c.move) for c in engine.hint(MIDGAME, 6, 4, top=3)]
    assert sorted(str(p.move) for p in plays) == sorted(hint)
    for p in plays:
        # The rollout of the position after the play, from the opponent's side, on the same dice.
        theirs = engine.rollout(p.move.position.flip(), trials=72, seed=3, truncate=6)
        assert p.rollout.equity == pytest.approx(-theirs.equity, abs=1e-6)
        assert p.equity == p.rollout.equity


def test_gul_bara_doubles_cascade_in_play_rollouts():
    e = tavla.Engine("gulbara", ply=0)
    pos = tavla._core.selfplay_positions("gulbara", 12, 9)[9]
    plays = e.rollout_plays(pos, (3, 3), top=2, trials=8, truncate=4)
    assert plays and all(p.move.cascade_steps for p in plays)


@pytest.mark.parametrize("kwargs, word", [
    (dict(trials=0), "trials"),
    (dict(trials=tavla.MAX_ROLLOUT_TRIALS + 1), "trials"),
    (dict(trials=1.5), "trials"),
    (dict(seed=-1), "seed"),
    (dict(threads=-1), "threads"),
    (dict(threads=10**6), "threads"),
    (dict(ply=3), "ply"),
    (dict(truncate=0), "truncate"),
    (dict(trials=100, min_trials=200), "min_trials"),
    (dict(target_error=0), "target_error"),
    (dict(target_error="small"), "target_error"),
    (dict(variance_reduction="yes"), "variance_reduction"),
    (dict(progress=3), "progress"),
    (dict(rolls=-2), "rolls"),
    (dict(cube_ply=3), "cube_ply"),
    (dict(cube_ply=-1), "cube_ply"),
])
def test_bad_settings_are_a_value_error_naming_the_setting(engine, kwargs, word):
    with pytest.raises(ValueError, match=word):
        engine.rollout(MIDGAME, **kwargs)


def test_bad_plays_arguments_are_value_errors(engine):
    for kwargs, word in [(dict(dice=(7, 1)), "7"), (dict(dice="61"), "dice"), (dict(dice=(6, 1), top=0), "top"),
                         (dict(dice=(6, 1), top=tavla.MAX_ROLLOUT_PLAYS + 1), "top")]:
        with pytest.raises(ValueError, match=word):
            engine.rollout_plays(MIDGAME, **kwargs)
    with pytest.raises(ValueError, match="nardy"):
        engine.rollout(tavla.Position.start("nardy"))


def test_the_gil_is_released_during_a_rollout(engine):
    done = threading.Event()
    worker = threading.Thread(target=lambda: (engine.rollout(MIDGAME, trials=144, threads=1, truncate=8), done.set()))
    ticks = 0
    worker.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    assert ticks > 10


# ----- tavla rollout -----

def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_cube_ply_is_apart_from_the_checker_ply(capsys, engine):
    """1-ply cube decisions leave the cubeless result (the same dice and plays) and may move the
    cubeful one; the command line's --cube-ply is the engine's cube_ply."""
    cube = tavla.CubeState()
    zero = engine.rollout(MIDGAME, trials=36, seed=3, cube=cube, truncate=6)
    one = engine.rollout(MIDGAME, trials=36, seed=3, cube=cube, truncate=6, cube_ply=1)
    assert one.equity == zero.equity and one.cubeful_equity is not None
    xgid = tavla.formats.to_xgid(MIDGAME, turn=0)
    code, out, err = run(capsys, "rollout", xgid, "--trials", "36", "--seed", "3", "--truncate", "6", "--cube-ply", "1",
                         "--json")
    assert code == 0, err
    assert json.loads(out)["cubeful_equity"] == pytest.approx(one.cubeful_equity)


def test_cli_rollout_json_is_the_engine_s_answer(capsys, engine):
    xgid = tavla.formats.to_xgid(MIDGAME, turn=0)
    code, out, err = run(capsys, "rollout", xgid, "--trials", "72", "--seed", "4", "--truncate", "4", "--json")
    assert code == 0, err
    body = json.loads(out)
    # The XGID records a cube (centered, money): the rollout is cubeful, as tavla hint would be.
    r = engine.rollout(MIDGAME, trials=72, seed=4, truncate=4, cube=tavla.CubeState())
    assert body["cubeful"] is True and body["trials"] == 72
    assert body["equity"] == pytest.approx(r.equity) and body["cubeful_equity"] == pytest.approx(r.cubeful_equity)
    assert err == "", "no progress line unless stderr is a terminal or --progress"
    code, out, err = run(capsys, "rollout", "start", "--trials", "36", "--truncate", "2", "--json")
    assert code == 0 and json.loads(out)["cubeful"] is False and json.loads(out)["cubeful_equity"] is None
    code, out, err = run(capsys, "rollout", "start", "--trials", "72", "--seed", "4", "--truncate", "4", "--cubeful",
                         "--progress")
    assert code == 0 and "cubeful equity" in out and "95%" in out
    assert "rollout: 72/72 trials" in err


def test_cli_rollout_plays(capsys):
    xgid = tavla.formats.to_xgid(MIDGAME, turn=0)
    code, out, err = run(capsys, "rollout", xgid, "--plays", "--dice", "6", "5", "--top", "2", "--trials", "36",
                         "--truncate", "3", "--json")
    assert code == 0, err
    body = json.loads(out)
    assert body["dice"] == [6, 5] and 1 <= len(body["plays"]) <= 2 and body["plays"][0]["diff"] == 0
    code, out, err = run(capsys, "rollout", "start", "--plays", "--dice", "6", "5", "--top", "2", "--trials", "36",
                         "--truncate", "3")
    assert code == 0 and out.count("\n") == 3, out


def test_cli_rollout_bad_input_is_one_line_and_exit_2(capsys):
    for argv in (["--trials", "0"], ["--truncate", "0"], ["--dice", "6", "5"], ["--plays"], ["--ply", "5"]):
        code, out, err = run(capsys, "rollout", "start", *argv)
        assert code == 2 and err.count("\n") == 1, (argv, err)


@pytest.mark.parametrize("argv,words", [
    # The engine's bound (ply 0 to 4) and the core's 64-bit one (trials 0 to 18446744073709551615) were named
    # before, neither of them the rollout's.
    (["--ply", "5"], "--ply (the rollout players' checker ply) must be 0 to 2, not 5"),
    (["--ply", "-1"], "--ply (the rollout players' checker ply) must be 0 to 2, not -1"),
    (["--cube-ply", "-1"], "--cube-ply must be 0 to 2, not -1"),
    (["--trials", "-1"], "--trials must be 1 to 1000000, not -1"),
    (["--trials", "99999999999999999999"], "--trials must be 1 to 1000000, not 99999999999999999999"),
])
def test_cli_rollout_names_its_own_ranges(capsys, argv, words):
    code, out, err = run(capsys, "rollout", "start", *argv)
    assert code == 2 and err == f"tavla: error: {words}\n"
