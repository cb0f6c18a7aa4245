//! After hand-to-hand: who breaks, falls back or is pushed back (WRG-AFTER); rout (WRG-ROUT),
//! pursuit (WRG-PURS), breaking off (WRG-BRK), troops leaving the field (WRG-LEAVE), the risk
//! to the General (WRG-GEN).

use crate::Data;
use crate::combat::Tactical;
use crate::model::{Status, TroopType};
use serde::{Deserialize, Serialize};
use tabletop::dice::{DiceSource, Roll, roll};
use tabletop::rules::RuleId;

/// One side of a fight as the after-combat rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Side {
    /// Its type.
    pub troop: TroopType,
    /// Figures at the start of the round (WRG-R-33).
    pub figures: u32,
    /// Men it lost in this period's fighting.
    pub men_lost: u32,
    /// Push-backs in a row before this period.
    #[serde(default)]
    pub pushed_back_before: u32,
}

/// What the fight's pair comes to (WRG-AFTER-01 .. -06).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "verdict")]
pub enum Verdict {
    /// The fight goes on.
    FightOn,
    /// Side `a` (0) or `b` (1) breaks.
    Breaks {
        /// 0 for the first side, 1 for the second.
        side: u8,
        /// The rule.
        rule: RuleIdStr,
    },
    /// The mounted side falls back 10" next period, repulsed (WRG-AFTER-02).
    MountedFallBack {
        /// 0 or 1.
        side: u8,
        /// Inches.
        distance: f64,
    },
    /// Both fall back 5" next period (WRG-AFTER-04).
    BothFallBack {
        /// Inches.
        distance: f64,
    },
    /// One side is pushed back and the other follows up (WRG-AFTER-05).
    PushedBack {
        /// 0 or 1.
        side: u8,
        /// Inches.
        distance: f64,
    },
}

/// A rule ID held in a verdict.
pub type RuleIdStr = &'static str;

/// What kind of fight a pair is (WRG-R-34).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Mounted troops against infantry.
    MountedAgainstInfantry,
    /// Infantry and elephants only.
    FootAndElephants,
    /// Anything else (no infantry).
    Other,
}

/// The kind of a fight (WRG-R-34).
pub fn kind(a: TroopType, b: TroopType) -> Kind {
    let foot = |t: TroopType| t.is_infantry() || t.is_engine();
    if (a.is_mounted() && foot(b)) || (b.is_mounted() && foot(a)) {
        Kind::MountedAgainstInfantry
    } else if [a, b].iter().all(|t| foot(*t) || *t == TroopType::Elephant) {
        Kind::FootAndElephants
    } else {
        Kind::Other
    }
}

/// Judges one pair after a period's fighting; `periods` is how many periods this fight has
/// now lasted (WRG-AFTER-01 .. -06).
pub fn judge(data: &Data, a: &Side, b: &Side, periods: u32) -> Verdict {
    let at_least_one_each = |s: &Side| s.men_lost >= s.figures;
    let d = &data.movement.distances;
    match kind(a.troop, b.troop) {
        Kind::MountedAgainstInfantry => {
            let (foot, mounted, fi) = if a.troop.is_mounted() { (b, a, 1) } else { (a, b, 0) };
            if foot.men_lost > mounted.men_lost && at_least_one_each(foot) {
                Verdict::Breaks { side: fi, rule: "WRG-AFTER-01" }
            } else {
                Verdict::MountedFallBack { side: 1 - fi, distance: d.mounted_fall_back }
            }
        }
        Kind::Other => {
            for (i, (me, them)) in [(a, b), (b, a)].into_iter().enumerate() {
                if me.men_lost >= them.men_lost.saturating_mul(2)
                    && me.men_lost > 0
                    && at_least_one_each(me)
                {
                    return Verdict::Breaks { side: i as u8, rule: "WRG-AFTER-03" };
                }
            }
            if periods >= 3 {
                Verdict::BothFallBack { distance: d.mutual_fall_back }
            } else {
                Verdict::FightOn
            }
        }
        Kind::FootAndElephants => {
            for (i, (me, them)) in [(a, b), (b, a)].into_iter().enumerate() {
                if me.men_lost > them.men_lost && at_least_one_each(me) {
                    if me.pushed_back_before.saturating_add(1) >= 3 {
                        return Verdict::Breaks { side: i as u8, rule: "WRG-AFTER-06" };
                    }
                    return Verdict::PushedBack { side: i as u8, distance: d.push_back };
                }
            }
            Verdict::FightOn
        }
    }
}

