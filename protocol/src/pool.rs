//! A pool of agent processes: one command, `procs` processes, each serving
//! many seats of many games, with several requests in flight (from
//! [`IN_FLIGHT`] runner threads per process; answers may come in any
//! order, matched by id). Runner thread `i` always uses process
//! `i % procs`, and a game is played on one thread, so an agent that keeps
//! per-game memory sees the whole game.
//!
//! Faults never stop a run: a request that gets no valid answer returns the
//! [`FaultKind`] (the caller falls back and counts it), a hung or garbling
//! process is killed, a dead one is restarted at its next request (at most
//! `restarts` times), and the agent's standard error goes to a log file,
//! capped, never into the tables.

use crate::message::{FromAgent, PROTOCOL, ToAgent, Wants, line};
use mafia_engine::{Answer, MAX_PLAYERS, Seat};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// What a decision gets when its answer does not come or is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// A uniformly random legal answer, drawn from the seat's stream.
    Random,
    /// The seat gives up the game: it is finished with random legal answers
    /// and counted apart (not in the win rates).
    Forfeit,
}

impl Fallback {
    /// Reads a `--ext-fallback` value: `random` or `forfeit`.
    pub fn parse(s: &str) -> Result<Fallback, String> {
        match s {
            "random" => Ok(Fallback::Random),
            "forfeit" => Ok(Fallback::Forfeit),
            _ => Err(format!("`{s}`: the fallback is `random` or `forfeit`")),
        }
    }
}

/// How a pool runs its command.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The command line (`./agent.py`, `python3 agent.py --fast`).
    pub command: String,
    /// Processes in the pool.
    pub procs: usize,
    /// How long one decision may take.
    pub timeout: Duration,
    /// What plays a decision the agent did not answer in time or legally.
    pub fallback: Fallback,
    /// Restarts allowed per process after its first start.
    pub restarts: u32,
    /// Where the agents' standard error goes (one file per process start).
    pub log_dir: PathBuf,
}

impl Settings {
    /// The defaults for agents started by `command`.
    pub fn new(command: &str) -> Settings {
        Settings {
            command: command.trim().to_string(),
            procs: 1,
            timeout: Duration::from_secs(10),
            fallback: Fallback::Random,
            restarts: 5,
            log_dir: default_log_dir(),
        }
    }

    /// The program and its arguments: split at spaces; a `.py` file runs
    /// with `python3`.
    pub fn argv(&self) -> Vec<String> {
        let mut argv: Vec<String> = self.command.split_whitespace().map(str::to_string).collect();
        if argv.first().is_some_and(|p| p.ends_with(".py")) {
            argv.insert(0, "python3".into());
        }
        argv
    }

    /// Refuses a command whose program cannot be found, before any game.
    pub fn check(&self) -> Result<(), String> {
        let argv: Vec<String> = self.command.split_whitespace().map(str::to_string).collect();
        let Some(program) = argv.first() else {
            return Err("ext: no command".into());
        };
        let path = std::path::Path::new(program);
        let found = if program.contains('/') || program.ends_with(".py") {
            path.is_file()
        } else {
            std::env::var_os("PATH")
                .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
        };
        if found { Ok(()) } else { Err(format!("ext:{}: no such program `{program}`", self.command)) }
    }
}

/// Why a decision got no valid answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// No answer within the timeout (the process is killed and restarted).
    Timeout = 0,
    /// A line that is not a message (the process is killed and restarted).
    Malformed = 1,
    /// An answer naming another game or seat than its request.
    Mismatch = 2,
    /// An answer of another decision, or an option not offered.
    Illegal = 3,
    /// The process exited, closed its output, or could not start.
    Crash = 4,
    /// The process is down for the rest of the run (restarts used up).
    Down = 5,
}

impl FaultKind {
    /// Every kind, in the order of their columns.
    pub const ALL: [FaultKind; 6] = [
        FaultKind::Timeout,
        FaultKind::Malformed,
        FaultKind::Mismatch,
        FaultKind::Illegal,
        FaultKind::Crash,
        FaultKind::Down,
    ];
    /// How many kinds there are.
    pub const COUNT: usize = 6;

    /// The kind's name in tables and messages.
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Timeout => "timeout",
            FaultKind::Malformed => "malformed",
            FaultKind::Mismatch => "mismatch",
            FaultKind::Illegal => "illegal",
            FaultKind::Crash => "crash",
            FaultKind::Down => "down",
        }
    }
}

