"""The benchmark position sets of a variant, and evaluators' errors on them.

    python scripts/benchmark_set.py build --variant nardy --positions 100 --trials 1296 --seed 1
    python scripts/benchmark_set.py build --variant nardy --name nardy-classes --per-class 25 --trials 1296 --seed 3
    python scripts/benchmark_set.py reroll --variant gulbara --name gulbara-classes --out gulbara-classes-1ply --ply 1 --trials 144 --variance-reduction
    python scripts/benchmark_set.py errors --variant nardy
    python scripts/benchmark_set.py errors --variant nardy --name nardy-classes --network gen1=benches/networks/nardy-gen1.tnn

`build` draws positions from self-play of the shipped network (one play in ten
random; gul bara plays whole cascades) and rolls each out, then writes
benches/positions/<name>.json (the name defaults to the variant). With
`--positions N` it takes the first N positions and rolls them out as the
committed sets were (`tavla._core.rollout`: the shipped network at 0-ply on
both sides, stratified first roll, gul bara cascades step by step). With
`--per-class K` it takes K positions of each class (opening, middle game,
race, bear-off: `position_class`) from a pool of self-play positions, and rolls
them out with the engine's own rollout (`Engine.rollout`, 0-ply, whole gul bara
cascades, both cores), recording each rollout's standard error. Rebuilding a
set after a new network ships changes its reference, so sets stay as committed.

`reroll` keeps a set's positions and classes and rolls them out again, deeper
(`--ply 1`: both sides play each move by a 1-ply search) and with variance
reduction where asked, into a new set `--out` (never over the set it reads):
with 1-ply players, a reference deeper than any 0- or 1-ply evaluation rated
on it, where a set built here has its network's 0-ply play as its reference.

`errors` reports, for each evaluator (the shipped network raw and through the
engine at 0 and 1 ply, the heuristic, and any `--network LABEL=PATH` file at
0 and 1 ply), the mean absolute error of its cubeless equity against the
rollouts, by class, and the root mean square error with the rollouts' own
noise taken out (sqrt(mean err^2 - mean se^2)), the same positions every time.
With `--against LABEL` (an evaluator's name as printed, e.g. "Engine gen2 ply 0")
each row also gives its absolute error less that evaluator's, position by
position, averaged with a 95% interval: two networks' errors on the same
positions differ by far less noise than either error has.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Callable

import tavla
from tavla import _core
from tavla.files import write_atomic

ROOT = Path(__file__).resolve().parent.parent
CLASSES = ("opening", "middle", "race", "bear-off")
# A position is still in the opening while both sides keep this share of their starting pips.
OPENING_PIPS = 0.85


def set_path(name: str) -> Path:
    return ROOT / "benches" / "positions" / f"{name}.json"


def position_class(pos: tavla.Position) -> str:
    """Which part of the game a position is in, for reporting errors by class."""
    kind = pos.position_class()  # the cube's classes: over, bear-off, race, contact
    if kind != "contact":
        return kind
    start = min(tavla.Position.start(pos.variant, **pos.rules).pip_count())
    if min(pos.pip_count()) >= OPENING_PIPS * start:
        return "opening"
    return "middle"


def build(args: argparse.Namespace) -> int:
    name = args.name or args.variant
    if args.per_class:
        entries, made_by = build_by_class(args)
    else:
        entries, made_by = build_first(args)
    doc = {
        "variant": args.variant,
        "made_by": f"python scripts/benchmark_set.py build --variant {args.variant} {made_by} --trials {args.trials} "
        f"--seed {args.seed}" + (f" --name {name}" if args.name else ""),
        "trials": args.trials,
        "positions": entries,
    }
    write_set(name, doc)
    return 0


def write_set(name: str, doc: dict) -> None:
    write_atomic(set_path(name), json.dumps(doc, indent=0))
    print(f"wrote {set_path(name)}")


def read_set(variant: str, name: str) -> tuple[dict, list[tuple[str | None, tavla.Position]]]:
    """The set `name` (refused where it is another variant's) and its (class or None, position) pairs."""
    doc = json.loads(set_path(name).read_text())
    if doc["variant"] != variant:
        raise SystemExit(f"{set_path(name)} is a {doc['variant']} set, not {variant}")
    return doc, [(e.get("class"), tavla.Position.from_arrays(variant, e["mine"], e["theirs"])) for e in doc["positions"]]


def engine_rollout(args: argparse.Namespace, **options: object) -> Callable[[tavla.Position, int], dict]:
    """`Engine.rollout` of --trials on --threads (0-ply players unless `options` say otherwise), as a dict."""
    engine = tavla.Engine(args.variant, ply=0)
    return lambda p, seed: engine.rollout(p, trials=args.trials, seed=seed, threads=args.threads, **options).to_dict()


def build_first(args: argparse.Namespace) -> tuple[list[dict], str]:
    positions = _core.selfplay_positions(args.variant, args.positions, args.seed)
    # The training rollout, as the committed sets were made: its result is a plain dict.
    entries = roll_out(args, [(None, p) for p in positions], lambda p, seed: _core.rollout(p, trials=args.trials, seed=seed))
    return entries, f"--positions {args.positions}"


def build_by_class(args: argparse.Namespace) -> tuple[list[dict], str]:
    pool = _core.selfplay_positions(args.variant, args.pool, args.seed)
    by_class: dict[str, list[tavla.Position]] = {c: [] for c in CLASSES}
    for pos in dict.fromkeys(pool):  # distinct positions, in the order self-play met them
        kind = position_class(pos)
        if kind in by_class:  # a finished game ("over") belongs to no class
            by_class[kind].append(pos)
    rng = random.Random(args.seed)
    chosen: list[tuple[str | None, tavla.Position]] = []
    for c in CLASSES:
        if len(by_class[c]) < args.per_class:
            raise SystemExit(f"only {len(by_class[c])} {c} positions in a pool of {args.pool}: raise --pool")
        chosen += [(c, p) for p in rng.sample(by_class[c], args.per_class)]
    entries = roll_out(args, chosen, engine_rollout(args))
    return entries, f"--per-class {args.per_class} --pool {args.pool}"


def reroll(args: argparse.Namespace) -> int:
    name = args.name or args.variant
    if args.out == name:
        raise SystemExit(f"--out {args.out} would overwrite the set it rolls out again: name a new set")
    source, chosen = read_set(args.variant, name)
    entries = roll_out(args, chosen, engine_rollout(args, ply=args.ply, variance_reduction=args.variance_reduction))
    doc = {
        "variant": args.variant,
        "made_by": f"python scripts/benchmark_set.py reroll --variant {args.variant} --name {name} "
        f"--out {args.out} --ply {args.ply} --trials {args.trials} --seed {args.seed}"
        + (" --variance-reduction" if args.variance_reduction else ""),
        "positions_from": source["made_by"],
        "trials": args.trials,
        "ply": args.ply,
        "variance_reduction": args.variance_reduction,
        "positions": entries,
    }
    write_set(args.out, doc)
    return 0


def roll_out(args: argparse.Namespace, chosen: list[tuple[str | None, tavla.Position]],
             rollout: Callable[[tavla.Position, int], dict]) -> list[dict]:
    """The set's entries: each (class or None, position) with its rollout, seeded by its place."""
    entries = []
    start = time.perf_counter()
    for k, (c, pos) in enumerate(chosen):
        mine, theirs = pos.to_arrays()
        entry = {"mine": mine, "theirs": theirs} | ({"class": c} if c else {})
        entries.append(entry | {"rollout": rollout(pos, args.seed * 7919 + k)})
        print(f"\r{k + 1}/{len(chosen)} rolled out ({time.perf_counter() - start:.0f}s)", end="", flush=True)
    print()
    return entries


def evaluators(variant: str, networks: list[str]) -> dict[str, Callable[[tavla.Position], float]]:
    found: dict[str, Callable[[tavla.Position], float]] = {
        "network 0-ply": lambda p: tavla.Evaluation(_core.network_probabilities(p)).equity
    }
    named = [("network", "network")] + [tuple(n.split("=", 1)) for n in networks] + [("heuristic", "heuristic")]
    for label, evaluator in named:
        if evaluator != label:
            evaluator = f"network={evaluator}"
        for ply in (0, 1):
            e = tavla.Engine(variant, ply=ply, evaluator=evaluator)
            found[f"Engine {label} ply {ply}"] = lambda p, e=e: e.evaluate(p).equity
    return found


def errors(args: argparse.Namespace) -> int:
    doc, positions = read_set(args.variant, args.name or args.variant)
    rows = [(pos, e["rollout"]["equity"], e["rollout"].get("equity_error", 0.0), c or "all")
            for (c, pos), e in zip(positions, doc["positions"])]
    # The sets built with --positions have no classes: "all" is their only column.
    classes = [c for c in CLASSES if any(k == c for *_, k in rows)]
    noise = sum(se * se for *_, se, _ in rows) / len(rows)
    depth = f"{doc.get('ply', 0)}-ply" + (", variance reduction" if doc.get("variance_reduction") else "")
    print(f"{args.variant}: {len(rows)} positions, rollouts of {doc['trials']} trials ({depth}), "
          f"mean standard error {sum(se for *_, se, _ in rows) / len(rows):.4f}")
    judges = evaluators(args.variant, args.network)
    if args.against is not None and args.against not in judges:
        raise SystemExit(f"--against {args.against!r}: no such evaluator (one of {', '.join(judges)})")
    # Every evaluator's errors first (each timed), so that --against pairs with the same numbers.
    scored = {}
    for name, fn in judges.items():
        start = time.perf_counter()
        scored[name] = ([(fn(p) - truth, c) for p, truth, _, c in rows], time.perf_counter() - start)
    base = [abs(e) for e, _ in scored[args.against][0]] if args.against else []
    print(f"  {'evaluator':28} {'all':>7} " + " ".join(f"{c:>8}" for c in classes) + "  rms-noise   time"
          + (f"  less {args.against}" if args.against else ""))
    for name, (errs, seconds) in scored.items():
        mean_abs = sum(abs(e) for e, _ in errs) / len(errs)
        per_class = [sum(abs(e) for e, k in errs if k == c) / sum(1 for _, k in errs if k == c) for c in classes]
        denoised = math.sqrt(max(0.0, sum(e * e for e, _ in errs) / len(errs) - noise))
        print(f"  {name:28} {mean_abs:7.4f} " + " ".join(f"{x:8.4f}" for x in per_class)
              + f"  {denoised:9.4f}  {seconds:5.1f}s"
              + (f"  {paired_difference([abs(e) for e, _ in errs], base)}" if args.against else ""))
    return 0


def paired_difference(errors: list[float], base: list[float]) -> str:
    """The mean of `errors` less `base`, position by position, with its 95% interval."""
    d = [e - b for e, b in zip(errors, base)]
    mean = sum(d) / len(d)
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (len(d) - 1)) if len(d) > 1 else 0.0
    return f"{mean:+.4f} ± {1.96 * sd / math.sqrt(len(d)):.4f}"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("--variant", required=True, choices=tavla.VARIANTS)
    b.add_argument("--name", help="the set's file name under benches/positions (default: the variant)")
    size = b.add_mutually_exclusive_group()
    size.add_argument("--positions", type=int, default=100, help="the first N self-play positions")
    size.add_argument("--per-class", type=int, help="K positions of each class, drawn from --pool")
    b.add_argument("--pool", type=int, default=20000, help="self-play positions to draw the classes from")
    b.add_argument("--trials", type=int, default=648)
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--threads", type=int, default=0, help="rollout threads with --per-class (0: all cores)")
    r = sub.add_parser("reroll", help="roll a set's positions out again, deeper, into a new set")
    r.add_argument("--variant", required=True, choices=tavla.VARIANTS)
    r.add_argument("--name", help="the set to take the positions from (default: the variant)")
    r.add_argument("--out", required=True, help="the new set's file name under benches/positions")
    r.add_argument("--ply", type=int, default=1, choices=(0, 1, 2), help="the rollout players' search depth")
    r.add_argument("--trials", type=int, default=144)
    r.add_argument("--variance-reduction", action="store_true", help="take each roll's luck out (gnubg's method)")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--threads", type=int, default=0, help="rollout threads (0: all cores)")
    e = sub.add_parser("errors")
    e.add_argument("--variant", required=True, choices=tavla.VARIANTS)
    e.add_argument("--name", help="the set's file name under benches/positions (default: the variant)")
    e.add_argument("--network", action="append", default=[], metavar="LABEL=PATH", help="another network file to rate")
    e.add_argument("--against", metavar="EVALUATOR", help="also each row's error less this evaluator's, paired by position")
    args = p.parse_args()
    return {"build": build, "reroll": reroll, "errors": errors}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
