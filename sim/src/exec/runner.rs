//! The parallel runner: games are cut into fixed chunks, chunks run on a
//! rayon pool, and each chunk's [`Tally`] is merged by addition — so the
//! result does not depend on the thread count. Chunks are processed in
//! windows, in order, so per-game rows stream to disk in game order and
//! memory stays flat however many games are asked for.

use crate::output::{GameRow, GamesWriter, Variant};
use crate::stats::Tally;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use mafia_agents::{Lineup, Worker, master_key};
use mafia_engine::{Game, NoLog};
use mafia_protocol::Pool;
use rayon::prelude::*;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;

/// Games per chunk: large enough to amortise a worker's set-up, small
/// enough to balance two to hundreds of threads.
pub const CHUNK: u64 = 8192;
/// Chunks per window (the unit written to `--games-out` before moving on).
const WINDOW: u64 = 64;

/// One variant to simulate: a checked game, who plays it, and its label.
#[derive(Clone)]
pub struct Job {
    /// The checked setup.
    pub game: Game,
    /// Who plays each seat.
    pub lineup: Lineup,
    /// The label of its rows.
    pub variant: Variant,
    /// The pools of the external agents the lineup names (`ext:COMMAND`).
    pub ext: Vec<Arc<Pool>>,
}

/// Games per chunk with external agents (small, so the games spread over
/// every thread, each with its own agent process).
pub const EXT_CHUNK: u64 = 8;

/// A run: variants, games per variant, master seed, threads.
pub struct RunSpec {
    /// The variants, each played on the same games.
    pub jobs: Vec<Job>,
    /// Games per job, with indices `first..first + games`.
    pub games: u64,
    /// The first game index. Shards of one big run (a cluster's machines)
    /// take disjoint ranges of the same seed; their tallies add up to the
    /// whole run's, and their per-game rows concatenate to its rows.
    pub first: u64,
    /// The master seed.
    pub seed: u64,
    /// Worker threads (0: every core).
    pub threads: usize,
    /// Show a progress bar.
    pub progress: bool,
    /// Write one row per game here (`--games-out`).
    pub games_out: Option<PathBuf>,
    /// `--precision H`: a variant stops at the first checkpoint
    /// ([`crate::stats::Schedule`]) where every camp's win-rate interval
    /// is at most ±H; `games` is then the most it plays.
    pub precision: Option<f64>,
}

/// Games per chunk with a precision rule (checkpoints are multiples of it).
const PRECISION_CHUNK: u64 = 1024;

/// The thread count to use for `requested` (0 = every core).
pub fn thread_count(requested: usize) -> usize {
    if requested == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { requested }
}

fn progress_bar(total: u64, show: bool) -> ProgressBar {
    if !show || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr_with_hz(4));
    pb.set_style(
        ProgressStyle::with_template("{bar:40} {human_pos}/{human_len} games  {rate}  ETA {eta}  {msg}")
            .expect("a valid template")
            .with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0} games/s", s.per_sec());
            }),
    );
    pb
}

/// The deal of a game as text: role names by seat, comma-separated.
fn deal_text(roles: &[mafia_engine::Role]) -> String {
    let mut s = String::with_capacity(roles.len() * 9);
    for (i, r) in roles.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(r.name());
    }
    s
}

/// What a run produced: one tally per job, in job order, and — if writing
/// `--games-out` failed part-way — why. The games are still played and
/// tallied to the end, so a full disk never loses the tables.
pub struct RunOutput {
    /// Per job: what its games counted.
    pub tallies: Vec<Tally>,
    /// Per job: games an external agent forfeited (not in the tallies).
    pub forfeits: Vec<u64>,
    /// Per job: decisions of its counted games the external agents'
    /// fallbacks answered (the rows' `replaced`, summed).
    pub replaced: Vec<u64>,
    /// Why writing `--games-out` failed, if it did.
    pub games_out_error: Option<String>,
    /// Ctrl-C or SIGTERM stopped the run after a window: the tallies count
    /// the games finished, and `--games-out` was not written (its
    /// temporary file is removed).
    pub interrupted: bool,
}

