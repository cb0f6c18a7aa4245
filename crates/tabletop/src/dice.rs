//! Dice: a seeded ChaCha8 generator per game, our own unbiased sampler for a die of N faces,
//! the special dice of the rule sets, scripted dice for tests, and the [`Roll`] record every
//! die becomes in the battle log.
//!
//! The sampler is ours, not `rand`'s distributions, so that a dependency upgrade can never
//! change the rolls of an old game; a test vector pins it.

use crate::rules::RuleId;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::VecDeque;

/// A kind of die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Die {
    /// A die with faces 1 to N.
    D(u8),
    /// The average die, faces 2, 3, 3, 4, 4, 5.
    Average,
}

impl Die {
    /// The ordinary six-sided die.
    pub const D6: Die = Die::D(6);
    /// The ten-sided die, faces 1 to 10.
    pub const D10: Die = Die::D(10);

    /// How many faces the die has.
    pub fn faces(self) -> u32 {
        match self {
            Die::D(n) => n as u32,
            Die::Average => 6,
        }
    }

    /// The value shown by face `index` (0-based).
    pub fn face_value(self, index: u32) -> u8 {
        match self {
            Die::D(_) => (index + 1) as u8,
            Die::Average => [2, 3, 3, 4, 4, 5][index as usize],
        }
    }

    /// True when `value` can be shown by this die.
    pub fn can_show(self, value: u8) -> bool {
        match self {
            Die::D(n) => (1..=n).contains(&value),
            Die::Average => (2..=5).contains(&value),
        }
    }

    /// A short name: `d6`, `d10`, `average die`.
    pub fn name(self) -> Cow<'static, str> {
        match self {
            Die::D(6) => "d6".into(),
            Die::D(10) => "d10".into(),
            Die::D(n) => format!("d{n}").into(),
            Die::Average => "average die".into(),
        }
    }
}

/// One die rolled: which die, what it showed, what it was for, and the rule it served.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    /// The die.
    pub die: Die,
    /// The face shown.
    pub value: u8,
    /// What the roll was for, in a few words.
    pub purpose: Cow<'static, str>,
    /// The rule the roll served.
    pub rule: RuleId,
}

impl std::fmt::Display for Roll {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{}] {} for {}: {}", self.rule, self.die.name(), self.purpose, self.value)
    }
}

/// Where dice come from. Rules take `&mut dyn DiceSource` (or a generic) and never touch a
/// global generator.
pub trait DiceSource {
    /// Rolls one die and returns its face value.
    fn face(&mut self, die: Die) -> u8;

    /// Rolls one die for a stated purpose under a rule, returning the record for the log.
    fn roll(&mut self, die: Die, purpose: impl Into<Cow<'static, str>>, rule: RuleId) -> Roll
    where
        Self: Sized,
    {
        let value = self.face(die);
        Roll { die, value, purpose: purpose.into(), rule }
    }
}

/// Rolls through a trait object too.
pub fn roll(
    dice: &mut dyn DiceSource,
    die: Die,
    purpose: impl Into<Cow<'static, str>>,
    rule: RuleId,
) -> Roll {
    let value = dice.face(die);
    Roll { die, value, purpose: purpose.into(), rule }
}

/// Draws a uniform integer in `0..n` from 32-bit words, by rejection: words at or above the
/// largest multiple of `n` are discarded, so every result is exactly equally likely.
pub fn uniform_below(n: u32, mut next_u32: impl FnMut() -> u32) -> u32 {
    assert!(n > 0, "uniform_below needs at least one outcome");
    // 2^32 mod n, computed without overflow; words below it are rejected.
    let reject_below = n.wrapping_neg() % n;
    loop {
        let w = next_u32();
        if w >= reject_below {
            return w % n;
        }
    }
}

/// The game's seeded generator: ChaCha8 with our own die sampler. Its exact state is saved and
/// restored with serde, so a saved game resumes with the same future rolls.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeededDice {
    rng: ChaCha8Rng,
}

impl SeededDice {
    /// A generator for the given game seed.
    pub fn new(seed: u64) -> Self {
        SeededDice { rng: ChaCha8Rng::seed_from_u64(seed) }
    }

    /// The next raw 32-bit word (for bots' and harnesses' own random choices).
    pub fn next_u32(&mut self) -> u32 {
        self.rng.next_u32()
    }

    /// A uniform index in `0..n`.
    pub fn below(&mut self, n: u32) -> u32 {
        let rng = &mut self.rng;
        uniform_below(n, || rng.next_u32())
    }
}

impl DiceSource for SeededDice {
    fn face(&mut self, die: Die) -> u8 {
        let i = self.below(die.faces());
        die.face_value(i)
    }
}

