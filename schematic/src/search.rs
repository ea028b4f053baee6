//! The paper's search along poles, from each compliant element to the inertias it loads
//! (digest §4), with the gears each path crosses; E0507, E0509, E0514–E0516, E0519.

use crate::ast::{Dir, Kind, Schematic};
use crate::layout::{Layout, Occ};
use sit_parser::{Diagnostic, Span};
use std::collections::HashSet;

/// How a path crosses a gear pair, read from the element towards the inertia.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Crossing {
    /// Enters at the input gear, leaves at the output gear.
    InToOut,
    /// Enters at the output gear, leaves at the input gear.
    OutToIn,
}

/// One recorded path: pole `pole` of element `element` reaches inertia `inertia`.
#[derive(Debug, Clone)]
pub struct Link {
    /// The compliant element (index into the schematic's elements).
    pub element: usize,
    /// The pole's number in the element's pole list (0 = pole I).
    pub pole: usize,
    /// The inertia reached (index into the schematic's elements).
    pub inertia: usize,
    /// The incidence sign: −1 where power flows from the inertia into the element.
    pub sign: i8,
    /// The gears crossed, in path order.
    pub gears: Vec<(usize, Crossing)>,
}

/// Search every compliant element's poles; `None` when there are errors.
pub fn search(s: &Schematic, lay: &Layout, diags: &mut Vec<Diagnostic>) -> Option<Vec<Link>> {
    let errors = diags.len();
    // Rigid connections: from each inertia, a path must end at a compliant element.
    for (e, el) in s.elements.iter().enumerate() {
        if el.kind != Kind::Inertia {
            continue;
        }
        for (k, pole) in lay.poles[e].iter().enumerate() {
            let found = walk(s, lay, e, pole.cell, pole.dir, false, diags);
            for hit in found {
                // Each rigid pair once, from its lower-numbered inertia.
                if lay.inertia[hit.elem] && hit.elem >= e {
                    let other = &s.elements[hit.elem];
                    diags.push(
                        Diagnostic::error(
                            "E0515",
                            s.grid.cells[hit.cell].span,
                            if hit.elem == e {
                                format!("`{}` is joined rigidly to itself", el.name)
                            } else {
                                format!(
                                    "the inertias `{}` and `{}` are joined rigidly (no spring or damper between them)",
                                    el.name, other.name
                                )
                            },
                        )
                        .with_label("reached from the other inertia through shafts and gears only")
                        .with_related(s.grid.cells[lay.poles[e][k].cell].span, "starting here")
                        .with_help(
                            "the structural-matrix method needs an elastic or dissipative element \
                             between inertias: merge them into one inertia (reduced through the gear) \
                             or insert a `spring_damper`",
                        ),
                    );
                }
            }
        }
    }
    let index: std::collections::HashMap<&str, usize> = (s.elements.iter().enumerate())
        .map(|(i, e)| (e.name.as_str(), i))
        .collect();
    let driven: HashSet<usize> = (s.actions.iter())
        .filter(|a| a.sign > 0)
        .filter_map(|a| index.get(a.target.as_str()).copied())
        .collect();
    let mut links = Vec::new();
    for (e, el) in s.elements.iter().enumerate() {
        if !el.kind.is_connector() {
            continue;
        }
        let mut mine: Vec<Link> = Vec::new();
        for (k, pole) in lay.poles[e].iter().enumerate() {
            let found = walk(s, lay, e, pole.cell, pole.dir, true, diags);
            for hit in found {
                if hit.elem == e {
                    continue; // back to itself round a loop: reported as E0509
                }
                if !lay.inertia[hit.elem] {
                    let other = &s.elements[hit.elem];
                    diags.push(
                        Diagnostic::error(
                            "E0514",
                            s.grid.cells[hit.cell].span,
                            format!(
                                "pole {} of `{}` reaches the {} `{}` before any inertia",
                                k + 1,
                                el.name,
                                other.kind.keyword(),
                                other.name
                            ),
                        )
                        .with_label("another compliant element")
                        .with_related(pole.span, "the pole")
                        .with_help(
                            "put an inertia between them, or combine them into one element \
                             (springs in series: 1/c = 1/c1 + 1/c2)",
                        ),
                    );
                    continue;
                }
                if let Some(prev) = mine.iter().find(|l| l.inertia == hit.elem) {
                    diags.push(
                        Diagnostic::error(
                            "E0516",
                            s.grid.cells[hit.cell].span,
                            format!(
                                "`{}` reaches the inertia `{}` twice (poles {} and {})",
                                el.name,
                                s.elements[hit.elem].name,
                                prev.pole + 1,
                                k + 1
                            ),
                        )
                        .with_label("reached again")
                        .with_note("each pole of an element must load a different inertia"),
                    );
                    continue;
                }
                mine.push(Link {
                    element: e,
                    pole: k,
                    inertia: hit.elem,
                    sign: if k == 0 { -1 } else { 1 },
                    gears: hit.gears,
                });
            }
        }
        if mine.is_empty() {
            diags.push(
                Diagnostic::error(
                    "E0507",
                    el.name_span,
                    format!("`{}` reaches no inertia", el.name),
                )
                .with_label("no pole of this element leads to an inertia")
                .with_note("the search follows its poles through extenders, splitters and gears"),
            );
        }
        // Power-flow sign (digest §3): the pole on the driven side (reaching an inertia
        // with a `+` action) is the source and gets −1, the other poles +1; when no pole
        // or several poles reach a driven inertia, pole I is the source.
        let driven_poles: Vec<usize> = (mine.iter())
            .filter(|l| driven.contains(&l.inertia))
            .map(|l| l.pole)
            .collect();
        let source = match driven_poles.as_slice() {
            [p] => *p,
            [p, rest @ ..] if rest.iter().all(|q| q == p) => *p,
            _ => 0,
        };
        for l in &mut mine {
            l.sign = if l.pole == source { -1 } else { 1 };
        }
        if el.kind == Kind::Clutch && mine.len() != 2 && !mine.is_empty() {
            diags.push(
                Diagnostic::error(
                    "E0519",
                    el.name_span,
                    format!(
                        "the clutch `{}` reaches {} inertia{}; a clutch joins exactly two",
                        el.name,
                        mine.len(),
                        if mine.len() == 1 { "" } else { "s" }
                    ),
                )
                .with_label("not between two inertias")
                .with_note("switching friction sits between two inertias (the paper's rule)"),
            );
        }
        links.extend(mine);
    }
    (diags.len() == errors).then_some(links)
}

