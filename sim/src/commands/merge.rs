//! `mafia merge FILE…`: joins the counts files of a sharded run (`--shard
//! K/N --counts FILE`) into the tables of the whole run, with the very code
//! the command uses (its renderer), so they are the single run's, byte for
//! byte.

use crate::error::Error;
use crate::exec::Finish;
use crate::shard::{self, Plan};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The counts files of the shards (any order).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Write the tables (.parquet or .csv), as the command itself would with --out.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Also write the merged counts to FILE (a counts file of the whole run).
    #[arg(long, value_name = "FILE")]
    pub counts: Option<PathBuf>,
    /// Largest share of an external agent's decisions that may fault (0 to 1), over the merged shards; past it merge fails (exit 1) after writing its outputs, as `run` does.
    #[arg(long, value_name = "RATE", default_value_t = 0.01)]
    pub ext_max_faults: f64,
    /// Most games an external agent may forfeit over the merged shards; past it merge fails (exit 1) after writing its outputs, as `run` does.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub ext_max_forfeits: u64,
}

pub fn cmd_merge(a: MergeArgs) -> Result<(), Error> {
    let _claim = crate::args::claim_out(&a.out, a.counts.as_deref())?;
    // The limits `run` applies to its agents' faults, applied to the merged
    // shards' (issue 35): a merge must not pass what the single run fails.
    if !(0.0..=1.0).contains(&a.ext_max_faults) {
        return Err(Error::Invalid(format!(
            "--ext-max-faults {}: give a share of the decisions, from 0 to 1",
            a.ext_max_faults
        )));
    }
    let limits =
        crate::output::FaultLimits { max_rate: a.ext_max_faults, max_forfeits: a.ext_max_forfeits, log_dir: None };
    let mut files = Vec::with_capacity(a.files.len());
    for p in &a.files {
        files.push((p.clone(), shard::read(p)?));
    }
    let total = shard::merge_files(&files)?;
    eprintln!(
        "merged {} counts file{} of `mafia {}`: games {}..{} of seed {}",
        files.len(),
        if files.len() == 1 { "" } else { "s" },
        total.plan.command(),
        total.first,
        total.first + total.games,
        total.seed
    );
    let mut counts_written = Ok(());
    if let Some(p) = &a.counts {
        if p.exists() {
            return Err(Error::Invalid(format!(
                "--counts {}: the file exists; give a new name (merge never overwrites counts)",
                p.display()
            )));
        }
        let text = shard::encode(&total).map_err(Error::Counts)?;
        // Tried whatever the tables do, and they whatever it does (issue 35).
        counts_written = crate::output::write_atomic(p, text.as_bytes()).map_err(Error::Io);
        if counts_written.is_ok() {
            eprintln!("wrote {}", p.display());
        }
    }
    let finish = match total.state {
        shard::State::Stopped => Finish::Stopped,
        _ => Finish::Complete,
    };
    let rendered = match &total.plan {
        Plan::Run(plan) => crate::commands::run::render_run(plan, &total.counts, &total.faults, a.out.as_deref()),
        Plan::Experiment(plan) => crate::commands::experiment::render_experiment(
            plan,
            total.seed,
            &total.counts,
            &total.faults,
            finish,
            &a.out,
        ),
        Plan::Compare(plan) => {
            crate::commands::compare::render_compare(plan, total.seed, &total.counts, &total.faults, finish, &a.out)
        }
    };
    // Every output tried, then the fault limits (issue 35).
    Error::all([counts_written, rendered, crate::output::check_faults(&total.faults, &limits)])
}
