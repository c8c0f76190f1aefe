//! The external agents' faults: what a run reports after its tables, kept
//! in counts files so a resumed run and a merge of shards report them whole.

use polars::prelude::*;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::columns::Cols;
use super::files::{out_format, sibling, write_frame};
use super::tables::configure_display;
use crate::error::Error;

/// One external agent command's faults: what a run reports after its
/// tables, and what a counts file keeps (`faults`), so that a resumed run
/// and a merge of shards report them whole.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct AgentFaults {
    /// `ext:COMMAND`.
    pub agent: String,
    /// Decisions asked of it.
    pub requests: u64,
    /// Process starts after the first.
    pub restarts: u64,
    /// The seats that had a fault or a forfeit, by seat.
    pub seats: Vec<SeatFaults>,
}

/// One seat's faults by kind (see `protocol/README.md`) and its forfeits.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct SeatFaults {
    /// The seat, numbered from 1 as the tables number seats.
    pub seat: u32,
    pub timeout: u64,
    pub malformed: u64,
    pub mismatch: u64,
    pub illegal: u64,
    pub crash: u64,
    pub down: u64,
    pub forfeits: u64,
}

impl SeatFaults {
    /// The counts by kind, in `FaultKind::ALL`'s order.
    fn kinds(&self) -> [u64; mafia_protocol::FaultKind::COUNT] {
        [self.timeout, self.malformed, self.mismatch, self.illegal, self.crash, self.down]
    }
    fn add(&mut self, o: &SeatFaults) {
        self.timeout += o.timeout;
        self.malformed += o.malformed;
        self.mismatch += o.mismatch;
        self.illegal += o.illegal;
        self.crash += o.crash;
        self.down += o.down;
        self.forfeits += o.forfeits;
    }
}

impl AgentFaults {
    /// Every fault of every seat.
    pub fn total(&self) -> u64 {
        self.seats.iter().map(|s| s.kinds().iter().sum::<u64>()).sum()
    }
}

/// The faults the pools counted so far, one entry per command.
pub fn faults_of(pools: &[std::sync::Arc<mafia_protocol::Pool>]) -> Vec<AgentFaults> {
    use mafia_protocol::FaultKind;
    pools
        .iter()
        .map(|p| {
            let f = p.faults();
            let seats = mafia_engine::Seat::all(mafia_engine::MAX_PLAYERS)
                .map(|s| {
                    let k = |kind: FaultKind| f.get(s, kind);
                    SeatFaults {
                        seat: u32::from(s.number()),
                        timeout: k(FaultKind::Timeout),
                        malformed: k(FaultKind::Malformed),
                        mismatch: k(FaultKind::Mismatch),
                        illegal: k(FaultKind::Illegal),
                        crash: k(FaultKind::Crash),
                        down: k(FaultKind::Down),
                        forfeits: f.forfeits(s),
                    }
                })
                .filter(|s| s.forfeits > 0 || s.kinds().iter().any(|&c| c > 0))
                .collect();
            AgentFaults {
                agent: format!("ext:{}", p.settings().command),
                requests: f.requests(),
                restarts: f.restarts(),
                seats,
            }
        })
        .collect()
}

/// Adds `more` into `into`: command by command, seat by seat (a command or
/// seat new to `into` is appended, the seats kept in seat order).
pub fn add_faults(into: &mut Vec<AgentFaults>, more: &[AgentFaults]) {
    for m in more {
        let a = match into.iter_mut().position(|a| a.agent == m.agent) {
            Some(i) => &mut into[i],
            None => {
                into.push(AgentFaults { agent: m.agent.clone(), ..AgentFaults::default() });
                into.last_mut().expect("just pushed")
            }
        };
        a.requests += m.requests;
        a.restarts += m.restarts;
        for s in &m.seats {
            match a.seats.iter_mut().find(|x| x.seat == s.seat) {
                Some(x) => x.add(s),
                None => a.seats.push(*s),
            }
        }
        a.seats.sort_by_key(|x| x.seat);
    }
}

/// One row per external agent command and seat that had a fault or a
/// forfeit: the counts by kind (see `protocol/README.md`).
fn faults_frame(faults: &[AgentFaults]) -> PolarsResult<DataFrame> {
    use mafia_protocol::FaultKind;
    let mut agent = Vec::new();
    let mut seat = Vec::new();
    let mut counts: Vec<Vec<u64>> = vec![Vec::new(); FaultKind::COUNT];
    let mut forfeits = Vec::new();
    for a in faults {
        for s in &a.seats {
            agent.push(a.agent.clone());
            seat.push(s.seat);
            for (k, c) in s.kinds().into_iter().enumerate() {
                counts[k].push(c);
            }
            forfeits.push(s.forfeits);
        }
    }
    let mut c = Cols::default();
    c.push("agent", agent);
    c.push("seat", seat);
    for (k, v) in FaultKind::ALL.iter().zip(counts) {
        c.push(k.name(), v);
    }
    c.push("forfeits", forfeits);
    c.frame()
}

