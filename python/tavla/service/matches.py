"""/v1/match-turn: a match (or a money session) with the cube, carried by its record, one action at a time.

Every action is played by ``tavla.Match``, whose games are ``tavla.Game``s, so the rules of the match and the
cube are the engine's: who may double and why not, take, beaver and drop, the Crawford game and post-Crawford,
the cube's limit, Jacoby, the points a game scores and who wins the match. The service keeps nothing between
requests: the request carries the match record a previous answer returned (or a new match), the answer the
record after the action with everything a client needs to draw it and act next.
"""

from __future__ import annotations

import json
from typing import Any, Literal, Optional

import tavla
from tavla import formats

from ..cube_view import cube_for_game, game_cube_rules
from .games import PAST_FIRST_ROLLS, act, game_state, is_opening, turn_of
from .positions import BadInput, parse_source
from .schemas import (
    CubeStateOut,
    GameResultOut,
    MatchAction,
    MatchCubeOut,
    MatchTurnOut,
    MatchTurnRequest,
    NewMatch,
    TurnAction,
)

OWNERS: dict[Optional[str], Optional[Literal["me", "opponent"]]] = {"me": "me", "opponent": "opponent", None: None}
CUBE_ACTIONS = ("double", "take", "beaver", "drop", "next_game")
MOVE_ACTIONS = ("roll", "play", "plays")
# The settings that belong to money play alone.
MONEY_ONLY = ("jacoby", "beaver")


def match_for(request: MatchTurnRequest) -> Any:
    """The request's match: its record replayed, or a new one."""
    if (request.match is None) == (request.new is None):
        given = "both" if request.match is not None else "neither"
        raise BadInput(f"give exactly one of match (the record a previous answer returned) or new (a new match); "
                       f"given: {given}")
    if request.new is not None:
        return new_match(request.new)
    try:
        return tavla.Match.from_json(json.dumps(request.match))
    except ValueError as e:
        raise BadInput(f"match: {e}") from None


def check_stakes(new: NewMatch, money: bool) -> None:
    """The settings that belong to one kind of play only, refused in the other, naming the field."""
    given = new.model_fields_set
    if money:
        if "crawford" in given and new.crawford:
            raise BadInput("new.crawford: the Crawford rule belongs to match play (match_length 1 or more)")
        if new.crawford_game:
            raise BadInput("new.crawford_game: the Crawford game belongs to match play (match_length 1 or more)")
    else:
        for name in MONEY_ONLY:
            if getattr(new, name):
                rule = "the Jacoby rule belongs" if name == "jacoby" else "beavers belong"
                raise BadInput(f"new.{name}: {rule} to money play (match_length 0), not to a "
                               f"{new.match_length}-point match")


def new_match(new: NewMatch) -> Any:
    turn = turn_of(new)
    try:
        parsed = parse_source(new)
    except BadInput as e:
        raise BadInput(f"new: {e}") from None
    opening = new.position if new.position is not None and is_opening(new.position) else None
    if opening is not None and not new.rolls and new.starter in (None, turn):
        check_stakes(new, new.match_length == 0)
        rules: dict[str, Any] = dict(opening.rules)
        variant = parsed.position.variant
        try:
            if new.match_length == 0:
                m = tavla.Match.money(variant, cube=new.cube, beaver=new.beaver, jacoby=new.jacoby,
                                      max_cube=new.max_cube, score=(new.score[0], new.score[1]), **rules)
            else:
                m = tavla.Match(variant, new.match_length, crawford=new.crawford, cube=new.cube,
                                max_cube=new.max_cube, score=(new.score[0], new.score[1]),
                                crawford_game=new.crawford_game, **rules)
            m.begin(turn)
        except ValueError as e:
            raise BadInput(f"new: {e}") from None
        return m
    form = position_form(new, parsed, turn)
    check_stakes(new, form["match_length"] == 0)
    rolls = new.rolls if new.rolls is not None else (0 if opening is not None else PAST_FIRST_ROLLS)
    try:
        return tavla.Match.from_position(json.dumps(form), crawford=new.crawford, rolls=rolls, starter=new.starter)
    except ValueError as e:
        raise BadInput(f"new: {e}") from None


