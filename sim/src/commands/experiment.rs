//! Experiments: a base setup and a grid of variations, every point played
//! on the same seeds (common random numbers), one table row per point.
//! `mafia experiment FILE` runs a file; `run --sweep`, `compare` and
//! `balance` build their points with the same grid.
//!
//! ```toml
//! name = "three-nights"          # optional; default: the file stem
//! setup = "classic"              # a preset, or a setup file (relative to this file)
//! agents = "forum"               # optional: the base lineup (`--agents` syntax)
//! seed = 2026                    # optional (default 1; --seed overrides)
//! games = 1000000                # optional: games per point, the most with a precision (--games overrides)
//! precision = 0.005              # optional: stop a point when its 95% intervals are ±this (--precision overrides)
//! skip_invalid = false           # optional: leave out grid points that make no game instead of failing
//!
//! [rules]                        # optional: rule settings of every point (`mafia rules`)
//! tie_break = "random"
//!
//! [grid]                         # the axes; points are every combination, the first axis slowest
//! "rules.no_kill_limit" = ["off", 2, 3, 4]   # rules.KEY: a rule setting
//! "rules.absence" = [0, 0.1, 0.2, 0.3]
//! # players = [7, 8, 9]          # the player count: citizens are added or removed
//! # mafia = [2, 3]               # the mafia camp's size: mafiosi are added or removed
//! # "roles.doctor" = [0, 1]      # roles.ROLE: a role's count
//! # replace = ["none", "commissar"]  # one player of a role becomes a plain player of his camp
//! # agents = ["forum", "classic"]    # a whole lineup
//! # "agents.mafia" = ["forum", "mafia:skip=0.3"]  # agents.KEY: the strategy of a camp, role or seat
//!
//! [reference]                    # optional: each point's paired difference is taken against
//! "rules.no_kill_limit" = "off"  # the point with this value and the other axes equal
//! ```
//!
//! Without `[reference]` the table has no paired differences. The
//! changes of a point apply in a fixed order, whatever the order of the
//! axes: rules, role counts, replace, mafia, players, agents.

use crate::cli::GameArgs;
use crate::error::Error;
use crate::exec::executor::{Counts, Exec, Finish};
use crate::exec::runner::Job;
use crate::input::toml_text::{LineIndex, Val, entries, entry_start, rule_text};
use crate::output::{Cols, Printed, Variant};
use crate::stats::{camps_dealt, check_precision, diff_half, wilson_half};
use clap::Args;
use mafia_agents::Lineup;
use mafia_engine::{Camp, Game, Role, Setup};
use polars::prelude::*;
use std::path::{Path, PathBuf};
use toml::de::{DeTable, DeValue};

/// What an axis varies.
#[derive(Clone, Debug, PartialEq)]
pub enum AxisKind {
    /// `rules.KEY`.
    Rule(String),
    /// `roles.ROLE`: the count of a role.
    Count(Role),
    /// `replace`: one player of the role (or `none`) becomes a plain player.
    Replace,
    /// `mafia`: the size of the mafia camp (mafiosi added or removed).
    Mafia,
    /// `players`: the player count (citizens added or removed).
    Players,
    /// `agents`: a whole lineup spec.
    Agents,
    /// `agents.KEY`: the strategy of a camp, role or seat.
    AgentsKey(String),
}

impl AxisKind {
    /// Reads an axis name; `Err` says what names exist.
    pub fn parse(name: &str) -> Result<AxisKind, String> {
        let name = name.trim();
        if let Some(k) = name.strip_prefix("rules.") {
            let mut probe = mafia_engine::Rules::default();
            let default = probe.get(k).ok_or_else(|| format!("unknown rule `{k}` (see `mafia rules`)"))?;
            probe.set(k, &default).map_err(|e| e.to_string())?;
            return Ok(AxisKind::Rule(k.to_string()));
        }
        if let Some(r) = name.strip_prefix("roles.") {
            return Role::from_name(r).map(AxisKind::Count).ok_or_else(|| format!("`{r}` is not a role"));
        }
        if let Some(k) = name.strip_prefix("agents.") {
            return Ok(AxisKind::AgentsKey(k.to_string()));
        }
        match name {
            "replace" => Ok(AxisKind::Replace),
            "mafia" => Ok(AxisKind::Mafia),
            "players" => Ok(AxisKind::Players),
            "agents" => Ok(AxisKind::Agents),
            // A bare rule key, as `--rule` and `--sweep` write it.
            _ if mafia_engine::Rules::default().get(name).is_some() => Ok(AxisKind::Rule(name.to_string())),
            _ => Err(format!(
                "unknown rule `{name}` (see `mafia rules`), and not an axis: rules.KEY, roles.ROLE, replace, mafia, players, agents or agents.KEY"
            )),
        }
    }

