//! The checkers on games played by the engine itself with simple seeded
//! players (legal moves only), and on hand-broken copies of their logs.

use crate::{Checker, check_game, classic, classic_applies, extended};
use mafia_engine::{
    Camp, Chance, Event, Game, LynchResult, NightAbility, NightChoice, NightMoves, Observation, Outcome, PlayerSet,
    Players, Preset, Publication, Seat, State, Targets, Vote, below, pick, play,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Seeded players that make only legal choices: random votes and runoff
/// choices, a kill nick for the lowest living player outside the camp, a
/// random legal target for the role's own move, a search nick for bandits.
struct Legal {
    rng: ChaCha8Rng,
}

impl Legal {
    fn coin(&mut self, num: u32, den: u32) -> bool {
        below(&mut self.rng, den) < num
    }
}

impl Players for Legal {
    fn new_game(&mut self, _obs: &Observation<'_>) {}
    fn post(&mut self, _obs: &Observation<'_>) -> Publication {
        Publication::NONE
    }
    fn vote(&mut self, obs: &Observation<'_>) -> Vote {
        if self.coin(1, 5) { Vote::Pass } else { pick(&mut self.rng, obs.vote_options()).map_or(Vote::Pass, Vote::For) }
    }
    fn revise(&mut self, obs: &Observation<'_>) -> Option<Vote> {
        if self.coin(1, 4) {
            let v = self.vote(obs);
            Some(v)
        } else {
            None
        }
    }
    fn runoff(&mut self, _obs: &Observation<'_>, candidates: PlayerSet) -> Seat {
        pick(&mut self.rng, candidates).expect("a runoff has candidates")
    }
    fn hang_both(&mut self, _obs: &Observation<'_>, _pair: PlayerSet) -> bool {
        self.coin(1, 2)
    }
    fn night(&mut self, obs: &Observation<'_>) -> NightChoice {
        let kill = obs.kill_options().minus(obs.camp_mates()).lowest();
        let ability = obs.ability();
        let act = if ability == NightAbility::Borrow { None } else { pick(&mut self.rng, obs.targets(ability)) };
        let second = act.and_then(|a| pick(&mut self.rng, obs.second_targets(ability, a)));
        // A two-target move without a second target is no move.
        let act = if ability.info().targets == Targets::Two && second.is_none() { None } else { act };
        let search = pick(&mut self.rng, obs.search_targets());
        NightChoice { kill, act, second, search, ..NightChoice::default() }
    }
    fn last_word(&mut self, _obs: &Observation<'_>) -> Publication {
        Publication::NONE
    }
}

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

fn game(preset: &str, rules: &[(&str, &str)]) -> Game {
    let mut setup = Preset::find(preset).expect("a built-in preset").setup();
    for &(k, v) in rules {
        setup.rules.set(k, v).unwrap_or_else(|e| panic!("rule {k}={v}: {e}"));
    }
    Game::new(&setup).unwrap_or_else(|e| panic!("{preset} {rules:?}: {e}"))
}

/// Game `i` of `game` with [`Legal`] players: its log and outcome.
fn play_logged(game: &Game, i: u64) -> (Vec<Event>, Outcome) {
    let mut log = Vec::new();
    let out = play(
        game,
        &mut State::default(),
        &mut NightMoves::default(),
        &mut Legal { rng: rng(i ^ 0x1E6A) },
        Chance { deal: &mut rng(i), host: &mut rng(i ^ 0x4057), activity: &mut rng(i ^ 0xAC71) },
        &mut log,
    );
    (log, out)
}

#[test]
fn the_rule_picks_the_classic_checker_for_classic_games_only() {
    assert!(classic_applies(&game("classic", &[])));
    assert!(classic_applies(&game("classic-13", &[("tie_break", "random")])));
    assert!(!classic_applies(&game("extended", &[])));
    assert!(!classic_applies(&game("forum-16", &[])));
    // E8's leader kill is read by the extended checker only.
    assert!(!classic_applies(&game("classic", &[("camp_kill", "leader")])));
}

#[test]
fn clean_classic_games_pass() {
    let mut checker = Checker::new();
    for (preset, rules) in [
        ("classic", &[][..]),
        ("classic", &[("tie_break", "random"), ("absence", "0.1"), ("modkill", "0.03")][..]),
        ("classic-13", &[("reveal_roles_on_death", "true"), ("runoff_all_tied", "nobody")][..]),
        ("classic", &[("camp_kill", "leader")][..]),
    ] {
        let game = game(preset, rules);
        for i in 0..300 {
            let (log, out) = play_logged(&game, i);
            check_game(&game, &log, &out).unwrap_or_else(|e| panic!("{preset} {rules:?} game {i}: {e}"));
            checker.check(&game, &log, &out).unwrap_or_else(|e| panic!("{preset} {rules:?} game {i}: {e}"));
        }
    }
    assert_eq!(checker.games(), 1200);
    assert_eq!(checker.classic().games, 900);
    // The leader-kill variant went to the extended checker.
    assert_eq!(checker.extended().games, 300);
    assert_eq!(checker.extended().extended_games, 0);
    let seen = checker.classic();
    assert!(seen.night_kills > 0 && seen.lynch_ties > 0 && seen.absences > 0 && seen.modkills > 0, "{seen:?}");
}

#[test]
fn clean_extended_games_pass() {
    let mut checker = Checker::new();
    for preset in ["extended", "forum-16"] {
        let game = game(preset, &[]);
        for i in 0..300 {
            let (log, out) = play_logged(&game, i);
            checker
                .check(&game, &log, &out)
                .unwrap_or_else(|e| panic!("{preset} game {i}: {e}\n{}", crate::dump(&log)));
        }
    }
    assert_eq!(checker.classic().games, 0);
    let seen = checker.extended();
    assert_eq!((seen.games, seen.extended_games), (600, 600));
    assert!(seen.successes > 0 && seen.blocked > 0, "{seen:?}");
}

/// Refused by `check_game`, with `why` in the message.
fn refused(game: &Game, log: &[Event], out: &Outcome, why: &str) {
    let err = check_game(game, log, out).expect_err(why);
    assert!(err.contains(why), "expected `{why}`, got: {err}");
}

#[test]
fn broken_logs_are_refused_naming_the_clause() {
    for preset in ["classic", "extended"] {
        let game = game(preset, &[]);
        let mut dead_votes = 0;
        for i in 0..50 {
            let (log, out) = play_logged(&game, i);
            check_game(&game, &log, &out).expect("a valid game passes");
            // The wrong winner.
            let mut bad = log.clone();
            if let Some(Event::GameEnd { winner, .. }) = bad.last_mut() {
                *winner = match *winner {
                    Some(Camp::Town) => Some(Camp::Mafia),
                    _ => Some(Camp::Town),
                };
            }
            refused(&game, &bad, &out, "C17/C18/E2");
            // No end.
            refused(&game, &log[..log.len() - 1], &out, "did not end with a GameEnd");
            // The outcome disagrees with the log.
            refused(&game, &log, &Outcome { days: out.days + 1, ..out }, "outcome days");
            // A dead player votes.
            let Some(d) = log.iter().position(|e| matches!(e, Event::Died { .. })) else { continue };
            let Event::Died { seat: dead, .. } = log[d] else { unreachable!() };
            if let Some(v) = log[d..].iter().position(|e| matches!(e, Event::Vote { seat, .. } if *seat != dead)) {
                let mut bad = log.clone();
                if let Event::Vote { seat, .. } = &mut bad[d + v] {
                    *seat = dead;
                }
                refused(&game, &bad, &out, "acted after its death");
                dead_votes += 1;
            }
        }
        assert!(dead_votes > 0, "{preset}: a dead player's vote was tried");
    }
}

#[test]
fn a_lynch_the_votes_did_not_choose_is_refused() {
    let game = game("classic", &[]);
    let mut tried = 0;
    for i in 0..50 {
        let (log, out) = play_logged(&game, i);
        if let Some(l) = log.iter().position(|e| matches!(e, Event::Lynch(LynchResult::Lynched(_)))) {
            let mut bad = log.clone();
            if let Event::Lynch(LynchResult::Lynched(s)) = &mut bad[l] {
                *s = Seat::from_index((s.index() + 1) % game.players());
            }
            refused(&game, &bad, &out, "C11");
            tried += 1;
        }
    }
    assert!(tried > 0);
}

#[test]
fn hand_made_logs_without_a_deal_are_refused() {
    let game = game("classic", &[]);
    let (log, out) = play_logged(&game, 0);
    let n = game.players();
    refused(&game, &log[..n], &out, "log too short");
    // A log that does not start with the deal (seat order).
    let mut bad = log.clone();
    bad.swap(0, 1);
    refused(&game, &bad, &out, "expected Deal for seat 0");
    // C1: a role that is not the setup's.
    let mut bad = log.clone();
    let Event::Deal { role, .. } = log[0] else { unreachable!() };
    let other = log[..n].iter().find_map(|e| match *e {
        Event::Deal { role: r, .. } if r != role => Some(r),
        _ => None,
    });
    if let (Event::Deal { role: r, .. }, Some(other)) = (&mut bad[0], other) {
        *r = other;
    }
    refused(&game, &bad, &out, "C1:");
    // Two games' logs run together.
    let (second, _) = play_logged(&game, 1);
    let mut both = log.clone();
    both.extend_from_slice(&second);
    refused(&game, &both, &out, "GameEnd is not the last event");
    // The counters of both checkers are public and start at zero.
    let c = Checker::new();
    assert_eq!((c.games(), c.classic().games, c.extended().games), (0, 0, 0));
    let _: (&classic::Seen, &extended::Seen) = (c.classic(), c.extended());
}

/// What a reused [`Checker`] leaves in its buffers never reaches the next
/// game: the same verdicts and counts as a fresh check of each game, with
/// refused logs (cut off inside a night) in between.
#[test]
fn a_reused_checker_matches_fresh_checks() {
    let mut checker = Checker::new();
    let mut fresh = extended::Seen::default();
    let mut refused = 0;
    for preset in ["extended", "forum-16"] {
        let game = game(preset, &[]);
        for i in 0..200 {
            let (log, out) = play_logged(&game, i);
            let night = log.iter().position(|e| matches!(e, Event::NightStart { .. })).unwrap_or(log.len() - 1);
            let mut cut = log[..(night + 12).min(log.len() - 1)].to_vec();
            cut.push(log[log.len() - 1]);
            for (log, whole) in [(&cut, false), (&log, true)] {
                let a = extended::check(&game, log, &out, &mut fresh);
                let b = checker.check(&game, log, &out);
                assert_eq!(a, b, "{preset} game {i}");
                assert!(b.is_ok() || !whole, "{preset} game {i}: {b:?}");
                refused += b.is_err() as u32;
            }
        }
    }
    assert!(refused > 300, "{refused} cut logs refused");
    assert_eq!(format!("{:?}", checker.extended()), format!("{fresh:?}"));
}
