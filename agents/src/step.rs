//! A steppable game (issue 36): a game that stops at each decision of the
//! seats a caller controls, hands out the pending [`View`] (its
//! [`Request`](mafia_engine::Request) lists the legal options), takes an
//! [`Answer`], and goes on, with the lineup's strategies playing every other
//! seat in-process.
//!
//! # How: the push loop, suspended
//!
//! The engine pushes questions to its players; its loop is the one the
//! built-in runs use, untouched (the instruction-count gate holds). A
//! [`Stepper`] runs that loop on a stack of its own, a stackful coroutine
//! ([`corosensei`]): the controlled seats' agent, asked a question, suspends
//! the coroutine with the view, and the next [`Stepper::step`] resumes it
//! with the answer, which the agent returns to the engine. A step costs one
//! switch of stacks each way (nanoseconds) plus the play of the other seats
//! up to the next controlled decision. Since every draw comes from the
//! (master seed, game index, purpose) streams and the controlled seats draw
//! none, the same seed and the same answers give the same events, byte for
//! byte, as a run whose agents gave those answers.
//!
//! A stepper is not [`Send`]: a suspended game's stack holds the lock of the
//! record its views are built from, which must be released on the thread
//! that took it. Keep each stepper on one thread (the Python module's
//! batched environment gives every game a thread of its own for its life).

use crate::{DataAgent, Lineup, LineupError, Stream, Worker, master_key};
use corosensei::stack::DefaultStack;
use corosensei::{Coroutine, CoroutineResult, Yielder};
use mafia_engine::{Answer, Event, Game, Log, Outcome, Seat, View};
use std::cell::{Ref, RefCell};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicPtr, Ordering};

/// The coroutine a game is played in: resumed with an answer (`None` to
/// begin), suspended with a view, finished with the worker (to play the
/// next game) and the outcome.
type Play = Coroutine<Option<Answer>, Box<View>, Box<(Box<Worker>, Outcome)>, DefaultStack>;

/// The yielder of a game's coroutine.
type Suspender = Yielder<Option<Answer>, Box<View>>;

/// Where the controlled seats' agent finds the running game's yielder.
#[derive(Default)]
struct Slot(AtomicPtr<Suspender>);

/// The agent of a controlled seat: hands the view out and returns the
/// answer the game is resumed with. `light`: views without the record and
/// the talk (see [`Stepper::light`]).
struct Suspend(Arc<Slot>, bool);

impl DataAgent for Suspend {
    fn wants_view(&self) -> bool {
        !self.1
    }

    fn decide(&mut self, view: &View, rng: &mut Stream) -> Answer {
        self.decide_owned(view.clone(), rng)
    }

    fn decide_owned(&mut self, view: View, _rng: &mut Stream) -> Answer {
        let yielder = self.0.0.load(Ordering::Relaxed);
        assert!(!yielder.is_null(), "a controlled seat is asked only inside a stepped game");
        // SAFETY: the pointer is set by the coroutine's body to its own
        // yielder before it plays, and this agent is asked only by that
        // body's game (the worker that owns it is moved into the body and
        // out again at its end), so the yielder is alive: the body is on
        // the stack below this call.
        let yielder = unsafe { &*yielder };
        yielder.suspend(Box::new(view)).expect("a suspended game is resumed with an answer")
    }
}

/// The game's events, shared by the game's log and the stepper (one
/// thread; the two never run at once).
#[derive(Clone, Default)]
struct Shared(Rc<RefCell<Vec<Event>>>);

impl Log for Shared {
    const ENABLED: bool = true;
    fn push(&mut self, e: Event) {
        self.0.borrow_mut().push(e);
    }
}

/// Why a step was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum StepError {
    /// The game is over: nothing is pending.
    Over,
    /// The answer is not one of the pending request's options.
    Illegal(Answer),
}

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StepError::Over => f.write_str("the game is over: no decision is pending"),
            StepError::Illegal(a) => write!(f, "{a:?} is not one of the pending request's options"),
        }
    }
}

impl std::error::Error for StepError {}

