//! When a loss comes that one of the opponent's strategies proves: the strategy bounds of
//! [`crate::solver::search::expand`] and [`super::base_pairs`] give the winner every cell of some line, and the
//! game is over by the time that line's last empty cell is filled.

use crate::engine::bits::Bits;
use crate::engine::position::Position;

use crate::solver::score::Score;

/// How late the mover's loss can come, as an upper bound on its score, when a strategy of the
/// winner's (the owner of `discs`) gives it every empty cell of `cells` as the game goes on,
/// every line it completes ends the game in the mover's loss, and the game cannot end
/// otherwise before the board is full. Each line of `discs` and `cells` is then complete, and
/// the game over, by the ply that fills the last of its empty cells, when the cells above that
/// one in its column are still empty. If every empty cell of the line has at least `above`
/// empty cells over it, the game ends at least `above` plies before the board is full, so the
/// mover scores at most `-(1 + above)` (see [`crate::solver::score::loss_at`]).
///
/// Returns that bound for the line with the largest `above`, or [`Score::MAX`] when no line
/// gives a bound at most `enough` (when `enough` is -1 or more: when there is no line). Rows
/// are counted from the bottom of the board, so the bound holds on cylinders as well.
pub(crate) fn latest_loss<B: Bits>(pos: &Position<B>, discs: B, cells: B, enough: Score) -> Score {
    let h = pos.rules().height();
    let mut above = above_needed(enough);
    if !line_low_enough(pos, discs, cells, above) {
        return Score::MAX;
    }
    while above + 1 < h && line_low_enough(pos, discs, cells, above + 1) {
        above += 1;
    }
    -(1 + above as Score)
}

/// The fewest empty cells over each empty cell of a line for [`latest_loss`] to give a bound
/// at most `enough`.
pub(crate) fn above_needed(enough: Score) -> u32 {
    (-1 - enough).max(0).unsigned_abs()
}

/// Whether `discs` and the cells of `cells` with at least `above` empty cells over them hold
/// a line (never when `above` is the height or more: no cell has that many over it).
pub(crate) fn line_low_enough<B: Bits>(pos: &Position<B>, discs: B, cells: B, above: u32) -> bool {
    let h = pos.rules().height();
    above < h
        && pos
            .layout()
            .has_line(discs | (cells & pos.layout().lowest_rows(h - above)))
}

/// A strategy's loss bound (`loss`, from [`latest_loss`]) for a caller that needs a bound at
/// most `enough`, to be read once the rest of the strategy is known to hold. Below -1 only a
/// loss before the last ply will do, and its line is the quickest of the strategy's conditions
/// to rule out: it is looked for at once, and `None` means the strategy is of no use. From -1
/// up (the windows of an outcome) it is looked for last, only when the rest holds, as before
/// bounds told the ply of a loss.
pub(crate) fn loss_when_needed(
    enough: Score,
    loss: impl Fn() -> Score,
) -> Option<impl Fn() -> Score> {
    let early = if enough < -1 {
        match loss() {
            Score::MAX => return None,
            early => Some(early),
        }
    } else {
        None
    };
    Some(move || early.unwrap_or_else(&loss))
}
