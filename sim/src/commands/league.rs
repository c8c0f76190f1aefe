//! `mafia league`: a round-robin of strategies for one key, on the same
//! games: every pair's paired difference, and standings.

use super::duel::{check_key, lineup_with};
use crate::args::{GameArgs, PairArgs, check_run, one_job, register_ext, threads_for};
use crate::error::Error;
use crate::exec::paired::{play_paired, pool, progress};
use crate::output::{Cols, Printed, diff_cols, play_frame, print_and_write, rate_cols};
use crate::stats::{Diff, Tally, camps_dealt};
use clap::Args;
use mafia_agents::Lineup;
use mafia_engine::{Camp, Game, Role};
use polars::prelude::*;

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
    let _claim = check_run(&a.pair, a.games)?;
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
    register_ext(&mut job, &spec_refs, &a.game)?;
    let lineups =
        specs.iter().map(|s| lineup_with(&job.lineup, &a.key, s, "--strategies")).collect::<Result<Vec<_>, _>>()?;
    let pool = pool(threads_for(&job, a.pair.threads))?;
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
    print_and_write(
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
    let faults = crate::output::faults_of(&job.ext);
    crate::output::report_faults(&faults, p.forfeited, a.pair.out.as_deref())?;
    crate::output::check_faults(&faults, &a.game.ext.limits()?)
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
