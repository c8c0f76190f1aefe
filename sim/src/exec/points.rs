//! The points of a grid, each a checked game and its lineup with its values
//! on the axes, how much to play them, and the precision rule that stops
//! them (`--precision`).

use crate::exec::Counts;
use crate::exec::Job;
use crate::grid::Axis;
use crate::stats::{camps_dealt, diff_half, wilson_half};
use mafia_engine::Camp;

/// One point of an experiment: its values on each axis and what it plays.
#[derive(Clone)]
pub struct Point {
    /// The point's value on each axis, in the axes' order.
    pub values: Vec<String>,
    /// What it plays.
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
    /// The axes, the first varying slowest.
    pub axes: Vec<Axis>,
    /// The points that make a game, in order.
    pub points: Vec<Point>,
    /// The points left out: their label and why.
    pub skipped: Vec<(String, String)>,
}

/// How much to play and when to stop.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Games per point (the most, with a precision).
    pub games: u64,
    /// The first game index.
    pub first: u64,
    /// The master seed.
    pub seed: u64,
    /// Worker threads (0: every core).
    pub threads: usize,
    /// Stop a point when every camp's interval is within ±this.
    pub precision: Option<f64>,
    /// Show progress bars.
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