/// A game that stops at each decision of the controlled seats. See the
/// module's documentation.
///
/// ```
/// use mafia_agents::{Lineup, Stepper, legal_random, Stream, Purpose, master_key};
/// use mafia_engine::{Game, Preset, Seat};
///
/// let game = Game::new(&Preset::find("classic").unwrap().setup()).unwrap();
/// let mut s = Stepper::new(game, Lineup::for_preset("classic"), 7, &[Seat::new(2)]).unwrap();
/// s.reset(0);
/// let mut rng = Stream::new(master_key(1), 0, Purpose::Seat(Seat::new(0)));
/// while let Some(view) = s.pending() {
///     assert_eq!(view.seat, Seat::new(2));
///     let answer = legal_random(&view.request, &mut rng);
///     s.step(answer).unwrap();
/// }
/// assert!(s.outcome().is_some());
/// ```
pub struct Stepper {
    /// The game being played, while it is (dropped first: dropping a
    /// suspended game unwinds its stack).
    play: Option<Play>,
    /// The worker between games (inside the game while it is played).
    worker: Option<Box<Worker>>,
    /// A stack to play the next game on (reused).
    stack: Option<DefaultStack>,
    game: Arc<Game>,
    lineup: Lineup,
    key: [u8; 32],
    slot: Arc<Slot>,
    /// Light views ([`Stepper::light`]).
    light: bool,
    log: Shared,
    answers: Vec<Answer>,
    index: u64,
    pending: Option<View>,
    outcome: Option<Outcome>,
}

/// The name the controlled seats' agent is registered under in the lineup.
const STEPPED: &str = "stepped";

/// The stack a game is played on: the engine's frames and the strategies'
/// need a few tens of kilobytes; only the pages touched are committed.
const STACK: usize = 1 << 20;

impl Stepper {
    /// A stepper for `game`, with `lineup` playing every seat but `seats`,
    /// on master seed `seed`. Call [`Stepper::reset`] to begin a game.
    pub fn new(game: Game, lineup: Lineup, seed: u64, seats: &[Seat]) -> Result<Stepper, LineupError> {
        Stepper::build(game, lineup, seed, seats, false)
    }

    /// [`Stepper::new`] handing out light views: the record and the talk
    /// left empty (every other field as in a full view). For callers that
    /// read the public record from [`Stepper::events`] instead — the
    /// batched environment, whose tensors need only its public events —
    /// and save copying the record at every decision.
    pub fn light(game: Game, lineup: Lineup, seed: u64, seats: &[Seat]) -> Result<Stepper, LineupError> {
        Stepper::build(game, lineup, seed, seats, true)
    }

    fn build(game: Game, mut lineup: Lineup, seed: u64, seats: &[Seat], light: bool) -> Result<Stepper, LineupError> {
        let slot = Arc::new(Slot::default());
        let shared = slot.clone();
        lineup.register_data(STEPPED, move || Suspend(shared.clone(), light));
        for s in seats {
            lineup.set(&format!("seat{}", s.number()), STEPPED)?;
        }
        lineup.check_seats(game.players())?;
        let key = master_key(seed);
        let mut worker = Box::new(Worker::new(lineup.clone(), key));
        if light {
            worker.without_record();
        }
        Ok(Stepper {
            play: None,
            worker: Some(worker),
            stack: None,
            game: Arc::new(game),
            lineup,
            key,
            slot,
            light,
            log: Shared::default(),
            answers: Vec::new(),
            index: 0,
            pending: None,
            outcome: None,
        })
    }

    /// Begins game `index` of the run (the same deal and chance as the
    /// run's game `index`) and plays it to the first controlled decision.
    /// A game still being played is abandoned.
    pub fn reset(&mut self, index: u64) {
        if self.play.take().is_some() {
            // Dropped mid-game: its stack was unwound, and the worker with
            // it; a fresh one plays on (the same lineup and key).
            let mut worker = Box::new(Worker::new(self.lineup.clone(), self.key));
            if self.light {
                worker.without_record();
            }
            self.worker = Some(worker);
        }
        self.index = index;
        self.answers.clear();
        self.log.0.borrow_mut().clear();
        self.outcome = None;
        let mut worker = self.worker.take().expect("a worker between games");
        let (game, slot, mut log) = (self.game.clone(), self.slot.clone(), self.log.clone());
        let stack = match self.stack.take() {
            Some(s) => s,
            None => DefaultStack::new(STACK).expect("a stack for the game"),
        };
        self.play = Some(Coroutine::with_stack(stack, move |yielder: &Suspender, _| {
            slot.0.store(yielder as *const _ as *mut _, Ordering::Relaxed);
            let outcome = worker.play(&game, index, &mut log);
            slot.0.store(std::ptr::null_mut(), Ordering::Relaxed);
            Box::new((worker, outcome))
        }));
        self.resume(None);
    }

