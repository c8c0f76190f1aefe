//! The night: the start of night (promotions, the carried hex), collecting
//! moves, then resolving them step by step in the night order (E30), a
//! table ([`NIGHT_ORDER`]) that a setup may reorder.
//!
//! Each step sees the statuses set by earlier steps; a move that fails
//! leaves no trace (E30). Control moves (E29) resolve as a dependency graph
//! with a cycle rule, or as a plain sequence (`resolution = sequential`).
//! In the classic set only two steps have movers: information (the Don's
//! and the Commissar's checks, C5–C6) and kills (the camp kill, C4). Checks
//! are judged before kills, so a checker killed tonight still learns his
//! answer (C7), and "dead" in every failure list means dead at dusk.

use crate::decide::{NightChoice, Players};
use crate::event::{DeathCause, EndCause, Event, Fail, Killer, Log, MissReason, Report, Status};
use crate::role::{Camp, NightAbility, Role, Targets};
use crate::rules::Resolution;
use crate::seat::{MAX_PLAYERS, PlayerSet, Seat};
use crate::setup::Game;
use crate::state::{CheckOutcome, End, NONE, Phase, State};
use rand::Rng;
use std::fmt;

/// A step of the night order (E30). Each move belongs to one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum NightStep {
    /// Promotions and appointments; last night's hex holds; statuses expire (E30.1).
    StartOfNight = 0,
    /// Blocks and redirects (E29).
    Control = 1,
    /// Guards and heals.
    Protection = 2,
    /// Checks of people: the Boss, the Don, the Commissar, the Detective, the Journalist.
    Information = 3,
    /// The guest's death, the camp kill, the Shooter, the blast, the spare life.
    Kills = 4,
    /// Marks for later: hexes, mines, the Trickster's pick.
    Marks = 5,
    /// Information on moves: the Sleepwalker, the Scout, the bandits' search.
    InformationOnMoves = 6,
}

impl NightStep {
    pub const ALL: [NightStep; 7] = NIGHT_ORDER;

    pub const fn name(self) -> &'static str {
        match self {
            NightStep::StartOfNight => "start of night",
            NightStep::Control => "control moves",
            NightStep::Protection => "protection",
            NightStep::Information => "information on people",
            NightStep::Kills => "kills",
            NightStep::Marks => "marks for later",
            NightStep::InformationOnMoves => "information on moves",
        }
    }

    /// The short key used in setup files (`night_order = ["control", …]`).
    pub const fn key(self) -> &'static str {
        match self {
            NightStep::StartOfNight => "start",
            NightStep::Control => "control",
            NightStep::Protection => "protection",
            NightStep::Information => "information",
            NightStep::Kills => "kills",
            NightStep::Marks => "marks",
            NightStep::InformationOnMoves => "watchers",
        }
    }

    pub fn from_key(s: &str) -> Option<NightStep> {
        NightStep::ALL.into_iter().find(|k| k.key() == s)
    }

    /// What the step does, for the night-order table.
    pub const fn about(self) -> &'static str {
        match self {
            NightStep::StartOfNight => {
                "promotions and appointments (E12, E14); last night's hex holds (E18); statuses expire"
            }
            NightStep::Control => "blocks and redirects, as E29's dependency graph (or in sequence)",
            NightStep::Protection => "guards and heals",
            NightStep::Information => "checks of people, answered against the state at dusk (C7)",
            NightStep::Kills => {
                "last night's guest dies unless healed (E23); each camp's kill (C4, E8); the Shooter; \
                 the blast (E24); a Lucky's spare life absorbs what reaches him (E21)"
            }
            NightStep::Marks => "marks that act later: hex (next night), mine and vote removal (next day)",
            NightStep::InformationOnMoves => "reports on who moved where (E22, E27); the bandits' search (E3)",
        }
    }

    /// The moves that resolve in this step, in their order within it.
    pub fn abilities(self) -> impl Iterator<Item = NightAbility> {
        NightAbility::MOVES.into_iter().filter(move |a| a.step() == Some(self))
    }

    /// The roles whose moves resolve in this step (camp kills and the
    /// bandits' search count as moves of every member).
    pub fn roles(self) -> impl Iterator<Item = Role> {
        Role::ALL.into_iter().filter(move |r| {
            let info = r.info();
            (self == NightStep::Kills && info.shoots)
                || (self == NightStep::InformationOnMoves && info.camp == Camp::Bandits)
                || info.night.step() == Some(self)
        })
    }
}

/// The default night order (E30), as data.
pub const NIGHT_ORDER: [NightStep; 7] = [
    NightStep::StartOfNight,
    NightStep::Control,
    NightStep::Protection,
    NightStep::Information,
    NightStep::Kills,
    NightStep::Marks,
    NightStep::InformationOnMoves,
];

impl NightAbility {
    /// The step this move resolves in. The Role Prostitute's borrowed move
    /// sits where the borrowed role sits (E31), so `Borrow` has none.
    pub const fn step(self) -> Option<NightStep> {
        match self {
            NightAbility::None | NightAbility::Borrow => None,
            NightAbility::Rob | NightAbility::Invite | NightAbility::Beat | NightAbility::Swindle => {
                Some(NightStep::Control)
            }
            NightAbility::Guard | NightAbility::Heal => Some(NightStep::Protection),
            NightAbility::BossCheck
            | NightAbility::CheckIsRole(_)
            | NightAbility::CheckCamp
            | NightAbility::Compare => Some(NightStep::Information),
            NightAbility::Shoot => Some(NightStep::Kills),
            NightAbility::Hex | NightAbility::Mine | NightAbility::Trick => Some(NightStep::Marks),
            NightAbility::Watch | NightAbility::Scout => Some(NightStep::InformationOnMoves),
        }
    }
}

/// Why a submitted night move was refused (for agents: an illegal decision;
/// for scenario files: an error naming the line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The maker is dead.
    Dead,
    /// A kill nick from a player whose role does not shoot (C4, E8).
    NotAShooter,
    /// A kill nick at a player who is not alive.
    KillTarget(Seat),
    /// A role move from a role without one tonight.
    NoMove(Role),
    /// E19: the Role Prostitute must name the role she borrows.
    BorrowMissing,
    /// E19: a borrow by someone who is not the Role Prostitute.
    NotABorrower(Role),
    /// E19: no borrowing on night 1.
    BorrowNightOne,
    /// E19: not the role of a dead town player, or used before, or the Lucky/Deputy.
    CannotBorrow(Role),
    /// A move that needs a target got none.
    MissingTarget,
    /// A two-target move got one.
    MissingSecond,
    /// A second target for a one-target move.
    UnexpectedSecond,
    /// A target the move may not name, and why.
    Target { target: Seat, why: &'static str },
    /// A second target the move may not name.
    Second { target: Seat, why: &'static str },
    /// E3: only bandits search.
    NotABandit,
    /// E3: a search nick at a player who is not alive, or oneself.
    SearchTarget(Seat),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MoveError::Dead => write!(f, "the player is dead and makes no move"),
            MoveError::NotAShooter => write!(f, "only mafia members send a kill nick (C4, E8)"),
            MoveError::KillTarget(t) => write!(f, "kill target {} is not alive", t + 1),
            MoveError::NoMove(r) => write!(f, "the {r} has no night move tonight"),
            MoveError::BorrowMissing => write!(f, "the Role Prostitute must name the role she borrows (E19)"),
            MoveError::NotABorrower(r) => write!(f, "only the Role Prostitute borrows a role, not the {r} (E19)"),
            MoveError::BorrowNightOne => write!(f, "the Role Prostitute has no move on night 1 (E19)"),
            MoveError::CannotBorrow(r) => write!(
                f,
                "the {r} cannot be borrowed: not the role of a dead town player, borrowed before, or the Lucky/Deputy (E19)"
            ),
            MoveError::MissingTarget => write!(f, "the move needs a target"),
            MoveError::MissingSecond => write!(f, "the move needs a second target (E11, E17)"),
            MoveError::UnexpectedSecond => write!(f, "the move takes one target only"),
            MoveError::Target { target, why } => write!(f, "target {} is not allowed: {why}", target + 1),
            MoveError::Second { target, why } => write!(f, "second target {} is not allowed: {why}", target + 1),
            MoveError::NotABandit => write!(f, "only bandits search for each other (E3)"),
            MoveError::SearchTarget(t) => write!(f, "search target {} is not another living player (E3)", t + 1),
        }
    }
}

