//! The agent interface: one agent plays one seat, sees only that seat's
//! [`Observation`], and draws its randomness from its own seat stream.

use crate::streams::Stream;
use mafia_engine::{Ending, Event, NightChoice, Observation, PlayerSet, Publication, Role, RoleSet, Seat, Vote};

/// What an agent gets besides the observation: its own random stream and,
/// for a camp whose members agreed on a plan before the game (C2), the
/// camp's shared stream. All members start each phase from the same shared
/// position, so members with the same strategy draw the same numbers —
/// that is how pre-agreed coordination is modelled without a private channel.
pub struct Cx<'a> {
    /// The agent's own stream (its seat's).
    pub rng: &'a mut Stream,
    /// The camp's shared stream, for camps that agreed a plan (C2).
    pub shared: Option<&'a mut Stream>,
    /// What a plugin may read and write beyond the observation (the game's
    /// log and talk); `None` for the built-in strategies, whose games keep
    /// no log.
    pub io: Option<Io<'a>>,
}

/// A plugin's access to the game beyond its observation.
pub struct Io<'a> {
    /// The game's event log so far, for agents that read the owned view
    /// ([`crate::DataAgent`]). Never hand it to a strategy unfiltered: build
    /// a [`mafia_engine::View`], which keeps only what the seat has seen.
    pub record: &'a [Event],
    /// The game's free-text lines (`Publication::text` indexes them).
    pub talk: &'a mut Vec<String>,
    /// The game's index in its run (an agent in another process plays
    /// many games at once and names them by it).
    pub game: u64,
}

/// A strategy for one seat. Object-safe, so researchers can plug in their
/// own (`Box<dyn Agent>`); the built-in ones are dispatched statically.
///
/// Every method gets the observation of the agent's own seat. An answer the
/// rules do not allow is refused by the engine and counted in the results
/// (the `illegal` column), never silently fixed.
pub trait Agent: Send {
    /// A new game: the agent's role is known; mafia agents may read the
    /// conference plan from `cx.shared`. Reset all per-game memory here.
    fn new_game(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>);
    /// Whether this agent is *quiet* this game (asked once, after
    /// [`Agent::new_game`]): it never posts, never changes its vote, never
    /// defends and says nothing in its last word, so the engine skips those
    /// questions. Default: not quiet.
    fn quiet(&self) -> bool {
        false
    }
    /// The day post (claims and published checks). Default: says nothing.
    fn post(&mut self, _obs: &Observation<'_>, _cx: &mut Cx<'_>) -> Publication {
        Publication::NONE
    }
    /// The first vote of the day.
    fn vote(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> Vote;
    /// The one change of vote; `None` keeps it. Default: keeps it.
    fn revise(&mut self, _obs: &Observation<'_>, _cx: &mut Cx<'_>) -> Option<Vote> {
        None
    }
    /// A defence before a runoff. Default: says nothing.
    fn defence(&mut self, _obs: &Observation<'_>, _cx: &mut Cx<'_>) -> Publication {
        Publication::NONE
    }
    /// A runoff vote: one of `candidates`.
    fn runoff(&mut self, obs: &Observation<'_>, candidates: PlayerSet, cx: &mut Cx<'_>) -> Seat;
    /// Hang both (`true`) or pardon both.
    fn hang_both(&mut self, obs: &Observation<'_>, pair: PlayerSet, cx: &mut Cx<'_>) -> bool;
    /// Night moves: the kill nick (shooters) and the role move's target.
    fn night(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> NightChoice;
    /// E7 (Boss only): a move on behalf of camp mate `member`, who sent no
    /// role move tonight; see `Observation::mate_ability`/`mate_targets`.
    /// Default: none.
    fn proxy(&mut self, _obs: &Observation<'_>, _member: Seat, _cx: &mut Cx<'_>) -> NightChoice {
        NightChoice::default()
    }
    /// E12 (the Boss, or the Actor once the Boss is dead): which of the
    /// `vacant` mafia roles the Actor takes from tonight; `None` waits.
    /// Default: the best-ranked vacancy (E8's rank).
    fn appoint(&mut self, _obs: &Observation<'_>, vacant: RoleSet, _cx: &mut Cx<'_>) -> Option<Role> {
        vacant.best_ranked()
    }
    /// E16/E19 (the Chosen, or the Role Prostitute who borrowed him): whom
    /// the secret votes go to; `None` gives them with the open vote.
    /// Default: `None`.
    fn secret_vote(&mut self, _obs: &Observation<'_>, _cx: &mut Cx<'_>) -> Option<Seat> {
        None
    }
    /// The last word. Default: says nothing.
    fn last_word(&mut self, _obs: &Observation<'_>, _cx: &mut Cx<'_>) -> Publication {
        Publication::NONE
    }
    /// The game is over: what the seat learns at the end (every role, the
    /// winner). Called for plugins only (the built-in strategies learn
    /// nothing across games). Default: nothing.
    fn end(&mut self, _obs: &Observation<'_>, _ending: &Ending, _cx: &mut Cx<'_>) {}
    /// Whether this agent gave up the game just played (an external agent
    /// whose fault policy is `forfeit`): the runner counts the game apart.
    fn forfeited(&self) -> bool {
        false
    }
    /// The illegal answers this agent gave in the game just played, each
    /// replaced by a legal fallback before the engine saw it (an external
    /// agent's): the runner adds them to the game's `illegal` count.
    fn illegal_answers(&self) -> u32 {
        0
    }
    /// The decisions of the game just played that this agent's fallback
    /// answered instead of it (an external agent's faults and forfeited
    /// rest): the per-game rows' `replaced` column.
    fn replaced_answers(&self) -> u32 {
        0
    }
}
