//! Shared helpers of the engine benches (`benches/game.rs`): a scripted
//! [`Players`] implementation that answers every decision from fixed tables,
//! a fixed classic deal, a fixed extended deal and the night it benches,
//! whole-run tallies for the determinism checks, and the game-length bound
//! the rules imply.

use mafia_agents::{Lineup, Worker, master_key};
use mafia_engine::{
    Camp, EndCause, Game, MAX_PLAYERS, NightChoice, NightMoves, NoLog, Observation, Outcome, PlayerSet, Players,
    Preset, Publication, Role, Seat, State, Vote,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The classic setup (C1: 10 players; the Don, 2 mafiosi, the Commissar, 6 citizens).
pub fn classic_game() -> Game {
    let preset = Preset::find("classic").expect("the classic preset exists");
    Game::new(&preset.setup()).expect("the classic preset makes a game")
}

/// A fixed classic deal used by the day and night benches.
pub const DEAL: [Role; 10] = [
    Role::Citizen,   // 0
    Role::Citizen,   // 1
    Role::Don,       // 2
    Role::Citizen,   // 3
    Role::Mafioso,   // 4
    Role::Commissar, // 5
    Role::Citizen,   // 6
    Role::Mafioso,   // 7
    Role::Citizen,   // 8
    Role::Citizen,   // 9
];

/// Seats of [`DEAL`] by role.
pub const DON: Seat = Seat::new(2);
pub const MAFIOSI: [Seat; 2] = [Seat::new(4), Seat::new(7)];
pub const COMMISSAR: Seat = Seat::new(5);

/// Whether `deal` is a permutation of the game's roles (what
/// [`mafia_engine::State::set_roles`] requires of its caller).
pub fn is_deal_of(game: &Game, deal: &[Role]) -> bool {
    let mut a = game.role_list().to_vec();
    let mut b = deal.to_vec();
    a.sort();
    b.sort();
    a == b
}

/// A state with [`DEAL`] dealt, before day 1.
pub fn dealt(game: &Game) -> State {
    assert!(is_deal_of(game, &DEAL), "DEAL is a classic deal");
    let mut s = State::default();
    s.set_roles(game, &DEAL);
    s
}

/// The classic night the resolver benches: a unanimous kill of seat 9
/// (C4), the Don checking the Commissar (C5) and the Commissar checking a
/// mafioso (C6).
pub fn night_moves() -> NightMoves {
    let mut moves = NightMoves::default();
    for m in [DON, MAFIOSI[0], MAFIOSI[1]] {
        moves.set_kill(m, Some(Seat::new(9)));
    }
    moves.set_move(DON, mafia_engine::Move::one(mafia_engine::NightAbility::CheckIsRole(Role::Commissar), COMMISSAR));
    moves.set_move(COMMISSAR, mafia_engine::Move::one(mafia_engine::NightAbility::CheckCamp, MAFIOSI[0]));
    moves
}

/// How often each decision was asked for (to check a scenario took the
/// expected path).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Asked {
    pub votes: u32,
    pub runoff: u32,
    pub hang_both: u32,
    pub night: u32,
    pub last_words: u32,
}

/// Scripted players: every answer comes from a table indexed by seat (and,
/// for runoffs, by round). Nobody posts, changes his vote or says anything
/// in a last word. Nothing allocates while the engine asks.
#[derive(Clone, Debug)]
pub struct Script {
    /// First vote of each seat (C10).
    pub votes: [Vote; MAX_PLAYERS],
    /// Runoff choice of each seat, one table per revote round (C12.4, C12.5).
    /// A missing round or a non-candidate falls back to the lowest candidate.
    pub runoffs: Vec<[Option<Seat>; MAX_PLAYERS]>,
    /// Hang-both (`true`) or pardon-both choice of each seat (C12.3).
    pub hang: [bool; MAX_PLAYERS],
    /// Night moves of each seat (C4–C6).
    pub night: [NightChoice; MAX_PLAYERS],
    pub asked: Asked,
    round: usize,
    last_runoff_voter: Option<Seat>,
}

impl Default for Script {
    fn default() -> Self {
        Script {
            votes: [Vote::Pass; MAX_PLAYERS],
            runoffs: Vec::new(),
            hang: [false; MAX_PLAYERS],
            night: [NightChoice::default(); MAX_PLAYERS],
            asked: Asked::default(),
            round: 0,
            last_runoff_voter: None,
        }
    }
}

