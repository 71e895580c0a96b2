//! The network as a player: the networks a 0-ply player judges with, the
//! player that evaluates plays with them, and one roll of self-play through
//! the turn driver. Rollouts, the evaluator and the training crate (`coach/`)
//! all play through these.

use std::cell::RefCell;

use crate::dice::Dice;
use crate::movegen::Move;
use crate::nn::encoding::encode;
use crate::nn::{Mlp, OUTPUTS};
use crate::outcome::{bear_off_multiplier, final_evaluation, game_result, Evaluation};
use crate::position::{Position, CHECKERS, ME};
use crate::turn::{Chooser, Finish, Progress, SelfPlay, TurnDriver};
use crate::variant::Rules;

/// The five outcome indicators when the player on roll has just borne off its
/// last checker in `pos` (seen from that player).
pub fn final_outcome(pos: &Position) -> [f32; OUTPUTS] {
    final_evaluation(true, bear_off_multiplier(pos)).to_array()
}

/// Points won by the player who just finished, from [`final_outcome`].
pub fn outcome_points(o: &[f32; OUTPUTS]) -> f32 {
    Evaluation::new(*o).equity()
}

/// The networks a 0-ply player judges with: a contact network and, where
/// the variant has them, one for pure races and one for crashed positions
/// (as the engine's evaluator).
#[derive(Clone, Copy)]
pub struct Nets<'a> {
    pub contact: &'a Mlp,
    pub race: Option<&'a Mlp>,
    pub crashed: Option<&'a Mlp>,
}

impl<'a> Nets<'a> {
    /// One network for every position (training plays with these).
    pub fn one(net: &'a Mlp) -> Nets<'a> {
        Nets { contact: net, race: None, crashed: None }
    }

    /// The shipped networks of a variant.
    pub fn shipped(variant: crate::variant::Variant) -> Nets<'static> {
        use crate::nn::shipped;
        Nets { contact: shipped::network(variant), race: shipped::race_network(variant), crashed: shipped::crashed_network(variant) }
    }

    /// The network that judges `pos`: the race one in a pure race, the
    /// crashed one in a crashed position ([`Position::is_crashed`]).
    pub fn for_position(&self, pos: &Position) -> &'a Mlp {
        self.judge(pos).1
    }

    /// [`Nets::for_position`] with the class of network that judges
    /// (so callers keeping per-network state can tell them apart).
    pub fn judge(&self, pos: &Position) -> (NetClass, &'a Mlp) {
        match (self.race, self.crashed) {
            (Some(race), _) if pos.is_race() => (NetClass::Race, race),
            (_, Some(crashed)) if pos.is_crashed() => (NetClass::Crashed, crashed),
            _ => (NetClass::Contact, self.contact),
        }
    }
}

/// Which of a variant's networks judges a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NetClass {
    Contact,
    Race,
    Crashed,
}

/// Evaluates positions with a network, reusing its buffers.
pub struct NetPlayer<'a> {
    nets: Nets<'a>,
    x: Vec<f32>,
    hidden: Vec<f32>,
}

