#!/usr/bin/env python3
"""Speed of the evaluation and search layer, for benches/README.md.

0-ply evaluations per second per evaluator (one thread, Rust loop), and the
median time per decision (best move of a position and roll) at 0, 1 and 2
ply, for our default (network) engine and, in backgammon, gnubg_nn's best_move at the
same plies on the same positions in the same run. The decisions are timed interleaved (each
position by tavla, then by gnubg, the order swapped every other position), so load on a shared
machine falls on both alike; the ratio column is what to compare between runs. Decisions are
timed by the calling thread's CPU time (`time.thread_time`; both engines search on that thread
with --threads 1), which a loaded machine inflates far less than the wall clock; `--clock wall`
for the wall clock.

    python scripts/engine_speed.py [--positions 40] [--threads 1] [--plies 0,1,2] [--only decisions]
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


CLOCK = time.thread_time


def median_ms(fn, cases) -> float:
    times = []
    for pos, d1, d2 in cases:
        t = CLOCK()
        fn(pos, d1, d2)
        times.append(CLOCK() - t)
    return statistics.median(times) * 1e3


def interleaved_ms(ours, theirs, cases) -> tuple[float, float]:
    """Median ms per decision of two players over the same cases, timed alternately."""
    a, b = [], []
    for k, (pos, d1, d2) in enumerate(cases):
        first, second = (ours, a), (theirs, b)
        for fn, times in (first, second) if k % 2 == 0 else (second, first):
            t = CLOCK()
            fn(pos, d1, d2)
            times.append(CLOCK() - t)
    return statistics.median(a) * 1e3, statistics.median(b) * 1e3


def gnubg_player(ply: int):
    import gnubg_nn

    def play(pos, d1, d2):
        mine, theirs = pos.to_arrays()
        return gnubg_nn.best_move([theirs, mine], d1, d2, n=ply)

    return play


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--threads", type=int, default=1, help="engine threads (0 = all cores); gnubg_nn uses one")
    ap.add_argument("--plies", default="0,1,2", help="comma-separated plies of the decision table")
    ap.add_argument("--variants", default=",".join(tavla.VARIANTS))
    ap.add_argument("--only", choices=["rates", "calls", "decisions"], help="run one section")
    ap.add_argument("--clock", choices=["cpu", "wall"], default="cpu", help="how the decisions are timed")
    args = ap.parse_args()
    global CLOCK
    CLOCK = time.thread_time if args.clock == "cpu" and args.threads == 1 else time.perf_counter
    plies = [int(x) for x in args.plies.split(",")]
    variants = args.variants.split(",")
    if args.only in (None, "rates"):
        rates(variants)
    if args.only in (None, "calls"):
        calls()
    if args.only in (None, "decisions"):
        decisions(variants, plies, args.positions, args.threads)


def rates(variants) -> None:
    print("| variant | evaluator | 0-ply evals/s (1 thread) |")
    print("|---|---|---|")
    for variant in variants:
        for ev in ["network", "heuristic", "pubeval", "pips"]:
            if ev == "pubeval" and variant != "backgammon":
                continue
            print(f"| {variant} | {ev} | {_eval_rate(variant, ev, 1.0):,.0f} |")
    print()


def calls() -> None:
    print("0-ply evaluation of one position per Python call: 4,000 distinct positions each, in")
    print("alternating blocks of 500 (gnubg keeps an evaluation cache, so repeating a position would")
    print("flatter it; both sides are warmed up first, which also builds our bear-off tables)")
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
    took = [0.0, 0.0]
    for k in range(0, 4000, 500):
        took[0] += _timed(lambda: [engine.evaluate(p) for p in ours[k : k + 500]])
        took[1] += _timed(lambda: [gnubg_nn.probabilities(b, 0) for b in theirs[k : k + 500]])
    for name, t in [("tavla Engine(ply=0).evaluate (network)", took[0]), ("gnubg_nn.probabilities(board, 0)", took[1])]:
        print(f"| {name} | {4000 / t:,.0f} | {t / 4000 * 1e6:.2f} |")
    print(f"gnubg / tavla time per call: {took[1] / took[0]:.2f}x")
    print()


def decisions(variants, plies, n, threads) -> None:
    clock = "thread CPU time" if CLOCK is time.thread_time else "wall clock"
    print(f"median ms per decision over {n} positions (engine threads: {threads or 'all cores'}; {clock})")
    print("| variant | player | " + " | ".join(f"{p}-ply" for p in plies) + " |")
    print("|---|---|" + "---|" * len(plies))
    for variant in variants:
        cases = positions(variant, n)
        engines = {ply: tavla.Engine(variant, ply, threads=threads) for ply in plies}
        engines[min(plies)].best_move(*cases[0])  # warm-up: tables, networks
        if variant == "backgammon":
            gnubg_player(0)(*cases[0])
        if variant != "backgammon":
            row = [median_ms(engines[ply].best_move, cases) for ply in plies]
            print(f"| {variant} | tavla network | " + " | ".join(f"{x:.3f}" for x in row) + " |")
            continue
        pairs = [interleaved_ms(engines[ply].best_move, gnubg_player(ply), cases) for ply in plies]
        print(f"| {variant} | tavla network | " + " | ".join(f"{a:.3f}" for a, _ in pairs) + " |")
        print(f"| {variant} | gnubg_nn best_move | " + " | ".join(f"{b:.3f}" for _, b in pairs) + " |")
        print(f"| {variant} | tavla / gnubg time | " + " | ".join(f"{a / b:.2f}x" for a, b in pairs) + " |")


if __name__ == "__main__":
    main()
