//! Proof certificates: the checker's canonical code against brute force over the whole
//! symmetry group; certificates of small variations (every format) accepted, written to a
//! file as they are made in memory, and refused once corrupted (a changed turn, a missing
//! entry, a wrong claim, turns that only work under a permutation that is not a symmetry,
//! version 3's cut at dead positions claimed under version 2, a broken file).

use std::collections::HashMap;

use crate::quarto_support;

use connectk::quarto::certificate::{CertifyError, Format, Progress, certify, write};
use connectk::quarto::check::canonical::{Canonizer, Layout};
use connectk::quarto::check::{CheckError, CheckProgress, check, check_reader};
use connectk::quarto::{Cell, Position, Rules, Solver, notation};
use connectk::{GameResult, Player, Variant};

use quarto_support::{Plain, every_position, random_position};

fn rules(size: u32, attributes: u32, variant: Variant) -> Rules {
    Rules::new(size, attributes, None, variant, false).unwrap()
}

/// Every format, oldest first.
const FORMATS: [Format; 3] = [Format::Plain, Format::Canonical, Format::Pruned];

/// The certificate text of the empty board of `rules`.
fn certificate(rules: Rules, format: Format) -> String {
    let mut solver = Solver::new(rules, 1 << 22);
    certify(&mut solver, &Position::new(rules), "", format)
        .unwrap()
        .to_text()
}

fn refused(text: &str) -> bool {
    matches!(check(text), Err(CheckError::Refuted(_)))
}

// ---- The canonical code against brute force ----

/// A transformation of the whole group as the test sees it: cell `c` goes to `cells[c]`,
/// counted attribute `i` to `order[i]` after complementing where `flip` has bit `i`.
struct Element {
    cells: Vec<usize>,
    order: Vec<usize>,
    flip: u8,
}

/// The cell permutations that map the winning sets onto themselves, found here apart from
/// the checker: every permutation for 2x2 and 3x3, and for 4x4 the closure of a quarter
/// turn, a mirror, the swap of the two middle rows and columns, and the swap of inner and
/// outer ones, kept where they map the sets (squares included) onto themselves.
fn board_group(rules: &Rules) -> Vec<Vec<usize>> {
    let n = rules.size() as usize;
    let candidates = if n < 4 {
        permutations(n * n)
    } else {
        let at = |f: &dyn Fn(usize, usize) -> (usize, usize)| -> Vec<usize> {
            (0..n * n)
                .map(|c| {
                    let (r, k) = f(c / n, c % n);
                    r * n + k
                })
                .collect()
        };
        let middle = [0, 2, 1, 3];
        let inside_out = [1, 0, 3, 2];
        closure(&[
            at(&|r, k| (k, n - 1 - r)),
            at(&|r, k| (r, n - 1 - k)),
            at(&|r, k| (middle[r], middle[k])),
            at(&|r, k| (inside_out[r], inside_out[k])),
        ])
    };
    let lines = rules.lines();
    candidates
        .into_iter()
        .filter(|p| {
            lines.iter().all(|&line| {
                let image = (0..n * n)
                    .filter(|&c| line >> c & 1 == 1)
                    .fold(0u16, |m, c| m | 1 << p[c]);
                lines.contains(&image)
            })
        })
        .collect()
}

fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for p in permutations(n - 1) {
        for at in 0..n {
            let mut q = p.clone();
            q.insert(at, n - 1);
            all.push(q);
        }
    }
    all
}

fn closure(generators: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let identity: Vec<usize> = (0..generators[0].len()).collect();
    let mut group = vec![identity];
    let mut i = 0;
    while i < group.len() {
        for g in generators {
            let product: Vec<usize> = group[i].iter().map(|&c| g[c]).collect();
            if !group.contains(&product) {
                group.push(product);
            }
        }
        i += 1;
    }
    group
}

