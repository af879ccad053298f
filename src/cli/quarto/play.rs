//! `connectk quarto play`: a game against a bot at the terminal, one turn per line of input.

use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use connectk::Player;
use connectk::quarto::notation;
use connectk::quarto::players::Kind;
use connectk::quarto::{Position, Turn};

use super::RulesArgs;

/// Who hands over the first piece.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum First {
    /// You are P1: you hand over the first piece.
    Me,
    /// The bot is P1.
    Bot,
}

/// Play Quarto against a bot, one turn per line of input: the opening piece (`DTQH`), then
/// `cell:piece` (place the piece you hold on the cell, hand over the piece, e.g. `b3:LSRF`),
/// a bare cell for a last placement, or `quit`. The board is redrawn after each turn.
/// Works with piped input. Exit status: 0 when the game ends or you quit, 1 when the input
/// ends first, 2 for bad options.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// The bot.
    #[arg(long, value_enum, default_value_t = Kind::Careful)]
    opponent: Kind,
    /// Who hands over the first piece.
    #[arg(long, value_enum, default_value_t = First::Me)]
    first: First,
    /// Seed of the bot's random choices (default: from the clock, printed at the start).
    #[arg(long)]
    seed: Option<u64>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    });
    let me = match args.first {
        First::Me => Player::P1,
        First::Bot => Player::P2,
    };
    let mut bot = args.opponent.player(ChaCha8Rng::seed_from_u64(seed));
    outln!(
        "{rules}: you are {me}, {} is {}; seed {seed}",
        args.opponent.name(),
        me.other()
    );
    outln!("Type a turn (the opening piece, then cell:piece such as b3:LSRF) or quit.");
    let stdin = std::io::stdin();
    let echo = !stdin.is_terminal();
    let mut lines = stdin.lock().lines();
    let mut pos = Position::new(rules);
    let mut turns: Vec<Turn> = Vec::new();
    out!("{}", pos.diagram());
    while !pos.is_over() {
        let turn = if pos.to_move() == me {
            out!("your turn: ");
            std::io::stdout().flush()?;
            let Some(line) = lines.next().transpose()? else {
                outln!();
                errln!("input ended before the game was over");
                return Ok(ExitCode::FAILURE);
            };
            let line = line.trim();
            if echo {
                outln!("{line}");
            }
            if line == "quit" {
                return Ok(ExitCode::SUCCESS);
            }
            // Check the turn against the game so far: the parser names what is wrong.
            let record = format!("{} {line}", notation::format(&rules, &turns));
            match notation::parse(rules, &record) {
                Ok((_, all)) if all.len() == turns.len() + 1 => all[turns.len()],
                Ok(_) => {
                    outln!("one turn per line, please");
                    continue;
                }
                Err(e) => {
                    outln!("{}", e.reason);
                    continue;
                }
            }
        } else {
            let turn = bot.choose(&pos).expect("the game goes on");
            outln!(
                "{} plays {}",
                args.opponent.name(),
                notation::format_turn(&rules, turn)
            );
            turn
        };
        pos = pos.play(turn).expect("checked turn");
        turns.push(turn);
        out!("{}", pos.diagram());
    }
    outln!("record: {}", notation::format(&rules, &turns));
    Ok(ExitCode::SUCCESS)
}
