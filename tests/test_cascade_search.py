"""Gul bara cascades searched as whole turns (RULES.md section 4).

A double after the game's first `cascade_after_rolls` rolls is one decision of
the mover: every distinct result of its part of the cascade, then the opponent's
best play of what is handed over. The engine's 0-ply hint must list exactly the
distinct outcomes that the plain reference generator (tests/reference/), composed
step by step here, finds.
"""

import random

import pytest

import tavla
from tests.reference import rules_ref

GB = "gulbara"


# The plain reference composes a cascade from 4 in tens of seconds where it has
# a hundred thousand outcomes (some random positions under the fence rules do):
# such a position is passed over for the next one, so that the suite stays quick.
OUTCOME_LIMIT = 12_000


def reference_parts(mine, theirs, d, limit=None, **rules):
    """Distinct (mine, theirs, handover) outcomes of the mover's part, by composing
    the reference generator's cascade steps; None once a step's states pass `limit`."""
    frontier = {(tuple(mine), tuple(theirs), 0)}
    out = set()
    for number in range(d, 7):
        nxt = set()
        for m, t, head_used in frontier:
            if limit is not None and len(nxt) + len(out) > limit:
                return None
            for m2, t2, played, hu in rules_ref.cascade_step(GB, list(m), list(t), number, 4, head_used, **rules):
                if sum(m2) == 0:
                    out.add((tuple(m2), tuple(t2), ()))
                elif played < 4:
                    handover = ((number, 4 - played),) + tuple((n, 4) for n in range(number + 1, 7))
                    out.add((tuple(m2), tuple(t2), handover))
                elif number == 6:
                    out.add((tuple(m2), tuple(t2), ()))
                else:
                    nxt.add((tuple(m2), tuple(t2), hu))
        frontier = nxt
    return out


def engine_parts(engine, pos, d):
    cands = engine.hint(pos, d, d, top=10**6)
    return [
        (tuple(c.move.position.to_arrays()[0]), tuple(c.move.position.to_arrays()[1]), tuple(c.move.handover))
        for c in cands
    ]


RULE_SETS = [
    {},
    {"head_rule": True},
    {"head_rule": True, "first_turn_head_exception": "blocked"},
    {"fence_rule": "ahead"},
    {"fence_rule": "home"},
    {"exact_bearoff": True},
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "default")
def test_whole_cascade_hints_match_the_reference(rules):
    rng = random.Random(20261201)
    # A width past any state count here: the hint lists every outcome.
    engine = tavla.Engine(GB, ply=0, threads=1, cascade_width=10**6, **rules)
    checked, largest = 0, 0
    for _ in range(40):
        mine, theirs = rules_ref.random_position(GB, rng, max_turns=120, **rules)
        pos = tavla.Position.from_arrays(GB, mine, theirs, **rules)
        expected = [reference_parts(mine, theirs, d, limit=OUTCOME_LIMIT, **rules) for d in (4, 5, 6)]
        if any(e is None for e in expected):
            continue
        for d, want in zip((4, 5, 6), expected):
            got = engine_parts(engine, pos, d)
            assert len(got) == len(set(got)), "each outcome once"
            assert set(got) == want, (mine, theirs, d)
            checked, largest = checked + 1, max(largest, len(want))
        if checked == 36:
            break
    assert checked == 36
    assert largest > 500, "some cascade with many outcomes is among those checked"


def test_a_cascade_hint_is_a_whole_turn():
    pos = tavla.Position.from_arrays(
        GB, [0] * 5 + [3, 2, 2] + [0] * 4 + [2, 2, 2, 2] + [0] * 9, [0] * 11 + [3, 3, 3, 3, 3] + [0] * 9
    )
    engine = tavla.Engine(GB, ply=0)
    cascade = engine.hint(pos, 4, 4, top=3)
    assert cascade[0].move.cascade_steps and cascade[0].move.cascade_steps[0][0] == 4
    numbers = [n for n, _ in cascade[0].move.cascade_steps]
    assert numbers == list(range(4, 4 + len(numbers)))
    # The steps replay to the candidate's position.
    here = pos
    for _, step in cascade[0].move.cascade_steps:
        here = step.position
    assert here == cascade[0].move.position
    assert cascade[0].move.moves_played == sum(s.moves_played for _, s in cascade[0].move.cascade_steps)
    # The game's third roll: an ordinary double.
    ordinary = engine.hint(pos, 4, 4, top=3, rolls=2)
    assert not ordinary[0].move.cascade_steps and ordinary[0].move.handover == []
    assert ordinary[0].move.moves_played <= 4
    # Backgammon and nardy doubles never cascade.
    assert not tavla.Engine("nardy", ply=0).hint(tavla.Position.start("nardy"), 4, 4)[0].move.cascade_steps


def test_a_handover_is_valued_by_the_opponents_best_share():
    """Find a part that hands moves over; its 0-ply value must be the opponent's
    best share, judged where the opponent rolls next."""
    rng = random.Random(7)
    engine = tavla.Engine(GB, ply=0, threads=1)
    for _ in range(40):
        mine, theirs = rules_ref.random_position(GB, rng, max_turns=60)
        pos = tavla.Position.from_arrays(GB, mine, theirs)
        for d in (5, 6):
            for c in engine.hint(pos, d, d, top=40):
                if not c.move.handover:
                    continue
                share = engine.handover(c.move.position.flip(), c.move.handover)
                after = engine.evaluate(share.position)
                assert c.equity == pytest.approx(-after.equity, abs=1e-5)
                return
    pytest.fail("no cascade with a handover among the sampled positions")


def test_bad_rolls_and_handovers():
    engine = tavla.Engine(GB, ply=0)
    pos = tavla.Position.start(GB)
    for bad in (-1, True, "3", 1.5):
        with pytest.raises(ValueError, match="rolls"):
            engine.hint(pos, 4, 4, rolls=bad)
    for bad, words in (
        ([(7, 4)], "1 to 6"),
        ([(5, 0)], "1 to 4"),
        ([(5, 2), (5, 4), (6, 4)], "consecutive"),
        ([(5, 2), (6, 3)], "fewer than 4"),
        ([(4, 2), (5, 4)], "sixes"),
    ):
        with pytest.raises(ValueError, match=words):
            engine.handover(pos, bad)
    with pytest.raises(ValueError, match="gul bara"):
        tavla.Engine("nardy").handover(tavla.Position.start("nardy"), [(6, 2)])
    # A 1-1 cascade stopped in its ones hands over the rest of them and all of 2 to 6.
    whole = [(1, 1), (2, 4), (3, 4), (4, 4), (5, 4), (6, 4)]
    assert engine.handover(pos, whole).cascade_steps[0][0] == 1
    with pytest.raises(ValueError, match="1 to 6"):
        engine.handover(pos, whole + [(7, 4)])
