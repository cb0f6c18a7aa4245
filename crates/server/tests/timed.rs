//! Timed windows played in real time: the server is the only clock. Two real WebSocket
//! clients move at once on a freemove scenario with a short window: commands are stamped on
//! arrival, steps land in time order, a contact freezes both stands, the bell closes the
//! window with a step still queued, "Time!" and a player's leaving close it early, lag is
//! credited up to its cap, and the finished game's record replays to the same state.

mod common;

use common::*;
use serde_json::{Value, json};
use server::protocol::{ClientMessage, Created, ErrorCode, ServerMessage};
use std::time::{Duration, Instant};
use tabletop::{Record, Side, Viewer};

/// A small battle: two red and two blue heavy infantry stands (4" a step). Red's first stand
/// faces blue's first across a 1.25" gap; the others stand far apart.
fn scenario(window_s: f64, handling_s: f64) -> String {
    format!(
        r#"ruleset = "freemove"

[scenario]
name = "Timed test"
description = "Two stands a side, one pair face to face."
game_moves = 1
window_seconds = {window_s}
handling_seconds = {handling_s}

[table]
width = 72.0
height = 48.0

[[side]]
side = "red"
name = "Red"
edge = "south"

[[side]]
side = "blue"
name = "Blue"
edge = "north"

[[stand]]
side = "red"
type = "heavy_infantry"
name = "Front"
at = [30.0, 20.0]
number = 1

[[stand]]
side = "red"
type = "heavy_infantry"
name = "Far"
at = [10.0, 10.0]
number = 2

[[stand]]
side = "blue"
type = "heavy_infantry"
name = "Facing"
at = [30.0, 23.0]
facing = 180.0
number = 1

[[stand]]
side = "blue"
type = "heavy_infantry"
name = "Distant"
at = [60.0, 40.0]
facing = 180.0
number = 2
"#
    )
}

/// A person on each side of an uploaded timed scenario.
async fn create_timed(addr: std::net::SocketAddr, text: &str) -> Created {
    create(addr, json!({ "scenario_text": text, "scenario_file": "timed.toml", "red": "human", "blue": "human" }))
        .await
}

/// A player answering pings at once (or after `lag`), until `done`.
struct Timed {
    p: Player,
    lag: Duration,
    notes: Vec<String>,
    errors: Vec<(ErrorCode, String)>,
    refusals: Vec<String>,
}

impl Timed {
    async fn join(addr: std::net::SocketAddr, game: &Created, side: &str) -> Timed {
        let p = Player::join(addr, &game.id, Some(&token(game, side))).await;
        Timed {
            p,
            lag: Duration::ZERO,
            notes: Vec::new(),
            errors: Vec::new(),
            refusals: Vec::new(),
        }
    }

    /// The next message; pings are answered, notes and errors kept.
    async fn recv(&mut self) -> ServerMessage {
        let msg = self.p.recv().await;
        if std::env::var("TIMED_DEBUG").is_ok() {
            eprintln!(
                "{:?} <- {}",
                self.p.role,
                self.p.received.last().map_or("", |s| &s[..s.len().min(300)])
            );
        }
        match &msg {
            ServerMessage::Ping { t } => {
                if !self.lag.is_zero() {
                    tokio::time::sleep(self.lag).await;
                }
                self.p.send(&ClientMessage::Pong { t: *t }).await;
            }
            ServerMessage::Clock { note: Some(n), .. } => self.notes.push(n.clone()),
            ServerMessage::Error { code, message, .. } => {
                self.errors.push((*code, message.clone()))
            }
            ServerMessage::Refused { rule, reason, .. } => {
                self.refusals.push(format!("{rule}: {reason}"))
            }
            _ => {}
        }
        msg
    }

    /// Reads until `done` holds of the player.
    async fn until(&mut self, mut done: impl FnMut(&Timed) -> bool) {
        while !done(self) {
            self.recv().await;
        }
    }

    /// Reads for `d`, answering pings.
    async fn pump(&mut self, d: Duration) {
        let end = tokio::time::Instant::now() + d;
        while tokio::time::timeout_at(end, self.recv()).await.is_ok() {}
    }

