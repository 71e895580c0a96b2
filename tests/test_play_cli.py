"""The terminal game, used the way a person would: through a pseudo-terminal."""

import re
import subprocess
import sys

import pexpect
import pytest

ROLL = r"roll \(r\) or double \(d\)\? "
MOVE = r"move(?: \[[^\]]*\])?> "
ANSWER = r"take or pass\? "


def spawn(*args):
    return pexpect.spawn(sys.executable, ["-m", "tavla", "play", *args], encoding="utf-8", timeout=20)


def test_show_draws_positions_in_every_form():
    xgid = "XGID=-b----E-C---eE---c-e----B-:1:-1:-1:64:2:4:0:7:10"
    for text in (xgid, "4HPwATDgc/ABMA:cAgAAAAAAAAA"):
        out = subprocess.run([sys.executable, "-m", "tavla", "show", text], capture_output=True, text=True, check=True).stdout
        assert "●" in out and "○" in out and "13 14 15" in out
        assert "XGID=-b----E-C---eE---c-e----B-" in out
    assert "dice 6-4" in subprocess.run([sys.executable, "-m", "tavla", "show", xgid], capture_output=True, text=True).stdout
    nardy = '{"variant": "nardy", "checkers": [[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,14], [3,0,0,0,0,0,0,0,0,12,0,0,0,0,0,0,0,0,0,0,0,0,0,0]], "turn": 1, "dice": [6, 5]}'
    out = subprocess.run([sys.executable, "-m", "tavla", "show", nardy], capture_output=True, text=True, check=True).stdout
    assert "player 1 (on roll)" in out and "dice 6-5" in out and "XGID" not in out
    bad = subprocess.run([sys.executable, "-m", "tavla", "show", "XGID=nonsense"], capture_output=True, text=True)
    assert bad.returncode == 2 and "XGID" in bad.stderr and "Traceback" not in bad.stderr


def test_entering_a_move_in_parts_with_mistakes_and_undo():
    child = spawn("--variant", "backgammon", "--seed", "11")
    tried = False
    doubled = False
    while not tried:
        k = child.expect([ROLL, MOVE, ANSWER])
        if k == 0:
            child.sendline("r" if doubled else "d")  # a double at the first chance
            doubled = True
            continue
        if k == 2:
            child.sendline("take")
            continue
        child.sendline("?")
        child.expect(MOVE)
        listing = child.before
        two_part = [m for m in re.findall(r"\d+\. (\S+ \S+)\r?\n", listing) if "(" not in m and "*" not in m]
        child.sendline("25/1")
        child.expect("Illegal: ")
        child.expect(MOVE)
        child.sendline("undo")
        child.expect("Nothing to undo")
        child.expect(MOVE)
        if not two_part:
            child.sendline("1")
            continue
        first, second = two_part[0].split()
        child.sendline(first)
        child.expect(re.escape(f"[{first} ...]> "))
        child.sendline("undo")
        child.expect(f"Took back {re.escape(first)}")
        child.expect(MOVE)
        child.sendline(first)
        child.expect(re.escape(f"[{first} ...]> "))
        child.sendline(second)
        child.expect("You play ")
        tried = True
    child.sendline("quit")
    child.expect("Goodbye")
    child.expect(pexpect.EOF)


def test_quitting_saves_a_record_that_replays(tmp_path):
    path = tmp_path / "game.json"
    child = spawn("--variant", "nardy", "--seed", "8", "--save", str(path))
    for _ in range(6):
        k = child.expect([ROLL, MOVE])
        child.sendline("r" if k == 0 else "1")
    child.expect([ROLL, MOVE])
    child.sendline("quit")
    child.expect("Record saved")
    child.expect(pexpect.EOF)
    import tavla

    game = tavla.Game.from_json(path.read_text())
    assert game.variant == "nardy" and len(game.history) >= 6 and not game.is_over


@pytest.mark.parametrize(
    "args, ending",
    [
        (["--variant", "nardy", "--seed", "3"], r"(You win|Greedy wins|Engine wins|draw)[^\n]*point"),
        (["--variant", "gulbara", "--seed", "4"], r"(You win|Greedy wins|Engine wins|draw)[^\n]*point"),
        (["--variant", "nardy", "--rule", "opening_roll=single_dice", "--rule", "first_turn_head_exception=head_blocked",
          "--seed", "6"], r"(You win|Greedy wins|Engine wins|draw)[^\n]*point"),
        (["--variant", "backgammon", "--match", "3", "--seed", "5"], r"(You win the match|You lose the match)"),
    ],
)
def test_a_whole_game_or_match_to_its_result(args, ending):
    child = spawn(*args)
    child.expect("against engine")
    bad_input_seen = False
    while True:
        k = child.expect([ROLL, MOVE, ANSWER, ending])
        if k == 0:
            if not bad_input_seen:
                child.sendline("x")
                child.expect("type r to roll")
                bad_input_seen = True
                continue
            child.sendline("r")
        elif k == 1:
            child.sendline("1")
        elif k == 2:
            child.sendline("take")
        else:
            break
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def play_cli(*args):
    return subprocess.run([sys.executable, "-m", "tavla", "play", *args], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)


XGID_START = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


@pytest.mark.parametrize("args,words", [
    # --variant beside --from was ignored: a backgammon game began.
    (["--from", XGID_START, "--variant", "nardy"], "the position is a backgammon position, not nardy"),
    # Past 64 points the engine's cube state is refused, so its plays and cube fell back to greedy play.
    (["--match", "65"], "--match must be 0 (money) or a number of points up to 64, not 65"),
    (["--from", XGID_START.replace(":0:0:10", ":0:100:10")], "a match is played to at most 64 points, not 100"),
    # A --save that cannot be written was found only on leaving, as a traceback, the record lost.
    (["--save", "/nonexistent-folder/game.json"], "the folder /nonexistent-folder does not exist"),
])
def test_play_refuses_what_it_cannot_honour_before_the_game(args, words):
    r = play_cli(*args)
    assert r.returncode == 2 and r.stderr.startswith("tavla: error: ")
    assert words in r.stderr and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert "Your" not in r.stdout, "refused before the game starts"


def test_play_a_record_that_cannot_be_saved_is_one_line_not_a_traceback(tmp_path):
    import io

    from tavla.play import play

    def leave(_prompt):
        raise EOFError

    gone = tmp_path / "gone" / "game.json"  # the folder is missing when the game ends
    with pytest.raises(ValueError, match="cannot save the record to .*game.json: No such file or directory"):
        play("backgammon", 0, 1, True, False, {}, out=io.StringIO(), read=leave, save=str(gone))
    r = play_cli("--save", str(tmp_path), "--seed", "1")
    assert r.returncode == 2 and "that is a folder" in r.stderr and "Traceback" not in r.stderr
