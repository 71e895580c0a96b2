"""Fuzzing the public Python API: every constructor and method that takes outside input gets
arbitrary values (wrong types, huge and negative ints, NaN, empty and garbage strings, mutated
records and IDs, deep JSON) and may answer only ValueError or TypeError: never a
``pyo3_runtime.PanicException`` (a BaseException, so it is caught here as one), SystemError,
OverflowError, RecursionError, MemoryError, a crash or a hang.

The cost is bounded: ``EXAMPLES`` examples a target (``TAVLA_FUZZ_EXAMPLES`` raises it for a longer
hunt), each under ``DEADLINE`` (a slow case fails as DeadlineExceeded), and a watchdog dumps every
thread's traceback and ends the run when one test hangs (``HANG_SECONDS``).

Counts that make real work (games, trials, positions, epochs, threads, seconds) are fuzzed here only
where they are refused (beyond the core's bounds, ``tavla.LIMITS``: refused before any work starts)
or small; ``tests/test_resource_bounds.py`` checks each bound once more, each in its own process.
"""

from __future__ import annotations

import faulthandler
import json
import math
import os
import pickle
import sys
import threading
from datetime import timedelta
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import tavla
import tavla._core as core
import tavla_train._coach as coach
from tavla import formats
from tavla.sampling import random_positions

EXAMPLES = int(os.environ.get("TAVLA_FUZZ_EXAMPLES", "150"))
# Hypothesis's deadline flags one slow example; a 1-ply search of a big gul bara cascade takes seconds
# on a loaded two-core machine, so the deadline is loose (a real hang is HANG_SECONDS's business).
DEADLINE = timedelta(seconds=float(os.environ.get("TAVLA_FUZZ_DEADLINE_SECONDS", "30")))
HANG_SECONDS = int(os.environ.get("TAVLA_FUZZ_HANG_SECONDS", "120"))

