//! `mafia odds STATE.toml`: win odds per camp from a mid-game state, by
//! Monte Carlo. The file describes a position ([`mafia_engine::Position`]);
//! every game plays on from it with the chosen agents ([`Worker::play_from`]),
//! the roles it leaves unknown dealt anew per game from the game's deal
//! stream, uniformly among the deals that fit what is known. Games run in
//! fixed chunks on a rayon pool and merge by addition ([`play_range`]), so
//! the result is the same on any thread count. With nothing known at day 1
//! every game is exactly the game `mafia run` plays with the same seed.
//!
//! The state file's format is `input/position_file.rs`'s.

use crate::args::{apply_rules, check_threads};
use crate::error::Error;
use crate::exec::CHUNK;
use crate::input::load_position;
use crate::output::{Cols, Printed, rate_cols, write_frames};
use clap::Args;
use indicatif::ProgressBar;
use mafia_agents::{Lineup, Worker, master_key};
use mafia_engine::{Camp, NoLog, Phase, Role, Start};
use polars::prelude::DataFrame;
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;

/// Win odds per camp from a mid-game state file, by Monte Carlo.
#[derive(Args, Debug)]
pub struct OddsArgs {
    /// The state file (.toml): setup, phase, seats, carry, checks, what was said (see scenarios/odds/).
    #[arg(value_name = "STATE")]
    pub state: PathBuf,
    /// Games to play on from the state.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Stop when every camp's 95% interval is at most ±this (checked at fixed checkpoints; --games is then the most).
    #[arg(long, value_name = "H")]
    pub precision: Option<f64>,
    /// Master seed; the same seed gives the same output on any thread count.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0 = every core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Strategies, as for `mafia run` (`STRATEGY`, `camp=…`, `role=…`, `seatN=…`).
    #[arg(long, value_name = "SPEC")]
    pub agents: Option<String>,
    /// A rule setting, `key=value` (repeatable), applied after the file's [rules].
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    pub rules: Vec<String>,
    /// Write the table (.parquet or .csv).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

// ---------------------------------------------------------------------------
// Playing

/// Counts of games played on from a position; merged by addition.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Odds {
    /// Games played on.
    pub games: u64,
    /// Wins by camp (`Camp as usize`).
    pub wins: [u64; Camp::COUNT],
    /// Games that ended in a draw.
    pub draws: u64,
    /// Days from the position's to the last one reached, summed over games.
    pub days_left: u64,
    /// Games for which no deal fitting the position came up (not counted above).
    pub unsampled: u64,
}

impl Odds {
    /// Adds another count's games (a thread's).
    pub fn merge(&mut self, o: &Odds) {
        self.games += o.games;
        self.draws += o.draws;
        self.days_left += o.days_left;
        self.unsampled += o.unsampled;
        for c in 0..Camp::COUNT {
            self.wins[c] += o.wins[c];
        }
    }
    /// The mean number of days played on (0 without games).
    pub fn mean_days_left(&self) -> f64 {
        if self.games == 0 { 0.0 } else { self.days_left as f64 / self.games as f64 }
    }
}

/// Plays game indices `first..first + games` on from `start` with `lineup`
/// (master seed `seed`) on `pool`: fixed chunks of the runner's `CHUNK` games merged by
/// addition, so the counts do not depend on the thread count. A
/// precision-stopping caller may call it again with the next range.
pub fn play_range(
    pool: &rayon::ThreadPool,
    start: &Start,
    lineup: &Lineup,
    seed: u64,
    first: u64,
    games: u64,
    pb: &ProgressBar,
) -> Odds {
    let key = master_key(seed);
    let from = match start.position().phase {
        Phase::Day(d) | Phase::Night(d) => d,
    };
    let chunks = games.div_ceil(CHUNK);
    let parts: Vec<Odds> = pool.install(|| {
        (0..chunks)
            .into_par_iter()
            .map_init(
                || Worker::new(lineup.clone(), key),
                |w, c| {
                    let lo = first + c * CHUNK;
                    let hi = (lo + CHUNK).min(first + games);
                    let mut o = Odds::default();
                    for i in lo..hi {
                        let Some(out) = w.play_from(start, i, &mut NoLog) else {
                            o.unsampled += 1;
                            continue;
                        };
                        o.games += 1;
                        match out.winner {
                            Some(c) => o.wins[c as usize] += 1,
                            None => o.draws += 1,
                        }
                        o.days_left += out.days.saturating_sub(from) as u64;
                    }
                    pb.inc(hi - lo);
                    o
                },
            )
            .collect()
    });
    let mut total = Odds::default();
    for p in &parts {
        total.merge(p);
    }
    total
}

/// The table: one row per camp the setup deals, then the draws: games,
/// wins, the rate with its Wilson 95% interval, and the mean days left.
pub fn odds_frame(start: &Start, o: &Odds) -> polars::prelude::PolarsResult<DataFrame> {
    let camps: Vec<Camp> = crate::stats::camps_dealt(start.game().roles_present());
    let mut names: Vec<String> = camps.iter().map(|c| c.name().to_string()).collect();
    names.push("draw".into());
    let mut wins: Vec<u64> = camps.iter().map(|&c| o.wins[c as usize]).collect();
    wins.push(o.draws);
    let k = names.len();
    let mut c = Cols::default();
    c.str("camp", names);
    c.u64("games", vec![o.games; k]);
    c.u64("wins", wins.clone());
    rate_cols(&mut c, "", wins.iter().map(|&w| (w, o.games)));
    c.f64("mean_days_left", vec![o.mean_days_left(); k]);
    c.frame()
}

