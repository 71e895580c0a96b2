//! The game loops agree: the same seeded dice and the same choices give the
//! same game through `Game`, the duel harness and the rollouts' play-out, in
//! every variant (gul bara with its cascades, long nardy with the last-roll
//! draw's rule set too), because all of them play their rolls through the one
//! turn driver. Self-play training's loop is checked against `Game` in the
//! training crate (`coach/src/td.rs`).

use crate::dice::Dice;
use crate::duel::{play_game_with, Player};
use crate::game::{CubeRules, Game, Stakes};
use crate::nn::player::{NetChooser, Nets};
use crate::position::{Position, ME};
use crate::rollout::cubeful::play_out;
use crate::turn::{Chooser, Finish, SelfPlay, TurnDriver};
use crate::variant::{Rules, Variant};

/// The network at 0-ply as a duel seat.
struct Net(Variant);

impl Player for Net {
    fn name(&self) -> String {
        "net".into()
    }
    fn chooser(&self, _: u64) -> Box<dyn Chooser + '_> {
        Box::new(NetChooser::new(Nets::one(crate::nn::shipped::network(self.0))))
    }
}

/// One game as every loop reports it: the roller's pip count before each
/// roll, and the result for seat 0 (the starter).
#[derive(Debug, PartialEq)]
struct Played {
    pips: Vec<u32>,
    finish: Finish,
}

/// The dice every loop draws: two dice a roll from the training stream.
fn dice(seed: u64) -> Dice {
    Dice::training(seed)
}

fn through_game(rules: Rules, seed: u64) -> Played {
    let mut game = Game::new(rules, CubeRules::default(), Stakes::money(), 0).unwrap();
    game.begin_with(0).unwrap();
    let mut source = dice(seed);
    let mut chooser = NetChooser::new(Nets::one(crate::nn::shipped::network(rules.variant)));
    let mut pips = Vec::new();
    while !game.is_over() {
        pips.push(game.position().pips()[ME]);
        game.roll(Some(source.roll())).unwrap();
        game.play_rest_of_roll(&mut SelfPlay(&mut chooser)).unwrap();
    }
    let r = game.result().unwrap();
    let finish = match r.winner {
        Some(winner) => Finish::Won { winner, multiplier: r.multiplier },
        None => Finish::Draw,
    };
    Played { pips, finish }
}

fn through_duel(rules: Rules, seed: u64) -> Played {
    let mut source = dice(seed);
    let mut pips = vec![Position::start(rules).pips()[ME]];
    let net = Net(rules.variant);
    let record = play_game_with(rules, [&net, &net], 0, 0, &mut |_| source.roll(), &mut |board: &TurnDriver, _| {
        if board.finish().is_none() {
            pips.push(board.position().pips()[ME]);
        }
    });
    let finish = match record.points {
        0 => Finish::Draw,
        p => Finish::Won { winner: (p < 0) as usize, multiplier: p.unsigned_abs() },
    };
    Played { pips, finish }
}

/// The rollouts' play-out: the pips of each turn and the starter's points.
fn through_rollout(rules: Rules, seed: u64) -> (Vec<u32>, i32) {
    let nets = Nets::one(crate::nn::shipped::network(rules.variant));
    let game = play_out(nets, &Position::start(rules), None, 0, &mut dice(seed));
    (game.turns.iter().map(|t| t.pips).collect(), game.starter_points)
}

#[test]
fn the_same_dice_and_choices_give_the_same_game_in_every_loop() {
    for rules in [Rules::backgammon(), Rules::nardy(), Rules::gulbara()] {
        for seed in [1, 2, 3] {
            let game = through_game(rules, seed);
            assert_eq!(through_duel(rules, seed), game, "{rules:?} seed {seed}: duel against Game");
            let points = match game.finish {
                Finish::Won { winner, multiplier } => multiplier as i32 * if winner == 0 { 1 } else { -1 },
                Finish::Draw => 0,
            };
            assert_eq!(through_rollout(rules, seed), (game.pips.clone(), points), "{rules:?} seed {seed}: rollout against Game");
        }
    }
}

#[test]
fn the_last_roll_draw_is_the_same_in_game_and_duel() {
    let mut rules = Rules::nardy();
    rules.last_roll_draw = true;
    for seed in 1..=6 {
        assert_eq!(through_duel(rules, seed), through_game(rules, seed), "seed {seed}");
    }
}
