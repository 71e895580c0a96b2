//! Rules of the game flow, one test per rule.

use super::players::{play_out, simulate, Strategy};
use super::*;
use crate::game::matches::Match;
use crate::position::ME;
use crate::variant::{NextGameStarter, OptionValue, Variant};

use crate::position::points_array as arrays;

/// A game from two players' layouts (own numbering), `turn` on roll.
fn game_at(rules: Rules, p0: &[(usize, i64)], p1: &[(usize, i64)], turn: usize) -> Game {
    game_with(rules, p0, p1, turn, CubeRules::default(), Stakes::money(), None)
}

fn game_with(
    rules: Rules,
    p0: &[(usize, i64)],
    p1: &[(usize, i64)],
    turn: usize,
    cube_rules: CubeRules,
    stakes: Stakes,
    starter: Option<usize>,
) -> Game {
    let (a, b) = (arrays(p0), arrays(p1));
    let position = Snapshot::position_from_players(rules, [&a, &b], turn).unwrap();
    let s = Snapshot { turn, cube_rules, stakes, ..Snapshot::new(position) };
    Game::from_snapshot(&s, 10, starter, 1).unwrap()
}

#[test]
fn backgammon_starter_plays_the_opening_dice() {
    let mut g = Game::money(Rules::backgammon(), 1);
    assert_eq!(g.phase(), Phase::OpeningRoll);
    assert_eq!(g.roll_off(Some([4, 4])).unwrap(), None, "equal dice roll again");
    assert_eq!(g.phase(), Phase::OpeningRoll);
    assert_eq!(g.roll_off(Some([2, 5])).unwrap(), Some(1));
    assert_eq!(g.turn(), 1);
    assert_eq!(g.phase(), Phase::Move);
    assert_eq!(g.dice(), Some([5, 2]));
    assert!(g.legal_moves().len() > 1);
    assert!(g.roll(None).is_err(), "the opening dice are the first roll");
}

#[test]
fn nardy_starter_rolls_again() {
    for rules in [Rules::nardy(), Rules::gulbara()] {
        let mut g = Game::money(rules, 1);
        assert_eq!(g.roll_off(Some([6, 1])).unwrap(), Some(0));
        assert_eq!(g.phase(), Phase::Roll);
        assert_eq!(g.dice(), None);
        g.roll(Some([3, 2])).unwrap();
        assert_eq!(g.phase(), Phase::Move);
        g.play_text("24/19").unwrap();
        assert_eq!(g.turn(), 1);
        assert_eq!(g.phase(), Phase::Roll);
        // Player 1 sees player 0's checker on its own point 7 (19 - 12).
        assert_eq!(g.position_for(1).to_arrays().1[18], 1);
    }
}

#[test]
fn nardy_single_dice_opening_plays_the_roll_off() {
    let mut rules = Rules::nardy();
    rules.set("opening_roll", &OptionValue::Str("single_dice".into())).unwrap();
    let mut g = Game::money(rules, 1);
    assert_eq!(g.roll_off(Some([3, 3])).unwrap(), None, "equal dice roll again: the starter never opens with a double");
    assert_eq!(g.roll_off(Some([2, 5])).unwrap(), Some(1));
    assert_eq!(g.phase(), Phase::Move);
    assert_eq!(g.dice(), Some([5, 2]));
    assert!(g.roll(None).is_err(), "the roll-off dice are the first roll");
    g.play_text("24/17").unwrap();
    assert_eq!(g.turn(), 0);
    assert_eq!(g.phase(), Phase::Roll, "the second player rolls both dice, doubles included");
    g.roll(Some([4, 4])).unwrap();
    assert_eq!(g.dice(), Some([4, 4]));
}

#[test]
fn seeded_games_repeat_and_differ() {
    let run = |seed| {
        let mut g = Game::money(Rules::backgammon(), seed);
        play_out(&mut g, [Strategy::Random; 2], &mut crate::dice::Dice::new(seed)).unwrap();
        g.history().to_vec()
    };
    assert_eq!(run(5), run(5));
    assert_ne!(run(5), run(6));
}

