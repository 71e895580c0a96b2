"""Level rounds: teach a backgammon contact network the values of the positions ranking rounds never show.

    python -m tavla_train level --network data/backgammon-calibrated.tnn \\
        --positions 60000 --trials 144 --seed 11 --anchor 40000 --anchor-seed 12 \\
        --epochs 5 --out weights/backgammon.tnn

A ranking round trains on the positions after the plays of a roll: the
opponent then on roll, and the player who just moved with no checker on the
bar (one left there had no choice of play, so no decision keeps it). The
positions where the opponent of the player on roll is on the bar, which come
after every dance, are therefore never in its sets, and their values drift
while the round moves the network: after the shipped rounds the network said
0.14 points less than its own rollouts there, on average. A 0-ply player
hardly meets them (its candidates are the positions after its own plays), but
every search does: each dance among a 1-ply search's replies is such a
position, and so is the root of a cube decision after the opponent danced.

This stage:

1. plays POSITIONS positions of self-play of --network (one play in ten
   random, from --seed) and keeps the contact positions whose opponent is on
   the bar; --others F adds F times as many of its other contact positions;
2. labels each by --trials rollouts of the network at 0-ply (stratified first
   roll, every trial stopped at the exact bear-off tables; the rollout is the
   teacher, deeper than the 0-ply student), cached in --data;
3. builds anchors as the ranking round builds its sets (--anchor self-play
   positions from --anchor-seed, one random roll each, the 8 best 0-ply
   plays), labelled by the network's own outputs: they hold what it already
   says about the positions the ranking rounds taught it while the level
   positions move;
4. trains both with the ranking round's loss and Adam (`rank.train`; a level
   position is a decision of one candidate, so only its probabilities'
   squared error counts), a tenth of each held out and reported, then the
   mean equity error of the held-out level positions before and after.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

import numpy as np

from tavla_train import _coach, rank
from tavla_train.calibrate import contact_positions
from tavla_train.common import equities, labels_in_chunks, network_inputs, selfplay_boards, variant_inputs, write_network
from tavla_train.paths import DATA
from tavla_train.tnn import forward, network_bytes, read_network

VARIANT = "backgammon"
BAR = 24  # a flat board's bar column (points are 0 to 23)


def opponent_on_bar(boards: np.ndarray) -> np.ndarray:
    """Which flat boards have a checker of the opponent of the player on roll on the bar."""
    return boards[:, 1, BAR] > 0


def level_positions(net: bytes, positions: int, seed: int, others: float) -> np.ndarray:
    """The contact positions of `positions` self-play positions whose opponent
    is on the bar, then `others` times as many of the rest (drawn with `seed`)."""
    contact = contact_positions(net, positions, seed)
    on_bar = opponent_on_bar(contact)
    rest = contact[~on_bar]
    count = min(len(rest), int(round(others * on_bar.sum())))
    picked = rest[np.sort(np.random.default_rng(seed).choice(len(rest), count, replace=False))]
    return np.ascontiguousarray(np.concatenate([contact[on_bar], picked]))


def anchors(net: bytes, params: list[np.ndarray], positions: int, seed: int, threads: int) -> rank.DecisionSet:
    """Ranking decisions of the network's self-play labelled by its own outputs."""
    boards = selfplay_boards(net, VARIANT, positions, seed)
    candidates, sizes = rank.decisions(net, VARIANT, boards, 8, seed + 1, threads)
    return rank.DecisionSet(candidates, sizes, forward(params, network_inputs(VARIANT, candidates))[1].astype(np.float32))


