//! One actor per game: a tokio task that owns the game and serialises everything done to it.
//!
//! Connections join with a token (a side) or without (a spectator) and send their messages
//! through the actor's inbox; the actor checks each one (role, state version, whose turn),
//! submits commands as the connection's side only, saves each accepted command in the store
//! before anyone hears of it, and sends every connection the view its role may see. Bots are
//! asked for their commands on tokio's blocking pool (at most [`Limits::bot_threads`] at once,
//! server-wide), so a slow bot never stalls another game, nor this game's connections.
//!
//! [`Limits::bot_threads`]: crate::config::Limits::bot_threads

use crate::config::Limits;
use crate::guard::{guard, panic_message};
use crate::outbox::Outbox;
use crate::protocol::{
    ClientMessage, ClockInfo, ErrorCode, GameInfo, LogEntry, OutcomeInfo, PendingInfo, PlayerInfo,
    Role, ServerMessage,
};
use crate::store::{Store, StoredGame, StoredPlayer, now_ms};
use crate::token;
use crate::work::{self, Failure};
use axum::extract::ws::Utf8Bytes;
use serde::Serialize;
use serde_json::value::RawValue;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tabletop::budget::{self, Budget};
use tabletop::controls::{Controls, MeasureRequest};
use tabletop::host::{BotSpec, HostedBot, HostedGame, HostedRuleSet, Registry};
use tabletop::{Actor, Facing, Point, Record, SeededDice, Side, Viewer};
use tokio::sync::{Semaphore, mpsc, oneshot};
use tokio::time::Instant;

/// The most a timed command is credited for its connection's lag (half its round trip, up
/// to this).
pub const LAG_CREDIT_CAP_MS: u64 = 150;
/// Commands a side may queue while its hands are busy in a timed window.
pub const TIMED_QUEUE: usize = 2;
/// How often a timed window's side connections are pinged to measure their round trip.
const PING_EVERY: Duration = Duration::from_secs(2);
/// How long a timed bot whose command was refused waits before it is asked again.
const BOT_RETRY_MS: u64 = 500;

/// What every actor shares: the rule sets, the store, the limits, the bots' thread slots.
pub struct Shared {
    /// The rule sets.
    pub registry: &'static Registry,
    /// Where games are kept.
    pub store: Arc<dyn Store>,
    /// The limits.
    pub limits: Limits,
    /// Slots for bots thinking at once.
    pub bot_slots: Arc<Semaphore>,
    /// Slots for rule-set work at once ([`crate::work`]).
    pub rules_slots: Arc<Semaphore>,
    /// Raised when the server stops: every bot and all rule-set work stop at their next check.
    pub stopping: Arc<AtomicBool>,
    /// The bytes queued on every connection, not yet written.
    pub queued_bytes: Arc<AtomicUsize>,
}

/// A connection's number within its game.
pub type ConnId = u64;

/// A message to a game's actor.
pub enum Msg {
    /// A connection says hello with a side's token, or none to watch. The reply is the
    /// connection's number and role, or the error to send it.
    Join {
        /// The token.
        token: Option<String>,
        /// Where to send the connection's messages.
        out: Outbox,
        /// The answer.
        reply: oneshot::Sender<Result<(ConnId, Role), ServerMessage>>,
    },
    /// A joined connection's message.
    Client {
        /// The connection.
        conn: ConnId,
        /// What it sent.
        msg: ClientMessage,
    },
    /// A connection closed.
    Leave {
        /// The connection.
        conn: ConnId,
    },
    /// A connection that had fallen behind has written all that was queued for it.
    CaughtUp {
        /// The connection.
        conn: ConnId,
    },
    /// Leave memory if nobody is connected and no bot is thinking (the server holds too many
    /// games); the game lives on in the store.
    Evict,
    /// Stop the actor (the server shuts down); its connections are closed.
    Shutdown,
}

/// The way to reach a game's actor.
#[derive(Clone)]
pub struct GameHandle {
    tx: mpsc::Sender<Msg>,
    idle_since: Arc<AtomicU64>,
}

impl GameHandle {
    /// Sends the actor a message; false if it has stopped.
    pub async fn send(&self, msg: Msg) -> bool {
        self.tx.send(msg).await.is_ok()
    }

    /// Whether the actor has stopped (it stops when idle; see [`Limits::idle_actor`]).
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    /// Waits until the actor has stopped.
    pub async fn closed(&self) {
        self.tx.closed().await
    }

    /// Since when (ms since the Unix epoch) the game has had nobody connected and no bot
    /// thinking; `None` while it is in play.
    pub fn idle_since(&self) -> Option<u64> {
        Some(self.idle_since.load(Ordering::Relaxed)).filter(|&t| t != 0)
    }
}

/// Who plays a side, in the actor.
enum Seat {
    Human { token_hash: String },
    Bot { spec: BotSpec, bot: Option<Box<dyn HostedBot>> },
}

struct Conn {
    id: ConnId,
    role: Role,
    out: Outbox,
    /// Fallen behind: no states are queued for it until it catches up, and then one with the
    /// log from this line.
    behind: Option<usize>,
    /// Its last measured round trip (ping to pong), in ms.
    rtt_ms: Option<u64>,
}

/// A timed window as the actor runs it: the server is its only clock.
struct Window {
    /// The wall time of the window's game time 0.
    start: Instant,
    /// Each side's commands held until its hands are free, with the connection that sent each.
    queue: [VecDeque<(ConnId, serde_json::Value)>; 2],
    /// When the side connections were last pinged.
    pinged: Instant,
    /// A timed bot's refused command: it is asked again at this game time.
    bot_retry_ms: Option<u64>,
    /// A clock command (tick or bell) was refused at this game time: the clock stops waking
    /// for it (a bug in the rule set; the players can still call time).
    stuck: bool,
}

/// A bot's answer, back from the blocking pool.
struct BotDone {
    side: Side,
    epoch: u64,
    bot: Option<Box<dyn HostedBot>>,
    result: Result<serde_json::Value, String>,
}

/// [`ServerMessage::State`] as sent: the same JSON, with the view already written as text.
#[derive(Serialize)]
#[serde(tag = "type", rename = "state")]
struct StateText<'a> {
    version: u64,
    pending: PendingInfo,
    outcome: Option<OutcomeInfo>,
    view: &'a RawValue,
    turn: Option<u32>,
    log_from: u64,
    lines: &'a [LogEntry],
    can_undo: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    clock: Option<ClockInfo>,
}

/// The SplitMix64 finaliser (as the CLI's bots use it): nearby seeds give unrelated streams.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The generator a bot decides with before command `index` of the game with `seed`: derived
/// from the seed and the side like the CLI's (separate from the game's dice and from the other
/// side's bot), and from the command's index, so that a bot's choice depends only on the game
/// so far: the same after a restart or an undo.
pub fn bot_rng(seed: u64, side: Side, index: usize) -> SeededDice {
    let per_side = mix(seed ^ mix(0xb07_0000 + side.index() as u64));
    SeededDice::new(mix(per_side ^ mix(index as u64)))
}

