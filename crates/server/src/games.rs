//! The games the server holds: creating them, finding a game's actor (starting it from the
//! store when it is not running), resuming every unfinished game on start, and stopping them
//! all.

use crate::actor::{GameActor, GameHandle, Msg, Shared};
use crate::config::ScenarioLimits;
use crate::guard::guard;
use crate::protocol::{ApiError, CreateGame, Created, SeatLink, SideName};
use crate::scenarios::Scenarios;
use crate::store::{StoreError, StoredGame, StoredPlayer, now_ms};
use crate::token;
use crate::work::{self, Failure};
use axum::http::StatusCode;
use std::collections::HashMap;
use std::sync::Arc;
use tabletop::diagnostics::declared_ruleset;
use tabletop::host::{BotSpec, HostedGame, HostedRuleSet, Spend};
use tabletop::{Record, Side, Source};
use tokio::task::JoinHandle;

/// An error for the REST API: a status and a message (with a scenario's diagnostics).
pub type Rejection = (StatusCode, ApiError);

/// A rejection with a message.
pub fn reject(status: StatusCode, error: impl Into<String>) -> Rejection {
    (status, ApiError { error: error.into(), diagnostics: Vec::new() })
}

/// Why a game could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The store failed.
    #[error("{0}")]
    Store(#[from] StoreError),
    /// The server holds as many games in play as it takes.
    #[error("{0}")]
    Full(String),
}

/// The games, by ID.
pub struct Games {
    shared: Arc<Shared>,
    live: tokio::sync::Mutex<HashMap<String, GameHandle>>,
    tasks: std::sync::Mutex<Vec<JoinHandle<()>>>,
}

impl Games {
    /// No games yet.
    pub fn new(shared: Arc<Shared>) -> Games {
        Games { shared, live: Default::default(), tasks: Default::default() }
    }

