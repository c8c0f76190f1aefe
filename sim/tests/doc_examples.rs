//! The examples in the README and the book show real output, and this test
//! keeps them real: every ```` ```console ```` block whose first line is one
//! command, `$ cargo run --release -- ARGS` or `$ mafia ARGS`, followed by
//! its output, is run with the built binary and must print exactly that
//! (standard output and standard error as one stream, trailing blanks
//! ignored). A block that cannot be replayed — output cut with `…`, a file
//! the repository does not hold, several commands — is marked
//! ```` ```console,unchecked ```` (mdBook renders it as `console`).
//!
//! After a change that moves the numbers (a new mix, a rule fix), rewrite
//! the blocks with
//! `MAFIA_BLESS=1 cargo test --release -p mafia-sim --test doc_examples`
//! (`UPDATE_GOLDEN=1` works too) and read the diff: the prose around a block
//! that quotes its numbers must be updated by hand.
//!
//! Commands run in a scratch folder that links every top-level entry of the
//! repository (so `setups/forum-12.toml` resolves and `--out forum.parquet`
//! writes nowhere in the tree). It only runs the built binary
//! (`CARGO_BIN_EXE_mafia`); it imports nothing of the `mafia_sim` crate.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace root").to_path_buf()
}

/// The README and every page of the book, but the generated command
/// reference and the vendored rule texts.
fn pages() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = fs::read_dir(dir).expect("read docs/src").map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != "rules") {
                    walk(&p, out);
                }
            } else if p.extension().is_some_and(|e| e == "md") && !p.ends_with("guide/commands.md") {
                out.push(p);
            }
        }
    }
    let root = repo();
    let mut pages = vec![root.join("README.md")];
    walk(&root.join("docs/src"), &mut pages);
    pages
}

/// A checked block: where its output lines are in the page, the command's
/// arguments and the output the page shows.
struct Example {
    /// Line index of the first output line, and how many there are.
    first: usize,
    len: usize,
    command: String,
    args: Vec<String>,
    shown: Vec<String>,
}

/// Splits a command line as a shell would for plain words and quotes.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (None, c) if c.is_whitespace() => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            (None, c) => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn examples(lines: &[&str]) -> Vec<Example> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let fence = lines[i].trim_start();
        let indent = lines[i].len() - fence.len();
        if fence.starts_with("```") && fence != "```" {
            let checked = fence == "```console";
            let start = i + 1;
            let mut end = start;
            while end < lines.len() && lines[end].trim() != "```" {
                end += 1;
            }
            let body: Vec<&str> = lines[start..end].iter().map(|l| l.get(indent..).unwrap_or("").trim_end()).collect();
            let commands = body.iter().filter(|l| l.starts_with("$ ")).count();
            if checked && commands == 1 && body.len() > 1 && body[0].starts_with("$ ") {
                let command = body[0].trim_start_matches("$ ").to_string();
                let w = words(&command);
                let args = if w.starts_with(&["cargo", "run", "--release", "--"].map(String::from)) {
                    Some(w[4..].to_vec())
                } else if w.first().is_some_and(|c| c == "mafia") {
                    Some(w[1..].to_vec())
                } else {
                    None
                };
                if let Some(args) = args {
                    found.push(Example {
                        first: start + 1,
                        len: body.len() - 1,
                        command,
                        args,
                        shown: body[1..].iter().map(|s| s.to_string()).collect(),
                    });
                }
            }
            i = end + 1;
        } else {
            i += 1;
        }
    }
    found
}

/// How a shown line elides: `…` at its start stands for any number of
/// lines (`…  (per-role tables)`); `…` at its end for the rest of one line
/// (`Deal: P1 (mafioso), …`).
enum Elision<'a> {
    Lines,
    Rest(&'a str),
}

fn elides(shown: &str) -> Option<Elision<'_>> {
    let t = shown.trim_start();
    if t.starts_with('…') { Some(Elision::Lines) } else { shown.strip_suffix('…').map(Elision::Rest) }
}

