"""/v1/turn: a whole game carried by its record, one action at a time.

Every action is played by ``tavla.Game``, whose turns go through the engine's one turn driver, so the
service (and the board that calls it) keeps no rules of its own: who is on turn, the gul bara cascade's
steps and hand-overs, the rolls counted, the legal plays and the result all come from the game. The
service keeps nothing between requests: the request carries the game record a previous answer returned
(or a new game), the answer the record after the action.
"""

from __future__ import annotations

import json
from typing import Any

import tavla

from .positions import BadInput, move_out, parse_source, position_out
from .schemas import GameResultOut, NewGame, PlainPosition, TurnAction, TurnOut, TurnRequest

# The rolls a game from a given position is taken to have had when the request names none: well past the
# first rolls of any rule setting, so that a gul bara double cascades (the board's pasted positions).
PAST_FIRST_ROLLS = 1000


def game_for(request: TurnRequest) -> Any:
    """The request's game: its record replayed, or a new game."""
    if (request.game is None) == (request.new is None):
        given = "both" if request.game is not None else "neither"
        raise BadInput(f"give exactly one of game (the record a previous answer returned) or new (a new game); "
                       f"given: {given}")
    if request.new is not None:
        return new_game(request.new)
    try:
        return tavla.Game.from_json(json.dumps(request.game))
    except ValueError as e:
        raise BadInput(f"game: {e}") from None


def new_game(new: NewGame) -> Any:
    turn = turn_of(new)
    try:
        parsed = parse_source(new)
    except BadInput as e:
        raise BadInput(f"new: {e}") from None
    position = parsed.position
    # A start position: the variant's opening, named by its variant and rules alone.
    opening = new.position if new.position is not None and is_opening(new.position) else None
    start = opening is not None
    try:
        if opening is not None and not new.rolls and new.starter in (None, turn):
            rules: dict[str, Any] = dict(opening.rules)
            game = tavla.Game(position.variant, **rules)
            game.begin(turn)
            return game
        from tavla import formats

        rolls = new.rolls if new.rolls is not None else (0 if start else PAST_FIRST_ROLLS)
        # Acey-deucey's extra roll after a 1-2 (only a JSON position says it).
        extra_roll = bool(new.position is not None and new.position.extra_roll)
        text = formats.to_json(position, turn=turn, dice=parsed.dice, extra_roll=extra_roll)
        return tavla.Game.from_position(text, rolls=rolls, starter=new.starter)
    except ValueError as e:
        raise BadInput(f"new: {e}") from None


def is_opening(position: PlainPosition) -> bool:
    """A position object naming only its variant and rules (and perhaps whose turn it is)."""
    return position.model_fields_set <= {"variant", "rules", "turn"}


def turn_of(new: NewGame) -> int:
    """The player on turn, whose side the position is read from: the position object's ``turn`` (its
    checkers then in player order), else ``new.turn`` (the position's first side is that player, as in
    an answer's ``position``); they must agree when both are given."""
    form_turn = new.position.turn if new.position is not None else None
    if form_turn is not None and "turn" in new.model_fields_set and form_turn != new.turn:
        raise BadInput(f"new: turn {new.turn} and position.turn {form_turn} disagree; give one")
    return form_turn if form_turn is not None else new.turn


def act(game: Any, action: TurnAction) -> None:
    """Plays the action on the game; a refused one answers 422 naming the action's field and the game's
    reason (the whole request fails: nothing of a list of plays is kept)."""
    given = [name for name in ("roll", "play", "plays") if getattr(action, name) is not None]
    if len(given) != 1:
        raise BadInput(f"action: give exactly one of roll, play or plays (given: {', '.join(given) or 'none'})")
    if action.roll is not None:
        try:
            game.roll((action.roll[0], action.roll[1]))
        except ValueError as e:
            raise BadInput(f"action.roll: {e}") from None
        return
    plays = [("action.play", action.play)] if action.play is not None else [
        (f"action.plays.{k}", play) for k, play in enumerate(action.plays or [])]
    for field, play in plays:
        try:
            game.play(play)
        except ValueError as e:
            raise BadInput(f"{field}: {e}") from None


def turn_out(game: Any) -> TurnOut:
    """Everything a client needs to draw the game and act next, with the record to send back."""
    return TurnOut(game=json.loads(game.to_json()), **game_state(game))


def game_state(game: Any) -> dict[str, Any]:
    """The fields of ``GameStateOut``: what to draw and act on next."""
    position = game.position
    phase = game.phase
    step = game.cascade_step
    result = game.result
    return dict(
        variant=game.variant, phase=phase, turn=game.turn,
        position=position_out(position), pips=list(position.pip_count()),
        dice=list(game.dice) if game.dice else None,
        moves=[move_out(m) for m in game.legal_moves()] if phase == "move" else [],
        cascade_step=list(step) if step else None, cascade_left=[list(s) for s in game.cascade_left],
        is_cascade_handover=game.is_cascade_handover, rolls=game.rolls, rolls_before=game.rolls_before,
        is_extra_roll=game.is_extra_roll, over=game.is_over, result=GameResultOut(**result) if result else None)


def play_turn(request: TurnRequest) -> TurnOut:
    game = game_for(request)
    if request.action is not None:
        act(game, request.action)
    return turn_out(game)
