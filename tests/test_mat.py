"""Jellyfish .mat match files: GNU Backgammon's own exports import and replay with their final
scores, tavla's matches write and read back the same, and broken files name the line."""

from __future__ import annotations

from pathlib import Path

import pytest

import tavla
from tavla import formats

DATA = Path(__file__).parent / "data"


def test_gnubg_exports_replay_to_their_final_scores():
    # Written by Debian's gnubg 1.07 playing itself (`export match mat`), a 3- and a 5-point match.
    three = formats.read_mat((DATA / "gnubg_3pt.mat").read_text())
    assert (three["length"], three["players"], three["score"]) == (3, ("gnubg", "root"), (0, 5))
    first, second = three["games"]
    assert first["game"].is_over and first["game"].result["ending"] == "cube_passed"
    assert second["resigned"] and second["points"] == 4 and not second["game"].is_over
    five = formats.read_mat((DATA / "gnubg_5pt.mat").read_text())
    assert five["length"] == 5 and five["score"] == (4, 7)


@pytest.mark.parametrize("seed", [5, 6, 7, 8])
def test_a_played_match_writes_and_reads_back(seed):
    m = tavla.Match("backgammon", 3, seed=seed)
    while not m.is_over:
        if m.game.is_over:
            m.next_game()
        g = m.game
        if g.phase == "opening_roll":
            m.roll_off()
        elif g.phase == "roll":
            m.roll()
        elif g.phase == "move":
            m.play(m.suggest("greedy"))
        elif g.phase == "double_offered":
            m.take()
    text = formats.write_mat(m, names=("Ann", "Bob"))
    back = formats.read_mat(text)
    assert back["players"] == ("Ann", "Bob") and back["length"] == 3
    assert back["score"] == m.score
    played = list(m.finished_games) + [m.game]
    # Later games start as a .mat file says games start (the first roll's dice as the opening
    # roll-off), so compare where each game ends and what it scored, not the records' first events.
    for read, original in zip(back["games"], played):
        assert read["game"].position_for(0) == original.position_for(0)
        assert read["game"].result["points"] == original.result["points"] == read["points"]
        assert read["winner"] == original.result["winner"] and not read["resigned"]


@pytest.mark.parametrize("change, says", [
    (("13/9 24/23", "13/9 24/22"), "line 7: gnubg's \"41: 13/9 24/22\""),
    (("root : 1", "root : 2"), "line 20: the game's header says 0-2"),
    ((" 3 point match", " x point match"), "line 3: \"x\" is not a match length"),
    (("Wins 4 points", "Wins 5 points"), "5 points is no resignation at a cube of 4"),
])
def test_broken_files_name_the_line(change, says):
    text = (DATA / "gnubg_3pt.mat").read_text().replace(*change, 1)
    with pytest.raises(ValueError, match=says.replace("(", r"\(").replace("*", r"\*")):
        formats.read_mat(text)


def test_other_input_is_refused_clearly():
    for text, says in (("", "no game"), ("hello", "before the first game"), ("x" * (5 << 20), "limit")):
        with pytest.raises(ValueError, match=says):
            formats.read_mat(text)
    with pytest.raises(TypeError, match="must be text"):
        formats.read_mat(b"Game 1")
    unfinished = tavla.Game("backgammon", seed=1)
    with pytest.raises(ValueError, match="not over"):
        formats.write_mat([unfinished])
    with pytest.raises(ValueError, match="backgammon"):
        nardy = tavla.Game("nardy", seed=1)
        nardy.play_out(seed=1)
        formats.write_mat([nardy])
