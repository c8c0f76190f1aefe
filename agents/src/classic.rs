//! The `classic` strategy: sensible forum play with stated conventions.
//!
//! **Mafia.** At the conference (C2) the mafia agree on a kill order: a
//! random permutation of the non-mafia seats drawn from the camp's shared
//! stream, so every classic member holds the same list. Their shared
//! convention for each night's nick, in priority:
//! 1. a living non-mafia player who has publicly claimed Commissar;
//! 2. otherwise, the player the Don (alive) voted for last (his final vote
//!    of the day), if living and not mafia — the Don hunts the Commissar
//!    and signals a find this way;
//! 3. otherwise, the first living player of the kill order.
//!
//! A member who was absent during the day has not read that day's thread:
//! he skips rules 1–2 and follows the order, so his nick can diverge from
//! the others' — a miss (C4). Members running other strategies diverge too.
//! By day the mafia vote a revealed Commissar, or join the leading non-mafia
//! candidate, or vote the next in the kill order; they switch away when a
//! partner leads.
//!
//! **Don.** Checks unchecked living non-mafia players at random; once he
//! finds the Commissar he votes for him every day (the signal of rule 2).
//!
//! **Commissar.** Checks unchecked living players at random. Reveal policy:
//! stays hidden until he has found a living mafioso, then claims Commissar
//! and publishes every check, and keeps publishing each day; his last word
//! always claims and publishes all checks (C13).
//!
//! **Town.** Votes a living player published as mafia by a Commissar
//! claimant (or found by his own checks); otherwise the most suspicious
//! player by a score over public votes: voting for players later shown to
//! be town (published town, or killed at night) counts against a player,
//! voting for shown mafia counts for him, a vote against me yesterday
//! counts a little. Ties break at random. One change a day: to the leading
//! candidate when my own candidate trails and the leader is not cleared.

use crate::agent::{Agent, Cx};
use crate::votes::{VoteRecord, most_voted};
use mafia_engine::{Camp, MAX_PLAYERS, NightChoice, Observation, PlayerSet, Publication, Role, Seat, Vote, pick};

/// The `classic` strategy (see the module doc): the mafia's conference kill
/// order, the Don's hunt, the Commissar's reveal once he finds a mafioso, and
/// a town that votes the exposed, else the most suspicious.
#[derive(Clone, Debug)]
pub struct ClassicAgent {
    /// Mafia: the conference's kill order (non-mafia seats).
    order: [Seat; MAX_PLAYERS],
    order_len: u8,
    /// Commissar: has claimed publicly.
    revealed: bool,
    /// The last day this agent was present in the day thread.
    seen_day: u16,
    /// Public memory: everybody each player has voted for (final votes).
    votes: VoteRecord,
    view: DayView,
}

/// A cached public picture (see [`ClassicAgent::view`]).
#[derive(Clone, Debug)]
struct DayView {
    key: Option<(u16, PlayerSet, PlayerSet, PlayerSet)>,
    town: PlayerSet,
    mafia: PlayerSet,
    score: [i16; MAX_PLAYERS],
}

impl Default for ClassicAgent {
    fn default() -> Self {
        ClassicAgent {
            order: [Seat::new(0); MAX_PLAYERS],
            order_len: 0,
            revealed: false,
            seen_day: 0,
            votes: VoteRecord::default(),
            view: DayView { key: None, town: PlayerSet::EMPTY, mafia: PlayerSet::EMPTY, score: [0; MAX_PLAYERS] },
        }
    }
}

/// Living players who claimed Commissar.
fn commissar_claimants(obs: &Observation<'_>) -> PlayerSet {
    obs.claimants(Role::Commissar).inter(obs.alive())
}

/// Everybody published as being in camp `c` by a Commissar claimant (alive
/// or dead), plus what I know myself (my camp mates, my checks, announced roles).
fn published(obs: &Observation<'_>, c: Camp) -> PlayerSet {
    let mut set = obs.found_in_camp(c).union(obs.revealed_in_camp(c));
    if obs.camp() == c {
        set = set.union(obs.camp_mates());
    }
    for s in obs.claimants(Role::Commissar).iter() {
        set = set.union(obs.said(s).camps[c as usize]);
    }
    set
}

impl ClassicAgent {
    fn shown_town(obs: &Observation<'_>) -> PlayerSet {
        published(obs, Camp::Town).union(obs.killed_at_night()).minus(published(obs, Camp::Mafia))
    }

