//! Units are told apart wherever they are named: a name both sides use (the generic battle
//! has a "Skirmishers 1" and a "Levies 1" on each side) carries its side, in the log, the
//! views, the table's labels and the controls.
mod common;
use common::*;
use othw::state::Status;
use tabletop::rules::{Narrate, RuleSet, Side, Viewer};

#[test]
fn a_name_both_sides_use_carries_its_side_in_the_log_the_view_and_the_controls() {
    let text = ready("generic.toml").replace("first = \"roll\"", "first = \"red\"");
    let mut st = state(&text);
    let names: Vec<String> = st.units.iter().map(|u| u.name.to_string()).collect();
    for want in ["Skirmishers 1 (red)", "Skirmishers 1 (blue)", "Levies 1 (red)", "Levies 1 (blue)"]
    {
        assert!(names.iter().any(|n| n == want), "{want} in {names:?}");
    }
    // Names only one side uses are left as they are.
    assert!(names.iter().any(|n| n == "Cataphracts 1"), "{names:?}");
    let mut seen = names.clone();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), names.len(), "every unit has its own name");
    // The log: the two skirmishers fight, and each line names which is which.
    let id = |st: &othw::State, n: &str| st.units.iter().find(|u| &*u.name == n).expect(n).id;
    let (rs, bs) = (id(&st, "Skirmishers 1 (red)"), id(&st, "Skirmishers 1 (blue)"));
    put(&mut st, rs, 9, 3, N);
    put(&mut st, bs, 9, 4, S);
    st.units[bs as usize].sp = 1;
    // Phase end 3; red [6 2 2] at 5+ (3 dice against skirmishers): 1 hit; blue [2 2 2].
    let ev = fight(&mut st, rs, N, &[3, 6, 2, 2, 2, 2, 2]);
    assert_eq!(st.units[bs as usize].status, Status::Fleeing);
    let log = log_of(&ev);
    assert!(
        log.iter().any(|l| l.contains("Skirmishers 1 (red) attacks Skirmishers 1 (blue)")),
        "{log:#?}"
    );
    assert!(log.iter().any(|l| l.contains("Skirmishers 1 (blue) breaks and flees")), "{log:#?}");
    assert!(ev.iter().all(|e| !e.narrate().text.contains("Skirmishers 1 ") || {
        let t = e.narrate().text;
        t.matches("Skirmishers 1 (").count() == t.matches("Skirmishers 1").count()
    }));
    // The view, the table's labels and the controls.
    let r = rules();
    let view = r.view(&st, Viewer::Side(Side::Red));
    assert!(view.units.iter().any(|u| u.name == "Skirmishers 1 (blue)"));
    let scene = r.scene(&st, Viewer::Umpire);
    assert!(scene.pieces.iter().any(|p| p.label.starts_with("Levies 1 (red)")));
    let roster = r.roster(&st, Viewer::Umpire);
    assert!(roster.iter().any(|row| row.label == "Levies 1 (blue)"));
}
