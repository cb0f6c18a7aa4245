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
    ClientMessage, ErrorCode, GameInfo, LogEntry, OutcomeInfo, PendingInfo, PlayerInfo, Role,
    ServerMessage,
};
use crate::store::{Store, StoredGame, StoredPlayer, now_ms};
use crate::token;
use crate::work::{self, Failure};
use axum::extract::ws::Utf8Bytes;
use serde::Serialize;
use serde_json::value::RawValue;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tabletop::budget::{self, Budget};
use tabletop::controls::{Controls, MeasureRequest};
use tabletop::host::{BotSpec, HostedBot, HostedGame, HostedRuleSet, Registry};
use tabletop::{Actor, Facing, Point, Record, SeededDice, Side, Viewer};
use tokio::sync::{Semaphore, mpsc, oneshot};

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
        self.start_bot();
        self.note_idle();
        let idle = self.shared.limits.idle_actor;
        loop {
            tokio::select! {
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

    /// The game changed: a bot thinking over the old state is stopped.
    fn new_epoch(&mut self) {
        self.epoch += 1;
        self.bot_cancel.store(true, Ordering::Relaxed);
    }

    async fn handle(&mut self, msg: Msg) {
        match msg {
            Msg::Join { token, out, reply } => self.join(token, out, reply).await,
            Msg::Leave { conn } => self.conns.retain(|c| c.id != conn),
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
        self.conns.push(Conn { id, role, out, behind: None });
        let welcome = ServerMessage::Welcome { game: self.info(), role };
        self.reply(id, welcome);
        let state = self.state_text(role, 0).await;
        self.send_text(id, state);
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
        roles
            .into_iter()
            .zip(views)
            .map(|(role, view)| {
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

    // ---- bots --------------------------------------------------------------------------

    /// Asks a bot for its command if a bot's side must decide now and none is thinking.
    fn start_bot(&mut self) {
        if self.bot_busy || self.finished || self.g().outcome().is_some() {
            return;
        }
        let index = self.g().command_count();
        if index >= self.shared.limits.max_commands || self.bot_failed_at == Some(self.epoch) {
            return;
        }
        let pending = self.g().pending();
        let Some(side) =
            pending.sides().into_iter().find(|s| matches!(self.seats[s.index()], Seat::Bot { .. }))
        else {
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
        if done.epoch != self.epoch {
            // The game changed while the bot thought: ask again.
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
