//! The reaction test: when it is taken (WRG-RT), the dice and factors (WRG-RTP, WRG-RFAC,
//! T9, T10), the two charts (T11, T12) and what their results make the unit do (WRG-RRES).

use crate::Data;
use crate::combat::Applied;
use crate::data::{Band, Count};
use crate::model::{ReactionClass, ReactionFactor, ReactionResult, Status, TroopType};
use crate::random::reaction_dice_count;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What the unit sees around it when it tests: the T9 situations, each counted as the table
/// says (units within 15" and in view, cover within 10"; WRG-RDEF-01, -02: anything across an
/// impassable obstacle is left out by whoever fills this in).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Situation {
    /// Friendly units within 15" and in view (WRG-RFAC-01).
    pub friends_within: u32,
    /// Other friendly units in sight (WRG-RFAC-02).
    pub other_friends_in_sight: bool,
    /// A friendly unit advancing within 15" (WRG-RFAC-03).
    pub friend_advancing_within: bool,
    /// A friendly unit charging within 15" (WRG-RFAC-04).
    pub friend_charging_within: bool,
    /// Secure flanks, 0 to 2 (WRG-RFAC-05, WRG-RDEF-04).
    pub flanks_secure: u32,
    /// Rear support (WRG-RFAC-06, WRG-RDEF-03).
    pub rear_support: bool,
    /// An enemy unit within 15" retiring or retreating (WRG-RFAC-07).
    pub enemy_retiring_within: bool,
    /// An enemy unit within 15" showing flank or rear (WRG-RFAC-08).
    pub enemy_showing_flank_within: bool,
    /// Uphill of an enemy within 15" (WRG-RFAC-09).
    pub uphill_of_enemy: bool,
    /// Friendly cover within 10" (WRG-RFAC-10, WRG-RDEF-05).
    pub friendly_cover_within: bool,
    /// Enemy units routing within 15" (WRG-RFAC-11).
    pub enemies_routing_within: u32,
    /// Enemy units within 15" and facing the unit (WRG-RFAC-12).
    pub enemies_facing_within: u32,
    /// Other enemy units in sight (WRG-RFAC-13).
    pub other_enemy_in_sight: bool,
    /// Enemy cavalry within 15" (WRG-RFAC-14).
    pub enemy_cavalry_within: bool,
    /// An enemy unit advancing within 15" (WRG-RFAC-15).
    pub enemy_advancing_within: bool,
    /// Enemy figures that shot at the unit this period (WRG-RFAC-16: 10 or more).
    pub shot_at_by: u32,
    /// An enemy unit on a flank (WRG-RFAC-17).
    pub enemy_on_flank: bool,
    /// An enemy unit in the rear (WRG-RFAC-18).
    pub enemy_in_rear: bool,
    /// Downhill of an enemy (WRG-RFAC-19).
    pub downhill_of_enemy: bool,
    /// A friendly unit within 15" retiring or retreating (WRG-RFAC-20).
    pub friend_retiring_within: bool,
    /// Disorganised (WRG-RFAC-21).
    pub disorganised: bool,
    /// Figures lost since the start (WRG-RFAC-22).
    pub figures_lost: u32,
    /// The unit itself retiring or retreating (WRG-RFAC-23).
    pub retiring: bool,
    /// Friendly units routing within 15" (WRG-RFAC-24).
    pub friends_routing_within: u32,
    /// Unfriendly cover within 10" (WRG-RFAC-25, WRG-RDEF-06).
    pub unfriendly_cover_within: bool,
    /// The C-in-C with the unit (WRG-RFAC-26).
    pub general_with_unit: bool,
    /// The C-in-C within 15" (WRG-RFAC-27).
    pub general_within: bool,
    /// The C-in-C is himself retreating or routing (then WRG-RFAC-27 does not count).
    pub general_retreating: bool,
    /// Behind cover or field defences (WRG-RFAC-28).
    pub behind_cover: bool,
    /// In square (WRG-RFAC-29).
    pub in_square: bool,
    /// A unit that would have counted was left out for an impassable obstacle between
    /// (WRG-RDEF-02). Not a factor: the log cites the rule when it happens.
    pub impassable_left_out: bool,
}

