//! Proof certificates: the strategies that prove a solved outcome, written as text that a
//! separate checker ([`crate::quarto::check`]) replays against every reply.
//!
//! The format, one item per line:
//!
//! ```text
//! quarto-certificate 1|2
//! rules SIZE ATTRIBUTES CRITERIA normal|misere squares|no-squares
//! root RECORD                    (the game record of the position proved, `-` for the empty board)
//! claim P1|P2|draw               (the outcome with perfect play)
//! strategy P1|P2 win|draw N      (the player's strategy wins, or at least draws; N entries follow)
//! CELLS HAND TURN                (one entry: in this position the player plays TURN)
//! ```
//!
//! A win is proved by one strategy of the winner; a draw by two, each side's, that at least
//! draw. `CRITERIA` is the counted attributes by number, comma-separated. An entry's position
//! is `CELLS`, one character per cell in index order (a1, b1, ... row by row from the bottom):
//! `.` for an empty cell or the piece's number as a hexadecimal digit, and `HAND`, the piece
//! code of the piece to place (`-` before the opening handover); `TURN` is written as in game
//! records (`b2:LTQ`). Transpositions share one entry: a position has one entry however it is
//! reached.
//!
//! Version 1 keys entries by the position as it stands. Version 2 keys them by the checker's
//! canonical code ([`crate::quarto::check::canonical`]): an entry is written as the code's
//! representative (the position in the canonical frame, each piece's uncounted attributes 0)
//! with the turn in that frame, so one entry serves every symmetric position and every
//! position that differs only in uncounted attributes.

use std::collections::HashSet;
use std::fmt::Write as _;

use crate::{Depth, GameResult, Player, Variant};

use super::check::canonical::Canonizer;
use super::check::{exact_key, layout_text, position_text};
use super::notation;
use super::piece::{Cell, Piece};
use super::position::{Position, Turn};
use super::rules::Rules;
use super::solver::{Solver, Unfinished};

/// How a certificate keys its entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// Version 1: one entry per position as it stands on the board.
    Plain,
    /// Version 2: one entry per canonical position, with the turn in the canonical frame.
    #[default]
    Canonical,
}

impl Format {
    /// The version number the file's first line carries.
    pub fn version(self) -> u32 {
        match self {
            Format::Plain => 1,
            Format::Canonical => 2,
        }
    }
}

/// What a strategy guarantees its player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// A win against every reply.
    Win,
    /// At least a draw against every reply.
    Draw,
}

/// One player's strategy: the turn it plays in each position it meets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strategy {
    /// The player whose turns these are.
    pub player: Player,
    /// What the strategy guarantees.
    pub goal: Goal,
    /// Each position met (as written in the file: cells and hand) and the turn played there.
    pub entries: Vec<(String, String)>,
}

/// A proof of a position's outcome: the outcome and the strategies that force it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// How the entries are keyed.
    pub format: Format,
    /// The rules.
    pub rules: Rules,
    /// The game record of the position proved.
    pub record: String,
    /// The outcome with perfect play.
    pub claim: GameResult,
    /// One strategy for a win, one per player for a draw.
    pub strategies: Vec<Strategy>,
}

/// How entries are keyed and written, by format.
enum Keys {
    /// Positions as they stand.
    Plain,
    /// Canonical positions, by the checker's own code.
    Canonical(Box<Canonizer>),
}

impl Keys {
    /// The keys of `format` under `rules`.
    fn new(format: Format, rules: &Rules) -> Keys {
        match format {
            Format::Plain => Keys::Plain,
            Format::Canonical => Keys::Canonical(Box::new(Canonizer::new(rules))),
        }
    }

    /// The key shared by the positions that share an entry.
    fn key(&self, pos: &Position) -> u128 {
        match self {
            Keys::Plain => exact_key(pos),
            Keys::Canonical(canon) => canon.canonical(pos).0.value(),
        }
    }

    /// The entry for `turn` played in `pos`: the position and the turn as written.
    fn entry(&self, pos: &Position, turn: Turn) -> (String, String) {
        let rules = pos.rules();
        let Keys::Canonical(canon) = self else {
            return (position_text(pos), notation::format_turn(rules, turn));
        };
        let (code, frame) = canon.canonical(pos);
        let position = layout_text(canon, rules, &canon.representative(code));
        let turn = Turn {
            place: turn
                .place
                .map(|c| Cell::from_index(frame.cell_to_canonical(c.index()))),
            give: turn.give.map(|p| {
                let values = frame.values_to_canonical(canon.values(p.bits()));
                Piece::from_bits(canon.piece_bits(values))
            }),
        };
        (position, notation::format_turn(rules, turn))
    }
}

