//! Proof certificates: the strategies that prove a solved outcome, written as text that a
//! separate checker ([`crate::quarto::check`]) replays against every reply.
//!
//! The format, one item per line:
//!
//! ```text
//! quarto-certificate 1|2|3
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
//!
//! Version 3 is version 2 with one more rule the checker knows: a position where no line can
//! be completed any more (each holds pieces with no counted value in common, or more empty
//! cells than pieces left with a value it shares) is a draw, so a draw strategy needs no
//! entries from there on; and the writer picks, among the turns that hold a draw, one that
//! leaves the fewest lines that can still be completed.
//!
//! Entries are written to the file as they are found ([`write()`]), each strategy first to a
//! file of its own beside the certificate, since its count comes before its entries: only
//! the keys of the positions met stay in memory.

mod file;

use std::collections::HashSet;
use std::fmt::Write as _;

use crate::{Depth, GameResult, Player, Variant};

use super::check::canonical::Canonizer;
use super::check::{exact_key, layout_text, position_text};
use super::notation;
use super::piece::{Cell, Piece};
use super::position::{Position, Turn};
use super::rules::Rules;
use super::solver::knowledge::Knowledge;
use super::solver::{Solver, Unfinished};

pub use file::{CertifyError, Progress, Written, write};

/// How a certificate keys its entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// Version 1: one entry per position as it stands on the board.
    Plain,
    /// Version 2: one entry per canonical position, with the turn in the canonical frame.
    Canonical,
    /// Version 3: as version 2, with draw strategies ending where no line can be completed.
    #[default]
    Pruned,
}

impl Format {
    /// The version number the file's first line carries.
    pub fn version(self) -> u32 {
        match self {
            Format::Plain => 1,
            Format::Canonical => 2,
            Format::Pruned => 3,
        }
    }

    /// The format of version `version` (1 to 3).
    pub fn of_version(version: u32) -> Option<Format> {
        [Format::Plain, Format::Canonical, Format::Pruned]
            .into_iter()
            .find(|f| f.version() == version)
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
            Format::Canonical | Format::Pruned => Keys::Canonical(Box::new(Canonizer::new(rules))),
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

/// Where a strategy's entries go as they are found.
trait Entries {
    /// Why an entry could not be kept.
    type Error;

    /// Adds one entry: the position and the turn as written.
    fn push(&mut self, position: String, turn: String) -> Result<(), Self::Error>;
}

impl Entries for Vec<(String, String)> {
    type Error = std::convert::Infallible;

    fn push(&mut self, position: String, turn: String) -> Result<(), Self::Error> {
        Vec::push(self, (position, turn));
        Ok(())
    }
}

/// Why growing a strategy stopped.
enum Stop<E> {
    /// A search stopped.
    Unfinished(Unfinished),
    /// An entry could not be kept.
    Entries(E),
}

impl<E> From<Unfinished> for Stop<E> {
    fn from(e: Unfinished) -> Stop<E> {
        Stop::Unfinished(e)
    }
}

/// Finds the turns of one player's strategy with the solver.
struct Writer<'a, S: Entries> {
    solver: &'a mut Solver,
    player: Player,
    goal: Goal,
    keys: &'a Keys,
    /// Where positions are read as dead, for a draw strategy of version 3.
    dead_ends: Option<&'a Knowledge>,
    seen: HashSet<u128>,
    entries: &'a mut S,
}

impl<S: Entries> Writer<'_, S> {
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

    /// The lines of `pos` that can still be completed, when the strategy ends at dead
    /// positions (else 0, for every position).
    fn live_lines(&self, pos: &Position) -> u32 {
        self.dead_ends.map_or(0, |knowledge| {
            let left = pos.rules().all_pieces() & !pos.board().used();
            knowledge.live_lines(pos.board(), left)
        })
    }

    /// The player's turns in `pos` in the order they are tried: for a strategy that ends at
    /// dead positions, those leaving the fewest live lines first (a dead position ends the
    /// strategy's tree there); else in move order.
    fn turns_to_try(&self, pos: &Position) -> Vec<Turn> {
        let mut turns = pos.legal_turns();
        if self.dead_ends.is_some() {
            turns.sort_by_cached_key(|&turn| {
                let child = pos.play(turn).expect("a legal turn");
                if child.is_over() {
                    0
                } else {
                    self.live_lines(&child)
                }
            });
        }
        turns
    }

