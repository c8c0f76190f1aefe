//! `mafia compare`: two variants of one base, A and B, on the same seeds;
//! each camp's win-rate difference with its paired 95% interval, the
//! variance it saves against independent runs, and optionally a
//! sequential test (SPRT) that stops as soon as the question "is the
//! difference d1 rather than d0?" is answered at the stated error rates.
//!
//! A variant is a list of `KEY=VALUE` changes with the keys of an
//! experiment's grid (`rules.no_kill_limit=3`, `mafia=2`, `replace=doctor`,
//! `agents.mafia=mafia:skip=0.3`, …) plus `setup=NAME|FILE`. Game `i` of A
//! and of B use the same streams, so where the variants differ only in a
//! rule that does not touch the deal, the deals and every seat's draws are
//! identical game by game.

use crate::args::{GameArgs, make_points};
use crate::commands::experiment::played_line;
use crate::error::Error;
use crate::exec::{Budget, Point, Points, point_camps, precision_rule};
use crate::exec::{Counts, Exec, Finish};
use crate::grid::{Axis, AxisKind};
use crate::output::{Cols, Printed};
use crate::shard::ComparePlan;
use crate::stats::{Sprt, Verdict, check_precision, diff_half};
use clap::Args;
use mafia_engine::Camp;
use std::io::Write;

#[derive(Args, Debug)]
pub struct CompareArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// A change that makes variant A, `KEY=VALUE` (repeatable): rules.KEY, roles.ROLE, replace, mafia, players, agents, agents.KEY, setup.
    #[arg(long = "a", value_name = "KEY=VALUE")]
    pub a: Vec<String>,
    /// A change that makes variant B (repeatable); a key B leaves out keeps the base's value.
    #[arg(long = "b", value_name = "KEY=VALUE")]
    pub b: Vec<String>,
    /// Games per variant (the most, with --precision or --sprt).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: Option<u64>,
    /// Stop when every interval (both rates, each difference) is at most ±this.
    #[arg(long, value_name = "H")]
    pub precision: Option<f64>,
    /// Sequential test: H1 says the difference A − B of --camp's win rate is D1 (H0: --sprt-h0, default 0).
    #[arg(long, value_name = "D1", allow_hyphen_values = true)]
    pub sprt: Option<f64>,
    /// The difference H0 says (with --sprt).
    #[arg(long = "sprt-h0", value_name = "D0", default_value_t = 0.0, allow_hyphen_values = true)]
    pub sprt_h0: f64,
    /// The chance of accepting H1 when H0 holds (with --sprt).
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds (with --sprt).
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// The camp the test is about (with --sprt).
    #[arg(long, default_value = "town")]
    pub camp: String,
    #[command(flatten)]
    pub pair: crate::args::PairArgs,
    #[command(flatten)]
    pub store: crate::shard::ShardArgs,
}

/// Parses one variant's changes: the setup it names (if any) and one
/// single-valued axis per other key.
fn variant(changes: &[String], flag: &str) -> Result<(Option<String>, Vec<Axis>), Error> {
    let mut setup = None;
    let mut axes: Vec<Axis> = Vec::new();
    for c in changes {
        let (k, v) = c.split_once('=').ok_or_else(|| Error::Invalid(format!("{flag} {c}: expected KEY=VALUE")))?;
        let (k, v) = (k.trim(), v.trim());
        if k == "setup" {
            setup = Some(v.to_string());
            continue;
        }
        let name = if AxisKind::parse(k).is_err() && mafia_engine::Rules::default().get(k).is_some() {
            format!("rules.{k}")
        } else {
            k.to_string()
        };
        if axes.iter().any(|a| a.name == name) {
            return Err(Error::Invalid(format!("{flag} {c}: `{k}` is set twice")));
        }
        axes.push(Axis::new(&name, vec![v.to_string()]).map_err(|e| Error::Invalid(format!("{flag} {c}: {e}")))?);
    }
    Ok((setup, axes))
}

/// The two points of a comparison.
pub fn compare_points(base: &GameArgs, a: &[String], b: &[String]) -> Result<Points, Error> {
    if base.setup.len() != 1 {
        return Err(Error::Invalid("give exactly one --setup (a variant may name its own with --a setup=…)".into()));
    }
    let mut points = Vec::new();
    for (changes, flag) in [(a, "--a"), (b, "--b")] {
        let (setup, axes) = variant(changes, flag)?;
        let setup = setup.unwrap_or_else(|| base.setup[0].clone());
        let mut made = make_points(base, &setup, &[], &axes, false).map_err(|e| e.context(flag))?;
        let p = made.points.remove(0);
        let label = if changes.is_empty() { "the base".to_string() } else { changes.join(" ") };
        points.push(Point { values: vec![label], job: p.job });
    }
    let axis = Axis { name: "variant".into(), kind: AxisKind::Agents, values: vec![] };
    Ok(Points { axes: vec![axis], points, skipped: vec![] })
}

