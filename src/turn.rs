//! The one turn driver: what a roll does in every variant, for every loop
//! that plays games (`Game`, the duel harness, self-play training, rollouts,
//! and through `Game` the Python package, `tavla play` and the board).
//!
//! A [`TurnDriver`] holds the board between rolls: the position (seen from
//! the player to act), whose turn it is, how many rolls the game has had, who
//! started. [`TurnDriver::roll`] begins a roll and lists its legal plays;
//! [`TurnDriver::play`] plays one and says what comes next ([`Progress`]):
//! - an ordinary turn (backgammon, long nardy, gul bara's first rolls and
//!   non-doubles) is one play, after which the opponent rolls;
//! - a gul bara double past the first `cascade_after_rolls` rolls cascades
//!   ([`crate::cascade`], RULES.md section 4): one step per number, the first
//!   number the roller cannot play in full hands the rest to the opponent
//!   (the *handover*), who plays it step by step and then rolls its own turn;
//! - acey-deucey's 1-2 roll (RULES.md section 5.2) is one play (the 1, the
//!   2, the named number's four moves); a play with [`Move::rolls_again`]
//!   ends the roll with the same player to roll again
//!   ([`Progress::RollsAgain`]): a new roll, with the cube not turned before
//!   it (the turn goes on);
//! - a player who bears off its last checker wins, with the multiplier of
//!   [`crate::outcome::bear_off_multiplier`], except under `last_roll_draw`
//!   when the starter finishes first: the other player then has one last
//!   roll, and a draw if it finishes too.
//!
//! The first-turn and head rules live in move generation, which the driver
//! asks with the head checkers a cascade has used so far.
//!
//! Who chooses is a [`Chooser`]: a play for an ordinary turn, a step of a
//! cascade, or (for choosers that think in whole turns) the whole part of a
//! cascade or share at once. [`play_roll`] plays one roll with two choosers;
//! [`play_game`] plays a game to its end.

use crate::error::{Error, Result};
use crate::movegen::{with_generator, Move};
use crate::outcome::bear_off_multiplier;
use crate::position::{Position, CHECKERS, ME};
use crate::variant::{Rules, Variant};

/// Moves a cascade number asks for.
const FULL: u8 = 4;

/// How a game ended on the board (passed doubles belong to `Game`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Finish {
    /// `winner` bore off all its checkers; `multiplier` 1, 2 or 3.
    Won { winner: usize, multiplier: u8 },
    /// `last_roll_draw`: both players finished.
    Draw,
}

/// What a play led to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Progress {
    /// The roll goes on: [`TurnDriver::seat`] plays the next cascade step
    /// (the roller, or its opponent playing the handover).
    Step,
    /// The roll is over; [`TurnDriver::seat`] (the opponent of the roller,
    /// or the player who played a handover) rolls next.
    TurnOver,
    /// Acey-deucey's 1-2 was played in full: the roll is over and the same
    /// player ([`TurnDriver::seat`] unchanged) rolls again, its turn going on.
    RollsAgain,
    /// The game is over.
    GameOver(Finish),
}

/// The numbers of a cascade still to play.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Cascade {
    /// (number, moves) still to play, in order; the first is being played.
    steps: Vec<(u8, u8)>,
    /// Head checkers used so far in this part or share (the head rule's count).
    head_used: u8,
    /// The opponent is playing the roller's unplayed moves.
    handed_over: bool,
}

/// The board between and during rolls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnDriver {
    rules: Rules,
    /// Seen from `seat`.
    position: Position,
    seat: usize,
    /// Rolls of two dice so far, both players, the one being played counted.
    rolls: u32,
    starter: Option<usize>,
    /// `last_roll_draw`: the starter has finished and the other plays its last roll.
    last_turn: bool,
    dice: Option<[u8; 2]>,
    /// Between rolls: the player to roll rolls again after a 1-2.
    extra_roll: bool,
    cascade: Option<Cascade>,
    moves: Vec<Move>,
    finish: Option<Finish>,
}

