//! The perfect player: never a move that changes the game-theoretic value, and within its time
//! budget the fastest win or the slowest loss; its solvers outlive the games it plays.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;

use super::PlayerName;
use super::bots::{no_moves, pick, winning_moves};
use crate::engine::outcome::GameResult;
use crate::engine::position::{Column, Position};
use crate::solver::{Book, Budget, Depth, Mib, Solver};
use crate::strategy::{Game, MoveProof, Strategy, StrategyError};

/// The transposition table of each of the perfect player's solvers, unless set otherwise.
pub const PERFECT_TABLE: Mib = Mib(64);

/// Solvers waiting for a game: a game's perfect player takes one and gives it back when the
/// game ends, so each solver's table (and the book inside it) serves game after game. There
/// are never more solvers than games played at once.
struct SolverPool {
    table: Mib,
    book: Option<Arc<Book>>,
    idle: Mutex<Vec<Solver>>,
}

impl SolverPool {
    fn take(&self) -> Solver {
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        idle.unwrap_or_else(|| {
            let solver = Solver::new(self.table);
            match &self.book {
                Some(book) => solver.with_book(Arc::clone(book)),
                None => solver,
            }
        })
    }

    fn give_back(&self, solver: Solver) {
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(solver);
    }
}

/// What the perfect player brings to every game: its solvers (kept across moves and games),
/// their opening book, and its time per move. Clones share the solvers.
#[derive(Clone)]
pub struct PerfectSettings {
    pool: Arc<SolverPool>,
    move_time: Option<Duration>,
}

impl PerfectSettings {
    /// Solvers with tables of `table`, consulting `book` when given; each move proves the value
    /// first, then spends what is left of `move_time` on the remoteness (`None`: as long as
    /// that takes, so that every move is the fastest win or slowest loss and games are
    /// reproducible from their seed).
    pub fn new(table: Mib, book: Option<Arc<Book>>, move_time: Option<Duration>) -> Self {
        PerfectSettings {
            pool: Arc::new(SolverPool {
                table,
                book,
                idle: Mutex::new(Vec::new()),
            }),
            move_time,
        }
    }

    /// The opening book of the solvers, if any.
    pub fn book(&self) -> Option<Arc<Book>> {
        self.pool.book.clone()
    }
}

impl Default for PerfectSettings {
    /// [`PERFECT_TABLE`], no book, no time limit.
    fn default() -> Self {
        PerfectSettings::new(PERFECT_TABLE, None, None)
    }
}

/// The solver's choice: a move that keeps the game-theoretic value, proven before it is
/// played (however long that takes), and among those, when the time budget allows proving it,
/// the fastest win or the slowest loss; ties broken at random among the moves that stay in
/// the book's tree where some do, among all of them otherwise.
///
/// Each move first settles the position's outcome and the moves that keep it (from the book
/// where it holds them, by search otherwise), then spends the rest of the budget on exact
/// remoteness, unless the book has proven a best move already, holds outcomes only there (with
/// a budget), or only one move keeps the value. When the budget runs out first, it plays a
/// value-keeping move that does not let the opponent win at once where it has one, and
/// reports the move as keeping the value only ([`MoveProof::KeepsValue`]).
pub struct Perfect {
    rng: ChaCha8Rng,
    /// Taken from the pool for the game, and given back when it ends.
    solver: Option<Solver>,
    settings: PerfectSettings,
    last: Option<MoveProof>,
}

impl Perfect {
    /// A perfect player breaking ties with `rng`, with a solver from `settings`' pool.
    pub(crate) fn new(rng: ChaCha8Rng, settings: &PerfectSettings) -> Perfect {
        Perfect {
            rng,
            solver: Some(settings.pool.take()),
            settings: settings.clone(),
            last: None,
        }
    }
}

impl Drop for Perfect {
    fn drop(&mut self) {
        if let Some(solver) = self.solver.take() {
            self.settings.pool.give_back(solver);
        }
    }
}

