//! What the server's integration tests share: the rule sets (as the CLI registers them), a
//! server on 127.0.0.1:0 with a real store, a small HTTP client and WebSocket players.

#![allow(dead_code)]

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use server::protocol::{ClientMessage, Created, ErrorCode, LogEntry, Role, ServerMessage};
use server::store::Store;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tabletop::host::{Host, Registry};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The error code of a message, if it is an error.
pub fn error_code(msg: &ServerMessage) -> Option<ErrorCode> {
    match msg {
        ServerMessage::Error { code, .. } => Some(*code),
        _ => None,
    }
}

/// Every rule set with its bots, registered as the CLI registers them.
pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut r = Registry::new();
        r.add(Box::new(bots::with_standard_bots(Host::new(movement::Movement::new()))));
        r.add(Box::new(othw::search::register(bots::with_standard_bots(Host::new(
            othw::Othw::new(),
        )))));
        r.add(Box::new(wrg1969::bot::register(bots::with_standard_bots(Host::new(
            wrg1969::Wrg1969::new(),
        )))));
        r.add(Box::new(freemove::bot::register(bots::with_standard_bots(Host::new(
            freemove::Freemove::new(),
        )))));
        r.add(Box::new(liberal::bot::register(bots::with_standard_bots(Host::new(
            liberal::Liberal::new(),
        )))));
        r
    })
}

/// A fresh temporary folder for one test, removed with the value.
pub fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(&format!("strategikon-server-test-{name}-")).tempdir().unwrap()
}

/// A fresh SQLite database file in a folder of its own, removed (with the folder) when the
/// value is dropped: keep it for as long as the test's server runs.
pub struct SqliteFile {
    _dir: tempfile::TempDir,
    path: String,
}

impl std::ops::Deref for SqliteFile {
    type Target = str;
    fn deref(&self) -> &str {
        &self.path
    }
}

/// A fresh SQLite database file.
pub fn sqlite_file(name: &str) -> SqliteFile {
    let dir = temp_dir(name);
    let path = dir.path().join("games.db").display().to_string();
    SqliteFile { _dir: dir, path }
}

