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

use std::io::BufRead;

use crate::{GameResult, Player};

use by_code::CanonicalTurns;
use canonical::Canonizer;
use parse::{Header, Reader};
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

/// Checks a certificate's text (see [`check_reader`]).
///
/// # Errors
/// As [`check_reader`].
pub fn check(text: &str) -> Result<Verdict, CheckError> {
    check_reader(text.as_bytes(), &|_| ())
}

/// Progress is reported once per this many entries read or positions shown good.
const REPORT_EVERY: usize = 1 << 16;

/// Where a check stands, reported as it goes (see [`check_reader`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckProgress {
    /// Strategy `strategy` (from 1, in file order) has `entries` entries read so far.
    Reading {
        /// The strategy's number.
        strategy: usize,
        /// Its entries read so far.
        entries: usize,
    },
    /// The replay of strategy `strategy` has shown `positions` positions good so far.
    Replaying {
        /// The strategy's number.
        strategy: usize,
        /// Positions shown good so far.
        positions: usize,
    },
}

/// Checks a certificate read from `input`, line by line: each strategy is read (version 2 and
/// 3 positions found through the checker's own canonical code) and, when the claim needs it,
/// replayed against every reply before the next is read (in version 3 a draw strategy's replay
/// ends where no line can be completed any more). Only one strategy's entries are held at a
/// time, in a compact form. `progress` hears every 65,536 entries read and positions shown
/// good.
///
/// # Errors
/// [`CheckError::Malformed`] for a file that does not follow the format (or cannot be read),
/// [`CheckError::Refuted`] for a proof that does not hold (a strategy missing, a turn missing
/// or illegal, a game that ends otherwise than claimed).
pub fn check_reader(
    input: impl BufRead,
    progress: &dyn Fn(CheckProgress),
) -> Result<Verdict, CheckError> {
    let mut reader = Reader::new(input);
    let header = reader.header()?;
    let canon = (header.version >= 2).then(|| Canonizer::new(&header.rules));
    let mut wanted = needed(header.claim);
    let mut positions = 0;
    for strategy in 1.. {
        let context = (strategy, &header, progress);
        let replayed = match &canon {
            Some(canon) => {
                let turns = CanonicalTurns::new(canon, &header.rules);
                next_strategy(&mut reader, turns, context, &mut wanted)?
            }
            None => next_strategy(&mut reader, PlainTurns::default(), context, &mut wanted)?,
        };
        match replayed {
            Some(count) => positions += count,
            None => break,
        }
    }
    if let Some(&(player, wins)) = wanted.first() {
        return Err(Refuted {
            line: 0,
            record: String::new(),
            reason: format!(
                "the claim needs a strategy with which {player} {}",
                if wins { "wins" } else { "at least draws" }
            ),
        }
        .into());
    }
    Ok(Verdict {
        claim: header.claim,
        rules: header.rules.to_string(),
        positions,
    })
}

/// A strategy's entries as they are read (one implementation per format).
trait Entries: Lookup {
    /// Adds the entry of line `line`: `turn` in `position` (cells and hand).
    ///
    /// # Errors
    /// The reason when the entry cannot be used (unreadable, out of canonical form, or a
    /// second one for its position).
    fn insert(&mut self, position: &str, turn: &str, line: usize) -> Result<(), String>;
}

/// Reads the next strategy (number `strategy` of the file whose header is `header`) into
/// `turns` and replays it when it is one `wanted` still needs (which it then no longer does),
/// telling `progress` as it goes: the positions shown good (0 for a strategy not needed), or
/// `None` at the end of the file.
fn next_strategy<R: BufRead, E: Entries>(
    reader: &mut Reader<R>,
    mut turns: E,
    (strategy, header, progress): (usize, &Header, &dyn Fn(CheckProgress)),
    wanted: &mut Vec<(Player, bool)>,
) -> Result<Option<usize>, CheckError> {
    let mut entries = 0usize;
    let read = reader.strategy(|p, t, line| {
        entries += 1;
        if entries.is_multiple_of(REPORT_EVERY) {
            progress(CheckProgress::Reading { strategy, entries });
        }
        turns.insert(p, t, line)
    })?;
    let Some((player, wins)) = read else {
        return Ok(None);
    };
    let Some(at) = wanted.iter().position(|&w| w == (player, wins)) else {
        return Ok(Some(0));
    };
    wanted.remove(at);
    let mut replay = Replay::new(&turns, player, wins, header.version >= 3);
    let shown = |positions| {
        progress(CheckProgress::Replaying {
            strategy,
            positions,
        })
    };
    replay.on_good = Some((REPORT_EVERY, &shown));
    replay.visit(&header.root)?;
    Ok(Some(replay.good.len()))
}
