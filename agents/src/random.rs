//! The `random` strategy: the baseline with an exactly computable outcome
//! in the classic set, and a uniformly random legal move for every role of
//! the extended set.
//!
//! Votes for a uniformly random other living player, never PASS, never
//! changes. Runoff votes and hang-both votes are uniform too. At night the
//! mafia all shoot the same uniformly random living non-mafia player (the
//! draw comes from the camp's shared stream: perfect coordination). Every
//! role move names a uniformly random legal target (the engine's
//! `Observation::targets`); the Swindler and the Journalist draw a second
//! one; the Role Prostitute first draws a usable role, then its targets. A
//! bandit names a uniformly random player he does not know yet in the
//! search (E3). The Chosen gives his secret votes with his open vote. The
//! Boss sends a random legal move for a member who sent none (E7).

use crate::agent::{Agent, Cx};
use mafia_engine::{Camp, NightAbility, NightChoice, Observation, PlayerSet, Role, Seat, Targets, Vote, pick};
use rand::Rng as _;

/// Uniformly random legal play, drawn from the seat's own stream (the yardstick).
#[derive(Clone, Debug, Default)]
pub struct RandomAgent;

/// How many targets each move names (0, 1 or 2), by [`NightAbility::index`]:
/// the engine's move table read once, at compile time. `NightAbility::info`
/// builds its whole row on every call, which the night loop cannot afford.
const ARITY: [u8; NightAbility::COUNT] = {
    let mut arity = [0u8; NightAbility::COUNT];
    let mut i = 0;
    while i < NightAbility::MOVES.len() {
        let a = NightAbility::MOVES[i];
        arity[a.index()] = match a.info().targets {
            Targets::Zero => 0,
            Targets::One => 1,
            Targets::Two => 2,
        };
        i += 1;
    }
    arity
};

/// `random`'s vote: a uniformly random other living player (PASS only
/// when nobody else lives).
#[inline(always)]
pub(crate) fn vote(obs: &Observation<'_>, rng: &mut crate::streams::Stream) -> Vote {
    match pick(rng, obs.others_alive()) {
        Some(t) => Vote::For(t),
        None => Vote::Pass,
    }
}

/// A uniformly random legal move of `ability` (targets only).
#[inline]
pub(crate) fn random_targets(
    obs: &Observation<'_>,
    ability: NightAbility,
    rng: &mut crate::streams::Stream,
) -> (Option<Seat>, Option<Seat>) {
    match ARITY[ability.index()] {
        0 => (None, None),
        1 => (pick(rng, obs.targets(ability)), None),
        _ => {
            let Some(a) = pick(rng, obs.targets(ability)) else { return (None, None) };
            match pick(rng, obs.second_targets(ability, a)) {
                Some(b) => (Some(a), Some(b)),
                None => (None, None),
            }
        }
    }
}

/// A role move's parts: the borrowed role (E19), the target and the
/// second target.
pub(crate) type MoveParts = (Option<Role>, Option<Seat>, Option<Seat>);

/// A uniformly random legal role move (E19: the Role Prostitute draws a usable role first).
#[inline]
pub(crate) fn random_move(obs: &Observation<'_>, choice: &mut NightChoice, rng: &mut crate::streams::Stream) {
    (choice.borrow, choice.act, choice.second) = random_move_parts(obs, rng);
}

/// [`random_move`]'s parts, returned in registers: written through a
/// pointer byte by byte, the caller's copy of the whole choice re-read them
/// in one wide load that the processor cannot forward from the narrow
/// stores (a stall on every night move of the extended roles).
#[inline]
fn random_move_parts(obs: &Observation<'_>, rng: &mut crate::streams::Stream) -> MoveParts {
    let mut ability = obs.ability();
    let mut borrow = None;
    if ability == NightAbility::Borrow {
        let usable = obs.borrowable();
        if usable.is_empty() {
            return (None, None, None);
        }
        let k = mafia_engine::below(rng, usable.len());
        let role = usable.nth(k).expect("k < len");
        borrow = Some(role);
        ability = role.info().night;
    }
    if ability == NightAbility::None {
        return (borrow, None, None);
    }
    let (a, b) = random_targets(obs, ability, rng);
    if borrow.is_some() && a.is_none() && ARITY[ability.index()] != 0 {
        return (None, None, None);
    }
    (borrow, a, b)
}

