//! The state of one game and the observation each player gets of it.
//!
//! [`State`] is a fixed-size value (no heap): a worker keeps one and resets it
//! for every game. Its fields are private; players see it only through an
//! [`Observation`], whose methods return exactly what that player may know.

use crate::event::{DeathCause, EndCause, Event, Log, Report};
use crate::role::{Camp, NightAbility, Role, RoleSet, Targets};
use crate::rules::{MafiaWin, Rules};
use crate::seat::{MAX_PLAYERS, PlayerSet, Seat};
use crate::setup::Game;
use crate::speech::{Publication, Vote};
use crate::util::shuffle;
use rand::Rng;

/// "No seat" in per-seat byte tables.
pub(crate) const NONE: u8 = 0xFF;

/// Encoding of a day vote in the per-seat vote table.
pub(crate) const NO_VOTE: u8 = 0xFF;
pub(crate) const PASS: u8 = 0xFE;

/// The seats whose encoded vote names a player: `For(t)` is `t`, below
/// `MAX_PLAYERS` (64), so its top bit is clear; PASS (0xFE) and no vote
/// (0xFF) have it set. Seats past the game's never vote, so they stay out.
/// Eight votes at a time: their top bits, gathered into one byte by a
/// multiplication (each bit `7 + 8k` moves to `56 + k`; the other partial
/// products fall outside the top byte or below it without a carry into it).
#[inline]
fn naming(votes: &[u8; MAX_PLAYERS]) -> PlayerSet {
    const TOP_BITS: u64 = 0x8080_8080_8080_8080;
    const GATHER: u64 = 0x0002_0408_1020_4081;
    let mut set = 0u64;
    for (i, chunk) in votes.chunks_exact(8).enumerate() {
        let w = u64::from_le_bytes(chunk.try_into().expect("chunks of 8"));
        let unnamed = (w & TOP_BITS).wrapping_mul(GATHER) >> 56;
        set |= (!unnamed & 0xFF) << (8 * i);
    }
    PlayerSet(set)
}

#[inline]
pub(crate) fn encode(v: Vote) -> u8 {
    match v {
        Vote::For(s) => s.get(),
        Vote::Pass => PASS,
    }
}

#[inline]
pub(crate) fn decode(x: u8) -> Option<Vote> {
    match x {
        NO_VOTE => None,
        PASS => Some(Vote::Pass),
        s => Some(Vote::For(Seat::new(s))),
    }
}

/// The phase of the game (C3): day 1, night 1, day 2, … In JSON
/// `{"day": 1}` or `{"night": 1}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Day `d` (from 1).
    Day(u16),
    /// Night `n` (from 1), after day `n`.
    Night(u16),
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct End {
    /// The camp that won (`None`: a draw).
    pub winner: Option<Camp>,
    /// Why the game ended.
    pub cause: EndCause,
}

/// What one player privately learned from his own night moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Knowledge {
    /// Everybody this player has checked.
    pub checked: PlayerSet,
    /// C6: players whose camp he learned, by camp.
    pub camps: [PlayerSet; Camp::COUNT],
    /// C5: players found to hold the asked-for role.
    pub role_yes: PlayerSet,
    /// The last check: target and (camp learned | "yes"/"no").
    pub last: Option<(Seat, CheckOutcome)>,
    /// Players I know to be on my side without a check: bandits found by
    /// the search (E3), the Deputy's introduction (E14).
    pub mates: PlayerSet,
    /// E7: players the Boss found to hold a role (the rest he checked are plain).
    pub holders: PlayerSet,
    /// The last report of a comparison, a watch or a scouting (E17, E22, E27).
    pub report: Option<Report>,
}

/// E15/E26: "never the same player two nights running": the player a
/// Doctor's or Thug's move may not name on night `night` (0: no bar).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bar {
    pub(crate) night: u16,
    pub(crate) target: Seat,
}

impl Bar {
    pub(crate) const NONE: Bar = Bar { night: 0, target: Seat::new(0) };
}

/// The result of one check. In JSON `{"camp": "mafia"}` or
/// `{"is_role": ["commissar", true]}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CheckOutcome {
    /// C6, E13: the target's camp.
    Camp(Camp),
    /// C5, E7: whether the target holds the role asked about.
    IsRole(Role, bool),
}

/// Per role, the bits `set_roles` needs: 1 town, 2 mafia, 4 bandits, 8
/// shoots (C4, E8), 32 a town information role, 16 may move at night (a move of its own, a kill nick,
/// the bandits' search E3, or a move gained later: the Actor E12, the
/// Deputy E14).
const ROLE_FLAGS: [u8; Role::COUNT] = {
    let mut t = [0u8; Role::COUNT];
    let mut i = 0;
    while i < Role::COUNT {
        let r = Role::ALL[i];
        let info = r.info();
        let camp = match info.camp {
            Camp::Town => 1,
            Camp::Mafia => 2,
            Camp::Bandits => 4,
        };
        let moves = info.shoots
            || !matches!(info.night, NightAbility::None)
            || matches!(info.camp, Camp::Bandits)
            || matches!(r, Role::Actor | Role::Deputy);
        // 32: a town information role (Commissar, Detective: the behaviour counts).
        let informer = matches!(info.night, NightAbility::CheckCamp) && matches!(info.camp, Camp::Town);
        // 64: a role dealt at most once (E4).
        t[i] = camp | (info.shoots as u8) << 3 | (moves as u8) << 4 | (informer as u8) << 5 | (info.unique as u8) << 6;
        i += 1;
    }
    t
};

/// The roles whose `ROLE_FLAGS` have `bit`, as a `RoleSet` word.
const fn roles_flagged(bit: u8) -> u32 {
    let mut m = 0u32;
    let mut i = 0;
    while i < Role::COUNT {
        if ROLE_FLAGS[i] & bit != 0 {
            m |= 1 << i;
        }
        i += 1;
    }
    m
}

/// The roles whose seats are night movers.
const MOVING_ROLES: u32 = roles_flagged(16);
/// The roles a setup deals at most once (`RoleInfo::unique`).
const UNIQUE_ROLES: u32 = roles_flagged(64);

