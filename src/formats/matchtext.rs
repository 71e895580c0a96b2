//! Long nardy, gul bara, Dutch backgammon and acey-deucey games and matches
//! (every variant but short backgammon, which has `.mat` and `.sgf`) as text, in the spirit of the
//! Jellyfish `.mat` file: header tags, `N point match`, then per game
//! `Game k`, the two players with their scores, and one numbered line per
//! turn or cube action, the player's name first:
//!
//! ```text
//! ; [Variation "gul bara"]
//! ; [Rules "next_game_starter=winner head_rule=false ... cascade_after_rolls=3"]
//! ; [Player 1 "alice"]
//! ; [Player 2 "bob"]
//! ; [Crawford "On"]
//!
//!  3 point match
//!
//!  Game 1
//!  alice : 0                      bob : 0
//!   Roll-off: 4-4 2-5
//!   1) bob: 63: 24/18 24/21
//!   2) alice: Doubles => 2
//!   3) bob: Takes
//!   4) alice: 44: 4x4 24/20(4) | 5x4 20/15(2) 24/19(2) | 6x4 no move | bob: 6x4 18/12(4)
//!       alice: Wins 2 points
//! ```
//!
//! `Variation` names the variant ("long nardy", "gul bara", "dutch
//! backgammon" or "acey-deucey") and `Rules` its
//! rule options as `name=value` ([`Rules::options`]). The roll-off lists each
//! attempt as player 1's die, then player 2's; a later game of a match that
//! begins without one says `Starts: NAME`. Where the starter plays the
//! roll-off dice (the backgammon board's games, long nardy with
//! `opening_roll=single_dice`), its first line shows them as its roll, its own
//! die first. Moves are in the notation of [`crate::notation`]; an
//! acey-deucey 1-2 names its number within the play, and the extra roll after
//! it is the next line, of the same player. A gul bara cascade is written as the whole turn: the
//! roll, then each step as `NxK` (the number, the moves asked) and its play,
//! parts separated by `|`; where the opponent takes over the unplayed moves
//! its name comes before its part. A game ends with `NAME: Wins N points`
//! (before the board is over: a resignation) or `Draw` (the last-roll draw).
//!
//! Reading replays every game through [`Game`], so the one turn driver checks
//! each step: an illegal move, a score that does not follow, a wrong starter
//! or a line that cannot be read is an error naming the line.

use super::mat::{game_ending, is_crawford_game};
use crate::error::{Error, Result};
use crate::game::matches::next_starter;
use crate::game::{CubeRules, Event, Game, Phase, Stakes};
use crate::notation::format_named;
use crate::variant::{OptionValue, Rules, Variant};

/// The largest text read.
pub const MAX_BYTES: usize = 4 << 20;

/// One game of a match text: the game replayed and how it ended.
#[derive(Clone, Debug)]
pub struct TextGame {
    pub game: Game,
    /// None for a draw.
    pub winner: Option<usize>,
    pub points: u32,
    pub resigned: bool,
}

impl TextGame {
    /// A finished game as a match text records it.
    pub fn of(game: Game) -> Result<TextGame> {
        match game.result() {
            Some(r) => Ok(TextGame { winner: r.winner, points: r.points, game, resigned: false }),
            None => Err(Error::new("a game that is not over cannot be written to a match text (resign it, or finish it)")),
        }
    }
}

/// A match (or money session, `length` 0) read from a match text.
#[derive(Clone, Debug)]
pub struct MatchText {
    pub rules: Rules,
    pub length: u32,
    pub players: [String; 2],
    pub games: Vec<TextGame>,
    pub score: [u32; 2],
}

/// The `Variation` tag's name of a variant.
pub fn variation_name(variant: Variant) -> &'static str {
    match variant {
        Variant::Backgammon => "backgammon",
        Variant::Nardy => "long nardy",
        Variant::GulBara => "gul bara",
        Variant::Dutch => "dutch backgammon",
        Variant::AceyDeucey => "acey-deucey",
    }
}

