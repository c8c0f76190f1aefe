//! Plugging in your own strategy: implement [`Agent`], register a factory on
//! a [`Lineup`] under a name, and use that name like a built-in one
//! (`town=stubborn`). Run with:
//!
//! ```text
//! cargo run --release -p mafia-agents --example custom_agent
//! ```

use mafia_agents::{Agent, Cx, Lineup, Worker, master_key};
use mafia_engine::{Camp, Game, NightChoice, NoLog, Observation, PlayerSet, Preset, Seat, Vote, pick};
use std::sync::Arc;

/// Votes for the lowest-numbered other living player every day and never
/// changes; shoots like the random mafia; checks nobody.
#[derive(Default)]
struct Stubborn;

impl Agent for Stubborn {
    fn new_game(&mut self, _obs: &Observation<'_>, _cx: &mut Cx<'_>) {}

    fn vote(&mut self, obs: &Observation<'_>, _cx: &mut Cx<'_>) -> Vote {
        obs.others_alive().lowest().map_or(Vote::Pass, Vote::For)
    }

    fn runoff(&mut self, _obs: &Observation<'_>, candidates: PlayerSet, _cx: &mut Cx<'_>) -> Seat {
        candidates.lowest().expect("a runoff has candidates")
    }

    fn hang_both(&mut self, _obs: &Observation<'_>, _pair: PlayerSet, _cx: &mut Cx<'_>) -> bool {
        true
    }

    fn night(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> NightChoice {
        let kill = if obs.role().info().shoots {
            // The camp's shared stream keeps every member on the same target.
            let targets = obs.alive().minus(obs.camp_mates());
            cx.shared.as_deref_mut().and_then(|s| pick(s, targets))
        } else {
            None
        };
        NightChoice { kill, ..NightChoice::default() }
    }
}

fn main() {
    let game = Game::new(&Preset::find("classic").expect("built in").setup()).expect("valid");
    let mut lineup = Lineup::default();
    lineup.register("stubborn", Arc::new(|| Box::new(Stubborn) as Box<dyn Agent>));
    lineup.apply("classic,town=stubborn").expect("registered above");
    let mut worker = Worker::new(lineup, master_key(1));
    let games = 100_000;
    let town = (0..games).filter(|&i| worker.play(&game, i, &mut NoLog).winner == Some(Camp::Town)).count();
    println!("stubborn town vs classic mafia: town wins {town} of {games} games");
}
