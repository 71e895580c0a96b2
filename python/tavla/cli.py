"""The ``tavla`` command line.

Each sub-command lives in a small function here; ``tavla --help`` lists them.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from typing import Callable, Sequence

import tavla
from tavla.duel import MissingPackage

# Sub-commands register here: name -> (help text, add_arguments, run).
COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]] = {}


def command(name: str, help_text: str, add_arguments: Callable[[argparse.ArgumentParser], None]):
    def register(run: Callable[[argparse.Namespace], int]):
        COMMANDS[name] = (help_text, add_arguments, run)
        return run

    return register


def parse_counts(text: str, who: str) -> list[int]:
    """25 comma- or space-separated counts: points 1..24, then the bar."""
    parts = text.replace(",", " ").split()
    try:
        return [int(p) for p in parts]
    except ValueError:
        raise ValueError(f"{who} must be 25 whole numbers separated by commas or spaces: {text!r}") from None


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
        if args.variant and args.variant != pos.variant:
            raise ValueError(f"the position is a {pos.variant} position, not {args.variant}")
        return pos, info
    variant = args.variant or "backgammon"
    if args.mine is None and args.theirs is None:
        return tavla.Position.start(variant, **rules), {}
    if args.mine is None or args.theirs is None:
        raise ValueError("give both --mine and --theirs, or neither for the start position")
    return tavla.Position.from_arrays(
        variant, parse_counts(args.mine, "--mine"), parse_counts(args.theirs, "--theirs"), **rules
    ), {}


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


def add_position_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("position", nargs="?",
                   help="an XGID, a GNU Backgammon ID (PositionID[:MatchID]), a FIBS board, JSON, or 'start' "
                        "(the default: the start position of --variant, or --mine and --theirs)")
    p.add_argument("--variant", choices=tavla.VARIANTS,
                   help="the variant (default backgammon; a position text names its own, and must agree)")
    p.add_argument("--mine", help="the player on roll: 25 counts (points 1..24, bar), its own numbering")
    p.add_argument("--theirs", help="the opponent: 25 counts in its own numbering")
    p.add_argument("--rule", action="append", type=rule_option, metavar="NAME=VALUE", help="a rule option")


def add_moves_arguments(p: argparse.ArgumentParser) -> None:
    add_position_arguments(p)
    p.add_argument("--dice", nargs=2, type=int, metavar=("D1", "D2"),
                   help="the roll (default: the dice the position text records)")


@command("moves", "list the legal plays of a position and roll", add_moves_arguments)
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


def add_serve_arguments(p: argparse.ArgumentParser) -> None:
    # Unset flags keep the TAVLA_* environment value, or the default.
    p.add_argument("--host", help="address to bind (default 127.0.0.1; env TAVLA_HOST)")
    p.add_argument("--port", type=int, help="port (default 8000; env TAVLA_PORT)")
    p.add_argument("--workers", type=int, help="engine worker threads (default 2; env TAVLA_WORKERS)")
    p.add_argument("--queue", type=int, help="engine calls that may wait for a worker (default 16; env TAVLA_QUEUE)")
    p.add_argument("--default-ply", type=int, help="ply when a request names none (default 1; env TAVLA_DEFAULT_PLY)")
    p.add_argument("--max-ply", type=int, help="highest ply a request may ask for (default 2; env TAVLA_MAX_PLY)")
    p.add_argument("--time-limit", type=float, help="seconds per engine request (default 10; env TAVLA_TIME_LIMIT)")
    p.add_argument("--max-body", type=int, help="largest request body in bytes (default 16384; env TAVLA_MAX_BODY)")
    p.add_argument("--quiet", "--no-access-log", dest="quiet", action="store_true",
                   help="no access log (by default one line per request)")


@command("serve", "run the HTTP hint service and the web board", add_serve_arguments)
def run_serve(args: argparse.Namespace) -> int:
    try:
        from tavla.service.server import serve
    except ImportError as e:
        raise ValueError(f'the service needs its extra: pip install "tavla[serve]" ({e})') from None
    return serve(args)


def add_duel_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "player0",
        help="random, network[:PLY], network=FILE.tnn[,RACE.tnn][:PLY] (weights files: a network, or a contact and a race network), heuristic[:PLY], pubeval[:PLY], pips[:PLY] or gnubg[:PLY]",
    )
    p.add_argument("player1", help="the opponent, in the same form")
    p.add_argument("--variant", default="backgammon", choices=tavla.VARIANTS)
    p.add_argument("--games", type=int, default=100, help="games (rounded up to duplicate pairs)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=0, help="0 = all cores")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--rule", action="append", type=rule_option, metavar="NAME=VALUE", help="a rule option")


@command("duel", "play cubeless duplicate-dice games between two players", add_duel_arguments)
def run_duel(args: argparse.Namespace) -> int:
    result = tavla.duel(
        args.variant, args.player0, args.player1, args.games,
        seed=args.seed, threads=args.threads, progress=not args.no_progress, **dict(args.rule or []),
    )
    print(result.summary())
    return 0


def add_bench_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", action="append", choices=tavla.VARIANTS, help="default: all")
    p.add_argument("--plies", type=int, nargs="+", default=[0, 1, 2])
    p.add_argument("--threads", type=int, default=0, help="0 = all cores")


@command("bench", "search fixed positions at fixed plies: nodes, time, nodes/s", add_bench_arguments)
def run_bench(args: argparse.Namespace) -> int:
    from ._core import _bench

    rows = _bench(args.variant or list(tavla.VARIANTS), args.plies, args.threads)
    print(f"{'variant':<11} {'pos':>3} {'dice':>4} {'ply':>3} {'nodes':>10} {'ms':>9} {'nodes/s':>11}  best")
    for variant, k, (d1, d2), ply, nodes, seconds, best in rows:
        rate = nodes / seconds if seconds > 0 else 0.0
        print(f"{variant:<11} {k:>3} {d1}-{d2:<2} {ply:>3} {nodes:>10} {seconds * 1e3:>9.1f} {rate:>11.0f}  {best}")
    nodes = sum(r[4] for r in rows)
    seconds = sum(r[5] for r in rows)
    print(f"total: {nodes} nodes in {seconds:.3f} s, {nodes / max(seconds, 1e-9):.0f} nodes/s")
    return 0


def add_bearoff_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", default="backgammon", choices=tavla.VARIANTS)
    p.add_argument("--home", default="0,0,0,0,0,15", help="6 counts, points 1..6 (default: 15 on the 6 point)")
    p.add_argument("--rule", action="append", type=rule_option, metavar="NAME=VALUE", help="a rule option")


@command("bearoff", "build the exact bear-off tables and show one position's distribution", add_bearoff_arguments)
def run_bearoff(args: argparse.Namespace) -> int:
    from ._core import _bearoff_info

    home = parse_counts(args.home, "--home")
    seconds, dist, mean = _bearoff_info(args.variant, home, **dict(args.rule or []))
    print(f"{args.variant} bear-off tables ready in {seconds:.2f} s")
    print(f"home {home}: expected {mean:.4f} rolls to bear off")
    for n, p in enumerate(dist):
        if p > 0:
            print(f"  {n:2d} rolls: {p:.6f}")
    return 0


# Game sub-commands live in their own module; importing it registers them.
from . import cli_games  # noqa: E402,F401
from . import cli_engine  # noqa: E402,F401


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tavla", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"tavla {tavla.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (help_text, add_arguments, _) in COMMANDS.items():
        add_arguments(sub.add_parser(name, help=help_text, description=help_text))
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        with warnings.catch_warnings():
            warnings.showwarning = show_warning
            code = COMMANDS[args.command][2](args)
            sys.stdout.flush()  # a closed pipe shows here, inside the try, not at exit
            return code
    except ValueError as e:
        print(f"tavla: error: {e}", file=sys.stderr)
        return 2
    except ImportError as e:  # a package an option needs (gnubg-nn for a gnubg duel); the message says how to install it
        if not isinstance(e, MissingPackage):
            raise
        print(f"tavla: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C: no traceback
        print("\ntavla: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `tavla moves ... | head`: the reader left; stop quietly
        # Python would complain again when it flushes stdout at exit: point stdout at /dev/null.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141  # as if killed by SIGPIPE, like other tools in a pipe


_default_showwarning = warnings.showwarning


def show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """The deprecated JSON position form is one line on stderr; other warnings as Python shows them."""
    if issubclass(category, tavla.formats.DeprecatedPositionForm):
        print(f"tavla: warning: {message}", file=sys.stderr)
    else:
        _default_showwarning(message, category, filename, lineno, file, line)


if __name__ == "__main__":
    sys.exit(main())
