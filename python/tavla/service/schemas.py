"""The JSON shapes of requests and answers (they make up the OpenAPI schema)."""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, Tuple, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, PlainValidator, WithJsonSchema
from pydantic_core import PydanticCustomError
from typing_extensions import Annotated

Die = Annotated[int, Field(ge=1, le=6)]
Count = Annotated[int, Field(ge=0, le=15)]
CountsIn = Annotated[List[Count], Field(min_length=25, max_length=25)]
Counts = List[int]
RuleValue = Union[bool, int, str]


class Strict(BaseModel):
    # Unknown fields are refused so that a typo ("postion") is reported, not ignored; and types are
    # strict JSON types: no booleans or strings for numbers ("dice": [true, 1] is not 1-1, "ply": "2"
    # is not 2) and no numbers for booleans.
    model_config = ConfigDict(extra="forbid", strict=True)


Counts24 = Annotated[List[Count], Field(min_length=24, max_length=24)]
Pair = Annotated[List[Annotated[int, Field(ge=0, le=15)]], Field(min_length=2, max_length=2)]

# The JSON position form's keys beyond the checkers (as ``tavla.formats.parse`` reads them).
PROJECT_CONTEXT_KEYS = ("turn", "dice", "cube", "cube_rules", "match_length", "score", "crawford", "double_offered",
                        "extra_roll")


class JsonCube(Strict):
    value: int = Field(1, ge=1, le=32768, description="the cube's value")
    owner: Optional[Literal[0, 1]] = Field(None, description="the player (0 or 1) who owns the cube; null when centered")


class JsonCubeRules(Strict):
    enabled: Optional[bool] = None
    beaver: Optional[bool] = None
    jacoby: Optional[bool] = None
    max_value: Optional[int] = Field(None, ge=1, le=32768)


class PlainPosition(Strict):
    """A position in the project's one JSON form (``tavla.formats.to_json`` writes it, ``tavla show``,
    ``tavla hint`` and ``tavla.formats.parse`` read it): ``checkers[p][i]`` is player p's count on its own
    point i + 1, ``bar``/``off`` per player, ``turn`` the player on roll; the dice, the cube and the score
    are optional. Only ``variant`` with no checkers names the variant's start position. The older
    ``mine``/``theirs`` form (the player on roll first, 25 counts with the bar last) is still read but
    deprecated: an answer to a request that uses it carries a ``Deprecation`` header."""

    variant: Literal["backgammon", "nardy", "gulbara", "dutch", "acey_deucey"] = Field("backgammon")
    rules: Dict[str, RuleValue] = Field(default_factory=dict, description="rule options as RULES.md names them")
    checkers: Optional[List[Counts24]] = Field(
        None, min_length=2, max_length=2,
        description="[player 0's 24 counts, player 1's 24 counts], each in its own numbering (index i = point i+1)")
    bar: Optional[Pair] = Field(None, description="checkers on the bar: [player 0, player 1]")
    reserve: Optional[Pair] = Field(
        None, description="checkers in reserve, not yet entered: [player 0, player 1] (Dutch backgammon and "
        "acey-deucey only)")
    off: Optional[Pair] = Field(None, description="checkers borne off: [player 0, player 1] (checked when given)")
    turn: Optional[Literal[0, 1]] = Field(None, description="the player on roll (0 when left out)")
    dice: Optional[List[Die]] = Field(None, min_length=2, max_length=2, description="the roll to play, if any")
    cube: Optional[JsonCube] = None
    cube_rules: Optional[JsonCubeRules] = None
    match_length: Optional[int] = Field(None, ge=0, le=64, description="match length in points; 0 for money")
    score: Optional[List[Annotated[int, Field(ge=0, le=64)]]] = Field(
        None, min_length=2, max_length=2, description="the score: [player 0, player 1]")
    crawford: Optional[bool] = None
    double_offered: Optional[bool] = None
    extra_roll: Optional[bool] = Field(None, description="acey-deucey: the player on roll rolls again after a 1-2 "
                                       "played in full (no double before this roll)")
    mine: Optional[CountsIn] = Field(
        None, json_schema_extra={"deprecated": True},
        description="deprecated (write checkers and bar): the player on roll's 25 counts in its own numbering "
        "(index i = point i+1, index 24 = bar)")
    theirs: Optional[CountsIn] = Field(None, json_schema_extra={"deprecated": True},
                                       description="deprecated (write checkers and bar): the opponent's 25 counts")

    @property
    def is_legacy(self) -> bool:
        return self.mine is not None or self.theirs is not None

    def project_form(self) -> dict[str, Any]:
        """The fields of the project's JSON form that the request gave, as ``tavla.formats.parse`` reads them."""
        keys = ("variant", "rules", "checkers", "bar", "reserve", "off", *PROJECT_CONTEXT_KEYS)
        given = self.model_dump(include=set(keys), exclude_unset=True)
        given["variant"] = self.variant
        return given


