//! What the CLI's integration tests share: a temporary folder, running the
//! `mafia` binary, and asserting success or a clean refusal (exit code 2).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh folder under the system temp dir, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("mafia-test-{}-{n}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create a temp dir");
        TempDir(dir)
    }

    pub fn path(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }

    /// The path of `file` in the folder, as a string (for command lines).
    pub fn file(&self, file: &str) -> String {
        self.path(file).display().to_string()
    }

    /// Writes `text` to `file` in the folder and returns its path as a string.
    pub fn write(&self, file: &str, text: &str) -> String {
        let p = self.path(file);
        std::fs::write(&p, text).expect("write a temp file");
        p.display().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn mafia(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mafia")).args(args).output().expect("run the mafia binary")
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

pub fn show(args: &[&str], out: &Output) -> String {
    format!(
        "mafia {}\nexit: {:?}\n--- stdout\n{}\n--- stderr\n{}",
        args.join(" "),
        out.status.code(),
        text(&out.stdout),
        text(&out.stderr)
    )
}

/// Runs `mafia args`, asserts success, returns stdout.
pub fn ok(args: &[&str]) -> String {
    let out = mafia(args);
    assert!(out.status.success(), "{}", show(args, &out));
    assert!(!text(&out.stderr).contains("panicked"), "{}", show(args, &out));
    text(&out.stdout)
}

/// Runs `mafia args`, asserts exit code 2, no panic, nothing on stdout and a
/// message containing every one of `needles`; returns stderr.
pub fn fails(args: &[&str], needles: &[&str]) -> String {
    let out = mafia(args);
    let err = text(&out.stderr);
    let shown = show(args, &out);
    assert_eq!(out.status.code(), Some(2), "{shown}");
    assert!(!err.contains("panicked"), "{shown}");
    assert!(out.stdout.is_empty(), "no results on bad input: {shown}");
    for n in needles {
        assert!(err.contains(n), "stderr lacks {n:?}: {shown}");
    }
    err
}

pub fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("read {}: {e}", p.display()))
}

/// Splits one CSV line into fields (double-quoted fields may hold commas).
pub fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().unwrap().push('"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(String::new()),
            c => fields.last_mut().unwrap().push(c),
        }
    }
    fields
}

/// A CSV file as rows of `column -> value`, in file order.
pub fn csv_rows(p: &Path) -> Vec<Vec<(String, String)>> {
    let body = text(&read(p));
    let mut lines = body.lines();
    let header = csv_fields(lines.next().expect("a header line"));
    lines
        .map(|l| {
            let f = csv_fields(l);
            assert_eq!(f.len(), header.len(), "row {l:?} of {}", p.display());
            header.iter().cloned().zip(f).collect()
        })
        .collect()
}

pub fn col<'a>(row: &'a [(String, String)], name: &str) -> &'a str {
    &row.iter().find(|(k, _)| k == name).unwrap_or_else(|| panic!("no column {name} in {row:?}")).1
}
