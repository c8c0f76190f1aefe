//! The protocol's messages: one JSON object per line, tagged by `type`.
//! [`ToAgent`] is what the engine writes, [`FromAgent`] what it reads.
//! Both are encoded by serde only (never by hand), and published in the
//! project's JSON Schema.

use mafia_engine::{Answer, Ending, PlayerSet, Request, Seat, View};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The protocol version this engine speaks.
pub const PROTOCOL: u32 = 1;

/// A message from the engine to an agent process (or, in host mode, to
/// the controlling program).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToAgent<'a> {
    /// The first line a process reads: the protocol version and the
    /// process's number in its pool. Answer with [`FromAgent::Hello`].
    Hello { protocol: u32, process: u32 },
    /// A game starts for `seat` (no answer). `view` if the agent asked for views.
    Start {
        game: u64,
        seat: Seat,
        #[serde(skip_serializing_if = "Option::is_none")]
        view: Option<&'a View>,
    },
    /// A decision: answer with [`FromAgent::Answer`] carrying the same
    /// `id`, `game` and `seat`.
    Request {
        id: u64,
        game: u64,
        seat: Seat,
        /// From the seat's own seeded stream (below 2^53): seed the agent's
        /// randomness with it, and a run reproduces on any pool size.
        seed: u64,
        request: &'a Request,
        #[serde(skip_serializing_if = "Option::is_none")]
        view: Option<&'a View>,
        /// The view as plain English (if the agent asked for `text`).
        #[serde(skip_serializing_if = "Option::is_none")]
        text: Option<&'a str>,
    },
    /// The game is over for `seat` (no answer).
    End { game: u64, seat: Seat, ending: &'a Ending },
    /// Host mode: the game asked by [`FromAgent::Play`] is over.
    Done { game: u64, ending: &'a Ending },
    /// Host mode: a `play` message could not be served (the reason).
    Error { message: &'a str },
    /// The run is over: exit.
    Bye,
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A message from an agent process to the engine (or, in host mode, from
/// the controlling program).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum FromAgent {
    /// The answer to [`ToAgent::Hello`]: what the agent wants sent.
    ///
    /// Every key but `type` and `protocol` may be left out (its default
    /// then holds); the schema marks them optional. (Serialised, a key at
    /// its default is left out: the schema is of what is written.)
    Hello {
        protocol: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// Requests carry the seat's whole view (default true).
        #[serde(default = "yes", skip_serializing_if = "is_true")]
        view: bool,
        /// Requests carry the view as plain text (default false).
        #[serde(default, skip_serializing_if = "is_false")]
        text: bool,
        /// Never asked to post, change a vote, defend or speak last (default false).
        #[serde(default, skip_serializing_if = "is_false")]
        quiet: bool,
        /// Sent `start` and `end` messages (default true); an agent that
        /// keeps nothing across decisions may turn them off.
        #[serde(default = "yes", skip_serializing_if = "is_true")]
        start_end: bool,
    },
    /// The answer to a request.
    Answer { id: u64, game: u64, seat: Seat, answer: Answer },
    /// Host mode: play game `game` of master seed `seed`, asking `seats`.
    Play { seed: u64, game: u64, seats: PlayerSet },
    /// Host mode: stop.
    Bye,
}

/// What an agent asked for in its `hello`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wants {
    pub view: bool,
    pub text: bool,
    pub quiet: bool,
    pub start_end: bool,
}

impl Default for Wants {
    fn default() -> Self {
        Wants { view: true, text: false, quiet: false, start_end: true }
    }
}

/// One line of JSON (no newline).
pub fn line(m: &ToAgent<'_>) -> String {
    serde_json::to_string(m).expect("messages are JSON")
}
