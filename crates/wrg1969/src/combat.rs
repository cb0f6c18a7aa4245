//! What shooting and hand-to-hand share: tactical factors (WRG-TAC), shields (WRG-SHLD) and
//! disorganisation (WRG-DIS). Each factor that applies is listed with its rule.

use crate::Data;
use crate::model::{MeleeClass, MissileWeapon, Status, TroopType};
use serde::{Deserialize, Serialize};

/// A factor applied, with its rule and a few words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Applied {
    /// The rule.
    pub rule: String,
    /// The change to the total.
    pub delta: i32,
    /// What it is for.
    pub why: String,
}

impl Applied {
    /// A factor applied under `rule`.
    pub fn new(rule: &str, delta: i32, why: impl Into<String>) -> Applied {
        Applied { rule: rule.to_string(), delta, why: why.into() }
    }
}

/// The tactical situation of a shot or a fight, as seen by the side striking.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Tactical {
    /// A regular close-order archer unit with any figure shooting overhead on the level
    /// (WRG-TAC-01).
    pub overhead_on_flat: bool,
    /// The target is in partial cover (WRG-TAC-02).
    pub target_in_cover: bool,
    /// The shooter is a stone-thrower, which ignores cover (WRG-TAC-02, WRG-FIRE-14).
    pub stone_thrower: bool,
    /// Own unit distracted or disorganised (WRG-TAC-03).
    pub disorganised: bool,
    /// Shooting at a target that moved at least 6" this period (WRG-TAC-04).
    pub target_moved_six: bool,
    /// The target cannot use shields (WRG-TAC-05; see [`can_use_shield`]).
    pub target_shieldless: bool,
    /// Own unit charging, countercharging or following up (WRG-TAC-06).
    pub charging: bool,
    /// Shooting or fighting from higher ground (WRG-TAC-07).
    pub higher_ground: bool,
}

/// The tactical factors that apply, for shooting (`missile`) or hand-to-hand (WRG-TAC-01 ..
/// -08). They add up (WRG-TAC-08).
pub fn tactical_factors(t: &Tactical, missile: bool) -> Vec<Applied> {
    let mut out = Vec::new();
    if missile && t.overhead_on_flat {
        out.push(Applied::new("WRG-TAC-01", -1, "overhead fire on the flat"));
    }
    if t.target_in_cover && !(missile && t.stone_thrower) {
        out.push(Applied::new("WRG-TAC-02", -1, "enemy in partial cover"));
    }
    if t.disorganised {
        out.push(Applied::new("WRG-TAC-03", -1, "own troops distracted or disorganised"));
    }
    if missile && t.target_moved_six {
        out.push(Applied::new("WRG-TAC-04", -1, "target moving at least 6\""));
    }
    if t.target_shieldless {
        out.push(Applied::new("WRG-TAC-05", 1, "enemy cannot use shields"));
    }
    if t.charging {
        out.push(Applied::new("WRG-TAC-06", 1, "charging, countercharging or following up"));
    }
    if t.higher_ground {
        out.push(Applied::new("WRG-TAC-07", 1, "from higher ground"));
    }
    out
}

/// The sum of applied factors.
pub fn total(applied: &[Applied]) -> i32 {
    applied.iter().map(|a| a.delta).sum()
}

/// Where an attack or missile comes from, relative to the target figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum From {
    /// The front.
    Front,
    /// The left (shield) flank.
    Left,
    /// The right flank, unshielded (WRG-R-15).
    Right,
    /// The rear.
    Rear,
}

/// What a target figure carries for the shield rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Protection {
    /// It has no shield.
    pub no_shield: bool,
    /// It is using a two-handed weapon now (bow, staff-sling, crossbow, kontos, pike, long
    /// axe or mace).
    pub two_handed: bool,
    /// Cavalry armoured on head, face, arms, hands, body, legs and feet.
    pub fully_armoured: bool,
}

