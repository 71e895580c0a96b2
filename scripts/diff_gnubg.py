"""Differential test of tavla's backgammon move generator against GNU Backgammon.

For each position from random play and each of the 21 rolls, the set of
distinct resulting positions must be identical to what `gnubg_nn.moves`
returns. Usage:

    python scripts/diff_gnubg.py --positions 5000 --seed 1
"""

from __future__ import annotations

import argparse
import sys
import time

import gnubg_nn

import tavla
from tavla.sampling import ALL_ROLLS, random_positions


def gnubg_results(pos: tavla.Position, d1: int, d2: int) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    mine, theirs = pos.to_arrays()
    keys = gnubg_nn.moves([theirs, mine], d1, d2)
    out = set()
    for key in keys:
        opp, mover = gnubg_nn.board_from_position_key(key)
        out.add((tuple(mover), tuple(opp)))
    if not out:  # gnubg lists nothing when the roll cannot be played
        out.add((tuple(mine), tuple(theirs)))
    return out


def tavla_results(pos: tavla.Position, d1: int, d2: int) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    moves = pos.legal_moves(d1, d2)
    out = {tuple(map(tuple, m.position.to_arrays())) for m in moves}
    assert len(out) == len(moves), "tavla returned a resulting position twice"
    return out


def compare(positions: list[tavla.Position]) -> list[str]:
    failures = []
    for pos in positions:
        for d1, d2 in ALL_ROLLS:
            ours, theirs = tavla_results(pos, d1, d2), gnubg_results(pos, d1, d2)
            if ours != theirs:
                failures.append(
                    f"{pos!r} roll {d1}-{d2}: tavla {len(ours)} results, gnubg {len(theirs)};"
                    f" only tavla: {sorted(ours - theirs)[:2]}; only gnubg: {sorted(theirs - ours)[:2]}"
                )
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    positions = random_positions("backgammon", args.positions, seed=args.seed)
    stats = {
        "on the bar": sum(p.bar[0] > 0 for p in positions),
        "bearing off": sum(p.to_arrays()[0][6:25] == [0] * 19 and p.off[0] < 15 for p in positions),
        "race": sum(p.is_race() for p in positions),
    }
    failures = compare(positions)
    elapsed = time.perf_counter() - start
    print(f"{len(positions)} positions x 21 rolls = {len(positions) * 21} cases in {elapsed:.1f}s; {stats}")
    for f in failures[:20]:
        print("MISMATCH", f)
    print(f"{len(failures)} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
