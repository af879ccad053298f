//! `connectk verify`: prove or refute a strategy's claim against every opponent reply.

use std::process::ExitCode;

use clap::ValueEnum;
use serde::Serialize;

use connectk::strategy::StrategyName;
use connectk::verify::{Claim, Rulebook, Verdict, verify_under};
use connectk::{Player, notation};

use super::board::BoardArgs;

/// Check a strategy against every reply of an unrestricted opponent.
///
/// Play a strategy against every possible reply of an unrestricted opponent and check a claim
/// about the result. Exit status: 0 when the claim holds, 1 when it is refuted (the shortest
/// refuting line is printed), 2 for bad input.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    board: BoardArgs,
    /// The strategy.
    #[arg(long, value_enum)]
    strategy: StrategyName,
    /// The player the strategy plays.
    #[arg(long, value_enum)]
    player: PlayerArg,
    /// What the strategy must achieve.
    #[arg(long, value_enum, default_value = "win")]
    claim: ClaimArg,
    /// Start from the position after these moves instead of the empty board (played under the
    /// game's own rules).
    #[arg(long, default_value = "")]
    moves: String,
    /// Check Appendix A's relaxed game, in which the opponent cannot lose: lines the opponent
    /// completes are ignored (they neither end nor decide the game), so only a line of the
    /// strategy's player or a full board ends it. With --claim draw-or-better under misère
    /// rules this checks that the strategy's player never completes a line of k.
    #[arg(long)]
    opponent_cannot_lose: bool,
    /// Print one JSON object instead of text: rules, k, width, height, moves, strategy,
    /// rulebook, player, claim, the verdict (`holds` with positions and longest_game, or
    /// `refuted` with positions, line and reason) and the refutation in move notation.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum PlayerArg {
    #[value(name = "P1")]
    P1,
    #[value(name = "P2")]
    P2,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ClaimArg {
    Win,
    DrawOrBetter,
}

/// The object `--json` prints.
#[derive(Serialize)]
struct JsonVerdict<'a> {
    /// `normal` or `misere`.
    rules: &'static str,
    k: u32,
    width: u32,
    height: u32,
    /// The moves before the strategy takes over.
    moves: String,
    strategy: &'a str,
    rulebook: Rulebook,
    player: Player,
    claim: Claim,
    #[serde(flatten)]
    verdict: &'a Verdict,
    refutation: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.board.rules()?;
    let player = match args.player {
        PlayerArg::P1 => Player::P1,
        PlayerArg::P2 => Player::P2,
    };
    let claim = match args.claim {
        ClaimArg::Win => Claim::Win,
        ClaimArg::DrawOrBetter => Claim::DrawOrBetter,
    };
    let mut strategy = args.strategy.build(rules, player)?;
    let (start, moves) = notation::parse(rules, &args.moves)?;
    let rulebook = if args.opponent_cannot_lose {
        Rulebook::OpponentCannotLose
    } else {
        Rulebook::Standard
    };
    let verdict = verify_under(rulebook, strategy.as_mut(), player, claim, &start, &moves);
    let refutation = match &verdict {
        Verdict::Refuted { line, .. } => {
            let mut full = moves.clone();
            full.extend(line);
            Some(notation::format(rules, &full))
        }
        Verdict::Holds { .. } => None,
    };
    if args.json {
        let json = JsonVerdict {
            rules: rules.variant().name(),
            k: rules.k(),
            width: rules.width(),
            height: rules.height(),
            moves: notation::format(rules, &moves),
            strategy: strategy.name(),
            rulebook,
            player,
            claim,
            verdict: &verdict,
            refutation: refutation.clone(),
        };
        outln!("{}", serde_json::to_string(&json)?);
    } else {
        let claim_text = match claim {
            Claim::Win => "wins",
            Claim::DrawOrBetter => "never loses",
        };
        let relaxed = match rulebook {
            Rulebook::Standard => "",
            Rulebook::OpponentCannotLose => " (the opponent cannot lose)",
        };
        outln!(
            "claim: {} playing {player} {claim_text} on {rules}{relaxed}",
            strategy.name(),
        );
        match &verdict {
            Verdict::Holds {
                positions,
                longest_game,
            } => outln!(
                "holds against every reply: {positions} positions examined, longest game {longest_game} plies"
            ),
            Verdict::Refuted {
                positions, reason, ..
            } => outln!(
                "refuted after {positions} positions: moves \"{}\": {reason}",
                refutation.as_deref().unwrap_or("")
            ),
        }
    }
    Ok(match verdict {
        Verdict::Holds { .. } => ExitCode::SUCCESS,
        Verdict::Refuted { .. } => ExitCode::FAILURE,
    })
}