/// A deal by role: which roles are dealt and each one's seats. The
/// engine keeps the game's (see [`State::role_seats`]), so whoever tallies games
/// by role (survival and wins per role) walks the few roles of a setup, not
/// its seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoleSeats {
    /// The roles dealt.
    pub dealt: RoleSet,
    /// Each role's seats, by `Role as usize` (empty for roles not dealt).
    pub seats: [PlayerSet; Role::COUNT],
}

impl RoleSeats {
    /// No role dealt.
    pub const EMPTY: RoleSeats = RoleSeats { dealt: RoleSet::EMPTY, seats: [PlayerSet::EMPTY; Role::COUNT] };

    /// The deal of `roles` (roles by seat).
    pub fn of(roles: &[Role]) -> RoleSeats {
        let mut d = RoleSeats::EMPTY;
        d.set(roles);
        d
    }

    /// Makes this the deal of `roles`, in place (the engine's every game).
    #[inline]
    pub fn set(&mut self, roles: &[Role]) {
        self.seats = [PlayerSet::EMPTY; Role::COUNT];
        let mut dealt = 0u32;
        for (s, r) in roles.iter().enumerate() {
            self.seats[*r as usize].0 |= 1u64 << s;
            dealt |= 1 << *r as u32;
        }
        self.dealt = RoleSet(dealt);
    }
}

/// The state of one game.
#[derive(Clone, Debug)]
pub struct State {
    pub(crate) n: u8,
    pub(crate) roles: [Role; MAX_PLAYERS],
    /// The same deal by role (fixed per deal).
    pub(crate) role_seats: RoleSeats,
    pub(crate) camp_members: [PlayerSet; Camp::COUNT],
    /// Seats whose role has a night move or shoots (fixed per deal).
    pub(crate) night_movers: PlayerSet,
    /// The same seats in the order the night asks them (fixed per deal): by
    /// dealt role in `Role`'s order, seats ascending within a role. Every
    /// night of every game of a setup then walks the same sequence of roles,
    /// so the per-role branches of the collector and the agents predict; in
    /// seat order the deal shuffles them. The first `mover_count` entries;
    /// none when one role moves, whose order is the seats' (see
    /// [`State::tonights_movers`]).
    pub(crate) mover_order: [Seat; MAX_PLAYERS],
    pub(crate) mover_count: u8,
    /// Seats whose role takes part in its camp's kill (C4).
    pub(crate) shooters: PlayerSet,
    pub(crate) alive: PlayerSet,
    pub(crate) phase: Phase,
    pub(crate) reveal_roles: bool,
    /// Players present (not absent, C16) this phase.
    pub(crate) present: PlayerSet,
    /// C8: consecutive nights without a kill.
    pub(crate) nights_without_kill: u8,
    /// Today's votes (`NO_VOTE`, `PASS` or a seat) and who has changed (C10).
    pub(crate) votes: [u8; MAX_PLAYERS],
    pub(crate) changed: PlayerSet,
    /// Today's votes received per seat, kept in step with `votes`.
    pub(crate) tally: [u8; MAX_PLAYERS],
    /// Yesterday's final votes.
    pub(crate) prev_votes: [u8; MAX_PLAYERS],
    /// A position's final votes (C10) of days before its last finished
    /// day, per voter: everybody each named (public; see
    /// [`Observation::carried_votes`]). Empty in a game played from day 1.
    pub(crate) carried_votes: [PlayerSet; MAX_PLAYERS],
    /// Whether `carried_votes` holds anything (cleared at the next deal).
    pub(crate) carried_any: bool,
    /// Everything each player has published (posts and last word), merged.
    pub(crate) said: [Publication; MAX_PLAYERS],
    /// Per role: who has claimed it publicly.
    pub(crate) claimed: [PlayerSet; Role::COUNT],
    /// Per seat: when he first claimed a role, as `claims_made` then
    /// (higher is later; 0: never claimed). Public: the thread shows when
    /// each claim was made.
    pub(crate) claim_rank: [u16; MAX_PLAYERS],
    /// Claims so far: each player's claim of a role he had not claimed
    /// before counts once.
    pub(crate) claims_made: u16,
    pub(crate) knowledge: [Knowledge; MAX_PLAYERS],
    /// Seats whose `knowledge` may differ from the default: every write
    /// goes through [`State::know`], so a new game resets only these.
    pub(crate) knowing: PlayerSet,
    /// Seats who published this game (their `said` is not empty).
    pub(crate) speakers: PlayerSet,
    /// Public record of deaths: the day (or night) number and the cause.
    pub(crate) death: [Option<(Phase, DeathCause)>; MAX_PLAYERS],
    /// Seats that may post, change votes, defend or speak a last word
    /// (everyone but the seats their players declared quiet).
    pub(crate) talkers: PlayerSet,
    /// Players killed at night (public: the dawn announcement).
    pub(crate) night_killed: PlayerSet,
    /// The dead whose roles are announced when `reveal_roles` is on (all but modkills, C15).
    pub(crate) revealed: PlayerSet,
    /// Players who left in the current phase and still owe their last word.
    pub(crate) leaving: PlayerSet,
    pub(crate) end: Option<End>,
    /// Decisions refused as illegal in this game (agents' bugs, counted).
    pub(crate) illegal: u32,
    // --- The extended set (E1–E32). All stay empty in a classic game. ---
    /// The role whose move each seat makes: his own, or the role he was
    /// appointed to (Actor, E12) or promoted to (Deputy, E14).
    pub(crate) acting: [Role; MAX_PLAYERS],
    /// The seat holding each unique role (`NONE` if absent).
    pub(crate) seat_of: [u8; Role::COUNT],
    /// E18: hexes cast last night; they hold tonight.
    pub(crate) hex_next: PlayerSet,
    /// E18: hexed tonight (set at the start of the night).
    pub(crate) hexed: PlayerSet,
    /// E23: last night's guest of the Psycho: dies tonight unless healed.
    pub(crate) guest: Option<Seat>,
    /// E25: mined for the next day's vote.
    pub(crate) mines: PlayerSet,
    /// E28: votes removed in the next day's vote.
    pub(crate) tricked: PlayerSet,
    /// E19/E16: Role Prostitutes who borrowed the Chosen last night: secret
    /// votes at the next day's count.
    pub(crate) secret_voters: PlayerSet,
    /// E21: Lucky players who still have their spare life.
    pub(crate) spare_life: PlayerSet,
    /// E11: players the Swindler has already swindled.
    pub(crate) swindled: PlayerSet,
    /// E19: roles the Role Prostitute has already borrowed.
    pub(crate) borrowed: RoleSet,
    /// E15/E26: per seat, the player his heal or beating may not name, and
    /// the night that bar holds (it is set while resolving the night before,
    /// so nothing needs clearing: a stale bar names a past night).
    pub(crate) bars: [Bar; MAX_PLAYERS],
    /// The rules in force, every `auto` resolved (public: the setup is announced).
    pub(crate) rules: Rules,
    /// Bumped whenever the public record changes other than by today's
    /// votes: a day begins (yesterday's votes become final), somebody
    /// publishes, somebody leaves; not when a night begins, which adds
    /// nothing to the record by itself. Lets a player cache what he reads
    /// from it (see `Observation::record_version`).
    pub(crate) version: u32,
    /// The town's information roles (Commissar, Detective): fixed per deal.
    pub(crate) informers: PlayerSet,
    pub(crate) stats: crate::Stats,
}

