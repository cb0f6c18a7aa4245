//! The simulation's distributions drawn as one SVG: outcomes with their 95% intervals, battle
//! length in commands and in turns, and each side's figures at the end (red and blue
//! overlaid). Hand-written SVG: a few bars need no plotting library.

use crate::report::esc;
use crate::sim::{GameResult, Share, SimReport};
use std::fmt::Write as _;
use tabletop::Side;

const WIDTH: f64 = 820.0;
const PANEL: f64 = 230.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 30.0;
const RED: &str = "#c0392b";
const BLUE: &str = "#2e5e9e";
const GREY: &str = "#7f8c8d";

/// Bins for `all`: one per whole number where the values are whole and span at most 40 (at
/// least 5 bins, centred on the values), else 20 equal bins. Returns (lower edge, width,
/// number of bins, whether the bins are whole numbers).
fn bins(all: &[f64]) -> (f64, f64, usize, bool) {
    let lo = all.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() || !hi.is_finite() {
        return (-0.5, 1.0, 1, true);
    }
    let whole = all.iter().all(|x| x.fract() == 0.0);
    if whole && hi - lo <= 40.0 {
        let n = (hi - lo) as usize + 1;
        let pad = (5usize.saturating_sub(n)).div_ceil(2);
        return (lo - 0.5 - pad as f64, 1.0, n + 2 * pad, true);
    }
    if hi == lo {
        return (lo - 0.5, 1.0, 1, false);
    }
    (lo, (hi - lo) / 20.0, 20, false)
}

fn count(xs: &[f64], lo: f64, w: f64, n: usize) -> Vec<usize> {
    let mut c = vec![0; n];
    for x in xs {
        let i = (((x - lo) / w).floor().max(0.0) as usize).min(n - 1);
        c[i] += 1;
    }
    c
}

fn label(x: f64) -> String {
    if x.fract().abs() < 1e-9 { format!("{x:.0}") } else { format!("{x:.1}") }
}

/// A histogram panel at `top` of one or more series (name, colour, values).
fn histogram(o: &mut String, top: f64, title: &str, unit: &str, series: &[(&str, &str, Vec<f64>)]) {
    let all: Vec<f64> = series.iter().flat_map(|s| s.2.iter().copied()).collect();
    let (lo, w, n, whole) = bins(&all);
    let counts: Vec<Vec<usize>> = series.iter().map(|s| count(&s.2, lo, w, n)).collect();
    let peak = counts.iter().flatten().copied().max().unwrap_or(1).max(1) as f64;
    let (x0, x1) = (LEFT, WIDTH - RIGHT);
    let (y0, y1) = (top + 30.0, top + PANEL - 40.0);
    let _ = writeln!(
        o,
        "<text x=\"{LEFT}\" y=\"{}\" font-size=\"15\" font-weight=\"bold\">{}</text>",
        top + 18.0,
        esc(title)
    );
    let bw = (x1 - x0) / n as f64;
    let k = series.len() as f64;
    for (si, s) in series.iter().enumerate() {
        for (i, &c) in counts[si].iter().enumerate() {
            if c == 0 {
                continue;
            }
            let h = (y1 - y0) * c as f64 / peak;
            let x = x0 + bw * i as f64 + bw * si as f64 / k;
            let _ = writeln!(
                o,
                "<rect x=\"{x:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{h:.2}\" fill=\"{}\" opacity=\"0.85\"><title>{}: {}–{}: {c} games</title></rect>",
                y1 - h,
                (bw / k - 1.0).max(0.5),
                s.1,
                esc(s.0),
                label(lo + w * i as f64),
                label(lo + w * (i + 1) as f64)
            );
        }
    }
    // Axes and labels.
    let _ = writeln!(
        o,
        "<line x1=\"{x0}\" y1=\"{y1}\" x2=\"{x1}\" y2=\"{y1}\" stroke=\"#333\"/><line x1=\"{x0}\" y1=\"{y0}\" x2=\"{x0}\" y2=\"{y1}\" stroke=\"#333\"/>"
    );
    let _ = writeln!(
        o,
        "<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"end\">{}</text><text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"end\">0</text>",
        x0 - 5.0,
        y0 + 4.0,
        peak,
        x0 - 5.0,
        y1 + 4.0
    );
    if whole {
        // Whole numbers: label bin centres, every k-th.
        let every = n.div_ceil(20).max(1);
        for i in (0..n).step_by(every) {
            let x = x0 + bw * (i as f64 + 0.5);
            let _ = writeln!(
                o,
                "<text x=\"{x:.1}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{}</text>",
                y1 + 15.0,
                label(lo + 0.5 + i as f64)
            );
        }
    } else {
        for t in 0..=10 {
            let v = lo + w * n as f64 * t as f64 / 10.0;
            let x = x0 + (x1 - x0) * t as f64 / 10.0;
            let _ = writeln!(
                o,
                "<text x=\"{x:.1}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{}</text>",
                y1 + 15.0,
                label(v)
            );
        }
    }
    let _ = writeln!(
        o,
        "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{}</text><text x=\"18\" y=\"{}\" font-size=\"12\" transform=\"rotate(-90 18 {})\" text-anchor=\"middle\">games</text>",
        (x0 + x1) / 2.0,
        y1 + 32.0,
        esc(unit),
        (y0 + y1) / 2.0,
        (y0 + y1) / 2.0
    );
    if series.len() > 1 {
        for (si, s) in series.iter().enumerate() {
            let x = x1 - 140.0 + 70.0 * si as f64;
            let _ = writeln!(
                o,
                "<rect x=\"{x}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"{}\" y=\"{}\" font-size=\"12\">{}</text>",
                top + 8.0,
                s.1,
                x + 16.0,
                top + 18.0,
                esc(s.0)
            );
        }
    }
}

