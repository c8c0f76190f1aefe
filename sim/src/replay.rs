//! `mafia replay`: one game told as a story, or as JSON lines — the same
//! game the runner plays for that (seed, index), because it uses the same
//! worker and streams, with the engine's event log switched on.

use crate::runner::Job;
use mafia_agents::{Worker, master_key};
use mafia_engine::{Event, LynchResult, MissReason, PlayerSet, Publication, Role, Seat, Vote};
use serde_json::{Value, json};
use std::fmt::Write;

/// Plays game `index` of the run with master seed `seed` and tells it.
pub fn replay(job: &Job, seed: u64, index: u64, as_json: bool) -> String {
    let mut w = Worker::new(job.lineup.clone(), master_key(seed));
    let mut log: Vec<Event> = Vec::new();
    let _ = w.play(&job.game, index, &mut log);
    let roles = w.state.roles().to_vec();
    if as_json {
        let mut out = String::new();
        let head = json!({"event": "game", "setup": job.variant.setup, "rules": job.variant.rules,
            "agents": job.variant.agents, "seed": seed, "game": index, "players": roles.len()});
        writeln!(out, "{head}").unwrap();
        for e in &log {
            writeln!(out, "{}", event_json(e)).unwrap();
        }
        out
    } else {
        story(job, seed, index, &roles, &log)
    }
}

fn p(s: Seat) -> String {
    format!("P{}", s as u32 + 1)
}

fn set(s: PlayerSet) -> String {
    s.iter().map(p).collect::<Vec<_>>().join(" ")
}

fn set_json(s: PlayerSet) -> Value {
    Value::from(s.iter().map(|x| x as u64 + 1).collect::<Vec<_>>())
}

fn vote_text(v: Vote) -> String {
    match v {
        Vote::For(t) => p(t),
        Vote::Pass => "PASS".into(),
    }
}

fn publication_text(x: &Publication) -> String {
    let mut parts = Vec::new();
    if let Some(r) = x.claim {
        parts.push(format!("claims {r}"));
    }
    for c in mafia_engine::Camp::ALL {
        let s = x.camps[c as usize];
        if !s.is_empty() {
            parts.push(format!("names {} as {c}", set(s)));
        }
    }
    if parts.is_empty() { "(nothing)".into() } else { parts.join("; ") }
}

fn publication_json(x: &Publication) -> Value {
    json!({
        "claim": x.claim.map(|r| r.name()),
        "town": set_json(x.camps[0]), "mafia": set_json(x.camps[1]), "bandits": set_json(x.camps[2]),
    })
}

