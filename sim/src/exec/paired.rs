//! Paired comparisons of strategies: `mafia duel` (A against B for one key)
//! and `mafia league` (a round-robin), and the engine both share with
//! `mafia best-response`.
//!
//! Every variant (a lineup) plays the same game indices with the same master
//! seed, so the variants see the same deals and the same random streams
//! (common random numbers): the only difference between two variants' game
//! `i` is the strategy. A win-rate difference is then estimated from the
//! paired per-game outcomes: with `d_i = win_A,i − win_B,i` (−1, 0 or 1),
//! the difference is the mean of the `d_i` and its 95% interval is
//! `mean ± 1.96 · sd(d) / √n`. Only the discordant games count: the games A's
//! camp won and B's did not (`a_only`), and the other way round (`b_only`);
//! two identical strategies give exactly 0 with the interval `[0, 0]`.
//!
//! The counts are integers merged by addition, so results do not depend on
//! the thread count, and memory does not grow with the games.

use crate::cli::{GameArgs, one_job};
use crate::error::Error;
use crate::output::{Cols, Printed, diff_cols, play_frame, rate_cols};
use crate::stats::{Diff, Tally, camps_dealt, paired_diff};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mafia_agents::{Lineup, LineupError, Worker, master_key};
use mafia_engine::{Camp, Game, NoLog, Role};
use polars::prelude::*;
use rayon::prelude::*;
use std::io::IsTerminal;
use std::path::PathBuf;

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

/// Checks a `--for` key against the setup: `default`, a camp it deals or a
/// role it deals.
pub fn check_key(key: &str, game: &Game) -> Result<(), Error> {
    let present = game.roles_present();
    if key == "default" {
        return Ok(());
    }
    if let Some(c) = Camp::from_name(key) {
        if !camps_dealt(present).contains(&c) {
            return Err(Error::Invalid(format!("--for {key}: setup {} deals nobody of the {key} camp", game.name())));
        }
        return Ok(());
    }
    match Role::from_name(key) {
        Some(r) if present.contains(r) => Ok(()),
        Some(r) => Err(Error::Invalid(format!("--for {key}: setup {} deals no {}", game.name(), r.name()))),
        None => Err(Error::Invalid(format!("--for {key}: {}", LineupError::UnknownKey { key: key.to_string() }))),
    }
}

/// The camps whose win rates a comparison on `key` reports: the key's camp
/// (a camp or a role's), every camp dealt for `default`.
pub fn camps_for_key(key: &str, game: &Game) -> Vec<Camp> {
    if let Some(c) = Camp::from_name(key) {
        return vec![c];
    }
    if let Some(r) = Role::from_name(key) {
        return vec![r.camp()];
    }
    camps_dealt(game.roles_present())
}

/// `base` with `key` set to `spec` (`default`: the base as it is, e.g. a
/// preset's mixed lineup); `flag` names the option in messages.
pub fn lineup_with(base: &Lineup, key: &str, spec: &str, flag: &str) -> Result<Lineup, Error> {
    let mut l = base.clone();
    if spec.trim() == "default" {
        return Ok(l);
    }
    l.set(key, spec).map_err(|e| Error::Invalid(format!("{flag} {spec}: {e}")))?;
    Ok(l)
}

/// Output options shared by the comparison commands.
#[derive(Args, Debug, Clone)]
pub struct PairArgs {
    /// Master seed: every variant plays the same seeded games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Index of the first game.
    #[arg(long, value_name = "I", default_value_t = 0)]
    pub first_game: u64,
    /// Worker threads (0 = every core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Write the table (.parquet or .csv); further tables go beside it.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Checks `--out` before any game is played.
pub fn check_out(out: &Option<PathBuf>) -> Result<(), Error> {
    if let Some(p) = out {
        crate::output::out_format(p).map_err(Error::Invalid)?;
        if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty() && !d.is_dir()) {
            return Err(Error::Invalid(format!("{}: folder {} does not exist", p.display(), dir.display())));
        }
    }
    Ok(())
}

