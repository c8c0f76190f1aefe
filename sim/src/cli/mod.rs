//! The `mafia` command line: raw arguments (clap) become a checked
//! configuration in one step, and every problem becomes a message and exit
//! code 2 before any game is played.

use crate::commands::replay;
use crate::error::Error;
use crate::exec::{Job, RunSpec, run, thread_count};
use crate::input::setup_file::load_setup;
use crate::output::{Variant, build_tables, out_format, print_tables, write_tables};
use crate::shard::RunPlan;
use clap::{Args, Parser, Subcommand};
use mafia_agents::{Lineup, STRATEGIES, Worker, master_key};
use mafia_engine::{Game, NoLog, PRESETS, Preset, RULE_KEYS, Setup};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

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
    pub run: RunArgs,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Simulate games and print win rates (the default command).
    Run(RunArgs),
    /// List the built-in setups.
    Setups,
    /// List the rule settings, their values and defaults.
    Rules,
    /// Tell one game as a story (or JSON lines).
    Replay(ReplayArgs),
    /// Print the night order: each step, the roles that move in it, what it does.
    NightOrder(NightOrderArgs),
    /// Measure games per second on one thread and on all.
    Bench(BenchArgs),
    /// Night calculator: resolve one night of a scenario file and print the trace.
    Resolve(ResolveArgs),
    /// Print the JSON Schema of every JSON output (replay --json, resolve --json) and of the agent protocol.
    Schema,
    /// List every strategy, the roles it plays, its parameters, their values and defaults.
    Strategies,
    /// Strategy A against B for one role or camp, on the same games: win rates and the paired difference.
    Duel(crate::exec::paired::DuelArgs),
    /// A round-robin of strategies for one role or camp, on the same games.
    League(crate::exec::paired::LeagueArgs),
    /// What each role's own move is worth: its usual move against a random move and no move, on the same games.
    Moves(crate::commands::moves::MovesArgs),
    /// Search a camp's strategy parameters against everyone else's: the exploitability of the defaults.
    BestResponse(crate::commands::best_response::BestResponseArgs),
    /// Run an experiment file: a base setup and a grid, every point on the same seeds; one row per point.
    Experiment(crate::commands::experiment::ExperimentArgs),
    /// Two variants on the same games: each camp's win-rate difference with its paired interval (and an optional SPRT).
    Compare(crate::commands::compare::CompareArgs),
    /// Search a setup family for the configurations nearest a target win rate.
    Balance(crate::commands::balance::BalanceArgs),
    /// Run a study file and write its report (Markdown, SVG plots, CSV tables) beside it.
    Report(crate::commands::report::ReportArgs),
    /// Play games on demand for a controlling program over stdin/stdout (the agent protocol's host mode).
    Host(HostArgs),
    /// Win odds per camp from a mid-game state file, by Monte Carlo.
    Odds(crate::commands::odds::OddsArgs),
    /// Join the counts files of a sharded run (--shard K/N --counts FILE) into the tables of the whole run.
    Merge(crate::commands::merge::MergeArgs),
}

#[derive(Args, Debug)]
pub struct HostArgs {
    #[command(flatten)]
    pub game: GameArgs,
}

#[derive(Args, Debug)]
pub struct ResolveArgs {
    /// The scenario file (.toml): seats, carry-over and moves (see scenarios/).
    #[arg(value_name = "SCENARIO")]
    pub scenario: PathBuf,
    /// One JSON document instead of text.
    #[arg(long)]
    pub json: bool,
}

/// What to play: setup, rules and agents (shared by run, replay and bench).
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// A built-in setup name (see `mafia setups`) or a setup file (.toml).
    #[arg(long = "setup", value_name = "NAME|FILE", default_value = "classic")]
    pub setup: Vec<String>,
    /// A rule setting, `key=value` (repeatable; see `mafia rules`).
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    pub rules: Vec<String>,
    /// Strategies: `STRATEGY` for every seat and/or `camp=…`, `role=…`, `seatN=…`, comma-separated; `ext:COMMAND` is an agent in another process (protocol/README.md).
    #[arg(long, value_name = "SPEC")]
    pub agents: Option<String>,
    #[command(flatten)]
    pub ext: ExtArgs,
}

/// How external agents (`ext:COMMAND`) run.
#[derive(Args, Debug, Clone)]
pub struct ExtArgs {
    /// Processes per external agent command (0 = one per core).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub ext_procs: usize,
    /// Seconds an external agent may take for one decision.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub ext_timeout: f64,
    /// What a decision gets when its answer is late, malformed or illegal: `random` (a legal random move) or `forfeit` (the game is not counted).
    #[arg(long, value_name = "random|forfeit", default_value = "random")]
    pub ext_fallback: String,
    /// Restarts allowed per agent process after a crash or a kill.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub ext_restarts: u32,
    /// Folder for the agents' standard error (one log file per process).
    #[arg(long, value_name = "DIR")]
    pub ext_log: Option<PathBuf>,
}

