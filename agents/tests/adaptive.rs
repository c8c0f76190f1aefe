//! Adaptive replies (`CAMP?SIGNAL=…`, agents/src/lineup.rs): a camp's
//! `forum` seats take other parameters from night 1 in the games whose
//! first day showed the signal, and nothing else changes.

use mafia_agents::{Lineup, Signal, SignalKind, Worker, master_key};
use mafia_engine::{Event, Game, Preset};

fn logs(preset: &str, spec: &str, n: u64) -> Vec<Vec<Event>> {
    let game = Game::new(&Preset::find(preset).unwrap().setup()).unwrap();
    let mut lineup = Lineup::default();
    lineup.apply(spec).unwrap();
    let mut w = Worker::new(lineup, master_key(9));
    (0..n)
        .map(|i| {
            let mut log = Vec::new();
            w.play(&game, i, &mut log);
            log
        })
        .collect()
}

/// The events before night 1.
fn day_one(log: &[Event]) -> &[Event] {
    let end = log.iter().position(|e| matches!(e, Event::NightStart { .. })).unwrap_or(log.len());
    &log[..end]
}

#[test]
fn an_adaptive_reply_label_round_trips_and_bad_ones_are_refused() {
    let mut l = Lineup::default();
    l.apply("preset:extended,mafia?claims>0=forum:preempt=1,mafia?passes<3=forum:trust=0").unwrap();
    assert_eq!(l.label(), "preset:extended,mafia?claims>0=forum:preempt=1,mafia?passes<3=forum:trust=0");
    let mut again = Lineup::default();
    again.apply(&l.label()).unwrap();
    assert_eq!(again.label(), l.label());
    // The same signal again replaces its reply.
    l.apply("mafia?claims>0=forum:kill=order").unwrap();
    assert_eq!(l.adaptive_of(mafia_engine::Camp::Mafia).len(), 2);
    assert!(l.label().contains("mafia?claims>0=forum:kill=order"), "{}", l.label());
    assert_eq!(Signal::parse("passes>4"), Some(Signal { kind: SignalKind::Passes, threshold: 4, above: true }));
    for bad in [
        "mafia?votes>1=forum",
        "mafia?passes=forum",
        "mafia?passes>x=forum",
        "mafia?passes>1=random",
        "nobody?passes>1=forum",
    ] {
        let err = Lineup::default().apply(bad).unwrap_err().to_string();
        assert!(err.contains('?') || err.contains("nobody"), "{bad}: {err}");
    }
}

#[test]
fn an_adaptive_reply_changes_nothing_before_night_1_nor_in_games_without_its_signal() {
    let base = logs("extended", "preset:extended", 300);
    // A signal no first day shows: every game as before, event for event.
    assert_eq!(logs("extended", "preset:extended,mafia?claims>250=forum:whom=random:kill=order", 300), base);
    // One every first day shows: day 1 as before, then other play.
    let always = logs("extended", "preset:extended,mafia?claims<250=forum:whom=random:kill=order", 300);
    let mut changed = 0;
    for (a, b) in always.iter().zip(&base) {
        assert_eq!(day_one(a), day_one(b), "the reply took effect before night 1");
        changed += (a != b) as u32;
    }
    assert!(changed > 100, "{changed} of 300 games changed after day 1");
}

#[test]
fn a_signal_reads_the_first_day_record() {
    // `passes>0` holds exactly in the games whose day 1 ended with a PASS
    // vote: the reply changes only those games (after day 1).
    let base = logs("classic", "forum", 400);
    let adapted = logs("classic", "forum,mafia?passes>0=forum:kill=order:whom=random", 400);
    let mut shown = 0;
    for (a, b) in adapted.iter().zip(&base) {
        // The last day-1 vote of each seat: its final vote.
        let mut last = std::collections::HashMap::new();
        for e in day_one(b) {
            if let Event::Vote { seat, vote, .. } = e {
                last.insert(*seat, *vote);
            }
        }
        let passes = last.values().filter(|v| **v == mafia_engine::Vote::Pass).count();
        if passes == 0 {
            assert_eq!(a, b, "a game without the signal changed");
        } else {
            shown += 1;
        }
    }
    assert!(shown > 20, "{shown} games showed passes>0");
}

#[test]
fn an_alternative_of_a_mix_carries_its_own_replies() {
    // `CAMP@?SIGNAL=…` belongs to the camp's alternative given just before it.
    let spec = "forum,mafia@0.5=forum:blend=1,mafia@?claims>0=forum:preempt=1,mafia@0.3=forum:fake=1";
    let mut l = Lineup::default();
    l.apply(spec).unwrap();
    assert_eq!(l.label(), spec);
    let camp = mafia_engine::Camp::Mafia;
    assert!(l.adaptive_of(camp).is_empty(), "not the camp's own");
    assert_eq!(l.alternative_replies(camp, 1).len(), 1);
    assert!(l.alternative_replies(camp, 2).is_empty() && l.alternative_replies(camp, 0).is_empty());
    // Without an alternative before it, it is refused.
    let err = Lineup::default().apply("forum,mafia@?claims>0=forum:preempt=1").unwrap_err().to_string();
    assert!(err.contains("no alternative"), "{err}");
    // A reply of an alternative changes only games after day 1, and none where its signal never shows.
    let base = logs("classic", "forum,mafia@0.5=forum:blend=1", 300);
    assert_eq!(logs("classic", "forum,mafia@0.5=forum:blend=1,mafia@?claims>250=forum:skip=1", 300), base);
    let always = logs("classic", "forum,mafia@0.5=forum:blend=1,mafia@?claims<250=forum:skip=1", 300);
    let mut changed = 0;
    for (a, b) in always.iter().zip(&base) {
        assert_eq!(day_one(a), day_one(b));
        changed += (a != b) as u32;
    }
    // About half the games play the alternative; most of those change.
    assert!((60..=200).contains(&changed), "{changed} of 300 games changed");
}
