//! The options Quarto's subcommands share: the rules, and the positions a split solve takes.

use connectk::Variant;
use connectk::quarto::split::Selection;
use connectk::quarto::{Position, Rules, notation};

/// `--size`, `--attributes`, `--rules`, `--criteria`, `--square`.
#[derive(clap::Args, Debug, Clone)]
pub struct RulesArgs {
    /// Board side: 2, 3 or 4.
    #[arg(long, default_value_t = 4)]
    size: u32,
    /// Attributes per piece, 1 to 4 (2^A pieces; with fewer pieces than cells the game is a
    /// draw when they run out).
    #[arg(long, default_value_t = 4)]
    attributes: u32,
    /// `normal` (a line wins) or `misere` (a line loses).
    #[arg(long, default_value = "normal", value_name = "normal|misere")]
    rules: Variant,
    /// Attributes that count for a line (the beginners' variation), comma-separated: numbers
    /// from 0 or the names colour, height, shape, fill. Default: all.
    #[arg(long, value_name = "LIST")]
    criteria: Option<String>,
    /// Four pieces of a 2x2 square sharing an attribute also end the game.
    #[arg(long)]
    square: bool,
}

impl RulesArgs {
    /// The validated rules.
    pub fn rules(&self) -> anyhow::Result<Rules> {
        let criteria = self
            .criteria
            .as_deref()
            .map(|c| Rules::parse_criteria(c, self.attributes))
            .transpose()?;
        Ok(Rules::new(
            self.size,
            self.attributes,
            criteria,
            self.rules,
            self.square,
        )?)
    }

    /// The rules and the position after `record`.
    pub fn position(&self, record: &str) -> anyhow::Result<(Rules, Position)> {
        let rules = self.rules()?;
        let (pos, _) = notation::parse(rules, record)?;
        Ok((rules, pos))
    }
}

/// `--turns`, `--sample`, `--seed`: which positions a split solve takes.
#[derive(clap::Args, Debug, Clone)]
pub struct OpeningsArgs {
    /// Turns played in each position (2: standard Quarto has 8 positions up to symmetry; 3:
    /// many more, smaller).
    #[arg(long, default_value_t = 2)]
    turns: u32,
    /// Solve only N positions after TURNS turns, reached by random turns (seeded by
    /// --seed), instead of every class: for games too large for every class.
    #[arg(long, value_name = "N")]
    sample: Option<usize>,
    /// Seed of --sample.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

impl OpeningsArgs {
    /// The positions chosen.
    pub fn selection(&self) -> Selection {
        Selection {
            turns: self.turns,
            sample: self.sample.map(|n| (n, self.seed)),
        }
    }
}
