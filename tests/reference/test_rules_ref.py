"""Unit tests of the reference move generator (tests/reference/rules_ref.py).

Every expected result here was worked out by hand from shared/RULES.md; the
comments show the reasoning.  Points are written as ``{point: count}`` in the
owner's own numbering (25 = bar).
"""

import random

import pytest

from . import rules_ref as R
from .rules_ref import cascade_step, fence_is_legal, legal_results


def side(points):
    """25-tuple from ``{point: count}`` (point 25 = bar)."""
    s = [0] * 25
    for p, n in points.items():
        s[p - 1] += n
    return tuple(s)


def pts(s):
    """``{point: count}`` of a 25-tuple, for readable comparisons."""
    return {i + 1: n for i, n in enumerate(s) if n}


def mine_results(variant, mine, theirs, d1, d2, **rules):
    """The set of resulting ``mine`` sides, as frozensets of (point, count)."""
    res = legal_results(variant, side(mine), side(theirs), d1, d2, **rules)
    return {frozenset(pts(m).items()) for m, _ in res}


def fz(*dicts):
    return {frozenset(d.items()) for d in dicts}


HEAD15 = {24: 15}  # start position of nardy / gul bara (either side)


# ---------------------------------------------------------------------------
# Long nardy: worked examples of RULES.md section 3 (first turn of the starter)
# ---------------------------------------------------------------------------

NON_DOUBLES = [(a, b) for a in range(1, 7) for b in range(1, 7) if a != b]


@pytest.mark.parametrize("exc", ["listed", "blocked", "head_blocked"])
@pytest.mark.parametrize("d1,d2", NON_DOUBLES)
def test_nardy_first_turn_non_double(d1, d2, exc):
    res = legal_results("nardy", side(HEAD15), side(HEAD15), d1, d2,
                        first_turn_head_exception=exc)
    assert res == {(side({24: 14, 24 - d1 - d2: 1}), side(HEAD15))}


@pytest.mark.parametrize("exc", ["listed", "blocked", "head_blocked"])
@pytest.mark.parametrize("d,expected", [
    (1, [{24: 14, 20: 1}]),
    (2, [{24: 14, 16: 1}]),
    (5, [{24: 14, 4: 1}]),  # 24-19-14-9-4: jumps over the opponent's head on 12
    (6, [{24: 13, 18: 2}]),  # two checkers to 18; 18->12 blocked, two sixes lost
    (4, [{24: 13, 16: 2}]),
    (3, [{24: 13, 15: 1, 21: 1}, {24: 13, 18: 2}]),
])
def test_nardy_first_turn_doubles(d, expected, exc):
    res = legal_results("nardy", side(HEAD15), side(HEAD15), d, d,
                        first_turn_head_exception=exc)
    assert res == {(side(e), side(HEAD15)) for e in expected}


def test_start_position():
    assert R.start_position("nardy") == (side(HEAD15), side(HEAD15))
    assert R.start_position("gulbara") == (side(HEAD15), side(HEAD15))
    bg = side({24: 2, 13: 5, 8: 3, 6: 5})
    assert R.start_position("backgammon") == (bg, bg)


# ---------------------------------------------------------------------------
# Head rule
# ---------------------------------------------------------------------------

# Second player's first turn after the starter rolled 5-5 (its checker on its
# point 4 = my point 16; its head is my point 12).
AFTER_55 = {24: 14, 4: 1}


def test_second_player_listed_vs_blocked_2_2():
    # One head checker: 24-22-20-18, then 18->16 blocked: only 3 moves.
    assert mine_results("nardy", HEAD15, AFTER_55, 2, 2) == fz({24: 14, 18: 1})
    # 'blocked': one checker cannot play 2-2 in full, so a second may leave:
    # four moves split 3+1 or 2+2 (neither checker can make 4 moves).
    assert mine_results("nardy", HEAD15, AFTER_55, 2, 2,
                        first_turn_head_exception="blocked") == fz(
        {24: 13, 18: 1, 22: 1}, {24: 13, 20: 2})


