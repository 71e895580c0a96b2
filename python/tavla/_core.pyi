"""Type stubs for the Rust extension module ``tavla._core``: every name it has (checked by
``python -m mypy.stubtest tavla._core`` in ./scripts/test, with python/stubtest-allowlist.txt).
The classes cannot be subclassed (PyO3), hence ``@final``; their constructors are ``__new__``."""

from typing import Any, Callable, Literal, Sequence, final

import numpy as np
import numpy.typing as npt

__version__: str
# The bounds on every count a call may ask for (src/limits.rs): threads, games, positions, epochs, ...
LIMITS: dict[str, int | float]

# ----- positions and moves (src/python/mod.rs) -----

@final
class Position:
    """A position, seen from the player on roll ("mine" is the mover's side)."""

    @staticmethod
    def start(variant: str = "backgammon", **rules: Any) -> Position: ...
    @staticmethod
    def from_arrays(variant: str, mine: Any, theirs: Any, reserve: Any = (0, 0), **rules: Any) -> Position:
        """Two sequences of 25 counts, each in its owner's numbering: index i is
        point i+1, index 24 the bar (0 in nardy and gul bara); ``reserve`` the
        (mine, theirs) checkers not yet entered (Dutch backgammon and acey-deucey)."""
    def to_arrays(self) -> tuple[list[int], list[int]]: ...
    @property
    def variant(self) -> str: ...
    @property
    def rules(self) -> dict[str, bool | int | str]: ...
    @property
    def off(self) -> tuple[int, int]: ...
    @property
    def bar(self) -> tuple[int, int]: ...
    @property
    def reserve(self) -> tuple[int, int]:
        """Checkers not yet entered (mine, theirs): (0, 0) outside dutch and acey_deucey."""
    def pip_count(self) -> tuple[int, int]: ...
    def is_race(self) -> bool: ...
    def is_crashed(self) -> bool:
        """Contact where a side has at most six checkers in play beside deep piles on its 1 and 2
        points (GNU Backgammon's "crashed" class), which backgammon judges with its crashed network."""
    def position_class(self) -> Literal["over", "bear-off", "race", "contact"]: ...
    def is_game_over(self) -> bool: ...
    def flip(self) -> Position: ...
    def legal_moves(self, d1: int, d2: int) -> list[Move]: ...
    def legal_cascade_step(self, die: int, count: int = 4, head_used: int = 0) -> list[Move]: ...
    def legal_positions(self, d1: int, d2: int) -> npt.NDArray[np.int8]:
        """All resulting positions, shape (n, 2, 25), in the order of legal_moves."""
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...

@final
class Move:
    """One legal play (or gul bara cascade step) and the position it leads to."""

    @property
    def position(self) -> Position: ...
    @property
    def steps(self) -> list[tuple[int, int]]:
        """(from, to) per checker step in play order; 25 is the bar, 26 the reserve, 0 is off."""
    @property
    def hits(self) -> list[bool]: ...
    @property
    def moves_played(self) -> int: ...
    @property
    def head_used(self) -> int: ...
    @property
    def named(self) -> int | None:
        """Acey-deucey's 1-2 roll: the number named after the 1 and the 2 (None when none was)."""
    @property
    def rolls_again(self) -> bool:
        """Acey-deucey's 1-2 roll: the named number was played in full, so the player rolls again."""
    @property
    def notation(self) -> str:
        """The usual notation ("24/18 13/11"); an acey-deucey 1-2 names its number ("... named 6: ...")."""
    @property
    def handover(self) -> list[tuple[int, int]]:
        """A whole gul bara cascade part: the (die, moves) passed to the opponent."""
    @property
    def cascade_steps(self) -> list[tuple[int, Move]]:
        """A whole gul bara cascade part: each number's step."""
    def is_pass(self) -> bool: ...