impl Situation {
    /// How many times each T9 factor applies (before its value).
    fn occurrences(&self) -> Vec<(ReactionFactor, u32)> {
        use ReactionFactor as F;
        let b = |x: bool| x as u32;
        vec![
            (F::FriendlyWithin, self.friends_within),
            (F::OtherFriendsInSight, b(self.other_friends_in_sight)),
            (F::FriendAdvancingWithin, b(self.friend_advancing_within)),
            (F::FriendChargingWithin, b(self.friend_charging_within)),
            (F::FlankSecure, self.flanks_secure),
            (F::RearSupport, b(self.rear_support)),
            (F::EnemyRetiringWithin, b(self.enemy_retiring_within)),
            (F::EnemyShowingFlankWithin, b(self.enemy_showing_flank_within)),
            (F::UphillOfEnemy, b(self.uphill_of_enemy)),
            (F::FriendlyCoverWithin, b(self.friendly_cover_within)),
            (F::EnemyRoutingWithin, self.enemies_routing_within),
            (F::EnemyFacingWithin, self.enemies_facing_within),
            (F::OtherEnemyInSight, b(self.other_enemy_in_sight)),
            (F::EnemyCavalryWithin, b(self.enemy_cavalry_within)),
            (F::EnemyAdvancingWithin, b(self.enemy_advancing_within)),
            (F::UnderFireByTen, b(self.shot_at_by >= 10)),
            (F::EnemyOnFlank, b(self.enemy_on_flank)),
            (F::EnemyInRear, b(self.enemy_in_rear)),
            (F::DownhillOfEnemy, b(self.downhill_of_enemy)),
            (F::FriendRetiringWithin, b(self.friend_retiring_within)),
            (F::Disorganised, b(self.disorganised)),
            (F::FiguresLost, self.figures_lost),
            (F::OwnUnitRetiring, b(self.retiring)),
            (F::FriendRoutingWithin, self.friends_routing_within),
            (F::UnfriendlyCoverWithin, b(self.unfriendly_cover_within)),
            (F::GeneralWithUnit, b(self.general_with_unit)),
            (
                F::GeneralWithin,
                b(self.general_within && !self.general_retreating && !self.general_with_unit),
            ),
            (F::BehindCover, b(self.behind_cover)),
            (F::InSquare, b(self.in_square)),
        ]
    }

    /// The situation as the below-50% test sees it in hand-to-hand: only friendly units
    /// within 3" count, no others (WRG-RT-08).
    pub fn in_close_fight(&self, friends_within_three: u32) -> Situation {
        Situation {
            friends_within: friends_within_three,
            other_friends_in_sight: false,
            friend_advancing_within: false,
            friend_charging_within: false,
            friend_retiring_within: false,
            friends_routing_within: 0,
            ..self.clone()
        }
    }
}

/// A factor in a player's words, `n` the times it counts (units, flanks, figures lost).
pub fn words(f: ReactionFactor, n: u32) -> String {
    use ReactionFactor as F;
    let units =
        |one: &str, many: &str| if n == 1 { one.to_string() } else { format!("{many} ({n})") };
    match f {
        F::FriendlyWithin => units("friend within 15\"", "friends within 15\""),
        F::OtherFriendsInSight => "friends in sight beyond 15\"".into(),
        F::FriendAdvancingWithin => "friends advancing within 15\"".into(),
        F::FriendChargingWithin => "friends charging within 15\"".into(),
        F::FlankSecure => units("flank secure", "flanks secure"),
        F::RearSupport => "rear support".into(),
        F::EnemyRetiringWithin => "enemy retiring within 15\"".into(),
        F::EnemyShowingFlankWithin => "enemy showing flank or rear within 15\"".into(),
        F::UphillOfEnemy => "uphill of the enemy".into(),
        F::FriendlyCoverWithin => "friendly cover within 10\"".into(),
        F::EnemyRoutingWithin => units("enemy routing within 15\"", "enemies routing within 15\""),
        F::EnemyFacingWithin => units("enemy facing within 15\"", "enemies facing within 15\""),
        F::OtherEnemyInSight => "enemy in sight beyond 15\"".into(),
        F::EnemyCavalryWithin => "enemy cavalry within 15\"".into(),
        F::EnemyAdvancingWithin => "enemy advancing within 15\"".into(),
        F::UnderFireByTen => format!("under fire by {n} figures (10 or more)"),
        F::EnemyOnFlank => "enemy on a flank".into(),
        F::EnemyInRear => "enemy in the rear".into(),
        F::DownhillOfEnemy => "downhill of the enemy".into(),
        F::FriendRetiringWithin => "friends retiring within 15\"".into(),
        F::Disorganised => "disorganised".into(),
        F::FiguresLost => format!("figures lost ({n})"),
        F::OwnUnitRetiring => "retiring".into(),
        F::FriendRoutingWithin => {
            units("friend routing within 15\"", "friends routing within 15\"")
        }
        F::UnfriendlyCoverWithin => "unfriendly cover within 10\"".into(),
        F::GeneralWithUnit => "C-in-C with the unit".into(),
        F::GeneralWithin => "C-in-C within 15\"".into(),
        F::BehindCover => "behind cover or field defences".into(),
        F::InSquare => "in square".into(),
    }
}