/// Whether a target can use a shield against an attack or shot from `from` (WRG-SHLD-01 ..
/// -03): not from the rear or the unshielded (right) flank, not without a shield, not while
/// using a two-handed weapon; fully armoured cavalry never count as shieldless.
pub fn can_use_shield(troop: TroopType, p: Protection, from: From) -> (bool, &'static str) {
    if p.fully_armoured && troop.is_cavalry() {
        return (true, "WRG-SHLD-03");
    }
    if matches!(from, From::Rear | From::Right) {
        return (false, "WRG-SHLD-01");
    }
    if p.no_shield || p.two_handed {
        return (false, "WRG-SHLD-02");
    }
    (true, "WRG-SHLD-02")
}

/// Whether a missile weapon needs both hands (WRG-SHLD-02).
pub fn missile_two_handed(data: &Data, w: MissileWeapon) -> bool {
    data.weapon(w).two_handed
}

/// Whether a hand-to-hand class needs both hands (WRG-SHLD-02).
pub fn melee_two_handed(data: &Data, c: MeleeClass) -> bool {
    data.melee_row(c).two_handed
}

/// A cause of disorganisation or distraction (WRG-DIS-03 .. -12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// Cavalry near enemy camels or elephants (WRG-DIS-03; see [`beasts_disorganise`]).
    NearBeasts,
    /// An enemy behind the flank and within charge reach (WRG-DIS-04).
    EnemyBehindFlank,
    /// Pursuing, or pursued or pursuing last period (WRG-DIS-05).
    Pursuit,
    /// Cavalry whose charge was thrown back this period or last (WRG-DIS-06).
    ChargeRepulsed,
    /// Slowed by terrain or an obstacle this period or last; not light infantry (WRG-DIS-07).
    Terrain,
    /// Standing still under engine fire (WRG-DIS-08).
    StillUnderEngineFire,
    /// The front no longer one unbroken line (WRG-DIS-09).
    BrokenFront,
    /// Friendly troops other than light infantry passed through (WRG-DIS-10).
    PassedThrough,
    /// Barbarians who changed direction this period or last (WRG-DIS-11).
    BarbarianTurn,
    /// Under a "retire, disorganised" or "halt, disorganised" reaction result (WRG-DIS-12).
    ReactionResult,
}

impl Cause {
    /// The rule of the cause.
    pub fn rule(self) -> &'static str {
        match self {
            Cause::NearBeasts => "WRG-DIS-03",
            Cause::EnemyBehindFlank => "WRG-DIS-04",
            Cause::Pursuit => "WRG-DIS-05",
            Cause::ChargeRepulsed => "WRG-DIS-06",
            Cause::Terrain => "WRG-DIS-07",
            Cause::StillUnderEngineFire => "WRG-DIS-08",
            Cause::BrokenFront => "WRG-DIS-09",
            Cause::PassedThrough => "WRG-DIS-10",
            Cause::BarbarianTurn => "WRG-DIS-11",
            Cause::ReactionResult => "WRG-DIS-12",
        }
    }
}

