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

/// A file named `name` in a fresh temporary folder, removed (with the folder) when the value
/// is dropped.
struct Tmp {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

impl std::ops::Deref for Tmp {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for Tmp {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

fn tmp(name: &str) -> Tmp {
    let dir = tempfile::Builder::new().prefix("strategikon-cli-").tempdir().unwrap();
    let path = dir.path().join(name);
    Tmp { _dir: dir, path }
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
    for sub in ["rulesets", "validate", "render", "replay", "referee", "battle", "sim"] {
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
fn battle_writes_every_event_as_a_json_line_with_its_command_and_rules() {
    let events = tmp("events.jsonl");
    let log = run(&["battle", "scenarios/wrg1969/the_ford.toml", "--seed", "7"]);
    assert!(log.status.success(), "{}", stderr(&log));
    let o = run(&[
        "battle",
        "scenarios/wrg1969/the_ford.toml",
        "--seed",
        "7",
        "--events",
        events.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&events).unwrap();
    let rows: Vec<serde_json::Value> =
        text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    // One row per log line, in order, the same words as the printed log.
    let printed = stdout(&log);
    let printed: Vec<&str> = printed.lines().filter(|l| l.starts_with('[')).collect();
    let texts: Vec<&str> = rows.iter().map(|r| r["text"].as_str().unwrap()).collect();
    assert_eq!(texts, printed);
    let mut last_command = 0;
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r["seq"], i);
        assert!(!r["rules"].as_array().unwrap().is_empty(), "{r}");
        assert!(r["event"].is_object(), "{r}");
        // Commands count up from 0 (WRG's set-up has no events).
        let c = r["command"].as_u64().unwrap();
        assert!(c >= last_command);
        last_command = c;
    }
    assert!(last_command > 10, "a whole battle: {last_command} commands");
}

#[test]
fn battle_refuses_an_unknown_bot() {
    let o = run(&["battle", SCENARIO, "--red", "napoleon"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("unknown bot 'napoleon'"));
    assert!(stderr(&o).contains("known bots are random, mcts"), "{}", stderr(&o));
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

#[test]
fn rulesets_list_their_bots() {
    let o = run(&["rulesets"]);
    assert!(stdout(&o).lines().any(|l| l.starts_with("movement\t") && l.contains("random, mcts")));
}

#[test]
fn a_battle_report_holds_the_log_with_rule_ids_and_the_table_turn_by_turn() {
    let report = tmp("report.html");
    let o = run(&["battle", SCENARIO, "--seed", "4", "--report", report.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    // Every log line printed is in the report, with its rule IDs.
    let out = stdout(&o);
    let printed: Vec<&str> = out.lines().filter(|l| l.starts_with("[MOV-")).collect();
    assert!(printed.len() > 20, "{}", stdout(&o));
    assert!(html.matches("<span class=\"rule\">[MOV-").count() >= printed.len());
    assert!(html.contains("d6") || html.contains("MOV-GEN-01"), "rolls and rules are cited");
    // The table at the start, at the start of each of the 8 turns after the first, and at the
    // end: one self-contained board each, with element IDs kept apart.
    assert_eq!(html.matches("<svg").count(), 1 + 7 + 1, "boards");
    assert!(html.contains("Turn 8") && html.contains("The end of the battle"));
    assert!(html.contains("stk0-") && html.contains("stk8-"));
    assert!(html.contains("Losses and morale") && html.contains("pieces on the table"));
    assert!(html.contains("result: "), "the result is stated");
    // The record is embedded and replays.
    let start = html.find("<script type=\"application/json\" id=\"record\">").unwrap();
    let json = &html[start..];
    let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
    let record = tmp("from-report.json");
    std::fs::write(&record, json).unwrap();
    let o = run(&["replay", record.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn a_battle_between_search_bots_is_reproducible() {
    let play = || {
        let o = run(&["battle", SCENARIO, "--red", "mcts:iterations=2,depth=3", "--seed", "9"]);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let first = play();
    assert!(first.contains("red mcts (2 iterations"), "{first}");
    assert_eq!(first, play());
}

fn sim_json(threads: &str) -> serde_json::Value {
    let o = run(&["sim", SCENARIO, "--games", "8", "--threads", threads, "--seed", "5", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("--json prints JSON");
    assert_eq!(v["timing"]["threads"], serde_json::json!(threads.parse::<u64>().unwrap()));
    v.as_object_mut().unwrap().remove("timing");
    v
}

#[test]
fn sim_results_are_the_same_for_any_number_of_threads() {
    let one = sim_json("1");
    assert_eq!(one, sim_json("2"));
    assert_eq!(one, sim_json("3"));
    assert_eq!(one["games"], 8);
    let o = &one["outcomes"];
    let total: u64 = ["red_wins", "blue_wins", "draws", "unfinished"]
        .iter()
        .map(|k| o[k]["count"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 8);
    for k in ["red_wins", "blue_wins", "draws"] {
        let (lo, p, hi) = (
            o[k]["low"].as_f64().unwrap(),
            o[k]["share"].as_f64().unwrap(),
            o[k]["high"].as_f64().unwrap(),
        );
        assert!(0.0 <= lo && lo <= p && p <= hi && hi <= 1.0, "{k}: {o}");
    }
    assert_eq!(one["length"]["turns"]["max"], 8.0);
    assert!(one["length"]["commands"]["mean"].as_f64().unwrap() > 10.0);
    assert!(one["sides"]["red"]["pieces_on_table"]["mean"].as_f64().is_some(), "{one}");
}

#[test]
fn a_sim_game_is_the_battle_with_its_seed() {
    // Game 2 of a simulation with master seed 5 is `battle --seed 7`.
    let o = run(&["sim", SCENARIO, "--games", "3", "--seed", "5", "--json", "--threads", "2"]);
    let sim: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let mut wins = [0u64; 3];
    for seed in 5..8 {
        let o = run(&["battle", SCENARIO, "--seed", &seed.to_string(), "--quiet"]);
        let out = stdout(&o);
        let i = if out.contains("red wins") {
            0
        } else if out.contains("blue wins") {
            1
        } else {
            2
        };
        wins[i] += 1;
    }
    let got =
        ["red_wins", "blue_wins", "draws"].map(|k| sim["outcomes"][k]["count"].as_u64().unwrap());
    assert_eq!(got, wins);
}

#[test]
fn sim_prints_a_table_and_draws_its_distributions() {
    let plot = tmp("sim.svg");
    let o = run(&["sim", SCENARIO, "--games", "4", "--plot", plot.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for want in ["red wins", "blue wins", "draws", "95% interval", "commands", "turns", "games/s"] {
        assert!(out.contains(want), "{want}: {out}");
    }
    assert!(stderr(&o).is_empty(), "no progress bar off a terminal: {}", stderr(&o));
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("Outcomes of 4 games") && svg.contains("Battle length"));
    // Well-formed: every element opened is closed, by `/>` or by its closing tag.
    let closing = svg.matches("</").count();
    assert_eq!(svg.matches('<').count() - closing, svg.matches("/>").count() + closing);
}

#[test]
fn bad_input_is_refused_with_a_message_never_a_panic() {
    let record = tmp("sim-record.json");
    let o = run(&["battle", SCENARIO, "--quiet", "--record", record.to_str().unwrap()]);
    assert!(o.status.success());
    let bad_scenario = tmp("sim-bad.toml");
    std::fs::write(&bad_scenario, "ruleset = \"movement\"\n[scenario]\nname = 3\n").unwrap();
    let cases: Vec<(Vec<&str>, i32, &str)> = vec![
        (vec!["sim", SCENARIO, "--red", "napoleon"], 1, "known bots are random, mcts"),
        (vec!["sim", SCENARIO, "--blue", "mcts:lots"], 1, "is not a budget"),
        (vec!["sim", SCENARIO, "--blue", "mcts:speed=3"], 1, "no parameter 'speed'"),
        (vec!["sim", SCENARIO, "--blue", "random:3"], 1, "takes no parameters"),
        (vec!["sim", SCENARIO, "--red", "mc ts"], 1, "is not a bot"),
        (vec!["sim", SCENARIO, "--games", "0"], 2, "--games"),
        (vec!["sim", SCENARIO, "--threads", "0"], 2, "--threads"),
        (vec!["sim", SCENARIO, "--games", "many"], 2, "--games"),
        (vec!["sim", record.to_str().unwrap()], 1, "not a game record"),
        (vec!["battle", record.to_str().unwrap()], 1, "not a game record"),
        (vec!["sim", bad_scenario.to_str().unwrap()], 1, "sim-bad.toml:3"),
        (vec!["battle", bad_scenario.to_str().unwrap()], 1, "sim-bad.toml:3"),
        (vec!["sim", "no/such.toml"], 1, "cannot read"),
        (vec!["battle", SCENARIO, "--max-commands", "3"], 1, "did not end within 3 commands"),
        (vec!["sim", SCENARIO, "--frobnicate"], 2, "--frobnicate"),
    ];
    for (args, code, message) in cases {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(code), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn a_sim_with_games_that_do_not_end_counts_them_unfinished() {
    let o = run(&["sim", SCENARIO, "--games", "3", "--max-commands", "5", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["outcomes"]["unfinished"]["count"], 3);
    assert_eq!(v["length"]["commands"]["max"], 5.0);
}

#[test]
fn referee_wrg1969_answers_the_slingers_example_and_the_rule_beyond_twenty() {
    let o = run(&["referee", "wrg1969", "scenarios/wrg1969/referee/slingers_example.json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let a: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(a["total"], 2, "{a:#}");
    assert_eq!(a["men"], 13, "{a:#}");
    assert_eq!(a["removal"]["figures_removed"], 0, "{a:#}");
    assert_eq!(a["removal"]["carried"], 13, "{a:#}");
    let o = run(&["referee", "wrg1969", "scenarios/wrg1969/referee/beyond_twenty.json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let a: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(a["men"], 51, "{a:#}");
}

#[test]
fn validate_checks_wrg1969_scenarios_and_army_lists() {
    let o = run(&[
        "validate",
        "scenarios/wrg1969/the_hill.toml",
        "crates/wrg1969/data/armies/gallic.toml",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("wrg1969 army list, 778 points"), "{}", stdout(&o));
    let army =
        std::fs::read_to_string(root().join("crates/wrg1969/data/armies/gallic.toml")).unwrap();
    let path = tmp("gallic_unknown_key.toml");
    std::fs::write(&path, army.replacen("competition = true", "competition = true\nlegion = 3", 1))
        .unwrap();
    let o = run(&["validate", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("legion"), "{}", stderr(&o));
    let o = run(&[
        "render",
        "crates/wrg1969/data/armies/gallic.toml",
        "-o",
        tmp("g.svg").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("an army list has no table"), "{}", stderr(&o));
}

#[test]
fn an_othw_battle_plays_to_its_end_and_replays() {
    let record = tmp("othw.json");
    let o = run(&[
        "battle",
        "scenarios/othw/open_field.toml",
        "--seed",
        "2",
        "--record",
        record.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("result:"), "{}", stdout(&o));
    let o = run(&["replay", record.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("verified: othw"), "{}", stdout(&o));
}

#[test]
fn duel_gives_exact_odds_that_sum_to_one() {
    let o = run(&[
        "duel",
        "othw",
        "--attacker",
        "generic:Heavy Infantry",
        "--defender",
        "generic:Infantry",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let a: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // The hand calculation is in crates/othw/tests/duel.rs.
    assert_eq!(a["attacker"]["odds"]["wins"]["exact"], "203/648", "{a:#}");
    assert_eq!(a["draw"]["exact"], "1945/3888", "{a:#}");
    assert_eq!(a["defender"]["odds"]["wins"]["exact"], "725/3888", "{a:#}");
    let o = run(&["duel", "othw", "--attacker", "Nobody", "--defender", "Warband"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("unknown unit 'Nobody'"), "{}", stderr(&o));
    let o = run(&[
        "duel",
        "othw",
        "--attacker",
        "Legion",
        "--defender",
        "Warband",
        "--terrain",
        "swamp",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&[
        "duel",
        "othw",
        "--attacker",
        "Legion",
        "--defender",
        "Warband",
        "--general",
        "Caesar",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("known generals are"), "{}", stderr(&o));
}

/// `duel` breaks a winner left alone at 0 (OTHW-FLT-01), takes each fighter's strength and
/// added traits, and a general on either side.
#[test]
fn duel_takes_strengths_traits_and_both_generals() {
    let o =
        run(&["duel", "othw", "--attacker", "Scythed Chariots", "--defender", "Warband", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let a: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // The chariots (S2) break whenever a 3-dice Warband scores 2 or more at 4+, winning or not.
    assert_eq!(a["attacker"]["odds"]["breaks"]["exact"], "1/2", "{a:#}");
    let o = run(&[
        "duel",
        "othw",
        "--attacker",
        "generic:Infantry",
        "--defender",
        "generic:Infantry",
        "--sp",
        "2,4",
        "--attacker-traits",
        "phalanx,throwing_spears",
        "--defender-general",
        "Hannibal",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let a: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(a["attacker"]["strength"], 2, "{a:#}");
    assert_eq!(a["attacker"]["traits"], serde_json::json!(["throwing_spears", "phalanx"]), "{a:#}");
    // Below full strength the throwing spears add nothing: 2 dice.
    assert_eq!(a["attacker"]["odds"]["dice"], 2, "{a:#}");
    assert_eq!(a["defender_general"], "Hannibal", "{a:#}");
    assert!(a["defender"]["odds"]["general_out_of_action"]["p"].as_f64().unwrap() > 0.0);
    for (args, want) in [
        (&["--sp", "5,1"][..], "strength must be 1 to 4"),
        (&["--attacker-traits", "phalanks"][..], "unknown trait 'phalanks'"),
        (&["--defender-traits", "indian,african"][..], "not both"),
    ] {
        let mut all =
            vec!["duel", "othw", "--attacker", "generic:Infantry", "--defender", "Elephants"];
        all.extend_from_slice(args);
        let o = run(&all);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(stderr(&o).contains(want), "{}", stderr(&o));
    }
    let o = run(&["duel", "othw", "--attacker", "Legion", "--defender", "Warband", "--sp", "3"]);
    assert_eq!(o.status.code(), Some(2), "a usage error");
}

#[test]
fn a_wrg1969_battle_between_scripted_generals_reports_replays_and_simulates() {
    let record = tmp("wrg.json");
    let report = tmp("wrg.html");
    let o = run(&[
        "battle",
        "scenarios/wrg1969/the_ford.toml",
        "--red",
        "scripted",
        "--blue",
        "scripted",
        "--seed",
        "3",
        "--record",
        record.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let log = stdout(&o);
    assert!(log.contains("[WRG-ORD-01] red writes its orders"), "{log}");
    assert!(log.contains("[WRG-RTP-01]"), "every test's dice are in the log");
    assert!(log.contains("[WRG-VIC-01] after 30 periods"), "{log}");
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(html.contains("<svg") && html.contains("WRG 1969"), "the report draws the table");
    let o = run(&["replay", record.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(&[
        "sim",
        "scenarios/wrg1969/the_hill.toml",
        "--games",
        "6",
        "--red",
        "scripted",
        "--blue",
        "random",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["games"], 6);
    let o = run(&["validate", "scenarios/wrg1969/championship/finals.toml"]);
    assert!(stdout(&o).contains("wrg1969 championship, 4 entries"), "{}", stdout(&o));
}

#[test]
fn a_wrg1969_report_draws_only_the_viewing_sides_orders() {
    let marks = |view: &str| {
        let report = tmp(&format!("wrg-view-{view}.html"));
        let o = run(&[
            "battle",
            "scenarios/wrg1969/the_ford.toml",
            "--red",
            "scripted",
            "--blue",
            "scripted",
            "--seed",
            "3",
            "--quiet",
            "--report",
            report.to_str().unwrap(),
            "--view",
            view,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        std::fs::read_to_string(&report).unwrap().matches("class=\"mark\"").count()
    };
    let (spectator, red, blue, umpire) =
        (marks("spectator"), marks("red"), marks("blue"), marks("umpire"));
    assert_eq!(spectator, 0, "a spectator sees no orders");
    assert!(red > 0 && blue > 0);
    assert_eq!(red + blue, umpire, "each side sees its own orders, the umpire both");
    let o = run(&["battle", "scenarios/wrg1969/the_ford.toml", "--view", "green"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not red, blue, spectator or umpire"), "{}", stderr(&o));
}
