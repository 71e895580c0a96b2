"""``tavla analyze FILE``: every checker play and cube decision of a match file (.mat or .sgf) judged by the
engine (``tavla.analysis``), per player the errors, error rates and PR; ``--json`` prints one JSON
object (``match_length``, ``final_score``, ``players``; ``--decisions`` adds every decision and every
roll's luck)."""

from __future__ import annotations

import argparse
import json
import sys

import tavla


def add_analyze_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a match file: Jellyfish .mat or GNU Backgammon .sgf (backgammon)")
    p.add_argument("--ply", type=int, default=0, help="analysis ply, 0 to 2 (default 0)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--decisions", action="store_true", help="with --json: every decision and roll too")
    p.add_argument("--progress", action="store_true",
                   help="report each game analysed on stderr (the default when stderr is a terminal)")


def progress_line(done: int, total: int) -> None:
    # On a terminal one line counts up; elsewhere (a log) a line per game.
    last = done == total or not sys.stderr.isatty()
    print(f"\ranalysed game {done} of {total}", end="\n" if last else "", file=sys.stderr, flush=True)


def run_analyze(args: argparse.Namespace) -> int:
    from .. import analysis

    if not 0 <= args.ply <= 2:
        raise ValueError(f"--ply must be 0 to 2, not {args.ply}")
    mat = analysis.read_match_file(args.file)
    engine = analysis.match_engine(mat, args.ply)
    report = analysis.analyze_match(engine, mat,
                                    progress=progress_line if args.progress or sys.stderr.isatty() else None)
    if args.json:
        if not args.decisions:
            report.pop("decisions")
            report.pop("rolls")
        print(json.dumps(report, indent=1))
        return 0
    length = report["match_length"]
    print(f"{args.file}: {f'{length}-point match' if length else 'money session'}, final score "
          f"{report['final_score'][0]}-{report['final_score'][1]}, analysed at {args.ply}-ply")
    print(f"{'player':<16} {'moves':>5} {'checker':>8} {'rate':>7} {'cube':>5} {'cube err':>8} {'rate':>7} {'PR':>6} "
          f"{'luck':>7} {'/roll':>6}")
    for p in report["players"]:
        print(f"{p['name'][:16]:<16} {p['unforced_moves']:>5} {p['checker_error']:>8.3f} {p['checker_error_rate']:>7.1f} "
              f"{p['cube_decisions']:>5} {p['cube_error']:>8.3f} {p['error_rate']:>7.1f} {p['pr']:>6.2f} "
              f"{p['luck']:>+7.3f} {p['luck_rate']:>+6.1f}")
    for p in report["players"]:
        kinds = ", ".join(f"{p[k]} {k.replace('_', ' ')}" for k in analysis.CUBE_ERROR_KINDS)
        print(f"  {p['name']}: {kinds}")
    names = [p["name"] for p in report["players"]]
    for d in report["decisions"]:
        if d["mark"]:
            dice = f" {d['dice'][0]}{d['dice'][1]}" if d["dice"] else ""
            print(f"  game {d['game']}, {names[d['player']]}{dice}: {d['played']} ({d['mark']}, -{d['error']:.3f}; best {d['best']})")
    return 0
