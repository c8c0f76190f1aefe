//! Events: what happened, in order, for replays and tests. The engine writes
//! them to a [`Log`]; the simulation passes [`NoLog`], whose calls compile to
//! nothing, so the hot path pays for no story it does not tell.

use crate::night::order::NightStep;
use crate::role::{Camp, NightAbility, Role};
use crate::seat::{PlayerSet, Seat};
use crate::speech::{Publication, Vote};

/// How a player left the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeathCause {
    Lynched,
    Killed,
    Modkilled,
    /// E25: a mined player who got 3 or more votes.
    Mined,
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
    /// E2: only bandits alive.
    OnlyBandits = 6,
}

impl EndCause {
    pub const COUNT: usize = 7;
    pub const ALL: [EndCause; 7] = [
        EndCause::MafiaEliminated,
        EndCause::Parity,
        EndCause::TownEliminated,
        EndCause::NoKillRule,
        EndCause::DayCap,
        EndCause::Nobody,
        EndCause::OnlyBandits,
    ];
    pub const fn name(self) -> &'static str {
        match self {
            EndCause::MafiaEliminated => "mafia_eliminated",
            EndCause::Parity => "parity",
            EndCause::TownEliminated => "town_eliminated",
            EndCause::NoKillRule => "no_kill_rule",
            EndCause::DayCap => "day_cap",
            EndCause::Nobody => "nobody_left",
            EndCause::OnlyBandits => "only_bandits",
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

/// A status a night move puts on a player (E6 and the status words).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Robbed,
    Beaten,
    Invited,
    Hexed,
}

impl Status {
    pub const fn name(self) -> &'static str {
        match self {
            Status::Robbed => "robbed",
            Status::Beaten => "beaten",
            Status::Invited => "invited",
            Status::Hexed => "hexed",
        }
    }
    /// The clause of the move that puts the status.
    pub const fn clause(self) -> &'static str {
        match self {
            Status::Robbed => "E9",
            Status::Beaten => "E26",
            Status::Invited => "E23",
            Status::Hexed => "E18",
        }
    }
}

/// Why a move failed. A failed move leaves no trace (E30): watchers do not see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fail {
    /// E6: the maker is robbed, beaten, invited or hexed; `by` made the block
    /// (`None` for a hex, whose Witch acted last night).
    Blocked { status: Status, by: Option<Seat> },
    /// E6: the target is beaten: nobody can find him.
    TargetBeaten,
    /// E6, E23: the target is the Psycho's guest tonight.
    TargetInvited,
    /// E15: the target is healed.
    TargetHealed,
    /// E10: the target is guarded.
    TargetGuarded,
    /// E11: the Swindler named a mafioso.
    TargetMafia,
    /// E11: the Swindler's victim made no move with a target tonight.
    NothingToRedirect,
    /// E29: the redirect's victim won a cycle at a higher priority; his move stands as made.
    Overruled,
    /// E28: the Trickster's pick acts «вопреки всем ходам»: it cannot be redirected.
    Unredirectable,
    /// E9 (`thief_at_psycho = house`): robbing the Psycho fails.
    TargetPsycho,
}

impl Fail {
    /// A stable key for JSON output.
    pub const fn key(self) -> &'static str {
        match self {
            Fail::Blocked { .. } => "blocked",
            Fail::TargetBeaten => "target_beaten",
            Fail::TargetInvited => "target_invited",
            Fail::TargetHealed => "target_healed",
            Fail::TargetGuarded => "target_guarded",
            Fail::TargetMafia => "target_mafia",
            Fail::NothingToRedirect => "nothing_to_redirect",
            Fail::Overruled => "overruled",
            Fail::Unredirectable => "unredirectable",
            Fail::TargetPsycho => "target_psycho",
        }
    }
    /// Why, in words with the clause. A block is told with its maker by the
    /// caller, who knows how to name seats; this gives only the status.
    pub const fn about(self) -> &'static str {
        match self {
            Fail::Blocked { status: Status::Robbed, .. } => "robbed (E6, E9)",
            Fail::Blocked { status: Status::Beaten, .. } => "beaten (E6, E26)",
            Fail::Blocked { status: Status::Invited, .. } => "the Psycho's guest (E6, E23)",
            Fail::Blocked { status: Status::Hexed, .. } => "hexed since last night (E6, E18)",
            Fail::TargetBeaten => "the target is beaten: nobody can find him (E6)",
            Fail::TargetInvited => "the target is the Psycho's guest tonight (E6, E23)",
            Fail::TargetHealed => "the target is healed (E15)",
            Fail::TargetGuarded => "the target is guarded (E10)",
            Fail::TargetMafia => "the named player is a mafioso (E11)",
            Fail::NothingToRedirect => "the named player made no move with a target (E11)",
            Fail::Overruled => "the victim won a cycle at a higher priority; his move stands as made (E29)",
            Fail::Unredirectable => "the Trickster's pick acts despite all moves: it cannot be redirected (E28)",
            Fail::TargetPsycho => "robbing the Psycho fails (E9, thief_at_psycho = house)",
        }
    }
}

