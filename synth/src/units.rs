//! Random models with units (issue 30): every expression built for the unit it must have.
//!
//! Each variable gets a unit drawn from a palette (declared in three variables out of
//! four; the others are left for the check to infer), and each expression is drawn for
//! the unit its place needs: a sum of two terms of that unit, a product of two units
//! whose product it is, a square root of its square, a function of a plain number, a
//! number with that unit, a table read, a submodel's output. The models are consistent
//! by construction, so the unit check must accept them; and since units are erased,
//! the same text without its brackets must give the same program. Rules read only the
//! states declared before their target (and params, inputs, submodels' outputs, `time`
//! and `dt`), so that no algebraic loop needs breaking.

use std::fmt::Write as _;

/// A unit as exponents of m, kg and s (every unit here is coherent SI).
type Dim = [i8; 3];

/// The units drawn for variables: plain, the base units and common derived ones.
const PALETTE: [Dim; 12] = [
    [0, 0, 0],
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
    [1, 0, -1],
    [1, 0, -2],
    [1, 1, -2],
    [2, 1, -2],
    [2, 1, -3],
    [0, 0, -1],
    [2, 1, 0],
    [-1, 1, -2],
];

/// Names of some units of the palette, used in one writing out of two.
const NAMED: [(Dim, &str); 5] = [
    ([1, 1, -2], "N"),
    ([2, 1, -2], "J"),
    ([2, 1, -3], "W"),
    ([-1, 1, -2], "Pa"),
    ([0, 0, -1], "Hz"),
];

/// A random file whose units are consistent by construction (see the module's
/// documentation), and the same file with every unit erased: `(with, without)`. Two
/// models: a leaf with inputs, params, states and outputs, and a root that instantiates
/// it, binds its inputs and reads its outputs. The same seed always gives the same
/// texts.
pub fn random_file_with_units(seed: u64) -> (String, String) {
    let mut g = UnitGen {
        rng: fastrand::Rng::with_seed(seed ^ 0x756e_6974),
        text: String::new(),
        vars: Vec::new(),
        table: None,
        sub: Vec::new(),
    };
    let _ = writeln!(g.text, "// Random model with units, seed {seed}.");
    let leaf = g.model("Leaf", &[]);
    g.model("Root", &leaf);
    let with = g.text.replace([OPEN, CLOSE], "");
    let mut without = String::with_capacity(g.text.len());
    let mut inside = false;
    for c in g.text.chars() {
        match c {
            OPEN => inside = true,
            CLOSE => inside = false,
            _ if !inside => without.push(c),
            _ => {}
        }
    }
    (with, without)
}

/// The text with a bad unit: `text` (from [`random_file_with_units`]) with a predicate
/// appended to its last model that compares two declared variables of different
/// dimensions (the check must report E0481), or `None` when it has no such pair.
pub fn with_mismatched_unit(text: &str) -> Option<String> {
    // Declarations in the root model, as written: `param NAME [UNIT]`, `real NAME [UNIT]`.
    let root = text.rfind("model Root")?;
    let mut declared: Vec<(&str, &str)> = Vec::new();
    for line in text[root..].lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let Some(i) = words.iter().position(|w| *w == "param" || *w == "real")
            && let (Some(name), Some(unit)) = (words.get(i + 1), words.get(i + 2))
            && unit.starts_with('[')
        {
            declared.push((name, unit.trim_matches(|c| c == '[' || c == ']')));
        }
    }
    let parse = |u: &str| sit_middle::units::parse_unit(u).ok();
    for (i, (a, ua)) in declared.iter().enumerate() {
        for (b, ub) in &declared[i + 1..] {
            if let (Some(x), Some(y)) = (parse(ua), parse(ub))
                && !x.same_dimension(&y)
            {
                let end = text.rfind('}')?;
                let mut bad = text[..end].to_string();
                let _ = writeln!(bad, "    pred mismatched = {a} < {b};");
                bad.push_str(&text[end..]);
                return Some(bad);
            }
        }
    }
    None
}

/// Opens and closes a unit's brackets in the generated text (erased in one of the
/// two texts).
const OPEN: char = '\u{1}';
const CLOSE: char = '\u{2}';

/// A real variable the expressions may read.
#[derive(Clone)]
struct Var {
    name: String,
    dim: Dim,
}

