//! The agent boundary as data: what one seat may know when it is asked a
//! decision, as an owned, serialisable [`View`], with the decision as a typed
//! [`Request`] that lists its legal options, and the answer as an [`Answer`].
//!
//! Built in one place, from the same [`Observation`] the built-in agents read
//! on the fast path, so the two paths cannot disagree about what a seat may
//! know or do. Nothing here reads a hidden fact except through
//! [`Observation`], and the record of events is filtered by
//! [`Event::audience`]: a seat sees the public events, its own private ones
//! (its checks, its moves) and what its camp shares (the mafia's
//! conference, C2).

use crate::decide::NightChoice;
use crate::event::{EndCause, Event, MissReason, Report};
use crate::role::{Camp, NightAbility, Role, RoleSet, Targets};
use crate::rules::Rules;
use crate::seat::{PlayerSet, Seat};
use crate::speech::{Publication, Vote};
use crate::state::{Observation, Phase, State};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A decision the engine asks of one seat, with its parameters: the borrowed
/// form of a [`Request`] (see [`Request::of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// C2: the game starts (the seat learns its role and its mates); nothing to decide.
    Start,
    /// C10: a day post.
    Post,
    /// C10: the first vote.
    Vote,
    /// C10: the one change of vote.
    Revise,
    /// C12.2: a defence before the runoff.
    Defence,
    /// C12.4/C12.5: a runoff vote among `candidates`.
    Runoff(PlayerSet),
    /// C12.3: hang both or pardon both.
    HangBoth(PlayerSet),
    /// C4–C6, E3, E7–E28: the night's moves.
    Night,
    /// E7: the Boss's move for `member`.
    Proxy(Seat),
    /// E12: which vacant mafia role the Actor takes.
    Appoint(RoleSet),
    /// E16/E19: whom the secret votes go to.
    SecretVote,
    /// C13: the last word.
    LastWord,
}

/// The legal first targets of one night move and, for a two-target move
/// (E11, E17), the legal second targets for each first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct MoveOptions {
    /// The move (`heal`, `check_camp`, …).
    pub ability: NightAbility,
    /// Whom the move may name (empty for a move without a target).
    pub targets: PlayerSet,
    /// Two-target moves only: for each first target, the legal second ones.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub second: Vec<SecondOptions>,
}

/// The legal second targets given a first one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SecondOptions {
    /// The first target.
    pub first: Seat,
    /// The second targets it allows.
    pub options: PlayerSet,
}

/// E19: a role the Role Prostitute may borrow tonight and the move it gives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BorrowOption {
    /// The role borrowed.
    pub role: Role,
    /// Its move's options.
    #[serde(rename = "move")]
    pub act: MoveOptions,
}

/// Everything a seat may send at night; each part is optional.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct NightOptions {
    /// C4/E8: whom the camp kill may name (present when the seat shoots).
    pub kill: Option<PlayerSet>,
    /// The seat's own move by its acting role (E12, E14), if it has one.
    #[serde(rename = "move")]
    pub act: Option<MoveOptions>,
    /// E19: the roles the Role Prostitute may borrow, with their moves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub borrow: Vec<BorrowOption>,
    /// E3: whom a bandit's search may name.
    pub search: Option<PlayerSet>,
    /// E7: whether the seat may leave its move to the Boss (`defer`).
    pub defer: bool,
}

/// What may be said in a post, a defence or a last word: a claim of a role
/// and camp statements about players (C10, C12.2, C13). Any claim is legal
/// (a claim may be false); `claims` lists the roles of this setup, the only
/// ones worth claiming.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SpeechOptions {
    /// The roles worth claiming: those of this setup.
    pub claims: RoleSet,
    /// Whom statements may be about: every seat.
    pub about: PlayerSet,
}

