//! `mafia`: the command-line shell over the Mafia Lab crates.

use clap::Parser;
use mafia_sim::{Cli, Error, dispatch, install_quit_handler};

fn main() {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // clap prints help/version with exit 0 and usage errors with exit 2.
            e.exit()
        }
    };
    // Ctrl-C or SIGTERM at any moment removes the files being written
    // (the commands that play switch it to stopping after a block).
    install_quit_handler();
    if let Err(e) = dispatch(cli) {
        match e {
            // The invariant checkers' report is printed as it is.
            Error::Violations(_) => eprintln!("{e}"),
            _ => eprintln!("error: {e}"),
        }
        std::process::exit(e.exit_code());
    }
}