class PositionSource(Strict):
    """Exactly one of position, xgid, gnubg_id and fibs names the position."""

    position: Optional[PlainPosition] = None
    xgid: Optional[str] = Field(None, max_length=200, description="eXtreme Gammon XGID (backgammon)")
    gnubg_id: Optional[str] = Field(
        None, max_length=200, description="GNU Backgammon 'PositionID:MatchID' or PositionID alone (backgammon)"
    )
    fibs: Optional[str] = Field(None, max_length=1000, description="a FIBS 'board:...' line (backgammon)")


class CubeIn(Strict):
    """The cube and the stakes, seen from the player on roll (as ``tavla.CubeState``)."""

    value: int = Field(1, ge=1, le=32768, description="the cube's value: 1, 2, 4, ... up to max_cube")
    owner: Optional[Literal["me", "opponent", "centered"]] = Field(
        None, description='who owns the cube, seen from the player on roll; null or "centered" for a centered cube')
    match_length: int = Field(0, ge=0, le=64, description="match length in points; 0 for money play")
    score: List[Annotated[int, Field(ge=0, le=64)]] = Field(
        default_factory=lambda: [0, 0], min_length=2, max_length=2,
        description="match score: [player on roll, opponent]; [0, 0] in money play")
    crawford: bool = Field(False, description="this is the Crawford game (match play)")
    jacoby: bool = Field(False, description="the Jacoby rule (money play)")
    beaver: bool = Field(False, description="beavers allowed (money play)")
    max_cube: int = Field(64, ge=1, le=32768, description="the highest cube value")


class CubeOut(BaseModel):
    value: int
    owner: Optional[str] = Field(description='"me", "opponent" (seen from the player on roll) or null (centered)')
    match_length: int
    score: List[int]
    crawford: bool
    jacoby: bool
    beaver: bool
    max_cube: int
    is_money: bool
    is_post_crawford: bool
    may_double: bool = Field(description="whether the player on roll may double now")
    description: str


class CascadeStepRequest(PositionSource):
    die: Die = Field(description="the number of this cascade step")
    count: int = Field(4, ge=1, le=4, description="how many moves of the number are to be played")
    head_used: int = Field(0, ge=0, le=15, description="head checkers already moved earlier in the same cascade")


class PositionRequest(PositionSource):
    pass


class DiceRequest(PositionSource):
    dice: Optional[List[Die]] = Field(
        None, min_length=2, max_length=2, description="two dice, 1..6; may be left out when the position text carries the dice"
    )


class MovesRequest(DiceRequest):
    pass


CUBE_FIELD = ("the cube state: when given, plays are ranked by cubeful equity (match winning chances in a "
              "match); left out, cubeless")


ROLLS_FIELD = ("the rolls of the game already made before this one (0 for the game's first roll). In gul bara a "
               "double after the first cascade_after_rolls rolls (a rule option, 3 by default) cascades, and the "
               "answer is the mover's whole part of the cascade; left out, the roll is taken to be past them")


class HintRequest(DiceRequest):
    ply: Optional[int] = Field(None, ge=0, description="search depth; the service's default when left out")
    top: int = Field(5, ge=1, description="how many candidates to answer")
    cube: Optional[CubeIn] = Field(None, description=CUBE_FIELD)
    rolls: Optional[int] = Field(None, ge=0, le=100000, description=ROLLS_FIELD)


class EngineMoveRequest(DiceRequest):
    ply: Optional[int] = Field(None, ge=0)
    cube: Optional[CubeIn] = Field(None, description=CUBE_FIELD)
    rolls: Optional[int] = Field(None, ge=0, le=100000, description=ROLLS_FIELD)


