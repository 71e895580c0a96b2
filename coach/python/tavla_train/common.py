"""What the training stages share: the equity of five probabilities, a
progress line, labels computed a chunk at a time and cached in data/, the
plays of a random roll, and what judges a flat board in the engine."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

import numpy as np

import tavla
from tavla import _core
from tavla.files import save_npy, write_atomic
from tavla_train import _coach
from tavla_train.tnn import read_network

# Cubeless equity weights of the five probabilities (win, win gammon, win backgammon, lose gammon, lose backgammon).
# Cubeless equity is linear in the five probabilities: its weights and offset, read off the core's
# one formula (tavla.Evaluation) so that the vectorised form below cannot drift from it.
EQUITY_OFFSET = tavla.Evaluation([0.0] * 5).equity
EQUITY = np.array([tavla.Evaluation(np.eye(5)[k].tolist()).equity - EQUITY_OFFSET for k in range(5)], np.float32)


def variant_inputs(variant: str) -> int:
    """How many inputs the variant's networks take: the header of a fresh one-unit network of it."""
    return read_network(_coach.td_new_network(variant, 1, 0))[0].shape[0]


def variant_network(path: Path, variant: str) -> bytes:
    """The network file at `path`, refused (SystemExit naming it) where there is none or where its
    inputs are not `variant`'s."""
    if not path.exists():
        raise SystemExit(f"no network at {path}")
    net = path.read_bytes()
    inputs, expected = read_network(net)[0].shape[0], variant_inputs(variant)
    if inputs != expected:
        raise SystemExit(f"{path} is not a {variant} network's size: it has {inputs} inputs, "
                         f"not the {expected} of a {variant} network (--variant)")
    return net


def selfplay_boards(net: bytes, variant: str, count: int, seed: int) -> np.ndarray:
    """`count` positions of the network's self-play (`_coach.nn_selfplay_flat`) as flat boards (n, 2, 25)."""
    return np.frombuffer(_coach.nn_selfplay_flat(net, variant, count, seed), dtype=np.int8).reshape(-1, 2, 25)


def network_inputs(variant: str, boards: np.ndarray, chunk: int = 100_000) -> np.ndarray:
    """The network inputs the engine computes for flat boards (`_coach.nn_encode`), `chunk` boards a
    call: one row of the variant's input count per board."""
    return np.concatenate([
        np.frombuffer(_coach.nn_encode(variant, boards[at : at + chunk].tobytes()), "<f4").reshape(len(boards[at : at + chunk]), -1)
        for at in range(0, len(boards), chunk)
    ])


# The variants whose positions fit flat boards (n, 2, 25) and whose networks the stages on them
# train (the reserve games' reserve has no place there; only `td` trains theirs).
VARIANTS = list(tavla.VARIANTS)

# What judges a position in the engine's evaluator (`_coach.nn_judges`, one byte a board):
# CRASHED is a contact position of backgammon's crashed class (`Position.is_crashed`), judged by
# the crashed network; the contact network's rounds still train on it (the crashed network starts
# from the contact one), so below it counts as contact but where a stage asks for it by name.
CONTACT, RACE, TABLE, FINISHED, CRASHED = range(5)
# The variants whose contact network's rounds (rank, level, calibrate) leave the races to a race
# network. The nardy games' contact networks were ranked and levelled on their races too (their race
# networks came later, trained from them: `race --variant`), so their rounds keep the races in.
RACES_LEFT_TO_A_RACE_NETWORK = {"backgammon"}


def judges(variant: str, boards: np.ndarray) -> np.ndarray:
    """What judges each flat board in the engine (CONTACT, RACE, TABLE, FINISHED or CRASHED): the engine's
    own rules (`Position.is_race`, the bear-off tables' reach) through `_coach.nn_judges`."""
    flat = np.ascontiguousarray(boards, dtype=np.int8)
    return np.frombuffer(_coach.nn_judges(variant, flat.tobytes()), dtype=np.uint8)


def is_race(variant: str, boards: np.ndarray) -> np.ndarray:
    """Whether no checker of each flat board can meet an opposing one again (`Position.is_race`
    or a bear-off of both sides or a finished game)."""
    return ~np.isin(judges(variant, boards), [CONTACT, CRASHED])