fn outcomes(o: &mut String, top: f64, r: &SimReport) {
    let mut rows: Vec<(&str, &str, &Share)> = vec![
        ("red wins", RED, &r.outcomes.red_wins),
        ("draws", GREY, &r.outcomes.draws),
        ("blue wins", BLUE, &r.outcomes.blue_wins),
    ];
    if r.outcomes.unfinished.count > 0 {
        rows.push(("unfinished", "#b7950b", &r.outcomes.unfinished));
    }
    let _ = writeln!(
        o,
        "<text x=\"{LEFT}\" y=\"{}\" font-size=\"15\" font-weight=\"bold\">Outcomes of {} games (bars: share; whiskers: 95% Wilson interval)</text>",
        top + 18.0,
        r.games
    );
    let (x0, x1) = (LEFT + 40.0, WIDTH - RIGHT - 60.0);
    let scale = |p: f64| x0 + (x1 - x0) * p;
    for (i, (name, colour, s)) in rows.iter().enumerate() {
        let y = top + 35.0 + 38.0 * i as f64;
        let (lx, hx) = (scale(s.low), scale(s.high));
        let _ = writeln!(
            o,
            "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"end\">{name}</text>\
             <rect x=\"{x0}\" y=\"{y}\" width=\"{:.2}\" height=\"22\" fill=\"{colour}\"/>\
             <path d=\"M{lx:.2} {} v12 M{lx:.2} {} H{hx:.2} M{hx:.2} {} v12\" stroke=\"#222\" stroke-width=\"1.5\" fill=\"none\"/>\
             <text x=\"{:.2}\" y=\"{}\" font-size=\"12\">{} ({:.1}%, {:.1}–{:.1}%)</text>",
            x0 - 6.0,
            y + 15.0,
            scale(s.share) - x0,
            y + 5.0,
            y + 11.0,
            y + 5.0,
            scale(s.high) + 6.0,
            y + 15.0,
            s.count,
            100.0 * s.share,
            100.0 * s.low,
            100.0 * s.high
        );
    }
    let y = top + 35.0 + 38.0 * rows.len() as f64;
    for t in 0..=4 {
        let p = t as f64 / 4.0;
        let _ = writeln!(
            o,
            "<text x=\"{:.1}\" y=\"{y}\" font-size=\"11\" text-anchor=\"middle\">{}%</text>",
            scale(p),
            t * 25
        );
    }
}

/// Draws one panel of the plot at a height from the top.
type Panel<'a> = Box<dyn Fn(&mut String, f64) + 'a>;

/// The SVG document.
pub fn svg(r: &SimReport, results: &[GameResult]) -> String {
    let rows = if r.outcomes.unfinished.count > 0 { 4.0 } else { 3.0 };
    let mut panels: Vec<(f64, Panel)> =
        vec![(70.0 + 38.0 * rows, Box::new(|o, top| outcomes(o, top, r)))];
    let commands: Vec<f64> = results.iter().map(|g| g.commands as f64).collect();
    panels.push((
        PANEL,
        Box::new(move |o, top| {
            histogram(o, top, "Battle length", "commands", &[("all", GREY, commands.clone())])
        }),
    ));
    let turns: Vec<f64> = results.iter().filter_map(|g| g.turn.map(f64::from)).collect();
    if !turns.is_empty() {
        panels.push((
            PANEL,
            Box::new(move |o, top| {
                histogram(o, top, "Turn at the end", "turn", &[("all", GREY, turns.clone())])
            }),
        ));
    }
    let mut names: Vec<String> = Vec::new();
    for g in results {
        for f in g.figures.iter().flatten() {
            if !names.contains(&f.0) {
                names.push(f.0.clone());
            }
        }
    }
    for name in names.into_iter().take(8) {
        let series = |side: Side| -> Vec<f64> {
            results
                .iter()
                .filter_map(|g| g.figures[side.index()].iter().find(|f| f.0 == name).map(|f| f.1))
                .collect()
        };
        let (red, blue) = (series(Side::Red), series(Side::Blue));
        let title = format!("{} at the end", name.replace('_', " "));
        panels.push((
            PANEL,
            Box::new(move |o, top| {
                histogram(
                    o,
                    top,
                    &title,
                    "value",
                    &[("red", RED, red.clone()), ("blue", BLUE, blue.clone())],
                )
            }),
        ));
    }
    let height = 60.0 + panels.iter().map(|p| p.0).sum::<f64>();
    let mut o = String::new();
    let _ = writeln!(
        o,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" viewBox=\"0 0 {WIDTH} {height}\" font-family=\"DejaVu Sans, Arial, sans-serif\">"
    );
    let _ = writeln!(o, "<rect width=\"100%\" height=\"100%\" fill=\"#fffdf7\"/>");
    let _ = writeln!(
        o,
        "<text x=\"{LEFT}\" y=\"24\" font-size=\"17\" font-weight=\"bold\">{}</text><text x=\"{LEFT}\" y=\"44\" font-size=\"13\">red {} vs blue {}, seeds {}..={}</text>",
        esc(&r.scenario),
        esc(&r.red),
        esc(&r.blue),
        r.seed,
        r.seed.wrapping_add(r.games.saturating_sub(1))
    );
    let mut top = 55.0;
    for (h, p) in &panels {
        p(&mut o, top);
        top += h;
    }
    o.push_str("</svg>\n");
    o
}
