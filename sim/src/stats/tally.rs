//! Streaming aggregation: a [`Tally`] is a handful of integer counters per
//! variant, so memory stays flat in the number of games, and merging two
//! tallies is addition, so the totals do not depend on how games were split
//! among threads.

use mafia_engine::{Camp, EndCause, Outcome, Role, RoleSeats};

/// Counters for one variant (a setup with its rules and agents).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Tally {
    /// Games counted.
    pub games: u64,
    /// Wins by camp, indexed by `Camp as usize`.
    pub wins: [u64; Camp::COUNT],
    /// Games that ended in a draw (C3's day cap, E2's nobody left).
    pub draws: u64,
    /// Ends by cause, indexed by `EndCause as usize`.
    pub causes: [u64; EndCause::COUNT],
    /// `days[d]`: games that ended on day (or night) `d`; index 0 unused.
    pub days: Vec<u64>,
    /// Per role (`Role as usize`): players dealt it.
    pub role_dealt: [u64; Role::COUNT],
    /// Per role: players alive at the end.
    pub role_survived: [u64; Role::COUNT],
    /// Per role: players whose camp won.
    pub role_won: [u64; Role::COUNT],
    /// Decisions the engine refused as illegal (should be 0 for built-in agents).
    pub illegal: u64,
    /// How the games were played, summed over games ([`mafia_engine::Stats`]):
    /// players lynched, by camp (`Camp as usize`).
    pub lynched: [u64; Camp::COUNT],
    /// Players killed at night, by camp.
    pub killed: [u64; Camp::COUNT],
    /// Kills stopped by protection, and guests healed.
    pub saves: u64,
    /// Claims of a town information role by its holder.
    pub reveals: u64,
    /// Claims of a role the speaker does not hold.
    pub false_claims: u64,
    /// Nights the town's information roles lived through.
    pub info_nights: u64,
}

impl Tally {
    /// Empty counters for games of at most `day_cap` days.
    pub fn new(day_cap: u16) -> Tally {
        Tally {
            games: 0,
            wins: [0; Camp::COUNT],
            draws: 0,
            causes: [0; EndCause::COUNT],
            days: vec![0; day_cap as usize + 1],
            role_dealt: [0; Role::COUNT],
            role_survived: [0; Role::COUNT],
            role_won: [0; Role::COUNT],
            illegal: 0,
            lynched: [0; Camp::COUNT],
            killed: [0; Camp::COUNT],
            saves: 0,
            reveals: 0,
            false_claims: 0,
            info_nights: 0,
        }
    }

    /// Adds one game: its outcome and the deal by role.
    #[inline]
    pub fn add(&mut self, o: &Outcome, deal: &RoleSeats) {
        self.games += 1;
        match o.winner {
            Some(c) => self.wins[c as usize] += 1,
            None => self.draws += 1,
        }
        self.causes[o.cause as usize] += 1;
        let d = (o.days as usize).min(self.days.len() - 1);
        self.days[d] += 1;
        // Per role dealt, not per seat (a setup has few roles and many
        // seats), and branch-free: who survives and who wins is random.
        let winner = o.winner.map_or(u8::MAX, |c| c as u8);
        let mut dealt = deal.dealt.0;
        while dealt != 0 {
            let r = dealt.trailing_zeros() as usize;
            dealt &= dealt - 1;
            let seats = deal.seats[r];
            let n = seats.len() as u64;
            self.role_dealt[r] += n;
            self.role_survived[r] += seats.inter(o.survivors).len() as u64;
            self.role_won[r] += n * (winner == Role::ALL[r].camp() as u8) as u64;
        }
        self.illegal += o.illegal_decisions as u64;
        // The behaviour counters: plain additions, no branches.
        let st = &o.stats;
        for c in 0..Camp::COUNT {
            self.lynched[c] += st.lynched[c] as u64;
            self.killed[c] += st.killed[c] as u64;
        }
        self.saves += st.saves as u64;
        self.reveals += st.reveals as u64;
        self.false_claims += st.false_claims as u64;
        self.info_nights += st.info_nights as u64;
    }

