//! The search: a race of settings of one camp's forum parameters on the
//! same games (coordinate search, see the module docs of
//! `best_response`), and the lineups the settings make.

use crate::error::Error;
use crate::exec::Job;
use crate::exec::paired::{Paired, play_paired};
use crate::stats::Diff;
use mafia_agents::{Lineup, Param, STRATEGIES, Signal, Strategy, StrategyInfo, parse_spec};
use mafia_engine::{Camp, Role};

/// A setting: parameters changed from the default lineup, in catalogue order.
pub(super) type Setting = Vec<(String, String)>;

pub(super) fn setting_text(s: &Setting) -> String {
    if s.is_empty() {
        return "(default)".to_string();
    }
    s.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
}

/// An adaptive reply's setting played in every game (`--adaptive-base
/// best`): the fixed search's best, or the camp's usual layers (its mix
/// dropped) when that best was the default.
pub(super) fn base_text(s: &Setting) -> String {
    if s.is_empty() { "(usual layers)".to_string() } else { setting_text(s) }
}

/// Where a parameter comes in the catalogue (for a stable order).
pub(super) fn param_rank(name: &str) -> usize {
    STRATEGIES.iter().flat_map(|s| s.params.iter()).position(|p| p.name == name).unwrap_or(usize::MAX)
}

/// `s` with `name` set to `value`.
pub(super) fn with(s: &Setting, name: &str, value: &str) -> Setting {
    let mut out: Setting = s.iter().filter(|(k, _)| k != name).cloned().collect();
    out.push((name.to_string(), value.to_string()));
    out.sort_by_key(|(k, _)| param_rank(k));
    out
}

/// One part of a lineup label: `None` for the default, else the key.
pub(super) struct Part {
    key: Option<String>,
    name: String,
    params: Vec<(String, String)>,
}

/// Splits a lineup's label (`forum,mafia=mafia:bus=0.25`) into its parts.
pub(super) fn label_parts(label: &str) -> Vec<Part> {
    let mut out = Vec::new();
    for (i, part) in label.split(',').enumerate() {
        let (key, spec) = if i == 0 {
            (None, part)
        } else {
            let (k, v) = part.split_once('=').expect("a keyed part of a label");
            (Some(k.to_string()), v)
        };
        let (name, params) = parse_spec(spec).expect("a label parses");
        out.push(Part { key, name, params });
    }
    out
}

/// Makes the lineups of settings for one camp from a base lineup.
pub(super) struct Builder {
    base: Lineup,
    camp: Camp,
    /// The camp's roles the setup deals.
    roles: Vec<Role>,
    parts: Vec<Part>,
    /// An adaptive race: every setting is the camp's reply from night 1 in
    /// the games whose day 1 shows this signal (`CAMP?SIGNAL=…`).
    signal: Option<Signal>,
}

