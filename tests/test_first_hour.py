"""What a newcomer runs into in the first hour: out-of-range numbers, messages, the command line's
Ctrl-C, closed pipes and missing packages, and the duel harness's limits."""

from __future__ import annotations

import dataclasses
import importlib
import os
import signal
import subprocess
import sys

import pexpect
import pytest

import tavla
from tavla import cli, formats
from tavla.cli import registry

duel_module = importlib.import_module("tavla.duel")  # tavla.duel is the function

START = tavla.Position.start()


def started_game():
    g = tavla.Game(seed=1)
    g.begin(0)
    return g


# -- integers out of range are ValueErrors that name the argument --------------------------------

@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: tavla.perft("backgammon", -1), "perft depth -1"),
        (lambda: tavla.perft("backgammon", 10**30), "perft depth"),
        (lambda: tavla.Game(seed=-1), "seed"),
        (lambda: tavla.Game(seed=2**64), "seed"),
        (lambda: tavla.Game(seed="x"), "seed"),
        (lambda: tavla.Game(max_cube=-1), "max_cube"),
        (lambda: tavla.Game(match_length=-1), "match_length"),
        (lambda: tavla.Game(score=(-1, 0)), r"score\[0\]"),
        (lambda: tavla.Game(score=(1,)), "score"),
        (lambda: tavla.Game(score="12"), "score"),
        (lambda: tavla.Game.from_position(formats.to_xgid(START), rolls=-1), "rolls"),
        (lambda: tavla.Game.from_position(formats.to_xgid(START), starter=-1), "starter"),
        (lambda: tavla.Game.from_position(formats.to_xgid(START), seed=-5), "seed"),
        (lambda: tavla.Game().position_for(-1), "player"),
        (lambda: tavla.Game().begin(-1), "starter"),
        (lambda: tavla.Game().roll_off((1, 10**30)), r"dice\[1\]"),
        (lambda: tavla.Game().roll_off((True, 2)), r"dice\[0\]"),
        (lambda: started_game().roll((-1, 2)), "die"),
        (lambda: started_game().play_out(seed=-1), "seed"),
        (lambda: started_game().suggest(seed=-1), "seed"),
        (lambda: tavla.Match(length=-3), "length"),
        (lambda: tavla.Match(seed=-1), "seed"),
        (lambda: tavla.Match(max_cube=10**20), "max_cube"),
        (lambda: tavla.Match(score=(0, -2)), r"score\[1\]"),
        (lambda: tavla.simulate_games("backgammon", -1), "games"),
        (lambda: tavla.simulate_games("backgammon", 1, seed=-1), "seed"),
        (lambda: tavla.simulate_games("backgammon", 1, threads=-1), "threads"),
        (lambda: tavla.simulate_games("backgammon", 1, threads=10**6), "threads"),
        (lambda: formats.to_xgid(START, score=(-1, 3)), r"score\[0\]"),
        (lambda: formats.to_xgid(START, cube_value=-2), "cube_value"),
        (lambda: formats.to_xgid(START, turn=-1), "turn"),
        (lambda: formats.to_xgid(START, cube_owner=-1), "cube_owner"),
        (lambda: formats.to_xgid(START, match_length=-7), "match_length"),
        (lambda: formats.to_xgid(START, max_cube=-64), "max_cube"),
        (lambda: tavla.legal_positions_many("backgammon", [START.to_arrays()], [(3, 1)], threads=-1), "threads"),
    ],
)
def test_out_of_range_integers_are_value_errors_naming_the_argument(call, words):
    with pytest.raises(ValueError, match=words) as info:
        call()
    assert not isinstance(info.value, OverflowError)


def test_game_move_index_too_large_is_a_value_error():
    g = started_game()
    g.roll((3, 1))
    with pytest.raises(ValueError, match="move index"):
        g.play(10**30)


def test_numpy_integers_still_count_as_whole_numbers():
    np = pytest.importorskip("numpy")
    g = tavla.Game(seed=np.int64(3), score=(np.int32(0), 0), max_cube=np.uint8(64), match_length=np.int64(5))
    assert (g.match_length, g.score) == (5, (0, 0))
    assert tavla.perft("backgammon", np.int64(1)) == tavla.perft("backgammon", 1)


def test_signatures_still_show_their_defaults():
    import inspect

    assert "score=(0, 0)" in str(inspect.signature(tavla.Game))
    assert "length=5" in str(inspect.signature(tavla.Match))
    assert "seed=0" in str(inspect.signature(tavla.simulate_games))


# -- rule option messages show Python values, not Rust's ---------------------------------------

@pytest.mark.parametrize(
    "variant, rules, shown",
    [
        ("nardy", {"koks": "yes"}, "'yes'"),
        ("nardy", {"koks": 3}, "not 3"),
        ("nardy", {"next_game_starter": True}, "not True"),
        ("gulbara", {"cascade_after_rolls": 300}, "not 300"),
        ("gulbara", {"cascade_after_rolls": "many"}, "'many'"),
    ],
)
def test_rule_option_messages_show_the_value_as_python_writes_it(variant, rules, shown):
    with pytest.raises(ValueError) as info:
        tavla.Position.start(variant, **rules)
    message = str(info.value)
    assert shown in message
    for rust in ("Str(", "Int(", "Bool(", "ValueError:"):
        assert rust not in message


