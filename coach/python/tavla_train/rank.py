"""Ranking rounds: teach a 0-ply network to order the plays of a roll as a deeper search does.

    python -m tavla_train rank --network weights/backgammon.tnn \\
        --set weights/backgammon.tnn:200000:8:71000213:1 \\
        --set weights/backgammon.tnn:150000:16:5:2 \\
        --epochs 20 --rate 0.003 --rank 4 --seed 1 --out data/ranking-r1.tnn

A 0-ply player only ever compares the positions its plays of one roll lead
to, so what matters is the order it gives them, not their common level. Each
--set TEACHER:POSITIONS:K:SELFPLAY_SEED:ROLL_SEED builds one set of such
decisions (cached in data/, named by its settings and the teacher's hash):

1. POSITIONS positions from self-play of the TEACHER network (one play in
   ten random), from SELFPLAY_SEED;
2. one random roll for each (from ROLL_SEED), and the positions after the
   TEACHER's K best 0-ply plays of it, the opponent then on roll; only
   decisions with a choice whose candidates all go on are kept, and in
   backgammon only those whose every candidate is still a contact position
   (the race network and the bear-off tables judge races; the nardy games'
   rounds keep their races in, common.RACES_LEFT_TO_A_RACE_NETWORK). Gul bara's rolls are
   drawn from the non-doubles: a double starts a cascade, whose plays end
   the turn only when the cascade does;
3. every candidate labelled by the TEACHER's --label-ply deep search (2 by
   default; the shipped round's labels were its 1-ply) over all 21 replies
   (exact bear-offs), on all cores.

Training then starts from --network and runs --epochs passes of Adam over
mini-batches of whole decisions (numpy, on the network inputs that
`tavla._coach.nn_encode` computes). The loss has two parts: --rank times the
squared error of the candidates' equities after each decision's mean is taken
out of both the network's and the labels' (the order and the gaps between
plays), and --mse times the squared error of the five probabilities (which
keeps their level). The first tenth of the first set's decisions is held
out; after each epoch the script reports the held-out squared error and how
much 1-ply equity the network's own choice among the candidates gives up
against the 1-ply's choice (mEq per decision).

With --hidden N the network is first widened to N hidden units, the new ones
silent (no output weights) until training moves them.

--refine PLY:TOP:GAP:DECISIONS:ORDER_SEED gives some decisions a deeper
teacher. Going through the first set's training decisions in an order drawn
from ORDER_SEED, it takes the first DECISIONS whose two best candidates by
the 1-ply lie within GAP of each other. Those are the decisions where a
teacher's error most likely flips the choice. Their TOP best candidates are
labelled again by the teacher's PLY-deep search (cached in data/ beside the
set; about 60 candidates a second at 2-ply on two cores). Each such decision
then trains on those TOP candidates alone, with --refine-mix times the deeper
label plus the rest times the 1-ply's (1 = the deeper search alone, 0.5 the
mean of the two).

--boundary-set TEACHER:POSITIONS:K:SELFPLAY_SEED:ROLL_SEED (with --race
RACE.tnn, the race network the engine plays races with) builds a set of the
decisions the contact sets leave out: those whose K best plays mix contact
and race positions, such as whether to break the last contact. The engine
judges such a choice with two networks at once, so the contact network's
values must fit the race network's. The race network picks and labels the
race plays (0-ply and 1-ply), and in training the race candidates keep its
outputs while the contact candidates move around them. Self-play gives about
one such decision per 65 positions; a tenth of them is held out and reported
as "boundary".

--variant nardy or gulbara runs the same round on those games' networks
(no race network, so no --race or --boundary-set).

The network goes to --out; copy it to weights/<variant>.tnn to ship it.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tavla_train import _coach
from tavla.files import save_npz
from tavla_train.common import (
    EQUITY, VARIANTS, equities, labels_in_chunks, network_inputs, plays_of_a_roll, race_mask, selfplay_boards, variant_network,
    write_network,
)
from tavla_train.label import check_teacher_ply
from tavla_train.tnn import forward, network_bytes, read_network

from tavla_train.paths import DATA


@dataclass
class DecisionSet:
    boards: np.ndarray  # (n, 2, 25) int8, the candidates, opponent on roll
    sizes: np.ndarray  # candidates per decision, in order
    labels: np.ndarray  # (n, 5) float32, the teacher's probabilities (its --label-ply search)


def parse_set(spec: str) -> tuple[Path, int, int, int, int]:
    parts = spec.rsplit(":", 4)
    if len(parts) != 5:
        raise SystemExit(f"--set wants TEACHER:POSITIONS:K:SELFPLAY_SEED:ROLL_SEED, not {spec!r}")
    try:
        positions, k, selfplay_seed, roll_seed = (int(v) for v in parts[1:])
    except ValueError:
        raise SystemExit(f"--set {spec!r}: POSITIONS, K and the seeds must be whole numbers") from None
    if positions < 10 or k < 2:
        raise SystemExit(f"--set {spec!r}: at least 10 positions and K of at least 2")
    teacher = Path(parts[0])
    if not teacher.exists():
        raise SystemExit(f"--set {spec!r}: no teacher network at {teacher}")
    return teacher, positions, k, selfplay_seed, roll_seed


def decisions(
    teacher: bytes, variant: str, boards: np.ndarray, k: int, roll_seed: int, threads: int, race: bytes | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The candidates (the K best 0-ply plays of one random roll per board,
    the opponent on roll) and the number of them per kept decision. In
    backgammon, without a `race` network only contact decisions are kept;
    with one (a boundary set), only decisions whose K best mix contact and
    race candidates. The nardy games keep races (common.RACES_LEFT_TO_A_RACE_NETWORK)."""
    kept: list[np.ndarray] = []
    rng = np.random.default_rng(roll_seed)
    plays = plays_of_a_roll(teacher, variant, boards, rng, threads, race=race, doubles=variant != "gulbara")
    for _done, theirs, offsets, going_on, their_equity in plays:
        races = race_mask(variant, theirs)
        for i in range(len(offsets) - 1):
            lo, hi = offsets[i], offsets[i + 1]
            if hi - lo < 2 or not going_on[lo:hi].all() or (race is None and races[lo:hi].any()):
                continue
            # Each candidate is judged from the opponent's side: the mover wants it low.
            best = lo + np.argsort(their_equity[lo:hi], kind="stable")[:k]
            if race is not None and (races[best].all() or not races[best].any()):
                continue
            kept.append(theirs[best])
    if not kept:
        kind = "contact" if race is None else "boundary (contact and race candidates)"
        raise SystemExit(f"self-play gave no {kind} decision with a choice: use more positions")
    return np.concatenate(kept), np.array([len(c) for c in kept])


