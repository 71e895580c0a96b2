"""The cube from Python: CubeState, Engine.cube_decision and cubeful hints.

The 0-ply money formulas are checked here against a plain re-derivation of
Janowski's interpolation; the match formulas against GNU Backgammon's own
numbers in tests/test_cube_parity.py.
"""

import pickle

import pytest

import tavla

BG = "backgammon"


def position(mine: dict, theirs: dict, variant: str = BG) -> tavla.Position:
    m, t = [0] * 25, [0] * 25
    for point, n in mine.items():
        m[point - 1] = n
    for point, n in theirs.items():
        t[point - 1] = n
    return tavla.Position.from_arrays(variant, m, t)


@pytest.fixture(scope="module")
def engine0() -> tavla.Engine:
    return tavla.Engine(BG, ply=0)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        (dict(value=3, owner="me"), "power of two"),
        (dict(value=128, owner="me"), "maximum"),
        (dict(value=1, owner="me"), "centered"),
        (dict(value=2), "owner"),
        (dict(owner="nobody"), "owner"),
        (dict(crawford=True), "Crawford"),
        (dict(match_length=7, score=(7, 2)), "match is over"),
        (dict(match_length=7, score=(2, 3), crawford=True), "Crawford"),
        (dict(match_length=5, jacoby=True), "Jacoby"),
        (dict(match_length=5, beaver=True), "beaver"),
        (dict(match_length=-3), "match_length"),
        (dict(match_length=10**20), "match_length"),
        (dict(value=True), "value"),
        (dict(score=(1, 2, 3)), "score"),
        (dict(score=(-1, 2), match_length=5), "score"),
        (dict(jacoby="yes"), "jacoby"),
        (dict(jacoby=1), "jacoby must be True or False, not 1"),
        (dict(score=(1, 0)), "money"),
    ],
)
def test_impossible_cube_states_are_refused(kwargs, words):
    with pytest.raises(ValueError, match=words):
        tavla.CubeState(**kwargs)


def test_numpy_flags_are_flags():
    # numpy integers pass for whole numbers; numpy's bools were refused as flags ("not np.True_").
    np = pytest.importorskip("numpy")
    c = tavla.CubeState(match_length=np.int64(7), score=(np.int64(6), 4), crawford=np.True_)
    assert c.crawford is True and c == tavla.CubeState(match_length=7, score=(6, 4), crawford=True)
    assert tavla.CubeState(jacoby=np.False_, beaver=np.bool_(True)).beaver is True


def test_cube_state_contract():
    c = tavla.CubeState(value=2, owner="opponent", match_length=7, score=(2, 4))
    assert (c.value, c.owner, c.match_length, c.score, c.crawford) == (2, "opponent", 7, (2, 4), False)
    assert not c.may_double and c.flip().may_double
    assert c.flip().owner == "me" and c.flip().score == (4, 2)
    assert c.doubled() == tavla.CubeState(value=4, owner="opponent", match_length=7, score=(2, 4))
    assert pickle.loads(pickle.dumps(c)) == c
    assert hash(c) == hash(tavla.CubeState(value=2, owner="opponent", match_length=7, score=(2, 4)))
    assert str(tavla.CubeState(match_length=7, score=(6, 3))) == "7-point match at 6-3 (post-Crawford), cube 1 centered"
    assert tavla.CubeState(match_length=7, score=(6, 3), crawford=True).may_double is False


def janowski_money(e: tavla.Evaluation, x: float, owner) -> float:
    """Janowski's money formula, derived again: dead cube = cubeless equity,
    live cube = straight lines through the take and cash points."""
    p = e.win
    w = 1 + (e.win_gammon + e.win_backgammon) / p
    l = 1 + (e.lose_gammon + e.lose_backgammon) / (1 - p)
    tp, cp = (l - 0.5) / (w + l + 0.5), (l + 1) / (w + l + 0.5)
    if owner is None:
        live = -l + (l - 1) * p / tp if p < tp else (-1 + 2 * (p - tp) / (cp - tp) if p < cp else 1 + (w - 1) * (p - cp) / (1 - cp))
    elif owner == "me":
        live = -l + (1 + l) * p / cp if p < cp else 1 + (w - 1) * (p - cp) / (1 - cp)
    else:
        live = -l + (l - 1) * p / tp if p < tp else -1 + (w + 1) * (p - tp) / (1 - tp)
    return (1 - x) * e.equity + x * live


@pytest.mark.parametrize("value, owner", [(1, None), (2, "me")])
def test_zero_ply_money_decision_is_janowski(engine0, value, owner):
    # Contact (efficiency 0.68), a position with gammons both ways.
    pos = tavla.Position.start(BG)
    d = engine0.cube_decision(pos, tavla.CubeState(value=value, owner=owner))
    e = d.evaluation
    assert d.no_double == pytest.approx(janowski_money(e, 0.68, owner), abs=2e-6)
    assert d.double_take == pytest.approx(2 * janowski_money(e, 0.68, "opponent"), abs=4e-6)
    assert d.double_pass == 1.0
    assert d.mwc is None and d.ply == 0


