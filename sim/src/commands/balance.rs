//! `mafia balance`: which configurations of a setup family come nearest a
//! target win rate (default: the town wins half the games)?
//!
//! The family is a grid (`--grid players=7..20 --grid mafia=1..6`, the keys
//! of an experiment's grid); configurations that make no game are left out.
//! Every candidate plays the same games (common random numbers), in rounds
//! between the executor's checkpoints, and is dropped as soon as it is
//! clearly not among the nearest: when even the nearest end of its Wilson
//! interval is farther from the target than the farthest end of the best
//! candidate's (successive elimination). A candidate still in the race stops
//! when its interval is at most ±`--precision`. So clear losers cost a few
//! thousand games and the games go to the close calls; the output says how
//! many each candidate used.

use crate::args::{GameArgs, make_points};
use crate::error::Error;
use crate::exec::Points;
use crate::exec::{Counts, Exec, Finish, execute};
use crate::grid::Axis;
use crate::output::{Cols, Printed};
use crate::stats::{check_precision, wilson};
use clap::Args;
use mafia_engine::Camp;
use std::io::Write;

#[derive(Args, Debug)]
pub struct BalanceArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// An axis of the family, `KEY=V1,V2,…` or `KEY=A..B` (repeatable): players, mafia, roles.ROLE, replace, rules.KEY, agents.KEY.
    #[arg(long = "grid", value_name = "KEY=VALUES", required = true)]
    pub grid: Vec<String>,
    /// The win rate to come near.
    #[arg(long, default_value_t = 0.5)]
    pub target: f64,
    /// Whose win rate.
    #[arg(long, default_value = "town")]
    pub camp: String,
    /// A candidate still in the race stops when its interval is at most ±this.
    #[arg(long, value_name = "H", default_value_t = 0.01)]
    pub precision: f64,
    /// The most games per candidate.
    #[arg(long, default_value_t = 2_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Rows to print (all are written with --out).
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    /// Judge every candidate under best-response play: before the search, each camp in turn (town, mafia,
    /// bandits) gets the forum parameters a `best-response` race finds against the others' current ones.
    #[arg(long)]
    pub best_response: bool,
    /// With --best-response: the games each camp's race may spend per candidate.
    #[arg(long, value_name = "GAMES", default_value_t = 200_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub br_games: u64,
    #[command(flatten)]
    pub pair: crate::args::PairArgs,
}

/// Where a candidate's interval lies from the target: the nearest and the
/// farthest distance within it.
pub fn distance(k: u64, n: u64, target: f64) -> (f64, f64) {
    let (lo, hi) = wilson(k, n);
    let near = if lo <= target && target <= hi { 0.0 } else { (lo - target).abs().min((hi - target).abs()) };
    (near, (lo - target).abs().max((hi - target).abs()))
}

/// Why a candidate stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Clearly farther from the target than the best candidate.
    Dropped,
    /// Among the nearest, measured to the precision asked.
    Nearest,
    /// Out of games (or interrupted) before either.
    Open,
}

/// The search: plays the candidates with successive elimination; returns
/// the counts, how it ended and each candidate's status.
pub fn search(
    points: &Points,
    camp: Camp,
    target: f64,
    precision: f64,
    b: &crate::exec::Budget,
) -> Result<(Counts, Finish, Vec<Status>), Error> {
    let jobs: Vec<crate::exec::Job> = points.points.iter().map(|p| p.job.clone()).collect();
    let labels = points.points.iter().map(|p| p.label(&points.axes)).collect();
    let e = Exec {
        points: &jobs,
        labels,
        pairs: vec![],
        seed: b.seed,
        first: b.first,
        games: b.games,
        threads: b.threads,
        progress: b.progress,
        checkpoints: true,
        check: None,
    };
    let k = jobs.len();
    let mut status = vec![Status::Open; k];
    let mut rule = |c: &mut Counts| {
        let d: Vec<(f64, f64)> =
            (0..k).map(|p| distance(c.tallies[p].wins[camp as usize], c.tallies[p].games, target)).collect();
        // The best guarantee among the candidates not dropped.
        let best = (0..k).filter(|&p| status[p] != Status::Dropped).map(|p| d[p].1).fold(f64::INFINITY, f64::min);
        for p in 0..k {
            if status[p] == Status::Dropped {
                continue;
            }
            if d[p].0 > best {
                status[p] = Status::Dropped;
                c.active[p] = false;
            } else if c.active[p] {
                let (lo, hi) = wilson(c.tallies[p].wins[camp as usize], c.tallies[p].games);
                if (hi - lo) / 2.0 <= precision {
                    status[p] = Status::Nearest;
                    c.active[p] = false;
                }
            }
        }
    };
    let (counts, finish) = execute(&e, &mut rule).map_err(Error::Threads)?;
    Ok((counts, finish, status))
}