/// Every element of the group: board symmetries times counted-attribute permutations and
/// complements.
fn whole_group(rules: &Rules) -> Vec<Element> {
    let counted = rules.criteria().count_ones() as usize;
    let mut all = Vec::new();
    for cells in board_group(rules) {
        for order in permutations(counted) {
            for flip in 0..1u8 << counted {
                all.push(Element {
                    cells: cells.clone(),
                    order: order.clone(),
                    flip,
                });
            }
        }
    }
    all
}

/// A piece's counted attributes, packed (counted attribute `i` at bit `i`), computed here.
fn counted_values(rules: &Rules, bits: u8) -> u8 {
    (0..4)
        .filter(|a| rules.criteria() >> a & 1 == 1)
        .enumerate()
        .fold(0, |v, (i, a)| v | (bits >> a & 1) << i)
}

fn layout(rules: &Rules, pos: &Position) -> Layout {
    let mut layout = Layout {
        occupied: 0,
        values: [0; 16],
        hand: pos.hand().map(|p| counted_values(rules, p.bits())),
    };
    let n = rules.size();
    for c in 0..rules.cells() {
        let cell = Cell::at(c % n, c / n, rules).unwrap();
        if let Some(piece) = pos.board().piece_at(cell) {
            layout.occupied |= 1 << c;
            layout.values[c as usize] = counted_values(rules, piece.bits());
        }
    }
    layout
}

fn apply(element: &Element, layout: &Layout) -> Layout {
    let values = |v: u8| {
        (0..element.order.len()).fold(0u8, |s, i| {
            s | ((v ^ element.flip) >> i & 1) << element.order[i]
        })
    };
    let mut image = Layout {
        occupied: 0,
        values: [0; 16],
        hand: layout.hand.map(values),
    };
    for c in 0..16 {
        if layout.occupied >> c & 1 == 1 {
            image.occupied |= 1 << element.cells[c];
            image.values[element.cells[c]] = values(layout.values[c]);
        }
    }
    image
}

/// The least image over the whole group, as plain numbers: the brute-force canonical form.
fn brute_force(group: &[Element], layout: &Layout) -> Vec<u8> {
    group
        .iter()
        .map(|g| {
            let image = apply(g, layout);
            let mut form: Vec<u8> = (0..16)
                .map(|c| match image.occupied >> c & 1 {
                    1 => image.values[c],
                    _ => 255,
                })
                .collect();
            form.push(image.hand.unwrap_or(255));
            form
        })
        .min()
        .unwrap()
}

/// The positions on which the code is compared: every position for the smallest games,
/// random ones with 0 to all but one cell filled otherwise.
fn sample(rules: Rules) -> Vec<Position> {
    if rules.cells() == 4 && rules.attributes() <= 3 {
        let mut all = Vec::new();
        every_position(rules, &mut |p| {
            if !p.is_over() {
                all.push(p.clone());
            }
        });
        return all;
    }
    let mut positions = Vec::new();
    for seed in 0..120u64 {
        let placed = (seed % u64::from(rules.cells())) as u32;
        let (pos, _) = random_position(rules, placed, seed);
        if !pos.is_over() {
            positions.push(pos);
        }
    }
    positions
}

