//! The night calculator's output: a resolved scenario told step by step in
//! the night order (E30) — who was blocked by whom, what was redirected, who
//! was protected, who died and why, what each information role learned, the
//! cycles broken (E29) — then the deaths in announcement order (E32) and what
//! carries over ([`State::carry`]). Readable text, or one JSON document.
//!
//! Everything here is read off the engine's event log and state; nothing is
//! decided here. Seats print 1-based with their role: `3 (thief)`.
//!
//! The JSON document is a [`Trace`]: typed structs around the engine's
//! events in their one serde encoding (the same as `mafia replay --json`),
//! so the schema (`mafia schema`) and the output cannot drift apart.

use crate::error::{Error, FileError};
use crate::input::{Resolved, load_scenario};
use clap::Args;
use mafia_engine::{
    Camp, Carry, CarryOver, Event, Fail, Killer, MissReason, NightAbility, NightStep, PlayerSet, Report, Role, RoleSet,
    Rules, Seat, State, Status,
};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;
use std::fmt::Write;
use std::io::Write as _;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct ResolveArgs {
    /// The scenario file (.toml): seats, carry-over and moves (see scenarios/).
    #[arg(value_name = "SCENARIO")]
    pub scenario: PathBuf,
    /// One JSON document instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn cmd_resolve(a: ResolveArgs) -> Result<(), Error> {
    let trace = resolve_file(&a.scenario, a.json)?;
    std::io::stdout().lock().write_all(trace.as_bytes())?;
    Ok(())
}

/// `mafia resolve FILE [--json]`: reads, checks and resolves a scenario file
/// and returns the trace (text, or pretty JSON).
pub fn resolve_file(path: &Path, as_json: bool) -> Result<String, FileError> {
    let r = load_scenario(path)?.resolve()?;
    Ok(if as_json {
        format!("{}\n", serde_json::to_string_pretty(&trace(&r)).expect("a trace is JSON"))
    } else {
        to_text(&r)
    })
}

/// `mafia resolve --json`: one night of a scenario, resolved.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Trace {
    /// The scenario's name (its `name`, or the file's stem).
    pub scenario: String,
    /// The night resolved (from 1).
    pub night: u16,
    /// Every rule setting, with `auto` resolved.
    pub rules: Rules,
    /// C4/E8: who decides a camp's kill tonight.
    pub camp_kill: CampKillMode,
    /// The night order (E30) the scenario plays.
    pub night_order: Vec<NightStep>,
    /// Every seat, in seat order.
    pub seats: Vec<TraceSeat>,
    /// What earlier phases left behind: the scenario's `[carry]` table.
    pub carried_in: CarriedIn,
    /// The moves as submitted: `night_move`, `borrowed`, `kill_nick` and `search_nick` events.
    pub moves: Vec<Event>,
    /// Each step of the night order, in order, with what happened in it.
    pub steps: Vec<TraceStep>,
    /// Tonight's deaths, in announcement order (E32: the Psycho's guests first).
    pub deaths: Vec<TraceDeath>,
    /// What carries over to the next phases (`State::carry`; spare lives of dealt Lucky players only).
    pub carry: Carry,
    /// The next night's scenario: its number and its `[carry]` table.
    pub next_night: NextNight,
}

/// Who decides a camp's kill (the `camp_kill` rule, `auto` resolved).
#[derive(Clone, Copy, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CampKillMode {
    /// E8: the highest-ranked member who sent a nick.
    Leader,
    /// C4: every living member must send the same nick.
    Unanimous,
}

/// One seat of the scenario.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct TraceSeat {
    /// The seat.
    pub seat: Seat,
    /// The role dealt.
    pub role: Role,
    /// The role he acts as tonight (E12, E14; else his own).
    pub acting: Role,
    /// His camp.
    pub camp: Camp,
    /// Whether he is alive at dusk.
    pub alive_at_dusk: bool,
}

/// A seat acting as another role (E12, E14).
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ActingSeat {
    /// The Actor or the Deputy.
    pub seat: Seat,
    /// The role he acts as.
    pub role: Role,
}

/// Last night's heal or beating (E15, E26).
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct LastTarget {
    /// The Doctor or the Thug.
    pub seat: Seat,
    /// Whom he named last night.
    pub target: Seat,
}

