"""Contact positions (or races) from GNU Backgammon's self-play, as flat boards for tavla's training stages.

    python3 scripts/gnubg_positions.py --positions 60000 --seed 1001 --out data/gnubg-contact-s1001.npy
    python3 scripts/gnubg_positions.py --kind race --positions 200000 --seed 4001 --out data/gnubg-race-s4001.npy

The positions are facts of gnubg-nn's play (a test and benchmark dependency): seeded self-play of
gnubg's 0-ply, one play in six random (scripts/gnubg_cube_fixture.py), each position recorded from
the side of the player on roll before its roll. They widen what tavla's own self-play shows: gnubg
presses, crashes and leaves its opponent on the bar in positions tavla's network rarely reaches
(the cube set's positions, where tavla's 0-ply was worst). Only their positions are used: the
training stages label them with tavla's own rollouts (`python -m tavla_train level --extra FILE`),
never with gnubg's evaluations.

Kept: contact positions (tavla's `Position.is_race` false; with --kind race the races, for
`python -m tavla_train race --extra FILE`), each once, none of the cube set's
(benches/positions/cube-backgammon.json), so the set that scores the cube stays unseen. Written as
an int8 array (n, 2, 25): the player on roll's 25 counts then the opponent's, each in its owner's
numbering, index 24 the bar (`Position.to_arrays`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gnubg_cube_fixture import ROOT, selfplay_positions  # noqa: E402
from tavla import formats  # noqa: E402

CUBE_SET = ROOT / "benches" / "positions" / "cube-backgammon.json"


def kept_boards(position_ids: list[str], exclude: set[str], races: bool = False) -> np.ndarray:
    """The contact positions (or the races) among gnubg Position IDs, each once and none of `exclude`, as flat boards."""
    boards, seen = [], set(exclude)
    for pid in position_ids:
        if pid in seen:
            continue
        seen.add(pid)
        position = formats.parse(pid)["position"]
        if position.is_race() == races and not position.is_game_over():
            boards.append(position.to_arrays())
    return np.array(boards, dtype=np.int8).reshape(-1, 2, 25)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=60_000, help="self-play positions to draw from")
    p.add_argument("--seed", type=int, default=1001, help="the self-play's dice and random plays")
    p.add_argument("--kind", choices=("contact", "race"), default="contact", help="keep the contact positions or the races")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    if args.positions < 1:
        raise SystemExit("--positions must be positive")
    cube_set = {case["position_id"] for case in json.loads(CUBE_SET.read_text())["positions"]}
    boards = kept_boards(selfplay_positions(args.positions, args.seed), cube_set, args.kind == "race")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.save(args.out, boards)
    if args.kind == "race":
        print(f"wrote {args.out}: {len(boards)} races of {args.positions}")
    else:
        print(f"wrote {args.out}: {len(boards)} contact positions of {args.positions} "
              f"({int((boards[:, 1, 24] > 0).sum())} with the opponent on the bar)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
