//! The HTTP routes: the client's files, the REST API (JSON) and the game connection.
//!
//! | route | what |
//! |---|---|
//! | `GET /`, `GET /game/{id}` | the client (`index.html`) |
//! | `GET /{file}` | the client's other files |
//! | `GET /api/rulesets` | the rule sets, their bots and ready scenarios ([`RuleSetEntry`]) |
//! | `GET /api/rulesets/{id}/scenarios/{name}` | a ready scenario's text |
//! | `POST /api/games` | create a game ([`CreateGame`] → [`Created`]) |
//! | `GET /api/games/{id}` | what anyone may know of a game ([`GameInfo`]) |
//! | `GET /api/games/{id}/record` | a finished game's record (refused while it is played) |
//! | `GET /api/games/{id}/replay?step=N` | a finished game's table and log after N commands ([`ReplayFrame`]) |
//! | `GET /api/games/{id}/ws` | the game connection (WebSocket, see [`crate::protocol`]) |
//! | `POST /api/referee/{id}` | a referee question (the rule set's JSON) and its answer |

use crate::App;
use crate::games::{Rejection, reject};
use crate::guard::guard;
use crate::protocol::{
    ApiError, BotEntry, CreateGame, Created, GameInfo, PlayerInfo, RuleSetEntry, ScenarioEntry,
};
use crate::replays::Replay;
use crate::store::StoredPlayer;
use crate::token;
use crate::work;
use axum::extract::ConnectInfo;
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use std::net::SocketAddr;
use std::sync::Arc;

/// The server's routes.
pub fn router(app: Arc<App>) -> Router {
    let body_limit = app.limits().max_body_bytes;
    let request_time = app.limits().request_time;
    Router::new()
        .route("/", get(index))
        .route("/game/{id}", get(index))
        .route("/api/rulesets", get(rulesets))
        .route("/api/rulesets/{ruleset}/scenarios/{name}", get(scenario_text))
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(info))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/replay", get(replay))
        .route("/api/games/{id}/ws", get(crate::ws::upgrade))
        .route("/api/referee/{ruleset}", post(referee))
        .fallback(static_file)
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(axum::middleware::from_fn(move |req, next| {
            crate::listen::request_timeout(request_time, req, next)
        }))
        .layer(axum::middleware::map_response(guarded))
        .with_state(app)
}

/// Every response, the API's and errors included, forbids guessing its type and carries the
/// pages' content policy.
async fn guarded(mut r: Response) -> Response {
    let h = r.headers_mut();
    h.insert(header::X_CONTENT_TYPE_OPTIONS, header::HeaderValue::from_static("nosniff"));
    h.entry(header::CONTENT_SECURITY_POLICY)
        .or_insert(header::HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    h.entry(header::REFERRER_POLICY).or_insert(header::HeaderValue::from_static("no-referrer"));
    r
}

fn error(r: Rejection) -> Response {
    (r.0, Json(r.1)).into_response()
}

/// What the client's pages may load and run: their own scripts and styles, pictures of the
/// table drawn from blobs, connections back to this server only (`'self'` covers its own
/// `ws:`/`wss:` address); no framing by other sites.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' blob: data:; \
     style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'";

fn file(path: &str) -> Response {
    match crate::assets::get(path) {
        Some((body, kind)) => {
            ([(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "no-cache")], body.into_owned())
                .into_response()
        }
        None => error(reject(StatusCode::NOT_FOUND, format!("no file '{path}'"))),
    }
}

async fn index() -> Response {
    file("index.html")
}

async fn static_file(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if path.starts_with("api/") || path.split('/').any(|p| p == ".." || p.is_empty()) {
        return error(reject(StatusCode::NOT_FOUND, format!("nothing at '{}'", uri.path())));
    }
    file(path)
}

async fn rulesets(State(app): State<Arc<App>>) -> Json<Vec<RuleSetEntry>> {
    let entries = app
        .registry()
        .all()
        .map(|r| RuleSetEntry {
            id: r.id().to_string(),
            version: r.version().to_string(),
            bots: r.bots().into_iter().map(|b| BotEntry { name: b.name, about: b.about }).collect(),
            scenarios: app
                .scenarios()
                .of(r.id())
                .map(|s| ScenarioEntry { name: s.name.clone(), about: s.about.clone() })
                .collect(),
            referee: app.config.referee(r.id()).is_some(),
        })
        .collect();
    Json(entries)
}

async fn scenario_text(
    State(app): State<Arc<App>>,
    Path((ruleset, name)): Path<(String, String)>,
) -> Response {
    match app.scenarios().get(&ruleset, &name) {
        Some(s) => {
            ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], s.text.clone()).into_response()
        }
        None => error(reject(StatusCode::NOT_FOUND, format!("no ready scenario {ruleset}/{name}"))),
    }
}

async fn create(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    body: Result<Json<CreateGame>, JsonRejection>,
) -> Response {
    let Json(req) = match body {
        Ok(b) => b,
        Err(e) => return error(reject(e.status(), e.body_text())),
    };
    if let Err(r) = app.creations.allow(client.ip(), app.limits().games_per_minute) {
        return error(r);
    }
    match app.games.create(req, app.scenarios()).await {
        Ok(created) => (StatusCode::CREATED, Json::<Created>(created)).into_response(),
        Err(r) => error(r),
    }
}

