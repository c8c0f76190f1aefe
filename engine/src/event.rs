//! Events: what happened, in order, for replays and tests. The engine writes
//! them to a [`Log`]; the simulation passes [`NoLog`], whose calls compile to
//! nothing, so the hot path pays for no story it does not tell.
//!
//! Every type here has one JSON encoding, derived with serde and described
//! by the same derives as a JSON Schema (see `json.rs` for the conventions:
//! seats from 1, sets as sorted arrays, names in snake_case). An [`Event`]
//! is an object whose `event` key names it (`{"event": "healed", "seat": 5,
//! "by": 3}`); `mafia replay --json` and `mafia resolve --json` both print
//! events this way.

use crate::night::order::NightStep;
use crate::role::{Camp, NightAbility, Role};
use crate::seat::{PlayerSet, Seat};
use crate::speech::{Publication, Vote};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How a player left the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeathCause {
    /// C11, C12: lynched by the day vote.
    Lynched,
    /// Killed at night.
    Killed,
    /// C15: removed by the host.
    Modkilled,
    /// E25: a mined player who got 3 or more votes.
    Mined,
}

/// Why a game ended (the names of [`EndCause::name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
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
    #[serde(rename = "nobody_left")]
    Nobody = 5,
    /// E2: only bandits alive.
    OnlyBandits = 6,
}

impl EndCause {
    /// How many causes there are.
    pub const COUNT: usize = 7;
    /// Every cause, in index order.
    pub const ALL: [EndCause; 7] = [
        EndCause::MafiaEliminated,
        EndCause::Parity,
        EndCause::TownEliminated,
        EndCause::NoKillRule,
        EndCause::DayCap,
        EndCause::Nobody,
        EndCause::OnlyBandits,
    ];
    /// The cause's name in tables (`end_` columns) and JSON.
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

/// Why a night kill did not happen (C4). JSON: `{"reason": "silent", "seat": 3}`
/// or `{"reason": "disagree", "a": 1, "b": 5}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(into = "MissReasonJson", from = "MissReasonJson")]
pub enum MissReason {
    /// A living shooter sent no nick (absent, or chose not to shoot).
    Silent(Seat),
    /// Two living shooters sent different nicks.
    Disagree(Seat, Seat),
}

/// Why a night kill did not happen (C4).
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(tag = "reason", rename_all = "snake_case")]
enum MissReasonJson {
    /// A living shooter sent no nick (absent, or chose not to shoot).
    Silent {
        /// The shooter who sent no nick.
        seat: Seat,
    },
    /// Two living shooters sent different nicks.
    Disagree {
        /// One shooter.
        a: Seat,
        /// Another shooter, whose nick differs from `a`'s.
        b: Seat,
    },
}

impl From<MissReason> for MissReasonJson {
    fn from(m: MissReason) -> Self {
        match m {
            MissReason::Silent(seat) => MissReasonJson::Silent { seat },
            MissReason::Disagree(a, b) => MissReasonJson::Disagree { a, b },
        }
    }
}

impl From<MissReasonJson> for MissReason {
    fn from(m: MissReasonJson) -> Self {
        match m {
            MissReasonJson::Silent { seat } => MissReason::Silent(seat),
            MissReasonJson::Disagree { a, b } => MissReason::Disagree(a, b),
        }
    }
}

/// A status a night move puts on a player (E6 and the status words).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// E9: robbed by the Thief.
    Robbed,
    /// E26: beaten by the Thug.
    Beaten,
    /// E23: the Psycho's guest.
    Invited,
    /// E18: hexed by the Witch (acts the next night).
    Hexed,
}

