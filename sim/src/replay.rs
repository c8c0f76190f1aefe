//! `mafia replay`: one game told as a story, or as JSON lines — the same
//! game the runner plays for that (seed, index), because it uses the same
//! worker and streams, with the engine's event log switched on.
//!
//! The story has one line per event. Nights of extended games (E1–E32)
//! show the moves sent, then each step of the night order (E30) that had
//! something happen, with every move's success or failure and why; classic
//! games print exactly as they always have.

use crate::runner::Job;
use mafia_agents::{Worker, master_key};
use mafia_engine::{
    Camp, DeathCause, Event, Fail, Killer, LynchResult, MissReason, NightAbility, PlayerSet, Publication, Report, Role,
    Rules, Seat, Status, Vote,
};
use schemars::JsonSchema;
use serde::Serialize;
use std::fmt::Write;

/// The `event` name of the replay's first line.
#[derive(Clone, Copy, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HeadEvent {
    /// The head names the game.
    Game,
}

/// The first line of `mafia replay --json`: which game the events tell.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ReplayHead {
    /// Always `"game"`, which tells the head from the events.
    pub event: HeadEvent,
    /// The setup's name (a preset, or the setup file's name).
    pub setup: String,
    /// The run's rule label: each resolved rule that differs from the classic
    /// seed's, `key=value`, separated by spaces (empty: none differs).
    pub rules: String,
    /// Every rule setting the game played, with `auto` resolved.
    pub resolved_rules: Rules,
    /// The agents' label (who plays which seat).
    pub agents: String,
    /// The run's master seed.
    pub seed: u64,
    /// The game's index within the run (from 0).
    pub game: u64,
    /// How many players.
    pub players: usize,
}

/// One line of `mafia replay --json`: the head, then every event of the game in order.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum ReplayLine {
    /// The first line.
    Head(ReplayHead),
    /// Every later line.
    Event(Event),
}

/// Plays game `index` of the run with master seed `seed` and tells it.
pub fn replay(job: &Job, seed: u64, index: u64, as_json: bool) -> String {
    let mut w = Worker::new(job.lineup.clone(), master_key(seed));
    let mut log: Vec<Event> = Vec::new();
    let _ = w.play(&job.game, index, &mut log);
    let roles = w.state.roles().to_vec();
    if as_json {
        let head = ReplayHead {
            event: HeadEvent::Game,
            setup: job.variant.setup.clone(),
            rules: job.variant.rules.clone(),
            resolved_rules: job.game.resolved_rules(),
            agents: job.variant.agents.clone(),
            seed,
            game: index,
            players: roles.len(),
        };
        let lines = std::iter::once(ReplayLine::Head(head)).chain(log.iter().map(|&e| ReplayLine::Event(e)));
        let mut out = String::new();
        for line in lines {
            writeln!(out, "{}", serde_json::to_string(&line).expect("a replay line is JSON")).unwrap();
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
    for c in Camp::ALL {
        let s = x.camps[c as usize];
        if !s.is_empty() {
            parts.push(format!("names {} as {c}", set(s)));
        }
    }
    if !x.accuse.is_empty() {
        parts.push(format!("accuses {}", set(x.accuse)));
    }
    if let Some(t) = x.text {
        parts.push(format!("says line {t} of the talk"));
    }
    if parts.is_empty() { "(nothing)".into() } else { parts.join("; ") }
}

/// A move as a verb phrase in the present tense, before its target
/// ("robs", "checks"); the Swindler's and the Journalist's take two targets.
fn verb(a: NightAbility) -> &'static str {
    match a {
        NightAbility::None => "moves on",
        NightAbility::Rob => "robs",
        NightAbility::Invite => "invites",
        NightAbility::Beat => "beats",
        NightAbility::Swindle => "swindles",
        NightAbility::Guard => "guards",
        NightAbility::Heal => "heals",
        NightAbility::BossCheck | NightAbility::CheckIsRole(_) | NightAbility::CheckCamp => "checks",
        NightAbility::Compare => "compares",
        NightAbility::Shoot => "shoots at",
        NightAbility::Hex => "hexes",
        NightAbility::Mine => "mines",
        NightAbility::Trick => "takes the vote of",
        NightAbility::Watch => "watches",
        NightAbility::Scout => "scouts",
        NightAbility::Borrow => "makes a borrowed move on",
        NightAbility::Votes => "takes the Chosen's secret votes for tomorrow",
    }
}

/// The same move as an infinitive, for failures ("fails to rob").
fn infinitive(a: NightAbility) -> &'static str {
    match a {
        NightAbility::None => "move",
        NightAbility::Rob => "rob",
        NightAbility::Invite => "invite",
        NightAbility::Beat => "beat",
        NightAbility::Swindle => "swindle",
        NightAbility::Guard => "guard",
        NightAbility::Heal => "heal",
        NightAbility::BossCheck | NightAbility::CheckIsRole(_) | NightAbility::CheckCamp => "check",
        NightAbility::Compare => "compare",
        NightAbility::Shoot => "shoot",
        NightAbility::Hex => "hex",
        NightAbility::Mine => "mine",
        NightAbility::Trick => "take a vote",
        NightAbility::Watch => "watch",
        NightAbility::Scout => "scout",
        NightAbility::Borrow => "make the borrowed move",
        NightAbility::Votes => "take the Chosen's secret votes",
    }
}

