"""Properties every generated turn must have, on positions from random play."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import numpy as np

import tavla
from reference import rules_ref
from tavla.sampling import random_positions

VARIANT_RULES = st.sampled_from(
    [
        ("backgammon", {}),
        ("nardy", {}),
        ("nardy", {"fence_rule": "home", "first_turn_head_exception": "blocked"}),
        ("gulbara", {}),
        ("gulbara", {"head_rule": True, "fence_rule": "ahead", "exact_bearoff": True}),
    ]
)
DIE = st.integers(1, 6)


@st.composite
def position_and_roll(draw):
    variant, rules = draw(VARIANT_RULES)
    seed = draw(st.integers(0, 10_000))
    (pos,) = random_positions(variant, 1, seed=seed, **rules)
    return variant, rules, pos, draw(DIE), draw(DIE)


def my_point(variant: str, their_point: int) -> int:
    if variant == "backgammon":
        return 25 - their_point
    return their_point + 12 if their_point <= 12 else their_point - 12


def replay(variant: str, pos: tavla.Position, move: tavla.Move) -> tuple[list[int], list[int]]:
    """Plays the move's steps by hand, checking each landing is open."""
    mine, theirs = (list(a) for a in pos.to_arrays())
    theirs_on_my = {my_point(variant, k + 1): n for k, n in enumerate(theirs[:24]) if n}
    for (src, dst), hit in zip(move.steps, move.hits):
        assert mine[src - 1] > 0, f"{move}: no checker on {src}"
        mine[src - 1] -= 1
        if dst == 0:
            continue
        opposing = theirs_on_my.get(dst, 0)
        if variant == "backgammon":
            assert opposing < 2, f"{move}: landed on a closed point {dst}"
            assert hit == (opposing == 1)
            if hit:
                del theirs_on_my[dst]
                theirs[25 - dst - 1] -= 1
                theirs[24] += 1
        else:
            assert opposing == 0 and not hit, f"{move}: landed on an occupied point {dst}"
        mine[dst - 1] += 1
    return mine, theirs


@settings(max_examples=150, deadline=None)
@given(position_and_roll())
def test_turns_are_consistent(case):
    variant, rules, pos, d1, d2 = case
    moves = pos.legal_moves(d1, d2)
    assert moves, "there is always at least the pass"
    results = [m.position for m in moves]
    assert len(set(results)) == len(results), "a resulting position appears twice"
    # Maximal usage: every listed turn plays the same number of dice.
    assert len({m.moves_played for m in moves}) == 1
    full = 4 if d1 == d2 else 2
    assert all(m.moves_played <= full for m in moves)
    for m in moves:
        after_mine, after_theirs = m.position.to_arrays()
        # Checkers are conserved.
        assert sum(after_mine) + m.position.off[0] == 15
        assert sum(after_theirs) + m.position.off[1] == 15
        assert m.position.off[1] == pos.off[1]
        # The steps lead exactly to the position.
        assert replay(variant, pos, m) == (list(after_mine), list(after_theirs))
        if variant != "backgammon":
            assert rules_ref.fence_is_legal(variant, after_mine, after_theirs, m.position.rules["fence_rule"]) or m.is_pass()
    if moves[0].moves_played == 1 and d1 != d2:
        # The larger die if it can be played alone: a single-step move by the
        # smaller die means no single step of the larger die was legal.
        used = {(s - t) if t else None for m in moves for s, t in m.steps}
        assert not (max(d1, d2) in used and min(d1, d2) in used)


@settings(max_examples=80, deadline=None)
@given(position_and_roll())
def test_views_round_trip(case):
    variant, rules, pos, d1, d2 = case
    assert pos.flip().flip() == pos
    mine, theirs = pos.to_arrays()
    assert tavla.Position.from_arrays(variant, mine, theirs, **rules) == pos
    assert tavla.Position.from_arrays(variant, theirs, mine, **rules) == pos.flip()
    arr = pos.legal_positions(d1, d2)
    assert arr.dtype == np.int8 and arr.shape[1:] == (2, 25)
    assert [tuple(map(tuple, a)) for a in arr.tolist()] == [
        tuple(map(tuple, m.position.to_arrays())) for m in pos.legal_moves(d1, d2)
    ]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(tavla.VARIANTS),
    st.lists(st.integers(-2, 17), min_size=23, max_size=27),
    st.lists(st.integers(-2, 17), min_size=23, max_size=27),
    DIE,
    DIE,
)
def test_arbitrary_arrays_never_crash(variant, mine, theirs, d1, d2):
    """Any input is either refused with ValueError or fully usable."""
    try:
        pos = tavla.Position.from_arrays(variant, mine, theirs)
    except ValueError as e:
        assert str(e)
        return
    for m in pos.legal_moves(d1, d2):
        assert sum(m.position.to_arrays()[0]) + m.position.off[0] == 15
    if variant == "gulbara":
        pos.legal_cascade_step(d1, 4, 0)
