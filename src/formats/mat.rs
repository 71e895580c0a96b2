//! Jellyfish `.mat` match files, the text form that match sites, GNU
//! Backgammon and eXtreme Gammon export: header tags (`; [Player 1 "..."]`),
//! `N point match`, then per game `Game k`, the two players with their
//! scores, and numbered lines holding one half-move for each player (the
//! first player's on the left): `63: 24/18 13/10` (the roll, then each
//! checker step, 25 the bar and 0 off, `*` a hit), `Doubles => 2`,
//! `Takes`, `Drops`, `Beavers => 4`, and `Wins N points` at the end.
//!
//! Reading replays every game through [`Game`] (so the rules check each
//! move): an illegal move, a score that does not follow, or a line that
//! cannot be read is an error naming the line. A game whose first roll is
//! not a double starts with it as the opening roll-off (as every exporter
//! writes them); one whose first roll is a double began with its first mover
//! rolling (tavla's matches: the winner of a game starts the next).
//! Resignations ("Wins 2 points" before the board is over) are kept as the
//! file says them. Backgammon only: the nardy games have their JSON record.

use crate::error::{Error, Result};
use crate::game::{CubeRules, Event, Game, GameResult, Phase, Stakes};
use crate::position::Position;
use crate::variant::Rules;

/// A match read from a `.mat` file.
#[derive(Clone, Debug)]
pub struct MatFile {
    /// 0 for a money session.
    pub length: u32,
    /// The players in the file's order (player 0 is the left column).
    pub players: [String; 2],
    /// Every game, replayed to where the file ends it.
    pub games: Vec<MatGame>,
    /// The score after the last game.
    pub score: [u32; 2],
    /// Whether the match is played with the Crawford rule.
    pub crawford_rule: bool,
}

/// One game of a match file: the game replayed, and how it ended.
#[derive(Clone, Debug)]
pub struct MatGame {
    pub game: Game,
    pub winner: usize,
    pub points: u32,
    /// The loser resigned (the game itself is not over): `points` is what
    /// the file says it gave up.
    pub resigned: bool,
}

impl MatGame {
    /// A finished game as a match file records it.
    pub fn of(game: Game) -> Result<MatGame> {
        match game.result() {
            Some(GameResult { winner: Some(winner), points, .. }) => Ok(MatGame { game, winner, points, resigned: false }),
            Some(_) => Err(Error::new("a drawn game cannot be written to a .mat file")),
            None => Err(Error::new("a game that is not over cannot be written to a .mat file (resign it, or finish it)")),
        }
    }
}

/// The largest file read (a long session is a few hundred kilobytes).
pub const MAX_BYTES: usize = 4 << 20;

/// Reads a `.mat` file's text.
pub fn read_mat(text: &str) -> Result<MatFile> {
    if text.len() > MAX_BYTES {
        return Err(Error::new(format!("a .mat file of {} bytes is over the {MAX_BYTES}-byte limit", text.len())));
    }
    let mut reader =
        Reader { length: None, players: [String::new(), String::new()], crawford: true, jacoby: false, games: Vec::new(), split: 30 };
    let mut game: Option<GameReader> = None;
    for (k, raw) in text.lines().enumerate() {
        let line_no = k + 1;
        let at = |e: Error| Error::new(format!("line {line_no}: {e}"));
        let line = raw.trim_end();
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if let Some(tag) = trimmed.strip_prefix(';') {
            reader.tag(tag.trim());
            continue;
        }
        if let Some(n) = trimmed.strip_suffix("point match") {
            let n = n.trim();
            reader.length = Some(n.parse().map_err(|_| at(Error::new(format!("{n:?} is not a match length"))))?);
            continue;
        }
        if let Some(n) = trimmed.strip_prefix("Game ") {
            if let Some(g) = game.take() {
                reader.games.push(g.finish().map_err(at)?);
            }
            let number: usize = n.trim().parse().map_err(|_| at(Error::new(format!("{n:?} is not a game number"))))?;
            if number != reader.games.len() + 1 {
                return Err(at(Error::new(format!("game {number} follows game {}", reader.games.len()))));
            }
            game = Some(GameReader { header: None, game: None, ending: None, line: line_no });
            continue;
        }
        let Some(g) = game.as_mut() else {
            return Err(at(Error::new(format!("{trimmed:?} comes before the first game"))));
        };
        if g.header.is_none() {
            let score = reader.header(line).map_err(at)?;
            let expected = reader.score_after_games();
            if score != expected {
                return Err(at(Error::new(format!(
                    "the game's header says {}-{}, but the games before it give {}-{}",
                    score[0], score[1], expected[0], expected[1]
                ))));
            }
            g.header = Some(score);
            continue;
        }
        reader.half_moves(g, line).map_err(at)?;
    }
    if let Some(g) = game.take() {
        reader.games.push(g.finish().map_err(|e| Error::new(format!("at the end of the file: {e}")))?);
    }
    if reader.games.is_empty() {
        return Err(Error::new("no game in the file: not a .mat match file"));
    }
    let length = reader.length.unwrap_or(0);
    let score = reader.score_after_games();
    Ok(MatFile { length, players: reader.players, games: reader.games, score, crawford_rule: reader.crawford })
}

