//! What each cell holds and where each pole starts, with the drawing checks (E0501–E0513, E0517, E0518).

use crate::ast::{Dir, Glyph, Kind, Schematic, Token};
use sit_parser::{Diagnostic, Span};
use std::collections::HashMap;

/// What occupies a cell once names are resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Occ {
    /// Nothing: a dead end.
    Empty,
    /// An extender or splitter.
    Glyph(Glyph),
    /// A cell of element `n` (not a gear).
    Elem(usize),
    /// The input (`true`) or output cell of gear element `n`.
    Gear(usize, bool),
}

/// A pole of an element: the cell it leaves and the direction.
#[derive(Debug, Clone)]
pub struct Pole {
    /// Index of the element's cell.
    pub cell: usize,
    /// Direction out of the cell.
    pub dir: Dir,
    /// Pole weight.
    pub weight: f64,
    /// The weight as written.
    pub weight_text: String,
    /// Its declaration, or the element's cell for a default pole.
    pub span: Span,
}

/// The resolved grid.
#[derive(Debug, Clone)]
pub struct Layout {
    /// Per cell.
    pub occ: Vec<Occ>,
    /// Per element: its poles (inertias: left, right; compliant: declared or left, right).
    pub poles: Vec<Vec<Pole>>,
    /// Per gear element: its input and output cell indices and shaft directions.
    pub gears: HashMap<usize, GearCells>,
    /// Per element: its cells.
    pub cells: Vec<Vec<usize>>,
    /// Per element: whether it is an inertia.
    pub inertia: Vec<bool>,
}

/// The two cells of a gear pair.
#[derive(Debug, Clone, Copy)]
pub struct GearCells {
    /// Input cell and its shaft direction.
    pub input: (usize, Dir),
    /// Output cell and its shaft direction.
    pub output: (usize, Dir),
}

