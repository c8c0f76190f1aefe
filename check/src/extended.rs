//! The extended checker: one game's event log and outcome re-read against
//! the extended rule set (E1–E32 of `rules/extended.md`) and the classic
//! clauses that carry over.
//!
//! [`check`] is an independent reading of the rules that follows the log
//! event by event (it never asks the engine what is legal: it keeps its own
//! statuses, carries and counts). It reads any game, with or without
//! extended roles: the extended test suite draws its setups from all 24
//! roles of both rule sets. An `Err` names the event and the broken clause.
//!
//! What is checked, beyond the classic invariants that carry over (C3, C4,
//! C8–C13, C17–C19 on the living, E2 for three camps):
//! - every game ends: `GameEnd` is the last event, on or before the day cap;
//! - the dead never act (no move, nick, search or vote from a dead seat), nor
//!   the absent (C16);
//! - every accepted move names legal targets (E10, E11, E15, E17, E19, E26
//!   restated here) and is judged exactly once;
//! - a blocked maker (robbed, beaten, invited or hexed that night, per
//!   `StatusSet`, `BeatenWatching`, `HexHolds`) never succeeds, except the
//!   Trickster's pick (E28) — and, for control moves, the E29 exceptions:
//!   the maker a cycle was broken at, and under `resolution = sequential`
//!   a maker whose status came from a later control move;
//! - a move that succeeds never reaches a beaten target (E6), except the
//!   Thug's own beating and the Trickster's pick;
//! - statuses come only from a move that succeeded that night (a failed
//!   move leaves no trace, E30) and hold only that night; a hex holds on
//!   night N exactly for a hex that succeeded on night N-1 (a heal that
//!   night lifts it, E18);
//! - the Swindler never swindles a player twice (E11) nor redirects the
//!   Trickster's pick (E28), the Doctor and the Thug never name last night's
//!   target — the one named or, with `repeat_target = reached`, the one
//!   reached (E15, E26) — the Role Prostitute never borrows before night 2,
//!   nor a role twice, nor a role that is not a dead town player's (E19);
//!   with `thief_at_psycho = house` a robbery of the Psycho fails and blocks
//!   nobody (E9);
//! - the mafia's nicks come from the shooting roles, and from the Actor only
//!   once appointed to a vacancy or when he is the last of the mafia (E12);
//!   a deferred member's move may be replaced by the Boss's proxy (E7);
//! - a watcher (the Sleepwalker, or a Role Prostitute who borrowed him)
//!   reports the camp of each visitor of the house he actually watches (after a
//!   redirect), and is beaten too exactly when he walks (not hexed, beaten,
//!   robbed or invited) round a house the Thug came to; a swindle of such a
//!   walker fails (E22, E29);
//! - the Lucky's spare life is spent at most once and whenever a kill
//!   reaches him (E21); the night's deaths are exactly the kills that
//!   reached minus the spared Lucky, the Psycho's guests first (E32); the
//!   guest dies the next night unless healed (E23); the blast (E24);
//! - C8: only the mafia's kill, tried, resets the count of nights without
//!   a kill (not the guest, the Shooter or the blast);
//! - the day's count: removed votes (E28), the secret votes of the Chosen
//!   and of a Role Prostitute who borrowed him (E16, E19; none from one
//!   hexed the night before with `hex_takes_secret_votes`), mines (E25), at
//!   most two leave by the lynch (C12.6; with `lynch_limit = day` the mines
//!   too); the runoff's voters (C12, with
//!   `runoff_all_tied`) and its outcome recounted from the counted votes
//!   (with `runoff_marks = marked` the Trickster's pick's are not, and
//!   a revote's count reaches the mines);
//! - the outcome agrees with the log (winner, cause, days, survivors);
//! - no `Illegal` events and no illegal decisions counted (the checker is
//!   meant for built-in agents, which never make one).

use crate::{Cur, ensure, read_deal};
use mafia_engine::{
    Camp, DeathCause, EndCause, Event, Fail, Game, Killer, LynchLimit, LynchResult, MAX_PLAYERS, MafiaWin, MissReason,
    NightAbility, Outcome, PlayerSet, Report, Resolution, Role, RoleSet, RunoffMarks, Seat, Status, TieBreak, Vote,
};

/// E2 for three camps (with C17/C18's parity as the `mafia_win` setting):
/// the end that holds for the living set `alive`, if any.
fn end_state(roles: &[Role], alive: PlayerSet, win: MafiaWin) -> Option<(Option<Camp>, EndCause)> {
    if alive.is_empty() {
        return Some((None, EndCause::Nobody));
    }
    let count = |c: Camp| alive.iter().filter(|&s| roles[s].camp() == c).count();
    let (mafia, town, bandits) = (count(Camp::Mafia), count(Camp::Town), count(Camp::Bandits));
    if mafia == 0 && bandits == 0 {
        return Some((Some(Camp::Town), EndCause::MafiaEliminated));
    }
    if town == 0 && bandits == 0 {
        return Some((Some(Camp::Mafia), EndCause::TownEliminated));
    }
    if mafia == 0 && town == 0 {
        return Some((Some(Camp::Bandits), EndCause::OnlyBandits));
    }
    if win == MafiaWin::Parity && bandits == 0 && mafia >= town {
        return Some((Some(Camp::Mafia), EndCause::Parity));
    }
    None
}

/// What the checked games exercised, so the suite can show its invariants
/// were not vacuous.
#[derive(Clone, Debug, Default)]
pub struct Seen {
    /// Games checked (passed or refused).
    pub games: u64,
    /// Of those, games with an extended role (`Game::is_extended`).
    pub extended_games: u64,
    /// E7: moves the Boss sent for a member who sent none.
    pub proxies: u64,
    /// Games by how they ended (`EndCause as usize`), once the end checked out.
    pub ends: [u64; EndCause::COUNT],
    /// E5: night moves that succeeded.
    pub successes: u64,
    /// E6: night moves blocked by a status.
    pub blocked: u64,
    /// E6/E22: moves that failed because their target was beaten.
    pub target_beaten: u64,
    /// E29: control cycles broken.
    pub cycles_broken: u64,
    /// Sequential: a control maker whose status came from a later control move (E29).
    pub sequential_late_status: u64,
    /// Graph: a maker a cycle was broken at who succeeded though a status was put on him.
    pub cycle_broken_with_status: u64,
    /// Graph: a control move that went where a swindle sent it though the swindle failed.
    pub failed_swindle_rewrites: u64,
    /// Graph: a swindle overruled by a cycle broken at its victim (E29).
    pub overruled: u64,
    /// E11: moves the Swindler redirected.
    pub redirects: u64,
    /// E21: Lucky players' spare lives spent.
    pub spare_lives: u64,
    /// E23: the Psycho's guests who died the next night.
    pub guest_deaths: u64,
    /// E23: guests saved by a heal.
    pub guests_saved: u64,
    /// E24: guests killed in the Psycho's blast.
    pub blasts: u64,
    /// E18: players hexed for a night.
    pub hexes_held: u64,
    /// E18: hexes lifted by a heal.
    pub hexes_lifted: u64,
    /// E25: mines that went off (three or more votes).
    pub mines_exploded: u64,
    /// E28: votes the Trickster removed.
    pub votes_removed: u64,
    /// E16: grants of the Chosen's secret votes.
    pub secret_votes: u64,
    /// E19: roles the Role Prostitute borrowed.
    pub borrows: u64,
    /// E12/E14: appointments and promotions.
    pub promotions: u64,
    /// E3: pairs of bandits who met.
    pub bandits_met: u64,
    /// Night kills that were stopped (a guard, E10; a heal, E15; a blocked or robbed killer, E6, E9).
    pub kills_stopped: u64,
    /// C12.6: lynches that took two players.
    pub two_lynched: u64,
    /// E8: camp kills decided by the leader.
    pub leader_kills: u64,
    /// E12: nicks of an Actor, appointed or the last of the mafia.
    pub actor_nicks: u64,
    /// E19/E16: secret votes of a Role Prostitute who borrowed the Chosen.
    pub borrowed_secret_votes: u64,
    /// E22: Sleepwalkers' reports checked, and watchers beaten too.
    pub watch_reports: u64,
    /// E22: watching Sleepwalkers beaten at the house they watched.
    pub beaten_watching: u64,
    /// E22/E29: redirects of a walking watcher away from a house the Thug beat.
    pub swindles_on_beaten_walkers: u64,
    /// E28: swindles of the Trickster.
    pub unredirectable: u64,
    /// E9 (`thief_at_psycho = house`): robberies of the Psycho.
    pub robbed_psycho_house: u64,
    /// C8: nights with a death but no mafia kill tried, counted.
    pub counted_other_kills: u64,
    /// C12 (`runoff_all_tied = revote`): runoff votes of the tied.
    pub all_tied_votes: u64,
    /// E15/E26 (`repeat_target = reached`): bars set by a reached target
    /// that differs from the named one.
    pub reached_bars: u64,
    /// E16/E18 (`hex_takes_secret_votes`): present secret voters whose
    /// votes a hex cast the night before took.
    pub hexed_secret_voters: u64,
    /// C12.6/E25 (`lynch_limit = day`): mines kept from going off by two hanged.
    pub mines_withheld: u64,
    /// E28 (`runoff_marks = marked`): runoff votes and hang-both choices of the Trickster's pick, not counted.
    pub runoff_votes_removed: u64,
    /// E25 (`runoff_marks = marked`): mines a revote's count set off.
    pub runoff_mines: u64,
}

/// An accepted night move as logged (`NightAct`).
#[derive(Clone, Copy, Debug)]
struct Act {
    ability: NightAbility,
    target: Option<Seat>,
    second: Option<Seat>,
}

/// A move's success as logged, checked when the night is resolved.
#[derive(Clone, Copy, Debug)]
struct Success {
    idx: usize,
    seat: Seat,
    ability: NightAbility,
    target: Option<Seat>,
    second: Option<Seat>,
    /// The redirect target if this maker's redirect was logged before.
    redirected_to: Option<Seat>,
    /// Beaten players at the time of the event.
    beaten: PlayerSet,
}

/// Who put a status on a seat tonight (bits).
const BY_ROB: u8 = 1;
const BY_INVITE: u8 = 2;
const BY_BEAT: u8 = 4;
const BY_WATCHING: u8 = 8;
const BY_HEX: u8 = 16;
/// The maker's own move (the Thug beating himself, E26).
const BY_SELF: u8 = 32;

/// E29's priority of a control move (also the sequential order).
fn control_rank(a: NightAbility) -> Option<u8> {
    match a {
        NightAbility::Rob => Some(0),
        NightAbility::Invite => Some(1),
        NightAbility::Beat => Some(2),
        NightAbility::Swindle => Some(3),
        _ => None,
    }
}

fn status_of(a: NightAbility) -> Option<Status> {
    match a {
        NightAbility::Rob => Some(Status::Robbed),
        NightAbility::Invite => Some(Status::Invited),
        NightAbility::Beat => Some(Status::Beaten),
        _ => None,
    }
}

/// Whether a role's move may name its maker (E10, E15, E26), restated.
fn may_name_self(a: NightAbility) -> bool {
    matches!(a, NightAbility::Guard | NightAbility::Heal | NightAbility::Beat)
}

