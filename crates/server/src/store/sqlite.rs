//! The SQLite store: one file, written in WAL mode; every call runs on tokio's blocking pool
//! behind one connection.

use super::{
    BoxFuture, Store, StoreError, StoredGame, actor_to_text, command_from_text, player_from_text,
    player_to_text,
};
use rusqlite::{Connection, OptionalExtension, params};
use std::sync::{Arc, Mutex};
use tabletop::Record;
use tabletop::game::RecordedCommand;

/// The tables. Seeds (`u64`) are stored as the `i64` with the same bits.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id            TEXT PRIMARY KEY,
    ruleset       TEXT NOT NULL,
    version       TEXT NOT NULL,
    scenario_name TEXT NOT NULL,
    scenario      TEXT NOT NULL,
    seed          INTEGER NOT NULL,
    red           TEXT NOT NULL,
    blue          TEXT NOT NULL,
    created_at    INTEGER NOT NULL,
    finished_at   INTEGER,
    result        TEXT
);
CREATE INDEX IF NOT EXISTS games_unfinished ON games (finished_at, created_at);
CREATE TABLE IF NOT EXISTS commands (
    game_id TEXT NOT NULL REFERENCES games (id),
    idx     INTEGER NOT NULL,
    actor   TEXT NOT NULL,
    command TEXT NOT NULL,
    hash    TEXT,
    PRIMARY KEY (game_id, idx)
);
";

fn db(e: rusqlite::Error) -> StoreError {
    StoreError::Database(e.to_string())
}

/// Creates the database file at `path`, if it is a file that does not exist yet, with
/// permissions for its owner only (SQLite gives its journal files the same).
fn create_private(path: &str) -> Result<(), StoreError> {
    if path.is_empty() || path == ":memory:" || path.starts_with("file:") {
        return Ok(());
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(StoreError::Database(format!("{path}: {e}"))),
    }
}

/// Games in an SQLite file.
#[derive(Clone)]
pub struct SqliteStore {
    conn: Arc<Mutex<Connection>>,
}

impl SqliteStore {
    /// Opens (creating if needed) the database file at `path`. A new file is readable and
    /// writable by its owner only: it holds unfinished games' seeds.
    pub fn open(path: &str) -> Result<SqliteStore, StoreError> {
        create_private(path)?;
        let conn =
            Connection::open(path).map_err(|e| StoreError::Database(format!("{path}: {e}")))?;
        conn.busy_timeout(std::time::Duration::from_secs(5)).map_err(db)?;
        // WAL with NORMAL synchronisation: a commit survives a crash of the server (not
        // necessarily of the machine's power), and commits cost no fsync each.
        conn.pragma_update(None, "journal_mode", "WAL").map_err(db)?;
        conn.pragma_update(None, "synchronous", "NORMAL").map_err(db)?;
        conn.pragma_update(None, "foreign_keys", "ON").map_err(db)?;
        conn.execute_batch(SCHEMA).map_err(db)?;
        Ok(SqliteStore { conn: Arc::new(Mutex::new(conn)) })
    }

    /// Runs `f` with the connection on the blocking pool.
    fn with<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> BoxFuture<'static, Result<T, StoreError>> {
        let conn = self.conn.clone();
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                let mut c = conn.lock().unwrap_or_else(|e| e.into_inner());
                f(&mut c)
            })
            .await
            .map_err(|e| StoreError::Database(format!("the database task failed: {e}")))?
        })
    }
}

fn load(c: &Connection, id: &str) -> Result<Option<StoredGame>, StoreError> {
    let row = c
        .query_row(
            "SELECT ruleset, version, scenario_name, scenario, seed, red, blue, created_at,
                    finished_at, result
             FROM games WHERE id = ?1",
            params![id],
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, i64>(4)?,
                    r.get::<_, String>(5)?,
                    r.get::<_, String>(6)?,
                    r.get::<_, i64>(7)?,
                    r.get::<_, Option<i64>>(8)?,
                    r.get::<_, Option<String>>(9)?,
                ))
            },
        )
        .optional()
        .map_err(db)?;
    let Some((
        ruleset,
        version,
        scenario_name,
        scenario,
        seed,
        red,
        blue,
        created,
        finished,
        result,
    )) = row
    else {
        return Ok(None);
    };
    let mut stmt = c
        .prepare_cached("SELECT actor, command, hash FROM commands WHERE game_id = ?1 ORDER BY idx")
        .map_err(db)?;
    let rows = stmt
        .query_map(params![id], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, Option<String>>(2)?))
        })
        .map_err(db)?;
    let mut commands = Vec::new();
    for row in rows {
        let (actor, command, hash) = row.map_err(db)?;
        commands.push(command_from_text(id, &actor, &command, hash)?);
    }
    Ok(Some(StoredGame {
        id: id.to_string(),
        record: Record { ruleset, version, scenario_name, scenario, seed: seed as u64, commands },
        players: [player_from_text(id, &red)?, player_from_text(id, &blue)?],
        created_ms: created,
        finished_ms: finished,
        result,
    }))
}

