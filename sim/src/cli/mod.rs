//! The `mafia` command line: the commands (clap) and the dispatch to each
//! command's module. Raw arguments become a checked configuration in one
//! step, and every problem becomes an [`Error`] before any game is played.

use crate::commands::*;
use crate::error::Error;
use clap::{Parser, Subcommand};

// The command line as clap reads it. Its items carry no doc comments:
// clap would print them as help text (the help is in the attributes and in
// each command's arguments).
#[allow(missing_docs)]
#[derive(Parser, Debug)]
#[command(
    name = "mafia",
    version,
    about = "Mafia Lab: plays millions of seeded forum-Mafia games between scripted agents and tabulates who wins.",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub run: run::RunArgs,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Simulate games and print win rates (the default command).
    Run(run::RunArgs),
    /// List the built-in setups.
    Setups,
    /// List the rule settings, their values and defaults.
    Rules,
    /// Tell one game as a story (or JSON lines).
    Replay(replay::ReplayArgs),
    /// Print the night order: each step, the roles that move in it, what it does.
    NightOrder(night_order::NightOrderArgs),
    /// Measure games per second on one thread and on all.
    Bench(bench::BenchArgs),
    /// Night calculator: resolve one night of a scenario file and print the trace.
    Resolve(resolve::ResolveArgs),
    /// Print the observation tensor's layout and the action space of a setup's games (JSON), for learning agents.
    Encoding(encoding::EncodingArgs),
    /// Print the JSON Schema of every JSON output (replay --json, resolve --json) and of the agent protocol.
    Schema,
    /// List every strategy, the roles it plays, its parameters, their values and defaults.
    Strategies,
    /// Strategy A against B for one role or camp, on the same games: win rates and the paired difference.
    Duel(duel::DuelArgs),
    /// A round-robin of strategies for one role or camp, on the same games.
    League(league::LeagueArgs),
    /// What each role's own move is worth: its usual move against a random move and no move, on the same games.
    Moves(moves::MovesArgs),
    /// Search a camp's strategy parameters against everyone else's: the exploitability of the defaults.
    BestResponse(best_response::BestResponseArgs),
    /// Run an experiment file: a base setup and a grid, every point on the same seeds; one row per point.
    Experiment(experiment::ExperimentArgs),
    /// Two variants on the same games: each camp's win-rate difference with its paired interval (and an optional SPRT).
    Compare(compare::CompareArgs),
    /// Search a setup family for the configurations nearest a target win rate.
    Balance(balance::BalanceArgs),
    /// Run a study file and write its report (Markdown, SVG plots, CSV tables) beside it.
    Report(report::ReportArgs),
    /// Play games on demand for a controlling program over stdin/stdout (the agent protocol's host mode).
    Host(host::HostArgs),
    /// Win odds per camp from a mid-game state file, by Monte Carlo.
    Odds(odds::OddsArgs),
    /// Join the counts files of a sharded run (--shard K/N --counts FILE) into the tables of the whole run.
    Merge(merge::MergeArgs),
    /// A designer's studio in the browser: build a setup, play it with live progress, compare, sweep, resolve a night (a local web server).
    Studio(crate::studio::StudioArgs),
}

/// Runs a parsed command line; `Err` says why it failed (see [`Error`]).
pub fn dispatch(cli: Cli) -> Result<(), Error> {
    match cli.command {
        None => run::cmd_run(cli.run),
        Some(Command::Run(a)) => run::cmd_run(a),
        Some(Command::Setups) => list::cmd_setups(),
        Some(Command::Rules) => list::cmd_rules(),
        Some(Command::Replay(a)) => replay::cmd_replay(a),
        Some(Command::NightOrder(a)) => night_order::cmd_night_order(a),
        Some(Command::Bench(a)) => bench::cmd_bench(a),
        Some(Command::Resolve(a)) => resolve::cmd_resolve(a),
        Some(Command::Encoding(a)) => encoding::cmd_encoding(a),
        Some(Command::Schema) => schema::cmd_schema(),
        Some(Command::Strategies) => strategies::cmd_strategies(),
        Some(Command::Duel(a)) => duel::cmd_duel(a),
        Some(Command::League(a)) => league::cmd_league(a),
        Some(Command::Moves(a)) => moves::cmd_moves(a),
        Some(Command::BestResponse(a)) => best_response::cmd_best_response(a),
        Some(Command::Experiment(a)) => experiment::cmd_experiment(a),
        Some(Command::Compare(a)) => compare::cmd_compare(a),
        Some(Command::Balance(a)) => balance::cmd_balance(a),
        Some(Command::Report(a)) => report::cmd_report(a),
        Some(Command::Host(a)) => host::cmd_host(a),
        Some(Command::Odds(a)) => odds::cmd_odds(a),
        Some(Command::Merge(a)) => merge::cmd_merge(a),
        Some(Command::Studio(a)) => crate::studio::cmd_studio(a),
    }
}
