//! The options of the commands that compare lineups or variants on the same
//! games (`duel`, `league`, `moves`, `best-response`, `compare`,
//! `balance`), and the checks of an output path.

use super::check_threads;
use crate::error::Error;
use crate::output::out_format;
use clap::Args;
use std::path::{Path, PathBuf};

/// Output options shared by the comparison commands.
#[derive(Args, Debug, Clone)]
pub struct PairArgs {
    /// Master seed: every variant plays the same seeded games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Index of the first game.
    #[arg(long, value_name = "I", default_value_t = 0)]
    pub first_game: u64,
    /// Worker threads (0 = every core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Write the table (.parquet or .csv); further tables go beside it.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Checks `--out` before any game is played.
pub fn check_out(out: &Option<PathBuf>) -> Result<(), Error> {
    out.as_deref().map_or(Ok(()), check_out_path)
}

/// Checks a table file's name and folder before any game is played, so a
/// bad name costs nothing.
pub fn check_out_path(p: &Path) -> Result<(), Error> {
    out_format(p).map_err(Error::Invalid)?;
    // Found before any game, not when the tables are written after the run (issue 35).
    if p.is_dir() {
        return Err(Error::Invalid(format!("{} is a folder: give the path of a file to write", p.display())));
    }
    if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty() && !d.is_dir()) {
        return Err(Error::Invalid(format!("{}: folder {} does not exist", p.display(), dir.display())));
    }
    Ok(())
}

/// The parts of the tables any command writes beside `--out`
/// (`<stem>.<part>.<ext>`), claimed with it.
const OUT_PARTS: &[&str] = &["roles", "days", "faults", "replies", "candidates", "play", "standings"];

/// Checks `--out` and claims it and the counts file (`--counts`) before any
/// game is played: no two on one file, none that another live run is
/// writing (see [`crate::output::claim`]). Hold the claim until the end.
pub fn claim_out(out: &Option<PathBuf>, counts: Option<&Path>) -> Result<crate::output::Claim, Error> {
    check_out(out)?;
    crate::output::claim(&[
        out.as_deref().map(|p| crate::output::Output::tables("--out", p, OUT_PARTS)),
        counts.map(|p| crate::output::Output::file("--counts", p)),
    ])
}

/// Checks the threads and game range of a comparison, and claims its
/// output, before any game is played.
pub fn check_run(p: &PairArgs, games: u64) -> Result<crate::output::Claim, Error> {
    check_threads(p.threads)?;
    if p.first_game.checked_add(games).is_none() {
        return Err(Error::Invalid(format!(
            "--first-game {} with --games {games}: past the last game index",
            p.first_game
        )));
    }
    claim_out(&p.out, None)
}
