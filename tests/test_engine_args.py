"""Engine arguments: every out-of-range or wrong-type number is a ValueError
naming the argument (never OverflowError), and messages carry no type names."""

import pytest

import tavla

START = tavla.Position.start("backgammon")


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: tavla.Engine(ply=10**20), "ply"),
        (lambda: tavla.Engine(ply=5), "ply"),
        (lambda: tavla.Engine(ply=True), "ply"),
        (lambda: tavla.Engine(ply=0).hint(START, 3, 1, top=-1), "top"),
        (lambda: tavla.Engine(ply=0).hint(START, 3, 1, top=0), "top"),
        (lambda: tavla.Engine(ply=0).hint(START, 10**30, 1), "d1"),
        (lambda: tavla.Engine(ply=0).best_move(START, 3, -(10**30)), "d2"),
        (lambda: tavla.Engine(ply=0).match_equity(10**30, 3), "away"),
        (lambda: tavla.Engine(ply=0, cascade_width="wide"), "cascade_width"),
        (lambda: tavla.Engine(ply=0, cascade_width=0), "cascade_width must be a whole number >= 1, not 0"),
        (lambda: tavla.Engine(ply=0, cascade_width=-1), "cascade_width must be a whole number >= 1"),
    ],
)
def test_bad_numbers_are_value_errors_naming_the_argument(call, words):
    with pytest.raises(ValueError, match=words):
        call()


def test_rule_errors_read_cleanly():
    with pytest.raises(ValueError) as info:
        tavla.Engine("nardy", koks="yes")
    message = str(info.value)
    assert "ValueError" not in message and "'yes'" in message and "engine options" in message


def test_defaults_still_hold():
    engine = tavla.Engine()
    assert engine.ply == 1
    assert len(tavla.Engine(ply=0).hint(START, 3, 1)) == 5