/// How a side wants the signs of a unit's ± factors chosen once the dice are seen (WRG-R-17):
/// its standing instruction in the plan.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stance {
    /// The signs that bring the score nearest the middle of "carry on" (chart 1) or "act as
    /// the C-in-C wishes" (chart 2): what the engine picks when the owner says nothing.
    #[default]
    Steady,
    /// Every sign plus: the owner wants the unit keen, risking an uncontrolled advance.
    Rouse,
    /// Every sign minus: the owner wants the unit held back, risking a halt or worse.
    Restrain,
}

/// The sign chosen for a ± factor (WRG-R-17).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sign {
    /// Add it.
    Plus,
    /// Take it away.
    Minus,
}

/// The most units (or figures lost) a factor counts.
pub const MAX_COUNT: u32 = 10_000;

/// The fixed T9 factors of a situation (everything but the ± ones), each with its rule
/// (WRG-RFAC-01 .. -25, -30).
pub fn fixed_factors(data: &Data, s: &Situation) -> Vec<Applied> {
    let mut out = Vec::new();
    for (f, n) in s.occurrences() {
        if n == 0 {
            continue;
        }
        // No table holds more units than this; it keeps the sums far from overflowing.
        let n = n.min(MAX_COUNT);
        let row = data.reaction.factor(f);
        let delta = match row.count {
            Count::Each => row.value * n.min(row.most.unwrap_or(u32::MAX)) as i32,
            Count::Once => row.value,
            Count::PerFourLost => row.value * (n / 4) as i32,
            Count::Either => continue,
        };
        if delta != 0 {
            let n = if f == ReactionFactor::UnderFireByTen { s.shot_at_by } else { n };
            out.push(Applied::new(&row.rule, delta, words(f, n)));
        }
    }
    out
}

/// The ± factors that apply, with their magnitudes (WRG-RFAC-26 .. -29).
pub fn either_factors(data: &Data, s: &Situation) -> Vec<(ReactionFactor, i32, String)> {
    s.occurrences()
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .filter_map(|(f, _)| {
            let row = data.reaction.factor(f);
            (row.count == Count::Either).then(|| (f, row.value, row.rule.clone()))
        })
        .collect()
}

/// Which chart a unit reads: 1 with a current order, 2 without (WRG-RTP-04).
pub fn chart(data: &Data, has_order: bool) -> &[Band] {
    if has_order { &data.reaction.chart1 } else { &data.reaction.chart2 }
}

/// The band of a chart a score falls in, for a class (WRG-RTP-04).
pub fn read_chart(data: &Data, has_order: bool, class: ReactionClass, score: i32) -> &Band {
    let bands = chart(data, has_order);
    // Validation guarantees the bands cover every score.
    bands.iter().find(|b| b.span(class).contains(score)).unwrap_or(&bands[0])
}