/// One night's record.
#[derive(Clone)]
struct Night {
    present: PlayerSet,
    acts: [Option<Act>; 64],
    pending_borrow: Option<(Seat, Role)>,
    /// E7: the member whose move the Boss sends next.
    pending_proxy: Option<Seat>,
    /// E7: proxy moves seen tonight.
    proxies: PlayerSet,
    nicks: [Option<Seat>; 64],
    searches: [Option<Seat>; 64],
    steps: usize,
    resolved: bool,
    status_from: [u8; 64],
    robbed: PlayerSet,
    beaten: PlayerSet,
    invited: PlayerSet,
    hexed: PlayerSet,
    healed: PlayerSet,
    guarded: PlayerSet,
    cycle_broken: PlayerSet,
    redirect: Option<(Seat, Seat)>,
    /// Swindle makers whose move was blocked (it did not stand in the E29 graph)
    /// or overruled (its victim won a cycle and moves as he aimed).
    swindle_blocked: PlayerSet,
    judged: PlayerSet,
    failed: PlayerSet,
    succeeded: [Option<(NightAbility, Option<Seat>)>; 64],
    successes: Vec<Success>,
    status_sets: Vec<(Seat, Status, Seat)>,
    last_camp_check: Option<Seat>,
    last_robbed: Option<Seat>,
    last_healed: Option<Seat>,
    hits: PlayerSet,
    guest_hits: PlayerSet,
    spared: PlayerSet,
    camp_result: bool,
    missed: bool,
    psycho_tried: bool,
    blasts: u32,
    guest_outcomes: u32,
    guest_tonight: Option<Seat>,
    hex_cast: PlayerSet,
    mined: PlayerSet,
    tricked: PlayerSet,
    shot: bool,
    counted: bool,
    died: Vec<Seat>,
    promoted: PlayerSet,
    /// E22: watchers logged as beaten too.
    beaten_watching: PlayerSet,
    /// E22: per house, the successful moves on it so far tonight by each
    /// camp's members (one a visitor).
    visits: [[u8; Camp::COUNT]; 64],
    /// Why each failed move failed.
    reasons: [Option<Fail>; 64],
    /// E19/E16: Role Prostitutes whose borrowed Chosen's votes succeeded.
    secret_voters: PlayerSet,
    /// E22: each watch report: (event, house, visitors reported per camp,
    /// visitors per camp by then).
    reports: Vec<(usize, Seat, [u8; Camp::COUNT], [u8; Camp::COUNT])>,
    /// C8: a death that was not the mafia's kill (guest, Shooter, blast).
    other_kill: bool,
}

impl Night {
    fn new(alive: PlayerSet) -> Night {
        Night {
            present: alive,
            acts: [None; 64],
            pending_borrow: None,
            pending_proxy: None,
            proxies: PlayerSet::EMPTY,
            nicks: [None; 64],
            searches: [None; 64],
            steps: 0,
            resolved: false,
            status_from: [0; 64],
            robbed: PlayerSet::EMPTY,
            beaten: PlayerSet::EMPTY,
            invited: PlayerSet::EMPTY,
            hexed: PlayerSet::EMPTY,
            healed: PlayerSet::EMPTY,
            guarded: PlayerSet::EMPTY,
            cycle_broken: PlayerSet::EMPTY,
            redirect: None,
            swindle_blocked: PlayerSet::EMPTY,
            judged: PlayerSet::EMPTY,
            failed: PlayerSet::EMPTY,
            succeeded: [None; 64],
            successes: Vec::new(),
            status_sets: Vec::new(),
            last_camp_check: None,
            last_robbed: None,
            last_healed: None,
            hits: PlayerSet::EMPTY,
            guest_hits: PlayerSet::EMPTY,
            spared: PlayerSet::EMPTY,
            camp_result: false,
            missed: false,
            psycho_tried: false,
            blasts: 0,
            guest_outcomes: 0,
            guest_tonight: None,
            hex_cast: PlayerSet::EMPTY,
            mined: PlayerSet::EMPTY,
            tricked: PlayerSet::EMPTY,
            shot: false,
            counted: false,
            died: Vec::new(),
            promoted: PlayerSet::EMPTY,
            beaten_watching: PlayerSet::EMPTY,
            visits: [[0; Camp::COUNT]; 64],
            reasons: [None; 64],
            secret_voters: PlayerSet::EMPTY,
            reports: Vec::new(),
            other_kill: false,
        }
    }

    /// [`Night::new`], keeping the memory of the buffers (cleared).
    fn reset(&mut self, alive: PlayerSet) {
        *self = Night {
            successes: cleared(&mut self.successes),
            status_sets: cleared(&mut self.status_sets),
            died: cleared(&mut self.died),
            reports: cleared(&mut self.reports),
            ..Night::new(alive)
        };
    }

    fn acted(&self) -> PlayerSet {
        Seat::all(MAX_PLAYERS).filter(|&s| self.acts[s].is_some()).collect()
    }

    /// The first status that stops a kill of `target` now (E6, E8, E10, E15, E20, E23).
    fn kill_stopped(&self, target: Seat) -> Option<Fail> {
        if self.invited.contains(target) {
            Some(Fail::TargetInvited)
        } else if self.beaten.contains(target) {
            Some(Fail::TargetBeaten)
        } else if self.healed.contains(target) {
            Some(Fail::TargetHealed)
        } else if self.guarded.contains(target) {
            Some(Fail::TargetGuarded)
        } else {
            None
        }
    }
}

/// One day's record.
#[derive(Clone)]
struct Day {
    present: PlayerSet,
    votes: [Option<Vote>; 64],
    changed: PlayerSet,
    modkilled: PlayerSet,
    lynch: Option<LynchResult>,
    tie: PlayerSet,
    candidates: PlayerSet,
    to_hang: Option<PlayerSet>,
    lynched: PlayerSet,
    removed: PlayerSet,
    /// E16 (and E19): the secret votes given, in log order: (voter, target, votes).
    secret: Vec<(Seat, Seat, u8)>,
    /// The day's count; with `runoff_marks = marked` raised by each revote
    /// to a candidate's most votes in any count of the day (the mines read it).
    tally: [u32; 64],
    explode: PlayerSet,
    exploded: PlayerSet,
    /// C12: the open revote's counted votes, while its outcome is pending.
    round: [u32; 64],
    runoff_open: bool,
    /// C12.3: the pair of the open hang-both vote, and its counted choices.
    pair: PlayerSet,
    hang: u32,
    pardon: u32,
}

impl Day {
    fn new(alive: PlayerSet) -> Day {
        Day {
            present: alive,
            votes: [None; 64],
            changed: PlayerSet::EMPTY,
            modkilled: PlayerSet::EMPTY,
            lynch: None,
            tie: PlayerSet::EMPTY,
            candidates: PlayerSet::EMPTY,
            to_hang: None,
            lynched: PlayerSet::EMPTY,
            removed: PlayerSet::EMPTY,
            secret: Vec::new(),
            tally: [0; 64],
            explode: PlayerSet::EMPTY,
            exploded: PlayerSet::EMPTY,
            round: [0; 64],
            runoff_open: false,
            pair: PlayerSet::EMPTY,
            hang: 0,
            pardon: 0,
        }
    }

    /// [`Day::new`], keeping the memory of the buffer (cleared).
    fn reset(&mut self, alive: PlayerSet) {
        *self = Day { secret: cleared(&mut self.secret), ..Day::new(alive) };
    }
}

/// C12: the seats of `among` with the most votes in `tally`.
fn leaders_of(tally: &[u32; 64], among: PlayerSet) -> PlayerSet {
    let best = among.iter().map(|s| tally[s]).max().unwrap_or(0);
    among.iter().filter(|&s| tally[s] == best).collect()
}

/// `v`'s memory, emptied, leaving an empty `Vec` (no allocation) behind.
fn cleared<T>(v: &mut Vec<T>) -> Vec<T> {
    let mut v = std::mem::take(v);
    v.clear();
    v
}

/// The memory the extended checker reuses from night to night and from
/// game to game (a night's and a day's records), so that checking a game
/// allocates nothing once it has grown. Contents never carry over: each
/// game starts from empty records.
#[derive(Clone)]
pub struct Buffers {
    day: Day,
    night: Night,
}

impl Default for Buffers {
    fn default() -> Buffers {
        Buffers { day: Day::new(PlayerSet::EMPTY), night: Night::new(PlayerSet::EMPTY) }
    }
}

impl std::fmt::Debug for Buffers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Buffers").finish_non_exhaustive()
    }
}

/// The game-long record of one game being checked.
struct Checker<'g> {
    game: &'g Game,
    n: usize,
    roles: &'g [Role],
    /// By seat (the first `n`).
    acting: [Role; MAX_PLAYERS],
    /// C4/E8: the seats whose role sends a nick from the start (the Actor
    /// does not, E12).
    shooters: PlayerSet,
    /// Rule settings this checker reads by name (C12, E9, E15/E26).
    all_tied_revote: bool,
    thief_at_house: bool,
    repeat_reached: bool,
    /// E25/E28 (`runoff_marks = marked`): the marks act on the runoffs too.
    runoff_marked: bool,
    alive: PlayerSet,
    dead: PlayerSet,
    /// Order of death: day d → 2d, night d → 2d + 1 (E14).
    death_key: [u32; 64],
    cur: Cur,
    owe_last_word: PlayerSet,
    batch_open: bool,
    must_end: bool,
    illegal: u32,
    nights_without_kill: u8,
    // What carries from a night to the next phases.
    guest: Option<Seat>,
    hex_next: PlayerSet,
    mines: PlayerSet,
    tricks: PlayerSet,
    prev_heal_beat: [Option<Seat>; 64],
    swindled: PlayerSet,
    borrowed: RoleSet,
    /// E19/E16: Role Prostitutes with secret votes at the coming day's count.
    secret_next: PlayerSet,
    spare_used: PlayerSet,
    met: [PlayerSet; 64],
    day: Day,
    night: Night,
}

impl<'g> Checker<'g> {
    fn seat_of(&self, r: Role) -> Option<Seat> {
        self.roles.iter().position(|&x| x == r).map(Seat::from_index)
    }

    fn camp(&self, s: Seat) -> Camp {
        self.roles[s].camp()
    }

    /// E12: the roles the Actor may be appointed to now: the roles of dead
    /// mafia role-holders (not plain, not the Boss, not the Actor).
    fn actor_vacancies(&self) -> RoleSet {
        let mut vacant = RoleSet::EMPTY;
        for d in self.dead.iter() {
            let r = self.acting[d];
            if r.camp() == Camp::Mafia && !r.info().plain && !matches!(r, Role::Boss | Role::Actor) {
                vacant.insert(r);
            }
        }
        vacant
    }

    /// C4/E8 with E12: the living seats that send the mafia's nicks tonight:
    /// the shooting roles, and the Actor once appointed (he "acts in that
    /// role") or when he is all that is left of the mafia. Read after the
    /// night's appointments, which come before any nick.
    fn night_shooters(&self) -> PlayerSet {
        let mut shooters = self.shooters.inter(self.alive);
        if let Some(a) = self.seat_of(Role::Actor).filter(|&a| self.alive.contains(a)) {
            let living_mafia: PlayerSet = self.alive.iter().filter(|&s| self.camp(s) == Camp::Mafia).collect();
            if self.acting[a] != Role::Actor || living_mafia == PlayerSet::single(a) {
                shooters.insert(a);
            }
        }
        shooters
    }

    /// E14: the role the Deputy takes now, if any: the first of the Detective
    /// and the Doctor to die (the Detective if both died in one phase).
    fn deputy_role(&self) -> Option<Role> {
        let key = |r: Role| self.seat_of(r).filter(|&s| self.dead.contains(s)).map(|s| self.death_key[s]);
        match (key(Role::Detective), key(Role::Doctor)) {
            (Some(a), Some(b)) if b < a => Some(Role::Doctor),
            (Some(_), _) => Some(Role::Detective),
            (None, Some(_)) => Some(Role::Doctor),
            (None, None) => None,
        }
    }

    /// The camp kill that the nicks decide (C4, E8): (target, decider).
    fn camp_decision(&self) -> Option<(Seat, Seat)> {
        let shooters = self.night_shooters();
        if self.game.leader_kill() {
            let mut best: Option<(u8, Seat)> = None;
            for s in shooters.iter() {
                if self.night.nicks[s].is_some() {
                    // E12: an appointed Actor ranks as the role he acts in.
                    let rank = self.acting[s].info().rank;
                    if best.is_none_or(|(r, _)| rank < r) {
                        best = Some((rank, s));
                    }
                }
            }
            best.map(|(_, s)| (self.night.nicks[s].unwrap(), s))
        } else {
            let first = shooters.lowest()?;
            let target = self.night.nicks[first]?;
            shooters.iter().all(|s| self.night.nicks[s] == Some(target)).then_some((target, first))
        }
    }

