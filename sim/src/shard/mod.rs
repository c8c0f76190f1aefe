//! Runs that outgrow one machine, and runs that must survive a kill.
//!
//! - **Shards.** `--shard K/N` plays the K-th of N disjoint, contiguous
//!   ranges of the run's game indices (K from 0, the Slurm array task id).
//!   Game `i` is the same game whoever plays it (its streams come from the
//!   master seed and `i`), and counts add, so the shards' counts sum to the
//!   whole run's.
//! - **Counts files.** `--counts FILE` writes what the tables are built
//!   from — the counts, not the printed tables — with everything that says
//!   which run they belong to: the command and its [`Plan`], a fingerprint
//!   of the games (setup, rules, agents), the seed, the game range, the
//!   shard and the code version. `mafia merge` checks that a set of files
//!   tiles one run and builds the tables from their sum with the very code
//!   the command uses, so they are the single run's, byte for byte.
//! - **Checkpoints.** The same file is rewritten (atomically, see
//!   [`crate::output::write_atomic`]) every `--checkpoint-secs` with the games finished so
//!   far — whole blocks of the executor only — and on an interrupt
//!   (Ctrl-C, SIGTERM). `--resume` continues from it. A block counts once:
//!   either it is in the file, or it is played again.

use crate::error::Error;
use crate::exec::Job;
use crate::exec::{Counts, Finish};
use clap::Args;
use mafia_engine::Camp;
use serde::{Deserialize, Serialize};

mod check;
mod plan;

pub use check::encode;

pub use plan::{ComparePlan, ExperimentPlan, Layout, Plan, PointInfo, RunPlan};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The options of the commands that can shard, checkpoint and resume.
#[derive(Args, Debug, Clone, Default)]
pub struct ShardArgs {
    /// Play only shard K of N (K = 0..N-1): a contiguous, disjoint part of the games; `mafia merge` joins the shards' counts files.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Write the counts (the tallies, seed, setup, rules, game range, code version) to FILE (JSON): the shard file `merge` reads, rewritten as a checkpoint while playing.
    #[arg(long, value_name = "FILE")]
    pub counts: Option<PathBuf>,
    /// Continue the run in --counts FILE if it holds an unfinished one (start afresh if it does not exist).
    #[arg(long)]
    pub resume: bool,
    /// Seconds between checkpoints written to --counts FILE.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    pub checkpoint_secs: f64,
}

impl ShardArgs {
    /// Whether any of the options is used.
    pub fn any(&self) -> bool {
        self.shard.is_some() || self.counts.is_some() || self.resume
    }

    /// Refuses the options where sequential stopping needs every game in
    /// one place (`why` names the option).
    pub fn refuse_shard(&self, why: &str) -> Result<(), Error> {
        match &self.shard {
            Some(s) => Err(Error::Invalid(format!(
                "--shard {s} with {why}: a stopping rule needs every game in one place, so it cannot be \
                 sharded; play a fixed --games instead, or run it on one machine"
            ))),
            None => Ok(()),
        }
    }
}

/// Shard `k` of `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

/// More shards than this is surely a typo.
pub const MAX_SHARDS: u64 = 1_000_000;

impl Shard {
    /// The whole run as one shard.
    pub const WHOLE: Shard = Shard { k: 0, n: 1 };

    /// Reads `K/N`.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = || {
            format!(
                "--shard {s}: expected K/N with 0 ≤ K < N ≤ {MAX_SHARDS} (K counts from 0, as Slurm's array task id)"
            )
        };
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n): (u64, u64) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if n == 0 || k >= n || n > MAX_SHARDS {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }

    /// The shard's game indices `start..end` of the run's `first..first + games`:
    /// shard `k` starts at `first + ⌊k · games / n⌋`.
    pub fn range(self, first: u64, games: u64) -> (u64, u64) {
        let at = |k: u64| first + ((k as u128 * games as u128) / self.n as u128) as u64;
        (at(self.k), at(self.k + 1))
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// The state a counts file records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum State {
    /// A checkpoint of a run still playing (or killed while playing).
    Running,
    /// Stopped by Ctrl-C or SIGTERM: the games done are in.
    Interrupted,
    /// Every game of the shard played.
    Complete,
    /// A stopping rule (precision, SPRT) ended the run.
    Stopped,
}