impl Default for State {
    fn default() -> Self {
        State {
            n: 0,
            roles: [Role::Citizen; MAX_PLAYERS],
            role_seats: RoleSeats::EMPTY,
            camp_members: [PlayerSet::EMPTY; Camp::COUNT],
            night_movers: PlayerSet::EMPTY,
            mover_order: [Seat::new(0); MAX_PLAYERS],
            mover_count: 0,
            shooters: PlayerSet::EMPTY,
            alive: PlayerSet::EMPTY,
            phase: Phase::Day(1),
            reveal_roles: false,
            present: PlayerSet::EMPTY,
            nights_without_kill: 0,
            votes: [NO_VOTE; MAX_PLAYERS],
            changed: PlayerSet::EMPTY,
            tally: [0; MAX_PLAYERS],
            prev_votes: [NO_VOTE; MAX_PLAYERS],
            carried_votes: [PlayerSet::EMPTY; MAX_PLAYERS],
            carried_any: false,
            said: [Publication::NONE; MAX_PLAYERS],
            claimed: [PlayerSet::EMPTY; Role::COUNT],
            claim_rank: [0; MAX_PLAYERS],
            claims_made: 0,
            knowledge: [Knowledge::default(); MAX_PLAYERS],
            knowing: PlayerSet::EMPTY,
            speakers: PlayerSet::EMPTY,
            death: [None; MAX_PLAYERS],
            talkers: PlayerSet::EMPTY,
            night_killed: PlayerSet::EMPTY,
            revealed: PlayerSet::EMPTY,
            leaving: PlayerSet::EMPTY,
            end: None,
            illegal: 0,
            acting: [Role::Citizen; MAX_PLAYERS],
            seat_of: [NONE; Role::COUNT],
            hex_next: PlayerSet::EMPTY,
            hexed: PlayerSet::EMPTY,
            guest: None,
            mines: PlayerSet::EMPTY,
            tricked: PlayerSet::EMPTY,
            secret_voters: PlayerSet::EMPTY,
            spare_life: PlayerSet::EMPTY,
            swindled: PlayerSet::EMPTY,
            borrowed: RoleSet::EMPTY,
            bars: [Bar::NONE; MAX_PLAYERS],
            rules: Rules::default(),
            informers: PlayerSet::EMPTY,
            stats: crate::Stats::default(),
            version: 0,
        }
    }
}

impl State {
    /// Resets the state for a new game and deals the roles (C1: uniformly at
    /// random, a Fisher–Yates shuffle driven by the deal stream, see
    /// [`shuffle`]).
    pub fn deal<R: Rng + ?Sized>(&mut self, game: &Game, deal: &mut R) {
        let n = game.n as usize;
        let mut roles = game.roles;
        shuffle(deal, &mut roles[..n]);
        self.set_roles(game, &roles[..n]);
    }

