//! The JSON Schema (`schema/mafia-lab.schema.json`): the committed file is
//! the one `mafia schema` prints, and real outputs — replays of every preset
//! and the night calculator's traces — validate against it.
//!
//! After a change to a serialized type, regenerate the file with
//! `cargo run --release -- schema > schema/mafia-lab.schema.json`
//! (or `UPDATE_GOLDEN=1 cargo test --release -p mafia-sim --test schema`)
//! and read the diff.
//!
//! The validator here is small: it knows the keywords the schema uses
//! (`$ref`, `type`, `const`, `enum`, `properties`, `required`, `items`,
//! `prefixItems`, `oneOf`, `anyOf`, `allOf`, `minimum`, `maximum`) and treats
//! every object as closed: a key that no applicable `properties` names is an
//! error, so an output cannot grow a field the schema does not describe.

use mafia_agents::Lineup;
use mafia_engine::{Game, PRESETS, Preset};
use mafia_sim::{Job, Variant, replay, resolve_file, schema_text};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn schema() -> Value {
    serde_json::from_str(&schema_text()).expect("the schema is JSON")
}

#[test]
fn the_committed_schema_is_current() {
    let path = manifest().join("../schema/mafia-lab.schema.json");
    let now = schema_text();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &now).expect("write the schema");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != now {
        let first = now.lines().zip(committed.lines()).position(|(a, b)| a != b).unwrap_or(0);
        panic!(
            "{} is not what `mafia schema` prints (first difference at line {}:\n  committed: {:?}\n  now:       {:?})\n\
             Regenerate it with `cargo run --release -- schema > schema/mafia-lab.schema.json` and read the diff.",
            path.display(),
            first + 1,
            committed.lines().nth(first),
            now.lines().nth(first)
        );
    }
}

#[test]
fn mafia_schema_prints_the_schema() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mafia")).arg("schema").output().expect("run mafia");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8(out.stdout).expect("UTF-8"), schema_text());
    let root = schema();
    assert_eq!(root["$schema"], "https://json-schema.org/draft/2020-12/schema");
    for def in ["ReplayLine", "Trace", "Event", "Rules", "View", "Request", "Answer"] {
        assert!(root["$defs"][def].is_object(), "no `{def}` in $defs");
    }
}

/// Validates `inst` against `s`, then checks that every key of an object was
/// named by an applicable `properties`.
fn value(root: &Value, s: &Value, inst: &Value, at: &str) -> Result<(), String> {
    let keys = node(root, s, inst, at)?;
    if let Value::Object(m) = inst {
        for k in m.keys() {
            if !keys.contains(k) {
                return Err(format!("{at}: key `{k}` is not in the schema"));
            }
        }
    }
    Ok(())
}

