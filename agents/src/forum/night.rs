//! Every role's night move (units `check`, `protect`, `shooter`,
//! `prostitute`, `bandits`, and the mafia roles' moves).
//!
//! - **Checks** (Commissar, Detective, C6/E13; `whom = uncertain`): an
//!   unchecked player neither cleared nor exposed, other than the town's
//!   top suspect (the day's vote settles him), at random among them. The
//!   Don (C5) and the Boss (E7) check the unchecked information-role
//!   claimants first, then the outsider who voted most against the mafia
//!   (an investigator's tell).
//! - **Doctor** (E15, `heal`): a living information-role claimant (the
//!   believed first), else himself, else the most trusted; never an
//!   exposed player. **Guard** (E10): the town's top suspect when he is a
//!   partner not exposed, else a partner neither exposed nor the top
//!   suspect, at random.
//! - **Shooter** (E20, `shoot`): an exposed enemy; with `open` (the
//!   default), from night 1 a random living player neither cleared nor a
//!   believed claimant. **Witch** (E18): hexes an exposed enemy other than the one
//!   the town lynches tomorrow, else nobody.
//!   **Journalist** (E17): compares the top suspect with the most trusted
//!   (what he makes of the answer, and his claim, are in `mod.rs`).
//!   **Sleepwalker** (E22): watches the believed information role (what he
//!   makes of the report, and his claim, are in `mod.rs`).
//!   **Role Prostitute** (E19, `borrow`): borrows by preference, then plays
//!   the borrowed role's move.
//! - **Thief** (E9) robs a believed information role (else the most trusted
//!   outsider); **Psycho** (E23) invites an outsider the Doctor will not
//!   heal (not a claimant); **Miner** (E25) mines the town's top suspect;
//!   **Swindler** (E11) sends a believed claimant's move onto a cleared
//!   player; **Thug** (E26) beats himself every other night (he may not
//!   beat the same player two nights running) and nobody else;
//!   **Trickster** (E28) removes the vote of whoever voted most against his
//!   camp. Bandits search (E3) for `search_nights` nights (every night by
//!   default: the search comes besides the role move).

use super::Turn;
use crate::agent::Cx;
use crate::strategy::{BorrowPlan, CheckPlan, HealPlan, MovePlan, ShootPlan};
use mafia_engine::{NightAbility, NightChoice, Observation, PlayerSet, Role, Seat, Targets, pick};

/// Whom a move is made for: my own move, or (E7) a partner's by proxy.
#[derive(Clone, Copy)]
enum For {
    Me,
    Mate(Seat),
}

