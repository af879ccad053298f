//! `connectk.Player`: the bots, `perfect` and the paper's strategies, each choosing a column
//! for the side to move.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use connectk::arena::{PerfectSettings, PlayerName};
use connectk::strategy::{Game, Strategy};
use connectk::{Book, Mib, Player, Rules};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::error::value_error;
use crate::position::PyPosition;

/// The player named `name`, or a ValueError listing the names.
pub fn parse_name(name: &str) -> PyResult<PlayerName> {
    name.parse().map_err(value_error)
}

/// The perfect player's settings: `table_mb` of table, `book`, `move_ms` per move.
pub fn perfect_settings(
    table_mb: usize,
    book: Option<std::path::PathBuf>,
    move_ms: Option<f64>,
) -> PyResult<PerfectSettings> {
    let table: Mib = table_mb.to_string().parse().map_err(value_error)?;
    let book = match book {
        Some(path) => Some(Arc::new(Book::read(&path).map_err(value_error)?)),
        None => None,
    };
    let move_time = match move_ms {
        None => None,
        Some(ms) if ms.is_finite() && ms > 0.0 => Some(Duration::from_secs_f64(ms / 1e3)),
        Some(ms) => {
            return Err(PyValueError::new_err(format!(
                "move_ms = {ms} is not a time: expected a number of milliseconds > 0"
            )));
        }
    };
    Ok(PerfectSettings::new(table, book, move_time))
}

/// `"P1"` or `"P2"` as a player, or a ValueError.
pub fn parse_side(side: &str) -> PyResult<Player> {
    match side {
        "P1" | "p1" => Ok(Player::P1),
        "P2" | "p2" => Ok(Player::P2),
        _ => Err(PyValueError::new_err(format!(
            "unknown player {side:?}: expected \"P1\" or \"P2\""
        ))),
    }
}

/// The strategy a [`PyPlayer`] set up for one side of one set of rules.
struct Seat {
    rules: Rules,
    side: Player,
    strategy: Box<dyn Strategy>,
}

/// A named player: "random", the game service's bots ("easy", "medium", "hard"), "perfect"
/// (the solver's best move), or one of the paper's strategies ("take-even",
/// "delayed-take-even", "pairing", "tally", "canonical"; each where the paper proves it).
///
/// `choose(position)` returns a 0-based column for the side to move. The player sets itself
/// up for the rules and side of the first position it sees (its randomness seeded by
/// `seed`), and again whenever they change. `perfect` uses a table of `table_mb` MiB, an
/// opening `book` file when given, and proves each move's value however long that takes, then
/// spends what is left of `move_ms` (None: any time) on the fastest win or slowest loss.
#[pyclass(module = "connectk._core", name = "Player", frozen)]
pub struct PyPlayer {
    /// Which player.
    pub name: PlayerName,
    /// The seed of its randomness.
    pub seed: u64,
    /// How a perfect player plays.
    pub perfect: PerfectSettings,
    seat: Mutex<Option<Seat>>,
}

impl PyPlayer {
    /// A player named `name` (the Python constructor without the Python wrapping).
    pub fn build(name: PlayerName, seed: u64, perfect: PerfectSettings) -> PyPlayer {
        PyPlayer {
            name,
            seed,
            perfect,
            seat: Mutex::new(None),
        }
    }
}

#[pymethods]
impl PyPlayer {
    #[new]
    #[pyo3(signature = (name, seed=0, table_mb=64, book=None, move_ms=None))]
    fn new(
        name: &str,
        seed: u64,
        table_mb: usize,
        book: Option<std::path::PathBuf>,
        move_ms: Option<f64>,
    ) -> PyResult<PyPlayer> {
        let settings = perfect_settings(table_mb, book, move_ms)?;
        Ok(PyPlayer::build(parse_name(name)?, seed, settings))
    }

    /// The 0-based column this player plays in `position` (for its side to move).
    ///
    /// Raises ValueError when the game is over, the strategy does not apply to these rules
    /// and side, or the position is outside its proof.
    fn choose(&self, py: Python<'_>, position: &PyPosition) -> PyResult<u32> {
        let pos = &position.position;
        if let Some(outcome) = pos.outcome() {
            return Err(PyValueError::new_err(format!(
                "the game is already over ({outcome}): there is no move to choose"
            )));
        }
        let mut seat = self.seat.try_lock().map_err(|_| {
            PyRuntimeError::new_err("this player is busy in another thread: use one per thread")
        })?;
        let (rules, side) = (pos.rules(), pos.to_move());
        if !seat
            .as_ref()
            .is_some_and(|s| s.rules == rules && s.side == side)
        {
            let strategy = self
                .name
                .build(rules, side, self.seed, &self.perfect)
                .map_err(value_error)?;
            *seat = Some(Seat {
                rules,
                side,
                strategy,
            });
        }
        let strategy = &mut seat.as_mut().expect("just set").strategy;
        let game = Game {
            position: pos,
            moves: &position.moves,
        };
        let column = py.detach(|| strategy.choose(game)).map_err(value_error)?;
        Ok(column.index())
    }

    /// The player's name.
    #[getter]
    fn name(&self) -> &'static str {
        self.name.as_str()
    }

    fn __call__(&self, py: Python<'_>, position: &PyPosition) -> PyResult<u32> {
        self.choose(py, position)
    }

    fn __repr__(&self) -> String {
        format!("Player('{}', seed={})", self.name.as_str(), self.seed)
    }
}

/// Every player name, bots first, then the paper's strategies.
#[pyfunction]
pub fn player_names() -> Vec<&'static str> {
    PlayerName::all().iter().map(|p| p.as_str()).collect()
}
