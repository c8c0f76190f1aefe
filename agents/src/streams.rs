//! Per-game random streams by purpose (common random numbers).
//!
//! Every draw of a game comes from one ChaCha8 keystream: the key is expanded
//! from the master seed, the ChaCha stream id is the game index. Each
//! *purpose* (the deal, the host, the activity model, a camp's shared plan,
//! each seat's decisions) owns fixed parts of that keystream:
//!
//! - its **opening**, four words: words `4p .. 4p + 4` of the keystream for
//!   purpose `p` (the openings fill the first [`OPENINGS`] blocks);
//! - then its **continuation blocks**, 16 words each: purpose `p`'s `k`-th
//!   is block `CONTINUATIONS + k·STRIDE + p`.
//!
//! So a purpose's draws depend only on (master seed, game index, purpose)
//! and on how many draws *that purpose* made before — a rule that makes the
//! host draw more, or a seat whose strategy changed, shifts nobody else's
//! numbers.
//!
//! Speed: most purposes draw a handful of words a game (a random voter one
//! per day), so the openings of every purpose a game uses (the four fixed
//! ones and one per seat: 56 words for ten players) come from one
//! `fill_bytes` of a single generator — one wide ChaCha refill, which makes
//! four blocks, for up to twelve seats. Continuation blocks of neighbouring
//! purposes are neighbours too, so [`GameStreams::top_up`] loads the next
//! block of a seat's stream from a wide refill it shares with three other
//! purposes (kept in a small cache); a stream that runs dry in the middle
//! of a decision loads its block alone ([`Stream`]'s own refill). Either way
//! the words are the same.

use mafia_engine::{Camp, MAX_PLAYERS, Seat};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::convert::Infallible;

/// The generator the streams read the keystream with: RustCrypto's ChaCha8
/// (`chacha20`), the same keystream as rand_chacha's `ChaCha8Rng` for the
/// same key, stream and word position (the tests below compare them word by
/// word). Its repositioning is plain stores; rand_chacha's goes through a
/// lane insert whose store-forwarding stalls cost about 40 ns a call
/// (`set_word_pos` then a refill: 111 ns against 70), and the layout
/// repositions for every block it loads.
type Generator = chacha20::ChaCha8Rng;

/// Purposes whose opening every game reads up front, before the seats: the
/// deal, the mafia's shared stream, the host and the activity model.
pub const EAGER_FIXED: usize = 4;
/// Every purpose: the eager fixed ones, every possible seat, then the
/// bandits' shared stream, the town's public coin and the mixed camps'
/// picks (and one unused, so that [`STRIDE`] is a multiple of four).
pub const PURPOSES: usize = EAGER_FIXED + MAX_PLAYERS + 4;
/// Words in a purpose's opening.
pub const OPENING_WORDS: usize = 4;
/// Blocks (16 words) holding every purpose's opening.
pub const OPENINGS: u64 = (PURPOSES * OPENING_WORDS / 16) as u64;
/// The first continuation block (aligned to the generator's four-block refills).
pub const CONTINUATIONS: u64 = OPENINGS.next_multiple_of(4);
/// Blocks between two consecutive continuation blocks of one purpose.
pub const STRIDE: u64 = PURPOSES as u64;

/// What a stream is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// C1: the deal.
    Deal,
    /// The host's draws (random tie-breaks).
    Host,
    /// C15/C16: modkills and absences.
    Activity,
    /// A camp's shared, pre-agreed choices: first the conference's plan
    /// (C2), then each phase's pre-agreed draws.
    Camp(Camp),
    /// One seat's own decisions.
    Seat(Seat),
    /// Which alternative of each mixed camp plays the game
    /// ([`crate::Lineup`]'s `CAMP@SHARE=…`): word `c` for camp `c`. Read only
    /// by lineups with a mix.
    Mix,
}

impl Purpose {
    /// The purpose's index: its opening is words `4·index .. 4·index + 4`.
    pub const fn index(self) -> usize {
        // Purposes every game may use come first, so one contiguous read at
        // the start of a game covers them; the rest sit after the seats.
        const LAZY: usize = EAGER_FIXED + MAX_PLAYERS;
        match self {
            Purpose::Deal => 0,
            Purpose::Camp(Camp::Mafia) => 1,
            Purpose::Host => 2,
            Purpose::Activity => 3,
            Purpose::Seat(s) => EAGER_FIXED + s.index(),
            Purpose::Camp(Camp::Bandits) => LAZY,
            // The town has no private channel: its stream is the public coin
            // it rolls in the thread (`counterclaim = coin`).
            Purpose::Camp(Camp::Town) => LAZY + 1,
            Purpose::Mix => LAZY + 2,
        }
    }
}

