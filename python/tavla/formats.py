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

The JSON position form
----------------------
One JSON form names a position everywhere in the package and on the command line
(``to_json`` writes it, ``parse`` and ``tavla show/moves/cube/hint/eval`` read it)::

    {"variant": "nardy", "rules": {"fence_rule": "ahead"},
     "checkers": [[24 counts], [24 counts]], "bar": [0, 0], "off": [0, 0],
     "turn": 0, "dice": [6, 5], "cube": {"value": 2, "owner": 1},
     "cube_rules": {"enabled": true, "beaver": false, "jacoby": false, "max_value": 64},
     "match_length": 7, "score": [3, 2], "crawford": false, "double_offered": false}

``checkers[p][i]`` is player p's count on its own point i + 1 (each player in its
own numbering), ``bar`` and ``off`` per player, ``turn`` the player on roll. Only
``variant`` and ``checkers`` are required (``src/formats/json.rs`` has the rest). Dutch
backgammon and acey-deucey add ``"reserve": [player 0, player 1]``, and acey-deucey
``"extra_roll": true`` when the player on roll rolls again after a 1-2 played in full.

The older form ``{"variant", "mine": [25 counts], "theirs": [25 counts], "rules"}``
(the player on roll first, index 24 the bar) is still read, as ``turn`` 0 with
``mine`` as player 0, but ``parse`` warns with :class:`DeprecatedPositionForm`.
"""

from __future__ import annotations

import json
import warnings
from typing import Any, Optional, Tuple, Union

from ._core import Game, Match, Position, _parse_position, _read_mat, _read_match_text, _read_sgf, _write_mat, _write_match_text, _write_position, _write_sgf

__all__ = ["DeprecatedPositionForm", "parse", "canonical_json", "parse_xgid", "parse_gnubg_id", "to_xgid", "to_gnubg_id", "position_id", "match_id", "position_from_id", "to_fibs", "to_json"]


def parse(text: str) -> dict[str, Any]:
    """Reads an XGID, a GNU Backgammon ID ("PositionID:MatchID" or a bare
    position ID), a FIBS board or the project's JSON.

    Returns a dict: ``position`` (seen from ``turn``), ``turn``, ``dice``,
    ``cube_value``, ``cube_owner``, ``match_length``, ``score``, ``crawford``,
    ``double_offered``, ``extra_roll``, ``jacoby``, ``beaver``, ``max_cube``. Raises
    ValueError naming what is wrong.
    """
    t = _text(text, "a position").strip()
    if t.startswith("{"):
        t = canonical_json(t, stacklevel=3)
    return _parse_position(t)


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be text (a str), not {type(value).__name__}")
    return value


class DeprecatedPositionForm(FutureWarning):
    """A position was given in the older ``mine``/``theirs`` JSON form.

    A FutureWarning, so that it is shown to users of scripts and the command line
    by default."""


LEGACY_KEYS = ("mine", "theirs")

DEPRECATION_TEXT = (
    'the {"mine": [...], "theirs": [...]} JSON position form is deprecated and will be removed; '
    'write {"variant": ..., "checkers": [[24 counts of the player on roll], [24 counts of the opponent]], '
    '"bar": [mine, theirs], "turn": 0} instead (tavla.formats.to_json writes it)'
)


def canonical_json(text: str, stacklevel: int = 2) -> str:
    """The project's JSON form of a JSON position text.

    Text in the project's form (or not JSON at all) comes back unchanged; the
    older ``mine``/``theirs`` form is rewritten (``turn`` 0, ``mine`` as player 0)
    with a :class:`DeprecatedPositionForm` warning."""
    try:
        data = json.loads(_text(text, "a JSON position"))
    except ValueError:
        return text  # the reader names what is wrong
    except RecursionError:  # Python's json gives up on deep nesting with RecursionError, not ValueError
        raise ValueError("the JSON position is nested too deeply to be a position") from None
    if not isinstance(data, dict) or not any(k in data for k in LEGACY_KEYS):
        return text
    if "checkers" in data or "bar" in data:
        raise ValueError('a JSON position gives either "checkers" (and "bar") or the older "mine" and "theirs", not both')
    if "mine" not in data or "theirs" not in data:
        raise ValueError('the older JSON position form needs both "mine" and "theirs" (25 counts each)')
    sides = []
    for key in LEGACY_KEYS:
        counts = data.pop(key)
        if not isinstance(counts, list) or len(counts) != 25:
            raise ValueError(f'"{key}" must be a list of 25 counts (points 1..24, then the bar), not {json.dumps(counts)[:60]}')
        sides.append(counts)
    if "turn" in data and data["turn"] != 0:
        raise ValueError('in the older JSON position form "mine" is the player on roll, so "turn" can only be 0')
    warnings.warn(DEPRECATION_TEXT, DeprecatedPositionForm, stacklevel=stacklevel + 1)
    data.setdefault("variant", "backgammon")
    data.update(checkers=[sides[0][:24], sides[1][:24]], bar=[sides[0][24], sides[1][24]], turn=0)
    return json.dumps(data)


def parse_xgid(text: str) -> Tuple[Position, Optional[Tuple[int, int]]]:
    """(position seen from the player on roll, dice or None) of an XGID."""
    t = _text(text, "an XGID").strip()
    if not (t.startswith("XGID=") or t.count(":") in (8, 9)):
        raise ValueError(f"{text!r} is not an XGID (XGID=position:cube:owner:turn:dice:...)")
    info = parse(t)
    return info["position"], info["dice"]


def parse_gnubg_id(text: str) -> Tuple[Position, Optional[Tuple[int, int]]]:
    """(position seen from the player on roll, dice or None) of a GNU Backgammon
    ID: "PositionID:MatchID" or a bare Position ID."""
    t = _text(text, "a GNU Backgammon ID").strip()
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
    extra_roll: bool = False,
) -> str:
    return _write_position(
        form, position, turn, dice, cube_value, cube_owner, match_length, tuple(score), crawford,
        double_offered, jacoby, beaver, max_cube, tuple(names), extra_roll,
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
    text = _text(position_id, "a Position ID").strip()
    if ":" in text:
        raise ValueError(f"{position_id!r} is a full GNU Backgammon ID; use parse() for it")
    return _parse_position(text)["position"]


def to_fibs(position: Position, names: Tuple[str, str] = ("player0", "player1"), **context: Any) -> str:
    """A FIBS ``board:`` string with player 0 as "you"."""
    return _write("fibs", position, names=names, **context)


def to_json(position: Position, **context: Any) -> str:
    """The project's JSON form (every variant; see the module's documentation); ``context`` takes
    what ``to_xgid`` does and ``extra_roll`` (acey-deucey)."""
    return _write("json", position, **context)


def read_mat(text: str) -> dict[str, Any]:
    """A Jellyfish ``.mat`` match file (as GNU Backgammon, XG and match sites export them), every game
    replayed through the rules: ``{"length", "players", "score", "games": [{"game": tavla.Game,
    "winner", "points", "resigned"}]}``. ``resigned`` games end before the board does; their
    ``points`` are what the file says the loser gave up. Backgammon only. A line that cannot be read
    or a move the rules refuse raises ValueError naming the line."""
    return _read_mat(_text(text, "a .mat file"))


def write_mat(games: Any, names: Tuple[str, str] = ("Player 1", "Player 2"), length: Optional[int] = None) -> str:
    """A ``.mat`` file of a finished ``tavla.Match`` (its games and length) or of a list of games of
    one match (``length``, 0 for money); player 0 on the left. A game is a finished ``tavla.Game`` or
    one of ``read_mat``'s / ``read_sgf``'s ``{"game", "winner", "points"}`` (a resignation kept)."""
    return _write_mat(*_writing(games, names, length))


def read_sgf(data: Union[str, bytes]) -> dict[str, Any]:
    """A GNU Backgammon ``.sgf`` match file (gnubg's ``save match``), every game replayed through the
    rules, in ``read_mat``'s shape (white is player 0, as in gnubg's ``.mat`` export). Bytes are
    decoded as the file's ``CA`` property says (UTF-8 or ISO-8859-1). A property that cannot be read,
    a move the rules refuse or a score that does not follow raises ValueError naming the line, the
    game and the move."""
    if not isinstance(data, (str, bytes)):
        raise TypeError(f"an .sgf file must be text (a str) or bytes, not {type(data).__name__}")
    return _read_sgf(data)


def write_sgf(games: Any, names: Tuple[str, str] = ("Player 1", "Player 2"), length: Optional[int] = None,
              crawford: bool = True) -> str:
    """gnubg's ``.sgf`` of the games ``write_mat`` takes; ``names[0]`` is white (player 0);
    ``crawford``: whether the match has the Crawford rule."""
    length, pair, items = _writing(games, names, length)
    return _write_sgf(length, pair, bool(crawford), items)


def read_match_text(text: str) -> dict[str, Any]:
    """A long nardy, gul bara, Dutch backgammon or acey-deucey match text (``write_match_text``'s
    form: a ``Variation`` tag naming
    the variant, a ``Rules`` tag with its options, then ``.mat``-like games, gul bara cascades as
    whole turns), every game replayed through the rules: ``read_mat``'s dict with ``variant`` and
    ``rules`` too (``winner`` is None for a drawn game). ValueError naming the line otherwise."""
    return _read_match_text(_text(text, "a match text"))


def write_match_text(games: Any, names: Tuple[str, str] = ("Player 1", "Player 2"), length: Optional[int] = None,
                     crawford: bool = True) -> str:
    """The match text of long nardy, gul bara, Dutch backgammon or acey-deucey games (an acey-deucey
    1-2 with its named number, its extra roll on the next line): a finished ``tavla.Match`` or a list of games
    of one match (``length``, 0 for money; ``crawford``: whether the match has the Crawford rule),
    as ``write_mat`` takes them; player 0 first."""
    length, pair, items = _writing(games, names, length)
    return _write_match_text(length, pair, bool(crawford), items)


def _writing(games: Any, names: Tuple[str, str], length: Optional[int]) -> tuple[int, tuple[str, str], list]:
    if isinstance(games, Match):
        played: list = list(games.finished_games)
        if games.game.is_over:
            played.append(games.game)
        length = games.length if length is None else length
    else:
        played = list(games)
        length = 0 if length is None else length
    items: list[tuple[Any, Optional[tuple[Any, Any]]]] = []
    for g in played:
        if isinstance(g, dict):
            if not {"game", "winner", "points"} <= set(g):
                raise ValueError('a game read from a match file is a dict with "game", "winner" and "points"')
            items.append((g["game"], (g["winner"], g["points"])))
        else:
            items.append((g, None))
    first, second = names
    return length, (str(first), str(second)), items