impl Turn<'_> {
    pub(super) fn role_move(&mut self, obs: &Observation<'_>, choice: &mut NightChoice, cx: &mut Cx<'_>) {
        // `night`'s `move`: the yardsticks a role's usual move is measured against.
        match self.cfg.moves {
            MovePlan::Usual => {}
            MovePlan::Random => return crate::random::random_move(obs, choice, cx.rng),
            MovePlan::None => return,
        }
        let mut ability = obs.ability();
        if ability == NightAbility::Borrow {
            let Some(role) = self.borrow_choice(obs, cx) else { return };
            choice.borrow = Some(role);
            ability = role.borrowed_move();
        }
        if ability == NightAbility::None {
            return;
        }
        let (a, b) = self.targets_for(obs, ability, For::Me, cx);
        if choice.borrow.is_some() && a.is_none() && ability.info().targets != Targets::Zero {
            choice.borrow = None; // E19: a borrowed move must be made; none fits tonight.
            return;
        }
        choice.act = a;
        choice.second = b;
    }

    pub(super) fn proxy_move(&mut self, obs: &Observation<'_>, member: Seat, cx: &mut Cx<'_>) -> NightChoice {
        let ability = obs.mate_ability(member);
        let (act, second) = self.targets_for(obs, ability, For::Mate(member), cx);
        NightChoice { act, second, ..NightChoice::default() }
    }

    pub(super) fn search(&mut self, obs: &Observation<'_>, choice: &mut NightChoice, cx: &mut Cx<'_>) {
        if obs.day() <= self.cfg.search_nights as u16 {
            choice.search = pick(cx.rng, obs.search_targets());
        }
    }

    fn borrow_choice(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> Option<Role> {
        let mut set = mafia_engine::RoleSet::EMPTY;
        for r in obs.borrowable().iter() {
            let a = r.borrowed_move();
            if a.info().targets == Targets::Zero || !obs.targets(a).is_empty() {
                set.insert(r);
            }
        }
        let order: &[Role] = match self.cfg.borrow {
            BorrowPlan::Detective => &[Role::Detective, Role::Commissar, Role::Doctor, Role::Shooter],
            BorrowPlan::Doctor => &[Role::Doctor, Role::Detective, Role::Commissar, Role::Shooter],
            BorrowPlan::Random => &[],
        };
        order.iter().copied().find(|&r| set.contains(r)).or_else(|| {
            let k = set.len();
            (k > 0).then(|| set.nth(mafia_engine::below(cx.rng, k)).expect("k < len"))
        })
    }

    /// The targets of `ability`, for me or for a partner (E7).
    fn targets_for(
        &mut self,
        obs: &Observation<'_>,
        ability: NightAbility,
        whose: For,
        cx: &mut Cx<'_>,
    ) -> (Option<Seat>, Option<Seat>) {
        let (maker, legal) = match whose {
            For::Me => (obs.seat(), obs.targets(ability)),
            For::Mate(m) => (m, obs.mate_targets(m)),
        };
        if legal.is_empty() {
            return (None, None);
        }
        let read = self.read(obs);
        let mates = obs.camp_mates();
        let outsiders = legal.minus(mates);
        // The information roles whose moves matter to the others: a
        // believed Sleepwalker (E22) has told what he saw, and his watch
        // moves nobody (checking or swindling him lost the Boss and the
        // Swindler 0.2-0.5 points in `mafia moves`).
        let claimants =
            read.believed.union(claimed_info(obs)).minus(obs.claimants(Role::Sleepwalker)).inter(obs.alive());
        let first = match ability {
            NightAbility::CheckCamp => {
                let fresh = legal.minus(obs.checked());
                let pool = if fresh.is_empty() { legal } else { fresh };
                match self.cfg.check {
                    CheckPlan::Random => pick(cx.rng, pool),
                    CheckPlan::Uncertain => {
                        let open = pool.minus(read.cleared).minus(read.exposed);
                        let mut pool = if open.is_empty() { pool } else { open };
                        // The town's top suspect is lynched by day: a check of
                        // him is spent on what the vote settles anyway.
                        if let Some(t) = read.suspect(obs, obs.alive().without(maker))
                            && pool.len() > 1
                        {
                            pool = pool.without(t);
                        }
                        // Among the rest, at random: the vote record's
                        // suspicion picks no better (the most suspicious of
                        // them lost 0.1-0.3 points against this on every preset,
                        // `mafia moves`).
                        pick(cx.rng, pool)
                    }
                }
            }
            NightAbility::CheckIsRole(_) | NightAbility::BossCheck => {
                let fresh = outsiders.minus(obs.checked());
                let pool = if fresh.is_empty() { outsiders } else { fresh };
                match self.cfg.check {
                    CheckPlan::Random => pick(cx.rng, pool),
                    CheckPlan::Uncertain => read.ties.first(pool.inter(claimants)).or_else(|| {
                        // The members of `pool` who voted most against the
                        // camp (no branch per member on his count).
                        let voted = self.voted_all();
                        pick(cx.rng, pool.top_by(|s| voted[s].inter(mates).len()))
                    }),
                }
            }
            // Never an exposed enemy (a heal wasted on the very player his
            // camp wants dead); the living information-role claimants are
            // the mafia's first targets whether or not the town believes
            // them (`kill = hunt`), the believed first.
            NightAbility::Heal => {
                let safe = legal.minus(read.exposed);
                let hunted =
                    read.ties.first(safe.inter(read.believed)).or_else(|| read.ties.first(safe.inter(claimants)));
                match self.cfg.heal {
                    HealPlan::Random => pick(cx.rng, legal),
                    HealPlan::SelfFirst => {
                        if safe.contains(maker) {
                            Some(maker)
                        } else {
                            hunted.or_else(|| read.trusted(safe.without(maker)))
                        }
                    }
                    HealPlan::Revealed => {
                        hunted.or_else(|| safe.contains(maker).then_some(maker)).or_else(|| read.trusted(safe))
                    }
                }
            }
            NightAbility::Guard => {
                // The guard stops night kills only, and an exposed partner
                // dies by the next day's lynch. The town's top suspect is the
                // partner the Shooter's `suspect` plan fires at (and the
                // thread's first pick for the others): guard him when he is a
                // partner not exposed; else a partner neither exposed nor the
                // top suspect, at random. Against the mixes solved on
                // 2026-12-05 this gains 0.7 points over a random guard
                // (`mafia moves --setup extended --roles guard`, seeds 1 and
                // 2: +0.66, +0.73), where the random pick among the others
                // alone lost 0.17 and the exposed partner first lost 0.37
                // (against the mixes before, the top suspect lost 0.3-0.5:
                // their Shooters shot elsewhere).
                let top = read.suspect(obs, obs.alive());
                // (When the top suspect is not in the pool, the pool is
                // already "neither exposed nor the top suspect".)
                let pool = legal.minus(read.exposed).minus(self.public.exposed());
                top.filter(|&t| pool.contains(t)).or_else(|| pick(cx.rng, pool)).or_else(|| pick(cx.rng, legal))
            }
            NightAbility::Shoot => {
                // Every plan but `never` fires at an exposed enemy first.
                let exposed = || read.ties.best_by(legal.inter(read.exposed).minus(mates), |s| obs.votes_for(s) as i32);
                match self.cfg.shoot {
                    ShootPlan::Never => None,
                    ShootPlan::Exposed => exposed(),
                    ShootPlan::Suspect => {
                        exposed().or_else(|| (obs.day() >= 2).then(|| read.suspect(obs, legal.minus(mates))).flatten())
                    }
                    ShootPlan::Second => exposed().or_else(|| {
                        let pool = legal.minus(mates).minus(read.cleared);
                        let top = read.suspect(obs, obs.alive().without(maker));
                        let rest = match top {
                            Some(t) if pool.len() > 1 => pool.without(t),
                            _ => pool,
                        };
                        read.suspect(obs, rest)
                    }),
                    ShootPlan::Open => {
                        exposed().or_else(|| pick(cx.rng, legal.minus(mates).minus(read.cleared).minus(read.believed)))
                    }
                }
            }
            // The Witch's hex blocks tomorrow night's move, so it needs
            // evidence: an exposed enemy, not the one the town lynches
            // tomorrow when there are several; none without. (A guess hexes
            // the town's own movers as often: the top suspect or a random
            // uncleared player gained nothing in `extended` and cost the
            // town 0.3-0.4 points in `forum-16` against no hex.)
            NightAbility::Hex => {
                let exposed = outsiders.inter(read.exposed);
                let lynched = read.suspect(obs, obs.alive().without(maker));
                let rest = match lynched {
                    Some(t) if exposed.len() > 1 => exposed.without(t),
                    _ => exposed,
                };
                read.ties.first(rest)
            }
            // The believed information role, else the most trusted: a mafia
            // visitor (the Boss's check, a swindle) confirms the claim (see
            // `note_watch`).
            NightAbility::Watch => {
                read.ties.first(legal.inter(read.believed)).or_else(|| read.trusted(legal.without(maker)))
            }
            NightAbility::Compare => read.suspect(obs, legal.minus(read.cleared)).or_else(|| pick(cx.rng, legal)),
            // The Thief blocks the information role's check.
            NightAbility::Rob => read.ties.first(outsiders.inter(claimants)).or_else(|| read.trusted(outsiders)),
            // The guest dies next night unless healed, and the Doctor heals the
            // claimants: invite somebody else, at random.
            NightAbility::Invite => pick(cx.rng, outsiders.minus(read.believed)).or_else(|| pick(cx.rng, outsiders)),
            // The mine kills on 3 votes: the town's top suspect, who draws
            // them (the next suspect instead lost 0.1 points against a random mine).
            NightAbility::Mine => read.suspect(obs, outsiders),
            NightAbility::Swindle => read.ties.first(outsiders.inter(claimants)),
            // Beaten is blocked and unreachable (E6): the Thug beats himself
            // whenever he may (E26: not two nights running), out of every
            // kill's, check's and invitation's reach, and nobody else:
            // beating another shields him from the town's checks and blocks
            // the town's moves more than the mafia's (the extended-roles
            // study measured that play as a gift to the mafia).
            NightAbility::Beat => legal.contains(maker).then_some(maker),
            NightAbility::Trick => {
                let voted = self.voted_all();
                let against = |s: Seat| voted[s].inter(mates).len() as i32;
                read.ties.best_by(outsiders, against).or_else(|| pick(cx.rng, outsiders))
            }
            // Moves without a target (the Scout, a borrowed Chosen) and anything else.
            _ => match ability.info().targets {
                Targets::Zero => None,
                _ => pick(cx.rng, legal),
            },
        };
        let Some(first) = first.filter(|t| legal.contains(*t)) else { return (None, None) };
        if ability.info().targets != Targets::Two {
            return (Some(first), None);
        }
        let seconds = match whose {
            For::Me => obs.second_targets(ability, first),
            For::Mate(m) => obs.mate_second_targets(m, first),
        };
        let second = match ability {
            // E11: the claimant's move onto the most trusted outsider (a wasted check).
            NightAbility::Swindle => read.trusted(seconds.minus(mates)),
            // E17: the suspect against the most trusted player.
            _ => read.trusted(seconds).or_else(|| pick(cx.rng, seconds)),
        };
        match second {
            Some(s) => (Some(first), Some(s)),
            None => (None, None),
        }
    }
}

/// Every living player who has claimed an information role (public).
fn claimed_info(obs: &Observation<'_>) -> PlayerSet {
    obs.claimants(Role::Commissar).union(obs.claimants(Role::Detective)).inter(obs.alive())
}
