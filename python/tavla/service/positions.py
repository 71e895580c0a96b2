"""Every way a request can name a position, turned into a ``tavla.Position`` in one place.

A ``position`` object is the project's one JSON position form, read by ``tavla.formats.parse`` as
the package and the command line read it (the older ``mine``/``theirs`` form is still read, and
``DeprecationHeaders`` marks the answer). XGID, GNU Backgammon IDs and FIBS boards are read by the
same ``tavla.formats.parse``; ``FORMAT_SHAPES`` says what each field's text must look like, so that an
XGID sent as ``gnubg_id`` (or anything else in the wrong field) is refused rather than read as
something the client did not mean.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field as dataclass_field
from typing import Any, Callable, Optional, Sequence

import tavla
import tavla.formats

from ..cube_view import text_carries_cube
from .schemas import PROJECT_CONTEXT_KEYS, CascadeStepPlayOut, MoveOut, PlainPosition, PositionOut, PositionSource


class BadInput(ValueError):
    """A request names an impossible or unreadable position, dice or option (answered 422)."""


# request field -> (pattern the text must match, what it should look like, in words)
FORMAT_SHAPES: dict[str, tuple[re.Pattern, str]] = {
    "xgid": (re.compile(r"^(XGID=)?[^:]*(:[^:]*){9}$"), "XGID=<26 board characters>:cube:owner:turn:dice:..."),
    "gnubg_id": (re.compile(r"^[A-Za-z0-9+/]{14}(:[A-Za-z0-9+/]{12})?$"),
                 "a 14-character Position ID, optionally followed by :<12-character Match ID>"),
    "fibs": (re.compile(r"^board:[^:]*:[^:]*(:-?[0-9]+){20,}$"), "board:<you>:<opponent>:<match length>:..."),
}


def available_formats() -> dict[str, bool]:
    return {"plain": True, **{field: True for field in FORMAT_SHAPES}}


@dataclass(frozen=True)
class Parsed:
    position: tavla.Position
    dice: Optional[tuple[int, int]]  # when the text itself carries a roll (XGID does)
    # What the text records beyond the checkers (``tavla.formats.parse``'s mapping: cube, score,
    # turn...), when the text records the cube and the stakes; None for the plain form.
    info: Optional[Mapping] = dataclass_field(default=None, compare=False)


def parse_source(source: PositionSource) -> Parsed:
    """The position a request names; exactly one of its position fields must be given."""
    given = [name for name in ("position", "xgid", "gnubg_id", "fibs") if getattr(source, name) is not None]
    if len(given) != 1:
        named = ", ".join(given) if given else "none"
        raise BadInput(f"give exactly one of position, xgid, gnubg_id or fibs (given: {named})")
    if source.position is not None:
        return json_position(source.position)
    field = given[0]
    return read_text_format(field, getattr(source, field))


def json_position(plain: PlainPosition) -> Parsed:
    """A ``position`` object: the project's JSON form, or the deprecated ``mine``/``theirs`` form
    (both given, as an answer's ``position`` carries them, they must name the same position)."""
    legacy = legacy_position(plain) if plain.is_legacy else None
    form = plain.project_form()
    if legacy is not None and "checkers" not in form:
        context = [k for k in form if k in PROJECT_CONTEXT_KEYS or k in ("bar", "off")]
        if context:
            raise BadInput(f"position: {', '.join(context)} belong to the checkers form; write checkers and bar "
                           "instead of the deprecated mine and theirs")
        return Parsed(legacy, None)
    if "checkers" not in form:
        # The start position (its reserve too), with whatever context the request gives (dice, cube, score).
        start = json.loads(tavla.formats.to_json(start_position(plain)))
        form = {**{k: start[k] for k in ("checkers", "reserve") if k in start}, **form}
    text = json.dumps(form)
    try:
        result = tavla.formats.parse(text)
    except ValueError as e:
        raise BadInput(f"position: {e}") from None
    position = result["position"]
    if legacy is not None and legacy != position:
        raise BadInput("position: checkers and bar and the deprecated mine and theirs name different positions; "
                       "give one form")
    info = result if text_carries_cube(text) else None
    return Parsed(position, normal_dice(result.get("dice")), info)


def start_position(plain: PlainPosition) -> tavla.Position:
    try:
        return tavla.Position.start(plain.variant, **plain.rules)
    except ValueError as e:
        raise BadInput(f"position: {e}") from None


def legacy_position(plain: PlainPosition) -> tavla.Position:
    if (plain.mine is None) != (plain.theirs is None):
        raise BadInput("give both mine and theirs, or neither for the start position")
    try:
        return tavla.Position.from_arrays(plain.variant, plain.mine, plain.theirs, **plain.rules)
    except ValueError as e:
        raise BadInput(f"position: {e}") from None


def read_text_format(field: str, text: str) -> Parsed:
    text = text.strip()
    pattern, shape = FORMAT_SHAPES[field]
    if not pattern.match(text):
        raise BadInput(f"{field} {text[:60]!r} does not look like {shape}")
    try:
        result = tavla.formats.parse(text)
    except ValueError as e:
        raise BadInput(f"{field}: {e}") from None
    parsed = parsed_from_reader(field, result)
    if isinstance(result, Mapping) and text_carries_cube(text):
        return Parsed(parsed.position, parsed.dice, result)
    return parsed


def parsed_from_reader(field: str, result: Any) -> Parsed:
    """A reader may answer a Position, a mapping (as ``tavla.formats.parse`` does) or an object
    or tuple holding the position and the dice."""
    if isinstance(result, Mapping) and isinstance(result.get("position"), tavla.Position):
        return Parsed(result["position"], normal_dice(result.get("dice")))
    if isinstance(result, tuple) and result and isinstance(result[0], tavla.Position):
        dice = result[1] if len(result) > 1 else None
        return Parsed(result[0], normal_dice(dice))
    if isinstance(result, tavla.Position):
        return Parsed(result, None)
    position = getattr(result, "position", None)
    if isinstance(position, tavla.Position):
        return Parsed(position, normal_dice(getattr(result, "dice", None)))
    raise BadInput(f"{field} could not be read into a position")


def normal_dice(dice: Any) -> Optional[tuple[int, int]]:
    """Two dice 1..6, or None when the text says no roll yet (XGID writes 00)."""
    if not dice:
        return None
    d1, d2 = (int(d) for d in dice)
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        return None
    return d1, d2


def roll_for(parsed: Parsed, dice: Optional[Sequence[int]]) -> tuple[int, int]:
    """The request's dice, else the dice the position text carried."""
    if dice is not None:
        return dice[0], dice[1]
    if parsed.dice is not None:
        return parsed.dice
    raise BadInput("dice are missing: give dice as [d1, d2] with each 1..6")


def position_out(position: tavla.Position) -> PositionOut:
    mine, theirs = position.to_arrays()
    return PositionOut(variant=position.variant, rules=dict(position.rules), checkers=[list(mine[:24]), list(theirs[:24])],
                       bar=[mine[24], theirs[24]], reserve=list(position.reserve), off=list(position.off),
                       mine=list(mine), theirs=list(theirs))


def move_out(move: Any) -> MoveOut:
    return MoveOut(
        notation=move.notation,
        steps=[[a, b] for a, b in move.steps],
        hits=list(move.hits),
        is_pass=move.is_pass(),
        moves_played=move.moves_played,
        head_used=move.head_used,
        position=position_out(move.position),
        game_over=move.position.is_game_over(),
        handover=[[die, count] for die, count in getattr(move, "handover", ())],
        cascade_steps=[cascade_step_out(number, step) for number, step in getattr(move, "cascade_steps", ())],
        named=getattr(move, "named", None),
        rolls_again=getattr(move, "rolls_again", False),
    )


def cascade_step_out(number: int, step: Any) -> CascadeStepPlayOut:
    return CascadeStepPlayOut(number=number, notation=step.notation, steps=[[a, b] for a, b in step.steps],
                              hits=list(step.hits), moves_played=step.moves_played,
                              position=position_out(step.position))
