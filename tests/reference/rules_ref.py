"""Plain, slow reference implementation of legal move generation.

Written straight from ``shared/RULES.md`` as an oracle for differential tests of
the fast generator.  Nothing here is clever: every turn is found by trying every
ordered sequence of single-checker moves, and the per-turn rules (head limit,
six-fence, maximal usage, larger die) are applied to the finished candidates.

Conventions (the project's public ones)
---------------------------------------
* A position is seen from the player on roll, the *mover*: ``mine`` and
  ``theirs`` are 25 ints, each in that player's OWN numbering.  Index ``i``
  (0..23) is its point ``i + 1``; index 24 is its bar (always 0 in nardy and
  gul bara).  Checkers borne off = ``15 - sum``.
* Every player numbers the points by the distance still to go: a checker on
  point ``p`` moved by die ``d`` goes to ``p - d``; ``<= 0`` is bearing off.
* Backgammon: the opponent's point ``k`` is my point ``25 - k``.
  Nardy / gul bara: the opponent's point ``k`` is my point ``k + 12`` for
  ``k <= 12`` and ``k - 12`` for ``k > 12``.

Public API: :func:`legal_results`, :func:`cascade_step`,
:func:`start_position`, :func:`random_position`.
"""

from __future__ import annotations

import random as _random

__all__ = [
    "VARIANTS",
    "legal_results",
    "cascade_step",
    "start_position",
    "random_position",
    "fence_is_legal",
    "normalize_rules",
]

VARIANTS = ("backgammon", "nardy", "gulbara")

HEAD = 24  # the head is each player's own point 24 (nardy, gul bara)
BAR = 25  # the bar as a point number (backgammon); stored at index 24

_DEFAULTS = {
    "backgammon": {},
    "nardy": {"first_turn_head_exception": "listed", "fence_rule": "ahead"},
    "gulbara": {
        "head_rule": False,
        "fence_rule": "none",
        "exact_bearoff": False,
        "first_turn_head_exception": "listed",
    },
}

_CHOICES = {
    "first_turn_head_exception": ("listed", "blocked", "head_blocked"),
    "fence_rule": ("ahead", "home", "none"),
    "head_rule": (False, True),
    "exact_bearoff": (False, True),
}


# ---------------------------------------------------------------------------
# Argument checking
# ---------------------------------------------------------------------------


def _check_variant(variant):
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; expected one of {VARIANTS}")


def normalize_rules(variant, **rules):
    """The full option dict for ``variant``: defaults overridden by ``rules``.

    Unknown option names, and values outside an option's choices, raise ValueError.
    """
    _check_variant(variant)
    opts = dict(_DEFAULTS[variant])
    for name, value in rules.items():
        if name not in opts:
            raise ValueError(
                f"unknown rule option {name!r} for {variant}; known: {sorted(opts)}"
            )
        choices = _CHOICES[name]
        if isinstance(choices[0], bool):
            if not isinstance(value, bool):
                raise ValueError(f"option {name!r} must be a bool, got {value!r}")
        elif value not in choices:
            raise ValueError(f"option {name!r} must be one of {choices}, got {value!r}")
        opts[name] = value
    # Facts that do not depend on options, kept here for convenience.
    opts["_variant"] = variant
    opts["_head_rule"] = variant == "nardy" or (variant == "gulbara" and opts["head_rule"])
    return opts


def _check_side(side, variant, who):
    side = tuple(side)
    if len(side) != 25:
        raise ValueError(f"{who} must have 25 entries, got {len(side)}")
    for v in side:
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise ValueError(f"{who} entries must be non-negative ints: {side}")
    if sum(side) > 15:
        raise ValueError(f"{who} has more than 15 checkers: {side}")
    if variant != "backgammon" and side[24] != 0:
        raise ValueError(f"{who} has checkers on the bar in {variant}")
    return side


def _check_position(variant, mine, theirs):
    mine = _check_side(mine, variant, "mine")
    theirs = _check_side(theirs, variant, "theirs")
    for p in range(1, 25):
        if mine[p - 1] > 0 and theirs[_their_index(variant, p)] > 0:
            raise ValueError(f"my point {p} is held by both players")
    return mine, theirs


def _check_die(d):
    if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
        raise ValueError(f"a die must be an int 1..6, got {d!r}")
    return d


