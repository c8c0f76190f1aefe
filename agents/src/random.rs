//! The `random` strategy: the baseline with an exactly computable outcome.
//!
//! Votes for a uniformly random other living player, never PASS, never
//! changes. Runoff votes and hang-both votes are uniform too. At night the
//! mafia all shoot the same uniformly random living non-mafia player (the
//! draw comes from the camp's shared stream: perfect coordination); checks
//! pick uniformly among living players other than oneself.

use crate::agent::{Agent, Cx};
use mafia_engine::{NightAbility, NightChoice, Observation, PlayerSet, Seat, Vote, pick};
use rand::Rng as _;

#[derive(Clone, Debug, Default)]
pub struct RandomAgent;

impl Agent for RandomAgent {
    fn new_game(&mut self, _obs: &Observation<'_>, _cx: &mut Cx<'_>) {}

    #[inline]
    fn vote(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> Vote {
        match pick(cx.rng, obs.others_alive()) {
            Some(t) => Vote::For(t),
            None => Vote::Pass,
        }
    }

    #[inline]
    fn runoff(&mut self, _obs: &Observation<'_>, candidates: PlayerSet, cx: &mut Cx<'_>) -> Seat {
        pick(cx.rng, candidates).expect("a runoff has candidates")
    }

    #[inline]
    fn hang_both(&mut self, _obs: &Observation<'_>, _pair: PlayerSet, cx: &mut Cx<'_>) -> bool {
        cx.rng.next_u32() & 1 == 1
    }

    #[inline]
    fn night(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> NightChoice {
        let info = obs.role().info();
        let kill = if info.shoots {
            let targets = obs.alive().minus(obs.camp_mates());
            match cx.shared.as_deref_mut() {
                Some(shared) => pick(shared, targets),
                None => pick(cx.rng, targets),
            }
        } else {
            None
        };
        let act = if info.night != NightAbility::None { pick(cx.rng, obs.others_alive()) } else { None };
        NightChoice { kill, act }
    }
}
