//! GNU Backgammon's `.sgf` match files: the Smart Game Format with `GM[6]`
//! (backgammon), as gnubg's `save match` writes them. A file is a collection
//! of game trees, one per game; each tree's root node holds the game's
//! settings and the rest of its main line holds the moves:
//!
//! ```text
//! (;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:5][game:0][ws:0][bs:0]
//!   PW[alice]PB[bob]RU[Crawford]RE[B+2R]
//! ;W[52mhxv]
//! ;B[double]
//! ;W[take]
//! ;B[33gjgjgjqt] ...)
//! ```
//!
//! - `MI`: the match length (0 for money), the game's number (from 0) and the
//!   score before it, white's `ws` and black's `bs`;
//! - `PW`, `PB`: the names; white is player 0 (the left column of gnubg's
//!   `.mat` export), black player 1;
//! - `RU`: `Crawford` (the match has the Crawford rule), `Crawford:CrawfordGame`
//!   (and this game is the Crawford game), `Jacoby` (money play);
//! - `RE`: the result, `W+2` or `B+4R` (`R`: the loser resigned);
//! - a move `W[..]`/`B[..]`: the two dice, then one pair of letters per
//!   checker step, from and to: `a`..`x` the points 1..24 as white counts them
//!   (black's `x`..`a` its own 1..24), `y` the bar and `z` off; `W[65]` is a
//!   dance; `double`, `take`, `drop` (and `beaver`) are the cube actions.
//!
//! Properties tavla does not need (gnubg's analysis `A`, `DA`, its
//! statistics `GS`, luck `LU`, marks, comments) are read past. Set-up
//! positions (`AE`, `AB`, `AW`, `PL`, `DI`, `CV`, `CP`) cannot be replayed from
//! the start and are refused, as are other variations than the standard game.
//! Only the main line of a tree is read (the first variation at each branch,
//! as gnubg loads it).
//!
//! Reading replays every game through [`Game`]: an illegal move, a score in
//! `MI` that the games before do not give, a result the moves do not give, or
//! a property that cannot be read is an error naming the line, the game and
//! the move, and nothing of the file is returned.

use super::mat::{game_ending, roll_and_play, MatFile, MatGame};
use crate::error::{Error, Result};
use crate::game::{CubeRules, Event, Game, Phase, Stakes};
use crate::position::{Position, BAR_POINT, OFF_POINT, THEM};
use crate::variant::{Rules, Variant};

/// The largest file read: gnubg's files carry its analysis of every move,
/// some tens of kilobytes a game.
pub const MAX_BYTES: usize = 16 << 20;

/// The deepest nesting of variations read.
const MAX_DEPTH: usize = 64;

/// One property: its identifier, its values and the line it starts on.
#[derive(Debug)]
struct Property {
    ident: String,
    values: Vec<String>,
    line: usize,
}

#[derive(Debug)]
struct Node {
    props: Vec<Property>,
    line: usize,
}

impl Node {
    fn get(&self, ident: &str) -> Option<&Property> {
        self.props.iter().find(|p| p.ident == ident)
    }
}

/// A game tree's main line.
#[derive(Debug)]
struct Tree {
    nodes: Vec<Node>,
    line: usize,
}

struct Parser<'a> {
    text: &'a [u8],
    at: usize,
    line: usize,
}