impl ExtArgs {
    /// The defaults of the options (for commands that read a file instead).
    pub fn default_settings() -> ExtArgs {
        ExtArgs { ext_procs: 0, ext_timeout: 10.0, ext_fallback: "random".into(), ext_restarts: 5, ext_log: None }
    }

    /// The pool settings (the command is filled in per agent).
    pub(crate) fn settings(&self) -> Result<mafia_protocol::Settings, Error> {
        let mut s = mafia_protocol::Settings::new("");
        s.procs = if self.ext_procs == 0 { thread_count(0) } else { self.ext_procs };
        if !(self.ext_timeout.is_finite() && self.ext_timeout > 0.0 && self.ext_timeout <= 86_400.0) {
            return Err(Error::Invalid(format!(
                "--ext-timeout {}: give seconds, more than 0 and at most 86400",
                self.ext_timeout
            )));
        }
        s.timeout = std::time::Duration::from_secs_f64(self.ext_timeout);
        s.fallback = mafia_protocol::Fallback::parse(&self.ext_fallback)
            .map_err(|e| Error::Invalid(format!("--ext-fallback {e}")))?;
        s.restarts = self.ext_restarts;
        if let Some(dir) = &self.ext_log {
            if !dir.is_dir() {
                return Err(Error::Invalid(format!("--ext-log {}: no such folder", dir.display())));
            }
            s.log_dir = dir.clone();
        }
        Ok(s)
    }
}

#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Games per variant.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Index of the first game: shards of one run (say, on a cluster) use the same seed and disjoint ranges.
    #[arg(long, value_name = "I", default_value_t = 0)]
    pub first_game: u64,
    /// Master seed; the same seed gives byte-identical output on any thread count.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0 = every core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Run every combination of rule values: `key=v1,v2,…` (repeatable). Variants share the seed, so they see the same deals.
    #[arg(long = "sweep", value_name = "KEY=V1,V2")]
    pub sweeps: Vec<String>,
    /// Write the summary table (.parquet or .csv); roles and days tables go beside it.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Write one row per game (.parquet or .csv).
    #[arg(long = "games-out", value_name = "FILE")]
    pub games_out: Option<PathBuf>,
    /// Stop each variant when every camp's 95% interval is at most ±this (checked at fixed checkpoints; --games is then the most).
    #[arg(long, value_name = "H")]
    pub precision: Option<f64>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Pass every game's event log through the independent invariant checkers (mafia-check); a refused game stops the run with exit code 1.
    #[arg(long)]
    pub check: bool,
    #[command(flatten)]
    pub store: crate::shard::ShardArgs,
}

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

#[derive(Args, Debug)]
pub struct NightOrderArgs {
    /// Only the roles of this setup (a preset or a file), in its night order; all roles without it.
    #[arg(long, value_name = "NAME|FILE")]
    pub setup: Option<String>,
    /// A rule setting, `key=value` (repeatable), e.g. `resolution=sequential`.
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    pub rules: Vec<String>,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Games per measurement.
    #[arg(long, default_value_t = 2_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Threads for the parallel measurement (0 = every core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also times the game loop with these strategies on the same setup,
    /// rules and games, in alternating rounds, and prints the cost ratio
    /// (`--agents`' time over this lineup's): `--vs random` is what the
    /// default strategies cost over random play.
    #[arg(long, value_name = "SPEC")]
    pub vs: Option<String>,
    /// Rounds of each lineup for `--vs` (each plays `--games` / rounds games).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub rounds: u32,
}

/// A setup with its lineup, before rule overrides.
pub(crate) struct Loaded {
    pub(crate) setup: Setup,
    pub(crate) lineup: Lineup,
}

fn load(name: &str, lineup_spec: Option<&str>) -> Result<Loaded, Error> {
    load_with(name, lineup_spec, None)
}

/// External agents to register while loading: the pool settings and the pools made so far.
pub(crate) type ExtPools<'a> = Option<(&'a mafia_protocol::Settings, &'a mut Vec<Arc<mafia_protocol::Pool>>)>;

