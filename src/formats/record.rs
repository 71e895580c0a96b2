//! Game and match records as JSON, and replaying them move by move. The
//! records' contents (a [`Game`]'s settings, its [`Event`]s and its
//! [`GameResult`], a [`Match`]) are the game layer's; this module only writes
//! and reads their text.
//!
//! A game record holds the settings and the list of events; a move is kept in
//! the usual notation (and, for a cascade step, the number and the moves
//! asked), so a record is readable and replays through the same checks as a
//! person's play:
//!
//! ```json
//! {"format": "tavla.game", "version": 1, "variant": "backgammon", "rules": {...},
//!  "cube_rules": {...}, "match_length": 0, "score": [0, 0], "crawford": false,
//!  "events": [{"type": "opening_roll", "dice": [5, 2]},
//!             {"type": "move", "player": 0, "play": "13/8 13/11"},
//!             {"type": "roll", "player": 1, "dice": [6, 6]}, ...],
//!  "result": {"winner": 0, "multiplier": 2, "kind": "gammon", "cube": 2, "points": 4, "ending": "bore_off"}}
//! ```
//!
//! Acey-deucey's 1-2 keeps its named number in the play ("reserve/24
//! reserve/23 named 6: 24/18 23/17 reserve/19(2)") and, played in full,
//! `"rolls_again": true`; the extra roll after it is `"extra": true`. Where a
//! record says either, replaying checks it.
//!
//! A game that continued from a position (`Game::from_snapshot`) also has
//! `"start": {"position": <position JSON>, "rolls": n, "starter": p or null}`.
//!
//! A match record: `{"format": "tavla.match", "version": 1, "variant", "rules",
//! "cube_rules", "length", "crawford_rule", "initial_score", "initial_crawford",
//! "games": [game records], "score"}`.

use serde_json::{json, Value};

use super::json::{
    as_u32, cube_rules_from_json, cube_rules_to_json, dice_from_json, object, opt_bool, opt_player, opt_u32, pair, parse_json,
    rules_from_json, rules_to_json, snapshot_from_value, snapshot_to_value,
};
use crate::error::{Error, Result};
use crate::game::matches::Match;
use crate::game::{CubeRules, Ending, Event, Game, GameResult, Phase, Stakes};
use crate::notation::format_named;

fn event_to_json(e: &Event) -> Value {
    match e {
        Event::OpeningRoll { dice } => json!({"type": "opening_roll", "dice": dice}),
        Event::Begin { starter } => json!({"type": "begin", "starter": starter}),
        Event::Roll { player, dice, extra } => {
            let mut v = json!({"type": "roll", "player": player, "dice": dice});
            if *extra {
                v["extra"] = json!(true);
            }
            v
        }
        Event::Move { player, play, step, named, rolls_again } => {
            let mut v = json!({"type": "move", "player": player, "play": format_named(play, *named)});
            if let Some((die, count)) = step {
                v["step"] = json!([die, count]);
            }
            if *rolls_again {
                v["rolls_again"] = json!(true);
            }
            v
        }
        Event::Double { player } => json!({"type": "double", "player": player}),
        Event::Take { player } => json!({"type": "take", "player": player}),
        Event::Beaver { player } => json!({"type": "beaver", "player": player}),
        Event::Pass { player } => json!({"type": "pass", "player": player}),
    }
}

pub fn result_to_json(r: &GameResult, variant: crate::Variant) -> Value {
    json!({
        "winner": r.winner,
        "multiplier": r.multiplier,
        "kind": r.kind_name(variant),
        "cube": r.cube,
        "points": r.points,
        "ending": match r.ending {
            Ending::BoreOff => "bore_off",
            Ending::CubePassed => "cube_passed",
            Ending::Draw => "draw",
        },
    })
}

fn game_events_to_json(game: &Game) -> Value {
    json!({
        "events": game.history().iter().map(event_to_json).collect::<Vec<_>>(),
        "result": game.result().map(|r| result_to_json(&r, game.rules().variant)),
    })
}

/// Where a game that continued from a position started: `{"position", "rolls", "starter"}`.
fn start_to_json(game: &Game) -> Option<Value> {
    game.origin().map(|(snapshot, rolls, starter)| json!({"position": snapshot_to_value(snapshot), "rolls": rolls, "starter": starter}))
}

/// The position, rolls and starter of a record's `"start"`.
fn start_from_json(start: &Value) -> Result<(crate::game::Snapshot, u32, Option<usize>)> {
    let start = object(start, "\"start\"")?;
    let snapshot = snapshot_from_value(start.get("position").ok_or_else(|| Error::new("\"start\" needs \"position\""))?)?;
    let rolls = opt_u32(start, "rolls", 10)?;
    let starter = opt_player(start.get("starter"), "start.starter")?;
    Ok((snapshot, rolls, starter))
}

