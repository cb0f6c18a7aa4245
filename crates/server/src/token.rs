//! Secrets: game IDs, side tokens and game seeds drawn from the operating system's generator,
//! and the hashes under which tokens are stored.
//!
//! A side's token is 256 random bits written as 64 hex digits. The server keeps only its
//! SHA-256 hash: a stolen database gives no one a seat at a game. Game IDs are 128 random bits
//! (32 hex digits): knowing one lets a person watch that game, nothing more.

use sha2::{Digest, Sha256};

/// The operating system could not give random bytes.
#[derive(Debug, thiserror::Error)]
#[error("the system's random generator failed: {0}")]
pub struct RandomError(String);

fn random_bytes<const N: usize>() -> Result<[u8; N], RandomError> {
    let mut buf = [0u8; N];
    getrandom::fill(&mut buf).map_err(|e| RandomError(e.to_string()))?;
    Ok(buf)
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

/// A new side token: 64 hex digits.
pub fn new_token() -> Result<String, RandomError> {
    Ok(hex(&random_bytes::<32>()?))
}

/// A new game ID: 32 hex digits.
pub fn new_game_id() -> Result<String, RandomError> {
    Ok(hex(&random_bytes::<16>()?))
}

/// A new game seed. Seeds are secret until the game ends: whoever knows one can foretell the
/// dice.
pub fn new_seed() -> Result<u64, RandomError> {
    Ok(u64::from_le_bytes(random_bytes::<8>()?))
}

/// Whether `text` has the form of a game ID (so that garbage never reaches the store).
pub fn is_game_id(text: &str) -> bool {
    text.len() == 32 && text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The stored form of a token: its SHA-256 hash in hex.
pub fn hash_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Whether `token` hashes to `stored`, comparing in time independent of where they differ.
pub fn token_matches(token: &str, stored: &str) -> bool {
    let h = hash_token(token);
    h.len() == stored.len()
        && h.bytes().zip(stored.bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_match_only_their_hash() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        let h = hash_token(&a);
        assert_eq!(h.len(), 64);
        assert_ne!(h, a);
        assert!(token_matches(&a, &h));
        assert!(!token_matches(&b, &h));
        assert!(!token_matches("", &h));
        // The SHA-256 of "abc", a published test vector.
        assert_eq!(
            hash_token("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn game_ids_have_a_checkable_form() {
        let id = new_game_id().unwrap();
        assert!(is_game_id(&id));
        assert!(!is_game_id("../../etc/passwd"));
        assert!(!is_game_id(&id.to_uppercase()));
        assert!(!is_game_id(&id[1..]));
    }
}
