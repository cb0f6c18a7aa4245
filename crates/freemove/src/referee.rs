//! The referee for a real table: the players throw their own dice and ask what they make of
//! them — a melee's totals, winner and losses stand by stand, a volley, a recovery roll, shock,
//! a pull-out's price and the timer's window. The answers use the same formulas as play
//! (`combat::melee_losses`, `combat::spread`, `combat::pull_out_penalty`, `combat::shock_kills`,
//! `Freemove::staged`, `scenario::primary`) and cite their rules.

use crate::Freemove;
use crate::combat::{melee_losses, pull_out_penalty, shock_kills, spread};
use crate::data::{Class, Kill};
use serde::{Deserialize, Serialize};

/// Why a question cannot be answered.
#[derive(Debug, thiserror::Error)]
pub enum RefereeError {
    /// Not a question this referee knows, or a field is wrong.
    #[error("malformed question: {0}")]
    Malformed(String),
}

/// One stand in a melee at the table.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeStand {
    /// Its name or flag number, to tell the answer's lines apart.
    #[serde(default)]
    pub name: String,
    /// Its points now, from the roster.
    pub points: u32,
    /// It fights in a defensive position or square (×1.5): `hill`, `wall`, `house`, `square`.
    #[serde(default)]
    pub defence: Option<String>,
}

/// A question.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(tag = "question", rename_all = "snake_case", deny_unknown_fields)]
pub enum Question {
    /// A melee round: the counted stands of each side and the dice thrown (red, blue, and a
    /// pair more for every tie).
    Melee {
        /// Red's counted stands.
        red: Vec<MeleeStand>,
        /// Blue's counted stands.
        blue: Vec<MeleeStand>,
        /// The dice, red then blue, pair by pair.
        dice: Vec<u8>,
    },
    /// A volley.
    Volley {
        /// The target's type (`heavy_infantry`, `light_cavalry`, …).
        target: String,
        /// `front`, `flank` (flank or rear) or `cover` (defensive position or hill).
        from: String,
        /// The die thrown, where one is needed.
        #[serde(default)]
        die: Option<u8>,
    },
    /// A recovery roll.
    Recovery {
        /// The die.
        die: u8,
    },
    /// Shock: the heavy cavalry's points in the melee.
    Shock {
        /// Points.
        points: u32,
    },
    /// A pull-out: the withdrawing stands' points.
    PullOut {
        /// Points.
        points: u32,
    },
    /// The timer: each army's starting stands, the stands destroyed so far, and the seconds a
    /// move of one stand takes at this table.
    Window {
        /// Red's stands at the start.
        red: u32,
        /// Blue's stands at the start.
        blue: u32,
        /// Stands destroyed, both armies.
        #[serde(default)]
        lost: u32,
        /// Seconds to move one stand one measured step (default 4).
        #[serde(default)]
        handling_seconds: Option<f64>,
    },
}

/// An answer: the figures, in words, and the rules.
#[derive(Clone, Debug, Serialize)]
pub struct Answer {
    /// The answer in a sentence or two.
    pub text: String,
    /// The figures.
    pub figures: serde_json::Value,
    /// The rules applied.
    pub rules: Vec<String>,
}

/// Answers a question given as JSON.
pub fn answer(question: &serde_json::Value) -> Result<serde_json::Value, RefereeError> {
    let q: Question = serde_json::from_value(question.clone())
        .map_err(|e| RefereeError::Malformed(e.to_string()))?;
    let a = Freemove::new().answer(&q)?;
    serde_json::to_value(a).map_err(|e| RefereeError::Malformed(e.to_string()))
}

fn die(v: u8) -> Result<u8, RefereeError> {
    if (1..=6).contains(&v) {
        Ok(v)
    } else {
        Err(RefereeError::Malformed(format!("a d6 shows 1 to 6, not {v}")))
    }
}

