//! Unsigned integers used as bitboards, so one engine serves 64-bit and 128-bit boards.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{Add, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr, Sub};

/// An unsigned integer that holds one bit per cell of a board.
///
/// Implemented for `u64` (boards with `width * (height + 1) <= 64`, such as 7x6) and `u128`
/// (every board up to 128 bits). Search code is generic over this trait so that the common
/// boards run on native 64-bit words.
pub trait Bits:
    Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitAndAssign
    + BitOr<Output = Self>
    + BitOrAssign
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + Add<Output = Self>
    + Sub<Output = Self>
{
    /// The empty set.
    const ZERO: Self;
    /// The set holding bit 0 only.
    const ONE: Self;
    /// How many bits the type holds.
    const BITS: u32;

    /// Number of set bits.
    fn count_ones(self) -> u32;
    /// Index of the lowest set bit (`BITS` for zero).
    fn trailing_zeros(self) -> u32;
    /// Widens to `u128` without loss.
    fn to_u128(self) -> u128;
    /// Narrows from `u128`; the caller guarantees that the value fits.
    fn from_u128(value: u128) -> Self;
    /// A well-mixed 64-bit hash, used to index transposition tables.
    fn mix(self) -> u64;

    /// Whether no bit is set.
    #[inline]
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }

    /// The set with only the lowest set bit of `self`.
    #[inline]
    fn lowest(self) -> Self {
        self & !(self - Self::ONE)
    }
}

/// Murmur3's 64-bit finaliser: every input bit affects every output bit.
#[inline]
fn fmix64(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

impl Bits for u64 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    const BITS: u32 = 64;

    #[inline]
    fn count_ones(self) -> u32 {
        u64::count_ones(self)
    }
    #[inline]
    fn trailing_zeros(self) -> u32 {
        u64::trailing_zeros(self)
    }
    #[inline]
    fn to_u128(self) -> u128 {
        self as u128
    }
    #[inline]
    fn from_u128(value: u128) -> Self {
        debug_assert!(value <= u64::MAX as u128);
        value as u64
    }
    #[inline]
    fn mix(self) -> u64 {
        fmix64(self)
    }
}

impl Bits for u128 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    const BITS: u32 = 128;

    #[inline]
    fn count_ones(self) -> u32 {
        u128::count_ones(self)
    }
    #[inline]
    fn trailing_zeros(self) -> u32 {
        u128::trailing_zeros(self)
    }
    #[inline]
    fn to_u128(self) -> u128 {
        self
    }
    #[inline]
    fn from_u128(value: u128) -> Self {
        value
    }
    #[inline]
    fn mix(self) -> u64 {
        fmix64(self as u64 ^ fmix64((self >> 64) as u64))
    }
}

/// Iterates over the single-bit subsets of a set, lowest first.
pub(crate) struct BitIter<B: Bits>(pub(crate) B);

impl<B: Bits> Iterator for BitIter<B> {
    type Item = B;

    #[inline]
    fn next(&mut self) -> Option<B> {
        if self.0.is_empty() {
            return None;
        }
        let bit = self.0.lowest();
        self.0 = self.0 ^ bit;
        Some(bit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lowest_and_iteration_agree_for_both_widths() {
        let v: u64 = 0b1011_0000;
        assert_eq!(v.lowest(), 0b1_0000);
        assert_eq!(
            BitIter(v).collect::<Vec<_>>(),
            vec![0b1_0000, 0b10_0000, 0b1000_0000]
        );
        let w: u128 = (1u128 << 100) | 4;
        assert_eq!(BitIter(w).collect::<Vec<_>>(), vec![4, 1u128 << 100]);
    }

    #[test]
    fn mix_separates_nearby_values() {
        assert_ne!(1u64.mix(), 2u64.mix());
        assert_ne!((1u128 << 70).mix(), (1u128 << 71).mix());
    }
}
