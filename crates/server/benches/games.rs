//! Command round trips under load: many concurrent O/THW games (`open_field`, person against
//! person) over loopback, each driven by two scripted WebSocket clients, with an SQLite store.
//!
//! A client asks for its candidate commands, thinks (the think time times 0.5 to 1.5, drawn
//! per command; each game starts at a random moment within one think time), picks one and sends it; the
//! round trip is from sending the command to receiving the state that confirms it (the
//! command checked, executed, saved in the store, and the views of both sides and the log
//! lines sent). Reported: p50, p90, p99 and the largest round trip, and commands per second.
//!
//! `cargo bench -p server --bench games` plays 200 games of 60 commands each with a 100 ms
//! think time. `cargo test --benches` runs it once, small. Settings by environment variable:
//! `STRATEGIKON_BENCH_GAMES`, `STRATEGIKON_BENCH_COMMANDS` (per game),
//! `STRATEGIKON_BENCH_THINK_MS`, and `STRATEGIKON_BENCH_SPECTATORS`: spectators watching each
//! game (default 0; 3 makes 200 games 1,000 connections), each reading every state sent to it
//! until its game is over; reported is how many states they received and how long after the
//! command was sent the last spectator had each one.

use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::value::RawValue;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use tabletop::host::{Host, Registry};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut r = Registry::new();
        r.add(Box::new(othw::search::register(bots::with_standard_bots(Host::new(
            othw::Othw::new(),
        )))));
        r
    })
}

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

async fn create(addr: SocketAddr) -> Value {
    let body = json!({"scenario": "othw/open_field", "red": "human", "blue": "human"}).to_string();
    let mut s = TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "POST /api/games HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).await.unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 201"), "{raw}");
    serde_json::from_str(body).unwrap()
}

