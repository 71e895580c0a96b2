#!/usr/bin/env python3
"""Agreement of tavla's cubeless rollouts with GNU Backgammon's own (Debian gnubg 1.07, an oracle).

    python3 scripts/gnubg_rollouts.py    # --per-kind 4 --trials 324 --contact-trials 144 --bearoff-trials 72 --seed 1
    python3 scripts/gnubg_rollouts.py --json out.json  # also every number as JSON

Positions: a seeded sample of benches/positions/cube-backgammon.json (gnubg self-play positions,
with gnubg's class and 0-ply probabilities), ``--per-kind`` of each kind: bear-offs (gnubg classes
4-7, both sides home), races (8) and contact (9, 10).

Equal settings on both sides, for the player on roll before its roll: cubeless, both players at
0-ply, the same trial count, variance reduction on (each roll's luck subtracted), quasi-random
dice (the first two rolls stratified over 36 x 36), one thread, no truncation of any kind (every
trial is played to the end: gnubg's truncation and both bear-off truncations off, tavla's
``truncate=None, stop_at_bearoff=False``). Seeds differ in meaning (gnubg's Mersenne Twister and
tavla's per-trial generator), so the two rollouts are independent estimates.

Each rollout estimates the cubeless equity of the position when its own engine's 0-ply player
plays both sides. Where both players are near perfect (bear-offs, where both play by bear-off
databases, and most races) the two expectations are equal and the rollouts must agree within
their errors; in contact the players are different networks, so the expectations differ too, and
the 0-ply evaluations of both networks (``gnubg 0-ply``, ``tavla 0-ply``) are shown beside the
rollouts to show by how much the players see the position differently.

gnubg is driven through its embedded Python (``gnubg -t -q -r -p``): ``set board <Position ID>``
then ``rollout``. gnubg prints a rollout's result only when its standard output is a terminal, so
it runs on a pseudo-terminal and the final result block of each rollout is parsed
(``set output digits 5``). gnubg's bracketed numbers are the standard errors of the means.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gnubg_matches import gnubg_program  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
POSITIONS = ROOT / "benches" / "positions" / "cube-backgammon.json"
#: gnubg's position classes (``gnubg.classifypos``) by kind.
KINDS = {"bearoff": (4, 5, 6, 7), "race": (8,), "contact": (9, 10)}
#: The rollout settings that make gnubg's rollout the same experiment as tavla's (see the docstring).
GNUBG_SETTINGS = [
    "set threads 1",
    "set automatic roll off",
    "set player 0 human",
    "set player 1 human",
    "set display off",
    "set output digits 5",
    "set rollout cubeful off",
    "set rollout varredn on",
    "set rollout quasirandom on",
    "set rollout initial off",
    "set rollout truncation enable off",
    "set rollout bearofftruncation exact off",
    "set rollout bearofftruncation onesided off",
    "set rollout later enable off",
    "set rollout chequerplay plies 0",
    "set rollout cubedecision plies 0",
    "set rollout limit enable off",
    "set rollout jsd stop off",
    "set rollout rng mersenne",
]
#: Half the last digit gnubg prints (``set output digits 5``): its rounding, part of every combined error
#: (a variance-reduced bear-off rollout is exact in both engines, and this is all that is left).
RESOLUTION = 0.5e-5
MARK = "TAVLA-ROLLOUT"
DONE = "Rollout done. Printing final results."
# gnubg's result lines: the five probabilities and the cubeless equity, then their errors in [ ].
RESULT = re.compile(r"^\s*([-+0-9. ]+?)\s+-\s+([-+0-9. ]+?)\s+CL\s+([-+]?[0-9.]+)\s*$")
ERRORS = re.compile(r"^\s*\[([-+0-9. ]+?)\s+-\s+([-+0-9. ]+?)\s+CL\s+([-+]?[0-9.]+)\s*\]")


@dataclass
class Rollout:
    equity: float
    error: float
    probabilities: tuple[float, ...]


def pick_positions(cases: list[dict], per_kind: int, seed: int) -> list[dict]:
    """``per_kind`` distinct positions of each kind, drawn with ``seed`` (in the file's order within a kind)."""
    rng = random.Random(seed)
    out = []
    for kind, classes in KINDS.items():
        seen: dict[str, dict] = {}
        for c in cases:
            if c["gnubg_class"] in classes:
                seen.setdefault(c["position_id"], c)
        pool = list(seen.values())
        if len(pool) < per_kind:
            raise ValueError(f"only {len(pool)} {kind} positions in {POSITIONS.name}, {per_kind} asked")
        chosen = sorted(rng.sample(range(len(pool)), per_kind))
        out += [{"position_id": pool[k]["position_id"], "kind": kind, "gnubg0": cubeless_equity(pool[k]["gnubg"]["0"]["probs"])}
                for k in chosen]
    return out


def cubeless_equity(p: dict) -> float:
    """Money cubeless equity of gnubg's five probabilities (gammons include backgammons)."""
    return 2 * p["win"] - 1 + p["win_gammon"] - p["lose_gammon"] + p["win_backgammon"] - p["lose_backgammon"]


def gnubg_script(jobs: list[tuple[str, int]], seed: int) -> str:
    """The Python that gnubg runs: the settings, then for each (position ID, trials) a marker line
    and the rollout of that position (the player on roll before its roll)."""
    lines = ["import gnubg", "import sys"]
    lines += [f"gnubg.command({c!r})" for c in GNUBG_SETTINGS + ["new session"]]
    for k, (pid, trials) in enumerate(jobs):
        lines += [
            f"gnubg.command('set rollout trials {trials}')",
            f"gnubg.command('set rollout seed {seed + k}')",
            f"gnubg.command('set board {pid}')",
            f"print({MARK!r}, {pid!r}, flush=True)",
            "gnubg.command('rollout')",
        ]
    return "\n".join(lines) + "\n"


def run_gnubg(jobs: list[tuple[str, int]], seed: int, timeout: float) -> str:
    """gnubg's output for ``gnubg_script`` (run on a pseudo-terminal: see the docstring)."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(gnubg_script(jobs, seed))
        script = f.name
    master, slave = os.openpty()
    try:
        proc = subprocess.Popen([gnubg_program(), "-t", "-q", "-r", "-p", script], stdin=subprocess.DEVNULL,
                                stdout=slave, stderr=slave, close_fds=True)
        os.close(slave)
        chunks, deadline = [], time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: gnubg closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        if proc.poll() is None:  # past the timeout
            proc.kill()
        proc.wait()
    finally:
        os.close(master)
        os.unlink(script)
    return b"".join(chunks).decode("utf-8", "replace")


def parse_gnubg(text: str) -> dict[str, Rollout]:
    """Each marked rollout's final result in gnubg's output: {position ID: Rollout}. A rollout whose
    final block is missing or malformed is a ValueError naming the position."""
    out: dict[str, Rollout] = {}
    parts = text.replace("\r", "").split(MARK + " ")
    for part in parts[1:]:
        pid = part.split("\n", 1)[0].strip()
        if DONE not in part:
            raise ValueError(f"gnubg printed no final rollout result for {pid}")
        lines = part.split(DONE, 1)[1].split("\n")
        result = next((m for m in map(RESULT.match, lines) if m), None)
        errors = next((m for m in map(ERRORS.match, lines) if m), None)
        if result is None or errors is None:
            raise ValueError(f"gnubg's final rollout result for {pid} is not in the expected form")
        probabilities = tuple(float(x) for x in (result[1] + " " + result[2]).split())
        if len(probabilities) != 6:
            raise ValueError(f"gnubg's rollout result for {pid} has {len(probabilities)} probabilities, not 6")
        win, wg, wbg, _lose, lg, lbg = probabilities
        out[pid] = Rollout(float(result[3]), float(errors[3]), (win, wg, wbg, lg, lbg))
    return out


def difference(ours: Rollout, gnubg: Rollout) -> tuple[float, float, float]:
    """(ours - gnubg, the combined standard error with gnubg's rounding, the difference in units of it)."""
    diff = ours.equity - gnubg.equity
    combined = math.sqrt(ours.error**2 + gnubg.error**2 + RESOLUTION**2)
    return diff, combined, diff / combined


def summary(rows: list[dict]) -> dict[str, tuple[int, int]]:
    """Per kind and in all: (differences inside 95%, i.e. |z| < 1.96, positions)."""
    out: dict[str, tuple[int, int]] = {}
    for kind in list(KINDS) + ["all"]:
        group = [r for r in rows if kind in ("all", r["kind"])]
        if group:
            out[kind] = (sum(abs(r["z"]) < 1.96 for r in group), len(group))
    return out


def tavla_rollouts(positions: list[dict], jobs: list[tuple[str, int]], seed: int) -> list[tuple[Rollout, float, float]]:
    """tavla's rollout of each job at the same settings, its 0-ply equity and seconds."""
    import tavla

    engine = tavla.Engine("backgammon", ply=0)
    out = []
    for k, (pid, trials) in enumerate(jobs):
        pos = tavla.formats.position_from_id(pid)
        start = time.perf_counter()
        r = engine.rollout(pos, trials=trials, seed=seed + k, threads=1, variance_reduction=True, stratify_second=True,
                           truncate=None, stop_at_bearoff=False)
        seconds = time.perf_counter() - start
        out.append((Rollout(r.equity, r.equity_error, r.probabilities()), engine.evaluate(pos).equity, seconds))
    return out


def table(rows: list[dict]) -> str:
    head = ("| kind | position | trials | gnubg rollout | tavla rollout | tavla - gnubg | z | gnubg 0-ply | tavla 0-ply |\n"
            "|---|---|---:|---:|---:|---:|---:|---:|---:|")
    body = [f"| {r['kind']} | `{r['position_id']}` | {r['trials']} | {r['gnubg'].equity:+.4f} ± {r['gnubg'].error:.4f} | "
            f"{r['tavla'].equity:+.4f} ± {r['tavla'].error:.4f} | {r['diff']:+.4f} ± {r['combined']:.4f} | {r['z']:+.2f} | "
            f"{r['gnubg0']:+.4f} | {r['tavla0']:+.4f} |" for r in rows]
    return "\n".join([head] + body)


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-kind", type=int, default=4, help="positions of each kind (bear-off, race, contact)")
    ap.add_argument("--trials", type=int, default=324, help="trials per race position, both engines")
    ap.add_argument("--contact-trials", type=int, default=144, help="trials per contact position, both engines")
    ap.add_argument("--bearoff-trials", type=int, default=72, help="trials per bear-off position, both engines")
    ap.add_argument("--seed", type=int, default=1, help="picks the positions; position k's rollouts use seed + k")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds gnubg may take in all")
    ap.add_argument("--only", nargs="+", metavar="ID", help="roll out only these of the sampled positions")
    ap.add_argument("--json", type=Path, help="also write every number here")
    args = ap.parse_args(argv)

    positions = pick_positions(json.loads(POSITIONS.read_text())["positions"], args.per_kind, args.seed)
    if args.only:
        positions = [p for p in positions if p["position_id"] in args.only]
        if len(positions) != len(set(args.only)):
            sys.exit("--only names a position that is not in the sample")
    trials = {"bearoff": args.bearoff_trials, "race": args.trials, "contact": args.contact_trials}
    jobs = [(p["position_id"], trials[p["kind"]]) for p in positions]
    start = time.perf_counter()
    gnubg = parse_gnubg(run_gnubg(jobs, args.seed, args.timeout))
    gnubg_seconds = time.perf_counter() - start
    missing = [pid for pid, _ in jobs if pid not in gnubg]
    if missing:
        sys.exit(f"gnubg gave no rollout for {', '.join(missing)}")
    ours = tavla_rollouts(positions, jobs, args.seed)
    rows = []
    for p, (pid, trials), (t, t0, seconds) in zip(positions, jobs, ours):
        diff, combined, z = difference(t, gnubg[pid])
        rows.append({**p, "trials": trials, "gnubg": gnubg[pid], "tavla": t, "tavla0": t0, "diff": diff, "combined": combined,
                     "z": z, "tavla_seconds": seconds})
    print(table(rows))
    print()
    for kind, (inside, n) in summary(rows).items():
        print(f"{kind}: {inside} of {n} differences inside 95% (|z| < 1.96)")
    print(f"gnubg {gnubg_seconds:.0f} s, tavla {sum(r['tavla_seconds'] for r in rows):.0f} s (one thread each)")
    if args.json:
        args.json.write_text(json.dumps({"settings": vars(args) | {"json": str(args.json)}, "gnubg_seconds": gnubg_seconds,
                                         "rows": [r | {"gnubg": asdict(r["gnubg"]), "tavla": asdict(r["tavla"])} for r in rows]},
                                        indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
