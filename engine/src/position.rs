//! A position: a game stopped between phases, to be played on from there
//! (the engine side of `mafia odds`). [`Position`] is the unchecked data — the
//! setup (whose role counts are public, C1/E4), the seats' roles where they
//! are known, the phase, the dead, what carries over (the night
//! calculator's carry, [`crate::Scenario`]), what was made public and what
//! was learned privately. [`Start::new`] checks it, listing *every* problem
//! with a path as [`crate::resolve_scenario`] does, and settles which roles
//! are fixed and which are dealt anew in every game ([`Start::sample`]).
//! [`crate::play_from`] plays one game on from it.
//!
//! Knowledge and sampling. Without `view`, every role the position names is
//! fixed and the rest are dealt. With `view = v`, only what seat `v` knows
//! is fixed: his own role, his camp mates where the rules say so (C2, E1),
//! the roles announced on death (C9's setting), and — because the position
//! could not carry them otherwise — the holders named by a carried item (an
//! appointment, a last heal or beating, a spent spare life, a bandits'
//! meeting). His check results (C5, C6, E13) constrain the rest (a Don's
//! "yes" pins the Commissar). Every other seat's role is dealt per game:
//! the unfixed roles of the setup are shuffled over the unfixed seats by the
//! same Fisher–Yates as [`State::deal`], and a deal that contradicts a check
//! is drawn again — so deals are uniform among those consistent with the
//! knowledge, and with nothing fixed the deal is exactly [`State::deal`]'s.

use crate::event::DeathCause;
use crate::role::{Camp, NightAbility, Role, RoleSet};
use crate::scenario::{CarryOver, apply_carry};
use crate::seat::{MAX_PLAYERS, PlayerSet, Seat};
use crate::setup::{Game, Setup, SetupError, SetupProblem};
use crate::speech::{Publication, Vote};
use crate::state::{CheckOutcome, End, Phase, State, end_by_counts};
use rand::Rng;

/// A check made on an earlier night and its answer (C5, C6, E13).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Check {
    /// The checker: the Commissar or the Detective (a camp), or the Don ("is he the Commissar?").
    pub by: Seat,
    /// The checked player.
    pub target: Seat,
    /// The answer; `None`: read from the target's role, which must then be known.
    pub outcome: Option<CheckOutcome>,
}

/// A game stopped before a phase. Seats are 0-based here; files count from 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    /// The position's name (the file's stem), for titles.
    pub name: String,
    /// The setup: its role counts are public (C1, E4), its rules and night order hold.
    pub setup: Setup,
    /// Each seat's role where the position names it; `None`: unknown, dealt per game.
    pub roles: Vec<Option<Role>>,
    /// The seat whose knowledge alone is fixed (see the module doc); `None`: all named roles.
    pub view: Option<Seat>,
    /// The phase to start at: a day before its posts and votes (C10), or a
    /// night before its moves (C4–C7). C3: day 1 is the game's start.
    pub phase: Phase,
    /// What carries over from earlier phases, as in a scenario: the dead in
    /// the order they died (E14 reads the order), appointments and
    /// promotions, E18 hexes, E23 guest, E15/E26 last targets, E21 spent
    /// spare lives, E11 swindles, E19 borrowings, E3 bandits' meetings.
    pub carry: CarryOver,
    /// Those of `carry.dead` killed at night (public at dawn); the rest were lynched.
    pub killed: Vec<Seat>,
    /// Those of `carry.dead` the host removed (C15): their roles were never
    /// announced, whatever C9's setting.
    pub modkilled: Vec<Seat>,
    /// C8: consecutive nights without the mafia's kill so far.
    pub nights_without_kill: u8,
    /// Earlier check results (private to the checker).
    pub checks: Vec<Check>,
    /// What players have published so far (C10 posts, C13 last words): claims and check reveals.
    pub published: Vec<(Seat, Publication)>,
    /// Final votes of finished days (C10), public. The last day's — at
    /// `Day(d)` day d − 1's (what the players read as yesterday's), at
    /// `Night(d)` day d's (what the night reads, e.g. C4's signal) — are
    /// that day's count; earlier days' are the record of votes the players
    /// start from ([`Observation::carried_votes`](crate::Observation::carried_votes)).
    /// Seats not listed cast no vote that day.
    pub votes: Vec<DayVote>,
}