    /// The order in which a point's changes apply.
    fn rank(&self) -> u8 {
        match self {
            AxisKind::Rule(_) => 0,
            AxisKind::Count(_) => 1,
            AxisKind::Replace => 2,
            AxisKind::Mafia => 3,
            AxisKind::Players => 4,
            AxisKind::Agents => 5,
            AxisKind::AgentsKey(_) => 6,
        }
    }
}

/// One axis of a grid: its name (the table's column) and values. In a
/// counts file it is its name and values, checked again when read.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(into = "AxisData", try_from = "AxisData")]
pub struct Axis {
    pub name: String,
    pub kind: AxisKind,
    pub values: Vec<String>,
}

/// An [`Axis`] as a counts file writes it.
#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[schemars(rename = "Axis")]
pub struct AxisData {
    name: String,
    values: Vec<String>,
}

impl From<Axis> for AxisData {
    fn from(a: Axis) -> AxisData {
        AxisData { name: a.name, values: a.values }
    }
}

impl schemars::JsonSchema for Axis {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        AxisData::schema_name()
    }

    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        AxisData::json_schema(g)
    }
}

impl TryFrom<AxisData> for Axis {
    type Error = String;
    fn try_from(a: AxisData) -> Result<Axis, String> {
        Axis::new(&a.name, a.values)
    }
}

impl Axis {
    pub fn new(name: &str, values: Vec<String>) -> Result<Axis, String> {
        let kind = AxisKind::parse(name)?;
        if values.is_empty() {
            return Err(format!("{name}: no values"));
        }
        for (i, v) in values.iter().enumerate() {
            if values[..i].contains(v) {
                return Err(format!("{name}: `{v}` is given twice"));
            }
            check_value(&kind, v).map_err(|e| format!("{name} = {v}: {e}"))?;
        }
        Ok(Axis { name: name.trim().to_string(), kind, values })
    }

    /// `KEY=V1,V2,…` (`run --sweep` and `balance --grid` write axes so);
    /// `rules.` may be left out of a rule key, and `A..B` is every integer
    /// from A to B.
    pub fn from_flag(flag: &str) -> Result<Axis, String> {
        let (k, vs) = flag.split_once('=').ok_or_else(|| format!("{flag}: expected KEY=V1,V2,…"))?;
        let k = k.trim();
        let grid_key = k.contains('.') || ["replace", "mafia", "players", "agents"].contains(&k);
        let name = if !grid_key { format!("rules.{k}") } else { k.to_string() };
        let mut values = Vec::new();
        for v in vs.split(',').map(str::trim).filter(|v| !v.is_empty()) {
            match v.split_once("..") {
                Some((a, b)) if a.parse::<u64>().is_ok() && b.parse::<u64>().is_ok() => {
                    let (a, b) = (a.parse::<u64>().unwrap_or(0), b.parse::<u64>().unwrap_or(0));
                    if b < a || b - a > 1000 {
                        return Err(format!("{flag}: the range {v} is empty or longer than 1000"));
                    }
                    values.extend((a..=b).map(|x| x.to_string()));
                }
                _ => values.push(v.to_string()),
            }
        }
        Axis::new(&name, values).map_err(|e| format!("{flag}: {e}"))
    }
}

