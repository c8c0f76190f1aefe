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

use crate::args::{GameArgs, one_job};
use crate::args::{PairArgs, check_out};
use crate::error::Error;
use crate::exec::Job;
use crate::exec::paired::{Paired, play_paired, pool, progress};
use crate::output::{Cols, Printed, play_frame, rate_cols};
use crate::stats::Diff;
use clap::Args;
use mafia_agents::{Lineup, Param, STRATEGIES, Signal, SignalKind, Strategy, StrategyInfo, parse_spec};
use mafia_engine::{Camp, Role};
use polars::prelude::*;
use std::io::Write;

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

/// A setting: parameters changed from the default lineup, in catalogue order.
type Setting = Vec<(String, String)>;

fn setting_text(s: &Setting) -> String {
    if s.is_empty() {
        return "(default)".to_string();
    }
    s.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
}

/// An adaptive reply's setting played in every game (`--adaptive-base
/// best`): the fixed search's best, or the camp's usual layers (its mix
/// dropped) when that best was the default.
fn base_text(s: &Setting) -> String {
    if s.is_empty() { "(usual layers)".to_string() } else { setting_text(s) }
}

/// Where a parameter comes in the catalogue (for a stable order).
/// The parameters of how a seat reads the thread (`forum/read.rs`'s
/// reading class): every camp's, whichever unit declares them.
const READING: [&str; 4] = ["trust", "counterclaim", "coin", "coin_both"];

fn param_rank(name: &str) -> usize {
    STRATEGIES.iter().flat_map(|s| s.params.iter()).position(|p| p.name == name).unwrap_or(usize::MAX)
}

/// `s` with `name` set to `value`.
fn with(s: &Setting, name: &str, value: &str) -> Setting {
    let mut out: Setting = s.iter().filter(|(k, _)| k != name).cloned().collect();
    out.push((name.to_string(), value.to_string()));
    out.sort_by_key(|(k, _)| param_rank(k));
    out
}

/// One part of a lineup label: `None` for the default, else the key.
struct Part {
    key: Option<String>,
    name: String,
    params: Vec<(String, String)>,
}

/// Splits a lineup's label (`forum,mafia=mafia:bus=0.25`) into its parts.
fn label_parts(label: &str) -> Vec<Part> {
    let mut out = Vec::new();
    for (i, part) in label.split(',').enumerate() {
        let (key, spec) = if i == 0 {
            (None, part)
        } else {
            let (k, v) = part.split_once('=').expect("a keyed part of a label");
            (Some(k.to_string()), v)
        };
        let (name, params) = parse_spec(spec).expect("a label parses");
        out.push(Part { key, name, params });
    }
    out
}

/// Makes the lineups of settings for one camp from a base lineup.
struct Builder {
    base: Lineup,
    camp: Camp,
    /// The camp's roles the setup deals.
    roles: Vec<Role>,
    parts: Vec<Part>,
    /// An adaptive race: every setting is the camp's reply from night 1 in
    /// the games whose day 1 shows this signal (`CAMP?SIGNAL=…`).
    signal: Option<Signal>,
}

