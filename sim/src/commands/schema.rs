//! The JSON Schema (draft 2020-12) of everything `mafia` exchanges as JSON:
//! one document whose `$defs` describe the replay's lines, the night
//! calculator's trace, the engine's events and rules, and the agent
//! protocol (views, requests, answers). Every definition is derived from the
//! types that are serialized, so the schema cannot drift from the output;
//! `schema/mafia-lab.schema.json` is this document, committed, and
//! `sim/tests/schema.rs` checks that it is current.
//!
//! Conventions (see the engine's `json.rs`): a seat is its forum number,
//! from 1; a set of seats is a sorted array of numbers; roles, camps, moves
//! and other closed sets of words are snake_case strings; a vote is a seat
//! number or `"pass"`; an event is an object whose `event` key names it.

use crate::commands::replay::ReplayLine;
use crate::commands::resolve::Trace;
use crate::error::Error;
use mafia_engine::{Answer, Ending, Event, Request, Rules, View};
use mafia_protocol::{FromAgent, ToAgent};
use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use std::io::Write;

/// Adds one type's definition to the generator.
type Add = fn(&mut SchemaGenerator) -> Schema;

/// The types the schema publishes, with what each describes. To publish
/// another type, add one line (its name in `$defs` is its schema name).
const TYPES: &[(Add, &str)] = &[
    (add::<ReplayLine>, "each line of `mafia replay --json`"),
    (add::<Trace>, "the document `mafia resolve --json` prints"),
    (add::<Event>, "one event of a game or a night"),
    (add::<Rules>, "every rule setting, typed"),
    (add::<View>, "what one seat may know (the agent protocol)"),
    (add::<Request>, "what the engine asks a seat (the agent protocol)"),
    (add::<Answer>, "what a seat answers (the agent protocol)"),
    (add::<ToAgent<'static>>, "each line the engine writes to an agent process (protocol/README.md)"),
    (add::<FromAgent>, "each line an agent process writes (protocol/README.md)"),
    (add::<Ending>, "what a seat learns when its game ends (the agent protocol)"),
    (add::<mafia_engine::encode::Encoding>, "the encodings for learning agents: what `mafia encoding` prints"),
    (add::<crate::shard::CountsFile>, "a counts file: what `--counts FILE` writes and `mafia merge` reads"),
];

fn add<T: JsonSchema>(g: &mut SchemaGenerator) -> Schema {
    g.subschema_for::<T>()
}

/// The whole schema document. Outputs are described as they are written
/// (serde's serialize side).
pub fn schema() -> Schema {
    let mut g = SchemaSettings::draft2020_12().for_serialize().into_generator();
    let mut entry = Vec::new();
    for (add, what) in TYPES {
        let r = add(&mut g);
        let name =
            r.get("$ref").and_then(|v| v.as_str()).unwrap_or_default().trim_start_matches("#/$defs/").to_string();
        entry.push(format!("`{name}`: {what}"));
    }
    let defs = g.take_definitions(true);
    json_schema!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Mafia Lab JSON",
        "description": format!(
            "Everything Mafia Lab exchanges as JSON. Validate against a definition: {}. \
             Seats are numbered from 1; sets of seats are sorted arrays of seat numbers; \
             roles, camps, moves and other words are snake_case strings; a vote is a seat number or \"pass\". \
             Regenerate with `mafia schema`.",
            entry.join("; ")
        ),
        "$defs": defs
    })
}

/// The document as `mafia schema` prints it: pretty JSON and a newline.
pub fn schema_text() -> String {
    format!("{}\n", serde_json::to_string_pretty(&schema()).expect("a schema is JSON"))
}

pub fn cmd_schema() -> Result<(), Error> {
    std::io::stdout().lock().write_all(schema_text().as_bytes())?;
    Ok(())
}