impl Freemove {
    /// Answers a question.
    pub fn answer(&self, q: &Question) -> Result<Answer, RefereeError> {
        match q {
            Question::Melee { red, blue, dice } => self.melee_answer(red, blue, dice),
            Question::Volley { target, from, die: d } => {
                let t = self.data.troop(target).map(|i| &self.data.troops[i]).ok_or_else(|| {
                    RefereeError::Malformed(format!("unknown stand type '{target}'"))
                })?;
                let k = &self.data.killing;
                let light = t.class == Class::Light;
                let (kill, rules): (&Kill, Vec<&str>) = match from.as_str() {
                    "front" if light => (&k.light_front, vec!["FMT-FIRE-05"]),
                    "front" => (&k.heavy_front, vec!["FMT-FIRE-06", "FMT-R-12"]),
                    "flank" if light => (&k.light_flank, vec!["FMT-FIRE-05", "FMT-R-39"]),
                    "flank" => (&k.heavy_flank, vec!["FMT-FIRE-07", "FMT-R-39"]),
                    "cover" if light => (&k.light_cover, vec!["FMT-DEF-01", "FMT-DEF-02"]),
                    "cover" => (&k.heavy_cover, vec!["FMT-DEF-01", "FMT-DEF-03", "FMT-R-13"]),
                    other => {
                        return Err(RefereeError::Malformed(format!(
                            "from is front, flank or cover, not '{other}'"
                        )));
                    }
                };
                let mut rules: Vec<String> = rules.iter().map(|r| r.to_string()).collect();
                rules.push("FMT-FIRE-04".into());
                let (hit, text) = match kill.faces() {
                    None => (
                        true,
                        format!("against {} ({from}) a volley kills one point for sure", t.name),
                    ),
                    Some(faces) => {
                        let Some(v) = d else {
                            return Err(RefereeError::Malformed(format!(
                                "against {} ({from}) a die is thrown: faces {faces:?} kill",
                                t.name
                            )));
                        };
                        let v = die(*v)?;
                        let hit = faces.contains(&v);
                        (
                            hit,
                            format!(
                                "against {} ({from}) a {v} {}: faces {faces:?} kill one point",
                                t.name,
                                if hit { "kills" } else { "misses" }
                            ),
                        )
                    }
                };
                Ok(Answer {
                    text,
                    figures: serde_json::json!({"hit": hit, "kills": hit as u32}),
                    rules,
                })
            }
            Question::Recovery { die: d } => {
                let v = die(*d)?;
                let (text, rule) = match v {
                    1 => (
                        "still shaken: it falls back one more normal move and rolls again at the next timed move",
                        "FMT-MOR-07",
                    ),
                    2 | 3 => (
                        "it may turn and fight or fall back, and may shoot, but may not advance into combat; it rolls again next timed move",
                        "FMT-MOR-08",
                    ),
                    _ => ("morale restored: it may go back into combat", "FMT-MOR-09"),
                };
                Ok(Answer {
                    text: format!("a {v}: {text}"),
                    figures: serde_json::json!({"die": v}),
                    rules: vec!["FMT-MOR-06".into(), rule.into(), "FMT-R-31".into()],
                })
            }
            Question::Shock { points } => {
                let per = self.data.rules.melee.shock_points;
                let k = shock_kills(*points, per);
                Ok(Answer {
                    text: format!(
                        "{points} points of heavy cavalry: {k} shock kill(s), one for every full {per}, taken off the defenders before the dice"
                    ),
                    figures: serde_json::json!({"kills": k}),
                    rules: vec!["FMT-SHOCK-02".into(), "FMT-SHOCK-03".into()],
                })
            }
            Question::PullOut { points } => {
                let pct = self.data.rules.melee.pull_out_percent;
                let p = if *points == 0 { 0 } else { pull_out_penalty(*points, pct) };
                Ok(Answer {
                    text: format!(
                        "pulling out with {points} points costs {pct}% of them, {p}; the stands fall back {} moves and stand still for the next timed move",
                        self.data.rules.melee.pull_out_moves
                    ),
                    figures: serde_json::json!({"penalty": p}),
                    rules: vec!["FMT-MELEE-23".into(), "FMT-MELEE-24".into(), "FMT-R-18".into()],
                })
            }
            Question::Window { red, blue, lost, handling_seconds } => {
                let h =
                    handling_seconds.unwrap_or(self.data.rules.clock.handling_ms as f64 / 1000.0);
                if !(h.is_finite() && (0.1..=600.0).contains(&h)) {
                    return Err(RefereeError::Malformed("handling_seconds is 0.1 to 600".into()));
                }
                let (red, blue) = (*red.min(&100_000), *blue.min(&100_000));
                let sides = [info(red), info(blue)];
                let c = &self.data.rules.clock;
                let primary = crate::scenario::primary(
                    (h * 1000.0).round() as u64,
                    &sides,
                    c.round_ms,
                    c.minimum_ms,
                );
                let start = red + blue;
                let share = if start == 0 { 0.0 } else { (*lost).min(start) as f64 / start as f64 };
                let (len, _) = self.staged(primary, share);
                Ok(Answer {
                    text: format!(
                        "{} s on the timer: half the time to move the average army one step ({} s a stand), cut as the armies fall ({} of {start} stands lost)",
                        len / 1000,
                        h,
                        lost
                    ),
                    figures: serde_json::json!({"primary_ms": primary, "window_ms": len}),
                    rules: vec![
                        "FMT-TIME-02".into(),
                        "FMT-TIME-03".into(),
                        "FMT-TIME-04".into(),
                        "FMT-R-02".into(),
                        "FMT-R-03".into(),
                    ],
                })
            }
        }
    }