impl Script {
    /// Sets the first votes from `(voter, target)` pairs.
    pub fn with_votes(mut self, votes: &[(Seat, Seat)]) -> Script {
        for &(v, t) in votes {
            self.votes[v] = Vote::For(t);
        }
        self
    }

    /// Adds one runoff round from `(voter, choice)` pairs.
    pub fn with_runoff(mut self, choices: &[(Seat, Seat)]) -> Script {
        let mut round = [None; MAX_PLAYERS];
        for &(v, c) in choices {
            round[v] = Some(c);
        }
        self.runoffs.push(round);
        self
    }

    /// Sets the hang-both choice of each listed voter.
    pub fn with_hang(mut self, choices: &[(Seat, bool)]) -> Script {
        for &(v, h) in choices {
            self.hang[v] = h;
        }
        self
    }

    /// Sets the night move of a seat.
    pub fn with_night(mut self, seat: Seat, kill: Option<Seat>, act: Option<Seat>) -> Script {
        self.night[seat] = NightChoice { kill, act, ..NightChoice::default() };
        self
    }
}

impl Players for Script {
    fn new_game(&mut self, _obs: &Observation<'_>) {}

    fn begin_phase(&mut self, _day: u16, _night: bool) {
        self.round = 0;
        self.last_runoff_voter = None;
    }

    fn post(&mut self, _obs: &Observation<'_>) -> Publication {
        Publication::NONE
    }

    fn vote(&mut self, obs: &Observation<'_>) -> Vote {
        self.asked.votes += 1;
        self.votes[obs.seat()]
    }

    fn revise(&mut self, _obs: &Observation<'_>) -> Option<Vote> {
        None
    }

    fn runoff(&mut self, obs: &Observation<'_>, candidates: PlayerSet) -> Seat {
        self.asked.runoff += 1;
        let seat = obs.seat();
        // Voters are asked in seat order, so a seat not above the last one
        // asked starts the next round.
        if self.last_runoff_voter.is_some_and(|last| seat <= last) {
            self.round += 1;
        }
        self.last_runoff_voter = Some(seat);
        match self.runoffs.get(self.round).and_then(|r| r[seat]) {
            Some(choice) if candidates.contains(choice) => choice,
            _ => candidates.lowest().expect("a runoff has candidates"),
        }
    }

    fn hang_both(&mut self, obs: &Observation<'_>, _pair: PlayerSet) -> bool {
        self.asked.hang_both += 1;
        self.hang[obs.seat()]
    }

    fn night(&mut self, obs: &Observation<'_>) -> NightChoice {
        self.asked.night += 1;
        self.night[obs.seat()]
    }

    fn last_word(&mut self, _obs: &Observation<'_>) -> Publication {
        self.asked.last_words += 1;
        Publication::NONE
    }
}

/// The last day a game can reach, from the rules alone, for `players`
/// players under parity (C18) without modkills or absences, when the mafia
/// go at most `limit - 1` nights in a row without a kill (C8's no-kill
/// limit `limit`; `limit = 1` for mafia that never miss).
///
/// Derivation: a game goes on only while `town > mafia >= 1` (C17, C18), so
/// with at least 3 alive. Every night with a kill removes one player (C4),
/// so at most `players - 3` kills leave the game running. Around them come
/// at most `limit - 1` misses in a row, else C8 ends the game: at most
/// `limit·(players-3) + limit - 1 = limit·(players-2) - 1` nights that do
/// not end the game. The game therefore ends on day `limit·(players-2)` or
/// the night after it, at the latest. Lynches only remove more players.
pub fn max_days(players: usize, limit: u8) -> u16 {
    (limit as usize * players.saturating_sub(2)) as u16
}

/// What a run of games produced, by outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunTally {
    pub games: u64,
    pub town_wins: u64,
    pub mafia_wins: u64,
    pub bandit_wins: u64,
    pub draws: u64,
    pub total_days: u64,
    pub max_days: u16,
    pub illegal: u64,
    pub causes: [u64; EndCause::COUNT],
}

impl RunTally {
    pub fn add(&mut self, o: &Outcome) {
        self.games += 1;
        match o.winner {
            Some(mafia_engine::Camp::Town) => self.town_wins += 1,
            Some(mafia_engine::Camp::Mafia) => self.mafia_wins += 1,
            Some(mafia_engine::Camp::Bandits) => self.bandit_wins += 1,
            None => self.draws += 1,
        }
        self.total_days += o.days as u64;
        self.max_days = self.max_days.max(o.days);
        self.illegal += o.illegal_decisions as u64;
        self.causes[o.cause as usize] += 1;
    }

