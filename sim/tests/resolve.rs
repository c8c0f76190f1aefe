//! The night calculator, `mafia resolve`: golden scenarios (one per
//! interaction the clauses name, each with its text and JSON trace in
//! `tests/scenarios/`), bad scenarios (exit code 2 and the line of the
//! problem), the example files in `scenarios/`, and a seeded fuzz test
//! (parse + resolve never panic; every error names a line).
//!
//! Regenerate the expected traces after an intended change with
//! `UPDATE_GOLDEN=1 cargo test --release -p mafia-sim --test resolve`,
//! then read the diff: each trace must still agree with the rules.
//!
//! Besides the byte-for-byte comparison, each golden test asserts the
//! clause's outcome on the JSON trace (who died, which move failed and why),
//! written from the rules, so a regenerated file cannot silently change it.

use mafia_engine::{NIGHT_ORDER, NightChoice, ROLE_INFO, Role, Scenario, Seat, resolve_scenario};
use mafia_sim::{parse_scenario, resolve_file, to_json, to_text};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scenarios_dir() -> PathBuf {
    manifest().join("tests/scenarios")
}

fn update() -> bool {
    std::env::var_os("UPDATE_GOLDEN").is_some()
}

/// Compares `actual` with the file at `path` (or writes it under UPDATE_GOLDEN).
fn compare(path: &Path, actual: &str) {
    if update() {
        std::fs::write(path, actual).expect("write the golden file");
        return;
    }
    let expected = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e} (run with UPDATE_GOLDEN=1 to create it)", path.display()));
    if actual != expected {
        let first = actual.lines().zip(expected.lines()).position(|(a, b)| a != b).unwrap_or(0);
        panic!(
            "{} differs at line {}:\n  golden: {:?}\n  now:    {:?}\n(UPDATE_GOLDEN=1 regenerates it after an intended change)",
            path.display(),
            first + 1,
            expected.lines().nth(first),
            actual.lines().nth(first)
        );
    }
}

/// Resolves `tests/scenarios/NAME.toml`, compares its text and JSON traces
/// with `NAME.txt` and `NAME.json`, and returns the JSON.
fn golden(name: &str) -> Value {
    let dir = scenarios_dir();
    let file = dir.join(format!("{name}.toml"));
    let text = resolve_file(&file, false).unwrap_or_else(|e| panic!("{name} should resolve:\n{e}"));
    let json = resolve_file(&file, true).unwrap_or_else(|e| panic!("{name} should resolve:\n{e}"));
    compare(&dir.join(format!("{name}.txt")), &text);
    compare(&dir.join(format!("{name}.json")), &json);
    let v: Value = serde_json::from_str(&json).expect("the JSON trace parses");
    assert_eq!(v["scenario"], name, "the name defaults to the file stem");
    v
}

/// A bad scenario in `tests/scenarios/bad/`: resolving fails, and the
/// messages (file paths relative to the crate) equal `NAME.err`.
fn bad_golden(name: &str) -> String {
    let dir = scenarios_dir().join("bad");
    let file = dir.join(format!("{name}.toml"));
    let err = match resolve_file(&file, false) {
        Ok(out) => panic!("{name} should be refused, got:\n{out}"),
        Err(e) => e,
    };
    assert!(!err.diagnostics.is_empty());
    let shown = err.to_string().replace(&format!("{}/", manifest().display()), "") + "\n";
    compare(&dir.join(format!("{name}.err")), &shown);
    shown
}

// ---- Helpers over the JSON trace ----------------------------------------

fn events(v: &Value) -> Vec<&Value> {
    v["steps"].as_array().unwrap().iter().flat_map(|s| s["events"].as_array().unwrap().iter()).collect()
}

fn events_of<'a>(v: &'a Value, kind: &str) -> Vec<&'a Value> {
    events(v).into_iter().filter(|e| e["event"] == kind).collect()
}

/// The seats that died, in announcement order.
fn deaths(v: &Value) -> Vec<u64> {
    v["deaths"].as_array().unwrap().iter().map(|d| d["seat"].as_u64().unwrap()).collect()
}

/// Why `seat`'s move failed (`"blocked:robbed"`, `"target_beaten"`, …), if it did.
fn failure(v: &Value, seat: u64) -> Option<String> {
    events_of(v, "failed").into_iter().find(|e| e["seat"] == seat).map(|e| {
        let r = &e["reason"];
        match r["status"].as_str() {
            Some(status) => format!("{}:{status}", r["kind"].as_str().unwrap()),
            None => r["kind"].as_str().unwrap().to_string(),
        }
    })
}

/// Whether `seat` made a move that took effect.
fn succeeded(v: &Value, seat: u64) -> bool {
    events_of(v, "succeeded").iter().any(|e| e["seat"] == seat)
}

fn cycle_broken_at(v: &Value) -> Vec<u64> {
    events_of(v, "cycle_broken").iter().map(|e| e["seat"].as_u64().unwrap()).collect()
}

fn status_of(v: &Value, seat: u64) -> Vec<String> {
    events_of(v, "status").iter().filter(|e| e["seat"] == seat).map(|e| e["status"].to_string()).collect()
}

fn carry(v: &Value, key: &str) -> Value {
    v["carry"][key].clone()
}

fn seats(list: &[u64]) -> Value {
    Value::from(list.to_vec())
}

/// The two seats of an event about a pair (`introduced`, `bandits_meet`).
fn pair(e: &Value) -> Value {
    Value::from(vec![e["a"].clone(), e["b"].clone()])
}

/// The kinds of the killers of the `i`-th death.
fn killers(v: &Value, i: usize) -> Vec<String> {
    v["deaths"][i]["by"].as_array().unwrap().iter().map(|k| k["kind"].as_str().unwrap().to_string()).collect()
}

fn kill_failed(v: &Value, target: u64) -> Option<String> {
    events_of(v, "kill_failed")
        .into_iter()
        .find(|e| e["target"] == target)
        .map(|e| e["reason"]["kind"].as_str().unwrap().to_string())
}

// ---- Golden scenarios, named after their clauses --------------------------

