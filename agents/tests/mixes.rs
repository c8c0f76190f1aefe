//! A camp's mixed strategy (`CAMP@SHARE=…`): each game plays one
//! alternative per mixed camp, drawn from the game's mix stream.

use mafia_agents::{Lineup, Worker, master_key};
use mafia_engine::{Camp, Event, Game, Preset};

fn lineup(spec: &str) -> Lineup {
    let mut l = Lineup::default();
    l.apply(spec).unwrap();
    l
}

fn play_all(spec: &str, games: u64) -> Vec<Vec<Event>> {
    let game = Game::new(&Preset::find("classic").unwrap().setup()).unwrap();
    let mut w = Worker::new(lineup(spec), master_key(3));
    (0..games)
        .map(|i| {
            let mut log = Vec::new();
            w.play(&game, i, &mut log);
            log
        })
        .collect()
}

#[test]
fn an_alternative_of_share_one_plays_exactly_like_the_camp_layer() {
    assert_eq!(
        play_all("forum,mafia@1=forum:fake=1:blend=0.5", 300),
        play_all("forum,mafia=forum:fake=1:blend=0.5", 300)
    );
    assert_eq!(play_all("random,town@1=forum", 300), play_all("random,town=forum", 300));
}

#[test]
fn each_alternative_plays_its_share_of_the_games_and_only_those() {
    let game = Game::new(&Preset::find("classic").unwrap().setup()).unwrap();
    let spec = "forum,mafia@0.3=random,town@0.5=random";
    let mut mixed = Worker::new(lineup(spec), master_key(3));
    let mut plain = Worker::new(lineup("forum"), master_key(3));
    let mut mafia_random = Worker::new(lineup("forum,mafia=random"), master_key(3));
    let mut town_random = Worker::new(lineup("forum,town=random"), master_key(3));
    let mut both_random = Worker::new(lineup("forum,mafia=random,town=random"), master_key(3));
    let n = 4000;
    let mut counts = [[0u32; 2]; 2];
    for i in 0..n {
        let mut log = Vec::new();
        mixed.play(&game, i, &mut log);
        let pick = mixed.table.pick();
        let (t, m) = (pick[Camp::Town as usize] as usize, pick[Camp::Mafia as usize] as usize);
        counts[t][m] += 1;
        // The game is the game of the pure lineup the pick names, event for event.
        let pure = match (t, m) {
            (0, 0) => &mut plain,
            (0, 1) => &mut mafia_random,
            (1, 0) => &mut town_random,
            _ => &mut both_random,
        };
        let mut again = Vec::new();
        pure.play(&game, i, &mut again);
        assert_eq!(log, again, "game {i}, pick {pick:?}");
    }
    // The two camps' picks are independent draws of their shares (4 sd).
    for (t, share_t) in [(0, 0.5), (1, 0.5)] {
        for (m, share_m) in [(0, 0.7), (1, 0.3)] {
            let p: f64 = share_t * share_m;
            let sd = (p * (1.0 - p) * n as f64).sqrt();
            let got = counts[t][m] as f64;
            assert!((got - p * n as f64).abs() < 4.0 * sd, "town {t} mafia {m}: {got} of {n}, expected {p}");
        }
    }
}

#[test]
fn a_lineup_without_a_mix_draws_no_pick() {
    let game = Game::new(&Preset::find("classic").unwrap().setup()).unwrap();
    let mut w = Worker::new(lineup("forum,mafia=random"), master_key(3));
    for i in 0..50 {
        w.play(&game, i, &mut mafia_engine::NoLog);
        assert_eq!(w.table.pick(), [0; Camp::COUNT]);
    }
}