/// A game's actor.
pub struct GameActor {
    id: String,
    shared: Arc<Shared>,
    rules: &'static dyn HostedRuleSet,
    /// The game; locked by the actor for quick questions, and by rule-set work on the
    /// blocking pool while the actor awaits it.
    game: Arc<Mutex<Box<dyn HostedGame>>>,
    seed: u64,
    version: String,
    scenario_name: String,
    seats: [Seat; 2],
    conns: Vec<Conn>,
    next_conn: ConnId,
    log: Vec<LogEntry>,
    /// Counts every change of the game (a command, an undo, a restore): a bot's answer made
    /// for an older epoch is thrown away.
    epoch: u64,
    bot_busy: bool,
    /// Raised to stop the thinking bot (its game changed, ended or closed).
    bot_cancel: Arc<AtomicBool>,
    bot_failed_at: Option<u64>,
    finished: bool,
    /// The timed window under way, if the pending is `Timed`.
    window: Option<Window>,
    bot_tx: mpsc::UnboundedSender<BotDone>,
    /// Each side's menus as last sent, with the epoch they were made for.
    controls_sent: [Option<(u64, Utf8Bytes)>; 2],
    /// When the actor last had nothing to do (no connection, no bot thinking), in ms since
    /// the Unix epoch; 0 while it is busy. The server drops the longest idle from memory
    /// first when it holds too many games.
    idle_since: Arc<AtomicU64>,
}