def set_stem(spec: str, args: argparse.Namespace) -> tuple[bytes, Path]:
    """The set's teacher network and where its files are cached."""
    teacher_path, positions, k, selfplay_seed, roll_seed = parse_set(spec)
    teacher = teacher_path.read_bytes()
    tag = hashlib.sha256(teacher).hexdigest()[:12]
    # Backgammon's sets keep the names they had before --variant.
    variant = "" if args.variant == "backgammon" else f"{args.variant}-"
    return teacher, args.data / f"ranking-{variant}{tag}-n{positions}-k{k}-s{selfplay_seed}-r{roll_seed}"


def build_set(spec: str, args: argparse.Namespace, race: bytes | None = None) -> DecisionSet:
    """A contact set, or with the `race` network a boundary set: its plays are
    chosen and labelled with that network judging the races among them."""
    _, positions, k, selfplay_seed, roll_seed = parse_set(spec)
    teacher, stem = set_stem(spec, args)
    if race is not None:
        stem = stem.with_name(f"{stem.name}-boundary-{hashlib.sha256(race).hexdigest()[:12]}")
    path = stem.with_suffix(".npz")
    if path.exists():
        z = np.load(path)
        candidates, sizes = z["boards"], z["sizes"]
    else:
        print(f"set {spec}: self-play, candidates, {args.label_ply}-ply labels", flush=True)
        boards = selfplay_boards(teacher, args.variant, positions, selfplay_seed)
        candidates, sizes = decisions(teacher, args.variant, boards, k, roll_seed, args.threads, race)
        save_npz(path, boards=candidates, sizes=sizes)
    # 1-ply labels (the shipped round's) keep the cache name they had before --label-ply.
    suffix = "" if args.label_ply == 1 else f"-p{args.label_ply}"
    labels = labels_in_chunks(
        Path(f"{stem}{suffix}-labels.npy"), candidates, 50_000 if args.label_ply == 1 else 2_000,
        lambda part, _at: _coach.nn_label(teacher, args.variant, part.tobytes(), args.label_ply, args.threads, race=race),
    )
    return DecisionSet(candidates, sizes, labels)


def first_rows(sizes: np.ndarray) -> np.ndarray:
    """Where each decision's candidates start, from how many each has."""
    return np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)


