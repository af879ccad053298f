//! One claim of the paper as a machine-checkable case, and the check of a case on one board.

use serde::{Deserialize, Serialize};

use crate::engine::notation;
use crate::engine::outcome::{GameResult, Player};
use crate::engine::position::Position;
use crate::engine::rules::{MAX_K, Rules, Topology, Variant};
use crate::solver::Solver;
use crate::strategy::StrategyName;
use crate::strategy::table1;
use crate::verify::{Claim, Rulebook, Verdict, verify_under};

use super::one_row::{self, MoveClaim};

/// Which heights a case covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Heights {
    /// Every height in range.
    Any,
    /// Even heights.
    Even,
    /// Odd heights of at least 3.
    OddAtLeast3,
    /// Height 1 only.
    One,
}

/// Which widths a case covers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Widths {
    /// Every width in range.
    #[default]
    Any,
    /// Odd widths.
    Odd,
    /// Even widths.
    Even,
}

/// Who plays the strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    /// The first player.
    P1,
    /// The second player.
    P2,
    /// Both players, each checked separately.
    Both,
    /// P1 on odd widths, P2 on even widths.
    ByWidthParity,
}

/// How a case is checked on one board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Check {
    /// The exact solver's outcome equals Table I's prediction.
    Table1,
    /// A strategy achieves its claim against every opponent reply.
    Strategy(StrategyCheck),
    /// Claims about single moves of a one-row k = 2 board (the paper's section E): after each
    /// claim's line, its moves give its value, and the other moves what it says.
    Moves {
        /// The claims, checked in order.
        claims: Vec<MoveClaim>,
    },
    /// Table II on a one-row k = 2 board: every play of every position, for each side, named by
    /// the templates, changes the tally as the table says.
    TableTwo,
}

/// A strategy that achieves `claim` against every opponent reply; optionally the longest game
/// the opponent can force is at most Corollary 1's bound or exactly `longest`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StrategyCheck {
    /// The strategy, by its command-line name.
    pub strategy: StrategyName,
    /// Who plays it.
    pub side: Side,
    /// What it must achieve.
    pub claim: Claim,
    /// Check the longest game against 1 + (w - floor(w/k)) h.
    #[serde(default)]
    pub corollary_1_bound: bool,
    /// Check the longest game equals this number of plies.
    #[serde(default)]
    pub longest: Option<u32>,
    /// Check Appendix A's relaxed game, in which the opponent's lines are ignored
    /// ([`Rulebook::OpponentCannotLose`]).
    #[serde(default)]
    pub opponent_cannot_lose: bool,
}

/// One claim of the paper and where it is checked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Short identifier, e.g. `theorem-1`.
    pub id: String,
    /// The claim's name in the paper.
    pub claim: String,
    /// The claim's wording, quoted from the paper.
    pub quote: String,
    /// Smallest and largest k.
    pub k: (u32, u32),
    /// Smallest and largest width.
    pub width: (u32, u32),
    /// Smallest and largest height.
    pub height: (u32, u32),
    /// Which heights in range.
    pub heights: Heights,
    /// Which widths in range.
    #[serde(default)]
    pub widths: Widths,
    /// Only boards with width >= k.
    #[serde(default)]
    pub width_at_least_k: bool,
    /// Only boards with width < k (section F's narrow boards).
    #[serde(default)]
    pub width_below_k: bool,
    /// Only boards with at most this many cells.
    pub max_cells: u32,
    /// The boards' side walls: flat (the paper's boards) or cylinder (its annulus).
    #[serde(default)]
    pub topology: Topology,
    /// An exploration rather than a claim: a strategy tried where the paper does not say it
    /// works, reported where it holds and where it is refuted, its refutations not counted as
    /// failures.
    #[serde(default)]
    pub explore: bool,
    /// The check to run on each board.
    pub check: Check,
}

/// The result of a case on one board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseRow {
    /// The case's id.
    pub case: String,
    /// Line length.
    pub k: u32,
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// `flat` or `cylinder`.
    #[serde(default)]
    pub topology: Topology,
    /// The player checked, if a strategy case.
    pub player: Option<String>,
    /// Whether the claim held.
    pub holds: bool,
    /// What was found (outcome, positions, longest game).
    pub detail: String,
    /// A move sequence refuting the claim, when it failed.
    pub refutation: Option<String>,
}

impl Case {
    /// Checks the case's ranges: each from low to high within the engine's limits (k from 1 to
    /// 127, width to 64, height to 127, at most 128 cells), selecting at least one board.
    ///
    /// # Errors
    /// A message naming the range at fault and what is allowed.
    pub(crate) fn check_ranges(&self) -> Result<(), String> {
        let ranges = [
            ("k", self.k, 1, MAX_K),
            ("width", self.width, 1, 64),
            ("height", self.height, 1, 127),
        ];
        for (name, (low, high), min, max) in ranges {
            if low < min || low > high || high > max {
                return Err(format!(
                    "{name} range [{low}, {high}]: give [low, high] with {min} <= low <= high <= {max}"
                ));
            }
        }
        if self.max_cells == 0 || self.max_cells > 128 {
            return Err(format!("max_cells {}: give 1 to 128", self.max_cells));
        }
        if self.boards().is_empty() {
            return Err(
                "its ranges and filters select no board: widen a range or drop a filter".into(),
            );
        }
        Ok(())
    }

