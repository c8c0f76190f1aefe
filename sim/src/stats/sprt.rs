//! Wald's sequential probability ratio test for a paired difference of win
//! rates (`compare --sprt`), looked at on the checkpoints of
//! [`super::Schedule`].

/// Wald's sequential probability ratio test on a paired difference of win
/// rates `d = rate_A − rate_B`, H0: `d = d0` against H1: `d = d1`, with the
/// error rates `alpha` (accepting H1 when H0 holds) and `beta` (accepting
/// H0 when H1 holds).
///
/// The per-game differences `d_i ∈ {−1, 0, 1}` are approximated as normal
/// with the observed variance (the generalised SPRT the Stockfish testing
/// framework uses for the same kind of paired outcomes): after `n` games
/// with mean `m` and variance `s²`,
/// `LLR = n · (d1 − d0) · (m − (d0 + d1) / 2) / s²`. H1 is accepted when
/// `LLR ≥ ln((1 − β) / α)`, H0 when `LLR ≤ ln(β / (1 − α))`, checked at the
/// checkpoints only (which makes the test slightly conservative).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Sprt {
    /// The difference under H0 (`--sprt-h0`).
    pub d0: f64,
    /// The difference under H1 (`--sprt`).
    pub d1: f64,
    /// The chance of accepting H1 when H0 holds (`--alpha`).
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds (`--beta`).
    pub beta: f64,
}

/// What a sequential test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The difference is `d1` rather than `d0` (H1 accepted).
    H1,
    /// The difference is `d0` rather than `d1` (H0 accepted).
    H0,
    /// No game differed between the arms, in so many games that both
    /// hypotheses are refuted (each had less than its error rate of chance
    /// to produce that) and neither is favoured.
    Identical,
    /// Not yet decided (or the games ran out first).
    Open,
}

impl Sprt {
    /// Checks the values: `d0 ≠ d1` in [−1, 1], error rates in (0, 0.5).
    pub fn new(d0: f64, d1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        let rate = |x: f64| x.is_finite() && x > 0.0 && x < 0.5;
        let diff = |x: f64| x.is_finite() && (-1.0..=1.0).contains(&x);
        if !diff(d0) || !diff(d1) || d0 == d1 {
            return Err(format!("--sprt: H0 {d0} and H1 {d1} must be two different differences in [-1, 1]"));
        }
        if !rate(alpha) || !rate(beta) {
            return Err(format!("--alpha {alpha} / --beta {beta}: error rates are more than 0 and less than 0.5"));
        }
        Ok(Sprt { d0, d1, alpha, beta })
    }

    /// The log-likelihood ratio after `n` paired games, `a_only` won with A
    /// only and `b_only` with B only.
    ///
    /// With no discordant game the normal approximation has no variance to
    /// work with (issue 35: it gave 0, and identical arms ran to the cap).
    /// Then the exact trinomial likelihood is used, the chance of the
    /// discordance rate left free (a generalised likelihood ratio): a
    /// difference `d` needs at least `|d|` of the games discordant, so no
    /// discordant game in `n` has at most `(1 − |d|)^n` chance under it, and
    /// `LLR = n · (ln(1 − |d1|) − ln(1 − |d0|))`.
    pub fn llr(&self, n: u64, a_only: u64, b_only: u64) -> f64 {
        if n == 0 {
            return 0.0;
        }
        if a_only + b_only == 0 {
            return n as f64 * (ln_concordant(self.d1) - ln_concordant(self.d0));
        }
        if n < 2 {
            return 0.0;
        }
        let n_f = n as f64;
        let mean = (a_only as f64 - b_only as f64) / n_f;
        let var = ((a_only + b_only) as f64 / n_f - mean * mean).max(1e-12);
        n_f * (self.d1 - self.d0) * (mean - (self.d0 + self.d1) / 2.0) / var
    }

    /// The decision bounds (lower, upper) on the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The verdict after `n` paired games, `a_only` won with A only and `b_only` with B only.
    ///
    /// With no discordant game and neither hypothesis favoured (`|d0|` and
    /// `|d1|` about as far from 0), the test stops as [`Verdict::Identical`]
    /// once each hypothesis had less than its error rate of chance to give
    /// `n` concordant games: `(1 − |d0|)^n ≤ α` and `(1 − |d1|)^n ≤ β`.
    pub fn verdict(&self, n: u64, a_only: u64, b_only: u64) -> Verdict {
        let llr = self.llr(n, a_only, b_only);
        let (lo, hi) = self.bounds();
        let refuted = |d: f64, err: f64| n > 0 && n as f64 * ln_concordant(d) <= err.ln();
        if llr >= hi {
            Verdict::H1
        } else if llr <= lo {
            Verdict::H0
        } else if a_only + b_only == 0 && refuted(self.d0, self.alpha) && refuted(self.d1, self.beta) {
            Verdict::Identical
        } else {
            Verdict::Open
        }
    }
}

