//! Helpers shared by the one-row solvers ([`super::strip`], [`super::sums`]) on rows of cells
//! coded 0 for an empty cell and 1 and 2 for the two sides' discs.

/// How many of `piece`'s first cells hold its distinct moves: a piece that reads the same
/// both ways offers each move twice, so its first half (with the middle) is enough.
pub(super) fn distinct_moves(piece: &[u8]) -> usize {
    if piece.iter().eq(piece.iter().rev()) {
        piece.len().div_ceil(2)
    } else {
        piece.len()
    }
}

/// Whether the disc at `ring[at]` is in a line of `k` discs of its colour around the ring.
pub(super) fn ring_line_through(ring: &[u8], at: usize, k: usize) -> bool {
    let w = ring.len();
    let same = |i: usize| ring[i % w] == ring[at];
    let left = (1..w).take_while(|&d| same(at + w - d)).count();
    let right = (1..w).take_while(|&d| same(at + d)).count();
    k <= w && (1 + left + right).min(w) >= k
}

/// The key of a ring: the smallest of its rotations and reflections packed two bits a cell
/// (the cell's code plus one) from the most significant end. Rings of up to 64 cells fit, and
/// two rings share a key exactly when one turns into the other: every cell packs as a non-zero
/// symbol, so the key tells the ring's length too.
pub(super) fn ring_key(ring: &[u8]) -> u128 {
    let w = ring.len();
    let pack = |cell: &dyn Fn(usize) -> u8| {
        (0..w).fold(0u128, |bits, i| {
            bits | u128::from(cell(i) + 1) << (126 - 2 * i)
        })
    };
    (0..w)
        .flat_map(|turn| {
            [
                pack(&|i| ring[(turn + i) % w]),
                pack(&|i| ring[(turn + w - i) % w]),
            ]
        })
        .min()
        .expect("a ring has cells")
}
