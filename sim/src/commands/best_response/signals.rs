//! The signals of the adaptive races (`--signals`): what the first day
//! shows (PASS votes, claims, vote changes, a lynch) at a few thresholds.

use crate::error::Error;
use mafia_agents::{Signal, SignalKind};

/// The signals of `--signals` for a setup of `players` seats: `auto`'s
/// family, none, or the list given.
pub(super) fn signals(text: &str, players: usize) -> Result<Vec<Signal>, Error> {
    let n = players as u8;
    let family = || {
        let mut v: Vec<Signal> = Vec::new();
        let mut add = |kind, threshold| {
            let s = Signal { kind, threshold, above: true };
            if !v.contains(&s) {
                v.push(s);
            }
        };
        for k in [0, n / 4, n / 2] {
            add(SignalKind::Passes, k);
        }
        add(SignalKind::Claims, 0);
        add(SignalKind::Claims, 1);
        add(SignalKind::Changes, 0);
        add(SignalKind::Changes, n / 8);
        add(SignalKind::Lynched, 0);
        v
    };
    match text.trim() {
        "auto" => Ok(family()),
        "none" => Ok(Vec::new()),
        list => list
            .split(',')
            .map(|t| {
                Signal::parse(t).ok_or_else(|| {
                    Error::Invalid(format!(
                        "--signals {text}: `{}` is no signal (NAME>K or NAME<K, NAME one of {}; or `auto`, `none`)",
                        t.trim(),
                        SignalKind::ALL.map(|k| k.name()).join(", ")
                    ))
                })
            })
            .collect(),
    }
}