impl Builder {
    /// The base with `s` applied to the camp: the camp's part gets the
    /// parameters (its strategy kept if it takes them all, else `forum`),
    /// and a role's part that sets one of them gets the new value too (a
    /// role's parameters override its camp's).
    fn build(&self, s: &Setting) -> Result<Lineup, String> {
        let mut l = self.base.clone();
        if s.is_empty() {
            return Ok(l);
        }
        if let Some(signal) = self.signal {
            // Over whatever the camp plays (its mix kept): the reply's
            // parameters, from night 1 in the games that show the signal.
            l.set_with(&format!("{}?{signal}", self.camp.name()), "forum", s).map_err(|e| e.to_string())?;
            return Ok(l);
        }
        // Every other setting plays one way in every game.
        l.clear_mix(self.camp);
        let merge = |params: &[(String, String)]| -> Vec<(String, String)> {
            let mut out: Vec<(String, String)> = params.to_vec();
            for (k, v) in s {
                match out.iter_mut().find(|(pk, _)| pk == k) {
                    Some(slot) => slot.1 = v.clone(),
                    None => out.push((k.clone(), v.clone())),
                }
            }
            out
        };
        let takes_all = |name: &str, params: &[(String, String)]| {
            StrategyInfo::find(name).is_some_and(|i| {
                let accepted = i.accepted();
                params.iter().all(|(k, _)| accepted.iter().any(|p| p.name == k))
            })
        };
        let camp_name = self.camp.name();
        let (name, params) = match self.parts.iter().find(|p| p.key.as_deref() == Some(camp_name)) {
            Some(p) => (p.name.clone(), merge(&p.params)),
            None => {
                // The unit that plays the whole camp and takes every parameter, else `forum`.
                let unit = STRATEGIES
                    .iter()
                    .find(|u| u.is_forum() && u.name != "forum" && u.plays.camp(self.camp) && takes_all(u.name, s));
                (unit.map_or("forum", |u| u.name).to_string(), merge(&[]))
            }
        };
        let name = if takes_all(&name, &params) { name } else { "forum".to_string() };
        l.set_with(camp_name, &name, &params).map_err(|e| e.to_string())?;
        for p in &self.parts {
            let Some(role) = p.key.as_deref().and_then(Role::from_name) else { continue };
            if role.camp() != self.camp || !p.params.iter().any(|(k, _)| s.iter().any(|(sk, _)| sk == k)) {
                continue;
            }
            let params: Vec<(String, String)> = p
                .params
                .iter()
                .map(|(k, v)| (k.clone(), s.iter().find(|(sk, _)| sk == k).map_or_else(|| v.clone(), |x| x.1.clone())))
                .collect();
            l.set_with(role.name(), &p.name, &params).map_err(|e| e.to_string())?;
        }
        Ok(l)
    }

    /// How the camp's dealt roles play under a lineup: their strategies
    /// and parameters, and the camp's mix (a mixed default differs from
    /// its usual layers alone).
    fn effective(&self, l: &Lineup) -> Effective {
        // What the adaptive replies make of each role's configuration in
        // each alternative of the mix, each signal showing or not: the
        // replies' parameters as they play (written-out defaults and
        // replies overridden by later ones change nothing).
        let mut adapted = Vec::new();
        for p in 0..=l.most_alternatives() {
            let mut signals: Vec<Signal> = l.adaptive_of(self.camp).iter().map(|(s, _)| *s).collect();
            signals.extend(l.alternative_replies(self.camp, p).iter().map(|(s, _)| *s));
            for &r in &self.roles {
                let base = l.variant(&l.pick_for(r, p), r).1;
                for &sig in &signals {
                    let a = l.adapted(self.camp, p, &base, |s| s == sig);
                    if a != base {
                        adapted.push((sig, a));
                    }
                }
            }
        }
        (self.roles.iter().map(|&r| (l.for_role(r), *l.config(r))).collect(), l.mix_of(self.camp), adapted)
    }
}

/// How a camp's roles play under a lineup (see [`Builder::effective`]).
type Effective =
    (Vec<(Strategy, mafia_agents::Config)>, Vec<mafia_agents::MixPart>, Vec<(Signal, mafia_agents::Config)>);

/// One candidate of a race.
struct Candidate {
    setting: Setting,
    lineup: Lineup,
    /// Still racing (the default, the reference, always is).
    alive: bool,
    /// Why and when it left the race: (block, reason, diff to the best then).
    left: Option<(u32, String, Diff)>,
}

/// What a round ended with.
struct Round {
    number: u32,
    candidates: Vec<Candidate>,
    counts: Paired,
    best: usize,
    blocks: u32,
    games: u64,
    stop: &'static str,
}