impl TurnDriver {
    /// The board with `position` (seen from `seat`, who rolls next) after
    /// `rolls` rolls; `starter` matters only for `last_roll_draw`.
    pub fn new(rules: Rules, position: Position, seat: usize, rolls: u32, starter: Option<usize>) -> TurnDriver {
        TurnDriver {
            rules,
            position,
            seat,
            rolls,
            starter,
            last_turn: false,
            dice: None,
            extra_roll: false,
            cascade: None,
            moves: Vec::new(),
            finish: None,
        }
    }

    /// The start of a game, `starter` to roll first.
    pub fn start(rules: Rules, starter: usize) -> TurnDriver {
        TurnDriver::new(rules, Position::start(rules), starter, 0, Some(starter))
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// The position seen from the player to act.
    pub fn position(&self) -> &Position {
        &self.position
    }
    /// The player to act: to roll, or to play (the roller, or the opponent
    /// playing a handover).
    pub fn seat(&self) -> usize {
        self.seat
    }
    /// Rolls so far, the one being played counted.
    pub fn rolls(&self) -> u32 {
        self.rolls
    }
    /// Rolls made before the one being played (before the next, between rolls):
    /// what decides whether a gul bara double cascades.
    pub fn rolls_before(&self) -> u32 {
        if self.dice.is_some() {
            self.rolls - 1
        } else {
            self.rolls
        }
    }
    pub fn starter(&self) -> Option<usize> {
        self.starter
    }
    /// The dice of the roll being played.
    pub fn dice(&self) -> Option<[u8; 2]> {
        self.dice
    }
    /// The legal plays now (one empty play when nothing can be played; none between rolls).
    pub fn legal_moves(&self) -> &[Move] {
        &self.moves
    }
    /// The cascade step being played: (number, moves asked).
    pub fn cascade_step(&self) -> Option<(u8, u8)> {
        self.cascade.as_ref().map(|c| c.steps[0])
    }
    /// The cascade's numbers still to play, the current step first (empty outside a cascade).
    pub fn cascade_left(&self) -> &[(u8, u8)] {
        self.cascade.as_ref().map_or(&[], |c| &c.steps)
    }
    /// Head checkers the cascade part or share being played has used.
    pub fn cascade_head_used(&self) -> u8 {
        self.cascade.as_ref().map_or(0, |c| c.head_used)
    }
    /// The player to act is playing the opponent's unplayed cascade moves.
    pub fn is_handover(&self) -> bool {
        self.cascade.as_ref().is_some_and(|c| c.handed_over)
    }
    /// The roll being played (or the next) is the last of a `last_roll_draw` game.
    pub fn is_last_turn(&self) -> bool {
        self.last_turn
    }
    /// Between rolls: the player to roll rolls again after playing a 1-2 in
    /// full (acey-deucey), its turn going on (no cube action before it).
    pub fn is_extra_roll(&self) -> bool {
        self.extra_roll
    }
    /// A roll is being played.
    pub fn is_playing(&self) -> bool {
        self.dice.is_some()
    }
    pub fn finish(&self) -> Option<Finish> {
        self.finish
    }

    /// The position seen from `seat`.
    pub fn position_for(&self, seat: usize) -> Position {
        if seat == self.seat {
            self.position
        } else {
            self.position.flip()
        }
    }

    /// Between rolls: the player to roll rolls again after a 1-2 (a board set
    /// up at that moment, as a position text may record it).
    pub fn set_extra_roll(&mut self) {
        if self.dice.is_none() {
            self.extra_roll = true;
        }
    }

    /// Names who starts, for a board set up before anyone rolled.
    pub fn set_starter(&mut self, starter: usize) {
        self.starter = Some(starter);
        self.seat = starter;
    }

    /// Whether a roll of `dice` now would cascade.
    pub fn would_cascade(&self, dice: [u8; 2]) -> bool {
        crate::cascade::cascades(&self.rules, self.rolls_before(), dice[0], dice[1])
    }

    /// Begins a roll for [`TurnDriver::seat`] and lists its legal plays.
    pub fn roll(&mut self, dice: [u8; 2]) -> Result<()> {
        if self.finish.is_some() {
            return Err(Error::new("the game is over"));
        }
        if self.dice.is_some() {
            return Err(Error::new("a roll is still being played"));
        }
        for d in dice {
            crate::movegen::check_die(d as i64)?;
        }
        let cascades = self.would_cascade(dice);
        self.rolls = self.rolls.saturating_add(1);
        self.extra_roll = false;
        self.dice = Some(dice);
        if cascades {
            let steps = (dice[0]..=6).map(|d| (d, FULL)).collect();
            self.cascade = Some(Cascade { steps, head_used: 0, handed_over: false });
            self.generate_step();
        } else {
            let pos = self.position;
            with_generator(|g| g.legal_moves(&pos, dice[0], dice[1], &mut self.moves));
        }
        Ok(())
    }

    fn generate_step(&mut self) {
        let c = self.cascade.as_ref().expect("a cascade is being played");
        let (die, count) = c.steps[0];
        let head_used = c.head_used;
        let pos = self.position;
        with_generator(|g| g.cascade_step(&pos, die, count, head_used, &mut self.moves));
    }

    /// Plays the legal play with this index.
    pub fn play_index(&mut self, index: usize) -> Result<Progress> {
        let Some(&m) = self.moves.get(index) else {
            if self.dice.is_none() {
                return Err(Error::new("no roll is being played: roll first"));
            }
            return Err(Error::new(format!(
                "move {index} does not exist: there are {} legal moves (0 to {})",
                self.moves.len(),
                self.moves.len().saturating_sub(1)
            )));
        };
        Ok(self.apply(m))
    }

    /// The index of the legal play leading to the same position as `m` (and,
    /// for acey-deucey's 1-2, with the same extra roll, naming `m`'s number
    /// where a play with that name leads there).
    pub fn find(&self, m: &Move) -> Option<usize> {
        // One pass: the play with the same name wins, else the first one
        // reaching the same position.
        let mut first_same = None;
        for (i, x) in self.moves.iter().enumerate() {
            if x.position == m.position && x.rolls_again == m.rolls_again {
                if x.named == m.named {
                    return Some(i);
                }
                first_same.get_or_insert(i);
            }
        }
        first_same
    }

    /// Plays the legal play leading to the same position as `m`.
    pub fn play(&mut self, m: &Move) -> Result<Progress> {
        match self.find(m) {
            Some(i) => self.play_index(i),
            None if self.dice.is_none() => Err(Error::new("no roll is being played: roll first")),
            None => Err(Error::new(format!("{} is not a legal move here", crate::notation::format_play(&m.play)))),
        }
    }

    fn apply(&mut self, m: Move) -> Progress {
        self.position = m.position;
        if m.position.off(ME) == CHECKERS {
            return self.mover_finished();
        }
        let Some(mut cascade) = self.cascade.take() else {
            if m.rolls_again {
                self.between_rolls();
                self.extra_roll = true;
                return Progress::RollsAgain;
            }
            return self.end_turn();
        };
        let (die, count) = cascade.steps.remove(0);
        let played = m.moves_played() as u8;
        cascade.head_used = m.head_used;
        if !cascade.handed_over && played < count {
            // The roller's part ends here: the unplayed moves of this number
            // and all higher numbers go to the opponent.
            if self.last_turn {
                // The opponent has already finished the game.
                return self.end_turn();
            }
            cascade.steps.insert(0, (die, count - played));
            cascade.handed_over = true;
            cascade.head_used = 0;
            self.switch_sides();
        }
        if cascade.steps.is_empty() {
            if cascade.handed_over {
                // The opponent has played the handover and rolls its own turn.
                self.between_rolls();
                return Progress::TurnOver;
            }
            return self.end_turn();
        }
        self.cascade = Some(cascade);
        self.generate_step();
        Progress::Step
    }

    fn switch_sides(&mut self) {
        self.seat = 1 - self.seat;
        self.position = self.position.flip();
    }

    fn between_rolls(&mut self) {
        self.cascade = None;
        self.moves.clear();
        self.dice = None;
    }

    /// The roller's turn is over and its opponent rolls next.
    fn end_turn(&mut self) -> Progress {
        self.between_rolls();
        self.switch_sides();
        if self.last_turn {
            // The other player could not finish in its last roll: the starter
            // (now `seat`) wins.
            let multiplier = bear_off_multiplier(&self.position);
            return self.game_over(Finish::Won { winner: self.seat, multiplier });
        }
        Progress::TurnOver
    }

    fn mover_finished(&mut self) -> Progress {
        self.between_rolls();
        if self.last_turn {
            return self.game_over(Finish::Draw);
        }
        if self.rules.last_roll_draw && self.rules.variant != Variant::Backgammon && self.starter == Some(self.seat) {
            self.last_turn = true;
            self.switch_sides();
            return Progress::TurnOver;
        }
        let multiplier = bear_off_multiplier(&self.position);
        self.game_over(Finish::Won { winner: self.seat, multiplier })
    }

    fn game_over(&mut self, finish: Finish) -> Progress {
        self.finish = Some(finish);
        Progress::GameOver(finish)
    }
}

/// Who chooses the plays of one seat. Positions are seen from the chooser.
pub trait Chooser {
    /// An ordinary turn: the index of one of `plays`, the legal plays of
    /// `dice` from `pos` (never empty), the game having had `rolls_before`
    /// rolls before this one (a searching chooser needs it to know which
    /// later gul bara doubles cascade).
    fn choose_play(&mut self, pos: &Position, dice: [u8; 2], rolls_before: u32, plays: &[Move]) -> usize;

