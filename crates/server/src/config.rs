//! What a server is started with: the rule sets (injected, so this crate knows none), their
//! referees, the ready scenarios, the store and the limits that keep hostile clients in check.

use crate::scenarios::Scenarios;
use crate::store::Store;
use std::sync::Arc;
use std::time::Duration;
use tabletop::host::Registry;

/// A referee: answers a rule set's umpire question (its own JSON) with JSON, or says what is
/// wrong with the question.
pub type RefereeFn =
    Arc<dyn Fn(&serde_json::Value) -> Result<serde_json::Value, String> + Send + Sync>;

/// Limits on what clients may ask of the server.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The largest WebSocket message a client may send, in bytes.
    pub max_message_bytes: usize,
    /// The largest request body (an uploaded scenario, a referee question), in bytes.
    pub max_body_bytes: usize,
    /// The most commands a game may reach; past it the game takes no more.
    pub max_commands: usize,
    /// How many bots may think at once, server-wide (each on its own blocking thread).
    pub bot_threads: usize,
    /// How many messages may wait for a slow connection before it is dropped.
    pub outbox: usize,
    /// How many connections one game takes (players and spectators together).
    pub connections_per_game: usize,
    /// How long a new connection has to say `hello`.
    pub hello_timeout: Duration,
    /// How long a game's actor stays in memory with no connection and no bot thinking; it is
    /// started again from the store when someone comes back.
    pub idle_actor: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_message_bytes: 64 * 1024,
            max_body_bytes: 1024 * 1024,
            max_commands: 100_000,
            bot_threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
            outbox: 256,
            connections_per_game: 64,
            hello_timeout: Duration::from_secs(10),
            idle_actor: Duration::from_secs(15 * 60),
        }
    }
}

/// Everything a server needs.
pub struct Config {
    /// The rule sets it plays, with their bots.
    pub registry: &'static Registry,
    /// The referees, by rule set ID.
    pub referees: Vec<(String, RefereeFn)>,
    /// The ready scenarios.
    pub scenarios: Scenarios,
    /// Where games are kept.
    pub store: Arc<dyn Store>,
    /// The limits.
    pub limits: Limits,
}

impl Config {
    /// A server for `registry`'s rule sets keeping games in `store`, with the embedded
    /// scenarios, no referees and the default limits.
    pub fn new(registry: &'static Registry, store: Arc<dyn Store>) -> Config {
        Config {
            registry,
            referees: Vec::new(),
            scenarios: Scenarios::embedded(),
            store,
            limits: Limits::default(),
        }
    }

    /// Adds the referee of rule set `id`.
    pub fn with_referee(
        mut self,
        id: &str,
        answer: impl Fn(&serde_json::Value) -> Result<serde_json::Value, String> + Send + Sync + 'static,
    ) -> Config {
        self.referees.push((id.to_string(), Arc::new(answer)));
        self
    }

    /// The referee of rule set `id`, if it has one.
    pub fn referee(&self, id: &str) -> Option<&RefereeFn> {
        self.referees.iter().find(|(r, _)| r == id).map(|(_, f)| f)
    }
}