    /// The pending decision: the view of the controlled seat that is asked
    /// (`view.seat`), with the request and its legal options. `None` when
    /// the game is over.
    pub fn pending(&self) -> Option<&View> {
        self.pending.as_ref()
    }

    /// Answers the pending decision and plays on to the next one (or the
    /// end). An answer that is not one of the request's options is refused
    /// and nothing changes.
    pub fn step(&mut self, answer: Answer) -> Result<(), StepError> {
        let Some(view) = &self.pending else { return Err(StepError::Over) };
        if !view.request.admits(&answer) {
            return Err(StepError::Illegal(answer));
        }
        self.answers.push(answer.clone());
        self.resume(Some(answer));
        Ok(())
    }

    /// How the game ended, once it has.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// The game's events so far (the whole game once it is over): the
    /// engine's log, which the views and `mafia replay` read. Every event,
    /// hidden ones too: for the caller, not for an agent.
    pub fn events(&self) -> Ref<'_, [Event]> {
        Ref::map(self.log.0.borrow(), |v| &v[..])
    }

    /// The game's index in its run.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The answers given so far, in the order they were asked.
    pub fn answers(&self) -> &[Answer] {
        &self.answers
    }

    /// The game being played.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Resumes the game up to the next controlled decision or its end.
    fn resume(&mut self, answer: Option<Answer>) {
        let play = self.play.as_mut().expect("a game being played");
        match play.resume(answer) {
            CoroutineResult::Yield(view) => self.pending = Some(*view),
            CoroutineResult::Return(done) => {
                let (worker, outcome) = *done;
                self.pending = None;
                self.outcome = Some(outcome);
                self.worker = Some(worker);
                self.stack = self.play.take().map(Coroutine::into_stack);
            }
        }
    }
}

/// A [`Stepper`] that speaks the encodings of [`mafia_engine::encode`]:
/// the pending seat's observation tensor and action mask, and one discrete
/// action per decision part (a night's moves are asked as up to three
/// parts). What one action cannot say (a second target, a borrowed role)
/// is drawn from the first controlled seat's own stream of the game, so
/// the same seed and actions give the same game.
///
/// ```
/// use mafia_agents::{Env, Lineup};
/// use mafia_engine::{Game, Preset, Seat};
///
/// let game = Game::new(&Preset::find("classic").unwrap().setup()).unwrap();
/// let mut env = Env::new(game, Lineup::for_preset("classic"), 7, &[Seat::new(2)]).unwrap();
/// env.reset(0);
/// let (mut obs, mut mask) = (vec![0.0; env.observation_len()], vec![0; env.actions()]);
/// while env.seat().is_some() {
///     env.observe(&mut obs);
///     env.mask(&mut mask);
///     let first_legal = mask.iter().position(|&m| m == 1).unwrap();
///     env.act(first_legal).unwrap();
/// }
/// assert!(env.outcome().is_some());
/// ```
pub struct Env {
    stepper: Stepper,
    /// Light views ([`Env::light`]): the public record's summary, read from
    /// the game's log, and how many events of it were read.
    public: Option<(Public, usize)>,
    turn: Option<Turn>,
    rng: Stream,
    seed: u64,
    /// The first controlled seat: its stream gives the draws.
    first: Seat,
}

use mafia_engine::encode::{self, ActionError, Layout, Public, Turn};

impl Env {
    /// An environment for `game`, with `lineup` playing every seat but
    /// `seats`, on master seed `seed`. Call [`Env::reset`] to begin a game.
    pub fn new(game: Game, lineup: Lineup, seed: u64, seats: &[Seat]) -> Result<Env, LineupError> {
        Env::build(Stepper::new(game, lineup, seed, seats)?, seed, seats)
    }

    /// [`Env::new`] on light views ([`Stepper::light`]): the same tensors
    /// (the public record's summary is read from the game's log, whose
    /// public events every seat's record holds: tested), less copying;
    /// [`Env::view`] then holds no record and no talk.
    pub fn light(game: Game, lineup: Lineup, seed: u64, seats: &[Seat]) -> Result<Env, LineupError> {
        let mut env = Env::build(Stepper::light(game, lineup, seed, seats)?, seed, seats)?;
        env.public = Some((Public::default(), 0));
        Ok(env)
    }