#[test]
fn a_player_who_cannot_move_passes() {
    // Player 0 on the bar against a closed board: 6-6 cannot enter.
    let closed: Vec<(usize, i64)> = (1..=6).map(|p| (p, 2)).chain([(13, 3)]).collect();
    let mut g = game_at(Rules::backgammon(), &[(25, 1), (6, 14)], &closed, 0);
    g.roll(Some([6, 6])).unwrap();
    assert_eq!(g.legal_moves().len(), 1);
    assert!(g.legal_moves()[0].play.is_empty());
    g.play_text("pass").unwrap();
    assert_eq!(g.turn(), 1);
    assert_eq!(g.phase(), Phase::Roll);
}

#[test]
fn backgammon_results_times_the_cube() {
    // Player 0 bears off its last checker; player 1 has none off.
    let mut g = game_at(Rules::backgammon(), &[(1, 1)], &[(6, 15)], 0);
    g.double().unwrap();
    g.take().unwrap();
    g.roll(Some([2, 1])).unwrap();
    g.play(0).unwrap();
    let r = g.result().unwrap();
    assert_eq!((r.winner, r.multiplier, r.cube, r.points), (Some(0), 2, 2, 4));
    assert_eq!(r.kind_name(Variant::Backgammon), "gammon");
    assert!(g.roll(None).is_err());
    // A checker in the winner's home: backgammon.
    let mut g = game_at(Rules::backgammon(), &[(1, 1)], &[(6, 14), (20, 1)], 0);
    g.roll(Some([2, 1])).unwrap();
    g.play(0).unwrap();
    assert_eq!(g.result().unwrap().multiplier, 3);
}

#[test]
fn jacoby_counts_gammons_single_until_the_cube_turns() {
    let jacoby = CubeRules { jacoby: true, ..CubeRules::default() };
    let mut g = game_with(Rules::backgammon(), &[(1, 1)], &[(6, 15)], 0, jacoby, Stakes::money(), None);
    g.roll(Some([2, 1])).unwrap();
    g.play(0).unwrap();
    let r = g.result().unwrap();
    assert_eq!((r.multiplier, r.points), (2, 1));
    let mut g = game_with(Rules::backgammon(), &[(1, 1)], &[(6, 15)], 0, jacoby, Stakes::money(), None);
    g.double().unwrap();
    g.take().unwrap();
    g.roll(Some([2, 1])).unwrap();
    g.play(0).unwrap();
    assert_eq!(g.result().unwrap().points, 4);
    let bad = Game::new(Rules::backgammon(), jacoby, Stakes { match_length: 5, ..Stakes::money() }, 0);
    assert!(bad.unwrap_err().to_string().contains("money play"));
}

#[test]
fn cube_sequence_ownership_and_pass() {
    let mut g = Game::money(Rules::nardy(), 3);
    g.roll_off(Some([5, 3])).unwrap();
    g.double().unwrap();
    assert_eq!(g.decider(), Some(1));
    assert!(g.roll(None).is_err(), "the double must be answered first");
    g.take().unwrap();
    assert_eq!(g.cube(), Cube { value: 2, owner: Some(1) });
    assert_eq!(g.turn(), 0, "the doubler rolls after a take");
    let e = g.double().unwrap_err().to_string();
    assert!(e.contains("not yours"), "{e}");
    g.roll(Some([6, 5])).unwrap();
    g.play(0).unwrap();
    // Player 1 owns the cube and redoubles; player 0 passes at 2.
    g.double().unwrap();
    let r = g.pass().unwrap();
    assert_eq!((r.winner, r.points, r.ending), (Some(1), 2, Ending::CubePassed));
    assert!(g.take().is_err());
}

#[test]
fn beaver_only_in_money_play_with_the_option() {
    let mut g = Game::money(Rules::backgammon(), 3);
    g.roll_off(Some([5, 3])).unwrap();
    g.play(0).unwrap();
    g.double().unwrap();
    assert!(g.beaver().unwrap_err().to_string().contains("beaver"));
    let beaver = CubeRules { beaver: true, ..CubeRules::default() };
    let mut g = Game::new(Rules::backgammon(), beaver, Stakes::money(), 3).unwrap();
    g.roll_off(Some([5, 3])).unwrap();
    g.play(0).unwrap();
    g.double().unwrap();
    g.beaver().unwrap();
    assert_eq!(g.cube(), Cube { value: 4, owner: Some(0) });
    assert_eq!(g.turn(), 1);
    assert_eq!(g.phase(), Phase::Roll);
}