/// Validates `inst` against one schema node; returns the object keys it evaluated.
fn node(root: &Value, s: &Value, inst: &Value, at: &str) -> Result<BTreeSet<String>, String> {
    let mut keys = BTreeSet::new();
    let Value::Object(s) = s else { return Ok(keys) };
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/$defs/").unwrap_or_else(|| panic!("a local reference: {r}"));
        let target = &root["$defs"][name];
        assert!(!target.is_null(), "{r} is not defined");
        keys.extend(node(root, target, inst, &format!("{at} ({name})"))?);
    }
    if let Some(t) = s.get("type") {
        let types: Vec<&str> = match t {
            Value::String(t) => vec![t.as_str()],
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        let ok = types.iter().any(|t| match *t {
            "object" => inst.is_object(),
            "array" => inst.is_array(),
            "string" => inst.is_string(),
            "boolean" => inst.is_boolean(),
            "null" => inst.is_null(),
            "integer" => inst.is_i64() || inst.is_u64(),
            "number" => inst.is_number(),
            _ => panic!("type {t}"),
        });
        if !ok {
            return Err(format!("{at}: {inst} is not of type {t}"));
        }
    }
    if let Some(c) = s.get("const")
        && c != inst
    {
        return Err(format!("{at}: {inst} is not {c}"));
    }
    if let Some(Value::Array(e)) = s.get("enum")
        && !e.contains(inst)
    {
        return Err(format!("{at}: {inst} is not one of {}", Value::from(e.clone())));
    }
    if let Some(x) = inst.as_f64() {
        if s.get("minimum").and_then(Value::as_f64).is_some_and(|m| x < m) {
            return Err(format!("{at}: {x} is below the minimum"));
        }
        if s.get("maximum").and_then(Value::as_f64).is_some_and(|m| x > m) {
            return Err(format!("{at}: {x} is above the maximum"));
        }
    }
    if let Value::Object(m) = inst {
        if let Some(Value::Object(props)) = s.get("properties") {
            for (k, sub) in props {
                if let Some(v) = m.get(k) {
                    value(root, sub, v, &format!("{at}.{k}"))?;
                }
                keys.insert(k.clone());
            }
        }
        if let Some(Value::Array(req)) = s.get("required") {
            for k in req.iter().filter_map(Value::as_str) {
                if !m.contains_key(k) {
                    return Err(format!("{at}: required key `{k}` is missing"));
                }
            }
        }
    }
    if let Value::Array(items) = inst {
        let prefix = s.get("prefixItems").and_then(Value::as_array).map_or(&[][..], |p| &p[..]);
        for (i, v) in items.iter().enumerate() {
            let sub = prefix.get(i).or(s.get("items"));
            if let Some(sub) = sub {
                value(root, sub, v, &format!("{at}[{i}]"))?;
            }
        }
    }
    if let Some(Value::Array(all)) = s.get("allOf") {
        for sub in all {
            keys.extend(node(root, sub, inst, at)?);
        }
    }
    for (word, exactly_one) in [("oneOf", true), ("anyOf", false)] {
        if let Some(Value::Array(subs)) = s.get(word) {
            let mut passed = 0;
            let mut errors = Vec::new();
            for sub in subs {
                match node(root, sub, inst, at) {
                    Ok(k) => {
                        passed += 1;
                        keys.extend(k);
                    }
                    Err(e) => errors.push(e),
                }
            }
            if passed == 0 || (exactly_one && passed > 1) {
                return Err(format!("{at}: {passed} branches of {word} match {inst}; {}", errors.join(" | ")));
            }
        }
    }
    Ok(keys)
}

fn validate(root: &Value, def: &str, inst: &Value) {
    let s = serde_json::json!({ "$ref": format!("#/$defs/{def}") });
    if let Err(e) = value(root, &s, inst, def) {
        panic!("{e}\n in {inst}");
    }
}

/// The schema's event names.
fn event_tags(root: &Value) -> BTreeSet<String> {
    root["$defs"]["Event"]["oneOf"]
        .as_array()
        .expect("Event is a oneOf")
        .iter()
        .map(|v| v["properties"]["event"]["const"].as_str().expect("a tag").to_string())
        .collect()
}

fn replay_lines(preset: &str, agents: &str, seed: u64, index: u64) -> Vec<Value> {
    let setup = Preset::find(preset).expect("a built-in preset").setup();
    let game = Game::new(&setup).expect("presets are valid");
    let mut lineup = Lineup::default();
    lineup.apply(agents).expect("a built-in strategy");
    let variant =
        Variant { setup: preset.into(), rules: game.rules_label(), agents: lineup.label(), players: game.players() };
    let job = Job { game, lineup, variant, ext: Vec::new() };
    replay(&job, seed, index, true).lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect()
}

