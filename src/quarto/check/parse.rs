//! Reading a certificate file (format in [`crate::quarto::certificate`]) line by line: its
//! header, then each strategy with its entries handed over one by one with their lines, for
//! reports.

use std::io::BufRead;

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

/// A certificate's first lines: everything but the strategies.
pub struct Header {
    /// The format version: 1 (positions as they stand), 2 (canonical positions) or 3
    /// (canonical positions, draw strategies ending at dead positions).
    pub version: u32,
    /// The rules.
    pub rules: Rules,
    /// The position proved.
    pub root: Position,
    /// The claimed outcome.
    pub claim: GameResult,
}

/// A strategy's `strategy` line: the player and whether it claims a win (else at least a
/// draw).
pub type StrategyLine = (Player, bool);

/// Reads a certificate line by line, so that a file of any size costs only what its entries
/// are turned into.
pub struct Reader<R: BufRead> {
    lines: Lines<R>,
}

impl<R: BufRead> Reader<R> {
    /// A reader of `input`.
    pub fn new(input: R) -> Self {
        Reader {
            lines: Lines {
                input,
                at: 0,
                next: None,
            },
        }
    }

    /// Reads the header: version, rules, root and claim.
    ///
    /// # Errors
    /// [`Malformed`] at the first line that does not follow the format.
    pub fn header(&mut self) -> Result<Header, Malformed> {
        let lines = &mut self.lines;
        let words = lines.expect("quarto-certificate")?;
        let version = match words.iter().map(String::as_str).collect::<Vec<_>>()[..] {
            ["1"] => 1,
            ["2"] => 2,
            ["3"] => 3,
            _ => return Err(lines.error("only versions 1, 2 and 3 are known".into())),
        };
        let rules = read_rules(&lines.expect("rules")?, lines)?;
        let root = lines.expect("root")?.join(" ");
        let record = if root == "-" { "" } else { root.as_str() };
        let (root, _) = notation::parse(rules, record).map_err(|e| lines.error(e.to_string()))?;
        let claim = match &lines.expect("claim")?[..] {
            [word] if word == "draw" => GameResult::Draw,
            [player] => GameResult::Win(read_player(player, lines)?),
            _ => return Err(lines.error("claim needs P1, P2 or draw".into())),
        };
        Ok(Header {
            version,
            rules,
            root,
            claim,
        })
    }

    /// Reads the next strategy, handing each entry to `entry` (position text as cells and
    /// hand, turn text, line) as it is read; `None` at the end of the file.
    ///
    /// # Errors
    /// [`Malformed`] at the first line that does not follow the format, or whose entry
    /// `entry` refuses (with its reason).
    pub fn strategy(
        &mut self,
        mut entry: impl FnMut(&str, &str, usize) -> Result<(), String>,
    ) -> Result<Option<StrategyLine>, Malformed> {
        if self.lines.at_end()? {
            return Ok(None);
        }
        let lines = &mut self.lines;
        let words = lines.expect("strategy")?;
        let [player, goal, count] = &words[..] else {
            return Err(lines.error("strategy needs a player, win or draw, and a count".into()));
        };
        let player = read_player(player, lines)?;
        let wins = match goal.as_str() {
            "win" => true,
            "draw" => false,
            other => return Err(lines.error(format!("{other:?} is not win or draw"))),
        };
        let count: usize = count
            .parse()
            .map_err(|_| lines.error(format!("{count:?} is not a count")))?;
        for _ in 0..count {
            let line = lines.next_line()?;
            let words: Vec<&str> = line.split_whitespace().collect();
            let [cells, hand, turn] = words[..] else {
                return Err(lines.error("an entry is cells, hand and turn".into()));
            };
            entry(&format!("{cells} {hand}"), turn, lines.at)
                .map_err(|reason| lines.error(reason))?;
        }
        Ok(Some((player, wins)))
    }
}

/// The lines of an input, numbered from 1, with the one after the current line read ahead
/// when asked whether there is one.
struct Lines<R> {
    input: R,
    /// The number of the last line handed out.
    at: usize,
    /// The next line, when read ahead.
    next: Option<String>,
}

impl<R: BufRead> Lines<R> {
    /// The next line's words after `keyword`, which it must start with.
    fn expect(&mut self, keyword: &str) -> Result<Vec<String>, Malformed> {
        let line = self.next_line()?;
        let mut words = line.split_whitespace();
        match words.next() {
            Some(word) if word == keyword => Ok(words.map(str::to_string).collect()),
            _ => Err(self.error(format!("expected a line starting with {keyword:?}"))),
        }
    }

    /// Whether the input has no more lines.
    fn at_end(&mut self) -> Result<bool, Malformed> {
        if self.next.is_none() {
            self.next = self.read()?;
        }
        Ok(self.next.is_none())
    }

    /// The next line.
    fn next_line(&mut self) -> Result<String, Malformed> {
        let line = match self.next.take() {
            Some(line) => Some(line),
            None => self.read()?,
        };
        let line = line.ok_or_else(|| self.error("the file ends early".to_string()))?;
        self.at += 1;
        Ok(line)
    }

    /// Reads a line from the input, without its line ending; `None` at the end.
    fn read(&mut self) -> Result<Option<String>, Malformed> {
        let mut line = String::new();
        match self.input.read_line(&mut line) {
            Ok(0) => Ok(None),
            Ok(_) => {
                let end = line.trim_end_matches('\n').trim_end_matches('\r').len();
                line.truncate(end);
                Ok(Some(line))
            }
            Err(e) => Err(Malformed {
                line: self.at + 1,
                reason: format!("cannot read the line: {e}"),
            }),
        }
    }
}

impl<R> Lines<R> {
    /// An error at the current line (the last one read, or 1 before any).
    fn error(&self, reason: String) -> Malformed {
        Malformed {
            line: self.at.max(1),
            reason,
        }
    }
}

/// The rules of a `rules` line's words.
fn read_rules<R>(words: &[String], lines: &Lines<R>) -> Result<Rules, Malformed> {
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
    let variant = match variant.as_str() {
        "normal" => Variant::Normal,
        "misere" => Variant::Misere,
        other => return Err(lines.error(format!("{other:?} is not normal or misere"))),
    };
    let squares = match squares.as_str() {
        "squares" => true,
        "no-squares" => false,
        other => return Err(lines.error(format!("{other:?} is not squares or no-squares"))),
    };
    Rules::new(size, attributes, Some(mask), variant, squares)
        .map_err(|e| lines.error(e.to_string()))
}

/// A player's name.
fn read_player<R>(word: &str, lines: &Lines<R>) -> Result<Player, Malformed> {
    match word {
        "P1" => Ok(Player::P1),
        "P2" => Ok(Player::P2),
        other => Err(lines.error(format!("{other:?} is not P1 or P2"))),
    }
}