impl Builder {
    /// The base with `s` applied to the camp: the camp's part gets the
    /// parameters (its strategy kept if it takes them all, else `forum`),
    /// and a role's part that sets one of them gets the new value too (a
    /// role's parameters override its camp's).
    fn build(&self, s: &Setting) -> Result<Lineup, String> {
        let mut l = self.base.clone();
        if s.is_empty() {
            return Ok(l);
        }
        if let Some(signal) = self.signal {
            // Over whatever the camp plays (its mix kept): the reply's
            // parameters, from night 1 in the games that show the signal.
            l.set_with(&format!("{}?{signal}", self.camp.name()), "forum", s).map_err(|e| e.to_string())?;
            return Ok(l);
        }
        // Every other setting plays one way in every game.
        l.clear_mix(self.camp);
        let merge = |params: &[(String, String)]| -> Vec<(String, String)> {
            let mut out: Vec<(String, String)> = params.to_vec();
            for (k, v) in s {
                match out.iter_mut().find(|(pk, _)| pk == k) {
                    Some(slot) => slot.1 = v.clone(),
                    None => out.push((k.clone(), v.clone())),
                }
            }
            out
        };
        let takes_all = |name: &str, params: &[(String, String)]| {
            StrategyInfo::find(name).is_some_and(|i| {
                let accepted = i.accepted();
                params.iter().all(|(k, _)| accepted.iter().any(|p| p.name == k))
            })
        };
        let camp_name = self.camp.name();
        let (name, params) = match self.parts.iter().find(|p| p.key.as_deref() == Some(camp_name)) {
            Some(p) => (p.name.clone(), merge(&p.params)),
            None => {
                // The unit that plays the whole camp and takes every parameter, else `forum`.
                let unit = STRATEGIES
                    .iter()
                    .find(|u| u.is_forum() && u.name != "forum" && u.plays.camp(self.camp) && takes_all(u.name, s));
                (unit.map_or("forum", |u| u.name).to_string(), merge(&[]))
            }
        };
        let name = if takes_all(&name, &params) { name } else { "forum".to_string() };
        l.set_with(camp_name, &name, &params).map_err(|e| e.to_string())?;
        for p in &self.parts {
            let Some(role) = p.key.as_deref().and_then(Role::from_name) else { continue };
            if role.camp() != self.camp || !p.params.iter().any(|(k, _)| s.iter().any(|(sk, _)| sk == k)) {
                continue;
            }
            let params: Vec<(String, String)> = p
                .params
                .iter()
                .map(|(k, v)| (k.clone(), s.iter().find(|(sk, _)| sk == k).map_or_else(|| v.clone(), |x| x.1.clone())))
                .collect();
            l.set_with(role.name(), &p.name, &params).map_err(|e| e.to_string())?;
        }
        Ok(l)
    }

    /// How the camp's dealt roles play under a lineup: their strategies
    /// and parameters, and the camp's mix (a mixed default differs from
    /// its usual layers alone).
    fn effective(&self, l: &Lineup) -> Effective {
        // What the adaptive replies make of each role's configuration in
        // each alternative of the mix, each signal showing or not: the
        // replies' parameters as they play (written-out defaults and
        // replies overridden by later ones change nothing).
        let mut adapted = Vec::new();
        for p in 0..=l.most_alternatives() {
            let mut signals: Vec<Signal> = l.adaptive_of(self.camp).iter().map(|(s, _)| *s).collect();
            signals.extend(l.alternative_replies(self.camp, p).iter().map(|(s, _)| *s));
            for &r in &self.roles {
                let base = l.variant(&l.pick_for(r, p), r).1;
                for &sig in &signals {
                    let a = l.adapted(self.camp, p, &base, |s| s == sig);
                    if a != base {
                        adapted.push((sig, a));
                    }
                }
            }
        }
        (self.roles.iter().map(|&r| (l.for_role(r), *l.config(r))).collect(), l.mix_of(self.camp), adapted)
    }
}

/// How a camp's roles play under a lineup (see [`Builder::effective`]).
pub(super) type Effective =
    (Vec<(Strategy, mafia_agents::Config)>, Vec<mafia_agents::MixPart>, Vec<(Signal, mafia_agents::Config)>);

/// One candidate of a race.
pub(super) struct Candidate {
    pub(super) setting: Setting,
    pub(super) lineup: Lineup,
    /// Still racing (the default, the reference, always is).
    pub(super) alive: bool,
    /// Why and when it left the race: (block, reason, diff to the best then).
    pub(super) left: Option<(u32, String, Diff)>,
}

/// What a round ended with.
pub(super) struct Round {
    pub(super) number: u32,
    pub(super) candidates: Vec<Candidate>,
    pub(super) counts: Paired,
    pub(super) best: usize,
    pub(super) blocks: u32,
    pub(super) games: u64,
    pub(super) stop: &'static str,
}

impl Round {
    /// Candidate `i` against the round's best: when it left the race, else at the end.
    pub(super) fn vs_best(&self, i: usize, camp: Camp) -> Diff {
        match &self.candidates[i].left {
            Some((_, _, d)) if i != self.best => *d,
            _ => self.counts.diff(i, self.best, camp),
        }
    }
}