/// One player's final vote of one finished day (C10), public.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DayVote {
    /// The day (from 1).
    pub day: u16,
    /// The voter.
    pub by: Seat,
    /// His final vote.
    pub vote: Vote,
}

impl Position {
    /// The last finished day, whose final votes are the count the players
    /// read (0: none before day 1).
    pub fn last_vote_day(&self) -> u16 {
        match self.phase {
            Phase::Day(d) => d.saturating_sub(1),
            Phase::Night(d) => d,
        }
    }

    /// The start of a game of `setup`: day 1, nothing known, nobody dead.
    pub fn start_of(setup: &Setup) -> Position {
        Position {
            name: setup.name.clone(),
            setup: setup.clone(),
            roles: vec![None; setup.players().min(MAX_PLAYERS as u64) as usize],
            view: None,
            phase: Phase::Day(1),
            carry: CarryOver::default(),
            killed: Vec::new(),
            modkilled: Vec::new(),
            nights_without_kill: 0,
            checks: Vec::new(),
            published: Vec::new(),
            votes: Vec::new(),
        }
    }
}

/// How many deals [`Start::sample`] draws before giving up on a game (the
/// knowledge is possible — [`Start::new`] found a deal — but may be very
/// unlikely under a uniform deal).
pub const SAMPLE_TRIES: u32 = 1 << 16;

/// A checked position: the game, the roles fixed and the constraints on the rest.
#[derive(Clone, Debug)]
pub struct Start {
    game: Game,
    pos: Position,
    /// The roles fixed in every game (`None`: dealt).
    fixed: Vec<Option<Role>>,
    /// The seats dealt per game, in seat order, and the roles dealt to them
    /// (the setup's multiset in its fixed order, less the fixed roles).
    free_seats: Vec<Seat>,
    free_roles: Vec<Role>,
    /// Per seat, the roles a dealt role may be (check results); all roles when unconstrained.
    allowed: Vec<RoleSet>,
    constrained: bool,
    /// The outcome of each check, settled.
    outcomes: Vec<CheckOutcome>,
    /// The end every deal of the position has already reached (C17, C18, E2).
    decided: Option<End>,
}

/// The end the position has reached whatever the deal (C17, C18, E2), if
/// any: the living seats' camps are the fixed roles' plus some split of the
/// dealt roles' camps over the living dealt seats, and every split must end
/// the game the same way. Check results are not used to narrow the splits,
/// so a position they alone decide is still played (every game then ends
/// at once, as [`crate::play_on`] ends any state over by the numbers).
fn decided_by_counts(
    game: &Game,
    fixed: &[Option<Role>],
    free_seats: &[Seat],
    free_roles: &[Role],
    dead: PlayerSet,
) -> Option<End> {
    let mut known = [0u32; Camp::COUNT];
    for (s, r) in fixed.iter().enumerate() {
        if let Some(r) = r
            && !dead.contains(Seat::from_index(s))
        {
            known[r.camp() as usize] += 1;
        }
    }
    let mut pool = [0u32; Camp::COUNT];
    free_roles.iter().for_each(|r| pool[r.camp() as usize] += 1);
    let k = free_seats.iter().filter(|&&s| !dead.contains(s)).count() as u32;
    let (m, t, b) = (Camp::Mafia as usize, Camp::Town as usize, Camp::Bandits as usize);
    let mut end: Option<Option<End>> = None;
    for dm in 0..=pool[m].min(k) {
        for dt in 0..=pool[t].min(k - dm) {
            let db = k - dm - dt;
            if db > pool[b] {
                continue;
            }
            let e = end_by_counts(known[m] + dm, known[t] + dt, known[b] + db, game.mafia_win);
            match end {
                None => end = Some(e),
                Some(prev) if prev != e => return None,
                Some(_) => {}
            }
        }
    }
    end.flatten()
}

fn all_roles() -> RoleSet {
    let mut r = RoleSet::EMPTY;
    for role in Role::ALL {
        r.insert(role);
    }
    r
}

fn camp_roles(c: Camp) -> RoleSet {
    let mut r = RoleSet::EMPTY;
    for role in Role::ALL {
        if role.camp() == c {
            r.insert(role);
        }
    }
    r
}

