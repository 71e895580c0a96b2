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
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterable, Optional, Union

from .cube_view import cube_for_game

#: gnubg's thresholds of normalized equity lost, largest first.
MARKS = ((0.16, "very bad"), (0.08, "bad"), (0.04, "doubtful"))


def mark(error: float) -> Optional[str]:
    """gnubg's mark for an error: "very bad", "bad", "doubtful" or None."""
    return next((name for limit, name in MARKS if error >= limit), None)


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


@dataclass
class PlayerStats:
    name: str
    unforced_moves: int = 0
    checker_error: float = 0.0
    cube_decisions: int = 0
    cube_error: float = 0.0
    marks: dict[str, int] = field(default_factory=dict)

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

    def add(self, d: Decision) -> None:
        if d.kind == "move":
            self.unforced_moves += 1
            self.checker_error += d.error
        else:
            self.cube_decisions += 1
            self.cube_error += d.error
        if d.mark:
            self.marks[d.mark] = self.marks.get(d.mark, 0) + 1

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
        }


CUBE_RULES = {"enabled": True}


def analyze_game(engine: Any, game: Any, number: int = 1, cube_rules: Optional[dict] = None) -> list[Decision]:
    """Every unforced checker play and cube decision of ``game`` (a ``tavla.Game``), judged by
    ``engine``. Forced plays (one legal result) are not decisions."""
    import tavla

    rules = CUBE_RULES if cube_rules is None else cube_rules
    record = json.loads(game.to_json())
    states = tavla.Game.replay(game.to_json())
    out: list[Decision] = []
    for k, event in enumerate(record["events"]):
        before, after = states[k], states[k + 1]
        kind = event["type"]
        if kind == "move" and before.phase == "move" and before.cascade_step is None:
            out.extend(_checker_decision(engine, before, after, event, number, rules))
        elif kind in ("roll", "double") and before.phase == "roll" and before.may_double:
            out.append(_double_decision(engine, before, event, number, rules))
        elif kind in ("take", "pass", "beaver") and before.phase == "double_offered":
            out.append(_answer_decision(engine, before, event, number, rules))
    return out


def _checker_decision(engine, before, after, event, number, rules) -> Iterable[Decision]:
    player = event["player"]
    legal = before.legal_moves()
    if len({m.position for m in legal}) < 2:
        return []
    dice = before.dice
    ranked = engine.hint(before.position, *dice, top=len(legal), cube=cube_for_game(before, player, rules))
    played_position = after.position_for(player)
    played = next((c for c in ranked if c.move.position == played_position), None)
    if played is None:
        raise ValueError(f"game {number}: the played {event['play']!r} is not among the engine's plays")
    error = max(0.0, ranked[0].equity - played.equity)
    return [Decision(number, player, "move", event["play"], str(ranked[0].move), error, dice, mark(error))]


def _double_decision(engine, before, event, number, rules) -> Decision:
    player = before.turn
    d = engine.cube_decision(before.position, cube_for_game(before, player, rules))
    doubled = event["type"] == "double"
    answered = min(d.double_take, d.double_pass)
    best = max(d.no_double, answered)
    actual = answered if doubled else d.no_double
    error = max(0.0, best - actual)
    return Decision(number, player, "double" if doubled else "no double", "double" if doubled else "no double",
                    d.action, error, None, mark(error))


def _answer_decision(engine, before, event, number, rules) -> Decision:
    doubler = before.turn
    d = engine.cube_decision(before.position, cube_for_game(before, doubler, rules))
    took = event["type"] in ("take", "beaver")
    # From the doubler's side: the taker wants the smaller of DT and DP.
    error = max(0.0, (d.double_take if took else d.double_pass) - min(d.double_take, d.double_pass))
    best = "take" if d.should_take else "pass"
    return Decision(number, 1 - doubler, event["type"], event["type"], best, error, None, mark(error))


def analyze_match(engine: Any, mat: dict[str, Any]) -> dict[str, Any]:
    """A match read by ``tavla.formats.read_mat`` (or ``read_sgf``, or ``read_match_text`` for long
    nardy; not gul bara yet): every decision, and per player the totals.
    Returns ``{"match_length", "final_score", "players": [summary, summary], "decisions"}``."""
    if mat.get("variant") == "gulbara":
        # Engine.hint plays every gul bara double as a cascade, while a game's first rolls do not
        # cascade: its hints cannot judge those turns yet.
        raise ValueError("the analysis does not judge gul bara matches yet: the engine's hints play every double "
                         "as a cascade, also in the first rolls where a gul bara double does not cascade")
    players = [PlayerStats(name) for name in mat["players"]]
    decisions: list[Decision] = []
    for number, played in enumerate(mat["games"], start=1):
        for d in analyze_game(engine, played["game"], number):
            players[d.player].add(d)
            decisions.append(d)
    return {
        "match_length": mat["length"],
        "final_score": list(mat["score"]),
        "players": [p.summary() for p in players],
        "decisions": [asdict(d) for d in decisions],
    }


#: The largest match file read (gnubg's .sgf carries its own analysis, tens of kilobytes a game).
MAX_FILE_BYTES = 16 << 20


def match_file_kind(name: str, data: bytes) -> Optional[str]:
    """"sgf", "mat" or "text" (the long nardy and gul bara match text) by the file's extension, else
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
    extension, else by the content) or a long nardy or gul bara match text (its ``Variation`` tag), in
    ``tavla.formats.read_mat``'s shape (a match text's also has ``variant`` and ``rules``). Errors are ValueErrors
    naming the file: one that cannot be read, is too big, is of another format, or that the reader
    refuses (naming the line)."""
    from . import formats

    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ValueError(f"{path}: {size} bytes is over the {MAX_FILE_BYTES >> 20} MiB limit of a match file")
        data = path.read_bytes()
    except OSError as e:
        raise ValueError(f"{path}: {e.strerror or e}") from None
    kind = match_file_kind(path.name, data)
    if kind is None:
        raise ValueError(f"{path}: not a match file tavla reads (a Jellyfish .mat, a GNU Backgammon .sgf, "
                         "or a long nardy or gul bara match text)")
    try:
        if kind == "sgf":
            return formats.read_sgf(data)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
        return formats.read_match_text(text) if kind == "text" else formats.read_mat(text)
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None