pub fn cmd_compare(a: CompareArgs) -> Result<(), Error> {
    let _claim = crate::args::claim_out(&a.pair.out, a.store.counts.as_deref())?;
    if a.a.is_empty() && a.b.is_empty() {
        return Err(Error::Invalid(
            "give the variants: --a KEY=VALUE and/or --b KEY=VALUE (e.g. --a no_kill_limit=3 --b no_kill_limit=off)"
                .into(),
        ));
    }
    let precision = a.precision.map(check_precision).transpose().map_err(Error::Invalid)?;
    if precision.is_some() {
        a.store.refuse_shard("--precision")?;
    }
    if a.sprt.is_some() {
        a.store.refuse_shard("--sprt")?;
    }
    let camp =
        Camp::from_name(&a.camp).ok_or_else(|| Error::Invalid(format!("--camp {}: town, mafia or bandits", a.camp)))?;
    let sprt = match a.sprt {
        Some(d1) => Some(Sprt::new(a.sprt_h0, d1, a.alpha, a.beta).map_err(Error::Invalid)?),
        None => None,
    };
    let points = compare_points(&a.game, &a.a, &a.b)?;
    let camps: Vec<Camp> = {
        let mut c = point_camps(&points.points[0].job);
        for x in point_camps(&points.points[1].job) {
            if !c.contains(&x) {
                c.push(x);
            }
        }
        c.sort_by_key(|c| *c as usize);
        c
    };
    if sprt.is_some() && !camps.contains(&camp) {
        return Err(Error::Invalid(format!("--camp {}: neither variant deals that camp", a.camp)));
    }
    let sequential = precision.is_some() || sprt.is_some();
    let games = a.games.unwrap_or(if sequential { 100_000_000 } else { crate::commands::experiment::DEFAULT_GAMES });
    let budget = Budget {
        games,
        first: a.pair.first_game,
        seed: a.pair.seed,
        threads: a.pair.threads,
        precision,
        progress: !a.pair.quiet,
    };
    let plan = ComparePlan {
        labels: [points.points[0].values[0].clone(), points.points[1].values[0].clone()],
        camps,
        precision,
        games,
        sprt,
        camp,
    };
    let jobs: Vec<crate::exec::Job> = points.points.iter().map(|p| p.job.clone()).collect();
    let mut store = crate::shard::Store::open(
        &a.store,
        crate::shard::Run {
            plan: crate::shard::Plan::Compare(plan.clone()),
            jobs: &jobs,
            pairs: &[(0, 1)],
            seed: budget.seed,
            first: budget.first,
            games,
        },
    )?;
    crate::exec::install_interrupt_handler();
    let (counts, finish) = play_compare_stored(&points, &budget, sprt, camp, &mut store)?;
    let faults = store.faults();
    // Each output is tried whatever the others did (issue 35).
    let rendered = render_compare(&plan, budget.seed, &counts, &faults, finish, &a.pair.out);
    let end = if finish == Finish::Interrupted {
        Err(Error::Interrupted(store.interrupted_message()))
    } else {
        crate::output::check_faults(&faults, &a.game.ext.limits()?)
    };
    Error::all([store.written(), rendered, end])
}

