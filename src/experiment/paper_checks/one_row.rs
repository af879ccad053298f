//! The paper's analysis of one-row k = 2 boards (its section E) as checks: the claims about
//! single moves on widths 4 and 6 ("O must take the opposite wall"), and Table II's effect of
//! each named play on the tally, on every position of small rows.
//!
//! The Table II check shares nothing with the tally strategy in `strategy::tally`: plays are
//! named here by where they fall against the templates (the paper's definitions), and the tally
//! is counted by trying every way to fill each stretch of empty cells.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::engine::notation;
use crate::engine::outcome::{GameResult, Player};
use crate::engine::position::Column;
use crate::engine::rules::Rules;
use crate::solver::Solver;

/// A claim about the moves open to the player to move after a line of play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveClaim {
    /// The moves played before, in the command line's notation (empty for the empty board).
    #[serde(default)]
    pub after: String,
    /// The moves the claim is about, as columns from 1.
    pub moves: Vec<u32>,
    /// The game's value after each of `moves` under perfect play: `P1`, `P2` or `Draw`.
    pub value: String,
    /// What the other legal moves give: `differ` (the claimed moves are a "must": every other
    /// move changes the value), an outcome they all give, or nothing claimed.
    #[serde(default)]
    pub others: Option<String>,
}

/// What one check of this module found.
pub(crate) struct Finding {
    /// The player the check is about: the one to move for a move claim, the mover for Table II.
    pub player: Option<Player>,
    /// Whether the claim held.
    pub holds: bool,
    /// What was seen: every legal move's value (`after 1: 2 P1, 3 P1, 4 Draw`), or how many
    /// plays of each name.
    pub detail: String,
    /// A move string ending with the move that contradicts the claim.
    pub refutation: Option<String>,
}

impl Finding {
    /// A claim that could not be checked on this board, with the reason.
    fn unusable(detail: String) -> Finding {
        Finding {
            player: None,
            holds: false,
            detail,
            refutation: None,
        }
    }
}

/// Checks each move claim on `rules` with the exact solver, one finding per claim (a claim
/// whose line or moves cannot be read on this board is one that does not hold).
pub(crate) fn check_all_moves(
    rules: Rules,
    claims: &[MoveClaim],
    solver: &mut Solver,
) -> Vec<Finding> {
    claims
        .iter()
        .map(|claim| check_moves(rules, claim, solver).unwrap_or_else(Finding::unusable))
        .collect()
}

/// Checks Table II on `rules` for each side, when it is a one-row board with k = 2.
pub(crate) fn check_table_2_both(rules: Rules) -> Vec<Finding> {
    if rules.k() != 2 || rules.height() != 1 {
        return vec![Finding::unusable(
            "Table II is about one-row boards with k = 2".into(),
        )];
    }
    [Player::P1, Player::P2]
        .into_iter()
        .map(|mover| check_table_2(rules, mover))
        .collect()
}

