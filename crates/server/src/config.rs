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
    /// How many bytes may wait for a connection (a client that does not read) before it is
    /// dropped.
    pub outbox_bytes: usize,
    /// Past how many bytes waiting a connection is sent no more states until it catches up;
    /// then it gets one state covering all it missed.
    pub coalesce_bytes: usize,
    /// How long writing one message to a socket may take before the connection is dropped.
    pub write_timeout: Duration,
    /// How long an HTTP connection may take to send a request's headers, and may stay open
    /// between requests.
    pub http_idle: Duration,
    /// How long an HTTP request may take from its headers to its answer (a slow upload).
    pub request_time: Duration,
    /// How many games may be held in memory at once; past it, the one idle longest is dropped
    /// from memory (it lives on in the store and comes back when someone opens it).
    pub games_in_memory: usize,
    /// How many spectators one game takes.
    pub spectators_per_game: usize,
    /// How many connections one side's player may hold at once (tabs, devices); spectators
    /// never take their places.
    pub connections_per_side: usize,
    /// How many games one client address may create a minute.
    pub games_per_minute: u32,
    /// How often a connection is pinged.
    pub ping_every: Duration,
    /// How long a connection may send nothing (not even a pong) before it is closed.
    pub idle_socket: Duration,
    /// How long a new connection has to say `hello`.
    pub hello_timeout: Duration,
    /// How long a game's actor stays in memory with no connection and no bot thinking; it is
    /// started again from the store when someone comes back.
    pub idle_actor: Duration,
    /// The longest a bot may be asked to think over one decision (`mcts:10s`).
    pub bot_time: Duration,
    /// The most search iterations a bot may be asked for a decision (`mcts:100000`).
    pub bot_iterations: u64,
    /// How many threads may do rule-set work (commands, menus, candidates, new games) at
    /// once, server-wide. More than the processors, so that a light game's command gets a
    /// thread while heavy ones run, and the system shares the processors between them.
    pub rules_threads: usize,
    /// The processor time one command, menu or candidate list may take; past it the work is
    /// stopped, nothing changes and the client is told.
    pub command_time: Duration,
    /// The processor time creating (or resuming) one game may take.
    pub create_time: Duration,
    /// What an uploaded scenario may hold.
    pub scenario: ScenarioLimits,
}

/// What an uploaded scenario may hold, checked when a game is created.
#[derive(Clone, Debug)]
pub struct ScenarioLimits {
    /// The longest scenario text, in bytes.
    pub max_bytes: usize,
    /// The most units (both sides together).
    pub max_units: usize,
    /// The most stands (both sides together; a unit drawn as one piece counts one).
    pub max_stands: usize,
    /// The longest side of the table, in inches.
    pub max_table_inches: f64,
}

impl Default for ScenarioLimits {
    fn default() -> Self {
        ScenarioLimits {
            max_bytes: 256 * 1024,
            max_units: 400,
            max_stands: 4_000,
            max_table_inches: 1_200.0,
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_message_bytes: 64 * 1024,
            max_body_bytes: 1024 * 1024,
            max_commands: 100_000,
            bot_threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
            outbox: 256,
            outbox_bytes: 4 * 1024 * 1024,
            coalesce_bytes: 256 * 1024,
            write_timeout: Duration::from_secs(30),
            http_idle: Duration::from_secs(30),
            request_time: Duration::from_secs(30),
            games_in_memory: 2_000,
            spectators_per_game: 64,
            connections_per_side: 8,
            games_per_minute: 30,
            ping_every: Duration::from_secs(20),
            idle_socket: Duration::from_secs(60),
            hello_timeout: Duration::from_secs(10),
            idle_actor: Duration::from_secs(15 * 60),
            bot_time: Duration::from_secs(10),
            bot_iterations: 100_000,
            rules_threads: std::thread::available_parallelism().map_or(8, |n| (4 * n.get()).max(8)),
            command_time: Duration::from_secs(5),
            create_time: Duration::from_secs(10),
            scenario: ScenarioLimits::default(),
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
    /// Pages on other origins (`http://host:port`) whose scripts may open game connections;
    /// the server's own origin always may, and so may clients that send no `Origin` (they are
    /// not pages in a browser).
    pub allowed_origins: Vec<String>,
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
            allowed_origins: Vec::new(),
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

    /// Whether a game connection whose page came from `origin` (the request's `Origin`) may
    /// open, when the request was addressed to `host` (its `Host`): the same host and port, or
    /// an origin allowed by name.
    pub fn origin_allowed(&self, origin: &str, host: Option<&str>) -> bool {
        let origin = origin.trim_end_matches('/');
        let own = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
            .is_some_and(|h| host.is_some_and(|host| h.eq_ignore_ascii_case(host)));
        own || self
            .allowed_origins
            .iter()
            .any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin))
    }

    /// The referee of rule set `id`, if it has one.
    pub fn referee(&self, id: &str) -> Option<&RefereeFn> {
        self.referees.iter().find(|(r, _)| r == id).map(|(_, f)| f)
    }
}
