//! `strategikon serve`: the browser tabletop. Wires the CLI's rule sets, bots and referees into
//! the `server` crate, opens the store and serves until Ctrl-C (or SIGTERM).

use crate::registry;
use anyhow::{Context, anyhow};
use std::net::SocketAddr;
use std::path::Path;
use std::process::ExitCode;

/// Where games are kept, as told to the user: a PostgreSQL URL without its password, or the
/// SQLite file.
fn describe(database: &str) -> String {
    match database.split_once("://") {
        Some((scheme, rest)) if scheme.starts_with("postgres") => {
            let host = rest.rsplit_once('@').map_or(rest, |(_, h)| h);
            format!("the PostgreSQL database {scheme}://{host}")
        }
        _ => format!("the SQLite file {database}"),
    }
}

/// Serves on `addr`, keeping games in `database` (an SQLite file, or a `postgres://` URL);
/// ready scenarios from `scenarios` instead of the built-in ones when given; pages from
/// `allowed_origins` may connect as well as the server's own.
pub fn run(
    addr: SocketAddr,
    database: &str,
    scenarios: Option<&Path>,
    allowed_origins: Vec<String>,
) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(serve(addr, database, scenarios, allowed_origins))
}

async fn serve(
    addr: SocketAddr,
    database: &str,
    scenarios: Option<&Path>,
    allowed_origins: Vec<String>,
) -> anyhow::Result<ExitCode> {
    let store =
        server::store::open(database).await.map_err(|e| anyhow!("{}: {e}", describe(database)))?;
    let mut config = server::Config::new(registry::rulesets(), store);
    config.allowed_origins = allowed_origins;
    for id in registry::REFEREES {
        config = config
            .with_referee(id, move |q| registry::referee(id, q).map_err(|e| format!("{e:#}")));
    }
    if let Some(dir) = scenarios {
        config.scenarios = server::scenarios::Scenarios::from_dir(dir)
            .with_context(|| format!("{}: cannot read the scenarios", dir.display()))?;
    }
    let mut running = server::start(config, addr).await?;
    let mut stop = Stop::install();
    println!("Strategikon is serving at http://{}/", running.local_addr());
    println!("games are kept in {}; press Ctrl-C to stop", describe(database));
    let resumed = running.resumed_watch();
    tokio::select! {
        ended = running.wait() => {
            ended.context("the server stopped")?;
            return Ok(ExitCode::FAILURE);
        }
        () = stop.wait() => {}
        () = async {
            let n = server::Server::count_resumed(resumed).await;
            println!("{n} unfinished game{} resumed", if n == 1 { "" } else { "s" });
            std::future::pending::<()>().await
        } => {}
    }
    eprintln!("stopping: every accepted command is saved");
    running.shutdown().await;
    Ok(ExitCode::SUCCESS)
}

/// Ctrl-C, or SIGTERM on Unix: the handlers are installed when it is made, so a signal sent
/// as soon as the address is printed already stops the server cleanly.
struct Stop {
    #[cfg(unix)]
    signals: Option<(tokio::signal::unix::Signal, tokio::signal::unix::Signal)>,
}

impl Stop {
    fn install() -> Stop {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let signals = signal(SignalKind::interrupt())
                .and_then(|int| Ok((int, signal(SignalKind::terminate())?)))
                .ok();
            Stop { signals }
        }
        #[cfg(not(unix))]
        {
            Stop {}
        }
    }

    async fn wait(&mut self) {
        #[cfg(unix)]
        if let Some((int, term)) = &mut self.signals {
            tokio::select! {
                _ = int.recv() => {}
                _ = term.recv() => {}
            }
            return;
        }
        let _ = tokio::signal::ctrl_c().await;
    }
}

#[cfg(test)]
mod tests {
    use super::describe;

    #[test]
    fn a_database_is_described_without_its_password() {
        assert_eq!(
            describe("postgres://me:secret@db.local:5432/games"),
            "the PostgreSQL database postgres://db.local:5432/games"
        );
        assert_eq!(describe("games.db"), "the SQLite file games.db");
    }
}
