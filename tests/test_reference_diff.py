"""The fast generator against the plain reference in tests/reference/, for the
nardy games (every option value) and backgammon, on positions from random play.

`scripts/diff_reference.py` runs the same comparison on thousands of positions.
"""

from __future__ import annotations

import itertools
import random

import pytest

import tavla
from reference import rules_ref
from tavla.sampling import ALL_ROLLS

NARDY_OPTIONS = [
    dict(first_turn_head_exception=h, fence_rule=f)
    for h, f in itertools.product(["listed", "blocked", "head_blocked"], ["ahead", "home", "none"])
]
GULBARA_OPTIONS = [
    dict(head_rule=head, fence_rule=f, exact_bearoff=x, first_turn_head_exception=h)
    for head, f, x, h in itertools.product([False, True], ["none", "ahead", "home"], [False, True], ["listed", "blocked", "head_blocked"])
    if head or h == "listed"
]
CASES = [("nardy", o) for o in NARDY_OPTIONS] + [("gulbara", o) for o in GULBARA_OPTIONS] + [("backgammon", {})]


def as_key(mine, theirs):
    return tuple(mine), tuple(theirs)


def sample(variant: str, count: int, seed: int, **rules) -> list[tuple[list[int], list[int]]]:
    rng = random.Random(seed)
    out = [rules_ref.start_position(variant)]
    # The second player's first turn: its 15 on the head, the opponent moved.
    if variant != "backgammon":
        for _ in range(3):
            mine, theirs = rules_ref.start_position(variant)
            first = rng.choice(sorted(rules_ref.legal_results(variant, mine, theirs, rng.randint(1, 6), rng.randint(1, 6), **rules)))
            out.append((first[1], first[0]))
    while len(out) < count:
        out.append(rules_ref.random_position(variant, rng, **rules))
    return out


def compare(variant: str, rules: dict, positions) -> list[str]:
    failures = []
    for mine, theirs in positions:
        pos = tavla.Position.from_arrays(variant, mine, theirs, **rules)
        for d1, d2 in ALL_ROLLS:
            ours = {as_key(*m.position.to_arrays()) for m in pos.legal_moves(d1, d2)}
            want = rules_ref.legal_results(variant, mine, theirs, d1, d2, **rules)
            if ours != want:
                failures.append(f"{pos!r} {d1}-{d2}: only tavla {sorted(ours - want)[:2]}, only reference {sorted(want - ours)[:2]}")
    return failures


@pytest.mark.parametrize("variant,rules", CASES, ids=[f"{v}-{'-'.join(map(str, o.values()))}" for v, o in CASES])
def test_turns_match_reference(variant, rules):
    positions = sample(variant, 30, seed=hash(tuple(rules.items())) % 1000, **rules)
    failures = compare(variant, rules, positions)
    assert not failures, f"{len(failures)} mismatches, e.g. {failures[:3]}"


def cascade_failures(rules: dict, positions) -> list[str]:
    failures = []
    for mine, theirs in positions:
        pos = tavla.Position.from_arrays("gulbara", mine, theirs, **rules)
        for die in range(1, 7):
            for count in (1, 2, 3, 4):
                for head_used in (0, 1):
                    got = {
                        (*as_key(*m.position.to_arrays()), m.moves_played, m.head_used)
                        for m in pos.legal_cascade_step(die, count, head_used)
                    }
                    want = rules_ref.cascade_step("gulbara", mine, theirs, die, count, head_used, **rules)
                    if got != want:
                        failures.append(f"{pos!r} die {die} x{count} head_used {head_used}: tavla {sorted(got - want)[:2]} reference {sorted(want - got)[:2]}")
    return failures


@pytest.mark.parametrize("rules", GULBARA_OPTIONS, ids=["-".join(map(str, o.values())) for o in GULBARA_OPTIONS])
def test_cascade_steps_match_reference(rules):
    positions = sample("gulbara", 8, seed=7, **rules)
    # A cascade on the first turn after one head checker already left in an
    # earlier step (head_used=1 makes it the first turn again).
    mine, theirs = [0] * 25, [0] * 25
    mine[23], mine[13], theirs[23], theirs[15] = 14, 1, 13, 2
    positions.append((mine, theirs))
    failures = cascade_failures(rules, positions)
    assert not failures, f"{len(failures)} mismatches, e.g. {failures[:3]}"