/// Faults counted per seat and kind, and forfeited games per seat.
pub struct Faults {
    counts: Vec<AtomicU64>,
    forfeits: Vec<AtomicU64>,
    restarts: AtomicU64,
    requests: AtomicU64,
}

impl Default for Faults {
    fn default() -> Self {
        Faults {
            counts: (0..MAX_PLAYERS * FaultKind::COUNT).map(|_| AtomicU64::new(0)).collect(),
            forfeits: (0..MAX_PLAYERS).map(|_| AtomicU64::new(0)).collect(),
            restarts: AtomicU64::new(0),
            requests: AtomicU64::new(0),
        }
    }
}

impl Faults {
    /// Counts one fault of `kind` at `seat`.
    pub fn add(&self, seat: Seat, kind: FaultKind) {
        self.counts[seat.index() * FaultKind::COUNT + kind as usize].fetch_add(1, Ordering::Relaxed);
    }
    /// Counts one game forfeited at `seat` (every later decision fell back).
    pub fn forfeit(&self, seat: Seat) {
        self.forfeits[seat].fetch_add(1, Ordering::Relaxed);
    }
    /// The faults of `kind` at `seat` so far.
    pub fn get(&self, seat: Seat, kind: FaultKind) -> u64 {
        self.counts[seat.index() * FaultKind::COUNT + kind as usize].load(Ordering::Relaxed)
    }
    /// The games forfeited at `seat` so far.
    pub fn forfeits(&self, seat: Seat) -> u64 {
        self.forfeits[seat].load(Ordering::Relaxed)
    }
    /// Every fault of every seat.
    pub fn total(&self) -> u64 {
        self.counts.iter().map(|c| c.load(Ordering::Relaxed)).sum()
    }
    /// Process starts after the first (restarts), over the pool.
    pub fn restarts(&self) -> u64 {
        self.restarts.load(Ordering::Relaxed)
    }
    /// Decisions asked of the pool (answered or not).
    pub fn requests(&self) -> u64 {
        self.requests.load(Ordering::Relaxed)
    }
}

/// A running process. Several threads may have requests in flight on it
/// (pipelining: the agent reads them in batches); its reader thread reads
/// the output and wakes the thread each answer is for.
struct Proc {
    child: Mutex<Child>,
    stdin: Mutex<ChildStdin>,
    reader: Mutex<Reader>,
    /// Requests in flight, in shards by `id % SHARDS` (a runner thread's
    /// requests all fall in its own shard, so threads rarely share a lock).
    waiting: Box<[Mutex<HashMap<u64, Waiter>>]>,
    alive: AtomicBool,
    next_id: AtomicU64,
}

/// The output side of a process, held by the thread reading it.
struct Reader {
    stdout: ChildStdout,
    /// Bytes read and not yet consumed (part of a line).
    pending: Vec<u8>,
    chunk: Box<[u8]>,
}

/// A request in flight: the thread to wake, and its reply once read.
struct Waiter {
    thread: std::thread::Thread,
    reply: Option<Reply>,
}

type Reply = Result<(u64, Seat, Answer), FaultKind>;

