//! The public read: what a player makes of the day thread, from public
//! events only (claims, counter-claims, published checks, votes, night
//! deaths, announced roles) plus what he knows himself. Every strategy of
//! the family reads the same picture; the town votes by it, the mafia hunt
//! by it.

use crate::strategy::{Config, Counterclaim};
pub(crate) use crate::votes::Ties;
use crate::votes::VoteRecord;
use crate::votes::best_by;
use mafia_engine::{Camp, MAX_PLAYERS, Observation, PlayerSet, Role, Seat};

/// The information roles whose claims carry checks (C6, E13).
pub(crate) const INFO_ROLES: [Role; 2] = [Role::Commissar, Role::Detective];

/// What every reader of one reading class makes of the thread (see
/// [`public_read`]): the shared half of a player's [`Read`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct PublicRead {
    pub believed: PlayerSet,
    /// Claimants taken for fakes (counter-claims lost): part of `exposed`.
    pub fakes: PlayerSet,
    pub exposed: PlayerSet,
    pub cleared: PlayerSet,
    /// Suspicion by seat (0 for the dead), from the vote record.
    pub score: [i8; MAX_PLAYERS],
}

impl Default for PublicRead {
    fn default() -> Self {
        PublicRead {
            believed: PlayerSet::EMPTY,
            fakes: PlayerSet::EMPTY,
            exposed: PlayerSet::EMPTY,
            cleared: PlayerSet::EMPTY,
            score: [0; MAX_PLAYERS],
        }
    }
}

/// What one player believes today: the public read with his own knowledge
/// (see [`personal`]). Made on the spot for each decision from the table's
/// public read, which it borrows: four set operations are cheaper than
/// keeping (and checking) a copy per seat.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Read<'a> {
    /// Believed information-role claimants (alive or dead).
    pub believed: PlayerSet,
    /// Players taken for enemies of the reader's camp: published as mafia or
    /// bandits by a believed claimant, found by his own checks, fakes.
    pub exposed: PlayerSet,
    /// Players taken for town: published town by a believed claimant, his
    /// own checks, believed claimants, the night's victims.
    pub cleared: PlayerSet,
    /// Suspicion by seat (higher: more suspicious), from the vote record;
    /// the same for every reader (public).
    pub score: &'a [i8; MAX_PLAYERS],
    /// The reader's order of preference among equals this game.
    pub ties: &'a Ties,
}

/// The public memory a player keeps across the days: everybody each
/// player has voted for (final votes), and the order claims appeared in.
#[derive(Clone, Debug, Default)]
struct Memory {
    /// Everybody each player has voted for on finished days.
    votes: VoteRecord,
    /// Per information role: claimants in the order they claimed (the
    /// first is the earliest; a later one counter-claims).
    pub claim_order: [[Seat; 4]; 2],
    pub claim_len: [u8; 2],
    /// [`Observation::claims_made`] when the claims were last noted.
    pub claims_seen: u16,
    /// E14: claimants of the Detective who claimed when every earlier
    /// claimant of the role was dead, in a setup that deals a Deputy: the
    /// promoted Deputy claims the role he took, which is no counter-claim.
    pub successors: PlayerSet,
}

impl Memory {
    /// Records yesterday's final votes and any new claims (public).
    pub fn update(&mut self, obs: &Observation<'_>) {
        self.votes.update(obs);
        if obs.claims_made() != self.claims_seen {
            self.note_claims(obs);
        }
    }

    /// Records the new claimants of the information roles, earliest claim
    /// first (several may have claimed since the last sync, or before a
    /// position).
    #[inline(never)]
    fn note_claims(&mut self, obs: &Observation<'_>) {
        self.claims_seen = obs.claims_made();
        for (i, &role) in INFO_ROLES.iter().enumerate() {
            let mut new = obs.claimants(role);
            for &s in self.claimants(i) {
                new.remove(s);
            }
            while let Some(s) = best_by(new, |s| -(obs.claim_rank(s) as i32)) {
                new.remove(s);
                let len = self.claim_len[i] as usize;
                if role == Role::Detective
                    && len > 0
                    && self.claimants(i).iter().all(|&c| !obs.is_alive(c))
                    && obs.deals(Role::Deputy)
                {
                    self.successors.insert(s);
                }
                if len < 4 {
                    self.claim_order[i][len] = s;
                    self.claim_len[i] += 1;
                }
            }
        }
    }

