//! What the commands write: the result tables (printed and as Parquet or
//! CSV files), per-game rows, the external agents' faults, whole-or-absent
//! files, and SVG plots. Imports nothing of `sim` but `stats` and `error`.

mod capture;
mod claim;
mod columns;
mod faults;
mod files;
mod games;
pub mod plot;
mod printed;
mod tables;
#[cfg(test)]
mod test_util;

pub use capture::{Captured, capture, capturing, keep, note, stdout};
pub use claim::{Claim, Output, claim};
pub use columns::{Cols, diff_cols, rate_cols};
pub use faults::{AgentFaults, FaultLimits, add_faults, check_faults, faults_of, report_faults};
pub use files::{out_format, remove_unfinished, write_atomic, write_set};
pub use games::{GameRow, GamesWriter};
pub use printed::{Printed, print_and_write, write_frames, write_out};
pub use tables::{
    TABLE_PARTS, Tables, Variant, add_ext_columns, build_tables, play_frame, print_tables, summary_frame, write_tables,
};

/// A count with its thousands separated by commas (`1,000,000`), for
/// messages and report text.
pub fn thousands(x: u64) -> String {
    let s = x.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