/// Adds the counts of `local` (the live candidates `ids`) to `total` (all candidates).
pub(super) fn merge_into(total: &mut Paired, local: &Paired, ids: &[usize]) {
    total.forfeited += local.forfeited;
    let (k, kl) = (total.k, local.k);
    for (l, &g) in ids.iter().enumerate() {
        total.tallies[g].merge(&local.tallies[l]);
        for (l2, &g2) in ids.iter().enumerate() {
            let src = local.disc[l * kl + l2];
            let dst = &mut total.disc[g * k + g2];
            for c in 0..Camp::COUNT {
                dst[c] += src[c];
            }
        }
    }
}

/// How a race searches (the options of `best-response` that shape it).
#[derive(Clone, Copy, Debug)]
pub struct RaceOpts {
    pub block: u64,
    pub max_games: u64,
    pub rounds: u32,
    pub tolerance: f64,
    pub seed: u64,
    pub first_game: u64,
    pub quiet: bool,
}

/// Races camp `camp`'s forum parameters on `job` (coordinate search, see
/// the module docs); returns the rounds, the games spent and the next
/// unplayed game index.
pub(super) fn race(
    job: &Job,
    camp: Camp,
    signal: Option<Signal>,
    base: Option<&Lineup>,
    o: &RaceOpts,
    pool: &rayon::ThreadPool,
    pb: &indicatif::ProgressBar,
) -> Result<(Vec<Round>, u64, u64), Error> {
    let present = job.game.roles_present();
    let roles: Vec<Role> = present.iter().filter(|r| r.camp() == camp).collect();
    if roles.is_empty() {
        return Err(Error::Invalid(format!(
            "--camp {}: setup {} deals nobody of that camp",
            camp.name(),
            job.game.name()
        )));
    }
    let not_forum: Vec<String> = roles
        .iter()
        .filter(|&&r| job.lineup.for_role(r) != Strategy::Forum)
        .map(|&r| format!("{} plays {}", r.name(), job.lineup.strategy_name(job.lineup.for_role(r))))
        .collect();
    if !not_forum.is_empty() {
        return Err(Error::Invalid(format!(
            "--camp {}: best-response searches the parameters of the forum strategies, but with agents `{}` {}; \
             give the camp a forum strategy (e.g. --agents {},{}=forum)",
            camp.name(),
            job.lineup.label(),
            not_forum.join(", "),
            job.lineup.label(),
            camp.name()
        )));
    }
    // The parameters the camp's strategies read: those of the forum units
    // that play a dealt role of the camp, and every seat's reading of the
    // thread (`Param::reads_thread`: a mafioso's or bandit's model of what the town
    // believes, which decides whom they hunt and how they vote).
    let params: Vec<&Param> = {
        let mut ps: Vec<&Param> = STRATEGIES
            .iter()
            .filter(|s| s.is_forum() && !s.params.is_empty() && roles.iter().any(|&r| s.plays.role(r)))
            .flat_map(|s| s.params.iter())
            .collect();
        for p in STRATEGIES.iter().flat_map(|s| s.params.iter()).filter(|p| p.reads_thread) {
            if !ps.iter().any(|q| q.name == p.name) {
                ps.push(p);
            }
        }
        ps
    };
    // The lineup the settings lie over: the job's (its default), or a
    // given one (an adaptive race over the fixed search's best).
    let base = base.unwrap_or(&job.lineup);
    let builder =
        Builder { base: base.clone(), camp, roles: roles.clone(), parts: label_parts(&base.full_label()), signal };

    let mut spent = 0u64;
    let mut next = o.first_game;
    let mut rounds: Vec<Round> = Vec::new();
    let mut centre: Setting = Vec::new();
    for number in 1..=o.rounds {
        // The round's candidates: the default (the reference), the centre,
        // then one parameter changed at a time; each way of playing once.
        let mut candidates: Vec<Candidate> = Vec::new();
        let mut seen = Vec::new();
        let mut add = |s: Setting, cands: &mut Vec<Candidate>| -> Result<(), Error> {
            let l = builder
                .build(&s)
                .map_err(|e| Error::Invalid(format!("--camp {}: setting {}: {e}", camp.name(), setting_text(&s))))?;
            let eff = builder.effective(&l);
            if !seen.contains(&eff) {
                seen.push(eff);
                cands.push(Candidate { setting: s, lineup: l, alive: true, left: None });
            }
            Ok(())
        };
        add(Vec::new(), &mut candidates)?;
        add(centre.clone(), &mut candidates)?;
        if number == 1 {
            // A mixed camp: each of its alternatives, played in every game.
            for (_, name, params) in job.lineup.mix_of(camp) {
                if StrategyInfo::find(&name).is_some_and(|i| i.is_forum()) {
                    let mut s: Setting = params.clone();
                    s.sort_by_key(|(k, _)| param_rank(k));
                    add(s, &mut candidates)?;
                }
            }
        }
        let fixed = candidates.len();
        for p in &params {
            {
                for v in p.values.candidates() {
                    add(with(&centre, p.name, &v), &mut candidates)?;
                }
            }
        }
        if number > 1 && candidates.len() == fixed {
            break; // Nothing new to try around the centre.
        }
        let k = candidates.len();
        let mut counts = Paired::new(k, job.game.rules().day_cap);
        let mut best = 0usize;
        let mut blocks = 0u32;
        let mut games = 0u64;
        let stop;
        let when = signal.map_or(String::new(), |s| format!("if {s}: "));
        pb.set_message(format!("{when}round {number}: {k} candidates"));
        loop {
            let ids: Vec<usize> = (0..k).filter(|&i| candidates[i].alive).collect();
            let n = o.block.min((o.max_games - spent) / ids.len() as u64);
            let n = n.min(u64::MAX - next);
            if n == 0 {
                stop = "budget";
                break;
            }
            let lineups: Vec<Lineup> = ids.iter().map(|&i| candidates[i].lineup.clone()).collect();
            let local = play_paired(pool, &job.game, &lineups, o.seed, next, n, pb);
            merge_into(&mut counts, &local, &ids);
            next += n;
            games += n;
            spent += n * ids.len() as u64;
            blocks += 1;
            // The best so far: most wins, the earlier candidate on a tie.
            best = ids
                .iter()
                .copied()
                .max_by(|&x, &y| counts.wins(x, camp).cmp(&counts.wins(y, camp)).then(y.cmp(&x)))
                .unwrap_or(0);
            let mut contenders = 0;
            for &i in &ids {
                if i == best {
                    contenders += 1;
                    continue;
                }
                let d = counts.diff(i, best, camp);
                let within = |d: &Diff| d.lo > -o.tolerance && d.hi < o.tolerance;
                let reason = if d.worse() {
                    Some("worse".to_string())
                } else if within(&d) {
                    Some("equivalent to the best".to_string())
                } else if i == 0 {
                    None
                } else {
                    // Practically the same as an earlier live candidate: the race needs one of them.
                    (0..i)
                        .find(|&j| candidates[j].alive && within(&counts.diff(i, j, camp)))
                        .map(|j| format!("equivalent to {}", setting_text(&candidates[j].setting)))
                };
                if reason.is_none() {
                    contenders += 1;
                }
                if i == 0 {
                    // The default stays as the reference, out of contention when it is worse or equivalent.
                    candidates[0].left = reason.map(|r| (blocks, r, d));
                } else if let Some(r) = reason {
                    candidates[i].alive = false;
                    candidates[i].left = Some((blocks, r, d));
                }
            }
            if contenders == 1 {
                stop = "decided";
                break;
            }
        }
        if games == 0 && number > 1 {
            break; // The budget left cannot give every candidate a game.
        }
        if !o.quiet {
            let live = candidates.iter().filter(|c| c.alive).count();
            let when = signal.map_or(String::new(), |s| format!("if {s}: "));
            eprintln!(
                "{when}round {number}: {k} candidates, blocks of up to {} games: {blocks}, {live} left ({stop}); best: {}",
                o.block,
                setting_text(&candidates[best].setting)
            );
        }
        let best_setting = candidates[best].setting.clone();
        rounds.push(Round { number, candidates, counts, best, blocks, games, stop });
        if best_setting == centre || spent >= o.max_games {
            break;
        }
        centre = best_setting;
    }
    Ok((rounds, spent, next))
}

