//! Random factors and the dice of T10: the shooting pair, the hand-to-hand pair, the
//! reaction-test dice and the return from off the table (WRG-RAND-01 .. -05, WRG-RTP-01, -02).
//! Every die goes through a [`DiceSource`] and comes back as a [`Roll`] naming its purpose and
//! rule.

use crate::Data;
use crate::model::Status;
use tabletop::dice::{DiceSource, Roll, roll};
use tabletop::rules::RuleId;

/// The shooting random factor from the red (minus) and black (plus) dice: +step if black is
/// higher, -step if red is, 0 on a tie (WRG-RAND-01, WRG-R-30).
pub fn shooting_factor(data: &Data, red: u8, black: u8) -> i32 {
    let step = data.dice.shooting.step;
    match black.cmp(&red) {
        std::cmp::Ordering::Greater => step,
        std::cmp::Ordering::Less => -step,
        std::cmp::Ordering::Equal => 0,
    }
}

/// The hand-to-hand random factor: black minus red, in full; a unit fighting with its General
/// disregards a negative result (WRG-RAND-02, -03, -04).
pub fn melee_factor(black: u8, red: u8, general_fights: bool) -> i32 {
    let f = black as i32 - red as i32;
    if general_fights { f.max(0) } else { f }
}

/// Rolls the shooting pair: (factor, [red, black]) (WRG-RAND-01, WRG-RAND-05).
pub fn roll_shooting(data: &Data, dice: &mut dyn DiceSource) -> (i32, [Roll; 2]) {
    let die = data.dice.shooting.die.die();
    let red = roll(dice, die, "red shooting die (minus)", RuleId::new("WRG-RAND-01"));
    let black = roll(dice, die, "black shooting die (plus)", RuleId::new("WRG-RAND-01"));
    (shooting_factor(data, red.value, black.value), [red, black])
}

/// Rolls the hand-to-hand pair for regulars or barbarians: (factor, [red, black])
/// (WRG-RAND-02, -03, -04).
pub fn roll_melee(
    data: &Data,
    status: Status,
    general_fights: bool,
    dice: &mut dyn DiceSource,
) -> (i32, [Roll; 2]) {
    let (pair, rule) = match status {
        Status::Regular => (&data.dice.melee.regular, "WRG-RAND-02"),
        Status::Barbarian => (&data.dice.melee.barbarian, "WRG-RAND-03"),
    };
    let red = roll(dice, pair.red.die(), "red hand-to-hand die (minus)", RuleId::new(rule));
    let black = roll(dice, pair.black.die(), "black hand-to-hand die (plus)", RuleId::new(rule));
    (melee_factor(black.value, red.value, general_fights), [red, black])
}

/// The dice of hand-to-hand for a status: (black, red) kinds.
pub fn melee_dice(data: &Data, status: Status) -> (tabletop::Die, tabletop::Die) {
    let p = match status {
        Status::Regular => &data.dice.melee.regular,
        Status::Barbarian => &data.dice.melee.barbarian,
    };
    (p.black.die(), p.red.die())
}

/// The die a unit throws for reaction tests: the probability die for regulars, the ordinary
/// die for barbarians and Asiatic levies (WRG-RTP-01, WRG-CLASS-06, WRG-M-16).
pub fn reaction_die(data: &Data, status: Status, levy: bool) -> tabletop::Die {
    if status == Status::Barbarian || levy {
        data.dice.reaction.barbarian.die()
    } else {
        data.dice.reaction.regular.die()
    }
}

/// How many dice a reaction test throws: 3, 2 below two-thirds of the starting figures, 1
/// below half, strictly below (WRG-RTP-02, WRG-R-43).
pub fn reaction_dice_count(data: &Data, start: u32, now: u32) -> u8 {
    let r = &data.dice.reaction;
    let below = |[n, d]: [u32; 2]| (now as u64) * (d as u64) < (start as u64) * (n as u64);
    if below(r.one_die_below) {
        1
    } else if below(r.two_dice_below) {
        2.min(r.dice)
    } else {
        r.dice
    }
}