struct Reader {
    length: Option<u32>,
    players: [String; 2],
    crawford: bool,
    jacoby: bool,
    games: Vec<MatGame>,
    /// Half-moves starting at or right of this column are the second player's.
    split: usize,
}

struct GameReader {
    /// The score before the game, from its header line.
    header: Option<[u32; 2]>,
    game: Option<Game>,
    /// "Wins N points": (player, N, whether by resignation).
    ending: Option<(usize, u32, bool)>,
    line: usize,
}

impl GameReader {
    fn finish(self) -> Result<MatGame> {
        let game = self.game.ok_or_else(|| Error::new(format!("the game of line {} has no moves", self.line)))?;
        let Some((winner, points, resigned)) = self.ending else {
            return Err(Error::new(format!("the game of line {} has no \"Wins N points\"", self.line)));
        };
        Ok(MatGame { game, winner, points, resigned })
    }
}

impl Reader {
    fn tag(&mut self, tag: &str) {
        let Some(inner) = tag.strip_prefix('[').and_then(|t| t.strip_suffix(']')) else { return };
        let Some((key, value)) = inner.split_once(' ') else { return };
        let value = value.trim().trim_matches('"');
        match key {
            "Crawford" => self.crawford = !value.eq_ignore_ascii_case("off"),
            "Jacoby" => self.jacoby = value.eq_ignore_ascii_case("on"),
            _ => {}
        }
        if let Some(rest) = inner.strip_prefix("Player ") {
            if let Some((n, name)) = rest.split_once(' ') {
                let name = name.trim().trim_matches('"').to_string();
                match n {
                    "1" => self.players[0] = name,
                    "2" => self.players[1] = name,
                    _ => {}
                }
            }
        }
    }

    /// " gnubg : 0          root : 1": the names and scores; the second
    /// name's column tells the two columns of the half-moves apart.
    fn header(&mut self, line: &str) -> Result<[u32; 2]> {
        let parts: Vec<(usize, &str)> = line.match_indices(':').collect();
        if parts.len() != 2 {
            return Err(Error::new(format!("{:?} is not a game's header (\"name : score   name : score\")", line.trim())));
        }
        let first_score_end = line[parts[0].0 + 1..].find(|c: char| c.is_ascii_digit()).map(|i| parts[0].0 + 1 + i);
        let Some(start) = first_score_end else {
            return Err(Error::new(format!("no score in the game header {:?}", line.trim())));
        };
        let digits_end = line[start..].find(|c: char| !c.is_ascii_digit()).map_or(line.len(), |i| start + i);
        let first_score: u32 = line[start..digits_end].parse().map_err(|_| Error::new("a score is not a number"))?;
        let second = &line[digits_end..];
        let (name2, score2) = second.split_once(':').ok_or_else(|| Error::new("no second player in the game header"))?;
        let second_score: u32 = score2.trim().parse().map_err(|_| Error::new(format!("{:?} is not a score", score2.trim())))?;
        let name1 = line[..parts[0].0].trim().to_string();
        let name2_trimmed = name2.trim();
        let name2_col = digits_end + name2.find(name2_trimmed).unwrap_or(0);
        self.split = name2_col.saturating_sub(2);
        if self.players[0].is_empty() {
            self.players[0] = name1;
        }
        if self.players[1].is_empty() {
            self.players[1] = name2_trimmed.to_string();
        }
        Ok([first_score, second_score])
    }