    /// Adds the strategy's entries for every position reached from `pos` (the player's turn
    /// where it moves, every reply where the opponent does).
    fn grow(&mut self, pos: &Position) -> Result<(), Stop<S::Error>> {
        if pos.is_over() || !self.seen.insert(self.keys.key(pos)) {
            return Ok(());
        }
        if self.dead_ends.is_some() && self.live_lines(pos) == 0 {
            // Every game from here is a draw, which the checker sees without entries.
            return Ok(());
        }
        if pos.to_move() != self.player {
            for turn in pos.legal_turns() {
                self.grow(&pos.play(turn).expect("a legal turn"))?;
            }
            return Ok(());
        }
        let mut chosen = None;
        for turn in self.turns_to_try(pos) {
            if self.keeps_goal(pos, turn)? {
                chosen = Some(turn);
                break;
            }
        }
        // The outcome was solved first, so a turn that keeps it exists.
        let turn = chosen.expect("a solved position has a turn that keeps its outcome");
        let (position, written) = self.keys.entry(pos, turn);
        self.entries
            .push(position, written)
            .map_err(Stop::Entries)?;
        self.grow(&pos.play(turn).expect("a legal turn"))
    }
}

/// The strategies a claim needs: the winner's to win, or each side's to draw at least.
fn goals(claim: GameResult) -> Vec<(Player, Goal)> {
    match claim {
        GameResult::Win(p) => vec![(p, Goal::Win)],
        GameResult::Draw => vec![(Player::P1, Goal::Draw), (Player::P2, Goal::Draw)],
    }
}

/// What every strategy of `pos`'s certificate shares: the keys, the knowledge of dead
/// positions (version 3), and the claim, solved first.
struct Plan {
    keys: Keys,
    knowledge: Option<Knowledge>,
    claim: GameResult,
}

impl Plan {
    /// Solves `pos` and prepares its strategies in `format`.
    fn new(solver: &mut Solver, pos: &Position, format: Format) -> Result<Plan, Unfinished> {
        let claim = solver.solve(pos, Depth::Weak)?.value.result;
        Ok(Plan {
            keys: Keys::new(format, pos.rules()),
            knowledge: (format == Format::Pruned).then(|| Knowledge::new(pos.rules())),
            claim,
        })
    }

    /// Grows `player`'s strategy for `goal` from `pos` into `entries`.
    fn grow<S: Entries>(
        &self,
        solver: &mut Solver,
        pos: &Position,
        (player, goal): (Player, Goal),
        entries: &mut S,
    ) -> Result<(), Stop<S::Error>> {
        let mut writer = Writer {
            solver,
            player,
            goal,
            keys: &self.keys,
            dead_ends: self.knowledge.as_ref().filter(|_| goal == Goal::Draw),
            seen: HashSet::new(),
            entries,
        };
        writer.grow(pos)
    }
}

/// The game record as the `root` line writes it: `-` for the empty board.
fn root_record(record: &str) -> String {
    match record.trim() {
        "" => "-".to_string(),
        record => record.to_string(),
    }
}

/// The certificate of `pos`'s outcome in `format`, `pos` being reached by the game record
/// `record`: solved first, then each strategy grown from `pos`, in memory (see [`write()`] for
/// certificates too large for that).
///
/// # Errors
/// [`Unfinished`] when the solver's node limit or stop ended a search.
pub fn certify(
    solver: &mut Solver,
    pos: &Position,
    record: &str,
    format: Format,
) -> Result<Certificate, Unfinished> {
    let plan = Plan::new(solver, pos, format)?;
    let mut strategies = Vec::new();
    for (player, goal) in goals(plan.claim) {
        let mut entries = Vec::new();
        match plan.grow(solver, pos, (player, goal), &mut entries) {
            Ok(()) => {}
            Err(Stop::Unfinished(e)) => return Err(e),
            Err(Stop::Entries(never)) => match never {},
        }
        strategies.push(Strategy {
            player,
            goal,
            entries,
        });
    }
    Ok(Certificate {
        format,
        rules: *pos.rules(),
        record: root_record(record),
        claim: plan.claim,
        strategies,
    })
}

/// The line that opens a strategy's entries.
fn strategy_line(player: Player, goal: Goal, count: usize) -> String {
    let goal = match goal {
        Goal::Win => "win",
        Goal::Draw => "draw",
    };
    format!("strategy {player} {goal} {count}")
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
            let _ = writeln!(text, "{}", strategy_line(s.player, s.goal, s.entries.len()));
            for (position, turn) in &s.entries {
                let _ = writeln!(text, "{position} {turn}");
            }
        }
        text
    }
}
