"""How close each of tavla's teachers comes to gnubg's 2-ply on the cube set's contact positions.

    python3 scripts/teacher_errors.py                                   # 0, 1, 2-ply only
    python3 scripts/teacher_errors.py --rollouts 144:4 144:8 576:8 144:full

Picks --positions of the distinct contact and crashed positions (gnubg's classes) of
benches/positions/cube-backgammon.json (drawn with --seed) and prints, for each teacher, the mean
absolute, root mean square and mean signed difference between its cubeless equity and gnubg's
2-ply one, beside gnubg's own 0-ply, with the seconds the teacher took. A yardstick for choosing
labels (gnubg's numbers measure, they never train).

A rollout is TRIALS:HORIZON, labelled as the training stages label (`_coach.nn_rollout_labels`:
the shipped contact network at 0-ply with the race and crashed networks judging, stratified first
roll, stopped at the exact bear-off tables), each trial stopped after HORIZON rolls and scored by
the networks' 0-ply value there, or played to the end with `full`. Needs the training package
(`pip install -e coach`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import tavla

ROOT = Path(__file__).resolve().parent.parent
SET = ROOT / "benches" / "positions" / "cube-backgammon.json"
WEIGHTS = ROOT / "weights"


def gnubg_equity(entry: dict) -> float:
    """The cubeless equity of a gnubg evaluation's probabilities (by tavla's rule: the same convention)."""
    p = entry["probs"]
    return tavla.Evaluation([p["win"], p["win_gammon"], p["win_backgammon"], p["lose_gammon"], p["lose_backgammon"]]).equity


def contact_cases(path: Path, count: int, seed: int) -> list[dict]:
    """`count` distinct contact or crashed positions of the set, drawn with `seed`, in the set's order."""
    seen: set[str] = set()
    cases = []
    for case in json.loads(path.read_text())["positions"]:
        if case["gnubg_class_name"] in ("contact", "crashed") and case["position_id"] not in seen:
            seen.add(case["position_id"])
            cases.append(case)
    if not 1 <= count <= len(cases):
        raise SystemExit(f"--positions must be 1 to {len(cases)}, not {count}")
    return [cases[k] for k in sorted(np.random.default_rng(seed).choice(len(cases), count, replace=False))]


def rollout_spec(text: str) -> tuple[int, int | None]:
    trials, _, horizon = text.partition(":")
    try:
        return int(trials), None if horizon == "full" else int(horizon)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a rollout is TRIALS:HORIZON or TRIALS:full, not {text!r}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--plies", default="0,1,2", help="tavla's searches to score")
    parser.add_argument("--rollouts", nargs="*", type=rollout_spec, default=[], metavar="TRIALS:HORIZON")
    parser.add_argument("--rollout-seed", type=int, default=77)
    parser.add_argument("--threads", type=int, default=0, help="0 = all cores")
    args = parser.parse_args(argv)

    from tavla import formats

    cases = contact_cases(SET, args.positions, args.seed)
    reference = np.array([gnubg_equity(c["gnubg"]["2"]) for c in cases])
    crashed = np.array([c["gnubg_class_name"] == "crashed" for c in cases])
    positions = [formats.parse(c["position_id"])["position"] for c in cases]
    print(f"{len(cases)} positions ({int(crashed.sum())} crashed); cubeless equity against gnubg's 2-ply")
    print(f"{'teacher':<30} {'mean abs':>9} {'rms':>7} {'mean':>8} {'crashed':>8} {'seconds':>8}")

    def report(name: str, equities: np.ndarray, seconds: float | None) -> None:
        err = equities - reference
        took = "" if seconds is None else f"{seconds:>8.1f}"
        print(f"{name:<30} {np.abs(err).mean():>9.4f} {np.sqrt((err ** 2).mean()):>7.4f} {err.mean():>+8.4f} "
              f"{np.abs(err[crashed]).mean() if crashed.any() else float('nan'):>8.4f} {took}", flush=True)

    report("gnubg 0-ply", np.array([gnubg_equity(c["gnubg"]["0"]) for c in cases]), None)
    for ply in [int(p) for p in args.plies.split(",") if p]:
        engine = tavla.Engine("backgammon", ply=ply)
        start = time.perf_counter()
        equities = np.array([engine.evaluate(p).equity for p in positions])
        report(f"tavla {ply}-ply", equities, time.perf_counter() - start)
    if args.rollouts:
        from tavla_train import _coach

        contact, race, crashed_net = (
            (WEIGHTS / f"backgammon{suffix}.tnn").read_bytes() for suffix in ("", "-race", "-crashed"))
        boards = np.array([p.to_arrays() for p in positions], dtype=np.int8).reshape(-1, 2, 25)
        for trials, horizon in args.rollouts:
            start = time.perf_counter()
            labels = np.frombuffer(_coach.nn_rollout_labels(
                contact, "backgammon", boards.tobytes(), trials, args.rollout_seed, args.threads,
                race=race, crashed=crashed_net, horizon=horizon), dtype="<f4").reshape(-1, 5)
            name = f"rollouts {trials} x {'whole games' if horizon is None else f'{horizon} rolls'}"
            report(name, np.array([tavla.Evaluation(p).equity for p in labels]), time.perf_counter() - start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