#[test]
fn the_canonical_code_agrees_with_brute_force_over_the_whole_group() {
    let cases = [
        (2, 3, None, false),
        (2, 4, Some(0b0101), true),
        (3, 2, None, false),
        (3, 3, None, true),
        (3, 4, Some(0b0110), false),
        (4, 2, None, false),
        (4, 3, Some(0b101), false),
        (4, 4, None, false),
        (4, 4, Some(0b0001), true),
    ];
    for (size, attributes, criteria, squares) in cases {
        let rules = Rules::new(size, attributes, criteria, Variant::Normal, squares).unwrap();
        let canon = Canonizer::new(&rules);
        let group = whole_group(&rules);
        // The checker derived the same board symmetries as found here.
        let mut derived: Vec<Vec<usize>> = canon
            .symmetries()
            .iter()
            .map(|m| (0..16).map(|c| m.image(c) as usize).collect())
            .collect();
        let mut expected: Vec<Vec<usize>> = board_group(&rules)
            .into_iter()
            .map(|p| (0..16).map(|c| p.get(c).copied().unwrap_or(0)).collect())
            .collect();
        derived
            .iter_mut()
            .for_each(|p| p.truncate(rules.cells() as usize));
        expected
            .iter_mut()
            .for_each(|p| p.truncate(rules.cells() as usize));
        derived.sort();
        expected.sort();
        assert_eq!(derived, expected, "{rules}");
        // Codes and brute-force forms name the same classes, both ways.
        let mut code_of = HashMap::new();
        let mut form_of = HashMap::new();
        for (i, pos) in sample(rules).iter().enumerate() {
            let layout = layout(&rules, pos);
            let (code, frame) = canon.canonical(pos);
            assert_eq!(canon.canonical_layout(&layout).0, code, "{rules}");
            let form = brute_force(&group, &layout);
            assert_eq!(
                *code_of.entry(form.clone()).or_insert(code),
                code,
                "{rules}"
            );
            assert_eq!(
                *form_of.entry(code).or_insert(form.clone()),
                form,
                "{rules}"
            );
            // Every image has the position's code, and the frame maps it onto the
            // representative.
            let image = apply(&group[(i * 7919) % group.len()], &layout);
            assert_eq!(canon.canonical_layout(&image).0, code, "{rules}");
            let rep = canon.representative(code);
            for c in 0..rules.cells() {
                if layout.occupied >> c & 1 == 1 {
                    let to = frame.cell_to_canonical(c) as usize;
                    let values = frame.values_to_canonical(layout.values[c as usize]);
                    assert_eq!(rep.values[to], values, "{rules}");
                }
            }
            assert_eq!(layout.hand.map(|v| frame.values_to_canonical(v)), rep.hand);
        }
        assert!(code_of.len() > 1, "{rules}");
    }
}

// ---- Certificates accepted ----

/// The small variations committed under results/quarto/certificates (those certified here
/// in a few seconds): size, attributes, squares.
const SMALL: [(u32, u32, bool); 8] = [
    (2, 1, false),
    (2, 2, false),
    (2, 3, false),
    (2, 4, false),
    (3, 1, false),
    (3, 2, false),
    (3, 3, false),
    (3, 3, true),
];

#[test]
fn certificates_of_small_variations_are_accepted_in_every_format_with_the_plain_outcome() {
    for variant in [Variant::Normal, Variant::Misere] {
        for (size, attributes, squares) in SMALL {
            let rules = Rules::new(size, attributes, None, variant, squares).unwrap();
            let plain = check(&certificate(rules, Format::Plain)).unwrap();
            let canonical = check(&certificate(rules, Format::Canonical)).unwrap();
            let pruned = check(&certificate(rules, Format::Pruned)).unwrap();
            assert_eq!(canonical.claim, plain.claim, "{rules}");
            assert_eq!(pruned.claim, plain.claim, "{rules}");
            assert!(
                canonical.positions < plain.positions || size == 2,
                "{rules}"
            );
            if size == 2 || attributes <= 2 {
                let expected = Plain::new(&rules).value(&Position::new(rules)).result;
                assert_eq!(canonical.claim, expected, "{rules}");
            }
        }
    }
    // Among them: wins for P2 (misère 2x2 with two attributes) and draws.
    let claim = |r| check(&certificate(r, Format::Canonical)).unwrap().claim;
    assert_eq!(
        claim(rules(2, 2, Variant::Misere)),
        GameResult::Win(Player::P2)
    );
    assert_eq!(claim(rules(3, 2, Variant::Misere)), GameResult::Draw);
}

#[test]
fn every_committed_certificate_is_accepted_with_its_claim() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/quarto/certificates");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "txt") {
            let text = std::fs::read_to_string(&path).unwrap();
            let claim = text.lines().nth(3).unwrap().trim_start_matches("claim ");
            let verdict = check(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            assert_eq!(verdict.claim.label(), claim_label(claim), "{path:?}");
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked} certificates");
}

