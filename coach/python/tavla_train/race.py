"""A variant's race network (or backgammon's crashed network): supervised on rollouts of its positions.

    python -m tavla_train race --selfplay 1000000 --trials 72 --seed 1 \\
        --epochs 60 --rate 0.5 --rate-end 0.005 --out weights/backgammon-race.tnn
    python -m tavla_train race --variant nardy --network weights/nardy.tnn ... --out weights/nardy-race.tnn
    python -m tavla_train race --class crashed --selfplay 200000 --extra data/gnubg-contact-s2001.npy \\
        --trials 144 --seed 7 ... --out weights/backgammon-crashed.tnn

Once contact is broken a game is a pure race (backgammon: no checker can hit
or block another again; the nardy games: every checker of each side in its
own half of the board, so none can block another again), and a network
trained on the whole game judges races loosely (see "Where the backgammon
network loses" in benches/README.md). Races are cheap to roll out well: the
game is short and its end is covered exactly by the bear-off tables. So:

1. play --selfplay positions by self-play of the contact network (one play in
   ten random) and keep the races that the bear-off tables do not cover;
2. label each by --trials rollouts of the contact network at 0-ply
   (stratified first roll), every trial stopped and scored exactly once the
   bear-off tables cover it (all cores);
3. train a copy of the contact network (same inputs, so it starts from what
   that net knows of races; in backgammon with its weights on the inputs that
   carry the race measures in a race, `_coach.RACE_SLOT_INPUTS`, at zero) on
   the labels, holding a tenth back, and report the held-out error of both
   networks.

The engine then evaluates races with this network and everything else with
the contact network. Positions and labels go to data/ (ignored by git),
named by the settings; a second run with the same settings reuses them.

`--class crashed` does the same for backgammon's crashed positions
(`Position.is_crashed`: contact where a side has at most six checkers in
play beside deep piles on its 1 and 2 points), which the engine judges with
a third network: self-play of whole games reaches them rarely (about one
contact position in nine), and the contact network judges them worst
(benches/README.md, "Cube decisions"). Rollouts teach it there: they play on
to the end, where the network's misjudgement of a crashed board shows.
`--extra FILE` adds the positions of the class among flat boards from
elsewhere (e.g. gnubg-nn's self-play, `scripts/gnubg_positions.py`: its play
crashes more often than tavla's; `--kind race` gives its races), labelled the
same way.

`--teacher one-sided` (backgammon races) labels each race without playing
whole games: each side's bear-in is simulated --trials times alone and joined
by the exact one-sided bear-off table (`coach/src/race_teacher.rs`; the
sides of a race never meet again). Its only noise is the bear-in's dice, so
it is closer to a long rollout than 72 trials of one (benches/README.md, "The
race network, a third round") and takes seconds where rollouts take minutes.

`--close P` keeps the positions where the network to be trained gives the
side on roll a winning chance between P and 1 - P, and one in ten of the
others: most races of self-play are settled (nine in ten of the backgammon
ones outside 0.2 to 0.8), while cube decisions turn on the close ones.

`--start FILE` trains a network of the class (the shipped race or crashed
network) further instead of a fresh copy of the contact network, and lets it
play and judge its class in the rollouts, as the engine does (without it the
contact network plays the whole rollout); `--contact-plays` leaves the
class's positions of the rollouts to the contact network all the same (the
crashed network judges crashed positions better than the contact network but
plays them worse: rollouts it plays are further from gnubg's 2-ply,
benches/README.md "The crashed network, a second round"). With `--class
crashed`, `--race FILE` lets the race network judge the rollouts' races.

`--save-set FILE` keeps the round's positions and labels (the level rounds'
.npz format, one kind) and `--also FILE` (repeatable) trains on such a kept
set beside the round's own: a second round learns from a better teacher's
labels without forgetting the first round's positions. The held-out tenth is
always the round's own.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

import numpy as np

from tavla_train import _coach, tnn
from tavla.files import save_npy
from tavla_train.common import CRASHED, RACE, VARIANTS, judges, labels_in_chunks, selfplay_boards, variant_network, write_network
from tavla_train.level import load_level_set, save_level_set
from tavla_train.supervised import train_with_held_out

from tavla_train.paths import DATA, ROOT


# Each class: the judge code the engine gives its positions, the word its files use, and its positions' name.
CLASSES = {"race": (RACE, "races", "races"), "crashed": (CRASHED, "crashed", "crashed positions")}


def class_positions(net: bytes, args: argparse.Namespace, extra: list[np.ndarray], tag: str) -> np.ndarray:
    """The positions of the class among the self-play's and those of `extra` (the --extra files' boards)."""
    code, word, name = CLASSES[args.klass]
    path = args.data / f"{tag}-{word}.npy"
    if path.exists():
        return np.load(path)
    start = time.perf_counter()
    boards = selfplay_boards(net, args.variant, args.selfplay, args.seed)
    # The positions the class network will judge (races: not yet a bear-off the exact tables answer).
    mine = boards[judges(args.variant, boards) == code]
    chosen = [mine] + [x[judges(args.variant, x) == code] for x in extra]
    found = np.ascontiguousarray(np.concatenate(chosen))
    beside = "".join(f" and {len(c)} among the {len(x)} of {f}" for c, x, f in zip(chosen[1:], extra, args.extra))
    print(f"  {len(mine)} {name} to learn among {len(boards)} self-play positions{beside} ({time.perf_counter() - start:.0f}s)")
    save_npy(path, found)
    return found


def rollout_labels(net: bytes, races: np.ndarray, args: argparse.Namespace, tag: str,
                   start: bytes | None = None, race_net: bytes | None = None) -> np.ndarray:
    """Rollouts of the contact network at 0-ply, `start` (the class network trained from --start)
    playing and judging its class (args.klass) in them as the engine does, and `race_net` (--race)
    the races of a crashed class's rollouts."""
    return labels_in_chunks(
        args.data / f"{tag}-t{args.trials}-labels.npy", races, 2_000,
        lambda part, k: _coach.nn_rollout_labels(
            net, args.variant, part.tobytes(), args.trials, args.seed * 1_000_003 + k, args.threads,
            race=start if args.klass == "race" else race_net, crashed=start if args.klass == "crashed" else None,
        ),
    )