/// What earlier phases left behind, as the scenario gave it.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct CarriedIn {
    /// The dead, in the order they died.
    pub dead: Vec<Seat>,
    /// Appointments and promotions already made (E12, E14).
    pub acting: Vec<ActingSeat>,
    /// E18: hexed last night (hexed tonight).
    pub hexed: Vec<Seat>,
    /// E23: last night's guest of the Psycho (`null`: none).
    pub guest: Option<Seat>,
    /// E15, E26: last night's heal and beating.
    pub last_targets: Vec<LastTarget>,
    /// E21: Lucky players whose spare life is spent.
    pub spare_life_spent: Vec<Seat>,
    /// E11: swindled before.
    pub swindled: Vec<Seat>,
    /// E19: roles the Role Prostitute borrowed before.
    pub borrowed: Vec<Role>,
    /// E3: pairs of bandits who know each other.
    pub bandits_known: Vec<[Seat; 2]>,
}

impl CarriedIn {
    /// The trace's view of a carry-over: pairs as named objects or arrays.
    fn of(c: &CarryOver) -> CarriedIn {
        CarriedIn {
            dead: c.dead.clone(),
            acting: c.acting.iter().map(|&(seat, role)| ActingSeat { seat, role }).collect(),
            hexed: c.hexed.clone(),
            guest: c.guest,
            last_targets: c.last_targets.iter().map(|&(seat, target)| LastTarget { seat, target }).collect(),
            spare_life_spent: c.spare_life_spent.clone(),
            swindled: c.swindled.clone(),
            borrowed: c.borrowed.clone(),
            bandits_known: c.bandits_known.iter().map(|&(a, b)| [a, b]).collect(),
        }
    }
}

/// One step of the night order with its events.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct TraceStep {
    /// The step.
    pub step: NightStep,
    /// The step's name in words.
    pub name: &'static str,
    /// What happened in it, in order.
    pub events: Vec<Event>,
}

/// A death at dawn.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct TraceDeath {
    /// The dead player.
    pub seat: Seat,
    /// His role.
    pub role: Role,
    /// Whether he was the Psycho's guest (announced first, E32).
    pub guest: bool,
    /// Every kill that reached him.
    pub by: Vec<Killer>,
}

/// The next night's scenario, as far as this night decides it.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct NextNight {
    /// The next night's number.
    pub night: u32,
    /// Its `[carry]` table (add the day's lynch to `dead`).
    pub carry: NextCarry,
}

/// Seat names: `3 (thief)`, `9 (actor as thief)` for a seat acting in another role.
struct Names<'a> {
    r: &'a Resolved,
}

impl Names<'_> {
    fn valid(&self, s: Seat) -> bool {
        s.index() < self.r.state.players()
    }

    /// The seat's role (a seat the engine never names, `?`, reads as a citizen).
    fn role(&self, s: Seat) -> Role {
        if self.valid(s) { self.r.state.role(s) } else { Role::Citizen }
    }

    /// The seat with its role (and the role it acts in, if another).
    fn who(&self, s: Seat) -> String {
        if !self.valid(s) {
            return "?".into();
        }
        let (role, acting) = (self.role(s), self.r.state.acting_role(s));
        if role == acting { format!("{} ({role})", s.number()) } else { format!("{} ({role} as {acting})", s.number()) }
    }

    /// The seat with its own role only.
    fn plain(&self, s: Seat) -> String {
        if !self.valid(s) {
            return "?".into();
        }
        format!("{} ({})", s.number(), self.role(s))
    }

    fn opt(&self, s: Option<Seat>) -> String {
        s.map_or_else(|| "nobody".into(), |s| self.who(s))
    }

    fn set(&self, set: PlayerSet) -> String {
        if set.is_empty() { "-".into() } else { set.iter().map(|s| self.plain(s)).collect::<Vec<_>>().join(", ") }
    }

    fn list(&self, seats: &[Seat]) -> String {
        if seats.is_empty() { "-".into() } else { seats.iter().map(|&s| self.plain(s)).collect::<Vec<_>>().join(", ") }
    }
}

fn roles_text(r: RoleSet) -> String {
    if r.is_empty() { "-".into() } else { r.iter().map(|r| r.name()).collect::<Vec<_>>().join(", ") }
}

fn n(s: Seat) -> u64 {
    u64::from(s.number())
}

/// The trace's parts: events of the start of night, the moves as submitted,
/// then each step of the night order with its events.
struct Sections<'a> {
    moves: Vec<&'a Event>,
    steps: Vec<(NightStep, Vec<&'a Event>)>,
}

fn is_submission(e: &Event) -> bool {
    matches!(
        e,
        Event::NightAct { .. } | Event::Borrowed { .. } | Event::NightKillNick { .. } | Event::SearchNick { .. }
    )
}

