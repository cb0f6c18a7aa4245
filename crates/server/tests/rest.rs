//! The REST API and the client's files, over real HTTP against a real server.

mod common;

use common::*;
use serde_json::{Value, json};
use server::protocol::{ApiError, GameInfo, PlayerInfo, ReplayFrame, RuleSetEntry, ServerMessage};
use std::time::{Duration, Instant};
use tabletop::{Record, Source};

fn api_error(body: &str) -> ApiError {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("not an API error ({e}): {body}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_rule_sets_bots_scenarios_and_serves_the_client() {
    let db = sqlite_file("list");
    let server = start(&db).await;
    let addr = server.local_addr();
    let (status, body) = http(addr, "GET", "/api/rulesets", None).await;
    assert_eq!(status, 200);
    let list: Vec<RuleSetEntry> = serde_json::from_str(&body).unwrap();
    let ids: Vec<&str> = list.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["movement", "othw", "wrg1969", "freemove", "liberal"]);
    let othw = &list[1];
    assert!(othw.bots.iter().any(|b| b.name == "scripted"));
    assert!(othw.bots.iter().any(|b| b.name == "mcts"));
    let names: Vec<&str> = othw.scenarios.iter().map(|s| s.name.as_str()).collect();
    assert!(names.contains(&"open_field"), "{names:?}");
    assert!(!othw.referee);
    assert!(list[0].referee && list[2].referee);

    let (status, text) = http(addr, "GET", "/api/rulesets/othw/scenarios/open_field", None).await;
    assert_eq!(status, 200);
    assert_eq!(text, std::fs::read_to_string("../../scenarios/othw/open_field.toml").unwrap());
    assert_eq!(http(addr, "GET", "/api/rulesets/othw/scenarios/nope", None).await.0, 404);

    for path in ["/", "/game/0123456789abcdef0123456789abcdef"] {
        let (status, page) = http(addr, "GET", path, None).await;
        assert_eq!(status, 200, "{path}");
        assert!(page.contains("Strategikon"), "{path}");
    }
    let (status, dts) = http(addr, "GET", "/protocol.d.ts", None).await;
    assert_eq!(status, 200);
    assert!(dts.contains("export type ServerMessage"));
    for path in ["/nothing.js", "/../Cargo.toml", "/%2e%2e/Cargo.toml", "/api/nothing"] {
        assert_eq!(http(addr, "GET", path, None).await.0, 404, "{path}");
    }
    // Every answer, pages, API and errors alike, forbids type sniffing and connects only back
    // to this server.
    for path in ["/", "/api/rulesets", "/api/games/nope", "/nothing.js"] {
        let (_, head, _) = http_with_head(addr, "GET", path, None).await;
        let head = head.to_ascii_lowercase();
        assert!(head.contains("x-content-type-options: nosniff"), "{path}: {head}");
        assert!(head.contains("connect-src 'self';"), "{path}: {head}");
        assert!(!head.contains("ws:"), "{path}: {head}");
    }
    server.shutdown().await;
    // The database holds unfinished games' seeds: only its owner may read it.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&*db).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "the database file is open to others: {mode:o}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creating_a_game_checks_everything_it_is_given() {
    let db = sqlite_file("create");
    let server = start(&db).await;
    let addr = server.local_addr();
    let post = |body: String| async move { http(addr, "POST", "/api/games", Some(&body)).await };

    let bad_requests = [
        ("not json", "expected"),
        (r#"{"scenario": "othw/open_field", "red": "human"}"#, "blue"),
        (r#"{"scenario": "othw/open_field", "red": "human", "blue": "human", "seed": 7}"#, "seed"),
        (
            r#"{"scenario": "chess/open", "red": "human", "blue": "human"}"#,
            "unknown rule set 'chess'",
        ),
        (r#"{"scenario": "othw/nowhere", "red": "human", "blue": "human"}"#, "open_field"),
        (r#"{"scenario": "open_field", "red": "human", "blue": "human"}"#, "rule set"),
        (r#"{"red": "human", "blue": "human"}"#, "ready scenario"),
        (
            r#"{"scenario": "othw/open_field", "scenario_text": "x", "red": "human", "blue": "human"}"#,
            "not both",
        ),
        (
            r#"{"scenario": "othw/open_field", "red": "human", "blue": "deep_blue"}"#,
            "known bots are",
        ),
        (r#"{"scenario": "othw/open_field", "red": "random:7", "blue": "human"}"#, "red"),
        (r#"{"scenario": "othw/open_field", "red": "mc ts", "blue": "human"}"#, "not a bot"),
        // Bots think no longer than the server gives them (an hour a move would stall others).
        (
            r#"{"scenario": "othw/open_field", "red": "mcts:3600s", "blue": "human"}"#,
            "at most 10 s",
        ),
        (
            r#"{"scenario": "othw/open_field", "red": "human", "blue": "mcts:iterations=5000000"}"#,
            "at most 100000",
        ),
        (
            r#"{"scenario_text": "[scenario]\nname = 'x'\n", "red": "human", "blue": "human"}"#,
            "ruleset = ",
        ),
    ];
    for (body, says) in bad_requests {
        let (status, text) = post(body.to_string()).await;
        assert!((400..500).contains(&status), "{body}: {status} {text}");
        let err = api_error(&text);
        assert!(err.error.contains(says), "{body}: {}", err.error);
    }

    // An uploaded scenario with mistakes: every problem, as the CLI reports it.
    let good = std::fs::read_to_string("../../scenarios/othw/open_field.toml").unwrap();
    let broken = good
        .replacen("type = \"Equites\"", "type = \"Dragoons\"", 1)
        .replacen("at = [2, 1]", "at = [2, 99]", 1)
        .replacen("turns = 15", "turns = \"many\"", 1);
    let (status, text) = post(
        json!({"scenario_text": broken, "scenario_file": "C:\\armies\\my field.toml", "red": "human", "blue": "scripted"})
            .to_string(),
    )
    .await;
    assert_eq!(status, 422, "{text}");
    let err = api_error(&text);
    let cli = registry()
        .get("othw")
        .unwrap()
        .validate(&Source::new("my field.toml", broken.clone()))
        .unwrap_err();
    let expected: Vec<String> = cli.iter().map(|d| d.to_string()).collect();
    assert_eq!(err.diagnostics, expected);
    assert!(err.diagnostics.len() >= 2, "{:?}", err.diagnostics);
    for d in &err.diagnostics {
        let mut parts = d.splitn(4, ':');
        assert_eq!(parts.next(), Some("my field.toml"), "{d}");
        assert!(parts.next().unwrap().parse::<usize>().is_ok(), "{d}");
        assert!(parts.next().unwrap().parse::<usize>().is_ok(), "{d}");
    }

    // The same file without mistakes, naming its own rule set.
    let (status, text) =
        post(json!({"scenario_text": good, "red": "human", "blue": "mcts:20"}).to_string()).await;
    assert_eq!(status, 201, "{text}");
    let created: server::protocol::Created = serde_json::from_str(&text).unwrap();
    assert_eq!(created.seats.len(), 1);
    let (status, text) = http(addr, "GET", &format!("/api/games/{}", created.id), None).await;
    assert_eq!(status, 200);
    let info: GameInfo = serde_json::from_str(&text).unwrap();
    assert_eq!(info.ruleset, "othw");
    assert_eq!(info.scenario_name, "upload.toml");
    assert_eq!(info.players, vec![PlayerInfo::Human, PlayerInfo::Bot { spec: "mcts:20".into() }]);
    assert!(!info.finished);
    assert!(!text.contains(&created.seats[0].token), "the token is never shown again");

    // Too large a body.
    let huge = json!({"scenario_text": "#".repeat(2 << 20), "red": "human", "blue": "human"});
    assert_eq!(post(huge.to_string()).await.0, 413);
    for path in ["/api/games/nope", "/api/games/ffffffffffffffffffffffffffffffff"] {
        assert_eq!(http(addr, "GET", path, None).await.0, 404, "{path}");
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_can_be_watched_and_its_record_downloaded() {
    let db = sqlite_file("finished");
    let server = start(&db).await;
    let addr = server.local_addr();
    let game = create_ready(addr, "othw/open_field", "scripted", "scripted").await;
    assert!(game.seats.is_empty(), "bots need no links");
    let started = Instant::now();
    loop {
        let (_, text) = http(addr, "GET", &format!("/api/games/{}", game.id), None).await;
        let info: GameInfo = serde_json::from_str(&text).unwrap();
        if info.finished {
            break;
        }
        let (status, _) = http(addr, "GET", &format!("/api/games/{}/record", game.id), None).await;
        assert!(status == 409 || status == 200, "{status}");
        assert!(started.elapsed() < Duration::from_secs(120), "the bots did not finish");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (status, text) = http(addr, "GET", &format!("/api/games/{}/record", game.id), None).await;
    assert_eq!(status, 200);
    let record: Record = serde_json::from_str(&text).unwrap();
    check_replay_frames(addr, &game.id, &record).await;
    assert_eq!(record.scenario_name, "scenarios/othw/open_field.toml");
    let replayed = registry().get("othw").unwrap().replay(&record).expect("the record replays");
    assert!(replayed.outcome().is_some(), "the battle is over");

    // A spectator arriving afterwards sees the end, and the whole log.
    let mut watcher = Player::join(addr, &game.id, None).await;
    assert_eq!(watcher.version as usize, record.commands.len());
    assert!(!watcher.outcome.is_null());
    assert_eq!(watcher.pending, json!({"kind": "over"}));
    assert_eq!(watcher.log.len(), replayed.log().len());
    watcher.send(&server::protocol::ClientMessage::Sync {}).await;
    assert!(matches!(watcher.recv().await, ServerMessage::State { .. }));
    server.shutdown().await;
}

/// The replay viewer's frames: step 0 is the table as set up, each step names its command, the
/// last has the outcome and the whole log; steps beyond the end and nonsense are refused.
async fn check_replay_frames(addr: std::net::SocketAddr, id: &str, record: &Record) {
    let frame = |step: String| async move {
        let (status, text) =
            http(addr, "GET", &format!("/api/games/{id}/replay?step={step}"), None).await;
        (status, text)
    };
    let steps = record.commands.len() as u64;
    let (status, text) = frame("0".into()).await;
    assert_eq!(status, 200, "{text}");
    let first: ReplayFrame = serde_json::from_str(&text).unwrap();
    assert_eq!((first.step, first.steps), (0, steps));
    assert!(first.actor.is_none() && first.command.is_none() && first.outcome.is_none());
    assert!(first.svg.starts_with("<svg"), "an SVG drawing");
    assert!(first.scene["pieces"].as_array().is_some_and(|p| !p.is_empty()));

    let (status, text) = frame("1".into()).await;
    assert_eq!(status, 200);
    let one: ReplayFrame = serde_json::from_str(&text).unwrap();
    assert_eq!(one.command.as_ref(), Some(&record.commands[0].command));
    assert!(one.actor.is_some());

    let (status, text) = frame(steps.to_string()).await;
    assert_eq!(status, 200);
    let last: ReplayFrame = serde_json::from_str(&text).unwrap();
    assert!(last.outcome.is_some(), "the last step shows who won");
    let whole = registry().get("othw").unwrap().replay(record).unwrap();
    assert_eq!(last.lines.len(), whole.log().len());
    assert!(last.lines.len() > one.lines.len());

    // A viewer that has the lines of step 1 is sent only the rest; one stepping back from the
    // end, none, and told where the log now ends.
    let have = one.lines.len();
    let (status, text) = frame(format!("{steps}&from={have}")).await;
    assert_eq!(status, 200, "{text}");
    let rest: ReplayFrame = serde_json::from_str(&text).unwrap();
    assert_eq!(rest.log_from as usize, have);
    assert_eq!(rest.lines, last.lines[have..]);
    let (status, text) = frame(format!("1&from={}", last.lines.len())).await;
    assert_eq!(status, 200, "{text}");
    let back: ReplayFrame = serde_json::from_str(&text).unwrap();
    assert_eq!((back.log_from as usize, back.lines.len()), (have, 0));
    assert_eq!(back.scene, one.scene, "a step drawn from a checkpoint is the same step");
    // Every step, walked through, is the game after that many commands.
    for step in [2, steps / 2, steps - 1] {
        let (_, text) = frame(step.to_string()).await;
        let f: ReplayFrame = serde_json::from_str(&text).unwrap();
        let mut upto = record.clone();
        upto.commands.truncate(step as usize);
        let game = registry().get("othw").unwrap().replay(&upto).unwrap();
        assert_eq!(f.lines.len(), game.log().len(), "step {step}");
        let scene = serde_json::to_value(game.scene(tabletop::Viewer::Umpire)).unwrap();
        assert_eq!(f.scene, scene, "step {step}");
    }

    assert_eq!(frame((steps + 1).to_string()).await.0, 404);
    assert_eq!(frame("-1".into()).await.0, 400);
    assert_eq!(frame("two".into()).await.0, 400);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unfinished_game_cannot_be_replayed() {
    let db = sqlite_file("replay_early");
    let server = start(&db).await;
    let addr = server.local_addr();
    let game = create_ready(addr, "othw/open_field", "human", "human").await;
    let (status, text) =
        http(addr, "GET", &format!("/api/games/{}/replay?step=0", game.id), None).await;
    assert_eq!(status, 409, "{text}");
    assert!(api_error(&text).error.contains("not over"));
    let none = "0123456789abcdef0123456789abcdef";
    assert_eq!(http(addr, "GET", &format!("/api/games/{none}/replay"), None).await.0, 404);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn referees_answer_questions() {
    let db = sqlite_file("referee");
    let server = start(&db).await;
    let addr = server.local_addr();
    let question =
        std::fs::read_to_string("../../scenarios/movement/referee/worked_example.json").unwrap();
    let (status, text) = http(addr, "POST", "/api/referee/movement", Some(&question)).await;
    assert_eq!(status, 200, "{text}");
    let answer: Value = serde_json::from_str(&text).unwrap();
    let direct = movement::referee::answer(&serde_json::from_str(&question).unwrap()).unwrap();
    assert_eq!(answer, direct);

    let question =
        std::fs::read_to_string("../../scenarios/wrg1969/referee/slingers_example.json").unwrap();
    let (status, text) = http(addr, "POST", "/api/referee/wrg1969", Some(&question)).await;
    assert_eq!(status, 200, "{text}");

    let (status, text) =
        http(addr, "POST", "/api/referee/movement", Some(r#"{"question": "meaning_of_life"}"#))
            .await;
    assert_eq!(status, 400);
    assert!(!api_error(&text).error.is_empty());
    assert_eq!(http(addr, "POST", "/api/referee/movement", Some("{{{")).await.0, 400);
    let (status, text) = http(addr, "POST", "/api/referee/othw", Some("{}")).await;
    assert_eq!(status, 404);
    assert!(api_error(&text).error.contains("movement, wrg1969"));
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_creates_only_so_many_games_a_minute() {
    let db = sqlite_file("quota");
    let server = start_with(&db, |l| l.games_per_minute = 2).await;
    let addr = server.local_addr();
    create_ready(addr, "othw/open_field", "human", "human").await;
    create_ready(addr, "othw/open_field", "human", "random").await;
    let body = json!({ "scenario": "othw/open_field", "red": "human", "blue": "human" });
    let (status, body) = http(addr, "POST", "/api/games", Some(&body.to_string())).await;
    assert_eq!(status, 429, "{body}");
    assert!(api_error(&body).error.contains("created 2 games in the last minute"), "{body}");
    server.shutdown().await;
}