#[test]
fn a_long_check_reports_its_progress() {
    // The committed criteria {0} certificate has over 65,536 entries in each strategy.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("results/quarto/certificates/misere-4x4-a4-criteria-0.txt");
    let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let heard = std::cell::RefCell::new(Vec::new());
    let verdict = check_reader(file, &|event| heard.borrow_mut().push(event)).unwrap();
    let heard = heard.into_inner();
    for strategy in [1, 2] {
        let read = CheckProgress::Reading {
            strategy,
            entries: 65_536,
        };
        let replayed = CheckProgress::Replaying {
            strategy,
            positions: 65_536,
        };
        let at = |event| heard.iter().position(|e| *e == event);
        assert!(at(read) < at(replayed), "{heard:?}");
    }
    // Counts reported are within the totals: no strategy replays more than all of them.
    for event in &heard {
        if let CheckProgress::Replaying { positions, .. } = event {
            assert!(*positions <= verdict.positions, "{event:?}");
        }
    }
}

/// The label of a verdict for a claim as written (`P1`, `P2` or `draw`).
fn claim_label(claim: &str) -> String {
    let result = match claim {
        "P1" => GameResult::Win(Player::P1),
        "P2" => GameResult::Win(Player::P2),
        _ => GameResult::Draw,
    };
    result.label().to_string()
}

#[test]
fn a_certificate_of_a_position_within_a_game_is_accepted() {
    let rules = rules(3, 3, Variant::Misere);
    let record = "LSR a1:DTQ b2:LTR";
    let (pos, _) = notation::parse(rules, record).unwrap();
    for format in FORMATS {
        let mut solver = Solver::new(rules, 1 << 22);
        let text = certify(&mut solver, &pos, record, format)
            .unwrap()
            .to_text();
        assert!(text.contains(&format!("root {record}\n")));
        assert_eq!(
            check(&text).unwrap().claim,
            Plain::new(&rules).value(&pos).result
        );
    }
}

#[test]
fn criteria_subsets_merge_pieces_that_agree_on_the_counted_attributes() {
    // With one counted attribute of three, a version 2 certificate is a fraction of the
    // version 1 one, and both are accepted with the same claim.
    let rules = Rules::new(3, 3, Some(0b001), Variant::Misere, false).unwrap();
    let plain = certificate(rules, Format::Plain);
    let canonical = certificate(rules, Format::Canonical);
    assert_eq!(
        check(&plain).unwrap().claim,
        check(&canonical).unwrap().claim
    );
    assert!(
        canonical.len() * 20 < plain.len(),
        "{} {}",
        canonical.len(),
        plain.len()
    );
}

#[test]
fn version_3_ends_draw_strategies_at_dead_positions_and_is_smaller() {
    // Draws of 3x3 with three attributes and 4x4 with two: version 3 needs fewer entries
    // than version 2, both are accepted with the same claim, and version 3's entries claimed
    // as version 2 (whose checker plays on past dead positions) are refused for the missing
    // ones.
    for variant in [Variant::Normal, Variant::Misere] {
        for rules in [
            Rules::new(3, 3, None, variant, false).unwrap(),
            Rules::new(4, 2, None, variant, false).unwrap(),
        ] {
            let canonical = certificate(rules, Format::Canonical);
            let pruned = certificate(rules, Format::Pruned);
            let claim = check(&canonical).unwrap().claim;
            assert_eq!(check(&pruned).unwrap().claim, claim, "{rules}");
            if claim != GameResult::Draw {
                continue;
            }
            assert!(pruned.len() < canonical.len(), "{rules}");
            let as_version_2 = pruned.replacen("quarto-certificate 3", "quarto-certificate 2", 1);
            assert!(refused(&as_version_2), "{rules}");
        }
    }
}

