//! Symmetries of Quarto: permutations of the cells that map winning sets to winning sets,
//! permutations and complements of the counted attributes, and a canonical form of a
//! position under all of them together.
//!
//! Two positions related by a symmetry have the same value. Standard Quarto has 32 board
//! symmetries (the 8 rotations and reflections, times the swap of the inner and outer rows
//! and columns, times the swap of the two middle rows and columns; Kerner 2001) and 4! x 2^4
//! = 384 attribute maps, 12,288 in all.

use super::board::Board;
use super::piece::{Cell, Piece, bits_of};
use super::position::Turn;
use super::rules::Rules;

/// A board symmetry: `cells[i]` is the image of cell `i`.
pub(crate) type CellMap = [u8; 16];

/// The board symmetries of `rules`: every permutation of the cells that maps each winning
/// set onto a winning set, found by a backtracking search that gives cells their images in
/// index order and drops a partial map as soon as the mapped cells of a set lie in no
/// winning set of its size. The identity comes first.
pub fn board_symmetries(rules: &Rules) -> Vec<CellMap> {
    let mut found = Vec::new();
    let mut map = [0u8; 16];
    extend(rules, &mut map, 0, 0, &mut found);
    found
}

fn extend(rules: &Rules, map: &mut CellMap, cell: u32, taken: u16, found: &mut Vec<CellMap>) {
    if cell == rules.cells() {
        found.push(*map);
        return;
    }
    for image in bits_of(rules.all_cells() & !taken) {
        map[cell as usize] = image as u8;
        let assigned = (1u32 << (cell + 1)) as u16;
        let consistent = rules.lines().iter().all(|&set| {
            let done = set & assigned.wrapping_sub(1);
            set & (1 << cell) == 0
                || rules
                    .lines()
                    .iter()
                    .any(|&t| t.count_ones() == set.count_ones() && image_of(map, done) & !t == 0)
        });
        if consistent {
            extend(rules, map, cell + 1, taken | 1 << image, found);
        }
    }
}

/// The image of a cell mask under a cell map.
pub fn image_of(map: &CellMap, mask: u16) -> u16 {
    bits_of(mask).fold(0, |m, i| m | 1 << map[i as usize])
}

/// A symmetry of the whole game: a cell map, then a permutation of the counted attributes
/// (attribute `i` becomes attribute `attributes[i]`; uncounted ones stay), then complements
/// of the counted attributes in `flip`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transform {
    /// Image of each cell.
    pub cells: CellMap,
    /// Image of each attribute.
    pub attributes: [u8; 4],
    /// Attributes complemented after the permutation.
    pub flip: u8,
}

impl Transform {
    /// The image of a piece.
    pub fn piece(&self, piece: Piece) -> Piece {
        let bits = (0..4).fold(0u8, |b, i| {
            b | (piece.bits() >> i & 1) << self.attributes[i]
        });
        Piece::from_bits(bits ^ self.flip)
    }

    /// The image of a cell.
    pub(crate) fn cell(&self, cell: Cell) -> Cell {
        Cell::from_index(u32::from(self.cells[cell.index() as usize]))
    }

    /// The image of a turn: its cell and its piece mapped.
    pub fn turn(&self, turn: Turn) -> Turn {
        Turn {
            place: turn.place.map(|c| self.cell(c)),
            give: turn.give.map(|p| self.piece(p)),
        }
    }

    /// The image of a board.
    pub fn board(&self, board: &Board) -> Board {
        bits_of(board.occupied()).fold(Board::empty(), |b, i| {
            let cell = Cell::from_index(i);
            let piece = board.piece_at(cell).expect("occupied");
            b.with(
                Cell::from_index(u32::from(self.cells[i as usize])),
                self.piece(piece),
            )
        })
    }
}

/// Every symmetry of the game under `rules`: board symmetries times permutations and
/// complements of the counted attributes (12,288 for standard Quarto).
pub fn transforms(rules: &Rules) -> Vec<Transform> {
    let counted: Vec<u8> = (0..4).filter(|i| rules.criteria() >> i & 1 == 1).collect();
    // Every ordering of the counted attributes, built one position at a time.
    let mut orders: Vec<Vec<u8>> = vec![Vec::new()];
    for _ in 0..counted.len() {
        let mut longer = Vec::new();
        for order in &orders {
            for &c in counted.iter().filter(|c| !order.contains(c)) {
                let mut next = order.clone();
                next.push(c);
                longer.push(next);
            }
        }
        orders = longer;
    }
    let mut all = Vec::new();
    for cells in board_symmetries(rules) {
        for order in &orders {
            let mut attributes = [0, 1, 2, 3];
            for (&from, &to) in counted.iter().zip(order) {
                attributes[from as usize] = to;
            }
            for flip in 0..=rules.criteria() {
                if flip & !rules.criteria() == 0 {
                    all.push(Transform {
                        cells,
                        attributes,
                        flip,
                    });
                }
            }
        }
    }
    all
}

/// A canonical key of a position: equal for two positions exactly when a symmetry maps one
/// onto the other (pieces are first reduced to their counted attributes, since pieces that
/// agree on those are interchangeable). Ordered, so a canonical form is the least key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    /// The occupied cells, mapped to the least image under the board symmetries.
    pub mask: u16,
    /// The attribute columns (see [`Canonizer::key`]), 17 bits each, ascending.
    pub columns: u128,
}