fn story(job: &Job, seed: u64, index: u64, roles: &[Role], log: &[Event]) -> String {
    let who = |s: Seat| format!("{} ({})", p(s), roles[s as usize]);
    let mut o = String::new();
    let rules = if job.variant.rules.is_empty() { "default rules".to_string() } else { job.variant.rules.clone() };
    writeln!(
        o,
        "Game {index} of seed {seed}: setup {} ({} players), agents {}, {rules}",
        job.variant.setup,
        roles.len(),
        job.variant.agents
    )
    .unwrap();
    let deal: Vec<String> = (0..roles.len() as Seat).map(who).collect();
    writeln!(o, "Deal: {}", deal.join(", ")).unwrap();
    for e in log {
        let line = match *e {
            Event::Deal { .. } => continue,
            Event::DayStart { day, alive } => format!("\nDay {day}. Alive: {}", set(alive)),
            Event::NightStart { night, alive } => format!("\nNight {night}. Alive: {}", set(alive)),
            Event::Absent { seat } => format!("  {} is absent", who(seat)),
            Event::Modkill { seat } => format!("  {} is modkilled (C15)", who(seat)),
            Event::Post { seat, what } => {
                format!("  {} posts: {}", who(seat), publication_text(&what))
            }
            Event::Vote { seat, vote, change: false } => format!("  {} votes {}", who(seat), vote_text(vote)),
            Event::Vote { seat, vote, change: true } => {
                format!("  {} changes his vote to {}", who(seat), vote_text(vote))
            }
            Event::Illegal { seat, what } => format!("  {}: illegal {what}, ignored", who(seat)),
            Event::Lynch(r) => match r {
                LynchResult::NoVoteModkillDay => "  No lynch vote on a modkill day (C15)".into(),
                LynchResult::AllPass => "  Nobody voted for anybody: no lynch (C11.1)".into(),
                LynchResult::Pardoned(s) => {
                    format!("  A single vote on day 1: {} is pardoned (C11.2)", who(s))
                }
                LynchResult::Lynched(s) => format!("  Most votes: {}", who(s)),
                LynchResult::Tie(t) => format!("  Tie for the lead: {} (C12)", set(t)),
            },
            Event::NoRunoffAtFour => "  Four alive: no runoff, nobody leaves (C12.1)".into(),
            Event::Defence { seat, what } => {
                format!("  {} defends: {}", who(seat), publication_text(&what))
            }
            Event::Revote { round, candidates } => {
                format!("  Revote {round} among {}", set(candidates))
            }
            Event::RunoffVote { seat, choice } => format!("    {} votes {}", who(seat), p(choice)),
            Event::HangBothVote { pair } => format!("  Hang both or pardon both: {}", set(pair)),
            Event::HangChoice { seat, hang } => {
                format!("    {} says {}", who(seat), if hang { "hang" } else { "pardon" })
            }
            Event::RunoffResult { hanged } if hanged.is_empty() => "  Runoff: nobody is hanged".into(),
            Event::RunoffResult { hanged } => format!("  Runoff: {} hanged", set(hanged)),
            Event::RunoffExhausted => "  The revotes kept tying: nobody is hanged (C12)".into(),
            Event::RandomTieBreak { leaders, hanged } => {
                format!("  The host picks among {} at random: {}", set(leaders), who(hanged))
            }
            Event::NightKillNick { seat, target } => {
                format!("  {} sends the kill nick {}", who(seat), p(target))
            }
            Event::NightAct { seat, target: Some(target), .. } => format!("  {} checks {}", who(seat), p(target)),
            Event::CampCheck { seat, target, camp } => {
                format!("  {} learns {} is {camp}", who(seat), p(target))
            }
            Event::RoleCheck { seat, target, role, yes } => {
                format!("  {} learns {} is {}the {role}", who(seat), p(target), if yes { "" } else { "not " })
            }
            Event::NightKill { target, .. } => format!("  The mafia kill {}", who(target)),
            Event::NightMiss(MissReason::Silent(s)) => {
                format!("  Miss: {} sent no nick (C4)", who(s))
            }
            Event::NightMiss(MissReason::Disagree(a, b)) => {
                format!("  Miss: {} and {} sent different nicks (C4)", who(a), who(b))
            }
            Event::NoKillCount { nights } => {
                format!("  Nights in a row without a kill: {nights} (C8)")
            }
            Event::Died { seat, cause, revealed } => {
                let r = revealed.map_or(String::new(), |r| format!(", announced as {r}"));
                format!("  {} leaves: {cause:?}{r}", who(seat))
            }
            Event::LastWord { seat, what } => {
                format!("  Last word of {}: {}", who(seat), publication_text(&what))
            }
            Event::GameEnd { winner, cause, day } => {
                let w = winner.map_or("a draw".to_string(), |c| format!("{c} wins"));
                format!("\nGame over on day {day}: {w} ({})", cause.name())
            }
            other => format!("  {other:?}"),
        };
        writeln!(o, "{line}").unwrap();
    }
    o
}

