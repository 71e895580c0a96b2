"""Build benches/positions/cube-backgammon.json: 1,600 cube decisions labelled by GNU Backgammon.

    python3 scripts/gnubg_cube_set.py                # --seed 1 --jobs 2; 4.5 minutes on 2 cores (3.6 min screening, 1 min labelling)

Then `python3 scripts/cube_errors.py` scores gnubg 0-ply / 1-ply and tavla against the 2-ply labels.

How the set is made (fixed seed, so one command rebuilds the same file):

1. positions from seeded self-play with `gnubg_nn` (see scripts/gnubg_cube_fixture.py), drawn
   45% contact, 35% race, 20% bear-off (both sides home), each position used once;
2. each cube state of STATES below screens candidates with gnubg at 0-ply and keeps those
   where gnubg 0-ply's cubeless win probability of the player on roll is in [0.55, 0.95]
   (the Crawford game, where nobody may double, is kept as a small sanity group), spread
   over gnubg 0-ply's decisions: about 40% no double, 25% double/take, 20% double/pass,
   15% too good, and within each kind at most 60% contact (gnubg classes 9, 10), 28% race,
   12% bear-off (classes 4-7); a group short of some kind or class is filled from the other
   screened candidates (in the order screened);
3. every kept case is evaluated by gnubg (scripts/gnubg_cube.py inside /usr/games/gnubg) at
   0, 1 and 2 ply: cubeless probabilities, cubeful ND / DT / DP normalized to the current cube
   (match play: normalized equity, mwc2eq at the score, plus MWC), decision text, position
   class. The 2-ply numbers are the reference labels; 0- and 1-ply give gnubg's own error.

Money is 40% of the set (centred cube without and with Jacoby+beavers, my cube at 2 and 4);
match play covers 7-point 0-0, 2-4, 4-2, post-Crawford 4-6 (the trailer on roll), the
Crawford game 6-4, 2-away/2-away (5-5), my cube at 2 (2-2), 5-point 0-0, 11-point with my
cube at 4, 25-point 0-0.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gnubg_cube_fixture import ROOT, cube, pools, run_gnubg  # noqa: E402
from tavla.files import write_atomic  # noqa: E402

# (name, cube state, how many)
STATES = [
    ("money centred", cube(1, None), 240),
    ("money centred, jacoby+beaver", cube(1, None, jacoby=True, beaver=True), 160),
    ("money my cube 2", cube(2, "me"), 160),
    ("money my cube 4", cube(4, "me"), 80),
    ("7pt 0-0", cube(1, None, 7, (0, 0)), 160),
    ("7pt 2-4", cube(1, None, 7, (2, 4)), 120),
    ("7pt 4-2", cube(1, None, 7, (4, 2)), 120),
    ("7pt 4-6 post-Crawford", cube(1, None, 7, (4, 6)), 100),
    ("7pt 6-4 Crawford", cube(1, None, 7, (6, 4), crawford=True), 40),
    ("7pt 5-5", cube(1, None, 7, (5, 5)), 80),
    ("7pt 2-2 my cube 2", cube(2, "me", 7, (2, 2)), 80),
    ("11pt 3-3 my cube 4", cube(4, "me", 11, (3, 3)), 60),
    ("5pt 0-0", cube(1, None, 5, (0, 0)), 100),
    ("25pt 0-0", cube(1, None, 25, (0, 0)), 100),
]
MIX = {"nd": 0.40, "dt": 0.25, "dp": 0.20, "tg": 0.15}
SHARE = {"contact": 0.60, "race": 0.28, "bearoff": 0.12}  # at most this share of each kind (gnubg's class)


def gnubg_group(cls: int) -> str:
    return "contact" if cls in (9, 10) else "race" if cls == 8 else "bearoff"


def kind(text: str) -> str:
    t = text.lower()
    if t.startswith("too good"):
        return "tg"
    if t.startswith("no ") or t.startswith("never") or "unknown" in t:
        return "nd"
    if "pass" in t:
        return "dp"
    return "dt"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the full set (for a quick try)")
    parser.add_argument("--out", type=Path, default=ROOT / "benches" / "positions" / "cube-backgammon.json")
    args = parser.parse_args()
    start = time.perf_counter()
    rng = random.Random(args.seed)
    by = pools(150000, args.seed + 1000)
    for v in by.values():
        rng.shuffle(v)
    by["bearoff"] += by.pop("bearoff_small")
    rng.shuffle(by["bearoff"])
    weights = {"contact": 0.45, "race": 0.35, "bearoff": 0.20}  # drawn; races and bear-offs fall outside the window more
    print(f"pool: {({k: len(v) for k, v in by.items()})} ({time.perf_counter() - start:.0f}s)", flush=True)

    def draw() -> str | None:
        for _ in range(10):
            cls = rng.choices(list(weights), list(weights.values()))[0]
            if by[cls]:
                return by[cls].pop()
        return None

    chosen = []
    for name, state, n in STATES:
        n = max(1, round(n * args.scale))
        want = {k: round(n * f) for k, f in MIX.items()} if not state["crawford"] else {"nd": n}
        want["nd"] += n - sum(want.values())
        got: dict[str, list[dict]] = {k: [] for k in MIX}
        per_class = {(c, k): 0 for c in SHARE for k in MIX}
        spare: list[dict] = []
        rounds = 0
        def done() -> bool:  # every kind full, or (after 3 rounds) enough spares to fill the missing kinds
            short = n - sum(len(v) for v in got.values())
            return short <= 0 or (rounds >= 3 and len(spare) >= short)

        while not done() and rounds < 12:
            rounds += 1
            batch = [p for p in (draw() for _ in range(max(200, 4 * n))) if p]
            if not batch:
                break
            res = run_gnubg([{"position_id": p, "cube": state} for p in batch], [0], args.jobs, name)
            for r in res:
                e = r["gnubg"]["0"]
                if not 0.55 <= e["probs"]["win"] <= 0.95:
                    continue
                k = "nd" if state["crawford"] else kind(e["decision_text"])
                c = gnubg_group(r["gnubg_class"])
                if len(got[k]) < want.get(k, 0) and per_class[c, k] < round(want.get(k, 0) * SHARE[c] + 0.5):
                    got[k].append(r)
                    per_class[c, k] += 1
                else:
                    spare.append(r)
        short = n - sum(len(v) for v in got.values())
        picked = [r for v in got.values() for r in v] + spare[:max(0, short)]
        counts = {k: len(v) for k, v in got.items()}
        print(f"{name}: {len(picked)} kept after {rounds} rounds, 0-ply kinds {counts}, {min(short, len(spare))} filled"
              f" ({time.perf_counter() - start:.0f}s)", flush=True)
        for r in picked:
            chosen.append({"position_id": r["position_id"], "cube": state, "group": name})

    t2 = time.perf_counter()
    labelled = run_gnubg(chosen, [0, 1, 2], args.jobs, "labels")
    label_s = time.perf_counter() - t2
    entries = []
    for r in labelled:
        entries.append({
            "position_id": r["position_id"], "cube": r["cube"], "group": r["group"],
            "gnubg_class": r["gnubg_class"], "gnubg_class_name": r["gnubg_class_name"], "pips": r["pips"],
            "cube_efficiency": r["cube_efficiency"], "gammon_price": r["gnubg_cubeinfo"]["gammonprice"],
            "gnubg": r["gnubg"],
        })
    made_by = f"python3 scripts/gnubg_cube_set.py --seed {args.seed}" + (f" --scale {args.scale}" if args.scale != 1 else "")
    doc = {
        "variant": "backgammon",
        "made_by": made_by,
        "reference": "gnubg 2-ply",
        "oracle": "GNU Backgammon 1.07.001 (Debian), cubeful, pruning nets, no noise, default move filters",
        "conventions": (
            "position_id: gnubg Position ID, player on roll first; everything is for the player on roll before the "
            "roll. cube.owner null|me|opponent, score [me, opp], crawford true = the Crawford game. gnubg[ply]: probs "
            "(cubeless, gammons include backgammons), no_double/double_take/double_pass/optimal normalized to the "
            "current cube (match: mwc2eq at this score and cube), mwc (match only), decision_text. Labels: ply '2'."
        ),
        "label_seconds": round(label_s, 1),
        "positions": entries,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    lines = ["{\n"] + [f"{json.dumps(k)}: {json.dumps(v)},\n" for k, v in doc.items() if k != "positions"]
    lines += ['"positions": [\n', ",\n".join(json.dumps(e, separators=(",", ":")) for e in entries), "\n]\n}\n"]
    write_atomic(args.out, "".join(lines))
    print(f"wrote {len(entries)} cases to {args.out}; 0/1/2-ply labelling {label_s:.0f}s, total "
          f"{time.perf_counter() - start:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
