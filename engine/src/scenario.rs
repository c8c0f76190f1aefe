//! A scenario: one night as the host sees it before resolving it — the
//! seats and roles, what carries over from earlier phases, and every
//! submitted move. [`resolve_scenario`] checks it (every problem, with a
//! path the file reader turns into a line) and resolves the night, writing
//! the trace to a [`Log`]. This is the engine side of `mafia resolve`.

use crate::decide::NightChoice;
use crate::event::DeathCause;
use crate::event::Log;
use crate::night::{NightMoves, NightResult, NightStep};
use crate::role::{Camp, Role, RoleSet};
use crate::rules::Rules;
use crate::seat::{PlayerSet, Seat};
use crate::setup::{Game, Setup, SetupError, SetupProblem};
use crate::state::{NONE, Phase, State};

/// One night to resolve. Seats are 0-based here; files and output count from 1.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scenario {
    /// The scenario's name (the file's stem), for titles.
    pub name: String,
    /// The role of each seat.
    pub roles: Vec<Role>,
    /// The rule settings.
    pub rules: Rules,
    /// E30: a designer's night order; `None`: the default.
    pub night_order: Option<Vec<NightStep>>,
    /// Which night (from 1). The Role Prostitute has no move on night 1 (E19).
    pub night: u16,
    /// What carries over from earlier phases.
    pub carry: CarryOver,
    /// Tonight's moves, one entry per player.
    pub moves: Vec<(Seat, NightChoice)>,
}

/// What carries over from earlier phases to a night: the part a scenario
/// and a [`Position`](crate::Position) share, declared once, checked and
/// set on a state by one function (`apply_carry`) and read from the
/// `[carry]` table of both files by one reader. Seats are 0-based here.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CarryOver {
    /// Players dead before, in the order they died (E14 reads the order).
    pub dead: Vec<Seat>,
    /// Appointments (Actor, E12) and promotions (Deputy, E14) already made: seat → role.
    pub acting: Vec<(Seat, Role)>,
    /// E18: players the Witch hexed last night (hexed tonight).
    pub hexed: Vec<Seat>,
    /// E23: last night's guest of the Psycho (dies tonight unless healed).
    pub guest: Option<Seat>,
    /// E15/E26: last night's heal or beating: (Doctor or Thug, target).
    pub last_targets: Vec<(Seat, Seat)>,
    /// E21: Lucky players whose spare life is spent.
    pub spare_life_spent: Vec<Seat>,
    /// E11: players the Swindler has swindled before.
    pub swindled: Vec<Seat>,
    /// E19: roles the Role Prostitute has borrowed before.
    pub borrowed: Vec<Role>,
    /// E3: pairs of bandits who know each other.
    pub bandits_known: Vec<(Seat, Seat)>,
}

/// Every problem found in a scenario, each with a path: `roles`, `rules.x`,
/// `night_order`, `night`, `dead.2`, `acting.0`, `hexed.1`, `guest`,
/// `last_targets.0`, `spare_life_spent.0`, `swindled.0`, `borrowed.0`,
/// `bandits_known.0`, `moves.3` (list index from 0).
/// (The same shape as a setup's problems, so one reader maps both to lines.)
pub type ScenarioError = SetupError;

/// What carries over from a night to the next phases (the night
/// calculator's `carry`, in JSON as it is here).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Carry {
    /// E18: hexed next night.
    pub hex_next: PlayerSet,
    /// E23: tonight's guest, who dies next night unless healed (`null`: none).
    pub guest: Option<Seat>,
    /// E25: mined for the next day.
    pub mines: PlayerSet,
    /// E28: votes removed next day.
    pub tricked: PlayerSet,
    /// E19/E16: Role Prostitutes who give the Chosen's secret votes next day.
    pub secret_voters: PlayerSet,
    /// E21: Lucky players with their spare life.
    pub spare_life: PlayerSet,
    /// E11: swindled so far.
    pub swindled: PlayerSet,
    /// E19: roles borrowed so far.
    pub borrowed: RoleSet,
}

impl State {
    /// What carries over to the next phases (the night calculator prints it).
    pub fn carry(&self) -> Carry {
        Carry {
            hex_next: self.hex_next,
            guest: self.guest,
            mines: self.mines,
            tricked: self.tricked,
            secret_voters: self.secret_voters,
            spare_life: self.spare_life,
            swindled: self.swindled,
            borrowed: self.borrowed,
        }
    }
}

