//! Where games are kept: a [`Store`] holds each game as its record (rule set, scenario text,
//! seed, the commands with their state hashes) with the side token hashes, the bot specs and
//! when it was created and finished. SQLite ([`sqlite::SqliteStore`], the default) and
//! PostgreSQL (`postgres::PostgresStore`, cargo feature `postgres`) implement it; [`open`]
//! picks one from a `--database` argument.
//!
//! A game's state is never stored, only its record: on start the server replays every
//! unfinished game, checking each recorded state hash, so a restarted game continues exactly.

pub mod sqlite;

#[cfg(feature = "postgres")]
pub mod postgres;

use serde::{Deserialize, Serialize};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use tabletop::Record;
use tabletop::game::RecordedCommand;

/// A boxed future, so that the store trait is object-safe.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database failed or refused.
    #[error("database: {0}")]
    Database(String),
    /// A stored row does not read back (a damaged or foreign database).
    #[error("stored game {id}: {message}")]
    Corrupt {
        /// The game.
        id: String,
        /// What is wrong.
        message: String,
    },
    /// The database URL names a store this build does not have.
    #[error("{0}")]
    Unsupported(String),
}

/// Who plays a side, as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StoredPlayer {
    /// A person; only the hash of the side's token is kept.
    Human {
        /// SHA-256 of the token, in hex.
        token_hash: String,
    },
    /// A bot, by its spec (`mcts:200`).
    Bot {
        /// The spec.
        spec: String,
    },
}

/// A stored game: its record and its seats.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredGame {
    /// The game's ID.
    pub id: String,
    /// The record: rule set, version, scenario, seed, commands.
    pub record: Record,
    /// Red's player, then blue's.
    pub players: [StoredPlayer; 2],
    /// When it was created, in milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// When it ended, if it has.
    pub finished_ms: Option<i64>,
    /// How it ended, in words, if it has.
    pub result: Option<String>,
}

/// A place to keep games. Every method is one atomic change (or read) of the database.
pub trait Store: Send + Sync {
    /// Stores a new game (with the commands it already has, usually none).
    fn create<'a>(&'a self, game: &'a StoredGame) -> BoxFuture<'a, Result<(), StoreError>>;
    /// Appends the command at `index` (which must be the game's next) to a game's record.
    fn append<'a>(
        &'a self,
        id: &'a str,
        index: usize,
        command: &'a RecordedCommand,
    ) -> BoxFuture<'a, Result<(), StoreError>>;
    /// Drops a game's commands from `len` on (an undo).
    fn truncate<'a>(&'a self, id: &'a str, len: usize) -> BoxFuture<'a, Result<(), StoreError>>;
    /// Marks a game finished at `at_ms` with its result.
    fn finish<'a>(
        &'a self,
        id: &'a str,
        at_ms: i64,
        result: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>>;
    /// A game by ID, with its whole record.
    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<StoredGame>, StoreError>>;
    /// Every game not yet finished, oldest first.
    fn unfinished(&self) -> BoxFuture<'_, Result<Vec<StoredGame>, StoreError>>;
}

/// Opens the store a `--database` argument names: a `postgres://` or `postgresql://` URL for
/// PostgreSQL (with the `postgres` feature), anything else an SQLite file (created if missing).
pub async fn open(database: &str) -> Result<Arc<dyn Store>, StoreError> {
    if database.starts_with("postgres://") || database.starts_with("postgresql://") {
        #[cfg(feature = "postgres")]
        {
            return Ok(Arc::new(postgres::PostgresStore::connect(database).await?));
        }
        #[cfg(not(feature = "postgres"))]
        {
            return Err(StoreError::Unsupported(
                "this build has no PostgreSQL store: build with the cargo feature `postgres`"
                    .into(),
            ));
        }
    }
    let path = database.to_string();
    let store = tokio::task::spawn_blocking(move || sqlite::SqliteStore::open(&path))
        .await
        .map_err(|e| StoreError::Database(e.to_string()))??;
    Ok(Arc::new(store))
}

/// The players' stored form (JSON text in a column).
pub(crate) fn player_to_text(p: &StoredPlayer) -> String {
    serde_json::to_string(p).expect("players serialise")
}

/// Reads a player column.
pub(crate) fn player_from_text(id: &str, text: &str) -> Result<StoredPlayer, StoreError> {
    serde_json::from_str(text)
        .map_err(|e| StoreError::Corrupt { id: id.to_string(), message: format!("player: {e}") })
}

/// The actor's stored form (JSON text in a column).
pub(crate) fn actor_to_text(a: &tabletop::Actor) -> String {
    serde_json::to_string(a).expect("actors serialise")
}

/// Reads one stored command.
pub(crate) fn command_from_text(
    id: &str,
    actor: &str,
    command: &str,
    hash: Option<String>,
) -> Result<RecordedCommand, StoreError> {
    let corrupt = |what: &str, e: serde_json::Error| StoreError::Corrupt {
        id: id.to_string(),
        message: format!("{what}: {e}"),
    };
    Ok(RecordedCommand {
        actor: serde_json::from_str(actor).map_err(|e| corrupt("actor", e))?,
        command: serde_json::from_str(command).map_err(|e| corrupt("command", e))?,
        hash,
    })
}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
