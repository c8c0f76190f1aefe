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

/// A `ForumAgent` used on its own (a plugin seat, outside the table's
/// shared read) keeps its own public read and memory: it must forget them
/// at each new game, or yesterday's votes and claims of the last game
/// would steer this one.
#[test]
fn a_stand_alone_forum_agent_forgets_the_last_game() {
    let game = Game::new(&Preset::find("classic").unwrap().setup()).unwrap();
    let lineup = || {
        let mut l = Lineup::default();
        l.register("alone", std::sync::Arc::new(|| Box::new(mafia_agents::ForumAgent::default()) as Box<_>));
        l.apply("alone").unwrap();
        l
    };
    let mut reused = Worker::new(lineup(), master_key(9));
    let mut days = 0;
    for i in 0..80u64 {
        let mut a: Vec<Event> = Vec::new();
        let out_a = reused.play(&game, i, &mut a);
        let mut b: Vec<Event> = Vec::new();
        let out_b = Worker::new(lineup(), master_key(9)).play(&game, i, &mut b);
        assert_eq!(out_a, out_b, "game {i}");
        assert_eq!(a, b, "game {i}");
        days += out_a.days as u32;
    }
    // Games long enough that a day's votes were remembered for the next.
    assert!(days > 160, "{days} days in 80 games");
}
