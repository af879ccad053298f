//! Quarto's symmetries: every board symmetry maps winning sets to winning sets, the groups
//! have their known sizes, canonical keys are equal exactly for symmetric positions, and
//! symmetric positions have the same value.

use crate::quarto_support;

use proptest::prelude::*;

use connectk::quarto::symmetry::{Canonizer, Transform, board_symmetries, image_of, transforms};
use connectk::quarto::{Board, Cell, Piece, Position, Rules, Solver, Turn, notation};
use connectk::{Depth, Variant};

use quarto_support::random_position;

fn rules(size: u32, attributes: u32, criteria: Option<u8>, squares: bool) -> Rules {
    Rules::new(size, attributes, criteria, Variant::Normal, squares).unwrap()
}

#[test]
fn every_board_symmetry_maps_every_winning_set_to_a_winning_set() {
    for size in 2..=4 {
        for squares in [false, true] {
            let rules = rules(size, 4, None, squares);
            let maps = board_symmetries(&rules);
            let identity: Vec<u8> = (0..rules.cells() as u8).collect();
            assert_eq!(maps[0][..rules.cells() as usize], identity[..]);
            for map in &maps {
                for &line in rules.lines() {
                    assert!(
                        rules.lines().contains(&image_of(map, line)),
                        "{rules}: {map:?} maps {line:#06x} to no line"
                    );
                }
                // A group: closed under composition.
                for other in &maps {
                    let mut composed = [0u8; 16];
                    for c in 0..rules.cells() as usize {
                        composed[c] = other[map[c] as usize];
                    }
                    assert!(maps.contains(&composed), "{rules}: not closed");
                }
            }
        }
    }
}

#[test]
fn the_groups_have_their_known_sizes() {
    // Standard Quarto: 32 (Kerner 2001); tic-tac-toe's 8 on 3x3; every permutation on 2x2,
    // where every pair of cells is a line.
    let sizes: Vec<usize> = (2..=4)
        .map(|n| board_symmetries(&rules(n, 4, None, false)).len())
        .collect();
    assert_eq!(sizes, [24, 8, 32]);
    let with_squares: Vec<usize> = (2..=4)
        .map(|n| board_symmetries(&rules(n, 4, None, true)).len())
        .collect();
    assert_eq!(with_squares, [24, 8, 8]);
    assert_eq!(transforms(&Rules::standard()).len(), 12_288);
    assert_eq!(
        transforms(&rules(4, 4, Some(0b0101), false)).len(),
        32 * 2 * 4
    );
}

/// Every permutation of `n` items, for checking small groups against all candidates.
fn permutations(n: usize) -> Vec<Vec<u8>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    permutations(n - 1)
        .into_iter()
        .flat_map(|p| {
            (0..n).map(move |at| {
                let mut q = p.clone();
                q.insert(at, (n - 1) as u8);
                q
            })
        })
        .collect()
}

#[test]
fn on_small_boards_the_search_finds_every_line_preserving_permutation() {
    for size in 2..=3 {
        for squares in [false, true] {
            let rules = rules(size, 4, None, squares);
            let preserving = permutations(rules.cells() as usize)
                .into_iter()
                .filter(|p| {
                    let mut map = [0u8; 16];
                    map[..p.len()].copy_from_slice(p);
                    rules
                        .lines()
                        .iter()
                        .all(|&l| rules.lines().contains(&image_of(&map, l)))
                })
                .count();
            assert_eq!(preserving, board_symmetries(&rules).len(), "{rules}");
        }
    }
}

/// The rules of a random check.
fn some_rules() -> impl Strategy<Value = (Rules, u32)> {
    (3u32..=4, any::<bool>(), 1u8..16, any::<bool>()).prop_map(
        |(size, squares, criteria, misere)| {
            let variant = if misere {
                Variant::Misere
            } else {
                Variant::Normal
            };
            let rules = Rules::new(size, 4, Some(criteria), variant, squares).unwrap();
            (rules, if size == 3 { 5 } else { 10 })
        },
    )
}

/// The image of a position's pieces: its board and hand under `t`.
fn image(t: &Transform, pos: &Position) -> (Board, Option<Piece>) {
    (t.board(pos.board()), pos.hand().map(|p| t.piece(p)))
}

/// Whether some symmetry maps `a` onto `b`, pieces compared on their counted attributes only
/// (pieces that agree on them are interchangeable), by trying every symmetry.
fn equivalent(rules: &Rules, a: (Board, Option<Piece>), b: (Board, Option<Piece>)) -> bool {
    let kinds = |(board, hand): (Board, Option<Piece>)| {
        let cells: Vec<Option<u8>> = (0..rules.cells())
            .map(|i| {
                let cell = Cell::at(i % rules.size(), i / rules.size(), rules).unwrap();
                board.piece_at(cell).map(|p| p.bits() & rules.criteria())
            })
            .collect();
        (cells, hand.map(|p| p.bits() & rules.criteria()))
    };
    let target = kinds(b);
    transforms(rules).iter().any(|t| {
        let hand = a.1.map(|p| t.piece(p));
        kinds((t.board(&a.0), hand)) == target
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn keys_are_equal_exactly_for_symmetric_positions(
        (rules, placed) in some_rules(),
        seed in any::<u64>(),
        pick in any::<prop::sample::Index>(),
        swap in any::<(prop::sample::Index, prop::sample::Index)>(),
    ) {
        let canon = Canonizer::new(&rules);
        let (pos, _) = random_position(rules, placed, seed);
        let all = transforms(&rules);
        let t = pick.get(&all);
        let (board, hand) = image(t, &pos);
        let key = canon.key(pos.board(), pos.hand());
        prop_assert_eq!(canon.key(&board, hand), key);
        // Swap the pieces of two cells of the image: a symmetric position or not, the key
        // must tell.
        let occupied: Vec<u32> = (0..16).filter(|i| board.occupied() >> i & 1 == 1).collect();
        let (i, j) = (*swap.0.get(&occupied), *swap.1.get(&occupied));
        let mut swapped = Board::empty();
        for &c in &occupied {
            let from = if c == i { j } else if c == j { i } else { c };
            let at = |k: u32| Cell::at(k % rules.size(), k / rules.size(), &rules).unwrap();
            swapped.place(at(c), board.piece_at(at(from)).unwrap());
        }
        let same = canon.key(&swapped, hand) == key;
        prop_assert_eq!(same, equivalent(&rules, (*pos.board(), pos.hand()), (swapped, hand)));
    }

    #[test]
    fn a_position_and_its_images_have_the_same_value(
        (rules, placed) in some_rules(),
        seed in any::<u64>(),
        picks in prop::collection::vec(any::<prop::sample::Index>(), 3),
    ) {
        let (pos, turns) = random_position(rules, placed, seed);
        let mut solver = Solver::new(rules, 1 << 22);
        let value = solver.solve(&pos, Depth::Strong).unwrap().value;
        let all = transforms(&rules);
        for pick in picks {
            let t = pick.get(&all);
            let mapped: Vec<Turn> = turns.iter().map(|&turn| t.turn(turn)).collect();
            let record = notation::format(&rules, &mapped);
            let (image, _) = notation::parse(rules, &record).unwrap();
            prop_assert_eq!(solver.solve(&image, Depth::Strong).unwrap().value, value, "{}", record);
        }
    }
}