def mean_equity_error(params: list[np.ndarray], inputs: np.ndarray, labels: np.ndarray) -> float:
    return float((equities(forward(params, inputs)[1]) - equities(labels)).mean())


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tavla_train level", description=__doc__.splitlines()[0])
    p.add_argument("--network", type=Path, required=True, help="the contact network to start from and to roll out with")
    p.add_argument("--positions", type=int, default=60_000, help="self-play contact positions to draw the level set from")
    p.add_argument("--others", type=float, default=0.0,
                   help="add this many times as many contact positions without the opponent on the bar")
    p.add_argument("--trials", type=int, default=144, help="rollouts per level position")
    p.add_argument("--seed", type=int, default=11, help="the level set's self-play")
    p.add_argument("--anchor", type=int, default=40_000, help="self-play positions of the anchor decisions")
    p.add_argument("--anchor-seed", type=int, default=12)
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--rate", type=float, default=3e-4, help="Adam step size at the start")
    p.add_argument("--rate-end", type=float, default=3e-5, help="Adam step size at the last epoch")
    p.add_argument("--rank", type=float, default=4.0, help="weight of the anchors' centred equity error")
    p.add_argument("--batch", type=int, default=64, help="decisions per mini-batch")
    p.add_argument("--threads", type=int, default=0, help="self-play and rollout threads (0 = all cores)")
    p.add_argument("--data", type=Path, default=DATA, help="where the level set and its labels are kept")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    if min(args.positions, args.trials, args.anchor, args.epochs, args.batch) < 1 or args.others < 0:
        raise SystemExit("--positions, --trials, --anchor, --epochs and --batch must be positive, --others not negative")
    if args.rate <= 0 or args.rate_end <= 0:
        raise SystemExit("--rate and --rate-end must be positive")
    if not args.network.exists():
        raise SystemExit(f"--network: no network at {args.network}")
    net = args.network.read_bytes()
    params = read_network(net)
    if params[0].shape[0] != variant_inputs(VARIANT):
        raise SystemExit(f"{args.network} has {params[0].shape[0]} inputs, not a backgammon contact network's")
    args.data.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    tag = hashlib.sha256(net).hexdigest()[:12]
    stem = args.data / f"level-{tag}-n{args.positions}-s{args.seed}-o{args.others:g}"
    boards = level_positions(net, args.positions, args.seed, args.others)
    if len(boards) < 10:
        raise SystemExit(f"only {len(boards)} level positions in {args.positions} self-play positions: use more")
    print(f"{len(boards)} level positions ({int(opponent_on_bar(boards).sum())} with the opponent on the bar), "
          f"{args.trials} rollouts each", flush=True)
    labels = labels_in_chunks(
        Path(f"{stem}-t{args.trials}-labels.npy"), boards, 2_000,
        lambda part, at: _coach.nn_rollout_labels(net, VARIANT, part.tobytes(), args.trials, args.seed + at, args.threads),
    )
    held_level = len(boards) // 10
    level = [rank.DecisionSet(boards[:held_level], np.ones(held_level, dtype=np.int64), labels[:held_level]),
             rank.DecisionSet(boards[held_level:], np.ones(len(boards) - held_level, dtype=np.int64), labels[held_level:])]
    anchor = anchors(net, params, args.anchor, args.anchor_seed, args.threads)
    data = rank.Decisions(VARIANT, [level[0], anchor, level[1]])
    held = {"level": np.arange(held_level), "anchor": held_level + np.arange(len(anchor.sizes) // 10)}
    print(f"{len(anchor.sizes)} anchor decisions ({len(anchor.labels)} candidates); "
          f"{time.perf_counter() - start:.0f} s", flush=True)
    # The held-out level positions are the data's first rows (one candidate a decision).
    held_inputs, held_labels = data.inputs[:held_level], data.labels[:held_level]
    before = mean_equity_error(params, held_inputs, held_labels)
    train_args = argparse.Namespace(epochs=args.epochs, rate=args.rate, rate_end=args.rate_end, seed=args.seed,
                                    batch=args.batch, rank=args.rank, mse=1.0)
    params = rank.train(params, data, held, train_args)
    after = mean_equity_error(params, held_inputs, held_labels)
    print(f"held-out level positions: mean equity error against the rollouts {before:+.4f} before, {after:+.4f} after")
    write_network(args.out, network_bytes(params))
    print(f"wrote {args.out} ({time.perf_counter() - start:.0f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