# [die, count]; a tuple is not strict about being given as a JSON array (strict mode wants a Python
# tuple), while its two numbers stay strict integers.
HandoverItem = Annotated[Tuple[Annotated[int, Field(ge=1, le=6, strict=True)],
                               Annotated[int, Field(ge=1, le=4, strict=True)]], Field(strict=False)]


class HandoverRequest(PositionSource):
    handover: List[HandoverItem] = Field(
        min_length=1, max_length=6,
        description="the [die, count] list a gul bara cascade passes to the opponent, as a hint's move.handover "
        "gives it: consecutive numbers up to 6, each count 4 except the first (1 to 4)")
    ply: Optional[int] = Field(None, ge=0, description="search depth; the service's default when left out")


class CubeRequest(PositionSource):
    ply: Optional[int] = Field(None, ge=0, description="search depth; the service's default when left out")
    cube: Optional[CubeIn] = Field(
        None, description="the cube state; left out, the one an xgid or gnubg_id (with its Match ID) records, "
        "else a centered cube in money play")


class EvaluateRequest(PositionSource):
    ply: Optional[int] = Field(None, ge=0)


MAX_MOVE_INDEX = 10000
MAX_NOTATION = 200


def checked_play(value: Any) -> Union[int, str]:
    """A play of /v1/turn: a move's index in the answer's ``moves`` or its notation (one message for
    both, where a plain union would report each alternative)."""
    if isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value <= MAX_MOVE_INDEX:
            raise PydanticCustomError("play", f"a move index is a whole number 0 to {MAX_MOVE_INDEX}, not {value}")
        return value
    if isinstance(value, str):
        if not 1 <= len(value) <= MAX_NOTATION:
            raise PydanticCustomError("play", f"a move's notation has 1 to {MAX_NOTATION} characters")
        return value
    raise PydanticCustomError("play", "give a move's index in moves (a whole number) or its notation (a string)")


# A play of /v1/turn: its index among the answer's ``moves``, or its notation.
PlayIn = Annotated[Any, PlainValidator(checked_play), WithJsonSchema({"anyOf": [
    {"type": "integer", "minimum": 0, "maximum": MAX_MOVE_INDEX},
    {"type": "string", "minLength": 1, "maxLength": MAX_NOTATION}]})]


class NewGame(PositionSource):
    """A new game: the start position (a ``position`` with only ``variant`` and ``rules``), or a position
    given as in the other routes (the JSON form, ``xgid``, ``gnubg_id`` or ``fibs``; dice that the position
    carries are the roll to play)."""

    turn: int = Field(0, ge=0, le=1, description="the player (0 or 1) whose turn it is; the position is seen "
                      "from this player (a JSON position's own turn, when it gives one, must agree)")
    rolls: Optional[int] = Field(
        None, ge=0, le=100000,
        description="the rolls the game has had before this position (not counting dice the position carries); "
        "left out, 0 for the start position and, for any other, a game well past its first rolls (so gul bara "
        "doubles cascade)")
    starter: Optional[int] = Field(None, ge=0, le=1, description="the player who started the game (needed only "
                                   "for the last_roll_draw rule)")


class TurnAction(Strict):
    """Exactly one of roll, play and plays."""

    roll: Optional[List[Die]] = Field(None, min_length=2, max_length=2,
                                      description="roll these two dice (1..6): the player whose turn it is rolls")
    play: Optional[PlayIn] = Field(
        None, description="play one legal move (in a gul bara cascade, one step): its index in the last answer's "
        "moves, or its notation")
    plays: Optional[List[PlayIn]] = Field(
        None, min_length=1, max_length=12,
        description="several plays, one after the other, each as play takes it: for example a gul bara cascade "
        "part's steps (the notations in an engine move's cascade_steps)")


class TurnRequest(Strict):
    """Exactly one of game and new, and optionally one action."""

    game: Optional[Dict[str, Any]] = Field(
        None, description="the game so far: the game record a previous answer returned, sent back unchanged")
    new: Optional[NewGame] = Field(None, description="a new game instead")
    action: Optional[TurnAction] = Field(None, description="what to do; left out, the answer describes the game "
                                         "as it is")


