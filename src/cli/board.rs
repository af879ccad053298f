//! Board options shared by every subcommand.

use clap::Args;

use connectk::{Position, Rules, Topology, Variant, notation};

/// `--rules`, `--width`, `--height`, `-k`, `--topology`.
#[derive(Args, Debug, Clone)]
pub struct BoardArgs {
    /// Win condition: `normal` (a line wins) or `misere` (a line loses).
    #[arg(long, default_value = "normal", value_name = "normal|misere")]
    pub rules: Variant,
    /// Board width (columns); width * (height + 1) must be at most 128.
    #[arg(long, default_value_t = 7)]
    pub width: u32,
    /// Board height (rows).
    #[arg(long, default_value_t = 6)]
    pub height: u32,
    /// Line length that ends the game (1 to 127).
    #[arg(short, default_value_t = 4)]
    pub k: u32,
    /// Side walls: `flat`, or `cylinder` (the paper's annulus: column `width` is next to
    /// column 1, and lines run around).
    #[arg(long, value_enum, default_value_t = Topology::Flat)]
    pub topology: Topology,
}

impl BoardArgs {
    /// The validated rules.
    pub fn rules(&self) -> anyhow::Result<Rules> {
        Ok(Rules::new(self.k, self.width, self.height, self.rules)?.with_topology(self.topology))
    }

    /// The rules and the position after `moves`.
    pub fn position(&self, moves: &str) -> anyhow::Result<(Rules, Position)> {
        let rules = self.rules()?;
        let (pos, _) = notation::parse(rules, moves)?;
        Ok((rules, pos))
    }
}