/// A unit that breaks but cannot run: half (rounded up) surrenders, the rest break out and
/// are pursued (WRG-AFTER-07, WRG-R-36). Returns (surrendering, breaking out).
pub fn surrender_split(figures: u32) -> (u32, u32) {
    let s = figures.div_ceil(2);
    (s, figures - s)
}

/// The General surrenders with a trapped unit if his figure has taken 10 or more losses
/// (WRG-AFTER-08).
pub fn general_surrenders(general_losses: f64) -> bool {
    general_losses >= 10.0
}

/// Why a rout ends (WRG-ROUT-03).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RoutState {
    /// Its General met it.
    pub met_by_general: bool,
    /// Fresh friendly troops passed it or were passed by it.
    pub passed_fresh_troops: bool,
    /// No pursuer is in contact nor can reach it next period.
    pub outdistanced: bool,
}

/// Whether routers rally; a rallied unit has no order and waits (WRG-ROUT-03, WRG-ROUT-08).
pub fn rallies(s: RoutState) -> bool {
    s.met_by_general || s.passed_fresh_troops || s.outdistanced
}

/// Whether a rout has outdistanced pursuit: no pursuer in contact and none can reach it next
/// period (WRG-R-23).
pub fn outdistanced(gap: f64, pursuer_next_speed: f64, in_contact: bool) -> bool {
    !in_contact && gap > pursuer_next_speed
}

/// What routers do at friendly troops in their path (WRG-ROUT-05, -06, -07).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "action")]
pub enum Swerve {
    /// Swerve toward a gap, losing 5".
    ToGap {
        /// Move left.
        remaining: f64,
    },
    /// Burst through: the friends are disorganised unless the routers are light infantry,
    /// and barbarians burst through join the rout.
    BurstThrough {
        /// The friends are disorganised.
        disorganised: bool,
        /// The friends break too.
        swept_away: bool,
    },
}

/// Routers meeting friends: a gap at least 3 figures wide within 5" lets them swerve (-5");
/// otherwise they burst through (WRG-ROUT-05, -06, -07).
pub fn meet_friends(
    data: &Data,
    routers: TroopType,
    router_frontage: f64,
    remaining: f64,
    gap_width: Option<f64>,
    gap_distance: f64,
    friends_status: Status,
) -> Swerve {
    let d = &data.movement.distances;
    let wide = gap_width.is_some_and(|w| w + 1e-9 >= d.rout_gap_figures as f64 * router_frontage);
    if wide && gap_distance <= d.rout_gap_search + 1e-9 {
        return Swerve::ToGap { remaining: (remaining - d.detour).max(0.0) };
    }
    let light = routers == TroopType::LightInfantry;
    Swerve::BurstThrough {
        disorganised: !light,
        swept_away: !light && friends_status == Status::Barbarian,
    }
}

/// The way broken troops run: backs to the enemy, straight back square to their old front;
/// returns the new facing and where `distance` takes them (WRG-ROUT-01).
pub fn rout_move(
    at: tabletop::geometry::Point,
    facing: tabletop::geometry::Facing,
    distance: f64,
) -> (tabletop::geometry::Facing, tabletop::geometry::Point) {
    let back = facing.reversed();
    (back, at + back.vector() * distance)
}