    fn melee_answer(
        &self,
        red: &[MeleeStand],
        blue: &[MeleeStand],
        dice: &[u8],
    ) -> Result<Answer, RefereeError> {
        if red.is_empty() || blue.is_empty() || red.len() + blue.len() > 200 {
            return Err(RefereeError::Malformed("each side needs 1 to 100 counted stands".into()));
        }
        let total = |v: &[MeleeStand]| -> Result<(u32, u32), RefereeError> {
            let (mut p, mut h) = (0u32, 0u32);
            for s in v {
                if s.points > 100 {
                    return Err(RefereeError::Malformed("a stand has at most 100 points".into()));
                }
                let halves = match s.defence.as_deref() {
                    None => 2,
                    Some("hill" | "wall" | "house" | "square") => {
                        self.data.rules.melee.defensive_halves
                    }
                    Some(o) => {
                        return Err(RefereeError::Malformed(format!(
                            "defence is hill, wall, house or square, not '{o}'"
                        )));
                    }
                };
                p += s.points;
                h += s.points * halves;
            }
            Ok((p, h))
        };
        let (rp, rh) = total(red)?;
        let (bp, bh) = total(blue)?;
        if dice.len() < 2 || !dice.len().is_multiple_of(2) || dice.len() > 40 {
            return Err(RefereeError::Malformed("the dice come in pairs, red then blue".into()));
        }
        let mut winner = None;
        let mut used = 0;
        for pair in dice.chunks(2) {
            let (a, b) = (die(pair[0])? as u32 * rh, die(pair[1])? as u32 * bh);
            used += 2;
            if a != b {
                winner = Some(if a > b { "red" } else { "blue" });
                break;
            }
        }
        let Some(w) = winner else {
            return Err(RefereeError::Malformed(
                "the products are equal: throw both dice again and add them (FMT-R-17)".into(),
            ));
        };
        let (lpts, loser, winner_stands) =
            if w == "red" { (bp, blue, red) } else { (rp, red, blue) };
        let (ll, wl) = melee_losses(lpts);
        let share = |v: &[MeleeStand], loss: u32| -> Vec<serde_json::Value> {
            let pts: Vec<(usize, u32)> = v.iter().enumerate().map(|(i, s)| (i, s.points)).collect();
            spread(&pts, loss)
                .into_iter()
                .map(|(i, k)| serde_json::json!({"stand": if v[i].name.is_empty() { format!("#{}", i + 1) } else { v[i].name.clone() }, "kills": k}))
                .collect()
        };
        let (d_r, d_b) = (dice[used - 2], dice[used - 1]);
        Ok(Answer {
            text: format!(
                "red {} × {} = {}, blue {} × {} = {}: {w} wins; the loser loses {ll} (half its {lpts} counted points, rounded up) and falls back three moves, the winner loses {wl}",
                d_r,
                rh as f64 / 2.0,
                d_r as f64 * rh as f64 / 2.0,
                d_b,
                bh as f64 / 2.0,
                d_b as f64 * bh as f64 / 2.0
            ),
            figures: serde_json::json!({
                "red": {"points": rp, "value": rh as f64 / 2.0},
                "blue": {"points": bp, "value": bh as f64 / 2.0},
                "winner": w,
                "loser_loss": ll,
                "winner_loss": wl,
                "loser_kills": share(loser, ll),
                "winner_kills": share(winner_stands, wl),
            }),
            rules: [
                "FMT-MELEE-04",
                "FMT-MELEE-05",
                "FMT-MELEE-06",
                "FMT-MELEE-07",
                "FMT-MELEE-21",
                "FMT-R-17",
                "FMT-R-18",
                "FMT-R-19",
            ]
            .iter()
            .map(|r| r.to_string())
            .collect(),
        })
    }
}

