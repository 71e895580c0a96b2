//! Self-play TD training, TD(0) or TD(lambda), in the manner of TD-Gammon.
//!
//! The network plays both sides, choosing at 0-ply the play whose resulting
//! position is worst for the opponent. After each play the position before it
//! is moved towards the value of the position after it (seen from the same
//! player), or towards the game's actual result once a side has borne off;
//! with a trace decay (lambda) the target is the lambda-return instead, which
//! mixes in the later positions' values and the result.
//! Bear-off positions take their exact value from the tables (as at the
//! engine's 0-ply) and are not trained on. Every random choice comes from one
//! seeded generator, so a run is reproducible from its seed.
//!
//! Gul bara games are trained without cascades (a double plays as an ordinary
//! double): the network still learns gul bara positions, and the game layer
//! plays cascades with the same evaluation.

use crate::outcome::{final_evaluation, game_result, Evaluation};
use std::cell::RefCell;

use crate::dice::Dice;
use crate::movegen::Move;
use crate::nn::encoding::{encode, input_count};
use crate::nn::{Mlp, OUTPUTS};
use crate::outcome::bear_off_multiplier;
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

/// The networks a 0-ply player judges with: a contact network and, in
/// backgammon, optionally one for pure races (as the engine's evaluator).
#[derive(Clone, Copy)]
pub struct Nets<'a> {
    pub contact: &'a Mlp,
    pub race: Option<&'a Mlp>,
}

impl<'a> Nets<'a> {
    /// One network for every position (training plays with these).
    pub fn one(net: &'a Mlp) -> Nets<'a> {
        Nets { contact: net, race: None }
    }

    /// The shipped networks of a variant.
    pub fn shipped(variant: crate::variant::Variant) -> Nets<'static> {
        Nets { contact: crate::nn::shipped::network(variant), race: crate::nn::shipped::race_network(variant) }
    }

