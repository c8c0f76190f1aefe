//! Claiming a command's outputs before its first game (issue 35): every
//! file the command will write is named once, with the flag that asks for
//! it, and the claim
//!
//! - refuses two outputs that would land on one file (`--counts X --out X`,
//!   a `--games-out` that is a table written beside `--out`): one would
//!   silently replace the other;
//! - takes an exclusive lock per output (`.<name>.lock` beside it, an
//!   advisory `flock` the kernel drops when the process ends, even by
//!   `kill -9`; on Unix — elsewhere no lock is taken), so a second run writing the same target is refused with
//!   the process that holds it, instead of the two swapping or mixing
//!   their files;
//! - under the lock, removes the temporary files a killed run left beside
//!   the target (`<name>.<pid>-<n>.tmp` of a process that is gone), and
//!   says so;
//!
//! A Ctrl-C or SIGTERM at any moment removes the temporary files and the
//! locks: `dispatch` installs the handler for every command (see
//! `crate::exec::install_interrupt_handler`).
//!
//! The locks are released, and their files removed, when the [`Claim`] is
//! dropped at the end of the command.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use super::files::{forget_unfinished, note_unfinished};
use crate::error::Error;

/// One output of a command: the flag that names it, its file, and the
/// files written beside it (a run's roles and days tables).
pub struct Output {
    /// The flag, as the user wrote it (`--out`, `--counts`, …).
    pub flag: &'static str,
    /// The file the flag names.
    pub path: PathBuf,
    /// Files written beside it, claimed with it.
    pub beside: Vec<PathBuf>,
}

impl Output {
    /// An output of one file.
    pub fn file(flag: &'static str, path: &Path) -> Output {
        Output { flag, path: path.to_path_buf(), beside: vec![] }
    }

    /// A table output: the file and the tables written beside it
    /// (`<stem>.<part>.<ext>` for each part).
    pub fn tables(flag: &'static str, path: &Path, parts: &[&str]) -> Output {
        let beside = parts.iter().map(|p| super::files::sibling(path, p)).collect();
        Output { flag, path: path.to_path_buf(), beside }
    }

    fn files(&self) -> impl Iterator<Item = &PathBuf> {
        std::iter::once(&self.path).chain(&self.beside)
    }
}

/// The outputs a command holds until it ends: their locks.
#[must_use = "the outputs are claimed until the claim is dropped"]
pub struct Claim {
    _locks: Vec<Lock>,
}

/// Claims `outputs` (`None`: a flag not given) before any game: refuses
/// clashes and targets another live run is writing; removes what killed
/// runs left behind. See the module's documentation.
pub fn claim(outputs: &[Option<Output>]) -> Result<Claim, Error> {
    let outputs: Vec<&Output> = outputs.iter().flatten().collect();
    for (j, b) in outputs.iter().enumerate() {
        for a in &outputs[..j] {
            if let Some(x) = b.files().find(|x| a.files().any(|y| same_file(x, y))) {
                return Err(Error::Invalid(if same_file(x, &a.path) && same_file(x, &b.path) {
                    format!(
                        "{} {} and {} {} name one file: one would silently replace the other; \
                         give each output a path of its own",
                        a.flag,
                        a.path.display(),
                        b.flag,
                        b.path.display()
                    )
                } else {
                    format!(
                        "{} {} would overwrite a file written by {} {}: give each output a path of its own",
                        b.flag,
                        x.display(),
                        a.flag,
                        a.path.display()
                    )
                }));
            }
        }
    }
    let mut locks = Vec::with_capacity(outputs.len());
    for o in outputs {
        // A folder in the way fails only at the rename, after the games
        // (and, beside a table, after the set's first files were renamed).
        if let Some(f) = o.files().find(|f| f.is_dir()) {
            return Err(Error::Invalid(format!(
                "{} {}: {} is a folder: give the path of a file to write",
                o.flag,
                o.path.display(),
                f.display()
            )));
        }
        locks.push(Lock::take(o).map_err(Error::Invalid)?);
        for f in o.files() {
            remove_leftovers(f);
        }
    }
    Ok(Claim { _locks: locks })
}

/// Whether `a` and `b` name one file: the same name in the same folder
/// (folders compared after resolving links and `..`).
fn same_file(a: &Path, b: &Path) -> bool {
    a == b || (a.file_name() == b.file_name() && folder(a).is_some() && folder(a) == folder(b))
}

fn folder(p: &Path) -> Option<PathBuf> {
    let dir = p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    dir.canonicalize().ok()
}

/// An exclusive lock on an output: `.<name>.lock` beside it, locked with
/// `flock`, holding the locking process's id (for the message that
/// refuses a second run).
struct Lock {
    path: PathBuf,
    _file: File,
}