/// The lineup of `job` in which camp `camp` plays the best parameters a
/// race finds against everyone else's (`balance --best-response`), and the
/// setting as text.
pub fn best_lineup(job: &Job, camp: Camp, o: &RaceOpts, pool: &rayon::ThreadPool) -> Result<(Lineup, String), Error> {
    let pb = indicatif::ProgressBar::hidden();
    let (rounds, _, _) = race(job, camp, None, None, o, pool, &pb)?;
    let last =
        rounds.last().ok_or_else(|| Error::Invalid(format!("--br-games {}: not enough for a race", o.max_games)))?;
    let best = &last.candidates[last.best];
    Ok((best.lineup.clone(), setting_text(&best.setting)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mafia_engine::Preset;

    fn builder(agents: &str, camp: Camp) -> Builder {
        let mut base = Lineup::default();
        base.apply(agents).unwrap();
        let game = mafia_engine::Game::new(&Preset::find("classic").unwrap().setup()).unwrap();
        let roles = game.roles_present().iter().filter(|r| r.camp() == camp).collect();
        let parts = label_parts(&base.full_label());
        Builder { base, camp, roles, parts, signal: None }
    }

    #[test]
    fn a_setting_goes_to_the_camp_and_to_roles_that_set_it() {
        let b = builder("forum", Camp::Mafia);
        let l = b.build(&vec![("bus".into(), "0.25".into())]).unwrap();
        assert_eq!(l.label(), "forum,mafia=mafia:bus=0.25");
        let l = b.build(&vec![("whom".into(), "random".into())]).unwrap();
        assert_eq!(l.label(), "forum,mafia=forum:whom=random");
        // A role's own value is replaced too, and the camp keeps its others.
        let b = builder("forum,mafia=mafia:skip=0.5,commissar=reveal:on=at-once", Camp::Town);
        let l = b.build(&vec![("on".into(), "day2".into())]).unwrap();
        assert_eq!(l.label(), "forum,town=forum:on=day2,mafia=mafia:skip=0.5,commissar=reveal:on=day2");
        let b = builder("forum,mafia=mafia:skip=0.5", Camp::Mafia);
        let l = b.build(&vec![("bus".into(), "1".into())]).unwrap();
        assert_eq!(l.label(), "forum,mafia=mafia:skip=0.5:bus=1");
        assert_eq!(b.build(&Vec::new()).unwrap().label(), "forum,mafia=mafia:skip=0.5");
    }

    #[test]
    fn against_a_mix_the_default_is_the_mix_and_every_setting_is_pure() {
        let b = builder("forum,mafia@0.5=forum:fake=1,town@0.3=forum:pass_first=1", Camp::Mafia);
        let mix = b.build(&Vec::new()).unwrap();
        assert_eq!(mix.mix_of(Camp::Mafia).len(), 1);
        let pure = b.build(&vec![("kill".into(), "hunt".into())]).unwrap();
        assert_eq!(
            pure.label(),
            "forum,town@0.3=forum:pass_first=1,mafia=mafia:kill=hunt",
            "the other camp keeps its mix"
        );
        // The pure setting plays like the mix's usual layers, not like the mix.
        assert_ne!(b.effective(&mix), b.effective(&pure));
    }

    #[test]
    fn settings_that_play_the_same_are_one() {
        let b = builder("forum", Camp::Mafia);
        let d = b.effective(&b.build(&Vec::new()).unwrap());
        // The default value written out plays like the default.
        let same = b.effective(&b.build(&vec![("kill".into(), "hunt".into())]).unwrap());
        assert_eq!(d, same);
        let other = b.effective(&b.build(&vec![("kill".into(), "order".into())]).unwrap());
        assert_ne!(d, other);
    }

    #[test]
    fn settings_keep_catalogue_order() {
        let s = with(&with(&Vec::new(), "bus", "1"), "kill", "order");
        assert_eq!(setting_text(&s), "kill=order bus=1");
        assert_eq!(setting_text(&with(&s, "bus", "0")), "kill=order bus=0");
    }
}