/// What a check by `role` can answer (C5, C6, E13): a camp, or "is he the Commissar?".
fn check_kind(role: Role) -> Option<bool> {
    match role.info().night {
        NightAbility::CheckCamp => Some(true),
        _ if role == Role::Don => Some(false),
        _ => None,
    }
}

fn outcome_of(checker: Role, target: Role) -> CheckOutcome {
    if checker == Role::Don {
        CheckOutcome::IsRole(Role::Commissar, target == Role::Commissar)
    } else {
        CheckOutcome::Camp(target.camp())
    }
}

fn admits(o: CheckOutcome, r: Role) -> bool {
    match o {
        CheckOutcome::Camp(c) => r.camp() == c,
        CheckOutcome::IsRole(x, yes) => (r == x) == yes,
    }
}

/// A perfect matching of `seats` to `roles` (each seat one role it allows),
/// by augmenting paths; `None` if there is none. At most 64 × 64.
fn matching(seats: &[Seat], roles: &[Role], allowed: &[RoleSet]) -> Option<Vec<Role>> {
    let m = seats.len();
    let mut owner: Vec<Option<usize>> = vec![None; roles.len()];
    fn augment(
        i: usize,
        seats: &[Seat],
        roles: &[Role],
        allowed: &[RoleSet],
        seen: &mut [bool],
        owner: &mut [Option<usize>],
    ) -> bool {
        for j in 0..roles.len() {
            if seen[j] || !allowed[seats[i].index()].contains(roles[j]) {
                continue;
            }
            seen[j] = true;
            if owner[j].is_none_or(|k| augment(k, seats, roles, allowed, seen, owner)) {
                owner[j] = Some(i);
                return true;
            }
        }
        false
    }
    for i in 0..m {
        let mut seen = vec![false; roles.len()];
        if !augment(i, seats, roles, allowed, &mut seen, &mut owner) {
            return None;
        }
    }
    let mut out = vec![Role::Citizen; m];
    for (j, o) in owner.iter().enumerate() {
        if let Some(i) = o {
            out[*i] = roles[j];
        }
    }
    Some(out)
}

/// The most players who can die in one day and in one night under `game`'s
/// setup and rules, modkills (C15) aside: a bound a history must keep, not
/// a count of what is likely. A day: one lynch (C11), two under
/// `tie_break = catastrophe` (C12.3–C12.4's hang-both; "never more than
/// two leave"), plus one mined player per Miner (E25: he dies "lynched or
/// not"), at most two in all under `lynch_limit = day`. A night: the camp kill while any mafia role is dealt (C4, E8),
/// one shot per Shooter (E20) and one more if a Role Prostitute may
/// borrow the Shooter's move (E19), and per Psycho last night's guest
/// (E23) and tonight's, blasted with him (E24).
pub fn death_bounds(game: &Game) -> (usize, usize) {
    let lynch = if game.rules.tie_break == crate::rules::TieBreak::Catastrophe { 2 } else { 1 };
    let mut per_day = lynch + game.count(Role::Miner);
    if game.rules.lynch_limit == crate::rules::LynchLimit::Day {
        // C12.6 bounds the mines too (`lynch_limit = day`).
        per_day = per_day.min(2);
    }
    let mafia = Role::ALL.iter().any(|&r| r.camp() == Camp::Mafia && game.count(r) > 0);
    let shooters = game.count(Role::Shooter);
    let borrowed = usize::from(shooters > 0 && game.count(Role::Prostitute) > 0);
    let per_night = usize::from(mafia) + shooters + borrowed + 2 * game.count(Role::Psycho);
    (per_day, per_night)
}

