//! `connectk.arena`'s engine: matches between named players (the library's arena, in
//! parallel) or with Python callables (game by game on the calling thread).

use std::time::Instant;

use connectk::arena::{GameRecord, Matchup, PerfectSettings, PlayerName, game_seed, play_match};
use connectk::strategy::{Game, MoveProof, Strategy};
use connectk::{Column, Player, Position, Rules, notation};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::error::value_error;
use crate::players::{PyPlayer, parse_name, perfect_settings};
use crate::position::{PyPosition, checked_column};
use crate::records::to_python;
use crate::rules::PyRules;

/// One side of a match: a named player of the library, or a Python callable.
enum Contestant<'py> {
    Named(PlayerName),
    Callable(Bound<'py, PyAny>),
}

impl<'py> Contestant<'py> {
    /// A name, a `connectk.Player` (its name), or any callable taking a position.
    fn of(player: &Bound<'py, PyAny>) -> PyResult<Contestant<'py>> {
        if let Ok(name) = player.extract::<String>() {
            return Ok(Contestant::Named(parse_name(&name)?));
        }
        if let Ok(named) = player.cast::<PyPlayer>() {
            return Ok(Contestant::Named(named.get().name));
        }
        if player.is_callable() {
            return Ok(Contestant::Callable(player.clone()));
        }
        Err(PyValueError::new_err(
            "a player must be a player name, a connectk.Player or a callable taking a position",
        ))
    }

    /// The name in the records: the player's name, or the callable's `__name__`.
    fn label(&self) -> String {
        match self {
            Contestant::Named(name) => name.as_str().to_string(),
            Contestant::Callable(f) => f
                .getattr("__name__")
                .and_then(|n| n.extract::<String>())
                .unwrap_or_else(|_| "callable".to_string()),
        }
    }
}

/// A seated contestant of one game.
enum Seat<'py> {
    Strategy(Box<dyn Strategy>),
    Callable(Bound<'py, PyAny>),
}

/// Plays `games` games between `p1` and `p2` under `rules`, game `i` seeded by
/// `game_seed(seed, i)`, and returns one record (a dict) per game, in order.
#[pyfunction]
#[pyo3(signature = (p1, p2, games=1, seed=1, rules=None, table_mb=64, book=None, move_ms=None))]
#[allow(clippy::too_many_arguments)]
pub fn play_games<'py>(
    py: Python<'py>,
    p1: &Bound<'py, PyAny>,
    p2: &Bound<'py, PyAny>,
    games: u64,
    seed: u64,
    rules: Option<PyRules>,
    table_mb: usize,
    book: Option<std::path::PathBuf>,
    move_ms: Option<f64>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let rules = rules.map_or_else(Rules::standard, |r| r.rules);
    let perfect = perfect_settings(table_mb, book, move_ms)?;
    let (first, second) = (Contestant::of(p1)?, Contestant::of(p2)?);
    let labels = [first.label(), second.label()];
    let records = match (&first, &second) {
        (Contestant::Named(a), Contestant::Named(b)) => {
            let matchup = Matchup {
                rules,
                p1: *a,
                p2: *b,
                perfect: &perfect,
            };
            py.detach(|| play_match(matchup, games, seed, || {}))
                .map_err(value_error)?
        }
        _ => (0..games)
            .map(|i| play_one(py, rules, [&first, &second], game_seed(seed, i), &perfect))
            .collect::<PyResult<_>>()?,
    };
    records
        .iter()
        .map(|r| record_dict(py, rules, r, &labels))
        .collect()
}

/// One game seeded by `seed` with at least one callable, played as the library's arena plays
/// it (P1's randomness from `seed`, P2's from `seed + 1`).
fn play_one<'py>(
    py: Python<'py>,
    rules: Rules,
    contestants: [&Contestant<'py>; 2],
    seed: u64,
    perfect: &PerfectSettings,
) -> PyResult<GameRecord> {
    let mut seats = Vec::with_capacity(2);
    for (contestant, (side, seed)) in contestants
        .into_iter()
        .zip([(Player::P1, seed), (Player::P2, seed.wrapping_add(1))])
    {
        seats.push(match contestant {
            Contestant::Named(name) => Seat::Strategy(
                name.build(rules, side, seed, perfect)
                    .map_err(value_error)?,
            ),
            Contestant::Callable(f) => Seat::Callable(f.clone()),
        });
    }
    let mut game = PyPosition {
        position: Position::new(rules),
        moves: Vec::new(),
    };
    let (mut proofs, mut move_ms) = (Vec::new(), Vec::new());
    while !game.position.is_over() {
        let seat = &mut seats[usize::from(game.position.to_move() == Player::P2)];
        let start = Instant::now();
        let column = choose(py, seat, &game).map_err(|e| no_move(py, seed, rules, &game, e))?;
        if let Seat::Strategy(strategy) = seat
            && let Some(proof) = strategy.last_proof()
        {
            proofs.push(proof);
            move_ms.push(start.elapsed().as_secs_f64() * 1e3);
        }
        game = game
            .after(i64::from(column.index()))
            .map_err(|e| no_move(py, seed, rules, &game, e))?;
    }
    Ok(record_of(rules, seed, &game, &proofs, move_ms))
}