fn option_text(v: &OptionValue) -> String {
    match v {
        OptionValue::Bool(b) => b.to_string(),
        OptionValue::Int(n) => n.to_string(),
        OptionValue::Str(s) => s.clone(),
    }
}

/// Writes games of one match (`length` 0: a money session) of any variant but
/// short backgammon; `names[0]` is player 0 ("Player 1" in the tags).
pub fn write_match_text(length: u32, names: [&str; 2], crawford_rule: bool, games: &[TextGame]) -> Result<String> {
    let first = games.first().ok_or_else(|| Error::new("a match text holds at least one game"))?;
    let rules = *first.game.rules();
    if rules.variant == Variant::Backgammon {
        return Err(Error::new("backgammon matches are written as .mat or .sgf files"));
    }
    for (p, name) in names.iter().enumerate() {
        if name.trim().is_empty() || name.trim() != *name || name.contains(['"', '\n', '\r', ':', '|']) {
            return Err(Error::new(format!(
                "player {}'s name {name:?} cannot be written: a name is not empty, has no '\"', ':', '|' or line break, and no space at its ends",
                p + 1
            )));
        }
    }
    if names[0] == names[1] {
        return Err(Error::new("the two players need different names in a match text"));
    }
    let cube = *first.game.cube_rules();
    let options: Vec<String> = rules.options().iter().map(|(n, v)| format!("{n}={}", option_text(v))).collect();
    let mut out = format!("; [Variation \"{}\"]\n; [Rules \"{}\"]\n", variation_name(rules.variant), options.join(" "));
    out.push_str(&format!("; [Player 1 \"{}\"]\n; [Player 2 \"{}\"]\n", names[0], names[1]));
    if !cube.enabled {
        out.push_str("; [Cube \"Off\"]\n");
    }
    if length > 0 {
        out.push_str(&format!("; [Crawford \"{}\"]\n", if crawford_rule { "On" } else { "Off" }));
    } else {
        out.push_str(&format!("; [Jacoby \"{}\"]\n; [Beaver \"{}\"]\n", on_off(cube.jacoby), on_off(cube.beaver)));
    }
    out.push_str(&format!("\n {length} point match\n"));
    let mut score = [0u32; 2];
    for (k, played) in games.iter().enumerate() {
        let game = &played.game;
        if *game.rules() != rules || *game.cube_rules() != cube {
            return Err(Error::new(format!("game {} is played with other rules than game 1", k + 1)));
        }
        if game.origin().is_some() {
            return Err(Error::new(format!("game {} starts from a set-up position, which a match text cannot say", k + 1)));
        }
        out.push_str(&format!("\n Game {}\n", k + 1));
        let left = format!(" {} : {}", names[0], score[0]);
        out.push_str(&format!("{left:<32}{} : {}\n", names[1], score[1]));
        let mut number = 0;
        let mut line: Option<(usize, String)> = None;
        let mut cube_value = 1u32;
        let flush = |line: &mut Option<(usize, String)>, out: &mut String| {
            if let Some((_, text)) = line.take() {
                out.push_str(&text);
                out.push('\n');
            }
        };
        let mut roll_offs = Vec::new();
        let write_roll_offs = |roll_offs: &mut Vec<String>, out: &mut String| {
            if !roll_offs.is_empty() {
                out.push_str(&format!("  Roll-off: {}\n", roll_offs.join(" ")));
                roll_offs.clear();
            }
        };
        for event in game.history() {
            match *event {
                Event::OpeningRoll { dice } => {
                    roll_offs.push(format!("{}-{}", dice[0], dice[1]));
                    if dice[0] != dice[1] && rules.starter_plays_opening_dice() {
                        // The starter plays the roll-off dice: its first line
                        // shows them as its roll, the starter's die first.
                        write_roll_offs(&mut roll_offs, &mut out);
                        let starter = if dice[0] > dice[1] { 0 } else { 1 };
                        number += 1;
                        line = Some((starter, format!("{number:>3}) {}: {}{}:", names[starter], dice[starter], dice[1 - starter])));
                    }
                }
                Event::Begin { starter } => out.push_str(&format!("  Starts: {}\n", names[starter])),
                Event::Roll { player, dice, .. } => {
                    write_roll_offs(&mut roll_offs, &mut out);
                    flush(&mut line, &mut out);
                    number += 1;
                    line = Some((player, format!("{number:>3}) {}: {}{}:", names[player], dice[0], dice[1])));
                }
                Event::Move { player, play, step, named, .. } => {
                    let (roller, text) = line.as_mut().ok_or_else(|| Error::new(format!("game {}: a move without a roll", k + 1)))?;
                    let play = format_named(&play, named);
                    match step {
                        None => text.push_str(&format!(" {play}")),
                        Some((die, count)) => {
                            if !text.ends_with(':') {
                                text.push_str(" |");
                            }
                            if player != *roller {
                                text.push_str(&format!(" {}:", names[player]));
                                *roller = player;
                            }
                            text.push_str(&format!(" {die}x{count} {play}"));
                        }
                    }
                }
                Event::Double { player } | Event::Beaver { player } | Event::Take { player } | Event::Pass { player } => {
                    flush(&mut line, &mut out);
                    number += 1;
                    let action = match event {
                        Event::Double { .. } => {
                            cube_value *= 2;
                            format!("Doubles => {cube_value}")
                        }
                        Event::Beaver { .. } => {
                            cube_value *= 2;
                            format!("Beavers => {cube_value}")
                        }
                        Event::Take { .. } => "Takes".to_string(),
                        _ => "Drops".to_string(),
                    };
                    out.push_str(&format!("{number:>3}) {}: {action}\n", names[player]));
                }
            }
        }
        flush(&mut line, &mut out);
        match played.winner {
            Some(w) => {
                out.push_str(&format!("      {}: Wins {} point{}\n", names[w], played.points, if played.points == 1 { "" } else { "s" }));
                score[w] += played.points;
            }
            None => out.push_str("      Draw\n"),
        }
    }
    Ok(out)
}