fn sections(r: &Resolved) -> Sections<'_> {
    let mut start = Vec::new();
    let mut moves = Vec::new();
    let mut steps: Vec<(NightStep, Vec<&Event>)> = Vec::new();
    let marked = r.log.iter().any(|e| matches!(e, Event::Step(_)));
    for e in &r.log {
        match e {
            Event::Step(s) => {
                let events = if *s == NightStep::StartOfNight { std::mem::take(&mut start) } else { Vec::new() };
                steps.push((*s, events));
            }
            e if steps.is_empty() && is_submission(e) => moves.push(e),
            e if steps.is_empty() && marked => start.push(e),
            e => match steps.last_mut() {
                Some((_, events)) => events.push(e),
                // A classic night has no step markers (its stories stay as
                // they were): its events go to the step of their kind.
                None => start.push(e),
            },
        }
    }
    if !marked {
        let info = |e: &Event| {
            matches!(
                e,
                Event::CampCheck { .. } | Event::RoleCheck { .. } | Event::BossCheck { .. } | Event::Learned { .. }
            ) || matches!(e, Event::Failed { ability, .. } if ability.step() == Some(NightStep::Information))
        };
        let order = r.game.night_order();
        steps = order.iter().map(|&s| (s, Vec::new())).collect();
        let at = |step: NightStep| order.iter().position(|&s| s == step).unwrap_or(0);
        for e in start.drain(..) {
            let step = if info(e) { NightStep::Information } else { NightStep::Kills };
            steps[at(step)].1.push(e);
        }
    } else if !start.is_empty() {
        // Start-of-night events without a start marker cannot happen; keep them anyway.
        steps.insert(0, (NightStep::StartOfNight, start));
    }
    Sections { moves, steps }
}