    /// One cascade step of `step` = (number, moves asked): the index of one
    /// of `steps`. By default the play rule, with the step's number as both dice.
    fn choose_step(&mut self, pos: &Position, step: (u8, u8), steps: &[Move]) -> usize {
        self.choose_play(pos, [step.0, step.0], crate::cascade::LATE, steps)
    }

    /// The whole part of a cascade from `d` (the game had `rolls_before`
    /// rolls before it), for choosers that decide it as one turn: its steps in
    /// order. `None` plays it step by step with [`Chooser::choose_step`].
    fn plan_cascade(&mut self, _pos: &Position, _d: u8, _rolls_before: u32) -> Option<Vec<Move>> {
        None
    }

    /// The whole share of a handover (`(die, moves)` in order): its steps, or
    /// `None` for step by step.
    fn plan_share(&mut self, _pos: &Position, _handover: &[(u8, u8)]) -> Option<Vec<Move>> {
        None
    }
}

/// The choosers of the two seats of a roll.
pub trait Seats {
    fn seat(&mut self, seat: usize) -> &mut dyn Chooser;
}

impl<'a, 'b> Seats for [&'a mut (dyn Chooser + 'b); 2] {
    fn seat(&mut self, seat: usize) -> &mut dyn Chooser {
        &mut *self[seat]
    }
}

