//! `mafia run` (the default command): every variant (setup, rules, agents;
//! `--sweep` makes more) plays the same seeded games; the summary, roles
//! and days tables are printed and written. On the executor by default
//! (checkpoints, shards, `--precision`, `--check`), or on the streaming
//! runner with `--games-out` (one row per game, in game order).

use crate::args::{GameArgs, check_out_path, check_threads, jobs};
use crate::error::Error;
use crate::exec::{Job, RunSpec, run};
use crate::output::{Output, TABLE_PARTS, Variant, build_tables, print_tables, write_tables};
use crate::shard::RunPlan;
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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

pub fn cmd_run(a: RunArgs) -> Result<(), Error> {
    for p in a.out.iter().chain(a.games_out.iter()) {
        check_out_path(p)?;
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
    // Every output claimed before the first game (issue 35): no two on one
    // file, none that another live run is writing.
    let _claim = crate::output::claim(&[
        a.out.as_deref().map(|p| Output::tables("--out", p, TABLE_PARTS)),
        a.games_out.as_deref().map(|p| Output::file("--games-out", p)),
        a.store.counts.as_deref().map(|p| Output::file("--counts", p)),
    ])?;
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
        store.close(done, &counts, finish);
        let faults = store.faults();
        // Each output is tried whatever the others did (issue 35): a counts
        // file on a full disk does not lose the tables.
        let rendered = render_run(&plan, &counts, &faults, a.out.as_deref());
        let checked = match check {
            Some(found) => report_violations(&found.into_inner().unwrap_or_else(|p| p.into_inner()), &jobs, &a),
            None => Ok(()),
        };
        let end = if finish == crate::exec::Finish::Interrupted {
            Err(Error::Interrupted(store.interrupted_message()))
        } else {
            crate::output::check_faults(&faults, &a.game.ext.limits()?)
        };
        return Error::all([store.written(), rendered, checked, end]);
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
    crate::exec::install_interrupt_handler();
    let output = run(&spec).map_err(|e| Error::Io(format!("games-out: {e}")))?;
    if output.interrupted {
        let played: u64 = output.tallies.iter().map(|t| t.games).sum::<u64>() + output.forfeits.iter().sum::<u64>();
        let tables = a.out.as_ref().map_or(String::new(), |o| format!(" and --out {}", o.display()));
        return Err(Error::Interrupted(format!(
            "interrupted after {played} games: nothing was written (--games-out {}{tables} are written by a whole run \
             only; its temporary file is removed). Run the command again; to keep a long run's progress, play it \
             without --games-out and with --counts FILE, which --resume goes on from",
            games_out.display()
        )));
    }
    let k = output.tallies.len();
    let counts = crate::exec::Counts {
        played: output.tallies.iter().zip(&output.forfeits).map(|(t, f)| t.games + f).collect(),
        tallies: output.tallies,
        forfeits: output.forfeits,
        replaced: output.replaced,
        pairs: vec![],
        pair_games: vec![],
        a_only: vec![],
        b_only: vec![],
        active: vec![true; k],
    };
    let faults = crate::output::faults_of(&pools);
    let rendered = render_run(&plan, &counts, &faults, a.out.as_deref());
    let games_written = match output.games_out_error {
        None => {
            eprintln!("wrote {}", games_out.display());
            Ok(())
        }
        Some(e) => Err(Error::Io(format!("--games-out {}: {e} (the tables above are complete)", games_out.display()))),
    };
    Error::all([games_written, rendered, crate::output::check_faults(&faults, &a.game.ext.limits()?)])
}

/// `run --check`: the games checked and what the checkers refused. A
/// refusal is a bug in the engine or the checker, not bad input: the
/// report is an [`Error::Violations`] (exit code 1), after the tables (of
/// the games played up to the block that found it) are printed and written.
fn report_violations(v: &crate::exec::Violations, jobs: &[Job], a: &RunArgs) -> Result<(), Error> {
    let mut out = crate::output::stdout();
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
    if !faults.is_empty() {
        // External agents played: their fault counts per row (issue 35).
        crate::output::add_ext_columns(&mut tables, &counts.forfeits, &counts.replaced)
            .map_err(|e| Error::Table("tables", e))?;
    }
    crate::output::keep("summary", &tables.summary);
    crate::output::keep("roles", &tables.roles);
    crate::output::keep("days", &tables.days);
    // Print first: a failing write below must not lose the results.
    let mut stdout = crate::output::stdout();
    print_tables(&tables, &mut stdout)?;
    let mut missed = Ok(());
    if let Some(h) = plan.precision {
        let played: Vec<String> = tallies.iter().map(|t| t.games.to_string()).collect();
        let met = tallies
            .iter()
            .zip(&plan.variants)
            .all(|(t, p)| p.camps.iter().all(|&c| crate::stats::wilson_half(t.wins[c as usize], t.games) <= h));
        if !met {
            missed = Err(Error::Missed(format!(
                "--precision {h}: not reached within --games {} (the outputs hold the games played); \
                 give more --games, or a wider precision",
                plan.games
            )));
        }
        writeln!(
            stdout,
            "played {} games per variant: {}",
            played.join(", "),
            if met {
                format!("every interval within ±{h}")
            } else {
                format!("the cap of {} games reached first", plan.games)
            }
        )?;
    }
    drop(stdout);
    let written = match out {
        Some(p) => write_tables(&mut tables, p).map_err(Error::Io).map(|paths| {
            for w in paths {
                eprintln!("wrote {}", w.display());
            }
        }),
        None => Ok(()),
    };
    Error::all([written, crate::output::report_faults(faults, counts.forfeits.iter().sum(), out), missed])
}