    /// Adds another tally's counts (a shard's, a thread's).
    pub fn merge(&mut self, o: &Tally) {
        self.games += o.games;
        self.draws += o.draws;
        self.illegal += o.illegal;
        for i in 0..Camp::COUNT {
            self.wins[i] += o.wins[i];
            self.lynched[i] += o.lynched[i];
            self.killed[i] += o.killed[i];
        }
        self.saves += o.saves;
        self.reveals += o.reveals;
        self.false_claims += o.false_claims;
        self.info_nights += o.info_nights;
        for i in 0..EndCause::COUNT {
            self.causes[i] += o.causes[i];
        }
        if self.days.len() < o.days.len() {
            self.days.resize(o.days.len(), 0);
        }
        for (a, b) in self.days.iter_mut().zip(&o.days) {
            *a += b;
        }
        for i in 0..Role::COUNT {
            self.role_dealt[i] += o.role_dealt[i];
            self.role_survived[i] += o.role_survived[i];
            self.role_won[i] += o.role_won[i];
        }
    }

    /// What must hold of a tally whatever games it counted, given how many
    /// players of each role one game deals (`dealt`, by `Role as usize`):
    /// every game has one end (a camp's win or a draw), one cause and one
    /// last day (`days` has `day_cap + 1` entries); every game deals the
    /// setup's roles, so a role was dealt `dealt × games` times and won with
    /// its camp's wins; nobody survives or is eliminated twice. Each
    /// sentence names what is broken (empty: nothing). A tally edited by
    /// hand rarely keeps all of these (see `crate::shard`'s checks).
    pub fn problems(&self, day_cap: u16, dealt: &[u64; Role::COUNT]) -> Vec<String> {
        let mut out = Vec::new();
        let g = self.games;
        let ends = self.wins.iter().try_fold(self.draws, |a, &w| a.checked_add(w));
        if ends != Some(g) {
            let ends = ends.map_or("more than 2^64".to_string(), |e| e.to_string());
            out.push(format!("counts {g} games but {ends} wins and draws"));
        }
        let causes = self.causes.iter().try_fold(0u64, |a, &c| a.checked_add(c));
        if causes != Some(g) {
            out.push(format!(
                "counts {g} games but {} ends by cause",
                causes.map_or("too many".into(), |c| c.to_string())
            ));
        }
        if self.days.len() != day_cap as usize + 1 {
            out.push(format!("has {} game lengths for a day cap of {day_cap}", self.days.len().saturating_sub(1)));
        }
        let days = self.days.iter().try_fold(0u64, |a, &c| a.checked_add(c));
        if days != Some(g) {
            out.push(format!(
                "counts {g} games but {} game lengths",
                days.map_or("too many".into(), |d| d.to_string())
            ));
        }
        let players: u64 = dealt.iter().sum();
        for r in Role::ALL {
            let i = r as usize;
            let want = dealt[i].checked_mul(g);
            if want != Some(self.role_dealt[i]) {
                out.push(format!("counts {} {} dealt in {g} games of {} each", self.role_dealt[i], r.name(), dealt[i]));
            }
            if self.role_survived[i] > self.role_dealt[i] {
                out.push(format!("counts more {} surviving than dealt", r.name()));
            }
            if dealt[i].checked_mul(self.wins[r.camp() as usize]) != Some(self.role_won[i]) {
                out.push(format!(
                    "counts {} {} on the winning side, but its camp won {} games with {} each",
                    self.role_won[i],
                    r.name(),
                    self.wins[r.camp() as usize],
                    dealt[i]
                ));
            }
        }
        let left = [self.role_survived.iter().sum::<u64>(), self.lynches(), self.night_kills()]
            .iter()
            .try_fold(0u64, |a, &c| a.checked_add(c));
        if players.checked_mul(g).is_none_or(|seats| left.is_none_or(|l| l > seats)) {
            out.push(format!("counts more survivors, lynched and killed than the {players} players of {g} games"));
        }
        out
    }

    /// Players lynched, all camps.
    pub fn lynches(&self) -> u64 {
        self.lynched.iter().sum()
    }

    /// Players killed at night, all camps.
    pub fn night_kills(&self) -> u64 {
        self.killed.iter().sum()
    }

    /// The mean game length in days (0 without games).
    pub fn mean_days(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        let sum: u64 = self.days.iter().enumerate().map(|(d, &c)| d as u64 * c).sum();
        sum as f64 / self.games as f64
    }

