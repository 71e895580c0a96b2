#!/usr/bin/env python3
"""Has GNU Backgammon play matches against itself and save each as gnubg's .sgf and .mat.

    python3 scripts/gnubg_matches.py OUTDIR [--seeds 1 2 3] [--lengths 3 5 7 11 0]

Length 0 is a money session (Jacoby on, ``--money-games`` games). Both players are gnubg at 0-ply
with different noise (``NOISE``, picked by the seed), so the files hold errors of varied sizes for
the analysis agreement (scripts/gnubg_agreement.py). gnubg's own analysis is cleared before saving,
which keeps the files small. Files: ``OUTDIR/match{L}_{seed}.sgf`` and ``.mat`` (``money_{seed}``), and
``OUTDIR/scores.json``: each file's final score (white, black) as gnubg itself states it.
tests/data/gnubg/ holds the seed-1 files, made by
``python3 scripts/gnubg_matches.py tests/data/gnubg --seeds 1`` with Debian's gnubg 1.07.001.

Needs the ``gnubg`` program (``apt-get install gnubg``; Debian puts it in /usr/games).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: Each player's checker-play noise (gnubg's standard deviation in equity), by seed.
NOISE = [(0.0, 0.04), (0.02, 0.0), (0.06, 0.01), (0.0, 0.08), (0.03, 0.03), (0.1, 0.02), (0.01, 0.05), (0.05, 0.0)]


def gnubg_program() -> str:
    found = shutil.which("gnubg") or ("/usr/games/gnubg" if os.path.exists("/usr/games/gnubg") else None)
    if not found:
        sys.exit("gnubg is not installed (apt-get install gnubg)")
    return found


def run_gnubg(commands: list[str], timeout: float = 600) -> str:
    """Runs gnubg's commands through its embedded Python; returns what it printed."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write("import gnubg\n")
        for c in commands:
            f.write(f"gnubg.command({c!r})\n")
        script = f.name
    try:
        done = subprocess.run([gnubg_program(), "-t", "-q", "-r", "-p", script], capture_output=True, text=True, timeout=timeout)
    finally:
        os.unlink(script)
    return done.stdout + done.stderr


def play(out: Path, length: int, seed: int, money_games: int) -> tuple[Path, Path]:
    name = f"match{length}_{seed}" if length else f"money_{seed}"
    sgf, mat = out / f"{name}.sgf", out / f"{name}.mat"
    noise = NOISE[(seed - 1) % len(NOISE)]
    commands = ["set automatic game off" if length == 0 else "set automatic game on", "set jacoby on"]
    for p in (0, 1):
        commands += [
            f"set player {p} gnubg",
            f"set player {p} chequerplay evaluation plies 0",
            f"set player {p} chequerplay evaluation noise {noise[p]}",
            f"set player {p} cubedecision evaluation plies 0",
        ]
    commands.append(f"set seed {seed * 1000 + length}")
    if length:
        commands.append(f"new match {length}")
    else:
        commands += ["new session"] + ["new game"] * (money_games - 1)
    # The names are gnubg's at save time ("new match" sets them back to gnubg's own).
    commands += [
        "set player 0 name white",
        "set player 1 name black",
        "analysis clear match",
        f"save match {sgf}",
        f"export match mat {mat}",
        "show score",
    ]
    log = run_gnubg(commands)
    if not sgf.exists() or not mat.exists():
        sys.exit(f"gnubg wrote no {sgf.name}:\n{log[-2000:]}")
    found = re.findall(r"The score \(after \d+ games?\) is: white (\d+), black (\d+)", log)
    if not found:
        sys.exit(f"gnubg did not say the score of {sgf.name}:\n{log[-2000:]}")
    return sgf, mat, [int(found[-1][0]), int(found[-1][1])]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1])
    ap.add_argument("--lengths", type=int, nargs="+", default=[3, 5, 7, 11, 0])
    ap.add_argument("--money-games", type=int, default=3)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    scores_file = args.out / "scores.json"
    scores = json.loads(scores_file.read_text()) if scores_file.exists() else {}
    for seed in args.seeds:
        for length in args.lengths:
            sgf, mat, score = play(args.out.resolve(), length, seed, args.money_games)
            scores[sgf.stem] = score
            print(f"{sgf} ({sgf.stat().st_size} bytes), {mat} ({mat.stat().st_size} bytes), gnubg's final score {score}")
    scores_file.write_text(json.dumps(dict(sorted(scores.items())), indent=1) + "\n")


if __name__ == "__main__":
    main()