class PositionOut(BaseModel):
    """A position from one player's side (the answer says whose): in the project's JSON form with that
    player as player 0 (``checkers``, ``bar``, ``off``; send it back as a request's ``position``), and in
    the deprecated ``mine``/``theirs`` form (to be removed)."""

    variant: str
    rules: Dict[str, RuleValue]
    checkers: List[Counts] = Field(description="[this side's 24 counts, the other side's 24 counts]")
    bar: List[int]
    reserve: List[int] = Field(default_factory=lambda: [0, 0], description="checkers in reserve, not yet entered: "
                               "[this side, the other side] (Dutch backgammon and acey-deucey; [0, 0] elsewhere)")
    off: List[int]
    mine: Counts = Field(json_schema_extra={"deprecated": True}, description="deprecated: this side's 25 counts, the bar last")
    theirs: Counts = Field(json_schema_extra={"deprecated": True}, description="deprecated: the other side's 25 counts, the bar last")


class CascadeStepPlayOut(BaseModel):
    number: int = Field(description="the cascade number this step plays")
    notation: str = Field(description='the step\'s play, e.g. "24/20(4)"; "no move" when none of it could be played')
    steps: List[List[int]] = Field(description="[from, to] per checker step; 25 is the bar, 0 is off")
    hits: List[bool]
    moves_played: int = Field(description="moves of the number played (4, or fewer where the part ends)")
    position: PositionOut = Field(description="after the step, from the mover's side")


class MoveOut(BaseModel):
    notation: str = Field(description='"24/18 13/11", "bar/22*", "6/off", "reserve/20", "no move" for a pass; an '
                          'acey-deucey 1-2 names its number: "reserve/24 reserve/23 named 6: 24/18 23/17 reserve/19(2)"')
    steps: List[List[int]] = Field(description="[from, to] per checker step; 25 is the bar, 26 the reserve, 0 is off")
    hits: List[bool]
    is_pass: bool
    moves_played: int = Field(description="single checker moves played (0 to 4)")
    head_used: int = Field(description="checkers that left the head (nardy, gul bara); a cascade's total so far")
    position: PositionOut = Field(description="after the play, still from the mover's side")
    game_over: bool
    handover: List[List[int]] = Field(
        default_factory=list,
        description="a whole gul bara cascade part: the [die, count] moves passed to the opponent, in the order it "
        "plays them ([] when none, and for any other play)")
    cascade_steps: List[CascadeStepPlayOut] = Field(
        default_factory=list,
        description="a whole gul bara cascade part: each number's step in order ([] for any other play)")
    named: Optional[int] = Field(None, description="acey-deucey's 1-2: the number named after the 1 and the 2")
    rolls_again: bool = Field(False, description="acey-deucey's 1-2 played in full: the same player rolls again")


class PositionInfo(BaseModel):
    position: PositionOut
    dice: Optional[List[int]] = Field(None, description="the roll the position text carried, if any")
    pips: List[int] = Field(description="pip counts: [player on roll, opponent]")
    off: List[int] = Field(description="checkers borne off: [player on roll, opponent]")
    game_over: bool


class MovesOut(BaseModel):
    variant: str
    position: PositionOut = Field(description="the position as read, from the player on roll")
    dice: List[int]
    count: int
    moves: List[MoveOut]


class CascadeStepOut(BaseModel):
    variant: str
    position: PositionOut
    die: int
    count: int
    moves: List[MoveOut]


class GameResultOut(BaseModel):
    winner: Optional[int] = Field(description="the winning player (0 or 1); null for a draw")
    multiplier: int = Field(description="1 single (oin), 2 gammon (mars), 3 backgammon (koks); 0 for a draw")
    kind: str = Field(description='"single", "gammon", "backgammon", "oin", "mars", "koks" or "draw"')
    cube: int
    points: int = Field(description="multiplier times the game's cube (the record's cube: 1 unless doubled in it)")
    ending: str = Field(description='"bore_off", "cube_passed" or "draw"')


