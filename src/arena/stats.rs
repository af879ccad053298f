//! Statistics of a set of games.

/// The 95% Wilson score interval of a proportion of `successes` out of `trials`.
///
/// # Examples
/// ```
/// let (low, high) = connectk::arena::wilson(50, 100);
/// assert!((low - 0.404).abs() < 0.001 && (high - 0.596).abs() < 0.001);
/// ```
pub fn wilson(successes: u64, trials: u64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    const Z: f64 = 1.959_963_984_540_054;
    let n = trials as f64;
    let p = successes as f64 / n;
    let denominator = 1.0 + Z * Z / n;
    let centre = (p + Z * Z / (2.0 * n)) / denominator;
    let half = Z * (p * (1.0 - p) / n + Z * Z / (4.0 * n * n)).sqrt() / denominator;
    // At p = 0 and p = 1 the interval touches the boundary exactly; rounding
    // could otherwise leave it a hair inside, so those ends are set directly.
    let low = if successes == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if successes == trials {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (low, high)
}

#[cfg(test)]
mod tests {
    use super::wilson;

    #[test]
    fn wilson_interval_of_extremes_stays_inside_zero_one() {
        let (low, high) = wilson(0, 10);
        assert_eq!(low, 0.0);
        assert!((high - 0.2775).abs() < 0.001, "{high}");
        let (low, high) = wilson(10, 10);
        assert!((low - 0.7225).abs() < 0.001, "{low}");
        assert_eq!(high, 1.0);
    }
}
