//! What the two log checkers (classic `invariants.rs`, extended
//! `extended_invariants.rs`) share; everything else they read on their own.

use mafia_engine::{Event, Game, Role};

/// `Err(message)` unless `cond` holds.
macro_rules! ensure {
    ($cond:expr, $($arg:tt)*) => {
        if !$cond {
            return Err(format!($($arg)*));
        }
    };
}
pub(crate) use ensure;

/// C1: the log starts with the deal, one role per seat, the setup's
/// multiset. Returns the roles by seat.
pub fn read_deal(game: &Game, log: &[Event]) -> Result<Vec<Role>, String> {
    let n = game.players();
    ensure!(log.len() > n, "log too short ({} events)", log.len());
    let mut roles = Vec::with_capacity(n);
    for (i, e) in log[..n].iter().enumerate() {
        match *e {
            Event::Deal { seat, role } if seat as usize == i => roles.push(role),
            other => return Err(format!("event {i}: expected Deal for seat {i}, got {other:?}")),
        }
    }
    let mut dealt = roles.clone();
    dealt.sort();
    let mut listed = game.role_list().to_vec();
    listed.sort();
    ensure!(dealt == listed, "C1: dealt roles {dealt:?} are not the setup's {listed:?}");
    Ok(roles)
}
