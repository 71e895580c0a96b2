"""Self-play TD(0) or TD(lambda) training of a variant's network, reproducible from its seed.

    python -m tavla_train td --variant backgammon --games 200000 --hidden 64 --seed 1

Trains in chunks (each chunk's dice come from seed and chunk number), prints a
progress line per chunk with the score against random play, keeps a
checkpoint in data/ (ignored by git) and writes the final network to
weights/<variant>.tnn, which the library compiles in.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import tavla
from tavla_train import _coach
from tavla.files import write_atomic

from tavla_train.paths import DATA, WEIGHTS
from tavla_train.common import variant_inputs
from tavla_train.tnn import with_inputs


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tavla_train td", description=__doc__.splitlines()[0])
    p.add_argument("--variant", required=True, choices=[*tavla.VARIANTS, *tavla.RESERVE_VARIANTS])
    p.add_argument("--games", type=int, default=200_000)
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rate", type=float, default=0.1, help="learning rate at the start")
    p.add_argument("--rate-end", type=float, default=0.02, help="learning rate at the end (linear)")
    p.add_argument("--lambda", dest="trace_decay", type=float, default=0.0, help="TD(lambda)'s lambda (0: TD(0), learning after every turn)")
    p.add_argument("--chunk", type=int, default=2000)
    p.add_argument("--check-games", type=int, default=400, help="games against random per progress line")
    p.add_argument("--resume", type=Path, help="start from this network file instead of random weights")
    p.add_argument("--add-inputs", action="store_true",
                   help="with --resume: append the variant's missing inputs at zero weight (a backgammon "
                        "network starting Dutch backgammon or acey-deucey, whose encoding adds the reserve, or a "
                        "first-generation nardy or gul bara network meeting the hand-made features)")
    p.add_argument("--out", type=Path)
    p.add_argument("--checkpoint", type=Path, help="where each chunk's network is kept (default data/<variant>-h<hidden>-s<seed>.tnn)")
    p.add_argument("--snapshots", type=Path, help="also keep every chunk's network in this folder (for `python -m tavla_train average`)")
    args = p.parse_args(argv)

    out = args.out or WEIGHTS / f"{args.variant}.tnn"
    checkpoint = args.checkpoint or DATA / f"{args.variant}-h{args.hidden}-s{args.seed}.tnn"
    checkpoint.parent.mkdir(parents=True, exist_ok=True)
    net = args.resume.read_bytes() if args.resume else _coach.td_new_network(args.variant, args.hidden, args.seed)
    if args.add_inputs:
        if not args.resume:
            p.error("--add-inputs widens a --resume network")
        net = with_inputs(net, variant_inputs(args.variant))
    chunks = max(1, args.games // args.chunk)
    if args.snapshots:
        args.snapshots.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    for k in range(chunks):
        rate = args.rate + (args.rate_end - args.rate) * k / max(1, chunks - 1)
        net, games, turns, gammons = _coach.td_train(
            net, args.variant, args.chunk, args.seed * 1_000_003 + k, rate, trace_decay=args.trace_decay
        )
        write_atomic(checkpoint, net)
        if args.snapshots:
            write_atomic(args.snapshots / f"chunk-{k + 1:05d}.tnn", net)
        done = (k + 1) * args.chunk
        elapsed = time.perf_counter() - start
        score = _coach.td_score_vs_random(net, args.variant, args.check_games, 7) if args.check_games else float("nan")
        bar = "#" * int(30 * (k + 1) / chunks)
        print(
            f"[{bar:<30}] {done:>8} games  {done / elapsed:6.0f} games/s  rate {rate:.3f}  "
            f"{turns / games:5.1f} turns/game  gammons {gammons / games:.2f}  vs random {score:+.3f}",
            flush=True,
        )
    write_atomic(out, net)
    print(f"wrote {out} ({len(net)} bytes) after {chunks * args.chunk} games in {time.perf_counter() - start:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
