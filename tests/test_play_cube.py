"""The cube in ``tavla play``: the engine's doubles, takes, passes and beavers come from
``Engine.cube_decision`` with the game's real cube state and score, it never offers a double the
rules refuse, and the person's ``hint`` shows the cube decision and the cubeful ranking of plays.

Games start from positions (``tavla play --from``), the engine is player 1 and the person player 0.
"""

import io
import sys

import pexpect
import pytest

import tavla
from tavla import formats
from tavla.play import EnginePlayer, Session, Table


BG = "backgammon"
ROLL = r"roll \(r\) or double \(d\)\? "
MOVE = r"move(?: \[[^\]]*\])?> "
ANSWER = r"take or pass\? "


def position(mine: dict, theirs: dict) -> tavla.Position:
    m, t = [0] * 25, [0] * 25
    for point, n in mine.items():
        m[point - 1] = n
    for point, n in theirs.items():
        t[point - 1] = n
    return tavla.Position.from_arrays(BG, m, t)


# Seen from the player on roll. LEAD: a race 62 to 73 pips, a double the opponent must pass.
LEAD = position({6: 4, 5: 3, 4: 3, 3: 2, 2: 2, 1: 1}, {6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 9: 2})
# TOO_GOOD: 57 pips to 138 with the opponent's checkers still outside: playing on for the gammon.
TOO_GOOD = position({1: 2, 2: 2, 3: 2, 4: 3, 5: 3, 6: 3}, {7: 3, 8: 3, 9: 3, 10: 2, 11: 2, 12: 2})
# BEHIND: 69 pips to 57 on roll; a double here is a beaver in money play.
BEHIND = position({6: 4, 5: 3, 4: 3, 3: 2, 2: 2, 8: 1}, {6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2})


@pytest.fixture(scope="module")
def player():
    return EnginePlayer(BG, {})


def table(pos: tavla.Position, turn: int, **context) -> Table:
    return Table(BG, 0, 1, True, False, {}, start=formats.to_xgid(pos, turn=turn, **context))


def spawn(*args):
    return pexpect.spawn(sys.executable, ["-m", "tavla", "play", *args], encoding="utf-8", timeout=30)


# ----- the cube state handed to the engine -----

def test_cube_state_is_seen_from_the_player_on_roll():
    t = Table(BG, 0, 1, True, False, {},
              start=formats.to_gnubg_id(LEAD, turn=1, match_length=7, score=(2, 4), cube_value=2, cube_owner=1))
    engine_side, your_side = t.cube_for(1), t.cube_for(0)
    assert engine_side.score == (4, 2) and engine_side.owner == "me" and engine_side.value == 2
    assert your_side.score == (2, 4) and your_side.owner == "opponent" and engine_side.match_length == 7
    money = Table(BG, 0, 1, True, True, {}, jacoby=True, max_cube=8)
    cube = money.cube_for(0)
    assert cube.is_money and cube.beaver and cube.jacoby and cube.max_cube == 8 and money.beaver_allowed
    match = Table(BG, 5, 1, True, False, {})
    assert match.cube_for(0).match_length == 5 and not match.beaver_allowed
    # Without the cube: a dead cube, so plays are still judged by the stakes but no one doubles.
    dead = Table(BG, 0, 1, False, False, {})
    assert not dead.cube_for(0).may_double


# ----- the engine's own cube decisions -----

def test_engine_doubles_a_clear_double_and_plays_on_when_too_good(player):
    assert player.wants_to_double(table(LEAD, 1))
    too_good = table(TOO_GOOD, 1)
    assert too_good.game.may_double and not player.wants_to_double(too_good)
    assert player.cube_decision(too_good, 1).action.startswith("too good")
    # An even position: no double in money play...
    start = tavla.Position.start(BG)
    assert not player.wants_to_double(table(start, 1))
    # ... but at once when trailing 3-away against 1-away after the Crawford game (the score is the
    # match's: the person, player 0, leads 4-2), and never by the leader there (a dead cube).
    assert player.wants_to_double(table(start, 1, match_length=5, score=(4, 2)))
    assert table(start, 0, match_length=5, score=(4, 2)).game.may_double
    assert not player.wants_to_double(table(start, 1, match_length=5, score=(2, 4)))


