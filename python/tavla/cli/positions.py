"""The commands that read a position without the engine: ``tavla moves`` (the legal
plays of a roll) and ``tavla show`` (the position drawn, through ``tavla.play``)."""

from __future__ import annotations

import argparse

from .arguments import add_position_arguments, position_from_args


def add_moves_arguments(p: argparse.ArgumentParser) -> None:
    add_position_arguments(p)
    p.add_argument("--dice", nargs=2, type=int, metavar=("D1", "D2"),
                   help="the roll (default: the dice the position text records)")


def run_moves(args: argparse.Namespace) -> int:
    pos, info = position_from_args(args)
    dice = args.dice or info.get("dice")
    if not dice:
        raise ValueError("give the roll as --dice D1 D2 (the position records no dice)")
    moves = pos.legal_moves(*dice)
    print(pos)
    print(f"{len(moves)} legal play(s) of {dice[0]}-{dice[1]}:")
    for k, m in enumerate(moves, 1):
        print(f"{k:3d}. {m}")
    return 0


def add_show_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("position", help="an XGID, a GNU Backgammon ID (PositionID[:MatchID]), a FIBS board, or JSON")


def run_show(args: argparse.Namespace) -> int:
    from ..play import show

    return show(args.position)