    /// A numbered line's half-moves, or a "Wins N points" line.
    fn half_moves(&mut self, g: &mut GameReader, line: &str) -> Result<()> {
        let body_start = match line.find(')') {
            Some(i) if line[..i].trim().chars().all(|c| c.is_ascii_digit()) && !line[..i].trim().is_empty() => i + 1,
            _ => 0,
        };
        // Each action with the column it starts in. A long move may run into
        // the second player's column (gnubg's export does not cut it), so the
        // second action begins where a second roll ("54:") or cube word does,
        // and a lone action is told by its column.
        let body = &line[body_start.min(line.len())..];
        let starts = action_starts(body);
        let mut actions: Vec<(usize, String)> = Vec::new();
        match starts.as_slice() {
            [] if body.trim().is_empty() => {}
            [] => {
                return Err(Error::new(format!(
                    "{:?} is not a roll (\"63: 24/18 13/10\"), a cube action or \"Wins N points\"",
                    body.trim()
                )))
            }
            [only] => {
                let player = if body_start + only >= self.split { 1 } else { 0 };
                if !body[..*only].trim().is_empty() {
                    return Err(Error::new(format!("{:?} comes before the half-move {:?}", body[..*only].trim(), body[*only..].trim())));
                }
                actions.push((player, body[*only..].trim().to_string()));
            }
            [first, second] => {
                if !body[..*first].trim().is_empty() {
                    return Err(Error::new(format!("{:?} comes before the half-move {:?}", body[..*first].trim(), body[*first..].trim())));
                }
                actions.push((0, body[*first..*second].trim().to_string()));
                actions.push((1, body[*second..].trim().to_string()));
            }
            _ => return Err(Error::new(format!("{:?} holds more than two half-moves", body.trim()))),
        }
        for (player, text) in actions {
            self.action(g, player, &text)?;
        }
        Ok(())
    }

    fn new_game(&self, g: &GameReader) -> Result<Game> {
        // read_mat reads a game's header before any of its moves; a reader that did not is an error, not a panic.
        let score = g.header.ok_or_else(|| Error::new("a game's moves come before its header"))?;
        let length = self.length.unwrap_or(0);
        let crawford_game = length > 0 && self.crawford && is_crawford_game(length, self.games.iter().map(|g| (g.winner, g.points)));
        // A money session's header scores are running totals, not a match score.
        let stakes = Stakes { match_length: length, score: if length > 0 { score } else { [0, 0] }, crawford_game };
        let cube = CubeRules { jacoby: length == 0 && self.jacoby, ..CubeRules::default() };
        Game::new(Rules::backgammon(), cube, stakes, 0)
    }

    fn score_after_games(&self) -> [u32; 2] {
        let mut score = [0; 2];
        for g in &self.games {
            score[g.winner] += g.points;
        }
        score
    }

