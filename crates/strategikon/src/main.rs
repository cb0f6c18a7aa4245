//! `strategikon`: the command-line front of the Strategikon wargames engine.

mod bots;
mod cli;
mod files;
mod registry;

use std::process::ExitCode;

fn main() -> ExitCode {
    match cli::run(std::env::args_os()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
