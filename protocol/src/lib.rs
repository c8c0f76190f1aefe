//! Agents in other processes and languages.
//!
//! - [`message`]: the protocol's messages (JSON lines, version
//!   [`PROTOCOL`]), typed once with serde; `protocol/README.md` tells the
//!   protocol with a full exchange, and `schema/mafia-lab.schema.json`
//!   describes every message.
//! - [`pool`]: a pool of agent processes that serves many seats of many
//!   games at once, with timeouts, restarts and fault counts.
//! - [`ext`]: [`ExtAgent`], a seat played by the pool (a
//!   [`mafia_agents::DataAgent`]), and [`register`], which plugs `ext:COMMAND`
//!   strategies into a lineup.
//! - [`host`]: the engine as a child of another program (`mafia host`), for
//!   environments that drive games one step at a time (PettingZoo).
//! - [`text`]: the replay's story, from one seat's point of view: the plain
//!   text a language-model agent reads.
//!
//! This crate does I/O (processes, pipes); the engine and the built-in
//! agents stay pure.

pub mod ext;
pub mod host;
pub mod message;
pub mod pool;
pub mod text;

pub use ext::{ExtAgent, register};
pub use message::{FromAgent, PROTOCOL, ToAgent};
pub use pool::{Fallback, FaultKind, Faults, Pool, Settings};
