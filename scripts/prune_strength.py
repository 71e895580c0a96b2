#!/usr/bin/env python3
"""Checker-play strength of the pruned 2-ply against the unpruned 2-ply (issue 20), for benches/README.md.

The default 2-ply (the pruning network at the leaves, ``prune`` 6, and in the inner filter,
``prune_filter`` 8) and the 2-ply before the pruning work (``prune=0, prune_filter=0``: every play
gets the full network) choose a play in the same seeded backgammon contact decisions (positions
of seeded random games, as scripts/engine_speed.py draws them). Where they choose differently,
both plays are scored by a deeper search (``--judge-ply``, 3 by default: the play's value is the
opponent's ``judge_ply - 1``-ply evaluation of the position after it, negated, which is what a
``judge_ply`` hint gives that play) and the worse one loses the difference; where they agree
both lose nothing. Prints each setting's mean loss per decision with a 95% interval (normal, over
decisions), and the paired difference's.

    python scripts/prune_strength.py [--positions 300] [--seed 11] [--judge-ply 3]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

import tavla
from tavla.formats import to_xgid


def contact_decisions(n: int, seed: int) -> list[tuple[tavla.Position, int, int]]:
    """`n` (position, d1, d2) of seeded random backgammon games: contact, more than one play."""
    rng = random.Random(seed)
    out: list[tuple[tavla.Position, int, int]] = []
    while len(out) < n:
        pos = tavla.Position.start("backgammon")
        for _ in range(200):
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            moves = pos.legal_moves(d1, d2)
            if len(moves) > 1 and not pos.is_race() and rng.random() < 0.3:
                out.append((pos, d1, d2))
            m = rng.choice(moves)
            if m.position.is_game_over():
                break
            pos = m.position.flip()
    return out[:n]


def mean_interval(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% normal interval."""
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
    return m, half


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--judge-ply", type=int, default=3)
    args = ap.parse_args()
    pruned = tavla.Engine("backgammon", 2, threads=1)
    unpruned = tavla.Engine("backgammon", 2, threads=1, prune=0, prune_filter=0)
    judge = tavla.Engine("backgammon", args.judge_ply - 1, threads=1)
    cases = contact_decisions(args.positions, args.seed)
    loss: dict[str, list[float]] = {"pruned": [], "unpruned": []}
    took = {"pruned": 0.0, "unpruned": 0.0}
    differ = 0
    for pos, d1, d2 in cases:
        chosen = {}
        for name, engine in (("pruned", pruned), ("unpruned", unpruned)):
            t = time.thread_time()
            chosen[name] = engine.best_move(pos, d1, d2).position
            took[name] += time.thread_time() - t
        if chosen["pruned"] == chosen["unpruned"]:
            for xs in loss.values():
                xs.append(0.0)
            continue
        differ += 1
        value = {name: -judge.evaluate(p.flip()).equity for name, p in chosen.items()}
        best = max(value.values())
        for name, xs in loss.items():
            xs.append(best - value[name])
        print(f"differ: {to_xgid(pos)} {d1}{d2}: pruned {value['pruned']:+.4f}, unpruned {value['unpruned']:+.4f}", flush=True)
    n = len(cases)
    print(f"{n} backgammon contact decisions (seed {args.seed}), 2-ply choices differ in {differ} "
          f"({100 * differ / n:.1f}%), disagreements judged at {args.judge_ply}-ply")
    print("| 2-ply setting | mean loss per decision, millipoints (95% interval) | CPU time, all decisions |")
    print("|---|---|---|")
    for name, label in (("pruned", "default: prune 6, prune_filter 8"), ("unpruned", "unpruned: prune 0, prune_filter 0")):
        m, h = mean_interval(loss[name])
        print(f"| {label} | {1e3 * m:.4f} ± {1e3 * h:.4f} | {took[name]:.1f} s |")
    m, h = mean_interval([a - b for a, b in zip(loss["pruned"], loss["unpruned"])])
    print(f"pruned - unpruned, paired, millipoints: {1e3 * m:+.4f} ± {1e3 * h:.4f}")


if __name__ == "__main__":
    main()