impl Start {
    /// Checks a position; every problem has a path: `roles`/`rules.x` (the
    /// setup), `seats` or `seats.3` (a seat's role), `phase`, `view`,
    /// `dead.2`, `killed.0`, `nights_without_kill`, `acting.0`, `hexed.1`,
    /// `guest`, `last_targets.0`, `spare_life_spent.0`, `swindled.0`,
    /// `borrowed.0`, `bandits_known.0`, `checks.1`, `published.0` (list index from 0).
    pub fn new(pos: &Position) -> Result<Start, SetupError> {
        let game = Game::new(&pos.setup)?;
        let mut problems = Vec::new();
        macro_rules! push {
            ($path:expr, $msg:expr $(,)?) => {
                problems.push(SetupProblem { path: $path, message: $msg })
            };
        }
        let n = game.players();
        if pos.roles.len() != n {
            push!("seats".into(), format!("{} seats given; the setup has {n} players", pos.roles.len()));
            return Err(SetupError { problems });
        }
        let seat_ok = |s: Seat| s.index() < n;
        let bad_seat = |s: Seat| format!("seat {} does not exist (the table has {n} seats)", s.number());
        // C1/E4: the setup's counts are public; no role named more often than dealt.
        let mut named = [0usize; Role::COUNT];
        for (i, r) in pos.roles.iter().enumerate() {
            if let Some(r) = *r {
                named[r as usize] += 1;
                if named[r as usize] > game.count(r) {
                    let c = game.count(r);
                    push!(
                        format!("seats.{i}"),
                        format!("seat {}: the setup deals {c} {} (E4), this is one more", i + 1, r.name())
                    );
                }
            }
        }
        // C3: a phase of the game, before the day cap.
        let day = match pos.phase {
            Phase::Day(d) | Phase::Night(d) => d,
        };
        if day == 0 {
            push!("phase".into(), "days and nights count from 1".into());
        } else if day > game.rules.day_cap {
            push!("phase".into(), format!("past the day cap ({}, C3)", game.rules.day_cap));
        }
        let mut dead = PlayerSet::EMPTY;
        for (i, &s) in pos.carry.dead.iter().enumerate() {
            if !seat_ok(s) {
                push!(format!("dead.{i}"), bad_seat(s));
            } else if dead.contains(s) {
                push!(format!("dead.{i}"), format!("seat {} is listed twice", s.number()));
            } else {
                dead.insert(s);
                // C9: with the reveal setting, the roles of the dead were
                // announced; C15: a modkilled player's never is.
                if game.rules.reveal_roles_on_death && pos.roles[s].is_none() && !pos.modkilled.contains(&s) {
                    push!(
                        format!("dead.{i}"),
                        format!(
                            "seat {}: roles are announced on death (reveal_roles_on_death, C9): give its role",
                            s.number()
                        )
                    );
                }
            }
        }
        for (i, &s) in pos.killed.iter().enumerate() {
            if !seat_ok(s) || !dead.contains(s) {
                push!(format!("killed.{i}"), format!("seat {} is not among the dead", s.number()));
            }
        }
        for (i, &s) in pos.modkilled.iter().enumerate() {
            if !seat_ok(s) || !dead.contains(s) {
                push!(format!("modkilled.{i}"), format!("seat {} is not among the dead", s.number()));
            } else if pos.killed.contains(&s) {
                push!(
                    format!("modkilled.{i}"),
                    format!("seat {} is listed as killed at night too: a player dies once", s.number())
                );
            }
        }
        // C10: the final votes of finished days.
        let vote_day = pos.last_vote_day();
        let mut voted: Vec<(u16, Seat)> = Vec::new();
        for (i, &DayVote { day, by: s, vote: v }) in pos.votes.iter().enumerate() {
            let path = format!("votes.{i}");
            if vote_day == 0 {
                push!(path, "day 1 has no day before it: no votes to carry".into());
                break;
            }
            if day == 0 || day > vote_day {
                push!(
                    path,
                    format!(
                        "day {day} has not finished before the position: votes may be given for days 1 to {vote_day}"
                    )
                );
                continue;
            }
            if !seat_ok(s) {
                push!(path, bad_seat(s));
                continue;
            }
            if voted.contains(&(day, s)) {
                push!(
                    path.clone(),
                    format!("seat {} votes twice on day {day}: give each voter's final vote once", s.number())
                );
            }
            voted.push((day, s));
            if let Vote::For(t) = v {
                if !seat_ok(t) {
                    push!(path, bad_seat(t));
                } else if t == s {
                    push!(path, format!("seat {} votes for himself (C10: a vote names another player)", s.number()));
                }
            }
        }
        if dead.len() as usize >= n {
            push!("dead".into(), "everybody is dead: nothing is left to play".into());
        }
        // C8: the count must not have reached the limit (the town would have won).
        let nights_before = match pos.phase {
            Phase::Day(d) => d.saturating_sub(1),
            Phase::Night(d) => d.saturating_sub(1),
        };
        if pos.nights_without_kill as u16 > nights_before {
            push!(
                "nights_without_kill".into(),
                format!(
                    "{} nights without a kill, but only {nights_before} nights came before",
                    pos.nights_without_kill
                )
            );
        } else if game.no_kill_limit.is_some_and(|l| pos.nights_without_kill >= l) {
            push!(
                "nights_without_kill".into(),
                format!(
                    "{} nights without a kill: the town has already won by the no-kill rule (C8)",
                    pos.nights_without_kill
                )
            );
        }
        // C3, C11, C12, E8, E20, E23–E25: no more dead than the phases before
        // the position could take (see `death_bounds`; modkills, C15, are
        // any number and not counted).
        let (days_done, nights_done) = match pos.phase {
            Phase::Day(d) => (d.saturating_sub(1), d.saturating_sub(1)),
            Phase::Night(d) => (d, d.saturating_sub(1)),
        };
        let (per_day, per_night) = death_bounds(&game);
        let killed_n = pos.killed.iter().filter(|&&s| seat_ok(s) && dead.contains(s)).count();
        let modkilled_n = pos.modkilled.iter().filter(|&&s| seat_ok(s) && dead.contains(s)).count();
        let by_day = (dead.len() as usize).saturating_sub(killed_n + modkilled_n);
        if by_day > days_done as usize * per_day {
            push!(
                "dead".into(),
                format!(
                    "{by_day} died by day (lynched or mined), but {days_done} finished day{} allow at most {} \
                     ({per_day} a day under this setup's rules: C11, C12, E25)",
                    if days_done == 1 { "" } else { "s" },
                    days_done as usize * per_day
                )
            );
        }
        if killed_n > nights_done as usize * per_night {
            push!(
                "killed".into(),
                format!(
                    "{killed_n} killed at night, but {nights_done} finished night{} allow at most {} \
                     ({per_night} a night under this setup's roles: C4, E8, E20, E23, E24)",
                    if nights_done == 1 { "" } else { "s" },
                    nights_done as usize * per_night
                )
            );
        }
        // Which roles are fixed: all named, or (with a view) what the view seat knows.
        let mut fixed: Vec<Option<Role>> = pos.roles.clone();
        let mut keep = PlayerSet::EMPTY;
        if let Some(v) = pos.view {
            if !seat_ok(v) {
                push!("view".into(), bad_seat(v));
            } else if dead.contains(v) {
                push!("view".into(), format!("seat {} is dead: a dead player's view has no game to play", v.number()));
            } else {
                match pos.roles[v] {
                    None => push!("view".into(), format!("seat {}: give the view seat's own role", v.number())),
                    Some(r) => {
                        keep.insert(v);
                        // C2/E1: the mafia know each other.
                        let camp = r.camp();
                        if camp.members_know_each_other() {
                            let total: usize =
                                Role::ALL.iter().filter(|x| x.camp() == camp).map(|&x| game.count(x)).sum();
                            let given: Vec<Seat> =
                                Seat::all(n).filter(|&s| pos.roles[s].is_some_and(|x| x.camp() == camp)).collect();
                            if given.len() < total {
                                push!(
                                    "view".into(),
                                    format!(
                                        "seat {} is {} {}: the {} know each other (C2, E1), so give all {total} of their roles",
                                        v.number(),
                                        if r.name().starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" },
                                        r.name(),
                                        camp.name()
                                    )
                                );
                            }
                            given.iter().for_each(|&s| keep.insert(s));
                        }
                    }
                }
            }
            if game.rules.reveal_roles_on_death {
                let modkilled: PlayerSet = pos.modkilled.iter().copied().filter(|&s| seat_ok(s)).collect();
                keep = keep.union(dead.minus(modkilled));
            }
        }
        // Carried items name role holders: those roles stay fixed.
        let mut holders = PlayerSet::EMPTY;
        let mut need = |s: Seat, path: String, what: &str, problems: &mut Vec<SetupProblem>| {
            if seat_ok(s) {
                if pos.roles[s].is_none() {
                    problems.push(SetupProblem {
                        path,
                        message: format!("seat {}: {what} needs its role: give it in `seats`", s.number()),
                    });
                }
                holders.insert(s);
            }
        };
        for (i, &(s, _)) in pos.carry.acting.iter().enumerate() {
            need(s, format!("acting.{i}"), "an appointment or promotion (E12, E14)", &mut problems);
            if dead.contains(s) {
                push!(format!("acting.{i}"), format!("seat {} is dead: no role to act as", s.number()));
            }
        }
        for (i, &(s, t)) in pos.carry.last_targets.iter().enumerate() {
            need(s, format!("last_targets.{i}"), "a last heal or beating (E15, E26)", &mut problems);
            if dead.contains(s) {
                push!(format!("last_targets.{i}"), format!("seat {} is dead: no move to carry", s.number()));
            }
            let _ = t;
        }
        for (i, &s) in pos.carry.spare_life_spent.iter().enumerate() {
            need(s, format!("spare_life_spent.{i}"), "a spent spare life (E21)", &mut problems);
        }
        for (i, &(a, b)) in pos.carry.bandits_known.iter().enumerate() {
            need(a, format!("bandits_known.{i}"), "a bandits' meeting (E3)", &mut problems);
            need(b, format!("bandits_known.{i}"), "a bandits' meeting (E3)", &mut problems);
        }
        if let Some(g) = pos.carry.guest
            && dead.contains(g)
        {
            push!("guest".into(), format!("seat {} is dead: no guest to carry (E23)", g.number()));
        }
        for (i, &s) in pos.carry.hexed.iter().enumerate() {
            if dead.contains(s) {
                push!(format!("hexed.{i}"), format!("seat {} is dead: no hex to carry (E18)", s.number()));
            }
        }
        if pos.view.is_some() {
            keep = keep.union(holders);
            for (s, f) in fixed.iter_mut().enumerate() {
                if !keep.contains(Seat::from_index(s)) {
                    *f = None;
                }
            }
        }
        // Check results: known to the checker; with a view, only the view's own.
        let all = all_roles();
        let mut allowed = vec![all; n];
        let mut outcomes = Vec::with_capacity(pos.checks.len());
        for (i, c) in pos.checks.iter().enumerate() {
            let path = format!("checks.{i}");
            if !seat_ok(c.by) || !seat_ok(c.target) {
                push!(path, bad_seat(if seat_ok(c.by) { c.target } else { c.by }));
                continue;
            }
            if c.by == c.target {
                push!(path, format!("seat {} cannot check himself (C5, C6)", c.by.number()));
                continue;
            }
            if pos.view.is_some_and(|v| v != c.by) {
                push!(
                    path,
                    format!(
                        "with view = {}, only that seat's own checks are known",
                        (pos.view.unwrap_or(Seat::new(0))).number()
                    )
                );
                continue;
            }
            let Some(checker) = pos.roles[c.by] else {
                push!(path, format!("seat {}: give the checker's role", c.by.number()));
                continue;
            };
            let Some(camp_check) = check_kind(checker) else {
                push!(
                    path,
                    format!(
                        "seat {} is the {checker}: only the Commissar, the Detective (C6, E13) and the Don (C5) carry check results",
                        c.by.number()
                    )
                );
                continue;
            };
            // The answer is read from the role the position names, known to the checker even when a view deals it.
            let target_role = pos.roles[c.target];
            let outcome = match (c.outcome, target_role) {
                (Some(o), _) => {
                    let fits = match o {
                        CheckOutcome::Camp(_) => camp_check,
                        CheckOutcome::IsRole(r, _) => !camp_check && r == Role::Commissar,
                    };
                    if !fits {
                        let what = if camp_check { "a camp" } else { "whether he is the Commissar" };
                        push!(path, format!("the {checker}'s check answers {what}"));
                        continue;
                    }
                    o
                }
                (None, Some(r)) => outcome_of(checker, r),
                (None, None) => {
                    push!(path, format!("seat {}'s role is not known: give the check's answer", c.target.number()));
                    continue;
                }
            };
            if let Some(r) = target_role
                && !admits(outcome, r)
            {
                push!(
                    path,
                    format!("seat {} is the {r}: the check cannot have answered {outcome:?}", c.target.number())
                );
                continue;
            }
            if fixed[c.target].is_none() {
                allowed[c.target] = match outcome {
                    // C5: a "yes" names the role.
                    CheckOutcome::IsRole(r, true) => {
                        let mut x = RoleSet::EMPTY;
                        x.insert(r);
                        allowed[c.target].minus(all.minus(x))
                    }
                    CheckOutcome::IsRole(r, false) => {
                        let mut x = RoleSet::EMPTY;
                        x.insert(r);
                        allowed[c.target].minus(x)
                    }
                    CheckOutcome::Camp(camp) => allowed[c.target].minus(all.minus(camp_roles(camp))),
                };
            }
            outcomes.push(outcome);
        }
        for (i, (s, _)) in pos.published.iter().enumerate() {
            if !seat_ok(*s) {
                push!(format!("published.{i}"), bad_seat(*s));
            }
        }
        // The dealt seats and roles: the setup's multiset in its order, less the fixed ones.
        let free_seats: Vec<Seat> = Seat::all(n).filter(|&s| fixed[s].is_none()).collect();
        let mut left = game.counts;
        for r in fixed.iter().flatten() {
            left[*r as usize] = left[*r as usize].saturating_sub(1);
        }
        let mut free_roles = Vec::with_capacity(free_seats.len());
        for &r in &game.roles[..n] {
            if left[r as usize] > 0 {
                left[r as usize] -= 1;
                free_roles.push(r);
            }
        }
        if !problems.is_empty() {
            return Err(SetupError { problems });
        }
        // Some deal must fit everything known (counts, checks).
        let deal =
            if free_roles.len() == free_seats.len() { matching(&free_seats, &free_roles, &allowed) } else { None };
        let Some(deal) = deal else {
            push!(
                if pos.checks.is_empty() { "seats".into() } else { "checks".into() },
                "no deal of the setup fits what is known (the roles named and the check results)".into()
            );
            return Err(SetupError { problems });
        };
        let constrained = free_seats.iter().any(|&s| allowed[s] != all);
        let decided = decided_by_counts(&game, &fixed, &free_seats, &free_roles, dead);
        let start =
            Start { game, pos: pos.clone(), fixed, free_seats, free_roles, allowed, constrained, outcomes, decided };
        // The carried items against a deal that fits: their problems depend only on fixed roles.
        let mut roles = [Role::Citizen; MAX_PLAYERS];
        start.fill(&mut roles[..n], &deal);
        let mut st = State::default();
        start.set_up_checked(&mut st, &roles[..n], &mut problems);
        if !problems.is_empty() {
            return Err(SetupError { problems });
        }
        Ok(start)
    }

