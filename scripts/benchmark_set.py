"""The benchmark position set of a variant, and evaluators' errors on it.

    python scripts/benchmark_set.py build --variant nardy --positions 100 --trials 648 --seed 1
    python scripts/benchmark_set.py errors --variant nardy

`build` draws positions from self-play of the shipped network (one play in ten
random), rolls each out (`tavla._core.rollout`, the shipped networks at 0-ply on
both sides, stratified first roll) and writes benches/positions/<variant>.json.
The committed sets were rolled out before backgammon had a race network; a
rebuild now plays races with it, so rebuilding changes the reference.
`errors` reports, for each evaluator it can build, the mean absolute error of
its cubeless equity against the rollouts, on the same positions every time.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Callable

import tavla
from tavla import _core
from tavla.files import write_atomic

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"]


def set_path(variant: str) -> Path:
    return ROOT / "benches" / "positions" / f"{variant}.json"


def build(args: argparse.Namespace) -> int:
    positions = _core.selfplay_positions(args.variant, args.positions, args.seed)
    entries = []
    start = time.perf_counter()
    for k, pos in enumerate(positions):
        r = _core.rollout(pos, trials=args.trials, seed=args.seed * 7919 + k)
        mine, theirs = pos.to_arrays()
        entries.append({"mine": mine, "theirs": theirs, "rollout": r})
        print(f"\r{k + 1}/{len(positions)} rolled out ({time.perf_counter() - start:.0f}s)", end="", flush=True)
    print()
    doc = {
        "variant": args.variant,
        "made_by": f"python scripts/benchmark_set.py build --variant {args.variant} --positions {args.positions} "
        f"--trials {args.trials} --seed {args.seed}",
        "trials": args.trials,
        "positions": entries,
    }
    write_atomic(set_path(args.variant), json.dumps(doc, indent=0))
    print(f"wrote {set_path(args.variant)}")
    return 0


def equity(p: list[float]) -> float:
    return tavla.Evaluation(p).equity


def evaluators(variant: str) -> dict[str, Callable[[tavla.Position], float]]:
    found: dict[str, Callable[[tavla.Position], float]] = {"network 0-ply": lambda p: equity(_core.network_probabilities(p))}
    for evaluator in ("network", "heuristic"):
        for ply in (0, 1):
            e = tavla.Engine(variant, ply=ply, evaluator=evaluator)
            found[f"Engine {evaluator} ply {ply}"] = lambda p, e=e: e.evaluate(p).equity
    return found


def errors(args: argparse.Namespace) -> int:
    doc = json.loads(set_path(args.variant).read_text())
    positions = [
        (tavla.Position.from_arrays(args.variant, e["mine"], e["theirs"]), e["rollout"]["equity"]) for e in doc["positions"]
    ]
    print(f"{args.variant}: {len(positions)} positions, rollouts of {doc['trials']} trials")
    for name, fn in evaluators(args.variant).items():
        start = time.perf_counter()
        err = sum(abs(fn(p) - truth) for p, truth in positions) / len(positions)
        print(f"  {name:20} mean |equity error| {err:.4f}  ({time.perf_counter() - start:.1f}s)")
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("--variant", required=True, choices=tavla.VARIANTS)
    b.add_argument("--positions", type=int, default=100)
    b.add_argument("--trials", type=int, default=648)
    b.add_argument("--seed", type=int, default=1)
    e = sub.add_parser("errors")
    e.add_argument("--variant", required=True, choices=tavla.VARIANTS)
    args = p.parse_args()
    return build(args) if args.command == "build" else errors(args)


if __name__ == "__main__":
    sys.exit(main())
