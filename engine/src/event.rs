//! Events: what happened, in order, for replays and tests. The engine writes
//! them to a [`Log`]; the simulation passes [`NoLog`], whose calls compile to
//! nothing, so the hot path pays for no story it does not tell.

use crate::decide::{Publication, Vote};
use crate::role::{Camp, Role};
use crate::seat::{PlayerSet, Seat};

/// How a player left the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeathCause {
    Lynched,
    Killed,
    Modkilled,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum EndCause {
    /// C17: no mafioso alive (all living players are town).
    MafiaEliminated = 0,
    /// C18: living mafia at least as many as the rest.
    Parity = 1,
    /// C18 (`mafia_win = elimination`) / E2: only mafia alive.
    TownEliminated = 2,
    /// C8: the no-kill limit was reached.
    NoKillRule = 3,
    /// C3: the day cap was passed; a draw.
    DayCap = 4,
    /// E2: nobody alive; a draw.
    Nobody = 5,
}

impl EndCause {
    pub const COUNT: usize = 6;
    pub const ALL: [EndCause; 6] = [
        EndCause::MafiaEliminated,
        EndCause::Parity,
        EndCause::TownEliminated,
        EndCause::NoKillRule,
        EndCause::DayCap,
        EndCause::Nobody,
    ];
    pub const fn name(self) -> &'static str {
        match self {
            EndCause::MafiaEliminated => "mafia_eliminated",
            EndCause::Parity => "parity",
            EndCause::TownEliminated => "town_eliminated",
            EndCause::NoKillRule => "no_kill_rule",
            EndCause::DayCap => "day_cap",
            EndCause::Nobody => "nobody_left",
        }
    }
}

/// Why a night kill did not happen (C4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MissReason {
    /// A living shooter sent no nick (absent, or chose not to shoot).
    Silent(Seat),
    /// Two living shooters sent different nicks.
    Disagree(Seat, Seat),
}

/// How the lynch vote of a day ended (C11, C12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LynchResult {
    /// C15: a modkill day, no vote held.
    NoVoteModkillDay,
    /// C11.1: no vote for anybody.
    AllPass,
    /// C11.2: day 1, a single vote against PASS.
    Pardoned(Seat),
    /// C11.3: the player with the most votes.
    Lynched(Seat),
    /// C12: a tie for the lead.
    Tie(PlayerSet),
}

/// One thing that happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    Deal {
        seat: Seat,
        role: Role,
    },
    DayStart {
        day: u16,
        alive: PlayerSet,
    },
    NightStart {
        night: u16,
        alive: PlayerSet,
    },
    Absent {
        seat: Seat,
    },
    Modkill {
        seat: Seat,
    },
    Post {
        seat: Seat,
        what: Publication,
    },
    Vote {
        seat: Seat,
        vote: Vote,
        change: bool,
    },
    /// A decision the rules do not allow; it is treated as no decision.
    Illegal {
        seat: Seat,
        what: &'static str,
    },
    Lynch(LynchResult),
    /// C12.1: a tie with 4 alive: nobody leaves.
    NoRunoffAtFour,
    Defence {
        seat: Seat,
        what: Publication,
    },
    /// C12.4/C12.5: a revote among the candidates (round from 1).
    Revote {
        round: u8,
        candidates: PlayerSet,
    },
    RunoffVote {
        seat: Seat,
        choice: Seat,
    },
    /// C12.3: a hang-both / pardon-both vote.
    HangBothVote {
        pair: PlayerSet,
    },
    HangChoice {
        seat: Seat,
        hang: bool,
    },
    /// The runoff's decision: who is hanged (empty = nobody).
    RunoffResult {
        hanged: PlayerSet,
    },
    /// C12: `runoff_rounds` revotes tied: nobody is hanged.
    RunoffExhausted,
    /// C12 with `tie_break = random`: the host's pick among the leaders.
    RandomTieBreak {
        leaders: PlayerSet,
        hanged: Seat,
    },
    NightKillNick {
        seat: Seat,
        target: Seat,
    },
    NightAct {
        seat: Seat,
        target: Seat,
    },
    /// C6: the Commissar learns a camp.
    CampCheck {
        seat: Seat,
        target: Seat,
        camp: Camp,
    },
    /// C5: the Don learns whether the target holds `role`.
    RoleCheck {
        seat: Seat,
        target: Seat,
        role: Role,
        yes: bool,
    },
    NightKill {
        target: Seat,
    },
    NightMiss(MissReason),
    /// C8: consecutive nights without a kill so far.
    NoKillCount {
        nights: u8,
    },
    Died {
        seat: Seat,
        cause: DeathCause,
        revealed: Option<Role>,
    },
    LastWord {
        seat: Seat,
        what: Publication,
    },
    GameEnd {
        winner: Option<Camp>,
        cause: EndCause,
        day: u16,
    },
}

/// Where the engine writes events.
pub trait Log {
    /// `false` lets the engine skip building events nobody reads.
    const ENABLED: bool;
    fn push(&mut self, e: Event);
}

/// The silent log of the simulation hot path.
pub struct NoLog;

impl Log for NoLog {
    const ENABLED: bool = false;
    #[inline(always)]
    fn push(&mut self, _e: Event) {}
}

impl Log for Vec<Event> {
    const ENABLED: bool = true;
    fn push(&mut self, e: Event) {
        Vec::push(self, e)
    }
}