/// The causes that really count for a unit: terrain does not disorganise light infantry
/// (WRG-DIS-07), only barbarians suffer from turning (WRG-DIS-11), only cavalry from beasts
/// and from a repulsed charge (WRG-DIS-03, -06).
pub fn effective_causes(troop: TroopType, status: Status, causes: &[Cause]) -> Vec<Cause> {
    let mut out: Vec<Cause> = causes
        .iter()
        .copied()
        .filter(|c| match c {
            Cause::Terrain => troop != TroopType::LightInfantry,
            Cause::BarbarianTurn => status == Status::Barbarian,
            Cause::NearBeasts | Cause::ChargeRepulsed => troop.is_cavalry(),
            _ => true,
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The disorganisation penalty: -1 once however many causes apply, 0 when none does (the unit
/// recovers by itself when the last cause goes) (WRG-DIS-01, WRG-DIS-02).
pub fn disorganisation_penalty(effective: &[Cause]) -> i32 {
    if effective.is_empty() { 0 } else { -1 }
}

/// Whether horse cavalry at `distance` from enemy camels or elephants are disorganised: within
/// 3" if their own army has such beasts, within 6" if it has none; camel riders are not
/// affected (WRG-DIS-03, WRG-R-48).
pub fn beasts_disorganise(troop: TroopType, own_army_has_beasts: bool, distance: f64) -> bool {
    if !troop.is_cavalry() || troop.is_camel() {
        return false;
    }
    let reach = if own_army_has_beasts { 3.0 } else { 6.0 };
    distance <= reach
}

/// Whether an enemy stands behind the unit's flank (beside it and not ahead of its front)
/// and within the enemy's charge reach of it (WRG-DIS-04).
pub fn enemy_behind_flank(
    unit: &tabletop::geometry::Rect,
    enemy: tabletop::geometry::Point,
    enemy_charge: f64,
) -> bool {
    let l = unit.to_local(enemy);
    let beside = l.x.abs() > unit.width / 2.0;
    let not_ahead = l.y <= unit.depth / 2.0;
    beside && not_ahead && unit.distance_to_point(enemy) <= enemy_charge + 1e-9
}

/// Whether troops under engine fire are disorganised: only if they stood still this period
/// (WRG-DIS-08).
pub fn engine_fire_disorganises(stood_still: bool, under_engine_fire: bool) -> bool {
    stood_still && under_engine_fire
}

/// Whether friends passing through a unit disorganise it: all but light infantry do
/// (WRG-DIS-10, WRG-MOVE-12, WRG-ROUT-06).
pub fn passing_disorganises(passer: TroopType) -> bool {
    passer != TroopType::LightInfantry
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabletop::geometry::{Facing, Rect, Vec2};

    // Checks WRG-DIS-04.
    #[test]
    fn wrg_dis_04_enemy_behind_the_flank_within_charge_reach() {
        let unit = Rect::new(Vec2::new(0.0, 0.0), Facing::from_bearing_degrees(0.0), 6.0, 1.5);
        // Beside the right flank, level with the unit, 5" off: within an 8" charge.
        assert!(enemy_behind_flank(&unit, Vec2::new(8.0, 0.0), 8.0));
        // Out of reach.
        assert!(!enemy_behind_flank(&unit, Vec2::new(12.0, -1.0), 8.0));
        // Ahead of the front is not behind the flank.
        assert!(!enemy_behind_flank(&unit, Vec2::new(5.0, 4.0), 8.0));
        // Straight behind is not beside the flank.
        assert!(!enemy_behind_flank(&unit, Vec2::new(0.0, -4.0), 8.0));
        // And it counts as a cause for every kind of troops.
        assert_eq!(
            effective_causes(TroopType::LightInfantry, Status::Regular, &[Cause::EnemyBehindFlank]),
            [Cause::EnemyBehindFlank]
        );
    }

    // Checks WRG-SCALE-14.
    #[test]
    fn wrg_scale_14_shieldless_troops_keep_their_class() {
        let no = Protection { no_shield: true, ..Default::default() };
        let (shielded, _) = can_use_shield(TroopType::MediumInfantry, no, From::Front);
        assert!(!shielded);
        // Still medium infantry, hit in the MI column, but at +1.
        assert_eq!(TroopType::MediumInfantry.column(), crate::model::Column::Mi);
        let t = Tactical { target_shieldless: !shielded, ..Default::default() };
        assert_eq!(total(&tactical_factors(&t, true)), 1);
    }

    // Checks WRG-DIS-05.
    #[test]
    fn wrg_dis_05_pursuit_disorganises_everyone() {
        for t in [TroopType::LightInfantry, TroopType::HeavyCavalry, TroopType::Elephant] {
            let c = effective_causes(t, Status::Regular, &[Cause::Pursuit]);
            assert_eq!(disorganisation_penalty(&c), -1, "{t}");
        }
    }

    // Checks WRG-DIS-08.
    #[test]
    fn wrg_dis_08_standing_still_under_engine_fire() {
        assert!(engine_fire_disorganises(true, true));
        assert!(!engine_fire_disorganises(false, true));
        assert!(!engine_fire_disorganises(true, false));
    }

    // Checks WRG-DIS-10.
    #[test]
    fn wrg_dis_10_friends_passing_through() {
        assert!(passing_disorganises(TroopType::LightCavalry));
        assert!(passing_disorganises(TroopType::HeavyInfantry));
        assert!(!passing_disorganises(TroopType::LightInfantry));
    }

    // Checks WRG-DIS-13.
    #[test]
    fn wrg_dis_13_disorganised_troops_still_act_at_minus_one() {
        // Disorganisation costs -1 on fighting and reaction, nothing more: the order stands.
        let t = Tactical { disorganised: true, ..Default::default() };
        assert_eq!(total(&tactical_factors(&t, false)), -1);
        let d = Data::embedded().unwrap();
        let s = crate::reaction::Situation { disorganised: true, ..Default::default() };
        let f = crate::reaction::fixed_factors(&d, &s);
        assert_eq!(f.iter().map(|a| a.delta).sum::<i32>(), -1);
    }

    // Checks WRG-TAC-08.
    #[test]
    fn wrg_tac_08_the_slingers_factors_add_up() {
        let t = Tactical { target_moved_six: true, target_shieldless: true, ..Default::default() };
        let a = tactical_factors(&t, true);
        assert_eq!(total(&a), 0);
        assert_eq!(
            a.iter().map(|x| x.rule.as_str()).collect::<Vec<_>>(),
            ["WRG-TAC-04", "WRG-TAC-05"]
        );
    }

    // Checks WRG-TAC-01.
    #[test]
    fn wrg_tac_01_overhead_on_the_flat() {
        let t = Tactical { overhead_on_flat: true, ..Default::default() };
        assert_eq!(total(&tactical_factors(&t, true)), -1);
        assert_eq!(total(&tactical_factors(&t, false)), 0);
    }

    // Checks WRG-TAC-02.
    #[test]
    fn wrg_tac_02_cover_but_not_for_stone_throwers() {
        let t = Tactical { target_in_cover: true, ..Default::default() };
        assert_eq!(total(&tactical_factors(&t, true)), -1);
        assert_eq!(total(&tactical_factors(&t, false)), -1);
        let s = Tactical { target_in_cover: true, stone_thrower: true, ..Default::default() };
        assert_eq!(total(&tactical_factors(&s, true)), 0);
    }

    // Checks WRG-TAC-03.
    #[test]
    fn wrg_tac_03_disorganised() {
        let t = Tactical { disorganised: true, ..Default::default() };
        assert_eq!(total(&tactical_factors(&t, false)), -1);
    }

    // Checks WRG-TAC-04.
    #[test]
    fn wrg_tac_04_only_for_shooting() {
        let t = Tactical { target_moved_six: true, ..Default::default() };
        assert_eq!(total(&tactical_factors(&t, true)), -1);
        assert_eq!(total(&tactical_factors(&t, false)), 0);
    }

    // Checks WRG-TAC-05, WRG-TAC-06, WRG-TAC-07.
    #[test]
    fn wrg_tac_05_06_07_the_pluses() {
        let t = Tactical { target_shieldless: true, ..Default::default() };
        assert_eq!(total(&tactical_factors(&t, false)), 1);
        let t = Tactical { charging: true, ..Default::default() };
        assert_eq!(tactical_factors(&t, false)[0].rule, "WRG-TAC-06");
        let t = Tactical {
            higher_ground: true,
            charging: true,
            target_shieldless: true,
            ..Default::default()
        };
        assert_eq!(total(&tactical_factors(&t, false)), 3);
    }

    // Checks WRG-SHLD-01.
    #[test]
    fn wrg_shld_01_rear_and_right_flank() {
        let p = Protection::default();
        assert!(can_use_shield(TroopType::MediumInfantry, p, From::Front).0);
        assert!(can_use_shield(TroopType::MediumInfantry, p, From::Left).0);
        assert_eq!(
            can_use_shield(TroopType::MediumInfantry, p, From::Right),
            (false, "WRG-SHLD-01")
        );
        assert_eq!(
            can_use_shield(TroopType::MediumInfantry, p, From::Rear),
            (false, "WRG-SHLD-01")
        );
    }

    // Checks WRG-SHLD-02.
    #[test]
    fn wrg_shld_02_no_shield_or_two_hands() {
        let no = Protection { no_shield: true, ..Default::default() };
        assert!(!can_use_shield(TroopType::HeavyInfantry, no, From::Front).0);
        let bow = Protection { two_handed: true, ..Default::default() };
        assert!(!can_use_shield(TroopType::LightCavalry, bow, From::Front).0);
        let d = Data::embedded().unwrap();
        assert!(missile_two_handed(&d, MissileWeapon::MountedCompositeBow));
        assert!(missile_two_handed(&d, MissileWeapon::StaffSling));
        assert!(missile_two_handed(&d, MissileWeapon::Crossbow));
        assert!(!missile_two_handed(&d, MissileWeapon::Sling));
        assert!(!missile_two_handed(&d, MissileWeapon::HandHurled));
        assert!(melee_two_handed(&d, MeleeClass::KontosCavalry));
        assert!(melee_two_handed(&d, MeleeClass::Pike));
        assert!(melee_two_handed(&d, MeleeClass::LongAxe));
        assert!(!melee_two_handed(&d, MeleeClass::HopliteSpear));
    }

    // Checks WRG-SHLD-03.
    #[test]
    fn wrg_shld_03_fully_armoured_cavalry() {
        let p = Protection { no_shield: true, two_handed: true, fully_armoured: true };
        assert!(can_use_shield(TroopType::SuperHeavyCavalry, p, From::Rear).0);
        // Only cavalry are exempt.
        assert!(!can_use_shield(TroopType::HeavyInfantry, p, From::Front).0);
    }

    // Checks WRG-DIS-01.
    #[test]
    fn wrg_dis_01_once_however_many_causes() {
        let c = effective_causes(
            TroopType::HeavyCavalry,
            Status::Regular,
            &[Cause::Pursuit, Cause::Terrain, Cause::BrokenFront, Cause::Pursuit],
        );
        assert_eq!(c.len(), 3);
        assert_eq!(disorganisation_penalty(&c), -1);
    }

    // Checks WRG-DIS-02.
    #[test]
    fn wrg_dis_02_recovery_when_no_cause_remains() {
        assert_eq!(disorganisation_penalty(&[]), 0);
    }

    // Checks WRG-DIS-03.
    #[test]
    fn wrg_dis_03_horses_and_beasts() {
        assert!(beasts_disorganise(TroopType::HeavyCavalry, true, 3.0));
        assert!(!beasts_disorganise(TroopType::HeavyCavalry, true, 4.0));
        assert!(beasts_disorganise(TroopType::HeavyCavalry, false, 6.0));
        assert!(!beasts_disorganise(TroopType::HeavyCavalry, false, 6.5));
        assert!(!beasts_disorganise(TroopType::LightCamelry, false, 1.0));
        assert!(!beasts_disorganise(TroopType::HeavyInfantry, false, 1.0));
    }

    // Checks WRG-DIS-07.
    #[test]
    fn wrg_dis_07_terrain_spares_light_infantry() {
        let li = effective_causes(TroopType::LightInfantry, Status::Regular, &[Cause::Terrain]);
        assert!(li.is_empty());
        let mi = effective_causes(TroopType::MediumInfantry, Status::Regular, &[Cause::Terrain]);
        assert_eq!(mi, [Cause::Terrain]);
        assert_eq!(Cause::Terrain.rule(), "WRG-DIS-07");
    }

    // Checks WRG-DIS-11.
    #[test]
    fn wrg_dis_11_only_barbarians_suffer_from_turning() {
        assert!(
            effective_causes(TroopType::MediumInfantry, Status::Regular, &[Cause::BarbarianTurn])
                .is_empty()
        );
        assert_eq!(
            effective_causes(TroopType::MediumInfantry, Status::Barbarian, &[Cause::BarbarianTurn]),
            [Cause::BarbarianTurn]
        );
    }

    // Checks WRG-DIS-06.
    #[test]
    fn wrg_dis_06_repulsed_charge_counts_for_cavalry() {
        assert_eq!(
            effective_causes(TroopType::MediumCavalry, Status::Barbarian, &[Cause::ChargeRepulsed]),
            [Cause::ChargeRepulsed]
        );
        assert_eq!(Cause::ChargeRepulsed.rule(), "WRG-DIS-06");
    }
}
