//! How many games a client address may create: at most [`Limits::games_per_minute`] in any
//! minute that began with its first creation.
//!
//! [`Limits::games_per_minute`]: crate::config::Limits::games_per_minute

use crate::games::{Rejection, reject};
use axum::http::StatusCode;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

const WINDOW: Duration = Duration::from_secs(60);

/// The games each address created in its current minute.
#[derive(Default)]
pub struct Creations {
    by_address: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

impl Creations {
    /// Counts a creation by `address`, or refuses it (429) if the address has created
    /// `per_minute` games already this minute.
    pub fn allow(&self, address: IpAddr, per_minute: u32) -> Result<(), Rejection> {
        let now = Instant::now();
        let mut map = self.by_address.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() > 10_000 {
            map.retain(|_, (start, _)| now.duration_since(*start) < WINDOW);
        }
        let entry = map.entry(address).or_insert((now, 0));
        if now.duration_since(entry.0) >= WINDOW {
            *entry = (now, 0);
        }
        if entry.1 >= per_minute {
            let wait = WINDOW.saturating_sub(now.duration_since(entry.0)).as_secs() + 1;
            return Err(reject(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "this address has created {} games in the last minute, as many as the \
                     server takes; try again in {wait} s",
                    entry.1
                ),
            ));
        }
        entry.1 += 1;
        Ok(())
    }
}
