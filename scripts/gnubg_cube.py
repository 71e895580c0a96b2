"""GNU Backgammon's cube decisions for a list of cases (runs INSIDE gnubg, as an oracle).

    GNUBG_CUBE_IN=cases.json GNUBG_CUBE_OUT=out.json GNUBG_CUBE_PLIES=0,1,2 \
        /usr/games/gnubg -t -q -r -p scripts/gnubg_cube.py

gnubg 1.07's `-p FILE` does not pass command-line arguments to the script (sys.argv is
`['']` and anything after `--` is taken as a match file to load), so the arguments travel
in environment variables:

- GNUBG_CUBE_IN: JSON file, a list of cases (or an object with a "cases" list);
- GNUBG_CUBE_OUT: where the JSON list of answers is written (one per case, same order);
- GNUBG_CUBE_PLIES: comma-separated plies to evaluate, default "0,1,2";
- GNUBG_CUBE_PRUNE: "1" (default, as gnubg's own evaluation settings) or "0".

A case is

    {"position_id": "4HPwATDgc/ABMA",
     "cube": {"value": 1, "owner": null | "me" | "opponent", "match_length": 0 | N,
              "score": [me, opp], "crawford": false, "jacoby": false, "beaver": false}}

(extra keys of the case are copied to the answer unchanged).

How gnubg is driven: no match or session is set up. For each case the board is
`gnubg.positionfromid(position_id)`, the cube is a cube-info dictionary made by
`gnubg.cubeinfo(value, owner, 0, match_length, (me, opp), crawford, 0)` with the keys
`jacoby` and `beavers` then set from the case and the gammon prices recomputed with
`gnubg.calcgammonprice`, and the evaluation context is
`{'cubeful': 1, 'plies': N, 'deterministic': 1, 'prune': 1, 'noise': 0.0}` -- the
settings gnubg's own "evaluation / cube decisions" uses by default (N-ply, pruning nets,
cubeful, noiseless), with gnubg's default evaluation move filters. Then
`gnubg.evaluate(board, ci, ec)` gives the cubeless probabilities and
`gnubg.cfevaluate(board, ci, ec)` the cube decision. These are the numbers gnubg's `hint`
prints for the same position, cube and score (checked by hand, see the report in
the verification notes at the end of this docstring).

Conventions (exact):

- Orientation: a gnubg Position ID lists the player on roll's checkers first;
  `positionfromid` returns (opponent's 25 counts, on-roll player's 25 counts), points
  1..24 from each player's own side, index 24 the bar. Every number below is for the
  player on roll ("me"), before the roll. In gnubg's cube-info the player on roll is
  player 0 (`move` = 0): `score` = (me, opp), `cubeowner` 0 = me, 1 = opponent,
  -1 = centred.
- probs: gnubg's cubeless win, win_gammon, win_backgammon, lose_gammon, lose_backgammon
  (gammons include backgammons), full float precision, from `evaluate` at that ply with
  that cube (above 0-ply gnubg picks the replies cubefully, so they may depend on the
  cube). `cubeless_equity` is gnubg's 6th output: money cubeless equity, or in match play
  the cubeless match equity converted to normalized equity (mwc2eq at this score/cube).
- no_double / double_take / double_pass / optimal: gnubg's cubeful equities of the player
  on roll normalized to the CURRENT cube (money: points per cube value; match play:
  "normalized equity", mwc2eq of the MWC at this score and cube, as gnubg shows with
  `set output mwc off`). double_pass is +1.0 in money.
- mwc (match play only): the same four as match winning chances (`gnubg.eq2mwc`),
  as gnubg shows them with `set output mwc on`.
- decision / decision_text: gnubg's cube-decision code (its `cubedecision` enum) and text,
  e.g. "No double, take", "Double, pass", "Too good to double, pass", "Redouble, take",
  "No double, beaver", "Never redouble, take" (dead cube), "No redouble, take".
  When the player on roll cannot double (the opponent owns the cube, the Crawford game,
  a dead cube) gnubg still returns numbers; no_double is then the equity of the position.
- gnubg_class: `gnubg.classifypos(board, 0)`, gnubg's positionclass enum
  (0 over, 4 two-sided bear-off db in memory, 5 two-sided on disk, 6 one-sided bear-off
  db in memory, 7 one-sided on disk, 8 race, 9 crashed, 10 contact). Debian's gnubg-data
  ships gnubg_os0.bd (one-sided, 15 checkers on 6 points) and no gnubg_ts0.bd; gnubg then
  keeps a small two-sided database in memory, so bear-offs with at most 6 checkers a side
  are class 4 and bigger ones (both sides home) class 6. Class 4 is answered from that
  database: in money play its 0-ply ND/DT are exact cubeful values and do NOT follow the
  Janowski interpolation (checked: off by up to 0.1); every other class does.
- decision_text "Unknown cube decision" is what gnubg says where the player on roll has no
  cube to turn (the opponent owns it, the Crawford game).
- cube_efficiency: gnubg's cube-efficiency parameter x for the position's class, as
  `show cubeefficiency` reports the settings (contact/crashed 0.68, one-sided bear-off 0.6,
  race x = pips * 0.00125 + 0.55 clamped to [0.6, 0.7] with the pips of the player on
  roll). gnubg does not expose the value it uses, so this is reconstructed from the
  displayed settings; `cube_efficiency_source` says so. Checked: with this x, the
  standard Janowski money formulas (live cube: owner / centred / opponent lines through the
  take and cash points, W and L from the gammon rates) fed gnubg's 0-ply probabilities give
  gnubg's 0-ply money ND and DT to 1e-6 on every non-Jacoby case of the parity fixture of
  classes 6, 8, 9, 10 (race included, so the race x uses the pips of the player on roll).

Verification by hand (gnubg 1.07, `set output digits 5`): for four cases -- money with my
cube at 2; money centred with Jacoby and 3 beavers; 7-point match at 4-2; 7-point match at
4-6 post-Crawford -- a session/match was set up with `new session` / `new match 7`,
`set score A B`, `set postcrawford on`, `set turn 0`, `set board <id>`, `set cube value`,
`set cube centre` / `set cube owner 0`, `set jacoby`, `set beavers`, and
`set evaluation cubedecision evaluation plies N` followed by `set board <id>` again (else
`hint` reuses its earlier analysis) and `hint` (with `set output mwc on` for MWC). For
N = 0, 1, 2 the printed probabilities, cubeless equity, ND, DT, DP, MWC and proper cube
action were those this script writes, to all 5 printed digits.
"""

