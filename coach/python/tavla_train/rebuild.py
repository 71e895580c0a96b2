"""Rebuild every shipped network from nothing, with fixed seeds, through the stage commands.

    python -m tavla_train rebuild --scale tiny     # seconds: the pipeline's smoke test
    python -m tavla_train rebuild --scale small    # minutes on two cores: small networks
    python -m tavla_train rebuild --scale full     # the sizes of the shipped recipe (hours)

Every network goes to data/rebuild-SCALE/ (or --out), with each stage's
position sets, labels and checkpoints beside it and a log of the whole run
(rebuild.log); a stage whose network is already there is skipped, so an
interrupted run resumes. The stages, in order:

1. backgammon: three TD self-play stages (TD(0), then TD(0.7) twice at
   falling rates), the race network on rollouts of self-play races, one
   ranking round widened to more hidden units on decision sets labelled by
   a search deeper than the student (--label-ply, 2 by default), then three
   level rounds (rollout values of the positions after a dance, which the
   ranking sets never hold; the third also of other contact positions and
   of gnubg-nn's self-play positions, which need gnubg-nn from the test
   extra), each followed by the output calibration to rollouts, then the
   crashed network on rollouts of the crashed positions of its self-play and
   of gnubg-nn's, then level rounds four to seven whose rollouts the race
   and crashed networks judge as the engine does (whole games, new gnubg-nn
   positions each; no calibration after them; the sixth and seventh also
   train on the earlier rounds' level sets), then the race network's second
   round: the close races of the final network's self-play and of gnubg-nn's
   labelled by the one-sided race teacher (`race --teacher one-sided
   --close`): backgammon.tnn, backgammon-race.tnn, backgammon-crashed.tnn;
2. nardy and gul bara: TD self-play (gul bara in four stages at falling
   rates), then TD self-play from the first with the hand-made inputs (the
   stages that trained the shipped networks, whose first generation had no
   hand-made inputs; gul bara's last three TD(0.7), the last the stage at
   which the shipped network met its cascade inputs), a ranking round on
   decisions labelled by its 2-ply search, then a level round (rollout values
   of its self-play positions, gul bara's with whole cascades), then the
   race network on rollouts of the races of its self-play: nardy.tnn,
   nardy-race.tnn, gulbara.tnn, gulbara-race.tnn;
3. Dutch backgammon and acey-deucey: the rebuilt backgammon.tnn with the
   reserve inputs added at zero weight, then TD(0) self-play of each game:
   dutch.tnn, acey_deucey.tnn;
4. the three pruning networks, on the rebuilt full and race networks: VARIANT-prune.tnn.

At the end it prints each network's SHA-256 beside the shipped file's.
`--install` copies the rebuilt networks over weights/ (rebuild the
extension afterwards to ship them). `--scale full` uses the sizes, seeds and
rates that made the shipped weights, but does not reproduce them byte for
byte: backgammon's first two TD stages ran on older code (commit 7f621e6,
before self-play used the bear-off tables, and 5e32a04), gul bara's first
stage before self-play played cascades, nardy's and gul bara's first
generations on 200 inputs (the hand-made features joined at zero weight for
the second; a rebuild has them from the start), the shipped ranking round labelled
its sets by 1-ply (`--label-ply 1` asks for that teacher), and the
floating-point sums of the TD code changed since. docs/training.md has the
timings.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TextIO

from tavla_train import calibrate, level, prune, race, rank, td
from tavla_train.paths import DATA, ROOT, WEIGHTS


# Backgammon's crashed network's rates (decided by held-out error, benches/README.md "The crashed network").
CRASHED_RATES = (0.5, 0.005)


@dataclass(frozen=True)
class LevelRound:
    """One level round's sizes and seeds (`python -m tavla_train level`); `gnubg` > 0 adds the contact
    positions of that many positions of gnubg-nn's self-play (scripts/gnubg_positions.py, seed
    `gnubg_seed`; gnubg-nn is in the test extra)."""

    positions: int
    trials: int
    anchor: int
    epochs: int
    seed: int
    anchor_seed: int
    others: float = 0.0
    gnubg: int = 0
    gnubg_seed: int = 1001
    rates: tuple[float, float] = (3e-4, 3e-5)  # Adam's step size at the first and the last epoch
    joins: tuple[int, ...] = ()  # the earlier judged rounds whose level sets this one trains on too (level --also)


def level_rounds(positions: tuple[int, int, int], trials: int, anchor: int, epochs: int) -> tuple[LevelRound, ...]:
    """The shipped recipe's three level rounds at a scale: after a dance only (seeds 11 and 21), then
    after a dance, as many other contact positions and gnubg-nn's self-play (seed 31)."""
    first, second, third = positions
    return (LevelRound(first, trials, anchor, epochs, 11, 12),
            LevelRound(second, trials, anchor, epochs, 21, 22),
            LevelRound(third, trials, anchor, epochs, 31, 32, others=1.0, gnubg=max(200, third // 4)))


def judged_level_rounds(positions: int, trials: int, anchor: int) -> tuple[LevelRound, ...]:
    """The shipped recipe's level rounds four to seven at a scale (seeds 41, 51, 61 and 71, gnubg-nn's
    self-play seeds 3001, 3003, 3005 and 3007), each from the one before: the race and crashed
    networks judge their rollouts, 20 epochs from 1e-3 to 1e-4; round six trains on rounds four and
    five's level sets beside its own, round seven on twice the positions with half the rollouts
    each, beside rounds four to six's sets."""
    rounds = ((positions, trials, 41, 3001, ()), (positions, trials, 51, 3003, ()), (positions, trials, 61, 3005, (4, 5)),
              (2 * positions, max(1, trials // 2), 71, 3007, (4, 5, 6)))
    return tuple(LevelRound(count, rollouts, anchor, 20, seed, seed + 1, others=1.0, gnubg=count, gnubg_seed=gnubg_seed,
                            rates=(1e-3, 1e-4), joins=joins)
                 for count, rollouts, seed, gnubg_seed, joins in rounds)


@dataclass(frozen=True)
class Scale:
    """The sizes of one rebuild; seeds and rates are the shipped recipe's at every scale."""

    bg_hidden: int
    bg_td_games: tuple[int, int, int]  # TD(0) from scratch, TD(0.7), TD(0.7) at a low rate
    td_chunk: int
    race_selfplay: int
    race_trials: int
    race_epochs: int
    rank_sets: tuple[tuple[int, int], ...]  # (positions, candidates K) of each contact set
    rank_boundary: tuple[int, int]  # (positions, K) of the boundary set
    rank_hidden: int
    rank_epochs: int
    calibrate_positions: int
    calibrate_trials: int
    level: tuple[LevelRound, ...]  # the level rounds, each followed by a calibration
    judged_levels: tuple[LevelRound, ...]  # the level rounds after the crashed network, their rollouts judged by every network
    other_hidden: int  # nardy and gul bara
    nardy_games: int
    gulbara_games: tuple[int, int, int, int]
    features_games: dict[str, tuple[int, ...]]  # the games of each second-generation stage (FEATURES_TD)
    features_rank: dict[str, tuple[int, int]]  # the second generation's ranking set: (positions, K)
    features_level: dict[str, tuple[int, int, int]]  # its level round: (self-play positions, trials, anchor positions)
    features_race: dict[str, tuple[int, int, int]]  # its race network: (self-play positions, trials, epochs)
    dutch_games: int  # the reserve games' TD, from the rebuilt backgammon.tnn
    acey_deucey_games: int
    prune: dict[str, tuple[int, int, int]]  # variant -> (games, hidden, epochs)
    crashed: tuple[int, int, int, int]  # backgammon's crashed network: (self-play positions, gnubg-nn's, trials, epochs)
    # The race network's one-sided round: (self-play positions, gnubg-nn's positions of each seed from
    # RACE_GNUBG_SEED on, bear-ins per side, epochs).
    race_one_sided: tuple[int, tuple[int, ...], int, int]


SCALES = {
    # Seconds: untrained networks play long games (hundreds of turns), so the first TD stages are short.
    "tiny": Scale(
        bg_hidden=8, bg_td_games=(2, 20, 20), td_chunk=2, race_selfplay=1_000, race_trials=2, race_epochs=2,
        rank_sets=((12, 3), (10, 3), (10, 3)), rank_boundary=(800, 3), rank_hidden=12, rank_epochs=1,
        calibrate_positions=20, calibrate_trials=2, level=level_rounds((400, 400, 300), 2, 60, 1), other_hidden=8, nardy_games=40, gulbara_games=(2, 8, 8, 8), features_games={"nardy": (8,), "gulbara": (8, 4, 4, 4, 4)},
        features_rank={"nardy": (20, 3), "gulbara": (10, 3)}, features_level={"nardy": (80, 2, 30), "gulbara": (60, 2, 30)},
        features_race={"nardy": (4_000, 2, 2), "gulbara": (4_000, 2, 2)},
        dutch_games=4, acey_deucey_games=1,
        prune={"backgammon": (2, 4, 1), "nardy": (2, 4, 1), "gulbara": (2, 4, 1)},
        crashed=(2_000, 400, 2, 2), judged_levels=judged_level_rounds(300, 2, 60),
        race_one_sided=(1_000, (400,), 2, 2),
    ),
    "small": Scale(
        bg_hidden=32, bg_td_games=(10_000, 10_000, 5_000), td_chunk=1_000, race_selfplay=10_000, race_trials=8,
        race_epochs=10, rank_sets=((300, 8), (200, 16), (300, 8)), rank_boundary=(5_000, 16), rank_hidden=64,
        rank_epochs=5, calibrate_positions=300, calibrate_trials=8, level=level_rounds((3_000, 3_000, 2_000), 8, 1_000, 3), other_hidden=32, nardy_games=5_000,
        gulbara_games=(1_500, 1_500, 1_500, 1_500), features_games={"nardy": (3_000,), "gulbara": (2_000, 1_000, 1_000, 1_000, 1_000)},
        features_rank={"nardy": (1_000, 4), "gulbara": (200, 4)},
        features_level={"nardy": (2_000, 8, 500), "gulbara": (1_000, 8, 300)},
        features_race={"nardy": (50_000, 8, 10), "gulbara": (30_000, 8, 10)}, dutch_games=2_000, acey_deucey_games=500,
        prune={"backgammon": (50, 16, 3), "nardy": (30, 8, 3), "gulbara": (30, 8, 3)},
        crashed=(20_000, 4_000, 8, 10), judged_levels=judged_level_rounds(2_000, 8, 1_000),
        race_one_sided=(10_000, (4_000, 4_000), 8, 10),
    ),
    # The shipped recipe (benches/README.md, "Neural networks").
    "full": Scale(
        bg_hidden=128, bg_td_games=(1_000_000, 1_500_000, 550_000), td_chunk=10_000, race_selfplay=1_000_000,
        race_trials=72, race_epochs=60, rank_sets=((200_000, 8), (150_000, 16), (200_000, 8)),
        rank_boundary=(2_000_000, 16), rank_hidden=256, rank_epochs=40, calibrate_positions=6_000,
        calibrate_trials=36, level=level_rounds((60_000, 100_000, 24_000), 144, 40_000, 5), other_hidden=64, nardy_games=150_000, gulbara_games=(150_000, 100_000, 100_000, 150_000),
        features_games={"nardy": (600_000,), "gulbara": (400_000, 300_000, 200_000, 300_000, 300_000)},
        features_rank={"nardy": (30_000, 4), "gulbara": (6_000, 4)},
        features_level={"nardy": (24_000, 72, 8_000), "gulbara": (24_000, 72, 8_000)},
        features_race={"nardy": (3_000_000, 144, 60), "gulbara": (2_000_000, 144, 60)},
        dutch_games=20_000, acey_deucey_games=8_000,
        prune={"backgammon": (2_000, 64, 8), "nardy": (1_000, 16, 8), "gulbara": (1_000, 16, 8)},
        crashed=(200_000, 100_000, 144, 60), judged_levels=judged_level_rounds(12_000, 96, 40_000),
        race_one_sided=(400_000, (200_000, 1_000_000, 1_000_000, 1_000_000, 1_000_000), 648, 300),
    ),
}

# The seeds of the shipped recipe: rank's sets as (self-play seed, roll seed).
RANK_SET_SEEDS = ((71000213, 1), (5, 2), (3, 3))
RANK_BOUNDARY_SEEDS = (11, 11)
# Gul bara's four TD stages: (seed, rate, rate at the end).
GULBARA_STAGES = ((1, 0.1, 0.02), (3, 0.05, 0.01), (4, 0.02, 0.005), (5, 0.01, 0.002))
# Nardy's and gul bara's later generations, TD stages from the first with the hand-made features
# (src/nn/nardy_features.rs; gul bara's also src/nn/cascade_features.rs, which the shipped network
# met at its fifth stage), each from the one before: (seed, rate, rate at the end, lambda).
FEATURES_TD = {
    "nardy": ((201, 0.05, 0.005, 0.0),),
    "gulbara": ((202, 0.03, 0.003, 0.0), (203, 0.01, 0.001, 0.0), (204, 0.01, 0.002, 0.7), (205, 0.006, 0.001, 0.7),
                (206, 0.006, 0.001, 0.7)),
}
# The first seed of gnubg-nn's self-play races for the race network's one-sided round.
RACE_GNUBG_SEED = 4001
# Their ranking rounds: (self-play seed, roll seed) of the set.
FEATURES_RANK_SEEDS = {"nardy": (601, 602), "gulbara": (501, 502)}
# Their level rounds: (self-play seed, anchor seed).
FEATURES_LEVEL_SEEDS = {"nardy": (71, 72), "gulbara": (61, 62)}
# Their race networks' seeds (self-play, rollouts and training).
FEATURES_RACE_SEEDS = {"nardy": 81, "gulbara": 91}
# The reserve games' TD runs from the backgammon network: (seed, chunk of games, rate, rate at the end).
RESERVE_TD = {"dutch": (1, 2_000, 0.02, 0.005), "acey_deucey": (1, 1_000, 0.05, 0.005)}
SHIPPED = ["backgammon.tnn", "backgammon-race.tnn", "backgammon-crashed.tnn", "nardy.tnn", "nardy-race.tnn", "gulbara.tnn", "gulbara-race.tnn",
           "dutch.tnn", "acey_deucey.tnn", "backgammon-prune.tnn", "nardy-prune.tnn", "gulbara-prune.tnn"]


@dataclass
class Step:
    name: str
    out: Path
    run: Callable[[], int]


def td_args(variant: str, games: int, hidden: int, seed: int, rate: float, rate_end: float, chunk: int,
            out: Path, resume: Path | None = None, trace_decay: float = 0.0, add_inputs: bool = False) -> list[str]:
    args = ["--variant", variant, "--games", str(games), "--hidden", str(hidden), "--seed", str(seed),
            "--chunk", str(min(chunk, games)), "--rate", str(rate), "--rate-end", str(rate_end),
            "--lambda", str(trace_decay), "--check-games", "0", "--out", str(out),
            "--checkpoint", str(out.with_suffix(".checkpoint.tnn"))]
    return args + (["--resume", str(resume)] if resume else []) + (["--add-inputs"] if add_inputs else [])


def steps(s: Scale, out: Path, threads: int, label_ply: int) -> list[Step]:
    """The stages of a rebuild at scale `s`, every file under `out`."""
    work = out / "work"
    td1, td2, bg_td = work / "backgammon-td1.tnn", work / "backgammon-td2.tnn", work / "backgammon-td.tnn"
    # The race network of the training rounds (rollouts); the shipped one is its one-sided round.
    bg_race, ranked = work / "backgammon-race-rollouts.tnn", work / "backgammon-ranked.tnn"
    g1, g2, g3 = s.bg_td_games
    chunk = s.td_chunk
    threads_arg = ["--threads", str(threads)]
    plan = [
        Step("backgammon TD(0)", td1, lambda: td.main(td_args("backgammon", g1, s.bg_hidden, 22, 0.1, 0.01, chunk, td1))),
        Step("backgammon TD(0.7)", td2, lambda: td.main(
            td_args("backgammon", g2, s.bg_hidden, 41, 0.03, 0.003, chunk, td2, resume=td1, trace_decay=0.7))),
        Step("backgammon TD(0.7), low rate", bg_td, lambda: td.main(
            td_args("backgammon", g3, s.bg_hidden, 51, 0.005, 0.001, chunk, bg_td, resume=td2, trace_decay=0.7))),
        Step("backgammon race network", bg_race, lambda: race.main([
            "--network", str(bg_td), "--selfplay", str(s.race_selfplay), "--trials", str(s.race_trials), "--seed", "1",
            "--epochs", str(s.race_epochs), "--rate", "0.5", "--rate-end", "0.005", "--data", str(work),
            "--out", str(bg_race), *threads_arg])),
    ]
    sets = [f"--set={bg_td}:{n}:{k}:{a}:{b}" for (n, k), (a, b) in zip(s.rank_sets, RANK_SET_SEEDS)]
    boundary = f"--boundary-set={bg_td}:{s.rank_boundary[0]}:{s.rank_boundary[1]}:{RANK_BOUNDARY_SEEDS[0]}:{RANK_BOUNDARY_SEEDS[1]}"
    plan += [
        Step("backgammon ranking round", ranked, lambda: rank.main([
            "--network", str(bg_td), *sets, boundary, "--race", str(bg_race), "--hidden", str(s.rank_hidden),
            "--epochs", str(s.rank_epochs), "--rate", "0.003", "--rate-end", "0.0003", "--rank", "4", "--seed", "1",
            "--label-ply", str(label_ply), "--data", str(work), "--out", str(ranked), *threads_arg])),
    ]
    levelled_from = ranked
    for k, round_ in enumerate(s.level):
        plan += level_steps(k + 1, round_, levelled_from, s, work, threads_arg, work / f"backgammon-calibrated{k + 1}.tnn")
        levelled_from = plan[-1].out
    plan += crashed_steps(s, levelled_from, out, work, threads_arg)
    for k, round_ in enumerate(s.judged_levels, start=len(s.level) + 1):
        last = k == len(s.level) + len(s.judged_levels)
        plan += judged_level_steps(k, round_, levelled_from, bg_race, out, work, threads_arg,
                                   out / "backgammon.tnn" if last else work / f"backgammon-level{k}.tnn")
        levelled_from = plan[-1].out
    plan += race_one_sided_steps(s, bg_race, out, work, threads_arg)
    plan += [
        Step("nardy TD(0)", work / "nardy-gen1.tnn", lambda: td.main(
            td_args("nardy", s.nardy_games, s.other_hidden, 1, 0.1, 0.02, min(chunk, 5_000), work / "nardy-gen1.tnn"))),
    ]
    previous: Path | None = None
    for k, ((seed, rate, rate_end), games) in enumerate(zip(GULBARA_STAGES, s.gulbara_games)):
        last = k == len(GULBARA_STAGES) - 1
        target = work / "gulbara-gen1.tnn" if last else work / f"gulbara-stage{k + 1}.tnn"
        plan.append(Step(f"gul bara TD(0), stage {k + 1}", target, _bind_td(
            td_args("gulbara", games, s.other_hidden, seed, rate, rate_end, min(chunk, 5_000), target, resume=previous))))
        previous = target
    for variant, stages in FEATURES_TD.items():
        previous = work / f"{variant}-gen1.tnn"
        for k, ((seed, rate, rate_end, trace_decay), games) in enumerate(zip(stages, s.features_games[variant])):
            target = work / f"{variant}-gen2-stage{k + 1}.tnn"
            plan.append(Step(f"{variant} TD({trace_decay:g}) with the features, stage {k + 1}", target, _bind_td(
                td_args(variant, games, s.other_hidden, seed, rate, rate_end, chunk, target, resume=previous,
                        trace_decay=trace_decay))))
            previous = target
        (positions, k), (selfplay_seed, roll_seed) = s.features_rank[variant], FEATURES_RANK_SEEDS[variant]
        # Not `ranked`: backgammon's steps above read that name when they run.
        variant_ranked = work / f"{variant}-ranked.tnn"
        plan.append(Step(f"{variant} ranking round", variant_ranked, _bind_rank([
            "--variant", variant, "--network", str(previous), f"--set={previous}:{positions}:{k}:{selfplay_seed}:{roll_seed}",
            "--epochs", "20", "--rate", "0.003", "--rate-end", "0.0003", "--rank", "4", "--seed", "1",
            "--label-ply", str(label_ply), "--data", str(work), "--out", str(variant_ranked), *threads_arg])))
        (positions, trials, anchor), (level_seed, anchor_seed) = s.features_level[variant], FEATURES_LEVEL_SEEDS[variant]
        plan.append(Step(f"{variant} level round", out / f"{variant}.tnn", _bind_level([
            "--variant", variant, "--network", str(variant_ranked), "--positions", str(positions), "--trials", str(trials),
            "--seed", str(level_seed), "--anchor", str(anchor), "--anchor-seed", str(anchor_seed), "--epochs", "20",
            "--rate", "0.001", "--rate-end", "0.0001", "--data", str(work), "--out", str(out / f"{variant}.tnn"),
            *threads_arg])))
        selfplay, trials, epochs = s.features_race[variant]
        plan.append(Step(f"{variant} race network", out / f"{variant}-race.tnn", _bind_race([
            "--variant", variant, "--network", str(out / f"{variant}.tnn"), "--selfplay", str(selfplay),
            "--trials", str(trials), "--seed", str(FEATURES_RACE_SEEDS[variant]), "--epochs", str(epochs),
            "--rate", "0.5", "--rate-end", "0.005", "--data", str(work), "--out", str(out / f"{variant}-race.tnn"),
            *threads_arg])))
    for variant, games in (("dutch", s.dutch_games), ("acey_deucey", s.acey_deucey_games)):
        seed, reserve_chunk, rate, rate_end = RESERVE_TD[variant]
        target = out / f"{variant}.tnn"
        plan.append(Step(f"{variant} TD(0) from the backgammon network", target, _bind_td(
            td_args(variant, games, s.rank_hidden, seed, rate, rate_end, reserve_chunk, target,
                    resume=out / "backgammon.tnn", add_inputs=True))))
    for variant, (games, hidden, epochs) in s.prune.items():
        target = out / f"{variant}-prune.tnn"
        race_args = ["--race", str(bg_race if variant == "backgammon" else out / f"{variant}-race.tnn")]
        plan.append(Step(f"{variant} pruning network", target, _bind_prune([
            "--variant", variant, "--network", str(out / f"{variant}.tnn"), *race_args, "--games", str(games),
            "--hidden", str(hidden), "--epochs", str(epochs), "--out", str(target)])))
    return plan


def level_round_steps(k: int, r: LevelRound, network: Path, work: Path, threads_arg: list[str], levelled: Path,
                      judges: list[str], sets: list[str]) -> list[Step]:
    """The k-th level round from `network` into `levelled` (gnubg-nn's positions first where it takes
    them); `judges` the level command's --race and --crashed options, if any, `sets` its --save-set
    and --also options."""
    plan: list[Step] = []
    extra: list[str] = []
    if r.gnubg:
        step = gnubg_positions_step(f"level round {k}", r.gnubg, r.gnubg_seed, work)
        extra = ["--extra", str(step.out)]
        plan.append(step)
    plan.append(Step(f"backgammon level round {k}", levelled, lambda: level.main([
        "--network", str(network), *judges, "--positions", str(r.positions), "--trials", str(r.trials),
        "--seed", str(r.seed), "--others", f"{r.others:g}", *extra, "--anchor", str(r.anchor),
        "--anchor-seed", str(r.anchor_seed), "--epochs", str(r.epochs), "--rate", f"{r.rates[0]:g}",
        "--rate-end", f"{r.rates[1]:g}", "--data", str(work), *sets, "--out", str(levelled), *threads_arg])))
    return plan


def level_steps(k: int, r: LevelRound, network: Path, s: Scale, work: Path, threads_arg: list[str],
                calibrated: Path) -> list[Step]:
    """The k-th level round from `network`, then the output calibration into `calibrated`."""
    levelled = work / f"backgammon-level{k}.tnn"
    plan = level_round_steps(k, r, network, work, threads_arg, levelled, [], [])
    plan.append(Step(f"backgammon calibration after level round {k}", calibrated, lambda: calibrate.main([
        "--network", str(levelled), "--positions", str(s.calibrate_positions), "--trials", str(s.calibrate_trials),
        "--seed", "123", "--data", str(work), "--out", str(calibrated), *threads_arg])))
    return plan


def gnubg_positions_step(purpose: str, count: int, seed: int, work: Path, kind: str = "contact") -> Step:
    """The contact positions (or races) of `count` positions of gnubg-nn's self-play
    (scripts/gnubg_positions.py, `seed`), for a stage that labels them with tavla's own teachers."""
    positions = work / f"gnubg-{kind}-n{count}-s{seed}.npy"
    return Step(f"gnubg-nn self-play {'races' if kind == 'race' else 'positions'} for {purpose}", positions, lambda: subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gnubg_positions.py"), "--kind", kind, "--positions", str(count),
         "--seed", str(seed), "--out", str(positions)]).returncode)


def race_one_sided_steps(s: Scale, start: Path, out: Path, work: Path, threads_arg: list[str]) -> list[Step]:
    """The shipped race network: `start` (the rollouts' race network) trained further on the close
    races of the final contact network's self-play (seed 3) and of gnubg-nn's (seeds RACE_GNUBG_SEED
    on), labelled by the one-sided race teacher."""
    selfplay, gnubg, trials, epochs = s.race_one_sided
    positions = [gnubg_positions_step("the race network", n, RACE_GNUBG_SEED + k, work, "race") for k, n in enumerate(gnubg)]
    target = out / "backgammon-race.tnn"
    extra = [f"--extra={p.out}" for p in positions]
    return positions + [
        Step("backgammon race network, one-sided round", target, lambda: race.main([
            "--network", str(out / "backgammon.tnn"), "--start", str(start), "--selfplay", str(selfplay), *extra,
            "--close", "0.05", "--teacher", "one-sided", "--trials", str(trials), "--seed", "3",
            "--epochs", str(epochs), "--rate", "0.5", "--rate-end", "0.002", "--data", str(work),
            "--out", str(target), *threads_arg])),
    ]


def judged_level_steps(k: int, r: LevelRound, network: Path, bg_race: Path, out: Path, work: Path,
                       threads_arg: list[str], levelled: Path) -> list[Step]:
    """A level round after the crashed network, into `levelled`: its rollouts judged by the race and
    crashed networks as in the engine (crashed positions leave its set), whole games; its level set
    kept for the rounds that join it."""
    judges = ["--race", str(bg_race), "--crashed", str(out / "backgammon-crashed.tnn")]
    sets = ["--save-set", str(level_set(work, k))] + [f"--also={level_set(work, j)}" for j in r.joins]
    return level_round_steps(k, r, network, work, threads_arg, levelled, judges, sets)


def level_set(work: Path, k: int) -> Path:
    """Where the k-th judged level round keeps its level set."""
    return work / f"backgammon-level{k}-set.npz"


def crashed_steps(s: Scale, network: Path, out: Path, work: Path, threads_arg: list[str]) -> list[Step]:
    """Backgammon's crashed network from the contact network after its calibrated level rounds:
    its self-play's crashed positions and gnubg-nn's (scripts/gnubg_positions.py, seed 2001),
    rolled out (seed 7)."""
    selfplay, gnubg, trials, epochs = s.crashed
    positions = gnubg_positions_step("the crashed network", gnubg, 2001, work)
    crashed = out / "backgammon-crashed.tnn"
    return [
        positions,
        Step("backgammon crashed network", crashed, lambda: race.main([
            "--class", "crashed", "--network", str(network), "--selfplay", str(selfplay),
            "--extra", str(positions.out), "--trials", str(trials), "--seed", "7", "--epochs", str(epochs),
            "--rate", str(CRASHED_RATES[0]), "--rate-end", str(CRASHED_RATES[1]), "--data", str(work),
            "--out", str(crashed), *threads_arg])),
    ]


def _bind_td(argv: list[str]) -> Callable[[], int]:
    return lambda: td.main(argv)


def _bind_rank(argv: list[str]) -> Callable[[], int]:
    return lambda: rank.main(argv)


def _bind_level(argv: list[str]) -> Callable[[], int]:
    return lambda: level.main(argv)


def _bind_race(argv: list[str]) -> Callable[[], int]:
    return lambda: race.main(argv)


def _bind_prune(argv: list[str]) -> Callable[[], int]:
    return lambda: prune.main(argv)


class Tee:
    """Writes to the terminal and to the run's log at once."""

    def __init__(self, *streams: TextIO):
        self.streams = streams

    def write(self, text: str) -> int:
        for stream in self.streams:
            stream.write(text)
        return len(text)

    def flush(self) -> None:
        for stream in self.streams:
            stream.flush()


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tavla_train rebuild", description=__doc__.splitlines()[0])
    p.add_argument("--scale", choices=sorted(SCALES), required=True)
    p.add_argument("--out", type=Path, help="where the networks go (default data/rebuild-SCALE)")
    p.add_argument("--label-ply", type=int, default=2, help="search depth of the ranking round's labels (2 or 3; 1 as shipped)")
    p.add_argument("--threads", type=int, default=0, help="labelling and rollout threads (0 = all cores); results do not depend on it")
    p.add_argument("--install", action="store_true", help="copy the rebuilt networks over weights/ at the end")
    args = p.parse_args(argv)
    out = args.out or DATA / f"rebuild-{args.scale}"
    (out / "work").mkdir(parents=True, exist_ok=True)
    plan = steps(SCALES[args.scale], out, args.threads, args.label_ply)
    start = time.perf_counter()
    with open(out / "rebuild.log", "a") as log, contextlib.redirect_stdout(Tee(sys.stdout, log)):
        print(f"rebuild --scale {args.scale} --label-ply {args.label_ply} into {out}", flush=True)
        for k, step in enumerate(plan):
            if step.out.exists():
                print(f"[{k + 1}/{len(plan)}] {step.name}: {step.out.name} is there, skipped", flush=True)
                continue
            began = time.perf_counter()
            print(f"[{k + 1}/{len(plan)}] {step.name}", flush=True)
            code = step.run()
            if code or not step.out.exists():
                print(f"{step.name} failed ({code})", flush=True)
                return code or 1
            print(f"[{k + 1}/{len(plan)}] {step.name}: {time.perf_counter() - began:.0f} s", flush=True)
        print(f"all stages in {time.perf_counter() - start:.0f} s; SHA-256, rebuilt against shipped:", flush=True)
        for name in SHIPPED:
            rebuilt, shipped = sha256(out / name), sha256(WEIGHTS / name)
            same = "identical" if rebuilt == shipped else "differs"
            print(f"  {name:<22} {rebuilt[:16]}  {shipped[:16]}  {same}", flush=True)
            if args.install:
                shutil.copyfile(out / name, WEIGHTS / name)
        if args.install:
            print("copied into weights/: rebuild the extension (pip install -e .) to ship them", flush=True)
    return 0
