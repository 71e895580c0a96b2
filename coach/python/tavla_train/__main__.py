"""``python -m tavla_train STAGE [options]``: one command per training stage."""

from __future__ import annotations

import importlib
import sys

# Stage name -> (module, what it does). Each module has main(argv) -> int.
STAGES = {
    "td": ("td", "self-play TD(0) or TD(lambda) training of a variant's network"),
    "label": ("label", "label positions by a search deeper than the network (2-ply or more) or by rollouts"),
    "supervised": ("supervised", "rounds of self-play positions labelled by a deeper search, then SGD on the labels"),
    "race": ("race", "a variant's race network, supervised on rollouts of race positions"),
    "rank": ("rank", "ranking rounds: the 0-ply network learns to order a roll's plays as a deeper search does"),
    "calibrate": ("calibrate", "move a network's output biases to the means of rollouts"),
    "level": ("level", "rollout values for the positions ranking rounds never show (backgammon: the opponent on the bar; the nardy games: their self-play)"),
    "average": ("average", "average the weights of snapshots of one run"),
    "prune": ("prune", "the search's pruning network, trained on a full network's 0-ply values"),
    "rebuild": ("rebuild", "rebuild every shipped network from nothing with fixed seeds (--scale small or full)"),
}


def usage() -> str:
    lines = ["usage: python -m tavla_train STAGE [options]   (STAGE --help for its options)", "", "stages:"]
    lines += [f"  {name:<11}{what}" for name, (_, what) in STAGES.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        print(usage())
        return 0 if args else 2
    if args[0] not in STAGES:
        print(f"unknown stage {args[0]!r}\n\n{usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(f"tavla_train.{STAGES[args[0]][0]}")
    return int(module.main(args[1:]))


if __name__ == "__main__":
    sys.exit(main())
