//! The owned path of the agent boundary, end to end: agents that read only
//! the serialisable `View` play real games beside the built-in strategies.
//! Every option a request lists is legal (an agent that picks only among
//! them is never refused), and the games are deterministic.

use mafia_agents::{DataAgent, LegalRandom, Lineup, Stream, Worker, master_key};
use mafia_engine::{Answer, Event, Game, NoLog, PRESETS, Request, View};

fn lineup(spec: &str) -> Lineup {
    let mut l = Lineup::default();
    l.register_data("legal-random", || LegalRandom);
    l.apply(spec).unwrap();
    l
}

#[test]
fn every_listed_option_is_legal_in_every_preset() {
    for preset in PRESETS.iter() {
        for rules in [vec![], vec![("absence", "0.1"), ("tie_break", "random"), ("reveal_roles_on_death", "true")]] {
            let mut setup = preset.setup();
            for (k, v) in &rules {
                setup.rules.set(k, v).unwrap();
            }
            let game = Game::new(&setup).unwrap();
            for spec in ["legal-random", "classic,town=legal-random", "random,mafia=legal-random"] {
                let mut worker = Worker::new(lineup(spec), master_key(9));
                let mut days = 0;
                for i in 0..300 {
                    let out = worker.play(&game, i, &mut NoLog);
                    assert_eq!(out.illegal_decisions, 0, "{} {spec} {rules:?} game {i}", preset.name);
                    days += out.days as u64;
                }
                assert!(days >= 300, "the games were played");
            }
        }
    }
}

#[test]
fn data_agents_are_deterministic_whatever_ran_before() {
    let game = Game::new(&PRESETS[2].setup()).unwrap();
    let play = |order: &[u64]| {
        let mut w = Worker::new(lineup("classic,bandits=legal-random,town=legal-random"), master_key(4));
        order.iter().map(|&i| (i, w.play(&game, i, &mut NoLog))).collect::<std::collections::BTreeMap<_, _>>()
    };
    let a = play(&[0, 1, 2, 3, 4, 5, 6, 7]);
    let b = play(&[7, 3, 5, 1, 0, 6, 2, 4]);
    assert_eq!(a, b);
}

/// An agent that answers the wrong decision is refused and counted, and
/// the game goes on.
struct Contrary;

impl DataAgent for Contrary {
    fn decide(&mut self, view: &View, _rng: &mut Stream) -> Answer {
        match view.request {
            Request::Vote { .. } => Answer::HangBoth { hang: true },
            _ => Answer::Ready,
        }
    }
}

#[test]
fn a_wrong_answer_is_refused_and_counted() {
    let game = Game::new(&PRESETS[0].setup()).unwrap();
    let mut l = Lineup::default();
    l.register_data("contrary", || Contrary);
    l.apply("classic,town=contrary").unwrap();
    let mut w = Worker::new(l, master_key(1));
    let mut log = Vec::new();
    let out = w.play(&game, 0, &mut log);
    assert!(out.illegal_decisions > 0);
    assert!(log.iter().any(|e| matches!(e, Event::Illegal { what: "vote", .. })));
    assert!(log.iter().any(|e| matches!(e, Event::GameEnd { .. })));
}

/// Answers like `LegalRandom`, checking `Request::admits` (the check an
/// agent in another process is held to) on the way: every legal random
/// answer is admitted, and each kind of wrong answer is not.
struct Judge;

impl DataAgent for Judge {
    fn decide(&mut self, view: &View, rng: &mut Stream) -> Answer {
        let r = &view.request;
        let answer = mafia_agents::legal_random(r, rng);
        assert!(r.admits(&answer), "{answer:?} refused for {r:?}");
        // Another decision's answer is never admitted.
        let other = if matches!(r, Request::HangBoth { .. }) { Answer::Ready } else { Answer::HangBoth { hang: true } };
        assert!(!r.admits(&other), "{other:?} admitted for {r:?}");
        // A vote or runoff vote for oneself is never an option.
        match r {
            Request::Vote { .. } => {
                assert!(!r.admits(&Answer::Vote { vote: mafia_engine::Vote::For(view.seat) }));
            }
            Request::Runoff { options } if !options.contains(view.seat) => {
                assert!(!r.admits(&Answer::Runoff { choice: view.seat }));
            }
            Request::Night { options } => {
                // A kill nick without a gun, or a move the seat does not have.
                let mut c = mafia_engine::NightChoice::default();
                if options.kill.is_none() {
                    c.kill = Some(view.seat);
                    assert!(!r.admits(&Answer::Night { moves: c }));
                } else if options.act.is_none() && options.borrow.is_empty() {
                    c.act = Some(view.seat);
                    assert!(!r.admits(&Answer::Night { moves: c }));
                }
            }
            _ => {}
        }
        answer
    }
}

#[test]
fn admits_takes_every_legal_answer_and_refuses_wrong_ones() {
    for preset in PRESETS.iter() {
        let game = Game::new(&preset.setup()).unwrap();
        let mut l = Lineup::default();
        l.register_data("judge", || Judge);
        l.apply("judge").unwrap();
        let mut w = Worker::new(l, master_key(3));
        for i in 0..100 {
            assert_eq!(w.play(&game, i, &mut NoLog).illegal_decisions, 0, "{} game {i}", preset.name);
        }
    }
}

/// Keeps every view it is shown, as JSON, and answers like `LegalRandom`.
struct Recorder(std::sync::Arc<std::sync::Mutex<Vec<String>>>);

impl DataAgent for Recorder {
    fn start(&mut self, view: &View) {
        self.0.lock().unwrap().push(serde_json::to_string(view).unwrap());
    }
    fn decide(&mut self, view: &View, rng: &mut Stream) -> Answer {
        self.0.lock().unwrap().push(serde_json::to_string(view).unwrap());
        mafia_agents::legal_random(&view.request, rng)
    }
}

/// Golden views: every view the Don and the Commissar of one classic game
/// are shown, as the JSON an agent in another language reads. A change of
/// the encoding, of what a seat may see or of its options shows here
/// (`UPDATE_GOLDEN=1 cargo test --release -p mafia-agents --test data_agents`
/// rewrites the file after an intended change).
#[test]
fn golden_views_of_one_classic_game() {
    let game = Game::new(&PRESETS[0].setup()).unwrap();
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut l = Lineup::default();
    let shared = seen.clone();
    l.register_data("recorder", move || Recorder(shared.clone()));
    l.apply("forum,don=recorder,commissar=recorder").unwrap();
    let mut w = Worker::new(l, master_key(3));
    w.play(&game, 0, &mut NoLog);
    let text = seen.lock().unwrap().join("\n") + "\n";
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/views-classic-game0.jsonl");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
    }
    let golden = std::fs::read_to_string(&path).expect("the golden views (UPDATE_GOLDEN=1 writes them)");
    for (i, (a, b)) in golden.lines().zip(text.lines()).enumerate() {
        assert_eq!(a, b, "view {i} differs from {}", path.display());
    }
    assert_eq!(golden.lines().count(), text.lines().count());
    // Both seats were asked at least to start, vote and act at night.
    for k in ["\"start\"", "\"vote\"", "\"night\""] {
        assert!(text.contains(&format!("\"decision\":{k}")), "no {k} view");
    }
}
