"""Supervised rounds after TD: label self-play positions by search, train on the labels.

    python scripts/train_supervised.py --variant backgammon --network data/bg-h128.tnn \\
        --rounds 2 --positions 200000 --ply 1 --epochs 4 --seed 1 --out data/bg-sup.tnn

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
from typing import Callable

import numpy as np

import tavla
from tavla import _core
from tavla.files import save_npy, write_atomic

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
# Cubeless equity weights of the five probabilities (win, win gammon, win backgammon, lose gammon, lose backgammon).
# Cubeless equity is linear in the five probabilities: its weights and offset, read off the core's
# one formula (tavla.Evaluation) so that the vectorised form below cannot drift from it.
EQUITY_OFFSET = tavla.Evaluation([0.0] * 5).equity
EQUITY = np.array([tavla.Evaluation(np.eye(5)[k].tolist()).equity - EQUITY_OFFSET for k in range(5)], np.float32)


def progress(label: str, done: int, total: int, start: float) -> None:
    bar = "#" * int(30 * done / max(1, total))
    rate = done / max(1e-9, time.perf_counter() - start)
    print(f"  {label:<9}[{bar:<30}] {done:>8}/{total}  {rate:8.0f}/s", flush=True)


def selfplay(net: bytes, args: argparse.Namespace, seed: int, tag: str) -> np.ndarray:
    path = args.data / f"{tag}-positions.npy"
    if path.exists():
        return np.load(path)
    flat = _core.nn_selfplay_flat(net, args.variant, args.positions, seed)
    boards = np.frombuffer(flat, dtype=np.int8).reshape(-1, 2, 25)
    save_npy(path, boards)
    return boards


def plays_of_a_roll(net: bytes, variant: str, boards: np.ndarray, rng: np.random.Generator, threads: int, race: bytes | None = None):
    """One random roll for each board and the positions after all its plays,
    the opponent then on roll, 20,000 boards at a time. Yields (boards done,
    those positions, the offsets where each board's plays start, whether each
    game goes on, the opponent's 0-ply equity of each: +inf where it ended).
    With a `race` network, that one judges the plays that leave a pure race."""
    start = time.perf_counter()
    chunk = 20_000
    for k in range(0, len(boards), chunk):
        part = boards[k : k + chunk]
        dice = rng.integers(1, 7, size=(len(part), 2))
        after, offsets = _core._legal_positions_many(variant, part.tobytes(), dice.ravel().tolist(), threads)
        after = np.asarray(after, dtype=np.int8).reshape(-1, 2, 25)
        theirs = np.ascontiguousarray(after[:, ::-1, :])
        flat = theirs.reshape(-1, 50)
        going_on = (flat[:, :25].sum(axis=1) > 0) & (flat[:, 25:].sum(axis=1) > 0)
        probs = np.zeros((len(theirs), 5), dtype=np.float32)
        raw = _core.nn_label(net, variant, theirs[going_on].tobytes(), 0, threads, race=race)
        probs[going_on] = np.frombuffer(raw, dtype=np.float32).reshape(-1, 5)
        their_equity = equities(probs)
        their_equity[~going_on] = np.inf
        yield k + len(part), theirs, offsets, going_on, their_equity
        progress("plays", k + len(part), len(boards), start)


def equities(probabilities: np.ndarray) -> np.ndarray:
    """Cubeless equity of rows of five probabilities (tavla.Evaluation's, vectorised)."""
    return probabilities @ EQUITY + EQUITY_OFFSET


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


def labels_in_chunks(path: Path, boards: np.ndarray, chunk: int, label_part: Callable[[np.ndarray, int], bytes]) -> np.ndarray:
    """The five probabilities of every board, `label_part(boards, offset)` a
    chunk at a time under a progress bar; kept in `path` and reused from there."""
    if path.exists():
        return np.load(path)
    start = time.perf_counter()
    parts = []
    for k in range(0, len(boards), chunk):
        part = boards[k : k + chunk]
        parts.append(np.frombuffer(label_part(part, k), dtype=np.float32).reshape(-1, 5))
        progress("labels", k + len(part), len(boards), start)
    labels = np.concatenate(parts)
    save_npy(path, labels)
    return labels


def label(net: bytes, boards: np.ndarray, args: argparse.Namespace, tag: str) -> np.ndarray:
    return labels_in_chunks(
        args.data / f"{tag}-labels-ply{args.ply}.npy", boards, 10_000 if args.ply <= 1 else 1_000,
        lambda part, _k: _core.nn_label(net, args.variant, part.tobytes(), args.ply, args.threads),
    )


def train_with_held_out(
    net: bytes, variant: str, boards: np.ndarray, labels: np.ndarray, epochs: int, rate: float, rate_end: float, seed: int
) -> tuple[bytes, list[float], float, float]:
    """Trains `net` on all but the first tenth of the labelled boards; the new
    network, the training error by epoch, and the held-out error before and after."""
    held = len(boards) // 10
    held_b, held_t = boards[:held].tobytes(), labels[:held].astype("<f4").tobytes()
    before = _core.nn_error(net, variant, held_b, held_t)
    trained, losses = _core.nn_train_supervised(
        net, variant, boards[held:].tobytes(), labels[held:].astype("<f4").tobytes(), epochs, rate, rate_end, seed,
    )
    return trained, losses, before, _core.nn_error(trained, variant, held_b, held_t)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", required=True, choices=["backgammon", "nardy", "gulbara"])
    p.add_argument("--network", type=Path, required=True, help="the network to start from (a .tnn file)")
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--positions", type=int, default=200_000, help="self-play positions per round")
    p.add_argument("--ply", type=int, default=1, help="search depth of the labels")
    p.add_argument("--candidates", type=int, default=0, help="also label the positions after the K best plays of a random roll")
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--rate", type=float, default=0.02, help="learning rate at the start of a round")
    p.add_argument("--rate-end", type=float, default=0.002, help="learning rate at the end of a round")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=0, help="labelling threads (0 = all cores)")
    p.add_argument("--data", type=Path, default=DATA, help="where positions and labels are kept")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args()

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
        args.out.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(args.out, net)
    print(f"wrote {args.out} ({len(net)} bytes) after {args.rounds} rounds in {time.perf_counter() - start:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
