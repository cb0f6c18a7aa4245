//! The game connection: a WebSocket per client, joined to its game's actor by `hello`.
//!
//! The connection parses each text message as a [`ClientMessage`]; anything else (binary,
//! not JSON, not of the protocol) gets an error message and reaches no game; a message over the
//! size limit closes the connection with code 1009, text that is not UTF-8 with 1007. After
//! `hello` the actor alone decides what a message may do. The actor owns the only strong
//! handle to the connection's outbox: when it drops the connection (shutdown, or a client too
//! slow to read its messages) the socket closes.

use crate::App;
use crate::actor::{ConnId, GameHandle, Msg};
use crate::games::reject;
use crate::outbox::{self, Outbox};
use crate::protocol::{ClientMessage, ErrorCode, Role, ServerMessage};
use axum::Json;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::oneshot;

/// `GET /api/games/{id}/ws`: upgrades to the game connection.
pub async fn upgrade(
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    Path(id): Path<String>,
    State(app): State<Arc<App>>,
    headers: axum::http::HeaderMap,
) -> Response {
    // A page on another site may not open a game connection in its visitor's name.
    if let Some(origin) = headers.get(axum::http::header::ORIGIN) {
        let host = headers.get(axum::http::header::HOST).and_then(|h| h.to_str().ok());
        let allowed = origin.to_str().is_ok_and(|o| app.config.origin_allowed(o, host));
        if !allowed {
            let (s, e) = reject(
                StatusCode::FORBIDDEN,
                format!(
                    "a page from {} may not open a game connection here (serve with \
                     --allow-origin to let it)",
                    String::from_utf8_lossy(origin.as_bytes())
                ),
            );
            return (s, Json(e)).into_response();
        }
    }
    let handle = match app.games.handle(&id).await {
        Ok(Some(h)) => h,
        Ok(None) => {
            let (s, e) = reject(StatusCode::NOT_FOUND, format!("no game '{id}'"));
            return (s, Json(e)).into_response();
        }
        Err(e) => {
            let (s, e) = reject(StatusCode::SERVICE_UNAVAILABLE, e.to_string());
            return (s, Json(e)).into_response();
        }
    };
    let ws = match ws {
        Ok(ws) => ws,
        Err(e) => return e.into_response(),
    };
    let limit = app.limits().max_message_bytes;
    ws.max_message_size(limit)
        .max_frame_size(limit)
        .on_upgrade(move |socket| connection(socket, id, handle, app))
}

fn text(msg: &ServerMessage) -> Utf8Bytes {
    Utf8Bytes::from(serde_json::to_string(msg).expect("server messages serialise"))
}

fn parse(t: &str) -> Result<ClientMessage, Box<ServerMessage>> {
    serde_json::from_str(t).map_err(|e| {
        Box::new(ServerMessage::error(
            ErrorCode::BadMessage,
            format!("not a message of the protocol: {e}"),
        ))
    })
}

/// The close frame for a connection whose frame could not be read: 1009 for a message over
/// the size limit, 1007 for text that is not UTF-8; `None` for a connection that simply broke.
fn closing_for(e: &axum::Error) -> Option<CloseFrame> {
    // The WebSocket library's errors reach here only as text.
    let what = e.to_string();
    let (code, reason) = if what.contains("Space limit exceeded") || what.contains("too long") {
        (close_code::SIZE, "the message is larger than the server takes")
    } else if what.contains("UTF-8") {
        (close_code::INVALID, "a text message that is not UTF-8")
    } else {
        return None;
    };
    Some(CloseFrame { code, reason: Utf8Bytes::from_static(reason) })
}