#[test]
fn failed_actions_change_nothing() {
    let mut g = Game::money(Rules::backgammon(), 3);
    g.roll_off(Some([5, 3])).unwrap();
    let before = (g.phase(), g.history().len(), *g.position(), g.legal_moves().to_vec());
    assert!(g.roll(Some([1, 2])).is_err());
    assert!(g.play(999).unwrap_err().to_string().contains("does not exist"));
    assert!(g.play_text("24/10").unwrap_err().to_string().contains("not a legal move"));
    assert!(g.double().is_err());
    assert!(g.take().is_err());
    assert_eq!(before, (g.phase(), g.history().len(), *g.position(), g.legal_moves().to_vec()));
    assert!(g.roll_off(Some([7, 1])).is_err());
}

/// One checker on point 1: each side's checkers in the last-roll tests.
const LAST_CHECKER: [(usize, i64); 1] = [(1, 1)];

#[test]
fn last_roll_draw() {
    let mut rules = Rules::nardy();
    rules.set("last_roll_draw", &OptionValue::Bool(true)).unwrap();
    // The starter (0) bears off its last checker; player 1 also finishes: draw.
    let (a, b) = (LAST_CHECKER, LAST_CHECKER);
    let mut g = game_with(rules, &a, &b, 0, CubeRules::default(), Stakes::money(), Some(0));
    g.roll(Some([2, 1])).unwrap();
    g.play(0).unwrap();
    assert_eq!(g.phase(), Phase::Roll);
    assert!(g.is_last_turn());
    assert!(g.double().is_err(), "no doubling in the last turn");
    g.roll(Some([3, 4])).unwrap();
    g.play(0).unwrap();
    let r = g.result().unwrap();
    assert_eq!((r.winner, r.multiplier, r.points, r.ending), (None, 0, 0, Ending::Draw));
    // Player 1 cannot bear off both checkers with 1-1? It can (four moves); use 2 on its 6 with 1-2.
    let mut g = game_with(rules, &[(1, 1)], &[(6, 2)], 0, CubeRules::default(), Stakes::money(), Some(0));
    g.roll(Some([2, 1])).unwrap();
    g.play(0).unwrap();
    g.roll(Some([2, 1])).unwrap();
    g.play(0).unwrap();
    let r = g.result().unwrap();
    assert_eq!((r.winner, r.multiplier), (Some(0), 1), "13 of 15 off: oin");
    // Without the option the starter wins at once.
    let (a, b) = (LAST_CHECKER, LAST_CHECKER);
    let mut g = game_with(Rules::nardy(), &a, &b, 0, CubeRules::default(), Stakes::money(), Some(0));
    g.roll(Some([2, 1])).unwrap();
    g.play(0).unwrap();
    assert_eq!(g.result().unwrap().winner, Some(0));
    // The non-starter finishing first wins at once even with the option.
    let (a, b) = (LAST_CHECKER, LAST_CHECKER);
    let mut g = game_with(rules, &a, &b, 1, CubeRules::default(), Stakes::money(), Some(0));
    g.roll(Some([2, 1])).unwrap();
    g.play(0).unwrap();
    assert_eq!(g.result().unwrap().winner, Some(1));
}

#[test]
fn nardy_mars_and_koks() {
    let mut rules = Rules::nardy();
    // The loser is all on its 14 (the winner's 2).
    let mut g = game_at(rules, &[(1, 1)], &[(14, 15)], 0);
    g.roll(Some([2, 1])).unwrap();
    g.play(0).unwrap();
    assert_eq!(g.result().unwrap().multiplier, 2);
    rules.set("koks", &OptionValue::Bool(true)).unwrap();
    let mut g = game_at(rules, &[(1, 1)], &[(14, 15)], 0);
    g.roll(Some([2, 1])).unwrap();
    g.play(0).unwrap();
    assert_eq!(g.result().unwrap().kind_name(Variant::Nardy), "koks");
}

#[test]
fn gul_bara_first_three_rolls_do_not_cascade() {
    let mut g = Game::money(Rules::gulbara(), 1);
    g.roll_off(Some([6, 1])).unwrap();
    for k in 1..=4 {
        g.roll(Some([2, 2])).unwrap();
        if k <= 3 {
            assert_eq!(g.cascade_step(), None, "roll {k} is an ordinary double");
        } else {
            assert_eq!(g.cascade_step(), Some((2, 4)), "roll {k} cascades");
        }
        g.play(0).unwrap();
    }
}

