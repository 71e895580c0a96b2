"""Whose optimism? The side on roll's cubeless equity in leading positions: evaluations and rollouts.

    python3 scripts/leader_bias.py --trials 100                      # 653 positions, about 10 minutes
    python3 scripts/leader_bias.py --trials 40 --pairings t1t1      # rollouts of tavla's 1-ply player

tavla's evaluations rate a leader on roll too high beside gnubg's 2-ply (benches/README.md,
"Teachers compared"). This splits that into parts on the cube set's contact positions where gnubg's
0-ply gives the side on roll (A) a cubeless equity of 0.25 to 1.0: tavla's static 0, 1 and 2-ply
evaluations, and whole-game rollouts (cubeless, every game played out) with the same dice for
each pairing of players:

- ``tt``: tavla 0-ply on both sides (the world tavla's networks learn from);
- ``gg``: gnubg-nn 0-ply on both sides;
- ``tg``: tavla leads (plays A), gnubg defends; ``gt``: gnubg leads, tavla defends;
- ``t1t1``: tavla 1-ply on both sides.

A's mean points per game are compared with gnubg's 2-ply, and pairings with each other (a paired
mean over positions with a 95% interval): ``gt - gg`` is what tavla's defence gives away, ``tg - gg``
what its leading play gives away, ``tt - gg`` the part of the bias a rollout of tavla's own play
carries. gnubg is a yardstick here (its play and its evaluations measure, they never label).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Callable

import numpy as np

from tavla import Engine, Game, formats
from tavla.duel import GnubgPlayer

ROOT = Path(__file__).resolve().parent.parent
CUBE_SET = ROOT / "benches" / "positions" / "cube-backgammon.json"
NAMES = {
    "tt": "tavla 0-ply on both sides",
    "gg": "gnubg 0-ply on both sides",
    "tg": "tavla leads, gnubg defends",
    "gt": "gnubg leads, tavla defends",
    "t1t1": "tavla 1-ply on both sides",
}


def leading_positions(lo: float, hi: float) -> list[dict]:
    """The cube set's contact cases whose side on roll gnubg's 0-ply gives a cubeless equity in lo..hi."""
    cases = json.loads(CUBE_SET.read_text())["positions"]
    return [c for c in cases if c["gnubg_class_name"] == "contact" and lo <= c["gnubg"]["0"]["cubeless_equity"] <= hi]


# Each pairing's (leader, defender) by player kind, and how to make each kind.
SIDES = {"tt": ("t", "t"), "gg": ("g", "g"), "tg": ("t", "g"), "gt": ("g", "t"), "t1t1": ("t1", "t1")}
KINDS: dict[str, Callable[[], Any]] = {
    "t": lambda: Engine("backgammon", ply=0, threads=1),
    "g": lambda: GnubgPlayer(0),
    "t1": lambda: Engine("backgammon", ply=1, threads=1),
}


def seated(pairings: list[str]) -> dict[str, tuple[Any, Any]]:
    """Each pairing's (leader, defender), every kind of player made once."""
    made = {kind: KINDS[kind]() for kind in {k for p in pairings for k in SIDES[p]}}
    return {p: (made[SIDES[p][0]], made[SIDES[p][1]]) for p in pairings}


def play_out(position_id: str, leader, defender, seed: int) -> int:
    """A's points from one game played out from the position (A on roll), negative when A loses."""
    game = Game.from_position(position_id)
    a = game.turn
    rng = random.Random(seed)
    while not game.is_over:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        game.roll((d1, d2))
        player = leader if game.turn == a else defender
        move = player.best_move(game.position, d1, d2) if isinstance(player, Engine) else player(game.position, d1, d2)
        game.play(move)
    result = game.result
    assert result is not None  # the game is over
    return result["points"] if result["winner"] == a else -result["points"]


def rollout_means(job: tuple) -> list[list[float]]:
    """Per position of this worker's share, A's mean points under each pairing (the same dice for all)."""
    ids, first, pairings, trials = job
    players = seated(pairings)
    return [
        [float(np.mean([play_out(pid, *players[p], 1_000_003 * (first + k) + t) for t in range(trials)])) for p in pairings]
        for k, pid in enumerate(ids)
    ]


def paired(x: np.ndarray) -> str:
    return f"{x.mean():+.4f} ± {1.96 * x.std(ddof=1) / np.sqrt(len(x)):.4f}"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--trials", type=int, default=100, help="games played out per position and pairing")
    p.add_argument("--pairings", default="tt,gg,tg,gt", help=f"a comma list of {', '.join(SIDES)}")
    p.add_argument("--limit", type=int, default=0, help="only the first N positions")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--low", type=float, default=0.25)
    p.add_argument("--high", type=float, default=1.0)
    args = p.parse_args()
    pairings = args.pairings.split(",")
    unknown = [x for x in pairings if x not in SIDES]
    if unknown:
        p.error(f"unknown pairings {unknown}: choose from {', '.join(SIDES)}")
    cases = leading_positions(args.low, args.high)
    if args.limit:
        cases = cases[: args.limit]
    ids = [c["position_id"] for c in cases]
    positions = [formats.parse(pid)["position"] for pid in ids]
    gnubg2 = np.array([c["gnubg"]["2"]["cubeless_equity"] for c in cases])
    print(f"{len(cases)} contact positions of the cube set, gnubg 0-ply equity of the side on roll {args.low} to {args.high}")
    print(f"{'gnubg 2-ply':34} {gnubg2.mean():+.4f}")
    for ply in (0, 1, 2):
        engine = Engine("backgammon", ply=ply, threads=1)
        tavla = np.array([engine.evaluate(pos).equity for pos in positions])
        print(f"{f'tavla {ply}-ply':34} {tavla.mean():+.4f}   minus gnubg 2-ply {paired(tavla - gnubg2)}")
    step = -(-len(ids) // args.workers)
    jobs = [(ids[k : k + step], k, pairings, args.trials) for k in range(0, len(ids), step)]
    with ProcessPoolExecutor(args.workers) as pool:
        means = np.array([row for part in pool.map(rollout_means, jobs) for row in part])
    print(f"whole-game rollouts, {args.trials} a position and pairing (the same dice in every pairing):")
    for k, name in enumerate(pairings):
        print(f"  {NAMES[name]:32} {means[:, k].mean():+.4f}   minus gnubg 2-ply {paired(means[:, k] - gnubg2)}")
    column = {name: means[:, k] for k, name in enumerate(pairings)}
    print("A's points, one pairing less another (paired by position):")
    for a, b, what in (("gt", "gg", "what tavla's defence gives away"), ("tg", "gg", "minus what tavla's leading play gives away"),
                       ("tt", "gg", "the bias of tavla's own play"), ("t1t1", "tt", "1-ply players instead of 0-ply"),
                       ("t1t1", "gg", "tavla 1-ply players instead of gnubg 0-ply")):
        if a in column and b in column:
            print(f"  {a} - {b} ({what}): {paired(column[a] - column[b])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
