//! A game against a bot at the terminal, one turn per line of input: the loop that `play` and
//! `quarto play` share.

use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;

/// What a line of input asked for.
pub enum Answer<M> {
    /// Play this move.
    Play(M),
    /// Nothing to play (a hint was shown, or the line was refused with its reason): read
    /// another line.
    Again,
    /// Stop the game.
    Quit,
}

/// A game at the terminal: the position, the human's side and the bot.
pub trait TerminalGame {
    /// A move (a column, a Quarto turn).
    type Move;

    /// The board as drawn after each move.
    fn diagram(&self) -> String;

    /// Whether the game is over.
    fn is_over(&self) -> bool;

    /// Whether the human moves next.
    fn human_to_move(&self) -> bool;

    /// The prompt before the human's line.
    fn prompt(&self) -> String;

    /// Reads the human's `line`, printing what it needs (a hint, why a move is refused).
    fn answer(&mut self, line: &str) -> anyhow::Result<Answer<Self::Move>>;

    /// The bot's move, printed.
    fn bot_move(&mut self) -> anyhow::Result<Self::Move>;

    /// Plays `mv`.
    fn play(&mut self, mv: Self::Move) -> anyhow::Result<()>;

    /// Prints how the game ended.
    fn finish(&self) -> anyhow::Result<()>;
}

/// Plays `game` to its end, reading the human's moves from standard input (echoed when it is
/// not a terminal, so that a piped session reads like a typed one). Exit status 0 when the
/// game ends or the human quits, 1 when the input ends first.
pub fn play(game: &mut impl TerminalGame) -> anyhow::Result<ExitCode> {
    let stdin = std::io::stdin();
    let echo = !stdin.is_terminal();
    let mut lines = stdin.lock().lines();
    out!("{}", game.diagram());
    while !game.is_over() {
        let mv = if game.human_to_move() {
            out!("{}", game.prompt());
            std::io::stdout().flush()?;
            let Some(line) = lines.next().transpose()? else {
                outln!();
                errln!("input ended before the game was over");
                return Ok(ExitCode::FAILURE);
            };
            if echo {
                outln!("{}", line.trim_end());
            }
            match game.answer(&line)? {
                Answer::Play(mv) => mv,
                Answer::Again => continue,
                Answer::Quit => return Ok(ExitCode::SUCCESS),
            }
        } else {
            game.bot_move()?
        };
        game.play(mv)?;
        out!("{}", game.diagram());
    }
    game.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// The seed of a bot's random choices: the one given, else one from the clock.
pub fn seed_or_clock(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    })
}
