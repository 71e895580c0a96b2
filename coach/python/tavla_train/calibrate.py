"""Calibrate the output levels of a network (backgammon's contact network, or a nardy game's) to its own rollouts.

    python -m tavla_train calibrate --network data/backgammon-ranked.tnn \\
        --positions 6000 --trials 36 --seed 123 --out weights/backgammon.tnn
    python -m tavla_train calibrate --variant gulbara --network data/gulbara-level.tnn ...

A ranking round teaches the network the order of the plays of a roll; their
common level is held only loosely, and it drifts (the 256-unit round left the
network saying 14.7% gammons won where its own rollouts give 16.8%). Equities
that are too low mislead hints and cube decisions even where the chosen play
is right. This script takes POSITIONS contact positions (in the nardy games,
whose contact networks' rounds keep the races in, any but the exact bear-offs) from the network's
self-play (one play in ten random, from SEED), rolls each out TRIALS times
with the network at 0-ply (every trial stopped at the exact bear-off tables;
cached in --data), and then moves each of the five output biases so that the
network's mean output over those positions equals the rollouts' mean. A bias
shift keeps each output's order over positions, so the plays the network
prefers barely move; backgammon's race network is not touched. Gul bara's
self-play and rollouts play whole cascades.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import numpy as np

from tavla_train import _coach
from tavla_train.common import VARIANTS, labels_in_chunks, network_inputs, network_judges, selfplay_boards, variant_network, write_network
from tavla_train.tnn import forward, network_bytes, read_network

from tavla_train.paths import ROOT

NAMES = ["win", "win gammon", "win backgammon", "lose gammon", "lose backgammon"]


def contact_positions(net: bytes, count: int, seed: int, variant: str = "backgammon") -> np.ndarray:
    """`count` positions from the network's self-play that the network judges in play (in
    backgammon the contact positions; in the nardy games all but the two-sided bear-offs), in game order."""
    drawn = np.zeros((0, 2, 25), dtype=np.int8)
    asked = 2 * count
    while len(drawn) < count:
        boards = selfplay_boards(net, variant, asked, seed)
        drawn = boards[network_judges(variant, boards)]
        asked *= 2
    return np.ascontiguousarray(drawn[:count])


def bias_shifts(logits: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """For each output, the shift of its logit that makes the mean sigmoid
    over the rows equal its target mean (Newton's method; the mean is
    increasing in the shift, so the root is unique)."""
    shifts = np.zeros(logits.shape[1])
    for k in range(logits.shape[1]):
        c = 0.0
        for _ in range(100):
            s = 1 / (1 + np.exp(-(logits[:, k] + c)))
            miss = s.mean() - targets[k]
            if abs(miss) < 1e-9:
                break
            c -= miss / max((s * (1 - s)).mean(), 1e-9)
        shifts[k] = c
    return shifts


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tavla_train calibrate", description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="backgammon", choices=VARIANTS)
    p.add_argument("--network", type=Path, required=True, help="the contact network to calibrate (a .tnn file)")
    p.add_argument("--positions", type=int, default=6000, help="contact positions rolled out")
    p.add_argument("--trials", type=int, default=36, help="rollouts per position")
    p.add_argument("--seed", type=int, default=123, help="self-play and rollout seed")
    p.add_argument("--threads", type=int, default=0, help="rollout threads (0 = all cores)")
    p.add_argument("--data", type=Path, default=ROOT / "data", help="where the rollouts are kept")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    if args.positions < 1 or not 1 <= args.trials <= 1_000_000:
        raise SystemExit("--positions must be positive and --trials 1 to 1,000,000")
    net = variant_network(args.network, args.variant)
    params = read_network(net)

    boards = contact_positions(net, args.positions, args.seed, args.variant)
    tag = hashlib.sha256(net).hexdigest()[:12]
    args.data.mkdir(parents=True, exist_ok=True)
    # Backgammon's cached rollouts keep the names they had before --variant.
    variant = "" if args.variant == "backgammon" else f"{args.variant}-"
    path = args.data / f"calibration-{variant}{tag}-n{args.positions}-t{args.trials}-s{args.seed}-labels.npy"
    # One chunk, so that the rollouts' seed is --seed itself.
    labels = labels_in_chunks(
        path, boards, len(boards),
        lambda part, _at: _coach.nn_rollout_labels(net, args.variant, part.tobytes(), args.trials, args.seed, args.threads),
    )
    x = network_inputs(args.variant, boards)
    hidden, before = forward(params, x)
    logits = hidden @ params[2].T + params[3]
    shifts = bias_shifts(logits.astype(np.float64), labels.mean(axis=0).astype(np.float64))
    params[3] = (params[3] + shifts).astype(np.float32)
    _, after = forward(params, x)
    for k, name in enumerate(NAMES):
        print(f"{name:>16}: network {before[:, k].mean():.4f} -> {after[:, k].mean():.4f}, "
              f"rollouts {labels[:, k].mean():.4f} (bias {shifts[k]:+.3f})")
    write_network(args.out, network_bytes(params))
    kind = "contact positions" if args.variant == "backgammon" else "positions"
    print(f"wrote {args.out}: {len(boards)} {kind}, {args.trials} rollouts each")
    return 0


if __name__ == "__main__":
    sys.exit(main())
