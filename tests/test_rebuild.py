"""The training package's commands: the stage list, the label stage's deeper
teacher, the pruner stage, and `rebuild --scale tiny`, which rebuilds every
shipped network from nothing with fixed seeds (in seconds at that scale)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import tavla
from tavla_train import _coach, rebuild, supervised
from tavla_train import label as label_stage
from tavla_train.__main__ import STAGES, main

ROOT = Path(__file__).resolve().parent.parent
STAGE = [sys.executable, "-m", "tavla_train"]


def test_every_stage_has_a_command_with_help() -> None:
    listed = subprocess.run(STAGE, capture_output=True, text=True)
    assert listed.returncode == 2 and all(name in listed.stdout for name in STAGES)
    for name in STAGES:
        run = subprocess.run([*STAGE, name, "--help"], capture_output=True, text=True)
        assert run.returncode == 0 and f"tavla_train {name}" in run.stdout, (name, run.stderr)
    assert main(["nonsense"]) == 2


@pytest.fixture(scope="module")
def small_net() -> bytes:
    # The shipped network: a network trained from scratch plays hundreds of turns a game at first.
    return (ROOT / "weights" / "backgammon.tnn").read_bytes()


def test_labels_come_from_a_teacher_deeper_than_the_student(small_net: bytes, tmp_path: Path) -> None:
    net = tmp_path / "net.tnn"
    net.write_bytes(small_net)
    out = tmp_path / "labels.npz"
    options = ["--variant", "backgammon", "--network", str(net), "--selfplay", "8", "--seed", "3",
               "--threads", "1", "--data", str(tmp_path / "data"), "--out", str(out)]
    for shallow in ("0", "1"):
        with pytest.raises(SystemExit, match="teacher deeper than the student"):
            label_stage.main(options + ["--ply", shallow])
    run = subprocess.run([*STAGE, "label", *options, "--ply", "2"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    z = np.load(out)
    boards, labels = z["boards"], z["labels"]
    assert boards.shape == (8, 2, 25) and labels.shape == (8, 5)
    two_ply = np.frombuffer(_coach.nn_label(small_net, "backgammon", boards.tobytes(), 2, 1), "<f4").reshape(-1, 5)
    np.testing.assert_array_equal(labels, two_ply)
    assert label_stage.main(options + ["--trials", "2"]) == 0
    rolled = np.load(out)["labels"]
    assert rolled.shape == (8, 5) and not np.array_equal(rolled, labels)
    # The supervised rounds ask the same of their labels.
    with pytest.raises(SystemExit, match="teacher deeper than the student"):
        supervised.main(["--variant", "backgammon", "--network", str(net), "--ply", "1", "--out", str(tmp_path / "s.tnn")])


def test_the_pruner_stage_is_reproducible_and_checks_its_network(tmp_path: Path) -> None:
    nardy = (ROOT / "weights" / "nardy.tnn").read_bytes()
    one = _coach.train_pruner(nardy, "nardy", 3, 4, 2)
    assert one == _coach.train_pruner(nardy, "nardy", 3, 4, 2)
    net, losses, held_out = one
    assert net[:4] == b"TVNN" and len(losses) == 2 and held_out >= 0
    with pytest.raises(ValueError, match="inputs"):
        _coach.train_pruner(nardy, "backgammon", 3, 4, 2)
    with pytest.raises(ValueError, match="games"):
        _coach.train_pruner(nardy, "nardy", 0, 4, 2)


def test_rebuild_makes_every_shipped_network_from_nothing_with_fixed_seeds(tmp_path: Path) -> None:
    out = tmp_path / "tiny"
    cmd = [*STAGE, "rebuild", "--scale", "tiny", "--threads", "2", "--out", str(out)]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr
    inputs = {"backgammon": 245, "nardy": 215, "gulbara": 227, "dutch": 249, "acey_deucey": 249}
    for name in rebuild.SHIPPED:
        blob = (out / name).read_bytes()
        variant = name.split("-")[0].split(".")[0]
        count = int.from_bytes(blob[4:8], "little")
        assert blob[:4] == b"TVNN" and (count == inputs[variant] or name.endswith("-prune.tnn")), name
        assert name in run.stdout
    assert (out / "rebuild.log").read_text().count("all stages in") == 1
    # Three level rounds, each calibrated after; the third with gnubg-nn's self-play positions; then
    # the crashed network, and rounds judged by it and the race network, not calibrated, each keeping
    # its level set; the later ones train on earlier rounds' sets too.
    for k in (1, 2, 3):
        assert f"] backgammon level round {k}:" in run.stdout and f"] backgammon calibration after level round {k}:" in run.stdout
    assert "] gnubg-nn self-play positions for level round 3:" in run.stdout
    judged_rounds = [k for k, _ in enumerate(rebuild.SCALES["tiny"].judged_levels, start=4)]
    order = [run.stdout.index("] backgammon crashed network:")]
    order += [run.stdout.index(f"] backgammon level round {k}:") for k in judged_rounds]
    assert order == sorted(order) and len(judged_rounds) >= 3
    # Then the race network's one-sided round, on the final contact network's races and gnubg-nn's.
    assert order[-1] < run.stdout.index("] backgammon race network, one-sided round:")
    assert "] gnubg-nn self-play races for the race network:" in run.stdout
    assert list((out / "work").glob("*-close0.05-by*-onesided2-t2-labels.npy"))
    for k, round_ in zip(judged_rounds, rebuild.SCALES["tiny"].judged_levels):
        assert f"calibration after level round {k}" not in run.stdout
        assert f"] gnubg-nn self-play positions for level round {k}:" in run.stdout
        assert (out / "work" / f"backgammon-level{k}-set.npz").exists()
        assert all(j < k for j in round_.joins)
        for j in round_.joins:
            assert f"held-out level positions, backgammon-level{j}-set: extra" in run.stdout
    assert rebuild.SCALES["full"].judged_levels[2].joins == (4, 5)
    judged = list((out / "work").glob("level-*-r*-c*-t*-labels.npy"))
    # each round's own self-play positions and gnubg-nn's, labelled by the judged rollouts
    assert len(judged) == 2 * len(judged_rounds), judged
    # The nardy games' ranking rounds are followed by a level round each, then their race networks.
    for variant in ("nardy", "gulbara"):
        for stage in ("ranking round", "level round", "race network"):
            assert f"] {variant} {stage}:" in run.stdout, (variant, stage)
        contact, race = out / f"{variant}.tnn", out / f"{variant}-race.tnn"
        assert tavla.duel(variant, f"network={contact},{race}:0", "pips:0", games=2, seed=1).games == 2
    assert len(list((out / "work").glob("level-gulbara-*-labels.npy"))) == 1
    assert len(list((out / "work").glob("level-*-extra-*-labels.npy"))) == 1 + len(judged_rounds)
    # The rebuilt contact and race networks play as one engine.
    bg, race = out / "backgammon.tnn", out / "backgammon-race.tnn"
    assert tavla.duel("backgammon", f"network={bg},{race}:0", "pips:0", games=2, seed=1).games == 2
    # A second run finds every stage done. With two networks removed it rebuilds just those, on one
    # thread this time, from the cached stages before them: the same bytes (fixed seeds; labels and
    # rollouts do not depend on the thread count).
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert again.returncode == 0 and again.stdout.count("skipped") == len(rebuild.steps(rebuild.SCALES["tiny"], out, 1, 2))
    first = {name: (out / name).read_bytes() for name in ("backgammon.tnn", "nardy-prune.tnn")}
    for name in first:
        (out / name).unlink()
    redo = subprocess.run([*STAGE, "rebuild", "--scale", "tiny", "--threads", "1", "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert redo.returncode == 0, redo.stderr
    assert redo.stdout.count("skipped") == len(rebuild.steps(rebuild.SCALES["tiny"], out, 1, 2)) - 2
    for name, blob in first.items():
        assert (out / name).read_bytes() == blob, name


def test_the_reserve_games_train_by_self_play_and_refuse_flat_boards(small_net: bytes) -> None:
    # Flat boards (n x 2 x 25) hold no reserve, so the stages built on them name the problem;
    # TD self-play, which brings its own positions, trains both reserve games.
    for variant in tavla.RESERVE_VARIANTS:
        with pytest.raises(ValueError, match="hold no reserve"):
            _coach.nn_selfplay_flat(small_net, variant, 4, 1)
        with pytest.raises(ValueError, match="hold no reserve"):
            _coach.nn_encode(variant, np.zeros((1, 2, 25), np.int8).tobytes())
        net = _coach.td_new_network(variant, 4, 1)
        trained, games, _turns, _gammons = _coach.td_train(net, variant, 1, 5, 0.1)
        assert games == 1 and trained != net
        assert -3.0 <= _coach.td_score_vs_random(trained, variant, 2, 7) <= 3.0