def perft(variant: str, depth: int, **rules: Any) -> list[int]: ...
def _legal_positions_many(
    variant: str, boards: bytes, dice: list[int], threads: int = 0, **rules: Any
) -> tuple[npt.NDArray[np.int8], list[int]]: ...
def _position_from_state(
    variant: str, mine: list[int], theirs: list[int], rules: dict[str, Any], reserve: tuple[int, int] | None = None
) -> Position: ...

# ----- whole games, matches, formats (src/python/game.rs) -----

@final
class Game:
    """One game of any variant (backgammon, long nardy, gul bara, Dutch backgammon, acey-deucey):
    dice, turns, cube, result. An acey-deucey 1-2 played in full is followed by an extra roll of the
    same player (``is_extra_roll``); ``history`` marks it ``"extra": True``, and the 1-2's move with
    ``"named"`` and ``"rolls_again"``.

    Players are 0 and 1. ``phase`` is "opening_roll", "roll", "move",
    "double_offered" or "over"; every action checks it and raises ValueError
    (leaving the game unchanged) when it does not fit.
    """

    def __new__(
        cls,
        variant: str = "backgammon",
        *,
        seed: int | None = None,
        cube: bool = True,
        beaver: bool = False,
        jacoby: bool = False,
        max_cube: int = 64,
        match_length: int = 0,
        score: tuple[int, int] = (0, 0),
        crawford: bool = False,
        **rules: Any,
    ) -> Game: ...
    @staticmethod
    def from_position(text: str, *, rolls: int = 10, starter: int | None = None, seed: int | None = None) -> Game:
        """A game continuing from an XGID, GNU Backgammon ID, FIBS board or JSON position."""
    @staticmethod
    def from_json(text: str) -> Game:
        """Replays a game record (from ``to_json``)."""
    @staticmethod
    def replay(text: str) -> list[Game]:
        """Every state of a recorded game: the fresh game, then one after each event."""
    def to_json(self) -> str: ...
    @property
    def variant(self) -> str: ...
    @property
    def rules(self) -> dict[str, bool | int | str]: ...
    @property
    def phase(self) -> str: ...
    @property
    def turn(self) -> int: ...
    @property
    def decider(self) -> int | None: ...
    @property
    def starter(self) -> int | None: ...
    @property
    def position(self) -> Position:
        """Seen from the player whose turn it is."""
    def position_for(self, player: int) -> Position: ...
    @property
    def dice(self) -> tuple[int, int] | None: ...
    @property
    def cascade_step(self) -> tuple[int, int] | None:
        """Gul bara: (number, moves asked) of the cascade step being played."""
    @property
    def is_cascade_handover(self) -> bool: ...
    @property
    def cascade_left(self) -> list[tuple[int, int]]:
        """Gul bara: the (number, moves) still to play by the player to move, the current step first."""
    @property
    def is_last_turn(self) -> bool: ...
    @property
    def is_extra_roll(self) -> bool:
        """Acey-deucey: the player on roll rolls again after a 1-2 played in full (no double before it)."""
    @property
    def rolls(self) -> int: ...
    @property
    def rolls_before(self) -> int:
        """Rolls made before the one being played: the ``rolls`` Engine.hint takes."""
    @property
    def cube_value(self) -> int: ...
    @property
    def cube_owner(self) -> int | None: ...
    @property
    def match_length(self) -> int: ...
    @property
    def score(self) -> tuple[int, int]: ...
    @property
    def is_crawford(self) -> bool: ...
    @property
    def may_double(self) -> bool: ...
    def why_no_double(self) -> str | None: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def result(self) -> dict[str, Any] | None:
        """{"winner", "multiplier", "kind", "cube", "points", "ending"} once over."""
    @property
    def history(self) -> list[dict[str, Any]]: ...
    def roll_off(self, dice: tuple[int, int] | None = None) -> int | None: ...
    def decide_starter(self) -> int: ...
    def begin(self, starter: int) -> None: ...
    def roll(self, dice: tuple[int, int] | None = None) -> tuple[int, int]: ...
    def legal_moves(self) -> list[Move]: ...
    def play(self, mv: int | Move | str) -> None: ...
    def entry_status(self, text: str) -> str:
        """"complete" or "partial" (the start of a legal move); ValueError otherwise."""
    def double(self) -> None: ...
    def take(self) -> None: ...
    def beaver(self) -> None: ...
    def why_no_beaver(self) -> str | None: ...
    def drop(self) -> dict[str, Any]:
        """Passes the offered double."""
    def play_out(self, players: tuple[str, str] = ..., seed: int | None = None) -> dict[str, Any]:
        """Plays to the end with ``players`` (default ("random", "random"))."""
    def suggest(self, player: str = "greedy", seed: int | None = None) -> int: ...
    def to_xgid(self) -> str: ...
    def to_gnubg_id(self) -> str: ...
    def to_fibs(self, names: tuple[str, str] = ...) -> str:
        """Default names ("player0", "player1")."""
    def to_position_json(self) -> str: ...
    def copy(self) -> Game: ...
    def __copy__(self) -> Game: ...

