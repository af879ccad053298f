//! Proof certificates: written for small variations and accepted by the separate checker,
//! and refused once corrupted (a changed turn, a missing reply, a wrong claim, a broken file).

use crate::quarto_support;

use connectk::quarto::certificate::certify;
use connectk::quarto::check::{CheckError, check};
use connectk::quarto::{Position, Rules, Solver, notation};
use connectk::{GameResult, Player, Variant};

use quarto_support::Plain;

fn rules(size: u32, attributes: u32, variant: Variant) -> Rules {
    Rules::new(size, attributes, None, variant, false).unwrap()
}

/// The certificate text of the empty board of `rules`.
fn certificate(rules: Rules) -> String {
    let mut solver = Solver::new(rules, 1 << 22);
    certify(&mut solver, &Position::new(rules), "")
        .unwrap()
        .to_text()
}

fn refused(text: &str) -> bool {
    matches!(check(text), Err(CheckError::Refuted(_)))
}

#[test]
fn certificates_of_small_variations_are_accepted_with_the_plain_minimax_outcome() {
    for variant in [Variant::Normal, Variant::Misere] {
        for (size, attributes) in [(2, 1), (2, 2), (3, 2), (3, 3)] {
            let rules = rules(size, attributes, variant);
            let verdict = check(&certificate(rules)).unwrap();
            let expected = Plain::new(&rules).value(&Position::new(rules)).result;
            assert_eq!(verdict.claim, expected, "{rules}");
        }
    }
    // Among them: wins for P2 (normal and misère 2x2 with two attributes) and draws.
    assert_eq!(
        check(&certificate(rules(2, 2, Variant::Misere)))
            .unwrap()
            .claim,
        GameResult::Win(Player::P2)
    );
    assert_eq!(
        check(&certificate(rules(3, 2, Variant::Misere)))
            .unwrap()
            .claim,
        GameResult::Draw
    );
}

#[test]
fn a_certificate_of_a_position_within_a_game_is_accepted() {
    let rules = rules(3, 3, Variant::Misere);
    let record = "LSR a1:DTQ b2:LTR";
    let (pos, _) = notation::parse(rules, record).unwrap();
    let mut solver = Solver::new(rules, 1 << 22);
    let text = certify(&mut solver, &pos, record).unwrap().to_text();
    assert!(text.contains(&format!("root {record}\n")));
    assert_eq!(
        check(&text).unwrap().claim,
        Plain::new(&rules).value(&pos).result
    );
}

/// The certificate lines with the entry for `position` (cells and hand) given `turn`.
fn with_turn(text: &str, position: &str, turn: &str) -> String {
    text.lines()
        .map(|line| match line.strip_prefix(position) {
            Some(_) => format!("{position} {turn}"),
            None => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_changed_turn_is_refused() {
    // Normal 2x2 with two attributes: P2 wins; its first placement and handover are in the
    // entry for the board with only the opening piece handed over.
    let rules = rules(2, 2, Variant::Normal);
    let text = certificate(rules);
    let entry = text
        .lines()
        .find(|l| l.starts_with("....") && !l.ends_with('-'))
        .unwrap();
    let words: Vec<&str> = entry.split_whitespace().collect();
    let position = format!("{} {}", words[0], words[1]);
    // Every other turn there that plain minimax says does not win must be refused, and an
    // illegal one too.
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
    assert!(refused(&with_turn(&text, &position, "a1:XX")));
}

#[test]
fn a_missing_reply_is_refused() {
    let text = certificate(rules(3, 2, Variant::Misere));
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

#[test]
fn a_wrong_claim_is_refused() {
    let draw = certificate(rules(3, 2, Variant::Misere));
    for claim in ["P1", "P2"] {
        assert!(refused(
            &draw.replace("claim draw", &format!("claim {claim}"))
        ));
    }
    let win = certificate(rules(2, 2, Variant::Normal));
    assert!(refused(&win.replace("claim P2", "claim draw")));
    assert!(refused(&win.replace("claim P2", "claim P1")));
}

#[test]
fn a_broken_file_is_malformed_with_its_line() {
    let text = certificate(rules(2, 2, Variant::Normal));
    let cases = [
        (String::new(), 1),
        (
            text.replace("quarto-certificate 1", "quarto-certificate 2"),
            1,
        ),
        (text.replace("rules 2 2", "rules 2 x"), 2),
        (text.replace("rules 2 2 0,1", "rules 2 2 0,7"), 2),
        (text.replace("claim P2", "claim nobody"), 4),
        (text.replace("strategy P2 win", "strategy P3 win"), 5),
        (text.lines().take(8).collect::<Vec<_>>().join("\n"), 8),
    ];
    for (broken, line) in cases {
        match check(&broken) {
            Err(CheckError::Malformed(m)) => assert_eq!(m.line, line, "{m}"),
            other => panic!("{other:?} for line {line}"),
        }
    }
}