/// The format tag of a counts file. Format 2 (issue 35) added the
/// `checksum`; a format-1 file is refused by name (it could not be resumed
/// or merged by this build anyway: its `code` is another executable's).
pub const FORMAT: &str = "mafia-lab counts 2";

/// The format before counts files carried a checksum.
const FORMAT_1: &str = "mafia-lab counts 1";

/// A counts file (JSON; `CountsFile` in `schema/mafia-lab.schema.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CountsFile {
    pub format: String,
    /// The code that played the games: the package version and a hash of
    /// the `mafia` executable. Shards merge only with the same code.
    pub code: String,
    /// The command line, for the record.
    pub command_line: Vec<String>,
    /// A hash of everything the games depend on besides the seed and the
    /// range: every point's checked game (setup, rules) and lineup.
    pub fingerprint: String,
    /// What each point played, for the record: the setup, its roles, every
    /// rule with `auto` resolved, and the agents.
    pub setups: Vec<SetupRecord>,
    pub seed: u64,
    /// The whole run's games: indices `first..first + games`.
    pub first: u64,
    pub games: u64,
    pub shard: Shard,
    /// This shard's indices `start..end`.
    pub start: u64,
    pub end: u64,
    /// Games finished from `start` (by every point still playing).
    pub done: u64,
    pub state: State,
    pub plan: Plan,
    pub counts: Counts,
    /// The external agents' faults in the games counted (none without
    /// `ext:` agents): as of the last finished block, like the counts, so a
    /// block dropped at an interruption and played again on resume counts
    /// its faults once.
    #[serde(default)]
    pub faults: Vec<crate::output::AgentFaults>,
    /// `sha256:` and the hex SHA-256 of the file's bytes without this
    /// member (the compact JSON of every other field, as written): always
    /// the last member. A file whose checksum does not match is refused.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub checksum: String,
}

/// One point's game as a counts file records it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SetupRecord {
    pub setup: String,
    /// The roles dealt, in the engine's role order.
    pub roles: Vec<RoleCount>,
    pub rules: mafia_engine::Rules,
    /// The lineup (`--agents` syntax).
    pub agents: String,
}

/// A role and how many players are dealt it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RoleCount {
    pub role: String,
    pub count: u64,
}

impl SetupRecord {
    fn of(job: &Job) -> SetupRecord {
        let g = &job.game;
        let roles = mafia_engine::Role::ALL
            .into_iter()
            .filter(|&r| g.count(r) > 0)
            .map(|r| RoleCount { role: r.name().to_string(), count: g.count(r) as u64 })
            .collect();
        SetupRecord { setup: g.name().to_string(), roles, rules: g.resolved_rules(), agents: job.lineup.label() }
    }
}

impl CountsFile {
    /// `shard K/N` or `the run` (a file of an unsharded run).
    fn what(&self) -> String {
        if self.shard.n == 1 { "the run".to_string() } else { format!("shard {}", self.shard) }
    }
}

/// The code version recorded in counts files: the package version and a
/// 64-bit hash of the running executable (so a rebuilt binary with other
/// code never merges with an older one's shards).
pub fn code_version() -> String {
    static CODE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    CODE.get_or_init(|| {
        let exe = std::env::current_exe().and_then(std::fs::read);
        let hash = match exe {
            Ok(bytes) => format!("{:016x}", fnv_words(&bytes)),
            Err(_) => "unknown".into(),
        };
        format!("mafia {} (executable {hash})", env!("CARGO_PKG_VERSION"))
    })
    .clone()
}