pub(crate) fn load_with(name: &str, lineup_spec: Option<&str>, mut ext: ExtPools<'_>) -> Result<Loaded, Error> {
    // A preset, or a file with `base`, starts from the preset's default lineup.
    let mut lineup = Lineup::default();
    let mut register = |lineup: &mut Lineup, spec: &str, what: &str| -> Result<(), Error> {
        if mafia_protocol::ext::commands(spec).is_empty() {
            return Ok(());
        }
        let Some((settings, pools)) = ext.as_mut() else {
            return Err(Error::Agents(format!("{what}: external agents (`ext:`) cannot play here")));
        };
        mafia_protocol::register(lineup, &[spec], settings, pools).map_err(|e| Error::Agents(format!("{what}: {e}")))
    };
    let setup = if let Some(p) = Preset::find(name) {
        lineup = Lineup::for_preset(p.name);
        p.setup()
    } else {
        let path = Path::new(name);
        if !path.exists() {
            let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
            return Err(Error::Invalid(format!(
                "--setup {name}: no such preset ({}) and no such file",
                names.join(", ")
            )));
        }
        let names = lineup.strategy_names();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let file = load_setup(path, &refs)?;
        if let Some(base) = file.base {
            lineup = Lineup::for_preset(base);
        }
        for (k, v) in &file.agents {
            register(&mut lineup, v, &format!("{name}: [agents]"))?;
            lineup.set(k, v).map_err(|e| Error::Setup(format!("{name}: [agents] {e}")))?;
        }
        file.setup
    };
    if let Some(spec) = lineup_spec {
        register(&mut lineup, spec, &format!("--agents {spec}"))?;
        lineup.apply(spec).map_err(|e| Error::Invalid(format!("--agents {spec}: {e}")))?;
    }
    Ok(Loaded { setup, lineup })
}

pub(crate) fn apply_rules(setup: &mut Setup, rules: &[String]) -> Result<(), Error> {
    for r in rules {
        let (k, v) = r
            .split_once('=')
            .ok_or_else(|| Error::Invalid(format!("--rule {r}: expected KEY=VALUE (see `mafia rules`)")))?;
        setup.rules.set(k.trim(), v).map_err(|e| Error::Invalid(format!("--rule {r}: {e}")))?;
    }
    Ok(())
}

fn check(setup: &Setup) -> Result<Game, Error> {
    Game::new(setup).map_err(|e| {
        let lines: Vec<String> = e.problems.iter().map(|p| format!("  {}: {}", p.path, p.message)).collect();
        Error::Setup(format!("setup `{}` makes no game:\n{}", setup.name, lines.join("\n")))
    })
}

pub(crate) fn jobs(args: &GameArgs, sweeps: &[String]) -> Result<Vec<Job>, Error> {
    // `--sweep KEY=V1,V2` is an experiment's grid axis (`rules.` may be left out).
    let axes = sweeps
        .iter()
        .map(|s| crate::grid::Axis::from_flag(s).map_err(|e| Error::Invalid(format!("--sweep {e}"))))
        .collect::<Result<Vec<_>, _>>()?;
    let combos = crate::grid::combinations(&axes);
    let mut jobs = Vec::new();
    let mut noted: Vec<String> = Vec::new();
    let settings = args.ext.settings()?;
    let mut pools = Vec::new();
    for name in &args.setup {
        let loaded = load_with(name, args.agents.as_deref(), Some((&settings, &mut pools)))?;
        for combo in &combos {
            let mut setup = loaded.setup.clone();
            apply_rules(&mut setup, &args.rules)?;
            let mut lineup = loaded.lineup.clone();
            let values: Vec<&str> = combo.iter().enumerate().map(|(a, &v)| axes[a].values[v].as_str()).collect();
            crate::grid::apply_point(&mut setup, &mut lineup, &axes, &values)
                .map_err(|e| Error::Invalid(format!("--sweep {e}")))?;
            let game = check(&setup)?;
            // `--agents` may name a role this setup does not deal (a file's [agents] was checked by line).
            let checked = lineup.check_roles(game.roles_present());
            checked.and_then(|_| lineup.check_seats(game.players())).map_err(|e| match &args.agents {
                Some(spec) => Error::Invalid(format!("--agents {spec}: {e} (setup {})", setup.name)),
                None => Error::Setup(format!("{name}: {e}")),
            })?;
            // A designer must never compare rows that silently played different
            // rules: the label names every resolved rule that differs from the
            // classic seed's, and a setup that mixes the sets says what `auto` chose.
            let auto = game.auto_choices();
            if game.mixes_rule_sets() && !auto.is_empty() {
                let note = format!(
                    "note: {} mixes extended roles with classic roles or plain players; `auto` chose {} \
                     (E2, C8, E8; set them in [rules] to choose)",
                    setup.name,
                    auto.join(", ")
                );
                if !noted.contains(&note) {
                    eprintln!("{note}");
                    noted.push(note);
                }
            }
            let variant = Variant {
                setup: setup.name.clone(),
                rules: game.rules_label(),
                agents: lineup.label(),
                players: game.players(),
            };
            jobs.push(Job { game, lineup, variant, ext: pools.clone() });
        }
    }
    Ok(jobs)
}