/// Resolve names and check the drawing; `None` when there are errors (pushed to `diags`).
pub fn layout(s: &Schematic, diags: &mut Vec<Diagnostic>) -> Option<Layout> {
    let errors = diags.len();
    let mut by_name: HashMap<&str, usize> = HashMap::new();
    let mut duplicate = vec![false; s.elements.len()];
    for (i, e) in s.elements.iter().enumerate() {
        if let Some(&prev) = by_name.get(e.name.as_str()) {
            duplicate[i] = true;
            diags.push(
                Diagnostic::error(
                    "E0511",
                    e.name_span,
                    format!("`{}` is declared twice", e.name),
                )
                .with_label("second declaration")
                .with_related(s.elements[prev].name_span, "first declared here"),
            );
        } else {
            by_name.insert(&e.name, i);
        }
        check_params(e, diags);
        if e.kind == Kind::Limiter {
            let what = "limiting friction (`limiter`)";
            diags.push(
                Diagnostic::error("E0517", e.name_span, format!("{what} is not supported yet"))
                    .with_label("not supported")
                    .with_note(
                        "adhesion between an inertia and an elastic element needs a law of \
                         the adhesion coefficient, which the paper does not give",
                    )
                    .with_help(
                        "model the adhesion in a `.sit` model that instantiates this schematic, \
                         or limit the wheel's action moment",
                    ),
            );
        }
    }
    let mut action_names: HashMap<&str, Span> = HashMap::new();
    for a in &s.actions {
        if let Some(prev) = action_names.get(a.name.as_str()) {
            diags.push(
                Diagnostic::error(
                    "E0511",
                    a.name_span,
                    format!("`{}` is declared twice", a.name),
                )
                .with_label("second declaration")
                .with_related(*prev, "first declared here"),
            );
        } else if let Some(&e) = by_name.get(a.name.as_str()) {
            diags.push(
                Diagnostic::error(
                    "E0511",
                    a.name_span,
                    format!("`{}` is declared twice", a.name),
                )
                .with_label("an action with an element's name")
                .with_related(s.elements[e].name_span, "the element"),
            );
        } else {
            action_names.insert(&a.name, a.name_span);
        }
        match by_name.get(a.target.as_str()) {
            Some(&e) if s.elements[e].kind == Kind::Inertia => {}
            Some(&e) => diags.push(
                Diagnostic::error(
                    "E0508",
                    a.target_span,
                    format!(
                        "the action `{}` acts on `{}`, a {}, not an inertia",
                        a.name,
                        a.target,
                        s.elements[e].kind.keyword()
                    ),
                )
                .with_label("not an inertia")
                .with_related(s.elements[e].name_span, "declared here")
                .with_note("external moments act on inertial elements only (the paper's rule)"),
            ),
            None => diags.push(
                Diagnostic::error(
                    "E0508",
                    a.target_span,
                    format!(
                        "the action `{}` acts on `{}`, which is not declared",
                        a.name, a.target
                    ),
                )
                .with_label("no such inertia"),
            ),
        }
    }

    // Resolve cell tokens.
    let g = &s.grid;
    let mut occ = vec![Occ::Empty; g.cells.len()];
    let mut cells: Vec<Vec<usize>> = vec![Vec::new(); s.elements.len()];
    let mut gear_cells: HashMap<usize, [Vec<usize>; 2]> = HashMap::new();
    for (i, cell) in g.cells.iter().enumerate() {
        occ[i] = match &cell.token {
            Token::Empty => Occ::Empty,
            Token::Glyph(gl) => Occ::Glyph(*gl),
            Token::Name(n) => match resolve(n, &by_name, s) {
                Some((e, None)) => {
                    cells[e].push(i);
                    Occ::Elem(e)
                }
                Some((e, Some(input))) => {
                    gear_cells.entry(e).or_default()[usize::from(!input)].push(i);
                    Occ::Gear(e, input)
                }
                None => {
                    let mut d = Diagnostic::error(
                        "E0501",
                        cell.span,
                        format!("unknown cell token `{n}`: no element has this name"),
                    )
                    .with_label("not declared");
                    if by_name
                        .get(n.as_str())
                        .is_some_and(|&e| s.elements[e].kind == Kind::Gear)
                    {
                        d = d.with_help(format!(
                            "a gear pair is drawn as two cells, `{n}i` (input) and `{n}o` (output)"
                        ));
                    } else {
                        d = d.with_help(format!(
                            "declare it below the grid, e.g. `inertia {n} (J = 1);`"
                        ));
                    }
                    diags.push(d);
                    Occ::Empty
                }
            },
        };
    }

    // Every element drawn, in the right number of connected cells.
    for (e, el) in s.elements.iter().enumerate() {
        if duplicate[e] {
            continue;
        }
        match el.kind {
            Kind::Gear | Kind::Limiter => {}
            kind => {
                let cs = &cells[e];
                if cs.is_empty() {
                    diags.push(
                        Diagnostic::error(
                            "E0512",
                            el.name_span,
                            format!("`{}` is declared but not drawn in the grid", el.name),
                        )
                        .with_label("no cell of the grid holds it"),
                    );
                } else if kind == Kind::Inertia && cs.len() > 1 {
                    diags.push(
                        Diagnostic::error(
                            "E0512",
                            g.cells[cs[1]].span,
                            format!("the inertia `{}` is drawn in {} cells", el.name, cs.len()),
                        )
                        .with_label("a second cell")
                        .with_related(g.cells[cs[0]].span, "the first")
                        .with_note("an inertia is one cell with a pole on its left and right"),
                    );
                } else if let Some(apart) = disconnected(g, cs) {
                    diags.push(
                        Diagnostic::error(
                            "E0512",
                            g.cells[apart].span,
                            format!("the cells of `{}` are not all connected", el.name),
                        )
                        .with_label("not next to the other cells")
                        .with_related(g.cells[cs[0]].span, "the element starts here")
                        .with_note("a multi-cell element is one block of side-adjacent cells"),
                    );
                }
            }
        }
    }

    // Poles of inertias and compliant elements.
    let mut poles: Vec<Vec<Pole>> = vec![Vec::new(); s.elements.len()];
    for (e, el) in s.elements.iter().enumerate() {
        let cs = &cells[e];
        if cs.is_empty() || !(el.kind == Kind::Inertia || el.kind.is_connector()) {
            continue;
        }
        let default = |dir| Pole {
            cell: cs[0],
            dir,
            weight: 1.0,
            weight_text: "1".into(),
            span: g.cells[cs[0]].span,
        };
        if el.kind == Kind::Inertia {
            if let Some(p) = el.poles.first() {
                diags.push(
                    Diagnostic::error("E0513", p.span, "an inertia's poles cannot be declared")
                        .with_label("an inertia always has a left and a right pole"),
                );
            }
            poles[e] = vec![default(Dir::Left), default(Dir::Right)];
        } else if el.poles.is_empty() {
            if cs.len() > 1 {
                diags.push(
                    Diagnostic::error(
                        "E0513",
                        el.name_span,
                        format!("`{}` spans {} cells: declare its poles", el.name, cs.len()),
                    )
                    .with_label("poles needed")
                    .with_help("e.g. `{ pole left at (3,5) weight 2; pole up at (4,4); }`"),
                );
            } else {
                poles[e] = vec![default(Dir::Left), default(Dir::Right)];
            }
        } else {
            for p in &el.poles {
                let Some(ci) = g.index(p.at.0, p.at.1).filter(|ci| cs.contains(ci)) else {
                    diags.push(
                        Diagnostic::error(
                            "E0513",
                            p.span,
                            format!(
                                "cell ({},{}) is not a cell of `{}`",
                                p.at.0, p.at.1, el.name
                            ),
                        )
                        .with_label("a pole must leave one of the element's cells"),
                    );
                    continue;
                };
                let (x, y) = g.pos(ci);
                let (dx, dy) = p.dir.delta();
                if g.index(x + dx, y + dy).is_some_and(|n| cs.contains(&n)) {
                    diags.push(
                        Diagnostic::error(
                            "E0513",
                            p.span,
                            format!("this pole points into `{}` itself", el.name),
                        )
                        .with_label("a pole must leave the element"),
                    );
                    continue;
                }
                poles[e].push(Pole {
                    cell: ci,
                    dir: p.dir,
                    weight: p.weight,
                    weight_text: p.weight_text.clone(),
                    span: p.span,
                });
            }
            if poles[e].len() < 2 && diags.len() == errors {
                diags.push(
                    Diagnostic::error(
                        "E0513",
                        el.name_span,
                        format!(
                            "`{}` has {} pole; an element needs two or more",
                            el.name,
                            poles[e].len()
                        ),
                    )
                    .with_label("too few poles"),
                );
            }
        }
    }
    // Gear pairs last: a gear cell's shaft is the side whose neighbour can face it.
    let mut gears = HashMap::new();
    for (e, el) in s.elements.iter().enumerate() {
        if el.kind == Kind::Gear {
            let [ins, outs] = gear_cells.remove(&e).unwrap_or_default();
            if let Some(gc) = gear_pair(s, e, &ins, &outs, &occ, &poles, diags) {
                gears.insert(e, gc);
            }
        }
    }
    let lay = Layout {
        occ,
        poles,
        gears,
        cells,
        inertia: s.elements.iter().map(|e| e.kind == Kind::Inertia).collect(),
    };
    if diags.len() == errors {
        check_connections(s, &lay, diags);
    }
    (diags.len() == errors).then_some(lay)
}