impl<'a> Parser<'a> {
    fn error(&self, message: impl std::fmt::Display) -> Error {
        Error::new(format!("line {}: {message}", self.line))
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.at += 1;
        if c == b'\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.bump();
        }
    }

    fn collection(&mut self) -> Result<Vec<Tree>> {
        if self.text.starts_with("\u{feff}".as_bytes()) {
            self.at = 3;
        }
        let mut trees = Vec::new();
        loop {
            self.skip_space();
            match self.peek() {
                None => break,
                Some(b'(') => trees.push(self.tree(0)?),
                Some(c) => {
                    let what = if trees.is_empty() {
                        "an SGF file begins with \"(;\""
                    } else {
                        "after a game tree comes another \"(\" or the end"
                    };
                    return Err(self.error(format!("{} found: {what}", shown(c))));
                }
            }
        }
        if trees.is_empty() {
            return Err(Error::new("no game tree in the file: not an .sgf file (it begins with \"(;\")"));
        }
        Ok(trees)
    }

    /// A tree from its "(": its sequence, then the main line of its first
    /// variation; later variations are read and dropped.
    fn tree(&mut self, depth: usize) -> Result<Tree> {
        if depth > MAX_DEPTH {
            return Err(self.error(format!("variations nested over {MAX_DEPTH} deep")));
        }
        let line = self.line;
        self.bump(); // "("
        let mut nodes = Vec::new();
        loop {
            self.skip_space();
            match self.peek() {
                Some(b';') => nodes.push(self.node()?),
                _ => break,
            }
        }
        if nodes.is_empty() {
            return Err(self.error("a game tree holds at least one node (\";\")"));
        }
        let mut first = true;
        loop {
            self.skip_space();
            match self.peek() {
                Some(b'(') => {
                    let sub = self.tree(depth + 1)?;
                    if first {
                        nodes.extend(sub.nodes);
                        first = false;
                    }
                }
                Some(b')') => {
                    self.bump();
                    return Ok(Tree { nodes, line });
                }
                Some(c) => return Err(self.error(format!("{} found inside a game tree: expected \";\", \"(\" or \")\"", shown(c)))),
                None => return Err(self.error(format!("the file ends inside the game tree of line {line} (no closing \")\")"))),
            }
        }
    }

    fn node(&mut self) -> Result<Node> {
        let line = self.line;
        self.bump(); // ";"
        let mut props = Vec::new();
        loop {
            self.skip_space();
            match self.peek() {
                Some(c) if c.is_ascii_alphabetic() => props.push(self.property()?),
                _ => return Ok(Node { props, line }),
            }
        }
    }

    fn property(&mut self) -> Result<Property> {
        let line = self.line;
        let mut ident = String::new();
        while let Some(c) = self.peek().filter(u8::is_ascii_alphabetic) {
            self.bump();
            // FF[3] identifiers may hold lower-case letters, which do not count.
            if c.is_ascii_uppercase() {
                ident.push(c as char);
            }
        }
        if ident.is_empty() || ident.len() > 8 {
            return Err(self.error(format!("{ident:?} is not a property name (one or a few capital letters)")));
        }
        let mut values = Vec::new();
        loop {
            self.skip_space();
            if self.peek() != Some(b'[') {
                break;
            }
            values.push(self.value(&ident)?);
        }
        if values.is_empty() {
            return Err(self.error(format!("property {ident} has no value (\"{ident}[...]\")")));
        }
        Ok(Property { ident, values, line })
    }

    fn value(&mut self, ident: &str) -> Result<String> {
        let line = self.line;
        self.bump(); // "["
        let mut out = Vec::new();
        loop {
            match self.bump() {
                None => return Err(self.error(format!("the value of {ident} that begins on line {line} has no closing \"]\""))),
                Some(b']') => break,
                Some(b'\\') => match self.bump() {
                    // An escaped line break is no text (a soft line break).
                    Some(b'\n') => {}
                    Some(b'\r') => {
                        if self.peek() == Some(b'\n') {
                            self.bump();
                        }
                    }
                    Some(c) => out.push(c),
                    None => return Err(self.error(format!("the value of {ident} that begins on line {line} has no closing \"]\""))),
                },
                Some(c) => out.push(c),
            }
        }
        // The text was valid UTF-8 and only ASCII bytes were taken out of it.
        String::from_utf8(out).map_err(|_| self.error(format!("the value of {ident} is not text")))
    }
}

fn shown(c: u8) -> String {
    if c.is_ascii_graphic() {
        format!("{:?}", c as char)
    } else {
        format!("byte 0x{c:02x}")
    }
}

fn parse(text: &str) -> Result<Vec<Tree>> {
    Parser { text: text.as_bytes(), at: 0, line: 1 }.collection()
}

