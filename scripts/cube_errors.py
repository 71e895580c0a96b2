"""Cube errors of gnubg 0/1-ply and tavla against gnubg 2-ply on benches/positions/cube-backgammon.json.

    python3 scripts/cube_errors.py                    # gnubg rows from the stored labels, tavla at ply 0, 1, 2
    python3 scripts/cube_errors.py --tavla-plies 0,1 --groups
    python3 scripts/cube_errors.py --tavla-plies ""   # gnubg rows only (no tavla needed)
    python3 scripts/cube_errors.py --attribution      # where tavla's error comes from, by position class

--attribution is a diagnostic, not a score: it feeds tavla's 0-ply cube formulas
(`_core._cube_decision_from`) with tavla's own 0-ply probabilities, then with gnubg's 0-ply
probabilities in one of gnubg's position classes at a time (tavla's elsewhere), and prints the
cube error of each mix beside each class's mean cubeless equity error against the 2-ply
reference. The error a class's row removes is the share of tavla's error that better
probabilities in that class would win back; gnubg's numbers are used to measure, never to train.

Errors are in mEq (thousandths of a point, normalized to the current cube; in match play the
normalized equity gnubg reports, i.e. MWC differences converted by mwc2eq at the score), on
the reference equities of each case, gnubg 2-ply's ND (no double), DT (double/take) and DP
(double/pass), all for the player on roll (the doubler):

- the doubler: if doubled, the taker answers as the reference says, so doubling is worth
  min(DT, DP); the best the doubler can do is best = max(ND, min(DT, DP)).
  doubler error = best - (min(DT, DP) if the engine doubles else ND).
  "Too good to double" is a no-double. Where the player on roll may not double (the
  Crawford game, the opponent owns the cube) the doubler's error is 0; an engine that
  doubles there is counted in "illegal".
- the taker: scored on every case where the player on roll may double (the cube centred or
  his), whatever either side says about doubling -- i.e. "if doubled here, take or pass?".
  The taker wants the smaller doubler value, so
  taker error = (DT if the engine takes else DP) - min(DT, DP).
  A beaver counts as a take (gnubg's DT does not include the beaver's extra cube).
- columns: doubler = mean doubler error over all cases; taker = mean taker error over the
  cases where the taker is scored; total = (sum of doubler errors + sum of taker errors) /
  number of cases, i.e. per case (one cube decision of each side); #wd / #wt count the
  cases with a non-zero doubler / taker error.

An engine doubles when its own min(DT, DP) > ND and takes when its own DT <= DP (gnubg rows,
from its stored 0-/1-ply numbers; this is gnubg's own decision text except for exact ties such
as ND = DP = 1.0, which cost nothing either way), or as `d.should_double` / `d.should_take` say (tavla rows,
`tavla.Engine("backgammon", ply=k).cube_decision(position, tavla.CubeState(...))`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SET = ROOT / "benches" / "positions" / "cube-backgammon.json"


def may_double(cube: dict) -> bool:
    return not cube["crawford"] and cube["owner"] != "opponent"


def score(case: dict, doubles: bool, takes: bool) -> tuple[float, float | None, bool]:
    """(doubler error, taker error or None, illegal double) in points, against the 2-ply labels."""
    ref = case["gnubg"]["2"]
    nd, dt, dp = ref["no_double"], ref["double_take"], ref["double_pass"]
    if not may_double(case["cube"]):
        return 0.0, None, doubles
    dbl = min(dt, dp)
    best = max(nd, dbl)
    doubler = best - (dbl if doubles else nd)
    taker = (dt if takes else dp) - dbl
    return doubler, taker, False


def gnubg_decision(case: dict, ply: str) -> tuple[bool, bool]:
    e = case["gnubg"][ply]
    return min(e["double_take"], e["double_pass"]) > e["no_double"], e["double_take"] <= e["double_pass"]


def report(name: str, cases: list[dict], decisions: list[tuple[bool, bool]], groups: bool) -> None:
    buckets: dict[str, list[tuple[float, float | None, bool]]] = {"money": [], "match": [], "all": []}
    for case, (d, t) in zip(cases, decisions):
        s = score(case, d, t)
        kinds = ["match" if case["cube"]["match_length"] else "money", "all"]
        if groups:
            kinds.append(case.get("group", "?"))
        for k in kinds:
            buckets.setdefault(k, []).append(s)
    for k, rows in buckets.items():
        if not rows:
            continue
        n = len(rows)
        dsum = sum(r[0] for r in rows)
        takers = [r[1] for r in rows if r[1] is not None]
        tsum = sum(takers)
        wrong_d = sum(1 for r in rows if r[0] > 1e-9)
        wrong_t = sum(1 for t in takers if t > 1e-9)
        illegal = sum(1 for r in rows if r[2])
        print(f"{name:<14} {k:<30} {n:>5} {1000 * dsum / n:>9.2f} {1000 * tsum / max(1, len(takers)):>9.2f}"
              f" {1000 * (dsum + tsum) / n:>9.2f}   {wrong_d:>4} {wrong_t:>4} {illegal:>4}")


def tavla_decisions(cases: list[dict], ply: int, evaluator: str = "network") -> list[tuple[bool, bool]] | str:
    try:
        import tavla
        from tavla import formats
    except Exception as exc:  # noqa: BLE001
        return f"tavla does not import ({exc})"
    engine = tavla.Engine("backgammon", ply=ply, evaluator=evaluator)
    out = []
    for case in cases:
        pid = case["position_id"]
        pos = formats.parse(pid)["position"]
        if formats.position_id(pos) != pid:
            raise SystemExit(f"orientation check failed: {pid} reads back as {formats.position_id(pos)}")
        c = case["cube"]
        cube = tavla.CubeState(value=c["value"], owner=c["owner"], match_length=c["match_length"],
                               score=tuple(c["score"]), crawford=c["crawford"], jacoby=c["jacoby"], beaver=c["beaver"])
        d = engine.cube_decision(pos, cube)
        out.append((bool(d.should_double), bool(d.should_take)))
    return out


def probabilities(entry: dict) -> tuple[float, float, float, float, float]:
    p = entry["probs"]
    return (p["win"], p["win_gammon"], p["win_backgammon"], p["lose_gammon"], p["lose_backgammon"])


def cubeless_equity(p: tuple[float, ...]) -> float:
    return 2 * p[0] - 1 + p[1] - p[3] + p[2] - p[4]


def attribution(cases: list[dict], evaluator: str = "network") -> None:
    """Cube error of tavla's 0-ply formulas on mixed probabilities, and cubeless error by class."""
    import tavla
    from tavla import _core, formats

    engines = {ply: tavla.Engine("backgammon", ply=ply, evaluator=evaluator) for ply in (0, 1)}
    classes = sorted({c["gnubg_class_name"] for c in cases}, key=lambda k: -sum(c["gnubg_class_name"] == k for c in cases))
    mixes = ["tavla 0-ply"] + [f"gnubg 0-ply in {k}" for k in classes] + ["gnubg 0-ply everywhere"]
    cube_error = {m: 0.0 for m in mixes}
    equity_error: dict[tuple[str, str], list[float]] = {}
    for case in cases:
        pos = formats.parse(case["position_id"])["position"]
        cube = tavla.CubeState(**case["cube"])
        cls = case["gnubg_class_name"]
        ref = cubeless_equity(probabilities(case["gnubg"]["2"]))
        gnubg0 = probabilities(case["gnubg"]["0"])
        mine = {ply: e.evaluate(pos).probabilities() for ply, e in engines.items()}
        for name, p in (("tavla 0-ply", mine[0]), ("tavla 1-ply", mine[1]), ("gnubg 0-ply", gnubg0)):
            equity_error.setdefault((name, cls), []).append(abs(cubeless_equity(p) - ref))
        for m in mixes:
            use_gnubg = m == "gnubg 0-ply everywhere" or m == f"gnubg 0-ply in {cls}"
            d = _core._cube_decision_from(pos, gnubg0 if use_gnubg else mine[0], cube)
            doubler, taker, _ = score(case, d.should_double, d.should_take)
            cube_error[m] += doubler + (taker or 0.0)
    n = len(cases)
    print(f"cubeless equity error against gnubg 2-ply, mean |difference| (points), by gnubg's class:")
    print(f"{'class':<10} {'n':>5} {'tavla 0-ply':>12} {'tavla 1-ply':>12} {'gnubg 0-ply':>12}")
    for k in classes:
        row = [equity_error[(name, k)] for name in ("tavla 0-ply", "tavla 1-ply", "gnubg 0-ply")]
        print(f"{k:<10} {len(row[0]):>5} " + " ".join(f"{sum(r) / len(r):>12.4f}" for r in row))
    print(f"cube error of tavla's 0-ply formulas (mEq per decision, all {n} cases) on the probabilities of:")
    for m in mixes:
        print(f"  {m:<26} {1000 * cube_error[m] / n:>8.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", type=Path, default=SET)
    parser.add_argument("--tavla-plies", default="0,1,2")
    parser.add_argument("--limit", type=int, default=0, help="only the first N cases")
    parser.add_argument("--groups", action="store_true", help="also one row per cube-state group")
    parser.add_argument("--evaluator", default="network",
                        help='the tavla evaluator ("network=CONTACT.tnn,RACE.tnn[,CRASHED.tnn]" for other weights)')
    parser.add_argument("--attribution", action="store_true",
                        help="only the diagnostic: tavla's error by position class (see the docstring)")
    args = parser.parse_args()
    with open(args.set) as f:
        doc = json.load(f)
    cases = doc["positions"][: args.limit or None]
    if args.attribution:
        attribution(cases, args.evaluator)
        return 0
    print(f"{len(cases)} cube decisions from {args.set.name}, reference {doc.get('reference', 'gnubg 2-ply')};"
          " errors in mEq (normalized to the cube)")
    print(f"{'engine':<14} {'cases':<30} {'n':>5} {'doubler':>9} {'taker':>9} {'total':>9}"
          f"   {'#wd':>4} {'#wt':>4} {'#ill':>4}")
    for ply in ("0", "1"):
        report(f"gnubg {ply}-ply", cases, [gnubg_decision(c, ply) for c in cases], args.groups)
    for ply in [int(p) for p in args.tavla_plies.split(",") if p.strip() != ""]:
        start = time.perf_counter()
        res = tavla_decisions(cases, ply, args.evaluator)
        if isinstance(res, str):
            print(f"tavla: skipped, {res}")
            break
        report(f"tavla {ply}-ply", cases, res, args.groups)
        print(f"{'':<14} ({time.perf_counter() - start:.1f}s)")
    print("#wd / #wt: cases with a doubler / taker error; #ill: doubles where the cube was not available")
    return 0


if __name__ == "__main__":
    sys.exit(main())