/// A comparison's output from its counts (also `merge`'s): the table, the
/// games played, what pairing saved, the test's verdict, and the table
/// written to `out`.
pub fn render_compare(
    plan: &ComparePlan,
    seed: u64,
    counts: &Counts,
    faults: &[crate::output::AgentFaults],
    finish: Finish,
    out: &Option<std::path::PathBuf>,
) -> Result<(), Error> {
    let camps = &plan.camps;
    let mut stdout = crate::output::stdout();
    let df = compare_frame(counts, camps)?;
    crate::output::keep("compare", &df);
    let title = format!(
        "Compare on the same games (seed {}): A = {}, B = {}; rates with Wilson 95% bounds, diff = A − B with its paired 95% interval",
        seed, plan.labels[0], plan.labels[1]
    );
    let mut tables = vec![Printed::new(&title, df, "")];
    tables[0].print(&mut stdout)?;
    writeln!(stdout, "{}", played_line(counts, finish, plan.precision, plan.games))?;
    writeln!(stdout, "{}", reduction_line(counts, camps))?;
    if let Some(t) = plan.sprt {
        let (q, camp) = (0, plan.camp);
        let verdict = final_verdict(Some(t), finish, counts, camp);
        writeln!(
            stdout,
            "SPRT on the {} win rate, H0: diff = {} against H1: diff = {} (alpha {}, beta {}): {} after {} paired games (LLR {:.3}, bounds {:.3} and {:.3}){}",
            camp.name(),
            t.d0,
            t.d1,
            t.alpha,
            t.beta,
            match verdict {
                Verdict::H1 => format!("H1 accepted — the difference is {} rather than {}", t.d1, t.d0),
                Verdict::H0 => format!("H0 accepted — the difference is {} rather than {}", t.d0, t.d1),
                Verdict::Identical => format!(
                    "neither accepted — both refuted: under {} or {} some game would have differed by now",
                    t.d0, t.d1
                ),
                Verdict::Open => "undecided".to_string(),
            },
            counts.pair_games[q],
            t.llr(counts.pair_games[q], counts.a_only[q][camp as usize], counts.b_only[q][camp as usize]),
            t.bounds().0,
            t.bounds().1,
            if counts.a_only[q][camp as usize] + counts.b_only[q][camp as usize] == 0 {
                "; the arms played identical games: no game's outcome differed (exact LLR n·ln((1−|d1|)/(1−|d0|)))"
            } else {
                ""
            }
        )?;
    }
    drop(stdout);
    let written = crate::output::write_out(&mut tables, out);
    // A decided test stops the run before the precision: only a run that
    // played to its cap missed it.
    let missed = match finish {
        Finish::Stopped => Ok(()),
        _ => crate::commands::experiment::missed_precision(counts, finish, plan.precision, plan.games),
    };
    Error::all([written, crate::output::report_faults(faults, counts.forfeits.iter().sum(), out.as_deref()), missed])
}

/// Plays A and B on the same games, stopping by the precision rule and/or
/// the SPRT at the checkpoints. Returns the counts, how it ended and the
/// test's verdict (`Open` without a test).
pub fn play_compare(
    points: &Points,
    b: &Budget,
    sprt: Option<Sprt>,
    camp: Camp,
) -> Result<(Counts, Finish, Verdict), Error> {
    let mut store = crate::shard::Store::none(b.first, b.games);
    let (counts, finish) = play_compare_stored(points, b, sprt, camp, &mut store)?;
    let verdict = final_verdict(sprt, finish, &counts, camp);
    Ok((counts, finish, verdict))
}

/// The test's verdict at its last look: a decision stops the run, so a
/// stopped run's counts give it, and any other run's last look was
/// undecided (`Open` without a test). A function of the counts, so a
/// resumed or merged comparison says what the uninterrupted one said.
fn final_verdict(sprt: Option<Sprt>, finish: Finish, c: &Counts, camp: Camp) -> Verdict {
    match (finish, sprt) {
        (Finish::Stopped, Some(t)) => {
            t.verdict(c.pair_games[0], c.a_only[0][camp as usize], c.b_only[0][camp as usize])
        }
        _ => Verdict::Open,
    }
}

/// [`play_compare`] on the range of `store`, from its checkpoint if it
/// resumes one, writing checkpoints to it.
pub fn play_compare_stored(
    points: &Points,
    b: &Budget,
    sprt: Option<Sprt>,
    camp: Camp,
    store: &mut crate::shard::Store,
) -> Result<(Counts, Finish), Error> {
    let jobs: Vec<crate::exec::Job> = points.points.iter().map(|p| p.job.clone()).collect();
    let (first, games) = store.range();
    let e = Exec {
        points: &jobs,
        labels: vec!["A".into(), "B".into()],
        pairs: vec![(0, 1)],
        seed: b.seed,
        first,
        games,
        threads: b.threads,
        progress: b.progress,
        checkpoints: b.precision.is_some() || sprt.is_some(),
        check: None,
    };
    let camps: Vec<Vec<Camp>> = jobs.iter().map(point_camps).collect();
    let mut precise = precision_rule(b.precision.unwrap_or(1.0), camps);
    let mut rule = |c: &mut Counts| {
        if let Some(t) = sprt {
            let verdict = t.verdict(c.pair_games[0], c.a_only[0][camp as usize], c.b_only[0][camp as usize]);
            if verdict != Verdict::Open {
                c.active.iter_mut().for_each(|a| *a = false);
                return;
            }
        }
        if b.precision.is_some() {
            // A comparison plays both variants to the end: the pair needs both.
            precise(c);
            if c.active.iter().any(|a| *a) {
                c.active.iter_mut().for_each(|a| *a = true);
            }
        }
    };
    let from = store.take_from();
    let (counts, finish, done) =
        crate::exec::execute_from(&e, from, &mut rule, &mut |d, c| store.checkpoint(d, c)).map_err(Error::Threads)?;
    store.close(done, &counts, finish);
    Ok((counts, finish))
}