/// FNV-1a, 64 bits: a stable hash (std's hashers are not stable across builds).
fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// FNV-1a over 8-byte words, then the tail's bytes: the same idea eight
/// times faster, for the executable (tens of megabytes).
fn fnv_words(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let words = bytes.chunks_exact(8);
    let tail = words.remainder();
    for w in words {
        h ^= u64::from_le_bytes(w.try_into().expect("8 bytes"));
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h ^ fnv(tail)
}

/// The fingerprint of the points' games: the checked game (every role,
/// rule and resolved setting) and the lineup of each, in order.
pub fn fingerprint(jobs: &[Job]) -> String {
    let mut text = String::new();
    for j in jobs {
        text.push_str(&format!("{:?}\n{}\n", j.game, j.lineup.label()));
    }
    format!("{:016x}", fnv(text.as_bytes()))
}

/// Where a command's counts go: nowhere, or a counts file that is also its
/// checkpoint. Made before any game is played.
pub struct Store {
    file: Option<(PathBuf, CountsFile)>,
    every: Duration,
    last: Instant,
    from: Option<(u64, Counts)>,
    /// The shard's first game and its number of games.
    range: (u64, u64),
    /// A checkpoint that could not be written (reported once).
    warned: bool,
    /// Why the counts file could not be written at the end, kept until
    /// [`Store::written`] so the other outputs are written first.
    failed: Option<Error>,
    /// The external agents' pools (their faults go into the file), the
    /// faults a resumed file had counted before, and the pools' faults as
    /// of the last finished block (`checkpoint`): a block in play when an
    /// interrupt drops it has faults the pools hold but the counts do not.
    pools: Vec<std::sync::Arc<mafia_protocol::Pool>>,
    faults_before: Vec<crate::output::AgentFaults>,
    faults_done: Vec<crate::output::AgentFaults>,
}

/// What a command plays, for [`Store::open`].
pub struct Run<'a> {
    pub plan: Plan,
    pub jobs: &'a [Job],
    pub pairs: &'a [(usize, usize)],
    pub seed: u64,
    pub first: u64,
    pub games: u64,
}

impl Store {
    /// Plays `first..first + games` and keeps nothing.
    pub fn none(first: u64, games: u64) -> Store {
        Store {
            file: None,
            every: Duration::MAX,
            last: Instant::now(),
            from: None,
            range: (first, games),
            warned: false,
            failed: None,
            pools: Vec::new(),
            faults_before: Vec::new(),
            faults_done: Vec::new(),
        }
    }

    /// Checks the options, and with `--resume` reads the counts file.
    pub fn open(opts: &ShardArgs, run: Run<'_>) -> Result<Store, Error> {
        let shard = match &opts.shard {
            Some(s) => Shard::parse(s).map_err(Error::Invalid)?,
            None => Shard::WHOLE,
        };
        if shard.n > run.games {
            return Err(Error::Invalid(format!(
                "--shard {shard}: {} shards of {} games leave some shards empty (give fewer shards or more games)",
                shard.n, run.games
            )));
        }
        if run.first.checked_add(run.games).is_none() {
            return Err(Error::Invalid(format!(
                "--first-game {} with --games {}: past the last game index",
                run.first, run.games
            )));
        }
        if !(opts.checkpoint_secs.is_finite() && opts.checkpoint_secs >= 0.0) {
            return Err(Error::Invalid(format!("--checkpoint-secs {}: give seconds, 0 or more", opts.checkpoint_secs)));
        }
        let (start, end) = shard.range(run.first, run.games);
        // Every pool the points play with, once.
        let mut pools: Vec<std::sync::Arc<mafia_protocol::Pool>> = Vec::new();
        for p in run.jobs.iter().flat_map(|j| &j.ext) {
            if !pools.iter().any(|q| std::sync::Arc::ptr_eq(p, q)) {
                pools.push(p.clone());
            }
        }
        let Some(path) = &opts.counts else {
            if opts.resume {
                return Err(Error::Invalid("--resume needs --counts FILE (the file the interrupted run wrote)".into()));
            }
            if opts.shard.is_some() {
                return Err(Error::Invalid(format!(
                    "--shard {shard} needs --counts FILE: the shard's counts, which `mafia merge` joins"
                )));
            }
            return Ok(Store { pools, ..Store::none(start, end - start) });
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty() && !d.is_dir()) {
            return Err(Error::Invalid(format!(
                "--counts {}: folder {} does not exist",
                path.display(),
                dir.display()
            )));
        }
        let fresh = CountsFile {
            format: FORMAT.into(),
            code: code_version(),
            command_line: std::env::args().collect(),
            fingerprint: fingerprint(run.jobs),
            setups: run.jobs.iter().map(SetupRecord::of).collect(),
            seed: run.seed,
            first: run.first,
            games: run.games,
            shard,
            start,
            end,
            done: 0,
            state: State::Running,
            plan: run.plan,
            counts: Counts::new(run.jobs, run.pairs),
            faults: Vec::new(),
            checksum: String::new(),
        };
        let mut faults_before = Vec::new();
        let mut from = None;
        if path.exists() {
            if !opts.resume {
                return Err(Error::Invalid(format!(
                    "--counts {}: the file exists; add --resume to continue it (or remove it to start afresh)",
                    path.display()
                )));
            }
            let old = read(path)?;
            same_run(&fresh, &old, true).map_err(|why| {
                Error::Counts(format!("--resume: {} is not this run's counts file: {why}", path.display()))
            })?;
            if old.done > end - start || old.counts.played.len() != fresh.counts.played.len() {
                return Err(Error::Counts(format!(
                    "--resume: {} is damaged: its games do not fit its range",
                    path.display()
                )));
            }
            eprintln!(
                "resuming {} of {}: {} of {} games done ({})",
                old.what(),
                path.display(),
                old.done,
                end - start,
                match old.state {
                    State::Running | State::Interrupted => "continuing",
                    State::Complete | State::Stopped => "already finished; printing it",
                }
            );
            faults_before = old.faults;
            from = Some((old.done, old.counts));
        }
        let every = Duration::from_secs_f64(opts.checkpoint_secs.min(1e9));
        Ok(Store {
            file: Some((path.clone(), fresh)),
            every,
            last: Instant::now(),
            from,
            range: (start, end - start),
            warned: false,
            failed: None,
            pools,
            faults_before,
            faults_done: Vec::new(),
        })
    }

