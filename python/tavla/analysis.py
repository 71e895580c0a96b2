"""Game and match analysis: every checker play and cube decision of a recorded game judged by the
engine at the game's real cube and score, the equity each lost, GNU Backgammon's marks, and per
player the totals, error rates and PR.

A checker play's error is the cubeful equity (normalized to the cube; in a match, through match
winning chances) of the engine's best play minus the played one's, both from the mover's side at
the analysis ply. Cube decisions follow gnubg: the player on roll who may double either doubles or
not, its error measured against the opponent's best answer (``max(ND, min(DT, DP)) - actual``);
the opponent's take or pass is measured against its better answer. Marks: doubtful at 0.04, bad
at 0.08, very bad at 0.16. PR is XG's: 500 times the mean error per decision (unforced moves and
the cube decisions counted here: every roll where a player could double, and every answer).

Luck, as gnubg measures it: a roll's luck is the mover's equity after its best play of the roll
minus the mean of that over every roll it could have had (the opening roll: the 15 non-doubles),
cubeful at the game's cube and score, judged at 0-ply (gnubg's default for luck) whatever the
analysis ply. Rolls are marked lucky at 0.3, very lucky at 0.6 (and unlucky, very unlucky below
their negatives). Cube errors are also counted by kind: wrong doubles (a double that lost equity),
missed doubles, wrong takes and wrong passes.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Union

from .cube_view import cube_for_game

#: gnubg's thresholds of normalized equity lost, largest first.
MARKS = ((0.16, "very bad"), (0.08, "bad"), (0.04, "doubtful"))


def mark(error: float) -> Optional[str]:
    """gnubg's mark for an error: "very bad", "bad", "doubtful" or None."""
    return next((name for limit, name in MARKS if error >= limit), None)


#: gnubg's luck levels (normalized equity), largest first.
LUCK_MARKS = ((0.6, "very lucky"), (0.3, "lucky"))


def luck_mark(luck: float) -> Optional[str]:
    """gnubg's mark for a roll's luck: "very lucky", "lucky", "unlucky", "very unlucky" or None."""
    for limit, name in LUCK_MARKS:
        if luck >= limit:
            return name
        if luck <= -limit:
            return name.replace("lucky", "unlucky")
    return None


#: The kind of cube error a decision with a positive error is.
CUBE_ERROR_OF = {"double": "wrong_doubles", "no double": "missed_doubles", "take": "wrong_takes",
                 "beaver": "wrong_takes", "pass": "wrong_passes"}
CUBE_ERROR_KINDS = ("wrong_doubles", "missed_doubles", "wrong_takes", "wrong_passes")


@dataclass
class Roll:
    """One roll's luck for the player who rolled it."""

    game: int
    player: int
    dice: tuple[int, int]
    luck: float
    mark: Optional[str] = None


@dataclass
class Decision:
    """One judged decision: ``kind`` is "move", "double", "no double", "take" or "pass"."""

    game: int
    player: int
    kind: str
    played: str
    best: str
    error: float
    dice: Optional[tuple[int, int]] = None
    mark: Optional[str] = None
    #: The position the decision was made in, in the package's JSON form (``tavla.formats.to_json``:
    #: players in the game's order, ``turn`` the player on roll or the doubler, the dice of a play).
    position: Optional[dict[str, Any]] = None