fn info(stands: u32) -> crate::state::SideInfo {
    crate::state::SideInfo {
        side: tabletop::Side::Red,
        name: String::new(),
        edge: crate::state::Edge::South,
        start_points: 0,
        start_stands: stands,
    }
}

#[cfg(test)]
mod tests {
    use super::answer;
    use serde_json::json;

    #[test]
    fn a_melee_at_the_table_is_judged_as_in_play_fmt_melee_04_05_06_r_17() {
        let a = answer(&json!({"question": "melee",
            "red": [{"name": "I", "points": 8}, {"name": "II", "points": 6}],
            "blue": [{"name": "Warband", "points": 8, "defence": "hill"}],
            "dice": [3, 3, 5, 2]}))
        .unwrap();
        // Red 14 points, value 14 × 5 = 70; blue 8 × 1.5 = 12 × 2 = 24 after a tie of 42 each.
        assert_eq!(a["figures"]["winner"], "red");
        assert_eq!(a["figures"]["loser_loss"], 4);
        assert_eq!(a["figures"]["winner_loss"], 2);
        assert_eq!(
            a["figures"]["winner_kills"],
            json!([{"stand": "I", "kills": 1}, {"stand": "II", "kills": 1}])
        );
    }

    #[test]
    fn volleys_recovery_shock_pull_outs_and_the_timer() {
        assert_eq!(answer(&json!({"question": "volley", "target": "heavy_infantry", "from": "cover", "die": 4})).unwrap()["figures"]["hit"], false);
        assert_eq!(
            answer(&json!({"question": "volley", "target": "light_cavalry", "from": "front"}))
                .unwrap()["figures"]["hit"],
            true
        );
        assert!(
            answer(&json!({"question": "recovery", "die": 1})).unwrap()["rules"]
                .to_string()
                .contains("FMT-MOR-07")
        );
        assert_eq!(
            answer(&json!({"question": "shock", "points": 16})).unwrap()["figures"]["kills"],
            2
        );
        assert_eq!(
            answer(&json!({"question": "pull_out", "points": 12})).unwrap()["figures"]["penalty"],
            2
        );
        // 4 s × 40 stands / 4 = 40 s; half the armies lost, 20 s.
        let w = answer(&json!({"question": "window", "red": 20, "blue": 20, "lost": 20})).unwrap();
        assert_eq!(
            (w["figures"]["primary_ms"].as_u64(), w["figures"]["window_ms"].as_u64()),
            (Some(40_000), Some(20_000))
        );
        assert!(
            answer(&json!({"question": "volley", "target": "heavy_infantry", "from": "front"}))
                .is_err()
        );
        assert!(answer(&json!({"question": "melee", "red": [], "blue": [], "dice": []})).is_err());
    }
}