def one_sided_labels(races: np.ndarray, args: argparse.Namespace, tag: str) -> np.ndarray:
    """Labels by the one-sided race teacher (each side's bear-in alone, joined by the bear-off table)."""
    # "onesided2": the teacher's second version (a race rule and a saving rule), whose labels differ from
    # the first's, kept under another name so that no cache of the first is read as the second's.
    return labels_in_chunks(
        args.data / f"{tag}-onesided2-t{args.trials}-labels.npy", races, 20_000,
        lambda part, k: _coach.race_teacher_labels(part.tobytes(), args.trials, args.seed * 1_000_003 + k, args.threads),
    )


# Of the positions outside --close's range, one in this many is kept (in order).
LOPSIDED_KEPT = 10


def close_positions(boards: np.ndarray, net: bytes, start: bytes | None, args: argparse.Namespace) -> np.ndarray:
    """The boards whose winning chance for the side on roll, by the network to be trained (at 0-ply),
    lies within [args.close, 1 - args.close], and one in LOPSIDED_KEPT of the others."""
    # The race network judges races beside the contact network; a crashed network is a contact one.
    judge, race = (start, None) if start and args.klass == "crashed" else (net, start)
    win = np.frombuffer(_coach.nn_label(judge, args.variant, boards.tobytes(), 0, args.threads, race=race),
                        "<f4").reshape(-1, 5)[:, 0]
    close = (win >= args.close) & (win <= 1.0 - args.close)
    kept = close | (np.arange(len(boards)) % LOPSIDED_KEPT == 0)
    print(f"  --close {args.close}: {close.sum()} of the {len(boards)} with a winning chance in [{args.close}, "
          f"{1.0 - args.close:.2f}], {kept.sum() - close.sum()} others kept")
    return np.ascontiguousarray(boards[kept])