def test_second_player_listed_vs_blocked_6_2():
    # One checker: 24-18-16 and 24-22-16 both blocked, so one die only: the 6.
    assert mine_results("nardy", HEAD15, AFTER_55, 6, 2) == fz({24: 14, 18: 1})
    assert mine_results("nardy", HEAD15, AFTER_55, 2, 6) == fz({24: 14, 18: 1})
    # 'blocked': a second head checker plays the other die.
    assert mine_results("nardy", HEAD15, AFTER_55, 6, 2,
                        first_turn_head_exception="blocked") == fz({24: 13, 18: 1, 22: 1})


@pytest.mark.parametrize("exc", ["listed", "blocked"])
def test_second_player_4_4(exc):
    # Two checkers may leave (listed: 4-4; blocked: one can play only 24->20);
    # each stops on 20 because 16 is blocked.
    assert mine_results("nardy", HEAD15, AFTER_55, 4, 4,
                        first_turn_head_exception=exc) == fz({24: 13, 20: 2})


def test_second_player_4_4_head_blocked():
    # RULES.md section 3's worked example: the checker on my 16 stops a lone head
    # checker before the opponent's head does, so only 24/20 is played.
    assert mine_results("nardy", HEAD15, AFTER_55, 4, 4,
                        first_turn_head_exception="head_blocked") == fz({24: 14, 20: 1})
    # 6-6: 24-18-12, the opponent's head is the first closed point: two checkers.
    assert mine_results("nardy", HEAD15, AFTER_55, 6, 6,
                        first_turn_head_exception="head_blocked") == fz({24: 13, 18: 2})
    # 2-2 is not one of the listed rolls, whatever blocks it.
    assert mine_results("nardy", HEAD15, AFTER_55, 2, 2,
                        first_turn_head_exception="head_blocked") == fz({24: 14, 18: 1})


def test_head_rule_one_checker_per_turn():
    # Not the first turn: only one checker may leave the head.
    mine = {24: 14, 13: 1}
    # 3-3: head checker A can reach 21, 18, 15 (12 blocked); B on 13 reaches
    # 10, 7, 4, 1 (no bearing off).  Four moves: A i + B (4 - i), i = 0..3.
    assert mine_results("nardy", mine, HEAD15, 3, 3) == fz(
        {24: 14, 1: 1}, {24: 13, 21: 1, 4: 1}, {24: 13, 18: 1, 7: 1},
        {24: 13, 15: 1, 10: 1})
    # 6-6: no first-turn exception here.  A: 24->18 (18->12 blocked); B: 13-7-1.
    assert mine_results("nardy", mine, HEAD15, 6, 6) == fz({24: 13, 18: 1, 1: 1})
    assert mine_results("nardy", mine, HEAD15, 6, 6,
                        first_turn_head_exception="blocked") == fz({24: 13, 18: 1, 1: 1})


def test_first_turn_is_all_fifteen_on_head():
    # 14 on the head + 1 elsewhere is not the first turn: with 6-6 a single
    # head checker leaves, and the other checker plays.
    mine = {24: 14, 20: 1}
    # A: 24->18 only.  C on 20: 20->14->8->2.  Max 4 moves: A1 + C3.
    assert mine_results("nardy", mine, HEAD15, 6, 6) == fz({24: 13, 18: 1, 2: 1})


# ---------------------------------------------------------------------------
# Six-fence rule
# ---------------------------------------------------------------------------

# Fence along the opponent's path at its points 18..23 = my 6..11.
FENCE_MINE = {24: 9, 13: 1, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1}
FENCE_RESULT = frozenset({24: 9, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1}.items())  # 13-7-6


