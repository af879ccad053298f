//! The JSON API for one position: its state, its value and analysis within the budget, a
//! bot's move, Table I's prediction and the players that can play it.

use std::sync::Arc;
use std::time::Instant;

use axum::Json;
use axum::extract::{RawQuery, State};
use rand::RngExt;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::AppState;
use super::error::ApiError;
use super::query::{BOARD, Game, Params};
use crate::analysis::{
    ColumnValues, GameState, MoveRecord, SolveRecord, column_values, perfect_values,
    values_from_book,
};
use crate::arena::{PerfectSettings, PlayerName, game_seed};
use crate::engine::outcome::Player;
use crate::engine::position::{Column, Position};
use crate::engine::rules::{Rules, Variant};
use crate::solver::Depth;
use crate::strategy::StrategyName;
use crate::strategy::plan::Plan;
use crate::strategy::table1::{Decider, deciders, predict};

/// `GET /api/state`: the game after `moves`, as `connectk show --json` prints it.
pub(crate) async fn state(RawQuery(query): RawQuery) -> Result<Json<GameState>, ApiError> {
    let game = Params::parse(query.as_deref(), &BOARD)?.game()?;
    Ok(Json(GameState::of(&game.position, &game.text)))
}

/// `GET /api/solve`: the value of the position after `moves` within the server's budget, as
/// `connectk solve --json` prints it (with `weak=1`: the outcome only; with `analyze=1`: every
/// move's value), plus `complete`. A finished game, and a position whose moves the opening
/// book holds, are answered at once, never behind the searches waiting for a worker.
pub(crate) async fn solve(
    State(app): State<Arc<AppState>>,
    RawQuery(query): RawQuery,
) -> Result<Json<SolveRecord>, ApiError> {
    let params = Params::parse(
        query.as_deref(),
        &[&BOARD[..], &["weak", "analyze"]].concat(),
    )?;
    let game = params.game()?;
    let depth = if params.flag("weak")? {
        Depth::Weak
    } else {
        Depth::Strong
    };
    let analyze = params.flag("analyze")?;
    if let Some(values) = values_from_book(&game.position, depth, app.book(&game.position)) {
        let state = GameState::of(&game.position, &game.text);
        let mut record = SolveRecord::of_columns(state, &game.position, &values);
        if !analyze {
            record.move_values.clear();
        }
        return Ok(Json(record));
    }
    let budget = app.config.budget;
    let record = app
        .pool
        .run(move |solver| {
            let state = GameState::of(&game.position, &game.text);
            if analyze {
                let values = column_values(solver, &game.position, depth, budget);
                return SolveRecord::of_columns(state, &game.position, &values);
            }
            let pos = game.position;
            solver.prepare(pos.rules());
            let before = solver.nodes();
            let started = Instant::now();
            match solver.limited(budget, |s| s.solve_with_best_moves(&pos, depth)) {
                Some(solution) => SolveRecord::new(state, &solution, true, None).within_budget(),
                None => {
                    let nothing = ColumnValues {
                        moves: Vec::new(),
                        nodes: solver.nodes() - before,
                        seconds: started.elapsed().as_secs_f64(),
                    };
                    SolveRecord {
                        complete: Some(false),
                        ..SolveRecord::of_columns(state, &pos, &nothing)
                    }
                }
            }
        })
        .await?;
    Ok(Json(record))
}

/// A bot's answer to a position.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct BotMove {
    /// The player that chose.
    pub player: &'static str,
    /// Its column, from 1.
    pub column: u32,
    /// Whether the choice rested on complete knowledge: always for the bots and strategies;
    /// for `perfect`, whether every move's value was found within the budget (if not, it
    /// chose the best of what it knew, and a central move among the unknown ones).
    pub complete: bool,
    /// What `perfect` knew of each move when it chose (absent for the other players).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub move_values: Vec<MoveRecord>,
    /// The game after the move.
    pub state: GameState,
}