/// One chooser for both seats (self-play).
pub struct SelfPlay<'a, 'b>(pub &'a mut (dyn Chooser + 'b));

impl Seats for SelfPlay<'_, '_> {
    fn seat(&mut self, _: usize) -> &mut dyn Chooser {
        &mut *self.0
    }
}

/// What a roll is played on: the driver itself, or a game around it that
/// records each play (and knows the cube).
pub trait Table {
    fn driver(&self) -> &TurnDriver;
    /// Begins a roll of `dice`.
    fn roll_dice(&mut self, dice: [u8; 2]) -> Result<()>;
    /// Plays the legal play with this index.
    fn play_at(&mut self, index: usize) -> Result<Progress>;
}

impl Table for TurnDriver {
    fn driver(&self) -> &TurnDriver {
        self
    }
    fn roll_dice(&mut self, dice: [u8; 2]) -> Result<()> {
        self.roll(dice)
    }
    fn play_at(&mut self, index: usize) -> Result<Progress> {
        self.play_index(index)
    }
}

/// Plays a planned run of steps while they are legal and the same player is
/// to act; returns where it stopped (None: the plan ran out with the roll
/// still going, or a step was not legal, so the rest is chosen step by step).
fn play_plan(table: &mut dyn Table, plan: &[Move]) -> Option<Progress> {
    let seat = table.driver().seat();
    for m in plan {
        if table.driver().seat() != seat {
            break;
        }
        let Some(index) = table.driver().find(m) else {
            debug_assert!(false, "a planned step is not legal");
            return None;
        };
        let progress = table.play_at(index).ok()?;
        if progress != Progress::Step {
            return Some(progress);
        }
    }
    None
}

/// Plays one roll of `dice` for the seat to act, each seat choosing with
/// its chooser, to the end of the roll (or the game).
pub fn play_roll(table: &mut dyn Table, dice: [u8; 2], choosers: &mut dyn Seats) -> Result<Progress> {
    table.roll_dice(dice)?;
    play_rolled(table, choosers)
}

