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

/// Shuffles `items` uniformly (Fisher–Yates from the end: position `i`
/// swaps with a uniform `j ≤ i`), drawing the indices in batches: one `u64`
/// word gives every index of a run of positions whose bounds multiply to at
/// most 2^64 (all of them up to twenty items), by the batched form of
/// Lemire's multiply-and-reject (Brackett-Rozinsky and Lemire, "Batched
/// ranged random integer generation", 2024): exactly uniform, a rejection
/// only when the leftover falls below `2^64 mod product` (for ten items,
/// about once in 5·10¹² shuffles).
pub fn shuffle<R: Rng + ?Sized, T>(rng: &mut R, items: &mut [T]) {
    let mut i = items.len();
    let mut picks = [0u32; 20];
    while i > 1 {
        // The bounds i, i-1, …, i-k+1: all the rest when their product i!
        // fits in a u64 (i ≤ 20), else as many as fit.
        let (k, product) = if i <= 20 {
            (i - 1, FACTORIAL[i])
        } else {
            // From 21 items on, the product overflows before its factors
            // reach 2 (21!/2 > 2^64), so at most 18 bounds, all at least 3.
            let mut product = i as u64;
            let mut k = 1;
            while let Some(p) = product.checked_mul((i - k) as u64) {
                product = p;
                k += 1;
            }
            (k, product)
        };
        let picks = &mut picks[..k];
        loop {
            let mut x = rng.next_u64();
            for (j, pick) in picks.iter_mut().enumerate() {
                let t = (x as u128) * ((i - j) as u128);
                *pick = (t >> 64) as u32;
                x = t as u64;
            }
            // Reject the leftovers below 2^64 mod product (the division
            // only when the leftover is that small at all).
            if x >= product || x >= product.wrapping_neg() % product {
                break;
            }
        }
        for (j, &pick) in picks.iter().enumerate() {
            items.swap(i - 1 - j, pick as usize);
        }
        i -= k;
    }
}

/// `n!` for `n ≤ 20` (21! overflows a u64).
const FACTORIAL: [u64; 21] = {
    let mut f = [1u64; 21];
    let mut n = 1;
    while n < 21 {
        f[n] = f[n - 1] * n as u64;
        n += 1;
    }
    f
};

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// Every permutation of four items comes up equally often (χ² over
    /// 24 cells), and a long shuffle is a permutation of its items.
    #[test]
    fn shuffle_is_uniform_and_a_permutation() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut counts = std::collections::HashMap::new();
        let n = 240_000;
        for _ in 0..n {
            let mut a = [0u8, 1, 2, 3];
            shuffle(&mut rng, &mut a);
            *counts.entry(a).or_insert(0u32) += 1;
        }
        assert_eq!(counts.len(), 24);
        let expected = n as f64 / 24.0;
        let chi2: f64 = counts.values().map(|&c| (c as f64 - expected).powi(2) / expected).sum();
        // 23 degrees of freedom: P(χ² > 49.7) < 0.001.
        assert!(chi2 < 49.7, "χ² = {chi2}");
        // Positions are uniform in a shuffle longer than one batch (30 > 20).
        let mut at_zero = [0u32; 30];
        for _ in 0..30_000 {
            let mut a: Vec<u8> = (0..30).collect();
            shuffle(&mut rng, &mut a);
            let mut sorted = a.clone();
            sorted.sort();
            assert_eq!(sorted, (0..30).collect::<Vec<u8>>());
            at_zero[a[0] as usize] += 1;
        }
        let chi2: f64 = at_zero.iter().map(|&c| (c as f64 - 1000.0).powi(2) / 1000.0).sum();
        // 29 degrees of freedom: P(χ² > 58.3) < 0.001.
        assert!(chi2 < 58.3, "χ² = {chi2}");
    }

    /// A ten-player deal costs one `u64` (two words), not nine.
    #[test]
    fn shuffle_draws_two_words_for_ten_items() {
        struct Count(rand_chacha::ChaCha8Rng, u32);
        impl rand::TryRng for Count {
            type Error = std::convert::Infallible;
            fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
                self.1 += 1;
                Ok(self.0.next_u32())
            }
            fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
                self.1 += 2;
                Ok(self.0.next_u64())
            }
            fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), Self::Error> {
                self.0.fill_bytes(d);
                Ok(())
            }
        }
        let mut c = Count(rand_chacha::ChaCha8Rng::seed_from_u64(1), 0);
        let mut a = [0u8; 10];
        shuffle(&mut c, &mut a);
        assert_eq!(c.1, 2);
    }
}