/// The faults table as text, after the run's tables.
fn print_faults(df: &DataFrame, faults: &[AgentFaults], forfeited_games: u64, out: &mut impl Write) -> io::Result<()> {
    let restarts: u64 = faults.iter().map(|a| a.restarts).sum();
    let total: u64 = faults.iter().map(AgentFaults::total).sum();
    let requests: u64 = faults.iter().map(|a| a.requests).sum();
    let names: Vec<&str> = faults.iter().map(|a| a.agent.as_str()).collect();
    let head = format!("\nexternal agents ({}): {requests} decisions asked", names.join(", "));
    if total == 0 && forfeited_games == 0 {
        return writeln!(out, "{head}, no faults, {restarts} restarts");
    }
    writeln!(
        out,
        "{head}, {total} faults, {restarts} restarts, {forfeited_games} games forfeited (not in the win rates)"
    )?;
    configure_display();
    writeln!(out, "{df}")
}

/// After a command's tables: the external agents' faults (when any played),
/// printed, and written beside `out`.
pub fn report_faults(faults: &[AgentFaults], forfeited_games: u64, out: Option<&Path>) -> Result<(), Error> {
    if faults.is_empty() {
        return Ok(());
    }
    let mut df = faults_frame(faults).map_err(|e| Error::Table("the faults table", e))?;
    super::keep("faults", &df);
    print_faults(&df, faults, forfeited_games, &mut super::stdout())?;
    if let Some(p) = out {
        let w = write_faults(&mut df, p).map_err(Error::Io)?;
        eprintln!("wrote {}", w.display());
    }
    Ok(())
}

/// When a run's external agents' faults fail it: see `--ext-max-faults`
/// and `--ext-max-forfeits`, and where their standard error went.
#[derive(Clone, Debug)]
pub struct FaultLimits {
    /// The largest share of an agent's decisions that may fault (0 to 1).
    pub max_rate: f64,
    /// The most games an agent may forfeit.
    pub max_forfeits: u64,
    /// The folder of the agents' standard error (none for a merge of
    /// shards: each shard's run named its own).
    pub log_dir: Option<PathBuf>,
}

impl AgentFaults {
    /// The games the agent forfeited, over its seats.
    pub fn forfeits(&self) -> u64 {
        self.seats.iter().map(|s| s.forfeits).sum()
    }

    /// The faults by kind over the seats, in `FaultKind::ALL`'s order.
    fn kinds(&self) -> [u64; mafia_protocol::FaultKind::COUNT] {
        let mut k = [0; mafia_protocol::FaultKind::COUNT];
        for s in &self.seats {
            for (a, b) in k.iter_mut().zip(s.kinds()) {
                *a += b;
            }
        }
        k
    }
}

/// After a command's outputs (printed and written): fails the command
/// ([`Error::ExtFaults`], exit 1) when an external agent's faults pass
/// `limits`, with a banner naming the agent, its faults by kind and where
/// its standard error was logged; else, when there were faults, a note on
/// standard error saying where the logs are. (Issue 35: an agent that
/// never answered gave exit 0 and a table of random fallbacks.)
pub fn check_faults(faults: &[AgentFaults], limits: &FaultLimits) -> Result<(), Error> {
    let logs = match &limits.log_dir {
        Some(d) => format!("its standard error is logged in {}", d.display()),
        None => "its standard error is logged in each shard's --ext-log folder".to_string(),
    };
    let mut banners = Vec::new();
    for a in faults {
        let total = a.total();
        let forfeits = a.forfeits();
        let rate = if a.requests == 0 { 0.0 } else { total as f64 / a.requests as f64 };
        if rate <= limits.max_rate && forfeits <= limits.max_forfeits {
            continue;
        }
        let kinds: Vec<String> = mafia_protocol::FaultKind::ALL
            .iter()
            .zip(a.kinds())
            .filter(|(_, c)| *c > 0)
            .map(|(k, c)| format!("{c} {}", k.name()))
            .collect();
        banners.push(format!(
            "external agent {} failed the run: {total} faults in {} decisions ({:.1}%, the most allowed is \
             --ext-max-faults {}){}; {forfeits} games forfeited (the most allowed is --ext-max-forfeits {}); {logs}",
            a.agent,
            a.requests,
            100.0 * rate,
            limits.max_rate,
            if kinds.is_empty() { String::new() } else { format!(": {}", kinds.join(", ")) },
            limits.max_forfeits,
        ));
        let program = a.agent.trim_start_matches("ext:").split_whitespace().next().unwrap_or("");
        if program.ends_with(".py") {
            banners.push(format!(
                "{program} runs with the `python3` on PATH, which may lack its packages (a ModuleNotFoundError in \
                 the log): to run it in a virtual environment, see \
                 python/README.md, \"Running agents from a virtual environment\""
            ));
        }
    }
    if banners.is_empty() {
        if faults.iter().any(|a| a.total() > 0 || a.forfeits() > 0)
            && let Some(d) = &limits.log_dir
        {
            crate::output::note(&format!("the external agents' standard error is logged in {}", d.display()));
        }
        return Ok(());
    }
    banners.push(
        "every faulty decision above was played by the fallback; the outputs are written, but do not read them as \
         the agent's results"
            .into(),
    );
    Err(Error::ExtFaults(banners.join("\n")))
}

/// Writes the faults table to `<stem>.faults.<ext>` beside `path`.
fn write_faults(df: &mut DataFrame, path: &Path) -> Result<PathBuf, String> {
    let format = out_format(path)?;
    let p = sibling(path, "faults");
    write_frame(df, &p, format)?;
    Ok(p)
}