    fn claimants(&self, i: usize) -> &[Seat] {
        &self.claim_order[i][..self.claim_len[i] as usize]
    }
}

/// Judges the claimants of one information role, earliest first: a lone
/// claimant is believed; of several, a claimant killed at night was real
/// (the mafia kill the real one), else `counterclaim` says which one is
/// (with `coin`, the town's public coin); the rest are fakes, bar the
/// promoted Deputy's succession (E14).
#[inline(always)]
fn judge(
    obs: &Observation<'_>,
    claimants: &[Seat],
    memory: &Memory,
    night_dead: PlayerSet,
    cfg: &Config,
    coin: &mut PublicCoin,
    r: &mut PublicRead,
) {
    let trusting = cfg.trust > 0;
    match claimants {
        [] => {}
        [one] => {
            if trusting {
                r.believed.insert(*one);
            }
        }
        [_, _, ..] => {
            let all: PlayerSet = claimants.iter().copied().collect();
            let real = contest(obs, claimants[0], claimants[1], all, night_dead, cfg, coin);
            // E14: the promoted Deputy's claim of the dead Detective's role
            // is a succession, not a counter-claim; two successions contest
            // each other (only a fake makes a second one).
            let successors = all.inter(memory.successors);
            let mut heirs = claimants.iter().copied().filter(|&s| successors.contains(s));
            let heir = match (heirs.next(), heirs.next()) {
                (Some(a), Some(b)) => Some(contest(obs, a, b, successors, night_dead, cfg, coin)),
                _ => None,
            };
            for s in all.iter() {
                let succession = successors.contains(s) && heir.is_none_or(|h| h == Some(s));
                if Some(s) == real || succession {
                    if trusting {
                        r.believed.insert(s);
                    }
                } else {
                    r.fakes.insert(s);
                }
            }
        }
    }
}

/// The claimant of a contest (`all`, of whom `first` and `second` claimed
/// first) taken for the real one: one killed at night (the mafia kill the
/// real one), else `counterclaim`'s choice between the first two (a claim
/// made after that is a fake whatever the town decided); `None`: neither.
#[inline(always)]
fn contest(
    obs: &Observation<'_>,
    first: Seat,
    second: Seat,
    all: PlayerSet,
    night_dead: PlayerSet,
    cfg: &Config,
    coin: &mut PublicCoin,
) -> Option<Seat> {
    let killed = all.inter(night_dead);
    if killed.len() == 1 {
        return killed.lowest();
    }
    choose(obs, cfg, coin, first, second, all)
}

/// Which of two contesting claimants `counterclaim` believes (`None`:
/// neither); `group` is every claimant of the contest.
fn choose(
    obs: &Observation<'_>,
    cfg: &Config,
    coin: &mut PublicCoin,
    first: Seat,
    second: Seat,
    group: PlayerSet,
) -> Option<Seat> {
    match cfg.counterclaim {
        Counterclaim::Later => Some(first),
        Counterclaim::Earlier => Some(second),
        Counterclaim::Both => None,
        Counterclaim::Checks => consistent(obs, group).or(Some(first)),
        Counterclaim::Coin => {
            // A draw's top 12 bits against the chance's steps of 1/4096.
            let [both, first_or_second, _] = coin.words().map(|w| (w >> 20) as u16);
            if both < cfg.coin_both { None } else { Some(if first_or_second < cfg.coin { first } else { second }) }
        }
    }
}

