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
from .files import write_atomic

HELP = """commands:
  <move>      e.g. 24/18 13/11, bar/22*, 6/off(2), reserve/20; or one part
              at a time; an acey-deucey 1-2 names its number:
              reserve/24 reserve/23 named 6: 24/18 23/17 reserve/19(2)
  undo        take back the last part of a move being entered
  ?  / moves  list the legal moves (then type a number to pick one)
  hint        the engine's advice: its cube decision before you roll (when
              you may double), take or pass when doubled, else its ranking
              of your plays by cubeful equity (in a gul bara cascade: of
              the whole rest of it, or your best share of a handover)
  roll / r    roll the dice (at the start of your turn)
  double / d  offer a double (before rolling)
  take / pass answer a double (beaver in money play with --beaver)
  quit        leave the game"""


class Quit(Exception):
    pass


def checked_plan(game: "tavla.Game", part) -> Optional[list]:
    """The steps of a whole-cascade ``part`` (the engine's rest of the cascade being played, from the
    current step on) as ``(number, position)``, each played on a copy of the game so that the game's own
    turn driver says it is legal. None when one is not (or the part does not start at the step being
    played)."""
    steps = list(part.cascade_steps)
    step = game.cascade_step
    if step is None or not steps or steps[0][0] != step[0]:
        return None
    trial = game.copy()
    plan = []
    for number, step in steps:
        try:
            trial.play(step)
        except ValueError:
            return None
        plan.append((number, step.position))
    return plan


