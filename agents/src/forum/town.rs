//! The town's day play (`town`: trust, counterclaim, day1_pass,
//! pass_on_even, pass_first) and the day play of the other camps' members
//! where it mirrors it.
//!
//! **Pass first** (`pass_first`, in the games the town's public coin
//! picks): every day the town votes PASS first
//! unless somebody is exposed, counts who voted a name first (today's
//! votes not changed yet, seen at the seat's first change of the day) and
//! changes, all alike, to the most-counted player not cleared.
//!
//! **The PASS tell** (`pass_tell`, in a game the town names first): a
//! player who votes PASS first on a day the town names (day 2 on under
//! `day1_pass`) is read as the mafia's, who pass first to blend in with a
//! pass-first town (`mafia`'s `blend`). Counted at the seat's first change
//! of the day (first votes not changed yet), the town changes, all alike,
//! onto the player who passed first on most such days and votes him first
//! the next day. A learned `classic` town seat did this (revising onto
//! the PASS voters) and gained the town about 11 points against the
//! mixes of 2026-12-04 (docs/src/research/play.md).
//!
//! **Town.** Vote an exposed player (published mafia by a believed
//! claimant, a fake claimant, my own find), the one with the most votes.
//! A second claimant of an information role is a fake (`counterclaim`),
//! except one who claims the Detective's role when every earlier claimant
//! is dead in a setup that deals a Deputy: the successor (E14).
//! Without one: PASS on day 1 (`day1_pass`) or on an even count
//! (`pass_on_even`), else the most suspicious player not cleared. One
//! change a day: to an exposed leader, or to a leader who is not cleared
//! when my own candidate trails and is not exposed himself.

use super::Turn;
use super::read;
use crate::agent::Cx;
use crate::strategy::ScoutPlan;
use mafia_engine::{MAX_PLAYERS, Observation, PlayerSet, Seat, Vote};