/// A decision asked of a seat, with its legal options. The answer is the
/// [`Answer`] variant of the same name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum Request {
    /// C2: the game starts: the seat's role and mates are in the view's
    /// `private` part. Nothing to decide (answer `ready` where an answer is
    /// expected).
    Start,
    /// C10: a day post. Answer: `post`.
    Post {
        /// What may be said.
        options: SpeechOptions,
    },
    /// C10: the first vote: one of `options` or "pass". Answer: `vote`.
    Vote {
        /// Whom the seat may vote for.
        options: PlayerSet,
    },
    /// C10: the one change of vote (`current` is the vote now); answering
    /// `null` or the same vote keeps it. Answer: `revise`.
    Revise {
        /// The seat's vote now.
        current: Option<Vote>,
        /// Whom the seat may vote for.
        options: PlayerSet,
    },
    /// C12.2: a defence of a tied player. Answer: `defence`.
    Defence {
        /// What may be said.
        options: SpeechOptions,
    },
    /// C12.4/C12.5: a runoff vote: one of `options`, no "pass". Answer: `runoff`.
    Runoff {
        /// The tied players the seat may vote for.
        options: PlayerSet,
    },
    /// C12.3: hang both players of `pair` (true) or pardon both. Answer: `hang_both`.
    HangBoth {
        /// The two tied players.
        pair: PlayerSet,
    },
    /// The night's moves. Answer: `night`.
    Night {
        /// Everything the seat may send tonight.
        options: NightOptions,
    },
    /// E7 (the Boss): a move on behalf of `member`, who sent none or left it
    /// to the Boss; `null` sends none. Answer: `proxy`.
    Proxy {
        /// The member the Boss moves for.
        member: Seat,
        /// The member's move's options.
        #[serde(rename = "move")]
        act: MoveOptions,
    },
    /// E12: which of the `vacant` roles the Actor takes from tonight; `null`
    /// = no appointment yet. Answer: `appoint`.
    Appoint {
        /// The vacant mafia roles.
        vacant: RoleSet,
    },
    /// E16/E19: whom the secret votes go to (`null`: the open vote's target).
    /// Answer: `secret_vote`.
    SecretVote {
        /// How many secret votes.
        votes: u8,
        /// Whom they may go to.
        options: PlayerSet,
    },
    /// C13: the last word. Answer: `last_word`.
    LastWord {
        /// What may be said.
        options: SpeechOptions,
    },
}

/// An answer to a [`Request`]: the variant of the same name. A variant of
/// another name, or an option the request did not list, is refused by the
/// engine and counted as illegal (the decision then counts as none).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum Answer {
    /// The answer to `start`.
    Ready,
    /// `say`'s typed statements; `text`, a free-text line others may read
    /// (its number in the game's talk is filled in by the driver).
    Post {
        /// The typed statements.
        say: Publication,
        /// A free-text line.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    /// The answer to `vote`.
    Vote {
        /// A seat of the options, or PASS.
        vote: Vote,
    },
    /// The answer to `revise`.
    Revise {
        /// The new vote; `null` keeps the current one.
        vote: Option<Vote>,
    },
    /// The answer to `defence`.
    Defence {
        /// The typed statements.
        say: Publication,
        /// A free-text line.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    /// The answer to `runoff`.
    Runoff {
        /// One of the tied players.
        choice: Seat,
    },
    /// The answer to `hang_both`.
    HangBoth {
        /// `true`: hang both; `false`: pardon both.
        hang: bool,
    },
    /// The answer to `night`.
    Night {
        /// The kill nick, the move and the search, each optional.
        moves: NightChoice,
    },
    /// The answer to `proxy`.
    Proxy {
        /// The member's move (its `target` and `second`); none sends none.
        moves: NightChoice,
    },
    /// The answer to `appoint`.
    Appoint {
        /// One of the vacant roles; `null` waits.
        role: Option<Role>,
    },
    /// The answer to `secret_vote`.
    SecretVote {
        /// One of the options; `null`: the open vote's target.
        target: Option<Seat>,
    },
    /// The answer to `last_word`.
    LastWord {
        /// The typed statements.
        say: Publication,
        /// A free-text line.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
}

impl Answer {
    /// The decision this answers (its `decision` tag).
    pub fn name(&self) -> &'static str {
        match self {
            Answer::Ready => "ready",
            Answer::Post { .. } => "post",
            Answer::Vote { .. } => "vote",
            Answer::Revise { .. } => "revise",
            Answer::Defence { .. } => "defence",
            Answer::Runoff { .. } => "runoff",
            Answer::HangBoth { .. } => "hang_both",
            Answer::Night { .. } => "night",
            Answer::Proxy { .. } => "proxy",
            Answer::Appoint { .. } => "appoint",
            Answer::SecretVote { .. } => "secret_vote",
            Answer::LastWord { .. } => "last_word",
        }
    }
}

impl Request {
    /// The request for `ask`, with its legal options, as `obs`'s seat sees them.
    pub fn of(obs: &Observation<'_>, ask: Ask) -> Request {
        match ask {
            Ask::Start => Request::Start,
            Ask::Post => Request::Post { options: speech(obs) },
            Ask::Vote => Request::Vote { options: obs.vote_options() },
            Ask::Revise => Request::Revise { current: obs.vote_of(obs.seat()), options: obs.vote_options() },
            Ask::Defence => Request::Defence { options: speech(obs) },
            Ask::Runoff(options) => Request::Runoff { options },
            Ask::HangBoth(pair) => Request::HangBoth { pair },
            Ask::Night => Request::Night { options: night_options(obs) },
            Ask::Proxy(member) => Request::Proxy {
                member,
                act: move_options(
                    obs.mate_ability(member),
                    |_| obs.mate_targets(member),
                    |_, t| obs.mate_second_targets(member, t),
                ),
            },
            Ask::Appoint(vacant) => Request::Appoint { vacant },
            Ask::SecretVote => Request::SecretVote { votes: obs.secret_votes(), options: obs.others_alive() },
            Ask::LastWord => Request::LastWord { options: speech(obs) },
        }
    }

    /// The decision's name (its `decision` tag).
    pub fn name(&self) -> &'static str {
        match self {
            Request::Start => "start",
            Request::Post { .. } => "post",
            Request::Vote { .. } => "vote",
            Request::Revise { .. } => "revise",
            Request::Defence { .. } => "defence",
            Request::Runoff { .. } => "runoff",
            Request::HangBoth { .. } => "hang_both",
            Request::Night { .. } => "night",
            Request::Proxy { .. } => "proxy",
            Request::Appoint { .. } => "appoint",
            Request::SecretVote { .. } => "secret_vote",
            Request::LastWord { .. } => "last_word",
        }
    }
}

