"""Bad input gets a ValueError that names the problem; nothing crashes."""

from __future__ import annotations

import numpy as np
import pytest

import tavla

START = [0] * 5 + [5, 0, 3, 0, 0, 0, 0, 5] + [0] * 10 + [2, 0]
EMPTY = [0] * 25


def arrays_with(**points):
    a = [0] * 25
    for k, v in points.items():
        a[int(k[1:])] = v
    return a


@pytest.mark.parametrize(
    "variant,mine,theirs,fragment",
    [
        ("backgammon", START[:24], START, "25 entries"),
        ("backgammon", START + [0], START, "25 entries"),
        ("backgammon", arrays_with(p3=-1), START, "negative"),
        ("backgammon", arrays_with(p3=16), START, "only 15"),
        ("backgammon", arrays_with(p3=10, p4=6), START, "16 checkers"),
        ("backgammon", START, arrays_with(p0=9, p1=9), "18 checkers"),
        ("nardy", arrays_with(p24=1), EMPTY, "no bar"),
        ("gulbara", EMPTY, arrays_with(p24=2), "no bar"),
        ("backgammon", arrays_with(p0=1), arrays_with(p23=1), "both players"),
        ("nardy", arrays_with(p0=1), arrays_with(p12=1), "both players"),
        ("backgammon", ["a"] * 25, START, "whole number"),
        ("backgammon", [1.5] * 25, START, "whole number"),
        ("backgammon", "0" * 25, START, "not a string"),
        ("backgammon", None, START, "sequence"),
        ("chess", START, START, "unknown variant"),
    ],
)
def test_bad_arrays(variant, mine, theirs, fragment):
    with pytest.raises(ValueError, match=fragment):
        tavla.Position.from_arrays(variant, mine, theirs)


@pytest.mark.parametrize(
    "variant,rules,fragment",
    [
        ("backgammon", {"head_rule": True}, "unknown rule option"),
        ("nardy", {"fence": "ahead"}, "unknown rule option"),
        ("nardy", {"fence_rule": "wall"}, "fence_rule"),
        ("nardy", {"first_turn_head_exception": "sometimes"}, "first_turn_head_exception"),
        ("gulbara", {"head_rule": "maybe"}, "true or false"),
        ("gulbara", {"cascade_after_rolls": -1}, "cascade_after_rolls"),
        ("gulbara", {"exact_bearoff": 1.5}, "exact_bearoff"),
    ],
)
def test_bad_rule_options(variant, rules, fragment):
    with pytest.raises(ValueError, match=fragment):
        tavla.Position.start(variant, **rules)


@pytest.mark.parametrize("dice", [(0, 3), (3, 7), (-1, 2), (2**70, 1), ("3", 1), (1.0, 2), (None, 1), (True, 2)])
def test_bad_dice(dice):
    pos = tavla.Position.start("backgammon")
    with pytest.raises(ValueError):
        pos.legal_moves(*dice)
    with pytest.raises(ValueError):
        pos.legal_positions(*dice)


def test_bad_cascade_steps():
    g = tavla.Position.start("gulbara")
    with pytest.raises(ValueError, match="1 to 4 moves"):
        g.legal_cascade_step(3, count=5)
    with pytest.raises(ValueError, match="head_used"):
        g.legal_cascade_step(3, head_used=-1)
    with pytest.raises(ValueError, match="die 9"):
        g.legal_cascade_step(9)
    with pytest.raises(ValueError, match="gul bara"):
        tavla.Position.start("nardy").legal_cascade_step(3)


def test_bad_batches():
    start = np.array([tavla.Position.start().to_arrays()] * 3)
    good_dice = np.array([[3, 1], [6, 6], [2, 1]])
    with pytest.raises(ValueError, match=r"shape \(n, 2, 25\)"):
        tavla.legal_positions_many("backgammon", start[:, :, :24], good_dice)
    with pytest.raises(ValueError, match=r"dice must have shape"):
        tavla.legal_positions_many("backgammon", start, good_dice[:2])
    with pytest.raises(ValueError, match="dice of position 1"):
        tavla.legal_positions_many("backgammon", start, np.array([[3, 1], [7, 1], [2, 1]]))
    bad = start.copy()
    bad[2, 0, 3] = 9
    with pytest.raises(ValueError, match="position 2"):
        tavla.legal_positions_many("backgammon", bad, good_dice)
    with pytest.raises(ValueError, match="whole numbers"):
        tavla.legal_positions_many("backgammon", start.astype(float), good_dice)
    with pytest.raises(ValueError, match="outside"):
        tavla.legal_positions_many("backgammon", start * 100, good_dice)


def test_cli_reports_errors_without_traceback(capsys):
    from tavla.cli import main

    assert main(["moves", "--dice", "3", "9"]) == 2
    err = capsys.readouterr().err
    assert "die 9" in err and "Traceback" not in err
    assert main(["moves", "--dice", "3", "1", "--mine", "1,2,3", "--theirs", "0"]) == 2
    assert "25 entries" in capsys.readouterr().err



def test_cli_bearoff_home_counts_are_six(capsys):
    # --home takes the 6 counts of a home board; its message asked for 25, as --mine's does.
    from tavla.cli import main

    assert main(["bearoff", "--home", "a,b,c,d,e,f"]) == 2
    assert capsys.readouterr().err == "tavla: error: --home must be 6 whole numbers separated by commas or spaces: 'a,b,c,d,e,f'\n"

def test_a_huge_rule_option_value_is_a_value_error() -> None:
    # Found by the service's schema fuzzing: an int too big for 64 bits used
    # to escape as OverflowError (a 500 from the service).
    with pytest.raises(ValueError, match="out of range"):
        tavla.Position.start("backgammon", koks=10**30)
    with pytest.raises(ValueError, match="out of range"):
        tavla.Position.start("backgammon", **{"nonsense": -(10**30)})
