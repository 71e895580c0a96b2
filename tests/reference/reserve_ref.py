"""Plain, slow reference for the games that start with every checker in reserve.

Written straight from ``shared/RULES.md`` section 5 (Dutch backgammon, 5.1, and
acey-deucey, 5.2) as an oracle for the fast generator, independently of it.
Like :mod:`rules_ref`, every turn is found by trying every ordered sequence of
single-checker moves, and the per-turn rules (maximal usage, larger die) are
applied to the finished candidates.

Conventions
-----------
* Both games play on the short-backgammon board: the opponent's point ``k`` is
  my point ``25 - k``; a point with two or more opposing checkers is closed;
  landing on a lone one hits it to its owner's bar.
* A position is ``(mine, theirs, reserve)``: ``mine`` and ``theirs`` are 25
  ints in their owner's numbering (index 24 the bar, hit checkers only), and
  ``reserve`` is ``(my_reserve, their_reserve)``, the checkers not yet on the
  board.  Borne off = ``15 - sum(side) - reserve``.
* A checker enters from the bar or from reserve with die ``d`` onto the
  player's point ``25 - d``.  In the move lists the bar is point 25 and the
  reserve point 26.

Readings where RULES.md leaves room (also in the README's rule section):
* Dutch, ``enter_all_first=True``: hit checkers on the bar still enter before
  anything else, then the reserve, then board checkers may move.
* Dutch, no early hitting: "before that move" means the position just before
  the single move, so a checker entered or moved home earlier in the same turn
  already allows a later hit in that turn.
* Acey-deucey's 1-2 roll: the distinct results are distinct
  ``(position, named, rolls_again)``; the name is part of the play even when
  two names reach the same position.

Public API: :func:`legal_results`, :func:`acey_deucey_one_two`,
:func:`start_position`, :func:`result_kind`, :func:`random_position`.
"""

from __future__ import annotations

import random as _random

from .rules_ref import _check_die  # the one die check of both references

VARIANTS = ("dutch", "acey_deucey")
BAR = 25
RESERVE = 26
CHECKERS = 15

_DEFAULTS = {"dutch": {"enter_all_first": True}, "acey_deucey": {}}


def normalize_rules(variant, **rules):
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; expected one of {VARIANTS}")
    opts = dict(_DEFAULTS[variant])
    for name, value in rules.items():
        if name not in opts:
            raise ValueError(f"unknown rule option {name!r} for {variant}; known: {sorted(opts)}")
        if not isinstance(value, bool):
            raise ValueError(f"option {name!r} must be a bool, got {value!r}")
        opts[name] = value
    opts["_variant"] = variant
    return opts


def _check(mine, theirs, reserve):
    mine, theirs, reserve = tuple(mine), tuple(theirs), tuple(reserve)
    if len(mine) != 25 or len(theirs) != 25 or len(reserve) != 2:
        raise ValueError("a side has 25 entries and the reserve two")
    for side, r, who in ((mine, reserve[0], "mine"), (theirs, reserve[1], "theirs")):
        if any((not isinstance(v, int)) or v < 0 for v in side + (r,)):
            raise ValueError(f"{who}: counts must be non-negative ints")
        if sum(side) + r > CHECKERS:
            raise ValueError(f"{who} has more than 15 checkers")
    for p in range(1, 25):
        if mine[p - 1] and theirs[25 - p - 1]:
            raise ValueError(f"my point {p} is held by both players")
    return mine, theirs, reserve


# ---------------------------------------------------------------------------
# Single moves.  A state is (mine, theirs, my_reserve); the opponent's reserve
# never changes during my turn.
# ---------------------------------------------------------------------------


def _opposing(theirs, my_point):
    return theirs[25 - my_point - 1]


def _landing_allowed(state, to, opts):
    """Whether a single move may land on my point ``to`` (1..24) in ``state``."""
    mine, theirs, _ = state
    n = _opposing(theirs, to)
    if n >= 2:
        return False
    if n == 1 and opts["_variant"] == "dutch":
        # No early hitting: a lone opposing checker may be hit only once the
        # mover has a checker on its home points 1..6, judged before this move.
        return any(mine[p - 1] for p in range(1, 7))
    return True


def _land(state, from_point, to):
    """Move one checker (from a point, 25 the bar or 26 the reserve) to ``to`` (0 = off)."""
    mine, theirs, reserve = list(state[0]), list(state[1]), state[2]
    if from_point == RESERVE:
        reserve -= 1
    else:
        mine[from_point - 1] -= 1
    if to >= 1:
        mine[to - 1] += 1
        ti = 25 - to - 1
        if theirs[ti] == 1:
            theirs[ti] = 0
            theirs[24] += 1  # a hit checker goes to its owner's bar, not the reserve
    return tuple(mine), tuple(theirs), reserve


def _single_moves(state, d, opts):
    """Every legal single move by die ``d``: a list of ``(from_point, new_state)``."""
    mine, theirs, reserve = state
    entry = 25 - d
    if mine[24] > 0:  # hit checkers enter before anything else (both games)
        return [(BAR, _land(state, BAR, entry))] if _landing_allowed(state, entry, opts) else []
    out = []
    if reserve > 0 and _landing_allowed(state, entry, opts):
        out.append((RESERVE, _land(state, RESERVE, entry)))
    if reserve > 0 and opts.get("enter_all_first", False):
        return out  # Dutch default: nothing on the board moves while any checker is in reserve
    # Bearing off needs all 15 home or off: reserve counts as on the bar.
    may_bear_off = reserve == 0 and sum(mine[6:25]) == 0
    highest = max((p for p in range(1, 25) if mine[p - 1]), default=0)
    for p in range(1, 25):
        if not mine[p - 1]:
            continue
        to = p - d
        if to >= 1:
            if _landing_allowed(state, to, opts):
                out.append((p, _land(state, p, to)))
        elif may_bear_off and (to == 0 or p == highest):
            out.append((p, _land(state, p, 0)))
    return out