async fn join(addr: SocketAddr, id: &str, token: &str) -> Ws {
    let (mut ws, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws")).await.unwrap();
    let hello = json!({"type": "hello", "token": token}).to_string();
    ws.send(Message::text(hello)).await.unwrap();
    ws
}

/// What a scripted client reads of a server message: the rest (views, log lines) is skipped
/// without being built, as a browser on another machine would spend its own time on it.
#[derive(Deserialize)]
struct Msg {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    version: Option<u64>,
    #[serde(default)]
    pending: Option<Pending>,
    #[serde(default)]
    outcome: Option<IgnoredAny>,
    #[serde(default)]
    commands: Option<Vec<Box<RawValue>>>,
    #[serde(default)]
    message: Option<String>,
}

#[derive(Deserialize)]
struct Pending {
    #[serde(default)]
    side: Option<String>,
}

async fn next(ws: &mut Ws) -> Msg {
    loop {
        match ws.next().await.expect("open").expect("a frame") {
            Message::Text(t) => return serde_json::from_str(&t).unwrap(),
            _ => continue,
        }
    }
}

/// Reads until a state of at least `version`; returns it.
async fn state_at(ws: &mut Ws, version: u64) -> Msg {
    loop {
        let m = next(ws).await;
        if m.kind == "state" && m.version.unwrap_or(0) >= version {
            return m;
        }
        assert!(m.kind != "error" && m.kind != "refused", "{}: {:?}", m.kind, m.message);
    }
}

/// Watches a game as a spectator until `done` is raised: when each state version arrived.
async fn watch(
    addr: SocketAddr,
    id: String,
    mut done: tokio::sync::watch::Receiver<bool>,
) -> Vec<(u64, Instant)> {
    let (mut ws, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws")).await.unwrap();
    ws.send(Message::text(r#"{"type":"hello"}"#)).await.unwrap();
    let mut seen = Vec::new();
    loop {
        tokio::select! {
            m = next(&mut ws) => {
                if m.kind == "state" {
                    seen.push((m.version.unwrap_or(0), Instant::now()));
                }
            }
            _ = done.changed() => break,
        }
    }
    seen
}

/// What one game measured: its command round trips, and for each command the delay until the
/// last of its spectators had the state it made.
struct Played {
    round_trips: Vec<Duration>,
    to_spectators: Vec<Duration>,
    states_to_spectators: usize,
}

/// Plays one game; the round trips of its commands.
async fn play(
    addr: SocketAddr,
    seed: u64,
    commands: u64,
    think: Duration,
    spectators: u64,
) -> Played {
    let game = create(addr).await;
    let id = game["id"].as_str().unwrap().to_string();
    let mut sockets = Vec::new();
    for seat in game["seats"].as_array().unwrap() {
        sockets.push(join(addr, &id, seat["token"].as_str().unwrap()).await);
    }
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let watchers: Vec<_> =
        (0..spectators).map(|_| tokio::spawn(watch(addr, id.clone(), stopped.clone()))).collect();
    let mut state = None;
    for ws in &mut sockets {
        state = Some(state_at(ws, 0).await);
    }
    let mut state = state.unwrap();
    let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut draw = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    // Players do not all think alike: each pause is the think time times 0.5 to 1.5, and the
    // games start spread over one think time, so the clients do not command in lockstep.
    let pause = move |r: u64| think.mul_f64(0.5 + (r % 1000) as f64 / 1000.0);
    tokio::time::sleep(think.mul_f64((draw() % 1000) as f64 / 1000.0)).await;
    let mut times = Vec::new();
    let mut sent_at = Vec::new();
    for version in 0..commands {
        if state.outcome.is_some() {
            break;
        }
        let side = state.pending.as_ref().and_then(|p| p.side.clone()).expect("one side acts");
        let me = usize::from(side == "blue");
        let ws = &mut sockets[me];
        ws.send(Message::text(r#"{"type":"candidates"}"#)).await.unwrap();
        let candidates = loop {
            let m = next(ws).await;
            if m.kind == "candidates" {
                break m.commands.unwrap_or_default();
            }
        };
        let command = candidates[(draw() % candidates.len() as u64) as usize].get();
        tokio::time::sleep(pause(draw())).await;
        let msg = format!(r#"{{"type":"command","version":{version},"command":{command}}}"#);
        let sent = Instant::now();
        ws.send(Message::text(msg)).await.unwrap();
        state = state_at(ws, version + 1).await;
        times.push(sent.elapsed());
        sent_at.push(sent);
        state_at(&mut sockets[1 - me], version + 1).await;
    }
    // A moment for the last state to reach the spectators, then they leave.
    tokio::time::sleep(Duration::from_millis(200)).await;
    stop.send(true).ok();
    let mut last_seen: Vec<Option<Instant>> = vec![None; sent_at.len()];
    let mut states_to_spectators = 0;
    for w in watchers {
        let seen = w.await.unwrap();
        states_to_spectators += seen.len();
        for (version, at) in seen {
            // The state after command `version - 1`.
            if let Some(slot) = version.checked_sub(1).and_then(|i| last_seen.get_mut(i as usize)) {
                *slot = Some(slot.map_or(at, |s: Instant| s.max(at)));
            }
        }
    }
    let to_spectators = if spectators == 0 {
        Vec::new()
    } else {
        sent_at.iter().zip(&last_seen).filter_map(|(s, l)| l.map(|l| l - *s)).collect()
    };
    Played { round_trips: times, to_spectators, states_to_spectators }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let games = setting("STRATEGIKON_BENCH_GAMES", if full { 200 } else { 4 });
    let commands = setting("STRATEGIKON_BENCH_COMMANDS", if full { 60 } else { 10 });
    let think = Duration::from_millis(setting("STRATEGIKON_BENCH_THINK_MS", 100));
    let spectators = setting("STRATEGIKON_BENCH_SPECTATORS", if full { 0 } else { 1 });
    let dir = std::env::temp_dir().join(format!("strategikon-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("bench.db").display().to_string();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let (times, watched, states_watched, secs) = runtime.block_on(async {
        let store = server::store::open(&db).await.unwrap();
        let mut config = server::Config::new(registry(), store);
        // Every game comes from this one address.
        config.limits.games_per_minute = u32::MAX;
        let running = server::start(config, "127.0.0.1:0".parse().unwrap()).await.unwrap();
        let addr = running.local_addr();
        let started = Instant::now();
        let tasks: Vec<_> = (0..games)
            .map(|g| tokio::spawn(play(addr, g + 1, commands, think, spectators)))
            .collect();
        let (mut times, mut watched, mut states) = (Vec::new(), Vec::new(), 0);
        for t in tasks {
            let played = t.await.unwrap();
            times.extend(played.round_trips);
            watched.extend(played.to_spectators);
            states += played.states_to_spectators;
        }
        let secs = started.elapsed().as_secs_f64();
        running.shutdown().await;
        (times, watched, states, secs)
    });
    std::fs::remove_dir_all(&dir).ok();
    let mut sorted = times.clone();
    sorted.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{games} concurrent games, {} connections ({} players, {} spectators), {} commands, \
         think time {} ms, SQLite store",
        games * (2 + spectators),
        games * 2,
        games * spectators,
        sorted.len(),
        think.as_millis()
    );
    println!(
        "command round trip: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        ms(percentile(&sorted, 0.50)),
        ms(percentile(&sorted, 0.90)),
        ms(percentile(&sorted, 0.99)),
        ms(*sorted.last().unwrap()),
    );
    println!(
        "{:.0} commands/s over {secs:.1} s (mean {:.2} ms)",
        sorted.len() as f64 / secs,
        ms(sorted.iter().sum::<Duration>() / sorted.len() as u32)
    );
    if spectators > 0 {
        let mut w = watched;
        w.sort();
        assert!(!w.is_empty(), "the spectators saw no state");
        println!(
            "{states_watched} states to spectators; command sent to the last spectator's state: \
             p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            ms(percentile(&w, 0.50)),
            ms(percentile(&w, 0.99)),
            ms(*w.last().unwrap()),
        );
    }
}
