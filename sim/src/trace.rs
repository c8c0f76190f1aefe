//! The night calculator's output: a resolved scenario told step by step in
//! the night order (E30) — who was blocked by whom, what was redirected, who
//! was protected, who died and why, what each information role learned, the
//! cycles broken (E29) — then the deaths in announcement order (E32) and what
//! carries over ([`State::carry`]). Readable text, or one JSON document.
//!
//! Everything here is read off the engine's event log and state; nothing is
//! decided here. Seats print 1-based with their role: `3 (thief)`.

use crate::scenario_file::{Resolved, ScenarioFileError, load_scenario};
use mafia_engine::{
    Camp, Carry, Event, Fail, Killer, MissReason, NightAbility, NightStep, PlayerSet, RULE_KEYS, Report, Role, RoleSet,
    Seat, Status,
};
use serde_json::{Value, json};
use std::fmt::Write;
use std::path::Path;

/// `mafia resolve FILE [--json]`: reads, checks and resolves a scenario file
/// and returns the trace (text, or pretty JSON).
pub fn resolve_file(path: &Path, as_json: bool) -> Result<String, ScenarioFileError> {
    let r = load_scenario(path)?.resolve()?;
    Ok(if as_json { format!("{:#}\n", to_json(&r)) } else { to_text(&r) })
}

/// Seat names: `3 (thief)`, `9 (actor as thief)` for a seat acting in another role.
struct Names<'a> {
    r: &'a Resolved,
}

impl Names<'_> {
    fn valid(&self, s: Seat) -> bool {
        (s as usize) < self.r.state.players()
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
        if role == acting {
            format!("{} ({role})", s as u32 + 1)
        } else {
            format!("{} ({role} as {acting})", s as u32 + 1)
        }
    }

    /// The seat with its own role only.
    fn plain(&self, s: Seat) -> String {
        if !self.valid(s) {
            return "?".into();
        }
        format!("{} ({})", s as u32 + 1, self.role(s))
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
    s as u64 + 1
}

