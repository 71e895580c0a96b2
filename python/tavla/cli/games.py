"""The commands that play whole games: ``tavla play`` (you against the engine in the
terminal, through ``tavla.play``) and ``tavla duel`` (two players, duplicate dice,
through ``tavla.duel``)."""

from __future__ import annotations

import argparse
import os
import warnings

import tavla

from .arguments import add_rule_option, variant_agrees

# The longest match (the match equity tables' extent): the core refuses longer ones (a position text of one
# too); --match is checked here so that the message names the option.
MAX_MATCH = int(tavla.LIMITS["match_length"])


def add_play_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", choices=tavla.VARIANTS + tavla.RESERVE_VARIANTS,
                   help="the game (default backgammon)")
    p.add_argument("--match", type=int, default=0, metavar="N",
                   help=f"play a match to N points, at most {MAX_MATCH} (default: one money game)")
    p.add_argument("--seed", type=int, help="seed the dice (for a repeatable game)")
    p.add_argument("--no-cube", action="store_true", help="play without the doubling cube")
    p.add_argument("--beaver", action="store_true", help="allow beavers (money play)")
    p.add_argument("--jacoby", action="store_true", help="the Jacoby rule: gammons count single until the cube is turned (money play)")
    p.add_argument("--max-cube", type=int, default=64, metavar="V", help="the highest cube value (default 64)")
    p.add_argument("--from", dest="start", metavar="POSITION",
                   help="play one game on from a position (XGID, GNU Backgammon ID, FIBS board or JSON), "
                        "with the cube, score and cube rules it records; you are its player 0")
    add_rule_option(p)
    p.add_argument("--save", metavar="FILE", help="write the game or match record (JSON) here when leaving")


def run_play(args: argparse.Namespace) -> int:
    from ..play import play

    if not 0 <= args.match <= MAX_MATCH:
        raise ValueError(f"--match must be 0 (money) or a number of points up to {MAX_MATCH}, not {args.match}")
    if args.max_cube < 1 or args.max_cube & (args.max_cube - 1):
        raise ValueError(f"--max-cube must be a power of two (1, 2, 4, ...), not {args.max_cube}")
    if args.match and (args.beaver or args.jacoby):
        raise ValueError("--beaver and --jacoby are for money play, not a match")
    if args.start is not None:
        clash = [name for name, given in (("--match", args.match), ("--no-cube", args.no_cube), ("--beaver", args.beaver),
                                          ("--jacoby", args.jacoby), ("--max-cube", args.max_cube != 64),
                                          ("--rule", args.rule)) if given]
        if clash:
            raise ValueError(f"--from takes the match, cube and rules from the position text; leave out {', '.join(clash)}")
        with warnings.catch_warnings():  # the older JSON form: Game.from_position refuses it below, naming why
            warnings.simplefilter("ignore", tavla.formats.DeprecatedPositionForm)
            info = tavla.formats.parse(args.start)
        variant_agrees(args, info["position"])  # the text names its variant: a --variant must agree (it was ignored)
    if args.save is not None:
        folder = os.path.dirname(os.path.abspath(args.save))
        # Found now, not when the game is over and its record would be lost.
        if not os.path.isdir(folder):
            raise ValueError(f"--save {args.save}: the folder {folder} does not exist")
        if os.path.isdir(args.save):
            raise ValueError(f"--save {args.save}: that is a folder; name the file to write")
    return play(args.variant or "backgammon", args.match, args.seed, not args.no_cube, args.beaver,
                dict(args.rule or []), save=args.save, jacoby=args.jacoby, max_cube=args.max_cube, start=args.start)


def add_duel_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "player0",
        help="random, network[:PLY], network=FILE.tnn[,RACE.tnn[,CRASHED.tnn]][:PLY] (weights files: a network, or a contact, a race and a crashed network), heuristic[:PLY], pubeval[:PLY], pips[:PLY] or gnubg[:PLY]",
    )
    p.add_argument("player1", help="the opponent, in the same form")
    p.add_argument("--variant", default="backgammon", choices=tavla.VARIANTS + tavla.RESERVE_VARIANTS)
    p.add_argument("--games", type=int, default=100, help="games (rounded up to duplicate pairs)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=0, help="0 = all cores")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--cascade-width", type=int, metavar="N",
                   help="gul bara: the states each number of a cascade keeps, for both players (default: the "
                        "engine's 2,000; 4, the rollout players' width, is hundreds of times faster)")
    add_rule_option(p)


def run_duel(args: argparse.Namespace) -> int:
    result = tavla.duel(
        args.variant, args.player0, args.player1, args.games,
        seed=args.seed, threads=args.threads, progress=not args.no_progress, cascade_width=args.cascade_width,
        **dict(args.rule or []),
    )
    print(result.summary())
    return 0
