#!/usr/bin/env python3
"""The strength table of benches/README.md: cubeless duplicate-dice duels.

Each row is what `tavla duel A B --variant V --games N --seed S` prints.

    python scripts/engine_strength.py [--scale 1.0] [--only backgammon]
"""

from __future__ import annotations

import argparse
import time

import tavla

# (variant, player 0, player 1, games)
MATCHUPS = [
    ("backgammon", "heuristic:0", "random", 200),
    ("backgammon", "pubeval:0", "random", 200),
    ("backgammon", "heuristic:0", "pubeval:0", 400),
    ("backgammon", "heuristic:1", "heuristic:0", 200),
    ("backgammon", "heuristic:1", "pubeval:0", 200),
    ("backgammon", "heuristic:2", "pubeval:0", 40),
    ("backgammon", "heuristic:0", "gnubg:0", 200),
    ("backgammon", "pubeval:0", "gnubg:0", 200),
    ("backgammon", "heuristic:1", "gnubg:0", 60),
    ("nardy", "heuristic:0", "random", 200),
    ("nardy", "pips:0", "random", 200),
    ("nardy", "pips:0", "heuristic:0", 200),
    ("nardy", "heuristic:1", "heuristic:0", 100),
    ("nardy", "heuristic:2", "heuristic:0", 20),
    ("gulbara", "heuristic:0", "random", 200),
    ("gulbara", "pips:0", "random", 200),
    ("gulbara", "pips:0", "heuristic:0", 200),
    ("gulbara", "heuristic:1", "heuristic:0", 100),
    ("gulbara", "heuristic:2", "heuristic:0", 20),
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every game count")
    ap.add_argument("--only", choices=tavla.VARIANTS)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print("| variant | player 0 | player 1 | games | points/game for player 0 (95% CI) | wins | gammons won / lost | ms/move (0 / 1) | wall s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for variant, a, b, games in MATCHUPS:
        if args.only and variant != args.only:
            continue
        n = max(2, int(games * args.scale))
        t = time.time()
        r = tavla.duel(variant, a, b, n, seed=args.seed)
        won = r.rate(lambda p: p > 0)
        gw, gl = r.rate(lambda p: p >= 2), r.rate(lambda p: p <= -2)
        ms = r.seconds_per_move
        print(
            f"| {variant} | {a} | {b} | {r.games} | {r.mean:+.3f} ± {r.ci95:.3f} | {won:.1%} | {gw:.1%} / {gl:.1%} "
            f"| {ms[0] * 1e3:.2f} / {ms[1] * 1e3:.2f} | {time.time() - t:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
