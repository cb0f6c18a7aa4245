//! One heavy game does not stall the others: rule-set work runs off the async threads, within
//! a budget of processor time, and uploads are held to the server's limits.

mod common;

use common::*;
use serde_json::json;
use server::protocol::{ClientMessage, ErrorCode, ServerMessage};
use std::time::{Duration, Instant};

/// A movement scenario of `units` units a side, each of 200 stands (20 files of 10 ranks), on
/// a table wide enough for them: the upload that once stalled the whole server.
fn heavy_scenario(units: usize) -> String {
    let ready = std::fs::read_to_string("../../scenarios/movement/ford.toml").unwrap();
    let head = ready.split("# ---- Red").next().unwrap();
    let head = head
        .replace("width = 48.0\nheight = 36.0", "width = 800.0\nheight = 200.0")
        .replace("army_leader = \"Red General\"", "")
        .replace("army_leader = \"Blue General\"", "");
    let mut text = head;
    for (side, y, facing) in [("red", 30.0, 0.0), ("blue", 150.0, 180.0)] {
        for i in 0..units {
            text += &format!(
                "\n[[unit]]\nname = \"{side} {i}\"\nside = \"{side}\"\ntype = \"heavy_infantry\"\n\
                 armor = \"heavy\"\ndiscipline = \"good\"\nformation = \"line\"\nfiles = 20\n\
                 stands = 200\nposition = [{:.1}, {y}]\nfacing = {facing}\n",
                20.0 + 36.0 * i as f64
            );
        }
    }
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_heavy_game_delays_no_other_game_nor_the_api() {
    let db = sqlite_file("heavy");
    let server = start(&db).await;
    let addr = server.local_addr();
    // Two bots play the heavy game, and two people a light one.
    let heavy = create(
        addr,
        json!({ "scenario_text": heavy_scenario(10), "red": "random", "blue": "random" }),
    )
    .await;
    let light = create_ready(addr, "othw/open_field", "human", "human").await;
    let mut red = Player::join(addr, &light.id, Some(&token(&light, "red"))).await;
    let mut blue = Player::join(addr, &light.id, Some(&token(&light, "blue"))).await;
    let mut watcher = Player::join(addr, &heavy.id, None).await;
    // The heavy game is under way.
    tokio::time::sleep(Duration::from_millis(300)).await;

    let mut worst_api = Duration::ZERO;
    let mut worst_command = Duration::ZERO;
    let mut picker = Picker::new(7);
    for _ in 0..12 {
        let t = Instant::now();
        let (status, _) = http(addr, "GET", "/api/rulesets", None).await;
        assert_eq!(status, 200);
        worst_api = worst_api.max(t.elapsed());

        let player =
            if red.pending_side().as_deref() == Some("blue") { &mut blue } else { &mut red };
        let commands = player.candidates().await;
        assert!(!commands.is_empty());
        let command = commands[picker.below(commands.len())].clone();
        let t = Instant::now();
        let answer = player.command(command).await;
        worst_command = worst_command.max(t.elapsed());
        assert!(matches!(answer, ServerMessage::State { .. }), "{answer:?}");
        let version = player.version;
        let other = if red.version == version { &mut blue } else { &mut red };
        other.until_version(version).await;
    }
    assert!(worst_api < Duration::from_millis(250), "GET /api/rulesets took {worst_api:?}");
    assert!(worst_command < Duration::from_millis(250), "a command took {worst_command:?}");
    // The heavy game was playing all the while.
    watcher.sync().await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn work_past_its_budget_is_stopped_and_changes_nothing() {
    let db = sqlite_file("budget");
    let server = start_with(&db, |l| l.command_time = Duration::from_millis(1)).await;
    let addr = server.local_addr();
    let game = create(
        addr,
        json!({ "scenario_text": heavy_scenario(4), "red": "human", "blue": "human" }),
    )
    .await;
    let mut red = Player::join(addr, &game.id, Some(&token(&game, "red"))).await;
    let before = red.version;
    red.send(&ClientMessage::Candidates {}).await;
    let answer = red.answer().await;
    assert_eq!(error_code(&answer), Some(ErrorCode::TooHeavy), "{answer:?}");
    let ServerMessage::Error { message, .. } = &answer else { unreachable!() };
    assert!(message.contains("processor time"), "{message}");
    red.send(&ClientMessage::Controls {}).await;
    let answer = red.answer().await;
    assert_eq!(error_code(&answer), Some(ErrorCode::TooHeavy), "{answer:?}");
    red.sync().await;
    assert_eq!(red.version, before);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_are_held_to_the_servers_limits() {
    let db = sqlite_file("limits");
    let server = start_with(&db, |l| {
        l.scenario.max_units = 12;
        l.scenario.max_bytes = 20_000;
    })
    .await;
    let addr = server.local_addr();
    let ford = std::fs::read_to_string("../../scenarios/movement/ford.toml").unwrap();
    let post = |text: String| {
        let body = json!({ "scenario_text": text, "red": "human", "blue": "human" });
        async move { http(addr, "POST", "/api/games", Some(&body.to_string())).await }
    };
    // Too many units.
    let (status, body) = post(ford.clone()).await;
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("units; scenarios here may have at most 12"), "{body}");
    // Too long a text.
    let (status, body) = post(format!("{ford}\n#{}", "x".repeat(20_000))).await;
    assert_eq!(status, 413, "{body}");
    assert!(body.contains("at most 20000"), "{body}");
    server.shutdown().await;

    // Too long to make.
    let server = start_with(&db, |l| l.create_time = Duration::from_millis(1)).await;
    let body = json!({ "scenario_text": heavy_scenario(3), "red": "human", "blue": "human" });
    let (status, body) =
        http(server.local_addr(), "POST", "/api/games", Some(&body.to_string())).await;
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("making the game was stopped"), "{body}");
    server.shutdown().await;
}
