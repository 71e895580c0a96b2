"""``tavla rollout POSITION``: roll a position out (``Engine.rollout``), or with ``--plays`` the best
plays of a roll on common dice (``Engine.rollout_plays``); the cube state as ``tavla hint`` reads it
(``--cubeful``, or the position text's cube, or any cube option, makes the rollout cubeful). A
progress line goes to stderr when stderr is a terminal, or with ``--progress``."""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable, Optional

import tavla

from .arguments import add_engine_position_arguments, read_position
from .engine import add_cube_options, any_cube_option, cube_from_args, dice_for, make_engine, print_json


def add_rollout_arguments(p: argparse.ArgumentParser) -> None:
    add_engine_position_arguments(p, ply_default=0, ply_help="the rollout players' checker ply, 0 to 2")
    p.add_argument("--trials", type=int, default=1296,
                   help=f"trials (default 1296; at most {tavla.MAX_ROLLOUT_TRIALS}; with --target-error the most)")
    p.add_argument("--seed", type=int, default=0, help="dice seed (default 0): the same answer for a seed on any threads")
    p.add_argument("--threads", type=int, default=0, help="threads (default 0: all cores)")
    p.add_argument("--cubeful", action="store_true",
                   help="cubeful too: each side's cube decisions by the 0-ply cube model (the cube options below)")
    p.add_argument("--cube-ply", type=int, default=0,
                   help="with --cubeful: the ply of the probabilities the cube decisions see, 0 to 2 (default 0), "
                        "apart from the checker --ply")
    p.add_argument("--truncate", type=int, metavar="N", help="score each trial by the evaluator after N rolls")
    p.add_argument("--stop-at-bearoff", action="store_true",
                   help="score each trial by the exact bear-off tables once they cover it")
    p.add_argument("--variance-reduction", "--vr", action="store_true",
                   help="subtract each roll's luck (judged at 0-ply): slower trials, much smaller errors")
    p.add_argument("--stratify-second", action="store_true", help="stratify the second roll too (36x36 rotation)")
    p.add_argument("--target-error", type=float, metavar="E",
                   help="stop once the equity's standard error is at most E (checked every 144 trials)")
    p.add_argument("--min-trials", type=int, default=0, help="with --target-error: at least this many trials")
    p.add_argument("--plays", action="store_true", help="roll out the best plays of --dice instead")
    p.add_argument("--dice", type=int, nargs=2, metavar=("D1", "D2"),
                   help="with --plays: the roll (may be left out when the position text records it)")
    p.add_argument("--top", type=int, default=5, help="with --plays: how many plays (default 5)")
    p.add_argument("--progress", action="store_true", help="show progress on stderr even when it is not a terminal")
    add_cube_options(p)


def progress_printer(enabled: bool) -> Optional[Callable[[int, int, float], bool]]:
    if not enabled:
        return None

    def report(done: int, trials: int, equity: float) -> bool:
        end = "\n" if done >= trials else ""
        sys.stderr.write(f"\rrollout: {done}/{trials} trials, equity {equity:+.4f}{end}")
        sys.stderr.flush()
        return True

    return report


def estimate_text(mean: float, error: float, interval: tuple[float, float]) -> str:
    return f"{mean:+.4f} +- {error:.4f} (95%: {interval[0]:+.4f} to {interval[1]:+.4f})"


def run_rollout(args: argparse.Namespace) -> int:
    position, info, carried = read_position(args)
    cubeful = args.cubeful or carried or any_cube_option(args)
    cube = cube_from_args(args, info, carried) if cubeful else None
    if args.threads < 0:
        raise ValueError(f"--threads must be 0 (all cores) or more, not {args.threads}")
    # Checked here, before the engine (whose --ply reaches 4) and the core's integer conversion (which
    # would name the range of a 64-bit count), so that the message gives the rollout's own ranges.
    top_ply = int(tavla.LIMITS["rollout_ply"])
    if not 0 <= args.ply <= top_ply:
        raise ValueError(f"--ply (the rollout players' checker ply) must be 0 to {top_ply}, not {args.ply}")
    if not 0 <= args.cube_ply <= top_ply:
        raise ValueError(f"--cube-ply must be 0 to {top_ply}, not {args.cube_ply}")
    if not 1 <= args.trials <= tavla.MAX_ROLLOUT_TRIALS:
        raise ValueError(f"--trials must be 1 to {tavla.MAX_ROLLOUT_TRIALS}, not {args.trials}")
    if args.plays and args.top < 1:
        raise ValueError(f"--top must be at least 1, not {args.top}")
    if args.dice is not None and not args.plays:
        raise ValueError("--dice goes with --plays (a position rollout starts before the roll)")
    engine = make_engine(position, args.ply)
    progress = progress_printer(args.progress or sys.stderr.isatty())
    settings: dict[str, Any] = dict(
        trials=args.trials, seed=args.seed, threads=args.threads, cube=cube, ply=args.ply, cube_ply=args.cube_ply,
        variance_reduction=args.variance_reduction, stratify_second=args.stratify_second,
        truncate=args.truncate, stop_at_bearoff=args.stop_at_bearoff, min_trials=args.min_trials,
        target_error=args.target_error, progress=progress,
    )
    how = ", ".join(x for x in (
        f"{args.ply}-ply players", "variance reduction" if args.variance_reduction else "",
        f"truncated after {args.truncate} rolls" if args.truncate else "",
        "stopped at exact bear-offs" if args.stop_at_bearoff else "",
        f"cubeful ({cube}, {args.cube_ply}-ply cube)" if cube is not None else "cubeless") if x)
    if args.plays:
        d1, d2 = dice_for(args, info)
        plays = engine.rollout_plays(position, (d1, d2), top=args.top, **settings)
        if args.json:
            print_json({
                "variant": position.variant, "dice": [d1, d2], "seed": args.seed, "cubeful": cube is not None,
                "plays": [{"rank": k, "move": str(p.move), "equity": p.equity, "diff": p.diff, **p.rollout.to_dict()}
                          for k, p in enumerate(plays, 1)],
            })
            return 0
        print(f"{position.variant}, dice {d1}-{d2}, {plays[0].rollout.trials} trials a play (seed {args.seed}), {how}:")
        for k, p in enumerate(plays, 1):
            r = p.rollout
            error = r.cubeful_error if cube is not None else r.equity_error
            print(f"{k:>3}. {str(p.move):<28} {p.equity:+.4f} +- {error:.4f}  ({p.diff:+.4f})")
        return 0
    r = engine.rollout(position, **settings)
    if args.json:
        print_json({"variant": position.variant, "seed": args.seed, "cubeful": cube is not None, **r.to_dict()})
        return 0
    stopped = " (cancelled)" if r.cancelled else ""
    print(f"{position.variant}, {r.trials} trials (seed {args.seed}){stopped}, {how}, for the player on roll:")
    print(f"  win  {r.win * 100:5.1f}%   gammon {r.win_gammon * 100:5.1f}%   backgammon {r.win_backgammon * 100:5.1f}%")
    print(f"  lose {(1 - r.win) * 100:5.1f}%   gammon {r.lose_gammon * 100:5.1f}%   backgammon {r.lose_backgammon * 100:5.1f}%")
    print(f"  cubeless equity {estimate_text(r.equity, r.equity_error, r.interval)}")
    if r.cubeful_equity is not None and r.cubeful_error is not None and r.cubeful_interval is not None:
        print(f"  cubeful equity  {estimate_text(r.cubeful_equity, r.cubeful_error, r.cubeful_interval)}")
    return 0
