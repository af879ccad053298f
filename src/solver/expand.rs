//! What a node of the search can decide before searching its children, for each variant.
//!
//! Each function either settles the node's score outright or returns the moves worth searching
//! with bounds on the score. Every rule below is exact: it never drops a move that could be
//! strictly better than the moves it keeps, so values and remoteness stay exact.

use crate::engine::bits::{BitIter, Bits};
use crate::engine::position::Position;
use crate::engine::rules::Variant;

use super::score::{Score, loss_at, win_at};

/// The result of looking at a node before searching it.
pub enum Expansion<B> {
    /// The score is known without searching.
    Decided(Score),
    /// Search these moves; the score is known to lie in `lower..=upper`.
    Open {
        /// Moves to search, as single bits of a set.
        moves: B,
        /// Lower bound on the node's score.
        lower: Score,
        /// Upper bound on the node's score.
        upper: Score,
    },
}

/// Looks at a non-terminal position with at least one empty cell.
#[inline]
pub fn expand<B: Bits>(pos: &Position<B>) -> Expansion<B> {
    let expansion = match pos.rules().variant() {
        Variant::Normal => expand_normal(pos),
        Variant::Misere => expand_misere(pos),
    };
    let Expansion::Open {
        moves,
        lower,
        upper,
    } = expansion
    else {
        return expansion;
    };
    match prune_with_open_lines(pos, moves, lower, upper) {
        Expansion::Open {
            moves,
            lower,
            upper,
        } => {
            let upper = upper.min(bound_by_follow_up(pos));
            if lower >= upper {
                debug_assert_eq!(lower, upper, "contradictory bounds");
                Expansion::Decided(upper)
            } else {
                Expansion::Open {
                    moves,
                    lower,
                    upper,
                }
            }
        }
        decided => decided,
    }
}

/// An upper bound on the mover's score from the opponent's follow-up strategy ("claimeven",
/// Allis 1988; the take-even strategy of the misère paper): the opponent answers every move on
/// top of it, in the same column, for the rest of the game. In each column the mover then gets
/// the 1st, 3rd, 5th, ... empty cell from the bottom and the opponent the 2nd, 4th, ... while
/// the column has a cell to answer on. A column with an odd number of empty cells leaves its
/// top cell unanswered; the mover fills it, and the strategy holds only while no such top cell
/// has been reached. Returns [`Score::MAX`] when no bound follows.
///
/// Normal rules, when the mover cannot make a line on its discs and its cells:
/// - every column has an even number of empty cells: the mover cannot win (0), and if the
///   opponent can make a line on its discs and its cells, the mover loses (-1, the latest loss);
/// - otherwise, if every column with an odd number of empty cells has, on one of the opponent's
///   cells, a cell that completes an opponent line now: the mover loses (-1). The opponent takes
///   that cell (and wins) when the mover plays below it, which the mover must do before it can
///   reach the unanswered top cell above it, and the board cannot fill up without it.
///
/// Misère rules, when every column has an even number of empty cells and the opponent cannot
/// make a line on its discs and its cells: the opponent never completes a line, so the mover
/// cannot win (0); if the mover can make a line on its own, it must complete one before the
/// board is full, and loses (-1).
#[inline]
fn bound_by_follow_up<B: Bits>(pos: &Position<B>) -> Score {
    let layout = pos.layout();
    let h = pos.rules().height();
    let empty = layout.full() & !pos.mask();
    // The mover's cells: in each column, the empty cells on the rows of the parity of the
    // column's lowest empty cell.
    let even_rows = layout.odd_rows(); // 0-based rows 0, 2, 4, ...
    let from_even_start = layout.at_or_above(pos.playable() & even_rows);
    let mover_cells = (from_even_start & even_rows) | (empty & !from_even_start & !even_rows);
    let follower_cells = empty & !mover_cells;
    // Columns with an odd number of empty cells: the mover owns their top cell.
    let unanswered = mover_cells & (layout.bottom() << (h - 1));
    let mover_line = || layout.has_line(pos.current() | mover_cells);
    let follower_line = || layout.has_line(pos.opponent() | follower_cells);
    match pos.rules().variant() {
        Variant::Normal if mover_line() => Score::MAX,
        Variant::Normal if unanswered.is_empty() => -Score::from(follower_line()),
        Variant::Normal => {
            let winning = layout.completing_cells(pos.opponent()) & follower_cells;
            if (unanswered & !layout.at_or_above(winning)).is_empty() {
                -1
            } else {
                Score::MAX
            }
        }
        Variant::Misere if !unanswered.is_empty() || follower_line() => Score::MAX,
        Variant::Misere => -Score::from(mover_line()),
    }
}

