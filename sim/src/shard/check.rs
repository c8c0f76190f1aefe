//! Every counts file checks itself when it is read (`--resume`, `mafia
//! merge`), twice:
//!
//! - **Its checksum** (`checksum`, the last member): the SHA-256 of the
//!   file's bytes without that member, which are the compact JSON of every
//!   other field exactly as `mafia` wrote it. A file edited or damaged in
//!   any byte fails it. Hashing the bytes, not a re-encoding of what was
//!   read, keeps the check independent of how JSON numbers parse and print.
//! - **Its consistency**, which holds even of a file whose checksum was
//!   recomputed after an edit: the range is the shard's, the games done fit
//!   it, every point's tally counts the games it played ([`Tally::problems`],
//!   and `played = tally games + forfeits`), a point still playing played
//!   every game done and a retired one (a stopping rule's) no more, the
//!   pairs count no more than their points played, and the external agents'
//!   faults are no more than the decisions asked of them and no fewer than
//!   the decisions their fallbacks answered in the games counted.
//!
//! Why both: in issue 35 a checkpoint whose `done` had been edited was
//! resumed and its games counted twice (a 1.5 M-game run reported 2.1 M),
//! and a shard with edited tallies merged into a table with more games
//! than the run had.

use super::{CountsFile, Plan, State};
use crate::output::thousands as n;
use crate::stats::Tally;
use mafia_engine::{Camp, Role};
use sha2::{Digest, Sha256};

/// The checksum's member, as the file ends: `,"checksum":"sha256:…"}`.
const MEMBER: &str = ",\"checksum\":\"";
/// The checksum's algorithm, named in the value.
const ALGORITHM: &str = "sha256:";

/// `sha256:` and the hex SHA-256 of `body`.
fn digest(body: &str) -> String {
    let mut hex = String::from(ALGORITHM);
    for b in Sha256::digest(body.as_bytes()) {
        hex.push_str(&format!("{b:02x}"));
    }
    hex
}

/// The counts file as written: the compact JSON of every field but the
/// checksum, then the checksum of those bytes as the last member.
pub fn encode(file: &CountsFile) -> Result<String, String> {
    let text = if file.checksum.is_empty() {
        serde_json::to_string(file)
    } else {
        serde_json::to_string(&CountsFile { checksum: String::new(), ..file.clone() })
    };
    let body = text.map_err(|e| format!("cannot encode the counts: {e}"))?;
    let sum = digest(&body);
    let open = body.strip_suffix('}').expect("a JSON object ends with }");
    Ok(format!("{open}{MEMBER}{sum}\"}}"))
}

/// Whether `text` (a counts file's bytes) carries the checksum of its
/// other bytes; the reason if not.
pub fn verify(text: &str) -> Result<(), String> {
    let text = text.trim_end();
    let Some(at) = text.rfind(MEMBER) else {
        return Err("it has no checksum".into());
    };
    let Some(sum) = text[at + MEMBER.len()..].strip_suffix("\"}") else {
        return Err("its checksum is not its last member".into());
    };
    if digest(&format!("{}}}", &text[..at])) != sum {
        return Err("its checksum does not match its contents (edited or damaged)".into());
    }
    Ok(())
}