    pub fn town_rate(&self) -> f64 {
        self.town_wins as f64 / self.games as f64
    }

    pub fn count(&self, cause: EndCause) -> u64 {
        self.causes[cause as usize]
    }
}

/// Plays the games `indices` of the run with master seed `seed` on a fresh
/// [`Worker`], returning each outcome in the order played.
pub fn play_run(game: &Game, lineup: &Lineup, seed: u64, indices: impl Iterator<Item = u64>) -> Vec<(u64, Outcome)> {
    let mut w = Worker::new(lineup.clone(), master_key(seed));
    indices.map(|i| (i, w.play(game, i, &mut NoLog))).collect()
}

/// The tally of a list of outcomes.
pub fn tally(outcomes: &[(u64, Outcome)]) -> RunTally {
    let mut t = RunTally::default();
    for (_, o) in outcomes {
        t.add(o);
    }
    t
}

// ---------------------------------------------------------------------------
// The extended night.

/// The `extended` preset (E1: the 20 extended roles once each).
pub fn extended_game() -> Game {
    let preset = Preset::find("extended").expect("the extended preset exists");
    Game::new(&preset.setup()).expect("the extended preset makes a game")
}

/// A fixed deal of the `extended` preset.
pub const EXT_DEAL: [Role; 20] = [
    Role::Doctor,      // 0
    Role::Thief,       // 1
    Role::Psycho,      // 2
    Role::Journalist,  // 3
    Role::Boss,        // 4
    Role::Lucky,       // 5
    Role::Shooter,     // 6
    Role::Guard,       // 7
    Role::Scout,       // 8
    Role::Detective,   // 9
    Role::Swindler,    // 10
    Role::Witch,       // 11
    Role::Trickster,   // 12
    Role::Deputy,      // 13
    Role::Actor,       // 14
    Role::Sleepwalker, // 15
    Role::Miner,       // 16
    Role::Chosen,      // 17
    Role::Thug,        // 18
    Role::Prostitute,  // 19
];

/// Seats of [`EXT_DEAL`] by role.
pub mod ext {
    use mafia_engine::Seat;
    pub const DOCTOR: Seat = Seat::new(0);
    pub const THIEF: Seat = Seat::new(1);
    pub const PSYCHO: Seat = Seat::new(2);
    pub const JOURNALIST: Seat = Seat::new(3);
    pub const BOSS: Seat = Seat::new(4);
    pub const LUCKY: Seat = Seat::new(5);
    pub const SHOOTER: Seat = Seat::new(6);
    pub const GUARD: Seat = Seat::new(7);
    pub const SCOUT: Seat = Seat::new(8);
    pub const DETECTIVE: Seat = Seat::new(9);
    pub const SWINDLER: Seat = Seat::new(10);
    pub const WITCH: Seat = Seat::new(11);
    pub const TRICKSTER: Seat = Seat::new(12);
    pub const DEPUTY: Seat = Seat::new(13);
    pub const ACTOR: Seat = Seat::new(14);
    pub const SLEEPWALKER: Seat = Seat::new(15);
    pub const MINER: Seat = Seat::new(16);
    pub const CHOSEN: Seat = Seat::new(17);
    pub const THUG: Seat = Seat::new(18);
    pub const PROSTITUTE: Seat = Seat::new(19);
}

fn choice(kill: Option<Seat>, act: Option<Seat>, second: Option<Seat>, search: Option<Seat>) -> NightChoice {
    NightChoice { kill, act, second, search, borrow: None, defer: false }
}