    /// The target a judged move reaches now: the redirect (E11) if it was
    /// logged before, else the submitted one.
    fn reach(&self, s: Seat) -> Option<Seat> {
        match self.night.redirect {
            Some((victim, to)) if victim == s => Some(to),
            _ => self.night.acts[s].and_then(|a| a.target),
        }
    }

    /// E22: `seat`'s successful move reached `house`: one visitor of his camp.
    fn visit(&mut self, seat: Seat, house: Seat) {
        let camp = self.camp(seat);
        self.night.visits[house.index()][camp as usize] += 1;
    }

    fn record_success(&mut self, idx: usize, seat: Seat, ability: NightAbility, t: Option<Seat>, u: Option<Seat>) {
        let redirected_to = match self.night.redirect {
            Some((victim, to)) if victim == seat => Some(to),
            _ => None,
        };
        self.night.successes.push(Success {
            idx,
            seat,
            ability,
            target: t,
            second: u,
            redirected_to,
            beaten: self.night.beaten,
        });
    }

    fn judge_once(&mut self, seat: Seat, what: &str) -> Result<(), String> {
        ensure!(self.night.acts[seat].is_some(), "{what}: seat {seat:?} submitted no move tonight");
        ensure!(!self.night.judged.contains(seat), "{what}: seat {seat:?}'s move was judged twice");
        self.night.judged.insert(seat);
        Ok(())
    }

    fn ability_is(&self, seat: Seat, ability: NightAbility, what: &str) -> Result<Act, String> {
        let act = self.night.acts[seat].ok_or_else(|| format!("{what}: seat {seat:?} made no move"))?;
        ensure!(act.ability == ability, "{what}: seat {seat:?} submitted {:?}, not {ability:?}", act.ability);
        Ok(act)
    }

    /// C12.2/C12.8: the runoff's voters (revotes and the hang-both vote):
    /// the living other than the originally tied; when that is nobody, the
    /// tied themselves under `runoff_all_tied = revote`, nobody under `nobody`.
    fn runoff_voters(&self) -> PlayerSet {
        let others = self.alive.minus(self.day.tie);
        if others.is_empty() && self.all_tied_revote { self.day.tie } else { others }
    }

    /// E30: after the last step, what the night must show as a whole.
    fn close_night(&mut self, seen: &mut Seen) -> Result<(), String> {
        let extended = self.game.is_extended();
        let graph = self.game.rules().resolution == Resolution::Graph;
        let nt = &self.night;
        ensure!(!nt.resolved, "the night was closed twice");
        ensure!(nt.pending_borrow.is_none(), "E19: a borrow without a move");
        ensure!(nt.steps == if extended { 7 } else { 0 }, "E30: {} step markers", nt.steps);
        // Every accepted move is judged once.
        let acted = nt.acted();
        ensure!(nt.judged == acted, "moves {:?} were never judged", acted.minus(nt.judged));
        // E18: last night's hexes hold tonight, on the living.
        let holds = self.hex_next.inter(self.alive);
        ensure!(nt.hexed == holds, "E18: hexed {:?}, but last night's hexes on the living are {holds:?}", nt.hexed);
        // E12, E14: appointments take effect (the built-in agents' Boss
        // appoints at the first night with a vacancy).
        if let Some(a) = self.seat_of(Role::Actor).filter(|&a| self.alive.contains(a)) {
            ensure!(
                self.acting[a] != Role::Actor || self.actor_vacancies().is_empty(),
                "E12: the Actor was not appointed to any of {:?}",
                self.actor_vacancies()
            );
        }
        if let Some(d) = self.seat_of(Role::Deputy).filter(|&d| self.alive.contains(d)) {
            ensure!(
                self.acting[d] != Role::Deputy || self.deputy_role().is_none(),
                "E14: the Deputy was not promoted to {:?}",
                self.deputy_role()
            );
        }
        // C4/E8: the camp kill is decided or missed, once.
        let shooters = self.night_shooters();
        ensure!(
            (nt.camp_result as u8 + nt.missed as u8) == (!shooters.is_empty()) as u8,
            "C4/E8: living shooters {shooters:?}, kill result {} miss {}",
            nt.camp_result,
            nt.missed
        );
        // E23: last night's guest, if alive, dies or is saved.
        let guest_due = self.guest.filter(|&g| self.alive.contains(g)).is_some();
        ensure!(
            nt.guest_outcomes == guest_due as u32,
            "E23: last night's guest {:?}: {} outcomes",
            self.guest,
            nt.guest_outcomes
        );
        // E24: a kill tried at the Psycho on a night with a guest takes the guest.
        let blast_due = nt.psycho_tried && nt.guest_tonight.is_some();
        ensure!(nt.blasts == blast_due as u32, "E24: blast due {blast_due}, {} blasts", nt.blasts);
        // E21: a spare life absorbs whatever reaches its Lucky, once.
        let lucky: PlayerSet = Seat::all(self.n).filter(|&s| self.roles[s] == Role::Lucky).collect();
        // (`spare_used` already holds tonight's spared.)
        let with_life = if extended { lucky.minus(self.spare_used.minus(nt.spared)) } else { PlayerSet::EMPTY };
        ensure!(
            nt.spared == nt.hits.inter(with_life),
            "E21: spared {:?}, but kills reached {:?} with a spare life",
            nt.spared,
            nt.hits.inter(with_life)
        );
        // E3: a bandit naming a bandit he did not know meets him.
        for a in self.alive.iter() {
            if let Some(b) = nt.searches[a] {
                if self.camp(b) == Camp::Bandits && self.camp(a) == Camp::Bandits {
                    ensure!(self.met[a].contains(b), "E3: bandits {a:?} and {b:?} did not meet");
                }
            }
        }
        // Statuses come only from moves that succeeded (a failed move leaves no trace).
        for &(x, status, by) in &nt.status_sets {
            ensure!(!nt.failed.contains(by), "E30: seat {by:?}'s failed move put {status:?} on {x:?}");
            let act = nt.acts[by].ok_or_else(|| format!("a status from seat {by:?} who made no move"))?;
            ensure!(status_of(act.ability) == Some(status), "a {status:?} status from a {:?} move", act.ability);
            ensure!(
                nt.succeeded[by] == Some((act.ability, Some(x))),
                "{status:?} on {x:?} but seat {by:?}'s move succeeded as {:?}",
                nt.succeeded[by]
            );
        }
        // E22 with E26 and E29: a watcher (the Sleepwalker, or a Role
        // Prostitute who borrowed him) is beaten too iff he is out walking —
        // not hexed, not beaten himself, not robbed or invited (the Thief and
        // the Psycho rank before the Thug) — round a house the Thug came to:
        // the house he watches after the redirect. E29's redirect rewrites his
        // target before his walk is judged, so a swindle sends a walking watcher
        // away from a house the Thug came to (he is not beaten there), and a
        // swindle fails on a beaten target only where the Thug came himself.
        let thug_came: PlayerSet = nt.status_sets.iter().filter(|x| x.1 == Status::Beaten).map(|x| x.0).collect();
        let stopped: PlayerSet =
            nt.status_sets.iter().filter(|x| matches!(x.1, Status::Robbed | Status::Invited)).map(|x| x.0).collect();
        let watchers: PlayerSet =
            Seat::all(self.n).filter(|&w| nt.acts[w].is_some_and(|a| a.ability == NightAbility::Watch)).collect();
        let walking = watchers.minus(nt.hexed).minus(thug_came).minus(stopped);
        let own_house = |w: Seat| nt.acts[w].and_then(|a| a.target);
        let beaten_at_home = |w: Seat| walking.contains(w) && own_house(w).is_some_and(|h| thug_came.contains(h));
        let watched = |w: Seat| match nt.redirect {
            Some((victim, to)) if victim == w => Some(to),
            _ => own_house(w),
        };
        let beaten_too: PlayerSet =
            walking.iter().filter(|&w| watched(w).is_some_and(|h| thug_came.contains(h))).collect();
        ensure!(
            nt.beaten_watching == beaten_too,
            "E22: beaten too {:?}, but the watchers walking round a house the Thug came to are {beaten_too:?} \
             (walking {walking:?})",
            nt.beaten_watching
        );
        for w in Seat::all(self.n).filter(|&w| nt.acts[w].is_some_and(|a| a.ability == NightAbility::Swindle)) {
            let Some(victim) = nt.acts[w].and_then(|a| a.target) else { continue };
            if nt.reasons[w] == Some(Fail::TargetBeaten) {
                ensure!(
                    thug_came.contains(victim),
                    "E6/E22: the swindle failed on a beaten target, but the Thug did not come to {victim:?}"
                );
            }
            if nt.redirect.is_some_and(|r| r.0 == victim) && beaten_at_home(victim) {
                seen.swindles_on_beaten_walkers += 1;
            }
        }
        // Each success: the right target; never from a blocked maker; never at a beaten player.
        for s in &nt.successes {
            let act = nt.acts[s.seat]
                .ok_or_else(|| format!("event {}: success of seat {} without a move", s.idx, s.seat.index()))?;
            ensure!(
                act.ability == s.ability,
                "event {}: seat {} submitted {:?} but succeeded with {:?}",
                s.idx,
                s.seat.index(),
                act.ability,
                s.ability
            );
            let control = control_rank(s.ability).is_some();
            // The target the move must reach, and a second one where the log cannot tell.
            let (expected, or_else) = if control {
                // E29 (the engine's decision): a swindle that stands in the graph rewrites its
                // (non-mafia) victim's control move before the swindle itself is applied, so the
                // rewrite holds even when the swindle then fails on a beaten victim — unless a
                // cycle through the redirect was broken at the victim while the swindle was
                // undecided (he is "pinned": his move stands as made). A pinned victim's swindle
                // fails (overruled, or on the beaten victim); the log shows the cycle broken at
                // him but not whether the swindle was still undecided then. The sequence never
                // rewrites control moves.
                let swindle = Seat::all(self.n).find(|&w| {
                    nt.acts[w].is_some_and(|a| a.ability == NightAbility::Swindle && a.target == Some(s.seat))
                });
                match swindle {
                    Some(w) if graph && !nt.swindle_blocked.contains(w) && self.camp(s.seat) != Camp::Mafia => {
                        let to = nt.acts[w].and_then(|a| a.second);
                        if nt.redirect.is_some() {
                            (to, None)
                        } else if nt.cycle_broken.contains(s.seat) {
                            (act.target, to)
                        } else {
                            seen.failed_swindle_rewrites += 1;
                            (to, None)
                        }
                    }
                    _ => (act.target, None),
                }
            } else if s.ability == NightAbility::Trick {
                // E28: the Trickster's pick reaches its named target.
                (act.target, None)
            } else {
                (s.redirected_to.or(act.target), None)
            };
            if s.ability != NightAbility::Scout {
                ensure!(
                    s.target == expected || (or_else.is_some() && s.target == or_else),
                    "event {}: seat {}'s {:?} reached {:?}, expected {expected:?} (E11)",
                    s.idx,
                    s.seat.index(),
                    s.ability,
                    s.target
                );
            }
            if s.ability == NightAbility::Compare {
                ensure!(s.second == act.second, "event {}: E17 compared the wrong second player", s.idx);
            }
            let from = nt.status_from[s.seat] & !BY_SELF;
            if s.ability != NightAbility::Trick && from != 0 {
                let excused = control
                    && from & BY_HEX == 0
                    && if graph {
                        nt.cycle_broken.contains(s.seat)
                    } else {
                        // Sequential: only earlier control moves win.
                        let rank = control_rank(s.ability).unwrap();
                        let later = |bit: u8, r: u8| from & bit == 0 || r > rank;
                        later(BY_ROB, 0) && later(BY_INVITE, 1) && later(BY_BEAT, 2) && from & BY_WATCHING == 0
                    };
                ensure!(
                    excused,
                    "E6: seat {} succeeded with {:?} while blocked (status bits {from:#b}) at event {}",
                    s.seat.index(),
                    s.ability,
                    s.idx
                );
                if graph {
                    seen.cycle_broken_with_status += 1;
                } else {
                    seen.sequential_late_status += 1;
                }
            }
            if !matches!(s.ability, NightAbility::Beat | NightAbility::Trick) {
                let second = if s.ability == NightAbility::Compare { s.second } else { None };
                for t in [s.target, second].into_iter().flatten() {
                    ensure!(
                        !s.beaten.contains(t),
                        "E6: seat {}'s {:?} reached {t:?}, who is beaten (event {})",
                        s.seat.index(),
                        s.ability,
                        s.idx
                    );
                }
            }
        }
        // E22: each report gives the camp of each visitor of the house it watched.
        for &(idx, house, camps, visited) in &nt.reports {
            ensure!(
                camps == visited,
                "event {idx}: E22: the report on {house:?} counts visitors {camps:?} (town, mafia, bandits), \
                 but the successful visitors were {visited:?}"
            );
        }
        seen.successes += nt.successes.len() as u64;
        self.night.resolved = true;
        Ok(())
    }

