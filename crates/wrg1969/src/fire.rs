//! Shooting: arcs and ranges, who may shoot when, overhead fire, crew-served weapons, and the
//! casualties of a shot (WRG-FIRE-01 .. -16).

use crate::Data;
use crate::casualty::{Reading, men_lost};
use crate::combat::{Applied, Tactical, tactical_factors, total};
use crate::model::{Crew, MissileWeapon, Status, TroopType};
use crate::random::shooting_factor;
use serde::{Deserialize, Serialize};
use tabletop::geometry::{Facing, Point, in_arc};

/// The width of a shooter's arc of fire (WRG-FIRE-03).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArcKind {
    /// All round: light horse archers, camel riders, elephant and chariot crews.
    AllRound,
    /// 45 degrees either side: other light troops and light dart engines.
    Wide,
    /// 22.5 degrees either side: everyone else.
    Narrow,
}

/// The arc of a shooter of `troop` using `weapon` (WRG-FIRE-03).
pub fn arc_kind(troop: TroopType, weapon: MissileWeapon) -> ArcKind {
    use TroopType::*;
    match troop {
        LightCavalry if weapon.is_bow() => ArcKind::AllRound,
        HeavyCamelry | MediumCamelry | LightCamelry | Elephant | Chariot => ArcKind::AllRound,
        LightInfantry | LightCavalry | LightDartEngine | LightDartEngineMule => ArcKind::Wide,
        _ => ArcKind::Narrow,
    }
}

/// The half-angle of an arc in degrees.
pub fn arc_degrees(data: &Data, kind: ArcKind) -> f64 {
    match kind {
        ArcKind::AllRound => data.missiles.arc.all_round,
        ArcKind::Wide => data.missiles.arc.wide,
        ArcKind::Narrow => data.missiles.arc.narrow,
    }
}

/// Whether a target point lies inside a shooter's arc and range, measured from the centre of
/// its front edge (WRG-FIRE-03, WRG-R-03). `Err` names the rule that stops the shot.
pub fn reaches(
    data: &Data,
    origin: Point,
    facing: Facing,
    kind: ArcKind,
    range: f64,
    target: Point,
) -> Result<f64, &'static str> {
    let d = origin.distance(target);
    if d > range + 1e-9 {
        return Err("WRG-FIRE-03");
    }
    let half = arc_degrees(data, kind).to_radians();
    if half < std::f64::consts::PI && !in_arc(origin, facing, half, target) {
        return Err("WRG-FIRE-03");
    }
    Ok(d)
}

/// How a shooter moved this period.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShooterMove {
    /// It stood still.
    Still,
    /// It moved forward (or otherwise, not charging nor retreating).
    Moved,
    /// It charged.
    Charged,
    /// It retreated or evaded.
    Retreating,
}

/// Whether a shooter may shoot after moving as it did; `rear` when shooting behind it
/// (WRG-FIRE-04, -05, -06). `Err` gives the rule that forbids it.
pub fn may_shoot(
    data: &Data,
    troop: TroopType,
    weapon: MissileWeapon,
    moved: ShooterMove,
    rear: bool,
) -> Result<(), &'static str> {
    if moved == ShooterMove::Charged {
        return Err("WRG-FIRE-04");
    }
    if moved != ShooterMove::Still && !data.weapon(weapon).moving {
        return Err("WRG-FIRE-05");
    }
    let rear_shooter = (troop == TroopType::LightCavalry && weapon.is_bow())
        || matches!(troop, TroopType::Chariot | TroopType::Elephant);
    if moved == ShooterMove::Retreating && !(rear && rear_shooter) {
        return Err("WRG-FIRE-06");
    }
    Ok(())
}

