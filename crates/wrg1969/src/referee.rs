//! The referee: answers a tabletop umpire's questions, JSON in and JSON out, for
//! `strategikon referee wrg1969 QUESTION.json` and the browser's referee panel. The players
//! roll real dice and type them in.
//!
//! Questions (`"question"` names the kind):
//! - `fire`: the casualties of a shot: weapon (or crew-served shooter), figures shooting,
//!   target type, tactical factors, the red and black dice; with the target's figures and
//!   carried men, the figures removed and the remainder carried;
//! - `casualty_table`: T8 read directly for a total factor and a number of figures (the rule
//!   beyond 20 figures included), with the removal;
//! - `fight`: a round of hand-to-hand between two units (weapon groups, tactical factors,
//!   dice), both sides' losses, and the after-combat verdict;
//! - `after_combat`: the verdict for two units given the men each lost;
//! - `reaction`: the total and result of a reaction test for a described situation;
//! - `army`: the points of an army list and whether it is legal;
//! - `move`: how far a unit gets along a path over a scenario's table this period (normal,
//!   charge, evade, rout or pursuit allowance), with terrain and obstacles;
//! - `charge`: whether a charge is legal, where the charged unit tests, and whether an
//!   evader gets away.
//!
//! Any question may carry `"variants": {"name": "option"}` to read the doubtful cells another
//! way (WRG-R-45). Every answer lists the rules it applied.

use crate::Data;
use crate::after::{Side, judge, kind};
use crate::casualty::{men_lost, remove};
use crate::combat::Tactical;
use crate::fire::{Shot, crew_equivalent, shoot};
use crate::melee::{Fighter, round};
use crate::model::*;
use crate::reaction::{Sign, Situation, Test, work_out};
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use tabletop::diagnostics::Source;

/// Why a question could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum RefereeError {
    /// The question is malformed.
    #[error("the question is malformed: {0}")]
    Malformed(String),
    /// The rules refuse what is asked.
    #[error("[{rule}] {reason}")]
    Refused {
        /// The rule.
        rule: String,
        /// Why.
        reason: String,
    },
}

fn refused(rule: &str, reason: impl Into<String>) -> RefereeError {
    RefereeError::Refused { rule: rule.to_string(), reason: reason.into() }
}

/// The shooting dice.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RedBlack {
    /// The red die (minus).
    pub red: u8,
    /// The black die (plus).
    pub black: u8,
}

/// One side of a fight as asked.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FightSide {
    /// Its type.
    #[serde(rename = "type")]
    pub troop: TroopType,
    /// Regular or barbarian.
    pub status: Status,
    /// Figures before the round.
    pub figures: u32,
    /// Men carried before the round.
    #[serde(default)]
    pub carried: u32,
    /// Fighting figures by weapon class.
    pub groups: Vec<crate::melee::Group>,
    /// Its tactical factors as it strikes.
    #[serde(default)]
    pub tactical: Tactical,
    /// The General fights with it.
    #[serde(default)]
    pub general: bool,
    /// Its dice.
    pub dice: RedBlack,
    /// Push-backs in a row before this period.
    #[serde(default)]
    pub pushed_back_before: u32,
}

