//! `connectk.quarto`: Quarto positions, the solver and the players, in the style of the
//! Connect-k classes.

use std::sync::Mutex;

use connectk::Variant;
use connectk::quarto::{self, notation, players::Kind};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::error::{py_str, value_error};
use crate::interrupt;
use crate::solver::parse_depth;

/// The rules of a Quarto game: a `size` x `size` board (2 to 4), pieces with `attributes`
/// attributes (1 to 4), the attributes that count (`criteria`: comma-separated numbers from
/// 0 or names such as "colour,height"; None: all), "normal" or "misere" rules, and whether
/// 2x2 `squares` count as lines. Standard Quarto is the default.
#[pyclass(module = "connectk._core", name = "QuartoRules", frozen, eq)]
#[derive(Clone, Copy, PartialEq)]
pub struct PyQuartoRules {
    rules: quarto::Rules,
}

#[pymethods]
impl PyQuartoRules {
    #[new]
    #[pyo3(signature = (size=4, attributes=4, criteria=None, rules="normal", squares=false))]
    fn new(
        size: u32,
        attributes: u32,
        criteria: Option<&str>,
        rules: &str,
        squares: bool,
    ) -> PyResult<PyQuartoRules> {
        let variant: Variant = rules.parse().map_err(value_error)?;
        let criteria = criteria
            .map(|text| quarto::Rules::parse_criteria(text, attributes))
            .transpose()
            .map_err(value_error)?;
        let rules = quarto::Rules::new(size, attributes, criteria, variant, squares)
            .map_err(value_error)?;
        Ok(PyQuartoRules { rules })
    }

    /// Board side.
    #[getter]
    fn size(&self) -> u32 {
        self.rules.size()
    }

    /// Attributes per piece.
    #[getter]
    fn attributes(&self) -> u32 {
        self.rules.attributes()
    }

    /// "normal" or "misere".
    #[getter]
    fn rules(&self) -> &'static str {
        self.rules.variant().name()
    }

    fn __repr__(&self) -> String {
        format!(
            "QuartoRules(size={}, attributes={}, rules={})",
            self.rules.size(),
            self.rules.attributes(),
            py_str(self.rules.variant().name())
        )
    }
}

/// A Quarto position and the turns that reached it (immutable: `play` returns a new one).
/// A turn is written as the command line writes it: `a1:DTQH` (place the piece in hand on
/// a1, hand over DTQH), `DTQH` for the opening turn, `a1` for a last turn.
#[pyclass(module = "connectk._core", name = "QuartoPosition", frozen)]
#[derive(Clone)]
pub struct PyQuartoPosition {
    position: quarto::Position,
    record: String,
}

#[pymethods]
impl PyQuartoPosition {
    /// The empty board of `rules` (standard Quarto when omitted), nothing in hand.
    #[new]
    #[pyo3(signature = (rules=None))]
    fn new(rules: Option<PyQuartoRules>) -> PyQuartoPosition {
        let rules = rules.map_or_else(quarto::Rules::standard, |r| r.rules);
        PyQuartoPosition {
            position: quarto::Position::new(rules),
            record: String::new(),
        }
    }

    /// The position after a record of turns (space-separated), from the empty board.
    ///
    /// Raises ValueError naming the first malformed or illegal turn.
    #[staticmethod]
    #[pyo3(signature = (record, rules=None))]
    fn from_record(record: &str, rules: Option<PyQuartoRules>) -> PyResult<PyQuartoPosition> {
        let rules = rules.map_or_else(quarto::Rules::standard, |r| r.rules);
        let (position, turns) = notation::parse(rules, record).map_err(value_error)?;
        Ok(PyQuartoPosition {
            position,
            record: notation::format(&rules, &turns),
        })
    }

    /// The position after `turn` (in the record's notation).
    fn play(&self, turn: &str) -> PyResult<PyQuartoPosition> {
        let record = format!("{} {turn}", self.record);
        PyQuartoPosition::from_record(record.trim(), Some(self.rules()))
    }

    /// Every legal turn, in the record's notation.
    fn legal_turns(&self) -> Vec<String> {
        let rules = self.position.rules();
        self.position
            .legal_turns()
            .into_iter()
            .map(|t| notation::format_turn(rules, t))
            .collect()
    }