fn speech(obs: &Observation<'_>) -> SpeechOptions {
    SpeechOptions { claims: obs.setup_roles(), about: PlayerSet::first(obs.players()) }
}

fn move_options(
    ability: NightAbility,
    targets: impl Fn(NightAbility) -> PlayerSet,
    second: impl Fn(NightAbility, Seat) -> PlayerSet,
) -> MoveOptions {
    let mut t = targets(ability);
    let mut seconds = Vec::new();
    if ability.info().targets == Targets::Two {
        // A first target is an option only if some second one completes the move.
        for first in t.iter() {
            let options = second(ability, first);
            if options.is_empty() {
                t.remove(first);
            } else {
                seconds.push(SecondOptions { first, options });
            }
        }
    }
    MoveOptions { ability, targets: t, second: seconds }
}

fn night_options(obs: &Observation<'_>) -> NightOptions {
    let own = obs.ability();
    let act = match own {
        NightAbility::None | NightAbility::Borrow => None,
        a => Some(move_options(a, |a| obs.targets(a), |a, t| obs.second_targets(a, t))),
    };
    let borrow = obs
        .borrowable()
        .iter()
        .map(|role| BorrowOption {
            role,
            act: move_options(role.borrowed_move(), |a| obs.targets(a), |a, t| obs.second_targets(a, t)),
        })
        // A borrowed move must be made (E19): only roles whose move has a target tonight, or needs none.
        .filter(|b| !b.act.targets.is_empty() || b.act.ability.info().targets == Targets::Zero)
        .collect();
    let search = (obs.camp() == Camp::Bandits).then(|| obs.search_options());
    let defer = obs.camp() == Camp::Mafia && obs.boss_alive() && own != NightAbility::None;
    NightOptions { kill: obs.shoots().then(|| obs.kill_options()), act, borrow, search, defer }
}

/// The public setup: how many of each role, and the rules in force (every
/// `auto` resolved). Public from the start (the host announces the setup).
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct PublicSetup {
    /// Players at the table.
    pub players: u8,
    /// How many hold each role dealt.
    pub roles: Vec<RoleCount>,
    /// The rule settings in force.
    pub rules: Rules,
}

/// One line of the setup: a role and how many hold it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RoleCount {
    /// The role.
    pub role: Role,
    /// How many hold it.
    pub count: u8,
}

/// A camp mate the seat knows, with his role (C2: the mafia know each
/// other's roles; E3: bandits found by the search; E14: the Deputy's introduction).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Mate {
    /// His seat.
    pub seat: Seat,
    /// His dealt role.
    pub role: Role,
    /// The role whose move he makes tonight (E12: the appointed Actor).
    pub acting: Role,
}

