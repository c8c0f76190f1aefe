//! Agents for Mafia Lab: the [`Agent`] interface (an agent sees only its
//! seat's observation), the built-in strategies, per-purpose random streams,
//! and the [`Worker`] that plays one game after another without allocating.
//!
//! # Example: write an [`Agent`]
//!
//! An agent plays one seat and sees only its [`Observation`](mafia_engine::Observation).
//! Register a factory on a [`Lineup`] under a name and use the name like a
//! built-in strategy; a [`Worker`] then plays seeded games with it.
//!
//! ```
//! use mafia_agents::{Agent, Cx, Lineup, Worker, master_key};
//! use mafia_engine::{Game, NightChoice, NoLog, Observation, PlayerSet, Preset, Seat, Vote};
//! use std::sync::Arc;
//!
//! /// Votes for the lowest-numbered other living player; never acts at night.
//! struct Stubborn;
//!
//! impl Agent for Stubborn {
//!     fn new_game(&mut self, _obs: &Observation<'_>, _cx: &mut Cx<'_>) {}
//!     fn vote(&mut self, obs: &Observation<'_>, _cx: &mut Cx<'_>) -> Vote {
//!         obs.others_alive().lowest().map_or(Vote::Pass, Vote::For)
//!     }
//!     fn runoff(&mut self, _obs: &Observation<'_>, candidates: PlayerSet, _cx: &mut Cx<'_>) -> Seat {
//!         candidates.lowest().expect("a runoff has candidates")
//!     }
//!     fn hang_both(&mut self, _obs: &Observation<'_>, _pair: PlayerSet, _cx: &mut Cx<'_>) -> bool {
//!         true
//!     }
//!     fn night(&mut self, _obs: &Observation<'_>, _cx: &mut Cx<'_>) -> NightChoice {
//!         NightChoice::default()
//!     }
//! }
//!
//! let game = Game::new(&Preset::find("classic").unwrap().setup()).unwrap();
//! let mut lineup = Lineup::default();
//! lineup.register("stubborn", Arc::new(|| Box::new(Stubborn) as Box<dyn Agent>));
//! lineup.apply("classic,town=stubborn").unwrap();
//! let mut worker = Worker::new(lineup, master_key(1));
//! for i in 0..200 {
//!     let outcome = worker.play(&game, i, &mut NoLog);
//!     // Every answer it gave was legal: nothing was refused.
//!     assert_eq!(outcome.illegal_decisions, 0);
//! }
//! ```
//!
//! # Example: write a [`DataAgent`]
//!
//! A data agent reads the owned [`View`](mafia_engine::View) — plain data,
//! the same an agent in another process gets as JSON — and answers its
//! [`Request`](mafia_engine::Request) with one of the listed options.
//!
//! ```
//! use mafia_agents::{DataAgent, Lineup, Stream, Worker, legal_random, master_key};
//! use mafia_engine::{Answer, Game, NoLog, Preset, Request, View, Vote};
//!
//! /// Passes every first vote; anything else is a random legal answer.
//! struct Passer;
//!
//! impl DataAgent for Passer {
//!     fn decide(&mut self, view: &View, rng: &mut Stream) -> Answer {
//!         match view.request {
//!             Request::Vote { .. } => Answer::Vote { vote: Vote::Pass },
//!             ref other => legal_random(other, rng),
//!         }
//!     }
//! }
//!
//! let game = Game::new(&Preset::find("classic").unwrap().setup()).unwrap();
//! let mut lineup = Lineup::default();
//! lineup.register_data("passer", || Passer);
//! lineup.apply("classic,town=passer").unwrap();
//! let mut worker = Worker::new(lineup, master_key(7));
//! let outcome = worker.play(&game, 0, &mut NoLog);
//! assert_eq!(outcome.illegal_decisions, 0);
//! assert!(outcome.days >= 1);
//! ```

#![warn(missing_docs)]

mod agent;
mod classic;
mod data;
mod forum;
mod lineup;
mod random;
mod step;
pub mod strategy;
pub mod streams;
mod table;
mod votes;

pub use agent::{Agent, Cx, Io};
pub use classic::ClassicAgent;
pub use data::{DataAgent, DataPlayer, LegalRandom, legal_random};
pub use forum::ForumAgent;
pub use lineup::{
    AgentFactory, Lineup, LineupError, MixPart, PRESET_LINEUPS, Pick, Signal, SignalKind, Strategy, ext_command,
    parse_share, parse_spec, split_part,
};
pub use random::RandomAgent;
pub use step::{Env, StepError, Stepper};
pub use strategy::{Config, Param, Plays, STRATEGIES, StrategyInfo, Values};
pub use streams::{GameStreams, Purpose, Stream, master_key};
pub use table::{Table, Worker};