    /// The rules of the game.
    #[getter]
    fn rules(&self) -> PyQuartoRules {
        PyQuartoRules {
            rules: *self.position.rules(),
        }
    }

    /// The turns played, space-separated.
    #[getter]
    fn record(&self) -> &str {
        &self.record
    }

    /// Turns played.
    #[getter]
    fn plies(&self) -> u32 {
        self.position.plies()
    }

    /// "P1" or "P2", the side to move; None once the game is over.
    #[getter]
    fn to_move(&self) -> Option<String> {
        (!self.position.is_over()).then(|| self.position.to_move().to_string())
    }

    /// The piece in hand of the side to move (its code), if any.
    #[getter]
    fn hand(&self) -> Option<String> {
        self.position.hand().map(|p| p.code(self.position.rules()))
    }

    /// Whether the game has ended.
    #[getter]
    fn is_over(&self) -> bool {
        self.position.is_over()
    }

    /// "P1", "P2" or "Draw" once the game is over; None before.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.position.outcome().map(|o| o.result.label())
    }

    /// How the game ended, in words; None before.
    #[getter]
    fn reason(&self) -> Option<String> {
        let rules = self.position.rules();
        self.position.outcome().map(|o| o.describe(rules))
    }

    fn __str__(&self) -> String {
        self.position.diagram()
    }

    fn __repr__(&self) -> String {
        format!(
            "QuartoPosition.from_record({}, rules={})",
            py_str(&self.record),
            self.rules().__repr__()
        )
    }
}

/// What a Quarto solve found: `outcome` ("P1", "P2" or "Draw") and `remoteness` under
/// perfect play, each turn's value after `analyze` (`turn_values`: (turn, outcome,
/// remoteness) triples) and the best turns among them, whether it finished (`complete`),
/// nodes and seconds.
#[pyclass(module = "connectk._core", name = "QuartoSolution", frozen, get_all)]
pub struct PyQuartoSolution {
    /// "P1", "P2" or "Draw"; None when cancelled.
    pub outcome: Option<&'static str>,
    /// Turns to the end under perfect play (None after a weak solve).
    pub remoteness: Option<u32>,
    /// The turns that keep the value (after `analyze`).
    pub best_turns: Vec<String>,
    /// Each legal turn's value (after `analyze`).
    pub turn_values: Vec<(String, &'static str, Option<u32>)>,
    /// Whether the search finished.
    pub complete: bool,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time.
    pub seconds: f64,
}

#[pymethods]
impl PyQuartoSolution {
    fn __repr__(&self) -> String {
        format!(
            "QuartoSolution(outcome={}, remoteness={}, best_turns={:?}, nodes={})",
            self.outcome.map_or_else(|| "None".to_string(), py_str),
            self.remoteness
                .map_or_else(|| "None".to_string(), |r| r.to_string()),
            self.best_turns,
            self.nodes
        )
    }
}

/// A Quarto solver keeping its table across calls of the same rules (`table_mb` MiB).
/// Solves release the GIL, and Ctrl-C interrupts them.
#[pyclass(module = "connectk._core", name = "QuartoSolver", frozen)]
pub struct PyQuartoSolver {
    table_bytes: usize,
    solver: Mutex<Option<quarto::Solver>>,
}

impl PyQuartoSolver {
    /// Runs `work` on the solver for `position`'s rules.
    fn with<T: Send>(
        &self,
        py: Python<'_>,
        position: &PyQuartoPosition,
        work: impl FnOnce(&mut quarto::Solver) -> T + Send,
    ) -> PyResult<T> {
        let mut slot = self.solver.try_lock().map_err(|_| {
            PyRuntimeError::new_err("this solver is busy in another thread: use one per thread")
        })?;
        let rules = *position.position.rules();
        let solver = slot.get_or_insert_with(|| quarto::Solver::new(rules, self.table_bytes));
        interrupt::run(py, solver, work)
    }
}

#[pymethods]
impl PyQuartoSolver {
    #[new]
    #[pyo3(signature = (table_mb=256))]
    fn new(table_mb: usize) -> PyResult<PyQuartoSolver> {
        let table: connectk::Mib = table_mb.to_string().parse().map_err(value_error)?;
        Ok(PyQuartoSolver {
            table_bytes: table.bytes(),
            solver: Mutex::new(None),
        })
    }