/// `GET /api/move`: the move of `player` (any name of `connectk arena`) for the side to move,
/// with its randomness seeded by `seed` and the ply (default seed 0).
pub(crate) async fn bot_move(
    State(app): State<Arc<AppState>>,
    RawQuery(query): RawQuery,
) -> Result<Json<BotMove>, ApiError> {
    let params = Params::parse(
        query.as_deref(),
        &[&BOARD[..], &["player", "seed"]].concat(),
    )?;
    let game = params.game()?;
    let name: PlayerName = params
        .text("player")
        .ok_or_else(|| ApiError::BadRequest("player is missing: name the bot that moves".into()))?
        .parse()
        .map_err(ApiError::bad)?;
    let seed = params.number("seed", 0u64, "a whole number from 0")?;
    if let Some(outcome) = game.position.outcome() {
        return Err(ApiError::BadRequest(format!(
            "the game is already over ({outcome}): no more moves can be played"
        )));
    }
    let seed = game_seed(seed, game.moves.len() as u64);
    let (column, values) = match name {
        PlayerName::Perfect => {
            let budget = app.config.budget;
            let pos = game.position;
            let values = match values_from_book(&pos, Depth::Strong, app.book(&pos)) {
                Some(values) => values,
                None => {
                    app.pool
                        .run(move |s| perfect_values(s, &pos, budget))
                        .await?
                }
            };
            (perfect_choice(&pos, &values, seed), Some(values))
        }
        _ => (bot_choice(name, &game, seed)?, None),
    };
    let mut after = game.position;
    after
        .play(column)
        .map_err(|e| ApiError::Internal(format!("{name} chose badly: {e}")))?;
    let moves: Vec<Column> = game.moves.iter().copied().chain([column]).collect();
    let text = crate::engine::notation::format(after.rules(), &moves);
    Ok(Json(BotMove {
        player: name.as_str(),
        column: column.number(),
        complete: values.as_ref().is_none_or(ColumnValues::complete),
        move_values: values
            .iter()
            .flat_map(|v| v.moves.iter().map(|&(c, v)| MoveRecord::known(c, v)))
            .collect(),
        state: GameState::of(&after, &text),
    }))
}

/// The perfect player's pick among the best moves it knows: at random by `seed` among moves of
/// equal known value, the most central of the moves of unknown value.
pub(crate) fn perfect_choice(pos: &Position, values: &ColumnValues, seed: u64) -> Column {
    let mut best = values.best_columns(pos);
    let unknown = best
        .first()
        .is_some_and(|c| values.moves.iter().any(|(m, v)| m == c && v.is_none()));
    if unknown {
        let width = pos.rules().width() as i64;
        let off_centre = |c: &Column| (2 * i64::from(c.index()) - (width - 1)).abs();
        let nearest = best.iter().map(off_centre).min();
        best.retain(|c| Some(off_centre(c)) == nearest);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    best[rng.random_range(0..best.len())]
}

/// The move of a bot or strategy (anything but `perfect`), which answers at once.
fn bot_choice(name: PlayerName, game: &Game, seed: u64) -> Result<Column, ApiError> {
    let pos = &game.position;
    let mut player = name
        .build(
            pos.rules(),
            pos.to_move(),
            seed,
            &PerfectSettings::default(),
        )
        .map_err(ApiError::bad)?;
    player
        .choose(crate::strategy::Game {
            position: pos,
            moves: &game.moves,
        })
        .map_err(ApiError::bad)
}

/// Table I's word on a board.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Prediction {
    /// `normal` or `misere`.
    pub rules: &'static str,
    /// `flat` or `cylinder` (Table I predicts flat boards only).
    pub topology: &'static str,
    /// Line length.
    pub k: u32,
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// `P1`, `P2` or `Draw` under optimal play; `null` where the table says nothing (normal
    /// rules, which it does not cover, or k = 1).
    pub prediction: Option<&'static str>,
    /// The paper's strategies that decide it, main proof first.
    pub deciders: Vec<Decider>,
}

/// `GET /api/table1`: Table I's prediction for the board, and the strategy that decides it.
pub(crate) async fn table1(RawQuery(query): RawQuery) -> Result<Json<Prediction>, ApiError> {
    // The moves play no part, but a bad move string is refused like everywhere else.
    let rules = Params::parse(query.as_deref(), &BOARD)?
        .game()?
        .position
        .rules();
    // Table I and its deciding strategies are the paper's, for flat boards only.
    let misere = rules.variant() == Variant::Misere && !rules.is_cylinder();
    let (k, w, h) = (rules.k(), rules.width(), rules.height());
    Ok(Json(Prediction {
        rules: rules.variant().name(),
        topology: rules.topology().name(),
        k,
        width: w,
        height: h,
        prediction: predict(k, w, h).filter(|_| misere).map(|r| r.label()),
        deciders: if misere {
            deciders(k, w, h)
        } else {
            Vec::new()
        },
    }))
}

