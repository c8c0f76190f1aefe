//! The `mafia` unit (kill, skip, fake, preempt, bus) and the mafia's day play.
//!
//! **Conference (C2).** The members agree a kill order (a random permutation
//! of the non-mafia seats from the camp's shared stream) and one roll that
//! decides whether the camp will fake a claim this game (`fake`).
//!
//! **Nick (C4).** Every member computes the same nick from public facts,
//! so the nicks agree: with `kill = hunt`, a living information-role
//! claimant; else the leader's (the Don's) final vote of the day — his
//! public signal of a find; else a player published town by a claimant
//! (the cleared core); else the next in the order. A member absent from
//! the day's thread skips to the order (a split nick is a miss). Where the
//! leader's own nick decides (E8, `camp_kill = leader`: the Boss) he needs
//! no signal: after a claimant, his nick is his find (a town role holder
//! first, then any role holder). With `skip`, the whole camp skips the shot
//! on a shared roll.
//!
//! **Day.** The leader votes his find where the nicks must agree (C4);
//! otherwise he, like the others, votes like the town (the leading
//! outsider not cleared, else the town's top suspect among outsiders),
//! reading the thread as the town does — the Boss's finds (E7) choose his
//! kill, not whom he takes for cleared — so as not to draw suspicion (a
//! Boss who signalled by vote was lynched or killed in 95% of `extended`
//! games, and cost his camp 9 points). A
//! partner whose lynch is near-certain is voted too with chance `bus`.
//! When an information role reveals, the camp's designated member (the
//! lowest-seat living member who is not the leader) counter-claims his
//! role with chance `fake`, publishing him as mafia and his partners as town.
//! With chance `preempt` (a roll of its own) he claims first instead: an
//! information role the setup deals that nobody claims yet, or the dead
//! Detective's, which the town reads as the Deputy's succession (E14). He
//! then finds one player a night as a real checker would, a "mafioso" of
//! his own choosing (the kill order's second) whenever none he named lives,
//! else a partner cleared, and publishes any later claimant as mafia. The
//! town's default `counterclaim = later` then lynches the real one. While a
//! fake claim of ours stands the hunt spares every claimant (a claimant
//! killed at night is taken for the real one), and after it those the town
//! will lynch anyway (`spared`).

use super::read::Conference;
use super::read::INFO_ROLES;
use super::read::Ties;
use super::{ForumAgent, Turn};
use crate::agent::Cx;
use mafia_engine::{Camp, CampKill, Observation, PlayerSet, Publication, Role, Seat, Vote, pick};
use rand::Rng as _;

/// The mafia's leader: the living Boss (E7, E8), else the living Don (C4's conference).
fn leader(agent: &ForumAgent, obs: &Observation<'_>) -> Option<Seat> {
    agent.leaders.into_iter().flatten().find(|&s| obs.is_alive(s))
}

/// Whether the leader's nick alone decides the camp's kill (E8,
/// `camp_kill = leader`), so that he needs no public signal.
fn leader_decides(obs: &Observation<'_>) -> bool {
    obs.rules().camp_kill == CampKill::Leader
}

/// The living claimants of `roles` outside my camp (public).
fn living_claimants(obs: &Observation<'_>, roles: &[Role]) -> PlayerSet {
    let mut set = PlayerSet::EMPTY;
    for &r in roles {
        set = set.union(obs.claimants(r));
    }
    set.inter(obs.alive()).minus(obs.camp_mates())
}

/// Living checker claimants (Commissar, Detective) outside my camp.
fn checkers(obs: &Observation<'_>) -> PlayerSet {
    living_claimants(obs, &INFO_ROLES)
}

/// The information role a pre-emptive fake claims (`preempt`): one the
/// setup deals that nobody has claimed, or the Detective when every
/// claimant of his is dead and a Deputy is dealt (the town takes such a
/// claim for the successor's, E14). The Commissar and the Detective are
/// public counts (E4), so a claim of an undealt role would be a giveaway.
fn open_role(obs: &Observation<'_>) -> Option<Role> {
    INFO_ROLES.into_iter().find(|&r| {
        if !obs.deals(r) {
            return false;
        }
        let claimed = obs.claimants(r);
        claimed.is_empty() || (r == Role::Detective && obs.deals(Role::Deputy) && claimed.inter(obs.alive()).is_empty())
    })
}

/// Living information-role claimants outside my camp, whom the mafia hunt:
/// the checkers, and the Journalist who publishes his comparisons (E17).
fn claimants(obs: &Observation<'_>) -> PlayerSet {
    living_claimants(obs, &[Role::Commissar, Role::Detective, Role::Journalist])
}