def position_form(new: NewMatch, parsed: Any, turn: int) -> dict[str, Any]:
    """The first game's position in the project's JSON form with its cube and stakes: those the position text
    records, and new's fields (which must agree with the text where both name one)."""
    info = parsed.info or {}
    recorded = {
        "match_length": info.get("match_length"),
        "score": list(info["score"]) if info.get("score") is not None else None,
        "crawford_game": info.get("crawford"),
        "jacoby": info.get("jacoby"),
        "beaver": info.get("beaver"),
        "max_cube": info.get("max_cube"),
    }
    if new.position is not None:
        # A JSON position records only the keys it gives.
        plain = new.position
        keys = {"match_length": "match_length", "score": "score", "crawford_game": "crawford"}
        cube_rules = plain.cube_rules
        for name in [n for n, key in keys.items() if key not in plain.model_fields_set]:
            recorded[name] = None
        for name, key in (("jacoby", "jacoby"), ("beaver", "beaver"), ("max_cube", "max_value")):
            if cube_rules is None or getattr(cube_rules, key) is None:
                recorded[name] = None
    given = new.model_fields_set
    stakes: dict[str, Any] = {}
    for name, value in recorded.items():
        mine = getattr(new, name)
        if parsed.info is not None and value is not None:
            if name in given and mine != value:
                raise BadInput(f"new.{name} {json.dumps(mine)} and the position's {json.dumps(value)} disagree; "
                               f"give one")
            stakes[name] = value
        else:
            stakes[name] = mine
    money = stakes["match_length"] == 0
    try:
        text = formats.to_json(
            parsed.position, turn=turn, dice=parsed.dice, cube_value=int(info.get("cube_value") or 1),
            cube_owner=info.get("cube_owner"), match_length=stakes["match_length"],
            score=tuple(stakes["score"]) if not money else (0, 0), crawford=bool(stakes["crawford_game"]),
            double_offered=bool(info.get("double_offered")), jacoby=bool(stakes["jacoby"]),
            beaver=bool(stakes["beaver"]), max_cube=stakes["max_cube"],
            extra_roll=bool(new.position is not None and new.position.extra_roll))
    except ValueError as e:
        raise BadInput(f"new: {e}") from None
    form = json.loads(text)
    recorded_enabled = new.position.cube_rules.enabled if new.position is not None and new.position.cube_rules else None
    if recorded_enabled is not None and "cube" in given and recorded_enabled != new.cube:
        raise BadInput(f"new.cube {json.dumps(new.cube)} and the position's cube_rules.enabled "
                       f"{json.dumps(recorded_enabled)} disagree; give one")
    form["cube_rules"]["enabled"] = new.cube if recorded_enabled is None else recorded_enabled
    if money and stakes["score"] != [0, 0] and "score" in given:
        raise BadInput("new.score: a money session from a position starts at 0 : 0")
    return form


def match_act(match: Any, action: MatchAction) -> None:
    """Plays the action on the match; a refused one answers 422 naming the action's field and the match's reason."""
    given = [name for name in (*MOVE_ACTIONS, *CUBE_ACTIONS) if getattr(action, name) is not None]
    if len(given) != 1:
        raise BadInput(f"action: give exactly one of {', '.join(MOVE_ACTIONS + CUBE_ACTIONS)} "
                       f"(given: {', '.join(given) or 'none'})")
    name = given[0]
    if name in MOVE_ACTIONS:
        if action.roll is not None and match.game.phase == "opening_roll":
            # A game that opens with a roll-off (after a draw, or a match's first game replayed so): roll[p]
            # is player p's die.
            try:
                match.roll_off((action.roll[0], action.roll[1]))
            except ValueError as e:
                raise BadInput(f"action.roll: {e}") from None
            return
        act(match, TurnAction(**{name: getattr(action, name)}))
        return
    try:
        getattr(match, name)()
    except ValueError as e:
        raise BadInput(f"action.{name}: {e}") from None


def actions_now(match: Any, game: Any) -> list[str]:
    """The actions the match takes now, by the game's phase and the game's own checks."""
    phase = game.phase
    if phase == "opening_roll":
        return ["roll"]
    if phase == "roll":
        return ["roll", "double"] if game.may_double else ["roll"]
    if phase == "move":
        return ["play"]
    if phase == "double_offered":
        return ["take", "beaver", "drop"] if game.why_no_beaver() is None else ["take", "drop"]
    return [] if match.is_over else ["next_game"]


def result_out(result: Optional[dict]) -> Optional[GameResultOut]:
    return GameResultOut(**result) if result else None


def match_out(match: Any) -> MatchTurnOut:
    game = match.game
    rules = game_cube_rules(game)
    seen = cube_for_game(game, game.turn, rules)
    why_beaver = game.why_no_beaver()
    why_double = game.why_no_double()
    finished = [result_out(g.result) for g in match.finished_games]
    return MatchTurnOut(
        match=json.loads(match.to_json()), **game_state(game),
        match_length=match.length, money=match.is_money, score=list(match.score), game_number=match.game_number,
        games=[r for r in finished if r is not None], crawford_rule=match.crawford_rule, crawford=match.is_crawford,
        post_crawford=match.is_post_crawford, next_is_crawford=match.next_is_crawford,
        cube=MatchCubeOut(value=game.cube_value, owner=game.cube_owner, enabled=rules["enabled"],
                          max_cube=rules["max_value"], jacoby=rules["jacoby"], beaver=rules["beaver"]),
        cube_state=CubeStateOut(value=seen.value, owner=OWNERS[seen.owner], match_length=seen.match_length,
                                score=list(seen.score), crawford=seen.crawford, jacoby=seen.jacoby,
                                beaver=seen.beaver, max_cube=seen.max_cube),
        double_offered=game.phase == "double_offered", decider=game.decider,
        may_double=why_double is None, why_no_double=why_double,
        may_beaver=why_beaver is None, why_no_beaver=why_beaver,
        actions=actions_now(match, game), match_over=match.is_over, winner=match.winner)


def play_match_turn(request: MatchTurnRequest) -> MatchTurnOut:
    match = match_for(request)
    if request.action is not None:
        match_act(match, request.action)
    return match_out(match)
