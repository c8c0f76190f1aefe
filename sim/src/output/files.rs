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
/// commit (or when the rename fails), the temporary file is removed.
pub struct Atomic {
    file: Option<File>,
    /// The temporary file, until it is renamed over the target.
    tmp: Option<PathBuf>,
    path: PathBuf,
}

impl Atomic {
    /// Creates the temporary file (and the target's folder if missing).
    pub fn create(path: &Path) -> Result<Atomic, String> {
        let (file, tmp) = create_tmp(path)?;
        Ok(Atomic { file: Some(file), tmp: Some(tmp), path: path.to_path_buf() })
    }

    /// The file to write to.
    pub fn file(&mut self) -> &mut File {
        self.file.as_mut().expect("not committed")
    }

    /// Flushes the bytes to disk (`fsync`) and closes the file: after this
    /// only the rename is left, which needs no space.
    fn flush(&mut self) -> Result<(), String> {
        if let Some(file) = self.file.take() {
            file.sync_all().map_err(|e| format!("cannot write {}: {e}", self.path.display()))?;
        }
        Ok(())
    }

    /// Renames the flushed file over its target.
    fn rename(&mut self) -> Result<(), String> {
        let tmp = self.tmp.as_ref().expect("renamed once");
        std::fs::rename(tmp, &self.path).map_err(|e| format!("cannot write {}: {e}", self.path.display()))?;
        forget_unfinished(tmp);
        self.tmp = None;
        sync_folder(&self.path);
        Ok(())
    }

    /// Flushes the bytes to disk and renames the file over its target.
    pub fn commit(mut self) -> Result<(), String> {
        self.flush()?;
        self.rename()
    }

    /// Commits the files as one set, all or nothing: every file is flushed
    /// to disk first (a full disk or any write error fails here, and then no
    /// target is touched: the temporary files are removed), then each is
    /// renamed over its target. Only the renames are left to fail after the
    /// first target is replaced, and a rename within a folder needs no space.
    pub fn commit_all(mut files: Vec<Atomic>) -> Result<(), String> {
        for f in &mut files {
            f.flush()?;
        }
        for f in &mut files {
            f.rename()?;
        }
        Ok(())
    }
}

/// Flushes a renamed file's folder, so the rename is durable (best effort:
/// some file systems refuse to open a folder for syncing).
fn sync_folder(path: &Path) {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

impl Drop for Atomic {
    fn drop(&mut self) {
        if let Some(tmp) = self.tmp.take() {
            self.file = None;
            let _ = std::fs::remove_file(&tmp);
            forget_unfinished(&tmp);
        }
    }
}

// ---------------------------------------------------------------------------
// Unfinished files

/// Every temporary file (and output lock) this process has open, so that
/// a run stopped by a signal removes them before it exits (see
/// [`remove_unfinished`]).
static UNFINISHED: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// Records a file to remove if the process is stopped.
pub(super) fn note_unfinished(path: &Path) {
    UNFINISHED.lock().unwrap_or_else(|p| p.into_inner()).push(path.to_path_buf());
}

/// The file is whole (renamed) or gone: nothing to remove any more.
pub(super) fn forget_unfinished(path: &Path) {
    let mut live = UNFINISHED.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(i) = live.iter().rposition(|p| p == path) {
        live.swap_remove(i);
    }
}

/// Removes every temporary file and output lock of this process, and
/// returns the temporary files removed: what a signal that stops the
/// process at once calls, so nothing half-written is left behind.
pub fn remove_unfinished() -> Vec<PathBuf> {
    let live = std::mem::take(&mut *UNFINISHED.lock().unwrap_or_else(|p| p.into_inner()));
    let mut removed = Vec::new();
    for p in live {
        if std::fs::remove_file(&p).is_ok() && p.extension().is_some_and(|e| e == "tmp") {
            removed.push(p);
        }
    }
    removed
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
            Ok(file) => {
                note_unfinished(&tmp);
                return Ok((file, tmp));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("cannot create {}: {e}", tmp.display())),
        }
    }
}

/// Writes each file's bytes, as one set: all or nothing (see
/// [`Atomic::commit_all`]).
pub fn write_set(files: &[(PathBuf, Vec<u8>)]) -> Result<(), String> {
    let mut done = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        let mut f = Atomic::create(path)?;
        f.file().write_all(bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        done.push(f);
    }
    Atomic::commit_all(done)
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
    frame_file(df, path, format)?.commit()
}

/// Writes the tables, each to its file, as one set: all or nothing (see
/// [`Atomic::commit_all`]). A disk that fills on the third file leaves
/// the previous run's set whole, never a new summary beside old tables.
pub(super) fn write_frame_set(frames: Vec<(&mut DataFrame, &Path)>, format: OutFormat) -> Result<(), String> {
    let mut files = Vec::with_capacity(frames.len());
    for (df, path) in frames {
        files.push(frame_file(df, path, format)?);
    }
    Atomic::commit_all(files)
}

/// A table written to its temporary file, not yet committed.
fn frame_file(df: &mut DataFrame, path: &Path, format: OutFormat) -> Result<Atomic, String> {
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
    Ok(file)
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

    fn names(dir: &Path) -> Vec<OsString> {
        let mut n: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        n.sort();
        n
    }

    /// Issue 35: a failed rename left its temporary file behind.
    #[test]
    fn a_failed_rename_removes_the_temporary_file() {
        let dir = std::env::temp_dir().join(format!("mafia-rename-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("t.csv")).unwrap();
        let e = write_atomic(&dir.join("t.csv"), b"rows").unwrap_err();
        assert!(e.contains("t.csv"), "{e}");
        assert_eq!(names(&dir), vec![OsString::from("t.csv")]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Issue 35: a set of tables was written file by file, so a failure on
    /// the third left a new first file beside the previous run's others.
    #[test]
    fn a_set_is_written_all_or_nothing() {
        let dir = std::env::temp_dir().join(format!("mafia-set-{}", std::process::id()));
        let (a, b) = (dir.join("t.csv"), dir.join("t.roles.csv"));
        write_set(&[(a.clone(), b"old a".to_vec()), (b.clone(), b"old b".to_vec())]).unwrap();
        // The third file's folder cannot be made (a file is in the way).
        std::fs::write(dir.join("blocked"), "").unwrap();
        let c = dir.join("blocked").join("t.days.csv");
        let set = [(a.clone(), b"new a".to_vec()), (b.clone(), b"new b".to_vec()), (c, b"new c".to_vec())];
        let e = write_set(&set).unwrap_err();
        assert!(e.contains("t.days.csv"), "{e}");
        assert_eq!(std::fs::read(&a).unwrap(), b"old a");
        assert_eq!(std::fs::read(&b).unwrap(), b"old b");
        assert_eq!(names(&dir), ["blocked", "t.csv", "t.roles.csv"].map(OsString::from));
        assert!(UNFINISHED.lock().unwrap().iter().all(|p| !p.starts_with(&dir)), "nothing left to remove");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