fn seats_json(set: PlayerSet) -> Value {
    Value::from(set.iter().map(n).collect::<Vec<_>>())
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

    fn watch_camps(camps: [bool; Camp::COUNT]) -> String {
        let seen: Vec<&str> = Camp::ALL.iter().filter(|&&c| camps[c as usize]).map(|c| c.name()).collect();
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
struct NextCarry {
    night: u32,
    dead: Vec<Seat>,
    actor: Option<Role>,
    deputy: Option<Role>,
    hexed: PlayerSet,
    guest: Option<Seat>,
    last_heal: Option<Seat>,
    last_beating: Option<Seat>,
    spare_life_spent: PlayerSet,
    swindled: PlayerSet,
    borrowed: RoleSet,
    bandits_known: Vec<(Seat, Seat)>,
}

fn next_carry(r: &Resolved, carry: &Carry) -> NextCarry {
    let st = &r.state;
    let mut dead = r.scenario.dead.clone();
    dead.extend(deaths(r).into_iter().map(|(s, _, _)| s));
    let seat_of = |role: Role| (0..st.players() as Seat).find(|&s| st.role(s) == role);
    let acting = |role: Role| seat_of(role).map(|s| st.acting_role(s)).filter(|&a| a != role);
    // E15, E26: the target each named (the engine keeps the submitted one).
    // E15/E26: what the engine bars next night (`repeat_target`: named or reached).
    let last =
        |role: Role| (0..st.players() as Seat).filter(|&s| st.acting_role(s) == role).find_map(|s| st.next_bar(s));
    let lucky: PlayerSet = (0..st.players() as Seat).filter(|&s| st.role(s) == Role::Lucky).collect();
    let mut bandits_known = r.scenario.bandits_known.clone();
    for e in &r.log {
        if let Event::BanditsMeet { a, b } = *e {
            bandits_known.push((a, b));
        }
    }
    NextCarry {
        night: r.scenario.night.max(1) as u32 + 1,
        dead,
        actor: acting(Role::Actor),
        deputy: acting(Role::Deputy),
        hexed: carry.hex_next,
        guest: carry.guest,
        last_heal: last(Role::Doctor),
        last_beating: last(Role::Thug),
        spare_life_spent: lucky.minus(carry.spare_life),
        swindled: carry.swindled,
        borrowed: carry.borrowed,
        bandits_known,
    }
}

impl NextCarry {
    fn toml(&self) -> Vec<String> {
        let seats = |v: &mut dyn Iterator<Item = Seat>| v.map(|s| n(s).to_string()).collect::<Vec<_>>().join(", ");
        let mut lines = vec![format!("night = {}", self.night), "[carry]".to_string()];
        if !self.dead.is_empty() {
            lines.push(format!("dead = [{}]", seats(&mut self.dead.iter().copied())));
        }
        if let Some(r) = self.actor {
            lines.push(format!("actor = \"{r}\""));
        }
        if let Some(r) = self.deputy {
            lines.push(format!("deputy = \"{r}\""));
        }
        if !self.hexed.is_empty() {
            lines.push(format!("hexed = [{}]", seats(&mut self.hexed.iter())));
        }
        if let Some(g) = self.guest {
            lines.push(format!("guest = {}", n(g)));
        }
        if let Some(t) = self.last_heal {
            lines.push(format!("last_heal = {}", n(t)));
        }
        if let Some(t) = self.last_beating {
            lines.push(format!("last_beating = {}", n(t)));
        }
        if !self.spare_life_spent.is_empty() {
            lines.push(format!("spare_life_spent = [{}]", seats(&mut self.spare_life_spent.iter())));
        }
        if !self.swindled.is_empty() {
            lines.push(format!("swindled = [{}]", seats(&mut self.swindled.iter())));
        }
        if !self.borrowed.is_empty() {
            let roles: Vec<String> = self.borrowed.iter().map(|r| format!("\"{r}\"")).collect();
            lines.push(format!("borrowed = [{}]", roles.join(", ")));
        }
        if !self.bandits_known.is_empty() {
            let pairs: Vec<String> = self.bandits_known.iter().map(|&(a, b)| format!("[{}, {}]", n(a), n(b))).collect();
            lines.push(format!("bandits_known = [{}]", pairs.join(", ")));
        }
        lines
    }

    fn json(&self) -> Value {
        json!({
            "night": self.night,
            "carry": {
                "dead": self.dead.iter().map(|&s| n(s)).collect::<Vec<_>>(),
                "actor": self.actor.map(|r| r.name()),
                "deputy": self.deputy.map(|r| r.name()),
                "hexed": seats_json(self.hexed),
                "guest": self.guest.map(n),
                "last_heal": self.last_heal.map(n),
                "last_beating": self.last_beating.map(n),
                "spare_life_spent": seats_json(self.spare_life_spent),
                "swindled": seats_json(self.swindled),
                "borrowed": self.borrowed.iter().map(|r| r.name()).collect::<Vec<_>>(),
                "bandits_known": self.bandits_known.iter().map(|&(a, b)| [n(a), n(b)]).collect::<Vec<_>>(),
            }
        })
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
    let seats: Vec<String> = (0..st.players() as Seat)
        .map(|s| {
            let dead = if sc.dead.contains(&s) { ", dead" } else { "" };
            format!("{} ({}{dead})", n(s), st.role(s))
        })
        .collect();
    writeln!(o, "Seats: {}", seats.join(", ")).unwrap();

    let mut carried = Vec::new();
    if !sc.dead.is_empty() {
        carried.push(format!("dead, in the order they died: {}", names.list(&sc.dead)));
    }
    for &(s, role) in &sc.acting {
        let clause = if st.role(s) == Role::Deputy { "E14" } else { "E12" };
        carried.push(format!("{} acts as the {role} ({clause})", names.plain(s)));
    }
    if !sc.hexed.is_empty() {
        carried.push(format!("hexed last night (E18): {}", names.list(&sc.hexed)));
    }
    if let Some(g) = sc.guest {
        carried.push(format!("last night's guest of the Psycho (E23): {}", names.plain(g)));
    }
    for &(s, t) in &sc.last_targets {
        carried.push(format!("last night {} named {}: not again tonight (E15, E26)", names.plain(s), names.plain(t)));
    }
    if !sc.spare_life_spent.is_empty() {
        carried.push(format!("spare life spent (E21): {}", names.list(&sc.spare_life_spent)));
    }
    if !sc.swindled.is_empty() {
        carried.push(format!("swindled before (E11): {}", names.list(&sc.swindled)));
    }
    if !sc.borrowed.is_empty() {
        let roles: Vec<&str> = sc.borrowed.iter().map(|r| r.name()).collect();
        carried.push(format!("roles borrowed before (E19): {}", roles.join(", ")));
    }
    for &(a, b) in &sc.bandits_known {
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
        let seat = submission_seat(parts.moves[i]).unwrap_or(0);
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
    let lucky: PlayerSet = (0..st.players() as Seat).filter(|&s| st.role(s) == Role::Lucky).collect();
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

    let next = next_carry(r, &c);
    writeln!(o, "\nFor the next night's scenario (add the day's lynch to `dead`):").unwrap();
    for line in next.toml() {
        writeln!(o, "  {line}").unwrap();
    }
    o
}

fn guest_set(g: Option<Seat>) -> PlayerSet {
    g.map_or(PlayerSet::EMPTY, PlayerSet::single)
}

fn fail_json(f: Fail) -> Value {
    match f {
        Fail::Blocked { status, by } => json!({"kind": f.key(), "status": status.name(), "by": by.map(n)}),
        other => json!({"kind": other.key()}),
    }
}

fn killer_json(k: Killer) -> Value {
    match k {
        Killer::Camp { camp, decider } => json!({"kind": "camp", "camp": camp.name(), "decider": n(decider)}),
        Killer::Shooter(s) => json!({"kind": "shooter", "seat": n(s)}),
        Killer::Guest(p) => json!({"kind": "guest", "psycho": n(p)}),
        Killer::Blast(p) => json!({"kind": "blast", "psycho": n(p)}),
    }
}

fn ability_json(a: NightAbility) -> Value {
    match a {
        NightAbility::CheckIsRole(r) => json!(format!("{}:{}", a.info().name, r.name())),
        a => json!(a.info().name),
    }
}

fn camps_json(camps: [bool; Camp::COUNT]) -> Value {
    Value::from(Camp::ALL.iter().filter(|&&c| camps[c as usize]).map(|c| c.name()).collect::<Vec<_>>())
}

fn event_json(e: &Event) -> Value {
    let o = |s: Option<Seat>| s.map(n);
    match *e {
        Event::NightAct { seat, ability, target, second } => json!({"event": "move", "seat": n(seat),
            "ability": ability_json(ability), "target": o(target), "second": o(second)}),
        Event::Borrowed { seat, role } => json!({"event": "borrow", "seat": n(seat), "role": role.name()}),
        Event::NightKillNick { seat, target } => json!({"event": "kill_nick", "seat": n(seat), "target": n(target)}),
        Event::SearchNick { seat, target } => json!({"event": "search_nick", "seat": n(seat), "target": n(target)}),
        Event::Promoted { seat, role } => json!({"event": "promoted", "seat": n(seat), "role": role.name()}),
        Event::Introduced { a, b } => json!({"event": "introduced", "seats": [n(a), n(b)]}),
        Event::HexHolds { seat } => json!({"event": "hex_holds", "seat": n(seat)}),
        Event::CycleBroken { seat } => json!({"event": "cycle_broken", "seat": n(seat)}),
        Event::Succeeded { seat, ability, target } => {
            json!({"event": "succeeded", "seat": n(seat), "ability": ability_json(ability), "target": o(target)})
        }
        Event::Failed { seat, ability, reason } => {
            json!({"event": "failed", "seat": n(seat), "ability": ability_json(ability), "reason": fail_json(reason)})
        }
        Event::Redirected { by, victim, from, to } => {
            json!({"event": "redirected", "by": n(by), "victim": n(victim), "from": o(from), "to": n(to)})
        }
        Event::StatusSet { seat, status, by } => {
            json!({"event": "status", "seat": n(seat), "status": status.name(), "by": n(by)})
        }
        Event::BeatenWatching { seat } => json!({"event": "beaten_watching", "seat": n(seat)}),
        Event::Guarded { seat, by } => json!({"event": "guarded", "seat": n(seat), "by": n(by)}),
        Event::Healed { seat, by } => json!({"event": "healed", "seat": n(seat), "by": n(by)}),
        Event::BossCheck { seat, target, plain, camp } => json!({"event": "boss_check", "seat": n(seat),
            "target": n(target), "plain": plain, "camp": camp.name()}),
        Event::CampCheck { seat, target, camp } => {
            json!({"event": "camp_check", "seat": n(seat), "target": n(target), "camp": camp.name()})
        }
        Event::RoleCheck { seat, target, role, yes } => json!({"event": "role_check", "seat": n(seat),
            "target": n(target), "role": role.name(), "yes": yes}),
        Event::Learned { seat, report } => {
            let report = match report {
                Report::Compare { a, b, same } => json!({"kind": "compare", "a": n(a), "b": n(b), "same": same}),
                Report::Watch { target, camps } => {
                    json!({"kind": "watch", "target": n(target), "camps": camps_json(camps)})
                }
                Report::Scout { checked, robbed, healed } => {
                    json!({"kind": "scout", "checked": o(checked), "robbed": o(robbed), "healed": o(healed)})
                }
            };
            json!({"event": "learned", "seat": n(seat), "report": report})
        }
        Event::NightKill { target, by } => json!({"event": "kill", "target": n(target), "by": killer_json(by)}),
        Event::KillFailed { target, by, reason } => json!({"event": "kill_failed", "target": n(target),
            "by": killer_json(by), "reason": fail_json(reason)}),
        Event::GuestSaved { seat, by } => json!({"event": "guest_saved", "seat": n(seat), "by": n(by)}),
        Event::SpareLife { seat } => json!({"event": "spare_life", "seat": n(seat)}),
        Event::HexLifted { seat } => json!({"event": "hex_lifted", "seat": n(seat)}),
        Event::BanditsMeet { a, b } => json!({"event": "bandits_meet", "seats": [n(a), n(b)]}),
        Event::NightMiss(MissReason::Silent(s)) => json!({"event": "miss", "reason": "silent", "seat": n(s)}),
        Event::NightMiss(MissReason::Disagree(a, b)) => {
            json!({"event": "miss", "reason": "disagree", "seats": [n(a), n(b)]})
        }
        ref other => json!({"event": format!("{other:?}")}),
    }
}

/// The trace as one JSON document.
pub fn to_json(r: &Resolved) -> Value {
    let sc = &r.scenario;
    let st = &r.state;
    let rules: serde_json::Map<String, Value> =
        RULE_KEYS.iter().map(|k| (k.name.to_string(), json!(r.game.resolved_rules().get(k.name)))).collect();
    let seats: Vec<Value> = (0..st.players() as Seat)
        .map(|s| {
            json!({"seat": n(s), "role": st.role(s).name(), "acting": st.acting_role(s).name(),
                "camp": st.role(s).camp().name(), "alive_at_dusk": !sc.dead.contains(&s)})
        })
        .collect();
    let parts = sections(r);
    let steps: Vec<Value> = parts
        .steps
        .iter()
        .map(|(step, events)| {
            json!({"step": step.key(), "name": step.name(),
                "events": events.iter().map(|e| event_json(e)).collect::<Vec<_>>()})
        })
        .collect();
    let deaths: Vec<Value> = deaths(r)
        .into_iter()
        .map(|(s, guest, by)| {
            json!({"seat": n(s), "role": st.role(s).name(), "guest": guest,
                "by": by.into_iter().map(killer_json).collect::<Vec<_>>()})
        })
        .collect();
    let c = st.carry();
    let lucky: PlayerSet = (0..st.players() as Seat).filter(|&s| st.role(s) == Role::Lucky).collect();
    json!({
        "scenario": sc.name,
        "night": sc.night,
        "rules": rules,
        "camp_kill": if r.game.leader_kill() { "leader" } else { "unanimous" },
        "night_order": r.game.night_order().iter().map(|s| s.key()).collect::<Vec<_>>(),
        "seats": seats,
        "carried_in": {
            "dead": sc.dead.iter().map(|&s| n(s)).collect::<Vec<_>>(),
            "acting": sc.acting.iter().map(|&(s, r)| json!({"seat": n(s), "role": r.name()})).collect::<Vec<_>>(),
            "hexed": sc.hexed.iter().map(|&s| n(s)).collect::<Vec<_>>(),
            "guest": sc.guest.map(n),
            "last_targets": sc.last_targets.iter().map(|&(s, t)| json!({"seat": n(s), "target": n(t)}))
                .collect::<Vec<_>>(),
            "spare_life_spent": sc.spare_life_spent.iter().map(|&s| n(s)).collect::<Vec<_>>(),
            "swindled": sc.swindled.iter().map(|&s| n(s)).collect::<Vec<_>>(),
            "borrowed": sc.borrowed.iter().map(|r| r.name()).collect::<Vec<_>>(),
            "bandits_known": sc.bandits_known.iter().map(|&(a, b)| [n(a), n(b)]).collect::<Vec<_>>(),
        },
        "moves": parts.moves.iter().map(|e| event_json(e)).collect::<Vec<_>>(),
        "steps": steps,
        "deaths": deaths,
        "carry": {
            "hex_next": seats_json(c.hex_next),
            "guest": c.guest.map(n),
            "mines": seats_json(c.mines),
            "tricked": seats_json(c.tricked),
            "secret_voters": seats_json(c.secret_voters),
            "spare_life": seats_json(c.spare_life.inter(lucky)),
            "swindled": seats_json(c.swindled),
            "borrowed": c.borrowed.iter().map(|r| r.name()).collect::<Vec<_>>(),
        },
        "next_night": next_carry(r, &c).json(),
    })
}