/// Every golden scenario; a test below checks the folder holds exactly these.
const GOLDENS: &[&str] = &[
    "c4_c5_c6_classic_night",
    "c4_classic_nicks_disagree",
    "e10_guard_guards_another",
    "e10_guard_guards_himself",
    "e10_shot_at_guard_kills_only_guard",
    "e11_swindler_names_mafioso_fails",
    "e11_swindler_redirects_doctor",
    "e11_swindler_redirects_shooter",
    "e11_swindler_redirects_thug",
    "e12_actor_appointed",
    "e14_deputy_both_dead_first_listed",
    "e14_deputy_detective_first",
    "e14_deputy_doctor_first",
    "e15_e18_doctor_heals_hexed_lucky",
    "e17_journalist_compare",
    "e18_hex_carried_blocks",
    "e18_hex_on_healed_lifted",
    "e18_witch_dies_still_hexes",
    "e19_e16_prostitute_borrows_chosen",
    "e19_prostitute_borrows_doctor",
    "e21_lucky_spare_life_several_shots",
    "e21_lucky_spent_dies",
    "e22_e11_sleepwalker_sent_from_beaten_house",
    "e22_e26_robbed_sleepwalker_not_beaten",
    "e22_e26_thug_beats_watched_house",
    "e22_sleepwalker_sees_visitors",
    "e23_guest_dies_next_night",
    "e23_guest_healed_next_night",
    "e23_no_heal_on_invitation_night",
    "e24_blast_heal_off",
    "e24_blast_heal_on",
    "e24_blast_kills_guest",
    "e25_e28_miner_trickster_marks",
    "e25_e9_robbed_miner_fails",
    "e27_scout_report",
    "e28_trick_cannot_be_redirected",
    "e29_e11_thug_beats_swindler_who_redirects_him",
    "e29_psycho_thug_cycle",
    "e29_thief_psycho_cycle",
    "e29_thief_psycho_sequential",
    "e29_thief_thug_cycle",
    "e29_three_way_cycle",
    "e29_thug_beats_thief_graph",
    "e29_thug_beats_thief_sequential",
    "e30_kills_before_protection",
    "e3_bandits_search",
    "e6_e8_beaten_target_unreachable",
    "e7_boss_check_plain",
    "e7_boss_check_role",
    "e8_camp_kill_on_guarded",
    "e8_camp_kill_on_healed",
    "e8_camp_kill_on_invited",
    "e8_leader_decides_kill",
    "e9_thief_at_psycho_house",
];

const BAD: &[&str] = &[
    "carry_mismatch",
    "carry_on_night_one",
    "dead_player_moves",
    "e19_prostitute_night_one",
    "move_the_role_does_not_have",
    "parse_problems",
    "syntax_error",
];

fn stems(dir: &Path, ext: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension().is_some_and(|x| x == ext)).then(|| p.file_stem().unwrap().to_string_lossy().into_owned())
        })
        .collect();
    v.sort();
    v
}

#[test]
fn every_scenario_file_has_a_golden_test() {
    let mut expected: Vec<String> = GOLDENS.iter().map(|s| s.to_string()).collect();
    expected.sort();
    assert_eq!(stems(&scenarios_dir(), "toml"), expected);
    let mut bad: Vec<String> = BAD.iter().map(|s| s.to_string()).collect();
    bad.sort();
    assert_eq!(stems(&scenarios_dir().join("bad"), "toml"), bad);
    assert!(GOLDENS.len() >= 30, "about 30 golden scenarios");
}

#[test]
fn e29_thief_psycho_cycle() {
    let v = golden("e29_thief_psycho_cycle");
    assert_eq!(cycle_broken_at(&v), [2], "broken at the Thief, the highest-priority maker");
    assert_eq!(failure(&v, 3).as_deref(), Some("blocked:robbed"));
    assert_eq!(status_of(&v, 3), ["\"robbed\""]);
    assert!(status_of(&v, 2).is_empty(), "the Thief is not invited");
    assert_eq!(deaths(&v), [5]);
    assert_eq!(carry(&v, "guest"), Value::Null);
}

#[test]
fn e29_thief_psycho_sequential() {
    let v = golden("e29_thief_psycho_sequential");
    assert_eq!(v["rules"]["resolution"], "sequential");
    assert!(cycle_broken_at(&v).is_empty(), "a sequence has no cycles to break");
    assert_eq!(failure(&v, 3).as_deref(), Some("blocked:robbed"), "the earlier Thief wins");
    assert_eq!(deaths(&v), [5]);
}

#[test]
fn e29_thief_thug_cycle() {
    let v = golden("e29_thief_thug_cycle");
    assert_eq!(cycle_broken_at(&v), [2]);
    assert_eq!(failure(&v, 3).as_deref(), Some("blocked:robbed"));
    assert!(status_of(&v, 2).is_empty(), "the Thief is not beaten");
    // The Thug is robbed, not beaten: the Detective finds him.
    let checks = events_of(&v, "camp_check");
    assert_eq!(checks.len(), 1);
    assert_eq!(checks[0]["camp"], "bandits");
}

#[test]
fn e29_psycho_thug_cycle() {
    let v = golden("e29_psycho_thug_cycle");
    assert_eq!(cycle_broken_at(&v), [3], "broken at the Psycho (before the Thug)");
    assert_eq!(failure(&v, 4).as_deref(), Some("blocked:invited"));
    assert_eq!(carry(&v, "guest"), 4);
    assert!(deaths(&v).is_empty());
}

#[test]
fn e29_three_way_cycle() {
    let v = golden("e29_three_way_cycle");
    assert_eq!(cycle_broken_at(&v), [2]);
    assert_eq!(failure(&v, 3).as_deref(), Some("blocked:robbed"));
    assert_eq!(status_of(&v, 2), ["\"beaten\""], "the Thug, not invited, beats the Thief");
    assert_eq!(status_of(&v, 3), ["\"robbed\""], "the Thief's move stands: the cycle was broken at him");
    assert_eq!(carry(&v, "guest"), Value::Null);
}

#[test]
fn e29_thug_beats_thief_graph() {
    let v = golden("e29_thug_beats_thief_graph");
    assert_eq!(failure(&v, 2).as_deref(), Some("blocked:beaten"));
    assert_eq!(failure(&v, 4), None, "the Detective is not robbed");
    assert_eq!(events_of(&v, "camp_check")[0]["camp"], "mafia");
}

#[test]
fn e29_thug_beats_thief_sequential() {
    let v = golden("e29_thug_beats_thief_sequential");
    assert_eq!(failure(&v, 2), None, "the Thief moves first in the sequence");
    assert_eq!(status_of(&v, 4), ["\"robbed\""]);
    assert_eq!(failure(&v, 4).as_deref(), Some("blocked:robbed"));
    assert_eq!(status_of(&v, 2), ["\"beaten\""]);
}

#[test]
fn e29_e11_thug_beats_swindler_who_redirects_him() {
    let v = golden("e29_e11_thug_beats_swindler_who_redirects_him");
    // The cycle is broken at the Thug (higher priority than the Swindler): his beating stands as made.
    assert_eq!(cycle_broken_at(&v).len(), 1);
    assert_eq!(status_of(&v, 2), ["\"beaten\""], "{v:#}");
    assert!(events_of(&v, "redirected").is_empty(), "the swindle fails");
    assert_eq!(failure(&v, 2).as_deref(), Some("blocked:beaten"));
    assert_eq!(events_of(&v, "camp_check")[0]["camp"], "bandits", "the Detective checks the Thug");
}

#[test]
fn e11_swindler_redirects_shooter() {
    let v = golden("e11_swindler_redirects_shooter");
    let r = events_of(&v, "redirected");
    assert_eq!((r[0]["victim"].as_u64(), r[0]["from"].as_u64(), r[0]["to"].as_u64()), (Some(3), Some(1), Some(4)));
    assert_eq!(deaths(&v), [4]);
    assert_eq!(killers(&v, 0), ["shooter"]);
    assert_eq!(carry(&v, "swindled"), seats(&[3]));
}