/// Checks one move claim on `rules` with the exact solver.
fn check_moves(rules: Rules, claim: &MoveClaim, solver: &mut Solver) -> Result<Finding, String> {
    let outcome = |label: &str| {
        GameResult::from_label(label).ok_or(format!("outcome {label:?}: give P1, P2 or Draw"))
    };
    let value = outcome(&claim.value)?;
    let others = match claim.others.as_deref() {
        None => None,
        Some("differ") => Some(None),
        Some(label) => Some(Some(outcome(label)?)),
    };
    let (start, line) = notation::parse(rules, &claim.after)
        .map_err(|e| format!("after {:?}: {e}", claim.after))?;
    if let Some(&bad) = claim
        .moves
        .iter()
        .find(|&&m| Column::from_number(m).is_none_or(|c| !start.has_room(c) || start.is_over()))
    {
        return Err(format!("move {bad} is not legal after {:?}", claim.after));
    }
    let mut values = Vec::new();
    for column in start.legal_columns() {
        let next = start.played(column).map_err(|e| e.to_string())?;
        let found = match next.outcome() {
            Some(end) => end.result,
            None => solver.solve_weak(&next).value.result,
        };
        values.push((column, found));
    }
    let wrong = values.iter().find(|&&(column, found)| {
        if claim.moves.contains(&column.number()) {
            found != value
        } else {
            match others {
                None => false,
                Some(None) => found == value,
                Some(Some(expected)) => found != expected,
            }
        }
    });
    let shown: Vec<String> = values
        .iter()
        .map(|(c, v)| format!("{} {}", c.number(), v.label()))
        .collect();
    let after = if claim.after.is_empty() {
        "empty board".to_string()
    } else {
        claim.after.clone()
    };
    Ok(Finding {
        player: Some(start.to_move()),
        holds: wrong.is_none(),
        detail: format!("after {after}: {}", shown.join(", ")),
        refutation: wrong.map(|&(column, _)| {
            let mut moves = line.clone();
            moves.push(column);
            notation::format(rules, &moves)
        }),
    })
}

/// The named plays of Table II.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum NamedPlay {
    /// Agrees with a template that reaches the cell.
    InTemplate,
    /// Goes against the templates of a stretch with discs at both ends.
    DoubleContradiction,
    /// Goes against the template of a stretch that ends at a wall the opponent is due.
    Offensive,
    /// Goes against the template of a stretch that ends at a wall the mover is due.
    SelfImmolation,
}

impl NamedPlay {
    /// The four, in Table II's order.
    const ALL: [NamedPlay; 4] = [
        NamedPlay::InTemplate,
        NamedPlay::DoubleContradiction,
        NamedPlay::Offensive,
        NamedPlay::SelfImmolation,
    ];

    /// The name the paper gives it.
    fn name(self) -> &'static str {
        match self {
            NamedPlay::InTemplate => "in-template",
            NamedPlay::DoubleContradiction => "double contradiction",
            NamedPlay::Offensive => "offensive",
            NamedPlay::SelfImmolation => "self-immolation",
        }
    }

    /// Table II: the change of (the mover's tally, the opponent's tally).
    fn table_2(self) -> (i32, i32) {
        match self {
            NamedPlay::InTemplate => (-1, 0),
            NamedPlay::DoubleContradiction => (-2, -1),
            NamedPlay::Offensive => (-1, -1),
            NamedPlay::SelfImmolation => (-2, 0),
        }
    }
}

/// A one-row board as its cells, each empty or held by a player.
type Row = Vec<Option<Player>>;

/// The player a disc of `owner` at `from` puts in `cell` by its template (alternating
/// outward from it).
fn due(owner: Player, from: usize, cell: usize) -> Player {
    if from.abs_diff(cell).is_multiple_of(2) {
        owner
    } else {
        owner.other()
    }
}

/// The named play of `mover` taking the empty `cell` of `row`, or `None` when the row is
/// empty (no template yet) or the move puts two of the mover's discs side by side (it loses).
fn name_play(row: &[Option<Player>], cell: usize, mover: Player) -> Option<NamedPlay> {
    let beside = |c: Option<usize>| c.and_then(|c| row.get(c).copied().flatten());
    if beside(cell.checked_sub(1)) == Some(mover) || beside(Some(cell + 1)) == Some(mover) {
        return None;
    }
    let left = (0..cell).rev().find(|&c| row[c].is_some());
    let right = (cell + 1..row.len()).find(|&c| row[c].is_some());
    let agrees = |at: usize| row[at].map(|owner| due(owner, at, cell)) == Some(mover);
    Some(match (left, right) {
        (None, None) => return None,
        (Some(l), Some(r)) if agrees(l) || agrees(r) => NamedPlay::InTemplate,
        (Some(_), Some(_)) => NamedPlay::DoubleContradiction,
        (Some(disc), None) | (None, Some(disc)) if agrees(disc) => NamedPlay::InTemplate,
        (Some(disc), None) | (None, Some(disc)) => {
            let wall = if left.is_none() { 0 } else { row.len() - 1 };
            let owner = row[disc].expect("a disc");
            if due(owner, disc, wall) == mover {
                NamedPlay::SelfImmolation
            } else {
                NamedPlay::Offensive
            }
        }
    })
}

