"""The cube between the engine and its users: cube states from position texts
and games, and cube decisions and ranked plays as words and as JSON.

Shared by the ``tavla cube``/``hint``/``eval`` commands, ``tavla play`` and
the service. A :class:`tavla.CubeState` is always seen from the player on
roll ("me"); position texts and games number their players 0 and 1, so the
helpers here turn "player ``p``" into "me"/"opponent" for the side on roll.
"""

from __future__ import annotations

import json
from typing import Any, Mapping, Optional, Sequence

import tavla

OWNERS = {"me": "me", "opponent": "opponent", "centered": None, "none": None, "": None}


def owner_of(owner: Optional[int], player: int) -> Optional[str]:
    """A cube owner given as player 0/1 (or None), seen from ``player``."""
    if owner is None:
        return None
    return "me" if owner == player else "opponent"


def parse_owner(text: Optional[str]) -> Optional[str]:
    """"me", "opponent" or "centered" (None) in any case; ValueError otherwise."""
    if text is None:
        return None
    key = text.strip().lower()
    if key not in OWNERS:
        raise ValueError(f'the cube owner must be "me", "opponent" or "centered", not {text!r}')
    return OWNERS[key]


def cube_state(**fields: Any) -> "tavla.CubeState":
    """``tavla.CubeState(**fields)``; whatever it refuses comes back as ValueError naming the field."""
    try:
        return tavla.CubeState(**fields)
    except (TypeError, OverflowError) as e:
        raise ValueError(f"impossible cube state: {e}") from None


def text_carries_cube(text: str) -> bool:
    """Whether a position text records the cube and the stakes: an XGID, a GNU Backgammon ID with
    its Match ID, a FIBS board, or JSON naming the cube, the score or the match length. A bare
    Position ID, or JSON without them, describes the checkers only."""
    t = text.strip()
    if t.startswith("{"):
        try:
            data = json.loads(t)
        except ValueError:
            return False
        return isinstance(data, dict) and any(
            k in data for k in ("cube", "cube_rules", "match_length", "score", "crawford"))
    if t.startswith("XGID=") or t.startswith("board:"):
        return True
    return ":" in t  # PositionID:MatchID (an XGID without its prefix has colons too)


def cube_from_info(info: Mapping[str, Any]) -> dict[str, Any]:
    """The CubeState fields a parsed position text (``tavla.formats.parse``) records, seen from
    the player whose turn it is (the doubler, when a double has been offered)."""
    turn = info.get("turn") or 0
    match_length = int(info.get("match_length") or 0)
    score = tuple(info.get("score") or (0, 0))
    money = match_length == 0
    return dict(
        value=int(info.get("cube_value") or 1),
        owner=owner_of(info.get("cube_owner"), turn),
        match_length=match_length,
        score=(score[turn], score[1 - turn]) if not money else (0, 0),
        crawford=bool(info.get("crawford")) and not money,
        jacoby=bool(info.get("jacoby")) and money,
        beaver=bool(info.get("beaver")) and money,
        max_cube=int(info.get("max_cube") or 64),
    )


def game_cube_rules(game: "tavla.Game") -> dict[str, Any]:
    """The cube rules a game was set up with ({"enabled", "jacoby", "beaver", "max_value"}); they
    are in its record, and they do not change during the game."""
    rules = json.loads(game.to_json()).get("cube_rules") or {}
    return {
        "enabled": bool(rules.get("enabled", True)),
        "jacoby": bool(rules.get("jacoby", False)),
        "beaver": bool(rules.get("beaver", False)),
        "max_value": int(rules.get("max_value", 64)),
    }


def cube_for_game(game: "tavla.Game", player: int, rules: Mapping[str, Any]) -> "tavla.CubeState":
    """The game's real cube state seen from ``player`` (the player on roll, or the doubler while a
    double is offered). A game without the cube gets a dead cube (max cube = its value), so that
    plays are still judged by the stakes (match equity in a match)."""
    money = game.match_length == 0
    score = game.score
    value = game.cube_value
    return cube_state(
        value=value,
        owner=owner_of(game.cube_owner, player),
        match_length=game.match_length,
        score=(0, 0) if money else (score[player], score[1 - player]),
        crawford=bool(game.is_crawford) and not money,
        jacoby=bool(rules.get("jacoby")) and money,
        beaver=bool(rules.get("beaver")) and money,
        max_cube=int(rules.get("max_value", 64)) if rules.get("enabled", True) else value,
    )


# ----- JSON shapes (the service answers the same) -----

def cube_dict(cube: "tavla.CubeState") -> dict[str, Any]:
    return {
        "value": cube.value,
        "owner": cube.owner,
        "match_length": cube.match_length,
        "score": list(cube.score),
        "crawford": cube.crawford,
        "jacoby": cube.jacoby,
        "beaver": cube.beaver,
        "max_cube": cube.max_cube,
        "is_money": cube.is_money,
        "is_post_crawford": cube.is_post_crawford,
        "may_double": cube.may_double,
        "description": str(cube),
    }