/// The 32-byte ChaCha key for a master seed (rand_core's documented
/// `seed_from_u64` expansion, stable across versions).
pub fn master_key(seed: u64) -> [u8; 32] {
    ChaCha8Rng::seed_from_u64(seed).get_seed()
}

/// One purpose's stream within one game. Implements [`rand::Rng`].
///
/// Cache-line aligned with its words first: a continuation block is copied
/// in with wide stores and read a word at a time right after, and a wide
/// store that straddles two lines may not forward to the loads behind it
/// (about 3% on the `classic` `random` game on an AMD EPYC; benches/README.md).
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub struct Stream {
    /// The words loaded last (the opening: 4, a continuation block: 16),
    /// as keystream bytes; words are read little-endian.
    buf: [u8; 64],
    /// Next word of `buf` to hand out.
    pos: u8,
    /// Words of `buf` loaded (0: nothing loaded yet).
    len: u8,
    purpose: u8,
    /// Words of this purpose handed out before `buf`.
    base: u32,
    game: u64,
    key: [u8; 32],
}

impl Stream {
    fn empty(key: [u8; 32], purpose: usize) -> Stream {
        Stream { buf: [0; 64], pos: 0, len: 0, purpose: purpose as u8, base: 0, game: 0, key }
    }

    /// A stand-alone stream for (key, game, purpose), generated on its own
    /// (tests, replays). Equal to the one [`GameStreams`] hands out.
    pub fn new(key: [u8; 32], game: u64, purpose: Purpose) -> Stream {
        let mut s = Stream::empty(key, purpose.index());
        s.game = game;
        s
    }

    /// Words consumed so far; a total order on positions of one stream.
    #[inline]
    pub fn position(&self) -> u64 {
        self.base as u64 + self.pos as u64
    }

    /// Makes `self` equal to `other`, copying the words only when they
    /// differ (the shared camp stream is re-synced on every member's call).
    #[inline]
    pub fn sync_to(&mut self, other: &Stream) {
        if self.base == other.base && self.len == other.len && self.purpose == other.purpose && self.game == other.game
        {
            self.pos = other.pos;
        } else {
            self.assign(other);
        }
    }

    /// When this stream has run dry and `other`, a copy of it read further,
    /// loaded the block right after: takes that block, at its own position
    /// (the words it would load itself). A camp's shared stream at the
    /// start of a phase takes the block the first member's copy loaded, so
    /// the other members' copies do not load it again, each on its own.
    #[inline]
    pub fn adopt_next(&mut self, other: &Stream) {
        if self.pos >= self.len
            && other.len > 0
            && other.base == self.base + self.len as u32
            && other.purpose == self.purpose
            && other.game == self.game
        {
            self.buf = other.buf;
            self.base = other.base;
            self.len = other.len;
            self.pos = 0;
        }
    }

    /// `self = other.clone()` (the whole buffer: a fixed 64-byte copy is a
    /// few vector moves, a copy of the loaded words a call to `memcpy`).
    fn assign(&mut self, other: &Stream) {
        self.buf = other.buf;
        self.pos = other.pos;
        self.len = other.len;
        self.purpose = other.purpose;
        self.base = other.base;
        self.game = other.game;
        self.key = other.key;
    }

    /// The keystream block that holds this stream's next words once the
    /// loaded ones are used up; `None` while the opening is still unread.
    #[inline]
    fn next_block(&self) -> Option<u64> {
        if self.len == 0 && self.base == 0 {
            return None;
        }
        let k = (self.base as u64 + self.len as u64 - OPENING_WORDS as u64) / 16;
        Some(CONTINUATIONS + k * STRIDE + self.purpose as u64)
    }

    /// Loads the purpose's next words on its own: the opening, then
    /// continuation blocks.
    #[cold]
    #[inline(never)]
    fn refill(&mut self) {
        let mut r = Generator::from_seed(self.key);
        r.set_stream(self.game);
        match self.next_block() {
            None => {
                r.set_word_pos((self.purpose as usize * OPENING_WORDS) as u128);
                r.fill_bytes(&mut self.buf[..OPENING_WORDS * 4]);
                self.len = OPENING_WORDS as u8;
            }
            Some(block) => {
                r.set_word_pos(block as u128 * 16);
                r.fill_bytes(&mut self.buf);
                self.base += self.len as u32;
                self.len = 16;
            }
        }
        self.pos = 0;
    }