    fn action(&mut self, g: &mut GameReader, player: usize, text: &str) -> Result<()> {
        let game = match g.game.take() {
            Some(game) => game,
            None => self.new_game(g)?,
        };
        let game = g.game.insert(game);
        let who = if self.players[player].is_empty() { format!("player {}", player + 1) } else { self.players[player].clone() };
        let refuse = |e: Error| Error::new(format!("{who}'s {text:?}: {e}"));
        let lower = text.to_ascii_lowercase();
        if lower.starts_with("wins") {
            let points: u32 =
                lower.split_whitespace().nth(1).and_then(|n| n.parse().ok()).ok_or_else(|| refuse(Error::new("no number of points")))?;
            if g.ending.is_some() {
                return Err(refuse(Error::new("the game already has its result")));
            }
            let resigned = game_ending(game, player, points).map_err(refuse)?;
            g.ending = Some((player, points, resigned));
            return Ok(());
        }
        if g.ending.is_some() {
            return Err(refuse(Error::new("the game's result has been written already")));
        }
        if lower.starts_with("doubles") || lower.starts_with("redoubles") {
            self.expect_turn(game, player).map_err(refuse)?;
            return game.double().map_err(refuse);
        }
        if lower.starts_with("takes") || lower.starts_with("accepts") {
            return game.take().map_err(refuse);
        }
        if lower.starts_with("drops") || lower.starts_with("passes") || lower.starts_with("rejects") {
            return game.pass().map(|_| ()).map_err(refuse);
        }
        if lower.starts_with("beavers") {
            return game.beaver().map_err(refuse);
        }
        let Some((dice, steps)) = text.split_once(':') else {
            return Err(refuse(Error::new("not a roll (\"63: 24/18 13/10\"), a cube action or \"Wins N points\"")));
        };
        let dice = dice.trim();
        let digits: Vec<u8> = dice.bytes().filter(|b| b.is_ascii_digit()).map(|b| b - b'0').collect();
        if digits.len() != 2 || dice.len() != 2 {
            return Err(refuse(Error::new(format!("{dice:?} is not a roll of two dice"))));
        }
        let roll = [digits[0], digits[1]];
        if game.phase() != Phase::OpeningRoll {
            self.expect_turn(game, player).map_err(refuse)?;
        }
        roll_and_play(game, player, roll, &|_| steps.to_string()).map_err(refuse)
    }

    fn expect_turn(&self, game: &Game, player: usize) -> Result<()> {
        if game.turn() != player {
            return Err(Error::new(format!("it is player {}'s turn", game.turn() + 1)));
        }
        Ok(())
    }
}

/// Whether the game after these (winner, points) results, from 0-0, is the
/// Crawford game: the first a player begins one point from winning.
pub(crate) fn is_crawford_game(length: u32, results: impl Iterator<Item = (usize, u32)>) -> bool {
    if length == 0 {
        return false;
    }
    // A game a match starts with is never the Crawford game (a 1-point match starts at match point).
    let mut score = [0u32; 2];
    let mut reached_before = false;
    let mut any = false;
    for (winner, points) in results {
        reached_before = reached_before || (any && score.contains(&(length - 1)));
        score[winner] += points;
        any = true;
    }
    any && !reached_before && score.contains(&(length - 1))
}

/// Where the half-moves of a numbered line's body begin: at a roll ("54:")
/// or a cube action or result word, each at the start of a word.
fn action_starts(body: &str) -> Vec<usize> {
    const WORDS: [&str; 9] = ["doubles", "redoubles", "takes", "accepts", "drops", "passes", "rejects", "beavers", "wins"];
    let bytes = body.as_bytes();
    let mut out = Vec::new();
    let mut k = 0;
    while k < bytes.len() {
        let word_start = k == 0 || bytes[k - 1].is_ascii_whitespace();
        if word_start {
            let rest = &body[k..];
            let roll = bytes.len() >= k + 3 && bytes[k].is_ascii_digit() && bytes[k + 1].is_ascii_digit() && bytes[k + 2] == b':';
            let word =
                WORDS.iter().any(|w| rest.len() >= w.len() && rest.is_char_boundary(w.len()) && rest[..w.len()].eq_ignore_ascii_case(w));
            if roll || word {
                out.push(k);
                // Past the word: "Wins 1 point" holds no second action.
                if word && rest.to_ascii_lowercase().starts_with("wins") {
                    break;
                }
            }
        }
        k += 1;
    }
    out
}