/// A game's record as a JSON value.
pub fn game_to_value(game: &Game) -> Value {
    let s = game.stakes();
    let mut v = json!({
        "format": "tavla.game",
        "version": 1,
        "variant": game.rules().variant.name(),
        "rules": rules_to_json(game.rules()),
        "cube_rules": cube_rules_to_json(game.cube_rules()),
        "match_length": s.match_length,
        "score": s.score,
        "crawford": s.crawford_game,
    });
    if let Some(start) = start_to_json(game) {
        v["start"] = start;
    }
    let body = game_events_to_json(game);
    v["events"] = body["events"].clone();
    v["result"] = body["result"].clone();
    v
}

pub fn game_to_json(game: &Game) -> String {
    // Serialising a serde_json::Value fails only for a map with keys that are not strings, which a Value cannot hold.
    serde_json::to_string_pretty(&game_to_value(game)).expect("a JSON value always serialises")
}

fn check_player(v: &Value, expected: usize, what: &str, k: usize) -> Result<()> {
    match opt_player(v.get("player"), "player").map_err(|e| Error::new(format!("event {k} ({what}): {e}")))? {
        Some(p) if p == expected => Ok(()),
        Some(p) => Err(Error::new(format!("event {k} ({what}) is by player {p}, but it is player {expected}'s to make"))),
        None => Err(Error::new(format!("event {k} ({what}) needs \"player\""))),
    }
}

/// Applies one recorded event to a game, checking it like a live action.
pub fn apply_event(game: &mut Game, v: &Value, k: usize) -> Result<()> {
    let obj = object(v, &format!("event {k}"))?;
    let kind = obj.get("type").and_then(Value::as_str).ok_or_else(|| Error::new(format!("event {k} needs a \"type\"")))?;
    let at = |e: Error| Error::new(format!("event {k} ({kind}): {e}"));
    match kind {
        "opening_roll" => {
            let d = dice_from_json(obj.get("dice")).map_err(at)?.ok_or_else(|| at(Error::new("needs \"dice\"")))?;
            game.roll_off(Some(d)).map_err(at)?;
        }
        "begin" => {
            let s = opt_player(obj.get("starter"), "starter").map_err(at)?.ok_or_else(|| at(Error::new("needs \"starter\"")))?;
            game.begin_with(s).map_err(at)?;
        }
        "roll" => {
            check_player(v, game.turn(), kind, k)?;
            let d = dice_from_json(obj.get("dice")).map_err(at)?.ok_or_else(|| at(Error::new("needs \"dice\"")))?;
            // "extra" (the roll after a 1-2 played in full), where the record says it, must be so.
            if let Some(extra) = obj.get("extra") {
                let extra = extra.as_bool().ok_or_else(|| at(Error::new(format!("\"extra\" is true or false, not {extra}"))))?;
                if game.phase() == Phase::Roll && extra != game.is_extra_roll() {
                    return Err(at(Error::new(if extra {
                        "the record says this is the extra roll of a 1-2, but the play before it does not roll again"
                    } else {
                        "the record says this is not an extra roll, but the 1-2 before it was played in full: the same player rolls again"
                    })));
                }
            }
            game.roll(Some(d)).map_err(at)?;
        }
        "move" => {
            check_player(v, game.turn(), kind, k)?;
            let play = obj.get("play").and_then(Value::as_str).ok_or_else(|| at(Error::new("needs \"play\"")))?;
            let said = obj
                .get("rolls_again")
                .map(|r| r.as_bool().ok_or_else(|| at(Error::new(format!("\"rolls_again\" is true or false, not {r}")))))
                .transpose()?;
            game.play_text(play).map_err(at)?;
            // "rolls_again", where the record says it, must be what the play does.
            let played = matches!(game.history().last(), Some(Event::Move { rolls_again: true, .. }));
            if said.is_some_and(|said| said != played) {
                return Err(at(Error::new(if played {
                    "the record says the play does not roll again, but it is a 1-2 played in full: the same player rolls again"
                } else {
                    "the record says the play rolls again, but only a 1-2 whose named number is played in full does"
                })));
            }
        }
        "double" => {
            check_player(v, game.turn(), kind, k)?;
            game.double().map_err(at)?;
        }
        "take" | "beaver" | "pass" => {
            check_player(v, 1 - game.turn(), kind, k)?;
            match kind {
                "take" => game.take(),
                "beaver" => game.beaver(),
                _ => game.pass().map(|_| ()),
            }
            .map_err(at)?;
        }
        other => return Err(Error::new(format!("event {k} has an unknown type {other:?}"))),
    }
    Ok(())
}

