//! Host mode (`mafia host`): the engine as the child of a controlling
//! program, which asks for games one at a time (`play`) and answers the
//! seats it controls over the same protocol; the other seats play the
//! lineup. A program in any language can step games this way; Python's
//! environments run the engine in-process instead (`python/`).

use crate::message::{FromAgent, PROTOCOL, ToAgent, Wants, line};
use crate::text::view_text;
use mafia_agents::{DataAgent, Lineup, Stream, Worker, legal_random, master_key};
use mafia_engine::{Answer, Ending, Game, NoLog, Seat, View};
use rand::Rng as _;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

/// Why host mode stopped early.
#[derive(Debug)]
pub enum HostError {
    /// Reading or writing the pipes failed.
    Io(std::io::Error),
    /// The controller's `hello` was missing or wrong.
    Hello(String),
}

impl std::fmt::Display for HostError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HostError::Io(e) => write!(f, "host: {e}"),
            HostError::Hello(m) => write!(f, "host: {m}"),
        }
    }
}

impl From<std::io::Error> for HostError {
    fn from(e: std::io::Error) -> Self {
        HostError::Io(e)
    }
}

/// The controller's pipes, shared by its seats.
struct Link {
    input: Box<dyn BufRead + Send>,
    output: Box<dyn Write + Send>,
    wants: Wants,
    next_id: u64,
    /// The controller closed its output: the game is finished at random.
    closed: bool,
}

impl Link {
    fn send(&mut self, m: &ToAgent<'_>) {
        let text = line(m);
        if writeln!(self.output, "{text}").and_then(|_| self.output.flush()).is_err() {
            self.closed = true;
        }
    }

    /// The next message, skipping blank lines; `None` at the end.
    fn receive(&mut self) -> Option<Result<FromAgent, String>> {
        let mut buf = String::new();
        loop {
            buf.clear();
            match self.input.read_line(&mut buf) {
                Ok(0) | Err(_) => return None,
                Ok(_) if buf.trim().is_empty() => continue,
                Ok(_) => {
                    return Some(
                        serde_json::from_str::<FromAgent>(buf.trim()).map_err(|e| format!("`{}`: {e}", buf.trim())),
                    );
                }
            }
        }
    }

    fn error(&mut self, message: &str) {
        eprintln!("mafia host: {message}");
        self.send(&ToAgent::Error { message });
    }
}

/// A seat the controller plays.
struct Controlled {
    link: Arc<Mutex<Link>>,
    game: u64,
}

impl DataAgent for Controlled {
    fn game(&mut self, index: u64) {
        self.game = index;
    }

    fn start(&mut self, view: &View) {
        let mut link = self.link.lock().unwrap_or_else(|e| e.into_inner());
        let wants = link.wants;
        if wants.start_end {
            link.send(&ToAgent::Start { game: self.game, seat: view.seat, view: wants.view.then_some(view) });
        }
    }

    fn decide(&mut self, view: &View, rng: &mut Stream) -> Answer {
        let seed = rng.next_u64() >> 11;
        let mut link = self.link.lock().unwrap_or_else(|e| e.into_inner());
        if link.closed {
            return legal_random(&view.request, rng);
        }
        link.next_id += 1;
        let id = link.next_id;
        let wants = link.wants;
        let text = wants.text.then(|| view_text(view));
        link.send(&ToAgent::Request {
            id,
            game: self.game,
            seat: view.seat,
            seed,
            request: &view.request,
            view: wants.view.then_some(view),
            text: text.as_deref(),
        });
        let problem = match link.receive() {
            // The controller is gone or done: the game is finished at random, then the host stops.
            None | Some(Ok(FromAgent::Bye)) => {
                link.closed = true;
                return legal_random(&view.request, rng);
            }
            Some(Err(e)) => format!("not a message: {e}"),
            Some(Ok(FromAgent::Answer { id: i, game, seat, answer })) => {
                if i != id || game != self.game || seat != view.seat {
                    format!("answer for request {i} of game {game}, seat {}: expected request {id}", seat.number())
                } else if !view.request.admits(&answer) {
                    format!("request {id}: `{}` is not a legal answer to `{}`", answer.name(), view.request.name())
                } else {
                    return answer;
                }
            }
            Some(Ok(other)) => format!("expected the answer to request {id}, got {other:?}"),
        };
        link.error(&format!("{problem}; a random legal answer is played instead"));
        legal_random(&view.request, rng)
    }