/// What bounds a stretch of empty cells on one side: a wall or a player's disc.
type End = Option<Player>;

/// Counts the tally by exhaustion: each stretch of empty cells is filled in every way that
/// puts no two equal discs side by side and leaves no cell either player could still take;
/// the fullest of those fillings are the games of in-template moves, and the discs each
/// player gets in them are counted. The paper says the count does not depend on the template
/// used; `None` when the fullest fillings disagree (or the row is empty), so that such a row
/// is reported.
struct TallyCounter {
    /// Counts per stretch (left end, right end, length), remembered.
    known: HashMap<(End, End, usize), Option<(u32, u32)>>,
}

impl TallyCounter {
    fn new() -> TallyCounter {
        TallyCounter {
            known: HashMap::new(),
        }
    }

    /// The tally (P1's moves, P2's moves) of `row`.
    fn tally(&mut self, row: &[Option<Player>]) -> Option<(u32, u32)> {
        if row.iter().all(Option::is_none) {
            return None;
        }
        let mut total = (0, 0);
        let mut start = 0;
        while start < row.len() {
            if row[start].is_some() {
                start += 1;
                continue;
            }
            let end = (start..row.len())
                .find(|&c| row[c].is_some())
                .unwrap_or(row.len());
            let left = start.checked_sub(1).and_then(|c| row[c]);
            let right = row.get(end).copied().flatten();
            let key = (left, right, end - start);
            let counts = *self
                .known
                .entry(key)
                .or_insert_with(|| stretch_counts(left, right, end - start));
            let (p1, p2) = counts?;
            total = (total.0 + p1, total.1 + p2);
            start = end;
        }
        Some(total)
    }
}

/// The counts of the fullest fillings of a stretch of `length` empty cells between `left` and
/// `right` (those leaving the fewest cells that neither player can take: the moves that go
/// with a template), when they all agree.
fn stretch_counts(left: End, right: End, length: usize) -> Option<(u32, u32)> {
    let mut cells: Row = vec![None; length + 2];
    cells[0] = left;
    cells[length + 1] = right;
    let mut fullest: Option<(u32, u32)> = None;
    let mut agree = true;
    fill(&mut cells, 1, &mut |filled: &[Option<Player>]| {
        let inner = &filled[1..=length];
        let count = |p: Player| inner.iter().filter(|&&c| c == Some(p)).count() as u32;
        let counts = (count(Player::P1), count(Player::P2));
        let discs = |c: (u32, u32)| c.0 + c.1;
        match fullest {
            Some(best) if discs(best) > discs(counts) => {}
            Some(best) if discs(best) == discs(counts) => agree &= best == counts,
            _ => {
                fullest = Some(counts);
                agree = true;
            }
        }
    });
    fullest.filter(|_| agree)
}

/// Calls `found` with every maximal safe filling of `cells[at..len-1]` (the two ends fixed).
fn fill(cells: &mut Row, at: usize, found: &mut impl FnMut(&[Option<Player>])) {
    let last = cells.len() - 1;
    if at == last {
        let open = (1..last).any(|c| {
            cells[c].is_none()
                && [Player::P1, Player::P2]
                    .iter()
                    .any(|&p| cells[c - 1] != Some(p) && cells[c + 1] != Some(p))
        });
        if !open {
            found(cells);
        }
        return;
    }
    for choice in [None, Some(Player::P1), Some(Player::P2)] {
        if choice.is_some()
            && (cells[at - 1] == choice || (at + 1 == last && cells[last] == choice))
        {
            continue;
        }
        cells[at] = choice;
        fill(cells, at + 1, found);
    }
    cells[at] = None;
}