impl CountsFile {
    /// Every way the file contradicts itself (empty: none). Derived from
    /// how the executor counts (`crate::exec::execute_from`) and how
    /// [`super::Store`] and [`super::merge_files`] write: see the module
    /// documentation.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        // The range: the run's, cut into the shard's part.
        if self.shard.n == 0 || self.shard.k >= self.shard.n || self.shard.n > super::MAX_SHARDS {
            out.push(format!("its shard {} is not K/N with 0 ≤ K < N", self.shard));
            return out;
        }
        let Some(last) = self.first.checked_add(self.games) else {
            out.push(format!("its games {}.. + {} run past the last game index", self.first, self.games));
            return out;
        };
        let (start, end) = self.shard.range(self.first, self.games);
        if (self.start, self.end) != (start, end) {
            out.push(format!(
                "it says games {}..{}, but shard {} of the run's games {}..{last} is {start}..{end}",
                self.start, self.end, self.shard, self.first
            ));
            return out;
        }
        let len = end - start;
        if self.done > len {
            out.push(format!("it says {} games done of the {} of its range", n(self.done), n(len)));
        }
        if self.state == State::Complete && self.done != len {
            out.push(format!("it is complete but says {} of {} games done", n(self.done), n(len)));
        }
        // The shape: one entry per point, one per pair.
        let c = &self.counts;
        let points = match &self.plan {
            Plan::Run(p) => p.variants.len(),
            Plan::Experiment(p) => p.layout.points.len(),
            Plan::Compare(_) => 2,
        };
        let lens =
            [self.setups.len(), c.tallies.len(), c.played.len(), c.forfeits.len(), c.replaced.len(), c.active.len()];
        if lens.iter().any(|&l| l != points) {
            out.push(format!("its counts are not of its plan's {points} points"));
            return out;
        }
        let pairs = c.pairs.len();
        if [c.pair_games.len(), c.a_only.len(), c.b_only.len()].iter().any(|&l| l != pairs)
            || c.pairs.iter().any(|&(a, b)| a >= points || b >= points || a == b)
        {
            out.push("its pairs of points do not fit its points".into());
            return out;
        }
        // Each point: its tally counts the games it played (but the
        // forfeited), a point still playing played every game done, a
        // retired one no more.
        for (p, t) in c.tallies.iter().enumerate() {
            let name = format!("point {}", p + 1);
            let setup = &self.setups[p];
            let mut dealt = [0u64; Role::COUNT];
            let mut known = true;
            for rc in &setup.roles {
                match Role::from_name(&rc.role) {
                    Some(r) => dealt[r as usize] = rc.count,
                    None => known = false,
                }
            }
            if !known {
                out.push(format!("{name}'s setup deals a role this mafia does not know"));
                continue;
            }
            if t.games.checked_add(c.forfeits[p]) != Some(c.played[p]) {
                out.push(format!(
                    "counts {} games for {name} and {} forfeited, but says it played {}",
                    n(t.games),
                    n(c.forfeits[p]),
                    n(c.played[p])
                ));
            }
            if c.active[p] && c.played[p] != self.done {
                out.push(format!("counts {} games for {name} but says {} done", n(c.played[p]), n(self.done)));
            } else if c.played[p] > self.done {
                out.push(format!(
                    "counts {} games for {name} (stopped early) but says {} done",
                    n(c.played[p]),
                    n(self.done)
                ));
            }
            for why in t.problems(setup.rules.day_cap, &dealt) {
                out.push(format!("{name}'s tally {why}"));
            }
        }
        // Each pair: counted only on games both points played and neither
        // forfeited; each such game adds at most one camp's win to each side.
        for (q, &(a, b)) in c.pairs.iter().enumerate() {
            let both = c.pair_games[q];
            let (ta, tb): (&Tally, &Tally) = (&c.tallies[a], &c.tallies[b]);
            let one_side = |only: &[u64; Camp::COUNT], t: &Tally| {
                only.iter().try_fold(0u64, |s, &x| s.checked_add(x)).is_none_or(|s| s > both)
                    || only.iter().zip(&t.wins).any(|(x, w)| x > w)
            };
            if both > ta.games.min(tb.games) || one_side(&c.a_only[q], ta) || one_side(&c.b_only[q], tb) {
                out.push(format!("its pair of points {} and {} counts more games than they played", a + 1, b + 1));
            }
        }
        // The external agents: a decision faults once at most, and a seat
        // forfeits a game only after a fault.
        if self.faults.is_empty() && c.forfeits.iter().any(|&f| f > 0) {
            out.push("it counts forfeited games but no external agent".into());
        }
        // A decision of a counted game a fallback answered was a fault (a
        // seat that forfeited replaces the rest, but its game is not counted).
        let replaced = c.replaced.iter().try_fold(0u64, |a, &x| a.checked_add(x));
        let faults = self.faults.iter().try_fold(0u64, |a, f| a.checked_add(f.total()));
        if replaced.is_none() || replaced > faults {
            out.push(format!(
                "it counts {} decisions answered by fallbacks but {} faults",
                replaced.map_or("too many".into(), n),
                faults.map_or("too many".into(), n)
            ));
        }
        for a in &self.faults {
            if a.total() > a.requests {
                out.push(format!(
                    "it counts {} faults of {} in {} decisions asked",
                    n(a.total()),
                    a.agent,
                    n(a.requests)
                ));
            }
            let seat_ok = a.seats.iter().all(|s| {
                let faults = [s.timeout, s.malformed, s.mismatch, s.illegal, s.crash, s.down];
                let faults = faults.iter().try_fold(0u64, |a, &x| a.checked_add(x));
                (1..=mafia_engine::MAX_PLAYERS as u32).contains(&s.seat) && faults.is_some_and(|f| s.forfeits <= f)
            });
            if !seat_ok || !a.seats.windows(2).all(|w| w[0].seat < w[1].seat) {
                out.push(format!("its faults of {} by seat do not add up", a.agent));
            }
        }
        out
    }
}