/// A shot over intervening troops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Overhead {
    /// The shooter's contour (0 = level ground).
    pub shooter_contour: i32,
    /// The intervening troops' contour.
    pub intervening_contour: i32,
    /// The shooter's type.
    pub shooter: TroopType,
    /// The shooter's status.
    pub status: Status,
    /// The weapon.
    pub weapon: MissileWeapon,
    /// The intervening troops' type.
    pub intervening: TroopType,
    /// How many friendly units the shot passes over.
    pub units_over: u32,
    /// How many ranks of the shooting unit shoot.
    pub ranks: u32,
    /// The target is a front rank engaged in hand-to-hand.
    pub onto_engaged_front: bool,
}

/// Whether an overhead shot is allowed, whether it takes the -1 of WRG-TAC-01, and the rule
/// that allows it (WRG-FIRE-08 .. -13). `Err` names the rule that forbids it.
pub fn overhead(o: &Overhead) -> Result<(bool, &'static str), &'static str> {
    if o.shooter_contour > o.intervening_contour {
        // Over lower troops: no penalty (WRG-FIRE-08); a contour is taller than an elephant.
        return Ok((false, "WRG-FIRE-08"));
    }
    if o.shooter_contour < o.intervening_contour {
        return Err("WRG-FIRE-08");
    }
    // Elephant crews sit above cavalry, and so above foot too (WRG-FIRE-09, WRG-R-02).
    if o.shooter == TroopType::Elephant && o.intervening != TroopType::Elephant {
        return Ok((false, "WRG-FIRE-09"));
    }
    if o.shooter.is_cavalry() {
        return Err("WRG-FIRE-09");
    }
    let close_foot = matches!(o.shooter, TroopType::HeavyInfantry | TroopType::MediumInfantry);
    let archer = o.weapon.is_bow();
    if !(close_foot && archer && o.status == Status::Regular) {
        return Err("WRG-FIRE-10");
    }
    if o.onto_engaged_front {
        return Err("WRG-FIRE-11");
    }
    if o.units_over > 1 {
        return Err("WRG-FIRE-12");
    }
    if o.ranks > 2 {
        return Err("WRG-FIRE-13");
    }
    Ok((true, "WRG-FIRE-10"))
}

/// What a crew-served weapon shoots as (WRG-FIRE-14).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Equivalent {
    /// The weapon it counts as.
    pub weapon: MissileWeapon,
    /// As how many figures (per crew-served figure).
    pub figures: u32,
    /// Its range.
    pub range: f64,
    /// It ignores the cover deduction.
    pub ignores_cover: bool,
}

/// The equivalent of a crew-served shooter (WRG-FIRE-14).
pub fn crew_equivalent(data: &Data, crew: Crew) -> Equivalent {
    let c = &data.missiles.crew[&crew];
    let range = data.weapon(c.range_of.unwrap_or(c.weapon)).range;
    Equivalent { weapon: c.weapon, figures: c.figures, range, ignores_cover: c.ignores_cover }
}

/// The T6 factor of a weapon against a target type (engines as light infantry, WRG-FIRE-16).
pub fn missile_factor(data: &Data, weapon: MissileWeapon, target: TroopType) -> i32 {
    data.missiles.row[&data.weapon(weapon).row].get(target.column())
}

/// A shot to resolve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shot {
    /// The weapon (or the crew-served equivalent's).
    pub weapon: MissileWeapon,
    /// Figures shooting (after crew equivalents).
    pub figures: u32,
    /// The target's type.
    pub target: TroopType,
    /// The tactical situation.
    pub tactical: Tactical,
    /// The red die (minus).
    pub red: u8,
    /// The black die (plus).
    pub black: u8,
}

/// The casualties of a shot.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShotResult {
    /// The T6 weapon factor.
    pub weapon_factor: i32,
    /// The tactical factors applied.
    pub tactical: Vec<Applied>,
    /// The random factor.
    pub random: i32,
    /// The total factor.
    pub total: i32,
    /// The T8 reading.
    pub reading: Reading,
}