#[test]
fn gul_bara_cascade_runs_up_and_hands_over() {
    // Player 0: 15 on its head. Player 1 stands on player 0's points 18 and 13
    // (its own 6 and 1): after four 5s that leave 24 for 19, no 6 can move.
    let mut g = game_at(Rules::gulbara(), &[(24, 15)], &[(6, 7), (1, 8)], 0);
    g.roll(Some([5, 5])).unwrap();
    assert_eq!(g.cascade_step(), Some((5, 4)));
    g.play_text("24/19(4)").unwrap();
    // No 6 can move: the roller's step of sixes is a pass, which ends its share.
    assert_eq!((g.turn(), g.cascade_step()), (0, Some((6, 4))));
    assert!(g.legal_moves()[0].play.is_empty());
    g.play_text("pass").unwrap();
    assert_eq!(g.turn(), 1, "the sixes pass to the opponent");
    assert!(g.is_cascade_handover());
    assert_eq!(g.cascade_step(), Some((6, 4)));
    // Player 1 bears off four checkers from its 6 with the handed-over sixes.
    g.play_text("6/off(4)").unwrap();
    assert_eq!(g.position().off(ME), 4);
    assert_eq!(g.turn(), 1, "then it rolls its own turn");
    assert_eq!(g.phase(), Phase::Roll);
    assert_eq!(g.cascade_step(), None);
    // A full cascade by the roller: 5s then 6s, then the turn passes.
    let mut g = game_at(Rules::gulbara(), &[(24, 15)], &[(1, 15)], 0);
    g.roll(Some([5, 5])).unwrap();
    g.play_text("24/19(4)").unwrap();
    assert_eq!((g.turn(), g.cascade_step()), (0, Some((6, 4))));
    g.play_text("24/18(4)").unwrap();
    assert_eq!((g.turn(), g.phase()), (1, Phase::Roll));
    // The unplayed part of a number passes too. Player 1 blocks player 0's
    // 18 and 8 (its own 6 and 20): with 6-6 only 20/14(2) can move.
    let mut g = game_at(Rules::gulbara(), &[(24, 13), (20, 2)], &[(6, 7), (20, 8)], 0);
    g.roll(Some([6, 6])).unwrap();
    assert_eq!(g.legal_moves().len(), 1);
    g.play_text("20/14(2)").unwrap();
    assert_eq!((g.turn(), g.cascade_step()), (1, Some((6, 2))));
    g.play_text("20/14(2)").unwrap();
    assert_eq!((g.turn(), g.phase(), g.cascade_step()), (1, Phase::Roll, None));
}

#[test]
fn matches_score_crawford_and_starters() {
    let mut m = Match::new(Rules::nardy(), 3, true, CubeRules::default(), 9).unwrap();
    let g = m.game_mut();
    g.roll_off(Some([6, 2])).unwrap();
    g.double().unwrap();
    g.pass().unwrap();
    assert_eq!(m.score(), [1, 0]);
    m.next_game().unwrap();
    assert_eq!(m.game().starter(), Some(0), "the winner starts the next game");
    assert_eq!(m.game().phase(), Phase::Roll);
    m.game_mut().double().unwrap();
    m.game_mut().pass().unwrap();
    assert_eq!(m.score(), [2, 0]);
    m.next_game().unwrap();
    assert!(m.game().stakes().crawford_game);
    assert!(m.game_mut().double().unwrap_err().to_string().contains("Crawford"));
    // Play the Crawford game out.
    let mut picks = crate::dice::Dice::new(1);
    play_out(m.game_mut(), [Strategy::Greedy, Strategy::Random], &mut picks).unwrap();
    if !m.is_over() {
        m.next_game().unwrap();
        assert!(!m.game().stakes().crawford_game, "post-Crawford");
        assert!(m.game().may_double());
    }
    assert!(Match::with_score(Rules::nardy(), 3, true, CubeRules::default(), [3, 0], false, 1).is_err());
    assert!(Match::new(Rules::nardy(), 0, true, CubeRules::default(), 1).is_err());
    // Alternating starters.
    let mut rules = Rules::backgammon();
    rules.next_game_starter = NextGameStarter::Alternate;
    let mut m = Match::new(rules, 5, true, CubeRules::default(), 9).unwrap();
    m.game_mut().roll_off(Some([6, 2])).unwrap();
    m.game_mut().play(0).unwrap();
    m.game_mut().double().unwrap();
    m.game_mut().pass().unwrap();
    assert_eq!(m.game().result().unwrap().winner, Some(1));
    m.next_game().unwrap();
    assert_eq!(m.game().starter(), Some(1), "alternate: the other player starts");
    assert!(m.next_game().unwrap_err().to_string().contains("not over"));
}