/// Registers the external agents `specs` name (`ext:COMMAND`) on the job's
/// lineup, for commands that set strategies beyond `--agents` (`duel`,
/// `league`); the job keeps their pools.
pub(crate) fn register_ext(job: &mut Job, specs: &[&str], args: &GameArgs) -> Result<(), Error> {
    if specs.iter().all(|s| mafia_protocol::ext::commands(s).is_empty()) {
        return Ok(());
    }
    let settings = args.ext.settings()?;
    mafia_protocol::register(&mut job.lineup, specs, &settings, &mut job.ext).map_err(|e| Error::Agents(e.to_string()))
}

/// The threads a command's rayon pool should have: what the job's agent
/// processes ask for (a few per process), else `requested` (0 = every core).
pub(crate) fn threads_for(job: &Job, requested: usize) -> usize {
    match job.ext.iter().map(|p| p.threads()).max() {
        Some(n) => n,
        None => thread_count(requested),
    }
}

pub(crate) fn one_job(args: &GameArgs) -> Result<Job, Error> {
    if args.setup.len() != 1 {
        return Err(Error::Invalid("give exactly one --setup".into()));
    }
    Ok(jobs(args, &[])?.remove(0))
}

/// Runs a parsed command line; `Err` says why it failed (see [`Error`]).
pub fn dispatch(cli: Cli) -> Result<(), Error> {
    match cli.command {
        None => cmd_run(cli.run),
        Some(Command::Run(a)) => cmd_run(a),
        Some(Command::Setups) => {
            let mut out = std::io::stdout().lock();
            for p in PRESETS.iter() {
                let players: u64 = p.counts.iter().map(|c| c.1).sum();
                writeln!(out, "{:<12} {:>2} players  {}", p.name, players, p.about)?;
                // The roles by camp, as a setup file's [roles] table writes them.
                for camp in mafia_engine::Camp::ALL {
                    let roles: Vec<String> =
                        p.counts.iter().filter(|(r, _)| r.camp() == camp).map(|(r, c)| format!("{r}={c}")).collect();
                    if !roles.is_empty() {
                        writeln!(out, "{:<13}{:<9}{}", "", camp.name(), roles.join(" "))?;
                    }
                }
            }
            writeln!(out, "\nstrategies:")?;
            for s in STRATEGIES {
                writeln!(out, "  {:<10} {}", s.name, s.about)?;
            }
            Ok(())
        }
        Some(Command::Rules) => {
            let mut out = std::io::stdout().lock();
            // The long `auto` defaults go last, so the columns stay narrow.
            let w = |f: fn(&mafia_engine::RuleKey) -> &str, head: &str| {
                RULE_KEYS.iter().map(|k| f(k).len()).chain([head.len()]).max().unwrap_or(0)
            };
            let (wn, wv, wc) = (w(|k| k.name, "rule"), w(|k| k.values, "values"), w(|k| k.clause, "clause"));
            writeln!(out, "{:<wn$}  {:<wv$}  {:<wc$}  default", "rule", "values", "clause")?;
            for k in RULE_KEYS.iter() {
                writeln!(out, "{:<wn$}  {:<wv$}  {:<wc$}  {}", k.name, k.values, k.clause, k.default)?;
            }
            Ok(())
        }
        Some(Command::Replay(a)) => {
            let job = one_job(&a.game)?;
            let text = replay::replay(&job, a.seed, a.game_index, a.json);
            std::io::stdout().lock().write_all(text.as_bytes())?;
            Ok(())
        }
        Some(Command::Bench(a)) => cmd_bench(a),
        Some(Command::NightOrder(a)) => cmd_night_order(a),
        Some(Command::Resolve(a)) => {
            let trace = crate::commands::resolve::resolve_file(&a.scenario, a.json)?;
            std::io::stdout().lock().write_all(trace.as_bytes())?;
            Ok(())
        }
        Some(Command::Schema) => {
            std::io::stdout().lock().write_all(crate::commands::schema::schema_text().as_bytes())?;
            Ok(())
        }
        Some(Command::Strategies) => {
            std::io::stdout().lock().write_all(crate::commands::strategies::strategies_text().as_bytes())?;
            Ok(())
        }
        Some(Command::Duel(a)) => crate::exec::paired::cmd_duel(a),
        Some(Command::League(a)) => crate::exec::paired::cmd_league(a),
        Some(Command::Moves(a)) => crate::commands::moves::cmd_moves(a),
        Some(Command::BestResponse(a)) => crate::commands::best_response::cmd_best_response(a),
        Some(Command::Experiment(a)) => crate::commands::experiment::cmd_experiment(a),
        Some(Command::Compare(a)) => crate::commands::compare::cmd_compare(a),
        Some(Command::Balance(a)) => crate::commands::balance::cmd_balance(a),
        Some(Command::Report(a)) => crate::commands::report::cmd_report(a),
        Some(Command::Odds(a)) => crate::commands::odds::cmd_odds(a),
        Some(Command::Merge(a)) => crate::commands::merge::cmd_merge(a),
        Some(Command::Host(a)) => {
            let job = one_job(&a.game)?;
            let input = Box::new(std::io::BufReader::new(std::io::stdin()));
            let output = Box::new(std::io::LineWriter::new(std::io::stdout()));
            mafia_protocol::host::serve(&job.game, &job.lineup, input, output).map_err(|e| Error::Agents(e.to_string()))
        }
    }
}