/// A question.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "question", rename_all = "snake_case", deny_unknown_fields)]
pub enum Question {
    /// The casualties of a shot.
    Fire {
        /// The weapon (give this or `crew`).
        #[serde(default)]
        weapon: Option<MissileWeapon>,
        /// A crew-served shooter (elephant, chariot, engine).
        #[serde(default)]
        crew: Option<Crew>,
        /// Figures (or crew-served figures) shooting.
        figures: u32,
        /// The target's type.
        target: TroopType,
        /// The tactical situation.
        #[serde(default)]
        tactical: Tactical,
        /// The dice.
        dice: RedBlack,
        /// The target's figures, for the removal.
        #[serde(default)]
        target_figures: Option<u32>,
        /// Men the target carries already.
        #[serde(default)]
        carried: u32,
        /// Variants.
        #[serde(default)]
        variants: BTreeMap<String, String>,
    },
    /// T8 read directly.
    CasualtyTable {
        /// The total factor.
        factor: i32,
        /// Figures shooting or fighting.
        figures: u32,
        /// The target's figures, for the removal.
        #[serde(default)]
        target_figures: Option<u32>,
        /// Men the target carries already.
        #[serde(default)]
        carried: u32,
        /// Variants.
        #[serde(default)]
        variants: BTreeMap<String, String>,
    },
    /// A round of hand-to-hand and its outcome.
    Fight {
        /// The first unit.
        a: FightSide,
        /// The second unit.
        b: FightSide,
        /// Periods this fight has lasted, this one included (default 1).
        #[serde(default)]
        periods: Option<u32>,
        /// Variants.
        #[serde(default)]
        variants: BTreeMap<String, String>,
    },
    /// The after-combat verdict.
    AfterCombat {
        /// The first unit.
        a: Side,
        /// The second unit.
        b: Side,
        /// Periods this fight has lasted, this one included (default 1).
        #[serde(default)]
        periods: Option<u32>,
    },
    /// A reaction test.
    Reaction {
        /// Class A to E.
        class: ReactionClass,
        /// Regular or barbarian.
        status: Status,
        /// Asiatic levy.
        #[serde(default)]
        levy: bool,
        /// Figures at the start.
        start_figures: u32,
        /// Figures now.
        figures: u32,
        /// Holds a current order.
        has_order: bool,
        /// Under fire or being charged.
        #[serde(default)]
        under_attack: bool,
        /// Pursuing.
        #[serde(default)]
        pursuing: bool,
        /// The situation.
        #[serde(default)]
        situation: Situation,
        /// The faces thrown.
        dice: Vec<u8>,
        /// The owner's signs for the ± factors.
        #[serde(default)]
        signs: BTreeMap<ReactionFactor, Sign>,
    },
    /// How far a move gets over a table.
    Move {
        /// Who moves.
        #[serde(rename = "type")]
        troop: TroopType,
        /// Which allowance: normal, charge, evade, rout or pursuit.
        #[serde(default)]
        pace: Option<Pace>,
        /// The period of rout or pursuit, from 1 (default 1).
        #[serde(default)]
        period: Option<u32>,
        /// The path of the unit's standard, start first.
        path: Vec<[f64; 2]>,
        /// A scenario or table file for the terrain (open ground when absent).
        #[serde(default)]
        file: Option<String>,
        /// Or the table's TOML inline.
        #[serde(default)]
        toml: Option<String>,
    },
    /// A charge: legality, the charged unit's test point, an evade.
    Charge {
        /// The charger.
        #[serde(rename = "type")]
        troop: TroopType,
        /// Inches the outer figure wheels before the straight run.
        #[serde(default)]
        wheel: f64,
        /// Inches from the charger to contact, along its path.
        distance: f64,
        /// The charger's normal move this period after any obstacle loss (default T3's).
        #[serde(default)]
        normal: Option<f64>,
        /// The charged unit, if it tries to evade.
        #[serde(default)]
        evader: Option<TroopType>,
        /// The evader must go round an impassable obstacle.
        #[serde(default)]
        detour: bool,
    },
    /// An army list's points and legality.
    Army {
        /// The list's TOML text.
        #[serde(default)]
        toml: Option<String>,
        /// Or a path to it.
        #[serde(default)]
        file: Option<String>,
    },
}

/// Which allowance a move uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pace {
    /// The normal move.
    Normal,
    /// The charge move.
    Charge,
    /// The evade.
    Evade,
    /// A rout.
    Rout,
    /// A pursuit.
    Pursuit,
}

fn read_table(
    file: &Option<String>,
    toml: &Option<String>,
) -> Result<Option<tabletop::terrain::Table>, RefereeError> {
    let source = match (file, toml) {
        (None, None) => return Ok(None),
        (Some(f), None) => Source::read(std::path::Path::new(f))
            .map_err(|d| RefereeError::Malformed(d.to_string()))?,
        (None, Some(t)) => Source::new("table", t.clone()),
        _ => {
            return Err(RefereeError::Malformed(
                "give either `file` or `toml` for the table".into(),
            ));
        }
    };
    let doc = tabletop::diagnostics::TomlDoc::parse(&source)
        .map_err(|d| RefereeError::Malformed(d.to_string()))?;
    let mut problems = doc.problems();
    let table = tabletop::table_file::parse_table(&doc, &mut problems);
    problems.finish().map_err(|d| RefereeError::Malformed(d.to_string()))?;
    Ok(table)
}

fn data_with(variants: &BTreeMap<String, String>) -> Result<Data, RefereeError> {
    let base =
        Data::embedded().map_err(|e| RefereeError::Malformed(format!("embedded data: {e}")))?;
    base.with_variants(variants.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| refused("WRG-R-45", e))
}