async fn info(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    match load(&app, &id).await {
        Ok(g) => Json(GameInfo {
            id: g.id,
            ruleset: g.record.ruleset,
            version: g.record.version,
            scenario_name: g.record.scenario_name,
            players: g
                .players
                .iter()
                .map(|p| match p {
                    StoredPlayer::Human { .. } => PlayerInfo::Human,
                    StoredPlayer::Bot { spec } => PlayerInfo::Bot { spec: spec.clone() },
                })
                .collect(),
            finished: g.finished_ms.is_some(),
        })
        .into_response(),
        Err(r) => error(r),
    }
}

async fn load(app: &App, id: &str) -> Result<crate::store::StoredGame, Rejection> {
    let none = || reject(StatusCode::NOT_FOUND, format!("no game '{id}'"));
    if !token::is_game_id(id) {
        return Err(none());
    }
    match app.games.shared().store.load(id).await {
        Ok(Some(g)) => Ok(g),
        Ok(None) => Err(none()),
        Err(e) => Err(reject(StatusCode::SERVICE_UNAVAILABLE, e.to_string())),
    }
}

/// A finished game's record, to download. While the battle is played the record (its seed,
/// and so the dice to come) is secret.
async fn record(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    match load(&app, &id).await {
        Ok(g) if g.finished_ms.is_some() => {
            let name = format!("attachment; filename=\"strategikon-{}.json\"", g.id);
            ([(header::CONTENT_DISPOSITION, name)], Json(g.record)).into_response()
        }
        Ok(_) => error(reject(
            StatusCode::CONFLICT,
            "the battle is not over: its record stays secret until it ends",
        )),
        Err(r) => error(r),
    }
}

/// Which step of a replay to show.
#[derive(serde::Deserialize)]
struct StepQuery {
    #[serde(default)]
    step: u64,
    /// How many log lines the viewer already has.
    #[serde(default)]
    from: u64,
}

/// One step of a finished game's replay, as the umpire sees it: the record's first `step`
/// commands played again (each checked against its recorded state hash).
async fn replay(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    query: Result<Query<StepQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let Ok(Query(StepQuery { step, from })) = query else {
        return error(reject(StatusCode::BAD_REQUEST, "step and from must be whole numbers"));
    };
    let g = match load(&app, &id).await {
        Ok(g) if g.finished_ms.is_some() => g,
        Ok(_) => {
            return error(reject(
                StatusCode::CONFLICT,
                "the battle is not over: it can be replayed once it ends",
            ));
        }
        Err(r) => return error(r),
    };
    let steps = g.record.commands.len() as u64;
    if step > steps {
        return error(reject(
            StatusCode::NOT_FOUND,
            format!("the game has {steps} commands: there is no step {step}"),
        ));
    }
    let Some(rules) = app.registry().get(&g.record.ruleset) else {
        return error(reject(
            StatusCode::NOT_FOUND,
            format!("this server does not play '{}'", g.record.ruleset),
        ));
    };
    // Played once and kept; each step then starts from a copy near it.
    let replay = match app.replays.get(&id) {
        Some(r) => r,
        None => {
            let record = g.record;
            let built =
                work::run(app.games().shared(), None, None, move || Replay::build(rules, record))
                    .await;
            match built {
                Ok(Ok(r)) => {
                    let r = Arc::new(r);
                    app.replays.keep(&id, r.clone());
                    r
                }
                Ok(Err(e)) => return error(reject(StatusCode::INTERNAL_SERVER_ERROR, e)),
                Err(e) => {
                    return error(reject(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        format!("the replay failed: {e}"),
                    ));
                }
            }
        }
    };
    let time = Some(app.limits().command_time);
    let built = work::run(app.games().shared(), time, None, move || replay.frame(step, from))
        .await
        .map(|frame| frame.map_err(|e| e.to_string()));
    match built {
        Ok(Ok(frame)) => Json(frame).into_response(),
        Ok(Err(e)) => error(reject(StatusCode::INTERNAL_SERVER_ERROR, e)),
        Err(e) => error(reject(StatusCode::INTERNAL_SERVER_ERROR, format!("the replay {e}"))),
    }
}

async fn referee(
    State(app): State<Arc<App>>,
    Path(ruleset): Path<String>,
    body: Result<Json<serde_json::Value>, JsonRejection>,
) -> Response {
    let Some(answer) = app.config.referee(&ruleset).cloned() else {
        let known: Vec<&str> = app.config.referees.iter().map(|(id, _)| id.as_str()).collect();
        return error(reject(
            StatusCode::NOT_FOUND,
            format!("no referee for '{ruleset}' (referees: {})", known.join(", ")),
        ));
    };
    let Json(question) = match body {
        Ok(b) => b,
        Err(e) => return error(reject(e.status(), e.body_text())),
    };
    let answered = tokio::task::spawn_blocking(move || guard(|| answer(&question))).await;
    match answered {
        Ok(Ok(Ok(a))) => Json(a).into_response(),
        Ok(Ok(Err(why))) => error(reject(StatusCode::BAD_REQUEST, why)),
        Ok(Err(panic)) => {
            eprintln!("referee {ruleset}: {panic}");
            error(reject(StatusCode::INTERNAL_SERVER_ERROR, "the referee failed on this question"))
        }
        Err(e) => error(reject(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())),
    }
}

/// An [`ApiError`] as a response.
impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (StatusCode::BAD_REQUEST, Json(self)).into_response()
    }
}
