//! What the clause tests share: questions about a game's event log.

use mafia_engine::{DeathCause, Event, LynchResult, Seat};

/// Anything that recorded a log: a table of scripted players, a resolved night.
pub trait Logged {
    fn events(&self) -> &[Event];

    fn has(&self, e: Event) -> bool {
        self.events().contains(&e)
    }
    fn count(&self, what: impl Fn(&Event) -> bool) -> usize {
        self.events().iter().filter(|e| what(e)).count()
    }
    fn index_of(&self, e: Event) -> usize {
        self.events()
            .iter()
            .position(|x| *x == e)
            .unwrap_or_else(|| panic!("{e:?} not in the log {:#?}", self.events()))
    }
    /// Who left, in order, and how.
    fn deaths(&self) -> Vec<(Seat, DeathCause)> {
        self.events()
            .iter()
            .filter_map(|e| match *e {
                Event::Died { seat, cause, .. } => Some((seat, cause)),
                _ => None,
            })
            .collect()
    }
    /// The lynch results, in order.
    fn lynches(&self) -> Vec<LynchResult> {
        self.events()
            .iter()
            .filter_map(|e| match *e {
                Event::Lynch(r) => Some(r),
                _ => None,
            })
            .collect()
    }
}

/// Seat `i`, counted from 0 as the engine counts (`seat(0)` is P1): the
/// scripted tests name hundreds of seats.
#[allow(dead_code)] // not every test file that shares this module names seats
pub fn seat(i: u8) -> Seat {
    Seat::new(i)
}
