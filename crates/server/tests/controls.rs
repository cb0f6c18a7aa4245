//! What the browser client's menus and drags rest on, over real WebSocket connections: a side's
//! controls, the measurement of a dragged move, the roster sheet; who may ask for what.

mod common;

use common::*;
use serde_json::Value;
use server::protocol::{ClientMessage, ErrorCode, ServerMessage};
use tabletop::controls::{Action, Controls, Drag, Effect, Measurement, RosterRow};

/// Asks for this connection's controls.
async fn controls(p: &mut Player) -> Controls {
    p.send(&ClientMessage::Controls {}).await;
    loop {
        match p.recv().await {
            ServerMessage::Controls { version, controls } => {
                assert_eq!(version, p.version);
                return controls;
            }
            ServerMessage::State { .. } => {}
            other => panic!("expected controls, got {other:?}"),
        }
    }
}

/// Asks to measure a drag of `unit` to (x, y).
async fn measure(p: &mut Player, unit: &str, x: f64, y: f64) -> ServerMessage {
    let version = p.version;
    p.send(&ClientMessage::Measure { version, unit: unit.into(), x, y, bearing: None }).await;
    p.recv().await
}

/// Asks for the roster sheet.
async fn roster(p: &mut Player) -> Vec<RosterRow> {
    p.send(&ClientMessage::Roster {}).await;
    match p.recv().await {
        ServerMessage::Roster { rows, .. } => rows,
        other => panic!("expected the roster, got {other:?}"),
    }
}

/// Every action a side is offered: its own, its units', their square targets'.
fn every_action(c: &Controls) -> Vec<&Action> {
    let mut all: Vec<&Action> = c.actions.iter().collect();
    for u in &c.units {
        all.extend(u.actions.iter());
        if let Drag::Squares { targets } = &u.drag {
            all.extend(targets.iter().map(|t| &t.action));
        }
    }
    all
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_side_to_act_gets_menus_that_the_server_accepts() {
    let db = sqlite_file("controls");
    let server = start(&db).await;
    let addr = server.local_addr();
    let game = create_ready(addr, "othw/open_field", "human", "human").await;
    let mut red = Player::join(addr, &game.id, Some(&token(&game, "red"))).await;
    let mut blue = Player::join(addr, &game.id, Some(&token(&game, "blue"))).await;
    let side = red.pending_side().expect("one side acts first");
    let (me, other) = if side == "red" { (&mut red, &mut blue) } else { (&mut blue, &mut red) };

    let mine = controls(me).await;
    let offered = every_action(&mine);
    assert!(!offered.is_empty(), "the side to act is offered something: {mine:?}");
    assert!(!mine.prompt.is_empty());
    let theirs = controls(other).await;
    assert!(every_action(&theirs).is_empty(), "the side that waits is offered nothing: {theirs:?}");

    // The first command offered is accepted as it is.
    let command: Value = offered
        .iter()
        .find_map(|a| match &a.effect {
            Effect::Send { command } => Some(command.clone()),
            Effect::Draft { .. } => None,
        })
        .expect("O/THW offers whole commands");
    let before = me.version;
    match me.command(command.clone()).await {
        ServerMessage::State { version, .. } => assert_eq!(version, before + 1),
        other => panic!("{command} was offered but not accepted: {other:?}"),
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_get_no_controls_and_cannot_measure() {
    let db = sqlite_file("controls_watch");
    let server = start(&db).await;
    let addr = server.local_addr();
    let game = create_ready(addr, "movement/ford", "human", "human").await;
    let mut watcher = Player::join(addr, &game.id, None).await;
    watcher.send(&ClientMessage::Controls {}).await;
    assert_eq!(error_code(&watcher.recv().await), Some(ErrorCode::Spectator));
    let answer = measure(&mut watcher, "anything", 10.0, 10.0).await;
    assert_eq!(error_code(&answer), Some(ErrorCode::Spectator));
    // A spectator may read the roster: what anyone may see.
    let rows = roster(&mut watcher).await;
    assert!(rows.iter().all(|r| r.side == "red" || r.side == "blue"));
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_measurement_is_made_against_the_current_version() {
    let db = sqlite_file("measure");
    let server = start(&db).await;
    let addr = server.local_addr();
    let game = create_ready(addr, "movement/ford", "human", "human").await;
    let mut red = Player::join(addr, &game.id, Some(&token(&game, "red"))).await;
    let mut blue = Player::join(addr, &game.id, Some(&token(&game, "blue"))).await;
    let side = red.pending_side().expect("one side acts first");
    let me = if side == "red" { &mut red } else { &mut blue };

    let version = me.version;
    me.send(&ClientMessage::Measure {
        version: version + 3,
        unit: "x".into(),
        x: 1.0,
        y: 1.0,
        bearing: None,
    })
    .await;
    assert_eq!(error_code(&me.recv().await), Some(ErrorCode::Stale));

    // An unknown unit is measured as nothing, never an error that closes anything.
    match measure(me, "no such unit", 1.0, 1.0).await {
        ServerMessage::Measured { measurement: None, version: v } => assert_eq!(v, version),
        other => panic!("expected an empty measurement, got {other:?}"),
    }

    // A unit of the side's own, dragged a little: measured, and the action it offers is
    // accepted by the server.
    let mine = controls(me).await;
    let unit = mine.units.iter().find(|u| u.drag == Drag::Free).expect("a unit to drag");
    let rows = roster(me).await;
    assert!(rows.iter().any(|r| r.unit == unit.unit), "the roster lists {}", unit.unit);
    let scene = scene_piece(me, &unit.unit).await;
    let (x, y) = (scene.0, scene.1 + 1.0);
    let m: Measurement = match measure(me, &unit.unit, x, y).await {
        ServerMessage::Measured { measurement: Some(m), .. } => m,
        other => panic!("expected a measurement of {}, got {other:?}", unit.unit),
    };
    assert!(m.length > 0.0 && m.within <= m.length + 1e-9, "{m:?}");
    let Some(Action { effect: Effect::Send { command }, .. }) = &m.action else {
        panic!("a short move in the open is allowed: {m:?}");
    };
    let before = me.version;
    match me.command(command.clone()).await {
        ServerMessage::State { version, .. } => assert_eq!(version, before + 1),
        other => panic!("the measured move was refused: {other:?}"),
    }
    // The unit now stands where it was dropped.
    let (nx, ny) = scene_piece(me, &unit.unit).await;
    assert!((nx - x).abs() < 1e-6 && (ny - y).abs() < 1e-6, "moved to ({nx}, {ny})");
    server.shutdown().await;
}

/// Where a unit's piece stands in this connection's scene.
async fn scene_piece(p: &mut Player, unit: &str) -> (f64, f64) {
    p.send(&ClientMessage::Scene { svg: None }).await;
    let scene = loop {
        match p.recv().await {
            ServerMessage::Scene { scene, .. } => break scene,
            ServerMessage::State { .. } => {}
            other => panic!("expected the scene, got {other:?}"),
        }
    };
    let piece = scene["pieces"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["id"] == unit))
        .unwrap_or_else(|| panic!("no piece {unit} in the scene"));
    let c = &piece["outline"]["centre"];
    (c["x"].as_f64().unwrap(), c["y"].as_f64().unwrap())
}
