"""``tavla play``: a person against the engine in the terminal, and ``tavla show``.

The person is player 0 (``●``, the bottom of the board). Moves are typed in
the usual notation ("24/18 13/11", "bar/22*", "6/off(2)", "8/4(2)"), all at
once or a part at a time ("24/18", then "13/11"); "undo" takes back the last
part. Typing a number picks from the list that "?" shows. Mistakes are
explained and never lose the game in progress.
"""

from __future__ import annotations

import sys
from typing import Callable, Optional, TextIO

import tavla

from .board import draw

HELP = """commands:
  <move>      e.g. 24/18 13/11, bar/22*, 6/off(2); or one part at a time
  undo        take back the last part of a move being entered
  ?  / moves  list the legal moves (then type a number to pick one)
  hint        show the engine's choice
  roll / r    roll the dice (at the start of your turn)
  double / d  offer a double (before rolling)
  take / pass answer a double (beaver in money play with --beaver)
  quit        leave the game"""


class Quit(Exception):
    pass


class EnginePlayer:
    """The best available player: ``tavla.Engine`` (1-ply) when this build has
    it, else the greedy player. Gul bara cascade steps (which the engine's
    search does not play) are judged by evaluating each step's result; any
    failure of the engine falls back to greedy, so play always goes on."""

    def __init__(self, variant: str, rules: dict):
        self.engine = None
        engine_cls = getattr(tavla, "Engine", None)
        if engine_cls is not None:
            try:
                self.engine = engine_cls(variant, 1, **rules)
            except Exception:
                self.engine = None
        self.name = "engine" if self.engine is not None else "greedy"

    def pick(self, table: "Table") -> int:
        if self.engine is not None:
            try:
                return self._engine_pick(table.game)
            except Exception:
                pass
        return table.suggest("greedy")

    def _engine_pick(self, g: "tavla.Game") -> int:
        moves = g.legal_moves()
        if g.cascade_step is None:
            best = self.engine.best_move(g.position, *g.dice)
            return next(k for k, m in enumerate(moves) if m.position == best.position)
        # After a step the opponent is (in effect) on roll: take the step that leaves it worst off.
        scores = [self.engine.evaluate(m.position.flip()).equity for m in moves]
        return min(range(len(moves)), key=scores.__getitem__)

    def winning_chance(self, position: "tavla.Position") -> Optional[float]:
        """The player on roll's cubeless chance to win, when the engine is here."""
        if self.engine is None:
            return None
        try:
            return float(self.engine.evaluate(position).win)
        except Exception:
            return None


class Table:
    """A game or a match behind one interface."""

    def __init__(self, variant: str, length: int, seed: Optional[int], cube: bool, beaver: bool, rules: dict):
        self.match = tavla.Match(variant, length, seed=seed, cube=cube, **rules) if length > 0 else None
        self.single = None if self.match else tavla.Game(variant, seed=seed, cube=cube, beaver=beaver, **rules)

    @property
    def game(self) -> "tavla.Game":
        return self.match.game if self.match else self.single  # type: ignore[return-value]

    def __getattr__(self, name: str):
        # Actions go to whichever object owns the current game.
        return getattr(self.match if self.match else self.single, name)

    def suggest(self, player: str) -> int:
        if self.match:
            return self.match.suggest(player)
        return self.single.suggest(player, seed=0)  # type: ignore[union-attr]


def cube_text(game: "tavla.Game") -> str:
    owner = {None: "centered", 0: "yours", 1: "engine's"}[game.cube_owner]
    text = f"cube {game.cube_value} ({owner})"
    if game.match_length:
        text += f"   match to {game.match_length}, score {game.score[0]}-{game.score[1]}"
        if game.is_crawford:
            text += " (Crawford game)"
    return text


