//! Independent invariant checkers for Mafia Lab games.
//!
//! Each checker re-reads one finished game — its [`Game`], its complete
//! event log and its [`Outcome`] — against the rules, event by event, with
//! its own bookkeeping (living set, votes, tallies, statuses, carries and
//! counts). It never asks the engine what is legal, so a bug in the engine's
//! rules shows as a refused log. An `Err` is one line naming the event
//! index, the event and the broken clause (`C1`…`C19` of `rules/classic.md`,
//! `E1`…`E32` of `rules/extended.md`).
//!
//! - [`classic`]: the classic checker, C1–C19, for games without extended
//!   roles;
//! - [`extended`]: the extended checker, E1–E32 and the classic clauses that
//!   carry over, for games with any extended role (it reads games of either
//!   rule set, and games that mix them).
//!
//! # Which checker applies
//!
//! [`check_game`] and [`Checker::check`] choose with [`classic_applies`]:
//! - a game whose setup deals no role of the extended set (only the Don,
//!   the Commissar, mafiosi and citizens, [`Game::is_extended`] false) goes
//!   to the classic checker,
//! - unless its camp kill is decided by the leader (`camp_kill = leader`,
//!   [`Game::leader_kill`]): that is E8's rule, which the classic checker
//!   does not read (it restates C4: every living shooter names the same
//!   target), so such a game goes to the extended checker;
//! - every game with at least one extended role — including a setup that
//!   mixes extended roles with classic ones or plain players — goes to the
//!   extended checker.
//!
//! The extended checker reads classic games too (the extended test suite
//! draws its setups from all 24 roles, and some draws are classic-only),
//! but the classic one checks the runoff (C12: its rounds, tallies, the
//! hang-both count and the results) in more detail, so it is kept for the
//! games it reads.
//!
//! # What the caller must pass
//!
//! The log of exactly one whole game, as the normal game loop writes it: a
//! `Vec<Event>`, cleared before the game, passed as the log sink to
//! `mafia_agents::Worker::play` (or to the engine's [`mafia_engine::play`]),
//! together with the same `Game` and the `Outcome` that call returned. The
//! log must start with the deal (one `Deal` per seat, in seat order) and end
//! with `GameEnd`. Anything else is refused: a game played on from a
//! position past day 1's start (`play_from`), a log filtered or cut short,
//! the events of several games in one log.
//! A game with an illegal decision (an `Illegal` event, or
//! `Outcome::illegal_decisions > 0`) is refused too: the checkers are meant
//! for the built-in agents, which never make one.
//!
//! # Example
//!
//! Checking every game of a run, with one [`Checker`] per thread (`play`
//! stands for the game loop, e.g. `|i, log| worker.play(&game, i, log)`):
//!
//! ```
//! use mafia_engine::{Event, Game, Outcome};
//!
//! fn check_all(game: &Game, games: u64, mut play: impl FnMut(u64, &mut Vec<Event>) -> Outcome) -> Result<(), String> {
//!     let mut checker = mafia_check::Checker::new();
//!     let mut log = Vec::new();
//!     for i in 0..games {
//!         log.clear();
//!         let out = play(i, &mut log);
//!         checker.check(game, &log, &out).map_err(|e| format!("game {i}: {e}\n{}", mafia_check::dump(&log)))?;
//!     }
//!     Ok(())
//! }
//! ```
//!
//! # Example: check a game
//!
//! ```
//! use mafia_agents::{Lineup, Worker, master_key};
//! use mafia_check::Checker;
//! use mafia_engine::{Event, Game, Preset};
//!
//! let game = Game::new(&Preset::find("extended").unwrap().setup()).unwrap();
//! let mut worker = Worker::new(Lineup::for_preset("extended"), master_key(1));
//! let mut checker = Checker::new();
//! let mut log: Vec<Event> = Vec::new();
//! for i in 0..50 {
//!     log.clear();
//!     let outcome = worker.play(&game, i, &mut log);
//!     checker.check(&game, &log, &outcome).expect("the engine keeps the rules");
//! }
//! ```

// `is_multiple_of` and let chains are newer than the workspace's
// rust-version (1.85).
#![allow(clippy::manual_is_multiple_of, clippy::collapsible_if)]
#![warn(missing_docs)]

use mafia_engine::{Event, Game, MAX_PLAYERS, Outcome, Role};
use std::fmt::Write as _;