/// Works out a shot: T6 factor + tactical factors + random factor, read in T8 against the
/// figures shooting (WRG-FIRE-07).
pub fn shoot(data: &Data, s: &Shot) -> ShotResult {
    let weapon_factor = missile_factor(data, s.weapon, s.target);
    let tactical = tactical_factors(&s.tactical, true);
    let random = shooting_factor(data, s.red, s.black);
    let t = weapon_factor + total(&tactical) + random;
    let reading = men_lost(data, t, s.figures);
    ShotResult { weapon_factor, tactical, random, total: t, reading }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::casualty::remove;
    use tabletop::geometry::Vec2;

    fn data() -> Data {
        Data::embedded().unwrap()
    }

    // Checks WRG-FIRE-07.
    #[test]
    fn wrg_fire_07_the_slingers_example() {
        let d = data();
        let s = Shot {
            weapon: MissileWeapon::Sling,
            figures: 10,
            target: TroopType::LightCavalry,
            tactical: Tactical {
                target_moved_six: true,
                target_shieldless: true,
                ..Default::default()
            },
            red: 3,
            black: 5,
        };
        let r = shoot(&d, &s);
        assert_eq!((r.weapon_factor, r.random, r.total, r.reading.men), (1, 1, 2, 13));
    }

    // Checks WRG-FIRE-03.
    #[test]
    fn wrg_fire_03_arcs_and_ranges() {
        let d = data();
        use TroopType::*;
        assert_eq!(arc_kind(LightCavalry, MissileWeapon::MountedCompositeBow), ArcKind::AllRound);
        assert_eq!(arc_kind(LightCamelry, MissileWeapon::HandHurled), ArcKind::AllRound);
        assert_eq!(arc_kind(LightCavalry, MissileWeapon::HandHurled), ArcKind::Wide);
        assert_eq!(arc_kind(LightInfantry, MissileWeapon::Sling), ArcKind::Wide);
        assert_eq!(arc_kind(LightDartEngine, MissileWeapon::LightDartEngine), ArcKind::Wide);
        assert_eq!(arc_kind(StoneThrower, MissileWeapon::StoneThrower), ArcKind::Narrow);
        assert_eq!(arc_kind(MediumInfantry, MissileWeapon::FootCompositeBow), ArcKind::Narrow);
        assert_eq!(arc_degrees(&d, ArcKind::Narrow), 22.5);
        let o = Vec2::new(0.0, 0.0);
        let north = Facing::from_bearing_degrees(0.0);
        // 12" straight ahead: in range for slings; 13" is not.
        let ahead = o + north.vector() * 12.0;
        assert!(reaches(&d, o, north, ArcKind::Narrow, 12.0, ahead).is_ok());
        assert_eq!(
            reaches(&d, o, north, ArcKind::Narrow, 12.0, o + north.vector() * 13.0),
            Err("WRG-FIRE-03")
        );
        // 30 degrees off: inside a 45-degree arc, outside a 22.5-degree one.
        let off = Facing::from_bearing_degrees(30.0).vector() * 10.0;
        assert!(reaches(&d, o, north, ArcKind::Wide, 12.0, off).is_ok());
        assert!(reaches(&d, o, north, ArcKind::Narrow, 12.0, off).is_err());
        // Behind: only all-round shooters.
        let behind = north.vector() * -5.0;
        assert!(reaches(&d, o, north, ArcKind::AllRound, 6.0, behind).is_ok());
        assert!(reaches(&d, o, north, ArcKind::Wide, 6.0, behind).is_err());
    }

    // Checks WRG-FIRE-04.
    #[test]
    fn wrg_fire_04_not_while_charging() {
        let d = data();
        let w = MissileWeapon::HandHurled;
        assert_eq!(
            may_shoot(&d, TroopType::MediumInfantry, w, ShooterMove::Charged, false),
            Err("WRG-FIRE-04")
        );
        assert!(may_shoot(&d, TroopType::MediumInfantry, w, ShooterMove::Moved, false).is_ok());
    }

    // Checks WRG-FIRE-05.
    #[test]
    fn wrg_fire_05_engines_staff_slings_crossbows_stand_still() {
        let d = data();
        for w in [
            MissileWeapon::StaffSling,
            MissileWeapon::Crossbow,
            MissileWeapon::LightDartEngine,
            MissileWeapon::StoneThrower,
        ] {
            assert_eq!(
                may_shoot(&d, TroopType::LightInfantry, w, ShooterMove::Moved, false),
                Err("WRG-FIRE-05"),
                "{w}"
            );
            assert!(may_shoot(&d, TroopType::LightInfantry, w, ShooterMove::Still, false).is_ok());
        }
        assert!(
            may_shoot(
                &d,
                TroopType::LightInfantry,
                MissileWeapon::Sling,
                ShooterMove::Moved,
                false
            )
            .is_ok()
        );
    }

    // Checks WRG-FIRE-06.
    #[test]
    fn wrg_fire_06_shooting_behind_while_retreating() {
        let d = data();
        let r = ShooterMove::Retreating;
        assert!(
            may_shoot(&d, TroopType::LightCavalry, MissileWeapon::MountedCompositeBow, r, true)
                .is_ok()
        );
        assert!(may_shoot(&d, TroopType::Chariot, MissileWeapon::HandHurled, r, true).is_ok());
        assert!(may_shoot(&d, TroopType::Elephant, MissileWeapon::FootSelfBow, r, true).is_ok());
        assert_eq!(
            may_shoot(&d, TroopType::LightInfantry, MissileWeapon::Sling, r, true),
            Err("WRG-FIRE-06")
        );
        assert_eq!(
            may_shoot(&d, TroopType::LightCavalry, MissileWeapon::HandHurled, r, true),
            Err("WRG-FIRE-06")
        );
    }

    fn oh() -> Overhead {
        Overhead {
            shooter_contour: 0,
            intervening_contour: 0,
            shooter: TroopType::MediumInfantry,
            status: Status::Regular,
            weapon: MissileWeapon::FootCompositeBow,
            intervening: TroopType::HeavyInfantry,
            units_over: 1,
            ranks: 2,
            onto_engaged_front: false,
        }
    }

    // Checks WRG-FIRE-08.
    #[test]
    fn wrg_fire_08_over_lower_troops() {
        let o = Overhead {
            shooter_contour: 1,
            shooter: TroopType::LightInfantry,
            status: Status::Barbarian,
            intervening: TroopType::Elephant,
            ..oh()
        };
        assert_eq!(overhead(&o), Ok((false, "WRG-FIRE-08")));
        let up = Overhead { intervening_contour: 1, ..oh() };
        assert_eq!(overhead(&up), Err("WRG-FIRE-08"));
    }

    // Checks WRG-FIRE-09.
    #[test]
    fn wrg_fire_09_elephants_over_cavalry_cavalry_not_over_infantry() {
        let e =
            Overhead { shooter: TroopType::Elephant, intervening: TroopType::HeavyCavalry, ..oh() };
        assert_eq!(overhead(&e), Ok((false, "WRG-FIRE-09")));
        let c = Overhead {
            shooter: TroopType::LightCavalry,
            weapon: MissileWeapon::MountedSelfBow,
            intervening: TroopType::LightInfantry,
            ..oh()
        };
        assert_eq!(overhead(&c), Err("WRG-FIRE-09"));
    }

    // Checks WRG-FIRE-10.
    #[test]
    fn wrg_fire_10_only_regular_close_order_archers_on_the_level() {
        assert_eq!(overhead(&oh()), Ok((true, "WRG-FIRE-10")));
        let barb = Overhead { status: Status::Barbarian, ..oh() };
        assert_eq!(overhead(&barb), Err("WRG-FIRE-10"));
        let light = Overhead { shooter: TroopType::LightInfantry, ..oh() };
        assert_eq!(overhead(&light), Err("WRG-FIRE-10"));
        let sling = Overhead { weapon: MissileWeapon::Sling, ..oh() };
        assert_eq!(overhead(&sling), Err("WRG-FIRE-10"));
    }

    // Checks WRG-FIRE-11.
    #[test]
    fn wrg_fire_11_never_onto_an_engaged_front_rank() {
        assert_eq!(overhead(&Overhead { onto_engaged_front: true, ..oh() }), Err("WRG-FIRE-11"));
    }

    // Checks WRG-FIRE-12.
    #[test]
    fn wrg_fire_12_over_one_friendly_unit_only() {
        assert_eq!(overhead(&Overhead { units_over: 2, ..oh() }), Err("WRG-FIRE-12"));
    }

    // Checks WRG-FIRE-13.
    #[test]
    fn wrg_fire_13_two_ranks_at_most() {
        assert_eq!(overhead(&Overhead { ranks: 3, ..oh() }), Err("WRG-FIRE-13"));
    }

    // Checks WRG-FIRE-14.
    #[test]
    fn wrg_fire_14_crew_served_equivalents() {
        let d = data();
        let e = crew_equivalent(&d, Crew::Elephant);
        assert_eq!((e.weapon, e.figures, e.range), (MissileWeapon::FootSelfBow, 3, 15.0));
        let a = crew_equivalent(&d, Crew::AsiaticChariot);
        assert_eq!((a.weapon, a.figures), (MissileWeapon::MountedCompositeBow, 1));
        let c = crew_equivalent(&d, Crew::CelticChariot);
        assert_eq!((c.weapon, c.figures), (MissileWeapon::HandHurled, 1));
        let l = crew_equivalent(&d, Crew::LightDartEngine);
        assert_eq!((l.weapon, l.figures, l.range), (MissileWeapon::Crossbow, 5, 30.0));
        let h = crew_equivalent(&d, Crew::HeavyDartEngine);
        assert_eq!((h.figures, h.range), (5, 36.0));
        let s = crew_equivalent(&d, Crew::StoneThrower);
        assert_eq!((s.figures, s.range, s.ignores_cover), (3, 36.0, true));
        assert!(!l.ignores_cover);
    }

    // Checks WRG-FIRE-15.
    #[test]
    fn wrg_fire_15_beasts_lose_whole_figures() {
        // An elephant hit for 13 men keeps its figure and carries 13; 20 take it off.
        let d = data();
        let r = remove(&d, 1, 0, 13);
        assert_eq!((r.figures_removed, r.carried), (0, 13));
        let r = remove(&d, 1, 13, 7);
        assert_eq!((r.figures_removed, r.figures_left), (1, 0));
    }

    // Checks WRG-FIRE-16.
    #[test]
    fn wrg_fire_16_engines_are_hit_as_light_infantry() {
        let d = data();
        for e in [TroopType::LightDartEngine, TroopType::HeavyDartEngine, TroopType::StoneThrower] {
            assert_eq!(missile_factor(&d, MissileWeapon::FootSelfBow, e), 1);
            assert_eq!(missile_factor(&d, MissileWeapon::Crossbow, e), 0);
        }
    }

    #[test]
    fn t6_factors_read_by_column() {
        let d = data();
        let bows = [
            (TroopType::SuperHeavyCavalry, 0),
            (TroopType::HeavyCavalry, 3),
            (TroopType::MediumCavalry, 4),
            (TroopType::HeavyInfantry, 2),
            (TroopType::MediumInfantry, 3),
            (TroopType::Elephant, 1),
            (TroopType::Chariot, 1),
        ];
        for (t, f) in bows {
            assert_eq!(missile_factor(&d, MissileWeapon::Sling, t), f, "{t}");
        }
        assert_eq!(missile_factor(&d, MissileWeapon::Crossbow, TroopType::SuperHeavyCavalry), 1);
    }
}