/// The seat's move in `game`.
fn choose(py: Python<'_>, seat: &mut Seat<'_>, game: &PyPosition) -> PyResult<Column> {
    match seat {
        Seat::Strategy(strategy) => {
            let view = Game {
                position: &game.position,
                moves: &game.moves,
            };
            py.detach(|| strategy.choose(view)).map_err(value_error)
        }
        Seat::Callable(f) => {
            let column: i64 = f.call1((game.clone(),))?.extract()?;
            checked_column(game.position.rules(), column)
        }
    }
}

/// The error of a player without a legal move, said as the library's arena says it.
fn no_move(py: Python<'_>, seed: u64, rules: Rules, game: &PyPosition, cause: PyErr) -> PyErr {
    if !cause.is_instance_of::<PyValueError>(py) {
        return cause;
    }
    let moves = notation::format(rules, &game.moves);
    PyValueError::new_err(format!(
        "game with seed {seed}, after moves \"{moves}\": {}",
        cause.value(py)
    ))
}

/// The library's record of a finished game with at least one callable (named "callable"
/// here; the dict carries the real names).
fn record_of(
    rules: Rules,
    seed: u64,
    game: &PyPosition,
    proofs: &[MoveProof],
    move_ms: Vec<f64>,
) -> GameRecord {
    let state =
        connectk::analysis::GameState::of(&game.position, &notation::format(rules, &game.moves));
    let joined = |items: Vec<String>| items.join(" ");
    let value_only = proofs
        .iter()
        .filter(|&&p| p == MoveProof::KeepsValue)
        .count();
    GameRecord {
        rules: state.rules,
        k: state.k,
        width: state.width,
        height: state.height,
        p1: "callable",
        p2: "callable",
        seed,
        moves: state.moves,
        outcome: state.winner.unwrap_or("Draw"),
        reason: state.reason.unwrap_or("board-full"),
        length: state.plies,
        winning_cells: joined(
            state
                .winning_cells
                .iter()
                .map(|[c, r]| format!("{c}:{r}"))
                .collect(),
        ),
        winning_indices: joined(state.winning_indices.iter().map(u32::to_string).collect()),
        proof: match (proofs.is_empty(), value_only) {
            (true, _) => "",
            (false, 0) => "best",
            (false, _) => "value",
        },
        value_only_moves: value_only as u32,
        slowest_ms: move_ms.iter().copied().fold(0.0, f64::max),
        move_ms,
    }
}

/// A game record as a dict: the library's CSV columns (`connectk arena --csv`), the players'
/// names as given, and the topology.
fn record_dict<'py>(
    py: Python<'py>,
    rules: Rules,
    record: &GameRecord,
    names: &[String; 2],
) -> PyResult<Bound<'py, PyDict>> {
    let dict = to_python(py, record)?.cast_into::<PyDict>()?;
    dict.set_item("p1", &names[0])?;
    dict.set_item("p2", &names[1])?;
    dict.set_item("topology", rules.topology().name())?;
    Ok(dict)
}

/// Whether `p1` and `p2` (names) can meet under `rules`: a paper strategy applies to its side
/// only where the paper proves it. Raises ValueError for an unknown name.
#[pyfunction]
#[pyo3(signature = (p1, p2, rules=None))]
pub fn can_meet(p1: &str, p2: &str, rules: Option<PyRules>) -> PyResult<bool> {
    let rules = rules.map_or_else(Rules::standard, |r| r.rules);
    Ok(connectk::arena::check_pairing(rules, parse_name(p1)?, parse_name(p2)?).is_ok())
}
