//! The tables of the commands other than `run`: each a title for the print
//! and the part of the file name it is written to beside `--out`.

use polars::prelude::*;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::files::{out_format, sibling, write_frame_set};
use super::tables::{configure_display, display_frame, pe};
use crate::error::Error;

/// A table of the comparison commands (`duel`, `league`, `best-response`):
/// a title for the print and the part of the file name it is written to
/// (`""`: the `--out` file itself; else `<stem>.<part>.<ext>` beside it).
pub struct Printed {
    pub title: String,
    pub frame: DataFrame,
    pub part: &'static str,
}

impl Printed {
    pub fn new(title: &str, frame: DataFrame, part: &'static str) -> Printed {
        Printed { title: title.to_string(), frame, part }
    }

    /// The title, then every row and column (floats to 4 places).
    pub fn print(&self, out: &mut impl Write) -> io::Result<()> {
        configure_display();
        let cols: Vec<String> = self.frame.get_column_names().iter().map(|c| c.to_string()).collect();
        writeln!(out, "{}", self.title)?;
        writeln!(out, "{}", display_frame(&self.frame, &cols).map_err(pe)?)?;
        writeln!(out)
    }
}

/// The files [`write_frames`] writes for `path`.
pub fn printed_paths(tables: &[Printed], path: &Path) -> Vec<PathBuf> {
    tables.iter().map(|t| if t.part.is_empty() { path.to_path_buf() } else { sibling(path, t.part) }).collect()
}

/// Writes each table to its file (see [`Printed`]), in the format named by
/// `path`'s extension. Returns the paths written.
pub fn write_frames(tables: &mut [Printed], path: &Path) -> Result<Vec<PathBuf>, String> {
    let format = out_format(path)?;
    let paths = printed_paths(tables, path);
    // All or nothing (issue 35): never one new table beside old ones.
    write_frame_set(tables.iter_mut().map(|t| &mut t.frame).zip(paths.iter().map(PathBuf::as_path)).collect(), format)?;
    Ok(paths)
}

/// Prints the tables, then writes them (the first to `--out`, the others
/// beside it as `<stem>.<part>.<ext>`).
pub fn print_and_write(tables: &mut [Printed], out: &Option<PathBuf>) -> Result<(), Error> {
    let mut stdout = std::io::stdout().lock();
    for t in tables.iter() {
        t.print(&mut stdout)?;
    }
    stdout.flush()?;
    if let Some(p) = out {
        for w in write_frames(tables, p).map_err(Error::Io)? {
            eprintln!("wrote {}", w.display());
        }
    }
    Ok(())
}

/// Writes the tables (`--out`, the others beside it).
pub fn write_out(tables: &mut [Printed], out: &Option<PathBuf>) -> Result<(), Error> {
    if let Some(p) = out {
        for w in write_frames(tables, p).map_err(Error::Io)? {
            eprintln!("wrote {}", w.display());
        }
    }
    Ok(())
}