@dataclass
class PlayerStats:
    name: str
    unforced_moves: int = 0
    checker_error: float = 0.0
    cube_decisions: int = 0
    cube_error: float = 0.0
    marks: dict[str, int] = field(default_factory=dict)
    #: Cube errors by kind: "wrong_doubles", "missed_doubles", "wrong_takes", "wrong_passes".
    cube_errors: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CUBE_ERROR_KINDS, 0))
    rolls: int = 0
    luck: float = 0.0
    luck_marks: dict[str, int] = field(default_factory=dict)

    @property
    def checker_error_rate(self) -> float:
        """Thousandths of a point lost per unforced move."""
        return 1000.0 * self.checker_error / max(1, self.unforced_moves)

    @property
    def decisions(self) -> int:
        return self.unforced_moves + self.cube_decisions

    @property
    def error_rate(self) -> float:
        """Thousandths of a point lost per decision, checker and cube."""
        return 1000.0 * (self.checker_error + self.cube_error) / max(1, self.decisions)

    @property
    def pr(self) -> float:
        return 500.0 * (self.checker_error + self.cube_error) / max(1, self.decisions)

    @property
    def luck_rate(self) -> float:
        """Thousandths of a point of luck per roll."""
        return 1000.0 * self.luck / max(1, self.rolls)

    def add(self, d: Decision) -> None:
        if d.kind == "move":
            self.unforced_moves += 1
            self.checker_error += d.error
        else:
            self.cube_decisions += 1
            self.cube_error += d.error
            if d.error > 0:
                self.cube_errors[CUBE_ERROR_OF[d.kind]] += 1
        if d.mark:
            self.marks[d.mark] = self.marks.get(d.mark, 0) + 1

    def add_roll(self, r: Roll) -> None:
        self.rolls += 1
        self.luck += r.luck
        if r.mark:
            self.luck_marks[r.mark] = self.luck_marks.get(r.mark, 0) + 1

    def summary(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "unforced_moves": self.unforced_moves,
            "checker_error": round(self.checker_error, 6),
            "checker_error_rate": round(self.checker_error_rate, 3),
            "cube_decisions": self.cube_decisions,
            "cube_error": round(self.cube_error, 6),
            "error_rate": round(self.error_rate, 3),
            "pr": round(self.pr, 3),
            "marks": dict(self.marks),
            **self.cube_errors,
            "rolls": self.rolls,
            "luck": round(self.luck, 6),
            "luck_rate": round(self.luck_rate, 3),
            "luck_marks": dict(self.luck_marks),
        }



CUBE_RULES = {"enabled": True}


def analyze_game(engine: Any, game: Any, number: int = 1, cube_rules: Optional[dict] = None,
                 rolls: Optional[list[Roll]] = None) -> list[Decision]:
    """Every unforced checker play and cube decision of ``game`` (a ``tavla.Game``), judged by
    ``engine``. Forced plays (one legal result) are not decisions. With ``rolls`` (a list), every
    roll's luck is appended to it. The cube is the game's own (its ``cube_rules``: a game played
    without the cube is judged with a dead one) unless ``cube_rules`` names others.

    Every play is judged in the turn driver's state it was made in (``Game.rolls_before``), so a gul
    bara double of the game's first rolls is an ordinary double and a later one a cascade (RULES.md
    4). A cascade is two decisions, as the engine plays it: the mover's whole part (its steps up to
    the handover, judged among every distinct part the engine lists) and the opponent's whole share
    of the handover (see ``_share_decision``)."""
    import tavla

    record = json.loads(game.to_json())
    # The game's own cube rules unless the caller names others: a game played without the cube is
    # judged with a dead one (its plays by the stakes alone), not with a live cube it never had.
    rules = record.get("cube_rules", CUBE_RULES) if cube_rules is None else cube_rules
    events = record["events"]
    states = tavla.Game.replay(game.to_json())
    luck_engine = tavla.Engine(game.variant, ply=0, **game.rules) if rolls is not None else None
    out: list[Decision] = []
    k = 0
    while k < len(events):
        event, before = events[k], states[k]
        kind = event["type"]
        end = k + 1
        if kind == "move" and before.phase == "move":
            step = before.cascade_step
            if step is not None:
                end = _cascade_end(events, states, k)
            if step is None or not before.is_cascade_handover:
                if luck_engine is not None and rolls is not None:
                    opening = k > 0 and events[k - 1]["type"] == "opening_roll"
                    dice = before.dice if step is None else (step[0], step[0])
                    rolls.append(_luck(luck_engine, before, event["player"], dice, number, rules, opening))
                if step is None:
                    out.extend(_checker_decision(engine, before, states[end], event, number, rules))
                else:
                    out.extend(_part_decision(engine, states[k:end + 1], events[k:end], number, rules))
            else:
                out.extend(_share_decision(engine, states[k:end + 1], events[k:end], number, rules))
        elif kind in ("roll", "double") and before.phase == "roll" and before.may_double:
            out.append(_double_decision(engine, before, event, number, rules))
        elif kind in ("take", "pass", "beaver") and before.phase == "double_offered":
            out.append(_answer_decision(engine, before, event, number, rules))
        k = end
    return out


