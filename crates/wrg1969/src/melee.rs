//! Hand-to-hand: who fights, the weapon factors of T7, and a round of fighting worked out for
//! both sides at once (WRG-MELEE-01 .. -07).

use crate::Data;
use crate::casualty::{Reading, Removal, men_lost, remove};
use crate::combat::{Applied, Tactical, tactical_factors, total};
use crate::model::{MeleeClass, Status, TroopType};
use crate::random::melee_factor;
use serde::{Deserialize, Serialize};

/// The T7 factor of a weapon class against a target type (WRG-MELEE-05; engines are hit as
/// light infantry, WRG-FIRE-16).
pub fn weapon_factor(data: &Data, class: MeleeClass, target: TroopType) -> i32 {
    data.melee_row(class).factors.get(target.column())
}

/// A unit's figures placed for a fight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Placing {
    /// Figures whose front touches an enemy (WRG-MELEE-01).
    pub front_contact: u32,
    /// Figures of the same unit directly behind a front-rank figure in contact (WRG-MELEE-02).
    pub second_rank: u32,
    /// Whether the second-rank figures shot this period.
    pub second_rank_shot: bool,
    /// Figures that lapped round onto the enemy's flank or rear (WRG-MELEE-03).
    pub lapped: u32,
    /// Which period of this fight it is, from 1.
    pub period: u32,
    /// The unit has a skirmish order and is light (WRG-MELEE-04).
    pub skirmishing_light: bool,
}

/// The figures that fight and the rules that let them (WRG-MELEE-01 .. -04).
pub fn fighting_figures(troop: TroopType, status: Status, p: &Placing) -> (u32, Vec<&'static str>) {
    let parts = fighting_parts(troop, status, p);
    let n = parts.iter().fold(0u32, |n, x| n.saturating_add(x.2));
    (n, parts.iter().map(|x| x.0).collect())
}

/// The figures that fight, part by part: (rule, what, figures): the front rank in contact
/// (WRG-MELEE-01), the second rank of regular close-order foot that did not shoot behind those
/// figures (WRG-MELEE-02), figures lapped round from the second period or at once for light
/// troops skirmishing (WRG-MELEE-03, -04).
pub fn fighting_parts(
    troop: TroopType,
    status: Status,
    p: &Placing,
) -> Vec<(&'static str, &'static str, u32)> {
    let mut out = vec![("WRG-MELEE-01", "front rank in contact", p.front_contact)];
    let close_foot = matches!(troop, TroopType::HeavyInfantry | TroopType::MediumInfantry);
    if p.second_rank > 0 && close_foot && status == Status::Regular && !p.second_rank_shot {
        let n = p.second_rank.min(p.front_contact);
        if n > 0 {
            out.push(("WRG-MELEE-02", "second rank behind them", n));
        }
    }
    if p.lapped > 0 {
        if p.skirmishing_light && troop.is_light() {
            out.push(("WRG-MELEE-04", "skirmishers lapping round", p.lapped));
        } else if p.period >= 2 {
            out.push(("WRG-MELEE-03", "lapped round a flank", p.lapped));
        }
    }
    out
}

/// Whether lapping round makes the unit disorganised: it bends the front (WRG-MELEE-04,
/// WRG-DIS-09).
pub fn lapping_disorganises(p: &Placing) -> bool {
    p.lapped > 0 && (p.period >= 2 || p.skirmishing_light)
}

/// One group of a side's fighters: figures with one weapon class striking one enemy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Group {
    /// The weapon class.
    pub class: MeleeClass,
    /// Figures fighting.
    pub figures: u32,
}

/// One side of a round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fighter {
    /// The unit's type (its target column for the enemy).
    pub troop: TroopType,
    /// Regular or barbarian (the dice).
    pub status: Status,
    /// Figures in the unit before the round.
    pub figures: u32,
    /// Men carried before the round.
    #[serde(default)]
    pub carried: u32,
    /// The groups fighting.
    pub groups: Vec<Group>,
    /// The tactical situation as this side strikes.
    #[serde(default)]
    pub tactical: Tactical,
    /// The General fights with the unit (WRG-RAND-04).
    #[serde(default)]
    pub general: bool,
    /// The black die.
    pub black: u8,
    /// The red die.
    pub red: u8,
}