impl Names<'_> {
    fn fail(&self, f: Fail) -> String {
        match f {
            Fail::Blocked { status: Status::Hexed, .. } => "he is hexed (E6, E18)".into(),
            Fail::Blocked { status: Status::Invited, by } => {
                format!("he is the guest of {} (E6, E23)", self.opt(by))
            }
            Fail::Blocked { status, by } => {
                format!("he is {} by {} (E6, {})", status.name(), self.opt(by), status.clause())
            }
            other => other.about().into(),
        }
    }

    fn killer(&self, k: Killer) -> String {
        match k {
            Killer::Camp { camp, .. } if !self.r.game.leader_kill() => {
                format!("the {camp}'s kill, every living member's nick (C4)")
            }
            Killer::Camp { camp, decider } => format!("the {camp}'s kill, decided by {} (E8)", self.who(decider)),
            Killer::Shooter(s) => format!("the shot of {} (E20)", self.who(s)),
            Killer::Guest(p) => format!("last night's invitation of {}, not healed tonight (E23)", self.who(p)),
            Killer::Blast(p) => format!("the blast: a kill was tried at {} while he had a guest (E24)", self.who(p)),
        }
    }

    fn ability_text(&self, a: NightAbility, target: Option<Seat>, second: Option<Seat>) -> String {
        let t = self.opt(target);
        match a {
            NightAbility::Swindle => format!("swindle {t}: his move goes to {}", self.opt(second)),
            NightAbility::Compare => format!("compare {t} with {}", self.opt(second)),
            NightAbility::CheckIsRole(r) => format!("ask whether {t} is the {r}"),
            NightAbility::Scout => "scout".into(),
            a if target.is_none() => a.info().name.into(),
            a => format!("{} {t}", a.info().name),
        }
    }

    /// E22: one camp per visitor, so two town visitors read "town, town".
    fn watch_camps(camps: [u8; Camp::COUNT]) -> String {
        let seen: Vec<&str> = Camp::each(camps).map(Camp::name).collect();
        if seen.is_empty() { "no successful visitor".into() } else { format!("visitors from: {}", seen.join(", ")) }
    }

    /// One line of a step, or `None` for an event the next line tells in full.
    fn event_text(&self, e: &Event, next: Option<&Event>) -> Option<String> {
        let w = |s: Seat| self.who(s);
        Some(match *e {
            Event::Promoted { seat, role } => {
                let clause = if self.role(seat) == Role::Deputy { "E14" } else { "E12" };
                format!("{} acts as the {role} from tonight ({clause})", self.plain(seat))
            }
            Event::Introduced { a, b } => format!("{} and {} learn each other (E14)", w(a), w(b)),
            Event::HexHolds { seat } => format!("{} is hexed tonight: last night's hex holds (E18)", w(seat)),
            Event::CycleBroken { seat } => {
                format!("the control moves form a cycle: it is broken at {}, whose move stands (E29)", w(seat))
            }
            Event::Succeeded { seat, .. } => {
                let told = match next {
                    Some(Event::StatusSet { by, .. }) => *by == seat,
                    Some(Event::Redirected { by, .. }) => *by == seat,
                    Some(Event::Guarded { by, .. }) | Some(Event::Healed { by, .. }) => *by == seat,
                    Some(Event::NightKill { by: Killer::Shooter(s), .. }) => *s == seat,
                    _ => false,
                };
                if told {
                    return None;
                }
                let Event::Succeeded { ability, target, .. } = *e else { unreachable!() };
                let t = self.opt(target);
                match ability {
                    NightAbility::Hex => format!("{} hexes {t}: he is hexed next night (E18)", w(seat)),
                    NightAbility::Mine => {
                        format!("{} mines {t}: 3 or more votes tomorrow kill him (E25)", w(seat))
                    }
                    NightAbility::Trick => format!("{} picks {t}: his vote is removed tomorrow (E28)", w(seat)),
                    NightAbility::Votes => {
                        format!("{} takes the Chosen's secret votes for tomorrow's count (E19, E16)", w(seat))
                    }
                    a => format!("{}: {} succeeds", w(seat), self.ability_text(a, target, None)),
                }
            }
            Event::Failed { seat, ability, reason } => {
                format!("{}: {} fails: {}", w(seat), ability.info().name, self.fail(reason))
            }
            Event::StatusSet { seat, status, by } => match status {
                Status::Robbed => format!("{} robs {}: his role move fails tonight (E9)", w(by), w(seat)),
                Status::Invited => format!(
                    "{} invites {}: blocked and unreachable tonight, dies next night unless healed (E23)",
                    w(by),
                    w(seat)
                ),
                Status::Beaten => format!("{} beats {}: blocked and unreachable tonight (E26, E6)", w(by), w(seat)),
                Status::Hexed => format!("{} is hexed by {} (E18)", w(seat), w(by)),
            },
            Event::Redirected { by, victim, from, to } => format!(
                "{} swindles {}: his move goes to {} instead of {} (E11)",
                w(by),
                w(victim),
                w(to),
                self.opt(from)
            ),
            Event::BeatenWatching { seat } => {
                format!("{} watches the beaten house and is beaten too (E22)", w(seat))
            }
            Event::Guarded { seat, by } => format!("{} guards {} against kills (E10)", w(by), w(seat)),
            Event::Healed { seat, by } => format!("{} heals {} (E15)", w(by), w(seat)),
            Event::BossCheck { seat, target, plain, camp } => format!(
                "{} checks {}: {}, camp {camp} (E7)",
                w(seat),
                w(target),
                if plain { "a plain player" } else { "holds a role" }
            ),
            Event::CampCheck { seat, target, camp } => {
                let clause = if self.r.state.acting_role(seat) == Role::Commissar { "C6" } else { "E13" };
                format!("{} checks {}: camp {camp} ({clause})", w(seat), w(target))
            }
            Event::RoleCheck { seat, target, role, yes } => {
                format!("{} asks whether {} is the {role}: {} (C5)", w(seat), w(target), if yes { "yes" } else { "no" })
            }
            Event::Learned { seat, report } => match report {
                Report::Compare { a, b, same } => format!(
                    "{} compares {} and {}: {} (E17)",
                    w(seat),
                    w(a),
                    w(b),
                    if same { "same camp" } else { "different camps" }
                ),
                Report::Watch { target, camps } => {
                    format!("{} watches {}: {} (E22)", w(seat), w(target), Self::watch_camps(camps))
                }
                Report::Scout { checked, robbed, healed } => format!(
                    "{} learns: the Detective checked {}, the Thief robbed {}, the Doctor healed {} (E27)",
                    w(seat),
                    self.opt(checked),
                    self.opt(robbed),
                    self.opt(healed)
                ),
            },
            Event::NightKill { target, by } => match by {
                Killer::Camp { camp, .. } if !self.r.game.leader_kill() => {
                    format!("the {camp} kill {}: every living member sent this nick (C4)", w(target))
                }
                Killer::Camp { camp, decider } => {
                    format!("the {camp} kill {}: decided by {} (E8)", w(target), w(decider))
                }
                Killer::Shooter(s) => format!("{} shoots {}: the shot reaches him (E20)", w(s), w(target)),
                Killer::Guest(p) => {
                    format!("{}, last night's guest of {}, is not healed tonight: he dies (E23)", w(target), w(p))
                }
                Killer::Blast(p) => format!(
                    "a kill was tried at {} while {} was his guest: the blast kills the guest (E24)",
                    w(p),
                    w(target)
                ),
            },
            Event::KillFailed { target, by, reason } => {
                let what = match by {
                    Killer::Camp { camp, .. } if !self.r.game.leader_kill() => {
                        format!("the {camp}'s kill at {} (C4)", w(target))
                    }
                    Killer::Camp { camp, decider } => {
                        format!("the {camp}'s kill at {}, decided by {} (E8),", w(target), w(decider))
                    }
                    Killer::Shooter(s) => format!("the shot of {} at {} (E20)", w(s), w(target)),
                    Killer::Guest(p) => format!("the death of {}, last night's guest of {} (E23),", w(target), w(p)),
                    Killer::Blast(p) => format!("the blast of {} at his guest {} (E24)", w(p), w(target)),
                };
                format!("{what} fails: {}", self.fail(reason))
            }
            Event::GuestSaved { seat, by } => {
                format!("{}, last night's guest, is healed by {}: he lives (E23)", w(seat), w(by))
            }
            Event::SpareLife { seat } => {
                format!("{}'s spare life absorbs every kill that reached him tonight: he lives (E21)", w(seat))
            }
            Event::HexLifted { seat } => format!("the hex cast on {} is lifted: he is healed tonight (E18)", w(seat)),
            Event::BanditsMeet { a, b } => {
                format!("{} named {}: both are bandits, the host introduces them (E3)", w(a), w(b))
            }
            Event::NightMiss(MissReason::Silent(s)) => {
                if self.r.game.leader_kill() {
                    format!("the {} send no kill nick: no kill (E8)", self.role(s).camp())
                } else {
                    format!("{} sent no kill nick: no kill (C4)", w(s))
                }
            }
            Event::NightMiss(MissReason::Disagree(a, b)) => {
                format!("{} and {} sent different nicks: no kill (C4)", w(a), w(b))
            }
            ref other => format!("{other:?}"),
        })
    }

    /// A submitted move (the moves section).
    fn submission_text(&self, e: &Event) -> String {
        match *e {
            Event::NightKillNick { target, .. } => format!("kill nick {}", self.who(target)),
            Event::SearchNick { target, .. } => format!("search {} (E3)", self.who(target)),
            Event::Borrowed { role, .. } => format!("borrows the {role}'s move (E19)"),
            Event::NightAct { ability, target, second, .. } => self.ability_text(ability, target, second),
            ref other => format!("{other:?}"),
        }
    }
}

