//! Paired play of lineups: several lineups play the same game indices of one
//! game with the same master seed, so they see the same deals and the same
//! random streams (common random numbers): the only difference between two
//! lineups' game `i` is the strategy. `mafia duel`, `league`, `moves` and
//! `best-response` play this way; each game's winners are counted per
//! lineup and per pair of lineups (the discordant games a paired difference,
//! [`crate::stats::paired_diff`], is made of).
//!
//! The counts are integers merged by addition, so results do not depend on
//! the thread count, and memory does not grow with the games.

use crate::error::Error;
use crate::stats::{Diff, Tally, paired_diff};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mafia_agents::{Lineup, Worker, master_key};
use mafia_engine::{Camp, Game, NoLog};
use rayon::prelude::*;
use std::io::IsTerminal;

/// Games per parallel work item.
const CHUNK: u64 = 512;

/// The counts of variants that played the same games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paired {
    /// Number of variants.
    pub k: usize,
    /// The full tally of each variant (wins, ends, behaviour columns).
    pub tallies: Vec<Tally>,
    /// `disc[i * k + j][c]`: games camp `c` won with variant `i` but not with
    /// variant `j` (`c` = `Camp as usize`).
    pub disc: Vec<[u64; Camp::COUNT]>,
    /// Game indices left out of every variant because an external agent
    /// forfeited one of them (`--ext-fallback forfeit`): a forfeited game is
    /// not counted, and a pair is compared on the games both played.
    pub forfeited: u64,
}

/// No winner: a draw (as a winner code).
const DRAW: u8 = Camp::COUNT as u8;

impl Paired {
    pub fn new(k: usize, day_cap: u16) -> Paired {
        Paired { k, tallies: vec![Tally::new(day_cap); k], disc: vec![[0; Camp::COUNT]; k * k], forfeited: 0 }
    }

    /// Games played by every variant.
    pub fn games(&self) -> u64 {
        self.tallies.first().map_or(0, |t| t.games)
    }

    /// Adds the discordances of one game index: `winners[i]` is variant
    /// `i`'s winner code (`Camp as u8`, or [`DRAW`]).
    #[inline]
    fn add_winners(&mut self, winners: &[u8]) {
        let k = self.k;
        for (i, &wi) in winners.iter().enumerate() {
            if wi == DRAW {
                continue;
            }
            let row = &mut self.disc[i * k..(i + 1) * k];
            for (cell, &wj) in row.iter_mut().zip(winners) {
                cell[wi as usize] += (wj != wi) as u64;
            }
        }
    }

    pub fn merge(&mut self, o: &Paired) {
        self.forfeited += o.forfeited;
        for (a, b) in self.tallies.iter_mut().zip(&o.tallies) {
            a.merge(b);
        }
        for (a, b) in self.disc.iter_mut().zip(&o.disc) {
            for c in 0..Camp::COUNT {
                a[c] += b[c];
            }
        }
    }

    /// Games camp `c` won with variant `i`.
    pub fn wins(&self, i: usize, c: Camp) -> u64 {
        self.tallies[i].wins[c as usize]
    }

    /// The paired difference of camp `c`'s win rate, variant `a` minus `b`.
    pub fn diff(&self, a: usize, b: usize, c: Camp) -> Diff {
        let k = self.k;
        paired_diff(self.games(), self.disc[a * k + b][c as usize], self.disc[b * k + a][c as usize])
    }
}

/// A thread pool for paired runs (0 = every core).
pub fn pool(threads: usize) -> Result<rayon::ThreadPool, Error> {
    let n = crate::exec::thread_count(threads);
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|e| Error::Threads(format!("cannot start {n} threads: {e}")))
}

/// A progress bar on a terminal (games of all variants), hidden otherwise.
pub fn progress(total: u64, show: bool) -> ProgressBar {
    if !show || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr_with_hz(4));
    pb.set_style(
        ProgressStyle::with_template("{bar:40} {human_pos}/{human_len} games  {per_sec}  ETA {eta}  {msg}")
            .expect("a valid template"),
    );
    pb
}

/// Plays game indices `first..first + games` of `game` with every lineup
/// (the same master seed for all) and counts them.
pub fn play_paired(
    pool: &rayon::ThreadPool,
    game: &Game,
    lineups: &[Lineup],
    seed: u64,
    first: u64,
    games: u64,
    pb: &ProgressBar,
) -> Paired {
    let k = lineups.len();
    let key = master_key(seed);
    let day_cap = game.rules().day_cap;
    // Agents in other processes: small chunks, so games spread over every thread.
    let ext = lineups.iter().any(|l| l.strategy_names().iter().any(|n| mafia_agents::ext_command(n).is_some()));
    let chunk = if ext { crate::exec::EXT_CHUNK } else { CHUNK };
    let chunks = games.div_ceil(chunk);
    let parts: Vec<Paired> = pool.install(|| {
        (0..chunks)
            .into_par_iter()
            .map_init(
                || lineups.iter().map(|l| Worker::new(l.clone(), key)).collect::<Vec<Worker>>(),
                |workers, c| {
                    let start = first + c * chunk;
                    let end = (start + chunk).min(first + games);
                    let mut p = Paired::new(k, day_cap);
                    let mut winners = vec![DRAW; k];
                    let mut outcomes = Vec::with_capacity(k);
                    for i in start..end {
                        // Every variant plays the index before any is counted:
                        // a game an external agent forfeited in one variant is
                        // left out of all of them (the pairing stays whole).
                        outcomes.clear();
                        let mut forfeited = false;
                        for w in workers.iter_mut() {
                            outcomes.push(w.play(game, i, &mut NoLog));
                            forfeited |= ext && !w.forfeited().is_empty();
                        }
                        if forfeited {
                            p.forfeited += 1;
                            continue;
                        }
                        for (v, (w, o)) in workers.iter().zip(&outcomes).enumerate() {
                            p.tallies[v].add(o, w.state.role_seats());
                            p.tallies[v].illegal += u64::from(w.illegal_answers());
                            winners[v] = o.winner.map_or(DRAW, |c| c as u8);
                        }
                        p.add_winners(&winners);
                    }
                    pb.inc((end - start) * k as u64);
                    p
                },
            )
            .collect()
    });
    let mut total = Paired::new(k, day_cap);
    for p in &parts {
        total.merge(p);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discordances_count_each_camp() {
        let mut p = Paired::new(3, 10);
        // Variant 0 town, 1 mafia, 2 town.
        p.add_winners(&[0, 1, 0]);
        // All draw.
        p.add_winners(&[DRAW, DRAW, DRAW]);
        // 0 town, 1 draw, 2 mafia.
        p.add_winners(&[0, DRAW, 1]);
        let town = Camp::Town as usize;
        let mafia = Camp::Mafia as usize;
        assert_eq!(p.disc[1][town], 2, "0 won town, 1 did not: twice");
        assert_eq!(p.disc[2][town], 1);
        assert_eq!(p.disc[3][mafia], 1, "1 won mafia, 0 did not");
        assert_eq!(p.disc[5][mafia], 1, "1 won mafia, 2 did not");
        assert_eq!(p.disc[7][mafia], 1, "2 won mafia, 1 did not");
        assert_eq!(p.disc[0], [0; 3], "never against itself");
    }
}
