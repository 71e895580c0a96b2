#!/usr/bin/env python3
"""How well tavla's match analysis agrees with GNU Backgammon's on the same matches.

    python3 scripts/gnubg_matches.py /tmp/gnubg-matches --seeds 1 2 3 4
    python3 scripts/gnubg_agreement.py /tmp/gnubg-matches [--gnubg-ply 0] [--tavla-ply 0] [--json out.json]

For every ``.sgf`` in the folder (gnubg's own files, from scripts/gnubg_matches.py): gnubg loads
it, analyses it (``analyse match`` with checker play and cube decisions at ``--gnubg-ply``) and
prints ``show statistics match``; ``tavla analyze FILE --json --ply N`` judges the same file. Per
player of each match: unforced moves, the checker-play error rate (thousandths of normalized
equity, EMG, per unforced move: gnubg's "Error rate mEMG") and the total error, checker and cube
(gnubg's overall "Error total EMG"; in a match both count through match winning chances).
Then over all player-matches: Spearman's rank correlation of the checker error rates and of the
total errors, and the ratio of the totals (tavla's sum over gnubg's). Prints a Markdown table.

Needs the ``gnubg`` program (``apt-get install gnubg``) and tavla installed for ``sys.executable``.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from gnubg_matches import run_gnubg  # noqa: E402

NUMBER = r"-?\d+(?:\.\d+)?"


def gnubg_statistics(sgf: Path, ply: int) -> list[dict]:
    """gnubg's per-player statistics of its analysis of ``sgf``."""
    log = run_gnubg([
        f"set analysis chequerplay evaluation plies {ply}",
        f"set analysis cubedecision evaluation plies {ply}",
        f"load match {sgf}",
        "analyse match",
        "show statistics match",
    ])
    start = log.rfind("Chequerplay statistics")
    if start < 0:
        raise SystemExit(f"gnubg printed no statistics for {sgf}:\n{log[-2000:]}")
    sections = {name: log[log.index(name, start - 100):] for name in ("Chequerplay statistics", "Cube statistics", "Overall statistics")}

    def row(section: str, label: str) -> list[float]:
        m = re.search(rf"^{re.escape(label)}[^\n]*?({NUMBER})[^\n]*?\s({NUMBER})", sections[section][:5000], re.M)
        if not m:
            raise SystemExit(f"no {label!r} in gnubg's {section} of {sgf}")
        if "EMG" in label:
            # "Error total EMG (MWC)   -5.180 ( -8.833)   -0.000 ( -0.000)": the EMG of each player.
            line = sections[section][m.start():sections[section].index("\n", m.start())]
            values = re.findall(rf"({NUMBER})\s*\(\s*[-+]?\d+(?:\.\d+)?%?\s*\)", line[len(label):])
            return [abs(float(v)) for v in values[:2]]
        return [float(m.group(1)), float(m.group(2))]

    unforced = row("Chequerplay statistics", "Unforced moves")
    checker_total = row("Chequerplay statistics", "Error total EMG")
    checker_rate = row("Chequerplay statistics", "Error rate mEMG")
    cube_total = row("Cube statistics", "Error total EMG")
    cube_decisions = row("Cube statistics", "Close or actual cube decisions")
    total = row("Overall statistics", "Error total EMG")
    return [
        {"unforced_moves": int(unforced[p]), "checker_error": checker_total[p], "checker_error_rate": checker_rate[p],
         "cube_error": cube_total[p], "close_cube_decisions": int(cube_decisions[p]), "total_error": total[p]}
        for p in (0, 1)
    ]


def tavla_statistics(sgf: Path, ply: int) -> dict:
    out = subprocess.run([sys.executable, "-m", "tavla", "analyze", str(sgf), "--json", "--ply", str(ply)],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    k = 0
    while k < len(order):
        j = k
        while j + 1 < len(order) and values[order[j + 1]] == values[order[k]]:
            j += 1
        for i in range(k, j + 1):
            out[order[i]] = (k + j) / 2 + 1
        k = j + 1
    return out


def spearman(a: list[float], b: list[float]) -> float:
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    var = (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
    return cov / var if var else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--gnubg-ply", type=int, default=0)
    ap.add_argument("--tavla-ply", type=int, default=0)
    ap.add_argument("--json", type=Path, help="write every number here too")
    args = ap.parse_args()
    rows = []
    for sgf in sorted(args.folder.glob("*.sgf")):
        g = gnubg_statistics(sgf.resolve(), args.gnubg_ply)
        t = tavla_statistics(sgf, args.tavla_ply)
        for p in (0, 1):
            tp = t["players"][p]
            rows.append({
                "file": sgf.name, "player": tp["name"],
                "gnubg": g[p],
                "tavla": {"unforced_moves": tp["unforced_moves"], "checker_error": tp["checker_error"],
                          "checker_error_rate": tp["checker_error_rate"], "cube_error": tp["cube_error"],
                          "total_error": tp["checker_error"] + tp["cube_error"]},
            })
        print(f"{sgf.name}: done", file=sys.stderr)
    if not rows:
        raise SystemExit(f"no .sgf file in {args.folder}")
    print(f"gnubg analysis at {args.gnubg_ply}-ply, tavla analyze --ply {args.tavla_ply}, {len(rows)} player-matches\n")
    print("| file | player | unforced (gnubg / tavla) | checker error rate, mEMG (gnubg / tavla) | total error, EMG (gnubg / tavla) |")
    print("|---|---|---|---|---|")
    for r in rows:
        g, t = r["gnubg"], r["tavla"]
        print(f"| {r['file']} | {r['player']} | {g['unforced_moves']} / {t['unforced_moves']} | "
              f"{g['checker_error_rate']:.1f} / {t['checker_error_rate']:.1f} | {g['total_error']:.3f} / {t['total_error']:.3f} |")
    rate = spearman([r["gnubg"]["checker_error_rate"] for r in rows], [r["tavla"]["checker_error_rate"] for r in rows])
    total = spearman([r["gnubg"]["total_error"] for r in rows], [r["tavla"]["total_error"] for r in rows])
    g_sum = sum(r["gnubg"]["total_error"] for r in rows)
    t_sum = sum(r["tavla"]["total_error"] for r in rows)
    g_checker = sum(r["gnubg"]["checker_error"] for r in rows)
    t_checker = sum(r["tavla"]["checker_error"] for r in rows)
    print()
    print(f"Spearman rank correlation over player-matches: checker error rate {rate:.3f}, total error {total:.3f}")
    print(f"Ratio of totals (tavla / gnubg): checker error {t_checker:.3f} / {g_checker:.3f} = {t_checker / g_checker:.3f}; "
          f"total error {t_sum:.3f} / {g_sum:.3f} = {t_sum / g_sum:.3f}")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "spearman_checker_rate": rate, "spearman_total": total,
                                         "ratio_checker": t_checker / g_checker, "ratio_total": t_sum / g_sum}, indent=1))


if __name__ == "__main__":
    main()
