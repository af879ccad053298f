//! Reading a certificate file (format in [`crate::quarto::certificate`]) into its claim and
//! strategies, with the line of every entry kept for reports.

use std::collections::HashMap;

use crate::{GameResult, Player, Variant};

use super::super::notation;
use super::super::position::Position;
use super::super::rules::Rules;

/// Why a file is not a certificate: the line (from 1) and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("malformed certificate, line {line}: {reason}")]
pub struct Malformed {
    /// The line, from 1 (one past the last line when the file ends early).
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// One player's strategy as read: whether it claims a win (or only a draw), and for each
/// position (cells and hand as written) its turn and line.
pub struct ReadStrategy {
    /// The player.
    pub player: Player,
    /// Whether it claims a win against every reply (else at least a draw).
    pub wins: bool,
    /// Position text -> (turn text, line).
    pub turns: HashMap<String, (String, usize)>,
}

/// A certificate as read.
pub struct ReadCertificate {
    /// The format version: 1 (positions as they stand), 2 (canonical positions) or 3
    /// (canonical positions, draw strategies ending at dead positions).
    pub version: u32,
    /// The rules.
    pub rules: Rules,
    /// The position proved.
    pub root: Position,
    /// The claimed outcome.
    pub claim: GameResult,
    /// The strategies, in file order.
    pub strategies: Vec<ReadStrategy>,
}

/// The lines of a file, numbered from 1, that knows where it is.
struct Lines<'a> {
    lines: std::iter::Peekable<std::iter::Enumerate<std::str::Lines<'a>>>,
    at: usize,
}

impl<'a> Lines<'a> {
    /// The next line's words after `keyword`, which it must start with.
    fn expect(&mut self, keyword: &str) -> Result<Vec<&'a str>, Malformed> {
        let line = self.next_line()?;
        let mut words = line.split_whitespace();
        match words.next() {
            Some(word) if word == keyword => Ok(words.collect()),
            _ => Err(self.error(format!("expected a line starting with {keyword:?}"))),
        }
    }

    /// The next line.
    fn next_line(&mut self) -> Result<&'a str, Malformed> {
        let (i, line) = self
            .lines
            .next()
            .ok_or_else(|| self.error("the file ends early".to_string()))?;
        self.at = i + 1;
        Ok(line)
    }

    /// An error at the current line (one past the end once the file is read).
    fn error(&self, reason: String) -> Malformed {
        Malformed {
            line: self.at.max(1),
            reason,
        }
    }
}

/// The rules of a `rules` line's words.
fn read_rules(words: &[&str], lines: &Lines) -> Result<Rules, Malformed> {
    let [size, attributes, criteria, variant, squares] = words else {
        return Err(lines.error("rules needs size, attributes, criteria, variant, squares".into()));
    };
    let number = |w: &str| {
        w.parse::<u32>()
            .map_err(|_| lines.error(format!("{w:?} is not a number")))
    };
    let (size, attributes) = (number(size)?, number(attributes)?);
    let mut mask = 0u8;
    for c in criteria.split(',') {
        let i = number(c)?;
        if i >= 4 {
            return Err(lines.error(format!("criterion {i} is not an attribute")));
        }
        mask |= 1 << i;
    }
    let variant = match *variant {
        "normal" => Variant::Normal,
        "misere" => Variant::Misere,
        other => return Err(lines.error(format!("{other:?} is not normal or misere"))),
    };
    let squares = match *squares {
        "squares" => true,
        "no-squares" => false,
        other => return Err(lines.error(format!("{other:?} is not squares or no-squares"))),
    };
    Rules::new(size, attributes, Some(mask), variant, squares)
        .map_err(|e| lines.error(e.to_string()))
}

/// A player's name.
fn read_player(word: &str, lines: &Lines) -> Result<Player, Malformed> {
    match word {
        "P1" => Ok(Player::P1),
        "P2" => Ok(Player::P2),
        other => Err(lines.error(format!("{other:?} is not P1 or P2"))),
    }
}

/// One `strategy` header and its entries.
fn read_strategy(words: &[&str], lines: &mut Lines) -> Result<ReadStrategy, Malformed> {
    let [player, goal, count] = words else {
        return Err(lines.error("strategy needs a player, win or draw, and a count".into()));
    };
    let player = read_player(player, lines)?;
    let wins = match *goal {
        "win" => true,
        "draw" => false,
        other => return Err(lines.error(format!("{other:?} is not win or draw"))),
    };
    let count: usize = count
        .parse()
        .map_err(|_| lines.error(format!("{count:?} is not a count")))?;
    let mut turns = HashMap::new();
    for _ in 0..count {
        let line = lines.next_line()?;
        let words: Vec<&str> = line.split_whitespace().collect();
        let [cells, hand, turn] = words[..] else {
            return Err(lines.error("an entry is cells, hand and turn".into()));
        };
        let at = lines.at;
        if turns
            .insert(format!("{cells} {hand}"), (turn.to_string(), at))
            .is_some()
        {
            return Err(lines.error("a second entry for the same position".into()));
        }
    }
    Ok(ReadStrategy {
        player,
        wins,
        turns,
    })
}

/// Reads a certificate's text.
///
/// # Errors
/// [`Malformed`] with the first line that does not follow the format.
pub fn read(text: &str) -> Result<ReadCertificate, Malformed> {
    let mut lines = Lines {
        lines: text.lines().enumerate().peekable(),
        at: 0,
    };
    let version = match lines.expect("quarto-certificate")?[..] {
        ["1"] => 1,
        ["2"] => 2,
        ["3"] => 3,
        _ => return Err(lines.error("only versions 1, 2 and 3 are known".into())),
    };
    let rules = read_rules(&lines.expect("rules")?, &lines)?;
    let root = lines.expect("root")?.join(" ");
    let record = if root == "-" { "" } else { root.as_str() };
    let (root, _) = notation::parse(rules, record).map_err(|e| lines.error(e.to_string()))?;
    let claim = match lines.expect("claim")?[..] {
        ["draw"] => GameResult::Draw,
        [player] => GameResult::Win(read_player(player, &lines)?),
        _ => return Err(lines.error("claim needs P1, P2 or draw".into())),
    };
    let mut strategies = Vec::new();
    while lines.lines.peek().is_some() {
        let words = lines.expect("strategy")?;
        strategies.push(read_strategy(&words, &mut lines)?);
    }
    Ok(ReadCertificate {
        version,
        rules,
        root,
        claim,
        strategies,
    })
}