/// Plays the rest of the roll being played. In a cascade each seat is asked
/// once for a whole plan (the roller for its part, the opponent for its
/// share) where the part or share can be planned from here: at a number's
/// first move with no head checker used yet.
pub fn play_rolled(table: &mut dyn Table, choosers: &mut dyn Seats) -> Result<Progress> {
    let Some(dice) = table.driver().dice() else {
        return Err(Error::new("no roll is being played: roll first"));
    };
    let mut asked = [false; 2];
    loop {
        let driver = table.driver();
        let seat = driver.seat();
        if let Some((number, count)) = driver.cascade_step() {
            let plannable = driver.cascade_head_used() == 0 && (driver.is_handover() || count == FULL);
            if plannable && !asked[seat] {
                asked[seat] = true;
                let plan = if driver.is_handover() {
                    let share = driver.cascade_left().to_vec();
                    choosers.seat(seat).plan_share(driver.position(), &share)
                } else {
                    choosers.seat(seat).plan_cascade(driver.position(), number, driver.rolls_before())
                };
                if let Some(plan) = plan {
                    if let Some(done) = play_plan(table, &plan) {
                        return Ok(done);
                    }
                    continue;
                }
            }
        }
        let driver = table.driver();
        let index = match driver.cascade_step() {
            Some(step) => choosers.seat(seat).choose_step(driver.position(), step, driver.legal_moves()),
            None => choosers.seat(seat).choose_play(driver.position(), dice, driver.rolls_before(), driver.legal_moves()),
        };
        let progress = table.play_at(index)?;
        if progress != Progress::Step {
            return Ok(progress);
        }
    }
}

/// A game stops after this many rolls (never seen: games end far sooner).
pub const MAX_ROLLS: u32 = 5000;