def test_fence_ahead_basic():
    opp = HEAD15  # all on its point 24 = my 12: nobody ahead of the fence
    assert FENCE_RESULT in mine_results("nardy", FENCE_MINE, opp, 6, 1, fence_rule="none")
    res = mine_results("nardy", FENCE_MINE, opp, 6, 1)
    assert FENCE_RESULT not in res
    assert res  # other two-dice plays remain
    for m in legal_results("nardy", side(FENCE_MINE), side(opp), 6, 1):
        assert fence_is_legal("nardy", m[0], m[1], "ahead")
    # One opponent checker on its point 17 (my 5), below the fence: allowed.
    opp17 = {24: 14, 17: 1}
    assert FENCE_RESULT in mine_results("nardy", FENCE_MINE, opp17, 6, 1)
    # ... but not under 'home': that checker is not in its home.
    assert FENCE_RESULT not in mine_results("nardy", FENCE_MINE, opp17, 6, 1, fence_rule="home")
    # A checker in its home (its point 3 = my 15) allows it under 'home' and 'ahead'.
    opp3 = {24: 14, 3: 1}
    assert FENCE_RESULT in mine_results("nardy", FENCE_MINE, opp3, 6, 1, fence_rule="home")
    assert FENCE_RESULT in mine_results("nardy", FENCE_MINE, opp3, 6, 1)
    # A borne-off opponent checker allows it under both.
    opp_off = {24: 14}
    for rule in ("ahead", "home", "none"):
        assert FENCE_RESULT in mine_results("nardy", FENCE_MINE, opp_off, 6, 1, fence_rule=rule)


# Fence crossing from my point 1 to my point 24: my 2,1,24,23,22,21 =
# opponent points 14,13,12,11,10,9 (q = 9).
CROSS_MINE = {24: 10, 23: 1, 22: 1, 20: 1, 2: 1, 1: 1}
CROSS_RESULT = frozenset({24: 9, 23: 1, 22: 1, 21: 1, 18: 1, 2: 1, 1: 1}.items())  # 24-21, 20-18


def test_fence_crossing_point_one_to_24():
    opp = HEAD15
    assert CROSS_RESULT in mine_results("nardy", CROSS_MINE, opp, 3, 2, fence_rule="none")
    assert CROSS_RESULT not in mine_results("nardy", CROSS_MINE, opp, 3, 2)
    assert CROSS_RESULT not in mine_results("nardy", CROSS_MINE, opp, 3, 2, fence_rule="home")
    # Opponent checker on its point 7 (my 19): ahead of q = 9, not in its home.
    opp7 = {24: 14, 7: 1}
    assert CROSS_RESULT in mine_results("nardy", CROSS_MINE, opp7, 3, 2)
    assert CROSS_RESULT not in mine_results("nardy", CROSS_MINE, opp7, 3, 2, fence_rule="home")
    # Opponent checker on its point 10 would be inside the fence; on its point 15
    # (my 3) it is behind it: still forbidden.
    opp15 = {24: 14, 15: 1}
    assert CROSS_RESULT not in mine_results("nardy", CROSS_MINE, opp15, 3, 2)


def test_fence_is_legal_geometry():
    # my 21..24 + 1,2 held, opponent all behind (its 24): forbidden fence.
    mine = side({24: 10, 23: 1, 22: 1, 21: 1, 2: 1, 1: 1})
    assert not fence_is_legal("nardy", mine, side(HEAD15), "ahead")
    assert fence_is_legal("nardy", mine, side(HEAD15), "none")
    # my 10..15 is consecutive in MY numbering but is the opponent's 22,23,24,1,2,3:
    # not a fence.
    mine = side({10: 1, 11: 1, 12: 1, 13: 1, 14: 1, 15: 10})
    theirs = side({20: 15})  # its 20 = my 8
    assert fence_is_legal("nardy", mine, theirs, "ahead")
    assert fence_is_legal("nardy", mine, theirs, "home")
    # Fence in the opponent's home (my 13..18 = its 1..6): nothing can be ahead
    # but a borne-off checker.
    mine = side({13: 1, 14: 1, 15: 1, 16: 1, 17: 1, 18: 10})
    assert not fence_is_legal("nardy", mine, side({20: 15}), "ahead")
    assert not fence_is_legal("nardy", mine, side({20: 15}), "home")
    assert fence_is_legal("nardy", mine, side({20: 14}), "ahead")
    assert fence_is_legal("nardy", mine, side({20: 14}), "home")
    # Five points are not a fence.
    mine = side({13: 1, 14: 1, 15: 1, 16: 1, 17: 11})
    assert fence_is_legal("nardy", mine, side({20: 15}), "ahead")