fn check_result(game: &Game, recorded: Option<&Value>) -> Result<()> {
    let Some(recorded) = recorded.filter(|r| !r.is_null()) else { return Ok(()) };
    let replayed = game.result().map(|r| result_to_json(&r, game.rules().variant));
    if replayed.as_ref() != Some(recorded) {
        return Err(Error::new(format!(
            "the record says the game ended {recorded}, but replaying it gives {}",
            replayed.map_or("no result yet".to_string(), |r| r.to_string())
        )));
    }
    Ok(())
}

fn events(v: &Value) -> Result<&Vec<Value>> {
    v.get("events").and_then(Value::as_array).ok_or_else(|| Error::new("the record needs an \"events\" list"))
}

/// A fresh game with a record's settings, and its events (not yet applied).
pub fn game_setup(v: &Value) -> Result<(Game, &Vec<Value>)> {
    let obj = object(v, "a game record")?;
    if let Some(f) = obj.get("format").and_then(Value::as_str) {
        if f != "tavla.game" {
            return Err(Error::new(format!("this is a {f:?} record, not a game (\"tavla.game\")")));
        }
    }
    let variant = obj.get("variant").and_then(Value::as_str).ok_or_else(|| Error::new("the record needs \"variant\""))?;
    let rules = rules_from_json(variant, obj.get("rules"))?;
    let stakes = Stakes {
        match_length: opt_u32(obj, "match_length", 0)?,
        score: obj.get("score").map(|s| pair(s, "score")).transpose()?.unwrap_or([0, 0]),
        crawford_game: opt_bool(obj, "crawford", false)?,
    };
    let game = match obj.get("start") {
        // The game continued from a position rather than the start.
        Some(start) => {
            let (snapshot, rolls, starter) = start_from_json(start)?;
            Game::from_snapshot(&snapshot, rolls, starter, 0)?
        }
        None => Game::new(rules, cube_rules_from_json(obj.get("cube_rules"))?, stakes, 0)?,
    };
    Ok((game, events(v)?))
}

/// Replays a game record to its end (or as far as it goes).
pub fn game_from_value(v: &Value) -> Result<Game> {
    let (mut game, evs) = game_setup(v)?;
    for (k, e) in evs.iter().enumerate() {
        apply_event(&mut game, e, k)?;
    }
    check_result(&game, v.get("result"))?;
    Ok(game)
}

pub fn game_from_json(text: &str) -> Result<Game> {
    game_from_value(&parse_json(text)?)
}

/// Every state of a recorded game: the fresh game, then one after each event.
pub fn replay_game(text: &str) -> Result<Vec<Game>> {
    let v = parse_json(text)?;
    let (mut game, evs) = game_setup(&v)?;
    let mut states = vec![game.clone()];
    for (k, e) in evs.iter().enumerate() {
        apply_event(&mut game, e, k)?;
        states.push(game.clone());
    }
    check_result(&game, v.get("result"))?;
    Ok(states)
}

pub fn match_to_json(m: &Match) -> String {
    let first = m.finished_games().first().unwrap_or(m.game());
    let mut games: Vec<Value> = m.finished_games().iter().chain([m.game()]).map(game_events_to_json).collect();
    if let Some(start) = start_to_json(first) {
        games[0]["start"] = start;
    }
    let v = json!({
        "format": "tavla.match",
        "version": 1,
        "variant": m.rules().variant.name(),
        "rules": rules_to_json(m.rules()),
        "cube_rules": cube_rules_to_json(m.cube_rules()),
        "length": m.length(),
        "crawford_rule": m.crawford_rule(),
        "initial_score": m.initial_score(),
        "initial_crawford": first.stakes().crawford_game,
        "games": games,
        "score": m.score(),
    });
    // As above: a Value always serialises.
    serde_json::to_string_pretty(&v).expect("a JSON value always serialises")
}