fn submission_seat(e: &Event) -> Option<Seat> {
    match *e {
        Event::NightAct { seat, .. }
        | Event::Borrowed { seat, .. }
        | Event::NightKillNick { seat, .. }
        | Event::SearchNick { seat, .. } => Some(seat),
        _ => None,
    }
}

/// The night's deaths in announcement order (E32: the Psycho's guests first),
/// each with every kill that reached him.
fn deaths(r: &Resolved) -> Vec<(Seat, bool, Vec<Killer>)> {
    let killed = r.result.killed;
    let guests = r.result.guests.inter(killed);
    let order = guests.iter().chain(killed.minus(guests).iter());
    order
        .map(|s| {
            let by = r
                .log
                .iter()
                .filter_map(|e| match *e {
                    Event::NightKill { target, by } if target == s => Some(by),
                    _ => None,
                })
                .collect();
            (s, guests.contains(s), by)
        })
        .collect()
}

/// A `[carry]` table for the next night's scenario: tonight's deaths added
/// to the dead, and what [`State::carry`] and the moves leave behind.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct NextCarry {
    /// The dead, in the order they died, tonight's deaths last.
    pub dead: Vec<Seat>,
    /// E12: the role the Actor acts as (`null`: not appointed).
    pub actor: Option<Role>,
    /// E14: the role the Deputy acts as (`null`: not promoted).
    pub deputy: Option<Role>,
    /// E18: hexed last night, as the next night sees it.
    pub hexed: PlayerSet,
    /// E23: the Psycho's guest of tonight (`null`: none).
    pub guest: Option<Seat>,
    /// E15: whom the Doctor may not heal next night (`null`: nobody).
    pub last_heal: Option<Seat>,
    /// E26: whom the Thug may not beat next night (`null`: nobody).
    pub last_beating: Option<Seat>,
    /// E21: Lucky players whose spare life is spent.
    pub spare_life_spent: PlayerSet,
    /// E11: swindled so far.
    pub swindled: PlayerSet,
    /// E19: roles borrowed so far.
    pub borrowed: RoleSet,
    /// E3: pairs of bandits who know each other.
    pub bandits_known: Vec<[Seat; 2]>,
}