    #[inline]
    fn word(&mut self) -> u32 {
        if self.pos >= self.len {
            self.refill();
        }
        let i = (self.pos as usize & 15) * 4;
        self.pos += 1;
        u32::from_le_bytes([self.buf[i], self.buf[i + 1], self.buf[i + 2], self.buf[i + 3]])
    }
}

impl rand::TryRng for Stream {
    type Error = Infallible;
    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.word())
    }
    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let lo = self.word() as u64;
        let hi = self.word() as u64;
        Ok(lo | (hi << 32))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(4) {
            let w = self.word().to_le_bytes();
            chunk.copy_from_slice(&w[..chunk.len()]);
        }
        Ok(())
    }
}

/// Slots of the continuation cache (direct-mapped by four-block group).
const CACHE_SLOTS: usize = 8;

/// Four keystream blocks, cache-line aligned so a block copied out of it
/// is read one line at a time.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Group([u8; 256]);

/// All streams of one game, reused across games by one worker.
pub struct GameStreams {
    key: [u8; 32],
    /// The generator of this game's keystream (openings and cached groups).
    core: Generator,
    game: u64,
    bytes: Vec<u8>,
    streams: Vec<Stream>,
    /// Four-block groups of this game's continuation blocks, by slot:
    /// the group's first block + 1 (0: empty) and its bytes.
    tags: [u64; CACHE_SLOTS],
    groups: Box<[Group; CACHE_SLOTS]>,
}

impl GameStreams {
    /// The streams of master key `key`.
    pub fn new(key: [u8; 32]) -> GameStreams {
        let streams = (0..PURPOSES).map(|p| Stream::empty(key, p)).collect();
        GameStreams {
            key,
            core: Generator::from_seed(key),
            game: 0,
            bytes: vec![0; PURPOSES * OPENING_WORDS * 4],
            streams,
            tags: [0; CACHE_SLOTS],
            groups: Box::new([Group([0; 256]); CACHE_SLOTS]),
        }
    }

    /// The master key.
    pub fn key(&self) -> [u8; 32] {
        self.key
    }

    /// Positions every purpose of a game with `players` seats at its start:
    /// the openings of the eager purposes in one keystream read, the others
    /// marked unread (they load their opening when first used).
    pub fn start_game(&mut self, game: u64, players: usize) {
        let eager = EAGER_FIXED + players;
        // Word 0 of stream `game` (`set_stream` also moves to block 0 and
        // empties the buffer; nothing is generated before the read).
        self.core.set_stream(game);
        self.game = game;
        self.tags = [0; CACHE_SLOTS];
        let bytes = &mut self.bytes[..eager * OPENING_WORDS * 4];
        self.core.fill_bytes(bytes);
        for (stream, b) in self.streams[..eager].iter_mut().zip(bytes.chunks_exact(OPENING_WORDS * 4)) {
            stream.buf[..OPENING_WORDS * 4].copy_from_slice(b);
            stream.pos = 0;
            stream.len = OPENING_WORDS as u8;
            stream.base = 0;
            stream.game = game;
        }
        // Seats beyond `players` are never read; the lazy purposes start unread.
        for stream in self.streams[EAGER_FIXED + MAX_PLAYERS..].iter_mut() {
            stream.pos = 0;
            stream.len = 0;
            stream.base = 0;
            stream.game = game;
        }
    }

    /// The stream of purpose `p` for the current game.
    #[inline]
    pub fn get(&mut self, p: Purpose) -> &mut Stream {
        &mut self.streams[p.index()]
    }

    /// Purpose `p`'s stream, its next block loaded if it has run dry (from
    /// the cache of four-block groups, shared with the neighbouring
    /// purposes). Call it before a decision: the words are the ones the
    /// stream would load itself, only cheaper.
    #[inline]
    pub fn top_up(&mut self, p: Purpose) -> &mut Stream {
        let i = p.index();
        if self.streams[i].pos >= self.streams[i].len {
            self.load_next(i);
        }
        &mut self.streams[i]
    }

