//! The steppable game (`mafia_agents::Stepper`, issue 36): the cost of a
//! whole game played one decision at a time, the way an environment steps
//! it — one learning seat on `classic` (the usual reinforcement-learning
//! set-up: one seat against the built-in strategies) and every seat on
//! `extended` (self-play). Each step resumes the game's coroutine where
//! the last decision suspended it; divide the time by the decisions
//! (printed once per bench) for the time a step. The `env_` benches play
//! the same set-ups through `mafia_agents::Env` (observation tensor, mask
//! and one discrete action per decision part); `_light`: on light views,
//! as the batched environment plays.
//!
//! `cargo bench --bench step`; CI runs it once with `-- --test`.

use criterion::{Criterion, criterion_group, criterion_main};
use mafia_agents::{Env, Lineup, Purpose, Stepper, Stream, legal_random, master_key};
use mafia_engine::{Game, Preset, Seat};
use std::hint::black_box;

fn preset(name: &str) -> Game {
    Game::new(&Preset::find(name).expect("a preset").setup()).expect("a valid preset")
}

/// Plays game `index` to its end, answering every pending decision with a
/// random legal answer; returns the decisions answered.
fn play(s: &mut Stepper, index: u64, rng: &mut Stream) -> u64 {
    s.reset(index);
    let mut steps = 0;
    while let Some(view) = s.pending() {
        let answer = legal_random(&view.request, rng);
        s.step(answer).expect("a legal answer");
        steps += 1;
    }
    assert!(s.outcome().is_some(), "the game ended");
    steps
}

fn bench_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("step");
    for (name, setup, every) in [("classic_one_seat", "classic", false), ("extended_every_seat", "extended", true)] {
        let game = preset(setup);
        let seats: Vec<Seat> = if every { Seat::all(game.players()).collect() } else { vec![Seat::new(0)] };
        let mut s = Stepper::new(game, Lineup::for_preset(setup), 1, &seats).expect("a lineup");
        let mut rng = Stream::new(master_key(2), 0, Purpose::Seat(Seat::new(0)));
        let steps: u64 = (0..100).map(|i| play(&mut s, i, &mut rng)).sum();
        println!("step/{name}: {:.1} decisions a game", steps as f64 / 100.0);
        let mut i = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                i += 1;
                black_box(play(&mut s, i, &mut rng))
            })
        });
    }
    // The same games through `Env`: the tensor and the mask built at each
    // part, a random legal action taken; `_light`: on light views (the
    // batched environment's), the public record read from the log.
    for (name, setup, every, light) in [
        ("env_classic_one_seat", "classic", false, false),
        ("env_classic_every_seat", "classic", true, false),
        ("env_classic_every_seat_light", "classic", true, true),
        ("env_extended_every_seat", "extended", true, false),
        ("env_extended_every_seat_light", "extended", true, true),
    ] {
        let game = preset(setup);
        let seats: Vec<Seat> = if every { Seat::all(game.players()).collect() } else { vec![Seat::new(0)] };
        let lineup = Lineup::for_preset(setup);
        let made = if light { Env::light(game, lineup, 1, &seats) } else { Env::new(game, lineup, 1, &seats) };
        let mut env = made.expect("a lineup");
        let mut rng = Stream::new(master_key(2), 0, Purpose::Seat(Seat::new(0)));
        let (mut obs, mut mask) = (vec![0.0f32; env.observation_len()], vec![0u8; env.actions()]);
        let mut game = |env: &mut Env, i: u64| {
            env.reset(i);
            let mut parts = 0u64;
            while env.seat().is_some() {
                env.observe(&mut obs);
                env.mask(&mut mask);
                let legal = mask.iter().filter(|&&m| m == 1).count() as u32;
                let k = mafia_engine::below(&mut rng, legal) as usize;
                let a = mask.iter().enumerate().filter(|(_, m)| **m == 1).nth(k).expect("a legal action").0;
                env.act(a).expect("a legal action");
                parts += 1;
            }
            parts
        };
        let parts: u64 = (0..100).map(|i| game(&mut env, i)).sum();
        println!("step/{name}: {:.1} parts a game", parts as f64 / 100.0);
        let mut i = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                i += 1;
                black_box(game(&mut env, i))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_step);
criterion_main!(benches);