    /// The checked game of the position's setup.
    pub fn game(&self) -> &Game {
        &self.game
    }
    /// The position as read.
    pub fn position(&self) -> &Position {
        &self.pos
    }
    /// The roles fixed in every game (`None`: dealt per game).
    pub fn fixed(&self) -> &[Option<Role>] {
        &self.fixed
    }
    /// The seats whose roles are dealt per game.
    pub fn sampled(&self) -> PlayerSet {
        self.free_seats.iter().copied().collect()
    }
    /// The roles dealt per game over [`Start::sampled`], in the setup's order.
    pub fn sampled_roles(&self) -> &[Role] {
        &self.free_roles
    }
    /// Whether anything but the counts constrains the dealt roles (check results).
    pub fn constrained(&self) -> bool {
        self.constrained
    }

    fn fill(&self, roles: &mut [Role], dealt: &[Role]) {
        for (s, r) in roles.iter_mut().enumerate() {
            if let Some(f) = self.fixed[s] {
                *r = f;
            }
        }
        for (&s, &r) in self.free_seats.iter().zip(dealt) {
            roles[s] = r;
        }
    }

    /// Deals one game's roles into `roles` (one per seat) from the deal
    /// stream: the fixed roles, and the rest shuffled over the other seats
    /// (Fisher–Yates, as [`State::deal`]), drawn again until the deal fits
    /// every check. `false` if [`SAMPLE_TRIES`] deals all failed.
    pub fn sample<R: Rng + ?Sized>(&self, deal: &mut R, roles: &mut [Role]) -> bool {
        let m = self.free_roles.len();
        let mut dealt = [Role::Citizen; MAX_PLAYERS];
        for _ in 0..SAMPLE_TRIES {
            dealt[..m].copy_from_slice(&self.free_roles);
            crate::util::shuffle(deal, &mut dealt[..m]);
            let fits = !self.constrained
                || self.free_seats.iter().zip(&dealt[..m]).all(|(&s, &r)| self.allowed[s].contains(r));
            if fits {
                self.fill(roles, &dealt[..m]);
                return true;
            }
        }
        false
    }