/// Which element (and gear side) a cell name means.
fn resolve(
    n: &str,
    by_name: &HashMap<&str, usize>,
    s: &Schematic,
) -> Option<(usize, Option<bool>)> {
    if let Some(&e) = by_name.get(n)
        && s.elements[e].kind != Kind::Gear
    {
        return Some((e, None));
    }
    let (base, input) = if let Some(b) = n.strip_suffix('i') {
        (b, true)
    } else {
        (n.strip_suffix('o')?, false)
    };
    let &e = by_name.get(base)?;
    (s.elements[e].kind == Kind::Gear).then_some((e, Some(input)))
}

fn check_params(e: &crate::ast::Element, diags: &mut Vec<Diagnostic>) {
    let (required, optional) = e.kind.params();
    let known = |n: &str| required.contains(&n) || optional.iter().any(|(o, _)| *o == n);
    let mut seen: Vec<&str> = Vec::new();
    for p in &e.params {
        if !known(&p.name) {
            let mut all: Vec<String> = required.iter().map(|r| format!("`{r}`")).collect();
            all.extend(optional.iter().map(|(o, _)| format!("`{o}`")));
            diags.push(
                Diagnostic::error(
                    "E0510",
                    p.name_span,
                    format!(
                        "{} {} has no parameter `{}`",
                        article(e.kind),
                        e.kind.keyword(),
                        p.name
                    ),
                )
                .with_label("unknown parameter")
                .with_note(if all.is_empty() {
                    format!(
                        "{} {} takes no parameters",
                        article(e.kind),
                        e.kind.keyword()
                    )
                } else {
                    format!("its parameters: {}", all.join(", "))
                }),
            );
        } else if seen.contains(&p.name.as_str()) {
            diags.push(
                Diagnostic::error("E0510", p.name_span, format!("`{}` is given twice", p.name))
                    .with_label("again"),
            );
        }
        seen.push(&p.name);
    }
    for r in required {
        if !seen.contains(r) {
            diags.push(
                Diagnostic::error(
                    "E0510",
                    e.name_span,
                    format!(
                        "the {} `{}` needs a value for `{r}`",
                        e.kind.keyword(),
                        e.name
                    ),
                )
                .with_label(format!("no `{r}`"))
                .with_help(format!(
                    "e.g. `{} {} ({r} = 1);`",
                    e.kind.keyword(),
                    e.name
                )),
            );
        }
    }
}

