//! `mafia encoding`: the observation tensor and the action space of a
//! setup's games as JSON (`Encoding` in the schema) — every block with its
//! offset, width and meaning, every feature's name, and what each action
//! means per decision part. Defined once in `engine/src/encode.rs`; the
//! in-process environments (issue 36) read it rather than rebuild it.

use crate::args::{check_game, load};
use crate::error::Error;
use clap::Args;
use std::io::Write;

#[derive(Args, Debug)]
pub struct EncodingArgs {
    /// The setup (a preset or a file): the encodings depend on its number of players.
    #[arg(long, value_name = "NAME|FILE", default_value = "classic")]
    pub setup: String,
}

pub fn cmd_encoding(a: EncodingArgs) -> Result<(), Error> {
    let game = check_game(&load(&a.setup, None)?.setup)?;
    let e = mafia_engine::encode::Layout::new(game.players()).describe();
    let text = serde_json::to_string_pretty(&e).expect("an encoding is JSON");
    writeln!(std::io::stdout().lock(), "{text}")?;
    Ok(())
}