/// Seeded dice that count the dice they roll, for benchmarks that report dice per second.
#[derive(Clone, Debug)]
pub struct CountingDice {
    /// The generator.
    pub dice: SeededDice,
    /// Dice rolled so far.
    pub rolled: u64,
}

impl CountingDice {
    /// Counting dice from a seed.
    pub fn new(seed: u64) -> CountingDice {
        CountingDice { dice: SeededDice::new(seed), rolled: 0 }
    }
}

impl DiceSource for CountingDice {
    fn face(&mut self, die: Die) -> u8 {
        self.rolled += 1;
        self.dice.face(die)
    }
}

/// Dice that show a fixed script of face values, for tests and for the referee, where a
/// tabletop player enters the dice actually rolled. Running out of script, or a value the die
/// cannot show, is a programming error in a test and panics with a clear message.
#[derive(Clone, Debug, Default)]
pub struct ScriptedDice {
    faces: VecDeque<u8>,
    /// How many dice have been rolled from the script.
    pub used: usize,
}

impl ScriptedDice {
    /// Dice that will show these faces in order.
    pub fn new(faces: impl IntoIterator<Item = u8>) -> Self {
        ScriptedDice { faces: faces.into_iter().collect(), used: 0 }
    }

    /// How many faces remain unrolled.
    pub fn remaining(&self) -> usize {
        self.faces.len()
    }
}

impl DiceSource for ScriptedDice {
    fn face(&mut self, die: Die) -> u8 {
        let v = self.faces.pop_front().unwrap_or_else(|| {
            panic!("scripted dice ran out after {} rolls (wanted a {})", self.used, die.name())
        });
        assert!(die.can_show(v), "scripted value {v} cannot be shown by a {}", die.name());
        self.used += 1;
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampler_is_pinned_by_a_test_vector() {
        // If this vector changes, every saved game's dice change: never update it casually.
        let mut d = SeededDice::new(42);
        let d6: Vec<u8> = (0..12).map(|_| d.face(Die::D6)).collect();
        let d10: Vec<u8> = (0..8).map(|_| d.face(Die::D10)).collect();
        let avg: Vec<u8> = (0..8).map(|_| d.face(Die::Average)).collect();
        assert_eq!((d6, d10, avg), (PINNED_D6.to_vec(), PINNED_D10.to_vec(), PINNED_AVG.to_vec()),);
    }

    const PINNED_D6: [u8; 12] = [4, 4, 5, 1, 3, 3, 5, 4, 1, 3, 3, 4];
    const PINNED_D10: [u8; 8] = [5, 10, 3, 6, 9, 1, 3, 8];
    const PINNED_AVG: [u8; 8] = [3, 4, 4, 3, 3, 5, 4, 3];

    #[test]
    fn rejection_sampler_is_unbiased_on_a_small_word_space() {
        // Feed every residue class the same number of times, plus words from the rejected zone:
        // results must be exactly uniform.
        let n = 6u32;
        let reject_below = n.wrapping_neg() % n; // 4 for n = 6
        assert_eq!(reject_below, 4);
        let mut words = (0..reject_below).chain(reject_below..reject_below + 600);
        let mut counts = [0u32; 6];
        for _ in 0..600 {
            counts[uniform_below(n, || words.next().unwrap()) as usize] += 1;
        }
        assert_eq!(counts, [100; 6]);
    }

    #[test]
    fn seeded_dice_survive_a_serde_round_trip_mid_game() {
        let mut a = SeededDice::new(7);
        for _ in 0..13 {
            a.face(Die::D6);
        }
        let saved = serde_json::to_string(&a).unwrap();
        let mut b: SeededDice = serde_json::from_str(&saved).unwrap();
        let xs: Vec<u8> = (0..50).map(|_| a.face(Die::D10)).collect();
        let ys: Vec<u8> = (0..50).map(|_| b.face(Die::D10)).collect();
        assert_eq!(xs, ys);
    }

    #[test]
    fn average_die_shows_its_six_faces_in_proportion() {
        let mut d = SeededDice::new(1);
        let mut counts = [0u32; 7];
        for _ in 0..60_000 {
            counts[d.face(Die::Average) as usize] += 1;
        }
        assert_eq!(counts[0] + counts[1] + counts[6], 0);
        for (face, share) in [(2usize, 1.0), (3, 2.0), (4, 2.0), (5, 1.0)] {
            let expected = 10_000.0 * share;
            assert!((counts[face] as f64 - expected).abs() < expected * 0.05, "{counts:?}");
        }
    }

    #[test]
    fn scripted_dice_show_their_script_and_count_use() {
        let mut s = ScriptedDice::new([3, 5]);
        let r = s.roll(Die::D6, "test", RuleId::new("X-Y-01"));
        assert_eq!(r.value, 3);
        assert_eq!(s.face(Die::D6), 5);
        assert_eq!(s.used, 2);
        assert_eq!(s.remaining(), 0);
    }
}