    fn timed(&self) -> bool {
        self.p.pending["kind"] == "timed"
    }

    async fn send(&mut self, command: Value) {
        let version = self.p.version;
        self.p.send(&ClientMessage::Command { version, command }).await;
    }

    fn stand(&self, id: usize) -> Value {
        self.p.view["stands"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == id)
            .cloned()
            .unwrap_or(Value::Null)
    }

    fn stand_y(&self, id: usize) -> f64 {
        self.stand(id)["at"][1].as_f64().unwrap()
    }
}

/// Both sides ready; returns once each has seen the window open.
async fn open_window(red: &mut Timed, blue: &mut Timed) {
    red.send(json!({"kind": "ready"})).await;
    blue.until(|b| b.p.version >= 1).await;
    blue.send(json!({"kind": "ready"})).await;
    red.until(Timed::timed).await;
    blue.until(Timed::timed).await;
}

fn step(stand: usize, x: f64, y: f64, facing: f64) -> Value {
    json!({"kind": "step", "at_ms": 0, "stand": stand, "to": {"x": x, "y": y}, "facing": facing})
}

/// Plays the rest of the game move from both sides by their menus' first whole commands.
async fn finish(red: &mut Timed, blue: &mut Timed) {
    let started = Instant::now();
    while red.p.outcome.is_null() {
        assert!(started.elapsed() < Duration::from_secs(60), "the game did not end");
        for t in [&mut *red, &mut *blue] {
            if t.p.pending["kind"] == "over" || t.timed() {
                continue;
            }
            let side = serde_json::to_value(t.p.role).unwrap();
            let waiting = t.p.pending["waiting"].as_array().is_some_and(|w| w.contains(&side))
                || t.p.pending["side"] == side;
            if !waiting {
                continue;
            }
            t.p.send(&ClientMessage::Controls {}).await;
            let controls = loop {
                if let ServerMessage::Controls { controls, .. } = t.recv().await {
                    break controls;
                }
            };
            let command = controls
                .actions
                .iter()
                .find_map(|a| match &a.effect {
                    tabletop::controls::Effect::Send { command } => Some(command.clone()),
                    _ => None,
                })
                .expect("a command to send");
            t.send(command).await;
        }
        let v = red.p.version;
        tokio::select! {
            _ = red.until(|r| r.p.version > v) => {}
            _ = tokio::time::sleep(Duration::from_millis(300)) => {}
        }
        blue.pump(Duration::from_millis(20)).await;
    }
}

async fn record_of(addr: std::net::SocketAddr, id: &str) -> Record {
    let (status, text) = http(addr, "GET", &format!("/api/games/{id}/record"), None).await;
    assert_eq!(status, 200, "{text}");
    serde_json::from_str(&text).unwrap()
}

