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
//! Measured on the games that chose it, the best's gain would be biased
//! upwards (the winner of a race is partly the luckiest), so after the race
//! the best and the default play `--confirm` fresh games each (the next
//! indices, common random numbers again) and the gain is measured there.

use crate::cli::{GameArgs, Usage, one_job};
use crate::paired::{Cols, Diff, PairArgs, Paired, check_out, play_frame, play_paired, pool, progress, rate_cols};
use crate::runner::Job;
use crate::tables::Printed;
use clap::Args;
use mafia_agents::{Lineup, Param, STRATEGIES, Strategy, StrategyInfo, parse_spec};
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
    fn effective(&self, l: &Lineup) -> (Vec<(Strategy, mafia_agents::Config)>, Vec<mafia_agents::MixPart>) {
        (self.roles.iter().map(|&r| (l.for_role(r), *l.config(r))).collect(), l.mix_of(self.camp))
    }
}

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
    o: &RaceOpts,
    pool: &rayon::ThreadPool,
    pb: &indicatif::ProgressBar,
) -> Result<(Vec<Round>, u64, u64, Builder), Usage> {
    let present = job.game.roles_present();
    let roles: Vec<Role> = present.iter().filter(|r| r.camp() == camp).collect();
    if roles.is_empty() {
        return Err(Usage(format!("--camp {}: setup {} deals nobody of that camp", camp.name(), job.game.name())));
    }
    let not_forum: Vec<String> = roles
        .iter()
        .filter(|&&r| job.lineup.for_role(r) != Strategy::Forum)
        .map(|&r| format!("{} plays {}", r.name(), job.lineup.strategy_name(job.lineup.for_role(r))))
        .collect();
    if !not_forum.is_empty() {
        return Err(Usage(format!(
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
    let builder =
        Builder { base: job.lineup.clone(), camp, roles: roles.clone(), parts: label_parts(&job.lineup.full_label()) };

    let mut spent = 0u64;
    let mut next = o.first_game;
    let mut rounds: Vec<Round> = Vec::new();
    let mut centre: Setting = Vec::new();
    for number in 1..=o.rounds {
        // The round's candidates: the default (the reference), the centre,
        // then one parameter changed at a time; each way of playing once.
        let mut candidates: Vec<Candidate> = Vec::new();
        let mut seen = Vec::new();
        let mut add = |s: Setting, cands: &mut Vec<Candidate>| -> Result<(), Usage> {
            let l = builder
                .build(&s)
                .map_err(|e| Usage(format!("--camp {}: setting {}: {e}", camp.name(), setting_text(&s))))?;
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
        pb.set_message(format!("round {number}: {k} candidates"));
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
            eprintln!(
                "round {number}: {k} candidates, blocks of up to {} games: {blocks}, {live} left ({stop}); best: {}",
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

/// The lineup of `job` in which camp `camp` plays the best parameters a
/// race finds against everyone else's (`balance --best-response`), and the
/// setting as text.
pub fn best_lineup(job: &Job, camp: Camp, o: &RaceOpts, pool: &rayon::ThreadPool) -> Result<(Lineup, String), Usage> {
    let pb = indicatif::ProgressBar::hidden();
    let (rounds, _, _, _) = race(job, camp, o, pool, &pb)?;
    let last = rounds.last().ok_or_else(|| Usage(format!("--br-games {}: not enough for a race", o.max_games)))?;
    let best = &last.candidates[last.best];
    Ok((best.lineup.clone(), setting_text(&best.setting)))
}

pub fn cmd_best_response(a: BestResponseArgs) -> Result<(), Usage> {
    check_out(&a.pair.out)?;
    if !(0.0..=0.5).contains(&a.tolerance) {
        return Err(Usage(format!("--tolerance {}: expected 0..=0.5 (a difference of win rates)", a.tolerance)));
    }
    let camp = Camp::from_name(&a.camp)
        .ok_or_else(|| Usage(format!("--camp {}: expected one of town, mafia, bandits", a.camp)))?;
    let job = one_job(&a.game)?;
    // Agents in other processes ask for a few threads per process.
    let pool = pool(crate::cli::threads_for(&job, a.pair.threads))?;
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
    let (rounds, mut spent, next, _) = race(&job, camp, &o, &pool, &pb)?;
    let Some(last) = rounds.last() else {
        return Err(Usage(format!("--max-games {}: not enough for one game of each candidate", a.max_games)));
    };
    if last.games == 0 {
        return Err(Usage(format!(
            "--max-games {}: not enough for one game of each of the {} candidates",
            a.max_games,
            last.candidates.len()
        )));
    }
    let best = &last.candidates[last.best];
    // Games an external agent forfeited (left out of every candidate's count).
    let mut forfeited: u64 = rounds.iter().map(|r| r.counts.forfeited).sum();
    // The default and the best: on fresh games (confirmation), else on the last round's.
    let (c, b, measured) = if a.confirm > 0 && last.best != 0 {
        let n = a.confirm.min(u64::MAX - next);
        pb.set_length(spent + 2 * n);
        pb.set_message("confirmation");
        let lineups = [last.candidates[0].lineup.clone(), best.lineup.clone()];
        let conf = play_paired(&pool, &job.game, &lineups, a.pair.seed, next, n, &pb);
        forfeited += conf.forfeited;
        spent += 2 * n;
        (conf, 1, "confirmation")
    } else {
        (last.counts.clone(), last.best, "race")
    };
    pb.finish_and_clear();
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
    s.str("best", vec![best.lineup.label()]);
    s.str("setting", vec![setting_text(&best.setting)]);
    rate_cols(&mut s, "best", std::iter::once((c.wins(b, camp), games)));
    s.f64("gain", vec![gain.mean]);
    s.f64("gain_lo", vec![gain.lo]);
    s.f64("gain_hi", vec![gain.hi]);
    // How much any other setting of the last round might still beat the best by.
    let others_hi =
        (0..last.candidates.len()).filter(|&i| i != last.best).map(|i| last.vs_best(i, camp).hi).reduce(f64::max);
    s.0.push(Column::new("others_hi".into(), vec![others_hi]));
    s.u64("games", vec![games]);
    s.str("measured_on", vec![measured.to_string()]);
    s.u64("blocks", vec![last.blocks as u64]);
    s.u64("games_total", vec![spent]);
    s.u64("candidates", vec![rounds.iter().map(|r| r.candidates.len() as u64).sum()]);
    s.u64("rounds", vec![rounds.len() as u64]);
    s.str("stop", vec![last.stop.to_string()]);
    let summary = s.frame().map_err(|e| Usage(format!("building the table: {e}")))?;

    // Every candidate of every round.
    let mut rows: Vec<(&Round, usize)> = Vec::new();
    for r in &rounds {
        rows.extend((0..r.candidates.len()).map(|i| (r, i)));
    }
    let mut t = Cols::default();
    t.0.push(Column::new("round".into(), rows.iter().map(|(r, _)| r.number).collect::<Vec<u32>>()));
    t.str("setting", rows.iter().map(|(r, i)| setting_text(&r.candidates[*i].setting)).collect());
    t.str("lineup", rows.iter().map(|(r, i)| r.candidates[*i].lineup.label()).collect());
    t.u64("games", rows.iter().map(|(r, i)| r.counts.tallies[*i].games).collect());
    rate_cols(&mut t, "", rows.iter().map(|(r, i)| (r.counts.wins(*i, camp), r.counts.tallies[*i].games)));
    // Against the round's best: when it left the race, else at the end.
    let diffs: Vec<Diff> = rows.iter().map(|(r, i)| r.vs_best(*i, camp)).collect();
    t.f64("vs_best", diffs.iter().map(|d| d.mean).collect());
    t.f64("vs_best_lo", diffs.iter().map(|d| d.lo).collect());
    t.f64("vs_best_hi", diffs.iter().map(|d| d.hi).collect());
    t.str(
        "status",
        rows.iter()
            .map(|(r, i)| {
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
    let cands = t.frame().map_err(|e| Usage(format!("building the table: {e}")))?;
    let play =
        play_frame(&[("default", &last.candidates[0].lineup, &c.tallies[0]), ("best", &best.lineup, &c.tallies[b])])
            .map_err(|e| Usage(format!("building the table: {e}")))?;

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
            "Candidates (rate with Wilson 95% bounds; vs_best: paired difference to the round's best when it left the race)",
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
        for w in crate::tables::write_frames(&mut tables, p).map_err(Usage)? {
            eprintln!("wrote {}", w.display());
        }
    }
    drop(stdout);
    crate::tables::report_faults(&crate::tables::faults_of(&job.ext), forfeited, a.pair.out.as_deref()).map_err(Usage)
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
        Builder { base, camp, roles, parts }
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