impl Key {
    /// The columns in 64 bits, for a position without a piece in hand (whose columns have 16
    /// bits).
    pub(crate) fn board_columns(&self) -> u64 {
        let c = self.columns;
        let part = |i: u32| (c >> (17 * i) & 0xffff) as u64;
        part(0) | part(1) << 16 | part(2) << 32 | part(3) << 48
    }
}

/// Precomputed tables for canonical keys under one set of rules.
pub struct Canonizer {
    criteria: u8,
    /// Per board symmetry, the images of the low and of the high byte of a cell mask.
    bytes: Vec<[[u16; 256]; 2]>,
    /// Per cell mask: its least image and the board symmetries that give it (bit per
    /// symmetry).
    masks: Vec<(u16, u32)>,
}

impl Canonizer {
    /// Tables for `rules` (its board symmetries must number at most 32, as they do on every
    /// board from 2x2 to 4x4).
    pub fn new(rules: &Rules) -> Canonizer {
        let maps = board_symmetries(rules);
        assert!(maps.len() <= 32, "at most 32 board symmetries");
        let bytes: Vec<[[u16; 256]; 2]> = maps
            .iter()
            .map(|map| {
                let mut t = [[0u16; 256]; 2];
                for b in 0..256u16 {
                    t[0][b as usize] = image_of(map, b);
                    t[1][b as usize] = image_of(map, b << 8);
                }
                t
            })
            .collect();
        let masks = (0..1u32 << rules.cells())
            .map(|mask| {
                let mut best = (u16::MAX, 0u32);
                for (s, t) in bytes.iter().enumerate() {
                    let image = permute(t, mask as u16);
                    if image < best.0 {
                        best = (image, 0);
                    }
                    if image == best.0 {
                        best.1 |= 1 << s;
                    }
                }
                best
            })
            .collect();
        Canonizer {
            criteria: rules.criteria(),
            bytes,
            masks,
        }
    }

    /// The canonical key of a board with `hand` the piece the side to move holds.
    ///
    /// Board symmetries first: only those that give the occupied cells their least image
    /// can give the least key (the mask leads the order), and a table lists them. For each,
    /// the pieces are read as columns, one per counted attribute, with bit `i` telling the
    /// attribute's value on cell `i` (the hand at bit 16, otherwise 0). Complementing
    /// attributes so that the first piece (the hand, or the piece on the highest occupied
    /// cell) reads all zeros, then sorting the columns, gives the same columns for every
    /// attribute map of the board: complements are fixed by the first piece, and the
    /// permutation by the sort. So the least of these keys over the listed board symmetries
    /// is canonical under the whole group.
    #[inline]
    pub fn key(&self, board: &Board, hand: Option<Piece>) -> Key {
        let (mask, symmetries) = self.masks[board.occupied() as usize];
        // The first piece: the hand at bit 16, otherwise the highest occupied cell.
        let first = match hand {
            Some(_) => 16,
            None => 15 - mask.leading_zeros().min(15),
        };
        let all = u32::from(mask) | u32::from(hand.is_some()) << 16;
        let mut best = u128::MAX;
        for s in bits_of32(symmetries) {
            let t = &self.bytes[s as usize];
            let mut columns = [0u32; 4];
            for (i, column) in columns.iter_mut().enumerate() {
                if self.criteria >> i & 1 == 0 {
                    continue;
                }
                let held = hand.map_or(0, |p| u32::from(p.bits() >> i & 1));
                let c = u32::from(permute(t, board.ones(i))) | held << 16;
                *column = if c >> first & 1 == 1 { c ^ all } else { c };
            }
            sort4(&mut columns);
            let packed = columns
                .iter()
                .enumerate()
                .fold(0u128, |k, (i, &c)| k | u128::from(c) << (17 * i));
            best = best.min(packed);
        }
        Key {
            mask,
            columns: best,
        }
    }

    /// The canonical key of a board with no piece in hand, packed into 80 bits: what the
    /// transposition table stores.
    #[inline]
    pub(crate) fn board_key(&self, board: &Board) -> (u16, u64) {
        let key = self.key(board, None);
        (key.mask, key.board_columns())
    }
}

/// The image of a cell mask under a symmetry's byte tables.
#[inline]
fn permute(t: &[[u16; 256]; 2], mask: u16) -> u16 {
    t[0][usize::from(mask as u8)] | t[1][usize::from(mask >> 8)]
}

/// Sorts four values ascending with a sorting network (five compare-exchanges).
#[inline]
fn sort4(v: &mut [u32; 4]) {
    let mut exchange = |a: usize, b: usize| {
        if v[a] > v[b] {
            v.swap(a, b);
        }
    };
    exchange(0, 1);
    exchange(2, 3);
    exchange(0, 2);
    exchange(1, 3);
    exchange(1, 2);
}

/// Iterates over the set bits of a 32-bit mask, lowest first.
fn bits_of32(mut mask: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let bit = mask.trailing_zeros();
            mask &= mask - 1;
            bit
        })
    })
}
