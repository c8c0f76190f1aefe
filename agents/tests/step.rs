//! The steppable game (issue 36): the same seed and the same answers give
//! the same game, event for event, as a run whose agents gave them; every
//! decision handed out is a controlled seat's; an illegal answer is refused
//! and changes nothing.

use mafia_agents::{DataAgent, Lineup, Purpose, StepError, Stepper, Stream, Worker, legal_random, master_key};
use mafia_engine::{Answer, Event, Game, Preset, Request, Seat, View, Vote};
use std::sync::{Arc, Mutex};

fn preset(name: &str) -> Game {
    Game::new(&Preset::find(name).unwrap().setup()).unwrap()
}

/// A random legal agent that writes down every answer it gives.
struct Recorder(Arc<Mutex<Vec<Answer>>>);

impl DataAgent for Recorder {
    fn decide(&mut self, view: &View, rng: &mut Stream) -> Answer {
        let a = legal_random(&view.request, rng);
        self.0.lock().unwrap().push(a.clone());
        a
    }
}

/// Plays game `index` with `seats` played by recorders; returns the events,
/// the outcome's winner and days, and the answers in the order given.
fn run_with_recorders(
    setup: &str,
    seed: u64,
    index: u64,
    seats: &[Seat],
) -> (Vec<Event>, (Option<mafia_engine::Camp>, u16), Vec<Answer>) {
    let answers = Arc::new(Mutex::new(Vec::new()));
    let mut lineup = Lineup::for_preset(setup);
    let shared = answers.clone();
    lineup.register_data("recorder", move || Recorder(shared.clone()));
    for s in seats {
        lineup.set(&format!("seat{}", s.number()), "recorder").unwrap();
    }
    let mut w = Worker::new(lineup, master_key(seed));
    let mut log = Vec::new();
    let o = w.play(&preset(setup), index, &mut log);
    let given = answers.lock().unwrap().clone();
    (log, (o.winner, o.days), given)
}

#[test]
fn a_stepped_game_is_the_runs_game_given_the_same_answers() {
    for (setup, seats) in [
        ("classic", vec![Seat::new(2)]),
        ("extended", vec![Seat::new(0), Seat::new(7)]),
        ("forum-16", vec![Seat::new(15)]),
    ] {
        for index in [0, 1, 17] {
            let (events, end, answers) = run_with_recorders(setup, 5, index, &seats);
            let mut s = Stepper::new(preset(setup), Lineup::for_preset(setup), 5, &seats).unwrap();
            s.reset(index);
            for a in &answers {
                let view = s.pending().expect("a decision for every recorded answer");
                assert!(seats.contains(&view.seat), "{setup}: seat {} is not controlled", view.seat.number());
                s.step(a.clone()).unwrap();
            }
            assert!(s.pending().is_none(), "{setup} game {index}: no decision past the recorded ones");
            let o = s.outcome().expect("over");
            assert_eq!((o.winner, o.days), end, "{setup} game {index}");
            assert_eq!(&*s.events(), &events[..], "{setup} game {index}: the same events");
            assert_eq!(s.answers(), &answers[..]);
        }
    }
}

#[test]
fn every_seat_stepped_plays_to_the_end_and_an_illegal_answer_changes_nothing() {
    let game = preset("extended");
    let seats: Vec<Seat> = Seat::all(game.players()).collect();
    let mut s = Stepper::new(game, Lineup::for_preset("extended"), 3, &seats).unwrap();
    s.reset(4);
    let mut rng = Stream::new(master_key(9), 4, Purpose::Seat(Seat::new(0)));
    let mut steps = 0;
    while let Some(view) = s.pending().cloned() {
        // A vote for oneself is never an option; nor is an answer of another kind.
        let wrong = match view.request {
            Request::Vote { .. } => Answer::Vote { vote: Vote::For(view.seat) },
            _ => Answer::Ready,
        };
        assert_eq!(s.step(wrong.clone()), Err(StepError::Illegal(wrong)));
        assert_eq!(s.pending(), Some(&view), "refused: still the same decision");
        s.step(legal_random(&view.request, &mut rng)).unwrap();
        steps += 1;
        assert!(steps < 10_000, "the game ends");
    }
    assert!(steps > 20, "every seat's decisions were handed out: {steps}");
    assert!(s.outcome().is_some());
    assert_eq!(s.step(Answer::Ready), Err(StepError::Over));
    // The same answers again: the same game.
    let answers = s.answers().to_vec();
    let events = s.events().to_vec();
    let mut again = Stepper::new(preset("extended"), Lineup::for_preset("extended"), 3, &seats).unwrap();
    again.reset(4);
    for a in answers {
        again.step(a).unwrap();
    }
    assert_eq!(&*again.events(), &events[..]);
}

