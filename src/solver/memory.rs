//! Memory sizes, as the solvers and the command line take them.

use std::fmt;
use std::str::FromStr;

/// An amount of memory in mebibytes (MiB): the unit of every table size.
///
/// # Examples
/// ```
/// use connectk::Mib;
/// assert_eq!(Mib(64).bytes(), 64 * 1024 * 1024);
/// assert_eq!("16".parse::<Mib>(), Ok(Mib(16)));
/// assert!("-1".parse::<Mib>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Mib(pub usize);

impl Mib {
    /// The largest size accepted from text, 1 TiB: larger sizes are surely typos, and their
    /// byte counts could overflow.
    pub const MAX: Mib = Mib(1 << 20);

    /// The size in bytes.
    pub const fn bytes(self) -> usize {
        self.0.saturating_mul(1 << 20)
    }
}

impl fmt::Display for Mib {
    /// The number of MiB alone, as it is written on the command line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A memory size that is not a whole number of MiB from 0 to [`Mib::MAX`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a memory size: expected a whole number of MiB from 0 to {max}", max = Mib::MAX.0)]
pub struct MibError(pub String);

impl FromStr for Mib {
    type Err = MibError;

    fn from_str(text: &str) -> Result<Mib, MibError> {
        text.parse::<usize>()
            .ok()
            .filter(|&mib| mib <= Mib::MAX.0)
            .map(Mib)
            .ok_or_else(|| MibError(text.to_string()))
    }
}
