//! Solves a position of misère Connect Four and prints its value, its best moves and a line of
//! perfect play.
//!
//! Run with `cargo run --release --example solve_position -- 4453` (any move string; default
//! `4444`).

use connectk::{Depth, Mib, Rules, Solver, Variant, notation};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let moves = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "4444".to_string());
    let rules = Rules::new(4, 7, 6, Variant::Misere)?;
    let (position, _) = notation::parse(rules, &moves)?;
    let mut solver = Solver::new(Mib(256));
    let solution = solver.solve_with_best_moves(&position, Depth::Strong);
    print!("{}", position.diagram());
    println!("{rules} after {moves:?}: {:?}", solution.value);
    let best: Vec<u32> = solution.best_moves.iter().map(|c| c.number()).collect();
    println!("best moves for {}: {best:?}", position.to_move());
    let line = solver.principal_variation(&position);
    println!("a line of perfect play: {}", notation::format(rules, &line));
    Ok(())
}
