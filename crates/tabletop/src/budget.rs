//! A limit on the work one request may do: a host (the server) runs rule-set code inside
//! [`run`] with a [`Budget`] of processor time on the calling thread, and the rule sets' heavy
//! loops call [`tick`]. When the budget is spent, or the work is cancelled, the next check
//! unwinds out of the work and [`run`] answers [`Stopped`].
//!
//! Nothing a rule set decides depends on the budget: work either finishes as it would have
//! without one, or is stopped and thrown away (a stopped command is not carried out). Outside
//! [`run`] a tick costs a counter and does nothing.

use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How much work may be done: processor time on this thread, and a flag the host raises to
/// cancel the work.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// The processor time allowed; `None` for no limit.
    pub time: Option<Duration>,
    /// Flags any of which, raised (from any thread), stops the work at its next check.
    pub cancel: Vec<Arc<AtomicBool>>,
}

impl Budget {
    /// A budget of `time` of processor time.
    pub fn time(time: Duration) -> Budget {
        Budget { time: Some(time), cancel: Vec::new() }
    }

    /// The same budget, also stopped when `flag` is raised.
    pub fn cancelled_by(mut self, flag: Arc<AtomicBool>) -> Budget {
        self.cancel.push(flag);
        self
    }
}

/// Why work was stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum Stopped {
    /// It used its whole budget of processor time.
    OutOfTime(Duration),
    /// The host cancelled it.
    Cancelled,
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stopped::OutOfTime(t) => {
                write!(f, "it took more than {} s of the server's processor time", t.as_secs_f64())
            }
            Stopped::Cancelled => write!(f, "it was cancelled"),
        }
    }
}

struct Active {
    until: Option<Duration>,
    limit: Duration,
    cancel: Vec<Arc<AtomicBool>>,
}

thread_local! {
    static ACTIVE: RefCell<Option<Active>> = const { RefCell::new(None) };
    static TICKS: Cell<u32> = const { Cell::new(0) };
}

/// How many ticks pass between two looks at the clock.
const TICKS_PER_CHECK: u32 = 512;

/// The processor time this thread has used.
#[cfg(unix)]
fn thread_time() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; the clock ID is a constant the C library
    // defines for this purpose.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec.max(0) as u64, ts.tv_nsec.clamp(0, 999_999_999) as u32)
}

/// Elsewhere: time since the work began on this thread, which is at least its processor time.
#[cfg(not(unix))]
fn thread_time() -> Duration {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// Runs `work` within `budget`: its result, or why it was stopped. Budgets nest: inner work
/// stops at the sooner of its own budget and the one it runs within. A panic in `work` that
/// is not a stop goes on unwinding.
pub fn run<T>(budget: &Budget, work: impl FnOnce() -> T) -> Result<T, Stopped> {
    let now = thread_time();
    let outer = ACTIVE.with(|a| a.borrow_mut().take());
    let mut until = budget.time.map(|t| now + t);
    let mut limit = budget.time.unwrap_or(Duration::MAX);
    if let Some(o) = &outer
        && let Some(u) = o.until
        && until.is_none_or(|mine| u < mine)
    {
        until = Some(u);
        limit = o.limit;
    }
    let mut cancel = budget.cancel.clone();
    cancel.extend(outer.iter().flat_map(|o| o.cancel.iter().cloned()));
    ACTIVE.with(|a| *a.borrow_mut() = Some(Active { until, limit, cancel }));
    let result = catch_unwind(AssertUnwindSafe(work));
    ACTIVE.with(|a| *a.borrow_mut() = outer);
    match result {
        Ok(v) => Ok(v),
        Err(payload) => match payload.downcast::<Stopped>() {
            Ok(stopped) => Err(*stopped),
            Err(other) => resume_unwind(other),
        },
    }
}

/// A unit of heavy work done: every few hundred ticks the budget is checked, and the work
/// unwinds if it is spent or cancelled. Costs almost nothing outside [`run`].
#[inline]
pub fn tick() {
    let n = TICKS.with(|t| {
        let n = t.get().wrapping_add(1);
        t.set(n);
        n
    });
    if n.is_multiple_of(TICKS_PER_CHECK) {
        check();
    }
}

/// Checks the budget now; unwinds out of the work if it is spent or cancelled.
pub fn check() {
    let stop = ACTIVE.with(|a| {
        let a = a.borrow();
        let a = a.as_ref()?;
        if a.cancel.iter().any(|c| c.load(Ordering::Relaxed)) {
            return Some(Stopped::Cancelled);
        }
        let until = a.until?;
        (thread_time() > until).then_some(Stopped::OutOfTime(a.limit))
    });
    if let Some(stop) = stop {
        // Not a panic: no panic message is printed; `run` catches it.
        resume_unwind(Box::new(stop));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spin(iterations: u64) -> u64 {
        let mut x = 0u64;
        for i in 0..iterations {
            x = x.wrapping_mul(31).wrapping_add(i);
            tick();
        }
        x
    }

    #[test]
    fn work_within_its_budget_finishes() {
        let budget = Budget::time(Duration::from_secs(60));
        assert_eq!(run(&budget, || spin(10_000)), Ok(spin(10_000)));
    }

    #[test]
    fn work_past_its_budget_is_stopped() {
        let budget = Budget::time(Duration::from_millis(20));
        let got = run(&budget, || spin(u64::MAX));
        assert_eq!(got, Err(Stopped::OutOfTime(Duration::from_millis(20))));
        // Outside a budget, ticks do nothing.
        spin(10_000);
    }

    #[test]
    fn raising_the_flag_cancels() {
        let flag = Arc::new(AtomicBool::new(true));
        let budget = Budget::default().cancelled_by(flag);
        assert_eq!(run(&budget, || spin(u64::MAX)), Err(Stopped::Cancelled));
    }

    #[test]
    fn inner_work_stops_at_the_outer_budget() {
        let outer = Budget::time(Duration::from_millis(20));
        let got = run(&outer, || run(&Budget::default(), || spin(u64::MAX)));
        assert_eq!(got, Ok(Err(Stopped::OutOfTime(Duration::from_millis(20)))));
    }

    #[test]
    fn other_panics_go_on() {
        let got = catch_unwind(|| run(&Budget::default(), || panic!("boom")));
        assert!(got.is_err());
    }
}
