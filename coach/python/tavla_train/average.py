"""Average the weights of several networks of the same shape into one.

    python -m tavla_train average data/snap/chunk-00051.tnn ... --out weights/backgammon.tnn
    python -m tavla_train average --last 50 data/snap --out weights/backgammon.tnn

Late in a low-rate TD run each chunk's network is the previous one plus a
little noise from that chunk's games; the mean of the last chunks' networks
(stochastic weight averaging) keeps the common trend and cancels part of the
noise. Networks must have the same inputs and hidden units: the file is a
12-byte header (magic, inputs, hidden) and then little-endian f32 weights, so
the header is kept and the weights are averaged element by element.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tavla.files import write_atomic
from tavla_train.tnn import average


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tavla_train average", description=__doc__.splitlines()[0])
    p.add_argument("nets", nargs="+", type=Path, help="network files, or with --last one folder of snapshots")
    p.add_argument("--last", type=int, help="average the last N snapshots (by name) of the folder given")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    files = args.nets
    if args.last is not None:
        if len(files) != 1 or not files[0].is_dir():
            p.error("--last takes exactly one folder of snapshots")
        files = sorted(files[0].glob("*.tnn"))[-args.last :]
        if len(files) < args.last:
            p.error(f"{args.nets[0]} holds {len(files)} snapshots, fewer than --last {args.last}")
    try:
        blob = average([f.read_bytes() for f in files])
    except ValueError as e:
        p.error(str(e))
    write_atomic(args.out, blob)
    print(f"wrote {args.out}: mean of {len(files)} networks ({files[0].name} .. {files[-1].name})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
