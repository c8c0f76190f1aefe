//! Seats and sets of seats.
//!
//! A seat is a player's place at the table, `0..n` inside the program and
//! `1..=n` (its forum number) everywhere a person or another program reads
//! it: `Seat` is a newtype so that the two cannot be confused, and its JSON
//! form (`json.rs`) is the 1-based number without any per-field attribute.
//! Sets of seats are `u64` bitsets: every "who is alive", "who voted", "who
//! is mafia" question on the hot path is one or two machine instructions,
//! and nothing allocates.

use std::ops::{Index, IndexMut};

/// The largest table the engine supports. Sized by the bitset word: one `u64`
/// holds every seat, so all per-seat tables are fixed arrays of this length.
pub const MAX_PLAYERS: usize = 64;

/// A player's seat, `0..MAX_PLAYERS` inside (its index into per-seat
/// tables), shown and read as its forum number `1..=MAX_PLAYERS`.
///
/// `repr(transparent)` over a `u8` and every method `const` and inlined: a
/// seat costs what the bare `u8` it replaced cost. It has no `Display`:
/// text says which number it means, [`Seat::number`] (the forum's) or
/// [`Seat::index`]. `Debug` prints the index, as the bare `u8` did.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(transparent)]
pub struct Seat(u8);

impl Seat {
    /// The seat with index `i` (`i < MAX_PLAYERS`).
    #[inline]
    pub const fn new(i: u8) -> Seat {
        debug_assert!((i as usize) < MAX_PLAYERS);
        Seat(i)
    }
    /// The seat with index `i` (`i < MAX_PLAYERS`).
    #[inline]
    pub const fn from_index(i: usize) -> Seat {
        debug_assert!(i < MAX_PLAYERS);
        Seat(i as u8)
    }
    /// The seat whose forum number is `n`, if `1 <= n <= MAX_PLAYERS`.
    #[inline]
    pub const fn from_number(n: u64) -> Option<Seat> {
        if n == 0 || n > MAX_PLAYERS as u64 { None } else { Some(Seat((n - 1) as u8)) }
    }
    /// The seat's index into per-seat tables, `0..MAX_PLAYERS`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The seat's index as a `u8`.
    #[inline]
    pub const fn get(self) -> u8 {
        self.0
    }
    /// The seat's forum number, `1..=MAX_PLAYERS`.
    #[inline]
    pub const fn number(self) -> u8 {
        self.0 + 1
    }
    /// The seats of a table of `n`, in order. A plain counting loop (not a
    /// walk over [`PlayerSet::first`]), so loops over seats compile as they
    /// did over `0..n`.
    #[inline]
    pub fn all(n: usize) -> impl DoubleEndedIterator<Item = Seat> + ExactSizeIterator + Clone {
        (0..n as u8).map(Seat)
    }
}

impl std::fmt::Debug for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.0, f)
    }
}

/// Per-seat tables are indexed by the seat itself: `table[s]` (arrays
/// through their slice).
impl<T> Index<Seat> for [T] {
    type Output = T;
    #[inline]
    fn index(&self, s: Seat) -> &T {
        &self[s.0 as usize]
    }
}

impl<T> IndexMut<Seat> for [T] {
    #[inline]
    fn index_mut(&mut self, s: Seat) -> &mut T {
        &mut self[s.0 as usize]
    }
}

impl<T> Index<Seat> for Vec<T> {
    type Output = T;
    #[inline]
    fn index(&self, s: Seat) -> &T {
        &self[s.0 as usize]
    }
}

impl<T> IndexMut<Seat> for Vec<T> {
    #[inline]
    fn index_mut(&mut self, s: Seat) -> &mut T {
        &mut self[s.0 as usize]
    }
}

/// A set of seats as a bitset (bit `s` set = seat `s` is in the set).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct PlayerSet(pub u64);

impl PlayerSet {
    /// No seat.
    pub const EMPTY: PlayerSet = PlayerSet(0);

    /// The set `{0, 1, …, n-1}`.
    #[inline]
    pub const fn first(n: usize) -> PlayerSet {
        if n >= 64 { PlayerSet(u64::MAX) } else { PlayerSet((1u64 << n) - 1) }
    }
    /// The set of `s` alone.
    #[inline]
    pub const fn single(s: Seat) -> PlayerSet {
        PlayerSet(1u64 << s.0)
    }
    /// Whether `s` is in the set.
    #[inline]
    pub const fn contains(self, s: Seat) -> bool {
        (self.0 >> s.0) & 1 == 1
    }
    /// The members whose `key` is the highest (empty if the set is). Two
    /// passes without a data-dependent branch: a running maximum, then a
    /// mask of the members that reach it (a branchy running "best so far"
    /// mispredicts on random keys).
    #[inline]
    pub fn top_by<K: Ord + Copy>(self, key: impl Fn(Seat) -> K) -> PlayerSet {
        let mut members = self.iter();
        let Some(first) = members.next() else { return PlayerSet::EMPTY };
        let mut best = key(first);
        for s in members {
            best = best.max(key(s));
        }
        let mut top = 0u64;
        for s in self.iter() {
            top |= ((key(s) == best) as u64) << s.0;
        }
        PlayerSet(top)
    }
    /// Adds `s`.
    #[inline]
    pub fn insert(&mut self, s: Seat) {
        self.0 |= 1u64 << s.0;
    }
    /// Removes `s`.
    #[inline]
    pub fn remove(&mut self, s: Seat) {
        self.0 &= !(1u64 << s.0);
    }
    /// How many seats it holds.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }
    /// Whether it is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The seats of either.
    #[inline]
    pub const fn union(self, o: PlayerSet) -> PlayerSet {
        PlayerSet(self.0 | o.0)
    }
    /// The seats of both.
    #[inline]
    pub const fn inter(self, o: PlayerSet) -> PlayerSet {
        PlayerSet(self.0 & o.0)
    }
    /// The seats of `self` not in `o`.
    #[inline]
    pub const fn minus(self, o: PlayerSet) -> PlayerSet {
        PlayerSet(self.0 & !o.0)
    }
    /// The set with `s` added.
    #[inline]
    pub const fn with(self, s: Seat) -> PlayerSet {
        PlayerSet(self.0 | (1u64 << s.0))
    }
    /// The set with `s` removed.
    #[inline]
    pub const fn without(self, s: Seat) -> PlayerSet {
        PlayerSet(self.0 & !(1u64 << s.0))
    }
    /// The lowest seat in the set.
    #[inline]
    pub const fn lowest(self) -> Option<Seat> {
        if self.0 == 0 { None } else { Some(Seat(self.0.trailing_zeros() as u8)) }
    }
    /// The `k`-th seat of the set in increasing order (`k < len`).
    ///
    /// The hot path of every uniform pick. On x86-64 with BMI2 (checked once
    /// at run time) this is one `pdep`; elsewhere a byte-wise scan. Both give
    /// the same answer, so results never depend on the CPU.
    #[inline]
    pub fn nth(self, k: u32) -> Option<Seat> {
        if k >= self.len() { None } else { Some(self.nth_unchecked(k)) }
    }

