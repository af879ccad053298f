//! The JSON API for Quarto: a game's state, the value of each choice of a turn within the
//! budget, and a player's turn; the searches run on the solving pool like Connect-k's.

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
use super::query::Params;
use crate::arena::game_seed;
use crate::quarto::players::{Kind, careful};
use crate::quarto::values::{handovers, placements};
use crate::quarto::{Cell, Piece, Position, Reason, Rules, Solver, Turn, notation};
use crate::solver::Budget;
use crate::{Depth, GameResult, UnknownRemoteness, Value, Variant};

/// The parameters that name a Quarto game, as `connectk quarto` spells its options.
pub(crate) const GAME: [&str; 6] = ["size", "attributes", "rules", "criteria", "square", "moves"];

/// A Quarto game as the page draws it.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct QuartoState {
    /// `normal` or `misere`.
    pub rules: &'static str,
    /// Board side.
    pub size: u32,
    /// Attributes per piece.
    pub attributes: u32,
    /// The attributes that count for a line, by number from 0.
    pub criteria: Vec<u32>,
    /// Whether a full 2x2 square sharing an attribute ends the game too.
    pub square: bool,
    /// The game record, in the notation of `connectk quarto` (turns separated by spaces).
    pub moves: String,
    /// Turns played, the opening handover included.
    pub plies: u32,
    /// `P1` or `P2`; `null` once the game is over.
    pub to_move: Option<&'static str>,
    /// The piece the side to move must place (`null` on the opening turn and at the end).
    pub hand: Option<String>,
    /// The empty cells where that piece ends the game (a line, or the last placement): a turn
    /// there places it and hands over nothing.
    pub ending_cells: Vec<String>,
    /// Each cell's piece, or `null`, by index `row * size + column` (row 0 at the bottom).
    pub board: Vec<Option<String>>,
    /// The pieces neither on the board nor in hand.
    pub remaining: Vec<String>,
    /// `P1`, `P2` or `Draw` once the game is over.
    pub winner: Option<&'static str>,
    /// `line`, `board-full` or `pieces-gone` once the game is over.
    pub reason: Option<&'static str>,
    /// Who completed the line (under misère rules, the loser).
    pub completed_by: Option<&'static str>,
    /// The cells of the completed line(s), by name.
    pub line: Vec<String>,
    /// The end in words: `P2 wins: P2 completed a line at a1 b1 c1 d1`.
    pub message: Option<String>,
}

impl QuartoState {
    /// The state of `pos`, reached by `turns`.
    pub(crate) fn of(pos: &Position, turns: &[Turn]) -> QuartoState {
        let rules = pos.rules();
        let code = |p: Piece| p.code(rules);
        let outcome = pos.outcome();
        let (reason, by, line) = match outcome.map(|o| &o.reason) {
            Some(Reason::Line { by, cells }) => (
                Some("line"),
                Some(player_label(*by)),
                cells.iter().map(|c| c.name(rules)).collect(),
            ),
            Some(Reason::BoardFull) => (Some("board-full"), None, Vec::new()),
            Some(Reason::PiecesGone) => (Some("pieces-gone"), None, Vec::new()),
            None => (None, None, Vec::new()),
        };
        QuartoState {
            rules: rules.variant().name(),
            size: rules.size(),
            attributes: rules.attributes(),
            criteria: (0..rules.attributes())
                .filter(|i| rules.criteria() >> i & 1 == 1)
                .collect(),
            square: rules.squares(),
            moves: notation::format(rules, turns),
            plies: pos.plies(),
            to_move: (!pos.is_over()).then(|| player_label(pos.to_move())),
            hand: pos.hand().map(code),
            ending_cells: pos
                .legal_turns()
                .into_iter()
                .filter(|t| t.give.is_none())
                .filter_map(|t| t.place.map(|c| c.name(rules)))
                .collect(),
            board: (0..rules.cells())
                .map(|i| pos.board().piece_at(cell(i)).map(code))
                .collect(),
            remaining: pieces_of(pos.remaining()).map(code).collect(),
            winner: outcome.map(|o| o.result.label()),
            reason,
            completed_by: by,
            line,
            message: outcome.map(|o| o.describe(rules)),
        }
    }
}

