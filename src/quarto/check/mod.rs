//! The certificate checker: replays each strategy of a certificate against every reply, by
//! the rules of play alone (no solver, no symmetry), and confirms or refutes the claim.

pub mod canonical;
mod parse;
pub mod symmetry;

use std::collections::HashSet;

use crate::{GameResult, Player};

use super::notation;
use super::position::{Position, Turn};

pub use parse::Malformed;

/// Why a well-formed certificate does not prove its claim: the file line at fault (0 when
/// the fault is a missing part), the game record where it shows, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("refuted{}: {reason}{}", at_line(*.line), after(.record))]
pub struct Refuted {
    /// The certificate line at fault, or 0.
    pub line: usize,
    /// The game record, from the proved position, where the fault shows.
    pub record: String,
    /// What is wrong.
    pub reason: String,
}

/// ` at line N` for a line, nothing for 0.
fn at_line(line: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!(" at line {line}")
    }
}

/// ` after RECORD` for a record, nothing for the position proved itself.
fn after(record: &str) -> String {
    if record.is_empty() {
        String::new()
    } else {
        format!(" (after {record})")
    }
}

/// Why a certificate was not accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// The file does not follow the format.
    #[error(transparent)]
    Malformed(#[from] Malformed),
    /// The file is well formed and its proof is wrong.
    #[error(transparent)]
    Refuted(#[from] Refuted),
}

/// What an accepted certificate proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The outcome proved.
    pub claim: GameResult,
    /// The rules, in words.
    pub rules: String,
    /// Positions replayed, over every strategy.
    pub positions: usize,
}

/// Replays one strategy from the proved position.
struct Replay<'a> {
    strategy: &'a parse::ReadStrategy,
    /// Positions already shown to be good for the strategy (their text).
    good: HashSet<String>,
    /// The turns from the proved position to the one being looked at.
    path: Vec<Turn>,
}

impl Replay<'_> {
    /// A refutation at `line` where the replay stands.
    fn refuted(&self, pos: &Position, line: usize, reason: String) -> Refuted {
        Refuted {
            line,
            record: notation::format(pos.rules(), &self.path),
            reason,
        }
    }

    /// Whether a finished game's result is what the strategy claims for its player.
    fn meets_goal(&self, result: GameResult) -> bool {
        let player = self.strategy.player;
        if self.strategy.wins {
            result == GameResult::Win(player)
        } else {
            result != GameResult::Win(player.other())
        }
    }

    /// Shows that every game from `pos` in which the player follows the strategy ends as it
    /// claims.
    fn visit(&mut self, pos: &Position) -> Result<(), Refuted> {
        let player = self.strategy.player;
        if let Some(outcome) = pos.outcome() {
            if self.meets_goal(outcome.result) {
                return Ok(());
            }
            let reason = format!(
                "{player}'s strategy reaches {}",
                outcome.describe(pos.rules())
            );
            return Err(self.refuted(pos, 0, reason));
        }
        let text = position_text(pos);
        if self.good.contains(&text) {
            return Ok(());
        }
        let turns = if pos.to_move() == player {
            vec![self.strategy_turn(pos, &text)?]
        } else {
            pos.legal_turns()
        };
        for turn in turns {
            let next = pos.play(turn).expect("legal turns and checked turns play");
            self.path.push(turn);
            self.visit(&next)?;
            self.path.pop();
        }
        self.good.insert(text);
        Ok(())
    }

    /// The strategy's turn in `pos` (written `text`), checked legal.
    fn strategy_turn(&self, pos: &Position, text: &str) -> Result<Turn, Refuted> {
        let player = self.strategy.player;
        let Some((turn, line)) = self.strategy.turns.get(text) else {
            let reason = format!("{player}'s strategy has no turn for position {text}");
            return Err(self.refuted(pos, 0, reason));
        };
        notation::play_turn(pos, turn)
            .map(|(turn, _)| turn)
            .map_err(|e| self.refuted(pos, *line, format!("{player}'s turn {turn}: {e}")))
    }
}

/// A position as certificates name it: one character per cell in index order (`.` or the
/// piece's number in hexadecimal) and the piece in hand as a code (`-` for none). Written here
/// again, apart from the certificate writer, so that the checker depends on nothing of it.
fn position_text(pos: &Position) -> String {
    let rules = pos.rules();
    let cells: String = (0..rules.cells())
        .map(|i| {
            pos.board()
                .piece_at(super::Cell::from_index(i))
                .and_then(|p| char::from_digit(u32::from(p.bits()), 16))
                .unwrap_or('.')
        })
        .collect();
    let hand = pos.hand().map_or("-".to_string(), |p| p.code(rules));
    format!("{cells} {hand}")
}

/// The strategies a claim needs: the winner's to win, or each side's to draw at least.
fn needed(claim: GameResult) -> Vec<(Player, bool)> {
    match claim {
        GameResult::Win(p) => vec![(p, true)],
        GameResult::Draw => vec![(Player::P1, false), (Player::P2, false)],
    }
}

/// Checks a certificate's text: reads it, then replays each strategy the claim needs against
/// every reply.
///
/// # Errors
/// [`CheckError::Malformed`] for a file that does not follow the format,
/// [`CheckError::Refuted`] for a proof that does not hold (a strategy missing, a turn missing
/// or illegal, a game that ends otherwise than claimed).
pub fn check(text: &str) -> Result<Verdict, CheckError> {
    let certificate = parse::read(text)?;
    let root = &certificate.root;
    let mut positions = 0;
    for (player, wins) in needed(certificate.claim) {
        let strategy = certificate
            .strategies
            .iter()
            .find(|s| s.player == player && s.wins == wins)
            .ok_or_else(|| Refuted {
                line: 0,
                record: String::new(),
                reason: format!(
                    "the claim needs a strategy with which {player} {}",
                    if wins { "wins" } else { "at least draws" }
                ),
            })?;
        let mut replay = Replay {
            strategy,
            good: HashSet::new(),
            path: Vec::new(),
        };
        replay.visit(root)?;
        positions += replay.good.len();
    }
    Ok(Verdict {
        claim: certificate.claim,
        rules: certificate.rules.to_string(),
        positions,
    })
}