#[test]
fn replays_of_every_preset_validate_against_the_schema() {
    let root = schema();
    let tags = event_tags(&root);
    let mut seen = BTreeSet::new();
    for p in PRESETS.iter() {
        for agents in ["random", "classic"] {
            for index in 0..12 {
                let lines = replay_lines(p.name, agents, 1, index);
                assert_eq!(lines[0]["event"], "game");
                for line in &lines {
                    validate(&root, "ReplayLine", line);
                }
                for e in &lines[1..] {
                    let tag = e["event"].as_str().expect("an event name").to_string();
                    assert!(tags.contains(&tag), "`{tag}` is not an event of the schema");
                    validate(&root, "Event", e);
                    seen.insert(tag);
                }
            }
        }
    }
    // The games above tell most kinds of event; a tag the schema lists that
    // no game, trace or unit test shows would be worth a look, but only these
    // are required here.
    for tag in ["deal", "day", "night", "vote", "lynch", "step", "night_move", "succeeded", "died", "end"] {
        assert!(seen.contains(tag), "no replay told `{tag}`");
    }
}

#[test]
fn counts_files_of_run_experiment_and_compare_validate_against_the_schema() {
    let root = schema();
    let dir = std::env::temp_dir().join(format!("mafia-schema-counts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let x = dir.join("x.toml");
    std::fs::write(&x, "setup = \"classic\"\n[grid]\nmafia = [2, 3]\nreplace = [\"none\", \"commissar\"]\n[reference]\nreplace = \"none\"\n").unwrap();
    let x = x.display().to_string();
    let runs: [&[&str]; 3] = [
        &["run", "--setup", "classic", "--setup", "extended", "--games", "300"],
        &["experiment", &x, "--games", "300"],
        &["compare", "--a", "no_kill_limit=3", "--b", "no_kill_limit=off", "--games", "300", "--sprt", "0.05"],
    ];
    for (i, args) in runs.iter().enumerate() {
        let counts = dir.join(format!("c{i}.json")).display().to_string();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_mafia"))
            .args(*args)
            .args(["--quiet", "--counts", &counts])
            .output()
            .expect("run mafia");
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let v: Value = serde_json::from_slice(&std::fs::read(&counts).unwrap()).expect("JSON");
        validate(&root, "CountsFile", &v);
        assert_eq!(v["plan"]["command"], args[0]);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_golden_traces_and_examples_validate_against_the_schema() {
    let root = schema();
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in [manifest().join("tests/scenarios"), manifest().join("../scenarios")] {
        for entry in std::fs::read_dir(&dir).expect("a scenarios folder") {
            let path = entry.expect("a folder entry").path();
            if path.extension().is_some_and(|x| x == "toml") {
                files.push(path);
            }
        }
    }
    assert!(files.len() > 40, "{files:?}");
    let tags = event_tags(&root);
    for path in files {
        let text = resolve_file(&path, true).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let v: Value = serde_json::from_str(&text).expect("one JSON document");
        validate(&root, "Trace", &v);
        let events = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .chain(v["steps"].as_array().unwrap().iter().flat_map(|s| s["events"].as_array().unwrap().iter()));
        for e in events {
            assert!(tags.contains(e["event"].as_str().unwrap()), "{}: {e}", path.display());
        }
    }
}

#[test]
fn the_validator_refuses_what_the_schema_does_not_describe() {
    let root = schema();
    let ok = serde_json::json!({"event": "healed", "seat": 5, "by": 3});
    validate(&root, "Event", &ok);
    for bad in [
        serde_json::json!({"event": "healed", "seat": 5}),
        serde_json::json!({"event": "healed", "seat": 0, "by": 3}),
        serde_json::json!({"event": "healed", "seat": 5, "by": 3, "extra": 1}),
        serde_json::json!({"event": "heal", "seat": 5, "by": 3}),
        serde_json::json!({"event": "lynch", "result": "tie", "tied": [1, "2"]}),
    ] {
        let s = serde_json::json!({ "$ref": "#/$defs/Event" });
        assert!(value(&root, &s, &bad, "Event").is_err(), "{bad} should be refused");
    }
}
