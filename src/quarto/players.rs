//! Quarto players for the arena and the terminal game: random, careful and perfect.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::{Depth, GameResult, UnknownRemoteness, Variant};

use super::position::{Position, Turn};
use super::solver::{Solver, TurnValue};

/// The players by name, for the command line and reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Kind {
    /// Uniformly random legal turns.
    Random,
    /// Never loses at once when it can help it: under normal rules it completes a line when
    /// it can and never hands over a piece that completes one while another is left; under
    /// misère rules it never places a piece into a line while another cell is left, and
    /// hands over a piece that must complete one when there is such a piece. Otherwise
    /// random.
    Careful,
    /// The solver's best turns (a random one among equals); only for small games, since it
    /// solves every turn.
    Perfect,
}

impl Kind {
    /// The name, as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Random => "random",
            Kind::Careful => "careful",
            Kind::Perfect => "perfect",
        }
    }

    /// A bot of this kind drawing its random choices from `rng`.
    pub fn bot(self, rng: ChaCha8Rng) -> Bot {
        Bot {
            kind: self,
            rng,
            solver: None,
        }
    }
}

/// A player of one of the kinds, named apart from [`crate::Player`] (who moves): picks a turn in
/// a position that goes on.
pub struct Bot {
    kind: Kind,
    rng: ChaCha8Rng,
    solver: Option<Solver>,
}

impl Bot {
    /// The kind of player.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The turn to play in `pos`, or `None` when the game is over.
    pub fn choose(&mut self, pos: &Position) -> Option<Turn> {
        let turns = pos.legal_turns();
        let pool = match self.kind {
            Kind::Random => turns,
            Kind::Careful => careful(pos, turns),
            Kind::Perfect => self.best(pos),
        };
        (!pool.is_empty()).then(|| pool[self.rng.random_range(0..pool.len())])
    }

    /// The turns of `pos` of best value.
    fn best(&mut self, pos: &Position) -> Vec<Turn> {
        let solver = self
            .solver
            .get_or_insert_with(|| Solver::new(*pos.rules(), 64 << 20));
        let analysis = solver
            .analyze(pos, Depth::Strong)
            .expect("a solver without a node limit finishes");
        best_turns(pos.to_move(), &analysis.turns)
    }
}

/// The turns of `values` whose value is the best for `me`, the side to move (see
/// [`crate::Value::rank_for`]; an unknown remoteness ranks as the quickest).
pub fn best_turns(me: crate::Player, values: &[TurnValue]) -> Vec<Turn> {
    let rank = |t: &TurnValue| t.value.rank_for(me, UnknownRemoteness::Quickest);
    let top = values.iter().map(rank).max();
    values
        .iter()
        .filter(|t| Some(rank(t)) == top)
        .map(|t| t.turn)
        .collect()
}

/// The turns a careful player picks from: those that do not lose at once when some do not,
/// and those that win at once when some do.
pub(crate) fn careful(pos: &Position, turns: Vec<Turn>) -> Vec<Turn> {
    let me = pos.to_move();
    let rules = *pos.rules();
    let after: Vec<(Turn, Position)> = turns
        .into_iter()
        .map(|t| (t, pos.play(t).expect("legal")))
        .collect();
    let wins: Vec<Turn> = after
        .iter()
        .filter(|(_, next)| {
            next.outcome()
                .is_some_and(|o| o.result == GameResult::Win(me))
                || (rules.variant() == Variant::Misere && forced_into_line(next))
        })
        .map(|(t, _)| *t)
        .collect();
    if !wins.is_empty() {
        return wins;
    }
    let safe: Vec<Turn> = after
        .iter()
        .filter(|(_, next)| match rules.variant() {
            // Normal: the piece handed over completes no line anywhere.
            Variant::Normal => next.outcome().is_some() || !completes_somewhere(next),
            // Misère: the placement completed no line.
            Variant::Misere => next
                .outcome()
                .is_none_or(|o| o.result != GameResult::Win(me.other())),
        })
        .map(|(t, _)| *t)
        .collect();
    if safe.is_empty() {
        after.into_iter().map(|(t, _)| t).collect()
    } else {
        safe
    }
}

/// Whether the side to move in `next` holds a piece that completes a line on some cell.
fn completes_somewhere(next: &Position) -> bool {
    next.hand()
        .is_some_and(|piece| next.board().threats(next.rules()).cells_for(piece) != 0)
}

/// Whether the side to move in `next` holds a piece that completes a line on every empty
/// cell (under misère rules, a loss it cannot avoid).
fn forced_into_line(next: &Position) -> bool {
    next.hand().is_some_and(|piece| {
        next.board().threats(next.rules()).cells_for(piece) == next.empty_cells()
    })
}