/// Where the roles of the dead are announced (C9's `reveal_roles_on_death`):
/// a dead claimant announced as town told the truth, so the others who
/// made the same kind of claim lied (the claims made before any claimant
/// died, or the Deputy's succession, E14); one announced as mafia or bandit
/// lied. Records those in `r`, puts the claimants left for [`judge`] in
/// `kept` and returns how many.
#[cold]
#[inline(never)]
fn settle_announced(
    obs: &Observation<'_>,
    claimants: &[Seat],
    successors: PlayerSet,
    trusting: bool,
    kept: &mut [Seat; 4],
    r: &mut PublicRead,
) -> usize {
    let all: PlayerSet = claimants.iter().copied().collect();
    let town = all.inter(obs.revealed_in_camp(Camp::Town));
    let mut liars = all.inter(obs.revealed_in_camp(Camp::Mafia).union(obs.revealed_in_camp(Camp::Bandits)));
    let successors = all.inter(successors);
    for group in [all.minus(successors), successors] {
        if !group.inter(town).is_empty() {
            liars = liars.union(group.minus(town));
        }
    }
    r.fakes = r.fakes.union(liars);
    if trusting {
        r.believed = r.believed.union(town);
    }
    let mut n = 0;
    for &s in claimants {
        if !liars.contains(s) && !town.contains(s) {
            kept[n] = s;
            n += 1;
        }
    }
    n
}

/// Whether the thread has caught claimant `s` lying, whatever anybody's
/// trust: he published as an enemy a player who was later killed at night,
/// in a setup where only the mafia kill at night (no bandits, no Shooter,
/// no Role Prostitute to borrow him): the mafia do not kill their own (C4
/// allows it; no strategy here does it, and the best-response search has
/// no parameter for it, see the book, docs/src/research/play.md).
#[inline]
fn caught(obs: &Observation<'_>, s: Seat, night_dead: PlayerSet) -> bool {
    let said = obs.said(s);
    let enemies = said.camps[Camp::Mafia as usize].union(said.camps[Camp::Bandits as usize]);
    !enemies.inter(night_dead).is_empty() && only_the_mafia_kill_at_night(obs)
}

/// No night kill but the mafia's in this setup (C4): no bandits (E8),
/// Shooter (E20), Role Prostitute (E19, who may borrow him) or Psycho (E23).
fn only_the_mafia_kill_at_night(obs: &Observation<'_>) -> bool {
    const OTHERS: [Role; 7] =
        [Role::Shooter, Role::Prostitute, Role::Psycho, Role::Miner, Role::Thug, Role::Scout, Role::Trickster];
    !OTHERS.iter().any(|&r| obs.deals(r))
}

/// The part of a public read that depends on the reading class: whom the
/// claims make believed claimants and fakes, and whether a claim is a
/// proof or only a lead (`trust` below 0.5). The rest of the read
/// ([`public_read`]) follows from it and the public record alone, so two
/// classes with the same judgement of the same record read alike.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Judgement {
    believed: PlayerSet,
    fakes: PlayerSet,
    soft: bool,
}

/// How a reader of `cfg`'s class judges the claims of the record (see
/// [`Judgement`]).
fn judgement(obs: &Observation<'_>, memory: &Memory, cfg: &Config, coin: &mut PublicCoin) -> Judgement {
    let mut r = PublicRead::default();
    let night_dead = obs.killed_at_night();
    let trusting = cfg.trust > 0;
    // C9 with `reveal_roles_on_death`: the camps announced at death prove or
    // disprove dead claimants (off the common path: most rules hide them).
    let announced = obs.rules().reveal_roles_on_death;
    for (i, _) in INFO_ROLES.iter().enumerate() {
        let claimants = memory.claimants(i);
        let mut kept = [Seat::new(0); 4];
        let claimants = if announced && !claimants.is_empty() {
            let n = settle_announced(obs, claimants, memory.successors, trusting, &mut kept, &mut r);
            &kept[..n]
        } else {
            claimants
        };
        let mut honest = [Seat::new(0); 4];
        let claimants = if !night_dead.is_empty() && claimants.iter().any(|&s| caught(obs, s, night_dead)) {
            let mut n = 0;
            for &s in claimants {
                if caught(obs, s, night_dead) {
                    r.fakes.insert(s);
                } else {
                    honest[n] = s;
                    n += 1;
                }
            }
            &honest[..n]
        } else {
            claimants
        };
        judge(obs, claimants, memory, night_dead, cfg, coin, &mut r);
    }
    // E17: a lone Journalist claimant is believed like an uncontested
    // checker; two or more believe nobody (the claims carry no checks to
    // weigh them by).
    // E22: so is a lone Sleepwalker claimant (his claim clears whom a mafia
    // visitor came to).
    for role in [Role::Journalist, Role::Sleepwalker] {
        let claimants = obs.claimants(role);
        if trusting && claimants.len() == 1 {
            r.believed = r.believed.union(claimants);
        }
    }
    // Below 0.5 a claim is a lead, not a proof: it moves suspicion only.
    let soft = cfg.trust < crate::strategy::threshold(0.5);
    Judgement { believed: r.believed, fakes: r.fakes, soft }
}

