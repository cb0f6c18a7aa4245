//! Rule-set work off the async threads. Commands, menus, candidate lists and new games run on
//! tokio's blocking pool, at most [`Limits::rules_threads`] at once server-wide (waiting in
//! turn for a thread), each within a budget of processor time ([`tabletop::budget`]) and
//! stopped when the server stops. So a heavy game slows itself, never another game or the
//! HTTP routes.
//!
//! [`Limits::rules_threads`]: crate::config::Limits::rules_threads

use crate::actor::Shared;
use crate::guard::panic_message;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use tabletop::budget::{self, Budget, Stopped};

/// Why rule-set work gave no answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// It was stopped: out of time, or cancelled.
    Stopped(Stopped),
    /// It panicked (a bug in the rule set), with the panic's message.
    Panicked(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Stopped(s) => write!(f, "was stopped: {s}"),
            Failure::Panicked(p) => write!(f, "{p}"),
        }
    }
}

/// Runs `work` on the blocking pool within `time` of processor time (`None`: no limit but the
/// server's stopping), also stopped when `cancel` is raised.
pub async fn run<T, F>(
    shared: &Shared,
    time: Option<Duration>,
    cancel: Option<Arc<AtomicBool>>,
    work: F,
) -> Result<T, Failure>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let permit = shared.rules_slots.clone().acquire_owned().await;
    let mut budget = Budget { time, cancel: vec![shared.stopping.clone()] };
    budget.cancel.extend(cancel);
    let done = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        match catch_unwind(AssertUnwindSafe(|| budget::run(&budget, work))) {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(stopped)) => Err(Failure::Stopped(stopped)),
            Err(p) => Err(Failure::Panicked(panic_message(p))),
        }
    })
    .await;
    done.unwrap_or_else(|e| Err(Failure::Panicked(format!("the work's thread failed: {e}"))))
}
