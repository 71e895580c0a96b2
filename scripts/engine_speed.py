#!/usr/bin/env python3
"""Speed of the evaluation and search layer, for benches/README.md.

0-ply evaluations per second per evaluator (one thread, Rust loop), and the
median time per decision (best move of a position and roll) at 0, 1 and 2
ply, for our default (network) engine and, in backgammon, gnubg_nn's best_move at the
same plies on the same positions in the same run.

    python scripts/engine_speed.py [--positions 40]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import tavla
from tavla._core import _eval_rate, _game_result


def positions(variant: str, n: int, seed: int = 7):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        pos = tavla.Position.start(variant)
        for _ in range(200):
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            moves = pos.legal_moves(d1, d2)
            if len(moves) > 1 and rng.random() < 0.3:
                out.append((pos, d1, d2))
            m = rng.choice(moves)
            if _game_result(m.position) is not None:
                break
            pos = m.position.flip()
    return out[:n]


def _timed(call) -> float:
    t = time.perf_counter()
    call()
    return time.perf_counter() - t


def median_ms(fn, cases) -> float:
    times = []
    for pos, d1, d2 in cases:
        t = time.perf_counter()
        fn(pos, d1, d2)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=40)
    args = ap.parse_args()
    print("| variant | evaluator | 0-ply evals/s (1 thread) |")
    print("|---|---|---|")
    for variant in tavla.VARIANTS:
        for ev in ["network", "heuristic", "pubeval", "pips"]:
            if ev == "pubeval" and variant != "backgammon":
                continue
            print(f"| {variant} | {ev} | {_eval_rate(variant, ev, 1.0):,.0f} |")
    print()
    print("0-ply evaluation of one position per Python call: one pass over 4,000 distinct positions each")
    print("(gnubg keeps an evaluation cache, so repeating a position would flatter it; both sides are")
    print("warmed up first, which also builds our bear-off tables)")
    print("| evaluator | evaluations/s | µs per call |")
    print("|---|---|---|")
    import gnubg_nn
    from tavla.sampling import random_positions

    engine = tavla.Engine("backgammon", 0)
    for p in random_positions("backgammon", 300, seed=5):
        engine.evaluate(p)
        gnubg_nn.probabilities([list(p.to_arrays()[1]), list(p.to_arrays()[0])], 0)
    ours = random_positions("backgammon", 4000, seed=99)
    theirs = [[list(p.to_arrays()[1]), list(p.to_arrays()[0])] for p in random_positions("backgammon", 4000, seed=98)]
    for name, call, n in [
        ("tavla Engine(ply=0).evaluate (network)", lambda: [engine.evaluate(p) for p in ours], len(ours)),
        ("gnubg_nn.probabilities(board, 0)", lambda: [gnubg_nn.probabilities(b, 0) for b in theirs], len(theirs)),
    ]:
        took = _timed(call)
        print(f"| {name} | {n / took:,.0f} | {took / n * 1e6:.2f} |")
    print()
    print(f"median ms per decision over {args.positions} positions (engine threads: all cores)")
    print("| variant | player | 0-ply | 1-ply | 2-ply |")
    print("|---|---|---|---|---|")
    for variant in tavla.VARIANTS:
        cases = positions(variant, args.positions)
        row = [median_ms(tavla.Engine(variant, ply).best_move, cases) for ply in (0, 1, 2)]
        print(f"| {variant} | tavla network | " + " | ".join(f"{x:.3f}" for x in row) + " |")
        if variant == "backgammon":
            import gnubg_nn

            def gnubg(ply):
                def play(pos, d1, d2):
                    mine, theirs = pos.to_arrays()
                    return gnubg_nn.best_move([theirs, mine], d1, d2, n=ply)

                return play

            row = [median_ms(gnubg(ply), cases) for ply in (0, 1, 2)]
            print(f"| {variant} | gnubg_nn best_move | " + " | ".join(f"{x:.3f}" for x in row) + " |")


if __name__ == "__main__":
    main()