/// Who killed (for the night trace; the dawn announcement gives no roles, E32).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Killer {
    /// C4/E8: a camp's kill, decided by `decider`.
    Camp { camp: Camp, decider: Seat },
    /// E20.
    Shooter(Seat),
    /// E23: last night's guest of the Psycho, not healed tonight.
    Guest(Seat),
    /// E24: someone tried to kill the Psycho while he had a guest.
    Blast(Seat),
}

/// What an information move on moves learned (E22, E27).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Report {
    /// E17: the two players' camps are the same or not.
    Compare { a: Seat, b: Seat, same: bool },
    /// E22: the camps of everybody who made a successful move on `target`.
    Watch { target: Seat, camps: [bool; Camp::COUNT] },
    /// E27: whom the Detective checked, the Thief robbed, the Doctor healed (successful moves only).
    Scout { checked: Option<Seat>, robbed: Option<Seat>, healed: Option<Seat> },
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
    /// A night move as submitted (and accepted as legal).
    NightAct {
        seat: Seat,
        ability: NightAbility,
        target: Option<Seat>,
        second: Option<Seat>,
    },
    /// E19: the Role Prostitute borrows `role` tonight.
    Borrowed {
        seat: Seat,
        role: Role,
    },
    /// E7: the Boss sends the next move on behalf of `member`, who sent none.
    Proxy {
        boss: Seat,
        member: Seat,
    },
    /// E3: a bandit names a player he suspects to be a bandit.
    SearchNick {
        seat: Seat,
        target: Seat,
    },
    /// A step of the night order begins (E30).
    Step(NightStep),
    /// E12/E14: from tonight `seat` acts as `role`.
    Promoted {
        seat: Seat,
        role: Role,
    },
    /// E14: the promoted Deputy and the other role learn each other.
    Introduced {
        a: Seat,
        b: Seat,
    },
    /// E18: last night's hex holds tonight.
    HexHolds {
        seat: Seat,
    },
    /// E29: a cycle of control moves broken at `seat` (his move stands).
    CycleBroken {
        seat: Seat,
    },
    /// A move took effect.
    Succeeded {
        seat: Seat,
        ability: NightAbility,
        target: Option<Seat>,
    },
    /// A move failed and left no trace.
    Failed {
        seat: Seat,
        ability: NightAbility,
        reason: Fail,
    },
    /// E11: `victim`'s move goes to `to` instead of `from`.
    Redirected {
        by: Seat,
        victim: Seat,
        from: Option<Seat>,
        to: Seat,
    },
    /// A status put on a player tonight.
    StatusSet {
        seat: Seat,
        status: Status,
        by: Seat,
    },
    /// E22: the Sleepwalker watched a beaten house and is beaten too.
    BeatenWatching {
        seat: Seat,
    },
    /// E10: guarded tonight.
    Guarded {
        seat: Seat,
        by: Seat,
    },
    /// E15: healed tonight.
    Healed {
        seat: Seat,
        by: Seat,
    },
    /// E7: the Boss learns whether the target holds a role and his camp.
    BossCheck {
        seat: Seat,
        target: Seat,
        plain: bool,
        camp: Camp,
    },
    /// E17, E22, E27.
    Learned {
        seat: Seat,
        report: Report,
    },
    /// A kill that did not reach its target.
    KillFailed {
        target: Seat,
        by: Killer,
        reason: Fail,
    },
    /// E23: last night's guest healed tonight: he lives.
    GuestSaved {
        seat: Seat,
        by: Seat,
    },
    /// E21: the Lucky's spare life absorbed tonight's kills.
    SpareLife {
        seat: Seat,
    },
    /// E18: a hex cast on a player healed tonight is lifted.
    HexLifted {
        seat: Seat,
    },
    /// E3: two bandits learn each other.
    BanditsMeet {
        a: Seat,
        b: Seat,
    },
    /// E28: `seat`'s vote is removed today.
    VoteRemoved {
        seat: Seat,
    },
    /// E16: the Chosen's secret votes.
    SecretVotes {
        seat: Seat,
        target: Seat,
        votes: u8,
    },
    /// E25: a mined player got `votes` (3 or more) votes.
    MineExplodes {
        seat: Seat,
        votes: u8,
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
        by: Killer,
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
