"""tavla: an engine for the backgammon family (short backgammon, long nardy, gul bara; Dutch backgammon and acey-deucey).

The heavy lifting happens in the Rust extension ``tavla._core``; this package
adds the friendly pieces around it.

>>> import tavla
>>> pos = tavla.Position.start("backgammon")
>>> [str(m) for m in pos.legal_moves(3, 1)][:2]   # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._core import LIMITS, Move, Position, __version__, perft
from ._core import _legal_positions_many
from ._core import Game, Match, simulate_games
from ._core import Candidate, Cancelled, CancelToken, Engine, Evaluation
from ._core import CubeDecision, CubeState
from ._core import MAX_ROLLOUT_PLAYS, MAX_ROLLOUT_TRIALS, PlayRollout, RolloutResult
from . import formats, sampling
from .duel import DuelResult, duel

VARIANTS = ("backgammon", "nardy", "gulbara")
# The games with a reserve (docs/rules.md section 4b): positions, moves, games, matches, records, networks,
# `tavla play`, the service and the board.
RESERVE_VARIANTS = ("dutch", "acey_deucey")

# The most threads a call may ask for: far more than any machine's cores, and far fewer than would make
# the core fail to start them (a panic) or the system run out of them. The core's bound (src/limits.rs),
# as are the others in LIMITS.
MAX_THREADS = int(LIMITS["threads"])

__all__ = [
    "LIMITS", "MAX_THREADS", "Move", "Position", "RESERVE_VARIANTS", "VARIANTS", "legal_positions_many", "perft", "__version__",
    "Game", "Match", "simulate_games", "formats", "sampling",
    "Candidate", "Cancelled", "CancelToken", "DuelResult", "Engine", "Evaluation", "duel", "CubeState", "CubeDecision",
    "RolloutResult", "PlayRollout", "MAX_ROLLOUT_TRIALS", "MAX_ROLLOUT_PLAYS",
]


def legal_positions_many(
    variant: str, positions: Any, dice: Any, *, threads: int = 0, **rules: Any
) -> tuple[np.ndarray, np.ndarray]:
    """All resulting positions of many positions and rolls at once, on all cores.

    ``positions`` is an int array of shape (n, 2, 25) in the layout of
    ``Position.to_arrays`` (row 0 the player on roll, row 1 the opponent, each in
    its own numbering); ``dice`` has shape (n, 2). Returns ``(results, offsets)``:
    ``results`` has shape (N, 2, 25) and the results of position ``k`` are
    ``results[offsets[k]:offsets[k + 1]]``.
    """
    boards = np.asarray(positions)
    if boards.ndim != 3 or boards.shape[1:] != (2, 25):
        raise ValueError(f"positions must have shape (n, 2, 25), not {boards.shape}")
    if not np.issubdtype(boards.dtype, np.integer):
        raise ValueError(f"positions must hold whole numbers, not {boards.dtype}")
    if boards.size and (boards.min() < -128 or boards.max() > 127):
        raise ValueError("positions hold a count outside -128..127; a point has at most 15 checkers")
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or not 0 <= threads <= MAX_THREADS:
        raise ValueError(f"threads must be a whole number from 0 (all cores) to {MAX_THREADS}, not {threads!r}")
    rolls = np.asarray(dice)
    if rolls.shape != (boards.shape[0], 2):
        raise ValueError(f"dice must have shape ({boards.shape[0]}, 2), not {rolls.shape}")
    if not np.issubdtype(rolls.dtype, np.integer):
        raise ValueError(f"dice must be whole numbers, not {rolls.dtype}")
    flat = np.ascontiguousarray(boards, dtype=np.int8).tobytes()
    results, offsets = _legal_positions_many(
        variant, flat, rolls.astype(np.int64).ravel().tolist(), threads, **rules
    )
    return results, np.asarray(offsets, dtype=np.int64)