# Maximal usage over legal turns only, and the larger-die rule among them.
# Me: 13:1, 12:2, 11..8:3 each (fence target: my 7..12 = its 19..24).
# Opponent: my 1..6 (its 13..18) two each, my 24 (its 12) three; none in its
# home (its 1..6 = my 13..18), none off.
MU_MINE = {13: 1, 12: 2, 11: 3, 10: 3, 9: 3, 8: 3}
MU_OPP = {13: 2, 14: 2, 15: 2, 16: 2, 17: 2, 18: 2, 12: 3}


def test_max_usage_over_fence_legal_turns():
    # 6-5.  6s: only 13->7.  5s: 13->8, 12->7.  Two-dice turns all end with
    # 7..12 held (13-7 + 12-7); 12-7 then 7-1 is blocked (its checkers on my 1).
    # 'home': those are illegal.  Legal one-die turns: 13->7 and 12->7 make the
    # fence, so only 13->8 (the SMALLER die) remains, and must be played.
    assert mine_results("nardy", MU_MINE, MU_OPP, 6, 5, fence_rule="home") == fz(
        {12: 2, 11: 3, 10: 3, 9: 3, 8: 4})
    # 'none' and 'ahead' (its checkers on its 13..18 are ahead of q = 19):
    expected = fz({12: 1, 11: 3, 10: 3, 9: 3, 8: 3, 7: 2})
    assert mine_results("nardy", MU_MINE, MU_OPP, 6, 5, fence_rule="none") == expected
    assert mine_results("nardy", MU_MINE, MU_OPP, 6, 5, fence_rule="ahead") == expected
    assert mine_results("nardy", MU_MINE, MU_OPP, 5, 6, fence_rule="ahead") == expected


def test_pass_when_every_turn_makes_a_fence():
    # 6-6: the only move is 13->7, which makes the fence: under 'home' nothing
    # legal remains, so the player passes.
    mine, theirs = side(MU_MINE), side(MU_OPP)
    assert legal_results("nardy", mine, theirs, 6, 6, fence_rule="home") == {(mine, theirs)}
    assert mine_results("nardy", MU_MINE, MU_OPP, 6, 6, fence_rule="none") == fz(
        {12: 2, 11: 3, 10: 3, 9: 3, 8: 3, 7: 1})


def test_pass_keeps_an_existing_fence():
    # A player who already holds a forbidden fence and cannot move passes.
    mine = side({13: 1, 14: 1, 15: 1, 16: 1, 17: 1, 18: 10})
    # Opponent on my 12..7 (its 24..19) and my 23 (its 11); none off.
    theirs = side({24: 3, 23: 2, 22: 2, 21: 2, 20: 2, 19: 2, 11: 2})
    res = legal_results("nardy", mine, theirs, 6, 5)
    # 6s: 18->12 x, 17->11 x, 16->10 x, 15->9 x, 14->8 x, 13->7 x.  5s: 18->13 ok.
    # 18->13 then 6: 13->7 x, ... none.  So one die: 18->13, keeping the fence
    # 13..18 held -> illegal under 'ahead' (nobody off) -> pass.
    assert res == {(mine, theirs)}
    assert mine_results("nardy", pts(mine), pts(theirs), 6, 5, fence_rule="none") == fz(
        {13: 2, 14: 1, 15: 1, 16: 1, 17: 1, 18: 9})


# ---------------------------------------------------------------------------
# Maximal usage and the larger die (no fences involved)
# ---------------------------------------------------------------------------

def test_larger_die_when_only_one_can_be_played():
    # One free checker on 20; the rest on my 1 (not all home: no bearing off).
    mine = {20: 1, 1: 14}
    # Opponent blocks my 10 (its 22): 20-14-10 and 20-16-10 both blocked.
    opp = {24: 14, 22: 1}
    assert mine_results("nardy", mine, opp, 6, 4) == fz({14: 1, 1: 14})
    assert mine_results("nardy", mine, opp, 4, 6) == fz({14: 1, 1: 14})
    # Block 14 as well (its 2): then only the 4 can be played.
    opp = {24: 13, 22: 1, 2: 1}
    assert mine_results("nardy", mine, opp, 6, 4) == fz({16: 1, 1: 14})