/// The signs the engine picks for the ± factors when the owner does not: those that bring the
/// score nearest the middle of "carry on" (chart 1) or "act as the C-in-C wishes" (chart 2);
/// on a tie, more pluses first (WRG-R-17).
pub fn choose_signs(
    data: &Data,
    has_order: bool,
    class: ReactionClass,
    base: i32,
    either: &[(ReactionFactor, i32, String)],
) -> Vec<Sign> {
    let want = if has_order { ReactionResult::CarryOn } else { ReactionResult::ActAsGeneralWishes };
    let band = chart(data, has_order).iter().find(|b| b.result == want).map(|b| b.span(class));
    let mid2 = match band {
        Some(s) => s.min.unwrap_or(0) + s.max.unwrap_or(s.min.unwrap_or(0)),
        None => 2 * base,
    };
    let k = either.len().min(8);
    let mut best: Option<(i32, u32, Vec<Sign>)> = None;
    for mask in 0..(1u32 << k) {
        // Bit set = minus.
        let signs: Vec<Sign> =
            (0..k).map(|i| if mask & (1 << i) != 0 { Sign::Minus } else { Sign::Plus }).collect();
        let total: i32 = base
            + either
                .iter()
                .zip(&signs)
                .map(|((_, v, _), s)| if *s == Sign::Plus { *v } else { -*v })
                .sum::<i32>();
        let dist = (2 * total - mid2).abs();
        let minuses = mask.count_ones();
        if best.as_ref().is_none_or(|(d, m, _)| (dist, minuses) < (*d, *m)) {
            best = Some((dist, minuses, signs));
        }
    }
    best.map(|b| b.2).unwrap_or_default()
}

/// What the unit must do after a test (WRG-RRES-01 .. -09).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "effect")]
pub enum Effect {
    /// Broken: it routs (WRG-RRES-01).
    Break,
    /// Retreat with backs to the enemy (WRG-RRES-01).
    Retreat {
        /// Periods.
        periods: u32,
    },
    /// Retire disorganised, facing any attack (WRG-RRES-02, WRG-RRES-07).
    Retire {
        /// Periods.
        periods: u32,
    },
    /// Halt (WRG-RRES-03).
    Halt {
        /// Periods.
        periods: u32,
    },
    /// A pursuing unit halts, disorganised (WRG-RRES-07).
    HaltDisorganised {
        /// Periods.
        periods: u32,
    },
    /// Carry on with the order or take a permitted option (WRG-RRES-04).
    CarryOn,
    /// The owner writes a new order, carried out at once (WRG-RRES-05).
    NewOrder,
    /// Advance to contact the nearest enemy (WRG-RRES-06).
    UncontrolledAdvance {
        /// Periods.
        periods: u32,
    },
    /// Fall back toward friends, cover or a hill in the rear (WRG-RRES-08).
    FallBack {
        /// Periods.
        periods: u32,
    },
    /// Move toward the nearest enemy at normal pace, without charging (WRG-RRES-09).
    MoveTowardEnemy {
        /// Periods.
        periods: u32,
    },
}

impl Effect {
    /// The rule of the effect.
    pub fn rule(self) -> &'static str {
        match self {
            Effect::Break | Effect::Retreat { .. } => "WRG-RRES-01",
            Effect::Retire { .. } => "WRG-RRES-02",
            Effect::Halt { .. } => "WRG-RRES-03",
            Effect::HaltDisorganised { .. } => "WRG-RRES-07",
            Effect::CarryOn => "WRG-RRES-04",
            Effect::NewOrder => "WRG-RRES-05",
            Effect::UncontrolledAdvance { .. } => "WRG-RRES-06",
            Effect::FallBack { .. } => "WRG-RRES-08",
            Effect::MoveTowardEnemy { .. } => "WRG-RRES-09",
        }
    }

    /// How many periods it lasts (0: done at once or open-ended).
    pub fn periods(self) -> u32 {
        match self {
            Effect::Break | Effect::CarryOn | Effect::NewOrder => 0,
            Effect::Retreat { periods }
            | Effect::Retire { periods }
            | Effect::Halt { periods }
            | Effect::HaltDisorganised { periods }
            | Effect::UncontrolledAdvance { periods }
            | Effect::FallBack { periods }
            | Effect::MoveTowardEnemy { periods } => periods,
        }
    }

    /// Results that move the unit back, "worse than Halt" (WRG-R-20).
    pub fn worse_than_halt(self) -> bool {
        matches!(self, Effect::Break | Effect::Retreat { .. } | Effect::Retire { .. })
    }

    /// The result disorganises the unit while it lasts (WRG-DIS-12).
    pub fn disorganises(self) -> bool {
        matches!(self, Effect::Retire { .. } | Effect::HaltDisorganised { .. })
    }
}

