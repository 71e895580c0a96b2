"""The engine's commands: ``tavla cube``, ``tavla hint`` and ``tavla eval``.

Each reads a position as ``tavla show`` does (XGID, GNU Backgammon ID, FIBS
board, the project's JSON, or ``start`` for a variant's start position). The
cube state and the score come from the position text when it records them
(XGID, Match ID, FIBS, JSON), and any cube option given overrides that. This
module owns the cube and score options, the engine they are asked of, and how
the answers are printed (as text, through ``tavla.cube_view``, or as JSON).
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Optional

import tavla

from ..cube_view import (
    candidate_dict,
    candidate_lines,
    cube_dict,
    cube_from_info,
    cube_state,
    decision_dict,
    decision_lines,
    evaluation_dict,
    parse_owner,
)
from .arguments import add_engine_position_arguments, read_position

CUBE_OPTIONS = ("cube_value", "cube_owner", "match", "score", "crawford", "jacoby", "beaver", "max_cube")


def add_cube_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("cube and score (default: what the position text records, else a centered cube in money play)")
    g.add_argument("--cube-value", type=int, metavar="V", help="the cube's value: 1, 2, 4, ...")
    g.add_argument("--cube-owner", metavar="me|opponent|centered",
                   help="who owns the cube, seen from the player on roll")
    g.add_argument("--match", type=int, metavar="N", help="match length (0 = money play)")
    g.add_argument("--score", type=int, nargs=2, metavar=("MINE", "THEIRS"),
                   help="match score: the player on roll's, then the opponent's")
    g.add_argument("--crawford", action=argparse.BooleanOptionalAction, default=None,
                   help="this is (not) the Crawford game")
    g.add_argument("--jacoby", action=argparse.BooleanOptionalAction, default=None,
                   help="the Jacoby rule (money play)")
    g.add_argument("--beaver", action=argparse.BooleanOptionalAction, default=None,
                   help="beavers allowed (money play)")
    g.add_argument("--max-cube", type=int, metavar="V", help="the highest cube value (default 64)")


def any_cube_option(args: argparse.Namespace) -> bool:
    return any(getattr(args, name, None) is not None for name in CUBE_OPTIONS)


def cube_from_args(args: argparse.Namespace, info: dict[str, Any], carried: bool) -> tavla.CubeState:
    """The text's cube state (when it records one), then each option given on top."""
    fields: dict[str, Any] = cube_from_info(info) if carried else dict(
        value=1, owner=None, match_length=0, score=(0, 0), crawford=False, jacoby=False, beaver=False, max_cube=64)
    if args.match is not None:
        if args.match < 0:
            raise ValueError(f"--match must be 0 (money) or a number of points, not {args.match}")
        if args.match != fields["match_length"]:
            # Another match (or money play): the text's score and Crawford flag do not carry over,
            # nor (into a match) its money-play rules.
            fields.update(match_length=args.match, score=(0, 0), crawford=False)
            if args.match:
                fields.update(jacoby=False, beaver=False)
    if args.score is not None:
        fields["score"] = tuple(args.score)
    if args.cube_value is not None:
        fields["value"] = args.cube_value
        if args.cube_value == 1 and args.cube_owner is None:
            fields["owner"] = None
    if args.cube_owner is not None:
        fields["owner"] = parse_owner(args.cube_owner)
    for name in ("crawford", "jacoby", "beaver"):
        if getattr(args, name) is not None:
            fields[name] = getattr(args, name)
    if args.max_cube is not None:
        fields["max_cube"] = args.max_cube
    if fields["match_length"] == 0 and args.score is None:
        fields["score"] = (0, 0)
    return cube_state(**fields)


def make_engine(position: tavla.Position, ply: int) -> "tavla.Engine":
    if not 0 <= ply <= 4:
        raise ValueError(f"--ply must be 0 to 4, not {ply}")
    rules: dict[str, Any] = dict(position.rules)
    return tavla.Engine(position.variant, ply=ply, **rules)


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2))


def turn_words(info: dict[str, Any]) -> str:
    return f"player {info['turn']}" if "turn" in info and info.get("turn") is not None else "the player on roll"


# ----- tavla cube -----

def add_cube_arguments(p: argparse.ArgumentParser) -> None:
    add_engine_position_arguments(p)
    add_cube_options(p)