/// Waits for `hello` and joins the game; `None` if the client leaves or fails to join (with
/// the close frame to send, in `closing`, when its frame could not be read).
async fn hello(
    sink: &mut SplitSink<WebSocket, Message>,
    stream: &mut SplitStream<WebSocket>,
    handle: &mut GameHandle,
    out: &Outbox,
    again: impl AsyncFnOnce() -> Option<GameHandle>,
    closing: &mut Option<CloseFrame>,
) -> Option<(ConnId, Role)> {
    let mut again = Some(again);
    loop {
        let reply = match stream.next().await? {
            Err(e) => {
                *closing = closing_for(&e);
                return None;
            }
            Ok(Message::Close(_)) => return None,
            Ok(Message::Text(t)) => match parse(&t) {
                Ok(ClientMessage::Hello { token }) => {
                    let (tx, rx) = oneshot::channel();
                    let join = Msg::Join { token: token.clone(), out: out.clone(), reply: tx };
                    let (tx2, rx2) = oneshot::channel();
                    let rx = if handle.send(join).await {
                        rx
                    } else {
                        // The game's actor ended while idle just now: start it again, once.
                        *handle = again.take()?().await?;
                        let join = Msg::Join { token, out: out.clone(), reply: tx2 };
                        if !handle.send(join).await {
                            return None;
                        }
                        rx2
                    };
                    match rx.await {
                        Ok(Ok(joined)) => return Some(joined),
                        Ok(Err(refused)) => {
                            let _ = sink.send(Message::Text(text(&refused))).await;
                            return None;
                        }
                        Err(_) => return None,
                    }
                }
                Ok(_) => ServerMessage::error(ErrorCode::HelloFirst, "say hello first"),
                Err(e) => *e,
            },
            Ok(Message::Binary(_)) => {
                ServerMessage::error(ErrorCode::BadMessage, "messages are JSON text, not binary")
            }
            Ok(_) => continue,
        };
        if sink.send(Message::Text(text(&reply))).await.is_err() {
            return None;
        }
    }
}

async fn connection(socket: WebSocket, id: String, mut handle: GameHandle, app: Arc<App>) {
    let (mut sink, mut stream) = socket.split();
    let limits = app.limits();
    let (out, mut inbox) = outbox::outbox(
        limits.outbox,
        limits.outbox_bytes,
        limits.coalesce_bytes,
        app.games().shared().queued_bytes.clone(),
    );
    let again = async || app.games.handle(&id).await.ok().flatten();
    let mut closing = None;
    let joined = tokio::time::timeout(
        app.limits().hello_timeout,
        hello(&mut sink, &mut stream, &mut handle, &out, again, &mut closing),
    )
    .await;
    let Ok(Some((conn, _role))) = joined else {
        if let Some(frame) = closing {
            let _ = sink.send(Message::Close(Some(frame))).await;
        }
        let _ = sink.close().await;
        return;
    };
    // From here the actor holds the only strong sender: when it lets go, the socket closes.
    let own = out.downgrade();
    drop(out);
    // Idle sockets are pinged; one that answers nothing for `idle_socket` is closed.
    let start = tokio::time::Instant::now();
    let heard = AtomicU64::new(0);
    let writer = async {
        let mut ping = tokio::time::interval(limits.ping_every);
        ping.tick().await;
        loop {
            tokio::select! {
                t = inbox.recv() => {
                    let Some(t) = t else { break };
                    // Counted until taken from the queue: the one being written is the
                    // socket's.
                    let caught_up = inbox.written(&t);
                    // A client that does not read is dropped, not waited for.
                    let sent =
                        tokio::time::timeout(limits.write_timeout, sink.send(Message::Text(t)))
                            .await;
                    if !matches!(sent, Ok(Ok(()))) {
                        return;
                    }
                    if caught_up && !handle.send(Msg::CaughtUp { conn }).await {
                        return;
                    }
                }
                _ = ping.tick() => {
                    let silent = start.elapsed().saturating_sub(Duration::from_millis(
                        heard.load(Ordering::Relaxed),
                    ));
                    if silent > limits.idle_socket
                        || sink.send(Message::Ping(Default::default())).await.is_err()
                    {
                        return;
                    }
                }
            }
        }
        let _ = sink.close().await;
    };
    let reader = async {
        while let Some(frame) = stream.next().await {
            heard.store(start.elapsed().as_millis() as u64, Ordering::Relaxed);
            // The actor has let the connection go (it could not keep up, or the game closed).
            own.upgrade()?;
            let msg = match frame {
                Err(e) => return closing_for(&e),
                Ok(Message::Close(_)) => return None,
                Ok(Message::Text(t)) => parse(&t),
                Ok(Message::Binary(_)) => Err(Box::new(ServerMessage::error(
                    ErrorCode::BadMessage,
                    "messages are JSON text, not binary",
                ))),
                Ok(_) => continue,
            };
            match msg {
                Ok(msg) => {
                    if !handle.send(Msg::Client { conn, msg }).await {
                        return None;
                    }
                }
                Err(e) => match own.upgrade() {
                    // A client that floods bad messages faster than it reads is dropped.
                    Some(tx) => {
                        if tx.try_send(text(&e)).is_err() {
                            return None;
                        }
                    }
                    None => return None,
                },
            }
        }
        None
    };
    let closing = tokio::select! {
        () = writer => None,
        c = reader => c,
    };
    if let Some(frame) = closing {
        let _ = sink.send(Message::Close(Some(frame))).await;
        let _ = sink.close().await;
    }
    handle.send(Msg::Leave { conn }).await;
}
