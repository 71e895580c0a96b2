#!/usr/bin/env python3
"""Random-vs-random (or greedy) whole games per variant: the distribution of
results and games per second. The game loop runs in Rust (tavla.simulate_games).

    python scripts/simulate.py --games 100000 --threads 1
"""

from __future__ import annotations

import argparse
import time

import tavla


def report(variant: str, games: int, seed: int, players: tuple[str, str], threads: int) -> str:
    start = time.perf_counter()
    t = tavla.simulate_games(variant, games, seed=seed, players=players, threads=threads)
    elapsed = time.perf_counter() - start
    n = t["games"]
    wins = t["wins"]
    single = wins[0][0] + wins[1][0]
    double = wins[0][1] + wins[1][1]
    triple = wins[0][2] + wins[1][2]
    names = ("single", "gammon", "backgammon") if variant == "backgammon" else ("oin", "mars", "koks")
    p0 = sum(wins[0]) / n
    return (
        f"| {variant} | {n} | {100 * single / n:.2f}% | {100 * double / n:.2f}% | {100 * triple / n:.2f}% "
        f"| {100 * t['draws'] / n:.2f}% | {100 * p0:.2f}% | {100 * t['starter_wins'] / n:.2f}% "
        f"| {t['rolls'] / n:.1f} | {elapsed:.2f} | {n / elapsed:,.0f} |"
        f"  <!-- {names[0]}/{names[1]}/{names[2]} -->"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--players", nargs=2, default=["random", "random"], metavar=("P0", "P1"))
    ap.add_argument("--variants", nargs="+", default=list(tavla.VARIANTS))
    args = ap.parse_args()
    print(f"players {args.players[0]} vs {args.players[1]}, seed {args.seed}, {args.threads} thread(s)")
    print("| variant | games | single (oin) | gammon (mars) | backgammon (koks) | draw | player 0 wins "
          "| starter wins | rolls/game | seconds | games/s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for v in args.variants:
        print(report(v, args.games, args.seed, tuple(args.players), args.threads), flush=True)


if __name__ == "__main__":
    main()
