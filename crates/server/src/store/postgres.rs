//! The PostgreSQL store (cargo feature `postgres`): the same tables as SQLite, reached through
//! tokio-postgres without TLS (a database on the same machine or a private network).

use super::{
    BoxFuture, Store, StoreError, StoredGame, actor_to_text, command_from_text, player_from_text,
    player_to_text,
};
use tabletop::Record;
use tabletop::game::RecordedCommand;
use tokio::sync::Mutex;
use tokio_postgres::{Client, NoTls};

/// The tables. Seeds (`u64`) are stored as the `BIGINT` with the same bits; commands as JSON
/// text, exactly as written (`jsonb` would reorder keys).
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id            TEXT PRIMARY KEY,
    ruleset       TEXT NOT NULL,
    version       TEXT NOT NULL,
    scenario_name TEXT NOT NULL,
    scenario      TEXT NOT NULL,
    seed          BIGINT NOT NULL,
    red           TEXT NOT NULL,
    blue          TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    finished_at   BIGINT,
    result        TEXT
);
CREATE INDEX IF NOT EXISTS games_unfinished ON games (finished_at, created_at);
CREATE TABLE IF NOT EXISTS commands (
    game_id TEXT NOT NULL REFERENCES games (id),
    idx     BIGINT NOT NULL,
    actor   TEXT NOT NULL,
    command TEXT NOT NULL,
    hash    TEXT,
    PRIMARY KEY (game_id, idx)
);
";

fn db(e: tokio_postgres::Error) -> StoreError {
    StoreError::Database(e.to_string())
}

/// Games in a PostgreSQL database. One connection, used by one call at a time.
pub struct PostgresStore {
    client: Mutex<Client>,
}

impl PostgresStore {
    /// Connects to the database at `url` (`postgres://user@host:port/db`) and creates the
    /// tables if they are missing.
    pub async fn connect(url: &str) -> Result<PostgresStore, StoreError> {
        let (client, connection) = tokio_postgres::connect(url, NoTls).await.map_err(db)?;
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                eprintln!("postgres: the connection ended: {e}");
            }
        });
        client.batch_execute(SCHEMA).await.map_err(db)?;
        Ok(PostgresStore { client: Mutex::new(client) })
    }
}

async fn load(c: &Client, id: &str) -> Result<Option<StoredGame>, StoreError> {
    let Some(row) = c
        .query_opt(
            "SELECT ruleset, version, scenario_name, scenario, seed, red, blue, created_at,
                    finished_at, result
             FROM games WHERE id = $1",
            &[&id],
        )
        .await
        .map_err(db)?
    else {
        return Ok(None);
    };
    let rows = c
        .query("SELECT actor, command, hash FROM commands WHERE game_id = $1 ORDER BY idx", &[&id])
        .await
        .map_err(db)?;
    let mut commands = Vec::with_capacity(rows.len());
    for r in rows {
        let (actor, command, hash): (String, String, Option<String>) =
            (r.try_get(0).map_err(db)?, r.try_get(1).map_err(db)?, r.try_get(2).map_err(db)?);
        commands.push(command_from_text(id, &actor, &command, hash)?);
    }
    let red: String = row.try_get(5).map_err(db)?;
    let blue: String = row.try_get(6).map_err(db)?;
    Ok(Some(StoredGame {
        id: id.to_string(),
        record: Record {
            ruleset: row.try_get(0).map_err(db)?,
            version: row.try_get(1).map_err(db)?,
            scenario_name: row.try_get(2).map_err(db)?,
            scenario: row.try_get(3).map_err(db)?,
            seed: row.try_get::<_, i64>(4).map_err(db)? as u64,
            commands,
        },
        players: [player_from_text(id, &red)?, player_from_text(id, &blue)?],
        created_ms: row.try_get(7).map_err(db)?,
        finished_ms: row.try_get(8).map_err(db)?,
        result: row.try_get(9).map_err(db)?,
    }))
}

impl Store for PostgresStore {
    fn create<'a>(&'a self, g: &'a StoredGame) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let mut c = self.client.lock().await;
            let tx = c.transaction().await.map_err(db)?;
            tx.execute(
                "INSERT INTO games (id, ruleset, version, scenario_name, scenario, seed, red, blue,
                                    created_at, finished_at, result)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
                &[
                    &g.id,
                    &g.record.ruleset,
                    &g.record.version,
                    &g.record.scenario_name,
                    &g.record.scenario,
                    &(g.record.seed as i64),
                    &player_to_text(&g.players[0]),
                    &player_to_text(&g.players[1]),
                    &g.created_ms,
                    &g.finished_ms,
                    &g.result,
                ],
            )
            .await
            .map_err(db)?;
            for (i, rc) in g.record.commands.iter().enumerate() {
                tx.execute(
                    "INSERT INTO commands (game_id, idx, actor, command, hash)
                     VALUES ($1, $2, $3, $4, $5)",
                    &[
                        &g.id,
                        &(i as i64),
                        &actor_to_text(&rc.actor),
                        &rc.command.to_string(),
                        &rc.hash,
                    ],
                )
                .await
                .map_err(db)?;
            }
            tx.commit().await.map_err(db)
        })
    }

    fn append<'a>(
        &'a self,
        id: &'a str,
        index: usize,
        command: &'a RecordedCommand,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let c = self.client.lock().await;
            let n = c
                .execute(
                    "INSERT INTO commands (game_id, idx, actor, command, hash)
                     SELECT $1, $2, $3, $4, $5
                     WHERE (SELECT COUNT(*) FROM commands WHERE game_id = $1) = $2",
                    &[
                        &id,
                        &(index as i64),
                        &actor_to_text(&command.actor),
                        &command.command.to_string(),
                        &command.hash,
                    ],
                )
                .await
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
        Box::pin(async move {
            let c = self.client.lock().await;
            c.execute(
                "DELETE FROM commands WHERE game_id = $1 AND idx >= $2",
                &[&id, &(len as i64)],
            )
            .await
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
        Box::pin(async move {
            let c = self.client.lock().await;
            c.execute(
                "UPDATE games SET finished_at = $2, result = $3 WHERE id = $1",
                &[&id, &at_ms, &result],
            )
            .await
            .map_err(db)?;
            Ok(())
        })
    }

    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<StoredGame>, StoreError>> {
        Box::pin(async move {
            let c = self.client.lock().await;
            load(&c, id).await
        })
    }

    fn unfinished(&self) -> BoxFuture<'_, Result<Vec<StoredGame>, StoreError>> {
        Box::pin(async move {
            let c = self.client.lock().await;
            let rows = c
                .query(
                    "SELECT id FROM games WHERE finished_at IS NULL ORDER BY created_at, id",
                    &[],
                )
                .await
                .map_err(db)?;
            let mut games = Vec::with_capacity(rows.len());
            for r in rows {
                let id: String = r.try_get(0).map_err(db)?;
                // A damaged row costs that one game, not the others.
                match load(&c, &id).await {
                    Ok(g) => games.extend(g),
                    Err(e) => eprintln!("game {id}: cannot be read ({e}); left as stored"),
                }
            }
            Ok(games)
        })
    }
}