fn on_off(b: bool) -> &'static str {
    if b {
        "On"
    } else {
        "Off"
    }
}

fn tag(line: &str) -> Option<(&str, &str)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let q = inner.find('"')?;
    Some((inner[..q].trim(), inner[q..].trim().strip_prefix('"')?.strip_suffix('"')?))
}

fn switch(value: &str, what: &str) -> Result<bool> {
    match value.to_ascii_lowercase().as_str() {
        "on" | "true" | "yes" => Ok(true),
        "off" | "false" | "no" => Ok(false),
        _ => Err(Error::new(format!("the {what} tag is \"On\" or \"Off\", not {value:?}"))),
    }
}

struct Reading {
    rules: Option<Rules>,
    options: Vec<(String, String)>,
    names: [Option<String>; 2],
    cube: CubeRules,
    crawford_rule: bool,
    length: Option<u32>,
    games: Vec<TextGame>,
    /// The game being read, its header seen, and its ending.
    game: Option<(Game, bool, usize)>,
}

impl Reading {
    fn names(&self) -> Result<[&str; 2]> {
        match &self.names {
            [Some(a), Some(b)] => Ok([a, b]),
            _ => Err(Error::new("the players are named in the tags [Player 1 \"...\"] and [Player 2 \"...\"] before the first game")),
        }
    }

