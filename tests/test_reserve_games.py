"""Whole games and matches of Dutch backgammon and acey-deucey (RULES.md section 5) through the
Python API: games to the end with a fixed seed, acey-deucey's 1-2 with its named number and its
extra roll recorded and replayed, game and match records, match texts, the formats that cannot
hold a reserve, and the heuristic engine playing them. Fast: a few seconds."""

from __future__ import annotations

import json

import pytest

import tavla
from tavla import formats

VARIANTS = ["dutch", "acey_deucey"]


def play_with_engine(game: tavla.Game, engine: tavla.Engine) -> None:
    """Plays ``game`` to its end, both seats choosing with ``engine``; doubles are taken."""
    for _ in range(2000):
        if game.phase == "opening_roll":
            game.decide_starter()
        elif game.phase == "roll":
            game.roll()
        elif game.phase == "move":
            d1, d2 = game.dice
            game.play(engine.best_move(game.position, d1, d2))
        elif game.phase == "double_offered":
            game.take()
        else:
            return
    raise AssertionError("the game did not end")


def check_extra_rolls(history: list[dict]) -> int:
    """Each play that rolls again names a number and is followed by an extra roll of the same
    player (or ends the game); only those rolls are extra. Returns the number of extra rolls."""
    extra = 0
    for k, event in enumerate(history):
        if event["type"] == "move" and event.get("rolls_again"):
            assert event["named"] in range(1, 7) and " named " in event["play"]
            if k + 1 < len(history):
                assert history[k + 1] == {**history[k + 1], "type": "roll", "player": event["player"], "extra": True}
        if event["type"] == "roll" and event.get("extra"):
            extra += 1
            assert history[k - 1]["type"] == "move" and history[k - 1].get("rolls_again")
    return extra


@pytest.mark.parametrize("variant", VARIANTS)
def test_whole_games_play_to_the_end_and_repeat_with_their_seed(variant):
    extra = 0
    for seed in (1, 2, 3):
        game = tavla.Game(variant, seed=seed)
        result = game.play_out(("greedy", "random"), seed=seed)
        assert game.is_over and game.phase == "over"
        assert result["winner"] in (0, 1) and result["multiplier"] in (1, 2, 3)
        assert result["kind"] == ("single", "gammon", "backgammon")[result["multiplier"] - 1]
        winner = game.position_for(result["winner"])
        assert winner.off[0] == 15 and winner.reserve[0] == 0
        extra += check_extra_rolls(game.history)
        again = tavla.Game(variant, seed=seed)
        again.play_out(("greedy", "random"), seed=seed)
        assert again.history == game.history
    assert (extra > 0) == (variant == "acey_deucey")


