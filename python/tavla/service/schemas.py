"""The JSON shapes of requests and answers (they make up the OpenAPI schema)."""

from __future__ import annotations

from typing import Dict, List, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import Annotated

Die = Annotated[int, Field(ge=1, le=6)]
Count = Annotated[int, Field(ge=0, le=15)]
CountsIn = Annotated[List[Count], Field(min_length=25, max_length=25)]
Counts = List[int]
RuleValue = Union[bool, int, str]


class Strict(BaseModel):
    # Unknown fields are refused so that a typo ("postion") is reported, not ignored.
    model_config = ConfigDict(extra="forbid")


class PlainPosition(Strict):
    """The project's plain form, always from the player on roll."""

    variant: Literal["backgammon", "nardy", "gulbara"] = Field("backgammon")
    mine: Optional[CountsIn] = Field(
        None,
        description="the player on roll: 25 counts in its own numbering (index i = point i+1, index 24 = bar); "
        "leave out mine and theirs for the start position",
    )
    theirs: Optional[CountsIn] = Field(None, description="the opponent: 25 counts in its own numbering")
    rules: Dict[str, RuleValue] = Field(default_factory=dict, description="rule options as RULES.md names them")


class PositionSource(Strict):
    """Exactly one of position, xgid and gnubg_id names the position."""

    position: Optional[PlainPosition] = None
    xgid: Optional[str] = Field(None, max_length=200, description="eXtreme Gammon XGID (backgammon)")
    gnubg_id: Optional[str] = Field(
        None, max_length=200, description="GNU Backgammon 'PositionID:MatchID' or PositionID alone (backgammon)"
    )


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


class HintRequest(DiceRequest):
    ply: Optional[int] = Field(None, ge=0, description="search depth; the service's default when left out")
    top: int = Field(5, ge=1, description="how many candidates to answer")


class EngineMoveRequest(DiceRequest):
    ply: Optional[int] = Field(None, ge=0)


class EvaluateRequest(PositionSource):
    ply: Optional[int] = Field(None, ge=0)


class PositionOut(BaseModel):
    variant: str
    mine: Counts
    theirs: Counts
    rules: Dict[str, RuleValue]


class MoveOut(BaseModel):
    notation: str = Field(description='"24/18 13/11", "bar/22*", "6/off", "no move" for a pass')
    steps: List[List[int]] = Field(description="[from, to] per checker step; 25 is the bar, 0 is off")
    hits: List[bool]
    is_pass: bool
    moves_played: int = Field(description="single checker moves played (0 to 4)")
    head_used: int = Field(description="checkers that left the head (nardy, gul bara); a cascade's total so far")
    position: PositionOut = Field(description="after the play, still from the mover's side")
    game_over: bool


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


class HintOut(BaseModel):
    variant: str
    dice: List[int]
    ply: int
    candidates: List[CandidateOut]
    time_ms: float


class EngineMoveOut(BaseModel):
    variant: str
    dice: List[int]
    ply: int
    move: MoveOut
    time_ms: float


class EvaluateOut(EvaluationOut):
    variant: str
    ply: int
    time_ms: float


class HealthOut(BaseModel):
    status: str
    engine: bool = Field(description="whether tavla.Engine is available (hint, evaluate, engine-move)")
    workers: int
    busy: int = Field(description="engine calls running or waiting now")


class VersionOut(BaseModel):
    tavla: str
    api: str
    variants: List[str]
    formats: Dict[str, bool] = Field(description="which position text formats this build reads")
    default_ply: int
    max_ply: int
    time_limit_s: float


class ErrorOut(BaseModel):
    error: str = Field(description="what is wrong, in words")