/// What a band means for a unit: `under_attack` when it is under fire or being charged,
/// `pursuing` when it is pursuing (WRG-RRES-01 .. -09).
pub fn effect(band: &Band, under_attack: bool, pursuing: bool) -> Effect {
    let periods = band.periods;
    match band.result {
        ReactionResult::Break if under_attack => Effect::Break,
        ReactionResult::Break => Effect::Retreat { periods },
        ReactionResult::Retire => Effect::Retire { periods },
        ReactionResult::Halt => Effect::Halt { periods },
        ReactionResult::CarryOn => Effect::CarryOn,
        ReactionResult::ActAsGeneralWishes => Effect::NewOrder,
        ReactionResult::UncontrolledAdvance => Effect::UncontrolledAdvance { periods },
        ReactionResult::HaltOrRetire if pursuing => {
            Effect::HaltDisorganised { periods: band.pursuing_periods.unwrap_or(periods) }
        }
        ReactionResult::HaltOrRetire => Effect::Retire { periods },
        ReactionResult::FallBack => Effect::FallBack { periods },
        ReactionResult::MoveTowardEnemy => Effect::MoveTowardEnemy { periods },
    }
}

/// What happens to the unit's written order (WRG-R-18, WRG-CHORD-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderFate {
    /// It stands.
    Kept,
    /// It is suspended while the result lasts.
    Suspended,
    /// It is cancelled.
    Cancelled,
    /// The owner replaces it now.
    Replaced,
}

/// The fate of the order under an effect read from chart 1 or 2 (WRG-R-18).
pub fn order_fate(e: Effect, has_order: bool) -> OrderFate {
    if !has_order {
        return OrderFate::Kept;
    }
    match e {
        Effect::Break | Effect::UncontrolledAdvance { .. } => OrderFate::Cancelled,
        Effect::NewOrder => OrderFate::Replaced,
        Effect::CarryOn => OrderFate::Kept,
        _ => OrderFate::Suspended,
    }
}

/// A reaction test to work out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Test {
    /// The unit's class.
    pub class: ReactionClass,
    /// Regular or barbarian.
    pub status: Status,
    /// An Asiatic levy (throws ordinary dice, WRG-M-16).
    #[serde(default)]
    pub levy: bool,
    /// Figures at the start of the battle.
    pub start_figures: u32,
    /// Figures now.
    pub figures: u32,
    /// The unit holds a current order (chart 1), or not (chart 2).
    pub has_order: bool,
    /// Under fire this period or being charged (WRG-RRES-01).
    #[serde(default)]
    pub under_attack: bool,
    /// Pursuing (chart 2's second band, WRG-RRES-07).
    #[serde(default)]
    pub pursuing: bool,
    /// The situation.
    #[serde(default)]
    pub situation: Situation,
    /// The faces thrown, as many as the test takes.
    pub dice: Vec<u8>,
    /// The owner's signs for the ± factors; the engine picks the rest (WRG-R-17).
    #[serde(default)]
    pub signs: BTreeMap<ReactionFactor, Sign>,
}

/// A reaction test worked out.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    /// Dice thrown (WRG-RTP-02).
    pub dice_count: u8,
    /// Their sum.
    pub dice_total: i32,
    /// Every factor applied.
    pub factors: Vec<Applied>,
    /// The final score (WRG-RTP-03).
    pub score: i32,
    /// The chart read, 1 or 2 (WRG-RTP-04).
    pub chart: u8,
    /// The band.
    pub result: ReactionResult,
    /// What the unit does.
    pub effect: Effect,
    /// The order's fate.
    pub order: OrderFate,
}

/// Why a test could not be worked out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("[{rule}] {reason}")]
pub struct TestError {
    /// The rule.
    pub rule: &'static str,
    /// Why.
    pub reason: String,
}