@pytest.mark.parametrize(
    "context, reason",
    [
        (dict(cube_value=2, cube_owner=0), "player 0 owns"),                      # the person owns it
        (dict(match_length=5, score=(2, 4), crawford=True), "Crawford"),           # the Crawford game
        (dict(cube_value=8, cube_owner=1, max_cube=8), "limit"),                # at the max cube
    ],
)
def test_engine_never_offers_a_double_the_rules_refuse(player, context, reason):
    t = table(LEAD, 1, **context)
    assert not t.game.may_double and reason.lower() in t.game.why_no_double().lower()
    assert not player.wants_to_double(t)
    # The same position with the cube free is a double: the refusal is the rules', not the position's.
    assert player.wants_to_double(table(LEAD, 1))


def test_engine_never_doubles_without_the_cube(player):
    t = Table(BG, 0, 1, False, False, {})
    for _ in range(40):
        g = t.game
        if g.is_over:
            break
        if g.phase == "opening_roll":
            t.decide_starter()
        elif g.phase == "roll":
            assert not player.wants_to_double(t)
            t.roll()
        else:
            t.play(t.suggest("greedy"))


def test_engine_answers_doubles_from_the_cube_decision(player):
    t = table(LEAD, 0)        # the person is far ahead and doubles
    t.double()
    assert player.answer(t) == "pass"
    t = table(tavla.Position.start(BG), 0)
    t.double()
    assert player.answer(t) == "take"
    t = Table(BG, 0, 1, True, False, {}, start=formats.to_xgid(BEHIND, turn=0, beaver=True))
    t.double()
    assert t.beaver_allowed and player.answer(t) == "beaver"
    t = table(BEHIND, 0)      # no beavers in this game: a take
    t.double()
    assert player.answer(t) == "take"


def test_engine_moves_are_chosen_cubefully(player):
    t = Table(BG, 0, 1, True, False, {},
              start=formats.to_xgid(tavla.Position.start(BG), turn=1, dice=(6, 5), match_length=7, score=(2, 4)))
    k = player.pick(t)
    best = player.engine.best_move(t.game.position, 6, 5, cube=t.cube_for(1))
    assert t.game.legal_moves()[k].position == best.position


# ----- through the terminal -----

def test_play_engine_doubles_and_the_person_passes():
    child = spawn("--from", formats.to_xgid(LEAD, turn=1))
    child.expect("Engine doubles to 2")
    child.expect(ANSWER)
    child.sendline("hint")
    child.expect(r"Hint \(engine\): pass")
    child.expect("Proper cube action: double, pass")
    child.expect(ANSWER)
    child.sendline("pass")
    child.expect("Engine wins by a passed double: 1 point")
    child.expect(pexpect.EOF)


def test_play_engine_passes_a_hopeless_double_and_takes_a_fair_one():
    child = spawn("--from", formats.to_xgid(LEAD, turn=0))
    child.expect(ROLL)
    child.sendline("d")
    child.expect("Engine passes")
    child.expect("You win by a passed double: 1 point")
    child.expect(pexpect.EOF)
    child = spawn("--from", formats.to_xgid(tavla.Position.start(BG), turn=0))
    child.expect(ROLL)
    child.sendline("d")
    child.expect("Engine takes")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_play_engine_does_not_double_the_cube_it_does_not_own():
    child = spawn("--from", formats.to_xgid(LEAD, turn=1, cube_value=2, cube_owner=0))
    k = child.expect(["Engine doubles", "Engine rolls"])
    assert k == 1
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_hint_shows_the_cube_decision_then_the_cubeful_ranking():
    child = spawn("--from", formats.to_xgid(tavla.Position.start(BG), turn=0, match_length=7, score=(2, 4)))
    child.expect(ROLL)
    child.sendline("hint")
    child.expect("Cube analysis, 1-ply, 7-point match at 2-4, cube 1 centered")
    child.expect("No double")
    child.expect("Proper cube action: ")
    child.expect(ROLL)
    child.sendline("r")
    child.expect(MOVE)
    child.sendline("hint")
    child.expect(r"Hint \(engine, 1-ply, cubeful: 7-point match at 2-4, cube 1 centered\)")
    child.expect(r"equity +diff +MWC")
    child.expect(r"1\. \S+")
    child.expect(MOVE)
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_hint_before_rolling_says_when_you_cannot_double():
    out = io.StringIO()
    lines = iter(["hint", "quit"])
    t = table(LEAD, 0, cube_value=2, cube_owner=1)
    Session(t, out, lambda _prompt: next(lines), EnginePlayer(BG, {})).run()
    text = out.getvalue()
    assert "no double available (the opponent owns the cube)" in text and "You cannot double now" in text