    /// The shared parts.
    pub fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    /// Creates a game: checks the request and the scenario (with the CLI's diagnostics), draws
    /// a secret seed and a token per human side, stores the game and starts its actor.
    pub async fn create(
        &self,
        req: CreateGame,
        scenarios: &Scenarios,
    ) -> Result<Created, Rejection> {
        let bad = |m: String| reject(StatusCode::BAD_REQUEST, m);
        let (rules, source) = self.scenario_of(&req, scenarios)?;
        let mut players = Vec::new();
        for (side, spec) in [(Side::Red, &req.red), (Side::Blue, &req.blue)] {
            let spec = spec.trim();
            if spec == "human" {
                players.push(None);
                continue;
            }
            let parsed = BotSpec::parse(spec).map_err(|e| bad(format!("{side}: {e}")))?;
            guard(|| rules.new_bot(&parsed))
                .unwrap_or_else(Err)
                .map_err(|e| bad(format!("{side}: {e} (or `human` for a person)")))?;
            self.within_bot_budget(&parsed).map_err(|e| bad(format!("{side}: {e}")))?;
            players.push(Some(parsed.to_string()));
        }
        let internal =
            |e: token::RandomError| reject(StatusCode::INTERNAL_SERVER_ERROR, e.to_string());
        let seed = token::new_seed().map_err(internal)?;
        let limits = self.shared.limits.scenario.clone();
        if source.text.len() > limits.max_bytes {
            return Err(reject(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "{}: the scenario is {} bytes; scenarios here may have at most {}",
                    source.name,
                    source.text.len(),
                    limits.max_bytes
                ),
            ));
        }
        let time = Some(self.shared.limits.create_time);
        let made = {
            let source = source.clone();
            work::run(&self.shared, time, None, move || {
                rules.new_game(source, seed).map(|game| {
                    let scene = game.scene(tabletop::Viewer::Spectator);
                    let too_big = too_big(&scene, &limits);
                    (game, too_big)
                })
            })
            .await
        };
        let made = made.map_err(|e| {
            let status = match e {
                Failure::Stopped(_) => StatusCode::UNPROCESSABLE_ENTITY,
                Failure::Panicked(_) => StatusCode::INTERNAL_SERVER_ERROR,
            };
            reject(status, format!("{}: making the game {e}", source.name))
        })?;
        let made = made.map(|(game, too_big)| match too_big {
            None => Ok(game),
            Some(why) => Err(why),
        });
        let game = made.map_err(|d| {
            let n = d.len();
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                ApiError {
                    error: format!(
                        "{}: the scenario has {n} problem{}",
                        source.name,
                        if n == 1 { "" } else { "s" }
                    ),
                    diagnostics: d.iter().map(|d| d.to_string()).collect(),
                },
            )
        })?;
        let game = game.map_err(|why| {
            reject(StatusCode::UNPROCESSABLE_ENTITY, format!("{}: {why}", source.name))
        })?;
        let id = token::new_game_id().map_err(internal)?;
        let mut seats = Vec::new();
        let mut stored_players = Vec::new();
        for (side, player) in Side::BOTH.into_iter().zip(players) {
            stored_players.push(match player {
                Some(spec) => StoredPlayer::Bot { spec },
                None => {
                    let token = token::new_token().map_err(internal)?;
                    let stored = StoredPlayer::Human { token_hash: token::hash_token(&token) };
                    let link = format!("/game/{id}#token={token}");
                    seats.push(SeatLink { side: SideName::from(side), token, link });
                    stored
                }
            });
        }
        let players: [StoredPlayer; 2] = stored_players.try_into().expect("two sides");
        let stored = StoredGame {
            id: id.clone(),
            record: Record {
                ruleset: rules.id().to_string(),
                version: rules.version().to_string(),
                scenario_name: source.name.clone(),
                scenario: source.text.clone(),
                seed,
                commands: Vec::new(),
            },
            players,
            created_ms: now_ms(),
            finished_ms: None,
            result: None,
        };
        self.shared.store.create(&stored).await.map_err(|e| {
            eprintln!("cannot store a new game: {e}");
            reject(StatusCode::SERVICE_UNAVAILABLE, format!("the game could not be saved: {e}"))
        })?;
        let mut live = self.live.lock().await;
        self.make_room(&mut live).await.map_err(|e| reject(StatusCode::SERVICE_UNAVAILABLE, e))?;
        let handle = self.spawn(rules, &stored, game);
        live.insert(id.clone(), handle);
        Ok(Created { spectator: format!("/game/{id}"), id, seats })
    }

    /// The rule set and scenario a request names.
    fn scenario_of(
        &self,
        req: &CreateGame,
        scenarios: &Scenarios,
    ) -> Result<(&'static dyn HostedRuleSet, Source), Rejection> {
        let bad = |m: String| reject(StatusCode::BAD_REQUEST, m);
        let registry = self.shared.registry;
        let find = |id: &str| {
            registry
                .get(id)
                .ok_or_else(|| bad(format!("unknown rule set '{id}' (known: {})", registry.ids())))
        };
        match (&req.scenario, &req.scenario_text) {
            (Some(_), Some(_)) => {
                Err(bad("give a ready scenario or an uploaded one, not both".into()))
            }
            (None, None) => Err(bad("give a ready scenario's name or upload a scenario".into())),
            (Some(name), None) => {
                let (ruleset, name) = match (&req.ruleset, name.split_once('/')) {
                    (Some(r), _) => (r.as_str(), name.as_str()),
                    (None, Some((r, n))) => (r, n),
                    (None, None) => {
                        return Err(bad("a ready scenario needs its rule set".into()));
                    }
                };
                let rules = find(ruleset)?;
                let ready = scenarios.get(ruleset, name).ok_or_else(|| {
                    let known: Vec<&str> = scenarios.of(ruleset).map(|s| s.name.as_str()).collect();
                    bad(format!(
                        "the rule set '{ruleset}' has no ready scenario '{name}' (ready: {})",
                        known.join(", ")
                    ))
                })?;
                Ok((rules, Source::new(ready.file_name(), ready.text.clone())))
            }
            (None, Some(text)) => {
                let name = upload_name(req.scenario_file.as_deref());
                let ruleset = match (&req.ruleset, declared_ruleset(text)) {
                    (Some(r), _) => r.clone(),
                    (None, Some(r)) => r,
                    (None, None) => {
                        return Err(bad(format!(
                            "{name}: cannot tell which rule set this scenario is for: add a line \
                             `ruleset = \"…\"` at the top (known: {})",
                            registry.ids()
                        )));
                    }
                };
                Ok((find(&ruleset)?, Source::new(name, text.clone())))
            }
        }
    }

    /// Whether a bot spec asks for no more thinking a decision than this server gives.
    fn within_bot_budget(&self, spec: &BotSpec) -> Result<(), String> {
        let limits = &self.shared.limits;
        match spec.spend() {
            Some(Spend::Time(t)) if t > limits.bot_time => Err(format!(
                "'{spec}' asks for {} s a decision; bots here think at most {} s",
                t.as_secs_f64(),
                limits.bot_time.as_secs_f64()
            )),
            Some(Spend::Iterations(n)) if n > limits.bot_iterations => Err(format!(
                "'{spec}' asks for {n} iterations a decision; bots here take at most {}",
                limits.bot_iterations
            )),
            _ => Ok(()),
        }
    }

    fn spawn(
        &self,
        rules: &'static dyn HostedRuleSet,
        stored: &StoredGame,
        game: Box<dyn HostedGame>,
    ) -> GameHandle {
        let (handle, task) = GameActor::spawn(self.shared.clone(), rules, stored, game);
        let mut tasks = self.tasks.lock().unwrap_or_else(|e| e.into_inner());
        tasks.retain(|t| !t.is_finished());
        tasks.push(task);
        handle
    }

    /// Replays a stored game and starts its actor; `None` (with a message on standard error)
    /// if it cannot be replayed, in which case it stays in the store untouched.
    async fn start(&self, stored: StoredGame) -> Option<GameHandle> {
        let Some(rules) = self.shared.registry.get(&stored.record.ruleset) else {
            eprintln!(
                "game {}: the rule set '{}' is not hosted; the game is left as stored",
                stored.id, stored.record.ruleset
            );
            return None;
        };
        let record = stored.record.clone();
        // Every command in it was accepted once: a replay has no budget but the server's
        // stopping.
        let replayed = work::run(&self.shared, None, None, move || rules.replay(&record)).await;
        match replayed {
            Ok(Ok(game)) => Some(self.spawn(rules, &stored, game)),
            Ok(Err(e)) => {
                eprintln!("game {}: does not replay ({e}); the game is left as stored", stored.id);
                None
            }
            Err(e) => {
                eprintln!("game {}: replaying {e}; the game is left as stored", stored.id);
                None
            }
        }
    }

    /// The actor of game `id`, started from the store if it is not running; `None` for no
    /// such game (or one that cannot be replayed).
    pub async fn handle(&self, id: &str) -> Result<Option<GameHandle>, OpenError> {
        if !token::is_game_id(id) {
            return Ok(None);
        }
        let mut live = self.live.lock().await;
        match live.get(id) {
            Some(h) if !h.is_closed() => return Ok(Some(h.clone())),
            Some(_) => {
                live.remove(id);
            }
            None => {}
        }
        let Some(stored) = self.shared.store.load(id).await? else { return Ok(None) };
        self.make_room(&mut live).await.map_err(OpenError::Full)?;
        let Some(handle) = self.start(stored).await else { return Ok(None) };
        live.insert(id.to_string(), handle.clone());
        Ok(Some(handle))
    }

    /// Makes room for one more game in memory: past [`Limits::games_in_memory`] the games
    /// idle longest (nobody connected, no bot thinking) leave memory; they live on in the
    /// store. An error if every game held is in play.
    ///
    /// [`Limits::games_in_memory`]: crate::Limits::games_in_memory
    async fn make_room(&self, live: &mut HashMap<String, GameHandle>) -> Result<(), String> {
        live.retain(|_, h| !h.is_closed());
        let cap = self.shared.limits.games_in_memory.max(1);
        while live.len() >= cap {
            let mut idle: Vec<(u64, String)> =
                live.iter().filter_map(|(id, h)| Some((h.idle_since()?, id.clone()))).collect();
            idle.sort();
            let mut freed = false;
            for (_, id) in idle.into_iter().take(live.len() + 1 - cap) {
                let h = live[&id].clone();
                if h.send(Msg::Evict).await
                    && tokio::time::timeout(std::time::Duration::from_secs(1), h.closed())
                        .await
                        .is_err()
                {
                    // It came into play meanwhile: it stays.
                    continue;
                }
                live.remove(&id);
                freed = true;
            }
            if !freed {
                return Err(format!(
                    "the server holds {} games in play, as many as it takes; try again later",
                    live.len()
                ));
            }
        }
        Ok(())
    }

    /// How many games' actors are running.
    pub async fn running(&self) -> usize {
        self.live.lock().await.values().filter(|h| !h.is_closed()).count()
    }

    /// Starts every unfinished game in the store (replaying each); returns how many run.
    pub async fn resume_all(&self) -> Result<usize, StoreError> {
        let games = self.shared.store.unfinished().await?;
        let mut n = 0;
        for stored in games {
            if self.shared.stopping.load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
            // A game someone already asked for is running; the others are replayed one by
            // one without holding up anyone's request meanwhile.
            if self.live.lock().await.get(&stored.id).is_some_and(|h| !h.is_closed()) {
                n += 1;
                continue;
            }
            let id = stored.id.clone();
            let Some(handle) = self.start(stored).await else { continue };
            let mut live = self.live.lock().await;
            match live.get(&id) {
                Some(h) if !h.is_closed() => handle.send(Msg::Shutdown).await,
                _ => live.insert(id, handle).is_some(),
            };
            n += 1;
        }
        Ok(n)
    }

    /// Stops every actor (closing its connections) and waits for them.
    pub async fn shutdown(&self) {
        // Bots and rule-set work stop at their next check, so no actor waits on them.
        self.shared.stopping.store(true, std::sync::atomic::Ordering::Relaxed);
        let handles: Vec<GameHandle> = self.live.lock().await.drain().map(|(_, h)| h).collect();
        for h in handles {
            h.send(Msg::Shutdown).await;
        }
        let tasks: Vec<JoinHandle<()>> =
            std::mem::take(&mut *self.tasks.lock().unwrap_or_else(|e| e.into_inner()));
        for t in tasks {
            let _ = t.await;
        }
    }
}