#[test]
fn a_certificate_written_to_a_file_is_the_one_made_in_memory() {
    let dir = std::env::temp_dir().join(format!("connectk-cert-write-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("proof.txt");
    for (rules, format) in [
        (rules(3, 3, Variant::Misere), Format::Pruned),
        (rules(3, 3, Variant::Normal), Format::Canonical),
        (rules(2, 2, Variant::Normal), Format::Plain),
    ] {
        let pos = Position::new(rules);
        let heard = std::cell::RefCell::new(Vec::new());
        let progress = |event: Progress| heard.borrow_mut().push(event);
        let mut solver = Solver::new(rules, 1 << 22);
        let written = write(&mut solver, &pos, "", format, &out, &progress).unwrap();
        // Under 16,384 entries: only the solved outcome is reported.
        assert_eq!(heard.into_inner(), [Progress::Solved(written.claim)]);
        let text = std::fs::read_to_string(&out).unwrap();
        assert_eq!(text, certificate(rules, format), "{rules}");
        assert_eq!(written.bytes, text.len() as u64);
        assert_eq!(written.claim, check(&text).unwrap().claim);
        let entries = text.lines().filter(|l| l.split(' ').count() == 3).count();
        assert_eq!(written.entries, entries, "{rules}");
    }
    // The parts beside the file are gone.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["proof.txt"]);
    // A folder that does not exist: an error naming the file, nothing left behind.
    let rules = rules(2, 2, Variant::Misere);
    let missing = dir.join("no-such-folder").join("proof.txt");
    let error = write(
        &mut Solver::new(rules, 1 << 20),
        &Position::new(rules),
        "",
        Format::Pruned,
        &missing,
        &|_| (),
    )
    .unwrap_err();
    assert!(matches!(error, CertifyError::Io { .. }), "{error}");
    assert!(error.to_string().contains("no-such-folder"), "{error}");
    std::fs::remove_dir_all(dir).unwrap();
}

// ---- Corrupted certificates refused ----

/// The certificate with each line replaced by `change` of it.
fn each_line(text: &str, change: impl Fn(&str) -> String) -> String {
    text.lines().map(change).collect::<Vec<_>>().join("\n")
}

/// The certificate lines with the entry for `position` (cells and hand) given `turn`.
fn with_turn(text: &str, position: &str, turn: &str) -> String {
    each_line(text, |line| match line.strip_prefix(position) {
        Some(_) => format!("{position} {turn}"),
        None => line.to_string(),
    })
}

#[test]
fn a_changed_turn_is_refused() {
    // Normal 2x2 with two attributes: P2 wins; its first placement and handover are in the
    // entry for the board with only the opening piece handed over (in version 2, the
    // opening piece's canonical form LS).
    let rules = rules(2, 2, Variant::Normal);
    for format in FORMATS {
        let text = certificate(rules, format);
        let entry = text
            .lines()
            .find(|l| l.starts_with("....") && !l.ends_with('-'))
            .unwrap();
        let words: Vec<&str> = entry.split_whitespace().collect();
        let position = format!("{} {}", words[0], words[1]);
        // Every other turn there that plain minimax says does not win must be refused, and
        // an illegal one too.
        let (pos, _) = notation::parse(rules, words[1]).unwrap();
        let plain = Plain::new(&rules);
        let mut losing = 0;
        for turn in pos.legal_turns() {
            let next = pos.play(turn).unwrap();
            if plain.value(&next).result != GameResult::Win(Player::P2) {
                losing += 1;
                let turn = notation::format_turn(&rules, turn);
                assert!(refused(&with_turn(&text, &position, &turn)), "{turn}");
            }
        }
        assert!(losing > 0);
        assert!(refused(&with_turn(&text, &position, "a1:LS")));
    }
}

#[test]
fn a_missing_entry_is_refused() {
    for format in FORMATS {
        let text = certificate(rules(3, 2, Variant::Misere), format);
        let lines: Vec<&str> = text.lines().collect();
        let header = lines
            .iter()
            .position(|l| l.starts_with("strategy"))
            .unwrap();
        let count: usize = lines[header].rsplit(' ').next().unwrap().parse().unwrap();
        // Every entry of the first strategy is needed: dropping any one is refused.
        for drop in header + 1..=header + count {
            let mut kept: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            kept[header] = lines[header].replace(&count.to_string(), &(count - 1).to_string());
            kept.remove(drop);
            assert!(refused(&kept.join("\n")), "without line {}", drop + 1);
        }
    }
}

#[test]
fn a_wrong_claim_is_refused() {
    for format in FORMATS {
        let draw = certificate(rules(3, 2, Variant::Misere), format);
        for claim in ["P1", "P2"] {
            assert!(refused(
                &draw.replace("claim draw", &format!("claim {claim}"))
            ));
        }
        let win = certificate(rules(2, 2, Variant::Normal), format);
        assert!(refused(&win.replace("claim P2", "claim draw")));
        assert!(refused(&win.replace("claim P2", "claim P1")));
    }
}

/// The certificate with every stored turn's cell moved by the cell permutation `to` (cell
/// names of a 3x3 board).
fn turns_moved(text: &str, to: &[usize]) -> String {
    let names = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];
    each_line(text, |line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[..] {
            [cells, hand, turn] if !line.starts_with("strategy") => {
                let (cell, rest) = turn.split_at(2.min(turn.len()));
                match names.iter().position(|&n| n == cell) {
                    Some(c) => format!("{cells} {hand} {}{rest}", names[to[c]]),
                    None => line.to_string(),
                }
            }
            _ => line.to_string(),
        }
    })
}