/// The way broken troops face to run with their backs to the enemy at `enemy`: straight back,
/// square to their old front, on the side away from it — turned about when it is in front,
/// straight on when it is behind, sideways when it is on a flank (WRG-ROUT-01, WRG-R-12).
pub fn backs_to(
    facing: tabletop::geometry::Facing,
    at: tabletop::geometry::Point,
    enemy: tabletop::geometry::Point,
) -> tabletop::geometry::Facing {
    use tabletop::geometry::{Facing, Sector, direction_sector};
    let side = |v: tabletop::geometry::Vec2| Facing::from_vector(v).unwrap_or(facing);
    match direction_sector(facing, enemy - at) {
        Sector::Front => facing.reversed(),
        Sector::Rear => facing,
        Sector::Left => side(facing.right()),
        Sector::Right => side(-facing.right()),
    }
}

/// How far around the routers the enemy and their friends count when they choose which way to
/// run, inches (the reaction tests' "within", WRG-RDEF-01).
const ROUT_LOOK: f64 = 15.0;

/// The way a unit breaking now runs (WRG-ROUT-01, WRG-R-12): square to its old front (straight
/// back, straight on or to a flank), with its back to the enemy, which is the enemy near it as
/// a whole rather than whichever unit is nearest. Each enemy within 15" that is not running
/// counts once, the one it broke from (if any) twice, by direction alone. It runs straight
/// back from the enemy it broke from (or the nearest) unless another way turns its back on
/// them better; then, among the ways about as good as the best, toward friends within 15".
/// So troops struck from behind by horse that have got round them do not run on into the
/// enemy's main body, and troops caught between two enemies run out to a side.
pub fn rout_heading(
    state: &crate::state::State,
    id: u16,
    from: Option<u16>,
) -> tabletop::geometry::Facing {
    use tabletop::geometry::Facing;
    let Some(u) = state.units.get(id as usize) else { return Facing::NORTH };
    let foe_at = from.and_then(|e| state.units.get(e as usize)).map(|e| e.at).or_else(|| {
        state
            .units
            .iter()
            .filter(|e| e.side != u.side && e.on_table() && e.rout.is_none())
            .min_by(|a, b| {
                a.at.distance(u.at).total_cmp(&b.at.distance(u.at)).then(a.id.cmp(&b.id))
            })
            .map(|e| e.at)
    });
    let plain = match foe_at {
        Some(at) => backs_to(u.facing, u.at, at),
        None => u.facing.reversed(),
    };
    let mut foes = tabletop::geometry::Vec2::new(0.0, 0.0);
    let mut friends = tabletop::geometry::Vec2::new(0.0, 0.0);
    for o in state.units.iter().filter(|o| o.id != id && o.on_table() && o.rout.is_none()) {
        let d = o.at - u.at;
        let len = d.length_squared().sqrt();
        if !(1e-9..=ROUT_LOOK).contains(&len) {
            continue;
        }
        if o.side == u.side {
            friends += d * (1.0 / len);
        } else {
            let weight = if Some(o.id) == from { 2.0 } else { 1.0 };
            foes -= d * (weight / len);
        }
    }
    let f = u.facing;
    let side = |v: tabletop::geometry::Vec2| Facing::from_vector(v).unwrap_or(f);
    let ways = [f.reversed(), f, side(f.right()), side(-f.right())];
    let away = |w: &Facing| w.vector().dot(foes);
    let best = ways.iter().map(away).fold(away(&plain), f64::max);
    if away(&plain) >= best - 1e-9 {
        return plain;
    }
    // Ways about as far from the enemy as the best (within a tenth of one unit's count) are
    // told apart by the friends they run toward.
    let close = |w: &Facing| away(w) >= best - 0.1;
    let toward = |w: &Facing| w.vector().dot(friends);
    let mut ways = ways.into_iter().filter(close);
    let first = ways.next().unwrap_or(plain);
    ways.fold(first, |b, w| if toward(&w) > toward(&b) + 1e-9 { w } else { b })
}

/// Routers swerving round an impassable obstacle lose 5" (WRG-ROUT-04).
pub fn swerve_round_obstacle(data: &Data, remaining: f64) -> f64 {
    (remaining - data.movement.distances.detour).max(0.0)
}

