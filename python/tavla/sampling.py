"""Random positions from random play, for tests, benchmarks and training data.

Positions come from games played with uniformly random legal plays from the
start, so they include hits, checkers on the bar, primes, races and bear-offs.
Everything is reproducible from the seed.
"""

from __future__ import annotations

import operator
import random
from typing import Any, Iterator

from ._core import LIMITS, Position


def random_game(variant: str, rng: random.Random, max_turns: int = 400, **rules: Any) -> Iterator[Position]:
    """The positions of one random game, each seen from the player on roll."""
    pos = Position.start(variant, **rules)
    for _ in range(max_turns):
        if pos.is_game_over():
            return
        yield pos
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        moves = pos.legal_moves(d1, d2)
        pos = rng.choice(moves).position.flip()


def random_positions(variant: str, count: int, seed: int = 0, **rules: Any) -> list[Position]:
    """`count` positions sampled from random games (a few from each game); `count` is 0 to
    ``LIMITS["positions"]`` (10,000,000), refused before any game is played otherwise."""
    most = int(LIMITS["positions"])
    try:
        if isinstance(count, bool):
            raise TypeError
        count = operator.index(count)
    except TypeError:
        raise ValueError(f"count must be a whole number from 0 to {most:,}, not {count!r}") from None
    if not 0 <= count <= most:
        raise ValueError(f"count must be 0 to {most:,}, not {count:,}")
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        game = list(random_game(variant, rng, **rules))
        # Several positions per game, spread over its whole length.
        for pos in rng.sample(game, min(len(game), 8)):
            out.append(pos)
            if len(out) == count:
                break
    return out


ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
"""The 21 distinct rolls."""
