//! The experiment executor: several points (a checked game and its lineup
//! each) play the same game indices with the same master seed — common
//! random numbers, so point `p`'s game `i` has the deal and the draws of
//! every other point's game `i` wherever their rules do not make them
//! differ — and are counted per point and per pair of points.
//!
//! Games are played in blocks between checkpoints ([`Schedule`]); a block
//! is cut into fixed chunks that run on a rayon pool, and the chunks'
//! counts are merged in order, so the counts at a checkpoint do not depend
//! on the thread count. At every checkpoint a stopping rule may retire
//! points: a retired point plays no more games, and a pair is counted only
//! while both of its points play, so a pair's games are the games both
//! played. Memory does not grow with the games.
//!
//! An interrupt (Ctrl-C, [`crate::exec::interrupt`]) is noticed between blocks: the
//! block in progress is dropped, so every count is of whole, finished
//! blocks — nothing is counted twice or half.

use crate::exec::Job;
use crate::exec::interrupted;
use crate::stats::{Diff, Schedule, Tally, paired_diff};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use mafia_agents::{Worker, master_key};
use mafia_engine::{Camp, NoLog};
use rayon::prelude::*;
use std::io::IsTerminal;

/// Games per chunk (per point): each chunk plays these indices with every
/// point still playing.
const CHUNK: u64 = 1024;

/// Games between looks at an interrupt when no stopping rule asks for
/// checkpoints.
const BLOCK: u64 = 64 * CHUNK;

/// No winner: a draw (as a winner code).
const DRAW: u8 = Camp::COUNT as u8;

/// What to play.
pub struct Exec<'a> {
    pub points: &'a [Job],
    /// Labels of the points for their progress bars.
    pub labels: Vec<String>,
    /// Pairs of points whose paired differences are counted.
    pub pairs: Vec<(usize, usize)>,
    pub seed: u64,
    /// The first game index.
    pub first: u64,
    /// Games per point at most.
    pub games: u64,
    pub threads: usize,
    pub progress: bool,
    /// Whether a stopping rule looks at checkpoints (else blocks are only
    /// for interrupts).
    pub checkpoints: bool,
    /// `run --check`: every game's event log goes through the independent
    /// invariant checkers (`mafia_check`); what they refuse is collected
    /// here, and the execution stops after the block that found it.
    pub check: Option<&'a std::sync::Mutex<Violations>>,
}

/// What `--check` found: how many games were refused, and the first few.
#[derive(Clone, Debug, Default)]
pub struct Violations {
    /// Games checked.
    pub games: u64,
    /// Games refused.
    pub count: u64,
    /// The first refusals, in the order found: point, game index, why.
    pub first: Vec<(usize, u64, String)>,
}

/// Refusals kept with their message.
const KEEP_VIOLATIONS: usize = 10;

/// How an execution ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// Every point played every game.
    Complete,
    /// The stopping rule retired every point.
    Stopped,
    /// Ctrl-C: the counts are of the blocks finished before it.
    Interrupted,
}

/// The counts of an execution (also what a counts file stores: see
/// [`crate::shard`]).
// The doc above is the description the JSON schema publishes, word for
// word, so its link stays; it resolves in the crate's own documentation
// (`--document-private-items`), not in the public API's.
#[allow(rustdoc::private_intra_doc_links)]
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Counts {
    /// Per point: what its games counted.
    pub tallies: Vec<Tally>,
    /// Games each point played (its tally's games plus forfeits).
    pub played: Vec<u64>,
    /// Games an external agent forfeited, per point (not in the tallies).
    pub forfeits: Vec<u64>,
    /// Per point: decisions of its counted games (not the forfeited) that
    /// external agents' fallbacks answered (the per-game rows' `replaced`).
    pub replaced: Vec<u64>,
    /// The pairs of points compared on the same games (indices into the points).
    pub pairs: Vec<(usize, usize)>,
    /// Per pair: games both points played (and neither forfeited).
    pub pair_games: Vec<u64>,
    /// Per pair and camp: games the camp won with the first point only, and with the second only.
    pub a_only: Vec<[u64; Camp::COUNT]>,
    /// Per pair and camp: games the camp won with the second point only.
    pub b_only: Vec<[u64; Camp::COUNT]>,
    /// Whether each point is still playing.
    pub active: Vec<bool>,
}

impl Counts {
    /// Empty counts for `points` and their `pairs`, every point active.
    pub fn new(points: &[Job], pairs: &[(usize, usize)]) -> Counts {
        let k = points.len();
        Counts {
            tallies: points.iter().map(|j| Tally::new(j.game.rules().day_cap)).collect(),
            played: vec![0; k],
            forfeits: vec![0; k],
            replaced: vec![0; k],
            pairs: pairs.to_vec(),
            pair_games: vec![0; pairs.len()],
            a_only: vec![[0; Camp::COUNT]; pairs.len()],
            b_only: vec![[0; Camp::COUNT]; pairs.len()],
            active: vec![true; k],
        }
    }

