//! The rules engine of Mafia Lab.
//!
//! Pure: no I/O, no owned random generator, no threads, no allocation on the
//! hot path. Randomness comes in as `&mut impl Rng` parameters (the deal, the
//! host's tie-break draws, the activity model), so the caller decides where
//! every draw comes from. Players are asked through the [`Players`] trait and
//! see only an [`Observation`].
//!
//! Clauses of `rules/classic.md` are cited as `C1`…`C19` and those of
//! `rules/extended.md` as `E1`…`E32` in comments and tests.
//!
//! # Example: play a game
//!
//! A [`Game`] is a checked setup; [`play`] deals it and asks a [`Players`]
//! for every decision, drawing chance from the streams in a [`Chance`]. Here
//! every seat passes by day and stays home by night, so on `classic` the
//! mafia never kill and C8's three quiet nights give the town the game.
//! (The built-in strategies live in the `mafia-agents` crate.)
//!
//! ```
//! use mafia_engine::{
//!     Camp, Chance, EndCause, Game, NightChoice, NightMoves, NoLog, Observation, PlayerSet, Players, Preset,
//!     Publication, Seat, State, Vote, play,
//! };
//! use rand::SeedableRng;
//! use rand_chacha::ChaCha8Rng;
//!
//! struct Pacifists;
//!
//! impl Players for Pacifists {
//!     fn new_game(&mut self, _obs: &Observation<'_>) {}
//!     fn post(&mut self, _obs: &Observation<'_>) -> Publication {
//!         Publication::NONE
//!     }
//!     fn vote(&mut self, _obs: &Observation<'_>) -> Vote {
//!         Vote::Pass
//!     }
//!     fn revise(&mut self, _obs: &Observation<'_>) -> Option<Vote> {
//!         None
//!     }
//!     fn runoff(&mut self, _obs: &Observation<'_>, candidates: PlayerSet) -> Seat {
//!         candidates.lowest().expect("a runoff has candidates")
//!     }
//!     fn hang_both(&mut self, _obs: &Observation<'_>, _pair: PlayerSet) -> bool {
//!         false
//!     }
//!     fn night(&mut self, _obs: &Observation<'_>) -> NightChoice {
//!         NightChoice::default()
//!     }
//!     fn last_word(&mut self, _obs: &Observation<'_>) -> Publication {
//!         Publication::NONE
//!     }
//! }
//!
//! let game = Game::new(&Preset::find("classic").unwrap().setup()).unwrap();
//! // One seeded stream per purpose: the deal, the host's draws, absences.
//! let (mut deal, mut host, mut activity) =
//!     (ChaCha8Rng::seed_from_u64(1), ChaCha8Rng::seed_from_u64(2), ChaCha8Rng::seed_from_u64(3));
//! let (mut state, mut moves) = (State::default(), NightMoves::default());
//! let chance = Chance { deal: &mut deal, host: &mut host, activity: &mut activity };
//! let outcome = play(&game, &mut state, &mut moves, &mut Pacifists, chance, &mut NoLog);
//! assert_eq!(outcome.cause, EndCause::NoKillRule);
//! assert_eq!(outcome.winner, Some(Camp::Town));
//! assert_eq!(outcome.survivors.len(), 10);
//! ```

#![warn(missing_docs)]

mod day;
mod decide;
pub mod encode;
mod event;
mod json;
mod night;
mod position;
mod role;
mod rules;
mod scenario;
mod seat;
mod setup;
mod speech;
mod state;
mod util;
mod view;

pub use decide::{NightChoice, Players};
pub use event::{DeathCause, EndCause, Event, Fail, Killer, Log, LynchResult, MissReason, NoLog, Report, Status};
pub use night::{Move, MoveError, NIGHT_ORDER, NightMoves, NightResult, NightStep};
pub use position::{Check, DayVote, Position, SAMPLE_TRIES, Start, death_bounds};
pub use role::{AbilityInfo, Camp, NightAbility, ROLE_INFO, Role, RoleInfo, RoleSet, RuleSet, Targets};
pub use rules::{
    CampKill, LynchLimit, MafiaWin, NoKillLimit, RULE_KEYS, RepeatTarget, Resolution, RuleError, RuleKey, Rules,
    RunoffAllTied, RunoffMarks, ThiefAtPsycho, TieBreak,
};
pub use scenario::{Carry, CarryOver, Scenario, ScenarioError, resolve_scenario};
pub use seat::{MAX_PLAYERS, PlayerSet, Seat, SeatIter};
pub use setup::{Game, PRESETS, Preset, Setup, SetupError, SetupProblem};
pub use speech::{Publication, Vote};
pub use state::{CheckOutcome, End, Observation, Phase, RoleSeats, State};
pub use util::{below, pick, shuffle};
pub use view::{
    Answer, Answered, Ask, BorrowOption, Ending, Mate, MoveOptions, NightOptions, Private, PublicSetup, Request,
    RoleCount, SecondOptions, SpeechOptions, View,
};

use rand::Rng;

/// The randomness one game needs from its caller, by purpose. Separate
/// streams keep common random numbers: a rule that changes how often the
/// host draws does not shift the deal or anybody's activity draws.
pub struct Chance<'a, D: ?Sized, H: ?Sized, A: ?Sized> {
    /// C1: the deal.
    pub deal: &'a mut D,
    /// The host's draws (C12 `tie_break = random`).
    pub host: &'a mut H,
    /// C15/C16: modkills and absences.
    pub activity: &'a mut A,
}

