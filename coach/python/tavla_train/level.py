"""Level rounds: teach a network the values of the positions ranking rounds never show.

    python -m tavla_train level --network data/backgammon-calibrated.tnn \\
        --positions 60000 --trials 144 --seed 11 --anchor 40000 --anchor-seed 12 \\
        --epochs 5 --out weights/backgammon.tnn
    python -m tavla_train level --variant gulbara --network weights/gulbara.tnn \\
        --positions 8000 --trials 72 --seed 61 --anchor 6000 --anchor-seed 62 --out data/gulbara-level.tnn

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

In the nardy games (--variant nardy or gulbara) the round holds a ranking
round's level the same way: a ranking round's centred loss moves the order of
a roll's plays and holds their common level only loosely, and gul bara's
ranking sets draw their rolls from the non-doubles, so the positions after a
cascade are never in them either. Their level set is every position of the
network's self-play that it judges (all but the exact bear-offs; gul bara's
self-play and rollouts play whole cascades), one kind.

This stage:

1. plays POSITIONS positions of self-play of --network (one play in ten
   random, from --seed) and keeps the contact positions whose opponent is on
   the bar (the nardy games: the positions the network judges); --others F adds F times as many of its other contact positions,
   and --extra FILE the contact positions of a file of flat boards (e.g.
   GNU Backgammon's self-play, scripts/gnubg_positions.py: positions of a
   stronger player's games, which tavla's own self-play reaches rarely);
2. labels each by --trials rollouts of the network at 0-ply (stratified first
   roll, every trial stopped at the exact bear-off tables; the rollout is the
   teacher, deeper than the 0-ply student), cached in --data; with --race and
   --crashed those networks judge races and crashed positions in the rollouts
   (as in the engine) and the crashed positions leave the level set (the
   crashed network, not this one, judges them); with --horizon H each trial
   stops after H rolls and scores the networks' 0-ply value there (a truncated
   rollout: far less noise a trial, at the price of the networks' own error
   at the horizon);
3. builds anchors as the ranking round builds its sets (--anchor self-play
   positions from --anchor-seed, one random roll each, the 8 best 0-ply
   plays), labelled by the network's own outputs: they hold what it already
   says about the positions the ranking rounds taught it while the level
   positions move; with --anchor-ply 2 they are labelled by the network's
   2-ply search instead (cached in --data; not its 1-ply, which a 1-ply
   search of the result would only repeat), so that they teach the order of
   the plays as a deeper search sees it rather than only holding the
   network's own;
4. trains both with the ranking round's loss and Adam (`rank.train`; a level
   position is a decision of one candidate, so only its probabilities'
   squared error counts), a tenth of each held out and reported (of the
   level positions a tenth of each kind: after a dance, others, extra),
   then the mean equity error of each kind's held-out positions before and
   after.

--save-set FILE keeps the round's level set (each kind's boards and labels)
in an .npz file, and --also FILE (repeatable) trains on an earlier round's
kept set beside this round's own, its kinds first, their tenths held out as
here: a round that also learns its predecessors' rollouts keeps what they
taught while its new positions move the network (their labels are rollouts
of the earlier rounds' networks, kept as they were). With --positions 0 and
no --extra a round labels nothing and trains --network on the kept sets
alone (with its anchors): one training on every round's labels instead of a
round after each.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from tavla_train import _coach, rank
from tavla_train.calibrate import contact_positions
from tavla_train.common import (CRASHED, VARIANTS, equities, judges, is_race, labels_in_chunks, network_inputs, network_judges, selfplay_boards,
                                variant_network, write_network)
from tavla_train.paths import DATA
from tavla_train.tnn import forward, network_bytes, read_network

BAR = 24  # a flat board's bar column (points are 0 to 23)
EXTRA_SEEDS = 1_000_000  # the --extra positions' rollouts draw their dice from --seed + this on


def opponent_on_bar(boards: np.ndarray) -> np.ndarray:
    """Which flat boards have a checker of the opponent of the player on roll on the bar."""
    return boards[:, 1, BAR] > 0


def position_kinds(variant: str, boards: np.ndarray) -> list[tuple[str, np.ndarray]]:
    """The kinds of the level set's self-play positions, each a name and which boards: in backgammon
    those after a dance and the others; the nardy games have no bar, so theirs are one kind."""
    if variant != "backgammon":
        return [("self-play", np.ones(len(boards), dtype=bool))]
    on_bar = opponent_on_bar(boards)
    return [("after a dance", on_bar), ("others", ~on_bar)]


def level_positions(net: bytes, positions: int, seed: int, others: float, variant: str = "backgammon") -> np.ndarray:
    """The contact positions of `positions` self-play positions whose opponent
    is on the bar, then `others` times as many of the rest (drawn with `seed`).
    In the nardy games: those of `positions` self-play positions that the network judges."""
    if variant != "backgammon":
        boards = selfplay_boards(net, variant, positions, seed)
        return np.ascontiguousarray(boards[network_judges(variant, boards)])
    contact = contact_positions(net, positions, seed)
    on_bar = opponent_on_bar(contact)
    rest = contact[~on_bar]
    count = min(len(rest), int(round(others * on_bar.sum())))
    picked = rest[np.sort(np.random.default_rng(seed).choice(len(rest), count, replace=False))]
    return np.ascontiguousarray(np.concatenate([contact[on_bar], picked]))


def extra_positions(path: Path) -> np.ndarray:
    """The contact positions of a file of flat boards (an int8 array (n, 2, 25): the player on
    roll's 25 counts, then the opponent's, each in its owner's numbering, index 24 the bar)."""
    try:
        boards = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as err:
        raise SystemExit(f"--extra: cannot read {path} as a numpy array: {err}") from None
    if boards.ndim != 3 or boards.shape[1:] != (2, 25) or boards.dtype.kind not in "iu":
        raise SystemExit(f"--extra: {path} holds an array of {boards.dtype} {boards.shape}, not flat boards (n, 2, 25)")
    if boards.size and (boards.min() < -128 or boards.max() > 127):
        raise SystemExit(f"--extra: {path} has counts beyond -128..127, which no board holds")
    boards = boards.astype(np.int8)
    # The engine checks each board (checker counts, one side's checkers to a point) as it reads it.
    try:
        races = is_race("backgammon", boards)
    except ValueError as err:
        raise SystemExit(f"--extra: {path}: {err}") from None
    return np.ascontiguousarray(boards[~races])


Kind = tuple[str, np.ndarray, np.ndarray]  # a name, its boards, its rollout labels


def save_level_set(path: Path, variant: str, kinds: list[Kind]) -> None:
    """Keep a round's level set (each kind's name, boards and labels) for a later round's --also."""
    # Any: np.savez's own keyword (allow_pickle) would otherwise claim the arrays' type.
    arrays: dict[str, Any] = {"variant": np.array(variant), "names": np.array([name for name, _, _ in kinds])}
    arrays |= {f"boards{k}": boards for k, (_, boards, _) in enumerate(kinds)}
    arrays |= {f"labels{k}": labels for k, (_, _, labels) in enumerate(kinds)}
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:  # np.savez would add .npz to a name without it
        np.savez(f, **arrays)


def load_level_set(path: Path, variant: str) -> list[Kind]:
    """The kinds of a level set of `variant` kept by --save-set, named after its file."""
    try:
        with np.load(path, allow_pickle=False) as kept:
            if str(kept["variant"]) != variant:
                raise SystemExit(f"--also: {path} is a level set of {kept['variant']}, not of {variant}")
            names = [str(name) for name in kept["names"]]
            kinds = [(f"{path.stem}: {name}", kept[f"boards{k}"], kept[f"labels{k}"]) for k, name in enumerate(names)]
    except (OSError, ValueError, KeyError) as err:
        raise SystemExit(f"--also: {path} is not a level set kept by --save-set: {err}") from None
    for name, boards, labels in kinds:
        if boards.dtype != np.int8 or boards.shape[1:] != (2, 25) or labels.shape != (len(boards), 5):
            raise SystemExit(f"--also: {path}: kind {name!r} holds boards {boards.dtype} {boards.shape} "
                             f"and labels {labels.shape}, not flat boards (n, 2, 25) with five probabilities each")
    return kinds


def split_kinds(kinds: list[tuple[np.ndarray, np.ndarray]]) -> tuple[rank.DecisionSet, rank.DecisionSet, list[slice]]:
    """The level positions of every kind (boards, labels) as one held-out set (the first tenth of
    each kind) and one training set (the rest), and where each kind's held-out rows lie."""
    held, train, rows, at = [], [], [], 0
    for boards, labels in kinds:
        cut = len(boards) // 10
        held.append((boards[:cut], labels[:cut]))
        train.append((boards[cut:], labels[cut:]))
        rows.append(slice(at, at + cut))
        at += cut

    def decisions(parts: list[tuple[np.ndarray, np.ndarray]]) -> rank.DecisionSet:
        boards = np.ascontiguousarray(np.concatenate([b for b, _ in parts]))
        return rank.DecisionSet(boards, np.ones(len(boards), dtype=np.int64), np.concatenate([l for _, l in parts]))

    return decisions(held), decisions(train), rows


def anchors(net: bytes, params: list[np.ndarray], positions: int, seed: int, threads: int,
            variant: str = "backgammon", ply: int = 0, race: bytes | None = None,
            cache: Path | None = None) -> rank.DecisionSet:
    """Ranking decisions of the network's self-play labelled by its own outputs (ply 0), or by its
    `ply`-deep search (`race` judging races there, the labels kept in `cache`)."""
    boards = selfplay_boards(net, variant, positions, seed)
    candidates, sizes = rank.decisions(net, variant, boards, 8, seed + 1, threads)
    if ply == 0:
        return rank.DecisionSet(candidates, sizes, forward(params, network_inputs(variant, candidates))[1].astype(np.float32))
    if cache is None:
        raise ValueError("anchors labelled by a search need a cache file")
    labels = labels_in_chunks(cache, candidates, 2_000,
                              lambda part, _at: _coach.nn_label(net, variant, part.tobytes(), ply, threads, race=race))
    return rank.DecisionSet(candidates, sizes, labels)


def mean_equity_error(params: list[np.ndarray], inputs: np.ndarray, labels: np.ndarray) -> float:
    return float((equities(forward(params, inputs)[1]) - equities(labels)).mean())


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tavla_train level", description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="backgammon", choices=VARIANTS)
    p.add_argument("--network", type=Path, required=True, help="the contact network to start from and to roll out with")
    p.add_argument("--positions", type=int, default=60_000,
                   help="backgammon: contact positions of self-play to draw the level set from (those with the "
                        "opponent on the bar are kept); the nardy games: self-play positions, of which those "
                        "the network judges are kept; 0: none, the round trains on --also (and --extra) alone")
    p.add_argument("--others", type=float, default=0.0,
                   help="add this many times as many contact positions without the opponent on the bar")
    p.add_argument("--extra", type=Path, help="a .npy file of flat boards (n, 2, 25) whose contact positions join the level set")
    p.add_argument("--trials", type=int, default=144, help="rollouts per level position")
    p.add_argument("--horizon", type=int, help="stop each rollout after this many rolls (truncated rollouts)")
    p.add_argument("--race", type=Path, help="backgammon: the race network the rollouts judge races with")
    p.add_argument("--crashed", type=Path, help="backgammon: the crashed network the rollouts judge crashed positions "
                                                  "with (crashed positions then leave the level set)")
    p.add_argument("--seed", type=int, default=11, help="the level set's self-play")
    p.add_argument("--anchor", type=int, default=40_000, help="self-play positions of the anchor decisions")
    p.add_argument("--anchor-seed", type=int, default=12)
    p.add_argument("--anchor-ply", type=int, default=0, choices=(0, 2),
                   help="label the anchors by the network's own outputs (0) or by its 2-ply search "
                        "(a teacher of their order deeper than the 1-ply; --race judges races there)")
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--rate", type=float, default=3e-4, help="Adam step size at the start")
    p.add_argument("--rate-end", type=float, default=3e-5, help="Adam step size at the last epoch")
    p.add_argument("--rank", type=float, default=4.0, help="weight of the anchors' centred equity error")
    p.add_argument("--batch", type=int, default=64, help="decisions per mini-batch")
    p.add_argument("--threads", type=int, default=0, help="self-play and rollout threads (0 = all cores)")
    p.add_argument("--data", type=Path, default=DATA, help="where the level set and its labels are kept")
    p.add_argument("--save-set", type=Path, help="keep the round's level set (boards and labels) in this .npz file")
    p.add_argument("--also", type=Path, action="append", default=[],
                   help="an earlier round's level set (--save-set) to train on beside this round's (repeatable)")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    if min(args.trials, args.anchor, args.epochs, args.batch) < 1 or args.positions < 0 or args.others < 0:
        raise SystemExit("--trials, --anchor, --epochs and --batch must be positive, --positions and --others not negative")
    if args.positions == 0 and not (args.also or args.extra):
        raise SystemExit("--positions 0 (no self-play level positions) needs --also or --extra to train on")
    if args.rate <= 0 or args.rate_end <= 0:
        raise SystemExit("--rate and --rate-end must be positive")
    if args.variant != "backgammon" and (args.others or args.extra):
        raise SystemExit(f"--others and --extra are backgammon's: {args.variant}'s level set is all its self-play positions")
    if args.horizon is not None and args.horizon < 1:
        raise SystemExit("--horizon must be positive")
    if args.variant != "backgammon" and (args.race or args.crashed):
        raise SystemExit("--race and --crashed are backgammon's")
    if args.extra and not args.extra.exists():
        raise SystemExit(f"--extra: no file at {args.extra}")
    earlier = [kind for path in args.also for kind in load_level_set(path, args.variant)]
    net = variant_network(args.network, args.variant)
    params = read_network(net)
    args.data.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    tag = hashlib.sha256(net).hexdigest()[:12]
    # Backgammon's cached labels keep the names they had before --variant.
    variant = "" if args.variant == "backgammon" else f"{args.variant}-"
    judging = {name: variant_network(path, args.variant) for name, path in (("race", args.race), ("crashed", args.crashed)) if path}
    # The rollouts' networks and horizon name the cached labels (nothing added without them, so older caches still read).
    marks = {name: f"-{name[0]}{hashlib.sha256(blob).hexdigest()[:8]}" for name, blob in judging.items()}
    how = "".join(marks.values())
    how += f"-h{args.horizon}" if args.horizon else ""
    stem = args.data / f"level-{variant}{tag}-n{args.positions}-s{args.seed}-o{args.others:g}{how}"
    boards = (level_positions(net, args.positions, args.seed, args.others, args.variant) if args.positions
              else np.zeros((0, 2, 25), dtype=np.int8))
    extra = extra_positions(args.extra) if args.extra else np.zeros((0, 2, 25), dtype=np.int8)
    if args.crashed:
        boards, extra = (np.ascontiguousarray(b[judges(args.variant, b) != CRASHED]) for b in (boards, extra))
    groups = position_kinds(args.variant, boards)
    # Each kind holds out its first tenth, so the held-out set needs a kind of ten or more.
    if max([int(which.sum()) for _, which in groups] + [len(extra)] + [len(b) for _, b, _ in earlier]) < 10:
        raise SystemExit(f"only {len(boards) + len(extra)} level positions in {args.positions} self-play positions: use more")
    teacher = f"{args.trials} rollouts each" + (f" of {args.horizon} rolls" if args.horizon else "")
    if not len(boards) + len(extra):
        print(f"no level positions of its own: training on {', '.join(str(path) for path in args.also)}", flush=True)
    elif args.variant == "backgammon":
        print(f"{len(boards) + len(extra)} level positions ({int(groups[0][1].sum())} with the opponent on the bar, "
              f"{len(extra)} from {args.extra}), {teacher}", flush=True)
    else:
        print(f"{len(boards)} level positions of {args.variant} self-play, {teacher}", flush=True)

    def rollouts(part: np.ndarray, seed: int) -> bytes:
        return _coach.nn_rollout_labels(net, args.variant, part.tobytes(), args.trials, seed, args.threads,
                                        horizon=args.horizon, **judging)

    labels = labels_in_chunks(Path(f"{stem}-t{args.trials}-labels.npy"), boards, 2_000,
                              lambda part, at: rollouts(part, args.seed + at))
    kinds = [(name, boards[which], labels[which]) for name, which in groups]
    if len(extra):
        extra_tag = hashlib.sha256(extra.tobytes()).hexdigest()[:12]
        extra_labels = labels_in_chunks(
            args.data / f"level-{tag}-extra-{extra_tag}-s{args.seed}{how}-t{args.trials}-labels.npy", extra, 2_000,
            lambda part, at: rollouts(part, args.seed + EXTRA_SEEDS + at))
        kinds.append(("extra", extra, extra_labels))
    kinds = [kind for kind in kinds if len(kind[1])]
    if args.save_set:
        save_level_set(args.save_set, args.variant, kinds)
    kinds = earlier + kinds
    held_level, train_level, rows = split_kinds([(b, l) for _, b, l in kinds])
    # Only the race network judges in a search's labels (the crashed network and the horizon are the rollouts').
    anchor_cache = args.data / (f"anchors-{variant}{tag}-n{args.anchor}-s{args.anchor_seed}"
                                f"{marks.get('race', '')}-p{args.anchor_ply}-labels.npy")
    anchor = anchors(net, params, args.anchor, args.anchor_seed, args.threads, args.variant, args.anchor_ply,
                     judging.get("race"), anchor_cache)
    data = rank.Decisions(args.variant, [held_level, anchor, train_level])
    held_count = len(held_level.sizes)
    held = {"level": np.arange(held_count), "anchor": held_count + np.arange(len(anchor.sizes) // 10)}
    print(f"{len(anchor.sizes)} anchor decisions ({len(anchor.labels)} candidates); "
          f"{time.perf_counter() - start:.0f} s", flush=True)
    # The held-out level positions are the data's first rows (one candidate a decision).
    held_inputs, held_labels = data.inputs[:held_count], data.labels[:held_count]
    # A kind of fewer than ten positions trains them all and holds none out, so reports nothing.
    reported = [(name, r) for (name, _, _), r in zip(kinds, rows) if r.stop > r.start]
    before = [mean_equity_error(params, held_inputs[r], held_labels[r]) for _, r in reported]
    train_args = argparse.Namespace(epochs=args.epochs, rate=args.rate, rate_end=args.rate_end, seed=args.seed,
                                    batch=args.batch, rank=args.rank, mse=1.0)
    params = rank.train(params, data, held, train_args)
    for (name, r), b in zip(reported, before):
        after = mean_equity_error(params, held_inputs[r], held_labels[r])
        print(f"held-out level positions, {name} ({r.stop - r.start}): mean equity error against the rollouts "
              f"{b:+.4f} before, {after:+.4f} after")
    write_network(args.out, network_bytes(params))
    print(f"wrote {args.out} ({time.perf_counter() - start:.0f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
