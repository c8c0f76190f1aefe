//! `mafia experiment FILE`: a base setup and a grid of variations, every
//! point played on the same seeds (common random numbers), one table row
//! per point, and each point's paired difference against its reference
//! point. The file's format is `input/experiment_file.rs`'s; `run --sweep`,
//! `compare` and `balance` build their points with the same grid
//! ([`crate::grid`]).

use crate::args::{GameArgs, make_points};
use crate::error::Error;
use crate::exec::{Budget, Counts, Exec, Finish, Job, Points, point_camps, precision_rule};
use crate::grid::{Axis, AxisKind};
use crate::input::load_experiment;
use crate::output::{Cols, Printed, Variant};
use crate::shard::{ExperimentPlan, Layout};
use crate::stats::check_precision;
use clap::Args;
use mafia_engine::{Camp, Role};
use polars::prelude::*;
use std::path::PathBuf;

/// The pairs of an experiment: each point against its reference point.
pub fn reference_pairs(points: &Points, reference: Option<&(String, String)>) -> Result<Vec<(usize, usize)>, Error> {
    let mut pairs = Vec::new();
    let Some((axis, value)) = reference else {
        return Ok(pairs);
    };
    let a = points
        .axes
        .iter()
        .position(|x| &x.name == axis)
        .ok_or_else(|| Error::Invalid(format!("[reference] {axis}: not an axis of the grid")))?;
    if !points.axes[a].values.contains(value) {
        return Err(Error::Invalid(format!("[reference] {axis} = {value}: not one of the axis' values")));
    }
    for (p, pt) in points.points.iter().enumerate() {
        if &pt.values[a] == value {
            continue;
        }
        let r = points.points.iter().position(|o| {
            &o.values[a] == value && o.values.iter().enumerate().all(|(x, v)| x == a || *v == pt.values[x])
        });
        if let Some(r) = r {
            pairs.push((p, r));
        }
    }
    Ok(pairs)
}

/// Plays the points on the same seeds; returns the counts and how it ended.
pub fn play_points(points: &Points, pairs: Vec<(usize, usize)>, b: &Budget) -> Result<(Counts, Finish), Error> {
    let mut store = crate::shard::Store::none(b.first, b.games);
    play_points_stored(points, pairs, b, &mut store)
}

/// [`play_points`] on the range of `store` (a shard, or the whole run),
/// from its checkpoint if it resumes one, writing checkpoints to it.
pub fn play_points_stored(
    points: &Points,
    pairs: Vec<(usize, usize)>,
    b: &Budget,
    store: &mut crate::shard::Store,
) -> Result<(Counts, Finish), Error> {
    let jobs: Vec<Job> = points.points.iter().map(|p| p.job.clone()).collect();
    let labels = points.points.iter().map(|p| p.label(&points.axes)).collect();
    let (first, games) = store.range();
    let e = Exec {
        points: &jobs,
        labels,
        pairs,
        seed: b.seed,
        first,
        games,
        threads: b.threads,
        progress: b.progress,
        checkpoints: b.precision.is_some(),
        check: None,
    };
    let camps: Vec<Vec<Camp>> = jobs.iter().map(point_camps).collect();
    let mut rule = precision_rule(b.precision.unwrap_or(1.0), camps);
    let from = store.take_from();
    let (counts, finish, done) =
        crate::exec::execute_from(&e, from, &mut rule, &mut |d, c| store.checkpoint(d, c)).map_err(Error::Threads)?;
    store.close(done, &counts, finish);
    Ok((counts, finish))
}