/// A counts file's consistency problems as one sentence (the first few).
pub fn describe(problems: &[String]) -> String {
    const SHOWN: usize = 4;
    let mut s = problems.iter().take(SHOWN).cloned().collect::<Vec<_>>().join("; ");
    if problems.len() > SHOWN {
        s.push_str(&format!("; and {} more", problems.len() - SHOWN));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_separated() {
        assert_eq!(n(0), "0");
        assert_eq!(n(999), "999");
        assert_eq!(n(1000), "1,000");
        assert_eq!(n(1_500_000), "1,500,000");
    }

    /// A file of two points compared on no games yet: consistent.
    fn empty() -> CountsFile {
        use crate::exec::Counts;
        use crate::output::Variant;
        let variant = Variant { setup: "none".into(), rules: String::new(), agents: "random".into(), players: 0 };
        let point = super::super::PointInfo { values: vec![], variant, camps: vec![] };
        let rules = mafia_engine::Rules::default();
        let setup = super::super::SetupRecord { setup: "none".into(), roles: vec![], rules, agents: "random".into() };
        CountsFile {
            format: super::super::FORMAT.into(),
            code: String::new(),
            command_line: vec![],
            fingerprint: String::new(),
            setups: vec![setup.clone(), setup],
            seed: 1,
            first: 0,
            games: 10,
            shard: super::super::Shard::WHOLE,
            start: 0,
            end: 10,
            done: 0,
            state: State::Running,
            plan: Plan::Run(super::super::RunPlan { variants: vec![point.clone(), point], precision: None, games: 10 }),
            counts: Counts {
                tallies: vec![Tally::new(rules.day_cap); 2],
                played: vec![0; 2],
                forfeits: vec![0; 2],
                replaced: vec![0; 2],
                pairs: vec![(0, 1)],
                pair_games: vec![0],
                a_only: vec![[0; Camp::COUNT]],
                b_only: vec![[0; Camp::COUNT]],
                active: vec![true; 2],
            },
            faults: vec![],
            checksum: String::new(),
        }
    }

    #[test]
    fn every_contradiction_is_named() {
        assert_eq!(empty().problems(), Vec::<String>::new());
        let broken = |edit: &dyn Fn(&mut CountsFile), needle: &str| {
            let mut f = empty();
            edit(&mut f);
            let p = f.problems();
            assert!(p.iter().any(|p| p.contains(needle)), "{needle}: {p:?}");
        };
        broken(&|f| f.end = 9, "it says games 0..9, but shard 0/1 of the run's games 0..10 is 0..10");
        broken(&|f| f.done = 11, "11 games done of the 10");
        broken(&|f| f.state = State::Complete, "complete but says 0 of 10");
        broken(&|f| f.counts.played[1] = 1, "but says it played 1");
        broken(&|f| f.done = 4, "counts 0 games for point 1 but says 4 done");
        broken(
            &|f| {
                f.done = 4;
                f.counts.active[1] = false;
                f.counts.active[0] = false;
                f.counts.played[1] = 5;
            },
            "(stopped early) but says 4 done",
        );
        broken(&|f| f.counts.forfeits.push(0), "not of its plan's 2 points");
        broken(&|f| f.counts.pairs[0] = (0, 2), "pairs of points do not fit");
        broken(&|f| f.counts.pair_games[0] = 1, "pair of points 1 and 2 counts more games");
        broken(&|f| f.counts.a_only[0][1] = 1, "pair of points 1 and 2 counts more games");
        broken(&|f| f.counts.forfeits[0] = 1, "forfeited games but no external agent");
        broken(&|f| f.counts.replaced[0] = 1, "1 decisions answered by fallbacks but 0 faults");
        let faults = |requests: u64, illegal: u64, forfeits: u64| {
            let mut a = crate::output::AgentFaults {
                agent: "ext:x".into(),
                requests,
                restarts: 0,
                seats: vec![Default::default()],
            };
            (a.seats[0].seat, a.seats[0].illegal, a.seats[0].forfeits) = (2, illegal, forfeits);
            vec![a]
        };
        broken(&|f| f.faults = faults(1, 2, 0), "2 faults of ext:x in 1 decisions");
        broken(&|f| f.faults = faults(5, 1, 2), "faults of ext:x by seat do not add up");
        let mut ok = empty();
        ok.faults = faults(5, 1, 1);
        ok.counts.replaced[0] = 1;
        assert_eq!(ok.problems(), Vec::<String>::new());
    }

    #[test]
    fn a_checksum_covers_every_byte_but_its_own() {
        let body = "{\"format\":\"x\",\"done\":5}";
        let open = body.strip_suffix('}').unwrap();
        let text = format!("{open}{MEMBER}{}\"}}", digest(body));
        assert_eq!(verify(&text), Ok(()));
        assert_eq!(verify(&format!("{text}\n")), Ok(()), "a trailing newline is not content");
        assert!(verify(&text.replace("5", "6")).unwrap_err().contains("does not match"));
        assert!(verify(body).unwrap_err().contains("no checksum"));
        assert!(verify(&text.replace("\"}", "\",\"x\":1}")).is_err());
    }
}
