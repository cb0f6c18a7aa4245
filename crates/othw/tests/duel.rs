//! The exact duel calculator against hand calculations.
mod common;
use common::*;
use othw::combat::Aspect;
use othw::duel::{DuelGeneral, Fighter, Ratio};

fn ty(roster: &str, name: &str) -> othw::data::UnitType {
    rules().unit_type(roster, name).expect("a known type")
}

fn sum(v: &[Ratio]) -> Ratio {
    v.iter().fold(Ratio::ZERO, |a, b| a.plus(*b))
}

#[test]
fn heavy_infantry_against_infantry_matches_the_hand_calculation() {
    let r = rules();
    let odds = r.duel(
        &Fighter::new(ty("generic", "Heavy Infantry")),
        &Fighter::new(ty("generic", "Infantry")),
        Aspect::Front,
        false,
    );
    // Heavy infantry rolls 3 dice at 6+: hits on the infantry ~ Bin(3, 1/6):
    //   P0 = 125/216, P1 = 75/216, P2 = 15/216, P3 = 1/216.
    // The infantry strikes back with 2 dice at 6+: Bin(2, 1/6): 25/36, 10/36, 1/36.
    assert_eq!(
        odds.defender.hits_taken,
        vec![Ratio::new(125, 216), Ratio::new(75, 216), Ratio::new(15, 216), Ratio::new(1, 216)]
    );
    assert_eq!(
        odds.attacker.hits_taken,
        vec![Ratio::new(25, 36), Ratio::new(10, 36), Ratio::new(1, 36)]
    );
    // The attacker wins when it scores more than it takes:
    //   (91·25 + 16·10 + 1·1) / (216·36) = 2436/7776 = 203/648.
    assert_eq!(odds.attacker.wins, Ratio::new(203, 648));
    // Draw: (125·25 + 75·10 + 15·1) / 7776 = 3890/7776 = 1945/3888.
    assert_eq!(odds.draw, Ratio::new(1945, 3888));
    // The infantry wins the rest: 1450/7776 = 725/3888.
    assert_eq!(odds.defender.wins, Ratio::new(725, 3888));
    assert_eq!(odds.attacker.wins.plus(odds.draw).plus(odds.defender.wins), Ratio::ONE);
    // Nobody can break: at most 3 hits on 4 SP.
    assert_eq!((odds.attacker.breaks, odds.defender.breaks), (Ratio::ZERO, Ratio::ZERO));
    // The losing infantry (L5, pass 1/3) stands on the first test 1/3, falls back 2/9, falls
    // back and turns 4/27, and fails all three 8/27 of its losses.
    let lose = Ratio::new(2436, 7776);
    assert_eq!(
        odds.defender.retreat,
        [
            lose.times(Ratio::new(1, 3)),
            lose.times(Ratio::new(2, 9)),
            lose.times(Ratio::new(4, 27)),
            lose.times(Ratio::new(8, 27)),
        ]
    );
    assert_eq!(sum(&odds.defender.retreat), lose);
}

#[test]
fn a_rally_die_and_a_rear_attack_follow_the_hand_calculation() {
    let r = rules();
    let mut inf = Fighter::new(ty("generic", "Infantry"));
    inf.general = Some(DuelGeneral::of(r.data.general("Generic general").expect("known")));
    let odds = r.duel(&Fighter::new(ty("generic", "Heavy Infantry")), &inf, Aspect::Front, false);
    // One rally die (5+, 1/3) cancels one hit whenever there is one:
    //   P(0 after) = 125/216 + 75/216 · 1/3 = 150/216 = 25/36.
    assert_eq!(odds.defender.hits_taken[0], Ratio::new(25, 36));
    // A losing infantry was hit, so its general rallied and took a Risk test: a 1 (1/6) and a
    // Fate roll of 1-4 (4/6) put him out of action, 1/9. With him, a failed test at L5 is
    // rerolled: the first test passes 1/3 + 2/3 · 8/9 · 1/3 = 43/81.
    let lose = odds.defender.retreat.iter().fold(Ratio::ZERO, |a, b| a.plus(*b));
    assert_eq!(odds.defender.retreat[0], lose.times(Ratio::new(43, 81)));
    // From the rear: 3 dice at 3+ (2/3 each), and no dice back:
    //   P(3 hits) = 8/27, P(0) = 1/27.
    let odds = r.duel(
        &Fighter::new(ty("generic", "Heavy Infantry")),
        &Fighter::new(ty("generic", "Infantry")),
        Aspect::Rear,
        false,
    );
    assert_eq!(odds.defender.hits_taken[3], Ratio::new(8, 27));
    assert_eq!(odds.defender.hits_taken[0], Ratio::new(1, 27));
    assert_eq!(odds.defender.dice, 0);
    assert_eq!(odds.draw, Ratio::new(1, 27), "only 0-0 is a draw");
}

