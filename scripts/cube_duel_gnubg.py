"""tavla against GNU Backgammon WITH the cube: money games and matches, duplicate dice.

Runs INSIDE gnubg's embedded Python (gnubg 1.07 does not pass argv to `-p` scripts, so
the arguments travel in environment variables):

    CUBE_DUEL_MODE=money CUBE_DUEL_PAIRS=200 CUBE_DUEL_PLY=0 CUBE_DUEL_OUT=money0.jsonl \
        nice /usr/games/gnubg -t -q -r -p scripts/cube_duel_gnubg.py

    CUBE_DUEL_MODE=match CUBE_DUEL_LENGTH=7 CUBE_DUEL_PAIRS=20 CUBE_DUEL_PLY=0 CUBE_DUEL_OUT=match0.jsonl \
        nice /usr/games/gnubg -t -q -r -p scripts/cube_duel_gnubg.py

and the summary of one or more result files with the ordinary Python (no gnubg needed):

    python3 scripts/cube_duel_gnubg.py --summary money0.jsonl [more.jsonl ...]

Environment variables: CUBE_DUEL_MODE (money | match | check), CUBE_DUEL_PAIRS,
CUBE_DUEL_FIRST_PAIR (default 0; pair k always gets the same dice, so runs can be split and
joined), CUBE_DUEL_SEED (default 1), CUBE_DUEL_PLY (tavla's ply, default 0),
CUBE_DUEL_GNUBG_PLY (gnubg's, default the same), CUBE_DUEL_LENGTH (match length, default 7),
CUBE_DUEL_OUT (JSON lines, one per game or match, appended; the summary goes to stdout and
to OUT + ".summary.json"), CUBE_DUEL_TAVLA_PATH (where the `tavla` package is imported from,
default /work/main/python), CUBE_DUEL_SITE (a site-packages directory with numpy for
gnubg's Python, default the pyenv 3.11 one), CUBE_DUEL_THREADS (tavla's and gnubg's
threads, default 1), CUBE_DUEL_REFEREE (matches: "games", default, or "match", see
run_match), CUBE_DUEL_CUBE ("0": money games without the cube, a cubeless control on
the same dice: tavla's cubeless best_move, gnubg's findbestmove with cubeful 0).

Rules: backgammon; money games with the cube centred at the start, no Jacoby rule, no
beavers, cube at most 64, no resignations (games are played out); matches to
CUBE_DUEL_LENGTH points with the Crawford rule. tavla.Game is the referee of every game
(dice, legal plays, the cube, `may_double` -- refused in the Crawford game -- and the
result); in matches each game is a Game with the match length, score and Crawford flag,
begun by an opening roll-off, or with CUBE_DUEL_REFEREE=match the whole match is a
tavla.Match (whose backgammon rule lets the winner of a game start the next with its own
roll, so it may double before it).

Duplicate dice: pair k is played twice with the same dice and the seats swapped (tavla is
player 0 in the first game, gnubg in the second). Each roll of a game (roll-off attempts
included) comes from a generator seeded by (seed, k) -- in a match by (seed, k, game
number) -- so player 0 gets the same dice in both games of a pair for as long as the
games run alike.

Each turn: before the roll, the player on roll may double where the game allows it
(`may_double`); the other takes or passes (a pass scores the cube value before the
double); then the roll and the checker play (a forced or empty play is played without
asking either side).

tavla: `Engine("backgammon", ply=N, threads=1)`; doubles if
`cube_decision(position, cube).should_double`, takes if
`cube_decision(position_of_the_doubler, cube_of_the_doubler).should_take`, plays
`best_move(position, d1, d2, cube=cube)`; the cube state is the game's real one, from the
side of the player on roll.

gnubg: its own cubeful evaluation at the same ply, evaluation context
`{'cubeful': 1, 'plies': N, 'deterministic': 1, 'prune': 1, 'noise': 0.0}` (its default
evaluation settings at N plies), cube-info from `gnubg.cubeinfo(value, owner, 0, length,
(me, opp), crawford, 0)` with `jacoby` and `beavers` off and the gammon prices
recomputed (`calcgammonprice`), player on roll = gnubg's player 0. Doubles if
cfevaluate's double/take and double/pass equities both exceed its no-double equity (its
proper cube action doubles: "double" and "redouble", not "too good", not "optional"
doubles); takes if the doubler's double/take equity is at most its double/pass
equity. Checker play: `gnubg.findbestmove(board, ci, ec, dice)` with gnubg's default
move filters. The board is built from `Position.to_arrays()` as (opponent, on roll), and
on every call checked against `gnubg.positionfromid(formats.position_id(position))`;
gnubg's move (1-based from/to pairs from the mover's side, 25 the bar, 0 off) is applied
to that board (hits included) and mapped to the tavla legal move whose resulting position
is the same; a move that matches none stops the run.

GPL: gnubg is an opponent here, called through its own Python; nothing of it goes into
tavla.
"""