def test_a_certain_win_is_a_double_and_a_pass(engine0):
    # One checker each on the one-point: the player on roll bears off first.
    pos = position({1: 1}, {1: 1})
    d = engine0.cube_decision(pos, tavla.CubeState())
    assert d.should_double and not d.should_take
    assert d.action == "double, pass"
    assert d.equity == pytest.approx(1.0)
    # The opponent owns the cube: nothing to decide, the game is won for one point.
    d = engine0.cube_decision(pos, tavla.CubeState(value=2, owner="opponent"))
    assert d.action == "no double available" and not d.should_double
    assert d.equity == pytest.approx(1.0)


def test_the_opening_position_is_no_double():
    for ply in (0, 1):
        d = tavla.Engine(BG, ply=ply).cube_decision(tavla.Position.start(BG), tavla.CubeState())
        assert not d.should_double and d.should_take
        assert d.action == "no double, take"
        assert d.no_double > d.double_take


def test_race_decisions_follow_the_race():
    # A 20-pip lead in a 60-pip race is a double; a 4-pip lead is not.
    engine = tavla.Engine(BG, ply=1)
    leader = position({6: 3, 5: 3, 4: 3, 3: 3, 8: 2, 10: 1}, {6: 4, 5: 4, 4: 2, 9: 3, 11: 2})
    me, them = leader.pip_count()
    assert leader.is_race() and them - me >= 15
    far = engine.cube_decision(leader, tavla.CubeState())
    assert far.should_double and far.action.startswith(("double", "redouble", "too good"))
    close = position({6: 4, 5: 4, 4: 3, 8: 4}, {6: 4, 5: 4, 4: 3, 8: 3, 9: 1})
    assert not engine.cube_decision(close, tavla.CubeState()).should_double


def test_match_play_cube_decisions(engine0):
    pos = tavla.Position.start(BG)
    d = engine0.cube_decision(pos, tavla.CubeState(match_length=7, score=(2, 4)))
    nd, dt, dp = d.mwc
    # Double/pass: I win one point, 4-away against 3-away on the table.
    assert dp == pytest.approx(engine0.match_equity(4, 3))
    assert 0 < nd < 1 and 0 < dt < 1
    assert d.double_pass == pytest.approx(1.0)
    # The Crawford game: nobody doubles, the cube is dead.
    d = engine0.cube_decision(pos, tavla.CubeState(match_length=7, score=(6, 3), crawford=True))
    assert not d.should_double and d.action == "no double available"
    # Post-Crawford the leader cannot usefully double; a cube that already
    # wins the match is dead.
    d = engine0.cube_decision(pos, tavla.CubeState(match_length=7, score=(6, 3)))
    assert "dead cube" in d.action and not d.should_double
    # Equity and MWC agree through the table's two one-point results.
    d = engine0.cube_decision(pos, tavla.CubeState(match_length=5, score=(1, 1)))
    win, lose = engine0.match_equity(3, 4), 1 - engine0.match_equity(3, 4)
    assert d.no_double == pytest.approx((2 * d.mwc[0] - (win + lose)) / (win - lose), abs=1e-9)


def test_the_met_is_kazaross_and_loadable(tmp_path):
    engine = tavla.Engine(BG)
    assert "Kazaross" in engine.met_name
    assert engine.match_equity(1, 2) == pytest.approx(0.67736, abs=1e-6)
    assert engine.match_equity(5, 5) == pytest.approx(0.5)
    bad = tmp_path / "bad.xml"
    bad.write_text("<met><info><name>x</name></info></met>")
    with pytest.raises(ValueError):
        tavla.Engine(BG, met=str(bad))
    with pytest.raises(ValueError, match="away"):
        engine.match_equity(0, 3)


def test_cubeful_hints(engine0):
    pos = tavla.Position.start(BG)
    cubeless = engine0.hint(pos, 6, 5)
    assert not cubeless[0].cubeful and cubeless[0].mwc is None
    money = engine0.hint(pos, 6, 5, cube=tavla.CubeState())
    assert money[0].cubeful and money[0].mwc is None
    assert [c.equity for c in money] == sorted((c.equity for c in money), reverse=True)
    match = engine0.hint(pos, 6, 5, cube=tavla.CubeState(match_length=3, score=(0, 0)))
    assert all(0 < c.mwc < 1 for c in match)
    assert str(engine0.best_move(pos, 6, 5, cube=tavla.CubeState())) == str(money[0].move)
    deep = tavla.Engine(BG, ply=1).hint(pos, 3, 1, cube=tavla.CubeState(match_length=7, score=(3, 5)))
    assert deep[0].ply == 1 and deep[0].mwc is not None


def test_gammonish_scores_change_the_play():
    """At DMP (both 1-away) gammons count nothing: the cubeful match ranking
    must use plain winning chances, so its best play maximizes `win`."""
    engine = tavla.Engine(BG, ply=0)
    pos = tavla.Position.start(BG)
    dmp = engine.hint(pos, 6, 4, top=30, cube=tavla.CubeState(match_length=5, score=(4, 4)))
    best_win = max(c.evaluation.win for c in dmp)
    assert dmp[0].evaluation.win == pytest.approx(best_win)


