//! The depth-of-formation bonus (MOV-DEPTH) and the T6 checks (MOV-R-20, MOV-R-21).

use crate::Movement;
use crate::layout::outline;
use crate::model::{Discipline, Formation, MoraleState};
use crate::state::{DepthInfo, Event, State, UnitId};
use serde::{Deserialize, Serialize};
use tabletop::dice::{DiceSource, Die, roll};
use tabletop::geometry::{Rect, Sector};
use tabletop::rules::RuleId;

/// The depth comparison for one unit in melee.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DepthBonus {
    /// The bonus (0 or the flat +1).
    pub bonus: i32,
    /// The unit's ranks.
    pub ranks: u32,
    /// The deepest enemy in front contact.
    pub enemy_ranks: u32,
    /// Why, citing the rule.
    pub reason: String,
    /// The rule.
    pub rule: &'static str,
}

impl Movement {
    /// The enemy units in melee contact with `unit`, with the sector of the unit they touch.
    pub fn contacts(&self, state: &State, unit: UnitId) -> Vec<(UnitId, Sector)> {
        let Some(u) = state.unit(unit) else {
            return vec![];
        };
        let tol = self.data.geometry.tolerance.contact;
        let frame = outline(&u.pose, u.stands.len(), u.stand_size);
        let mut out = Vec::new();
        for e in state.units.iter().filter(|e| e.on_table && e.side != u.side) {
            let mut worst: Option<Sector> = None;
            for es in &e.stands {
                for s in &u.stands {
                    if crate::shapes::within(&s.rect, &es.rect, tol) {
                        let sector = if u.pose.formation == Formation::Circle {
                            Sector::Front
                        } else {
                            contact_sector(&frame, &es.rect)
                        };
                        worst = Some(match (worst, sector) {
                            (Some(Sector::Front) | None, s) => s,
                            (Some(w), _) => w,
                        });
                    }
                }
            }
            if let Some(s) = worst {
                out.push((e.id, s));
            }
        }
        out
    }

    /// The depth bonus of `unit` in its current melee (MOV-DEPTH-01..05, MOV-R-17).
    pub fn depth_bonus(&self, state: &State, unit: UnitId) -> DepthBonus {
        let contacts = self.contacts(state, unit);
        let ranks = state.unit(unit).map_or(0, |u| u.ranks());
        let mut enemy_ranks = 0;
        let mut flank = false;
        for (e, sector) in &contacts {
            if *sector == Sector::Front {
                enemy_ranks = enemy_ranks.max(state.units[*e].ranks());
            } else {
                flank = true;
            }
        }
        let mk =
            |bonus, reason: String, rule| DepthBonus { bonus, ranks, enemy_ranks, reason, rule };
        if contacts.is_empty() {
            return mk(0, "not in melee contact".into(), "MOV-DEPTH-01");
        }
        if flank {
            return mk(0, "an enemy touches its flank or rear".into(), "MOV-DEPTH-03");
        }
        if state.unit(unit).is_some_and(|u| u.pose.formation == Formation::Mass) {
            return mk(0, "a mass never receives the depth bonus".into(), "MOV-DEPTH-04");
        }
        if ranks > enemy_ranks {
            mk(
                self.data.checks.morale.depth_bonus,
                format!("{ranks} ranks against {enemy_ranks}: the deeper formation"),
                "MOV-DEPTH-01",
            )
        } else if ranks == enemy_ranks {
            mk(0, format!("equal depth ({ranks} ranks each)"), "MOV-DEPTH-02")
        } else {
            mk(
                0,
                format!("{ranks} ranks against {enemy_ranks}: the shallower formation"),
                "MOV-DEPTH-01",
            )
        }
    }

    /// A T6 morale check for `unit` (MOV-R-21), with the depth bonus when it is in melee
    /// contact (MOV-DEPTH), taken for `cause` (none: the umpire's command).
    pub fn morale_check(
        &self,
        state: &State,
        unit: UnitId,
        cause: Option<&'static str>,
        dice: &mut dyn DiceSource,
    ) -> Event {
        let u = &state.units[unit];
        let mut modifiers = self.morale_modifiers(u.morale, u.discipline);
        let depth = if self.contacts(state, unit).is_empty() {
            None
        } else {
            let d = self.depth_bonus(state, unit);
            if d.bonus != 0 {
                modifiers.push((format!("deeper formation [{}]", d.rule), d.bonus));
            }
            Some(DepthInfo {
                bonus: d.bonus,
                ranks: d.ranks,
                enemy_ranks: d.enemy_ranks,
                reason: d.reason,
                rule: RuleId::new(d.rule),
            })
        };
        let r = roll(dice, Die::D10, "morale check", RuleId::new("MOV-R-21"));
        let total = r.value as i32 + modifiers.iter().map(|m| m.1).sum::<i32>();
        let target = self.data.checks.morale.target;
        Event::MoraleChecked {
            unit,
            name: String::new(),
            roll: r,
            modifiers,
            total,
            target,
            passed: total >= target,
            depth,
            cause: cause.map(RuleId::new),
        }
    }

    /// The T6 discipline-check target (pass on this d10 face or higher).
    pub fn discipline_target(&self, d: Discipline) -> u8 {
        self.data.checks.discipline.get(d)
    }

    /// The T6 morale-check modifiers, by name, for a morale state and discipline, before the
    /// depth bonus.
    pub fn morale_modifiers(&self, m: MoraleState, d: Discipline) -> Vec<(String, i32)> {
        let t = &self.data.checks.morale;
        vec![
            (format!("{m}"), t.state.get(m)),
            (format!("{d:?} discipline").to_lowercase(), t.discipline.get(d)),
        ]
    }
}

/// Which side of a unit's outline an enemy stand in contact touches: the front when the stand
/// lies wholly ahead of the front edge, the rear when wholly behind the rear edge, otherwise the
/// flank on its side.
pub fn contact_sector(frame: &Rect, enemy: &Rect) -> Sector {
    let tol = 1e-6;
    let hd = frame.depth / 2.0;
    let ys: Vec<f64> = enemy.corners().iter().map(|c| frame.to_local(*c).y).collect();
    let lo = ys.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = ys.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if lo >= hd - tol {
        Sector::Front
    } else if hi <= -hd + tol {
        Sector::Rear
    } else if frame.to_local(enemy.centre).x > 0.0 {
        Sector::Right
    } else {
        Sector::Left
    }
}