/// Works out a test from the faces thrown (WRG-RTP-01 .. -04, WRG-RFAC-30).
pub fn work_out(data: &Data, t: &Test) -> Result<Outcome, TestError> {
    if t.start_figures == 0 || t.figures > t.start_figures {
        return Err(TestError {
            rule: "WRG-RTP-02",
            reason: "figures now must be between 0 and the starting figures (at least 1)".into(),
        });
    }
    let count = reaction_dice_count(data, t.start_figures, t.figures);
    if t.dice.len() != count as usize {
        return Err(TestError {
            rule: "WRG-RTP-02",
            reason: format!(
                "a unit of {} figures out of {} throws {count} dice, {} given",
                t.figures,
                t.start_figures,
                t.dice.len()
            ),
        });
    }
    let die = crate::random::reaction_die(data, t.status, t.levy);
    if let Some(bad) = t.dice.iter().find(|v| !die.can_show(**v)) {
        return Err(TestError {
            rule: "WRG-RTP-01",
            reason: format!("a {} cannot show {bad}", die.name()),
        });
    }
    let dice_total: i32 = t.dice.iter().map(|v| *v as i32).sum();
    let mut factors = fixed_factors(data, &t.situation);
    let base = dice_total + factors.iter().map(|a| a.delta).sum::<i32>();
    let either = either_factors(data, &t.situation);
    let free: Vec<(ReactionFactor, i32, String)> =
        either.iter().filter(|(f, _, _)| !t.signs.contains_key(f)).cloned().collect();
    let owner: i32 = either
        .iter()
        .filter_map(|(f, v, _)| t.signs.get(f).map(|s| if *s == Sign::Plus { *v } else { -*v }))
        .sum();
    let picked = choose_signs(data, t.has_order, t.class, base + owner, &free);
    let mut picked_iter = picked.into_iter();
    for (f, v, rule) in &either {
        let (s, who) = match t.signs.get(f) {
            Some(s) => (*s, "owner's choice"),
            None => (picked_iter.next().unwrap_or(Sign::Plus), "WRG-R-17 choice"),
        };
        let delta = if s == Sign::Plus { *v } else { -*v };
        factors.push(Applied::new(rule, delta, format!("{} ({who})", words(*f, 1))));
    }
    let score = dice_total + factors.iter().map(|a| a.delta).sum::<i32>();
    let band = read_chart(data, t.has_order, t.class, score);
    let e = effect(band, t.under_attack, t.pursuing);
    Ok(Outcome {
        dice_count: count,
        dice_total,
        factors,
        score,
        chart: if t.has_order { 1 } else { 2 },
        result: band.result,
        effect: e,
        order: order_fate(e, t.has_order),
    })
}

/// What a unit is doing, for the rules on when it may test.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Doing {
    /// In hand-to-hand.
    pub in_close_combat: bool,
    /// Broken and running.
    pub broken: bool,
    /// In its first period of pursuit.
    pub first_pursuit_period: bool,
    /// Carrying out a multi-period reaction result.
    pub running_result: bool,
}

/// Whether the owner may take an optional test now (WRG-RT-01, WRG-RRES-10).
pub fn optional_test(d: Doing) -> Result<(), &'static str> {
    if d.in_close_combat || d.broken || d.first_pursuit_period {
        return Err("WRG-RT-01");
    }
    if d.running_result {
        return Err("WRG-RRES-10");
    }
    Ok(())
}

/// Why a test must be taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trigger {
    /// First time within 15" of the enemy (WRG-RT-02).
    FirstContactRange,
    /// Being charged (WRG-RT-03).
    Charged,
    /// About to attempt ordered hand-to-hand (WRG-RT-04).
    BeforeContact,
    /// A friendly unit within 15" broke (WRG-RT-05).
    FriendBroke,
    /// Lost 3 or more figures to missiles this period (WRG-RT-06).
    MissileLosses,
    /// Fell below half strength (WRG-RT-07).
    BelowHalf,
    /// Asked for by the owner (WRG-RT-01).
    Optional,
    /// Hold-order infantry that threw back an infantry attack, whether they follow up
    /// (WRG-RT-10).
    HoldersFollowUp,
}