/// Whether the output matches the shown lines, elisions allowed.
fn matches(shown: &[String], got: &[String]) -> bool {
    match shown.split_first() {
        None => got.is_empty(),
        Some((first, rest)) => match elides(first) {
            Some(Elision::Lines) => (0..=got.len()).any(|k| matches(rest, &got[k..])),
            Some(Elision::Rest(prefix)) => {
                got.first().is_some_and(|g| g.starts_with(prefix.trim_end())) && matches(rest, &got[1..])
            }
            None => got.first() == Some(first) && matches(rest, &got[1..]),
        },
    }
}

/// The shown block brought up to date: the output itself when nothing is
/// cut; with one cut of lines, as many lines before and after it as the
/// block showed, from the new output (a line cut at its end is kept where
/// it still matches). `None` when the cuts cannot be placed (several cuts
/// of lines, or fewer lines than the block keeps).
fn refreshed(shown: &[String], got: &[String]) -> Option<Vec<String>> {
    let cuts: Vec<usize> = (0..shown.len()).filter(|&i| matches!(elides(&shown[i]), Some(Elision::Lines))).collect();
    let keep = |s: &String, g: &String| match elides(s) {
        Some(Elision::Rest(prefix)) if g.starts_with(prefix.trim_end()) => s.clone(),
        _ => g.clone(),
    };
    match cuts[..] {
        [] if shown.len() == got.len() => Some(shown.iter().zip(got).map(|(s, g)| keep(s, g)).collect()),
        [] => Some(got.to_vec()),
        [c] => {
            let after = shown.len() - c - 1;
            if c + after > got.len() {
                return None;
            }
            let mut out: Vec<String> = shown[..c].iter().zip(&got[..c]).map(|(s, g)| keep(s, g)).collect();
            out.push(shown[c].clone());
            out.extend(shown[c + 1..].iter().zip(&got[got.len() - after..]).map(|(s, g)| keep(s, g)));
            Some(out)
        }
        _ => None,
    }
}

/// A scratch folder linking every top-level entry of the repository.
fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mafia-doc-examples-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("create the scratch folder");
    for e in fs::read_dir(repo()).expect("read the repository") {
        let e = e.unwrap();
        let name = e.file_name();
        if name == "target" || name == ".git" {
            continue;
        }
        #[cfg(unix)]
        std::os::unix::fs::symlink(e.path(), dir.join(&name)).expect("link an entry");
    }
    dir
}

/// The command's output: standard output and error as one stream, in the
/// order written, trailing blanks and blank last lines dropped.
fn run(dir: &Path, args: &[String]) -> (bool, Vec<String>) {
    let out = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" \"$@\" 2>&1")
        .arg(env!("CARGO_BIN_EXE_mafia"))
        .args(args)
        .current_dir(dir)
        .env_remove("COLUMNS")
        .env_remove("CLICOLOR_FORCE")
        .env("NO_COLOR", "1")
        .output()
        .expect("run the mafia binary");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines: Vec<String> = text.lines().map(|l| l.trim_end().to_string()).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    (out.status.success(), lines)
}