#[test]
fn turns_that_only_work_under_a_permutation_that_is_not_a_symmetry_are_refused() {
    // Swapping a corner and the centre of 3x3 is no symmetry (it breaks the middle row), so
    // the checker does not have it, and a certificate whose turns were written in a frame
    // moved by it is refused; a true symmetry (the mirror a<->c) is in the checker's group.
    let rules = rules(3, 3, Variant::Normal);
    let canon = Canonizer::new(&rules);
    let has = |to: &[usize]| {
        canon
            .symmetries()
            .iter()
            .any(|m| (0..9).all(|c| m.image(c) as usize == to[c as usize]))
    };
    let corner_centre = [4, 1, 2, 3, 0, 5, 6, 7, 8];
    let mirror = [2, 1, 0, 5, 4, 3, 8, 7, 6];
    assert!(!has(&corner_centre) && has(&mirror));
    let text = certificate(rules, Format::Canonical);
    assert!(check(&text).is_ok());
    assert!(refused(&turns_moved(&text, &corner_centre)));
}

#[test]
fn a_version_2_entry_not_in_canonical_form_is_malformed() {
    // The opening handover is canonical as LSR (every attribute 0); written as DTQ it is the
    // same class in another frame, which version 2 does not allow.
    let text = certificate(rules(2, 3, Variant::Normal), Format::Canonical);
    assert!(text.contains("\n.... LSR "), "{text}");
    let moved = text.replacen("\n.... LSR ", "\n.... DTQ ", 1);
    let line = text
        .lines()
        .position(|l| l.starts_with(".... LSR "))
        .unwrap()
        + 1;
    match check(&moved) {
        Err(CheckError::Malformed(m)) => {
            assert_eq!(m.line, line, "{m}");
            assert!(m.reason.contains("canonical"), "{m}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_broken_file_is_malformed_with_its_line() {
    for format in FORMATS {
        let text = certificate(rules(2, 2, Variant::Normal), format);
        let version = format!("quarto-certificate {}", format.version());
        let cases = [
            (String::new(), 1),
            (text.replace(&version, "quarto-certificate 4"), 1),
            (text.replace("rules 2 2", "rules 2 x"), 2),
            (text.replace("rules 2 2 0,1", "rules 2 2 0,7"), 2),
            (text.replace("claim P2", "claim nobody"), 4),
            (text.replace("strategy P2 win", "strategy P3 win"), 5),
            (text.lines().take(6).collect::<Vec<_>>().join("\n"), 6),
        ];
        for (broken, line) in cases {
            match check(&broken) {
                Err(CheckError::Malformed(m)) => assert_eq!(m.line, line, "{m}"),
                other => panic!("{other:?} for line {line}"),
            }
        }
    }
}