impl Round {
    /// Candidate `i` against the round's best: when it left the race, else at the end.
    fn vs_best(&self, i: usize, camp: Camp) -> Diff {
        match &self.candidates[i].left {
            Some((_, _, d)) if i != self.best => *d,
            _ => self.counts.diff(i, self.best, camp),
        }
    }
}

/// Adds the counts of `local` (the live candidates `ids`) to `total` (all candidates).
fn merge_into(total: &mut Paired, local: &Paired, ids: &[usize]) {
    total.forfeited += local.forfeited;
    let (k, kl) = (total.k, local.k);
    for (l, &g) in ids.iter().enumerate() {
        total.tallies[g].merge(&local.tallies[l]);
        for (l2, &g2) in ids.iter().enumerate() {
            let src = local.disc[l * kl + l2];
            let dst = &mut total.disc[g * k + g2];
            for c in 0..Camp::COUNT {
                dst[c] += src[c];
            }
        }
    }
}

/// How a race searches (the options of `best-response` that shape it).
#[derive(Clone, Copy, Debug)]
pub struct RaceOpts {
    pub block: u64,
    pub max_games: u64,
    pub rounds: u32,
    pub tolerance: f64,
    pub seed: u64,
    pub first_game: u64,
    pub quiet: bool,
}

/// Races camp `camp`'s forum parameters on `job` (coordinate search, see
/// the module docs); returns the rounds, the games spent and the next
/// unplayed game index.
fn race(
    job: &Job,
    camp: Camp,
    signal: Option<Signal>,
    base: Option<&Lineup>,
    o: &RaceOpts,
    pool: &rayon::ThreadPool,
    pb: &indicatif::ProgressBar,
) -> Result<(Vec<Round>, u64, u64, Builder), Error> {
    let present = job.game.roles_present();
    let roles: Vec<Role> = present.iter().filter(|r| r.camp() == camp).collect();
    if roles.is_empty() {
        return Err(Error::Invalid(format!(
            "--camp {}: setup {} deals nobody of that camp",
            camp.name(),
            job.game.name()
        )));
    }
    let not_forum: Vec<String> = roles
        .iter()
        .filter(|&&r| job.lineup.for_role(r) != Strategy::Forum)
        .map(|&r| format!("{} plays {}", r.name(), job.lineup.strategy_name(job.lineup.for_role(r))))
        .collect();
    if !not_forum.is_empty() {
        return Err(Error::Invalid(format!(
            "--camp {}: best-response searches the parameters of the forum strategies, but with agents `{}` {}; \
             give the camp a forum strategy (e.g. --agents {},{}=forum)",
            camp.name(),
            job.lineup.label(),
            not_forum.join(", "),
            job.lineup.label(),
            camp.name()
        )));
    }
    // The parameters the camp's strategies read: those of the forum units
    // that play a dealt role of the camp, and every seat's reading of the
    // thread (`READING`: a mafioso's or bandit's model of what the town
    // believes, which decides whom they hunt and how they vote).
    let params: Vec<&Param> = {
        let mut ps: Vec<&Param> = STRATEGIES
            .iter()
            .filter(|s| s.is_forum() && !s.params.is_empty() && roles.iter().any(|&r| s.plays.role(r)))
            .flat_map(|s| s.params.iter())
            .collect();
        for p in STRATEGIES.iter().flat_map(|s| s.params.iter()).filter(|p| READING.contains(&p.name)) {
            if !ps.iter().any(|q| q.name == p.name) {
                ps.push(p);
            }
        }
        ps
    };
    // The lineup the settings lie over: the job's (its default), or a
    // given one (an adaptive race over the fixed search's best).
    let base = base.unwrap_or(&job.lineup);
    let builder =
        Builder { base: base.clone(), camp, roles: roles.clone(), parts: label_parts(&base.full_label()), signal };

    let mut spent = 0u64;
    let mut next = o.first_game;
    let mut rounds: Vec<Round> = Vec::new();
    let mut centre: Setting = Vec::new();
    for number in 1..=o.rounds {
        // The round's candidates: the default (the reference), the centre,
        // then one parameter changed at a time; each way of playing once.
        let mut candidates: Vec<Candidate> = Vec::new();
        let mut seen = Vec::new();
        let mut add = |s: Setting, cands: &mut Vec<Candidate>| -> Result<(), Error> {
            let l = builder
                .build(&s)
                .map_err(|e| Error::Invalid(format!("--camp {}: setting {}: {e}", camp.name(), setting_text(&s))))?;
            let eff = builder.effective(&l);
            if !seen.contains(&eff) {
                seen.push(eff);
                cands.push(Candidate { setting: s, lineup: l, alive: true, left: None });
            }
            Ok(())
        };
        add(Vec::new(), &mut candidates)?;
        add(centre.clone(), &mut candidates)?;
        if number == 1 {
            // A mixed camp: each of its alternatives, played in every game.
            for (_, name, params) in job.lineup.mix_of(camp) {
                if StrategyInfo::find(&name).is_some_and(|i| i.is_forum()) {
                    let mut s: Setting = params.clone();
                    s.sort_by_key(|(k, _)| param_rank(k));
                    add(s, &mut candidates)?;
                }
            }
        }
        let fixed = candidates.len();
        for p in &params {
            {
                for v in p.values.candidates() {
                    add(with(&centre, p.name, &v), &mut candidates)?;
                }
            }
        }
        if number > 1 && candidates.len() == fixed {
            break; // Nothing new to try around the centre.
        }
        let k = candidates.len();
        let mut counts = Paired::new(k, job.game.rules().day_cap);
        let mut best = 0usize;
        let mut blocks = 0u32;
        let mut games = 0u64;
        let stop;
        let when = signal.map_or(String::new(), |s| format!("if {s}: "));
        pb.set_message(format!("{when}round {number}: {k} candidates"));
        loop {
            let ids: Vec<usize> = (0..k).filter(|&i| candidates[i].alive).collect();
            let n = o.block.min((o.max_games - spent) / ids.len() as u64);
            let n = n.min(u64::MAX - next);
            if n == 0 {
                stop = "budget";
                break;
            }
            let lineups: Vec<Lineup> = ids.iter().map(|&i| candidates[i].lineup.clone()).collect();
            let local = play_paired(pool, &job.game, &lineups, o.seed, next, n, pb);
            merge_into(&mut counts, &local, &ids);
            next += n;
            games += n;
            spent += n * ids.len() as u64;
            blocks += 1;
            // The best so far: most wins, the earlier candidate on a tie.
            best = ids
                .iter()
                .copied()
                .max_by(|&x, &y| counts.wins(x, camp).cmp(&counts.wins(y, camp)).then(y.cmp(&x)))
                .unwrap_or(0);
            let mut contenders = 0;
            for &i in &ids {
                if i == best {
                    contenders += 1;
                    continue;
                }
                let d = counts.diff(i, best, camp);
                let within = |d: &Diff| d.lo > -o.tolerance && d.hi < o.tolerance;
                let reason = if d.worse() {
                    Some("worse".to_string())
                } else if within(&d) {
                    Some("equivalent to the best".to_string())
                } else if i == 0 {
                    None
                } else {
                    // Practically the same as an earlier live candidate: the race needs one of them.
                    (0..i)
                        .find(|&j| candidates[j].alive && within(&counts.diff(i, j, camp)))
                        .map(|j| format!("equivalent to {}", setting_text(&candidates[j].setting)))
                };
                if reason.is_none() {
                    contenders += 1;
                }
                if i == 0 {
                    // The default stays as the reference, out of contention when it is worse or equivalent.
                    candidates[0].left = reason.map(|r| (blocks, r, d));
                } else if let Some(r) = reason {
                    candidates[i].alive = false;
                    candidates[i].left = Some((blocks, r, d));
                }
            }
            if contenders == 1 {
                stop = "decided";
                break;
            }
        }
        if games == 0 && number > 1 {
            break; // The budget left cannot give every candidate a game.
        }
        if !o.quiet {
            let live = candidates.iter().filter(|c| c.alive).count();
            let when = signal.map_or(String::new(), |s| format!("if {s}: "));
            eprintln!(
                "{when}round {number}: {k} candidates, blocks of up to {} games: {blocks}, {live} left ({stop}); best: {}",
                o.block,
                setting_text(&candidates[best].setting)
            );
        }
        let best_setting = candidates[best].setting.clone();
        rounds.push(Round { number, candidates, counts, best, blocks, games, stop });
        if best_setting == centre || spent >= o.max_games {
            break;
        }
        centre = best_setting;
    }
    Ok((rounds, spent, next, builder))
}