class EnginePlayer:
    """The best available player: ``tavla.Engine`` (1-ply), or the greedy player should no engine be
    made for the rules. Plays are chosen by cubeful equity and the cube is handled by
    ``Engine.cube_decision``, both with the game's real cube state and score. A gul bara cascade is
    one decision: the engine's whole part (``Engine.best_move`` with the game's rolls) or its best
    share of a handover (``Engine.handover``) is chosen once, at its first step, and then played step
    by step. Any failure of the engine falls back to greedy play (and a plain race rule for the
    cube), so play always goes on."""

    def __init__(self, variant: str, rules: dict):
        self.engine: Optional[tavla.Engine]
        try:
            self.engine = tavla.Engine(variant, 1, **rules)
        except Exception:
            self.engine = None
        self.name = "engine" if self.engine is not None else "greedy"
        # The cascade part being played: its remaining steps as (the game's history length when the step
        # is due, number, position after the step).
        self.plan: list = []

    def pick(self, table: "Table") -> int:
        """The index of the engine's play among the game's legal moves (or of its cascade step)."""
        if self.engine is not None:
            try:
                return self._engine_pick(self.engine, table)
            except Exception:
                self.plan = []
        return table.suggest("greedy")

    def _engine_pick(self, engine: "tavla.Engine", table: "Table") -> int:
        g = table.game
        moves = g.legal_moves()
        if g.cascade_step is None:
            self.plan = []
            if g.dice is None:
                raise LookupError("no roll to play")
            best = engine.best_move(g.position, *g.dice, rolls=g.rolls_before, cube=table.cube_for(g.turn))
            # An acey-deucey 1-2 is told apart by its named number too.
            return next(k for k, m in enumerate(moves)
                        if m.position == best.position and m.named == best.named and m.rolls_again == best.rolls_again)
        k = self._planned(g, moves)
        if k is None:  # the first step of a part or share (or the plan went astray): choose the whole of it
            part = self.cascade_part(table)
            steps = (checked_plan(g, part) if part is not None else None) or []
            # Each step played adds one event to the game's history.
            self.plan = [(len(g.history) + k, number, pos) for k, (number, pos) in enumerate(steps)]
            k = self._planned(g, moves)
        if k is None:
            if len(moves) == 1:
                return 0
            raise LookupError("no legal step matches the engine's cascade")
        self.plan.pop(0)
        return k

    def _planned(self, g: "tavla.Game", moves: list) -> Optional[int]:
        """The legal move that is the plan's next step, if the plan is for the step being played (the
        game's history as long as the plan expects, the same number)."""
        if not self.plan:
            return None
        at, number, target = self.plan[0]
        step = g.cascade_step
        if at != len(g.history) or step is None or number != step[0]:
            return None
        return next((k for k, m in enumerate(moves) if m.position == target), None)

    def cascade_part(self, table: "Table"):
        """The engine's choice for the rest of the gul bara cascade being played, as one Move with
        ``cascade_steps``: the mover's part from the current step on (``Engine.best_move`` of the step's
        number as a double, with the game's rolls), or the best share of what is handed over
        (``Engine.handover``, by the sharer's cubeful value). None without the engine or outside a cascade."""
        g = table.game
        if self.engine is None or g.cascade_step is None:
            return None
        if g.is_cascade_handover:
            return self.engine.handover(g.position, g.cascade_left, cube=table.cube_for(g.turn))
        die = g.cascade_step[0]
        return self.engine.best_move(g.position, die, die, rolls=g.rolls_before, cube=table.cube_for(g.turn))

    def cascade_advice(self, table: "Table", top: int = 5) -> Optional[tuple[str, list]]:
        """For the person's hint during a cascade: ("part", the engine's best candidates for the rest of
        the mover's part, those whose steps are legal here) or ("share", [the best share's Move]).
        None without the engine or when nothing fits."""
        g = table.game
        if self.engine is None or g.cascade_step is None:
            return None
        try:
            if g.is_cascade_handover:
                share = self.engine.handover(g.position, g.cascade_left, cube=table.cube_for(g.turn))
                return ("share", [share]) if checked_plan(g, share) else None
            die = g.cascade_step[0]
            ranked = self.engine.hint(g.position, die, die, top=top, rolls=g.rolls_before,
                                      cube=table.cube_for(g.turn))
            ranked = [c for c in ranked if checked_plan(g, c.move)]
            return ("part", ranked) if ranked else None
        except Exception:
            return None

    def cube_decision(self, table: "Table", player: int) -> Optional["tavla.CubeDecision"]:
        """The engine's cube decision for ``player`` as the side on roll (or as the doubler while a
        double is offered), with the game's cube state and score; None without the engine."""
        if self.engine is None:
            return None
        try:
            g = table.game
            return self.engine.cube_decision(g.position_for(player), table.cube_for(player), rolls=g.rolls_before)
        except Exception:
            return None

    def ranked(self, table: "Table", top: int = 5) -> Optional[list]:
        """The engine's ranking of the current roll's plays by cubeful equity; None for cascade
        steps (see ``cascade_advice``) or without the engine."""
        g = table.game
        if self.engine is None or g.cascade_step is not None or g.dice is None:
            return None
        try:
            return self.engine.hint(g.position, *g.dice, top=top, rolls=g.rolls_before, cube=table.cube_for(g.turn))
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
        # Exactly one of the two is set.
        self.match: Optional[tavla.Match]
        self.single: Optional[tavla.Game]
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
        # The cube's value before the answer: a money game's Game is the live object (a match's is a
        # copy), so its cube_value has already changed once the take or beaver is made.
        value = self.table.game.cube_value
        beaver = self.table.beaver_allowed and not self.table.game.why_no_beaver()
        self.show()
        while True:
            text = self.ask(f"{self.engine_name.capitalize()} doubles to {value * 2}"
                            f"{' (beavers allowed)' if beaver else ''}: take or pass? ").lower()
            try:
                if text in ("take", "t"):
                    self.table.take()
                    self.say(f"You take; you own the cube at {value * 2}.")
                elif text in ("pass", "p", "drop"):
                    self.table.drop()
                    self.say("You pass.")
                elif text in ("beaver", "b"):
                    self.table.beaver()
                    self.say(f"You beaver: the cube is at {value * 4} and stays yours.")
                elif text == "hint":
                    self.cube_hint(answering=True)
                    continue
                else:
                    self.say("Type take, pass or beaver." if beaver else "Type take or pass.")
                    continue
                return
            except ValueError as e:
                self.say(f"Not possible: {e}.")

    def engine_answer(self) -> None:
        value = self.table.game.cube_value  # before the answer changes it (see your_answer)
        answer = self.player.answer(self.table)
        if answer == "beaver":
            try:
                self.table.beaver()
                self.say(f"{self.engine_name.capitalize()} beavers: the cube is at {value * 4} "
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
            self.say("Hint: the engine could not judge the cube.")
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
        g = self.table.game
        if g.cascade_step is not None:
            self.cascade_hint()
            return
        ranked = self.player.ranked(self.table)
        if not ranked:
            self.say(f"Hint ({self.engine_name}): {moves[self.player.pick(self.table)]}")
            return
        cube = self.table.cube_for(self.table.game.turn)
        self.say(f"Hint ({self.engine_name}, {ranked[0].ply}-ply, cubeful: {cube}):")
        for line in candidate_lines(ranked):
            self.say("  " + line)

    def cascade_hint(self) -> None:
        """The engine's advice for the rest of the cascade being played: its best parts from this step
        on (or its best share of a handover), each with the steps still to play."""
        g = self.table.game
        advice = self.player.cascade_advice(self.table)
        if advice is None:
            self.say(f"Hint (greedy): {g.legal_moves()[self.table.suggest('greedy')]}")
            return
        kind, found = advice
        if kind == "share":
            self.say(f"Hint ({self.engine_name}): your best share of the handover: {found[0]}")
            return
        cube = self.table.cube_for(g.turn)
        self.say(f"Hint ({self.engine_name}, {found[0].ply}-ply, cubeful: {cube}), the rest of the cascade "
                 f"as a whole, step by step:")
        for line in candidate_lines(found):
            self.say("  " + line)
        first = found[0].move.cascade_steps[0][1]
        self.say(f"  This step: {first}")

    def describe_step(self, g: "tavla.Game") -> str:
        if g.cascade_step:
            die, count = g.cascade_step
            who = ("" if not g.is_cascade_handover else " (the engine's unplayed moves)" if g.turn == 0
                   else " (your unplayed moves)")
            return f"cascade: play {count} move(s) of {die}{who}"
        d = g.dice
        return f"dice {d[0]}-{d[1]}" if d is not None else "no roll yet"

    def your_move(self) -> None:
        g = self.table.game
        moves = g.legal_moves()
        if len(moves) == 1:
            self.table.play(0)
            m = moves[0]
            self.say("You cannot move." if m.is_pass() else f"Your only move: {m}.")
            self.extra_roll("You")
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
                    self.extra_roll("You")
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
            self.extra_roll("You")
            return

    def engine_move(self) -> None:
        g = self.table.game
        k = self.player.pick(self.table)
        m = g.legal_moves()[k]
        label = self.describe_step(g)
        self.table.play(k)
        self.say(f"{self.engine_name.capitalize()} plays {m} ({label}).")
        self.extra_roll(self.engine_name.capitalize())

    def extra_roll(self, who: str) -> None:
        """Says so when the play just made was an acey-deucey 1-2 played in full: the same player rolls again."""
        if self.table.game.is_extra_roll:
            self.say(f"{who} played the 1-2 in full and roll{'' if who == 'You' else 's'} again.")

    # ----- whole game / match -----

    def announce_result(self) -> None:
        g = self.table.game
        r = g.result
        if r is None:
            return
        if r["winner"] is None:
            self.say("The game is a draw.")
        else:
            who = "You win" if r["winner"] == 0 else f"{self.engine_name.capitalize()} wins"
            kind = r["kind"]
            how = "by a passed double" if r["ending"] == "cube_passed" else f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}"
            if r["ending"] != "cube_passed" and r["points"] < r["cube"] * r["multiplier"]:
                how += " (counted single: the Jacoby rule, the cube was not turned)"
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
         out: Optional[TextIO] = None, read: Callable[[str], str] = input, save: Optional[str] = None,
         jacoby: bool = False, max_cube: int = 64, start: Optional[str] = None) -> int:
    out = out or sys.stdout
    table = Table(variant, length, seed, cube, beaver, rules, jacoby=jacoby, max_cube=max_cube, start=start)
    game = table.game
    try:
        return Session(table, out, read, EnginePlayer(game.variant, dict(game.rules))).run()
    finally:
        if save:
            try:
                write_atomic(save, table.to_json())  # whole or not at all: an older record is never half overwritten
            except OSError as e:  # a folder gone or not writable: one line (tavla: error: ...), not a traceback
                raise ValueError(f"cannot save the record to {save}: {e.strerror or e}") from None
            print(f"Record saved to {save}.", file=out)


def show(text: str, out: Optional[TextIO] = None) -> int:
    # sys.stdout is looked up at call time: a default bound at import would
    # keep writing to whatever stdout was when the module was first imported.
    out = out or sys.stdout
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