impl Strategy for Perfect {
    fn name(&self) -> &'static str {
        PlayerName::Perfect.as_str()
    }

    fn choose(&mut self, game: Game<'_>) -> Result<Column, StrategyError> {
        let start = Instant::now();
        let pos = game.position;
        if pos.is_over() {
            return Err(no_moves());
        }
        let deadline = self.settings.move_time.map(|time| start + time);
        let solver = self.solver.as_mut().expect("held until dropped");
        let in_book = book_moves(solver.book(pos.rules()).map(Arc::as_ref), pos);
        let (keeping, from_book) = match in_book {
            Some(BookMoves::Best(best)) => {
                // The move a book of the player's tree stores: the one to the smallest
                // canonical key (see `experiment::book`), so that the game stays in the book.
                self.last = Some(MoveProof::Best);
                let key = |c: &&Column| pos.played(**c).expect("legal").canonical_key().0;
                return best.iter().min_by_key(key).copied().ok_or_else(no_moves);
            }
            Some(BookMoves::Keeping(keeping)) => (keeping, true),
            None => {
                let found = solver.keeping_moves(pos, deadline);
                let keeping = KeepingMoves {
                    moves: found.moves,
                    complete: found.complete,
                };
                (keeping, false)
            }
        };
        let best = if !keeping.complete {
            // A move left unsettled might be the fastest win: none can be proven best.
            None
        } else if keeping.moves.len() == 1 {
            // The only move that keeps the value is the best one.
            Some(keeping.moves.clone())
        } else if from_book && deadline.is_some() {
            // The book holds outcomes only here: its build found exact values too costly this
            // early, and a search within one move's budget would only spend it (misère 7x6,
            // `hard` against `perfect` as P2, 100 games: 32 s and the slowest move 1.1 s, with
            // a search at each of P2's moves in the book's layer of every position to ply 6;
            // 0.2 s without).
            None
        } else {
            let exact = |s: &mut Solver| s.solve_with_best_moves(pos, Depth::Strong).best_moves;
            match deadline {
                None => Some(exact(solver)),
                Some(deadline) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    solver.limited(Budget::time(left), exact)
                }
            }
        };
        let (moves, proof) = match best {
            Some(best) => (best, MoveProof::Best),
            None => (safest_moves(pos, keeping.moves), MoveProof::KeepsValue),
        };
        let moves = within_book(solver.book(pos.rules()).map(Arc::as_ref), pos, moves);
        self.last = Some(proof);
        pick(&mut self.rng, &moves).ok_or_else(no_moves)
    }

    fn last_proof(&self) -> Option<MoveProof> {
        self.last
    }
}

/// Moves proven to keep a position's value.
struct KeepingMoves {
    /// The moves (at least one).
    moves: Vec<Column>,
    /// Whether they are all the moves that keep the value (every legal move was settled).
    complete: bool,
}

/// What an opening book says about the moves of a position it holds.
enum BookMoves {
    /// The book's moves that are proven best (fastest win, slowest loss, or a draw).
    Best(Vec<Column>),
    /// The book's moves proven to keep the value, none of them proven best.
    Keeping(KeepingMoves),
}

/// The moves of `pos` that `book` proves to keep its value: moves to positions it holds (or
/// that end the game) with the same outcome, best when both values are exact and the move's
/// remoteness is the position's. `None` when the book does not hold `pos` or any such move.
/// A move that loses at once (completing the mover's own line under misère rules) is never
/// one of them: it keeps a lost value, but it is the fastest loss, and where every move is
/// as fast the search, not the book, says so. (With a book of outcomes only, such a move
/// was played: a perfect first player against random replies lost 18 misère 7x6 games of 100
/// at ply 7, stacking four discs, with a book of its own tree.)
/// (A book of a player's tree holds one move of each of its positions, a book of every
/// position all of them; the keeping moves are complete only when the book holds every move.)
fn book_moves(book: Option<&Book>, pos: &Position) -> Option<BookMoves> {
    let value = book?.value(pos)?;
    let mut best = Vec::new();
    let mut keeping = Vec::new();
    let mut complete = true;
    for column in pos.legal_columns() {
        let child = pos.played(column).expect("legal column");
        let after = match child.outcome() {
            Some(outcome) if outcome.result == GameResult::Win(pos.to_move().other()) => continue,
            Some(outcome) => Some((outcome.result, Some(0))),
            None => book?.value(&child).map(|v| (v.result, v.remoteness)),
        };
        let Some((result, remoteness)) = after else {
            complete = false;
            continue;
        };
        if result != value.result {
            continue;
        }
        keeping.push(column);
        if value.remoteness.is_some() && remoteness.map(|r| r + 1) == value.remoteness {
            best.push(column);
        }
    }
    if !best.is_empty() {
        Some(BookMoves::Best(best))
    } else if !keeping.is_empty() {
        Some(BookMoves::Keeping(KeepingMoves {
            moves: keeping,
            complete,
        }))
    } else {
        None
    }
}