def test_bad_calls(engine0):
    with pytest.raises(ValueError, match="nardy"):
        engine0.cube_decision(tavla.Position.start("nardy"), tavla.CubeState())
    with pytest.raises(TypeError):
        engine0.cube_decision(tavla.Position.start(BG), {"value": 1})
    over = position({}, {1: 3})
    with pytest.raises(ValueError, match="over"):
        engine0.cube_decision(over, tavla.CubeState())


@pytest.mark.parametrize("variant", ["nardy", "gulbara"])
def test_nardy_games_have_cube_decisions(variant):
    engine = tavla.Engine(variant, ply=0)
    # The first roller of a nardy game is well ahead (gul bara: +0.23 by the engine's own rollouts),
    # so trailing 0-2 a double can be right; at 0-0 no double is (gul bara: 0.33 against 0.22).
    d = engine.cube_decision(tavla.Position.start(variant), tavla.CubeState(match_length=5, score=(0, 0)))
    assert not d.should_double and 0 < d.mwc[0] < 1


@pytest.mark.parametrize("ply", [1, 2])
def test_deeper_cubeful_search_of_a_dead_cube_is_the_cubeless_search(ply):
    """In the Crawford game the cube is dead, and in a race where both sides
    have borne off nobody can win a gammon: the n-ply cubeful MWC must then
    be the table's line through the n-ply cubeless winning chance. (Six
    checkers a side: the exact two-sided table, which deeper search agrees with.)"""
    pos = position({1: 2, 2: 2, 3: 1, 5: 1}, {1: 2, 2: 1, 4: 2, 6: 1})
    assert pos.off == (9, 9)
    engine = tavla.Engine(BG, ply=ply, threads=1)
    cubeless = engine.evaluate(pos)
    state = tavla.CubeState(match_length=5, score=(4, 2), crawford=True)
    d = engine.cube_decision(pos, state)
    # Losing the game leaves me 1-away against 2-away, post-Crawford.
    win, lose = 1.0, engine.match_equity(1, 2, post_crawford=True)
    assert d.mwc[0] == pytest.approx(lose + (win - lose) * cubeless.win, abs=2e-5)


def test_one_ply_cube_decision_sees_the_redouble():
    """A money race where the taker will soon redouble: at 1-ply the take
    branch includes the taker's redouble, so double/take must be worth less
    than 2x the no-double equity of an opponent who can never redouble."""
    pos = position({6: 3, 5: 3, 4: 3, 3: 3, 8: 2, 10: 1}, {6: 4, 5: 4, 4: 2, 9: 3, 11: 2})
    engine = tavla.Engine(BG, ply=1, threads=1)
    d = engine.cube_decision(pos, tavla.CubeState())
    capped = engine.cube_decision(pos, tavla.CubeState(max_cube=2))
    # With the cube capped at 2 the taker cannot redouble: the take is worse for it.
    assert capped.double_take > d.double_take


def test_take_point_of_a_gammonless_race(engine0):
    """Without gammons the 0-ply model's take point has a closed form: with
    efficiency x, (1-x)(2w-1) + x(2.5w-1.5) = 1/2 at the doubler's w, so the
    taker needs 1/2 / (2 + x/2): 25% for a dead cube, 20% for a live one."""
    pos = position({1: 3, 2: 3, 3: 2, 5: 2}, {1: 2, 2: 3, 4: 3, 6: 1})
    x = tavla._core._cube_efficiency(pos)
    assert x == pytest.approx(0.6)
    d = engine0.cube_decision(pos, tavla.CubeState())
    assert d.take_point == pytest.approx(0.5 / (2 + 0.5 * x), abs=1e-9)
    # Gammons for the doubler raise it; in a match the score moves it.
    start = tavla.Position.start(BG)
    money = engine0.cube_decision(start, tavla.CubeState()).take_point
    assert 0.2 < money < 0.35
    trailing = engine0.cube_decision(start, tavla.CubeState(match_length=7, score=(5, 0))).take_point
    assert trailing != pytest.approx(money, abs=0.01)


@pytest.mark.parametrize(
    "variant, mine, theirs, kind",
    [
        (BG, {6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2}, "contact"),
        (BG, {6: 5, 8: 5, 13: 5}, {6: 5, 8: 5, 10: 5}, "race"),  # both sides past each other
        (BG, {1: 3, 6: 2}, {2: 4}, "bear-off"),
        (BG, {1: 3}, {}, "over"),  # the opponent has borne every checker off
        ("nardy", {24: 15}, {24: 15}, "contact"),
        ("nardy", {1: 15}, {3: 15}, "bear-off"),
    ],
)
def test_position_class_is_the_cubes(variant, mine, theirs, kind):
    # The class that picks the cube efficiency, and the benchmark sets' classes.
    assert position(mine, theirs, variant).position_class() == kind
