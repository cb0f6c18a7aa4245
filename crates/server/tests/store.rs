//! The store, against SQLite and against a real PostgreSQL server (`scripts/postgres` starts
//! one; `STRATEGIKON_TEST_PG` names it): the same suite for both, and a server restarted on
//! each that continues its games exactly.

mod common;

use common::*;
use serde_json::json;
use server::protocol::ServerMessage;
use server::store::{Store, StoredGame, StoredPlayer};
use std::sync::Arc;
use tabletop::game::RecordedCommand;
use tabletop::{Actor, Record, Side, Viewer};

fn game(id: &str, seed: u64, created_ms: i64) -> StoredGame {
    StoredGame {
        id: id.to_string(),
        record: Record {
            ruleset: "othw".into(),
            version: "0.1.0".into(),
            scenario_name: "scenarios/othw/open_field.toml".into(),
            scenario: "# «Ünïcode» scenario — with 'quotes', \"doubles\" and \\ backslashes\nend"
                .into(),
            seed,
            commands: Vec::new(),
        },
        players: [
            StoredPlayer::Human { token_hash: server::token::hash_token("red") },
            StoredPlayer::Bot { spec: "mcts:iterations=20,depth=4".into() },
        ],
        created_ms,
        finished_ms: None,
        result: None,
    }
}

fn command(i: usize) -> RecordedCommand {
    RecordedCommand {
        actor: if i.is_multiple_of(2) { Actor::Side(Side::Red) } else { Actor::Side(Side::Blue) },
        command: json!({"kind": "move", "unit": i, "to": {"col": 1, "row": 2}, "facing": "north", "note": "é ✓"}),
        hash: if i == 1 { None } else { Some(format!("{:016x}", i * 7919)) },
    }
}