/// The public read: what every player of the same `trust` and
/// `counterclaim` makes of the thread, before his own knowledge, from his
/// class's [`Judgement`] of the claims. Computed once per change of the
/// thread for the whole table (see [`Public`]), into `r`; the scores only
/// when what they depend on changed since `scored` (then updated).
fn public_read(
    obs: &Observation<'_>,
    memory: &Memory,
    judged: Judgement,
    r: &mut PublicRead,
    scored: &mut Option<ScoreInputs>,
) {
    r.believed = judged.believed;
    r.fakes = judged.fakes;
    r.exposed = PlayerSet::EMPTY;
    r.cleared = PlayerSet::EMPTY;
    let night_dead = obs.killed_at_night();
    for c in Camp::ALL {
        if c != Camp::Town {
            r.exposed = r.exposed.union(obs.revealed_in_camp(c));
        }
    }
    r.cleared = r.cleared.union(obs.revealed_in_camp(Camp::Town));
    for s in r.believed.iter() {
        let said = obs.said(s);
        // A Journalist's finds are his accusations (E17: "not of my cleared one's camp").
        let enemies = said.camps[Camp::Mafia as usize].union(said.camps[Camp::Bandits as usize]).union(said.accuse);
        r.exposed = r.exposed.union(enemies);
        r.cleared = r.cleared.union(said.camps[Camp::Town as usize]);
    }
    let (mut leads_enemy, mut leads_town) = (PlayerSet::EMPTY, PlayerSet::EMPTY);
    if judged.soft {
        leads_enemy = r.exposed;
        leads_town = r.cleared;
        r.exposed = PlayerSet::EMPTY;
        r.cleared = PlayerSet::EMPTY;
        r.believed = PlayerSet::EMPTY;
    }
    r.exposed = r.exposed.union(r.fakes);
    // The last two: the game goes on, so they are in different camps (E2,
    // C18), and each knows the other for an enemy (a reader's own read
    // leaves himself out of `exposed`, see `personal`).
    if obs.alive().len() == 2 {
        r.exposed = r.exposed.union(obs.alive());
    }
    r.cleared = r.cleared.union(r.believed).union(night_dead).minus(r.exposed);
    // The night's victims were most likely town: their last words' accusations weigh.
    let mut victims_accuse = PlayerSet::EMPTY;
    for v in night_dead.iter() {
        victims_accuse = victims_accuse.union(obs.said(v).accuse);
    }
    // Most changes of the thread (a day begins, a quiet last word) leave
    // the scores' inputs as they were.
    let inputs = ScoreInputs {
        recorded_day: memory.votes.recorded_day,
        sets: [obs.alive(), r.cleared, r.exposed, leads_enemy, leads_town, victims_accuse],
    };
    if *scored == Some(inputs) {
        return;
    }
    *scored = Some(inputs);
    // Votes read against the picture: voting cleared players is suspicious,
    // voting exposed ones is not. The dead score 0.
    r.score = [0; MAX_PLAYERS];
    let (cleared, exposed) = (r.cleared, r.exposed);
    let bonus = leads_enemy.union(leads_town).union(victims_accuse);
    // Most seats have no lead or accusation: their score is the vote part
    // alone, which fits an i8 without clamping (cleared and exposed are
    // disjoint and nobody votes for himself: at most 63 of either).
    for s in obs.alive().minus(bonus).iter() {
        let v = memory.votes.voted[s];
        r.score[s] = (2 * (v.inter(cleared).len() as i32 - v.inter(exposed).len() as i32)) as i8;
    }
    for s in obs.alive().inter(bonus).iter() {
        let v = memory.votes.voted[s];
        let mut score = 2 * v.inter(cleared).len() as i32 - 2 * v.inter(exposed).len() as i32;
        score += 4 * leads_enemy.contains(s) as i32 - 4 * leads_town.contains(s) as i32;
        score += 2 * victims_accuse.contains(s) as i32;
        r.score[s] = score.clamp(-128, 127) as i8;
    }
}