fn check_d6(v: u8, what: &str) -> Result<(), RefereeError> {
    if (1..=6).contains(&v) {
        Ok(())
    } else {
        Err(refused("WRG-RAND-01", format!("the {what} die shows 1 to 6, not {v}")))
    }
}

fn removal_json(data: &Data, men: u32, target_figures: Option<u32>, carried: u32) -> Value {
    match target_figures {
        Some(f) => {
            let r = remove(data, f, carried, men);
            json!({
                "figures_removed": r.figures_removed,
                "carried": r.carried,
                "figures_left": r.figures_left,
            })
        }
        None => {
            let per = data.casualties.men_per_figure;
            let total = carried.saturating_add(men);
            json!({ "figures_removed": total / per, "carried": total % per })
        }
    }
}

/// Answers a question given as JSON.
pub fn answer(question: &Value) -> Result<Value, RefereeError> {
    let q: Question = serde_json::from_value(question.clone())
        .map_err(|e| RefereeError::Malformed(e.to_string()))?;
    answer_question(&q)
}

/// Answers a parsed question.
pub fn answer_question(q: &Question) -> Result<Value, RefereeError> {
    match q {
        Question::Fire {
            weapon,
            crew,
            figures,
            target,
            tactical,
            dice,
            target_figures,
            carried,
            variants,
        } => {
            let data = data_with(variants)?;
            check_d6(dice.red, "red")?;
            check_d6(dice.black, "black")?;
            let mut rules: Vec<String> = vec!["WRG-FIRE-07".into(), "WRG-RAND-01".into()];
            let mut tactical = tactical.clone();
            let (weapon, figures) = match (weapon, crew) {
                (Some(w), None) => (*w, *figures),
                (None, Some(c)) => {
                    let e = crew_equivalent(&data, *c);
                    rules.push("WRG-FIRE-14".into());
                    if e.ignores_cover {
                        tactical.stone_thrower = true;
                    }
                    (e.weapon, figures.saturating_mul(e.figures))
                }
                _ => return Err(RefereeError::Malformed("give either `weapon` or `crew`".into())),
            };
            if figures == 0 {
                return Err(refused("WRG-FIRE-07", "no figures are shooting"));
            }
            let r = shoot(
                &data,
                &Shot {
                    weapon,
                    figures,
                    target: *target,
                    tactical,
                    red: dice.red,
                    black: dice.black,
                },
            );
            rules.extend(r.tactical.iter().map(|a| a.rule.clone()));
            rules.extend(r.reading.rules.iter().map(|x| x.to_string()));
            rules.push("WRG-CAS-03".into());
            Ok(json!({
                "question": "fire",
                "weapon": weapon,
                "figures": figures,
                "weapon_factor": r.weapon_factor,
                "tactical": r.tactical,
                "random": r.random,
                "total": r.total,
                "row": r.reading.row,
                "men": r.reading.men,
                "tens": r.reading.tens,
                "removal": removal_json(&data, r.reading.men, *target_figures, *carried),
                "rules": dedup(rules),
            }))
        }
        Question::CasualtyTable { factor, figures, target_figures, carried, variants } => {
            let data = data_with(variants)?;
            let r = men_lost(&data, *factor, *figures);
            let mut rules = r.rules.clone();
            rules.push("WRG-CAS-03");
            Ok(json!({
                "question": "casualty_table",
                "factor": factor,
                "row": r.row,
                "figures": figures,
                "men": r.men,
                "tens": r.tens,
                "removal": removal_json(&data, r.men, *target_figures, *carried),
                "rules": dedup(rules),
            }))
        }
        Question::Fight { a, b, periods, variants } => {
            let data = data_with(variants)?;
            let fa = fighter(&data, a)?;
            let fb = fighter(&data, b)?;
            let ((sa, ra), (sb, rb)) = round(&data, &fa, &fb);
            let periods = periods.unwrap_or(1).max(1);
            let verdict = judge(
                &data,
                &Side {
                    troop: a.troop,
                    figures: a.figures,
                    men_lost: sb.men,
                    pushed_back_before: a.pushed_back_before,
                },
                &Side {
                    troop: b.troop,
                    figures: b.figures,
                    men_lost: sa.men,
                    pushed_back_before: b.pushed_back_before,
                },
                periods,
            );
            let mut rules = vec!["WRG-MELEE-05", "WRG-MELEE-06", "WRG-CAS-01", "WRG-CAS-03"];
            rules.push(if a.status == Status::Regular || b.status == Status::Regular {
                "WRG-RAND-02"
            } else {
                "WRG-RAND-03"
            });
            if a.status == Status::Barbarian || b.status == Status::Barbarian {
                rules.push("WRG-RAND-03");
            }
            if a.general || b.general {
                rules.push("WRG-RAND-04");
            }
            rules.extend(verdict_rules(&verdict));
            Ok(json!({
                "question": "fight",
                "kind": kind(a.troop, b.troop),
                "a": { "dealt": sa, "removal": ra },
                "b": { "dealt": sb, "removal": rb },
                "verdict": verdict,
                "rules": dedup(rules),
            }))
        }
        Question::AfterCombat { a, b, periods } => {
            let data = data_with(&BTreeMap::new())?;
            let v = judge(&data, a, b, periods.unwrap_or(1).max(1));
            Ok(json!({
                "question": "after_combat",
                "kind": kind(a.troop, b.troop),
                "verdict": v,
                "rules": dedup(verdict_rules(&v)),
            }))
        }
        Question::Reaction {
            class,
            status,
            levy,
            start_figures,
            figures,
            has_order,
            under_attack,
            pursuing,
            situation,
            dice,
            signs,
        } => {
            let data = data_with(&BTreeMap::new())?;
            let t = Test {
                class: *class,
                status: *status,
                levy: *levy,
                start_figures: *start_figures,
                figures: *figures,
                has_order: *has_order,
                under_attack: *under_attack,
                pursuing: *pursuing,
                situation: situation.clone(),
                dice: dice.clone(),
                signs: signs.clone(),
            };
            let o = work_out(&data, &t).map_err(|e| refused(e.rule, e.reason))?;
            let mut rules: Vec<String> =
                ["WRG-RTP-01", "WRG-RTP-02", "WRG-RTP-03", "WRG-RTP-04", "WRG-RFAC-30"]
                    .map(String::from)
                    .to_vec();
            rules.extend(o.factors.iter().map(|a| a.rule.clone()));
            rules.push(o.effect.rule().into());
            Ok(json!({
                "question": "reaction",
                "dice_count": o.dice_count,
                "dice_total": o.dice_total,
                "factors": o.factors,
                "score": o.score,
                "chart": o.chart,
                "result": o.result,
                "effect": o.effect,
                "order": o.order,
                "rules": dedup(rules),
            }))
        }
        Question::Move { troop, pace, period, path, file, toml } => {
            let data = data_with(&BTreeMap::new())?;
            let pts: Vec<tabletop::geometry::Point> =
                path.iter().map(|p| tabletop::geometry::Point::new(p[0], p[1])).collect();
            if pts.len() < 2 || pts.len() > 256 || pts.iter().any(|p| !p.is_finite()) {
                return Err(RefereeError::Malformed("a path needs 2 to 256 finite points".into()));
            }
            let row = data.moves(*troop);
            let k = period.unwrap_or(1).max(1);
            let (allowance, rule) = match pace.unwrap_or(Pace::Normal) {
                Pace::Normal => (row.normal, "WRG-MOVE-02"),
                Pace::Charge => (
                    row.charge
                        .ok_or_else(|| refused("WRG-MOVE-04", format!("{troop} cannot charge")))?,
                    "WRG-MOVE-04",
                ),
                Pace::Evade => {
                    if !crate::moves::can_evade(&data, *troop) {
                        return Err(refused("WRG-MOVE-08", format!("{troop} cannot evade")));
                    }
                    (row.evade.unwrap_or(0.0), "WRG-MOVE-09")
                }
                Pace::Rout => (crate::moves::rout_speed(&data, *troop, k), "WRG-ROUT-02"),
                Pace::Pursuit => (crate::moves::pursuit_speed(&data, *troop, k), "WRG-PURS-01"),
            };
            let table = read_table(file, toml)?;
            let open = tabletop::terrain::Table {
                width: 1e6,
                height: 1e6,
                areas: vec![],
                lines: vec![],
                slope_band: 1.0,
            };
            let t = table.as_ref().unwrap_or(&open);
            let (a, cut) = crate::ground::reach_on_table(&data, t, *troop, &pts, allowance, 0.0);
            let length: f64 = pts.windows(2).map(|w| w[0].distance(w[1])).sum();
            let mut rules = vec![rule, "WRG-TERR-04", "WRG-TERR-07"];
            if cut {
                rules.push("WRG-TERR-01");
            }
            Ok(json!({
                "question": "move",
                "allowance": allowance,
                "obstacle": cut,
                "distance": a.distance,
                "end": [a.end.x, a.end.y],
                "whole_path": a.distance + 1e-9 >= length,
                "rules": dedup(rules),
            }))
        }
        Question::Charge { troop, wheel, distance, normal, evader, detour } => {
            let data = data_with(&BTreeMap::new())?;
            let row = data.moves(*troop);
            let Some(charge) = row.charge else {
                return Err(refused("WRG-MOVE-04", format!("{troop} cannot charge")));
            };
            if !(distance.is_finite() && *distance >= 0.0 && wheel.is_finite()) {
                return Err(RefereeError::Malformed(
                    "distances must be finite and not negative".into(),
                ));
            }
            let legal =
                crate::moves::check_charge(&data, *troop, *wheel, (distance - wheel).max(0.0));
            let normal = normal.unwrap_or(row.normal);
            let test_at = crate::reaction::charge_test_point(normal, *distance);
            let mut rules = vec!["WRG-MOVE-04", "WRG-MOVE-06", "WRG-RT-12", "WRG-RT-13"];
            let evade = match evader {
                Some(e) => {
                    rules.push("WRG-MOVE-11");
                    // The evader moves when the charger has used its normal move (WRG-R-10).
                    let used = normal.min(*distance);
                    crate::moves::evade(&data, *e, distance - used, charge - used, *detour)
                }
                None => None,
            };
            Ok(json!({
                "question": "charge",
                "legal": legal.is_ok(),
                "refusal": legal.err().map(|r| r.to_string()),
                "charge": charge,
                "max_wheel": crate::moves::max_charge_wheel(row),
                "test_at": test_at,
                "evade": evade,
                "rules": dedup(rules),
            }))
        }
        Question::Army { toml, file } => {
            let data = data_with(&BTreeMap::new())?;
            let source = match (toml, file) {
                (Some(t), None) => Source::new("army", t.clone()),
                (None, Some(f)) => Source::read(std::path::Path::new(f))
                    .map_err(|d| RefereeError::Malformed(d.to_string()))?,
                _ => return Err(RefereeError::Malformed("give either `toml` or `file`".into())),
            };
            match crate::army::load(&data, &source) {
                Ok(a) => Ok(json!({
                    "question": "army",
                    "legal": true,
                    "points": a.points,
                    "regular_points": a.regular_points,
                    "limit": data.points.competition.limit,
                    "advice": crate::army::advise(&data, &a),
                    "rules": ["WRG-ARMY-01", "WRG-ARMY-02", "WRG-ARMY-03"],
                })),
                Err(d) => Ok(json!({
                    "question": "army",
                    "legal": false,
                    "problems": d.iter().map(|x| x.to_string()).collect::<Vec<_>>(),
                    "rules": ["WRG-ARMY-01", "WRG-ARMY-02", "WRG-ARMY-03"],
                })),
            }
        }
    }
}