/// Plays `table`'s game to its end with dice from `dice` (called once per
/// roll), `on_roll` told of the board after every roll; `None` when the game
/// reached [`MAX_ROLLS`].
pub fn play_game(
    table: &mut dyn Table,
    dice: &mut dyn FnMut(&TurnDriver) -> [u8; 2],
    choosers: &mut dyn Seats,
    on_roll: &mut dyn FnMut(&TurnDriver, Progress),
) -> Option<Finish> {
    for _ in 0..MAX_ROLLS {
        let roll = dice(table.driver());
        let progress = play_roll(table, roll, choosers).expect("the driver rolls between rolls with dice 1 to 6");
        on_roll(table.driver(), progress);
        if let Progress::GameOver(finish) = progress {
            return Some(finish);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::THEM;

    /// Always the first legal play or step.
    struct First;
    impl Chooser for First {
        fn choose_play(&mut self, _: &Position, _: [u8; 2], _: u32, _: &[Move]) -> usize {
            0
        }
    }

    fn gulbara_blocked_sixes() -> Position {
        // All mine on the head (24) and an opposing checker on my 18 (its 6
        // point), so no 6 can be played.
        let mut mine = [0i64; 25];
        let mut theirs = [0i64; 25];
        mine[23] = 15;
        theirs[23] = 14;
        theirs[5] = 1;
        Position::from_arrays(Rules::gulbara(), &mine, &theirs).unwrap()
    }

    #[test]
    fn a_blocked_cascade_hands_everything_over() {
        let pos = gulbara_blocked_sixes();
        let mut driver = TurnDriver::new(*pos.rules(), pos, 0, 10, None);
        driver.roll([6, 6]).unwrap();
        assert_eq!(driver.cascade_step(), Some((6, 4)));
        assert_eq!(driver.legal_moves().len(), 1, "only the empty step");
        assert_eq!(driver.play_index(0).unwrap(), Progress::Step);
        assert!(driver.is_handover());
        assert_eq!(driver.seat(), 1);
        assert_eq!(driver.cascade_left(), &[(6, 4)]);
        assert_eq!(driver.play_index(0).unwrap(), Progress::TurnOver);
        // The opponent played the handover and now rolls its own turn.
        assert_eq!(driver.seat(), 1);
        assert!(!driver.is_playing());
        assert_eq!(driver.rolls(), 11);
    }

    #[test]
    fn the_first_rolls_do_not_cascade() {
        let rules = Rules::gulbara();
        let mut driver = TurnDriver::start(rules, 0);
        let (mut first, mut second) = (First, First);
        for k in 0..3 {
            assert!(!driver.would_cascade([2, 2]), "roll {k}");
            let mut seats: [&mut dyn Chooser; 2] = [&mut first, &mut second];
            play_roll(&mut driver, [1, 2], &mut seats).unwrap();
        }
        assert!(driver.would_cascade([2, 2]));
    }

    #[test]
    fn bad_calls_are_refused() {
        let mut driver = TurnDriver::start(Rules::backgammon(), 0);
        assert!(driver.play_index(0).unwrap_err().to_string().contains("roll first"));
        assert!(driver.roll([0, 3]).is_err());
        driver.roll([3, 1]).unwrap();
        assert!(driver.roll([3, 1]).unwrap_err().to_string().contains("still being played"));
        assert!(driver.play_index(99).unwrap_err().to_string().contains("does not exist"));
    }

    #[test]
    fn games_end_in_every_variant() {
        for rules in [Rules::backgammon(), Rules::nardy(), Rules::gulbara()] {
            let mut driver = TurnDriver::start(rules, 1);
            let mut source = crate::dice::Dice::new(3);
            let (mut a, mut b) = (First, First);
            let mut seats: [&mut dyn Chooser; 2] = [&mut a, &mut b];
            let mut rolls = 0;
            let finish = play_game(&mut driver, &mut |_| source.roll(), &mut seats, &mut |_, _| rolls += 1);
            assert!(matches!(finish, Some(Finish::Won { multiplier: 1..=3, .. })), "{rules:?}");
            assert_eq!(driver.finish(), finish);
            assert!(rolls > 10);
        }
    }

    #[test]
    fn a_one_two_played_in_full_gives_the_same_player_the_next_roll() {
        let rules = Rules::acey_deucey();
        let mut driver = TurnDriver::start(rules, 1);
        driver.roll([1, 2]).unwrap();
        let index = driver.legal_moves().iter().position(|m| m.rolls_again).expect("the start plays every 1-2 in full");
        assert_eq!(driver.play_index(index).unwrap(), Progress::RollsAgain);
        assert_eq!((driver.seat(), driver.is_playing(), driver.is_extra_roll()), (1, false, true));
        assert!(driver.position().reserve(ME) < 15);
        // The extra roll is a new roll of the same player; after it the turn passes.
        driver.roll([6, 5]).unwrap();
        assert!(!driver.is_extra_roll());
        assert_eq!(driver.play_index(0).unwrap(), Progress::TurnOver);
        assert_eq!((driver.seat(), driver.rolls()), (0, 2));
        // Another 1-2 in the extra roll repeats the sequence.
        let mut again = TurnDriver::start(rules, 0);
        for _ in 0..2 {
            again.roll([2, 1]).unwrap();
            let i = again.legal_moves().iter().position(|m| m.rolls_again).unwrap();
            assert_eq!(again.play_index(i).unwrap(), Progress::RollsAgain);
            assert_eq!(again.seat(), 0);
        }
    }

    #[test]
    fn a_one_two_that_stops_before_naming_passes_the_turn() {
        // Their points on my 23 and 22: the 1 enters on 24, and then no 2 can
        // be played, so nothing is named and the opponent rolls.
        let mine = [0i64; 25];
        let mut theirs = [0i64; 25];
        theirs[1] = 2;
        theirs[2] = 2;
        let pos = Position::from_arrays_with_reserve(Rules::acey_deucey(), &mine, &theirs, [15, 11]).unwrap();
        let mut driver = TurnDriver::new(*pos.rules(), pos, 0, 8, None);
        driver.roll([1, 2]).unwrap();
        assert!(driver.legal_moves().iter().all(|m| m.named.is_none() && !m.rolls_again && m.moves_played() == 1));
        assert_eq!(driver.play_index(0).unwrap(), Progress::TurnOver);
        assert_eq!((driver.seat(), driver.is_extra_roll()), (1, false));
        // Other games' 1-2 is an ordinary roll.
        let mut bg = TurnDriver::start(Rules::dutch(), 0);
        bg.roll([1, 2]).unwrap();
        assert_eq!(bg.play_index(0).unwrap(), Progress::TurnOver);
    }

    #[test]
    fn the_reserve_counts_as_on_the_bar_for_the_result() {
        // My last checker on my 6; theirs all on their 13 (none home), one in
        // reserve or not.
        let mut mine = [0i64; 25];
        mine[5] = 1;
        for (reserve, multiplier) in [(1, 3), (0, 2)] {
            let mut theirs = [0i64; 25];
            theirs[12] = 15 - reserve;
            for rules in [Rules::dutch(), Rules::acey_deucey()] {
                let pos = Position::from_arrays_with_reserve(rules, &mine, &theirs, [0, reserve]).unwrap();
                let mut driver = TurnDriver::new(rules, pos, 1, 40, None);
                driver.roll([6, 5]).unwrap();
                assert_eq!(driver.play_index(0).unwrap(), Progress::GameOver(Finish::Won { winner: 1, multiplier }), "{rules:?}");
            }
        }
    }

    #[test]
    fn self_play_games_of_the_reserve_games_end_with_their_results() {
        for rules in [Rules::dutch(), Rules::acey_deucey()] {
            for seed in 1..=4 {
                let mut driver = TurnDriver::start(rules, 0);
                let mut source = crate::dice::Dice::new(seed);
                let (mut a, mut b) = (First, First);
                let mut seats: [&mut dyn Chooser; 2] = [&mut a, &mut b];
                let (mut rolls, mut extra) = (0, 0);
                let mut last = *driver.position();
                let finish = play_game(&mut driver, &mut |_| source.roll(), &mut seats, &mut |d, progress| {
                    rolls += 1;
                    extra += (progress == Progress::RollsAgain) as u32;
                    last = *d.position();
                });
                let Some(Finish::Won { winner, multiplier }) = finish else { panic!("{rules:?} seed {seed}: {finish:?}") };
                // Seen from the winner, who bore off all its checkers.
                assert_eq!(last.off(ME), CHECKERS);
                let loser_left = last.off(THEM) == 0;
                // The loser's checkers on the bar, in reserve or in the winner's home (its 1..6).
                let caught = last.bar(THEM) + last.reserve(THEM) > 0 || (0..6).any(|i| last.count(THEM, i) > 0);
                let expected = if !loser_left {
                    1
                } else if caught {
                    3
                } else {
                    2
                };
                assert_eq!(multiplier, expected, "{rules:?} seed {seed}");
                assert_eq!(driver.seat(), winner);
                assert!(rolls > 20, "{rules:?} seed {seed}: {rules:?} {rolls} rolls");
                // Acey-deucey's 1-2s (one roll in 18) rolled again; Dutch has no extra rolls.
                assert_eq!(extra > 0, rules.variant == Variant::AceyDeucey, "{rules:?} seed {seed}: {extra} extra rolls");
            }
        }
    }

    #[test]
    fn last_roll_draw_gives_the_other_player_one_roll() {
        let mut rules = Rules::nardy();
        rules.last_roll_draw = true;
        // Both sides have one checker left on their 1 point: whoever rolls finishes.
        let mut side = [0i64; 25];
        side[0] = 1;
        let mut pos = Position::from_arrays(rules, &side, &side).unwrap();
        // 14 off each: from_arrays counts the rest as borne off.
        assert_eq!(pos.off(ME), 14);
        let mut driver = TurnDriver::new(rules, pos, 0, 40, Some(0));
        driver.roll([1, 2]).unwrap();
        assert_eq!(driver.play_index(0).unwrap(), Progress::TurnOver, "the starter finished: one last roll");
        assert!(driver.is_last_turn());
        driver.roll([1, 2]).unwrap();
        assert_eq!(driver.play_index(0).unwrap(), Progress::GameOver(Finish::Draw));
        // Had the starter been the other player, the first to finish wins outright.
        pos = pos.flip();
        let mut driver = TurnDriver::new(rules, pos, 0, 40, Some(1));
        driver.roll([1, 2]).unwrap();
        assert_eq!(driver.play_index(0).unwrap(), Progress::GameOver(Finish::Won { winner: 0, multiplier: 1 }));
    }
}