impl Turn<'_> {
    pub(super) fn conference(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) {
        // The lowest-seat Boss and Don among my mates, in one pass over them.
        self.leaders = [None; 2];
        for m in obs.camp_mates().iter() {
            let slot = match obs.mate_role(m) {
                Some(Role::Boss) => 0,
                Some(Role::Don) => 1,
                _ => continue,
            };
            self.leaders[slot] = self.leaders[slot].or(Some(m));
        }
        // Every member starts from the camp's shared stream at the same
        // point (the table re-syncs it per call) and knows the same camp:
        // the first member's draws are every member's. A member that would
        // draw again leaves the stream where the first left it, which is
        // where the phase's shared draws go on from.
        if let Some(c) = self.public.conference {
            self.fake_roll = c.fake_roll;
            self.blend_roll = c.blend_roll;
            self.order = c.order;
            self.order_len = c.order_len;
            self.ties = c.ties;
            return;
        }
        if let Some(shared) = cx.shared.as_deref_mut() {
            self.fake_roll = shared.next_u32();
        }
        self.order_len = crate::classic::kill_order(obs, cx.shared.as_deref_mut(), &mut self.order);
        // `blend`'s roll comes after the order, and only where it is used,
        // so the other lineups' shared draws stay where they were.
        self.blend_roll = u32::MAX;
        if self.cfg.blend > 0
            && let Some(shared) = cx.shared.as_deref_mut()
        {
            self.blend_roll = shared.next_u32();
        }
        // The camp's order among equals, last (every member's nick and
        // vote then break ties alike).
        self.ties = match cx.shared.as_deref_mut() {
            Some(shared) => Ties::draw(obs.players(), shared),
            None => Ties::draw(obs.players(), cx.rng),
        };
        if cx.shared.is_some() {
            self.public.conference = Some(Conference {
                fake_roll: self.fake_roll,
                blend_roll: self.blend_roll,
                order: self.order,
                order_len: self.order_len,
                ties: self.ties,
            });
        }
    }

    /// The information-role claimants the nick spares (a claimant killed
    /// at night is taken for the real one, which would expose ours). While
    /// a partner's fake claim stands: every claimant, for the town's lynch
    /// to settle the contest. After ours is gone: every claimant if the
    /// thread takes them all for fakes (the town lynches both), else none
    /// (the town believes the other one: he is hunted). Before ours, when
    /// the camp will counter-claim (`fake`): every claimant, so that ours
    /// contests a living one. None in a game without a fake claim.
    fn spared(&mut self, obs: &Observation<'_>) -> PlayerSet {
        let mut claimed = PlayerSet::EMPTY;
        for r in INFO_ROLES {
            claimed = claimed.union(obs.claimants(r));
        }
        let ours = claimed.inter(obs.camp_mates());
        if ours.is_empty() {
            if self.fake_roll < self.cfg.fake && self.designated_faker(obs).is_some() {
                return claimed;
            }
            return PlayerSet::EMPTY;
        }
        if !ours.inter(obs.alive()).is_empty() {
            return claimed;
        }
        self.doomed(obs, claimed)
    }

    /// The claimants, if the thread takes every one of them for a fake,
    /// ours included (the town lynches both); else none (a town that
    /// believed ours and lynched him all the same believes the other).
    #[cold]
    #[inline(never)]
    fn doomed(&mut self, obs: &Observation<'_>, claimed: PlayerSet) -> PlayerSet {
        self.refresh(obs);
        if claimed.minus(self.public.fakes()).is_empty() { claimed } else { PlayerSet::EMPTY }
    }

    /// The first living player of the agreed order outside `skip`.
    fn next_in_order(&self, obs: &Observation<'_>, skip: PlayerSet) -> Option<Seat> {
        self.order[..self.order_len as usize].iter().copied().find(|&s| obs.is_alive(s) && !skip.contains(s))
    }

    /// The member who fakes a claim for the camp: the first living member
    /// who is not the leader in the camp's order among equals.
    fn designated_faker(&self, obs: &Observation<'_>) -> Option<Seat> {
        let lead = leader(self, obs);
        let members = obs.camp_mates().inter(obs.alive());
        self.ties.first(match lead {
            Some(l) => members.without(l),
            None => members,
        })
    }

    pub(super) fn mafia_post(&mut self, obs: &Observation<'_>) -> Publication {
        if let Some(role) = self.faking {
            return self.fake_report(obs, role);
        }
        // A fake counter-claims a checker (his claim carries checks to contradict).
        let real = checkers(obs);
        if real.is_empty() {
            return if self.cfg.preempt > 0 { self.preempt_claim(obs) } else { Publication::NONE };
        }
        if self.fake_roll >= self.cfg.fake || self.designated_faker(obs) != Some(obs.seat()) {
            return Publication::NONE;
        }
        let role =
            INFO_ROLES.into_iter().find(|&r| !obs.claimants(r).inter(real).is_empty()).unwrap_or(Role::Commissar);
        self.faking = Some(role);
        self.fake_report(obs, role)
    }

    /// `preempt`: claim a role nobody holds in the thread, on a roll of its
    /// own (the conference's roll with its halves swapped). Out of line:
    /// the default never fakes.
    #[inline(never)]
    fn preempt_claim(&mut self, obs: &Observation<'_>) -> Publication {
        if self.fake_roll.rotate_left(16) < self.cfg.preempt
            && self.designated_faker(obs) == Some(obs.seat())
            && let Some(role) = open_role(obs)
        {
            self.faking = Some(role);
            self.preempted = true;
            return self.fake_report(obs, role);
        }
        Publication::NONE
    }

    /// A fake information role's report: the real claimants as mafia, my
    /// partners as town. A pre-emptive fake (`preempt`) finds as a real
    /// checker would, one player a night since day 1 (C5, C6, E13): a
    /// mafioso of his own whenever none he named lives (the second living
    /// player of the camp's kill order; the first is tonight's nick), else a
    /// partner cleared.
    pub(super) fn fake_report(&self, obs: &Observation<'_>, role: Role) -> Publication {
        let mut p = Publication { claim: Some(role), ..Publication::NONE };
        let mates = obs.camp_mates();
        p.camps[Camp::Mafia as usize] = obs.claimants(role).minus(mates);
        if !self.preempted {
            p.camps[Camp::Town as usize] = mates.without(obs.seat()).inter(obs.alive());
            return p;
        }
        let said = obs.said(obs.seat());
        let named = said.camps[Camp::Mafia as usize].minus(obs.claimants(role));
        let cleared = said.camps[Camp::Town as usize];
        if named.len() + cleared.len() + 1 >= obs.day() as u32 {
            return p;
        }
        if named.inter(obs.alive()).is_empty()
            && let Some(&s) =
                self.order[..self.order_len as usize].iter().filter(|&&s| obs.is_alive(s) && !named.contains(s)).nth(1)
        {
            p.camps[Camp::Mafia as usize].insert(s);
        } else if let Some(m) = self.ties.first(mates.without(obs.seat()).inter(obs.alive()).minus(cleared)) {
            p.camps[Camp::Town as usize].insert(m);
        }
        p
    }

    /// Whether I vote for `partner` with the town (`bus`): his lynch is
    /// near-certain (half the living already vote him) and today's roll says so.
    pub(super) fn busing(&self, obs: &Observation<'_>, partner: Seat) -> bool {
        self.cfg.bus > 0
            && partner != obs.seat()
            && obs.votes_for(partner) * 2 >= obs.alive().len()
            && (obs.day() as u32).wrapping_mul(0x9E37_79B9) ^ self.fake_roll.rotate_left(obs.seat().get() as u32)
                < self.cfg.bus
    }

    pub(super) fn mafia_vote(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> Option<Seat> {
        let mates = obs.camp_mates();
        let others = obs.alive().minus(mates);
        // The leader signals his find (C5/E7) with his vote, where the nicks
        // must agree (C4); where his own nick decides (E8) he keeps it to
        // himself: a vote against the thread's flow draws suspicion.
        let rolled = self.cfg.blend == u32::MAX || self.blend_roll < self.cfg.blend;
        let blends = if self.cfg.mimic {
            outsiders_pass(obs, PlayerSet::EMPTY, self.cfg.mimic_quorum).or(self.outsiders_passed).unwrap_or(rolled)
        } else {
            rolled
        };
        if let Some(c) = self.signal(obs)
            && !blends
        {
            return Some(c);
        }
        if let Some((p, _)) = self.ties.most_voted(obs, mates.inter(obs.alive()))
            && self.busing(obs, p)
        {
            return Some(p);
        }
        // Otherwise vote like the town: a fake claimant's target is not
        // worth the suspicion a vote on a cleared player draws.
        let read = self.read(obs);
        if blends && read.exposed.inter(others).is_empty() {
            return None;
        }
        let open = others.minus(read.cleared);
        if let Some((s, v)) = self.ties.most_voted(obs, open)
            && v > 0
        {
            return Some(s);
        }
        read.suspect(obs, others).or_else(|| self.next_in_order(obs, PlayerSet::EMPTY)).or_else(|| pick(cx.rng, others))
    }

    /// The leader's find to signal by his final vote, where the nicks must
    /// agree (C4) and his own does not decide (E8): `None` for anybody else.
    /// A camp that passes first (`blend`) signals by a change of vote, not
    /// by a first vote for a name, which a pass-first town reads as the
    /// mafia's (the Don's first-vote signal cost `classic`'s mafia 1.3 points
    /// against a Don who never checked).
    pub(super) fn signal(&self, obs: &Observation<'_>) -> Option<Seat> {
        if Some(obs.seat()) != leader(self, obs) || leader_decides(obs) {
            return None;
        }
        let others = obs.alive().minus(obs.camp_mates());
        self.ties.first(obs.found_role().union(obs.found_holders()).inter(others))
    }

    /// Tonight's nick (see the module docs).
    pub(super) fn mafia_target(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> Option<Seat> {
        if self.cfg.skip > 0 {
            let roll = match cx.shared.as_deref_mut() {
                Some(shared) => shared.next_u32(),
                None => cx.rng.next_u32(),
            };
            if roll < self.cfg.skip {
                return None;
            }
        }
        let mates = obs.camp_mates();
        let read_thread = self.seen_day == obs.day();
        let mut spared = PlayerSet::EMPTY;
        if read_thread && self.cfg.kill == crate::strategy::KillPlan::Hunt {
            // A claimant contesting ours is left to the town's lynch.
            spared = self.spared(obs);
            if let Some(s) = self.ties.first(claimants(obs).minus(spared)) {
                return Some(s);
            }
            if let Some(l) = leader(self, obs) {
                if !leader_decides(obs) {
                    // C4: the leader's vote is his signal, so every nick agrees.
                    if let Some(Vote::For(t)) = obs.vote_of(l)
                        && obs.is_alive(t)
                        && !mates.contains(t)
                        && !spared.contains(t)
                    {
                        return Some(t);
                    }
                } else if l == obs.seat() {
                    // E8: the leader's own nick decides: his find, a town role holder first.
                    let outsiders = obs.alive().minus(mates).minus(spared);
                    let holders = obs.found_holders().inter(outsiders);
                    let town = holders.inter(obs.found_in_camp(Camp::Town));
                    let t = &self.ties;
                    if let Some(s) = t.first(obs.found_role().inter(outsiders)).or(t.first(town)).or(t.first(holders)) {
                        return Some(s);
                    }
                }
            }
            // The cleared core: players a claimant published as town.
            let mut cleared = PlayerSet::EMPTY;
            for r in INFO_ROLES {
                for c in obs.claimants(r).minus(mates).iter() {
                    cleared = cleared.union(obs.said(c).camps[Camp::Town as usize]);
                }
            }
            if let Some(s) = self.ties.first(cleared.inter(obs.alive()).minus(mates).minus(spared)) {
                return Some(s);
            }
        }
        self.next_in_order(obs, spared).or_else(|| self.next_in_order(obs, PlayerSet::EMPTY))
    }
}

/// `mimic`: whether most of today's first votes outside the camp so far
/// are PASS (`None`: nobody outside it has voted yet, or on day 1 fewer
/// than `quorum`), leaving out
/// `besides` (at a change of vote: those who changed, whose first vote is
/// gone). Read at a member's first vote, before anybody changes (C10), and
/// at his first change of the day, which a member who votes before anybody
/// outside the camp follows the next day.
pub(super) fn outsiders_pass(obs: &Observation<'_>, besides: PlayerSet, quorum: u8) -> Option<bool> {
    // Day 1 only: later, a member before the quorum would go by the day
    // before, and the town's first votes on day 1 (C11.2's pardon) say
    // little about its later ones.
    let quorum = if obs.day() == 1 { quorum } else { 1 };
    let outside = obs.alive().minus(obs.camp_mates()).minus(PlayerSet::single(obs.seat())).minus(besides);
    let named = outside.inter(obs.naming()).len();
    let passed =
        outside.minus(obs.naming()).iter().filter(|&s| obs.vote_of(s) == Some(mafia_engine::Vote::Pass)).count() as u32;
    (named + passed >= u32::from(quorum.max(1))).then_some(passed > named)
}
