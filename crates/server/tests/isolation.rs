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

/// Sends `msg` over and over for `time` without reading anything; whether the server closed
/// the connection meanwhile, the most bytes it held queued for its connections, and how many
/// were sent.
async fn flood_unread(
    player: &mut Player,
    msg: &ClientMessage,
    time: Duration,
    queued: &std::sync::atomic::AtomicUsize,
) -> (bool, usize, usize) {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    let text = serde_json::to_string(msg).unwrap();
    let t = Instant::now();
    let mut worst = 0;
    let mut sent_n = 0;
    while t.elapsed() < time {
        let sent = tokio::time::timeout(
            Duration::from_secs(2),
            player.ws.send(Message::text(text.clone())),
        )
        .await;
        worst = worst.max(queued.load(std::sync::atomic::Ordering::Relaxed));
        match sent {
            Ok(Err(_)) => return (true, worst, sent_n),
            Ok(Ok(())) => sent_n += 1,
            Err(_) => {}
        }
    }
    (false, worst, sent_n)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_does_not_read_is_dropped_within_bounded_memory() {
    let db = sqlite_file("unread");
    let cap = 256 * 1024;
    let server = start_with(&db, |l| {
        l.outbox_bytes = cap;
        l.coalesce_bytes = 64 * 1024;
    })
    .await;
    let addr = server.local_addr();
    let game = create_ready(addr, "wrg1969/the_ford", "human", "human").await;
    let queued = server.app().games().shared().queued_bytes.clone();
    // It asks for the table drawn, again and again, and reads none of the answers.
    let mut flood = Player::join(addr, &game.id, None).await;
    let scene = ClientMessage::Scene { svg: Some(true) };
    let (dropped, worst, _) =
        flood_unread(&mut flood, &scene, Duration::from_secs(90), &queued).await;
    assert!(dropped, "a client that reads nothing is disconnected");
    assert!(worst <= cap, "the server held {worst} bytes for it, more than {cap}");
    // What was queued for it is freed, and the game plays on for everyone else.
    let t = Instant::now();
    while queued.load(std::sync::atomic::Ordering::Relaxed) > 0 {
        assert!(t.elapsed() < Duration::from_secs(30), "its queue is freed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut red = Player::join(addr, &game.id, Some(&token(&game, "red"))).await;
    red.sync().await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn states_a_slow_client_has_not_read_are_coalesced() {
    let db = sqlite_file("coalesce");
    let coalesce = 64 * 1024;
    let server = start_with(&db, |l| {
        l.outbox_bytes = 1024 * 1024;
        l.coalesce_bytes = coalesce;
    })
    .await;
    let addr = server.local_addr();
    let game = create_ready(addr, "wrg1969/the_ford", "human", "human").await;
    let queued = server.app().games().shared().queued_bytes.clone();
    let mut slow = Player::join(addr, &game.id, None).await;
    let state_bytes = slow.received.last().unwrap().len();
    // It asks for the whole state again and again, reading nothing: it is not dropped, and
    // the server holds no more than the threshold and one state for it.
    let (dropped, worst, asked) =
        flood_unread(&mut slow, &ClientMessage::Sync {}, Duration::from_secs(4), &queued).await;
    assert!(!dropped, "a slow client's states are coalesced, not held against it");
    assert!(worst <= coalesce + 2 * state_bytes, "held {worst} bytes");
    // Meanwhile the game went on; once it reads, it catches up with one state of it all.
    let mut red = Player::join(addr, &game.id, Some(&token(&game, "red"))).await;
    let mut blue = Player::join(addr, &game.id, Some(&token(&game, "blue"))).await;
    let mut picker = Picker::new(3);
    for _ in 0..6 {
        let player =
            if red.pending_side().as_deref() == Some("blue") { &mut blue } else { &mut red };
        let commands = player.candidates().await;
        let command = commands[picker.below(commands.len())].clone();
        player.command(command).await;
        let v = player.version;
        red.until_version(v).await;
        blue.until_version(v).await;
    }
    red.sync().await;
    let before = slow.received.len();
    slow.until_version(red.version).await;
    let states =
        slow.received[before..].iter().filter(|t| t.contains("\"type\":\"state\"")).count();
    assert!(states * 2 < asked, "{states} states were sent for {asked} asked: not coalesced");
    assert_eq!(slow.log, red.log, "the log it caught up with is the whole log");
    server.shutdown().await;
}

/// Reads from `tcp` until the server closes it; how long that took (`None`: still open after
/// `patience`).
async fn closed_within(tcp: &mut tokio::net::TcpStream, patience: Duration) -> Option<Duration> {
    use tokio::io::AsyncReadExt;
    let t = Instant::now();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout(patience.saturating_sub(t.elapsed()), tcp.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0)) | Ok(Err(_)) => return Some(t.elapsed()),
            Ok(Ok(_)) => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_and_slow_http_connections_time_out() {
    use tokio::io::AsyncWriteExt;
    let db = sqlite_file("http-idle");
    let idle = Duration::from_millis(600);
    let server = start_with(&db, |l| l.http_idle = idle).await;
    let addr = server.local_addr();
    let patience = Duration::from_secs(10);
    // A connection that sends nothing.
    let mut silent = tokio::net::TcpStream::connect(addr).await.unwrap();
    let took = closed_within(&mut silent, patience).await.expect("closed");
    assert!(took >= idle / 2, "closed after {took:?}");
    // One that sends half its headers and stops.
    let mut slow = tokio::net::TcpStream::connect(addr).await.unwrap();
    slow.write_all(b"GET /api/rulesets HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    closed_within(&mut slow, patience).await.expect("a slow request's connection is closed");
    // One kept alive after its request, then silent.
    let mut kept = tokio::net::TcpStream::connect(addr).await.unwrap();
    kept.write_all(b"GET /api/rulesets HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
    closed_within(&mut kept, patience).await.expect("an idle kept-alive connection is closed");
    // The server answers as before.
    let (status, _) = http(addr, "GET", "/api/rulesets", None).await;
    assert_eq!(status, 200);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_holds_only_so_many_games_in_memory() {
    let db = sqlite_file("in-memory");
    let server = start_with(&db, |l| l.games_in_memory = 2).await;
    let addr = server.local_addr();
    let first = create_ready(addr, "othw/open_field", "human", "human").await;
    let second = create_ready(addr, "othw/open_field", "human", "human").await;
    // Someone plays the second; the first is idle and leaves memory for a third.
    let _playing = Player::join(addr, &second.id, Some(&token(&second, "red"))).await;
    let third = create_ready(addr, "othw/open_field", "human", "human").await;
    assert_eq!(server.app().games().running().await, 2);
    // Both held games are in play now: no room for another.
    let _also = Player::join(addr, &third.id, Some(&token(&third, "red"))).await;
    let body = json!({ "scenario": "othw/open_field", "red": "human", "blue": "human" });
    let (status, body) = http(addr, "POST", "/api/games", Some(&body.to_string())).await;
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("games in play"), "{body}");
    // The first comes back from the store for its player, once a place is free.
    drop(_also);
    let t = Instant::now();
    loop {
        use futures_util::{SinkExt, StreamExt};
        let url = format!("ws://{addr}/api/games/{}/ws", first.id);
        let Ok((mut ws, _)) = tokio_tungstenite::connect_async(url).await else {
            assert!(t.elapsed() < Duration::from_secs(30), "the first game came back");
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let hello = ClientMessage::Hello { token: Some(token(&first, "red")) };
        let msg =
            tokio_tungstenite::tungstenite::Message::text(serde_json::to_string(&hello).unwrap());
        ws.send(msg).await.unwrap();
        if let Some(Ok(m)) = ws.next().await
            && m.to_text().unwrap_or("").contains("welcome")
        {
            break;
        }
        assert!(t.elapsed() < Duration::from_secs(30), "the first game came back");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    server.shutdown().await;
}