/// The experiment table: the axes, then the run summary's columns, then
/// each camp's paired difference against the reference point, and whether
/// the point finished.
pub fn experiment_frame(points: &Layout, counts: &Counts, finish: Finish) -> PolarsResult<DataFrame> {
    let n = points.points.len();
    let mut c = Cols::default();
    for (a, axis) in points.axes.iter().enumerate() {
        c.str(&axis.name, points.points.iter().map(|p| p.values[a].clone()).collect());
    }
    let rows: Vec<(Variant, &crate::stats::Tally)> =
        points.points.iter().zip(&counts.tallies).map(|(p, t)| (p.variant.clone(), t)).collect();
    let mut summary = crate::output::summary_frame(&rows)?;
    // An axis named like a summary column (`players`) is that column.
    for a in &points.axes {
        if summary.column(&a.name).is_ok() {
            summary = summary.drop(&a.name)?;
        }
    }
    let mut df = c.frame()?;
    if df.width() == 0 {
        df = summary;
    } else {
        df = df.hstack(summary.columns())?;
    }
    // The paired differences: null for the reference points themselves.
    let mut extra = Cols::default();
    let reference: Vec<Option<usize>> = (0..n).map(|p| counts.pairs.iter().position(|&(a, _)| a == p)).collect();
    extra.0.push(Column::new(
        "reference".into(),
        reference
            .iter()
            .map(|q| q.map(|q| points.points[counts.pairs[q].1].label(&points.axes)))
            .collect::<Vec<Option<String>>>(),
    ));
    let all_camps: Vec<Camp> =
        Camp::ALL.into_iter().filter(|&camp| points.points.iter().any(|p| p.camps.contains(&camp))).collect();
    for camp in all_camps {
        let d: Vec<Option<crate::stats::Diff>> = reference.iter().map(|q| q.map(|q| counts.diff(q, camp))).collect();
        let name = camp.name();
        extra
            .0
            .push(Column::new(format!("{name}_diff").into(), d.iter().map(|d| d.map(|d| d.mean)).collect::<Vec<_>>()));
        extra
            .0
            .push(Column::new(format!("{name}_diff_lo").into(), d.iter().map(|d| d.map(|d| d.lo)).collect::<Vec<_>>()));
        extra
            .0
            .push(Column::new(format!("{name}_diff_hi").into(), d.iter().map(|d| d.map(|d| d.hi)).collect::<Vec<_>>()));
    }
    // A role's impact: its camp's win rate with the role minus without it
    // (the point that replaces it by a plain player), paired.
    if let Some(ra) = points.axes.iter().position(|a| a.kind == AxisKind::Replace) {
        let impact: Vec<Option<crate::stats::Diff>> = (0..n)
            .map(|p| {
                let role = Role::from_name(&points.points[p].values[ra])?;
                let d = counts.diff(reference[p]?, role.camp());
                Some(crate::stats::Diff { mean: -d.mean, lo: -d.hi, hi: -d.lo, a_only: d.b_only, b_only: d.a_only })
            })
            .collect();
        extra.0.push(Column::new("impact_diff".into(), impact.iter().map(|d| d.map(|d| d.mean)).collect::<Vec<_>>()));
        extra.0.push(Column::new("impact_diff_lo".into(), impact.iter().map(|d| d.map(|d| d.lo)).collect::<Vec<_>>()));
        extra.0.push(Column::new("impact_diff_hi".into(), impact.iter().map(|d| d.map(|d| d.hi)).collect::<Vec<_>>()));
    }
    extra.0.push(Column::new(
        "paired_games".into(),
        reference.iter().map(|q| q.map(|q| counts.pair_games[q])).collect::<Vec<Option<u64>>>(),
    ));
    let finished: Vec<bool> = (0..n).map(|p| finish != Finish::Interrupted || !counts.active[p]).collect();
    extra.0.push(Column::new("finished".into(), finished));
    df.hstack(extra.frame()?.columns())
}

/// The columns people read first: the axes, games, each camp's rate with
/// its bounds, the differences and the length.
pub fn compact(df: &DataFrame, axes: &[Axis]) -> PolarsResult<DataFrame> {
    let mut names: Vec<String> = axes.iter().map(|a| a.name.clone()).collect();
    if names.is_empty() {
        names.extend(["setup".to_string(), "rules".to_string(), "agents".to_string()]);
    }
    names.push("games".into());
    for camp in Camp::ALL {
        let n = camp.name();
        if df.column(&format!("{n}_diff")).is_err() {
            continue; // no point deals this camp
        }
        for s in ["rate", "lo", "hi", "diff", "diff_lo", "diff_hi"] {
            let col = format!("{n}_{s}");
            let all_null = df.column(&col).map(|c| c.null_count() == c.len()).unwrap_or(true);
            if !all_null {
                names.push(col);
            }
        }
    }
    if df.column("impact_diff").is_ok() {
        names.extend(["impact_diff".into(), "impact_diff_lo".into(), "impact_diff_hi".into()]);
    }
    names.push("days_mean".into());
    if df.column("finished").map(|c| c.bool().map(|b| !b.all()).unwrap_or(false)).unwrap_or(false) {
        names.push("finished".into());
    }
    df.select(names)
}