    /// Resets the state for a new game with the given roles by seat (tests,
    /// replays of a known deal). The caller guarantees `roles` is the game's multiset.
    pub fn set_roles(&mut self, game: &Game, roles: &[Role]) {
        let n = roles.len();
        debug_assert_eq!(n, game.n as usize);
        self.n = n as u8;
        self.roles[..n].copy_from_slice(roles);
        // Branch-free: the deal is random, so `if shoots` would mispredict.
        // The seats of each role first (one OR a seat), then one flag byte
        // per role present (see `ROLE_FLAGS`): a setup has few roles and
        // many seats.
        self.role_seats.set(roles);
        let deal = &self.role_seats;
        let mut present = deal.dealt.0;
        let (mut town, mut mafia, mut bandits, mut shooters, mut movers, mut informers) =
            (0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
        while present != 0 {
            let r = present.trailing_zeros() as usize;
            present &= present - 1;
            let f = ROLE_FLAGS[r] as u64;
            let seats = deal.seats[r].0;
            town |= seats * (f & 1);
            mafia |= seats * ((f >> 1) & 1);
            bandits |= seats * ((f >> 2) & 1);
            shooters |= seats * ((f >> 3) & 1);
            movers |= seats * ((f >> 4) & 1);
            informers |= seats * ((f >> 5) & 1);
        }
        let camps = [town, mafia, bandits];
        self.camp_members = camps.map(PlayerSet);
        self.shooters = PlayerSet(shooters);
        self.night_movers = PlayerSet(movers);
        let mut count = 0;
        let mut moving_roles = deal.dealt.0 & MOVING_ROLES;
        if moving_roles.count_ones() < 2 {
            // One moving role (the uniform model's mafiosi): seat order is
            // role order, and the night walks the set itself.
            moving_roles = 0;
        }
        while moving_roles != 0 {
            let r = moving_roles.trailing_zeros() as usize;
            moving_roles &= moving_roles - 1;
            for s in deal.seats[r].iter() {
                self.mover_order[count] = s;
                count += 1;
            }
        }
        self.mover_count = count as u8;
        self.acting = self.roles;
        if game.extended {
            // By role, not by seat: the deal shuffles which seats hold a
            // unique role, but every game of a setup deals the same roles.
            self.seat_of = [NONE; Role::COUNT];
            let deal = &self.role_seats;
            let mut unique = deal.dealt.0 & UNIQUE_ROLES;
            while unique != 0 {
                let r = unique.trailing_zeros() as usize;
                unique &= unique - 1;
                self.seat_of[r] = deal.seats[r].0.trailing_zeros() as u8;
            }
            self.spare_life = deal.seats[Role::Lucky as usize];
            self.bars = [Bar::NONE; MAX_PLAYERS];
        } else {
            // Read only by extended rules (and `bars` only by the Doctor's and Thug's moves).
            self.seat_of = [NONE; Role::COUNT];
            self.spare_life = PlayerSet::EMPTY;
        }
        self.hex_next = PlayerSet::EMPTY;
        self.hexed = PlayerSet::EMPTY;
        self.guest = None;
        self.mines = PlayerSet::EMPTY;
        self.tricked = PlayerSet::EMPTY;
        self.secret_voters = PlayerSet::EMPTY;
        self.swindled = PlayerSet::EMPTY;
        self.borrowed = RoleSet::EMPTY;
        self.alive = PlayerSet::first(n);
        self.phase = Phase::Day(1);
        self.reveal_roles = game.rules.reveal_roles_on_death;
        self.rules = game.resolved_rules();
        self.stats = crate::Stats::default();
        self.version = self.version.wrapping_add(1);
        self.informers = PlayerSet(informers);
        self.present = self.alive;
        self.nights_without_kill = 0;
        self.votes = [NO_VOTE; MAX_PLAYERS];
        self.prev_votes = [NO_VOTE; MAX_PLAYERS];
        if self.carried_any {
            self.carried_votes = [PlayerSet::EMPTY; MAX_PLAYERS];
            self.carried_any = false;
        }
        self.changed = PlayerSet::EMPTY;
        self.tally = [0; MAX_PLAYERS];
        // Only what the last game wrote needs clearing (most games publish
        // little and check less).
        if !self.speakers.is_empty() {
            for s in self.speakers.iter() {
                self.said[s] = Publication::NONE;
                self.claim_rank[s] = 0;
            }
            self.claimed = [PlayerSet::EMPTY; Role::COUNT];
            self.claims_made = 0;
            self.speakers = PlayerSet::EMPTY;
        }
        for s in self.knowing.iter() {
            self.knowledge[s] = Knowledge::default();
        }
        self.knowing = PlayerSet::EMPTY;
        self.death[..n].fill(None);
        // Everyone talks until the players say otherwise (see `play_dealt`).
        self.talkers = PlayerSet::first(n);
        self.night_killed = PlayerSet::EMPTY;
        self.revealed = PlayerSet::EMPTY;
        self.leaving = PlayerSet::EMPTY;
        self.end = None;
        self.illegal = 0;
    }

    /// How many players sit at the table.
    pub fn players(&self) -> usize {
        self.n as usize
    }
    /// The role of seat `s`.
    pub fn role(&self, s: Seat) -> Role {
        self.roles[s]
    }
    /// Every seat's role, by seat.
    pub fn roles(&self) -> &[Role] {
        &self.roles[..self.n as usize]
    }
    /// The deal by role ([`RoleSeats::of`] of [`State::roles`]).
    #[inline]
    pub fn role_seats(&self) -> &RoleSeats {
        &self.role_seats
    }
    /// The living players.
    pub fn alive(&self) -> PlayerSet {
        self.alive
    }
    /// The phase the game is in.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The number of the current day or night (from 1).
    pub fn day(&self) -> u16 {
        match self.phase {
            Phase::Day(d) | Phase::Night(d) => d,
        }
    }
    /// Every player of camp `c`, dead or alive.
    pub fn camp_members(&self, c: Camp) -> PlayerSet {
        self.camp_members[c as usize]
    }
    /// The living players of camp `c`.
    pub fn living(&self, c: Camp) -> PlayerSet {
        self.camp_members[c as usize].inter(self.alive)
    }
    /// How the game ended (`None` while it goes on).
    pub fn end(&self) -> Option<End> {
        self.end
    }
    /// Answers refused so far.
    pub fn illegal_decisions(&self) -> u32 {
        self.illegal
    }
    /// C8: consecutive nights without the mafia's kill so far.
    pub fn nights_without_kill(&self) -> u8 {
        self.nights_without_kill
    }

    /// E15/E26: the player `s` may not heal or beat next night (after this
    /// night's resolution), if any.
    pub fn next_bar(&self, s: Seat) -> Option<Seat> {
        let bar = self.bars[s];
        (bar.night == self.day() + 1).then_some(bar.target)
    }

    /// E15/E26: bars `s` from naming `target` on the night after this one.
    #[inline]
    pub(crate) fn bar_next_night(&mut self, s: Seat, target: Seat) {
        self.bars[s] = Bar { night: self.day() + 1, target };
    }

    /// Seat `s`'s private knowledge, to write (marks it for the reset of
    /// the next game: see `knowing`).
    #[inline]
    pub(crate) fn know(&mut self, s: Seat) -> &mut Knowledge {
        self.knowing.insert(s);
        &mut self.knowledge[s]
    }

    /// The seat holding the unique role `r`, if it is dealt.
    #[inline]
    pub(crate) fn holder(&self, r: Role) -> Option<Seat> {
        let s = self.seat_of[r as usize];
        if s == NONE { None } else { Some(Seat::new(s)) }
    }

    /// The role whose move `s` makes: his own, or the role he was appointed
    /// or promoted to (E12, E14).
    #[inline]
    pub fn acting_role(&self, s: Seat) -> Role {
        self.acting[s]
    }

    /// The legal first targets of `ability` for seat `s` tonight: living
    /// players, himself only where the role allows (E10, E15, E26), a
    /// mafioso for the Guard (E10), not last night's target for the Doctor
    /// and the Thug (E15, E26), not a player swindled before (E11).
    #[inline]
    pub fn targets(&self, s: Seat, ability: NightAbility) -> PlayerSet {
        let info = ability.info();
        if info.targets == Targets::Zero {
            return PlayerSet::EMPTY;
        }
        let mut t = if info.self_allowed { self.alive } else { self.alive.without(s) };
        match ability {
            NightAbility::Guard => t = t.inter(self.camp_members[Camp::Mafia as usize]),
            NightAbility::Heal | NightAbility::Beat => {
                let bar = self.bars[s];
                if bar.night == self.day() {
                    t.remove(bar.target);
                }
            }
            NightAbility::Swindle => t = t.minus(self.swindled),
            _ => {}
        }
        t
    }

    /// The legal second targets of a two-target move (E11: any living
    /// player but the swindled one; E17: another player than the first).
    pub fn second_targets(&self, s: Seat, ability: NightAbility, first: Seat) -> PlayerSet {
        match ability.info().targets {
            Targets::Two => match ability {
                NightAbility::Swindle => self.alive.without(first),
                _ => self.alive.without(s).without(first),
            },
            _ => PlayerSet::EMPTY,
        }
    }

    /// E19: the roles the Role Prostitute `s` may borrow tonight: roles of
    /// dead town players with a night move, never the Lucky, the Deputy or
    /// one she borrowed before; none on night 1.
    pub fn borrowable(&self, s: Seat) -> RoleSet {
        if self.acting[s].info().night != NightAbility::Borrow || self.day() < 2 {
            return RoleSet::EMPTY;
        }
        let mut r = RoleSet::EMPTY;
        let dead_town = self.camp_members[Camp::Town as usize].minus(self.alive);
        for d in dead_town.iter() {
            let role = self.acting[d];
            if role.borrowable() {
                r.insert(role);
            }
        }
        r.minus(self.borrowed)
    }

    /// The observation of seat `s`.
    #[inline]
    pub fn observe(&self, s: Seat) -> Observation<'_> {
        Observation { st: self, seat: s }
    }