impl Proc {
    fn new(child: Child, stdin: ChildStdin, stdout: ChildStdout) -> Proc {
        Proc {
            child: Mutex::new(child),
            stdin: Mutex::new(stdin),
            reader: Mutex::new(Reader { stdout, pending: Vec::new(), chunk: vec![0; 1 << 14].into_boxed_slice() }),
            waiting: (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect(),
            alive: AtomicBool::new(true),
            next_id: AtomicU64::new(0),
        }
    }

    fn alive(&self) -> bool {
        self.alive.load(Ordering::SeqCst)
    }

    /// Kills the process and fails every request in flight with `kind`.
    /// (A request that timed out kills its process with
    /// [`FaultKind::Crash`] for the others: their process went down, the
    /// timeout is not theirs. Issue 35.)
    fn fail(&self, kind: FaultKind) {
        self.alive.store(false, Ordering::SeqCst);
        {
            let mut c = lock(&self.child);
            let _ = c.kill();
            let _ = c.wait();
        }
        for shard in self.waiting.iter() {
            for w in lock(shard).values_mut() {
                if w.reply.is_none() {
                    w.reply = Some(Err(kind));
                }
                w.thread.unpark();
            }
        }
    }

    /// Writes one line (`text` and its newline) with one `write` call:
    /// `writeln!` on the unbuffered pipe wrote the text and the newline
    /// apart, so the agent often woke for a partial line and read twice.
    fn send(&self, mut text: String) -> bool {
        text.push('\n');
        let mut w = lock(&self.stdin);
        w.write_all(text.as_bytes()).is_ok()
    }

    /// Sends request `id` (its line) and waits for its reply until `deadline`.
    fn ask(&self, id: u64, text: String, deadline: Instant) -> Reply {
        lock(self.shard(id)).insert(id, Waiter { thread: std::thread::current(), reply: None });
        if !self.send(text) {
            lock(self.shard(id)).remove(&id);
            self.fail(FaultKind::Crash);
            return Err(FaultKind::Crash);
        }
        // Sleep until the reader thread hands the answer over. (Spinning
        // first, with yields, measured slower on two cores: the agent needs
        // the CPU the spinning takes.)
        loop {
            if let Some(reply) = self.take(id) {
                return reply;
            }
            let now = Instant::now();
            if now >= deadline {
                lock(self.shard(id)).remove(&id);
                // Hung: kill it (its other requests fail with it, as a
                // crash: theirs did not time out); restarted at its next use.
                self.fail(FaultKind::Crash);
                return Err(FaultKind::Timeout);
            }
            std::thread::park_timeout(deadline - now);
        }
    }

    fn shard(&self, id: u64) -> &Mutex<HashMap<u64, Waiter>> {
        &self.waiting[(id % SHARDS as u64) as usize]
    }

    /// A fresh request id, in the calling thread's shard.
    fn next_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed) * SHARDS as u64 + (rayon_index() % SHARDS) as u64
    }

    /// This thread's reply, if it has come.
    fn take(&self, id: u64) -> Option<Reply> {
        let mut w = lock(self.shard(id));
        let reply = w.get_mut(&id)?.reply.take()?;
        w.remove(&id);
        Some(reply)
    }

    /// The reader thread's loop: hands each answer to the thread waiting
    /// for it; on garbage or at the end of the output, fails the process.
    fn read_answers(&self) {
        let mut r = lock(&self.reader);
        loop {
            let text = match r.line(None) {
                Ok(text) => text,
                Err(kind) => return self.fail(kind),
            };
            let delivered = match serde_json::from_str::<FromAgent>(&text) {
                Ok(FromAgent::Answer { id, game, seat, answer }) => {
                    let mut w = lock(self.shard(id));
                    // An answer nobody asked for means the exchange is out of step.
                    w.get_mut(&id).map(|waiter| {
                        waiter.reply = Some(Ok((game, seat, answer)));
                        waiter.thread.unpark();
                    })
                }
                _ => None,
            };
            if delivered.is_none() {
                return self.fail(FaultKind::Malformed);
            }
        }
    }
}

