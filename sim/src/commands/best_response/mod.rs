//! `mafia best-response --camp C`: how much camp C could gain by playing
//! its strategies' parameters differently while everyone else keeps theirs
//! — the exploitability of the strategy set for that camp.
//!
//! The search is over the parameters of the `forum` family's strategies
//! that play roles of camp C the setup deals (for the mafia of `classic`:
//! `mafia`, `check` and `night`; for its town: `town`, `reveal`, `check`
//! and `night`), and for the mafia and the bandits also how they read the
//! thread (`trust`, `counterclaim`, `coin`, `coin_both`: their model of
//! what the town believes, which chooses whom they hunt and vote). A
//! round tries every value of one parameter at a time, from a centre (the
//! default lineup in round 1, the best found so far after it): coordinate
//! search. Settings that play exactly like one already listed are tried once.
//! When camp C plays a mix (`C@SHARE=…`), the default is the mix, and every
//! other candidate plays one way in every game (its mix dropped, the
//! setting on the camp's usual layers): round 1 also tries each
//! alternative of the mix alone. The
//! best reply to a mix is always such a pure setting.
//!
//! A round is a race with common random numbers. Every live candidate plays
//! the same block of game indices (the same deals and streams); after each
//! block a candidate is dropped when its paired difference to the current
//! best is significantly below 0 (the upper bound of the 95% interval below
//! 0), or when the interval lies within ±`tolerance` of the best (it plays
//! practically the same, and the race needs only one of them). The round
//! ends when the best is the only candidate left that could still matter,
//! or when the budget (`--max-games`, all candidates' games together) is
//! spent. The default lineup races in every round as the reference and is
//! never dropped, so the gain of the best over it is measured on the same
//! games. Each round plays fresh game indices.
//!
//! The summary also gives `others_hi`: the largest upper bound of any other
//! candidate's paired difference to the best (when it left the race), so
//! "nothing tried beats the best by more than this" when the best is the
//! default and the gain is 0.
//!
//! **Adaptive replies** (`--signals`, default `auto`): a camp that can
//! tell which setting of its opponents' mix it faces, from what the first
//! day shows, may answer each differently. For each signal of a family
//! read off day 1's public record (PASS votes, claims, vote changes, a
//! lynch, at a few thresholds: `auto`), one more race of the same kind
//! searches the camp's settings as its reply from night 1 in the games
//! that show the signal (`CAMP?SIGNAL=…` over the default, which keeps
//! playing day 1 and the other games). Each race has its own budget
//! (`--adaptive-games`) and fresh game indices. The bests of every race
//! are confirmed on the same fresh games, and the summary reports the
//! largest gain with the reply that found it (the `replies` table has
//! each race's).
//!
//! Measured on the games that chose it, the best's gain would be biased
//! upwards (the winner of a race is partly the luckiest), so after the race
//! the best and the default play `--confirm` fresh games each (the next
//! indices, common random numbers again) and the gain is measured there.

mod render;
mod search;
mod signals;

pub use search::{RaceOpts, best_lineup};

use crate::args::{GameArgs, PairArgs, one_job, threads_for};
use crate::error::Error;
use crate::exec::paired::{play_paired, pool, progress};
use clap::Args;
use mafia_agents::{Lineup, Signal};
use mafia_engine::Camp;
use render::{Outcome, render};
use search::{Round, race};
use signals::signals;

#[derive(Args, Debug)]
pub struct BestResponseArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The camp whose parameters are searched: town, mafia or bandits.
    #[arg(long, value_name = "CAMP")]
    pub camp: String,
    /// Games per block of the race (every live candidate plays each block).
    #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub block: u64,
    /// The budget: games of all candidates together, all rounds.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_games: u64,
    /// Rounds of coordinate search; each starts from the best found before.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10))]
    pub rounds: u32,
    /// After the race the best and the default play this many fresh games each, and the gain
    /// is measured there (0: on the race's own games).
    #[arg(long, value_name = "GAMES", default_value_t = 20_000)]
    pub confirm: u64,
    /// Drop a candidate whose paired interval to the best lies within ±this (0 = never).
    #[arg(long, default_value_t = 0.0025)]
    pub tolerance: f64,
    /// Adaptive replies: `auto` (a family read off the first day: PASS votes, claims, vote
    /// changes, a lynch, at a few thresholds), `none`, or signals `NAME>K`/`NAME<K`,
    /// comma-separated; each signal races the camp's settings as its reply from night 1 in the
    /// games that show it.
    #[arg(long, value_name = "auto|none|SIGNALS", default_value = "auto")]
    pub signals: String,
    /// What an adaptive reply lies over: `default` (the camp's default lineup, its mix kept: the
    /// exploitability of the default) or `best` (the fixed search's best setting, played in
    /// every game: a pure strategy, as a double oracle's oracle needs).
    #[arg(long, value_name = "default|best", default_value = "default", value_parser = ["default", "best"])]
    pub adaptive_base: String,
    /// The budget of each adaptive race (games of all its candidates together, all rounds).
    #[arg(long, value_name = "GAMES", default_value_t = 500_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub adaptive_games: u64,
    #[command(flatten)]
    pub pair: PairArgs,
}

