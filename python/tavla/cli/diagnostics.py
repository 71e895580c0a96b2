"""The commands that measure the engine itself: ``tavla bench`` (fixed searches:
nodes, time, nodes per second) and ``tavla bearoff`` (building the exact bear-off
tables, and one position's distribution of rolls to bear off)."""

from __future__ import annotations

import argparse

import tavla

from .arguments import add_rule_option, parse_counts


def add_bench_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", action="append", choices=tavla.VARIANTS, help="default: all")
    p.add_argument("--plies", type=int, nargs="+", default=[0, 1, 2])
    p.add_argument("--threads", type=int, default=0, help="0 = all cores")
    p.add_argument("--evaluator", default="heuristic", help="heuristic (default), network, pubeval or pips")


def run_bench(args: argparse.Namespace) -> int:
    from .._core import _bench

    # The core takes plain small ints: out of range they would escape as OverflowError, not an error message.
    for ply in args.plies:
        if not 0 <= ply <= 4:
            raise ValueError(f"--plies takes plies 0 to 4, not {ply}")
    if not 0 <= args.threads <= tavla.MAX_THREADS:
        raise ValueError(f"--threads must be 0 (all cores) to {tavla.MAX_THREADS}, not {args.threads}")
    rows = _bench(args.variant or list(tavla.VARIANTS), args.plies, args.threads, args.evaluator)
    print(f"{'variant':<11} {'pos':>3} {'dice':>4} {'ply':>3} {'nodes':>10} {'ms':>9} {'nodes/s':>11}  best")
    for variant, k, (d1, d2), ply, nodes, seconds, best in rows:
        rate = nodes / seconds if seconds > 0 else 0.0
        print(f"{variant:<11} {k:>3} {d1}-{d2:<2} {ply:>3} {nodes:>10} {seconds * 1e3:>9.1f} {rate:>11.0f}  {best}")
    nodes = sum(r[4] for r in rows)
    seconds = sum(r[5] for r in rows)
    print(f"total: {nodes} nodes in {seconds:.3f} s, {nodes / max(seconds, 1e-9):.0f} nodes/s")
    print(f"signature: {nodes}")
    return 0


def add_bearoff_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", default="backgammon", choices=tavla.VARIANTS)
    p.add_argument("--home", default="0,0,0,0,0,15", help="6 counts, points 1..6 (default: 15 on the 6 point)")
    add_rule_option(p)


def run_bearoff(args: argparse.Namespace) -> int:
    from .._core import _bearoff_info

    home = parse_counts(args.home, "--home", 6)
    if any(not 0 <= n <= 15 for n in home):
        raise ValueError(f"--home counts are 0 to 15 checkers, not {args.home!r}")
    seconds, dist, mean = _bearoff_info(args.variant, home, **dict(args.rule or []))
    print(f"{args.variant} bear-off tables ready in {seconds:.2f} s")
    print(f"home {home}: expected {mean:.4f} rolls to bear off")
    for n, p in enumerate(dist):
        if p > 0:
            print(f"  {n:2d} rolls: {p:.6f}")
    return 0