/// Checks one value of an axis without a setup at hand.
fn check_value(kind: &AxisKind, v: &str) -> Result<(), String> {
    match kind {
        AxisKind::Rule(k) => mafia_engine::Rules::default().set(k, v).map_err(|e| e.to_string()),
        AxisKind::Count(_) | AxisKind::Mafia | AxisKind::Players => {
            v.parse::<u64>().map(|_| ()).map_err(|_| "give a whole number".to_string())
        }
        AxisKind::Replace if v == "none" || Role::from_name(v).is_some() => Ok(()),
        AxisKind::Replace => Err("give a role or `none`".into()),
        AxisKind::Agents => Lineup::default().apply(v).map_err(|e| e.to_string()),
        AxisKind::AgentsKey(k) => Lineup::default().set(k, v).map_err(|e| e.to_string()),
    }
}

/// The plain player who replaces a role of `camp` (bandits have none: a citizen).
fn plain_of(camp: Camp) -> Role {
    match camp {
        Camp::Mafia => Role::Mafioso,
        Camp::Town | Camp::Bandits => Role::Citizen,
    }
}

/// Applies one point's values (`values[a]` for `axes[a]`) to a base setup
/// and lineup. `Err` says why the point makes no game.
pub fn apply_point(setup: &mut Setup, lineup: &mut Lineup, axes: &[Axis], values: &[&str]) -> Result<(), String> {
    let mut order: Vec<usize> = (0..axes.len()).collect();
    order.sort_by_key(|&a| axes[a].kind.rank());
    for a in order {
        let v = values[a];
        let count = |v: &str| v.parse::<u64>().map_err(|_| format!("{} = {v}: give a whole number", axes[a].name));
        match &axes[a].kind {
            AxisKind::Rule(k) => setup.rules.set(k, v).map_err(|e| format!("{} = {v}: {e}", axes[a].name))?,
            AxisKind::Count(r) => setup.counts[*r as usize] = count(v)?,
            AxisKind::Replace if v == "none" => {}
            AxisKind::Replace => {
                let r = Role::from_name(v).ok_or_else(|| format!("replace = {v}: not a role"))?;
                if setup.counts[r as usize] == 0 {
                    return Err(format!("replace = {v}: the setup deals no {}", r.name()));
                }
                setup.counts[r as usize] -= 1;
                setup.counts[plain_of(r.camp()) as usize] += 1;
            }
            AxisKind::Mafia => {
                let others: u64 = Role::ALL
                    .iter()
                    .filter(|r| r.camp() == Camp::Mafia && **r != Role::Mafioso)
                    .map(|&r| setup.counts[r as usize])
                    .sum();
                let want = count(v)?;
                setup.counts[Role::Mafioso as usize] = want
                    .checked_sub(others)
                    .ok_or_else(|| format!("mafia = {v}: the setup has {others} mafia who are not mafiosi"))?;
            }
            AxisKind::Players => {
                let others = setup.players() - setup.counts[Role::Citizen as usize];
                let want = count(v)?;
                setup.counts[Role::Citizen as usize] = want
                    .checked_sub(others)
                    .ok_or_else(|| format!("players = {v}: the setup has {others} players who are not citizens"))?;
            }
            AxisKind::Agents => lineup.apply(v).map_err(|e| format!("agents = {v}: {e}"))?,
            AxisKind::AgentsKey(k) => lineup.set(k, v).map_err(|e| format!("{} = {v}: {e}", axes[a].name))?,
        }
    }
    Ok(())
}

/// Every combination of the axes' values, the first axis slowest.
pub fn combinations(axes: &[Axis]) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = vec![vec![]];
    for axis in axes {
        out =
            out.into_iter().flat_map(|base| (0..axis.values.len()).map(move |v| [&base[..], &[v]].concat())).collect();
    }
    out
}

/// One point of an experiment: its values on each axis and what it plays.
#[derive(Clone)]
pub struct Point {
    pub values: Vec<String>,
    pub job: Job,
}

impl Point {
    /// `axis=value` pairs, for labels.
    pub fn label(&self, axes: &[Axis]) -> String {
        axes.iter().zip(&self.values).map(|(a, v)| format!("{}={v}", a.name)).collect::<Vec<_>>().join(" ")
    }
}