#[test]
fn whole_games_between_trivial_players() {
    for rules in [Rules::backgammon(), Rules::nardy(), Rules::gulbara()] {
        let t = simulate(rules, 300, 42, [Strategy::Random, Strategy::Random]).unwrap();
        let total: u64 = t.wins.iter().flatten().sum::<u64>() + t.draws;
        assert_eq!(total, 300);
        assert!(t.wins[0].iter().sum::<u64>() > 90 && t.wins[1].iter().sum::<u64>() > 90, "{rules:?} {t:?}");
        // Greedy beats random clearly.
        let t = simulate(rules, 200, 7, [Strategy::Greedy, Strategy::Random]).unwrap();
        assert!(t.wins[0].iter().sum::<u64>() > 140, "{rules:?} {t:?}");
    }
}

#[test]
fn gul_bara_head_rule_counts_the_whole_cascade_as_one_turn() {
    let mut rules = Rules::gulbara();
    rules.set("head_rule", &OptionValue::Bool(true)).unwrap();
    // Not the first turn: 14 on the head, one checker on 10.
    let mut g = game_at(rules, &[(24, 14), (10, 1)], &[(1, 15)], 0);
    g.roll(Some([2, 2])).unwrap();
    assert_eq!(g.cascade_step(), Some((2, 4)));
    let from_head = |m: &crate::Move| m.play.steps().iter().filter(|s| s.from == 24).count();
    assert!(g.legal_moves().iter().all(|m| from_head(m) <= 1));
    let k = g.legal_moves().iter().position(|m| from_head(m) == 1 && m.moves_played() == 4).unwrap();
    g.play(k).unwrap();
    assert_eq!(g.cascade_step(), Some((3, 4)));
    assert!(!g.legal_moves().is_empty());
    assert!(g.legal_moves().iter().all(|m| from_head(m) == 0), "the head was used earlier in the cascade");
}

#[test]
fn the_cube_limit_is_a_power_of_two_up_to_2_to_15() {
    // Issue 24's fuzzing: limits past 2^15 were accepted (a position's JSON
    // then wrote an XGID that does not read back), and with a limit of 2^31
    // the cube could reach it, where checking one more double computes 2^32.
    let big = CubeRules { max_value: 1 << 31, ..CubeRules::default() };
    let e = Game::new(Rules::backgammon(), big, Stakes::money(), 0).unwrap_err().to_string();
    assert!(e.contains("up to 32768"), "{e}");
    let top = CubeRules { max_value: 1 << 15, ..CubeRules::default() };
    assert!(Game::new(Rules::backgammon(), top, Stakes::money(), 0).is_ok());
    let s = Snapshot { cube_rules: big, ..Snapshot::new(Position::start(Rules::backgammon())) };
    assert!(s.validate().unwrap_err().to_string().contains("up to 32768"));
}

#[test]
fn a_money_session_adds_up_points_and_is_never_over() {
    let cube = CubeRules { beaver: true, jacoby: true, ..CubeRules::default() };
    let mut m = Match::money(Rules::backgammon(), cube, [3, 0], 4).unwrap();
    assert!(m.is_money() && !m.is_crawford() && !m.is_post_crawford());
    m.game_mut().begin_with(1).unwrap();
    m.game_mut().double().unwrap();
    m.game_mut().beaver().unwrap();
    assert_eq!(m.game().cube(), Cube { value: 4, owner: Some(0) });
    m.game_mut().roll(Some([3, 1])).unwrap();
    m.game_mut().play(0).unwrap();
    m.game_mut().double().unwrap();
    m.game_mut().pass().unwrap();
    assert_eq!(m.score(), [7, 0]);
    assert_eq!((m.winner(), m.is_over(), m.next_is_crawford()), (None, false, false));
    m.next_game().unwrap();
    assert_eq!(m.game().stakes(), &Stakes::money());
    assert_eq!(m.game().starter(), Some(0), "the winner starts the next game");
    assert_eq!(m.initial_score(), [3, 0]);
    assert!(Match::money(Rules::backgammon(), CubeRules { max_value: 3, ..cube }, [0, 0], 1).is_err());
}