    /// Loads purpose `i`'s next continuation block from the cache of
    /// four-block groups (filling the group's slot first if it holds
    /// another group), or its opening if unread.
    #[cold]
    #[inline(never)]
    fn load_next(&mut self, i: usize) {
        let Some(block) = self.streams[i].next_block() else { return self.load_opening(i) };
        let group = block & !3;
        let slot = self.group_slot(group);
        let at = (block - group) as usize * 64;
        let s = &mut self.streams[i];
        s.buf.copy_from_slice(&self.groups[slot].0[at..at + 64]);
        s.base += s.len as u32;
        s.len = 16;
        s.pos = 0;
    }

    /// The opening of a purpose only some games read (the mixed camps'
    /// picks, the town's coin), from the cache as well: the openings of the
    /// four purposes after the seats share a block.
    #[cold]
    #[inline(never)]
    fn load_opening(&mut self, i: usize) {
        let word = (i * OPENING_WORDS) as u64;
        let group = (word / 16) & !3;
        let slot = self.group_slot(group);
        let at = (word - group * 16) as usize * 4;
        let s = &mut self.streams[i];
        s.buf[..OPENING_WORDS * 4].copy_from_slice(&self.groups[slot].0[at..at + OPENING_WORDS * 4]);
        s.len = OPENING_WORDS as u8;
        s.pos = 0;
    }

    /// The cache slot holding blocks `group..group + 4`, generated first if
    /// it holds another group (one wide refill of the generator).
    #[inline]
    fn group_slot(&mut self, group: u64) -> usize {
        let slot = (group / 4) as usize % CACHE_SLOTS;
        if self.tags[slot] != group + 1 {
            self.core.set_word_pos(group as u128 * 16);
            self.core.fill_bytes(&mut self.groups[slot].0);
            self.tags[slot] = group + 1;
        }
        slot
    }