impl Reader {
    /// The next non-blank line; waits until `deadline` if there is one,
    /// else for as long as the process lives.
    fn line(&mut self, deadline: Option<Instant>) -> Result<String, FaultKind> {
        loop {
            if let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
                let rest = self.pending.split_off(end + 1);
                let line = std::mem::replace(&mut self.pending, rest);
                let text = String::from_utf8_lossy(&line).trim().to_string();
                if text.is_empty() {
                    continue;
                }
                return Ok(text);
            }
            if self.pending.len() > MAX_LINE {
                return Err(FaultKind::Malformed);
            }
            if let Some(deadline) = deadline {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() || !readable(&self.stdout, left) {
                    return Err(FaultKind::Timeout);
                }
            }
            match self.stdout.read(&mut self.chunk) {
                Ok(0) | Err(_) => return Err(FaultKind::Crash),
                Ok(n) => self.pending.extend_from_slice(&self.chunk[..n]),
            }
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether `stdout` has something to read (or has closed) within `wait`.
fn readable(stdout: &ChildStdout, wait: Duration) -> bool {
    let mut fd = libc::pollfd { fd: stdout.as_raw_fd(), events: libc::POLLIN, revents: 0 };
    let ms = wait.as_millis().clamp(1, i32::MAX as u128) as i32;
    // SAFETY: `fd` is one valid, initialised `pollfd` that lives across the
    // call, and the count passed is 1; `poll` writes only its `revents`.
    // The descriptor is open: `stdout` is borrowed for the call. Exercised
    // by every request; `tests/faults.rs` covers the timeout path.
    let n = unsafe { libc::poll(&mut fd, 1, ms) };
    n > 0
}

#[derive(Default)]
struct Slot {
    proc: Option<Arc<Proc>>,
    starts: u32,
    /// Why the last start, made for no decision ([`Pool::ensure`]), failed:
    /// the next decision that finds the process down is counted with this
    /// kind instead of `down` (so an agent that never starts shows why).
    pending: Option<FaultKind>,
}

/// A pool of processes running one command.
pub struct Pool {
    settings: Settings,
    slots: Vec<Mutex<Slot>>,
    faults: Faults,
    wants: OnceLock<Wants>,
}

/// Lines longer than this are malformed (a runaway writer).
const MAX_LINE: usize = 16 << 20;
/// Bytes of an agent's standard error kept per process start.
const MAX_LOG: u64 = 16 << 20;

/// Shards of a process's table of requests in flight.
const SHARDS: usize = 16;

/// Threads per process that play games with requests in flight at once: the
/// agent then reads requests in batches, which amortises its wake-ups.
pub const IN_FLIGHT: usize = 8;

impl Pool {
    /// A pool with these settings; processes start when first needed.
    pub fn new(settings: Settings) -> Pool {
        let procs = settings.procs.max(1);
        Pool {
            settings,
            slots: (0..procs).map(|_| Mutex::new(Slot::default())).collect(),
            faults: Faults::default(),
            wants: OnceLock::new(),
        }
    }

    /// The settings the pool was made with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The faults counted so far, per seat and kind.
    pub fn faults(&self) -> &Faults {
        &self.faults
    }

    /// What the agents asked for (the defaults until a process has said hello).
    pub fn wants(&self) -> Wants {
        self.wants.get().copied().unwrap_or_default()
    }

    /// The threads a runner should play with: [`IN_FLIGHT`] per process.
    pub fn threads(&self) -> usize {
        self.slots.len() * IN_FLIGHT
    }

    /// The process serving the calling thread: a runner's thread `i` uses
    /// process `i % procs`; any other caller, process 0.
    fn slot(&self) -> (u32, &Mutex<Slot>) {
        let i = rayon_index() % self.slots.len();
        (i as u32, &self.slots[i])
    }

    /// The calling thread's process, started if it is not running (the
    /// caller counts the fault when it is for a decision).
    fn proc(&self, decision: bool) -> Result<Arc<Proc>, FaultKind> {
        let (index, slot) = self.slot();
        let mut st = lock(slot);
        if let Some(p) = st.proc.as_ref().filter(|p| p.alive()) {
            return Ok(p.clone());
        }
        st.proc = None;
        if st.starts > self.settings.restarts {
            let pending = if decision { st.pending.take() } else { None };
            return Err(pending.unwrap_or(FaultKind::Down));
        }
        st.pending = None;
        if st.starts > 0 {
            self.faults.restarts.fetch_add(1, Ordering::Relaxed);
        }
        st.starts += 1;
        match self.start(index, st.starts) {
            Ok(p) => {
                st.proc = Some(p.clone());
                Ok(p)
            }
            Err(kind) => {
                if !decision {
                    st.pending = Some(kind);
                }
                Err(kind)
            }
        }
    }

    /// Starts the calling thread's process if it is not running. A failed
    /// start is not counted here: only decisions count faults (one each),
    /// so an agent that never starts is counted once per decision asked.
    pub fn ensure(&self) -> Result<(), FaultKind> {
        self.proc(false).map(|_| ())
    }

    /// Spawns one process, exchanges hellos and starts its reader thread.
    fn start(&self, index: u32, start: u32) -> Result<Arc<Proc>, FaultKind> {
        let argv = self.settings.argv();
        let mut child = Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|_| FaultKind::Crash)?;
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        let stdin = child.stdin.take().expect("piped");
        let log = self.settings.log_dir.join(format!("process-{index}-start-{start}.log"));
        std::thread::spawn(move || copy_log(stderr, log));
        let proc = Proc::new(child, stdin, stdout);
        let hello = line(&ToAgent::Hello { protocol: PROTOCOL, process: index });
        if !proc.send(hello) {
            proc.fail(FaultKind::Crash);
            return Err(FaultKind::Crash);
        }
        let reply = lock(&proc.reader).line(Some(Instant::now() + self.settings.timeout)).and_then(|text| {
            match serde_json::from_str::<FromAgent>(&text) {
                Ok(FromAgent::Hello { protocol: PROTOCOL, view, text, quiet, start_end, .. }) => {
                    Ok(Wants { view, text, quiet, start_end })
                }
                _ => Err(FaultKind::Malformed),
            }
        });
        match reply {
            Ok(wants) => {
                let _ = self.wants.set(wants);
                let proc = Arc::new(proc);
                let reading = proc.clone();
                std::thread::spawn(move || reading.read_answers());
                Ok(proc)
            }
            Err(kind) => {
                proc.fail(kind);
                Err(kind)
            }
        }
    }

    /// Writes a message that needs no answer to the calling thread's
    /// process (dropped if it is not running: a crashed agent misses it).
    pub fn notify(&self, message: &ToAgent<'_>) {
        let (_, slot) = self.slot();
        let p = lock(slot).proc.clone();
        if let Some(p) = p.filter(|p| p.alive())
            && !p.send(line(message))
        {
            p.fail(FaultKind::Crash);
        }
    }

    /// Asks a decision for `seat` of the calling thread's process:
    /// `message` builds the request line from its id. Returns the answer
    /// with the game and seat it names. Every fault but `mismatch` and
    /// `illegal` (the caller judges those) is counted here; a process that
    /// timed out or wrote garbage is killed (restarted at its next use).
    pub fn request(&self, conn: &mut Conn, seat: Seat, message: impl FnOnce(u64) -> String) -> Reply {
        self.faults.requests.fetch_add(1, Ordering::Relaxed);
        // The caller's process, kept between requests (no lock on the pool's slot).
        let p = match conn.0.as_ref().filter(|p| p.alive()) {
            Some(p) => p.clone(),
            None => match self.proc(true) {
                Ok(p) => {
                    conn.0 = Some(p.clone());
                    p
                }
                Err(kind) => {
                    self.faults.add(seat, kind);
                    return Err(kind);
                }
            },
        };
        let id = p.next_id();
        let reply = p.ask(id, message(id), Instant::now() + self.settings.timeout);
        if let Err(kind) = reply {
            self.faults.add(seat, kind);
        }
        reply
    }
}

/// A caller's handle on its process, kept between its requests (one per
/// seat agent; an agent is used on one thread).
#[derive(Default)]
pub struct Conn(Option<Arc<Proc>>);

/// The index of the calling thread in its rayon pool (0 outside one).
fn rayon_index() -> usize {
    rayon::current_thread_index().unwrap_or(0)
}

impl Drop for Pool {
    /// Says `bye`, gives every process a moment to exit, then kills it.
    fn drop(&mut self) {
        let bye = line(&ToAgent::Bye);
        let procs: Vec<Arc<Proc>> = self.slots.iter().filter_map(|s| lock(s).proc.take()).collect();
        for p in &procs {
            p.send(bye.clone());
        }
        for p in procs {
            let mut c = lock(&p.child);
            for _ in 0..100 {
                if matches!(c.try_wait(), Ok(Some(_))) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// The folder of a run's agent logs when `--ext-log` is not given: one per
/// run (`mafia-ext-<pid>` in the system's temporary folder), made when the
/// first log is written.
pub fn default_log_dir() -> PathBuf {
    std::env::temp_dir().join(format!("mafia-ext-{}", std::process::id()))
}

/// Copies an agent's standard error to its log file: the first half of
/// [`MAX_LOG`] bytes, and the last half (where a traceback is), with a line
/// between them saying how much was dropped (a flood never fills the disk
/// or blocks the agent). The folder is made if it does not exist.
fn copy_log(mut stderr: std::process::ChildStderr, path: PathBuf) {
    // Created on the first byte: an agent that writes nothing to standard
    // error leaves no empty file behind (a run starts a process per worker).
    let mut file: Option<std::fs::File> = None;
    let half = (MAX_LOG / 2) as usize;
    let mut kept = 0usize;
    // The bytes after the first half, the newest `half` of them.
    let mut tail: std::collections::VecDeque<u8> = std::collections::VecDeque::new();
    let mut dropped = 0u64;
    let mut buf = [0u8; 8192];
    loop {
        let n = match stderr.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        if file.is_none() {
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            file = std::fs::File::create(&path).ok();
        }
        let take = n.min(half - kept);
        if take > 0
            && let Some(f) = file.as_mut()
        {
            let _ = f.write_all(&buf[..take]);
        }
        kept += take;
        tail.extend(&buf[take..n]);
        if tail.len() > half {
            let extra = tail.len() - half;
            tail.drain(..extra);
            dropped += extra as u64;
        }
    }
    if let Some(f) = file.as_mut() {
        if dropped > 0 {
            let _ = writeln!(f, "\n[mafia: {dropped} bytes of standard error dropped here]");
        }
        let (a, b) = tail.as_slices();
        let _ = f.write_all(a);
        let _ = f.write_all(b);
    }
}
