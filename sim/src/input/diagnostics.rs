//! What every TOML reader of `input/` shares to report problems: byte
//! offsets to line and column, the syntax errors of a document (which the
//! readers report beside the problems they find in what did parse), the
//! problems collected at their offsets, the name a file gets from its
//! stem, and the one error type, [`FileError`], with every problem at its
//! line and column.

pub use crate::error::{Diagnostic, FileError};
use std::ops::Range;
use std::path::Path;
use toml::de::DeTable;

/// Byte offsets to 1-based line and column (characters).
pub(crate) struct LineIndex<'a> {
    text: &'a str,
    /// Byte offset of the start of each line.
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { text, starts }
    }

    pub(crate) fn locate(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let col = self.text[self.starts[line]..offset].chars().count();
        (line + 1, col + 1)
    }
}

/// Which syntax errors a reader reports: all of them, or the first of
/// each line (recovery reports the rest of a broken line many times over).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Syntax {
    All,
    FirstPerLine,
}

/// Parses TOML text into its document, recovered past syntax errors, and
/// the syntax errors, each `invalid TOML: …` at its line.
pub(crate) fn parse<'i>(text: &'i str, lines: &LineIndex<'_>, which: Syntax) -> (DeTable<'i>, Vec<Diagnostic>) {
    let (doc, errors) = DeTable::parse_recoverable(text);
    let mut syntax: Vec<Diagnostic> = Vec::new();
    for e in &errors {
        let (line, col) = e.span().map_or((1, 1), |s| lines.locate(s.start));
        if which == Syntax::FirstPerLine && syntax.iter().any(|d| d.line == line) {
            continue;
        }
        syntax.push(Diagnostic { line, col, message: format!("invalid TOML: {}", e.message()) });
    }
    (doc.into_inner(), syntax)
}

/// Parses TOML text into its document, or its syntax errors in the order
/// found: for the readers that read nothing of a broken file (experiment
/// and study files).
pub(crate) fn parse_strict<'i>(file: &str, text: &'i str, lines: &LineIndex<'_>) -> Result<DeTable<'i>, FileError> {
    let (doc, syntax) = parse(text, lines, Syntax::All);
    if syntax.is_empty() { Ok(doc) } else { Err(FileError { file: file.to_string(), diagnostics: syntax }) }
}

/// The name a file gives what it describes unless it names it: its stem
/// (`setups/forum-16.toml` → `forum-16`).
pub(crate) fn stem_name(path: &Path) -> Option<String> {
    path.file_stem().map(|s| s.to_string_lossy().into_owned())
}

/// A file that cannot be read: one problem, at 1:1.
pub(crate) fn unreadable(file: &str, message: String) -> FileError {
    FileError { file: file.to_string(), diagnostics: vec![Diagnostic { line: 1, col: 1, message }] }
}

/// Problems collected at byte offsets of a file's text.
pub(crate) struct Problems<'a> {
    lines: &'a LineIndex<'a>,
    pub(crate) diagnostics: Vec<Diagnostic>,
}

impl<'a> Problems<'a> {
    pub(crate) fn new(lines: &'a LineIndex<'a>) -> Problems<'a> {
        Problems { lines, diagnostics: Vec::new() }
    }

    /// A problem at byte offset `at`.
    pub(crate) fn at(&mut self, at: usize, message: String) {
        let (line, col) = self.lines.locate(at);
        self.diagnostics.push(Diagnostic { line, col, message });
    }

    /// A problem at the start of `span`.
    pub(crate) fn at_span(&mut self, span: Range<usize>, message: String) {
        self.at(span.start, message);
    }

    /// The line and column of byte offset `at`.
    pub(crate) fn locate(&self, at: usize) -> (usize, usize) {
        self.lines.locate(at)
    }

    /// How many problems so far.
    pub(crate) fn len(&self) -> usize {
        self.diagnostics.len()
    }

    /// `value`, or the problems in the order found.
    pub(crate) fn result<T>(self, file: &str, value: T) -> Result<T, FileError> {
        if self.diagnostics.is_empty() {
            Ok(value)
        } else {
            Err(FileError { file: file.to_string(), diagnostics: self.diagnostics })
        }
    }
}

/// The problems `first` (a document's syntax errors, say), then `others`
/// except those on a line of `first`, which are most likely echoes of it.
pub(crate) fn beside(first: Vec<Diagnostic>, others: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let bad: Vec<usize> = first.iter().map(|d| d.line).collect();
    let mut all = first;
    all.extend(others.into_iter().filter(|d| !bad.contains(&d.line)));
    all
}

/// The file's error: every problem once, in file order.
pub(crate) fn file_error(file: &str, mut diagnostics: Vec<Diagnostic>) -> FileError {
    diagnostics.sort_by_key(|d| (d.line, d.col));
    // Recovery can report one syntax error twice.
    diagnostics.dedup();
    FileError { file: file.to_string(), diagnostics }
}

/// `Ok` without problems, else the [`file_error`].
pub(crate) fn in_file_order(file: &str, diagnostics: Vec<Diagnostic>) -> Result<(), FileError> {
    if diagnostics.is_empty() { Ok(()) } else { Err(file_error(file, diagnostics)) }
}
