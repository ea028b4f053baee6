//! The parsed form of a `.sch` file: the grid of cell tokens and the declarations.

use sit_parser::Span;

/// A direction on the grid; y grows downwards (row 1 is the top row), as in the paper.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// Towards row y − 1.
    Up,
    /// Towards row y + 1.
    Down,
    /// Towards column x − 1.
    Left,
    /// Towards column x + 1.
    Right,
}

impl Dir {
    /// All four, in the order of the bit masks of [`Glyph`].
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The opposite direction.
    pub fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }

    /// The step (dx, dy).
    pub fn delta(self) -> (i64, i64) {
        match self {
            Dir::Up => (0, -1),
            Dir::Down => (0, 1),
            Dir::Left => (-1, 0),
            Dir::Right => (1, 0),
        }
    }

    /// The word used in `.sch` files and messages.
    pub fn word(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::Left => "left",
            Dir::Right => "right",
        }
    }

    /// The bit of this direction in a glyph's arm mask.
    pub fn bit(self) -> u8 {
        match self {
            Dir::Up => 1,
            Dir::Down => 2,
            Dir::Left => 4,
            Dir::Right => 8,
        }
    }
}

/// A connector glyph: an extender (two arms) or a splitter (three or four arms).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Glyph {
    /// The arms, a mask of [`Dir::bit`].
    pub arms: u8,
}

impl Glyph {
    /// The glyph spelled by `token`, if it is one: `─ │ ┌ ┐ └ ┘` (and ASCII `-`, `|`)
    /// are extenders; `├ ┤ ┬ ┴ ┼` (and ASCII `+`) are splitters.
    pub fn from_token(token: &str) -> Option<Glyph> {
        let (u, d, l, r) = (1, 2, 4, 8);
        let arms = match token {
            "─" | "-" => l | r,
            "│" | "|" => u | d,
            "┌" => d | r,
            "┐" => d | l,
            "└" => u | r,
            "┘" => u | l,
            "├" => u | d | r,
            "┤" => u | d | l,
            "┬" => l | r | d,
            "┴" => l | r | u,
            "┼" | "+" => u | d | l | r,
            _ => return None,
        };
        Some(Glyph { arms })
    }

    /// Whether the glyph has an arm towards `dir`.
    pub fn has(self, dir: Dir) -> bool {
        self.arms & dir.bit() != 0
    }

    /// Its arms, in [`Dir::ALL`] order.
    pub fn dirs(self) -> impl Iterator<Item = Dir> {
        Dir::ALL.into_iter().filter(move |d| self.has(*d))
    }

    /// Whether it branches (more than two arms).
    pub fn is_splitter(self) -> bool {
        self.arms.count_ones() > 2
    }
}

/// What a grid cell holds, as written.
#[derive(Debug, Clone, PartialEq)]
pub enum Token {
    /// `.`: nothing (a dead end for the search).
    Empty,
    /// A connector glyph.
    Glyph(Glyph),
    /// A name: an element (`J1`, `D1`) or a gear cell (`T1i`, `T1o`).
    Name(String),
}

/// One cell of the grid.
#[derive(Debug, Clone)]
pub struct Cell {
    /// The token.
    pub token: Token,
    /// Where it is written.
    pub span: Span,
}

/// The grid, row by row.
#[derive(Debug, Clone, Default)]
pub struct Grid {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The cells, row-major: cell (x, y) (from 1) is `cells[(y − 1)·width + x − 1]`.
    pub cells: Vec<Cell>,
    /// The `grid` keyword.
    pub span: Span,
}

impl Grid {
    /// The cell at (x, y) counted from 1, if inside the grid.
    pub fn at(&self, x: i64, y: i64) -> Option<&Cell> {
        if x < 1 || y < 1 || x as usize > self.width || y as usize > self.height {
            return None;
        }
        self.cells
            .get((y as usize - 1) * self.width + x as usize - 1)
    }

    /// The (x, y) of the cell with this index.
    pub fn pos(&self, index: usize) -> (i64, i64) {
        (
            (index % self.width) as i64 + 1,
            (index / self.width) as i64 + 1,
        )
    }

    /// The index of (x, y), if inside.
    pub fn index(&self, x: i64, y: i64) -> Option<usize> {
        self.at(x, y)
            .map(|_| (y as usize - 1) * self.width + x as usize - 1)
    }
}

/// The type of an element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Inertial element: moment of inertia `J`, optional initial speed `w0`.
    Inertia,
    /// Elastic element: stiffness `c`.
    Spring,
    /// Dissipative element: damping `mu`.
    Damper,
    /// Elastic and dissipative in parallel: `c` and `mu`.
    SpringDamper,
    /// Gear pair: ratio `u = ω_in/ω_out`, efficiency `eta`; cells `NAMEi` and `NAMEo`.
    Gear,
    /// Switching friction (clutch, brake) between two inertias: friction moment `Mf`.
    Clutch,
    /// Limiting friction (adhesion).
    Limiter,
}