class GameStateOut(BaseModel):
    """A game as /v1/turn and /v1/match-turn answer it: what to draw and act on next."""

    variant: str
    phase: str = Field(description='"roll", "move" or "over" ("opening_roll" or "double_offered" for a record '
                       'that is in those)')
    turn: int = Field(description="the player (0 or 1) whose turn it is: who rolls or moves now (the winner once "
                      "over)")
    position: PositionOut = Field(description="the position seen from the player whose turn it is")
    pips: List[int] = Field(description="pip counts: [player whose turn it is, the other]")
    dice: Optional[List[int]] = Field(description="the roll being played; null before the roll")
    moves: List[MoveOut] = Field(
        description="the legal plays in the move phase (in a gul bara cascade: of the step being played), in the "
        "order play's index counts them; [] otherwise")
    cascade_step: Optional[List[int]] = Field(
        description="gul bara: [number, moves asked] of the cascade step being played; null outside a cascade")
    cascade_left: List[List[int]] = Field(
        description="gul bara: the [number, moves] still to play by the player whose turn it is, the current step "
        "first")
    is_cascade_handover: bool = Field(description="the player whose turn it is plays the moves the opponent's "
                                      "cascade passed on")
    rolls: int = Field(description="rolls made in the game so far")
    rolls_before: int = Field(description="rolls made before the one being played: the rolls that /v1/hint and "
                              "/v1/engine-move take")
    is_extra_roll: bool = Field(False, description="acey-deucey: the player on roll rolls again after a 1-2 played in "
                                "full (no double before this roll)")
    over: bool
    result: Optional[GameResultOut] = Field(description="how the game ended, once over")


class TurnOut(GameStateOut):
    game: Dict[str, Any] = Field(description="the game record after the action: send it back as game with the "
                                 "next action (it replays, tavla.Game.from_json reads it)")


class NewMatch(NewGame):
    """A new match (``match_length`` 1 to 64) or money session (``match_length`` 0): its first game from the
    start position (a ``position`` with only ``variant`` and ``rules``) or from a position given as
    ``/v1/turn``'s ``new`` takes it. A position text that records the cube and the stakes (an XGID, a JSON
    position with ``cube``, ``score``, ``match_length``...) gives them; a field here given as well must agree."""

    match_length: int = Field(0, ge=0, le=64, description="points to win the match; 0 for money play")
    crawford: bool = Field(True, description="the Crawford rule (match play)")
    crawford_game: bool = Field(False, description="the first game is the Crawford game (match play, a player one "
                                "point from winning)")
    score: List[Annotated[int, Field(ge=0, le=100000)]] = Field(
        default_factory=lambda: [0, 0], min_length=2, max_length=2,
        description="the score before the first game: [player 0, player 1] (money play: points won so far)")
    cube: bool = Field(True, description="play with the doubling cube")
    jacoby: bool = Field(False, description="the Jacoby rule (money play)")
    beaver: bool = Field(False, description="beavers allowed (money play)")
    max_cube: int = Field(64, ge=1, le=32768, description="the highest cube value (a power of two)")


def must_be_true(value: bool) -> bool:
    if value is not True:
        raise PydanticCustomError("yes", "give true to ask for this action")
    return value


# An action asked for by naming it: ``"double": true`` (strict: no 1, no "true", and false is refused).
Yes = Annotated[bool, AfterValidator(must_be_true), WithJsonSchema({"const": True})]


class MatchAction(TurnAction):
    """Exactly one of roll, play, plays, double, take, beaver, drop and next_game."""

    double: Optional[Yes] = Field(None, description="the player whose turn it is doubles (before its roll)")
    take: Optional[Yes] = Field(None, description="the player doubled takes: it owns the cube at twice the "
                                          "value, and the doubler rolls")
    beaver: Optional[Yes] = Field(None, description="the player doubled takes and redoubles at once, keeping "
                                            "the cube (money play with beavers)")
    drop: Optional[Yes] = Field(None, description="the player doubled passes: the doubler wins the game at "
                                          "the cube's value before the double")
    next_game: Optional[Yes] = Field(None, description="start the next game once this one is over (the "
                                               "match not yet won)")


class MatchTurnRequest(Strict):
    """Exactly one of match and new, and optionally one action."""

    match: Optional[Dict[str, Any]] = Field(
        None, description="the match so far: the match record a previous answer returned, sent back unchanged")
    new: Optional[NewMatch] = Field(None, description="a new match or money session instead")
    action: Optional[MatchAction] = Field(None, description="what to do; left out, the answer describes the match "
                                          "as it is")


class MatchCubeOut(BaseModel):
    value: int
    owner: Optional[int] = Field(description="the player (0 or 1) who owns the cube; null while centered")
    enabled: bool = Field(description="the game is played with the cube")
    max_cube: int
    jacoby: bool
    beaver: bool


