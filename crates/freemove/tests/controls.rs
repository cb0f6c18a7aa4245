//! The browser's menus and drags for the Free Move: every entry is legal, a dragged step is
//! measured with the action it sends, a column marches from its head's menu (FMT-R-34,
//! FMT-TIME-08).

mod common;
use common::*;
use freemove::state::{Command, Phase};
use tabletop::controls::{Effect, MeasureRequest};
use tabletop::geometry::Point;
use tabletop::rules::{Actor, RuleSet, Side};

fn every_entry_is_legal(t: &T, side: Side) -> Vec<(String, serde_json::Value)> {
    let c = t.rules.controls(&t.st, side);
    let mut out = Vec::new();
    for a in c.actions.iter().chain(c.units.iter().flat_map(|u| u.actions.iter())) {
        let Effect::Send { command } = &a.effect else { panic!("freemove sends whole commands") };
        let cmd: Command = serde_json::from_value(command.clone()).expect("a command");
        t.rules
            .check(&t.st, Actor::Side(side), &cmd)
            .unwrap_or_else(|r| panic!("{}: {r}", a.label));
        out.push((a.label.clone(), command.clone()));
    }
    out
}

#[test]
fn menus_offer_only_legal_commands_and_a_column_marches_fmt_r_34_time_08() {
    let mut t = T::ready_scenario("legion_and_host.toml");
    every_entry_is_legal(&t, Side::Red);
    t.ready(&[6, 1]);
    assert!(matches!(t.st.phase, Phase::Window { .. }));
    let entries = every_entry_is_legal(&t, Side::Red);
    // The first cohort heads a file of two (its second-line cohort behind it).
    let (label, cmd) = entries
        .iter()
        .find(|(l, _)| l.starts_with("March the column of 2 6\""))
        .expect("a column to march")
        .clone();
    let before = [t.st.stands[0].rect.centre, t.st.stands[4].rect.centre];
    let cmd: Command = serde_json::from_value(cmd).unwrap();
    t.side(Side::Red, cmd, &[]);
    t.done(Side::Blue, &[]);
    // Eight seconds of handling for two stands; both moved 6" on.
    assert_eq!(t.st.clock().map(|c| c.hands[0].free_ms), Some(8_000), "{label}");
    assert_eq!(t.st.stands[0].rect.centre, before[0] + Point::new(0.0, 6.0));
    assert_eq!(t.st.stands[4].rect.centre, before[1] + Point::new(0.0, 6.0));
    t.assert_logged(&["[FMT-TIME-08]", "Cohort 1 steps 6\"", "in column, 6\""]);
}

#[test]
fn a_dragged_step_is_measured_and_dropping_it_sends_the_step_fmt_time_07() {
    let mut t = T::ready_scenario("legion_and_host.toml");
    t.ready(&[6, 1]);
    let req = MeasureRequest { unit: "8".into(), to: Point::new(31.0, 17.0), facing: None };
    let m = RuleSet::measure(&t.rules, &t.st, Side::Red, &req).expect("a measurement");
    assert!((m.length - 3.0).abs() < 1e-9 && m.allowance == 6.0 && m.rule.is_none(), "{m:?}");
    let Some(Effect::Send { command }) = m.action.map(|a| a.effect) else { panic!("an action") };
    let cmd: Command = serde_json::from_value(command).unwrap();
    t.side(Side::Red, cmd, &[]);
    // Too far: the rule that forbids it.
    let req = MeasureRequest { unit: "9".into(), to: Point::new(33.0, 21.0), facing: None };
    let m = RuleSet::measure(&t.rules, &t.st, Side::Red, &req).expect("a measurement");
    assert_eq!(m.rule.as_deref(), Some("FMT-TIME-07"));
    assert!(m.within < m.length);
}