    /// The external agents' faults in the games counted: a resumed file's,
    /// plus this process's pools' up to the last finished block (what the
    /// file gets and what the run reports).
    pub fn faults(&self) -> Vec<crate::output::AgentFaults> {
        let mut all = self.faults_before.clone();
        crate::output::add_faults(&mut all, &self.faults_done);
        all
    }

    /// The shard's first game index and its number of games.
    pub fn range(&self) -> (u64, u64) {
        self.range
    }

    /// Where to start: the resumed file's games done and counts.
    pub fn take_from(&mut self) -> Option<(u64, Counts)> {
        self.from.take()
    }

    /// After a finished block (no game is in play): notes the pools'
    /// faults, which now belong to counted games, and writes a checkpoint
    /// if it is time.
    pub fn checkpoint(&mut self, done: u64, counts: &Counts) {
        if !self.pools.is_empty() {
            self.faults_done = crate::output::faults_of(&self.pools);
        }
        if self.file.is_none() || self.last.elapsed() < self.every {
            return;
        }
        if let Err(e) = self.write(done, counts, State::Running)
            && !self.warned
        {
            eprintln!("warning: checkpoint not written ({e}); playing on");
            self.warned = true;
        }
        self.last = Instant::now();
    }

    /// At the end: writes the file with how the run ended. A failure is
    /// kept for [`Store::written`]: losing the counts file must not lose
    /// the tables the command still prints and writes (issue 35).
    pub fn close(&mut self, done: u64, counts: &Counts, finish: Finish) {
        let state = match finish {
            Finish::Complete => State::Complete,
            Finish::Stopped => State::Stopped,
            Finish::Interrupted => State::Interrupted,
        };
        if let Some((path, _)) = &self.file {
            let path = path.clone();
            match self.write(done, counts, state) {
                Ok(()) => eprintln!("wrote {}", path.display()),
                Err(e) => self.failed = Some(Error::Io(e)),
            }
        }
    }

    /// Whether the counts file was written at [`Store::close`].
    pub fn written(&mut self) -> Result<(), Error> {
        self.failed.take().map_or(Ok(()), Err)
    }

    fn write(&mut self, done: u64, counts: &Counts, state: State) -> Result<(), String> {
        let faults = self.faults();
        let Some((path, file)) = self.file.as_mut() else { return Ok(()) };
        file.faults = faults;
        file.done = done;
        file.state = state;
        file.counts = counts.clone();
        let text = encode(file)?;
        crate::output::write_atomic(path, text.as_bytes())
    }