impl std::error::Error for MoveError {}

/// An accepted role move: what it does and to whom (targets `NONE` when unused).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub ability: NightAbility,
    pub target: u8,
    pub second: u8,
    pub borrowed: Option<Role>,
}

impl Move {
    /// A one-target move.
    pub const fn one(ability: NightAbility, target: Seat) -> Move {
        Move { ability, target, second: NONE, borrowed: None }
    }
    /// A two-target move (E11, E17).
    pub const fn two(ability: NightAbility, target: Seat, second: Seat) -> Move {
        Move { ability, target, second, borrowed: None }
    }
    /// A move without a target (E27).
    pub const fn zero(ability: NightAbility) -> Move {
        Move { ability, target: NONE, second: NONE, borrowed: None }
    }
}

/// Everybody's accepted night moves. Fixed arrays; reused across nights and games.
#[derive(Clone, Debug)]
pub struct NightMoves {
    /// C4/E8: each shooter's nick (`NONE` = sent nothing).
    kill: [u8; MAX_PLAYERS],
    /// Each player's role move target (`NONE` = none).
    act: [u8; MAX_PLAYERS],
    /// The second target (E11, E17).
    second: [u8; MAX_PLAYERS],
    /// E3: each bandit's search nick.
    search: [u8; MAX_PLAYERS],
    /// The move each player makes (`None` = none), a borrowed one included.
    ability: [NightAbility; MAX_PLAYERS],
    /// Per move (`NightAbility::index`): who makes it tonight.
    makers: [PlayerSet; NightAbility::COUNT],
}

impl Default for NightMoves {
    fn default() -> Self {
        NightMoves {
            kill: [NONE; MAX_PLAYERS],
            act: [NONE; MAX_PLAYERS],
            second: [NONE; MAX_PLAYERS],
            search: [NONE; MAX_PLAYERS],
            ability: [NightAbility::None; MAX_PLAYERS],
            makers: [PlayerSet::EMPTY; NightAbility::COUNT],
        }
    }
}

fn opt(x: u8) -> Option<Seat> {
    if x == NONE { None } else { Some(x) }
}

impl NightMoves {
    pub fn clear(&mut self) {
        *self = NightMoves::default();
    }
    /// A new night: only the per-move maker sets are cleared. The per-seat
    /// tables are read only for seats in a maker set (written by
    /// `set_move`) or for nicks of players asked tonight (written by
    /// `record_nicks`; the collector clears the nicks of absent movers).
    #[inline]
    fn reset_makers(&mut self) {
        self.makers = [PlayerSet::EMPTY; NightAbility::COUNT];
    }
    /// Records a kill nick (unchecked; for tests of the resolver).
    pub fn set_kill(&mut self, shooter: Seat, target: Option<Seat>) {
        self.kill[shooter as usize] = target.unwrap_or(NONE);
    }
    /// Records a role move (unchecked; for tests of the resolver).
    pub fn set_move(&mut self, maker: Seat, m: Move) {
        let s = maker as usize;
        let old = self.ability[s];
        if old != NightAbility::None {
            self.makers[old.index()].remove(maker);
        }
        self.ability[s] = m.ability;
        self.act[s] = m.target;
        self.second[s] = m.second;
        if m.ability != NightAbility::None {
            self.makers[m.ability.index()].insert(maker);
        }
    }
    pub fn kill(&self, shooter: Seat) -> Option<Seat> {
        opt(self.kill[shooter as usize])
    }
    /// The target of `actor`'s move tonight (none without a move).
    pub fn act(&self, actor: Seat) -> Option<Seat> {
        if self.ability(actor) == NightAbility::None { None } else { opt(self.act[actor as usize]) }
    }
    pub fn second(&self, actor: Seat) -> Option<Seat> {
        if self.ability(actor) == NightAbility::None { None } else { opt(self.second[actor as usize]) }
    }
    pub fn search(&self, bandit: Seat) -> Option<Seat> {
        opt(self.search[bandit as usize])
    }
    /// The move `actor` makes tonight (`None` = none).
    pub fn ability(&self, actor: Seat) -> NightAbility {
        let a = self.ability[actor as usize];
        if a != NightAbility::None && self.makers[a.index()].contains(actor) { a } else { NightAbility::None }
    }
}

/// What a night did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NightResult {
    /// Who died.
    pub killed: PlayerSet,
    /// E32: the Psycho's guests among them, announced first.
    pub guests: PlayerSet,
    /// C8: whether a kill was tried (a prevented kill counts).
    pub shot: bool,
}

/// Statuses and records of one night, on the stack.
struct Tonight {
    robbed: PlayerSet,
    beaten: PlayerSet,
    invited: PlayerSet,
    healed: PlayerSet,
    guarded: PlayerSet,
    by_rob: u8,
    by_beat: u8,
    by_invite: u8,
    /// E23: tonight's guest.
    guest: u8,
    /// E23: who healed last night's guest tonight (`NONE`).
    guest_healer: u8,
    psycho: u8,
    /// E11: the standing redirect, victim → new target.
    victim: u8,
    redirect_to: u8,
    /// E22: the watched house and the camps of successful visitors so far.
    watch: u8,
    seen: [bool; Camp::COUNT],
    /// E27: successful check, robbery, heal.
    scout: [u8; 3],
    hits: PlayerSet,
    guests: PlayerSet,
    psycho_tried: bool,
    shot: bool,
}

impl Tonight {
    fn new() -> Tonight {
        Tonight {
            robbed: PlayerSet::EMPTY,
            beaten: PlayerSet::EMPTY,
            invited: PlayerSet::EMPTY,
            healed: PlayerSet::EMPTY,
            guarded: PlayerSet::EMPTY,
            by_rob: NONE,
            by_beat: NONE,
            by_invite: NONE,
            guest: NONE,
            guest_healer: NONE,
            psycho: NONE,
            victim: NONE,
            redirect_to: NONE,
            watch: NONE,
            seen: [false; Camp::COUNT],
            scout: [NONE; 3],
            hits: PlayerSet::EMPTY,
            guests: PlayerSet::EMPTY,
            psycho_tried: false,
            shot: false,
        }
    }

    /// A successful move by a member of `camp` on `target` (E22: the Sleepwalker sees it).
    #[inline]
    fn visit(&mut self, camp: Camp, target: u8) {
        if target == self.watch {
            self.seen[camp as usize] = true;
        }
    }
}

const UNDECIDED: u8 = 0;
const STANDS: u8 = 1;
const FAILS: u8 = 2;

/// A control move in the E29 graph.
#[derive(Clone, Copy)]
struct Ctl {
    seat: Seat,
    ability: NightAbility,
    target: u8,
    second: u8,
    state: u8,
    reason: Option<Fail>,
    /// E29: a cycle was broken at this move: it stands as made, unredirected.
    pinned: bool,
}

fn block_status(a: NightAbility) -> Option<Status> {
    match a {
        NightAbility::Rob => Some(Status::Robbed),
        NightAbility::Invite => Some(Status::Invited),
        NightAbility::Beat => Some(Status::Beaten),
        _ => None,
    }
}