/// `GET /api/plan?strategy=NAME&side=P1|P2`: what the paper's strategy, playing `side` (by
/// default the first side it can play), will do from the position: its move now, or its
/// answer to each of the opponent's moves, each with the rule behind it.
pub(crate) async fn plan(RawQuery(query): RawQuery) -> Result<Json<Plan>, ApiError> {
    let params = Params::parse(
        query.as_deref(),
        &[&BOARD[..], &["strategy", "side"]].concat(),
    )?;
    let game = params.game()?;
    let strategy: StrategyName = params
        .text("strategy")
        .ok_or_else(|| ApiError::BadRequest("strategy is missing: name one of the paper's".into()))?
        .parse()
        .map_err(ApiError::bad)?;
    let rules = game.position.rules();
    let side = match params.text("side") {
        None => [Player::P1, Player::P2]
            .into_iter()
            .find(|&p| strategy.build(rules, p).is_ok())
            .unwrap_or(Player::P1),
        Some("P1") => Player::P1,
        Some("P2") => Player::P2,
        Some(other) => {
            return Err(ApiError::BadRequest(format!(
                "side = {other:?} is not a side: expected P1 or P2"
            )));
        }
    };
    let plan = crate::strategy::plan::plan(strategy, side, &game.position, &game.moves)
        .map_err(ApiError::bad)?;
    Ok(Json(plan))
}

/// A player the page can offer.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Offer {
    /// Its name.
    pub name: &'static str,
    /// The sides it can play under these rules.
    pub plays: Vec<Player>,
    /// Why it cannot play the others (one line per side it refuses).
    pub refused: Vec<String>,
}

/// `GET /api/players`: every player name, with the sides it can play under the rules.
pub(crate) async fn players(RawQuery(query): RawQuery) -> Result<Json<Vec<Offer>>, ApiError> {
    let rules = Params::parse(query.as_deref(), &BOARD)?
        .game()?
        .position
        .rules();
    Ok(Json(offers(rules)))
}

/// Every player name, with the sides it can play under `rules`.
fn offers(rules: Rules) -> Vec<Offer> {
    PlayerName::all()
        .iter()
        .map(|&name| {
            let mut offer = Offer {
                name: name.as_str(),
                plays: Vec::new(),
                refused: Vec::new(),
            };
            for side in [Player::P1, Player::P2] {
                // `perfect` is built here only to ask; the server plays it through its pool.
                match name.build(rules, side, 0, &PerfectSettings::default()) {
                    Ok(_) => offer.plays.push(side),
                    Err(e) => offer.refused.push(e.to_string()),
                }
            }
            offer
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::notation;
    use crate::solver::{Budget, Mib, Solver};

    #[test]
    fn perfect_plays_the_solvers_best_move_when_it_knows_them() {
        // Misère 4x4, k = 3, after "12": every value is found at once.
        let rules = Rules::new(3, 4, 4, Variant::Misere).unwrap();
        let (pos, _) = notation::parse(rules, "12").unwrap();
        let values = perfect_values(&mut Solver::new(Mib(4)), &pos, Budget::UNLIMITED);
        assert!(values.complete());
        let best = Solver::new(Mib(4)).analyze(&pos, Depth::Strong).best_moves;
        for seed in 0..8 {
            assert!(best.contains(&perfect_choice(&pos, &values, seed)));
        }
    }

    #[test]
    fn perfect_without_knowledge_plays_the_centre() {
        let pos = Position::new(Rules::standard());
        let values = perfect_values(&mut Solver::new(Mib(4)), &pos, Budget::nodes(10));
        assert!(!values.complete());
        assert_eq!(perfect_choice(&pos, &values, 3).number(), 4);
    }

    #[test]
    fn offers_follow_the_strategies_requirements() {
        let misere = offers(Rules::standard().with_variant(Variant::Misere));
        let take_even = misere.iter().find(|o| o.name == "take-even").unwrap();
        assert_eq!(take_even.plays, vec![Player::P2]);
        assert!(take_even.refused[0].contains("it is played by P2"));
        let normal = offers(Rules::standard());
        assert!(
            normal
                .iter()
                .find(|o| o.name == "take-even")
                .unwrap()
                .plays
                .is_empty()
        );
        assert_eq!(
            normal
                .iter()
                .find(|o| o.name == "hard")
                .unwrap()
                .plays
                .len(),
            2
        );
    }
}