fuzz = settings(
    max_examples=EXAMPLES,
    deadline=DEADLINE,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning", "ignore::RuntimeWarning")


@pytest.fixture(autouse=True)
def watchdog(request):
    """A test that hangs (in Rust, where no Python timeout reaches) shows every thread's stack and ends
    the run: a timer thread (the core releases the GIL while it works), and faulthandler's own thread
    later still, for a hang that holds the GIL."""

    def fire():
        capture = request.config.pluginmanager.getplugin("capturemanager")
        if capture is not None:
            capture.suspend_global_capture(in_=False)  # or the stacks would go to pytest's capture file
        sys.stderr.write(f"\n{request.node.nodeid} ran past {HANG_SECONDS} s (hung?); every thread's stack:\n")
        faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
        sys.stderr.flush()
        os._exit(70)

    timer = threading.Timer(HANG_SECONDS, fire)
    timer.daemon = True
    timer.start()
    faulthandler.dump_traceback_later(HANG_SECONDS + 30, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()
    timer.cancel()


# ----- the check -----

ALLOWED = (ValueError, TypeError)
REFUSED = type("Refused", (), {"__repr__": lambda self: "REFUSED", "__bool__": lambda self: False})()


def call(fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)``: its result, or REFUSED (falsy) when it raised ValueError or TypeError;
    anything else (an OverflowError included: the private helpers too name a huge int's argument in a
    ValueError) fails the test naming the call."""
    try:
        return fn(*args, **kwargs)
    except ALLOWED:
        return REFUSED
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:  # PanicException is a BaseException
        raise_escaped(fn, args, kwargs)


def raise_escaped(fn: Callable[..., Any], args: tuple, kwargs: dict) -> None:
    e = sys.exc_info()[1]
    shown = ", ".join([short(a) for a in args] + [f"{k}={short(v)}" for k, v in kwargs.items()])
    raise AssertionError(f"{getattr(fn, '__qualname__', fn)}({shown}) raised {type(e).__module__}."
                         f"{type(e).__name__}: {str(e)[:300]}") from e


def short(value: Any, limit: int = 200) -> str:
    try:
        text = repr(value)
    except BaseException as e:  # a hostile object's repr
        text = f"<repr raised {type(e).__name__}>"
    return text if len(text) <= limit else text[:limit] + f"...({len(text)} chars)"


# ----- hostile values -----

HUGE = [2**31, 2**32, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**64 + 1, 2**128, 10**30,
        -1, -(2**31), -(2**63), -(2**63) - 1, -(10**30)]
NAN = float("nan")
ODD_FLOATS = [NAN, float("inf"), float("-inf"), -0.0, 1e308, -1e308, 5e-324, 0.5, 1.0, 3.0]


class IntLike:
    """Not an int, but has ``__index__``."""

    def __init__(self, n: int):
        self.n = n

    def __index__(self) -> int:
        return self.n

    def __repr__(self) -> str:
        return f"IntLike({self.n})"


class BadIndex:
    """``__index__`` raises ValueError (the caller's ValueError, passed on)."""

    def __index__(self) -> int:
        raise ValueError("no index")

    def __repr__(self) -> str:
        return "BadIndex()"


class ShortSequence:
    """Says it has 25 items and stops at 3."""

    def __len__(self) -> int:
        return 25

    def __getitem__(self, k: int) -> int:
        if k >= 3:
            raise IndexError(k)
        return 0

    def __repr__(self) -> str:
        return "ShortSequence()"


def odd_objects() -> list[Any]:
    # No endless iterators: ``list(itertools.count())`` never ends in any Python code, ours or not.
    return [
        object(), IntLike(3), IntLike(2**70), IntLike(-1), BadIndex(), ShortSequence(),
        np.int64(3), np.int8(-5), np.uint64(2**64 - 1), np.float64(NAN), np.float32(2.5), np.bool_(True),
        np.array([1, 2]), np.zeros((2, 25), dtype=np.int64), np.array(3), np.array([], dtype=np.int8),
        range(25), range(-5, 20), iter(range(25)), (n for n in range(30)), {1: 2}, {1, 2}, frozenset(),
        b"", b"\x00" * 25, bytearray(b"\xff" * 50), memoryview(b"abc"), 1j, Ellipsis, NotImplemented,
        "\ud800", "\x00", "a" * 5000, tavla.Position.start, int, type,
    ]


GARBAGE_STRINGS = ["", " ", "\n", "\t\r", "\x00", "\ud800", "null", "NaN", "-Infinity", "1e999", "{}", "[]",
                   "{", "}", "[", '"', "XGID=", "XGID=:::::::::", "board:", "board:" + ":" * 60, "::",
                   "4HPwATDgc/ABMA:", "4HPwATDgc/ABMA:cAkAAAAAAAAA:x", "/" * 14, "=" * 14, "A" * 14,
                   "🎲" * 10, "ﬀ", "İ", "\u202e", "a" * 10_000]

SCALARS = st.one_of(
    st.none(), st.booleans(),
    st.integers(-3, 30), st.sampled_from(HUGE), st.integers(),
    st.sampled_from(ODD_FLOATS), st.floats(),
    st.text(max_size=30), st.sampled_from(GARBAGE_STRINGS), st.binary(max_size=60),
    st.sampled_from(odd_objects()),
)

ANYTHING = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=6), st.tuples(inner, inner),
                            st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=10,
)


def near(low: int, high: int) -> st.SearchStrategy:
    """Mostly values just inside and outside low..high, sometimes anything."""
    return st.one_of(st.integers(low - 2, high + 2), st.integers(low - 2, high + 2), st.sampled_from(HUGE), ANYTHING)


def beyond(bound: int) -> st.SearchStrategy:
    """Whole numbers past a bound of the core (refused before any work), and the hostile ones."""
    return st.one_of(st.integers(bound + 1, 2 * bound + 10), st.sampled_from([n for n in HUGE if n > bound or n < 0]))


LIMITS = tavla.LIMITS
BEYOND_THREADS = beyond(LIMITS["threads"])
DIE = near(1, 6)
VARIANT = st.one_of(st.sampled_from(list(tavla.VARIANTS)), st.sampled_from(list(tavla.VARIANTS)),
                    st.sampled_from(["", "Backgammon", "chess", "nardy ", "\x00", "gul bara"]), ANYTHING)
RULE_NAMES = ["head_rule", "fence_rule", "first_turn_head_exception", "opening_roll", "cascade_after_rolls", "exact_bearoff",
              "last_roll_draw", "koks", "next_game_starter", "jacoby", "beaver", "cube"]
RULE_VALUES = st.one_of(st.booleans(), st.integers(-3, 10), st.sampled_from(HUGE),
                        st.sampled_from(["ahead", "home", "blocked", "head_blocked", "single_dice", "yes", "winner", "", "none"]), ANYTHING)
# Keywords the tests pass themselves are no rule names here (they would be given twice).
TAKEN = {"seed", "threads", "players", "trace_decay", "race", "trials", "count", "rolls", "top", "starter"}
RULES = st.dictionaries(st.one_of(st.sampled_from(RULE_NAMES), st.text(max_size=12).filter(lambda k: k not in TAKEN)),
                        RULE_VALUES, max_size=3)


def deep(depth: int, opener: str = "[", closer: str = "]") -> str:
    return opener * depth + closer * depth


DEEP_JSON = [deep(200), deep(5_000), deep(100_000), '{"a":' * 5_000 + "1" + "}" * 5_000,
             '{"variant": "backgammon", "checkers": ' + deep(3_000) + "}",
             '{"events": ' + deep(3_000) + "}", "[" * 50_000, '{"a":' * 50_000]


def mutated(base: str) -> st.SearchStrategy:
    """``base`` with a few random edits: characters replaced, slices cut, text put in."""

    @st.composite
    def edit(draw):
        text = base
        for _ in range(draw(st.integers(1, 4))):
            if not text:
                text = draw(st.text(max_size=5))
                continue
            k = draw(st.integers(0, len(text) - 1))
            kind = draw(st.sampled_from(["replace", "cut", "insert", "double"]))
            if kind == "replace":
                text = text[:k] + draw(st.characters()) + text[k + 1:]
            elif kind == "cut":
                text = text[:k] + text[k + draw(st.integers(1, 20)):]
            elif kind == "insert":
                piece = draw(st.one_of(st.text(max_size=6), st.sampled_from(["9999999999999999999999", "-1", ":",
                                                                              "NaN", "1e400", '"', ",", "}"])))
                text = text[:k] + piece + text[k:]
            else:
                text = text[:k] + text[k:] + text[k:]
        return text

    return edit()


# ----- positions and texts to start from -----

POSITIONS = (
    [tavla.Position.start(v) for v in tavla.VARIANTS]
    + [p for v in tavla.VARIANTS for p in random_positions(v, 12, seed=24)]
    + [tavla.Position.start("gulbara", head_rule=True, cascade_after_rolls=0),
       tavla.Position.start("nardy", fence_rule="home"),
       tavla.Position.from_arrays("backgammon", [0] * 24 + [0], [15] + [0] * 24),  # over: I have borne off
       tavla.Position.from_arrays("backgammon", [1] + [0] * 24, [1] + [0] * 24),  # the last race
       tavla.Position.from_arrays("nardy", [1] + [0] * 24, [0] * 18 + [1] + [0] * 6)]
)
A_POSITION = st.sampled_from(POSITIONS)
POSITION_OR_NOT = st.one_of(A_POSITION, A_POSITION, A_POSITION, ANYTHING)

START = tavla.Position.start()
XGID = formats.to_xgid(START, dice=(3, 1), cube_value=2, cube_owner=1, match_length=7, score=(2, 3))
GNUBG = formats.to_gnubg_id(START, dice=(3, 1), match_length=7, score=(2, 3))
FIBS = formats.to_fibs(START, dice=(3, 1))
JSON_POSITIONS = [formats.to_json(p, turn=t, dice=d) for p, t, d in
                  [(POSITIONS[1], 0, None), (POSITIONS[2], 1, (6, 6)), (POSITIONS[-1], 0, (2, 1))]]
LEGACY_JSON = json.dumps({"variant": "backgammon", "mine": [2] + [0] * 24, "theirs": [0] * 23 + [3, 0]})
TEXTS = [XGID, GNUBG, FIBS, LEGACY_JSON, *JSON_POSITIONS]
POSITION_TEXT = st.one_of(
    st.sampled_from(TEXTS), st.sampled_from(TEXTS).flatmap(mutated), st.sampled_from(TEXTS).flatmap(mutated),
    st.sampled_from(GARBAGE_STRINGS), st.sampled_from(DEEP_JSON), st.text(max_size=80),
)


def json_variations(base: Any) -> st.SearchStrategy:
    """``base`` (parsed JSON) with one value somewhere inside replaced by a hostile one, or a key
    removed or added."""
    paths: list[tuple] = []

    def walk(node: Any, path: tuple) -> None:
        paths.append(path)
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, path + (k,))
        elif isinstance(node, list):
            for k, v in enumerate(node):
                walk(v, path + (k,))

    walk(base, ())
    json_values = st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(-3, 30), st.sampled_from(HUGE), st.integers(),
                  st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12),
                  st.sampled_from(["roll", "move", "double", "take", "drop", "beaver", "opening_roll", "resign",
                                   "24/18", "bar/22*", "no move", "backgammon", "nardy", "gulbara", "tavla.match"])),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
        max_leaves=6)

    @st.composite
    def vary(draw):
        doc = json.loads(json.dumps(base))
        for _ in range(draw(st.integers(1, 3))):
            path = draw(st.sampled_from(paths))
            if not path:
                continue
            parent = doc
            try:
                for key in path[:-1]:
                    parent = parent[key]
                kind = draw(st.sampled_from(["replace", "replace", "remove", "add"]))
                if kind == "replace":
                    parent[path[-1]] = draw(json_values)
                elif kind == "remove":
                    del parent[path[-1]]
                elif isinstance(parent, dict):
                    parent[draw(st.text(max_size=8))] = draw(json_values)
                else:
                    parent.append(draw(json_values))
            except (KeyError, IndexError, TypeError):
                continue
        text = json.dumps(doc)
        if draw(st.integers(0, 9)) == 0:
            text = text.replace("0", "1e400", 1)  # an infinite number, which Python's json writes as inf
        return text

    return vary()


