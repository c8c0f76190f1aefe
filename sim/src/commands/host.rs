//! `mafia host`: plays games on demand for a controlling program over
//! stdin/stdout (the agent protocol's host mode, `protocol/README.md`).

use crate::args::{GameArgs, one_job};
use crate::error::Error;
use clap::Args;

#[derive(Args, Debug)]
pub struct HostArgs {
    #[command(flatten)]
    pub game: GameArgs,
}

pub fn cmd_host(a: HostArgs) -> Result<(), Error> {
    let job = one_job(&a.game)?;
    let input = Box::new(std::io::BufReader::new(std::io::stdin()));
    let output = Box::new(std::io::LineWriter::new(std::io::stdout()));
    mafia_protocol::host::serve(&job.game, &job.lineup, input, output).map_err(|e| Error::Agents(e.to_string()))
}