fn death_cause(c: DeathCause) -> &'static str {
    match c {
        DeathCause::Lynched => "Lynched",
        DeathCause::Killed => "Killed",
        DeathCause::Modkilled => "Modkilled",
        DeathCause::Mined => "Mined",
    }
}

/// The story's names for seats: `P3 (doctor)` by the deal.
struct Names<'a> {
    roles: &'a [Role],
}

impl Names<'_> {
    fn who(&self, s: Seat) -> String {
        match self.roles.get(s as usize) {
            Some(r) => format!("{} ({r})", p(s)),
            None => format!("the {}", Role::Psycho),
        }
    }

    /// A move and its targets: "P3 (doctor) heals P5", "P16 (swindler) swindles P19: the move goes to P2".
    fn act(&self, seat: Seat, a: NightAbility, target: Option<Seat>, second: Option<Seat>) -> String {
        let who = self.who(seat);
        match (a, target, second) {
            (NightAbility::Swindle, Some(t), Some(u)) => format!("{who} swindles {}: the move goes to {}", p(t), p(u)),
            (_, Some(t), Some(u)) => format!("{who} {} {} and {}", verb(a), p(t), p(u)),
            (_, Some(t), None) => format!("{who} {} {}", verb(a), p(t)),
            (NightAbility::Scout, None, _) => format!("{who} scouts"),
            (NightAbility::Votes, None, _) => format!("{who} {}", verb(a)),
            (_, None, _) => format!("{who} {}", infinitive(a)),
        }
    }

    /// Why a move or a kill failed.
    fn fail(&self, reason: Fail) -> String {
        match reason {
            Fail::Blocked { status: Status::Hexed, by: None } => "hexed since last night (E6, E18)".into(),
            Fail::Blocked { status, by: Some(b) } => {
                format!("{} by {} (E6, {})", status.name(), self.who(b), status.clause())
            }
            Fail::Blocked { status, by: None } => format!("{} (E6, {})", status.name(), status.clause()),
            other => other.about().into(),
        }
    }

    /// Who tried a kill, as the subject of a sentence.
    fn killer(&self, by: Killer, leader: bool) -> String {
        match by {
            Killer::Camp { camp, decider } if leader => format!("The {camp} kill, decided by {},", self.who(decider)),
            Killer::Camp { camp, .. } => format!("The {camp} kill"),
            Killer::Shooter(s) => format!("The shot of {}", self.who(s)),
            Killer::Guest(s) => format!("The invitation of {}", self.who(s)),
            Killer::Blast(s) => format!("The blast at {}", self.who(s)),
        }
    }

    fn report(&self, seat: Seat, r: Report) -> String {
        let who = self.who(seat);
        match r {
            Report::Compare { a, b, same } => {
                let how = if same { "the same camp" } else { "different camps" };
                format!("{who} learns {} and {} are in {how} (E17)", p(a), p(b))
            }
            Report::Watch { target, camps } => {
                let seen: Vec<&str> = Camp::ALL.iter().filter(|c| camps[**c as usize]).map(|c| c.name()).collect();
                if seen.is_empty() {
                    format!("{who} learns nobody moved on {} (E22)", p(target))
                } else {
                    format!("{who} learns who moved on {}: {} (E22)", p(target), seen.join(", "))
                }
            }
            Report::Scout { checked, robbed, healed } => {
                let or_nobody = |s: Option<Seat>| s.map_or("nobody".to_string(), p);
                format!(
                    "{who} learns: checked {}, robbed {}, healed {} (E27)",
                    or_nobody(checked),
                    or_nobody(robbed),
                    or_nobody(healed)
                )
            }
        }
    }
}

