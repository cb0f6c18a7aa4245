//! The bots the CLI can put in command of a side: whatever the rule set's host registers
//! (`random` and `mcts` for every rule set, scripted bots where a rule set has them), named as
//! `NAME` or `NAME:PARAMS` (see [`tabletop::host::BotSpec`]).

use anyhow::anyhow;
use tabletop::host::{BotSpec, HostedBot, HostedRuleSet};
use tabletop::{SeededDice, Side};

/// Parses a bot as the user wrote it.
pub fn spec(text: &str) -> anyhow::Result<BotSpec> {
    BotSpec::parse(text).map_err(|e| anyhow!("{e}"))
}

/// Makes the bot `spec` names for `rules`, or says why not (an unknown name's message lists
/// the known ones).
pub fn make(rules: &dyn HostedRuleSet, spec: &BotSpec) -> anyhow::Result<Box<dyn HostedBot>> {
    rules.new_bot(spec).map_err(|e| anyhow!("{e}"))
}

/// Makes both sides' bots, red first.
pub fn make_pair(
    rules: &dyn HostedRuleSet,
    specs: &[BotSpec; 2],
) -> anyhow::Result<[Box<dyn HostedBot>; 2]> {
    Ok([make(rules, &specs[0])?, make(rules, &specs[1])?])
}

/// The SplitMix64 finaliser: spreads a seed's bits so that nearby seeds give unrelated streams.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The generator a side's bot draws its choices from in the game with `seed`: separate from
/// the game's dice (so the record replays by itself) and from the other side's bot (so one
/// bot's appetite for random numbers never changes the other's choices).
pub fn rng(seed: u64, side: Side) -> SeededDice {
    SeededDice::new(mix(seed ^ mix(0xb07_0000 + side.index() as u64)))
}
