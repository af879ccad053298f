//! The patterns a sweep's rows show: the boards are put in classes by what the paper's
//! arguments turn on (height one, odd or even; the parity of the circumference; whether a
//! row of k fits around it; k = 2), and each class is read for the outcome most of its
//! boards share and the boards that break it.

use std::collections::BTreeMap;

use super::row::Row;
use crate::engine::outcome::GameResult;
use crate::engine::rules::Variant;

/// A class of boards: a name and the test a board of it passes.
#[derive(Clone, Copy)]
pub(crate) struct Class {
    /// What the boards of the class have in common, in words.
    pub name: &'static str,
    /// Whether a board (k, width, height) belongs to the class.
    pub holds: fn(u32, u32, u32) -> bool,
}

/// Whether no line fits on a cylinder of this size: a row of k needs `k <= width`, a column
/// or a diagonal `k <= height`.
fn no_line_fits(k: u32, w: u32, h: u32) -> bool {
    k > w && k > h
}

/// The classes, in the order the report lists them. Every board with some line falls in
/// exactly one of them (the test below checks it).
pub(crate) const CLASSES: [Class; 12] = [
    Class {
        name: "no line fits (k > w and k > h)",
        holds: no_line_fits,
    },
    Class {
        name: "h = 1, k = 2, w odd",
        holds: |k, w, h| h == 1 && k == 2 && w % 2 == 1 && w >= k,
    },
    Class {
        name: "h = 1, k = 2, w even",
        holds: |k, w, h| h == 1 && k == 2 && w % 2 == 0,
    },
    Class {
        name: "h = 1, k >= 3, w >= k, w odd",
        holds: |k, w, h| h == 1 && k >= 3 && w >= k && w % 2 == 1,
    },
    Class {
        name: "h = 1, k >= 3, w >= k, w even",
        holds: |k, w, h| h == 1 && k >= 3 && w >= k && w % 2 == 0,
    },
    Class {
        name: "odd h >= 3, k = 2, w odd",
        holds: |k, w, h| h >= 3 && h % 2 == 1 && k == 2 && w % 2 == 1 && w >= k,
    },
    Class {
        name: "odd h >= 3, k = 2, w even",
        holds: |k, w, h| h >= 3 && h % 2 == 1 && k == 2 && w % 2 == 0,
    },
    Class {
        name: "odd h >= 3, k >= 3, w >= k, w odd",
        holds: |k, w, h| h >= 3 && h % 2 == 1 && k >= 3 && w >= k && w % 2 == 1,
    },
    Class {
        name: "odd h >= 3, k >= 3, w >= k, w even",
        holds: |k, w, h| h >= 3 && h % 2 == 1 && k >= 3 && w >= k && w % 2 == 0,
    },
    Class {
        name: "odd h >= 3, w < k <= h (no row fits; columns and winding diagonals do)",
        holds: |k, w, h| h >= 3 && h % 2 == 1 && w < k && k <= h,
    },
    Class {
        name: "even h, w >= k",
        holds: |k, w, h| h % 2 == 0 && w >= k,
    },
    Class {
        name: "even h, w < k <= h (no row fits; columns and winding diagonals do)",
        holds: |k, w, h| h % 2 == 0 && w < k && k <= h,
    },
];

/// What the rows of one class and rule set show.
#[derive(Clone, Debug)]
pub(crate) struct Pattern<'a> {
    /// The rule set.
    pub variant: Variant,
    /// The class's name.
    pub class: &'static str,
    /// How many boards of the class each outcome has, most common first.
    pub counts: Vec<(GameResult, usize)>,
    /// The boards with the most common outcome.
    pub supporting: Vec<&'a Row>,
    /// The boards with another outcome.
    pub exceptions: Vec<&'a Row>,
}

impl Pattern<'_> {
    /// The outcome most boards of the class have.
    pub(crate) fn outcome(&self) -> GameResult {
        self.counts[0].0
    }
}

/// The pattern of every class that has rows, for each rule set (misère first).
pub(crate) fn patterns(rows: &[Row]) -> Vec<Pattern<'_>> {
    let mut found = Vec::new();
    for variant in [Variant::Misere, Variant::Normal] {
        for class in CLASSES {
            let members: Vec<&Row> = rows
                .iter()
                .filter(|r| r.rules == variant && (class.holds)(r.k, r.width, r.height))
                .collect();
            if members.is_empty() {
                continue;
            }
            // Keyed by label, so that equal counts keep the order of their labels.
            let mut tally: BTreeMap<&str, (GameResult, usize)> = BTreeMap::new();
            for row in &members {
                tally
                    .entry(row.outcome.label())
                    .or_insert((row.outcome, 0))
                    .1 += 1;
            }
            let mut counts: Vec<(GameResult, usize)> = tally.into_values().collect();
            counts.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
            let outcome = counts[0].0;
            let (supporting, exceptions) = members.into_iter().partition(|r| r.outcome == outcome);
            found.push(Pattern {
                variant,
                class: class.name,
                counts,
                supporting,
                exceptions,
            });
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_board_falls_in_exactly_one_class() {
        for k in 2..=9 {
            for w in 1..=40 {
                for h in 1..=40 {
                    let classes: Vec<&str> = CLASSES
                        .iter()
                        .filter(|c| (c.holds)(k, w, h))
                        .map(|c| c.name)
                        .collect();
                    assert_eq!(classes.len(), 1, "k={k} {w}x{h}: {classes:?}");
                }
            }
        }
    }
}
