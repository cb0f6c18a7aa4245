//! Property tests: the move planner against simple truths, on random moves.
mod common;
use common::*;
use movement::shapes::sweep_interval;
use proptest::prelude::*;
use tabletop::geometry::{Facing, Rect, Vec2};
use tabletop::rules::{RuleSet, Viewer};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// On open ground a straight move costs its length times the direction factor, and a
    /// refused move changes nothing.
    #[test]
    fn open_ground_cost_is_length_times_direction(dx in -14.0f64..14.0, dy in -14.0f64..14.0) {
        let text = scenario_text(&(li("A", 30.0, 30.0) + &blue_far()));
        let mut g = game(&text);
        let len = dx.hypot(dy);
        let factor = if dy >= dx.abs() { 1.0 } else { 2.0 };
        let c = cost(g.state(), 0, &[adv(30.0 + dx, 30.0 + dy)]).unwrap();
        prop_assert!((c - len * factor).abs() < 1e-9);
        let before = g.state_hash();
        let r = g.submit(RED, mv(0, vec![adv(30.0 + dx, 30.0 + dy)]));
        prop_assert_eq!(r.is_ok(), c <= 12.0 + 0.01);
        if r.is_err() {
            prop_assert_eq!(g.state_hash(), before);
        }
    }

    /// The swept contact interval agrees with overlap tests along the path.
    #[test]
    fn sweep_interval_agrees_with_sampled_overlap(x in -8.0f64..8.0, y in 2.0f64..10.0, deg in 0.0f64..360.0, dx in -4.0f64..4.0) {
        let a = Rect::new(Vec2::new(0.0, 0.0), Facing::NORTH, 1.5, 1.0);
        let b = Rect::new(Vec2::new(x, y), Facing::from_bearing_degrees(deg), 1.5, 1.0);
        let d = Vec2::new(dx, 12.0);
        let iv = sweep_interval(&a, d, &b);
        for k in 0..=200 {
            let t = k as f64 / 200.0;
            let over = a.translated(d * t).overlaps(&b);
            let inside = iv.is_some_and(|(e, x)| t > e + 1e-6 && t < x - 1e-6);
            let outside = iv.is_none_or(|(e, x)| t < e - 1e-6 || t > x + 1e-6);
            if inside { prop_assert!(over, "t {} in {:?} but no overlap", t, iv); }
            if outside { prop_assert!(!over, "t {} outside {:?} but overlap", t, iv); }
        }
    }
}

#[test]
fn every_viewer_gets_a_view_and_only_the_side_in_its_phase_may_act() {
    let g = game(&ford_text());
    let r = rules();
    let red = r.view(g.state(), Viewer::Side(tabletop::Side::Red));
    let blue = r.view(g.state(), Viewer::Side(tabletop::Side::Blue));
    let spectator = r.view(g.state(), Viewer::Spectator);
    assert!(red.to_act && !blue.to_act && !spectator.to_act);
    assert_eq!(red.units.len(), 14);
    // No hidden information in this chapter: every viewer sees every unit.
    assert_eq!(blue.units.len(), red.units.len());
    let gun = red.units.iter().find(|u| u.unit.name == "Red Gun").unwrap();
    assert_eq!(gun.may_shoot, Some(false));
    let bombard = red.units.iter().find(|u| u.unit.name == "Blue Bombard").unwrap();
    assert_eq!(bombard.may_shoot, Some(true));
    let json = serde_json::to_value(&red).unwrap();
    assert!(json["units"][0]["allowance"].is_number());
    let scene = r.scene(g.state(), Viewer::Umpire);
    assert_eq!(scene.pieces.len(), 14);
    assert!(
        scene.pieces.iter().any(|p| p.label == "Red Archers" && p.detail.contains("open order"))
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A scenario file damaged anywhere never panics the loader: it loads or it reports.
    #[test]
    fn damaged_scenarios_never_panic(pos in 0usize..6000, cut in 0usize..40, insert in "[\\[\\]=\"0-9a-z.,\\- \n]{0,12}") {
        let text = ford_text();
        let start = text.char_indices().map(|(i, _)| i).nth(pos % text.chars().count()).unwrap_or(0);
        let end = text[start..].char_indices().map(|(i, _)| start + i).nth(cut).unwrap_or(text.len());
        let damaged = format!("{}{}{}", &text[..start], insert, &text[end..]);
        let r = rules().load_scenario(&tabletop::Source::new("damaged.toml", damaged));
        if let Err(d) = r {
            prop_assert!(!d.is_empty());
            for x in d.iter() {
                prop_assert_eq!(&x.file, "damaged.toml");
            }
        }
    }

    /// Any JSON at all gets an answer or an error from the referee, never a panic.
    #[test]
    fn referee_never_panics(q in referee_question()) {
        let _ = movement::referee::answer(&q);
    }
}

fn referee_question() -> impl Strategy<Value = serde_json::Value> {
    let num = prop_oneof![Just(0.0), Just(-1.0), Just(1e308), -50.0f64..50.0];
    let kind = prop_oneof![
        Just("path_cost"),
        Just("how_far"),
        Just("wheel"),
        Just("facing"),
        Just("forced_march")
    ];
    let ty = prop_oneof![
        Just("light_infantry"),
        Just("heavy_cavalry"),
        Just("artillery"),
        Just("creature")
    ];
    (kind, ty, num.clone(), num.clone(), num, 0u32..300, 0u32..12).prop_map(
        |(k, t, a, b, c, stands, files)| {
            let unit = serde_json::json!({"type": t, "discipline": "poor", "stands": stands, "files": files, "facing": c, "rate": a, "artillery": "light"});
            match k {
                "path_cost" | "how_far" => serde_json::json!({"question": k, "unit": unit, "path": [[a, b], [b, c], [c, a]], "forced_march": stands % 2 == 0}),
                "wheel" => serde_json::json!({"question": k, "unit": unit, "degrees": a}),
                "facing" => serde_json::json!({"question": k, "unit": unit, "turns": ["left", "about"]}),
                _ => serde_json::json!({"question": k, "unit": unit, "discipline_roll": (stands % 12), "exhaustion_roll": files}),
            }
        },
    )
}