/// Finds the turns of one player's strategy with the solver.
struct Writer<'a> {
    solver: &'a mut Solver,
    player: Player,
    goal: Goal,
    keys: &'a Keys,
    seen: HashSet<u128>,
    entries: Vec<(String, String)>,
}

impl Writer<'_> {
    /// Whether the game after `turn` from `pos` still gives the player its goal.
    fn keeps_goal(&mut self, pos: &Position, turn: Turn) -> Result<bool, Unfinished> {
        let child = pos.play(turn).expect("a legal turn");
        if let Some(outcome) = child.outcome() {
            return Ok(match (self.goal, outcome.result) {
                (Goal::Win, result) => result == GameResult::Win(self.player),
                (Goal::Draw, result) => result != GameResult::Win(self.player.other()),
            });
        }
        // The opponent moves next: it must not reach a draw (for a win) or a win.
        let sign = match self.goal {
            Goal::Win => 0,
            Goal::Draw => 1,
        };
        Ok(!self.solver.reaches(&child, sign)?.0)
    }

    /// Adds the strategy's entries for every position reached from `pos` (the player's turn
    /// where it moves, every reply where the opponent does).
    fn grow(&mut self, pos: &Position) -> Result<(), Unfinished> {
        if pos.is_over() || !self.seen.insert(self.keys.key(pos)) {
            return Ok(());
        }
        if pos.to_move() != self.player {
            for turn in pos.legal_turns() {
                self.grow(&pos.play(turn).expect("a legal turn"))?;
            }
            return Ok(());
        }
        let mut chosen = None;
        for turn in pos.legal_turns() {
            if self.keeps_goal(pos, turn)? {
                chosen = Some(turn);
                break;
            }
        }
        // The outcome was solved first, so a turn that keeps it exists.
        let turn = chosen.expect("a solved position has a turn that keeps its outcome");
        self.entries.push(self.keys.entry(pos, turn));
        self.grow(&pos.play(turn).expect("a legal turn"))
    }
}

/// The certificate of `pos`'s outcome in `format`, `pos` being reached by the game record
/// `record`: solved first, then each strategy grown from `pos`.
///
/// # Errors
/// [`Unfinished`] when the solver's node limit or stop ended a search.
pub fn certify(
    solver: &mut Solver,
    pos: &Position,
    record: &str,
    format: Format,
) -> Result<Certificate, Unfinished> {
    let claim = solver.solve(pos, Depth::Weak)?.value.result;
    let goals = match claim {
        GameResult::Win(p) => vec![(p, Goal::Win)],
        GameResult::Draw => vec![(Player::P1, Goal::Draw), (Player::P2, Goal::Draw)],
    };
    let keys = Keys::new(format, pos.rules());
    let mut strategies = Vec::new();
    for (player, goal) in goals {
        let mut writer = Writer {
            solver: &mut *solver,
            player,
            goal,
            keys: &keys,
            seen: HashSet::new(),
            entries: Vec::new(),
        };
        writer.grow(pos)?;
        strategies.push(Strategy {
            player,
            goal,
            entries: writer.entries,
        });
    }
    Ok(Certificate {
        format,
        rules: *pos.rules(),
        record: match record.trim() {
            "" => "-".to_string(),
            record => record.to_string(),
        },
        claim,
        strategies,
    })
}

impl Certificate {
    /// The certificate in its text format (see the module documentation).
    pub fn to_text(&self) -> String {
        let rules = &self.rules;
        let criteria: Vec<String> = (0..rules.attributes())
            .filter(|i| rules.criteria() >> i & 1 == 1)
            .map(|i| i.to_string())
            .collect();
        let mut text = format!("quarto-certificate {}\n", self.format.version());
        let variant = match rules.variant() {
            Variant::Normal => "normal",
            Variant::Misere => "misere",
        };
        let squares = if rules.squares() {
            "squares"
        } else {
            "no-squares"
        };
        let _ = writeln!(
            text,
            "rules {} {} {} {variant} {squares}",
            rules.size(),
            rules.attributes(),
            criteria.join(",")
        );
        let _ = writeln!(text, "root {}", self.record);
        let claim = match self.claim {
            GameResult::Win(p) => p.to_string(),
            GameResult::Draw => "draw".to_string(),
        };
        let _ = writeln!(text, "claim {claim}");
        for s in &self.strategies {
            let goal = match s.goal {
                Goal::Win => "win",
                Goal::Draw => "draw",
            };
            let _ = writeln!(text, "strategy {} {goal} {}", s.player, s.entries.len());
            for (position, turn) in &s.entries {
                let _ = writeln!(text, "{position} {turn}");
            }
        }
        text
    }
}