fn article(k: Kind) -> &'static str {
    if k == Kind::Inertia { "an" } else { "a" }
}

/// A cell of `cs` not connected to the first one, if any.
fn disconnected(g: &crate::ast::Grid, cs: &[usize]) -> Option<usize> {
    let mine: std::collections::HashSet<usize> = cs.iter().copied().collect();
    let mut seen = std::collections::HashSet::from([cs[0]]);
    let mut reached = vec![cs[0]];
    let mut k = 0;
    while k < reached.len() {
        let (x, y) = g.pos(reached[k]);
        for d in Dir::ALL {
            let (dx, dy) = d.delta();
            if let Some(n) = g.index(x + dx, y + dy)
                && mine.contains(&n)
                && seen.insert(n)
            {
                reached.push(n);
            }
        }
        k += 1;
    }
    cs.iter().copied().find(|c| !seen.contains(c))
}

/// Check a gear's two cells and find their shafts.
fn gear_pair(
    s: &Schematic,
    e: usize,
    ins: &[usize],
    outs: &[usize],
    occ: &[Occ],
    poles: &[Vec<Pole>],
    diags: &mut Vec<Diagnostic>,
) -> Option<GearCells> {
    let g = &s.grid;
    let el = &s.elements[e];
    let mut ok = true;
    for (list, side) in [(ins, 'i'), (outs, 'o')] {
        if list.len() > 1 {
            diags.push(
                Diagnostic::error(
                    "E0512",
                    g.cells[list[1]].span,
                    format!("the gear cell `{}{side}` is drawn twice", el.name),
                )
                .with_label("a second cell")
                .with_related(g.cells[list[0]].span, "the first"),
            );
            ok = false;
        }
    }
    let (i, o) = match (ins.first(), outs.first()) {
        (Some(&i), Some(&o)) => (i, o),
        (None, None) => {
            diags.push(
                Diagnostic::error(
                    "E0512",
                    el.name_span,
                    format!(
                        "the gear `{}` is declared but not drawn in the grid",
                        el.name
                    ),
                )
                .with_label(format!("no cells `{0}i` and `{0}o` in the grid", el.name)),
            );
            return None;
        }
        (Some(&c), None) | (None, Some(&c)) => {
            let (have, missing) = if ins.is_empty() {
                ('o', 'i')
            } else {
                ('i', 'o')
            };
            diags.push(
                Diagnostic::error(
                    "E0506",
                    g.cells[c].span,
                    format!(
                        "the gear cell `{}{have}` has no partner `{}{missing}`",
                        el.name, el.name
                    ),
                )
                .with_label("a gear without its partner")
                .with_help(format!(
                    "draw `{}{missing}` directly above or below this cell",
                    el.name
                )),
            );
            return None;
        }
    };
    let (ix, iy) = g.pos(i);
    let (ox, oy) = g.pos(o);
    if ix != ox || (iy - oy).abs() != 1 {
        diags.push(
            Diagnostic::error(
                "E0506",
                g.cells[o].span,
                format!(
                    "the gear cells `{0}i` ({ix},{iy}) and `{0}o` ({ox},{oy}) are not one above the other",
                    el.name
                ),
            )
            .with_label("not meshed with its partner")
            .with_related(g.cells[i].span, "the input gear")
            .with_note("the two gears of a pair mesh through vertically adjacent cells"),
        );
        return None;
    }
    let mut shaft = |c: usize| {
        let (x, y) = g.pos(c);
        let side = |d: Dir| {
            let (dx, dy) = d.delta();
            g.index(x + dx, y + dy).is_some_and(|n| match occ[n] {
                Occ::Empty => false,
                Occ::Glyph(gl) => gl.has(d.opposite()),
                Occ::Elem(o) => poles[o]
                    .iter()
                    .any(|p| p.cell == n && p.dir == d.opposite()),
                Occ::Gear(..) => true,
            })
        };
        match (side(Dir::Left), side(Dir::Right)) {
            (true, false) => Some(Dir::Left),
            (false, true) => Some(Dir::Right),
            (both, _) => {
                diags.push(
                    Diagnostic::error(
                        "E0518",
                        g.cells[c].span,
                        if both {
                            format!("the gear cell `{}` could have its shaft on either side", cell_name(g, c))
                        } else {
                            format!("the gear cell `{}` has no shaft", cell_name(g, c))
                        },
                    )
                    .with_label(if both {
                        "which side is its shaft?"
                    } else {
                        "nothing on its left or right connects to it"
                    })
                    .with_note(
                        "a gear cell's shaft leaves to the one side (left or right) whose neighbour has a pole facing it",
                    ),
                );
                None
            }
        }
    };
    let si = shaft(i);
    let so = shaft(o);
    match (si, so, ok) {
        (Some(si), Some(so), true) => Some(GearCells {
            input: (i, si),
            output: (o, so),
        }),
        _ => None,
    }
}