/// How many free blows pursuers strike in a period: one as the enemy turns (the period it
/// breaks), one at the end of any period they are still in contact (WRG-PURS-02, WRG-R-25).
pub fn pursuit_blows(break_period: bool, in_contact_at_end: bool) -> u32 {
    break_period as u32 + in_contact_at_end as u32
}

/// The tactical situation of pursuers striking routers: following up (+1) against backs
/// that cannot use shields (+1) (WRG-PURS-05).
pub fn pursuit_tactical() -> Tactical {
    Tactical { charging: true, target_shieldless: true, ..Default::default() }
}

/// Whether pursuit ends: the routers rallied or the pursuers reached an obstacle
/// (WRG-PURS-03).
pub fn pursuit_ends(routers_rallied: bool, obstacle_reached: bool) -> bool {
    routers_rallied || obstacle_reached
}

/// Where pursuers rally: 10" back from the farthest point they reached, measured along their
/// line of pursuit (WRG-PURS-04). Returns the distance from where the pursuit began.
pub fn pursuer_rally_point(data: &Data, farthest: f64) -> f64 {
    (farthest - data.movement.distances.pursuer_fall_back).max(0.0)
}

/// A unit breaking off: the enemy strikes once without reply as it turns, then it moves at
/// rout speed; if the enemy can still reach it, it is routed (WRG-BRK-01 .. -03, WRG-R-26).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BreakOff {
    /// Free blows the enemy strikes now.
    pub free_blows: u32,
    /// The unit counts as routed.
    pub routed: bool,
}

/// Works out a break-off: `gap` after its move, `enemy_reach` the farthest the enemy can go.
pub fn break_off(in_close_combat: bool, gap: f64, enemy_reach: f64) -> Option<BreakOff> {
    in_close_combat.then_some(BreakOff { free_blows: 1, routed: enemy_reach + 1e-9 >= gap })
}

/// How a unit off the table is doing (WRG-LEAVE-01 .. -05).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum OffTable {
    /// Still throwing: how many throws made.
    Throwing {
        /// Throws made.
        throws: u32,
    },
    /// Returning after this many more periods (visible in the distance).
    Delayed {
        /// Periods to wait.
        periods: u32,
    },
    /// Back on the table where it left.
    Returned,
    /// Gone for good.
    Gone,
}

/// Why a unit left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Left {
    /// Any ordinary reason (moved off, retreated off, routed off unpursued).
    Ordinary,
    /// Pursued off the table (WRG-PURS-06).
    Pursued,
    /// Sent off by the below-half test (WRG-RT-09).
    BelowHalf,
}

/// The state of a unit that has just left.
pub fn left_table(why: Left) -> OffTable {
    match why {
        Left::Ordinary => OffTable::Throwing { throws: 0 },
        Left::Pursued | Left::BelowHalf => OffTable::Gone,
    }
}

/// One period's throw for a unit off the table, at the start of the period: a 4 brings it back
/// at once; a 3 throws again for the delay; with no 3 or 4 in 3 throws it never returns
/// (WRG-LEAVE-01 .. -04). Delayed units count down.
pub fn return_throw(
    data: &Data,
    status: Status,
    state: OffTable,
    dice: &mut dyn DiceSource,
) -> (OffTable, Vec<Roll>) {
    let r = &data.dice.returning;
    let die = match status {
        Status::Regular => r.regular.die(),
        Status::Barbarian => r.barbarian.die(),
    };
    match state {
        OffTable::Throwing { throws } => {
            let first = roll(dice, die, "return to the table", RuleId::new("WRG-LEAVE-01"));
            if first.value == r.at_once {
                return (OffTable::Returned, vec![first]);
            }
            if first.value == r.delayed {
                let delay = roll(dice, die, "periods before return", RuleId::new("WRG-LEAVE-03"));
                return (OffTable::Delayed { periods: delay.value as u32 }, vec![first, delay]);
            }
            let next = if throws + 1 >= r.periods {
                OffTable::Gone
            } else {
                OffTable::Throwing { throws: throws + 1 }
            };
            (next, vec![first])
        }
        OffTable::Delayed { periods } if periods <= 1 => (OffTable::Returned, vec![]),
        OffTable::Delayed { periods } => (OffTable::Delayed { periods: periods - 1 }, vec![]),
        other => (other, vec![]),
    }
}