/// Story lines that follow the night's steps: the resolution of a step.
/// Anything else (the deaths at dawn, the next day) closes the steps.
fn in_a_step(e: &Event) -> bool {
    matches!(
        e,
        Event::CycleBroken { .. }
            | Event::Succeeded { .. }
            | Event::Failed { .. }
            | Event::Redirected { .. }
            | Event::StatusSet { .. }
            | Event::BeatenWatching { .. }
            | Event::Guarded { .. }
            | Event::Healed { .. }
            | Event::BossCheck { .. }
            | Event::CampCheck { .. }
            | Event::RoleCheck { .. }
            | Event::Learned { .. }
            | Event::NightKill { .. }
            | Event::NightMiss(_)
            | Event::KillFailed { .. }
            | Event::GuestSaved { .. }
            | Event::SpareLife { .. }
            | Event::HexLifted { .. }
            | Event::BanditsMeet { .. }
    )
}

fn story(job: &Job, seed: u64, index: u64, roles: &[Role], log: &[Event]) -> String {
    let names = Names { roles };
    let who = |s: Seat| names.who(s);
    let leader = job.game.leader_kill();
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
    // Extended nights: a step's heading is printed before its first line,
    // so steps where nothing happened take no room; `stepping` is set while
    // the night's steps run and cleared (with a "dawn" line) after them.
    let mut heading = None;
    let mut stepping = false;
    for e in log {
        if let Event::Step(step) = e {
            heading = Some(step.name());
            stepping = true;
            continue;
        }
        if stepping {
            if in_a_step(e) {
                if let Some(h) = heading.take() {
                    writeln!(o, "  -- {h} --").unwrap();
                }
            } else {
                stepping = false;
                heading = None;
                if !matches!(e, Event::DayStart { .. } | Event::NightStart { .. }) {
                    writeln!(o, "  -- dawn --").unwrap();
                }
            }
        }
        let line = match *e {
            Event::Deal { .. } | Event::Step(_) => continue,
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
            Event::VoteRemoved { seat } => format!("  {}'s vote does not count today (E28)", who(seat)),
            Event::SecretVotes { seat, target, votes } => {
                format!("  {} adds {votes} secret votes for {} (E16)", who(seat), p(target))
            }
            Event::MineExplodes { seat, votes } => {
                format!("  The mine under {} goes off: {votes} votes (E25)", who(seat))
            }
            Event::NightKillNick { seat, target } => {
                format!("  {} sends the kill nick {}", who(seat), p(target))
            }
            Event::NightAct { seat, ability, target, second } => {
                format!("  {}", names.act(seat, ability, target, second))
            }
            Event::Borrowed { seat, role } => format!("  {} borrows the move of the dead {role} (E19)", who(seat)),
            Event::SearchNick { seat, target } => format!("  {} names {} as a bandit (E3)", who(seat), p(target)),
            Event::Proxy { boss, member } => {
                format!("  {} sends the move of {}, who sent none (E7):", who(boss), who(member))
            }
            Event::Promoted { seat, role } => {
                let clause = if roles.get(seat as usize) == Some(&Role::Deputy) { "E14" } else { "E12" };
                format!("  {} acts as the {role} from tonight ({clause})", who(seat))
            }
            Event::Introduced { a, b } => format!("  {} and {} are introduced (E14)", who(a), who(b)),
            Event::HexHolds { seat } => format!("  {} is hexed tonight (E18)", who(seat)),
            Event::CycleBroken { seat } => {
                format!("  The control moves form a cycle, broken at {}, whose move stands (E29)", who(seat))
            }
            Event::Succeeded { seat, ability, target } => {
                format!("  Succeeds: {}", names.act(seat, ability, target, None))
            }
            Event::Failed { seat, ability, reason } => {
                format!("  {} fails to {}: {}", who(seat), infinitive(ability), names.fail(reason))
            }
            Event::Redirected { by, victim, from, to } => {
                let from = match from {
                    Some(f) if f == to => " (its target already)".to_string(),
                    Some(f) => format!(" instead of {}", p(f)),
                    None => String::new(),
                };
                format!("    {} is swindled by {}: the move goes to {}{from} (E11)", who(victim), p(by), p(to))
            }
            Event::StatusSet { seat, status, by } => {
                format!("    {} is {} by {} ({})", who(seat), status.name(), p(by), status.clause())
            }
            Event::BeatenWatching { seat } => {
                format!("    {} watches a beaten house and is beaten too (E22)", who(seat))
            }
            Event::Guarded { seat, by } => format!("    {} is guarded by {} (E10)", who(seat), p(by)),
            Event::Healed { seat, by } => format!("    {} is healed by {} (E15)", who(seat), p(by)),
            Event::BossCheck { seat, target, plain, camp } => {
                let what = if plain { "a plain player" } else { "a role holder" };
                format!("  {} learns {} is {what} of the {camp} (E7)", who(seat), p(target))
            }
            Event::Learned { seat, report } => format!("  {}", names.report(seat, report)),
            Event::CampCheck { seat, target, camp } => {
                format!("  {} learns {} is {camp}", who(seat), p(target))
            }
            Event::RoleCheck { seat, target, role, yes } => {
                format!("  {} learns {} is {}the {role}", who(seat), p(target), if yes { "" } else { "not " })
            }
            Event::NightKill { target, by } => match by {
                Killer::Camp { camp, decider } if leader => {
                    format!("  The {camp} kill {}, decided by {} (E8)", who(target), p(decider))
                }
                Killer::Camp { camp, .. } => format!("  The {camp} kill {}", who(target)),
                Killer::Shooter(s) => format!("  The shot of {} hits {} (E20)", who(s), who(target)),
                Killer::Guest(s) => format!(
                    "  The invitation of {} takes {}, last night's guest, not healed tonight (E23)",
                    who(s),
                    who(target)
                ),
                Killer::Blast(s) => {
                    format!(
                        "  A kill was tried at {} while he had a guest: the blast takes {} (E24)",
                        who(s),
                        who(target)
                    )
                }
            },
            Event::KillFailed { target, by, reason } => {
                format!("  {} fails on {}: {}", names.killer(by, leader), who(target), names.fail(reason))
            }
            Event::GuestSaved { seat, by } => {
                format!("  {}, last night's guest, is healed by {} and lives (E23)", who(seat), p(by))
            }
            Event::SpareLife { seat } => {
                format!("  {}'s spare life absorbs what reached him tonight: he lives (E21)", who(seat))
            }
            Event::HexLifted { seat } => format!("  The hex on {} is lifted: he was healed tonight (E18)", who(seat)),
            Event::BanditsMeet { a, b } => format!("  {} and {} find each other (E3)", who(a), who(b)),
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
                format!("  {} leaves: {}{r}", who(seat), death_cause(cause))
            }
            Event::LastWord { seat, what } => {
                format!("  Last word of {}: {}", who(seat), publication_text(&what))
            }
            Event::GameEnd { winner, cause, day } => {
                let w = winner.map_or("a draw".to_string(), |c| format!("{c} wins"));
                format!("\nGame over on day {day}: {w} ({})", cause.name())
            }
        };
        writeln!(o, "{line}").unwrap();
    }
    o
}