/// Checks and resolves a scenario. On success returns the game, the state
/// after the night (before the dead are removed) and the night's result;
/// the trace (start of night, moves, every step) is in `log`.
pub fn resolve_scenario<L: Log>(sc: &Scenario, log: &mut L) -> Result<(Game, State, NightResult), ScenarioError> {
    let mut problems = Vec::new();
    macro_rules! push {
        ($path:expr, $msg:expr $(,)?) => {
            problems.push(SetupProblem { path: $path, message: $msg })
        };
    }
    let mut setup = Setup::of_roles(&sc.name, &sc.roles);
    setup.rules = sc.rules;
    setup.night_order = sc.night_order.clone();
    let game = Game::new(&setup)?;
    let n = sc.roles.len();
    let mut st = State::default();
    st.set_roles(&game, &sc.roles);
    let night = sc.night.max(1);
    if sc.night == 0 {
        push!("night".into(), "nights count from 1".into());
    }
    st.phase = Phase::Night(night);
    let seat_ok = |s: Seat| s.index() < n;
    let bad_seat = |s: Seat| format!("seat {} does not exist (the table has {n} seats)", s.number());
    let mut dead = PlayerSet::EMPTY;
    for (i, &s) in sc.carry.dead.iter().enumerate() {
        if !seat_ok(s) {
            push!(format!("dead.{i}"), bad_seat(s));
        } else if dead.contains(s) {
            push!(format!("dead.{i}"), format!("seat {} is listed twice", s.number()));
        } else {
            dead.insert(s);
            st.alive.remove(s);
            // Before tonight; the order of the list is the order of deaths (E14).
            let phase = if i + 1 < night as usize * 2 {
                if i % 2 == 0 { Phase::Day(i as u16 / 2 + 1) } else { Phase::Night(i as u16 / 2 + 1) }
            } else {
                Phase::Day(night)
            };
            st.death[s] = Some((phase, DeathCause::Lynched));
            st.revealed.insert(s);
        }
    }
    st.present = st.alive;
    apply_carry(&mut st, &game, night, &sc.carry, &mut problems);
    if !problems.is_empty() {
        return Err(ScenarioError { problems });
    }
    // E12: an Actor with a vacancy and no appointment given takes the default (the best-ranked role).
    if let Some((_, actor, vacant)) = st.actor_vacancy()
        && let Some(role) = vacant.best_ranked()
    {
        st.appoint_actor(actor, role, log);
    }
    st.begin_night(&game, log);
    let mut moves = NightMoves::default();
    st.clear_moves(&mut moves);
    let mut seen = PlayerSet::EMPTY;
    for (i, (s, choice)) in sc.moves.iter().enumerate() {
        let path = format!("moves.{i}");
        let seats = [Some(*s), choice.kill, choice.act, choice.second, choice.search];
        if let Some(bad) = seats.into_iter().flatten().find(|&x| !seat_ok(x)) {
            push!(path, bad_seat(bad));
            continue;
        }
        if seen.contains(*s) {
            push!(path, format!("seat {} has two entries", s.number()));
            continue;
        }
        seen.insert(*s);
        if let Err(e) = st.submit(*s, choice, &mut moves, log) {
            push!(path, format!("seat {} ({}): {e}", s.number(), st.acting_role(*s)));
        }
    }
    if !problems.is_empty() {
        return Err(ScenarioError { problems });
    }
    let result = st.resolve_night(&game, &moves, log);
    Ok((game, st, result))
}