fn fighter(data: &Data, s: &FightSide) -> Result<Fighter, RefereeError> {
    let (black, red) = crate::random::melee_dice(data, s.status);
    if !black.can_show(s.dice.black) {
        return Err(refused(
            "WRG-RAND-02",
            format!("the black die ({}) cannot show {}", black.name(), s.dice.black),
        ));
    }
    if !red.can_show(s.dice.red) {
        return Err(refused(
            "WRG-RAND-02",
            format!("the red die ({}) cannot show {}", red.name(), s.dice.red),
        ));
    }
    if s.groups.iter().all(|g| g.figures == 0) {
        return Err(refused("WRG-MELEE-01", "no figures are fighting"));
    }
    Ok(Fighter {
        troop: s.troop,
        status: s.status,
        figures: s.figures,
        carried: s.carried,
        groups: s.groups.clone(),
        tactical: s.tactical.clone(),
        general: s.general,
        black: s.dice.black,
        red: s.dice.red,
    })
}

fn verdict_rules(v: &crate::after::Verdict) -> Vec<&'static str> {
    use crate::after::Verdict::*;
    match v {
        FightOn => vec!["WRG-MELEE-07"],
        Breaks { rule, .. } => vec![rule],
        MountedFallBack { .. } => vec!["WRG-AFTER-02"],
        BothFallBack { .. } => vec!["WRG-AFTER-04"],
        PushedBack { .. } => vec!["WRG-AFTER-05"],
    }
}

fn dedup<S: AsRef<str>>(v: Vec<S>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(v.len());
    for r in v {
        if !out.iter().any(|x| x == r.as_ref()) {
            out.push(r.as_ref().to_string());
        }
    }
    out
}