    /// Resets `state` to the position with the given roles (one per seat,
    /// the setup's multiset, fitting the fixed roles): the dead, the carry,
    /// the public record, the checks, the C8 count, the phase.
    pub fn set_up(&self, state: &mut State, roles: &[Role]) {
        let mut problems = Vec::new();
        self.set_up_checked(state, roles, &mut problems);
        debug_assert!(problems.is_empty(), "{problems:?}");
    }

    fn set_up_checked(&self, st: &mut State, roles: &[Role], problems: &mut Vec<SetupProblem>) {
        let pos = &self.pos;
        let game = &self.game;
        st.set_roles(game, roles);
        st.phase = pos.phase;
        let night = match pos.phase {
            Phase::Day(d) | Phase::Night(d) => d.max(1),
        };
        // The dead, in order; each in the earliest phase not before the last
        // death's (a lynch in a day, a kill in a night), none after the position.
        let mut at = Phase::Day(1);
        let before_start = |p: Phase| match (p, pos.phase) {
            (Phase::Day(a), Phase::Day(b)) | (Phase::Night(a), Phase::Night(b)) => a < b,
            (Phase::Day(a), Phase::Night(b)) => a <= b,
            (Phase::Night(a), Phase::Day(b)) => a < b,
        };
        for &s in &pos.carry.dead {
            let killed = pos.killed.contains(&s);
            let next = match at {
                Phase::Day(d) | Phase::Night(d) if killed => Phase::Night(d),
                Phase::Day(d) => Phase::Day(d),
                Phase::Night(d) => Phase::Day(d + 1),
            };
            if before_start(next) {
                at = next;
            }
            st.alive.remove(s);
            let cause = if killed {
                DeathCause::Killed
            } else if pos.modkilled.contains(&s) {
                DeathCause::Modkilled
            } else {
                DeathCause::Lynched
            };
            st.death[s] = Some((at, cause));
            // C9/C15: a modkilled player's role is never announced.
            if cause != DeathCause::Modkilled {
                st.revealed.insert(s);
            }
            if killed {
                st.night_killed.insert(s);
            }
        }
        st.present = st.alive;
        apply_carry(st, game, night, &pos.carry, problems);
        // Who shoots as an appointed Actor (E12) is settled by `begin_night`, as in any game.
        // C5, C6, E13: what the checkers learned.
        for (c, &o) in pos.checks.iter().zip(&self.outcomes) {
            let k = st.know(c.by);
            k.checked.insert(c.target);
            match o {
                CheckOutcome::Camp(camp) => k.camps[camp as usize].insert(c.target),
                CheckOutcome::IsRole(_, true) => k.role_yes.insert(c.target),
                CheckOutcome::IsRole(_, false) => {}
            }
            k.last = Some((c.target, o));
        }
        // C10, C13: the public record of what was said.
        for (s, p) in &pos.published {
            st.publish(*s, p);
        }
        // C10: the last day's final votes, and at night the count they
        // make; earlier days' votes join the record of past votes.
        let vote_day = pos.last_vote_day();
        for &DayVote { day, by: s, vote: v } in &pos.votes {
            if day < vote_day {
                if let Vote::For(t) = v {
                    st.carried_votes[s].insert(t);
                    st.carried_any = true;
                }
                continue;
            }
            st.votes[s] = crate::state::encode(v);
            if let (Phase::Night(_), Vote::For(t)) = (pos.phase, v) {
                st.tally[t] += 1;
            }
        }
        // C8: the count carries into the position.
        st.nights_without_kill = pos.nights_without_kill;
        // The behaviour counts are of the games played on from here.
        st.stats = crate::Stats::default();
        st.version = st.version.wrapping_add(1);
    }

    /// The end the position has already reached by the numbers, whatever
    /// the roles dealt (C17, C18, E2): `mafia odds` reports it instead of
    /// playing games that would all end at once.
    pub fn decided(&self) -> Option<End> {
        self.decided
    }
}