/// `ln(1 − |d|)`: the log-chance of a concordant game under a difference
/// `d` at most (−∞ at `|d| = 1`), accurate for small `d`.
fn ln_concordant(d: f64) -> f64 {
    (-d.abs()).ln_1p()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Schedule;
    use rand::{RngExt, SeedableRng};

    /// Plays the test on synthetic paired games with a known difference:
    /// `P(A only) = p + d/2`, `P(B only) = p − d/2` per game.
    fn run_sprt(t: &Sprt, true_d: f64, seed: u64) -> Verdict {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let disc = 0.3;
        let (pa, pb) = (disc / 2.0 + true_d / 2.0, disc / 2.0 - true_d / 2.0);
        let (mut n, mut a, mut b) = (0u64, 0u64, 0u64);
        let s = Schedule { max: 2_000_000 };
        for cp in s.points() {
            while n < cp {
                let u: f64 = rng.random();
                if u < pa {
                    a += 1;
                } else if u < pa + pb {
                    b += 1;
                }
                n += 1;
            }
            let v = t.verdict(n, a, b);
            if v != Verdict::Open {
                return v;
            }
        }
        Verdict::Open
    }

    #[test]
    fn sprt_error_rates_hold_on_synthetic_pairs() {
        let t = Sprt::new(0.0, 0.02, 0.05, 0.05).unwrap();
        let runs = 200;
        let false_h1 = (0..runs).filter(|&s| run_sprt(&t, 0.0, s) == Verdict::H1).count();
        let false_h0 = (0..runs).filter(|&s| run_sprt(&t, 0.02, 1000 + s) == Verdict::H0).count();
        // Expected at most 5% each (10 of 200); 20 would be a 1-in-1000 event.
        assert!(false_h1 <= 20, "accepted H1 under H0 in {false_h1} of {runs}");
        assert!(false_h0 <= 20, "accepted H0 under H1 in {false_h0} of {runs}");
        // And it does decide: far from both hypotheses it is quick and right.
        assert_eq!(run_sprt(&t, 0.1, 7), Verdict::H1);
        assert_eq!(run_sprt(&t, -0.1, 7), Verdict::H0);
    }

    #[test]
    fn sprt_refuses_bad_settings() {
        assert!(Sprt::new(0.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 0.1, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 2.0, 0.05, 0.05).is_err());
        let t = Sprt::new(0.0, 0.05, 0.05, 0.05).unwrap();
        let (lo, hi) = t.bounds();
        assert!((hi - 19f64.ln()).abs() < 1e-12 && (lo + 19f64.ln()).abs() < 1e-12);
    }

    /// Issue 35: two arms that never differ gave an LLR of 0 and ran to the
    /// cap. With no discordant game in `n`, a difference `d` had at most
    /// `(1 − |d|)^n` chance of producing that, so the test decides at once.
    #[test]
    fn identical_arms_decide_at_the_first_checkpoint() {
        let t = Sprt::new(0.0, 0.02, 0.05, 0.05).unwrap();
        assert_eq!(t.verdict(2048, 0, 0), Verdict::H0);
        let expected = 2048.0 * (0.98f64.ln() - 1f64.ln());
        assert!((t.llr(2048, 0, 0) - expected).abs() < 1e-9, "{}", t.llr(2048, 0, 0));
        // H1 nearer 0 than H0: identical games favour H1.
        assert_eq!(Sprt::new(-0.05, 0.01, 0.05, 0.05).unwrap().verdict(2048, 0, 0), Verdict::H1);
        // Too few games to tell 0.0001 from 0: still open.
        assert_eq!(Sprt::new(0.0, 0.0001, 0.05, 0.05).unwrap().verdict(2048, 0, 0), Verdict::Open);
        // Both hypotheses as far from 0: neither is favoured, both are
        // refuted; the test stops and says the arms played identical games.
        let sym = Sprt::new(-0.02, 0.02, 0.05, 0.05).unwrap();
        assert_eq!(sym.verdict(2048, 0, 0), Verdict::Identical);
        assert_eq!(sym.verdict(10, 0, 0), Verdict::Open);
    }
}
