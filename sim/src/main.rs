//! `mafia`: the command-line shell over the Mafia Lab crates.

use clap::Parser;
use mafia_sim::cli::{Cli, main_with};

fn main() {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // clap prints help/version with exit 0 and usage errors with exit 2.
            e.exit()
        }
    };
    if let Err(e) = main_with(cli) {
        eprintln!("error: {}", e.0);
        std::process::exit(2);
    }
}