def test_play_refuses_from_with_clashing_options():
    import subprocess

    r = subprocess.run([sys.executable, "-m", "tavla", "play", "--from", formats.to_xgid(LEAD, turn=0), "--match", "5"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "--from" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "tavla", "play", "--from", "XGID=nonsense"], capture_output=True, text=True)
    assert r.returncode == 2 and "XGID" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "tavla", "play", "--max-cube", "3"], capture_output=True, text=True)
    assert r.returncode == 2 and "power of two" in r.stderr


# ----- what the person is told about the cube -----

def session_text(start: str, lines: list) -> tuple:
    """The text of a session from ``start`` answering with ``lines``, and the prompts it asked."""
    out, prompts = io.StringIO(), []
    answers = iter(lines)

    def read(prompt):
        prompts.append(prompt)
        return next(answers)

    Session(Table(BG, 0, 1, True, False, {}, start=start), out, read, EnginePlayer(BG, {})).run()
    return out.getvalue(), prompts


def test_a_take_or_beaver_in_money_play_names_the_cube_it_makes():
    # A money game is the live Game (a match's is a copy): the cube had already turned when the
    # message read it, so a take of a 2-cube said "the cube at 4" and a beaver "16".
    text, prompts = session_text(formats.to_xgid(LEAD, turn=1), ["take", "quit"])
    assert "You take; you own the cube at 2." in text
    assert prompts[0] == "Engine doubles to 2: take or pass? "
    text, prompts = session_text(formats.to_xgid(LEAD, turn=1, beaver=True), ["b?", "beaver", "quit"])
    # The prompt and the reminder name the beaver where it may be made.
    assert prompts[0] == "Engine doubles to 2 (beavers allowed): take or pass? "
    assert "Type take, pass or beaver." in text
    assert "You beaver: the cube is at 4 and stays yours." in text
    text, _ = session_text(formats.to_xgid(BEHIND, turn=0, beaver=True), ["d", "quit"])
    assert "Engine beavers: the cube is at 4 and stays with engine." in text


def test_a_jacoby_gammon_is_said_to_count_single():
    race_home = position({1: 1}, {7: 5, 8: 5, 9: 5})  # bearing off the last checker wins a gammon
    text, _ = session_text(formats.to_xgid(race_home, turn=0, jacoby=True), ["r"])
    assert "You win a gammon (counted single: the Jacoby rule, the cube was not turned): 1 point(s)." in text
    text, _ = session_text(formats.to_xgid(race_home, turn=0), ["r"])
    assert "You win a gammon: 2 point(s)." in text


def test_play_refuses_a_crawford_game_at_a_score_without_match_point():
    # 3-3 to 5: nobody is one point from winning, so there is no Crawford game. The game took it and the
    # engine, refused the cube state, fell back on greedy play while its hints failed.
    text = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:3:3:1:5:10"  # to_xgid itself refuses this score now
    with pytest.raises(ValueError, match="Crawford"):
        Table(BG, 0, 1, True, False, {}, start=text)
    import subprocess

    r = subprocess.run([sys.executable, "-m", "tavla", "play", "--from", text], capture_output=True, text=True)
    assert r.returncode == 2 and "Crawford" in r.stderr and "Traceback" not in r.stderr
    # At 3-4 the Crawford game is real and plays.
    Table(BG, 0, 1, True, False, {}, start=formats.to_xgid(tavla.Position.start(BG), turn=0, match_length=5,
                                                              score=(3, 4), crawford=True))