def race_copy(net: bytes, args: argparse.Namespace) -> bytes:
    """The contact network as the start of a class network: for backgammon's races with the weights
    of the inputs that carry the race measures (`_coach.RACE_SLOT_INPUTS`) at zero, since the contact
    network learned them for shots and primes, which a race never has."""
    if (args.variant, args.klass) != ("backgammon", "race"):
        return net
    w1, b1, w2, b2 = tnn.read_network(net)
    w1[_coach.RACE_SLOT_INPUTS] = 0.0
    return tnn.network_bytes([w1, b1, w2, b2])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tavla_train race", description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="backgammon", choices=VARIANTS)
    p.add_argument("--class", dest="klass", default="race", choices=sorted(CLASSES),
                   help="the positions to learn: pure races, or crashed ones (backgammon)")
    p.add_argument("--extra", type=Path, action="append", default=[],
                   help="flat boards (an .npy of (n, 2, 25) int8) whose positions of the class join the self-play's")
    p.add_argument("--network", type=Path, help="the contact network (default: the variant's shipped one)")
    p.add_argument("--close", type=float, default=0.0,
                   help="keep the positions with a winning chance within [P, 1 - P] by the network to be trained, "
                        "and one in ten of the others (default 0: all)")
    p.add_argument("--start", type=Path,
                   help="a network of the class (e.g. the shipped race network) to train instead of a copy of the "
                        "contact network; it also plays and judges its class in the rollouts, as in the engine")
    p.add_argument("--contact-plays", action="store_true",
                   help="with --start: the contact network, not the --start network, plays the class's positions in "
                        "the rollouts (the crashed network judges them better but plays them worse)")
    p.add_argument("--race", type=Path,
                   help="--class crashed: the race network that judges the rollouts' races (as in the engine)")
    p.add_argument("--save-set", type=Path, help="keep the round's positions and labels in this .npz file")
    p.add_argument("--also", type=Path, action="append", default=[],
                   help="a set kept by --save-set (of this class) to train on beside the round's own (repeatable)")
    p.add_argument("--selfplay", type=int, default=1_000_000, help="self-play positions to draw the races from")
    p.add_argument("--teacher", default="rollouts", choices=("rollouts", "one-sided"),
                   help="how to label: rollouts of whole games, or (backgammon races) each side's bear-in "
                        "simulated alone and joined by the one-sided bear-off table")
    p.add_argument("--trials", type=int, default=72, help="rollouts per position (one-sided: bear-ins per side)")
    p.add_argument("--epochs", type=int, default=60)
    p.add_argument("--rate", type=float, default=0.5)
    p.add_argument("--rate-end", type=float, default=0.005)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=0, help="rollout threads (0 = all cores)")
    p.add_argument("--data", type=Path, default=DATA, help="where positions and labels are kept")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)

    if not 0.0 <= args.close < 0.5:
        raise SystemExit(f"--close {args.close}: a winning chance from 0 to below 0.5")
    if min(args.selfplay, args.trials) < 1 or args.epochs < 0:
        raise SystemExit("--selfplay and --trials must be positive, --epochs not negative")
    if args.klass == "crashed" and args.variant != "backgammon":
        raise SystemExit("--class crashed: only backgammon has crashed positions (a nardy side cannot be hit)")
    if args.teacher == "one-sided" and (args.klass, args.variant) != ("race", "backgammon"):
        raise SystemExit("--teacher one-sided: backgammon races only (a crashed position still has contact; "
                         "the nardy games' races have no one-sided table of their own here)")
    if args.contact_plays and not args.start:
        raise SystemExit("--contact-plays: only with --start (without it the contact network plays every rollout)")
    if args.race and args.klass != "crashed":
        raise SystemExit("--race: only --class crashed's rollouts take a race network beside the class's own "
                         "(a race class's network is --start)")
    for option, path in [("--start", args.start), ("--race", args.race)] + [("--extra", f) for f in args.extra]:
        if path and not path.exists():
            raise SystemExit(f"{option} {path}: no such file")
    earlier = [kind for path in args.also for kind in load_level_set(path, args.variant)]
    for name, _, _ in earlier:
        if not name.endswith(f": {args.klass}"):
            raise SystemExit(f"--also: {name!r} is not a set of {CLASSES[args.klass][2]}")
    network = args.network or ROOT / "weights" / f"{args.variant}.tnn"
    net = variant_network(network, args.variant)
    args.data.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    tag = f"{args.variant}-{hashlib.sha256(net).hexdigest()[:12]}-n{args.selfplay}-s{args.seed}"
    if args.klass != "race":
        tag += f"-{args.klass}"
    start_net = variant_network(args.start, args.variant) if args.start else None
    extra = [np.ascontiguousarray(np.load(f)) for f in args.extra]
    for boards in extra:
        tag += f"-x{hashlib.sha256(boards.tobytes()).hexdigest()[:8]}"
    races = class_positions(net, args, extra, tag)
    if args.close:
        races = close_positions(races, net, start_net, args)
        tag += f"-close{args.close:g}" + (f"-by{hashlib.sha256(start_net).hexdigest()[:8]}" if start_net else "")
    name = CLASSES[args.klass][2]
    if len(races) < 10:
        sys.exit(f"tavla_train race: only {len(races)} {name} among {args.selfplay} self-play positions; "
                 "ask for more with --selfplay")
    # The class network plays its class in the rollouts unless --contact-plays leaves them to the contact network.
    player = None if args.contact_plays else start_net
    label_tag = tag + (f"-from{hashlib.sha256(player).hexdigest()[:8]}" if player else "")
    judging_races = variant_network(args.race, args.variant) if args.race else None
    if judging_races:
        label_tag += f"-r{hashlib.sha256(judging_races).hexdigest()[:8]}"
    if args.teacher == "one-sided":
        labels = one_sided_labels(races, args, tag)
    else:
        # Labels kept by an older build could stray past 0 by a rounding error.
        labels = np.clip(rollout_labels(net, races, args, label_tag, player, judging_races), 0.0, 1.0)
    if args.save_set:
        save_level_set(args.save_set, args.variant, [(args.klass, races, labels)])
    # The round's own positions come first: their first tenth is the held-out set.
    boards = np.ascontiguousarray(np.concatenate([races] + [b for _, b, _ in earlier]))
    targets = np.concatenate([labels] + [l for _, _, l in earlier]).astype(np.float32)
    if earlier:
        print(f"  training beside {len(boards) - len(races)} {name} of {', '.join(str(f) for f in args.also)}")
    race_net, losses, before, after = train_with_held_out(
        start_net or race_copy(net, args), args.variant, boards, targets, args.epochs, args.rate, args.rate_end, args.seed,
        held=len(races) // 10,
    )
    epochs = " ".join(f"{x:.5f}" for x in losses)
    print(f"  train mse by epoch {epochs}")
    print(f"  held-out mse ({len(races) // 10} {name}): {'--start' if start_net else 'contact'} network {before:.5f}, "
          f"{args.klass} network {after:.5f}")
    write_network(args.out, race_net)
    print(f"wrote {args.out} ({len(race_net)} bytes) in {time.perf_counter() - start:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