fn cmd_run(a: RunArgs) -> Result<(), Error> {
    // Check output paths before playing, so a bad name costs nothing.
    for p in a.out.iter().chain(a.games_out.iter()) {
        out_format(p).map_err(Error::Invalid)?;
        if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty())
            && !dir.is_dir()
        {
            return Err(Error::Invalid(format!("{}: folder {} does not exist", p.display(), dir.display())));
        }
    }
    if let (Some(out), Some(games)) = (&a.out, &a.games_out) {
        let siblings = crate::output::sibling_paths(out);
        if siblings.iter().any(|p| p == games) {
            return Err(Error::Invalid(format!(
                "--games-out {} would overwrite a table written by --out {}",
                games.display(),
                out.display()
            )));
        }
    }
    if a.games_out.is_some() && a.check {
        return Err(Error::Invalid(
            "--check plays on the executor, --games-out on the streaming runner: give one of them".into(),
        ));
    }
    if a.games_out.is_some() && a.store.any() {
        return Err(Error::Invalid(
            "--games-out cannot be sharded, checkpointed or resumed (its rows stream to one file): \
             drop --games-out, or --shard/--counts/--resume"
                .into(),
        ));
    }
    check_threads(a.threads)?;
    let precision = a.precision.map(crate::stats::check_precision).transpose().map_err(Error::Invalid)?;
    if precision.is_some() {
        a.store.refuse_shard("--precision")?;
    }
    let jobs = jobs(&a.game, &a.sweeps)?;
    if a.first_game.checked_add(a.games).is_none() {
        return Err(Error::Invalid(format!(
            "--first-game {} with --games {}: past the last game index",
            a.first_game, a.games
        )));
    }
    let plan = RunPlan {
        variants: jobs
            .iter()
            .map(|j| crate::shard::PointInfo {
                values: vec![],
                variant: j.variant.clone(),
                camps: crate::exec::point_camps(j),
            })
            .collect(),
        precision,
        games: a.games,
    };
    let pools: Vec<Arc<mafia_protocol::Pool>> = jobs.first().map(|j| j.ext.clone()).unwrap_or_default();
    let Some(games_out) = &a.games_out else {
        // The executor: checkpoints, resume, shards and Ctrl-C.
        let mut store = crate::shard::Store::open(
            &a.store,
            crate::shard::Run {
                plan: crate::shard::Plan::Run(plan.clone()),
                jobs: &jobs,
                pairs: &[],
                seed: a.seed,
                first: a.first_game,
                games: a.games,
            },
        )?;
        let (first, games) = store.range();
        let check = a.check.then(|| std::sync::Mutex::new(crate::exec::Violations::default()));
        let e = crate::exec::Exec {
            points: &jobs,
            labels: jobs
                .iter()
                .map(|j| format!("{} {} {}", j.variant.setup, j.variant.rules, j.variant.agents))
                .collect(),
            pairs: vec![],
            seed: a.seed,
            first,
            games,
            threads: a.threads,
            progress: !a.quiet,
            checkpoints: precision.is_some(),
            check: check.as_ref(),
        };
        let camps: Vec<Vec<mafia_engine::Camp>> = plan.variants.iter().map(|p| p.camps.clone()).collect();
        let mut rule = crate::exec::precision_rule(precision.unwrap_or(1.0), camps);
        crate::exec::install_interrupt_handler();
        let from = store.take_from();
        let (counts, finish, done) = crate::exec::execute_from(&e, from, &mut rule, &mut |d, c| store.checkpoint(d, c))
            .map_err(Error::Threads)?;
        store.close(done, &counts, finish)?;
        render_run(&plan, &counts, &store.faults(), a.out.as_deref())?;
        if let Some(found) = check {
            let v = found.into_inner().unwrap_or_else(|p| p.into_inner());
            report_violations(&v, &jobs, &a)?;
        }
        if finish == crate::exec::Finish::Interrupted {
            return Err(Error::Interrupted(store.interrupted_message()));
        }
        return Ok(());
    };
    // `--games-out`: the streaming runner, which writes rows in game order.
    let spec = RunSpec {
        jobs,
        games: a.games,
        first: a.first_game,
        seed: a.seed,
        threads: a.threads,
        progress: !a.quiet,
        games_out: Some(games_out.clone()),
        precision,
    };
    let output = run(&spec).map_err(|e| Error::Io(format!("games-out: {e}")))?;
    let k = output.tallies.len();
    let counts = crate::exec::Counts {
        played: output.tallies.iter().zip(&output.forfeits).map(|(t, f)| t.games + f).collect(),
        tallies: output.tallies,
        forfeits: output.forfeits,
        pairs: vec![],
        pair_games: vec![],
        a_only: vec![],
        b_only: vec![],
        active: vec![true; k],
    };
    render_run(&plan, &counts, &crate::output::faults_of(&pools), a.out.as_deref())?;
    match output.games_out_error {
        None => eprintln!("wrote {}", games_out.display()),
        Some(e) => {
            return Err(Error::Io(format!("--games-out {}: {e} (the tables above are complete)", games_out.display())));
        }
    }
    Ok(())
}