def finished_game(variant: str, seed: int) -> str:
    g = tavla.Game(variant, seed=seed)
    g.play_out(seed=seed)
    return g.to_json()


def doubled_game() -> str:
    g = tavla.Game("backgammon", seed=3)
    g.roll_off((6, 5))
    g.play(0)
    g.double()
    g.take()
    g.roll()
    return g.to_json()


GAME_RECORDS = [finished_game(v, 5) for v in tavla.VARIANTS] + [doubled_game(), tavla.Game("nardy").to_json()]
MATCH = tavla.Match("backgammon", 3, seed=4)
MATCH.roll_off((6, 5))
MATCH.play(0)
MATCH_RECORDS = [MATCH.to_json(), tavla.Match("gulbara", 1, seed=2).to_json()]


# ----- positions -----

@fuzz
@given(VARIANT, ANYTHING, ANYTHING, RULES)
def test_position_from_arrays(variant, mine, theirs, rules):
    call(tavla.Position.from_arrays, variant, mine, theirs, **rules)


@fuzz
@given(st.sampled_from(list(tavla.VARIANTS)), st.lists(near(0, 15), min_size=23, max_size=27),
       st.lists(near(0, 15), min_size=23, max_size=27), RULES)
def test_position_from_near_valid_arrays(variant, mine, theirs, rules):
    pos = call(tavla.Position.from_arrays, variant, mine, theirs, **rules)
    if pos is not REFUSED:
        # A position that was accepted can be used: moves, flip, arrays, pickling.
        call(pos.legal_moves, 6, 5)
        assert tavla.Position.from_arrays(pos.variant, *pos.to_arrays(), **pos.rules) == pos
        assert pickle.loads(pickle.dumps(pos)) == pos
        pos.flip(), pos.pip_count(), pos.is_race(), pos.is_game_over()


@fuzz
@given(VARIANT, RULES)
def test_position_start(variant, rules):
    call(tavla.Position.start, variant, **rules)


@fuzz
@given(A_POSITION, DIE, DIE, near(1, 4), near(0, 15))
def test_position_moves(pos, d1, d2, count, head_used):
    call(pos.legal_moves, d1, d2)
    call(pos.legal_positions, d1, d2)
    call(pos.legal_cascade_step, d1, count, head_used)
    call(pos.legal_cascade_step, d1, count=count)
    call(pos.__eq__, d1)


@fuzz
@given(VARIANT, ANYTHING, ANYTHING, ANYTHING)
def test_position_from_state(variant, mine, theirs, rules):
    call(core._position_from_state, variant, mine, theirs, rules)


@fuzz
@given(VARIANT, st.one_of(st.binary(max_size=200), ANYTHING), st.one_of(st.lists(near(1, 6), max_size=8), ANYTHING),
       st.one_of(near(0, 4), BEYOND_THREADS, ANYTHING), RULES)
def test_legal_positions_many_core(variant, boards, dice, threads, rules):
    call(core._legal_positions_many, variant, boards, dice, threads, **rules)


@fuzz
@given(VARIANT, ANYTHING, ANYTHING, near(0, 4), RULES)
def test_legal_positions_many(variant, positions, dice, threads, rules):
    call(tavla.legal_positions_many, variant, positions, dice, threads=threads, **rules)


@fuzz
@given(VARIANT, st.one_of(st.integers(-3, 1), st.sampled_from(HUGE), ANYTHING.filter(lambda v: not is_whole(v, 2, 4))),
       RULES)
def test_perft(variant, depth, rules):
    # Depths 2 to 4 are legal and take seconds to hours; the fuzz keeps to the quick and the refused.
    call(tavla.perft, variant, depth, **rules)


