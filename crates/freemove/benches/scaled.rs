//! The ready legion scenario laid side by side, shared by the benchmark and the example that
//! counts a battle's instructions.

/// A ready scenario's text.
pub fn text(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../scenarios/freemove/{name}.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("a ready scenario")
}

/// The legion scenario `k` times side by side, 12" apart.
pub fn scaled(k: usize) -> String {
    let base: toml::Table = text("legion_and_host").parse().expect("TOML");
    let width = base["table"]["width"].as_float().expect("a width");
    let gap = 12.0;
    let mut s = base.clone();
    s["table"]["width"] = toml::Value::Float(width * k as f64 + gap * (k as f64 - 1.0));
    let shift = |p: &mut toml::Value, dx: f64| {
        let x = p[0].as_float().or_else(|| p[0].as_integer().map(|i| i as f64)).expect("x");
        p.as_array_mut().expect("a point")[0] = toml::Value::Float(x + dx);
    };
    for key in ["area", "line", "stand"] {
        let items = base[key].as_array().expect("a list");
        let mut out = Vec::new();
        for i in 0..k {
            let dx = (width + gap) * i as f64;
            for item in items {
                let mut item = item.clone();
                let t = item.as_table_mut().expect("a table");
                if key == "stand" {
                    shift(&mut t["at"], dx);
                    // Each copy numbers its trays on from the last.
                    if let Some(n) = t.get("number").and_then(|n| n.as_integer()) {
                        t["number"] = toml::Value::Integer(n + 100 * i as i64);
                    }
                } else {
                    for p in t["points"].as_array_mut().expect("points") {
                        shift(p, dx);
                    }
                }
                out.push(item);
            }
        }
        s[key] = toml::Value::Array(out);
    }
    toml::to_string(&s).expect("it writes")
}
