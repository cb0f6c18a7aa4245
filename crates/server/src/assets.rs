//! The browser client's files (`crates/server/client/`), embedded in the binary.

use rust_embed::RustEmbed;
use std::borrow::Cow;

#[derive(RustEmbed)]
#[folder = "client/"]
struct Client;

/// A file of the client and its media type, by its path below the client folder.
pub fn get(path: &str) -> Option<(Cow<'static, [u8]>, &'static str)> {
    let file = Client::get(path)?;
    Some((file.data, media_type(path)))
}

/// The media type for a file name.
pub fn media_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "ts" => "text/plain; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_client_is_embedded() {
        let (page, kind) = super::get("index.html").expect("index.html is embedded");
        assert!(kind.starts_with("text/html"));
        assert!(std::str::from_utf8(&page).unwrap().contains("Strategikon"));
        assert!(super::get("protocol.d.ts").is_some());
        assert!(super::get("app.js").is_some());
        assert!(super::get("../Cargo.toml").is_none());
    }
}