/// A grid over a base: the points it makes, in order, and the points left
/// out (with `skip_invalid`: their label and why).
pub struct Points {
    pub axes: Vec<Axis>,
    pub points: Vec<Point>,
    pub skipped: Vec<(String, String)>,
}

impl Points {
    /// What the table needs of the points (plain data).
    pub fn layout(&self) -> Layout {
        let points = self
            .points
            .iter()
            .map(|p| PointInfo { values: p.values.clone(), variant: p.job.variant.clone(), camps: point_camps(&p.job) })
            .collect();
        Layout { axes: self.axes.clone(), points }
    }
}

/// What an experiment's table needs of its points: the axes, and per point
/// its values, its variant and the camps it deals. Plain data: a counts
/// file ([`crate::shard`]) stores it, so `merge` builds the same table
/// without the setup files.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Layout {
    pub axes: Vec<Axis>,
    pub points: Vec<PointInfo>,
}

/// A point of a [`Layout`].
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct PointInfo {
    pub values: Vec<String>,
    pub variant: Variant,
    #[serde(with = "crate::shard::camp_names")]
    #[schemars(with = "Vec<String>")]
    pub camps: Vec<Camp>,
}

impl PointInfo {
    /// `axis=value` pairs, for labels.
    pub fn label(&self, axes: &[Axis]) -> String {
        axes.iter().zip(&self.values).map(|(a, v)| format!("{}={v}", a.name)).collect::<Vec<_>>().join(" ")
    }
}

/// Makes the points of `axes` over the setup `setup_name` with the lineup
/// spec `agents` and the rule settings `rules`: every point is checked
/// (setup, rules, lineup) before any game is played.
pub fn make_points(
    base: &GameArgs,
    setup_name: &str,
    rules: &[(String, String)],
    axes: &[Axis],
    skip_invalid: bool,
) -> Result<Points, Error> {
    let settings = base.ext.settings()?;
    let mut pools = Vec::new();
    let loaded = crate::cli::load_with(setup_name, base.agents.as_deref(), Some((&settings, &mut pools)))?;
    let mut points = Vec::new();
    let mut skipped = Vec::new();
    for combo in combinations(axes) {
        let values: Vec<&str> = combo.iter().enumerate().map(|(a, &v)| axes[a].values[v].as_str()).collect();
        let label = axes.iter().zip(&values).map(|(a, v)| format!("{}={v}", a.name)).collect::<Vec<_>>().join(" ");
        let made = (|| -> Result<Job, String> {
            let mut setup = loaded.setup.clone();
            for (k, v) in rules {
                setup.rules.set(k, v).map_err(|e| format!("rules.{k} = {v}: {e}"))?;
            }
            crate::cli::apply_rules(&mut setup, &base.rules).map_err(|e| e.to_string())?;
            let mut lineup = loaded.lineup.clone();
            apply_point(&mut setup, &mut lineup, axes, &values)?;
            let game = Game::new(&setup).map_err(|e| {
                e.problems.iter().map(|p| format!("{}: {}", p.path, p.message)).collect::<Vec<_>>().join("; ")
            })?;
            lineup.check_roles(game.roles_present()).map_err(|e| e.to_string())?;
            lineup.check_seats(game.players()).map_err(|e| e.to_string())?;
            let variant = Variant {
                setup: setup.name.clone(),
                rules: game.rules_label(),
                agents: lineup.label(),
                players: game.players(),
            };
            Ok(Job { game, lineup, variant, ext: pools.clone() })
        })();
        match made {
            Ok(job) => points.push(Point { values: values.iter().map(|v| v.to_string()).collect(), job }),
            Err(e) if skip_invalid => skipped.push((label, e)),
            Err(e) if label.is_empty() => return Err(Error::Setup(format!("setup {setup_name}: {e}"))),
            Err(e) => return Err(Error::Setup(format!("the point {label} makes no game: {e}"))),
        }
    }
    if points.is_empty() {
        return Err(Error::Setup(format!("no point of the grid makes a game (the first: {})", skipped[0].1)));
    }
    Ok(Points { axes: axes.to_vec(), points, skipped })
}

// ---------------------------------------------------------------------------
// Running

