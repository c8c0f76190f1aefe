//! Paired differences: variants that played the same games (common random
//! numbers) are compared game by game. With `d_i = win_A,i − win_B,i` (−1,
//! 0 or 1), the difference of two win rates is the mean of the `d_i` and its
//! 95% interval is `mean ± 1.96 · sd(d) / √n`. Only the discordant games
//! count: the games A's camp won and B's did not (`a_only`), and the other
//! way round (`b_only`); two identical strategies give exactly 0 with the
//! interval `[0, 0]`.

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// A paired difference of two win rates with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Diff {
    /// The difference of the rates, A − B.
    pub mean: f64,
    /// The 95% interval's lower end.
    pub lo: f64,
    /// The 95% interval's upper end.
    pub hi: f64,
    /// Games won with A and not with B, and the other way round.
    pub a_only: u64,
    /// Games won with B and not with A.
    pub b_only: u64,
}

impl Diff {
    /// Significantly below 0: the upper bound of the interval is below 0.
    pub fn worse(&self) -> bool {
        self.hi < 0.0
    }
    /// Significantly above 0: the lower bound of the interval is above 0.
    pub fn better(&self) -> bool {
        self.lo > 0.0
    }
}

/// The paired difference over `n` games of which `a_only` were won with A
/// only and `b_only` with B only: mean of `d_i`, and `mean ± z·sd/√n` with
/// the sample standard deviation of the `d_i`.
pub fn paired_diff(n: u64, a_only: u64, b_only: u64) -> Diff {
    let mean = if n == 0 { 0.0 } else { (a_only as f64 - b_only as f64) / n as f64 };
    let (lo, hi) = if a_only + b_only == 0 {
        (0.0, 0.0)
    } else if n < 2 {
        (-1.0, 1.0)
    } else {
        let n_f = n as f64;
        // Σd² = a_only + b_only; sample variance = (Σd² − n·mean²) / (n − 1).
        let var = ((a_only + b_only) as f64 - n_f * mean * mean).max(0.0) / (n_f - 1.0);
        let half = Z95 * (var / n_f).sqrt();
        ((mean - half).max(-1.0), (mean + half).min(1.0))
    };
    Diff { mean, lo, hi, a_only, b_only }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_outcomes_differ_by_exactly_zero() {
        let d = paired_diff(1000, 0, 0);
        assert_eq!((d.mean, d.lo, d.hi), (0.0, 0.0, 0.0));
        assert!(!d.worse() && !d.better());
    }

    #[test]
    fn the_paired_interval_matches_a_hand_computation() {
        // 100 games: A only 30, B only 10: d has 30 ones, 10 minus ones, 60 zeros.
        let d = paired_diff(100, 30, 10);
        assert!((d.mean - 0.2).abs() < 1e-12);
        let mean: f64 = 0.2;
        let var = (30.0 * (1.0 - mean).powi(2) + 10.0 * (-1.0 - mean).powi(2) + 60.0 * mean * mean) / 99.0;
        let half = Z95 * (var / 100.0).sqrt();
        assert!((d.lo - (mean - half)).abs() < 1e-12 && (d.hi - (mean + half)).abs() < 1e-12);
        assert!(d.better());
        let r = paired_diff(100, 10, 30);
        assert!((r.mean + 0.2).abs() < 1e-12 && r.worse());
    }
}
