//! The steppable game in Python: [`Game`], one game at a time (the
//! PettingZoo and Gymnasium environments stand on it), and [`Batch`], `N`
//! games stepped per call in parallel (NumPy in and out).
//!
//! Both speak the encodings of `mafia_engine::encode` (`mafia encoding`):
//! an `f32` observation tensor per asked seat, a mask of the `N + 3`
//! discrete actions (`int8`, 1 = legal), one action per decision part.
//! [`Game`] also hands out the seat's view and takes a whole answer, as
//! JSON — the protocol's types, for agents that read the view.

use crate::errors::{from_sim, invalid};
use clap::Parser;
use mafia_agents::{Env, Lineup};
use mafia_engine::encode::{self, Layout};
use mafia_engine::{Answer, Camp, Event, Game as Rules, Outcome, Seat};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use std::sync::mpsc;

/// The CLI's game flags, parsed by the CLI's own parser (so a bad setup
/// file, an unknown role or agent, a bad rule get the CLI's messages).
#[derive(Parser)]
#[command(name = "mafia")]
struct Flags {
    #[command(flatten)]
    game: mafia_sim::GameArgs,
}

/// The checked game and lineup of `setup` (a preset's name or a setup
/// file), `agents` (a lineup spec, as `--agents`) and `rules`
/// (`KEY=VALUE`, as `--rule`).
pub fn job(setup: &str, agents: Option<&str>, rules: &[String]) -> PyResult<(Rules, Lineup)> {
    let mut argv = vec!["mafia".to_string(), "--setup".into(), setup.into()];
    if let Some(a) = agents {
        argv.extend(["--agents".into(), a.into()]);
    }
    for r in rules {
        argv.extend(["--rule".into(), r.clone()]);
    }
    let flags = Flags::try_parse_from(&argv).map_err(|e| invalid(e.to_string().trim_end().to_string()))?;
    let (job, captured) = mafia_sim::capture(|| mafia_sim::one_job(&flags.game));
    Python::attach(|py| crate::errors::warn(py, &captured.notes))?;
    let job = job.map_err(from_sim)?;
    if !job.ext.is_empty() {
        return Err(invalid(format!(
            "agents {}: external agents (ext:) play in `mafia run`, not in a stepped game: give a built-in lineup",
            agents.unwrap_or_default()
        )));
    }
    Ok((job.game, job.lineup))
}

/// The learner seats: numbers from 1 (`None`: every seat; an empty list:
/// none, the lineup plays the whole game at `reset` — the yardstick of a
/// learner, the same game with the seat played by the lineup).
fn seats(learners: Option<Vec<usize>>, players: usize) -> PyResult<Vec<Seat>> {
    let Some(list) = learners else { return Ok(Seat::all(players).collect()) };
    let mut out = Vec::new();
    for s in list {
        if s == 0 || s > players {
            return Err(invalid(format!("learners: seat {s} is not at the table (seats 1..{players})")));
        }
        let seat = Seat::new(s as u8 - 1);
        if out.contains(&seat) {
            return Err(invalid(format!("learners: seat {s} given twice")));
        }
        out.push(seat);
    }
    Ok(out)
}

/// The camp each seat was dealt, from the game's log.
fn camps(events: &[Event], players: usize) -> Vec<Camp> {
    let mut out = vec![Camp::Town; players];
    for e in events {
        if let Event::Deal { seat, role } = e {
            out[seat.index()] = role.camp();
        }
    }
    out
}

/// A seat's reward for a finished game: +1 if its camp won, -1 if it
/// lost, 0 for a draw.
fn reward(outcome: &Outcome, camp: Camp) -> f32 {
    match outcome.winner {
        None => 0.0,
        Some(w) if w == camp => 1.0,
        Some(_) => -1.0,
    }
}

/// One steppable game: the learner seats' decisions are handed out, the
/// lineup plays the others in-process.
///
/// `Game(setup="classic", agents=None, learners=None, rules=[], seed=0)`;
/// `reset(seed=None, game=0)` begins game `game` of master seed `seed` —
/// the same deal and chance as `mafia replay --seed SEED --game GAME`.
#[pyclass(unsendable, module = "mafia_lab._native")]
pub struct Game {
    env: Env,
    rules: Rules,
    lineup: Lineup,
    learners: Vec<Seat>,
    seed: u64,
    index: u64,
    /// Each seat's camp in the game being played (from its deal).
    camps: Vec<Camp>,
}