/// The cell of index `i`.
fn cell(i: u32) -> Cell {
    Cell::from_index(i)
}

/// The pieces of a mask, lowest first.
fn pieces_of(mask: u16) -> impl Iterator<Item = Piece> {
    (0..16u8)
        .filter(move |p| mask >> p & 1 == 1)
        .map(Piece::from_bits)
}

fn player_label(player: crate::Player) -> &'static str {
    GameResult::Win(player).label()
}

/// A game read from a request.
struct Game {
    position: Position,
    turns: Vec<Turn>,
}

/// The rules named by `size`, `attributes`, `rules`, `criteria` and `square` (defaults: the
/// standard game).
fn rules(params: &Params) -> Result<Rules, ApiError> {
    let variant = match params.text("rules") {
        None => Variant::Normal,
        Some(name) => name.parse::<Variant>().map_err(ApiError::bad)?,
    };
    let size = params.number("size", 4, "a board side from 2 to 4")?;
    let attributes = params.number("attributes", 4, "1 to 4 attributes")?;
    let square = params.flag("square")?;
    // The size and attributes are checked before the criteria are read against them.
    Rules::new(size, attributes, None, variant, square).map_err(ApiError::bad)?;
    let criteria = match params.text("criteria").map(str::trim) {
        None | Some("") => None,
        Some(list) => Some(Rules::parse_criteria(list, attributes).map_err(ApiError::bad)?),
    };
    Rules::new(size, attributes, criteria, variant, square).map_err(ApiError::bad)
}

/// The rules and the game after `moves`.
fn game(params: &Params) -> Result<Game, ApiError> {
    let rules = rules(params)?;
    let (position, turns) =
        notation::parse(rules, params.text("moves").unwrap_or("")).map_err(ApiError::bad)?;
    Ok(Game { position, turns })
}

/// `GET /api/quarto/state`: the game after `moves`.
pub(crate) async fn state(RawQuery(query): RawQuery) -> Result<Json<QuartoState>, ApiError> {
    let game = game(&Params::parse(query.as_deref(), &GAME)?)?;
    Ok(Json(QuartoState::of(&game.position, &game.turns)))
}

/// The value of one choice: a cell or a piece.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct ChoiceValue {
    /// The cell's name or the piece's code.
    pub choice: String,
    /// `P1`, `P2` or `Draw` under perfect play after this choice; `null` when not found within
    /// the budget.
    pub outcome: Option<&'static str>,
    /// Turns from this position to the end (`null` when unknown or not asked for).
    pub remoteness: Option<u32>,
}

impl ChoiceValue {
    fn of(choice: String, value: Option<Value>) -> ChoiceValue {
        ChoiceValue {
            choice,
            outcome: value.map(|v| v.result.label()),
            remoteness: value.and_then(|v| v.remoteness),
        }
    }
}

/// What `/api/quarto/solve` answers.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct QuartoValues {
    /// The game.
    pub state: QuartoState,
    /// The cell the values of `pieces` are for (`null`: the opening, or `cells` is given).
    pub place: Option<String>,
    /// With a piece in hand and no `place`: the value of placing it on each empty cell (and
    /// then handing over the best piece).
    pub cells: Vec<ChoiceValue>,
    /// On the opening turn, or after `place`: the value of handing over each piece.
    pub pieces: Vec<ChoiceValue>,
    /// The value of the position (the best choice's), once every choice's is known.
    pub outcome: Option<&'static str>,
    /// Its remoteness in turns.
    pub remoteness: Option<u32>,
    /// Whether every choice's value was found within the budget.
    pub complete: bool,
    /// Wall-clock seconds of the search.
    pub seconds: f64,
}