def is_whole(value: Any, low: int, high: int) -> bool:
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        return False
    try:
        return low <= value.__index__() <= high
    except BaseException:
        return False


# ----- position texts -----

@fuzz
@given(POSITION_TEXT)
def test_formats_parse(text):
    call(formats.parse, text)
    call(formats.parse_xgid, text)
    call(formats.parse_gnubg_id, text)
    call(formats.position_from_id, text)
    call(formats.canonical_json, text)
    call(core._parse_position, text)


@fuzz
@given(ANYTHING)
def test_formats_parse_anything(value):
    call(formats.parse, value)
    call(core._parse_position, value)


CONTEXT = st.fixed_dictionaries({}, optional={
    "turn": near(0, 1), "dice": st.one_of(st.none(), st.tuples(DIE, DIE), ANYTHING), "cube_value": near(1, 64),
    "cube_owner": st.one_of(st.none(), near(0, 1)), "match_length": near(0, 64),
    "score": st.one_of(st.tuples(near(0, 64), near(0, 64)), ANYTHING), "crawford": ANYTHING,
    "double_offered": ANYTHING, "jacoby": ANYTHING, "beaver": ANYTHING, "max_cube": near(1, 64),
    "names": st.one_of(st.tuples(st.text(max_size=10), st.text(max_size=10)), ANYTHING),
    "bogus": ANYTHING,
})


@fuzz
@given(POSITION_OR_NOT, CONTEXT)
def test_formats_writers(pos, context):
    for writer in (formats.to_xgid, formats.to_gnubg_id, formats.match_id, formats.to_json):
        text = call(writer, pos, **{k: v for k, v in context.items() if k != "names"})
        if text is not REFUSED and writer is not formats.match_id:
            # What a writer wrote, its reader reads.
            assert call(formats.parse, text) is not REFUSED, (writer.__name__, text)
    call(formats.to_fibs, pos, **context)
    call(formats.position_id, pos)


@fuzz
@given(st.lists(ANYTHING, max_size=16))
def test_write_position_core(args):
    call(core._write_position, *args)


@fuzz
@given(st.sampled_from(["xgid", "gnubg", "position_id", "match_id", "fibs", "json", "", "XGID", "yaml"]), POSITION_OR_NOT,
       near(0, 1), st.one_of(st.none(), st.tuples(DIE, DIE)), near(1, 64), st.one_of(st.none(), near(0, 1)),
       near(0, 64), st.tuples(near(0, 64), near(0, 64)), ANYTHING, ANYTHING, ANYTHING, ANYTHING, near(1, 64),
       st.tuples(st.text(max_size=20), st.text(max_size=20)))
def test_write_position_core_near_valid(form, pos, turn, dice, value, owner, length, score, crawford, offered,
                                        jacoby, beaver, max_cube, names):
    call(core._write_position, form, pos, turn, dice, value, owner, length, score, crawford, offered, jacoby,
         beaver, max_cube, names)


# ----- games and matches -----

GAME_KWARGS = st.fixed_dictionaries({}, optional={
    "seed": near(0, 100), "cube": ANYTHING, "beaver": ANYTHING, "jacoby": ANYTHING, "max_cube": near(1, 64),
    "match_length": near(0, 64), "score": st.one_of(st.tuples(near(0, 64), near(0, 64)), ANYTHING),
    "crawford": ANYTHING,
})


@fuzz
@given(VARIANT, GAME_KWARGS, RULES)
def test_game_new(variant, kwargs, rules):
    game = call(tavla.Game, variant, **{**rules, **kwargs})
    if game is not REFUSED:
        assert tavla.Game.from_json(game.to_json()).to_json() == game.to_json()


@fuzz
@given(POSITION_TEXT, st.fixed_dictionaries({}, optional={"rolls": near(0, 10), "starter": near(0, 1),
                                                          "seed": near(0, 10)}))
def test_game_from_position(text, kwargs):
    game = call(tavla.Game.from_position, text, **kwargs)
    if game is not REFUSED:
        play_a_little(game, seed=1)


def record_texts(records: list[str]) -> st.SearchStrategy:
    return st.one_of(
        st.sampled_from(records).flatmap(lambda r: json_variations(json.loads(r))),
        st.sampled_from(records).flatmap(lambda r: json_variations(json.loads(r))),
        st.sampled_from(records).flatmap(mutated), st.sampled_from(DEEP_JSON), st.sampled_from(GARBAGE_STRINGS),
        st.text(max_size=50), ANYTHING,
    )


@fuzz
@given(record_texts(GAME_RECORDS))
def test_game_from_json(text):
    game = call(tavla.Game.from_json, text)
    call(tavla.Game.replay, text)
    if game is not REFUSED:
        again = tavla.Game.from_json(game.to_json())
        assert again.to_json() == game.to_json()
        play_a_little(game, seed=2)


@fuzz
@given(record_texts(MATCH_RECORDS))
def test_match_from_json(text):
    match = call(tavla.Match.from_json, text)
    if match is not REFUSED:
        assert tavla.Match.from_json(match.to_json()).to_json() == match.to_json()
        for action in ("next_game", "roll_off", "decide_starter", "roll", "double", "take"):
            call(getattr(match, action))
        call(match.play, 0)


def play_a_little(game: Any, seed: int) -> None:
    for _ in range(6):
        if game.is_over:
            return
        if game.phase == "opening_roll":
            call(game.roll_off)
        elif game.phase == "roll":
            call(game.roll)
        elif game.phase == "move":
            call(game.play, 0)
        elif game.phase == "double_offered":
            call(game.take)
        for who in (0, 1):
            call(game.position_for, who)
        call(game.to_xgid), call(game.to_gnubg_id), call(game.to_fibs), call(game.to_position_json)