/// What carries over into the next night: the scenario's carry-over with
/// tonight's deaths, meetings and what [`State::carry`] leaves behind, in the
/// engine's one shape ([`CarryOver`]), as the next night's scenario file
/// reads it back.
fn next_carry_over(r: &Resolved, carry: &Carry) -> CarryOver {
    let st = &r.state;
    let before = &r.scenario.carry;
    let seats = || Seat::all(st.players());
    let mut dead = before.dead.clone();
    dead.extend(deaths(r).into_iter().map(|(s, _, _)| s));
    // E12, E14: the Actor and the Deputy, when they act as another role.
    let acting = [Role::Actor, Role::Deputy]
        .into_iter()
        .filter_map(|role| seats().find(|&s| st.role(s) == role))
        .map(|s| (s, st.acting_role(s)))
        .filter(|&(s, a)| a != st.role(s))
        .collect();
    // E15/E26: what the engine bars next night (`repeat_target`: named or reached).
    let last_targets = [Role::Doctor, Role::Thug]
        .into_iter()
        .filter_map(|role| seats().filter(|&s| st.acting_role(s) == role).find_map(|s| Some((s, st.next_bar(s)?))))
        .collect();
    let lucky: PlayerSet = seats().filter(|&s| st.role(s) == Role::Lucky).collect();
    let mut bandits_known = before.bandits_known.clone();
    for e in &r.log {
        if let Event::BanditsMeet { a, b } = *e {
            bandits_known.push((a, b));
        }
    }
    CarryOver {
        dead,
        acting,
        hexed: carry.hex_next.iter().collect(),
        guest: carry.guest,
        last_targets,
        spare_life_spent: lucky.minus(carry.spare_life).iter().collect(),
        swindled: carry.swindled.iter().collect(),
        borrowed: carry.borrowed.iter().collect(),
        bandits_known,
    }
}

impl NextCarry {
    /// The `[carry]` table of a carry-over: the file's keys (`actor`,
    /// `deputy`, `last_heal`, `last_beating`) name by role what the engine
    /// keeps by seat, and sets are sets.
    fn of(c: &CarryOver, st: &State) -> NextCarry {
        let acting = |role: Role| c.acting.iter().find(|&&(s, _)| st.role(s) == role).map(|&(_, a)| a);
        let last = |role: Role| c.last_targets.iter().find(|&&(s, _)| st.acting_role(s) == role).map(|&(_, t)| t);
        NextCarry {
            dead: c.dead.clone(),
            actor: acting(Role::Actor),
            deputy: acting(Role::Deputy),
            hexed: c.hexed.iter().copied().collect(),
            guest: c.guest,
            last_heal: last(Role::Doctor),
            last_beating: last(Role::Thug),
            spare_life_spent: c.spare_life_spent.iter().copied().collect(),
            swindled: c.swindled.iter().copied().collect(),
            borrowed: c.borrowed.iter().fold(RoleSet::EMPTY, |mut set, &r| {
                set.insert(r);
                set
            }),
            bandits_known: c.bandits_known.iter().map(|&(a, b)| [a, b]).collect(),
        }
    }
}

fn next_night(r: &Resolved, carry: &Carry) -> NextNight {
    let carry = NextCarry::of(&next_carry_over(r, carry), &r.state);
    NextNight { night: r.scenario.night.max(1) as u32 + 1, carry }
}