def test_both_dice_must_be_played_when_possible():
    # Checker X on 20, Y on 15; the rest on my 1.  Opponent blocks my 16 and
    # my 10 (its 4 and 22) and my 9 (its 21).
    mine = {20: 1, 15: 1, 1: 13}
    opp = {24: 12, 4: 1, 22: 1, 21: 1}
    # 6-4.  6s: X 20->14, Y 15->9 x.  4s: X 20->16 x, Y 15->11.
    # 6 then 4: X 20-14, then 14->10 x, Y 15->11 ok.  4 then 6: Y 15-11, then
    # X 20->14 ok, Y 11->5 ok.  Two dice possible, so a one-die play is illegal.
    assert mine_results("nardy", mine, opp, 6, 4) == fz(
        {14: 1, 11: 1, 1: 13}, {20: 1, 5: 1, 1: 13})


def test_double_partly_playable():
    mine = {20: 1, 1: 14}
    opp = {24: 14, 20: 1}  # its 20 = my 8
    # 4-4: 20-16-12 x (its head)... 16->12 blocked: only one move.
    assert mine_results("nardy", mine, opp, 4, 4) == fz({16: 1, 1: 14})
    # 3-3: 20-17-14-11-8 x: three moves.
    assert mine_results("nardy", mine, opp, 3, 3) == fz({11: 1, 1: 14})


def test_nothing_playable_is_a_pass():
    mine, theirs = side({20: 1, 1: 14}), side({24: 13, 3: 1, 5: 1})  # my 15 and 17
    assert legal_results("nardy", mine, theirs, 5, 3) == {(mine, theirs)}
    assert legal_results("nardy", mine, theirs, 3, 5) == {(mine, theirs)}


# ---------------------------------------------------------------------------
# Bearing off
# ---------------------------------------------------------------------------

OPP_FAR = HEAD15  # my 12: out of the way of my home


@pytest.mark.parametrize("variant", ["nardy", "gulbara", "backgammon"])
def test_bear_off_exact_and_from_highest(variant):
    # Opponent out of the way of my home: my 12 (nardy) / my 24 (backgammon).
    opp = {1: 15} if variant == "backgammon" else OPP_FAR
    mine = {6: 1, 4: 1}  # 13 off
    # 5-2.  5s: 6->1; 4 cannot bear off (6 is higher).  2s: 6->4, 4->2.
    # 5,2: 6-1 then 4-2 (1 cannot bear off: 4 is higher) -> {2, 1}.
    # 2,5: 6-4 then 4 off by 5 (highest) -> {4}; 4-2 then 6-1 -> {2, 1}.
    assert mine_results(variant, mine, opp, 5, 2) == fz({2: 1, 1: 1}, {4: 1})


def test_exact_bearoff_option_gulbara():
    # Same position: with exact_bearoff the 5 cannot bear off from 4.
    assert mine_results("gulbara", {6: 1, 4: 1}, OPP_FAR, 5, 2, exact_bearoff=True) == fz(
        {2: 1, 1: 1})
    # 6-6 from {5, 2}: default bears off both (from highest each time);
    # exact: nothing can be played (5-6 and 2-6 are not exact, no move inside).
    assert mine_results("gulbara", {5: 1, 2: 1}, OPP_FAR, 6, 6) == fz({})
    mine, theirs = side({5: 1, 2: 1}), side(OPP_FAR)
    assert legal_results("gulbara", mine, theirs, 6, 6, exact_bearoff=True) == {(mine, theirs)}


def test_exact_bearoff_2_2():
    # {5, 2}, 2-2, exact: 2 off (exactly), 5-3-1, and then 1 cannot bear off
    # with a 2: three moves at most, always ending on {1}.
    res = mine_results("gulbara", {5: 1, 2: 1}, OPP_FAR, 2, 2, exact_bearoff=True)
    assert res == fz({1: 1})
    # Without exact_bearoff: 2 off, 5-3-1, 1 off by 2 (highest) -> all off in 4.
    assert mine_results("gulbara", {5: 1, 2: 1}, OPP_FAR, 2, 2) == fz({})