impl Status {
    /// The status's name in traces and JSON.
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
/// JSON: an object whose `kind` is `Fail::key`, e.g. `{"kind": "target_healed"}`
/// or `{"kind": "blocked", "status": "robbed", "by": 2}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Fail {
    /// E6: the maker is robbed, beaten, invited or hexed; `by` made the block
    /// (`None` for a hex, whose Witch acted last night).
    Blocked {
        /// The status that blocks the maker.
        status: Status,
        /// Who put the status on him (`null` for a hex, cast last night).
        by: Option<Seat>,
    },
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
/// JSON: an object whose `kind` is `camp`, `shooter`, `guest` or `blast`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(into = "KillerJson", from = "KillerJson")]
pub enum Killer {
    /// C4/E8: a camp's kill, decided by `decider`.
    Camp {
        /// The camp that killed.
        camp: Camp,
        /// The member whose nick counted.
        decider: Seat,
    },
    /// E20.
    Shooter(Seat),
    /// E23: last night's guest of the Psycho, not healed tonight.
    Guest(Seat),
    /// E24: someone tried to kill the Psycho while he had a guest.
    Blast(Seat),
}

/// Who killed.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum KillerJson {
    /// C4/E8: a camp's kill.
    Camp {
        /// The camp that killed.
        camp: Camp,
        /// The member whose nick decided the kill (E8; under C4's unanimous
        /// kill, a member who sent the common nick).
        decider: Seat,
    },
    /// E20: the Shooter's shot.
    Shooter {
        /// The Shooter.
        seat: Seat,
    },
    /// E23: the death of last night's guest of the Psycho, not healed tonight.
    Guest {
        /// The Psycho who invited him.
        psycho: Seat,
    },
    /// E24: the blast: someone tried to kill the Psycho while he had a guest.
    Blast {
        /// The Psycho.
        psycho: Seat,
    },
}

impl From<Killer> for KillerJson {
    fn from(k: Killer) -> Self {
        match k {
            Killer::Camp { camp, decider } => KillerJson::Camp { camp, decider },
            Killer::Shooter(seat) => KillerJson::Shooter { seat },
            Killer::Guest(psycho) => KillerJson::Guest { psycho },
            Killer::Blast(psycho) => KillerJson::Blast { psycho },
        }
    }
}

impl From<KillerJson> for Killer {
    fn from(k: KillerJson) -> Self {
        match k {
            KillerJson::Camp { camp, decider } => Killer::Camp { camp, decider },
            KillerJson::Shooter { seat } => Killer::Shooter(seat),
            KillerJson::Guest { psycho } => Killer::Guest(psycho),
            KillerJson::Blast { psycho } => Killer::Blast(psycho),
        }
    }
}

/// What an information move on people or on moves learned (E17, E22, E27).
/// JSON: an object whose `kind` is `compare`, `watch` or `scout`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Report {
    /// E17: the two players' camps are the same or not.
    Compare {
        /// The first player compared.
        a: Seat,
        /// The second player compared.
        b: Seat,
        /// Whether the two are in the same camp.
        same: bool,
    },
    /// E22: the camp of each player who made a successful move on `target`.
    Watch {
        /// The house watched.
        target: Seat,
        /// The number of successful visitors of each camp, indexed by
        /// [`Camp`] (all zero: nobody moved on him). JSON: one camp per
        /// visitor, in camp order (`["town", "town", "mafia"]`).
        #[serde(with = "crate::json::camp_counts")]
        #[schemars(with = "crate::json::CampCounts")]
        camps: [u8; Camp::COUNT],
    },
    /// E27: whom the Detective checked, the Thief robbed, the Doctor healed (successful moves only).
    Scout {
        /// Whom the Detective checked (`null`: no successful check).
        checked: Option<Seat>,
        /// Whom the Thief robbed (`null`: no successful robbery).
        robbed: Option<Seat>,
        /// Whom the Doctor healed (`null`: no successful heal).
        healed: Option<Seat>,
    },
}

/// How the lynch vote of a day ended (C11, C12). JSON: an object whose
/// `result` is `modkill_day`, `all_pass`, `pardoned`, `lynched` or `tie`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(into = "LynchResultJson", from = "LynchResultJson")]
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

