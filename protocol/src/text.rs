//! Games as plain English: the replay's story (`mafia replay`), and the
//! same story from one seat's point of view — its view's record, with only
//! the roles it knows named — for agents that read text (language models).

use mafia_engine::{
    Camp, DeathCause, Event, Fail, Killer, LynchResult, MissReason, NightAbility, PlayerSet, Publication, Report, Role,
    Seat, Status, View, Vote,
};
use std::fmt::Write;

/// A seat as the story names it: `P1`, `P2`, …
pub fn p(s: Seat) -> String {
    format!("P{}", s.number())
}

/// Seats named and separated by spaces (`P2 P5`).
pub fn set(s: PlayerSet) -> String {
    s.iter().map(p).collect::<Vec<_>>().join(" ")
}

/// A vote: the seat voted for, or `PASS`.
pub fn vote_text(v: Vote) -> String {
    match v {
        Vote::For(t) => p(t),
        Vote::Pass => "PASS".into(),
    }
}

/// A post's claim and published checks, in words.
pub fn publication_text(x: &Publication) -> String {
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

/// The story's names for seats: `P3 (doctor)` where the teller knows the
/// role (the whole deal in a replay; what one seat knows in its view).
struct Names<'a> {
    roles: &'a [Option<Role>],
}

impl Names<'_> {
    fn who(&self, s: Seat) -> String {
        match self.roles.get(s.index()) {
            Some(Some(r)) => format!("{} ({r})", p(s)),
            Some(None) => p(s),
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
                // E22: one camp per visitor, so two town visitors read "town, town".
                let seen: Vec<&str> = Camp::each(camps).map(Camp::name).collect();
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

/// Writes the story of `log`, one line per event. `roles[s]`: seat `s`'s
/// role where the teller knows it; `leader`: the camp kill is decided by
/// its leader (E8), which the story names.
pub fn story_lines(roles: &[Option<Role>], leader: bool, log: &[Event], o: &mut String) {
    let names = Names { roles };
    let who = |s: Seat| names.who(s);
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
                let clause = if roles.get(seat.index()) == Some(&Some(Role::Deputy)) { "E14" } else { "E12" };
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
}

/// The view as plain English: who the seat is and what it knows, the story
/// so far from its point of view (only the roles it knows are named), the
/// talk, and the decision asked with its options.
pub fn view_text(view: &View) -> String {
    let me = view.seat;
    let pv = &view.private;
    let n = view.setup.players as usize;
    let mut roles: Vec<Option<Role>> = vec![None; n];
    if let Some(r) = roles.get_mut(me.index()) {
        *r = Some(pv.role);
    }
    for m in &pv.mates {
        if let Some(r) = roles.get_mut(m.seat.index()) {
            *r = Some(m.role);
        }
    }
    let mut o = String::new();
    let setup: Vec<String> = view.setup.roles.iter().map(|c| format!("{} {}", c.count, c.role)).collect();
    writeln!(o, "You are {}, the {} ({}). {} players: {}.", p(me), pv.role, pv.camp, n, setup.join(", ")).unwrap();
    if pv.acting != pv.role {
        writeln!(o, "You act as the {} at night.", pv.acting).unwrap();
    }
    if !pv.mates.is_empty() {
        let mates: Vec<String> = pv.mates.iter().map(|m| format!("{} ({})", p(m.seat), m.role)).collect();
        writeln!(o, "Your mates: {}.", mates.join(", ")).unwrap();
    }
    for (camp, found) in [(Camp::Town, pv.found_town), (Camp::Mafia, pv.found_mafia), (Camp::Bandits, pv.found_bandits)]
    {
        if !found.is_empty() {
            writeln!(o, "Your checks found {} in the {camp} camp.", set(found)).unwrap();
        }
    }
    let leader = view.setup.rules.camp_kill == mafia_engine::CampKill::Leader;
    story_lines(&roles, leader, &view.record, &mut o);
    if !view.talk.is_empty() {
        writeln!(o, "\nTalk:").unwrap();
        for (i, line) in view.talk.iter().enumerate() {
            writeln!(o, "  [{i}] {line}").unwrap();
        }
    }
    writeln!(o, "\nAlive: {}. Nights in a row without a kill: {}.", set(view.alive), view.nights_without_kill).unwrap();
    writeln!(o, "Asked: {}", request_text(&view.request)).unwrap();
    o
}

/// A request and its options in one line.
fn request_text(r: &mafia_engine::Request) -> String {
    use mafia_engine::Request as R;
    let moves = |m: &mafia_engine::MoveOptions| {
        let whom = if m.targets.is_empty() { "nobody".to_string() } else { set(m.targets) };
        let mut s = format!("{} one of {whom}", verb(m.ability));
        for second in &m.second {
            write!(s, "; after {}: {}", p(second.first), set(second.options)).unwrap();
        }
        s
    };
    match r {
        R::Start => "nothing (the game starts)".into(),
        R::Post { .. } => "your day post (a claim, checks to reveal, accusations, a line of text)".into(),
        R::Vote { options } => format!("your vote: one of {} or PASS", set(*options)),
        R::Revise { current, options } => format!(
            "your one change of vote (now {}): one of {} or PASS, or keep it",
            current.map_or("none".into(), vote_text),
            set(*options)
        ),
        R::Defence { .. } => "your defence (you are tied for the lead)".into(),
        R::Runoff { options } => format!("your runoff vote: one of {}", set(*options)),
        R::HangBoth { pair } => format!("hang both of {} or pardon both", set(*pair)),
        R::Night { options } => {
            let mut parts = Vec::new();
            if let Some(k) = options.kill {
                parts.push(format!("the kill on one of {}", set(k)));
            }
            if let Some(m) = &options.act {
                parts.push(format!("your move: {}", moves(m)));
            }
            for b in &options.borrow {
                parts.push(format!("or borrow the {}: {}", b.role, moves(&b.act)));
            }
            if let Some(s) = options.search {
                parts.push(format!("the search on one of {}", set(s)));
            }
            if options.defer {
                parts.push("or leave your move to the Boss".into());
            }
            format!("your night moves: {}", if parts.is_empty() { "none".into() } else { parts.join("; ") })
        }
        R::Proxy { member, act } => format!("the move of {} on his behalf: {}", p(*member), moves(act)),
        R::Appoint { vacant } => {
            let v: Vec<&str> = vacant.iter().map(|r| r.name()).collect();
            format!("the role the Actor takes: one of {} or none yet", v.join(", "))
        }
        R::SecretVote { votes, options } => format!("whom your {votes} secret votes go to: one of {}", set(*options)),
        R::LastWord { .. } => "your last word".into(),
    }
}