/// Reads an `.sgf` file's bytes: UTF-8 or ISO-8859-1 as its `CA` property
/// says (UTF-8 when it says nothing and the bytes are UTF-8, else
/// ISO-8859-1, gnubg's default).
pub fn read_sgf_bytes(bytes: &[u8]) -> Result<MatFile> {
    check_size(bytes.len())?;
    let charset = charset(bytes);
    let text = match charset.as_deref().map(str::to_ascii_uppercase).as_deref() {
        None => match std::str::from_utf8(bytes) {
            Ok(t) => t.to_string(),
            Err(_) => latin1(bytes),
        },
        Some("UTF-8" | "UTF8") => std::str::from_utf8(bytes)
            .map_err(|e| {
                let line = 1 + bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count();
                Error::new(format!("line {line}: the file says CA[UTF-8], but byte {} is not UTF-8", e.valid_up_to() + 1))
            })?
            .to_string(),
        Some("ISO-8859-1" | "ISO8859-1" | "ISO_8859-1" | "LATIN1" | "LATIN-1" | "US-ASCII" | "ASCII") => latin1(bytes),
        Some(other) => {
            return Err(Error::new(format!("the file's character set CA[{other}] is not one tavla reads (UTF-8 or ISO-8859-1)")));
        }
    };
    read_sgf(&text)
}

fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| b as char).collect()
}

/// The first `CA[...]` value, looked for in the bytes before decoding them.
fn charset(bytes: &[u8]) -> Option<String> {
    let at = bytes.windows(3).position(|w| w == b"CA[")?;
    let rest = &bytes[at + 3..];
    let end = rest.iter().position(|&b| b == b']')?;
    std::str::from_utf8(&rest[..end]).ok().map(|s| s.trim().to_string())
}

fn check_size(len: usize) -> Result<()> {
    if len > MAX_BYTES {
        return Err(Error::new(format!("an .sgf file of {len} bytes is over the {MAX_BYTES}-byte limit")));
    }
    Ok(())
}

/// What a game tree's root says.
struct Root {
    length: u32,
    number: Option<usize>,
    score: [Option<u32>; 2],
    names: [Option<String>; 2],
    crawford_rule: bool,
    crawford_game: bool,
    jacoby: bool,
    beaver: bool,
    /// (winner, points, resigned)
    result: Option<(usize, u32, bool)>,
}

fn number(p: &Property, text: &str, what: &str) -> Result<u32> {
    text.trim().parse().map_err(|_| prop_error(p, format!("{what} {text:?} is not a whole number")))
}

fn prop_error(p: &Property, message: impl std::fmt::Display) -> Error {
    Error::new(format!("line {}: {}[{}]: {message}", p.line, p.ident, p.values.join("][")))
}

fn read_root(node: &Node) -> Result<Root> {
    let mut root = Root {
        length: 0,
        number: None,
        score: [None, None],
        names: [None, None],
        crawford_rule: false,
        crawford_game: false,
        jacoby: false,
        beaver: false,
        result: None,
    };
    match node.get("GM") {
        Some(p) if p.values[0].trim() == "6" => {}
        Some(p) => return Err(prop_error(p, "not a backgammon game (GM[6]); GM[1] is go, GM[2] othello, ...")),
        None => return Err(Error::new(format!("line {}: the game has no GM[6]: not a backgammon .sgf file", node.line))),
    }
    for p in &node.props {
        let value = p.values[0].trim();
        match p.ident.as_str() {
            "FF" => match value.parse::<u32>() {
                Ok(1..=4) => {}
                _ => return Err(prop_error(p, "the file format is FF[1] to FF[4]")),
            },
            "MI" => {
                for v in &p.values {
                    let Some((key, n)) = v.split_once(':') else {
                        return Err(prop_error(p, format!("{v:?} is not \"key:value\"")));
                    };
                    match key.trim() {
                        "length" => root.length = number(p, n, "the match length")?,
                        "game" => root.number = Some(number(p, n, "the game number")? as usize),
                        "ws" => root.score[0] = Some(number(p, n, "white's score")?),
                        "bs" => root.score[1] = Some(number(p, n, "black's score")?),
                        _ => {}
                    }
                }
            }
            "PW" => root.names[0] = Some(value.to_string()),
            "PB" => root.names[1] = Some(value.to_string()),
            "RU" => {
                for rule in value.split(':').map(str::trim).filter(|r| !r.is_empty()) {
                    match rule {
                        "Crawford" => root.crawford_rule = true,
                        "CrawfordGame" => root.crawford_game = true,
                        "Jacoby" => root.jacoby = true,
                        "Beaver" => root.beaver = true,
                        other => {
                            return Err(prop_error(
                                p,
                                format!("the rule {other:?} is not one tavla plays (Crawford, CrawfordGame, Jacoby)"),
                            ))
                        }
                    }
                }
            }
            "VA" if !value.eq_ignore_ascii_case("standard") && !value.eq_ignore_ascii_case("backgammon") => {
                return Err(prop_error(p, "tavla reads the standard game only, not this variation"));
            }
            "CV" if value != "1" => {
                return Err(prop_error(p, "games that begin with the cube turned (automatic doubles) cannot be replayed"))
            }
            "RE" => root.result = read_result(p)?,
            _ => {}
        }
    }
    if root.crawford_game && !root.crawford_rule {
        let p = node.get("RU").expect("CrawfordGame came from RU");
        return Err(prop_error(p, "CrawfordGame without the Crawford rule"));
    }
    Ok(root)
}