from __future__ import annotations

import json
import os
import sys
import traceback

import gnubg

CLASS_NAMES = {
    0: "over", 1: "hypergammon1", 2: "hypergammon2", 3: "hypergammon3",
    4: "bearoff2", 5: "bearoff_ts", 6: "bearoff1", 7: "bearoff_os",
    8: "race", 9: "crashed", 10: "contact",
}
PROB_NAMES = ["win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"]
OWNERS = {None: -1, "centered": -1, "centred": -1, "me": 0, "opponent": 1}


def cube_efficiency(cls: int, my_pips: int) -> float | None:
    if cls in (9, 10):
        return 0.68
    if cls in (4, 5, 6, 7):
        return 0.6
    if cls == 8:
        return min(0.7, max(0.6, my_pips * 0.00125 + 0.55))
    return None


def make_cubeinfo(cube: dict) -> dict:
    owner = OWNERS[cube.get("owner")]
    me, opp = cube.get("score", [0, 0])
    ci = gnubg.cubeinfo(int(cube.get("value", 1)), owner, 0, int(cube.get("match_length", 0)),
                        (int(me), int(opp)), 1 if cube.get("crawford") else 0, 0)
    ci["jacoby"] = 1 if cube.get("jacoby") else 0
    ci["beavers"] = 1 if cube.get("beaver") else 0
    return gnubg.calcgammonprice(ci)


def evaluate_case(case: dict, plies: list[int], prune: int) -> dict:
    out = dict(case)
    board = gnubg.positionfromid(case["position_id"])
    cube = case["cube"]
    ci = make_cubeinfo(cube)
    cls = gnubg.classifypos(board, 0)
    pips = [sum(i * n for i, n in enumerate(board[1], 1)), sum(i * n for i, n in enumerate(board[0], 1))]
    out["gnubg_class"] = cls
    out["gnubg_class_name"] = CLASS_NAMES.get(cls, str(cls))
    out["pips"] = pips
    out["cube_efficiency"] = cube_efficiency(cls, pips[0])
    out["cube_efficiency_source"] = "reconstructed from `show cubeefficiency` settings"
    out["gnubg_cubeinfo"] = {k: (list(map(list, v)) if k == "gammonprice" else (list(v) if isinstance(v, tuple) else v))
                             for k, v in ci.items()}
    match = int(cube.get("match_length", 0)) > 0
    evals = {}
    for ply in plies:
        ec = {"cubeful": 1, "plies": ply, "deterministic": 1, "prune": prune, "noise": 0.0}
        p = gnubg.evaluate(board, ci, ec)
        opt, nd, dt, dp, code, text = gnubg.cfevaluate(board, ci, ec)
        e = {
            "probs": dict(zip(PROB_NAMES, p[:5])),
            "cubeless_equity": p[5],
            "optimal": opt, "no_double": nd, "double_take": dt, "double_pass": dp,
            "decision": code, "decision_text": text,
        }
        if match:
            e["mwc"] = {k: gnubg.eq2mwc(v, ci) for k, v in
                        (("optimal", opt), ("no_double", nd), ("double_take", dt), ("double_pass", dp))}
            e["cubeless_mwc"] = gnubg.eq2mwc(p[5], ci)
        evals[str(ply)] = e
    out["gnubg"] = evals
    return out


def main() -> None:
    src, dst = os.environ["GNUBG_CUBE_IN"], os.environ["GNUBG_CUBE_OUT"]
    plies = [int(x) for x in os.environ.get("GNUBG_CUBE_PLIES", "0,1,2").split(",") if x != ""]
    prune = int(os.environ.get("GNUBG_CUBE_PRUNE", "1"))
    with open(src) as f:
        cases = json.load(f)
    if isinstance(cases, dict):
        cases = cases["cases"]
    answers = []
    for case in cases:
        try:
            answers.append(evaluate_case(case, plies, prune))
        except Exception as exc:  # an invalid cube state (e.g. a bad score) is reported, not fatal
            bad = dict(case)
            bad["error"] = f"{type(exc).__name__}: {exc}"
            answers.append(bad)
            traceback.print_exc(file=sys.stderr)
    tmp = dst + ".tmp"
    with open(tmp, "w") as f:
        json.dump(answers, f)
    os.replace(tmp, dst)


main()