    /// Adds `o`'s counts (of other games) to these.
    pub fn merge(&mut self, o: &Counts) {
        for (a, b) in self.tallies.iter_mut().zip(&o.tallies) {
            a.merge(b);
        }
        for i in 0..self.played.len() {
            self.played[i] += o.played[i];
            self.forfeits[i] += o.forfeits[i];
            self.replaced[i] += o.replaced[i];
        }
        for q in 0..self.pairs.len() {
            self.pair_games[q] += o.pair_games[q];
            for c in 0..Camp::COUNT {
                self.a_only[q][c] += o.a_only[q][c];
                self.b_only[q][c] += o.b_only[q][c];
            }
        }
    }

    /// The paired difference of camp `c`'s win rate for pair number `q`
    /// (first point minus second), over the games both played.
    pub fn diff(&self, q: usize, c: Camp) -> Diff {
        paired_diff(self.pair_games[q], self.a_only[q][c as usize], self.b_only[q][c as usize])
    }

    /// The largest number of games any point played.
    pub fn most_played(&self) -> u64 {
        self.played.iter().copied().max().unwrap_or(0)
    }
}

/// Progress: an overall bar, and one per point when there are few enough
/// points to show (a terminal only).
struct Bars {
    overall: ProgressBar,
    points: Vec<ProgressBar>,
    _multi: Option<MultiProgress>,
}

/// Points beyond this many get only the overall bar.
const MAX_POINT_BARS: usize = 24;

impl Bars {
    fn new(e: &Exec<'_>) -> Bars {
        let k = e.points.len() as u64;
        if !e.progress || !std::io::stderr().is_terminal() {
            return Bars { overall: ProgressBar::hidden(), points: Vec::new(), _multi: None };
        }
        let multi = MultiProgress::with_draw_target(ProgressDrawTarget::stderr_with_hz(4));
        let style = |t: &str| ProgressStyle::with_template(t).expect("a valid template");
        let overall = multi.add(ProgressBar::new(e.games * k));
        overall.set_style(style("{bar:40} {human_pos}/{human_len} games  {per_sec}  ETA {eta}  {msg}"));
        let mut points = Vec::new();
        if e.points.len() > 1 && e.points.len() <= MAX_POINT_BARS {
            for l in &e.labels {
                let pb = multi.add(ProgressBar::new(e.games));
                pb.set_style(style("  {bar:30} {human_pos:>9} {msg}"));
                pb.set_message(l.clone());
                points.push(pb);
            }
        }
        Bars { overall, points, _multi: Some(multi) }
    }

    fn update(&self, c: &Counts) {
        let done = c.active.iter().filter(|a| !**a).count();
        self.overall.set_message(format!("{done}/{} points done", c.active.len()));
        for (i, pb) in self.points.iter().enumerate() {
            pb.set_position(c.played[i]);
            if !c.active[i] {
                pb.set_length(c.played[i]);
            }
        }
    }

    fn finish(&self) {
        for pb in &self.points {
            pb.finish_and_clear();
        }
        self.overall.finish_and_clear();
    }
}

/// Plays `e`. After each checkpoint (when `e.checkpoints`), `stop` sees the
/// counts so far and may retire points by clearing their `active` flag; it
/// is not called after the last games. Returns the counts and how the
/// execution ended.
pub fn execute(e: &Exec<'_>, stop: &mut dyn FnMut(&mut Counts)) -> Result<(Counts, Finish), String> {
    execute_from(e, None, stop, &mut |_, _| {}).map(|(c, f, _)| (c, f))
}