impl<'a> NetPlayer<'a> {
    pub fn new(net: &'a Mlp) -> NetPlayer<'a> {
        NetPlayer::with_nets(Nets::one(net))
    }

    pub fn with_nets(nets: Nets<'a>) -> NetPlayer<'a> {
        NetPlayer { nets, x: vec![0.0; nets.contact.inputs], hidden: Vec::with_capacity(nets.contact.hidden) }
    }

    /// The five probabilities for the player on roll in `pos`.
    pub fn probabilities(&mut self, pos: &Position) -> [f32; OUTPUTS] {
        if let Some((mover_won, points)) = game_result(pos) {
            return final_evaluation(mover_won, points).to_array();
        }
        encode(pos, &mut self.x);
        self.nets.for_position(pos).forward(&self.x, &mut self.hidden)
    }

    /// The probabilities the engine's 0-ply uses: exact from the bear-off
    /// tables where they cover the position, else the network's. Self-play
    /// chooses and learns with these, so the network is trained on the game
    /// the engine plays and its targets are exact once a bear-off is reached.
    pub fn value(&mut self, pos: &Position) -> [f32; OUTPUTS] {
        match crate::bearoff::bearoff_probabilities(pos) {
            Some(exact) => exact,
            None => self.probabilities(pos),
        }
    }

    /// The value of a play for the mover: its probabilities after the play,
    /// with the opponent on roll (with the mover on roll again after an
    /// acey-deucey 1-2 played in full).
    pub fn after_play(&mut self, m: &Move) -> [f32; OUTPUTS] {
        if m.position.off(ME) == CHECKERS {
            return final_outcome(&m.position);
        }
        let next = self.value(&m.next_roller_view());
        if m.rolls_again {
            return next;
        }
        Evaluation::new(next).invert().to_array()
    }

    /// The index of the best play at 0-ply and its probabilities.
    pub fn choose(&mut self, moves: &[Move]) -> (usize, [f32; OUTPUTS]) {
        let mut best = (0, [0.0; OUTPUTS], f32::NEG_INFINITY);
        for (k, m) in moves.iter().enumerate() {
            let p = self.after_play(m);
            let e = Evaluation::new(p).equity();
            if e > best.2 {
                best = (k, p, e);
            }
        }
        (best.0, best.1)
    }
}

/// The network at 0-ply as a [`Chooser`]: the play (or cascade step, judged
/// as if the turn ended after it) whose result is best for the mover.
pub struct NetChooser<'a> {
    player: NetPlayer<'a>,
    /// The last chosen play's value for the mover, opponent on roll.
    chosen: [f32; OUTPUTS],
}

impl<'a> NetChooser<'a> {
    pub fn new(nets: Nets<'a>) -> NetChooser<'a> {
        NetChooser { player: NetPlayer::with_nets(nets), chosen: [0.0; OUTPUTS] }
    }
}

impl Chooser for NetChooser<'_> {
    fn choose_play(&mut self, _: &Position, _: [u8; 2], _: u32, plays: &[Move]) -> usize {
        let (index, value) = self.player.choose(plays);
        self.chosen = value;
        index
    }
}

/// Plays one roll of `dice` on `board` through the turn driver, the network
/// choosing for both sides at 0-ply: an ordinary turn, or a whole gul bara
/// cascade with the opponent's share (RULES.md section 4).
pub fn play_roll(nets: Nets, board: &mut TurnDriver, dice: [u8; 2]) -> TurnOutcome {
    let roller = board.seat();
    let ordinary = !board.would_cascade(dice);
    let mut chooser = NetChooser::new(nets);
    let progress = crate::turn::play_roll(board, dice, &mut SelfPlay(&mut chooser)).expect("self-play rolls dice 1 to 6 between rolls");
    match progress {
        Progress::GameOver(Finish::Won { winner, multiplier }) => TurnOutcome {
            target: final_evaluation(winner == roller, multiplier).to_array(),
            next: *board.position(),
            finished: Some(winner == roller),
            rolls_again: false,
        },
        Progress::GameOver(Finish::Draw) => {
            TurnOutcome { target: final_evaluation(true, 0).to_array(), next: *board.position(), finished: None, rolls_again: false }
        }
        Progress::RollsAgain => {
            // Acey-deucey's 1-2: the roller rolls again from the next position.
            TurnOutcome { target: chooser.player.value(board.position()), next: *board.position(), finished: None, rolls_again: true }
        }
        Progress::Step | Progress::TurnOver => {
            // The opponent rolls next (after an ordinary turn, a whole
            // cascade, or a share it played). After an ordinary turn the
            // chooser has just judged that very position.
            let target =
                if ordinary { chooser.chosen } else { Evaluation::new(chooser.player.value(board.position())).invert().to_array() };
            TurnOutcome { target, next: *board.position(), finished: None, rolls_again: false }
        }
    }
}

/// What one roll led to, for the player who rolled.
pub struct TurnOutcome {
    /// The TD target for the position before the roll: the value of the next
    /// rolling position, or the game's outcome, for the player who rolled.
    pub target: [f32; OUTPUTS],
    /// The next position where a player rolls, seen by that player.
    pub next: Position,
    /// `Some(true)` if the roller finished the game, `Some(false)` if its opponent did.
    pub finished: Option<bool>,
    /// The roller rolls again (acey-deucey's 1-2 played in full): `next` is
    /// seen by the roller, and `target` is its value of `next`.
    pub rolls_again: bool,
}

/// The network at 0-ply, one play in ten at random, from a generator shared
/// with the loop's dice (the self-play sampler's player).
struct Straying<'a> {
    net: NetChooser<'a>,
    rng: &'a RefCell<Dice>,
}

impl Chooser for Straying<'_> {
    fn choose_play(&mut self, pos: &Position, dice: [u8; 2], rolls_before: u32, plays: &[Move]) -> usize {
        let mut rng = self.rng.borrow_mut();
        if rng.below(10) == 0 {
            return rng.below(plays.len());
        }
        drop(rng);
        self.net.choose_play(pos, dice, rolls_before, plays)
    }
}

/// Positions from games the network plays against itself at 0-ply through
/// the turn driver (with one play or cascade step in ten chosen at random, so
/// the sample strays from the main lines), each seen from the player on roll
/// and taken with probability 1/4.
pub fn selfplay_positions(net: &Mlp, rules: Rules, count: usize, seed: u64) -> Vec<Position> {
    let rng = RefCell::new(Dice::training(seed));
    let mut player = Straying { net: NetChooser::new(Nets::one(net)), rng: &rng };
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut board = TurnDriver::new(rules, Position::start(rules), 0, 0, None);
        for turn in 0..2000 {
            if turn > 1 && rng.borrow_mut().below(4) == 0 {
                out.push(*board.position());
                if out.len() == count {
                    break;
                }
            }
            let dice = rng.borrow_mut().roll();
            let progress = crate::turn::play_roll(&mut board, dice, &mut SelfPlay(&mut player)).expect("dice 1 to 6 between rolls");
            if matches!(progress, Progress::GameOver(_)) {
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_follow_the_rules() {
        // I have borne off everything; the opponent has none off, one on my 3.
        let mut theirs = [0i64; 25];
        theirs[21] = 1; // their 22 = my 3 in backgammon
        theirs[0] = 14;
        let p = Position::from_arrays(Rules::backgammon(), &[0; 25], &theirs).unwrap();
        assert_eq!(final_outcome(&p), [1.0, 1.0, 1.0, 0.0, 0.0]);
        let mut theirs = [0i64; 25];
        theirs[0] = 15;
        let p = Position::from_arrays(Rules::backgammon(), &[0; 25], &theirs).unwrap();
        assert_eq!(final_outcome(&p), [1.0, 1.0, 0.0, 0.0, 0.0]);
        assert_eq!(outcome_points(&final_outcome(&p)), 2.0);
    }
}