impl Game {
    fn began(&mut self) {
        self.camps = camps(&self.env.events(), self.rules.players());
    }

    fn check_live(&self) -> PyResult<()> {
        if self.env.seat().is_none() {
            return Err(invalid("the game is over (or not begun): call reset() before stepping again".to_string()));
        }
        Ok(())
    }
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (setup = "classic", agents = None, learners = None, rules = Vec::new(), seed = 0))]
    fn new(
        setup: &str,
        agents: Option<&str>,
        learners: Option<Vec<usize>>,
        rules: Vec<String>,
        seed: u64,
    ) -> PyResult<Game> {
        let (rules, lineup) = job(setup, agents, &rules)?;
        let learners = seats(learners, rules.players())?;
        let env = Env::new(rules.clone(), lineup.clone(), seed, &learners).map_err(|e| invalid(e.to_string()))?;
        Ok(Game { env, rules, lineup, learners, seed, index: 0, camps: Vec::new() })
    }

    /// Begins game `game` of master seed `seed` (default: the last seed
    /// given) and plays it to the first learner decision.
    #[pyo3(signature = (seed = None, game = 0))]
    fn reset(&mut self, seed: Option<u64>, game: u64) -> PyResult<()> {
        if let Some(s) = seed
            && s != self.seed
        {
            self.env = Env::new(self.rules.clone(), self.lineup.clone(), s, &self.learners)
                .map_err(|e| invalid(e.to_string()))?;
            self.seed = s;
        }
        self.index = game;
        self.env.reset(game);
        self.began();
        Ok(())
    }

    /// Players at the table.
    #[getter]
    fn players(&self) -> usize {
        self.rules.players()
    }

    /// The learner seats (numbers from 1).
    #[getter]
    fn learners(&self) -> Vec<usize> {
        self.learners.iter().map(|s| s.number() as usize).collect()
    }

    /// The observation tensor's length.
    #[getter]
    fn observation_len(&self) -> usize {
        self.env.observation_len()
    }

    /// The number of discrete actions (`players + 3`).
    #[getter]
    fn action_count(&self) -> usize {
        self.env.actions()
    }

    /// The master seed and the game's index.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    #[getter]
    fn game(&self) -> u64 {
        self.index
    }

    /// The seat asked now (a number from 1), `None` once the game is over.
    #[getter]
    fn seat(&self) -> Option<usize> {
        self.env.seat().map(|s| s.number() as usize)
    }

    /// The part of the decision asked now (`"vote"`, `"night_kill"`, …;
    /// see `mafia encoding`), `None` when over.
    #[getter]
    fn part(&self) -> Option<&'static str> {
        self.env.part().map(encode::Part::name)
    }

    /// Whether the game is over.
    #[getter]
    fn done(&self) -> bool {
        self.env.seat().is_none()
    }

    /// The asked seat's observation tensor (zeros once over).
    fn observe<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        let a = PyArray1::<f32>::zeros(py, self.env.observation_len(), false);
        // SAFETY: the array was just created here and nothing else holds it.
        self.env.observe(unsafe { a.as_slice_mut() }.expect("a fresh contiguous array"));
        a
    }

    /// The legal actions of the part asked (`int8`, 1 = legal; zeros once over).
    fn mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let mut m = vec![0u8; self.env.actions()];
        self.env.mask(&mut m);
        PyArray1::from_vec(py, m.into_iter().map(|v| v as i8).collect())
    }

    /// Takes `action` for the part asked. An action outside the mask, or a
    /// step of a finished game, raises `MafiaError` and changes nothing.
    fn act(&mut self, action: i64) -> PyResult<()> {
        self.check_live()?;
        let n = self.env.actions();
        let mut m = vec![0u8; n];
        self.env.mask(&mut m);
        let Some(a) = usize::try_from(action).ok().filter(|&a| a < n && m[a] == 1) else {
            let legal: Vec<usize> = (0..n).filter(|&i| m[i] == 1).collect();
            return Err(invalid(format!(
                "action {action} is not legal for seat {}'s {}: the legal actions are {legal:?}",
                self.env.seat().map_or(0, |s| s.number()),
                self.env.part().map_or("decision", encode::Part::name)
            )));
        };
        self.env.act(a).map_err(|e| invalid(e.to_string()))
    }

    /// The asked seat's view, as the protocol's JSON (`View` in the
    /// schema): what an agent reading the view sees, with the request and
    /// its legal options. `None` once over.
    fn view_json(&self) -> Option<String> {
        self.env.view().map(|v| serde_json::to_string(v).expect("a view is JSON"))
    }

    /// Answers the pending decision whole with the protocol's JSON
    /// (`Answer` in the schema). An answer that is not one of the request's
    /// options raises `MafiaError` and changes nothing.
    fn answer(&mut self, answer: &str) -> PyResult<()> {
        self.check_live()?;
        let a: Answer =
            serde_json::from_str(answer).map_err(|e| invalid(format!("the answer is not an Answer: {e}")))?;
        self.env.answer(a).map_err(|e| invalid(e.to_string()))
    }

    /// The reward of `seat` (a number from 1) for the finished game: +1 if
    /// its camp won, -1 if it lost, 0 for a draw or while the game goes on.
    fn reward(&self, seat: usize) -> PyResult<f32> {
        if seat == 0 || seat > self.rules.players() {
            return Err(invalid(format!("seat {seat} is not at the table")));
        }
        Ok(self.env.outcome().map_or(0.0, |o| reward(o, self.camps[seat - 1])))
    }

    /// The winning camp (`"town"`, `"mafia"`, `"bandits"`), `None` for a
    /// draw or while the game goes on.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.env.outcome().and_then(|o| o.winner).map(Camp::name)
    }

    /// The seat's camp (a number from 1): known to the caller (the
    /// environment's rewards), not to an agent.
    fn camp(&self, seat: usize) -> PyResult<&'static str> {
        self.camps
            .get(seat.wrapping_sub(1))
            .map(|c| c.name())
            .ok_or_else(|| invalid(format!("seat {seat} is not at the table")))
    }

    /// The game's events so far, one JSON object a line: the event lines of
    /// `mafia replay --json` (every event, hidden ones too: for the caller).
    fn events_json(&self) -> String {
        let mut out = String::new();
        for e in self.env.events().iter() {
            out.push_str(&serde_json::to_string(e).expect("an event is JSON"));
            out.push('\n');
        }
        out
    }

    /// The encodings, as `mafia encoding` prints them (JSON).
    fn encoding_json(&self) -> String {
        serde_json::to_string_pretty(&Layout::new(self.rules.players()).describe()).expect("an encoding is JSON")
    }
}