fn check_run(p: &PairArgs, games: u64) -> Result<(), Error> {
    check_out(&p.out)?;
    if p.threads > 1024 {
        return Err(Error::Invalid(format!("--threads {}: at most 1024 (0 = every core)", p.threads)));
    }
    if p.first_game.checked_add(games).is_none() {
        return Err(Error::Invalid(format!(
            "--first-game {} with --games {games}: past the last game index",
            p.first_game
        )));
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// mafia duel

#[derive(Args, Debug)]
pub struct DuelArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The key both strategies are set on: a role, a camp (town, mafia, bandits) or `default`.
    #[arg(long = "for", value_name = "KEY")]
    pub key: String,
    /// Strategy A for the key: `STRATEGY[:PARAM=VALUE…]`, or `default` (the key as the lineup has it).
    #[arg(long = "a", value_name = "SPEC")]
    pub a: String,
    /// Strategy B for the key.
    #[arg(long = "b", value_name = "SPEC")]
    pub b: String,
    /// Games per strategy (the same game indices for both).
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    #[command(flatten)]
    pub pair: PairArgs,
}

pub fn cmd_duel(a: DuelArgs) -> Result<(), Error> {
    check_run(&a.pair, a.games)?;
    let mut job = one_job(&a.game)?;
    check_key(&a.key, &job.game)?;
    crate::cli::register_ext(&mut job, &[&a.a, &a.b], &a.game)?;
    let la = lineup_with(&job.lineup, &a.key, &a.a, "--a")?;
    let lb = lineup_with(&job.lineup, &a.key, &a.b, "--b")?;
    let pool = pool(crate::cli::threads_for(&job, a.pair.threads))?;
    let pb = progress(2 * a.games, !a.pair.quiet);
    pb.set_message(format!("duel on {}", a.key));
    let p = play_paired(&pool, &job.game, &[la.clone(), lb.clone()], a.pair.seed, a.pair.first_game, a.games, &pb);
    pb.finish_and_clear();

    let camps = camps_dealt(job.game.roles_present());
    let v = &job.variant;
    let n = camps.len();
    let mut c = Cols::default();
    c.str("setup", vec![v.setup.clone(); n]);
    c.str("rules", vec![v.rules.clone(); n]);
    c.str("agents", vec![v.agents.clone(); n]);
    c.str("key", vec![a.key.clone(); n]);
    c.str("a", vec![a.a.clone(); n]);
    c.str("b", vec![a.b.clone(); n]);
    c.str("camp", camps.iter().map(|c| c.name().to_string()).collect());
    c.u64("games", vec![p.games(); n]);
    rate_cols(&mut c, "a", camps.iter().map(|&camp| (p.wins(0, camp), p.games())));
    rate_cols(&mut c, "b", camps.iter().map(|&camp| (p.wins(1, camp), p.games())));
    diff_cols(&mut c, camps.iter().map(|&camp| p.diff(0, 1, camp)));
    let duel = c.frame()?;

    let play = play_frame(&[("A", &la, &p.tallies[0]), ("B", &lb, &p.tallies[1])])?;
    let title = format!(
        "Duel on `{}`: A = {}, B = {}; each plays the same {} games (seed {}); diff = A − B, paired 95% interval",
        a.key,
        a.a,
        a.b,
        p.games(),
        a.pair.seed
    );
    crate::output::print_and_write(
        &mut [
            Printed::new(&title, duel, ""),
            Printed::new(
                "How the games were played (lynch_hit_*: share of the lynched; the rest per game)",
                play,
                "play",
            ),
        ],
        &a.pair.out,
    )?;
    crate::output::report_faults(&crate::output::faults_of(&job.ext), p.forfeited, a.pair.out.as_deref())
}

// ---------------------------------------------------------------------------
// mafia league

#[derive(Args, Debug)]
pub struct LeagueArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The key the strategies are set on: a role, a camp (town, mafia, bandits) or `default`.
    #[arg(long = "for", value_name = "KEY")]
    pub key: String,
    /// The strategies, comma-separated: `forum,classic,random,mafia:bus=0.5`.
    #[arg(long, value_name = "SPEC,SPEC,…", value_delimiter = ',', required = true)]
    pub strategies: Vec<String>,
    /// Games per strategy (the same game indices for all).
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    #[command(flatten)]
    pub pair: PairArgs,
}

