//! `mafia moves`: what each role's own move is worth to its camp. For every
//! role a setup deals that makes a move of its own (a night move, the Role
//! Prostitute's borrowing, the Chosen's secret votes, the Deputy's checks
//! once promoted), the lineup plays three ways on the same games: the
//! role's usual move, a uniformly random legal move, and no move
//! (`night:move=usual|random|none` on that role alone; everything else,
//! votes and claims included, plays as usual). The camp's win rate with
//! the usual move minus each yardstick's is a paired difference with its
//! 95% interval (see [`crate::exec::paired`]).
//!
//! A role whose usual move does not beat both yardsticks does nothing
//! useful with what it knows; `--check` makes a role whose usual move is
//! significantly *worse* than either a failure (exit code 1), which CI runs
//! at a small size on every preset.

use crate::args::{GameArgs, PairArgs};
use crate::error::Error;
use crate::exec::paired::{play_paired, pool, progress};
use crate::output::{Cols, Printed, rate_cols, write_frames};
use crate::stats::Diff;
use clap::Args;
use mafia_agents::Lineup;
use mafia_engine::{NightAbility, Role};
use polars::prelude::*;
use std::io::Write;

#[derive(Args, Debug)]
pub struct MovesArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Only these roles (comma-separated); default: every role the setup deals that moves.
    #[arg(long, value_name = "ROLE,ROLE,…", value_delimiter = ',')]
    pub roles: Vec<String>,
    /// Games per variant (the same game indices for every variant).
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Exit with code 1 when some role's usual move is significantly worse than a random move or no move.
    #[arg(long)]
    pub check: bool,
    /// With --check: roles whose usual move may be worse (`ROLE@SETUP`, comma-separated), for a weakness the book documents with its figure (docs/src/research/play.md).
    #[arg(long, value_name = "ROLE@SETUP,…", value_delimiter = ',', requires = "check")]
    pub allow: Vec<String>,
    #[command(flatten)]
    pub pair: PairArgs,
}

/// Whether `role` makes a move of its own that `night:move` changes.
pub fn moves(role: Role) -> bool {
    role.info().night != NightAbility::None || matches!(role, Role::Deputy | Role::Chosen)
}

/// One role's row: its camp's win rate with each way of moving.
struct Row {
    setup: String,
    rules: String,
    agents: String,
    role: Role,
    games: u64,
    wins: [u64; 3],
    vs_random: Diff,
    vs_none: Diff,
}

impl Row {
    fn verdict(&self) -> &'static str {
        match (self.vs_random.better(), self.vs_none.better(), self.vs_random.worse() || self.vs_none.worse()) {
            (_, _, true) => "worse than a yardstick",
            (true, true, _) => "beats both",
            (true, false, _) => "beats random only",
            (false, true, _) => "beats no move only",
            (false, false, _) => "undecided",
        }
    }
}