/// What a worker thread is asked to do with its slots.
enum Cmd {
    /// Begin each slot's game 0 of its seed.
    Reset(std::sync::Arc<Vec<u64>>, Out),
    /// Take each slot's action; a finished game's slot begins its next.
    Step(std::sync::Arc<Vec<usize>>, Out),
}

/// The output arrays, written by the threads, each its own slots' rows.
#[derive(Clone, Copy)]
struct Out {
    obs: *mut f32,
    mask: *mut i8,
    seat: *mut i32,
    reward: *mut f32,
    done: *mut bool,
}

// SAFETY: the arrays behind the pointers are kept alive by the caller,
// which waits for every thread to finish before it returns them, and each
// thread writes only the rows of its own slots.
unsafe impl Send for Out {}
// SAFETY: as for `Send`: the threads share the pointers, never a row.
unsafe impl Sync for Out {}

/// Games in a row a slot plays through without a learner's decision
/// before the batch gives up (a setup whose rules never ask them).
const UNASKED: u64 = 1000;

/// One game slot of a batch.
struct SlotGame {
    slot: usize,
    env: Option<Env>,
    seed: u64,
    index: u64,
}

/// What the batch's thread `t` owns: its slots (every `threads`-th).
struct Shard {
    rules: Rules,
    lineup: Lineup,
    learners: Vec<Seat>,
    slots: Vec<SlotGame>,
    len: usize,
    actions: usize,
    players: usize,
}

impl Shard {
    fn write(&self, g: &SlotGame, out: Out, rewards: Option<&[f32]>) {
        let env = g.env.as_ref().expect("a begun slot");
        let (i, l, a, p) = (g.slot, self.len, self.actions, self.players);
        // SAFETY: see `Out`: row `i` is this thread's alone. The arrays come
        // uninitialised (`Batch::outputs`): each row is zeroed through its
        // raw pointer before a slice of it is made.
        unsafe {
            std::ptr::write_bytes(out.obs.add(i * l), 0, l);
            std::ptr::write_bytes(out.mask.add(i * a), 0, a);
            std::ptr::write_bytes(out.reward.add(i * p), 0, p);
            env.observe_zeroed(std::slice::from_raw_parts_mut(out.obs.add(i * l), l));
            let m = std::slice::from_raw_parts_mut(out.mask.add(i * a) as *mut u8, a);
            env.mask(m);
            *out.seat.add(i) = env.seat().map_or(0, |s| s.number() as i32);
            let r = std::slice::from_raw_parts_mut(out.reward.add(i * p), p);
            match rewards {
                Some(v) => r.copy_from_slice(v),
                None => r.fill(0.0),
            }
            *out.done.add(i) = rewards.is_some();
        }
    }

