"""The fast generator against the reserve games' plain reference
(tests/reference/reserve_ref.py): Dutch backgammon with each
``enter_all_first`` value and acey-deucey, over positions from random play
and hand-made edge cases, every one of the 21 rolls (acey-deucey's 1-2 roll as
its whole sequence, with ``named`` and ``rolls_again``).

Acey-deucey positions come from random play of the fast generator: the
reference plays a 1-2 roll's whole sequence in seconds, far too slowly to walk
a game with. Its 1-2 roll is compared here on the cheap positions only (few
checkers on the board); `scripts/diff_reference.py --reserve-positions N`
runs the same comparison, every 1-2 roll included, on many more positions.
"""

from __future__ import annotations

import random

import pytest

import tavla
from reference import reserve_ref
from tavla.sampling import ALL_ROLLS

RESERVE_CASES = [("dutch", {"enter_all_first": True}), ("dutch", {"enter_all_first": False}), ("acey_deucey", {})]


def side(points):
    s = [0] * 25
    for p, n in points.items():
        s[p - 1] += n
    return tuple(s)


# Positions random play seldom reaches: (mine, theirs, reserve).
EDGE_CASES = [
    # A last checker that bears off with one die of the 1-2, a blot to hit first.
    (side({2: 1}), side({24: 1, 6: 14}), (0, 0)),
    (side({3: 1}), side({23: 1, 6: 14}), (0, 0)),
    # A few checkers left: a named number may win before its four moves.
    (side({1: 1, 5: 1, 6: 1}), side({18: 2, 6: 13}), (0, 0)),
    # Hit checkers on the bar with a reserve behind them.
    (side({25: 2, 13: 3}), side({6: 2, 5: 1, 20: 2}), (8, 10)),
    # Dutch no early hitting: blots everywhere, nothing home yet.
    (side({13: 5, 8: 1}), side({15: 1, 21: 1, 22: 1, 6: 3}), (9, 9)),
    (side({9: 2, 7: 1}), side({17: 1, 20: 1, 19: 1}), (12, 12)),
    # The last reserve checker enters, then board checkers may move (Dutch default).
    (side({20: 3, 7: 2, 13: 9}), side({1: 1, 24: 2}), (1, 12)),
]


def fast_random_position(variant: str, rng: random.Random, max_turns: int = 120, **rules):
    """A position reached by random legal turns of the fast generator, still in play."""
    pos = tavla.Position.start(variant, **rules)
    for _ in range(rng.randint(0, max_turns)):
        move = rng.choice(pos.legal_moves(rng.randint(1, 6), rng.randint(1, 6)))
        if move.position.is_game_over():
            break
        pos = move.position.flip()
    mine, theirs = pos.to_arrays()
    return tuple(mine), tuple(theirs), pos.reserve


def sample(variant: str, count: int, seed: int, **rules):
    rng = random.Random(seed)
    out = [reserve_ref.start_position(variant)] + EDGE_CASES
    walk = fast_random_position if variant == "acey_deucey" else reserve_ref.random_position
    while len(out) < count:
        out.append(walk(variant, rng, **rules))
    return out


def cheap_one_two(mine, reserve) -> bool:
    """Whether the reference plays this position's 1-2 roll in well under a second."""
    return sum(mine) <= 4 or reserve[0] >= 12


def compare(variant: str, rules: dict, positions, all_one_two: bool = True) -> list[str]:
    failures = []
    for mine, theirs, reserve in positions:
        pos = tavla.Position.from_arrays(variant, mine, theirs, reserve=reserve, **rules)
        for d1, d2 in ALL_ROLLS:
            if variant == "acey_deucey" and (d1, d2) == (1, 2) and not (all_one_two or cheap_one_two(mine, reserve)):
                continue
            moves = pos.legal_moves(d1, d2)
            ours = {result_of(m) for m in moves}
            if variant == "acey_deucey" and (d1, d2) == (1, 2):
                ours = {(*result_of(m), m.named, m.rolls_again) for m in moves}
                want = reserve_ref.acey_deucey_one_two(mine, theirs, reserve)
            else:
                want = reserve_ref.legal_results(variant, mine, theirs, reserve, d1, d2, **rules)
                assert all(m.named is None and not m.rolls_again for m in moves)
            if ours != want:
                failures.append(f"{pos!r} {d1}-{d2}: only tavla {sorted(ours - want)[:2]}, only reference {sorted(want - ours)[:2]}")
            if len(ours) != len(moves):
                failures.append(f"{pos!r} {d1}-{d2}: {len(moves)} moves for {len(ours)} distinct results")
    return failures


def result_of(move):
    """A move's result in the reference's form: (mine, theirs, reserve)."""
    mine, theirs = move.position.to_arrays()
    return tuple(mine), tuple(theirs), move.position.reserve


@pytest.mark.parametrize("variant,rules", RESERVE_CASES, ids=[f"{v}-{'-'.join(map(str, o.values()))}" for v, o in RESERVE_CASES])
def test_reserve_turns_match_reference(variant, rules):
    positions = sample(variant, 14, seed=3, **rules)
    failures = compare(variant, rules, positions, all_one_two=False)
    assert not failures, f"{len(failures)} mismatches, e.g. {failures[:3]}"
