"""The one list of ``tavla``'s sub-commands, and the dispatch to them.

``COMMANDS`` names every sub-command, in the order ``tavla --help`` lists them:
its help text, the function that adds its arguments, and the function that runs
it, each taken from the module of its group (``positions``, ``serve``, ``games``,
``diagnostics``, ``engine``, ``rollout``, ``analyze``). ``main`` parses the command line and runs the
command, turning its errors into one line on stderr and an exit code: 2 for a
``ValueError`` (bad input), 1 for a missing optional package, 130 for Ctrl-C,
141 for a closed pipe. The command modules import neither this module nor the
package; only this module imports them.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from dataclasses import dataclass
from typing import Callable, Sequence

import tavla
from tavla.duel import MissingPackage

from . import analyze, diagnostics, engine, games, positions, rollout, serve


@dataclass(frozen=True)
class Command:
    """A sub-command: ``tavla NAME``, described by ``help``."""

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]  # the exit code


COMMANDS: dict[str, Command] = {c.name: c for c in (
    Command("moves", "list the legal plays of a position and roll",
            positions.add_moves_arguments, positions.run_moves),
    Command("serve", "run the HTTP hint service and the web board",
            serve.add_serve_arguments, serve.run_serve),
    Command("duel", "play cubeless duplicate-dice games between two players",
            games.add_duel_arguments, games.run_duel),
    Command("bench", "search fixed positions at fixed plies: nodes, time, nodes/s",
            diagnostics.add_bench_arguments, diagnostics.run_bench),
    Command("bearoff", "build the exact bear-off tables and show one position's distribution",
            diagnostics.add_bearoff_arguments, diagnostics.run_bearoff),
    Command("play", "play a game or match against the engine in the terminal",
            games.add_play_arguments, games.run_play),
    Command("show", "draw a position given as XGID, GNU Backgammon ID, FIBS board or JSON",
            positions.add_show_arguments, positions.run_show),
    Command("cube", "the cube decision of the player on roll: no double, double/take, double/pass",
            engine.add_cube_arguments, engine.run_cube),
    Command("hint", "the best plays of a position and roll, ranked cubeful when a cube state is known",
            engine.add_hint_arguments, engine.run_hint),
    Command("eval", "cubeless probabilities and equity of a position (and its cubeful equity given a cube state)",
            engine.add_eval_arguments, engine.run_eval),
    Command("rollout", "roll a position (or the best plays of a roll) out: equities with standard errors and 95% intervals",
            rollout.add_rollout_arguments, rollout.run_rollout),
    Command("analyze", "judge every checker play and cube decision of a match file (.mat, .sgf): errors, rates, PR",
            analyze.add_analyze_arguments, analyze.run_analyze),
)}

DESCRIPTION = ("Move and cube hints, evaluations, rollouts, match analysis, duels and play for backgammon, "
               "long nardy, gul bara, Dutch backgammon and acey-deucey. `tavla COMMAND --help` for each command.")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tavla", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"tavla {tavla.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS.values():
        # argparse %-formats help strings ("95% intervals" would read as a %i); descriptions it prints as they are.
        command.add_arguments(sub.add_parser(command.name, help=command.help.replace("%", "%%"),
                                             description=command.help))
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        with warnings.catch_warnings():
            warnings.showwarning = show_warning
            code = COMMANDS[args.command].run(args)
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