def _candidates(state, orders, opts):
    """Every prefix of every ordered move sequence: a set of ``(state, dice_used)``."""
    found = set()

    def rec(s, remaining, used):
        found.add((s, used))
        if not remaining:
            return
        for _, s2 in _single_moves(s, remaining[0], opts):
            rec(s2, remaining[1:], used + (remaining[0],))

    for order in orders:
        rec(state, tuple(order), ())
    return found


def _borne_off(state):
    return CHECKERS - sum(state[0]) - state[2]


def _play_roll(state, d1, d2, opts):
    """The distinct states after a full legal turn of ``d1``-``d2`` (maximal usage)."""
    orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    cands = _candidates(state, orders, opts)
    most = max(len(u) for _, u in cands)
    chosen = [(s, u) for s, u in cands if len(u) == most]
    if most == 1 and d1 != d2 and any(u == (max(d1, d2),) for _, u in chosen):
        chosen = [(s, u) for s, u in chosen if u == (max(d1, d2),)]
    return {s for s, _ in chosen}


def _as_result(state, their_reserve):
    mine, theirs, my_reserve = state
    return mine, theirs, (my_reserve, their_reserve)


def legal_results(variant, mine, theirs, reserve, d1, d2, **rules):
    """Distinct ``(mine, theirs, reserve)`` after a full legal turn, still seen from the mover.

    In acey-deucey a roll of 1 and 2 goes through :func:`acey_deucey_one_two`.
    """
    opts = normalize_rules(variant, **rules)
    mine, theirs, reserve = _check(mine, theirs, reserve)
    d1, d2 = _check_die(d1), _check_die(d2)
    if variant == "acey_deucey" and {d1, d2} == {1, 2}:
        raise ValueError("acey-deucey's 1-2 roll is played by acey_deucey_one_two")
    return {_as_result(s, reserve[1]) for s in _play_roll((mine, theirs, reserve[0]), d1, d2, opts)}


def acey_deucey_one_two(mine, theirs, reserve):
    """Distinct results ``(mine, theirs, reserve, named, rolls_again)`` of a 1-2 roll.

    The 1 and the 2 (maximal usage within that part); then, if both were played
    and the game is not won, each named number ``n`` of 1..6 with four moves of
    ``n`` (maximal usage within that part). ``named`` is None when the turn
    ended before naming; ``rolls_again`` is True when the four moves were all
    played and the game is not over.
    """
    opts = normalize_rules("acey_deucey")
    mine, theirs, reserve = _check(mine, theirs, reserve)
    start = (mine, theirs, reserve[0])
    out = set()
    first = _candidates(start, [(1, 2), (2, 1)], opts)
    most = max(len(u) for _, u in first)
    for s, used in first:
        won = _borne_off(s) == CHECKERS
        if won or len(used) < 2:
            # Fewer than both: the part's maximal usage (and the larger die, 2) decides.
            if not won and (len(used) != most or (most == 1 and used != (2,) and any(u == (2,) for _, u in first))):
                continue
            out.add(_as_result(s, reserve[1]) + (None, False))
            continue
        for n in range(1, 7):
            part = _candidates(s, [(n,) * 4], opts)
            best = max(len(u) for _, u in part)
            for s2, u2 in part:
                if _borne_off(s2) == CHECKERS:
                    out.add(_as_result(s2, reserve[1]) + (n, False))
                elif len(u2) == best:
                    out.add(_as_result(s2, reserve[1]) + (n, best == 4))
    return out


# ---------------------------------------------------------------------------
# Positions and results
# ---------------------------------------------------------------------------


def start_position(variant):
    """``(mine, theirs, reserve)``: every checker of both players in reserve."""
    normalize_rules(variant)
    return (0,) * 25, (0,) * 25, (CHECKERS, CHECKERS)


def result_kind(loser, loser_reserve):
    """1 single, 2 gammon, 3 backgammon for a loser's side (25 ints, own numbering).

    The reserve counts as on the bar: a loser with checkers in reserve has
    borne off none and loses a backgammon.
    """
    if CHECKERS - sum(loser) - loser_reserve > 0:
        return 1
    if loser[24] > 0 or loser_reserve > 0 or any(loser[p - 1] for p in range(19, 25)):
        return 3
    return 2


def random_position(variant, rng=None, max_turns=120, **rules):
    """A random position reached by random legal turns from the start, still in play.

    Acey-deucey's 1-2 rolls are played as their whole sequence (without the
    extra roll).
    """
    opts = normalize_rules(variant, **rules)
    rng = rng or _random.Random()
    mine, theirs, reserve = start_position(variant)
    for _ in range(rng.randint(0, max_turns)):
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        if variant == "acey_deucey" and {d1, d2} == {1, 2}:
            options = sorted((m, t, r) for m, t, r, _, _ in acey_deucey_one_two(mine, theirs, reserve))
        else:
            options = sorted(legal_results(variant, mine, theirs, reserve, d1, d2, **{k: v for k, v in opts.items() if not k.startswith("_")}))
        m, t, r = rng.choice(options)
        if CHECKERS - sum(m) - r[0] == CHECKERS:
            break
        mine, theirs, reserve = t, m, (r[1], r[0])
    return mine, theirs, reserve