    fn build(stepper: Stepper, seed: u64, seats: &[Seat]) -> Result<Env, LineupError> {
        let first = seats.iter().copied().min().unwrap_or(Seat::new(0));
        let rng = Stream::new(master_key(seed), 0, crate::Purpose::Seat(first));
        Ok(Env { stepper, public: None, turn: None, rng, seed, first })
    }

    /// Begins game `index` of the run and plays it to the first part asked.
    pub fn reset(&mut self, index: u64) {
        // The draws of the game: the first controlled seat's own stream of
        // game `index` (the scripted seats draw nothing from theirs).
        self.rng = Stream::new(master_key(self.seed), index, crate::Purpose::Seat(self.first));
        if let Some(p) = &mut self.public {
            *p = (Public::default(), 0);
        }
        self.stepper.reset(index);
        self.begin_turn();
    }

    /// The seat asked now (`None`: the game is over).
    pub fn seat(&self) -> Option<Seat> {
        self.stepper.pending().map(|v| v.seat)
    }

    /// The view of the seat asked now.
    pub fn view(&self) -> Option<&View> {
        self.stepper.pending()
    }

    /// The observation tensor's length ([`Layout::len`]).
    pub fn observation_len(&self) -> usize {
        Layout::new(self.stepper.game().players()).len()
    }

    /// The number of discrete actions ([`encode::actions`]).
    pub fn actions(&self) -> usize {
        encode::actions(self.stepper.game().players())
    }

    /// Writes the asked seat's tensor, with the part asked (all zero when
    /// the game is over).
    pub fn observe(&self, out: &mut [f32]) {
        match (self.stepper.pending(), &self.turn, &self.public) {
            (Some(view), Some(turn), Some((public, _))) => encode::observe_with(view, turn.part(), public, out),
            (Some(view), Some(turn), None) => encode::observe(view, turn.part(), out),
            _ => out.fill(0.0),
        }
    }

    /// [`Env::observe`] into an `out` that is all zero already (a fresh
    /// buffer), without clearing it first.
    pub fn observe_zeroed(&self, out: &mut [f32]) {
        match (self.stepper.pending(), &self.turn, &self.public) {
            (Some(view), Some(turn), Some((public, _))) => encode::observe_zeroed(view, turn.part(), public, out),
            _ => self.observe(out),
        }
    }

    /// Writes the legal actions of the part asked (all 0 when over).
    pub fn mask(&self, out: &mut [u8]) {
        match &self.turn {
            Some(turn) => turn.mask(out),
            None => out.fill(0),
        }
    }

    /// Takes `action` for the part asked; when it completes the decision,
    /// the answer goes to the game, which plays on to the next part asked.
    pub fn act(&mut self, action: usize) -> Result<(), ActionError> {
        let Some(turn) = self.turn.as_mut() else { return Err(ActionError::Done) };
        turn.act(action, &mut self.rng)?;
        if let Some(answer) = turn.answer().cloned() {
            self.stepper.step(answer).expect("a turn's answer is one of the request's options");
            self.begin_turn();
        }
        Ok(())
    }

    /// Answers the pending decision whole, as an agent reading the view
    /// would (the parts already taken of it are dropped), and plays on to
    /// the next part asked. An answer that is not one of the request's
    /// options is refused and nothing changes.
    pub fn answer(&mut self, answer: Answer) -> Result<(), StepError> {
        self.stepper.step(answer)?;
        self.begin_turn();
        Ok(())
    }

    /// The part of the decision asked now (`None`: over).
    pub fn part(&self) -> Option<encode::Part> {
        self.turn.as_ref().and_then(Turn::part)
    }

    /// How the game ended, once it has.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.stepper.outcome()
    }

    /// The game's events so far (every event: for the caller, not for an
    /// agent).
    pub fn events(&self) -> Ref<'_, [Event]> {
        self.stepper.events()
    }

    /// The turn of the pending decision; decisions with nothing to choose
    /// (a night without options) are answered at once.
    fn begin_turn(&mut self) {
        loop {
            if let Some((public, read)) = &mut self.public {
                let events = self.stepper.events();
                for e in &events[*read..] {
                    public.read(e);
                }
                *read = events.len();
            }
            let Some(view) = self.stepper.pending() else {
                self.turn = None;
                return;
            };
            let turn = Turn::new(view, &mut self.rng);
            match turn.answer().cloned() {
                Some(answer) if turn.part().is_none() => {
                    self.stepper.step(answer).expect("a turn's answer is one of the request's options");
                }
                _ => {
                    self.turn = Some(turn);
                    return;
                }
            }
        }
    }
}