#[test]
fn e11_swindler_redirects_thug() {
    let v = golden("e11_swindler_redirects_thug");
    assert_eq!(status_of(&v, 5), ["\"beaten\""], "the beating goes to the Doctor");
    assert!(status_of(&v, 4).is_empty());
    assert_eq!(failure(&v, 5).as_deref(), Some("blocked:beaten"));
    assert_eq!(events_of(&v, "camp_check")[0]["camp"], "bandits", "the Detective's check goes through");
}

#[test]
fn e11_swindler_redirects_doctor() {
    let v = golden("e11_swindler_redirects_doctor");
    assert_eq!(events_of(&v, "healed")[0]["seat"], 5);
    assert_eq!(deaths(&v), [4]);
    assert_eq!(carry(&v, "swindled"), seats(&[3]));
}

#[test]
fn e11_swindler_names_mafioso_fails() {
    let v = golden("e11_swindler_names_mafioso_fails");
    assert_eq!(failure(&v, 3).as_deref(), Some("target_mafia"));
    assert_eq!(status_of(&v, 4), ["\"robbed\""], "the Thief robs whom he chose");
    assert_eq!(carry(&v, "swindled"), seats(&[]));
}

#[test]
fn e15_e18_doctor_heals_hexed_lucky() {
    let v = golden("e15_e18_doctor_heals_hexed_lucky");
    assert_eq!(events_of(&v, "hex_holds")[0]["seat"], 4);
    assert_eq!(kill_failed(&v, 4).as_deref(), Some("target_healed"));
    assert!(deaths(&v).is_empty());
    assert_eq!(carry(&v, "spare_life"), seats(&[4]), "the heal saved him, not his spare life");
    assert_eq!(carry(&v, "hex_next"), seats(&[]), "a carried hex lasts one night");
}

#[test]
fn e18_hex_on_healed_lifted() {
    let v = golden("e18_hex_on_healed_lifted");
    assert_eq!(events_of(&v, "hex_lifted")[0]["seat"], 5);
    assert_eq!(carry(&v, "hex_next"), seats(&[]));
}

#[test]
fn e18_hex_carried_blocks() {
    let v = golden("e18_hex_carried_blocks");
    assert_eq!(failure(&v, 5).as_deref(), Some("blocked:hexed"));
    assert_eq!(carry(&v, "hex_next"), seats(&[2]));
}

#[test]
fn e18_witch_dies_still_hexes() {
    let v = golden("e18_witch_dies_still_hexes");
    assert_eq!(deaths(&v), [3]);
    assert_eq!(carry(&v, "hex_next"), seats(&[2]));
}

#[test]
fn e22_e26_thug_beats_watched_house() {
    let v = golden("e22_e26_thug_beats_watched_house");
    assert_eq!(events_of(&v, "beaten_watching")[0]["seat"], 4);
    assert_eq!(failure(&v, 4).as_deref(), Some("blocked:beaten"));
    assert!(events_of(&v, "learned").is_empty(), "he learns nothing");
}

#[test]
fn e19_e16_prostitute_borrows_chosen() {
    let v = golden("e19_e16_prostitute_borrows_chosen");
    assert!(succeeded(&v, 1), "her borrowed move goes through");
    assert_eq!(v["carry"]["secret_voters"], serde_json::json!([1]));
    assert_eq!(v["carry"]["borrowed"], serde_json::json!(["chosen"]));
}

#[test]
fn e22_e11_sleepwalker_sent_from_beaten_house() {
    let v = golden("e22_e11_sleepwalker_sent_from_beaten_house");
    assert!(events_of(&v, "beaten_watching").is_empty(), "he walks round the new house");
    let learned = events_of(&v, "learned");
    assert_eq!(learned[0]["seat"], 3);
    assert_eq!(learned[0]["report"]["target"], 5);
    assert_eq!(learned[0]["report"]["camps"], serde_json::json!([]), "nobody visited the new house");
}

#[test]
fn e22_e26_robbed_sleepwalker_not_beaten() {
    let v = golden("e22_e26_robbed_sleepwalker_not_beaten");
    assert!(events_of(&v, "beaten_watching").is_empty(), "robbed, he does not walk");
    assert_eq!(failure(&v, 3).as_deref(), Some("blocked:robbed"));
    assert_eq!(deaths(&v), vec![3], "reachable, the mafia's kill takes him");
}

#[test]
fn e28_trick_cannot_be_redirected() {
    let v = golden("e28_trick_cannot_be_redirected");
    assert_eq!(failure(&v, 2).as_deref(), Some("unredirectable"));
    assert!(events_of(&v, "redirected").is_empty());
    assert_eq!(v["carry"]["tricked"], serde_json::json!([4]));
}

#[test]
fn e9_thief_at_psycho_house() {
    let v = golden("e9_thief_at_psycho_house");
    assert_eq!(failure(&v, 2).as_deref(), Some("target_psycho"));
    assert!(succeeded(&v, 3), "the Psycho's invitation stands");
}

#[test]
fn e22_sleepwalker_sees_visitors() {
    let v = golden("e22_sleepwalker_sees_visitors");
    let learned = events_of(&v, "learned");
    // One camp per visitor: the Doctor and the Detective are two town visitors.
    assert_eq!(learned[0]["report"]["camps"], serde_json::json!(["town", "town", "bandits"]), "never the Thief");
    assert_eq!(kill_failed(&v, 6).as_deref(), Some("target_healed"));
}

#[test]
fn e10_guard_guards_himself() {
    let v = golden("e10_guard_guards_himself");
    assert_eq!(kill_failed(&v, 2).as_deref(), Some("target_guarded"));
    assert!(deaths(&v).is_empty());
}

#[test]
fn e10_guard_guards_another() {
    let v = golden("e10_guard_guards_another");
    assert_eq!(kill_failed(&v, 1).as_deref(), Some("target_guarded"));
    assert!(deaths(&v).is_empty());
}

#[test]
fn e10_shot_at_guard_kills_only_guard() {
    let v = golden("e10_shot_at_guard_kills_only_guard");
    assert_eq!(deaths(&v), [2, 5], "the Guard and the mafia's victim; the Boss lives");
    assert_eq!(killers(&v, 0), ["shooter"]);
}

#[test]
fn e8_camp_kill_on_guarded() {
    let v = golden("e8_camp_kill_on_guarded");
    assert_eq!(kill_failed(&v, 3).as_deref(), Some("target_guarded"));
    assert!(deaths(&v).is_empty());
}

#[test]
fn e8_camp_kill_on_healed() {
    let v = golden("e8_camp_kill_on_healed");
    assert_eq!(kill_failed(&v, 4).as_deref(), Some("target_healed"));
    assert!(deaths(&v).is_empty());
}

#[test]
fn e8_camp_kill_on_invited() {
    let v = golden("e8_camp_kill_on_invited");
    assert_eq!(kill_failed(&v, 4).as_deref(), Some("target_invited"));
    assert_eq!(carry(&v, "guest"), 4);
}

