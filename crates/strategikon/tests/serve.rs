//! `strategikon serve` run as a user runs it: it prints the address to open, answers there,
//! and stops cleanly on SIGTERM.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

#[test]
fn serve_prints_its_address_and_serves_the_api() {
    let scratch = tempfile::Builder::new().prefix("strategikon-serve-").tempdir().unwrap();
    let dir = scratch.path();
    let mut child = Command::new(env!("CARGO_BIN_EXE_strategikon"))
        .args(["serve", "--addr", "127.0.0.1:0", "--database", "games.db"])
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let addr = first
        .trim()
        .strip_prefix("Strategikon is serving at http://")
        .and_then(|a| a.strip_suffix('/'))
        .unwrap_or_else(|| panic!("the first line names the address: {first:?}"))
        .to_string();
    let mut second = String::new();
    out.read_line(&mut second).unwrap();
    assert!(second.contains("the SQLite file games.db"), "{second}");

    let mut s = TcpStream::connect(&addr).unwrap();
    write!(s, "GET /api/rulesets HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut reply = String::new();
    s.read_to_string(&mut reply).unwrap();
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    for id in ["movement", "othw", "wrg1969"] {
        assert!(reply.contains(&format!("\"id\":\"{id}\"")), "{reply}");
    }
    assert!(dir.join("games.db").exists(), "the default store is an SQLite file");

    #[cfg(unix)]
    {
        // SAFETY: sending a signal to the child process this test started.
        unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
        let status = child.wait().unwrap();
        assert!(status.success(), "{status:?}");
    }
    #[cfg(not(unix))]
    {
        child.kill().unwrap();
        child.wait().unwrap();
    }
}

#[test]
fn serve_has_help() {
    let o =
        Command::new(env!("CARGO_BIN_EXE_strategikon")).args(["serve", "--help"]).output().unwrap();
    assert!(o.status.success());
    let help = String::from_utf8_lossy(&o.stdout);
    for option in ["--addr", "--database", "--scenarios", "postgres://"] {
        assert!(help.contains(option), "{option}: {help}");
    }
}

#[test]
fn serve_refuses_an_unusable_database() {
    let o = Command::new(env!("CARGO_BIN_EXE_strategikon"))
        .args(["serve", "--addr", "127.0.0.1:0", "--database", "/nonexistent/dir/games.db"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("/nonexistent/dir/games.db"), "{err}");
}
