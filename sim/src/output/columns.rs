//! Building a table a column at a time, and the columns several commands
//! share: win rates with their Wilson bounds and paired differences.

use polars::prelude::*;

use crate::stats::{Diff, wilson};

/// Columns collected one at a time, then made into a frame.
#[derive(Default)]
pub struct Cols(pub Vec<Column>);

impl Cols {
    pub fn push<T, P: ?Sized>(&mut self, name: &str, values: T)
    where
        Series: NamedFrom<T, P>,
    {
        self.0.push(Column::new(name.into(), values));
    }
    pub fn str(&mut self, name: &str, v: Vec<String>) {
        self.push(name, v);
    }
    pub fn u64(&mut self, name: &str, v: Vec<u64>) {
        self.push(name, v);
    }
    pub fn f64(&mut self, name: &str, v: Vec<f64>) {
        self.push(name, v);
    }
    pub fn frame(self) -> PolarsResult<DataFrame> {
        DataFrame::new_infer_height(self.0)
    }
}

/// `{p}_rate`, `{p}_lo`, `{p}_hi` (Wilson 95%) from `(wins, games)`; with an
/// empty prefix `rate`, `lo`, `hi`.
pub fn rate_cols(c: &mut Cols, prefix: &str, kn: impl Iterator<Item = (u64, u64)>) {
    let kn: Vec<(u64, u64)> = kn.collect();
    let name = |s: &str| if prefix.is_empty() { s.to_string() } else { format!("{prefix}_{s}") };
    c.f64(&name("rate"), kn.iter().map(|&(k, n)| if n == 0 { 0.0 } else { k as f64 / n as f64 }).collect());
    c.f64(&name("lo"), kn.iter().map(|&(k, n)| wilson(k, n).0).collect());
    c.f64(&name("hi"), kn.iter().map(|&(k, n)| wilson(k, n).1).collect());
}

/// `diff`, `diff_lo`, `diff_hi`, `a_only`, `b_only`.
pub fn diff_cols(c: &mut Cols, diffs: impl Iterator<Item = Diff>) {
    let d: Vec<Diff> = diffs.collect();
    c.f64("diff", d.iter().map(|d| d.mean).collect());
    c.f64("diff_lo", d.iter().map(|d| d.lo).collect());
    c.f64("diff_hi", d.iter().map(|d| d.hi).collect());
    c.u64("a_only", d.iter().map(|d| d.a_only).collect());
    c.u64("b_only", d.iter().map(|d| d.b_only).collect());
}
