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