/// `W+2`, `B+4R`; `0`, `?` or `Void` (no winner) are no result.
fn read_result(p: &Property) -> Result<Option<(usize, u32, bool)>> {
    let v = p.values[0].trim();
    if v.is_empty() || v == "?" || v == "0" || v.eq_ignore_ascii_case("void") {
        return Ok(None);
    }
    let mut chars = v.chars();
    let winner = match chars.next().map(|c| c.to_ascii_uppercase()) {
        Some('W') => 0,
        Some('B') => 1,
        _ => return Err(prop_error(p, "a result is W+points or B+points, R after them for a resignation")),
    };
    let rest = chars.as_str();
    let Some(rest) = rest.strip_prefix('+') else {
        return Err(prop_error(p, "a result is W+points or B+points, R after them for a resignation"));
    };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let tail = &rest[digits.len()..];
    let resigned = match tail {
        "" => false,
        "R" | "r" => true,
        _ => return Err(prop_error(p, format!("{tail:?} after the points: only R (resigned) may follow them"))),
    };
    let points: u32 = digits.parse().map_err(|_| prop_error(p, "the result gives no number of points"))?;
    if points == 0 {
        return Err(prop_error(p, "a game is won by 1 point or more"));
    }
    Ok(Some((winner, points, resigned)))
}

/// Whose and what a move node says.
enum Action {
    Roll([u8; 2], Vec<(u8, u8)>),
    Double,
    Take,
    Drop,
    Beaver,
}

/// gnubg's letters: `a`..`x` are points 1..24 counted by white (so black's
/// own point n is the letter `x` - (n - 1)), `y` the bar, `z` off.
fn point_of(letter: u8, player: usize) -> Option<u8> {
    match letter {
        b'y' => Some(BAR_POINT),
        b'z' => Some(OFF_POINT),
        b'a'..=b'x' if player == 0 => Some(letter - b'a' + 1),
        b'a'..=b'x' => Some(b'x' - letter + 1),
        _ => None,
    }
}

fn letter_of(point: u8, player: usize) -> char {
    match point {
        BAR_POINT => 'y',
        OFF_POINT => 'z',
        p if player == 0 => (b'a' + p - 1) as char,
        p => (b'x' - (p - 1)) as char,
    }
}

fn read_action(p: &Property, player: usize) -> Result<Action> {
    let v = p.values[0].trim();
    match v {
        "double" => return Ok(Action::Double),
        "take" => return Ok(Action::Take),
        "drop" => return Ok(Action::Drop),
        "beaver" => return Ok(Action::Beaver),
        _ => {}
    }
    let bytes = v.as_bytes();
    let die = |k: usize| bytes.get(k).filter(|b| (b'1'..=b'6').contains(b)).map(|b| b - b'0');
    let (Some(d1), Some(d2)) = (die(0), die(1)) else {
        return Err(prop_error(p, "a move is two dice (1 to 6) and letter pairs, or double, take, drop"));
    };
    let letters = &bytes[2..];
    if !letters.len().is_multiple_of(2) || letters.len() > 8 {
        return Err(prop_error(p, "after the dice come up to four pairs of letters, from and to"));
    }
    let mut steps = Vec::new();
    for pair in letters.chunks(2) {
        let from = point_of(pair[0], player).filter(|&f| f != OFF_POINT);
        let to = point_of(pair[1], player).filter(|&t| t != BAR_POINT);
        let (Some(from), Some(to)) = (from, to) else {
            let text = String::from_utf8_lossy(pair);
            return Err(prop_error(p, format!("{text:?} is no checker step: a..x the points, y the bar (from), z off (to)")));
        };
        steps.push((from, to));
    }
    Ok(Action::Roll([d1, d2], steps))
}