    /// Begins the slot's next game and plays it to its first decision
    /// (games without one are played through, counted as finished games
    /// with no step: their rewards are not reported). Refused when the
    /// learners are asked nothing in [`UNASKED`] games in a row (a setup
    /// whose rules never ask them, as `absence=1`).
    fn begin(&mut self, k: usize) -> Result<(), String> {
        let g = &mut self.slots[k];
        let env = g.env.as_mut().expect("a slot's environment");
        for _ in 0..UNASKED {
            env.reset(g.index);
            if env.seat().is_some() {
                return Ok(());
            }
            g.index += 1;
        }
        Err(format!(
            "the learner seats were asked nothing in {UNASKED} games in a row (seed {}): these rules never ask them, nothing to step",
            g.seed
        ))
    }

    fn run(&mut self, cmd: Cmd) -> Result<(), String> {
        match cmd {
            Cmd::Reset(seeds, out) => {
                for k in 0..self.slots.len() {
                    let g = &mut self.slots[k];
                    g.seed = seeds[g.slot];
                    g.index = 0;
                    g.env = Some(
                        Env::light(self.rules.clone(), self.lineup.clone(), g.seed, &self.learners)
                            .map_err(|e| e.to_string())?,
                    );
                    self.begin(k)?;
                    self.write(&self.slots[k], out, None);
                }
            }
            Cmd::Step(actions, out) => {
                let mut rewards = vec![0.0f32; self.players];
                for k in 0..self.slots.len() {
                    let g = &mut self.slots[k];
                    let env = g.env.as_mut().expect("a begun slot");
                    env.act(actions[g.slot]).map_err(|e| e.to_string())?;
                    match env.outcome() {
                        Some(o) => {
                            let c = camps(&env.events(), self.players);
                            for (s, r) in rewards.iter_mut().enumerate() {
                                *r = if self.learners.iter().any(|l| l.index() == s) { reward(o, c[s]) } else { 0.0 };
                            }
                            g.index += 1;
                            self.begin(k)?;
                            self.write(&self.slots[k], out, Some(&rewards));
                        }
                        None => self.write(&self.slots[k], out, None),
                    }
                }
            }
        }
        Ok(())
    }
}

/// Shard 0, borrowed by the closure that runs with the GIL released.
struct Here<'a>(&'a mut Shard);

// SAFETY: `Python::detach` runs its closure on the calling thread (it
// only releases the GIL around it), so shard 0's games never leave the
// thread that owns them; the batch is `unsendable`, so that thread is the
// one that made it.
unsafe impl Send for Here<'_> {}