    /// [`PlayerSet::nth`] for a `k` the caller knows is below `len`.
    #[inline]
    pub(crate) fn nth_unchecked(self, k: u32) -> Seat {
        debug_assert!(k < self.len());
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("bmi2") {
                // SAFETY: the CPU supports BMI2, checked just above.
                return unsafe { nth_bmi2(self.0, k) };
            }
        }
        nth_portable(self.0, k)
    }
    /// Seats in increasing order.
    #[inline]
    pub fn iter(self) -> SeatIter {
        SeatIter(self.0)
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn nth_bmi2(bits: u64, k: u32) -> Seat {
    // Deposit a single 1 at the k-th set bit of `bits`, then find it.
    Seat(std::arch::x86_64::_pdep_u64(1u64 << k, bits).trailing_zeros() as u8)
}

/// Byte-wise select: skip whole bytes by their population count, then
/// clear the lowest bits inside the byte that holds the answer.
#[inline]
fn nth_portable(bits: u64, mut k: u32) -> Seat {
    let mut base = 0u32;
    let mut x = bits;
    loop {
        let c = (x & 0xFF).count_ones();
        if k < c {
            let mut b = x & 0xFF;
            for _ in 0..k {
                b &= b - 1;
            }
            return Seat((base + b.trailing_zeros()) as u8);
        }
        k -= c;
        x >>= 8;
        base += 8;
    }
}

impl std::fmt::Debug for PlayerSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<Seat> for PlayerSet {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> Self {
        let mut s = PlayerSet::EMPTY;
        for x in iter {
            s.insert(x);
        }
        s
    }
}

/// Iterator over the seats of a [`PlayerSet`], lowest first.
#[derive(Clone)]
pub struct SeatIter(u64);

impl Iterator for SeatIter {
    type Item = Seat;
    #[inline]
    fn next(&mut self) -> Option<Seat> {
        if self.0 == 0 {
            return None;
        }
        let s = Seat(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        Some(s)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for SeatIter {}

#[cfg(test)]
mod tests {
    use super::*;

    /// `top_by` is the members whose key is the largest, as a naive scan
    /// finds them (ties kept, an empty set empty), for keys that are often
    /// tied, negative or all equal.
    #[test]
    fn top_by_is_every_member_with_the_largest_key() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let set = PlayerSet(x & (x >> 3));
            let key = |s: Seat| ((x >> (s.get() % 61)) & [1, 3, 7][round % 3]) as i32 - 2;
            let best = set.iter().map(key).max();
            let naive: PlayerSet = set.iter().filter(|&s| Some(key(s)) == best).collect();
            assert_eq!(set.top_by(key), naive, "round {round}");
        }
        assert_eq!(PlayerSet::EMPTY.top_by(|s| s), PlayerSet::EMPTY);
        assert_eq!(PlayerSet::first(10).top_by(|s| s.get() % 4), PlayerSet(0b0010001000));
    }

    #[test]
    fn set_operations() {
        let mut s = PlayerSet::first(5);
        assert_eq!(s.len(), 5);
        s.remove(Seat::new(2));
        assert!(!s.contains(Seat::new(2)));
        assert_eq!(s.iter().collect::<Vec<_>>(), [0, 1, 3, 4].map(Seat::new));
        assert_eq!(s.nth(2), Some(Seat::new(3)));
        assert_eq!(s.nth(4), None);
        assert_eq!(PlayerSet::first(64).len(), 64);
        assert_eq!(PlayerSet::single(Seat::new(63)).lowest(), Some(Seat::new(63)));
        // The fast and the portable select agree on every k of some sets.
        for bits in [0x8000_0000_0000_0001u64, 0xF0F0_00FF_1234_5678, u64::MAX, 0b1011_0110] {
            let set = PlayerSet(bits);
            let slow: Vec<Seat> = set.iter().collect();
            for k in 0..set.len() {
                assert_eq!(set.nth(k), Some(slow[k as usize]));
                assert_eq!(nth_portable(bits, k), slow[k as usize]);
            }
            assert_eq!(set.nth(set.len()), None);
        }
    }
}
