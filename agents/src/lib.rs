//! Agents for Mafia Lab: the [`Agent`] interface (an agent sees only its
//! seat's observation), the built-in strategies, per-purpose random streams,
//! and the [`Worker`] that plays one game after another without allocating.

mod agent;
mod classic;
mod data;
mod forum;
mod lineup;
mod random;
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
pub use strategy::{Config, Param, Plays, STRATEGIES, StrategyInfo, Values};
pub use streams::{GameStreams, Purpose, Stream, master_key};
pub use table::{Table, Worker};