    /// Today's public picture — who is shown town or mafia, and everybody's
    /// suspicion score — recomputed only when its inputs change.
    fn view(&mut self, obs: &Observation<'_>) -> &DayView {
        let mafia = published(obs, Camp::Mafia);
        let town = Self::shown_town(obs);
        let key = (obs.day(), obs.alive(), mafia, town);
        if self.view.key != Some(key) {
            let me = obs.seat();
            for s in obs.alive().iter() {
                let v = self.votes.voted[s];
                let mut score = 2 * v.inter(town).len() as i32 - 2 * v.inter(mafia).len() as i32;
                // A vote against me yesterday counts a little.
                if obs.prev_vote_of(s) == Some(Vote::For(me)) {
                    score += 1;
                }
                self.view.score[s] = score as i16;
            }
            self.view.key = Some(key);
            self.view.town = town;
            self.view.mafia = mafia;
        }
        &self.view
    }

    /// The town's choice among `candidates`: a known/published mafioso, else
    /// the most suspicious (ties at random), avoiding cleared players.
    fn town_pick(&mut self, obs: &Observation<'_>, candidates: PlayerSet, cx: &mut Cx<'_>) -> Option<Seat> {
        let view = self.view(obs);
        if let Some(s) = candidates.inter(view.mafia).lowest() {
            return Some(s);
        }
        let cleared = candidates.minus(view.town);
        let pool = if cleared.is_empty() { candidates } else { cleared };
        let mut best = i16::MIN;
        let mut top = PlayerSet::EMPTY;
        for s in pool.iter() {
            let sc = view.score[s];
            if sc > best {
                best = sc;
                top = PlayerSet::single(s);
            } else if sc == best {
                top.insert(s);
            }
        }
        pick(cx.rng, top)
    }

    /// Mafia convention for tonight's nick (see the module docs).
    fn mafia_target(&self, obs: &Observation<'_>) -> Option<Seat> {
        let mates = obs.camp_mates();
        let read_thread = self.seen_day == obs.day();
        if read_thread {
            if let Some(s) = commissar_claimants(obs).minus(mates).lowest() {
                return Some(s);
            }
            let don = mates.iter().find(|&m| obs.mate_role(m) == Some(Role::Don));
            if let Some(don) = don
                && obs.is_alive(don)
                && let Some(Vote::For(t)) = obs.vote_of(don)
                && obs.is_alive(t)
                && !mates.contains(t)
            {
                return Some(t);
            }
        }
        self.next_in_order(obs)
    }

    fn next_in_order(&self, obs: &Observation<'_>) -> Option<Seat> {
        self.order[..self.order_len as usize].iter().copied().find(|&s| obs.is_alive(s))
    }

    fn mafia_vote(&self, obs: &Observation<'_>) -> Option<Seat> {
        let mates = obs.camp_mates();
        if obs.role() == Role::Don
            && let Some(c) = obs.found_role().inter(obs.alive()).lowest()
        {
            return Some(c);
        }
        if let Some(s) = commissar_claimants(obs).minus(mates).lowest() {
            return Some(s);
        }
        let leader = most_voted(obs, obs.alive().minus(mates)).filter(|&(_, v)| v > 0);
        if let Some((s, _)) = leader {
            return Some(s);
        }
        self.next_in_order(obs)
    }
}

impl Agent for ClassicAgent {
    fn new_game(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) {
        self.revealed = false;
        self.seen_day = 0;
        self.view.key = None;
        self.votes.clear(obs.players());
        self.order_len = 0;
        if obs.camp() == Camp::Mafia {
            self.order_len = kill_order(obs, cx.shared.as_deref_mut(), &mut self.order);
        }
    }

    fn post(&mut self, obs: &Observation<'_>, _cx: &mut Cx<'_>) -> Publication {
        self.seen_day = obs.day();
        self.votes.update(obs);
        if obs.role() == Role::Commissar {
            let found_mafia = obs.found_in_camp(Camp::Mafia).inter(obs.alive());
            if self.revealed || !found_mafia.is_empty() {
                self.revealed = true;
                return commissar_report(obs);
            }
        }
        Publication::NONE
    }