    /// After the night's deaths: E32, C8, and what carries to the next phases.
    /// `ended`: the night's deaths ended the game (C19 comes before C8's count).
    fn finish_night(&mut self, ended: bool, seen: &mut Seen) -> Result<(), String> {
        let nt = &self.night;
        let killed = nt.hits.minus(nt.spared);
        let died: PlayerSet = nt.died.iter().copied().collect();
        ensure!(
            died == killed,
            "the night's deaths {died:?} are not the kills that reached {:?} minus the spared {:?}",
            nt.hits,
            nt.spared
        );
        // E32: the Psycho's guests first, then the rest (each in seat order).
        let guests = killed.inter(nt.guest_hits);
        let expected = || guests.iter().chain(killed.minus(guests).iter());
        ensure!(
            nt.died.iter().copied().eq(expected()),
            "E32: deaths announced as {:?}, expected {:?}",
            nt.died,
            expected().collect::<Vec<Seat>>()
        );
        // C8: only the mafia's kill, tried (decided), resets the count.
        if nt.shot {
            self.nights_without_kill = 0;
        } else {
            ensure!(nt.counted || ended, "C8: a night without the mafia's kill was not counted");
        }
        // Carries.
        self.guest = nt.guest_tonight.filter(|g| !killed.contains(*g));
        self.hex_next = nt.hex_cast;
        self.mines = nt.mined;
        self.tricks = nt.tricked;
        self.secret_next = nt.secret_voters;
        // E15/E26: tomorrow night's bar: the player named tonight
        // (`repeat_target = named`), or the one the heal or beating reached
        // (`reached`: after a redirect; nobody if it failed).
        for s in 0..64 {
            let named = match nt.acts[s] {
                Some(Act { ability: NightAbility::Heal | NightAbility::Beat, target, .. }) => target,
                _ => None,
            };
            self.prev_heal_beat[s] = if self.repeat_reached {
                let reached = match nt.succeeded[s] {
                    Some((NightAbility::Heal | NightAbility::Beat, target)) => target,
                    _ => None,
                };
                seen.reached_bars += (reached != named) as u64;
                reached
            } else {
                named
            };
        }
        Ok(())
    }

    /// The day's count (C11 with E16 and E28) and its lynch result.
    fn expected_lynch(&mut self, day: u16) -> Result<LynchResult, String> {
        let rules = self.game.rules();
        let d = &mut self.day;
        let mut tally = [0u32; 64];
        for s in d.present.inter(self.alive).iter() {
            if let Some(Vote::For(t)) = d.votes[s] {
                if !d.removed.contains(s) {
                    tally[t] += 1;
                }
            }
        }
        for &(_, t, k) in &d.secret {
            tally[t] += k as u32;
        }
        d.tally = tally;
        let best = self.alive.iter().map(|s| tally[s]).max().unwrap_or(0);
        let leaders: PlayerSet = self.alive.iter().filter(|&s| tally[s] == best).collect();
        d.explode = self.mines.inter(self.alive).iter().filter(|&s| tally[s] >= 3).collect();
        Ok(if best == 0 {
            LynchResult::AllPass
        } else if day == 1 && rules.first_day_pardon && best == 1 && leaders.len() == 1 {
            LynchResult::Pardoned(leaders.lowest().unwrap())
        } else if leaders.len() == 1 {
            LynchResult::Lynched(leaders.lowest().unwrap())
        } else {
            LynchResult::Tie(leaders)
        })
    }

    /// E25 with C12.6: the mines due to go off today, once the lynch is
    /// decided: every mined player with 3 or more counted votes; under
    /// `lynch_limit = day` only while fewer than two have left (the hanged
    /// count first, then the mines in seat order; a hanged player's mine
    /// still goes off).
    fn due_mines(&self) -> PlayerSet {
        let d = &self.day;
        if self.game.rules().lynch_limit == LynchLimit::Lynch {
            return d.explode;
        }
        let hanged = d.to_hang.unwrap_or_default();
        let mut left = hanged.len();
        let mut due = PlayerSet::EMPTY;
        for s in d.explode.iter() {
            if hanged.contains(s) {
                due.insert(s);
            } else if left < 2 {
                due.insert(s);
                left += 1;
            }
        }
        due
    }

    /// E16, E28: the marks the count must show (checked at the lynch result).
    fn check_marks(&self, seen: &mut Seen) -> Result<(), String> {
        let d = &self.day;
        let voted_for = |s: Seat| matches!(d.votes[s], Some(Vote::For(_)));
        let removable: PlayerSet = self.tricks.inter(d.present).iter().filter(|&s| voted_for(s)).collect();
        ensure!(d.removed == removable, "E28: removed votes {:?}, expected {removable:?}", d.removed);
        // E16: the Chosen's votes, and (E19) those of a Role Prostitute who
        // borrowed him last night, each if present, in seat order: to the
        // living player he names, or else to his open vote's target.
        let k = self.game.rules().chosen_secret_votes;
        let mut voters = self.secret_next;
        if let Some(c) = self.seat_of(Role::Chosen) {
            voters.insert(c);
        }
        let mut voters = if k > 0 { voters.inter(d.present).inter(self.alive) } else { PlayerSet::EMPTY };
        // E18 with `hex_takes_secret_votes`: a hex cast last night (not
        // lifted) takes the day's secret votes; by default they stay.
        if self.game.rules().hex_takes_secret_votes {
            seen.hexed_secret_voters += voters.inter(self.hex_next).len() as u64;
            voters = voters.minus(self.hex_next);
        }
        let givers = || d.secret.iter().map(|x| x.0);
        let gave = |v: Seat| givers().any(|g| g == v);
        ensure!(
            givers().eq(voters.iter().filter(|&v| gave(v))),
            "E16/E19: secret votes from {:?}, expected some of {voters:?} in seat order",
            givers().collect::<Vec<Seat>>()
        );
        for &(v, t, n) in &d.secret {
            ensure!(n == k, "E16: {n} secret votes, the rules give {k}");
            ensure!(
                t != v && self.alive.contains(t),
                "E16: secret votes of {v:?} for {t:?}, not another living player"
            );
        }
        // Whoever has an open vote for somebody gives his secret votes (at least to it).
        let expected = || voters.iter().filter(|&v| matches!(d.votes[v], Some(Vote::For(_))));
        ensure!(
            expected().all(gave),
            "E16/E19: secret votes {:?}, expected from {:?}",
            d.secret,
            expected().collect::<Vec<Seat>>()
        );
        Ok(())
    }