#[test]
fn a_reset_begins_the_runs_game_of_that_index() {
    let game = preset("classic");
    let mut s = Stepper::new(game.clone(), Lineup::for_preset("classic"), 1, &[Seat::new(0)]).unwrap();
    let deal = |s: &Stepper| s.events().iter().find(|e| matches!(e, Event::Deal { .. })).cloned();
    s.reset(0);
    let first = deal(&s);
    s.reset(1);
    assert_ne!(deal(&s), first, "another index, another deal");
    s.reset(0);
    assert_eq!(deal(&s), first, "the same index, the same deal");
    assert!(s.pending().is_some_and(|v| v.seat == Seat::new(0)));
}

/// Plays game `index` with `env`, each part answered by a random action of
/// its mask drawn from `pick`; returns the actions taken.
fn play_env(env: &mut mafia_agents::Env, index: u64, pick: &mut Stream) -> Vec<usize> {
    env.reset(index);
    let (mut obs, mut mask) = (vec![0.0; env.observation_len()], vec![0u8; env.actions()]);
    let mut taken = Vec::new();
    while env.seat().is_some() {
        env.observe(&mut obs);
        env.mask(&mut mask);
        assert!(obs.iter().all(|v| (0.0..=1.0).contains(v)));
        let legal: Vec<usize> = (0..mask.len()).filter(|&a| mask[a] == 1).collect();
        assert!(!legal.is_empty(), "a part asked has a legal action");
        let a = legal[mafia_engine::below(pick, legal.len() as u32) as usize];
        env.act(a).unwrap();
        taken.push(a);
        assert!(taken.len() < 20_000, "the game ends");
    }
    taken
}

/// Issue 36: the discrete environment plays every preset to the end with
/// the engine refusing none of its answers, and the same seed and actions
/// give the same game.
#[test]
fn the_discrete_environment_plays_every_preset_and_reproduces() {
    for p in mafia_engine::PRESETS.iter() {
        let game = preset(p.name);
        let every: Vec<Seat> = Seat::all(game.players()).collect();
        for seats in [vec![Seat::new(1)], every] {
            let mut env = mafia_agents::Env::new(game.clone(), Lineup::for_preset(p.name), 11, &seats).unwrap();
            let mut pick = Stream::new(master_key(5), 0, Purpose::Seat(Seat::new(0)));
            for index in 0..3 {
                let actions = play_env(&mut env, index, &mut pick);
                let o = env.outcome().expect("over");
                assert_eq!(o.illegal_decisions, 0, "{}: the engine refused an answer", p.name);
                let events = env.events().to_vec();
                // Replayed action by action: the same game.
                let mut again = mafia_agents::Env::new(game.clone(), Lineup::for_preset(p.name), 11, &seats).unwrap();
                again.reset(index);
                for a in actions {
                    again.act(a).unwrap();
                }
                assert_eq!(&*again.events(), &events[..], "{} game {index}", p.name);
            }
        }
    }
}

/// Issue 36: the light environment (no record in the views; the public
/// record's summary read from the game's log) gives the same tensors,
/// masks and games as the full one, on every preset, every seat stepped.
#[test]
fn the_light_environment_observes_what_the_full_one_does() {
    for p in mafia_engine::PRESETS.iter() {
        let game = preset(p.name);
        let every: Vec<Seat> = Seat::all(game.players()).collect();
        let mut full = mafia_agents::Env::new(game.clone(), Lineup::for_preset(p.name), 4, &every).unwrap();
        let mut light = mafia_agents::Env::light(game.clone(), Lineup::for_preset(p.name), 4, &every).unwrap();
        let (mut a, mut b) = (vec![0.0; full.observation_len()], vec![0.0; full.observation_len()]);
        let (mut ma, mut mb) = (vec![0u8; full.actions()], vec![0u8; full.actions()]);
        let mut pick = Stream::new(master_key(6), 0, Purpose::Seat(Seat::new(0)));
        let mut parts = 0;
        for index in 0..4 {
            full.reset(index);
            light.reset(index);
            while full.seat().is_some() {
                assert_eq!(full.seat(), light.seat());
                full.observe(&mut a);
                light.observe(&mut b);
                assert_eq!(a, b, "{} game {index} part {parts}", p.name);
                assert!(light.view().unwrap().record.is_empty(), "a light view holds no record");
                full.mask(&mut ma);
                light.mask(&mut mb);
                assert_eq!(ma, mb);
                let legal: Vec<usize> = (0..ma.len()).filter(|&k| ma[k] == 1).collect();
                let act = legal[mafia_engine::below(&mut pick, legal.len() as u32) as usize];
                full.act(act).unwrap();
                light.act(act).unwrap();
                parts += 1;
            }
            assert!(light.seat().is_none());
            assert_eq!(&*full.events(), &*light.events());
        }
        assert!(parts > 100, "{}: {parts} parts", p.name);
    }
}
