//! The engine room: the streaming runner (`run`, `--games-out`), the
//! executor (points and pairs on the same games, checkpoints, stopping
//! rules, interrupts), paired play of lineups on one game (`duel`, `league`,
//! `moves`, `best-response`), and the points of a grid with their precision
//! rule. Imports `stats`, `output`, `grid` and `error` of `sim`.

mod executor;
mod interrupt;
pub mod paired;
mod points;
mod runner;
mod watch;

pub use executor::{Counts, Exec, Finish, Violations, execute, execute_from};
pub use interrupt::{install_interrupt_handler, install_quit_handler, interrupted};
pub use points::{Budget, Point, Points, point_camps, precision_rule};
pub use runner::{CHUNK, EXT_CHUNK, Job, RunOutput, RunSpec, run, thread_count};
pub use watch::{OnBlock, Progress, Watch, watched};