/// The steps in the usual notation, each hit marked: gnubg's letters say
/// where each die took a checker, so a step hits where it lands on a lone
/// opposing checker (which the notation must say where two plays end alike).
fn steps_text(position: &Position, steps: &[(u8, u8)]) -> String {
    let mut theirs: Vec<u8> = (0..24).map(|i| position.count(THEM, i)).collect();
    let mut parts = Vec::new();
    for &(from, to) in steps {
        let hit = (1..=24).contains(&to) && theirs[to as usize - 1] == 1;
        if hit {
            theirs[to as usize - 1] = 0;
        }
        parts.push(format!("{from}/{to}{}", if hit { "*" } else { "" }));
    }
    parts.join(" ")
}

/// Reads an `.sgf` file's text (see the module's documentation).
pub fn read_sgf(text: &str) -> Result<MatFile> {
    check_size(text.len())?;
    let trees = parse(text)?;
    let mut games: Vec<MatGame> = Vec::new();
    let mut players = [String::new(), String::new()];
    let mut length: Option<u32> = None;
    let mut score = [0u32; 2];
    // Whether a game of the file began with a player at match point.
    let mut match_point_seen = false;
    let mut crawford_rule = false;
    for (k, tree) in trees.iter().enumerate() {
        let root = read_root(&tree.nodes[0]).map_err(|e| Error::new(format!("game {}: {e}", k + 1)))?;
        let at = |e: Error| Error::new(format!("game {} (line {}): {e}", k + 1, tree.line));
        if k == 0 {
            players = root.names.clone().map(Option::unwrap_or_default);
            // A file may begin during a match: its first game's score is where it starts.
            score = [root.score[0].unwrap_or(0), root.score[1].unwrap_or(0)];
        }
        match length {
            None => length = Some(root.length),
            Some(l) if l != root.length => {
                return Err(at(Error::new(format!("MI says a match of {}, but the games before are of a match of {l}", root.length))));
            }
            _ => {}
        }
        if let Some(n) = root.number.filter(|&n| n != k) {
            return Err(at(Error::new(format!("MI says game {n} (from 0), but it is game {k} of the file"))));
        }
        for (p, name) in ["white", "black"].iter().enumerate() {
            if let Some(s) = root.score[p].filter(|&s| s != score[p]) {
                return Err(at(Error::new(format!("MI gives {name} a score of {s}, but the games before give {}", score[p]))));
            }
        }
        let length = root.length;
        if length > 0 && score.iter().any(|&s| s >= length) {
            return Err(at(Error::new(format!("the match to {length} is over at {}-{}, but the file goes on", score[0], score[1]))));
        }
        let at_match_point = length > 1 && score.contains(&(length - 1));
        let crawford_game = if k == 0 { root.crawford_game } else { root.crawford_rule && at_match_point && !match_point_seen };
        if root.crawford_game != crawford_game {
            let says = if root.crawford_game { "says this is the Crawford game" } else { "does not say this is the Crawford game" };
            return Err(at(Error::new(format!(
                "RU {says}, but at {}-{} in a match to {length} it is {}",
                score[0],
                score[1],
                match crawford_game {
                    true => "",
                    false => "not",
                }
            ))));
        }
        if crawford_game && !at_match_point {
            return Err(at(Error::new(format!("RU says the Crawford game, but nobody is at match point at {}-{}", score[0], score[1]))));
        }
        match_point_seen |= at_match_point;
        crawford_rule |= root.crawford_rule;
        let stakes = Stakes { match_length: length, score: if length > 0 { score } else { [0, 0] }, crawford_game };
        let cube = CubeRules { jacoby: length == 0 && root.jacoby, beaver: length == 0 && root.beaver, ..CubeRules::default() };
        let mut game = Game::new(Rules::backgammon(), cube, stakes, 0).map_err(at)?;
        for (m, node) in tree.nodes.iter().enumerate() {
            replay_node(&mut game, node, m).map_err(|e| Error::new(format!("game {}, {e}", k + 1)))?;
        }
        let played = match root.result {
            Some((winner, points, _)) => {
                let resigned = game_ending(&game, winner, points).map_err(|e| {
                    let p = tree.nodes[0].get("RE").expect("a result came from RE");
                    Error::new(format!("game {}: {}", k + 1, prop_error(p, e)))
                })?;
                MatGame { game, winner, points, resigned }
            }
            None => match game.result() {
                Some(r) if r.winner.is_some() => MatGame { winner: r.winner.expect("checked"), points: r.points, game, resigned: false },
                _ => return Err(at(Error::new("the game is not over and its root has no result (RE)"))),
            },
        };
        score[played.winner] += played.points;
        games.push(played);
    }
    Ok(MatFile { length: length.unwrap_or(0), players, games, score, crawford_rule })
}