/// `GET /api/quarto/solve`: the value of each choice of the turn to play, within the server's
/// budget (`weak=1`: outcomes only): each empty cell for the piece in hand, or, on the opening
/// turn or with `place=CELL`, each piece to hand over.
pub(crate) async fn solve(
    State(app): State<Arc<AppState>>,
    RawQuery(query): RawQuery,
) -> Result<Json<QuartoValues>, ApiError> {
    let params = Params::parse(query.as_deref(), &[&GAME[..], &["weak", "place"]].concat())?;
    let Game { position, turns } = game(&params)?;
    let depth = if params.flag("weak")? {
        Depth::Weak
    } else {
        Depth::Strong
    };
    let rules = *position.rules();
    let place = match params.text("place") {
        None => None,
        Some(text) => Some(placement(&position, text)?),
    };
    let state = QuartoState::of(&position, &turns);
    if position.is_over() {
        return Ok(Json(values_of(state, &position, place, Vec::new(), 0.0)));
    }
    let budget = app.config.budget;
    let answer = app
        .pool
        .run_quarto(rules, move |solver| {
            let started = Instant::now();
            let found = choices(solver, &position, place, depth, budget);
            let seconds = started.elapsed().as_secs_f64();
            values_of(state, &position, place, found, seconds)
        })
        .await?;
    Ok(Json(answer))
}

/// The cell named `text`, checked to be a placement of `pos`.
fn placement(pos: &Position, text: &str) -> Result<Cell, ApiError> {
    let rules = pos.rules();
    let cell = Cell::parse(text, rules).map_err(ApiError::bad)?;
    if pos.hand().is_none() {
        return Err(ApiError::BadRequest(format!(
            "place = {text:?}: no piece is in hand to place (the opening turn only hands over)"
        )));
    }
    if pos.board().piece_at(cell).is_some() {
        return Err(ApiError::BadRequest(format!(
            "place = {text:?}: cell {} is taken: choose an empty cell",
            cell.name(rules)
        )));
    }
    Ok(cell)
}

/// One choice of a turn: where to place, or what to hand over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    Cell(Cell),
    Piece(Piece),
}

/// The values of the choices of the turn to play in `pos` (see [`solve`]).
fn choices(
    solver: &mut Solver,
    pos: &Position,
    place: Option<Cell>,
    depth: Depth,
    budget: Budget,
) -> Vec<(Choice, Option<Value>)> {
    match (pos.hand(), place) {
        (Some(_), None) => placements(solver, pos, depth, budget)
            .into_iter()
            .map(|(c, v)| (Choice::Cell(c), v))
            .collect(),
        _ => handovers(solver, pos, place, depth, budget)
            .into_iter()
            .map(|(p, v)| (Choice::Piece(p), v))
            .collect(),
    }
}

/// The answer of `/api/quarto/solve`.
fn values_of(
    state: QuartoState,
    pos: &Position,
    place: Option<Cell>,
    found: Vec<(Choice, Option<Value>)>,
    seconds: f64,
) -> QuartoValues {
    let rules = pos.rules();
    let me = pos.to_move();
    let known: Option<Vec<Value>> = found.iter().map(|(_, v)| *v).collect();
    let best = known.and_then(|values| {
        values
            .into_iter()
            .max_by_key(|v| v.rank_for(me, UnknownRemoteness::Slowest))
    });
    let mut answer = QuartoValues {
        state,
        place: place.map(|c| c.name(rules)),
        cells: Vec::new(),
        pieces: Vec::new(),
        outcome: best.map(|v| v.result.label()),
        remoteness: best.and_then(|v| v.remoteness),
        complete: found.iter().all(|(_, v)| v.is_some()),
        seconds,
    };
    for (choice, value) in found {
        match choice {
            Choice::Cell(c) => answer.cells.push(ChoiceValue::of(c.name(rules), value)),
            Choice::Piece(p) => answer.pieces.push(ChoiceValue::of(p.code(rules), value)),
        }
    }
    answer
}

/// What `/api/quarto/move` answers.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct QuartoMove {
    /// The player that chose.
    pub player: &'static str,
    /// The turn, as the record writes it (`a1:DTQH`).
    pub turn: String,
    /// Whether the choice rested on complete knowledge: always for `random` and `careful`;
    /// for `perfect`, whether every choice's value was found within the budget (if not, it
    /// chose the best it knew, and among the unknown ones as `careful` would).
    pub complete: bool,
    /// The game after the turn.
    pub state: QuartoState,
}

