"""Every way a request can name a position, turned into a ``tavla.Position`` in one place.

The plain JSON form is read here. XGID and GNU Backgammon IDs are read by the project's
formats module (``tavla.formats.parse``) when this build has it: ``FORMAT_READERS`` lists, per
request field, the module and the function names tried, and ``FORMAT_SHAPES`` what the text must
look like, so that an XGID sent as ``gnubg_id`` (or anything else in the wrong field) is refused
rather than read as something the client did not mean. Without the formats module the service
answers that the format is not available (422); it never guesses.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field as dataclass_field
from typing import Any, Callable, Optional, Sequence

import tavla

from ..cube_view import text_carries_cube
from .schemas import CascadeStepPlayOut, MoveOut, PlainPosition, PositionOut, PositionSource


class BadInput(ValueError):
    """A request names an impossible or unreadable position, dice or option (answered 422)."""


# request field -> (module, candidate function names); the first one found is used.
FORMAT_READERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "xgid": ("tavla.formats", ("parse",)),
    "gnubg_id": ("tavla.formats", ("parse",)),
}

# request field -> (pattern the text must match, what it should look like, in words)
FORMAT_SHAPES: dict[str, tuple[re.Pattern, str]] = {
    "xgid": (re.compile(r"^(XGID=)?[^:]*(:[^:]*){9}$"), "XGID=<26 board characters>:cube:owner:turn:dice:..."),
    "gnubg_id": (re.compile(r"^[A-Za-z0-9+/]{14}(:[A-Za-z0-9+/]{12})?$"),
                 "a 14-character Position ID, optionally followed by :<12-character Match ID>"),
}


def find_reader(field: str) -> Optional[Callable[[str], Any]]:
    module_name, names = FORMAT_READERS[field]
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return None
    for name in names:
        reader = getattr(module, name, None)
        if callable(reader):
            return reader
    return None


def available_formats() -> dict[str, bool]:
    return {"plain": True, **{field: find_reader(field) is not None for field in FORMAT_READERS}}


@dataclass(frozen=True)
class Parsed:
    position: tavla.Position
    dice: Optional[tuple[int, int]]  # when the text itself carries a roll (XGID does)
    # What the text records beyond the checkers (``tavla.formats.parse``'s mapping: cube, score,
    # turn...), when the text records the cube and the stakes; None for the plain form.
    info: Optional[Mapping] = dataclass_field(default=None, compare=False)


def parse_source(source: PositionSource) -> Parsed:
    """The position a request names; exactly one of its position fields must be given."""
    given = [name for name in ("position", "xgid", "gnubg_id") if getattr(source, name) is not None]
    if len(given) != 1:
        named = ", ".join(given) if given else "none"
        raise BadInput(f"give exactly one of position, xgid or gnubg_id (given: {named})")
    if source.position is not None:
        return Parsed(plain_position(source.position), None)
    field = given[0]
    return read_text_format(field, getattr(source, field))


def plain_position(plain: PlainPosition) -> tavla.Position:
    if (plain.mine is None) != (plain.theirs is None):
        raise BadInput("give both mine and theirs, or neither for the start position")
    try:
        if plain.mine is None:
            return tavla.Position.start(plain.variant, **plain.rules)
        return tavla.Position.from_arrays(plain.variant, plain.mine, plain.theirs, **plain.rules)
    except ValueError as e:
        raise BadInput(f"position: {e}") from None


def read_text_format(field: str, text: str) -> Parsed:
    reader = find_reader(field)
    if reader is None:
        raise BadInput(f"{field} is not available in this build of tavla; send the position in the plain JSON form")
    text = text.strip()
    pattern, shape = FORMAT_SHAPES[field]
    if not pattern.match(text):
        raise BadInput(f"{field} {text[:60]!r} does not look like {shape}")
    try:
        result = reader(text)
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
    return PositionOut(variant=position.variant, mine=list(mine), theirs=list(theirs), rules=dict(position.rules))


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
    )


def cascade_step_out(number: int, step: Any) -> CascadeStepPlayOut:
    return CascadeStepPlayOut(number=number, notation=step.notation, steps=[[a, b] for a, b in step.steps],
                              hits=list(step.hits), moves_played=step.moves_played,
                              position=position_out(step.position))