#[test]
fn a_match_from_a_position_keeps_its_stakes_and_the_crawford_rule() {
    let rules = Rules::backgammon();
    let (a, b) = (arrays(&[(6, 3), (5, 3), (4, 2)]), arrays(&[(6, 5), (5, 3)]));
    let position = Snapshot::position_from_players(rules, [&a, &b], 0).unwrap();
    let stakes = Stakes { match_length: 5, score: [2, 3], crawford_game: false };
    let s = Snapshot { stakes, ..Snapshot::new(position) };
    let mut m = Match::from_snapshot(&s, 10, None, true, 1).unwrap();
    assert_eq!((m.length(), m.score(), m.is_crawford(), m.is_post_crawford()), (5, [2, 3], false, false));
    m.game_mut().double().unwrap();
    m.game_mut().pass().unwrap();
    assert_eq!(m.score(), [3, 3]);
    assert!(!m.next_is_crawford());
    // At 4-3 the next game is the Crawford game, and after it post-Crawford.
    let s = Snapshot { stakes: Stakes { score: [3, 3], ..stakes }, ..s };
    let mut m = Match::from_snapshot(&s, 10, None, true, 1).unwrap();
    m.game_mut().double().unwrap();
    m.game_mut().pass().unwrap();
    assert!(m.next_is_crawford());
    m.next_game().unwrap();
    assert!(m.is_crawford() && !m.is_post_crawford() && !m.game().may_double());
    let crawford = Snapshot { stakes: Stakes { score: [4, 3], crawford_game: true, ..stakes }, ..s };
    assert!(Match::from_snapshot(&crawford, 10, None, false, 1).unwrap_err().to_string().contains("Crawford rule"));
    let post = Snapshot { stakes: Stakes { score: [4, 3], crawford_game: false, ..stakes }, ..s };
    assert!(Match::from_snapshot(&post, 10, None, true, 1).unwrap().is_post_crawford());
    // A money position makes a money session.
    let money = Match::from_snapshot(&Snapshot::new(position), 10, None, true, 1).unwrap();
    assert!(money.is_money() && !money.crawford_rule());
}

#[test]
fn a_snapshot_of_a_third_player_is_an_error() {
    let (a, b) = (arrays(&[(6, 15)]), arrays(&[(6, 15)]));
    assert!(Snapshot::position_from_players(Rules::backgammon(), [&a, &b], 1).is_ok());
    let e = Snapshot::position_from_players(Rules::backgammon(), [&a, &b], 2).unwrap_err();
    assert!(e.to_string().contains("player 2 does not exist"), "{e}");
}

/// Checks what a reserve game's history says about its extra rolls: each
/// play that rolls again is a named 1-2 followed by an extra roll of the same
/// player (or ends the game), and only those rolls are extra. Returns the
/// number of extra rolls.
fn check_extra_rolls(g: &Game) -> usize {
    let history = g.history();
    let mut extra = 0;
    for (k, e) in history.iter().enumerate() {
        match *e {
            Event::Move { player, named, rolls_again: true, .. } => {
                assert!(named.is_some(), "event {k}: a play that rolls again names a number");
                if let Some(next) = history.get(k + 1) {
                    assert!(matches!(next, Event::Roll { player: p, extra: true, .. } if *p == player), "event {k}: {next:?}");
                }
            }
            Event::Roll { player, extra: true, .. } => {
                extra += 1;
                assert!(matches!(history[k - 1], Event::Move { player: p, rolls_again: true, .. } if p == player), "event {k}");
            }
            _ => {}
        }
    }
    extra
}

