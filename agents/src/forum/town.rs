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
use mafia_engine::{Observation, PlayerSet, Seat, Vote};

impl Turn<'_> {
    pub(super) fn town_vote(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> Vote {
        let passes_first = self.cfg.pass_first > 0 && self.public.coin.passes_first(self.cfg.pass_first);
        let read = self.read(obs);
        let others = obs.others_alive();
        if let Some(s) = read.ties.best_by(others.inter(read.exposed), |s| obs.votes_for(s) as i32) {
            return Vote::For(s);
        }
        let alive = obs.alive().len();
        if passes_first {
            return Vote::Pass;
        }
        if (self.cfg.day1_pass && obs.day() == 1) || (self.cfg.pass_on_even && alive.is_multiple_of(2)) {
            return Vote::Pass;
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