    fn wants_view(&self) -> bool {
        let link = self.link.lock().unwrap_or_else(|e| e.into_inner());
        link.wants.view || link.wants.text
    }

    fn quiet(&self) -> bool {
        self.link.lock().unwrap_or_else(|e| e.into_inner()).wants.quiet
    }
}

/// Serves games on `input`/`output` until `bye` or the end of `input`.
/// `lineup` plays the seats the controller does not ask for.
pub fn serve(
    game: &Game,
    lineup: &Lineup,
    input: Box<dyn BufRead + Send>,
    output: Box<dyn Write + Send>,
) -> Result<(), HostError> {
    let link = Arc::new(Mutex::new(Link { input, output, wants: Wants::default(), next_id: 0, closed: false }));
    {
        let mut l = link.lock().unwrap_or_else(|e| e.into_inner());
        l.send(&ToAgent::Hello { protocol: PROTOCOL, process: 0 });
        match l.receive() {
            Some(Ok(FromAgent::Hello { protocol: PROTOCOL, view, text, quiet, start_end, .. })) => {
                l.wants = Wants { view, text, quiet, start_end };
            }
            Some(Ok(FromAgent::Hello { protocol, .. })) => {
                return Err(HostError::Hello(format!("protocol {protocol} asked; this engine speaks {PROTOCOL}")));
            }
            Some(Ok(other)) => return Err(HostError::Hello(format!("expected hello, got {other:?}"))),
            Some(Err(e)) => return Err(HostError::Hello(format!("expected hello: {e}"))),
            None => return Ok(()),
        }
    }
    let players = game.players();
    loop {
        let message = link.lock().unwrap_or_else(|e| e.into_inner()).receive();
        let (seed, index, seats) = match message {
            None | Some(Ok(FromAgent::Bye)) => return Ok(()),
            Some(Ok(FromAgent::Play { seed, game, seats })) => (seed, game, seats),
            Some(Ok(other)) => {
                link.lock().unwrap_or_else(|e| e.into_inner()).error(&format!("expected play or bye, got {other:?}"));
                continue;
            }
            Some(Err(e)) => {
                link.lock().unwrap_or_else(|e| e.into_inner()).error(&format!("not a message: {e}"));
                continue;
            }
        };
        if let Some(s) = seats.iter().find(|&s| s.index() >= players) {
            let message = format!("play: seat {} is not in this {players}-player game", s.number());
            link.lock().unwrap_or_else(|e| e.into_inner()).error(&message);
            continue;
        }
        let mut l = lineup.clone();
        let shared = link.clone();
        l.register_data("host", move || Controlled { link: shared.clone(), game: 0 });
        for s in seats.iter() {
            l.set(&format!("seat{}", s.number()), "host").expect("`host` plays every role");
        }
        let mut w = Worker::new(l, master_key(seed));
        let outcome = w.play(game, index, &mut NoLog);
        let roles = w.state.roles().to_vec();
        let mut lk = link.lock().unwrap_or_else(|e| e.into_inner());
        let ended = if lk.wants.start_end { seats } else { mafia_engine::PlayerSet::EMPTY };
        for s in ended.iter() {
            let ending = Ending::of(&outcome, &roles, Some(s as Seat));
            lk.send(&ToAgent::End { game: index, seat: s, ending: &ending });
        }
        let ending = Ending::of(&outcome, &roles, None);
        lk.send(&ToAgent::Done { game: index, ending: &ending });
        if lk.closed {
            return Ok(());
        }
    }
}