/// Of the value-keeping moves `keeping`, those that win at once if any; otherwise those after
/// which the opponent cannot win at once, if any; otherwise those that do not lose at once
/// (under misère rules, by completing the mover's own line), if any; otherwise all of them,
/// each time in the order given.
/// (Any of them keeps the value; against an imperfect opponent, these keep the game going in
/// the right way, and in a lost position the last choice is the slower loss.) The perfect
/// player chooses among them when it has no best move proven, and a book build of a player's
/// tree takes the first of them where its entries hold outcomes only.
pub fn safest_moves(pos: &Position, keeping: Vec<Column>) -> Vec<Column> {
    let me = pos.to_move();
    let after = |c: Column| pos.played(c).expect("legal column");
    let result = |c: Column| after(c).outcome().map(|o| o.result);
    let wins_at_once = |c: Column| result(c) == Some(GameResult::Win(me));
    let quiet = |c: Column| {
        let child = after(c);
        !child.is_over() && winning_moves(&child).is_empty()
    };
    let not_lost_at_once = |c: Column| result(c) != Some(GameResult::Win(me.other()));
    let preferences: [&dyn Fn(Column) -> bool; 3] = [&wins_at_once, &quiet, &not_lost_at_once];
    for prefer in preferences {
        let chosen: Vec<Column> = keeping.iter().copied().filter(|&c| prefer(c)).collect();
        if !chosen.is_empty() {
            return chosen;
        }
    }
    keeping
}

/// How many rounds of the opponent's reply and the mover's answer [`within_book`] looks
/// ahead. From the second player's first move, four reach ply 9, past the misère 7x6 book's
/// layer of every position (to ply 8), where only the players' trees go on. (The first
/// player's tree there holds exact values, whose best moves need no look ahead.)
const BOOK_ROUNDS: u32 = 4;

/// Of the moves `moves` (equally good), those after which `book` answers every reply of the
/// opponent's for the most rounds (up to [`BOOK_ROUNDS`]; see [`book_covers`]); all of them
/// when the book holds none of their replies.
///
/// A book of a player's tree goes on past one move of each of the player's positions only
/// (the move the build chose), and where its entries hold outcomes only, it does not say which:
/// every move that keeps the value looks alike (in a lost position, every move). Off the tree
/// each later move must be proven afresh: a misère 7x6 first player that left its tree at
/// ply 2 spent up to 54 s proving one position lost, which in the tree the book answers at once.
/// One round is not enough where the book also holds every position of the first plies: there
/// every move's replies are in it, and only a deeper look tells the tree's move from the others.
fn within_book(book: Option<&Book>, pos: &Position, moves: Vec<Column>) -> Vec<Column> {
    let Some(book) = book else { return moves };
    let mut chosen = moves;
    for rounds in 1..=BOOK_ROUNDS {
        let deeper: Vec<Column> = chosen
            .iter()
            .copied()
            .filter(|&c| book_covers(book, &pos.played(c).expect("legal column"), rounds))
            .collect();
        if deeper.is_empty() {
            break;
        }
        chosen = deeper;
    }
    chosen
}