/// `GET /api/quarto/move`: the turn of `player` (`random`, `careful` or `perfect`) for the
/// side to move, its randomness seeded by `seed` and the turn number (default seed 0).
pub(crate) async fn bot_move(
    State(app): State<Arc<AppState>>,
    RawQuery(query): RawQuery,
) -> Result<Json<QuartoMove>, ApiError> {
    let params = Params::parse(query.as_deref(), &[&GAME[..], &["player", "seed"]].concat())?;
    let Game { position, turns } = game(&params)?;
    let kind = player_kind(params.text("player"))?;
    let seed = params.number("seed", 0u64, "a whole number from 0")?;
    if let Some(outcome) = position.outcome() {
        return Err(ApiError::BadRequest(format!(
            "the game is over ({}): no more turns can be played",
            outcome.describe(position.rules())
        )));
    }
    let seed = game_seed(seed, u64::from(position.plies()));
    let (turn, complete) = match kind {
        Kind::Perfect => {
            let budget = app.config.budget;
            let pos = position.clone();
            app.pool
                .run_quarto(*position.rules(), move |solver| {
                    perfect_turn(solver, &pos, budget, seed)
                })
                .await?
        }
        _ => {
            let mut player = kind.bot(ChaCha8Rng::seed_from_u64(seed));
            let turn = player
                .choose(&position)
                .ok_or_else(|| ApiError::Internal("no legal turn in a game that goes on".into()))?;
            (turn, true)
        }
    };
    let after = position
        .play(turn)
        .map_err(|e| ApiError::Internal(format!("{} chose badly: {e}", kind.name())))?;
    let all: Vec<Turn> = turns.iter().copied().chain([turn]).collect();
    Ok(Json(QuartoMove {
        player: kind.name(),
        turn: notation::format_turn(position.rules(), turn),
        complete,
        state: QuartoState::of(&after, &all),
    }))
}

/// The player named `name`.
fn player_kind(name: Option<&str>) -> Result<Kind, ApiError> {
    let kinds = [Kind::Random, Kind::Careful, Kind::Perfect];
    let name = name
        .ok_or_else(|| ApiError::BadRequest("player is missing: name the bot that moves".into()))?;
    kinds.into_iter().find(|k| k.name() == name).ok_or_else(|| {
        ApiError::BadRequest(format!(
            "unknown player {name:?}: expected one of random, careful, perfect"
        ))
    })
}

/// The perfect player's turn within `budget`: the best cell it knows (half the budget), then
/// the best piece to hand over after it (the rest); among choices of unknown value it prefers
/// those `careful` would make. Also whether it knew every choice's value.
fn perfect_turn(solver: &mut Solver, pos: &Position, budget: Budget, seed: u64) -> (Turn, bool) {
    let me = pos.to_move();
    // A placement that wins at once is the soonest win there is: no search needed.
    let wins_now = pos.legal_turns().into_iter().find(|&t| {
        t.give.is_none()
            && pos.play(t).is_ok_and(|after| {
                after
                    .outcome()
                    .is_some_and(|o| o.result == GameResult::Win(me))
            })
    });
    if let Some(turn) = wins_now {
        return (turn, true);
    }
    let started = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let safe = careful(pos, pos.legal_turns());
    let mut complete = true;
    let place = pos.hand().map(|_| {
        let half = Budget {
            time: budget.time.map(|t| t / 2),
            ..budget
        };
        let cells = placements(solver, pos, Depth::Strong, half);
        complete &= cells.iter().all(|(_, v)| v.is_some());
        let preferred: Vec<Cell> = safe.iter().filter_map(|t| t.place).collect();
        pick(cells, me, &preferred, &mut rng)
    });
    let ends = pos
        .play(Turn { place, give: None })
        .is_ok_and(|after| after.is_over());
    if ends {
        return (Turn { place, give: None }, complete);
    }
    let rest = Budget {
        time: budget.time.map(|t| t.saturating_sub(started.elapsed())),
        ..budget
    };
    let pieces = handovers(solver, pos, place, Depth::Strong, rest);
    complete &= pieces.iter().all(|(_, v)| v.is_some());
    let preferred: Vec<Piece> = safe
        .iter()
        .filter(|t| t.place == place)
        .filter_map(|t| t.give)
        .collect();
    let give = pick(pieces, me, &preferred, &mut rng);
    (
        Turn {
            place,
            give: Some(give),
        },
        complete,
    )
}