pub mod classic;
pub mod extended;

/// `Err(message)` unless `cond` holds.
macro_rules! ensure {
    ($cond:expr, $($arg:tt)*) => {
        if !$cond {
            return Err(format!($($arg)*));
        }
    };
}
pub(crate) use ensure;

/// The phase a checker is in, as the log's `DayStart` and `NightStart`
/// events set it (`Start` before day 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cur {
    /// Before day 1.
    Start,
    /// Day `d`, from its `DayStart`.
    Day(u16),
    /// Night `n`, from its `NightStart`.
    Night(u16),
}

/// C1: the log starts with the deal, one role per seat, the setup's
/// multiset. Returns the roles by seat (the first `game.players()` of the
/// array; no allocation unless the deal is refused).
fn read_deal(game: &Game, log: &[Event]) -> Result<[Role; MAX_PLAYERS], String> {
    let n = game.players();
    ensure!(log.len() > n, "log too short ({} events)", log.len());
    let mut roles = [Role::Citizen; MAX_PLAYERS];
    for (i, e) in log[..n].iter().enumerate() {
        match *e {
            Event::Deal { seat, role } if seat.index() == i => roles[i] = role,
            other => return Err(format!("event {i}: expected Deal for seat {i}, got {other:?}")),
        }
    }
    // The same multiset: as many of each role dealt as listed.
    let mut count = [0i32; Role::COUNT];
    for &r in &roles[..n] {
        count[r as usize] += 1;
    }
    for &r in game.role_list() {
        count[r as usize] -= 1;
    }
    if count.iter().any(|&c| c != 0) {
        let mut dealt = roles[..n].to_vec();
        dealt.sort();
        let mut listed = game.role_list().to_vec();
        listed.sort();
        return Err(format!("C1: dealt roles {dealt:?} are not the setup's {listed:?}"));
    }
    Ok(roles)
}

/// Whether the classic checker applies to `game` (else the extended one):
/// no extended role, and the classic C4 camp kill (not `camp_kill =
/// leader`). See the crate docs.
pub fn classic_applies(game: &Game) -> bool {
    !game.is_extended() && !game.leader_kill()
}

/// Which checker applies to a game: the classic one for games without extended roles, else the extended one.
///
/// (A classic-only game under `camp_kill = leader` goes to the extended
/// one too: see [`classic_applies`].) `Err` names the event and the broken
/// clause. To check many games, [`Checker`] keeps its buffers and counts.
pub fn check_game(game: &Game, log: &[Event], out: &Outcome) -> Result<(), String> {
    Checker::new().check(game, log, out)
}

/// A reusable checker: checks game after game with the checker that
/// applies to each (see the crate docs), keeps what the checked games
/// exercised (the coverage counters of both checkers), and reuses its
/// memory, so that checking a game allocates nothing once it has grown
/// (but for a few bytes of rule settings read by name). One per thread.
#[derive(Clone, Debug, Default)]
pub struct Checker {
    classic: classic::Seen,
    extended: extended::Seen,
    buffers: extended::Buffers,
}

impl Checker {
    /// A checker with empty buffers (they grow on the first games).
    pub fn new() -> Checker {
        Checker::default()
    }

    /// Checks one game's log and outcome with the checker that applies to
    /// it. `Err` names the event and the broken clause.
    pub fn check(&mut self, game: &Game, log: &[Event], out: &Outcome) -> Result<(), String> {
        if classic_applies(game) {
            classic::check(game, log, out, &mut self.classic)
        } else {
            extended::check_with(game, log, out, &mut self.extended, &mut self.buffers)
        }
    }

    /// Games checked so far (passed or refused).
    pub fn games(&self) -> u64 {
        self.classic.games + self.extended.games
    }

    /// What the games given to the classic checker exercised.
    pub fn classic(&self) -> &classic::Seen {
        &self.classic
    }

    /// What the games given to the extended checker exercised.
    pub fn extended(&self) -> &extended::Seen {
        &self.extended
    }
}

/// A log as text, one event a line with its index (for failure messages).
pub fn dump(log: &[Event]) -> String {
    let mut s = String::new();
    for (i, e) in log.iter().enumerate() {
        let _ = writeln!(s, "  {i:4}: {e:?}");
    }
    s
}

#[cfg(test)]
mod tests;
