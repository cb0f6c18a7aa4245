//! A connection's outbox: the messages waiting to be written to its socket, bounded in number
//! and in bytes.
//!
//! The actor holds the [`Outbox`] (the only strong handle) and the connection's writer the
//! [`Inbox`]. Every byte queued is counted until the writer takes it, for the connection and
//! server-wide, so a client that stops reading holds at most
//! [`Limits::outbox_bytes`](crate::Limits::outbox_bytes) of the server's memory (and the one
//! message being written): past it the
//! actor drops the connection. Before that, once more than
//! [`Limits::coalesce_bytes`](crate::Limits::coalesce_bytes) wait, the actor stops queueing
//! states for it and asks to be told when it has caught up ([`Outbox::behind`]); then it sends
//! one state that covers all it missed.

use axum::extract::ws::Utf8Bytes;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use tokio::sync::mpsc;

/// What the two ends of an outbox share.
struct Counts {
    /// Bytes queued and not yet written.
    bytes: AtomicUsize,
    /// Raised when the actor wants to hear that the queue has emptied.
    behind: AtomicBool,
    /// Bytes queued on every connection of the server.
    total: Arc<AtomicUsize>,
}

/// The actor's end: queues messages for the connection.
#[derive(Clone)]
pub struct Outbox {
    tx: mpsc::Sender<Utf8Bytes>,
    counts: Arc<Counts>,
    max_bytes: usize,
    coalesce_bytes: usize,
}

/// The outbox as the connection itself holds it: usable only while the actor holds the
/// connection.
pub struct WeakOutbox {
    tx: mpsc::WeakSender<Utf8Bytes>,
    counts: Arc<Counts>,
    max_bytes: usize,
    coalesce_bytes: usize,
}

/// The writer's end.
pub struct Inbox {
    rx: mpsc::Receiver<Utf8Bytes>,
    counts: Arc<Counts>,
}

/// The message was not queued: the connection cannot keep up (or is gone) and is to be dropped.
#[derive(Debug)]
pub struct Full;

/// A new outbox taking at most `messages` messages and `max_bytes` bytes; states are held back
/// past `coalesce_bytes`. `total` counts the bytes queued server-wide.
pub fn outbox(
    messages: usize,
    max_bytes: usize,
    coalesce_bytes: usize,
    total: Arc<AtomicUsize>,
) -> (Outbox, Inbox) {
    let (tx, rx) = mpsc::channel(messages.max(1));
    let counts =
        Arc::new(Counts { bytes: AtomicUsize::new(0), behind: AtomicBool::new(false), total });
    (Outbox { tx, counts: counts.clone(), max_bytes, coalesce_bytes }, Inbox { rx, counts })
}

impl Outbox {
    /// Queues `text`, unless the queue already holds as many messages or bytes as it may.
    pub fn try_send(&self, text: Utf8Bytes) -> Result<(), Full> {
        let len = text.len();
        let queued = self.counts.bytes.load(Ordering::Relaxed);
        if queued > 0 && queued + len > self.max_bytes {
            return Err(Full);
        }
        self.counts.bytes.fetch_add(len, Ordering::Relaxed);
        self.counts.total.fetch_add(len, Ordering::Relaxed);
        self.tx.try_send(text).map_err(|_| {
            self.counts.bytes.fetch_sub(len, Ordering::Relaxed);
            self.counts.total.fetch_sub(len, Ordering::Relaxed);
            Full
        })
    }

    /// Whether the client has fallen behind: more than the coalescing threshold waits. Then
    /// the writer is asked to say when the queue has emptied ([`Inbox::caught_up`]).
    pub fn behind(&self) -> bool {
        let behind = self.counts.bytes.load(Ordering::Relaxed) > self.coalesce_bytes;
        if behind {
            self.counts.behind.store(true, Ordering::Relaxed);
        }
        behind
    }

    /// The bytes queued and not yet written.
    pub fn queued_bytes(&self) -> usize {
        self.counts.bytes.load(Ordering::Relaxed)
    }

    /// A handle that does not keep the connection open.
    pub fn downgrade(&self) -> WeakOutbox {
        WeakOutbox {
            tx: self.tx.downgrade(),
            counts: self.counts.clone(),
            max_bytes: self.max_bytes,
            coalesce_bytes: self.coalesce_bytes,
        }
    }
}

impl WeakOutbox {
    /// The outbox, while the actor still holds the connection.
    pub fn upgrade(&self) -> Option<Outbox> {
        Some(Outbox {
            tx: self.tx.upgrade()?,
            counts: self.counts.clone(),
            max_bytes: self.max_bytes,
            coalesce_bytes: self.coalesce_bytes,
        })
    }
}

impl Inbox {
    /// The next message to write; `None` once the actor has let the connection go and the
    /// queue is empty.
    pub async fn recv(&mut self) -> Option<Utf8Bytes> {
        self.rx.recv().await
    }

    /// The message `text` is taken from the queue to be written: its bytes no longer count.
    /// True if the queue is now empty and the actor asked to hear it.
    pub fn written(&self, text: &Utf8Bytes) -> bool {
        let len = text.len();
        let left = self.counts.bytes.fetch_sub(len, Ordering::Relaxed) - len;
        self.counts.total.fetch_sub(len, Ordering::Relaxed);
        left == 0 && self.counts.behind.swap(false, Ordering::Relaxed)
    }
}

impl Drop for Inbox {
    fn drop(&mut self) {
        // Whatever is still queued is freed with the inbox.
        self.rx.close();
        while let Ok(text) = self.rx.try_recv() {
            self.written(&text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(n: usize) -> Utf8Bytes {
        Utf8Bytes::from("x".repeat(n))
    }

    #[tokio::test]
    async fn bytes_are_bounded_and_counted_until_written() {
        let total = Arc::new(AtomicUsize::new(0));
        let (out, mut inbox) = outbox(100, 1000, 300, total.clone());
        out.try_send(text(400)).unwrap();
        assert!(out.behind());
        out.try_send(text(500)).unwrap();
        assert!(out.try_send(text(200)).is_err(), "past the byte limit");
        assert_eq!(total.load(Ordering::Relaxed), 900);
        let first = inbox.recv().await.unwrap();
        assert!(!inbox.written(&first));
        let second = inbox.recv().await.unwrap();
        assert!(inbox.written(&second), "caught up, and the actor asked to hear it");
        assert_eq!(total.load(Ordering::Relaxed), 0);
        // One message larger than the limit still goes to an empty queue.
        out.try_send(text(5000)).unwrap();
        drop(inbox);
        assert_eq!(total.load(Ordering::Relaxed), 0, "a dropped inbox frees what it held");
    }
}
