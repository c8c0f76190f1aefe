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
                self.voted[s as usize].insert(t);
            }
        }
        self.recorded_day = yesterday;
    }
}

/// The member of `among` with the most votes today (the lowest seat on a
/// tie) and his count.
pub(crate) fn most_voted(obs: &Observation<'_>, among: PlayerSet) -> Option<(Seat, u32)> {
    let s = best_by(among, |s| obs.votes_for(s) as i32)?;
    Some((s, obs.votes_for(s)))
}

/// The member of `set` with the highest key (the lowest seat on ties).
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
    (key as i64) << 8 | (255 - s as i64)
}

/// The key and seat of a [`packed`] word.
#[inline]
fn unpack(p: i64) -> (Seat, i32) {
    ((255 - (p & 0xFF)) as Seat, (p >> 8) as i32)
}