/// Rolls the reaction dice: (sum, rolls).
pub fn roll_reaction(
    data: &Data,
    status: Status,
    levy: bool,
    count: u8,
    dice: &mut dyn DiceSource,
) -> (i32, Vec<Roll>) {
    let die = reaction_die(data, status, levy);
    let rolls: Vec<Roll> =
        (0..count).map(|_| roll(dice, die, "reaction test", RuleId::new("WRG-RTP-01"))).collect();
    (rolls.iter().map(|r| r.value as i32).sum(), rolls)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabletop::dice::{Die, ScriptedDice};

    fn data() -> Data {
        Data::embedded().unwrap()
    }

    // Checks WRG-RAND-01.
    #[test]
    fn wrg_rand_01_shooting_pair() {
        let d = data();
        assert_eq!(shooting_factor(&d, 3, 5), 1);
        assert_eq!(shooting_factor(&d, 6, 1), -1);
        assert_eq!(shooting_factor(&d, 4, 4), 0);
        let mut s = ScriptedDice::new([3, 5]);
        let (f, rolls) = roll_shooting(&d, &mut s);
        assert_eq!(f, 1);
        assert_eq!((rolls[0].value, rolls[1].value), (3, 5));
        assert_eq!(rolls[0].die, Die::D6);
        assert_eq!(rolls[0].rule.as_str(), "WRG-RAND-01");
    }

    // Checks WRG-RAND-02.
    #[test]
    fn wrg_rand_02_regulars_average_dice_in_full() {
        let d = data();
        let (b, r) = melee_dice(&d, Status::Regular);
        assert_eq!((b, r), (Die::Average, Die::Average));
        assert_eq!(melee_factor(5, 2, false), 3);
        assert_eq!(melee_factor(2, 5, false), -3);
        let mut s = ScriptedDice::new([4, 2]);
        let (f, rolls) = roll_melee(&d, Status::Regular, false, &mut s);
        assert_eq!(f, -2);
        assert_eq!(rolls[0].die, Die::Average);
    }

    // Checks WRG-RAND-03.
    #[test]
    fn wrg_rand_03_barbarians_black_d6() {
        let d = data();
        let (b, r) = melee_dice(&d, Status::Barbarian);
        assert_eq!((b, r), (Die::D6, Die::Average));
        let mut s = ScriptedDice::new([2, 6]);
        assert_eq!(roll_melee(&d, Status::Barbarian, false, &mut s).0, 4);
        let mut s = ScriptedDice::new([5, 1]);
        assert_eq!(roll_melee(&d, Status::Barbarian, false, &mut s).0, -4);
    }

    // Checks WRG-RAND-04.
    #[test]
    fn wrg_rand_04_general_disregards_a_minus() {
        assert_eq!(melee_factor(1, 5, true), 0);
        assert_eq!(melee_factor(6, 2, true), 4);
    }

    // Checks WRG-RAND-05.
    #[test]
    fn wrg_rand_05_one_roll_per_unit() {
        // One pair per shooting unit: two dice consumed, whatever its groups.
        let d = data();
        let mut s = ScriptedDice::new([1, 2, 6]);
        let _ = roll_shooting(&d, &mut s);
        assert_eq!(s.used, 2);
    }

    // Checks WRG-RTP-01.
    #[test]
    fn wrg_rtp_01_dice_by_status() {
        let d = data();
        assert_eq!(reaction_die(&d, Status::Regular, false), Die::Average);
        assert_eq!(reaction_die(&d, Status::Barbarian, false), Die::D6);
        assert_eq!(reaction_die(&d, Status::Regular, true), Die::D6);
        let mut s = ScriptedDice::new([2, 3, 5]);
        let (sum, rolls) = roll_reaction(&d, Status::Regular, false, 3, &mut s);
        assert_eq!((sum, rolls.len()), (10, 3));
    }

    // Checks WRG-RTP-02.
    #[test]
    fn wrg_rtp_02_fewer_dice_when_weakened() {
        let d = data();
        assert_eq!(reaction_dice_count(&d, 12, 12), 3);
        assert_eq!(reaction_dice_count(&d, 12, 8), 3);
        assert_eq!(reaction_dice_count(&d, 12, 7), 2);
        assert_eq!(reaction_dice_count(&d, 12, 6), 2);
        assert_eq!(reaction_dice_count(&d, 12, 5), 1);
        assert_eq!(reaction_dice_count(&d, 20, 13), 2);
        assert_eq!(reaction_dice_count(&d, 20, 14), 3);
    }
}
