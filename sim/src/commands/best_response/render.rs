//! The tables of `best-response`: the summary, each race's best reply
//! against the default, every candidate, and how the default and the best
//! played.

use super::BestResponseArgs;
use super::search::{Round, Setting, base_text, setting_text};
use crate::error::Error;
use crate::exec::Job;
use crate::exec::paired::Paired;
use crate::output::{Cols, Printed, play_frame, rate_cols};
use crate::stats::Diff;
use mafia_agents::Signal;
use mafia_engine::Camp;
use polars::prelude::*;
use std::io::Write;

/// What the races and the confirmation found.
pub(super) struct Outcome {
    /// Each race with its signal (`None`: the fixed search) and its rounds.
    pub(super) races: Vec<(Option<Signal>, Vec<Round>)>,
    /// The races whose best is not the default.
    pub(super) replies: Vec<usize>,
    /// The default and the replies on the games measured.
    pub(super) counts: Paired,
    /// `confirmation` (fresh games) or `race` (the last round's).
    pub(super) measured: &'static str,
    /// The overall best: its index in `counts`, and its race.
    pub(super) best: usize,
    pub(super) race_of_best: usize,
    /// Games played in all.
    pub(super) spent: u64,
    /// What an adaptive reply lies over (`--adaptive-base best`).
    pub(super) base_setting: Setting,
    /// Games an external agent forfeited.
    pub(super) forfeited: u64,
}

/// Prints the tables and writes them beside `--out`.
pub(super) fn render(o: Outcome, job: &Job, camp: Camp, a: &BestResponseArgs) -> Result<(), Error> {
    let Outcome { races, replies, counts: c, measured, best: b, race_of_best, spent, base_setting, forfeited } = o;
    let last_of = |k: usize| races[k].1.last().expect("every race kept has a round");
    let last = last_of(0);
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
    let faults = crate::output::faults_of(&job.ext);
    crate::output::report_faults(&faults, forfeited, a.pair.out.as_deref())?;
    crate::output::check_faults(&faults, &a.game.ext.limits()?)
}
