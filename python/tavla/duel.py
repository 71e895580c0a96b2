"""The strength harness: duels between two players with duplicate dice.

Each dice sequence is played twice with the seats swapped, so luck cancels
out within a pair; the 95% confidence interval comes from the spread of the
pairs' totals. Players are given as an ``Engine`` or as a spec string:

- ``random``: a uniformly random legal play;
- ``heuristic``, ``pubeval`` (backgammon), ``pips``, optionally ``:PLY``
  (``heuristic:2``): a ``tavla.Engine`` with that evaluator at that ply;
- ``gnubg`` or ``gnubg:PLY``: GNU Backgammon's evaluator through ``gnubg_nn``
  (backgammon only, cubeless best move at ``n=PLY``, PLY 0 to 3: gnubg_nn takes
  about 0.001 s, 0.03 s, 0.15 s and 2 s a move at 0 to 3 plies, and a minute at 4;
  install it with ``pip install gnubg-nn``).

Duels between our own players run in the Rust game loop on all cores; a duel
with gnubg runs a Python game loop (gnubg_nn is called under the GIL).
"""

from __future__ import annotations

import math
import operator
import random
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from ._core import LIMITS, Engine, Game, Move, Position, _duel

# The plies a gnubg player may search: gnubg_nn accepts any ply >= 0, but from 4 on a move takes
# a minute or more (see the module doc), so a duel would seem to run for ever.
GNUBG_MAX_PLY = 3
GNUBG_INSTALL = "pip install gnubg-nn"
# The most games one duel plays: days of play for engines at 1 ply on all cores; more is a typo (or an
# overflow) that would otherwise run for ever. The bound is the core's (tavla._core.LIMITS, src/limits.rs).
MAX_GAMES = int(LIMITS["games"])


class MissingPackage(ImportError):
    """A player needs a package that is not installed; the message says how to install it."""


def _whole_number(value: Any, what: str, low: int, high: Optional[int] = None) -> int:
    """``value`` as an int in low..high, else a ValueError naming ``what``."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise ValueError(f"{what} must be a whole number, not {value!r}")
    value = operator.index(value)
    if value < low or (high is not None and value > high):
        span = f"{low} to {high}" if high is not None else f"at least {low}"
        raise ValueError(f"{what} must be {span}, not {value}")
    return value


class GnubgPlayer:
    """GNU Backgammon (``gnubg_nn``) choosing the cubeless best move at a ply."""

    def __init__(self, ply: int = 0) -> None:
        ply = _whole_number(ply, "the gnubg ply", 0, GNUBG_MAX_PLY)
        try:
            import gnubg_nn  # an oracle for measurements only
        except ImportError:
            raise MissingPackage(f"a gnubg player needs the gnubg-nn package: {GNUBG_INSTALL}") from None

        self.gnubg = gnubg_nn
        self.ply = ply
        self.name = f"gnubg {ply}-ply"

    def __call__(self, pos: Position, d1: int, d2: int) -> Move:
        moves = pos.legal_moves(d1, d2)
        if len(moves) == 1:
            return moves[0]
        mine, theirs = pos.to_arrays()
        _, key = self.gnubg.best_move([theirs, mine], d1, d2, n=self.ply, b=1)
        after_mine, after_theirs = (list(side) for side in self.gnubg.board_from_position_key(key))
        for m in moves:
            m_mine, m_theirs = m.position.to_arrays()
            if m_mine == after_mine and m_theirs == after_theirs:
                return m
        raise RuntimeError(f"gnubg's play of {d1}-{d2} is not among ours in {pos!r}")


def parse_player(spec: Any, variant: str, cascade_width: Optional[int] = None) -> Any:
    """An ``Engine``, ``"random"`` or a ``GnubgPlayer`` from a spec (see the module doc); an engine
    built from a spec keeps ``cascade_width`` states a number of a gul bara cascade (the engine's
    default when None)."""
    if isinstance(spec, (Engine, GnubgPlayer)):
        return spec
    if not isinstance(spec, str):
        raise ValueError(f"a player is an Engine or a spec string, not {spec!r}")
    name, _, ply_text = spec.partition(":")
    try:
        ply = int(ply_text) if ply_text else (0 if name == "gnubg" else 1)
    except ValueError:
        raise ValueError(f"the ply in {spec!r} must be a whole number") from None
    if name == "gnubg" and not 0 <= ply <= GNUBG_MAX_PLY:
        raise ValueError(f"the ply in {spec!r} must be 0 to {GNUBG_MAX_PLY} for gnubg "
                         f"(from 4 plies on gnubg takes a minute or more a move)")
    if name == "random":
        return "random"
    if name == "gnubg":
        if variant != "backgammon":
            raise ValueError(f"gnubg plays backgammon only, not {variant}")
        return GnubgPlayer(ply)
    if cascade_width is None:
        return Engine(variant, ply, evaluator=name)
    return Engine(variant, ply, evaluator=name, cascade_width=cascade_width)


def player_name(player: Any) -> str:
    if isinstance(player, Engine):
        return f"{player.evaluator} {player.ply}-ply"
    if isinstance(player, GnubgPlayer):
        return player.name
    return str(player)


@dataclass
class DuelResult:
    variant: str
    players: tuple[str, str]
    points: list[int]
    """Player 0's points per game (negative when player 1 won), pairs adjacent."""
    seconds_per_move: tuple[float, float]

    @property
    def games(self) -> int:
        return len(self.points)

    @property
    def mean(self) -> float:
        """Player 0's points per game."""
        return sum(self.points) / max(1, len(self.points))

    @property
    def ci95(self) -> float:
        """Half-width of the 95% confidence interval of ``mean``, from the pair totals (nan with
        fewer than two pairs, which give no spread)."""
        pairs = [self.points[k] + self.points[k + 1] for k in range(0, len(self.points) - 1, 2)]
        if len(pairs) < 2:
            return math.nan
        m = sum(pairs) / len(pairs)
        var = sum((p - m) ** 2 for p in pairs) / (len(pairs) - 1)
        return 1.96 * math.sqrt(var / len(pairs)) / 2

    def rate(self, test: Callable[[int], bool]) -> float:
        return sum(1 for p in self.points if test(p)) / max(1, len(self.points))

    def summary(self) -> str:
        a, b = self.players
        ci = self.ci95
        # Fewer than two pairs have no spread to measure: say so rather than print "± nan".
        ppg = (f"{self.mean:+.3f} points/game for {a} (no interval: too few pairs)" if math.isnan(ci)
               else f"{self.mean:+.3f} ± {ci:.3f} points/game for {a}")
        return (
            f"{self.variant}: {a} vs {b}, {self.games} games (duplicate dice): {ppg}; "
            f"wins {self.rate(lambda p: p > 0):.1%}, gammons won {self.rate(lambda p: p >= 2):.1%}, "
            f"gammons lost {self.rate(lambda p: p <= -2):.1%}, backgammons {self.rate(lambda p: abs(p) == 3):.1%}; "
            f"time/move {self.seconds_per_move[0] * 1e3:.2f} ms vs {self.seconds_per_move[1] * 1e3:.2f} ms"
        )


