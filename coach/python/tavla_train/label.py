"""Label positions by a teacher deeper than the network: an N-ply search (N >= 2) or rollouts.

    python -m tavla_train label --variant backgammon --network data/backgammon-td.tnn \\
        --selfplay 20000 --seed 1 --ply 2 --out data/bg-2ply.npz
    python -m tavla_train label --variant backgammon --network weights/backgammon.tnn \\
        --boards data/races.npy --trials 72 --seed 1 --out data/races-rollouts.npz

The positions are --boards (a .npy of int8 boards, n x 2 x 25, each from its
player on roll) or --selfplay N positions of the network's own self-play
(one play in ten random) from --seed. The teacher is the network's --ply
deep search over all 21 rolls with the exact bear-off tables (2 or 3: a
0-ply student learns nothing from its own 1-ply that a 1-ply search of it
does not already say), or --trials rollouts of the network at 0-ply, each
stopped at the bear-off tables. The output (.npz) holds `boards` and
`labels` (n x 5 float32, the five probabilities for the player on roll);
labels are cached in data/ by their settings, so a second run reuses them.
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

import numpy as np

from tavla.files import save_npz
from tavla_train import _coach
from tavla_train.common import VARIANTS, labels_in_chunks, selfplay_boards
from tavla_train.paths import DATA

# The shallowest search a label may come from: deeper than the 0-ply
# student and than the 1-ply search the engine already runs on it (issue 21).
MIN_TEACHER_PLY = 2


def check_teacher_ply(ply: int, what: str = "--ply") -> None:
    """Refuses labels from a search no deeper than the student's own 1-ply."""
    if ply < MIN_TEACHER_PLY:
        raise SystemExit(
            f"{what} {ply}: labels come from a teacher deeper than the student, a search of "
            f"{MIN_TEACHER_PLY} plies or more (or rollouts: --trials)"
        )


def label_boards(net: bytes, variant: str, boards: np.ndarray, *, ply: int | None, trials: int | None, seed: int,
                 threads: int, data: Path, race: bytes | None = None) -> np.ndarray:
    """The teacher's five probabilities for each board (cached in `data`)."""
    tag = hashlib.sha256(net + boards.tobytes() + (race or b"")).hexdigest()[:16]
    if trials is not None:
        return labels_in_chunks(
            data / f"labels-{variant}-{tag}-t{trials}-s{seed}.npy", boards, 2_000,
            lambda part, k: _coach.nn_rollout_labels(net, variant, part.tobytes(), trials, seed * 1_000_003 + k, threads),
        )
    assert ply is not None
    check_teacher_ply(ply)
    return labels_in_chunks(
        data / f"labels-{variant}-{tag}-p{ply}.npy", boards, 1_000,
        lambda part, _k: _coach.nn_label(net, variant, part.tobytes(), ply, threads, race=race),
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tavla_train label", description=__doc__.splitlines()[0])
    p.add_argument("--variant", required=True, choices=VARIANTS)
    p.add_argument("--network", type=Path, required=True, help="the teacher's network (a .tnn file)")
    p.add_argument("--race", type=Path, help="a race network judging the pure races inside the search (backgammon)")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--boards", type=Path, help="a .npy of int8 boards (n x 2 x 25)")
    source.add_argument("--selfplay", type=int, help="label this many self-play positions of the network")
    deeper = p.add_mutually_exclusive_group(required=True)
    deeper.add_argument("--ply", type=int, help=f"search depth of the labels ({MIN_TEACHER_PLY} or 3)")
    deeper.add_argument("--trials", type=int, help="rollouts per position")
    p.add_argument("--seed", type=int, default=1, help="self-play and rollout seed")
    p.add_argument("--threads", type=int, default=0, help="labelling threads (0 = all cores)")
    p.add_argument("--data", type=Path, default=DATA, help="where labels are cached")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    if args.ply is not None:
        check_teacher_ply(args.ply)
    net = args.network.read_bytes()
    if args.boards is not None:
        boards = np.ascontiguousarray(np.load(args.boards), dtype=np.int8)
    else:
        boards = selfplay_boards(net, args.variant, args.selfplay, args.seed)
    args.data.mkdir(parents=True, exist_ok=True)
    race = args.race.read_bytes() if args.race else None
    labels = label_boards(net, args.variant, boards, ply=args.ply, trials=args.trials, seed=args.seed,
                          threads=args.threads, data=args.data, race=race)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    save_npz(args.out, boards=boards, labels=labels)
    teacher = f"{args.ply}-ply" if args.ply is not None else f"{args.trials} rollouts"
    print(f"wrote {args.out}: {len(boards)} positions labelled by {teacher}")
    return 0