/// Everything a store must do, on a fresh database.
async fn suite(store: Arc<dyn Store>) {
    let id = server::token::new_game_id().unwrap();
    let mut g = game(&id, u64::MAX - 12, 1_000);
    store.create(&g).await.unwrap();
    assert!(store.create(&g).await.is_err(), "an ID is used once");
    assert_eq!(store.load(&id).await.unwrap().as_ref(), Some(&g), "a game reads back exactly");
    assert!(store.load(&"0".repeat(32)).await.unwrap().is_none());

    // Commands append in order only.
    for i in 0..5 {
        store.append(&id, i, &command(i)).await.unwrap();
        g.record.commands.push(command(i));
    }
    assert!(store.append(&id, 7, &command(7)).await.is_err(), "a gap is refused");
    assert!(store.append(&id, 3, &command(3)).await.is_err(), "a rewrite is refused");
    assert!(store.append(&"1".repeat(32), 0, &command(0)).await.is_err(), "no such game");
    assert_eq!(store.load(&id).await.unwrap().unwrap(), g);

    // Undo drops the tail; appending resumes after it.
    store.truncate(&id, 3).await.unwrap();
    g.record.commands.truncate(3);
    assert_eq!(store.load(&id).await.unwrap().unwrap(), g);
    store.append(&id, 3, &command(8)).await.unwrap();
    g.record.commands.push(command(8));
    assert_eq!(store.load(&id).await.unwrap().unwrap(), g);

    // Unfinished games, oldest first; a finished one is no longer among them.
    let id2 = server::token::new_game_id().unwrap();
    let g2 = game(&id2, 0, 500);
    store.create(&g2).await.unwrap();
    let ids: Vec<String> = store.unfinished().await.unwrap().into_iter().map(|g| g.id).collect();
    assert_eq!(ids, vec![id2.clone(), id.clone()]);
    store.finish(&id2, 2_000, "red wins: [OTHW-VIC-01] the enemy broke").await.unwrap();
    let ids: Vec<String> = store.unfinished().await.unwrap().into_iter().map(|g| g.id).collect();
    assert_eq!(ids, vec![id.clone()]);
    let done = store.load(&id2).await.unwrap().unwrap();
    assert_eq!(done.finished_ms, Some(2_000));
    assert_eq!(done.result.as_deref(), Some("red wins: [OTHW-VIC-01] the enemy broke"));
    assert_eq!(done.record.seed, 0);
    assert_eq!(store.unfinished().await.unwrap(), vec![g]);

    // Hostile text is data, not SQL.
    let id3 = server::token::new_game_id().unwrap();
    let mut g3 = game(&id3, 42, 3_000);
    g3.record.scenario_name = "x'); DROP TABLE games; --".into();
    store.create(&g3).await.unwrap();
    assert_eq!(
        store.load(&id3).await.unwrap().unwrap().record.scenario_name,
        g3.record.scenario_name
    );
    assert_eq!(store.unfinished().await.unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_store_suite_on_sqlite() {
    let file = sqlite_file("suite");
    suite(store(&file).await).await;
    // A second connection to the same file sees the same games.
    assert_eq!(store(&file).await.unfinished().await.unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_store_suite_on_postgres() {
    let url = postgres_database("suite").await;
    suite(store(&url).await).await;
    assert_eq!(store(&url).await.unfinished().await.unwrap().len(), 2);
    drop_postgres_database(&url).await;
}

/// Plays `n` of red's commands (the bot answers blue's phases by itself).
async fn red_plays(red: &mut Player, pick: &mut Picker, n: usize) {
    for _ in 0..n {
        red.until(|p| p.pending_side().as_deref() == Some("red") || !p.outcome.is_null()).await;
        if !red.outcome.is_null() {
            return;
        }
        let candidates = red.candidates().await;
        let command = candidates[pick.below(candidates.len())].clone();
        let before = red.version;
        match red.command(command).await {
            ServerMessage::State { version, .. } => assert_eq!(version, before + 1),
            other => panic!("{other:?}"),
        }
    }
}

/// A server stopped mid-game and started again on the same database resumes its games and
/// continues them exactly: the record, with the state hashes the restarted server wrote,
/// replays from scratch.
async fn restart_continues_identically(database: &str) {
    let server = start(database).await;
    let addr = server.local_addr();
    let vs_bot = create_ready(addr, "othw/open_field", "human", "scripted").await;
    let both = create_ready(addr, "othw/open_field", "human", "human").await;
    let red_token = token(&vs_bot, "red");
    let mut red = Player::join(addr, &vs_bot.id, Some(&red_token)).await;
    let mut pick = Picker::new(21);
    red_plays(&mut red, &mut pick, 25).await;
    // Let the bot finish whatever it is doing, then stop the server.
    red.until(|p| p.pending_side().as_deref() == Some("red") || !p.outcome.is_null()).await;
    let (version, view, log) = (red.version, red.view.clone(), red.log.clone());
    assert!(version > 25 || !red.outcome.is_null(), "the bot played too: {version}");
    // The game's seed is secret, so the battle against the bot may already be over (its
    // random red can lose quickly); the game between humans has not begun.
    let unfinished = if red.outcome.is_null() { 2 } else { 1 };
    let outcome = red.outcome.clone();
    drop(red);
    server.shutdown().await;

    let server = start(database).await;
    assert_eq!(
        server.resumed().await,
        unfinished,
        "every unfinished game is resumed (the bot's game at version {version}, outcome {outcome})"
    );
    let addr = server.local_addr();
    let mut red = Player::join(addr, &vs_bot.id, Some(&red_token)).await;
    assert_eq!(red.version, version);
    assert_eq!(red.view, view, "the game is where it was");
    assert_eq!(red.log, log);
    red_plays(&mut red, &mut pick, 25).await;
    red.until(|p| p.pending_side().as_deref() == Some("red") || !p.outcome.is_null()).await;
    assert!(red.version > version + 25 || !red.outcome.is_null());
    let other = Player::join(addr, &both.id, Some(&token(&both, "blue"))).await;
    assert_eq!(other.version, 0);

    let stored = store(database).await.load(&vs_bot.id).await.unwrap().unwrap();
    assert_eq!(stored.record.commands.len() as u64, red.version);
    assert!(stored.record.commands.iter().all(|c| c.hash.is_some()));
    let replayed = registry()
        .get("othw")
        .unwrap()
        .replay(&stored.record)
        .expect("the record replays with every state hash the server wrote");
    assert_eq!(replayed.view(Viewer::Side(Side::Red)), red.view);
    assert_eq!(replayed.command_count() as u64, red.version);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_continues_identically_on_sqlite() {
    restart_continues_identically(&sqlite_file("restart")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_continues_identically_on_postgres() {
    let url = postgres_database("restart").await;
    restart_continues_identically(&url).await;
    drop_postgres_database(&url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_stored_game_is_left_alone_and_the_others_resume() {
    let db = sqlite_file("damaged");
    let server = start(&db).await;
    let addr = server.local_addr();
    let damaged = create_ready(addr, "othw/open_field", "human", "human").await;
    let intact = create_ready(addr, "othw/open_field", "human", "human").await;
    server.shutdown().await;
    // Someone edits the file by hand: the first game's seed is no longer a number.
    rusqlite::Connection::open(&*db)
        .unwrap()
        .execute("UPDATE games SET seed = 'not a number' WHERE id = ?1", [&damaged.id])
        .unwrap();
    // The server starts all the same, with the other game.
    let server = start(&db).await;
    assert_eq!(server.resumed().await, 1);
    let addr = server.local_addr();
    let red = Player::join(addr, &intact.id, Some(&token(&intact, "red"))).await;
    assert_eq!(red.version, 0);
    server.shutdown().await;
}
