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

use std::cell::RefCell;

use tavla::dice::Dice;
use tavla::movegen::Move;
use tavla::nn::encoding::{encode, input_count};
use tavla::nn::player::{play_roll, NetChooser, Nets};
use tavla::nn::{Mlp, OUTPUTS};
use tavla::outcome::Evaluation;
use tavla::position::Position;
use tavla::turn::{Chooser, Finish, TurnDriver};
use tavla::variant::Rules;

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
        let mut turns: Vec<Turn> = Vec::new();
        let mut finished = false;
        for _ in 0..2000u32 {
            let pos = *board.position();
            let (d1, d2) = (self.rng.die(), self.rng.die());
            let turn = play_roll(Nets::one(&self.net), &mut board, [d1, d2]);
            if self.trace_decay > 0.0 {
                turns.push(Turn { pos, target: turn.target, rolls_again: turn.rolls_again });
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
            if !turn.rolls_again {
                first_to_move = !first_to_move;
            }
        }
        if !finished {
            stats.games += 1; // a game this long is abandoned (never seen in practice)
        }
        self.learn_lambda_returns(&turns);
    }

    /// One step towards `target`, except in bear-offs, which are left to the
    /// tables: the network never answers there.
    fn learn(&mut self, pos: &Position, target: &[f32; OUTPUTS]) {
        if tavla::bearoff::bearoff_homes(pos).is_none() {
            encode(pos, &mut self.x);
            self.net.train_step(&self.x, target, self.rate);
        }
    }

    /// TD(lambda) in its forward view, once a game is over: each turn learns
    /// the lambda-return, `(1 - lambda)` times its one-step target plus
    /// `lambda` times the next turn's return (seen from the other side),
    /// computed from the last turn backwards (seen from the other side, or
    /// from the same after an acey-deucey 1-2's extra roll). A bear-off's
    /// value is exact, so the return stops there.
    fn learn_lambda_returns(&mut self, turns: &[Turn]) {
        let lambda = self.trace_decay;
        let mut next_return: Option<[f32; OUTPUTS]> = None;
        let mut returns = vec![[0.0; OUTPUTS]; turns.len()];
        for (t, Turn { pos, target, rolls_again }) in turns.iter().enumerate().rev() {
            let g = match next_return {
                Some(next) => {
                    let later = if *rolls_again { next } else { Evaluation::new(next).invert().to_array() };
                    std::array::from_fn(|k| (1.0 - lambda) * target[k] + lambda * later[k])
                }
                None => *target,
            };
            returns[t] = g;
            next_return = if tavla::bearoff::bearoff_homes(pos).is_some() { None } else { Some(g) };
        }
        for (turn, g) in turns.iter().zip(&returns) {
            self.learn(&turn.pos, g);
        }
    }
}

/// One roll of a self-play game, kept for the lambda-returns.
struct Turn {
    /// Before the roll, seen by the roller.
    pos: Position,
    /// The one-step target for `pos`.
    target: [f32; OUTPUTS],
    /// The roller rolls the next roll too (acey-deucey's 1-2).
    rolls_again: bool,
}

/// Uniformly random plays from a generator shared with the loop's dice.
struct RandomFrom<'a>(&'a RefCell<Dice>);

impl Chooser for RandomFrom<'_> {
    fn choose_play(&mut self, _: &Position, _: [u8; 2], _: u32, plays: &[Move]) -> usize {
        self.0.borrow_mut().below(plays.len())
    }
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
        let finish = tavla::turn::play_game(&mut board, &mut |_| rng.borrow_mut().roll(), &mut seats, &mut |_, _| {});
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
        let turn = |pos, target| Turn { pos, target, rolls_again: false };
        let turns = [turn(start, a), turn(start.flip(), b), turn(start, end)];
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

    #[test]
    fn self_play_training_plays_the_game_that_game_plays() {
        // The same seeded dice and the network's 0-ply choices through `Game`
        // and through a trainer learning nothing (rate 0): as many rolls, the
        // same winner and the same kind of win, in every variant.
        use tavla::game::{CubeRules, Game, Stakes};
        use tavla::turn::SelfPlay;
        for rules in [Rules::backgammon(), Rules::nardy(), Rules::gulbara()] {
            for seed in [1, 2, 3] {
                let net = tavla::nn::shipped::network(rules.variant);
                let mut game = Game::new(rules, CubeRules::default(), Stakes::money(), 0).unwrap();
                game.begin_with(0).unwrap();
                let mut dice = Dice::training(seed);
                let mut chooser = NetChooser::new(Nets::one(net));
                let mut rolls = 0;
                while !game.is_over() {
                    game.roll(Some(dice.roll())).unwrap();
                    game.play_rest_of_roll(&mut SelfPlay(&mut chooser)).unwrap();
                    rolls += 1;
                }
                let result = game.result().unwrap();
                let mut trainer = TdTrainer::from_net(net.clone(), rules, seed, 0.0);
                let stats = trainer.train(1);
                assert_eq!(stats.turns, rolls, "{rules:?} seed {seed}: self-play rolls");
                assert_eq!(stats.first_player_wins, (result.winner == Some(0)) as usize, "{rules:?} seed {seed}");
                assert_eq!(stats.gammons, (result.multiplier >= 2) as usize, "{rules:?} seed {seed}");
            }
        }
    }
}