/// How much to play and when to stop.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub games: u64,
    pub first: u64,
    pub seed: u64,
    pub threads: usize,
    pub precision: Option<f64>,
    pub progress: bool,
}

/// The camps whose win rates a point reports.
pub fn point_camps(job: &Job) -> Vec<Camp> {
    camps_dealt(job.game.roles_present())
}

/// The widest half-width among a point's win-rate intervals.
pub fn point_half(c: &Counts, p: usize, camps: &[Camp]) -> f64 {
    let t = &c.tallies[p];
    camps.iter().map(|&camp| wilson_half(t.wins[camp as usize], t.games)).fold(0.0, f64::max)
}

/// The widest half-width among a pair's difference intervals.
pub fn pair_half(c: &Counts, q: usize, camps: &[Camp]) -> f64 {
    camps.iter().map(|&camp| diff_half(&c.diff(q, camp))).fold(0.0, f64::max)
}

/// The precision rule: a point plays on while one of its win-rate
/// intervals, or one of the difference intervals it is part of, is wider
/// than `h` on a side; a point another point is compared against plays on
/// while that difference needs it.
pub fn precision_rule(h: f64, camps: Vec<Vec<Camp>>) -> impl FnMut(&mut Counts) {
    move |c: &mut Counts| {
        let mut need: Vec<bool> = (0..c.active.len()).map(|p| c.active[p] && point_half(c, p, &camps[p]) > h).collect();
        for (q, &(a, b)) in c.pairs.clone().iter().enumerate() {
            if c.active[a] && c.active[b] && pair_half(c, q, &camps[a]) > h {
                need[a] = true;
                need[b] = true;
            }
        }
        for (p, n) in need.into_iter().enumerate() {
            c.active[p] &= n;
        }
    }
}

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
        crate::exec::executor::execute_from(&e, from, &mut rule, &mut |d, c| store.checkpoint(d, c))
            .map_err(Error::Threads)?;
    store.close(done, &counts, finish)?;
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
// Experiment files

/// An experiment file, read and checked for everything but its points.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExperimentFile {
    pub name: String,
    /// A preset name or a setup file path (resolved against the file's folder).
    pub setup: String,
    pub agents: Option<String>,
    pub seed: Option<u64>,
    pub games: Option<u64>,
    pub precision: Option<f64>,
    pub skip_invalid: bool,
    pub rules: Vec<(String, String)>,
    pub axes: Vec<Axis>,
    pub reference: Option<(String, String)>,
}

/// The top-level keys of an experiment file (a study's `[[experiment]]`
/// tables take the same keys).
pub const EXPERIMENT_KEYS: [&str; 10] =
    ["name", "setup", "agents", "seed", "games", "precision", "skip_invalid", "rules", "grid", "reference"];

/// Problems of a file, each `FILE:LINE:COL: message`.
pub struct FileProblems<'a> {
    pub label: &'a str,
    index: LineIndex<'a>,
    pub problems: Vec<String>,
}

impl<'a> FileProblems<'a> {
    pub fn new(label: &'a str, text: &'a str) -> FileProblems<'a> {
        FileProblems { label, index: LineIndex::new(text), problems: Vec::new() }
    }
    pub fn at(&mut self, offset: usize, message: String) {
        let (l, c) = self.index.locate(offset);
        self.problems.push(format!("{}:{l}:{c}: {message}", self.label));
    }
    pub fn result<T>(self, value: T) -> Result<T, Error> {
        if self.problems.is_empty() { Ok(value) } else { Err(Error::Invalid(self.problems.join("\n"))) }
    }
}

/// Parses TOML text into its document table, or the syntax error with its line.
pub fn parse_doc<'i>(label: &str, text: &'i str) -> Result<DeTable<'i>, Error> {
    let (doc, errors) = DeTable::parse_recoverable(text);
    if errors.is_empty() {
        return Ok(doc.into_inner());
    }
    let lines = LineIndex::new(text);
    let msgs: Vec<String> = errors
        .iter()
        .map(|e| {
            let (l, c) = e.span().map_or((1, 1), |s| lines.locate(s.start));
            format!("{label}:{l}:{c}: invalid TOML: {}", e.message())
        })
        .collect();
    Err(Error::Invalid(msgs.join("\n")))
}