    fn event(&mut self, idx: usize, e: Event, last: bool, out: &Outcome, seen: &mut Seen) -> Result<(), String> {
        let game = self.game;
        let rules = *game.rules();
        let extended = game.is_extended();
        // The dead never act; nor does anybody dead at dusk act at night.
        let actor = match e {
            Event::Vote { seat, .. }
            | Event::Post { seat, .. }
            | Event::RunoffVote { seat, .. }
            | Event::HangChoice { seat, .. }
            | Event::NightKillNick { seat, .. }
            | Event::NightAct { seat, .. }
            | Event::Borrowed { seat, .. }
            | Event::SearchNick { seat, .. }
            | Event::Defence { seat, .. }
            | Event::Absent { seat }
            | Event::Modkill { seat }
            | Event::Succeeded { seat, .. }
            | Event::Failed { seat, .. }
            | Event::BossCheck { seat, .. }
            | Event::CampCheck { seat, .. }
            | Event::RoleCheck { seat, .. }
            | Event::Learned { seat, .. }
            | Event::SecretVotes { seat, .. }
            | Event::VoteRemoved { seat }
            | Event::Promoted { seat, .. }
            | Event::CycleBroken { seat } => Some(seat),
            Event::NightKill { by: Killer::Shooter(s) | Killer::Camp { decider: s, .. }, .. }
            | Event::KillFailed { by: Killer::Shooter(s) | Killer::Camp { decider: s, .. }, .. } => Some(s),
            Event::BanditsMeet { a, .. } => Some(a),
            _ => None,
        };
        if let Some(s) = actor {
            ensure!(s.index() < self.n, "seat {s:?} does not exist");
            ensure!(!self.dead.contains(s), "seat {s:?} acted after its death");
            ensure!(self.alive.contains(s), "seat {s:?} is not a living player");
        }
        // C19: the end is checked after every elimination (one batch of deaths).
        if self.batch_open && !matches!(e, Event::Died { .. }) {
            self.batch_open = false;
            self.must_end = end_state(self.roles, self.alive, game.mafia_win()).is_some();
        }
        if self.must_end {
            ensure!(
                matches!(e, Event::LastWord { .. } | Event::GameEnd { .. }),
                "C19: the game went on after an end held"
            );
        }
        // The night's resolution is over at its first death, count or end.
        if let Cur::Night(_) = self.cur {
            let after = matches!(
                e,
                Event::Died { .. }
                    | Event::LastWord { .. }
                    | Event::NoKillCount { .. }
                    | Event::GameEnd { .. }
                    | Event::DayStart { .. }
            );
            if after && !self.night.resolved {
                self.close_night(seen)?;
            }
            if !after && self.night.resolved {
                return Err("a night event after the night's resolution".into());
            }
        }
        match e {
            Event::Deal { .. } => return Err("a deal after the start".into()),
            Event::DayStart { day, alive } => {
                ensure!(self.owe_last_word.is_empty(), "C13: {:?} got no last word", self.owe_last_word);
                let expect = match self.cur {
                    Cur::Start => 1,
                    Cur::Night(d) => {
                        self.finish_night(false, seen)?;
                        d + 1
                    }
                    Cur::Day(d) => return Err(format!("day {day} right after day {d}")),
                };
                ensure!(day == expect, "C3: expected day {expect}");
                ensure!(day <= rules.day_cap, "C3: day past the cap {}", rules.day_cap);
                ensure!(alive == self.alive, "alive set differs from the deaths logged: {:?}", self.alive);
                if let Some(limit) = game.no_kill_limit() {
                    ensure!(self.nights_without_kill < limit, "C8: {} nights without a kill", self.nights_without_kill);
                }
                self.cur = Cur::Day(day);
                self.day.reset(self.alive);
            }
            Event::NightStart { night, alive } => {
                ensure!(self.owe_last_word.is_empty(), "C13: {:?} got no last word", self.owe_last_word);
                ensure!(self.cur == Cur::Day(night), "night {night} after {:?}", self.cur);
                ensure!(alive == self.alive, "alive set differs from the deaths logged: {:?}", self.alive);
                let d = &self.day;
                ensure!(d.lynch.is_some(), "a day ended without a lynch result");
                if d.modkilled.is_empty() {
                    let decided = d.to_hang.ok_or("the day's lynch was never decided")?;
                    ensure!(d.lynched == decided, "lynched {:?} but the vote hanged {decided:?}", d.lynched);
                    let due = self.due_mines();
                    let d = &self.day;
                    ensure!(d.exploded == due, "E25: mines exploded {:?}, expected {due:?}", d.exploded);
                    seen.mines_withheld += u64::from(d.explode.minus(due).len());
                }
                self.cur = Cur::Night(night);
                self.night.reset(self.alive);
            }
            Event::Absent { seat } => {
                let present = match self.cur {
                    Cur::Day(_) => {
                        ensure!(self.day.votes.iter().all(Option::is_none), "C16: absence drawn after votes");
                        &mut self.day.present
                    }
                    Cur::Night(_) => {
                        ensure!(
                            self.night.acted().is_empty() && self.night.nicks.iter().all(Option::is_none),
                            "C16: absence drawn after moves"
                        );
                        &mut self.night.present
                    }
                    Cur::Start => return Err("an absence before day 1".into()),
                };
                ensure!(present.contains(seat), "absent twice in a phase");
                present.remove(seat);
            }
            Event::Modkill { seat } => {
                ensure!(matches!(self.cur, Cur::Day(_)), "C15: a modkill outside a day");
                ensure!(self.day.votes.iter().all(Option::is_none), "C15: a modkill after votes");
                self.day.modkilled.insert(seat);
            }
            Event::Post { seat, .. } => {
                ensure!(matches!(self.cur, Cur::Day(_)), "a post outside a day");
                ensure!(self.day.present.contains(seat), "C16: an absent player posted");
            }
            // C12.8: the runoff (its defences too) is outside the activity model.
            Event::Defence { seat, .. } => {
                ensure!(matches!(self.cur, Cur::Day(_)), "a defence outside a day");
                ensure!(self.alive.contains(seat), "C12.2: a defence from the dead");
            }
            Event::Vote { seat, vote, change } => {
                let d = &mut self.day;
                ensure!(matches!(self.cur, Cur::Day(_)), "a vote outside a day");
                ensure!(d.present.contains(seat), "C16: an absent player voted");
                ensure!(d.modkilled.is_empty(), "C15: a vote on a modkill day");
                ensure!(d.lynch.is_none(), "a vote after the lynch result");
                if let Vote::For(t) = vote {
                    ensure!(t != seat && self.alive.contains(t), "C10: a vote for {t:?}");
                }
                let prev = d.votes[seat];
                if change {
                    ensure!(prev.is_some() && !d.changed.contains(seat), "C10: a vote change out of order");
                    d.changed.insert(seat);
                } else {
                    ensure!(prev.is_none(), "C10: two first votes in one day");
                }
                d.votes[seat] = Some(vote);
            }
            Event::VoteRemoved { seat } => {
                ensure!(extended && matches!(self.cur, Cur::Day(_)), "E28: a vote removed outside an extended day");
                ensure!(self.tricks.contains(seat), "E28: seat {seat:?}'s vote removed without a pick last night");
                ensure!(self.day.lynch.is_none(), "E28: a vote removed after the count");
                ensure!(!self.day.removed.contains(seat), "E28: a vote removed twice");
                self.day.removed.insert(seat);
                seen.votes_removed += 1;
            }
            Event::SecretVotes { seat, target, votes } => {
                ensure!(extended && matches!(self.cur, Cur::Day(_)), "E16: secret votes outside an extended day");
                // E16: the Chosen; E19: a Role Prostitute who borrowed him last night.
                let borrowed = self.secret_next.contains(seat);
                ensure!(
                    self.roles[seat] == Role::Chosen || borrowed,
                    "E16/E19: secret votes from the {}",
                    self.roles[seat]
                );
                ensure!(self.day.lynch.is_none(), "E16: secret votes after the count");
                ensure!(self.day.secret.iter().all(|x| x.0 != seat), "E16: secret votes given twice");
                self.day.secret.push((seat, target, votes));
                seen.secret_votes += 1;
                if borrowed {
                    seen.borrowed_secret_votes += 1;
                }
            }
            Event::Illegal { .. } => self.illegal += 1,
            Event::Lynch(r) => {
                let Cur::Day(day) = self.cur else { return Err("a lynch outside a day".into()) };
                ensure!(self.day.lynch.is_none(), "two lynch results in one day");
                let expected = if self.day.modkilled.is_empty() {
                    if extended {
                        self.check_marks(seen)?;
                    }
                    self.expected_lynch(day)?
                } else {
                    LynchResult::NoVoteModkillDay
                };
                ensure!(r == expected, "C11/E16/E28: the count {:?} gives {expected:?}", &self.day.tally[..self.n]);
                let d = &mut self.day;
                d.lynch = Some(r);
                match r {
                    LynchResult::Lynched(s) => d.to_hang = Some(PlayerSet::single(s)),
                    LynchResult::Tie(l) => d.tie = l,
                    LynchResult::Pardoned(_) | LynchResult::AllPass | LynchResult::NoVoteModkillDay => {
                        d.to_hang = Some(PlayerSet::EMPTY)
                    }
                }
            }
            Event::RandomTieBreak { leaders, hanged } => {
                let d = &mut self.day;
                ensure!(rules.tie_break == TieBreak::Random, "C12: a random tie-break under catastrophe");
                ensure!(leaders == d.tie && d.tie.contains(hanged) && d.to_hang.is_none(), "C12: not the tie");
                d.to_hang = Some(PlayerSet::single(hanged));
            }
            Event::NoRunoffAtFour => {
                let d = &mut self.day;
                ensure!(self.alive.len() == 4 && !d.tie.is_empty() && d.to_hang.is_none(), "C12.1");
                d.to_hang = Some(PlayerSet::EMPTY);
            }
            Event::Revote { candidates, .. } => {
                let d = &mut self.day;
                ensure!(!d.tie.is_empty() && d.to_hang.is_none(), "C12: a revote without a tie");
                ensure!(candidates.minus(d.tie).is_empty(), "C12.4/5: candidates outside the tie");
                if d.runoff_open {
                    let leaders = leaders_of(&d.round, d.candidates);
                    ensure!(
                        candidates == leaders,
                        "C12.4/5: a revote among {candidates:?}, the leaders are {leaders:?}"
                    );
                }
                d.candidates = candidates;
                d.round = [0; 64];
                d.runoff_open = true;
            }
            Event::RunoffVote { seat, choice } => {
                // E28 with `runoff_marks = marked`: the Trickster's pick votes, not counted;
                // each counted vote raises the candidate's count for the mines (E25).
                if self.runoff_marked && self.tricks.contains(seat) {
                    seen.runoff_votes_removed += 1;
                } else {
                    let d = &mut self.day;
                    d.round[choice] += 1;
                    if self.runoff_marked && d.round[choice] > d.tally[choice] {
                        d.tally[choice] = d.round[choice];
                        if d.tally[choice] >= 3 && self.mines.contains(choice) && !d.explode.contains(choice) {
                            d.explode.insert(choice);
                            seen.runoff_mines += 1;
                        }
                    }
                }
                let d = &self.day;
                let voters = self.runoff_voters();
                ensure!(voters.contains(seat), "C12.2: seat {seat:?} voted in the runoff; the voters are {voters:?}");
                // C12 (`runoff_all_tied = revote`): a tied voter never votes for himself.
                ensure!(choice != seat, "C12: runoff voter {seat:?} voted for himself");
                ensure!(d.candidates.contains(choice), "C12.4: a runoff vote for a non-candidate");
                if d.tie.contains(seat) {
                    seen.all_tied_votes += 1;
                }
            }
            Event::HangBothVote { pair } => {
                let d = &mut self.day;
                ensure!(pair.len() == 2 && pair.minus(d.tie).is_empty(), "C12.3: not a pair of the tie");
                if d.runoff_open {
                    let leaders = leaders_of(&d.round, d.candidates);
                    ensure!(pair == leaders, "C12.4: a hang-both vote on {pair:?}, the leaders are {leaders:?}");
                    d.runoff_open = false;
                }
                d.pair = pair;
            }
            Event::HangChoice { seat, hang } => {
                if self.runoff_marked && self.tricks.contains(seat) {
                    seen.runoff_votes_removed += 1;
                } else if hang {
                    self.day.hang += 1;
                } else {
                    self.day.pardon += 1;
                }
                let voters = self.runoff_voters();
                ensure!(voters.contains(seat), "C12.2: seat {seat:?} voted to hang; the voters are {voters:?}");
                if self.day.tie.contains(seat) {
                    seen.all_tied_votes += 1;
                }
            }
            Event::RunoffResult { hanged } => {
                let d = &mut self.day;
                ensure!(d.to_hang.is_none() && !d.tie.is_empty(), "a runoff result without an open tie");
                ensure!(hanged.minus(d.tie).is_empty() && hanged.len() <= 2, "C12.6: hanged {hanged:?}");
                // C12.3/C12.4: the result the counted votes give.
                let expected = if !d.pair.is_empty() {
                    if d.hang > d.pardon { d.pair } else { PlayerSet::EMPTY }
                } else if d.runoff_open {
                    leaders_of(&d.round, d.candidates)
                } else {
                    hanged
                };
                ensure!(hanged == expected, "C12: the runoff hanged {hanged:?}, its counted votes give {expected:?}");
                d.to_hang = Some(hanged);
            }
            Event::RunoffExhausted => {
                let d = &mut self.day;
                ensure!(d.to_hang.is_none() && !d.tie.is_empty(), "C12: exhausted without a tie");
                ensure!(
                    !d.runoff_open || leaders_of(&d.round, d.candidates).len() > 1,
                    "C12.5: exhausted, but the last revote had one leader"
                );
                d.to_hang = Some(PlayerSet::EMPTY);
            }
            Event::MineExplodes { seat, votes } => {
                ensure!(extended && matches!(self.cur, Cur::Day(_)), "E25: a mine outside an extended day");
                let d = &mut self.day;
                ensure!(self.mines.contains(seat), "E25: seat {seat:?} was not mined last night");
                ensure!(votes >= 3 && votes as u32 == d.tally[seat], "E25: {votes} votes counted");
                ensure!(d.explode.contains(seat) && !d.exploded.contains(seat), "E25: not due");
                ensure!(self.due_mines().contains(seat), "C12.6/E25: a mine on a third under lynch_limit = day");
                self.day.exploded.insert(seat);
                seen.mines_exploded += 1;
            }
            // ---- The night. ----
            Event::Promoted { seat, role } => {
                ensure!(extended && matches!(self.cur, Cur::Night(_)), "a promotion outside an extended night");
                ensure!(self.night.acted().is_empty(), "E30.1: a promotion after the moves");
                match (self.roles[seat], self.acting[seat]) {
                    // E12: the Boss's choice (the Actor's own once the Boss is dead) among the vacancies.
                    (Role::Actor, Role::Actor) => {
                        let vacant = self.actor_vacancies();
                        ensure!(vacant.contains(role), "E12: appointed to {role}, not a vacancy of {vacant:?}");
                    }
                    (Role::Deputy, Role::Deputy) => {
                        let expected = self.deputy_role();
                        ensure!(Some(role) == expected, "E14: promoted to {role}, expected {expected:?}");
                    }
                    (r, a) => return Err(format!("E12/E14: the {r} (acting {a}) promoted")),
                }
                self.acting[seat] = role;
                self.night.promoted.insert(seat);
                seen.promotions += 1;
            }
            Event::Introduced { a, b } => {
                ensure!(self.roles[a] == Role::Deputy && self.night.promoted.contains(a), "E14: not the Deputy");
                let other = if self.acting[a] == Role::Detective { Role::Doctor } else { Role::Detective };
                ensure!(self.seat_of(other) == Some(b) && self.alive.contains(b), "E14: introduced to {b:?}");
            }
            Event::HexHolds { seat } => {
                ensure!(extended && matches!(self.cur, Cur::Night(_)), "E18: a hex outside an extended night");
                ensure!(self.hex_next.contains(seat), "E18: seat {seat:?} hexed without a hex last night");
                ensure!(!self.night.hexed.contains(seat), "E18: hexed twice");
                self.night.hexed.insert(seat);
                self.night.status_from[seat] |= BY_HEX;
                seen.hexes_held += 1;
            }
            Event::NightKillNick { seat, target } => {
                let shooters = self.night_shooters();
                let nt = &mut self.night;
                ensure!(matches!(self.cur, Cur::Night(_)), "a nick outside a night");
                ensure!(nt.present.contains(seat), "C16: an absent player sent a nick");
                ensure!(
                    shooters.contains(seat),
                    "C4/E12: a nick from the {} (acting {})",
                    self.roles[seat],
                    self.acting[seat]
                );
                if self.roles[seat] == Role::Actor {
                    seen.actor_nicks += 1;
                }
                ensure!(self.alive.contains(target), "C4: a nick for a player not alive");
                ensure!(nt.nicks[seat].is_none() && nt.steps == 0, "a nick out of order");
                nt.nicks[seat] = Some(target);
            }
            Event::SearchNick { seat, target } => {
                let nt = &mut self.night;
                ensure!(nt.present.contains(seat), "C16: an absent bandit searched");
                ensure!(self.roles[seat].camp() == Camp::Bandits, "E3: a search from a non-bandit");
                ensure!(target != seat && self.alive.contains(target), "E3: a search for {target:?}");
                ensure!(nt.searches[seat].is_none() && nt.steps == 0, "E3: a search out of order");
                nt.searches[seat] = Some(target);
            }
            Event::Borrowed { seat, role } => {
                let Cur::Night(night) = self.cur else { return Err("a borrow outside a night".into()) };
                ensure!(self.acting[seat] == Role::Prostitute, "E19: a borrow by the {}", self.acting[seat]);
                ensure!(night >= 2, "E19: a borrow on night {night}");
                ensure!(!self.borrowed.contains(role), "E19: the {role} borrowed twice");
                // A town role with a move to make (the Chosen's secret votes
                // count as one, E16), never the Lucky or the Deputy.
                ensure!(
                    role.camp() == Camp::Town
                        && !matches!(role, Role::Lucky | Role::Deputy | Role::Prostitute)
                        && (role.info().night != NightAbility::None || role == Role::Chosen),
                    "E19: the {role} cannot be borrowed"
                );
                let dead_holder = self.dead.iter().any(|d| self.camp(d) == Camp::Town && self.acting[d] == role);
                ensure!(dead_holder, "E19: no dead town player was the {role}");
                ensure!(self.night.pending_borrow.is_none(), "E19: two borrows");
                self.borrowed.insert(role);
                self.night.pending_borrow = Some((seat, role));
                seen.borrows += 1;
            }
            Event::Proxy { boss, member } => {
                // E7: the Boss sends a move for a living member who sent none, or
                // who left his move to the Boss (`defer`, which the log shows only
                // by this second move: it replaces the member's own).
                ensure!(matches!(self.cur, Cur::Night(_)), "E7: a proxy outside a night");
                ensure!(self.roles[boss] == Role::Boss, "E7: a proxy from a non-Boss");
                ensure!(self.night.present.contains(boss), "E7: an absent Boss sent a proxy");
                ensure!(
                    member != boss && self.camp(member) == Camp::Mafia && self.alive.contains(member),
                    "E7: a proxy for {member:?}, not a living fellow mafioso"
                );
                ensure!(!self.night.proxies.contains(member), "E7: two proxies for one member");
                ensure!(self.night.pending_proxy.is_none(), "E7: two proxies in a row");
                self.night.pending_proxy = Some(member);
                self.night.proxies.insert(member);
                seen.proxies += 1;
            }
            Event::NightAct { seat, ability, target, second } => {
                ensure!(matches!(self.cur, Cur::Night(_)), "a night act outside a night");
                let nt = &mut self.night;
                let proxied = nt.pending_proxy.take() == Some(seat);
                ensure!(proxied || nt.present.contains(seat), "C16: an absent player acted");
                // E7: the Boss's proxy replaces a deferred member's own move.
                ensure!((nt.acts[seat].is_none() || proxied) && nt.steps == 0, "two night acts or one out of order");
                let own = match nt.pending_borrow.take() {
                    Some((s, r)) => {
                        ensure!(s == seat, "E19: a borrow by {s:?} followed by a move of {seat:?}");
                        // E19/E16: the borrowed Chosen's move is his secret votes.
                        if r == Role::Chosen { NightAbility::Votes } else { r.info().night }
                    }
                    None => self.acting[seat].info().night,
                };
                ensure!(
                    ability == own && !matches!(own, NightAbility::None | NightAbility::Borrow),
                    "a {ability:?} move from a seat whose move is {own:?}"
                );
                let arity = match ability {
                    NightAbility::Scout | NightAbility::Votes => 0,
                    NightAbility::Swindle | NightAbility::Compare => 2,
                    _ => 1,
                };
                ensure!(
                    target.is_some() == (arity >= 1) && second.is_some() == (arity == 2),
                    "a {ability:?} move with targets {target:?} {second:?}"
                );
                if let Some(t) = target {
                    ensure!(self.alive.contains(t), "a move at {t:?}, who is not alive");
                    ensure!(t != seat || may_name_self(ability), "a {ability:?} move at its own maker");
                    match ability {
                        NightAbility::Guard => {
                            ensure!(self.roles[t].camp() == Camp::Mafia, "E10: the Guard guards {t:?}")
                        }
                        NightAbility::Heal | NightAbility::Beat => ensure!(
                            self.prev_heal_beat[seat] != Some(t),
                            "E15/E26: {ability:?} at {t:?} two nights running"
                        ),
                        NightAbility::Swindle => {
                            ensure!(!self.swindled.contains(t), "E11: seat {t:?} swindled before")
                        }
                        _ => {}
                    }
                }
                if let (Some(t), Some(u)) = (target, second) {
                    ensure!(self.alive.contains(u) && u != t, "E11/E17: second target {u:?}");
                    ensure!(ability != NightAbility::Compare || u != seat, "E17: the Journalist compares himself");
                }
                nt.acts[seat] = Some(Act { ability, target, second });
            }
            Event::Step(step) => {
                ensure!(extended, "E30: a step marker in a classic game");
                let nt = &mut self.night;
                ensure!(nt.pending_borrow.is_none(), "E19: a borrow without a move");
                ensure!(
                    nt.steps < 7 && game.night_order()[nt.steps] == step,
                    "E30: step {step:?} out of the night order {:?}",
                    game.night_order()
                );
                nt.steps += 1;
            }
            Event::CycleBroken { seat } => {
                ensure!(rules.resolution == Resolution::Graph, "E29: a cycle broken in sequential resolution");
                let act = self.night.acts[seat].ok_or("E29: a cycle broken at a seat without a move")?;
                ensure!(control_rank(act.ability).is_some(), "E29: a cycle broken at a {:?} move", act.ability);
                self.night.cycle_broken.insert(seat);
                seen.cycles_broken += 1;
            }
            Event::Failed { seat, ability, reason } => {
                let act = self.ability_is(seat, ability, "a failure")?;
                self.judge_once(seat, "a failure")?;
                let psycho = self.seat_of(Role::Psycho);
                let nt = &mut self.night;
                nt.failed.insert(seat);
                nt.reasons[seat] = Some(reason);
                let control = control_rank(ability).is_some();
                ensure!(ability != NightAbility::Trick, "E28: the Trickster's pick failed");
                if ability == NightAbility::Swindle && matches!(reason, Fail::Blocked { .. } | Fail::Overruled) {
                    nt.swindle_blocked.insert(seat);
                }
                match reason {
                    Fail::Blocked { status: Status::Hexed, by: None } => {
                        ensure!(nt.hexed.contains(seat), "E18: blocked by a hex that does not hold")
                    }
                    Fail::Blocked { status, by: Some(b) } => {
                        if control {
                            let by = nt.acts[b].ok_or("E29: blocked by a seat without a move")?;
                            ensure!(status_of(by.ability) == Some(status), "E29: {status:?} by a {:?}", by.ability);
                            // E9 (`thief_at_psycho = house`): a robbery of the Psycho blocks nobody.
                            ensure!(
                                !(self.thief_at_house && by.ability == NightAbility::Rob && by.target == psycho),
                                "E9: blocked by a robbery of the Psycho under thief_at_psycho = house"
                            );
                            if rules.resolution == Resolution::Sequential {
                                ensure!(
                                    control_rank(by.ability) < control_rank(ability),
                                    "E29: in sequence, a later move blocked an earlier one"
                                );
                            }
                        } else {
                            let has = match status {
                                Status::Robbed => nt.robbed.contains(seat),
                                Status::Beaten => nt.beaten.contains(seat),
                                Status::Invited => nt.invited.contains(seat),
                                Status::Hexed => false,
                            };
                            ensure!(has, "E6: blocked as {status:?}, a status seat {seat:?} does not hold tonight");
                        }
                        seen.blocked += 1;
                    }
                    Fail::Blocked { .. } => return Err("a block without its maker".into()),
                    Fail::TargetBeaten if ability == NightAbility::Swindle => {
                        // E6 on the victim, or E22 with E29's priority (the Thug
                        // before the Swindler): checked when the night closes,
                        // once the robberies and invitations are known.
                        seen.target_beaten += 1;
                    }
                    Fail::TargetBeaten => {
                        let mut reached = [act.target, nt.redirect.filter(|r| r.0 == seat).map(|r| r.1), act.second];
                        if !control {
                            reached[0] = self.reach(seat);
                        }
                        let nt = &self.night;
                        ensure!(
                            reached.into_iter().flatten().any(|t| nt.beaten.contains(t)),
                            "E6: failed on a beaten target, but {reached:?} are not beaten"
                        );
                        seen.target_beaten += 1;
                    }
                    Fail::TargetInvited => {
                        let t = self.reach(seat);
                        ensure!(
                            matches!(ability, NightAbility::Guard | NightAbility::Heal)
                                && t.is_some_and(|t| self.night.invited.contains(t)),
                            "E10/E23: {ability:?} failed on an invited target {t:?}"
                        );
                    }
                    Fail::Overruled => {
                        // E29: a cycle through the redirect was broken at its victim, who ranks higher.
                        let victim = act.target.ok_or("E29: an overruled swindle without a victim")?;
                        ensure!(
                            ability == NightAbility::Swindle
                                && rules.resolution == Resolution::Graph
                                && self.night.cycle_broken.contains(victim),
                            "E29: a swindle overruled, but no cycle was broken at its victim {victim:?}"
                        );
                        seen.overruled += 1;
                    }
                    Fail::NothingToRedirect => {
                        // E11: the victim made no move with a target tonight.
                        let victim = act.target.ok_or("E11: a swindle without a victim")?;
                        let moved = self.night.acts[victim]
                            .is_some_and(|m| m.ability.info().targets != mafia_engine::Targets::Zero);
                        ensure!(
                            ability == NightAbility::Swindle && !moved,
                            "E11: nothing to redirect, but {victim:?} made a move with a target"
                        );
                    }
                    Fail::Unredirectable => {
                        // E28: the Trickster's pick cannot be redirected.
                        let victim = act.target.ok_or("E28: a swindle without a victim")?;
                        ensure!(
                            ability == NightAbility::Swindle
                                && self.night.acts[victim].is_some_and(|m| m.ability == NightAbility::Trick),
                            "E28: unredirectable, but {victim:?} made no Trickster's pick"
                        );
                        seen.unredirectable += 1;
                    }
                    Fail::TargetPsycho => {
                        // E9 (`thief_at_psycho = house`): robbing the Psycho fails.
                        ensure!(
                            ability == NightAbility::Rob
                                && self.thief_at_house
                                && act.target.is_some()
                                && act.target == psycho,
                            "E9: failed on the Psycho, but the robbery aimed at {:?} (thief_at_psycho = house: {})",
                            act.target,
                            self.thief_at_house
                        );
                        seen.robbed_psycho_house += 1;
                    }
                    Fail::TargetMafia => {
                        ensure!(
                            ability == NightAbility::Swindle && act.target.is_some_and(|t| self.camp(t) == Camp::Mafia),
                            "E11: failed on a mafioso"
                        );
                    }
                    other => return Err(format!("{other:?} is not a move's failure")),
                }
                if !control && !matches!(reason, Fail::Blocked { .. }) {
                    let nt = &self.night;
                    ensure!(nt.status_from[seat] == 0, "E6: a blocked maker failed for another reason");
                }
            }
            Event::Succeeded { seat, ability, target } => {
                self.ability_is(seat, ability, "a success")?;
                self.judge_once(seat, "a success")?;
                self.night.succeeded[seat] = Some((ability, target));
                self.record_success(idx, seat, ability, target, None);
                match ability {
                    NightAbility::Hex => {
                        let t = target.ok_or("E18: a hex without a target")?;
                        ensure!(!self.night.healed.contains(t), "E18: a hex on {t:?}, healed tonight, was not lifted");
                        self.night.hex_cast.insert(t);
                    }
                    NightAbility::Mine => self.night.mined.insert(target.ok_or("E25: a mine without a target")?),
                    NightAbility::Trick => self.night.tricked.insert(target.ok_or("E28: a pick without a target")?),
                    NightAbility::Votes => {
                        ensure!(target.is_none(), "E19/E16: secret votes with a target at night");
                        self.night.secret_voters.insert(seat);
                    }
                    NightAbility::Rob => {
                        // E9 (`thief_at_psycho = house`): robbing the Psycho fails.
                        let psycho = self.seat_of(Role::Psycho);
                        ensure!(
                            !(self.thief_at_house && target.is_some() && target == psycho),
                            "E9: the Psycho robbed under thief_at_psycho = house"
                        );
                    }
                    _ => {}
                }
                // E22: a successful move on a house is a visit there (never the Thief's).
                if let (Some(t), false) = (target, ability == NightAbility::Rob) {
                    self.visit(seat, t);
                }
            }
            Event::StatusSet { seat, status, by } => {
                let nt = &mut self.night;
                ensure!(matches!(self.cur, Cur::Night(_)) && nt.steps > 0, "a status outside the resolution");
                match status {
                    Status::Robbed => {
                        nt.robbed.insert(seat);
                        nt.status_from[seat] |= BY_ROB;
                        nt.last_robbed = Some(seat);
                    }
                    Status::Beaten => {
                        nt.beaten.insert(seat);
                        // E26: the Thug may beat himself; his own beating does not stop it.
                        nt.status_from[seat] |= if by == seat { BY_SELF } else { BY_BEAT };
                    }
                    Status::Invited => {
                        ensure!(nt.guest_tonight.is_none(), "E23: two guests in one night");
                        nt.invited.insert(seat);
                        nt.status_from[seat] |= BY_INVITE;
                        nt.guest_tonight = Some(seat);
                    }
                    Status::Hexed => return Err("E18: a hex is not set as a status of tonight".into()),
                }
                nt.status_sets.push((seat, status, by));
            }
            Event::BeatenWatching { seat } => {
                let act = self.ability_is(seat, NightAbility::Watch, "E22: beaten watching")?;
                let watched = self.night.redirect.filter(|r| r.0 == seat).map(|r| r.1).or(act.target);
                let nt = &mut self.night;
                // The house he walks round must be one the Thug came to (not one
                // beaten only "too"); whether he walks is checked at the close.
                let thug_came = |w: Seat| nt.status_sets.iter().any(|&(x, st, _)| x == w && st == Status::Beaten);
                ensure!(
                    watched.is_some_and(thug_came),
                    "E22: the Sleepwalker beaten, but the Thug did not beat {watched:?}"
                );
                ensure!(!nt.beaten_watching.contains(seat), "E22: beaten too twice");
                nt.beaten.insert(seat);
                nt.beaten_watching.insert(seat);
                nt.status_from[seat] |= BY_WATCHING;
                seen.beaten_watching += 1;
            }
            Event::Redirected { by, victim, from, to } => {
                let act = self.ability_is(by, NightAbility::Swindle, "E11: a redirect")?;
                let nt = &self.night;
                ensure!(act.target == Some(victim) && act.second == Some(to), "E11: not the Swindler's move");
                ensure!(nt.succeeded[by] == Some((NightAbility::Swindle, Some(victim))), "E11: unsuccessful");
                ensure!(nt.redirect.is_none(), "E11: two redirects in one night");
                ensure!(self.camp(victim) != Camp::Mafia, "E11: a mafioso swindled");
                ensure!(!self.swindled.contains(victim), "E11: seat {victim:?} swindled twice");
                let submitted = nt.acts[victim].and_then(|a| a.target);
                ensure!(from == submitted, "E11: the victim's move went to {submitted:?}, not {from:?}");
                // E28: the Trickster's pick cannot be redirected.
                ensure!(
                    nt.acts[victim].is_none_or(|a| a.ability != NightAbility::Trick),
                    "E28: the Trickster's pick redirected"
                );
                self.swindled.insert(victim);
                self.night.redirect = Some((victim, to));
                seen.redirects += 1;
            }
            Event::Guarded { seat, by } => {
                let nt = &mut self.night;
                ensure!(nt.succeeded[by] == Some((NightAbility::Guard, Some(seat))), "E10: not a guard");
                nt.guarded.insert(seat);
            }
            Event::Healed { seat, by } => {
                let nt = &mut self.night;
                ensure!(nt.succeeded[by] == Some((NightAbility::Heal, Some(seat))), "E15: not a heal");
                nt.healed.insert(seat);
                nt.last_healed = Some(seat);
            }
            Event::BossCheck { seat, target, plain, camp } => {
                self.ability_is(seat, NightAbility::BossCheck, "E7")?;
                self.judge_once(seat, "E7")?;
                let info = self.roles[target].info();
                ensure!(plain == info.plain && camp == info.camp, "E7: the wrong answer about {target:?}");
                self.record_success(idx, seat, NightAbility::BossCheck, Some(target), None);
                self.visit(seat, target);
            }
            Event::CampCheck { seat, target, camp } => {
                self.ability_is(seat, NightAbility::CheckCamp, "C6/E13")?;
                self.judge_once(seat, "C6/E13")?;
                ensure!(camp == self.camp(target), "C6/E13: the wrong camp for {target:?}");
                self.night.last_camp_check = Some(target);
                self.record_success(idx, seat, NightAbility::CheckCamp, Some(target), None);
                self.visit(seat, target);
            }
            Event::RoleCheck { seat, target, role, yes } => {
                self.ability_is(seat, NightAbility::CheckIsRole(role), "C5")?;
                self.judge_once(seat, "C5")?;
                ensure!(yes == (self.roles[target] == role), "C5: the wrong answer about {target:?}");
                self.record_success(idx, seat, NightAbility::CheckIsRole(role), Some(target), None);
                self.visit(seat, target);
            }
            Event::Learned { seat, report } => {
                match report {
                    Report::Compare { a, b, same } => {
                        self.ability_is(seat, NightAbility::Compare, "E17")?;
                        ensure!(same == (self.camp(a) == self.camp(b)), "E17: the wrong comparison");
                        self.record_success(idx, seat, NightAbility::Compare, Some(a), Some(b));
                        self.visit(seat, a);
                        self.visit(seat, b);
                    }
                    Report::Watch { target, camps } => {
                        self.ability_is(seat, NightAbility::Watch, "E22")?;
                        self.record_success(idx, seat, NightAbility::Watch, Some(target), None);
                        // E22: the camp of each player whose move on the house he
                        // watches (`target`, after any redirect: checked with the
                        // success) succeeded so far tonight, counted per camp; the
                        // camp kill is one visitor of its decider's camp, the Thief
                        // never one. Compared when the night closes, after the
                        // moves' own checks.
                        let seen_camps = self.night.visits[target.index()];
                        self.night.reports.push((idx, target, camps, seen_camps));
                        seen.watch_reports += 1;
                    }
                    Report::Scout { checked, robbed, healed } => {
                        self.ability_is(seat, NightAbility::Scout, "E27")?;
                        let nt = &self.night;
                        ensure!(
                            (checked, robbed, healed) == (nt.last_camp_check, nt.last_robbed, nt.last_healed),
                            "E27: the Scout learned {:?}",
                            report
                        );
                        self.record_success(idx, seat, NightAbility::Scout, None, None);
                    }
                }
                self.judge_once(seat, "a report")?;
            }
            Event::HexLifted { seat } => {
                ensure!(self.night.healed.contains(seat), "E18: a hex lifted from {seat:?}, who was not healed");
                let witch = Seat::all(self.n)
                    .find(|&w| {
                        let a = self.night.acts[w];
                        a.is_some_and(|a| a.ability == NightAbility::Hex)
                            && !self.night.judged.contains(w)
                            && self.reach(w) == Some(seat)
                    })
                    .ok_or("E18: a hex lifted that nobody cast")?;
                self.judge_once(witch, "E18")?;
                seen.hexes_lifted += 1;
            }
            Event::NightKill { target, by } => {
                ensure!(matches!(self.cur, Cur::Night(_)), "a kill outside a night");
                ensure!(self.alive.contains(target), "a kill of {target:?}, who is not alive");
                match by {
                    Killer::Camp { camp, decider } => {
                        ensure!(camp == Camp::Mafia, "C4: a kill of the {camp} camp");
                        ensure!(!self.night.camp_result && !self.night.missed, "C4: two camp kills");
                        let decided = self.camp_decision();
                        ensure!(decided == Some((target, decider)), "C4/E8: the nicks decide {decided:?}");
                        let stop = self.night.kill_stopped(target);
                        ensure!(stop.is_none(), "E8: a camp kill reached {target:?} through {stop:?}");
                        self.night.camp_result = true;
                        // C8: the mafia's kill was tried (and landed).
                        self.night.shot = true;
                        // E22: the camp kill visits as its decider's camp.
                        self.visit(decider, target);
                        if game.leader_kill() {
                            seen.leader_kills += 1;
                        }
                    }
                    Killer::Shooter(s) => {
                        self.ability_is(s, NightAbility::Shoot, "E20")?;
                        ensure!(
                            self.night.succeeded[s] == Some((NightAbility::Shoot, Some(target))),
                            "E20: a shot without its success"
                        );
                        let stop = self.night.kill_stopped(target);
                        ensure!(stop.is_none(), "E20: a shot reached {target:?} through {stop:?}");
                    }
                    Killer::Guest(p) => {
                        ensure!(self.seat_of(Role::Psycho) == Some(p), "E23: a guest of {p:?}, not the Psycho");
                        ensure!(self.guest == Some(target), "E23: {target:?} was not last night's guest");
                        ensure!(!self.night.healed.contains(target), "E23: the guest was healed");
                        self.night.guest_outcomes += 1;
                        self.night.guest_hits.insert(target);
                        seen.guest_deaths += 1;
                    }
                    Killer::Blast(p) => {
                        ensure!(self.seat_of(Role::Psycho) == Some(p), "E24: a blast of {p:?}, not the Psycho");
                        ensure!(self.night.guest_tonight == Some(target), "E24: {target:?} is not tonight's guest");
                        ensure!(self.night.psycho_tried, "E24: a blast without a kill tried at the Psycho");
                        ensure!(!(rules.blast_heal && self.night.healed.contains(target)), "E24: healed");
                        self.night.blasts += 1;
                        self.night.guest_hits.insert(target);
                        seen.blasts += 1;
                    }
                }
                if let Killer::Camp { .. } | Killer::Shooter(_) = by {
                    self.night.psycho_tried |= Some(target) == self.seat_of(Role::Psycho) && extended;
                }
                if !matches!(by, Killer::Camp { .. }) {
                    // C8: the guest, the Shooter and the blast are not the mafia's kill.
                    self.night.other_kill = true;
                }
                self.night.hits.insert(target);
            }
            Event::KillFailed { target, by, reason } => {
                ensure!(matches!(self.cur, Cur::Night(_)), "a kill outside a night");
                match by {
                    Killer::Camp { camp, decider } => {
                        ensure!(camp == Camp::Mafia, "C4: a kill of the {camp} camp");
                        ensure!(!self.night.camp_result && !self.night.missed, "C4: two camp kills");
                        let decided = self.camp_decision();
                        ensure!(decided == Some((target, decider)), "C4/E8: the nicks decide {decided:?}");
                        ensure!(self.night.kill_stopped(target) == Some(reason), "E8: stopped by {reason:?}");
                        self.night.camp_result = true;
                        // C8: the mafia's kill was tried, whether or not it landed.
                        self.night.shot = true;
                    }
                    Killer::Shooter(s) => {
                        self.ability_is(s, NightAbility::Shoot, "E20")?;
                        self.judge_once(s, "E20")?;
                        ensure!(self.reach(s) == Some(target), "E20: the shot went to {target:?}");
                        ensure!(self.night.kill_stopped(target) == Some(reason), "E20: stopped by {reason:?}");
                        ensure!(self.night.status_from[s] == 0, "E20: a blocked Shooter's shot was judged");
                    }
                    Killer::Blast(_) => {
                        ensure!(self.night.guest_tonight == Some(target) && self.night.psycho_tried, "E24");
                        ensure!(
                            rules.blast_heal && reason == Fail::TargetHealed && self.night.healed.contains(target),
                            "E24: the blast stopped by {reason:?}"
                        );
                        self.night.blasts += 1;
                    }
                    Killer::Guest(_) => return Err("E23: the guest's death is saved, not stopped".into()),
                }
                if let Killer::Camp { .. } | Killer::Shooter(_) = by {
                    self.night.psycho_tried |= Some(target) == self.seat_of(Role::Psycho) && extended;
                }
                seen.kills_stopped += 1;
            }
            Event::GuestSaved { seat, by } => {
                ensure!(self.guest == Some(seat), "E23: {seat:?} was not last night's guest");
                ensure!(self.night.healed.contains(seat), "E23: the guest was saved without a heal");
                ensure!(
                    self.night.succeeded[by] == Some((NightAbility::Heal, Some(seat))),
                    "E23: saved by {by:?}, whose heal did not reach the guest"
                );
                self.night.guest_outcomes += 1;
                seen.guests_saved += 1;
            }
            Event::SpareLife { seat } => {
                ensure!(self.roles[seat] == Role::Lucky, "E21: a spare life of the {}", self.roles[seat]);
                ensure!(!self.spare_used.contains(seat), "E21: a second spare life of seat {seat:?}");
                ensure!(self.night.hits.contains(seat), "E21: a spare life spent without a kill");
                self.spare_used.insert(seat);
                self.night.spared.insert(seat);
                seen.spare_lives += 1;
            }
            Event::BanditsMeet { a, b } => {
                let nt = &self.night;
                ensure!(nt.searches[a] == Some(b), "E3: {a:?} did not name {b:?}");
                ensure!(self.camp(a) == Camp::Bandits && self.camp(b) == Camp::Bandits, "E3: not two bandits");
                ensure!(!self.met[a].contains(b), "E3: {a:?} and {b:?} met twice");
                self.met[a].insert(b);
                self.met[b].insert(a);
                seen.bandits_met += 1;
            }
            Event::NightMiss(reason) => {
                ensure!(matches!(self.cur, Cur::Night(_)), "a miss outside a night");
                ensure!(!self.night.camp_result && !self.night.missed, "C4: two kill results");
                ensure!(self.camp_decision().is_none(), "C4/E8: a miss, but the nicks decide a kill");
                let shooters = self.night_shooters();
                let nicks = &self.night.nicks;
                match reason {
                    MissReason::Silent(s) => {
                        ensure!(shooters.contains(s) && nicks[s].is_none(), "C4: not silent")
                    }
                    MissReason::Disagree(a, b) => ensure!(
                        !game.leader_kill() && nicks[a].is_some() && nicks[a] != nicks[b],
                        "C4: not a disagreement"
                    ),
                }
                self.night.missed = true;
            }
            Event::NoKillCount { nights } => {
                ensure!(matches!(self.cur, Cur::Night(_)), "a no-kill count outside a night");
                ensure!(!self.night.shot && !self.night.counted, "C8: counted a night the mafia's kill was tried");
                ensure!(nights == self.nights_without_kill + 1, "C8: {} nights before", self.nights_without_kill);
                self.nights_without_kill = nights;
                self.night.counted = true;
                if self.night.other_kill {
                    seen.counted_other_kills += 1;
                }
            }
            Event::Died { seat, cause, revealed } => {
                ensure!(self.alive.contains(seat), "a death of a player not alive");
                let shown = rules.reveal_roles_on_death && cause != DeathCause::Modkilled;
                ensure!(revealed == shown.then_some(self.roles[seat]), "C9: revealed {revealed:?}");
                let key = match self.cur {
                    Cur::Day(d) => 2 * d as u32,
                    Cur::Night(d) => 2 * d as u32 + 1,
                    Cur::Start => return Err("a death before day 1".into()),
                };
                match cause {
                    DeathCause::Lynched => {
                        let d = &mut self.day;
                        ensure!(matches!(self.cur, Cur::Day(_)), "a lynch death outside a day");
                        let decided = d.to_hang.ok_or("a lynch death before a decision")?;
                        ensure!(decided.contains(seat), "the vote hanged {decided:?}");
                        d.lynched.insert(seat);
                        ensure!(d.lynched.len() <= 2, "C12.6: more than two left by the lynch in one day");
                        if d.lynched.len() == 2 {
                            seen.two_lynched += 1;
                        }
                    }
                    DeathCause::Mined => {
                        let d = &self.day;
                        ensure!(matches!(self.cur, Cur::Day(_)), "E25: a mine death outside a day");
                        ensure!(d.exploded.contains(seat), "E25: a mine death without the explosion");
                        ensure!(!d.to_hang.unwrap_or_default().contains(seat), "E25: hanged and mined");
                    }
                    DeathCause::Killed => {
                        ensure!(matches!(self.cur, Cur::Night(_)), "a kill death outside a night");
                        self.night.died.push(seat);
                    }
                    DeathCause::Modkilled => {
                        ensure!(self.day.modkilled.contains(seat), "C15: a modkill death without a modkill");
                    }
                }
                self.alive.remove(seat);
                self.dead.insert(seat);
                self.death_key[seat] = key;
                self.owe_last_word.insert(seat);
                self.batch_open = true;
            }
            Event::LastWord { seat, .. } => {
                ensure!(self.owe_last_word.contains(seat), "C13: a last word from a player who did not just leave");
                self.owe_last_word.remove(seat);
            }
            Event::GameEnd { winner, cause, day } => {
                ensure!(last, "GameEnd is not the last event");
                ensure!(self.owe_last_word.is_empty(), "C13: {:?} got no last word", self.owe_last_word);
                if let Cur::Night(_) = self.cur {
                    // An elimination end (C19) comes before C8's count.
                    let ended = matches!(
                        cause,
                        EndCause::MafiaEliminated
                            | EndCause::TownEliminated
                            | EndCause::Parity
                            | EndCause::Nobody
                            | EndCause::OnlyBandits
                    );
                    self.finish_night(ended, seen)?;
                }
                let holds = end_state(self.roles, self.alive, game.mafia_win());
                match cause {
                    EndCause::MafiaEliminated
                    | EndCause::TownEliminated
                    | EndCause::Parity
                    | EndCause::Nobody
                    | EndCause::OnlyBandits => {
                        ensure!(
                            holds == Some((winner, cause)),
                            "C17/C18/E2: the living {:?} give {holds:?}",
                            self.alive
                        );
                        ensure!(self.must_end, "C19: an end outside an elimination");
                    }
                    EndCause::NoKillRule => {
                        ensure!(holds.is_none(), "C19: {holds:?} held already");
                        ensure!(winner == Some(Camp::Town), "C8: the town wins");
                        ensure!(
                            game.no_kill_limit() == Some(self.nights_without_kill) && self.night.counted,
                            "C8: {} nights without a kill, limit {:?}",
                            self.nights_without_kill,
                            game.no_kill_limit()
                        );
                    }
                    EndCause::DayCap => {
                        ensure!(holds.is_none(), "C19: {holds:?} held already");
                        ensure!(winner.is_none(), "C3: a capped game is a draw");
                        ensure!(
                            self.cur == Cur::Night(rules.day_cap) && day == rules.day_cap,
                            "C3: the cap is {}",
                            rules.day_cap
                        );
                    }
                }
                let phase_day = match self.cur {
                    Cur::Day(d) | Cur::Night(d) => d,
                    Cur::Start => 0,
                };
                ensure!(day == phase_day && day <= rules.day_cap, "the game ended on day {day} in {:?}", self.cur);
                ensure!(out.winner == winner && out.cause == cause, "outcome {out:?}");
                ensure!(out.days == day, "outcome days {}", out.days);
                ensure!(out.survivors == self.alive, "outcome survivors {:?}", out.survivors);
                seen.ends[cause as usize] += 1;
            }
        }
        Ok(())
    }
}

