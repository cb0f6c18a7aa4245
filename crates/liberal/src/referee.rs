//! The referee for a real table: the players throw their own dice and ask what they make of
//! them — a volley on the stand-in chart and its casualty count walking along the target, a
//! rank fight (or a house fight) from the single fights' dice, and a gun's shot. The answers
//! use the engine's own functions (`Liberal::band_for`, `Liberal::stand_in`,
//! `Liberal::count_along`, `Liberal::shot_dice`, `melee::contest` and `Liberal::man_of`), fed
//! the dice thrown at the table in the order the engine reads them, and cite their rules.

use crate::Liberal;
use crate::data::{Fate, Kind};
use crate::melee::{Man, contest};
use crate::state::{Hit, Shot};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tabletop::dice::{DiceSource, Die};

/// Why a question cannot be answered.
#[derive(Debug, thiserror::Error)]
pub enum RefereeError {
    /// Not a question this referee knows, or a field is wrong.
    #[error("malformed question: {0}")]
    Malformed(String),
}

fn bad(s: impl Into<String>) -> RefereeError {
    RefereeError::Malformed(s.into())
}

/// The target formation a casualty count walks along (LIB-CAS-04, LIB-R-03).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Target {
    /// Figures in each full rank, counted from the unit's own left.
    pub per_rank: usize,
    /// Ranks.
    pub ranks: usize,
    /// Figures in the ranks when the last rank is short (default `per_rank × ranks`).
    #[serde(default)]
    pub figures: Option<usize>,
}

/// One figure (or several alike) in a rank of a hand-to-hand.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Fighter {
    /// Its troop type: `infantry`, `grenadiers`, `sharpshooters`, `light_cavalry`,
    /// `heavy_cavalry`, `artillerymen`.
    #[serde(rename = "type")]
    pub troop: String,
    /// How many such figures stand here, left to right (default 1).
    #[serde(default = "one")]
    pub count: usize,
    /// Horse on horseback (default true for horse; foot never is).
    #[serde(default)]
    pub mounted: Option<bool>,
    /// `square` or `house` for a defender fighting in one (+1 each, LIB-SQUARE-02,
    /// LIB-HOUSE-01); absent in the open.
    #[serde(default, rename = "in")]
    pub within: Option<String>,
    /// It is the colour bearer with the flag: a lost fight takes the flag column (LIB-HTH-06).
    #[serde(default)]
    pub colour_bearer: bool,
    /// A name for the answer's lines.
    #[serde(default)]
    pub name: Option<String>,
}

fn one() -> usize {
    1
}

/// A question.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(tag = "question", rename_all = "snake_case", deny_unknown_fields)]
pub enum Question {
    /// A volley on the stand-in chart, and its casualty count along the target.
    Volley {
        /// The firers' troop type (default `infantry`): it sets the range and the band shift.
        #[serde(default)]
        firer: Option<String>,
        /// Cavalry firing on horseback, standing fast (LIB-R-18): the mounted range.
        #[serde(default)]
        mounted: bool,
        /// F: the eligible firing figures (front two ranks in the cone, half a column, …).
        figures: u32,
        /// The nearest edge-to-edge distance, inches (or give `band`).
        #[serde(default)]
        distance: Option<f64>,
        /// The firers' range, inches, instead of the type's.
        #[serde(default)]
        range: Option<f64>,
        /// The band by name (`short`, `medium`, `long`) instead of a distance.
        #[serde(default)]
        band: Option<String>,
        /// `none`, `light` (a wood, a hedge) or `heavy` (a wall, a house).
        #[serde(default)]
        cover: Option<String>,
        /// The D-sided remainder die, when F is not a multiple of D.
        #[serde(default)]
        remainder_die: Option<u8>,
        /// The count's d6s in the order read, one a casualty.
        #[serde(default)]
        count_dice: Vec<u8>,
        /// The target's formation, for the count.
        #[serde(default)]
        target: Option<Target>,
    },
    /// A rank fight of single fights (or a house fight) from the dice thrown.
    RankFight {
        /// The attacker's front rank, left to right (more figures: more ranks of `width`).
        attacker: Vec<Fighter>,
        /// The defender's figures, left to right, lined up in ranks as wide as the attacker's.
        defender: Vec<Fighter>,
        /// The attacker's rank width (default: all its figures in one rank).
        #[serde(default)]
        width: Option<usize>,
        /// The dice in order: each fight the attacker's d6 and the defender's, again after a
        /// tie thrown again, then the loser's fate d6.
        dice: Vec<u8>,
    },
    /// A gun's shot.
    GunShot {
        /// `horse_artillery` or `foot_artillery` (`horse`, `foot`).
        gun: String,
        /// `round` or `grape`.
        shot: String,
        /// Inches from the gun to the target.
        distance: f64,
        /// `none`, `light` or `heavy` (grape ignores it).
        #[serde(default)]
        cover: Option<String>,
        /// The target is a gun (a 6 on the casualty die destroys it, LIB-R-23).
        #[serde(default)]
        target_is_gun: bool,
        /// The dice in order: round shot the to-hit d6, the casualty d6 on a hit, and the crew
        /// d6 when the gun is destroyed; grape the casualty d6.
        dice: Vec<u8>,
        /// The count's d6s, one a casualty.
        #[serde(default)]
        count_dice: Vec<u8>,
        /// The target's formation, for the count.
        #[serde(default)]
        target: Option<Target>,
    },
}