    /// Tonight's `movers` in the deal's mover order ([`State::mover_order`])
    /// into `out`; returns how many. With one moving role, `movers` in seat
    /// order. Built before the night's questions, without a branch per
    /// mover: which movers are dead or absent is a coin flip to the
    /// predictor, and the walk over `out` then has none to take.
    #[inline(always)]
    pub(crate) fn tonights_movers(&self, movers: PlayerSet, out: &mut [Seat; MAX_PLAYERS]) -> usize {
        // `k` never passes the entry being written (< MAX_PLAYERS, a power
        // of two): the mask only spares the bounds check.
        let mut k = 0;
        if self.mover_count == 0 {
            for s in movers.iter() {
                out[k & (MAX_PLAYERS - 1)] = s;
                k += 1;
            }
        } else {
            for &s in &self.mover_order[..self.mover_count as usize] {
                out[k & (MAX_PLAYERS - 1)] = s;
                k += ((movers.0 >> s.get()) & 1) as usize;
            }
        }
        k
    }

    /// Removes players (one elimination event: a night kill, a lynch of one
    /// or two, a modkill) and queues their last words (C13).
    pub(crate) fn eliminate<L: Log>(&mut self, who: PlayerSet, cause: DeathCause, log: &mut L) {
        self.version = self.version.wrapping_add(1);
        for s in who.iter() {
            self.alive.remove(s);
            self.death[s] = Some((self.phase, cause));
            if cause != DeathCause::Modkilled {
                self.revealed.insert(s);
            }
            if cause == DeathCause::Killed {
                self.night_killed.insert(s);
            }
            if L::ENABLED {
                // C9 setting; C15: a modkilled player's role stays hidden regardless.
                let shown = self.reveal_roles && cause != DeathCause::Modkilled;
                let revealed = if shown { Some(self.roles[s]) } else { None };
                log.push(Event::Died { seat: s, cause, revealed });
            }
        }
        self.leaving = self.leaving.union(who);
    }

    /// Records a publication in the public record.
    #[inline]
    pub(crate) fn publish(&mut self, s: Seat, what: &Publication) {
        if what.is_empty() {
            return;
        }
        self.version = self.version.wrapping_add(1);
        self.speakers.insert(s);
        self.said[s].merge(what);
        if let Some(r) = what.claim
            && !self.claimed[r as usize].contains(s)
        {
            // E12/E14: the Actor and the promoted Deputy claim the role they act as.
            if r != self.roles[s] && r != self.acting[s] {
                self.stats.false_claims = self.stats.false_claims.saturating_add(1);
            } else if self.informers.contains(s) {
                self.stats.reveals = self.stats.reveals.saturating_add(1);
            }
            self.claimed[r as usize].insert(s);
            // At most 64 players × 24 roles: no overflow.
            self.claims_made += 1;
            if self.claim_rank[s] == 0 {
                self.claim_rank[s] = self.claims_made;
            }
        }
    }

    /// C17–C19 (and E2): checked after every elimination.
    pub(crate) fn end_check(&self, mafia_win: MafiaWin) -> Option<End> {
        if self.alive.is_empty() {
            return Some(End { winner: None, cause: EndCause::Nobody });
        }
        let mafia = self.living(Camp::Mafia).len();
        let town = self.living(Camp::Town).len();
        let bandits = self.living(Camp::Bandits).len();
        end_by_counts(mafia, town, bandits, mafia_win)
    }

    pub(crate) fn finish<L: Log>(&mut self, end: End, log: &mut L) -> End {
        self.end = Some(end);
        // The behaviour counts of who left how, by camp, once per game.
        let (mut lynched, mut killed) = (PlayerSet::EMPTY, PlayerSet::EMPTY);
        for s in PlayerSet::first(self.players()).minus(self.alive).iter() {
            match self.death[s] {
                Some((_, DeathCause::Lynched)) => lynched.insert(s),
                Some((_, DeathCause::Killed)) => killed.insert(s),
                _ => {}
            }
        }
        for c in 0..Camp::COUNT {
            self.stats.lynched[c] = lynched.inter(self.camp_members[c]).len() as u8;
            self.stats.killed[c] = killed.inter(self.camp_members[c]).len() as u8;
        }
        if L::ENABLED {
            log.push(Event::GameEnd { winner: end.winner, cause: end.cause, day: self.day() });
        }
        end
    }

    /// Draws who is absent this phase (C16) from the activity stream. With
    /// a zero rate no draw is made.
    pub(crate) fn draw_presence<R: Rng + ?Sized, L: Log>(&mut self, threshold: u64, activity: &mut R, log: &mut L) {
        let absent = draw_each(self.alive, threshold, activity);
        self.present = self.alive.minus(absent);
        if L::ENABLED {
            for s in absent.iter() {
                log.push(Event::Absent { seat: s });
            }
        }
    }
}

