//! `connectk quarto play`: a game against a bot at the terminal, one turn per line of input.

use std::process::ExitCode;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use connectk::Player;
use connectk::quarto::players::{self, Kind};
use connectk::quarto::{Position, Rules, Turn, notation};

use super::options::RulesArgs;
use crate::cli::terminal::{self, Answer, TerminalGame};

/// Who hands over the first piece.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum First {
    /// You are P1: you hand over the first piece.
    Me,
    /// The bot is P1.
    Bot,
}

/// Play Quarto against a bot at the terminal.
///
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
    let seed = terminal::seed_or_clock(args.seed);
    let me = match args.first {
        First::Me => Player::P1,
        First::Bot => Player::P2,
    };
    outln!(
        "{rules}: you are {me}, {} is {}; seed {seed}",
        args.opponent.name(),
        me.other()
    );
    outln!("Type a turn (the opening piece, then cell:piece such as b3:LSRF) or quit.");
    let mut game = QuartoGame {
        rules,
        pos: Position::new(rules),
        turns: Vec::new(),
        me,
        bot: args.opponent.bot(ChaCha8Rng::seed_from_u64(seed)),
    };
    terminal::play(&mut game)
}

/// A Quarto game against a bot at the terminal.
struct QuartoGame {
    rules: Rules,
    pos: Position,
    turns: Vec<Turn>,
    me: Player,
    bot: players::Bot,
}

impl TerminalGame for QuartoGame {
    type Move = Turn;

    fn diagram(&self) -> String {
        self.pos.diagram()
    }

    fn is_over(&self) -> bool {
        self.pos.is_over()
    }

    fn human_to_move(&self) -> bool {
        self.pos.to_move() == self.me
    }

    fn prompt(&self) -> String {
        "your turn: ".to_string()
    }

    fn answer(&mut self, line: &str) -> anyhow::Result<Answer<Turn>> {
        let words: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .collect();
        Ok(match words.as_slice() {
            ["quit"] => Answer::Quit,
            [word] => match notation::play_turn(&self.pos, word) {
                Ok((turn, _)) => Answer::Play(turn),
                Err(reason) => {
                    outln!("{reason}");
                    Answer::Again
                }
            },
            _ => {
                outln!("one turn per line, please");
                Answer::Again
            }
        })
    }

    fn bot_move(&mut self) -> anyhow::Result<Turn> {
        let turn = self
            .bot
            .choose(&self.pos)
            .ok_or_else(|| anyhow::anyhow!("the bot has no turn in a game that goes on"))?;
        outln!(
            "{} plays {}",
            self.bot.kind().name(),
            notation::format_turn(&self.rules, turn)
        );
        Ok(turn)
    }

    fn play(&mut self, turn: Turn) -> anyhow::Result<()> {
        self.pos = self.pos.play(turn)?;
        self.turns.push(turn);
        Ok(())
    }

    fn finish(&self) -> anyhow::Result<()> {
        outln!("record: {}", notation::format(&self.rules, &self.turns));
        Ok(())
    }
}
