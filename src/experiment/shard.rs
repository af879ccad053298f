//! Cutting a list of work into shards for a job array: `--shard I/N` on the command line.

use std::fmt;
use std::str::FromStr;

/// The `index`-th (1-based) of `count` deterministic slices of a list of work (boards of a
/// sweep, subtrees of a book), one for each task of a job array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, from 1.
    pub index: u32,
    /// How many slices.
    pub count: u32,
}

impl Shard {
    /// The items of this shard: every `count`-th item of the fixed order, starting at `index`.
    /// Interleaving spreads the large items (boards, subtrees) evenly over the shards.
    pub(crate) fn select<T: Clone>(&self, items: &[T]) -> Vec<T> {
        items
            .iter()
            .enumerate()
            .filter(|&(i, _)| self.owns(i))
            .map(|(_, item)| item.clone())
            .collect()
    }

    /// Whether item `index` (from 0) of the fixed order belongs to this shard.
    pub(crate) fn owns(&self, index: usize) -> bool {
        index % self.count as usize == self.index as usize - 1
    }
}

/// A shard string was not `I/N` with `1 <= I <= N`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad shard {0:?}: expected I/N with 1 <= I <= N, e.g. 3/8")]
pub struct BadShard(String);

impl FromStr for Shard {
    type Err = BadShard;

    fn from_str(s: &str) -> Result<Shard, BadShard> {
        let bad = || BadShard(s.to_string());
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_strings() {
        assert_eq!("2/8".parse::<Shard>(), Ok(Shard { index: 2, count: 8 }));
        assert!("0/8".parse::<Shard>().is_err());
        assert!("9/8".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
    }
}