/// The signals of `--signals` for a setup of `players` seats: `auto`'s
/// family, none, or the list given.
fn signals(text: &str, players: usize) -> Result<Vec<Signal>, Error> {
    let n = players as u8;
    let family = || {
        let mut v: Vec<Signal> = Vec::new();
        let mut add = |kind, threshold| {
            let s = Signal { kind, threshold, above: true };
            if !v.contains(&s) {
                v.push(s);
            }
        };
        for k in [0, n / 4, n / 2] {
            add(SignalKind::Passes, k);
        }
        add(SignalKind::Claims, 0);
        add(SignalKind::Claims, 1);
        add(SignalKind::Changes, 0);
        add(SignalKind::Changes, n / 8);
        add(SignalKind::Lynched, 0);
        v
    };
    match text.trim() {
        "auto" => Ok(family()),
        "none" => Ok(Vec::new()),
        list => list
            .split(',')
            .map(|t| {
                Signal::parse(t).ok_or_else(|| {
                    Error::Invalid(format!(
                        "--signals {text}: `{}` is no signal (NAME>K or NAME<K, NAME one of {}; or `auto`, `none`)",
                        t.trim(),
                        SignalKind::ALL.map(|k| k.name()).join(", ")
                    ))
                })
            })
            .collect(),
    }
}