    /// The player whose name (and a ':') begins `text`, and the rest.
    fn speaker<'t>(&self, text: &'t str) -> Result<Option<(usize, &'t str)>> {
        let names = self.names()?;
        let mut order = [0, 1];
        order.sort_by_key(|&p| std::cmp::Reverse(names[p].len()));
        for p in order {
            if let Some(rest) = text.strip_prefix(names[p]).and_then(|r| r.strip_prefix(':')) {
                return Ok(Some((p, rest.trim_start())));
            }
        }
        Ok(None)
    }

    fn score(&self) -> [u32; 2] {
        let mut score = [0; 2];
        for g in &self.games {
            if let Some(w) = g.winner {
                score[w] += g.points;
            }
        }
        score
    }

    fn start_game(&mut self, number: usize) -> Result<()> {
        if number != self.games.len() + 1 {
            return Err(Error::new(format!("game {number} follows game {}", self.games.len())));
        }
        let rules =
            self.rules.ok_or_else(|| Error::new("a match text names its variant ([Variation \"long nardy\"]) before the first game"))?;
        self.names()?;
        let length = self.length.ok_or_else(|| Error::new("\"N point match\" (0 for money) comes before the first game"))?;
        let score = self.score();
        let crawford_game =
            length > 0 && self.crawford_rule && is_crawford_game(length, self.games.iter().filter_map(|g| g.winner.map(|w| (w, g.points))));
        let stakes = Stakes { match_length: length, score: if length > 0 { score } else { [0, 0] }, crawford_game };
        let cube = CubeRules { jacoby: length == 0 && self.cube.jacoby, beaver: length == 0 && self.cube.beaver, ..self.cube };
        self.game = Some((Game::new(rules, cube, stakes, 0)?, false, 0));
        Ok(())
    }

    fn finish_rules(&mut self) -> Result<()> {
        let mut rules = Rules::new(self.rules.expect("set by the Variation tag").variant);
        for (name, value) in &self.options {
            let v = match value.as_str() {
                "true" => OptionValue::Bool(true),
                "false" => OptionValue::Bool(false),
                n if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => OptionValue::Int(n.parse().unwrap_or(i64::MAX)),
                s => OptionValue::Str(s.to_string()),
            };
            rules.set(name, &v)?;
        }
        self.rules = Some(rules);
        Ok(())
    }

    fn tag(&mut self, key: &str, value: &str) -> Result<()> {
        match key {
            "Variation" => {
                let variant = match value.to_ascii_lowercase().as_str() {
                    "long nardy" | "nardy" => Variant::Nardy,
                    "gul bara" | "gulbara" => Variant::GulBara,
                    "dutch backgammon" | "dutch" => Variant::Dutch,
                    "acey-deucey" | "acey deucey" | "acey_deucey" => Variant::AceyDeucey,
                    "backgammon" => return Err(Error::new("a backgammon match is read from a .mat or .sgf file")),
                    _ => {
                        return Err(Error::new(format!(
                            "the variation {value:?} is not \"long nardy\", \"gul bara\", \"dutch backgammon\" or \"acey-deucey\""
                        )))
                    }
                };
                self.rules = Some(Rules::new(variant));
                if !self.options.is_empty() {
                    self.finish_rules()?;
                }
            }
            "Rules" => {
                for item in value.split_whitespace() {
                    let (name, v) =
                        item.split_once('=').ok_or_else(|| Error::new(format!("{item:?} in the Rules tag is not name=value")))?;
                    self.options.push((name.to_string(), v.to_string()));
                }
                if self.rules.is_some() {
                    self.finish_rules()?;
                }
            }
            "Player 1" => self.names[0] = Some(value.to_string()),
            "Player 2" => self.names[1] = Some(value.to_string()),
            "Crawford" => self.crawford_rule = switch(value, "Crawford")?,
            "Jacoby" => self.cube.jacoby = switch(value, "Jacoby")?,
            "Beaver" => self.cube.beaver = switch(value, "Beaver")?,
            "Cube" => self.cube.enabled = switch(value, "Cube")?,
            _ => {}
        }
        Ok(())
    }

    fn end_game(&mut self) -> Result<()> {
        // An ending line keeps the game (nothing may follow it).
        if let Some((_, _, 0)) = self.game.take() {
            return Err(Error::new(format!("game {} has no ending (\"NAME: Wins N points\" or \"Draw\")", self.games.len() + 1)));
        }
        Ok(())
    }

    fn line(&mut self, line: &str) -> Result<()> {
        if let Some(rest) = line.strip_prefix(';') {
            if let Some((key, value)) = tag(rest.trim()) {
                if self.game.is_some() || !self.games.is_empty() {
                    return Err(Error::new("header tags come before the first game"));
                }
                self.tag(key, value)?;
            }
            return Ok(());
        }
        if let Some(n) = line.strip_suffix("point match") {
            if self.length.is_some() {
                return Err(Error::new("a second \"N point match\" line"));
            }
            self.length = Some(n.trim().parse().map_err(|_| Error::new(format!("{:?} is not a match length", n.trim())))?);
            return Ok(());
        }
        if let Some(n) = line.strip_prefix("Game ") {
            self.end_game()?;
            let number: usize = n.trim().parse().map_err(|_| Error::new(format!("{n:?} is not a game number")))?;
            return self.start_game(number);
        }
        let names = self.names()?.map(str::to_string);
        let score = self.score();
        let Some((game, header, ended)) = self.game.as_mut() else {
            return Err(Error::new(format!("{line:?} comes before the first game")));
        };
        if !*header {
            let expected = format!("{} : {}", names[0], score[0]);
            let second = format!("{} : {}", names[1], score[1]);
            match line.strip_prefix(&expected).map(str::trim) {
                Some(rest) if rest == second => {}
                _ => {
                    return Err(Error::new(format!(
                    "the game's header should be \"{expected}   {second}\" (the players and the score the games before give), not {line:?}"
                )))
                }
            }
            *header = true;
            return Ok(());
        }
        if *ended > 0 {
            return Err(Error::new(format!("{line:?} comes after the game's ending")));
        }
        if let Some(rest) = line.strip_prefix("Roll-off:") {
            for pair in rest.split_whitespace() {
                let dice = pair.split_once('-').and_then(|(a, b)| Some([a.parse().ok()?, b.parse().ok()?]));
                let dice = dice.ok_or_else(|| Error::new(format!("{pair:?} is not a roll-off (player 1's die-player 2's die)")))?;
                game.roll_off(Some(dice))?;
            }
            return Ok(());
        }
        if let Some(rest) = line.strip_prefix("Starts:") {
            let rest = rest.trim();
            let p = (0..2).find(|&p| names[p] == rest).ok_or_else(|| Error::new(format!("{rest:?} is neither player")))?;
            if let Some(prev) = self.games.last() {
                let result = prev.game.result();
                let expected = result.and_then(|r| next_starter(prev.game.rules(), &prev.game, r));
                if expected.is_some_and(|e| e != p) {
                    return Err(Error::new(format!("{rest} starts, but by the rules {} starts this game", names[1 - p])));
                }
            }
            return game.begin_with(p);
        }
        if line == "Draw" {
            match game.result() {
                Some(r) if r.winner.is_none() => {}
                _ => return Err(Error::new("the file says a draw, but the moves do not end the game in one")),
            }
            *ended = 1;
            let game = game.clone();
            self.games.push(TextGame { game, winner: None, points: 0, resigned: false });
            return Ok(());
        }
        let body = match line.find(") ") {
            Some(i) if !line[..i].is_empty() && line[..i].bytes().all(|b| b.is_ascii_digit()) => &line[i + 2..],
            _ => line,
        };
        let (player, action) =
            self.speaker(body)?.ok_or_else(|| Error::new(format!("{body:?} does not begin with a player's name and ':'")))?;
        let (game, _, ended) = self.game.as_mut().expect("checked above");
        let lower = action.to_ascii_lowercase();
        if let Some(n) = lower.strip_prefix("wins ") {
            let points: u32 = n.split_whitespace().next().and_then(|n| n.parse().ok()).ok_or_else(|| Error::new("no number of points"))?;
            let resigned = game_ending(game, player, points)?;
            *ended = 1;
            let game = game.clone();
            self.games.push(TextGame { game, winner: Some(player), points, resigned });
            return Ok(());
        }
        let expect_turn = |game: &Game| {
            if game.turn() != player {
                return Err(Error::new(format!("it is {}'s turn", names[game.turn()])));
            }
            Ok(())
        };
        if lower.starts_with("doubles") {
            expect_turn(game)?;
            return game.double();
        }
        if ["takes", "drops", "beavers"].iter().any(|w| lower.starts_with(w)) {
            if game.decider() != Some(player) {
                return Err(Error::new(format!("{} was offered no double", names[player])));
            }
            return match &lower[..4] {
                "take" => game.take(),
                "beav" => game.beaver(),
                _ => game.pass().map(|_| ()),
            };
        }
        let (dice, plays) = action.split_once(':').ok_or_else(|| {
            Error::new(format!("{action:?} is not a roll (\"63: 24/18 24/21\"), a cube action, \"Wins N points\" or \"Draw\""))
        })?;
        let d: Vec<u8> = dice.trim().bytes().map(|b| b.wrapping_sub(b'0')).collect();
        if d.len() != 2 || d.iter().any(|&x| !(1..=6).contains(&x)) {
            return Err(Error::new(format!("{:?} is not a roll of two dice", dice.trim())));
        }
        expect_turn(game)?;
        if game.phase() == Phase::Move && matches!(game.history().last(), Some(Event::OpeningRoll { .. })) {
            // The starter plays the roll-off dice (backgammon's board, or
            // long nardy with opening_roll=single_dice): they are this roll.
            let opening = game.dice().expect("a roll is being played");
            if opening != [d[0], d[1]] {
                return Err(Error::new(format!(
                    "the starter plays the roll-off dice, {}{} (its own die first), not {}{}",
                    opening[0], opening[1], d[0], d[1]
                )));
            }
        } else {
            game.roll(Some([d[0], d[1]]))?;
        }
        let mut mover = player;
        for (k, part) in plays.split('|').enumerate() {
            let mut part = part.trim();
            if let Some((p, rest)) = self.speaker(part)? {
                mover = p;
                part = rest;
            }
            let at = |e: Error| Error::new(format!("part {} ({part:?}): {e}", k + 1));
            let (game, _, _) = self.game.as_mut().expect("checked above");
            if game.phase() != Phase::Move {
                return Err(at(Error::new("the roll is already played")));
            }
            if game.turn() != mover {
                return Err(at(Error::new(format!("{} plays this part, not {}", names[game.turn()], names[mover]))));
            }
            let step = part.split_once(' ').map_or((part, ""), |(a, b)| (a, b));
            let asked = step.0.split_once('x').and_then(|(a, b)| Some((a.parse::<u8>().ok()?, b.parse::<u8>().ok()?)));
            let play = match (asked, game.cascade_step()) {
                (Some(asked), Some(now)) if asked == now => step.1,
                (Some(asked), now) => {
                    return Err(at(Error::new(format!(
                        "the part plays {}x{}, but {}",
                        asked.0,
                        asked.1,
                        now.map_or("this roll does not cascade".to_string(), |n| format!("the cascade's next step is {}x{}", n.0, n.1))
                    ))))
                }
                (None, Some(now)) => return Err(at(Error::new(format!("the cascade's steps are written \"{}x{} PLAY\"", now.0, now.1)))),
                (None, None) => part,
            };
            game.play_text(play).map_err(at)?;
        }
        let (game, _, _) = self.game.as_ref().expect("checked above");
        if game.phase() == Phase::Move {
            let left = game.cascade_step().map_or(String::new(), |s| format!(" (next: {}x{})", s.0, s.1));
            return Err(Error::new(format!("the roll is not played to its end{left}")));
        }
        Ok(())
    }
}

