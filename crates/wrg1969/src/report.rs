//! What a step of the period tells the battle log: a sentence, the rules it applied, the dice it
//! threw, every total it worked out with the parts that made it, and the facts an umpire checks.
//! The steps of a period return notes; the rule set turns each into a log line.

use serde::{Deserialize, Serialize};
use tabletop::dice::Roll;
use tabletop::geometry::Point;
use tabletop::rules::RuleId;

/// One thing that happened, in words, with its rules, dice, totals and facts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Note {
    /// The rules applied (one at least).
    pub rules: Vec<RuleId>,
    /// What happened, in a sentence.
    pub text: String,
    /// The dice thrown for it, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<Roll>,
    /// Every total it worked out (a score, a factor, an allowance), each with its parts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub totals: Vec<Total>,
    /// What happened, as data an umpire's checker reads (units, places, numbers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fact: Option<Fact>,
}

/// A number the rules work out, and how: its parts add up to it exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Total {
    /// What the number is, in a few words ("reaction score", "Hoplites' factor").
    pub what: String,
    /// The number.
    pub value: f64,
    /// The parts, in the order they were counted; their values add up to `value`.
    pub parts: Vec<Part>,
}

/// One part of a total: its value, what it is, and the rule that counts it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Part {
    /// The rule that counts it.
    pub rule: RuleId,
    /// What it is, in a few words ("friend within 15\"", "dice").
    pub what: String,
    /// Its value.
    pub value: f64,
}

/// How a unit moved, for the checker (WRG-R-13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveKind {
    /// A move by its order or its side's plan, at its normal pace (WRG-MOVE-02).
    Normal,
    /// A charge (WRG-MOVE-04).
    Charge,
    /// A countercharge (WRG-ORD-08).
    Countercharge,
    /// An evade (WRG-MOVE-09).
    Evade,
    /// Broken and running (WRG-ROUT-02).
    Rout,
    /// Pursuing routers (WRG-PURS-01).
    Pursuit,
    /// A reaction result that moves the unit back: retreat, retire, fall back (WRG-RRES).
    Back,
    /// A step back of at most 3" (WRG-MOVE-03).
    StepBack,
    /// A push-back, a fall-back after combat or a follow-up (WRG-AFTER).
    AfterCombat,
    /// Breaking off from hand-to-hand (WRG-BRK-01).
    BreakOff,
}

/// Who rode: the General or a messenger (WRG-CHORD-03, -04).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "rider", rename_all = "snake_case")]
pub enum Rider {
    /// A side's General.
    General {
        /// His side.
        side: tabletop::rules::Side,
    },
    /// A messenger, carrying an order to a unit or riding back from it.
    Messenger {
        /// His side.
        side: tabletop::rules::Side,
        /// The unit his order is for.
        unit: u16,
    },
}

/// The facts of a note, as data: what an umpire's checker reads to hold the battle to the rules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "fact", rename_all = "snake_case")]
pub enum Fact {
    /// A unit moved.
    Moved {
        /// The unit.
        unit: u16,
        /// How.
        kind: MoveKind,
        /// Where its standard stood before.
        from: Point,
        /// Where its standard stands after.
        to: Point,
        /// Inches of allowance spent, terrain, obstacles and turns counted.
        spent: f64,
        /// Inches of allowance it had (the totals of the note show how it was made).
        allowance: f64,
    },
    /// A unit took a reaction test (WRG-RTP-01 .. -04): the note's total shows the score's
    /// parts.
    Test {
        /// The unit.
        unit: u16,
        /// Why it tested (WRG-RT).
        trigger: crate::reaction::Trigger,
        /// The chart read: 1 with a current order, 2 without (WRG-RTP-04).
        chart: u8,
        /// The class column read (WRG-CLASS-01 .. -05).
        class: crate::model::ReactionClass,
        /// Regular or barbarian: the dice thrown (WRG-CLASS-06, WRG-RTP-01).
        status: crate::model::Status,
        /// An Asiatic levy, throwing ordinary dice (WRG-M-16).
        levy: bool,
        /// Dice thrown (WRG-RTP-02).
        dice_count: u8,
        /// Their sum.
        dice_total: i32,
        /// The final score (WRG-RTP-03).
        score: i32,
        /// The chart's band.
        result: crate::model::ReactionResult,
        /// What the unit does.
        effect: crate::reaction::Effect,
    },
    /// A cause of disorganisation began or ended for a unit (WRG-DIS-01, -02).
    Disorder {
        /// The unit.
        unit: u16,
        /// The cause (WRG-DIS-03 .. -12).
        cause: crate::combat::Cause,
        /// Whether it began (true) or ended (false).
        began: bool,
        /// Whether the unit is disorganised after it.
        disorganised: bool,
    },
    /// A General or a messenger rode (WRG-CHORD-03, -04): not a unit, so apart from `Moved`.
    Rode {
        /// Who.
        #[serde(flatten)]
        rider: Rider,
        /// Where he was.
        from: Point,
        /// Where he is.
        to: Point,
        /// Inches of allowance spent, the ground paid for.
        spent: f64,
        /// Inches of allowance he had (the totals of the note show how it was made).
        allowance: f64,
    },
    /// A unit shot (WRG-FIRE-07).
    Shot {
        /// The shooting unit.
        shooter: u16,
        /// The unit shot at (none when a General alone is the mark, WRG-GEN-03).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<u16>,
        /// The side whose General alone was shot at.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        general: Option<tabletop::rules::Side>,
        /// The time step of the period the shot was taken at, 1 to 20 (WRG-R-11).
        step: u32,
        /// Figures shooting, crew equivalents counted (the T8 column).
        figures: u32,
        /// The total factor: weapon + tactical + random (WRG-CAS-01).
        factor: i32,
        /// The T8 row read (the factor clamped into the table, WRG-CAS-05).
        row: i32,
        /// Men hit.
        men: u32,
    },
    /// Two units fought a round of hand-to-hand (WRG-MELEE-05, -06).
    Fight {
        /// The two units, lower id first.
        units: [u16; 2],
        /// Figures each fought with (the T8 column).
        figures: [u32; 2],
        /// Each side's total factor.
        factors: [i32; 2],
        /// The T8 row each side read.
        rows: [i32; 2],
        /// Men each side dealt to the other (0 for a side that struck no blow).
        men: [u32; 2],
        /// Whether each side struck at all (caught with their backs turned, they do not).
        struck: [bool; 2],
    },
    /// A blow struck without reply: by pursuers, or at a unit breaking off (WRG-PURS-02,
    /// WRG-BRK-02).
    Blow {
        /// The unit striking.
        striker: u16,
        /// The unit struck.
        target: u16,
        /// Figures striking.
        figures: u32,
        /// The total factor.
        factor: i32,
        /// The T8 row read.
        row: i32,
        /// Men lost.
        men: u32,
    },
    /// A unit's losses applied (WRG-CAS-03).
    Losses {
        /// The unit.
        unit: u16,
        /// Men lost this time.
        men: u32,
        /// Figures before.
        figures_before: u32,
        /// Figures removed, one per 20 men with those carried.
        figures_removed: u32,
        /// Men carried before.
        carried_before: u32,
        /// Men carried after.
        carried_after: u32,
    },
    /// A unit off the table came back onto it, its standard placed here (WRG-LEAVE-02).
    Returned {
        /// The unit.
        unit: u16,
        /// Where its standard stands.
        at: Point,
    },
}