pub fn cmd_best_response(a: BestResponseArgs) -> Result<(), Error> {
    let _claim = crate::args::claim_out(&a.pair.out, None)?;
    if !(0.0..=0.5).contains(&a.tolerance) {
        return Err(Error::Invalid(format!(
            "--tolerance {}: expected 0..=0.5 (a difference of win rates)",
            a.tolerance
        )));
    }
    let camp = Camp::from_name(&a.camp)
        .ok_or_else(|| Error::Invalid(format!("--camp {}: expected one of town, mafia, bandits", a.camp)))?;
    let job = one_job(&a.game)?;
    // Agents in other processes ask for a few threads per process.
    let pool = pool(threads_for(&job, a.pair.threads))?;
    let pb = progress(a.max_games, !a.pair.quiet);
    let o = RaceOpts {
        block: a.block,
        max_games: a.max_games,
        rounds: a.rounds,
        tolerance: a.tolerance,
        seed: a.pair.seed,
        first_game: a.pair.first_game,
        quiet: a.pair.quiet,
    };
    let sigs = signals(&a.signals, job.game.players())?;
    if a.confirm == 0 && !sigs.is_empty() {
        return Err(Error::Invalid(
            "--confirm 0 measures a reply on its own race's games, which the adaptive races do not share: \
             give --confirm games, or --signals none"
                .to_string(),
        ));
    }
    pb.set_length(a.max_games + sigs.len() as u64 * a.adaptive_games);
    let (rounds, mut spent, mut next) = race(&job, camp, None, None, &o, &pool, &pb)?;
    let Some(first_last) = rounds.last() else {
        return Err(Error::Invalid(format!("--max-games {}: not enough for one game of each candidate", a.max_games)));
    };
    if first_last.games == 0 {
        return Err(Error::Invalid(format!(
            "--max-games {}: not enough for one game of each of the {} candidates",
            a.max_games,
            first_last.candidates.len()
        )));
    }
    // The adaptive races: per signal, the camp's settings as its reply from
    // night 1 in the games that show it; each on fresh game indices.
    // `--adaptive-base best`: the fixed search's best, played in every game
    // (the camp's usual layers when that best is its default mix).
    let fixed_best = &first_last.candidates[first_last.best];
    let base_setting = match a.adaptive_base.as_str() {
        "best" => fixed_best.setting.clone(),
        _ => Vec::new(),
    };
    let over: Option<Lineup> = match a.adaptive_base.as_str() {
        "best" if fixed_best.setting.is_empty() => {
            let mut l = job.lineup.clone();
            l.clear_mix(camp);
            Some(l)
        }
        "best" => Some(fixed_best.lineup.clone()),
        _ => None,
    };
    let mut races: Vec<(Option<Signal>, Vec<Round>)> = vec![(None, rounds)];
    for &sig in &sigs {
        let ao = RaceOpts { max_games: a.adaptive_games, first_game: next, ..o };
        let (r, used, after) = race(&job, camp, Some(sig), over.as_ref(), &ao, &pool, &pb)?;
        spent += used;
        next = after;
        if r.last().is_some_and(|l| l.games > 0) {
            races.push((Some(sig), r));
        }
    }
    let last_of = |k: usize| races[k].1.last().expect("every race kept has a round");
    let last = last_of(0);
    // The replies measured: the default, then each race's best unless it is the default.
    let replies: Vec<usize> = (0..races.len()).filter(|&k| last_of(k).best != 0).collect();
    // Games an external agent forfeited (left out of every candidate's count).
    let mut forfeited: u64 = races.iter().flat_map(|(_, r)| r).map(|r| r.counts.forfeited).sum();
    // The default and the replies: on fresh games (confirmation), else on the last round's.
    let (c, measured) = if a.confirm > 0 && !replies.is_empty() {
        let n = a.confirm.min(u64::MAX - next);
        pb.set_length(spent + (replies.len() as u64 + 1) * n);
        pb.set_message("confirmation");
        let mut lineups = vec![last.candidates[0].lineup.clone()];
        lineups.extend(replies.iter().map(|&k| last_of(k).candidates[last_of(k).best].lineup.clone()));
        let conf = play_paired(&pool, &job.game, &lineups, a.pair.seed, next, n, &pb);
        forfeited += conf.forfeited;
        spent += (replies.len() as u64 + 1) * n;
        (conf, "confirmation")
    } else {
        (last.counts.clone(), "race")
    };
    pb.finish_and_clear();
    // The overall best: the reply with the largest measured gain (index in
    // `c`, and its race), else the default.
    let (b, race_of_best) = match measured {
        "confirmation" => (1..=replies.len())
            .max_by(|&x, &y| c.diff(x, 0, camp).mean.total_cmp(&c.diff(y, 0, camp).mean).then(y.cmp(&x)))
            .map_or((0, 0), |i| (i, replies[i - 1])),
        _ => (last.best, 0),
    };
    render(
        Outcome { races, replies, counts: c, measured, best: b, race_of_best, spent, base_setting, forfeited },
        &job,
        camp,
        &a,
    )
}