    fn vote(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> Vote {
        let pick =
            if obs.camp() == Camp::Mafia { self.mafia_vote(obs) } else { self.town_pick(obs, obs.others_alive(), cx) };
        pick.filter(|&s| s != obs.seat()).map_or(Vote::Pass, Vote::For)
    }

    fn revise(&mut self, obs: &Observation<'_>, _cx: &mut Cx<'_>) -> Option<Vote> {
        let Some(Vote::For(mine)) = obs.vote_of(obs.seat()) else {
            return None;
        };
        let others = obs.others_alive();
        let (leader, lead_votes) = most_voted(obs, others)?;
        if obs.camp() == Camp::Mafia {
            // Save a partner who leads: move to the leading outsider.
            let mates = obs.camp_mates();
            if mates.contains(leader) {
                let (alt, _) = most_voted(obs, others.minus(mates))?;
                return Some(Vote::For(alt));
            }
            return None;
        }
        // Town: join a clear leader when my candidate trails, unless the
        // leader is cleared or my candidate is a published mafioso.
        if leader == mine || obs.votes_for(mine) >= lead_votes {
            return None;
        }
        let view = self.view(obs);
        if view.mafia.contains(mine) || view.town.contains(leader) {
            return None;
        }
        Some(Vote::For(leader))
    }

    fn runoff(&mut self, obs: &Observation<'_>, candidates: PlayerSet, cx: &mut Cx<'_>) -> Seat {
        let choice = if obs.camp() == Camp::Mafia {
            let outsiders = candidates.minus(obs.camp_mates());
            commissar_claimants(obs).inter(outsiders).lowest().or_else(|| pick(cx.rng, outsiders))
        } else {
            self.town_pick(obs, candidates, cx)
        };
        choice.or_else(|| candidates.lowest()).expect("a runoff has candidates")
    }

    fn hang_both(&mut self, obs: &Observation<'_>, pair: PlayerSet, _cx: &mut Cx<'_>) -> bool {
        if obs.camp() == Camp::Mafia {
            return pair.inter(obs.camp_mates()).is_empty();
        }
        let view = self.view(obs);
        if !pair.inter(view.town).is_empty() {
            return false;
        }
        if !pair.inter(view.mafia).is_empty() {
            return true;
        }
        pair.iter().map(|s| view.score[s]).max().unwrap_or(0) > 0
    }

    fn night(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> NightChoice {
        let mut choice = NightChoice::default();
        match obs.role() {
            Role::Commissar => {
                let pool = obs.others_alive().minus(obs.checked());
                choice.act = pick(cx.rng, if pool.is_empty() { obs.others_alive() } else { pool });
            }
            Role::Don => {
                let outsiders = obs.alive().minus(obs.camp_mates());
                let pool = outsiders.minus(obs.checked());
                choice.act = pick(cx.rng, if pool.is_empty() { outsiders } else { pool });
            }
            // Extended roles: the classic conventions do not cover them yet;
            // they make the `random` strategy's move (a later issue brings their strategies).
            _ => {
                crate::random::random_move(obs, &mut choice, cx.rng);
                choice.search = crate::random::random_search(obs, cx.rng);
            }
        }
        if obs.shoots() {
            choice.kill = self.mafia_target(obs);
        }
        choice
    }

    /// E7: as the `random` strategy (the extended roles' conventions are a later issue).
    fn proxy(&mut self, obs: &Observation<'_>, member: Seat, cx: &mut Cx<'_>) -> NightChoice {
        crate::random::random_proxy(obs, member, cx.rng)
    }

    fn last_word(&mut self, obs: &Observation<'_>, _cx: &mut Cx<'_>) -> Publication {
        if obs.role() == Role::Commissar { commissar_report(obs) } else { Publication::NONE }
    }
}

/// C2: the kill order agreed at the mafia's conference: the outsiders in
/// an order shuffled with the camp's shared stream (every member draws the
/// same), or in seat order without one. Returns its length.
pub(crate) fn kill_order(
    obs: &Observation<'_>,
    shared: Option<&mut crate::streams::Stream>,
    order: &mut [Seat; MAX_PLAYERS],
) -> u8 {
    let targets = obs.alive().minus(obs.camp_mates());
    let mut len = 0u8;
    for s in targets.iter() {
        order[len as usize] = s;
        len += 1;
    }
    if let Some(shared) = shared {
        mafia_engine::shuffle(shared, &mut order[..len as usize]);
    }
    len
}

/// The Commissar's claim with every check he made (C13: his last word may carry them).
fn commissar_report(obs: &Observation<'_>) -> Publication {
    let mut p = Publication { claim: Some(Role::Commissar), ..Publication::NONE };
    for c in Camp::ALL {
        p.camps[c as usize] = obs.found_in_camp(c);
    }
    p
}