/// What one side dealt in a round.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Strike {
    /// The random factor (one per unit, WRG-RAND-05).
    pub random: i32,
    /// The tactical factors.
    pub tactical: Vec<Applied>,
    /// Per group: weapon factor, total and reading.
    pub groups: Vec<(MeleeClass, i32, i32, Reading)>,
    /// Men dealt to the enemy.
    pub men: u32,
}

/// What one side dealt, given the enemy's type.
pub fn strike(data: &Data, me: &Fighter, enemy: TroopType) -> Strike {
    let random = melee_factor(me.black, me.red, me.general);
    let tactical = tactical_factors(&me.tactical, false);
    let t = total(&tactical);
    let mut men: u32 = 0;
    let mut groups = Vec::with_capacity(me.groups.len());
    for g in &me.groups {
        let w = weapon_factor(data, g.class, enemy);
        let r = men_lost(data, w + t + random, g.figures);
        men = men.saturating_add(r.men);
        groups.push((g.class, w, w + t + random, r));
    }
    Strike { random, tactical, groups, men }
}

/// A round of hand-to-hand: both sides strike from their strength before it, and the losses
/// are applied together (WRG-MELEE-05, WRG-MELEE-06, WRG-R-29).
pub fn round(data: &Data, a: &Fighter, b: &Fighter) -> ((Strike, Removal), (Strike, Removal)) {
    let sa = strike(data, a, b.troop);
    let sb = strike(data, b, a.troop);
    let ra = remove(data, a.figures, a.carried, sb.men);
    let rb = remove(data, b.figures, b.carried, sa.men);
    ((sa, ra), (sb, rb))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data() -> Data {
        Data::embedded().unwrap()
    }

    // Checks WRG-MELEE-05.
    #[test]
    fn wrg_melee_05_t7_rows() {
        let d = data();
        use MeleeClass::*;
        use TroopType::*;
        assert_eq!(weapon_factor(&d, KontosCavalry, SuperHeavyCavalry), 2);
        assert_eq!(weapon_factor(&d, PilumInfantry, MediumInfantry), 5);
        assert_eq!(weapon_factor(&d, Pike, TroopType::Elephant), 1);
        assert_eq!(weapon_factor(&d, HopliteSpear, LightCavalry), 5);
        assert_eq!(weapon_factor(&d, LongAxe, HeavyCavalry), 5);
        assert_eq!(weapon_factor(&d, MissileInfantry, LightInfantry), 3);
        assert_eq!(weapon_factor(&d, MeleeClass::Elephant, LightInfantry), 5);
        assert_eq!(weapon_factor(&d, MeleeClass::Chariot, MediumInfantry), 5);
        assert_eq!(weapon_factor(&d, ConventionalCavalry, LightInfantry), 5);
        assert_eq!(weapon_factor(&d, BowCavalry, HeavyInfantry), 0);
        assert_eq!(weapon_factor(&d, GothicCavalry, MediumInfantry), 5);
        assert_eq!(weapon_factor(&d, EasternCavalry, LightInfantry), 4);
        assert_eq!(weapon_factor(&d, SpearInfantry, StoneThrower), 4);
        let v = d.with_variant("t7_elephant_vs_li", "quick_reference").unwrap();
        assert_eq!(weapon_factor(&v, MeleeClass::Elephant, LightInfantry), 3);
    }

    // Checks WRG-MELEE-01.
    #[test]
    fn wrg_melee_01_front_contact_fights() {
        let p = Placing { front_contact: 6, period: 1, ..Default::default() };
        assert_eq!(fighting_figures(TroopType::LightCavalry, Status::Barbarian, &p).0, 6);
    }

    // Checks WRG-MELEE-02.
    #[test]
    fn wrg_melee_02_second_rank_of_regular_close_foot() {
        let p = Placing { front_contact: 6, second_rank: 6, period: 1, ..Default::default() };
        assert_eq!(fighting_figures(TroopType::MediumInfantry, Status::Regular, &p).0, 12);
        assert_eq!(fighting_figures(TroopType::MediumInfantry, Status::Barbarian, &p).0, 6);
        assert_eq!(fighting_figures(TroopType::LightInfantry, Status::Regular, &p).0, 6);
        let shot = Placing { second_rank_shot: true, ..p };
        assert_eq!(fighting_figures(TroopType::HeavyInfantry, Status::Regular, &shot).0, 6);
        // Only figures behind a front figure in contact.
        let few = Placing { front_contact: 2, second_rank: 6, period: 1, ..Default::default() };
        assert_eq!(fighting_figures(TroopType::HeavyInfantry, Status::Regular, &few).0, 4);
    }

    // Checks WRG-MELEE-03, WRG-DIS-09.
    #[test]
    fn wrg_melee_03_lapping_from_the_second_period() {
        let p = Placing { front_contact: 4, lapped: 3, period: 1, ..Default::default() };
        assert_eq!(fighting_figures(TroopType::MediumInfantry, Status::Barbarian, &p).0, 4);
        let p2 = Placing { period: 2, ..p };
        let (n, rules) = fighting_figures(TroopType::MediumInfantry, Status::Barbarian, &p2);
        assert_eq!(n, 7);
        assert!(rules.contains(&"WRG-MELEE-03"));
        assert!(lapping_disorganises(&p2));
        assert!(!lapping_disorganises(&p));
    }

    // Checks WRG-MELEE-04.
    #[test]
    fn wrg_melee_04_skirmishers_lap_at_once_and_are_disorganised() {
        let p = Placing {
            front_contact: 2,
            lapped: 4,
            period: 1,
            skirmishing_light: true,
            ..Default::default()
        };
        let (n, rules) = fighting_figures(TroopType::LightInfantry, Status::Barbarian, &p);
        assert_eq!(n, 6);
        assert!(rules.contains(&"WRG-MELEE-04"));
        assert!(lapping_disorganises(&p));
    }

    // Checks WRG-MELEE-06.
    #[test]
    fn wrg_melee_06_both_sides_strike_from_strength_before() {
        let d = data();
        // 8 legionaries (pilum, regular) against 10 Gallic warriors (spear, barbarian).
        let legion = Fighter {
            troop: TroopType::MediumInfantry,
            status: Status::Regular,
            figures: 8,
            carried: 0,
            groups: vec![Group { class: MeleeClass::PilumInfantry, figures: 8 }],
            tactical: Tactical::default(),
            general: false,
            black: 4,
            red: 3,
        };
        let gauls = Fighter {
            troop: TroopType::MediumInfantry,
            status: Status::Barbarian,
            figures: 10,
            carried: 5,
            groups: vec![Group { class: MeleeClass::SpearInfantry, figures: 10 }],
            tactical: Tactical { charging: true, ..Default::default() },
            general: false,
            black: 6,
            red: 2,
        };
        let ((sa, ra), (sb, rb)) = round(&d, &legion, &gauls);
        // Legion: 5 + 1 = 6 with 8 figures -> 25 men. Gauls: 4 + 1 + 4 = 9 with 10 -> 63.
        assert_eq!((sa.men, sb.men), (25, 63));
        assert_eq!((rb.figures_removed, rb.carried), (1, 10));
        assert_eq!((ra.figures_removed, ra.carried), (3, 3));
    }

    // Checks WRG-MELEE-05.
    #[test]
    fn wrg_melee_05_groups_read_their_own_column() {
        let d = data();
        let mixed = Fighter {
            troop: TroopType::MediumInfantry,
            status: Status::Regular,
            figures: 12,
            carried: 0,
            groups: vec![
                Group { class: MeleeClass::PilumInfantry, figures: 6 },
                Group { class: MeleeClass::MissileInfantry, figures: 2 },
            ],
            tactical: Tactical::default(),
            general: false,
            black: 3,
            red: 3,
        };
        let s = strike(&d, &mixed, TroopType::LightInfantry);
        // Pilum vs LI 3 with 6 figures: 9; archers vs LI 3 with 2: 3.
        assert_eq!(s.men, 12);
        assert_eq!(s.groups.len(), 2);
    }
}