/// What the seat knows and nobody else need know.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Private {
    /// The seat's dealt role.
    pub role: Role,
    /// Its camp.
    pub camp: Camp,
    /// The role whose move the seat makes (E12, E14); usually its own.
    pub acting: Role,
    /// Whether the seat sends a nick for its camp's kill (C4, E8, E12).
    pub shoots: bool,
    /// Known camp mates, the seat itself excluded.
    pub mates: Vec<Mate>,
    /// Everybody the seat has checked (C5, C6, E7).
    pub checked: PlayerSet,
    /// C6/E13: players found in the town.
    pub found_town: PlayerSet,
    /// C6/E13: players found in the mafia.
    pub found_mafia: PlayerSet,
    /// E13: players found among the bandits.
    pub found_bandits: PlayerSet,
    /// C5: players a role check answered "yes" for; E7: players the Boss
    /// found to hold a role.
    pub found_role: PlayerSet,
    /// The latest report of a comparison, a watch or a scouting (E17, E22, E27).
    pub report: Option<Report>,
    /// E21: the Lucky's spare life is still there.
    pub spare_life: bool,
    /// E15/E26: whom the seat's heal or beating may not name tonight.
    pub barred: Option<Seat>,
}

/// Everything one seat may know when it is asked one decision.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct View {
    /// The seat asked.
    pub seat: Seat,
    /// The phase the game is in.
    pub phase: Phase,
    /// The public setup.
    pub setup: PublicSetup,
    /// The living players.
    pub alive: PlayerSet,
    /// C8: consecutive nights without a kill so far.
    pub nights_without_kill: u8,
    /// What the seat alone knows.
    pub private: Private,
    /// Every event this seat has seen, in order (see [`Event::audience`]).
    pub record: Vec<Event>,
    /// The game's free-text lines so far (all public: posts, defences,
    /// last words); a publication's `text` is an index into it.
    pub talk: Vec<String>,
    /// The decision asked, with its legal options.
    pub request: Request,
}

impl View {
    /// The view of `obs`'s seat, asked `ask`, given the game's full event log
    /// so far (filtered here to what the seat has seen).
    pub fn new(obs: &Observation<'_>, log: &[Event], talk: &[String], ask: Ask) -> View {
        let st = obs.state();
        let me = obs.seat();
        let setup = PublicSetup {
            players: obs.players() as u8,
            roles: {
                let mut counts = [0u8; Role::COUNT];
                for &r in st.roles() {
                    counts[r as usize] += 1;
                }
                Role::ALL
                    .iter()
                    .filter(|&&role| counts[role as usize] > 0)
                    .map(|&role| RoleCount { role, count: counts[role as usize] })
                    .collect()
            },
            rules: st.rules,
        };
        let mates = obs
            .camp_mates()
            .without(me)
            .iter()
            .filter_map(|s| Some(Mate { seat: s, role: obs.mate_role(s)?, acting: obs.mate_acting(s)? }))
            .collect();
        let private = Private {
            role: obs.role(),
            camp: obs.camp(),
            acting: obs.acting_role(),
            shoots: obs.shoots(),
            mates,
            checked: obs.checked(),
            found_town: obs.found_in_camp(Camp::Town),
            found_mafia: obs.found_in_camp(Camp::Mafia),
            found_bandits: obs.found_in_camp(Camp::Bandits),
            found_role: obs.found_role().union(obs.found_holders()),
            report: obs.last_report(),
            spare_life: obs.has_spare_life(),
            barred: obs.barred(),
        };
        let mut record = Vec::with_capacity(log.len());
        record.extend(log.iter().filter(|e| e.audience(st).contains(me)).copied());
        View {
            seat: me,
            phase: obs.phase(),
            setup,
            alive: obs.alive(),
            nights_without_kill: obs.nights_without_kill(),
            private,
            record,
            talk: talk.to_vec(),
            request: Request::of(obs, ask),
        }
    }
}

