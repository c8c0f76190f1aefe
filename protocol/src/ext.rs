//! A seat played by an agent process: [`ExtAgent`] turns each decision into
//! a `request` line for its [`Pool`], checks the answer, and falls back
//! (see [`Fallback`]) when none valid comes.

use crate::message::{ToAgent, line};
use crate::pool::{Conn, Fallback, FaultKind, Pool, Settings};
use crate::text::view_text;
use mafia_agents::{DataAgent, Lineup, LineupError, Stream, ext_command, legal_random, split_part};
use mafia_engine::{Answer, Ending, Seat, View};
use rand::Rng as _;
use std::sync::Arc;

/// One seat's external agent (one per seat per worker, sharing the pool).
pub struct ExtAgent {
    pool: Arc<Pool>,
    conn: Conn,
    game: u64,
    seat: Option<Seat>,
    /// The seat gave up this game (fallback `forfeit`).
    forfeit: bool,
    /// Illegal answers this game (replaced by the fallback).
    illegal: u32,
    /// Decisions this game the fallback answered.
    replaced: u32,
}

impl ExtAgent {
    /// A seat played by one of `pool`'s processes.
    pub fn new(pool: Arc<Pool>) -> ExtAgent {
        ExtAgent { pool, conn: Conn::default(), game: 0, seat: None, forfeit: false, illegal: 0, replaced: 0 }
    }

    /// The answer of the process, checked; the fault if none valid.
    fn ask(&mut self, view: &View, rng: &mut Stream) -> Result<Answer, FaultKind> {
        let wants = self.pool.wants();
        // Drawn for every request, so the seat's stream moves the same way
        // whether the agent answers or not.
        let seed = rng.next_u64() >> 11;
        let text = wants.text.then(|| view_text(view));
        let (game, seat) = (self.game, view.seat);
        let (g, s, answer) = self.pool.request(&mut self.conn, seat, |id| {
            line(&ToAgent::Request {
                id,
                game,
                seat,
                seed,
                request: &view.request,
                view: wants.view.then_some(view),
                text: text.as_deref(),
            })
        })?;
        let fault = if g != game || s != seat {
            Some(FaultKind::Mismatch)
        } else if !view.request.admits(&answer) {
            Some(FaultKind::Illegal)
        } else {
            None
        };
        match fault {
            Some(kind) => {
                self.pool.faults().add(seat, kind);
                Err(kind)
            }
            None => Ok(answer),
        }
    }
}

impl DataAgent for ExtAgent {
    fn game(&mut self, index: u64) {
        self.game = index;
        self.forfeit = false;
        self.illegal = 0;
        self.replaced = 0;
    }

    fn start(&mut self, view: &View) {
        self.seat = Some(view.seat);
        // Started here (not at the first request) so `hello` has told what
        // the agent wants before it is asked anything.
        if self.pool.ensure().is_ok() && self.pool.wants().start_end {
            let wants = self.pool.wants();
            self.pool.notify(&ToAgent::Start { game: self.game, seat: view.seat, view: wants.view.then_some(view) });
        }
    }

    fn decide(&mut self, view: &View, rng: &mut Stream) -> Answer {
        if self.forfeit {
            self.replaced += 1;
            return legal_random(&view.request, rng);
        }
        match self.ask(view, rng) {
            Ok(answer) => answer,
            Err(kind) => {
                self.replaced += 1;
                if kind == FaultKind::Illegal {
                    self.illegal += 1;
                }
                if self.pool.settings().fallback == Fallback::Forfeit {
                    self.forfeit = true;
                }
                legal_random(&view.request, rng)
            }
        }
    }

    fn end(&mut self, ending: &Ending) {
        if let Some(seat) = self.seat {
            if self.forfeit {
                self.pool.faults().forfeit(seat);
            }
            if self.pool.wants().start_end {
                self.pool.notify(&ToAgent::End { game: self.game, seat, ending });
            }
        }
    }

    fn wants_view(&self) -> bool {
        let w = self.pool.wants();
        w.view || w.text
    }

    fn quiet(&self) -> bool {
        self.pool.wants().quiet
    }

    fn forfeited(&self) -> bool {
        self.forfeit
    }

    fn illegal_answers(&self) -> u32 {
        self.illegal
    }

    fn replaced_answers(&self) -> u32 {
        self.replaced
    }
}

/// The external commands a lineup spec names (`ext:COMMAND` values), in order, once each.
pub fn commands(spec: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in spec.split(',').map(str::trim) {
        let (_, value) = split_part(part);
        if let Some(cmd) = ext_command(value)
            && !out.iter().any(|c| c == cmd)
        {
            out.push(cmd.to_string());
        }
    }
    out
}

/// Registers a pool for every `ext:COMMAND` of `specs` on `lineup` (reusing
/// `pools` already made for a command), so the specs then apply. Refuses a
/// command whose program does not exist.
pub fn register(
    lineup: &mut Lineup,
    specs: &[&str],
    base: &Settings,
    pools: &mut Vec<Arc<Pool>>,
) -> Result<(), LineupError> {
    for spec in specs {
        for cmd in commands(spec) {
            let name = format!("ext:{cmd}");
            if lineup.strategy(&name).is_ok() {
                continue;
            }
            let pool = match pools.iter().find(|p| p.settings().command == cmd) {
                Some(p) => p.clone(),
                None => {
                    let settings = Settings { command: cmd.clone(), ..base.clone() };
                    settings.check().map_err(|message| LineupError::External { message })?;
                    let p = Arc::new(Pool::new(settings));
                    pools.push(p.clone());
                    p
                }
            };
            lineup.register_data(&name, move || ExtAgent::new(pool.clone()));
        }
    }
    Ok(())
}