impl State {
    /// Plays night `night`: absence, the start of night, moves, resolution,
    /// deaths (the Psycho's guests first, E32), last words, the end check
    /// (C19) and the no-kill rule (C8).
    pub fn run_night<P, A, L>(
        &mut self,
        game: &Game,
        night: u16,
        players: &mut P,
        moves: &mut NightMoves,
        activity: &mut A,
        log: &mut L,
    ) -> Option<End>
    where
        P: Players,
        A: Rng + ?Sized,
        L: Log,
    {
        self.phase = Phase::Night(night);
        players.begin_phase(night, true);
        if L::ENABLED {
            log.push(Event::NightStart { night, alive: self.alive });
        }
        self.draw_presence(game.absence_threshold, activity, log);
        self.begin_night(game, log);
        self.collect_night_moves(game, players, moves, log);
        let result = self.resolve_night(game, moves, log);
        if !result.killed.is_empty() {
            // E32: the Psycho's guest is announced first, then the rest; one elimination (C19).
            if !result.guests.is_empty() {
                self.eliminate(result.guests, DeathCause::Killed, log);
            }
            self.eliminate(result.killed.minus(result.guests), DeathCause::Killed, log);
            self.last_words(players, log);
            if let Some(end) = self.end_check(game.mafia_win) {
                return Some(self.finish(end, log));
            }
        }
        // C8: consecutive nights without a kill give the town the win.
        if result.shot {
            self.nights_without_kill = 0;
        } else {
            self.nights_without_kill = self.nights_without_kill.saturating_add(1);
            if L::ENABLED {
                log.push(Event::NoKillCount { nights: self.nights_without_kill });
            }
            if let Some(limit) = game.no_kill_limit {
                if self.nights_without_kill >= limit {
                    return Some(self.finish(End { winner: Some(Camp::Town), cause: EndCause::NoKillRule }, log));
                }
            }
        }
        None
    }

    /// E30.1, before moves are asked for: the Actor's appointment (E12) and
    /// the Deputy's promotion (E14) take effect; last night's hex holds
    /// (E18); the marks for the day that passed expire (E25, E28).
    pub fn begin_night<L: Log>(&mut self, game: &Game, log: &mut L) {
        if !game.extended {
            return;
        }
        self.mines = PlayerSet::EMPTY;
        self.tricked = PlayerSet::EMPTY;
        // E12: a mafia role-holder other than the Boss died: the Actor takes his role.
        let actor = self.seat_of[Role::Actor as usize];
        if actor != NONE && self.alive.contains(actor) && self.acting[actor as usize] == Role::Actor {
            let dead = self.camp_members[Camp::Mafia as usize].minus(self.alive);
            let mut best: Option<Role> = None;
            for d in dead.iter() {
                let r = self.acting[d as usize];
                if !r.info().plain
                    && !matches!(r, Role::Boss | Role::Actor)
                    && best.is_none_or(|b| r.info().rank < b.info().rank)
                {
                    best = Some(r);
                }
            }
            if let Some(r) = best {
                self.acting[actor as usize] = r;
                if L::ENABLED {
                    log.push(Event::Promoted { seat: actor, role: r });
                }
            }
        }
        // E14: the first of the Detective and the Doctor to die is replaced by the Deputy.
        let deputy = self.seat_of[Role::Deputy as usize];
        if deputy != NONE && self.alive.contains(deputy) && self.acting[deputy as usize] == Role::Deputy {
            let key = |s: u8| -> Option<u32> {
                if s == NONE || self.alive.contains(s) {
                    return None;
                }
                Some(match self.death[s as usize] {
                    Some((Phase::Day(d), _)) => 2 * d as u32,
                    Some((Phase::Night(d), _)) => 2 * d as u32 + 1,
                    None => 0,
                })
            };
            let det = self.seat_of[Role::Detective as usize];
            let doc = self.seat_of[Role::Doctor as usize];
            let pick = match (key(det), key(doc)) {
                (Some(a), Some(b)) if b < a => Some((Role::Doctor, det)),
                (Some(_), _) => Some((Role::Detective, doc)),
                (None, Some(_)) => Some((Role::Doctor, det)),
                (None, None) => None,
            };
            if let Some((role, other)) = pick {
                self.acting[deputy as usize] = role;
                if L::ENABLED {
                    log.push(Event::Promoted { seat: deputy, role });
                }
                if other != NONE && self.alive.contains(other) {
                    self.knowledge[deputy as usize].mates.insert(other);
                    self.knowledge[other as usize].mates.insert(deputy);
                    if L::ENABLED {
                        log.push(Event::Introduced { a: deputy, b: other });
                    }
                }
            }
        }
        // E18: last night's hex holds tonight.
        self.hexed = self.hex_next.inter(self.alive);
        self.hex_next = PlayerSet::EMPTY;
        if L::ENABLED {
            for s in self.hexed.iter() {
                log.push(Event::HexHolds { seat: s });
            }
        }
    }

    /// Checks a kill nick (C4: any living player).
    #[inline]
    pub fn check_kill(&self, s: Seat, kill: Option<Seat>) -> Result<u8, MoveError> {
        match kill {
            None => Ok(NONE),
            Some(_) if !self.shooters.contains(s) => Err(MoveError::NotAShooter),
            Some(t) if !self.alive.contains(t) => Err(MoveError::KillTarget(t)),
            Some(t) => Ok(t),
        }
    }

    /// Checks a bandit's search nick (E3).
    #[inline]
    pub fn check_search(&self, s: Seat, search: Option<Seat>) -> Result<u8, MoveError> {
        match search {
            None => Ok(NONE),
            Some(_) if !self.camp_members[Camp::Bandits as usize].contains(s) => Err(MoveError::NotABandit),
            Some(t) if t == s || !self.alive.contains(t) => Err(MoveError::SearchTarget(t)),
            Some(t) => Ok(t),
        }
    }