#[test]
fn e6_e8_beaten_target_unreachable() {
    let v = golden("e6_e8_beaten_target_unreachable");
    assert_eq!(failure(&v, 5).as_deref(), Some("target_beaten"));
    assert_eq!(failure(&v, 4).as_deref(), Some("blocked:beaten"));
    assert_eq!(kill_failed(&v, 4).as_deref(), Some("target_beaten"));
    assert!(deaths(&v).is_empty());
}

#[test]
fn e8_leader_decides_kill() {
    let v = golden("e8_leader_decides_kill");
    assert_eq!(deaths(&v), [6], "the Thief outranks the Guard");
    assert_eq!(v["deaths"][0]["by"][0]["decider"], 2);
}

#[test]
fn e21_lucky_spare_life_several_shots() {
    let v = golden("e21_lucky_spare_life_several_shots");
    assert_eq!(events_of(&v, "night_kill").len(), 2, "both shots reach him");
    assert_eq!(events_of(&v, "spare_life").len(), 1, "one spare life for all of them");
    assert!(deaths(&v).is_empty());
    assert_eq!(carry(&v, "spare_life"), seats(&[]));
}

#[test]
fn e21_lucky_spent_dies() {
    let v = golden("e21_lucky_spent_dies");
    assert_eq!(deaths(&v), [4]);
}

#[test]
fn e23_guest_dies_next_night() {
    let v = golden("e23_guest_dies_next_night");
    assert_eq!(deaths(&v), [5, 6], "the guest is announced first (E32)");
    assert_eq!(killers(&v, 0), ["guest"]);
    assert_eq!(v["deaths"][0]["guest"], true);
}

#[test]
fn e23_guest_healed_next_night() {
    let v = golden("e23_guest_healed_next_night");
    assert_eq!(events_of(&v, "guest_saved")[0]["seat"], 5);
    assert!(deaths(&v).is_empty());
}

#[test]
fn e23_no_heal_on_invitation_night() {
    let v = golden("e23_no_heal_on_invitation_night");
    assert_eq!(failure(&v, 4).as_deref(), Some("target_invited"));
    assert_eq!(carry(&v, "guest"), 5);
}

#[test]
fn e24_blast_kills_guest() {
    let v = golden("e24_blast_kills_guest");
    assert_eq!(deaths(&v), [5, 3], "the guest first (E32), then the Psycho");
    assert_eq!(killers(&v, 0), ["blast"]);
    assert_eq!(carry(&v, "guest"), Value::Null, "a dead guest carries nothing");
}

#[test]
fn e24_blast_heal_off() {
    let v = golden("e24_blast_heal_off");
    assert_eq!(v["rules"]["blast_heal"], false);
    assert_eq!(failure(&v, 4).as_deref(), Some("target_invited"));
    assert_eq!(deaths(&v), [5, 3]);
}

#[test]
fn e24_blast_heal_on() {
    let v = golden("e24_blast_heal_on");
    assert_eq!(v["rules"]["blast_heal"], true);
    assert_eq!(kill_failed(&v, 5).as_deref(), Some("target_healed"), "the heal saves the guest from the blast");
    assert_eq!(deaths(&v), [3]);
    assert_eq!(carry(&v, "guest"), 5, "still the guest: he dies next night unless healed");
}

#[test]
fn e27_scout_report() {
    let v = golden("e27_scout_report");
    let report = &events_of(&v, "learned")[0]["report"];
    assert_eq!(
        (report["checked"].clone(), report["robbed"].clone(), report["healed"].clone()),
        (Value::Null, 4.into(), 6.into())
    );
}

#[test]
fn e17_journalist_compare() {
    let v = golden("e17_journalist_compare");
    let report = &events_of(&v, "learned")[0]["report"];
    assert_eq!(report["same"], true);
}

#[test]
fn e7_boss_check_plain() {
    let v = golden("e7_boss_check_plain");
    let c = &events_of(&v, "boss_check")[0];
    assert_eq!((c["plain"].clone(), c["camp"].clone()), (true.into(), "town".into()));
}

#[test]
fn e7_boss_check_role() {
    let v = golden("e7_boss_check_role");
    let c = &events_of(&v, "boss_check")[0];
    assert_eq!((c["plain"].clone(), c["camp"].clone()), (false.into(), "bandits".into()));
}

#[test]
fn e14_deputy_detective_first() {
    let v = golden("e14_deputy_detective_first");
    let p = &events_of(&v, "promoted")[0];
    assert_eq!((p["seat"].clone(), p["role"].clone()), (5.into(), "detective".into()));
    assert_eq!(pair(events_of(&v, "introduced")[0]), seats(&[5, 4]));
    assert_eq!(events_of(&v, "camp_check")[0]["camp"], "mafia");
}

#[test]
fn e14_deputy_doctor_first() {
    let v = golden("e14_deputy_doctor_first");
    assert_eq!(events_of(&v, "promoted")[0]["role"], "doctor");
    assert_eq!(pair(events_of(&v, "introduced")[0]), seats(&[5, 3]));
    assert!(deaths(&v).is_empty(), "the promoted Deputy heals the mafia's target");
}

#[test]
fn e14_deputy_both_dead_first_listed() {
    let v = golden("e14_deputy_both_dead_first_listed");
    assert_eq!(v["seats"][4]["acting"], "doctor", "the Doctor died first");
    assert!(events_of(&v, "introduced").is_empty(), "nobody left to meet");
    assert_eq!(events_of(&v, "healed")[0]["by"], 5);
}

#[test]
fn e12_actor_appointed() {
    let v = golden("e12_actor_appointed");
    assert_eq!(events_of(&v, "promoted")[0]["role"], "thief");
    assert_eq!(failure(&v, 4).as_deref(), Some("blocked:robbed"));
    assert_eq!(v["next_night"]["carry"]["actor"], "thief");
}

#[test]
fn e19_prostitute_borrows_doctor() {
    let v = golden("e19_prostitute_borrows_doctor");
    assert_eq!(v["moves"][0]["event"], "borrowed");
    assert_eq!(events_of(&v, "healed")[0]["by"], 3);
    assert!(deaths(&v).is_empty());
    assert_eq!(carry(&v, "borrowed"), serde_json::json!(["doctor"]));
}

#[test]
fn e3_bandits_search() {
    let v = golden("e3_bandits_search");
    let met = events_of(&v, "bandits_meet");
    assert_eq!(met.len(), 1, "only the Thug and the Psycho meet");
    assert_eq!(pair(met[0]), seats(&[5, 3]));
}

#[test]
fn e25_e28_miner_trickster_marks() {
    let v = golden("e25_e28_miner_trickster_marks");
    assert_eq!(carry(&v, "mines"), seats(&[7]));
    assert_eq!(carry(&v, "tricked"), seats(&[6]), "a hexed Trickster still picks");
}