impl Trigger {
    /// The rule.
    pub fn rule(self) -> &'static str {
        match self {
            Trigger::FirstContactRange => "WRG-RT-02",
            Trigger::Charged => "WRG-RT-03",
            Trigger::BeforeContact => "WRG-RT-04",
            Trigger::FriendBroke => "WRG-RT-05",
            Trigger::MissileLosses => "WRG-RT-06",
            Trigger::BelowHalf => "WRG-RT-07",
            Trigger::Optional => "WRG-RT-01",
            Trigger::HoldersFollowUp => "WRG-RT-10",
        }
    }

    /// Taken at once (the charge test at the charge point, the below-half test when it
    /// happens) or at the end of the period, governing the next (WRG-RT-11).
    pub fn at_once(self) -> bool {
        matches!(self, Trigger::Charged | Trigger::BelowHalf)
    }

    /// Whether the test is one the rules demand (all but the owner's optional test,
    /// WRG-RRES-10).
    pub fn mandatory(self) -> bool {
        self != Trigger::Optional
    }
}

/// What happened to a unit this period, for the mandatory tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Happened {
    /// It has taken its first-within-15" test before.
    pub tested_within_range: bool,
    /// Nearest enemy distance now (standard to standard).
    pub nearest_enemy: f64,
    /// It is being charged.
    pub charged: bool,
    /// It is ordered into hand-to-hand and about to try.
    pub ordered_to_contact: bool,
    /// Friendly units within 15" that broke this period.
    pub friends_broke_within: u32,
    /// Figures lost to missiles this period (skirmishers included).
    pub missile_figures_lost: u32,
    /// Figures before and after this period's losses, and at the start.
    pub figures_before: u32,
    /// Figures after.
    pub figures_after: u32,
    /// Figures at the start.
    pub start_figures: u32,
}

/// The mandatory tests a unit must take (WRG-RT-02 .. -07).
pub fn mandatory(data: &Data, h: &Happened, d: Doing) -> Vec<Trigger> {
    let mut out = Vec::new();
    if !h.tested_within_range && h.nearest_enemy <= data.movement.distances.reaction_within {
        out.push(Trigger::FirstContactRange);
    }
    if h.charged {
        out.push(Trigger::Charged);
    }
    if h.ordered_to_contact {
        out.push(Trigger::BeforeContact);
    }
    if h.friends_broke_within > 0 && !d.in_close_combat {
        out.push(Trigger::FriendBroke);
    }
    if h.missile_figures_lost >= 3 {
        out.push(Trigger::MissileLosses);
    }
    if falls_below_half(h.start_figures, h.figures_before, h.figures_after) {
        out.push(Trigger::BelowHalf);
    }
    out
}

/// True when the unit has just fallen below half its starting figures (WRG-RT-07).
pub fn falls_below_half(start: u32, before: u32, after: u32) -> bool {
    2 * after < start && 2 * before >= start
}

/// The consequence of the below-half test (WRG-RT-09).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BelowHalf {
    /// The result stands as read.
    AsRead,
    /// Worse than halt: it leaves the field for good.
    LeavesField,
    /// Worse than halt, fighting, and its way out is blocked: it surrenders.
    Surrenders,
}

/// What the below-half test's effect means (WRG-RT-09, WRG-R-20).
pub fn below_half_consequence(e: Effect, in_close_combat: bool, blocked: bool) -> BelowHalf {
    if !e.worse_than_halt() {
        BelowHalf::AsRead
    } else if in_close_combat && blocked {
        BelowHalf::Surrenders
    } else {
        BelowHalf::LeavesField
    }
}

/// Hold-order infantry that threw back an infantry attack stay put only when the score is
/// below their uncontrolled-advance threshold on chart 1; otherwise they follow up
/// (WRG-RT-10).
pub fn holders_stay(data: &Data, class: ReactionClass, score: i32) -> bool {
    let band =
        data.reaction.chart1.iter().find(|b| b.result == ReactionResult::UncontrolledAdvance);
    match band.and_then(|b| b.span(class).min) {
        Some(m) => score < m,
        None => true,
    }
}

/// Where a charged unit tests: at the point the charger has used its normal move and starts
/// its bonus, or not at all when contact comes within the normal move (after any obstacle
/// cost) (WRG-RT-12, WRG-RT-13). Returns the distance along the charge at which to test.
pub fn charge_test_point(normal_after_obstacles: f64, distance_to_contact: f64) -> Option<f64> {
    if distance_to_contact <= normal_after_obstacles + 1e-9 {
        None
    } else {
        Some(normal_after_obstacles)
    }
}