def _cascade_end(events: list, states: list, k: int) -> int:
    """The index of the first event after the gul bara cascade part (or share) whose first step is
    event ``k``: its steps are the player's moves in the same cascade, on the same side of the
    handover."""
    player, handover = events[k]["player"], states[k].is_cascade_handover
    end = k
    while (end < len(events) and events[end]["type"] == "move" and events[end]["player"] == player
           and states[end].cascade_step is not None and states[end].is_cascade_handover == handover):
        end += 1
    return end


def _checker_decision(engine, before, after, event, number, rules) -> Iterable[Decision]:
    """An ordinary play (also a gul bara double of the game's first rolls)."""
    player = event["player"]
    legal = before.legal_moves()
    if len({m.position for m in legal}) < 2:
        return []
    dice = before.dice
    # The turn driver's roll count: whether a gul bara double cascades (and so what the plays are).
    ranked = engine.hint(before.position, *dice, top=len(legal), cube=cube_for_game(before, player, rules),
                         rolls=before.rolls_before)
    played_position = after.position_for(player)
    played = next((c for c in ranked if c.move.position == played_position), None)
    if played is None:
        raise ValueError(f"game {number}: the played {event['play']!r} is not among the engine's plays")
    error = max(0.0, ranked[0].equity - played.equity)
    # The played move in the engine's notation, as the best one is written (a file's may order it otherwise).
    return [Decision(number, player, "move", str(played.move), str(ranked[0].move), error, dice, mark(error),
                     position_json(before, player, dice))]


def _part_decision(engine, states: list, steps: list, number, rules) -> Iterable[Decision]:
    """The mover's whole part of a gul bara cascade: ``states`` from its first step to the state after
    its last, ``steps`` its move events. The engine's hint of the double lists every distinct part
    (its position and handover), unless a number's states ran past the engine's cascade width and the
    played part was pruned by 0-ply: then it is looked up in the hint of the rest of the cascade from
    a later step of it (the same question from there: a cascade from that number), as the engine
    itself replans a part step by step."""
    before, after = states[0], states[-1]
    player = steps[0]["player"]
    die = before.cascade_step[0]
    cube = cube_for_game(before, player, rules)
    ranked = engine.hint(before.position, die, die, top=1 << 20, cube=cube, rolls=before.rolls_before)
    if len(ranked) < 2:
        return []
    played_key = (after.position_for(player), tuple(after.cascade_left) if after.is_cascade_handover else ())
    candidates = ranked
    for state in states[:-1]:
        if state is not before:
            step = state.cascade_step[0]
            candidates = engine.hint(state.position, step, step, top=1 << 20, cube=cube, rolls=state.rolls_before)
        played = next((c for c in candidates if (c.move.position, tuple(c.move.handover)) == played_key), None)
        if played is not None:
            break
    else:
        raise ValueError(f"game {number}: the played cascade {_steps_notation(steps)!r} is not among the engine's plays")
    error = max(0.0, ranked[0].equity - played.equity)
    return [Decision(number, player, "move", _steps_notation(steps), str(ranked[0].move), error, (die, die), mark(error),
                     position_json(before, player, (die, die)))]


def _steps_notation(steps: list) -> str:
    """Cascade steps' move events as "4-4: 24/20(4), 5-5: 20/15(2) 13/8(2)" (the engine's form)."""
    return ", ".join(f"{e['step'][0]}-{e['step'][0]}: {e['play']}" for e in steps)