def test_must_move_inside_when_higher_checker_exists():
    # {5, 2}, 4-4: 2 cannot bear off with a 4 while 5 stands.  5-1, then 2 off
    # (now highest), then 1 off: three moves, all off.
    assert mine_results("nardy", {5: 1, 2: 1}, OPP_FAR, 4, 4) == fz({})
    # {6, 3}, 5-4: 5s: 6->1 (3 cannot bear off); 4s: 6->2, 3 cannot (6 higher).
    # 5,4: 6-1, then 3 off by 4 (highest) -> {1}; or 1 off? no (3 higher).
    # 4,5: 6-2, then 3 off by 5 -> {2}; 2 off? no (3 higher).
    assert mine_results("nardy", {6: 1, 3: 1}, OPP_FAR, 5, 4) == fz({1: 1}, {2: 1})


def test_no_bear_off_while_a_checker_is_outside_home():
    # {7, 3}, 6-3.  6s: 7->1 (3 cannot bear off yet).  3s: 7->4 (3->0 not yet).
    # 6,3: 7-1 then 3 off -> {1}.  3,6: 7-4 then 4 off by 6 (highest) -> {3}.
    assert mine_results("nardy", {7: 1, 3: 1}, OPP_FAR, 6, 3) == fz({1: 1}, {3: 1})


# ---------------------------------------------------------------------------
# Gul bara
# ---------------------------------------------------------------------------

def test_gulbara_no_head_rule_by_default():
    assert mine_results("gulbara", HEAD15, HEAD15, 6, 5) == fz(
        {24: 14, 13: 1}, {24: 13, 18: 1, 19: 1})
    assert mine_results("gulbara", HEAD15, HEAD15, 6, 5, head_rule=True) == fz({24: 14, 13: 1})
    # 6-6 as an ordinary double: four checkers to 18 (18->12 blocked).
    assert mine_results("gulbara", HEAD15, HEAD15, 6, 6) == fz({24: 11, 18: 4})
    assert mine_results("gulbara", HEAD15, HEAD15, 6, 6, head_rule=True) == fz({24: 13, 18: 2})
    assert mine_results("gulbara", HEAD15, AFTER_55, 2, 2, head_rule=True,
                        first_turn_head_exception="blocked") == fz(
        {24: 13, 18: 1, 22: 1}, {24: 13, 20: 2})


def test_gulbara_fence_default_none():
    assert FENCE_RESULT in mine_results("gulbara", FENCE_MINE, HEAD15, 6, 1)
    assert FENCE_RESULT not in mine_results("gulbara", FENCE_MINE, HEAD15, 6, 1,
                                            fence_rule="ahead")


def cs(mine, theirs, die, count=4, head_used=0, **rules):
    res = cascade_step("gulbara", side(mine), side(theirs), die, count, head_used, **rules)
    return {(frozenset(pts(m).items()), n, h) for m, t, n, h in res}


def test_cascade_step_no_head_rule():
    # 4s from the start: each checker 24-20-16 (16->12 blocked): four moves.
    assert cs(HEAD15, HEAD15, 4) == {
        (frozenset({24: 11, 20: 4}.items()), 4, 4),
        (frozenset({24: 12, 20: 2, 16: 1}.items()), 4, 3),
        (frozenset({24: 13, 16: 2}.items()), 4, 2),
    }
    # count limits the step; head_used is carried through.
    assert cs(HEAD15, HEAD15, 4, count=1, head_used=3) == {
        (frozenset({24: 14, 20: 1}.items()), 1, 4)}


def test_cascade_step_head_rule():
    mine = {24: 14, 13: 1}
    # head_used=1: no further head checker.  13-8-3, then no bearing off: 2 moves.
    assert cs(mine, HEAD15, 5, head_used=1, head_rule=True) == {
        (frozenset({24: 14, 3: 1}.items()), 2, 1)}
    # head_used=0: one head checker A (24-19-14-9-4), B at most 13-8-3.
    assert cs(mine, HEAD15, 5, head_rule=True) == {
        (frozenset({24: 13, 14: 1, 3: 1}.items()), 4, 1),
        (frozenset({24: 13, 9: 1, 8: 1}.items()), 4, 1),
        (frozenset({24: 13, 4: 1, 13: 1}.items()), 4, 1),
    }
    # First turn (all 15 on the head), 6s, listed: two checkers to 18.
    assert cs(HEAD15, HEAD15, 6, head_rule=True) == {
        (frozenset({24: 13, 18: 2}.items()), 2, 2)}
    # First turn, 5s (not listed): one checker, 24-19-14-9-4.
    assert cs(HEAD15, HEAD15, 5, head_rule=True) == {
        (frozenset({24: 14, 4: 1}.items()), 4, 1)}
    # The cascade's first step already took one head checker while all 15 were
    # on the head (14 + 1 = 15): the first-turn exception still counts, so a
    # second may leave with the 6s.
    assert cs({24: 14, 18: 1}, HEAD15, 6, head_used=1, head_rule=True) == {
        (frozenset({24: 13, 18: 2}.items()), 1, 2)}