ACTION = st.one_of(
    st.tuples(st.just("roll"), st.one_of(st.none(), st.none(), st.tuples(DIE, DIE), ANYTHING)),
    st.tuples(st.just("roll_off"), st.one_of(st.none(), st.none(), st.tuples(DIE, DIE), ANYTHING)),
    st.tuples(st.just("decide_starter"), st.none()),
    st.tuples(st.just("begin"), near(0, 1)),
    st.tuples(st.just("play"), st.one_of(st.integers(0, 3), st.integers(0, 3), near(0, 40), st.just("legal"),
                                         st.just("legal"), st.just("foreign"), st.text(max_size=12),
                                         st.sampled_from(["24/18", "8/5 6/5", "bar/22*", "no move", "24/18(2)",
                                                          "6/off", "25/19", "13/7 13/7 13/7 13/7 13/7"]))),
    st.tuples(st.just("entry_status"), st.one_of(st.just("legal"), st.text(max_size=20), st.sampled_from(["24/", "8/5 6"]))),
    st.tuples(st.sampled_from(["double", "take", "beaver", "drop", "why_no_double", "legal_moves", "copy"]), st.none()),
    st.tuples(st.just("suggest"), st.one_of(st.sampled_from(["greedy", "random", "network", "", "greedy:2"]), ANYTHING)),
    st.tuples(st.just("position_for"), near(0, 1)),
    st.tuples(st.just("to_fibs"), ANYTHING),
    st.tuples(st.just("play_out"), st.one_of(st.tuples(st.sampled_from(["random", "greedy"]),
                                                       st.sampled_from(["random", "greedy"])), ANYTHING)),
)
FOREIGN = tavla.Game("backgammon", seed=9)
FOREIGN.roll_off((6, 5))
FOREIGN_MOVE = FOREIGN.legal_moves()[0]


def act(target: Any, name: str, arg: Any, seed: int) -> None:
    """One action on a game or a match; a refused action leaves it unchanged."""
    before = target.to_json()
    method = getattr(target, name)
    if name == "play" and arg in ("legal", "foreign"):
        moves = call(target.legal_moves) or []
        arg = FOREIGN_MOVE if arg == "foreign" or not moves else moves[seed % len(moves)]
    if name == "entry_status" and arg == "legal":
        moves = call(target.legal_moves) or []
        arg = moves[0].notation if moves else ""
    args = () if name in ("double", "take", "beaver", "drop", "why_no_double", "legal_moves", "copy",
                          "decide_starter", "next_game") else (arg,)
    if name == "play_out" and not isinstance(target, tavla.Match):
        result = call(method, *args, seed=seed)
    else:
        result = call(method, *args)
    if result is REFUSED:
        # A refused action changed nothing.
        assert target.to_json() == before, (name, arg)


@fuzz
@given(st.sampled_from(list(tavla.VARIANTS)), st.booleans(), st.integers(0, 2**32), st.lists(ACTION, max_size=25))
def test_game_actions(variant, cube, seed, actions):
    game = tavla.Game(variant, seed=seed, cube=cube)
    for name, arg in actions:
        act(game, name, arg, seed)
        assert tavla.Game.from_json(game.to_json()).to_json() == game.to_json()


MATCH_KWARGS = st.fixed_dictionaries({}, optional={
    "crawford": ANYTHING, "seed": near(0, 100), "cube": ANYTHING, "max_cube": near(1, 64),
    "score": st.one_of(st.tuples(near(0, 64), near(0, 64)), ANYTHING), "crawford_game": ANYTHING,
})


@fuzz
@given(VARIANT, near(1, 64), MATCH_KWARGS, RULES)
def test_match_new(variant, length, kwargs, rules):
    match = call(tavla.Match, variant, length, **{**rules, **kwargs})
    if match is not REFUSED:
        assert tavla.Match.from_json(match.to_json()).to_json() == match.to_json()


@fuzz
@given(st.sampled_from(list(tavla.VARIANTS)), st.integers(1, 5), st.integers(0, 2**32),
       st.lists(st.one_of(ACTION.filter(lambda a: a[0] not in ("begin", "beaver", "why_no_double", "copy",
                                                               "position_for", "to_fibs")),
                          st.tuples(st.just("next_game"), st.none())), max_size=25))
def test_match_actions(variant, length, seed, actions):
    match = tavla.Match(variant, length, seed=seed)
    for name, arg in actions:
        act(match, name, arg, seed)
        assert tavla.Match.from_json(match.to_json()).to_json() == match.to_json()


@fuzz
@given(VARIANT, st.one_of(st.integers(-2, 3), beyond(LIMITS["games"]), ANYTHING.filter(lambda v: not is_whole(v, 4, 2**64))),
       st.fixed_dictionaries({}, optional={"seed": near(0, 10), "players": ANYTHING,
                                           "threads": st.one_of(near(0, 4), BEYOND_THREADS)}), RULES)
def test_simulate_games(variant, games, kwargs, rules):
    # Whole numbers of games from 4 up to the bound play that many games: only the refused ones here.
    call(tavla.simulate_games, variant, games, **{**rules, **kwargs})


# ----- the engine -----

ENGINE_OPTIONS = st.fixed_dictionaries({}, optional={
    "evaluator": st.one_of(st.sampled_from(["network", "heuristic", "pubeval", "pips", "random", ""]), ANYTHING),
    "met": st.one_of(st.sampled_from(["", "/nonexistent.xml", "/", "\x00", "zadeh"]), st.integers(), st.none()),
    "cascade_width": near(1, 2000), "threads": near(0, 4), "bearoff": ANYTHING,
    "filter_min": near(0, 8), "filter_keep": near(1, 8), "filter_margin": st.one_of(st.floats(), ANYTHING),
    "inner_min": near(0, 8), "inner_keep": near(1, 8), "inner_margin": st.one_of(st.floats(), ANYTHING),
})


@fuzz
@given(VARIANT, near(0, 4), ENGINE_OPTIONS, RULES)
def test_engine_new(variant, ply, options, rules):
    engine = call(tavla.Engine, variant, ply, **{**rules, **options})
    if engine is not REFUSED:
        repr(engine), engine.variant, engine.ply, engine.evaluator, engine.met_name