/// Everything the suspicion scores depend on: the memory's votes (which
/// change only with the day they were recorded for), the living, cleared
/// and exposed players, the claims' leads and the victims' accusations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ScoreInputs {
    recorded_day: u16,
    sets: [PlayerSet; 6],
}

/// The reading parameters a public read depends on (`trust` only through
/// two thresholds, `counterclaim`, and with `coin` its two chances),
/// packed into 32 bits: seats of the same class read the thread alike.
/// Fixed per seat for the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct ReadingClass(u32);

impl ReadingClass {
    pub fn of(cfg: &Config) -> ReadingClass {
        let hard = cfg.trust >= crate::strategy::threshold(0.5);
        let any = cfg.trust > 0;
        // The coin's chances (0..=4096, 13 bits each) fit beside the rest.
        let (coin, both) = if cfg.counterclaim == Counterclaim::Coin { (cfg.coin, cfg.coin_both) } else { (0, 0) };
        ReadingClass(
            hard as u32 | (any as u32) << 1 | (cfg.counterclaim as u32) << 2 | (coin as u32) << 5 | (both as u32) << 18,
        )
    }
}

/// What a public read depends on: the public record apart from today's
/// votes (its version) and the reading class. One word, so the check every
/// decision makes is one comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PublicKey(u64);

impl PublicKey {
    #[inline]
    fn of(obs: &Observation<'_>, class: ReadingClass) -> PublicKey {
        PublicKey(obs.record_version() as u64 | (class.0 as u64) << 32)
    }

    fn class(self) -> u32 {
        (self.0 >> 32) as u32
    }

    fn version(self) -> u32 {
        self.0 as u32
    }
}

/// The town's public coin (`counterclaim = coin`): one roll a game, made
/// in the thread when a counter-claim first needs it, from the town's
/// stream of the game (C1's deal and every seat's draws are apart from
/// it, so nobody can steer or foresee it).
#[derive(Clone, Debug, Default)]
pub(crate) struct PublicCoin {
    pub key: [u8; 32],
    pub game: u64,
    words: Option<[u32; 3]>,
}

impl PublicCoin {
    /// Sets the game's roll to the first three words of the town's stream
    /// of the game, read by the table from the game's streams (what
    /// [`PublicCoin::words`] would draw itself, generating that stream's
    /// opening on its own).
    #[inline]
    pub(crate) fn set_words(&mut self, words: [u32; 3]) {
        self.words = Some(words);
    }

    /// The game's roll (drawn on first use): whether to lynch both
    /// claimants (`coin_both`), else which to believe (`coin`), and
    /// whether the town passes first this game (`pass_first`).
    #[cold]
    fn words(&mut self) -> [u32; 3] {
        *self.words.get_or_insert_with(|| {
            use rand::Rng as _;
            let mut s = crate::streams::Stream::new(self.key, self.game, crate::streams::Purpose::Camp(Camp::Town));
            [s.next_u32(), s.next_u32(), s.next_u32()]
        })
    }

    /// `pass_first` (in steps of 1/4096): whether the town passes first
    /// this game; every town seat reads the same word.
    pub fn passes_first(&mut self, steps: u16) -> bool {
        steps > 0 && ((self.words()[2] >> 20) as u16) < steps
    }
}

