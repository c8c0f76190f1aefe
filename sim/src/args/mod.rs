//! The argument types several commands share, and what they make: the
//! checked jobs of a setup, rules and agents (`game.rs`), the options of
//! the comparison commands (`pair.rs`), and the points of a grid
//! (`points.rs`).

mod game;
mod pair;
mod points;

pub use game::{
    ExtArgs, GameArgs, apply_rules, check_game, check_threads, jobs, load, load_with, one_job, register_ext,
    threads_for,
};
pub use pair::{PairArgs, check_out_path, check_run, claim_out};
pub use points::make_points;