def _share_decision(engine, states: list, steps: list, number, rules) -> Iterable[Decision]:
    """The opponent's whole share of a gul bara cascade's handover, ``states`` from its first step to
    the state after its last, as the engine chooses it (``Engine.handover`` with the sharer's cube):
    the sharer rolls next, so each share is valued cubefully (as the move errors are) by the
    engine's cube decision of the position after it, from the sharer's side, at its ply: its
    equity after its best cube action there. A share where every step had one legal result is
    forced. ``steps`` are the share's move events."""
    before, after = states[0], states[-1]
    player = steps[0]["player"]
    if all(len({m.position for m in s.legal_moves()}) < 2 for s in states[:-1]):
        return []
    cube = cube_for_game(before, player, rules)
    best = engine.handover(before.position, before.cascade_left, cube=cube)
    played_position = after.position_for(player)
    error = 0.0
    if best.position != played_position:
        error = max(0.0, engine.cube_decision(best.position, cube).equity - engine.cube_decision(played_position, cube).equity)
    die = before.cascade_step[0]
    passed = " ".join(f"{d}x{n}" for d, n in before.cascade_left)
    return [Decision(number, player, "move", f"{_steps_notation(steps)} (share of {passed})", str(best), error, (die, die),
                     mark(error), position_json(before, player, (die, die)))]


def _luck(engine, before, player, dice, number, rules, opening: bool) -> Roll:
    """The luck of ``dice``, the roll ``before`` is to play, for ``player`` (see the module's
    documentation); a gul bara roll is judged in the turn driver's state (``rolls_before``)."""
    position = before.position
    cube = cube_for_game(before, player, rules)
    rolls_before = before.rolls_before

    def best(d1: int, d2: int) -> float:
        return engine.hint(position, d1, d2, top=1, cube=cube, rolls=rolls_before)[0].equity

    # The 21 rolls (doubles once, the others twice) or the opening roll's 15 non-doubles.
    rolls = [(a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7) if not (opening and a == b)]
    mean = sum(w * best(a, b) for a, b, w in rolls) / sum(w for _, _, w in rolls)
    d1, d2 = dice
    luck = best(d1, d2) - mean
    return Roll(number, player, (d1, d2), luck, luck_mark(luck))


def _double_decision(engine, before, event, number, rules) -> Decision:
    player = before.turn
    # The turn driver's roll count: a gul bara double of the game's first rolls does not cascade.
    d = engine.cube_decision(before.position, cube_for_game(before, player, rules), rolls=before.rolls_before)
    doubled = event["type"] == "double"
    answered = min(d.double_take, d.double_pass)
    best = max(d.no_double, answered)
    actual = answered if doubled else d.no_double
    error = max(0.0, best - actual)
    return Decision(number, player, "double" if doubled else "no double", "double" if doubled else "no double",
                    d.action, error, None, mark(error), position_json(before, player, None))


def _answer_decision(engine, before, event, number, rules) -> Decision:
    doubler = before.turn
    d = engine.cube_decision(before.position, cube_for_game(before, doubler, rules), rolls=before.rolls_before)
    took = event["type"] in ("take", "beaver")
    # From the doubler's side: the taker wants the smaller of DT and DP.
    error = max(0.0, (d.double_take if took else d.double_pass) - min(d.double_take, d.double_pass))
    best = "take" if d.should_take else "pass"
    return Decision(number, 1 - doubler, event["type"], event["type"], best, error, None, mark(error),
                    position_json(before, doubler, None))


def position_json(game: Any, turn: int, dice: Optional[tuple[int, int]]) -> dict[str, Any]:
    """``game``'s position (seen from ``turn``, its player on roll or doubler) in the JSON form, with
    the cube and the score."""
    from . import formats

    match = game.match_length > 0
    return json.loads(formats.to_json(game.position, turn=turn, dice=dice, cube_value=game.cube_value,
                                      cube_owner=game.cube_owner, match_length=game.match_length,
                                      score=tuple(game.score) if match else (0, 0),
                                      crawford=bool(game.is_crawford) and match))