/// One of the best of `options` for `me`, at random: the fastest known win, else a known draw,
/// else one of unknown value (one of `preferred` if any is), else the slowest known loss.
fn pick<T: Copy + PartialEq>(
    options: Vec<(T, Option<Value>)>,
    me: crate::Player,
    preferred: &[T],
    rng: &mut ChaCha8Rng,
) -> T {
    // Unknown ranks above every loss and below every draw (a draw ranks 0).
    let score = |v: &Option<Value>| v.map_or(-1, |v| v.rank_for(me, UnknownRemoteness::Slowest));
    let top = options.iter().map(|(_, v)| score(v)).max();
    let mut best: Vec<T> = options
        .iter()
        .filter(|(_, v)| Some(score(v)) == top)
        .map(|(t, _)| *t)
        .collect();
    if top == Some(-1) && best.iter().any(|t| preferred.contains(t)) {
        best.retain(|t| preferred.contains(t));
    }
    best[rng.random_range(0..best.len())]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(query: &str) -> Params {
        let known = [&GAME[..], &["weak", "place", "player", "seed"]].concat();
        Params::parse(Some(query), &known).unwrap()
    }

    fn message(error: ApiError) -> String {
        error.to_string()
    }

    #[test]
    fn the_rules_are_the_command_lines() {
        let rules = rules(&params(
            "size=3&attributes=3&rules=misere&criteria=0,shape&square=1",
        ));
        let rules = rules.unwrap();
        assert_eq!(
            rules.to_string(),
            "misere 3x3, 3 attributes (criteria 0,2) + squares"
        );
        let refused = |q: &str| message(rules_of(q));
        assert!(refused("size=5").contains("size must be 2, 3 or 4"));
        assert!(refused("attributes=0&criteria=x").contains("1 to 4"));
        assert!(refused("attributes=9&criteria=x").contains("1 to 4"));
        assert!(refused("attributes=2&criteria=fill").contains("\"fill\""));
        assert!(refused("rules=foo").contains("foo"));
    }

    fn rules_of(query: &str) -> ApiError {
        rules(&params(query)).unwrap_err()
    }

    #[test]
    fn a_finished_game_names_its_line() {
        let q = "moves=LSRF,a1:LSRH,b1:LSQF,c1:DTQH,a2:LTRF,d1";
        let over = game(&params(q)).unwrap();
        let state = QuartoState::of(&over.position, &over.turns);
        assert_eq!(state.winner, Some("P2"));
        assert_eq!(state.line, ["a1", "b1", "c1", "d1"]);
        assert_eq!(state.reason, Some("line"));
        assert_eq!(state.moves, "LSRF a1:LSRH b1:LSQF c1:DTQH a2:LTRF d1");
        assert_eq!(state.board[0].as_deref(), Some("LSRF"));
        let before = "moves=LSRF,a1:LSRH,b1:LSQF,c1:DTQH,a2:LTRF";
        let going = game(&params(before)).unwrap();
        let going = QuartoState::of(&going.position, &going.turns);
        assert_eq!(going.ending_cells, ["d1"]);
        let bad = message(game_of("moves=LSRF,a1:LSRF"));
        assert!(bad.starts_with("turn 2"), "{bad}");
    }

    fn game_of(query: &str) -> ApiError {
        match game(&params(query)) {
            Err(e) => e,
            Ok(_) => panic!("{query} should be refused"),
        }
    }

    #[test]
    fn perfect_takes_a_win_it_knows_and_plays_carefully_when_it_knows_nothing() {
        // P2 holds LTRF, light like a1, b1 and c1: d1 wins.
        let q = "moves=LSRF,a1:LSRH,b1:LSQF,c1:DTQH,a2:LTRF";
        let pos = game(&params(q)).unwrap().position;
        let mut solver = Solver::new(*pos.rules(), 1 << 22);
        let (turn, complete) = perfect_turn(&mut solver, &pos, Budget::UNLIMITED, 1);
        assert_eq!(notation::format_turn(pos.rules(), turn), "d1");
        assert!(complete);
        let start = Position::new(Rules::standard());
        let (turn, complete) = perfect_turn(&mut solver, &start, Budget::nodes(10), 1);
        assert!(!complete && turn.give.is_some());
    }
}