def test_an_acey_deucey_one_two_names_a_number_and_rolls_again():
    game = tavla.Game("acey_deucey", seed=4)
    assert game.roll_off((2, 1)) == 0  # player 0 starts and plays the 2-1
    assert game.phase == "move" and game.dice == (2, 1)
    moves = game.legal_moves()
    assert {m.named for m in moves} == {1, 2, 3, 4, 5, 6} and all(m.rolls_again for m in moves)
    with pytest.raises(ValueError, match="1 to 6"):
        game.play("reserve/24 reserve/23 named 7: 24/18 23/17")
    with pytest.raises(ValueError, match="not a legal move"):
        game.play("reserve/24 reserve/23 named 5: 24/18")
    assert game.phase == "move" and len(game.history) == 1  # refused plays change nothing
    game.play(next(m for m in moves if m.named == 6))
    assert (game.phase, game.turn, game.is_extra_roll) == ("roll", 0, True)
    assert not game.may_double and "extra roll" in game.why_no_double()
    with pytest.raises(ValueError, match="extra roll"):
        game.double()
    assert game.history[-1]["named"] == 6 and game.history[-1]["rolls_again"] is True
    # The position JSON keeps the extra roll, and a game from it is at the extra roll too.
    position_json = game.to_position_json()
    assert json.loads(position_json)["extra_roll"] is True and formats.parse(position_json)["extra_roll"] is True
    resumed = tavla.Game.from_position(position_json)
    assert resumed.is_extra_roll and not resumed.may_double and resumed.turn == 0
    with pytest.raises(ValueError, match="extra roll follows acey-deucey's 1-2 only"):
        tavla.Game.from_position(json.dumps({**json.loads(position_json), "variant": "dutch"}))
    game.roll((6, 5))
    assert game.history[-1] == {"type": "roll", "player": 0, "dice": (6, 5), "extra": True}
    assert not game.is_extra_roll
    game.play(0)
    assert (game.turn, game.phase, game.may_double) == (1, "roll", True)
    game.play_out(("greedy", "greedy"), seed=1)

    # The record carries the named number and the extra roll, and replays exactly.
    text = game.to_json()
    record = json.loads(text)
    assert record["variant"] == "acey_deucey"
    first = dict(record["events"][1])
    assert " named 6: " in first["play"] and first["rolls_again"] is True
    assert record["events"][2]["extra"] is True
    back = tavla.Game.from_json(text)
    assert back.history == game.history and back.result == game.result
    assert back.to_json() == text
    states = tavla.Game.replay(text)
    assert len(states) == len(game.history) + 1 and states[2].is_extra_roll

    # Records that say otherwise are refused with the event named.
    record["events"][2]["extra"] = False
    with pytest.raises(ValueError, match=r"event 2 \(roll\).*1-2"):
        tavla.Game.from_json(json.dumps(record))
    record["events"][2]["extra"] = True
    record["events"][1]["play"] = first["play"].replace("named 6", "named 9")
    with pytest.raises(ValueError, match=r"event 1 \(move\).*1 to 6"):
        tavla.Game.from_json(json.dumps(record))
    record["events"][1]["play"] = first["play"]
    record["events"][2]["player"] = 1
    with pytest.raises(ValueError, match="player 0's to make"):
        tavla.Game.from_json(json.dumps(record))


def test_wrong_records_are_value_errors():
    game = tavla.Game("dutch", seed=5)
    game.play_out(seed=5)
    record = json.loads(game.to_json())
    for broken, message in [
        ({**record, "variant": "dutchy"}, "unknown variant"),
        ({**record, "format": "tavla.match"}, "not a game"),
        ({**record, "rules": {"enter_all_first": "sometimes"}}, "true or false"),
        ({**record, "rules": {"named": 3}}, "unknown rule option"),
        ({**record, "events": record["events"][:3] + [{"type": "move", "player": 9, "play": "reserve/1"}]}, "event 3"),
    ]:
        with pytest.raises(ValueError, match=message):
            tavla.Game.from_json(json.dumps(broken))


@pytest.mark.parametrize("variant", VARIANTS)
def test_matches_play_and_round_trip(variant):
    match = tavla.Match(variant, 3, seed=6)
    while not match.is_over:
        if match.game.is_over:
            match.next_game()
        match.play_out(("greedy", "random"), seed=match.game_number)
    assert max(match.score) >= 3
    text = match.to_json()
    assert json.loads(text)["format"] == "tavla.match"
    back = tavla.Match.from_json(text)
    assert back.to_json() == text and back.score == match.score
    # The match text holds these games too (the .mat and .sgf files do not).
    written = formats.write_match_text(match, names=("alice", "bob"))
    read = formats.read_match_text(written)
    assert read["variant"] == variant and read["score"] == match.score
    assert [g["game"].history for g in read["games"]] == [g.history for g in match.finished_games + [match.game]]
    assert formats.write_match_text(read["games"], names=("alice", "bob"), length=3) == written
    for write in (formats.write_mat, formats.write_sgf):
        with pytest.raises(ValueError, match=f"is {variant}: an? .* holds backgammon games"):
            write(match)


def test_a_roll_off_played_as_the_first_roll_is_written_to_a_match_text():
    # The starter plays the roll-off dice (long nardy with opening_roll=single_dice): the match
    # text writer used to fail on the first play, which has no roll of its own.
    game = tavla.Game("nardy", seed=7, opening_roll="single_dice")
    game.play_out(seed=7)
    text = formats.write_match_text([game], names=("alice", "bob"), length=0)
    assert "Roll-off:" in text
    assert formats.read_match_text(text)["games"][0]["game"].history == game.history