#[test]
fn e25_e9_robbed_miner_fails() {
    let v = golden("e25_e9_robbed_miner_fails");
    assert_eq!(failure(&v, 3).as_deref(), Some("blocked:robbed"));
    assert_eq!(carry(&v, "mines"), seats(&[]));
}

#[test]
fn e30_kills_before_protection() {
    let v = golden("e30_kills_before_protection");
    assert_eq!(v["night_order"][2], "kills");
    assert_eq!(deaths(&v), [4], "the heal comes after the kill");
    assert!(succeeded(&v, 3) || !events_of(&v, "healed").is_empty());
}

#[test]
fn c4_c5_c6_classic_night() {
    let v = golden("c4_c5_c6_classic_night");
    assert_eq!(v["camp_kill"], "unanimous");
    assert_eq!(events_of(&v, "role_check")[0]["yes"], true);
    assert_eq!(events_of(&v, "camp_check")[0]["camp"], "mafia");
    assert_eq!(deaths(&v), [5]);
    // A classic night has no step markers; the trace still shows every step.
    assert_eq!(v["steps"].as_array().unwrap().len(), NIGHT_ORDER.len());
}

#[test]
fn c4_classic_nicks_disagree() {
    let v = golden("c4_classic_nicks_disagree");
    assert_eq!(events_of(&v, "miss")[0]["reason"], "disagree");
    assert!(deaths(&v).is_empty());
}

// ---- Bad scenarios -------------------------------------------------------

#[test]
fn e19_prostitute_night_one_is_refused() {
    let err = bad_golden("e19_prostitute_night_one");
    assert!(err.contains("e19_prostitute_night_one.toml:9:1:"), "{err}");
    assert!(err.contains("no move on night 1 (E19)"), "{err}");
}

#[test]
fn carry_over_on_night_one_is_refused_item_by_item() {
    // Issue 35: nothing comes from before the game.
    let err = bad_golden("carry_on_night_one");
    for (line, what) in [
        (10, "a guest (E23)"),
        (11, "a hex (E18)"),
        (12, "a last heal or beating (E15, E26)"),
        (13, "a last heal or beating (E15, E26)"),
        (14, "a spent spare life (E21)"),
        (15, "a swindle (E11)"),
        (16, "a borrowed role (E19)"),
        (17, "a bandits' meeting (E3)"),
    ] {
        let needle = format!("carry_on_night_one.toml:{line}:");
        let hit = err.lines().find(|l| l.contains(&needle)).unwrap_or_else(|| panic!("{needle} in:\n{err}"));
        assert!(hit.contains(what) && hit.contains("night 1 has no night before it"), "{hit}");
    }
}

#[test]
fn a_move_by_a_dead_player_is_refused() {
    let err = bad_golden("dead_player_moves");
    assert!(err.contains("dead_player_moves.toml:9:1: seat 3 (doctor): the player is dead"), "{err}");
}

#[test]
fn a_move_the_role_does_not_have_is_refused() {
    let err = bad_golden("move_the_role_does_not_have");
    assert!(err.contains(":8:1: seat 4 (citizen): the citizen has no night move"), "{err}");
    assert!(err.contains(":13:1: seat 3 (doctor): only mafia members send a kill nick"), "{err}");
    // Issue 35: the Actor is a mafia member; the refusal says E12's rule.
    assert!(err.contains(":17:1: seat 7 (actor): the Actor sends no kill nick until he is appointed"), "{err}");
}

#[test]
fn parse_problems_are_all_reported_with_their_lines() {
    let err = bad_golden("parse_problems");
    for needle in [
        ":3:27: seat 3: unknown role `werewolf`",
        ":4:25: unknown night step `dusk`",
        ":5:1: unknown key `colour`",
        ":8:14: rule `resolution`: `parallel` is not valid",
        ":11:8: `dead` must be an array",
        ":12:9: guest: seat 9 does not exist (seats are 1 to 5)",
        ":16:10: target: seat 12 does not exist",
        ":20:8: kill: expected a seat number",
    ] {
        assert!(err.contains(needle), "{needle:?} in\n{err}");
    }
    assert_eq!(err.lines().count(), 8, "{err}");
}

#[test]
fn malformed_toml_names_the_line() {
    let err = bad_golden("syntax_error");
    assert!(err.contains("syntax_error.toml:5:"), "{err}");
    assert!(err.contains("invalid TOML"), "{err}");
}

#[test]
fn carry_over_that_does_not_fit_the_roles_is_refused() {
    let err = bad_golden("carry_mismatch");
    for needle in [
        ":8:10: a hex needs a Witch",
        ":9:21: seat 5 is the citizen, not the Lucky",
        ":10:13: a swindle history needs a Swindler",
        ":11:18: seats 3 and 4 are not two bandits",
    ] {
        assert!(err.contains(needle), "{needle:?} in\n{err}");
    }
}

// ---- The command line ----------------------------------------------------

