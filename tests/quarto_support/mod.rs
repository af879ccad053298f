//! Helpers for the Quarto tests: a plain minimax written apart from the solver (its own
//! grid, lines and rules of play; no pruning, no symmetry, only a memo of exact scores) and
//! random games.

#![allow(dead_code)]

use std::cell::RefCell;
use std::collections::HashMap;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use connectk::quarto::{Position, Rules, Turn};
use connectk::{GameResult, Value, Variant};

/// A position of the plain game: the grid and the piece in hand.
type PlainKey = (Vec<Option<u8>>, Option<u8>);

/// A Quarto game as a plain grid of cells holding piece numbers.
pub struct Plain {
    size: usize,
    pieces: u8,
    criteria: u8,
    misere: bool,
    lines: Vec<Vec<usize>>,
    /// Exact scores already found, by grid and piece in hand (the turn follows from the
    /// grid), so that positions with eight pieces placed take seconds.
    memo: RefCell<HashMap<PlainKey, i32>>,
}

impl Plain {
    /// The plain game for `rules`, with its lines worked out here from the size.
    pub fn new(rules: &Rules) -> Plain {
        let n = rules.size() as usize;
        let mut lines: Vec<Vec<usize>> = Vec::new();
        for i in 0..n {
            lines.push((0..n).map(|j| i * n + j).collect());
            lines.push((0..n).map(|j| j * n + i).collect());
        }
        lines.push((0..n).map(|j| j * n + j).collect());
        lines.push((0..n).map(|j| j * n + (n - 1 - j)).collect());
        if rules.squares() {
            for r in 0..n - 1 {
                for c in 0..n - 1 {
                    lines.push(vec![
                        r * n + c,
                        r * n + c + 1,
                        (r + 1) * n + c,
                        (r + 1) * n + c + 1,
                    ]);
                }
            }
        }
        Plain {
            size: n,
            pieces: rules.pieces() as u8,
            criteria: rules.criteria(),
            misere: rules.variant() == Variant::Misere,
            lines,
            memo: RefCell::new(HashMap::new()),
        }
    }

    /// The grid of `pos`: the piece number on each cell, row by row from the bottom.
    fn grid(&self, pos: &Position) -> Vec<Option<u8>> {
        (0..(self.size * self.size) as u32)
            .map(|i| {
                let cell = connectk::quarto::Cell::at(
                    i % self.size as u32,
                    i / self.size as u32,
                    pos.rules(),
                )
                .unwrap();
                pos.board().piece_at(cell).map(|p| p.bits())
            })
            .collect()
    }

    /// Whether no line of `pos` can ever be completed: every line is full, or holds two
    /// pieces that differ on every counted attribute, or has more empty cells than there are
    /// pieces left (the one in hand included) with a value its pieces all share.
    pub fn every_line_dead(&self, pos: &Position) -> bool {
        let grid = self.grid(pos);
        let left: Vec<u8> = (0..self.pieces)
            .filter(|p| !grid.contains(&Some(*p)))
            .collect();
        self.lines.iter().all(|line| {
            let placed: Vec<u8> = line.iter().filter_map(|&c| grid[c]).collect();
            let empty = line.len() - placed.len();
            empty == 0
                || (0..4).filter(|a| self.criteria >> a & 1 == 1).all(|a| {
                    [0, 1].iter().all(|&v| {
                        placed.iter().any(|p| p >> a & 1 != v)
                            || left.iter().filter(|p| *p >> a & 1 == v).count() < empty
                    })
                })
        })
    }

    /// Whether some line through `cell` is full and shares a counted attribute.
    fn line_at(&self, grid: &[Option<u8>], cell: usize) -> bool {
        self.lines.iter().filter(|l| l.contains(&cell)).any(|line| {
            let pieces: Option<Vec<u8>> = line.iter().map(|&c| grid[c]).collect();
            pieces.is_some_and(|pieces| {
                (0..4).filter(|a| self.criteria >> a & 1 == 1).any(|a| {
                    pieces.iter().all(|p| p >> a & 1 == 1) || pieces.iter().all(|p| p >> a & 1 == 0)
                })
            })
        })
    }