/// The timed commands of a record: (actor, command).
fn timed_commands(record: &Record) -> Vec<(String, Value)> {
    record
        .commands
        .iter()
        .filter(|c| c.command.get("at_ms").is_some())
        .map(|c| (format!("{:?}", c.actor), c.command.clone()))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_sides_step_at_once_and_the_record_replays() {
    let db = sqlite_file("timed-both");
    let server = start(&db).await;
    let addr = server.local_addr();
    let game = create_timed(addr, &scenario(4.0, 1.0)).await;
    let mut red = Timed::join(addr, &game, "red").await;
    let mut blue = Timed::join(addr, &game, "blue").await;
    open_window(&mut red, &mut blue).await;
    let clock = |t: &Timed| {
        t.p.received.iter().rev().find_map(|m| {
            let v: Value = serde_json::from_str(m).ok()?;
            (v["type"] == "state").then(|| v["clock"].clone())
        })
    };
    let c = clock(&red).expect("a state");
    assert_eq!(c["length_ms"], 4000, "{c}");
    assert!(c["server_ms"].as_u64().unwrap() > 0);
    // Red steps its far stand north; 300 ms later blue steps its distant stand south.
    let (red_y, blue_y) = (red.stand_y(1), blue.stand_y(3));
    red.send(step(1, 10.0, 13.0, 0.0)).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    blue.send(step(3, 60.0, 37.0, 180.0)).await;
    // Each sees the other's step land, red's first.
    let mut order = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(10);
    while order.len() < 2 {
        assert!(
            Instant::now() < deadline,
            "the steps did not land: {:?} {:?}",
            red.refusals,
            red.errors
        );
        blue.recv().await;
        if blue.stand_y(1) != red_y && !order.contains(&"red") {
            order.push("red");
        }
        if blue.stand_y(3) != blue_y && !order.contains(&"blue") {
            order.push("blue");
        }
    }
    assert_eq!(order, ["red", "blue"]);
    assert!(
        red.refusals.is_empty() && blue.refusals.is_empty(),
        "{:?} {:?}",
        red.refusals,
        blue.refusals
    );
    // Both stamped near when they were sent, red before blue.
    red.until(|r| !r.timed()).await;
    blue.until(|b| !b.timed()).await;
    finish(&mut red, &mut blue).await;
    let record = record_of(addr, &game.id).await;
    let timed = timed_commands(&record);
    let times: Vec<u64> = timed.iter().map(|(_, c)| c["at_ms"].as_u64().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "game time goes back: {timed:?}");
    let steps: Vec<&(String, Value)> = timed.iter().filter(|(_, c)| c["kind"] == "step").collect();
    assert_eq!(steps.len(), 2, "{timed:?}");
    let (r, b) = (steps[0].1["at_ms"].as_u64().unwrap(), steps[1].1["at_ms"].as_u64().unwrap());
    assert!(steps[0].0.contains("Red") && steps[1].0.contains("Blue"), "{steps:?}");
    assert!((200..=800).contains(&(b - r)), "stamped {r} and {b}");
    assert!(timed.iter().any(|(a, c)| a.contains("Umpire") && c["kind"] == "bell"), "{timed:?}");
    // The record replays to what the players see.
    let replayed = registry().get("freemove").unwrap().replay(&record).expect("the record replays");
    assert!(replayed.outcome().is_some());
    assert_eq!(replayed.view(Viewer::Side(Side::Red)), red.p.view);
    assert_eq!(replayed.view(Viewer::Side(Side::Blue)), blue.p.view);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_contact_freezes_both_stands() {
    let db = sqlite_file("timed-contact");
    let server = start(&db).await;
    let addr = server.local_addr();
    let game = create_timed(addr, &scenario(5.0, 0.5)).await;
    let mut red = Timed::join(addr, &game, "red").await;
    let mut blue = Timed::join(addr, &game, "blue").await;
    open_window(&mut red, &mut blue).await;
    red.send(step(0, 30.0, 22.5, 0.0)).await;
    let deadline = Instant::now() + Duration::from_secs(10);
    blue.until(|b| {
        assert!(Instant::now() < deadline, "no contact");
        b.stand(0)["frozen"] == true
    })
    .await;
    assert_eq!(blue.stand(2)["frozen"], true, "{}", blue.stand(2));
    red.until(|r| r.stand(0)["frozen"] == true && r.stand(2)["frozen"] == true).await;
    // A frozen stand steps no more.
    blue.pump(Duration::from_millis(100)).await;
    blue.send(step(2, 30.0, 26.0, 180.0)).await;
    blue.until(|b| !b.refusals.is_empty() || !b.errors.is_empty()).await;
    assert!(
        blue.refusals
            .iter()
            .chain(blue.errors.iter().map(|e| &e.1))
            .any(|r| r.contains("frozen") || r.contains("FMT")),
        "{:?}",
        blue.refusals
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bell_closes_the_window_with_a_step_still_queued() {
    let db = sqlite_file("timed-bell");
    let server = start(&db).await;
    let addr = server.local_addr();
    // A 2 s window, 1.5 s to handle a step: the first step at about 0 s, the queued second at
    // 1.5 s, the third never.
    let game = create_timed(addr, &scenario(2.0, 1.5)).await;
    let mut red = Timed::join(addr, &game, "red").await;
    let mut blue = Timed::join(addr, &game, "blue").await;
    open_window(&mut red, &mut blue).await;
    red.send(step(1, 10.0, 12.0, 0.0)).await;
    red.send(step(1, 10.0, 14.0, 0.0)).await;
    red.send(step(1, 10.0, 16.0, 0.0)).await;
    red.send(step(1, 10.0, 18.0, 0.0)).await;
    let started = Instant::now();
    red.until(|r| r.notes.len() >= 3 && !r.errors.is_empty()).await;
    // The fourth finds the queue full.
    assert!(red.errors.iter().any(|(c, _)| *c == ErrorCode::QueueFull), "{:?}", red.errors);
    assert!(red.notes.iter().filter(|n| n.starts_with("queued")).count() == 2, "{:?}", red.notes);
    red.until(|r| !r.timed()).await;
    blue.until(|b| !b.timed()).await;
    let elapsed = started.elapsed();
    assert!(
        elapsed >= Duration::from_millis(1700) && elapsed < Duration::from_secs(5),
        "{elapsed:?}"
    );
    red.pump(Duration::from_millis(200)).await;
    assert!(red.errors.iter().any(|(_, m)| m.contains("never carried out")), "{:?}", red.errors);
    finish(&mut red, &mut blue).await;
    let record = record_of(addr, &game.id).await;
    let steps: Vec<Value> = timed_commands(&record)
        .into_iter()
        .filter(|(_, c)| c["kind"] == "step")
        .map(|(_, c)| c)
        .collect();
    assert_eq!(steps.len(), 2, "{steps:?}");
    let second = steps[1]["at_ms"].as_u64().unwrap();
    assert!((1500..2000).contains(&second), "the queued step went at {second}");
    assert!(
        record.commands.iter().any(|c| c.command["kind"] == "bell" && c.command["at_ms"] == 2000)
    );
    registry().get("freemove").unwrap().replay(&record).expect("the record replays");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn time_called_and_a_player_leaving_close_the_window() {
    let db = sqlite_file("timed-call");
    let server = start(&db).await;
    let addr = server.local_addr();
    let game = create_timed(addr, &scenario(30.0, 1.0)).await;
    let mut red = Timed::join(addr, &game, "red").await;
    let mut blue = Timed::join(addr, &game, "blue").await;
    open_window(&mut red, &mut blue).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let started = Instant::now();
    blue.send(json!({"kind": "call_time", "at_ms": 0})).await;
    red.until(|r| !r.timed()).await;
    assert!(started.elapsed() < Duration::from_secs(3));
    blue.until(|b| !b.timed()).await;
    assert!(
        blue.p.log.iter().any(|l| l.rules.iter().any(|r| r == "FMT-TIME-16")),
        "{:?}",
        blue.p.log
    );

    // A second game: red's player closes the tab during the window; the server calls time
    // for red.
    let game = create_timed(addr, &scenario(30.0, 1.0)).await;
    let mut red = Timed::join(addr, &game, "red").await;
    let mut blue = Timed::join(addr, &game, "blue").await;
    open_window(&mut red, &mut blue).await;
    let _ = red.p.ws.close(None).await;
    drop(red);
    let started = Instant::now();
    blue.until(|b| !b.timed()).await;
    assert!(started.elapsed() < Duration::from_secs(3));
    let _ = blue.p.ws.close(None).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let stored = common::store(&db).await.load(&game.id).await.unwrap().unwrap();
    let call = stored
        .record
        .commands
        .iter()
        .find(|c| c.command["kind"] == "call_time")
        .expect("time called");
    assert_eq!(call.actor, tabletop::Actor::Side(Side::Red));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lag_is_credited_up_to_its_cap() {
    let db = sqlite_file("timed-lag");
    let server = start(&db).await;
    let addr = server.local_addr();
    let game = create_timed(addr, &scenario(6.0, 0.5)).await;
    let mut red = Timed::join(addr, &game, "red").await;
    let mut blue = Timed::join(addr, &game, "blue").await;
    // Blue's network takes 400 ms to answer a ping: it is credited 150 ms, not 200.
    blue.lag = Duration::from_millis(400);
    open_window(&mut red, &mut blue).await;
    red.pump(Duration::from_millis(300)).await;
    blue.pump(Duration::from_millis(600)).await;
    // Blue first: a command is never stamped before one the game has already taken.
    blue.send(step(3, 60.0, 38.0, 180.0)).await;
    blue.until(|b| !b.notes.is_empty()).await;
    red.send(step(1, 10.0, 12.0, 0.0)).await;
    red.until(|r| !r.notes.is_empty()).await;
    blue.until(|b| !b.notes.is_empty()).await;
    assert!(blue.notes[0].contains("credited 150 ms for a 4"), "{:?}", blue.notes);
    let credited: u64 = red.notes[0]
        .split("credited ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{:?}", red.notes));
    assert!(credited <= 20, "{:?}", red.notes);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_acts_when_its_hands_are_free() {
    let db = sqlite_file("timed-bot");
    let server = start(&db).await;
    let addr = server.local_addr();
    let game = create(
        addr,
        json!({ "scenario_text": scenario(3.0, 0.5), "scenario_file": "timed.toml", "red": "human", "blue": "scripted" }),
    )
    .await;
    let mut red = Timed::join(addr, &game, "red").await;
    red.send(json!({"kind": "ready"})).await;
    red.until(Timed::timed).await;
    let started = Instant::now();
    red.until(|r| !r.timed()).await;
    assert!(started.elapsed() >= Duration::from_millis(2500), "the window ran in real time");
    let stored = common::store(&db).await.load(&game.id).await.unwrap().unwrap();
    let blue: Vec<&Value> = stored
        .record
        .commands
        .iter()
        .filter(|c| {
            c.actor == tabletop::Actor::Side(Side::Blue) && c.command.get("at_ms").is_some()
        })
        .map(|c| &c.command)
        .collect();
    assert!(!blue.is_empty(), "the bot acted in the window");
    // Each of its commands comes once its hands are free: half a second after a step.
    let mut free = 0;
    for c in &blue {
        let at = c["at_ms"].as_u64().unwrap();
        assert!(at >= free, "{c} before its hands were free at {free}: {blue:?}");
        if c["kind"] == "step" || c["kind"] == "column" || c["kind"] == "move_square" {
            free = at + 500;
        } else if c["kind"] == "wait" {
            free = c["until_ms"].as_u64().unwrap();
        }
    }
    let times: Vec<u64> =
        timed_commands(&stored.record).iter().map(|(_, c)| c["at_ms"].as_u64().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "game time goes back: {times:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_restarted_mid_window_resumes_its_clock() {
    let db = sqlite_file("timed-restart");
    let server = start(&db).await;
    let addr = server.local_addr();
    let game = create_timed(addr, &scenario(20.0, 0.5)).await;
    let mut red = Timed::join(addr, &game, "red").await;
    let mut blue = Timed::join(addr, &game, "blue").await;
    open_window(&mut red, &mut blue).await;
    tokio::time::sleep(Duration::from_millis(700)).await;
    red.send(step(1, 10.0, 12.0, 0.0)).await;
    red.until(|r| !r.notes.is_empty()).await;
    let version = red.p.version;
    // The server stops with both players connected: its closing their connections calls
    // time for neither.
    server.shutdown().await;
    drop((red, blue));
    let server = start(&db).await;
    let addr = server.local_addr();
    let mut red = Timed::join(addr, &game, "red").await;
    assert!(red.timed(), "{}", red.p.pending);
    assert!(red.p.version >= version);
    let clock: Value = red
        .p
        .received
        .iter()
        .rev()
        .find_map(|m| serde_json::from_str::<Value>(m).ok().filter(|v| v["type"] == "state"))
        .unwrap()["clock"]
        .clone();
    // The window goes on from the game time its commands reached, not from 0 again.
    assert!(clock["now_ms"].as_u64().unwrap() >= 600, "{clock}");
    assert_eq!(clock["length_ms"], 20000);
    // And it still takes commands.
    red.pump(Duration::from_millis(700)).await;
    red.send(step(1, 10.0, 14.0, 0.0)).await;
    red.until(|r| r.notes.iter().any(|n| n.starts_with("stamped"))).await;
    assert!(red.refusals.is_empty(), "{:?}", red.refusals);
    server.shutdown().await;
}