/// Checks Table II on every position of a one-row board of `width` where `mover` is to move
/// (discs placed so that no two equal ones touch, P1 having as many discs as P2 when P1 is to
/// move and one more when P2 is): each play that does not lose at once is named by the
/// templates, and the change of the tally it makes must be Table II's.
fn check_table_2(rules: Rules, mover: Player) -> Finding {
    let width = rules.width() as usize;
    let mut counter = TallyCounter::new();
    let mut seen: HashMap<NamedPlay, u64> = HashMap::new();
    let mut positions = 0u64;
    let mut first_wrong: Option<String> = None;
    for row in rows(width) {
        let p1 = row.iter().filter(|&&c| c == Some(Player::P1)).count();
        let p2 = row.iter().filter(|&&c| c == Some(Player::P2)).count();
        let turn_ok = if mover == Player::P1 {
            p1 == p2
        } else {
            p1 == p2 + 1
        };
        if !turn_ok || p1 == 0 || p1 + p2 == width {
            continue;
        }
        positions += 1;
        for cell in (0..width).filter(|&c| row[c].is_none()) {
            let Some(play) = name_play(&row, cell, mover) else {
                continue;
            };
            *seen.entry(play).or_default() += 1;
            let mut after = row.clone();
            after[cell] = Some(mover);
            let change = counter
                .tally(&row)
                .zip(counter.tally(&after))
                .map(|(b, a)| {
                    let of = |t: (u32, u32), p: Player| {
                        if p == Player::P1 {
                            t.0 as i32
                        } else {
                            t.1 as i32
                        }
                    };
                    (
                        of(a, mover) - of(b, mover),
                        of(a, mover.other()) - of(b, mover.other()),
                    )
                });
            if change != Some(play.table_2()) && first_wrong.is_none() {
                first_wrong = Some(format!(
                    "{} (its last move {}): tally change {}, Table II says {:?}",
                    line_to(rules, &row, cell),
                    play.name(),
                    change.map_or("not defined".into(), |c| format!("{c:?}")),
                    play.table_2()
                ));
            }
        }
    }
    let counts: Vec<String> = NamedPlay::ALL
        .iter()
        .map(|p| format!("{} {}", p.name(), seen.get(p).copied().unwrap_or(0)))
        .collect();
    Finding {
        player: Some(mover),
        holds: first_wrong.is_none(),
        detail: format!("{positions} positions; plays: {}", counts.join(", ")),
        refutation: first_wrong,
    }
}

/// Every row of `width` cells with no two equal discs side by side.
fn rows(width: usize) -> Vec<Row> {
    let mut out: Vec<Row> = vec![Vec::new()];
    for _ in 0..width {
        let mut longer = Vec::with_capacity(out.len() * 3);
        for row in out {
            let last = row.last().copied().flatten();
            for cell in [None, Some(Player::P1), Some(Player::P2)] {
                if cell.is_none() || cell != last {
                    let mut next = row.clone();
                    next.push(cell);
                    longer.push(next);
                }
            }
        }
        out = longer;
    }
    out
}

