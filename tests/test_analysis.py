"""Match analysis: every decision of a .mat file judged by the engine, with marks and per-player
totals, from Python and from ``tavla analyze``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import tavla
from tavla import analysis, formats

DATA = Path(__file__).parent / "data"
GNUBG_3 = (DATA / "gnubg_3pt.mat").read_text()


@pytest.fixture(scope="module")
def engine():
    return tavla.Engine("backgammon", ply=0)


def test_every_decision_is_judged_and_summed(engine):
    report = analysis.analyze_match(engine, formats.read_mat(GNUBG_3))
    assert report["match_length"] == 3 and report["final_score"] == [0, 5]
    assert [p["name"] for p in report["players"]] == ["gnubg", "root"]
    for p in report["players"]:
        assert p["unforced_moves"] > 20 and p["cube_decisions"] > 0
        assert p["checker_error"] >= 0 and p["cube_error"] >= 0
        assert p["checker_error_rate"] == pytest.approx(1000 * p["checker_error"] / p["unforced_moves"], abs=1e-2)
        assert p["pr"] == pytest.approx(p["error_rate"] / 2, abs=1e-2)
    kinds = {d["kind"] for d in report["decisions"]}
    assert {"move", "no double", "double", "pass", "take"} <= kinds
    assert all(d["error"] >= 0 and d["mark"] == analysis.mark(d["error"]) for d in report["decisions"])


def test_a_blunder_is_marked(engine):
    # An opening 4-1: 13/9 24/23 is a normal play; breaking the 6 point is a clear error.
    def opening(play):
        g = tavla.Game("backgammon", seed=0)
        g.roll_off((4, 1))
        g.play(play)
        return analysis.analyze_game(engine, g)[0]

    first, played = opening("6/2 6/5"), opening("13/9 24/23")
    assert first.kind == "move" and first.dice == (4, 1)
    assert first.error >= 0.04 and first.mark is not None
    assert first.error > played.error + 0.03


def test_marks_follow_gnubg():
    assert [analysis.mark(e) for e in (0.0, 0.039, 0.04, 0.08, 0.2)] == [None, None, "doubtful", "bad", "very bad"]


def test_the_command_line(tmp_path):
    out = subprocess.run([sys.executable, "-m", "tavla", "analyze", str(DATA / "gnubg_3pt.mat"), "--json"],
                         capture_output=True, text=True, check=True).stdout
    report = json.loads(out)
    assert set(report) == {"match_length", "final_score", "players"}
    assert set(report["players"][0]) >= {"name", "unforced_moves", "checker_error", "checker_error_rate",
                                         "cube_decisions", "cube_error", "error_rate", "pr"}
    bad = tmp_path / "broken.mat"
    bad.write_text(GNUBG_3.replace("13/9 24/23", "13/9 24/22", 1))
    r = subprocess.run([sys.executable, "-m", "tavla", "analyze", str(bad)], capture_output=True, text=True)
    assert r.returncode == 2 and "broken.mat: line 7:" in r.stderr and "Traceback" not in r.stderr



def fifo_with(tmp_path, name: str, data: bytes) -> Path:
    """A named pipe that a thread fills with ``data`` once a reader opens it (a file with no size, as
    /dev/zero or the shell's ``<(cat match.mat)`` are)."""
    import os
    import threading

    path = tmp_path / name
    os.mkfifo(path)

    def write():
        try:
            with open(path, "wb") as f:
                f.write(data)
        except BrokenPipeError:  # the reader stopped at its limit
            pass

    threading.Thread(target=write, daemon=True).start()
    return path


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="needs named pipes")
def test_a_file_with_no_size_is_read_up_to_the_limit_only(tmp_path, monkeypatch):
    # The size check went by stat(): a pipe or a device reports 0 bytes, and `tavla analyze /dev/zero`
    # read on without end. A pipe holding a match file is still read.
    assert analysis.read_match_file(fifo_with(tmp_path, "piped.mat", GNUBG_3.encode()))["score"] == (0, 5)
    monkeypatch.setattr(analysis, "MAX_FILE_BYTES", 1000)
    with pytest.raises(ValueError, match="over the .* limit of a match file"):
        analysis.read_match_file(fifo_with(tmp_path, "endless.mat", GNUBG_3.encode() * 4))

def test_luck_averages_to_nothing_over_the_rolls(engine):
    # From one position, every roll's luck weighted by its chance sums to zero: luck is the roll's
    # best equity against the mean over the rolls.
    g = tavla.Game("backgammon", seed=0)
    g.roll_off((4, 1))
    g.play("13/9 24/23")
    total = 0.0
    for a in range(1, 7):
        for b in range(a, 7):
            game = g.copy()
            game.roll((a, b))
            if game.legal_moves():
                game.play(0)
            rolls: list = []
            analysis.analyze_game(engine, game, rolls=rolls)
            opening, reply = rolls
            assert opening.dice == (4, 1) and reply.dice == (a, b) and reply.player == 1
            assert reply.mark == analysis.luck_mark(reply.luck)
            total += (1 if a == b else 2) * reply.luck
    assert abs(total / 36) < 1e-6
    # A 6-6 reply to an opening is lucky, a 2-1 is not.
    assert analysis.luck_mark(0.31) == "lucky" and analysis.luck_mark(-0.61) == "very unlucky"
    assert analysis.luck_mark(0.1) is None


def test_match_report_has_luck_and_cube_error_kinds(engine):
    report = analysis.analyze_match(engine, formats.read_mat(GNUBG_3))
    for k, p in enumerate(report["players"]):
        mine = [r for r in report["rolls"] if r["player"] == k]
        assert p["rolls"] == len(mine) > 20
        assert p["luck"] == pytest.approx(sum(r["luck"] for r in mine), abs=1e-5)
        assert p["luck_rate"] == pytest.approx(1000 * p["luck"] / p["rolls"], abs=1e-2)
        wrong = [d for d in report["decisions"] if d["player"] == k and d["kind"] != "move" and d["error"] > 0]
        assert sum(p[kind] for kind in analysis.CUBE_ERROR_KINDS) == len(wrong)
    # Player 1 (root) won the match 5-0 on far better dice.
    assert report["players"][1]["luck"] > report["players"][0]["luck"]


class _CubeRecording:
    """An engine that records the cube state of every hint asked of it."""

    def __init__(self, engine: tavla.Engine):
        self.engine, self.cubes = engine, []

    def hint(self, *args, cube=None, **kwargs):
        self.cubes.append(cube)
        return self.engine.hint(*args, cube=cube, **kwargs)

    def __getattr__(self, name):
        return getattr(self.engine, name)


@pytest.mark.parametrize("with_cube", [False, True])
def test_plays_are_judged_with_the_games_own_cube(engine, with_cube):
    """A game played without the cube is judged with a dead one (the stakes alone: cubeless in money),
    a game with the cube with a live one; the caller's cube_rules still win."""
    g = tavla.Game("backgammon", seed=3, cube=with_cube)
    g.decide_starter()
    while g.rolls < 6 and not g.is_over:
        if g.phase == "roll":
            g.roll()
        else:
            g.play(g.legal_moves()[-1])
    recording = _CubeRecording(engine)
    analysis.analyze_game(recording, g)
    assert recording.cubes and all(c is not None for c in recording.cubes)
    assert all((c.max_cube == c.value) != with_cube for c in recording.cubes)
    forced = _CubeRecording(engine)
    analysis.analyze_game(forced, g, cube_rules={"enabled": True})
    assert all(c.max_cube == 64 for c in forced.cubes)