/// Rolls `roll` for `player` and plays `steps` ("24/18 13/10", empty for a
/// dance; made from the position rolled). A game's first roll that is not a double is its opening roll-off
/// (the first mover's die the higher); a first roll that is a double began
/// with its first mover rolling (a match's winner starting the next game).
pub(crate) fn roll_and_play(game: &mut Game, player: usize, roll: [u8; 2], steps: &dyn Fn(&Position) -> String) -> Result<()> {
    match game.phase() {
        Phase::OpeningRoll if roll[0] != roll[1] => {
            let (high, low) = (roll[0].max(roll[1]), roll[0].min(roll[1]));
            let dice = if player == 0 { [high, low] } else { [low, high] };
            game.roll_off(Some(dice))?;
        }
        Phase::OpeningRoll => {
            game.begin_with(player)?;
            game.roll(Some(roll))?;
        }
        _ => {
            if game.turn() != player {
                return Err(Error::new(format!("it is player {}'s turn", game.turn() + 1)));
            }
            game.roll(Some(roll))?;
        }
    }
    if game.turn() != player {
        return Err(Error::new(format!("player {} rolls first, not player {}", game.turn() + 1, player + 1)));
    }
    let steps = steps(game.position());
    let steps = steps.trim();
    if game.legal_moves().len() == 1 && game.legal_moves()[0].play.is_empty() && steps.is_empty() {
        return game.play(0);
    }
    game.play_text(if steps.is_empty() { "pass" } else { steps })
}

/// Checks a file's "`winner` wins `points`" against the replayed game: the
/// result of a game that is over, or else a resignation (a single, gammon or
/// backgammon at the cube's value). Returns whether it was a resignation.
pub(crate) fn game_ending(game: &Game, winner: usize, points: u32) -> Result<bool> {
    let Some(result) = game.result() else {
        let cube = game.cube().value;
        if points == 0 || !points.is_multiple_of(cube) || points / cube > 3 {
            return Err(Error::new(format!("{points} points is no resignation at a cube of {cube}")));
        }
        return Ok(true);
    };
    if result.winner != Some(winner) || result.points != points {
        return Err(Error::new(format!(
            "the moves give {} point(s) to {}",
            result.points,
            result.winner.map_or("nobody".to_string(), |w| format!("player {}", w + 1))
        )));
    }
    Ok(false)
}

/// Writes games of one match (or money session, `length` 0) as a `.mat`
/// file, players in `names`' order (player 0 on the left). Backgammon only.
pub fn write_mat(length: u32, names: [&str; 2], games: &[MatGame]) -> Result<String> {
    let mut out = String::new();
    out.push_str(&format!("; [Player 1 \"{}\"]\n; [Player 2 \"{}\"]\n", names[0], names[1]));
    if games.first().is_some_and(|g| g.game.cube_rules().jacoby) {
        out.push_str("; [Jacoby \"On\"]\n");
    }
    out.push_str(&format!("\n {length} point match\n"));
    let mut score = [0u32; 2];
    for (k, played) in games.iter().enumerate() {
        let game = &played.game;
        if game.rules().variant != crate::variant::Variant::Backgammon {
            return Err(Error::new(format!("game {} is {}: a .mat file holds backgammon games", k + 1, game.rules().variant.name())));
        }
        if game.origin().is_some() {
            return Err(Error::new(format!("game {} starts from a set-up position, which a .mat file cannot say", k + 1)));
        }
        out.push_str(&format!("\n Game {}\n", k + 1));
        // The second player's column starts where its name does: wide enough
        // for the longest half-move (four hitting steps).
        let left = format!(" {} : {}", names[0], score[0]);
        out.push_str(&format!("{left:<40}{} : {}\n", names[1], score[1]));
        let halves = half_moves(game);
        let mut line = 1;
        let mut k2 = 0;
        while k2 < halves.len() {
            let (first, _) = &halves[k2];
            let (l, r) = if *first == 0 {
                let l = halves[k2].1.clone();
                k2 += 1;
                let r = if k2 < halves.len() && halves[k2].0 == 1 {
                    k2 += 1;
                    halves[k2 - 1].1.clone()
                } else {
                    String::new()
                };
                (l, r)
            } else {
                k2 += 1;
                (String::new(), halves[k2 - 1].1.clone())
            };
            out.push_str(format!("{line:>3}) {l:<34} {r}").trim_end());
            out.push('\n');
            line += 1;
        }
        let (w, points) = (played.winner, played.points);
        let text = format!("Wins {points} point{}", if points == 1 { "" } else { "s" });
        if w == 0 {
            out.push_str(&format!("      {text}\n"));
        } else {
            out.push_str(&format!("{:40}{text}\n", ""));
        }
        score[w] += points;
    }
    Ok(out)
}

