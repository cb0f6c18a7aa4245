//! What the fuzz targets share: the rule sets as the server hosts them, the processor-time
//! budget the server gives rule-set work, and a ready game of each rule set.
//!
//! A target fails on a panic (the fuzzer aborts on one), on running out of memory, or on an
//! input that takes longer than the fuzzer's timeout. Work that the server would stop at its
//! budget is stopped here at the same kind of budget, so a slow but bounded input is not a
//! failure, as it is not one in the server.

use std::time::Duration;
use tabletop::Source;
use tabletop::budget::{self, Budget};
use tabletop::host::{HostedGame, Registry};

/// Every rule set with its bots, as the program registers them.
pub fn registry() -> &'static Registry {
    strategikon::registry::rulesets()
}

/// Runs rule-set work within a budget of processor time, as the server does; `None` when the
/// budget stopped it.
pub fn within<T>(seconds: f64, work: impl FnOnce() -> T) -> Option<T> {
    budget::run(&Budget::time(Duration::from_secs_f64(seconds)), work).ok()
}

/// A ready scenario of each rule set, by rule-set ID.
pub const READY: [(&str, &str, &str); 3] = [
    ("movement", "ford.toml", include_str!("../../scenarios/movement/ford.toml")),
    ("othw", "open_field.toml", include_str!("../../scenarios/othw/open_field.toml")),
    ("wrg1969", "the_ford.toml", include_str!("../../scenarios/wrg1969/the_ford.toml")),
];

thread_local! {
    static GAMES: Vec<Box<dyn HostedGame>> = READY
        .iter()
        .map(|(id, name, text)| {
            let rules = registry().get(id).expect("the rule set is registered");
            rules.new_game(Source::new(*name, *text), 1).expect("a ready scenario loads")
        })
        .collect();
}

/// A copy of each ready scenario's game, just begun (seed 1), for one input to play with.
pub fn ready_games() -> Vec<Box<dyn HostedGame>> {
    GAMES.with(|games| games.iter().map(|g| g.boxed_clone()).collect())
}

/// Text from the fuzzer's bytes, if they are UTF-8 (every file and message is text).
pub fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}
