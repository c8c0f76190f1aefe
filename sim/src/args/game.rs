//! What to play, as the command line gives it: a setup (a preset or a setup
//! file), rule settings and agents (`GameArgs`), how external agents run
//! (`ExtArgs`), and the checked jobs they make.

use crate::error::Error;
use crate::exec::{Job, thread_count};
use crate::input::load_setup;
use crate::output::Variant;
use clap::Args;
use mafia_agents::Lineup;
use mafia_engine::{Game, PRESETS, Preset, Setup};
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
    // clap would print a doc comment on a flattened field as help text.
    #[allow(missing_docs)]
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
    /// Folder for the agents' standard error, made if missing (one log file per process start; default `mafia-ext-<pid>` in the temporary folder).
    #[arg(long, value_name = "DIR")]
    pub ext_log: Option<PathBuf>,
    /// Largest share of an external agent's decisions that may fault (0 to 1); past it the run fails (exit 1) after writing its outputs.
    #[arg(long, value_name = "RATE", default_value_t = 0.01)]
    pub ext_max_faults: f64,
    /// Most games an external agent may forfeit (`--ext-fallback forfeit`); past it the run fails (exit 1) after writing its outputs.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub ext_max_forfeits: u64,
}

impl ExtArgs {
    /// The defaults of the options (for commands that read a file instead).
    pub fn default_settings() -> ExtArgs {
        ExtArgs {
            ext_procs: 0,
            ext_timeout: 10.0,
            ext_fallback: "random".into(),
            ext_restarts: 5,
            ext_log: None,
            ext_max_faults: 0.01,
            ext_max_forfeits: 0,
        }
    }

    /// When the external agents' faults fail a run, and where their
    /// standard error goes.
    pub fn limits(&self) -> Result<crate::output::FaultLimits, Error> {
        if !(0.0..=1.0).contains(&self.ext_max_faults) {
            return Err(Error::Invalid(format!(
                "--ext-max-faults {}: give a share of the decisions, from 0 to 1",
                self.ext_max_faults
            )));
        }
        Ok(crate::output::FaultLimits {
            max_rate: self.ext_max_faults,
            max_forfeits: self.ext_max_forfeits,
            log_dir: Some(self.ext_log.clone().unwrap_or_else(mafia_protocol::default_log_dir)),
        })
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
        self.limits()?;
        if let Some(dir) = &self.ext_log {
            // Made when the first log is written (a run with no external
            // agent, or one refused later, leaves no folder behind); a path
            // under a file is refused now.
            if let Some(not_dir) = dir.ancestors().find(|a| a.exists()).filter(|a| !a.is_dir()) {
                return Err(Error::Invalid(format!(
                    "--ext-log {}: cannot make the folder: {} is not a folder",
                    dir.display(),
                    not_dir.display()
                )));
            }
            s.log_dir = dir.clone();
        }
        Ok(s)
    }
}

/// A setup with its lineup, before rule overrides.
pub struct Loaded {
    pub(crate) setup: Setup,
    pub(crate) lineup: Lineup,
}

pub fn load(name: &str, lineup_spec: Option<&str>) -> Result<Loaded, Error> {
    load_with(name, lineup_spec, None)
}

/// External agents to register while loading: the pool settings and the pools made so far.
pub type ExtPools<'a> = Option<(&'a mafia_protocol::Settings, &'a mut Vec<Arc<mafia_protocol::Pool>>)>;

pub fn load_with(name: &str, lineup_spec: Option<&str>, mut ext: ExtPools<'_>) -> Result<Loaded, Error> {
    // A preset, or a file with `base`, starts from the preset's default lineup.
    let mut lineup = Lineup::default();
    crate::library::plug(&mut lineup);
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
        crate::library::plug(&mut lineup);
        p.setup()
    } else {
        let names = lineup.strategy_names();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        // A library call's setup held in memory (the studio's) is read as
        // its file would be, before any file of that name.
        let file = match crate::library::file_text(name) {
            Some(text) => crate::input::parse_setup(name, &text, &refs)?,
            None => {
                let path = Path::new(name);
                if !path.exists() {
                    let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
                    return Err(Error::Invalid(format!(
                        "--setup {name}: no such preset ({}) and no such file",
                        names.join(", ")
                    )));
                }
                load_setup(path, &refs)?
            }
        };
        if let Some(base) = file.base {
            lineup = Lineup::for_preset(base);
            crate::library::plug(&mut lineup);
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

pub fn apply_rules(setup: &mut Setup, rules: &[String]) -> Result<(), Error> {
    for r in rules {
        let (k, v) = r
            .split_once('=')
            .ok_or_else(|| Error::Invalid(format!("--rule {r}: expected KEY=VALUE (see `mafia rules`)")))?;
        setup.rules.set(k.trim(), v).map_err(|e| Error::Invalid(format!("--rule {r}: {e}")))?;
    }
    Ok(())
}

/// The checked game of a setup, or why it makes none.
pub fn check_game(setup: &Setup) -> Result<Game, Error> {
    Game::new(setup).map_err(|e| {
        let lines: Vec<String> = e.problems.iter().map(|p| format!("  {}: {}", p.path, p.message)).collect();
        Error::Setup(format!("setup `{}` makes no game:\n{}", setup.name, lines.join("\n")))
    })
}

/// The jobs of a run: the setups of `args` and every combination of the `--sweep` values, each with its lineup, checked.
pub fn jobs(args: &GameArgs, sweeps: &[String]) -> Result<Vec<Job>, Error> {
    // `--sweep KEY=V1,V2` is an experiment's grid axis (`rules.` may be left out).
    let axes = sweeps
        .iter()
        .map(|s| crate::grid::Axis::from_flag(s).map_err(|e| Error::Invalid(format!("--sweep {e}"))))
        .collect::<Result<Vec<_>, _>>()?;
    let combos = crate::grid::combinations(&axes).map_err(|e| Error::Invalid(format!("--sweep: {e}")))?;
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
            let game = check_game(&setup)?;
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
                    "{} mixes extended roles with classic roles or plain players; `auto` chose {} \
                     (E2, C8, E8; set them in [rules] to choose)",
                    setup.name,
                    auto.join(", ")
                );
                if !noted.contains(&note) {
                    crate::output::note(&note);
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
pub fn register_ext(job: &mut Job, specs: &[&str], args: &GameArgs) -> Result<(), Error> {
    if specs.iter().all(|s| mafia_protocol::ext::commands(s).is_empty()) {
        return Ok(());
    }
    let settings = args.ext.settings()?;
    mafia_protocol::register(&mut job.lineup, specs, &settings, &mut job.ext).map_err(|e| Error::Agents(e.to_string()))
}

/// The threads a command's rayon pool should have: what the job's agent
/// processes ask for (a few per process), else `requested` (0 = every core).
pub fn threads_for(job: &Job, requested: usize) -> usize {
    match job.ext.iter().map(|p| p.threads()).max() {
        Some(n) => n,
        None => thread_count(requested),
    }
}

/// The one job of `args` (a command that plays one setup).
pub fn one_job(args: &GameArgs) -> Result<Job, Error> {
    if args.setup.len() != 1 {
        return Err(Error::Invalid("give exactly one --setup".into()));
    }
    Ok(jobs(args, &[])?.remove(0))
}

/// More threads than this is surely a typo (and would take ages to start).
const MAX_THREADS: usize = 1024;

/// Checks a `--threads` value.
pub fn check_threads(t: usize) -> Result<(), Error> {
    if t > MAX_THREADS {
        return Err(Error::Invalid(format!("--threads {t}: at most {MAX_THREADS} (0 = every core)")));
    }
    Ok(())
}