pub fn cmd_moves(a: MovesArgs) -> Result<(), Error> {
    let _claim = crate::args::claim_out(&a.pair.out, None)?;
    if a.pair.first_game.checked_add(a.games).is_none() {
        return Err(Error::Invalid(format!(
            "--first-game {} with --games {}: past the last game index",
            a.pair.first_game, a.games
        )));
    }
    let mut wanted = Vec::new();
    for name in a.roles.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        let role = Role::from_name(name).ok_or_else(|| Error::Invalid(format!("--roles {name}: no such role")))?;
        if !moves(role) {
            return Err(Error::Invalid(format!("--roles {name}: the {name} makes no move of his own")));
        }
        wanted.push(role);
    }
    for x in a.allow.iter().map(|x| x.trim()) {
        let ok = x.split_once('@').is_some_and(|(r, s)| Role::from_name(r).is_some_and(moves) && !s.is_empty());
        if !ok {
            return Err(Error::Invalid(format!("--allow {x}: give ROLE@SETUP, a role that moves and a setup name")));
        }
    }
    let jobs = crate::args::jobs(&a.game, &[])?;
    for r in &wanted {
        if !jobs.iter().any(|j| j.game.roles_present().contains(*r)) {
            return Err(Error::Invalid(format!("--roles {}: no setup given deals a {}", r.name(), r.name())));
        }
    }
    let mut rows = Vec::new();
    for job in &jobs {
        let present = job.game.roles_present();
        let roles: Vec<Role> = Role::ALL
            .into_iter()
            .filter(|&r| present.contains(r) && moves(r) && (wanted.is_empty() || wanted.contains(&r)))
            .collect();
        if roles.is_empty() {
            continue;
        }
        // The usual lineup, then each role's random and idle moves.
        let mut lineups: Vec<Lineup> = vec![job.lineup.clone()];
        for &r in &roles {
            for how in ["random", "none"] {
                let mut l = job.lineup.clone();
                l.set_role_param(r, "move", how)
                    .map_err(|e| Error::Setup(format!("setup {}: {e}", job.game.name())))?;
                lineups.push(l);
            }
        }
        let threads = crate::args::threads_for(job, a.pair.threads);
        let pool = pool(threads)?;
        let pb = progress(a.games * lineups.len() as u64, !a.pair.quiet);
        pb.set_message(format!("moves of {}", job.game.name()));
        let p = play_paired(&pool, &job.game, &lineups, a.pair.seed, a.pair.first_game, a.games, &pb);
        pb.finish_and_clear();
        let v = &job.variant;
        for (i, &r) in roles.iter().enumerate() {
            let (random, none) = (1 + 2 * i, 2 + 2 * i);
            let camp = r.camp();
            rows.push(Row {
                setup: v.setup.clone(),
                rules: v.rules.clone(),
                agents: v.agents.clone(),
                role: r,
                games: p.games(),
                wins: [p.wins(0, camp), p.wins(random, camp), p.wins(none, camp)],
                vs_random: p.diff(0, random, camp),
                vs_none: p.diff(0, none, camp),
            });
        }
    }
    if rows.is_empty() {
        return Err(Error::Invalid("no setup given deals a role that makes a move of its own".into()));
    }
    let frame = frame(&rows)?;
    let title = format!(
        "What each role's own move is worth to its camp: the usual move against a random legal move and against no move, \
         everything else alike, on the same {} games (seed {}); gain = usual − yardstick, paired 95% interval",
        a.games, a.pair.seed
    );
    let mut tables = [Printed::new(&title, frame, "")];
    let mut stdout = std::io::stdout().lock();
    for t in tables.iter() {
        t.print(&mut stdout)?;
    }
    stdout.flush()?;
    if let Some(p) = &a.pair.out {
        for w in write_frames(&mut tables, p).map_err(Error::Io)? {
            eprintln!("wrote {}", w.display());
        }
    }
    let allowed = |r: &Row| a.allow.iter().any(|x| x.trim() == format!("{}@{}", r.role.name(), r.setup));
    let worse: Vec<String> = rows
        .iter()
        .filter(|r| (r.vs_random.worse() || r.vs_none.worse()) && !allowed(r))
        .map(|r| format!("{} in {}", r.role.name(), r.setup))
        .collect();
    if a.check && !worse.is_empty() {
        return Err(Error::CheckFailed(format!(
            "--check: the usual move is significantly worse than a random move or no move for {}",
            worse.join(", ")
        )));
    }
    Ok(())
}

fn frame(rows: &[Row]) -> PolarsResult<DataFrame> {
    let mut c = Cols::default();
    c.str("setup", rows.iter().map(|r| r.setup.clone()).collect());
    c.str("rules", rows.iter().map(|r| r.rules.clone()).collect());
    c.str("agents", rows.iter().map(|r| r.agents.clone()).collect());
    c.str("role", rows.iter().map(|r| r.role.name().to_string()).collect());
    c.str("camp", rows.iter().map(|r| r.role.camp().name().to_string()).collect());
    c.u64("games", rows.iter().map(|r| r.games).collect());
    for (i, name) in ["usual", "random", "none"].into_iter().enumerate() {
        rate_cols(&mut c, name, rows.iter().map(|r| (r.wins[i], r.games)));
    }
    for (name, diffs) in [
        ("gain_random", rows.iter().map(|r| r.vs_random).collect::<Vec<Diff>>()),
        ("gain_none", rows.iter().map(|r| r.vs_none).collect()),
    ] {
        c.f64(name, diffs.iter().map(|d| d.mean).collect());
        c.f64(&format!("{name}_lo"), diffs.iter().map(|d| d.lo).collect());
        c.f64(&format!("{name}_hi"), diffs.iter().map(|d| d.hi).collect());
    }
    c.str("verdict", rows.iter().map(|r| r.verdict().to_string()).collect());
    c.frame()
}