#[test]
fn archers_reroll_one_miss_and_elephants_rampage_half_the_time_they_lose() {
    let r = rules();
    let mut bow = Fighter::new(ty("generic", "Infantry"));
    bow.ty.specials = othw::data::Specials::of(&[othw::data::Special::Archers]);
    let odds = r.duel(&bow, &Fighter::new(ty("generic", "Infantry")), Aspect::Flank, false);
    // 2 dice at 6+, one miss rerolled: P0 = 25/36 · 5/6 = 125/216; P2 = 1/36 + 10/36 · 1/6 =
    // 16/216; P1 = 75/216.
    assert_eq!(
        odds.defender.hits_taken,
        vec![Ratio::new(125, 216), Ratio::new(75, 216), Ratio::new(16, 216)]
    );
    // An elephant that loses and stands rampages on 1-3: half its losses.
    let odds = r.duel(
        &Fighter::new(ty("generic", "Heavy Infantry")),
        &Fighter::new(ty("generic", "Elephants")),
        Aspect::Front,
        false,
    );
    let stands = odds
        .defender
        .rampages
        .plus(odds.defender.retreat.iter().fold(Ratio::ZERO, |a, b| a.plus(*b)));
    assert_eq!(odds.defender.rampages, stands.times(Ratio::new(1, 2)));
    // The elephant hits heavy infantry on 5+ (hit all troops on 5): 3 dice, P0 = 8/27.
    assert_eq!(odds.defender.need, 5);
    assert_eq!(odds.attacker.hits_taken[0], Ratio::new(8, 27));
}

/// Checks terrain and the general's dice in the duel's profile.
#[test]
fn terrain_and_the_generals_dice_change_the_duel_dice() {
    let r = rules();
    // A Legion on a hill attacking Iberians in a ford, with the general's die: 3 + 1 (throwing
    // spears) + 1 (downhill) + 1 (general) = 6 dice at 5+. No ford die: the Iberians are in
    // loose order, which denies it (OTHW-R-22).
    let mut legion = Fighter::new(ty("roman", "Legion"));
    legion.terrain = tabletop::grid::CellTerrain::Hill;
    legion.general = Some(DuelGeneral::of(r.data.general("Generic general").expect("known")));
    let mut iberians = Fighter::new(ty("carthaginian", "Iberian Infantry"));
    iberians.terrain = tabletop::grid::CellTerrain::Ford;
    let odds = r.duel(&legion, &iberians, Aspect::Front, true);
    assert_eq!((odds.attacker.dice, odds.attacker.need), (6, 5));
    // Iberians (A2 + 1 spears) strike back uphill: 3 dice at 6+.
    assert_eq!((odds.defender.dice, odds.defender.need), (3, 6));
    // In a wood both sides drop to the forest values: the Legion 1 (+1 downhill does not apply
    // in the wood: it is not on the hill), the Iberians 2 (loose order).
    let mut legion = Fighter::new(ty("roman", "Legion"));
    legion.terrain = tabletop::grid::CellTerrain::Wood;
    let odds = r.duel(
        &legion,
        &Fighter::new(ty("carthaginian", "Iberian Infantry")),
        Aspect::Front,
        false,
    );
    assert_eq!((odds.attacker.dice, odds.defender.dice), (1, 2));
    let total = odds.attacker.wins.plus(odds.defender.wins).plus(odds.draw);
    assert_eq!(total, Ratio::ONE);
}