@final
class Match:
    """A match to ``length`` points; act on the current game through the match."""

    def __new__(
        cls,
        variant: str = "backgammon",
        length: int = 5,
        *,
        crawford: bool = True,
        seed: int | None = None,
        cube: bool = True,
        max_cube: int = 64,
        score: tuple[int, int] = (0, 0),
        crawford_game: bool = False,
        **rules: Any,
    ) -> Match: ...
    @staticmethod
    def money(
        variant: str = "backgammon",
        *,
        seed: int | None = None,
        cube: bool = True,
        beaver: bool = False,
        jacoby: bool = False,
        max_cube: int = 64,
        score: tuple[int, int] = (0, 0),
        **rules: Any,
    ) -> Match:
        """A money session (length 0): games one after another, the score the running total."""
    @staticmethod
    def from_position(
        text: str, *, crawford: bool = True, rolls: int = 10, starter: int | None = None, seed: int | None = None
    ) -> Match:
        """A match (a money session for a money position) whose first game continues from a position text."""
    @staticmethod
    def from_json(text: str) -> Match: ...
    def to_json(self) -> str: ...
    @property
    def length(self) -> int: ...
    @property
    def score(self) -> tuple[int, int]: ...
    @property
    def initial_score(self) -> tuple[int, int]: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def is_money(self) -> bool: ...
    @property
    def crawford_rule(self) -> bool: ...
    @property
    def is_crawford(self) -> bool: ...
    @property
    def is_post_crawford(self) -> bool: ...
    @property
    def next_is_crawford(self) -> bool: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def game_number(self) -> int: ...
    @property
    def game(self) -> Game:
        """A copy of the current game."""
    @property
    def finished_games(self) -> list[Game]: ...
    def next_game(self) -> None: ...
    def roll_off(self, dice: tuple[int, int] | None = None) -> int | None: ...
    def decide_starter(self) -> int: ...
    def begin(self, starter: int) -> None: ...
    def roll(self, dice: tuple[int, int] | None = None) -> tuple[int, int]: ...
    def legal_moves(self) -> list[Move]: ...
    def play(self, mv: int | Move | str) -> None: ...
    def entry_status(self, text: str) -> str: ...
    def suggest(self, player: str) -> int: ...
    def double(self) -> None: ...
    def take(self) -> None: ...
    def beaver(self) -> None: ...
    def drop(self) -> dict[str, Any]: ...
    def play_out(self, players: tuple[str, str] = ..., seed: int | None = None) -> dict[str, Any]:
        """Plays to the end with ``players`` (default ("random", "random"))."""

def simulate_games(
    variant: str,
    games: int,
    *,
    seed: int = 0,
    players: tuple[str, str] = ("random", "random"),
    threads: int = 1,
    **rules: Any,
) -> dict[str, Any]:
    """Plays money games between trivial players: {"games", "wins" [player][single, double, triple], "draws", "rolls", "starter_wins"}.
    At most LIMITS["games"] games; threads 0 means one per core (the tallies depend on the thread count)."""