/// Whether `book` answers `rounds` rounds from `pos` (the opponent to move): it holds the
/// position after every reply (or the reply ends the game), and from each, with one more
/// round to go, it holds a move of the mover's that keeps that position's value and after
/// which it answers the remaining rounds (or a move that wins at once).
fn book_covers(book: &Book, pos: &Position, rounds: u32) -> bool {
    pos.is_over()
        || pos.legal_columns().into_iter().all(|reply| {
            let after = pos.played(reply).expect("legal column");
            if after.is_over() {
                return true;
            }
            let Some(value) = book.value(&after) else {
                return false;
            };
            rounds == 1
                || after.legal_columns().into_iter().any(|answer| {
                    let next = after.played(answer).expect("legal column");
                    match next.outcome() {
                        Some(outcome) => outcome.result == GameResult::Win(after.to_move()),
                        None => {
                            book.value(&next).map(|v| v.result) == Some(value.result)
                                && book_covers(book, &next, rounds - 1)
                        }
                    }
                })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::notation;
    use crate::engine::outcome::Player;
    use crate::engine::rules::{Rules, Variant};
    use crate::solver::Value;

    /// A lost misère position whose book holds one quiet losing move: the move that stacks a
    /// fourth disc of the mover's (and loses at once) is not offered beside it.
    #[test]
    fn a_book_never_offers_a_move_that_loses_at_once() {
        let rules = Rules::new(4, 7, 6, Variant::Misere).unwrap();
        // P1 has three discs on top of each other in column 7 and is to move.
        let (pos, _) = notation::parse(rules, "737173").unwrap();
        let lost = Value {
            result: GameResult::Win(Player::P2),
            remoteness: None,
        };
        let quiet = pos.played(Column::from_number(4).unwrap()).unwrap();
        let book = Book::from_values(rules, [(pos, lost), (quiet, lost)]);
        match book_moves(Some(&book), &pos) {
            Some(BookMoves::Keeping(keeping)) => {
                assert_eq!(keeping.moves, vec![Column::from_number(4).unwrap()]);
                assert!(!keeping.complete);
            }
            _ => panic!("the book's quiet move keeps the value"),
        }
    }

    /// A lost misère position (k = 3, 4x4) where every move either completes the mover's own
    /// line or lets the opponent win with its next disc: the perfect player takes the slower
    /// loss, never the move that loses at once.
    #[test]
    fn in_a_lost_position_the_move_that_loses_at_once_is_not_chosen() {
        let rules = Rules::new(3, 4, 4, Variant::Misere).unwrap();
        let (pos, _) = notation::parse(rules, "414432214").unwrap();
        let column = |n| Column::from_number(n).unwrap();
        assert_eq!(pos.legal_columns(), vec![column(1), column(2), column(3)]);
        let loses_at_once = |n| pos.played(column(n)).unwrap().outcome().is_some();
        assert!(loses_at_once(1) && loses_at_once(3) && !loses_at_once(2));
        assert_eq!(safest_moves(&pos, pos.legal_columns()), vec![column(2)]);
    }

    /// Two first moves whose replies the book holds alike: the one after which the book also
    /// holds an answer to each reply, and the replies to that, is the one kept.
    #[test]
    fn the_book_move_is_told_apart_by_looking_a_round_deeper() {
        let rules = Rules::new(4, 7, 6, Variant::Misere).unwrap();
        let lost = Value {
            result: GameResult::Win(Player::P2),
            remoteness: None,
        };
        let at = |moves: &str| notation::parse(rules, moves).unwrap().0;
        let column = |n| Column::from_number(n).unwrap();
        let mut entries = Vec::new();
        for reply in 1..=7 {
            // Both "1" and "2" have every reply in the book; only after "1" does it go on.
            entries.push((at(&format!("1{reply}")), lost));
            entries.push((at(&format!("2{reply}")), lost));
            entries.push((at(&format!("1{reply}1")), lost));
            for second in 1..=7 {
                entries.push((at(&format!("1{reply}1{second}")), lost));
            }
        }
        let book = Book::from_values(rules, entries);
        let empty = Position::new(rules);
        let both = vec![column(1), column(2)];
        assert!(book_covers(&book, &empty.played(column(2)).unwrap(), 1));
        assert!(!book_covers(&book, &empty.played(column(2)).unwrap(), 2));
        assert!(book_covers(&book, &empty.played(column(1)).unwrap(), 2));
        assert_eq!(
            within_book(Some(&book), &empty, both.clone()),
            vec![column(1)]
        );
        // Without the book, or where it holds no reply of either, both stay.
        assert_eq!(within_book(None, &empty, both.clone()), both);
        let other = Book::from_values(rules, [(at("44"), lost)]);
        assert_eq!(within_book(Some(&other), &empty, both.clone()), both);
    }
}
