//! A per-address rate limit (a token bucket for each client address), for the requests that
//! cost the server something it keeps, such as a new room.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// How many addresses the limiter remembers at most; past that it forgets those whose buckets
/// have refilled, and if none have, the one that asked longest ago.
const MAX_ADDRESSES: usize = 10_000;

/// One address's bucket: tokens left at `at`.
#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// At most `burst` requests at once from one address, and `per_minute` a minute after that.
#[derive(Debug)]
pub(crate) struct RateLimit {
    per_minute: u32,
    burst: u32,
    buckets: HashMap<IpAddr, Bucket>,
}

impl RateLimit {
    /// A limit of `per_minute` requests a minute with bursts of `burst` (both at least 1).
    pub(crate) fn new(per_minute: u32, burst: u32) -> RateLimit {
        RateLimit {
            per_minute: per_minute.max(1),
            burst: burst.max(1),
            buckets: HashMap::new(),
        }
    }

    fn refill_rate(&self) -> f64 {
        f64::from(self.per_minute) / 60.0
    }

    fn refilled(&self, bucket: Bucket, now: Instant) -> f64 {
        let earned = now.duration_since(bucket.at).as_secs_f64() * self.refill_rate();
        (bucket.tokens + earned).min(f64::from(self.burst))
    }

    /// Takes one request of `address` at `now`.
    ///
    /// # Errors
    /// How long the address must wait before its next request is allowed.
    pub(crate) fn take(&mut self, address: IpAddr, now: Instant) -> Result<(), Duration> {
        if self.buckets.len() >= MAX_ADDRESSES && !self.buckets.contains_key(&address) {
            self.forget(now);
        }
        let full = Bucket {
            tokens: f64::from(self.burst),
            at: now,
        };
        let bucket = self.buckets.get(&address).copied().unwrap_or(full);
        let tokens = self.refilled(bucket, now);
        if tokens < 1.0 {
            return Err(Duration::from_secs_f64((1.0 - tokens) / self.refill_rate()));
        }
        self.buckets.insert(
            address,
            Bucket {
                tokens: tokens - 1.0,
                at: now,
            },
        );
        Ok(())
    }

    /// Forgets the addresses whose buckets are full again, or failing that the one that asked
    /// longest ago.
    fn forget(&mut self, now: Instant) {
        let burst = f64::from(self.burst);
        let refilled: Vec<(IpAddr, f64)> = self
            .buckets
            .iter()
            .map(|(a, b)| (*a, self.refilled(*b, now)))
            .collect();
        for (address, tokens) in refilled {
            if tokens >= burst {
                self.buckets.remove(&address);
            }
        }
        if self.buckets.len() >= MAX_ADDRESSES {
            let oldest = self
                .buckets
                .iter()
                .min_by_key(|(_, b)| b.at)
                .map(|(a, _)| *a);
            if let Some(address) = oldest {
                self.buckets.remove(&address);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    #[test]
    fn a_burst_then_the_rate() {
        let mut limit = RateLimit::new(60, 3);
        let (a, b) = (
            IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1)),
        );
        let t = Instant::now();
        for _ in 0..3 {
            limit.take(a, t).unwrap();
        }
        let wait = limit.take(a, t).unwrap_err();
        assert!(
            wait > Duration::from_millis(900) && wait <= Duration::from_secs(1),
            "{wait:?}"
        );
        // Another address has its own bucket.
        limit.take(b, t).unwrap();
        // One a second at 60 a minute.
        limit.take(a, t + Duration::from_secs(1)).unwrap();
        assert!(limit.take(a, t + Duration::from_secs(1)).is_err());
    }

    #[test]
    fn memory_is_bounded() {
        let mut limit = RateLimit::new(1, 1);
        let t = Instant::now();
        for n in 0..(MAX_ADDRESSES as u32 + 50) {
            let _ = limit.take(IpAddr::V4(Ipv4Addr::from(n)), t);
        }
        assert!(limit.buckets.len() <= MAX_ADDRESSES);
    }
}