def _parse_position(text: str) -> dict[str, Any]: ...
def _read_mat(text: str) -> dict[str, Any]: ...
def _write_mat(length: int, names: tuple[str, str], games: list[tuple[Game, tuple[int, int] | None]]) -> str: ...
def _read_sgf(data: str | bytes) -> dict[str, Any]: ...
def _read_match_text(text: str) -> dict[str, Any]: ...
def _write_match_text(length: int, names: tuple[str, str], crawford_rule: bool, games: list[tuple[Game, tuple[int, int] | None]]) -> str: ...
def _write_sgf(length: int, names: tuple[str, str], crawford_rule: bool, games: list[tuple[Game, tuple[int, int] | None]]) -> str: ...
def _write_position(
    form: str,
    position: Position,
    turn: int,
    dice: tuple[int, int] | None,
    cube_value: int,
    cube_owner: int | None,
    match_length: int,
    score: tuple[int, ...],
    crawford: bool,
    double_offered: bool,
    jacoby: bool,
    beaver: bool,
    max_cube: int,
    names: tuple[str, ...],
    extra_roll: bool = False,
) -> str:
    """One of the forms "xgid", "gnubg", "position_id", "match_id", "fibs", "json" (tavla.formats);
    ``score`` and ``names`` must be pairs (checked: ValueError)."""

# ----- evaluation and search (src/python/engine.rs) -----

@final
class Evaluation:
    """Cubeless probabilities for the player on roll (gammons include backgammons)."""

    def __new__(cls, probabilities: Sequence[float]) -> Evaluation:
        """From (win, win_gammon, win_backgammon, lose_gammon, lose_backgammon), each in 0..1."""
    def invert(self) -> Evaluation:
        """The same evaluation from the other player's side."""
    @property
    def win(self) -> float: ...
    @property
    def win_gammon(self) -> float: ...
    @property
    def win_backgammon(self) -> float: ...
    @property
    def lose_gammon(self) -> float: ...
    @property
    def lose_backgammon(self) -> float: ...
    @property
    def equity(self) -> float: ...
    def probabilities(self) -> tuple[float, float, float, float, float]: ...

@final
class Candidate:
    """One play with its evaluation from the mover's side after the play."""

    @property
    def move(self) -> Move: ...
    @property
    def evaluation(self) -> Evaluation: ...
    @property
    def equity(self) -> float: ...
    @property
    def diff(self) -> float: ...
    @property
    def ply(self) -> int: ...
    @property
    def mwc(self) -> float | None: ...
    @property
    def cubeful(self) -> bool: ...

@final
class CubeState:
    """The cube and the stakes, from the side of the player on roll."""
    def __new__(
        cls,
        value: int = 1,
        owner: str | None = None,
        match_length: int = 0,
        score: tuple[int, int] = (0, 0),
        crawford: bool = False,
        jacoby: bool = False,
        beaver: bool = False,
        max_cube: int = 64,
    ) -> CubeState: ...
    @property
    def value(self) -> int: ...
    @property
    def owner(self) -> str | None: ...
    @property
    def match_length(self) -> int: ...
    @property
    def score(self) -> tuple[int, int]: ...
    @property
    def crawford(self) -> bool: ...
    @property
    def jacoby(self) -> bool: ...
    @property
    def beaver(self) -> bool: ...
    @property
    def max_cube(self) -> int: ...
    @property
    def is_money(self) -> bool: ...
    @property
    def is_post_crawford(self) -> bool: ...
    @property
    def may_double(self) -> bool: ...
    def flip(self) -> CubeState: ...
    def doubled(self) -> CubeState: ...