/// One row per camp: both rates, the paired difference, and the interval
/// independent runs of the same size would have given.
pub fn compare_frame(c: &Counts, camps: &[Camp]) -> polars::prelude::PolarsResult<polars::prelude::DataFrame> {
    let n = c.pair_games[0];
    let mut cols = Cols::default();
    cols.str("camp", camps.iter().map(|c| c.name().to_string()).collect());
    cols.u64("games", vec![n; camps.len()]);
    crate::output::rate_cols(
        &mut cols,
        "a",
        camps.iter().map(|&camp| (c.tallies[0].wins[camp as usize], c.tallies[0].games)),
    );
    crate::output::rate_cols(
        &mut cols,
        "b",
        camps.iter().map(|&camp| (c.tallies[1].wins[camp as usize], c.tallies[1].games)),
    );
    crate::output::diff_cols(&mut cols, camps.iter().map(|&camp| c.diff(0, camp)));
    cols.f64("paired_half", camps.iter().map(|&camp| diff_half(&c.diff(0, camp))).collect());
    cols.f64("independent_half", camps.iter().map(|&camp| independent_half(c, camp)).collect());
    cols.push("variance_ratio", camps.iter().map(|&camp| variance_ratio(c, camp)).collect::<Vec<Option<f64>>>());
    cols.frame()
}

/// The half-width of the difference's 95% interval had A and B been run on
/// independent seeds with the same games: `1.96·√(pA(1−pA)/nA + pB(1−pB)/nB)`.
pub fn independent_half(c: &Counts, camp: Camp) -> f64 {
    let var = |t: &crate::stats::Tally| {
        let n = t.games.max(1) as f64;
        let p = t.wins[camp as usize] as f64 / n;
        p * (1.0 - p) / n
    };
    1.959_963_984_540_054 * (var(&c.tallies[0]) + var(&c.tallies[1])).sqrt()
}

/// The fewest discordant games (won with one arm only) from which the
/// variance ratio is shown. The paired variance is estimated from the
/// discordant games alone, so its relative error is about `1/√k` for `k`
/// of them: from 100 on the ratio is known to about ±20% (95%); below it a
/// ratio such as "2990.5x" from two differing games says nothing.
pub const MIN_DISCORDANT: u64 = 100;

/// The paired difference's variance over the independent one's (below 1:
/// pairing saved games; the games needed for a precision scale with it):
/// `(k/n − d²)/n` over `pA(1−pA)/nA + pB(1−pB)/nB`, with `k` the discordant
/// games and `d` the difference. `None` with fewer than [`MIN_DISCORDANT`]
/// discordant games, or when the independent variance is 0.
pub fn variance_ratio(c: &Counts, camp: Camp) -> Option<f64> {
    let d = c.diff(0, camp);
    let k = d.a_only + d.b_only;
    let n = c.pair_games[0].max(1) as f64;
    let ind = (independent_half(c, camp) / 1.959_963_984_540_054).powi(2);
    if k < MIN_DISCORDANT || ind == 0.0 {
        return None;
    }
    let paired = (k as f64 / n - d.mean * d.mean) / n;
    Some(paired / ind)
}

/// The printed line on what pairing saved.
fn reduction_line(c: &Counts, camps: &[Camp]) -> String {
    let parts: Vec<String> = camps
        .iter()
        .map(|&camp| {
            let d = c.diff(0, camp);
            let halves = format!(
                "{}: ±{:.4} paired against ±{:.4} independent",
                camp.name(),
                diff_half(&d),
                independent_half(c, camp)
            );
            match variance_ratio(c, camp) {
                Some(r) => format!(
                    "{halves} (variance {:.1}% of it, {:.1}x fewer games for the same interval)",
                    100.0 * r,
                    1.0 / r
                ),
                None => format!(
                    "{halves} (no ratio: {} games differed, fewer than {MIN_DISCORDANT} to estimate it)",
                    d.a_only + d.b_only
                ),
            }
        })
        .collect();
    format!("variance reduction by pairing — {}", parts.join("; "))
}
