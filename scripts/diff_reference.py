"""Differential test of the fast generator against the plain reference
(tests/reference/rules_ref.py) on many positions, for every option value.

    python scripts/diff_reference.py --positions 1000 --seed 1
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_reference_diff import CASES, GULBARA_OPTIONS, cascade_failures, compare, sample  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000, help="positions per option set")
    parser.add_argument("--cascade-positions", type=int, default=100, help="gul bara positions per option set for cascade steps")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    total_failures = 0
    for variant, rules in CASES:
        start = time.perf_counter()
        failures = compare(variant, rules, sample(variant, args.positions, args.seed, **rules))
        print(f"{variant:10} {rules}: {args.positions} positions x 21 rolls, {len(failures)} mismatches ({time.perf_counter() - start:.1f}s)")
        for f in failures[:3]:
            print("   ", f)
        total_failures += len(failures)
    for rules in GULBARA_OPTIONS:
        start = time.perf_counter()
        failures = cascade_failures(rules, sample("gulbara", args.cascade_positions, args.seed + 1, **rules))
        print(f"cascade    {rules}: {args.cascade_positions} positions x 6 dice x 4 counts x 2 head_used, {len(failures)} mismatches ({time.perf_counter() - start:.1f}s)")
        total_failures += len(failures)
    print(f"total mismatches: {total_failures}")
    return 1 if total_failures else 0


if __name__ == "__main__":
    sys.exit(main())
