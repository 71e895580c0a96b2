"""Where a backgammon player loses equity: its plays judged by GNU Backgammon.

Plays games of a tavla evaluator against itself at 0-ply and, at every
decision with a choice, scores each legal play with gnubg at an oracle ply
(default 2). The error of a play is the oracle's equity of its best play less
that of the play chosen. The same decision is also played by gnubg 0-ply, so
the table shows both side by side, split by gnubg's position class (contact,
crashed, race; bear-offs are left out since both engines play them from exact
tables). gnubg is an oracle here, for measuring only; its judgement favours
its own plays, so the numbers say *where* tavla loses, not by how much.

With --by-standing the contact class is split further by the mover's standing
before its roll (gnubg 0-ply's cubeless equity for the side on roll: behind
below -0.25, level, ahead above +0.25), to see whether a player errs more
when it leads or when it defends.

    python scripts/decision_errors.py --games 100 --oracle-ply 2 --seed 1
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict

import gnubg_nn

from tavla import Engine, Evaluation, Position

CLASSES = {gnubg_nn.c_contact: "contact", gnubg_nn.c_crashed: "crashed", gnubg_nn.c_race: "race"}


def oracle_equity_after(move_position: Position, ply: int) -> float:
    """The mover's cubeless equity after its play, with the opponent on roll."""
    mine, theirs = move_position.to_arrays()
    p = gnubg_nn.probabilities([mine, theirs], ply)
    return Evaluation(p).invert().equity


def board_key(pos: Position) -> tuple:
    return tuple(map(tuple, pos.to_arrays()))


def standing(pos: Position) -> str:
    """behind / level / ahead: gnubg 0-ply's cubeless equity for the side on roll."""
    mine, theirs = pos.to_arrays()
    equity = Evaluation(gnubg_nn.probabilities([theirs, mine], 0)).equity
    return "behind" if equity < -0.25 else "ahead" if equity > 0.25 else "level"


def gnubg_choice(pos: Position, d1: int, d2: int) -> tuple:
    mine, theirs = pos.to_arrays()
    _, key = gnubg_nn.best_move([theirs, mine], d1, d2, n=0, b=1)
    after_mine, after_theirs = gnubg_nn.board_from_position_key(key)
    return (tuple(after_mine), tuple(after_theirs))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--evaluator", default="network", help="tavla evaluator: network, network=FILE, pubeval, ...")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--oracle-ply", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--by-standing", action="store_true", help="split contact decisions by the mover's standing")
    args = p.parse_args()

    engine = Engine("backgammon", 0, evaluator=args.evaluator)
    rng = random.Random(args.seed)
    # per class: decisions, tavla's total error, gnubg's total error, tavla wrong, gnubg wrong
    table: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0, 0])
    start = time.perf_counter()
    for _ in range(args.games):
        pos = Position.start("backgammon")
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        while d1 == d2:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        for _turn in range(1000):
            moves = pos.legal_moves(d1, d2)
            chosen = engine.best_move(pos, d1, d2)
            mine, theirs = pos.to_arrays()
            cls = CLASSES.get(gnubg_nn.classify([theirs, mine]))
            if len(moves) > 1 and cls is not None:
                if args.by_standing and cls == "contact":
                    cls = f"contact, {standing(pos)}"
                equities = {board_key(m.position): oracle_equity_after(m.position, args.oracle_ply) for m in moves}
                best = max(equities.values())
                ours = best - equities[board_key(chosen.position)]
                theirs_err = best - equities[gnubg_choice(pos, d1, d2)]
                row = table[cls]
                row[0] += 1
                row[1] += ours
                row[2] += theirs_err
                row[3] += ours > 1e-6
                row[4] += theirs_err > 1e-6
            if sum(chosen.position.to_arrays()[0]) == 0:  # the mover has borne off its last checker
                break
            pos = chosen.position.flip()
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    print(
        f"{args.evaluator} 0-ply vs gnubg 0-ply, judged by gnubg {args.oracle_ply}-ply, "
        f"{args.games} self-play games of {args.evaluator} (seed {args.seed}), {time.perf_counter() - start:.0f} s"
    )
    print(f"{'class':16} {'decisions':>9} {'tavla mEq/dec':>14} {'wrong':>6} {'gnubg mEq/dec':>14} {'wrong':>6} {'tavla/game':>11} {'gnubg/game':>11}")
    totals = [0, 0.0, 0.0, 0, 0]
    contact = ("contact, behind", "contact, level", "contact, ahead") if args.by_standing else ("contact",)
    for cls in (*contact, "crashed", "race"):
        row = table.get(cls)
        if not row or not row[0]:
            continue
        totals = [a + b for a, b in zip(totals, row)]
        n = row[0]
        print(
            f"{cls:16} {n:9d} {1000 * row[1] / n:14.2f} {row[3] / n:6.1%} {1000 * row[2] / n:14.2f} {row[4] / n:6.1%} "
            f"{row[1] / args.games:11.4f} {row[2] / args.games:11.4f}"
        )
    n = max(1, totals[0])
    print(
        f"{'all':16} {totals[0]:9d} {1000 * totals[1] / n:14.2f} {totals[3] / n:6.1%} {1000 * totals[2] / n:14.2f} "
        f"{totals[4] / n:6.1%} {totals[1] / args.games:11.4f} {totals[2] / args.games:11.4f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
