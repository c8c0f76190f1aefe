//! `mafia`: the command-line shell over the Mafia Lab crates.

use clap::Parser;
use mafia_sim::{Cli, Error, dispatch};

fn main() {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // clap prints help/version with exit 0 and usage errors with exit 2.
            e.exit()
        }
    };
    if let Err(e) = dispatch(cli) {
        match e {
            // The invariant checkers' report is printed as it is.
            Error::Violations(_) => eprintln!("{e}"),
            _ => eprintln!("error: {e}"),
        }
        std::process::exit(e.exit_code());
    }
}