impl Kind {
    /// The keyword of the kind.
    pub fn keyword(self) -> &'static str {
        match self {
            Kind::Inertia => "inertia",
            Kind::Spring => "spring",
            Kind::Damper => "damper",
            Kind::SpringDamper => "spring_damper",
            Kind::Gear => "gear",
            Kind::Clutch => "clutch",
            Kind::Limiter => "limiter",
        }
    }

    /// The kind named by a keyword.
    pub fn from_keyword(word: &str) -> Option<Kind> {
        Some(match word {
            "inertia" => Kind::Inertia,
            "spring" => Kind::Spring,
            "damper" => Kind::Damper,
            "spring_damper" => Kind::SpringDamper,
            "gear" => Kind::Gear,
            "clutch" => Kind::Clutch,
            "limiter" => Kind::Limiter,
            _ => return None,
        })
    }

    /// The parameters it needs, and the optional ones with their defaults.
    pub fn params(
        self,
    ) -> (
        &'static [&'static str],
        &'static [(&'static str, &'static str)],
    ) {
        match self {
            Kind::Inertia => (&["J"], &[("w0", "0")]),
            Kind::Spring => (&["c"], &[]),
            Kind::Damper => (&["mu"], &[]),
            Kind::SpringDamper => (&["c", "mu"], &[]),
            Kind::Gear => (&["u"], &[("eta", "1")]),
            Kind::Clutch => (&["Mf"], &[]),
            Kind::Limiter => (&[], &[]),
        }
    }

    /// Whether it is a connector whose moments the search assigns to inertias
    /// (a column of the elastic or dissipative matrix).
    pub fn is_compliant(self) -> bool {
        matches!(self, Kind::Spring | Kind::Damper | Kind::SpringDamper)
    }

    /// Whether the search follows its poles to inertias: compliant elements and clutches.
    pub fn is_connector(self) -> bool {
        self.is_compliant() || self == Kind::Clutch
    }

    /// Whether it has a column in the elastic matrix.
    pub fn is_elastic(self) -> bool {
        matches!(self, Kind::Spring | Kind::SpringDamper)
    }

    /// Whether it has a column in the dissipative matrix.
    pub fn is_dissipative(self) -> bool {
        matches!(self, Kind::Damper | Kind::SpringDamper)
    }
}

/// A parameter `name = value` of an element; the value is `.sit` expression text.
#[derive(Debug, Clone)]
pub struct Param {
    /// Its name (`J`, `c`, `u`).
    pub name: String,
    /// The name's span.
    pub name_span: Span,
    /// The value as written.
    pub value: String,
    /// The value's span.
    pub value_span: Span,
}

/// `pole DIR at (x, y) [weight w];`: a pole leaving cell (x, y) towards `dir`.
#[derive(Debug, Clone)]
pub struct PoleDecl {
    /// Its direction.
    pub dir: Dir,
    /// The element's cell it leaves from.
    pub at: (i64, i64),
    /// The pole weight (2 for the case pole of a symmetric differential).
    pub weight: f64,
    /// The weight as written (`2`), for the generated text.
    pub weight_text: String,
    /// The declaration.
    pub span: Span,
}

/// An element declaration.
#[derive(Debug, Clone)]
pub struct Element {
    /// Its type.
    pub kind: Kind,
    /// Its name (the grid token).
    pub name: String,
    /// The name's span.
    pub name_span: Span,
    /// Its parameters.
    pub params: Vec<Param>,
    /// Poles declared explicitly.
    pub poles: Vec<PoleDecl>,
    /// Doc comment lines.
    pub doc: Vec<String>,
    /// The whole declaration.
    pub span: Span,
}

impl Element {
    /// The value text of parameter `name`, or its default.
    pub fn param(&self, name: &str) -> Option<&str> {
        (self.params.iter().find(|p| p.name == name))
            .map(|p| p.value.as_str())
            .or_else(|| {
                (self.kind.params().1.iter())
                    .find(|(n, _)| *n == name)
                    .map(|(_, d)| *d)
            })
    }
}

/// `action NAME on [+|-]INERTIA = EXPR;`: an external moment.
#[derive(Debug, Clone)]
pub struct Action {
    /// Its name.
    pub name: String,
    /// The name's span.
    pub name_span: Span,
    /// +1 when it acts along the inertia's velocity, −1 against it.
    pub sign: i8,
    /// The inertia it acts on.
    pub target: String,
    /// The target's span.
    pub target_span: Span,
    /// The moment's magnitude, `.sit` expression text.
    pub value: String,
    /// The value's span.
    pub value_span: Span,
    /// Doc comment lines.
    pub doc: Vec<String>,
    /// The whole declaration.
    pub span: Span,
}

/// A `param ...;` or `input ...;` declaration copied into the generated model.
#[derive(Debug, Clone)]
pub struct Verbatim {
    /// The declaration as written, with its `;`.
    pub text: String,
    /// Where.
    pub span: Span,
}

/// The torque form of the equations (digest §9.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Form {
    /// Pole weights in the moment balance as in the kinematics: conserves power.
    #[default]
    PowerConsistent,
    /// As printed in the paper's equations (1): pole weights omitted from the moments.
    Printed,
}

impl Form {
    /// The word used in `.sch` files and on the command line.
    pub fn word(self) -> &'static str {
        match self {
            Form::PowerConsistent => "power_consistent",
            Form::Printed => "printed",
        }
    }
}

/// A parsed schematic.
#[derive(Debug, Clone)]
pub struct Schematic {
    /// Its name, which becomes the model's name.
    pub name: String,
    /// The name's span.
    pub name_span: Span,
    /// Doc comment lines.
    pub doc: Vec<String>,
    /// The grid.
    pub grid: Grid,
    /// The elements, in declaration order.
    pub elements: Vec<Element>,
    /// The external actions, in declaration order.
    pub actions: Vec<Action>,
    /// Declarations copied into the model.
    pub verbatim: Vec<Verbatim>,
    /// The torque form chosen in the file (`equations printed;`), if any.
    pub form: Option<Form>,
}
