//! The statistics: per-variant tallies and the Wilson interval, paired
//! differences, the checkpoints and precision rule, and the sequential test.
//! Plain arithmetic on counts: imports nothing else of `sim`.

mod paired;
mod precision;
mod sprt;
mod tally;

pub use paired::{Diff, paired_diff};
pub use precision::{Schedule, check_precision, diff_half, wilson_half};
pub use sprt::{Sprt, Verdict};
pub use tally::{Tally, wilson};

use mafia_engine::{Camp, RoleSet};

/// The camps a setup deals roles of.
pub fn camps_dealt(present: RoleSet) -> Vec<Camp> {
    Camp::ALL.into_iter().filter(|&c| present.iter().any(|r| r.camp() == c)).collect()
}
