"""The search's pruning network of a variant, trained on a full network's 0-ply values.

    python -m tavla_train prune --variant backgammon --games 2000 --hidden 64 --epochs 8

A small network on the raw inputs that ranks the plays of a roll inside a
search, so that the full network judges only the best few (see
`SearchConfig::prune`). Data: seeded self-play of --network (and --race, its
race network) at 0-ply, one play in ten random; every play of
every contact roll, labelled by the full network's 0-ply probabilities; the
last game in ten held out (coach/src/pruner.rs). Same arguments, same file.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tavla_train.common import VARIANTS, write_network
from tavla_train import _coach
from tavla_train.paths import WEIGHTS


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tavla_train prune", description=__doc__.splitlines()[0])
    p.add_argument("--variant", required=True, choices=VARIANTS)
    p.add_argument("--network", type=Path, help="the full network (default: the shipped weights/<variant>.tnn)")
    p.add_argument("--race", type=Path, help="its race network (default: the variant's shipped one)")
    p.add_argument("--games", type=int, default=600)
    p.add_argument("--hidden", type=int, default=32)
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    network = args.network or WEIGHTS / f"{args.variant}.tnn"
    race = args.race or WEIGHTS / f"{args.variant}-race.tnn"
    net, losses, held_out = _coach.train_pruner(
        network.read_bytes(), args.variant, args.games, args.hidden, args.epochs, race=race.read_bytes()
    )
    print("training error by epoch: " + " ".join(f"{x:.6f}" for x in losses))
    print(f"held-out error: {held_out:.6f}")
    write_network(args.out, net)
    print(f"wrote {args.out} ({len(net)} bytes)")
    return 0