/// Applies one node's move or cube action (a node without one is passed by).
fn replay_node(game: &mut Game, node: &Node, index: usize) -> Result<()> {
    let mut action = None;
    for p in &node.props {
        match p.ident.as_str() {
            "B" | "W" => {
                if action.is_some() {
                    return Err(Error::new(format!("line {}: a node holds one move, and this one has two", p.line)));
                }
                action = Some(p);
            }
            "AE" | "AB" | "AW" | "PL" | "DI" | "CP" => {
                return Err(prop_error(p, "set-up positions and dice cannot be replayed from the start of a game"));
            }
            "CV" if index > 0 => return Err(prop_error(p, "set-up positions and dice cannot be replayed from the start of a game")),
            _ => {}
        }
    }
    let Some(p) = action else { return Ok(()) };
    let player = if p.ident == "W" { 0 } else { 1 };
    let name = ["white", "black"][player];
    let refuse = |e: Error| Error::new(format!("move {index} (line {}: {}[{}]): {e}", p.line, p.ident, p.values[0]));
    if game.is_over() {
        return Err(refuse(Error::new("the game is already over")));
    }
    match read_action(p, player).map_err(|e| Error::new(format!("move {index} ({e})")))? {
        Action::Roll(roll, steps) => roll_and_play(game, player, roll, &|p| steps_text(p, &steps)).map_err(refuse),
        Action::Double => {
            if game.phase() == Phase::Roll && game.turn() != player {
                return Err(refuse(Error::new(format!("{name} doubles, but it is the other player's turn"))));
            }
            game.double().map_err(refuse)
        }
        answer => {
            if game.decider() != Some(player) {
                return Err(refuse(Error::new(format!("{name} answers a double that {name} was not offered"))));
            }
            match answer {
                Action::Take => game.take(),
                Action::Beaver => game.beaver(),
                _ => game.pass().map(|_| ()),
            }
            .map_err(refuse)
        }
    }
}