fn event_json(e: &Event) -> Value {
    match *e {
        Event::Deal { seat, role } => {
            json!({"event": "deal", "seat": seat + 1, "role": role.name()})
        }
        Event::DayStart { day, alive } => {
            json!({"event": "day", "day": day, "alive": set_json(alive)})
        }
        Event::NightStart { night, alive } => {
            json!({"event": "night", "night": night, "alive": set_json(alive)})
        }
        Event::Absent { seat } => json!({"event": "absent", "seat": seat + 1}),
        Event::Modkill { seat } => json!({"event": "modkill", "seat": seat + 1}),
        Event::Post { seat, what } => {
            json!({"event": "post", "seat": seat + 1, "says": publication_json(&what)})
        }
        Event::Vote { seat, vote, change } => {
            json!({"event": if change { "vote_change" } else { "vote" },
            "seat": seat + 1, "vote": match vote { Vote::For(t) => json!(t + 1), Vote::Pass => json!("PASS") }})
        }
        Event::Illegal { seat, what } => {
            json!({"event": "illegal", "seat": seat + 1, "what": what})
        }
        Event::Lynch(r) => match r {
            LynchResult::NoVoteModkillDay => json!({"event": "lynch", "result": "modkill_day"}),
            LynchResult::AllPass => json!({"event": "lynch", "result": "all_pass"}),
            LynchResult::Pardoned(s) => {
                json!({"event": "lynch", "result": "pardoned", "seat": s + 1})
            }
            LynchResult::Lynched(s) => {
                json!({"event": "lynch", "result": "lynched", "seat": s + 1})
            }
            LynchResult::Tie(t) => json!({"event": "lynch", "result": "tie", "tied": set_json(t)}),
        },
        Event::NoRunoffAtFour => json!({"event": "no_runoff_at_four"}),
        Event::Defence { seat, what } => {
            json!({"event": "defence", "seat": seat + 1, "says": publication_json(&what)})
        }
        Event::Revote { round, candidates } => {
            json!({"event": "revote", "round": round, "candidates": set_json(candidates)})
        }
        Event::RunoffVote { seat, choice } => {
            json!({"event": "runoff_vote", "seat": seat + 1, "choice": choice + 1})
        }
        Event::HangBothVote { pair } => json!({"event": "hang_both_vote", "pair": set_json(pair)}),
        Event::HangChoice { seat, hang } => {
            json!({"event": "hang_choice", "seat": seat + 1, "hang": hang})
        }
        Event::RunoffResult { hanged } => {
            json!({"event": "runoff_result", "hanged": set_json(hanged)})
        }
        Event::RunoffExhausted => json!({"event": "runoff_exhausted"}),
        Event::RandomTieBreak { leaders, hanged } => {
            json!({"event": "random_tie_break", "leaders": set_json(leaders), "hanged": hanged + 1})
        }
        Event::NightKillNick { seat, target } => {
            json!({"event": "kill_nick", "seat": seat + 1, "target": target + 1})
        }
        Event::NightAct { seat, target, .. } => {
            json!({"event": "night_move", "seat": seat + 1, "target": target.map(|t| t + 1)})
        }
        Event::CampCheck { seat, target, camp } => {
            json!({"event": "camp_check", "seat": seat + 1, "target": target + 1, "camp": camp.name()})
        }
        Event::RoleCheck { seat, target, role, yes } => {
            json!({"event": "role_check", "seat": seat + 1, "target": target + 1, "role": role.name(), "yes": yes})
        }
        Event::NightKill { target, .. } => json!({"event": "night_kill", "target": target + 1}),
        Event::NightMiss(MissReason::Silent(s)) => {
            json!({"event": "miss", "reason": "silent", "seat": s + 1})
        }
        Event::NightMiss(MissReason::Disagree(a, b)) => {
            json!({"event": "miss", "reason": "disagree", "seats": [a + 1, b + 1]})
        }
        Event::NoKillCount { nights } => json!({"event": "no_kill_count", "nights": nights}),
        Event::Died { seat, cause, revealed } => json!({"event": "died", "seat": seat + 1,
            "cause": format!("{cause:?}").to_lowercase(), "revealed": revealed.map(|r| r.name())}),
        Event::LastWord { seat, what } => {
            json!({"event": "last_word", "seat": seat + 1, "says": publication_json(&what)})
        }
        Event::GameEnd { winner, cause, day } => {
            json!({"event": "end", "winner": winner.map(|c| c.name()),
            "cause": cause.name(), "day": day})
        }
        other => json!({"event": format!("{other:?}")}),
    }
}