/// Replays a match record.
pub fn match_from_json(text: &str) -> Result<Match> {
    let v = parse_json(text)?;
    let obj = object(&v, "a match record")?;
    if obj.get("format").and_then(Value::as_str) != Some("tavla.match") {
        return Err(Error::new("a match record has \"format\": \"tavla.match\""));
    }
    let variant = obj.get("variant").and_then(Value::as_str).ok_or_else(|| Error::new("the record needs \"variant\""))?;
    let rules = rules_from_json(variant, obj.get("rules"))?;
    let length = obj.get("length").map(|l| as_u32(l, "length")).transpose()?.ok_or_else(|| Error::new("the record needs \"length\""))?;
    let cube_rules: CubeRules = cube_rules_from_json(obj.get("cube_rules"))?;
    let score = obj.get("initial_score").map(|s| pair(s, "initial_score")).transpose()?.unwrap_or([0, 0]);
    let crawford_rule = opt_bool(obj, "crawford_rule", true)?;
    let initial_crawford = opt_bool(obj, "initial_crawford", false)?;
    let games = obj.get("games").and_then(Value::as_array).ok_or_else(|| Error::new("the record needs a \"games\" list"))?;
    let mut m = match games.first().and_then(|g| g.get("start")) {
        // The first game continued from a position, which holds the stakes and the cube rules.
        Some(start) => {
            let (snapshot, rolls, starter) = start_from_json(start).map_err(|e| Error::new(format!("game 1: {e}")))?;
            if *snapshot.rules() != rules || snapshot.cube_rules != cube_rules || snapshot.stakes.match_length != length {
                return Err(Error::new("game 1: its start position's rules, cube rules or match length differ from the match's"));
            }
            let m = Match::from_snapshot(&snapshot, rolls, starter, crawford_rule, 0)?;
            if m.initial_score() != score || m.is_crawford() != initial_crawford {
                return Err(Error::new("game 1: its start position's score or Crawford game differs from the match's"));
            }
            m
        }
        None if length == 0 => Match::money(rules, cube_rules, score, 0)?,
        None => Match::with_score(rules, length, crawford_rule, cube_rules, score, initial_crawford, 0)?,
    };
    for (g, game) in games.iter().enumerate() {
        let at = |e: Error| Error::new(format!("game {}: {e}", g + 1));
        if g > 0 && game.get("start").is_some() {
            return Err(at(Error::new("only a match's first game may start from a position")));
        }
        if g > 0 {
            m.next_game().map_err(at)?;
        }
        for (k, e) in events(game).map_err(at)?.iter().enumerate() {
            // next_game already began a game its previous winner starts.
            if k == 0 && e.get("type").and_then(Value::as_str) == Some("begin") && m.game().phase() != Phase::OpeningRoll {
                continue;
            }
            apply_event(m.game_mut(), e, k).map_err(at)?;
        }
        check_result(m.game(), game.get("result")).map_err(at)?;
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Dice;
    use crate::game::players::{play_match_out, play_out, Strategy};
    use crate::game::{CubeRules, Snapshot, Stakes};
    use crate::variant::Rules;

    #[test]
    fn money_sessions_and_matches_from_positions_round_trip() {
        let cube = CubeRules { beaver: true, jacoby: true, max_value: 16, enabled: true };
        let mut m = Match::money(Rules::nardy(), cube, [2, 5], 3).unwrap();
        let mut picks = Dice::new(2);
        for _ in 0..2 {
            play_out(m.game_mut(), [Strategy::Greedy, Strategy::Random], &mut picks).unwrap();
            m.next_game().unwrap();
        }
        let text = match_to_json(&m);
        let back = match_from_json(&text).unwrap();
        assert_eq!(match_to_json(&back), text);
        assert!(back.is_money() && back.score() == m.score() && back.initial_score() == [2, 5]);
        let mut s = Snapshot::new(crate::Position::start(Rules::backgammon()));
        s.stakes = Stakes { match_length: 3, score: [0, 2], crawford_game: true };
        let mut m = Match::from_snapshot(&s, 10, None, true, 1).unwrap();
        play_out(m.game_mut(), [Strategy::Greedy, Strategy::Random], &mut picks).unwrap();
        if !m.is_over() {
            m.next_game().unwrap();
        }
        let text = match_to_json(&m);
        assert!(text.contains("\"start\""));
        let back = match_from_json(&text).unwrap();
        assert_eq!(match_to_json(&back), text);
        // The start position must agree with the match's settings.
        let bad = text.replacen("\"length\": 3", "\"length\": 5", 1);
        assert!(match_from_json(&bad).unwrap_err().to_string().contains("match length"));
    }

    #[test]
    fn records_round_trip_and_replay() {
        for rules in [Rules::backgammon(), Rules::nardy(), Rules::gulbara()] {
            let mut g = Game::money(rules, 11);
            play_out(&mut g, [Strategy::Random; 2], &mut Dice::new(3)).unwrap();
            let text = game_to_json(&g);
            let back = game_from_json(&text).unwrap();
            assert_eq!(back.history(), g.history());
            assert_eq!(back.result(), g.result());
            let states = replay_game(&text).unwrap();
            assert_eq!(states.len(), g.history().len() + 1);
            assert_eq!(states.last().unwrap().position(), g.position());
            // A tampered result is caught.
            let bad = text.replacen("\"points\": ", "\"points\": 1", 1);
            assert!(game_from_json(&bad).is_err());
        }
        // Matches, the reserve games' too (their games carry named numbers and extra rolls).
        for rules in [Rules::backgammon(), Rules::dutch(), Rules::acey_deucey()] {
            let mut m = Match::new(rules, 3, true, CubeRules::default(), 5).unwrap();
            play_match_out(&mut m, [Strategy::Greedy, Strategy::Random], &mut Dice::new(2)).unwrap();
            let text = match_to_json(&m);
            let back = match_from_json(&text).unwrap();
            assert_eq!(back.score(), m.score());
            assert_eq!(back.finished_games().len(), m.finished_games().len());
            assert_eq!(match_to_json(&back), text, "{rules:?}");
        }
    }

    #[test]
    fn a_game_from_a_position_records_where_it_began() {
        // Gul bara, player 1 on roll; player 0 has 10 on its 24 and 5 on its 9, player 1 all 15 on its 1.
        let (mut p0, mut p1) = ([0i64; 25], [0i64; 25]);
        p0[23] = 10;
        p0[8] = 5;
        p1[0] = 15;
        let position = Snapshot::position_from_players(Rules::gulbara(), [&p0, &p1], 1).unwrap();
        let mut g = Game::from_snapshot(&Snapshot { turn: 1, ..Snapshot::new(position) }, 10, None, 1).unwrap();
        play_out(&mut g, [Strategy::Random; 2], &mut Dice::new(4)).unwrap();
        let text = game_to_json(&g);
        assert!(text.contains("\"start\""));
        let back = game_from_json(&text).unwrap();
        assert_eq!(back.history(), g.history());
        assert_eq!(back.result(), g.result());
    }

    #[test]
    fn reserve_game_records_carry_the_named_number_and_the_extra_roll() {
        for rules in [Rules::dutch(), Rules::acey_deucey()] {
            for seed in 1..=3 {
                let mut g = Game::money(rules, seed);
                play_out(&mut g, [Strategy::Greedy, Strategy::Random], &mut Dice::new(seed)).unwrap();
                let text = game_to_json(&g);
                let back = game_from_json(&text).unwrap();
                assert_eq!(back.history(), g.history());
                assert_eq!(back.result(), g.result());
                assert_eq!(game_to_json(&back), text);
                let extra = text.matches("\"extra\": true").count();
                assert_eq!(extra, text.matches("\"rolls_again\": true").count());
                assert_eq!(extra > 0, text.contains(" named "));
            }
        }
        // An acey-deucey game whose opening is a 1-2: the starter names 6 and rolls again.
        let mut g = Game::money(Rules::acey_deucey(), 2);
        g.roll_off(Some([2, 1])).unwrap();
        let named = g.legal_moves().iter().position(|m| m.named == Some(6)).unwrap();
        g.play(named).unwrap();
        g.roll(Some([5, 5])).unwrap();
        g.play(0).unwrap();
        let text = game_to_json(&g);
        assert!(text.contains("named 6: ") && text.contains("\"rolls_again\": true") && text.contains("\"extra\": true"), "{text}");
        assert_eq!(game_from_json(&text).unwrap().history(), g.history());
        // A record that says otherwise is refused, naming the event.
        let cases = [
            (text.replacen("\"extra\": true", "\"extra\": false", 1), "event 2 (roll)"),
            (text.replacen("\"rolls_again\": true", "\"rolls_again\": false", 1), "event 1 (move)"),
            (text.replacen("named 6: ", "named 8: ", 1), "1 to 6"),
            (text.replacen("named 6: ", "named 5: ", 1), "not a legal move"),
            (text.replacen("\"extra\": true", "\"extra\": 1", 1), "\"extra\" is true or false"),
        ];
        for (bad, message) in cases {
            let e = game_from_json(&bad).unwrap_err().to_string();
            assert!(e.contains(message), "{message}: {e}");
        }
        // The same player rolls again: a roll by the other player is refused.
        let mut v = parse_json(&text).unwrap();
        v["events"][2]["player"] = json!(1);
        let e = game_from_value(&v).unwrap_err().to_string();
        assert!(e.contains("event 2 (roll) is by player 1, but it is player 0's to make"), "{e}");
    }
}
