//! Movement as numbers: allowances, charges and their wheels, evades, terrain and obstacles,
//! rout and pursuit speeds (WRG-MOVE, WRG-TERR, WRG-ROUT-02, WRG-PURS-01, WRG-CHAMP-02).
//! The geometry of whole units on the table builds on these.

use crate::Data;
use crate::data::{MoveRow, Slowdown};
use crate::model::TroopType;
use serde::{Deserialize, Serialize};
use tabletop::rules::Refusal;

/// The seconds in a period (WRG-SCALE-03).
pub const PERIOD_SECONDS: u32 = 30;

/// A little slack for measuring on a real table.
const EPS: f64 = 1e-9;

/// The charge bonus: charge minus normal move; the charged unit's test falls where it starts
/// (WRG-MOVE-07).
pub fn charge_bonus(row: &MoveRow) -> Option<f64> {
    row.charge.map(|c| c - row.normal)
}

/// The widest wheel of a charge, measured by the outer figure: charge minus the straight final
/// part (WRG-MOVE-06).
pub fn max_charge_wheel(row: &MoveRow) -> Option<f64> {
    Some(row.charge? - row.straight?)
}

/// Checks a charge: a wheel (outer figure's distance) before a straight run, within the charge
/// distance; the run is the straight final part (WRG-MOVE-04, -05, -06).
pub fn check_charge(data: &Data, troop: TroopType, wheel: f64, run: f64) -> Result<(), Refusal> {
    let row = data.moves(troop);
    let (Some(charge), Some(max_wheel)) = (row.charge, max_charge_wheel(row)) else {
        return Err(Refusal::new("WRG-MOVE-04", format!("{troop} cannot charge")));
    };
    if !(wheel >= 0.0 && run >= 0.0 && wheel.is_finite() && run.is_finite()) {
        return Err(Refusal::new("WRG-MOVE-04", "distances must be finite and not negative"));
    }
    if wheel > max_wheel + EPS {
        return Err(Refusal::new(
            "WRG-MOVE-06",
            format!(
                "{troop} may wheel at most {max_wheel}\" in a charge (outer figure), not {wheel}\""
            ),
        ));
    }
    if wheel + run > charge + EPS {
        return Err(Refusal::new(
            "WRG-MOVE-04",
            format!("{troop} charge at most {charge}\", not {}\"", wheel + run),
        ));
    }
    Ok(())
}

/// Checks a normal move: no figure may go farther than the allowance; wheels count the
/// figure that travels farthest (WRG-MOVE-02).
pub fn check_normal_move(allowance: f64, farthest_figure: f64) -> Result<(), Refusal> {
    if !(farthest_figure >= 0.0 && farthest_figure.is_finite()) {
        return Err(Refusal::new("WRG-MOVE-02", "a distance must be finite and not negative"));
    }
    if farthest_figure > allowance + EPS {
        return Err(Refusal::new(
            "WRG-MOVE-02",
            format!("the move needs {farthest_figure:.2}\" but the allowance is {allowance:.2}\""),
        ));
    }
    Ok(())
}

/// Checks a move straight back without turning: at most 3" (WRG-MOVE-03).
pub fn check_step_back(data: &Data, back: f64) -> Result<(), Refusal> {
    let most = data.movement.distances.step_back;
    if back > most + EPS {
        return Err(Refusal::new(
            "WRG-MOVE-03",
            format!("a unit steps back at most {most}\" without turning about, not {back}\""),
        ));
    }
    Ok(())
}

/// The distance the outer figure moves in a wheel of `degrees` with a frontage of `frontage`
/// (WRG-MOVE-14): the inner flank figure stays put.
pub fn wheel_distance(frontage: f64, degrees: f64) -> f64 {
    frontage * degrees.abs().to_radians()
}

/// The allowance left after a change of formation whose farthest figure moved `moved`
/// (WRG-MOVE-16).
pub fn after_reform(allowance: f64, moved: f64) -> f64 {
    (allowance - moved).max(0.0)
}

/// Who may evade: chariots, light cavalry (not camels) and light infantry (WRG-MOVE-08).
pub fn can_evade(data: &Data, troop: TroopType) -> bool {
    !troop.is_camel() && data.moves(troop).evade.is_some()
}