/// How the lynch vote of a day ended (C11, C12).
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(tag = "result", rename_all = "snake_case")]
enum LynchResultJson {
    /// C15: a modkill day, no vote held.
    ModkillDay,
    /// C11.1: no vote for anybody.
    AllPass,
    /// C11.2: day 1, a single vote against PASS: the player is pardoned.
    Pardoned {
        /// The player with the single vote.
        seat: Seat,
    },
    /// C11.3: the player with the most votes.
    Lynched {
        /// The player with the most votes.
        seat: Seat,
    },
    /// C12: a tie for the lead.
    Tie {
        /// The tied leaders.
        tied: PlayerSet,
    },
}

impl From<LynchResult> for LynchResultJson {
    fn from(r: LynchResult) -> Self {
        match r {
            LynchResult::NoVoteModkillDay => LynchResultJson::ModkillDay,
            LynchResult::AllPass => LynchResultJson::AllPass,
            LynchResult::Pardoned(seat) => LynchResultJson::Pardoned { seat },
            LynchResult::Lynched(seat) => LynchResultJson::Lynched { seat },
            LynchResult::Tie(tied) => LynchResultJson::Tie { tied },
        }
    }
}

impl From<LynchResultJson> for LynchResult {
    fn from(r: LynchResultJson) -> Self {
        match r {
            LynchResultJson::ModkillDay => LynchResult::NoVoteModkillDay,
            LynchResultJson::AllPass => LynchResult::AllPass,
            LynchResultJson::Pardoned { seat } => LynchResult::Pardoned(seat),
            LynchResultJson::Lynched { seat } => LynchResult::Lynched(seat),
            LynchResultJson::Tie { tied } => LynchResult::Tie(tied),
        }
    }
}