#[test]
fn the_reserve_games_play_to_their_end() {
    for variant in [Variant::Dutch, Variant::AceyDeucey] {
        let rules = Rules::new(variant);
        let mut extra = 0;
        for seed in 1..=4 {
            let mut g = Game::money(rules, seed);
            let strategies = if seed % 2 == 0 { [Strategy::Greedy, Strategy::Random] } else { [Strategy::Random; 2] };
            let r = play_out(&mut g, strategies, &mut crate::dice::Dice::new(seed + 7)).unwrap();
            assert!(r.winner.is_some() && (1..=3).contains(&r.multiplier), "{variant:?} seed {seed}: {r:?}");
            assert_eq!(r.ending, Ending::BoreOff);
            // The winner has borne off everything; nothing of it is in reserve.
            let winner = g.position_for(r.winner.unwrap());
            assert_eq!((winner.off(ME), winner.reserve(ME)), (15, 0));
            extra += check_extra_rolls(&g);
            // The same seed plays the same game.
            let mut again = Game::money(rules, seed);
            play_out(&mut again, strategies, &mut crate::dice::Dice::new(seed + 7)).unwrap();
            assert_eq!(again.history(), g.history());
        }
        assert_eq!(extra > 0, variant == Variant::AceyDeucey, "{variant:?}: {extra} extra rolls");
    }
    let t = simulate(Rules::acey_deucey(), 20, 3, [Strategy::Greedy, Strategy::Random]).unwrap();
    assert_eq!(t.games, 20);
    assert!(t.wins[0].iter().sum::<u64>() > t.wins[1].iter().sum::<u64>(), "greedy beats random: {t:?}");
    assert_eq!(simulate(Rules::dutch(), 5, 3, [Strategy::Random; 2]).unwrap().games, 5);
}

#[test]
fn an_acey_deucey_opening_one_two_names_a_number_and_rolls_again() {
    let mut g = Game::new(Rules::acey_deucey(), CubeRules::default(), Stakes::money(), 1).unwrap();
    // Player 1 wins the roll-off with the 2 and plays the 2-1 as its first roll.
    assert_eq!(g.roll_off(Some([1, 2])).unwrap(), Some(1));
    assert_eq!((g.phase(), g.dice()), (Phase::Move, Some([2, 1])));
    assert!(g.legal_moves().iter().all(|m| m.named.is_some() && m.rolls_again));
    let e = g.play_text("reserve/24 reserve/23 named 7: 24/18 23/17").unwrap_err().to_string();
    assert!(e.contains("1 to 6"), "{e}");
    // A named 5 moves by fives, and four of them.
    let e = g.play_text("reserve/24 reserve/23 named 5: 24/18").unwrap_err().to_string();
    assert!(e.contains("not a legal move"), "{e}");
    g.play_text("reserve/24 reserve/23 named 6: reserve/19(2) 24/18 23/17").unwrap();
    assert_eq!((g.turn(), g.phase(), g.is_extra_roll()), (1, Phase::Roll, true));
    assert_eq!(g.position().reserve(ME), 11);
    assert!(g.check_double().unwrap_err().to_string().contains("extra roll"));
    assert!(g.double().is_err());
    // A snapshot (and its JSON) keeps the extra roll: a game from it may not double either.
    let s = Snapshot::of_game(&g);
    assert!(s.extra_roll);
    let text = crate::formats::json::snapshot_to_json(&s);
    assert!(text.contains("\"extra_roll\":true"), "{text}");
    let again = Game::from_snapshot(&crate::formats::json::snapshot_from_json(&text).unwrap(), g.rolls(), None, 1).unwrap();
    assert!(again.is_extra_roll() && !again.may_double() && again.turn() == 1);
    for bad in [Snapshot { dice: Some([6, 5]), ..s }, Snapshot { position: Position::start(Rules::dutch()), ..s }] {
        assert!(Game::from_snapshot(&bad, 2, None, 1).unwrap_err().to_string().contains("extra roll"));
    }
    g.roll(Some([6, 5])).unwrap();
    assert!(!g.is_extra_roll());
    g.play(0).unwrap();
    assert_eq!((g.turn(), g.phase()), (0, Phase::Roll));
    assert!(g.may_double(), "the next player may double: the cube is an option of acey-deucey");
    let h = g.history();
    assert!(matches!(h[1], Event::Move { player: 1, named: Some(6), rolls_again: true, .. }), "{:?}", h[1]);
    assert_eq!(h[2], Event::Roll { player: 1, dice: [6, 5], extra: true });
    assert_eq!(check_extra_rolls(&g), 1);
    // Played without the cube, nobody doubles.
    let off = CubeRules { enabled: false, ..CubeRules::default() };
    let mut g = Game::new(Rules::acey_deucey(), off, Stakes::money(), 1).unwrap();
    g.roll_off(Some([3, 1])).unwrap();
    g.play(0).unwrap();
    assert!(g.check_double().unwrap_err().to_string().contains("without the doubling cube"));
}