/// [`execute`], resumable: `from` is where an earlier execution of the same
/// `e` stopped (games done, counted from `e.first`, and its counts), and
/// `save` sees the games done and the counts after every finished block
/// (to write a checkpoint). Blocks end where the uninterrupted execution's
/// end, so a resumed execution counts exactly what an uninterrupted one
/// does. Returns the counts, how it ended and the games done.
pub fn execute_from(
    e: &Exec<'_>,
    from: Option<(u64, Counts)>,
    stop: &mut dyn FnMut(&mut Counts),
    save: &mut dyn FnMut(u64, &Counts),
) -> Result<(Counts, Finish, u64), String> {
    let k = e.points.len();
    let threads = match e.points.iter().flat_map(|j| &j.ext).map(|p| p.threads()).max() {
        Some(n) => n,
        None => crate::exec::thread_count(e.threads),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|err| format!("cannot start {threads} threads: {err}"))?;
    let ext = e.points.iter().any(|j| !j.ext.is_empty());
    let chunk = if ext { crate::exec::EXT_CHUNK } else { CHUNK };
    let key = master_key(e.seed);
    let bars = Bars::new(e);
    // A library call's watch (the studio): its cancel stops this run as
    // Ctrl-C does, and it hears of every finished block.
    let watch = crate::exec::watch::current();
    let stopped = || interrupted() || watch.as_ref().is_some_and(|w| w.cancelled());
    let (mut done, mut total) = from.unwrap_or_else(|| (0, Counts::new(e.points, &e.pairs)));
    bars.overall.set_position(total.played.iter().sum());
    bars.update(&total);
    let schedule = Schedule { max: e.games };
    let mut blocks: u32 = 0;
    let finish = loop {
        if done >= e.games {
            break Finish::Complete;
        }
        if !total.active.iter().any(|&a| a) {
            break Finish::Stopped;
        }
        if stopped() {
            break Finish::Interrupted;
        }
        // A watched run's first blocks are small and grow to BLOCK, so
        // the page hears of the first games at once whatever the setup's
        // speed; without a stopping rule the counts do not depend on where
        // blocks end.
        let block = match &watch {
            Some(_) => (4 * chunk) << blocks.min(4),
            None => BLOCK,
        }
        .min(BLOCK);
        blocks += 1;
        let end = if e.checkpoints { schedule.next(done) } else { (done + block).min(e.games) };
        let active = total.active.clone();
        let chunks = (end - done).div_ceil(chunk);
        // `None`: a chunk skipped after an interrupt.
        let parts: Vec<Option<Counts>> = pool.install(|| {
            (0..chunks)
                .into_par_iter()
                .map_init(
                    || {
                        let workers = e.points.iter().map(|j| Worker::new(j.lineup.clone(), key)).collect::<Vec<_>>();
                        (workers, Vec::new(), mafia_check::Checker::new())
                    },
                    |(workers, log, checker): &mut (Vec<Worker>, Vec<mafia_engine::Event>, mafia_check::Checker), c| {
                        if stopped() {
                            return None;
                        }
                        let start = e.first + done + c * chunk;
                        let stop_at = (start + chunk).min(e.first + end);
                        let len = (stop_at - start) as usize;
                        let mut part = Counts::new(e.points, &e.pairs);
                        // Winner codes per point and game of the chunk (DRAW + 1: forfeited).
                        let mut winners = vec![DRAW + 1; k * len];
                        for (p, w) in workers.iter_mut().enumerate() {
                            if !active[p] {
                                continue;
                            }
                            let job = &e.points[p];
                            for (g, i) in (start..stop_at).enumerate() {
                                let o = match e.check {
                                    None => w.play(&job.game, i, &mut NoLog),
                                    Some(found) => {
                                        log.clear();
                                        let o = w.play(&job.game, i, log);
                                        if let Err(why) = checker.check(&job.game, log, &o) {
                                            let mut v = found.lock().unwrap_or_else(|p| p.into_inner());
                                            v.count += 1;
                                            if v.first.len() < KEEP_VIOLATIONS {
                                                v.first.push((p, i, why));
                                            }
                                        }
                                        o
                                    }
                                };
                                part.played[p] += 1;
                                if !job.ext.is_empty() && !w.forfeited().is_empty() {
                                    part.forfeits[p] += 1;
                                    continue;
                                }
                                part.tallies[p].add(&o, w.state.role_seats());
                                part.tallies[p].illegal += u64::from(w.illegal_answers());
                                part.replaced[p] += u64::from(w.replaced_answers());
                                winners[p * len + g] = o.winner.map_or(DRAW, |c| c as u8);
                            }
                            bars.overall.inc(len as u64);
                            if let Some(found) = e.check {
                                found.lock().unwrap_or_else(|p| p.into_inner()).games += len as u64;
                            }
                        }
                        for (q, &(a, b)) in e.pairs.iter().enumerate() {
                            if !(active[a] && active[b]) {
                                continue;
                            }
                            for g in 0..len {
                                let (wa, wb) = (winners[a * len + g], winners[b * len + g]);
                                if wa > DRAW || wb > DRAW {
                                    continue;
                                }
                                part.pair_games[q] += 1;
                                if wa != wb {
                                    if wa < DRAW {
                                        part.a_only[q][wa as usize] += 1;
                                    }
                                    if wb < DRAW {
                                        part.b_only[q][wb as usize] += 1;
                                    }
                                }
                            }
                        }
                        Some(part)
                    },
                )
                .collect()
        });
        if parts.iter().any(Option::is_none) {
            // The block was cut short: drop it whole.
            break Finish::Interrupted;
        }
        for p in parts.iter().flatten() {
            total.merge(p);
        }
        done = end;
        if e.check.is_some_and(|v| v.lock().map_or(true, |v| v.count > 0)) {
            // An invariant broke: the figures are moot; stop and report.
            bars.update(&total);
            save(done, &total);
            break Finish::Interrupted;
        }
        if e.checkpoints {
            stop(&mut total);
        }
        bars.update(&total);
        save(done, &total);
        if let Some(w) = &watch {
            w.block(&crate::exec::Progress { done, games: e.games, counts: &total });
        }
    };
    bars.finish();
    Ok((total, finish, done))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_count_only_discordant_wins() {
        let mut c = Counts {
            tallies: vec![],
            played: vec![0, 0],
            forfeits: vec![0, 0],
            replaced: vec![0, 0],
            pairs: vec![(0, 1)],
            pair_games: vec![10],
            a_only: vec![[3, 0, 0]],
            b_only: vec![[1, 2, 0]],
            active: vec![true, true],
        };
        let d = c.diff(0, Camp::Town);
        assert!((d.mean - 0.2).abs() < 1e-12);
        c.played = vec![5, 7];
        assert_eq!(c.most_played(), 7);
    }
}
