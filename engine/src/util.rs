//! Small numeric helpers shared by the engine and its callers.

use rand::Rng;

/// A uniform integer in `0..n` (`n > 0`) by Lemire's multiply-and-reject on
/// one `u32` word. Written here rather than taken from `rand` so the exact
/// draws, and so every seeded result, do not change with a `rand` upgrade.
#[inline(always)]
pub fn below<R: Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    debug_assert!(n > 0);
    let mut m = (rng.next_u32() as u64) * (n as u64);
    if (m as u32) < n {
        let t = n.wrapping_neg() % n;
        while (m as u32) < t {
            m = (rng.next_u32() as u64) * (n as u64);
        }
    }
    (m >> 32) as u32
}

/// A uniformly random member of a non-empty set.
#[inline(always)]
pub fn pick<R: Rng + ?Sized>(rng: &mut R, set: crate::PlayerSet) -> Option<crate::Seat> {
    let n = set.len();
    if n == 0 {
        return None;
    }
    Some(set.nth_unchecked(below(rng, n)))
}