impl Event {
    /// Who sees this event: everybody for the public record (votes, posts,
    /// deaths, the dawn's count, the end), the seat itself for its own moves
    /// and what they taught it, its camp when the camp confers (C2: the
    /// mafia's nicks, its members' roles and appointments), and nobody for
    /// how the host resolved the night (E30: a failed move leaves no trace;
    /// the dawn announces only deaths, E32).
    pub fn audience(&self, st: &State) -> PlayerSet {
        let all = PlayerSet::first(st.players());
        let one = PlayerSet::single;
        // The camp of `s` when its members confer (the mafia), else `s` alone.
        let conference = |s: Seat| {
            let c = st.role(s).camp();
            if c.members_know_each_other() { st.camp_members(c) } else { one(s) }
        };
        match *self {
            Event::DayStart { .. }
            | Event::NightStart { .. }
            | Event::Absent { .. }
            | Event::Modkill { .. }
            | Event::Post { .. }
            | Event::Vote { .. }
            | Event::Lynch(_)
            | Event::NoRunoffAtFour
            | Event::Defence { .. }
            | Event::Revote { .. }
            | Event::RunoffVote { .. }
            | Event::HangBothVote { .. }
            | Event::HangChoice { .. }
            | Event::RunoffResult { .. }
            | Event::RunoffExhausted
            | Event::RandomTieBreak { .. }
            | Event::VoteRemoved { .. }
            | Event::MineExplodes { .. }
            | Event::NoKillCount { .. }
            | Event::Died { .. }
            | Event::LastWord { .. }
            | Event::GameEnd { .. } => all,
            // C2: the mafia know each other's roles; everybody knows his own.
            Event::Deal { seat, .. } | Event::NightKillNick { seat, .. } => conference(seat),
            // E12: the Actor's appointment is the mafia's business; E14: the
            // Deputy learns his. E7: the mafia confer on their moves (the Boss
            // acts for a member who sent none).
            Event::Promoted { seat, .. } | Event::NightAct { seat, .. } | Event::Proxy { boss: seat, .. } => {
                conference(seat)
            }
            Event::NightMiss(MissReason::Silent(s)) => conference(s),
            Event::NightMiss(MissReason::Disagree(a, b)) => conference(a).union(conference(b)),
            Event::Illegal { seat, .. }
            | Event::Borrowed { seat, .. }
            | Event::SearchNick { seat, .. }
            | Event::BossCheck { seat, .. }
            | Event::CampCheck { seat, .. }
            | Event::RoleCheck { seat, .. }
            | Event::Learned { seat, .. }
            | Event::SecretVotes { seat, .. }
            | Event::SpareLife { seat } => one(seat),
            Event::Introduced { a, b } | Event::BanditsMeet { a, b } => one(a).with(b),
            Event::Step(_)
            | Event::HexHolds { .. }
            | Event::CycleBroken { .. }
            | Event::Succeeded { .. }
            | Event::Failed { .. }
            | Event::Redirected { .. }
            | Event::StatusSet { .. }
            | Event::BeatenWatching { .. }
            | Event::Guarded { .. }
            | Event::Healed { .. }
            | Event::KillFailed { .. }
            | Event::GuestSaved { .. }
            | Event::HexLifted { .. }
            | Event::NightKill { .. } => PlayerSet::EMPTY,
        }
    }
}

/// Converts an answer into what the engine's [`crate::Players`] methods
/// return, for the decision `ask`. `Err` names the decision the answer was
/// for when it answers another one (the caller counts it as illegal).
pub enum Answered {
    /// The statements and the free-text line.
    Publication(Publication, Option<String>),
    /// A first vote.
    Vote(Vote),
    /// A change of vote (`None` keeps it).
    Revise(Option<Vote>),
    /// A runoff vote.
    Seat(Seat),
    /// Hang both (`true`) or pardon both.
    Hang(bool),
    /// Night moves (the seat's own, or the Boss's for a member).
    Night(NightChoice),
    /// The Actor's appointment (`None` waits).
    Appoint(Option<Role>),
    /// Whom the secret votes go to (`None`: the open vote's target).
    SecretVote(Option<Seat>),
}

impl Answer {
    /// The answer's value if it answers `ask`.
    pub fn to(self, ask: Ask) -> Option<Answered> {
        Some(match (ask, self) {
            (Ask::Post, Answer::Post { say, text })
            | (Ask::Defence, Answer::Defence { say, text })
            | (Ask::LastWord, Answer::LastWord { say, text }) => Answered::Publication(say, text),
            (Ask::Vote, Answer::Vote { vote }) => Answered::Vote(vote),
            (Ask::Revise, Answer::Revise { vote }) => Answered::Revise(vote),
            (Ask::Runoff(_), Answer::Runoff { choice }) => Answered::Seat(choice),
            (Ask::HangBoth(_), Answer::HangBoth { hang }) => Answered::Hang(hang),
            (Ask::Night, Answer::Night { moves }) | (Ask::Proxy(_), Answer::Proxy { moves }) => Answered::Night(moves),
            (Ask::Appoint(_), Answer::Appoint { role }) => Answered::Appoint(role),
            (Ask::SecretVote, Answer::SecretVote { target }) => Answered::SecretVote(target),
            _ => return None,
        })
    }
}

