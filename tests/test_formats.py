"""Position formats: XGID, GNU Backgammon IDs, FIBS boards, JSON."""

import json
import random

import pytest

import tavla
from tavla import formats

START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def random_backgammon_position(rng):
    g = tavla.Game("backgammon", seed=rng.randrange(1 << 30))
    g.decide_starter()
    for _ in range(rng.randrange(0, 40)):
        if g.phase == "roll":
            g.roll()
        elif g.phase == "move":
            g.play(rng.randrange(len(g.legal_moves())))
        else:
            break
    return g


def test_published_start_ids():
    start = tavla.Position.start()
    assert formats.position_id(start) == "4HPwATDgc/ABMA"
    assert formats.position_from_id("4HPwATDgc/ABMA") == start
    info = formats.parse("4HPwATDgc/ABMA:cAgAAAAAAAAA")
    assert info["turn"] == 1 and info["cube_value"] == 1 and info["cube_owner"] is None
    assert info["match_length"] == 0
    info = formats.parse(START_XGID)
    assert info["position"] == start and info["turn"] == 0
    assert formats.to_xgid(start, max_cube=1024) == START_XGID


def test_position_ids_agree_with_gnubg(gnubg_nn):
    rng = random.Random(5)
    for _ in range(200):
        g = random_backgammon_position(rng)
        pos = g.position
        mine, theirs = pos.to_arrays()
        board = [list(theirs), list(mine)]  # gnubg: [opponent, player on roll]
        pid = formats.position_id(pos)
        assert pid == gnubg_nn.position_id(board)
        assert [list(x) for x in gnubg_nn.board_from_position_id(pid)] == board
        assert formats.position_from_id(pid) == pos


def test_all_forms_round_trip_with_context():
    rng = random.Random(7)
    for _ in range(100):
        g = random_backgammon_position(rng)
        context = dict(
            turn=g.turn,
            dice=g.dice if g.phase == "move" else None,
            cube_value=rng.choice([1, 2, 4]),
            match_length=7,
            score=(rng.randrange(7), rng.randrange(7)),
        )
        context["cube_owner"] = None if context["cube_value"] == 1 else rng.randrange(2)
        pos = g.position
        for text in (formats.to_xgid(pos, **context), formats.to_gnubg_id(pos, **context),
                     formats.to_json(pos, **context), formats.to_fibs(pos, **context)):
            info = formats.parse(text)
            assert info["position"] == pos, text
            for key, value in context.items():
                assert info[key] == value, (text, key)


def test_json_every_variant_and_options():
    for variant in tavla.VARIANTS:
        g = tavla.Game(variant, seed=3, **({"koks": True} if variant != "backgammon" else {}))
        g.decide_starter()
        g.roll() if g.phase == "roll" else None
        text = g.to_position_json()
        data = json.loads(text)
        assert data["variant"] == variant and len(data["checkers"][0]) == 24
        info = formats.parse(text)
        assert info["position"] == g.position and info["turn"] == g.turn
        if variant != "backgammon":
            assert info["position"].rules["koks"] is True
            with pytest.raises(ValueError, match="short backgammon"):
                formats.to_xgid(info["position"])
        same = tavla.Game.from_position(text)
        assert same.position == g.position and same.legal_moves() == g.legal_moves()


@pytest.mark.parametrize(
    "text, message",
    [
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:7:0:0:7:10", "past the match length"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:3:00:0:0:0:0:10", "turn"),
        ("XGID=-b----E-C---eE---c-e----Z-:0:0:1:00:0:0:0:0:10", "not '-'"),
        ("4HPwATDgc/AB!A", "Base64"),
        ("4HPwATDgc/ABMA:cAgAAAAAA", "12 characters"),
        ("board:a:b:5", "53 fields"),
        # Nine colons, as an XGID has: read as an XGID once ("an XGID board has 26 characters").
        ("board:You:Opp:3:0:0:0:-2:0:0", "a FIBS board has 53 fields"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:65:10", "at most 64 points, not 65"),
        ('{"variant": "nardy"}', "checkers"),
        ("hello", "cannot tell"),
    ],
)
def test_bad_text_is_named(text, message):
    with pytest.raises(ValueError, match=message):
        formats.parse(text)


def test_fibs_published_example():
    text = ("board:mpgnu:buster:17:0:2:0:0:0:2:1:4:3:0:1:0:1:0:0:2:0:0:0:0:0:1:-2:-2:-1:-4:-4:0:"
            "-1:3:6:0:0:1:1:1:0:-1:1:25:0:2:0:0:0:2:2:0:0")
    info = formats.parse(text)
    assert info["dice"] == (3, 6) and info["match_length"] == 17 and info["score"] == (0, 2)
    assert info["position"].off == (2, 0)
    assert len(info["position"].legal_moves(3, 6)) > 0


