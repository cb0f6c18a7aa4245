//! Casualty calculation (T8): the total factor and the number of figures give men lost; men
//! are removed a figure per 20 and the remainder carried (WRG-CAS-01 .. -05, WRG-SCALE-02).

use crate::Data;
use crate::report::{Fact, Note, Total};
use serde::{Deserialize, Serialize};

/// One reading of the casualty table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reading {
    /// The total factor as asked.
    pub factor: i32,
    /// The row read: the factor clamped into the table (WRG-CAS-05).
    pub row: i32,
    /// The figures shooting or fighting.
    pub figures: u32,
    /// Men lost by the target.
    pub men: u32,
    /// How the figures were read above 20: (tens, remainder), else `None` (WRG-CAS-02).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tens: Option<(u32, u32)>,
    /// Above 20 figures, the cells read: at 10 figures and at the remainder.
    #[serde(skip)]
    pub cells: Option<(u32, u32)>,
    /// The rules applied.
    pub rules: Vec<&'static str>,
}

/// Men lost to `figures` figures at total `factor` (WRG-CAS-01, -02, -05).
pub fn men_lost(data: &Data, factor: i32, figures: u32) -> Reading {
    let t = &data.casualties;
    let mut rules = vec!["WRG-CAS-01"];
    let row_factor = factor.clamp(t.min_factor(), t.max_factor());
    if row_factor != factor {
        rules.push("WRG-CAS-05");
    }
    let row = &t.row[(row_factor - t.min_factor()) as usize].men;
    let cell = |n: u32| if n == 0 { 0 } else { row[(n - 1) as usize] };
    let width = t.tens_above;
    let (men, tens, cells) = if figures <= width {
        (cell(figures), None, None)
    } else {
        rules.push("WRG-CAS-02");
        let q = figures / 10;
        let r = figures % 10;
        (
            q.saturating_mul(cell(10)).saturating_add(cell(r)),
            Some((q, r)),
            Some((cell(10), cell(r))),
        )
    };
    if factor == 2 && figures == 10 {
        // The book's own example: 10 figures at 2 cause 13 casualties (WRG-CAS-04).
        rules.push("WRG-CAS-04");
    }
    Reading { factor, row: row_factor, figures, men, tens, cells, rules }
}

/// A reading as a total: the men, from the row and column read (WRG-CAS-01), clamped into the
/// table (WRG-CAS-05), by tens above 20 figures (WRG-CAS-02).
pub fn reading_total(r: &Reading) -> Total {
    let (rule, row) = if r.row != r.factor {
        ("WRG-CAS-05", format!("T8 row {} (total {} read at the table's end)", r.row, r.factor))
    } else {
        ("WRG-CAS-01", format!("T8 row {}", r.row))
    };
    let t = Total::new("men");
    match (r.tens, r.cells) {
        (Some((q, rem)), Some((ten, rest))) => t
            .plus(
                "WRG-CAS-02",
                format!("{row}: {q} × {ten} for {q} tens of figures"),
                (q * ten) as f64,
            )
            .plus(rule, format!("{row}: {rest} for the {rem} figures over"), rest as f64),
        _ => t.plus(rule, format!("{row}, {} figures", r.figures), r.men as f64),
    }
}

/// A unit's losses told for the log: the men lost, the figures removed a figure per 20 and the
/// men carried forward, with the facts (WRG-CAS-03).
#[allow(clippy::too_many_arguments)]
pub fn losses_note(
    data: &Data,
    name: &str,
    unit: u16,
    how: &str,
    men: u32,
    figures_before: u32,
    carried_before: u32,
    figures_removed: u32,
    carried: u32,
) -> Note {
    let per = data.casualties.men_per_figure;
    let mut total = Total::new("men carried")
        .plus("WRG-CAS-03", "carried before", carried_before as f64)
        .plus("WRG-CAS-01", "men lost", men as f64);
    if figures_removed > 0 {
        total = total.plus(
            "WRG-CAS-03",
            match figures_removed {
                1 => format!("1 figure removed, {per} men"),
                n => format!("{n} figures removed, {per} men each"),
            },
            -((figures_removed * per) as f64),
        );
    }
    let dropped = (carried_before + men).saturating_sub(figures_removed * per + carried);
    if dropped > 0 {
        total = total.plus("WRG-CAS-03", "men beyond the last figure", -(dropped as f64));
    }
    let removed = match figures_removed {
        0 => "no figure removed".to_string(),
        1 => "1 figure removed".to_string(),
        n => format!("{n} figures removed"),
    };
    Note::new("WRG-CAS-03", format!("{name} lose {men} men {how}: {removed}, {carried} carried"))
        .and("WRG-SCALE-02")
        .with_total(total)
        .with_fact(Fact::Losses {
            unit,
            men,
            figures_before,
            figures_removed,
            carried_before,
            carried_after: carried,
        })
}