    /// Why `t` is not a legal first target of `ability` for `s`.
    fn target_problem(&self, s: Seat, ability: NightAbility, t: Seat) -> &'static str {
        if (t as usize) >= self.n as usize || !self.alive.contains(t) {
            "not a living player"
        } else if t == s && !ability.info().self_allowed {
            "the role may not name itself"
        } else if ability == NightAbility::Guard {
            "the Guard guards a mafioso (E10)"
        } else if matches!(ability, NightAbility::Heal | NightAbility::Beat) {
            "the same player as last night (E15, E26)"
        } else if ability == NightAbility::Swindle {
            "the Swindler swindled this player before (E11)"
        } else {
            "not allowed"
        }
    }

    /// Checks a role move: the acting role's move, or a borrowed one (E19).
    /// `Ok(None)` = no move (none submitted, or the role has none).
    pub fn check_move(&self, s: Seat, choice: &NightChoice) -> Result<Option<Move>, MoveError> {
        let acting = self.acting[s as usize];
        let own = acting.info().night;
        let ability = match (own, choice.borrow) {
            (NightAbility::None, _) => {
                return if choice.act.is_some() || choice.second.is_some() || choice.borrow.is_some() {
                    Err(MoveError::NoMove(acting))
                } else {
                    Ok(None)
                };
            }
            (NightAbility::Borrow, None) => {
                return if choice.act.is_some() { Err(MoveError::BorrowMissing) } else { Ok(None) };
            }
            (NightAbility::Borrow, Some(r)) => {
                if self.day() < 2 {
                    return Err(MoveError::BorrowNightOne);
                }
                if !self.borrowable(s).contains(r) {
                    return Err(MoveError::CannotBorrow(r));
                }
                r.info().night
            }
            (_, Some(_)) => return Err(MoveError::NotABorrower(acting)),
            (a, None) => a,
        };
        let borrowed = choice.borrow;
        let info = ability.info();
        match info.targets {
            Targets::Zero => Ok(Some(Move { ability, target: NONE, second: NONE, borrowed })),
            Targets::One => {
                if choice.second.is_some() {
                    return Err(MoveError::UnexpectedSecond);
                }
                match choice.act {
                    None if borrowed.is_some() => Err(MoveError::MissingTarget),
                    None => Ok(None),
                    Some(t) if self.targets(s, ability).contains(t) => {
                        Ok(Some(Move { ability, target: t, second: NONE, borrowed }))
                    }
                    Some(t) => Err(MoveError::Target { target: t, why: self.target_problem(s, ability, t) }),
                }
            }
            Targets::Two => match (choice.act, choice.second) {
                (None, None) if borrowed.is_none() => Ok(None),
                (None, _) => Err(MoveError::MissingTarget),
                (Some(_), None) => Err(MoveError::MissingSecond),
                (Some(t), Some(u)) => {
                    if !self.targets(s, ability).contains(t) {
                        return Err(MoveError::Target { target: t, why: self.target_problem(s, ability, t) });
                    }
                    if !self.second_targets(s, ability, t).contains(u) {
                        let why = if (u as usize) >= self.n as usize || !self.alive.contains(u) {
                            "not a living player"
                        } else if u == t {
                            "the same player as the first target"
                        } else {
                            "the role may not name itself"
                        };
                        return Err(MoveError::Second { target: u, why });
                    }
                    Ok(Some(Move { ability, target: t, second: u, borrowed }))
                }
            },
        }
    }

    /// Records an accepted move (a borrow uses up the role, E19).
    fn accept<L: Log>(&mut self, s: Seat, m: Move, moves: &mut NightMoves, log: &mut L) {
        if let Some(r) = m.borrowed {
            self.borrowed.insert(r);
            if L::ENABLED {
                log.push(Event::Borrowed { seat: s, role: r });
            }
        }
        moves.set_move(s, m);
        // A report or check answer is tonight's or none: a failed move must not
        // look like an old answer (E17: "failed").
        let k = &mut self.knowledge[s as usize];
        k.report = None;
        if matches!(m.ability, NightAbility::BossCheck | NightAbility::CheckCamp | NightAbility::CheckIsRole(_)) {
            k.last = None;
        }
        if L::ENABLED {
            log.push(Event::NightAct { seat: s, ability: m.ability, target: opt(m.target), second: opt(m.second) });
        }
    }

    /// Submits one player's night choice, all of it or nothing (scenario
    /// files, tests). The first problem is returned.
    pub fn submit<L: Log>(
        &mut self,
        s: Seat,
        choice: &NightChoice,
        moves: &mut NightMoves,
        log: &mut L,
    ) -> Result<(), MoveError> {
        if !self.alive.contains(s) {
            return Err(MoveError::Dead);
        }
        let kill = self.check_kill(s, choice.kill)?;
        let search = self.check_search(s, choice.search)?;
        let m = self.check_move(s, choice)?;
        self.record_nicks(s, kill, search, moves, log);
        if let Some(m) = m {
            self.accept(s, m, moves, log);
        }
        Ok(())
    }

    fn record_nicks<L: Log>(&mut self, s: Seat, kill: u8, search: u8, moves: &mut NightMoves, log: &mut L) {
        moves.kill[s as usize] = kill;
        moves.search[s as usize] = search;
        if L::ENABLED {
            if kill != NONE {
                log.push(Event::NightKillNick { seat: s, target: kill });
            }
            if search != NONE {
                log.push(Event::SearchNick { seat: s, target: search });
            }
        }
    }

    /// Clears `moves` for a night of this game (before [`State::submit`]).
    pub fn clear_moves(&self, moves: &mut NightMoves) {
        moves.clear();
    }

    /// Asks every present living player with a night move for it and keeps
    /// the legal parts. An illegal part counts as no move (and, for a
    /// shooter, as sending nothing: C4).
    pub fn collect_night_moves<P: Players, L: Log>(
        &mut self,
        game: &Game,
        players: &mut P,
        moves: &mut NightMoves,
        log: &mut L,
    ) {
        moves.reset_makers();
        for s in self.alive.inter(self.night_movers).minus(self.present).iter() {
            moves.kill[s as usize] = NONE;
            moves.search[s as usize] = NONE;
        }
        if !game.extended {
            return self.collect_classic(players, moves, log);
        }
        for s in self.present.inter(self.night_movers).iter() {
            let choice = players.night(&self.observe(s));
            let kill = self.check_kill(s, choice.kill).unwrap_or_else(|_| {
                self.refuse(s, "night kill target", log);
                NONE
            });
            let search = self.check_search(s, choice.search).unwrap_or_else(|_| {
                self.refuse(s, "search target", log);
                NONE
            });
            self.record_nicks(s, kill, search, moves, log);
            // The common shapes of a role move in place; the rest through `check_move`.
            let own = self.acting[s as usize].info().night;
            let targets = own.info().targets;
            if choice.act.is_none() && choice.second.is_none() && choice.borrow.is_none() {
                if targets != Targets::Zero || own == NightAbility::None {
                    continue; // no move (`check_move` gives Ok(None))
                }
            } else if choice.borrow.is_none() && choice.second.is_none() && targets == Targets::One {
                let t = choice.act.expect("checked above");
                if self.targets(s, own).contains(t) {
                    self.accept(s, Move::one(own, t), moves, log);
                } else {
                    self.refuse(s, "night move", log);
                }
                continue;
            }
            match self.check_move(s, &choice) {
                Ok(Some(m)) => self.accept(s, m, moves, log),
                Ok(None) => {}
                Err(_) => self.refuse(s, "night move", log),
            }
        }
        // E7: the Boss may send a move on behalf of any member who sent none.
        let boss = self.seat_of[Role::Boss as usize];
        if boss != NONE && self.present.contains(boss) {
            let members = self.living(Camp::Mafia).without(boss);
            for m in members.iter() {
                let own = self.acting[m as usize].info().night;
                if own == NightAbility::None || moves.ability(m) != NightAbility::None {
                    continue;
                }
                let choice = players.proxy(&self.observe(boss), m);
                if choice.act.is_none() && choice.second.is_none() && choice.borrow.is_none() {
                    continue;
                }
                // Judged as the member's own move (his kill nick and search are not the Boss's to send).
                let role_move = NightChoice { kill: None, search: None, ..choice };
                match self.check_move(m, &role_move) {
                    Ok(Some(mv)) => {
                        if L::ENABLED {
                            log.push(Event::Proxy { boss, member: m });
                        }
                        self.accept(m, mv, moves, log);
                    }
                    Ok(None) => {}
                    Err(_) => self.refuse(boss, "proxy move", log),
                }
            }
        }
    }

    /// The classic set's collection (C4–C6): the same rules as the general
    /// path for the only moves a classic role has — a kill nick and a check
    /// of another living player — without the extended shapes.
    fn collect_classic<P: Players, L: Log>(&mut self, players: &mut P, moves: &mut NightMoves, log: &mut L) {
        for s in self.present.inter(self.night_movers).iter() {
            let choice = players.night(&self.observe(s));
            let kill = self.check_kill(s, choice.kill).unwrap_or_else(|_| {
                self.refuse(s, "night kill target", log);
                NONE
            });
            moves.kill[s as usize] = kill;
            if L::ENABLED && kill != NONE {
                log.push(Event::NightKillNick { seat: s, target: kill });
            }
            if choice.search.is_some() {
                self.refuse(s, "search target", log);
            }
            if choice.act.is_none() && choice.second.is_none() && choice.borrow.is_none() {
                continue;
            }
            let own = self.roles[s as usize].info().night;
            match choice.act {
                Some(t)
                    if own != NightAbility::None
                        && t != s
                        && self.alive.contains(t)
                        && choice.second.is_none()
                        && choice.borrow.is_none() =>
                {
                    moves.set_move(s, Move::one(own, t));
                    if L::ENABLED {
                        log.push(Event::NightAct { seat: s, ability: own, target: Some(t), second: None });
                    }
                }
                _ => self.refuse(s, "night move", log),
            }
        }
    }

    /// Why `s`'s blockable move fails (E6), if it does.
    #[inline]
    fn blocked(&self, t: &Tonight, s: Seat) -> Option<Fail> {
        let by = |x: u8| if x == NONE { None } else { Some(x) };
        if t.robbed.contains(s) {
            Some(Fail::Blocked { status: Status::Robbed, by: by(t.by_rob) })
        } else if t.beaten.contains(s) {
            Some(Fail::Blocked { status: Status::Beaten, by: by(t.by_beat) })
        } else if t.invited.contains(s) {
            Some(Fail::Blocked { status: Status::Invited, by: by(t.by_invite) })
        } else if self.hexed.contains(s) {
            Some(Fail::Blocked { status: Status::Hexed, by: None })
        } else {
            None
        }
    }

    /// Judges a non-control move at its step: the maker's blocks (E6), the
    /// redirect (E11), a beaten target (E6). Returns the targets it reaches.
    #[inline]
    fn judge<L: Log>(&self, t: &Tonight, moves: &NightMoves, s: Seat, log: &mut L) -> Option<(u8, u8)> {
        let ability = moves.ability[s as usize];
        let info = ability.info();
        let fail = |reason: Fail, log: &mut L| {
            if L::ENABLED {
                log.push(Event::Failed { seat: s, ability, reason });
            }
        };
        if info.blockable {
            if let Some(reason) = self.blocked(t, s) {
                fail(reason, log);
                return None;
            }
        }
        let target = if s == t.victim { t.redirect_to } else { moves.act[s as usize] };
        let second = moves.second[s as usize];
        if info.fails_on_beaten
            && ((target != NONE && t.beaten.contains(target)) || (second != NONE && t.beaten.contains(second)))
        {
            fail(Fail::TargetBeaten, log);
            return None;
        }
        Some((target, second))
    }

    #[inline]
    fn succeed<L: Log>(&self, s: Seat, ability: NightAbility, target: u8, log: &mut L) {
        if L::ENABLED {
            log.push(Event::Succeeded { seat: s, ability, target: opt(target) });
        }
    }

    /// Resolves the accepted moves in the game's night order. Does not
    /// remove the dead (the caller does, so last words and end checks
    /// follow C13/C19).
    pub fn resolve_night<L: Log>(&mut self, game: &Game, moves: &NightMoves, log: &mut L) -> NightResult {
        if !game.extended {
            return self.resolve_classic(game, moves, log);
        }
        let mut t = Tonight::new();
        if game.extended {
            t.psycho = self.seat_of[Role::Psycho as usize];
            for w in moves.makers[NightAbility::Watch.index()].iter() {
                t.watch = moves.act[w as usize];
            }
        }
        for &step in game.night_order.iter() {
            // Step markers only in extended games, so classic stories stay as they were.
            if L::ENABLED && game.extended {
                log.push(Event::Step(step));
            }
            // Steps no role of the setup can use are skipped (classic: all but checks and kills).
            if game.active_steps & (1 << step as u8) == 0 {
                continue;
            }
            match step {
                NightStep::StartOfNight => {}
                NightStep::Control => self.control(game, moves, &mut t, log),
                NightStep::Protection => self.protection(moves, game.rules.blast_heal, &mut t, log),
                NightStep::Information => self.information(moves, &mut t, log),
                NightStep::Kills => self.kills(game, moves, &mut t, log),
                NightStep::Marks => self.marks(moves, &mut t, log),
                NightStep::InformationOnMoves => self.information_on_moves(moves, &mut t, log),
            }
        }
        if game.extended {
            // E23: tonight's guest dies next night; E15/E26: tonight's heal and beating.
            self.guest = if t.hits.contains(t.guest) { NONE } else { t.guest };
            self.prev_target = [NONE; MAX_PLAYERS];
            let m = &moves.makers;
            for s in m[NightAbility::Heal.index()].union(m[NightAbility::Beat.index()]).iter() {
                self.prev_target[s as usize] = moves.act[s as usize];
            }
        }
        NightResult { killed: t.hits, guests: t.guests.inter(t.hits), shot: t.shot }
    }

    /// The classic set's night (C4–C7): checks, then the camp kill; no
    /// statuses exist, so nothing blocks or protects. The same events and
    /// results as the general walk over the same moves.
    fn resolve_classic<L: Log>(&mut self, game: &Game, moves: &NightMoves, log: &mut L) -> NightResult {
        let mut result = NightResult::default();
        for &step in game.night_order.iter() {
            match step {
                NightStep::Information => {
                    let m = &moves.makers;
                    let makers =
                        m[NightAbility::CheckIsRole(Role::Commissar).index()].union(m[NightAbility::CheckCamp.index()]);
                    for s in makers.iter() {
                        let x = moves.act[s as usize];
                        let k = &mut self.knowledge[s as usize];
                        k.checked.insert(x);
                        match moves.ability[s as usize] {
                            NightAbility::CheckIsRole(role) => {
                                // C5: the Don asks "is he the Commissar?".
                                let yes = self.roles[x as usize] == role;
                                if yes {
                                    k.role_yes.insert(x);
                                }
                                k.last = Some((x, CheckOutcome::IsRole(role, yes)));
                                if L::ENABLED {
                                    log.push(Event::RoleCheck { seat: s, target: x, role, yes });
                                }
                            }
                            _ => {
                                // C6: the camp.
                                let camp = self.roles[x as usize].camp();
                                k.camps[camp as usize].insert(x);
                                k.last = Some((x, CheckOutcome::Camp(camp)));
                                if L::ENABLED {
                                    log.push(Event::CampCheck { seat: s, target: x, camp });
                                }
                            }
                        }
                    }
                }
                NightStep::Kills => {
                    // Classic roles: only the mafia shoot.
                    {
                        let camp = Camp::Mafia;
                        let decided = if game.leader_kill {
                            self.leader_kill(camp, moves, log)
                        } else {
                            self.camp_kill(camp, moves, log)
                        };
                        if let Some((target, decider)) = decided {
                            result.shot = true;
                            result.killed.insert(target);
                            if L::ENABLED {
                                log.push(Event::NightKill { target, by: Killer::Camp { camp, decider } });
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        result
    }

    /// E29: control moves. A control move stands unless its maker is blocked
    /// by a control move that stands; a standing redirect rewrites its
    /// victim's target first. A cycle is broken at the highest-priority
    /// maker (Thief, Psycho, Thug, Swindler). `sequential`: in that order,
    /// an earlier move always wins and the redirect reaches only later steps.
    fn control<L: Log>(&mut self, game: &Game, moves: &NightMoves, t: &mut Tonight, log: &mut L) {
        let blank = Ctl {
            seat: NONE,
            ability: NightAbility::None,
            target: NONE,
            second: NONE,
            state: 0,
            reason: None,
            pinned: false,
        };
        let mut ctl = [blank; 8];
        let mut k = 0;
        for a in [NightAbility::Rob, NightAbility::Invite, NightAbility::Beat, NightAbility::Swindle] {
            for s in moves.makers[a.index()].iter() {
                if k < ctl.len() {
                    let reason = self.hexed.contains(s).then_some(Fail::Blocked { status: Status::Hexed, by: None });
                    ctl[k] = Ctl {
                        seat: s,
                        ability: a,
                        target: moves.act[s as usize],
                        second: moves.second[s as usize],
                        state: if reason.is_some() { FAILS } else { UNDECIDED },
                        reason,
                        pinned: false,
                    };
                    k += 1;
                }
            }
        }
        if k == 0 {
            return;
        }
        let ctl = &mut ctl[..k];
        let mafia = self.camp_members[Camp::Mafia as usize];
        let graph = game.rules.resolution == Resolution::Graph;
        let swindle = ctl.iter().position(|c| c.ability == NightAbility::Swindle);
        // Whether control move `j` is the swindle's victim (E11: never a mafioso).
        let redirectable = |ctl: &[Ctl], j: usize| -> Option<usize> {
            let w = swindle?;
            let victim = w != j && ctl[w].target == ctl[j].seat && !mafia.contains(ctl[j].seat);
            (graph && victim && !ctl[j].pinned).then_some(w)
        };
        // The targets control move `j` may reach: (definite, other possible).
        let possible = |ctl: &[Ctl], j: usize| -> (u8, u8) {
            match redirectable(ctl, j) {
                Some(w) if ctl[w].state == STANDS => (ctl[w].second, NONE),
                Some(w) if ctl[w].state == UNDECIDED => (ctl[j].target, ctl[w].second),
                _ => (ctl[j].target, NONE),
            }
        };
        if graph {
            loop {
                let mut progress = false;
                for i in 0..k {
                    if ctl[i].state != UNDECIDED {
                        continue;
                    }
                    let me = ctl[i].seat;
                    let mut maybe = false;
                    let mut by = None;
                    for j in 0..k {
                        if j == i || ctl[j].state == FAILS || block_status(ctl[j].ability).is_none() {
                            continue;
                        }
                        let (a, b) = possible(ctl, j);
                        if a == me && b == NONE && ctl[j].state == STANDS {
                            by = Some(j);
                            break;
                        }
                        maybe |= a == me || b == me;
                    }
                    if let Some(j) = by {
                        ctl[i].state = FAILS;
                        ctl[i].reason = Some(Fail::Blocked {
                            status: block_status(ctl[j].ability).expect("a blocking move"),
                            by: Some(ctl[j].seat),
                        });
                        progress = true;
                    } else if !maybe {
                        ctl[i].state = STANDS;
                        progress = true;
                    }
                }
                if !progress {
                    // E29: a cycle; it is broken at the highest-priority maker in it: an
                    // undecided move, or a standing one whose target waits on an undecided
                    // redirect. His move stands as made.
                    let in_cycle = |ctl: &[Ctl], i: usize| {
                        ctl[i].state == UNDECIDED
                            || (ctl[i].state == STANDS
                                && redirectable(ctl, i).is_some_and(|w| ctl[w].state == UNDECIDED))
                    };
                    match (0..k).find(|&i| in_cycle(ctl, i)) {
                        Some(i) => {
                            if redirectable(ctl, i).is_some_and(|w| ctl[w].state == UNDECIDED) {
                                ctl[i].pinned = true;
                            }
                            ctl[i].state = STANDS;
                            if L::ENABLED {
                                log.push(Event::CycleBroken { seat: ctl[i].seat });
                            }
                        }
                        None => break,
                    }
                }
            }
        } else {
            for i in 0..k {
                if ctl[i].state == FAILS {
                    continue;
                }
                let me = ctl[i].seat;
                let by = (0..i)
                    .find(|&j| ctl[j].state == STANDS && block_status(ctl[j].ability).is_some() && ctl[j].target == me);
                match by {
                    Some(j) => {
                        ctl[i].state = FAILS;
                        ctl[i].reason = Some(Fail::Blocked {
                            status: block_status(ctl[j].ability).expect("a blocking move"),
                            by: Some(ctl[j].seat),
                        });
                    }
                    None => ctl[i].state = STANDS,
                }
            }
        }
        // Final targets: a standing redirect rewrites its victim's target (graph only).
        for j in 0..k {
            if ctl[j].state == FAILS {
                if L::ENABLED {
                    let reason = ctl[j].reason.expect("a failed move has a reason");
                    log.push(Event::Failed { seat: ctl[j].seat, ability: ctl[j].ability, reason });
                }
                continue;
            }
            if let Some(w) = redirectable(ctl, j) {
                if ctl[w].state == STANDS {
                    ctl[j].target = ctl[w].second;
                }
            }
        }
        // The beating first: every other move checks for a beaten target (E6).
        for c in ctl.iter().filter(|c| c.state == STANDS && c.ability == NightAbility::Beat) {
            t.beaten.insert(c.target);
            t.by_beat = c.seat;
            t.visit(Camp::Bandits, c.target);
            self.succeed(c.seat, c.ability, c.target, log);
            if L::ENABLED {
                log.push(Event::StatusSet { seat: c.target, status: Status::Beaten, by: c.seat });
            }
        }
        // E11: the redirect.
        if let Some(w) = swindle {
            let c = ctl[w];
            if c.state == STANDS {
                if mafia.contains(c.target) {
                    if L::ENABLED {
                        log.push(Event::Failed { seat: c.seat, ability: c.ability, reason: Fail::TargetMafia });
                    }
                } else if t.beaten.contains(c.target) {
                    if L::ENABLED {
                        log.push(Event::Failed { seat: c.seat, ability: c.ability, reason: Fail::TargetBeaten });
                    }
                } else if moves.ability(c.target).info().targets == Targets::Zero {
                    // E11: "his move goes to the new target": no move with a target, nothing to send.
                    if L::ENABLED {
                        log.push(Event::Failed { seat: c.seat, ability: c.ability, reason: Fail::NothingToRedirect });
                    }
                } else if ctl.iter().any(|v| v.pinned && v.seat == c.target) {
                    // E29: the victim's move won the cycle and stands as made.
                    if L::ENABLED {
                        log.push(Event::Failed { seat: c.seat, ability: c.ability, reason: Fail::Overruled });
                    }
                } else {
                    t.victim = c.target;
                    t.redirect_to = c.second;
                    self.swindled.insert(c.target);
                    t.visit(Camp::Mafia, c.target);
                    self.succeed(c.seat, c.ability, c.target, log);
                    let from = moves.act(c.target).map_or(NONE, |x| x);
                    if L::ENABLED {
                        log.push(Event::Redirected { by: c.seat, victim: c.target, from: opt(from), to: c.second });
                    }
                    if moves.makers[NightAbility::Watch.index()].contains(c.target) {
                        t.watch = c.second;
                    }
                }
            }
        }
        // E22: a Sleepwalker watching a beaten house is beaten too.
        if t.by_beat != NONE {
            for w in moves.makers[NightAbility::Watch.index()].iter() {
                let target = if w == t.victim { t.redirect_to } else { moves.act[w as usize] };
                if t.beaten.contains(target) && !t.beaten.contains(w) {
                    t.beaten.insert(w);
                    if L::ENABLED {
                        log.push(Event::BeatenWatching { seat: w });
                    }
                }
            }
        }
        for c in ctl.iter().filter(|c| c.state == STANDS) {
            let status = match c.ability {
                NightAbility::Rob => Status::Robbed,
                NightAbility::Invite => Status::Invited,
                _ => continue,
            };
            if t.beaten.contains(c.target) {
                if L::ENABLED {
                    log.push(Event::Failed { seat: c.seat, ability: c.ability, reason: Fail::TargetBeaten });
                }
                continue;
            }
            self.succeed(c.seat, c.ability, c.target, log);
            if L::ENABLED {
                log.push(Event::StatusSet { seat: c.target, status, by: c.seat });
            }
            if status == Status::Robbed {
                // E9: unnoticed: the Sleepwalker does not see the Thief; E27: the Scout learns it.
                t.robbed.insert(c.target);
                t.by_rob = c.seat;
                t.scout[1] = c.target;
            } else {
                t.invited.insert(c.target);
                t.by_invite = c.seat;
                t.guest = c.target;
                t.visit(Camp::Bandits, c.target);
            }
        }
    }

    /// E10, E15: guards and heals. `blast_heal` (E24): a heal may reach
    /// tonight's guest, so that it can save him from the blast.
    fn protection<L: Log>(&mut self, moves: &NightMoves, blast_heal: bool, t: &mut Tonight, log: &mut L) {
        for s in moves.makers[NightAbility::Guard.index()].iter() {
            let Some((g, _)) = self.judge(t, moves, s, log) else { continue };
            if t.invited.contains(g) {
                if L::ENABLED {
                    log.push(Event::Failed { seat: s, ability: NightAbility::Guard, reason: Fail::TargetInvited });
                }
                continue;
            }
            t.guarded.insert(g);
            t.visit(self.roles[s as usize].camp(), g);
            self.succeed(s, NightAbility::Guard, g, log);
            if L::ENABLED {
                log.push(Event::Guarded { seat: g, by: s });
            }
        }
        for s in moves.makers[NightAbility::Heal.index()].iter() {
            let Some((h, _)) = self.judge(t, moves, s, log) else { continue };
            // E23: the guest cannot be healed on the night of the invitation,
            // unless the setting takes the seed's "unless healed" of E24.
            if t.invited.contains(h) && !blast_heal {
                if L::ENABLED {
                    log.push(Event::Failed { seat: s, ability: NightAbility::Heal, reason: Fail::TargetInvited });
                }
                continue;
            }
            t.healed.insert(h);
            if h == self.guest {
                t.guest_healer = s;
            }
            t.scout[2] = h;
            t.visit(self.roles[s as usize].camp(), h);
            self.succeed(s, NightAbility::Heal, h, log);
            if L::ENABLED {
                log.push(Event::Healed { seat: h, by: s });
            }
        }
    }

    /// C5, C6, E7, E13, E17: checks of people, judged at dusk (C7).
    fn information<L: Log>(&mut self, moves: &NightMoves, t: &mut Tonight, log: &mut L) {
        // Checks do not affect each other (C7), so they resolve in seat order.
        let m = &moves.makers;
        let makers = m[NightAbility::BossCheck.index()]
            .union(m[NightAbility::CheckIsRole(Role::Commissar).index()])
            .union(m[NightAbility::CheckCamp.index()])
            .union(m[NightAbility::Compare.index()]);
        for s in makers.iter() {
            let ability = moves.ability[s as usize];
            let Some((x, second)) = self.judge(t, moves, s, log) else { continue };
            let my_camp = self.roles[s as usize].camp();
            match ability {
                NightAbility::BossCheck => {
                    // E7: role or plain, and the camp.
                    let info = self.roles[x as usize].info();
                    let k = &mut self.knowledge[s as usize];
                    k.checked.insert(x);
                    k.camps[info.camp as usize].insert(x);
                    if !info.plain {
                        k.holders.insert(x);
                    }
                    k.last = Some((x, CheckOutcome::Camp(info.camp)));
                    if L::ENABLED {
                        log.push(Event::BossCheck { seat: s, target: x, plain: info.plain, camp: info.camp });
                    }
                }
                NightAbility::CheckIsRole(role) => {
                    // C5: the Don asks "is he the Commissar?".
                    let yes = self.roles[x as usize] == role;
                    let k = &mut self.knowledge[s as usize];
                    k.checked.insert(x);
                    if yes {
                        k.role_yes.insert(x);
                    }
                    k.last = Some((x, CheckOutcome::IsRole(role, yes)));
                    if L::ENABLED {
                        log.push(Event::RoleCheck { seat: s, target: x, role, yes });
                    }
                }
                NightAbility::CheckCamp => {
                    // C6/E13: the camp.
                    let camp = self.roles[x as usize].camp();
                    let k = &mut self.knowledge[s as usize];
                    k.checked.insert(x);
                    k.camps[camp as usize].insert(x);
                    k.last = Some((x, CheckOutcome::Camp(camp)));
                    t.scout[0] = x;
                    if L::ENABLED {
                        log.push(Event::CampCheck { seat: s, target: x, camp });
                    }
                }
                NightAbility::Compare => {
                    // E17: same camp or different.
                    let same = self.roles[x as usize].camp() == self.roles[second as usize].camp();
                    let report = Report::Compare { a: x, b: second, same };
                    self.knowledge[s as usize].report = Some(report);
                    t.visit(my_camp, second);
                    if L::ENABLED {
                        log.push(Event::Learned { seat: s, report });
                    }
                }
                _ => continue,
            }
            t.visit(my_camp, x);
        }
    }

    /// Why a kill does not reach `target` (E6, E8, E10, E15, E20, E23).
    #[inline]
    fn kill_stopped(t: &Tonight, target: u8) -> Option<Fail> {
        if t.invited.contains(target) {
            Some(Fail::TargetInvited)
        } else if t.beaten.contains(target) {
            Some(Fail::TargetBeaten)
        } else if t.healed.contains(target) {
            Some(Fail::TargetHealed)
        } else if t.guarded.contains(target) {
            Some(Fail::TargetGuarded)
        } else {
            None
        }
    }

    /// E30.5: the guest's death, the camp kills, the Shooter, the blast, the spare life.
    fn kills<L: Log>(&mut self, game: &Game, moves: &NightMoves, t: &mut Tonight, log: &mut L) {
        // E23: last night's guest dies unless healed tonight.
        let g = self.guest;
        if g != NONE && self.alive.contains(g) {
            t.shot = true;
            if t.healed.contains(g) {
                if L::ENABLED {
                    log.push(Event::GuestSaved { seat: g, by: t.guest_healer });
                }
            } else {
                t.hits.insert(g);
                t.guests.insert(g);
                if L::ENABLED {
                    log.push(Event::NightKill { target: g, by: Killer::Guest(t.psycho) });
                }
            }
        }
        // C4/E8: each camp's kill.
        for camp in Camp::ALL {
            let decided =
                if game.leader_kill { self.leader_kill(camp, moves, log) } else { self.camp_kill(camp, moves, log) };
            let Some((target, decider)) = decided else { continue };
            t.shot = true;
            t.psycho_tried |= target == t.psycho;
            let by = Killer::Camp { camp, decider };
            match Self::kill_stopped(t, target) {
                Some(reason) => {
                    if L::ENABLED {
                        log.push(Event::KillFailed { target, by, reason });
                    }
                }
                None => {
                    t.hits.insert(target);
                    t.visit(camp, target);
                    if L::ENABLED {
                        log.push(Event::NightKill { target, by });
                    }
                }
            }
        }
        // E20: the Shooter.
        for s in moves.makers[NightAbility::Shoot.index()].iter() {
            let Some((target, _)) = self.judge(t, moves, s, log) else { continue };
            t.shot = true;
            t.psycho_tried |= target == t.psycho;
            let by = Killer::Shooter(s);
            match Self::kill_stopped(t, target) {
                Some(reason) => {
                    if L::ENABLED {
                        log.push(Event::KillFailed { target, by, reason });
                    }
                }
                None => {
                    t.hits.insert(target);
                    t.visit(self.roles[s as usize].camp(), target);
                    self.succeed(s, NightAbility::Shoot, target, log);
                    if L::ENABLED {
                        log.push(Event::NightKill { target, by });
                    }
                }
            }
        }
        // E24: the blast takes the Psycho's guest of tonight.
        if t.psycho_tried && t.guest != NONE {
            let by = Killer::Blast(t.psycho);
            if game.rules.blast_heal && t.healed.contains(t.guest) {
                if L::ENABLED {
                    log.push(Event::KillFailed { target: t.guest, by, reason: Fail::TargetHealed });
                }
            } else {
                t.hits.insert(t.guest);
                t.guests.insert(t.guest);
                if L::ENABLED {
                    log.push(Event::NightKill { target: t.guest, by });
                }
            }
        }
        // E21: one spare life absorbs every kill that reached the Lucky tonight.
        let saved = t.hits.inter(self.spare_life);
        if !saved.is_empty() {
            self.spare_life = self.spare_life.minus(saved);
            t.hits = t.hits.minus(saved);
            if L::ENABLED {
                for s in saved.iter() {
                    log.push(Event::SpareLife { seat: s });
                }
            }
        }
    }

    /// E18, E25, E28: marks that act later.
    fn marks<L: Log>(&mut self, moves: &NightMoves, t: &mut Tonight, log: &mut L) {
        for s in moves.makers[NightAbility::Hex.index()].iter() {
            let Some((x, _)) = self.judge(t, moves, s, log) else { continue };
            if t.healed.contains(x) {
                // E15/E18: a heal tonight lifts the hex cast tonight.
                if L::ENABLED {
                    log.push(Event::HexLifted { seat: x });
                }
                continue;
            }
            self.hex_next.insert(x);
            t.visit(self.roles[s as usize].camp(), x);
            self.succeed(s, NightAbility::Hex, x, log);
        }
        for s in moves.makers[NightAbility::Mine.index()].iter() {
            let Some((x, _)) = self.judge(t, moves, s, log) else { continue };
            self.mines.insert(x);
            t.visit(self.roles[s as usize].camp(), x);
            self.succeed(s, NightAbility::Mine, x, log);
        }
        for s in moves.makers[NightAbility::Trick.index()].iter() {
            let Some((x, _)) = self.judge(t, moves, s, log) else { continue };
            self.tricked.insert(x);
            t.visit(self.roles[s as usize].camp(), x);
            self.succeed(s, NightAbility::Trick, x, log);
        }
    }

    /// E22, E27, E3: reports on moves and the bandits' search.
    fn information_on_moves<L: Log>(&mut self, moves: &NightMoves, t: &mut Tonight, log: &mut L) {
        for s in moves.makers[NightAbility::Watch.index()].iter() {
            let Some((x, _)) = self.judge(t, moves, s, log) else { continue };
            let report = Report::Watch { target: x, camps: t.seen };
            self.knowledge[s as usize].report = Some(report);
            if L::ENABLED {
                log.push(Event::Learned { seat: s, report });
            }
        }
        for s in moves.makers[NightAbility::Scout.index()].iter() {
            if self.judge(t, moves, s, log).is_none() {
                continue;
            }
            let report = Report::Scout { checked: opt(t.scout[0]), robbed: opt(t.scout[1]), healed: opt(t.scout[2]) };
            self.knowledge[s as usize].report = Some(report);
            if L::ENABLED {
                log.push(Event::Learned { seat: s, report });
            }
        }
        // E3: a bandit naming a bandit: the host introduces the two.
        let bandits = self.camp_members[Camp::Bandits as usize];
        for s in bandits.inter(self.alive).iter() {
            let x = moves.search[s as usize];
            if x != NONE && bandits.contains(x) && !self.knowledge[s as usize].mates.contains(x) {
                self.knowledge[s as usize].mates.insert(x);
                self.knowledge[x as usize].mates.insert(s);
                if L::ENABLED {
                    log.push(Event::BanditsMeet { a: s, b: x });
                }
            }
        }
    }

    /// E8: the highest-ranked living member who sent a nick decides the kill.
    fn leader_kill<L: Log>(&self, camp: Camp, moves: &NightMoves, log: &mut L) -> Option<(Seat, Seat)> {
        let members = self.living(camp).inter(self.shooters);
        let mut best: Option<(u8, Seat)> = None;
        for s in members.iter() {
            if moves.kill[s as usize] != NONE {
                // E12: an appointed Actor "acts in that role": he ranks as it.
                let rank = self.acting[s as usize].info().rank;
                if best.is_none_or(|(r, _)| rank < r) {
                    best = Some((rank, s));
                }
            }
        }
        match best {
            Some((_, s)) => Some((moves.kill[s as usize], s)),
            None => {
                if L::ENABLED {
                    if let Some(s) = members.lowest() {
                        log.push(Event::NightMiss(MissReason::Silent(s)));
                    }
                }
                None
            }
        }
    }

    /// C4: the camp's kill. Every living shooter of the camp must send the
    /// same nick; anything else is a miss. `None` for a miss or a camp
    /// without living shooters; else the target and the first shooter.
    fn camp_kill<L: Log>(&self, camp: Camp, moves: &NightMoves, log: &mut L) -> Option<(Seat, Seat)> {
        let mut target = NONE;
        let mut first = NONE;
        let mut any = false;
        for s in self.living(camp).inter(self.shooters).iter() {
            any = true;
            let t = moves.kill[s as usize];
            if t == NONE {
                if L::ENABLED {
                    log.push(Event::NightMiss(MissReason::Silent(s)));
                }
                return None;
            }
            if target == NONE {
                target = t;
                first = s;
            } else if target != t {
                if L::ENABLED {
                    log.push(Event::NightMiss(MissReason::Disagree(first, s)));
                }
                return None;
            }
        }
        if any { Some((target, first)) } else { None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_role_with_a_night_move_has_a_step() {
        for role in Role::ALL {
            let info = role.info();
            let steps: Vec<NightStep> = NIGHT_ORDER.into_iter().filter(|s| s.roles().any(|r| r == role)).collect();
            let own = info.night != NightAbility::None && info.night != NightAbility::Borrow;
            let expected = info.shoots as usize + own as usize + (info.camp == Camp::Bandits) as usize
                - (info.camp == Camp::Bandits && info.night.step() == Some(NightStep::InformationOnMoves)) as usize;
            assert_eq!(steps.len(), expected, "{role}: {steps:?}");
        }
        // C5/C6 are information, C4 is a kill.
        assert!(NightStep::Information.roles().take(2).eq([Role::Commissar, Role::Don]));
        assert!(NightStep::Kills.roles().take(2).eq([Role::Mafioso, Role::Don]));
    }

    /// The classic fast paths (`collect_classic`, `resolve_classic`) give the
    /// same events, knowledge and deaths as the general walk.
    #[test]
    fn classic_fast_path_matches_the_general_walk() {
        use crate::setup::{Game, Preset};
        use crate::util::pick;
        use rand::SeedableRng;
        for (preset, rules) in [("classic", "unanimous"), ("classic-13", "leader")] {
            let mut setup = Preset::find(preset).unwrap().setup();
            setup.rules.set("camp_kill", rules).unwrap();
            let fast = Game::new(&setup).unwrap();
            let mut general = fast.clone();
            general.extended = true;
            general.active_steps = 0x7F;
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
            for round in 0..500 {
                let mut st = State::default();
                st.deal(&fast, &mut rng);
                st.phase = Phase::Night(1);
                // Random (sometimes illegal) nicks and checks from everybody.
                let mut choices = [NightChoice::default(); MAX_PLAYERS];
                for c in choices.iter_mut().take(fast.players()) {
                    let all = PlayerSet::first(fast.players());
                    c.kill = if round % 3 == 0 { None } else { pick(&mut rng, all) };
                    c.act = pick(&mut rng, all);
                }
                let mut outs = Vec::new();
                for game in [&fast, &general] {
                    let mut st = st.clone();
                    let mut moves = NightMoves::default();
                    let mut log: Vec<Event> = Vec::new();
                    struct P<'a>(&'a [NightChoice]);
                    impl Players for P<'_> {
                        fn new_game(&mut self, _: &crate::state::Observation<'_>) {}
                        fn post(&mut self, _: &crate::state::Observation<'_>) -> crate::Publication {
                            crate::Publication::NONE
                        }
                        fn vote(&mut self, _: &crate::state::Observation<'_>) -> crate::Vote {
                            crate::Vote::Pass
                        }
                        fn revise(&mut self, _: &crate::state::Observation<'_>) -> Option<crate::Vote> {
                            None
                        }
                        fn runoff(&mut self, _: &crate::state::Observation<'_>, c: PlayerSet) -> Seat {
                            c.lowest().unwrap()
                        }
                        fn hang_both(&mut self, _: &crate::state::Observation<'_>, _: PlayerSet) -> bool {
                            false
                        }
                        fn night(&mut self, obs: &crate::state::Observation<'_>) -> NightChoice {
                            self.0[obs.seat() as usize]
                        }
                        fn last_word(&mut self, _: &crate::state::Observation<'_>) -> crate::Publication {
                            crate::Publication::NONE
                        }
                    }
                    st.collect_night_moves(game, &mut P(&choices), &mut moves, &mut log);
                    let result = st.resolve_night(game, &moves, &mut log);
                    log.retain(|e| !matches!(e, Event::Step(_)));
                    outs.push((log, result, st.knowledge[..fast.players()].to_vec(), st.illegal));
                }
                assert_eq!(outs[0], outs[1], "{preset} round {round}");
            }
        }
    }

    #[test]
    fn e30_every_move_has_one_step_in_the_order() {
        for a in NightAbility::MOVES {
            let n = NIGHT_ORDER.iter().filter(|s| s.abilities().any(|b| b == a)).count();
            assert_eq!(n, (a != NightAbility::Borrow) as usize, "{a:?}");
        }
    }
}