ENGINES = {(v, ply): tavla.Engine(v, ply=ply) for v in tavla.VARIANTS for ply in (0, 1)}
# The bear-off tables are built on first use (a second or more on a busy machine): built here, so that no
# example's DEADLINE counts that (the first bear-off example once ran 2.6 s, then 0.01 s on its retry).
for _variant in ("backgammon", "gulbara"):
    core._bearoff_info(_variant, [0] * 6)
# The bear-off tables are made on first use (seconds in nardy and gul bara): made here, so that no
# example pays for them and trips the deadline.
@pytest.fixture(scope="module", autouse=True)
def warm_up() -> None:
    home_low, home_high = [3] * 5 + [0] * 20, [0] * 18 + [3] * 5 + [0] * 2
    for variant in tavla.VARIANTS:
        for side in (home_low, home_high):
            try:
                pos = tavla.Position.from_arrays(variant, side, side)
            except ValueError:
                continue
            ENGINES[variant, 0].evaluate(pos)


def engine_for(pos: Any, ply: int) -> Any:
    variant = pos.variant if isinstance(pos, tavla.Position) else "backgammon"
    if isinstance(pos, tavla.Position) and pos.rules != tavla.Position.start(variant).rules:
        return tavla.Engine(variant, ply=ply, **pos.rules)
    return ENGINES[variant, ply]


CUBE_KWARGS = st.fixed_dictionaries({}, optional={
    "value": near(1, 64), "owner": st.one_of(st.sampled_from([None, "me", "opponent", "centered", "", "ME"]), ANYTHING),
    "match_length": near(0, 64), "score": st.one_of(st.tuples(near(0, 64), near(0, 64)), ANYTHING),
    "crawford": ANYTHING, "jacoby": ANYTHING, "beaver": ANYTHING, "max_cube": near(1, 64),
})
CUBE = st.one_of(st.none(), st.none(), CUBE_KWARGS.map(lambda kw: call(tavla.CubeState, **kw)), ANYTHING)


@fuzz
@given(CUBE_KWARGS, st.lists(ANYTHING, max_size=9))
def test_cube_state(kwargs, args):
    cube = call(tavla.CubeState, **kwargs)
    call(tavla.CubeState, *args)
    if cube is not REFUSED:
        repr(cube), str(cube), cube.may_double, cube.is_money, cube.is_post_crawford
        call(cube.flip)
        call(cube.doubled)
        assert pickle.loads(pickle.dumps(cube)).value == cube.value


def _maybe_double(d1, d2) -> bool:
    """Whether two generated dice compare equal: a numpy number against a list compares element-wise
    and has no truth value, and such dice are refused anyway, so they count as no double."""
    try:
        return bool(d1 == d2)
    except (ValueError, TypeError):
        return False


@fuzz
@given(POSITION_OR_NOT, DIE, DIE, st.sampled_from([0, 1]),
       st.fixed_dictionaries({}, optional={"top": near(1, 10), "cube": CUBE, "rolls": near(0, 10)}))
def test_engine_hint_and_best_move(pos, d1, d2, ply, kwargs):
    if getattr(pos, "variant", None) == "gulbara" and _maybe_double(d1, d2):
        ply = 0  # a whole cascade searched at 1 ply takes seconds
    engine = engine_for(pos, ply)
    call(engine.hint, pos, d1, d2, **kwargs)
    kwargs.pop("top", None)
    call(engine.best_move, pos, d1, d2, **kwargs)
    if ply == 0:
        call(engine._best_move_nodes, pos, d1, d2)


@fuzz
@given(POSITION_OR_NOT, st.one_of(st.lists(st.tuples(DIE, near(1, 4)), max_size=7), ANYTHING), st.sampled_from([0, 1]))
def test_engine_handover(pos, handover, ply):
    call(engine_for(pos, ply).handover, pos, handover)


@fuzz
@given(POSITION_OR_NOT, CUBE, st.sampled_from([0, 1]))
def test_engine_cube_decision_and_evaluate(pos, cube, ply):
    engine = engine_for(pos, ply)
    call(engine.cube_decision, pos, cube)
    call(engine.evaluate, pos)


@fuzz
@given(near(0, 64), near(0, 64), ANYTHING)
def test_engine_match_equity(away, opponent_away, post_crawford):
    call(ENGINES["backgammon", 0].match_equity, away, opponent_away, post_crawford)
    call(ENGINES["backgammon", 0].match_equity, away, opponent_away)


PROBABILITIES = st.one_of(st.tuples(*[st.floats(-0.5, 1.5)] * 5), st.tuples(*[st.sampled_from(ODD_FLOATS)] * 5),
                          st.lists(st.floats(), max_size=7), ANYTHING)


@fuzz
@given(PROBABILITIES)
def test_evaluation(probabilities):
    evaluation = call(tavla.Evaluation, probabilities)
    if evaluation is not REFUSED:
        repr(evaluation), evaluation.equity, evaluation.probabilities()
        call(evaluation.invert)


@fuzz
@given(POSITION_OR_NOT, PROBABILITIES, CUBE)
def test_cube_decision_from(pos, probabilities, cube):
    call(core._cube_decision_from, pos, probabilities, cube)
    call(core._cube_efficiency, pos)


@fuzz
@given(POSITION_OR_NOT, ANYTHING)
def test_position_functions(pos, race):
    call(core._game_result, pos)
    call(core._pubeval_score, pos, race)
    call(core._pubeval_score, pos)
    call(core.network_probabilities, pos)


@fuzz
@given(VARIANT, st.one_of(st.lists(near(0, 15), min_size=5, max_size=7), ANYTHING), RULES)
def test_bearoff_info(variant, home, rules):
    call(core._bearoff_info, variant, home, **rules)


@fuzz
@given(POSITION_OR_NOT, st.one_of(st.integers(-2, 8), st.sampled_from(HUGE), ANYTHING.filter(lambda v: not is_whole(v, 9, 10**7))),
       near(0, 10), st.one_of(st.integers(-2, 4), BEYOND_THREADS, ANYTHING.filter(lambda v: not is_whole(v, 5, 2**64))))