/// The name written in cell `c`.
fn cell_name(g: &crate::ast::Grid, c: usize) -> &str {
    match &g.cells[c].token {
        Token::Name(n) => n,
        _ => "",
    }
}

impl Layout {
    /// Whether the cell `n` has a pole (or arm) towards `dir`.
    pub fn faces(&self, n: usize, dir: Dir) -> bool {
        match self.occ[n] {
            Occ::Empty => false,
            Occ::Glyph(gl) => gl.has(dir),
            Occ::Elem(e) => self.poles[e].iter().any(|p| p.cell == n && p.dir == dir),
            Occ::Gear(e, input) => self.gears.get(&e).is_some_and(|gc| {
                let (c, d) = if input { gc.input } else { gc.output };
                c == n && d == dir
            }),
        }
    }

    /// Every pole and arm of the grid: (cell, direction, what must be there).
    fn arms(&self) -> Vec<(usize, Dir, ArmKind)> {
        let mut out = Vec::new();
        for (i, o) in self.occ.iter().enumerate() {
            match *o {
                Occ::Glyph(gl) => out.extend(gl.dirs().map(|d| (i, d, ArmKind::Shaft))),
                Occ::Gear(e, input) => {
                    if let Some(gc) = self.gears.get(&e) {
                        let (c, d) = if input { gc.input } else { gc.output };
                        out.push((c, d, ArmKind::Shaft));
                    }
                }
                Occ::Empty | Occ::Elem(_) => {}
            }
        }
        for (e, ps) in self.poles.iter().enumerate() {
            for p in ps {
                let kind = if self.inertia[e] {
                    ArmKind::Free
                } else {
                    ArmKind::Pole(e)
                };
                out.push((p.cell, p.dir, kind));
            }
        }
        out
    }
}