def parse_refine(spec: str) -> tuple[int, int, float, int, int]:
    parts = spec.split(":")
    if len(parts) != 5:
        raise SystemExit(f"--refine wants PLY:TOP:GAP:DECISIONS:ORDER_SEED, not {spec!r}")
    try:
        ply, top, gap, count, seed = int(parts[0]), int(parts[1]), float(parts[2]), int(parts[3]), int(parts[4])
    except ValueError:
        raise SystemExit(f"--refine {spec!r}: PLY, TOP, DECISIONS and ORDER_SEED are whole numbers, GAP an equity") from None
    if not 2 <= ply <= 3 or top < 2 or gap <= 0 or count < 1:
        raise SystemExit(f"--refine {spec!r}: PLY 2 or 3, TOP at least 2, GAP above 0, at least 1 decision")
    return ply, top, gap, count, seed


def close_decisions(first: DecisionSet, held: int, top: int, gap: float, count: int, seed: int):
    """Up to `count` of the set's training decisions, in an order drawn from
    `seed`, whose two best candidates by the 1-ply lie within `gap` of each
    other: where a teacher's error is most likely to flip the choice. Returns
    those decisions, the rows of their `top` best candidates, and how many
    candidates each keeps."""
    starts = first_rows(first.sizes)
    equity = equities(first.labels)
    chosen, rows = [], []
    for g in np.random.default_rng(seed).permutation(np.arange(held, len(first.sizes))):
        lo, hi = starts[g], starts[g] + first.sizes[g]
        best = lo + np.argsort(equity[lo:hi], kind="stable")
        if equity[best[1]] - equity[best[0]] < gap:
            chosen.append(g)
            rows.append(best[:top])
            if len(chosen) == count:
                break
    return np.array(chosen, dtype=np.int64), np.concatenate(rows), np.array([len(r) for r in rows])