def test_rollout(pos, trials, seed, threads):
    # Refused trials (0, above 10,000,000) and a few real ones; threads up to 4, or refused.
    call(core.rollout, pos, trials=trials, seed=seed, threads=threads)


@fuzz
@given(VARIANT, st.one_of(st.integers(-2, 4), beyond(LIMITS["positions"]),
                          ANYTHING.filter(lambda v: not is_whole(v, 5, 2**64))), near(0, 10), RULES)
def test_selfplay_positions(variant, count, seed, rules):
    call(core.selfplay_positions, variant, count, seed=seed, **rules)


@fuzz
@given(VARIANT, st.one_of(st.integers(-2, 3), st.sampled_from(ODD_FLOATS), ANYTHING.filter(
    lambda v: not (isinstance(v, (int, float)) and not isinstance(v, bool) and 0.001 < v < math.inf))),
    st.one_of(st.sampled_from(["heuristic", "network", "pubeval", "", "x"]), ANYTHING))
def test_eval_rate(variant, seconds, evaluator):
    # seconds is how long it runs (anything float() takes: an IntLike, a numpy number): a moment, or
    # beyond the bound (refused).
    try:
        long = 0.001 < float(seconds) <= LIMITS["bench_seconds"]
    except BaseException:
        long = False
    call(core._eval_rate, variant, evaluator, 0.001 if long else seconds)


@fuzz
@given(st.one_of(st.lists(VARIANT, max_size=3), ANYTHING), st.one_of(st.lists(near(5, 9), max_size=3), ANYTHING),
       st.one_of(near(0, 4), BEYOND_THREADS))
def test_bench(variants, plies, threads):
    # Plies 0 to 4 run a real benchmark: only refused plies here.
    assume(not (isinstance(plies, (list, tuple)) and any(is_whole(p, 0, 4) for p in plies)))
    call(core._bench, variants, plies, threads)


# Engines that play quickly: a gul bara engine searches its cascades for a tenth of a second a move.
DUEL_PLAYER = st.one_of(st.sampled_from(["random", "Random", "", "gnubg"]),
                        st.sampled_from([ENGINES["backgammon", 0], ENGINES["nardy", 0]]), ANYTHING)


