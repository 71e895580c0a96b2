"""Differential test of the fast generator against the plain references
(tests/reference/rules_ref.py, and reserve_ref.py for Dutch backgammon and
acey-deucey) on many positions, for every option value.

    python scripts/diff_reference.py --positions 1000 --seed 1
    python scripts/diff_reference.py --only-reserve --reserve-positions 2000 --perft 3
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_reference_diff import CASES, GULBARA_OPTIONS, cascade_failures, compare, sample  # noqa: E402
from test_reserve_diff import RESERVE_CASES  # noqa: E402
from test_reserve_diff import compare as compare_reserve  # noqa: E402
from test_reserve_diff import sample as sample_reserve  # noqa: E402

import tavla  # noqa: E402
from reference import reserve_ref  # noqa: E402
from tavla.sampling import ALL_ROLLS  # noqa: E402


def reference_perft(variant: str, depth: int, **rules) -> list[int]:
    """reserve_ref's perft: distinct positions after 1..depth turns, every roll each turn."""
    level = {reserve_ref.start_position(variant)}
    counts = []
    for _ in range(depth):
        nxt = set()
        for mine, theirs, reserve in level:
            for d1, d2 in ALL_ROLLS:
                if variant == "acey_deucey" and {d1, d2} == {1, 2}:
                    results = {r[:3] for r in reserve_ref.acey_deucey_one_two(mine, theirs, reserve)}
                else:
                    results = reserve_ref.legal_results(variant, mine, theirs, reserve, d1, d2, **rules)
                nxt.update((t, m, (r[1], r[0])) for m, t, r in results)
        counts.append(len(nxt))
        level = nxt
    return counts


def reported(label: str, failures: list, started: float) -> int:
    """Prints a comparison's count of mismatches, its time and its first three mismatches; answers the count."""
    print(f"{label}, {len(failures)} mismatches ({time.perf_counter() - started:.1f}s)")
    for f in failures[:3]:
        print("   ", f)
    return len(failures)


def reserve_runs(args) -> int:
    failures_total = 0
    for variant, rules in RESERVE_CASES:
        start = time.perf_counter()
        failures = compare_reserve(variant, rules, sample_reserve(variant, args.reserve_positions, args.seed, **rules))
        failures_total += reported(f"{variant:10} {rules}: {args.reserve_positions} positions x 21 rolls", failures, start)
        if args.perft:
            start = time.perf_counter()
            want = reference_perft(variant, args.perft, **rules)
            got = tavla.perft(variant, args.perft, **rules)
            print(f"{variant:10} {rules}: perft fast {got}, reference {want} ({time.perf_counter() - start:.1f}s)")
            failures_total += got != want
    return failures_total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000, help="positions per option set")
    parser.add_argument("--cascade-positions", type=int, default=100, help="gul bara positions per option set for cascade steps")
    parser.add_argument("--reserve-positions", type=int, default=200, help="Dutch / acey-deucey positions per option set")
    parser.add_argument("--perft", type=int, default=0, help="also compare the reserve games' perft to this depth with the reference")
    parser.add_argument("--only-reserve", action="store_true", help="run the Dutch and acey-deucey comparisons only")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    total_failures = reserve_runs(args)
    if args.only_reserve:
        print(f"total mismatches: {total_failures}")
        return 1 if total_failures else 0
    for variant, rules in CASES:
        start = time.perf_counter()
        failures = compare(variant, rules, sample(variant, args.positions, args.seed, **rules))
        total_failures += reported(f"{variant:10} {rules}: {args.positions} positions x 21 rolls", failures, start)
    for rules in GULBARA_OPTIONS:
        start = time.perf_counter()
        failures = cascade_failures(rules, sample("gulbara", args.cascade_positions, args.seed + 1, **rules))
        print(f"cascade    {rules}: {args.cascade_positions} positions x 6 dice x 4 counts x 2 head_used, {len(failures)} mismatches ({time.perf_counter() - start:.1f}s)")
        total_failures += len(failures)
    print(f"total mismatches: {total_failures}")
    return 1 if total_failures else 0


if __name__ == "__main__":
    sys.exit(main())