PROBABILITIES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")


def evaluation_dict(evaluation: Any) -> dict[str, Any]:
    return {"probabilities": {k: float(getattr(evaluation, k)) for k in PROBABILITIES},
            "equity": float(evaluation.equity)}


def decision_dict(d: "tavla.CubeDecision") -> dict[str, Any]:
    mwc = d.mwc
    return {
        "action": d.action,
        "should_double": bool(d.should_double),
        "should_take": bool(d.should_take),
        "should_beaver": bool(d.should_beaver),
        "no_double": float(d.no_double),
        "double_take": float(d.double_take),
        "double_pass": float(d.double_pass),
        "equity": float(d.equity),
        "mwc": None if mwc is None else {"no_double": mwc[0], "double_take": mwc[1], "double_pass": mwc[2]},
        "evaluation": evaluation_dict(d.evaluation),
        "cube": cube_dict(d.cube),
        "ply": d.ply,
    }


def candidate_dict(rank: int, c: Any, best: float) -> dict[str, Any]:
    return {
        "rank": rank,
        "move": str(c.move),
        "equity": float(c.equity),
        "diff": float(c.equity) - best,
        "mwc": c.mwc,
        "cubeful": bool(c.cubeful),
        "ply": c.ply,
        "evaluation": evaluation_dict(c.evaluation),
    }


# ----- words -----

def answer_word(d: "tavla.CubeDecision") -> str:
    """What the opponent should answer to a double."""
    if d.should_beaver:
        return "beaver"
    return "take" if d.should_take else "pass"


def why_no_double(cube: "tavla.CubeState") -> Optional[str]:
    """Why the player on roll may not double, in words (None when it may)."""
    if cube.may_double:
        return None
    if cube.owner == "opponent":
        return "the opponent owns the cube"
    if cube.crawford:
        return "the Crawford game"
    if cube.value >= cube.max_cube:
        return f"the cube is at its maximum {cube.max_cube}"
    return "the cube is dead"


def decision_lines(d: "tavla.CubeDecision", who: str = "the player on roll") -> list[str]:
    """The decision laid out as GNU Backgammon's cube analysis does: cubeless probabilities, the
    cubeful equity (and match winning chances) of each action, the proper action."""
    e = d.evaluation
    cube = d.cube
    lines = [f"Cube analysis, {d.ply}-ply, {cube}"]
    lines.append(
        f"  cubeless: win {e.win * 100:5.1f}%  (gammon {e.win_gammon * 100:.1f}%, backgammon {e.win_backgammon * 100:.1f}%)"
        f"   lose {(1 - e.win) * 100:5.1f}%  (gammon {e.lose_gammon * 100:.1f}%, backgammon {e.lose_backgammon * 100:.1f}%)"
    )
    lines.append(f"  cubeless equity {e.equity:+.3f}")
    lines.append(f"Cubeful equities{' (and match winning chances)' if d.mwc is not None else ''}, for {who}:")
    rows = [("No double", d.no_double), ("Double, take", d.double_take), ("Double, pass", d.double_pass)]
    if not cube.may_double:
        rows = rows[:1]
    for k, (name, value) in enumerate(rows):
        diff = value - d.equity
        text = f"  {k + 1}. {name:<13} {value:+.3f}"
        if d.mwc is not None:
            text += f"   {d.mwc[k] * 100:5.1f}%"
        if abs(diff) >= 5e-4:
            text += f"   ({diff:+.3f})"
        lines.append(text)
    reason = why_no_double(cube)
    lines.append(f"Proper cube action: {d.action}" + (f" ({reason})" if reason else ""))
    if cube.may_double:
        lines.append(f"If doubled, the opponent should {answer_word(d)}.")
    return lines


def candidate_lines(candidates: Sequence[Any]) -> list[str]:
    match = any(c.mwc is not None for c in candidates)
    # The move column fits the longest move (a gul bara double names every double of its cascade).
    width = max([24] + [len(str(c.move)) for c in candidates])
    head = f"{'':>4} {'move':<{width}} {'equity':>8} {'diff':>8}"
    if match:
        head += f" {'MWC':>7}"
    lines = [head + f" {'ply':>4}"]
    best = candidates[0].equity if candidates else 0.0
    for k, c in enumerate(candidates, 1):
        text = f"{k:>3}. {str(c.move):<{width}} {c.equity:+8.3f} {c.equity - best:+8.3f}"
        if match:
            text += f" {c.mwc * 100:6.1f}%" if c.mwc is not None else f" {'':>7}"
        lines.append(text + f" {c.ply:>4}")
    return lines
