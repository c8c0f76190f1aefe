//! The cheapest agent there is, for measuring the protocol's own cost: it
//! answers every request with a legal answer drawn from the request's
//! `seed` (the Rust `legal_random`), reading requests only (`view: false`,
//! `quiet: true`), one line at a time.
//!
//! ```text
//! cargo build --release -p mafia-protocol --example echo_agent
//! mafia run --games 20000 --agents ext:target/release/examples/echo_agent --ext-procs 1
//! ```

use mafia_agents::{Purpose, Stream, legal_random};
use mafia_engine::{Request, Seat};
use std::io::{BufRead, Write};

#[derive(serde::Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum In {
    Hello,
    Request {
        id: u64,
        game: u64,
        seat: Seat,
        seed: u64,
        request: Request,
    },
    Bye,
    #[serde(other)]
    Other,
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut line = String::new();
    let mut input = stdin.lock();
    while input.read_line(&mut line).is_ok_and(|n| n > 0) {
        match serde_json::from_str::<In>(line.trim()) {
            Ok(In::Hello) => {
                writeln!(
                    out,
                    r#"{{"type":"hello","protocol":1,"name":"echo","view":false,"quiet":true,"start_end":false}}"#
                )
                .unwrap();
                out.flush().unwrap();
            }
            Ok(In::Request { id, game, seat, seed, request }) => {
                let mut key = [0u8; 32];
                key[..8].copy_from_slice(&seed.to_le_bytes());
                let mut rng = Stream::new(key, 0, Purpose::Host);
                let answer = legal_random(&request, &mut rng);
                let a = serde_json::to_string(&answer).unwrap();
                writeln!(out, r#"{{"type":"answer","id":{id},"game":{game},"seat":{},"answer":{a}}}"#, seat.number())
                    .unwrap();
                out.flush().unwrap();
            }
            Ok(In::Bye) => return,
            _ => {}
        }
        line.clear();
    }
}