/// An answer: the figures, in words, and the rules.
#[derive(Clone, Debug, Serialize)]
pub struct Answer {
    /// The answer in a sentence or a few.
    pub text: String,
    /// The figures, with how each total was made.
    pub figures: Value,
    /// The rules applied.
    pub rules: Vec<String>,
}

/// Answers a question given as JSON.
pub fn answer(question: &Value) -> Result<Value, RefereeError> {
    let q: Question = serde_json::from_value(question.clone()).map_err(|e| bad(e.to_string()))?;
    let a = Liberal::new().answer(&q)?;
    serde_json::to_value(a).map_err(|e| bad(e.to_string()))
}

/// The dice thrown at the table, read in order by the engine's own functions; running out or
/// a face the die cannot show is kept as the problem, named by the question's field.
struct TableDice<'a> {
    faces: &'a [u8],
    used: usize,
    field: &'static str,
    problem: Option<String>,
}

impl<'a> TableDice<'a> {
    fn new(faces: &'a [u8], field: &'static str) -> Self {
        TableDice { faces, used: 0, field, problem: None }
    }

    /// The dice used, or the problem; `exact` refuses dice left over.
    fn finish(&self, exact: bool) -> Result<(), RefereeError> {
        if let Some(p) = &self.problem {
            return Err(bad(p.clone()));
        }
        if exact && self.used < self.faces.len() {
            return Err(bad(format!(
                "{}: {} dice given, {} read; the last {} are not needed",
                self.field,
                self.faces.len(),
                self.used,
                self.faces.len() - self.used
            )));
        }
        Ok(())
    }
}

impl DiceSource for TableDice<'_> {
    fn face(&mut self, die: Die) -> u8 {
        let at = self.used;
        self.used += 1;
        match self.faces.get(at) {
            Some(&v) if die.can_show(v) => v,
            Some(&v) => {
                self.problem.get_or_insert_with(|| {
                    format!(
                        "{}[{at}] is {v}: a {} shows 1 to {}",
                        self.field,
                        die.name(),
                        faces(die)
                    )
                });
                1
            }
            None => {
                self.problem.get_or_insert_with(|| {
                    format!(
                        "{}: the dice ran out: {} given, die {} (a {}) is needed",
                        self.field,
                        self.faces.len(),
                        at + 1,
                        die.name()
                    )
                });
                1
            }
        }
    }
}

fn faces(die: Die) -> u8 {
    (1..=255u8).rev().find(|v| die.can_show(*v)).unwrap_or(6)
}