/// A whole number, a string or a float from a TOML value, for messages.
fn kind_name(v: &DeValue<'_>) -> &'static str {
    v.type_str()
}

/// Reads an experiment from a table (a file's top level, or a study's
/// `[[experiment]]`); `dir` resolves a setup file's path.
pub fn read_experiment(t: &DeTable<'_>, dir: &Path, default_name: &str, fp: &mut FileProblems<'_>) -> ExperimentFile {
    let mut x = ExperimentFile { name: default_name.to_string(), ..ExperimentFile::default() };
    let mut setup_at = None;
    for (k, v) in entries(t) {
        let at = entry_start(k, v);
        let key: &str = k.get_ref();
        let str_of = |fp: &mut FileProblems<'_>, v: &Val<'_>| -> Option<String> {
            match v.get_ref() {
                DeValue::String(s) => Some(s.to_string()),
                other => {
                    fp.at(v.span().start, format!("`{key}` takes a string, not {}", kind_name(other)));
                    None
                }
            }
        };
        let int_of = |fp: &mut FileProblems<'_>, v: &Val<'_>| -> Option<u64> {
            match rule_text(v.get_ref()).and_then(|s| s.parse::<u64>().ok()) {
                Some(n) if matches!(v.get_ref(), DeValue::Integer(_)) => Some(n),
                _ => {
                    fp.at(v.span().start, format!("`{key}` takes a whole number"));
                    None
                }
            }
        };
        match key {
            "name" => x.name = str_of(fp, v).unwrap_or_default(),
            "setup" => {
                setup_at = Some(at);
                if let Some(s) = str_of(fp, v) {
                    x.setup = if mafia_engine::Preset::find(&s).is_some() {
                        s
                    } else {
                        let p = dir.join(&s);
                        if !p.exists() {
                            fp.at(
                                v.span().start,
                                format!("setup `{s}`: no such preset and no such file ({})", p.display()),
                            );
                        }
                        p.display().to_string()
                    };
                }
            }
            "agents" => x.agents = str_of(fp, v),
            "seed" => x.seed = int_of(fp, v),
            "games" => match int_of(fp, v) {
                Some(0) => fp.at(v.span().start, "`games` must be at least 1".into()),
                g => x.games = g,
            },
            "precision" => {
                let h = rule_text(v.get_ref()).and_then(|s| s.parse::<f64>().ok());
                match h.map(check_precision) {
                    Some(Ok(h)) => x.precision = Some(h),
                    Some(Err(e)) => fp.at(v.span().start, e.replace("--precision", "precision")),
                    None => fp.at(v.span().start, "`precision` takes a number such as 0.005".into()),
                }
            }
            "skip_invalid" => match v.get_ref() {
                DeValue::Boolean(b) => x.skip_invalid = *b,
                _ => fp.at(v.span().start, "`skip_invalid` takes true or false".into()),
            },
            "rules" | "grid" | "reference" => {
                let DeValue::Table(table) = v.get_ref() else {
                    fp.at(at, format!("`{key}` must be a table"));
                    continue;
                };
                for (rk, rv) in entries(table) {
                    let name: &str = rk.get_ref();
                    let rat = entry_start(rk, rv);
                    match key {
                        "rules" => match rule_text(rv.get_ref()) {
                            Some(val) => match mafia_engine::Rules::default().set(name, &val) {
                                Ok(()) => x.rules.push((name.to_string(), val)),
                                Err(e) => fp.at(rat, format!("rules.{name}: {e}")),
                            },
                            None => fp.at(rat, format!("rules.{name}: give one value")),
                        },
                        "reference" => match rule_text(rv.get_ref()) {
                            Some(val) if x.reference.is_none() => x.reference = Some((name.to_string(), val)),
                            Some(_) => fp.at(rat, "[reference] names one axis".into()),
                            None => fp.at(rat, format!("reference.{name}: give one value")),
                        },
                        _ => {
                            let values: Option<Vec<String>> = match rv.get_ref() {
                                DeValue::Array(items) => items.iter().map(|i| rule_text(i.get_ref())).collect(),
                                other => rule_text(other).map(|s| vec![s]),
                            };
                            match values
                                .ok_or_else(|| format!("grid.{name}: give a list of values"))
                                .and_then(|vs| Axis::new(name, vs).map_err(|e| format!("grid.{e}")))
                            {
                                Ok(axis) => x.axes.push(axis),
                                Err(e) => fp.at(rat, e),
                            }
                        }
                    }
                }
            }
            _ => fp.at(k.span().start, format!("unknown key `{key}` (known: {})", EXPERIMENT_KEYS.join(", "))),
        }
    }
    if setup_at.is_none() {
        // The default setup, as for `mafia run`.
        x.setup = "classic".into();
    }
    if let Some((axis, _)) = &x.reference
        && !x.axes.iter().any(|a| &a.name == axis)
    {
        fp.at(0, format!("[reference] {axis}: not an axis of [grid]"));
    }
    x
}

/// Reads an experiment file.
pub fn load_experiment(path: &Path) -> Result<ExperimentFile, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::Io(format!("{}: {e}", path.display())))?;
    let label = path.display().to_string();
    let doc = parse_doc(&label, &text)?;
    let mut fp = FileProblems::new(&label, &text);
    let stem = path.file_stem().map_or("experiment".into(), |s| s.to_string_lossy().to_string());
    let dir = path.parent().unwrap_or(Path::new("."));
    let x = read_experiment(&doc, dir, &stem, &mut fp);
    fp.result(x)
}

