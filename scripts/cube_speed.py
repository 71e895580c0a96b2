"""Speed of a cube decision against a checker hint at the same ply, on the same positions.

    python3 scripts/cube_speed.py --positions 60 --plies 0,1,2

Positions come from benches/positions/cube-backgammon.json (gnubg self-play positions where
a cube decision is live), each with its own cube state; the checker hint uses a roll drawn
from a fixed seed. One thread each, medians in milliseconds, and their ratio.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

import tavla
from tavla import formats

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--plies", default="0,1,2")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    cases = json.loads((ROOT / "benches/positions/cube-backgammon.json").read_text())["positions"]
    rng = random.Random(args.seed)
    picked = rng.sample(cases, min(args.positions, len(cases)))
    rolls = [(rng.randint(1, 6), rng.randint(1, 6)) for _ in picked]
    print(f"{'ply':>3} {'cube decision ms':>17} {'checker hint ms':>16} {'cubeful hint ms':>16} {'cube/hint':>10}")
    for ply in [int(p) for p in args.plies.split(",")]:
        engine = tavla.Engine("backgammon", ply=ply, threads=1)
        cube_times, hint_times, cubeful_times = [], [], []
        for case, (d1, d2) in zip(picked, rolls):
            pos = formats.parse(case["position_id"])["position"]
            cube = tavla.CubeState(**case["cube"])
            t = time.perf_counter()
            engine.cube_decision(pos, cube)
            cube_times.append(time.perf_counter() - t)
            t = time.perf_counter()
            engine.hint(pos, d1, d2)
            hint_times.append(time.perf_counter() - t)
            t = time.perf_counter()
            engine.hint(pos, d1, d2, cube=cube)
            cubeful_times.append(time.perf_counter() - t)
        c, h, f = (statistics.median(x) * 1000 for x in (cube_times, hint_times, cubeful_times))
        print(f"{ply:>3} {c:>17.3f} {h:>16.3f} {f:>16.3f} {c / h:>10.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