#[test]
fn console_examples_in_the_readme_and_the_book_print_what_they_show() {
    let bless = std::env::var_os("MAFIA_BLESS").is_some() || std::env::var_os("UPDATE_GOLDEN").is_some();
    let dir = scratch();
    let mut cache: HashMap<Vec<String>, (bool, Vec<String>)> = HashMap::new();
    let mut stale = Vec::new();
    let mut cut_stale = 0;
    let mut checked = 0;
    for page in pages() {
        let text = fs::read_to_string(&page).expect("read a page");
        let lines: Vec<&str> = text.lines().collect();
        let found = examples(&lines);
        let mut rewritten: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        for ex in found.iter().rev() {
            let (_, got) = cache.entry(ex.args.clone()).or_insert_with(|| run(&dir, &ex.args)).clone();
            checked += 1;
            if !matches(&ex.shown, &got) {
                let name = page.strip_prefix(repo()).unwrap_or(&page).display().to_string();
                let at = (0..ex.shown.len().max(got.len()))
                    .find(|&k| ex.shown.get(k) != got.get(k))
                    .expect("the outputs differ somewhere");
                stale.push(format!(
                    "{name}:{}: `{}`\n  shown: {:?}\n  now:   {:?}",
                    ex.first + at + 1,
                    ex.command,
                    ex.shown.get(at),
                    got.get(at)
                ));
                let indent = {
                    let l = lines[ex.first - 1];
                    &l[..l.len() - l.trim_start().len()]
                };
                match refreshed(&ex.shown, &got) {
                    Some(lines) => {
                        let new: Vec<String> = lines
                            .iter()
                            .map(|l| if l.is_empty() { String::new() } else { format!("{indent}{l}") })
                            .collect();
                        rewritten.splice(ex.first..ex.first + ex.len, new);
                    }
                    None => {
                        cut_stale += 1;
                        if bless {
                            eprintln!("{name}: its cuts cannot be placed; its whole output now:\n{}", got.join("\n"));
                        }
                        stale.push("  (cut with `…` in more than one place: not rewritten by MAFIA_BLESS, which prints its whole output)".into());
                    }
                }
            }
        }
        if bless && rewritten.iter().map(String::as_str).ne(lines.iter().copied()) {
            let mut body = rewritten.join("\n");
            if text.ends_with('\n') {
                body.push('\n');
            }
            fs::write(&page, body).expect("rewrite a page");
        }
    }
    let _ = fs::remove_dir_all(&dir);
    assert!(checked >= 5, "only {checked} console examples found: has the book moved?");
    assert!(
        stale.is_empty() || (bless && cut_stale == 0),
        "{} console example(s) no longer print what the page shows:\n{}\n\
         Rewrite them with `MAFIA_BLESS=1 cargo test --release -p mafia-sim --test doc_examples`, read the \
         diff and update the prose that quotes the numbers (or mark a block that cannot be replayed \
         ```console,unchecked).",
        stale.len(),
        stale.join("\n")
    );
}

#[test]
fn words_split_like_a_shell_for_plain_words_and_quotes() {
    assert_eq!(
        words("run --agents 'forum:trust=0.5' --a \"x y\""),
        ["run", "--agents", "forum:trust=0.5", "--a", "x y"]
    );
    assert_eq!(words("a  ''  b"), ["a", "", "b"]);
}

#[test]
fn elided_lines_match_any_run_of_lines_and_the_rest_of_a_line() {
    let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(matches(&v(&["a", "…  (more)", "z"]), &v(&["a", "b", "c", "z"])));
    assert!(matches(&v(&["a", "…", "z"]), &v(&["a", "z"])));
    assert!(!matches(&v(&["a", "…", "z"]), &v(&["a", "b"])));
    assert!(matches(&v(&["Deal: P1, …"]), &v(&["Deal: P1, P2, P3"])));
    assert!(!matches(&v(&["Deal: P2, …"]), &v(&["Deal: P1, P2"])));
    assert!(!matches(&v(&["a"]), &v(&["a", "b"])));
}

#[test]
fn a_cut_block_is_refreshed_around_its_cut() {
    let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let shown = v(&["title", "row 1", "…  (more)", "total 3"]);
    let got = v(&["title", "row 9", "x", "y", "total 4"]);
    assert_eq!(refreshed(&shown, &got).unwrap(), v(&["title", "row 9", "…  (more)", "total 4"]));
    assert!(matches(&refreshed(&shown, &got).unwrap(), &got));
    assert_eq!(refreshed(&v(&["Deal: P1, …"]), &v(&["Deal: P1, P2"])).unwrap(), v(&["Deal: P1, …"]));
    assert_eq!(refreshed(&v(&["a", "…", "b", "…"]), &got), None);
}

#[test]
fn a_block_is_checked_only_when_it_is_one_mafia_command_with_output() {
    let page = [
        "```console",
        "$ cargo run --release -- run --games 10",
        "out",
        "```",
        "```console,unchecked",
        "$ mafia run",
        "out",
        "```",
        "```console",
        "$ cat x.toml",
        "x",
        "```",
        "```console",
        "$ mafia run --games 5",
        "```",
    ];
    let found = examples(&page);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].args, ["run", "--games", "10"]);
    assert_eq!((found[0].first, found[0].len), (2, 1));
}
