"""What the command modules share: reading their arguments.

The ``--rule NAME=VALUE`` option, lists of checker counts, and the two ways a
command reads its position: ``tavla moves``'s (a position text, ``--mine`` and
``--theirs``, or a start position) and the engine commands' (a position text or
``start``, and whether the text records a cube). Nothing here registers or runs
a command.
"""

from __future__ import annotations

import argparse
from typing import Any

import tavla

from ..cube_view import text_carries_cube


def parse_counts(text: str, who: str, count: int = 25) -> list[int]:
    """``count`` comma- or space-separated counts (25: points 1..24, then the bar)."""
    parts = text.replace(",", " ").split()
    try:
        return [int(p) for p in parts]
    except ValueError:
        raise ValueError(f"{who} must be {count} whole numbers separated by commas or spaces: {text!r}") from None


def rule_option(text: str) -> tuple[str, object]:
    """NAME=VALUE, with true/false and whole numbers recognised."""
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"a rule option is NAME=VALUE, not {text!r}")
    name, value = text.split("=", 1)
    low = value.lower()
    if low in ("true", "false"):
        return name, low == "true"
    if value.isdigit():
        return name, int(value)
    return name, value


def add_rule_option(p: argparse.ArgumentParser, help_text: str = "a rule option") -> None:
    """``--rule NAME=VALUE``, as often as wanted; ``dict(args.rule or [])`` is the options."""
    p.add_argument("--rule", action="append", type=rule_option, metavar="NAME=VALUE", help=help_text)


def variant_agrees(args: argparse.Namespace, position: tavla.Position) -> None:
    """Refuse a --variant that is not the variant a position text names."""
    if args.variant and args.variant != position.variant:
        raise ValueError(f"the position is a {position.variant} position, not {args.variant}")


# ----- tavla moves: a position text, --mine and --theirs, or a start position -----

def add_position_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("position", nargs="?",
                   help="an XGID, a GNU Backgammon ID (PositionID[:MatchID]), a FIBS board, JSON, or 'start' "
                        "(the default: the start position of --variant, or --mine and --theirs)")
    p.add_argument("--variant", choices=tavla.VARIANTS + tavla.RESERVE_VARIANTS,
                   help="the variant (default backgammon; a position text names its own, and must agree)")
    p.add_argument("--mine", help="the player on roll: 25 counts (points 1..24, bar), its own numbering")
    p.add_argument("--theirs", help="the opponent: 25 counts in its own numbering")
    add_rule_option(p)


def position_from_args(args: argparse.Namespace) -> tuple[tavla.Position, dict]:
    """(position from the player on roll, what the text records) of ``tavla moves``'s arguments:
    a position text (XGID, GNU Backgammon ID, FIBS board, JSON, or ``start``), or --mine and
    --theirs, or nothing for the start position of --variant."""
    rules = dict(getattr(args, "rule", None) or [])
    text = getattr(args, "position", None)
    if text is not None and text.strip().lower() != "start":
        if args.mine is not None or args.theirs is not None:
            raise ValueError("give a position text or --mine and --theirs, not both")
        if rules:
            raise ValueError("--rule applies to --mine/--theirs and 'start' only; a position text records its own rule options")
        info = tavla.formats.parse(text)
        pos = info["position"]
        variant_agrees(args, pos)
        return pos, info
    variant = args.variant or "backgammon"
    if args.mine is None and args.theirs is None:
        return tavla.Position.start(variant, **rules), {}
    if args.mine is None or args.theirs is None:
        raise ValueError("give both --mine and --theirs, or neither for the start position")
    return tavla.Position.from_arrays(
        variant, parse_counts(args.mine, "--mine"), parse_counts(args.theirs, "--theirs"), **rules
    ), {}


# ----- the engine commands: a position text or 'start', and the cube it may record -----

def add_engine_position_arguments(p: argparse.ArgumentParser, ply_default: int = 1,
                                  ply_help: str = "search depth, 0 to 4") -> None:
    p.add_argument("position", nargs="?", default="start",
                   help="an XGID, a GNU Backgammon ID (PositionID[:MatchID]), a FIBS board, JSON, "
                        "or 'start' (the default) for the start position of --variant")
    p.add_argument("--variant", choices=tavla.VARIANTS + tavla.RESERVE_VARIANTS,
                   help="the variant (for 'start'; a position text names its own, and must agree)")
    add_rule_option(p, "a rule option (for 'start')")
    p.add_argument("--ply", type=int, default=ply_default, help=f"{ply_help} (default {ply_default})")
    p.add_argument("--json", action="store_true", help="answer in JSON")


def read_position(args: argparse.Namespace) -> tuple[tavla.Position, dict[str, Any], bool]:
    """(position from the player on roll, what the text records, whether it records a cube)."""
    rules = dict(args.rule or [])
    if args.position.strip().lower() == "start":
        position = tavla.Position.start(args.variant or "backgammon", **rules)
        return position, {"turn": 0, "dice": None, "double_offered": False}, False
    if rules:
        raise ValueError("--rule applies to 'start' only; a position text records its own rule options")
    info = tavla.formats.parse(args.position)
    position = info["position"]
    variant_agrees(args, position)
    return position, info, text_carries_cube(args.position)
