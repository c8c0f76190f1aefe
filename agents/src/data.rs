//! The owned path of the agent boundary: an agent that reads a
//! [`View`] — plain, serialisable data with the decision's legal options —
//! and answers with an [`Answer`]. This is what an agent in another process
//! or language sees; [`DataPlayer`] plugs one in beside the built-in
//! strategies (register it with [`crate::Lineup::register_data`]).
//!
//! The view is built by the engine ([`View::new`]) from the same observation
//! the built-in strategies read, so both paths know and may do exactly the
//! same.

use crate::agent::{Agent, Cx};
use crate::streams::Stream;
use mafia_engine::{
    Answer, Answered, Ask, Ending, NightChoice, Observation, PlayerSet, Publication, Request, Role, RoleSet, Seat,
    View, Vote, pick,
};
use rand::Rng as _;

/// A strategy that reads the owned view.
pub trait DataAgent: Send {
    /// A new game begins; `view.request` is [`Request::Start`] (no answer).
    fn start(&mut self, _view: &View) {}
    /// Answers `view.request`. `rng` is the seat's own stream.
    fn decide(&mut self, view: &View, rng: &mut Stream) -> Answer;
    /// [`DataAgent::decide`] with the view given away (it is built for
    /// this decision alone): an agent that keeps or sends the view
    /// overrides this to save a copy. Default: `decide(&view, rng)`.
    fn decide_owned(&mut self, view: View, rng: &mut Stream) -> Answer {
        self.decide(&view, rng)
    }
    /// The game's index in its run, told before [`DataAgent::start`]
    /// (plugged into a run that keeps a log; see [`crate::Io`]).
    fn game(&mut self, _index: u64) {}
    /// The game is over: what the seat learns at the end.
    fn end(&mut self, _ending: &Ending) {}
    /// Whether the agent reads more than the request: `false` lets the
    /// driver skip the record and the talk (a lighter view).
    fn wants_view(&self) -> bool {
        true
    }
    /// See [`Agent::quiet`]: never posts, revises, defends or speaks last.
    fn quiet(&self) -> bool {
        false
    }
    /// See [`Agent::forfeited`].
    fn forfeited(&self) -> bool {
        false
    }
    /// See [`Agent::illegal_answers`].
    fn illegal_answers(&self) -> u32 {
        0
    }
    /// See [`Agent::replaced_answers`].
    fn replaced_answers(&self) -> u32 {
        0
    }
}

/// A [`DataAgent`] as an [`Agent`]: builds the view for every decision and
/// hands the answer to the engine. An answer to another decision than the
/// one asked is passed on as a choice the engine refuses (and counts as
/// illegal) where the decision has one — a vote or runoff vote for oneself —
/// and as no decision otherwise.
pub struct DataPlayer<A> {
    /// The agent that reads the view.
    pub agent: A,
}

impl<A: DataAgent> DataPlayer<A> {
    fn ask(&mut self, obs: &Observation<'_>, ask: Ask, cx: &mut Cx<'_>) -> Option<Answered> {
        let view = match &cx.io {
            Some(io) if self.agent.wants_view() => View::new(obs, io.record, io.talk, ask),
            _ => View::new(obs, &[], &[], ask),
        };
        self.agent.decide_owned(view, cx.rng).to(ask)
    }
    /// A publication; its free-text line joins the game's talk.
    fn say(&mut self, obs: &Observation<'_>, ask: Ask, cx: &mut Cx<'_>) -> Publication {
        match self.ask(obs, ask, cx) {
            Some(Answered::Publication(mut p, text)) => {
                p.text = None;
                if let (Some(line), Some(io)) = (text, cx.io.as_mut()) {
                    p.text = Some(io.talk.len() as u32);
                    io.talk.push(line);
                }
                p
            }
            _ => Publication::NONE,
        }
    }
}