# ---------------------------------------------------------------------------
# Board geometry
# ---------------------------------------------------------------------------


def _their_index(variant, my_point):
    """Index into ``theirs`` of the opponent's point that is my point ``my_point`` (1..24)."""
    if variant == "backgammon":
        their_point = 25 - my_point
    else:
        their_point = my_point - 12 if my_point > 12 else my_point + 12
    return their_point - 1


def _my_point_of_their_point(variant, their_point):
    """My point number for the opponent's point ``their_point`` (1..24)."""
    if variant == "backgammon":
        return 25 - their_point
    return their_point + 12 if their_point <= 12 else their_point - 12


def _is_open(variant, theirs, my_point):
    n = theirs[_their_index(variant, my_point)]
    if variant == "backgammon":
        return n < 2
    return n == 0


def _all_home(mine):
    """All 15 checkers in home (points 1..6) or borne off: nothing on 7..24 or the bar."""
    return sum(mine[6:25]) == 0


def _highest_occupied(mine):
    for p in range(24, 0, -1):
        if mine[p - 1] > 0:
            return p
    return 0


# ---------------------------------------------------------------------------
# Single moves
# ---------------------------------------------------------------------------


def _single_moves(mine, theirs, d, opts):
    """Every legal move of one checker by die ``d``.

    Returns a list of ``(from_point, new_mine, new_theirs)``; ``from_point`` is
    25 for a checker entering from the bar.  Checkers on one point are alike, so
    there is one move per occupied point.
    """
    variant = opts["_variant"]
    out = []

    # Backgammon: while anything is on the bar, the only move is to enter.
    if variant == "backgammon" and mine[24] > 0:
        target = 25 - d
        if _is_open(variant, theirs, target):
            out.append((BAR,) + _apply(variant, mine, theirs, BAR, target))
        return out

    may_bear_off = _all_home(mine)
    exact = opts.get("exact_bearoff", False)
    highest = _highest_occupied(mine)
    for p in range(1, 25):
        if mine[p - 1] == 0:
            continue
        target = p - d
        if target >= 1:
            if _is_open(variant, theirs, target):
                out.append((p,) + _apply(variant, mine, theirs, p, target))
        else:
            if not may_bear_off:
                continue
            if target == 0:
                ok = True  # the die bears off from its own point
            elif exact:
                ok = False  # exact_bearoff: only the exact number bears off
            else:
                # die larger than the point: only from the highest occupied point
                ok = p == highest
            if ok:
                out.append((p,) + _apply(variant, mine, theirs, p, 0))
    return out


def _apply(variant, mine, theirs, from_point, to_point):
    """Move one checker from ``from_point`` (25 = bar) to ``to_point`` (0 = off)."""
    m = list(mine)
    t = list(theirs)
    m[from_point - 1] -= 1
    if to_point >= 1:
        m[to_point - 1] += 1
        if variant == "backgammon":
            ti = _their_index(variant, to_point)
            if t[ti] == 1:  # a blot: hit it to its owner's bar
                t[ti] = 0
                t[24] += 1
    return tuple(m), tuple(t)


# ---------------------------------------------------------------------------
# Six-fence rule
# ---------------------------------------------------------------------------


def fence_is_legal(variant, mine, theirs, fence_rule):
    """True when ``mine`` holds no forbidden six-point fence against ``theirs``.

    A fence is six consecutive points along the opponent's path, i.e. the
    opponent's points q..q+5 (all within 1..24), all held by the mover.
    """
    if variant == "backgammon" or fence_rule == "none":
        return True
    held = {}
    for k in range(1, 25):
        held[k] = mine[_my_point_of_their_point(variant, k) - 1] > 0
    they_bore_off = sum(theirs) < 15
    for q in range(1, 20):
        if not all(held[k] for k in range(q, q + 6)):
            continue
        if fence_rule == "ahead":
            allowed = they_bore_off or any(theirs[k - 1] > 0 for k in range(1, q))
        elif fence_rule == "home":
            allowed = they_bore_off or any(theirs[k - 1] > 0 for k in range(1, 7))
        else:
            raise ValueError(f"unknown fence rule {fence_rule!r}")
        if not allowed:
            return False
    return True


# ---------------------------------------------------------------------------
# Turn enumeration
# ---------------------------------------------------------------------------


