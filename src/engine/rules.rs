//! The parameters of a Connect-k game: line length, board size and win condition.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Largest number of bits a board may use: `width * (height + 1)` (one spare bit per column).
pub const MAX_BOARD_BITS: u32 = 128;

/// Largest line length accepted.
pub const MAX_K: u32 = 127;

/// Who benefits from completing a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// The player who completes a line wins.
    Normal,
    /// The player who completes a line loses.
    Misere,
}

impl Variant {
    /// The lowercase ASCII name used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Normal => "normal",
            Variant::Misere => "misere",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The rules name was not one of the known variants.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rules {0:?}: expected \"normal\" or \"misere\"")]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_lowercase().as_str() {
            "normal" => Ok(Variant::Normal),
            "misere" | "misère" => Ok(Variant::Misere),
            _ => Err(UnknownVariant(s.to_string())),
        }
    }
}

/// How the board's side walls meet: a flat board has two walls; a cylinder (an annulus, in
/// the paper's words) has none, its last column standing next to its first.
///
/// On a cylinder a line is k distinct cells, consecutive in one of the four directions with
/// the column taken modulo the width. Horizontal lines exist only for `k <= width` (longer
/// ones would repeat a cell); a diagonal may wind around a cylinder narrower than k, and its
/// cells are distinct because their rows are, so it counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Topology {
    /// Two side walls: the standard board.
    #[default]
    Flat,
    /// Periodic walls: column `width - 1` is next to column 0.
    Cylinder,
}

impl Topology {
    /// Both topologies, flat first.
    pub(crate) const ALL: [Topology; 2] = [Topology::Flat, Topology::Cylinder];

    /// The lowercase name used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Topology::Flat => "flat",
            Topology::Cylinder => "cylinder",
        }
    }
}

impl fmt::Display for Topology {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The topology name was not one of the known topologies.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown topology {0:?}: expected \"flat\" or \"cylinder\"")]
pub struct UnknownTopology(pub String);

impl FromStr for Topology {
    type Err = UnknownTopology;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Topology::ALL
            .into_iter()
            .find(|t| t.name() == s.to_lowercase())
            .ok_or_else(|| UnknownTopology(s.to_string()))
    }
}

#[cfg(feature = "cli")]
impl clap::ValueEnum for Topology {
    fn value_variants<'a>() -> &'a [Topology] {
        &Topology::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()))
    }
}

/// Why a set of rules was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// `k` was 0 or larger than [`MAX_K`].
    #[error("k = {0} is out of range: k must be between 1 and {MAX_K}")]
    K(u32),
    /// The width was 0.
    #[error("width = {0} is out of range: width must be at least 1")]
    Width(u32),
    /// The height was 0.
    #[error("height = {0} is out of range: height must be at least 1")]
    Height(u32),
    /// The board needs more bits than a bitboard holds.
    #[error(
        "a {width}x{height} board is too large: width * (height + 1) must be at most {MAX_BOARD_BITS}, here it is {bits}"
    )]
    TooLarge {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
        /// `width * (height + 1)`.
        bits: u64,
    },
}

/// Validated parameters of a game: line length `k`, board `width` x `height`, variant and
/// topology.
///
/// Built only by [`Rules::new`] (a flat board) and [`Rules::with_topology`], so every `Rules`
/// value describes a board the engine supports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rules {
    k: u8,
    width: u8,
    height: u8,
    variant: Variant,
    #[serde(default)]
    topology: Topology,
}

impl Rules {
    /// Checks and builds a set of rules.
    ///
    /// # Errors
    /// [`RulesError`] when `k`, `width` or `height` is 0, `k` exceeds [`MAX_K`], or the board
    /// needs more than [`MAX_BOARD_BITS`] bits.
    ///
    /// # Examples
    /// ```
    /// use connectk::{Rules, Variant};
    /// let rules = Rules::new(4, 7, 6, Variant::Misere).unwrap();
    /// assert_eq!(rules.cells(), 42);
    /// assert!(Rules::new(4, 20, 6, Variant::Normal).is_err());
    /// ```
    pub fn new(k: u32, width: u32, height: u32, variant: Variant) -> Result<Rules, RulesError> {
        if k == 0 || k > MAX_K {
            return Err(RulesError::K(k));
        }
        if width == 0 {
            return Err(RulesError::Width(width));
        }
        if height == 0 {
            return Err(RulesError::Height(height));
        }
        let bits = width as u64 * (height as u64 + 1);
        if bits > MAX_BOARD_BITS as u64 {
            return Err(RulesError::TooLarge {
                width,
                height,
                bits,
            });
        }
        Ok(Rules {
            k: k as u8,
            width: width as u8,
            height: height as u8,
            variant,
            topology: Topology::Flat,
        })
    }