@final
class CubeDecision:
    """The cube decision of the player on roll, before its roll."""
    @property
    def should_double(self) -> bool: ...
    @property
    def should_take(self) -> bool: ...
    @property
    def should_beaver(self) -> bool: ...
    @property
    def no_double(self) -> float: ...
    @property
    def double_take(self) -> float: ...
    @property
    def double_pass(self) -> float: ...
    @property
    def equity(self) -> float: ...
    @property
    def mwc(self) -> tuple[float, float, float] | None: ...
    @property
    def action(self) -> str: ...
    @property
    def evaluation(self) -> Evaluation: ...
    @property
    def cube(self) -> CubeState: ...
    @property
    def ply(self) -> int: ...
    @property
    def take_point(self) -> float: ...

@final
class Engine:
    """Evaluation and search for one variant: ``evaluator`` is "network" ("network=PATH" for a .tnn
    file; "network-int16" the shipped network with its first layer in 16-bit integers, within
    0.002 of "network"), "heuristic", "pubeval" (backgammon) or "pips"; ``met`` the path of a match equity table
    (gnubg's XML); any other keyword is a rule option of the variant."""

    def __new__(
        cls,
        variant: str = "backgammon",
        ply: int = 1,
        *,
        evaluator: str = "network",
        met: str | None = None,
        cascade_width: int = 2000,
        threads: int = 0,
        bearoff: bool = True,
        filter_min: int = 3,
        filter_keep: int = 8,
        filter_margin: float = 0.16,
        inner_min: int = 1,
        inner_keep: int = 2,
        inner_margin: float = 0.04,
        prune: int = 6,
        prune_filter: int = 8,
        **options: Any,
    ) -> Engine: ...
    @property
    def variant(self) -> str: ...
    @property
    def ply(self) -> int: ...
    @property
    def evaluator(self) -> str: ...
    def evaluate(self, position: Position) -> Evaluation: ...
    def hint(
        self,
        position: Position,
        d1: int,
        d2: int,
        top: int = 5,
        cube: CubeState | None = None,
        rolls: int | None = None,
    ) -> list[Candidate]: ...
    def best_move(
        self, position: Position, d1: int, d2: int, cube: CubeState | None = None, rolls: int | None = None
    ) -> Move: ...
    def handover(self, position: Position, handover: Sequence[tuple[int, int]], cube: CubeState | None = None) -> Move: ...
    def cube_decision(self, position: Position, cube: CubeState, rolls: int | None = None) -> CubeDecision: ...
    @property
    def met_name(self) -> str: ...
    def match_equity(self, away: int, opponent_away: int, post_crawford: bool = False) -> float: ...
    def rollout(
        self,
        position: Position,
        trials: int = 1296,
        seed: int = 0,
        *,
        threads: int | None = None,
        cube: CubeState | None = None,
        variance_reduction: bool = False,
        stratify_second: bool = False,
        truncate: int | None = None,
        stop_at_bearoff: bool = False,
        ply: int = 0,
        min_trials: int = 0,
        target_error: float | None = None,
        rolls: int | None = None,
        progress: Callable[[int, int, float], object] | None = None,
        cube_ply: int = 0,
    ) -> RolloutResult: ...
    def rollout_plays(
        self,
        position: Position,
        dice: tuple[int, int] | list[int],
        top: int = 5,
        trials: int = 1296,
        seed: int = 0,
        *,
        threads: int | None = None,
        cube: CubeState | None = None,
        variance_reduction: bool = False,
        stratify_second: bool = False,
        truncate: int | None = None,
        stop_at_bearoff: bool = False,
        ply: int = 0,
        min_trials: int = 0,
        target_error: float | None = None,
        rolls: int | None = None,
        progress: Callable[[int, int, float], object] | None = None,
        cube_ply: int = 0,
    ) -> list[PlayRollout]: ...
    def _best_move_nodes(self, position: Position, d1: int, d2: int) -> tuple[Move, int]: ...
    def with_cancel(self, token: CancelToken) -> Engine:
        """This engine with searches and rollouts that stop at once, raising Cancelled, when ``token``
        is cancelled or past its deadline (cheap: one a call is fine)."""