def _enumerate(mine, theirs, orders, head_limit, opts):
    """Every candidate turn: every prefix of every ordered move sequence.

    ``orders`` is a list of die sequences to try (both orders for a non-double).
    ``head_limit`` is how many more checkers may leave the head (None: no limit).
    Returns a set of ``(mine, theirs, dice_used, head_moves)``, where
    ``dice_used`` is the tuple of dice played, in order, and ``head_moves`` the
    number of checkers that left the head (point 24) in nardy and gul bara.

    States already expanded are not expanded twice: what can follow depends
    only on the position, the dice still to play and the head moves made, so
    this prunes repeats without losing any sequence's outcome.
    """
    found = set()
    expanded = set()

    def rec(m, t, remaining, used, head_moves):
        found.add((m, t, used, head_moves))
        key = (m, t, remaining, head_moves)
        if key in expanded:
            return
        expanded.add(key)
        if not remaining:
            return
        d = remaining[0]
        for from_point, m2, t2 in _single_moves(m, t, d, opts):
            hm = head_moves
            if opts["_variant"] != "backgammon" and from_point == HEAD:
                hm += 1  # a checker leaves the head (counted even without the head rule)
                if head_limit is not None and hm > head_limit:
                    continue
            rec(m2, t2, remaining[1:], used + (d,), hm)

    for order in orders:
        rec(mine, theirs, tuple(order), (), 0)
    return found


def _legal_candidates(mine, theirs, orders, head_limit, opts):
    """Candidate turns that end legally (six-fence); the empty turn is always kept."""
    rule = opts.get("fence_rule", "none")
    out = set()
    for m, t, used, hm in _enumerate(mine, theirs, orders, head_limit, opts):
        if not used or fence_is_legal(opts["_variant"], m, t, rule):
            out.add((m, t, used, hm))
    return out


def _max_dice(cands):
    return max(len(c[2]) for c in cands)


def _head_limit(mine, theirs, dice_orders, full, die_for_listed, head_used, opts):
    """How many more checkers may leave the head this turn (None: unlimited).

    ``die_for_listed`` is the number of the double (None for a non-double),
    ``full`` the number of moves that is "the roll in full".
    """
    if not opts["_head_rule"]:
        return None
    first_turn = mine[HEAD - 1] + head_used == 15
    total = 1
    if first_turn:
        if opts["first_turn_head_exception"] == "listed":
            if die_for_listed in (3, 4, 6):
                total = 2
        elif opts["first_turn_head_exception"] == "head_blocked":
            # Only 6-6, 4-4, 3-3, and only when the opponent's head (my 12) is the
            # first closed point a lone head checker meets: 24-d, 24-2d, ...
            if die_for_listed in (3, 4, 6) and _first_closed(opts["_variant"], theirs, die_for_listed) == 12:
                total = 2
        else:  # 'blocked': try with one head checker; if that can't play in full, allow two
            one = max(0, 1 - head_used)
            cands = _legal_candidates(mine, theirs, dice_orders, one, opts)
            if _max_dice(cands) < full:
                total = 2
    return max(0, total - head_used)


def _first_closed(variant, theirs, d):
    """The first point on the path 24-d, 24-2d, ... that is not open (0: none)."""
    for p in range(HEAD - d, 0, -d):
        if not _is_open(variant, theirs, p):
            return p
    return 0


def legal_results(variant, mine, theirs, d1, d2, **rules):
    """Distinct positions ``(mine25, theirs25)`` after a full legal turn.

    Still seen from the mover (same numbering as the input).  If nothing can be
    played the only result is the unchanged position.  In gul bara a double is
    played as an ordinary double here; cascades go through :func:`cascade_step`.
    """
    opts = normalize_rules(variant, **rules)
    mine, theirs = _check_position(variant, mine, theirs)
    d1, d2 = _check_die(d1), _check_die(d2)

    if d1 == d2:
        orders = [(d1,) * 4]
        full = 4
        listed_die = d1
    else:
        orders = [(d1, d2), (d2, d1)]
        full = 2
        listed_die = None

    limit = _head_limit(mine, theirs, orders, full, listed_die, 0, opts)
    cands = _legal_candidates(mine, theirs, orders, limit, opts)
    most = _max_dice(cands)
    chosen = [c for c in cands if len(c[2]) == most]
    if most == 1 and d1 != d2:
        hi = max(d1, d2)
        if any(c[2] == (hi,) for c in chosen):
            chosen = [c for c in chosen if c[2] == (hi,)]
    return {(c[0], c[1]) for c in chosen}