/// A move string reaching `row` on the board of `rules` and then taking `cell` (P1's discs and
/// P2's taken in turn, each from the left: on one row with k = 2 no order of them completes a
/// line, since no two equal discs touch).
fn line_to(rules: Rules, row: &[Option<Player>], cell: usize) -> String {
    let of = |p: Player| (0..row.len()).filter(move |&c| row[c] == Some(p));
    let (p1, p2): (Vec<usize>, Vec<usize>) = (of(Player::P1).collect(), of(Player::P2).collect());
    let mut moves = Vec::new();
    for i in 0..p1.len().max(p2.len()) {
        moves.extend(p1.get(i).map(|&c| Column::new(c as u32)));
        moves.extend(p2.get(i).map(|&c| Column::new(c as u32)));
    }
    moves.push(Column::new(cell as u32));
    notation::format(rules, &moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Player::{P1, P2};

    #[test]
    fn the_papers_tally_examples_count_by_exhaustion() {
        let mut counter = TallyCounter::new();
        assert_eq!(
            counter.tally(&[None, Some(P1), Some(P2), None, None]),
            Some((1, 2))
        );
        assert_eq!(
            counter.tally(&[Some(P1), None, None, None, Some(P2)]),
            Some((1, 1))
        );
    }

    #[test]
    fn the_papers_examples_of_each_play_are_named_as_it_names_them() {
        // X---O: X in the cell next to O agrees with O's template.
        let x3o = [Some(P1), None, None, None, Some(P2)];
        assert_eq!(name_play(&x3o, 3, P1), Some(NamedPlay::InTemplate));
        // The paper's XO------ then X in the sixth cell: O's template gives the wall cell to O.
        let xo = [Some(P1), Some(P2), None, None, None, None, None, None];
        assert_eq!(name_play(&xo, 5, P1), Some(NamedPlay::Offensive));
        // XO----- then X in the sixth cell: the wall cell is X's by O's template.
        let xo7 = [Some(P1), Some(P2), None, None, None, None, None];
        assert_eq!(name_play(&xo7, 5, P1), Some(NamedPlay::SelfImmolation));
        // Two equal discs side by side: a lost move, not a play of the table.
        assert_eq!(name_play(&xo7, 2, P2), None);
    }

    #[test]
    fn a_false_must_is_refuted_with_the_move_that_shows_it() {
        let rules = Rules::new(2, 6, 1, crate::engine::rules::Variant::Misere).unwrap();
        let mut solver = Solver::new(crate::solver::Mib(16));
        let claim = |moves: Vec<u32>, others: &str| MoveClaim {
            after: "1".into(),
            moves,
            value: "Draw".into(),
            others: Some(others.into()),
        };
        let right = check_all_moves(rules, &[claim(vec![6], "differ")], &mut solver);
        assert!(right[0].holds, "{}", right[0].detail);
        // Claiming that 5 also keeps the draw is false: O loses after 15.
        let wrong = check_all_moves(rules, &[claim(vec![5, 6], "differ")], &mut solver);
        assert!(!wrong[0].holds);
        assert_eq!(wrong[0].refutation.as_deref(), Some("15"));
        // A move that is not on the board is an unusable claim, not a pass.
        let off = check_all_moves(rules, &[claim(vec![7], "differ")], &mut solver);
        assert!(!off[0].holds && off[0].detail.contains("not legal"));
    }

    #[test]
    fn a_tables_counterexample_is_a_line_that_replays_to_it() {
        let rules = |w| Rules::new(2, w, 1, crate::engine::rules::Variant::Misere).unwrap();
        let row = [Some(P1), None, Some(P2), None];
        assert_eq!(line_to(rules(4), &row, 3), "134");
        let (pos, _) = notation::parse(rules(4), "13").unwrap();
        assert_eq!(
            pos.cell(crate::engine::outcome::Cell { column: 2, row: 0 }),
            Some(P2)
        );
        let mut wide = [None; 10];
        wide[9] = Some(P1);
        assert_eq!(line_to(rules(10), &wide, 0), "10,1");
    }

    #[test]
    fn a_wrong_table_is_caught() {
        // The check is not vacuous: an offensive play does change both tallies.
        let mut counter = TallyCounter::new();
        let before = [Some(P1), Some(P2), None, None, None, None, None, None];
        let mut after = before;
        after[5] = Some(P1);
        assert_eq!(counter.tally(&before), Some((3, 3)));
        assert_eq!(counter.tally(&after), Some((2, 2)));
    }
}