def refine(first: DecisionSet, spec: str, args: argparse.Namespace) -> tuple[DecisionSet, DecisionSet]:
    """The first set without its close decisions, and those decisions' best
    candidates labelled again by a deeper search of the set's teacher (mixed
    with the 1-ply labels by --refine-mix)."""
    ply, top, gap, count, seed = args.refine
    chosen, rows, sizes = close_decisions(first, len(first.sizes) // 10, top, gap, count, seed)
    teacher, stem = set_stem(spec, args)
    name = f"{stem}-refine-p{ply}-t{top}-g{gap}-c{len(chosen)}-o{seed}-labels.npy"
    deeper = labels_in_chunks(
        Path(name), first.boards[rows], 2_000,
        lambda part, _at: _coach.nn_label(teacher, args.variant, part.tobytes(), ply, args.threads),
    )
    mixed = (args.refine_mix * deeper + (1 - args.refine_mix) * first.labels[rows]).astype(np.float32)
    rest = np.ones(len(first.sizes), dtype=bool)
    rest[chosen] = False
    kept = np.repeat(rest, first.sizes)  # the rows of the decisions left as they were
    return DecisionSet(first.boards[kept], first.sizes[rest], first.labels[kept]), DecisionSet(first.boards[rows], sizes, mixed)


def widen(params: list[np.ndarray], hidden: int, seed: int) -> list[np.ndarray]:
    """The same function with more hidden units: the new ones get small random
    input weights and no output weights, so they start silent and learn."""
    w1, b1, w2, b2 = params
    extra = hidden - w1.shape[1]
    if extra < 0:
        raise SystemExit(f"--hidden {hidden} is below the network's {w1.shape[1]} hidden units")
    rng = np.random.default_rng(seed)
    new_w1 = (rng.standard_normal((w1.shape[0], extra)) / np.sqrt(w1.shape[0])).astype(np.float32)
    return [np.hstack([w1, new_w1]), np.concatenate([b1, np.zeros(extra, np.float32)]),
            np.hstack([w2, np.zeros((5, extra), np.float32)]), b2]


class Decisions:
    """All sets' candidates with their inputs, addressed by decision. Race
    candidates (only boundary sets have them) are judged by the fixed race
    network, whose outputs are worked out once here; training moves the
    contact network's candidates around them."""

    def __init__(self, variant: str, sets: list[DecisionSet], race: list[np.ndarray] | None = None):
        boards = np.concatenate([s.boards for s in sets])
        self.sizes = np.concatenate([s.sizes for s in sets])
        self.starts = first_rows(self.sizes)
        self.labels = np.concatenate([s.labels for s in sets]).astype(np.float32)
        self.label_equity = equities(self.labels)
        self.inputs = network_inputs(variant, boards)
        self.fixed = race_mask(variant, boards)
        self.race_out = np.zeros_like(self.labels)
        if self.fixed.any():
            if race is None:
                raise SystemExit("race candidates need the race network (--race)")
            self.race_out[self.fixed] = forward(race, self.inputs[self.fixed])[1]

    def rows(self, chosen: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The rows of the chosen decisions and, per row, its decision's place in `chosen`."""
        rows = np.concatenate([np.arange(self.starts[g], self.starts[g] + self.sizes[g]) for g in chosen])
        return rows, np.repeat(np.arange(len(chosen)), self.sizes[chosen])


def student(params: list[np.ndarray], data: Decisions, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The hidden units and outputs the engine would give the rows (the race
    network's outputs on race candidates), and which rows those are."""
    hidden, out = forward(params, data.inputs[rows])
    fixed = data.fixed[rows]
    out[fixed] = data.race_out[rows[fixed]]
    return hidden, out, fixed


def held_out_report(params: list[np.ndarray], data: Decisions, held: np.ndarray) -> tuple[float, float, float]:
    """Squared error, 1-ply equity given up per decision (mEq) and the share
    of decisions where the network picks the 1-ply's best candidate."""
    rows, which = data.rows(held)
    _, out, _ = student(params, data, rows)
    squared = float(((out - data.labels[rows]) ** 2).sum(axis=1).mean())
    mine, best = equities(out), data.label_equity[rows]
    given_up, agree = 0.0, 0
    bounds = np.concatenate([[0], np.cumsum(data.sizes[held])])
    for g in range(len(held)):
        lo, hi = bounds[g], bounds[g + 1]
        picked = best[lo + np.argmin(mine[lo:hi])]
        given_up += picked - best[lo:hi].min()
        agree += picked == best[lo:hi].min()
    return squared, 1000 * given_up / len(held), agree / len(held)


def gradient(params: list[np.ndarray], data: Decisions, chosen: np.ndarray, rank: float, mse: float) -> list[np.ndarray]:
    rows, which = data.rows(chosen)
    x, target = data.inputs[rows], data.labels[rows]
    w1, b1, w2, b2 = params
    hidden, out, fixed = student(params, data, rows)
    miss = equities(out) - data.label_equity[rows]
    count = np.bincount(which).astype(np.float32)
    centred = miss - (np.bincount(which, miss) / count)[which]
    d_out = mse * 2 * (out - target) + rank * (2 * centred / count[which])[:, None] * EQUITY
    d_out[fixed] = 0  # the race network is not trained here
    d_out /= len(chosen)
    d_z2 = d_out * out * (1 - out)
    d_z1 = (d_z2 @ w2) * hidden * (1 - hidden)
    return [x.T @ d_z1, d_z1.sum(axis=0), d_z2.T @ hidden, d_z2.sum(axis=0)]


def report(params: list[np.ndarray], data: Decisions, held: dict[str, np.ndarray], when: str) -> None:
    for name, decisions in held.items():
        if len(decisions) == 0:  # a set of fewer than ten decisions holds none out
            continue
        squared, given_up, agree = held_out_report(params, data, decisions)
        print(f"{when}: {name} held out ({len(decisions)} decisions): squared error {squared:.5f}, "
              f"gives up {given_up:.2f} mEq/decision against the labels, agrees {agree:.3f}", flush=True)


def train(params: list[np.ndarray], data: Decisions, held: dict[str, np.ndarray], args: argparse.Namespace) -> list[np.ndarray]:
    """Adam over mini-batches of the decisions not in `held` (named groups of
    held-out decisions, reported before training and after every epoch)."""
    training = np.setdiff1d(np.arange(len(data.sizes)), np.concatenate(list(held.values())))
    report(params, data, held, "before")
    rng = np.random.default_rng(args.seed)
    moment = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    step, start = 0, time.perf_counter()
    for epoch in range(args.epochs):
        rate = args.rate * (args.rate_end / args.rate) ** (epoch / max(1, args.epochs - 1))
        order = rng.permutation(training)
        for at in range(0, len(order), args.batch):
            grads = gradient(params, data, order[at : at + args.batch], args.rank, args.mse)
            step += 1
            for p, g, m, v in zip(params, grads, moment, second):
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                p -= rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        print(f"epoch {epoch + 1:>3}: rate {rate:.2e}  ({time.perf_counter() - start:.0f} s)", flush=True)
        report(params, data, held, f"epoch {epoch + 1:>3}")
    return params


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tavla_train rank", description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="backgammon", choices=VARIANTS)
    p.add_argument("--network", type=Path, required=True, help="the network to start from (a .tnn file)")
    p.add_argument("--set", dest="sets", action="append", required=True,
                   help="TEACHER:POSITIONS:K:SELFPLAY_SEED:ROLL_SEED, one decision set (repeatable)")
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--rate", type=float, default=0.003, help="Adam step size at the start")
    p.add_argument("--rate-end", type=float, default=0.0003, help="Adam step size at the last epoch")
    p.add_argument("--rank", type=float, default=4.0, help="weight of the centred equity error")
    p.add_argument("--mse", type=float, default=1.0, help="weight of the probabilities' squared error")
    p.add_argument("--batch", type=int, default=64, help="decisions per mini-batch")
    p.add_argument("--hidden", type=int, default=0,
                   help="widen the network to this many hidden units first (the new ones start silent)")
    p.add_argument("--refine", type=parse_refine, default=None,
                   help="PLY:TOP:GAP:DECISIONS:ORDER_SEED: label the TOP best candidates of up to DECISIONS "
                        "of the first set's close training decisions again by a PLY-deep search")
    p.add_argument("--refine-mix", type=float, default=1.0,
                   help="weight of the deeper labels against the 1-ply's in refined decisions")
    p.add_argument("--race", type=Path, default=None,
                   help="the race network the engine plays races with (a .tnn file); needed by --boundary-set")
    p.add_argument("--boundary-set", dest="boundary_sets", action="append", default=[],
                   help="TEACHER:POSITIONS:K:SELFPLAY_SEED:ROLL_SEED, a set of decisions whose K best plays mix "
                        "contact and race positions, the race ones judged by --race (repeatable)")
    p.add_argument("--label-ply", type=int, default=2,
                   help="search depth of the sets' labels: 2 or 3 (1, the shipped round's teacher, only to rebuild it)")
    p.add_argument("--seed", type=int, default=1, help="shuffles the decisions")
    p.add_argument("--threads", type=int, default=0, help="self-play and labelling threads (0 = all cores)")
    p.add_argument("--data", type=Path, default=DATA, help="where the decision sets are kept")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    if args.epochs < 1 or args.batch < 1 or args.rate <= 0 or args.rate_end <= 0:
        raise SystemExit("--epochs and --batch must be positive, and so must the rates")
    if args.label_ply != 1:
        check_teacher_ply(args.label_ply, "--label-ply")
    if args.refine and args.refine[0] <= args.label_ply:
        raise SystemExit(f"--refine's PLY must be deeper than --label-ply {args.label_ply}")
    if not 0 <= args.refine_mix <= 1:
        raise SystemExit("--refine-mix is a weight between 0 and 1")

    if args.variant != "backgammon" and (args.race or args.boundary_sets):
        raise SystemExit(f"--race and --boundary-set are backgammon's: {args.variant}'s ranking rounds keep the races in")
    if args.boundary_sets and args.race is None:
        raise SystemExit("--boundary-set needs the race network: give --race RACE.tnn")
    race = args.race.read_bytes() if args.race else None
    for path in [args.network, *(parse_set(spec)[0] for spec in args.sets + args.boundary_sets)]:
        variant_network(path, args.variant)
    args.data.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    sets = [build_set(spec, args) for spec in args.sets]
    # The held-out tenth is the first set's, fixed before --refine takes any.
    held = {"contact" if args.variant == "backgammon" else "decisions": np.arange(len(sets[0].sizes) // 10)}
    if args.refine:
        sets[0], deeper = refine(sets[0], args.sets[0], args)
        sets.append(deeper)
    if args.boundary_sets:
        # A tenth of the boundary decisions is held out too, reported on its own.
        boundary = [build_set(spec, args, race) for spec in args.boundary_sets]
        first = sum(len(s.sizes) for s in sets)
        held["boundary"] = first + np.arange(len(boundary[0].sizes) // 10)
        sets += boundary
    data = Decisions(args.variant, sets, read_network(race) if race else None)
    print(f"{len(data.sizes)} decisions, {len(data.labels)} candidates ({time.perf_counter() - start:.0f} s)", flush=True)
    params = read_network(args.network.read_bytes())
    if args.hidden:
        params = widen(params, args.hidden, args.seed)
    params = train(params, data, held, args)
    write_network(args.out, network_bytes(params))
    print(f"wrote {args.out} ({time.perf_counter() - start:.0f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
