//! The studio's HTTP API (issue 37), in-process: a server on an ephemeral
//! loopback port, asked over plain HTTP/1.1 with a small client written
//! here (no HTTP client crate). The page's own test, in a real browser, is
//! `sim/tests/browser/studio_browser.py` (CI's browser step).

use mafia_sim::{Studio, StudioOptions, start_studio};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, Stdio};

fn studio() -> Studio {
    start_studio(StudioOptions::loopback(0)).expect("a studio on an ephemeral port")
}

fn send(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> TcpStream {
    let mut s = TcpStream::connect(addr).expect("connect");
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    s
}

/// A request and its answer: the status and the body.
fn call(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> (u16, String) {
    let mut s = send(addr, method, path, body);
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8_lossy(&raw).into_owned();
    let status: u16 = text.split_whitespace().nth(1).and_then(|c| c.parse().ok()).expect("a status line");
    let body = text.split_once("\r\n\r\n").map_or(String::new(), |(_, b)| b.to_string());
    (status, body)
}

fn json_call(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let (status, body) = call(addr, method, path, body);
    (status, serde_json::from_str(&body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}")))
}

/// The events of the run's stream, until `done` (or, with `until_progress`,
/// the first progress event): `(event, data)`.
fn events(addr: SocketAddr, until_progress: bool) -> Vec<(String, Value)> {
    let s = send(addr, "GET", "/api/run/events", None);
    let mut lines = BufReader::new(s);
    let mut out = Vec::new();
    let mut event = String::new();
    let mut line = String::new();
    loop {
        line.clear();
        if lines.read_line(&mut line).unwrap() == 0 {
            return out;
        }
        let l = line.trim_end();
        if let Some(e) = l.strip_prefix("event: ") {
            event = e.to_string();
        } else if let Some(d) = l.strip_prefix("data: ") {
            let v: Value = serde_json::from_str(d).unwrap();
            let running = v["state"] == "running" && v.get("camps").is_some();
            out.push((event.clone(), v));
            if event == "done" || (until_progress && running) {
                return out;
            }
        }
    }
}

/// The `classic` preset as the page's form.
fn classic() -> Value {
    let (status, cat) = json_call(studio_addr_catalog(), "GET", "/api/catalog", None);
    assert_eq!(status, 200);
    cat["presets"][0]["form"].clone()
}

fn studio_addr_catalog() -> SocketAddr {
    // One studio for the catalogue; kept alive for the process.
    static S: std::sync::OnceLock<SocketAddr> = std::sync::OnceLock::new();
    *S.get_or_init(|| {
        let s = studio();
        let a = s.addr;
        std::mem::forget(s);
        a
    })
}

fn set_role(form: &mut Value, role: &str, count: &str) {
    let roles = form["roles"].as_array_mut().unwrap();
    match roles.iter_mut().find(|r| r[0] == role) {
        Some(r) => r[1] = json!(count),
        None => roles.push(json!([role, count])),
    }
}

#[test]
fn the_catalogue_comes_from_the_library() {
    let (status, cat) = json_call(studio_addr_catalog(), "GET", "/api/catalog", None);
    assert_eq!(status, 200);
    assert_eq!(cat["roles"].as_array().unwrap().len(), 24, "every role");
    let names: Vec<&str> = cat["presets"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["classic", "classic-13", "extended", "forum-16"]);
    let absence = cat["rules"].as_array().unwrap().iter().find(|r| r["name"] == "absence").unwrap().clone();
    assert_eq!(absence["maximum"], json!(1.0), "the range from the JSON schema");
    assert_eq!(absence["clause"], "C16");
    assert!(!absence["about"].as_str().unwrap().is_empty(), "a description");
    let (status, page) = call(studio_addr_catalog(), "GET", "/", None);
    assert_eq!(status, 200);
    assert!(page.contains("Mafia Lab studio"));
}

#[test]
fn a_bad_role_count_is_refused_at_its_field_with_the_readers_message() {
    let addr = studio_addr_catalog();
    let mut form = classic();
    set_role(&mut form, "don", "2");
    let (status, v) = json_call(addr, "POST", "/api/setup/check", Some(&form));
    assert_eq!(status, 422);
    let p = v["problems"].as_array().unwrap();
    assert!(p.iter().any(|p| p["field"] == "roles.don" && !p["message"].as_str().unwrap().is_empty()), "{v}");
    // Not a number: the reader says so, at the same field.
    set_role(&mut form, "don", "x");
    let (status, v) = json_call(addr, "POST", "/api/setup/check", Some(&form));
    assert_eq!(status, 422);
    assert_eq!(v["problems"][0]["field"], "roles.don", "{v}");
    // A rule value out of its range, at the rule.
    let mut form = classic();
    form["rules"] = json!([["absence", "1.5"]]);
    let (_, v) = json_call(addr, "POST", "/api/setup/check", Some(&form));
    assert_eq!(v["problems"][0]["field"], "rules.absence", "{v}");
    // The good setup: its file, which imports back to the same form.
    let (status, v) = json_call(addr, "POST", "/api/setup/check", Some(&classic()));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["players"], 10);
    let (status, back) = json_call(addr, "POST", "/api/setup/import", Some(&json!({ "toml": v["toml"] })));
    assert_eq!(status, 200, "{back}");
    let sorted = |v: &Value| {
        let mut r: Vec<String> = v.as_array().unwrap().iter().map(|x| x.to_string()).collect();
        r.sort();
        r
    };
    assert_eq!(sorted(&back["form"]["roles"]), sorted(&classic()["roles"]));
}

#[test]
fn a_short_run_streams_progress_and_ends_with_rates_and_intervals() {
    let s = studio();
    let (status, v) =
        json_call(s.addr, "POST", "/api/run", Some(&json!({ "setup": classic(), "games": 5000, "seed": 7 })));
    assert_eq!(status, 200, "{v}");
    let evs = events(s.addr, false);
    let (last, done) = evs.last().expect("events");
    assert_eq!(last, "done", "{evs:?}");
    assert_eq!(done["result"]["status"], "complete", "{done}");
    let (status, r) = json_call(s.addr, "GET", "/api/run/result", None);
    assert_eq!(status, 200);
    let summary = r["tables"].as_array().unwrap().iter().find(|t| t["name"] == "summary").unwrap();
    let col = |n: &str| summary["columns"].as_array().unwrap().iter().position(|c| c == n).unwrap();
    let row = &summary["rows"][0];
    let f = |n: &str| row[col(n)].as_str().unwrap().parse::<f64>().unwrap();
    assert_eq!(f("games"), 5000.0);
    assert!(f("town_lo") < f("town_rate") && f("town_rate") < f("town_hi"), "{row}");
    assert!((f("town_rate") + f("mafia_rate") + f("draw_rate") - 1.0).abs() < 1e-9);
    for t in ["roles", "days"] {
        assert!(r["tables"].as_array().unwrap().iter().any(|x| x["name"] == t), "the {t} table");
    }
    // The same tables as the command line's, to the digit: the same code path.
    let cli =
        mafia_sim::tables(&["run", "--setup", "classic", "--games", "5000", "--seed", "7"].map(String::from), &[]);
    let town: f64 =
        cli.captured.frames[0].1.column("town_rate").unwrap().as_materialized_series().f64().unwrap().get(0).unwrap();
    assert_eq!(town, f("town_rate"));
    // Downloads, made in memory.
    let (status, csv) = call(s.addr, "GET", "/api/run/download?table=summary&format=csv", None);
    assert_eq!(status, 200);
    assert!(csv.contains("town_rate"), "{csv}");
}

#[test]
fn a_run_can_be_cancelled_and_a_second_run_is_refused_meanwhile() {
    let s = studio();
    let big = json!({ "setup": classic(), "games": 10_000_000 });
    let (status, v) = json_call(s.addr, "POST", "/api/run", Some(&big));
    assert_eq!(status, 200, "{v}");
    let first = events(s.addr, true);
    assert!(first.iter().any(|(e, _)| e == "progress"), "{first:?}");
    let (status, v) = json_call(s.addr, "POST", "/api/run", Some(&big));
    assert_eq!(status, 409, "{v}");
    assert!(v["error"].as_str().unwrap().contains("one run at a time"), "{v}");
    let (status, _) = json_call(s.addr, "POST", "/api/run/cancel", Some(&json!({})));
    assert_eq!(status, 200);
    let evs = events(s.addr, false);
    let done = &evs.last().unwrap().1;
    assert_eq!(done["result"]["status"], "cancelled", "{done}");
    // Too many games for the studio's bound.
    let (status, v) = json_call(s.addr, "POST", "/api/run", Some(&json!({ "setup": classic(), "games": 10_000_001 })));
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("--max-games"));
}

#[test]
fn files_are_written_only_into_the_out_dir_by_plain_names() {
    let dir = std::env::temp_dir().join(format!("mafia-studio-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut o = StudioOptions::loopback(0);
    o.out_dir = Some(dir.clone());
    let s = start_studio(o).unwrap();
    for bad in ["../escape.toml", "/tmp/escape.toml", "sub/x.toml", ".hidden.toml"] {
        let (status, v) = json_call(s.addr, "POST", "/api/save", Some(&json!({ "name": bad, "setup": classic() })));
        assert_eq!(status, 400, "{bad}: {v}");
        assert!(v["error"].as_str().unwrap().contains("plain file name"), "{v}");
    }
    assert!(!dir.parent().unwrap().join("escape.toml").exists());
    let (status, v) = json_call(s.addr, "POST", "/api/save", Some(&json!({ "name": "mine.toml", "setup": classic() })));
    assert_eq!(status, 200, "{v}");
    let text = std::fs::read_to_string(dir.join("mine.toml")).unwrap();
    assert!(text.contains("[roles]") && text.contains("don = 1"), "{text}");
    // Without --out-dir nothing is written.
    let (status, v) =
        json_call(studio_addr_catalog(), "POST", "/api/save", Some(&json!({ "name": "x.toml", "setup": classic() })));
    assert_eq!(status, 403, "{v}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn compare_says_in_words_what_its_numbers_say() {
    let s = studio();
    let mut form = classic();
    form["rules"] = json!([["absence", "0.2"]]);
    let req = json!({ "setup": form, "a": ["no_kill_limit=3"], "b": ["no_kill_limit=off"], "games": 4096 });
    let (status, v) = json_call(s.addr, "POST", "/api/compare", Some(&req));
    assert_eq!(status, 200, "{v}");
    let first = v["sentences"][0].as_str().unwrap();
    assert!(first.contains("gives the town +") && first.contains("absence=0.2"), "{first}");
}

#[test]
fn a_sweep_is_drawn_as_plot_rs_heatmap() {
    let s = studio();
    let req = json!({ "setup": classic(), "x": "absence=0,0.2", "y": "no_kill_limit=3,off", "games": 1024 });
    let (status, v) = json_call(s.addr, "POST", "/api/sweep", Some(&req));
    assert_eq!(status, 200, "{v}");
    assert!(v["svg"].as_str().unwrap().starts_with("<svg"), "an SVG");
    assert_eq!(v["table"]["rows"].as_array().unwrap().len(), 4);
}

#[test]
fn a_night_resolves_as_mafia_resolve_tells_it_and_the_next_night_reads_back() {
    let addr = studio_addr_catalog();
    let night = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios/full-night.toml")).unwrap();
    let (status, v) = json_call(addr, "POST", "/api/resolve", Some(&json!({ "toml": night })));
    assert_eq!(status, 200, "{v}");
    let cli = mafia_sim::resolve_file(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios/full-night.toml")),
        false,
    )
    .unwrap();
    // The same trace as the command line's (its title names the file).
    let body = |t: &str| t.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(body(v["text"].as_str().unwrap()), body(&cli));
    // The next night's file is a scenario the reader accepts (with no moves).
    let next = v["next"].as_str().unwrap();
    assert!(next.contains("night = 4"), "{next}");
    let (status, n) = json_call(addr, "POST", "/api/resolve", Some(&json!({ "toml": next })));
    assert_eq!(status, 200, "{next}\n{n}");
    // A bad night: the reader's message.
    let (status, v) = json_call(addr, "POST", "/api/resolve", Some(&json!({ "toml": "seats = [\"wizard\"]" })));
    assert_eq!(status, 422);
    assert!(v["error"].as_str().unwrap().contains("wizard"), "{v}");
}

#[test]
fn odds_of_a_mid_game_state_are_mafia_odds_tables() {
    let s = studio();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios/odds/classic-day-3-commissar.toml");
    let state = std::fs::read_to_string(path).unwrap();
    let (status, v) = json_call(s.addr, "POST", "/api/odds", Some(&json!({ "toml": state, "games": 2000 })));
    assert_eq!(status, 200, "{v}");
    let cli = mafia_sim::tables(&["odds", path, "--games", "2000"].map(String::from), &[]);
    let table = &v["tables"][0];
    // One row per camp, the town's first: the same rate as the command line's.
    let col = table["columns"].as_array().unwrap().iter().position(|c| c == "rate").unwrap();
    assert_eq!(table["rows"][0][0], "town");
    let town: f64 = table["rows"][0][col].as_str().unwrap().parse().unwrap();
    let frame = &cli.captured.frames[0].1;
    assert_eq!(town, frame.column("rate").unwrap().as_materialized_series().f64().unwrap().get(0).unwrap());
    let (status, v) = json_call(s.addr, "POST", "/api/odds", Some(&json!({ "toml": "day = 0", "games": 10 })));
    assert_eq!(status, 422, "{v}");
}

#[test]
fn a_body_over_the_limit_is_refused() {
    let big = json!({ "toml": "#".repeat(mafia_sim::BODY_LIMIT + 1) });
    let (status, _) = call(studio_addr_catalog(), "POST", "/api/resolve", Some(&big));
    assert_eq!(status, 413);
}

/// The first line the child prints on `stdout` or `stderr`, then the child is killed.
fn first_lines(args: &[&str]) -> (String, String, Option<i32>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mafia"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = String::new();
    let mut err = String::new();
    let mut so = BufReader::new(child.stdout.take().unwrap());
    so.read_line(&mut out).unwrap();
    let code = child.try_wait().unwrap().and_then(|s| s.code());
    let _ = child.kill();
    let status = child.wait().unwrap();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    (out, err, code.or(status.code()))
}

#[test]
fn loopback_unless_listen_is_given_and_then_a_warning() {
    let (out, err, _) = first_lines(&["studio", "--port", "0", "--no-open"]);
    assert!(out.contains("http://127.0.0.1:"), "{out}");
    assert!(!err.contains("warning"), "{err}");
    let (out, err, _) = first_lines(&["studio", "--listen", "0.0.0.0:0", "--no-open"]);
    assert!(out.contains("http://0.0.0.0:"), "{out}");
    assert!(err.contains("warning: listening on 0.0.0.0:0, not loopback"), "{err}");
    // Bad flags: a clear message and exit 2.
    let o = Command::new(env!("CARGO_BIN_EXE_mafia")).args(["studio", "--listen", "everywhere"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--listen"));
    let o = Command::new(env!("CARGO_BIN_EXE_mafia"))
        .args(["studio", "--no-open", "--port", "0", "--out-dir", "/no/such/folder"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--out-dir /no/such/folder"));
}
