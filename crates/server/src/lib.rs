//! The Strategikon game server: any hosted rule set played over HTTP and WebSocket.
//!
//! The server is given its rule sets (a [`tabletop::host::Registry`], with their bots), their
//! referees and a [`store::Store`] in a [`Config`]; it knows no rule set itself. It serves the
//! browser client from the binary ([`assets`]), a small REST API ([`http`]) to list rule sets
//! and scenarios, create games, download finished records and ask referees, and one WebSocket
//! per player or spectator ([`ws`]) speaking the [`protocol`]. Each game is an [`actor`]: one
//! task that serialises its commands, saves each in the store before anyone hears of it, and
//! asks bots for theirs off the async executor. Only the server rolls dice; clients see views,
//! never states, records or seeds, until the battle ends.
//!
//! ```no_run
//! # async fn run(registry: &'static tabletop::host::Registry) -> Result<(), server::StartError> {
//! let store = server::store::open("strategikon.db").await?;
//! let running = server::start(server::Config::new(registry, store), "127.0.0.1:8080".parse().unwrap()).await?;
//! println!("open http://{}/", running.local_addr());
//! running.shutdown().await;
//! # Ok(()) }
//! ```

pub mod actor;
pub mod assets;
pub mod config;
pub mod games;
pub mod guard;
pub mod http;
pub mod listen;
pub mod outbox;
pub mod protocol;
pub mod quota;
pub mod replays;
pub mod scenarios;
pub mod store;
pub mod token;
pub mod work;
pub mod ws;

pub use config::{Config, Limits, RefereeFn, ScenarioLimits};

use crate::actor::Shared;
use crate::games::Games;
use crate::scenarios::Scenarios;
use std::net::SocketAddr;
use std::sync::Arc;
use tabletop::host::Registry;
use tokio::sync::{Semaphore, oneshot};
use tokio::task::JoinHandle;

/// The server's state, shared by every route.
pub struct App {
    config: Config,
    games: Games,
    creations: quota::Creations,
    replays: replays::Replays,
}

impl App {
    /// The rule sets.
    pub fn registry(&self) -> &'static Registry {
        self.config.registry
    }

    /// The ready scenarios.
    pub fn scenarios(&self) -> &Scenarios {
        &self.config.scenarios
    }

    /// The limits.
    pub fn limits(&self) -> &Limits {
        &self.config.limits
    }

    /// The games.
    pub fn games(&self) -> &Games {
        &self.games
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The store failed.
    #[error("{0}")]
    Store(#[from] store::StoreError),
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
}

/// A running server.
pub struct Server {
    app: Arc<App>,
    local_addr: SocketAddr,
    resumed: tokio::sync::watch::Receiver<Option<usize>>,
    stop: oneshot::Sender<()>,
    task: JoinHandle<std::io::Result<()>>,
}

impl Server {
    /// The address it listens on (with the port chosen, when started on port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// How many unfinished games it resumed from the store on start, once they all have
    /// (the server listens meanwhile).
    pub async fn resumed(&self) -> usize {
        Self::count_resumed(self.resumed_watch()).await
    }

    /// What tells how many games were resumed, to wait on apart from the server.
    pub fn resumed_watch(&self) -> tokio::sync::watch::Receiver<Option<usize>> {
        self.resumed.clone()
    }

    /// How many games `watch` (from [`Server::resumed_watch`]) says were resumed, once told.
    pub async fn count_resumed(mut watch: tokio::sync::watch::Receiver<Option<usize>>) -> usize {
        let n = watch.wait_for(Option::is_some).await.map(|n| n.unwrap_or(0));
        n.unwrap_or(0)
    }

    /// The server's state.
    pub fn app(&self) -> &Arc<App> {
        &self.app
    }

    /// Stops the server: every game's actor ends (closing its connections), then the listener.
    /// Every accepted command is already in the store.
    pub async fn shutdown(self) {
        self.app.games.shutdown().await;
        let _ = self.stop.send(());
        match self.task.await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => eprintln!("the server stopped with an error: {e}"),
            Err(e) => eprintln!("the server task failed: {e}"),
        }
    }

    /// Waits until the server stops by itself (it does not, unless the listener fails).
    pub async fn wait(&mut self) -> std::io::Result<()> {
        (&mut self.task).await.map_err(std::io::Error::other)?
    }
}

/// Starts a server on `addr`: listens, then resumes every unfinished game in the store
/// (replaying each, so it continues exactly where it stopped).
pub async fn start(config: Config, addr: SocketAddr) -> Result<Server, StartError> {
    let shared = Arc::new(Shared {
        registry: config.registry,
        store: config.store.clone(),
        limits: config.limits.clone(),
        bot_slots: Arc::new(Semaphore::new(config.limits.bot_threads.max(1))),
        rules_slots: Arc::new(Semaphore::new(config.limits.rules_threads.max(1))),
        stopping: Arc::default(),
        queued_bytes: Arc::default(),
    });
    let app = Arc::new(App {
        games: Games::new(shared),
        config,
        creations: Default::default(),
        replays: Default::default(),
    });
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| StartError::Bind { addr, source })?;
    // Listen first; unfinished games resume behind (each also starts the moment someone asks
    // for it).
    let (told, resumed) = tokio::sync::watch::channel(None);
    let resuming = app.clone();
    tokio::spawn(async move {
        let n = resuming.games.resume_all().await.unwrap_or_else(|e| {
            eprintln!("cannot list the unfinished games to resume: {e}");
            0
        });
        let _ = told.send(Some(n));
    });
    let local_addr = listener.local_addr().map_err(|source| StartError::Bind { addr, source })?;
    let router = http::router(app.clone());
    let (stop, stopped) = oneshot::channel::<()>();
    let http_idle = app.limits().http_idle;
    let task = tokio::spawn(listen::serve(listener, router, http_idle, stopped));
    Ok(Server { app, local_addr, resumed, stop, task })
}