def cascade_step(variant, mine, theirs, die, count=4, head_used=0, **rules):
    """Distinct results of one gul bara cascade step.

    Plays up to ``count`` moves of ``die`` with maximal usage within the step.
    ``head_used`` head checkers already left the head earlier in the same
    cascade.  Returns a set of ``(mine25, theirs25, moves_played, head_used_after)``;
    ``head_used_after`` is ``head_used`` plus the checkers that left the head in
    this step (counted whether or not the head rule is on).  If nothing can be
    played: ``{(mine, theirs, 0, head_used)}``.

    Head rule (``head_rule=True``): the whole cascade allows one head checker,
    less ``head_used``.  The first-turn exception applies when all 15 checkers
    were on the head when the cascade began (``mine[23] + head_used == 15``);
    the step is then judged as a roll of ``die``-``die``: ``listed`` allows two
    head checkers in all for a die of 6, 4 or 3; ``blocked`` allows two when one
    head checker (in all) cannot play this step's ``count`` moves.
    """
    opts = normalize_rules(variant, **rules)
    if variant != "gulbara":
        raise ValueError(f"cascades belong to gul bara, not {variant}")
    mine, theirs = _check_position(variant, mine, theirs)
    die = _check_die(die)
    if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 4:
        raise ValueError(f"count must be 0..4, got {count!r}")
    if not isinstance(head_used, int) or isinstance(head_used, bool) or head_used < 0:
        raise ValueError(f"head_used must be a non-negative int, got {head_used!r}")

    orders = [(die,) * count]
    limit = _head_limit(mine, theirs, orders, count, die, head_used, opts)
    cands = _legal_candidates(mine, theirs, orders, limit, opts)
    most = _max_dice(cands)
    return {
        (m, t, len(used), head_used + hm)
        for m, t, used, hm in cands
        if len(used) == most
    }


# ---------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------


def start_position(variant):
    """The start position ``(mine, theirs)`` as 25-tuples in each player's own numbering."""
    _check_variant(variant)
    side = [0] * 25
    if variant == "backgammon":
        side[24 - 1] = 2
        side[13 - 1] = 5
        side[8 - 1] = 3
        side[6 - 1] = 5
    else:
        side[HEAD - 1] = 15
    return tuple(side), tuple(side)


def _randint(rng, lo, hi):
    """Inclusive random int from a ``random.Random`` or a numpy Generator."""
    if hasattr(rng, "integers"):
        return int(rng.integers(lo, hi + 1))
    return rng.randint(lo, hi)


def _choice(rng, seq):
    return seq[_randint(rng, 0, len(seq) - 1)]


def random_position(variant, rng=None, max_turns=160, **rules):
    """A realistic random position ``(mine, theirs)``, the mover on roll.

    Plays a random number (0..``max_turns``) of random legal turns (one turn =
    one player's roll) from the start, with random dice, swapping sides after
    each turn, and stops early before a turn would end the game (so the
    returned position is always still in play: both sides have checkers on the
    board).  ``rng`` is a ``random.Random`` or a numpy Generator (default: a
    fresh ``random.Random``).  Turns are chosen uniformly among the distinct
    legal results.  A long nardy game takes roughly 100..140 such turns, so the
    default of up to 160 turns (80 per player) gives a good share of bear-off
    positions (about 40% with the mover all home); with ``max_turns=80`` only a
    few percent of nardy positions are in the bear-off.  In gul bara doubles
    are played as ordinary doubles (no cascades).
    """
    normalize_rules(variant, **rules)
    if rng is None:
        rng = _random.Random()
    mine, theirs = start_position(variant)
    turns = _randint(rng, 0, max_turns)
    for _ in range(turns):
        d1, d2 = _randint(rng, 1, 6), _randint(rng, 1, 6)
        results = sorted(legal_results(variant, mine, theirs, d1, d2, **rules))
        new_mine, new_theirs = _choice(rng, results)
        if sum(new_mine) == 0:  # this turn would win the game: stop before it
            break
        mine, theirs = new_theirs, new_mine  # the opponent is on roll next
    return mine, theirs