/// An evade worked out.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evade {
    /// How far the evader gets.
    pub distance: f64,
    /// Caught with its back turned (WRG-MOVE-11).
    pub caught: bool,
}

/// An evade: straight back 10", less 5" if it must go round an impassable obstacle; caught if
/// the charger's remaining distance still reaches it (WRG-MOVE-09, -10, -11).
pub fn evade(
    data: &Data,
    troop: TroopType,
    gap: f64,
    charger_remaining: f64,
    detour: bool,
) -> Option<Evade> {
    if !can_evade(data, troop) {
        return None;
    }
    let full = data.moves(troop).evade?;
    let distance = if detour { (full - data.movement.distances.detour).max(0.0) } else { full };
    Some(Evade { distance, caught: charger_remaining + EPS >= gap + distance })
}

/// Whether evaders passing through a friendly unit disorganise it: light infantry never do;
/// others disorganise close-order troops (WRG-MOVE-12).
pub fn evaders_disorganise(evader: TroopType, passed: TroopType) -> bool {
    evader != TroopType::LightInfantry && !passed.is_light()
}

/// How many figures must evade when only part of a unit is threatened: the threatened ones,
/// or the whole unit if the owner chooses (WRG-MOVE-13).
pub fn evading_figures(unit_figures: u32, threatened: u32, whole_unit: bool) -> u32 {
    if whole_unit { unit_figures } else { threatened.min(unit_figures) }
}

/// A kind of ground along a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Going {
    /// Open ground.
    Open,
    /// A road (no bonus, WRG-TERR-05).
    Road,
    /// A ford (no obstacle, WRG-TERR-03).
    Ford,
    /// Slope, wood, village off-road, bog or broken ground (WRG-TERR-04).
    Bad,
    /// The championship stream's bed (WRG-CHAMP-02).
    Stream,
}

/// Inches of allowance one inch of ground costs (WRG-TERR-04, -05, -06, WRG-CHAMP-02).
pub fn cost_per_inch(data: &Data, troop: TroopType, going: Going) -> f64 {
    let mounted = troop.pays_mounted_terrain();
    match going {
        Going::Open | Going::Road | Going::Ford => 1.0,
        Going::Bad => {
            if mounted {
                data.terrain.bad_going.mounted
            } else {
                data.terrain.bad_going.foot
            }
        }
        Going::Stream => {
            let s = &data.terrain.stream;
            1.0 / if mounted { s.mounted_speed } else { s.foot_speed }
        }
    }
}

/// The allowance of a period whose move crosses a linear obstacle: cut by three quarters for
/// mounted troops, by half for foot (WRG-TERR-01, WRG-R-31).
pub fn obstacle_allowance(data: &Data, troop: TroopType, allowance: f64) -> f64 {
    let loss = if troop.pays_mounted_terrain() {
        data.terrain.obstacle.mounted_loss
    } else {
        data.terrain.obstacle.foot_loss
    };
    allowance * (1.0 - loss)
}

/// Whether a wheeled vehicle can be man-handled over an obstacle this period: it needs at
/// least 5 figures and the whole period (WRG-TERR-02, WRG-R-44).
pub fn can_manhandle(data: &Data, troop: TroopType, figures_helping: u32) -> Result<(), Refusal> {
    if !troop.is_wheeled() {
        return Ok(());
    }
    let need = data.terrain.obstacle.manhandle_figures;
    if figures_helping < need {
        return Err(Refusal::new(
            "WRG-TERR-02",
            format!(
                "a {troop} needs {need} figures to man-handle it across, {figures_helping} are there"
            ),
        ));
    }
    Ok(())
}

/// How far along a path of pieces (length, going) an allowance reaches, when the period's
/// move does or does not cross a linear obstacle. Charges, evades, routs and pursuits pay the
/// same costs (WRG-TERR-01, -04, -07).
pub fn reach(
    data: &Data,
    troop: TroopType,
    allowance: f64,
    pieces: &[(f64, Going)],
    crosses_obstacle: bool,
) -> f64 {
    let mut left =
        if crosses_obstacle { obstacle_allowance(data, troop, allowance) } else { allowance };
    let mut gone = 0.0;
    for &(len, going) in pieces {
        let c = cost_per_inch(data, troop, going);
        if len * c <= left + EPS {
            left -= len * c;
            gone += len;
        } else {
            gone += left / c;
            break;
        }
    }
    gone
}

