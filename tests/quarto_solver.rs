//! The Quarto solver against plain minimax: every position of the small variations, and
//! random positions of larger ones, under both rules.

use crate::quarto_support;

use proptest::prelude::*;

use connectk::quarto::{Rules, Solver, notation};
use connectk::{Depth, Variant};

use quarto_support::{Plain, every_position, random_position};

fn rules(
    size: u32,
    attributes: u32,
    criteria: Option<u8>,
    variant: Variant,
    squares: bool,
) -> Rules {
    Rules::new(size, attributes, criteria, variant, squares).unwrap()
}

/// The small variations checked position by position: 2x2 boards up to three attributes,
/// 3x3 boards with two, some with only part of the attributes counting or with squares.
fn small_variations() -> Vec<Rules> {
    let mut all = Vec::new();
    for variant in [Variant::Normal, Variant::Misere] {
        for attributes in 1..=3 {
            all.push(rules(2, attributes, None, variant, false));
        }
        all.push(rules(2, 3, Some(0b001), variant, false));
        all.push(rules(2, 3, Some(0b110), variant, false));
        all.push(rules(2, 2, None, variant, true));
        for attributes in 1..=2 {
            all.push(rules(3, attributes, None, variant, false));
        }
        all.push(rules(3, 2, Some(0b10), variant, false));
        all.push(rules(3, 2, None, variant, true));
    }
    all
}

#[test]
fn every_position_of_the_small_variations_matches_plain_minimax() {
    for rules in small_variations() {
        let plain = Plain::new(&rules);
        let mut solver = Solver::new(rules, 1 << 20);
        let mut count = 0;
        every_position(rules, &mut |pos| {
            count += 1;
            let expected = plain.value(pos);
            let strong = solver.solve(pos, Depth::Strong).unwrap().value;
            assert_eq!(strong, expected, "{rules}, position {}", pos.diagram());
            let weak = solver.solve(pos, Depth::Weak).unwrap().value;
            assert_eq!(
                weak.result,
                expected.result,
                "{rules} weak, {}",
                pos.diagram()
            );
        });
        assert!(count > 10, "{rules}: {count} positions");
    }
}

#[test]
#[ignore = "slow: plain minimax at every turn of Quarto games (29 s); run by .ci/run with --ignored"]
fn analysis_values_every_turn_as_plain_minimax_does() {
    for rules in [
        rules(3, 2, None, Variant::Misere, false),
        rules(2, 3, None, Variant::Normal, false),
        rules(3, 3, None, Variant::Normal, false),
    ] {
        let plain = Plain::new(&rules);
        let mut solver = Solver::new(rules, 1 << 20);
        for seed in 0..5 {
            let (pos, _) = random_position(rules, seed as u32 % 3 + 1, seed);
            let analysis = solver.analyze(&pos, Depth::Strong).unwrap();
            assert_eq!(analysis.value, plain.value(&pos));
            assert_eq!(analysis.turns.len(), pos.legal_turns().len());
            for t in analysis.turns {
                assert_eq!(t.value, plain.value(&pos.play(t.turn).unwrap()));
            }
        }
    }
}

/// Rules for random checks: the board size with its least number of pieces placed.
fn board() -> impl Strategy<Value = (u32, u32, u32)> {
    prop_oneof![
        // 3x3 with three attributes from 2 pieces placed, with four from 5; 4x4 from 8.
        (Just(3u32), Just(3u32), 2u32..=7),
        (Just(3u32), Just(4u32), 5u32..=8),
        (Just(2u32), Just(4u32), 0u32..=3),
        (Just(4u32), Just(4u32), 8u32..=14),
    ]
}

/// Positions where the solver's knowledge decides at once (every line dead: a draw), or is one
/// piece or one line away from it, are where a wrong pruning shows: standard 4x4 boards with
/// one or two counted attributes and 9 to 13 pieces placed, both rules. The independent check
/// of `quarto_support` must find dead positions among them, so that the comparison covers
/// the pruning.
#[test]
fn positions_near_dead_lines_match_plain_minimax() {
    let mut dead = 0;
    for seed in 0..160u64 {
        let criteria = [0b0001, 0b0110, 0b1000, 0b0011][seed as usize % 4];
        let variant = [Variant::Normal, Variant::Misere][seed as usize / 4 % 2];
        let rules = rules(4, 4, Some(criteria), variant, seed % 3 == 0);
        let (pos, turns) = random_position(rules, 9 + (seed % 5) as u32, seed);
        let plain = Plain::new(&rules);
        dead += usize::from(plain.every_line_dead(&pos));
        let value = Solver::new(rules, 1 << 22)
            .solve(&pos, Depth::Strong)
            .unwrap()
            .value;
        assert_eq!(
            value,
            plain.value(&pos),
            "{rules} after {}",
            notation::format(&rules, &turns)
        );
    }
    assert!(dead >= 10, "only {dead} positions with every line dead");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn random_positions_match_plain_minimax(
        (size, attributes, placed) in board(),
        misere in any::<bool>(),
        squares in any::<bool>(),
        criteria in 1u8..16,
        seed in any::<u64>(),
    ) {
        let criteria = criteria & ((1 << attributes) - 1);
        let variant = if misere { Variant::Misere } else { Variant::Normal };
        let rules = rules(size, attributes, (criteria != 0).then_some(criteria), variant, squares);
        let (pos, turns) = random_position(rules, placed, seed);
        let mut solver = Solver::new(rules, 1 << 22);
        let value = solver.solve(&pos, Depth::Strong).unwrap().value;
        prop_assert_eq!(value, Plain::new(&rules).value(&pos), "{} after {}", rules, notation::format(&rules, &turns));
    }
}

proptest! {
    // Standard Quarto with 9 pieces placed: plain minimax takes up to a few seconds.
    #![proptest_config(ProptestConfig::with_cases(6))]

    #[test]
    fn standard_positions_with_nine_pieces_match_plain_minimax(misere in any::<bool>(), seed in any::<u64>()) {
        let variant = if misere { Variant::Misere } else { Variant::Normal };
        let rules = rules(4, 4, None, variant, false);
        let (pos, turns) = random_position(rules, 9, seed);
        let mut solver = Solver::new(rules, 1 << 22);
        let value = solver.solve(&pos, Depth::Strong).unwrap().value;
        prop_assert_eq!(value, Plain::new(&rules).value(&pos), "{} after {}", rules, notation::format(&rules, &turns));
    }
}
