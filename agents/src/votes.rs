//! The public record of final votes a player keeps across the days (C10),
//! from which the `classic` and `forum` strategies read suspicion, and who
//! leads today's count.

use mafia_engine::{MAX_PLAYERS, Observation, PlayerSet, Seat, Vote};

/// Everybody each player has named in a final vote of a finished day.
#[derive(Clone, Debug)]
pub(crate) struct VoteRecord {
    /// Per voter, the players he voted for.
    pub voted: [PlayerSet; MAX_PLAYERS],
    /// The last day whose votes are recorded (0: none yet this game).
    pub recorded_day: u16,
}

impl Default for VoteRecord {
    fn default() -> Self {
        VoteRecord { voted: [PlayerSet::EMPTY; MAX_PLAYERS], recorded_day: 0 }
    }
}

impl VoteRecord {
    /// Forgets the last game (its first `n` seats).
    pub fn clear(&mut self, n: usize) {
        self.voted[..n].fill(PlayerSet::EMPTY);
        self.recorded_day = 0;
    }

    /// Records yesterday's final votes, once per day. The first day
    /// recorded in a game starts from the record a position carries
    /// ([`Observation::carried_votes`]; none in a game from day 1).
    #[inline]
    pub fn update(&mut self, obs: &Observation<'_>) {
        let yesterday = obs.day().saturating_sub(1);
        if yesterday == 0 || self.recorded_day >= yesterday {
            return;
        }
        if self.recorded_day == 0
            && let Some(carried) = obs.carried_votes()
        {
            self.voted = *carried;
        }
        // Only the seats that named somebody (a set made without a branch per vote).
        for s in obs.prev_naming().iter() {
            if let Some(Vote::For(t)) = obs.prev_vote_of(s) {
                self.voted[s].insert(t);
            }
        }
        self.recorded_day = yesterday;
    }
}

/// The member of `among` with the most votes today (the lowest seat on a
/// tie) and his count. The `classic` strategy's; the `forum` strategies
/// break ties with their [`Ties`].
pub(crate) fn most_voted(obs: &Observation<'_>, among: PlayerSet) -> Option<(Seat, u32)> {
    let s = best_by(among, |s| obs.votes_for(s) as i32)?;
    Some((s, obs.votes_for(s)))
}

/// One player's order of preference among equals for one game: a rank per
/// seat, a uniformly random permutation drawn at the game's start (see
/// [`Ties::draw`]). Whenever candidates are equal by every reason a
/// strategy weighs, the one of lowest rank is chosen: a seeded random
/// draw, never the seat order (which made P1 everybody's first suspect).
/// A town player or bandit draws his own; the mafia draw one at their
/// conference from the camp's shared stream, so every member's nick,
/// computed from public facts, names the same player.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ties {
    rank: [u8; MAX_PLAYERS],
}

impl Default for Ties {
    /// Seat order: only before a game's draw (a stand-alone agent asked
    /// before `new_game`).
    fn default() -> Self {
        Ties { rank: std::array::from_fn(|i| i as u8) }
    }
}

impl Ties {
    /// A uniformly random order of `n` seats: the ranks `0..n` shuffled
    /// (`mafia_engine::shuffle`, the deal's exact batched Fisher–Yates:
    /// one 64-bit word for up to twenty players).
    pub fn draw(n: usize, rng: &mut impl rand::Rng) -> Ties {
        let mut rank: [u8; MAX_PLAYERS] = std::array::from_fn(|i| i as u8);
        mafia_engine::shuffle(rng, &mut rank[..n.min(MAX_PLAYERS)]);
        Ties { rank }
    }

    /// The member of `set` I prefer (lowest rank).
    #[inline]
    pub fn first(&self, set: PlayerSet) -> Option<Seat> {
        let mut best = u16::MAX;
        for s in set.iter() {
            best = best.min((self.rank[s] as u16) << 8 | s.get() as u16);
        }
        (!set.is_empty()).then_some(Seat::from_index(best as usize))
    }

    /// The member of `set` with the highest key, ties to the lowest rank.
    /// Each seat's key is packed with its rank and seat into one word
    /// ordered the same way, so the loop is a running maximum without
    /// data-dependent branches (votes and scores are noisy: a branchy
    /// maximum mispredicts).
    #[inline]
    pub fn best_by(&self, set: PlayerSet, key: impl Fn(Seat) -> i32) -> Option<Seat> {
        let mut best = i64::MIN;
        for s in set.iter() {
            best = best.max((key(s) as i64) << 16 | (255 - self.rank[s] as i64) << 8 | s.get() as i64);
        }
        (!set.is_empty()).then_some(Seat::from_index((best & 0xFF) as usize))
    }