struct UnitGen {
    rng: fastrand::Rng,
    text: String,
    /// What the rule being drawn may read.
    vars: Vec<Var>,
    /// The model's table: its argument's and values' units.
    table: Option<(Dim, Dim)>,
    /// The outputs of the submodel instance `s`, readable as `s.NAME`.
    sub: Vec<Var>,
}

fn times(a: Dim, b: Dim) -> Dim {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn over(a: Dim, b: Dim) -> Dim {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

const PLAIN: Dim = [0, 0, 0];
const SECOND: Dim = [0, 0, 1];

impl UnitGen {
    /// ` [unit]`, marked so that it can be erased.
    fn unit(&mut self, d: Dim) -> String {
        format!("{OPEN} [{}]{CLOSE}", self.written(d))
    }

    /// How unit `d` is written: a name, or its product of powers (`kg*m^2/s^2`).
    fn written(&mut self, d: Dim) -> String {
        if let Some((_, name)) = NAMED.iter().find(|(n, _)| *n == d)
            && self.rng.bool()
        {
            return name.to_string();
        }
        let part = |pos: bool| -> Vec<String> {
            (["m", "kg", "s"].iter().zip(d))
                .filter(|(_, e)| if pos { *e > 0 } else { *e < 0 })
                .map(|(n, e)| match e.abs() {
                    1 => n.to_string(),
                    k => format!("{n}^{k}"),
                })
                .collect()
        };
        let (num, den) = (part(true), part(false));
        let mut s = if num.is_empty() {
            "1".to_string()
        } else {
            num.join("*")
        };
        for d in den {
            let _ = write!(s, "/{d}");
        }
        s
    }

    fn num(&mut self) -> String {
        format!("{:?}", 0.25 + (self.rng.u8(..16) as f64) * 0.25)
    }

    fn dim(&mut self) -> Dim {
        PALETTE[self.rng.usize(..PALETTE.len())]
    }

    /// A unit for a product's factor or a comparison: mostly the unit of something
    /// readable (so that expressions read variables more than numbers), else drawn.
    fn read_dim(&mut self) -> Dim {
        let n = self.vars.len() + self.sub.len();
        if n == 0 || self.rng.u8(..4) == 0 {
            return self.dim();
        }
        let k = self.rng.usize(..n);
        (self.vars.iter().chain(&self.sub))
            .nth(k)
            .map_or(PLAIN, |v| v.dim)
    }

    /// An expression of unit `d`; `bare` when a number without a unit would take `d`
    /// from its place (a sum's term, a comparison's side, a rule's value), not where it
    /// is a plain factor (a product's operand).
    fn expr(&mut self, d: Dim, depth: u32, bare: bool) -> String {
        if depth >= 3 || self.rng.u8(..3) == 0 {
            return self.leaf(d, bare);
        }
        match self.rng.u8(..10) {
            0 | 1 => {
                let op = ["+", "-"][self.rng.usize(..2)];
                let (a, b) = (self.expr(d, depth + 1, bare), self.expr(d, depth + 1, true));
                format!("({a} {op} {b})")
            }
            2 | 3 => {
                let u = self.read_dim();
                let (a, b) = (
                    self.expr(u, depth + 1, false),
                    self.expr(over(d, u), depth + 1, false),
                );
                format!("({a} * {b})")
            }
            4 => {
                let u = self.read_dim();
                let (a, b) = (
                    self.expr(times(d, u), depth + 1, false),
                    self.expr(u, depth + 1, false),
                );
                format!("({a} / {b})")
            }
            5 => {
                let f = ["min", "max"][self.rng.usize(..2)];
                let (a, b) = (
                    self.expr(d, depth + 1, false),
                    self.expr(d, depth + 1, true),
                );
                format!("{f}({a}, {b})")
            }
            6 => {
                let a = self.expr(d, depth + 1, false);
                let (lo, hi) = (self.num(), self.num());
                format!("limit({a}, -{lo}, {hi})")
            }
            7 => {
                let a = self.expr(times(d, d), depth + 1, false);
                if self.rng.bool() {
                    format!("sqrt(abs({a}))")
                } else {
                    let b = self.expr(d, depth + 1, false);
                    format!("hypot({b}, {a} / {b})")
                }
            }
            8 if d == PLAIN => {
                let a = self.expr(PLAIN, depth + 1, true);
                let f = ["sin", "cos", "exp", "tanh"][self.rng.usize(..4)];
                format!("{f}({a})")
            }
            8 if d.iter().all(|e| e % 2 == 0) => {
                let a = self.expr(d.map(|e| e / 2), depth + 1, false);
                format!("{a} ^ 2")
            }
            _ => {
                let a = self.expr(d, depth + 1, bare);
                format!("-{a}")
            }
        }
    }

    /// A variable of unit `d`, `time` or `dt`, a submodel's output, a table read, or a
    /// number (with its unit where it is not `bare`).
    fn leaf(&mut self, d: Dim, bare: bool) -> String {
        let mut names: Vec<String> = (self.vars.iter().chain(&self.sub))
            .filter(|v| v.dim == d)
            .map(|v| v.name.clone())
            .collect();
        if d == SECOND {
            names.extend(["time".to_string(), "dt".to_string()]);
        }
        if let Some((arg, value)) = self.table
            && value == d
            && self.rng.u8(..4) == 0
        {
            let a = self.expr(arg, 2, true);
            return format!("tb({a})");
        }
        if !names.is_empty() && self.rng.u8(..8) != 0 {
            return names[self.rng.usize(..names.len())].clone();
        }
        let n = self.num();
        if bare && self.rng.bool() {
            n
        } else {
            let u = self.unit(d);
            format!("{n}{u}")
        }
    }

    /// A comparison of two expressions of one unit.
    fn cond(&mut self) -> String {
        let d = self.read_dim();
        let (a, b) = (self.expr(d, 1, false), self.expr(d, 2, true));
        let op = ["<", "<=", ">", ">="][self.rng.usize(..4)];
        format!("{a} {op} {b}")
    }

    /// Declares a variable: `KIND NAME [UNIT]` (the unit in three out of four).
    fn declare(&mut self, kind: &str, name: &str, d: Dim) -> String {
        let unit = if self.rng.u8(..4) == 0 {
            String::new()
        } else {
            self.unit(d)
        };
        format!("    {kind} {name}{unit}")
    }

    /// A model: params, inputs, a table, states with one rule each, outputs; with
    /// `sub`, an instance `s` of the leaf, its inputs bound and its outputs read.
    /// Returns the model's inputs and outputs (for a parent).
    fn model(&mut self, name: &str, sub: &[(Var, bool)]) -> Vec<(Var, bool)> {
        self.vars.clear();
        self.sub.clear();
        self.table = None;
        let mut body = String::new();
        let _ = writeln!(body, "model {name} {{");
        let mut ports = Vec::new();
        for p in 0..self.rng.usize(1..4) {
            let d = self.dim();
            let (decl, v) = (self.declare("param", &format!("p{p}"), d), self.num());
            let _ = writeln!(body, "{decl} = {v};");
            self.vars.push(Var {
                name: format!("p{p}"),
                dim: d,
            });
        }
        // A time constant, for `lag`.
        let decl = self.declare("param", "tau", SECOND);
        let _ = writeln!(body, "{decl} = 0.5;");
        self.vars.push(Var {
            name: "tau".into(),
            dim: SECOND,
        });
        if sub.is_empty() {
            for u in 0..self.rng.usize(1..3) {
                let d = self.dim();
                let decl = self.declare("input real", &format!("u{u}"), d);
                let v = self.num();
                let _ = writeln!(body, "{decl} = {v};");
                let var = Var {
                    name: format!("u{u}"),
                    dim: d,
                };
                ports.push((var.clone(), true));
                self.vars.push(var);
            }
        }
        if self.rng.bool() {
            let (arg, value) = (self.dim(), self.dim());
            let (ua, uv) = (self.unit(arg), self.unit(value));
            let _ = writeln!(
                body,
                "    table tb(a{ua}){uv} = [0, 1, 2] -> [{}, {}, {}] clamp;",
                self.num(),
                self.num(),
                self.num()
            );
            self.table = Some((arg, value));
        }
        if !sub.is_empty() {
            let mut binds = Vec::new();
            for (v, input) in sub {
                if *input {
                    // Bound to params only: no loop through the submodel.
                    let e = self.expr(v.dim, 1, true);
                    binds.push(format!("{} = {e}", v.name));
                } else {
                    self.sub.push(Var {
                        name: format!("s.{}", v.name),
                        dim: v.dim,
                    });
                }
            }
            let _ = writeln!(body, "    sub s: Leaf({});", binds.join(", "));
        }
        let states: Vec<Var> = (0..self.rng.usize(3..7))
            .map(|k| Var {
                name: format!("x{k}"),
                dim: self.dim(),
            })
            .collect();
        let mut rules = String::new();
        for (k, x) in states.iter().enumerate() {
            let out = if k < 2 { "output real" } else { "real" };
            let decl = self.declare(out, &x.name, x.dim);
            let init = self.num();
            let _ = writeln!(body, "{decl} = {init};");
            if k < 2 {
                ports.push((x.clone(), false));
            }
            let rule = self.rule(x);
            rules.push_str(&rule);
            self.vars.push(x.clone());
        }
        self.text.push_str(&body);
        self.text.push_str(&rules);
        self.text.push_str("}\n\n");
        ports
    }

    /// The rule of state `x`, reading what is declared before it.
    fn rule(&mut self, x: &Var) -> String {
        let (n, d) = (&x.name, x.dim);
        match self.rng.u8(..8) {
            0 => format!(
                "    {n} = integral({});\n",
                self.expr(over(d, SECOND), 1, true)
            ),
            1 => {
                let (lo, hi) = (self.num(), self.num());
                let e = self.expr(over(d, SECOND), 1, true);
                format!("    {n} = integral({e}, -{lo}, {hi});\n")
            }
            2 => format!("    {n} = lag({}, tau);\n", self.expr(d, 1, true)),
            3 => {
                let from: Vec<String> = (self.vars.iter())
                    .filter(|v| v.dim == times(d, SECOND))
                    .map(|v| v.name.clone())
                    .collect();
                match from.first() {
                    Some(y) => format!("    {n} = deriv({y});\n"),
                    None => format!("    {n} = {};\n", self.expr(d, 1, true)),
                }
            }
            4 if d == SECOND => format!("    {n} = timer({});\n", self.cond()),
            5 => {
                let u = self.read_dim();
                let e = self.expr(u, 1, true);
                let (lo, hi, a) = (self.num(), self.num(), self.num());
                format!("    {n} = hysteresis({e}, -{lo}, {hi}, {a});\n")
            }
            6 => {
                let (c, e, o) = (self.cond(), self.expr(d, 1, true), self.expr(d, 1, true));
                format!("    {n} = {e} when {c};\n    {n} = {o} otherwise;\n")
            }
            _ => format!("    {n} = {};\n", self.expr(d, 1, true)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The models check, the unit check finds nothing wrong in them, and the same text
    /// without its units is the same program (units are erased: the code generated from
    /// the program is the same).
    #[test]
    fn random_models_with_units_check_and_erase() {
        let mut declared = 0;
        for seed in 0..120 {
            let (with, without) = random_file_with_units(seed);
            assert_eq!(
                (with.clone(), without.clone()),
                random_file_with_units(seed)
            );
            declared += with.matches(" [").count();
            let a = sit_middle::check_source("with.sit", &with);
            assert!(!a.has_errors(), "seed {seed}:\n{}\n{with}", a.render());
            let b = sit_middle::check_source("without.sit", &without);
            assert!(!b.has_errors(), "seed {seed}:\n{}\n{without}", b.render());
            // Only the tables' grids and values are in brackets without units.
            let bracketed = without.lines().filter(|l| l.contains('['));
            assert!(
                bracketed.clone().all(|l| l.contains("table tb")),
                "seed {seed}: {without}"
            );
            let (a, b) = (a.program.unwrap().dump(), b.program.unwrap().dump());
            assert_eq!(a, b, "seed {seed}");
        }
        assert!(declared >= 120 * 8, "{declared} units in 120 files");
    }

    /// A comparison of two declared units of different dimensions is rejected.
    #[test]
    fn a_mismatched_unit_is_rejected() {
        let mut tried = 0;
        for seed in 0..40 {
            let (with, _) = random_file_with_units(seed);
            let Some(bad) = with_mismatched_unit(&with) else {
                continue;
            };
            tried += 1;
            let out = sit_middle::check_source("bad.sit", &bad);
            let errors: Vec<&str> = (out.diagnostics.iter())
                .filter(|d| d.is_error())
                .map(|d| d.code)
                .collect();
            assert_eq!(errors, ["E0481"], "seed {seed}:\n{}", out.render());
        }
        assert!(
            tried >= 30,
            "{tried} of 40 files had two declared dimensions"
        );
    }
}
