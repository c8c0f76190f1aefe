//! A steppable game (issue 36): a game that stops at each decision of the
//! seats a caller controls, hands out the pending [`View`] (its
//! [`Request`](mafia_engine::Request) lists the legal options), takes an
//! [`Answer`], and goes on, with the lineup's strategies playing every other
//! seat in-process.
//!
//! # How: replay, not a second game loop
//!
//! The engine pushes questions to its players and is never suspended
//! mid-game (its hot loop stays as the built-in runs need it). A
//! [`Stepper`] keeps the answers given so far and, at each step, plays the
//! game again from its start on the same seeded streams: the controlled
//! seats answer from the list, and at the first decision past it the seat
//! records the view and stops the game by unwinding
//! ([`std::panic::resume_unwind`], which runs no panic hook, caught by the
//! stepper). Since every draw comes from the (master seed, game index,
//! purpose) streams and the controlled seats draw none, the replayed game is
//! the same game: the same seed and the same answers give the same events,
//! byte for byte, as a run whose agents gave those answers. A step costs at
//! most one game's play (classic: a few microseconds).

use crate::{DataAgent, Lineup, LineupError, Stream, Worker, master_key};
use mafia_engine::{Answer, Event, Game, Outcome, Seat, View};
use std::sync::{Arc, Mutex};

/// The answers of the controlled seats, shared with their agents.
#[derive(Default)]
struct Script {
    /// Every answer given so far, in the order the engine asked.
    answers: Vec<Answer>,
    /// During a replay: the next answer to give.
    next: usize,
    /// The decision the replay stopped at.
    pending: Option<View>,
}

/// What the controlled seats' agent unwinds with at a decision it has no
/// answer for.
struct Stop;

/// The agent of a controlled seat: answers from the script, or stops.
struct Scripted(Arc<Mutex<Script>>);

impl DataAgent for Scripted {
    /// The answers given so far, without building their views.
    fn known_answer(&mut self) -> Option<Answer> {
        let mut s = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let a = s.answers.get(s.next).cloned()?;
        s.next += 1;
        Some(a)
    }

    /// The first decision past them: its view is handed out, the game stops.
    fn decide(&mut self, view: &View, _rng: &mut Stream) -> Answer {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).pending = Some(view.clone());
        std::panic::resume_unwind(Box::new(Stop))
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
    game: Game,
    worker: Worker,
    script: Arc<Mutex<Script>>,
    index: u64,
    log: Vec<Event>,
    pending: Option<View>,
    outcome: Option<Outcome>,
}

/// The name the controlled seats' agent is registered under in the lineup.
const STEPPED: &str = "stepped";

impl Stepper {
    /// A stepper for `game`, with `lineup` playing every seat but `seats`,
    /// on master seed `seed`. Call [`Stepper::reset`] to begin a game.
    pub fn new(game: Game, mut lineup: Lineup, seed: u64, seats: &[Seat]) -> Result<Stepper, LineupError> {
        let script = Arc::new(Mutex::new(Script::default()));
        let shared = script.clone();
        lineup.register_data(STEPPED, move || Scripted(shared.clone()));
        for s in seats {
            lineup.set(&format!("seat{}", s.number()), STEPPED)?;
        }
        lineup.check_seats(game.players())?;
        let worker = Worker::new(lineup, master_key(seed));
        Ok(Stepper { game, worker, script, index: 0, log: Vec::new(), pending: None, outcome: None })
    }

    /// Begins game `index` of the run (the same deal and chance as the
    /// run's game `index`) and plays it to the first controlled decision.
    pub fn reset(&mut self, index: u64) {
        self.index = index;
        self.script.lock().unwrap_or_else(|e| e.into_inner()).answers.clear();
        self.replay();
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
        self.script.lock().unwrap_or_else(|e| e.into_inner()).answers.push(answer);
        self.replay();
        Ok(())
    }

    /// How the game ended, once it has.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// The game's events so far (the whole game once it is over): the
    /// engine's log, which the views and `mafia replay` read.
    pub fn events(&self) -> &[Event] {
        &self.log
    }

    /// The game's index in its run.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The answers given so far, in the order they were asked.
    pub fn answers(&self) -> Vec<Answer> {
        self.script.lock().unwrap_or_else(|e| e.into_inner()).answers.clone()
    }

    /// The game being played.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Plays the game from its start with the answers so far, up to the
    /// first decision past them or the end.
    fn replay(&mut self) {
        {
            let mut s = self.script.lock().unwrap_or_else(|e| e.into_inner());
            s.next = 0;
            s.pending = None;
        }
        self.log.clear();
        let (worker, game, index, log) = (&mut self.worker, &self.game, self.index, &mut self.log);
        let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| worker.play(game, index, log)));
        let pending = self.script.lock().unwrap_or_else(|e| e.into_inner()).pending.take();
        match played {
            Ok(outcome) => {
                self.outcome = Some(outcome);
                self.pending = None;
            }
            Err(payload) if payload.is::<Stop>() => {
                self.outcome = None;
                self.pending = pending;
            }
            Err(payload) => std::panic::resume_unwind(payload),
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
    turn: Option<Turn>,
    rng: Stream,
    seed: u64,
    /// The first controlled seat: its stream gives the draws.
    first: Seat,
}

use mafia_engine::encode::{self, ActionError, Layout, Turn};

impl Env {
    /// An environment for `game`, with `lineup` playing every seat but
    /// `seats`, on master seed `seed`. Call [`Env::reset`] to begin a game.
    pub fn new(game: Game, lineup: Lineup, seed: u64, seats: &[Seat]) -> Result<Env, LineupError> {
        let stepper = Stepper::new(game, lineup, seed, seats)?;
        let first = seats.iter().copied().min().unwrap_or(Seat::new(0));
        let rng = Stream::new(master_key(seed), 0, crate::Purpose::Seat(first));
        Ok(Env { stepper, turn: None, rng, seed, first })
    }

    /// Begins game `index` of the run and plays it to the first part asked.
    pub fn reset(&mut self, index: u64) {
        // The draws of the game: the first controlled seat's own stream of
        // game `index` (the scripted seats draw nothing from theirs).
        self.rng = Stream::new(master_key(self.seed), index, crate::Purpose::Seat(self.first));
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
        match (self.stepper.pending(), &self.turn) {
            (Some(view), Some(turn)) => encode::observe(view, turn.part(), out),
            _ => out.fill(0.0),
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

    /// How the game ended, once it has.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.stepper.outcome()
    }

    /// The game's events so far.
    pub fn events(&self) -> &[Event] {
        self.stepper.events()
    }

    /// The turn of the pending decision; decisions with nothing to choose
    /// (a night without options) are answered at once.
    fn begin_turn(&mut self) {
        loop {
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
