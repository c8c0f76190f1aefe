//! The public record of final votes a player keeps across the days (C10):
//! the `classic` and `forum` strategies read suspicion from it.

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
        for s in 0..obs.players() as Seat {
            if let Some(Vote::For(t)) = obs.prev_vote_of(s) {
                self.voted[s as usize].insert(t);
            }
        }
        self.recorded_day = yesterday;
    }
}
