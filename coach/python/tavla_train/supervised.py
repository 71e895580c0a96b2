"""Supervised rounds after TD: label self-play positions by search, train on the labels.

    python -m tavla_train supervised --variant backgammon --network data/bg-h128.tnn \\
        --rounds 2 --positions 200000 --ply 2 --epochs 4 --seed 1 --out data/bg-sup.tnn

Each round, reproducible from --seed and the round number:

1. play --positions positions by self-play of the current network (one play in
   ten random, so the sample strays from the main lines);
2. label each with a --ply deep search of the current network over all 21
   rolls, with the exact bear-off tables (all cores);
3. train on the labels for --epochs passes of SGD, holding a tenth back to
   report the error on positions the network did not train on.

With --candidates K, step 1 also rolls one random roll for each self-play
position and adds the positions after the network's K best plays of it at
0-ply (with the opponent on roll). A 0-ply player chooses by comparing such
positions, most of which self-play never reaches; labelling them teaches the
network to rank its own candidates the way the search does.

Positions and labels go to data/ (ignored by git) as .npy files, named by the
round's settings; a second run with the same settings reuses them. The final
network goes to --out (the library compiles in weights/<variant>.tnn).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

import numpy as np

from tavla_train import _coach
from tavla.files import save_npy

from tavla_train.common import VARIANTS, labels_in_chunks, plays_of_a_roll, selfplay_boards, write_network
from tavla_train.label import check_teacher_ply
from tavla_train.paths import DATA
def selfplay(net: bytes, args: argparse.Namespace, seed: int, tag: str) -> np.ndarray:
    path = args.data / f"{tag}-positions.npy"
    if path.exists():
        return np.load(path)
    boards = selfplay_boards(net, args.variant, args.positions, seed)
    save_npy(path, boards)
    return boards


def candidates(net: bytes, boards: np.ndarray, args: argparse.Namespace, seed: int, tag: str) -> np.ndarray:
    """The positions after the K best 0-ply plays of one random roll per board."""
    path = args.data / f"{tag}-candidates{args.candidates}.npy"
    if path.exists():
        return np.load(path)
    parts = []
    rng = np.random.default_rng(seed)
    for _done, theirs, offsets, _going_on, their_equity in plays_of_a_roll(net, args.variant, boards, rng, args.threads):
        for i in range(len(offsets) - 1):
            lo, hi = offsets[i], offsets[i + 1]
            # The mover wants the opponent's equity low; finished games are left out.
            best = lo + np.argsort(their_equity[lo:hi], kind="stable")[: args.candidates]
            parts.append(theirs[best[np.isfinite(their_equity[best])]])
    out = np.concatenate(parts) if parts else np.zeros((0, 2, 25), dtype=np.int8)
    save_npy(path, out)
    return out


def label(net: bytes, boards: np.ndarray, args: argparse.Namespace, tag: str) -> np.ndarray:
    return labels_in_chunks(
        args.data / f"{tag}-labels-ply{args.ply}.npy", boards, 10_000 if args.ply <= 1 else 1_000,
        lambda part, _k: _coach.nn_label(net, args.variant, part.tobytes(), args.ply, args.threads),
    )


def train_with_held_out(
    net: bytes, variant: str, boards: np.ndarray, labels: np.ndarray, epochs: int, rate: float, rate_end: float, seed: int,
    held: int | None = None,
) -> tuple[bytes, list[float], float, float]:
    """Trains `net` on all but the first `held` labelled boards (default: the first tenth); the new
    network, the training error by epoch, and the held-out error before and after."""
    held = len(boards) // 10 if held is None else held
    held_b, held_t = boards[:held].tobytes(), labels[:held].astype("<f4").tobytes()
    before = _coach.nn_error(net, variant, held_b, held_t)
    trained, losses = _coach.nn_train_supervised(
        net, variant, boards[held:].tobytes(), labels[held:].astype("<f4").tobytes(), epochs, rate, rate_end, seed,
    )
    return trained, losses, before, _coach.nn_error(trained, variant, held_b, held_t)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tavla_train supervised", description=__doc__.splitlines()[0])
    p.add_argument("--variant", required=True, choices=VARIANTS)
    p.add_argument("--network", type=Path, required=True, help="the network to start from (a .tnn file)")
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--positions", type=int, default=200_000, help="self-play positions per round")
    p.add_argument("--ply", type=int, default=2, help="search depth of the labels (2 or more: a teacher deeper than the network)")
    p.add_argument("--candidates", type=int, default=0, help="also label the positions after the K best plays of a random roll")
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--rate", type=float, default=0.02, help="learning rate at the start of a round")
    p.add_argument("--rate-end", type=float, default=0.002, help="learning rate at the end of a round")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=0, help="labelling threads (0 = all cores)")
    p.add_argument("--data", type=Path, default=DATA, help="where positions and labels are kept")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    check_teacher_ply(args.ply)

    args.data.mkdir(parents=True, exist_ok=True)
    net = args.network.read_bytes()
    start = time.perf_counter()
    for r in range(args.rounds):
        seed = args.seed * 1_000_003 + r
        tag = f"{args.variant}-{hashlib.sha256(net).hexdigest()[:12]}-n{args.positions}-s{seed}"
        print(f"round {r + 1}/{args.rounds} ({tag})", flush=True)
        boards = selfplay(net, args, seed, tag)
        if args.candidates:
            boards = np.concatenate([boards, candidates(net, boards, args, seed, tag)])
            # Mix the two kinds before the held-out tenth is cut off the front.
            boards = boards[np.random.default_rng(seed).permutation(len(boards))]
            tag += f"-c{args.candidates}"
        labels = label(net, boards, args, tag)
        net, losses, before, after = train_with_held_out(
            net, args.variant, boards, labels, args.epochs, args.rate, args.rate_end, seed
        )
        epochs = " ".join(f"{x:.5f}" for x in losses)
        print(f"  train mse by epoch {epochs}; held-out mse {before:.5f} -> {after:.5f}", flush=True)
        write_network(args.out, net)
    print(f"wrote {args.out} ({len(net)} bytes) after {args.rounds} rounds in {time.perf_counter() - start:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
