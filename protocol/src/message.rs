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
    Hello {
        /// The protocol version the engine speaks (`PROTOCOL`).
        protocol: u32,
        /// The process's number in its pool, from 0.
        process: u32,
    },
    /// A game starts for `seat` (no answer). `view` if the agent asked for views.
    Start {
        /// The game's index in the run.
        game: u64,
        /// The seat the agent plays in this game.
        seat: Seat,
        /// The seat's view at the start (if the agent asked for views).
        #[serde(skip_serializing_if = "Option::is_none")]
        view: Option<&'a View>,
    },
    /// A decision: answer with [`FromAgent::Answer`] carrying the same
    /// `id`, `game` and `seat`.
    Request {
        /// The request's number, unique within the run; the answer repeats it.
        id: u64,
        /// The game's index in the run.
        game: u64,
        /// The seat that decides.
        seat: Seat,
        /// From the seat's own seeded stream (below 2^53): seed the agent's
        /// randomness with it, and a run reproduces on any pool size.
        seed: u64,
        /// The decision and its legal options.
        request: &'a Request,
        /// The seat's view (if the agent asked for views).
        #[serde(skip_serializing_if = "Option::is_none")]
        view: Option<&'a View>,
        /// The view as plain English (if the agent asked for `text`).
        #[serde(skip_serializing_if = "Option::is_none")]
        text: Option<&'a str>,
    },
    /// The game is over for `seat` (no answer).
    End {
        /// The game's index in the run.
        game: u64,
        /// The seat the agent played.
        seat: Seat,
        /// How the game ended, with every role revealed.
        ending: &'a Ending,
    },
    /// Host mode: the game asked by [`FromAgent::Play`] is over.
    Done {
        /// The game's index (as asked).
        game: u64,
        /// How the game ended.
        ending: &'a Ending,
    },
    /// Host mode: a `play` message could not be served (the reason).
    Error {
        /// Why, in words.
        message: &'a str,
    },
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
        /// The protocol version the agent speaks (must be the engine's).
        protocol: u32,
        /// The agent's name, for logs and fault reports.
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
    Answer {
        /// The request's `id`.
        id: u64,
        /// The request's `game`.
        game: u64,
        /// The request's `seat`.
        seat: Seat,
        /// The decision: one of the request's legal options.
        answer: Answer,
    },
    /// Host mode: play game `game` of master seed `seed`, asking `seats`.
    Play {
        /// The master seed.
        seed: u64,
        /// The game's index under that seed.
        game: u64,
        /// The seats whose decisions are sent to the controlling program;
        /// the built-in lineup plays the others.
        seats: PlayerSet,
    },
    /// Host mode: stop.
    Bye,
}

/// What an agent asked for in its `hello`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wants {
    /// Requests carry the seat's whole view.
    pub view: bool,
    /// Requests carry the view as plain text.
    pub text: bool,
    /// Never asked to post, change a vote, defend or speak last.
    pub quiet: bool,
    /// Sent `start` and `end` messages.
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
