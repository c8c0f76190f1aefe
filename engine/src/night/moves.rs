//! Collecting the night's moves: what a player may submit (kill nicks C4/E8,
//! role moves C5–C6/E7–E28, the bandits' search E3, the Boss's proxy E7),
//! checked once here with the same legality the agents see
//! (`State::targets`), and kept in fixed per-seat tables ([`NightMoves`]).

use crate::decide::{NightChoice, Players};
use crate::event::{Event, Log};
use crate::role::{Camp, NightAbility, Role, Targets};
use crate::seat::{MAX_PLAYERS, PlayerSet, Seat};
use crate::setup::Game;
use crate::state::State;
use std::fmt;

/// Why a submitted night move was refused (for agents: an illegal decision;
/// for scenario files: an error naming the line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The maker is dead.
    Dead,
    /// A kill nick from a player whose role does not shoot (C4, E8).
    NotAShooter,
    /// E12: a kill nick from the Actor before his appointment (while
    /// another mafia member lives): a mafia member without a say in the kill.
    UnappointedActor,
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
    Target {
        /// The target named.
        target: Seat,
        /// Why it may not be named.
        why: &'static str,
    },
    /// A second target the move may not name.
    Second {
        /// The second target named.
        target: Seat,
        /// Why it may not be named.
        why: &'static str,
    },
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
            MoveError::UnappointedActor => write!(
                f,
                "the Actor sends no kill nick until he is appointed to a role, unless he is the last living \
                 mafia member (E12)"
            ),
            MoveError::KillTarget(t) => write!(f, "kill target {} is not alive", t.number()),
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
            MoveError::Target { target, why } => write!(f, "target {} is not allowed: {why}", target.number()),
            MoveError::Second { target, why } => write!(f, "second target {} is not allowed: {why}", target.number()),
            MoveError::NotABandit => write!(f, "only bandits search for each other (E3)"),
            MoveError::SearchTarget(t) => write!(f, "search target {} is not another living player (E3)", t.number()),
        }
    }
}

impl std::error::Error for MoveError {}

/// An accepted role move: what it does and to whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// What the move does.
    pub ability: NightAbility,
    /// Its target (`None` for a move without one).
    pub target: Option<Seat>,
    /// The second target of a two-target move (E11, E17).
    pub second: Option<Seat>,
    /// E19: the role the Role Prostitute borrows.
    pub borrowed: Option<Role>,
}

impl Move {
    /// A one-target move.
    pub const fn one(ability: NightAbility, target: Seat) -> Move {
        Move { ability, target: Some(target), second: None, borrowed: None }
    }
    /// A two-target move (E11, E17).
    pub const fn two(ability: NightAbility, target: Seat, second: Seat) -> Move {
        Move { ability, target: Some(target), second: Some(second), borrowed: None }
    }
    /// A move without a target (E27).
    pub const fn zero(ability: NightAbility) -> Move {
        Move { ability, target: None, second: None, borrowed: None }
    }
}

/// Everybody's accepted night moves. Fixed arrays; reused across nights and games.
#[derive(Clone, Debug)]
pub struct NightMoves {
    /// C4/E8: each shooter's nick (`None` = sent nothing).
    pub(super) kill: [Option<Seat>; MAX_PLAYERS],
    /// Each player's role move target: meaningful for the makers of a move
    /// with a target (`makers`, `ability`), never read for anybody else.
    pub(super) act: [Seat; MAX_PLAYERS],
    /// The second target, likewise, for the two-target moves (E11, E17).
    pub(super) second: [Seat; MAX_PLAYERS],
    /// E3: each bandit's search nick.
    pub(super) search: [Option<Seat>; MAX_PLAYERS],
    /// The move each player makes (`None` = none), a borrowed one included.
    pub(super) ability: [NightAbility; MAX_PLAYERS],
    /// Per move (`NightAbility::index`): who makes it tonight.
    pub(super) makers: [PlayerSet; NightAbility::COUNT],
    /// E7: members who left their move to the Boss's discretion tonight.
    pub(super) deferred: PlayerSet,
}

impl Default for NightMoves {
    fn default() -> Self {
        NightMoves {
            kill: [None; MAX_PLAYERS],
            act: [Seat::new(0); MAX_PLAYERS],
            second: [Seat::new(0); MAX_PLAYERS],
            search: [None; MAX_PLAYERS],
            ability: [NightAbility::None; MAX_PLAYERS],
            makers: [PlayerSet::EMPTY; NightAbility::COUNT],
            deferred: PlayerSet::EMPTY,
        }
    }
}