/// A game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The camp that won (`None`: a draw, C3 or E2).
    pub winner: Option<Camp>,
    /// Why the game ended.
    pub cause: EndCause,
    /// The last day reached (C3: day 1, night 1, day 2, …).
    pub days: u16,
    /// The players alive at the end.
    pub survivors: PlayerSet,
    /// Answers the engine refused (counted, never silently fixed).
    pub illegal_decisions: u32,
    /// What the players did, counted for the behaviour columns.
    pub stats: Stats,
}

/// Counts of one game that show how it was played: whom the lynches and the
/// night kills hit, how often protection saved somebody, how the
/// information roles fared and what was claimed. Kept by the engine at a
/// few increments a game, so every run has them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Players lynched (C11, C12; the mine's victims excluded), by camp.
    pub lynched: [u8; Camp::COUNT],
    /// Players killed at night (C4, E8, E20, E23, E24), by camp.
    pub killed: [u8; Camp::COUNT],
    /// Kills stopped by a heal or the Guard, and guests healed (E10, E15, E23, E24).
    pub saves: u8,
    /// Town information roles (Commissar, Detective) who publicly claimed
    /// their role: reveals (each player counted once per role claimed).
    pub reveals: u8,
    /// Claims of a role the speaker does not hold (each counted once).
    pub false_claims: u8,
    /// Nights the town's information roles lived through, summed over them.
    pub info_nights: u16,
}

/// Plays one whole game: deal (C1), the conference (C2), then days and
/// nights (C3) until an end (C8, C17–C19, C3's day cap). `state` and `moves`
/// are scratch space the caller reuses across games.
pub fn play<P, D, H, A, L>(
    game: &Game,
    state: &mut State,
    moves: &mut NightMoves,
    players: &mut P,
    chance: Chance<'_, D, H, A>,
    log: &mut L,
) -> Outcome
where
    P: Players,
    D: Rng + ?Sized,
    H: Rng + ?Sized,
    A: Rng + ?Sized,
    L: Log,
{
    state.deal(game, chance.deal);
    play_dealt(game, state, moves, players, chance.host, chance.activity, log)
}

/// Plays a game whose roles are already set in `state` (see [`State::deal`]
/// and [`State::set_roles`]).
pub fn play_dealt<P, H, A, L>(
    game: &Game,
    state: &mut State,
    moves: &mut NightMoves,
    players: &mut P,
    host: &mut H,
    activity: &mut A,
    log: &mut L,
) -> Outcome
where
    P: Players,
    H: Rng + ?Sized,
    A: Rng + ?Sized,
    L: Log,
{
    play_on(game, state, moves, players, host, activity, log)
}

/// Plays a game on from the position `start` (see [`Position`]): deals the
/// roles it leaves unknown from `chance.deal` ([`Start::sample`]; with
/// nothing known, exactly the deal [`play`] makes), sets the state up, and
/// plays to the end as [`play_on`]. `None` if no deal fitting the
/// position's knowledge came up in [`SAMPLE_TRIES`] draws.
pub fn play_from<P, D, H, A, L>(
    start: &Start,
    state: &mut State,
    moves: &mut NightMoves,
    players: &mut P,
    chance: Chance<'_, D, H, A>,
    log: &mut L,
) -> Option<Outcome>
where
    P: Players,
    D: Rng + ?Sized,
    H: Rng + ?Sized,
    A: Rng + ?Sized,
    L: Log,
{
    let game = start.game();
    let mut roles = [Role::Citizen; MAX_PLAYERS];
    let roles = &mut roles[..game.players()];
    if !start.sample(chance.deal, roles) {
        return None;
    }
    start.set_up(state, roles);
    Some(play_on(game, state, moves, players, chance.host, chance.activity, log))
}

/// Plays on from the state as it stands (a fresh deal at day 1, or a
/// position set up by [`Start::set_up`]) to the end: every seat learns what
/// its observation holds (`Players::new_game`: its role, C2's mates, its
/// checks), then days and nights follow from the state's phase (C3). A
/// state already over by the numbers ends at once (C17–C19).
pub fn play_on<P, H, A, L>(
    game: &Game,
    state: &mut State,
    moves: &mut NightMoves,
    players: &mut P,
    host: &mut H,
    activity: &mut A,
    log: &mut L,
) -> Outcome
where
    P: Players,
    H: Rng + ?Sized,
    A: Rng + ?Sized,
    L: Log,
{
    if L::ENABLED {
        for (s, &role) in state.roles().iter().enumerate() {
            log.push(Event::Deal { seat: Seat::from_index(s), role });
        }
    }
    // C2: everybody learns his role; the mafia hold their conference.
    for s in Seat::all(state.players()) {
        players.new_game(&state.observe(s));
    }
    state.talkers = PlayerSet::first(state.players());
    for s in Seat::all(state.players()) {
        if players.quiet(s) {
            state.talkers.remove(s);
        }
    }
    let (mut day, mut night_first) = match state.phase() {
        Phase::Day(d) => (d, false),
        Phase::Night(d) => (d, true),
    };
    let end = match state.end_check(game.mafia_win) {
        // A position may be over already (a fresh deal never is: `Game::new`).
        Some(end) => state.finish(end, log),
        None => loop {
            if !night_first && let Some(end) = state.run_day(game, day, players, host, activity, log) {
                break end;
            }
            night_first = false;
            if let Some(end) = state.run_night(game, day, players, moves, activity, log) {
                break end;
            }
            day += 1;
        },
    };
    Outcome {
        winner: end.winner,
        cause: end.cause,
        days: state.day(),
        survivors: state.alive(),
        illegal_decisions: state.illegal_decisions(),
        stats: state.stats,
    }
}
