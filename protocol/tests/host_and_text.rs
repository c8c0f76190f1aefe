//! Host mode (`mafia host`) driven over real pipes, and the plain-text view.

use mafia_agents::{DataAgent, Lineup, Purpose, Stream, Worker, legal_random, master_key};
use mafia_engine::{Answer, Game, NoLog, Preset, Request, View};
use mafia_protocol::text::view_text;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};

fn classic() -> Game {
    Game::new(&Preset::find("classic").expect("a preset").setup()).expect("valid")
}

/// Runs `serve` on pipes; the controller is this test.
struct Host {
    to: std::io::PipeWriter,
    from: BufReader<std::io::PipeReader>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Host {
    fn start() -> Host {
        let (in_r, in_w) = std::io::pipe().unwrap();
        let (out_r, out_w) = std::io::pipe().unwrap();
        let thread = std::thread::spawn(move || {
            let game = classic();
            mafia_protocol::host::serve(&game, &Lineup::default(), Box::new(BufReader::new(in_r)), Box::new(out_w))
                .unwrap();
        });
        Host { to: in_w, from: BufReader::new(out_r), thread: Some(thread) }
    }
    fn send(&mut self, v: Value) {
        writeln!(self.to, "{v}").unwrap();
    }
    fn receive(&mut self) -> Value {
        let mut line = String::new();
        self.from.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    }
}

#[test]
fn host_plays_the_asked_seats_and_the_lineup_the_rest() {
    let mut h = Host::start();
    assert_eq!(h.receive()["type"], "hello");
    h.send(json!({"type": "hello", "protocol": 1, "view": true}));
    h.send(json!({"type": "play", "seed": 3, "game": 0, "seats": [2, 5]}));
    let mut rng = Stream::new(master_key(99), 0, Purpose::Host);
    let (mut starts, mut requests, mut ends) = (0, 0, Vec::new());
    let done = loop {
        let m = h.receive();
        match m["type"].as_str().unwrap() {
            "start" => starts += 1,
            "request" => {
                let seat = m["seat"].as_u64().unwrap();
                assert!(seat == 2 || seat == 5, "{m}");
                assert_eq!(m["view"]["seat"], m["seat"]);
                requests += 1;
                let request: Request = serde_json::from_value(m["request"].clone()).unwrap();
                let answer = legal_random(&request, &mut rng);
                h.send(json!({"type": "answer", "id": m["id"], "game": 0, "seat": seat, "answer": answer}));
            }
            "end" => ends.push(m),
            "done" => break m,
            other => panic!("unexpected {other}: {m}"),
        }
    };
    assert_eq!(starts, 2);
    assert!(requests >= 2);
    assert_eq!(ends.len(), 2);
    let winner = done["ending"]["winner"].clone();
    for e in &ends {
        let seat = e["seat"].as_u64().unwrap() as usize;
        let role = e["ending"]["roles"][seat - 1].as_str().unwrap().to_string();
        let camp = mafia_engine::Role::from_name(&role).unwrap().camp();
        assert_eq!(e["ending"]["won"], json!(winner == json!(camp.name())), "{e}");
    }
    // A game without controlled seats is the lineup's own game 0 of seed 3.
    h.send(json!({"type": "play", "seed": 3, "game": 0, "seats": []}));
    let done = h.receive();
    let mut w = Worker::new(Lineup::default(), master_key(3));
    let o = w.play(&classic(), 0, &mut NoLog);
    assert_eq!(done["ending"]["days"], json!(o.days));
    assert_eq!(done["ending"]["winner"], json!(o.winner.map(|c| c.name())));
    // A seat the game does not have is an error message, and the host goes on.
    h.send(json!({"type": "play", "seed": 3, "game": 0, "seats": [11]}));
    let e = h.receive();
    assert_eq!(e["type"], "error");
    assert!(e["message"].as_str().unwrap().contains("seat 11"), "{e}");
    h.send(json!({"type": "bye"}));
    h.thread.take().unwrap().join().unwrap();
}

#[test]
fn host_refuses_an_illegal_answer_and_plays_on() {
    let mut h = Host::start();
    h.receive();
    h.send(json!({"type": "hello", "protocol": 1, "view": false, "start_end": false}));
    h.send(json!({"type": "play", "seed": 1, "game": 4, "seats": [1]}));
    let mut errors = 0;
    loop {
        let m = h.receive();
        match m["type"].as_str().unwrap() {
            "request" => {
                assert!(m.get("view").is_none());
                // Always the wrong decision.
                h.send(json!({"type": "answer", "id": m["id"], "game": 4, "seat": 1,
                              "answer": {"decision": "hang_both", "hang": true}}));
            }
            "error" => errors += 1,
            "done" => break,
            other => panic!("unexpected {other}: {m}"),
        }
    }
    assert!(errors > 0);
    drop(h.to);
}

/// Keeps the text of every view it is shown.
struct Reader(std::sync::Arc<std::sync::Mutex<Vec<(View, String)>>>);

impl DataAgent for Reader {
    fn decide(&mut self, view: &View, rng: &mut Stream) -> Answer {
        self.0.lock().unwrap().push((view.clone(), view_text(view)));
        legal_random(&view.request, rng)
    }
}

#[test]
fn the_text_view_names_only_the_roles_the_seat_knows() {
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut l = Lineup::default();
    let keep = seen.clone();
    l.register_data("reader", move || Reader(keep.clone()));
    l.apply("reader").unwrap();
    let mut w = Worker::new(l, master_key(5));
    for i in 0..20 {
        w.play(&classic(), i, &mut NoLog);
    }
    let seen = seen.lock().unwrap();
    assert!(seen.len() > 100);
    for (view, text) in seen.iter() {
        let me = view.seat.index() + 1;
        assert!(text.starts_with(&format!("You are P{me}, the {}", view.private.role)), "{text}");
        assert!(text.contains("Asked: "), "{text}");
        let named_mafia = text.matches("(mafioso)").count() + text.matches("(don)").count();
        if view.private.camp == mafia_engine::Camp::Town {
            assert_eq!(named_mafia, 0, "a town seat's text names a mafia role:\n{text}");
        } else {
            assert!(named_mafia > 0, "{text}");
        }
    }
}