impl GameActor {
    /// The game, for a quick question.
    fn g(&self) -> MutexGuard<'_, Box<dyn HostedGame>> {
        self.game.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `work` on the game on the blocking pool within the command budget; a stop or a
    /// panic leaves the game as it was before the work.
    fn work<T, F>(&self, work: F) -> impl Future<Output = Result<T, Failure>> + Send + 'static
    where
        T: Send + 'static,
        F: FnOnce(&mut dyn HostedGame) -> T + Send + 'static,
    {
        let game = self.game.clone();
        let shared = self.shared.clone();
        let time = Some(self.shared.limits.command_time);
        async move {
            work::run(&shared, time, None, move || {
                let mut g = game.lock().unwrap_or_else(|e| e.into_inner());
                let before = g.boxed_clone();
                let mut kept = Some(before);
                struct Restore<'a>(
                    &'a mut Box<dyn HostedGame>,
                    &'a mut Option<Box<dyn HostedGame>>,
                );
                impl Drop for Restore<'_> {
                    fn drop(&mut self) {
                        if let Some(before) = self.1.take() {
                            *self.0 = before;
                        }
                    }
                }
                let guard = Restore(&mut g, &mut kept);
                let answer = work(guard.0.as_mut());
                // Finished: keep the game as the work left it.
                guard.1.take();
                answer
            })
            .await
        }
    }

    /// Runs `question` on the game on the blocking pool within the command budget, without
    /// changing it (so nothing needs restoring).
    fn read<T, F>(&self, question: F) -> impl Future<Output = Result<T, Failure>> + Send + 'static
    where
        T: Send + 'static,
        F: FnOnce(&dyn HostedGame) -> T + Send + 'static,
    {
        let game = self.game.clone();
        let shared = self.shared.clone();
        let time = Some(self.shared.limits.command_time);
        async move {
            work::run(&shared, time, None, move || {
                let g = game.lock().unwrap_or_else(|e| e.into_inner());
                question(g.as_ref())
            })
            .await
        }
    }

    /// The version of the game's state: the commands carried out so far.
    fn version(&self) -> u64 {
        self.g().command_count() as u64
    }

    /// Starts the actor of a stored game, already replayed into `game`.
    pub fn spawn(
        shared: Arc<Shared>,
        rules: &'static dyn HostedRuleSet,
        stored: &StoredGame,
        game: Box<dyn HostedGame>,
    ) -> (GameHandle, tokio::task::JoinHandle<()>) {
        let (tx, rx) = mpsc::channel(1024);
        let idle_since = Arc::new(AtomicU64::new(now_ms().max(1) as u64));
        let (bot_tx, bot_rx) = mpsc::unbounded_channel();
        let seats = stored.players.clone().map(|p| match p {
            StoredPlayer::Human { token_hash } => Seat::Human { token_hash },
            StoredPlayer::Bot { spec } => Seat::Bot {
                spec: BotSpec::parse(&spec).unwrap_or_else(|_| BotSpec::named(spec)),
                bot: None,
            },
        });
        let log = game.log().iter().map(LogEntry::from).collect();
        let actor = GameActor {
            id: stored.id.clone(),
            shared,
            rules,
            game: Arc::new(Mutex::new(game)),
            seed: stored.record.seed,
            version: stored.record.version.clone(),
            scenario_name: stored.record.scenario_name.clone(),
            seats,
            conns: Vec::new(),
            next_conn: 0,
            log,
            epoch: 0,
            bot_busy: false,
            bot_cancel: Arc::default(),
            bot_failed_at: None,
            finished: stored.finished_ms.is_some(),
            window: None,
            bot_tx,
            controls_sent: [None, None],
            idle_since: idle_since.clone(),
        };
        let task = tokio::spawn(actor.run(rx, bot_rx));
        (GameHandle { tx, idle_since }, task)
    }

    async fn run(
        mut self,
        mut rx: mpsc::Receiver<Msg>,
        mut bot_rx: mpsc::UnboundedReceiver<BotDone>,
    ) {
        self.check_finished().await;
        self.sync_window();
        self.start_bot();
        self.note_idle();
        let idle = self.shared.limits.idle_actor;
        loop {
            let wake = self.wake_at();
            let timer = async move {
                match wake {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                () = timer => {
                    self.clock_due().await;
                    self.start_bot();
                }
                msg = rx.recv() => match msg {
                    None | Some(Msg::Shutdown) => break,
                    Some(Msg::Evict) if self.conns.is_empty() && !self.bot_busy => break,
                    Some(msg) => self.handle(msg).await,
                },
                Some(done) = bot_rx.recv() => self.bot_done(done).await,
                () = tokio::time::sleep(idle) => {
                    // Nothing happened for a while: with nobody connected and no bot
                    // thinking, the game lives on in the store alone.
                    if self.conns.is_empty() && !self.bot_busy {
                        break;
                    }
                }
            }
            self.note_idle();
        }
        // Closed, idle or the server stopping: a bot still thinking stops.
        self.bot_cancel.store(true, Ordering::Relaxed);
    }

    /// Notes whether the game is idle now (no connection, no bot thinking), for the server's
    /// choice of a game to drop from memory.
    fn note_idle(&self) {
        let idle = self.conns.is_empty() && !self.bot_busy;
        let was = self.idle_since.load(Ordering::Relaxed);
        if idle && was == 0 {
            self.idle_since.store(now_ms().max(1) as u64, Ordering::Relaxed);
        } else if !idle && was != 0 {
            self.idle_since.store(0, Ordering::Relaxed);
        }
    }

    /// The game changed: a bot thinking over the old state is stopped (except in a timed
    /// window, where the table changes as steps land and a bot's answer is stamped when it
    /// comes).
    fn new_epoch(&mut self) {
        self.epoch += 1;
        if self.window.is_none() {
            self.bot_cancel.store(true, Ordering::Relaxed);
        }
    }

    async fn handle(&mut self, msg: Msg) {
        match msg {
            Msg::Join { token, out, reply } => self.join(token, out, reply).await,
            Msg::Leave { conn } => self.leave(conn).await,
            Msg::CaughtUp { conn } => self.caught_up(conn).await,
            Msg::Shutdown | Msg::Evict => {}
            Msg::Client { conn, msg } => {
                let Some(role) = self.conns.iter().find(|c| c.id == conn).map(|c| c.role) else {
                    return;
                };
                match msg {
                    ClientMessage::Hello { .. } => self.reply(
                        conn,
                        ServerMessage::error(ErrorCode::AlreadyJoined, "hello was already said"),
                    ),
                    ClientMessage::Command { version, command } => {
                        self.command(conn, role, version, command).await
                    }
                    ClientMessage::Undo { version } => self.undo(conn, role, version).await,
                    ClientMessage::Candidates {} => self.candidates(conn, role).await,
                    ClientMessage::Scene { svg } => {
                        self.scene(conn, role, svg.unwrap_or(false)).await
                    }
                    ClientMessage::Sync {} => self.sync(conn, role).await,
                    ClientMessage::Controls {} => self.controls(conn, role).await,
                    ClientMessage::Measure { version, unit, x, y, bearing } => {
                        self.measure(conn, role, version, unit, Point::new(x, y), bearing).await
                    }
                    ClientMessage::Roster {} => self.roster(conn, role).await,
                    ClientMessage::Pong { t } => self.pong(conn, t),
                }
            }
        }
    }

    // ---- connections -------------------------------------------------------------------

    async fn join(
        &mut self,
        token: Option<String>,
        out: Outbox,
        reply: oneshot::Sender<Result<(ConnId, Role), ServerMessage>>,
    ) {
        let role = match &token {
            None => Role::Spectator,
            Some(t) => {
                let side = Side::BOTH.into_iter().find(|s| {
                    matches!(&self.seats[s.index()],
                        Seat::Human { token_hash } if token::token_matches(t, token_hash))
                });
                match side {
                    Some(s) => Role::of(s),
                    None => {
                        let _ = reply.send(Err(ServerMessage::error(
                            ErrorCode::BadToken,
                            "this token commands no side of this game",
                        )));
                        return;
                    }
                }
            }
        };
        // Spectators and each side's player have places of their own: watchers never keep a
        // player out.
        let limits = &self.shared.limits;
        let (limit, who) = match role {
            Role::Spectator => (limits.spectators_per_game, "spectators"),
            _ => (limits.connections_per_side, "connections for this side"),
        };
        let held = self.conns.iter().filter(|c| c.role == role).count();
        if held >= limit {
            let _ = reply.send(Err(ServerMessage::error(
                ErrorCode::Full,
                format!("the game has {held} {who}, as many as it takes"),
            )));
            return;
        }
        let id = self.next_conn;
        self.next_conn += 1;
        if reply.send(Ok((id, role))).is_err() {
            return;
        }
        self.conns.push(Conn { id, role, out, behind: None, rtt_ms: None });
        let welcome = ServerMessage::Welcome { game: self.info(), role };
        self.reply(id, welcome);
        let state = self.state_text(role, 0).await;
        self.send_text(id, state);
        if self.window.is_some() && role.side().is_some() {
            self.reply(id, ServerMessage::Ping { t: now_ms() as u64 });
        }
    }

    /// The whole state for one connection; one that has fallen behind gets it when it
    /// catches up (so a client asking again and again without reading holds one state).
    async fn sync(&mut self, conn: ConnId, role: Role) {
        let Some(c) = self.conns.iter_mut().find(|c| c.id == conn) else { return };
        if c.behind.is_some() || c.out.behind() {
            c.behind = Some(0);
            return;
        }
        let text = self.state_text(role, 0).await;
        self.send_text(conn, text);
    }

    /// A connection that fell behind has caught up: it gets one state with all it missed.
    async fn caught_up(&mut self, conn: ConnId) {
        let Some(c) = self.conns.iter_mut().find(|c| c.id == conn) else { return };
        let (Some(from), role) = (c.behind.take(), c.role) else { return };
        let text = self.state_text(role, from).await;
        self.send_text(conn, text);
    }

    /// What anyone may know of the game.
    pub fn info(&self) -> GameInfo {
        GameInfo {
            id: self.id.clone(),
            ruleset: self.rules.id().to_string(),
            version: self.version.clone(),
            scenario_name: self.scenario_name.clone(),
            players: self
                .seats
                .iter()
                .map(|s| match s {
                    Seat::Human { .. } => PlayerInfo::Human,
                    Seat::Bot { spec, .. } => PlayerInfo::Bot { spec: spec.to_string() },
                })
                .collect(),
            finished: self.finished,
        }
    }

    fn text(msg: &ServerMessage) -> Utf8Bytes {
        Utf8Bytes::from(serde_json::to_string(msg).expect("server messages serialise"))
    }

    /// Sends one connection a message; a connection that cannot keep up is dropped (its
    /// client reconnects and syncs).
    fn send_text(&mut self, conn: ConnId, text: Utf8Bytes) {
        if let Some(i) = self.conns.iter().position(|c| c.id == conn)
            && self.conns[i].out.try_send(text).is_err()
        {
            self.conns.remove(i);
        }
    }

    fn reply(&mut self, conn: ConnId, msg: ServerMessage) {
        let text = Self::text(&msg);
        self.send_text(conn, text);
    }

    fn error(&mut self, conn: ConnId, code: ErrorCode, message: impl Into<String>) {
        self.reply(conn, ServerMessage::error(code, message));
    }

    /// Tells every connection the same message.
    fn tell_all(&mut self, msg: &ServerMessage) {
        let text = Self::text(msg);
        self.conns.retain(|c| c.out.try_send(text.clone()).is_ok());
    }

    fn viewer(role: Role) -> Viewer {
        match role.side() {
            Some(s) => Viewer::Side(s),
            None => Viewer::Spectator,
        }
    }

    /// The state as `role` may see it, with the log from line `log_from`: the text of a
    /// [`ServerMessage::State`], written without building the view as a JSON tree.
    async fn state_text(&mut self, role: Role, log_from: usize) -> Utf8Bytes {
        let mut texts = self.state_texts(vec![role], log_from).await;
        texts.pop().map(|(_, t)| t).unwrap_or_default()
    }

    /// [`GameActor::state_text`] for each of `roles`, the views made off the actor.
    async fn state_texts(&mut self, roles: Vec<Role>, log_from: usize) -> Vec<(Role, Utf8Bytes)> {
        let viewers: Vec<Viewer> = roles.iter().map(|&r| Self::viewer(r)).collect();
        let n = viewers.len();
        let views = self
            .read(move |g| viewers.into_iter().map(|v| g.view_text(v)).collect::<Vec<_>>())
            .await
            .unwrap_or_else(|e| {
                eprintln!("game {}: the view {e}", self.id);
                vec!["null".to_string(); n]
            });
        let from = log_from.min(self.log.len());
        let version = self.version();
        let (pending, outcome, turn) = {
            let g = self.g();
            (PendingInfo::from(g.pending()), g.outcome().map(OutcomeInfo::from), g.turn())
        };
        let clocks: Vec<Option<ClockInfo>> =
            roles.iter().map(|r| self.clock_info(r.side(), None)).collect();
        roles
            .into_iter()
            .zip(views)
            .zip(clocks)
            .map(|((role, view), clock)| {
                let view = RawValue::from_string(view).unwrap_or_else(|_| {
                    RawValue::from_string("null".into()).expect("null is JSON")
                });
                let msg = StateText {
                    version,
                    pending: pending.clone(),
                    outcome: outcome.clone(),
                    view: &view,
                    turn,
                    log_from: from as u64,
                    lines: &self.log[from..],
                    can_undo: role.side().is_some_and(|s| self.undo_target(s).is_ok()),
                    clock,
                };
                (role, Utf8Bytes::from(serde_json::to_string(&msg).expect("states serialise")))
            })
            .collect()
    }

    /// Sends every connection the state its role may see, with the log from `log_from`. A
    /// connection that has fallen behind gets none now, and one covering all it missed when
    /// it catches up.
    async fn broadcast(&mut self, log_from: usize) {
        for c in &mut self.conns {
            c.behind = match c.behind {
                Some(from) => Some(from.min(log_from)),
                None if c.out.behind() => Some(log_from),
                None => None,
            };
        }
        let roles: Vec<Role> = [Role::Red, Role::Blue, Role::Spectator]
            .into_iter()
            .filter(|&r| self.conns.iter().any(|c| c.role == r && c.behind.is_none()))
            .collect();
        if roles.is_empty() {
            return;
        }
        for (role, text) in self.state_texts(roles, log_from).await {
            self.conns.retain(|c| {
                c.role != role || c.behind.is_some() || c.out.try_send(text.clone()).is_ok()
            });
        }
    }

    // ---- commands ----------------------------------------------------------------------

    /// Why `side` may not command now, if it may not.
    fn may_command(&self, role: Role, version: u64) -> Result<Side, (ErrorCode, String)> {
        let Some(side) = role.side() else {
            return Err((ErrorCode::Spectator, "a spectator cannot command".into()));
        };
        if self.finished || self.g().outcome().is_some() {
            return Err((ErrorCode::GameOver, "the battle is over".into()));
        }
        let now = self.version();
        if version != now {
            return Err((
                ErrorCode::Stale,
                format!("the game has moved on: it is at version {now}, not {version}"),
            ));
        }
        Ok(side)
    }

    async fn command(
        &mut self,
        conn: ConnId,
        role: Role,
        version: u64,
        command: serde_json::Value,
    ) {
        if self.window.is_some()
            && let Some(side) = role.side()
            && command.is_object()
        {
            return self.timed_command(conn, side, command).await;
        }
        let side = match self.may_command(role, version) {
            Ok(s) => s,
            Err((code, message)) => {
                let now = self.version();
                let msg = ServerMessage::Error { code, message, version: Some(now) };
                return self.reply(conn, msg);
            }
        };
        let pending = self.g().pending();
        if !pending.sides().contains(&side) {
            return self.error(
                conn,
                ErrorCode::NotYourTurn,
                format!("{side} has nothing to decide now ({})", describe_pending(&pending)),
            );
        }
        let index = self.g().command_count();
        if index >= self.shared.limits.max_commands {
            return self.error(
                conn,
                ErrorCode::TooLong,
                format!("the game has reached the server's limit of {index} commands"),
            );
        }
        let submitted = self.work(move |g| g.submit(Actor::Side(side), command)).await;
        match submitted {
            Ok(Ok(lines)) => {
                if let Err(e) = self.accepted(lines, index).await {
                    self.error(conn, ErrorCode::Storage, e);
                }
            }
            Ok(Err(refusal)) => self.reply(conn, ServerMessage::refused(version, &refusal)),
            Err(Failure::Stopped(why)) => self.error(
                conn,
                ErrorCode::TooHeavy,
                format!("the command was not carried out: {why}; nothing changed"),
            ),
            Err(Failure::Panicked(panic)) => {
                eprintln!("game {}: a command {panic}", self.id);
                self.restore().await;
                self.error(
                    conn,
                    ErrorCode::Internal,
                    "the server failed on this command; nothing changed",
                );
            }
        }
    }

    /// After command `index` was accepted: saves it, then tells everyone, then lets the bots
    /// move. If it cannot be saved it is taken back and the error returned.
    async fn accepted(
        &mut self,
        lines: Vec<tabletop::rules::LogLine>,
        index: usize,
    ) -> Result<(), String> {
        self.new_epoch();
        let recorded = self.g().recorded(index).expect("the command just applied is recorded");
        if let Err(e) = self.shared.store.append(&self.id, index, &recorded).await {
            eprintln!("game {}: cannot save command {index}: {e}", self.id);
            let mut record = self.g().record();
            record.commands.truncate(index);
            self.rebuild(&record);
            let from = self.log.len();
            self.broadcast(from).await;
            return Err(format!("the command could not be saved ({e}); it was taken back"));
        }
        let from = self.log.len();
        self.log.extend(lines.iter().map(LogEntry::from));
        self.check_finished().await;
        self.sync_window();
        self.broadcast(from).await;
        self.start_bot();
        Ok(())
    }

    /// Marks the game finished in the store once the rules end it.
    async fn check_finished(&mut self) {
        if self.finished {
            return;
        }
        let Some(outcome) = self.g().outcome() else { return };
        let result = match outcome.winner {
            Some(side) => format!("{side} wins: {}", outcome.reason),
            None => format!("a draw: {}", outcome.reason),
        };
        match self.shared.store.finish(&self.id, now_ms(), &result).await {
            Ok(()) => self.finished = true,
            // The game is over all the same; the store learns it on the next start, when the
            // replay ends it again.
            Err(e) => eprintln!("game {}: cannot mark it finished: {e}", self.id),
        }
    }

    /// Replaces the game by a replay of `record` (after an undo or a failed save).
    fn rebuild(&mut self, record: &Record) -> bool {
        let rules = self.rules;
        match guard(|| rules.replay(record)) {
            Ok(Ok(game)) => {
                *self.g() = game;
                let log = self.g().log().iter().map(LogEntry::from).collect();
                self.log = log;
                self.new_epoch();
                self.bot_failed_at = None;
                self.sync_window();
                true
            }
            Ok(Err(e)) => {
                eprintln!("game {}: cannot rebuild: {e}", self.id);
                false
            }
            Err(panic) => {
                eprintln!("game {}: rebuilding {panic}", self.id);
                false
            }
        }
    }

    /// After a panic in rule-set code: the game as saved, replayed.
    async fn restore(&mut self) {
        let saved = match self.shared.store.load(&self.id).await {
            Ok(Some(g)) => g.record,
            _ => self.g().record(),
        };
        if !self.rebuild(&saved) {
            eprintln!("game {}: cannot restore it; closing its connections", self.id);
            self.conns.clear();
        }
        let from = 0;
        self.broadcast(from).await;
    }

    // ---- undo --------------------------------------------------------------------------

    /// The index of the command `side` may take back (its last, with the bots' answers after
    /// it), or why it may not.
    fn undo_target(&self, side: Side) -> Result<usize, String> {
        if self.finished || self.g().outcome().is_some() {
            return Err("the battle is over".into());
        }
        if self.window.is_some() {
            return Err("the clock is running: a timed move cannot be taken back".into());
        }
        let mut i = self.g().command_count();
        while i > 0 {
            i -= 1;
            if self.g().rolled_dice(i) != Some(false) {
                return Err("a die has been rolled since your last command".into());
            }
            let Some(rc) = self.g().recorded(i) else { break };
            match rc.actor {
                Actor::Side(s) if s == side => return Ok(i),
                Actor::Side(s) if matches!(self.seats[s.index()], Seat::Bot { .. }) => {}
                _ => return Err("the other side has commanded since your last command".into()),
            }
        }
        Err("you have given no command to take back".into())
    }

    async fn undo(&mut self, conn: ConnId, role: Role, version: u64) {
        let side = match self.may_command(role, version) {
            Ok(s) => s,
            Err((code, message)) => {
                let now = self.version();
                return self
                    .reply(conn, ServerMessage::Error { code, message, version: Some(now) });
            }
        };
        let target = match self.undo_target(side) {
            Ok(t) => t,
            Err(why) => return self.error(conn, ErrorCode::CannotUndo, why),
        };
        if let Err(e) = self.shared.store.truncate(&self.id, target).await {
            return self.error(conn, ErrorCode::Storage, format!("cannot undo: {e}"));
        }
        let mut record = self.g().record();
        record.commands.truncate(target);
        if !self.rebuild(&record) {
            self.restore().await;
            return self.error(conn, ErrorCode::Internal, "the undo failed; the game is as saved");
        }
        let from = self.log.len();
        self.broadcast(from).await;
        self.start_bot();
    }

    // ---- questions ---------------------------------------------------------------------

    async fn candidates(&mut self, conn: ConnId, role: Role) {
        let Some(side) = role.side() else {
            return self.error(conn, ErrorCode::Spectator, "a spectator has no commands");
        };
        // A fresh generator from the system, not one derived from the game's seed: nothing
        // a client sees may depend on the seed.
        let seed = token::new_seed().unwrap_or(0);
        let mut rng = SeededDice::new(seed);
        let pending = self.g().pending();
        let commands = if pending.sides().contains(&side) && !self.finished {
            match self.read(move |g| g.candidates(side, &mut rng)).await {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("game {}: the candidates {e}", self.id);
                    return self.failed(conn, &e, "the commands could not be listed");
                }
            }
        } else {
            Vec::new()
        };
        let version = self.version();
        self.reply(conn, ServerMessage::Candidates { version, commands });
    }

    /// The menus for a side, made off the actor once per state of the game and sent again
    /// as made while nothing changes.
    async fn controls(&mut self, conn: ConnId, role: Role) {
        let Some(side) = role.side() else {
            return self.error(conn, ErrorCode::Spectator, "a spectator commands nothing");
        };
        if let Some((epoch, text)) = &self.controls_sent[side.index()]
            && *epoch == self.epoch
        {
            let text = text.clone();
            return self.send_text(conn, text);
        }
        let pending = self.g().pending();
        let controls = if pending.sides().contains(&side) && !self.finished {
            match self.read(move |g| g.controls(side)).await {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("game {}: the controls {e}", self.id);
                    return self.failed(conn, &e, "the menus could not be made");
                }
            }
        } else {
            Controls { prompt: describe_pending(&pending), ..Controls::default() }
        };
        let version = self.version();
        let text = Self::text(&ServerMessage::Controls { version, controls });
        self.controls_sent[side.index()] = Some((self.epoch, text.clone()));
        self.send_text(conn, text);
    }

    /// Tells a connection that a question's work failed: too heavy, or a bug.
    fn failed(&mut self, conn: ConnId, failure: &Failure, what: &str) {
        match failure {
            Failure::Stopped(why) => {
                self.error(conn, ErrorCode::TooHeavy, format!("{what}: {why}"))
            }
            Failure::Panicked(_) => self.error(conn, ErrorCode::Internal, what.to_string()),
        }
    }

    async fn measure(
        &mut self,
        conn: ConnId,
        role: Role,
        version: u64,
        unit: String,
        to: Point,
        bearing: Option<f64>,
    ) {
        // In a timed window the state moves on with every landing: a drag is measured on the
        // table as it stands now, whatever version it began on.
        let version = if self.window.is_some() { self.version() } else { version };
        let side = match self.may_command(role, version) {
            Ok(side) => side,
            Err((code, message)) => return self.error(conn, code, message),
        };
        if !(to.x.is_finite() && to.y.is_finite() && bearing.is_none_or(f64::is_finite)) {
            return self.error(conn, ErrorCode::BadMessage, "a measure needs finite numbers");
        }
        let request =
            MeasureRequest { unit, to, facing: bearing.map(Facing::from_bearing_degrees) };
        let measurement = match self.read(move |g| g.measure(side, &request)).await {
            Ok(m) => m,
            Err(e) => {
                eprintln!("game {}: a measurement {e}", self.id);
                return self.failed(conn, &e, "the move could not be measured");
            }
        };
        self.reply(conn, ServerMessage::Measured { version, measurement });
    }

    async fn roster(&mut self, conn: ConnId, role: Role) {
        let viewer = Self::viewer(role);
        let rows = match self.read(move |g| g.roster(viewer)).await {
            Ok(rows) => rows,
            Err(e) => {
                eprintln!("game {}: the roster {e}", self.id);
                return self.failed(conn, &e, "the roster could not be made");
            }
        };
        let version = self.version();
        self.reply(conn, ServerMessage::Roster { version, rows });
    }

    async fn scene(&mut self, conn: ConnId, role: Role, svg: bool) {
        let viewer = Self::viewer(role);
        let drawn = self
            .read(move |g| {
                let scene = g.scene(viewer);
                let text = svg.then(|| tabletop::render::to_svg(&scene));
                (serde_json::to_value(&scene).unwrap_or_default(), text)
            })
            .await;
        match drawn {
            Ok((scene, svg)) => {
                let version = self.version();
                self.reply(conn, ServerMessage::Scene { version, scene, svg })
            }
            Err(e) => {
                eprintln!("game {}: the scene {e}", self.id);
                self.failed(conn, &e, "the table could not be drawn")
            }
        }
    }

    // ---- timed windows -----------------------------------------------------------------

    /// The game time now by the server's clock, in a timed window.
    fn game_now(&self) -> Option<u64> {
        self.window.as_ref().map(|w| w.start.elapsed().as_millis() as u64)
    }

    /// The game's timed clock and when its window closes, while the pending is `Timed`.
    fn timed_clock(&self) -> Option<(tabletop::TimedClock, u64)> {
        let g = self.g();
        match g.pending() {
            tabletop::Pending::Timed { closes_at_ms, .. } => {
                g.timed_clock().map(|c| (c, closes_at_ms))
            }
            _ => None,
        }
    }

    /// Opens or ends the actor's window as the game's pending becomes or stops being `Timed`.
    /// A window opens at game time 0 now (or, for a game restarted mid-window, at the game
    /// time its commands reached); at its end, commands still queued are dropped.
    fn sync_window(&mut self) {
        match (self.timed_clock(), self.window.is_some()) {
            (Some((clock, _)), false) => {
                let now = Instant::now();
                let start = now.checked_sub(Duration::from_millis(clock.now_ms)).unwrap_or(now);
                self.window = Some(Window {
                    start,
                    queue: Default::default(),
                    pinged: now,
                    bot_retry_ms: None,
                    stuck: false,
                });
                self.ping_sides();
            }
            (None, true) => {
                for side in Side::BOTH {
                    self.drop_queue(side, "the timed move is over");
                }
                self.window = None;
            }
            _ => {}
        }
    }

    /// Drops `side`'s queued commands (its hands will not be free again in this window),
    /// telling its connections.
    fn drop_queue(&mut self, side: Side, why: &str) {
        let Some(w) = &mut self.window else { return };
        let dropped = std::mem::take(&mut w.queue[side.index()]).len();
        if dropped == 0 {
            return;
        }
        let note = format!(
            "{why}: {dropped} queued command{} never carried out",
            if dropped == 1 { " was" } else { "s were" }
        );
        let text = Self::text(&ServerMessage::error(ErrorCode::NotYourTurn, note));
        let role = Role::of(side);
        self.conns.retain(|c| c.role != role || c.out.try_send(text.clone()).is_ok());
        self.tell_clock(side, None, None);
    }

    /// Pings every side's connection, to measure its round trip.
    fn ping_sides(&mut self) {
        let msg = ServerMessage::Ping { t: now_ms() as u64 };
        let text = Self::text(&msg);
        self.conns.retain(|c| c.role.side().is_none() || c.out.try_send(text.clone()).is_ok());
        if let Some(w) = &mut self.window {
            w.pinged = Instant::now();
        }
    }

    fn pong(&mut self, conn: ConnId, t: u64) {
        let now = now_ms() as u64;
        if t > now || now - t > 10_000 {
            return;
        }
        if let Some(c) = self.conns.iter_mut().find(|c| c.id == conn) {
            c.rtt_ms = Some(now - t);
        }
    }

    /// The clock as `side` (none: a spectator) sees it, with `conn`'s round trip.
    fn clock_info(&self, side: Option<Side>, conn: Option<ConnId>) -> Option<ClockInfo> {
        let w = self.window.as_ref()?;
        let (clock, length_ms) = self.timed_clock()?;
        Some(ClockInfo {
            length_ms,
            now_ms: w.start.elapsed().as_millis() as u64,
            server_ms: now_ms() as u64,
            free_ms: side.and_then(|s| clock.free_ms[s.index()]),
            queued: side
                .map(|s| w.queue[s.index()].iter().map(|(_, c)| c.clone()).collect())
                .unwrap_or_default(),
            rtt_ms: conn.and_then(|id| self.conns.iter().find(|c| c.id == id)?.rtt_ms),
        })
    }

    /// Sends `side`'s connections (or only `conn`) the clock, with a note.
    fn tell_clock(&mut self, side: Side, only: Option<ConnId>, note: Option<String>) {
        let role = Role::of(side);
        let ids: Vec<ConnId> = self
            .conns
            .iter()
            .filter(|c| c.role == role && only.is_none_or(|o| o == c.id))
            .map(|c| c.id)
            .collect();
        for id in ids {
            if let Some(clock) = self.clock_info(Some(side), Some(id)) {
                self.reply(id, ServerMessage::Clock { clock, note: note.clone() });
            }
        }
    }

    /// When the actor must next wake in a timed window: a step landing, the bell, a side's
    /// hands coming free with a command queued or a bot to move, the next ping.
    fn wake_at(&self) -> Option<Instant> {
        let w = self.window.as_ref()?;
        let now = w.start.elapsed().as_millis() as u64;
        let (clock, closes) = self.timed_clock()?;
        let mut times = Vec::new();
        if !w.stuck {
            times.push(closes);
            times.extend(clock.wake_ms.filter(|&t| t < closes));
        }
        for side in Side::BOTH {
            let free = clock.free_ms[side.index()];
            if !w.queue[side.index()].is_empty()
                && let Some(f) = free
            {
                times.push(f);
            }
            if matches!(self.seats[side.index()], Seat::Bot { .. })
                && !self.bot_busy
                && let Some(f) = free
            {
                let t = f.max(w.bot_retry_ms.unwrap_or(0));
                if t > now {
                    times.push(t);
                }
            }
        }
        let ping = w.pinged + PING_EVERY;
        Some(
            times
                .into_iter()
                .min()
                .map_or(ping, |ms| ping.min(w.start + Duration::from_millis(ms))),
        )
    }

    /// Whether a timed bot's hands are free now (and a refused answer's pause is over).
    fn bot_may_act(&self, side: Side) -> bool {
        let (Some(w), Some(now)) = (&self.window, self.game_now()) else { return false };
        let Some((clock, _)) = self.timed_clock() else { return false };
        clock.free_ms[side.index()].is_some_and(|f| f <= now)
            && w.bot_retry_ms.is_none_or(|r| r <= now)
    }

    /// Carries out what is due by the server's clock, in game-time order: each queued command
    /// whose side's hands are free (stamped with that moment), each landing (the umpire's
    /// `tick`), the bell (the umpire's `bell` at the window's close).
    async fn clock_due(&mut self) {
        if self.window.as_ref().is_some_and(|w| w.pinged.elapsed() >= PING_EVERY) {
            self.ping_sides();
        }
        for _ in 0..256 {
            let Some(now) = self.game_now() else { return };
            let Some((clock, closes)) = self.timed_clock() else {
                return self.sync_window();
            };
            for side in Side::BOTH {
                if clock.free_ms[side.index()].is_none() {
                    self.drop_queue(side, "your hands are not free again before the bell");
                }
            }
            let w = self.window.as_ref().expect("a window");
            let mut due: Option<(u64, u8, Side)> = None;
            let mut consider = |t: u64, order: u8, side: Side| {
                let t = t.max(clock.now_ms);
                if due.is_none_or(|d| (t, order) < (d.0, d.1)) {
                    due = Some((t, order, side));
                }
            };
            for side in Side::BOTH {
                if w.queue[side.index()].is_empty() {
                    continue;
                }
                if let Some(f) = clock.free_ms[side.index()]
                    && f <= now
                {
                    consider(f, 0, side);
                }
            }
            if !w.stuck {
                if let Some(t) = clock.wake_ms
                    && t <= now
                    && t < closes
                {
                    consider(t, 1, Side::Red);
                }
                if closes <= now {
                    consider(closes, 2, Side::Red);
                }
            }
            let Some((at, order, side)) = due else { return };
            if order == 0 {
                let Some((conn, mut command)) =
                    self.window.as_mut().and_then(|w| w.queue[side.index()].pop_front())
                else {
                    return;
                };
                stamp(&mut command, at);
                match self.submit_as(Actor::Side(side), command).await {
                    Ok(()) => self.tell_clock(
                        side,
                        None,
                        Some(format!("a queued command carried out at {}", secs(at))),
                    ),
                    Err(rejected) => {
                        self.tell_rejected(conn, rejected);
                        self.tell_clock(side, None, None);
                    }
                }
            } else {
                let kind = if order == 1 { "tick" } else { "bell" };
                let command = serde_json::json!({ "kind": kind, "at_ms": at });
                if let Err(e) = self.submit_as(Actor::Umpire, command).await {
                    eprintln!(
                        "game {}: the clock's {kind} at {at} ms was not taken: {e:?}",
                        self.id
                    );
                    if let Some(w) = &mut self.window {
                        w.stuck = true;
                    }
                }
            }
        }
    }

    /// A side's command in a timed window: stamped with the server's game time on arrival,
    /// less up to half the connection's round trip (at most [`LAG_CREDIT_CAP_MS`], never
    /// before the game's time or the side's free hands), or queued while the hands are busy.
    async fn timed_command(&mut self, conn: ConnId, side: Side, mut command: serde_json::Value) {
        if self.finished || self.g().outcome().is_some() {
            return self.error(conn, ErrorCode::GameOver, "the battle is over");
        }
        // What is due by now happens first; the bell may ring.
        self.clock_due().await;
        let (Some(now), Some((clock, _))) = (self.game_now(), self.timed_clock()) else {
            return self.error(conn, ErrorCode::NotYourTurn, "the timed move is over");
        };
        let free = clock.free_ms[side.index()];
        let calls_time =
            command.get("kind").and_then(serde_json::Value::as_str) == Some("call_time");
        if let Some(f) = free
            && f > now
            && !calls_time
        {
            let q = &mut self.window.as_mut().expect("a window").queue[side.index()];
            if q.len() >= TIMED_QUEUE {
                return self.error(
                    conn,
                    ErrorCode::QueueFull,
                    format!(
                        "your hands are busy until {} and {TIMED_QUEUE} commands wait already",
                        secs(f)
                    ),
                );
            }
            q.push_back((conn, command));
            let n = q.len();
            let note =
                format!("queued ({n} of {TIMED_QUEUE}) until your hands are free at {}", secs(f));
            return self.tell_clock(side, None, Some(note));
        }
        let rtt = self.conns.iter().find(|c| c.id == conn).and_then(|c| c.rtt_ms);
        let allowance = rtt.map_or(0, |r| (r / 2).min(LAG_CREDIT_CAP_MS));
        let floor = clock.now_ms.max(if calls_time { 0 } else { free.unwrap_or(0) });
        let at = now.saturating_sub(allowance).max(floor);
        let credited = now.saturating_sub(at);
        stamp(&mut command, at);
        match self.submit_as(Actor::Side(side), command).await {
            Ok(()) => {
                let note = match rtt {
                    Some(r) => format!(
                        "stamped at {}, arrived at {}: credited {credited} ms for a {r} ms round trip (at most {LAG_CREDIT_CAP_MS} ms)",
                        secs(at),
                        secs(now)
                    ),
                    None => format!("stamped at {} (no round trip measured yet)", secs(at)),
                };
                self.tell_clock(side, Some(conn), Some(note));
            }
            Err(rejected) => self.tell_rejected(conn, rejected),
        }
    }

    /// A timed bot's answer: stamped when it comes; a refusal (the table changed while it
    /// thought) asks it again a little later.
    async fn timed_bot(&mut self, side: Side, mut command: serde_json::Value) {
        let (Some(now), Some((clock, _))) = (self.game_now(), self.timed_clock()) else {
            return self.start_bot();
        };
        let at = now.max(clock.now_ms).max(clock.free_ms[side.index()].unwrap_or(0));
        stamp(&mut command, at);
        if let Err(e) = self.submit_as(Actor::Side(side), command.clone()).await {
            eprintln!(
                "game {}: the {side} bot's timed command {command} was not taken: {e:?}",
                self.id
            );
            if let Some(w) = &mut self.window {
                w.bot_retry_ms = Some(now + BOT_RETRY_MS);
            }
        }
    }

    /// A connection closed. A side whose last connection leaves during a timed window calls
    /// time for itself (its `call_time` command, stamped now, as any of its commands).
    async fn leave(&mut self, conn: ConnId) {
        let Some(i) = self.conns.iter().position(|c| c.id == conn) else { return };
        let role = self.conns.remove(i).role;
        let Some(side) = role.side() else { return };
        // A server stopping closes every connection: that calls time for nobody.
        if self.window.is_none()
            || self.finished
            || self.shared.stopping.load(Ordering::Relaxed)
            || self.conns.iter().any(|c| c.role == role)
            || !matches!(self.seats[side.index()], Seat::Human { .. })
        {
            return;
        }
        self.clock_due().await;
        let (Some(now), Some((clock, _))) = (self.game_now(), self.timed_clock()) else { return };
        let at = now.max(clock.now_ms);
        let command = serde_json::json!({ "kind": "call_time", "at_ms": at });
        match self.submit_as(Actor::Side(side), command).await {
            Ok(()) => eprintln!(
                "game {}: {side}'s player left the timed move: time called at {at} ms",
                self.id
            ),
            Err(e) => {
                eprintln!("game {}: {side}'s player left; calling time failed: {e:?}", self.id)
            }
        }
    }

    /// Submits `command` as `actor`; if the rules take it, saves it and tells everyone.
    async fn submit_as(
        &mut self,
        actor: Actor,
        command: serde_json::Value,
    ) -> Result<(), Rejected> {
        let index = self.g().command_count();
        if index >= self.shared.limits.max_commands {
            return Err(Rejected::Error(
                ErrorCode::TooLong,
                format!("the game has reached the server's limit of {index} commands"),
            ));
        }
        match self.work(move |g| g.submit(actor, command)).await {
            Ok(Ok(lines)) => self
                .accepted(lines, index)
                .await
                .map_err(|e| Rejected::Error(ErrorCode::Storage, e)),
            Ok(Err(refusal)) => Err(Rejected::Refused(refusal)),
            Err(Failure::Stopped(why)) => Err(Rejected::Error(
                ErrorCode::TooHeavy,
                format!("the command was not carried out: {why}; nothing changed"),
            )),
            Err(Failure::Panicked(panic)) => {
                eprintln!("game {}: a command {panic}", self.id);
                self.restore().await;
                Err(Rejected::Error(
                    ErrorCode::Internal,
                    "the server failed on this command; nothing changed".into(),
                ))
            }
        }
    }

    fn tell_rejected(&mut self, conn: ConnId, rejected: Rejected) {
        match rejected {
            Rejected::Refused(r) => {
                let version = self.version();
                self.reply(conn, ServerMessage::refused(version, &r))
            }
            Rejected::Error(code, message) => self.error(conn, code, message),
        }
    }

    // ---- bots --------------------------------------------------------------------------

    /// Asks a bot for its command if a bot's side must decide now and none is thinking.
    fn start_bot(&mut self) {
        if self.bot_busy || self.finished || self.g().outcome().is_some() {
            return;
        }
        let index = self.g().command_count();
        let timed = self.window.is_some();
        if index >= self.shared.limits.max_commands
            || (!timed && self.bot_failed_at == Some(self.epoch))
        {
            return;
        }
        let pending = self.g().pending();
        let Some(side) = pending.sides().into_iter().find(|s| {
            matches!(self.seats[s.index()], Seat::Bot { .. }) && (!timed || self.bot_may_act(*s))
        }) else {
            return;
        };
        let rules = self.rules;
        let Seat::Bot { spec, bot } = &mut self.seats[side.index()] else { return };
        let bot = match bot.take() {
            Some(b) => b,
            None => match guard(|| rules.new_bot(spec)).unwrap_or_else(Err) {
                Ok(b) => b,
                Err(e) => {
                    let message = format!("the {side} bot ({spec}) cannot be made: {e}");
                    self.bot_failed_at = Some(self.epoch);
                    return self.tell_all(&ServerMessage::error(ErrorCode::Bot, message));
                }
            },
        };
        let game = self.game.clone();
        let mut rng = bot_rng(self.seed, side, index);
        let (tx, slots, epoch) = (self.bot_tx.clone(), self.shared.bot_slots.clone(), self.epoch);
        self.bot_busy = true;
        self.bot_cancel = Arc::default();
        // The bot's own allowance is wall time; its processor time is capped at twice that.
        let budget = Budget::time(2 * self.shared.limits.bot_time + Duration::from_secs(1))
            .cancelled_by(self.bot_cancel.clone())
            .cancelled_by(self.shared.stopping.clone());
        tokio::spawn(async move {
            let _slot = slots.acquire_owned().await;
            let thought = tokio::task::spawn_blocking(move || {
                let mut bot = bot;
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    budget::run(&budget, || {
                        let game = game.lock().unwrap_or_else(|e| e.into_inner()).boxed_clone();
                        bot.choose(game.as_ref(), side, &mut rng)
                    })
                }))
                .unwrap_or_else(|p| Ok(Err(panic_message(p))))
                .unwrap_or_else(|stopped| Err(format!("its thinking {stopped}")));
                (Some(bot), result)
            })
            .await;
            let (bot, result) =
                thought.unwrap_or_else(|e| (None, Err(format!("the bot's thread failed: {e}"))));
            let _ = tx.send(BotDone { side, epoch, bot, result });
        });
    }

    async fn bot_done(&mut self, done: BotDone) {
        self.bot_busy = false;
        if let Seat::Bot { bot, .. } = &mut self.seats[done.side.index()] {
            *bot = done.bot;
        }
        if done.epoch != self.epoch && self.window.is_none() {
            // The game changed while the bot thought: ask again. (In a timed window the
            // table changes as steps land; the answer is stamped when it comes, and the rules
            // judge it on the table as it stands then.)
            return self.start_bot();
        }
        let side = done.side;
        let spec = match &self.seats[side.index()] {
            Seat::Bot { spec, .. } => spec.to_string(),
            Seat::Human { .. } => return,
        };
        let command = match done.result {
            Ok(c) => c,
            Err(e) => return self.bot_failed(format!("the {side} bot ({spec}) failed: {e}")),
        };
        if !self.g().pending().sides().contains(&side) {
            return self.start_bot();
        }
        if self.window.is_some() && command.is_object() {
            return self.timed_bot(side, command).await;
        }
        let index = self.g().command_count();
        let given = command.clone();
        match self.work(move |g| g.submit(Actor::Side(side), given)).await {
            Ok(Ok(lines)) => {
                if let Err(e) = self.accepted(lines, index).await {
                    self.bot_failed(e);
                }
            }
            Ok(Err(refusal)) => self.bot_failed(format!(
                "the {side} bot ({spec}) gave a command the rules refuse: {command}: {refusal}"
            )),
            Err(Failure::Stopped(why)) => {
                self.bot_failed(format!("the {side} bot's command was not carried out: {why}"))
            }
            Err(Failure::Panicked(panic)) => {
                eprintln!("game {}: a bot's command {panic}", self.id);
                self.restore().await;
                self.bot_failed(format!("the server failed on the {side} bot's command"));
            }
        }
    }

    /// A bot could not move: tell everyone; it is asked again only after the game changes.
    fn bot_failed(&mut self, message: String) {
        eprintln!("game {}: {message}", self.id);
        self.bot_failed_at = Some(self.epoch);
        self.tell_all(&ServerMessage::error(ErrorCode::Bot, message));
    }
}