/// The members of `set` for whom one activity draw each falls under
/// `threshold` (C15 modkills, C16 absences), drawn in seat order. A zero
/// threshold draws nothing, so a zero rate costs nothing.
pub(crate) fn draw_each<R: Rng + ?Sized>(set: PlayerSet, threshold: u64, rng: &mut R) -> PlayerSet {
    let mut hit = PlayerSet::EMPTY;
    if threshold > 0 {
        for s in set.iter() {
            if (rng.next_u32() as u64) < threshold {
                hit.insert(s);
            }
        }
    }
    hit
}

/// What one player may know: his own role, the public record, and — by his
/// role — his camp mates (C2) and his own check results. No method returns
/// another player's hidden role (C9).
#[derive(Clone, Copy)]
pub struct Observation<'a> {
    st: &'a State,
    seat: Seat,
}

impl<'a> Observation<'a> {
    /// My seat.
    #[inline]
    pub fn seat(&self) -> Seat {
        self.seat
    }
    /// My role.
    #[inline]
    pub fn role(&self) -> Role {
        self.st.roles[self.seat]
    }
    /// My camp.
    #[inline]
    pub fn camp(&self) -> Camp {
        self.role().camp()
    }
    /// How many players sit at the table.
    pub fn players(&self) -> usize {
        self.st.n as usize
    }
    /// The phase the game is in.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.st.phase
    }
    /// The number of the current day or night (from 1).
    #[inline]
    pub fn day(&self) -> u16 {
        self.st.day()
    }
    /// The living players (public).
    #[inline]
    pub fn alive(&self) -> PlayerSet {
        self.st.alive
    }
    /// Whether seat `s` is alive.
    #[inline]
    pub fn is_alive(&self, s: Seat) -> bool {
        self.st.alive.contains(s)
    }
    /// Living players other than me.
    #[inline]
    pub fn others_alive(&self) -> PlayerSet {
        self.st.alive.without(self.seat)
    }
    /// C2/E1: the members of my camp I know (myself included). The mafia
    /// know each other; a town player knows only himself.
    #[inline]
    pub fn camp_mates(&self) -> PlayerSet {
        let c = self.camp();
        if c.members_know_each_other() {
            self.st.camp_members[c as usize]
        } else {
            // E3: bandits found by the search; E14: the Deputy's introduction.
            self.st.knowledge[self.seat].mates.with(self.seat)
        }
    }
    /// The role whose move I make tonight (E12, E14).
    #[inline]
    pub fn acting_role(&self) -> Role {
        self.st.acting[self.seat]
    }
    /// My night move by my acting role.
    #[inline]
    pub fn ability(&self) -> NightAbility {
        self.acting_role().info().night
    }
    /// Whether I send a nick for my camp's kill tonight (C4, E8; E12: the
    /// Actor once appointed, or as the last of his camp).
    #[inline]
    pub fn shoots(&self) -> bool {
        self.st.shooters.contains(self.seat)
    }
    /// Whether I may make `ability` tonight: my acting role's move, or (the
    /// Role Prostitute) the move of a role I may borrow (E19).
    #[inline]
    fn may_make(&self, ability: NightAbility) -> bool {
        let own = self.ability();
        ability != NightAbility::None
            && (ability == own
                || (own == NightAbility::Borrow && self.borrowable().iter().any(|r| r.borrowed_move() == ability)))
    }
    /// The legal first targets of `ability` tonight: my own move, or a
    /// borrowed one for the Role Prostitute; empty for any other move (the
    /// targets of another role's move could tell who holds it: the Guard's
    /// are the mafia, E10).
    #[inline]
    pub fn targets(&self, ability: NightAbility) -> PlayerSet {
        if self.may_make(ability) { self.st.targets(self.seat, ability) } else { PlayerSet::EMPTY }
    }
    /// The legal second targets of a two-target move of mine.
    #[inline]
    pub fn second_targets(&self, ability: NightAbility, first: Seat) -> PlayerSet {
        if self.may_make(ability) { self.st.second_targets(self.seat, ability, first) } else { PlayerSet::EMPTY }
    }
    /// C10: whom I may vote for (besides PASS): any living player but me.
    #[inline]
    pub fn vote_options(&self) -> PlayerSet {
        self.st.alive.without(self.seat)
    }
    /// C4/E8: whom my camp's kill nick may name (any living player), if I shoot.
    #[inline]
    pub fn kill_options(&self) -> PlayerSet {
        if self.shoots() { self.st.alive } else { PlayerSet::EMPTY }
    }
    /// E3: whom my search nick may name (a bandit: any other living player).
    #[inline]
    pub fn search_options(&self) -> PlayerSet {
        if self.camp() == Camp::Bandits { self.st.alive.without(self.seat) } else { PlayerSet::EMPTY }
    }
    /// E7: whether I am a mafioso whose Boss is alive (so I may leave my move to him).
    pub fn boss_alive(&self) -> bool {
        self.camp() == Camp::Mafia && self.st.holder(Role::Boss).is_some_and(|b| self.st.alive.contains(b))
    }
    /// E16/E19: how many secret votes I give at today's count (0: none).
    pub fn secret_votes(&self) -> u8 {
        let me = self.seat;
        let chosen = self.st.roles[me] == Role::Chosen || self.st.secret_voters.contains(me);
        if chosen { self.st.rules.chosen_secret_votes } else { 0 }
    }
    /// The roles dealt in this game (public: the setup is announced).
    #[inline]
    pub fn setup_roles(&self) -> RoleSet {
        self.st.role_seats.dealt
    }
    /// Whether the setup deals `role` (public, as [`Observation::setup_roles`]).
    #[inline]
    pub fn deals(&self, role: Role) -> bool {
        self.st.role_seats.dealt.contains(role)
    }
    /// The rules in force, every `auto` resolved (public).
    pub fn rules(&self) -> &Rules {
        &self.st.rules
    }
    /// E15/E26: whom my heal or beating may not name tonight.
    pub fn barred(&self) -> Option<Seat> {
        let bar = self.st.bars[self.seat];
        (bar.night != 0 && bar.night == self.st.day()).then_some(bar.target)
    }
    /// The acting role of a camp mate I know (E12: the mafia know the Actor's appointment).
    pub fn mate_acting(&self, s: Seat) -> Option<Role> {
        self.mate_role(s).map(|_| self.st.acting[s])
    }
    /// A number that changes whenever the public record changes other than
    /// by today's votes (a day begins, somebody publishes or leaves) and
    /// with every new game: what a player reads from posts, claims, deaths
    /// and the finished days' votes may be cached under it. It does not
    /// change when a night begins: a cache that depends on the phase
    /// itself must key on it too.
    #[inline]
    pub fn record_version(&self) -> u32 {
        self.st.version
    }
    /// The whole state, for building the owned view in this crate only.
    #[inline]
    pub(crate) fn state(&self) -> &'a State {
        self.st
    }
    /// E7: the move a camp mate makes tonight (the mafia know each other's
    /// roles and appointments); `None` for anybody else.
    pub fn mate_ability(&self, member: Seat) -> NightAbility {
        if member != self.seat && self.camp() == Camp::Mafia && self.camp_mates().contains(member) {
            self.st.acting[member].info().night
        } else {
            NightAbility::None
        }
    }
    /// E7: the legal first targets of a camp mate's move (for the Boss's proxy).
    pub fn mate_targets(&self, member: Seat) -> PlayerSet {
        let a = self.mate_ability(member);
        if a == NightAbility::None { PlayerSet::EMPTY } else { self.st.targets(member, a) }
    }
    /// E7: the legal second targets of a camp mate's two-target move.
    pub fn mate_second_targets(&self, member: Seat, first: Seat) -> PlayerSet {
        let a = self.mate_ability(member);
        if a == NightAbility::None { PlayerSet::EMPTY } else { self.st.second_targets(member, a, first) }
    }
    /// E19: the roles I may borrow tonight (Role Prostitute only).
    pub fn borrowable(&self) -> RoleSet {
        self.st.borrowable(self.seat)
    }
    /// E3: whom I may name in the bandits' search (bandits only).
    #[inline]
    pub fn search_targets(&self) -> PlayerSet {
        if self.camp() == Camp::Bandits { self.st.alive.minus(self.camp_mates()) } else { PlayerSet::EMPTY }
    }
    /// E7: players I (the Boss) found to hold a role; the rest of `checked()` are plain.
    pub fn found_holders(&self) -> PlayerSet {
        self.st.knowledge[self.seat].holders
    }
    /// My latest report (E17, E22, E27).
    pub fn last_report(&self) -> Option<Report> {
        self.st.knowledge[self.seat].report
    }
    /// E21: whether I (a Lucky) still have my spare life.
    pub fn has_spare_life(&self) -> bool {
        self.st.spare_life.contains(self.seat)
    }
    /// The role of a camp mate I know (C2: the mafia's conference names the
    /// Don); `None` for anybody else.
    pub fn mate_role(&self, s: Seat) -> Option<Role> {
        if self.camp_mates().contains(s) { Some(self.st.roles[s]) } else { None }
    }
    /// The camp of `s` if I know it: myself, my known mates, my own checks,
    /// and the announced roles of the dead when `reveal_roles_on_death` is on.
    pub fn known_camp(&self, s: Seat) -> Option<Camp> {
        if self.camp_mates().contains(s) {
            return Some(self.camp());
        }
        if let Some(r) = self.revealed_role(s) {
            return Some(r.camp());
        }
        let k = &self.st.knowledge[self.seat];
        Camp::ALL.into_iter().find(|&c| k.camps[c as usize].contains(s))
    }
    /// The role of `s` if it is public (dead and C9's reveal setting on) or my own.
    pub fn revealed_role(&self, s: Seat) -> Option<Role> {
        if s == self.seat {
            return Some(self.role());
        }
        if self.st.reveal_roles && self.st.revealed.contains(s) {
            return Some(self.st.roles[s]);
        }
        None
    }
    /// Everybody I have checked (C5, C6).
    pub fn checked(&self) -> PlayerSet {
        self.st.knowledge[self.seat].checked
    }
    /// Players I found to be in camp `c` (C6).
    pub fn found_in_camp(&self, c: Camp) -> PlayerSet {
        self.st.knowledge[self.seat].camps[c as usize]
    }
    /// Players my role check answered "yes" for (C5: the Don found the Commissar).
    pub fn found_role(&self) -> PlayerSet {
        self.st.knowledge[self.seat].role_yes
    }
    /// My latest check and its answer.
    pub fn last_check(&self) -> Option<(Seat, CheckOutcome)> {
        self.st.knowledge[self.seat].last
    }
    /// Today's current vote of `s` (public, C10).
    #[inline]
    pub fn vote_of(&self, s: Seat) -> Option<Vote> {
        decode(self.st.votes[s])
    }
    /// Whether `s` has used his vote change today.
    pub fn has_changed(&self, s: Seat) -> bool {
        self.st.changed.contains(s)
    }
    /// Everybody who has used his vote change today. During the changes
    /// (C10) the tally moves only when somebody changes, so with the record
    /// version this names the tally a player sees: a key to cache what he
    /// reads from it.
    #[inline]
    pub fn changed(&self) -> PlayerSet {
        self.st.changed
    }
    /// Today's votes for `s` so far.
    pub fn votes_for(&self, s: Seat) -> u32 {
        self.st.tally[s] as u32
    }
    /// Yesterday's final vote of `s`.
    pub fn prev_vote_of(&self, s: Seat) -> Option<Vote> {
        decode(self.st.prev_votes[s])
    }
    /// The players whose vote today names somebody (not PASS, no vote yet):
    /// `vote_of(s)` is `Some(Vote::For(_))` exactly for them. Eight votes
    /// at a time without a branch (see `naming`), where a loop asking
    /// `vote_of` seat by seat branches on every vote.
    #[inline]
    pub fn naming(&self) -> PlayerSet {
        naming(&self.st.votes)
    }
    /// The players whose final vote yesterday named somebody
    /// (`prev_vote_of(s)` is `Some(Vote::For(_))`), as [`Observation::naming`].
    #[inline]
    pub fn prev_naming(&self) -> PlayerSet {
        naming(&self.st.prev_votes)
    }
    /// Per seat, everybody he named in a final vote (C10, public) on a day
    /// before those the players saw: a position's days before its last
    /// finished one ([`Position::votes`](crate::Position::votes)). `None`
    /// in a game played from day 1, where each day's votes are seen as
    /// [`Observation::prev_vote_of`] the next day. A player who keeps the
    /// vote record starts his memory from it.
    pub fn carried_votes(&self) -> Option<&'a [PlayerSet; MAX_PLAYERS]> {
        self.st.carried_any.then_some(&self.st.carried_votes)
    }
    /// Claims made so far, each player's claim of each role once
    /// (public): a cheap test for new claims.
    pub fn claims_made(&self) -> u16 {
        self.st.claims_made
    }
    /// Players (alive or dead) who have publicly claimed `role`.
    pub fn claimants(&self, role: Role) -> PlayerSet {
        self.st.claimed[role as usize]
    }
    /// When `s` first claimed a role: the count of claims made by then,
    /// his included (a later claim ranks higher; 0: he never claimed).
    /// Public: the thread shows the order claims were made in (a
    /// counter-claim is the later one).
    pub fn claim_rank(&self, s: Seat) -> u16 {
        self.st.claim_rank[s]
    }
    /// Dead players of camp `c` whose roles were announced (C9 setting).
    pub fn revealed_in_camp(&self, c: Camp) -> PlayerSet {
        if self.st.reveal_roles { self.st.camp_members[c as usize].inter(self.st.revealed) } else { PlayerSet::EMPTY }
    }
    /// Everything `s` has published so far (posts and last word).
    pub fn said(&self, s: Seat) -> &Publication {
        &self.st.said[s]
    }
    /// Everybody killed at night so far (public).
    pub fn killed_at_night(&self) -> PlayerSet {
        self.st.night_killed
    }
    /// When and how `s` left the game, if he has (deaths are public).
    pub fn death(&self, s: Seat) -> Option<(Phase, DeathCause)> {
        self.st.death[s]
    }
    /// C8: consecutive nights without a kill so far (public: nobody died).
    pub fn nights_without_kill(&self) -> u8 {
        self.st.nights_without_kill
    }
}