/// Men added to a unit's carried losses, and the figures that come off (WRG-CAS-03).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Removal {
    /// Men lost this time.
    pub men: u32,
    /// Men carried before.
    pub carried_before: u32,
    /// Figures removed.
    pub figures_removed: u32,
    /// Men carried forward.
    pub carried: u32,
    /// Figures left in the unit.
    pub figures_left: u32,
}

/// Adds `men` to the unit's carried losses and takes off a figure per 20; the rest is
/// carried. A unit cannot lose more figures than it has (WRG-CAS-03, WRG-FIRE-15).
pub fn remove(data: &Data, figures: u32, carried_before: u32, men: u32) -> Removal {
    let per = data.casualties.men_per_figure;
    let total = carried_before.saturating_add(men);
    let off = (total / per).min(figures);
    // A unit wiped out carries nothing forward.
    let carried = if off == figures { 0 } else { total - off * per };
    Removal { men, carried_before, figures_removed: off, carried, figures_left: figures - off }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data() -> Data {
        Data::embedded().unwrap()
    }

    // Checks WRG-CAS-01.
    #[test]
    fn wrg_cas_01_row_and_column() {
        let d = data();
        assert_eq!(men_lost(&d, 2, 10).men, 13);
        assert_eq!(men_lost(&d, -5, 1).men, 0);
        assert_eq!(men_lost(&d, 12, 20).men, 252);
        assert_eq!(men_lost(&d, 0, 15).men, 9);
        assert_eq!(men_lost(&d, 7, 3).men, 12);
    }

    // Checks WRG-CAS-02.
    #[test]
    fn wrg_cas_02_beyond_twenty_figures() {
        let d = data();
        let r = men_lost(&d, 3, 32);
        assert_eq!(r.men, 51);
        assert_eq!(r.tens, Some((3, 2)));
        assert!(r.rules.contains(&"WRG-CAS-02"));
        // 30 figures: three tens and nothing over.
        assert_eq!(men_lost(&d, 4, 30).men, 60);
        // 20 figures are still read from the table.
        assert_eq!(men_lost(&d, 3, 20).men, 32);
        assert_eq!(men_lost(&d, 3, 20).tens, None);
    }

    // Checks WRG-CAS-03.
    #[test]
    fn wrg_cas_03_figures_removed_and_remainder_carried() {
        let d = data();
        let r = remove(&d, 12, 13, 30);
        assert_eq!((r.figures_removed, r.carried, r.figures_left), (2, 3, 10));
        let r = remove(&d, 10, 0, 13);
        assert_eq!((r.figures_removed, r.carried), (0, 13));
        // Never more figures than the unit has.
        let r = remove(&d, 2, 0, 100);
        assert_eq!((r.figures_removed, r.figures_left, r.carried), (2, 0, 0));
        // Wiped out to the last man: nothing is carried.
        let r = remove(&d, 2, 5, 40);
        assert_eq!((r.figures_removed, r.figures_left, r.carried), (2, 0, 0));
    }

    // Checks WRG-SCALE-02.
    #[test]
    fn wrg_scale_02_twenty_men_a_figure() {
        let d = data();
        assert_eq!(d.casualties.men_per_figure, 20);
        assert_eq!(remove(&d, 5, 19, 1).figures_removed, 1);
        assert_eq!(remove(&d, 5, 0, 19).figures_removed, 0);
    }

    // Checks WRG-CAS-04.
    #[test]
    fn wrg_cas_04_the_rules_own_check() {
        let d = data();
        let r = men_lost(&d, 2, 10);
        let rem = remove(&d, 10, 0, r.men);
        assert_eq!((r.men, rem.figures_removed, rem.carried), (13, 0, 13));
    }

    // Checks WRG-CAS-05.
    #[test]
    fn wrg_cas_05_totals_outside_the_table_are_clamped() {
        let d = data();
        let lo = men_lost(&d, -9, 20);
        assert_eq!((lo.row, lo.men), (-5, 3));
        assert!(lo.rules.contains(&"WRG-CAS-05"));
        let hi = men_lost(&d, 15, 1);
        assert_eq!((hi.row, hi.men), (12, 13));
    }
}