impl Turn<'_> {
    pub(super) fn town_vote(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> Vote {
        let passes_first = self.cfg.pass_first > 0 && self.public.coin.passes_first(self.cfg.pass_first);
        let read = self.read(obs);
        let others = obs.others_alive();
        if let Some(s) = read.ties.best_by(others.inter(read.exposed), |s| obs.votes_for(s) as i32) {
            return Vote::For(s);
        }
        if passes_first {
            return Vote::Pass;
        }
        if !self.names_today(obs) {
            return Vote::Pass;
        }
        if self.cfg.pass_tell
            && let Some(s) = pass_tell_target(&self.first_passed, obs, &read)
        {
            return Vote::For(s);
        }
        // The top suspects; ties at random (no tells to read between them).
        let open = others.minus(read.cleared);
        let top = if open.is_empty() {
            read.most_suspicious(others)
        } else if read::knows_only_public(obs) {
            // Most of the town: the same suspects as every such seat, bar himself.
            self.public.open_suspects(obs)
        } else {
            read.most_suspicious(open)
        };
        mafia_engine::pick(cx.rng, top).map_or(Vote::Pass, Vote::For)
    }

    pub(super) fn town_revise(&mut self, obs: &Observation<'_>) -> Option<Vote> {
        if self.cfg.pass_first > 0 && self.public.coin.passes_first(self.cfg.pass_first) {
            return self.pass_first_revise(obs);
        }
        if self.cfg.pass_tell
            && let Some(change) = self.pass_tell_revise(obs)
        {
            return change;
        }
        let (leaders, lead) = self.public.leaders_for_change(obs)?;
        let read = self.read(obs);
        let mine = match obs.vote_of(obs.seat()) {
            Some(Vote::For(t)) => Some(t),
            _ => None,
        };
        if lead == 0 || mine.is_some_and(|m| leaders.contains(m)) {
            return None;
        }
        // Among leaders tied: an exposed one, else my order's first.
        let exposed = leaders.inter(read.exposed);
        let leader = read.ties.first(if exposed.is_empty() { leaders } else { exposed })?;
        if read.exposed.contains(leader) {
            return Some(Vote::For(leader));
        }
        if mine.is_some_and(|m| read.exposed.contains(m)) || read.cleared.contains(leader) {
            return None;
        }
        // PASS-voters and trailing candidates join a clear leader (lead of 2+).
        let my_votes = mine.map_or(0, |m| obs.votes_for(m));
        (lead >= my_votes + 2).then_some(Vote::For(leader))
    }

    /// Whether a town seat votes a name first today (not PASS by
    /// `day1_pass` or `pass_on_even`), in a game the town names first.
    fn names_today(&self, obs: &Observation<'_>) -> bool {
        !((self.cfg.day1_pass && obs.day() == 1) || (self.cfg.pass_on_even && obs.alive().len().is_multiple_of(2)))
    }

    /// `pass_tell`'s change: `Some` when the tell names somebody and nobody
    /// is exposed (the change, `None` when I already vote him); `None`
    /// leaves the day to the usual change.
    fn pass_tell_revise(&mut self, obs: &Observation<'_>) -> Option<Option<Vote>> {
        let day = obs.day();
        if self.first_day != day {
            self.first_day = day;
            if self.names_today(obs) {
                // Today's first votes of PASS, not changed yet.
                for s in obs.alive().minus(obs.naming()).minus(obs.changed()).iter() {
                    if obs.vote_of(s) == Some(Vote::Pass) {
                        self.first_passed[s] = self.first_passed[s].saturating_add(1);
                    }
                }
            }
        }
        let read = self.read(obs);
        let t = pass_tell_target(&self.first_passed, obs, &read)?;
        Some((obs.vote_of(obs.seat()) != Some(Vote::For(t))).then_some(Vote::For(t)))
    }

    /// `pass_first`: an exposed player if any, else the player who voted a
    /// name first on most days (today's first votes: names not changed).
    fn pass_first_revise(&mut self, obs: &Observation<'_>) -> Option<Vote> {
        let day = obs.day();
        if self.first_day != day {
            self.first_day = day;
            // The living who named somebody and have not changed (a set
            // made without a branch per vote: PASS or a name is a coin flip
            // to the branch predictor).
            for s in obs.naming().inter(obs.alive()).minus(obs.changed()).iter() {
                self.first_named[s] = self.first_named[s].saturating_add(1);
            }
        }
        let named = &self.first_named;
        let read = self.read(obs);
        let others = obs.others_alive();
        let mine = match obs.vote_of(obs.seat()) {
            Some(Vote::For(t)) => Some(t),
            _ => None,
        };
        let target = if let Some(s) = read.ties.best_by(others.inter(read.exposed), |s| obs.votes_for(s) as i32) {
            Some(s)
        } else {
            let open = others.minus(read.cleared);
            let top = read.ties.best_by(open, |s| named[s] as i32 * 4 + read.score[s] as i32);
            top.filter(|&s| named[s] > 0 || read.score[s] > 0)
        };
        let t = target?;
        (mine != Some(t)).then_some(Vote::For(t))
    }

    /// The mafia's and bandits' change of vote: save a partner who leads by
    /// moving to the leading outsider.
    pub(super) fn outsider_revise(&mut self, obs: &Observation<'_>) -> Option<Vote> {
        if self.cfg.mimic && self.first_day != obs.day() {
            self.first_day = obs.day();
            if let Some(p) = super::mafia::outsiders_pass(obs, obs.changed(), self.cfg.mimic_quorum) {
                self.outsiders_passed = Some(p);
            }
        }
        // The mafia leader's signal (C4), by a change of vote.
        if obs.camp() == mafia_engine::Camp::Mafia
            && let Some(c) = self.signal(obs)
        {
            return (obs.vote_of(obs.seat()) != Some(Vote::For(c))).then_some(Vote::For(c));
        }
        let (leaders, _) = self.public.leaders_for_change(obs)?;
        let mates = obs.camp_mates();
        // A partner among the leaders (alone or tied), unless he is bussed.
        let partner = self.ties.first(leaders.inter(mates))?;
        if self.busing(obs, partner) {
            return None;
        }
        let (alt, _) = self.ties.most_voted(obs, obs.others_alive().minus(mates))?;
        Some(Vote::For(alt))
    }

    /// A runoff vote of a mafioso or bandit: an outsider, the most dangerous first.
    pub(super) fn outsider_pick(&mut self, obs: &Observation<'_>, candidates: PlayerSet) -> Option<Seat> {
        let outsiders = candidates.minus(obs.camp_mates());
        let read = self.read(obs);
        read.ties.first(read.believed.inter(outsiders)).or_else(|| read.trusted(outsiders))
    }

    /// A bandit's vote: like the town's, among outsiders (E2: every other
    /// camp is an enemy): the leading one not cleared, else the top suspect.
    pub(super) fn bandit_vote(&mut self, obs: &Observation<'_>) -> Option<Seat> {
        let outsiders = obs.alive().minus(obs.camp_mates());
        // E27: the Scout's reports, by `scout`.
        if obs.ability() == mafia_engine::NightAbility::Scout && self.cfg.scout != ScoutPlan::Quiet {
            self.note_scouting(obs);
            if let Some(s) = self.ties.first(self.scouted_claimants(obs, self.cfg.scout).inter(outsiders)) {
                return Some(s);
            }
        }
        let read = self.read(obs);
        read.ties
            .most_voted(obs, outsiders.minus(read.cleared))
            .filter(|&(_, v)| v > 0)
            .map(|(s, _)| s)
            .or_else(|| read.suspect(obs, outsiders))
    }
}

/// `pass_tell`'s target: the player who passed first on most days the
/// town named (`passed`), not cleared (ties by suspicion, then the
/// reader's order), unless somebody is exposed (the usual vote takes him).
fn pass_tell_target(passed: &[u8; MAX_PLAYERS], obs: &Observation<'_>, read: &read::Read<'_>) -> Option<Seat> {
    let others = obs.others_alive();
    if !others.inter(read.exposed).is_empty() {
        return None;
    }
    let open = others.minus(read.cleared);
    let top = read.ties.best_by(open, |s| passed[s] as i32 * 256 + read.score[s] as i32)?;
    (passed[top] > 0).then_some(top)
}
