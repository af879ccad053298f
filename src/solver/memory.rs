//! Memory sizes, as the solvers and the command line take them, and the memory of their
//! tables.

use std::fmt;
use std::str::FromStr;

use bytemuck::Zeroable;

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

/// The memory of a transposition table: `len` entries, all zero bits (an empty entry in every
/// table here), backed by huge pages where the system allows.
///
/// The memory comes zeroed from the system (bytemuck's [`bytemuck::zeroed_vec`] allocates with
/// `alloc_zeroed`, which a large allocation gets as fresh pages), so nothing is written here:
/// a page costs only when the search first touches it.
pub(crate) fn table_memory<T: Zeroable>(len: usize) -> Vec<T> {
    let entries = bytemuck::zeroed_vec(len);
    advise_huge_pages(&entries);
    entries
}

/// Asks the kernel to back the table's (not yet touched) memory with huge pages.
///
/// Every probe of a large table lands on a random page, so with 4 KiB pages nearly every probe
/// also misses the TLB (on this virtual machine that cost more than the cache miss itself);
/// 2 MiB pages cut those misses and the page faults of the first touch. The advice is only a
/// hint: where it is refused or unsupported, nothing changes.
fn advise_huge_pages<T>(entries: &[T]) {
    #[cfg(target_os = "linux")]
    {
        // The size of a transparent huge page on x86-64 and most other Linux machines.
        const HUGE: usize = Mib(2).bytes();
        let start = entries.as_ptr() as usize;
        let end = start + std::mem::size_of_val(entries);
        let aligned = start.next_multiple_of(HUGE);
        if end > aligned + HUGE {
            let len = (end - aligned) / HUGE * HUGE;
            // SAFETY: the range lies inside the slice's own allocation, and MADV_HUGEPAGE
            // changes only how the kernel backs the pages, never their contents.
            unsafe {
                libc::madvise(aligned as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = entries;
}
