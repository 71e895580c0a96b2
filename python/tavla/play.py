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
from .cube_view import candidate_lines, cube_for_game, decision_lines, game_cube_rules

HELP = """commands:
  <move>      e.g. 24/18 13/11, bar/22*, 6/off(2); or one part at a time
  undo        take back the last part of a move being entered
  ?  / moves  list the legal moves (then type a number to pick one)
  hint        the engine's advice: its cube decision before you roll (when
              you may double), take or pass when doubled, else its ranking
              of your plays by cubeful equity
  roll / r    roll the dice (at the start of your turn)
  double / d  offer a double (before rolling)
  take / pass answer a double (beaver in money play with --beaver)
  quit        leave the game"""


class Quit(Exception):
    pass


class EnginePlayer:
    """The best available player: ``tavla.Engine`` (1-ply) when this build has
    it, else the greedy player. Plays are chosen by cubeful equity and the
    cube is handled by ``Engine.cube_decision``, both with the game's real
    cube state and score. Gul bara cascade steps (which the engine's search
    does not play) are judged by evaluating each step's result; any failure of
    the engine falls back to greedy play (and a plain race rule for the cube),
    so play always goes on."""

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
                return self._engine_pick(table)
            except Exception:
                pass
        return table.suggest("greedy")

    def _engine_pick(self, table: "Table") -> int:
        g = table.game
        moves = g.legal_moves()
        if g.cascade_step is None:
            best = self.engine.best_move(g.position, *g.dice, cube=table.cube_for(g.turn))
            return next(k for k, m in enumerate(moves) if m.position == best.position)
        # After a step the opponent is (in effect) on roll: take the step that leaves it worst off.
        scores = [self.engine.evaluate(m.position.flip()).equity for m in moves]
        return min(range(len(moves)), key=scores.__getitem__)

    def cube_decision(self, table: "Table", player: int) -> Optional["tavla.CubeDecision"]:
        """The engine's cube decision for ``player`` as the side on roll (or as the doubler while a
        double is offered), with the game's cube state and score; None without the engine."""
        if self.engine is None:
            return None
        try:
            g = table.game
            return self.engine.cube_decision(g.position_for(player), table.cube_for(player))
        except Exception:
            return None

    def ranked(self, table: "Table", top: int = 5) -> Optional[list]:
        """The engine's ranking of the current roll's plays by cubeful equity; None for cascade
        steps or without the engine."""
        g = table.game
        if self.engine is None or g.cascade_step is not None or g.dice is None:
            return None
        try:
            return self.engine.hint(g.position, *g.dice, top=top, cube=table.cube_for(g.turn))
        except Exception:
            return None

    def wants_to_double(self, table: "Table") -> bool:
        """Whether the player on roll (the engine) doubles now. Never when the rules refuse it."""
        g = table.game
        if not g.may_double:
            return False
        d = self.cube_decision(table, g.turn)
        if d is not None:
            return bool(d.should_double) and d.cube.may_double
        pos = g.position  # no engine: double a clear race lead only
        pips = pos.pip_count()
        return pos.is_race() and pips[1] - pips[0] > max(12, pips[0] // 8)

    def answer(self, table: "Table") -> str:
        """"take", "beaver" or "pass" to the double the other player (on roll) has offered."""
        g = table.game
        doubler = g.turn
        d = self.cube_decision(table, doubler)
        if d is not None:
            if d.should_beaver and table.beaver_allowed:
                return "beaver"
            return "take" if d.should_take else "pass"
        pips = g.position.pip_count()
        return "take" if pips[1] - pips[0] <= max(20, pips[0] // 5) else "pass"


class Table:
    """A game or a match behind one interface."""

    def __init__(self, variant: str, length: int, seed: Optional[int], cube: bool, beaver: bool, rules: dict,
                 jacoby: bool = False, max_cube: int = 64, start: Optional[str] = None):
        if start is not None:
            # One game continuing from a position text (its cube, score and cube rules with it).
            self.match = None
            self.single = tavla.Game.from_position(start, seed=seed)
        elif length > 0:
            self.match = tavla.Match(variant, length, seed=seed, cube=cube, max_cube=max_cube, **rules)
            self.single = None
        else:
            self.match = None
            self.single = tavla.Game(variant, seed=seed, cube=cube, beaver=beaver, jacoby=jacoby,
                                     max_cube=max_cube, **rules)
        # The cube rules do not change during a game or match: read them once from the record.
        self.cube_rules = game_cube_rules(self.game)

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

    @property
    def beaver_allowed(self) -> bool:
        return bool(self.cube_rules["beaver"]) and self.game.match_length == 0

    def cube_for(self, player: int) -> "tavla.CubeState":
        """The current game's cube state seen from ``player``."""
        return cube_for_game(self.game, player, self.cube_rules)


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
        except EOFError:  # Ctrl-D, or the end of piped input: leave as "quit" does, on a new line
            self.say("")
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
            if text == "hint":
                self.cube_hint()
                continue
            self.say(f"{text!r}: type r to roll, d to double, hint for advice, quit to leave.")

    def engine_roll(self) -> None:
        g = self.table.game
        if self.player.wants_to_double(self.table):
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
                elif text == "hint":
                    self.cube_hint(answering=True)
                    continue
                else:
                    self.say("Type take or pass.")
                    continue
                return
            except ValueError as e:
                self.say(f"Not possible: {e}.")

    def engine_answer(self) -> None:
        g = self.table.game
        answer = self.player.answer(self.table)
        if answer == "beaver":
            try:
                self.table.beaver()
                self.say(f"{self.engine_name.capitalize()} beavers: the cube is at {g.cube_value * 4} "
                         f"and stays with {self.engine_name}.")
                return
            except ValueError:
                answer = "take"
        if answer == "take":
            self.table.take()
            self.say(f"{self.engine_name.capitalize()} takes.")
        else:
            self.table.drop()
            self.say(f"{self.engine_name.capitalize()} passes.")

    # ----- the engine's advice to you -----

    def cube_hint(self, answering: bool = False) -> None:
        """The engine's cube decision for you before rolling, or (``answering``) for the double the
        engine has offered you."""
        g = self.table.game
        player = 1 if answering else 0
        d = self.player.cube_decision(self.table, player)
        if d is None:
            self.say("Hint: no engine in this build to judge the cube.")
            return
        if answering:
            word = "beaver" if d.should_beaver and self.table.beaver_allowed else "take" if d.should_take else "pass"
            self.say(f"Hint ({self.engine_name}): {word}.")
            for line in decision_lines(d, self.engine_name):
                self.say("  " + line)
            return
        for line in decision_lines(d, "you"):
            self.say("  " + line)
        if not g.may_double:
            self.say(f"  (You cannot double now: {g.why_no_double()}.)")

    def move_hint(self, moves: list) -> None:
        ranked = self.player.ranked(self.table)
        if not ranked:
            self.say(f"Hint ({self.engine_name}): {moves[self.player.pick(self.table)]}")
            return
        cube = self.table.cube_for(self.table.game.turn)
        self.say(f"Hint ({self.engine_name}, {ranked[0].ply}-ply, cubeful: {cube}):")
        for line in candidate_lines(ranked):
            self.say("  " + line)

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
                self.move_hint(moves)
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
        except KeyboardInterrupt:  # Ctrl-C at a prompt or while the engine thinks: leave without a traceback
            self.say("\nGoodbye.")
            return 130


def play(variant: str, length: int, seed: Optional[int], cube: bool, beaver: bool, rules: dict,
         out: TextIO = sys.stdout, read: Callable[[str], str] = input, save: Optional[str] = None,
         jacoby: bool = False, max_cube: int = 64, start: Optional[str] = None) -> int:
    table = Table(variant, length, seed, cube, beaver, rules, jacoby=jacoby, max_cube=max_cube, start=start)
    game = table.game
    try:
        return Session(table, out, read, EnginePlayer(game.variant, dict(game.rules))).run()
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