fn fate_name(f: Fate) -> String {
    serde_json::to_value(f).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

fn ids(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v.dedup();
    v
}

impl Liberal {
    /// Answers a question.
    pub fn answer(&self, q: &Question) -> Result<Answer, RefereeError> {
        match q {
            Question::Volley {
                firer,
                mounted,
                figures,
                distance,
                range,
                band,
                cover,
                remainder_die,
                count_dice,
                target,
            } => self.volley_answer(
                firer.as_deref(),
                *mounted,
                *figures,
                (*distance, *range, band.as_deref()),
                cover.as_deref(),
                *remainder_die,
                count_dice,
                target.as_ref(),
            ),
            Question::RankFight { attacker, defender, width, dice } => {
                self.rank_fight_answer(attacker, defender, *width, dice)
            }
            Question::GunShot {
                gun,
                shot,
                distance,
                cover,
                target_is_gun,
                dice,
                count_dice,
                target,
            } => self.gun_answer(
                gun,
                shot,
                *distance,
                cover.as_deref(),
                *target_is_gun,
                dice,
                count_dice,
                target.as_ref(),
            ),
        }
    }

    /// The casualties taken off for cover, its name and rules.
    fn cover_of(&self, cover: Option<&str>) -> Result<(u32, &'static str), RefereeError> {
        let f = &self.data.rules.fire;
        Ok(match cover.unwrap_or("none") {
            "none" => (0, "no cover"),
            "light" | "wood" | "hedge" => (f.light_cover, "light cover"),
            "heavy" | "wall" | "house" => (f.heavy_cover, "heavy cover"),
            o => {
                return Err(bad(format!(
                    "cover is none, light (a wood, a hedge) or heavy (a wall, a house), not '{o}'"
                )));
            }
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn volley_answer(
        &self,
        firer: Option<&str>,
        mounted: bool,
        figures: u32,
        (distance, range, band): (Option<f64>, Option<f64>, Option<&str>),
        cover: Option<&str>,
        remainder_die: Option<u8>,
        count_dice: &[u8],
        target: Option<&Target>,
    ) -> Result<Answer, RefereeError> {
        let mut rules = vec!["LIB-FIRE-07", "LIB-R-01", "LIB-M-26"];
        let name = firer.unwrap_or("infantry");
        let troop =
            self.data.troop(name).filter(|t| self.data.troops[*t].kind != Kind::Crew).ok_or_else(
                || {
                    let known: Vec<&str> = self
                        .data
                        .troops
                        .iter()
                        .filter(|t| t.kind != Kind::Crew)
                        .map(|t| t.id.as_str())
                        .collect();
                    bad(format!("firer: unknown firing troop type '{name}': {}", known.join(", ")))
                },
            )?;
        let t = &self.data.troops[troop];
        if figures == 0 || figures > 500 {
            return Err(bad("figures: F, the firing figures, is 1 to 500"));
        }
        if mounted && t.kind != Kind::Horse {
            return Err(bad(format!("mounted: {} are not horse", t.name)));
        }
        let bands = &self.data.rules.fire.band;
        let (bi, how) = match (distance, band) {
            (Some(_), Some(_)) => return Err(bad("give distance or band, not both")),
            (None, None) => {
                return Err(bad("distance (inches) or band (short, medium, long) is needed"));
            }
            (None, Some(b)) => {
                let i = bands.iter().position(|x| x.name == b).ok_or_else(|| {
                    let names: Vec<&str> = bands.iter().map(|x| x.name.as_str()).collect();
                    bad(format!("band: '{b}' is not a band: {}", names.join(", ")))
                })?;
                (i, format!("the {b} band, as given"))
            }
            (Some(d), None) => {
                let r = match range {
                    Some(r) if r.is_finite() && r > 0.0 && r <= 200.0 => r,
                    Some(_) => return Err(bad("range: a positive number of inches, at most 200")),
                    None if mounted => {
                        rules.push("LIB-R-18");
                        t.range_mounted.unwrap_or(t.range)
                    }
                    None => t.range,
                };
                rules.push("LIB-FIRE-01");
                if !(d.is_finite() && d >= 0.0) {
                    return Err(bad("distance: inches, 0 or more"));
                }
                if d > r + 1e-9 {
                    return Err(bad(format!(
                        "distance: {d}\" is beyond the firers' range of {r}\": no fire and no partial effect (LIB-FIRE-08)"
                    )));
                }
                let i = self.band_for(troop, d, r);
                let share = d / r;
                let shift = if t.band_shift > 0 {
                    format!(", {} band(s) shorter for {} (NIS)", t.band_shift, t.name)
                } else {
                    String::new()
                };
                (i, format!("{d}\" of a {r}\" range is {:.0}% of it{shift}", share * 100.0))
            }
        };
        let b = &bands[bi];
        let d = b.per_casualty;
        let (cover_n, cover_name) = self.cover_of(cover)?;
        if cover_n > 0 {
            rules.extend(["LIB-R-41", "LIB-M-09"]);
        }
        let faces = [remainder_die.unwrap_or(0)];
        let used: &[u8] = if remainder_die.is_some() { &faces } else { &[] };
        let mut rd = TableDice::new(used, "remainder_die");
        let (base, remainder, extra) = self.stand_in(figures, d, &mut rd);
        if remainder.is_none() && remainder_die.is_some() {
            return Err(bad(format!(
                "remainder_die: {figures} is a multiple of {d}: no remainder die is thrown"
            )));
        }
        rd.finish(true)?;
        let rem = figures % d;
        let casualties = (base + extra).saturating_sub(cover_n);
        let mut text = format!(
            "{figures} firing figures, {how}: the {} band, {d} figures a casualty (stand-in chart, not in source); {figures} ÷ {d} = {base}",
            b.name
        );
        if let Some(r) = &remainder {
            text += &format!(
                ", remainder {rem}: the d{d} shows {}, {} {rem}, so {} more",
                r.value,
                if extra > 0 { "at most" } else { "more than" },
                extra
            );
        }
        let plural = if casualties == 1 { "y" } else { "ies" };
        text += &if cover_n > 0 {
            format!("; {cover_name} takes off {cover_n}: {casualties} casualt{plural}")
        } else {
            format!("; no cover: {casualties} casualt{plural}")
        };
        let mut fig = json!({
            "firers": figures,
            "firer": t.id,
            "band": b.name,
            "band_basis": how,
            "per_casualty": d,
            "base": base,
            "remainder": rem,
            "remainder_die": remainder.as_ref().map(|r| r.value),
            "extra": extra,
            "cover": cover_n,
            "cover_kind": cover_name,
            "casualties": casualties,
        });
        let (count_text, count) =
            self.count_answer(casualties, count_dice, target, "LIB-CAS-02")?;
        if let Some(c) = count {
            rules.extend(["LIB-CAS-01", "LIB-CAS-02", "LIB-CAS-03", "LIB-CAS-04", "LIB-CAS-05"]);
            rules.extend(["LIB-R-02", "LIB-R-03", "LIB-R-04"]);
            fig["count"] = c;
        }
        text += &count_text;
        Ok(Answer { text, figures: fig, rules: ids(&rules) })
    }

    /// The casualty count along the target, if dice were thrown for it.
    fn count_answer(
        &self,
        casualties: u32,
        dice: &[u8],
        target: Option<&Target>,
        rule: &'static str,
    ) -> Result<(String, Option<Value>), RefereeError> {
        let Some(t) = target else {
            if !dice.is_empty() {
                return Err(bad("target: the count needs the target's per_rank and ranks"));
            }
            return Ok((
                if casualties > 0 {
                    format!(
                        ". Throw {casualties} d6 for the count and give the target's ranks to see who falls"
                    )
                } else {
                    String::new()
                },
                None,
            ));
        };
        if t.per_rank == 0 || t.ranks == 0 || t.per_rank * t.ranks > 500 {
            return Err(bad("target: per_rank and ranks are at least 1, at most 500 figures"));
        }
        let n = t.figures.unwrap_or(t.per_rank * t.ranks);
        if n == 0 || n > t.per_rank * t.ranks || n <= t.per_rank * (t.ranks - 1) {
            return Err(bad(format!(
                "target.figures: {n} figures do not fill {} ranks of {}",
                t.ranks, t.per_rank
            )));
        }
        let needed = (casualties as usize).min(n);
        if dice.is_empty() && needed > 0 {
            return Ok((format!(". Throw {needed} d6 for the count along the target"), None));
        }
        if dice.len() != needed {
            return Err(bad(format!(
                "count_dice: {casualties} casualties on {n} figures need {needed} count dice, not {}",
                dice.len()
            )));
        }
        let order: Vec<usize> = (0..n).collect();
        let mut taken = Vec::new();
        let mut td = TableDice::new(dice, "count_dice");
        let hits: Vec<Hit> = self.count_along(&order, casualties, &mut taken, &mut td, rule);
        td.finish(true)?;
        let mut lines = Vec::new();
        let mut rows = Vec::new();
        let mut from = 0usize;
        for (k, h) in hits.iter().enumerate() {
            let (rank, file) = ((h.number - 1) / t.per_rank + 1, (h.number - 1) % t.per_rank + 1);
            // How the count went: round from the last figure to the first when the free
            // figures after the last one reached were too few, and which figures already hit
            // it passed over (all of them when it went round more than once).
            let earlier: Vec<usize> = hits[..k].iter().map(|x| x.number).collect();
            let free = |lo: usize, hi: usize| (lo..=hi).filter(|x| !earlier.contains(x)).count();
            let after = free(from + 1, n);
            let die = h.die as usize;
            let wrapped = die > after;
            let laps = wrapped && die > after + free(1, h.number);
            let skipped: Vec<usize> = earlier
                .iter()
                .copied()
                .filter(|x| {
                    laps || if wrapped {
                        *x > from || *x < h.number
                    } else {
                        *x > from && *x < h.number
                    }
                })
                .collect();
            let start = if from == 0 {
                "from before figure 1".to_string()
            } else {
                format!("on from figure {from}")
            };
            let mut line = format!(
                "die {} counts {} {start}{}{} to figure {} (rank {rank}, {} from the left): {}",
                k + 1,
                h.die,
                if wrapped { ", round from the last figure to the first" } else { "" },
                if skipped.is_empty() {
                    String::new()
                } else {
                    format!(", passing over {skipped:?} already hit")
                },
                h.number,
                ordinal(file),
                fate_name(h.fate).replace('_', " ")
            );
            line = line.replace("  ", " ");
            lines.push(line);
            rows.push(json!({
                "die": h.die,
                "from": from,
                "figure": h.number,
                "rank": rank,
                "file": file,
                "fate": fate_name(h.fate),
                "skipped": skipped,
                "wrapped": wrapped,
            }));
            from = h.number;
        }
        let lost = casualties as usize - hits.len();
        if lost > 0 {
            lines.push(format!("{lost} casualties beyond the unit's {n} figures are lost"));
        }
        Ok((
            format!(". The count: {}", lines.join("; ")),
            Some(json!({"figures": n, "hits": rows, "lost": lost})),
        ))
    }

    fn fighters(
        &self,
        v: &[Fighter],
        side: usize,
        field: &str,
    ) -> Result<(Vec<Man>, Vec<String>, bool), RefereeError> {
        let mut men = Vec::new();
        let mut names = Vec::new();
        let mut all_house = !v.is_empty();
        for (i, f) in v.iter().enumerate() {
            let path = format!("{field}[{i}]");
            let troop = self.data.troop(&f.troop).ok_or_else(|| {
                let known: Vec<&str> = self.data.troops.iter().map(|t| t.id.as_str()).collect();
                bad(format!("{path}.type: unknown troop type '{}': {}", f.troop, known.join(", ")))
            })?;
            let t = &self.data.troops[troop];
            if f.count == 0 || f.count > 200 {
                return Err(bad(format!("{path}.count: 1 to 200 figures")));
            }
            if f.mounted == Some(true) && t.kind != Kind::Horse {
                return Err(bad(format!("{path}.mounted: {} are not horse", t.name)));
            }
            if f.colour_bearer && f.count != 1 {
                return Err(bad(format!(
                    "{path}.colour_bearer: one figure carries the colours (count 1)"
                )));
            }
            let m = &self.data.rules.melee;
            let extra = match f.within.as_deref() {
                None | Some("open") => {
                    all_house = false;
                    0
                }
                Some(w) if side == 0 => {
                    return Err(bad(format!(
                        "{path}.in: the attacker fights at no square or house bonus, not '{w}'"
                    )));
                }
                Some("square") => {
                    all_house = false;
                    m.square_bonus
                }
                Some("house") => m.house_bonus,
                Some(o) => return Err(bad(format!("{path}.in is square or house, not '{o}'"))),
            };
            for _ in 0..f.count {
                let k = men.len();
                men.push(self.man_of(
                    troop,
                    f.mounted.unwrap_or(true),
                    f.colour_bearer,
                    extra,
                    (side, k),
                ));
                let label = match &f.name {
                    Some(n) if f.count == 1 => n.clone(),
                    Some(n) => format!("{n} {}", k + 1),
                    None => format!(
                        "{} {} ({})",
                        if side == 0 { "attacker" } else { "defender" },
                        k + 1,
                        t.name
                    ),
                };
                names.push(label);
            }
        }
        if men.len() > 400 {
            return Err(bad(format!("{field}: at most 400 figures")));
        }
        let some_house = v.iter().any(|f| f.within.as_deref() == Some("house"));
        if some_house && !all_house {
            return Err(bad(format!(
                "{field}: the figures in a house fight for it together: all in the house or none"
            )));
        }
        Ok((men, names, all_house))
    }

    fn rank_fight_answer(
        &self,
        attacker: &[Fighter],
        defender: &[Fighter],
        width: Option<usize>,
        dice: &[u8],
    ) -> Result<Answer, RefereeError> {
        if attacker.is_empty() {
            return Err(bad("attacker: at least one figure"));
        }
        if defender.is_empty() {
            return Err(bad("defender: at least one figure"));
        }
        let (att, an, _) = self.fighters(attacker, 0, "attacker")?;
        let (def, dn, house) = self.fighters(defender, 1, "defender")?;
        let aw = match width {
            None => att.len(),
            Some(w) if (1..=att.len()).contains(&w) => w,
            Some(_) => {
                return Err(bad(format!("width: 1 to the attacker's {} figures", att.len())));
            }
        };
        let mut cited = vec![
            "LIB-HTH-03",
            "LIB-HTH-04",
            "LIB-HTH-05",
            "LIB-HTH-06",
            "LIB-R-05",
            "LIB-R-06",
            "LIB-R-07",
            "LIB-R-44",
        ];
        if house {
            cited.extend(["LIB-HOUSE-01", "LIB-HOUSE-05", "LIB-R-30"]);
        } else {
            cited.push("LIB-R-31");
        }
        if defender.iter().any(|f| f.within.as_deref() == Some("square")) {
            cited.push("LIB-SQUARE-02");
        }
        let mut td = TableDice::new(dice, "dice");
        let (fights, ranks, attacker_won, decided) =
            contest(self, &mut td, &att, &def, aw, house, &mut cited);
        td.finish(true)?;
        let limit = self.data.rules.melee.lost_in_row;
        let name = |side: usize, k: usize| if side == 0 { an[k].clone() } else { dn[k].clone() };
        let mut rows = Vec::new();
        let mut lines = Vec::new();
        let mut at = 0usize;
        let mut streak: (bool, u32) = (true, 0);
        let mut next_rank = 0usize;
        for (k, f) in fights.iter().enumerate() {
            let n_dice = 2 * (f.rerolls as usize + 1) + 1;
            let used = &dice[at..at + n_dice];
            at += n_dice;
            let (ta, td_) = (
                f.attacker_roll.0 as i32 + f.attacker_roll.1,
                f.defender_roll.0 as i32 + f.defender_roll.1,
            );
            let (loser_side, loser) =
                if f.attacker_won { (1, f.defender.1) } else { (0, f.attacker.1) };
            let lost_by_attacker = !f.attacker_won;
            streak = if streak.0 == lost_by_attacker && streak.1 > 0 {
                (lost_by_attacker, streak.1 + 1)
            } else {
                (lost_by_attacker, 1)
            };
            let tie = if ta == td_ { ", a tie won by the man who wins ties" } else { "" };
            let rerolled = if f.rerolls > 0 {
                format!(" after {} tie(s) thrown again", f.rerolls)
            } else {
                String::new()
            };
            let loser_side_name = if loser_side == 0 { "the attacker" } else { "the defender" };
            lines.push(format!(
                "fight {}: {} {}{:+} = {ta} against {} {}{:+} = {td_}{tie}{rerolled}; {} loses, fate die {}: {}; {loser_side_name} has lost {} in a row",
                k + 1,
                name(0, f.attacker.1),
                f.attacker_roll.0,
                f.attacker_roll.1,
                name(1, f.defender.1),
                f.defender_roll.0,
                f.defender_roll.1,
                name(loser_side, loser),
                f.fate_die,
                fate_name(f.fate).replace('_', " "),
                streak.1
            ));
            rows.push(json!({
                "fight": k + 1,
                "dice": used,
                "attacker": name(0, f.attacker.1),
                "attacker_die": f.attacker_roll.0,
                "attacker_bonus": f.attacker_roll.1,
                "attacker_total": ta,
                "defender": name(1, f.defender.1),
                "defender_die": f.defender_roll.0,
                "defender_bonus": f.defender_roll.1,
                "defender_total": td_,
                "rerolls": f.rerolls,
                "winner": if f.attacker_won { "attacker" } else { "defender" },
                "loser": name(loser_side, loser),
                "fate_die": f.fate_die,
                "fate": fate_name(f.fate),
                "losses_in_a_row": streak.1,
                "loser_side": if loser_side == 0 { "attacker" } else { "defender" },
            }));
            while next_rank < decided.len() && decided[next_rank] == k + 1 {
                let (att_lost, men) = &ranks[next_rank];
                let side = if *att_lost { "attacker" } else { "defender" };
                let how = if streak.1 >= limit && streak.0 == *att_lost {
                    format!("{limit} lost in a row")
                } else {
                    "its rank has no figures left".to_string()
                };
                let who: Vec<String> = men.iter().map(|(s, i)| name(*s, *i)).collect();
                lines.push(if house {
                    format!(
                        "the {side} has lost the house fight ({how}); {} fall back 18\"",
                        who.join(", ")
                    )
                } else {
                    format!(
                        "the {side} loses the rank fight ({how}): {} go back 18\"",
                        who.join(", ")
                    )
                });
                streak = (true, 0);
                next_rank += 1;
            }
        }
        let ranks_out: Vec<Value> = ranks
            .iter()
            .zip(decided.iter().copied().chain(std::iter::repeat(fights.len())))
            .map(|((att_lost, men), after)| {
                json!({
                    "loser": if *att_lost { "attacker" } else { "defender" },
                    "after_fight": after,
                    "driven_back": men.iter().map(|(s, i)| name(*s, *i)).collect::<Vec<_>>(),
                })
            })
            .collect();
        let winner = if attacker_won { "attacker" } else { "defender" };
        lines.push(format!(
            "the {winner} wins the {}",
            if house { "house fight" } else { "hand-to-hand" }
        ));
        Ok(Answer {
            text: lines.join("; "),
            figures: json!({
                "house_fight": house,
                "rank_width": aw,
                "fights": rows,
                "ranks_lost": ranks_out,
                "winner": winner,
                "dice_used": at,
            }),
            rules: ids(&cited),
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn gun_answer(
        &self,
        gun: &str,
        shot: &str,
        distance: f64,
        cover: Option<&str>,
        target_is_gun: bool,
        dice: &[u8],
        count_dice: &[u8],
        target: Option<&Target>,
    ) -> Result<Answer, RefereeError> {
        let id = match gun {
            "horse" => "horse_artillery",
            "foot" => "foot_artillery",
            g => g,
        };
        let g = self.data.gun(id).map(|i| &self.data.guns[i]).ok_or_else(|| {
            let known: Vec<&str> = self.data.guns.iter().map(|g| g.id.as_str()).collect();
            bad(format!("gun: unknown gun '{gun}': {} (or horse, foot)", known.join(", ")))
        })?;
        let shot = match shot {
            "round" => Shot::Round,
            "grape" => Shot::Grape,
            o => return Err(bad(format!("shot is round or grape, not '{o}'"))),
        };
        let a = &self.data.rules.artillery;
        let range = match shot {
            Shot::Round => g.range,
            Shot::Grape => a.grape_range.min(g.range),
        };
        if !(distance.is_finite() && distance >= 0.0) {
            return Err(bad("distance: inches, 0 or more"));
        }
        if distance > range + 1e-9 {
            let rule = if shot == Shot::Grape { "LIB-ART-12" } else { "LIB-ART-08" };
            return Err(bad(format!(
                "distance: {distance}\" is beyond the {}'s {range}\" {} range ({rule})",
                g.name,
                if shot == Shot::Grape { "grape" } else { "round-shot" }
            )));
        }
        let (cover_n, cover_name) = self.cover_of(cover)?;
        let mut td = TableDice::new(dice, "dice");
        let c = self.shot_dice(shot, cover_n, target_is_gun, "the target", &mut td);
        td.finish(true)?;
        let mut rules = vec!["LIB-ART-06", "LIB-ART-07"];
        let mut text;
        match shot {
            Shot::Grape => {
                rules.extend(["LIB-ART-12", "LIB-R-24"]);
                text = format!(
                    "grape at {distance}\" (range {range}\"): no to-hit roll, the d6 shows {}: {} casualties, cover ignored{}",
                    c.casualty_die.as_ref().map_or(0, |r| r.value),
                    c.casualties,
                    if target_is_gun { "; grape never destroys a gun" } else { "" }
                );
            }
            Shot::Round => {
                rules.extend(["LIB-ART-08", "LIB-ART-09"]);
                let h = c.to_hit.as_ref().map_or(0, |r| r.value);
                text = format!(
                    "round shot at {distance}\" (range {range}\"): to hit {h}, {} (faces {:?} hit)",
                    if c.hit { "a hit" } else { "a miss" },
                    a.hit_faces
                );
                if c.hit {
                    rules.push("LIB-ART-10");
                    let r = c.casualty_die.as_ref().map_or(0, |r| r.value);
                    if c.destroyed {
                        rules.extend(["LIB-ART-11", "LIB-R-23"]);
                        let k = c.crew_die.as_ref().map_or(0, |r| r.value);
                        text += &format!(
                            "; the casualty die shows an unmodified {r}: the gun is destroyed; the crew die shows {k}, less {cover_n} for {cover_name}: {} casualties",
                            c.casualties
                        );
                    } else {
                        text += &format!(
                            "; the casualty die shows {r}, less {cover_n} for {cover_name}: {} casualties",
                            c.casualties
                        );
                        if target_is_gun {
                            rules.extend(["LIB-ART-11", "LIB-R-23"]);
                            text += &format!(
                                "; the gun stands (only a {} destroys it)",
                                a.destroy_face
                            );
                        }
                    }
                    if cover_n > 0 {
                        rules.push("LIB-M-09");
                    }
                }
            }
        }
        let mut fig = json!({
            "gun": g.id,
            "shot": if shot == Shot::Grape { "grape" } else { "round" },
            "range": range,
            "to_hit_die": c.to_hit.as_ref().map(|r| r.value),
            "hit": c.hit,
            "casualty_die": c.casualty_die.as_ref().map(|r| r.value),
            "destroyed": c.destroyed,
            "crew_die": c.crew_die.as_ref().map(|r| r.value),
            "cover": c.cover,
            "casualties": c.casualties,
        });
        let (count_text, count) =
            self.count_answer(c.casualties, count_dice, target, "LIB-ART-13")?;
        if let Some(v) = count {
            rules.extend(["LIB-ART-13", "LIB-CAS-02", "LIB-CAS-03", "LIB-CAS-04", "LIB-R-03"]);
            fig["count"] = v;
        }
        text += &count_text;
        Ok(Answer { text, figures: fig, rules: ids(&rules) })
    }
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