    /// The value of `pos` by full minimax.
    pub fn value(&self, pos: &Position) -> Value {
        let n = self.size * self.size;
        let grid = self.grid(pos);
        let last = 1 + n.min(self.pieces as usize) as i32;
        let plies = pos.plies() as i32;
        let score = match pos.outcome() {
            Some(outcome) => match outcome.result {
                GameResult::Win(p) if p == pos.to_move() => last + 1 - plies,
                GameResult::Win(_) => -(last + 1 - plies),
                GameResult::Draw => 0,
            },
            None => self.score(&mut grid.clone(), pos.hand().map(|p| p.bits()), plies, last),
        };
        let to_move = pos.to_move();
        let result = match score.signum() {
            1 => GameResult::Win(to_move),
            -1 => GameResult::Win(to_move.other()),
            _ => GameResult::Draw,
        };
        let end = if score == 0 {
            last
        } else {
            last + 1 - score.abs()
        };
        Value {
            result,
            remoteness: Some((end - plies) as u32),
        }
    }

    /// Negamax score for the side to move holding `hand` after `plies` turns: a game ending
    /// at turn q scores last + 1 - q for its winner.
    fn score(&self, grid: &mut Vec<Option<u8>>, hand: Option<u8>, plies: i32, last: i32) -> i32 {
        let key = (grid.clone(), hand);
        if let Some(&score) = self.memo.borrow().get(&key) {
            return score;
        }
        let score = self.search(grid, hand, plies, last);
        self.memo.borrow_mut().insert(key, score);
        score
    }

    /// [`Plain::score`] without the memo: every turn tried.
    fn search(&self, grid: &mut Vec<Option<u8>>, hand: Option<u8>, plies: i32, last: i32) -> i32 {
        let q = plies + 1;
        let unused = |grid: &Vec<Option<u8>>, hand: Option<u8>| -> Vec<u8> {
            (0..self.pieces)
                .filter(|p| !grid.contains(&Some(*p)) && hand != Some(*p))
                .collect()
        };
        let Some(piece) = hand else {
            return unused(grid, None)
                .into_iter()
                .map(|p| -self.score(grid, Some(p), q, last))
                .max()
                .expect("pieces to hand over");
        };
        let mut best = i32::MIN;
        for cell in 0..grid.len() {
            if grid[cell].is_some() {
                continue;
            }
            grid[cell] = Some(piece);
            let left = unused(grid, None);
            let value = if self.line_at(grid, cell) {
                if self.misere {
                    -(last + 1 - q)
                } else {
                    last + 1 - q
                }
            } else if left.is_empty() || grid.iter().all(Option::is_some) {
                0
            } else {
                left.into_iter()
                    .map(|p| -self.score(grid, Some(p), q, last))
                    .max()
                    .expect("pieces left")
            };
            grid[cell] = None;
            best = best.max(value);
        }
        best
    }
}

/// A position reached by random turns from the empty board, with `placed` pieces on the
/// board (or fewer if every turn would end the game first), and its record.
pub fn random_position(rules: Rules, placed: u32, seed: u64) -> (Position, Vec<Turn>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Position::new(rules);
    let mut turns = Vec::new();
    while pos.board().count() < placed {
        let going_on: Vec<(Turn, Position)> = pos
            .legal_turns()
            .into_iter()
            .map(|t| (t, pos.play(t).expect("legal")))
            .filter(|(_, p)| !p.is_over())
            .collect();
        if going_on.is_empty() {
            break;
        }
        let (turn, next) = going_on[rng.random_range(0..going_on.len())].clone();
        turns.push(turn);
        pos = next;
    }
    (pos, turns)
}

/// Every position reachable from the empty board (finished ones included), depth first.
pub fn every_position(rules: Rules, visit: &mut impl FnMut(&Position)) {
    fn walk(pos: &Position, visit: &mut impl FnMut(&Position)) {
        visit(pos);
        for turn in pos.legal_turns() {
            walk(&pos.play(turn).expect("legal"), visit);
        }
    }
    walk(&Position::new(rules), visit);
}
