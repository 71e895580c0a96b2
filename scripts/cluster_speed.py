"""Wall time of one batch of work on a local Ray instance against the same batch in one process.

    python3 scripts/cluster_speed.py [--cpus 2] [--positions 24] [--ply 2] [--matches 4]

Batch 1: random backgammon positions evaluated at --ply (tavla.cluster.evaluate_positions, about
four tasks a CPU) against a loop of Engine.evaluate with one thread.
Batch 2: --matches copies of the gnubg test matches analysed at 0-ply (tavla.cluster.analyze_matches)
against a loop of tavla.analysis.analyze_match. Ray's start-up is timed apart. Results must agree.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import tavla
from tavla import analysis, cluster, formats
from tavla.sampling import random_positions

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpus", type=int, default=2)
    ap.add_argument("--positions", type=int, default=24)
    ap.add_argument("--ply", type=int, default=2)
    ap.add_argument("--matches", type=int, default=4)
    args = ap.parse_args()

    positions = random_positions("backgammon", args.positions, seed=17)
    texts = [(DATA / n).read_text() for n in ("gnubg_3pt.mat", "gnubg_5pt.mat")] * (args.matches // 2)

    t = time.perf_counter()
    engine = tavla.Engine("backgammon", ply=args.ply, threads=1)
    here = [engine.evaluate(p) for p in positions]
    evaluate_local = time.perf_counter() - t
    t = time.perf_counter()
    engine0 = tavla.Engine("backgammon", ply=0, threads=1)
    reports_here = [analysis.analyze_match(engine0, formats.read_mat(x)) for x in texts]
    analyze_local = time.perf_counter() - t

    t = time.perf_counter()
    cluster.connect(num_cpus=args.cpus)
    startup = time.perf_counter() - t
    t = time.perf_counter()
    remote = cluster.evaluate_positions(positions, ply=args.ply)
    evaluate_ray = time.perf_counter() - t
    t = time.perf_counter()
    reports = cluster.analyze_matches(texts, ply=0)
    analyze_ray = time.perf_counter() - t
    cluster.shutdown()

    assert all(abs(r[0] - h.win) < 1e-6 for r, h in zip(remote, here)), "Ray and one process disagree"
    assert [r["players"] for r in reports] == [r["players"] for r in reports_here], "Ray and one process disagree"
    print(f"| batch | items | one process (s) | Ray, {args.cpus} CPUs (s) | ratio |")
    print("|---|---|---|---|---|")
    print(f"| {args.positions} positions evaluated at {args.ply}-ply | {len(positions)} | {evaluate_local:.1f} | "
          f"{evaluate_ray:.1f} | {evaluate_ray / evaluate_local:.2f} |")
    print(f"| {len(texts)} matches analysed at 0-ply | {len(texts)} | {analyze_local:.1f} | {analyze_ray:.1f} | "
          f"{analyze_ray / analyze_local:.2f} |")
    print(f"Ray start-up (local instance): {startup:.1f} s")


if __name__ == "__main__":
    main()