impl Lock {
    fn take(o: &Output) -> Result<Lock, String> {
        let target = &o.path;
        let mut name = std::ffi::OsString::from(".");
        name.push(target.file_name().unwrap_or_default());
        name.push(".lock");
        let path = target.with_file_name(name);
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty() && !d.is_dir()) {
            return Err(format!("{} {}: folder {} does not exist", o.flag, target.display(), dir.display()));
        }
        let cannot =
            |e: std::io::Error| format!("{} {}: cannot lock it ({}): {e}", o.flag, target.display(), path.display());
        loop {
            let file = open_no_follow(&path).map_err(cannot)?;
            match try_lock(&file) {
                Ok(true) => {}
                Ok(false) => {
                    let holder = std::fs::read_to_string(&path).unwrap_or_default();
                    let holder = holder.trim();
                    let who =
                        if holder.is_empty() { "another run".to_string() } else { format!("another run ({holder})") };
                    return Err(format!(
                        "{} {}: {who} is writing this file; wait for it to finish, or give another path",
                        o.flag,
                        target.display()
                    ));
                }
                Err(e) => return Err(cannot(e)),
            }
            // The holder before us may have removed the file between our
            // open and our lock: then we hold a lock on a removed file, and
            // try again on the path's file.
            if !same_inode(&file, &path) {
                continue;
            }
            use std::io::Write;
            let _ = file.set_len(0);
            let _ = (&file).write_all(format!("process {}\n", std::process::id()).as_bytes());
            note_unfinished(&path);
            return Ok(Lock { path, _file: file });
        }
    }
}

impl Drop for Lock {
    /// Removes the lock's file, then (closing it) releases the lock.
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
        forget_unfinished(&self.path);
    }
}

/// Opens (or creates) `path` for reading and writing, never through a
/// symbolic link.
fn open_no_follow(path: &Path) -> std::io::Result<File> {
    let mut o = OpenOptions::new();
    o.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NOFOLLOW);
    }
    o.open(path)
}

/// Takes an exclusive `flock` on the file without waiting: `Ok(false)`
/// when another open file holds it. (`File::try_lock` needs Rust 1.89;
/// the workspace's minimum is 1.88.)
#[cfg(unix)]
fn try_lock(file: &File) -> std::io::Result<bool> {
    use std::os::unix::io::AsRawFd;
    // SAFETY: flock on a file descriptor the `File` owns and keeps open.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(true);
    }
    let e = std::io::Error::last_os_error();
    if e.kind() == std::io::ErrorKind::WouldBlock { Ok(false) } else { Err(e) }
}

#[cfg(not(unix))]
fn try_lock(_: &File) -> std::io::Result<bool> {
    Ok(true)
}

#[cfg(unix)]
fn same_inode(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::symlink_metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_inode(_: &File, path: &Path) -> bool {
    path.exists()
}

/// Removes the temporary files of `target` that a process which is gone
/// left beside it (`<name>.<pid>-<n>.tmp`; killed by `kill -9` or a power
/// cut, it could not remove them), and says so. Called under the target's
/// lock, so no live run of this program is writing them.
fn remove_leftovers(target: &Path) {
    let Some(name) = target.file_name().and_then(|n| n.to_str()) else { return };
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let file = e.file_name();
        let Some(rest) = file.to_str().and_then(|f| f.strip_prefix(name)) else { continue };
        let Some(pid) = tmp_pid(rest) else { continue };
        if pid != std::process::id() && !alive(pid) && std::fs::remove_file(e.path()).is_ok() {
            let shown = target.with_file_name(&file);
            eprintln!("removed {}: left unfinished by a run that was killed (process {pid})", shown.display());
        }
    }
}

/// The process id of a temporary file's name after the target's name:
/// `.<pid>-<n>.tmp`.
fn tmp_pid(rest: &str) -> Option<u32> {
    let (pid, n) = rest.strip_prefix('.')?.strip_suffix(".tmp")?.split_once('-')?;
    n.parse::<u64>().ok()?;
    pid.parse().ok()
}

/// Whether process `pid` exists.
#[cfg(unix)]
fn alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else { return false };
    // SAFETY: signal 0 sends nothing; kill only checks that the process exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(not(unix))]
fn alive(_: u32) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_give_their_process() {
        assert_eq!(tmp_pid(".123-4.tmp"), Some(123));
        assert_eq!(tmp_pid(".123-x.tmp"), None);
        assert_eq!(tmp_pid(".roles.csv.123-4.tmp"), None);
        assert_eq!(tmp_pid(".123-4"), None);
    }

    #[test]
    fn a_second_claim_of_one_file_is_refused_until_the_first_ends() {
        let dir = std::env::temp_dir().join(format!("mafia-claim-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let t = dir.join("t.csv");
        let first = claim(&[Some(Output::file("--out", &t))]).unwrap();
        assert!(dir.join(".t.csv.lock").exists());
        let Err(e) = claim(&[Some(Output::file("--out", &t))]) else { panic!("claimed twice") };
        let e = e.to_string();
        assert!(e.contains("t.csv") && e.contains(&format!("process {}", std::process::id())), "{e}");
        drop(first);
        assert!(!dir.join(".t.csv.lock").exists(), "the lock's file goes with the claim");
        drop(claim(&[Some(Output::file("--out", &t))]).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn outputs_on_one_file_are_refused() {
        let a = Output::tables("--out", Path::new("t.csv"), &["roles", "days"]);
        let b = Output::file("--counts", Path::new("./t.roles.csv"));
        let Err(e) = claim(&[Some(a), None, Some(b)]) else { panic!("a clash claimed") };
        let e = e.to_string();
        assert!(e.contains("--counts ./t.roles.csv would overwrite a file written by --out t.csv"), "{e}");
    }
}