class CubeStateOut(BaseModel):
    """A cube state in the form /v1/cube, /v1/hint and /v1/engine-move take as ``cube``."""

    value: int
    owner: Optional[Literal["me", "opponent"]] = Field(description="seen from the player whose turn it is")
    match_length: int
    score: List[int] = Field(description="[player whose turn it is, the other]")
    crawford: bool
    jacoby: bool
    beaver: bool
    max_cube: int


class MatchTurnOut(GameStateOut):
    match: Dict[str, Any] = Field(description="the match record after the action: send it back as match with the next "
                                  "action (tavla.Match.from_json reads it)")
    match_length: int = Field(description="points to win; 0 for a money session")
    money: bool
    score: List[int] = Field(description="[player 0, player 1], counting the current game once it is over (money: "
                             "the points won in the session)")
    game_number: int = Field(description="the current game's number, from 1")
    games: List[GameResultOut] = Field(description="the results of the games finished before the current one")
    crawford_rule: bool
    crawford: bool = Field(description="the current game is the Crawford game: nobody may double")
    post_crawford: bool = Field(description="the current game comes after the Crawford game")
    next_is_crawford: bool = Field(description="the current game is over and the next is the Crawford game")
    cube: MatchCubeOut
    cube_state: CubeStateOut = Field(description="the cube seen from the player whose turn it is (the doubler while a "
                                     "double is offered): send it as cube to /v1/cube, /v1/hint and /v1/engine-move")
    double_offered: bool
    decider: Optional[int] = Field(description="the player who must answer the double on offer; null when none")
    may_double: bool = Field(description="the player whose turn it is may double now")
    why_no_double: Optional[str] = Field(description="why it may not (null when it may)")
    may_beaver: bool = Field(description="the player doubled may beaver now")
    why_no_beaver: Optional[str] = Field(description="why it may not (null when it may; also when no double is "
                                         "offered, the reason says so)")
    actions: List[str] = Field(description='the actions the game takes now: "roll", "play" (or plays), "double", '
                               '"take", "beaver", "drop", "next_game"')
    match_over: bool
    winner: Optional[int] = Field(description="the match's winner once over; null before, and always in money play")


class Probabilities(BaseModel):
    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float


class EvaluationOut(BaseModel):
    probabilities: Probabilities
    equity: float


class CandidateOut(BaseModel):
    rank: int
    move: MoveOut
    equity: float
    diff: float = Field(description="equity minus the first (best) candidate's equity: 0 for the best; plays the "
                        "move filter judged at a lower ply may come out above it")
    ply: Optional[int] = Field(None, description="the ply this play was judged at (lower for plays the move filter cut)")
    probabilities: Probabilities
    mwc: Optional[float] = Field(None, description="match winning chance after the play (cubeful ranking in a match)")


class HintOut(BaseModel):
    variant: str
    dice: List[int]
    ply: int
    cubeful: bool = Field(False, description="whether the equities are cubeful (a cube state was given)")
    cube: Optional[CubeOut] = None
    candidates: List[CandidateOut]
    time_ms: float


class EngineMoveOut(BaseModel):
    variant: str
    dice: List[int]
    ply: int
    cubeful: bool = Field(False, description="whether the play was chosen by cubeful equity")
    cube: Optional[CubeOut] = None
    move: MoveOut
    time_ms: float


class HandoverOut(BaseModel):
    variant: str
    ply: int
    handover: List[List[int]] = Field(description="the handover played, as requested")
    move: MoveOut = Field(description="the opponent's best share: its steps in cascade_steps; position is after the "
                          "share, from the side of the player who played it (it rolls next)")
    time_ms: float


class CubeMwc(BaseModel):
    no_double: float
    double_take: float
    double_pass: float


class CubeDecisionOut(BaseModel):
    variant: str
    ply: int
    cube: CubeOut
    action: str = Field(description='the proper action in words: "double, take", "no redouble, take", "too good, pass", '
                        '"no double available", ...')
    should_double: bool
    should_take: bool = Field(description="whether the opponent should take a double")
    should_beaver: bool = Field(description="whether the opponent should beaver (money play with beavers)")
    no_double: float = Field(description="cubeful equity without doubling, normalized to the cube, for the player on roll")
    double_take: float
    double_pass: float
    equity: float = Field(description="the cubeful equity after the best action (the opponent answering best)")
    mwc: Optional[CubeMwc] = Field(None, description="match winning chances of the three (null in money play)")
    evaluation: EvaluationOut = Field(description="the cubeless evaluation")
    double_offered: bool = Field(False, description="whether the position text records a double already offered")
    time_ms: float