def test_cascade_step_pass():
    mine, theirs = side({20: 1, 1: 14}), side({24: 14, 2: 1})  # its 2 = my 14
    assert cascade_step("gulbara", mine, theirs, 6, 4, 0) == {(mine, theirs, 0, 0)}
    assert cascade_step("gulbara", mine, theirs, 6, 4, 3) == {(mine, theirs, 0, 3)}
    # A partly playable step: 20-16-12 x (its head): one move of 4.
    theirs = side({24: 15})
    assert cascade_step("gulbara", mine, theirs, 4, 4, 0) == {
        (side({16: 1, 1: 14}), theirs, 1, 0)}


def test_cascade_fence_end_of_step():
    # Two checkers on 7: 7->6 keeps 7 held and makes the fence 6..11.
    mine = {24: 8, 13: 1, 11: 1, 10: 1, 9: 1, 8: 1, 7: 2}
    fence = (frozenset({24: 8, 13: 1, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1}.items()), 1, 0)
    assert fence in cs(mine, HEAD15, 1, count=1)
    assert fence not in cs(mine, HEAD15, 1, count=1, fence_rule="ahead")
    # Within a step the fence may form and open again: with two 1s,
    # 7->6 then 6->5 ends with 7 still held but 6 empty: legal.
    two = cs(mine, HEAD15, 1, count=2, fence_rule="ahead")
    assert (frozenset({24: 8, 13: 1, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 5: 1}.items()), 2, 0) in two


def test_cascade_only_for_gulbara():
    with pytest.raises(ValueError):
        cascade_step("nardy", side(HEAD15), side(HEAD15), 3)


# ---------------------------------------------------------------------------
# Backgammon
# ---------------------------------------------------------------------------

def test_backgammon_bar_entry_first_and_hit():
    # Two on the bar.  Its checkers: 2 on its 6 (my 19), 1 on its 5 (my 20).
    mine = {25: 2, 6: 5, 8: 3, 13: 5}
    theirs = {6: 2, 5: 1, 1: 12}
    res = legal_results("backgammon", side(mine), side(theirs), 6, 5)
    # The 6 cannot enter (my 19 closed); the 5 enters on my 20 hitting the blot;
    # the 6 is lost because the other checker is still on the bar.
    assert res == {(side({25: 1, 20: 1, 6: 5, 8: 3, 13: 5}),
                    side({6: 2, 25: 1, 1: 12}))}


def test_backgammon_dance():
    theirs = side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 20: 3})  # my 19..24 closed
    mine = side({25: 1, 6: 5, 8: 3, 13: 6})
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            assert legal_results("backgammon", mine, theirs, d1, d2) == {(mine, theirs)}


def test_backgammon_enter_then_move():
    mine = {25: 1, 6: 14}
    theirs = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 12: 5}  # my 20..24 closed, 19 open
    # 6-1: enter with 6 on 19, then the 1: 19->18 or 6->5.
    assert mine_results("backgammon", mine, theirs, 6, 1) == fz(
        {18: 1, 6: 14}, {19: 1, 6: 13, 5: 1})


def test_backgammon_opening_counts():
    m, t = R.start_position("backgammon")
    assert len(legal_results("backgammon", m, t, 3, 1)) == 16
    # 6-6 from the start: 24-18 x2 and 13-7 x2, etc.; all results keep 15 checkers.
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            for mm, tt in legal_results("backgammon", m, t, d1, d2):
                assert sum(mm) == 15 and sum(tt) == 15