/// `run --check`: the games checked and what the checkers refused. A
/// refusal is a bug in the engine or the checker, not bad input: the
/// report is an [`Error::Violations`] (exit code 1), after the tables (of
/// the games played up to the block that found it) are printed and written.
fn report_violations(v: &crate::exec::Violations, jobs: &[Job], a: &RunArgs) -> Result<(), Error> {
    let mut out = std::io::stdout().lock();
    if v.count == 0 {
        writeln!(out, "checked {} games with the invariant checkers (mafia-check): 0 violations", v.games)?;
        return Ok(());
    }
    drop(out);
    let mut report =
        vec![format!("invariant violations: {} of {} games checked were refused; the first:", v.count, v.games)];
    for (p, i, why) in &v.first {
        let j = &jobs[*p];
        // The variant's label names every resolved rule that differs from the classic seed's.
        let rules: String = j.variant.rules.split_whitespace().map(|r| format!(" --rule {r}")).collect();
        report.push(format!("  {} game {i}: {why}", j.variant.setup));
        report.push(format!(
            "    replay: mafia replay --setup {} --agents '{}' --seed {} --game {i}{rules}",
            j.variant.setup, j.variant.agents, a.seed
        ));
    }
    Err(Error::Violations(report.join("\n")))
}

/// `run`'s output from its counts (also `merge`'s): the tables printed,
/// the precision line, the external agents' faults (when any played), and
/// the tables written to `out`.
pub fn render_run(
    plan: &RunPlan,
    counts: &crate::exec::Counts,
    faults: &[crate::output::AgentFaults],
    out: Option<&Path>,
) -> Result<(), Error> {
    let tallies = &counts.tallies;
    let rows: Vec<(Variant, &crate::stats::Tally)> =
        plan.variants.iter().map(|p| p.variant.clone()).zip(tallies.iter()).collect();
    let mut tables = build_tables(&rows).map_err(|e| Error::Table("tables", e))?;
    // Print first: a failing write below must not lose the results.
    print_tables(&tables, &mut std::io::stdout().lock())?;
    if let Some(h) = plan.precision {
        let played: Vec<String> = tallies.iter().map(|t| t.games.to_string()).collect();
        let met = tallies
            .iter()
            .zip(&plan.variants)
            .all(|(t, p)| p.camps.iter().all(|&c| crate::stats::wilson_half(t.wins[c as usize], t.games) <= h));
        println!(
            "played {} games per variant: {}",
            played.join(", "),
            if met {
                format!("every interval within ±{h}")
            } else {
                format!("the cap of {} games reached first", plan.games)
            }
        );
    }
    if let Some(p) = out {
        for w in write_tables(&mut tables, p).map_err(Error::Io)? {
            eprintln!("wrote {}", w.display());
        }
    }
    crate::output::report_faults(faults, counts.forfeits.iter().sum(), out)
}

fn cmd_night_order(a: NightOrderArgs) -> Result<(), Error> {
    let game = match &a.setup {
        None if !a.rules.is_empty() => {
            // Rules alone: the default order with those settings, for every role.
            let mut setup = Setup::new("all roles");
            apply_rules(&mut setup, &a.rules)?;
            return write_night_order(&setup.rules, None);
        }
        None => None,
        Some(name) => {
            let mut setup = load(name, None)?.setup;
            apply_rules(&mut setup, &a.rules)?;
            Some(check(&setup)?)
        }
    };
    let rules = game.as_ref().map_or_else(mafia_engine::Rules::default, |g| *g.rules());
    write_night_order(&rules, game.as_ref())
}