class Session:
    def __init__(self, table: Table, out: TextIO, read: Callable[[str], str], player: EnginePlayer):
        self.table = table
        self.out = out
        self.read = read
        self.player = player
        self.engine_name = player.name
        self.parts: list[str] = []

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def ask(self, prompt: str) -> str:
        try:
            text = self.read(prompt).strip()
        except EOFError:
            raise Quit() from None
        if text.lower() in ("quit", "exit", "q"):
            raise Quit()
        return text

    def show(self) -> None:
        g = self.table.game
        self.say(draw(g.position_for(0), names=("you", self.engine_name), cube=cube_text(g)))

    # ----- one step of the game -----

    def step(self) -> None:
        g = self.table.game
        phase = g.phase
        if phase == "opening_roll":
            starter = None
            while starter is None:
                starter = self.table.roll_off()
                roll = self.table.game.history[-1]["dice"]
                self.say(f"Opening roll: you {roll[0]}, {self.engine_name} {roll[1]}"
                         + ("" if starter is not None else " - equal, roll again"))
            self.say("You start." if starter == 0 else f"{self.engine_name.capitalize()} starts.")
        elif phase == "roll":
            if g.turn == 0:
                self.your_roll()
            else:
                self.engine_roll()
        elif phase == "double_offered":
            if g.decider == 0:
                self.your_answer()
            else:
                self.engine_answer()
        elif phase == "move":
            if g.turn == 0:
                self.your_move()
            else:
                self.engine_move()

    def your_roll(self) -> None:
        g = self.table.game
        self.show()
        while True:
            text = self.ask("Your turn: roll (r) or double (d)? ").lower()
            if text in ("", "r", "roll"):
                d = self.table.roll()
                self.say(f"You rolled {d[0]}-{d[1]}.")
                return
            if text in ("d", "double"):
                reason = g.why_no_double()
                if reason:
                    self.say(f"You cannot double: {reason}.")
                    continue
                self.table.double()
                self.say(f"You double to {g.cube_value * 2}.")
                return
            if text in ("help", "h"):
                self.say(HELP)
                continue
            self.say(f"{text!r}: type r to roll, d to double, quit to leave.")

    def engine_wants_to_double(self, g: "tavla.Game") -> bool:
        if not g.may_double:
            return False
        win = self.player.winning_chance(g.position)  # the engine is on roll
        if win is not None:
            return 0.70 <= win <= 0.85
        pips = g.position.pip_count()
        return pips[1] - pips[0] > max(12, pips[0] // 8) and g.position.is_race()

    def engine_takes(self, g: "tavla.Game") -> bool:
        win = self.player.winning_chance(g.position)  # you doubled and are on roll
        if win is not None:
            return win < 0.78
        pips = g.position.pip_count()
        return pips[1] - pips[0] <= max(20, pips[0] // 5)

    def engine_roll(self) -> None:
        g = self.table.game
        if self.engine_wants_to_double(g):
            self.table.double()
            self.say(f"{self.engine_name.capitalize()} doubles to {g.cube_value * 2}.")
            return
        d = self.table.roll()
        self.say(f"{self.engine_name.capitalize()} rolls {d[0]}-{d[1]}.")

    def your_answer(self) -> None:
        g = self.table.game
        self.show()
        while True:
            text = self.ask(f"{self.engine_name.capitalize()} doubles to {g.cube_value * 2}: take or pass? ").lower()
            try:
                if text in ("take", "t"):
                    self.table.take()
                    self.say(f"You take; you own the cube at {g.cube_value * 2}.")
                elif text in ("pass", "p", "drop"):
                    self.table.drop()
                    self.say("You pass.")
                elif text in ("beaver", "b"):
                    self.table.beaver()
                    self.say(f"You beaver: the cube is at {g.cube_value * 4} and stays yours.")
                else:
                    self.say("Type take or pass.")
                    continue
                return
            except ValueError as e:
                self.say(f"Not possible: {e}.")

    def engine_answer(self) -> None:
        g = self.table.game
        if self.engine_takes(g):
            self.table.take()
            self.say(f"{self.engine_name.capitalize()} takes.")
        else:
            self.table.drop()
            self.say(f"{self.engine_name.capitalize()} passes.")

    def describe_step(self, g: "tavla.Game") -> str:
        if g.cascade_step:
            die, count = g.cascade_step
            who = " (the engine's unplayed moves)" if g.is_cascade_handover and g.turn == 0 else ""
            return f"cascade: play {count} move(s) of {die}{who}"
        d = g.dice
        return f"dice {d[0]}-{d[1]}"

    def your_move(self) -> None:
        g = self.table.game
        moves = g.legal_moves()
        if len(moves) == 1:
            self.table.play(0)
            m = moves[0]
            self.say("You cannot move." if m.is_pass() else f"Your only move: {m}.")
            return
        self.show()
        self.say(f"Your move, {self.describe_step(g)}.")
        while True:
            so_far = " ".join(self.parts)
            text = self.ask(f"move{' [' + so_far + ' ...]' if so_far else ''}> ")
            low = text.lower()
            if low in ("?", "moves", "list"):
                for k, m in enumerate(moves, 1):
                    self.say(f"{k:3d}. {m}")
                continue
            if low in ("help", "h"):
                self.say(HELP)
                continue
            if low == "hint":
                self.say(f"Hint ({self.engine_name}): {moves[self.player.pick(self.table)]}")
                continue
            if low == "undo":
                if self.parts:
                    self.say(f"Took back {self.parts.pop()}.")
                else:
                    self.say("Nothing to undo: no part of a move entered yet.")
                continue
            if text.isdigit():
                k = int(text)
                if 1 <= k <= len(moves):
                    self.parts = []
                    self.table.play(k - 1)
                    self.say(f"You play {moves[k - 1]}.")
                    return
                self.say(f"Pick a number from 1 to {len(moves)} (type ? for the list).")
                continue
            attempt = " ".join(self.parts + [text])
            try:
                status = self.table.entry_status(attempt)
            except ValueError as e:
                self.say(f"Illegal: {e}")
                continue
            if status == "partial":
                self.parts.append(text)
                continue
            self.table.play(attempt)
            self.parts = []
            played = self.table.game.history[-1]["play"]
            self.say(f"You play {played}.")
            return

    def engine_move(self) -> None:
        g = self.table.game
        k = self.player.pick(self.table)
        m = g.legal_moves()[k]
        label = self.describe_step(g)
        self.table.play(k)
        self.say(f"{self.engine_name.capitalize()} plays {m} ({label}).")

    # ----- whole game / match -----

    def announce_result(self) -> None:
        g = self.table.game
        r = g.result
        if r["winner"] is None:
            self.say("The game is a draw.")
        else:
            who = "You win" if r["winner"] == 0 else f"{self.engine_name.capitalize()} wins"
            how = "by a passed double" if r["ending"] == "cube_passed" else f"a {r['kind']}"
            self.say(f"{who} {how}: {r['points']} point(s).")

    def run(self) -> int:
        self.say(f"tavla: {self.table.game.variant} against {self.engine_name}. Type help for commands.")
        try:
            while True:
                while not self.table.game.is_over:
                    self.step()
                self.show()
                self.announce_result()
                if not self.table.match:
                    return 0
                s = self.table.match.score
                self.say(f"Match score: you {s[0]}, {self.engine_name} {s[1]} (to {self.table.match.length}).")
                if self.table.match.is_over:
                    self.say("You win the match!" if self.table.match.winner == 0 else "You lose the match.")
                    return 0
                self.table.match.next_game()
                self.say(f"Game {self.table.match.game_number}.")
        except Quit:
            self.say("Goodbye.")
            return 0


def play(variant: str, length: int, seed: Optional[int], cube: bool, beaver: bool, rules: dict,
         out: TextIO = sys.stdout, read: Callable[[str], str] = input, save: Optional[str] = None) -> int:
    table = Table(variant, length, seed, cube, beaver, rules)
    try:
        return Session(table, out, read, EnginePlayer(variant, rules)).run()
    finally:
        if save:
            with open(save, "w", encoding="utf-8") as f:
                f.write(table.to_json())
            print(f"Record saved to {save}.", file=out)


def show(text: str, out: TextIO = sys.stdout) -> int:
    info = tavla.formats.parse(text)
    pos = info["position"]
    turn = info["turn"]
    owner = info["cube_owner"]
    cube = f"cube {info['cube_value']} (" + ("centered" if owner is None else f"player {owner}'s") + ")"
    if info["match_length"]:
        cube += f"   match to {info['match_length']}, score {info['score'][0]}-{info['score'][1]}"
        if info["crawford"]:
            cube += " (Crawford game)"
    names = (f"player {turn} (on roll)", f"player {1 - turn}")
    print(draw(pos, names=names, dice=info["dice"], cube=cube), file=out)
    if info["double_offered"]:
        print(f" player {turn} has doubled; player {1 - turn} to take or pass", file=out)
    if pos.variant == "backgammon":
        context = {k: info[k] for k in ("turn", "dice", "cube_value", "cube_owner", "match_length", "score",
                                        "crawford", "double_offered", "jacoby", "beaver", "max_cube")}
        print(" " + tavla.formats.to_xgid(pos, **context), file=out)
        print(" GNU Backgammon ID: " + tavla.formats.to_gnubg_id(pos, **context), file=out)
    return 0