@fuzz
@given(VARIANT, DUEL_PLAYER, DUEL_PLAYER, near(0, 3), st.one_of(st.integers(-2, 2), beyond(LIMITS["games"] // 2),
                                                                ANYTHING.filter(lambda v: not is_whole(v, 3, 2**64))),
       near(0, 3), st.one_of(near(0, 2), BEYOND_THREADS), RULES)
def test_duel_core(variant, p0, p1, first_pair, pairs, seed, threads, rules):
    call(core._duel, variant, p0, p1, first_pair, pairs, seed, threads, **rules)


@fuzz
@given(VARIANT, st.one_of(st.sampled_from(["random", "gnubg:9", "gnubg:x", "heuristic:99", "heuristic:-1", "heuristic:x",
                                           "heuristic:" + "9" * 30, "nonsense:0", ":", ""]), ANYTHING),
       st.one_of(st.integers(-2, 2), ANYTHING.filter(lambda v: not is_whole(v, 3, 10**30))),
       st.fixed_dictionaries({}, optional={"seed": near(0, 3), "threads": near(0, 2)}))
def test_duel(variant, player, games, kwargs):
    call(tavla.duel, variant, player, "random", games, **kwargs)


# ----- training entry points -----

NETS = {v: coach.td_new_network(v, 4, 0) for v in tavla.VARIANTS}
BOARDS = {v: np.array([p.to_arrays() for p in POSITIONS if p.variant == v][:4], dtype=np.int8).tobytes()
          for v in tavla.VARIANTS}
TARGETS = np.full((4, 5), 0.25, dtype="<f4").tobytes()


def mutated_bytes(base: bytes) -> st.SearchStrategy:
    @st.composite
    def edit(draw):
        data = bytearray(base)
        for _ in range(draw(st.integers(1, 4))):
            kind = draw(st.sampled_from(["set", "cut", "extend", "header"]))
            if kind == "set" and data:
                data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
            elif kind == "cut":
                data = data[:draw(st.integers(0, len(data)))]
            elif kind == "extend":
                data += draw(st.binary(max_size=20))
            elif len(data) > 16:  # the header: sizes and counts
                k = draw(st.integers(0, 15))
                data[k:k + 4] = draw(st.sampled_from([b"\xff\xff\xff\xff", b"\x00\x00\x00\x00", b"\xff\xff\xff\x7f",
                                                      b"\x01\x00\x00\x00", b"\x00\x00\x01\x00"]))
        return bytes(data)

    return edit()


NETWORK = st.one_of(st.sampled_from(list(NETS.values())).flatmap(mutated_bytes), st.sampled_from(list(NETS.values())),
                    st.binary(max_size=100), ANYTHING)
BOARD_BYTES = st.one_of(st.sampled_from(list(BOARDS.values())), st.sampled_from(list(BOARDS.values())).flatmap(mutated_bytes),
                        st.binary(max_size=120), ANYTHING)
TARGET_BYTES = st.one_of(st.just(TARGETS), st.just(TARGETS).flatmap(mutated_bytes), st.binary(max_size=100), ANYTHING)
# Games, counts, epochs: a few, or beyond the smallest of their bounds (refused before the work).
SMALL = st.one_of(st.integers(-2, 2), beyond(LIMITS["games"]), ANYTHING.filter(lambda v: not is_whole(v, 3, 2**64)))
RATE = st.one_of(st.sampled_from(ODD_FLOATS), st.floats(), ANYTHING)


@fuzz
@given(NETWORK, VARIANT, BOARD_BYTES, TARGET_BYTES, RULES)
def test_nn_encode_and_error(network, variant, boards, targets, rules):
    call(coach.nn_encode, variant, boards, **rules)
    call(coach.nn_error, network, variant, boards, targets, **rules)


@fuzz
@given(NETWORK, VARIANT, BOARD_BYTES, st.one_of(st.integers(-2, 1), st.integers(4, 6), st.sampled_from(HUGE),
                                                ANYTHING.filter(lambda v: not is_whole(v, 2, 3))),
       near(0, 2), st.one_of(st.none(), NETWORK), SMALL, near(0, 3), st.one_of(st.none(), near(0, 3)))
def test_nn_label_and_rollout_labels(network, variant, boards, ply, threads, race, trials, seed, horizon):
    # Labels at 2 and 3 plies are real searches, seconds for a few gul bara boards: left out.
    call(coach.nn_label, network, variant, boards, ply, threads, race)
    call(coach.nn_rollout_labels, network, variant, boards, trials, seed, threads)
    call(coach.nn_rollout_labels, network, variant, boards, trials, seed, threads, race=race, crashed=race, horizon=horizon)


@fuzz
@given(NETWORK, VARIANT, BOARD_BYTES, TARGET_BYTES, SMALL, RATE, RATE, near(0, 3))
def test_nn_train_supervised(network, variant, boards, targets, epochs, rate, rate_end, seed):
    call(coach.nn_train_supervised, network, variant, boards, targets, epochs, rate, rate_end, seed)


@fuzz
@given(VARIANT, st.one_of(st.integers(-2, 40), st.sampled_from(HUGE), ANYTHING), near(0, 3), NETWORK, SMALL, RATE, RATE, RULES)
def test_td(variant, hidden, seed, network, games, rate, trace_decay, rules):
    call(coach.td_new_network, variant, hidden, seed, **rules)
    call(coach.td_train, network, variant, games, seed, rate, trace_decay, **rules)
    call(coach.td_score_vs_random, network, variant, games, seed, **rules)
    call(coach.nn_selfplay_flat, network, variant, games, seed, **rules)


# ----- found by this fuzzing, fixed in the core -----

def test_handover_with_a_huge_count_is_a_value_error():
    # Engine.handover took Vec<(i64, i64)>: PyO3 raised OverflowError naming no argument.
    with pytest.raises(ValueError, match=r"handover\[0\]\[1\]"):
        ENGINES["gulbara", 0].handover(tavla.Position.start("gulbara"), [(3, 2**63)])


@pytest.mark.parametrize("call_it,fragment", [
    (lambda: core._legal_positions_many("backgammon", bytes(50), [3, 2**64]), r"dice\[1\]"),
    (lambda: core._position_from_state("backgammon", [2**70] + [0] * 24, [0] * 25, {}), r"mine\[0\]"),
    (lambda: core._bearoff_info("backgammon", [0, 0, 0, 0, 0, 10**20]), r"home\[5\]"),
    (lambda: core._bench(["backgammon"], [300]), "ply must be 0 to 4"),
    (lambda: core._bench(["backgammon"], [0], -1), "threads must be 0 to 1024"),
    (lambda: core._duel("backgammon", "random", "random", -1, 1), "first_pair"),
    (lambda: core._duel("backgammon", "random", "random", 0, 1, 2**64), "seed"),
], ids=["legal_positions_many dice", "position_from_state", "bearoff_info home", "bench plies", "bench threads",
        "duel first_pair", "duel seed"])
def test_the_private_helpers_name_a_huge_int(call_it, fragment):
    # They raised OverflowError (PyO3's conversion to a Rust integer), naming no argument.
    with pytest.raises(ValueError, match=fragment):
        call_it()


# ----- match files (.mat) -----

MAT_FILES = [p.read_text() for p in sorted((__import__("pathlib").Path(__file__).parent / "data").glob("*.mat"))]


@fuzz
@given(st.one_of(st.sampled_from(MAT_FILES).flatmap(mutated), st.sampled_from(MAT_FILES).flatmap(mutated),
                 st.sampled_from(MAT_FILES).map(lambda t: t.replace("3 point", "99999999999999999999 point")),
                 st.sampled_from(MAT_FILES).map(lambda t: t.replace(": 0", ": 99999999999999999999", 1)),
                 st.sampled_from(GARBAGE_STRINGS), st.text(max_size=60), ANYTHING))
def test_read_mat(text):
    if not hasattr(formats, "read_mat"):
        pytest.skip("this build has no .mat reader")
    call(formats.read_mat, text)


SGF_FILES = [p.read_text() for p in sorted((__import__("pathlib").Path(__file__).parent / "data" / "gnubg").glob("*.sgf"))]


@fuzz
@given(st.one_of(st.sampled_from(SGF_FILES).flatmap(mutated), st.sampled_from(SGF_FILES).map(str.encode),
                 st.sampled_from(SGF_FILES).map(lambda t: t.replace("[ws:0]", "[ws:99999999999999999999]", 1)),
                 st.sampled_from(SGF_FILES).map(lambda t: t.replace("\n;", "\n(;", 3)),
                 st.sampled_from(GARBAGE_STRINGS), st.binary(max_size=60), st.text(max_size=60), ANYTHING))
def test_read_sgf(data):
    call(formats.read_sgf, data)


MATCH_TEXTS = [formats.write_match_text([g], ("alice", "bob"), 0)
               for g in (tavla.Game.from_json(r) for r in GAME_RECORDS) if g.variant != "backgammon" and g.is_over]


@fuzz
@given(st.one_of(st.sampled_from(MATCH_TEXTS).flatmap(mutated), st.sampled_from(GARBAGE_STRINGS), st.text(max_size=60), ANYTHING))
def test_read_match_text(text):
    call(formats.read_match_text, text)


@fuzz
@given(st.one_of(st.just(MATCH), st.lists(st.sampled_from([tavla.Game.from_json(r) for r in GAME_RECORDS]), max_size=3),
                 ANYTHING),
       st.one_of(st.tuples(st.text(max_size=20), st.text(max_size=20)), ANYTHING), st.one_of(st.none(), near(0, 64)))
def test_write_mat(games, names, length):
    if not hasattr(formats, "write_mat"):
        pytest.skip("this build has no .mat writer")
    text = call(formats.write_mat, games, names, length)
    if text is not REFUSED:
        call(formats.read_mat, text)
