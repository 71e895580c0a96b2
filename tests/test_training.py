"""The training pipeline's building blocks (the training package tavla_train and
its module tavla_train._coach, from coach/): TD self-play, searched labels,
supervised rounds, and their errors on bad input."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tavla import Position
from tavla_train import _coach, common, level, rank, tnn
from tavla_train import calibrate as calibrate_stage

ROOT = Path(__file__).resolve().parent.parent
# `python -m tavla_train STAGE`: each stage's command; PREFIX counts it with --network NET.
STAGE = [sys.executable, "-m", "tavla_train"]
PREFIX = len(STAGE) + 3
# Each nardy game's inputs: long nardy's hand-made ones; gul bara adds its cascade inputs.
INPUTS = {"nardy": 215, "gulbara": 227}


@pytest.fixture(scope="module")
def small_net() -> bytes:
    net = _coach.td_new_network("backgammon", 8, 3)
    net, games, _turns, _gammons = _coach.td_train(net, "backgammon", 30, 5, 0.1)
    assert games == 30
    return net


@pytest.fixture(scope="module")
def labelled(small_net: bytes) -> tuple[bytes, bytes]:
    boards = _coach.nn_selfplay_flat(small_net, "backgammon", 120, 2)
    labels = _coach.nn_label(small_net, "backgammon", boards, 1, 2)
    return boards, labels


def test_selfplay_positions_are_valid_and_reproducible(small_net: bytes) -> None:
    flat = _coach.nn_selfplay_flat(small_net, "backgammon", 50, 2)
    assert flat == _coach.nn_selfplay_flat(small_net, "backgammon", 50, 2)
    boards = np.frombuffer(flat, dtype=np.int8).reshape(-1, 2, 25)
    assert boards.shape == (50, 2, 25)
    assert (boards.sum(axis=2) <= 15).all() and (boards >= 0).all()


def test_labels_are_probabilities_and_do_not_depend_on_threads(
    small_net: bytes, labelled: tuple[bytes, bytes]
) -> None:
    boards, labels = labelled
    p = np.frombuffer(labels, dtype=np.float32).reshape(-1, 5)
    assert p.shape == (120, 5)
    assert ((p >= 0) & (p <= 1)).all()
    # Gammons are part of wins: P(win gammon) <= P(win), P(lose gammon) <= P(lose).
    assert (p[:, 1] <= p[:, 0] + 1e-5).all() and (p[:, 3] <= 1 - p[:, 0] + 1e-5).all()
    assert _coach.nn_label(small_net, "backgammon", boards, 1, 1) == labels


def test_supervised_training_fits_the_labels(small_net: bytes, labelled: tuple[bytes, bytes]) -> None:
    boards, labels = labelled
    before = _coach.nn_error(small_net, "backgammon", boards, labels)
    net, losses = _coach.nn_train_supervised(small_net, "backgammon", boards, labels, 20, 0.5, 0.1, 1)
    after = _coach.nn_error(net, "backgammon", boards, labels)
    assert len(losses) == 20 and losses[-1] < losses[0]
    assert after < before * 0.8


def test_bad_training_input_is_named(small_net: bytes, labelled: tuple[bytes, bytes]) -> None:
    boards, labels = labelled
    with pytest.raises(ValueError, match="multiple of 50"):
        _coach.nn_label(small_net, "backgammon", boards[:-1], 1)
    with pytest.raises(ValueError, match="at most 3 plies"):
        _coach.nn_label(small_net, "backgammon", boards, 4)
    with pytest.raises(ValueError, match="bad magic"):
        _coach.nn_label(b"junk", "backgammon", boards, 1)
    nardy = _coach.td_new_network("nardy", 8, 3)
    with pytest.raises(ValueError, match="the network has 215 inputs; backgammon networks have"):
        _coach.nn_label(nardy, "backgammon", boards, 1)
    # TD training checks the network the same way (it used to fail inside the encoder).
    with pytest.raises(ValueError, match="215 inputs"):
        _coach.td_train(nardy, "backgammon", 1, 1, 0.1)
    with pytest.raises(ValueError, match="215 inputs"):
        _coach.td_score_vs_random(nardy, "backgammon", 1, 1)
    with pytest.raises(ValueError, match="float32 of shape"):
        _coach.nn_error(small_net, "backgammon", boards, labels[:-4])
    bad = np.frombuffer(labels, dtype=np.float32).copy()
    bad[7] = 1.5
    with pytest.raises(ValueError, match="not a probability"):
        _coach.nn_train_supervised(small_net, "backgammon", boards, bad.tobytes(), 1, 0.1, 0.1, 1)
    too_many = bytearray(boards)
    too_many[0] = 16
    with pytest.raises(ValueError, match="position 0"):
        _coach.nn_error(small_net, "backgammon", bytes(too_many), labels)


def test_supervised_script_runs_a_round(small_net: bytes, tmp_path: Path) -> None:
    start = tmp_path / "start.tnn"
    start.write_bytes(small_net)
    out = tmp_path / "out.tnn"
    cmd = [
        *STAGE, "supervised", "--variant", "backgammon",
        "--network", str(start), "--positions", "200", "--epochs", "2", "--seed", "4",
        "--data", str(tmp_path / "data"), "--out", str(out),
    ]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "held-out mse" in run.stdout
    first = out.read_bytes()
    assert first != small_net and len(first) == len(small_net)
    # The positions and labels are kept; a second run reuses them and trains
    # the same network.
    assert len(list((tmp_path / "data").glob("*.npy"))) == 2
    out.unlink()
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert out.read_bytes() == first


def test_td_lambda_trains_differently_and_reproducibly(small_net: bytes) -> None:
    lam = _coach.td_train(small_net, "backgammon", 5, 11, 0.1, trace_decay=0.7)
    assert lam == _coach.td_train(small_net, "backgammon", 5, 11, 0.1, trace_decay=0.7)
    td0 = _coach.td_train(small_net, "backgammon", 5, 11, 0.1)
    # Same dice and the same games' count, but the targets differ.
    assert lam[1] == td0[1] == 5 and lam[0] != td0[0]
    for bad in (-0.1, 1.0, 2.0):
        with pytest.raises(ValueError, match="trace_decay"):
            _coach.td_train(small_net, "backgammon", 1, 1, 0.1, trace_decay=bad)


def test_supervised_script_labels_the_best_plays_of_a_roll(small_net: bytes, tmp_path: Path) -> None:
    start = tmp_path / "start.tnn"
    start.write_bytes(small_net)
    data = tmp_path / "data"
    cmd = [
        *STAGE, "supervised", "--variant", "backgammon",
        "--network", str(start), "--positions", "60", "--candidates", "3", "--epochs", "1", "--seed", "4",
        "--threads", "1", "--data", str(data), "--out", str(tmp_path / "out.tnn"),
    ]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    positions = np.load(next(data.glob("*-positions.npy")))
    found = np.load(next(data.glob("*-candidates3.npy")))
    labels = np.load(next(data.glob("*-c3-labels-ply2.npy")))
    assert len(positions) == 60 and 60 <= len(found) <= 180
    assert len(labels) == len(positions) + len(found)
    # Redo the first position by hand: its roll comes first from the round's
    # seed; the candidates are its best three plays by the network's 0-ply
    # equity, with the opponent on roll.
    d1, d2 = (int(d) for d in np.random.default_rng(4 * 1_000_003).integers(1, 7, size=(len(positions), 2))[0])
    pos = Position.from_arrays("backgammon", positions[0, 0].tolist(), positions[0, 1].tolist())
    after = np.array([[m.position.to_arrays()[1], m.position.to_arrays()[0]] for m in pos.legal_moves(d1, d2)], dtype=np.int8)
    probs = np.frombuffer(_coach.nn_label(small_net, "backgammon", after.tobytes(), 0, 1), dtype=np.float32).reshape(-1, 5)
    mover = -(2 * probs[:, 0] - 1 + probs[:, 1] - probs[:, 3] + probs[:, 2] - probs[:, 4])
    best = after[np.argsort(-mover, kind="stable")[: min(3, len(after))]]
    assert (found[: len(best)] == best).all()


def test_snapshots_average_into_a_working_network(small_net: bytes, tmp_path: Path) -> None:
    start = tmp_path / "start.tnn"
    start.write_bytes(small_net)
    snaps = tmp_path / "snaps"
    train = [
        *STAGE, "td", "--variant", "backgammon", "--games", "30",
        "--chunk", "10", "--hidden", "8", "--seed", "9", "--check-games", "0", "--lambda", "0.7",
        "--resume", str(start), "--out", str(tmp_path / "last.tnn"), "--snapshots", str(snaps),
    ]
    run = subprocess.run(train, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    names = sorted(p.name for p in snaps.glob("*.tnn"))
    assert names == ["chunk-00001.tnn", "chunk-00002.tnn", "chunk-00003.tnn"]
    assert (snaps / names[-1]).read_bytes() == (tmp_path / "last.tnn").read_bytes()

    average = [*STAGE, "average"]
    out = tmp_path / "mean.tnn"
    run = subprocess.run(average + ["--last", "2", str(snaps), "--out", str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    weights = [np.frombuffer((snaps / n).read_bytes()[12:], dtype="<f4") for n in names[1:]]
    mean = out.read_bytes()
    assert mean[:12] == small_net[:12]
    np.testing.assert_allclose(np.frombuffer(mean[12:], dtype="<f4"), (weights[0] + weights[1]) / 2, rtol=1e-6)
    assert not np.array_equal(weights[0], weights[1])
    # The mean is a network the engine plays with.
    assert -1.0 <= _coach.td_score_vs_random(mean, "backgammon", 4, 7) <= 1.0

    # Networks of different shapes, or too few snapshots, are refused by name.
    other = tmp_path / "other.tnn"
    other.write_bytes(_coach.td_new_network("backgammon", 9, 3))
    bad = subprocess.run(average + [str(start), str(other), "--out", str(out)], capture_output=True, text=True)
    assert bad.returncode == 2 and "network 1 has a different shape" in bad.stderr
    bad = subprocess.run(average + ["--last", "5", str(snaps), "--out", str(out)], capture_output=True, text=True)
    assert bad.returncode == 2 and "3 snapshots, fewer than --last 5" in bad.stderr


def test_rollout_labels_are_probabilities_exact_in_bear_offs_and_reproducible(small_net: bytes) -> None:
    bearoff = Position.from_arrays("backgammon", [0, 0, 3] + [0] * 22, [0, 0, 0, 0, 2] + [0] * 20)
    boards = np.concatenate([np.array(bearoff.to_arrays(), dtype=np.int8)[None], np.frombuffer(
        _coach.nn_selfplay_flat(small_net, "backgammon", 20, 3), dtype=np.int8).reshape(-1, 2, 25)])
    one = np.frombuffer(_coach.nn_rollout_labels(small_net, "backgammon", boards.tobytes(), 8, 5, 1), dtype="<f4")
    two = np.frombuffer(_coach.nn_rollout_labels(small_net, "backgammon", boards.tobytes(), 8, 5, 2), dtype="<f4")
    assert np.array_equal(one, two)
    labels = one.reshape(-1, 5)
    assert labels.shape == (21, 5) and ((labels >= 0) & (labels <= 1)).all()
    assert (labels[:, 1] <= labels[:, 0] + 1e-6).all()
    # The bear-off's label is the exact table's, however bad the network.
    exact = tavla_engine_probabilities(bearoff)
    np.testing.assert_allclose(labels[0], exact, atol=1e-6)
    with pytest.raises(ValueError, match="trials must be 1"):
        _coach.nn_rollout_labels(small_net, "backgammon", boards.tobytes(), 0, 5)
    with pytest.raises(ValueError, match="shape"):
        _coach.nn_rollout_labels(small_net, "backgammon", boards.tobytes()[:-1], 4, 5)


def test_truncated_rollout_labels_stop_at_the_horizon_and_judge_with_every_network(small_net: bytes) -> None:
    boards = np.frombuffer(_coach.nn_selfplay_flat(small_net, "backgammon", 30, 4), dtype=np.int8).reshape(-1, 2, 25)
    boards = np.ascontiguousarray(boards[common.network_judges("backgammon", boards)])
    other = _coach.td_new_network("backgammon", 8, 9)

    def labels(trials: int, threads: int = 1, **kw: object) -> np.ndarray:
        return np.frombuffer(_coach.nn_rollout_labels(small_net, "backgammon", boards.tobytes(), trials, 5, threads, **kw),
                             dtype="<f4").reshape(-1, 5)

    short = labels(36, horizon=2)
    assert np.array_equal(short, labels(36, 2, horizon=2))
    assert ((short >= 0) & (short <= 1)).all() and (short[:, 1] <= short[:, 0] + 1e-6).all()
    # Two rolls then the network's value: not the whole games' outcomes (which score in steps of 1/36).
    assert not np.array_equal(short, labels(36)) and not np.allclose(short * 36, np.round(short * 36))
    assert not np.array_equal(short, labels(36, horizon=3))
    # Without race or crashed networks the contact one judges everything; given, they judge their positions.
    assert np.array_equal(labels(36, horizon=2, race=None, crashed=None), short)
    assert not np.array_equal(labels(36, race=other, crashed=other), labels(36))
    for bad, message in [({"horizon": 0}, "horizon must be 1"), ({"horizon": 1.5}, "horizon must be a whole number"),
                         ({"race": _coach.td_new_network("nardy", 8, 1)}, r"the race network has \d+ inputs; backgammon"),
                         ({"crashed": b"junk"}, "not a tavla network file")]:
        with pytest.raises(ValueError, match=message):
            labels(4, **bad)


def tavla_engine_probabilities(pos: Position) -> list[float]:
    import tavla

    e = tavla.Engine("backgammon", 0).evaluate(pos)
    return [e.win, e.win_gammon, e.win_backgammon, e.lose_gammon, e.lose_backgammon]


def _script_command(stage: str, network: Path, tmp_path: Path, out: Path, *options: str) -> list[str]:
    """A training stage's command line: its --network first (so that `cmd[:PREFIX]`
    is the stage on that network), its data kept under tmp_path, --out last."""
    return [
        *STAGE, stage, "--network", str(network), *options,
        "--data", str(tmp_path / "data"), "--out", str(out),
    ]


def test_race_script_trains_a_race_network_the_engine_plays(small_net: bytes, tmp_path: Path) -> None:
    import tavla

    contact = tmp_path / "contact.tnn"
    contact.write_bytes(small_net)
    out = tmp_path / "race.tnn"
    cmd = _script_command(
        "race", contact, tmp_path, out, "--selfplay", "3000", "--trials", "4", "--epochs", "2", "--seed", "2"
    )
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "races to learn among 3000" in run.stdout and "held-out mse" in run.stdout
    race = out.read_bytes()
    assert race != small_net and len(race) == len(small_net)
    # --start trains the given race network further (the same races, its own rollouts, cached apart).
    further = tmp_path / "further.tnn"
    started = subprocess.run(cmd + ["--start", str(out), "--out", str(further)], capture_output=True, text=True, timeout=300)
    assert started.returncode == 0, started.stderr
    assert "--start network" in started.stdout and "labels " in started.stdout
    assert len(list((tmp_path / "data").glob("*-from*-t4-labels.npy"))) == 1
    assert further.read_bytes() not in (race, small_net)
    refused = subprocess.run(cmd + ["--start", str(tmp_path / "none.tnn")], capture_output=True, text=True)
    assert refused.returncode != 0 and "--start" in refused.stderr and "none.tnn" in refused.stderr
    # A contact network and a race network from files, as one player.
    result = tavla.duel("backgammon", f"network={contact},{out}:0", f"network={contact}:0", games=10, seed=1)
    assert result.games == 10
    with pytest.raises(ValueError, match="missing.tnn"):
        tavla.duel("backgammon", f"network={contact},{tmp_path / 'missing.tnn'}:0", "pips:0", games=2)


def test_one_sided_race_teacher_labels_races_and_refuses_the_rest(small_net: bytes, tmp_path: Path) -> None:
    import tavla

    def board(mine: dict[int, int], theirs: dict[int, int]) -> np.ndarray:
        b = np.zeros((2, 25), dtype=np.int8)
        for side, points in enumerate((mine, theirs)):
            for point, n in points.items():
                b[side, point - 1] = n
        return b

    # An all-home race is the exact bear-off (the engine's 0-ply answers it from the same tables);
    # a long race for the side on roll against a short one loses more often than not.
    bearoff = board({6: 5, 5: 4, 4: 3, 2: 3}, {6: 8, 3: 4, 1: 3})
    behind = board({13: 10, 6: 5}, {8: 5, 6: 10})
    boards = np.stack([bearoff, behind])
    labels = np.frombuffer(_coach.race_teacher_labels(boards.tobytes(), 72, 1), dtype=np.float32).reshape(-1, 5)
    exact = tavla.Engine("backgammon", 0).evaluate(Position.from_arrays("backgammon", *bearoff.tolist())).probabilities()
    assert np.allclose(labels[0], exact, atol=1e-5)
    assert labels[1][0] < 0.3 and labels[1][3] > 0.0
    assert labels.tobytes() == _coach.race_teacher_labels(boards.tobytes(), 72, 1, threads=1)
    contact = board({24: 2, 6: 13}, {24: 2, 6: 13})
    with pytest.raises(ValueError, match="board 1 is not a race"):
        _coach.race_teacher_labels(np.stack([bearoff, contact]).tobytes(), 8, 1)
    # A race network from a copy of the contact network starts with the race measures' weights at zero.
    from tavla_train import race, tnn

    w1 = tnn.read_network(race.race_copy(small_net, argparse.Namespace(variant="backgammon", klass="race")))[0]
    before = tnn.read_network(small_net)[0]
    slots = _coach.RACE_SLOT_INPUTS
    assert len(slots) == 8 and not w1[slots].any() and before[slots].any()
    assert np.array_equal(np.delete(w1, slots, axis=0), np.delete(before, slots, axis=0))
    assert race.race_copy(small_net, argparse.Namespace(variant="backgammon", klass="crashed")) == small_net
    # The race stage with --teacher one-sided: its labels cached apart from the rollouts'.
    net = tmp_path / "contact.tnn"
    net.write_bytes(small_net)
    out = tmp_path / "race.tnn"
    options = ("--selfplay", "3000", "--teacher", "one-sided", "--trials", "8", "--epochs", "2", "--seed", "2")
    run = subprocess.run(_script_command("race", net, tmp_path, out, *options), capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "held-out mse" in run.stdout and len(list((tmp_path / "data").glob("*-onesided2-t8-labels.npy"))) == 1
    assert out.read_bytes() != small_net and len(out.read_bytes()) == len(small_net)
    refused = subprocess.run(_script_command("race", net, tmp_path, out, "--class", "crashed", "--teacher", "one-sided"),
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0 and "backgammon races only" in refused.stderr
    # --close keeps the close races and one in ten of the others, labelled apart.
    close = subprocess.run(_script_command("race", net, tmp_path, out, *options, "--close", "0.2"),
                           capture_output=True, text=True, timeout=300)
    assert close.returncode == 0, close.stderr
    kept = [line for line in close.stdout.splitlines() if "--close 0.2:" in line]
    assert kept and "others kept" in kept[0]
    assert len(list((tmp_path / "data").glob("*-close0.2-onesided2-t8-labels.npy"))) == 1
    wide = subprocess.run(_script_command("race", net, tmp_path, out, "--close", "0.5"), capture_output=True, text=True, timeout=60)
    assert wide.returncode != 0 and "--close 0.5" in wide.stderr


def test_race_script_trains_a_crashed_network_the_engine_plays(small_net: bytes, tmp_path: Path) -> None:
    import tavla

    contact = tmp_path / "contact.tnn"
    contact.write_bytes(small_net)
    # Extra boards: one crashed (the mover has five checkers left, the opponent an anchor behind
    # them), one ordinary contact position that must be left out.
    extra = np.zeros((2, 2, 25), dtype=np.int8)
    extra[0, 0, 1], extra[0, 0, 2], extra[0, 1, 23], extra[0, 1, 5] = 3, 2, 2, 13
    extra[1, 0, 23], extra[1, 1, 23], extra[1, 0, 5], extra[1, 1, 5] = 2, 2, 13, 13
    np.save(tmp_path / "extra.npy", extra)
    out = tmp_path / "crashed.tnn"
    options = ("--class", "crashed", "--selfplay", "3000", "--extra", str(tmp_path / "extra.npy"), "--trials", "2",
               "--epochs", "2", "--seed", "2", "--threads", "1")
    run = subprocess.run(_script_command("race", contact, tmp_path, out, *options), capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "crashed positions to learn among 3000" in run.stdout and "and 1 among the 2 of" in run.stdout
    [cached] = list((tmp_path / "data").glob("backgammon-*-n3000-s2-crashed-x*-crashed.npy"))
    found = np.load(cached)
    assert len(found) > 10 and (common.judges("backgammon", found) == common.CRASHED).all()
    assert (found[-1] == extra[0]).all()
    assert all(Position.from_arrays("backgammon", b[0].tolist(), b[1].tolist()).is_crashed() for b in found[:20])
    assert out.read_bytes() != small_net and len(out.read_bytes()) == len(small_net)
    # Contact, race and crashed networks from files, as one player.
    result = tavla.duel("backgammon", f"network={contact},{contact},{out}:0", f"network={contact}:0", games=10, seed=1)
    assert result.games == 10
    refused = subprocess.run(_script_command("race", contact, tmp_path, out, "--class", "crashed", "--variant", "nardy"),
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0 and "only backgammon" in refused.stderr
    # A second round: the first's network plays its class, a race network judges the rollouts' races
    # (labels of their own), the round keeps its set, and a third trains beside it, holding out only its own.
    kept, second = tmp_path / "round.npz", tmp_path / "crashed2.tnn"
    again = ("--start", str(out), "--race", str(contact), "--save-set", str(kept))
    run = subprocess.run(_script_command("race", contact, tmp_path, second, *options, *again), capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert len(list((tmp_path / "data").glob("*-crashed-x*-from*-r*-t2-labels.npy"))) == 1
    [(name, boards, labels)] = level.load_level_set(kept, "backgammon")
    assert name == "round: crashed" and np.array_equal(boards, found) and labels.shape == (len(found), 5)
    beside = ("--start", str(second), "--also", str(kept), "--selfplay", "2000", "--seed", "5")
    third = subprocess.run(_script_command("race", contact, tmp_path, tmp_path / "crashed3.tnn", "--class", "crashed",
                                           "--trials", "2", "--epochs", "1", "--threads", "1", *beside),
                           capture_output=True, text=True, timeout=300)
    assert third.returncode == 0, third.stderr
    assert f"training beside {len(found)} crashed positions" in third.stdout
    own = int(third.stdout.split(" crashed positions to learn")[0].split()[-1])
    assert f"held-out mse ({own // 10} crashed positions)" in third.stdout
    # --contact-plays: the contact network plays the class in the rollouts, so the labels name no --start.
    contact_plays = subprocess.run(_script_command("race", contact, tmp_path, tmp_path / "crashed4.tnn", *options,
                                                   "--start", str(second), "--contact-plays", "--race", str(contact)),
                                   capture_output=True, text=True, timeout=300)
    assert contact_plays.returncode == 0, contact_plays.stderr
    judged = [f.name for f in (tmp_path / "data").glob("*-crashed-x*-r*-t2-labels.npy")]
    assert len(judged) == 2 and sum("-from" not in name for name in judged) == 1, judged
    for bad, message in [(["--race", str(contact)], "only --class crashed"), (["--contact-plays"], "only with --start")]:
        wrong = subprocess.run(_script_command("race", contact, tmp_path, out, *bad), capture_output=True, text=True, timeout=60)
        assert wrong.returncode != 0 and message in wrong.stderr, wrong.stderr


def test_race_script_trains_a_nardy_race_network(small_nardy_net: bytes, tmp_path: Path) -> None:
    import tavla

    contact = tmp_path / "contact.tnn"
    contact.write_bytes(small_nardy_net)
    out = tmp_path / "race.tnn"
    options = ("--variant", "nardy", "--selfplay", "4000", "--trials", "2", "--epochs", "2", "--seed", "3", "--threads", "1")
    run = subprocess.run(_script_command("race", contact, tmp_path, out, *options), capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    count = int(run.stdout.split(" races to learn among 4000")[0].split()[-1])
    [cached] = list((tmp_path / "data").glob("nardy-*-n4000-s3-races.npy"))
    races = np.load(cached)
    # Every one a race by the engine's own rule, none a bear-off the tables answer.
    assert len(races) == count > 10 and (common.judges("nardy", races) == common.RACE).all()
    assert all(Position.from_arrays("nardy", r[0].tolist(), r[1].tolist()).is_race() for r in races[:20])
    assert out.read_bytes() != small_nardy_net and len(out.read_bytes()) == len(small_nardy_net)
    result = tavla.duel("nardy", f"network={contact},{out}:0", f"network={contact}:0", games=10, seed=1)
    assert result.games == 10
    # A backgammon network is not a nardy one.
    wrong = subprocess.run(_script_command("race", ROOT / "weights" / "backgammon.tnn", tmp_path, out, *options),
                           capture_output=True, text=True, timeout=300)
    assert wrong.returncode != 0 and "not a nardy network's" in wrong.stderr, wrong.stderr




def test_encoded_inputs_give_the_engines_probabilities_in_numpy() -> None:
    # What nn_encode hands a trainer outside the crate, through the ranking
    # script's own numpy forward pass, must be what the engine computes.
    net = (ROOT / "weights" / "backgammon.tnn").read_bytes()
    boards = np.frombuffer(_coach.nn_selfplay_flat(net, "backgammon", 400, 9), dtype=np.int8).reshape(-1, 2, 25)
    # Contact positions where nobody has borne off: the engine's 0-ply is the bare network there.
    on_board = boards.reshape(-1, 50)
    keep = ~common.is_race("backgammon", boards) & (on_board[:, :25].sum(axis=1) == 15) & (on_board[:, 25:].sum(axis=1) == 15)
    boards = np.ascontiguousarray(boards[keep][:50])
    assert len(boards) >= 20
    x = np.frombuffer(_coach.nn_encode("backgammon", boards.tobytes()), "<f4").reshape(len(boards), -1)
    assert x.shape == (len(boards), 245)
    _, mine = tnn.forward(tnn.read_network(net), x)
    # The engine keeps the five consistent (a backgammon is a gammon is a
    # win), which caps a tiny backgammon output at its gammon's now and then.
    mine[:, 1] = np.minimum(mine[:, 1], mine[:, 0])
    mine[:, 2] = np.minimum(mine[:, 2], mine[:, 1])
    mine[:, 3] = np.minimum(mine[:, 3], 1 - mine[:, 0])
    mine[:, 4] = np.minimum(mine[:, 4], mine[:, 3])
    engine = np.frombuffer(_coach.nn_label(net, "backgammon", boards.tobytes(), 0, 1), "<f4").reshape(-1, 5)
    np.testing.assert_allclose(mine, engine, atol=2e-5)
    assert tnn.network_bytes(tnn.read_network(net)) == net
    # The training code's race test is the engine's.
    for row, race in zip(boards[:10], common.is_race("backgammon", boards[:10])):
        assert Position.from_arrays("backgammon", row[0].tolist(), row[1].tolist()).is_race() == race
    with pytest.raises(ValueError, match="multiple of 50"):
        _coach.nn_encode("backgammon", b"\x00" * 49)
    with pytest.raises(ValueError, match="too many checkers|checkers"):
        _coach.nn_encode("backgammon", bytes([16] + [0] * 49))


def test_ranking_script_trains_towards_the_searchs_order(small_net: bytes, tmp_path: Path) -> None:
    start = tmp_path / "start.tnn"
    start.write_bytes(small_net)
    out = tmp_path / "ranked.tnn"
    cmd = _script_command(
        "rank", start, tmp_path, out,
        "--set", f"{start}:600:4:3:4", "--epochs", "3", "--rate", "0.01", "--rate-end", "0.003",
        "--label-ply", "1",  # the shipped round's teacher: fast, and still deeper than the 0-ply student
    )
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    report = [line for line in run.stdout.splitlines() if "gives up" in line]
    assert len(report) == 4, run.stdout
    squared = [float(line.split("squared error ")[1].split(",")[0]) for line in report]
    assert squared[-1] < squared[0], run.stdout
    trained = out.read_bytes()
    assert trained != small_net and len(trained) == len(small_net)
    # The set is cached: a second run reuses it and trains to the same bytes.
    assert len(list((tmp_path / "data").glob("ranking-*.npz"))) == 1
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and "self-play" not in again.stdout
    assert out.read_bytes() == trained
    bad = subprocess.run(cmd[:PREFIX] + ["--set", f"{start}:600:4", "--out", str(out)], capture_output=True, text=True)
    assert bad.returncode != 0 and "TEACHER:POSITIONS:K:SELFPLAY_SEED:ROLL_SEED" in bad.stderr
    missing = subprocess.run(cmd[:PREFIX] + ["--set", f"{tmp_path / 'none.tnn'}:600:4:1:1", "--out", str(out)],
                             capture_output=True, text=True)
    assert missing.returncode != 0 and "none.tnn" in missing.stderr
    # Widened: twice the hidden units, and a network the engine loads and plays.
    wide = tmp_path / "wide.tnn"
    run = subprocess.run(cmd[:-1] + [str(wide), "--hidden", "16", "--epochs", "1"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert int.from_bytes(wide.read_bytes()[8:12], "little") == 16
    import tavla

    assert tavla.duel("backgammon", f"network={wide}:0", f"network={start}:0", games=4, seed=1).games == 4
    narrow = subprocess.run(cmd[:-1] + [str(wide), "--hidden", "4"], capture_output=True, text=True, timeout=300)
    assert narrow.returncode != 0 and "below the network's 8 hidden units" in narrow.stderr


def test_ranking_script_refines_close_decisions_by_a_deeper_search(small_net: bytes, tmp_path: Path) -> None:
    start = tmp_path / "start.tnn"
    start.write_bytes(small_net)
    out = tmp_path / "refined.tnn"
    cmd = _script_command("rank", start, tmp_path, out, "--set", f"{start}:600:4:3:4", "--epochs", "1", "--label-ply", "1")
    cmd += ["--refine", "2:3:0.5:12:7"]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    [deeper] = list((tmp_path / "data").glob("ranking-*-refine-p2-t3-g0.5-c*-o7-labels.npy"))
    count = int(deeper.name.split("-c")[1].split("-")[0])
    assert 1 <= count <= 12
    labels = np.load(deeper)
    # The chosen decisions are close ones of the training part, and the
    # deeper labels are the teacher's 2-ply, not its 1-ply.
    first = rank.build_set(f"{start}:600:4:3:4", argparse.Namespace(data=tmp_path / "data", threads=1, label_ply=1, variant="backgammon"))
    chosen, rows, sizes = rank.close_decisions(first, len(first.sizes) // 10, 3, 0.5, 12, 7)
    assert len(chosen) == count and len(labels) == len(rows) == sizes.sum()
    assert chosen.min() >= len(first.sizes) // 10 and (sizes <= 3).all()
    two_ply = np.frombuffer(_coach.nn_label(small_net, "backgammon", first.boards[rows[:5]].tobytes(), 2, 1), "<f4")
    np.testing.assert_array_equal(labels[:5].ravel(), two_ply)
    assert not np.array_equal(labels, first.labels[rows])
    trained = out.read_bytes()
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and out.read_bytes() == trained
    # Mixing in none of the deeper labels is training on the 1-ply's alone, only regrouped.
    mixed = subprocess.run(cmd + ["--refine-mix", "0"], capture_output=True, text=True, timeout=300)
    assert mixed.returncode == 0 and out.read_bytes() != trained
    for bad, message in [("2:3:0.5", "PLY:TOP:GAP:DECISIONS:ORDER_SEED"), ("1:3:0.5:12:7", "PLY 2 or 3"),
                         ("2:x:0.5:12:7", "whole numbers")]:
        failed = subprocess.run(cmd[:-1] + [bad], capture_output=True, text=True)
        assert failed.returncode != 0 and message in failed.stderr, failed.stderr
    failed = subprocess.run(cmd + ["--refine-mix", "2"], capture_output=True, text=True)
    assert failed.returncode != 0 and "between 0 and 1" in failed.stderr


def test_non_doubles_are_the_thirty_rolls_evenly() -> None:
    rolls = common.non_doubles(np.random.default_rng(5), 60_000)
    assert (rolls[:, 0] != rolls[:, 1]).all() and rolls.min() == 1 and rolls.max() == 6
    counts = np.unique(rolls[:, 0] * 10 + rolls[:, 1], return_counts=True)[1]
    assert len(counts) == 30 and abs(counts / 60_000 - 1 / 30).max() < 0.005


@pytest.mark.parametrize("variant", ["nardy", "gulbara"])
def test_ranking_script_trains_the_nardy_games_networks(variant: str, tmp_path: Path) -> None:
    import tavla

    net = _coach.td_new_network(variant, 8, 3)
    net, _games, _turns, _gammons = _coach.td_train(net, variant, 10, 5, 0.1)
    start = tmp_path / "start.tnn"
    start.write_bytes(net)
    out = tmp_path / "ranked.tnn"
    cmd = _script_command("rank", start, tmp_path, out, "--variant", variant, "--set", f"{start}:300:4:3:4",
                          "--epochs", "2", "--rate", "0.01", "--label-ply", "1")
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "decisions held out" in run.stdout, run.stdout
    [cached] = list((tmp_path / "data").glob(f"ranking-{variant}-*.npz"))
    candidates = np.load(cached)
    # Every candidate is a position of the game (the engine reads it) with the opponent on roll.
    for row in candidates["boards"][:20]:
        tavla.Position.from_arrays(variant, row[0].tolist(), row[1].tolist())
    assert out.read_bytes() != net
    assert tavla.duel(variant, f"network={out}:0", f"network={start}:0", games=2, seed=1, cascade_width=4).games == 2
    # A backgammon network, a race network: not this game's.
    bg = tmp_path / "bg.tnn"
    bg.write_bytes(_coach.td_new_network("backgammon", 8, 3))
    wrong = subprocess.run(cmd[:PREFIX] + ["--variant", variant, "--set", f"{bg}:300:4:3:4", "--out", str(out)],
                           capture_output=True, text=True)
    assert wrong.returncode != 0 and f"not the {INPUTS[variant]} of a {variant} network" in wrong.stderr, wrong.stderr
    raced = subprocess.run(cmd + ["--race", str(start)], capture_output=True, text=True)
    assert raced.returncode != 0 and "backgammon's" in raced.stderr, raced.stderr


def test_labels_with_a_race_network_judge_races_by_it(small_net: bytes, labelled: tuple[bytes, bytes]) -> None:
    boards, labels = labelled
    races = common.is_race("backgammon", np.frombuffer(boards, dtype=np.int8).reshape(-1, 2, 25))
    other = _coach.td_new_network("backgammon", 8, 11)
    # The same network for races gives the same labels; another one changes the races' 0-ply values only.
    assert _coach.nn_label(small_net, "backgammon", boards, 1, 1, race=small_net) == labels
    plain = np.frombuffer(_coach.nn_label(small_net, "backgammon", boards, 0, 1), "<f4").reshape(-1, 5)
    with_race = np.frombuffer(_coach.nn_label(small_net, "backgammon", boards, 0, 1, race=other), "<f4").reshape(-1, 5)
    np.testing.assert_array_equal(plain[~races], with_race[~races])
    assert races.any() and not np.array_equal(plain[races], with_race[races])
    with pytest.raises(ValueError, match="network"):
        _coach.nn_label(small_net, "backgammon", boards, 1, 1, race=b"TVNN")


def test_ranking_script_trains_boundary_decisions_around_the_race_network(small_net: bytes, tmp_path: Path) -> None:
    start = tmp_path / "start.tnn"
    start.write_bytes(small_net)
    race = tmp_path / "race.tnn"
    race.write_bytes(_coach.td_new_network("backgammon", 8, 11))
    out = tmp_path / "boundary.tnn"
    cmd = _script_command("rank", start, tmp_path, out, "--set", f"{start}:600:4:3:4", "--epochs", "2", "--label-ply", "1",
                          "--boundary-set", f"{start}:3000:6:5:6")
    no_race = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert no_race.returncode != 0 and "--race" in no_race.stderr
    run = subprocess.run(cmd + ["--race", str(race)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "boundary held out" in run.stdout, run.stdout
    assert out.read_bytes() != small_net
    assert len(list((tmp_path / "data").glob("ranking-*-boundary-*.npz"))) == 1
    # Every boundary decision keeps contact and race candidates, labelled by
    # the 1-ply with the race network judging the races.
    args = argparse.Namespace(data=tmp_path / "data", threads=1, label_ply=1, variant="backgammon")
    boundary = rank.build_set(f"{start}:3000:6:5:6", args, race.read_bytes())
    assert len(boundary.sizes) >= 5 and (boundary.sizes <= 6).all()
    races = common.is_race("backgammon", boundary.boards)
    for lo, size in zip(rank.first_rows(boundary.sizes), boundary.sizes):
        assert races[lo : lo + size].any() and not races[lo : lo + size].all()
    one_ply = _coach.nn_label(small_net, "backgammon", boundary.boards[:6].tobytes(), 1, 1, race=race.read_bytes())
    np.testing.assert_array_equal(boundary.labels[:6].ravel(), np.frombuffer(one_ply, "<f4"))
    # In training, race candidates carry the race network's outputs, whatever the contact network says.
    data = rank.Decisions("backgammon", [boundary], tnn.read_network(race.read_bytes()))
    rows = np.arange(len(boundary.labels))
    _, given, fixed = rank.student(tnn.read_network(small_net), data, rows)
    _, race_out = tnn.forward(tnn.read_network(race.read_bytes()), data.inputs[races])
    assert (fixed == races).all()
    np.testing.assert_array_equal(given[races], race_out)
    gradient = rank.gradient(tnn.read_network(small_net), data, np.arange(len(boundary.sizes)), 4.0, 1.0)
    assert any(np.abs(g).sum() > 0 for g in gradient)
    with pytest.raises(SystemExit, match="--race"):
        rank.Decisions("backgammon", [boundary])


def test_calibration_script_moves_output_levels_to_the_rollouts(small_net: bytes, tmp_path: Path) -> None:
    start = tmp_path / "start.tnn"
    start.write_bytes(small_net)
    out = tmp_path / "calibrated.tnn"
    cmd = _script_command("calibrate", start, tmp_path, out,
                          "--positions", "200", "--trials", "4", "--seed", "3", "--threads", "1")
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    [cached] = list((tmp_path / "data").glob("calibration-*-n200-t4-s3-labels.npy"))
    labels = np.load(cached)
    assert labels.shape == (200, 5)
    calibrated = out.read_bytes()
    # Only the five output biases (the file's last 20 bytes) move ...
    assert calibrated[:-20] == small_net[:-20] and calibrated[-20:] != small_net[-20:]
    # ... and the network's mean outputs over the rolled-out positions become the rollouts' means.
    boards = calibrate_stage.contact_positions(small_net, 200, 3)
    x = np.frombuffer(_coach.nn_encode("backgammon", boards.tobytes()), "<f4").reshape(200, -1)
    _, after = tnn.forward(tnn.read_network(calibrated), x)
    np.testing.assert_allclose(after.mean(axis=0), labels.mean(axis=0), atol=1e-4)
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and out.read_bytes() == calibrated
    for bad, message in [(["--trials", "0"], "--trials"), (["--network", str(tmp_path / "none.tnn")], "none.tnn")]:
        failed = subprocess.run(cmd + bad, capture_output=True, text=True)
        assert failed.returncode != 0 and message in failed.stderr, failed.stderr


def test_level_round_fits_rollouts_where_the_opponent_is_on_the_bar(small_net: bytes, tmp_path: Path) -> None:
    start = tmp_path / "start.tnn"
    start.write_bytes(small_net)
    out = tmp_path / "level.tnn"
    cmd = _script_command("level", start, tmp_path, out, "--positions", "1500", "--trials", "4", "--seed", "3",
                          "--anchor", "300", "--anchor-seed", "4", "--epochs", "4", "--rate", "0.01",
                          "--rate-end", "0.003", "--threads", "1")
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    # The level set: contact positions after a dance (the opponent of the player on roll on the bar).
    boards = level.level_positions(small_net, 1500, 3, 0.0)
    assert len(boards) > 20 and level.opponent_on_bar(boards).all() and not common.is_race("backgammon", boards).any()
    [cached] = list((tmp_path / "data").glob("level-*-n1500-s3-o0-t4-labels.npy"))
    assert np.load(cached).shape == (len(boards), 5)
    # The held-out level positions move towards their rollouts.
    squared = [float(line.split("squared error ")[1].split(",")[0])
               for line in run.stdout.splitlines() if ": level held out" in line]
    assert len(squared) == 5 and squared[-1] < squared[0], run.stdout
    trained = out.read_bytes()
    assert trained != small_net and len(trained) == len(small_net)
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and "labels " not in again.stdout and out.read_bytes() == trained
    # --others adds positions without the opponent on the bar, after those with it.
    mixed = level.level_positions(small_net, 1500, 3, 0.5)
    on_bar = level.opponent_on_bar(mixed)
    assert on_bar[: len(boards)].all() and not on_bar[len(boards):].any()
    assert len(mixed) - len(boards) == round(0.5 * len(boards))
    # --extra adds the contact positions of a file of flat boards as a kind of their own, labelled
    # (and cached) apart, a tenth of them held out and reported.
    extra_boards = common.selfplay_boards(small_net, "backgammon", 400, 9)
    extra = tmp_path / "extra.npy"
    np.save(extra, extra_boards)
    with_extra = subprocess.run(cmd + ["--extra", str(extra), "--out", str(tmp_path / "extra.tnn")],
                                capture_output=True, text=True, timeout=300)
    assert with_extra.returncode == 0, with_extra.stderr
    contact_extra = int((~common.is_race("backgammon", extra_boards)).sum())
    assert f"{contact_extra} from {extra}" in with_extra.stdout
    assert f"held-out level positions, extra ({contact_extra // 10})" in with_extra.stdout
    [extra_labels] = list((tmp_path / "data").glob("level-*-extra-*-s3-t4-labels.npy"))
    assert np.load(extra_labels).shape == (contact_extra, 5)
    # --horizon truncates the rollouts; --race and --crashed judge in them (and crashed positions leave the
    # set): labels cached under names of their own.
    crashed_net = tmp_path / "crashed.tnn"
    crashed_net.write_bytes(_coach.td_new_network("backgammon", 8, 7))
    truncated = subprocess.run(cmd + ["--horizon", "2", "--race", str(start), "--crashed", str(crashed_net),
                                      "--out", str(tmp_path / "truncated.tnn")], capture_output=True, text=True, timeout=300)
    assert truncated.returncode == 0, truncated.stderr
    assert "4 rollouts each of 2 rolls" in truncated.stdout
    [short] = list((tmp_path / "data").glob("level-*-n1500-s3-o0-r*-c*-h2-t4-labels.npy"))
    kept = boards[common.judges("backgammon", boards) != common.CRASHED]
    assert np.load(short).shape == (len(kept), 5)
    # --save-set keeps the round's kinds; --also trains on a kept set beside the round's own, its kinds
    # first, each with its tenth held out and reported under the set's name.
    kept = tmp_path / "round.npz"
    saved = subprocess.run(cmd + ["--extra", str(extra), "--save-set", str(kept), "--out", str(tmp_path / "saved.tnn")],
                           capture_output=True, text=True, timeout=300)
    assert saved.returncode == 0, saved.stderr
    assert (tmp_path / "saved.tnn").read_bytes() == (tmp_path / "extra.tnn").read_bytes()  # keeping changes nothing
    kinds = level.load_level_set(kept, "backgammon")
    assert [name for name, _, _ in kinds] == ["round: after a dance", "round: extra"]
    assert np.array_equal(kinds[0][1], boards) and np.array_equal(kinds[0][2], np.load(cached))
    assert np.array_equal(kinds[1][2], np.load(extra_labels))
    joined = subprocess.run(cmd + ["--also", str(kept), "--out", str(tmp_path / "joined.tnn")],
                            capture_output=True, text=True, timeout=300)
    assert joined.returncode == 0, joined.stderr
    reported = [line for line in joined.stdout.splitlines() if line.startswith("held-out level positions")]
    assert [line.split(" (")[0] for line in reported] == [
        "held-out level positions, round: after a dance", "held-out level positions, round: extra",
        "held-out level positions, after a dance"], joined.stdout
    assert (tmp_path / "joined.tnn").read_bytes() not in (trained, (tmp_path / "extra.tnn").read_bytes())
    # --positions 0 labels nothing of its own and trains on the kept set alone.
    only = subprocess.run(cmd + ["--positions", "0", "--also", str(kept), "--out", str(tmp_path / "only.tnn")],
                          capture_output=True, text=True, timeout=300)
    assert only.returncode == 0, only.stderr
    assert f"no level positions of its own: training on {kept}" in only.stdout and "labels " not in only.stdout
    reported = [line for line in only.stdout.splitlines() if line.startswith("held-out level positions")]
    assert [line.split(" (")[0] for line in reported] == [
        "held-out level positions, round: after a dance", "held-out level positions, round: extra"], only.stdout
    # --anchor-ply 2 labels the anchors by the network's 2-ply search (--race judging races there),
    # cached apart, instead of by its own outputs: the same decisions, other labels, another network.
    # (Fewer anchors here: a 2-ply search of each candidate is the slow part.)
    searched = subprocess.run(cmd + ["--anchor", "100", "--anchor-ply", "2", "--race", str(start),
                                     "--out", str(tmp_path / "searched.tnn")], capture_output=True, text=True, timeout=300)
    assert searched.returncode == 0, searched.stderr
    [anchor_cache] = list((tmp_path / "data").glob("anchors-*-n100-s4-r*-p2-labels.npy"))
    own = level.anchors(small_net, tnn.read_network(small_net), 100, 4, 1)
    deeper = level.anchors(small_net, tnn.read_network(small_net), 100, 4, 1, ply=2, race=small_net, cache=anchor_cache)
    assert np.array_equal(own.boards, deeper.boards) and np.array_equal(own.sizes, deeper.sizes)
    np.testing.assert_array_equal(deeper.labels[:40], np.frombuffer(
        _coach.nn_label(small_net, "backgammon", own.boards[:40].tobytes(), 2, 1, race=small_net), "<f4").reshape(-1, 5))
    assert not np.allclose(deeper.labels, own.labels, atol=1e-3)
    assert (tmp_path / "searched.tnn").read_bytes() != trained
    np.savez(tmp_path / "not-a-set.npz", boards=extra_boards)
    np.save(tmp_path / "flat.npy", extra_boards.reshape(-1, 50))
    np.save(tmp_path / "negative.npy", -extra_boards)
    shared = extra_boards.copy()
    shared[3, 1, int(np.flatnonzero(shared[3, 1, :24])[0])] -= 1  # one of the opponent's checkers moves ...
    shared[3, 1, 23 - int(np.flatnonzero(shared[3, 0, :24])[0])] += 1  # ... onto a point the mover holds
    np.save(tmp_path / "shared.npy", shared)
    for bad, message in [(["--trials", "0"], "--trials"), (["--network", str(tmp_path / "none.tnn")], "none.tnn"),
                         (["--horizon", "0"], "--horizon must be positive"),
                         (["--anchor-ply", "1"], "--anchor-ply"),
                         (["--positions", "0"], "--positions 0 (no self-play level positions) needs --also"),
                         (["--extra", str(tmp_path / "none.npy")], "--extra: no file"),
                         (["--extra", str(tmp_path / "flat.npy")], "not flat boards"),
                         (["--extra", str(tmp_path / "negative.npy")], "cannot be negative"),
                         (["--extra", str(tmp_path / "shared.npy")], "position 3: both players"),
                         (["--extra", str(start)], "--extra: cannot read"),
                         (["--also", str(tmp_path / "not-a-set.npz")], "not a level set kept by --save-set"),
                         (["--also", str(start)], "not a level set kept by --save-set"),
                         (["--also", str(kept), "--variant", "nardy", "--network", str(start)], "a level set of backgammon, not of nardy")]:
        failed = subprocess.run(cmd + bad, capture_output=True, text=True)
        assert failed.returncode != 0 and message in failed.stderr, failed.stderr
    nardy = tmp_path / "nardy.tnn"
    nardy.write_bytes(_coach.td_new_network("nardy", 8, 1))
    failed = subprocess.run(cmd + ["--network", str(nardy)], capture_output=True, text=True)
    assert failed.returncode != 0 and "not a backgammon network" in failed.stderr, failed.stderr


@pytest.fixture(scope="module")
def small_nardy_net() -> bytes:
    net = _coach.td_new_network("nardy", 8, 3)
    return _coach.td_train(net, "nardy", 10, 5, 0.1)[0]


@pytest.fixture(scope="module")
def small_gulbara_net() -> bytes:
    net = _coach.td_new_network("gulbara", 8, 3)
    return _coach.td_train(net, "gulbara", 10, 5, 0.1)[0]


def test_judges_name_the_engines_judge_of_each_board() -> None:
    boards = np.zeros((6, 2, 25), dtype=np.int8)
    boards[0, 0, 23], boards[0, 1, 23] = 15, 15  # the backgammon start: contact
    boards[1, 0, 3], boards[1, 1, 5] = 15, 15  # both sides home
    boards[2, 0, 10], boards[2, 1, 3] = 15, 15  # passed each other: a race in backgammon
    boards[3, 0, 3] = 15  # the opponent has borne off all fifteen
    boards[4, 0, 10], boards[4, 1, 14] = 15, 15
    boards[5, 0, 1], boards[5, 0, 2], boards[5, 1, 23], boards[5, 1, 5] = 3, 2, 2, 13  # five left behind an anchor: crashed
    assert common.judges("backgammon", boards).tolist() == [common.CONTACT, common.TABLE, common.RACE, common.FINISHED,
                                                           common.CONTACT, common.CRASHED]
    # Crashed positions are contact for the contact network's rounds, and no race.
    assert common.network_judges("backgammon", boards[[5]]).tolist() == [True]
    assert common.is_race("backgammon", boards[[5]]).tolist() == [False]
    # Nardy: the mover's 15 on its 11 point; the opponent's on its 4 point (the mover's 16) is a race,
    # on its 15 point (the mover's 3, in the mover's half) may still block or be blocked.
    assert common.judges("nardy", boards[[2, 4]]).tolist() == [common.RACE, common.CONTACT]
    boards[4, 1, 14], boards[4, 1, 11] = 0, 15  # the opponent's 12 point, the mover's 24: its own half again
    assert common.judges("nardy", boards[[4]]).tolist() == [common.RACE]
    assert common.is_race("nardy", boards[[0, 1, 2, 3, 4]]).tolist() == [False, True, True, True, True]
    with pytest.raises(ValueError, match="multiple of 50"):
        _coach.nn_judges("nardy", b"\x00" * 49)


def test_network_judges_leaves_out_races_in_backgammon_and_bear_offs_everywhere() -> None:
    boards = np.zeros((3, 2, 25), dtype=np.int8)
    boards[0, 0, 3], boards[0, 1, 5] = 15, 15  # both sides home: the exact tables answer
    boards[1, 0, 3], boards[1, 1, 12] = 15, 15  # one side still outside its home
    boards[2, 0, 23], boards[2, 1, 23] = 15, 15  # the starting corners (a backgammon contact position too)
    assert common.network_judges("nardy", boards).tolist() == [False, True, True]
    assert common.network_judges("gulbara", boards).tolist() == [False, True, True]
    # Backgammon's race network judges the second; the third is contact.
    assert common.network_judges("backgammon", boards).tolist() == [False, False, True]


def test_level_round_and_calibration_in_gul_bara(small_gulbara_net: bytes, tmp_path: Path) -> None:
    from tavla_train import level

    start = tmp_path / "start.tnn"
    start.write_bytes(small_gulbara_net)
    out = tmp_path / "level.tnn"
    cmd = _script_command("level", start, tmp_path, out, "--variant", "gulbara", "--positions", "400",
                          "--trials", "2", "--seed", "3", "--anchor", "100", "--anchor-seed", "4", "--epochs", "3",
                          "--rate", "0.01", "--rate-end", "0.003", "--threads", "1")
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    # The level set: the self-play positions the network judges (no exact bear-off among them).
    boards = level.level_positions(small_gulbara_net, 400, 3, 0.0, "gulbara")
    assert 100 < len(boards) <= 400 and common.network_judges("gulbara", boards).all()
    [cached] = list((tmp_path / "data").glob("level-gulbara-*-n400-s3-o0-t2-labels.npy"))
    assert np.load(cached).shape == (len(boards), 5)
    assert f"held-out level positions, self-play ({len(boards) // 10})" in run.stdout
    squared = [float(line.split("squared error ")[1].split(",")[0])
               for line in run.stdout.splitlines() if ": level held out" in line]
    assert len(squared) == 4 and squared[-1] < squared[0], run.stdout
    assert out.read_bytes() != small_gulbara_net
    for bad, message in [(["--others", "1"], "backgammon's"), (["--variant", "backgammon"], "not a backgammon network")]:
        failed = subprocess.run(cmd + bad, capture_output=True, text=True)
        assert failed.returncode != 0 and message in failed.stderr, failed.stderr
    # The calibration moves the output biases to gul bara rollouts' means.
    calibrated = tmp_path / "calibrated.tnn"
    calibrate = _script_command("calibrate", out, tmp_path, calibrated, "--variant", "gulbara",
                                "--positions", "150", "--trials", "2", "--seed", "5", "--threads", "1")
    run = subprocess.run(calibrate, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and "150 positions, 2 rollouts each" in run.stdout, run.stderr
    [labels] = list((tmp_path / "data").glob("calibration-gulbara-*-n150-t2-s5-labels.npy"))
    levelled = out.read_bytes()
    assert calibrated.read_bytes()[:-20] == levelled[:-20] and calibrated.read_bytes()[-20:] != levelled[-20:]
    positions = calibrate_stage.contact_positions(levelled, 150, 5, "gulbara")
    _, after = tnn.forward(tnn.read_network(calibrated.read_bytes()), common.network_inputs("gulbara", positions))
    np.testing.assert_allclose(after.mean(axis=0), np.load(labels).mean(axis=0), atol=1e-4)
