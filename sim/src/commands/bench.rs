//! `mafia bench`: games per second of the bare game loop on one thread and
//! of the runner on one thread and on all; `--vs` the cost ratio of two
//! lineups.

use crate::args::{GameArgs, check_threads, one_job};
use crate::error::Error;
use crate::exec::{Job, thread_count};
use clap::Args;
use mafia_agents::{Worker, master_key};
use mafia_engine::NoLog;
use std::io::Write;
use std::time::Instant;

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

pub fn cmd_bench(a: BenchArgs) -> Result<(), Error> {
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