// ---------------------------------------------------------------------------
// mafia experiment

#[derive(Args, Debug)]
pub struct ExperimentArgs {
    /// The experiment file (.toml): a base setup and a grid (see the book, docs/src/guide/experiments.md).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Games per point (the most, with a precision); default: the file's, else 100000.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: Option<u64>,
    /// Master seed; default: the file's, else 1.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Stop each point when its 95% intervals are at most ±this (checked at fixed checkpoints).
    #[arg(long, value_name = "H")]
    pub precision: Option<f64>,
    /// Ignore the file's precision: every point plays every game (what a sharded run needs).
    #[arg(long, conflicts_with = "precision")]
    pub no_precision: bool,
    /// Index of the first game.
    #[arg(long, value_name = "I", default_value_t = 0)]
    pub first_game: u64,
    /// Worker threads (0 = every core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Write the table (.parquet or .csv); the roles table goes beside it.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// No progress bars.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub ext: crate::args::ExtArgs,
    #[command(flatten)]
    pub store: crate::shard::ShardArgs,
}

/// Default games per point of an experiment.
pub const DEFAULT_GAMES: u64 = 100_000;

pub fn cmd_experiment(a: ExperimentArgs) -> Result<(), Error> {
    let _claim = crate::args::claim_out(&a.out, a.store.counts.as_deref())?;
    let x = load_experiment(&a.file)?;
    let precision = match a.precision.or(x.precision).filter(|_| !a.no_precision) {
        Some(h) => Some(check_precision(h).map_err(Error::Invalid)?),
        None => None,
    };
    if precision.is_some() {
        a.store.refuse_shard(if a.precision.is_some() {
            "--precision"
        } else {
            "the file's `precision` (--no-precision ignores it)"
        })?;
    }
    let games = a.games.or(x.games).unwrap_or(if precision.is_some() { 100_000_000 } else { DEFAULT_GAMES });
    let base = GameArgs { setup: vec![x.setup.clone()], rules: vec![], agents: x.agents.clone(), ext: a.ext.clone() };
    let points = make_points(&base, &x.setup, &x.rules, &x.axes, x.skip_invalid)?;
    for (label, why) in &points.skipped {
        crate::output::note(&format!("left out {label}: {why}"));
    }
    let pairs = reference_pairs(&points, x.reference.as_ref())?;
    let budget = Budget {
        games,
        first: a.first_game,
        seed: a.seed.or(x.seed).unwrap_or(1),
        threads: a.threads,
        precision,
        progress: !a.quiet,
    };
    let plan = ExperimentPlan {
        name: x.name.clone(),
        layout: Layout::of(&points),
        reference: x.reference.clone(),
        precision,
        games,
    };
    let jobs: Vec<Job> = points.points.iter().map(|p| p.job.clone()).collect();
    let mut store = crate::shard::Store::open(
        &a.store,
        crate::shard::Run {
            plan: crate::shard::Plan::Experiment(plan.clone()),
            jobs: &jobs,
            pairs: &pairs,
            seed: budget.seed,
            first: budget.first,
            games,
        },
    )?;
    crate::exec::install_interrupt_handler();
    let (counts, finish) = play_points_stored(&points, pairs, &budget, &mut store)?;
    let faults = store.faults();
    // Each output is tried whatever the others did (issue 35).
    let rendered = render_experiment(&plan, budget.seed, &counts, &faults, finish, &a.out);
    let end = if finish == Finish::Interrupted {
        Err(Error::Interrupted(store.interrupted_message()))
    } else {
        crate::output::check_faults(&faults, &a.ext.limits()?)
    };
    Error::all([store.written(), rendered, end])
}

