//! The schematic drawn as an engineer would, as SVG text: inertias as discs, springs as
//! zigzags, dampers as dashpots, gear pairs as meshing wheels, shafts as lines, external
//! actions as arrows with dashed links, and labels with the parameters.

use crate::Analysis;
use crate::ast::{Dir, Kind};
use crate::layout::Occ;
use std::fmt::Write as _;

/// Cell size in pixels.
const CELL: f64 = 64.0;
/// Margin around the grid, room for the action arrows.
const MARGIN: f64 = 48.0;

/// Escape text for an SVG text node.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The SVG drawing of a checked schematic.
pub fn draw(a: &Analysis) -> String {
    let s = &a.schematic;
    let g = &s.grid;
    let lay = &a.layout;
    let width = g.width as f64 * CELL + 2.0 * MARGIN;
    let height = g.height as f64 * CELL
        + 2.0 * MARGIN
        + 16.0 * (s.elements.len() + s.actions.len()) as f64
        + 24.0;
    let mut o = String::new();
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(o, r#"<title>{}</title>"#, esc(&s.name));
    let _ = writeln!(o, r#"<rect width="100%" height="100%" fill="white"/>"#);
    // Faint grid.
    for y in 0..=g.height {
        let yy = MARGIN + y as f64 * CELL;
        let _ = writeln!(
            o,
            r##"<line x1="{MARGIN}" y1="{yy}" x2="{}" y2="{yy}" stroke="#eee"/>"##,
            MARGIN + g.width as f64 * CELL
        );
    }
    for x in 0..=g.width {
        let xx = MARGIN + x as f64 * CELL;
        let _ = writeln!(
            o,
            r##"<line x1="{xx}" y1="{MARGIN}" x2="{xx}" y2="{}" stroke="#eee"/>"##,
            MARGIN + g.height as f64 * CELL
        );
    }
    let centre = |i: usize| {
        let (x, y) = g.pos(i);
        (
            MARGIN + (x as f64 - 0.5) * CELL,
            MARGIN + (y as f64 - 0.5) * CELL,
        )
    };
    let edge = |i: usize, d: Dir| {
        let (cx, cy) = centre(i);
        let (dx, dy) = d.delta();
        (cx + dx as f64 * CELL / 2.0, cy + dy as f64 * CELL / 2.0)
    };
    let line = |o: &mut String, (x1, y1): (f64, f64), (x2, y2): (f64, f64)| {
        let _ = writeln!(
            o,
            r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="black" stroke-width="3"/>"#
        );
    };
    // Shafts: extenders, splitters, and the stubs of poles.
    for (i, occ) in lay.occ.iter().enumerate() {
        if let Occ::Glyph(gl) = occ {
            for d in gl.dirs() {
                line(&mut o, centre(i), edge(i, d));
            }
            if gl.is_splitter() {
                let (cx, cy) = centre(i);
                let _ = writeln!(o, r#"<circle cx="{cx}" cy="{cy}" r="5" fill="black"/>"#);
            }
        }
    }
    // Elements.
    for (e, el) in s.elements.iter().enumerate() {
        let cells = &lay.cells[e];
        match el.kind {
            Kind::Inertia => {
                let (cx, cy) = centre(cells[0]);
                line(
                    &mut o,
                    edge(cells[0], Dir::Left),
                    edge(cells[0], Dir::Right),
                );
                let _ = writeln!(
                    o,
                    r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#9ab" stroke="black" stroke-width="2"/>"##,
                    cx - 10.0,
                    cy - 24.0,
                    20.0,
                    48.0
                );
                label(&mut o, cx, cy - 28.0, &el.name);
            }
            Kind::Spring | Kind::Damper | Kind::SpringDamper => {
                for p in &lay.poles[e] {
                    line(&mut o, centre(p.cell), edge(p.cell, p.dir));
                }
                let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
                for &c in cells {
                    let (cx, cy) = centre(c);
                    x0 = x0.min(cx);
                    y0 = y0.min(cy);
                    x1 = x1.max(cx);
                    y1 = y1.max(cy);
                }
                let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
                if cells.len() > 1 {
                    // A block: its cells joined, the element drawn in the middle.
                    let _ = writeln!(
                        o,
                        r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#f4f4f4" stroke="black" stroke-dasharray="4 3"/>"##,
                        x0 - CELL * 0.4,
                        y0 - CELL * 0.4,
                        x1 - x0 + CELL * 0.8,
                        y1 - y0 + CELL * 0.8
                    );
                    // Pole I to the symbol's left end, the others to its right end.
                    for (k, p) in lay.poles[e].iter().enumerate() {
                        let (px, py) = centre(p.cell);
                        let end = if k == 0 {
                            cx - CELL * 0.35
                        } else {
                            cx + CELL * 0.35
                        };
                        let _ = writeln!(
                            o,
                            r#"<polyline points="{px},{py} {px},{cy} {end},{cy}" fill="none" stroke="black" stroke-width="3"/>"#
                        );
                    }
                }
                let (w, h) = (CELL * 0.7, 22.0);
                let _ = writeln!(
                    o,
                    r#"<rect x="{}" y="{}" width="{w}" height="{h}" fill="white" stroke="none"/>"#,
                    cx - w / 2.0,
                    cy - h / 2.0
                );
                if el.kind != Kind::Damper {
                    // Zigzag.
                    let mut pts = String::new();
                    for k in 0..=8 {
                        let x = cx - w / 2.0 + w * k as f64 / 8.0;
                        let y = if k == 0 || k == 8 {
                            cy
                        } else if k % 2 == 1 {
                            cy - 7.0
                        } else {
                            cy + 7.0
                        };
                        let _ = write!(pts, "{x},{y} ");
                    }
                    let dy = if el.kind == Kind::SpringDamper {
                        -6.0
                    } else {
                        0.0
                    };
                    let _ = writeln!(
                        o,
                        r#"<polyline points="{}" transform="translate(0 {dy})" fill="none" stroke="black" stroke-width="2"/>"#,
                        pts.trim_end()
                    );
                }
                if el.kind != Kind::Spring {
                    // Dashpot.
                    let dy = if el.kind == Kind::SpringDamper {
                        8.0
                    } else {
                        0.0
                    };
                    let y = cy + dy;
                    let _ = writeln!(
                        o,
                        r#"<path d="M{} {y} H{} M{} {} V{} H{} V{} M{} {} V{} M{} {y} H{}" fill="none" stroke="black" stroke-width="2"/>"#,
                        cx - w / 2.0,
                        cx - 4.0,
                        cx - 8.0,
                        y - 6.0,
                        y + 6.0,
                        cx + 8.0,
                        y - 6.0,
                        cx - 4.0,
                        y - 4.0,
                        y + 4.0,
                        cx + 8.0,
                        cx + w / 2.0
                    );
                }
                label(&mut o, cx, cy - 20.0, &el.name);
            }
            Kind::Gear => {
                let Some(gc) = lay.gears.get(&e) else {
                    continue;
                };
                for ((c, d), side) in [(gc.input, "in"), (gc.output, "out")] {
                    line(&mut o, centre(c), edge(c, d));
                    let (cx, cy) = centre(c);
                    let r = CELL * 0.42;
                    let _ = writeln!(
                        o,
                        r##"<circle cx="{cx}" cy="{cy}" r="{r}" fill="#ddd" stroke="black" stroke-width="2" stroke-dasharray="3 2"/>"##
                    );
                    let _ = writeln!(o, r#"<circle cx="{cx}" cy="{cy}" r="4" fill="black"/>"#);
                    let _ = writeln!(
                        o,
                        r#"<text x="{}" y="{}" text-anchor="middle" font-size="10">{}{}</text>"#,
                        cx,
                        cy + 16.0,
                        esc(&el.name),
                        if side == "in" { "i" } else { "o" }
                    );
                }
            }
            Kind::Clutch => {
                // Two friction plates facing each other.
                for p in &lay.poles[e] {
                    line(&mut o, centre(p.cell), edge(p.cell, p.dir));
                }
                let (cx, cy) = centre(cells[0]);
                for dx in [-5.0, 5.0] {
                    let _ = writeln!(
                        o,
                        r##"<rect x="{}" y="{}" width="6" height="40" fill="#c96" stroke="black"/>"##,
                        cx + dx - 3.0,
                        cy - 20.0
                    );
                }
                label(&mut o, cx, cy - 24.0, &el.name);
            }
            Kind::Limiter => {}
        }
    }
    // External actions: an arrow above the inertia, + along its speed, − against it.
    for act in &s.actions {
        let Some(e) = s.elements.iter().position(|el| el.name == act.target) else {
            continue;
        };
        let Some(&c) = lay.cells[e].first() else {
            continue;
        };
        let (cx, cy) = centre(c);
        let y = cy + CELL * 0.62;
        let (from, to) = if act.sign > 0 {
            (cx - 18.0, cx + 18.0)
        } else {
            (cx + 18.0, cx - 18.0)
        };
        let _ = writeln!(
            o,
            r#"<line x1="{cx}" y1="{}" x2="{cx}" y2="{y}" stroke="gray" stroke-dasharray="3 3"/>"#,
            cy + 24.0
        );
        let _ = writeln!(
            o,
            r#"<line x1="{from}" y1="{y}" x2="{to}" y2="{y}" stroke="crimson" stroke-width="2"/>"#
        );
        let dir = if to > from { -1.0 } else { 1.0 };
        let _ = writeln!(
            o,
            r#"<polygon points="{to},{y} {},{} {},{}" fill="crimson"/>"#,
            to + dir * 8.0,
            y - 4.0,
            to + dir * 8.0,
            y + 4.0
        );
        label(
            &mut o,
            cx,
            y + 14.0,
            &format!("{}{}", if act.sign > 0 { "+" } else { "−" }, act.name),
        );
    }
    // Legend: every element's parameters and every action's law.
    let mut y = 2.0 * MARGIN + g.height as f64 * CELL + 12.0;
    for el in &s.elements {
        let params: Vec<String> = el
            .params
            .iter()
            .map(|p| format!("{} = {}", p.name, p.value))
            .collect();
        let _ = writeln!(
            o,
            r#"<text x="{MARGIN}" y="{y}">{} {}: {}</text>"#,
            el.kind.keyword(),
            esc(&el.name),
            esc(&params.join(", "))
        );
        y += 16.0;
    }
    for act in &s.actions {
        let _ = writeln!(
            o,
            r#"<text x="{MARGIN}" y="{y}">action {} on {}{} = {}</text>"#,
            esc(&act.name),
            if act.sign > 0 { "+" } else { "−" },
            esc(&act.target),
            esc(&act.value)
        );
        y += 16.0;
    }
    o.push_str("</svg>\n");
    o
}

fn label(o: &mut String, x: f64, y: f64, text: &str) {
    let _ = writeln!(
        o,
        r#"<text x="{x}" y="{y}" text-anchor="middle" font-weight="bold">{}</text>"#,
        esc(text)
    );
}