/// The General's share of his unit's losses (WRG-GEN-01, WRG-R-37): each time the unit
/// loses `men`, his figure takes men / figures (figures counting his own). He falls when his
/// share reaches a whole figure's men, the last of his 20 (WRG-GEN-02).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GeneralRisk {
    /// Men of his figure lost so far.
    pub losses: f64,
}

impl GeneralRisk {
    /// Takes his share of a loss; true when he has fallen.
    pub fn share(&mut self, data: &Data, men: u32, figures_with_him: u32) -> bool {
        if figures_with_him > 0 {
            self.losses += men as f64 / figures_with_him as f64;
        }
        self.fallen(data)
    }

    /// Whether he has fallen.
    pub fn fallen(&self, data: &Data) -> bool {
        self.losses + 1e-9 >= data.casualties.men_per_figure as f64
    }
}

/// Whether enemy may shoot at the General's figure alone: only when it is more than 5" from
/// every unit of his (WRG-GEN-03, WRG-R-38).
pub fn general_exposed(data: &Data, distances_to_own_units: &[f64]) -> bool {
    let d = data.movement.distances.general_exposed_beyond;
    distances_to_own_units.iter().all(|x| *x > d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabletop::dice::ScriptedDice;

    fn data() -> Data {
        Data::embedded().unwrap()
    }

    fn side(troop: TroopType, figures: u32, men_lost: u32) -> Side {
        Side { troop, figures, men_lost, pushed_back_before: 0 }
    }

    // Checks WRG-AFTER-01.
    #[test]
    fn wrg_after_01_infantry_break_against_mounted() {
        let d = data();
        let inf = side(TroopType::MediumInfantry, 10, 12);
        let cav = side(TroopType::HeavyCavalry, 6, 5);
        assert_eq!(judge(&d, &inf, &cav, 1), Verdict::Breaks { side: 0, rule: "WRG-AFTER-01" });
        // Not one man per figure: they hold.
        let inf = side(TroopType::MediumInfantry, 10, 9);
        assert!(matches!(judge(&d, &cav, &inf, 1), Verdict::MountedFallBack { side: 0, .. }));
    }

    // Checks WRG-AFTER-02.
    #[test]
    fn wrg_after_02_mounted_fall_back_ten() {
        let d = data();
        let inf = side(TroopType::HeavyInfantry, 10, 12);
        let ch = side(TroopType::Chariot, 4, 20);
        assert_eq!(judge(&d, &inf, &ch, 1), Verdict::MountedFallBack { side: 1, distance: 10.0 });
        let camels = side(TroopType::MediumCamelry, 6, 20);
        assert_eq!(
            judge(&d, &camels, &inf, 1),
            Verdict::MountedFallBack { side: 0, distance: 10.0 }
        );
    }

    // Checks WRG-AFTER-03.
    #[test]
    fn wrg_after_03_twice_the_losses_and_one_per_figure() {
        let d = data();
        let a = side(TroopType::HeavyCavalry, 8, 16);
        let b = side(TroopType::LightCavalry, 6, 8);
        assert_eq!(judge(&d, &a, &b, 1), Verdict::Breaks { side: 0, rule: "WRG-AFTER-03" });
        let a = side(TroopType::HeavyCavalry, 8, 15);
        assert_eq!(judge(&d, &a, &b, 1), Verdict::FightOn);
        // Elephants against cavalry are judged the same way.
        let el = side(TroopType::Elephant, 2, 2);
        let hc = side(TroopType::HeavyCavalry, 6, 12);
        assert_eq!(judge(&d, &el, &hc, 1), Verdict::Breaks { side: 1, rule: "WRG-AFTER-03" });
    }

    // Checks WRG-AFTER-04.
    #[test]
    fn wrg_after_04_three_periods_undecided_both_fall_back() {
        let d = data();
        let a = side(TroopType::HeavyCavalry, 8, 5);
        let b = side(TroopType::MediumCavalry, 8, 6);
        assert_eq!(judge(&d, &a, &b, 2), Verdict::FightOn);
        assert_eq!(judge(&d, &a, &b, 3), Verdict::BothFallBack { distance: 5.0 });
    }

    // Checks WRG-AFTER-05.
    #[test]
    fn wrg_after_05_infantry_pushed_back_three() {
        let d = data();
        let a = side(TroopType::MediumInfantry, 10, 13);
        let b = side(TroopType::HeavyInfantry, 10, 12);
        assert_eq!(judge(&d, &a, &b, 1), Verdict::PushedBack { side: 0, distance: 3.0 });
        let el = side(TroopType::Elephant, 2, 1);
        let li = side(TroopType::LightInfantry, 6, 9);
        assert_eq!(judge(&d, &el, &li, 1), Verdict::PushedBack { side: 1, distance: 3.0 });
        assert_eq!(kind(TroopType::Elephant, TroopType::HeavyInfantry), Kind::FootAndElephants);
        let even = side(TroopType::HeavyInfantry, 10, 13);
        assert_eq!(judge(&d, &a, &even, 1), Verdict::FightOn);
    }

    // Checks WRG-AFTER-06.
    #[test]
    fn wrg_after_06_third_push_back_in_a_row_breaks() {
        let d = data();
        let a = Side { pushed_back_before: 2, ..side(TroopType::MediumInfantry, 10, 13) };
        let b = side(TroopType::HeavyInfantry, 10, 4);
        assert_eq!(judge(&d, &a, &b, 3), Verdict::Breaks { side: 0, rule: "WRG-AFTER-06" });
    }

    // Checks WRG-MELEE-07.
    #[test]
    fn wrg_melee_07_units_fight_on_until_something_gives() {
        let d = data();
        // Evenly matched foot: nobody pushed back, the fight goes on into the next period.
        let a = side(TroopType::MediumInfantry, 10, 8);
        let b = side(TroopType::MediumInfantry, 10, 8);
        assert_eq!(judge(&d, &a, &b, 1), Verdict::FightOn);
        assert_eq!(judge(&d, &a, &b, 5), Verdict::FightOn);
        // Cavalry against cavalry fight on for two periods, then fall back.
        let c = side(TroopType::HeavyCavalry, 8, 4);
        let e = side(TroopType::HeavyCavalry, 8, 5);
        assert_eq!(judge(&d, &c, &e, 2), Verdict::FightOn);
        assert!(matches!(judge(&d, &c, &e, 3), Verdict::BothFallBack { .. }));
    }

    // Checks WRG-AFTER-07.
    #[test]
    fn wrg_after_07_half_surrender() {
        assert_eq!(surrender_split(9), (5, 4));
        assert_eq!(surrender_split(10), (5, 5));
        assert_eq!(surrender_split(1), (1, 0));
    }

    // Checks WRG-AFTER-08.
    #[test]
    fn wrg_after_08_general_surrenders_after_ten_losses() {
        assert!(general_surrenders(10.0));
        assert!(!general_surrenders(9.5));
    }

    // Checks WRG-ROUT-03.
    #[test]
    fn wrg_rout_03_rally_conditions() {
        assert!(!rallies(RoutState::default()));
        assert!(rallies(RoutState { met_by_general: true, ..Default::default() }));
        assert!(rallies(RoutState { passed_fresh_troops: true, ..Default::default() }));
        assert!(rallies(RoutState { outdistanced: true, ..Default::default() }));
        assert!(outdistanced(15.0, 14.0, false));
        assert!(!outdistanced(15.0, 15.0, false));
        assert!(!outdistanced(30.0, 0.0, true));
    }

    // Checks WRG-ROUT-04.
    // Checks WRG-ROUT-01.
    #[test]
    fn wrg_rout_01_backs_to_the_enemy_straight_back() {
        use tabletop::geometry::{Facing, Vec2};
        let (f, p) = rout_move(Vec2::new(10.0, 10.0), Facing::from_bearing_degrees(0.0), 4.0);
        assert!((f.bearing_degrees() - 180.0).abs() < 1e-9);
        assert!((p.x - 10.0).abs() < 1e-9);
        assert!((p.y - 10.0 + 4.0 * Facing::from_bearing_degrees(0.0).vector().y).abs() < 1e-9);
    }

    // Checks WRG-ROUT-04.
    #[test]
    fn wrg_rout_04_obstacle_costs_five() {
        let d = data();
        assert_eq!(swerve_round_obstacle(&d, 12.0), 7.0);
        assert_eq!(swerve_round_obstacle(&d, 3.0), 0.0);
    }

    // Checks WRG-ROUT-05.
    #[test]
    fn wrg_rout_05_gap_three_figures_within_five() {
        let d = data();
        let s =
            meet_friends(&d, TroopType::MediumInfantry, 0.5, 6.0, Some(1.5), 4.0, Status::Regular);
        assert_eq!(s, Swerve::ToGap { remaining: 1.0 });
        let narrow =
            meet_friends(&d, TroopType::MediumInfantry, 0.5, 6.0, Some(1.0), 4.0, Status::Regular);
        assert!(matches!(narrow, Swerve::BurstThrough { .. }));
        let far =
            meet_friends(&d, TroopType::MediumInfantry, 0.5, 6.0, Some(3.0), 6.0, Status::Regular);
        assert!(matches!(far, Swerve::BurstThrough { .. }));
    }

    // Checks WRG-ROUT-06.
    #[test]
    fn wrg_rout_06_bursting_through_disorganises_unless_light_infantry() {
        let d = data();
        assert_eq!(
            meet_friends(&d, TroopType::HeavyCavalry, 0.75, 6.0, None, 0.0, Status::Regular),
            Swerve::BurstThrough { disorganised: true, swept_away: false }
        );
        assert_eq!(
            meet_friends(&d, TroopType::LightInfantry, 0.75, 6.0, None, 0.0, Status::Barbarian),
            Swerve::BurstThrough { disorganised: false, swept_away: false }
        );
    }

    // Checks WRG-ROUT-07.
    #[test]
    fn wrg_rout_07_barbarians_burst_through_join_the_rout() {
        let d = data();
        assert_eq!(
            meet_friends(&d, TroopType::MediumInfantry, 0.5, 6.0, None, 0.0, Status::Barbarian),
            Swerve::BurstThrough { disorganised: true, swept_away: true }
        );
    }

    // Checks WRG-PURS-02.
    #[test]
    fn wrg_purs_02_two_blows_in_the_first_period() {
        assert_eq!(pursuit_blows(true, true), 2);
        assert_eq!(pursuit_blows(false, true), 1);
        assert_eq!(pursuit_blows(false, false), 0);
    }

    // Checks WRG-PURS-03.
    #[test]
    fn wrg_purs_03_pursuit_ends() {
        assert!(pursuit_ends(true, false));
        assert!(pursuit_ends(false, true));
        assert!(!pursuit_ends(false, false));
    }

    // Checks WRG-PURS-04.
    #[test]
    fn wrg_purs_04_rally_ten_back() {
        let d = data();
        assert_eq!(pursuer_rally_point(&d, 27.0), 17.0);
    }

    // Checks WRG-PURS-05.
    #[test]
    fn wrg_purs_05_pursuers_plus_one_routers_shieldless() {
        let t = crate::combat::tactical_factors(&pursuit_tactical(), false);
        let rules: Vec<&str> = t.iter().map(|a| a.rule.as_str()).collect();
        assert_eq!(rules, ["WRG-TAC-05", "WRG-TAC-06"]);
    }

    // Checks WRG-PURS-06.
    #[test]
    fn wrg_purs_06_pursued_off_never_return() {
        assert_eq!(left_table(Left::Pursued), OffTable::Gone);
    }

    // Checks WRG-LEAVE-05.
    #[test]
    fn wrg_leave_05_below_half_never_returns() {
        assert_eq!(left_table(Left::BelowHalf), OffTable::Gone);
        assert_eq!(left_table(Left::Ordinary), OffTable::Throwing { throws: 0 });
    }

    // Checks WRG-BRK-01, WRG-BRK-02, WRG-BRK-03.
    #[test]
    fn wrg_brk_01_02_03_breaking_off() {
        assert_eq!(break_off(false, 10.0, 5.0), None);
        assert_eq!(break_off(true, 10.0, 5.0), Some(BreakOff { free_blows: 1, routed: false }));
        assert_eq!(break_off(true, 10.0, 12.0), Some(BreakOff { free_blows: 1, routed: true }));
    }

    // Checks WRG-LEAVE-01, WRG-LEAVE-02.
    #[test]
    fn wrg_leave_01_02_a_four_returns_at_once() {
        let d = data();
        let mut s = ScriptedDice::new([4]);
        let (st, rolls) =
            return_throw(&d, Status::Regular, OffTable::Throwing { throws: 0 }, &mut s);
        assert_eq!(st, OffTable::Returned);
        assert_eq!(rolls[0].die, tabletop::Die::Average);
        assert_eq!(rolls[0].rule.as_str(), "WRG-LEAVE-01");
        let mut s = ScriptedDice::new([6]);
        let (st, rolls) =
            return_throw(&d, Status::Barbarian, OffTable::Throwing { throws: 0 }, &mut s);
        assert_eq!(st, OffTable::Throwing { throws: 1 });
        assert_eq!(rolls[0].die, tabletop::Die::D6);
    }

    // Checks WRG-LEAVE-03.
    #[test]
    fn wrg_leave_03_a_three_throws_again_for_the_delay() {
        let d = data();
        let mut s = ScriptedDice::new([3, 2]);
        let (st, rolls) =
            return_throw(&d, Status::Regular, OffTable::Throwing { throws: 1 }, &mut s);
        assert_eq!(st, OffTable::Delayed { periods: 2 });
        assert_eq!(rolls[1].rule.as_str(), "WRG-LEAVE-03");
        let mut none = ScriptedDice::new([]);
        let (st, _) = return_throw(&d, Status::Regular, st, &mut none);
        assert_eq!(st, OffTable::Delayed { periods: 1 });
        let (st, _) = return_throw(&d, Status::Regular, st, &mut none);
        assert_eq!(st, OffTable::Returned);
    }

    // Checks WRG-LEAVE-04.
    #[test]
    fn wrg_leave_04_no_three_or_four_in_three_throws() {
        let d = data();
        let mut s = ScriptedDice::new([2, 5, 2]);
        let mut st = OffTable::Throwing { throws: 0 };
        for _ in 0..3 {
            st = return_throw(&d, Status::Regular, st, &mut s).0;
        }
        assert_eq!(st, OffTable::Gone);
    }

    // Checks WRG-GEN-01.
    #[test]
    fn wrg_gen_01_proportional_share() {
        let d = data();
        let mut g = GeneralRisk::default();
        assert!(!g.share(&d, 30, 10));
        assert_eq!(g.losses, 3.0);
        assert!(!g.share(&d, 60, 5));
        assert_eq!(g.losses, 15.0);
    }

    // Checks WRG-GEN-02, WRG-SCALE-07.
    #[test]
    fn wrg_gen_02_last_of_his_twenty() {
        let d = data();
        let mut g = GeneralRisk { losses: 15.0 };
        assert!(g.share(&d, 25, 5));
        assert!(g.fallen(&d));
    }

    // Checks WRG-GEN-03.
    #[test]
    fn wrg_gen_03_singled_out_only_when_isolated() {
        let d = data();
        assert!(general_exposed(&d, &[5.5, 12.0]));
        assert!(!general_exposed(&d, &[5.0, 12.0]));
        assert!(general_exposed(&d, &[]));
    }
}