impl<A: DataAgent> Agent for DataPlayer<A> {
    fn new_game(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) {
        if let Some(io) = &cx.io {
            self.agent.game(io.game);
        }
        let view = match &cx.io {
            Some(io) if self.agent.wants_view() => View::new(obs, io.record, io.talk, Ask::Start),
            _ => View::new(obs, &[], &[], Ask::Start),
        };
        self.agent.start(&view);
    }
    fn quiet(&self) -> bool {
        self.agent.quiet()
    }
    fn end(&mut self, _obs: &Observation<'_>, ending: &Ending, _cx: &mut Cx<'_>) {
        self.agent.end(ending);
    }
    fn forfeited(&self) -> bool {
        self.agent.forfeited()
    }
    fn illegal_answers(&self) -> u32 {
        self.agent.illegal_answers()
    }
    fn replaced_answers(&self) -> u32 {
        self.agent.replaced_answers()
    }
    fn post(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> Publication {
        self.say(obs, Ask::Post, cx)
    }
    fn vote(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> Vote {
        match self.ask(obs, Ask::Vote, cx) {
            Some(Answered::Vote(v)) => v,
            _ => Vote::For(obs.seat()),
        }
    }
    fn revise(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> Option<Vote> {
        match self.ask(obs, Ask::Revise, cx) {
            Some(Answered::Revise(v)) => v,
            _ => None,
        }
    }
    fn defence(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> Publication {
        self.say(obs, Ask::Defence, cx)
    }
    fn runoff(&mut self, obs: &Observation<'_>, candidates: PlayerSet, cx: &mut Cx<'_>) -> Seat {
        match self.ask(obs, Ask::Runoff(candidates), cx) {
            Some(Answered::Seat(s)) => s,
            _ => obs.seat(),
        }
    }
    fn hang_both(&mut self, obs: &Observation<'_>, pair: PlayerSet, cx: &mut Cx<'_>) -> bool {
        matches!(self.ask(obs, Ask::HangBoth(pair), cx), Some(Answered::Hang(true)))
    }
    fn night(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> NightChoice {
        match self.ask(obs, Ask::Night, cx) {
            Some(Answered::Night(c)) => c,
            _ => NightChoice::default(),
        }
    }
    fn proxy(&mut self, obs: &Observation<'_>, member: Seat, cx: &mut Cx<'_>) -> NightChoice {
        match self.ask(obs, Ask::Proxy(member), cx) {
            Some(Answered::Night(c)) => c,
            _ => NightChoice::default(),
        }
    }
    fn appoint(&mut self, obs: &Observation<'_>, vacant: RoleSet, cx: &mut Cx<'_>) -> Option<Role> {
        match self.ask(obs, Ask::Appoint(vacant), cx) {
            Some(Answered::Appoint(r)) => r,
            _ => None,
        }
    }
    fn secret_vote(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> Option<Seat> {
        match self.ask(obs, Ask::SecretVote, cx) {
            Some(Answered::SecretVote(t)) => t,
            _ => None,
        }
    }
    fn last_word(&mut self, obs: &Observation<'_>, cx: &mut Cx<'_>) -> Publication {
        self.say(obs, Ask::LastWord, cx)
    }
}

/// Picks uniformly among the legal options of every request, reading
/// nothing but the request: the reference data agent, and the template of
/// an agent in another language. Says nothing, keeps its vote, gives its
/// secret votes with its open vote, appoints the first vacancy.
#[derive(Clone, Copy, Debug, Default)]
pub struct LegalRandom;

impl DataAgent for LegalRandom {
    fn decide(&mut self, view: &View, rng: &mut Stream) -> Answer {
        legal_random(&view.request, rng)
    }
}

/// A uniformly random legal answer to `request`.
pub fn legal_random(request: &Request, rng: &mut Stream) -> Answer {
    match request {
        Request::Start => Answer::Ready,
        Request::Post { .. } => Answer::Post { say: Publication::NONE, text: None },
        Request::Defence { .. } => Answer::Defence { say: Publication::NONE, text: None },
        Request::LastWord { .. } => Answer::LastWord { say: Publication::NONE, text: None },
        Request::Vote { options } => Answer::Vote { vote: pick(rng, *options).map_or(Vote::Pass, Vote::For) },
        Request::Revise { .. } => Answer::Revise { vote: None },
        Request::Runoff { options } => Answer::Runoff { choice: pick(rng, *options).expect("a runoff has candidates") },
        Request::HangBoth { .. } => Answer::HangBoth { hang: rng.next_u32() & 1 == 1 },
        Request::Night { options } => {
            let mut c = NightChoice { kill: options.kill.and_then(|k| pick(rng, k)), ..NightChoice::default() };
            let k = options.borrow.len() as u32;
            let m = if k > 0 {
                let b = &options.borrow[mafia_engine::below(rng, k) as usize];
                c.borrow = Some(b.role);
                Some(&b.act)
            } else {
                options.act.as_ref()
            };
            if let Some(m) = m {
                (c.act, c.second) = random_targets(m, rng);
            }
            c.search = options.search.and_then(|s| pick(rng, s));
            Answer::Night { moves: c }
        }
        Request::Proxy { act, .. } => {
            let mut c = NightChoice::default();
            (c.act, c.second) = random_targets(act, rng);
            Answer::Proxy { moves: c }
        }
        Request::Appoint { vacant } => Answer::Appoint { role: vacant.iter().next() },
        Request::SecretVote { .. } => Answer::SecretVote { target: None },
    }
}

fn random_targets(m: &mafia_engine::MoveOptions, rng: &mut Stream) -> (Option<Seat>, Option<Seat>) {
    let first = pick(rng, m.targets);
    let second = match first {
        Some(f) if !m.second.is_empty() => m.second.iter().find(|o| o.first == f).and_then(|o| pick(rng, o.options)),
        _ => None,
    };
    (first, second)
}
