//! The server's accept loop: each TCP connection served by hyper with the timeouts that keep
//! idle and slow clients from holding connections open.
//!
//! A connection has [`Limits::http_idle`](crate::Limits::http_idle) to send a request's headers
//! (also the wait for the next request on a kept-alive connection), and a request
//! [`Limits::request_time`](crate::Limits::request_time) from its headers to its answer (a slow
//! upload is answered 408). Game connections, once upgraded to WebSocket, leave these limits for
//! their own ([`crate::ws`]). Small messages go out at once (`TCP_NODELAY`). On shutdown every
//! connection is asked to finish its request in progress and close.

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{oneshot, watch};
use tower::ServiceExt;

/// Answers 408 to a request that takes longer than `limit` to be answered (a body sent
/// slowly).
pub async fn request_timeout(limit: Duration, req: Request<Body>, next: Next) -> Response {
    match tokio::time::timeout(limit, next.run(req)).await {
        Ok(response) => response,
        Err(_) => (
            StatusCode::REQUEST_TIMEOUT,
            format!("the request took longer than {} s", limit.as_secs_f64()),
        )
            .into_response(),
    }
}

/// Serves `router` on `listener` until `stop` fires, then lets every connection finish.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    http_idle: Duration,
    stop: oneshot::Receiver<()>,
) -> std::io::Result<()> {
    let (closing, closed) = watch::channel(false);
    let mut stop = std::pin::pin!(stop);
    loop {
        let (tcp, addr) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors and the like: wait a moment rather than spin.
                    eprintln!("cannot accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut stop => break,
        };
        if let Err(e) = tcp.set_nodelay(true) {
            eprintln!("could not set TCP_NODELAY on a connection: {e}");
        }
        let service = router.clone().map_request(move |mut req: Request<hyper::body::Incoming>| {
            req.extensions_mut().insert(ConnectInfo(addr));
            req.map(Body::new)
        });
        let mut closed = closed.clone();
        tokio::spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder.timer(TokioTimer::new()).header_read_timeout(http_idle);
            let conn = builder
                .serve_connection(TokioIo::new(tcp), TowerToHyperService::new(service))
                .with_upgrades();
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => return,
                _ = closed.wait_for(|c| *c) => conn.as_mut().graceful_shutdown(),
            }
            let _ = conn.await;
        });
    }
    let _ = closing.send(true);
    Ok(())
}