/// Reads a match text (see the module's documentation).
pub fn read_match_text(text: &str) -> Result<MatchText> {
    if text.len() > MAX_BYTES {
        return Err(Error::new(format!("a match text of {} bytes is over the {MAX_BYTES}-byte limit", text.len())));
    }
    let mut r = Reading {
        rules: None,
        options: Vec::new(),
        names: [None, None],
        cube: CubeRules::default(),
        crawford_rule: true,
        length: None,
        games: Vec::new(),
        game: None,
    };
    for (k, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        r.line(line).map_err(|e| Error::new(format!("line {}: {e}", k + 1)))?;
    }
    r.end_game().map_err(|e| Error::new(format!("at the end of the text: {e}")))?;
    if r.games.is_empty() {
        return Err(Error::new("no game in the text: not a match text (\"; [Variation ...]\", \"N point match\", \"Game 1\", ...)"));
    }
    let score = r.score();
    let names = r.names()?.map(str::to_string);
    Ok(MatchText { rules: r.rules.expect("a game was read"), length: r.length.unwrap_or(0), players: names, games: r.games, score })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Dice;
    use crate::game::matches::Match;
    use crate::game::players::{play_out, Strategy};

    fn played_match(rules: Rules, length: u32, seed: u64) -> Vec<TextGame> {
        let mut m = Match::new(rules, length, true, CubeRules::default(), seed).unwrap();
        let mut picks = Dice::new(seed + 1);
        let mut games = Vec::new();
        loop {
            play_out(m.game_mut(), [Strategy::Greedy, Strategy::Random], &mut picks).unwrap();
            games.push(TextGame::of(m.game().clone()).unwrap());
            if m.is_over() {
                break;
            }
            m.next_game().unwrap();
        }
        games
    }

    #[test]
    fn nardy_and_gul_bara_matches_round_trip() {
        let mut gulbara = Rules::gulbara();
        gulbara.set("last_roll_draw", &OptionValue::Bool(true)).unwrap();
        let mut cascades = 0;
        for (rules, seed) in [(Rules::nardy(), 1), (gulbara, 2), (Rules::gulbara(), 3)] {
            let games = played_match(rules, 5, seed);
            let text = write_match_text(5, ["alice", "bob b"], true, &games).unwrap();
            cascades += text.matches(" | ").count();
            let back = read_match_text(&text).unwrap();
            assert_eq!(back.rules, rules);
            assert_eq!(back.players, ["alice".to_string(), "bob b".to_string()]);
            assert_eq!(back.games.len(), games.len());
            for (a, b) in games.iter().zip(&back.games) {
                assert_eq!(a.game.history(), b.game.history());
                assert_eq!(a.game.result(), b.game.result());
            }
            assert_eq!(write_match_text(5, ["alice", "bob b"], true, &back.games).unwrap(), text);
        }
        assert!(cascades > 0, "some gul bara turn cascaded");
    }

    #[test]
    fn bad_texts_name_the_line() {
        let games = played_match(Rules::nardy(), 3, 4);
        let text = write_match_text(3, ["alice", "bob"], true, &games).unwrap();
        let (k, line) = text.lines().enumerate().find(|(_, l)| l.contains(") alice: ") && l.contains('/')).unwrap();
        let broken = text.replacen(line, &format!("{}: 24/1", &line[..line.rfind(':').unwrap()]), 1);
        let e = read_match_text(&broken).unwrap_err().to_string();
        assert!(e.starts_with(&format!("line {}:", k + 1)), "{e}");
        let e = read_match_text(&text.replacen("long nardy", "short nardy", 1)).unwrap_err().to_string();
        assert!(e.starts_with("line 1:") && e.contains("variation"), "{e}");
        let e = read_match_text(&text.replacen("koks=false", "koks=maybe", 1)).unwrap_err().to_string();
        assert!(e.starts_with("line 2:") && e.contains("koks"), "{e}");
        let e = read_match_text(&text.replacen("Wins ", "Wins 1", 1)).unwrap_err().to_string();
        assert!(e.contains("the moves give") || e.contains("no resignation"), "{e}");
        assert!(read_match_text("hello").unwrap_err().to_string().contains("Player"));
        assert!(read_match_text("").unwrap_err().to_string().contains("no game"));
    }

    #[test]
    fn a_starter_playing_the_roll_off_dice_is_written_and_read_back() {
        // Long nardy with opening_roll=single_dice, Dutch backgammon and
        // acey-deucey: the starter plays the roll-off dice, so the game's
        // first play has no roll of its own.
        let mut single = Rules::nardy();
        single.set("opening_roll", &OptionValue::Str("single_dice".into())).unwrap();
        let mut named = 0;
        for (rules, seed) in [(single, 1), (Rules::dutch(), 2), (Rules::acey_deucey(), 3), (Rules::acey_deucey(), 4)] {
            let games = played_match(rules, 3, seed);
            let text = write_match_text(3, ["alice", "bob"], true, &games).unwrap();
            named += text.matches(" named ").count();
            let back = read_match_text(&text).unwrap_or_else(|e| panic!("{rules:?}: {e}\n{text}"));
            assert_eq!(back.rules, rules);
            for (a, b) in games.iter().zip(&back.games) {
                assert_eq!(a.game.history(), b.game.history());
                assert_eq!(a.game.result(), b.game.result());
            }
            assert_eq!(write_match_text(3, ["alice", "bob"], true, &back.games).unwrap(), text);
            // The first game's first line is the roll-off, then the starter's play of its dice.
            let lines: Vec<&str> = text.lines().skip_while(|l| !l.contains("Roll-off:")).take(2).collect();
            let (starter, dice) =
                match games[0].game.history().iter().find(|e| matches!(e, Event::OpeningRoll { dice } if dice[0] != dice[1])) {
                    Some(Event::OpeningRoll { dice }) => {
                        (usize::from(dice[1] > dice[0]), format!("{}{}", dice[0].max(dice[1]), dice[0].min(dice[1])))
                    }
                    _ => unreachable!("a game from the start has a roll-off"),
                };
            assert!(lines[1].starts_with(&format!("  1) {}: {dice}:", ["alice", "bob"][starter])), "{lines:?}");
            // Other dice for that first roll are refused.
            let wrong =
                text.replacen(&format!("1) {}: {dice}:", ["alice", "bob"][starter]), &format!("1) {}: 66:", ["alice", "bob"][starter]), 1);
            let e = read_match_text(&wrong).unwrap_err().to_string();
            assert!(e.contains("plays the roll-off dice"), "{e}");
        }
        assert!(named > 0, "some acey-deucey 1-2 was written with its named number");
    }

    #[test]
    fn an_acey_deucey_one_two_and_its_extra_roll_read_back() {
        let mut g = Game::new(Rules::acey_deucey(), CubeRules::default(), Stakes { match_length: 1, ..Stakes::default() }, 5).unwrap();
        g.roll_off(Some([2, 1])).unwrap();
        g.play_text("reserve/24 reserve/23 named 6: reserve/19(2) 24/18 23/17").unwrap();
        play_out(&mut g, [Strategy::Greedy, Strategy::Random], &mut Dice::new(3)).unwrap();
        let text = write_match_text(1, ["alice", "bob"], true, &[TextGame::of(g.clone()).unwrap()]).unwrap();
        assert!(text.contains("; [Variation \"acey-deucey\"]"), "{text}");
        assert!(
            text.contains("  1) alice: 21: 24/18 23/17 reserve/19(2)") || text.contains("  1) alice: 21: reserve/24 reserve/23 named 6:"),
            "{text}"
        );
        assert!(text.contains("  2) alice: "), "the extra roll is alice's again: {text}");
        let back = read_match_text(&text).unwrap();
        assert_eq!(back.games[0].game.history(), g.history());
        // A named number the roll cannot have is an error naming the line.
        let bad = text.replacen("named 6:", "named 0:", 1);
        let e = read_match_text(&bad).unwrap_err().to_string();
        assert!(e.contains("1 to 6") && e.starts_with("line "), "{e}");
    }
}