fn escaped(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// Writes games of one match (or money session, `length` 0) as gnubg's
/// `.sgf`, one game tree per game; `names[0]` is white (player 0);
/// `crawford_rule`: whether the match has the Crawford rule. The first game's
/// score is where the file starts. Backgammon only.
pub fn write_sgf(length: u32, names: [&str; 2], crawford_rule: bool, games: &[MatGame]) -> Result<String> {
    let mut out = String::new();
    let mut score = match games.first() {
        Some(g) if length > 0 => g.game.stakes().score,
        _ => [0, 0],
    };
    for (k, played) in games.iter().enumerate() {
        let game = &played.game;
        if game.rules().variant != Variant::Backgammon {
            return Err(Error::new(format!("game {} is {}: an .sgf file holds backgammon games", k + 1, game.rules().variant.name())));
        }
        if game.origin().is_some() {
            return Err(Error::new(format!("game {} starts from a set-up position, which tavla does not write to .sgf", k + 1)));
        }
        if game.stakes().match_length != length {
            return Err(Error::new(format!("game {} is of a match to {}, not {length}", k + 1, game.stakes().match_length)));
        }
        out.push_str(&format!(
            "(;FF[4]GM[6]CA[UTF-8]AP[tavla:{}]MI[length:{length}][game:{k}][ws:{}][bs:{}]PW[{}]PB[{}]",
            env!("CARGO_PKG_VERSION"),
            score[0],
            score[1],
            escaped(names[0]),
            escaped(names[1])
        ));
        let rules = game.cube_rules();
        if game.stakes().score != score && length > 0 {
            return Err(Error::new(format!("game {} is played at {:?}, but the games before give {score:?}", k + 1, game.stakes().score)));
        }
        if length > 0 && (crawford_rule || game.stakes().crawford_game) {
            out.push_str(if game.stakes().crawford_game { "RU[Crawford:CrawfordGame]" } else { "RU[Crawford]" });
        } else if rules.jacoby || rules.beaver {
            let list: Vec<&str> = [(rules.jacoby, "Jacoby"), (rules.beaver, "Beaver")].iter().filter(|r| r.0).map(|r| r.1).collect();
            out.push_str(&format!("RU[{}]", list.join(":")));
        }
        out.push_str(&format!("RE[{}+{}{}]", ['W', 'B'][played.winner], played.points, if played.resigned { "R" } else { "" }));
        let mut pending: Option<[u8; 2]> = None;
        for event in game.history() {
            let (player, text) = match *event {
                Event::OpeningRoll { dice } if dice[0] != dice[1] => {
                    let starter = if dice[0] > dice[1] { 0 } else { 1 };
                    pending = Some([dice[starter], dice[1 - starter]]);
                    continue;
                }
                Event::OpeningRoll { .. } | Event::Begin { .. } => continue,
                Event::Roll { dice, .. } => {
                    pending = Some(dice);
                    continue;
                }
                Event::Move { player, play, .. } => {
                    let dice = pending.take().ok_or_else(|| Error::new(format!("game {}: a move without a roll", k + 1)))?;
                    let mut text = format!("{}{}", dice[0], dice[1]);
                    for s in play.steps() {
                        text.push(letter_of(s.from, player));
                        text.push(letter_of(s.to, player));
                    }
                    (player, text)
                }
                Event::Double { player } => (player, "double".to_string()),
                Event::Take { player } => (player, "take".to_string()),
                Event::Beaver { player } => (player, "beaver".to_string()),
                Event::Pass { player } => (player, "drop".to_string()),
            };
            out.push_str(&format!("\n;{}[{text}]", ['W', 'B'][player]));
        }
        out.push_str(")\n");
        score[played.winner] += played.points;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Dice;
    use crate::game::matches::Match;
    use crate::game::players::{play_out, Strategy};

    const MATCH_11: &str = include_str!("../../tests/data/gnubg/match11_1.sgf");
    const MONEY: &str = include_str!("../../tests/data/gnubg/money_1.sgf");

    #[test]
    fn gnubg_matches_replay_to_their_scores() {
        let m = read_sgf(MATCH_11).unwrap();
        assert_eq!(m.length, 11);
        assert_eq!(m.score, [13, 2]);
        assert!(m.games[5].game.stakes().crawford_game && m.games[5].resigned);
        let mat = super::super::mat::read_mat(include_str!("../../tests/data/gnubg/match11_1.mat")).unwrap();
        assert_eq!(m.score, mat.score, "the .sgf and the .mat gnubg exported of one match");
        assert_eq!(m.games.len(), mat.games.len());
        for (a, b) in m.games.iter().zip(&mat.games) {
            assert_eq!(a.game.history(), b.game.history());
            assert_eq!((a.winner, a.points, a.resigned), (b.winner, b.points, b.resigned));
        }
        let money = read_sgf(MONEY).unwrap();
        assert_eq!(money.length, 0);
        assert!(money.games.iter().all(|g| g.game.cube_rules().jacoby));
    }

    #[test]
    fn written_and_read_again_is_the_same_match() {
        let mut m = Match::new(Rules::backgammon(), 5, true, CubeRules::default(), 9).unwrap();
        let mut picks = Dice::new(4);
        let mut games = Vec::new();
        loop {
            play_out(m.game_mut(), [Strategy::Greedy, Strategy::Random], &mut picks).unwrap();
            games.push(MatGame::of(m.game().clone()).unwrap());
            if m.is_over() {
                break;
            }
            m.next_game().unwrap();
        }
        let text = write_sgf(5, ["a]b", "c\\d"], true, &games).unwrap();
        let back = read_sgf(&text).unwrap();
        assert_eq!(back.players, ["a]b".to_string(), "c\\d".to_string()]);
        assert_eq!(back.score, m.score());
        for (a, b) in games.iter().zip(&back.games) {
            assert_eq!(a.game.history().iter().filter(|e| !matches!(e, Event::Begin { .. })).count(), b.game.history().len());
            assert_eq!(a.game.result(), b.game.result());
        }
        // gnubg's own files come back as they were read.
        let m = read_sgf(MATCH_11).unwrap();
        let again = read_sgf(&write_sgf(11, ["gnubg", "root"], m.crawford_rule, &m.games).unwrap()).unwrap();
        for (a, b) in m.games.iter().zip(&again.games) {
            assert_eq!(a.game.history(), b.game.history());
        }
    }

    #[test]
    fn bad_files_name_the_line_and_move() {
        let first_move = MATCH_11.lines().position(|l| l.starts_with(";W[") || l.starts_with(";B[")).unwrap() + 1;
        let line = MATCH_11.lines().nth(first_move - 1).unwrap();
        let broken = MATCH_11.replacen(line, &format!("{}aa]", &line[..5]), 1);
        let e = read_sgf(&broken).unwrap_err().to_string();
        assert!(e.starts_with("game 1,") && e.contains(&format!("line {first_move}")), "{e}");
        let e = read_sgf(&MATCH_11.replacen("[ws:5][bs:2]", "[ws:5][bs:1]", 1)).unwrap_err().to_string();
        assert!(e.contains("black a score of 1") && e.starts_with("game 4 (line "), "{e}");
        let e = read_sgf(&MATCH_11.replacen("RU[Crawford:CrawfordGame]", "RU[Crawford]", 1)).unwrap_err().to_string();
        assert!(e.contains("Crawford game") && e.starts_with("game 6"), "{e}");
        let e = read_sgf(&MATCH_11.replacen("RE[W+1]", "RE[B+1]", 1)).unwrap_err().to_string();
        assert!(e.starts_with("game 1: line 1: RE[B+1]") && e.contains("the moves give"), "{e}");
        let e = read_sgf(&MATCH_11.replacen("GM[6]", "GM[1]", 1)).unwrap_err().to_string();
        assert!(e.contains("line 1") && e.contains("not a backgammon game"), "{e}");
        let e = read_sgf(&MATCH_11[..MATCH_11.len() / 2]).unwrap_err().to_string();
        assert!(e.contains("no closing"), "{e}");
        assert!(read_sgf("hello").unwrap_err().to_string().contains("begins with"));
        assert!(read_sgf("").unwrap_err().to_string().contains("no game tree"));
        assert!(read_sgf(&"(;".repeat(1000)).unwrap_err().to_string().contains("nested"));
        let e = read_sgf("(;GM[6]CA[UTF-8]RE[W+1];W[21lnst])").unwrap_err().to_string();
        assert!(e.contains("line 1") && e.contains("W[21lnst]"), "{e}");
        // Non-UTF-8 bytes: ISO-8859-1 names as the file says; a false CA[UTF-8] is refused.
        let latin = MATCH_11.replacen("CA[UTF-8]", "CA[ISO-8859-1]", 1).replace("PW[white]", "PW[J\u{f6}rg]");
        let bytes: Vec<u8> = latin.chars().map(|c| c as u32 as u8).collect();
        assert_eq!(read_sgf_bytes(&bytes).unwrap().players[0], "J\u{f6}rg");
        let lying: Vec<u8> = latin.replacen("CA[ISO-8859-1]", "CA[UTF-8]", 1).chars().map(|c| c as u32 as u8).collect();
        assert!(read_sgf_bytes(&lying).unwrap_err().to_string().contains("not UTF-8"));
        assert!(read_sgf_bytes(&vec![b' '; MAX_BYTES + 1]).unwrap_err().to_string().contains("limit"));
    }
}