/// An uploaded file's name for diagnostics: its last path component, printable (no control
/// or text-direction characters), at most 100 characters; `upload.toml` if none.
fn upload_name(given: Option<&str>) -> String {
    let name = given
        .and_then(|n| n.rsplit(['/', '\\']).next())
        .map(|n| {
            n.chars()
                .filter(|&c| !c.is_control() && !tabletop::diagnostics::is_direction_control(c))
                .take(100)
                .collect::<String>()
        })
        .unwrap_or_default();
    if name.trim().is_empty() { "upload.toml".to_string() } else { name }
}

/// Why a new game is larger than the server takes, if it is: its units, stands and table as
/// drawn.
fn too_big(scene: &tabletop::render::Scene, limits: &ScenarioLimits) -> Option<String> {
    let units: Vec<_> = scene.pieces.iter().filter(|p| p.side.is_some()).collect();
    let stands: usize = units.iter().map(|p| p.stands.len().max(1)).sum();
    let side = scene.table.width.max(scene.table.height);
    if units.len() > limits.max_units {
        Some(format!(
            "the scenario has {} units; scenarios here may have at most {}",
            units.len(),
            limits.max_units
        ))
    } else if stands > limits.max_stands {
        Some(format!(
            "the scenario has {stands} stands; scenarios here may have at most {}",
            limits.max_stands
        ))
    } else if side.is_nan() || side > limits.max_table_inches {
        Some(format!(
            "the table is {side}\" across; tables here may be at most {}\"",
            limits.max_table_inches
        ))
    } else {
        None
    }
}