/// A thread of the batch and its channels.
struct Worker {
    send: mpsc::Sender<Cmd>,
    done: std::sync::Mutex<mpsc::Receiver<Result<(), String>>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// `N` games stepped together, one pending part per game; a game that
/// ends begins its slot's next game at once. The slots are dealt to
/// `threads` shards: shard 0 plays on the caller's thread (the batch is
/// `unsendable`: used from the thread that made it), the others each on a
/// thread of the batch's own, for the batch's life.
///
/// `Batch(n, setup="classic", agents=None, learners=None, rules=[], threads=0)`.
/// Slot `i` plays games 0, 1, 2, … of its master seed (`reset(seeds)`):
/// the same seeds and actions give the same trajectories whatever `n` and
/// the thread count.
#[pyclass(unsendable, module = "mafia_lab._native")]
pub struct Batch {
    /// Shard 0: played on the thread that made the batch (the caller's),
    /// while the workers play theirs.
    own: Shard,
    /// The threads of shards 1, 2, …
    workers: Vec<Worker>,
    n: usize,
    len: usize,
    actions: usize,
    players: usize,
    /// The last masks handed out (the check of the next actions).
    masks: Vec<i8>,
    begun: bool,
}

impl Batch {
    /// Runs `cmd(t)` on each thread's shard: the worker threads' first,
    /// then shard 0 on this thread, and waits for all.
    fn each(&mut self, py: Python<'_>, cmd: impl Fn(usize) -> Cmd + Send + Sync) -> PyResult<()> {
        let own = Here(&mut self.own);
        let workers = &self.workers;
        let errors: Vec<String> = py.detach(move || {
            let own = own;
            for (t, w) in workers.iter().enumerate() {
                w.send.send(cmd(t + 1)).expect("a batch thread is alive");
            }
            let mut errors = Vec::new();
            let mine = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| own.0.run(cmd(0))));
            if let Err(e) = mine.unwrap_or_else(|_| Err("a batch game panicked".into())) {
                errors.push(e);
            }
            errors.extend(workers.iter().filter_map(
                |w| match w.done.lock().unwrap_or_else(|e| e.into_inner()).recv() {
                    Ok(Ok(())) => None,
                    Ok(Err(e)) => Some(e),
                    Err(_) => Some("a batch thread stopped".into()),
                },
            ));
            errors
        });
        match errors.first() {
            None => Ok(()),
            Some(e) => Err(invalid(e.clone())),
        }
    }

    #[allow(clippy::type_complexity)]
    fn outputs<'py>(
        &self,
        py: Python<'py>,
    ) -> (
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray2<i8>>,
        Bound<'py, PyArray1<i32>>,
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray1<bool>>,
        Out,
    ) {
        // SAFETY: uninitialised arrays, every element of which the threads
        // write (through raw pointers, `Shard::write`, every row of every
        // slot) before the arrays are handed out; `each` waits for every
        // thread, and a failed step raises without returning them.
        let (obs, mask, seat, reward, done) = unsafe {
            (
                PyArray2::<f32>::new(py, [self.n, self.len], false),
                PyArray2::<i8>::new(py, [self.n, self.actions], false),
                PyArray1::<i32>::new(py, self.n, false),
                PyArray2::<f32>::new(py, [self.n, self.players], false),
                PyArray1::<bool>::new(py, self.n, false),
            )
        };
        let out =
            Out { obs: obs.data(), mask: mask.data(), seat: seat.data(), reward: reward.data(), done: done.data() };
        (obs, mask, seat, reward, done, out)
    }
}

type Step<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<i8>>,
    Bound<'py, PyArray1<i32>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
);