/// The lineup of `job` in which camp `camp` plays the best parameters a
/// race finds against everyone else's (`balance --best-response`), and the
/// setting as text.
pub fn best_lineup(job: &Job, camp: Camp, o: &RaceOpts, pool: &rayon::ThreadPool) -> Result<(Lineup, String), Error> {
    let pb = indicatif::ProgressBar::hidden();
    let (rounds, _, _, _) = race(job, camp, None, None, o, pool, &pb)?;
    let last =
        rounds.last().ok_or_else(|| Error::Invalid(format!("--br-games {}: not enough for a race", o.max_games)))?;
    let best = &last.candidates[last.best];
    Ok((best.lineup.clone(), setting_text(&best.setting)))
}

pub fn cmd_best_response(a: BestResponseArgs) -> Result<(), Error> {
    check_out(&a.pair.out)?;
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
    let pool = pool(crate::args::threads_for(&job, a.pair.threads))?;
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
    let (rounds, mut spent, mut next, _) = race(&job, camp, None, None, &o, &pool, &pb)?;
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
        let (r, used, after, _) = race(&job, camp, Some(sig), over.as_ref(), &ao, &pool, &pb)?;
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
    let reply_text = |k: usize| {
        let l = last_of(k);
        let setting = setting_text(&l.candidates[l.best].setting);
        match races[k].0 {
            None => setting,
            Some(sig) if base_setting.is_empty() && a.adaptive_base == "default" => {
                format!("if {sig}, from night 1: {setting}")
            }
            Some(sig) => format!("{}; if {sig}, from night 1: {setting}", base_text(&base_setting)),
        }
    };
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
    let best_race = last_of(race_of_best);
    let best = &best_race.candidates[best_race.best];
    // The games counted (an external agent's forfeited games are left out).
    let games = c.games();
    let gain = c.diff(b, 0, camp);
    let v = &job.variant;
    let mut s = Cols::default();
    s.str("setup", vec![v.setup.clone()]);
    s.str("rules", vec![v.rules.clone()]);
    s.str("agents", vec![v.agents.clone()]);
    s.str("camp", vec![camp.name().to_string()]);
    rate_cols(&mut s, "default", std::iter::once((c.wins(0, camp), games)));
    s.str("best", vec![if b == 0 { last.candidates[0].lineup.label() } else { best.lineup.label() }]);
    s.str("setting", vec![if b == 0 { setting_text(&Vec::new()) } else { reply_text(race_of_best) }]);
    s.str(
        "reply",
        vec![match races[race_of_best].0 {
            _ if b == 0 => "default".to_string(),
            None => "fixed".to_string(),
            Some(sig) => format!("adaptive ({sig})"),
        }],
    );
    // The best reply in parts (for scripts): the setting played in every
    // game, and an adaptive reply's signal and its setting from night 1.
    let (part_base, part_signal, part_then) = match races[race_of_best].0 {
        _ if b == 0 => (String::new(), String::new(), String::new()),
        None => (setting_text(&best.setting), String::new(), String::new()),
        Some(sig) => (
            if a.adaptive_base == "best" { base_text(&base_setting) } else { "(default)".to_string() },
            sig.to_string(),
            setting_text(&best.setting),
        ),
    };
    s.str("base_setting", vec![part_base]);
    s.str("signal", vec![part_signal]);
    s.str("then", vec![part_then]);
    rate_cols(&mut s, "best", std::iter::once((c.wins(b, camp), games)));
    s.f64("gain", vec![gain.mean]);
    s.f64("gain_lo", vec![gain.lo]);
    s.f64("gain_hi", vec![gain.hi]);
    // How much any other setting of the fixed search's last round might still beat its best by.
    let others_hi =
        (0..last.candidates.len()).filter(|&i| i != last.best).map(|i| last.vs_best(i, camp).hi).reduce(f64::max);
    s.0.push(Column::new("others_hi".into(), vec![others_hi]));
    s.u64("games", vec![games]);
    s.str("measured_on", vec![measured.to_string()]);
    s.u64("blocks", vec![last.blocks as u64]);
    s.u64("games_total", vec![spent]);
    s.u64("candidates", vec![races.iter().flat_map(|(_, r)| r).map(|r| r.candidates.len() as u64).sum()]);
    s.u64("rounds", vec![races[0].1.len() as u64]);
    s.u64("adaptive_races", vec![(races.len() - 1) as u64]);
    s.str("stop", vec![last.stop.to_string()]);
    let summary = s.frame()?;

    // Every candidate of every round of every race.
    let mut rows: Vec<(Option<Signal>, &Round, usize)> = Vec::new();
    for (sig, rs) in &races {
        for r in rs {
            rows.extend((0..r.candidates.len()).map(|i| (*sig, r, i)));
        }
    }
    let mut t = Cols::default();
    t.str("signal", rows.iter().map(|(sig, _, _)| sig.map_or(String::new(), |s| s.to_string())).collect());
    t.0.push(Column::new("round".into(), rows.iter().map(|(_, r, _)| r.number).collect::<Vec<u32>>()));
    t.str("setting", rows.iter().map(|(_, r, i)| setting_text(&r.candidates[*i].setting)).collect());
    t.str("lineup", rows.iter().map(|(_, r, i)| r.candidates[*i].lineup.label()).collect());
    t.u64("games", rows.iter().map(|(_, r, i)| r.counts.tallies[*i].games).collect());
    rate_cols(&mut t, "", rows.iter().map(|(_, r, i)| (r.counts.wins(*i, camp), r.counts.tallies[*i].games)));
    // Against the round's best: when it left the race, else at the end.
    let diffs: Vec<Diff> = rows.iter().map(|(_, r, i)| r.vs_best(*i, camp)).collect();
    t.f64("vs_best", diffs.iter().map(|d| d.mean).collect());
    t.f64("vs_best_lo", diffs.iter().map(|d| d.lo).collect());
    t.f64("vs_best_hi", diffs.iter().map(|d| d.hi).collect());
    t.str(
        "status",
        rows.iter()
            .map(|(_, r, i)| {
                let cand = &r.candidates[*i];
                match &cand.left {
                    _ if *i == r.best => "best".to_string(),
                    Some((b, why, _)) if *i != 0 => format!("dropped after block {b}: {why}"),
                    Some((_, why, _)) => format!("reference: {why}"),
                    None if *i == 0 => "reference".to_string(),
                    None => format!("left at the end ({})", r.stop),
                }
            })
            .collect(),
    );
    let cands = t.frame()?;
    // Each race's best against the default, on the games measured.
    let mut rp = Cols::default();
    let measured_k: Vec<usize> = if measured == "confirmation" { replies.clone() } else { vec![0] };
    let pos = |k: usize| {
        if measured == "confirmation" { replies.iter().position(|&x| x == k).map(|i| i + 1) } else { Some(last.best) }
    };
    let reply_rows: Vec<(usize, Option<usize>)> =
        (0..races.len()).map(|k| (k, if measured_k.contains(&k) { pos(k) } else { None })).collect();
    rp.str(
        "reply",
        reply_rows
            .iter()
            .map(|&(k, _)| races[k].0.map_or("fixed".to_string(), |s| format!("adaptive ({s})")))
            .collect(),
    );
    rp.str(
        "setting",
        reply_rows
            .iter()
            .map(|&(k, i)| if i.is_some_and(|i| i > 0) { reply_text(k) } else { "(default)".to_string() })
            .collect(),
    );
    let reply_gain: Vec<Option<Diff>> =
        reply_rows.iter().map(|&(_, i)| i.filter(|&i| i > 0).map(|i| c.diff(i, 0, camp))).collect();
    rp.0.push(Column::new("gain".into(), reply_gain.iter().map(|d| d.map(|d| d.mean)).collect::<Vec<Option<f64>>>()));
    rp.0.push(Column::new("gain_lo".into(), reply_gain.iter().map(|d| d.map(|d| d.lo)).collect::<Vec<Option<f64>>>()));
    rp.0.push(Column::new("gain_hi".into(), reply_gain.iter().map(|d| d.map(|d| d.hi)).collect::<Vec<Option<f64>>>()));
    rp.u64("race_games", reply_rows.iter().map(|&(k, _)| races[k].1.iter().map(|r| r.games).sum()).collect());
    rp.u64(
        "candidates",
        reply_rows.iter().map(|&(k, _)| races[k].1.iter().map(|r| r.candidates.len() as u64).sum()).collect(),
    );
    let replies_frame = rp.frame()?;
    let best_lineup = if b == 0 { &last.candidates[0].lineup } else { &best.lineup };
    let play =
        play_frame(&[("default", &last.candidates[0].lineup, &c.tallies[0]), ("best", best_lineup, &c.tallies[b])])?;

    let on = match measured {
        "race" => format!("the same {games} games of round {}", last.number),
        _ => format!("the same {games} fresh games"),
    };
    let title = format!(
        "Best response of the {} camp: {spent} games in all; default and best on {on} (seed {}); \
         gain = best − default, paired 95% interval; others_hi: the most any other candidate might beat \
         the best by (upper bounds when it left the race)",
        camp.name(),
        a.pair.seed
    );
    let mut tables = [
        Printed::new(&title, summary, ""),
        Printed::new(
            "Each race's best reply against the default (gain: paired 95% interval, on the games measured; \
             a race whose best is the default has none): the fixed search, then each adaptive signal",
            replies_frame,
            "replies",
        ),
        Printed::new(
            "Candidates (signal: the adaptive race, empty for the fixed search; rate with Wilson 95% bounds; \
             vs_best: paired difference to the round's best when it left the race)",
            cands,
            "candidates",
        ),
        Printed::new(
            "How the default and the best played (lynch_hit_*: share of the lynched; the rest per game)",
            play,
            "play",
        ),
    ];
    let mut stdout = std::io::stdout().lock();
    for t in &tables {
        t.print(&mut stdout)?;
    }
    stdout.flush()?;
    if let Some(p) = &a.pair.out {
        for w in crate::output::write_frames(&mut tables, p).map_err(Error::Io)? {
            eprintln!("wrote {}", w.display());
        }
    }
    drop(stdout);
    crate::output::report_faults(&crate::output::faults_of(&job.ext), forfeited, a.pair.out.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;
    use mafia_engine::Preset;

    fn builder(agents: &str, camp: Camp) -> Builder {
        let mut base = Lineup::default();
        base.apply(agents).unwrap();
        let game = mafia_engine::Game::new(&Preset::find("classic").unwrap().setup()).unwrap();
        let roles = game.roles_present().iter().filter(|r| r.camp() == camp).collect();
        let parts = label_parts(&base.full_label());
        Builder { base, camp, roles, parts, signal: None }
    }

    #[test]
    fn a_setting_goes_to_the_camp_and_to_roles_that_set_it() {
        let b = builder("forum", Camp::Mafia);
        let l = b.build(&vec![("bus".into(), "0.25".into())]).unwrap();
        assert_eq!(l.label(), "forum,mafia=mafia:bus=0.25");
        let l = b.build(&vec![("whom".into(), "random".into())]).unwrap();
        assert_eq!(l.label(), "forum,mafia=forum:whom=random");
        // A role's own value is replaced too, and the camp keeps its others.
        let b = builder("forum,mafia=mafia:skip=0.5,commissar=reveal:on=at-once", Camp::Town);
        let l = b.build(&vec![("on".into(), "day2".into())]).unwrap();
        assert_eq!(l.label(), "forum,town=forum:on=day2,mafia=mafia:skip=0.5,commissar=reveal:on=day2");
        let b = builder("forum,mafia=mafia:skip=0.5", Camp::Mafia);
        let l = b.build(&vec![("bus".into(), "1".into())]).unwrap();
        assert_eq!(l.label(), "forum,mafia=mafia:skip=0.5:bus=1");
        assert_eq!(b.build(&Vec::new()).unwrap().label(), "forum,mafia=mafia:skip=0.5");
    }

    #[test]
    fn against_a_mix_the_default_is_the_mix_and_every_setting_is_pure() {
        let b = builder("forum,mafia@0.5=forum:fake=1,town@0.3=forum:pass_first=1", Camp::Mafia);
        let mix = b.build(&Vec::new()).unwrap();
        assert_eq!(mix.mix_of(Camp::Mafia).len(), 1);
        let pure = b.build(&vec![("kill".into(), "hunt".into())]).unwrap();
        assert_eq!(
            pure.label(),
            "forum,town@0.3=forum:pass_first=1,mafia=mafia:kill=hunt",
            "the other camp keeps its mix"
        );
        // The pure setting plays like the mix's usual layers, not like the mix.
        assert_ne!(b.effective(&mix), b.effective(&pure));
    }

    #[test]
    fn settings_that_play_the_same_are_one() {
        let b = builder("forum", Camp::Mafia);
        let d = b.effective(&b.build(&Vec::new()).unwrap());
        // The default value written out plays like the default.
        let same = b.effective(&b.build(&vec![("kill".into(), "hunt".into())]).unwrap());
        assert_eq!(d, same);
        let other = b.effective(&b.build(&vec![("kill".into(), "order".into())]).unwrap());
        assert_ne!(d, other);
    }

    #[test]
    fn settings_keep_catalogue_order() {
        let s = with(&with(&Vec::new(), "bus", "1"), "kill", "order");
        assert_eq!(setting_text(&s), "kill=order bus=1");
        assert_eq!(setting_text(&with(&s, "bus", "0")), "kill=order bus=0");
    }
}