    /// The value of `position` (`depth` "strong" or "weak").
    #[pyo3(signature = (position, depth="strong"))]
    fn solve(
        &self,
        py: Python<'_>,
        position: &PyQuartoPosition,
        depth: &str,
    ) -> PyResult<PyQuartoSolution> {
        let depth = parse_depth(depth)?;
        let pos = &position.position;
        let found = self.with(py, position, |s| s.solve(pos, depth))?;
        Ok(match found {
            Ok(s) => PyQuartoSolution {
                outcome: Some(s.value.result.label()),
                remoteness: s.value.remoteness,
                best_turns: Vec::new(),
                turn_values: Vec::new(),
                complete: true,
                nodes: s.nodes,
                seconds: s.seconds,
            },
            Err(_) => unfinished(),
        })
    }

    /// The value of `position` and of every legal turn from it.
    #[pyo3(signature = (position, depth="strong"))]
    fn analyze(
        &self,
        py: Python<'_>,
        position: &PyQuartoPosition,
        depth: &str,
    ) -> PyResult<PyQuartoSolution> {
        let depth = parse_depth(depth)?;
        let pos = &position.position;
        let found = self.with(py, position, |s| s.analyze(pos, depth))?;
        let Ok(analysis) = found else {
            return Ok(unfinished());
        };
        let rules = pos.rules();
        let turn_values: Vec<(String, &'static str, Option<u32>)> = analysis
            .turns
            .iter()
            .map(|t| {
                let after = t.value.remoteness.map(|r| r + 1);
                (
                    notation::format_turn(rules, t.turn),
                    t.value.result.label(),
                    after,
                )
            })
            .collect();
        let best = |(_, outcome, far): &&(String, &str, Option<u32>)| {
            *outcome == analysis.value.result.label() && *far == analysis.value.remoteness
        };
        Ok(PyQuartoSolution {
            outcome: Some(analysis.value.result.label()),
            remoteness: analysis.value.remoteness,
            best_turns: turn_values
                .iter()
                .filter(best)
                .map(|t| t.0.clone())
                .collect(),
            turn_values,
            complete: true,
            nodes: analysis.nodes,
            seconds: analysis.seconds,
        })
    }
}

/// The answer of a search that gave up.
fn unfinished() -> PyQuartoSolution {
    PyQuartoSolution {
        outcome: None,
        remoteness: None,
        best_turns: Vec::new(),
        turn_values: Vec::new(),
        complete: false,
        nodes: 0,
        seconds: 0.0,
    }
}

/// A Quarto player: "random", "careful" (never loses at once when it can help it) or
/// "perfect" (the solver's best turns; small games only), its randomness from `seed`.
#[pyclass(module = "connectk._core", name = "QuartoPlayer", frozen)]
pub struct PyQuartoPlayer {
    player: Mutex<quarto::players::Bot>,
}

#[pymethods]
impl PyQuartoPlayer {
    #[new]
    #[pyo3(signature = (kind, seed=0))]
    fn new(kind: &str, seed: u64) -> PyResult<PyQuartoPlayer> {
        let kinds = [Kind::Random, Kind::Careful, Kind::Perfect];
        let kind = kinds
            .into_iter()
            .find(|k| k.name() == kind)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "unknown Quarto player {kind:?}: expected one of random, careful, perfect"
                ))
            })?;
        Ok(PyQuartoPlayer {
            player: Mutex::new(kind.bot(ChaCha8Rng::seed_from_u64(seed))),
        })
    }

    /// The turn this player plays in `position`, in the record's notation.
    ///
    /// Raises ValueError when the game is over.
    fn choose(&self, py: Python<'_>, position: &PyQuartoPosition) -> PyResult<String> {
        let mut player = self.player.try_lock().map_err(|_| {
            PyRuntimeError::new_err("this player is busy in another thread: use one per thread")
        })?;
        let pos = &position.position;
        let player = &mut *player;
        let turn = py
            .detach(|| player.choose(pos))
            .ok_or_else(|| PyValueError::new_err("the game is over: there is no turn to choose"))?;
        Ok(notation::format_turn(pos.rules(), turn))
    }
}