/// The night-order table (E30): each step of `game`'s order (the default
/// order without a game) with the roles that move in it and what each of
/// their moves does; with a game, only the roles it deals.
fn write_night_order(rules: &mafia_engine::Rules, game: Option<&Game>) -> Result<(), Error> {
    use mafia_engine::{NIGHT_ORDER, NightStep, Resolution, Role};
    let present = |r: Role| game.is_none_or(|g| g.count(r) > 0);
    let names = |roles: &mut dyn Iterator<Item = Role>| -> Vec<&'static str> {
        roles.filter(|&r| present(r)).map(|r| r.name()).collect()
    };
    let order: &[NightStep] = game.map_or(&NIGHT_ORDER[..], |g| &g.night_order()[..]);
    let mut out = std::io::stdout().lock();
    match game {
        Some(g) => writeln!(out, "Night order of setup {} ({} players), E30:", g.name(), g.players())?,
        None => writeln!(out, "Night order (E30), every role:")?,
    }
    writeln!(out, "each step sees what the earlier steps did; a move that fails leaves no trace.")?;
    let (resolution, other) = match rules.resolution {
        Resolution::Graph => ("graph", "sequential: the plain sequence, an earlier move always wins"),
        Resolution::Sequential => ("sequential", "graph: E29's dependency graph with its cycle rule"),
    };
    writeln!(out, "Control moves resolve with resolution = {resolution} (E29; the other value is {other}).")?;
    for (i, step) in order.iter().enumerate() {
        let roles = names(&mut step.roles());
        let roles = if roles.is_empty() { String::new() } else { format!(" — {}", roles.join(", ")) };
        writeln!(out, "\n{}. {}{roles}", i + 1, step.name())?;
        writeln!(out, "   {}", step.about())?;
        // Each move of the step whose role is dealt, with what it does.
        let mut line = |what: &str, about: &str| writeln!(out, "     {what:<11} {about}");
        for ability in step.abilities() {
            let holders = names(&mut Role::ALL.into_iter().filter(|r| r.info().night.index() == ability.index()));
            if !holders.is_empty() {
                line(ability.info().name, ability.info().about)?;
            }
        }
        match step {
            NightStep::StartOfNight => {
                if present(Role::Actor) {
                    line(
                        "appoint",
                        "the Actor takes the dead mafia role the Boss names (by default the best-ranked; E12)",
                    )?;
                }
                if present(Role::Deputy) {
                    line("promote", "the Deputy takes the role of the dead Detective or Doctor (E14)")?;
                }
            }
            NightStep::Kills => {
                // E12: the Actor sends nicks once appointed (or as the last of the mafia).
                let shooters = names(&mut Role::ALL.into_iter().filter(|r| r.info().shoots || *r == Role::Actor));
                if !shooters.is_empty() {
                    let how = match game.map(|g| g.leader_kill()) {
                        Some(true) => "the highest-ranked sender decides (camp_kill = leader)",
                        Some(false) => "every living member sends the same nick (camp_kill = unanimous)",
                        None => "camp_kill: unanimous for classic roles only, else the highest-ranked sender decides",
                    };
                    line("camp kill", &format!("one kill per camp; {how} (C4, E8)"))?;
                }
                if present(Role::Psycho) {
                    line("guest", "last night's guest dies unless healed (E23); the blast (E24)")?;
                }
                if present(Role::Lucky) {
                    line("spare life", "the Lucky's one spare life absorbs every kill of one night (E21)")?;
                }
            }
            NightStep::InformationOnMoves
                if Role::ALL.into_iter().any(|r| r.camp() == mafia_engine::Camp::Bandits && present(r)) =>
            {
                line("search", "each bandit may name a suspected bandit; two bandits meet (E3)")?;
            }
            _ => {}
        }
    }
    if present(Role::Prostitute) {
        writeln!(
            out,
            "\nThe Role Prostitute's borrowed move (E19) is made in the step of the role she borrows (E31)."
        )?;
    }
    Ok(())
}

/// More threads than this is surely a typo (and would take ages to start).
const MAX_THREADS: usize = 1024;

fn check_threads(t: usize) -> Result<(), Error> {
    if t > MAX_THREADS {
        return Err(Error::Invalid(format!("--threads {t}: at most {MAX_THREADS} (0 = every core)")));
    }
    Ok(())
}