def _progress(done: int, total: int, points: Sequence[int], start: float) -> None:
    width = 30
    filled = int(width * done / max(1, total))
    mean = sum(points) / max(1, len(points))
    sys.stderr.write(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games  {mean:+.3f} ppg  {time.time() - start:.0f}s"
    )
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def duel(
    variant: str,
    player0: Any,
    player1: Any,
    games: int = 100,
    *,
    seed: int = 0,
    threads: int = 0,
    progress: bool = False,
    cascade_width: Optional[int] = None,
    **rules: Any,
) -> DuelResult:
    """Plays ``games`` cubeless games (rounded up to whole duplicate pairs).

    ``cascade_width``: for players given as spec strings, the states each number
    of a gul bara cascade keeps (the engine's default, 2,000, when None; the
    rollout players keep 4, hundreds of times faster). ``rules`` are rule options
    of the variant (the Rust game loop only; duels with gnubg play standard
    backgammon)."""
    games = _whole_number(games, "games", 1, MAX_GAMES)
    seed = _whole_number(seed, "seed", 0, 2**64 - 1)
    threads = _whole_number(threads, "threads", 0, int(LIMITS["threads"]))
    if cascade_width is not None:
        cascade_width = _whole_number(cascade_width, "the cascade width", 1)
    players = (parse_player(player0, variant, cascade_width), parse_player(player1, variant, cascade_width))
    pairs = (games + 1) // 2
    points: list[int] = []
    seconds = [0.0, 0.0]
    decisions = [0, 0]
    start = time.time()
    if any(isinstance(p, GnubgPlayer) for p in players):
        if rules:
            raise ValueError("duels with gnubg play standard backgammon: no rule options")
        for k in range(pairs):
            for starter in (0, 1):
                pts, dec, sec = _python_game(variant, players, starter, seed * 1_000_003 + k)
                points.append(pts)
                for s in (0, 1):
                    decisions[s] += dec[s]
                    seconds[s] += sec[s]
            if progress:
                _progress(len(points), 2 * pairs, points, start)
    else:
        chunk = max(2, threads or 2)
        for first in range(0, pairs, chunk):
            n = min(chunk, pairs - first)
            for pts, _, d0, d1, s0, s1 in _duel(variant, players[0], players[1], first, n, seed, threads, **rules):
                points.append(pts)
                decisions[0] += d0
                decisions[1] += d1
                seconds[0] += s0
                seconds[1] += s1
            if progress:
                _progress(len(points), 2 * pairs, points, start)
    per_move = (seconds[0] / max(1, decisions[0]), seconds[1] / max(1, decisions[1]))
    return DuelResult(variant, (player_name(players[0]), player_name(players[1])), points, per_move)


def _python_game(variant: str, players: Sequence[Any], starter: int, game_seed: int):
    """One backgammon game driven from Python (for gnubg) through ``tavla.Game``, so the engine's turn
    driver plays the rules: player 0's points, decisions, seconds."""
    rng = random.Random(game_seed)
    choice_rng = random.Random(game_seed * 31 + starter)
    game = Game(variant, cube=False, seed=0)
    game.begin(starter)
    decisions = [0, 0]
    seconds = [0.0, 0.0]
    while not game.is_over and game.rolls < 5000:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        while game.rolls == 0 and d1 == d2:  # backgammon opens with the roll-off's two different dice
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        game.roll((d1, d2))
        seat, pos = game.turn, game.position
        t = time.perf_counter()
        player = players[seat]
        if isinstance(player, Engine):
            m = player.best_move(pos, d1, d2)
        elif player == "random":
            m = choice_rng.choice(game.legal_moves())
        else:
            m = player(pos, d1, d2)
        seconds[seat] += time.perf_counter() - t
        decisions[seat] += 1
        game.play(m)
    result = game.result
    if result is None:
        return 0, decisions, seconds
    return (result["points"] if result["winner"] == 0 else -result["points"]), decisions, seconds