impl NightMoves {
    /// Forgets every move (a new game).
    pub fn clear(&mut self) {
        *self = NightMoves::default();
    }
    /// A new night: only the per-move maker sets are cleared. The per-seat
    /// tables are read only for seats in a maker set (written by
    /// `set_move`) or for nicks of players asked tonight (written by
    /// `record_nicks`; the collector clears the nicks of absent movers).
    #[inline]
    pub(super) fn reset_makers(&mut self) {
        self.makers = [PlayerSet::EMPTY; NightAbility::COUNT];
        self.deferred = PlayerSet::EMPTY;
    }
    /// Records a kill nick (unchecked; for tests of the resolver).
    pub fn set_kill(&mut self, shooter: Seat, target: Option<Seat>) {
        self.kill[shooter] = target;
    }
    /// Records a role move (unchecked; for tests of the resolver).
    pub fn set_move(&mut self, maker: Seat, m: Move) {
        let s = maker.index();
        let old = self.ability[s];
        if old != NightAbility::None {
            self.makers[old.index()].remove(maker);
        }
        self.ability[s] = m.ability;
        self.act[s] = m.target.unwrap_or_default();
        self.second[s] = m.second.unwrap_or_default();
        if m.ability != NightAbility::None {
            self.makers[m.ability.index()].insert(maker);
        }
    }
    /// The kill nick of `shooter` tonight (C4, E8).
    #[inline]
    pub fn kill(&self, shooter: Seat) -> Option<Seat> {
        self.kill[shooter]
    }
    /// The target of `actor`'s move tonight (none without a move).
    pub fn act(&self, actor: Seat) -> Option<Seat> {
        let a = self.ability(actor);
        (a.info().targets != Targets::Zero).then_some(self.act[actor])
    }
    /// The target of a maker of a move with a target (unchecked: read only for makers).
    #[inline]
    pub(super) fn target(&self, maker: Seat) -> Seat {
        self.act[maker]
    }
    /// The second target of `actor`'s two-target move tonight (E11, E17).
    #[inline]
    pub fn second(&self, actor: Seat) -> Option<Seat> {
        let a = self.ability(actor);
        (a.info().targets == Targets::Two).then_some(self.second[actor])
    }
    /// E3: the search nick of `bandit` tonight.
    #[inline]
    pub fn search(&self, bandit: Seat) -> Option<Seat> {
        self.search[bandit]
    }
    /// The move `actor` makes tonight (`None` = none).
    #[inline]
    pub fn ability(&self, actor: Seat) -> NightAbility {
        let a = self.ability[actor];
        if a != NightAbility::None && self.makers[a.index()].contains(actor) { a } else { NightAbility::None }
    }
}

impl State {
    /// Checks a kill nick (C4: any living player).
    #[inline]
    pub fn check_kill(&self, s: Seat, kill: Option<Seat>) -> Result<Option<Seat>, MoveError> {
        match kill {
            None => Ok(None),
            Some(_) if !self.shooters.contains(s) => Err(if self.acting_role(s) == Role::Actor {
                MoveError::UnappointedActor
            } else {
                MoveError::NotAShooter
            }),
            Some(t) if !self.alive.contains(t) => Err(MoveError::KillTarget(t)),
            Some(t) => Ok(Some(t)),
        }
    }

    /// Checks a bandit's search nick (E3).
    #[inline]
    pub fn check_search(&self, s: Seat, search: Option<Seat>) -> Result<Option<Seat>, MoveError> {
        match search {
            None => Ok(None),
            Some(_) if !self.camp_members[Camp::Bandits as usize].contains(s) => Err(MoveError::NotABandit),
            Some(t) if t == s || !self.alive.contains(t) => Err(MoveError::SearchTarget(t)),
            Some(t) => Ok(Some(t)),
        }
    }