    /// The member of `among` with the most votes today (ties by rank) and his count.
    #[inline]
    pub fn most_voted(&self, obs: &Observation<'_>, among: PlayerSet) -> Option<(Seat, u32)> {
        let s = self.best_by(among, |s| obs.votes_for(s) as i32)?;
        Some((s, obs.votes_for(s)))
    }
}

/// The member of `set` with the highest key (the lowest seat on ties:
/// for keys that cannot tie, such as the order claims were made in, or
/// the `classic` strategy's).
///
/// Each seat's key is packed with its seat into one word ordered the same
/// way, so the loop is a running maximum without data-dependent branches
/// (votes and scores are noisy: a branchy maximum mispredicts).
#[inline]
pub(crate) fn best_by(set: PlayerSet, key: impl Fn(Seat) -> i32) -> Option<Seat> {
    let mut best = i64::MIN;
    for s in set.iter() {
        best = best.max(packed(key(s), s));
    }
    (!set.is_empty()).then(|| unpack(best).0)
}

/// `key` and `s` in one word: a higher key first, then a lower seat.
#[inline]
fn packed(key: i32, s: Seat) -> i64 {
    (key as i64) << 8 | (255 - s.get() as i64)
}

/// The key and seat of a [`packed`] word.
#[inline]
fn unpack(p: i64) -> (Seat, i32) {
    (Seat::from_index((255 - (p & 0xFF)) as usize), (p >> 8) as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::streams::{Purpose, Stream, master_key};

    fn ties(seed: u64, n: usize) -> Ties {
        Ties::draw(n, &mut Stream::new(master_key(seed), 0, Purpose::Seat(Seat::new(0))))
    }

    #[test]
    fn a_draw_is_a_permutation_of_the_dealt_seats_and_leaves_the_rest_after_them() {
        for seed in 0..200 {
            let t = ties(seed, 13);
            let mut seen = [false; MAX_PLAYERS];
            for s in 0..13 {
                assert!(t.rank[s] < 13, "seed {seed}: rank {} of seat {s}", t.rank[s]);
                assert!(!std::mem::replace(&mut seen[t.rank[s] as usize], true), "seed {seed}: rank repeated");
            }
            assert!((13..MAX_PLAYERS).all(|s| t.rank[s] as usize == s));
        }
    }

    #[test]
    fn a_tie_is_broken_differently_under_different_seeds_and_evenly_over_the_seats() {
        // Ten equal candidates: over 2,000 seeds each seat is first about
        // 200 times (binomial sd about 13), and seat 0 is not special.
        let all = PlayerSet((1 << 10) - 1);
        let mut firsts = [0u32; 10];
        for seed in 0..2000 {
            let t = ties(seed, 10);
            let first = t.first(all).unwrap();
            firsts[first] += 1;
            assert_eq!(t.best_by(all, |_| 7), Some(first), "best_by ties like first");
        }
        for (s, &k) in firsts.iter().enumerate() {
            assert!((130..=270).contains(&k), "seat {s} first {k} times of 2000: {firsts:?}");
        }
    }

    #[test]
    fn best_by_prefers_the_higher_key_and_only_then_the_order() {
        let t = ties(5, 8);
        let set = PlayerSet((1 << 8) - 1);
        // A unique maximum wins whatever the ranks.
        for top in Seat::all(8) {
            assert_eq!(t.best_by(set, |s| if s == top { 3 } else { -(s.get() as i32) }), Some(top));
        }
        // Two tied at the top: the one of lower rank.
        let pair = PlayerSet::single(Seat::new(2)).with(Seat::new(6));
        let want = Seat::new(if t.rank[2] < t.rank[6] { 2 } else { 6 });
        assert_eq!(t.best_by(set, |s| pair.contains(s) as i32), Some(want));
        assert_eq!(t.first(pair), Some(want));
        assert_eq!(t.first(PlayerSet::EMPTY), None);
        assert_eq!(t.best_by(PlayerSet::EMPTY, |_| 0), None);
    }
}
