//! `connectk play`: a game against a bot at the terminal, one move per line of input.

use std::process::ExitCode;
use std::time::Duration;

use connectk::analysis::perfect_values;
use connectk::arena::PlayerName;
use connectk::arena::human::{self, Command, HINT_TIME};
use connectk::strategy::{Game, Strategy};
use connectk::{Budget, Column, GameResult, Mib, Player, Position, Solver};

use super::board::BoardArgs;
use super::options::PerfectArgs;
use super::terminal::{self, Answer, TerminalGame};

/// Who moves first.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum First {
    /// You play P1 (X).
    Me,
    /// The bot plays P1 (X).
    Bot,
}

/// Play a game against a bot or a strategy at the terminal.
///
/// Play a game against a bot, one line of input per turn: a column number (from 1), `hint`
/// (the solver's value of every column, as far as it settles them within --hint-ms on every
/// core) or `quit`. The board is redrawn after each move and a completed line is shown in
/// brackets. Works with piped input. Exit status: 0 when the game ends or you quit, 1 when the
/// input ends first, 2 for bad options (such as a strategy that does not apply to the bot's
/// side).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    board: BoardArgs,
    /// The bot: one of the arena's players (a paper strategy only where it applies).
    #[arg(long, value_enum)]
    opponent: PlayerName,
    /// Who moves first.
    #[arg(long, value_enum, default_value_t = First::Me)]
    first: First,
    /// Seed of the bot's random choices (default: from the clock, printed at the start).
    #[arg(long)]
    seed: Option<u64>,
    /// Time a hint may take, in milliseconds.
    #[arg(long, default_value_t = HINT_TIME.as_millis() as u64, value_name = "MS")]
    hint_ms: u64,
    #[command(flatten)]
    perfect: PerfectArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.board.rules()?;
    let seed = terminal::seed_or_clock(args.seed);
    let me = match args.first {
        First::Me => Player::P1,
        First::Bot => Player::P2,
    };
    // The hint searches whoever the opponent is.
    let perfect = args.perfect.settings(rules, true)?;
    let bot = args.opponent.build(rules, me.other(), seed, &perfect)?;
    let name = args.opponent.as_str();
    outln!(
        "{rules}: you play {} ({me}), {name} plays {} ({}); seed {seed}",
        me.symbol(),
        me.other().symbol(),
        me.other()
    );
    outln!("Type a column number (1-{}), hint or quit.", rules.width());
    // The hint's solver: kept for the whole game, searching on every core while you think.
    let mut solver = Solver::new(Mib(64)).with_threads(super::workers(None));
    if let Some(book) = perfect.book() {
        solver = solver.with_book(book);
    }
    let mut game = ConnectGame {
        pos: Position::new(rules),
        moves: Vec::new(),
        me,
        bot,
        name,
        solver,
        hint_time: Duration::from_millis(args.hint_ms),
    };
    terminal::play(&mut game)
}

/// A Connect-k game against a bot at the terminal.
struct ConnectGame {
    pos: Position,
    moves: Vec<Column>,
    me: Player,
    bot: Box<dyn Strategy>,
    name: &'static str,
    /// The hint's solver.
    solver: Solver,
    hint_time: Duration,
}

impl TerminalGame for ConnectGame {
    type Move = Column;

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
        format!("your move ({}): ", self.me.symbol())
    }

    fn answer(&mut self, line: &str) -> anyhow::Result<Answer<Column>> {
        Ok(match human::parse_command(line, &self.pos) {
            Ok(Command::Play(column)) => Answer::Play(column),
            Ok(Command::Hint) => {
                print_hints(&self.pos, &mut self.solver, self.hint_time)?;
                Answer::Again
            }
            Ok(Command::Quit) => {
                outln!("you quit after {} plies", self.pos.plies());
                Answer::Quit
            }
            Err(e) => {
                outln!("refused: {e}");
                Answer::Again
            }
        })
    }

    fn bot_move(&mut self) -> anyhow::Result<Column> {
        let game = Game {
            position: &self.pos,
            moves: &self.moves,
        };
        let column = self.bot.choose(game)?;
        self.pos.check_move(column)?;
        outln!("{} plays column {column}", self.name);
        Ok(column)
    }

    fn play(&mut self, column: Column) -> anyhow::Result<()> {
        self.pos.play(column)?;
        self.moves.push(column);
        Ok(())
    }

    fn finish(&self) -> anyhow::Result<()> {
        let outcome = self.pos.outcome().expect("the game is over");
        outln!("game over: {outcome}");
        let verdict = match outcome.result {
            GameResult::Win(p) if p == self.me => "you win".to_string(),
            GameResult::Win(_) => format!("{} wins", self.name),
            GameResult::Draw => "draw".to_string(),
        };
        outln!("{verdict}");
        Ok(())
    }
}

/// Prints the solver's value of every column for the side to move, as far as it settles them
/// within `budget`.
fn print_hints(pos: &Position, solver: &mut Solver, budget: Duration) -> std::io::Result<()> {
    let values = perfect_values(solver, pos, Budget::time(budget));
    outln!("hint (perfect play from here, plies counted from your move):");
    for index in 0..pos.rules().width() {
        let column = Column::new(index);
        let text = values
            .moves
            .iter()
            .find(|(c, _)| *c == column)
            .map_or("full".to_string(), |(_, value)| {
                human::describe(pos.to_move(), *value)
            });
        outln!("  column {column}: {text}");
    }
    Ok(())
}
