//! The certificate checker: replays each strategy of a certificate against every reply, by
//! the rules of play and (for versions 2 and 3) its own symmetry code, sharing nothing with
//! the solver, and confirms or refutes the claim.

mod by_code;
pub mod canonical;
mod dead;
mod parse;
mod plain;
mod replay;
pub mod symmetry;

use crate::{GameResult, Player};

use super::position::Position;
use by_code::CanonicalTurns;
use canonical::Canonizer;
use plain::PlainTurns;
use replay::{Lookup, Replay};

pub use by_code::layout_text;
pub use parse::Malformed;
pub(crate) use plain::{exact_key, position_text};
pub use replay::Refuted;

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

/// The strategies a claim needs: the winner's to win, or each side's to draw at least.
fn needed(claim: GameResult) -> Vec<(Player, bool)> {
    match claim {
        GameResult::Win(p) => vec![(p, true)],
        GameResult::Draw => vec![(Player::P1, false), (Player::P2, false)],
    }
}

/// Checks a certificate's text: reads it, then replays each strategy the claim needs against
/// every reply (version 2 and 3 positions found through the checker's own canonical code;
/// in version 3 a draw strategy's replay ends where no line can be completed any more).
///
/// # Errors
/// [`CheckError::Malformed`] for a file that does not follow the format,
/// [`CheckError::Refuted`] for a proof that does not hold (a strategy missing, a turn missing
/// or illegal, a game that ends otherwise than claimed).
pub fn check(text: &str) -> Result<Verdict, CheckError> {
    let certificate = parse::read(text)?;
    let canon = (certificate.version >= 2).then(|| Canonizer::new(&certificate.rules));
    let dead_ends = certificate.version >= 3;
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
        let root = &certificate.root;
        positions += match &canon {
            Some(canon) => {
                let turns = CanonicalTurns::read(canon, &certificate.rules, &strategy.turns)?;
                replay(&turns, root, player, wins, dead_ends)?
            }
            None => {
                let turns = PlainTurns {
                    turns: &strategy.turns,
                };
                replay(&turns, root, player, wins, dead_ends)?
            }
        };
    }
    Ok(Verdict {
        claim: certificate.claim,
        rules: certificate.rules.to_string(),
        positions,
    })
}

/// Replays `player`'s strategy from `root` (a draw strategy's replay ending at dead positions
/// when `dead_ends`); the number of positions shown good.
fn replay<L: Lookup>(
    lookup: &L,
    root: &Position,
    player: Player,
    wins: bool,
    dead_ends: bool,
) -> Result<usize, Refuted> {
    let mut replay = Replay::new(lookup, player, wins, dead_ends);
    replay.visit(root)?;
    Ok(replay.good.len())
}
