//! `mafia replay`: one game told as a story, or as JSON lines — the same
//! game the runner plays for that (seed, index), because it uses the same
//! worker and streams, with the engine's event log switched on.
//!
//! The story has one line per event. Nights of extended games (E1–E32)
//! show the moves sent, then each step of the night order (E30) that had
//! something happen, with every move's success or failure and why; classic
//! games print exactly as they always have.

use crate::args::{GameArgs, one_job};
use crate::error::Error;
use crate::exec::Job;
use clap::Args;
use mafia_agents::{Worker, master_key};
use mafia_engine::{Event, Role, Rules};
use mafia_protocol::text::story_lines;
use schemars::JsonSchema;
use serde::Serialize;
use std::fmt::Write;
use std::io::Write as _;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Master seed of the run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Game index within the run (0-based).
    #[arg(long = "game", visible_alias = "game-index", value_name = "I", default_value_t = 0)]
    pub game_index: u64,
    /// JSON lines instead of a story.
    #[arg(long)]
    pub json: bool,
}

pub fn cmd_replay(a: ReplayArgs) -> Result<(), Error> {
    let job = one_job(&a.game)?;
    let text = replay(&job, a.seed, a.game_index, a.json);
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}

/// The `event` name of the replay's first line.
#[derive(Clone, Copy, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HeadEvent {
    /// The head names the game.
    Game,
}

/// The first line of `mafia replay --json`: which game the events tell.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ReplayHead {
    /// Always `"game"`, which tells the head from the events.
    pub event: HeadEvent,
    /// The setup's name (a preset, or the setup file's name).
    pub setup: String,
    /// The run's rule label: each resolved rule that differs from the classic
    /// seed's, `key=value`, separated by spaces (empty: none differs).
    pub rules: String,
    /// Every rule setting the game played, with `auto` resolved.
    pub resolved_rules: Rules,
    /// The agents' label (who plays which seat).
    pub agents: String,
    /// The run's master seed.
    pub seed: u64,
    /// The game's index within the run (from 0).
    pub game: u64,
    /// How many players.
    pub players: usize,
}

/// One line of `mafia replay --json`: the head, then every event of the game in order.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum ReplayLine {
    /// The first line.
    Head(ReplayHead),
    /// Every later line.
    Event(Event),
}

/// Plays game `index` of the run with master seed `seed` and tells it.
pub fn replay(job: &Job, seed: u64, index: u64, as_json: bool) -> String {
    let mut w = Worker::new(job.lineup.clone(), master_key(seed));
    let mut log: Vec<Event> = Vec::new();
    let _ = w.play(&job.game, index, &mut log);
    let roles = w.state.roles().to_vec();
    if as_json {
        let head = ReplayHead {
            event: HeadEvent::Game,
            setup: job.variant.setup.clone(),
            rules: job.variant.rules.clone(),
            resolved_rules: job.game.resolved_rules(),
            agents: job.variant.agents.clone(),
            seed,
            game: index,
            players: roles.len(),
        };
        let lines = std::iter::once(ReplayLine::Head(head)).chain(log.iter().map(|&e| ReplayLine::Event(e)));
        let mut out = String::new();
        for line in lines {
            writeln!(out, "{}", serde_json::to_string(&line).expect("a replay line is JSON")).unwrap();
        }
        out
    } else {
        story(job, seed, index, &roles, &log)
    }
}

fn story(job: &Job, seed: u64, index: u64, roles: &[Role], log: &[Event]) -> String {
    let known: Vec<Option<Role>> = roles.iter().copied().map(Some).collect();
    let leader = job.game.leader_kill();
    let mut o = String::new();
    let rules = if job.variant.rules.is_empty() { "default rules".to_string() } else { job.variant.rules.clone() };
    writeln!(
        o,
        "Game {index} of seed {seed}: setup {} ({} players), agents {}, {rules}",
        job.variant.setup,
        roles.len(),
        job.variant.agents
    )
    .unwrap();
    let deal: Vec<String> = (0..roles.len()).map(|s| format!("P{} ({})", s + 1, roles[s])).collect();
    writeln!(o, "Deal: {}", deal.join(", ")).unwrap();
    story_lines(&known, leader, log, &mut o);
    o
}
