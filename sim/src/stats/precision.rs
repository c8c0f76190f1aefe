//! When to stop playing: the deterministic checkpoints and the precision
//! rule (`--precision H`: every reported interval at most `H` wide on each
//! side). The sequential test of `compare --sprt` is [`crate::stats::Sprt`].
//!
//! **Checkpoints.** A stopping rule is only looked at after game counts of
//! a fixed schedule ([`Schedule`]): 2,048 games, then about a quarter more
//! each time, rounded up to a multiple of 1,024. The tallies at a checkpoint
//! are the tallies of the games `first..first + n`, whatever the thread
//! count, so the same seed stops at the same game. A rule met at `n` games
//! costs at most a quarter more games than the fewest that would have met it.

use super::paired::Diff;
use super::tally::wilson;

/// The game counts at which a stopping rule is looked at.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    /// The most games to play (`--games`).
    pub max: u64,
}

/// The first checkpoint.
pub const FIRST_CHECKPOINT: u64 = 2048;

impl Schedule {
    /// The checkpoint after `n` games (never more than `max`).
    pub fn next(&self, n: u64) -> u64 {
        let next = if n < FIRST_CHECKPOINT { FIRST_CHECKPOINT } else { n + (n / 4).max(1024).next_multiple_of(1024) };
        next.min(self.max)
    }

    /// Every checkpoint, in order, the last one `max`.
    pub fn points(&self) -> impl Iterator<Item = u64> + '_ {
        let mut n = 0;
        std::iter::from_fn(move || {
            if n >= self.max {
                return None;
            }
            n = self.next(n);
            Some(n)
        })
    }
}

/// Half the width of the Wilson 95% interval of `k` in `n`.
pub fn wilson_half(k: u64, n: u64) -> f64 {
    let (lo, hi) = wilson(k, n);
    (hi - lo) / 2.0
}

/// Half the width of a paired difference's interval.
pub fn diff_half(d: &Diff) -> f64 {
    (d.hi - d.lo) / 2.0
}

/// Checks a `--precision` value: a half-width in (0, 0.5].
pub fn check_precision(h: f64) -> Result<f64, String> {
    if h.is_finite() && h > 0.0 && h <= 0.5 {
        Ok(h)
    } else {
        Err(format!(
            "--precision {h}: give a half-width of the 95% intervals, more than 0 and at most 0.5 (e.g. 0.005)"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoints_grow_by_a_quarter_and_end_at_the_cap() {
        let s = Schedule { max: 20_000 };
        let p: Vec<u64> = s.points().collect();
        assert_eq!(p[0], 2048);
        assert_eq!(*p.last().unwrap(), 20_000);
        for w in p.windows(2) {
            assert!(w[1] > w[0]);
            let step = w[1] - w[0];
            assert!(w[1] == 20_000 || step % 1024 == 0, "{w:?}");
            assert!(step as f64 <= (w[0] as f64 / 4.0).max(1024.0) + 1024.0, "{w:?}");
        }
        assert_eq!(Schedule { max: 100 }.points().collect::<Vec<_>>(), vec![100]);
    }

    #[test]
    fn wilson_half_shrinks_like_one_over_root_n() {
        let a = wilson_half(500, 1000);
        let b = wilson_half(50_000, 100_000);
        assert!((a / b - 10.0).abs() < 0.1, "{a} {b}");
        assert!((b - 1.96 * (0.25f64 / 100_000.0).sqrt()).abs() < 1e-5);
    }

    #[test]
    fn precision_values_are_checked() {
        assert!(check_precision(0.002).is_ok());
        for bad in [0.0, -0.1, 0.6, f64::NAN] {
            assert!(check_precision(bad).is_err());
        }
    }
}