    /// The smallest day `d` with at least `q` of the games ended by day `d`.
    pub fn days_quantile(&self, q: f64) -> u16 {
        let need = (q * self.games as f64).ceil() as u64;
        let mut acc = 0;
        for (d, &c) in self.days.iter().enumerate() {
            acc += c;
            if acc >= need.max(1) {
                return d as u16;
            }
        }
        (self.days.len() - 1) as u16
    }
}

/// The 95% interval of a rate, `k` successes in `n` trials: the Wilson
/// score interval (z = 1.959964; E. B. Wilson, "Probable inference, the law
/// of succession, and statistical inference", JASA 22 (1927) 209–212),
/// except at 0% and 100%. Returns (low, high); (0, 1) when `n` is 0.
///
/// **0% and 100% are one-sided.** No success in `n` says the rate is at
/// most something, never at least: the interval is `[0, u]` with `u` the
/// exact (Clopper–Pearson) one-sided 95% upper bound `1 − 0.05^(1/n)`
/// (about `3/n`, the "rule of three"), and `n` of `n` gives `[1 − u, 1]`.
/// The two-sided Wilson interval there would be a 97.5% statement with a
/// lower end that says nothing.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n_f = n as f64;
    // 1 − 0.05^(1/n), accurate for large n.
    let one_sided = -(0.05f64.ln() / n_f).exp_m1();
    if k == 0 {
        return (0.0, one_sided);
    }
    if k == n {
        return (1.0 - one_sided, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let p = k as f64 / n_f;
    let z2 = z * z;
    let denom = 1.0 + z2 / n_f;
    let centre = (p + z2 / (2.0 * n_f)) / denom;
    let half = z * ((p * (1.0 - p) / n_f + z2 / (4.0 * n_f * n_f)).sqrt()) / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mafia_engine::Seat;

    #[test]
    fn wilson_matches_a_known_interval() {
        // 50 of 100: the Wilson 95% interval is (0.4038, 0.5962) to 4 places.
        let (lo, hi) = wilson(50, 100);
        assert!((lo - 0.4038).abs() < 1e-4, "{lo}");
        assert!((hi - 0.5962).abs() < 1e-4, "{hi}");
    }

    /// Issue 35: at 0% (and 100%) the interval is one-sided: the exact
    /// (Clopper–Pearson) 95% bound `1 − 0.05^(1/n)`, which the "rule of
    /// three" approximates by 3/n (Hanley and Lippman-Hand, JAMA 249 (1983)
    /// 1743–1745). 0 of 10: 0.2589; 0 of 1,000: 0.002991.
    #[test]
    fn no_successes_give_a_one_sided_exact_bound() {
        assert_eq!(wilson(0, 10).0, 0.0);
        assert!((wilson(0, 10).1 - 0.2589).abs() < 1e-4, "{:?}", wilson(0, 10));
        assert!((wilson(0, 1000).1 - 0.002991).abs() < 1e-6, "{:?}", wilson(0, 1000));
        assert!((wilson(1000, 1000).0 - (1.0 - 0.002991)).abs() < 1e-6, "{:?}", wilson(1000, 1000));
        assert_eq!(wilson(1000, 1000).1, 1.0);
        // Still below the bound one success gives.
        assert!(wilson(0, 1000).1 < wilson(1, 1000).1);
        // Its coverage: a true rate p has P(0 of n) = (1 − p)^n, and the
        // bound misses p exactly when p > bound, i.e. when (1 − p)^n < 0.05.
        let n = 1000;
        let bound = wilson(0, n).1;
        assert!((1.0 - bound).powi(n as i32) >= 0.05 - 1e-9);
    }

    #[test]
    fn e2_a_bandit_win_counts_for_the_bandit_roles() {
        use mafia_engine::PlayerSet;
        let deal = [Role::Psycho, Role::Boss, Role::Doctor, Role::Thug];
        let mut t = Tally::new(50);
        let won = Outcome {
            winner: Some(Camp::Bandits),
            cause: EndCause::OnlyBandits,
            days: 7,
            survivors: PlayerSet::single(Seat::new(3)),
            illegal_decisions: 0,
            stats: mafia_engine::Stats::default(),
        };
        t.add(&won, &RoleSeats::of(&deal));
        let draw = Outcome { winner: None, cause: EndCause::Nobody, survivors: PlayerSet::EMPTY, ..won };
        t.add(&draw, &RoleSeats::of(&deal));
        assert_eq!(t.wins, [0, 0, 1]);
        assert_eq!(t.draws, 1);
        assert_eq!(t.causes[EndCause::OnlyBandits as usize], 1);
        assert_eq!(t.causes[EndCause::Nobody as usize], 1);
        assert_eq!(t.role_won[Role::Psycho as usize], 1);
        assert_eq!(t.role_won[Role::Thug as usize], 1);
        assert_eq!(t.role_won[Role::Boss as usize], 0);
        assert_eq!(t.role_survived[Role::Thug as usize], 1);
        assert_eq!(t.role_survived[Role::Psycho as usize], 0);
        assert_eq!(t.role_dealt[Role::Doctor as usize], 2);
    }

    /// A town win on day 3 with seat 2 surviving, counting `stats`.
    fn town_win(stats: mafia_engine::Stats) -> Outcome {
        Outcome {
            winner: Some(Camp::Town),
            cause: EndCause::MafiaEliminated,
            days: 3,
            survivors: mafia_engine::PlayerSet::single(Seat::new(1)),
            illegal_decisions: 0,
            stats,
        }
    }

    #[test]
    fn behaviour_counters_add_up_and_merge() {
        use mafia_engine::Stats;
        let deal = [Role::Don, Role::Commissar, Role::Citizen, Role::Citizen];
        let stats =
            Stats { lynched: [2, 1, 0], killed: [1, 0, 0], saves: 1, reveals: 1, false_claims: 2, info_nights: 3 };
        let o = town_win(stats);
        let mut a = Tally::new(10);
        a.add(&o, &RoleSeats::of(&deal));
        a.add(&o, &RoleSeats::of(&deal));
        let mut b = Tally::new(10);
        b.add(&o, &RoleSeats::of(&deal));
        b.merge(&a);
        assert_eq!(b.lynched, [6, 3, 0]);
        assert_eq!(b.killed, [3, 0, 0]);
        assert_eq!((b.lynches(), b.night_kills()), (9, 3));
        assert_eq!((b.saves, b.reveals, b.false_claims, b.info_nights), (3, 3, 6, 9));
    }

    /// `Tally::problems` (what a counts file's check reads): none in a tally
    /// of played games, and each edit breaks one of them.
    #[test]
    fn a_tally_of_played_games_has_no_problems_and_an_edited_one_has() {
        use mafia_engine::Stats;
        let deal = [Role::Don, Role::Commissar, Role::Citizen, Role::Citizen];
        let mut dealt = [0u64; Role::COUNT];
        for r in deal {
            dealt[r as usize] += 1;
        }
        let stats = Stats { lynched: [1, 1, 0], killed: [1, 0, 0], ..Stats::default() };
        let o = town_win(stats);
        let mut t = Tally::new(10);
        for _ in 0..3 {
            t.add(&o, &RoleSeats::of(&deal));
        }
        assert_eq!(t.problems(10, &dealt), Vec::<String>::new());
        let broken = |edit: &dyn Fn(&mut Tally), day_cap: u16, needle: &str| {
            let mut e = t.clone();
            edit(&mut e);
            let p = e.problems(day_cap, &dealt);
            assert!(p.iter().any(|p| p.contains(needle)), "{needle}: {p:?}");
        };
        broken(&|e| e.games += 1, 10, "wins and draws");
        broken(&|e| e.causes[0] += 1, 10, "ends by cause");
        broken(&|e| e.days[4] += 1, 10, "game lengths");
        broken(&|_| {}, 12, "day cap of 12");
        broken(&|e| e.role_dealt[Role::Citizen as usize] += 1, 10, "citizen dealt");
        broken(&|e| e.role_survived[Role::Don as usize] = 4, 10, "more don surviving");
        broken(&|e| (e.wins[0], e.wins[1]) = (2, 1), 10, "on the winning side");
        broken(&|e| e.killed[2] = 9, 10, "more survivors, lynched and killed");
    }

    #[test]
    fn quantiles_and_mean() {
        let mut t = Tally::new(10);
        t.games = 4;
        t.days[2] = 1;
        t.days[3] = 2;
        t.days[5] = 1;
        assert_eq!(t.days_quantile(0.5), 3);
        assert_eq!(t.days_quantile(1.0), 5);
        assert!((t.mean_days() - 3.25).abs() < 1e-12);
    }
}
