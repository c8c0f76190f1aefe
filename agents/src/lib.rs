//! Agents for Mafia Lab: the [`Agent`] interface (an agent sees only its
//! seat's observation), the built-in strategies, per-purpose random streams,
//! and the [`Worker`] that plays one game after another without allocating.

mod agent;
mod classic;
mod lineup;
mod random;
pub mod streams;
mod table;

pub use agent::{Agent, Cx};
pub use classic::ClassicAgent;
pub use lineup::{AgentFactory, BUILTIN, Lineup, LineupError, Strategy};
pub use random::RandomAgent;
pub use streams::{GameStreams, Purpose, Stream, master_key};
pub use table::{Table, Worker};
