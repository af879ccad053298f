use connectk::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let v: Variant = args[1].parse().unwrap();
    let k: u32 = args[2].parse().unwrap();
    let w: u32 = args[3].parse().unwrap();
    let h: u32 = args[4].parse().unwrap();
    let weak = args.get(5).is_some();
    let rules = Rules::new(k, w, h, v).unwrap();
    let mut s = Solver::new(1 << 30);
    let pos = Position::new(rules);
    let sol = if weak { s.solve_weak(&pos) } else { s.solve(&pos) };
    println!("{rules}: {:?} nodes {} secs {:.3}", sol.value, sol.nodes, sol.seconds);
}
