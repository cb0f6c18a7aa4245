//! Playing over real WebSocket connections against a real server on 127.0.0.1 with an SQLite
//! store: turns, stale messages, who may command what, hidden orders, hostile messages, undo.

mod common;

use common::*;
use serde_json::{Value, json};
use server::protocol::{ClientMessage, ErrorCode, Role, ServerMessage};
use tabletop::{Side, Viewer};

/// Plays one of `player`'s candidate commands (chosen by `pick`); asserts it was accepted.
async fn play_one(player: &mut Player, pick: &mut Picker, avoid_end: bool) -> Value {
    let candidates = player.candidates().await;
    assert!(!candidates.is_empty(), "no candidates for {:?}", player.role);
    let pool: Vec<&Value> = if avoid_end && candidates.len() > 1 {
        candidates.iter().filter(|c| c["kind"] != "end_phase").collect()
    } else {
        candidates.iter().collect()
    };
    let command = pool[pick.below(pool.len())].clone();
    let before = player.version;
    match player.command(command.clone()).await {
        ServerMessage::State { version, .. } => assert_eq!(version, before + 1),
        other => panic!("{command} was not accepted: {other:?}"),
    }
    command
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_alternate_commands() {
    let db = sqlite_file("alternate");
    let server = start(&db).await;
    let addr = server.local_addr();
    let game = create_ready(addr, "othw/open_field", "human", "human").await;
    assert_eq!(game.seats.len(), 2);
    assert!(game.seats[0].link.starts_with(&format!("/game/{}#token=", game.id)));
    let mut red = Player::join(addr, &game.id, Some(&token(&game, "red"))).await;
    let mut blue = Player::join(addr, &game.id, Some(&token(&game, "blue"))).await;
    let mut watcher = Player::join(addr, &game.id, None).await;
    assert_eq!((red.role, blue.role, watcher.role), (Role::Red, Role::Blue, Role::Spectator));
    assert_eq!(red.version, 0);

    let mut pick = Picker::new(7);
    let mut by = Vec::new();
    while by.len() < 120 && red.outcome.is_null() {
        let side = red.pending_side().expect("a side to act");
        let (me, other) = if side == "red" { (&mut red, &mut blue) } else { (&mut blue, &mut red) };
        play_one(me, &mut pick, false).await;
        other.until_version(me.version).await;
        by.push(side);
    }
    watcher.until_version(red.version).await;
    let switches = by.windows(2).filter(|w| w[0] != w[1]).count();
    assert!(switches >= 3, "the sides should take turns: {by:?}");
    assert_eq!(red.log, blue.log, "both sides read the same log");
    assert_eq!(red.log, watcher.log);
    assert!(red.log.iter().any(|l| !l.rules.is_empty()));

    // The store holds every command, by the side that gave it, and replays to what the
    // players see.
    let stored = store(&db).await.load(&game.id).await.unwrap().unwrap();
    assert_eq!(stored.record.commands.len() as u64, red.version);
    let sides: Vec<String> = stored
        .record
        .commands
        .iter()
        .map(|c| serde_json::to_value(c.actor).unwrap()["side"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(sides, by);
    let replayed = registry().get("othw").unwrap().replay(&stored.record).unwrap();
    assert_eq!(replayed.view(Viewer::Side(Side::Red)), red.view);
    assert_eq!(replayed.view(Viewer::Spectator), watcher.view);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_against_a_bot() {
    let db = sqlite_file("bot");
    let server = start(&db).await;
    let addr = server.local_addr();
    let game = create_ready(addr, "othw/open_field", "human", "scripted").await;
    assert_eq!(game.seats.len(), 1, "only the human side gets a link");
    let mut red = Player::join(addr, &game.id, Some(&token(&game, "red"))).await;
    let mut pick = Picker::new(3);
    let mut phases = 0;
    while phases < 3 && red.outcome.is_null() {
        // Red acts until its phase ends; then the bot plays blue's phase by itself.
        while red.pending_side().as_deref() == Some("red") {
            let cmd = play_one(&mut red, &mut pick, false).await;
            if cmd["kind"] == "end_phase" {
                break;
            }
        }
        red.until(|p| p.pending_side().as_deref() == Some("red") || !p.outcome.is_null()).await;
        phases += 1;
    }
    let stored = store(&db).await.load(&game.id).await.unwrap().unwrap();
    let blue_commands = stored
        .record
        .commands
        .iter()
        .filter(|c| c.actor == tabletop::Actor::Side(Side::Blue))
        .count();
    assert!(blue_commands >= 2, "the bot commanded blue: {blue_commands} commands");
    assert_eq!(stored.record.commands.len() as u64, red.version);
    registry().get("othw").unwrap().replay(&stored.record).expect("the record replays");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_message_is_refused() {
    let db = sqlite_file("stale");
    let server = start(&db).await;
    let addr = server.local_addr();
    let game = create_ready(addr, "othw/open_field", "human", "human").await;
    let mut red = Player::join(addr, &game.id, Some(&token(&game, "red"))).await;
    let mut pick = Picker::new(11);
    play_one(&mut red, &mut pick, true).await;
    let candidates = red.candidates().await;
    for version in [0u64, 5, u64::MAX] {
        red.send(&ClientMessage::Command { version, command: candidates[0].clone() }).await;
        match red.answer().await {
            ServerMessage::Error { code: ErrorCode::Stale, version: Some(1), .. } => {}
            other => panic!("a command for version {version} should be stale: {other:?}"),
        }
        red.send(&ClientMessage::Undo { version }).await;
        assert_eq!(error_code(&red.answer().await), Some(ErrorCode::Stale));
    }
    red.sync().await;
    assert_eq!(red.version, 1, "nothing changed");
    // The same command at the current version goes through.
    match red.command(candidates[0].clone()).await {
        ServerMessage::State { version: 2, .. } => {}
        other => panic!("{other:?}"),
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_side_cannot_move_the_others_units() {
    let db = sqlite_file("sides");
    let server = start(&db).await;
    let addr = server.local_addr();
    let game = create_ready(addr, "othw/open_field", "human", "human").await;
    let mut red = Player::join(addr, &game.id, Some(&token(&game, "red"))).await;
    let mut blue = Player::join(addr, &game.id, Some(&token(&game, "blue"))).await;
    assert_eq!(red.pending_side().as_deref(), Some("red"));
    let units = red.view["units"].as_array().expect("the view lists units").clone();
    let blue_unit = units.iter().find(|u| u["side"] == "blue").unwrap()["id"].clone();
    let candidates = red.candidates().await;
    let red_move = candidates.iter().find(|c| c["kind"] == "move").expect("a move").clone();

    // Red's token, red's turn, a blue unit: the rules refuse it.
    let mut moving_blue = red_move.clone();
    moving_blue["unit"] = blue_unit.clone();
    match red.command(moving_blue.clone()).await {
        ServerMessage::Refused { version: 0, rule, reason } => {
            assert!(!rule.is_empty() && !reason.is_empty())
        }
        other => panic!("red moved a blue unit: {other:?}"),
    }
    // Blue's token in red's turn: neither red's unit nor its own.
    assert_eq!(error_code(&blue.command(red_move.clone()).await), Some(ErrorCode::NotYourTurn));
    assert_eq!(error_code(&blue.command(moving_blue).await), Some(ErrorCode::NotYourTurn));
    assert!(blue.candidates().await.is_empty(), "blue has nothing to decide now");
    red.sync().await;
    assert_eq!(red.version, 0, "nothing changed");
    // The command as red may give it is accepted.
    assert!(matches!(red.command(red_move).await, ServerMessage::State { version: 1, .. }));
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_and_strangers_cannot_command() {
    let db = sqlite_file("spectator");
    let server = start(&db).await;
    let addr = server.local_addr();
    let game = create_ready(addr, "othw/open_field", "human", "human").await;
    let mut red = Player::join(addr, &game.id, Some(&token(&game, "red"))).await;
    let mut watcher = Player::join(addr, &game.id, None).await;
    let command = red.candidates().await[0].clone();
    assert_eq!(error_code(&watcher.command(command.clone()).await), Some(ErrorCode::Spectator));
    watcher.send(&ClientMessage::Undo { version: 0 }).await;
    assert_eq!(error_code(&watcher.answer().await), Some(ErrorCode::Spectator));
    watcher.send(&ClientMessage::Candidates {}).await;
    assert_eq!(error_code(&watcher.answer().await), Some(ErrorCode::Spectator));
    // The spectator may look at the table.
    watcher.send(&ClientMessage::Scene { svg: Some(true) }).await;
    match watcher.answer().await {
        ServerMessage::Scene { svg: Some(svg), scene, .. } => {
            assert!(svg.starts_with("<svg"));
            assert!(scene["pieces"].is_array());
        }
        other => panic!("{other:?}"),
    }

    // A wrong token is refused and the connection closed; so is a token of another game.
    let other = create_ready(addr, "othw/open_field", "human", "human").await;
    for bad in ["0".repeat(64), token(&other, "red"), String::new()] {
        let mut ws = connect(addr, &game.id).await;
        use futures_util::{SinkExt, StreamExt};
        let hello = json!({"type": "hello", "token": bad}).to_string();
        ws.send(tokio_tungstenite::tungstenite::Message::text(hello)).await.unwrap();
        let reply = ws.next().await.unwrap().unwrap();
        let msg: ServerMessage = serde_json::from_str(reply.to_text().unwrap()).unwrap();
        assert_eq!(error_code(&msg), Some(ErrorCode::BadToken), "{bad}");
        let end = ws.next().await;
        assert!(
            matches!(
                end,
                None | Some(Err(_)) | Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_)))
            ),
            "{end:?}"
        );
    }
    // An unknown game is not found before any upgrade.
    let (status, _) = http(addr, "GET", &format!("/api/games/{}/ws", "f".repeat(32)), None).await;
    assert_eq!(status, 404);
    red.sync().await;
    assert_eq!(red.version, 0);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_opponent_never_sees_written_orders() {
    let db = sqlite_file("orders");
    let server = start(&db).await;
    let addr = server.local_addr();
    let game = create_ready(addr, "wrg1969/the_hill", "human", "human").await;
    let mut red = Player::join(addr, &game.id, Some(&token(&game, "red"))).await;
    let mut blue = Player::join(addr, &game.id, Some(&token(&game, "blue"))).await;
    let mut watcher = Player::join(addr, &game.id, None).await;
    let unit_orders = |view: &Value, side: &str| -> Vec<Value> {
        view["units"]
            .as_array()
            .expect("the view lists units")
            .iter()
            .filter(|u| u["side"] == side)
            .map(|u| u["order"].clone())
            .collect()
    };
    // Before anyone writes: each side sees its own scenario orders only.
    assert!(unit_orders(&red.view, "red").iter().any(|o| !o.is_null()));
    assert!(unit_orders(&blue.view, "red").iter().all(Value::is_null));
    assert!(unit_orders(&watcher.view, "red").iter().all(Value::is_null));

    // Red writes its orders (a command with orders for its units).
    let candidates = red.candidates().await;
    let write = candidates
        .iter()
        .find(|c| c["command"] == "write" && c["orders"].as_array().is_some_and(|o| !o.is_empty()))
        .or_else(|| candidates.iter().find(|c| c["command"] == "write"))
        .expect("red may write orders")
        .clone();
    assert!(matches!(red.command(write.clone()).await, ServerMessage::State { version: 1, .. }));
    blue.until_version(1).await;
    watcher.until_version(1).await;
    let written: Vec<Value> = write["orders"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| !w["order"].is_null())
        .map(|w| w["order"].clone())
        .collect();
    assert!(!written.is_empty(), "red wrote orders");
    let red_sees = unit_orders(&red.view, "red");
    for order in &written {
        assert!(red_sees.contains(order), "red sees its order {order}");
    }
    for (who, p) in [("blue", &blue), ("the spectator", &watcher)] {
        assert!(unit_orders(&p.view, "red").iter().all(Value::is_null), "{who} sees red's orders");
        for u in p.view["units"].as_array().unwrap().iter().filter(|u| u["side"] == "red") {
            assert!(u["has_order"].is_null(), "{who} knows whether a red unit has orders");
        }
        // Nothing blue or the spectator was ever sent holds red's command or its orders.
        let everything = p.received.join("\n");
        assert!(!everything.contains(&write["orders"].to_string()));
        // (An order blue also gave its own units may of course be in blue's view.)
        let blues_own = unit_orders(&blue.view, "blue");
        for order in written.iter().filter(|o| !blues_own.contains(o)) {
            assert!(!everything.contains(&order.to_string()), "{who} was sent {order}");
        }
    }
    assert!(blue.log.iter().any(|l| l.text.contains("red writes its orders")));
    // Blue's own view shows blue's orders to blue only.
    assert!(unit_orders(&blue.view, "blue").iter().any(|o| !o.is_null()));
    assert!(unit_orders(&red.view, "blue").iter().all(Value::is_null));
    // The record, which holds the orders, stays secret while the battle is played.
    let (status, body) = http(addr, "GET", &format!("/api/games/{}/record", game.id), None).await;
    assert_eq!(status, 409, "{body}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_and_malformed_messages_change_nothing() {
    let db = sqlite_file("hostile");
    let server = start(&db).await;
    let addr = server.local_addr();
    let game = create_ready(addr, "othw/open_field", "human", "human").await;
    let red_token = token(&game, "red");
    let mut red = Player::join(addr, &game.id, Some(&red_token)).await;
    let mut pick = Picker::new(5);
    play_one(&mut red, &mut pick, true).await;
    let view = red.view.clone();
    let log = red.log.clone();
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let nested_command = format!(
        "{{\"type\":\"command\",\"version\":1,\"command\":{}1{}}}",
        "[".repeat(5000),
        "]".repeat(5000)
    );
    let bad_texts: Vec<String> = vec![
        "".into(),
        "not json".into(),
        "{".into(),
        "null".into(),
        "[]".into(),
        "{}".into(),
        r#"{"type":"launch_missiles"}"#.into(),
        r#"{"type":"command"}"#.into(),
        r#"{"type":"command","version":"1","command":{}}"#.into(),
        r#"{"type":"command","version":-1,"command":{}}"#.into(),
        r#"{"type":"command","version":1.5,"command":{}}"#.into(),
        r#"{"type":"command","version":1,"command":{},"actor":"umpire"}"#.into(),
        r#"{"type":"hello","token":"x"}"#.into(),
        "\u{0}\u{1}\u{feff}".into(),
        deep.chars().take(60_000).collect(),
        nested_command,
    ];
    for text in &bad_texts {
        red.send_raw(text).await;
        match red.answer().await {
            ServerMessage::Error { code, .. } => {
                assert!(
                    matches!(code, ErrorCode::BadMessage | ErrorCode::AlreadyJoined),
                    "{text:.60}: {code:?}"
                )
            }
            other => panic!("{text:.60}: expected an error, got {other:?}"),
        }
    }
    // Commands of the right form that the rules cannot parse or refuse.
    let bad_commands = [
        json!({}),
        json!(null),
        json!("end_phase!"),
        json!({"kind": "move", "unit": 9_999_999, "to": {"col": 0, "row": 0}, "facing": "north"}),
        json!({"kind": "move", "unit": 0, "to": {"col": -5, "row": 99}, "facing": "north"}),
        json!({"kind": "move", "unit": 0, "to": {"col": 2147483647, "row": -2147483648}, "facing": "up"}),
        json!({"kind": "group_move", "units": [], "facing": "north", "steps": 255}),
        json!({"kind": "group_move", "units": [0, 0, 0, 1, 1], "facing": "north", "steps": 1}),
        json!({"kind": "attack", "unit": 0, "from": {"col": 0, "row": 0}, "facing": "north", "general_dice": true}),
        json!({"kind": "mahouts", "unit": 65535}),
        json!({"kind": "orders", "orders": "everybody charge"}),
    ];
    for command in bad_commands {
        match red.command(command.clone()).await {
            ServerMessage::Refused { version: 1, .. } => {}
            other => panic!("{command}: expected a refusal, got {other:?}"),
        }
    }
    red.send_binary(vec![0, 159, 146, 150]).await;
    assert_eq!(error_code(&red.answer().await), Some(ErrorCode::BadMessage));
    // Still connected, and nothing changed.
    red.sync().await;
    assert_eq!(red.version, 1);
    assert_eq!(red.view, view);
    assert_eq!(red.log, log);

    // A message over the size limit closes that connection and changes nothing either.
    let mut rude = Player::join(addr, &game.id, Some(&red_token)).await;
    rude.send_raw(&format!("{{\"type\":\"sync\",\"pad\":\"{}\"}}", "x".repeat(200_000))).await;
    assert_eq!(rude.close_code().await, Some(1009), "an oversized message closes with 1009");
    // Text that is not UTF-8 closes it with 1007.
    let mut garbled = Player::join(addr, &game.id, Some(&red_token)).await;
    garbled.send_text_bytes(b"{\"type\":\"sync\",\"x\":\"\xff\xfe\"}").await;
    assert_eq!(garbled.close_code().await, Some(1007), "invalid UTF-8 closes with 1007");
    // Silence after connecting is cut off too, but only after the hello timeout: not tested.
    let mut again = Player::join(addr, &game.id, Some(&red_token)).await;
    assert_eq!(again.version, 1);
    assert_eq!(again.view, view);
    again.sync().await;
    assert_eq!(again.log, log);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_works_only_before_dice() {
    let db = sqlite_file("undo");
    let server = start(&db).await;
    let addr = server.local_addr();
    let game = create_ready(addr, "othw/open_field", "human", "human").await;
    let mut red = Player::join(addr, &game.id, Some(&token(&game, "red"))).await;
    let mut blue = Player::join(addr, &game.id, Some(&token(&game, "blue"))).await;
    let start_view = red.view.clone();
    let start_log = red.log.len();
    assert!(!red.can_undo, "nothing to undo yet");
    red.send(&ClientMessage::Undo { version: 0 }).await;
    assert_eq!(error_code(&red.answer().await), Some(ErrorCode::CannotUndo));

    // Standing orders for the general roll no die (OTHW-GEN-11): red may take them back.
    let orders = |reroll: bool| json!({"kind": "orders", "orders": {"reroll": reroll, "rally": true, "follow_up": true, "phalanx": true}});
    assert!(matches!(red.command(orders(false)).await, ServerMessage::State { version: 1, .. }));
    assert!(red.can_undo, "{:#?}", &red.log[start_log..]);
    blue.until_version(1).await;
    assert!(!blue.can_undo, "blue has given no command");
    blue.send(&ClientMessage::Undo { version: 1 }).await;
    assert_eq!(error_code(&blue.answer().await), Some(ErrorCode::CannotUndo));
    red.send(&ClientMessage::Undo { version: 1 }).await;
    match red.answer().await {
        ServerMessage::State { version: 0, log_from, lines, .. } => {
            assert_eq!(log_from as usize, start_log);
            assert!(lines.is_empty());
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(red.view, start_view, "the orders are taken back");
    assert_eq!(red.log.len(), start_log);
    blue.until(|p| p.version == 0 && p.log.len() == start_log).await;
    let stored = store(&db).await.load(&game.id).await.unwrap().unwrap();
    assert!(stored.record.commands.is_empty(), "the store forgot the command too");

    // Two commands without dice: an undo takes back the last only.
    assert!(matches!(red.command(orders(false)).await, ServerMessage::State { version: 1, .. }));
    let after_first = red.view.clone();
    assert!(matches!(red.command(orders(true)).await, ServerMessage::State { version: 2, .. }));
    red.send(&ClientMessage::Undo { version: 2 }).await;
    assert!(matches!(red.answer().await, ServerMessage::State { version: 1, .. }));
    assert_eq!(red.view, after_first);

    // A move ends with the phase-end roll (OTHW-SEQ-04): from then on nothing before it can
    // be taken back.
    let candidates = red.candidates().await;
    let first = candidates.iter().find(|c| c["kind"] == "move").unwrap().clone();
    match red.command(first).await {
        ServerMessage::State { version: 2, .. } => {}
        other => panic!("{other:?}"),
    }
    assert!(red.log.iter().any(|l| l.text.contains("OTHW-SEQ-04")), "the die was rolled");
    assert!(!red.can_undo, "a die was rolled");
    red.send(&ClientMessage::Undo { version: 2 }).await;
    match red.answer().await {
        ServerMessage::Error { code: ErrorCode::CannotUndo, message, .. } => {
            assert!(message.contains("die"), "{message}")
        }
        other => panic!("{other:?}"),
    }
    red.sync().await;
    assert_eq!(red.version, 2);
    let stored = store(&db).await.load(&game.id).await.unwrap().unwrap();
    assert_eq!(stored.record.commands.len(), 2);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_game_leaves_memory_and_comes_back_from_the_store() {
    let db = sqlite_file("idle");
    let server = start_with(&db, |l| l.idle_actor = std::time::Duration::from_millis(300)).await;
    let addr = server.local_addr();
    let game = create_ready(addr, "othw/open_field", "human", "scripted").await;
    let red_token = token(&game, "red");
    let mut red = Player::join(addr, &game.id, Some(&red_token)).await;
    let mut pick = Picker::new(9);
    play_one(&mut red, &mut pick, true).await;
    let (version, view, log) = (red.version, red.view.clone(), red.log.clone());
    assert_eq!(server.app().games().running().await, 1);
    drop(red);
    tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
    assert_eq!(server.app().games().running().await, 0, "the idle game left memory");
    let mut red = Player::join(addr, &game.id, Some(&red_token)).await;
    assert_eq!((red.version, &red.view, &red.log), (version, &view, &log));
    play_one(&mut red, &mut pick, true).await;
    assert_eq!(red.version, version + 1);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_takes_only_so_many_connections() {
    let db = sqlite_file("full");
    let server = start_with(&db, |l| l.spectators_per_game = 2).await;
    let addr = server.local_addr();
    let game = create_ready(addr, "othw/open_field", "human", "human").await;
    let _red = Player::join(addr, &game.id, Some(&token(&game, "red"))).await;
    let _a = Player::join(addr, &game.id, None).await;
    let b = Player::join(addr, &game.id, None).await;
    use futures_util::{SinkExt, StreamExt};
    let mut ws = connect(addr, &game.id).await;
    ws.send(tokio_tungstenite::tungstenite::Message::text(r#"{"type":"hello"}"#)).await.unwrap();
    let reply = ws.next().await.unwrap().unwrap();
    let msg: ServerMessage = serde_json::from_str(reply.to_text().unwrap()).unwrap();
    assert_eq!(error_code(&msg), Some(ErrorCode::Full));
    // The spectators' places are full, but a player still gets in.
    let blue = Player::join(addr, &game.id, Some(&token(&game, "blue"))).await;
    assert_eq!(blue.role, Role::Blue);
    // A place frees when a connection closes.
    drop(b);
    let mut joined = false;
    for _ in 0..100 {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        let mut ws = connect(addr, &game.id).await;
        ws.send(tokio_tungstenite::tungstenite::Message::text(r#"{"type":"hello"}"#))
            .await
            .unwrap();
        let reply = ws.next().await.unwrap().unwrap();
        let msg: ServerMessage = serde_json::from_str(reply.to_text().unwrap()).unwrap();
        if matches!(msg, ServerMessage::Welcome { .. }) {
            joined = true;
            break;
        }
    }
    assert!(joined);
    server.shutdown().await;
}

/// Opens a game connection whose request says it comes from a page on `origin`.
async fn connect_from(
    addr: std::net::SocketAddr,
    id: &str,
    origin: &str,
) -> Result<(), tokio_tungstenite::tungstenite::Error> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}/api/games/{id}/ws").into_client_request().unwrap();
    req.headers_mut().insert("Origin", origin.parse().unwrap());
    tokio_tungstenite::connect_async(req).await.map(|_| ())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_on_another_site_cannot_open_a_game_connection() {
    use tokio_tungstenite::tungstenite::Error;
    let db = sqlite_file("origin");
    let server = start(&db).await;
    let addr = server.local_addr();
    let game = create_ready(addr, "othw/open_field", "human", "human").await;
    // Another site's page is refused before the upgrade, with 403.
    match connect_from(addr, &game.id, "http://evil.example").await {
        Err(Error::Http(r)) => assert_eq!(r.status(), 403),
        other => panic!("another origin was let in: {other:?}"),
    }
    // The server's own pages, and clients that are not pages (no Origin), come in.
    connect_from(addr, &game.id, &format!("http://{addr}")).await.expect("the same origin");
    connect(addr, &game.id).await;
    server.shutdown().await;
    // An origin the server was told to allow comes in too.
    let db = sqlite_file("origin-allowed");
    let mut config = config(store(&db).await);
    config.allowed_origins = vec!["http://localhost:5173".into()];
    let server = server::start(config, "127.0.0.1:0".parse().unwrap()).await.unwrap();
    let addr = server.local_addr();
    let game = create_ready(addr, "othw/open_field", "human", "human").await;
    connect_from(addr, &game.id, "http://localhost:5173").await.expect("an allowed origin");
    assert!(connect_from(addr, &game.id, "http://localhost:5174").await.is_err());
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixty_four_spectators_do_not_lock_out_a_player() {
    let db = sqlite_file("crowd");
    let server = start(&db).await;
    let addr = server.local_addr();
    let game = create_ready(addr, "othw/open_field", "human", "human").await;
    let mut crowd = Vec::new();
    for _ in 0..64 {
        crowd.push(Player::join(addr, &game.id, None).await);
    }
    let red = Player::join(addr, &game.id, Some(&token(&game, "red"))).await;
    let blue = Player::join(addr, &game.id, Some(&token(&game, "blue"))).await;
    assert_eq!((red.role, blue.role), (Role::Red, Role::Blue));
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_connection_is_pinged_then_closed() {
    use futures_util::StreamExt;
    use std::time::Duration;
    let db = sqlite_file("ping");
    let server = start_with(&db, |l| {
        l.ping_every = Duration::from_millis(50);
        l.idle_socket = Duration::from_millis(300);
    })
    .await;
    let addr = server.local_addr();
    let game = create_ready(addr, "othw/open_field", "human", "human").await;
    let mut silent = Player::join(addr, &game.id, None).await;
    let mut alive = Player::join(addr, &game.id, Some(&token(&game, "red"))).await;
    // The live client reads, and so answers the pings; the silent one reads nothing.
    let until = tokio::time::Instant::now() + Duration::from_millis(800);
    while tokio::time::Instant::now() < until {
        let _ = tokio::time::timeout(Duration::from_millis(20), alive.ws.next()).await;
    }
    assert!(silent.closed().await, "a connection that answered no ping is still open");
    alive.sync().await;
    server.shutdown().await;
}