    /// The boards of the case, in order of k, width, height.
    pub fn boards(&self) -> Vec<Rules> {
        let mut out = Vec::new();
        for k in self.k.0..=self.k.1 {
            for w in self.width.0..=self.width.1 {
                for h in self.height.0..=self.height.1 {
                    let height_ok = match self.heights {
                        Heights::Any => true,
                        Heights::Even => h % 2 == 0,
                        Heights::OddAtLeast3 => h >= 3 && h % 2 == 1,
                        Heights::One => h == 1,
                    };
                    let width_ok = match self.widths {
                        Widths::Any => true,
                        Widths::Odd => w % 2 == 1,
                        Widths::Even => w % 2 == 0,
                    };
                    let fits = w * h <= self.max_cells
                        && (!self.width_at_least_k || w >= k)
                        && (!self.width_below_k || w < k);
                    if height_ok
                        && width_ok
                        && fits
                        && let Ok(rules) = Rules::new(k, w, h, Variant::Misere)
                    {
                        out.push(rules.with_topology(self.topology));
                    }
                }
            }
        }
        out
    }

    /// Runs the case on one board, returning one row per player checked.
    pub fn run(&self, rules: Rules, solver: &mut Solver) -> Vec<CaseRow> {
        match &self.check {
            Check::Table1 => vec![self.check_table1(rules, solver)],
            Check::Strategy(check) => {
                let players = match &check.side {
                    Side::P1 => vec![Player::P1],
                    Side::P2 => vec![Player::P2],
                    Side::Both => vec![Player::P1, Player::P2],
                    Side::ByWidthParity if rules.width() % 2 == 1 => vec![Player::P1],
                    Side::ByWidthParity => vec![Player::P2],
                };
                players
                    .into_iter()
                    .map(|player| self.check_strategy(check, rules, player))
                    .collect()
            }
            Check::Moves { claims } => one_row::check_all_moves(rules, claims, solver)
                .into_iter()
                .map(|f| self.row(rules, f.player, f.holds, f.detail, f.refutation))
                .collect(),
            Check::TableTwo => one_row::check_table_2_both(rules)
                .into_iter()
                .map(|f| self.row(rules, f.player, f.holds, f.detail, f.refutation))
                .collect(),
        }
    }

    /// The row of this case on the board of `rules`, for `player` where the case checks one.
    fn row(
        &self,
        rules: Rules,
        player: Option<Player>,
        holds: bool,
        detail: String,
        refutation: Option<String>,
    ) -> CaseRow {
        CaseRow {
            case: self.id.clone(),
            k: rules.k(),
            width: rules.width(),
            height: rules.height(),
            topology: rules.topology(),
            player: player.map(|p| p.to_string()),
            holds,
            detail,
            refutation,
        }
    }

    /// Table I's prediction against the solver, with a principal variation where they differ.
    fn check_table1(&self, rules: Rules, solver: &mut Solver) -> CaseRow {
        let expected = table1::predict(rules.k(), rules.width(), rules.height());
        let found = solver.solve_weak(&Position::new(rules)).value.result;
        let holds = expected == Some(found);
        let detail = format!(
            "paper {}, solver {}",
            expected.map_or("-", GameResult::label),
            found.label()
        );
        let refutation = (!holds).then(|| {
            let line = solver.principal_variation(&Position::new(rules));
            notation::format(rules, &line)
        });
        self.row(rules, None, holds, detail, refutation)
    }

    /// The strategy of `check` played by `player` against every opponent reply, with the longest
    /// game held against the case's bounds.
    fn check_strategy(&self, check: &StrategyCheck, rules: Rules, player: Player) -> CaseRow {
        let rulebook = if check.opponent_cannot_lose {
            Rulebook::OpponentCannotLose
        } else {
            Rulebook::Standard
        };
        let mut strategy = match check.strategy.build(rules, player) {
            Ok(s) => s,
            Err(e) => return self.row(rules, Some(player), false, e.to_string(), None),
        };
        let start = Position::new(rules);
        match verify_under(
            rulebook,
            strategy.as_mut(),
            player,
            check.claim,
            &start,
            &[],
        ) {
            Verdict::Holds {
                positions,
                longest_game,
            } => {
                let bound = 1 + (rules.width() - rules.width() / rules.k()) * rules.height();
                let within = !check.corollary_1_bound || longest_game <= bound;
                let exact = check.longest.is_none_or(|l| l == longest_game);
                let mut detail =
                    format!("{positions} positions, longest game {longest_game} plies");
                if check.corollary_1_bound {
                    detail.push_str(&bound_reached(longest_game, bound));
                }
                self.row(rules, Some(player), within && exact, detail, None)
            }
            Verdict::Refuted {
                positions,
                line,
                reason,
            } => self.row(
                rules,
                Some(player),
                false,
                format!("{positions} positions: {reason}"),
                Some(notation::format(rules, &line)),
            ),
        }
    }
}

/// Corollary 1's bound beside the longest game: whether the strategy's opponent can reach it.
fn bound_reached(longest_game: u32, bound: u32) -> String {
    match bound.checked_sub(longest_game) {
        Some(0) => format!(", bound {bound} (reached)"),
        Some(short) => format!(", bound {bound} ({short} short of it)"),
        None => format!(", bound {bound} (passed)"),
    }
}