fn phase_text(p: Phase) -> String {
    match p {
        Phase::Day(d) => format!("day {d}"),
        Phase::Night(d) => format!("night {d}"),
    }
}

/// What the output says about the roles: which are fixed, which are dealt per game.
pub fn knowledge_text(start: &Start) -> String {
    let pos = start.position();
    let mut s = String::new();
    if let Some(v) = pos.view {
        let role = start.fixed()[v].map_or("?", |r| r.name());
        s.push_str(&format!("view: seat {} ({role}); only what it knows is fixed\n", v.number()));
    }
    let sampled = start.sampled();
    if sampled.is_empty() {
        s.push_str("every role is fixed\n");
        return s;
    }
    let seats: Vec<String> = sampled.iter().map(|x| (x.number()).to_string()).collect();
    let mut counts: Vec<(Role, usize)> = Vec::new();
    for &r in start.sampled_roles() {
        match counts.iter_mut().find(|(x, _)| *x == r) {
            Some(c) => c.1 += 1,
            None => counts.push((r, 1)),
        }
    }
    let roles: Vec<String> = counts.iter().map(|(r, c)| format!("{r}={c}")).collect();
    s.push_str(&format!(
        "sampled per game: seats {} get {}{}\n",
        seats.join(", "),
        roles.join(" "),
        if start.constrained() { ", consistent with the check results" } else { ", uniformly" }
    ));
    s
}

/// `mafia odds`.
pub fn cmd_odds(a: OddsArgs) -> Result<(), Error> {
    let _claim = crate::args::claim_out(&a.out, None)?;
    check_threads(a.threads)?;
    // A library call's state file held in memory (the studio's) is read as
    // its file would be.
    let name = a.state.display().to_string();
    let mut file = match crate::library::file_text(&name) {
        Some(text) => crate::input::parse_position(&name, &text)?,
        None => load_position(&a.state)?,
    };
    apply_rules(&mut file.position.setup, &a.rules)?;
    let start = file.start()?;
    // `setup = "classic"` starts from the preset's default lineup; [roles] from `forum`.
    let mut lineup = Lineup::for_preset(&file.position.setup.name);
    crate::library::plug(&mut lineup);
    if let Some(spec) = &a.agents {
        if !mafia_protocol::ext::commands(spec).is_empty() {
            return Err(Error::Agents(format!("--agents {spec}: external agents (`ext:`) cannot play here")));
        }
        lineup.apply(spec).map_err(|e| Error::Invalid(format!("--agents {spec}: {e}")))?;
        let game = start.game();
        lineup
            .check_roles(game.roles_present())
            .and_then(|_| lineup.check_seats(game.players()))
            .map_err(|e| Error::Invalid(format!("--agents {spec}: {e}")))?;
    }
    let pool = crate::exec::paired::pool(a.threads)?;
    let pb = crate::exec::paired::progress(a.games, !a.quiet);
    let precision = a.precision.map(crate::stats::check_precision).transpose().map_err(Error::Invalid)?;
    let odds = match precision {
        None => play_range(&pool, &start, &lineup, a.seed, 0, a.games, &pb),
        Some(h) => {
            // Game by checkpoint, so the same seed stops at the same game.
            let schedule = crate::stats::Schedule { max: a.games };
            let mut total = Odds::default();
            let mut done = 0;
            for end in schedule.points() {
                total.merge(&play_range(&pool, &start, &lineup, a.seed, done, end - done, &pb));
                done = end;
                let half = total.wins.iter().map(|&w| crate::stats::wilson_half(w, total.games)).fold(0.0, f64::max);
                if half <= h {
                    break;
                }
            }
            total
        }
    };
    pb.finish_and_clear();
    let pos = start.position();
    let alive = start.game().players() - pos.carry.dead.len();
    let mut out = crate::output::stdout();
    write!(out, "{}", knowledge_text(&start))?;
    if odds.unsampled > 0 {
        writeln!(
            out,
            "note: {} of {} games found no deal fitting the knowledge in {} draws and were not played",
            odds.unsampled,
            a.games,
            mafia_engine::SAMPLE_TRIES
        )?;
    }
    let title = format!(
        "Win odds from {} ({}, {alive} of {} alive, agents {}): {} games, seed {}, Wilson 95% bounds",
        pos.name,
        phase_text(pos.phase),
        start.game().players(),
        lineup.label(),
        odds.games,
        a.seed
    );
    let frame = odds_frame(&start, &odds)?;
    crate::output::keep("odds", &frame);
    let mut tables = [Printed::new(&title, frame, "")];
    tables[0].print(&mut out)?;
    let mut missed = Ok(());
    if let Some(h) = precision {
        // As `run` and `experiment` say it: a precision the cap of games
        // did not allow is never passed over in silence.
        let half = odds.wins.iter().map(|&w| crate::stats::wilson_half(w, odds.games)).fold(0.0, f64::max);
        let why = if half <= h {
            format!("every interval within ±{h}")
        } else {
            missed = Err(Error::Missed(format!(
                "--precision {h}: not reached within --games {} (the widest interval is ±{half:.4}); \
                 give more --games, or a wider precision",
                a.games
            )));
            format!(
                "the cap of {} games reached before every interval was within ±{h} (the widest is ±{half:.4})",
                a.games
            )
        };
        writeln!(out, "played {} games: {why}", odds.games)?;
    }
    out.flush()?;
    drop(out);
    if let Some(p) = &a.out {
        for w in write_frames(&mut tables, p).map_err(Error::Io)? {
            eprintln!("wrote {}", w.display());
        }
    }
    missed
}