/// The speed of routers in their k-th period of rout: charge speed less 2" (cumulative:
/// 2" more each period) (WRG-ROUT-02, WRG-R-22).
pub fn rout_speed(data: &Data, troop: TroopType, k: u32) -> f64 {
    slowed(data, troop, k, data.movement.distances.rout_slowdown)
}

/// The speed of pursuers in their k-th period of pursuit: charge speed less 3" (cumulative)
/// (WRG-PURS-01, WRG-R-22).
pub fn pursuit_speed(data: &Data, troop: TroopType, k: u32) -> f64 {
    slowed(data, troop, k, data.movement.distances.pursuit_slowdown)
}

fn slowed(data: &Data, troop: TroopType, k: u32, per: f64) -> f64 {
    let row = data.moves(troop);
    let base = row.charge.unwrap_or(row.normal);
    let cut = match data.movement.rout.slowdown {
        Slowdown::Cumulative => per * k.max(1) as f64,
        Slowdown::Flat => per,
    };
    (base - cut).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data() -> Data {
        Data::embedded().unwrap()
    }

    // Checks WRG-MOVE-07.
    #[test]
    fn wrg_move_07_charge_bonus() {
        let d = data();
        assert_eq!(charge_bonus(d.moves(TroopType::HeavyCavalry)), Some(10.0));
        assert_eq!(charge_bonus(d.moves(TroopType::MediumInfantry)), Some(2.0));
        assert_eq!(charge_bonus(d.moves(TroopType::StoneThrower)), None);
    }

    // Checks WRG-MOVE-06.
    #[test]
    fn wrg_move_06_wheel_before_the_straight_part() {
        let d = data();
        let w = |t| max_charge_wheel(d.moves(t)).unwrap();
        assert_eq!(w(TroopType::SuperHeavyCavalry), 1.0);
        assert_eq!(w(TroopType::HeavyCavalry), 3.0);
        assert_eq!(w(TroopType::MediumCavalry), 5.0);
        assert_eq!(w(TroopType::LightCavalry), 9.0);
        assert_eq!(w(TroopType::HeavyInfantry), 3.5);
        assert_eq!(w(TroopType::MediumInfantry), 5.5);
        assert_eq!(w(TroopType::LightInfantry), 7.5);
        assert_eq!(w(TroopType::Elephant), 3.5);
        assert!(check_charge(&d, TroopType::HeavyCavalry, 3.0, 15.0).is_ok());
        let e = check_charge(&d, TroopType::HeavyCavalry, 3.5, 10.0).unwrap_err();
        assert_eq!(e.rule.as_str(), "WRG-MOVE-06");
    }

    // Checks WRG-MOVE-05.
    #[test]
    fn wrg_move_05_straight_final_part() {
        let d = data();
        assert_eq!(d.moves(TroopType::MediumCavalry).straight, Some(15.0));
        assert_eq!(d.moves(TroopType::LightInfantry).straight, Some(2.5));
        // Chariots take the cavalry gallop, elephants the infantry run (WRG-R-09).
        assert_eq!(d.moves(TroopType::Chariot).straight, Some(15.0));
        assert_eq!(d.moves(TroopType::Elephant).straight, Some(2.5));
    }

    // Checks WRG-MOVE-04.
    #[test]
    fn wrg_move_04_charge_distance() {
        let d = data();
        assert!(check_charge(&d, TroopType::MediumCavalry, 0.0, 20.0).is_ok());
        let e = check_charge(&d, TroopType::MediumCavalry, 2.0, 18.5).unwrap_err();
        assert_eq!(e.rule.as_str(), "WRG-MOVE-04");
        assert_eq!(
            check_charge(&d, TroopType::LightDartEngine, 0.0, 1.0).unwrap_err().rule.as_str(),
            "WRG-MOVE-04"
        );
    }

    // Checks WRG-MOVE-02.
    #[test]
    fn wrg_move_02_no_figure_beyond_the_allowance() {
        assert!(check_normal_move(6.0, 6.0).is_ok());
        let e = check_normal_move(6.0, 6.5).unwrap_err();
        assert_eq!(e.rule.as_str(), "WRG-MOVE-02");
        // A wheel counts the outer figure: 90 degrees with a 4" front is 6.28".
        assert!(check_normal_move(6.0, wheel_distance(4.0, 90.0)).is_err());
    }

    // Checks WRG-MOVE-03.
    #[test]
    fn wrg_move_03_three_inches_back() {
        let d = data();
        assert!(check_step_back(&d, 3.0).is_ok());
        assert_eq!(check_step_back(&d, 3.5).unwrap_err().rule.as_str(), "WRG-MOVE-03");
    }

    // Checks WRG-MOVE-14.
    #[test]
    fn wrg_move_14_outer_figure_swings() {
        assert!((wheel_distance(2.0, 90.0) - std::f64::consts::PI).abs() < 1e-12);
        assert_eq!(wheel_distance(3.0, 0.0), 0.0);
    }

    // Checks WRG-MOVE-16.
    #[test]
    fn wrg_move_16_reforming_costs_the_farthest_figure() {
        assert_eq!(after_reform(6.0, 1.5), 4.5);
        assert_eq!(after_reform(4.0, 5.0), 0.0);
    }

    // Checks WRG-MOVE-08.
    #[test]
    fn wrg_move_08_who_may_evade() {
        let d = data();
        assert!(can_evade(&d, TroopType::LightCavalry));
        assert!(can_evade(&d, TroopType::LightInfantry));
        assert!(can_evade(&d, TroopType::Chariot));
        assert!(!can_evade(&d, TroopType::LightCamelry));
        assert!(!can_evade(&d, TroopType::MediumCavalry));
        assert!(!can_evade(&d, TroopType::HeavyInfantry));
    }

    // Checks WRG-MOVE-09.
    #[test]
    fn wrg_move_09_ten_inches_straight_back() {
        let d = data();
        let e = evade(&d, TroopType::LightInfantry, 4.0, 2.0, false).unwrap();
        assert_eq!(e.distance, 10.0);
        assert!(!e.caught);
    }

    // Checks WRG-MOVE-10.
    #[test]
    fn wrg_move_10_going_round_costs_five() {
        let d = data();
        assert_eq!(evade(&d, TroopType::LightCavalry, 4.0, 0.0, true).unwrap().distance, 5.0);
    }

    // Checks WRG-MOVE-11.
    #[test]
    fn wrg_move_11_caught_within_the_remaining_charge() {
        let d = data();
        // Medium cavalry with 14" of charge left, light infantry 3" away: 3 + 10 = 13 < 14.
        assert!(evade(&d, TroopType::LightInfantry, 3.0, 14.0, false).unwrap().caught);
        assert!(!evade(&d, TroopType::LightInfantry, 5.0, 14.0, false).unwrap().caught);
    }

    // Checks WRG-MOVE-12.
    #[test]
    fn wrg_move_12_passing_through() {
        assert!(!evaders_disorganise(TroopType::LightInfantry, TroopType::HeavyInfantry));
        assert!(evaders_disorganise(TroopType::LightCavalry, TroopType::HeavyInfantry));
        assert!(evaders_disorganise(TroopType::Chariot, TroopType::MediumCavalry));
        assert!(!evaders_disorganise(TroopType::LightCavalry, TroopType::LightInfantry));
    }

    // Checks WRG-MOVE-13.
    #[test]
    fn wrg_move_13_only_the_threatened_figures() {
        assert_eq!(evading_figures(12, 4, false), 4);
        assert_eq!(evading_figures(12, 4, true), 12);
    }

    // Checks WRG-TERR-01.
    #[test]
    fn wrg_terr_01_obstacles_cut_the_allowance() {
        let d = data();
        assert_eq!(obstacle_allowance(&d, TroopType::MediumCavalry, 8.0), 2.0);
        assert_eq!(obstacle_allowance(&d, TroopType::MediumInfantry, 6.0), 3.0);
        assert_eq!(reach(&d, TroopType::MediumInfantry, 6.0, &[(10.0, Going::Open)], true), 3.0);
    }

    // Checks WRG-TERR-02.
    #[test]
    fn wrg_terr_02_wheeled_vehicles_man_handled() {
        let d = data();
        assert!(can_manhandle(&d, TroopType::Chariot, 5).is_ok());
        assert_eq!(
            can_manhandle(&d, TroopType::Chariot, 4).unwrap_err().rule.as_str(),
            "WRG-TERR-02"
        );
        assert!(can_manhandle(&d, TroopType::MediumCavalry, 0).is_ok());
    }

    // Checks WRG-TERR-03.
    #[test]
    fn wrg_terr_03_fords_are_not_obstacles() {
        let d = data();
        assert_eq!(cost_per_inch(&d, TroopType::HeavyCavalry, Going::Ford), 1.0);
    }

    // Checks WRG-TERR-04.
    #[test]
    fn wrg_terr_04_bad_going_four_or_two_per_inch() {
        let d = data();
        assert_eq!(cost_per_inch(&d, TroopType::HeavyCavalry, Going::Bad), 4.0);
        assert_eq!(cost_per_inch(&d, TroopType::Chariot, Going::Bad), 4.0);
        assert_eq!(cost_per_inch(&d, TroopType::HeavyInfantry, Going::Bad), 2.0);
        // 8" of cavalry allowance: 1" of open then 7" of allowance in a wood = 1.75".
        assert_eq!(
            reach(
                &d,
                TroopType::MediumCavalry,
                8.0,
                &[(1.0, Going::Open), (10.0, Going::Bad)],
                false
            ),
            2.75
        );
    }

    // Checks WRG-TERR-05.
    #[test]
    fn wrg_terr_05_roads_give_no_bonus() {
        let d = data();
        assert_eq!(reach(&d, TroopType::MediumInfantry, 6.0, &[(20.0, Going::Road)], false), 6.0);
    }

    // Checks WRG-TERR-06.
    #[test]
    fn wrg_terr_06_engines_pay_as_foot_or_mounted() {
        let d = data();
        assert_eq!(cost_per_inch(&d, TroopType::LightDartEngine, Going::Bad), 2.0);
        assert_eq!(cost_per_inch(&d, TroopType::LightDartEngineMule, Going::Bad), 4.0);
    }

    // Checks WRG-TERR-07.
    #[test]
    fn wrg_terr_07_charges_and_routs_pay_terrain_too() {
        let d = data();
        let charge = d.moves(TroopType::HeavyCavalry).charge.unwrap();
        assert_eq!(
            reach(
                &d,
                TroopType::HeavyCavalry,
                charge,
                &[(2.0, Going::Open), (10.0, Going::Bad)],
                false
            ),
            6.0
        );
        let rout = rout_speed(&d, TroopType::HeavyInfantry, 1);
        assert_eq!(reach(&d, TroopType::HeavyInfantry, rout, &[(10.0, Going::Bad)], false), 2.0);
    }

    // Checks WRG-CHAMP-02.
    #[test]
    fn wrg_champ_02_stream_takes_medium_cavalry_three_periods() {
        let d = data();
        let per_period = reach(&d, TroopType::MediumCavalry, 8.0, &[(6.0, Going::Stream)], false);
        assert_eq!(per_period, 2.0);
        assert_eq!((d.terrain.stream.width / per_period).ceil(), 3.0);
        assert_eq!(reach(&d, TroopType::MediumInfantry, 6.0, &[(6.0, Going::Stream)], false), 3.0);
    }

    // Checks WRG-ROUT-02.
    #[test]
    fn wrg_rout_02_routers_slow_by_two_each_period() {
        let d = data();
        assert_eq!(rout_speed(&d, TroopType::HeavyInfantry, 1), 4.0);
        assert_eq!(rout_speed(&d, TroopType::HeavyInfantry, 2), 2.0);
        assert_eq!(rout_speed(&d, TroopType::HeavyInfantry, 4), 0.0);
        assert_eq!(rout_speed(&d, TroopType::LightCavalry, 3), 18.0);
        let flat = d.with_variant("rout_slowdown", "flat").unwrap();
        assert_eq!(rout_speed(&flat, TroopType::LightCavalry, 3), 22.0);
    }

    // Checks WRG-PURS-01.
    #[test]
    fn wrg_purs_01_pursuers_slow_by_three_each_period() {
        let d = data();
        assert_eq!(pursuit_speed(&d, TroopType::MediumCavalry, 1), 17.0);
        assert_eq!(pursuit_speed(&d, TroopType::MediumCavalry, 2), 14.0);
        assert_eq!(pursuit_speed(&d, TroopType::MediumInfantry, 3), 0.0);
    }

    // Checks WRG-SCALE-03.
    #[test]
    fn wrg_scale_03_a_period_is_thirty_seconds() {
        assert_eq!(PERIOD_SECONDS, 30);
    }
}
