"""Unit tests of the reserve games' reference (tests/reference/reserve_ref.py).

Every expected result was worked out by hand from shared/RULES.md section 5;
points are ``{point: count}`` in the owner's numbering (25 = bar).
"""

import random

import pytest

from . import reserve_ref as R


def side(points=None):
    s = [0] * 25
    for p, n in (points or {}).items():
        s[p - 1] += n
    return tuple(s)


def res(variant, mine, theirs, reserve, d1, d2, **rules):
    return R.legal_results(variant, side(mine), side(theirs), reserve, d1, d2, **rules)


# ---------------------------------------------------------------------------
# Dutch backgammon (5.1)
# ---------------------------------------------------------------------------


def test_dutch_start_enters_both_dice():
    # 6 enters on 19, 5 on 20; nothing on the board moves while the reserve is not empty.
    assert res("dutch", {}, {}, (15, 15), 6, 5) == {(side({19: 1, 20: 1}), side(), (13, 15))}
    assert res("dutch", {}, {}, (15, 15), 3, 3) == {(side({22: 4}), side(), (11, 15))}


def test_dutch_enter_all_first_false_lets_an_entered_checker_move_on():
    got = res("dutch", {}, {}, (15, 15), 6, 5, enter_all_first=False)
    assert got == {(side({19: 1, 20: 1}), side(), (13, 15)), (side({14: 1}), side(), (14, 15))}


def test_dutch_no_early_hitting():
    theirs = {15: 1}  # their 15 = my 10, a lone checker
    # No checker home yet: my 10 is closed, 13/10 is no move; 13/12/9 plays both dice.
    assert res("dutch", {13: 15}, theirs, (0, 14), 3, 1) == {(side({13: 14, 9: 1}), side(theirs), (0, 14))}
    # With a checker on my 6, 13/10* hits.
    got = res("dutch", {13: 14, 6: 1}, theirs, (0, 14), 3, 1)
    assert (side({13: 13, 10: 1, 5: 1}), side({25: 1}), (0, 14)) in got


def test_dutch_no_early_hitting_is_judged_before_each_single_move():
    theirs = {21: 1}  # my 4
    # 4-1: 8/4 is closed before any checker is home; nothing can hit.
    assert all(t[24] == 0 for _, t, _ in res("dutch", {8: 1, 13: 14}, theirs, (0, 14), 4, 1))
    # 2-2: 8/6 brings a checker home, after which 6/4* may hit in the same turn.
    assert any(t[24] == 1 for _, t, _ in res("dutch", {8: 1, 13: 14}, theirs, (0, 14), 2, 2))


def test_dutch_bar_enters_before_the_reserve():
    theirs = {6: 2}  # my 19 closed
    # The hit checker enters with the 5 (19 is closed for the 6); the reserve
    # cannot use the 6 either, and with enter_all_first nothing else moves.
    assert res("dutch", {25: 1}, theirs, (5, 13), 6, 5) == {(side({20: 1}), side(theirs), (5, 13))}


def test_dutch_reserve_blocks_bearing_off():
    for _, _, r in res("dutch", {1: 1}, {}, (1, 15), 6, 1):
        assert r[0] == 0
    assert all(sum(m) == 2 for m, _, _ in res("dutch", {1: 1}, {}, (1, 15), 6, 1))


def test_dutch_result_counts_the_reserve_as_the_bar():
    assert R.result_kind(side(), 15) == 3
    assert R.result_kind(side({5: 15}), 0) == 2
    assert R.result_kind(side({5: 14}), 0) == 1
    assert R.result_kind(side({5: 13}), 1) == 1  # one borne off: a single, whatever is in reserve


# ---------------------------------------------------------------------------
# Acey-deucey (5.2)
# ---------------------------------------------------------------------------


def test_acey_deucey_entering_is_not_compulsory():
    # A checker on 13 may move while 14 wait in reserve.
    got = res("acey_deucey", {13: 1}, {}, (14, 15), 6, 5)
    assert (side({2: 1}), side(), (14, 15)) in got
    assert (side({13: 1, 19: 1, 20: 1}), side(), (12, 15)) in got


def test_acey_deucey_one_two_from_the_start():
    got = R.acey_deucey_one_two(side(), side(), (15, 15))
    # Every result names a number and rolls again: entering is always possible here.
    assert got and all(n is not None and again for *_, n, again in got)
    # 1 and 2 enter on 24 and 23, then 6 named: four checkers enter on 19.
    assert (side({24: 1, 23: 1, 19: 4}), side(), (9, 15), 6, True) in got
    # 24/22 (one checker by both dice), then four 1s: 22/18 or spread entries, e.g. four on 24.
    assert (side({22: 1, 24: 4}), side(), (10, 15), 1, True) in got
    assert {n for *_, n, _ in got} == set(range(1, 7))


def test_acey_deucey_one_two_ends_when_both_cannot_be_played():
    theirs = {1: 2, 2: 2}  # my 24 and 23 closed
    assert R.acey_deucey_one_two(side({25: 1}), side(theirs), (0, 11)) == {(side({25: 1}), side(theirs), (0, 11), None, False)}
    theirs = {1: 2, 3: 2}  # my 24 and 22 closed: the 2 enters on 23, the 1 cannot follow
    assert R.acey_deucey_one_two(side({25: 1}), side(theirs), (0, 11)) == {(side({23: 1}), side(theirs), (0, 11), None, False)}


def test_acey_deucey_named_number_played_in_part_ends_the_turn():
    theirs = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}  # my 19..24 closed
    # One checker on 12, one in reserve (which cannot enter: 19..24 are closed).
    got = R.acey_deucey_one_two(side({12: 1}), side(theirs), (1, 3))
    # 12/11/9 (or 12/10/9): then 6 named: 9/3 only (no bear-off with a checker in reserve), one move.
    assert (side({3: 1}), side(theirs), (1, 3), 6, False) in got
    # 1 named: four moves, 9/5, the turn goes on.
    assert (side({5: 1}), side(theirs), (1, 3), 1, True) in got
    # Without the reserve checker the 6s bear the last checker off: the game is won.
    won = R.acey_deucey_one_two(side({12: 1}), side(theirs), (0, 3))
    assert (side(), side(theirs), (0, 3), 6, False) in won


def test_acey_deucey_last_checker_off_ends_the_sequence():
    got = R.acey_deucey_one_two(side({1: 1, 2: 1}), side({12: 15}), (0, 0))
    assert (side(), side({12: 15}), (0, 0), None, False) in got
    assert all(not again for m, *_, again in got if sum(m) == 0)


def test_one_two_goes_through_its_own_function():
    with pytest.raises(ValueError, match="1-2"):
        res("acey_deucey", {}, {}, (15, 15), 1, 2)


@pytest.mark.parametrize("variant", R.VARIANTS)
def test_random_positions_keep_fifteen_checkers(variant):
    rng = random.Random(5)
    for _ in range(3):
        mine, theirs, reserve = R.random_position(variant, rng, max_turns=40)
        assert sum(mine) + reserve[0] <= 15 and sum(theirs) + reserve[1] <= 15