fn mafia(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mafia")).args(args).output().expect("run the mafia binary")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Writes `body` to a fresh temp file and runs `mafia resolve` on it.
fn resolve_text(name: &str, body: &str, json: bool) -> Output {
    let dir = std::env::temp_dir().join(format!("mafia-resolve-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    let p = path.display().to_string();
    let out = if json { mafia(&["resolve", &p, "--json"]) } else { mafia(&["resolve", &p]) };
    let _ = std::fs::remove_file(&path);
    out
}

/// Exit code 2, no panic, nothing on stdout, and `file:LINE:` with every needle on stderr.
fn refused(name: &str, body: &str, line: usize, needles: &[&str]) {
    let out = resolve_text(name, body, false);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{name}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.stdout.is_empty(), "{name}: {}", text(&out.stdout));
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains(&format!("{name}:{line}:")), "{name}: expected line {line} in {err}");
    for n in needles {
        assert!(err.contains(n), "{name}: {n:?} not in {err}");
    }
}

const TABLE: &str = "seats = [\"boss\", \"thief\", \"doctor\", \"citizen\", \"citizen\", \"psycho\"]\n";

#[test]
fn cli_bad_scenarios_exit_2_naming_the_line() {
    refused("unknown-role.toml", "seats = [\"boss\",\n \"sheriff\", \"citizen\"]\n", 2, &["unknown role `sheriff`"]);
    refused(
        "dead-mover.toml",
        &format!("{TABLE}night = 2\n[carry]\ndead = [\"doctor\"]\n[[move]]\nseat = 3\ntarget = 4\n"),
        6,
        &["seat 3 (doctor): the player is dead"],
    );
    refused(
        "no-such-move.toml",
        &format!("{TABLE}[[move]]\nseat = 4\ntarget = 5\n"),
        4,
        &["the citizen has no night move"],
    );
    refused("out-of-range.toml", &format!("{TABLE}[[move]]\nseat = 2\ntarget = 7\n"), 4, &["seat 7 does not exist"]);
    refused("zero-seat.toml", &format!("{TABLE}[[move]]\nseat = 0\n"), 3, &["seat 0 does not exist"]);
    refused("malformed.toml", &format!("{TABLE}[[move]\nseat = 2\n"), 2, &["invalid TOML"]);
    refused("wrong-type.toml", &format!("{TABLE}night = \"two\"\n"), 2, &["`night` must be an integer"]);
    refused("unknown-key.toml", &format!("{TABLE}[[move]]\nseat = 2\naim = 3\n"), 4, &["unknown key `aim` in a move"]);
    refused(
        "night-one-borrow.toml",
        "seats = [\"boss\", \"prostitute\", \"doctor\", \"citizen\", \"citizen\", \"psycho\"]\n[carry]\ndead = [3]\n\
         [[move]]\nseat = 2\nborrow = \"doctor\"\ntarget = 4\n",
        6,
        &["no move on night 1 (E19)"],
    );
    refused(
        "self-target.toml",
        &format!("{TABLE}[[move]]\nseat = \"thief\"\ntarget = \"thief\"\n"),
        4,
        &["target 2 is not allowed: the role may not name itself"],
    );
    refused(
        "repeat-heal.toml",
        &format!("{TABLE}night = 2\n[carry]\nlast_heal = 4\n[[move]]\nseat = 3\ntarget = 4\n"),
        7,
        &["the same player as last night (E15, E26)"],
    );
    refused(
        "two-entries.toml",
        &format!("{TABLE}[[move]]\nseat = 2\ntarget = 4\n[[move]]\nseat = 2\ntarget = 5\n"),
        6,
        &["seat 2 has two entries"],
    );
    refused(
        "no-doctor.toml",
        "seats = [\"boss\", \"citizen\", \"citizen\", \"psycho\"]\n[carry]\nlast_heal = 2\n",
        3,
        &["no seat holds the doctor"],
    );
    refused("no-seats.toml", "night = 2\n", 1, &["no `seats`"]);
    refused("bad-night.toml", &format!("{TABLE}night = 0\n"), 2, &["nights count from 1"]);
    refused(
        "order.toml",
        &format!(
            "{TABLE}night_order = [\"control\", \"start\", \"protection\", \"information\", \"kills\", \"marks\", \"watchers\"]\n"
        ),
        2,
        &["start of night must come first"],
    );
    refused(
        "too-many-seats.toml",
        &format!("seats = [\"boss\", {}]\n", vec!["\"citizen\""; 64].join(", ")),
        1,
        &["at most 64"],
    );
}

#[test]
fn cli_missing_and_non_utf8_files_exit_2() {
    let out = mafia(&["resolve", "/nonexistent/night.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("/nonexistent/night.toml:1:1: cannot read the scenario file"));
    let dir = std::env::temp_dir().join(format!("mafia-resolve-utf8-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("latin1.toml");
    std::fs::write(&path, b"seats = [\"boss\"]\n# caf\xe9\n").unwrap();
    let out = mafia(&["resolve", &path.display().to_string()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("latin1.toml:2:6: the file is not UTF-8 text"), "{}", text(&out.stderr));
}

#[test]
fn cli_json_is_one_document() {
    let file = scenarios_dir().join("e29_thief_psycho_cycle.toml");
    let out = mafia(&["resolve", &file.display().to_string(), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    for key in ["seats", "moves", "steps", "deaths", "carry", "next_night"] {
        assert!(v.get(key).is_some(), "{key} in {v:#}");
    }
    assert_eq!(v["steps"].as_array().unwrap().len(), 7);
    assert_eq!(v["seats"][1]["role"], "thief");
}

#[test]
fn the_example_scenarios_all_resolve() {
    let dir = manifest().join("../scenarios");
    let files = stems(&dir, "toml");
    assert!(files.len() >= 3, "examples in {}", dir.display());
    for name in files {
        let p = dir.join(format!("{name}.toml")).display().to_string();
        for args in [vec!["resolve", p.as_str()], vec!["resolve", p.as_str(), "--json"]] {
            let out = mafia(&args);
            assert!(out.status.success(), "{p}: {}", text(&out.stderr));
            assert!(!out.stdout.is_empty());
        }
        let out = mafia(&["resolve", &p, "--json"]);
        serde_json::from_slice::<Value>(&out.stdout).unwrap_or_else(|e| panic!("{p}: {e}"));
        // The README shows each example's real output: the text trace starts with its name.
        let out = mafia(&["resolve", &p]);
        assert!(text(&out.stdout).starts_with(&format!("Scenario {name}:")), "{p}");
    }
}

#[test]
fn the_next_night_carry_block_is_a_valid_scenario_part() {
    // Night 1 of a Psycho and a Witch, then the printed carry block as night 2.
    let base = "seats = [\"boss\", \"thief\", \"psycho\", \"doctor\", \"witch\", \"lucky\", \"citizen\", \"thug\"]\n";
    let night1 = format!(
        "{base}[[move]]\nseat = 3\ntarget = 7\n[[move]]\nseat = 5\ntarget = 2\n[[move]]\nseat = 4\ntarget = 6\n\
         [[move]]\nseat = 1\nkill = 6\n[[move]]\nseat = 8\ntarget = 4\nsearch = 3\n"
    );
    let f = parse_scenario("n1.toml", &night1).unwrap();
    let r = f.resolve().unwrap();
    let out = to_text(&r);
    let block: Vec<&str> =
        out.lines().skip_while(|l| !l.starts_with("For the next night")).skip(1).map(str::trim).collect();
    let night2 = format!("{base}{}\n", block.join("\n"));
    let f2 = parse_scenario("n2.toml", &night2).unwrap_or_else(|e| panic!("{e}\n{night2}"));
    let sc = &f2.scenario;
    assert_eq!(sc.night, 2);
    assert_eq!(sc.carry.guest, Some(Seat::new(6)), "the Psycho's guest carries");
    assert_eq!(sc.carry.hexed, [Seat::new(1)], "the hex carries");
    assert!(
        sc.carry.last_targets.contains(&(Seat::new(3), Seat::new(5))),
        "the heal carries: {:?}",
        sc.carry.last_targets
    );
    assert!(
        sc.carry.last_targets.contains(&(Seat::new(7), Seat::new(3))),
        "the beating carries: {:?}",
        sc.carry.last_targets
    );
    assert_eq!(sc.carry.bandits_known, [(Seat::new(7), Seat::new(2))]);
    // The Doctor may not heal the same player again (E15).
    let again = format!("{night2}[[move]]\nseat = 4\ntarget = 6\n");
    let e = parse_scenario("n2.toml", &again).unwrap().resolve().unwrap_err();
    assert!(e.to_string().contains("the same player as last night"), "{e}");
}

// ---- Fuzz: random scenarios and mutations never panic -----------------------

fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    mafia_engine::below(rng, n as u32) as usize
}

fn chance(rng: &mut ChaCha8Rng, percent: usize) -> bool {
    below(rng, 100) < percent
}

/// A random table of 4–32 seats: named roles at most once (now and then
/// twice, which the engine refuses), plain players for the rest.
fn random_roles(rng: &mut ChaCha8Rng) -> Vec<Role> {
    let n = 4 + below(rng, 29);
    let mut named: Vec<Role> = Role::ALL.into_iter().filter(|r| !r.info().plain).collect();
    for i in (1..named.len()).rev() {
        let j = below(rng, i + 1);
        named.swap(i, j);
    }
    let k = below(rng, n.min(named.len()) + 1);
    let mut roles: Vec<Role> = named[..k].to_vec();
    if chance(rng, 3) && !roles.is_empty() {
        roles.push(roles[0]);
    }
    while roles.len() < n {
        roles.push(if chance(rng, 30) { Role::Mafioso } else { Role::Citizen });
    }
    for i in (1..roles.len()).rev() {
        let j = below(rng, i + 1);
        roles.swap(i, j);
    }
    roles
}

/// A seat, mostly in range, sometimes not (the engine and the reader refuse those).
fn any_seat(rng: &mut ChaCha8Rng, n: usize) -> Seat {
    if chance(rng, 3) { Seat::from_index(n + below(rng, 3)) } else { Seat::from_index(below(rng, n)) }
}

fn random_scenario(rng: &mut ChaCha8Rng) -> Scenario {
    let roles = random_roles(rng);
    let n = roles.len();
    let mut sc =
        Scenario { name: "fuzz".into(), roles: roles.clone(), night: below(rng, 5) as u16, ..Scenario::default() };
    if chance(rng, 20) {
        sc.rules.resolution = mafia_engine::Resolution::Sequential;
    }
    sc.rules.blast_heal = chance(rng, 30);
    if chance(rng, 10) {
        let mut order = NIGHT_ORDER.to_vec();
        for i in (2..order.len()).rev() {
            let j = 1 + below(rng, i);
            order.swap(i, j);
        }
        if chance(rng, 20) {
            order.pop();
        }
        sc.night_order = Some(order);
    }
    let holder = |r: Role| roles.iter().position(|&x| x == r).map(Seat::from_index);
    for _ in 0..below(rng, n / 3 + 1) {
        sc.carry.dead.push(any_seat(rng, n));
    }
    if chance(rng, 15) {
        sc.carry
            .acting
            .push((holder(Role::Actor).unwrap_or(Seat::new(0)), ROLE_INFO[below(rng, ROLE_INFO.len())].role));
    }
    if chance(rng, 15) {
        sc.carry
            .acting
            .push((holder(Role::Deputy).unwrap_or(Seat::new(0)), [Role::Detective, Role::Doctor][below(rng, 2)]));
    }
    if chance(rng, 20) {
        sc.carry.hexed.push(any_seat(rng, n));
    }
    if chance(rng, 20) {
        sc.carry.guest = Some(any_seat(rng, n));
    }
    if chance(rng, 20) {
        sc.carry.last_targets.push((holder(Role::Thug).unwrap_or(Seat::new(0)), any_seat(rng, n)));
    }
    if chance(rng, 20) {
        sc.carry.last_targets.push((holder(Role::Doctor).unwrap_or(Seat::new(0)), any_seat(rng, n)));
    }
    if chance(rng, 15) {
        sc.carry.spare_life_spent.push(any_seat(rng, n));
    }
    for _ in 0..below(rng, 3) {
        if chance(rng, 30) {
            sc.carry.swindled.push(any_seat(rng, n));
        }
    }
    if chance(rng, 20) {
        sc.carry.borrowed.push(ROLE_INFO[below(rng, ROLE_INFO.len())].role);
    }
    if chance(rng, 15) {
        sc.carry.bandits_known.push((any_seat(rng, n), any_seat(rng, n)));
    }
    for s in 0..n {
        if !chance(rng, 60) {
            continue;
        }
        let maybe = |rng: &mut ChaCha8Rng, p: usize| if chance(rng, p) { Some(any_seat(rng, n)) } else { None };
        let choice = NightChoice {
            act: maybe(rng, 70),
            second: maybe(rng, 15),
            kill: maybe(rng, 25),
            search: maybe(rng, 15),
            borrow: if chance(rng, 8) { Some(ROLE_INFO[below(rng, ROLE_INFO.len())].role) } else { None },
            // The night calculator takes the moves as sent, the Boss's included (E7): no deferral.
            defer: false,
        };
        sc.moves.push((if chance(rng, 3) { any_seat(rng, n) } else { Seat::from_index(s) }, choice));
    }
    sc
}

/// Drops what the engine refuses (by the paths of its problems) until the
/// scenario resolves; `None` when the table itself is refused.
fn repair(mut sc: Scenario) -> Option<Scenario> {
    for _ in 0..200 {
        let Err(e) = resolve_scenario(&sc, &mut mafia_engine::NoLog) else { return Some(sc) };
        let mut drop: Vec<(String, usize)> = Vec::new();
        for p in &e.problems {
            match p.path.split_once('.') {
                Some((list, i)) if list != "roles" && list != "rules" => drop.push((list.into(), i.parse().ok()?)),
                _ => match p.path.as_str() {
                    "night" => sc.night = 1,
                    "guest" => sc.carry.guest = None,
                    "night_order" => sc.night_order = None,
                    _ => return None,
                },
            }
        }
        // Later indices first, so earlier ones stay valid.
        drop.sort_by_key(|d| std::cmp::Reverse(d.1));
        for (list, i) in drop {
            match list.as_str() {
                "dead" => drop_at(&mut sc.carry.dead, i),
                "acting" => drop_at(&mut sc.carry.acting, i),
                "hexed" => drop_at(&mut sc.carry.hexed, i),
                "last_targets" => drop_at(&mut sc.carry.last_targets, i),
                "spare_life_spent" => drop_at(&mut sc.carry.spare_life_spent, i),
                "swindled" => drop_at(&mut sc.carry.swindled, i),
                "borrowed" => drop_at(&mut sc.carry.borrowed, i),
                "bandits_known" => drop_at(&mut sc.carry.bandits_known, i),
                "moves" => drop_at(&mut sc.moves, i),
                _ => return None,
            }
        }
    }
    None
}

fn drop_at<T>(v: &mut Vec<T>, i: usize) {
    if i < v.len() {
        v.remove(i);
    }
}

/// A seat in a file: its number, or its role when exactly one seat holds it.
fn seat_ref(rng: &mut ChaCha8Rng, roles: &[Role], s: Seat) -> String {
    let r = roles.get(s.index()).copied();
    match r {
        Some(r) if roles.iter().filter(|&&x| x == r).count() == 1 && chance(rng, 40) => format!("\"{r}\""),
        _ => (s.index() + 1).to_string(),
    }
}

/// The scenario as a file, in the form the reader reads back to the same
/// scenario (last targets: the Thug's as `last_beating`, the one acting as
/// the Doctor's as `last_heal`).
fn to_file(rng: &mut ChaCha8Rng, sc: &Scenario) -> Option<String> {
    let roles = &sc.roles;
    let mut o = String::new();
    o += &format!("name = \"{}\"\nnight = {}\n", sc.name, sc.night);
    let names: Vec<String> = roles.iter().map(|r| format!("\"{r}\"")).collect();
    o += &format!("seats = [{}]\n", names.join(", "));
    if let Some(order) = &sc.night_order {
        let keys: Vec<String> = order.iter().map(|s| format!("\"{}\"", s.key())).collect();
        o += &format!("night_order = [{}]\n", keys.join(", "));
    }
    o += &format!(
        "[rules]\nresolution = \"{}\"\nblast_heal = {}\n",
        sc.rules.get("resolution").unwrap(),
        sc.rules.blast_heal
    );
    o += "[carry]\n";
    let list =
        |rng: &mut ChaCha8Rng, v: &[Seat]| v.iter().map(|&s| seat_ref(rng, roles, s)).collect::<Vec<_>>().join(", ");
    o += &format!("dead = [{}]\n", list(rng, &sc.carry.dead));
    for &(s, r) in &sc.carry.acting {
        let key = match roles.get(s.index()) {
            Some(Role::Actor) => "actor",
            Some(Role::Deputy) => "deputy",
            _ => return None,
        };
        o += &format!("{key} = \"{r}\"\n");
    }
    o += &format!("hexed = [{}]\n", list(rng, &sc.carry.hexed));
    if let Some(g) = sc.carry.guest {
        o += &format!("guest = {}\n", seat_ref(rng, roles, g));
    }
    // The reader puts `last_beating` first (in key order) and `last_heal` last.
    let mut beat = false;
    for (i, &(s, t)) in sc.carry.last_targets.iter().enumerate() {
        let acting_doctor = sc.carry.acting.iter().any(|&(d, r)| d == s && r == Role::Doctor);
        match roles.get(s.index()) {
            Some(Role::Thug) if i == 0 => {
                o += &format!("last_beating = {}\n", seat_ref(rng, roles, t));
                beat = true;
            }
            Some(Role::Doctor) | Some(Role::Deputy)
                if (i == 0 || beat) && (acting_doctor || roles[s] == Role::Doctor) =>
            {
                let deputy_doc = sc.carry.acting.iter().any(|&(_, r)| r == Role::Doctor);
                if roles[s] == Role::Doctor && deputy_doc {
                    return None;
                }
                o += &format!("last_heal = {}\n", seat_ref(rng, roles, t));
            }
            _ => return None,
        }
    }
    o += &format!("spare_life_spent = [{}]\n", list(rng, &sc.carry.spare_life_spent));
    o += &format!("swindled = [{}]\n", list(rng, &sc.carry.swindled));
    let borrowed: Vec<String> = sc.carry.borrowed.iter().map(|r| format!("\"{r}\"")).collect();
    o += &format!("borrowed = [{}]\n", borrowed.join(", "));
    let pairs: Vec<String> = sc
        .carry
        .bandits_known
        .iter()
        .map(|&(a, b)| format!("[{}, {}]", seat_ref(rng, roles, a), seat_ref(rng, roles, b)))
        .collect();
    o += &format!("bandits_known = [{}]\n", pairs.join(", "));
    for (s, c) in &sc.moves {
        o += &format!("\n[[move]]\nseat = {}\n", seat_ref(rng, roles, *s));
        for (key, v) in [("target", c.act), ("second", c.second), ("kill", c.kill), ("search", c.search)] {
            if let Some(t) = v {
                o += &format!("{key} = {}\n", seat_ref(rng, roles, t));
            }
        }
        if let Some(r) = c.borrow {
            o += &format!("borrow = \"{r}\"\n");
        }
    }
    Some(o)
}

/// Parses and resolves `text`: never a panic; either a trace (text and
/// JSON render) or diagnostics, each on a line of the file.
fn check_text(text: &str) -> bool {
    let lines = text.lines().count().max(1) + 1;
    match parse_scenario("fuzz.toml", text).and_then(|f| f.resolve()) {
        Ok(r) => {
            assert!(to_text(&r).starts_with("Scenario "));
            assert!(to_json(&r).is_object());
            true
        }
        Err(e) => {
            assert!(!e.diagnostics.is_empty(), "an error names a problem:\n{text}");
            for d in &e.diagnostics {
                assert!((1..=lines).contains(&d.line) && d.col >= 1, "{d:?} outside the file:\n{text}");
                assert!(!d.message.is_empty());
            }
            false
        }
    }
}

const MUTATION_CHARS: &[u8] = b"[]{}=,\"'#.\n 0123456789-+_abcdefghijklmnopqrstuvwxyz";

fn mutate(rng: &mut ChaCha8Rng, text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for _ in 0..1 + below(rng, 3) {
        if lines.is_empty() {
            break;
        }
        let i = below(rng, lines.len());
        match below(rng, 6) {
            0 => {
                lines.remove(i);
            }
            1 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            2 => {
                let j = below(rng, lines.len());
                lines.swap(i, j);
            }
            3 => {
                // Replace one byte by a TOML-ish character (kept valid UTF-8 by working on chars).
                let mut chars: Vec<char> = lines[i].chars().collect();
                if !chars.is_empty() {
                    let k = below(rng, chars.len());
                    chars[k] = MUTATION_CHARS[below(rng, MUTATION_CHARS.len())] as char;
                }
                lines[i] = chars.into_iter().collect();
            }
            4 => {
                let token =
                    ["9999", "-1", "\"x\"", "[", "]", "{", "true", "1.5", "=", "\"thief\"", "[[move]]", "[carry]"]
                        [below(rng, 12)];
                let at = below(rng, lines[i].chars().count() + 1);
                let mut chars: Vec<char> = lines[i].chars().collect();
                chars.splice(at..at, token.chars());
                lines[i] = chars.into_iter().collect();
            }
            _ => {
                let cut = below(rng, lines[i].chars().count() + 1);
                lines[i] = lines[i].chars().take(cut).collect();
                lines.truncate(i + 1);
            }
        }
    }
    lines.join("\n") + "\n"
}

#[test]
fn fuzz_random_scenarios_and_mutations_never_panic() {
    let mut rng = ChaCha8Rng::seed_from_u64(29);
    let (mut resolved, mut refused, mut valid) = (0, 0, 0);
    for _ in 0..5000 {
        let sc = random_scenario(&mut rng);
        // The raw random scenario, illegal moves and all.
        if let Some(text) = to_file(&mut rng, &sc) {
            if check_text(&text) { resolved += 1 } else { refused += 1 }
        }
        // The same scenario with what the engine refuses dropped: it must
        // resolve through the file too, and read back to the same scenario.
        let Some(good) = repair(sc) else { continue };
        let Some(text) = to_file(&mut rng, &good) else { continue };
        let f = parse_scenario("fuzz.toml", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(f.scenario, good, "{text}");
        assert!(check_text(&text), "a repaired scenario resolves:\n{text}");
        valid += 1;
        for _ in 0..3 {
            let m = mutate(&mut rng, &text);
            if check_text(&m) { resolved += 1 } else { refused += 1 }
        }
    }
    // The generator reaches both outcomes, often.
    assert!(valid > 2000, "valid {valid}");
    assert!(resolved > 1000 && refused > 1000, "resolved {resolved}, refused {refused}");
}