def test_named_readers_for_the_service():
    pos, dice = formats.parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:64:0:0:0:7:3")
    assert pos == tavla.Position.start() and dice == (6, 4)
    info = formats.parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:64:0:0:0:7:3")
    assert info["match_length"] == 7 and info["max_cube"] == 8
    pos, dice = formats.parse_gnubg_id("4HPwATDgc/ABMA:MIEFAAAAAAAA")
    assert pos == tavla.Position.start() and dice == (3, 1)
    assert formats.parse_gnubg_id("4HPwATDgc/ABMA") == (tavla.Position.start(), None)
    with pytest.raises(ValueError, match="not an XGID"):
        formats.parse_xgid("4HPwATDgc/ABMA")
    with pytest.raises(ValueError, match="not a GNU Backgammon ID"):
        formats.parse_gnubg_id(START_XGID)


# ----- one JSON position form; the older mine/theirs form is read with a warning -----

def legacy_text(variant, mine, theirs, **extra):
    return json.dumps({"variant": variant, "mine": list(mine), "theirs": list(theirs), **extra})


@pytest.mark.parametrize("variant", tavla.VARIANTS)
def test_the_older_json_form_reads_as_the_project_form_with_a_warning(variant):
    rng = random.Random(5)
    for pos in tavla.sampling.random_positions(variant, 20, seed=rng.randrange(1000)):
        mine, theirs = pos.to_arrays()
        with pytest.warns(formats.DeprecatedPositionForm, match="checkers"):
            info = formats.parse(legacy_text(variant, mine, theirs, rules=pos.rules))
        assert info["position"] == pos and info["turn"] == 0
        # the same position in the one form: no warning, and to_json writes that form
        text = formats.to_json(pos)
        data = json.loads(text)
        assert "mine" not in data and data["checkers"] == [list(mine[:24]), list(theirs[:24])]
        assert data["bar"] == [mine[24], theirs[24]]
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert formats.parse(text)["position"] == pos


def test_the_older_json_form_keeps_its_rules_and_dice():
    start = [0] * 23 + [15, 0]
    with pytest.warns(formats.DeprecatedPositionForm):
        info = formats.parse(legacy_text("nardy", start, start, rules={"fence_rule": "home"}, dice=[3, 3]))
    assert info["position"].rules["fence_rule"] == "home" and info["dice"] == (3, 3)
    assert [str(m) for m in info["position"].legal_moves(3, 3)] == ["24/18(2)", "24/15 24/21"]


@pytest.mark.parametrize("data,message", [
    ({"variant": "nardy", "mine": [0] * 23 + [15, 0]}, "both"),
    ({"variant": "nardy", "mine": [0] * 23 + [15, 0], "theirs": [0] * 23 + [15, 0],
      "checkers": [[0] * 23 + [15], [0] * 23 + [15]]}, "not both"),
    ({"variant": "nardy", "mine": [0] * 23 + [15], "theirs": [0] * 23 + [15, 0]}, "25 counts"),
    ({"variant": "nardy", "mine": [0] * 23 + [15, 0], "theirs": [0] * 23 + [15, 0], "turn": 1}, "turn"),
])
def test_bad_older_json_is_named(data, message):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # refused before any deprecation warning
        with pytest.raises(ValueError, match=message):
            formats.parse(json.dumps(data))


def test_the_reader_still_checks_the_rewritten_older_form():
    start = [0] * 23 + [15, 0]
    with pytest.warns(formats.DeprecatedPositionForm):
        with pytest.raises(ValueError, match="unknown key"):
            formats.parse(json.dumps({"variant": "nardy", "mine": start, "theirs": start, "colour": 1}))
    with pytest.warns(formats.DeprecatedPositionForm):
        with pytest.raises(ValueError, match="impossible|checkers|15"):
            formats.parse(json.dumps({"variant": "nardy", "mine": [0] * 23 + [16, 0], "theirs": start}))


def test_show_reads_both_json_forms(capsys):
    from tavla.cli import main

    pos = tavla.Position.start("gulbara")
    mine, theirs = pos.to_arrays()
    assert main(["show", formats.to_json(pos)]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "15" in out
    assert main(["show", legacy_text("gulbara", mine, theirs)]) == 0
    out2, err = capsys.readouterr()
    assert out2 == out
    assert err.startswith("tavla: warning: the {\"mine\"") and err.count("\n") == 1 and "Traceback" not in err