from __future__ import annotations

import json
import math
import os
import random
import sys
import time

TAVLA_PATH = os.environ.get("CUBE_DUEL_TAVLA_PATH", "/work/main/python")
CUBE = os.environ.get("CUBE_DUEL_CUBE", "1") != "0"
SITE = os.environ.get("CUBE_DUEL_SITE", "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages")


# ---------------------------------------------------------------- summary (no gnubg)

def _mean_ci(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    if n == 0:
        return float("nan"), float("nan")
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, 1.96 * math.sqrt(var / n)


def summarize(records: list[dict]) -> dict:
    """Means and 95% intervals with duplicate pairs as the unit."""
    out: dict = {}
    games = [r for r in records if r.get("kind") == "game"]
    matches = [r for r in records if r.get("kind") == "match"]
    if games:
        pairs: dict = {}
        for r in games:
            pairs.setdefault(r["pair"], []).append(r)
        full = [v for v in pairs.values() if len(v) == 2]
        per_pair = [sum(g["tavla_points"] for g in v) / 2 for v in full]
        m, ci = _mean_ci(per_pair)
        allg = [g for v in full for g in v]
        out["money"] = {
            "pairs": len(full), "games": len(allg),
            "tavla_points_per_game": m, "ci95": ci,
            "tavla_wins": sum(g["tavla_points"] > 0 for g in allg) / len(allg),
            "mean_final_cube": sum(g["cube"] for g in allg) / len(allg),
            "games_with_cube_turned": sum(g["cube"] > 1 or g["ending"] == "cube_passed" for g in allg) / len(allg),
            "gammons_or_more": sum(g["multiplier"] >= 2 for g in allg) / len(allg),
            "passed": sum(g["ending"] == "cube_passed" for g in allg) / len(allg),
            "actions": _actions(allg),
            "seconds_per_decision": _speed(allg),
            "plies": sorted({(g["tavla_ply"], g["gnubg_ply"]) for g in allg}),
            "cube_on": sorted({g.get("cube_on", True) for g in allg}),
        }
    if matches:
        pairs = {}
        for r in matches:
            pairs.setdefault(r["pair"], []).append(r)
        full = [v for v in pairs.values() if len(v) == 2]
        per_pair = [sum(mt["tavla_won"] for mt in v) / 2 for v in full]
        m, ci = _mean_ci(per_pair)
        allm = [mt for v in full for mt in v]
        gms = [g for mt in allm for g in mt["games"]]
        out["match"] = {
            "length": allm[0]["length"] if allm else None,
            "pairs": len(full), "matches": len(allm), "games": len(gms),
            "tavla_match_wins": m, "ci95": ci,
            "tavla_points_per_game": (sum(g["tavla_points"] for g in gms) / len(gms)) if gms else float("nan"),
            "mean_final_cube": (sum(g["cube"] for g in gms) / len(gms)) if gms else float("nan"),
            "passed": (sum(g["ending"] == "cube_passed" for g in gms) / len(gms)) if gms else float("nan"),
            "actions": _actions(gms),
            "seconds_per_decision": _speed(gms),
            "plies": sorted({(mt["tavla_ply"], mt["gnubg_ply"]) for mt in allm}),
        }
    return out


def _actions(games: list[dict]) -> dict:
    tot = {side: {"doubles": 0, "takes": 0, "passes": 0, "cube_decisions": 0} for side in ("tavla", "gnubg")}
    for g in games:
        for side in ("tavla", "gnubg"):
            for k in tot[side]:
                tot[side][k] += g["actions"][side][k]
    for side in tot:
        t = tot[side]
        t["doubles_per_game"] = t["doubles"] / max(1, len(games))
        t["take_rate"] = t["takes"] / max(1, t["takes"] + t["passes"])
    return tot


def _speed(games: list[dict]) -> dict:
    out = {}
    for side in ("tavla", "gnubg"):
        s = sum(g["seconds"][side] for g in games)
        n = sum(g["calls"][side] for g in games)
        out[side] = s / max(1, n)
    return out


def print_summary(s: dict) -> None:
    if "money" in s:
        m = s["money"]
        print(f"money{'' if m['cube_on'] == [True] else ' (cube ' + str(m['cube_on']) + ')'}, plies {m['plies']}: {m['pairs']} pairs / {m['games']} games: tavla "
              f"{m['tavla_points_per_game']:+.3f} ± {m['ci95']:.3f} points/game; wins {m['tavla_wins']:.1%}; "
              f"mean final cube {m['mean_final_cube']:.2f}; cube turned in {m['games_with_cube_turned']:.1%}; "
              f"passed {m['passed']:.1%}; gammons+ {m['gammons_or_more']:.1%}")
        _print_actions(m)
    if "match" in s:
        m = s["match"]
        print(f"{m['length']}-point matches, plies {m['plies']}: {m['pairs']} pairs / {m['matches']} matches / "
              f"{m['games']} games: tavla wins {m['tavla_match_wins']:.1%} ± {m['ci95']:.1%}; "
              f"tavla points/game {m['tavla_points_per_game']:+.3f}; mean final cube {m['mean_final_cube']:.2f}; "
              f"passed {m['passed']:.1%}")
        _print_actions(m)


def _print_actions(m: dict) -> None:
    for side, a in m["actions"].items():
        print(f"  {side}: doubles {a['doubles']} ({a['doubles_per_game']:.2f}/game), takes {a['takes']}, "
              f"passes {a['passes']} (take rate {a['take_rate']:.0%}); "
              f"{m['seconds_per_decision'][side] * 1e3:.1f} ms per call")


# ---------------------------------------------------------------- inside gnubg

def _setup_imports():
    sys.path.insert(0, TAVLA_PATH)
    if SITE and SITE not in sys.path:
        sys.path.append(SITE)
    import gnubg  # noqa: F401  (only inside gnubg)
    import tavla  # noqa: F401
    return gnubg, tavla


class Dice:
    """The rolls of one game: a generator seeded by the pair (and game number)."""

    def __init__(self, *key: int) -> None:
        self.rng = random.Random(":".join(map(str, key)))

    def __call__(self) -> tuple[int, int]:
        return self.rng.randint(1, 6), self.rng.randint(1, 6)


def cube_state(tavla, g, p: int):
    owner = g.cube_owner
    own = None if owner is None else ("me" if owner == p else "opponent")
    score = (0, 0)
    if g.match_length:
        score = (g.score[p], g.score[1 - p])
    return tavla.CubeState(value=g.cube_value, owner=own, match_length=g.match_length,
                           score=score, crawford=bool(g.is_crawford and g.match_length))


class Side:
    name = ""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.calls = 0


class TavlaSide(Side):
    name = "tavla"

    def __init__(self, tavla, ply: int, threads: int) -> None:
        super().__init__()
        self.engine = tavla.Engine("backgammon", ply=ply, threads=threads)
        assert self.engine.evaluator == "network", self.engine.evaluator

    def doubles(self, pos, cs) -> bool:
        return self.engine.cube_decision(pos, cs).should_double

    def takes(self, pos_doubler, cs_doubler) -> bool:
        return self.engine.cube_decision(pos_doubler, cs_doubler).should_take

    def move(self, pos, d1, d2, cs, legal) -> int:
        best = self.engine.best_move(pos, d1, d2, cube=cs) if cs is not None else self.engine.best_move(pos, d1, d2)
        key = best.position
        for i, m in enumerate(legal):
            if m.position == key:
                return i
        raise RuntimeError(f"tavla's best move {best.notation} is not among the game's legal moves")


class GnubgSide(Side):
    name = "gnubg"

    def __init__(self, gnubg, tavla, ply: int) -> None:
        super().__init__()
        self.gnubg, self.tavla = gnubg, tavla
        self.ec = {"cubeful": 1, "plies": ply, "deterministic": 1, "prune": 1, "noise": 0.0}

    def board(self, pos):
        mine, theirs = pos.to_arrays()
        b = (list(theirs), list(mine))
        ref = self.gnubg.positionfromid(self.tavla.formats.position_id(pos))
        if [list(ref[0]), list(ref[1])] != [b[0], b[1]]:
            raise RuntimeError(f"board orientation mismatch: {b} vs {ref}")
        return b

    def cubeinfo(self, cs):
        owner = {None: -1, "me": 0, "opponent": 1}[cs.owner]
        ci = self.gnubg.cubeinfo(cs.value, owner, 0, cs.match_length, tuple(cs.score),
                                 1 if cs.crawford else 0, 0)
        ci["jacoby"] = 0
        ci["beavers"] = 0
        return self.gnubg.calcgammonprice(ci)

    def cube(self, pos, cs):
        return self.gnubg.cfevaluate(self.board(pos), self.cubeinfo(cs), self.ec)

    def doubles(self, pos, cs) -> bool:
        opt, nd, dt, dp, code, text = self.cube(pos, cs)
        return min(dt, dp) > nd

    def takes(self, pos_doubler, cs_doubler) -> bool:
        opt, nd, dt, dp, code, text = self.cube(pos_doubler, cs_doubler)
        return dt <= dp

    def move(self, pos, d1, d2, cs, legal) -> int:
        b = self.board(pos)
        if cs is None:  # cubeless control: money cube-info, cubeless evaluation
            ci, ec = self.cubeinfo(self.tavla.CubeState()), dict(self.ec, cubeful=0)
        else:
            ci, ec = self.cubeinfo(cs), self.ec
        mv = self.gnubg.findbestmove(b, ci, ec, (d1, d2))
        after = apply_gnubg_move(b, mv)
        for i, m in enumerate(legal):
            mine, theirs = m.position.to_arrays()
            if list(mine) == after[1] and list(theirs) == after[0]:
                return i
        raise RuntimeError(f"gnubg's move {mv} on {self.tavla.formats.position_id(pos)} with {d1}{d2} "
                           f"matches no legal move")


def apply_gnubg_move(board, mv) -> list[list[int]]:
    """gnubg's (from, to, ...) pairs (1-based from the mover's side, 25 bar, 0 off) on the
    board (opponent's counts, mover's counts)."""
    theirs, mine = list(board[0]), list(board[1])
    for k in range(0, len(mv), 2):
        f, t = mv[k], mv[k + 1]
        if f == 0 and t == 0:
            break
        if mine[f - 1] <= 0:
            raise RuntimeError(f"gnubg's move {mv}: no checker on {f}")
        mine[f - 1] -= 1
        if t > 0:
            mine[t - 1] += 1
            o = 24 - t  # the same point in the opponent's numbering (index 24 - t is point 25 - t)
            if theirs[o] == 1:
                theirs[o] = 0
                theirs[24] += 1
            elif theirs[o] > 1:
                raise RuntimeError(f"gnubg's move {mv} lands on a made point {t}")
    return [theirs, mine]


def timed(side: Side, fn, *args):
    t = time.perf_counter()
    r = fn(*args)
    side.seconds += time.perf_counter() - t
    side.calls += 1
    return r


def play_game(tavla, act, view, players, dice, rec_actions) -> None:
    """Plays one game to its end. `act` takes the actions (a Game or a Match), `view()`
    returns the current Game to look at."""
    g = view()
    while g.phase == "opening_roll":
        act.roll_off(dice())
        g = view()
    while True:
        g = view()
        ph = g.phase
        if ph == "over":
            return
        p = g.turn
        if ph == "roll":
            if g.may_double:
                cs = cube_state(tavla, g, p)
                me, opp = players[p], players[1 - p]
                rec_actions[me.name]["cube_decisions"] += 1
                if timed(me, me.doubles, g.position, cs):
                    rec_actions[me.name]["doubles"] += 1
                    act.double()
                    if timed(opp, opp.takes, g.position, cs):
                        rec_actions[opp.name]["takes"] += 1
                        act.take()
                    else:
                        rec_actions[opp.name]["passes"] += 1
                        act.drop()
                        return
            act.roll(dice())
        elif ph == "move":
            legal = act.legal_moves()
            if len(legal) <= 1:
                act.play(0)
                continue
            d1, d2 = g.dice
            me = players[p]
            cs = cube_state(tavla, g, p) if CUBE else None
            act.play(timed(me, me.move, g.position, d1, d2, cs, legal))
        else:
            raise RuntimeError(f"unexpected phase {ph}")


def fresh_actions() -> dict:
    return {s: {"doubles": 0, "takes": 0, "passes": 0, "cube_decisions": 0} for s in ("tavla", "gnubg")}


def game_record(g, tavla_seat: int, actions, players, t0, sec0, calls0) -> dict:
    r = g.result
    pts = r["points"] if r["winner"] == tavla_seat else -r["points"]
    return {
        "tavla_seat": tavla_seat, "winner_is_tavla": r["winner"] == tavla_seat, "tavla_points": pts,
        "cube": r["cube"], "multiplier": r["multiplier"], "ending": r["ending"], "rolls": g.rolls,
        "actions": actions,
        "seconds": {s.name: s.seconds - sec0[s.name] for s in players},
        "calls": {s.name: s.calls - calls0[s.name] for s in players},
        "wall": time.time() - t0,
    }


def run_money(tavla, tav, gnu, pair: int, seed: int, seat: int) -> dict:
    players = [tav, gnu] if seat == 0 else [gnu, tav]
    g = tavla.Game("backgammon", cube=CUBE, jacoby=False, beaver=False, max_cube=64)
    actions = fresh_actions()
    t0 = time.time()
    sec0 = {s.name: s.seconds for s in players}
    calls0 = {s.name: s.calls for s in players}
    play_game(tavla, g, lambda: g, players, Dice(seed, pair), actions)
    return game_record(g, seat, actions, players, t0, sec0, calls0)


def run_match(tavla, tav, gnu, pair: int, seed: int, seat: int, length: int, referee: str) -> dict:
    """One match. referee "games" (default): each game is a `tavla.Game` with the match
    length, the score and the Crawford flag, started by an opening roll-off as in
    backgammon's rules; the script keeps the score and marks the Crawford game (the game
    after a player first reaches match point). referee "match": `tavla.Match` runs it all
    (its rule: the winner of a game starts the next one with a roll of its own)."""
    players = [tav, gnu] if seat == 0 else [gnu, tav]
    t0 = time.time()
    games = []
    number = 0
    if referee == "match":
        m = tavla.Match("backgammon", length, crawford=True)
    score = [0, 0]
    crawford_done = False
    while True:
        actions = fresh_actions()
        sec0 = {s.name: s.seconds for s in players}
        calls0 = {s.name: s.calls for s in players}
        dice = Dice(seed, pair, number)
        if referee == "match":
            before = m.score
            crawford = m.game.is_crawford
            play_game(tavla, m, lambda: m.game, players, dice, actions)
            done = m.game  # the finished game (finished_games grows at next_game())
        else:
            before = tuple(score)
            crawford = (not crawford_done) and (length - 1 in score)
            crawford_done = crawford_done or crawford
            g = tavla.Game("backgammon", cube=True, match_length=length, score=before, crawford=crawford)
            play_game(tavla, g, lambda: g, players, dice, actions)
            done = g
            r = g.result
            score[r["winner"]] = min(length, score[r["winner"]] + r["points"])
        rec = game_record(done, seat, actions, players, time.time(), sec0, calls0)
        rec["score_before"] = [before[seat], before[1 - seat]]  # (tavla, gnubg)
        rec["crawford"] = crawford
        games.append(rec)
        number += 1
        if referee == "match":
            if m.is_over:
                winner, final = m.winner, m.score
                break
            m.next_game()
        elif max(score) >= length:
            winner, final = (0 if score[0] >= length else 1), score
            break
    return {
        "tavla_seat": seat, "length": length, "tavla_won": 1 if winner == seat else 0, "referee": referee,
        "final_score": [final[seat], final[1 - seat]], "games": games, "wall": time.time() - t0,
    }


def check(gnubg, tavla, tav, gnu) -> None:
    """Orientation checks: boards, moves and cube answers on a few positions."""
    pos = tavla.Position.start("backgammon")
    b = gnu.board(pos)
    print("start board", b)
    for d in [(3, 1), (6, 5), (6, 6), (2, 1)]:
        legal = pos.legal_moves(*d)
        cs = tavla.CubeState()
        i = gnu.move(pos, d[0], d[1], cs, legal)
        j = tav.move(pos, d[0], d[1], cs, legal)
        print(d, "gnubg", legal[i].notation, "| tavla", legal[j].notation)
    # a position with a hit and a checker on the bar: play 6-4 24/14 for player 0, then 5-5? use games
    g = tavla.Game("backgammon", cube=True)
    g.roll_off((6, 4))
    rng = random.Random(5)
    n = 0
    saved = []
    while not g.is_over and n < 400:
        if g.phase == "roll":
            g.roll((rng.randint(1, 6), rng.randint(1, 6)))
            continue
        pos = g.position
        d1, d2 = g.dice
        legal = g.legal_moves()
        if len(legal) > 1:
            cs = cube_state(tavla, g, g.turn)
            i = gnu.move(pos, d1, d2, cs, legal)
            # cross-check gnubg's own reading of the result: the Position ID of tavla's resulting
            # position (from the mover's side, flipped to the next player) equals gnubg's
            after = apply_gnubg_move(gnu.board(pos), gnubg.findbestmove(gnu.board(pos), gnu.cubeinfo(cs), gnu.ec, (d1, d2)))
            nxt = legal[i].position.flip()
            ref = gnubg.positionfromid(tavla.formats.position_id(nxt))
            assert [list(ref[0]), list(ref[1])] == [after[1], after[0]], (ref, after)
            if n % 40 == 0:
                saved.append(pos)
                cd = tav.engine.cube_decision(pos, cs)
                gd = gnu.cube(pos, cs)
                print(f"{tavla.formats.position_id(pos)} {d1}{d2}: gnubg plays {gnubg.movetupletostring(gnubg.findbestmove(gnu.board(pos), gnu.cubeinfo(cs), gnu.ec, (d1, d2)), gnu.board(pos))}"
                      f" = tavla {legal[i].notation}; cube nd/dt/dp tavla {cd.no_double:+.3f}/{cd.double_take:+.3f}/{cd.double_pass:+.3f}"
                      f" gnubg {gd[1]:+.3f}/{gd[2]:+.3f}/{gd[3]:+.3f} ({gd[5]})")
            g.play(i)
        else:
            g.play(0)
        n += 1
    print("checked", n, "plays; game over:", g.is_over, g.result)
    # match cube states: a 7-point match at 4-6 (Crawford and post-Crawford) and money with owned cubes
    p0 = saved[len(saved) // 2]
    print("cube states on", tavla.formats.position_id(p0))
    for cs in [tavla.CubeState(), tavla.CubeState(value=2, owner="me"),
               tavla.CubeState(match_length=7, score=(4, 2)),
               tavla.CubeState(match_length=7, score=(4, 6), crawford=False),
               tavla.CubeState(value=2, owner="opponent", match_length=7, score=(2, 4))]:
        cd = tav.engine.cube_decision(p0, cs)
        gd = gnu.cube(p0, cs)
        print(f"{cs.value} {cs.owner} {cs.match_length} {cs.score} {cs.crawford}: tavla {cd.action} "
              f"{cd.no_double:+.3f}/{cd.double_take:+.3f}/{cd.double_pass:+.3f}; gnubg {gd[5]} "
              f"{gd[1]:+.3f}/{gd[2]:+.3f}/{gd[3]:+.3f}")


def main() -> None:
    gnubg, tavla = _setup_imports()
    mode = os.environ.get("CUBE_DUEL_MODE", "money")
    pairs = int(os.environ.get("CUBE_DUEL_PAIRS", "10"))
    first = int(os.environ.get("CUBE_DUEL_FIRST_PAIR", "0"))
    seed = int(os.environ.get("CUBE_DUEL_SEED", "1"))
    ply = int(os.environ.get("CUBE_DUEL_PLY", "0"))
    gply = int(os.environ.get("CUBE_DUEL_GNUBG_PLY", str(ply)))
    length = int(os.environ.get("CUBE_DUEL_LENGTH", "7"))
    threads = int(os.environ.get("CUBE_DUEL_THREADS", "1"))
    referee = os.environ.get("CUBE_DUEL_REFEREE", "games")
    out = os.environ.get("CUBE_DUEL_OUT", f"cube_duel_{mode}_{ply}.jsonl")
    gnubg.command(f"set threads {threads}")
    tav = TavlaSide(tavla, ply, threads)
    gnu = GnubgSide(gnubg, tavla, gply)
    print(f"tavla {tavla.__version__} from {tavla.__file__}, met {tav.engine.met_name}; gnubg ec {gnu.ec}",
          flush=True)
    if mode == "check":
        check(gnubg, tavla, tav, gnu)
        return
    records = []
    with open(out, "a") as f:
        for k in range(first, first + pairs):
            for seat in (0, 1):
                if mode == "money":
                    r = run_money(tavla, tav, gnu, k, seed, seat)
                    r["kind"] = "game"
                else:
                    r = run_match(tavla, tav, gnu, k, seed, seat, length, referee)
                    r["kind"] = "match"
                r.update(pair=k, seed=seed, tavla_ply=ply, gnubg_ply=gply, cube_on=CUBE)
                f.write(json.dumps(r) + "\n")
                f.flush()
                records.append(r)
            if (k - first + 1) % max(1, pairs // 10) == 0:
                s = summarize(records)
                print(f"[{k - first + 1}/{pairs} pairs]", flush=True)
                print_summary(s)
                sys.stdout.flush()
    s = summarize(records)
    print_summary(s)
    from tavla.files import write_atomic  # tavla is importable once _setup_imports has run

    write_atomic(out + ".summary.json", json.dumps(s, indent=1))


if __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == "--summary":
    recs = []
    for path in sys.argv[2:]:
        with open(path) as fh:
            recs += [json.loads(line) for line in fh if line.strip()]
    summ = summarize(recs)
    print_summary(summ)
    print(json.dumps(summ, indent=1))
else:
    main()