/// Sets what carries over (E11, E12, E14, E15, E18, E19, E21, E23, E26, E3)
/// on a state whose roles and dead are set, for the coming night `night`;
/// every item that does not fit the roles is a problem with its path.
/// Allocates only to report a problem.
pub(crate) fn apply_carry(st: &mut State, game: &Game, night: u16, c: &CarryOver, problems: &mut Vec<SetupProblem>) {
    macro_rules! push {
        ($path:expr, $msg:expr $(,)?) => {
            problems.push(SetupProblem { path: $path, message: $msg })
        };
    }
    let n = st.players();
    let seat_ok = |s: Seat| s.index() < n;
    let bad_seat = |s: Seat| format!("seat {} does not exist (the table has {n} seats)", s.number());
    let roles = st.roles;
    let role_of = |s: Seat| roles[s];
    for (i, &(s, r)) in c.acting.iter().enumerate() {
        if !seat_ok(s) {
            push!(format!("acting.{i}"), bad_seat(s));
            continue;
        }
        let ok = match role_of(s) {
            // E12: the Actor takes a vacant mafia role other than the Boss's.
            Role::Actor => r.camp() == Camp::Mafia && !r.info().plain && !matches!(r, Role::Boss | Role::Actor),
            // E14: the Deputy becomes the Detective or the Doctor.
            Role::Deputy => matches!(r, Role::Detective | Role::Doctor),
            _ => false,
        };
        if ok && !game.roles_present().contains(r) {
            push!(
                format!("acting.{i}"),
                format!("seat {} cannot act as the {r}: no {r} was dealt in this game (E12, E14)", s.number())
            );
        } else if ok {
            st.acting[s] = r;
        } else {
            push!(
                format!("acting.{i}"),
                format!(
                    "seat {} is the {}: only the Actor takes a vacant mafia role (E12) and only the Deputy \
                     becomes the Detective or the Doctor (E14), not the {r}",
                    s.number(),
                    role_of(s)
                ),
            );
        }
    }
    // Night 1 has no night before it: nothing a night leaves behind (a
    // guest, a hex, a last heal or beating, a spent spare life, a swindle,
    // a borrowed role, a bandits' meeting) comes from before the game.
    // (Appointments and promotions may follow a day-1 lynch.)
    if night <= 1 {
        let before = |what: &str| format!("{what} carried into night 1: night 1 has no night before it");
        let mut any = false;
        if c.guest.is_some() {
            push!("guest".into(), before("a guest (E23)"));
            any = true;
        }
        let lists: [(&str, usize, &str); 6] = [
            ("hexed", c.hexed.len(), "a hex (E18)"),
            ("last_targets", c.last_targets.len(), "a last heal or beating (E15, E26)"),
            ("spare_life_spent", c.spare_life_spent.len(), "a spent spare life (E21)"),
            ("swindled", c.swindled.len(), "a swindle (E11)"),
            ("borrowed", c.borrowed.len(), "a borrowed role (E19)"),
            ("bandits_known", c.bandits_known.len(), "a bandits' meeting (E3)"),
        ];
        for (key, len, what) in lists {
            for i in 0..len {
                push!(format!("{key}.{i}"), before(what));
                any = true;
            }
        }
        if any {
            return;
        }
    }
    for (i, &s) in c.hexed.iter().enumerate() {
        if !seat_ok(s) {
            push!(format!("hexed.{i}"), bad_seat(s));
        } else if game.count(Role::Witch) == 0 {
            push!(format!("hexed.{i}"), "a hex needs a Witch in the game (E18)".into());
        } else {
            st.hex_next.insert(s);
        }
    }
    if let Some(g) = c.guest {
        if !seat_ok(g) {
            push!("guest".into(), bad_seat(g));
        } else if game.count(Role::Psycho) == 0 {
            push!("guest".into(), "a guest needs a Psycho in the game (E23)".into());
        } else {
            st.guest = Some(g);
        }
    }
    for (i, &(s, t)) in c.last_targets.iter().enumerate() {
        if !seat_ok(s) || !seat_ok(t) {
            push!(format!("last_targets.{i}"), bad_seat(if seat_ok(s) { t } else { s }));
        } else if !matches!(st.acting[s], Role::Doctor | Role::Thug) {
            push!(
                format!("last_targets.{i}"),
                format!(
                    "seat {} is the {}: only the Doctor and the Thug have a last target (E15, E26)",
                    s.number(),
                    role_of(s)
                ),
            );
        } else {
            st.bars[s] = crate::state::Bar { night, target: t };
        }
    }
    for (i, &s) in c.spare_life_spent.iter().enumerate() {
        if !seat_ok(s) {
            push!(format!("spare_life_spent.{i}"), bad_seat(s));
        } else if role_of(s) != Role::Lucky {
            push!(
                format!("spare_life_spent.{i}"),
                format!("seat {} is the {}, not the Lucky (E21)", s.number(), role_of(s))
            );
        } else {
            st.spare_life.remove(s);
        }
    }
    for (i, &s) in c.swindled.iter().enumerate() {
        if !seat_ok(s) {
            push!(format!("swindled.{i}"), bad_seat(s));
        } else if game.count(Role::Swindler) == 0 {
            push!(format!("swindled.{i}"), "a swindle history needs a Swindler in the game (E11)".into());
        } else {
            st.swindled.insert(s);
        }
    }
    for (i, &r) in c.borrowed.iter().enumerate() {
        if game.count(Role::Prostitute) == 0 {
            push!(format!("borrowed.{i}"), "borrowed roles need a Role Prostitute in the game (E19)".into());
        } else if !r.borrowable() {
            push!(format!("borrowed.{i}"), format!("the {r} cannot be borrowed (E19)"));
        } else {
            st.borrowed.insert(r);
        }
    }
    for (i, &(a, b)) in c.bandits_known.iter().enumerate() {
        if !seat_ok(a) || !seat_ok(b) {
            push!(format!("bandits_known.{i}"), bad_seat(if seat_ok(a) { b } else { a }));
        } else if role_of(a).camp() != Camp::Bandits || role_of(b).camp() != Camp::Bandits || a == b {
            push!(
                format!("bandits_known.{i}"),
                format!("seats {} and {} are not two bandits (E3)", a.number(), b.number())
            );
        } else {
            st.know(a).mates.insert(b);
            st.know(b).mates.insert(a);
        }
    }
    // E14: with both dead and no promotion given, the Deputy takes the role of the one listed first.
    let det = st.seat_of[Role::Detective as usize];
    let doc = st.seat_of[Role::Doctor as usize];
    let dep = st.seat_of[Role::Deputy as usize];
    if dep != NONE && st.acting[dep as usize] == Role::Deputy && det != NONE && doc != NONE {
        let pos = |s: u8| c.dead.iter().position(|&d| d == Seat::new(s));
        if let (Some(a), Some(b)) = (pos(det), pos(doc))
            && st.alive.contains(Seat::new(dep))
        {
            let first = if a < b { Role::Detective } else { Role::Doctor };
            st.acting[dep as usize] = first;
        }
    }
}