/// Whether cavalry may countercharge frontal attacking cavalry: not forbidden by orders, a
/// score of 6 or more, and a carry-on-or-better result (WRG-ORD-08, WRG-R-19); never while
/// forced to fall back this period (WRG-DIS-14).
pub fn may_countercharge(
    unit: TroopType,
    charger: TroopType,
    frontal: bool,
    forbidden: bool,
    score: i32,
    e: Effect,
    falling_back: bool,
) -> bool {
    !falling_back
        && unit.is_cavalry()
        && charger.is_cavalry()
        && frontal
        && !forbidden
        && score >= 6
        && matches!(e, Effect::CarryOn | Effect::NewOrder | Effect::UncontrolledAdvance { .. })
}

/// A multi-period result being carried out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Running {
    /// The effect.
    pub effect: Effect,
    /// Periods still to run.
    pub left: u32,
}

impl Running {
    /// Starts an effect; `None` for those done at once.
    pub fn start(e: Effect) -> Option<Running> {
        (e.periods() > 0).then_some(Running { effect: e, left: e.periods() })
    }

    /// One period passes; `None` when it has run out.
    pub fn tick(self) -> Option<Running> {
        (self.left > 1).then_some(Running { left: self.left - 1, ..self })
    }
}

/// A new test's effect while a result runs: a mandatory test replaces it; an optional one is
/// not allowed (WRG-RRES-10).
pub fn replace_running(
    running: Option<Running>,
    mandatory: bool,
    new: Effect,
) -> Result<Option<Running>, &'static str> {
    match running {
        Some(_) if !mandatory => Err("WRG-RRES-10"),
        _ => Ok(Running::start(new)),
    }
}

/// Whether another unit or feature counts "within" a distance: measured standard to
/// standard (or to the feature), in view, and not across an impassable obstacle
/// (WRG-RDEF-01, WRG-RDEF-02).
pub fn counts_within(
    from: tabletop::geometry::Point,
    to: tabletop::geometry::Point,
    within: f64,
    in_view: bool,
    across_impassable: bool,
) -> bool {
    in_view && !across_impassable && from.distance(to) <= within + 1e-9
}

/// A friendly unit that might support the tested unit from behind or beside it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Supporter {
    /// Distance from the tested unit.
    pub distance: f64,
    /// The supporter's own normal move.
    pub normal_move: f64,
    /// It is disorganised.
    pub disorganised: bool,
    /// Its figures.
    pub figures: u32,
    /// It is in hand-to-hand.
    pub in_close_combat: bool,
    /// It could move up (not across an impassable obstacle).
    pub can_move_up: bool,
}

/// Whether a friendly unit gives support: within its own normal move, not disorganised, at
/// least half the tested unit's current figures, not fighting, able to move up
/// (WRG-RDEF-03, WRG-R-14). `directly_behind` says it stands immediately in rear.
pub fn supports(s: &Supporter, tested_figures: u32) -> bool {
    s.distance <= s.normal_move + 1e-9
        && !s.disorganised
        && 2 * s.figures >= tested_figures
        && !s.in_close_combat
        && s.can_move_up
}

/// What guards one flank.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FlankGuard {
    /// Friendly cover within 1" of the flank.
    pub friendly_cover_within_one: bool,
    /// The flank rests on an impassable obstacle.
    pub impassable: bool,
    /// A friendly unit beside it.
    pub neighbour: Option<Supporter>,
}

/// Whether a flank is secure (WRG-RDEF-04).
pub fn flank_secure(g: &FlankGuard, tested_figures: u32) -> bool {
    g.friendly_cover_within_one
        || g.impassable
        || g.neighbour.is_some_and(|n| supports(&n, tested_figures))
}

/// What a side knows of a piece of cover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CoverKnown {
    /// Known to hold own troops.
    HeldByFriends,
    /// Known to be free of enemy.
    KnownEmpty,
    /// Known to hold enemy.
    HeldByEnemy,
    /// Nothing known.
    Unknown,
}

/// Friendly cover (+1) or unfriendly (-2) (WRG-RDEF-05, WRG-RDEF-06).
pub fn cover_is_friendly(k: CoverKnown) -> bool {
    matches!(k, CoverKnown::HeldByFriends | CoverKnown::KnownEmpty)
}