/// The moves of night 2 in [`extended_night`], one per living player with a
/// move (the Chosen and the Lucky have none; the Guard and the Detective are
/// dead, their roles taken by the Actor and the Deputy and borrowed by the
/// Role Prostitute).
pub fn extended_night_two_choices() -> Vec<(Seat, NightChoice)> {
    use ext::*;
    vec![
        // Mafia: the Boss decides the kill (E8) on the Lucky; the others name the Sleepwalker.
        (BOSS, choice(Some(LUCKY), Some(PROSTITUTE), None, None)),
        (THIEF, choice(Some(SLEEPWALKER), Some(SHOOTER), None, None)),
        (SWINDLER, choice(Some(SLEEPWALKER), Some(DOCTOR), Some(SWINDLER), None)),
        (ACTOR, choice(Some(SLEEPWALKER), Some(BOSS), None, None)),
        // Town.
        (DOCTOR, choice(None, Some(CHOSEN), None, None)),
        (JOURNALIST, choice(None, Some(BOSS), Some(MINER), None)),
        (WITCH, choice(None, Some(SHOOTER), None, None)),
        (PROSTITUTE, NightChoice { act: Some(THIEF), borrow: Some(Role::Detective), ..NightChoice::default() }),
        (SHOOTER, choice(None, Some(PSYCHO), None, None)),
        (SLEEPWALKER, choice(None, Some(SWINDLER), None, None)),
        (DEPUTY, choice(None, Some(PSYCHO), None, None)),
        // Bandits, each also naming a suspect in the search (E3).
        (PSYCHO, choice(None, Some(JOURNALIST), None, Some(SCOUT))),
        (MINER, choice(None, Some(BOSS), None, Some(LUCKY))),
        (THUG, choice(None, Some(WITCH), None, Some(PSYCHO))),
        (SCOUT, choice(None, None, None, Some(THUG))),
        (TRICKSTER, choice(None, Some(DEPUTY), None, Some(MINER))),
    ]
}

/// The state of [`EXT_DEAL`] at the start of night 2, after
/// [`State::begin_night`], and night 2's moves submitted through
/// [`State::submit`]. How it got there:
/// - day 1: everybody votes the Guard (he votes the Doctor); the Chosen's
///   secret votes follow his open vote; the Guard is lynched (C11, E16);
/// - night 1: the Actor takes the Guard's role (E12); the mafia kill the
///   Detective (E8); the Psycho invites the Chosen (E23); the Witch hexes the
///   Lucky (E18); the Doctor heals the Journalist; the Thug beats the Scout;
/// - day 2: everybody passes; nobody leaves;
/// - start of night 2: the Deputy takes the Detective's role and meets the
///   Doctor (E14); the Lucky is hexed (no move to stop).
///
/// The state's phase still reads day 2 (only `run_night` moves it to the
/// night, and it also asks the players); nothing in the resolution reads it.
pub fn extended_night(game: &Game) -> (State, NightMoves) {
    use ext::*;
    assert!(is_deal_of(game, &EXT_DEAL), "EXT_DEAL is a deal of the extended preset");
    let mut state = State::default();
    state.set_roles(game, &EXT_DEAL);
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut script = Script::default();
    for s in Seat::all(EXT_DEAL.len()) {
        script.votes[s] = Vote::For(if s == GUARD { DOCTOR } else { GUARD });
    }
    let end = state.run_day(game, 1, &mut script, &mut rng.clone(), &mut rng, &mut NoLog);
    assert_eq!(end, None);
    assert_eq!(state.alive(), PlayerSet::first(20).without(GUARD), "day 1 lynched the Guard");

    let mut script = Script::default();
    for m in [BOSS, THIEF, SWINDLER, ACTOR] {
        script.night[m].kill = Some(DETECTIVE);
    }
    script.night[PSYCHO].act = Some(CHOSEN);
    script.night[WITCH].act = Some(LUCKY);
    script.night[DOCTOR].act = Some(JOURNALIST);
    script.night[THUG].act = Some(SCOUT);
    let mut moves = NightMoves::default();
    let end = state.run_night(game, 1, &mut script, &mut moves, &mut rng, &mut NoLog);
    assert_eq!(end, None);
    assert_eq!(state.alive(), PlayerSet::first(20).without(GUARD).without(DETECTIVE), "night 1 killed the Detective");
    assert_eq!(state.acting_role(ACTOR), Role::Guard, "E12: the Actor took the Guard's role");

    let mut script = Script::default();
    let end = state.run_day(game, 2, &mut script, &mut rng.clone(), &mut rng, &mut NoLog);
    assert_eq!(end, None);
    assert_eq!(state.alive().len(), 18, "day 2: nobody left");

    state.begin_night(game, &mut NoLog);
    assert_eq!(state.acting_role(DEPUTY), Role::Detective, "E14: the Deputy took the Detective's role");
    state.clear_moves(&mut moves);
    for (s, c) in extended_night_two_choices() {
        state.submit(s, &c, &mut moves, &mut NoLog).unwrap_or_else(|e| panic!("seat {s:?}: {e}"));
    }
    assert_eq!(state.living(Camp::Mafia).len(), 4);
    (state, moves)
}