/// The URL of the test PostgreSQL server: `STRATEGIKON_TEST_PG`, or else the one
/// `scripts/postgres` starts (installing PostgreSQL if it must).
pub fn postgres_admin_url() -> String {
    static URL: OnceLock<String> = OnceLock::new();
    URL.get_or_init(|| {
        if let Ok(url) = std::env::var("STRATEGIKON_TEST_PG")
            && !url.trim().is_empty()
        {
            return url.trim().to_string();
        }
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/postgres");
        let out = std::process::Command::new("bash")
            .arg(script)
            .arg("start")
            .output()
            .expect("scripts/postgres runs");
        assert!(
            out.status.success(),
            "scripts/postgres could not start PostgreSQL:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    })
    .clone()
}

/// A new, empty PostgreSQL database on the test server; its URL.
pub async fn postgres_database(name: &str) -> String {
    let admin = postgres_admin_url();
    let (client, conn) = tokio_postgres::connect(&admin, tokio_postgres::NoTls)
        .await
        .unwrap_or_else(|e| panic!("cannot reach the test PostgreSQL server at {admin}: {e}"));
    tokio::spawn(conn);
    let db = format!("test_{name}_{}", server::token::new_game_id().unwrap());
    client.batch_execute(&format!("CREATE DATABASE {db}")).await.unwrap();
    let base = admin.rsplit_once('/').map_or(admin.as_str(), |(b, _)| b);
    format!("{base}/{db}")
}

/// Drops a database made by [`postgres_database`] (closing whatever still uses it).
pub async fn drop_postgres_database(url: &str) {
    let admin = postgres_admin_url();
    let (client, conn) = tokio_postgres::connect(&admin, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    let db = url.rsplit_once('/').map(|(_, d)| d).unwrap();
    client.batch_execute(&format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)")).await.unwrap();
}

/// Opens a store: an SQLite file path or a PostgreSQL URL.
pub async fn store(database: &str) -> Arc<dyn Store> {
    server::store::open(database).await.unwrap()
}

/// The server's configuration for the tests: every rule set, both referees.
pub fn config(store: Arc<dyn Store>) -> server::Config {
    server::Config::new(registry(), store)
        .with_referee("movement", |q| movement::referee::answer(q).map_err(|e| e.to_string()))
        .with_referee("wrg1969", |q| wrg1969::referee::answer(q).map_err(|e| e.to_string()))
}

/// Starts a server on a free port of 127.0.0.1 keeping games in `database`.
pub async fn start(database: &str) -> server::Server {
    let store = store(database).await;
    server::start(config(store), "127.0.0.1:0".parse().unwrap()).await.unwrap()
}

/// Starts a server keeping games in `database`, with its limits changed by `limits`.
pub async fn start_with(
    database: &str,
    limits: impl FnOnce(&mut server::Limits),
) -> server::Server {
    let mut config = config(store(database).await);
    limits(&mut config.limits);
    server::start(config, "127.0.0.1:0".parse().unwrap()).await.unwrap()
}

/// An HTTP request; the status and the body.
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let (status, _, body) = http_with_head(addr, method, path, body).await;
    (status, body)
}

/// As [`http`], with the response's head (status line and headers) as well.
pub async fn http_with_head(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let body = body.unwrap_or("");
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(60), s.read_to_end(&mut raw))
        .await
        .expect("the server answers")
        .unwrap();
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, rest) = text.split_once("\r\n\r\n").expect("a response head");
    let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
    let chunked = head.to_ascii_lowercase().contains("transfer-encoding: chunked");
    let body = if chunked { dechunk(rest) } else { rest.to_string() };
    (status, head.to_string(), body)
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
    out
}

/// Creates a game with `request` (a [`server::protocol::CreateGame`] as JSON).
pub async fn create(addr: SocketAddr, request: Value) -> Created {
    let (status, body) = http(addr, "POST", "/api/games", Some(&request.to_string())).await;
    assert_eq!(status, 201, "{body}");
    serde_json::from_str(&body).unwrap()
}

/// A ready scenario with two sides' players.
pub async fn create_ready(addr: SocketAddr, scenario: &str, red: &str, blue: &str) -> Created {
    create(addr, json!({ "scenario": scenario, "red": red, "blue": blue })).await
}

/// The token of a created game's side.
pub fn token(created: &Created, side: &str) -> String {
    created
        .seats
        .iter()
        .find(|s| serde_json::to_value(s.side).unwrap() == side)
        .unwrap_or_else(|| panic!("no seat for {side}"))
        .token
        .clone()
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A WebSocket client of one game: it keeps the latest state it was sent.
pub struct Player {
    /// The socket.
    pub ws: Ws,
    /// Its role.
    pub role: Role,
    /// The latest state version.
    pub version: u64,
    /// The latest pending decision, as JSON.
    pub pending: Value,
    /// The latest view.
    pub view: Value,
    /// The latest outcome, as JSON (null while played).
    pub outcome: Value,
    /// Whether this side may undo now.
    pub can_undo: bool,
    /// The log as sent.
    pub log: Vec<LogEntry>,
    /// Every text message received, in order.
    pub received: Vec<String>,
}

/// Waits for at most this long for any message.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// Opens a game connection without saying hello.
pub async fn connect(addr: SocketAddr, id: &str) -> Ws {
    let (ws, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws")).await.unwrap();
    ws
}

impl Player {
    /// Joins game `id` with a side's token, or none to watch; returns after the first state.
    pub async fn join(addr: SocketAddr, id: &str, token: Option<&str>) -> Player {
        let mut ws = connect(addr, id).await;
        let hello = ClientMessage::Hello { token: token.map(str::to_string) };
        ws.send(Message::text(serde_json::to_string(&hello).unwrap())).await.unwrap();
        let mut p = Player {
            ws,
            role: Role::Spectator,
            version: 0,
            pending: Value::Null,
            view: Value::Null,
            outcome: Value::Null,
            can_undo: false,
            log: Vec::new(),
            received: Vec::new(),
        };
        match p.recv().await {
            ServerMessage::Welcome { role, .. } => p.role = role,
            other => panic!("expected welcome, got {other:?}"),
        }
        match p.recv().await {
            ServerMessage::State { .. } => {}
            other => panic!("expected the state, got {other:?}"),
        }
        p
    }

    /// Sends a protocol message.
    pub async fn send(&mut self, msg: &ClientMessage) {
        self.send_raw(&serde_json::to_string(msg).unwrap()).await;
    }

    /// Sends any text.
    pub async fn send_raw(&mut self, text: &str) {
        self.ws.send(Message::text(text.to_string())).await.unwrap();
    }

    /// Sends a binary frame.
    pub async fn send_binary(&mut self, bytes: Vec<u8>) {
        self.ws.send(Message::binary(bytes)).await.unwrap();
    }

    /// The next message (states update the player).
    pub async fn recv(&mut self) -> ServerMessage {
        loop {
            let frame = tokio::time::timeout(PATIENCE, self.ws.next())
                .await
                .expect("a message within the patience")
                .expect("the connection is open")
                .expect("a good frame");
            let Message::Text(t) = frame else { continue };
            self.received.push(t.to_string());
            let msg: ServerMessage = serde_json::from_str(&t).unwrap();
            if let ServerMessage::State {
                version,
                pending,
                outcome,
                view,
                log_from,
                lines,
                can_undo,
                ..
            } = &msg
            {
                self.version = *version;
                self.pending = serde_json::to_value(pending).unwrap();
                self.outcome = serde_json::to_value(outcome).unwrap();
                self.view = view.clone();
                self.can_undo = *can_undo;
                self.log.truncate(*log_from as usize);
                self.log.extend(lines.iter().cloned());
            }
            return msg;
        }
    }

    /// Whether the connection was closed by the server (reads until it is).
    pub async fn closed(&mut self) -> bool {
        loop {
            match tokio::time::timeout(PATIENCE, self.ws.next()).await {
                Err(_) => return false,
                Ok(None) | Ok(Some(Err(_))) | Ok(Some(Ok(Message::Close(_)))) => return true,
                Ok(Some(Ok(_))) => {}
            }
        }
    }

    /// Reads until the server closes the connection; the close frame's code, if it sent one.
    pub async fn close_code(&mut self) -> Option<u16> {
        loop {
            match tokio::time::timeout(PATIENCE, self.ws.next()).await {
                Err(_) | Ok(None) | Ok(Some(Err(_))) => return None,
                Ok(Some(Ok(Message::Close(frame)))) => return frame.map(|f| f.code.into()),
                Ok(Some(Ok(_))) => {}
            }
        }
    }

    /// Sends a text frame whose bytes are `bytes`, UTF-8 or not.
    pub async fn send_text_bytes(&mut self, bytes: &[u8]) {
        use tokio_tungstenite::tungstenite::protocol::frame::Frame;
        use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
        let frame = Frame::message(bytes.to_vec(), OpCode::Data(Data::Text), true);
        self.ws.send(Message::Frame(frame)).await.unwrap();
    }

    /// Reads until a state of at least `version`.
    pub async fn until_version(&mut self, version: u64) {
        while self.version < version {
            self.recv().await;
        }
    }

    /// Reads until a state that satisfies `done`.
    pub async fn until(&mut self, mut done: impl FnMut(&Player) -> bool) {
        while !done(self) {
            self.recv().await;
        }
    }

    /// Sends a command made against the latest version; the first answer to it (a state, a
    /// refusal or an error).
    pub async fn command(&mut self, command: Value) -> ServerMessage {
        let version = self.version;
        self.send(&ClientMessage::Command { version, command }).await;
        self.answer().await
    }

    /// The next message that answers a request: a state, a refusal, an error, candidates or a
    /// scene.
    pub async fn answer(&mut self) -> ServerMessage {
        self.recv().await
    }

    /// The commands this side may give now.
    pub async fn candidates(&mut self) -> Vec<Value> {
        self.send(&ClientMessage::Candidates {}).await;
        loop {
            match self.recv().await {
                ServerMessage::Candidates { commands, .. } => return commands,
                ServerMessage::State { .. } => {}
                other => panic!("expected candidates, got {other:?}"),
            }
        }
    }

    /// Asks for the full state again and returns once it came.
    pub async fn sync(&mut self) {
        self.send(&ClientMessage::Sync {}).await;
        loop {
            if let ServerMessage::State { log_from: 0, .. } = self.recv().await {
                return;
            }
        }
    }

    /// The side the pending decision names, if one side must act.
    pub fn pending_side(&self) -> Option<String> {
        match self.pending["kind"].as_str() {
            Some("side") => self.pending["side"].as_str().map(str::to_string),
            Some("both") | Some("timed") => {
                let list = if self.pending["kind"] == "both" { "waiting" } else { "sides" };
                self.pending[list].as_array()?.first()?.as_str().map(str::to_string)
            }
            _ => None,
        }
    }
}

/// A deterministic pick among `n` choices for scripted clients.
pub struct Picker(u64);

impl Picker {
    /// A picker with this seed.
    pub fn new(seed: u64) -> Picker {
        Picker(seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407))
    }

    /// An index below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}
