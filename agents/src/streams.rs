//! Per-game random streams by purpose (common random numbers).
//!
//! Every draw of a game comes from one ChaCha8 keystream: the key is expanded
//! from the master seed, the ChaCha stream id is the game index. The
//! keystream is cut into 64-byte blocks and each *purpose* (the deal, the
//! host, the activity model, a camp's shared plan, each seat's decisions)
//! owns every [`STRIDE`]-th block: purpose `p` reads blocks `p`, `p + STRIDE`,
//! `p + 2·STRIDE`, … So a purpose's draws depend only on (master seed, game
//! index, purpose) and on how many draws *that purpose* made before — a rule
//! that makes the host draw more, or a seat whose strategy changed, shifts
//! nobody else's numbers.
//!
//! Speed: the first block of every purpose a game uses is generated in one
//! run of `fill_bytes` calls on one generator (wide SIMD inside `rand_chacha`); a purpose
//! that outgrows its 16 words refills its next block on demand.

use mafia_engine::{Camp, MAX_PLAYERS, Seat};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::convert::Infallible;

/// Purposes whose first block every game generates up front, before the
/// seats: the deal and the mafia's shared stream. (With `n` seats a game
/// reads `2 + n` blocks at start: 12 for the classic ten.)
pub const EAGER_FIXED: usize = 2;
/// Blocks between two consecutive blocks of one purpose: the eager fixed
/// purposes, every possible seat, then purposes read only on demand.
pub const STRIDE: u64 = (EAGER_FIXED + MAX_PLAYERS + 6) as u64;

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
}

impl Purpose {
    /// The purpose's index: its first block in the game's keystream.
    pub const fn index(self) -> usize {
        // Purposes every game uses come first, so one contiguous read at the
        // start of a game covers them; the rest sit after the seats.
        const LAZY: usize = EAGER_FIXED + MAX_PLAYERS;
        match self {
            Purpose::Deal => 0,
            Purpose::Camp(Camp::Mafia) => 1,
            Purpose::Seat(s) => EAGER_FIXED + s as usize,
            Purpose::Host => LAZY,
            Purpose::Activity => LAZY + 1,
            Purpose::Camp(Camp::Bandits) => LAZY + 2,
            // The town has no private channel and so no shared stream; the index is spare.
            Purpose::Camp(Camp::Town) => LAZY + 3,
        }
    }
}

/// The 32-byte ChaCha key for a master seed (rand_core's documented
/// `seed_from_u64` expansion, stable across versions).
pub fn master_key(seed: u64) -> [u8; 32] {
    ChaCha8Rng::seed_from_u64(seed).get_seed()
}

/// One purpose's stream within one game. Implements [`rand::Rng`].
#[derive(Clone, Debug)]
pub struct Stream {
    /// The current block as the keystream's bytes; words are read little-endian.
    buf: [u8; 64],
    /// Next word of `buf` to hand out (16 = exhausted).
    pos: u8,
    purpose: u8,
    /// How many of this purpose's blocks have been loaded so far.
    blocks: u32,
    game: u64,
    key: [u8; 32],
}

impl Stream {
    fn empty(key: [u8; 32], purpose: usize) -> Stream {
        Stream { buf: [0; 64], pos: 16, purpose: purpose as u8, blocks: 0, game: 0, key }
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
        (self.blocks as u64) * 16 - (16 - self.pos as u64)
    }

    /// Makes `self` equal to `other`, copying the block only when it differs
    /// (the shared camp stream is re-synced on every member's call).
    #[inline]
    pub fn sync_to(&mut self, other: &Stream) {
        if self.blocks == other.blocks && self.purpose == other.purpose && self.game == other.game {
            self.pos = other.pos;
        } else {
            self.clone_from(other);
        }
    }

    #[cold]
    fn refill(&mut self) {
        let block = self.blocks as u64 * STRIDE + self.purpose as u64;
        let mut r = ChaCha8Rng::from_seed(self.key);
        r.set_stream(self.game);
        r.set_word_pos(block as u128 * 16);
        r.fill_bytes(&mut self.buf);
        self.blocks += 1;
        self.pos = 0;
    }

    #[inline]
    fn word(&mut self) -> u32 {
        if self.pos >= 16 {
            self.refill();
        }
        let i = self.pos as usize * 4;
        self.pos += 1;
        let mut w = [0u8; 4];
        w.copy_from_slice(&self.buf[i..i + 4]);
        u32::from_le_bytes(w)
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

/// All streams of one game, reused across games by one worker.
pub struct GameStreams {
    key: [u8; 32],
    bytes: Vec<u8>,
    streams: Vec<Stream>,
}

impl GameStreams {
    pub fn new(key: [u8; 32]) -> GameStreams {
        let streams = (0..STRIDE as usize).map(|p| Stream::empty(key, p)).collect();
        GameStreams { key, bytes: vec![0; STRIDE as usize * 64], streams }
    }

    pub fn key(&self) -> [u8; 32] {
        self.key
    }

    /// Positions every purpose of a game with `players` seats at its start:
    /// the first blocks of the eager purposes in one keystream read, the
    /// others marked unread (they load their first block when first used).
    pub fn start_game(&mut self, game: u64, players: usize) {
        let eager = EAGER_FIXED + players;
        // A fresh generator at word 0 of stream `game`: `set_stream` on a
        // generator with buffered words would regenerate them for nothing.
        let mut core = ChaCha8Rng::from_seed(self.key);
        core.set_stream(game);
        let bytes = &mut self.bytes[..eager * 64];
        core.fill_bytes(bytes);
        for (p, stream) in self.streams[..eager].iter_mut().enumerate() {
            stream.buf.copy_from_slice(&bytes[p * 64..(p + 1) * 64]);
            stream.pos = 0;
            stream.blocks = 1;
            stream.game = game;
        }
        // Seats beyond `players` are never read; the lazy purposes start unread.
        for stream in self.streams[EAGER_FIXED + MAX_PLAYERS..].iter_mut() {
            stream.pos = 16;
            stream.blocks = 0;
            stream.game = game;
        }
    }

    #[inline]
    pub fn get(&mut self, p: Purpose) -> &mut Stream {
        &mut self.streams[p.index()]
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
        let a: Vec<u32> = (0..40).map(|_| g.get(Purpose::Seat(3)).next_u32()).collect();
        // Fresh game, no host draws.
        g.start_game(42, 10);
        let b: Vec<u32> = (0..40).map(|_| g.get(Purpose::Seat(3)).next_u32()).collect();
        assert_eq!(a, b);
        // The stand-alone stream (lazy refills only) gives the same words.
        let mut s = Stream::new(key, 42, Purpose::Seat(3));
        let c: Vec<u32> = (0..40).map(|_| s.next_u32()).collect();
        assert_eq!(a, c);
        // Different games and purposes differ.
        g.start_game(43, 10);
        let d: Vec<u32> = (0..40).map(|_| g.get(Purpose::Seat(3)).next_u32()).collect();
        assert_ne!(a, d);
        let mut e = Stream::new(key, 42, Purpose::Seat(4));
        assert_ne!(a[0], e.next_u32());
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
}
