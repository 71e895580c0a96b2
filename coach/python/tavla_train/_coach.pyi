"""The training crate's Python module (coach/src/python.rs), built by maturin from coach/pyproject.toml.

Networks travel as `.tnn` bytes, boards as flat int8 bytes (n x 50, the
`tavla.Position.to_arrays` layout), labels and targets as little-endian
float32 bytes (n x 5).
"""

from typing import Any

# Backgammon's inputs that carry the race measures in a race (src/nn/encoding.rs race_slot_inputs).
RACE_SLOT_INPUTS: list[int]

def td_new_network(variant: str, hidden: int, seed: int, **rules: Any) -> bytes: ...
def td_train(
    network: bytes, variant: str, games: int, seed: int, rate: float, trace_decay: float = 0.0, **rules: Any
) -> tuple[bytes, int, int, int]:
    """The new network, then games, turns and gammons played; ``trace_decay`` is TD's lambda."""
def td_score_vs_random(network: bytes, variant: str, games: int, seed: int, **rules: Any) -> float: ...
def nn_selfplay_flat(network: bytes, variant: str, count: int, seed: int, **rules: Any) -> bytes: ...
def nn_label(network: bytes, variant: str, boards: bytes, ply: int, threads: int = 0, race: bytes | None = None, **rules: Any) -> bytes: ...
def nn_rollout_labels(
    network: bytes,
    variant: str,
    boards: bytes,
    trials: int,
    seed: int,
    threads: int = 0,
    race: bytes | None = None,
    crashed: bytes | None = None,
    horizon: int | None = None,
    **rules: Any,
) -> bytes: ...
def race_teacher_labels(boards: bytes, trials: int, seed: int, threads: int = 0) -> bytes:
    """Labels of backgammon races (flat int8 boards, n x 50, each a race in play): each side's bear-in
    simulated `trials` times alone and joined by the exact one-sided bear-off table; float32 bytes, n x 5."""
    ...

def nn_encode(variant: str, boards: bytes, **rules: Any) -> bytes:
    """The network inputs of flat int8 boards (n x 50): float32 bytes, n x the variant's input count."""
    ...

def nn_judges(variant: str, boards: bytes, **rules: Any) -> bytes:
    """Which judge the engine gives each flat int8 board (n x 50), a byte each: 0 the contact
    network, 1 a pure race, 2 an exact bear-off table, 3 a finished game, 4 a crashed contact
    position (the crashed network's, where the variant has one)."""
    ...

def nn_train_supervised(
    network: bytes, variant: str, boards: bytes, targets: bytes,
    epochs: int, rate: float, rate_end: float, seed: int, **rules: Any,
) -> tuple[bytes, list[float]]: ...
def nn_error(network: bytes, variant: str, boards: bytes, targets: bytes, **rules: Any) -> float: ...
def train_pruner(
    network: bytes, variant: str, games: int, hidden: int, epochs: int, race: bytes | None = None
) -> tuple[bytes, list[float], float]:
    """A pruning network trained on ``games`` self-play games of ``network``: its bytes, the
    training error of each epoch and the held-out error."""