class EvaluateOut(EvaluationOut):
    variant: str
    ply: int
    time_ms: float


class HealthOut(BaseModel):
    status: str
    engine: bool = Field(description="whether the engine routes (hint, evaluate, engine-move, handover, cube) "
                                     "answer: always true, every build has the engine")
    workers: int
    busy: int = Field(description="engine calls running or waiting now")


class VersionOut(BaseModel):
    tavla: str
    api: str
    variants: List[str] = Field(description="the variants this service plays (a position's \"variant\"), "
                                            "the reserve games dutch and acey_deucey included")
    formats: Dict[str, bool] = Field(description="which position text formats this build reads")
    default_ply: int
    max_ply: int
    time_limit_s: float


class ErrorOut(BaseModel):
    error: str = Field(description="what is wrong, in words")


# ----- jobs: match analysis -----

MAX_MATCH_TEXT = 4 << 20  # characters of a match file (tavla analyze's limit)


class AnalysisRequest(Strict):
    """A match file to analyse, as ``tavla analyze`` does."""

    mat: str = Field(max_length=MAX_MATCH_TEXT, description="the match file's text: a Jellyfish .mat, a GNU "
                     "Backgammon .sgf, or a match text of long nardy, gul bara, Dutch backgammon or acey-deucey (its Variation tag)")
    format: Optional[Literal["mat", "sgf", "text"]] = Field(
        None, description="the file's format; by default detected from its content")
    ply: Optional[int] = Field(None, ge=0, le=4, description="analysis ply (default: the service's default "
                               "ply), at most the service's maximum")
    decisions: bool = Field(False, description="include every decision and every roll's luck in the result")


class JobOut(BaseModel):
    id: str = Field(description="the job's id: GET /v1/analyses/{id} polls it, DELETE cancels it")
    kind: str = Field(description='what the job does: "analysis" or "rollout"')
    state: Literal["queued", "running", "done", "failed", "cancelled"]
    done: int = Field(description="steps done (games analysed; trials played)")
    total: int = Field(description="steps in all (games in the match; trials asked), 0 until known")
    result: Optional[Dict[str, Any]] = Field(
        None, description="once done: for an analysis what `tavla analyze FILE --json` prints (match_length, "
        "final_score, players; with decisions, every decision and roll too); for a rollout "
        "`RolloutResult.to_dict()` (probabilities, equity, its standard error and 95% interval, cubeful "
        "equity when asked, trials played)")
    error: Optional[str] = Field(None, description="why a failed or cancelled job stopped")


# ----- jobs: rollouts -----

MAX_SERVICE_ROLLOUT_TRIALS = 100_000


class RolloutRequest(PositionSource):
    """A position (the player on roll, before its roll) to roll out, as ``tavla rollout`` does."""

    trials: int = Field(1296, ge=1, le=MAX_SERVICE_ROLLOUT_TRIALS, description="games to play out")
    seed: int = Field(0, ge=0, le=2**63 - 1, description="the dice: the same seed, the same answer")
    ply: int = Field(0, ge=0, le=2, description="the rollout players' checker ply (at most the service's maximum)")
    cube_ply: int = Field(0, ge=0, le=2, description="the ply of the probabilities the cubeful trials' cube "
                          "decisions see (apart from the checker ply; at most the service's maximum)")
    cube: Optional[CubeIn] = Field(None, description="roll out cubefully under this cube state too (each side's "
                                   "cube decisions by the 0-ply cube model); else the position's own, else cubeless")
    variance_reduction: bool = Field(False, description="subtract each roll's luck (gnubg's variance reduction)")
    truncate: Optional[int] = Field(None, ge=1, le=1000, description="score each trial by the evaluator after "
                                    "this many rolls")
    stop_at_bearoff: bool = Field(False, description="score a trial by the exact bear-off tables once they cover it")
    target_error: Optional[float] = Field(None, gt=0, le=1, description="stop once the equity's standard error "
                                          "is at most this (checked every 144 trials)")
    rolls: Optional[int] = Field(None, ge=0, le=100000, description=ROLLS_FIELD)
