"""GNU Backgammon .sgf match files: gnubg's own files read with the right scores, written and read
back, and bad input refused with an error naming the line, the game and the move."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import tavla
from tavla import analysis, formats

GNUBG = Path(__file__).parent / "data" / "gnubg"
SCORES = json.loads((GNUBG / "scores.json").read_text())
MATCH_11 = (GNUBG / "match11_1.sgf").read_text()


@pytest.mark.parametrize("name", sorted(SCORES))
def test_gnubg_files_replay_to_gnubg_s_final_score(name):
    """Every .sgf and .mat gnubg exported (match lengths 3 to 11 and a money session) imports and
    replays to the final score gnubg itself stated (scripts/gnubg_matches.py)."""
    sgf = formats.read_sgf((GNUBG / f"{name}.sgf").read_bytes())
    mat = formats.read_mat((GNUBG / f"{name}.mat").read_text())
    assert list(sgf["score"]) == SCORES[name] == list(mat["score"])
    assert sgf["players"] == mat["players"] == ("white", "black")
    assert sgf["length"] == mat["length"] == (0 if name.startswith("money") else int(name[5:].split("_")[0]))
    for a, b in zip(sgf["games"], mat["games"], strict=True):
        # The same moves (gnubg's .mat says nothing of the money session's Jacoby rule, its .sgf does).
        assert json.loads(a["game"].to_json())["events"] == json.loads(b["game"].to_json())["events"]
        assert (a["winner"], a["points"], a["resigned"]) == (b["winner"], b["points"], b["resigned"])


def test_written_and_read_back():
    m = formats.read_sgf(MATCH_11)
    text = formats.write_sgf(m["games"], ("Jörg", "b]c"), 11)
    back = formats.read_sgf(text)
    assert back["players"] == ("Jörg", "b]c") and back["score"] == m["score"] == (13, 2)
    assert [g["game"].to_json() for g in back["games"]] == [g["game"].to_json() for g in m["games"]]
    assert [g["resigned"] for g in back["games"]] == [g["resigned"] for g in m["games"]]
    # A match tavla plays, through .sgf and back.
    match = tavla.Match("backgammon", 3, seed=5)
    while not match.is_over:
        match.play_out(("greedy", "random"), seed=1)
        if not match.is_over:
            match.next_game()
    played = formats.read_sgf(formats.write_sgf(match, ("a", "b")))
    assert list(played["score"]) == list(match.score)


def test_bad_input_names_line_game_and_move():
    lines = MATCH_11.splitlines()
    k = next(i for i, l in enumerate(lines) if l.startswith(";W[") and len(l) > 7)
    broken = "\n".join(lines[:k] + [lines[k][:5] + "aa]"] + lines[k + 1:])
    with pytest.raises(ValueError, match=rf"^game 1, move {k} \(line {k + 1}: W\[..aa\]\)"):
        formats.read_sgf(broken)
    with pytest.raises(ValueError, match=r"^game 4 \(line \d+\): MI gives black a score of 1"):
        formats.read_sgf(MATCH_11.replace("[ws:5][bs:2]", "[ws:5][bs:1]", 1))
    with pytest.raises(ValueError, match=r"not a backgammon game"):
        formats.read_sgf(MATCH_11.replace("GM[6]", "GM[1]", 1))
    with pytest.raises(ValueError, match=r"no closing"):
        formats.read_sgf(MATCH_11[: len(MATCH_11) // 2])
    with pytest.raises(ValueError, match=r'the rule "Nackgammon" is not one'):
        formats.read_sgf(MATCH_11.replace("RU[Crawford]", "RU[Nackgammon]", 1))
    with pytest.raises(ValueError, match=r"not UTF-8"):
        formats.read_sgf(MATCH_11.replace("PW[white]", "PW[J\xf6rg]").encode("latin-1"))
    assert formats.read_sgf(MATCH_11.replace("CA[UTF-8]", "CA[ISO-8859-1]").replace("PW[white]", "PW[J\xf6rg]")
                            .encode("latin-1"))["players"][0] == "Jörg"
    with pytest.raises(ValueError, match=r"character set"):
        formats.read_sgf(MATCH_11.replace("CA[UTF-8]", "CA[KOI8-R]").encode())
    with pytest.raises(TypeError):
        formats.read_sgf(None)  # type: ignore[arg-type]


def test_analysis_reads_sgf_and_names_a_file_of_another_format(tmp_path):
    m = analysis.read_match_file(GNUBG / "match5_1.sgf")
    assert m["score"] == (5, 0)
    # Sniffed by content when the name says nothing.
    copy = tmp_path / "match"
    copy.write_bytes((GNUBG / "match5_1.sgf").read_bytes())
    assert analysis.read_match_file(copy)["score"] == (5, 0)
    other = tmp_path / "notes.txt"
    other.write_text("hello")
    with pytest.raises(ValueError, match=r"notes.txt: not a match file"):
        analysis.read_match_file(other)
    r = subprocess.run([sys.executable, "-m", "tavla", "analyze", str(GNUBG / "match3_1.sgf"), "--json"],
                       capture_output=True, text=True, check=True)
    report = json.loads(r.stdout)
    assert report["match_length"] == 3 and report["final_score"] == [8, 0]
    assert [p["name"] for p in report["players"]] == ["white", "black"]
    r = subprocess.run([sys.executable, "-m", "tavla", "analyze", str(other)], capture_output=True, text=True)
    assert r.returncode == 2 and "notes.txt: not a match file" in r.stderr and "Traceback" not in r.stderr


def _played_match(variant: str, length: int, seed: int) -> "tavla.Match":
    m = tavla.Match(variant, length, seed=seed)
    while True:
        m.play_out(("greedy", "random"), seed=seed + 1)
        if m.is_over:
            return m
        m.next_game()


@pytest.mark.parametrize("variant", ["nardy", "gulbara"])
def test_nardy_match_text_round_trip(variant):
    m = _played_match(variant, 3, 5)
    text = formats.write_match_text(m, ("alice", "bob"))
    assert text.startswith(f'; [Variation "{"long nardy" if variant == "nardy" else "gul bara"}"]')
    back = formats.read_match_text(text)
    assert back["variant"] == variant and back["rules"] == m.game.rules
    assert list(back["score"]) == list(m.score) and back["players"] == ("alice", "bob")
    games = list(m.finished_games) + [m.game]
    assert [g["game"].to_json() for g in back["games"]] == [g.to_json() for g in games]
    assert formats.write_match_text(back["games"], ("alice", "bob"), 3) == text
    lines = text.splitlines()
    k = next(i for i, l in enumerate(lines) if ") alice: " in l and "/" in l)
    lines[k] = lines[k][: lines[k].rindex(":")] + ": 24/1"
    with pytest.raises(ValueError, match=rf"^line {k + 1}: "):
        formats.read_match_text("\n".join(lines))


def test_analyze_reads_a_nardy_match_text(tmp_path):
    nardy = tmp_path / "nardy.txt"
    nardy.write_text(formats.write_match_text(_played_match("nardy", 1, 2), ("alice", "bob")))
    report = json.loads(subprocess.run([sys.executable, "-m", "tavla", "analyze", str(nardy), "--json"],
                                       capture_output=True, text=True, check=True).stdout)
    assert [p["name"] for p in report["players"]] == ["alice", "bob"]
    assert sum(p["unforced_moves"] for p in report["players"]) > 10
