//! Files that are either whole or absent: every table, report, checkpoint
//! and counts file is written to a temporary file beside its target,
//! flushed to disk (`fsync`), then renamed over the target, and the folder
//! is flushed too. A crash, a full disk or `kill -9` at any moment leaves
//! the old file or the new one, never half of one. Also the table file
//! formats (Parquet or CSV, by the file name) and where the tables that go
//! beside an `--out` file are written.

use polars::prelude::*;
use std::ffi::OsString;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file being written: bytes go to a fresh temporary file beside the
/// target (see [`create_tmp`]) until
/// [`Atomic::commit`] renames it over the target. Dropped without a
/// commit, the temporary file is removed.
pub struct Atomic {
    file: Option<File>,
    tmp: PathBuf,
    path: PathBuf,
}

impl Atomic {
    /// Creates the temporary file (and the target's folder if missing).
    pub fn create(path: &Path) -> Result<Atomic, String> {
        let (file, tmp) = create_tmp(path)?;
        Ok(Atomic { file: Some(file), tmp, path: path.to_path_buf() })
    }

    /// The file to write to.
    pub fn file(&mut self) -> &mut File {
        self.file.as_mut().expect("not committed")
    }

    /// Flushes the bytes to disk and renames the file over its target.
    pub fn commit(mut self) -> Result<(), String> {
        let fail = |e: std::io::Error| format!("cannot write {}: {e}", self.path.display());
        let file = self.file.take().expect("committed once");
        file.sync_all().map_err(fail)?;
        drop(file);
        std::fs::rename(&self.tmp, &self.path).map_err(fail)?;
        // The rename is durable once the folder is flushed (best effort:
        // some file systems refuse to open a folder for syncing).
        let dir = self.path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

impl Drop for Atomic {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Creates the temporary file that `path`'s bytes go to until they are
/// whole: `<name>.<pid>-<n>.tmp` beside `path`, unique to this process and
/// this file (`n` counts the files the process has begun), created
/// exclusively (`O_CREAT | O_EXCL`, which also refuses a symlink, even a
/// dangling one, so nothing is ever written through a link). Two
/// runs writing the same target therefore never share a temporary file
/// (issue 35: with one fixed `<name>.tmp` they swapped or mixed each
/// other's bytes), and a name planted as a link to another file is
/// refused instead of written through. A name that exists already (a
/// leftover of a dead process with the same pid) is skipped for the next.
pub fn create_tmp(path: &Path) -> Result<(File, PathBuf), String> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create the folder of {}: {e}", path.display()))?;
    }
    let name = path.file_name().unwrap_or_default().to_os_string();
    loop {
        let mut tmp_name = name.clone();
        tmp_name.push(format!(".{}-{}.tmp", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed)));
        let tmp = path.with_file_name(tmp_name);
        let opened = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp);
        match opened {
            Ok(file) => return Ok((file, tmp)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("cannot create {}: {e}", tmp.display())),
        }
    }
}

/// Writes `bytes` to `path` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut f = Atomic::create(path)?;
    f.file().write_all(bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    f.commit()
}

// ---------------------------------------------------------------------------
// Table files

/// A table file format, chosen by the file name's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutFormat {
    Parquet,
    Csv,
}

/// The format of `path` by its extension: `.parquet` or `.pq` for Parquet,
/// `.csv` for CSV (any case).
pub fn out_format(path: &Path) -> Result<OutFormat, String> {
    let ext = path.extension().and_then(|e| e.to_str()).map(|e| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("parquet" | "pq") => Ok(OutFormat::Parquet),
        Some("csv") => Ok(OutFormat::Csv),
        _ => Err(format!(
            "cannot tell the table format of {}: use a file name ending in .parquet, .pq or .csv",
            path.display()
        )),
    }
}

/// `dir/stem.part.ext` beside `path` (`dir/stem.ext`).
pub(super) fn sibling(path: &Path, part: &str) -> PathBuf {
    let mut name = OsString::from(path.file_stem().unwrap_or_default());
    name.push(".");
    name.push(part);
    if let Some(ext) = path.extension() {
        name.push(".");
        name.push(ext);
    }
    path.with_file_name(name)
}

pub(super) fn write_frame(df: &mut DataFrame, path: &Path, format: OutFormat) -> Result<(), String> {
    // Whole or absent: a temporary file, flushed and renamed (crate::output::files).
    let mut file = Atomic::create(path)?;
    let result = match format {
        // The CSV writer buffers by itself.
        OutFormat::Csv => CsvWriter::new(file.file()).include_header(true).finish(df),
        OutFormat::Parquet => {
            let mut w = BufWriter::new(file.file());
            ParquetWriter::new(&mut w).finish(df).and_then(|_| w.flush().map_err(PolarsError::from))
        }
    };
    result.map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    file.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_commit_replaces_the_file_and_a_drop_leaves_it() {
        let dir = std::env::temp_dir().join(format!("mafia-atomic-{}", std::process::id()));
        let path = dir.join("t.txt");
        write_atomic(&path, b"one").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        {
            let mut f = Atomic::create(&path).unwrap();
            f.file().write_all(b"half").unwrap();
            // Dropped without a commit: the old file stays, the temporary goes.
        }
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, vec![OsString::from("t.txt")]);
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