/// The table's shared public read and memory: every `forum` seat of one
/// worker reads the same thread, so it is read once per change, not once
/// per seat. The seat the table asks decides with it (see `Turn`).
/// Reset at the start of every game.
#[derive(Clone, Debug, Default)]
pub(crate) struct Public {
    memory: Memory,
    /// The town's public coin (`counterclaim = coin`).
    pub(crate) coin: PublicCoin,
    /// The reads of the last two reading classes that synced, the last
    /// first: a game whose camps read by different parameters (a mixed
    /// lineup's town and mafia) would otherwise read the thread again at
    /// every turn of the other camp. What a seat gets does not depend on
    /// which slot holds it. Boxed: bringing the other slot first swaps
    /// two pointers, and slot 0 stays where every decision reads it.
    slots: [Box<Slot>; 2],
    leaders: Leaders,
    /// This game's mafia conference (C2), once a member has held it: every
    /// member draws the same roll and kill order from the camp's shared
    /// stream at the same point, so the first member's result serves the
    /// rest (see `Turn::conference`).
    pub(crate) conference: Option<Conference>,
}

/// One reading class's public read.
#[derive(Clone, Debug, Default)]
struct Slot {
    /// The key `read` was made under (`None`: nothing read this game).
    key: Option<PublicKey>,
    read: PublicRead,
    /// For the key `read` was made under: the most suspicious of the
    /// living not cleared, and the most suspicious of the rest of them
    /// (see [`Public::open_suspects`]).
    open_top: Option<(PublicKey, [PlayerSet; 2])>,
    /// What `read.score` was computed from.
    scored: Option<ScoreInputs>,
    /// The judgement `read` was made from.
    judged: Judgement,
}

/// The mafia conference's result (C2): the roll deciding a fake claim and
/// the kill order of the non-mafia seats.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Conference {
    pub fake_roll: u32,
    pub blend_roll: u32,
    pub order: [Seat; MAX_PLAYERS],
    pub order_len: u8,
    /// The camp's order among equals.
    pub ties: Ties,
}

/// Today's two most voted living players while the players change their
/// votes (C10). Every seat's change asks who leads among the others, and
/// between two accepted changes the tally stands still: one scan serves
/// every seat that keeps his vote.
#[derive(Clone, Copy, Debug, Default)]
struct Leaders {
    /// The record version and the players who had changed when made.
    key: Option<(u32, PlayerSet)>,
    /// The most voted living players (all tied) and their count, then the
    /// most voted of the rest (found only when a lone leader asks).
    first: (PlayerSet, u32),
    second: Option<(PlayerSet, u32)>,
}

impl Public {
    pub fn reset(&mut self) {
        self.memory = Memory::default();
        for slot in &mut self.slots {
            slot.key = None;
            slot.open_top = None;
            slot.scored = None;
        }
        self.leaders.key = None;
        self.conference = None;
        self.coin.words = None;
    }

    /// During the changes of vote only: the living players other than me
    /// with the most votes today (all tied: the reader breaks the tie) and
    /// their count, from a cache keyed by the changes made so far (see
    /// [`Leaders`]); `None` when nobody else lives.
    #[inline]
    pub fn leaders_for_change(&mut self, obs: &Observation<'_>) -> Option<(PlayerSet, u32)> {
        let key = (obs.record_version(), obs.changed());
        if self.leaders.key != Some(key) {
            self.leaders = Leaders { key: Some(key), first: top_voted(obs, obs.alive()), second: None };
        }
        let (top, votes) = self.leaders.first;
        let others = top.without(obs.seat());
        if !others.is_empty() {
            return Some((others, votes));
        }
        // Only a lone leader asks for the runner-up (kept once found).
        let second = *self.leaders.second.get_or_insert_with(|| top_voted(obs, obs.alive().without(obs.seat())));
        (!second.0.is_empty()).then_some(second)
    }

    /// Brings the public read up to date for a reader of `class`.
    ///
    /// The memory records new claims only here, so *when* seats sync
    /// decides the order of claims made between two syncs (seat order):
    /// the decisions that sync must stay the same for play to stay the same.
    #[inline]
    pub fn sync(&mut self, obs: &Observation<'_>, class: ReadingClass, cfg: &Config) {
        let key = PublicKey::of(obs, class);
        if self.slots[0].key != Some(key) {
            // A mixed lineup's camps take turns: the other class's read,
            // already made, comes first in line (the swap `switch` would
            // make, without the call).
            if self.slots[1].key == Some(key) {
                self.slots.swap(0, 1);
                return;
            }
            self.switch(obs, key, cfg);
        }
    }

