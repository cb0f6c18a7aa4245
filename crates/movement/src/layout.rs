//! Where a unit's stands stand: the pose of a unit (reference point, facing, formation, files)
//! laid out as stand rectangles, and the geometric tests of each formation (MOV-FORM).

use crate::model::Formation;
use serde::{Deserialize, Serialize};
use tabletop::geometry::{Facing, Point, Rect, Vec2};

/// A unit's pose. For line, column, open order and mass the reference point is the middle of
/// the front edge; for a circle it is the centre of the ring.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pose {
    /// The reference point.
    pub at: Point,
    /// The facing (a circle's nominal facing: its first stand's).
    pub facing: Facing,
    /// The formation.
    pub formation: Formation,
    /// Stands per rank (ignored by the circle).
    pub files: u32,
    /// The gap between stands (open order only; zero otherwise).
    pub gap: f64,
}

/// The facing as a fixed point of normalisation. `tabletop`'s `Facing` renormalises when it is
/// deserialized, which can move the last bit of a vector that is not already a fixed point; every
/// facing the rules store goes through this so that a state survives a serde round trip exactly.
pub fn canonical(f: Facing) -> Facing {
    let mut f = f;
    for _ in 0..16 {
        match Facing::from_vector(f.vector()) {
            Some(g) if g != f => f = g,
            _ => break,
        }
    }
    f
}

/// Ranks of `n` stands in `files` files (the last rank may be short).
pub fn ranks(n: usize, files: u32) -> u32 {
    let f = files.max(1) as usize;
    n.div_ceil(f) as u32
}

/// Stands per side of a circle of `n` stands (front, right, rear, left).
pub fn circle_sides(n: usize) -> [usize; 4] {
    let base = n / 4;
    let extra = n % 4;
    let mut s = [base; 4];
    for x in s.iter_mut().take(extra) {
        *x += 1;
    }
    s
}

/// The stands of a unit of `n` stands, each `size` = (width, depth), in the given pose.
pub fn layout(pose: &Pose, n: usize, size: (f64, f64)) -> Vec<Rect> {
    let (w, d) = size;
    let f = pose.facing;
    let mut out = Vec::with_capacity(n);
    if pose.formation == Formation::Circle {
        let sides = circle_sides(n);
        let k = sides[0].max(1) as f64;
        let half = k * w / 2.0;
        let normals = [f, f.turned_right(), f.turned_right().turned_right(), f.turned_left()];
        for (side, &count) in sides.iter().enumerate() {
            let out_dir = normals[side];
            for i in 0..count {
                let along = (i as f64 - (count as f64 - 1.0) / 2.0) * w;
                let c = pose.at + out_dir.vector() * (half + d / 2.0) + out_dir.right() * along;
                out.push(Rect::new(c, out_dir, w, d));
            }
        }
        return out;
    }
    let files = pose.files.max(1) as usize;
    let gap = if pose.formation == Formation::OpenOrder { pose.gap } else { 0.0 };
    for i in 0..n {
        let rank = i / files;
        let file = i % files;
        let in_rank = (n - rank * files).min(files);
        let across = (file as f64 - (in_rank as f64 - 1.0) / 2.0) * (w + gap);
        let back = d / 2.0 + rank as f64 * (d + gap);
        let c = pose.at - f.vector() * back + f.right() * across;
        out.push(Rect::new(c, f, w, d));
    }
    out
}

/// The unit's outline: the rectangle about its stands, along its facing. For a circle, the
/// square about the ring.
pub fn outline(pose: &Pose, n: usize, size: (f64, f64)) -> Rect {
    let (w, d) = size;
    if pose.formation == Formation::Circle {
        let k = circle_sides(n)[0].max(1) as f64;
        let side = k * w + 2.0 * d;
        return Rect::new(pose.at, pose.facing, side, side);
    }
    let (width, depth) = extent(pose, n, size);
    let _ = (w, d);
    Rect::from_front_centre(pose.at, pose.facing, width, depth)
}

/// Frontage and depth of a ranked formation.
pub fn extent(pose: &Pose, n: usize, size: (f64, f64)) -> (f64, f64) {
    let (w, d) = size;
    let gap = if pose.formation == Formation::OpenOrder { pose.gap } else { 0.0 };
    let files = (pose.files.max(1) as usize).min(n.max(1)) as f64;
    let r = ranks(n, pose.files) as f64;
    (files * w + (files - 1.0) * gap, r * d + (r - 1.0) * gap)
}

/// The centroid of a set of stands.
pub fn centroid(stands: &[Rect]) -> Point {
    if stands.is_empty() {
        return Vec2::ZERO;
    }
    stands.iter().fold(Vec2::ZERO, |s, r| s + r.centre) * (1.0 / stands.len() as f64)
}

/// Why a formation's geometry is illegal, with the rule, or `None` when it is legal.
pub fn shape_problem(
    pose: &Pose,
    n: usize,
    size: (f64, f64),
    max_gap: f64,
) -> Option<(&'static str, String)> {
    let (w, d) = size;
    if n == 0 {
        return None;
    }
    let files = pose.files.max(1) as usize;
    if pose.formation != Formation::Circle && files > n {
        return Some((
            "MOV-FORM-01",
            format!("{files} files need at least {files} stands, the unit has {n}"),
        ));
    }
    let (width, depth) = extent(pose, n, size);
    match pose.formation {
        Formation::Line => (width + 1e-9 < depth && n > 1).then(|| {
            (
                "MOV-FORM-11",
                format!("a line must be at least as wide as deep ({width:.2}\" wide, {depth:.2}\" deep)"),
            )
        }),
        Formation::Column => (depth <= width + 1e-9 && n > 1).then(|| {
            (
                "MOV-FORM-11",
                format!("a column must be deeper than wide ({width:.2}\" wide, {depth:.2}\" deep)"),
            )
        }),
        Formation::Mass => ((depth - width).abs() > w.max(d) + 1e-9).then(|| {
            (
                "MOV-FORM-08",
                format!(
                    "a mass must be about as deep as wide: |{depth:.2} - {width:.2}| exceeds {:.2}\"",
                    w.max(d)
                ),
            )
        }),
        Formation::OpenOrder => (pose.gap > max_gap + 1e-9 || pose.gap < 0.0).then(|| {
            (
                "MOV-FORM-06",
                format!(
                    "open-order stands may be at most {max_gap}\" apart, not {:.2}\"",
                    pose.gap
                ),
            )
        }),
        Formation::Circle => (n < 4).then(|| {
            (
                "MOV-FORM-04",
                format!("a circle needs at least 4 stands to close the ring, the unit has {n}"),
            )
        }),
    }
}

/// True when the stands make one group under the link test (edges within `link`).
pub fn connected(stands: &[Rect], link: f64) -> bool {
    if stands.len() <= 1 {
        return true;
    }
    let mut seen = vec![false; stands.len()];
    let mut stack = vec![0usize];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        for j in 0..stands.len() {
            if !seen[j] && crate::shapes::within(&stands[i], &stands[j], link + 1e-9) {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen.into_iter().all(|s| s)
}