@final
class CancelToken:
    """Stops the searches of engines made with ``Engine.with_cancel(token)``: ``cancel()`` from any
    thread, or ``seconds`` (where given) after the token was made."""

    def __new__(cls, seconds: float | None = None) -> CancelToken: ...
    def cancel(self) -> None: ...
    @property
    def cancelled(self) -> bool: ...

class Cancelled(Exception):
    """A search stopped by its CancelToken before it finished."""

def _game_result(position: Position) -> tuple[bool, int] | None: ...
def _pubeval_score(position: Position, race: bool | None = None) -> float: ...
def _duel(
    variant: str,
    player0: Any,
    player1: Any,
    first_pair: int,
    pairs: int,
    seed: int = 0,
    threads: int = 0,
    **rules: Any,
) -> list[tuple[int, int, int, int, float, float]]: ...
def _bench(
    variants: Sequence[str], plies: Sequence[int], threads: int = 0, evaluator: str = "heuristic"
) -> list[tuple[str, int, tuple[int, int], int, int, float, str]]: ...

def _eval_rate(variant: str, evaluator: str = "heuristic", seconds: float = 1.0) -> float: ...

def _bearoff_info(variant: str, home: Sequence[int], **rules: Any) -> tuple[float, list[float], float]: ...

# The shipped networks as players (src/python/nn.rs); training is in the
# training package's own module, tavla_train._coach (coach/).
def rollout(position: Position, trials: int = 1296, seed: int = 0, threads: int = 0) -> dict[str, float]:
    """Rolls a position out with the shipped networks of its variant playing both sides at 0-ply:
    {"win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon", "equity",
    "equity_error", "trials"}."""
def selfplay_positions(variant: str, count: int, seed: int = 0, **rules: Any) -> list[Position]:
    """Positions from self-play of the shipped network of a variant."""
def network_probabilities(position: Position) -> list[float]:
    """The shipped networks' five probabilities for the player on roll (0-ply, without the bear-off
    tables): the race network's in a pure race."""
# ----- the cube (src/python/cube.rs) -----

def _cube_decision_from(
    position: Position, probabilities: tuple[float, float, float, float, float], cube: CubeState
) -> CubeDecision:
    """The 0-ply cube decision for given cubeless probabilities of ``position``: the formulas alone,
    with the position's cube efficiency and the variant's match equity table."""
def _cube_efficiency(position: Position) -> float:
    """The cube efficiency tavla's 0-ply formulas use for ``position``."""

MAX_ROLLOUT_TRIALS: int
MAX_ROLLOUT_PLAYS: int

@final
class RolloutResult:
    """What a rollout came to, for the player on roll (for a play: the mover, after it)."""

    @property
    def win(self) -> float: ...
    @property
    def win_gammon(self) -> float: ...
    @property
    def win_backgammon(self) -> float: ...
    @property
    def lose_gammon(self) -> float: ...
    @property
    def lose_backgammon(self) -> float: ...
    def probabilities(self) -> tuple[float, float, float, float, float]: ...
    def probability_errors(self) -> tuple[float, float, float, float, float]: ...
    @property
    def equity(self) -> float: ...
    @property
    def equity_error(self) -> float: ...
    @property
    def interval(self) -> tuple[float, float]: ...
    @property
    def cubeful_equity(self) -> float | None: ...
    @property
    def cubeful_error(self) -> float | None: ...
    @property
    def cubeful_interval(self) -> tuple[float, float] | None: ...
    @property
    def trials(self) -> int: ...
    @property
    def cancelled(self) -> bool: ...
    def to_dict(self) -> dict[str, Any]: ...

@final
class PlayRollout:
    """A candidate play and its rollout."""

    @property
    def move(self) -> Move: ...
    @property
    def rollout(self) -> RolloutResult: ...
    @property
    def equity(self) -> float: ...
    @property
    def diff(self) -> float: ...