    /// What to say when the run was interrupted.
    pub fn interrupted_message(&self) -> String {
        match &self.file {
            Some((path, _)) => format!(
                "interrupted: the tables above have the games finished so far; {} holds them — run the same command with --resume to continue",
                path.display()
            ),
            None => "interrupted: the tables above have the games finished before the interrupt (give --counts FILE to be able to resume)".into(),
        }
    }
}

/// Reads a counts file, and checks it (see `check.rs`): its checksum, then
/// its consistency. A file that fails either is refused by name and reason.
pub fn read(path: &Path) -> Result<CountsFile, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::Io(format!("{}: cannot read: {e}", path.display())))?;
    let tag: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| Error::Counts(format!("{}: not a counts file (not JSON: {e})", path.display())))?;
    match tag.get("format").and_then(|f| f.as_str()) {
        Some(FORMAT) => {}
        Some(FORMAT_1) => {
            return Err(Error::Counts(format!(
                "{}: a counts file of format `{FORMAT_1}`, written before counts files checked themselves \
                 (this mafia reads `{FORMAT}`, with a checksum); play its games again with this mafia",
                path.display()
            )));
        }
        Some(other) => {
            return Err(Error::Counts(format!(
                "{}: a counts file of format `{other}`; this mafia reads `{FORMAT}`",
                path.display()
            )));
        }
        None => return Err(Error::Counts(format!("{}: not a counts file (no `format`)", path.display()))),
    }
    let mut file: CountsFile = serde_json::from_str(&text)
        .map_err(|e| Error::Counts(format!("{}: a damaged counts file: {e}", path.display())))?;
    let replay = |why: String| {
        Error::Counts(format!(
            "{}: {why}; play {} again (a new --counts file, or remove this one)",
            path.display(),
            file.what()
        ))
    };
    check::verify(&text).map_err(replay)?;
    let problems = file.problems();
    if !problems.is_empty() {
        return Err(replay(format!(
            "the counts contradict themselves (edited, or written by a faulty mafia): {}",
            check::describe(&problems)
        )));
    }
    file.checksum.clear();
    Ok(file)
}

/// Why `got` is not a part of the run `want` belongs to (`Ok` if it is).
fn same_run(want: &CountsFile, got: &CountsFile, check_shard: bool) -> Result<(), String> {
    let (a, b) = (want, got);
    if a.plan.command() != b.plan.command() {
        return Err(format!("it is of `mafia {}`, not `mafia {}`", b.plan.command(), a.plan.command()));
    }
    if a.code != b.code {
        return Err(format!("its games were played by other code: {}, not {}", b.code, a.code));
    }
    if a.seed != b.seed {
        return Err(format!("seed {}, not {}", b.seed, a.seed));
    }
    if (a.first, a.games) != (b.first, b.games) {
        return Err(format!("games {}..{}, not {}..{}", b.first, b.first + b.games, a.first, a.first + a.games));
    }
    if a.fingerprint != b.fingerprint || a.plan != b.plan {
        return Err("another setup, rules or agents (the fingerprint of its games differs)".into());
    }
    if check_shard && a.shard != b.shard {
        return Err(format!("shard {}, not {}", b.shard, a.shard));
    }
    Ok(())
}