/// The end by the numbers of the living in each camp (C17, C18, E2; C19's
/// "nobody left" when all three are 0): what [`State::end_check`] decides,
/// and what `Start` asks of every deal of a position.
#[inline]
pub(crate) fn end_by_counts(mafia: u32, town: u32, bandits: u32, mafia_win: MafiaWin) -> Option<End> {
    if mafia == 0 && town == 0 && bandits == 0 {
        return Some(End { winner: None, cause: EndCause::Nobody });
    }
    let others = town + bandits;
    if mafia == 0 && bandits == 0 {
        return Some(End { winner: Some(Camp::Town), cause: EndCause::MafiaEliminated });
    }
    if others == 0 {
        return Some(End { winner: Some(Camp::Mafia), cause: EndCause::TownEliminated });
    }
    // E2: the last camp standing wins.
    if mafia == 0 && town == 0 {
        return Some(End { winner: Some(Camp::Bandits), cause: EndCause::OnlyBandits });
    }
    if mafia_win == MafiaWin::Parity && bandits == 0 && mafia >= others {
        return Some(End { winner: Some(Camp::Mafia), cause: EndCause::Parity });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// `naming`'s gathered top bits agree with decoding vote by vote, for
    /// every mix of names, PASS and no vote (and every seat as a target).
    #[test]
    fn naming_is_the_seats_whose_vote_names_somebody() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for round in 0..2000 {
            let mut votes = [NO_VOTE; MAX_PLAYERS];
            for v in votes.iter_mut() {
                *v = match rng.next_u32() % 3 {
                    0 => NO_VOTE,
                    1 => PASS,
                    _ => (rng.next_u32() % MAX_PLAYERS as u32) as u8,
                };
            }
            let expected: PlayerSet =
                Seat::all(MAX_PLAYERS).filter(|&s| matches!(decode(votes[s]), Some(Vote::For(_)))).collect();
            assert_eq!(naming(&votes), expected, "round {round}: {votes:?}");
        }
        assert_eq!(naming(&[NO_VOTE; MAX_PLAYERS]), PlayerSet::EMPTY);
        assert_eq!(naming(&[63; MAX_PLAYERS]), PlayerSet(u64::MAX));
    }

    /// The night asks its movers in the deal's mover order: every night
    /// mover once, by role in `Role`'s order, seats ascending within a role
    /// (whatever the deal), and nobody else.
    #[test]
    fn mover_order_is_the_movers_by_role_then_seat() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for preset in crate::setup::PRESETS {
            let game = Game::new(&preset.setup()).unwrap();
            let mut st = State::default();
            for _ in 0..50 {
                st.deal(&game, &mut rng);
                let order = &st.mover_order[..st.mover_count as usize];
                let mut expected: Vec<Seat> = st.night_movers.iter().collect();
                expected.sort_by_key(|&s| (st.roles[s] as u8, s));
                assert_eq!(order, &expected[..], "{}: {:?}", preset.name, &st.roles[..game.players()]);
                // Movers of several roles, so the order is not the seats'.
                assert!(order.iter().any(|&s| st.roles[s] != st.roles[order[0].index()]), "{}", preset.name);
                // Tonight's movers (some absent or dead) come in that order.
                let tonight = PlayerSet(st.night_movers.0 & rng.next_u64());
                let mut out = [Seat::new(0); MAX_PLAYERS];
                let count = st.tonights_movers(tonight, &mut out);
                let walked = out[..count].to_vec();
                let want: Vec<Seat> = expected.iter().copied().filter(|&s| tonight.contains(s)).collect();
                assert_eq!(walked, want, "{}", preset.name);
            }
        }
        // One moving role (three mafiosi): no order is kept, and tonight's
        // movers come in seat order.
        let mut setup = crate::setup::Setup::new("uniform");
        setup.counts[Role::Mafioso as usize] = 3;
        setup.counts[Role::Citizen as usize] = 7;
        let game = Game::new(&setup).unwrap();
        let mut st = State::default();
        for _ in 0..50 {
            st.deal(&game, &mut rng);
            assert_eq!(st.mover_count, 0);
            let tonight = PlayerSet(st.night_movers.0 & rng.next_u64());
            let mut out = [Seat::new(0); MAX_PLAYERS];
            let count = st.tonights_movers(tonight, &mut out);
            let walked = out[..count].to_vec();
            assert_eq!(walked, tonight.iter().collect::<Vec<_>>());
            assert_eq!(st.night_movers, st.role_seats.seats[Role::Mafioso as usize]);
        }
    }
}
