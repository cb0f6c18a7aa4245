//! `strategikon`: the command-line front of the Strategikon wargames engine.

mod cli;
mod duel;
mod files;
mod play;
mod players;
mod plot;
mod report;
mod serve;
mod sim;

use std::process::ExitCode;
use strategikon::registry;

fn main() -> ExitCode {
    restore_default_sigpipe();
    match cli::run(std::env::args_os()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Output piped into `head` or a closed pager ends the program quietly, as a Unix tool should,
/// instead of failing on a broken pipe.
#[cfg(unix)]
fn restore_default_sigpipe() {
    // SAFETY: setting a signal's disposition to the default at start-up, before any thread
    // exists, has no preconditions.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn restore_default_sigpipe() {}