/// One thing that happened. JSON: an object whose `event` key names the
/// event (the snake_case names below, or the one given by `rename`), with
/// the variant's fields beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// C1: the deal gives `seat` its role (known to the log, not to the players).
    Deal {
        /// The seat dealt.
        seat: Seat,
        /// The role dealt.
        role: Role,
    },
    /// C3: a day begins.
    #[serde(rename = "day")]
    DayStart {
        /// The day's number, from 1.
        day: u16,
        /// The players alive at its start.
        alive: PlayerSet,
    },
    /// C3: a night begins.
    #[serde(rename = "night")]
    NightStart {
        /// The night's number, from 1.
        night: u16,
        /// The players alive at its start.
        alive: PlayerSet,
    },
    /// C16: a player is absent this phase (no post, vote or move).
    Absent {
        /// The absent player.
        seat: Seat,
    },
    /// C15: the host removes a player.
    Modkill {
        /// The player removed.
        seat: Seat,
    },
    /// C10: a post in the day thread.
    Post {
        /// Who posts.
        seat: Seat,
        /// What he says.
        #[serde(rename = "says")]
        what: Publication,
    },
    /// C10: a day vote, or a change of it.
    Vote {
        /// Who votes.
        seat: Seat,
        /// For whom (or "pass").
        vote: Vote,
        /// `true` when this replaces the voter's earlier vote of the day.
        change: bool,
    },
    /// A decision the rules do not allow; it is treated as no decision.
    Illegal {
        /// Who made it.
        seat: Seat,
        /// What it was, in words.
        what: &'static str,
    },
    /// C11, C12: how the day's vote ended; the result's fields sit beside `event`.
    Lynch(LynchResult),
    /// C12.1: a tie with 4 alive: nobody leaves.
    NoRunoffAtFour,
    /// C12.2: a tied candidate's defence.
    Defence {
        /// The candidate.
        seat: Seat,
        /// What he says.
        #[serde(rename = "says")]
        what: Publication,
    },
    /// C12.4/C12.5: a revote among the candidates (round from 1).
    Revote {
        /// The revote's round, from 1.
        round: u8,
        /// The players voted on.
        candidates: PlayerSet,
    },
    /// C12: a vote in a revote.
    RunoffVote {
        /// Who votes.
        seat: Seat,
        /// The candidate he votes for.
        choice: Seat,
    },
    /// C12.3: a hang-both / pardon-both vote.
    HangBothVote {
        /// The two tied players.
        pair: PlayerSet,
    },
    /// C12.3: a vote in the hang-both / pardon-both vote.
    HangChoice {
        /// Who votes.
        seat: Seat,
        /// `true`: hang both; `false`: pardon both.
        hang: bool,
    },
    /// The runoff's decision: who is hanged (empty = nobody).
    RunoffResult {
        /// Who is hanged (empty: nobody).
        hanged: PlayerSet,
    },
    /// C12: `runoff_rounds` revotes tied: nobody is hanged.
    RunoffExhausted,
    /// C12 with `tie_break = random`: the host's pick among the leaders.
    RandomTieBreak {
        /// The tied leaders.
        leaders: PlayerSet,
        /// The one the host picked.
        hanged: Seat,
    },
    /// C4, E8: a camp member sends his kill nick.
    #[serde(rename = "kill_nick")]
    NightKillNick {
        /// Who sends the nick.
        seat: Seat,
        /// Whom he names.
        target: Seat,
    },
    /// A night move as submitted (and accepted as legal).
    #[serde(rename = "night_move")]
    NightAct {
        /// Who moves.
        seat: Seat,
        /// The move.
        ability: NightAbility,
        /// Its target (`null` for a move without one).
        target: Option<Seat>,
        /// Its second target: the Swindler's new target, the Journalist's second player (E11, E17).
        second: Option<Seat>,
    },
    /// E19: the Role Prostitute borrows `role` tonight.
    Borrowed {
        /// The Role Prostitute.
        seat: Seat,
        /// The dead town role whose move she makes.
        role: Role,
    },
    /// E7: the Boss sends the next move on behalf of `member`, who sent none.
    Proxy {
        /// The Boss.
        boss: Seat,
        /// The member whose move he sends.
        member: Seat,
    },
    /// E3: a bandit names a player he suspects to be a bandit.
    SearchNick {
        /// The bandit.
        seat: Seat,
        /// Whom he names.
        target: Seat,
    },
    /// A step of the night order begins (E30): `step` (its key) and `name` (in words).
    #[serde(serialize_with = "crate::json::step_event")]
    #[schemars(with = "crate::json::StepEvent")]
    Step(NightStep),
    /// E12/E14: from tonight `seat` acts as `role`.
    Promoted {
        /// The Actor or the Deputy.
        seat: Seat,
        /// The role he acts as from tonight.
        role: Role,
    },
    /// E14: the promoted Deputy and the other role learn each other.
    Introduced {
        /// The promoted Deputy.
        a: Seat,
        /// The other role's holder.
        b: Seat,
    },
    /// E18: last night's hex holds tonight.
    HexHolds {
        /// The hexed player.
        seat: Seat,
    },
    /// E29: a cycle of control moves broken at `seat` (his move stands).
    CycleBroken {
        /// The player whose move stands.
        seat: Seat,
    },
    /// A move took effect.
    Succeeded {
        /// Who moved.
        seat: Seat,
        /// The move.
        ability: NightAbility,
        /// The player it reached (`null` for a move without a target).
        target: Option<Seat>,
    },
    /// A move failed and left no trace.
    Failed {
        /// Who moved.
        seat: Seat,
        /// The move.
        ability: NightAbility,
        /// Why it failed.
        reason: Fail,
    },
    /// E11: `victim`'s move goes to `to` instead of `from`.
    Redirected {
        /// The Swindler.
        by: Seat,
        /// The player whose move is sent elsewhere.
        victim: Seat,
        /// The target the victim named (`null`: none).
        from: Option<Seat>,
        /// The new target.
        to: Seat,
    },
    /// A status put on a player tonight.
    #[serde(rename = "status")]
    StatusSet {
        /// The player who gets the status.
        seat: Seat,
        /// The status.
        status: Status,
        /// Who put it.
        by: Seat,
    },
    /// E22: the Sleepwalker watched a beaten house and is beaten too.
    BeatenWatching {
        /// The Sleepwalker.
        seat: Seat,
    },
    /// E10: guarded tonight.
    Guarded {
        /// The guarded player.
        seat: Seat,
        /// The Guard.
        by: Seat,
    },
    /// E15: healed tonight.
    Healed {
        /// The healed player.
        seat: Seat,
        /// The Doctor (or whoever makes the Doctor's move).
        by: Seat,
    },
    /// E7: the Boss learns whether the target holds a role and his camp.
    BossCheck {
        /// The Boss.
        seat: Seat,
        /// The player checked.
        target: Seat,
        /// `true`: a plain player (no role of his own); `false`: a role holder.
        plain: bool,
        /// The target's camp.
        camp: Camp,
    },
    /// E17, E22, E27: what an information move learned.
    Learned {
        /// Who learns it.
        seat: Seat,
        /// What he learns.
        report: Report,
    },
    /// A kill that did not reach its target.
    KillFailed {
        /// The player the kill aimed at.
        target: Seat,
        /// Whose kill it was.
        by: Killer,
        /// Why it failed.
        reason: Fail,
    },
    /// E23: last night's guest healed tonight: he lives.
    GuestSaved {
        /// The guest.
        seat: Seat,
        /// Who healed him.
        by: Seat,
    },
    /// E21: the Lucky's spare life absorbed tonight's kills.
    SpareLife {
        /// The Lucky.
        seat: Seat,
    },
    /// E18: a hex cast on a player healed tonight is lifted.
    HexLifted {
        /// The healed player.
        seat: Seat,
    },
    /// E3: two bandits learn each other.
    BanditsMeet {
        /// The bandit who named the other.
        a: Seat,
        /// The bandit named.
        b: Seat,
    },
    /// E28: `seat`'s vote is removed today.
    VoteRemoved {
        /// The player whose vote does not count today.
        seat: Seat,
    },
    /// E16: the Chosen's secret votes.
    SecretVotes {
        /// Who adds the votes.
        seat: Seat,
        /// For whom.
        target: Seat,
        /// How many votes.
        votes: u8,
    },
    /// E25: a mined player got `votes` (3 or more) votes.
    MineExplodes {
        /// The mined player.
        seat: Seat,
        /// The votes he got.
        votes: u8,
    },
    /// C6, E13: the Commissar or the Detective learns a camp.
    CampCheck {
        /// Who checks.
        seat: Seat,
        /// The player checked.
        target: Seat,
        /// His camp.
        camp: Camp,
    },
    /// C5: the Don learns whether the target holds `role`.
    RoleCheck {
        /// Who checks.
        seat: Seat,
        /// The player checked.
        target: Seat,
        /// The role asked about.
        role: Role,
        /// The answer.
        yes: bool,
    },
    /// A kill reached its target (he dies at dawn unless something below saves him).
    NightKill {
        /// The player killed.
        target: Seat,
        /// Whose kill it was.
        by: Killer,
    },
    /// C4: no camp kill tonight; the reason's fields sit beside `event`.
    #[serde(rename = "miss")]
    NightMiss(MissReason),
    /// C8: consecutive nights without a kill so far.
    NoKillCount {
        /// Nights in a row without a kill.
        nights: u8,
    },
    /// A player leaves the game.
    Died {
        /// The player.
        seat: Seat,
        /// How.
        cause: DeathCause,
        /// C9: the role announced (`null` when roles are not revealed).
        revealed: Option<Role>,
    },
    /// C13: a dead player's last word.
    LastWord {
        /// The dead player.
        seat: Seat,
        /// What he says.
        #[serde(rename = "says")]
        what: Publication,
    },
    /// The game is over.
    #[serde(rename = "end")]
    GameEnd {
        /// The winning camp (`null`: a draw).
        winner: Option<Camp>,
        /// Why it ended.
        cause: EndCause,
        /// The last day reached.
        day: u16,
    },
}