    /// Standard Connect Four: k = 4 on a 7x6 board, normal rules.
    pub fn standard() -> Rules {
        Rules {
            k: 4,
            width: 7,
            height: 6,
            variant: Variant::Normal,
            topology: Topology::Flat,
        }
    }

    /// The same board and k under another variant.
    pub fn with_variant(self, variant: Variant) -> Rules {
        Rules { variant, ..self }
    }

    /// The same board, k and variant with the side walls of `topology`. Every board the
    /// engine takes flat it also takes as a cylinder, so nothing is refused.
    ///
    /// # Examples
    /// ```
    /// use connectk::{Rules, Topology, Variant};
    /// let ring = Rules::new(4, 7, 1, Variant::Misere).unwrap().with_topology(Topology::Cylinder);
    /// assert_eq!(ring.to_string(), "misere k=4 7x1 cylinder");
    /// ```
    pub fn with_topology(self, topology: Topology) -> Rules {
        Rules { topology, ..self }
    }

    /// Flat or cylinder.
    pub fn topology(self) -> Topology {
        self.topology
    }

    /// Whether the side walls are periodic.
    pub fn is_cylinder(self) -> bool {
        self.topology == Topology::Cylinder
    }

    /// Length of a line that ends the game.
    pub fn k(self) -> u32 {
        self.k as u32
    }

    /// Number of columns.
    pub fn width(self) -> u32 {
        self.width as u32
    }

    /// Number of rows.
    pub fn height(self) -> u32 {
        self.height as u32
    }

    /// Normal or misère.
    pub fn variant(self) -> Variant {
        self.variant
    }

    /// Number of cells, `width * height`.
    pub fn cells(self) -> u32 {
        self.width() * self.height()
    }

    /// Bits a bitboard of this board uses: one per cell plus one spare per column.
    pub(crate) fn board_bits(self) -> u32 {
        self.width() * (self.height() + 1)
    }
}

impl fmt::Display for Rules {
    /// `misere k=4 7x6` on a flat board (the form results files quote), with ` cylinder`
    /// added on a cylinder.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} k={} {}x{}",
            self.variant, self.k, self.width, self.height
        )?;
        match self.topology {
            Topology::Flat => Ok(()),
            Topology::Cylinder => write!(f, " {}", self.topology),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_enforced_with_named_errors() {
        assert_eq!(Rules::new(0, 7, 6, Variant::Normal), Err(RulesError::K(0)));
        assert_eq!(
            Rules::new(4, 0, 6, Variant::Normal),
            Err(RulesError::Width(0))
        );
        assert_eq!(
            Rules::new(4, 7, 0, Variant::Normal),
            Err(RulesError::Height(0))
        );
        assert!(Rules::new(4, 64, 1, Variant::Normal).is_ok());
        assert!(Rules::new(4, 1, 127, Variant::Normal).is_ok());
        let err = Rules::new(4, 65, 1, Variant::Normal).unwrap_err();
        assert!(err.to_string().contains("at most 128"), "{err}");
    }

    #[test]
    fn topology_is_shown_only_for_cylinders_and_parses_back() {
        let flat = Rules::new(4, 7, 6, Variant::Normal).unwrap();
        assert_eq!(flat.to_string(), "normal k=4 7x6");
        assert_eq!(flat.topology(), Topology::Flat);
        let ring = flat.with_topology(Topology::Cylinder);
        assert_eq!(ring.to_string(), "normal k=4 7x6 cylinder");
        assert!(ring.is_cylinder() && !flat.is_cylinder());
        for topology in Topology::ALL {
            assert_eq!(topology.to_string().parse::<Topology>(), Ok(topology));
        }
        let err = "torus".parse::<Topology>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown topology \"torus\": expected \"flat\" or \"cylinder\""
        );
    }

    #[test]
    fn variant_parses_both_spellings() {
        assert_eq!("misère".parse::<Variant>(), Ok(Variant::Misere));
        assert_eq!("Normal".parse::<Variant>(), Ok(Variant::Normal));
        assert!("suicide".parse::<Variant>().is_err());
    }
}