    /// Sets `to` to purpose `p`'s stream as the game starts (a worker's own
    /// copy of the deal, host or activity stream).
    #[inline]
    pub fn start_of(&self, p: Purpose, to: &mut Stream) {
        to.sync_to(&self.streams[p.index()]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_purpose_stream_does_not_depend_on_other_purposes() {
        let key = master_key(7);
        let mut g = GameStreams::new(key);
        g.start_game(42, 10);
        // Draw a lot from the host, then read seat 3.
        for _ in 0..100 {
            g.get(Purpose::Host).next_u32();
        }
        let a: Vec<u32> = (0..40).map(|_| g.get(Purpose::Seat(Seat::new(3))).next_u32()).collect();
        // Fresh game, no host draws.
        g.start_game(42, 10);
        let b: Vec<u32> = (0..40).map(|_| g.get(Purpose::Seat(Seat::new(3))).next_u32()).collect();
        assert_eq!(a, b);
        // The stand-alone stream (lazy refills only) gives the same words.
        let mut s = Stream::new(key, 42, Purpose::Seat(Seat::new(3)));
        let c: Vec<u32> = (0..40).map(|_| s.next_u32()).collect();
        assert_eq!(a, c);
        // Different games and purposes differ.
        g.start_game(43, 10);
        let d: Vec<u32> = (0..40).map(|_| g.get(Purpose::Seat(Seat::new(3))).next_u32()).collect();
        assert_ne!(a, d);
        let mut e = Stream::new(key, 42, Purpose::Seat(Seat::new(4)));
        assert_ne!(a[0], e.next_u32());
    }

    #[test]
    fn the_generator_reads_rand_chachas_keystream() {
        // The streams' generator (chacha20) against rand_chacha's ChaCha8Rng,
        // the documented keystream: same key, stream and word position, same
        // words, read across blocks and refills, at positions far out too.
        let key = master_key(3);
        let mut ours = Generator::from_seed(key);
        let mut reference = ChaCha8Rng::from_seed(key);
        for (stream, word) in [(0u64, 0u128), (7, 5), (123_456, 16 * 20 + 3), (u64::MAX, 1 << 36), (99, 16 * 72 * 50)] {
            ours.set_stream(stream);
            ours.set_word_pos(word);
            reference.set_stream(stream);
            reference.set_word_pos(word);
            let a: Vec<u32> = (0..300).map(|_| ours.next_u32()).collect();
            let b: Vec<u32> = (0..300).map(|_| reference.next_u32()).collect();
            assert_eq!(a, b, "stream {stream}, word {word}");
            let (mut x, mut y) = ([0u8; 200], [0u8; 200]);
            ours.fill_bytes(&mut x);
            reference.fill_bytes(&mut y);
            assert_eq!(x, y, "stream {stream}, word {word}: bytes");
        }
    }

    #[test]
    fn positions_count_words() {
        let mut s = Stream::new(master_key(1), 0, Purpose::Host);
        assert_eq!(s.position(), 0);
        for _ in 0..20 {
            s.next_u32();
        }
        assert_eq!(s.position(), 20);
    }

    /// The documented layout, word by word, against the raw keystream:
    /// purpose `p` reads its opening (words `4p..4p+4`), then blocks
    /// `CONTINUATIONS + k·STRIDE + p`, loaded on its own or topped up
    /// from the game's cache.
    #[test]
    fn the_layout_is_the_documented_one() {
        let key = master_key(11);
        let game = 5u64;
        let raw = |word: u64| -> u32 {
            let mut r = ChaCha8Rng::from_seed(key);
            r.set_stream(game);
            r.set_word_pos(word as u128);
            r.next_u32()
        };
        for purpose in [
            Purpose::Deal,
            Purpose::Camp(Camp::Mafia),
            Purpose::Seat(Seat::new(9)),
            Purpose::Camp(Camp::Bandits),
            Purpose::Mix,
        ] {
            let p = purpose.index() as u64;
            let expected: Vec<u32> = (0..150u64)
                .map(|i| {
                    if i < 4 {
                        raw(4 * p + i)
                    } else {
                        let (k, w) = ((i - 4) / 16, (i - 4) % 16);
                        raw((CONTINUATIONS + k * STRIDE + p) * 16 + w)
                    }
                })
                .collect();
            // A worker's streams after another game (the generator is reused).
            let mut g = GameStreams::new(key);
            g.start_game(game + 1, 12);
            for _ in 0..30 {
                g.get(purpose).next_u32();
            }
            g.start_game(game, 10);
            let eager: Vec<u32> = (0..150).map(|_| g.get(purpose).next_u32()).collect();
            // Topped up before every third draw (cached and own refills mixed).
            g.start_game(game, 10);
            let topped: Vec<u32> =
                (0..150).map(|i| if i % 3 == 0 { g.top_up(purpose) } else { g.get(purpose) }.next_u32()).collect();
            assert_eq!(topped, expected, "{purpose:?} topped up");
            let mut s = Stream::new(key, game, purpose);
            let alone: Vec<u32> = (0..150).map(|_| s.next_u32()).collect();
            // A copy made at the start (a worker's deal stream) reads the same.
            let mut copy = Stream::new(key, 0, Purpose::Host);
            g.start_game(game, 10);
            g.start_of(purpose, &mut copy);
            let copied: Vec<u32> = (0..150).map(|_| copy.next_u32()).collect();
            assert_eq!(copied, expected, "{purpose:?} copied at the start");
            // A camp's phases: each copy reads a few words from the phase's
            // start, which takes the block a copy loaded; the words are the
            // stream's, whoever loaded them.
            g.start_game(game, 10);
            let mut start = Stream::new(key, 0, Purpose::Host);
            g.start_of(purpose, &mut start);
            let mut phased = Vec::new();
            while phased.len() < 150 {
                copy.sync_to(&start);
                let take = (phased.len() % 7 + 1).min(150 - phased.len());
                phased.extend((0..take).map(|_| copy.next_u32()));
                start.adopt_next(&copy);
                // The next member re-reads the phase from its start.
                let mut again = start.clone();
                let reread: Vec<u32> = (0..take).map(|_| again.next_u32()).collect();
                assert_eq!(reread[..], phased[phased.len() - take..], "{purpose:?} re-read");
                start.sync_to(&copy);
            }
            assert_eq!(phased, expected, "{purpose:?} by phases");
            assert_eq!(eager, expected, "{purpose:?} from the game's streams");
            assert_eq!(alone, expected, "{purpose:?} stand-alone");
        }
        // Openings and continuation blocks never overlap across purposes.
        assert!(PURPOSES as u64 * OPENING_WORDS as u64 <= CONTINUATIONS * 16);
        // The documented numbers (ARCHITECTURE.md): changing any of them
        // moves every seeded result, goldens and studies included.
        assert_eq!((OPENING_WORDS, STRIDE, CONTINUATIONS), (4, 72, 20));
    }
}