@pytest.mark.parametrize("variant", VARIANTS)
def test_formats_without_a_reserve_refuse_these_games(variant):
    game = tavla.Game(variant, seed=8)
    game.decide_starter()
    for write in (game.to_xgid, game.to_gnubg_id, game.to_fibs):
        with pytest.raises(ValueError, match=f"not {variant} \\(it has no place for the checkers in reserve\\)"):
            write()
    position = tavla.Position.start(variant)
    for write in (formats.to_xgid, formats.to_gnubg_id, formats.position_id, formats.to_fibs):
        with pytest.raises(ValueError, match="reserve"):
            write(position)
    # JSON holds them.
    parsed = formats.parse(game.to_position_json())
    assert parsed["position"] == game.position


@pytest.mark.parametrize("variant", VARIANTS)
def test_simulate_games_and_the_heuristic_engine_play_them(variant):
    tally = tavla.simulate_games(variant, 20, seed=1, players=("greedy", "random"))
    assert tally["games"] == 20 and tally["draws"] == 0
    assert sum(tally["wins"][0]) + sum(tally["wins"][1]) == 20
    engine = tavla.Engine(variant, ply=0, evaluator="heuristic")
    game = tavla.Game(variant, seed=9, cube=False)
    play_with_engine(game, engine)
    assert game.result["winner"] in (0, 1)
    assert tavla.Game.from_json(game.to_json()).history == game.history


@pytest.mark.parametrize("variant", VARIANTS)
def test_tavla_play_plays_them_with_the_heuristic_engine(variant, tmp_path):
    import io
    import subprocess
    import sys

    from tavla.play import play

    out = io.StringIO()

    def read(prompt: str) -> str:  # roll, take every double, and pick the first listed move
        out.write(prompt + "\n")
        return "r" if "roll (r)" in prompt else "take" if "take or pass" in prompt else "1"

    save = tmp_path / "game.json"
    assert play(variant, 0, 5, True, False, {}, out=out, read=read, save=str(save)) == 0
    text = out.getvalue()
    assert f"tavla: {variant} against engine." in text  # the heuristic engine, not the greedy fallback
    assert "reserve 15" in text and ("wins" in text or "win" in text)
    if variant == "acey_deucey":
        assert "played the 1-2 in full and roll" in text
    game = tavla.Game.from_json(save.read_text())
    assert game.is_over and game.variant == variant
    # The command line offers both variants.
    cli = subprocess.run([sys.executable, "-m", "tavla", "play", "--variant", variant, "--seed", "1"],
                         input="quit\n", capture_output=True, text=True, timeout=60)
    assert cli.returncode == 0 and f"tavla: {variant} against engine." in cli.stdout and "Goodbye" in cli.stdout
    duel = subprocess.run([sys.executable, "-m", "tavla", "duel", "heuristic:0", "random", "--variant", variant,
                           "--games", "2", "--threads", "1", "--no-progress"], capture_output=True, text=True, timeout=60)
    assert duel.returncode == 0 and duel.stdout.startswith(f"{variant}: heuristic 0-ply vs random, 2 games")


@pytest.mark.parametrize("variant", VARIANTS)
def test_their_match_texts_are_analysed_with_their_networks(variant):
    # A match text of the game, read back and judged move by move at 0-ply, as `tavla analyze` does.
    from tavla import analysis

    match = tavla.Match(variant, 1, seed=5)
    match.play_out(players=("greedy", "greedy"), seed=3)
    read = analysis.read_match_data("m.txt", formats.write_match_text(match).encode())
    assert read["variant"] == variant
    engine = analysis.match_engine(read, ply=0)
    assert engine.evaluator == "network"
    result = analysis.analyze_match(engine, read, luck=False)
    checker = [d for d in result["decisions"] if d["kind"] == "move"]
    assert checker and all(d["error"] >= -1e-9 for d in checker)
    if variant == "acey_deucey":
        # The 1-2s are judged as whole plays, named number included.
        assert any(" named " in d["played"] for d in checker)