/// An experiment's output from its counts (also `merge`'s): the table
/// printed with the games played, and the tables written to `out`.
pub fn render_experiment(
    plan: &ExperimentPlan,
    seed: u64,
    counts: &Counts,
    faults: &[crate::output::AgentFaults],
    finish: Finish,
    out: &Option<PathBuf>,
) -> Result<(), Error> {
    let df = experiment_frame(&plan.layout, counts, finish)?;
    crate::output::keep("experiment", &df);
    let shown = compact(&df, &plan.layout.axes)?;
    let title = format!(
        "Experiment {}: {} points on the same games (seed {}); rates with Wilson 95% bounds, diff = point − {} (paired 95%)",
        plan.name,
        plan.layout.points.len(),
        seed,
        plan.reference.as_ref().map_or("(no [reference])".to_string(), |(k, v)| format!("{k}={v}"))
    );
    let mut stdout = crate::output::stdout();
    Printed::new(&title, shown, "").print(&mut stdout)?;
    use std::io::Write;
    writeln!(stdout, "{}", played_line(counts, finish, plan.precision, plan.games))?;
    if let Some(note) = shared_games_note(counts) {
        writeln!(stdout, "{note}")?;
    }
    drop(stdout);
    let mut tables = vec![Printed::new("", df, "")];
    if out.is_some() || crate::output::capturing() {
        let rows: Vec<(Variant, &crate::stats::Tally)> =
            plan.layout.points.iter().zip(&counts.tallies).map(|(p, t)| (p.variant.clone(), t)).collect();
        let roles = crate::output::build_tables(&rows)?.roles;
        crate::output::keep("roles", &roles);
        if out.is_some() {
            tables.push(Printed::new("", roles, "roles"));
        }
    }
    let written = crate::output::write_out(&mut tables, out);
    Error::all([
        written,
        crate::output::report_faults(faults, counts.forfeits.iter().sum(), out.as_deref()),
        missed_precision(counts, finish, plan.precision, plan.games),
    ])
}

/// The end of the commands that play on the executor: writes the tables
/// (`--out`, the others beside it), then turns an interrupt into exit 2
/// after everything finished was printed and written.
pub fn write_and_finish(tables: &mut [Printed], out: &Option<PathBuf>, finish: Finish) -> Result<(), Error> {
    crate::output::write_out(tables, out)?;
    if finish == Finish::Interrupted {
        return Err(Error::Interrupted("interrupted: the table above has the games finished before Ctrl-C".into()));
    }
    Ok(())
}

/// The note for differences paired over fewer games than their points'
/// rates (issue 35): under a precision rule a point stops when its own
/// intervals are narrow enough, so a point and its reference can stop at
/// different game counts. A difference is paired over the games both
/// played (`paired_games`), and is then not the difference of the printed
/// rates. `None` when every difference is over all its points' games.
pub fn shared_games_note(c: &Counts) -> Option<String> {
    let fewer = (0..c.pairs.len())
        .filter(|&q| {
            let (a, b) = c.pairs[q];
            c.pair_games[q] < c.tallies[a].games || c.pair_games[q] < c.tallies[b].games
        })
        .count();
    (fewer > 0).then(|| {
        format!(
            "note: {fewer} difference{} paired over fewer games than {} rates: over the games both points played (column paired_games), so not the difference of the printed rates",
            if fewer == 1 { " is" } else { "s are" },
            if fewer == 1 { "its" } else { "their" }
        )
    })
}

/// [`Error::Missed`] when a precision was asked for and the cap of games
/// came first (not when the run was interrupted: that is said otherwise).
pub fn missed_precision(c: &Counts, finish: Finish, precision: Option<f64>, games: u64) -> Result<(), Error> {
    match (finish, precision) {
        (Finish::Interrupted, _) | (_, None) => Ok(()),
        (_, Some(_)) if c.active.iter().all(|a| !a) => Ok(()),
        (_, Some(h)) => Err(Error::Missed(format!(
            "precision ±{h}: not reached within the cap of {games} games (the outputs hold the games played); \
             give more games, or a wider precision"
        ))),
    }
}

/// How many games were played and why the run stopped.
pub fn played_line(c: &Counts, finish: Finish, precision: Option<f64>, games: u64) -> String {
    let played: u64 = c.played.iter().sum();
    let (lo, hi) = (c.played.iter().min().copied().unwrap_or(0), c.most_played());
    let per = if lo == hi { format!("{lo} per point") } else { format!("{lo} to {hi} per point") };
    let why = match (finish, precision) {
        (Finish::Interrupted, _) => "interrupted".to_string(),
        (_, Some(h)) if c.active.iter().all(|a| !a) => format!("every interval within ±{h}"),
        (Finish::Stopped, None) => "the sequential test decided".to_string(),
        (_, Some(h)) => format!("the cap of {games} games reached before every interval was within ±{h}"),
        (_, None) => "every game asked for".to_string(),
    };
    format!("played {played} games ({per}): {why}")
}