def run_cube(args: argparse.Namespace) -> int:
    position, info, carried = read_position(args)
    cube = cube_from_args(args, info, carried)
    engine = make_engine(position, args.ply)
    d = engine.cube_decision(position, cube)
    offered = bool(info.get("double_offered"))
    if args.json:
        out = {"variant": position.variant, **decision_dict(d), "double_offered": offered}
        print_json(out)
        return 0
    who = turn_words(info) if carried else "the player on roll"
    on_roll = f"{who} on roll" if who.startswith("player") else who
    print(f"{position.variant}, {on_roll}, pips {position.pip_count()[0]} to {position.pip_count()[1]}")
    for line in decision_lines(d, who):
        print(line)
    if offered and cube.may_double:
        print(f"(The position records a double offered by {who}: the opponent should {'beaver' if d.should_beaver else 'take' if d.should_take else 'pass'}.)")
    return 0


# ----- tavla hint -----

def add_hint_arguments(p: argparse.ArgumentParser) -> None:
    add_engine_position_arguments(p)
    p.add_argument("--dice", type=int, nargs=2, metavar=("D1", "D2"),
                   help="the roll (may be left out when the position text records it)")
    p.add_argument("--top", type=int, default=5, help="how many plays to list (default 5)")
    add_cube_options(p)


def dice_for(args: argparse.Namespace, info: dict[str, Any]) -> tuple[int, int]:
    dice = args.dice if args.dice is not None else info.get("dice")
    if not dice:
        raise ValueError("give the roll with --dice D1 D2 (the position text records none)")
    d1, d2 = (int(x) for x in dice)
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise ValueError(f"dice must be 1 to 6, not {d1} {d2}")
    return d1, d2


def run_hint(args: argparse.Namespace) -> int:
    position, info, carried = read_position(args)
    d1, d2 = dice_for(args, info)
    if args.top < 1:
        raise ValueError(f"--top must be at least 1, not {args.top}")
    cubeful = carried or any_cube_option(args)
    cube: Optional[tavla.CubeState] = cube_from_args(args, info, carried) if cubeful else None
    engine = make_engine(position, args.ply)
    candidates = engine.hint(position, d1, d2, top=args.top, cube=cube)
    best = candidates[0].equity if candidates else 0.0
    if args.json:
        print_json({
            "variant": position.variant, "dice": [d1, d2], "ply": args.ply, "cubeful": cubeful,
            "cube": cube_dict(cube) if cube is not None else None,
            "candidates": [candidate_dict(k, c, best) for k, c in enumerate(candidates, 1)],
        })
        return 0
    how = f"cubeful ({cube})" if cube is not None else "cubeless"
    print(f"{position.variant}, dice {d1}-{d2}, {args.ply}-ply, ranked {how}:")
    for line in candidate_lines(candidates):
        print(line)
    return 0


# ----- tavla eval -----

def add_eval_arguments(p: argparse.ArgumentParser) -> None:
    add_engine_position_arguments(p)
    add_cube_options(p)


def run_eval(args: argparse.Namespace) -> int:
    position, info, carried = read_position(args)
    cubeful = carried or any_cube_option(args)
    cube = cube_from_args(args, info, carried) if cubeful else None
    engine = make_engine(position, args.ply)
    evaluation = engine.evaluate(position)
    decision = engine.cube_decision(position, cube) if cube is not None else None
    if args.json:
        out: dict[str, Any] = {"variant": position.variant, "ply": args.ply, **evaluation_dict(evaluation)}
        out["cube"] = cube_dict(cube) if cube is not None else None
        out["cubeful_equity"] = decision.equity if decision is not None else None
        print_json(out)
        return 0
    e = evaluation
    print(f"{position.variant}, {args.ply}-ply, for the player on roll (before rolling):")
    print(f"  win  {e.win * 100:5.1f}%   gammon {e.win_gammon * 100:5.1f}%   backgammon {e.win_backgammon * 100:5.1f}%")
    print(f"  lose {(1 - e.win) * 100:5.1f}%   gammon {e.lose_gammon * 100:5.1f}%   backgammon {e.lose_backgammon * 100:5.1f}%")
    print(f"  cubeless equity {e.equity:+.3f}")
    if decision is not None and cube is not None:
        text = f"  cubeful equity  {decision.equity:+.3f}"
        if decision.mwc is not None:
            best = max(decision.mwc[0], min(decision.mwc[1], decision.mwc[2])) if cube.may_double else decision.mwc[0]
            text += f"   match winning chance {best * 100:.1f}%"
        print(text + f"   ({cube}; {decision.action})")
    return 0