/// The game's half-moves in order, each with its player: "63: 24/18 13/10",
/// "Doubles => 2", "Takes", "Drops", "Beavers => 4".
fn half_moves(game: &Game) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut cube = 1u32;
    let mut pending: Option<(usize, [u8; 2])> = None;
    for event in game.history() {
        match *event {
            Event::OpeningRoll { dice } if dice[0] != dice[1] => {
                let starter = if dice[0] > dice[1] { 0 } else { 1 };
                pending = Some((starter, [dice[starter], dice[1 - starter]]));
            }
            Event::OpeningRoll { .. } | Event::Begin { .. } => {}
            Event::Roll { player, dice, .. } => pending = Some((player, dice)),
            Event::Move { player, play, .. } => {
                let (_, dice) = pending.take().unwrap_or((player, [0, 0]));
                let steps: Vec<String> =
                    play.steps().iter().map(|s| format!("{}/{}{}", s.from, s.to, if s.hit { "*" } else { "" })).collect();
                out.push((player, format!("{}{}: {}", dice[0], dice[1], steps.join(" ")).trim_end().to_string()));
            }
            Event::Double { player } => {
                cube *= 2;
                out.push((player, format!("Doubles => {cube}")));
            }
            Event::Take { player } => out.push((player, "Takes".into())),
            Event::Beaver { player } => {
                cube *= 2;
                out.push((player, format!("Beavers => {cube}")));
            }
            Event::Pass { player } => out.push((player, "Drops".into())),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const GNUBG_3: &str = include_str!("../../tests/data/gnubg_3pt.mat");

    #[test]
    fn a_gnubg_match_replays_to_its_score() {
        let m = read_mat(GNUBG_3).unwrap();
        assert_eq!(m.length, 3);
        assert_eq!(m.players, ["gnubg".to_string(), "root".to_string()]);
        assert_eq!(m.score, [0, 5]);
        assert!(m.games[0].game.is_over() && !m.games[0].resigned, "a passed double");
        // gnubg resigns hopeless games: the second ends with the board not yet over.
        assert!(m.games[1].resigned && !m.games[1].game.is_over() && m.games[1].points == 4);
        let five = read_mat(include_str!("../../tests/data/gnubg_5pt.mat")).unwrap();
        assert_eq!(five.length, 5);
        assert_eq!(five.score, [4, 7], "gnubg's own export of the match");
    }

    #[test]
    fn written_and_read_again_is_the_same_match() {
        let m = read_mat(GNUBG_3).unwrap();
        let text = write_mat(m.length, ["gnubg", "root"], &m.games).unwrap();
        let again = read_mat(&text).unwrap();
        assert_eq!(again.score, m.score);
        for (a, b) in m.games.iter().zip(&again.games) {
            assert_eq!(a.game.history(), b.game.history());
            assert_eq!((a.winner, a.points, a.resigned), (b.winner, b.points, b.resigned));
        }
    }

    #[test]
    fn bad_files_name_the_line() {
        let broken = GNUBG_3.replacen("13/9 24/23", "13/9 24/22", 1);
        let e = read_mat(&broken).unwrap_err().to_string();
        assert!(e.starts_with("line 7:") && e.contains("41"), "{e}");
        let e = read_mat(&GNUBG_3.replacen("root : 1", "root : 2", 1)).unwrap_err().to_string();
        assert!(e.starts_with("line 20:") && e.contains("header says 0-2"), "{e}");
        assert!(read_mat("hello").unwrap_err().to_string().contains("before the first game"));
        assert!(read_mat("").unwrap_err().to_string().contains("no game"));
    }
}