impl Note {
    /// A note citing one rule, with no dice.
    pub fn new(rule: &'static str, text: impl Into<String>) -> Note {
        Note {
            rules: vec![RuleId::new(rule)],
            text: text.into(),
            rolls: vec![],
            totals: vec![],
            fact: None,
        }
    }

    /// The same note with dice.
    pub fn with_rolls(mut self, rolls: Vec<Roll>) -> Note {
        self.rolls = rolls;
        self
    }

    /// The same note citing a further rule.
    pub fn and(mut self, rule: &'static str) -> Note {
        self.rules.push(RuleId::new(rule));
        self
    }

    /// The same note with a further total.
    pub fn with_total(mut self, total: Total) -> Note {
        self.totals.push(total);
        self
    }

    /// The same note with its facts.
    pub fn with_fact(mut self, fact: Fact) -> Note {
        self.fact = Some(fact);
        self
    }

    /// The note in words for the log: the sentence, then each total with its parts and their
    /// rules, then the dice.
    pub fn describe(&self) -> String {
        let mut s = self.text.clone();
        for t in &self.totals {
            s.push_str("; ");
            s.push_str(&t.to_string());
        }
        if !self.rolls.is_empty() {
            let dice: Vec<String> = self.rolls.iter().map(|r| r.to_string()).collect();
            s.push_str(" — ");
            s.push_str(&dice.join(", "));
        }
        s
    }
}

impl Total {
    /// A total with no parts yet.
    pub fn new(what: impl Into<String>) -> Total {
        Total { what: what.into(), value: 0.0, parts: vec![] }
    }

    /// The total with one more part, added to its value.
    pub fn plus(mut self, rule: &'static str, what: impl Into<String>, value: f64) -> Total {
        self.value += value;
        self.parts.push(Part { rule: RuleId::new(rule), what: what.into(), value });
        self
    }

    /// The total with one more part whose rule is known only at run time (read from the data
    /// files), added to its value.
    pub fn part(mut self, rule: RuleId, what: impl Into<String>, value: f64) -> Total {
        self.value += value;
        self.parts.push(Part { rule, what: what.into(), value });
        self
    }

    /// Whether the parts add up to the value (to a thousandth of an inch or point).
    pub fn adds_up(&self) -> bool {
        (self.parts.iter().map(|p| p.value).sum::<f64>() - self.value).abs() < 1e-3
    }
}

/// A number as wargamers write it: whole numbers bare, others to one decimal place.
pub fn number(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 { format!("{}", v.round() as i64) } else { format!("{v:.1}") }
}

impl std::fmt::Display for Total {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} =", self.what, number(self.value))?;
        for (i, p) in self.parts.iter().enumerate() {
            let v = number(p.value.abs());
            let sign = if p.value < 0.0 {
                "−"
            } else if i == 0 {
                ""
            } else {
                "+"
            };
            write!(f, " {sign}{v} {} [{}]", p.what, p.rule)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_total_lists_its_parts_with_their_rules() {
        let t = Total::new("score")
            .plus("WRG-RTP-01", "dice", 11.0)
            .plus("WRG-RFAC-01", "friends within 15\"", 2.0)
            .plus("WRG-RFAC-12", "enemies facing", -3.0);
        assert!(t.adds_up());
        assert_eq!(
            t.to_string(),
            "score 10 = 11 dice [WRG-RTP-01] +2 friends within 15\" [WRG-RFAC-01] −3 enemies facing [WRG-RFAC-12]"
        );
        let n = Note::new("WRG-RT-02", "Spartiates test").with_total(t);
        assert!(n.describe().starts_with("Spartiates test; score 10 = 11 dice"));
    }
}