/// Why a command was not carried out.
#[derive(Debug)]
enum Rejected {
    Refused(tabletop::Refusal),
    Error(ErrorCode, String),
}

/// Sets a timed command's `at_ms` to the server's stamp; a later moment it carries
/// (`until_ms`) keeps its distance from `at_ms`.
fn stamp(command: &mut serde_json::Value, at: u64) {
    let Some(o) = command.as_object_mut() else { return };
    let was = o.get("at_ms").and_then(serde_json::Value::as_u64);
    o.insert("at_ms".into(), at.into());
    if let (Some(was), Some(until)) = (was, o.get("until_ms").and_then(serde_json::Value::as_u64)) {
        o.insert("until_ms".into(), (until.saturating_sub(was) + at).into());
    }
}

/// Game time in seconds, for notes.
fn secs(ms: u64) -> String {
    format!("{:.3} s", ms as f64 / 1000.0)
}

fn describe_pending(p: &tabletop::Pending) -> String {
    match p {
        tabletop::Pending::Side { side, what } => format!("{side} must {what}"),
        tabletop::Pending::Both { waiting, what } => {
            let w: Vec<&str> = waiting.iter().map(|s| s.name()).collect();
            format!("waiting for {} to {what}", w.join(" and "))
        }
        tabletop::Pending::Timed { .. } => p.what().to_string(),
        tabletop::Pending::Over => "the battle is over".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_is_sent_as_the_protocol_says() {
        let view = RawValue::from_string(r#"{"units":[{"id":1,"at":[2,3]}],"turn":[1,15]}"#.into())
            .unwrap();
        let lines =
            [LogEntry { text: "[R-1] a \"quoted\" line".into(), rules: vec!["R-1".into()] }];
        let sent = StateText {
            version: 7,
            pending: PendingInfo::Over,
            outcome: Some(OutcomeInfo { winner: None, reason: "a draw".into() }),
            view: &view,
            turn: Some(3),
            log_from: 4,
            lines: &lines,
            can_undo: false,
            clock: None,
        };
        let text = serde_json::to_string(&sent).unwrap();
        let read: ServerMessage = serde_json::from_str(&text).unwrap();
        let expected = ServerMessage::State {
            version: 7,
            pending: PendingInfo::Over,
            outcome: Some(OutcomeInfo { winner: None, reason: "a draw".into() }),
            view: serde_json::from_str(view.get()).unwrap(),
            turn: Some(3),
            log_from: 4,
            lines: lines.to_vec(),
            can_undo: false,
            clock: None,
        };
        assert_eq!(read, expected);
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&text).unwrap(),
            serde_json::to_value(&expected).unwrap()
        );
    }

    #[test]
    fn bot_generators_differ_by_seed_side_and_command() {
        let first = |seed, side, index| bot_rng(seed, side, index).next_u32();
        let a = first(1, Side::Red, 0);
        assert_eq!(a, first(1, Side::Red, 0));
        assert_ne!(a, first(2, Side::Red, 0));
        assert_ne!(a, first(1, Side::Blue, 0));
        assert_ne!(a, first(1, Side::Red, 1));
        // Never the game's own dice.
        assert_ne!(a, SeededDice::new(1).next_u32());
    }
}