impl NextNight {
    fn toml(&self) -> Vec<String> {
        let seats = |v: &mut dyn Iterator<Item = Seat>| v.map(|s| n(s).to_string()).collect::<Vec<_>>().join(", ");
        let mut lines = vec![format!("night = {}", self.night), "[carry]".to_string()];
        let c = &self.carry;
        if !c.dead.is_empty() {
            lines.push(format!("dead = [{}]", seats(&mut c.dead.iter().copied())));
        }
        if let Some(r) = c.actor {
            lines.push(format!("actor = \"{r}\""));
        }
        if let Some(r) = c.deputy {
            lines.push(format!("deputy = \"{r}\""));
        }
        if !c.hexed.is_empty() {
            lines.push(format!("hexed = [{}]", seats(&mut c.hexed.iter())));
        }
        if let Some(g) = c.guest {
            lines.push(format!("guest = {}", n(g)));
        }
        if let Some(t) = c.last_heal {
            lines.push(format!("last_heal = {}", n(t)));
        }
        if let Some(t) = c.last_beating {
            lines.push(format!("last_beating = {}", n(t)));
        }
        if !c.spare_life_spent.is_empty() {
            lines.push(format!("spare_life_spent = [{}]", seats(&mut c.spare_life_spent.iter())));
        }
        if !c.swindled.is_empty() {
            lines.push(format!("swindled = [{}]", seats(&mut c.swindled.iter())));
        }
        if !c.borrowed.is_empty() {
            let roles: Vec<String> = c.borrowed.iter().map(|r| format!("\"{r}\"")).collect();
            lines.push(format!("borrowed = [{}]", roles.join(", ")));
        }
        if !c.bandits_known.is_empty() {
            let pairs: Vec<String> = c.bandits_known.iter().map(|&[a, b]| format!("[{}, {}]", n(a), n(b))).collect();
            lines.push(format!("bandits_known = [{}]", pairs.join(", ")));
        }
        lines
    }
}

/// The rules that matter for one night, resolved: E29, E24, C4/E8.
fn night_rules(r: &Resolved) -> String {
    let rules = r.game.rules();
    format!(
        "resolution={}, blast_heal={}, camp_kill={}",
        rules.get("resolution").unwrap_or_default(),
        rules.blast_heal,
        if r.game.leader_kill() { "leader" } else { "unanimous" }
    )
}

/// The trace as readable text.
pub fn to_text(r: &Resolved) -> String {
    let names = Names { r };
    let sc = &r.scenario;
    let st = &r.state;
    let mut o = String::new();
    let order: Vec<&str> = r.game.night_order().iter().map(|s| s.key()).collect();
    writeln!(o, "Scenario {}: night {}, {} seats", sc.name, sc.night, st.players()).unwrap();
    writeln!(o, "Rules of the night: {}", night_rules(r)).unwrap();
    writeln!(o, "Night order: {}", order.join(", ")).unwrap();
    let seats: Vec<String> = Seat::all(st.players())
        .map(|s| {
            let dead = if sc.carry.dead.contains(&s) { ", dead" } else { "" };
            format!("{} ({}{dead})", n(s), st.role(s))
        })
        .collect();
    writeln!(o, "Seats: {}", seats.join(", ")).unwrap();

    let mut carried = Vec::new();
    if !sc.carry.dead.is_empty() {
        carried.push(format!("dead, in the order they died: {}", names.list(&sc.carry.dead)));
    }
    for &(s, role) in &sc.carry.acting {
        let clause = if st.role(s) == Role::Deputy { "E14" } else { "E12" };
        carried.push(format!("{} acts as the {role} ({clause})", names.plain(s)));
    }
    if !sc.carry.hexed.is_empty() {
        carried.push(format!("hexed last night (E18): {}", names.list(&sc.carry.hexed)));
    }
    if let Some(g) = sc.carry.guest {
        carried.push(format!("last night's guest of the Psycho (E23): {}", names.plain(g)));
    }
    for &(s, t) in &sc.carry.last_targets {
        carried.push(format!("last night {} named {}: not again tonight (E15, E26)", names.plain(s), names.plain(t)));
    }
    if !sc.carry.spare_life_spent.is_empty() {
        carried.push(format!("spare life spent (E21): {}", names.list(&sc.carry.spare_life_spent)));
    }
    if !sc.carry.swindled.is_empty() {
        carried.push(format!("swindled before (E11): {}", names.list(&sc.carry.swindled)));
    }
    if !sc.carry.borrowed.is_empty() {
        let roles: Vec<&str> = sc.carry.borrowed.iter().map(|r| r.name()).collect();
        carried.push(format!("roles borrowed before (E19): {}", roles.join(", ")));
    }
    for &(a, b) in &sc.carry.bandits_known {
        carried.push(format!("bandits who know each other (E3): {} and {}", names.plain(a), names.plain(b)));
    }
    if !carried.is_empty() {
        writeln!(o, "\nCarried in:").unwrap();
        for c in carried {
            writeln!(o, "  {c}").unwrap();
        }
    }

    let parts = sections(r);
    writeln!(o, "\nMoves:").unwrap();
    if parts.moves.is_empty() {
        writeln!(o, "  (none)").unwrap();
    }
    let mut i = 0;
    while i < parts.moves.len() {
        let seat = submission_seat(parts.moves[i]).unwrap_or(Seat::new(0));
        let mut what = Vec::new();
        while i < parts.moves.len() && submission_seat(parts.moves[i]) == Some(seat) {
            what.push(names.submission_text(parts.moves[i]));
            i += 1;
        }
        writeln!(o, "  {}: {}", names.who(seat), what.join("; ")).unwrap();
    }

    for (k, (step, events)) in parts.steps.iter().enumerate() {
        writeln!(o, "\n{}. {}", k + 1, step.name()).unwrap();
        let mut any = false;
        for (j, e) in events.iter().enumerate() {
            if let Some(line) = names.event_text(e, events.get(j + 1).copied()) {
                writeln!(o, "  - {line}").unwrap();
                any = true;
            }
        }
        if !any {
            writeln!(o, "  (nothing)").unwrap();
        }
    }

    writeln!(o, "\nDeaths at dawn (E32: the Psycho's guest first):").unwrap();
    let dead = deaths(r);
    if dead.is_empty() {
        writeln!(o, "  nobody").unwrap();
    }
    for (k, (s, _, by)) in dead.iter().enumerate() {
        let why: Vec<String> = by.iter().map(|&b| names.killer(b)).collect();
        writeln!(o, "  {}. {}: {}", k + 1, names.who(*s), why.join("; ")).unwrap();
    }

    let c = st.carry();
    let lucky: PlayerSet = Seat::all(st.players()).filter(|&s| st.role(s) == Role::Lucky).collect();
    writeln!(o, "\nCarry-over:").unwrap();
    writeln!(o, "  hexed next night (E18): {}", names.set(c.hex_next)).unwrap();
    writeln!(o, "  the Psycho's guest, dies next night unless healed (E23): {}", names.set(guest_set(c.guest)))
        .unwrap();
    writeln!(o, "  mined for tomorrow's vote (E25): {}", names.set(c.mines)).unwrap();
    writeln!(o, "  votes removed tomorrow (E28): {}", names.set(c.tricked)).unwrap();
    if !c.secret_voters.is_empty() {
        writeln!(o, "  secret votes tomorrow, the Chosen's borrowed (E19, E16): {}", names.set(c.secret_voters))
            .unwrap();
    }
    writeln!(o, "  spare lives left (E21): {}", names.set(c.spare_life.inter(lucky))).unwrap();
    writeln!(o, "  swindled so far (E11): {}", names.set(c.swindled)).unwrap();
    writeln!(o, "  roles borrowed so far (E19): {}", roles_text(c.borrowed)).unwrap();

    let next = next_night(r, &c);
    writeln!(o, "\nFor the next night's scenario (add the day's lynch to `dead`):").unwrap();
    for line in next.toml() {
        writeln!(o, "  {line}").unwrap();
    }
    o
}

