"""Python-level move generation speed, tavla against GNU Backgammon (gnubg-nn),
on one fixed set of positions from seeded random play times all 21 rolls.

These run as plain (single-shot) tests in the suite; to measure:

    pytest benches/test_bench_movegen.py --benchmark-enable --benchmark-columns=min,median,rounds

Each benchmark's time covers the whole set (200 positions x 21 rolls = 4,200 calls).
"""

from __future__ import annotations

import gnubg_nn
import numpy as np
import pytest

import tavla
from tavla.sampling import ALL_ROLLS, random_positions

POSITIONS = {v: random_positions(v, 200, seed=2024) for v in tavla.VARIANTS}
CASES = {v: [(p, d1, d2) for p in ps for d1, d2 in ALL_ROLLS] for v, ps in POSITIONS.items()}
GNUBG_BOARDS = [([list(p.to_arrays()[1]), list(p.to_arrays()[0])], d1, d2) for p, d1, d2 in CASES["backgammon"]]
BATCH = {
    v: (
        np.array([p.to_arrays() for p, _, _ in cases], dtype=np.int8),
        np.array([(d1, d2) for _, d1, d2 in cases]),
    )
    for v, cases in CASES.items()
}


def gnubg_all() -> int:
    return sum(len(gnubg_nn.moves(board, d1, d2)) for board, d1, d2 in GNUBG_BOARDS)


def tavla_moves_all(variant: str) -> int:
    return sum(len(p.legal_moves(d1, d2)) for p, d1, d2 in CASES[variant])


def tavla_arrays_all(variant: str) -> int:
    return sum(len(p.legal_positions(d1, d2)) for p, d1, d2 in CASES[variant])


def tavla_batch_all(variant: str, threads: int) -> int:
    boards, dice = BATCH[variant]
    results, _ = tavla.legal_positions_many(variant, boards, dice, threads=threads)
    return len(results)


def test_gnubg_moves(benchmark):
    total = benchmark(gnubg_all)
    # gnubg lists nothing for a pass where tavla lists the empty move.
    assert total <= tavla_moves_all("backgammon")


@pytest.mark.parametrize("variant", tavla.VARIANTS)
def test_tavla_legal_moves(benchmark, variant):
    assert benchmark(tavla_moves_all, variant) > 0


@pytest.mark.parametrize("variant", tavla.VARIANTS)
def test_tavla_legal_positions(benchmark, variant):
    assert benchmark(tavla_arrays_all, variant) == tavla_moves_all(variant)


@pytest.mark.parametrize("threads", [1, 0], ids=["1-thread", "all-cores"])
@pytest.mark.parametrize("variant", tavla.VARIANTS)
def test_tavla_batch(benchmark, variant, threads):
    assert benchmark(tavla_batch_all, variant, threads) == tavla_moves_all(variant)