/// The extended roles' moves, out of line so the classic night stays small.
#[inline(never)]
fn extended_move(obs: &Observation<'_>, rng: &mut crate::streams::Stream) -> MoveParts {
    random_move_parts(obs, rng)
}

/// E7: the Boss's move for a member who sent none: a uniformly random legal
/// move of the member's role.
pub(crate) fn random_proxy(obs: &Observation<'_>, member: Seat, rng: &mut crate::streams::Stream) -> NightChoice {
    let mut choice = NightChoice::default();
    let ability = obs.mate_ability(member);
    match ARITY[ability.index()] {
        1 => choice.act = pick(rng, obs.mate_targets(member)),
        2 => {
            if let Some(a) = pick(rng, obs.mate_targets(member))
                && let Some(b) = pick(rng, obs.mate_second_targets(member, a))
            {
                choice.act = Some(a);
                choice.second = Some(b);
            }
        }
        _ => {}
    }
    choice
}

/// E3: a bandit names a uniformly random player he does not know yet
/// (`None` for the others, and for a bandit who knows everybody). The
/// name comes back by value: a choice handed by reference to a call out
/// of line must live in memory, where its fields are stored byte by byte
/// and then copied whole — a store-forwarding stall.
#[inline]
pub(crate) fn random_search(obs: &Observation<'_>, rng: &mut crate::streams::Stream) -> Option<Seat> {
    // Only bandits search; the check spares everybody else the call.
    if obs.camp() == Camp::Bandits {
        let search = obs.search_targets();
        if !search.is_empty() {
            return pick(rng, search);
        }
    }
    None
}

impl Agent for RandomAgent {
    fn new_game(&mut self, _obs: &Observation<'_>, _cx: &mut Cx<'_>) {}

    /// `random` never speaks nor changes its vote.
    fn quiet(&self) -> bool {
        true
    }

    fn proxy(&mut self, obs: &Observation<'_>, member: Seat, cx: &mut Cx<'_>) -> NightChoice {
        random_proxy(obs, member, cx.rng)
    }

    #[inline]
    fn vote(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> Vote {
        vote(obs, cx.rng)
    }

    #[inline]
    fn runoff(&mut self, _obs: &Observation<'_>, candidates: PlayerSet, cx: &mut Cx<'_>) -> Seat {
        pick(cx.rng, candidates).expect("a runoff has candidates")
    }

    #[inline]
    fn hang_both(&mut self, _obs: &Observation<'_>, _pair: PlayerSet, cx: &mut Cx<'_>) -> bool {
        cx.rng.next_u32() & 1 == 1
    }

    #[inline(always)]
    fn night(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> NightChoice {
        let mut choice = NightChoice::default();
        if obs.shoots() {
            let targets = obs.alive().minus(obs.camp_mates());
            choice.kill = match cx.shared.as_deref_mut() {
                Some(shared) => pick(shared, targets),
                None => pick(cx.rng, targets),
            };
        }
        match obs.ability() {
            NightAbility::None => {}
            // The classic checks (C5, C6, E13): another living player, drawn
            // inline — the same draw `random_move` makes for them.
            NightAbility::CheckCamp | NightAbility::CheckIsRole(_) => choice.act = pick(cx.rng, obs.others_alive()),
            _ => (choice.borrow, choice.act, choice.second) = extended_move(obs, cx.rng),
        }
        if obs.camp() == Camp::Bandits {
            choice.search = random_search(obs, cx.rng);
        }
        choice
    }
}