fn guest_set(g: Option<Seat>) -> PlayerSet {
    g.map_or(PlayerSet::EMPTY, PlayerSet::single)
}

/// The trace as one JSON document's value.
pub fn to_json(r: &Resolved) -> Value {
    serde_json::to_value(trace(r)).expect("a trace is JSON")
}

/// The trace as typed data (what `to_json` encodes).
pub fn trace(r: &Resolved) -> Trace {
    let sc = &r.scenario;
    let st = &r.state;
    let seats = Seat::all(st.players())
        .map(|s| TraceSeat {
            seat: s,
            role: st.role(s),
            acting: st.acting_role(s),
            camp: st.role(s).camp(),
            alive_at_dusk: !sc.carry.dead.contains(&s),
        })
        .collect();
    let parts = sections(r);
    let steps = parts
        .steps
        .iter()
        .map(|(step, events)| TraceStep {
            step: *step,
            name: step.name(),
            events: events.iter().map(|&&e| e).collect(),
        })
        .collect();
    let deaths =
        deaths(r).into_iter().map(|(s, guest, by)| TraceDeath { seat: s, role: st.role(s), guest, by }).collect();
    let c = st.carry();
    let lucky: PlayerSet = Seat::all(st.players()).filter(|&s| st.role(s) == Role::Lucky).collect();
    Trace {
        scenario: sc.name.clone(),
        night: sc.night,
        rules: r.game.resolved_rules(),
        camp_kill: if r.game.leader_kill() { CampKillMode::Leader } else { CampKillMode::Unanimous },
        night_order: r.game.night_order().to_vec(),
        seats,
        carried_in: CarriedIn::of(&sc.carry),
        moves: parts.moves.iter().map(|&&e| e).collect(),
        steps,
        deaths,
        carry: Carry { spare_life: c.spare_life.inter(lucky), ..c },
        next_night: next_night(r, &c),
    }
}
