//! The hidden deployment the digest proposes for what the source leaves out: each side places
//! its stands within 12" of its edge, in secret and at the same time (FMT-NIS-01, not in the
//! source).

mod common;
use common::*;
use freemove::state::{Command, Phase};
use tabletop::rules::{RuleSet, Side, Viewer};

fn hidden() -> T {
    let body = format!(
        "{}{}{}",
        stand("red", "heavy_infantry", 20.0, 5.0, 0.0),
        stand("red", "archers", 26.0, 5.0, 0.0),
        stand("blue", "heavy_infantry", 20.0, 31.0, 180.0)
    );
    T::new(&scenario("deployment = \"hidden\"", &body))
}

#[test]
fn both_sides_place_their_stands_in_secret_near_their_own_edges() {
    let mut t = hidden();
    assert!(matches!(t.st.phase, Phase::Deploy { .. }));
    // Neither side sees the other's stands meanwhile.
    let red = t.rules.view(&t.st, Viewer::Side(Side::Red));
    assert!(red.stands.iter().all(|s| s.side == Side::Red));
    assert!(t.rules.view(&t.st, Viewer::Spectator).stands.is_empty());
    // Too far forward: 12" from the edge at most.
    let c = Command::Deploy { placements: vec![t.place(0, 20.0, 12.0, 0.0)] };
    assert_eq!(t.refused(Side::Red, c).rule.as_str(), "FMT-NIS-01");
    // Not on a friend.
    let c = Command::Deploy { placements: vec![t.place(0, 26.0, 5.0, 0.0)] };
    assert_eq!(t.refused(Side::Red, c).rule.as_str(), "FMT-NIS-01");
    t.side(Side::Red, Command::Deploy { placements: vec![t.place(0, 10.0, 8.0, 0.0)] }, &[]);
    // Red's choice is not on the table until blue has placed too.
    assert_eq!(t.st.stands[0].rect.centre.x, 20.0);
    t.assert_logged(&["[FMT-NIS-01]", "red has placed its stands"]);
    t.side(Side::Blue, Command::Deploy { placements: vec![] }, &[]);
    assert_eq!(t.st.stands[0].rect.centre.x, 10.0);
    t.assert_logged(&["HI 1 is deployed at (10, 8)"]);
    assert!(matches!(t.st.phase, Phase::Ready { .. }));
    assert_eq!(t.rules.view(&t.st, Viewer::Side(Side::Red)).stands.len(), 3);
}
