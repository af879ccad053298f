//! Position counts by ply for standard Connect Four against OEIS A212693.

use connectk::Rules;
use connectk::positions_by_ply;

/// OEIS A212693: distinct positions after n plies in 7x6 Connect Four, n = 0, 1, 2, ...
const A212693: [u64; 13] = [
    1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275, 558186, 1662623, 4568683, 12236101,
];

#[test]
fn standard_board_counts_match_oeis_a212693_to_ply_10() {
    let counts = positions_by_ply::<u64>(Rules::standard(), 10).unwrap();
    assert_eq!(counts, A212693[..=10]);
}

/// About 20 s and 420 MB in release on a shared 2-core machine: run with `--ignored`.
#[test]
#[ignore = "slow: positions to ply 12 (20 s, 420 MB); run by .ci/run with --ignored"]
fn standard_board_counts_match_oeis_a212693_at_plies_11_and_12() {
    let counts = positions_by_ply::<u64>(Rules::standard(), 12).unwrap();
    assert_eq!(counts, A212693);
}

#[test]
fn wide_bitboards_count_the_same_as_narrow_ones() {
    let narrow = positions_by_ply::<u64>(Rules::standard(), 10).unwrap();
    let wide = positions_by_ply::<u128>(Rules::standard(), 10).unwrap();
    assert_eq!(wide, narrow);
    assert_eq!(wide, A212693[..=10]);
}