/// Something a walk found: an element (inertia or compliant) in a cell, with the gears crossed.
struct Hit {
    elem: usize,
    cell: usize,
    gears: Vec<(usize, Crossing)>,
}

/// Follow the pole leaving `from` towards `dir` through extenders, splitters and gears
/// (depth-first, the branches of a splitter before the remaining poles), stopping at
/// elements. A visited set of (cell, direction) ends closed loops (E0509). With
/// `branch` false, splitters end the walk: they share an element's moment between
/// their branches (a symmetric differential), so they join nothing rigidly.
fn walk(
    s: &Schematic,
    lay: &Layout,
    origin: usize,
    from: usize,
    dir: Dir,
    branch: bool,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Hit> {
    let g = &s.grid;
    let mut hits = Vec::new();
    let mut visited: HashSet<(usize, Dir)> = HashSet::new();
    let step = |cell: usize, d: Dir| {
        let (x, y) = g.pos(cell);
        let (dx, dy) = d.delta();
        g.index(x + dx, y + dy)
    };
    // (cell entered, direction of travel, gears crossed so far)
    type Todo = (usize, Dir, Vec<(usize, Crossing)>);
    let mut stack: Vec<Todo> = Vec::new();
    if let Some(n) = step(from, dir) {
        stack.push((n, dir, Vec::new()));
    }
    let mut looped: Option<Span> = None;
    while let Some((cell, d, gears)) = stack.pop() {
        if !visited.insert((cell, d)) {
            looped.get_or_insert(g.cells[cell].span);
            continue;
        }
        match lay.occ[cell] {
            Occ::Empty => {}
            Occ::Elem(e) => hits.push(Hit {
                elem: e,
                cell,
                gears,
            }),
            Occ::Glyph(gl) if gl.is_splitter() && !branch => {}
            Occ::Glyph(gl) => {
                // Later arms pushed first so that the first arm is searched first.
                let arms: Vec<Dir> = gl.dirs().filter(|a| *a != d.opposite()).collect();
                for a in arms.into_iter().rev() {
                    if let Some(n) = step(cell, a) {
                        stack.push((n, a, gears.clone()));
                    }
                }
            }
            Occ::Gear(ge, input) => {
                let Some(gc) = lay.gears.get(&ge) else {
                    continue;
                };
                let (_, shaft) = if input { gc.input } else { gc.output };
                if d.opposite() != shaft {
                    continue; // entered through the mesh side: not a connection
                }
                let (partner, pshaft) = if input { gc.output } else { gc.input };
                let mut gears = gears;
                gears.push((
                    ge,
                    if input {
                        Crossing::InToOut
                    } else {
                        Crossing::OutToIn
                    },
                ));
                if let Some(n) = step(partner, pshaft) {
                    stack.push((n, pshaft, gears));
                }
            }
        }
    }
    if let Some(span) = looped {
        diags.push(
            Diagnostic::error(
                "E0509",
                span,
                format!(
                    "a closed loop of shafts: the search from `{}` comes back to this cell",
                    s.elements[origin].name
                ),
            )
            .with_label("reached a second time the same way")
            .with_note("the search stops here instead of going round forever")
            .with_help("a loop of shafts joins a shaft to itself: remove a cell of the loop"),
        );
    }
    hits
}