pub fn cmd_balance(a: BalanceArgs) -> Result<(), Error> {
    let _claim = crate::args::claim_out(&a.pair.out, None)?;
    let precision = check_precision(a.precision).map_err(Error::Invalid)?;
    if !(a.target.is_finite() && (0.0..=1.0).contains(&a.target)) {
        return Err(Error::Invalid(format!("--target {}: a win rate from 0 to 1", a.target)));
    }
    let camp =
        Camp::from_name(&a.camp).ok_or_else(|| Error::Invalid(format!("--camp {}: town, mafia or bandits", a.camp)))?;
    let axes = a
        .grid
        .iter()
        .map(|g| Axis::from_flag(g).map_err(|e| Error::Invalid(format!("--grid {e}"))))
        .collect::<Result<Vec<_>, _>>()?;
    if a.game.setup.len() != 1 {
        return Err(Error::Invalid("give exactly one --setup".into()));
    }
    crate::grid::check_grid(&axes).map_err(|e| Error::Invalid(format!("--grid: {e}")))?;
    let mut points = make_points(&a.game, &a.game.setup[0], &[], &axes, true)?;
    if !points.skipped.is_empty() {
        eprintln!("note: {} configurations of the grid make no game and are left out", points.skipped.len());
    }
    let responses = if a.best_response { Some(best_responses(&mut points, &a)?) } else { None };
    let budget = crate::exec::Budget {
        games: a.games,
        first: a.pair.first_game,
        seed: a.pair.seed,
        threads: a.pair.threads,
        precision: Some(precision),
        progress: !a.pair.quiet,
    };
    crate::exec::install_interrupt_handler();
    let (counts, finish, status) = search(&points, camp, a.target, precision, &budget)?;
    let df = balance_frame(&points, &counts, &status, camp, a.target, responses.as_deref())?;
    let spent: u64 = counts.played.iter().sum();
    let nearest: Vec<String> = (0..points.points.len())
        .filter(|&p| status[p] != Status::Dropped)
        .map(|p| points.points[p].label(&points.axes))
        .collect();
    let mut out = std::io::stdout().lock();
    let shown = df.head(Some(a.top));
    let title = format!(
        "Balance: the {} configurations nearest a {} win rate of {} (of {} tried, seed {}); Wilson 95% bounds",
        shown.height(),
        camp.name(),
        a.target,
        points.points.len(),
        a.pair.seed
    );
    let mut tables = vec![Printed::new(&title, df, "")];
    Printed::new(&title, shown, "").print(&mut out)?;
    writeln!(
        out,
        "nearest (not told apart at ±{precision}): {}\nplayed {spent} games in all{}",
        nearest.join("; "),
        if finish == Finish::Interrupted { " (interrupted)" } else { "" }
    )?;
    drop(out);
    crate::commands::experiment::write_and_finish(&mut tables, &a.pair.out, finish)
}

/// Gives every point's camps, in turn, the parameters a best-response race
/// finds against the others' (each camp answers the ones before it); the
/// races play game indices from 2^40 on, apart from the search's. Returns
/// each point's settings as text.
fn best_responses(points: &mut Points, a: &BalanceArgs) -> Result<Vec<String>, Error> {
    let pool = crate::exec::paired::pool(a.pair.threads)?;
    let o = crate::commands::best_response::RaceOpts {
        block: 2_000,
        max_games: a.br_games,
        rounds: 1,
        tolerance: 0.0025,
        seed: a.pair.seed,
        first_game: 1 << 40,
        quiet: true,
    };
    let mut out = Vec::new();
    let n = points.points.len();
    for (i, p) in points.points.iter_mut().enumerate() {
        let label = p.label(&points.axes);
        if !a.pair.quiet {
            eprintln!("best response {}/{n}: {label}", i + 1);
        }
        let mut parts = Vec::new();
        for camp in crate::stats::camps_dealt(p.job.game.roles_present()) {
            let (lineup, setting) = crate::commands::best_response::best_lineup(&p.job, camp, &o, &pool)
                .map_err(|e| e.context(format!("--best-response at {label}")))?;
            p.job.lineup = lineup;
            parts.push(format!("{}: {setting}", camp.name()));
        }
        p.job.variant.agents = p.job.lineup.label();
        out.push(parts.join("; "));
    }
    Ok(out)
}

/// Every candidate, nearest first: its values, games, rate with bounds,
/// distance from the target, status and lineup.
pub fn balance_frame(
    points: &Points,
    c: &Counts,
    status: &[Status],
    camp: Camp,
    target: f64,
    responses: Option<&[String]>,
) -> polars::prelude::PolarsResult<polars::prelude::DataFrame> {
    let mut order: Vec<usize> = (0..points.points.len()).collect();
    let rate = |p: usize| c.tallies[p].wins[camp as usize] as f64 / c.tallies[p].games.max(1) as f64;
    order.sort_by(|&x, &y| {
        let (dx, dy) = ((rate(x) - target).abs(), (rate(y) - target).abs());
        (status[x] == Status::Dropped).cmp(&(status[y] == Status::Dropped)).then(dx.total_cmp(&dy)).then(x.cmp(&y))
    });
    let mut cols = Cols::default();
    for (a, axis) in points.axes.iter().enumerate() {
        cols.str(&axis.name, order.iter().map(|&p| points.points[p].values[a].clone()).collect());
    }
    if !points.axes.iter().any(|a| a.name == "players") {
        cols.u64("players", order.iter().map(|&p| points.points[p].job.game.players() as u64).collect());
    }
    cols.u64("games", order.iter().map(|&p| c.tallies[p].games).collect());
    crate::output::rate_cols(
        &mut cols,
        camp.name(),
        order.iter().map(|&p| (c.tallies[p].wins[camp as usize], c.tallies[p].games)),
    );
    cols.f64("distance", order.iter().map(|&p| (rate(p) - target).abs()).collect());
    cols.str(
        "status",
        order
            .iter()
            .map(|&p| match status[p] {
                Status::Dropped => "dropped",
                Status::Nearest => "nearest",
                Status::Open => "open",
            })
            .map(String::from)
            .collect(),
    );
    cols.str("lineup", order.iter().map(|&p| points.points[p].job.lineup.label()).collect());
    if let Some(r) = responses {
        cols.str("best_response", order.iter().map(|&p| r[p].clone()).collect());
    }
    cols.frame()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_is_zero_inside_the_interval() {
        let (near, far) = distance(500, 1000, 0.5);
        assert_eq!(near, 0.0);
        assert!(far > 0.02 && far < 0.04);
        let (near, far) = distance(100, 1000, 0.5);
        assert!(near > 0.35 && far > near);
    }
}