def test_backgammon_matches_gnubg():
    gnubg = pytest.importorskip("gnubg_nn")
    rng = random.Random(20240601)
    for _ in range(40):
        m, t = R.random_position("backgammon", rng)
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                ref = legal_results("backgammon", m, t, d1, d2)
                keys = gnubg.moves([list(t), list(m)], d1, d2)
                got = {(tuple(b[1]), tuple(b[0]))
                       for b in (gnubg.board_from_position_key(k) for k in keys)}
                assert (got or {(m, t)}) == ref, (m, t, d1, d2)


# ---------------------------------------------------------------------------
# Options and arguments
# ---------------------------------------------------------------------------

def test_unknown_options_and_values_rejected():
    m, t = R.start_position("nardy")
    with pytest.raises(ValueError):
        legal_results("nardy", m, t, 3, 1, head_rule=True)  # not a nardy option
    with pytest.raises(ValueError):
        legal_results("nardy", m, t, 3, 1, fence_rules="none")
    with pytest.raises(ValueError):
        legal_results("nardy", m, t, 3, 1, fence_rule="always")
    with pytest.raises(ValueError):
        legal_results("gulbara", m, t, 3, 1, exact_bearoff="yes")
    with pytest.raises(ValueError):
        legal_results("gulbara", m, t, 3, 1, first_turn_head_exception="never")
    bm, bt = R.start_position("backgammon")
    with pytest.raises(ValueError):
        legal_results("backgammon", bm, bt, 3, 1, fence_rule="none")
    with pytest.raises(ValueError):
        legal_results("chess", m, t, 3, 1)
    with pytest.raises(ValueError):
        legal_results("nardy", m, t, 0, 1)
    with pytest.raises(ValueError):
        legal_results("nardy", m, side({24: 16}), 3, 1)


# ---------------------------------------------------------------------------
# Properties over random positions
# ---------------------------------------------------------------------------

def pips(s):
    return sum((i + 1) * n for i, n in enumerate(s[:24])) + 25 * s[24]


@pytest.mark.parametrize("variant,rules", [
    ("nardy", {}),
    ("nardy", {"fence_rule": "home", "first_turn_head_exception": "blocked"}),
    ("gulbara", {}),
    ("gulbara", {"head_rule": True, "fence_rule": "ahead", "exact_bearoff": True}),
])
def test_random_position_properties(variant, rules):
    rng = random.Random(f"{variant}{sorted(rules.items())}")
    bear_off_seen = 0
    for _ in range(25):
        m, t = R.random_position(variant, rng, **rules)
        assert len(m) == len(t) == 25
        assert 0 < sum(m) <= 15 and 0 < sum(t) <= 15
        assert m[24] == t[24] == 0
        bear_off_seen += sum(m[6:]) == 0
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                res = legal_results(variant, m, t, d1, d2, **rules)
                assert res
                drops = set()
                for mm, tt in res:
                    assert tt == t  # no hitting
                    assert fence_is_legal(variant, mm, tt, rules.get(
                        "fence_rule", "ahead" if variant == "nardy" else "none")) or (mm, tt) == (m, t)
                    head_rule = variant == "nardy" or rules.get("head_rule")
                    if head_rule and m[23] < 15:
                        assert m[23] - mm[23] <= 1
                    if sum(mm) == sum(m):  # nothing borne off: pips fall by the dice used
                        drops.add(pips(m) - pips(mm))
                if d1 != d2:
                    assert drops <= {0, d1, d2, d1 + d2}
                    assert len(drops) <= 1  # same dice used in every result
                else:
                    assert all(x % d1 == 0 for x in drops) and len(drops) <= 1


def test_random_position_reaches_bear_off_and_is_reproducible():
    a = [R.random_position("nardy", random.Random(7)) for _ in range(2)]
    assert a[0] == a[1]
    rng = random.Random(11)
    positions = [R.random_position("nardy", rng) for _ in range(40)]
    assert any(sum(m[6:]) == 0 for m, _ in positions)
    assert all(sum(m) > 0 and sum(t) > 0 for m, t in positions)