#[test]
fn a_dutch_game_enters_from_the_reserve_and_hits_only_from_home() {
    let mut g = Game::money(Rules::dutch(), 1);
    assert_eq!(g.roll_off(Some([6, 5])).unwrap(), Some(0));
    assert_eq!(g.legal_moves().len(), 1, "6-5 from the reserve enters on 19 and 20 only");
    g.play_text("reserve/19 reserve/20").unwrap();
    assert_eq!((g.turn(), g.phase(), g.is_extra_roll()), (1, Phase::Roll, false));
    // enter_all_first: player 1 enters with every die while it has a reserve.
    g.roll(Some([1, 2])).unwrap();
    assert!(g.legal_moves().iter().all(|m| m.named.is_none() && !m.rolls_again));
    assert!(g.legal_moves().iter().all(|m| m.play.steps().iter().all(|s| s.from == crate::position::RESERVE_POINT)));
    // No early hitting: player 0 with nothing home may not land on player 1's blots.
    let (a, b) = (arrays(&[(13, 2)]), arrays(&[(20, 1)]));
    let pos = Snapshot::position_from_players_with_reserve(Rules::dutch(), [&a, &b], [13, 14], 0).unwrap();
    let mut g = Game::from_snapshot(&Snapshot::new(pos), 10, None, 1).unwrap();
    g.roll(Some([4, 4])).unwrap();
    assert!(g.legal_moves().iter().all(|m| m.play.steps().iter().all(|s| !s.hit)));
}

#[test]
fn a_reserve_counts_as_on_the_bar_for_a_games_result() {
    for rules in [Rules::dutch(), Rules::acey_deucey()] {
        // Player 0's last checker on its 1; player 1 has none off, one in reserve.
        let (a, b) = (arrays(&[(1, 1)]), arrays(&[(13, 14)]));
        let pos = Snapshot::position_from_players_with_reserve(rules, [&a, &b], [0, 1], 0).unwrap();
        let mut g = Game::from_snapshot(&Snapshot::new(pos), 40, None, 1).unwrap();
        g.double().unwrap();
        g.take().unwrap();
        g.roll(Some([6, 5])).unwrap();
        g.play(0).unwrap();
        let r = g.result().unwrap();
        assert_eq!((r.winner, r.multiplier, r.points), (Some(0), 3, 6), "{rules:?}");
        assert_eq!(r.kind_name(rules.variant), "backgammon");
    }
}

#[test]
fn a_match_longer_than_the_match_equity_tables_is_refused() {
    let cube = CubeRules::default();
    let stakes = |n| Stakes { match_length: n, ..Stakes::money() };
    assert!(Game::new(Rules::backgammon(), cube, stakes(MAX_MATCH_LENGTH), 0).is_ok());
    let err = Game::new(Rules::backgammon(), cube, stakes(MAX_MATCH_LENGTH + 1), 0).unwrap_err().to_string();
    assert_eq!(err, "a match is played to at most 64 points, not 65");
    assert!(Match::new(Rules::nardy(), 100, true, cube, 0).is_err());
}

#[test]
fn a_crawford_game_needs_exactly_one_player_at_match_point() {
    let cube = CubeRules::default();
    let crawford = |score| Stakes { match_length: 5, score, crawford_game: true };
    assert!(Game::new(Rules::backgammon(), cube, crawford([4, 2]), 0).is_ok());
    for score in [[3, 3], [4, 4], [0, 0]] {
        let err = Game::new(Rules::backgammon(), cube, crawford(score), 0).unwrap_err().to_string();
        assert!(err.contains("the Crawford game needs exactly one player one point from winning"), "{score:?}: {err}");
    }
    assert!(Match::with_score(Rules::backgammon(), 5, true, cube, [3, 3], true, 0).is_err());
    assert!(Match::with_score(Rules::backgammon(), 5, false, cube, [4, 2], true, 0).is_err());
}
