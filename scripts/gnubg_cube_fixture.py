"""Build tests/data/gnubg_cube_parity.json: GNU Backgammon's 0-ply cube decisions for formula parity.

    python3 scripts/gnubg_cube_fixture.py            # about 10 s; --seed 1 --out tests/data/gnubg_cube_parity.json

Positions come from seeded self-play with `gnubg_nn` (gnubg's networks, a test dependency):
the 0-ply best move, or one time in six a uniformly random legal move, dice from
`random.Random(seed)`; a position is recorded before each roll, from the side of the player
on roll. The pool is split by class (contact, race, bear-off with both sides home and more
than 6 checkers on either side, small bear-offs) and each cube state of the list below gets
positions drawn from all classes. Every case is then evaluated by gnubg itself
(`scripts/gnubg_cube.py` inside `/usr/games/gnubg`, 0-ply, see that script for the exact
conventions) and stored with gnubg's cubeless probabilities at full float precision, gnubg's
0-ply ND/DT/DP (normalized to the current cube), MWC in match play, the decision text,
gnubg's position class, gammon prices and the (reconstructed) cube efficiency.

gnubg's 0-ply cubeful equity is its Janowski-style interpolation on exactly these
probabilities (no search), so tavla's formulas fed the same `probs`, cube state and cube
efficiency must reproduce no_double / double_take / double_pass. Debian's gnubg has no
two-sided bear-off database, so bear-offs are class 6 (one-sided database, cubeless) and
go through the same formulas.

This module is also imported by scripts/gnubg_cube_set.py (positions, running gnubg).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import gnubg_nn

from tavla.files import write_atomic

ROOT = Path(__file__).resolve().parent.parent
GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")
START = "4HPwATDgc/ABMA"


# ---------------------------------------------------------------- positions

def _over(board) -> bool:
    return sum(board[0]) == 0 or sum(board[1]) == 0


def selfplay_positions(n: int, seed: int, random_frac: float = 1 / 6) -> list[str]:
    """n gnubg Position IDs (player on roll's view, before the roll), from seeded self-play."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < n:
        board = [list(x) for x in gnubg_nn.board_from_position_id(START)]  # [opponent, on roll]
        first = True
        while not _over(board) and len(out) < n:
            if first:
                d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
                while d1 == d2:
                    d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
                first = False
            else:
                out.append(gnubg_nn.position_id(board))
                d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            keys = gnubg_nn.moves(board, d1, d2)
            if keys:
                # The two calls name the board after the play in opposite orders: the keys of
                # moves() hold (opponent, mover), best_move's key (mover, opponent). Reading both
                # alike let the same side move again after every best play.
                if rng.random() < random_frac:
                    opp, mover = gnubg_nn.board_from_position_key(rng.choice(sorted(keys)))
                else:
                    mover, opp = gnubg_nn.board_from_position_key(gnubg_nn.bestmove(board, d1, d2, b=1)[1])
            else:
                opp, mover = board
            board = [list(mover), list(opp)]  # the other side is on roll now
    return out


def coarse_class(posid: str) -> str:
    """contact / race / bearoff (both home, > 6 checkers on a side) / bearoff_small."""
    opp, me = gnubg_nn.board_from_position_id(posid)
    my_back = max((i for i in range(25) if me[i]), default=-1)  # 0 = my 1-point, 24 = bar
    opp_back = max((i for i in range(25) if opp[i]), default=-1)
    if my_back + opp_back >= 24:  # my point i+1 is the opponent's point 24-i
        return "contact"
    if my_back <= 5 and opp_back <= 5:
        return "bearoff" if max(sum(me), sum(opp)) > 6 else "bearoff_small"
    return "race"


def pools(n: int, seed: int) -> dict[str, list[str]]:
    seen: set[str] = set()
    by: dict[str, list[str]] = {"contact": [], "race": [], "bearoff": [], "bearoff_small": []}
    for pid in selfplay_positions(n, seed):
        if pid in seen:
            continue
        seen.add(pid)
        by[coarse_class(pid)].append(pid)
    return by


# ---------------------------------------------------------------- running gnubg

def run_gnubg(cases: list[dict], plies: list[int], jobs: int = 2, label: str = "") -> list[dict]:
    """Evaluate cases with scripts/gnubg_cube.py in `jobs` parallel gnubg processes."""
    if not cases:
        return []
    jobs = max(1, min(jobs, len(cases)))
    chunks = [cases[i::jobs] for i in range(jobs)]
    with tempfile.TemporaryDirectory() as tmp:
        procs = []
        for k, chunk in enumerate(chunks):
            src, dst = os.path.join(tmp, f"in{k}.json"), os.path.join(tmp, f"out{k}.json")
            with open(src, "w") as f:
                json.dump(chunk, f)
            env = dict(os.environ, GNUBG_CUBE_IN=src, GNUBG_CUBE_OUT=dst,
                       GNUBG_CUBE_PLIES=",".join(map(str, plies)))
            procs.append((subprocess.Popen([GNUBG, "-t", "-q", "-r", "-p", str(ROOT / "scripts" / "gnubg_cube.py")],
                                           env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                           stderr=subprocess.PIPE, text=True), dst))
        results = []
        for proc, dst in procs:
            _, err = proc.communicate()
            if proc.returncode != 0 or not os.path.exists(dst):
                raise RuntimeError(f"gnubg failed ({proc.returncode}): {err[-2000:]}")
            with open(dst) as f:
                results.append(json.load(f))
    merged: list[dict] = [None] * len(cases)  # type: ignore[list-item]
    for k, res in enumerate(results):
        for j, r in enumerate(res):
            merged[k + j * jobs] = r
    bad = [r for r in merged if "error" in r]
    if bad:
        print(f"{label}: {len(bad)} cases rejected by gnubg, e.g. {bad[0]['cube']}: {bad[0]['error']}", file=sys.stderr)
    return [r for r in merged if "error" not in r]


def cube(value=1, owner=None, match_length=0, score=(0, 0), crawford=False, jacoby=False, beaver=False) -> dict:
    return {"value": value, "owner": owner, "match_length": match_length, "score": list(score),
            "crawford": crawford, "jacoby": jacoby, "beaver": beaver}


# ---------------------------------------------------------------- the fixture

def fixture_cubes() -> list[tuple[dict, int]]:
    """(cube state, how many positions) for the parity fixture."""
    c: list[tuple[dict, int]] = []
    # money: centred / owned by me / owned by the opponent; jacoby and beaver variants
    c += [(cube(1, None), 24), (cube(1, None, jacoby=True), 16), (cube(1, None, beaver=True), 8),
          (cube(1, None, jacoby=True, beaver=True), 8)]
    for v in (1, 2, 4):
        c += [(cube(v, "me"), 8), (cube(v, "opponent"), 6)]
    c += [(cube(2, "me", jacoby=True), 4), (cube(2, "opponent", beaver=True), 4)]
    # match play
    for n in (3, 5, 7, 11, 25):
        c += [(cube(1, None, n, (0, 0)), 6)]
    c += [(cube(1, None, 5, (1, 2)), 5), (cube(2, "me", 5, (1, 1)), 5), (cube(2, "opponent", 5, (2, 0)), 5),
          (cube(1, None, 7, (2, 4)), 6), (cube(1, None, 7, (4, 2)), 6), (cube(2, "me", 7, (2, 1)), 5),
          (cube(2, "opponent", 7, (3, 1)), 5), (cube(4, "me", 7, (0, 0)), 4), (cube(4, "opponent", 11, (2, 3)), 4),
          (cube(2, "me", 11, (5, 7)), 4), (cube(1, None, 11, (8, 8)), 4), (cube(2, "me", 25, (10, 12)), 4),
          (cube(1, None, 25, (20, 17)), 4), (cube(1, None, 5, (3, 3)), 6), (cube(2, "opponent", 25, (0, 0)), 4),
          (cube(1, None, 7, (2, 2)), 6), (cube(2, "me", 7, (0, 0)), 4)]
    # Crawford game: 1-away / n-away (either side on roll)
    c += [(cube(1, None, 3, (2, 0), crawford=True), 3), (cube(1, None, 5, (2, 4), crawford=True), 3),
          (cube(1, None, 7, (6, 4), crawford=True), 3), (cube(1, None, 7, (3, 6), crawford=True), 3),
          (cube(1, None, 11, (10, 5), crawford=True), 3)]
    # post-Crawford: trailer on roll with the cube centred; leader on roll; leader owning 2
    c += [(cube(1, None, 7, (4, 6)), 6), (cube(1, None, 7, (1, 6)), 4), (cube(1, None, 5, (4, 2)), 3),
          (cube(2, "me", 7, (6, 3)), 3), (cube(2, "opponent", 7, (3, 6)), 3), (cube(1, None, 3, (1, 2)), 4)]
    # 2-away / 2-away (cube 1; cube 2 owned is dead), 3-away / 3-away, dead cubes
    c += [(cube(1, None, 7, (5, 5)), 6), (cube(2, "me", 7, (5, 5)), 3), (cube(2, "opponent", 7, (5, 5)), 3),
          (cube(1, None, 3, (1, 1)), 4), (cube(1, None, 7, (4, 4)), 4), (cube(2, "me", 7, (4, 4)), 4),
          (cube(4, "me", 7, (4, 4)), 3), (cube(4, "opponent", 5, (2, 2)), 3), (cube(2, "me", 5, (3, 1)), 3),
          (cube(4, "me", 5, (1, 3)), 3), (cube(2, "me", 3, (1, 0)), 3)]
    return c


CLASS_MIX = ["contact", "contact", "race", "contact", "bearoff", "race", "contact", "bearoff_small", "race", "bearoff"]


def build_fixture(seed: int, out: Path, jobs: int) -> None:
    start = time.perf_counter()
    rng = random.Random(seed)
    by = pools(6000, seed)
    for v in by.values():
        rng.shuffle(v)
    cursor = {k: 0 for k in by}
    cases = []
    k = 0
    for state, count in fixture_cubes():
        for _ in range(count):
            cls = CLASS_MIX[k % len(CLASS_MIX)]
            k += 1
            pid = by[cls][cursor[cls] % len(by[cls])]
            cursor[cls] += 1
            cases.append({"position_id": pid, "cube": state})
    answers = run_gnubg(cases, [0], jobs, "fixture")
    entries = []
    for a in answers:
        e0 = a["gnubg"]["0"]
        entry = {
            "position_id": a["position_id"], "cube": a["cube"],
            "gnubg_class": a["gnubg_class"], "gnubg_class_name": a["gnubg_class_name"], "pips": a["pips"],
            "cube_efficiency": a["cube_efficiency"],
            "gammon_price": a["gnubg_cubeinfo"]["gammonprice"],
            "probs": e0["probs"], "cubeless_equity": e0["cubeless_equity"],
            "no_double": e0["no_double"], "double_take": e0["double_take"], "double_pass": e0["double_pass"],
            "optimal": e0["optimal"], "decision": e0["decision"], "decision_text": e0["decision_text"],
        }
        if "mwc" in e0:
            entry["mwc"] = e0["mwc"]
            entry["cubeless_mwc"] = e0["cubeless_mwc"]
        entries.append(entry)
    doc = {
        "made_by": f"python3 scripts/gnubg_cube_fixture.py --seed {seed}",
        "oracle": "GNU Backgammon 1.07.001 (Debian), 0-ply, cubeful, pruning nets, no noise; see scripts/gnubg_cube.py",
        "conventions": (
            "position_id: gnubg Position ID, player on roll first. Everything is for the player on roll, before the "
            "roll. cube.owner null|me|opponent; score [me, opp]; crawford true = this game is the Crawford game. "
            "probs: gnubg 0-ply cubeless win, win_gammon, win_backgammon, lose_gammon, lose_backgammon (gammons "
            "include backgammons). no_double/double_take/double_pass/optimal: gnubg cubeful equities normalized to "
            "the current cube (match play: mwc2eq at this score and cube); mwc: the same as match winning chances. "
            "gammon_price: gnubg's cube-info gammon prices [[gammon me, gammon opp], [backgammon me, backgammon opp]] "
            "(0 for money with Jacoby and a centred cube). cube_efficiency: reconstructed from gnubg's `show "
            "cubeefficiency` (contact/crashed 0.68, bear-off 0.6, race 0.55 + 0.00125 * my pips in [0.6, 0.7]). "
            "gnubg_class: gnubg positionclass (6 bearoff1 = one-sided database, 8 race, 9 crashed, 10 contact)."
        ),
        "cases": entries,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(out, json.dumps(doc, indent=1) + "\n")
    counts: dict[str, int] = {}
    for e in entries:
        key = f"{'match' if e['cube']['match_length'] else 'money'}/{e['gnubg_class_name']}"
        counts[key] = counts.get(key, 0) + 1
    print(f"wrote {len(entries)} cases to {out} in {time.perf_counter() - start:.1f}s: {dict(sorted(counts.items()))}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "data" / "gnubg_cube_parity.json")
    args = parser.parse_args()
    build_fixture(args.seed, args.out, args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