pub fn cmd_league(a: LeagueArgs) -> Result<(), Error> {
    check_run(&a.pair, a.games)?;
    let specs: Vec<String> = a.strategies.iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
    if specs.len() < 2 {
        return Err(Error::Invalid(format!("--strategies {}: name at least two strategies", a.strategies.join(","))));
    }
    for (i, s) in specs.iter().enumerate() {
        if specs[..i].contains(s) {
            return Err(Error::Invalid(format!("--strategies: `{s}` is named twice")));
        }
    }
    let mut job = one_job(&a.game)?;
    check_key(&a.key, &job.game)?;
    let spec_refs: Vec<&str> = specs.iter().map(String::as_str).collect();
    crate::cli::register_ext(&mut job, &spec_refs, &a.game)?;
    let lineups =
        specs.iter().map(|s| lineup_with(&job.lineup, &a.key, s, "--strategies")).collect::<Result<Vec<_>, _>>()?;
    let pool = pool(crate::cli::threads_for(&job, a.pair.threads))?;
    let pb = progress(a.games * specs.len() as u64, !a.pair.quiet);
    pb.set_message(format!("league on {}", a.key));
    let p = play_paired(&pool, &job.game, &lineups, a.pair.seed, a.pair.first_game, a.games, &pb);
    pb.finish_and_clear();

    let camps = camps_for_key(&a.key, &job.game);
    let v = &job.variant;
    // Every unordered pair, in the order given (A before B), per camp.
    let mut pairs: Vec<(usize, usize, Camp)> = Vec::new();
    for i in 0..specs.len() {
        for j in i + 1..specs.len() {
            for &camp in &camps {
                pairs.push((i, j, camp));
            }
        }
    }
    let n = pairs.len();
    let mut c = Cols::default();
    c.str("setup", vec![v.setup.clone(); n]);
    c.str("rules", vec![v.rules.clone(); n]);
    c.str("agents", vec![v.agents.clone(); n]);
    c.str("key", vec![a.key.clone(); n]);
    c.str("camp", pairs.iter().map(|p| p.2.name().to_string()).collect());
    c.str("a", pairs.iter().map(|p| specs[p.0].clone()).collect());
    c.str("b", pairs.iter().map(|p| specs[p.1].clone()).collect());
    c.u64("games", vec![p.games(); n]);
    rate_cols(&mut c, "a", pairs.iter().map(|&(i, _, camp)| (p.wins(i, camp), p.games())));
    rate_cols(&mut c, "b", pairs.iter().map(|&(_, j, camp)| (p.wins(j, camp), p.games())));
    diff_cols(&mut c, pairs.iter().map(|&(i, j, camp)| p.diff(i, j, camp)));
    let league = c.frame()?;

    // Standings: each strategy's rate, and how many others it beats or loses to (significantly).
    let mut rows: Vec<(usize, Camp)> = Vec::new();
    for &camp in &camps {
        let mut order: Vec<usize> = (0..specs.len()).collect();
        // Highest rate first; ties keep the order given.
        order.sort_by_key(|&x| std::cmp::Reverse(p.wins(x, camp)));
        rows.extend(order.into_iter().map(|i| (i, camp)));
    }
    let others = |i: usize, camp: Camp, f: fn(&Diff) -> bool| -> u32 {
        (0..specs.len()).filter(|&j| j != i && f(&p.diff(i, j, camp))).count() as u32
    };
    let n = rows.len();
    let mut s = Cols::default();
    s.str("key", vec![a.key.clone(); n]);
    s.str("camp", rows.iter().map(|r| r.1.name().to_string()).collect());
    s.str("strategy", rows.iter().map(|r| specs[r.0].clone()).collect());
    s.u64("games", vec![p.games(); n]);
    rate_cols(&mut s, "", rows.iter().map(|&(i, camp)| (p.wins(i, camp), p.games())));
    s.0.push(Column::new(
        "beats".into(),
        rows.iter().map(|&(i, camp)| others(i, camp, Diff::better)).collect::<Vec<u32>>(),
    ));
    s.0.push(Column::new(
        "loses_to".into(),
        rows.iter().map(|&(i, camp)| others(i, camp, Diff::worse)).collect::<Vec<u32>>(),
    ));
    let standings = s.frame()?;

    let refs: Vec<(&str, &Lineup, &Tally)> =
        specs.iter().zip(&lineups).zip(&p.tallies).map(|((s, l), t)| (s.as_str(), l, t)).collect();
    let play = play_frame(&refs)?;
    let title = format!(
        "League on `{}`: every pair on the same {} games (seed {}); diff = A − B, paired 95% interval",
        a.key,
        p.games(),
        a.pair.seed
    );
    crate::output::print_and_write(
        &mut [
            Printed::new(&title, league, ""),
            Printed::new(
                "Standings (rate with Wilson 95% bounds; beats / loses_to: strategies it is significantly better / worse than)",
                standings,
                "standings",
            ),
            Printed::new(
                "How the games were played (lynch_hit_*: share of the lynched; the rest per game)",
                play,
                "play",
            ),
        ],
        &a.pair.out,
    )?;
    crate::output::report_faults(&crate::output::faults_of(&job.ext), p.forfeited, a.pair.out.as_deref())
}

// ---------------------------------------------------------------------------
// Columns

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_keeps_the_keys_strategy_and_a_camp_layer_lies_over_its_mix() {
        let base = Lineup::for_preset("classic");
        let same = lineup_with(&base, "mafia", "default", "--a").unwrap();
        assert_eq!(same.full_label(), base.full_label());
        let mut mixed = Lineup::default();
        mixed.apply("forum,mafia@0.5=forum:fake=1").unwrap();
        let over = lineup_with(&mixed, "mafia", "mafia:skip=0.2", "--a").unwrap();
        assert_eq!(over.mix_of(Camp::Mafia).len(), 1);
        assert_eq!(over.label(), "forum,mafia@0.5=forum:fake=1,mafia=mafia:skip=0.2");
        assert_eq!(lineup_with(&mixed, "mafia", "default", "--a").unwrap().label(), mixed.label());
    }

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
