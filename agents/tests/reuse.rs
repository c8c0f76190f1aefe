//! A worker reuses its state, streams and agents from game to game and
//! resets only what the last game touched (`State::set_roles` clears the
//! checks, reports and publications of the seats that had any). Whatever a
//! game leaves behind must not reach the next: each game a reused worker
//! plays is event for event the game a fresh worker plays.

use mafia_agents::{Lineup, Worker, master_key};
use mafia_engine::{Event, Game, Preset};

#[test]
fn a_reused_worker_plays_each_game_as_a_fresh_one() {
    for (preset, spec) in [("classic", "forum"), ("classic", "random"), ("extended", "forum"), ("extended", "random")] {
        let game = Game::new(&Preset::find(preset).unwrap().setup()).unwrap();
        let lineup = || {
            let mut l = Lineup::default();
            l.apply(spec).unwrap();
            l
        };
        let mut reused = Worker::new(lineup(), master_key(5));
        let mut published = 0;
        for i in 0..60u64 {
            let mut a: Vec<Event> = Vec::new();
            let out_a = reused.play(&game, i, &mut a);
            let mut b: Vec<Event> = Vec::new();
            let out_b = Worker::new(lineup(), master_key(5)).play(&game, i, &mut b);
            assert_eq!(out_a, out_b, "{preset} {spec} game {i}");
            assert_eq!(a, b, "{preset} {spec} game {i}");
            published += a.iter().filter(|e| matches!(e, Event::Post { .. } | Event::LastWord { .. })).count();
        }
        // The forum games carried publications and checks from game to game.
        assert!(spec == "random" || published > 0, "{preset} {spec}");
    }
}