    /// Why `t` is not a legal first target of `ability` for `s`.
    pub(super) fn target_problem(&self, s: Seat, ability: NightAbility, t: Seat) -> &'static str {
        if t.index() >= self.n as usize || !self.alive.contains(t) {
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
        let acting = self.acting[s];
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
                r.borrowed_move()
            }
            (_, Some(_)) => return Err(MoveError::NotABorrower(acting)),
            (a, None) => a,
        };
        let borrowed = choice.borrow;
        let info = ability.info();
        match info.targets {
            Targets::Zero => Ok(Some(Move { ability, target: None, second: None, borrowed })),
            Targets::One => {
                if choice.second.is_some() {
                    return Err(MoveError::UnexpectedSecond);
                }
                match choice.act {
                    None if borrowed.is_some() => Err(MoveError::MissingTarget),
                    None => Ok(None),
                    Some(t) if self.targets(s, ability).contains(t) => {
                        Ok(Some(Move { ability, target: Some(t), second: None, borrowed }))
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
                        let why = if u.index() >= self.n as usize || !self.alive.contains(u) {
                            "not a living player"
                        } else if u == t {
                            "the same player as the first target"
                        } else {
                            "the role may not name itself"
                        };
                        return Err(MoveError::Second { target: u, why });
                    }
                    Ok(Some(Move { ability, target: Some(t), second: Some(u), borrowed }))
                }
            },
        }
    }

    /// Records an accepted move (a borrow uses up the role, E19).
    pub(super) fn accept<L: Log>(&mut self, s: Seat, m: Move, moves: &mut NightMoves, log: &mut L) {
        if let Some(r) = m.borrowed {
            self.borrowed.insert(r);
            if L::ENABLED {
                log.push(Event::Borrowed { seat: s, role: r });
            }
        }
        moves.set_move(s, m);
        // A report or check answer is tonight's or none: a failed move must not
        // look like an old answer (E17: "failed").
        let k = self.know(s);
        k.report = None;
        if matches!(m.ability, NightAbility::BossCheck | NightAbility::CheckCamp | NightAbility::CheckIsRole(_)) {
            k.last = None;
        }
        if L::ENABLED {
            log.push(Event::NightAct { seat: s, ability: m.ability, target: m.target, second: m.second });
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
            if choice.defer {
                moves.deferred.insert(s);
            }
        }
        Ok(())
    }

    pub(super) fn record_nicks<L: Log>(
        &mut self,
        s: Seat,
        kill: Option<Seat>,
        search: Option<Seat>,
        moves: &mut NightMoves,
        log: &mut L,
    ) {
        moves.kill[s] = kill;
        moves.search[s] = search;
        if L::ENABLED {
            if let Some(target) = kill {
                log.push(Event::NightKillNick { seat: s, target });
            }
            if let Some(target) = search {
                log.push(Event::SearchNick { seat: s, target });
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
            moves.kill[s] = None;
            moves.search[s] = None;
        }
        if !game.extended {
            return self.collect_classic(players, moves, log);
        }
        // In the deal's mover order (by role, see `State::mover_order`).
        let mut order = [Seat::new(0); MAX_PLAYERS];
        let count = self.tonights_movers(self.present.inter(self.night_movers), &mut order);
        for &s in &order[..count] {
            let choice = players.night(&self.observe(s));
            let kill = self.check_kill(s, choice.kill).unwrap_or_else(|_| {
                self.refuse(s, "night kill target", log);
                None
            });
            let search = self.check_search(s, choice.search).unwrap_or_else(|_| {
                self.refuse(s, "search target", log);
                None
            });
            self.record_nicks(s, kill, search, moves, log);
            if choice.defer {
                // E7: «Участник может оставить изменение хода на усмотрение» the Boss.
                moves.deferred.insert(s);
            }
            // The common shapes of a role move in place; the rest through `check_move`.
            let own = self.acting[s].info().night;
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
        // E7: the Boss may send a move on behalf of any member who sent none,
        // or who left his move to the Boss («на усмотрение»); the Boss's move
        // then replaces the member's.
        if let Some(boss) = self.holder(Role::Boss).filter(|&b| self.present.contains(b)) {
            let members = self.living(Camp::Mafia).without(boss);
            for m in members.iter() {
                let own = self.acting[m].info().night;
                if own == NightAbility::None || (moves.ability(m) != NightAbility::None && !moves.deferred.contains(m))
                {
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
    pub(super) fn collect_classic<P: Players, L: Log>(&mut self, players: &mut P, moves: &mut NightMoves, log: &mut L) {
        let mut order = [Seat::new(0); MAX_PLAYERS];
        let count = self.tonights_movers(self.present.inter(self.night_movers), &mut order);
        for &s in &order[..count] {
            let choice = players.night(&self.observe(s));
            let kill = self.check_kill(s, choice.kill).unwrap_or_else(|_| {
                self.refuse(s, "night kill target", log);
                None
            });
            moves.kill[s] = kill;
            if let (true, Some(target)) = (L::ENABLED, kill) {
                log.push(Event::NightKillNick { seat: s, target });
            }
            if choice.search.is_some() {
                self.refuse(s, "search target", log);
            }
            if choice.act.is_none() && choice.second.is_none() && choice.borrow.is_none() {
                continue;
            }
            let own = self.roles[s].info().night;
            match choice.act {
                // C5/C6: the general path's legality (`State::targets`).
                Some(t) if choice.second.is_none() && choice.borrow.is_none() && self.targets(s, own).contains(t) => {
                    moves.set_move(s, Move::one(own, t));
                    if L::ENABLED {
                        log.push(Event::NightAct { seat: s, ability: own, target: Some(t), second: None });
                    }
                }
                _ => self.refuse(s, "night move", log),
            }
        }
    }
}