fn cmd_bench(a: BenchArgs) -> Result<(), Error> {
    check_threads(a.threads)?;
    let job = one_job(&a.game)?;
    // The other lineup is checked before anything is measured.
    let vs = match &a.vs {
        Some(spec) => {
            let mut args = a.game.clone();
            args.agents = Some(spec.clone());
            Some((
                spec.as_str(),
                one_job(&args).map_err(|e| Error::Invalid(e.to_string().replacen("--agents", "--vs", 1)))?,
            ))
        }
        None => None,
    };
    let threads = thread_count(a.threads);
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "bench: setup {} ({} players), agents {}, rules [{}], {} games per measurement",
        job.variant.setup,
        job.variant.players,
        job.variant.agents,
        if job.variant.rules.is_empty() { "the classic seed's" } else { &job.variant.rules },
        a.games
    )?;
    // The bare game loop of one worker: engine and agents only.
    let mut w = Worker::new(job.lineup.clone(), master_key(a.seed));
    for i in 0..(a.games / 20).max(1) {
        std::hint::black_box(w.play(&job.game, i, &mut NoLog));
    }
    let t = Instant::now();
    let mut checksum = 0u64;
    for i in 0..a.games {
        let o = w.play(&job.game, i, &mut NoLog);
        checksum = checksum.wrapping_add(o.days as u64 + o.winner.map_or(0, |c| c as u64 + 1));
    }
    let bare = t.elapsed().as_secs_f64();
    let line = |out: &mut std::io::StdoutLock<'_>, label: &str, secs: f64, extra: String| {
        writeln!(
            out,
            "{label:<22} {:>12.0} games/s {:>9.1} ns/game  {extra}",
            a.games as f64 / secs,
            secs * 1e9 / a.games as f64
        )
    };
    line(&mut out, "game loop, 1 thread", bare, format!("(checksum {checksum})"))?;
    // The executor as `mafia run` uses it (tallies, chunks, rayon), on 1 thread and on all.
    let runner = |n: usize| -> Result<(f64, u64), Error> {
        let points = [job.clone()];
        let e = crate::exec::Exec {
            points: &points,
            labels: vec![],
            pairs: vec![],
            seed: a.seed,
            first: 0,
            games: a.games,
            threads: n,
            progress: false,
            checkpoints: false,
            check: None,
        };
        let t = Instant::now();
        let (counts, _) = crate::exec::execute(&e, &mut |_| {}).map_err(Error::Threads)?;
        Ok((t.elapsed().as_secs_f64(), counts.tallies[0].wins[0]))
    };
    let (one, wins1) = runner(1)?;
    line(&mut out, "runner, 1 thread", one, format!("(town wins {wins1})"))?;
    if threads > 1 {
        let (all, wins) = runner(threads)?;
        let label = format!("runner, {threads} threads");
        line(&mut out, &label, all, format!("(town wins {wins}; {:.2}x the 1-thread runner)", one / all))?;
    }
    if let Some((spec, other)) = vs {
        bench_vs(&a, &job, spec, &other, &mut out)?;
    }
    Ok(())
}

/// `bench --vs SPEC`: the game loop of the lineup (A) and of `SPEC` (B) on
/// the same setup, rules, seed and games, in rounds A B A B … on one
/// thread, so a slow spell of the machine falls on both; prints each
/// lineup's median time a game and the median, lowest and highest of the
/// rounds' ratios A/B.
fn bench_vs(a: &BenchArgs, job: &Job, spec: &str, other: &Job, out: &mut std::io::StdoutLock<'_>) -> Result<(), Error> {
    let per_round = (a.games / a.rounds as u64).max(1);
    let mut workers =
        [Worker::new(job.lineup.clone(), master_key(a.seed)), Worker::new(other.lineup.clone(), master_key(a.seed))];
    let games = [&job.game, &other.game];
    // Warm both up (caches, branch predictors, the agents' first allocations).
    for (w, g) in workers.iter_mut().zip(games) {
        for i in 0..(per_round / 20).max(1) {
            std::hint::black_box(w.play(g, i, &mut NoLog));
        }
    }
    let mut ns = [Vec::new(), Vec::new()];
    for _ in 0..a.rounds {
        for k in 0..2 {
            let t = Instant::now();
            for i in 0..per_round {
                std::hint::black_box(workers[k].play(games[k], i, &mut NoLog));
            }
            ns[k].push(t.elapsed().as_secs_f64() * 1e9 / per_round as f64);
        }
    }
    let mut ratios: Vec<f64> = ns[0].iter().zip(&ns[1]).map(|(x, y)| x / y).collect();
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let n = v.len();
        if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 }
    };
    let (ma, mb) = (median(&mut ns[0]), median(&mut ns[1]));
    let mr = median(&mut ratios);
    writeln!(
        out,
        "vs {spec}: {} rounds of {per_round} games each, alternated, 1 thread\n\
         game loop, {:<14} {ma:>9.1} ns/game (median)\n\
         game loop, {:<14} {mb:>9.1} ns/game (median)\n\
         cost ratio {}/{spec}: {mr:.3} (rounds {:.3}–{:.3})",
        a.rounds,
        job.variant.agents,
        spec,
        job.variant.agents,
        ratios[0],
        ratios[ratios.len() - 1],
    )?;
    Ok(())
}