/// Where the engine writes events.
pub trait Log {
    /// `false` lets the engine skip building events nobody reads.
    const ENABLED: bool;
    /// Writes one event.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_names_are_the_stable_keys() {
        for c in EndCause::ALL {
            assert_eq!(serde_json::to_value(c).unwrap(), c.name());
        }
        let blocked = Fail::Blocked { status: Status::Beaten, by: Some(Seat::new(1)) };
        for f in [blocked, Fail::TargetBeaten, Fail::Overruled, Fail::TargetPsycho, Fail::Unredirectable] {
            assert_eq!(serde_json::to_value(f).unwrap()["kind"], f.key());
        }
        for st in [Status::Robbed, Status::Beaten, Status::Invited, Status::Hexed] {
            assert_eq!(serde_json::to_value(st).unwrap(), st.name());
        }
    }

    #[test]
    fn events_are_objects_named_by_event() {
        let e = Event::Failed {
            seat: Seat::new(2),
            ability: NightAbility::Invite,
            reason: Fail::Blocked { status: Status::Robbed, by: Some(Seat::new(1)) },
        };
        assert_eq!(
            serde_json::to_string(&e).unwrap(),
            r#"{"event":"failed","seat":3,"ability":"invite","reason":{"kind":"blocked","status":"robbed","by":2}}"#
        );
        let e = Event::Lynch(LynchResult::Tie([Seat::new(0), Seat::new(3)].into_iter().collect()));
        assert_eq!(serde_json::to_string(&e).unwrap(), r#"{"event":"lynch","result":"tie","tied":[1,4]}"#);
        let e = Event::NightMiss(MissReason::Disagree(Seat::new(0), Seat::new(4)));
        assert_eq!(serde_json::to_string(&e).unwrap(), r#"{"event":"miss","reason":"disagree","a":1,"b":5}"#);
        let e = Event::Step(NightStep::InformationOnMoves);
        assert_eq!(
            serde_json::to_string(&e).unwrap(),
            r#"{"event":"step","step":"watchers","name":"information on moves"}"#
        );
        let e = Event::NightKill { target: Seat::new(6), by: Killer::Guest(Seat::new(2)) };
        assert_eq!(
            serde_json::to_string(&e).unwrap(),
            r#"{"event":"night_kill","target":7,"by":{"kind":"guest","psycho":3}}"#
        );
        assert_eq!(serde_json::to_string(&Event::RunoffExhausted).unwrap(), r#"{"event":"runoff_exhausted"}"#);
        let r = Report::Watch { target: Seat::new(4), camps: [0, 2, 1] };
        let e = Event::Learned { seat: Seat::new(0), report: r };
        assert_eq!(
            serde_json::to_string(&e).unwrap(),
            r#"{"event":"learned","seat":1,"report":{"kind":"watch","target":5,"camps":["mafia","mafia","bandits"]}}"#
        );
        // The inner values read back.
        for k in [
            Killer::Camp { camp: Camp::Mafia, decider: Seat::new(3) },
            Killer::Shooter(Seat::new(1)),
            Killer::Blast(Seat::new(9)),
        ] {
            assert_eq!(serde_json::from_value::<Killer>(serde_json::to_value(k).unwrap()).unwrap(), k);
        }
        for l in [LynchResult::NoVoteModkillDay, LynchResult::AllPass, LynchResult::Pardoned(Seat::new(4))] {
            assert_eq!(serde_json::from_value::<LynchResult>(serde_json::to_value(l).unwrap()).unwrap(), l);
        }
        assert_eq!(serde_json::from_value::<Report>(serde_json::to_value(r).unwrap()).unwrap(), r);
    }
}