/// The merged run: the first file's header over the whole range, and the
/// sum of the counts.
pub fn merge_files(files: &[(PathBuf, CountsFile)]) -> Result<CountsFile, Error> {
    let (p0, f0) = &files[0];
    let name = |p: &PathBuf| p.display().to_string();
    for (p, f) in files {
        same_run(f0, f, false)
            .map_err(|why| Error::Counts(format!("{} is not of the same run as {}: {why}", name(p), name(p0))))?;
        if f.shard.n != f0.shard.n {
            return Err(Error::Counts(format!(
                "{} is shard {} but {} is shard {}: merge the shards of one split",
                name(p),
                f.shard,
                name(p0),
                f0.shard
            )));
        }
        if f.counts.played.len() != f0.counts.played.len() || f.counts.pairs != f0.counts.pairs {
            return Err(Error::Counts(format!("{} is damaged: its counts do not fit its plan", name(p))));
        }
    }
    // Every shard once, each finished.
    let n = f0.shard.n;
    let mut seen: Vec<Option<usize>> = vec![None; n as usize];
    for (i, (p, f)) in files.iter().enumerate() {
        if let Some(j) = seen[f.shard.k as usize] {
            return Err(Error::Counts(format!("{} given twice: {} and {}", f.what(), name(&files[j].0), name(p))));
        }
        seen[f.shard.k as usize] = Some(i);
        let (start, end) = f.shard.range(f.first, f.games);
        if (f.start, f.end) != (start, end) {
            return Err(Error::Counts(format!(
                "{} is damaged: shard {} should hold games {start}..{end}",
                name(p),
                f.shard
            )));
        }
        match f.state {
            State::Complete => {
                if f.done != end - start {
                    return Err(Error::Counts(format!(
                        "{} is damaged: complete, but {} of {} games done",
                        name(p),
                        f.done,
                        end - start
                    )));
                }
            }
            // A stopping rule ended the run early: it is a whole run, not a shard.
            State::Stopped if n == 1 => {}
            State::Stopped => {
                return Err(Error::Counts(format!("{}: a stopping rule ended this shard early", name(p))));
            }
            State::Running | State::Interrupted => {
                return Err(Error::Counts(format!(
                    "{}: {} is unfinished ({} of {} games): run its command again with --resume",
                    name(p),
                    f.what(),
                    f.done,
                    end - start
                )));
            }
        }
    }
    let missing: Vec<String> = (0..n)
        .filter(|&k| seen[k as usize].is_none())
        .map(|k| {
            let (s, e) = Shard { k, n }.range(f0.first, f0.games);
            format!("{k}/{n} (games {s}..{e})")
        })
        .collect();
    if !missing.is_empty() {
        let shown: Vec<&str> = missing.iter().take(10).map(String::as_str).collect();
        let more = if missing.len() > 10 { format!(" and {} more", missing.len() - 10) } else { String::new() };
        return Err(Error::Counts(format!("missing {} of {n} shards: {}{more}", missing.len(), shown.join(", "))));
    }
    let mut total = f0.clone();
    total.counts = Counts { active: f0.counts.active.clone(), ..zero(&f0.counts) };
    total.faults = Vec::new();
    for (_, f) in files {
        total.counts.merge(&f.counts);
        crate::output::add_faults(&mut total.faults, &f.faults);
    }
    total.shard = Shard::WHOLE;
    total.start = f0.first;
    total.end = f0.first + f0.games;
    total.done = f0.games;
    total.state = if n == 1 { f0.state } else { State::Complete };
    if n == 1 {
        total.done = f0.done;
    }
    Ok(total)
}

/// Counts of the same shape with every counter 0.
fn zero(c: &Counts) -> Counts {
    let mut z = c.clone();
    for t in &mut z.tallies {
        *t = crate::stats::Tally::new((t.days.len() - 1) as u16);
    }
    z.played.iter_mut().for_each(|x| *x = 0);
    z.forfeits.iter_mut().for_each(|x| *x = 0);
    z.replaced.iter_mut().for_each(|x| *x = 0);
    z.pair_games.iter_mut().for_each(|x| *x = 0);
    z.a_only.iter_mut().for_each(|x| *x = [0; Camp::COUNT]);
    z.b_only.iter_mut().for_each(|x| *x = [0; Camp::COUNT]);
    z
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_tile_the_range() {
        for (first, games, n) in [(0u64, 10u64, 3u64), (5, 1_000_003, 7), (u64::MAX - 100, 100, 100), (0, 4, 4)] {
            let mut at = first;
            for k in 0..n {
                let (s, e) = Shard { k, n }.range(first, games);
                assert_eq!(s, at, "shard {k}/{n} starts where the last ended");
                assert!(e >= s);
                at = e;
            }
            assert_eq!(at, first + games);
        }
    }

    #[test]
    fn shard_parse_checks_its_bounds() {
        assert_eq!(Shard::parse("3/4"), Ok(Shard { k: 3, n: 4 }));
        for bad in ["4/4", "0/0", "x/2", "1", "-1/3", "1/2000000"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