impl Store for SqliteStore {
    fn create<'a>(&'a self, game: &'a StoredGame) -> BoxFuture<'a, Result<(), StoreError>> {
        let g = game.clone();
        self.with(move |c| {
            let tx = c.transaction().map_err(db)?;
            tx.execute(
                "INSERT INTO games (id, ruleset, version, scenario_name, scenario, seed, red, blue,
                                    created_at, finished_at, result)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                params![
                    g.id,
                    g.record.ruleset,
                    g.record.version,
                    g.record.scenario_name,
                    g.record.scenario,
                    g.record.seed as i64,
                    player_to_text(&g.players[0]),
                    player_to_text(&g.players[1]),
                    g.created_ms,
                    g.finished_ms,
                    g.result,
                ],
            )
            .map_err(db)?;
            for (i, rc) in g.record.commands.iter().enumerate() {
                tx.execute(
                    "INSERT INTO commands (game_id, idx, actor, command, hash)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![
                        g.id,
                        i as i64,
                        actor_to_text(&rc.actor),
                        rc.command.to_string(),
                        rc.hash
                    ],
                )
                .map_err(db)?;
            }
            tx.commit().map_err(db)
        })
    }

    fn append<'a>(
        &'a self,
        id: &'a str,
        index: usize,
        command: &'a RecordedCommand,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        let id = id.to_string();
        let actor = actor_to_text(&command.actor);
        let cmd = command.command.to_string();
        let hash = command.hash.clone();
        self.with(move |c| {
            let n = c
                .prepare_cached(
                    "INSERT INTO commands (game_id, idx, actor, command, hash)
                     SELECT ?1, ?2, ?3, ?4, ?5
                     WHERE (SELECT COUNT(*) FROM commands WHERE game_id = ?1) = ?2",
                )
                .and_then(|mut s| s.execute(params![id, index as i64, actor, cmd, hash]))
                .map_err(db)?;
            if n != 1 {
                return Err(StoreError::Database(format!(
                    "game {id}: command {index} is not the next one"
                )));
            }
            Ok(())
        })
    }

    fn truncate<'a>(&'a self, id: &'a str, len: usize) -> BoxFuture<'a, Result<(), StoreError>> {
        let id = id.to_string();
        self.with(move |c| {
            c.execute(
                "DELETE FROM commands WHERE game_id = ?1 AND idx >= ?2",
                params![id, len as i64],
            )
            .map_err(db)?;
            Ok(())
        })
    }

    fn finish<'a>(
        &'a self,
        id: &'a str,
        at_ms: i64,
        result: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        let (id, result) = (id.to_string(), result.to_string());
        self.with(move |c| {
            c.execute(
                "UPDATE games SET finished_at = ?2, result = ?3 WHERE id = ?1",
                params![id, at_ms, result],
            )
            .map_err(db)?;
            Ok(())
        })
    }

    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<StoredGame>, StoreError>> {
        let id = id.to_string();
        self.with(move |c| load(c, &id))
    }

    fn unfinished(&self) -> BoxFuture<'_, Result<Vec<StoredGame>, StoreError>> {
        self.with(|c| {
            let ids: Vec<String> = {
                let mut stmt = c
                    .prepare(
                        "SELECT id FROM games WHERE finished_at IS NULL ORDER BY created_at, id",
                    )
                    .map_err(db)?;
                stmt.query_map([], |r| r.get(0))
                    .map_err(db)?
                    .collect::<Result<_, _>>()
                    .map_err(db)?
            };
            let mut games = Vec::with_capacity(ids.len());
            for id in ids {
                // A damaged row costs that one game, not the others.
                match load(c, &id) {
                    Ok(g) => games.extend(g),
                    Err(e) => eprintln!("game {id}: cannot be read ({e}); left as stored"),
                }
            }
            Ok(games)
        })
    }
}
