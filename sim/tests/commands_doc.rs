//! The book's command reference, `docs/src/guide/commands.md`, is generated
//! from the real binary's help, so it cannot drift from the clap
//! definitions: the list from `mafia --help`, then one section per
//! subcommand (nested ones included) with its `mafia <cmd> --help`.
//!
//! The test renders the page and asserts it equals the committed file. After
//! a change to a command's arguments or help text, regenerate the page with
//! `MAFIA_BLESS=1 cargo test --release -p mafia-sim --test commands_doc`
//! (`UPDATE_GOLDEN=1`, as for the other golden files, works too) and read
//! the diff.
//!
//! It only runs the built binary (`CARGO_BIN_EXE_mafia`); it imports nothing
//! of the `mafia_sim` crate.

use std::path::PathBuf;
use std::process::Command;

/// `mafia ARGS…` with a plain, unwrapped help: no colours, no terminal width.
fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_mafia"))
        .args(args)
        .env_remove("COLUMNS")
        .env_remove("CLICOLOR_FORCE")
        .env("NO_COLOR", "1")
        .output()
        .expect("run the mafia binary");
    assert!(out.status.success(), "mafia {} failed: {}", args.join(" "), String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("help is UTF-8");
    // Trailing blanks would make the committed file fight editors.
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    lines.join("\n").trim_end().to_string()
}

/// The subcommands a help text lists under `Commands:` (`help` left out).
fn subcommands(help: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut inside = false;
    for line in help.lines() {
        if line == "Commands:" {
            inside = true;
            continue;
        }
        if inside {
            // Entries are indented by two spaces; a description that wraps
            // is indented further, and a blank line or a heading ends the list.
            let Some(rest) = line.strip_prefix("  ") else { break };
            if rest.starts_with(' ') {
                continue;
            }
            let name = rest.split_whitespace().next().unwrap_or_default();
            if !name.is_empty() && name != "help" {
                names.push(name.to_string());
            }
        }
    }
    names
}

/// One section per command, depth first: `## mafia run`, `### mafia x y`.
fn sections(path: &mut Vec<String>, out: &mut String) {
    let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
    args.push("--help");
    let text = help(&args);
    let depth = path.len().min(5) + 1;
    out.push_str(&format!(
        "\n{} mafia {}\n\n```text\n$ mafia {} --help\n{text}\n```\n",
        "#".repeat(depth),
        path.join(" "),
        path.join(" ")
    ));
    for sub in subcommands(&text) {
        path.push(sub);
        sections(path, out);
        path.pop();
    }
}

fn render() -> String {
    let top = help(&["--help"]);
    let mut page = String::from(
        "<!--\n  GENERATED from the `mafia` binary's help by sim/tests/commands_doc.rs: do not edit by hand.\n  \
         Regenerate after changing a command's arguments or help text:\n    \
         MAFIA_BLESS=1 cargo test --release -p mafia-sim --test commands_doc\n-->\n\n\
         # Every command\n\n\
         This page is the help of the `mafia` binary, command by command, generated from its\n\
         argument definitions (a test fails when it differs from the binary's). The other\n\
         chapters say what the commands are for, with examples; this one lists every flag.\n\
         `cargo run --release -- COMMAND …` runs a command from a checkout.\n\n\
         ```text\n$ mafia --help\n",
    );
    page.push_str(&top);
    page.push_str("\n```\n");
    for name in subcommands(&top) {
        sections(&mut vec![name], &mut page);
    }
    page
}

#[test]
fn the_command_reference_is_the_binarys_help() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/src/guide/commands.md");
    let page = render();
    let bless = ["MAFIA_BLESS", "UPDATE_GOLDEN"].iter().any(|v| std::env::var(v).is_ok_and(|x| x == "1"));
    if bless {
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("create docs/src/guide");
        std::fs::write(&path, &page).expect("write the command reference");
        eprintln!("MAFIA_BLESS=1: wrote {}", path.display());
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (MAFIA_BLESS=1 cargo test --release -p mafia-sim --test commands_doc writes it)",
            path.display()
        )
    });
    if committed != page {
        let line = committed
            .lines()
            .zip(page.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| committed.lines().count().min(page.lines().count()))
            + 1;
        panic!(
            "{} is not the binary's help (first difference at line {line}): a command's arguments \
             or help changed. Regenerate it with \
             `MAFIA_BLESS=1 cargo test --release -p mafia-sim --test commands_doc` and read the diff.",
            path.display()
        );
    }
}

#[test]
fn subcommands_are_read_from_the_help() {
    let help =
        "Usage: x\n\nCommands:\n  run    Do it\n         more words\n  merge  Join\n  help   Print\n\nOptions:\n  -h";
    assert_eq!(subcommands(help), ["run", "merge"]);
}