/// Runs every job. `Err` only if the run could not start (threads, or the
/// `--games-out` file could not be created).
pub fn run(spec: &RunSpec) -> Result<RunOutput, String> {
    // External agents: the threads their pools ask for (a few per process).
    let ext_threads: usize = spec.jobs.iter().flat_map(|j| &j.ext).map(|p| p.threads()).max().unwrap_or(0);
    let threads = if ext_threads > 0 { ext_threads } else { thread_count(spec.threads) };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    let key = master_key(spec.seed);
    let pb = progress_bar(spec.games * spec.jobs.len() as u64, spec.progress);
    let mut writer = match &spec.games_out {
        Some(p) => {
            let variants: Vec<Variant> = spec.jobs.iter().map(|j| j.variant.clone()).collect();
            let ext = spec.jobs.iter().any(|j| !j.ext.is_empty());
            Some(GamesWriter::create(p, &variants, ext)?)
        }
        None => None,
    };
    let keep_rows = writer.is_some();
    let mut games_out_error = None;
    let mut tallies = Vec::with_capacity(spec.jobs.len());
    let mut forfeits = Vec::with_capacity(spec.jobs.len());
    let mut interrupted = false;
    let mut replaced = Vec::with_capacity(spec.jobs.len());
    for (vi, job) in spec.jobs.iter().enumerate() {
        // Chunks partition the games; tallies add up, so any chunk size
        // gives the same result.
        let ext = !job.ext.is_empty();
        let chunk = if ext {
            EXT_CHUNK
        } else if spec.precision.is_some() {
            PRECISION_CHUNK
        } else {
            CHUNK
        };
        let schedule = crate::stats::Schedule { max: spec.games };
        let camps = crate::stats::camps_dealt(job.game.roles_present());
        pb.set_message(format!("{} {} {}", job.variant.setup, job.variant.rules, job.variant.agents));
        let mut total = Tally::new(job.game.rules().day_cap);
        let mut lost = 0;
        let mut fallbacks = 0;
        // Games `done..end` of the job are played per window.
        let mut done = 0;
        while done < spec.games && !interrupted {
            let end = match spec.precision {
                Some(_) => schedule.next(done),
                None => (done + WINDOW * chunk).min(spec.games),
            };
            let (first, last) = (0, (end - done).div_ceil(chunk));
            let parts: Vec<(Tally, Vec<GameRow>, u64, u64)> = pool.install(|| {
                (first..last)
                    .into_par_iter()
                    .map_init(
                        || Worker::new(job.lineup.clone(), key),
                        |w, c| {
                            let start = spec.first + done + c * chunk;
                            let end = (start + chunk).min(spec.first + end);
                            let mut t = Tally::new(job.game.rules().day_cap);
                            let mut rows = Vec::new();
                            let mut forfeited = 0;
                            let mut fell_back = 0;
                            for i in start..end {
                                let o = w.play(&job.game, i, &mut NoLog);
                                if ext && !w.forfeited().is_empty() {
                                    forfeited += 1;
                                    pb.inc(1);
                                    continue;
                                }
                                t.add(&o, w.state.role_seats());
                                t.illegal += u64::from(w.illegal_answers());
                                fell_back += u64::from(w.replaced_answers());
                                if keep_rows {
                                    rows.push(GameRow {
                                        variant: vi as u32,
                                        seed: spec.seed,
                                        game: i,
                                        winner: o.winner,
                                        cause: o.cause,
                                        days: o.days,
                                        deal: deal_text(w.state.roles()),
                                        replaced: w.replaced_answers(),
                                    });
                                }
                            }
                            pb.inc(end - start - forfeited);
                            (t, rows, forfeited, fell_back)
                        },
                    )
                    .collect()
            });
            for (t, rows, f, r) in parts {
                total.merge(&t);
                lost += f;
                fallbacks += r;
                if let Some(w) = writer.as_mut()
                    && let Err(e) = rows.into_iter().try_for_each(|r| w.push(r))
                {
                    // Stop writing rows, keep playing and tallying.
                    games_out_error = Some(e);
                    writer = None;
                }
            }
            done = end;
            interrupted = super::interrupted();
            if let Some(h) = spec.precision {
                let half = camps
                    .iter()
                    .map(|&c| crate::stats::wilson_half(total.wins[c as usize], total.games))
                    .fold(0.0, f64::max);
                if half <= h {
                    break;
                }
            }
        }
        pb.inc(spec.games - done);
        tallies.push(total);
        forfeits.push(lost);
        replaced.push(fallbacks);
    }
    pb.finish_and_clear();
    if interrupted {
        // Dropped unfinished: the temporary file goes, the target stays as it was.
        drop(writer);
    } else if let Some(w) = writer
        && let Err(e) = w.finish()
    {
        games_out_error = Some(e);
    }
    Ok(RunOutput { tallies, forfeits, replaced, games_out_error, interrupted })
}