def test_cli_rule_option_message_shows_no_rust(capsys):
    assert cli.main(["moves", "--variant", "nardy", "--rule", "koks=yes", "--dice", "3", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tavla: error: ") and "'yes'" in err and "Str(" not in err


# -- duel: plies and counts checked, gnubg's package named --------------------------------------

@pytest.mark.parametrize("spec", ["gnubg:9", "gnubg:4", "gnubg:-1"])
def test_gnubg_plies_are_bounded(spec):
    with pytest.raises(ValueError, match=f"0 to {duel_module.GNUBG_MAX_PLY}"):
        tavla.duel("backgammon", spec, "random", games=2)


def test_gnubg_player_ply_is_checked():
    with pytest.raises(ValueError, match="gnubg ply"):
        duel_module.GnubgPlayer(9)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"games": 0}, "games"),
        ({"games": True}, "games"),
        ({"games": 2.5}, "games"),
        ({"seed": -1}, "seed"),
        ({"threads": -1}, "threads"),
    ],
)
def test_duel_counts_are_checked(kwargs, words):
    with pytest.raises(ValueError, match=words):
        tavla.duel("backgammon", "random", "random", **{"games": 2, **kwargs})


def test_gnubg_duel_without_gnubg_nn_names_the_install_command(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "gnubg_nn", None)  # import gnubg_nn now fails
    with pytest.raises(ImportError, match="pip install gnubg-nn"):
        tavla.duel("backgammon", "gnubg", "random", games=2)
    assert cli.main(["duel", "gnubg", "random", "--games", "2", "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert err.strip() == "tavla: error: a gnubg player needs the gnubg-nn package: pip install gnubg-nn"


# -- the command line: Ctrl-C and closed pipes ---------------------------------------------------

@pytest.mark.parametrize("command", ["", *registry.COMMANDS])
def test_every_help_page_prints(command, capsys):
    # `tavla --help` once died on the "%" of a command's one-line help ("95% intervals").
    with pytest.raises(SystemExit) as leaving:
        registry.main([command, "--help"] if command else ["--help"])
    assert leaving.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: tavla")
    if not command:
        assert all(name in out for name in registry.COMMANDS)
        assert "95% intervals" in out


def test_ctrl_c_in_any_command_is_one_line(monkeypatch, capsys):
    def interrupted(_args):
        raise KeyboardInterrupt

    monkeypatch.setitem(registry.COMMANDS, "bench", dataclasses.replace(registry.COMMANDS["bench"], run=interrupted))
    assert cli.main(["bench"]) == 130
    assert capsys.readouterr().err.strip() == "tavla: interrupted"


def test_other_import_errors_are_not_hidden(monkeypatch):
    def broken(_args):
        raise ImportError("a bug, not a missing package")

    monkeypatch.setitem(registry.COMMANDS, "bench", dataclasses.replace(registry.COMMANDS["bench"], run=broken))
    with pytest.raises(ImportError, match="a bug"):
        cli.main(["bench"])


@pytest.mark.parametrize("variant", ["backgammon", "nardy"])
def test_output_into_a_closed_pipe_is_no_traceback(variant):
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader (`head`) has already gone
    try:
        proc = subprocess.run([sys.executable, "-m", "tavla", "moves", "--variant", variant, "--dice", "1", "1"],
                              stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(write_end)
    assert proc.returncode == 141
    assert proc.stderr == ""


def test_piping_into_head_is_quiet():
    head = subprocess.run(f"{sys.executable} -m tavla moves --variant nardy --dice 1 1 | head -1",
                          shell=True, capture_output=True, text=True, timeout=60)
    assert head.stdout.startswith("nardy")
    assert "Traceback" not in head.stderr and "BrokenPipe" not in head.stderr


def default_ctrl_c():
    # As a terminal's shell starts a command: Python installs its KeyboardInterrupt handler only when
    # SIGINT is at its default, and a child inherits an ignored or blocked SIGINT from the test process.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def spawn_play(*args):
    return pexpect.spawn(sys.executable, ["-m", "tavla", "play", *args], encoding="utf-8", timeout=30,
                         preexec_fn=default_ctrl_c)


PROMPT = [r"roll \(r\) or double \(d\)\? ", r"move(?: \[[^\]]*\])?> ", r"take or pass\? "]


def test_ctrl_c_in_play_says_goodbye_and_saves(tmp_path):
    path = tmp_path / "game.json"
    child = spawn_play("--variant", "nardy", "--seed", "8", "--save", str(path))
    child.expect(PROMPT)
    child.sendintr()
    child.expect("Goodbye")
    child.expect("Record saved")
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in child.before
    assert child.exitstatus == 130
    tavla.Game.from_json(path.read_text())


def test_end_of_input_in_play_leaves_on_a_new_line():
    child = spawn_play("--variant", "backgammon", "--seed", "3")
    child.expect(PROMPT)
    child.sendeof()
    child.expect(r"\r?\nGoodbye")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