def analyze_match(engine: Any, mat: dict[str, Any], progress: Optional[Callable[[int, int], None]] = None,
                  luck: bool = True) -> dict[str, Any]:
    """A match read by ``tavla.formats.read_mat`` (or ``read_sgf``, or ``read_match_text`` for long
    nardy and gul bara): every decision and roll, and per player the totals. Returns
    ``{"match_length", "final_score", "players": [summary, summary], "decisions", "rolls"}``.
    ``progress(done, total)`` is called after each game. ``luck=False`` skips the rolls' luck (21
    hints a roll: in gul bara, each double a cascade, most of the analysis's time)."""
    players = [PlayerStats(name) for name in mat["players"]]
    decisions: list[Decision] = []
    rolls: list[Roll] = []
    games = mat["games"]
    for number, played in enumerate(games, start=1):
        game_rolls: list[Roll] = []
        for d in analyze_game(engine, played["game"], number, rolls=game_rolls if luck else None):
            players[d.player].add(d)
            decisions.append(d)
        for r in game_rolls:
            players[r.player].add_roll(r)
        rolls.extend(game_rolls)
        if progress is not None:
            progress(number, len(games))
    return {
        "match_length": mat["length"],
        "final_score": list(mat["score"]),
        "players": [p.summary() for p in players],
        "decisions": [asdict(d) for d in decisions],
        "rolls": [asdict(r) for r in rolls],
    }


#: The largest match file read (gnubg's .sgf carries its own analysis, tens of kilobytes a game).
MAX_FILE_BYTES = 16 << 20


def match_file_kind(name: str, data: bytes) -> Optional[str]:
    """"sgf", "mat" or "text" (the match text of the other variants) by the file's extension, else
    by its content; None when it is none of them."""
    suffix = Path(name).suffix.lower()
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:4096]
    if b"[Variation " in head:
        return "text"
    if suffix in (".sgf", ".mat"):
        return suffix[1:]
    if head.startswith(b"(;"):
        return "sgf"
    if b"point match" in head or b"\nGame 1" in head or b" Game 1" in head:
        return "mat"
    return None


def read_match_file(path: Union[str, Path]) -> dict[str, Any]:
    """A match file read and replayed: a Jellyfish ``.mat``, a GNU Backgammon ``.sgf`` (by the
    extension, else by the content) or a match text of long nardy, gul bara, Dutch backgammon or acey-deucey (its ``Variation`` tag), in
    ``tavla.formats.read_mat``'s shape (a match text's also has ``variant`` and ``rules``). Errors are ValueErrors
    naming the file: one that cannot be read, is too big, is of another format, or that the reader
    refuses (naming the line)."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ValueError(f"{path}: {size} bytes is over the {MAX_FILE_BYTES >> 20} MiB limit of a match file")
        # A device or a pipe reports no size (/dev/zero, `<(cat match.mat)`): read one byte past the limit, no more.
        with path.open("rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise ValueError(f"{path}: {e.strerror or e}") from None
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"{path}: over the {MAX_FILE_BYTES >> 20} MiB limit of a match file")
    try:
        return read_match_data(path.name, data)
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None


#: The formats ``read_match_data`` reads, by ``match_file_kind``'s names.
MATCH_FORMATS = ("mat", "sgf", "text")


def read_match_data(name: str, data: bytes, kind: Optional[str] = None) -> dict[str, Any]:
    """A match file's bytes read and replayed, as ``read_match_file`` does (``name`` is only for the
    format's detection by extension): of format ``kind`` (one of MATCH_FORMATS), or by
    ``match_file_kind``. ValueErrors say what is wrong (the reader's name the line)."""
    from . import formats

    if kind is None:
        kind = match_file_kind(name, data)
    if kind is None:
        raise ValueError("not a match file tavla reads (a Jellyfish .mat, a GNU Backgammon .sgf, "
                         "or a match text of another variant)")
    if kind not in MATCH_FORMATS:
        raise ValueError(f"format must be one of {', '.join(MATCH_FORMATS)}, not {kind!r}")
    if kind == "sgf":
        return formats.read_sgf(data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return formats.read_match_text(text) if kind == "text" else formats.read_mat(text)


def match_engine(match: dict[str, Any], ply: int) -> Any:
    """The engine that analyses ``match`` (``read_match_data``'s): its variant and rule options."""
    import tavla

    return tavla.Engine(match.get("variant", "backgammon"), ply=ply, **match.get("rules", {}))