// ---------------------------------------------------------------------------
// mafia experiment

#[derive(Args, Debug)]
pub struct ExperimentArgs {
    /// The experiment file (.toml): a base setup and a grid (see the README).
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
    pub ext: crate::cli::ExtArgs,
    #[command(flatten)]
    pub store: crate::shard::ShardArgs,
}

/// Default games per point of an experiment.
pub const DEFAULT_GAMES: u64 = 100_000;

/// What an experiment's output needs besides the counts (see
/// [`crate::shard::Plan`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct ExperimentPlan {
    pub name: String,
    pub layout: Layout,
    pub reference: Option<(String, String)>,
    pub precision: Option<f64>,
    pub games: u64,
}

pub fn cmd_experiment(a: ExperimentArgs) -> Result<(), Error> {
    crate::exec::paired::check_out(&a.out)?;
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
        eprintln!("note: left out {label}: {why}");
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
        layout: points.layout(),
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
    crate::exec::executor::install_interrupt_handler();
    let (counts, finish) = play_points_stored(&points, pairs, &budget, &mut store)?;
    render_experiment(&plan, budget.seed, &counts, &store.faults(), finish, &a.out)?;
    if finish == Finish::Interrupted {
        return Err(Error::Interrupted(store.interrupted_message()));
    }
    Ok(())
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
    let shown = compact(&df, &plan.layout.axes)?;
    let title = format!(
        "Experiment {}: {} points on the same games (seed {}); rates with Wilson 95% bounds, diff = point − {} (paired 95%)",
        plan.name,
        plan.layout.points.len(),
        seed,
        plan.reference.as_ref().map_or("(no [reference])".to_string(), |(k, v)| format!("{k}={v}"))
    );
    let mut stdout = std::io::stdout().lock();
    Printed::new(&title, shown, "").print(&mut stdout)?;
    use std::io::Write;
    writeln!(stdout, "{}", played_line(counts, finish, plan.precision, plan.games))?;
    drop(stdout);
    let mut tables = vec![Printed::new("", df, "")];
    if out.is_some() {
        let rows: Vec<(Variant, &crate::stats::Tally)> =
            plan.layout.points.iter().zip(&counts.tallies).map(|(p, t)| (p.variant.clone(), t)).collect();
        let roles = crate::output::build_tables(&rows)?.roles;
        tables.push(Printed::new("", roles, "roles"));
    }
    crate::output::write_out(&mut tables, out)?;
    crate::output::report_faults(faults, counts.forfeits.iter().sum(), out.as_deref())
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