/// Checks one game's log and outcome. `Err` names the event and the clause.
pub fn check(game: &Game, log: &[Event], out: &Outcome, seen: &mut Seen) -> Result<(), String> {
    check_with(game, log, out, seen, &mut Buffers::default())
}

/// [`check`], with the night's and the day's records kept in `buffers`
/// (reused game after game: what one game leaves there never reaches the
/// next).
pub fn check_with(
    game: &Game,
    log: &[Event],
    out: &Outcome,
    seen: &mut Seen,
    buffers: &mut Buffers,
) -> Result<(), String> {
    let n = game.players();
    seen.games += 1;
    seen.extended_games += game.is_extended() as u64;
    let deal = read_deal(game, log)?;
    let roles = &deal[..n];
    // C4/E8 (E12: not the Actor before his appointment).
    let shooters = Seat::all(n).filter(|&s| roles[s].camp() == Camp::Mafia && roles[s] != Role::Actor).collect();
    let rules = game.rules();
    let setting = |key: &str, values: [&str; 2]| -> Result<bool, String> {
        match rules.get(key) {
            Some(v) if v == values[0] => Ok(true),
            Some(v) if v == values[1] => Ok(false),
            other => Err(format!("{key}: unknown value {other:?}")),
        }
    };
    let mut c = Checker {
        game,
        n,
        acting: deal,
        roles,
        shooters,
        all_tied_revote: setting("runoff_all_tied", ["revote", "nobody"])?,
        thief_at_house: setting("thief_at_psycho", ["house", "guest"])?,
        repeat_reached: setting("repeat_target", ["reached", "named"])?,
        runoff_marked: rules.runoff_marks == RunoffMarks::Marked,
        alive: PlayerSet::first(n),
        dead: PlayerSet::EMPTY,
        death_key: [0; 64],
        cur: Cur::Start,
        owe_last_word: PlayerSet::EMPTY,
        batch_open: false,
        must_end: false,
        illegal: 0,
        nights_without_kill: 0,
        guest: None,
        hex_next: PlayerSet::EMPTY,
        mines: PlayerSet::EMPTY,
        tricks: PlayerSet::EMPTY,
        prev_heal_beat: [None; 64],
        swindled: PlayerSet::EMPTY,
        borrowed: RoleSet::EMPTY,
        secret_next: PlayerSet::EMPTY,
        spare_used: PlayerSet::EMPTY,
        met: [PlayerSet::EMPTY; 64],
        // The buffers' memory, with `Day::new` and `Night::new`'s contents.
        day: std::mem::replace(&mut buffers.day, Day::new(PlayerSet::EMPTY)),
        night: std::mem::replace(&mut buffers.night, Night::new(PlayerSet::EMPTY)),
    };
    c.day.reset(PlayerSet::EMPTY);
    c.night.reset(PlayerSet::EMPTY);
    let result = c.read(log, out, seen);
    buffers.day = c.day;
    buffers.night = c.night;
    result
}

impl Checker<'_> {
    /// The events after the deal, then what the whole game must show.
    fn read(&mut self, log: &[Event], out: &Outcome, seen: &mut Seen) -> Result<(), String> {
        let game = self.game;
        for (idx, &e) in log.iter().enumerate().skip(self.n) {
            self.event(idx, e, idx == log.len() - 1, out, seen).map_err(|m| format!("event {idx} ({e:?}): {m}"))?;
        }
        ensure!(matches!(log.last(), Some(Event::GameEnd { .. })), "the game did not end with a GameEnd event");
        ensure!(out.days <= game.rules().day_cap, "C3: {} days, over the cap", out.days);
        ensure!(
            self.illegal == 0 && out.illegal_decisions == 0,
            "built-in agents made illegal decisions: {} Illegal events, outcome counts {}",
            self.illegal,
            out.illegal_decisions
        );
        Ok(())
    }
}