    /// Makes slot 0 hold `key`'s read: the same class read again in place;
    /// another class's read moves to slot 1 first, and slot 1's comes
    /// first if it holds `key` (a lineup whose seats all read alike never
    /// swaps).
    #[inline(never)]
    fn switch(&mut self, obs: &Observation<'_>, key: PublicKey, cfg: &Config) {
        if self.slots[0].key.is_some_and(|k| k.class() != key.class()) {
            self.slots.swap(0, 1);
            if self.slots[0].key == Some(key) {
                return;
            }
        }
        // Every recompute notes the record first, as one slot did before:
        // the memory changes only with the record, so the order of claims
        // noted is the same whichever class reads first.
        self.memory.update(obs);
        let judged = judgement(obs, &self.memory, cfg, &mut self.coin);
        let [slot, other] = &mut self.slots;
        let (slot, other) = (&mut **slot, &**other);
        // A mixed lineup's other camp has often read this very record with
        // the same judgement of its claims (no contest, the same trust):
        // its read is this class's too.
        match other.key {
            Some(k) if k.version() == key.version() && other.judged == judged => {
                slot.read = other.read;
                slot.scored = other.scored;
                slot.open_top = match other.open_top {
                    Some((k2, top)) if Some(k2) == other.key => Some((key, top)),
                    _ => None,
                };
            }
            _ => public_read(obs, &self.memory, judged, &mut slot.read, &mut slot.scored),
        }
        slot.judged = judged;
        slot.key = Some(key);
    }

    /// For a town player who knows only the public record
    /// ([`knows_only_public`]), after [`Public::sync`]: the most
    /// suspicious of the living who are neither cleared nor himself, when
    /// there are any (`Read::most_suspicious` of his read's open players).
    /// Every such seat asks for the same set less himself, so the two top
    /// levels are found once per change of the record: the top one less
    /// himself, or the next if he alone tops it.
    pub fn open_suspects(&mut self, obs: &Observation<'_>) -> PlayerSet {
        let slot = &mut self.slots[0];
        let key = slot.key.expect("synced before");
        let top = match slot.open_top {
            Some((k, top)) if k == key => top,
            _ => {
                let score = &slot.read.score;
                let open = obs.alive().minus(slot.read.cleared);
                let first = open.top_by(|s| score[s]);
                let top = [first, open.minus(first).top_by(|s| score[s])];
                slot.open_top = Some((key, top));
                top
            }
        };
        let mine = top[0].without(obs.seat());
        if mine.is_empty() { top[1] } else { mine }
    }

    /// `obs`'s player's read (after [`Public::sync`]), with his order of
    /// preference among equals.
    #[inline]
    pub fn read_for<'a>(&'a self, obs: &Observation<'_>, ties: &'a Ties) -> Read<'a> {
        personal(&self.slots[0].read, obs, ties)
    }

    /// The players the thread takes for exposed, the reader included
    /// (after [`Public::sync`]; a reader's own read leaves himself out).
    pub fn exposed(&self) -> PlayerSet {
        self.slots[0].read.exposed
    }

    /// The claimants the thread takes for fakes (after [`Public::sync`]).
    pub fn fakes(&self) -> PlayerSet {
        self.slots[0].read.fakes
    }

    /// Who voted for whom on earlier days, by voter (public).
    pub fn voted_all(&self) -> &[PlayerSet; MAX_PLAYERS] {
        &self.memory.votes.voted
    }
}

/// Whether `obs`'s player is a town player who has found nobody: his read
/// is then the public one with himself cleared (the public cleared and
/// exposed players are apart), so his open players are the living who are
/// neither publicly cleared nor himself.
#[inline]
pub(crate) fn knows_only_public(obs: &Observation<'_>) -> bool {
    obs.camp() == Camp::Town
        && obs
            .found_in_camp(Camp::Town)
            .union(obs.found_in_camp(Camp::Mafia))
            .union(obs.found_in_camp(Camp::Bandits))
            .is_empty()
}

