//! The roster sheet as a viewer may see it: every unit's figures, losses and state, with its
//! order (and any order on its way) only for its own side and the umpire — never for the
//! other side or spectators (WRG-ORD-01, WRG-CHORD-02).

use super::orders::order_words;
use super::troop_words;
use crate::after::OffTable;
use crate::rules_impl::Wrg1969;
use crate::state::{Errand, State, Unit};
use tabletop::controls::RosterRow;
use tabletop::rules::{Side, Viewer};

/// The roster for `viewer`: the viewer's own side first, then the other.
pub fn roster(rules: &Wrg1969, st: &State, viewer: Viewer) -> Vec<RosterRow> {
    let data = rules.data_for(st);
    let sees_orders = |s: Side| match viewer {
        Viewer::Umpire => true,
        Viewer::Side(v) => v == s,
        Viewer::Spectator => false,
    };
    let order = match viewer {
        Viewer::Side(Side::Blue) => [Side::Blue, Side::Red],
        _ => [Side::Red, Side::Blue],
    };
    let mut out = Vec::new();
    for side in order {
        for u in st.units.iter().filter(|u| u.side == side) {
            out.push(row(st, u, sees_orders(side)));
        }
        if let Some(g) = crate::state::general(st, side) {
            let fallen = g.risk.fallen(&data);
            let state = match (fallen, g.attached) {
                (true, _) => "fallen".to_string(),
                (false, Some(j)) => format!("at the head of {}", super::unit_name(st, j)),
                (false, None) => "with his staff".to_string(),
            };
            let (figs, losses) = if fallen {
                ("0/1 figure".to_string(), "his figure".to_string())
            } else {
                ("1/1 figure".to_string(), format!("{:.0} men of his figure", g.risk.losses))
            };
            out.push(RosterRow {
                side: side.to_string(),
                unit: crate::state::general_piece(side),
                label: "General".into(),
                kind: format!("General ({})", troop_words(g.troop)),
                strength: figs,
                losses,
                state,
            });
        }
    }
    out
}

fn row(st: &State, u: &Unit, full: bool) -> RosterRow {
    let mut state: Vec<String> = Vec::new();
    match &u.away {
        Some(a) => state.push(match a.state {
            OffTable::Gone => "gone from the field".into(),
            _ => "off the table".into(),
        }),
        None if u.block.figures == 0 => state.push("destroyed".into()),
        None => {}
    }
    if u.rout.is_some() {
        state.push("broken and running".into());
    } else if let Some(p) = u.pursuit {
        state.push(format!("pursuing {}", super::unit_name(st, p.target)));
    } else if let Some(r) = u.running {
        // What the test's result is shows on the table as it is carried out; its words are
        // for the unit's own side.
        state.push(if full {
            format!("reaction result: {}", crate::period::effect_words(r.effect))
        } else {
            "carrying out a reaction result".into()
        });
    } else if u.on_table() && state.is_empty() {
        state.push("formed".into());
    }
    if full {
        if u.awaiting_order {
            state.push("awaiting a new order after its test".into());
        }
        state.push(match u.standing.order() {
            Some(o) => format!("order: {}", order_words(st, o)),
            None => "no order: waiting".into(),
        });
        let riding = st.messengers.iter().any(|m| m.unit == u.id && m.errand == Errand::Out);
        if let Some((o, from)) = &u.incoming {
            state.push(format!("new order from period {from}: {}", order_words(st, o)));
        } else if riding {
            state.push("a messenger is riding to it".into());
        }
    }
    let lost = u.start_figures.saturating_sub(u.block.figures);
    RosterRow {
        side: u.side.to_string(),
        unit: u.id.to_string(),
        label: u.name.to_string(),
        kind: format!("{} ({})", troop_words(u.troop), u.status),
        strength: format!(
            "{}/{} figures, {} abreast",
            u.block.figures, u.start_figures, u.block.files
        ),
        losses: format!("{lost} figures, {} men carried", u.carried),
        state: state.join("; "),
    }
}