#[derive(Clone, Copy)]
enum ArmKind {
    /// An extender or gear shaft: must lead somewhere.
    Shaft,
    /// A pole of a compliant element: must lead somewhere.
    Pole(usize),
    /// An inertia's pole: may end in an empty cell.
    Free,
}

/// Every shaft and pole must meet a cell with a pole facing back (E0503–E0505).
fn check_connections(s: &Schematic, lay: &Layout, diags: &mut Vec<Diagnostic>) {
    let g = &s.grid;
    for (cell, dir, kind) in lay.arms() {
        let (x, y) = g.pos(cell);
        let (dx, dy) = dir.delta();
        let (nx, ny) = (x + dx, y + dy);
        let here = &g.cells[cell];
        let what = |k: ArmKind| match k {
            ArmKind::Pole(e) => format!("`{}`'s pole", s.elements[e].name),
            ArmKind::Free => format!("`{}`'s pole", cell_name(g, cell)),
            ArmKind::Shaft => match &here.token {
                Token::Name(n) => format!("the shaft of `{n}`"),
                _ => "this shaft".to_string(),
            },
        };
        match g.index(nx, ny) {
            Some(n) if lay.occ[n] != Occ::Empty => {
                if !lay.faces(n, dir.opposite()) {
                    diags.push(
                        Diagnostic::error(
                            "E0504",
                            g.cells[n].span,
                            format!(
                                "{} going {} from ({x},{y}) meets a cell with no pole facing it",
                                what(kind),
                                dir.word()
                            ),
                        )
                        .with_label(format!("no pole pointing {}", dir.opposite().word()))
                        .with_related(here.span, "the pole comes from here")
                        .with_note(
                            "two cells connect when each has a pole towards the other: an extender \
                             by its glyph, a gear cell by its shaft, a multi-cell element by its \
                             declared poles",
                        ),
                    );
                }
            }
            _ => match kind {
                ArmKind::Free => {}
                ArmKind::Shaft => diags.push(
                    Diagnostic::error(
                        "E0503",
                        here.span,
                        format!(
                            "a gap in a shaft: {} going {} from ({x},{y}) reaches {}",
                            what(kind),
                            dir.word(),
                            if g.index(nx, ny).is_some() {
                                format!("the empty cell ({nx},{ny})")
                            } else {
                                "the edge of the grid".to_string()
                            }
                        ),
                    )
                    .with_label(format!("leads {} into nothing", dir.word()))
                    .with_help("continue the shaft with an extender (`─`, `│`, a corner) or end it at an element"),
                ),
                ArmKind::Pole(_) => diags.push(
                    Diagnostic::error(
                        "E0505",
                        here.span,
                        format!(
                            "{} going {} from ({x},{y}) points into {}",
                            what(kind),
                            dir.word(),
                            if g.index(nx, ny).is_some() {
                                format!("the empty cell ({nx},{ny})")
                            } else {
                                "the edge of the grid".to_string()
                            }
                        ),
                    )
                    .with_label("a pole into an empty cell")
                    .with_help("draw what it connects to in that cell, or remove the pole"),
                ),
            },
        }
    }
}
