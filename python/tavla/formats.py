"""Position text formats: XGID, GNU Backgammon Position ID + Match ID, FIBS
``board:`` strings (short backgammon), and the project's JSON (every variant).

Every writer takes a :class:`tavla.Position` seen from the player on roll plus
the context the form records; players are numbered 0 and 1 (XGID: 0 is the
bottom player; gnubg: its players 0 and 1; FIBS: 0 is "you").

>>> import tavla
>>> from tavla import formats
>>> formats.position_id(tavla.Position.start())
'4HPwATDgc/ABMA'
>>> formats.parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10")["turn"]
0
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

from ._core import Position, _parse_position, _write_position

__all__ = ["parse", "parse_xgid", "parse_gnubg_id", "to_xgid", "to_gnubg_id", "position_id", "match_id", "position_from_id", "to_fibs", "to_json"]


def parse(text: str) -> dict[str, Any]:
    """Reads an XGID, a GNU Backgammon ID ("PositionID:MatchID" or a bare
    position ID), a FIBS board or the project's JSON.

    Returns a dict: ``position`` (seen from ``turn``), ``turn``, ``dice``,
    ``cube_value``, ``cube_owner``, ``match_length``, ``score``, ``crawford``,
    ``double_offered``, ``jacoby``, ``beaver``, ``max_cube``. Raises
    ValueError naming what is wrong.
    """
    return _parse_position(text)


def parse_xgid(text: str) -> Tuple[Position, Optional[Tuple[int, int]]]:
    """(position seen from the player on roll, dice or None) of an XGID."""
    t = text.strip()
    if not (t.startswith("XGID=") or t.count(":") in (8, 9)):
        raise ValueError(f"{text!r} is not an XGID (XGID=position:cube:owner:turn:dice:...)")
    info = parse(t)
    return info["position"], info["dice"]


def parse_gnubg_id(text: str) -> Tuple[Position, Optional[Tuple[int, int]]]:
    """(position seen from the player on roll, dice or None) of a GNU Backgammon
    ID: "PositionID:MatchID" or a bare Position ID."""
    t = text.strip()
    if t.startswith(("XGID=", "board:", "{")) or t.count(":") > 1:
        raise ValueError(f"{text!r} is not a GNU Backgammon ID (PositionID or PositionID:MatchID)")
    info = parse(t)
    return info["position"], info["dice"]


def _write(
    form: str,
    position: Position,
    turn: int = 0,
    dice: Optional[Tuple[int, int]] = None,
    cube_value: int = 1,
    cube_owner: Optional[int] = None,
    match_length: int = 0,
    score: Tuple[int, int] = (0, 0),
    crawford: bool = False,
    double_offered: bool = False,
    jacoby: bool = False,
    beaver: bool = False,
    max_cube: int = 64,
    names: Tuple[str, str] = ("player0", "player1"),
) -> str:
    return _write_position(
        form, position, turn, dice, cube_value, cube_owner, match_length, tuple(score), crawford,
        double_offered, jacoby, beaver, max_cube, tuple(names),
    )


def to_xgid(position: Position, **context: Any) -> str:
    """The XGID; ``context`` takes turn, dice, cube_value, cube_owner,
    match_length, score, crawford, double_offered, jacoby, beaver, max_cube."""
    return _write("xgid", position, **context)


def to_gnubg_id(position: Position, **context: Any) -> str:
    """GNU Backgammon's "PositionID:MatchID"."""
    return _write("gnubg", position, **context)


def position_id(position: Position) -> str:
    """GNU Backgammon's Position ID (14 characters)."""
    return _write("position_id", position)


def match_id(position: Position, **context: Any) -> str:
    """GNU Backgammon's Match ID (12 characters)."""
    return _write("match_id", position, **context)


def position_from_id(position_id: str) -> Position:
    """The backgammon position of a GNU Backgammon Position ID, seen from the player on roll."""
    text = position_id.strip()
    if ":" in text:
        raise ValueError(f"{position_id!r} is a full GNU Backgammon ID; use parse() for it")
    return _parse_position(text)["position"]


def to_fibs(position: Position, names: Tuple[str, str] = ("player0", "player1"), **context: Any) -> str:
    """A FIBS ``board:`` string with player 0 as "you"."""
    return _write("fibs", position, names=names, **context)


def to_json(position: Position, **context: Any) -> str:
    """The project's JSON form (every variant)."""
    return _write("json", position, **context)