/// `obs`'s player's own read: the public one with what he knows himself
/// (a town player's checks; he is no fake or suspect to himself). A
/// mafioso or bandit reads the thread as the town does, whose lynches he
/// plays to: his camp's finds (the Boss's checks, E7) choose its night
/// moves, not whom he calls suspect or clear (taking found town players
/// for cleared kept the Boss off the very players his camp must lynch:
/// the mafia won 1.1 points more in `extended` without it).
#[inline]
pub(crate) fn personal<'a>(p: &'a PublicRead, obs: &Observation<'_>, ties: &'a Ties) -> Read<'a> {
    let me = obs.seat();
    let (mut exposed, mut cleared) = (p.exposed, p.cleared);
    let town = obs.camp() == Camp::Town;
    if town {
        let own_enemy = obs.found_in_camp(Camp::Mafia).union(obs.found_in_camp(Camp::Bandits));
        let own_town = obs.found_in_camp(Camp::Town);
        exposed = exposed.union(own_enemy).minus(own_town);
        cleared = cleared.union(own_town);
    }
    exposed = exposed.without(me);
    cleared = cleared.minus(exposed);
    if town {
        cleared.insert(me);
    }
    Read { believed: p.believed.without(me), exposed, cleared, score: &p.score, ties }
}

/// The claimant whose published checks agree with the public facts: none
/// of the night's victims (town, as far as anyone can tell) published as
/// mafia, and no announced mafioso published as town. `None` if not exactly one.
fn consistent(obs: &Observation<'_>, claimants: PlayerSet) -> Option<Seat> {
    let night_dead = obs.killed_at_night();
    let dead_enemy = obs.revealed_in_camp(Camp::Mafia).union(obs.revealed_in_camp(Camp::Bandits));
    let dead_town = obs.revealed_in_camp(Camp::Town).union(night_dead);
    let mut ok = PlayerSet::EMPTY;
    for s in claimants.iter() {
        let said = obs.said(s);
        if said.camps[Camp::Mafia as usize].inter(dead_town).is_empty()
            && said.camps[Camp::Town as usize].inter(dead_enemy).is_empty()
        {
            ok.insert(s);
        }
    }
    if ok.len() == 1 { ok.lowest() } else { None }
}

impl Read<'_> {
    /// The most suspicious of `among`: exposed first, then the highest
    /// score among those not cleared (the cleared only if nobody else), ties
    /// to the most voted today, then to the reader's order ([`Ties`]).
    pub fn suspect(&self, obs: &Observation<'_>, among: PlayerSet) -> Option<Seat> {
        if let Some(s) = self.ties.best_by(among.inter(self.exposed), |s| obs.votes_for(s) as i32) {
            return Some(s);
        }
        let open = among.minus(self.cleared);
        let pool = if open.is_empty() { among } else { open };
        self.ties.best_by(pool, |s| self.score[s] as i32 * 64 + obs.votes_for(s) as i32)
    }
    /// The members of `among` with the highest score (empty if `among`
    /// is; `PlayerSet::top_by`: no branch on the scores).
    #[inline]
    pub fn most_suspicious(&self, among: PlayerSet) -> PlayerSet {
        among.top_by(|s| self.score[s])
    }
    /// The most trusted of `among` (cleared first, then the lowest score;
    /// ties to the reader's order).
    pub fn trusted(&self, among: PlayerSet) -> Option<Seat> {
        let pool = if among.inter(self.cleared).is_empty() { among } else { among.inter(self.cleared) };
        self.ties.best_by(pool.minus(self.exposed), |s| -(self.score[s] as i32)).or_else(|| self.ties.first(pool))
    }
}

/// The members of `among` with the most votes today (all tied) and their
/// count (`PlayerSet::top_by`: no branch on the counts).
pub(crate) fn top_voted(obs: &Observation<'_>, among: PlayerSet) -> (PlayerSet, u32) {
    let top = among.top_by(|s| obs.votes_for(s));
    (top, top.lowest().map_or(0, |s| obs.votes_for(s)))
}
