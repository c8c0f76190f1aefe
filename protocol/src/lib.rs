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
//!   programs in any language that drive games one step at a time.
//! - [`text`]: the replay's story, from one seat's point of view: the plain
//!   text a language-model agent reads.
//!
//! This crate does I/O (processes, pipes); the engine and the built-in
//! agents stay pure.
//!
//! # Example: the messages of one decision
//!
//! Every message is one JSON line; seats count from 1 on the wire.
//!
//! ```
//! use mafia_engine::{Answer, PlayerSet, Request, Seat, Vote};
//! use mafia_protocol::{FromAgent, ToAgent, message};
//!
//! // The engine asks seat 3 (0-based 2) for its vote …
//! let request = Request::Vote { options: PlayerSet::first(5) };
//! let line = message::line(&ToAgent::Request {
//!     id: 7, game: 0, seat: Seat::new(2), seed: 42, request: &request, view: None, text: None,
//! });
//! assert!(line.starts_with(r#"{"type":"request","id":7,"game":0,"seat":3,"#));
//! // … and the agent answers with a vote for seat 1 (0-based 0).
//! let reply = r#"{"type":"answer","id":7,"game":0,"seat":3,"answer":{"decision":"vote","vote":1}}"#;
//! let FromAgent::Answer { seat, answer, .. } = serde_json::from_str(reply).unwrap() else { panic!() };
//! assert_eq!((seat, answer), (Seat::new(2), Answer::Vote { vote: Vote::For(Seat::new(0)) }));
//! ```

#![warn(missing_docs)]

pub mod ext;
pub mod host;
pub mod message;
pub mod pool;
pub mod text;

pub use ext::{ExtAgent, register};
pub use message::{FromAgent, PROTOCOL, ToAgent};
pub use pool::{Fallback, FaultKind, Faults, Pool, Settings, default_log_dir};