/// Tightens the bounds and the move list with the lines that can still be made.
///
/// A window of k cells is open for a player while it holds no opposing disc.
/// - A player with no open window can never complete a line. Under normal rules that player
///   can no longer win, so its score is at most a draw; under misère rules it can no longer
///   lose, so its score is at least a draw. If neither player has an open window, the board
///   will fill up without a line: a draw, decided now.
/// - An empty cell in no open window of either player is dead: what is played there never
///   matters to any line. If every cell above a playable dead cell is dead too, playing it
///   is a pure tempo move, and all such moves lead to positions that differ only in which
///   interchangeable dead cell was filled. Searching one of them is enough.
#[inline]
fn prune_with_open_lines<B: Bits>(
    pos: &Position<B>,
    moves: B,
    lower: Score,
    upper: Score,
) -> Expansion<B> {
    let layout = pos.layout();
    let empty = layout.full() & !pos.mask();
    let mine = layout.window_cells(pos.current() | empty);
    let theirs = layout.window_cells(pos.opponent() | empty);
    let (mut lower, mut upper) = (lower, upper);
    match (mine.is_empty(), theirs.is_empty()) {
        (true, true) => return Expansion::Decided(0),
        (false, false) => {}
        (mine_closed, _) => {
            // Exactly one player can still make a line; `mine_closed` says which.
            let cannot_lose = match pos.rules().variant() {
                Variant::Normal => !mine_closed,
                Variant::Misere => mine_closed,
            };
            if cannot_lose {
                // Normal: only my lines are open, so the opponent cannot win. Misère: I can
                // never complete a line, so I cannot lose.
                lower = lower.max(0);
            } else {
                upper = upper.min(0);
            }
        }
    }
    let dead = empty & !(mine | theirs);
    let mut tempo_seen = false;
    let mut kept = moves;
    for m in BitIter(moves & dead) {
        // Cells above `m` in its column: the column's cells at higher bits than `m`.
        let column = layout.column_mask(layout.bit_cell(m).column);
        let above = column & !((m << 1) - B::ONE);
        if (above & !dead).is_empty() {
            if tempo_seen {
                kept &= !m;
            }
            tempo_seen = true;
        }
    }
    Expansion::Open {
        moves: kept,
        lower,
        upper,
    }
}

/// Normal rules: the player who completes a line wins.
#[inline]
fn expand_normal<B: Bits>(pos: &Position<B>) -> Expansion<B> {
    let layout = pos.layout();
    let (cells, p) = (pos.rules().cells(), pos.plies());
    let playable = pos.playable();
    let empty = layout.full() & !pos.mask();

    // A line now is the quickest possible win.
    if !(layout.completing_cells(pos.current()) & playable).is_empty() {
        return Expansion::Decided(win_at(cells, p + 1));
    }
    let threats = layout.completing_cells(pos.opponent()) & empty;
    let mut moves = playable;
    let must_block = playable & threats;
    if !must_block.is_empty() {
        // Two playable threats: one can be blocked, the other wins with the next disc.
        if must_block != must_block.lowest() {
            return Expansion::Decided(loss_at(cells, p + 2));
        }
        // Any other move lets the opponent win with the next disc.
        moves = must_block;
    }
    // A disc just below an opponent's threat makes that threat playable, so the opponent wins
    // with the next disc: no kept move can be worse.
    moves &= !(threats >> 1);
    if moves.is_empty() {
        return Expansion::Decided(loss_at(cells, p + 2));
    }
    // No move wins now, and no kept move lets the opponent win next; a draw stays possible.
    Expansion::Open {
        moves,
        lower: loss_at(cells, p + 4).min(0),
        upper: win_at(cells, p + 3).max(0),
    }
}

/// Misère rules: the player who completes a line loses.
#[inline]
fn expand_misere<B: Bits>(pos: &Position<B>) -> Expansion<B> {
    let layout = pos.layout();
    let (cells, p) = (pos.rules().cells(), pos.plies());
    let playable = pos.playable();
    let empty = layout.full() & !pos.mask();

    // Cells that would complete my own line are suicide; if every playable cell is one, I lose now.
    let forbidden = layout.completing_cells(pos.current()) & empty;
    let safe = playable & !forbidden;
    if safe.is_empty() {
        return Expansion::Decided(loss_at(cells, p + 1));
    }
    // The quickest win: a safe move after which every cell the opponent can play completes one
    // of its own lines (and the board is not full, which would be a draw).
    let their_forbidden = layout.completing_cells(pos.opponent()) & empty;
    for m in BitIter(safe) {
        let theirs = (playable ^ m) | ((m << 1) & layout.full());
        if !theirs.is_empty() && (theirs & !their_forbidden).is_empty() {
            return Expansion::Decided(win_at(cells, p + 2));
        }
    }
    // I have a safe move, so I lose at ply p+3 at the earliest; no win at p+2 exists.
    let moves = drop_moves_losing_at_the_next_turn(pos, safe, their_forbidden);
    if moves.is_empty() {
        return Expansion::Decided(loss_at(cells, p + 3));
    }
    Expansion::Open {
        moves,
        lower: loss_at(cells, p + 3).min(0),
        upper: win_at(cells, p + 4).max(0),
    }
}

/// Misère rules: the safe moves after which the opponent has a safe reply that leaves me only
/// cells completing my own line (so I lose with my next disc, at ply p+3) are dropped.
///
/// Sound and exact: with a safe move available I cannot lose before ply p+3, so such a move
/// has the lowest score any move can have, and dropping it never changes the node's value
/// while another move is kept. When every safe move is dropped, the node is a loss at p+3,
/// which the caller reports. A reply that fills the board ends the game drawn, so it does not
/// count.
#[inline]
fn drop_moves_losing_at_the_next_turn<B: Bits>(
    pos: &Position<B>,
    safe: B,
    their_forbidden: B,
) -> B {
    let layout = pos.layout();
    let full = layout.full();
    let playable = pos.playable();
    let mut kept = safe;
    for m in BitIter(safe) {
        let mask = pos.mask() | m;
        let mine_forbidden = layout.completing_cells(pos.current() | m) & full & !mask;
        let their_playable = (playable ^ m) | ((m << 1) & full);
        let their_safe = their_playable & !their_forbidden;
        let loses = BitIter(their_safe).any(|r| {
            let after = mask | r;
            let my_playable = (their_playable ^ r) | ((r << 1) & full);
            after != full && (my_playable & !mine_forbidden).is_empty()
        });
        if loses {
            kept &= !m;
        }
    }
    kept
}
