//! The `strategikon` program run as a user runs it: arguments in, text and files out, errors on
//! standard error with a non-zero exit.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_strategikon")).args(args).current_dir(root()).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("strategikon-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

const SCENARIO: &str = "scenarios/movement/ford.toml";

#[test]
fn rulesets_lists_movement_with_its_version() {
    let o = run(&["rulesets"]);
    assert!(o.status.success());
    assert!(stdout(&o).lines().any(|l| l.starts_with("movement\t")), "{}", stdout(&o));
}

#[test]
fn every_subcommand_has_help() {
    for sub in ["rulesets", "validate", "render", "replay", "referee", "battle"] {
        let o = run(&[sub, "--help"]);
        assert!(o.status.success(), "{sub} --help failed");
        assert!(stdout(&o).contains("Usage: strategikon"), "{sub}: {}", stdout(&o));
    }
}

#[test]
fn a_nonsense_option_is_a_usage_error() {
    let o = run(&["render", SCENARIO, "--frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--frobnicate"));
}

#[test]
fn validate_accepts_the_ready_scenarios() {
    let o = run(&["validate", SCENARIO]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("ok (movement scenario)"));
}

#[test]
fn validate_reports_every_problem_with_file_line_and_column() {
    let good = std::fs::read_to_string(root().join(SCENARIO)).unwrap();
    // Two independent mistakes: an unknown field in the first unit, and a bad weather value.
    let bad = good.replacen("[[unit]]\n", "[[unit]]\ncolour = \"red\"\n", 1).replacen(
        "weather = \"dry\"",
        "weather = \"sunny\"",
        1,
    );
    let path = tmp("bad.toml");
    std::fs::write(&path, bad).unwrap();
    let o = run(&["validate", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("colour"), "{err}");
    assert!(err.contains("sunny"), "{err}");
    let located = err.lines().filter(|l| l.starts_with(&format!("{}:", path.display()))).count();
    assert!(located >= 2, "each problem names file:line:column: {err}");
}

#[test]
fn validate_refuses_a_file_of_no_known_rule_set() {
    let path = tmp("chess.toml");
    std::fs::write(&path, "ruleset = \"chess\"\n").unwrap();
    let o = run(&["validate", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("unknown rule set 'chess'"), "{}", stderr(&o));
    let o = run(&["validate", "no/such/file.toml"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cannot read"), "{}", stderr(&o));
}

#[test]
fn render_draws_svg_and_png() {
    let svg = tmp("ford.svg");
    let o = run(&["render", SCENARIO, "-o", svg.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") || text.starts_with("<?xml"));
    let png = tmp("ford.png");
    let o = run(&["render", SCENARIO, "-o", png.to_str().unwrap(), "--scale", "8"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(&std::fs::read(&png).unwrap()[..8], b"\x89PNG\r\n\x1a\n");
    let o = run(&["render", SCENARIO, "-o", tmp("ford.gif").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains(".svg or .png"));
}

#[test]
fn a_battle_record_replays_and_a_tampered_one_is_caught() {
    let record = tmp("game.json");
    let o =
        run(&["battle", SCENARIO, "--seed", "3", "--record", record.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("result:"));

    let o = run(&["replay", record.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("verified: movement"), "{out}");
    assert!(out.contains("[MOV-"), "the log cites rules: {out}");

    // Change the first recorded hash: replay names command 0 as the divergence.
    let mut rec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    rec["commands"][0]["hash"] = serde_json::json!("0123456789abcdef");
    let tampered = tmp("tampered.json");
    std::fs::write(&tampered, serde_json::to_string(&rec).unwrap()).unwrap();
    let o = run(&["replay", tampered.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("diverges at command 0"), "{}", stderr(&o));

    let o = run(&[
        "render",
        record.to_str().unwrap(),
        "-o",
        tmp("mid.svg").to_str().unwrap(),
        "--after",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn battle_refuses_an_unknown_bot() {
    let o = run(&["battle", SCENARIO, "--red", "napoleon"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("unknown bot 'napoleon'"));
}

#[test]
fn referee_answers_the_chapter_worked_example() {
    let o = run(&["referee", "movement", "scenarios/movement/referee/worked_example.json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let answer: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let text = answer.to_string();
    assert!(text.contains("MOV-TER"), "{text}");
}

#[test]
fn referee_refuses_malformed_questions_without_panicking() {
    let path = tmp("q.json");
    std::fs::write(&path, "{\"question\": \"path_cost\", \"unit\": 7}").unwrap();
    let o = run(&["referee", "movement", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    std::fs::write(&path, "{not json").unwrap();
    let o = run(&["referee", "movement", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains(":1:2"), "{}", stderr(&o));
    let o = run(&["referee", "chess", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("unknown rule set 'chess'"), "{}", stderr(&o));
}