/// What a seat learns when its game ends: the outcome and every seat's
/// role (all roles are announced at the end of a forum game). Sent to
/// external agents (the protocol's `end` message); learning agents read
/// their reward from `won`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Ending {
    /// The winning camp; `null` for a draw (C3, E2).
    pub winner: Option<Camp>,
    /// Why it ended.
    pub cause: EndCause,
    /// The last day reached.
    pub days: u16,
    /// Whether this seat's camp won (`false` for a draw and for the
    /// [`Ending`] of a whole game).
    pub won: bool,
    /// Every seat's dealt role, by seat (seat 1 first).
    pub roles: Vec<Role>,
    /// The players alive at the end.
    pub survivors: PlayerSet,
}

impl Ending {
    /// The ending of a finished game, as `seat` learns it (`None`: the
    /// game's own, with `won` false).
    pub fn of(outcome: &crate::Outcome, roles: &[Role], seat: Option<Seat>) -> Ending {
        let won = match (seat, outcome.winner) {
            (Some(s), Some(w)) => roles.get(s.index()).is_some_and(|r| r.camp() == w),
            _ => false,
        };
        Ending {
            winner: outcome.winner,
            cause: outcome.cause,
            days: outcome.days,
            won,
            roles: roles.to_vec(),
            survivors: outcome.survivors,
        }
    }
}

impl MoveOptions {
    /// Whether `first` (and `second`) are legal for this move: no target is
    /// always legal (the move is not made); a two-target move needs both.
    pub fn admits(&self, first: Option<Seat>, second: Option<Seat>) -> bool {
        match (first, second) {
            (None, None) => true,
            (None, Some(_)) => false,
            (Some(t), second) => {
                if !self.targets.contains(t) {
                    return false;
                }
                match (self.second.iter().find(|o| o.first == t), second) {
                    (Some(o), Some(u)) => o.options.contains(u),
                    (None, None) => self.second.is_empty(),
                    _ => false,
                }
            }
        }
    }
}

impl Request {
    /// Whether `answer` answers this request with options it lists: the
    /// check an agent outside the process is held to before its answer
    /// reaches the engine (the engine checks again; see [`Answer::to`]).
    /// Publications may claim anything (a claim may be false) but speak
    /// only about seats of the game.
    pub fn admits(&self, answer: &Answer) -> bool {
        let speech = |options: &SpeechOptions, say: &Publication| {
            say.camps.iter().chain([&say.accuse]).all(|s| s.minus(options.about).is_empty())
        };
        let vote = |options: PlayerSet, v: Vote| match v {
            Vote::Pass => true,
            Vote::For(t) => options.contains(t),
        };
        let within = |set: Option<PlayerSet>, pick: Option<Seat>| match pick {
            None => true,
            Some(t) => set.is_some_and(|s| s.contains(t)),
        };
        match (self, answer) {
            (Request::Start, Answer::Ready) => true,
            (Request::Post { options }, Answer::Post { say, .. })
            | (Request::Defence { options }, Answer::Defence { say, .. })
            | (Request::LastWord { options }, Answer::LastWord { say, .. }) => speech(options, say),
            (Request::Vote { options }, Answer::Vote { vote: v }) => vote(*options, *v),
            (Request::Revise { options, .. }, Answer::Revise { vote: v }) => v.is_none_or(|v| vote(*options, v)),
            (Request::Runoff { options }, Answer::Runoff { choice }) => options.contains(*choice),
            (Request::HangBoth { .. }, Answer::HangBoth { .. }) => true,
            (Request::Night { options }, Answer::Night { moves }) => {
                let act = match moves.borrow {
                    Some(role) => options.borrow.iter().find(|b| b.role == role).map(|b| &b.act),
                    None => options.act.as_ref(),
                };
                let act_ok = match act {
                    Some(m) => m.admits(moves.act, moves.second),
                    None => moves.act.is_none() && moves.second.is_none() && moves.borrow.is_none(),
                };
                act_ok
                    && within(options.kill, moves.kill)
                    && within(options.search, moves.search)
                    && (!moves.defer || options.defer)
            }
            (Request::Proxy { act, .. }, Answer::Proxy { moves }) => {
                act.admits(moves.act, moves.second)
                    && moves.kill.is_none()
                    && moves.search.is_none()
                    && moves.borrow.is_none()
                    && !moves.defer
            }
            (Request::Appoint { vacant }, Answer::Appoint { role }) => role.is_none_or(|r| vacant.contains(r)),
            (Request::SecretVote { options, .. }, Answer::SecretVote { target }) => within(Some(*options), *target),
            _ => false,
        }
    }
}
