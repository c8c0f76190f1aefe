//! `mafia duel`: strategy A against strategy B for one key (a role, a camp
//! or `default`), on the same games: each camp's win rate with both and the
//! paired difference ([`crate::stats::paired_diff`]).

use crate::args::{GameArgs, PairArgs, check_run, one_job, register_ext, threads_for};
use crate::error::Error;
use crate::exec::paired::{play_paired, pool, progress};
use crate::output::{Cols, Printed, diff_cols, play_frame, print_and_write, rate_cols};
use crate::stats::camps_dealt;
use clap::Args;
use mafia_agents::{Lineup, LineupError};
use mafia_engine::{Camp, Game, Role};

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
    let _claim = check_run(&a.pair, a.games)?;
    let mut job = one_job(&a.game)?;
    check_key(&a.key, &job.game)?;
    register_ext(&mut job, &[&a.a, &a.b], &a.game)?;
    let la = lineup_with(&job.lineup, &a.key, &a.a, "--a")?;
    let lb = lineup_with(&job.lineup, &a.key, &a.b, "--b")?;
    let pool = pool(threads_for(&job, a.pair.threads))?;
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
    print_and_write(
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
    let faults = crate::output::faults_of(&job.ext);
    crate::output::report_faults(&faults, p.forfeited, a.pair.out.as_deref())?;
    crate::output::check_faults(&faults, &a.game.ext.limits()?)
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
}