#[pymethods]
impl Batch {
    #[new]
    #[pyo3(signature = (n, setup = "classic", agents = None, learners = None, rules = Vec::new(), threads = 0))]
    fn new(
        n: usize,
        setup: &str,
        agents: Option<&str>,
        learners: Option<Vec<usize>>,
        rules: Vec<String>,
        threads: usize,
    ) -> PyResult<Batch> {
        if n == 0 {
            return Err(invalid("n: a batch has at least one game"));
        }
        let (rules, lineup) = job(setup, agents, &rules)?;
        let players = rules.players();
        let learners = seats(learners, players)?;
        if learners.is_empty() {
            return Err(invalid(
                "learners: a batch needs at least one learner seat (numbers from 1), or None for every seat",
            ));
        }
        lineup.check_seats(players).map_err(|e| invalid(e.to_string()))?;
        let threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            t if t > 1024 => return Err(invalid(format!("threads {t}: at most 1024 (0 = every core)"))),
            t => t,
        }
        .min(n);
        let (len, actions) = (Layout::new(players).len(), encode::actions(players));
        let shard = move |t: usize, rules: Rules, lineup: Lineup, learners: Vec<Seat>| {
            let slots = (t..n).step_by(threads).map(|slot| SlotGame { slot, env: None, seed: 0, index: 0 });
            Shard { rules, lineup, learners, slots: slots.collect(), len, actions, players }
        };
        let own = shard(0, rules.clone(), lineup.clone(), learners.clone());
        let mut workers = Vec::new();
        for t in 1..threads {
            let (send, recv) = mpsc::channel::<Cmd>();
            let (report, done) = mpsc::channel();
            let (rules, lineup, learners) = (rules.clone(), lineup.clone(), learners.clone());
            let thread = std::thread::Builder::new()
                .name(format!("mafia-batch-{t}"))
                .spawn(move || {
                    // The games live and are played on this thread alone
                    // (a suspended game is not `Send`; see `mafia_agents::Stepper`).
                    let mut shard = shard(t, rules, lineup, learners);
                    while let Ok(cmd) = recv.recv() {
                        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| shard.run(cmd)))
                            .unwrap_or_else(|_| Err("a batch thread panicked".into()));
                        if report.send(r).is_err() {
                            return;
                        }
                    }
                })
                .map_err(|e| invalid(format!("the batch's threads could not start: {e}")))?;
            workers.push(Worker { send, done: std::sync::Mutex::new(done), thread: Some(thread) });
        }
        Ok(Batch { own, workers, n, len, actions, players, masks: vec![0; n * actions], begun: false })
    }

    /// Games per step.
    #[getter]
    fn n(&self) -> usize {
        self.n
    }

    #[getter]
    fn observation_len(&self) -> usize {
        self.len
    }

    #[getter]
    fn action_count(&self) -> usize {
        self.actions
    }

    #[getter]
    fn players(&self) -> usize {
        self.players
    }

    #[getter]
    fn threads(&self) -> usize {
        self.workers.len() + 1
    }

    /// Begins every slot's game 0 of its seed (`seeds`: `n` seeds; an int
    /// `s` gives slot `i` the seed `s + i`). Returns `(obs, mask, seat)`:
    /// `obs` `[n, L]` float32, `mask` `[n, A]` int8, `seat` `[n]` int32
    /// (the seat asked in each game, from 1).
    fn reset<'py>(&mut self, py: Python<'py>, seeds: &Bound<'py, PyAny>) -> PyResult<Step<'py>> {
        let seeds: Vec<u64> = match seeds.extract::<u64>() {
            Ok(s) => (0..self.n as u64).map(|i| s.wrapping_add(i)).collect(),
            Err(_) => seeds.extract::<Vec<u64>>().map_err(|_| invalid("seeds: an int or a list of n ints"))?,
        };
        if seeds.len() != self.n {
            return Err(invalid(format!("seeds: {} given for a batch of {} games", seeds.len(), self.n)));
        }
        let (obs, mask, seat, reward, done, out) = self.outputs(py);
        let seeds = std::sync::Arc::new(seeds);
        self.each(py, |_| Cmd::Reset(seeds.clone(), out))?;
        // SAFETY: the threads are done writing; the array is ours.
        self.masks.copy_from_slice(unsafe { mask.as_slice() }.expect("contiguous"));
        self.begun = true;
        Ok((obs, mask, seat, reward, done))
    }

    /// Takes one action per game (`actions`: `[n]` integers, each legal in
    /// its game's last mask) and plays each game on to its next part asked.
    /// Returns `(obs, mask, seat, reward, done)`: `reward` `[n, players]`
    /// float32 (each learner seat's +1/-1/0 in the games that ended on this
    /// step), `done` `[n]` bool. A game that ended has begun its slot's
    /// next game: its `obs`, `mask` and `seat` are the new game's. Actions
    /// outside the masks, or of the wrong count, raise `MafiaError` and
    /// step nothing.
    fn step<'py>(&mut self, py: Python<'py>, actions: PyReadonlyArray1<'py, i64>) -> PyResult<Step<'py>> {
        if !self.begun {
            return Err(invalid("the batch is not begun: call reset(seeds) first"));
        }
        let acts = actions.as_array();
        if acts.len() != self.n {
            return Err(invalid(format!("actions: {} given for a batch of {} games", acts.len(), self.n)));
        }
        let mut checked = Vec::with_capacity(self.n);
        for (i, &a) in acts.iter().enumerate() {
            match usize::try_from(a).ok().filter(|&a| a < self.actions && self.masks[i * self.actions + a] == 1) {
                Some(a) => checked.push(a),
                None => {
                    let legal: Vec<usize> =
                        (0..self.actions).filter(|&k| self.masks[i * self.actions + k] == 1).collect();
                    return Err(invalid(format!(
                        "actions[{i}] = {a} is not legal in game {i}: its legal actions are {legal:?} (nothing was stepped)"
                    )));
                }
            }
        }
        let (obs, mask, seat, reward, done, out) = self.outputs(py);
        let checked = std::sync::Arc::new(checked);
        self.each(py, |_| Cmd::Step(checked.clone(), out))?;
        // SAFETY: the threads are done writing; the array is ours.
        self.masks.copy_from_slice(unsafe { mask.as_slice() }.expect("contiguous"));
        Ok((obs, mask, seat, reward, done))
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        for w in &mut self.workers {
            let (send, _) = mpsc::channel();
            drop(std::mem::replace(&mut w.send, send));
            if let Some(t) = w.thread.take() {
                let _ = t.join();
            }
        }
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<Batch>()?;
    Ok(())
}