def race_mask(variant: str, boards: np.ndarray) -> np.ndarray:
    """Which flat boards a contact network's rounds leave to the race network (`is_race`): in the
    variants of RACES_LEFT_TO_A_RACE_NETWORK; none in the others."""
    return is_race(variant, boards) if variant in RACES_LEFT_TO_A_RACE_NETWORK else np.zeros(len(boards), dtype=bool)


def network_judges(variant: str, boards: np.ndarray) -> np.ndarray:
    """Which flat boards a contact network's rounds train it on: not the races left to a race
    network (`race_mask`), nor the bear-offs the exact tables answer, nor finished games."""
    judge = judges(variant, boards)
    trained = [CONTACT, CRASHED] if variant in RACES_LEFT_TO_A_RACE_NETWORK else [CONTACT, CRASHED, RACE]
    return np.isin(judge, trained)


def write_network(path: Path, data: bytes) -> None:
    """Writes a stage's network whole (write_atomic), making its folder first (the ignored data/ may not exist yet)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, data)


def progress(label: str, done: int, total: int, start: float) -> None:
    bar = "#" * int(30 * done / max(1, total))
    rate = done / max(1e-9, time.perf_counter() - start)
    print(f"  {label:<9}[{bar:<30}] {done:>8}/{total}  {rate:8.0f}/s", flush=True)


def plays_of_a_roll(net: bytes, variant: str, boards: np.ndarray, rng: np.random.Generator, threads: int,
                    race: bytes | None = None, doubles: bool = True):
    """One random roll for each board and the positions after all its plays,
    the opponent then on roll, 20,000 boards at a time. Yields (boards done,
    those positions, the offsets where each board's plays start, whether each
    game goes on, the opponent's 0-ply equity of each: +inf where it ended).
    With a `race` network, that one judges the plays that leave a pure race.
    With `doubles` False the rolls are drawn from the 30 non-doubles alone
    (a gul bara double starts a cascade, whose end is not one roll's play)."""
    start = time.perf_counter()
    chunk = 20_000
    for k in range(0, len(boards), chunk):
        part = boards[k : k + chunk]
        dice = rng.integers(1, 7, size=(len(part), 2)) if doubles else non_doubles(rng, len(part))
        after, offsets = _core._legal_positions_many(variant, part.tobytes(), dice.ravel().tolist(), threads)
        after = np.asarray(after, dtype=np.int8).reshape(-1, 2, 25)
        theirs = np.ascontiguousarray(after[:, ::-1, :])
        flat = theirs.reshape(-1, 50)
        going_on = (flat[:, :25].sum(axis=1) > 0) & (flat[:, 25:].sum(axis=1) > 0)
        probs = np.zeros((len(theirs), 5), dtype=np.float32)
        raw = _coach.nn_label(net, variant, theirs[going_on].tobytes(), 0, threads, race=race)
        probs[going_on] = np.frombuffer(raw, dtype=np.float32).reshape(-1, 5)
        their_equity = equities(probs)
        their_equity[~going_on] = np.inf
        yield k + len(part), theirs, offsets, going_on, their_equity
        progress("plays", k + len(part), len(boards), start)


def non_doubles(rng: np.random.Generator, n: int) -> np.ndarray:
    """`n` rolls drawn evenly from the 30 ordered non-doubles."""
    first = rng.integers(1, 7, size=n)
    # The second die from the five other numbers: shift past the first.
    second = rng.integers(1, 6, size=n)
    second = second + (second >= first)
    return np.stack([first, second], axis=1)


def equities(probabilities: np.ndarray) -> np.ndarray:
    """Cubeless equity of rows of five probabilities (tavla.Evaluation's, vectorised)."""
    return probabilities @ EQUITY + EQUITY_OFFSET


def labels_in_chunks(path: Path, boards: np.ndarray, chunk: int, label_part: Callable[[np.ndarray, int], bytes]) -> np.ndarray:
    """The five probabilities of every board, `label_part(boards, offset)` a
    chunk at a time under a progress bar; kept in `path` and reused from there (no boards: no labels, no file)."""
    if not len(boards):
        return np.zeros((0, 5), dtype=np.float32)
    if path.exists():
        return np.load(path)
    start = time.perf_counter()
    parts = []
    for k in range(0, len(boards), chunk):
        part = boards[k : k + chunk]
        parts.append(np.frombuffer(label_part(part, k), dtype=np.float32).reshape(-1, 5))
        progress("labels", k + len(part), len(boards), start)
    labels = np.concatenate(parts)
    save_npy(path, labels)
    return labels