    /// The network that judges `pos`: the race one in a pure race.
    pub fn for_position(&self, pos: &Position) -> &'a Mlp {
        match self.race {
            Some(race) if pos.is_race() => race,
            _ => self.contact,
        }
    }
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
    /// with the opponent on roll.
    pub fn after_play(&mut self, m: &Move) -> [f32; OUTPUTS] {
        if m.position.off(ME) == CHECKERS {
            return final_outcome(&m.position);
        }
        Evaluation::new(self.value(&m.position.flip())).invert().to_array()
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

#[derive(Clone, Debug, Default)]
pub struct TrainStats {
    pub games: usize,
    pub turns: usize,
    /// Games the first player (on roll at the start) won.
    pub first_player_wins: usize,
    pub gammons: usize,
}

pub struct TdTrainer {
    pub net: Mlp,
    pub rules: Rules,
    pub rng: Dice,
    pub rate: f32,
    /// TD(lambda)'s lambda; 0 (the default) learns online after every turn.
    pub trace_decay: f32,
    x: Vec<f32>,
}

impl TdTrainer {
    pub fn new(rules: Rules, hidden: usize, seed: u64, rate: f32) -> TdTrainer {
        let net = Mlp::new(input_count(rules.variant), hidden, seed ^ 0x5EED);
        TdTrainer::from_net(net, rules, seed, rate)
    }

    pub fn from_net(net: Mlp, rules: Rules, seed: u64, rate: f32) -> TdTrainer {
        let x = vec![0.0; net.inputs];
        TdTrainer { net, rules, rng: Dice::training(seed), rate, trace_decay: 0.0, x }
    }

    /// Plays and learns from `games` self-play games.
    pub fn train(&mut self, games: usize) -> TrainStats {
        let mut stats = TrainStats::default();
        for _ in 0..games {
            self.train_one_game(&mut stats);
        }
        stats
    }

    fn train_one_game(&mut self, stats: &mut TrainStats) {
        let mut board = TurnDriver::new(self.rules, Position::start(self.rules), 0, 0, None);
        let mut first_to_move = true;
        // With a trace decay the game's turns are kept and learned at its end.
        let mut turns: Vec<(Position, [f32; OUTPUTS])> = Vec::new();
        let mut finished = false;
        for _ in 0..2000u32 {
            let pos = *board.position();
            let (d1, d2) = (self.rng.die(), self.rng.die());
            let turn = play_roll(Nets::one(&self.net), &mut board, [d1, d2]);
            if self.trace_decay > 0.0 {
                turns.push((pos, turn.target));
            } else {
                // The position before the roll, seen by the mover, learns the value
                // of the next position where a player rolls (or the game's result).
                self.learn(&pos, &turn.target);
            }
            stats.turns += 1;
            if let Some(mover_won) = turn.finished {
                stats.games += 1;
                stats.first_player_wins += (first_to_move == mover_won) as usize;
                stats.gammons += (turn.target[1] > 0.5 || turn.target[3] > 0.5) as usize;
                finished = true;
                break;
            }
            first_to_move = !first_to_move;
        }
        if !finished {
            stats.games += 1; // a game this long is abandoned (never seen in practice)
        }
        self.learn_lambda_returns(&turns);
    }

    /// One step towards `target`, except in bear-offs, which are left to the
    /// tables: the network never answers there.
    fn learn(&mut self, pos: &Position, target: &[f32; OUTPUTS]) {
        if crate::bearoff::bearoff_homes(pos).is_none() {
            encode(pos, &mut self.x);
            self.net.train_step(&self.x, target, self.rate);
        }
    }

    /// TD(lambda) in its forward view, once a game is over: each turn learns
    /// the lambda-return, `(1 - lambda)` times its one-step target plus
    /// `lambda` times the next turn's return (seen from the other side),
    /// computed from the last turn backwards. A bear-off's value is exact, so
    /// the return stops there.
    fn learn_lambda_returns(&mut self, turns: &[(Position, [f32; OUTPUTS])]) {
        let lambda = self.trace_decay;
        let mut next_return: Option<[f32; OUTPUTS]> = None;
        let mut returns = vec![[0.0; OUTPUTS]; turns.len()];
        for (t, (pos, target)) in turns.iter().enumerate().rev() {
            let g = match next_return {
                Some(next) => {
                    let later = Evaluation::new(next).invert().to_array();
                    std::array::from_fn(|k| (1.0 - lambda) * target[k] + lambda * later[k])
                }
                None => *target,
            };
            returns[t] = g;
            next_return = if crate::bearoff::bearoff_homes(pos).is_some() { None } else { Some(g) };
        }
        for ((pos, _), g) in turns.iter().zip(&returns) {
            self.learn(pos, g);
        }
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
        },
        Progress::GameOver(Finish::Draw) => {
            TurnOutcome { target: final_evaluation(true, 0).to_array(), next: *board.position(), finished: None }
        }
        _ => {
            // The opponent rolls next (after an ordinary turn, a whole
            // cascade, or a share it played). After an ordinary turn the
            // chooser has just judged that very position.
            let target =
                if ordinary { chooser.chosen } else { Evaluation::new(chooser.player.value(board.position())).invert().to_array() };
            TurnOutcome { target, next: *board.position(), finished: None }
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
}

/// Uniformly random plays from a generator shared with the loop's dice.
struct RandomFrom<'a>(&'a RefCell<Dice>);

impl Chooser for RandomFrom<'_> {
    fn choose_play(&mut self, _: &Position, _: [u8; 2], _: u32, plays: &[Move]) -> usize {
        self.0.borrow_mut().below(plays.len())
    }
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

/// Points per game of the network against uniformly random play through the
/// turn driver, both sides starting equally often, from a fixed seed.
pub fn score_against_random(net: &Mlp, rules: Rules, games: usize, seed: u64) -> f64 {
    let rng = RefCell::new(Dice::training(seed));
    let mut total = 0.0f64;
    for g in 0..games {
        let (mut network, mut random) = (NetChooser::new(Nets::one(net)), RandomFrom(&rng));
        let mut seats: [&mut dyn Chooser; 2] = [&mut network, &mut random];
        let mut board = TurnDriver::new(rules, Position::start(rules), g % 2, 0, None);
        let finish = crate::turn::play_game(&mut board, &mut |_| rng.borrow_mut().roll(), &mut seats, &mut |_, _| {});
        if let Some(Finish::Won { winner, multiplier }) = finish {
            total += if winner == 0 { multiplier as f64 } else { -(multiplier as f64) };
        }
    }
    total / games as f64
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

    #[test]
    fn lambda_returns_blend_later_targets() {
        // Three turns of a backgammon game far from a bear-off; the last one ends it.
        let start = Position::start(Rules::backgammon());
        let a = [0.6, 0.2, 0.0, 0.1, 0.0];
        let b = [0.3, 0.1, 0.0, 0.2, 0.0];
        let end = [1.0, 0.0, 0.0, 0.0, 0.0];
        let mut trainer = TdTrainer::new(Rules::backgammon(), 8, 1, 0.0);
        trainer.trace_decay = 0.5;
        // A twin network learning the hand-computed returns in the same order
        // must end up identical.
        let turns = [(start, a), (start.flip(), b), (start, end)];
        let mut expected = TdTrainer::new(Rules::backgammon(), 8, 1, 0.5);
        let g2 = end;
        let g1: [f32; OUTPUTS] = std::array::from_fn(|k| 0.5 * b[k] + 0.5 * Evaluation::new(g2).invert().to_array()[k]);
        let g0: [f32; OUTPUTS] = std::array::from_fn(|k| 0.5 * a[k] + 0.5 * Evaluation::new(g1).invert().to_array()[k]);
        for (pos, g) in [(start, g0), (start.flip(), g1), (start, g2)] {
            expected.learn(&pos, &g);
        }
        trainer.rate = 0.5;
        trainer.learn_lambda_returns(&turns);
        assert_eq!(trainer.net, expected.net);
    }

    #[test]
    fn training_is_reproducible_and_learns_to_beat_random() {
        let mut a = TdTrainer::new(Rules::nardy(), 16, 3, 0.1);
        let mut b = TdTrainer::new(Rules::nardy(), 16, 3, 0.1);
        a.train(20);
        b.train(20);
        assert_eq!(a.net, b.net);
        // A couple of thousand games already make it far stronger than the
        // same network untrained, measured against random play.
        let untrained = score_against_random(&a.net, Rules::nardy(), 400, 9);
        a.train(2500);
        let trained = score_against_random(&a.net, Rules::nardy(), 400, 9);
        assert!(trained > untrained + 0.5, "untrained {untrained}, trained {trained}");
    }
}
